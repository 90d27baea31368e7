/*
 * race_priv.h - what race.c shares with race_global.c (--jobs). A worker's cluster does not
 * judge its accesses of global memory: it logs them (race_gacc), with the vector clocks
 * they were made under, and the launch replays the log in cluster order against the one
 * shadow of global memory (race_global.c), so that the reports are one thread's. A strong
 * read of a global location acquires a *marker* of it: the releases to it by the clusters
 * before, which the replay knows and the worker does not.
 */
#ifndef PTXI_RACE_PRIV_H
#define PTXI_RACE_PRIV_H

#include <stddef.h>

#include "race.h"

struct race;
struct race_glog;
struct race_jobs;
struct memory;

enum { GA_ACCESS, GA_PHANTOM };

/* One global access of a worker's cluster (or, GA_PHANTOM, a wait of thread tid that passed
 * for the phase before the first at insn). */
struct race_gacc {
	const struct dinsn *insn;
	struct vc *vc;              /* the thread's vector (a copy's: at the issue); a reference */
	const struct region *region;
	uint64_t addr;
	size_t at, out_at;          /* entries of the cluster's report log before it; printf bytes */
	uint32_t tid, owner, clock, step, issued, seen_cp, seen_bulk;
	uint32_t cta, ctaid[3], rank, warp, lane;
	uint32_t size;
	uint8_t what, kind, flags;  /* GA_*, enum race_kind, the record's flags                */
	bool copy, skip_agents, has_newv, plain; /* plain: an ordinary store (not atomic, no copy) */
	uint8_t newv[32], old[32];  /* a store's bytes, and the memory's before it              */
};

/* race_global.c: a cluster's log (made by race_cluster_begin on a worker, owned by its
 * report log), the marker of a location, and the launch's replay state. */
struct race_glog *race_glog_new(struct launch *S);
bool race_glog_add(struct launch *S, struct race_glog *G, const struct race_gacc *e);
bool race_glog_marker(struct race_glog *G, uint64_t key, uint32_t *idx);
void race_glog_loc(struct race_glog *G, uint64_t key, struct vc *wide);
void race_glog_done(struct race_glog *G);
void race_jobs_free(struct race_jobs *J);
struct race_jobs *race_jobs_new(struct memory *mem);
/* Wait until every cluster before S's has been shown (`atomic`: exec_atom's lock is held,
 * and let go meanwhile). */
void race_glog_wait_head(struct launch *S, struct race_glog *G, bool atomic);
/* Whether every cluster before G's has been shown (it waited, or its log grew long). */
bool race_glog_head(const struct race_glog *G);
void race_glog_phantom_event(struct launch *S, struct race_glog *G, uint32_t tid);
const struct dinsn *race_glog_phantom(const struct race_glog *G, uint32_t tid);

/* race.c, for the replay (on the launch, in cluster order). */
struct vc *race_vc_ref(struct vc *v);
void race_vc_put(struct vc *v);
struct vc *race_resolve(struct launch *L, struct vc *v, const uint64_t *keys, uint32_t nkeys);
void race_merge_loc(struct launch *L, uint64_t key, struct vc *v);
bool race_replay_access(struct launch *L, struct race_glog *G, const struct race_gacc *e,
			struct vc *v, const uint8_t *old, uint32_t step, uint32_t issued,
			const struct dinsn *phantom);
/* race_global.c, for both: v resolved (kept until the next call; NULL: out of memory); the
 * bytes one thread finds at e (where the launch's image has them) and its store; a worker's
 * step as one thread counts it. */
struct vc *race_glog_resolved(struct launch *L, struct race_glog *G, struct vc *v);
void race_glog_old(struct launch *L, const struct race_gacc *e, uint8_t *old);
void race_glog_stored(struct launch *L, const struct race_gacc *e);
uint32_t race_glog_step(const struct race_glog *G, uint32_t step);
struct race_jobs *race_jobs_state(const struct launch *L);

#endif
