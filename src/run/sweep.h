/*
 * sweep.h - the CTA-wide sweep (issue #31): where the scheduler's round stands, so that
 * the dispatch loop, when a warp's one group parks at a CTA barrier, can go on with the
 * round's next warp in place of handing back, doing what the scheduler does between the
 * two (sweep_next). The round's order, each warp's budget, the clock and the counts stay
 * the scheduler's (sched.c), so nothing a program or a report shows can differ.
 */
#ifndef PTXI_SWEEP_H
#define PTXI_SWEEP_H

#include <stdbool.h>
#include <stdint.h>

#include "launch.h"

#define SWEEP_QUANTUM 512 /* instructions a warp runs before the next one's turn */

struct sweep {
	struct cluster *cl;
	uint32_t r, i, k;   /* the next warp of the round: CTA r, warp i; k warps visited   */
	uint32_t total;     /* warps in the round                                            */
	uint32_t lanes;     /* the running group's lanes when picked (thread-instructions)   */
	struct warp *w;     /* the warp running now (the scheduler reads it back)           */
	bool ran;           /* a warp swept past ran instructions (in the round now)         */
	bool crossed;       /* the sweep ended the scheduler's round and began the next one  */
};

/* At the round's end (s->k == s->total), after a turn that ran: whether run_cluster would
 * end the round there and begin the next one with nothing between but its bookkeeping -
 * spin_stuck answering false without a look (spin_busy) - and which warp that round begins
 * with (its CTA *r and warp *i: the --seed draw peeked at). Nothing done (sched.c). */
bool sweep_round_ready(const struct launch *L, const struct sweep *s, uint32_t *r,
		       uint32_t *i);
/* The round ends and the next one begins, as run_cluster does it (sweep_round_ready said
 * so): spin_stuck asked, the --seed draw made, s at the new round's start (sched.c). */
void sweep_round(struct launch *L, struct sweep *s);

/* Whether the cluster ran past the step limit. Each cluster counts its own steps, so
 * where it stops is the same whichever clusters ran before it or beside it (--jobs). */
static inline bool sweep_past_limit(const struct launch *L)
{
	return L->steps - L->cluster_from > L->max_steps;
}

/* The least L->steps at which run_cluster looks between two turns (its poll) or stops them
 * (sweep_past_limit): L->steps >= sweep_lim(L) is the one test of both. A caller that runs
 * many turns between two of run_cluster's takes it once: neither bound moves before
 * run_cluster's next look (poll_caller, or the next cluster). */
static inline uint64_t sweep_lim(const struct launch *L)
{
	uint64_t past = L->cluster_from + L->max_steps; /* past it: L->steps > past */
	if (past < L->cluster_from || past == UINT64_MAX)
		return L->next_poll; /* (no step count gets past it) */
	return past + 1 < L->next_poll ? past + 1 : L->next_poll;
}

/* w's one group g parked (at a CTA barrier) after n instructions of this turn: when the
 * scheduler would now go on to the round's next warp - or, at the round's end, end the
 * round and begin the next one (sweep_round) - and run its one ready group at once (no
 * poll, step limit, asynchronous event or spin watch between), do the bookkeeping of the
 * turn that ends and of the one that begins, and answer that warp and group. Inline: the
 * dispatch loop's call of it cost as much as its body. */
static inline __attribute__((always_inline)) bool
sweep_next_by(struct launch *L, struct sweep *s, struct warp *w, struct group *g, uint64_t n,
	      uint64_t lim, const bool calm, struct warp **nw, struct group **ng)
{
	/* what run_cluster does after w's turn must change nothing but the counts: no
	 * asynchronous event to land, no poll, no step limit (lim: sweep_lim's), and w's
	 * pick finds nothing (calm: the caller knows L->stop clear and no event in flight) */
	if ((!calm && (L->stop || L->async.nevents)) || w->groups != g || g->next ||
	    g->state != G_BAR || L->steps >= lim)
		return false;
	uint32_t r = s->r, i = s->i;
	bool round = s->k >= s->total; /* (the round ran: w's arrival, at least) */
	if (round && !sweep_round_ready(L, s, &r, &i))
		return false;
	/* the next warp's turn must begin with its one ready group picked (within a round
	 * and a CTA, s->(r, i) is the warp after w, s->w: w + 1, found without s->cl's
	 * chain of loads) */
	struct warp *x = !round && i ? w + 1 : &s->cl->ctas[r].warps[i];
	struct group *h = x->groups;
	if (!h || h->next || h->state != G_READY)
		return false;
	L->thread_steps += n * s->lanes; /* w's turn ends (run_cluster's accounting) */
	L->clock += n;
	w->steps += n;
	w->streak = 0;                    /* pick(w): its one group waits */
	w->last_pick = NULL;
	s->ran |= n > 0;
	if (round)
		sweep_round(L, s);
	s->r = r, s->i = i;
	if (++s->i == s->cl->ctas[0].nwarps) { /* x's turn begins (expire_pollers: none) */
		s->i = 0;
		if (++s->r == s->cl->nctas)
			s->r = 0;
	}
	s->k++;
	x->streak = 0;
	x->last_pick = h;
	s->lanes = popcount32(h->mask);
	s->w = x;
	*nw = x;
	*ng = h;
	return true;
}

static inline __attribute__((always_inline)) bool
sweep_next(struct launch *L, struct sweep *s, struct warp *w, struct group *g, uint64_t n,
	   struct warp **nw, struct group **ng)
{
	return sweep_next_by(L, s, w, g, n, sweep_lim(L), false, nw, ng);
}

#endif
