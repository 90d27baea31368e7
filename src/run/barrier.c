/*
 * barrier.c - a CTA barrier or the cluster barrier completing: every thread it waits for
 * arrived (or exited), so its parked groups move on (bar.red's results written), and the
 * data-race detector sees the synchronisation. The instructions are exec_warp.c's.
 */
#include "barrier.h"

#include <string.h>

#include "operand.h"
#include "race.h"
#include "report/rules.h"

static uint32_t line_of(struct launch *L, const struct dinsn *di)
{
	uint32_t line = 0, col = 0;
	if (di->ir)
		src_locate(L->file, di->ir->span.off, &line, &col);
	return line;
}

/* A barrier of the whole CTA (no thread count) completing with its waiters parked at two
 * different aligned barrier instructions: the __syncthreads() inside a divergent if. */
static void check_same_instruction(struct launch *L, struct cta *c, uint32_t id)
{
	const struct dinsn *first = NULL;
	for (uint32_t i = 0; i < c->nwarps; i++)
		for (struct group *g = c->warps[i].groups; g; g = g->next) {
			if (g->state != G_BAR || g->wait_id != id)
				continue;
			const struct dinsn *di = &g->frame->fn->code[g->pc];
			if (!is_aligned_bar(di))
				continue;
			if (!first) {
				first = di;
			} else if (di != first) {
				rule_break(L, RULE_BAR_DIVERGENT, 0, "barrier %u completes with threads "
					   "waiting at two aligned barrier instructions, lines %u and %u: "
					   "every thread of the CTA must execute the same one", id,
					   line_of(L, first), line_of(L, di));
				return;
			}
		}
}

void bar_release(struct launch *L, struct cta *c, uint32_t id)
{
	struct barstate *b = &c->bar[id];
	if (!b->expected && b->mixed) /* (else every waiter parked at one instruction) */
		check_same_instruction(L, c, id);
	/* Release: every group parked on this barrier moves past it (bar.red gets results). */
	if (L->race) /* (its waiters acquire the instance's clock) */
		race_bar_complete(L, c, id);
	if (!b->red) { /* the common case: its waiters move past it, nothing more */
		for (struct warp *w = c->warps, *end = w + c->nwarps; w != end; w++)
			for (struct group *g = w->groups; g; g = g->next)
				if (g->state == G_BAR && g->wait_id == id) {
					g->state = G_READY;
					g->pc++;
				}
		memset(b, 0, sizeof *b);
		L->epoch++;
		return;
	}
	for (uint32_t i = 0; i < c->nwarps; i++) {
		struct warp *w = &c->warps[i];
		for (struct group *g = w->groups; g; g = g->next) {
			if (g->state != G_BAR || g->wait_id != id)
				continue;
			const struct dinsn *di = b->red ? &g->frame->fn->code[g->pc] : NULL;
			if (di && (di->op == OP_BAR_RED || di->op == OP_BARRIER_RED)) {
				uint64_t r = di->mode == MOD_POPC ? b->red_popc
					     : di->mode == MOD_AND ? b->red_and == b->arrived
								   : b->red_or != 0;
				for (uint32_t m = g->mask; m; m &= m - 1)
					op_write(g->frame, &di->d, (uint32_t)__builtin_ctz(m), r);
			}
			g->state = G_READY;
			g->pc++;
		}
	}
	memset(b, 0, sizeof *b);
	L->epoch++;
}

/* The cluster barrier's phase completes when every non-exited thread of the cluster
 * arrived; its waiters re-execute barrier.cluster.wait. */
void cluster_bar_check(struct launch *L, struct cluster *cl)
{
	if (cl->cbar_arrived == 0 || cl->cbar_arrived < cl->live_threads)
		return;
	cl->cbar_phase++;
	cl->cbar_arrived = 0;
	L->epoch++;
	race_cbar_done(L, cl);
	for (uint32_t i = 0; i < cl->nctas; i++) {
		struct cta *c = &cl->ctas[i];
		for (uint32_t k = 0; k < c->nwarps; k++) {
			struct warp *w = &c->warps[k];
			w->cbar_arrived = 0;
			for (struct group *g = w->groups; g; g = g->next)
				if (g->state == G_CLUSTER_BAR)
					g->state = G_READY; /* re-executes the wait */
		}
	}
}
