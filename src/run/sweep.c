/*
 * sweep.c - the CTA-wide sweep (issue #31): what the scheduler (sched.c) does between the
 * turn of a warp whose one group parked at a CTA barrier and the next warp's turn, done in
 * place by the dispatch loop (interp.c), so a barrier all warps of a CTA reach costs no
 * round trip through the scheduler per warp.
 */
#include "sweep.h"

#include "launch.h"

bool sweep_next(struct launch *L, struct sweep *s, struct warp *w, struct group *g, uint64_t n,
		struct warp **nw, struct group **ng)
{
	/* what run_cluster does after w's turn must change nothing but the counts: no
	 * asynchronous event to land, no poll, no step limit, and w's pick finds nothing */
	if (L->stop || L->async.nevents || w->groups != g || g->next || g->state != G_BAR ||
	    L->steps >= L->next_poll || sweep_past_limit(L) || s->k >= s->total)
		return false;
	/* the next warp's turn must begin with its one ready group picked */
	struct warp *x = &s->cl->ctas[s->r].warps[s->i];
	struct group *h = x->groups;
	if (!h || h->next || h->state != G_READY)
		return false;
	L->thread_steps += n * s->lanes; /* w's turn ends (run_cluster's accounting) */
	L->clock += n;
	w->steps += n;
	w->streak = 0;                    /* pick(w): its one group waits */
	w->last_pick = NULL;
	s->ran |= n > 0;
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
