/*
 * group.c - a warp's groups: lanes at the same instruction of the same frame, which run
 * together. A branch or call that some lanes take splits a group; lanes that exit leave
 * it, which may release a barrier the other threads wait on.
 */
#include "group.h"

#include <stdlib.h>

#include "barrier.h"
#include "exec.h"
#include "frame.h"
#include "hopper/wgmma.h"

struct group *group_split(struct warp *w, struct group *g, uint32_t mask, uint32_t pc)
{
	struct group *n = calloc(1, sizeof *n);
	if (!n)
		return NULL;
	n->mask = mask;
	n->pc = pc;
	n->frame = g->frame;
	n->frame->refs++;
	n->state = G_READY;
	g->mask &= ~mask;
	n->next = g->next;
	g->next = n;
	w->split = WARP_SPLIT;
	return n;
}

static void wake_warpsync(struct warp *w)
{
	for (struct group *g = w->groups; g; g = g->next)
		if (g->state == G_WARPSYNC && !(g->wait_id & w->live & ~g->mask))
			g->state = G_READY;
}

void group_exit(struct launch *L, struct warp *w, struct group *g, uint32_t mask)
{
	uint32_t n = (uint32_t)__builtin_popcount(mask);
	struct cta *c = w->cta;
	w->live &= ~mask;
	w->cbar_waitable &= ~mask;
	if (!w->live && c->wg)
		wgmma_warp_exit(L, w);
	c->live_threads -= n;
	c->cluster->live_threads -= n;
	if (mask == g->mask)
		g->state = G_DONE;
	else {
		g->mask &= ~mask;
		g->pc++;
	}
	if (c->live_threads == 0)
		c->exited = true;
	L->epoch++;
	for (uint32_t id = 0; id < 16; id++)
		if (c->bar[id].arrived)
			bar_check(L, c, id);
	cluster_bar_check(L, c->cluster);
	wake_warpsync(w);
}

uint32_t group_picks_left(const struct warp *w, const struct group *g, uint32_t *stop_pc)
{
	uint32_t depth = g->frame->depth, stop = UINT32_MAX;
	bool other = false;
	if (w->last_pick != g || g->state != G_READY)
		return 0;
	for (const struct group *o = w->groups; o; o = o->next) {
		if (o == g)
			continue;
		if (o->state == G_DONE)
			return 0; /* pick frees it */
		bool ready = o->state == G_READY;
		if ((ready || o->state == G_WARPSYNC) && o->frame == g->frame && o->pc == g->pc)
			return 0; /* pick merges it into g */
		if (ready) {
			other = true;
			if (o->frame->depth > depth || (o->frame->depth == depth && o->pc <= g->pc))
				return 0; /* pick prefers it (or may, at the same pc) */
		}
		if (o->frame == g->frame && o->pc > g->pc && o->pc < stop)
			stop = o->pc;
	}
	*stop_pc = stop;
	if (!other)
		return UINT32_MAX;
	/* pick lets the other group run when the streak is spent */
	return w->streak + 1 >= FAIR_PICKS ? 0 : FAIR_PICKS - 1 - w->streak;
}

bool group_picked_again(struct warp *w, struct group *g, uint32_t *stop_pc)
{
	uint32_t stop, left = group_picks_left(w, g, &stop);
	if (!left)
		return false;
	w->streak = left == UINT32_MAX ? 0 : w->streak + 1;
	*stop_pc = stop;
	return true;
}

bool group_loop_exit(struct warp *w, struct group *g, uint32_t lanes, uint32_t pc)
{
	struct group *o = w->groups;
	if (o == g && !g->next) {
		/* the split: g's lanes that stay at the branch go on at pc in a group of their
		 * own, first in the list as group_split's g; g keeps the lanes that take it */
		o = calloc(1, sizeof *o);
		if (!o)
			return false;
		o->pc = pc;
		o->frame = g->frame;
		o->frame->refs++;
		o->state = G_READY;
		o->next = g;
		w->groups = o;
		w->split = WARP_SPLIT;
	} else if (o->next != g || g->next || o->state != G_READY || o->frame != g->frame ||
		   o->pc != pc) {
		return false;
	}
	/* pick merges the lanes that left into the group before them at pc and picks the
	 * lanes that go on (the lowest pc), which it did not pick last: the streak begins */
	o->mask |= lanes;
	g->mask &= ~lanes;
	w->streak = 0;
	w->last_pick = g;
	return true;
}

struct group *group_rejoin(struct launch *L, struct warp *w, struct group *g)
{
	struct group *a = w->groups, *b = a ? a->next : NULL;
	if (!b || b->next)
		return NULL; /* not two groups */
	struct group *o = a == g ? b : a;
	if (g->state != G_READY || (o->state != G_READY && o->state != G_WARPSYNC) ||
	    o->pc != g->pc || o->frame != g->frame)
		return NULL;
	/* sched.c's pick: nothing finished to free; the first of the list takes the other's
	 * lanes and is ready (g is); the only group left, it is picked, the streak reset */
	a->mask |= b->mask;
	a->state = G_READY;
	a->next = NULL;
	frame_release(L, w, b->frame);
	free(b);
	w->streak = 0;
	w->last_pick = a;
	return a;
}
