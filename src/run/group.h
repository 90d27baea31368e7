/*
 * group.h - a warp's groups of lanes (group.c). The scheduler (sched.c) picks and merges
 * them; the dispatch loop and the handlers split them and retire exited lanes.
 */
#ifndef PTXI_GROUP_H
#define PTXI_GROUP_H

#include <stdbool.h>
#include <stdint.h>

#include "launch.h"

/* Picks of one group in a row, while another of its warp is ready too, before the
 * scheduler lets that other one run once (sched.c's pick). */
#define FAIR_PICKS 64

/* Split `mask` off group g into a new group at pc, in the same frame; NULL when out of
 * memory. */
struct group *group_split(struct warp *w, struct group *g, uint32_t mask, uint32_t pc);
/* `mask` of group g exited: the rest of g goes on at the next instruction, and barriers
 * that waited for these threads are checked again. */
void group_exit(struct launch *L, struct warp *w, struct group *g, uint32_t mask);
/* Group g, just picked and now at a new pc: would the scheduler's next pick (sched.c) be g
 * again, changing nothing but the fairness streak (no finished group to free, none to merge
 * with g, none deeper or at a lower pc, the streak not spent)? If so it counts the pick and
 * sets *stop_pc to where the next group of g's frame waits, and g may go on running. */
bool group_picked_again(struct warp *w, struct group *g, uint32_t *stop_pc);
/* How many times in a row group_picked_again would say yes for g at its pc while nothing
 * else changes (UINT32_MAX: any number, no other group is ready; 0: not once); where it is
 * not 0, *stop_pc as group_picked_again sets it. Changes nothing: n yeses move the streak
 * to 0 for UINT32_MAX, else on by n. */
uint32_t group_picks_left(const struct warp *w, const struct group *g, uint32_t *stop_pc);
/* Group g, the last picked, ran a loop's pass whose branch back (a lower pc) `lanes` of it
 * do not take: what the branch and the scheduler's next pick would do, done in place, where
 * that pick is g's other lanes - the split (group_split), then pick's merge of `lanes`, now
 * at pc past the branch, into the group already waiting there. Where g is the warp's one
 * group, `lanes` go to a new group before g in the list; where the warp is just that group
 * (ready, at pc, in g's frame) and then g, they join it. g keeps the other lanes and is
 * picked, its streak begun (w->last_pick, w->streak). False, changing nothing, for any other
 * warp (or out of memory). */
bool group_loop_exit(struct warp *w, struct group *g, uint32_t lanes, uint32_t pc);
/* Group g, running, is now where the warp's one other group waits (ready, or at a warp
 * sync): the scheduler's next pick would merge the two and pick the merged group. Does
 * that (the same group kept, the same fairness state) and returns the merged group; NULL,
 * changing nothing, when the warp is not just these two groups at one place. */
struct group *group_rejoin(struct launch *L, struct warp *w, struct group *g);

#endif
