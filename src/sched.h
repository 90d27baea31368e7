/*
 * sched.h - the scheduler (sched.c): runs a launch's clusters one after another, picks a
 * runnable warp and group, parks and wakes waiting groups, splits a group whose lanes
 * diverge, and reports a launch in which nothing can run any more (deadlock) or that ran
 * past its step limit.
 */
#ifndef PTXI_SCHED_H
#define PTXI_SCHED_H

#include <stdint.h>

struct launch;
struct warp;
struct group;
struct mbar;

/* Run the launch; returns its status (0 ok, 1 rule broken, 2 bad input, 3 deadlock or the
 * step limit). */
int sched_launch(struct launch *L);
/* Groups parked on mb may be able to go on. */
void sched_wake_mbar(struct launch *L, struct mbar *mb);
/* `mask` of group g exited. */
void sched_group_exit(struct launch *L, struct warp *w, struct group *g, uint32_t mask);
/* Split `mask` off group g into a new group at pc; NULL when out of memory. */
struct group *sched_split(struct warp *w, struct group *g, uint32_t mask, uint32_t pc);

#endif
