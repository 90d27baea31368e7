/*
 * spin.c - a deadlock of spinning warps, found in thousands of steps rather than at the
 * step limit. While no instruction writes memory, no barrier, mbarrier or group changes
 * (the launch's epoch) and nothing asynchronous is in flight, memory is constant; a warp
 * then runs as a function of its own state (registers, groups, pcs). When every unfinished
 * warp of the cluster comes back to a state it had earlier in such a quiet stretch, each
 * goes round a loop that reads only what nobody will change and writes nothing: no warp
 * can ever release another, and the launch can never finish.
 *
 * Each warp's state is kept at the end of some scheduling rounds (a copy of it, compared
 * byte for byte: no hash, so no collision can call a live warp stuck), and Brent's cycle
 * finding (a saved state, replaced at powers of two) spots the repeat. A real spin-wait
 * that completes breaks the quiet stretch with the producer's write (or its register
 * changes, if it computes first), so it is never called stuck. Timing that reaches
 * registers (%clock, %globaltimer) changes the state and is not called a loop either.
 * Comparing stops at the first byte that differs, and a copy is made only when Brent's
 * saved state moves on: far less work than hashing every register of every warp.
 *
 * With --jobs earlier clusters may still run, writing global memory this thread does not
 * see counted. A watch that began while one did is not believed: the cluster waits until
 * every earlier one is shown and watches afresh, so a verdict is always one made over a
 * stretch that one thread's run has too (later clusters, which one thread has not run yet,
 * are the schedule's: docs/jobs.md).
 */
#include "spin.h"

#include <stdlib.h>
#include <string.h>

#include "launch.h"
#include "memory.h"
#include "prog.h"

#define QUIET_ROUNDS 4  /* rounds of quiet before warps are sampled                     */
#define EVERY_ROUND 32  /* rounds sampled one by one, then every eighth                */

struct spin_warp {
	uint8_t *saved;         /* the state kept to compare with (Brent's tortoise)         */
	size_t len, cap;        /* its bytes, and the buffer's                               */
	uint64_t saved_steps;   /* the warp's steps then: a repeat must have run between     */
	uint32_t power, lam;    /* samples until the saved state moves on, and since it did  */
	bool cycling;           /* a repeat seen in this quiet stretch                       */
};

/* A walk over a warp's state that measures it, copies it into a spin_warp's buffer (of
 * room enough: save_state) or compares it with what the buffer holds (stopping at the
 * first difference). */
struct state_walk {
	struct spin_warp *sw;
	size_t pos;
	bool measure, copy, differs;
};

static void put(struct state_walk *c, const void *p, size_t n)
{
	if (c->differs)
		return;
	struct spin_warp *sw = c->sw;
	if (c->copy)
		memcpy(sw->saved + c->pos, p, n);
	else if (!c->measure && (c->pos + n > sw->len || memcmp(sw->saved + c->pos, p, n)))
		c->differs = true;
	c->pos += n;
}

static void put64(struct state_walk *c, uint64_t x)
{
	put(c, &x, sizeof x);
}

/* Everything a warp's next steps depend on, besides memory: its groups with their pcs,
 * states and call chains' registers and parameters, carry flags and copy groups. */
static void warp_state(struct state_walk *c, const struct warp *w)
{
	put64(c, w->live);
	for (const struct group *g = w->groups; g; g = g->next) {
		put64(c, ((uint64_t)g->mask << 32) | g->wait_id);
		put64(c, ((uint64_t)g->pc << 8) | ((uint64_t)g->state << 1) | g->timed_out);
		for (const struct frame *f = g->frame; f; f = f->caller) {
			put64(c, (uint64_t)(uintptr_t)f->fn);
			put64(c, f->ret_pc);
			put(c, f->regs, (size_t)f->fn->nslots * LANES * sizeof *f->regs);
			put(c, f->params, (size_t)f->fn->param_size * LANES);
		}
		put64(c, UINT64_MAX); /* the end of a group's frames: no fn has this address */
	}
	put(c, w->cc, sizeof w->cc);
	put(c, w->cp_open, sizeof w->cp_open);
	put(c, w->bulk_open, sizeof w->bulk_open);
	put64(c, w->streak);
}

/* Whether w's state is the one saved. */
static bool same_state(struct spin_warp *sw, const struct warp *w)
{
	struct state_walk c = {.sw = sw};
	warp_state(&c, w);
	return !c.differs && c.pos == sw->len;
}

/* Keep w's state as the saved one; false if out of memory. The buffer is made of the
 * state's size, measured first, in the launch's scratch: grown by doubling on the heap, the
 * first cluster's buffers faulted in twice their pages (~15 us each on the development VM). */
static bool save_state(struct launch *L, struct spin_warp *sw, const struct warp *w)
{
	struct state_walk c = {.sw = sw, .measure = true};
	warp_state(&c, w);
	if (c.pos > sw->cap) {
		mem_scratch_free(L->mem, sw->saved); /* its bytes are replaced: nothing to copy */
		sw->len = sw->cap = 0;
		if (!(sw->saved = mem_scratch_calloc(L->mem, &L->scratch, c.pos)))
			return false;
		sw->cap = c.pos;
	}
	c = (struct state_walk){.sw = sw, .copy = true};
	warp_state(&c, w);
	sw->len = c.pos;
	return true;
}

/* Whether the warp can move without the epoch changing: a group that runs, or a parked
 * try_wait/test_wait, which its time limit wakes. A group parked so is the same state
 * before and after its wait: only a repeat with steps run between counts. */
static bool moves(const struct warp *w)
{
	for (const struct group *g = w->groups; g; g = g->next)
		if (g->state == G_READY || g->state == G_MBAR)
			return true;
	return false;
}

static void restart(struct spin_watch *s, const struct launch *L)
{
	s->writes = L->writes;
	s->epoch = L->epoch;
	s->rounds = 0;
	s->head = !L->jobs || L->is_head(L);
	if (!s->sampled)
		return; /* the warps' watches are as they were set last time */
	s->sampled = false;
	for (uint32_t i = 0; s->w && i < s->nwarps; i++) {
		struct spin_warp *sw = &s->w[i];
		*sw = (struct spin_warp){.saved = sw->saved, .cap = sw->cap, .power = 1};
	}
}

static bool quiet(const struct launch *L, const struct cluster *cl, const struct spin_watch *s)
{
	if (L->writes != s->writes || L->epoch != s->epoch || L->async.nevents)
		return false;
	for (uint32_t r = 0; r < cl->nctas; r++)
		for (uint32_t i = 0; i < cl->ctas[r].nwarps; i++)
			if (cl->ctas[r].warps[i].wg_busy)
				return false;
	return true;
}

bool spin_busy(const struct launch *L, const struct cluster *cl, const struct spin_watch *s)
{
	/* (a watch not made yet: spin_stuck makes it and counts one quiet round, false) */
	return !cl->nctas || s->off || !s->w || L->writes != s->writes || L->epoch != s->epoch ||
	       L->async.nevents;
}

bool spin_stuck(struct launch *L, struct cluster *cl, struct spin_watch *s)
{
	if (!cl->nctas || s->off)
		return false;
	if (!s->w) {
		s->nwarps = cl->nctas * cl->ctas[0].nwarps;
		if (L->spin_keep && L->spin_nkeep == s->nwarps) {
			/* the last cluster's buffers: no allocation (and no fresh pages) per CTA */
			s->w = L->spin_keep;
			L->spin_keep = NULL;
		} else {
			s->w = calloc(s->nwarps, sizeof *s->w);
		}
		if (!s->w)
			return false; /* no watch: the step limit still ends the launch */
		s->sampled = true; /* (power 1 for every warp) */
		restart(s, L);
	}
	if (!quiet(L, cl, s)) {
		restart(s, L);
		return false;
	}
	if (++s->rounds < QUIET_ROUNDS)
		return false;
	/* a long quiet stretch is mostly work on registers: sampling every eighth round keeps
	 * its cost small, and a loop still repeats at that pace */
	if (s->rounds > EVERY_ROUND && s->rounds % 8)
		return false;
	bool all = true, any = false;
	s->sampled = true;
	uint32_t nw = cl->ctas[0].nwarps;
	for (uint32_t r = 0; r < cl->nctas; r++)
		for (uint32_t i = 0; i < nw; i++) {
			const struct warp *w = &cl->ctas[r].warps[i];
			struct spin_warp *sw = &s->w[r * nw + i];
			if (!w->groups)
				continue;
			any = true;
			if (!sw->cycling && !moves(w)) {
				sw->cycling = true; /* only a change of the epoch can wake it */
			} else if (!sw->cycling) {
				if (sw->lam && w->steps != sw->saved_steps && same_state(sw, w)) {
					sw->cycling = true;
				} else if (++sw->lam > sw->power || sw->lam == 1) {
					if (!save_state(L, sw, w)) {
						s->off = true; /* the step limit still ends the launch */
						return false;
					}
					sw->saved_steps = w->steps;
					if (sw->lam > sw->power)
						sw->power *= 2;
					sw->lam = 1;
				}
			}
			all &= sw->cycling;
		}
	if (!any || !all)
		return false;
	if (s->head)
		return true;
	L->wait_head(L); /* then watch again: an earlier cluster may have written what it reads */
	restart(s, L);
	return false;
}

bool spin_op_writes(int op)
{
	switch ((enum ir_op)op) {
	case OP_MOV: case OP_CVTA: case OP_ISSPACEP: case OP_MAPA: case OP_GETCTARANK:
	case OP_LD: case OP_LDU: case OP_PREFETCH: case OP_PREFETCHU:
	case OP_CREATEPOLICY_FRACTIONAL: case OP_CREATEPOLICY_RANGE: case OP_CREATEPOLICY_CVT:
	case OP_BRA: case OP_BRX_IDX: case OP_RET: case OP_SHFL_SYNC: case OP_VOTE_SYNC:
	case OP_MATCH_SYNC: case OP_REDUX_SYNC: case OP_ACTIVEMASK: case OP_ELECT_SYNC:
	case OP_BAR_WARP_SYNC: case OP_MEMBAR: case OP_FENCE: case OP_NANOSLEEP:
	case OP_MBAR_TEST_WAIT: case OP_MBAR_TRY_WAIT: case OP_MBAR_PENDING_COUNT:
	case OP_CP_ASYNC_WAIT_GROUP: case OP_CP_ASYNC_WAIT_ALL: case OP_CP_ASYNC_BULK_WAIT_GROUP:
	case OP_CP_ASYNC_BULK_PREFETCH: case OP_CP_ASYNC_BULK_PREFETCH_TENSOR:
	case OP_MMA: case OP_MMA_SP: case OP_MMA_SP_ORDERED: case OP_LDMATRIX: case OP_MOVMATRIX:
	case OP_WMMA_LOAD_A: case OP_WMMA_LOAD_B: case OP_WMMA_LOAD_C: case OP_WMMA_MMA:
	case OP_TEX: case OP_TLD4: case OP_TXQ: case OP_SULD: case OP_SUQ: case OP_ISTYPEP:
		return false;
	default:
		return ir_op_family((enum ir_op)op) != FAM_ALU;
	}
}

static void free_watches(struct memory *m, struct spin_warp *w, uint32_t n)
{
	for (uint32_t i = 0; w && i < n; i++)
		mem_scratch_free(m, w[i].saved);
	free(w);
}

void spin_free(struct launch *L, struct spin_watch *s)
{
	if (L->spin_keep && s->w) {
		free_watches(L->mem, L->spin_keep, L->spin_nkeep);
		L->spin_keep = NULL;
	}
	if (s->w) {
		L->spin_keep = s->w;
		L->spin_nkeep = s->nwarps;
	}
	*s = (struct spin_watch){0};
}

void spin_end(struct launch *L)
{
	free_watches(L->mem, L->spin_keep, L->spin_nkeep);
	L->spin_keep = NULL;
}
