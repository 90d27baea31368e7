/*
 * sched.c - running a launch: clusters one after another, the CTAs of a cluster together,
 * warps round-robin, and inside a warp the group with the lowest pc first so divergent
 * lanes re-converge. Blocked groups are parked; when nothing can run, pending async copies
 * land, then parked try_waits time out (answer False), and when even that changes nothing
 * the launch is a deadlock, reported with who waits on what.
 */
#include "sched.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hopper/async.h"
#include "exec.h"
#include "initcheck.h"
#include "frame.h"
#include "report/gather.h"
#include "report/level.h"
#include "group.h"
#include "interp.h"
#include "hopper/mbarrier.h"
#include "memory.h"
#include "race.h"
#include "report/rules.h"
#include "report/srcloc.h"
#include "report/timeline.h"
#include "debug_hook.h"
#include "hopper/wgmma.h"
#include "spin.h"
#include "sweep.h"

/* A deadlock: time-out rounds in a row with no progress, until either limit. Bounded
 * polling loops of up to a million polls still give up as on the hardware; kernels with
 * many polling warps are called deadlocked after as many steps of polling in all. */
#define TIMEOUT_ROUNDS 1000000
#define TIMEOUT_STEPS 20000000ull
#define TIMEOUT_NS 1000      /* simulated time a timed-out try_wait spent suspended      */
#define POLL_LIMIT 2048      /* steps a parked try_wait/test_wait sleeps while others run */

/* A warp's group that is done with (its warp exited, or its cluster finished) kept for a
 * warp of a later CTA: setup_cluster takes one per warp (group_take), so a grid of many
 * CTAs calls malloc and free for a cluster's groups once, not for each CTA. */
static void group_keep(struct launch *L, struct group *g)
{
	g->next = L->spare_groups;
	L->spare_groups = g;
}

/* A group, all zero: a kept one, cleared, or new (NULL: out of memory). */
static struct group *group_take(struct launch *L)
{
	struct group *g = L->spare_groups;
	if (!g)
		return calloc(1, sizeof *g);
	L->spare_groups = g->next;
	memset(g, 0, sizeof *g);
	return g;
}

static void groups_free(struct launch *L)
{
	while (L->spare_groups) {
		struct group *g = L->spare_groups;
		L->spare_groups = g->next;
		free(g);
	}
}

/* Merge groups at the same instruction of the same frame; pick the one to run: the
 * deepest frame, then the lowest pc (pick, below, when the warp is not one group). What
 * this does with a warp of two groups that meet, group_rejoin (group.c) does in place. */
static struct group *pick_slow(struct warp *w)
{
	struct group **pp = &w->groups;
	while (*pp) {
		struct group *g = *pp;
		if (g->state == G_DONE) {
			*pp = g->next;
			if (w->last_pick == g)
				w->last_pick = NULL;
			frame_release(w->cta->cluster->L, w, g->frame);
			group_keep(w->cta->cluster->L, g);
			continue;
		}
		pp = &g->next;
	}
	for (struct group *a = w->groups; a; a = a->next) {
		if (a->state != G_READY && a->state != G_WARPSYNC)
			continue;
		struct group **bp = &a->next;
		while (*bp) {
			struct group *b = *bp;
			if ((b->state == G_READY || b->state == G_WARPSYNC) && b->pc == a->pc &&
			    b->frame == a->frame) {
				a->mask |= b->mask;
				if (b->state == G_READY)
					a->state = G_READY;
				*bp = b->next;
				if (w->last_pick == b)
					w->last_pick = a;
				frame_release(w->cta->cluster->L, w, b->frame);
				free(b);
				continue;
			}
			bp = &b->next;
		}
		if (a->state == G_WARPSYNC && !(a->wait_id & w->live & ~a->mask))
			a->state = G_READY;
	}
	struct group *best = NULL, *other = NULL;
	for (struct group *g = w->groups; g; g = g->next) {
		if (g->state != G_READY)
			continue;
		if (!best || g->frame->depth > best->frame->depth ||
		    (g->frame->depth == best->frame->depth && g->pc < best->pc)) {
			other = best ? best : other;
			best = g;
		} else if (!other) {
			other = g;
		}
	}
	/* Independent thread scheduling guarantees progress to every group: the lowest pc goes
	 * first (so lanes re-converge), but a group that keeps being picked while another is
	 * ready - a spin loop waiting for its own warp's lanes, such as an intra-warp lock -
	 * lets that other group run once. */
	if (best && other && best == w->last_pick) {
		if (++w->streak >= FAIR_PICKS) {
			w->streak = 0;
			best = other;
		}
	} else {
		w->streak = 0;
	}
	w->last_pick = best;
	return best;
}

/* The group of w to run next, or NULL (pick_slow); a converged warp's inline. */
static inline struct group *pick(struct warp *w)
{
	struct group *one = w->groups;
	if (one && !one->next && one->state != G_DONE && one->state != G_WARPSYNC) {
		/* the common case, a converged warp: nothing to free or merge, no rival */
		w->streak = 0;
		w->last_pick = one->state == G_READY ? one : NULL;
		return w->last_pick;
	}
	return pick_slow(w);
}

/* ---- cluster set-up ------------------------------------------------------------------ */

/* What a CTA holds on the host, charged against --max-memory. */
static uint64_t cta_bytes(uint32_t smem, uint32_t nwarps)
{
	return (uint64_t)smem + init_map_bytes(smem) + (uint64_t)nwarps * sizeof(struct warp);
}

/* A finished CTA's shared memory, initcheck map, warps and proxy map, kept for a CTA of the
 * launch's next cluster (the same sizes: the launch's shape), which clears them: a grid of
 * many clusters then allocates them for a cluster's CTAs once, not for each CTA of the grid
 * (no calls of malloc and free, no consolidation of its bins, per CTA). */
#define CTA_SPARES 8
struct cta_spare {
	uint8_t *smem, *init_bits, *proxy_dirty;
	struct warp *warps;
	uint32_t smem_size, nwarps; /* (what they were made for) */
};

static void spare_free(struct cta_spare *s)
{
	free(s->smem);
	free(s->init_bits);
	free(s->proxy_dirty);
	free(s->warps);
}

/* c's smem_size bytes of shared memory, initcheck map and nwarps warps, all zero: a spare's,
 * cleared, or new (the proxy map then made on the first store, memory.c). */
static bool cta_alloc(struct launch *L, struct cta *c, uint32_t nwarps)
{
	uint32_t smem = c->smem_size;
	struct cta_spare *s = L->nspare ? &L->spare[--L->nspare] : NULL;
	if (s && (s->smem_size != smem || s->nwarps != nwarps)) { /* (never, within a launch) */
		spare_free(s);
		s = NULL;
	}
	if (s) {
		c->smem = s->smem;
		c->init_bits = s->init_bits;
		c->warps = s->warps;
		c->proxy_dirty = s->proxy_dirty;
		memset(c->smem, 0, smem ? smem : 1);
		if (c->init_bits)
			memset(c->init_bits, 0, init_map_bytes(smem));
		memset(c->warps, 0, nwarps * sizeof *c->warps);
		if (c->proxy_dirty)
			memset(c->proxy_dirty, 0, proxy_map_bytes(smem));
		return true;
	}
	c->smem = calloc(1, smem ? smem : 1);
	c->init_bits = smem ? calloc(1, init_map_bytes(smem)) : NULL;
	c->warps = calloc(nwarps, sizeof *c->warps);
	return c->smem && (!smem || c->init_bits) && c->warps;
}

/* c's allocations to L's spares, or freed when it holds enough (or c's are not whole). */
static void cta_keep(struct launch *L, struct cta *c)
{
	struct cta_spare s = {c->smem, c->init_bits, c->proxy_dirty, c->warps, c->smem_size,
			      c->nwarps};
	if (!L->spare) /* (out of memory: none kept) */
		L->spare = calloc(CTA_SPARES, sizeof *L->spare);
	if (L->spare && L->nspare < CTA_SPARES && c->smem && c->warps &&
	    (c->init_bits || !c->smem_size))
		L->spare[L->nspare++] = s;
	else
		spare_free(&s);
}

static void cta_spares_free(struct launch *L)
{
	for (uint32_t i = 0; i < L->nspare; i++)
		spare_free(&L->spare[i]);
	free(L->spare);
	L->spare = NULL;
	L->nspare = 0;
}

/* Make cluster cid's CTAs in `ctas` (zeroed, the cluster's size), in slots from slot0 on. */
static bool setup_cluster(struct launch *L, struct cluster *cl, const uint32_t cid[3],
			  struct cta *ctas, uint32_t slot0)
{
	const struct launch_config *k = &L->cfg;
	memset(cl, 0, sizeof *cl);
	cl->L = L;
	L->initcheck = rule_level_of(L, RULE_SHARED_UNINIT) != SEV_OFF;
	memcpy(cl->id, cid, sizeof cl->id);
	if (!ctas)
		return false;
	cl->ctas = ctas;
	cl->nctas = k->cluster[0] * k->cluster[1] * k->cluster[2];
	uint32_t nthreads = k->block[0] * k->block[1] * k->block[2];
	uint32_t nwarps = (nthreads + LANES - 1) / LANES;
	uint32_t smem = cta_user_smem(L->kernel, k->dyn_shared);
	if (L->P->reserved_smem) /* the driver's reserved KiB, after the kernel's own */
		smem = cta_reserved_begin(smem) + RESERVED_SMEM;
	for (uint32_t r = 0; r < cl->nctas; r++) {
		struct cta *c = &cl->ctas[r];
		if (!launch_charge(L, cta_bytes(smem, nwarps), "a CTA's shared memory and warps"))
			return false;
		c->charged = true;
		c->smem_size = smem;
		c->nwarps = nwarps;
		c->cluster = cl;
		c->rank = r;
		c->slot = slot0 + r;
		c->cluster_ctaid[0] = r % k->cluster[0];
		c->cluster_ctaid[1] = (r / k->cluster[0]) % k->cluster[1];
		c->cluster_ctaid[2] = r / (k->cluster[0] * k->cluster[1]);
		for (int d = 0; d < 3; d++)
			c->ctaid[d] = cid[d] * k->cluster[d] + c->cluster_ctaid[d];
		c->linear = c->ctaid[0] + k->grid[0] * (c->ctaid[1] + k->grid[1] * c->ctaid[2]);
		c->smem_size = smem;
		if (!cta_alloc(L, c, nwarps))
			return false;
		c->nthreads = c->live_threads = nthreads;
		for (uint32_t i = 0; i < nwarps; i++) {
			struct warp *w = &c->warps[i];
			w->cta = c;
			w->id = i;
			uint32_t n = nthreads - i * LANES;
			w->valid = w->live = n >= LANES ? FULL_MASK : (1u << n) - 1;
			w->local_top = 0;
			struct group *g = group_take(L);
			if (!g)
				return false;
			g->frame = sched_base_frame(L, w);
			if (!g->frame) {
				group_keep(L, g);
				return false;
			}
			g->mask = w->valid;
			g->state = G_READY;
			w->groups = g;
		}
	}
	cl->live_threads = cl->nctas * nthreads;
	return true;
}

static void free_cluster(struct cluster *cl)
{
	if (!cl->L) /* never set up (a cooperative grid's, after one that failed) */
		return;
	spin_free(cl->L, &cl->spin);
	for (uint32_t r = 0; r < cl->nctas; r++) {
		struct cta *c = &cl->ctas[r];
		if (c->warps)
			wgmma_cta_free(cl->L, c);
		for (uint32_t i = 0; i < c->nwarps && c->warps; i++) {
			struct warp *w = &c->warps[i];
			while (w->groups) {
				struct group *g = w->groups;
				w->groups = g->next;
				frame_release(w->cta->cluster->L, w, g->frame);
				group_keep(cl->L, g);
			}
			mem_release(cl->L->mem, (uint64_t)LANES * w->local_stride);
			free(w->local);
			free(w->bad_cvta_at);
		}
		if (c->charged)
			mem_release(cl->L->mem, cta_bytes(c->smem_size, c->nwarps));
		if (c->mbar_at)
			mem_release(cl->L->mem, mbar_shadow_bytes(c));
		free(c->mbar_at);
		cta_keep(cl->L, c);
	}
}

/* ---- deadlock report ----------------------------------------------------------------- */

/* Threads of CTA c that exited (or "none"). */
static void exited_threads(struct launch *L, struct cta *c, struct strbuf *b)
{
	bool any = false;
	for (uint32_t i = 0; i < c->nwarps; i++) {
		struct warp *w = &c->warps[i];
		uint32_t m = w->valid & ~w->live;
		if (!m)
			continue;
		struct strbuf t = {0};
		describe_threads(L, w, m, &t);
		sb_printf(b, "%s%s", any ? "; " : "", t.s);
		sb_free(&t);
		any = true;
	}
	if (!any)
		sb_printf(b, "none");
}

/* The other blocked groups of the cluster, with where they wait: the threads that could
 * have arrived but are stuck elsewhere. */
static bool same_site(const struct warp *wa, const struct group *a, const struct warp *wb,
		      const struct group *b);

static void waiting_elsewhere(struct launch *L, struct cluster *cl, const struct warp *sw,
			      const struct group *self, struct strbuf *b)
{
	bool any = false;
	for (uint32_t r = 0; r < cl->nctas; r++)
		for (uint32_t i = 0; i < cl->ctas[r].nwarps; i++) {
			struct warp *w = &cl->ctas[r].warps[i];
			for (const struct group *g = w->groups; g; g = g->next) {
				if (g->state == G_DONE || same_site(sw, self, w, g))
					continue;
				if (self->state == G_MBAR && g->state == G_MBAR &&
				    g->wait_mbar == self->wait_mbar)
					continue; /* waiting on the same barrier: not "elsewhere" */
				const struct dinsn *di = &g->frame->fn->code[g->pc];
				uint32_t line = 0, col = 0;
				if (di->ir)
					src_locate(L->file, di->ir->span.off, &line, &col);
				struct strbuf t = {0};
				describe_threads(L, w, g->mask, &t);
				sb_printf(b, "\n  %s at line %u (%s%s)", t.s, line,
					  ir_op_name((enum ir_op)di->op),
					  g->state == G_READY ? ", still running" : "");
				sb_free(&t);
				any = true;
			}
		}
	if (!any)
		sb_printf(b, " none");
}

/* Groups blocked at the same instruction on the same thing, in the same CTA. */
static bool same_site(const struct warp *wa, const struct group *a, const struct warp *wb,
		      const struct group *b)
{
	return wa->cta == wb->cta && a->frame->fn == b->frame->fn && a->pc == b->pc &&
	       a->state == b->state && a->wait_mbar == b->wait_mbar && a->wait_id == b->wait_id;
}

/* "CTA (0,0,0) threads 0-63": every thread of w's CTA blocked at g's site, as ranges of
 * linear thread ids; appends those groups to `done`. */
static void site_threads(struct warp *w, struct group *g, struct strbuf *b,
			 struct group **done, uint32_t *ndone)
{
	struct cta *c = w->cta;
	struct strbuf r = {0};
	uint32_t count = 0, nranges = 0;
	int64_t open = -1;
	for (uint32_t i = 0; i <= c->nwarps; i++) {
		uint32_t mask = 0;
		for (struct group *o = i < c->nwarps ? c->warps[i].groups : NULL; o; o = o->next)
			if (o->state != G_DONE && same_site(w, g, &c->warps[i], o)) {
				mask |= o->mask;
				done[(*ndone)++] = o;
			}
		for (uint32_t l = 0; l < LANES; l++) {
			int64_t t = (int64_t)i * LANES + l;
			bool in = i < c->nwarps && (mask >> l & 1);
			if (in && open < 0)
				open = t;
			if (!in && open >= 0) { /* the range [open, t-1] ends */
				sb_printf(&r, nranges++ ? ", %lld" : "%lld", (long long)open);
				if (t - 1 > open)
					sb_printf(&r, "-%lld", (long long)(t - 1));
				count += (uint32_t)(t - open);
				open = -1;
			}
		}
	}
	sb_printf(b, "CTA (%u,%u,%u) thread%s %s", c->ctaid[0], c->ctaid[1], c->ctaid[2],
		  count == 1 ? "" : "s", r.s ? r.s : "?");
	sb_free(&r);
}

/* The words of a blocked group's report: a deadlock, or, at the step limit, threads that
 * wait while a loop runs (which might yet release them: never worded as a deadlock). */
struct wording {
	const char *lead, *forever, *never_completes, *never_arrive, *rule;
};
static const struct wording deadlock_words = {"deadlock: ", " forever", "never completes",
					      "never arrive", "deadlock"};
static const struct wording step_limit_words = {
	"blocked while a loop runs past the step limit: ", "", "has not completed",
	"have not arrived", "step-limit"};

static bool watch_loop(struct launch *L, struct warp *w, struct group *g, struct spin_rec *rec);
static void polled(struct launch *L, const struct spin_rec *rec, struct strbuf *msg);

static void report_group(struct launch *L, struct warp *w, struct group *g, struct group **done,
			 uint32_t *ndone, bool spinning)
{
	const struct wording *wd = spinning ? &step_limit_words : &deadlock_words;
	const struct dinsn *di = &g->frame->fn->code[g->pc];
	struct strbuf msg = {0}, n = {0};
	struct cta *c = w->cta;
	L->ci = di;
	L->cw = w;
	site_threads(w, g, &n, done, ndone);
	switch (g->state) {
	case G_BAR: {
		struct barstate *b = &c->bar[g->wait_id];
		sb_printf(&msg, "%s%s waits%s at barrier %u", wd->lead, ir_op_name((enum ir_op)di->op),
			  wd->forever, g->wait_id);
		sb_printf(&n, "\nbarrier %u: %u of %u threads arrived", g->wait_id, b->arrived,
			  b->expected ? b->expected : c->live_threads);
		sb_printf(&n, "\nthreads blocked elsewhere:");
		waiting_elsewhere(L, c->cluster, w, g, &n);
		break;
	}
	case G_CLUSTER_BAR:
		sb_printf(&msg, "%sbarrier.cluster.wait waits%s", wd->lead, wd->forever);
		sb_printf(&n, "\nbarrier.cluster phase %u: %u of %u live threads of the cluster "
			  "arrived%s", c->cluster->cbar_phase, c->cluster->cbar_arrived,
			  c->cluster->live_threads,
			  (w->cbar_waitable & g->mask) == g->mask ? ""
								    : " (these threads never arrived)");
		sb_printf(&n, "\nthreads blocked elsewhere:");
		waiting_elsewhere(L, c->cluster, w, g, &n);
		break;
	case G_MBAR: {
		struct mbar *mb = g->wait_mbar;
		uint32_t within = 0;
		const struct ir_sym *s = srcloc_shared_var(L->kernel, mb->off, &within);
		sb_printf(&msg, "%s%s waits%s: the phase %s", wd->lead, ir_op_name((enum ir_op)di->op),
			  wd->forever, wd->never_completes);
		sb_printf(&n, "\non mbarrier ");
		if (s) {
			srcloc_var(s, within, 8, &n);
			sb_printf(&n, " ");
		}
		sb_printf(&n, "(CTA (%u,%u,%u), shared 0x%x): ", mb->cta->ctaid[0], mb->cta->ctaid[1],
			  mb->cta->ctaid[2], mb->off);
		mbar_describe(mb, &n);
		mbar_describe_wait(L, w, g, mb, &n);
		if (mb->pending > 0)
			sb_printf(&n, "\n%lld arrival%s still missing", (long long)mb->pending,
				  mb->pending == 1 ? "" : "s");
		if (mb->tx > 0)
			sb_printf(&n, "\n%lld bytes of %lld still expected (no asynchronous copy is in "
				  "flight)", (long long)mb->tx, (long long)mb->tx_expected);
		else if (mb->tx < 0)
			sb_printf(&n, "\n%lld bytes completed beyond what was expected",
				  (long long)-mb->tx);
		sb_printf(&n, "\nthreads of CTA (%u,%u,%u) that exited: ",
			  mb->cta->ctaid[0], mb->cta->ctaid[1], mb->cta->ctaid[2]);
		exited_threads(L, mb->cta, &n);
		sb_printf(&n, "\nthreads blocked elsewhere:");
		waiting_elsewhere(L, c->cluster, w, g, &n);
		break;
	}
	case G_WARPSYNC:
		sb_printf(&msg, "%s%s waits for lanes of its warp that %s", wd->lead,
			  ir_op_name((enum ir_op)di->op), wd->never_arrive);
		sb_printf(&n, "\nmembermask 0x%08x; lanes here 0x%08x; lanes alive 0x%08x", g->wait_id,
			  g->mask, w->live);
		break;
	case G_WGMMA:
		sb_printf(&msg, "%swgmma.mma_async waits%s for the other warps of its warpgroup to "
			  "issue it", wd->lead, wd->forever);
		sb_printf(&n, "\nthreads blocked elsewhere:");
		waiting_elsewhere(L, c->cluster, w, g, &n);
		break;
	case G_READY:
		if (!spinning) { /* spin.c: a loop that reads what nothing will change */
			struct spin_rec rec = {0};
			watch_loop(L, w, g, &rec);
			if (rec.head) /* where the loop begins, not where the watch happened to stop
				       * it: the same place whatever the schedule (--jobs) */
				di = rec.head;
			L->ci = di;
			L->cw = w;
			sb_printf(&msg, "%sthreads spin%s in a loop", wd->lead, wd->forever);
			if (rec.first_line && rec.last_line > rec.first_line)
				sb_printf(&msg, ", lines %u-%u", rec.first_line, rec.last_line);
			polled(L, &rec, &msg);
			sb_printf(&n, "\nno instruction that still runs writes memory or arrives on a "
				  "barrier: what the loop waits for can never happen");
			break;
		}
		/* fall through */
	default:
		sb_printf(&msg, "%sthreads wait%s", wd->lead, wd->forever);
		break;
	}
	sb_printf(&msg, " [%s]", wd->rule);
	gather_flush(L);
	if (!spinning)
		gather_count(L, "deadlock");
	srcloc_emit(L->diag, DIAG_ERROR, L->file, L->P->m, di->ir, srcloc_func_of(L->P, di), n.s,
		    msg.s);
	if (L->timeline) {
		sb_printf(&msg, "\n%s", n.s ? n.s : "");
		tl_wait(L, w, g->mask, g->state == G_MBAR && g->parked_at ? g->parked_at : L->steps,
			msg.s);
	}
	sb_free(&msg);
	sb_free(&n);
}

static bool in_list(struct group **list, uint32_t n, const struct group *g)
{
	for (uint32_t i = 0; i < n; i++)
		if (list[i] == g)
			return true;
	return false;
}

/* Run group g a while longer with diagnostics off, watching what it reads into *rec (the
 * lines of its loop, the places it polls). Returns whether it ended meanwhile. */
static bool watch_loop(struct launch *L, struct warp *w, struct group *g, struct spin_rec *rec)
{
	struct diag saved = *L->diag;
	int status = L->status;
	bool stop = L->stop, trace = L->cfg.trace_print;
	struct timeline *tl = L->timeline;
	struct report *rep = L->rep; /* what the watch breaks is no report of the launch's */
	struct gather_log *log = L->log;
	L->rep = NULL;
	L->log = NULL;
	L->diag->sink = NULL;
	L->diag->record = NULL;
	L->cfg.trace_print = false;
	L->timeline = NULL;
	L->spin_rec = rec;
	const void *fn = g->frame->fn;
	for (uint32_t k = 0; k < 4096 && g->state == G_READY && !L->stop; k++) {
		const struct dinsn *di = &g->frame->fn->code[g->pc];
		if (g->frame->fn == fn && (!rec->head || di < rec->head))
			rec->head = di;
		uint32_t line = 0, col = 0;
		if (di->ir)
			src_locate(L->file, di->ir->span.off, &line, &col);
		if (line && (!rec->first_line || line < rec->first_line))
			rec->first_line = line;
		if (line > rec->last_line)
			rec->last_line = line;
		if (!interp_run_group(L, w, g, 1, NULL))
			break;
	}
	L->spin_rec = NULL;
	gather_free(L); /* into the silenced diagnostics */
	L->rep = rep;
	L->log = log;
	*L->diag = saved;
	L->status = status;
	L->stop = stop;
	L->cfg.trace_print = trace;
	L->timeline = tl;
	return g->state == G_DONE;
}

/* ", and CTAs (5,0,0), ... have exited" for the CTAs of a cooperative grid (running now,
 * L->cw's set) whose threads all exited: a grid sync waits for them forever. */
static void exited_ctas(struct launch *L, struct strbuf *msg)
{
	const struct cluster *cl = L->running;
	uint32_t n = 0;
	for (uint32_t r = 0; cl && r < cl->nctas; r++) {
		const struct cta *c = &cl->ctas[r];
		if (!c->exited)
			continue;
		if (n < 8)
			sb_printf(msg, "%s(%u,%u,%u)", n ? ", " : "; CTAs that exited before it: ",
				  c->ctaid[0], c->ctaid[1], c->ctaid[2]);
		n++;
	}
	if (n > 8)
		sb_printf(msg, " and %u more", n - 8);
}

/* What a loop polls: ": it polls global 0x.. (4 bytes), ..." or ", reading no memory". */
static void polled(struct launch *L, const struct spin_rec *rec, struct strbuf *msg)
{
	for (uint32_t i = 0; i < rec->n; i++)
		sb_printf(msg, "%s %s 0x%llx (%u bytes)", i ? "," : ": it polls",
			  mem_space_name((enum mspace)rec->place[i].space),
			  (unsigned long long)rec->place[i].addr, rec->place[i].size);
	if (!rec->n)
		sb_printf(msg, ", reading no memory");
	for (uint32_t i = 0; i < rec->n; i++) {
		uint64_t a = rec->place[i].addr, ws = L->mem->grid_ws;
		if (!ws || a < ws || a >= ws + 16)
			continue;
		if (!L->cfg.cooperative) {
			sb_printf(msg, " (the grid-sync workspace: this_grid().sync() in a launch that "
				  "is not cooperative, whose clusters ptxi runs one after another; "
				  "only a cooperative launch has every CTA resident at once)");
		} else {
			sb_printf(msg, " (the grid-sync workspace: this_grid().sync() waits for every "
				  "CTA of the grid");
			exited_ctas(L, msg);
			sb_printf(msg, ")");
		}
		break;
	}
}

/* A group still running at the step limit: run it a while longer, and say where its loop
 * is and what it polls; or, when it ends meanwhile, that it was no loop (false). */
static bool explain_spin(struct launch *L, struct warp *w, struct group *g)
{
	struct spin_rec rec = {0};
	const struct dinsn *at = &g->frame->fn->code[g->pc];
	bool ended = watch_loop(L, w, g, &rec);
	struct strbuf msg = {0}, n = {0};
	describe_threads(L, w, g->mask, &n);
	if (ended)
		sb_printf(&msg, "not a loop: these threads end within the next 4096 "
			  "warp-instructions");
	else if (rec.first_line && rec.last_line > rec.first_line)
		sb_printf(&msg, "a loop that never ends, lines %u-%u", rec.first_line, rec.last_line);
	else
		sb_printf(&msg, "a loop that never ends");
	if (!ended)
		polled(L, &rec, &msg);
	srcloc_emit(L->diag, DIAG_NOTE, L->file, L->P->m, at->ir, srcloc_func_of(L->P, at), n.s,
		    msg.s);
	sb_free(&msg);
	sb_free(&n);
	return !ended;
}

/* Report every blocked group. A deadlock: nothing can run; at the step limit (`spinning`)
 * other threads still run, so those blocked would wait forever on them. */
static void report_blocked(struct launch *L, struct cluster *cl, bool spinning)
{
	uint32_t shown = 0, blocked = 0, spun = 0, ndone = 0, ngroups = 0;
	tl_stop(L); /* the loops watched below are no part of the launch's picture */
	for (uint32_t r = 0; r < cl->nctas; r++)
		ngroups += cl->ctas[r].nwarps * LANES; /* a watched loop may split its group */
	struct group **done = calloc(ngroups + 1, sizeof *done);
	if (!done)
		return;
	for (uint32_t r = 0; r < cl->nctas; r++)
		for (uint32_t i = 0; i < cl->ctas[r].nwarps; i++)
			for (struct group *g = cl->ctas[r].warps[i].groups; g; g = g->next) {
				if (g->state == G_DONE || (spinning && g->state == G_READY))
					continue;
				blocked += popcount32(g->mask);
				spun += g->state == G_READY ? popcount32(g->mask) : 0;
				if (in_list(done, ndone, g))
					continue;
				if (shown++ < 16)
					report_group(L, &cl->ctas[r].warps[i], g, done, &ndone,
						     spinning);
			}
	free(done);
	uint32_t spins = 0, loops = 0;
	for (uint32_t r = 0; spinning && r < cl->nctas; r++)
		for (uint32_t i = 0; i < cl->ctas[r].nwarps && spins < 4; i++)
			for (struct group *g = cl->ctas[r].warps[i].groups; g && spins < 4; g = g->next)
				if (g->state == G_READY) {
					gather_flush(L);
					loops += explain_spin(L, &cl->ctas[r].warps[i], g);
					spins++;
				}
	char m[300];
	if (spinning && !loops) /* what runs now ends (or nothing does): no loop to blame */
		snprintf(m, sizeof m, "the launch ran past the step limit (%llu warp-instructions; "
			 "see --max-steps) in cluster %llu of %llu, with no thread in a loop: a "
			 "larger --max-steps may let it end [step-limit]",
			 (unsigned long long)L->max_steps, (unsigned long long)L->clusters_done + 1,
			 (unsigned long long)L->clusters);
	else if (spinning)
		snprintf(m, sizeof m, "the launch ran past the step limit (%llu warp-instructions; "
			 "see --max-steps): a loop that never ends%s [step-limit]",
			 (unsigned long long)L->max_steps,
			 blocked ? " while the threads above wait" : "");
	else if (spun) /* spin.c: loops that nothing can release */
		snprintf(m, sizeof m, "deadlock: the launch can never finish: %u thread%s blocked, "
			 "%u of them spinning on what no thread will change%s [deadlock]", blocked,
			 blocked == 1 ? "" : "s", spun, shown > 16 ? " (the first 16 places shown)" : "");
	else
		snprintf(m, sizeof m, "deadlock: the launch can never finish: %u thread%s blocked, "
			 "nothing left to run%s [deadlock]", blocked, blocked == 1 ? "" : "s",
			 shown > 16 ? " (the first 16 places shown)" : "");
	gather_flush(L);
	if (spinning)
		gather_count(L, "step-limit");
	diag_emit(L->diag, DIAG_ERROR, NULL, (struct src_span){0, 0}, NULL, m);
	L->status = 3;
	L->stop = true;
}

bool sched_launch_limit(struct launch *L, uint64_t steps)
{
	if (steps <= L->max_steps || L->clusters_done >= L->clusters)
		return false;
	char m[300];
	snprintf(m, sizeof m, "the launch ran past the step limit (%llu warp-instructions; see "
		 "--max-steps) after %llu of %llu clusters, with no thread in a loop: a larger "
		 "--max-steps may let it end [step-limit]", (unsigned long long)L->max_steps,
		 (unsigned long long)L->clusters_done, (unsigned long long)L->clusters);
	gather_flush(L);
	gather_count(L, "step-limit");
	diag_emit(L->diag, DIAG_ERROR, NULL, (struct src_span){0, 0}, NULL, m);
	L->status = 3;
	L->stop = true;
	return true;
}

/* Where every warp of the cluster stands, when the user interrupts the launch: a note at
 * each place threads are (running, or what they wait on), then the closing error. */
static void report_interrupted(struct launch *L, struct cluster *cl)
{
	gather_flush(L);
	uint32_t shown = 0;
	for (uint32_t r = 0; r < cl->nctas; r++)
		for (uint32_t i = 0; i < cl->ctas[r].nwarps; i++) {
			struct warp *w = &cl->ctas[r].warps[i];
			for (struct group *g = w->groups; g && shown < 16; g = g->next) {
				if (g->state == G_DONE)
					continue;
				const struct dinsn *di = &g->frame->fn->code[g->pc];
				struct strbuf n = {0}, msg = {0};
				describe_threads(L, w, g->mask, &n);
				static const char *const what[] = {
					[G_READY] = "running", [G_BAR] = "waiting at a CTA barrier",
					[G_CLUSTER_BAR] = "waiting at the cluster barrier",
					[G_MBAR] = "waiting on an mbarrier phase",
					[G_WARPSYNC] = "waiting for lanes of its warp",
					[G_WGMMA] = "waiting for its warpgroup's wgmma.mma_async"};
				sb_printf(&msg, "interrupted here: %s",
					  g->state < sizeof what / sizeof what[0] && what[g->state]
						  ? what[g->state] : "waiting");
				if (g->state == G_MBAR && g->wait_mbar) {
					sb_printf(&n, "\non mbarrier (shared 0x%x): ", g->wait_mbar->off);
					mbar_describe(g->wait_mbar, &n);
				}
				srcloc_emit(L->diag, DIAG_NOTE, L->file, L->P->m, di->ir,
					    srcloc_func_of(L->P, di), n.s, msg.s);
				sb_free(&n);
				sb_free(&msg);
				shown++;
			}
		}
	char m[200];
	snprintf(m, sizeof m, "interrupted after %llu warp-instructions (cluster %llu of %llu); "
		 "where the warps stand is above%s [interrupted]", (unsigned long long)L->steps,
		 (unsigned long long)L->clusters_done + 1, (unsigned long long)L->clusters,
		 shown == 16 ? " (the first 16 places)" : "");
	diag_emit(L->diag, DIAG_ERROR, NULL, (struct src_span){0, 0}, NULL, m);
	L->status = PTXI_INTERRUPTED;
	L->stop = true;
}

/* Every 2^16 warp-instructions: the caller's progress line, and its interrupt flag. */
static void poll_caller(struct launch *L, struct cluster *cl)
{
	L->next_poll = L->steps + (1u << 16);
	if (L->stop_from && __atomic_load_n(L->stop_from, __ATOMIC_RELAXED) < L->clusters_done) {
		L->stop = true; /* --jobs: an earlier cluster stopped the launch: none of this shows */
		return;
	}
	if (L->interrupt && *L->interrupt) {
		report_interrupted(L, cl);
		return;
	}
	if (!L->progress)
		return;
	struct ptxi_progress p = {L->steps, L->clusters_done, L->clusters, 0, 0, cl->nctas};
	for (uint32_t r = 0; r < cl->nctas; r++)
		for (uint32_t i = 0; i < cl->ctas[r].nwarps; i++)
			for (struct group *g = cl->ctas[r].warps[i].groups; g; g = g->next)
				if (g->state == G_READY)
					p.warps_running++;
				else if (g->state != G_DONE)
					p.warps_waiting++;
	L->progress(L->progress_ctx, &p);
}

/* ---- the loop ------------------------------------------------------------------------ */

/* A parked try_wait answers False once its time limit has passed, however busy the other
 * warps are (a test_wait parks only to save work: it too must poll again), so a poller
 * that does something else between polls (stores a heartbeat, gives up after N tries)
 * keeps doing it while another warp spins. */
static void expire_pollers(struct launch *L, struct warp *w)
{
	for (struct group *g = w->groups; g; g = g->next)
		if (g->state == G_MBAR && L->steps - g->parked_at >= POLL_LIMIT) {
			g->state = G_READY;
			g->timed_out = true;
		}
}

/* Wake every parked try_wait/test_wait with "timed out". Returns how many. */
static uint32_t time_out_pollers(struct cluster *cl)
{
	uint32_t n = 0;
	for (uint32_t r = 0; r < cl->nctas; r++)
		for (uint32_t i = 0; i < cl->ctas[r].nwarps; i++)
			for (struct group *g = cl->ctas[r].warps[i].groups; g; g = g->next)
				if (g->state == G_MBAR) {
					g->state = G_READY;
					g->timed_out = true;
					n++;
				}
	return n;
}

/* The warp a round begins with: the first, or under --seed one drawn from rng. */
static uint32_t round_start(const struct launch *L, struct rng *rng, uint32_t total)
{
	return L->cfg.seed ? (uint32_t)(rng_next(rng) % total) : 0;
}

bool sweep_round_ready(const struct launch *L, const struct sweep *s, uint32_t *r,
		       uint32_t *i)
{
	const struct cluster *cl = s->cl;
	if (!spin_busy(L, cl, &cl->spin))
		return false;
	if (!L->cfg.seed) { /* (round_start's 0, without its division) */
		*r = *i = 0;
		return true;
	}
	struct rng peek = L->sched_rng;
	uint32_t start = round_start(L, &peek, s->total), nw = cl->ctas[0].nwarps;
	*r = start / nw;
	*i = start % nw;
	return true;
}

/* run_cluster's round end, for a round that ran and a warp alive (no stop, no events: the
 * sweep's tests), and the next round's start */
void sweep_round(struct launch *L, struct sweep *s)
{
	spin_stuck(L, s->cl, &s->cl->spin); /* (false, at once: sweep_round_ready) */
	round_start(L, &L->sched_rng, s->total);
	s->k = 0;
	s->ran = false;
	s->crossed = true;
}

static int run_cluster(struct launch *L, struct cluster *cl)
{
	L->running = cl;
	uint32_t nw = cl->ctas[0].nwarps, total = cl->nctas * nw;
	uint64_t timeout_epoch = UINT64_MAX, streak_start = 0;
	uint32_t rounds = 0;
	for (;;) {
		if (L->async.nevents)
			interp_land_due(L, L->steps);
		bool ran = false, alive = false;
		uint32_t start = round_start(L, &L->sched_rng, total);
		/* warp (start + k) % total, as a CTA and a warp in it counted on (no division) */
		uint32_t r = start / nw, i = start % nw;
		struct sweep sw = {.cl = cl, .total = total};
		for (uint32_t k = 0; k < total && !L->stop; k++) {
			struct warp *w = &cl->ctas[r].warps[i];
			if (++i == nw) {
				i = 0;
				if (++r == cl->nctas)
					r = 0;
			}
			if (!w->groups)
				continue;
			alive = true;
			expire_pollers(L, w);
			uint32_t budget = SWEEP_QUANTUM;
			while (budget && !L->stop) {
				struct group *g = pick(w);
				if (!g)
					break;
				sw.r = r, sw.i = i, sw.k = k + 1, sw.w = w;
				sw.lanes = popcount32(g->mask);
				uint32_t n = interp_run_group(L, w, g, budget, &sw);
				if (sw.w != w || sw.crossed) {
					/* the sweep went on to later warps of the round, or
					 * of later rounds (this one's end made: sweep_round) */
					w = sw.w;
					r = sw.r, i = sw.i, k = sw.k - 1;
					budget = SWEEP_QUANTUM;
					ran = sw.crossed ? sw.ran : ran | sw.ran;
					sw.crossed = false;
				}
				/* thread-instructions: the group's lanes, guarded-off ones included */
				L->thread_steps += (uint64_t)n * sw.lanes;
				budget = n >= budget ? 0 : budget - n;
				L->clock += n; /* L->steps counts as they run (interp.c) */
				w->steps += n;
				ran |= n > 0;
				if (L->async.nevents)
					interp_land_due(L, L->steps);
			}
			pick(w); /* drop finished groups */
			if (L->steps >= L->next_poll) {
				poll_caller(L, cl);
				if (L->stop)
					return L->status;
			}
			if (sweep_past_limit(L)) {
				report_blocked(L, cl, true);
				return L->status;
			}
		}
		if (L->stop)
			return L->status;
		if (!alive) {
			while (L->async.nevents && !L->stop)
				interp_land_due(L, async_next_due(L));
			return L->status;
		}
		if (spin_stuck(L, cl, &cl->spin)) {
			report_blocked(L, cl, false);
			return L->status;
		}
		if (ran)
			continue;
		/* Nothing could run. */
		if (L->async.nevents) {
			uint64_t due = async_next_due(L);
			if (due > L->steps) {
				L->clock += due - L->steps;
				L->steps = due;
			}
			continue;
		}
		if (timeout_epoch == L->epoch) {
			rounds++;
		} else {
			rounds = 0;
			streak_start = L->steps;
		}
		timeout_epoch = L->epoch;
		if (rounds < TIMEOUT_ROUNDS && L->steps - streak_start < TIMEOUT_STEPS &&
		    time_out_pollers(cl)) {
			L->clock += TIMEOUT_NS;
			continue;
		}
		report_blocked(L, cl, false);
		return L->status;
	}
}

bool sched_begin(struct launch *L)
{
	L->spare = NULL; /* (a --jobs worker's copy: its own) */
	L->nspare = 0;
	L->spare_groups = NULL;
	L->frame_cache = calloc(L->P->nfuncs ? L->P->nfuncs : 1, sizeof *L->frame_cache);
	if (!L->frame_cache || (!L->cfg.no_race && !race_begin(L))) {
		if (!L->stop) /* (past --max-memory: reported) */
			runtime_error(L, 1, "out of memory");
		frame_cache_free(L);
		return false;
	}
	return true;
}

void sched_end(struct launch *L)
{
	spin_end(L);
	race_end(L);
	frame_cache_free(L);
	cta_spares_free(L);
	groups_free(L);
}

void sched_cluster(struct launch *L, const uint32_t cid[3])
{
	const struct launch_config *k = &L->cfg;
	uint64_t linear = cid[0] + (uint64_t)k->grid[0] / k->cluster[0] *
		(cid[1] + (uint64_t)k->grid[1] / k->cluster[1] * cid[2]);
	/* each cluster its own --seed streams: a cluster's schedule is the same whichever
	 * thread runs it, and after whichever clusters (cluster 0's are the launch's own) */
	rng_seed_cluster(&L->sched_rng, k->seed, RNG_SCHEDULE, linear);
	rng_seed_cluster(&L->async.rng, k->seed, RNG_ASYNC, linear);
	rng_seed_cluster(&L->wg.rng, k->seed, RNG_WGMMA, linear);
	/* its own step count and clock, from 0: the same on any thread, after any clusters */
	L->cluster_from = L->steps;
	L->clock = 0;
	struct cluster cl;
	struct cta *ctas = calloc(k->cluster[0] * k->cluster[1] * k->cluster[2], sizeof *ctas);
	bool ok = setup_cluster(L, &cl, cid, ctas, 0) && race_cluster_begin(L, &cl);
	if (!ok) {
		if (!L->stop)
			runtime_error(L, 1, "out of memory setting up a cluster");
	} else {
		run_cluster(L, &cl);
	}
	L->running = NULL;
	if (L->dbg && ok)
		L->dbg->cluster_end(L->dbg->ctx, L, &cl);
	async_reset(L);
	mem_gproxy_reset(L);
	race_cluster_end(L, &cl);
	free_cluster(&cl);
	free(ctas);
}

/* A cooperative launch: every cluster of the grid is made at once and the loop runs them as
 * one set (`all`, whose CTAs are the grid's, each still in its own cluster), so CTAs that
 * wait on one another (this_grid().sync() spins on a counter in global memory) all move.
 * The grid is one unit for the --seed streams and the progress line. */
static void sched_grid(struct launch *L)
{
	const struct launch_config *k = &L->cfg;
	uint32_t per = k->cluster[0] * k->cluster[1] * k->cluster[2];
	uint64_t n = (uint64_t)(k->grid[0] / k->cluster[0]) * (k->grid[1] / k->cluster[1]) *
		     (k->grid[2] / k->cluster[2]);
	rng_seed_cluster(&L->sched_rng, k->seed, RNG_SCHEDULE, 0);
	rng_seed_cluster(&L->async.rng, k->seed, RNG_ASYNC, 0);
	rng_seed_cluster(&L->wg.rng, k->seed, RNG_WGMMA, 0);
	struct cluster *cls = calloc(n, sizeof *cls);
	struct cta *ctas = calloc(n * per, sizeof *ctas);
	struct cluster all = {.L = L, .ctas = ctas, .nctas = (uint32_t)(n * per)};
	bool ok = cls && ctas;
	for (uint64_t i = 0; i < n && ok; i++) {
		uint32_t cid[3];
		sched_cluster_id(L, i, cid);
		ok = setup_cluster(L, &cls[i], cid, ctas + i * per, (uint32_t)(i * per));
	}
	ok = ok && race_cluster_begin(L, &all);
	if (!ok) { /* (past --max-memory: reported; the clusters after are not set up) */
		if (!L->stop)
			runtime_error(L, 1, "out of memory setting up a cooperative grid");
	} else {
		run_cluster(L, &all);
	}
	L->running = NULL;
	for (uint64_t i = 0; L->dbg && ok && i < n; i++)
		L->dbg->cluster_end(L->dbg->ctx, L, &cls[i]);
	async_reset(L);
	mem_gproxy_reset(L);
	race_cluster_end(L, &all);
	for (uint64_t i = 0; cls && i < n; i++)
		free_cluster(&cls[i]);
	spin_free(L, &all.spin);
	free(ctas);
	free(cls);
}

uint64_t sched_clusters(const struct launch *L)
{
	const struct launch_config *k = &L->cfg;
	if (L->run_clusters)
		return L->clusters;
	return (uint64_t)(k->grid[0] / k->cluster[0]) * (k->grid[1] / k->cluster[1]) *
	       (k->grid[2] / k->cluster[2]);
}

void sched_cluster_id(const struct launch *L, uint64_t i, uint32_t cid[3])
{
	const struct launch_config *k = &L->cfg;
	uint64_t nx = k->grid[0] / k->cluster[0], ny = k->grid[1] / k->cluster[1];
	uint64_t c = L->run_clusters ? L->run_clusters[i] : i;
	cid[0] = (uint32_t)(c % nx);
	cid[1] = (uint32_t)(c / nx % ny);
	cid[2] = (uint32_t)(c / nx / ny);
}

int sched_launch(struct launch *L)
{
	if (!sched_begin(L))
		return L->status;
	L->clusters = L->cfg.cooperative ? 1 : sched_clusters(L);
	L->next_poll = 1u << 16;
	if (L->cfg.cooperative) {
		sched_grid(L);
		L->clusters_done = 1;
	}
	for (uint64_t i = 0; !L->cfg.cooperative && i < L->clusters; i++) {
		uint32_t cid[3];
		sched_cluster_id(L, i, cid);
		sched_cluster(L, cid);
		L->clusters_done++;
		if (L->stop || L->status == 3 || sched_launch_limit(L, L->steps))
			break;
	}
	sched_end(L);
	return L->status;
}
