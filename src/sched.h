/*
 * sched.h - the scheduler (sched.c): runs a launch's clusters one after another, picks a
 * runnable warp and group (merging groups that meet again at one instruction), times out
 * parked pollers, and reports a launch in which nothing can run any more (deadlock) or that
 * ran past its step limit. Groups themselves are group.h.
 */
#ifndef PTXI_SCHED_H
#define PTXI_SCHED_H

struct launch;

/* Run the launch; returns its status (0 ok, 1 rule broken, 2 bad input, 3 deadlock or the
 * step limit). */
int sched_launch(struct launch *L);

#endif
