/*
 * converge.c - convergence at .aligned instructions. The hardware (sm_70 on) runs a warp's
 * lanes independently, but an .aligned instruction assumes them converged: ptxas makes them
 * so (a WARPSYNC before wgmma.fence, say), and synccheck reports a warp that executes one
 * with lanes missing. ptxi runs diverged lanes in groups, in any order, so the question at
 * the instruction is where each missing lane is:
 * - at the same instruction, or on a path that reaches it in this pass (not through the
 *   back edge of a loop holding it: that is the next pass's instance): wait for it. This
 *   is the elected lane of CUTLASS's PipelineTmaAsync still in the producer's spin while
 *   lanes 1-31 are at wgmma.fence;
 * - on its way out of the kernel (at an exit, or a kernel's ret, maybe after unconditional
 *   branches): wait too, as exited lanes do not count (`if (t >= n) return; ... __syncthreads()`);
 * - anywhere else - past it, at another aligned instruction, or its guard false here: it
 *   passes the instruction by, which is the break (`__syncthreads()` inside
 *   `if (t < stride)` of a tree reduction: the other lanes skip it and loop on).
 */
#include "converge.h"

#include <stdlib.h>
#include <string.h>

#include "report/rules.h"
#include "support/diag.h"

bool converge_needed(const struct dinsn *di)
{
	enum ir_op op = (enum ir_op)di->op;
	return (di->flags & DF_ALIGNED) || di->fam == FAM_WGMMA || op == OP_BAR_SYNC ||
	       op == OP_BAR_ARRIVE || op == OP_BAR_RED;
}

/* The instructions control can go to from pc i of fn (at most n of them in out). */
static uint32_t successors(const struct dfunc *fn, uint32_t i, uint32_t *out, uint32_t n)
{
	const struct dinsn *di = &fn->code[i];
	enum ir_op op = (enum ir_op)di->op;
	uint32_t k = 0;
	bool falls = di->guard >= 0;
	if (op == OP_BRA) {
		out[k++] = di->target;
	} else if (op == OP_BRX_IDX) {
		for (uint32_t e = 0; e < di->s[1].nelem && k + 1 < n; e++)
			out[k++] = (uint32_t)di->s[1].elems[e].off;
	} else if (op != OP_RET && op != OP_EXIT) {
		falls = true;
	}
	if (falls && i + 1 < fn->ncode)
		out[k++] = i + 1;
	return k;
}

#define MAX_SUCC 64

/* Whether `to` is reached from `from` without passing `avoid` (UINT32_MAX: none) or taking
 * an edge in `cut` (pairs u -> h, ncut of them). `seen` and `work` hold fn->ncode. */
static bool reaches(const struct dfunc *fn, uint32_t from, uint32_t to, uint32_t avoid,
		    const uint32_t *cut, uint32_t ncut, uint8_t *seen, uint32_t *work)
{
	memset(seen, 0, fn->ncode);
	uint32_t top = 0, s[MAX_SUCC];
	work[top++] = from;
	seen[from] = 1;
	while (top) {
		uint32_t u = work[--top];
		if (u == to)
			return true;
		uint32_t n = successors(fn, u, s, MAX_SUCC);
		for (uint32_t k = 0; k < n; k++) {
			uint32_t v = s[k];
			bool cutv = v == avoid;
			for (uint32_t c = 0; c < ncut && !cutv; c++)
				cutv = cut[2 * c] == u && cut[2 * c + 1] == v;
			if (!cutv && !seen[v]) {
				seen[v] = 1;
				work[top++] = v;
			}
		}
	}
	return false;
}

/* The back edges u -> h of fn (a depth-first walk from its entry), as pairs in *out. */
static uint32_t back_edges(const struct dfunc *fn, uint32_t **out)
{
	uint32_t n = fn->ncode, nb = 0, cap = 16;
	uint8_t *state = calloc(n, 1);
	uint32_t *stack = malloc(2 * (size_t)n * sizeof *stack); /* node, next successor */
	uint32_t *b = malloc(2 * cap * sizeof *b);
	if (!state || !stack || !b || !n)
		goto out;
	uint32_t top = 0, s[MAX_SUCC];
	stack[0] = 0, stack[1] = 0, top = 1;
	state[0] = 1;
	while (top) {
		uint32_t u = stack[2 * (top - 1)], *next = &stack[2 * (top - 1) + 1];
		uint32_t ns = successors(fn, u, s, MAX_SUCC);
		if (*next == ns) {
			state[u] = 2;
			top--;
			continue;
		}
		uint32_t v = s[(*next)++];
		if (state[v] == 1) {
			if (nb == cap) {
				uint32_t *nbp = realloc(b, 4 * cap * sizeof *b);
				if (!nbp)
					goto out;
				b = nbp;
				cap *= 2;
			}
			b[2 * nb] = u, b[2 * nb + 1] = v, nb++;
		} else if (!state[v]) {
			state[v] = 1;
			stack[2 * top] = v, stack[2 * top + 1] = 0, top++;
		}
	}
out:
	free(state);
	free(stack);
	*out = b;
	return b ? nb : 0;
}

/* Whether lanes at pc `from` of fn reach `to` in this pass: on a path that takes no back
 * edge of a loop holding `to`. */
static bool reaches_this_pass(const struct dfunc *fn, uint32_t from, uint32_t to)
{
	uint32_t *be = NULL, nb = back_edges(fn, &be), ncut = 0;
	uint8_t *seen = malloc(fn->ncode ? fn->ncode : 1);
	uint32_t *work = malloc((fn->ncode ? fn->ncode : 1) * sizeof *work);
	bool r = true; /* out of memory: wait rather than report */
	if (seen && work && be) {
		for (uint32_t e = 0; e < nb; e++) { /* cut the loops holding `to` */
			uint32_t u = be[2 * e], h = be[2 * e + 1];
			if (h == to || reaches(fn, to, u, h, NULL, 0, seen, work)) {
				be[2 * ncut] = u, be[2 * ncut + 1] = h;
				ncut++;
			}
		}
		r = reaches(fn, from, to, UINT32_MAX, be, ncut, seen, work);
	}
	free(be);
	free(seen);
	free(work);
	return r;
}

/* Lanes at pc of frame f leave the warp next: an exit, or a kernel's ret, maybe after
 * unconditional branches. */
static bool on_way_out(const struct frame *f, uint32_t pc)
{
	for (int hops = 0; hops < 16 && pc < f->fn->ncode; hops++) {
		const struct dinsn *di = &f->fn->code[pc];
		if (di->guard >= 0)
			return false;
		if (di->op == OP_EXIT || (di->op == OP_RET && !f->caller))
			return true;
		if (di->op != OP_BRA)
			return false;
		pc = di->target;
	}
	return false;
}

static uint32_t line_at(struct launch *L, const struct dinsn *di)
{
	uint32_t line = 0, col = 0;
	if (di && di->ir)
		src_locate(L->file, di->ir->span.off, &line, &col);
	return line;
}

static enum rule_id aligned_rule(const struct dinsn *di)
{
	enum ir_op op = (enum ir_op)di->op;
	if (di->fam == FAM_WGMMA)
		return RULE_WARPGROUP_ALIGNED;
	if (di->fam == FAM_MMA)
		return RULE_MATRIX_ALIGNED;
	if (op == OP_BARRIER_CLUSTER_ARRIVE || op == OP_BARRIER_CLUSTER_WAIT)
		return RULE_CLUSTER_BAR_DIVERGENT;
	return RULE_BAR_DIVERGENT;
}

bool converge_aligned(struct launch *L, struct warp *w, struct group *g, const struct dinsn *di,
		      uint32_t mask)
{
	uint32_t absent = w->live & ~g->mask, skip = g->mask & ~mask, gone = 0;
	const struct dinsn *at = NULL; /* where lanes that pass it by are */
	bool at_bar = false, wait = false;
	for (struct group *o = w->groups; o && absent; o = o->next) {
		if (o == g || o->state == G_DONE || !(o->mask & absent))
			continue;
		/* o's position in g's frame: its own, or where its calls return to */
		const struct frame *f = o->frame;
		uint32_t pc = o->pc;
		while (f && f != g->frame) {
			pc = f->ret_pc;
			f = f->caller;
		}
		if (!f) { /* g runs in a call o is not in: o may yet call it; no verdict */
			wait = true;
			continue;
		}
		if (o->frame == g->frame && o->pc == g->pc) {
			wait |= o->state == G_READY || o->state == G_WARPSYNC; /* they merge */
			continue;
		}
		if (on_way_out(o->frame, o->pc) ||
		    (o->state != G_BAR && reaches_this_pass(g->frame->fn, pc, g->pc))) {
			wait = true;
			continue;
		}
		gone |= o->mask & absent;
		if (!at) {
			at = &o->frame->fn->code[o->pc];
			at_bar = o->state == G_BAR || at->fam == FAM_SYNC;
		}
	}
	if (!gone && wait) {
		g->state = G_WARPSYNC; /* the scheduler merges the others in at this pc */
		g->wait_id = w->live;
		return false;
	}
	/* lanes here with a false guard: the warp and matrix handlers say it their way */
	if (!gone && (!skip || di->fam == FAM_WGMMA || di->fam == FAM_MMA))
		return true;
	struct strbuf here = {0}, away = {0}, why = {0};
	describe_lanes(w, mask, &here);
	describe_lanes(w, skip | gone, &away);
	if (gone && at_bar)
		sb_printf(&why, " (they wait at the barrier of line %u)", line_at(L, at));
	else if (gone)
		sb_printf(&why, " (they are at line %u, from where they cannot reach it in this pass)",
			  line_at(L, at));
	rule_break(L, aligned_rule(di), mask, "%s%s executed by %s of the warp but not by %s%s",
		   ir_op_name((enum ir_op)di->op), di->flags & DF_ALIGNED ? ".aligned" : "",
		   here.s, away.s, why.s ? why.s : "");
	sb_free(&here);
	sb_free(&away);
	sb_free(&why);
	return !L->stop;
}
