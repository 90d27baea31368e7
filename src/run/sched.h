/*
 * sched.h - the scheduler (sched.c): runs a launch's clusters one after another, picks a
 * runnable warp and group (merging groups that meet again at one instruction), times out
 * parked pollers, and reports a launch in which nothing can run any more (deadlock) or that
 * ran past its step limit. Groups themselves are group.h.
 */
#ifndef PTXI_SCHED_H
#define PTXI_SCHED_H

#include <stdbool.h>
#include <stdint.h>

struct launch;

/* Run the launch; returns its status (0 ok, 1 rule broken, 2 bad input, 3 deadlock or the
 * step limit). */
int sched_launch(struct launch *L);
/* The clusters the launch runs (the grid's, or --ctas's), and the i-th one's id. */
uint64_t sched_clusters(const struct launch *L);
void sched_cluster_id(const struct launch *L, uint64_t i, uint32_t cid[3]);

/* The pieces of sched_launch, for --jobs (jobs.c): the launch's run-time tables (false,
 * with the error reported, when out of memory), one cluster run from start to end, and
 * the tables freed. */
bool sched_begin(struct launch *L);
void sched_cluster(struct launch *L, const uint32_t cid[3]);
void sched_end(struct launch *L);
/* The step limit between clusters: each cluster may run --max-steps warp-instructions of
 * its own, and once the clusters run so far (L->clusters_done of them, `steps` in all)
 * passed it together, the launch stops before the next, reported (true). The same with
 * any --jobs: it counts whole clusters, in order. */
bool sched_launch_limit(struct launch *L, uint64_t steps);

#endif
