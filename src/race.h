/*
 * race.h - happens-before data-race detection (rule data-race) under the PTX memory model.
 * Every thread (each lane is one) carries a vector clock; synchronising operations carry
 * clocks from releasers to acquirers; shared, distributed shared and global memory have
 * shadow state per 4-byte granule (byte masks inside) holding the last write and the reads
 * since, so the cost grows with the memory touched, not with pairs of threads.
 * L->race is NULL when the detector is off (--no-race): every hook returns at once.
 */
#ifndef PTXI_RACE_H
#define PTXI_RACE_H

#include <stdbool.h>
#include <stdint.h>

#include "interp.h"

struct access;
struct mbar;

enum race_kind { RACE_READ, RACE_WRITE, RACE_RMW };

/* Launch and cluster lifetime (clusters run one after another). */
bool race_begin(struct launch *L);
void race_end(struct launch *L);
bool race_cluster_begin(struct launch *L, struct cluster *cl);
void race_cluster_end(struct launch *L, struct cluster *cl);

/* One lane's ordinary access (ld, st, atom, red) of the current instruction L->ci, already
 * resolved to `a`; `newv` is what a store writes (lanes of one instruction writing the same
 * value do not race), NULL otherwise. Called before the bytes change. */
void race_access(struct launch *L, struct warp *w, uint32_t lane, const struct access *a,
		 uint32_t size, enum race_kind kind, const void *newv);

/* CTA barriers: arrivals of `lanes` on barrier `id` release (bar.arrive, bar.sync,
 * bar.red); when the instance completes, race_bar_done takes its clock, and every lane that
 * waits at it acquires it with race_bar_acquire. */
void race_bar_arrive(struct launch *L, struct warp *w, uint32_t lanes, uint32_t id);
void race_bar_done(struct launch *L, struct cta *c, uint32_t id);
void race_bar_acquire(struct launch *L, struct warp *w, uint32_t lanes, uint32_t id);
/* bar.warp.sync: the lanes of `lanes` synchronise with each other. */
void race_warp_sync(struct launch *L, struct warp *w, uint32_t lanes);
/* barrier.cluster: a release arrive, the phase completing, a wait that passed. */
void race_cbar_arrive(struct launch *L, struct warp *w, uint32_t lanes);
void race_cbar_done(struct launch *L, struct cluster *cl);
void race_cbar_acquire(struct launch *L, struct warp *w, uint32_t lanes);
/* mbarrier: an arrive of `lanes` (release), the phase completing, and a wait that returned
 * True for `lane` (acquire). `phantom`: the wait passed for the phase before the first. */
void race_mbar_arrive(struct launch *L, struct warp *w, uint32_t lanes, const struct mbar *mb);
void race_mbar_done(struct launch *L, const struct mbar *mb);
void race_mbar_acquire(struct launch *L, struct warp *w, uint32_t lane, const struct mbar *mb,
		       bool phantom);
/* fence / membar of `lanes` (the current instruction). */
void race_fence(struct launch *L, struct warp *w, uint32_t lanes);

#endif
