/*
 * jobs.h - a launch's clusters on several threads (--jobs N, jobs.c). Each worker runs
 * whole clusters on its own copy of the launch (scheduler, asynchronous queue, mbarrier
 * table, wgmma state, frames, --seed streams per cluster); the program, global memory, the
 * parameters and the device heap (under its lock) are shared. A cluster's reports and
 * printf output are kept and shown in cluster order once every earlier cluster's are, so
 * that a program whose output does not depend on the schedule shows what it shows with one
 * thread (docs/jobs.md).
 */
#ifndef PTXI_JOBS_H
#define PTXI_JOBS_H

struct launch;

/* Run the launch on `n` threads (sched_launch when n is 1, the launch has one cluster, or
 * something it uses needs one thread: then a note says what). Returns its status. */
int jobs_launch(struct launch *L, unsigned n);

#endif
