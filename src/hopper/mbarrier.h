/*
 * mbarrier.h - mbarrier objects: the phase / pending / expected / tx-count state machine of
 * ISA 9.7.13.15, kept as shadow state over shared memory, with every rule checked.
 */
#ifndef PTXI_MBARRIER_H
#define PTXI_MBARRIER_H

#include <stdbool.h>
#include <stdint.h>

#include "run/prog.h"

#define MBAR_MAXCNT 1048575

struct launch;
struct warp;
struct group;
struct frame;
struct cta;
struct strbuf;

/* Free every object and the table (end of a launch). */
void mbar_table_free(struct launch *L);

/* Asynchronous effects landing on the barrier at (cta, off): complete-tx of `bytes` (of a
 * cp.async.bulk, st.async or red.async), or the arrive-on of cp.async.mbarrier.arrive
 * (`noinc`: it counts as an arrival, else it releases the hold its issue took). `gen` is
 * L->mbar_ids when the operation was issued: a barrier made after it (inval, init) is not the
 * one it was issued against. The launch's current-instruction context is the issuing one
 * (async.c). */
void mbar_async_complete_tx(struct launch *L, struct cta *c, uint32_t off, uint32_t bytes,
			    uint32_t gen);
void mbar_async_arrive(struct launch *L, struct cta *c, uint32_t off, bool noinc, uint32_t gen);
/* Decode the mbarrier address `a` of one lane, written in `space` (generic, shared::cta or
 * shared::cluster), to (cta, offset): the window, alignment and bounds, reported in the name
 * of `what`. False after reporting. */
bool mbar_decode(struct launch *L, struct warp *w, uint64_t a, enum mspace space,
		 uint32_t lane, const char *what, struct cta **cta, uint32_t *off);
/* The mbarrier object at (c, off), valid or invalidated; NULL if none was ever made there. */
struct mbar *mbar_lookup(struct cta *c, uint32_t off);
/* The first valid mbarrier among the bytes [off, off+size) of c's shared memory, or NULL. */
struct mbar *mbar_live_in(const struct cta *c, uint32_t off, uint32_t size);
/* Bytes of a CTA's table of mbarrier objects (one pointer per 8 bytes of shared memory). */
uint64_t mbar_shadow_bytes(const struct cta *c);
/* At the issue of an asynchronous operation that will land on the barrier at (c, off):
 * the executing CTA's own barrier must be valid now (else the lifecycle rules); another
 * CTA's is checked when the operation lands (mbarrier-init-not-visible: its init must have
 * been made visible to this CTA). False when the operation must be dropped. */
bool mbar_async_issue_check(struct launch *L, struct warp *w, struct cta *c, uint32_t off,
			    uint32_t lane, const char *what);

/* cp.async.mbarrier.arrive at issue: resolve the barrier of `lane`, and without .noinc hold
 * its phase open (cp_hold) until the asynchronous arrive-on lands. NULL if a rule broke. */
struct mbar *mbar_cp_async_arrive_issue(struct launch *L, struct warp *w, struct frame *f,
					const struct dinsn *di, uint32_t lane);

/* fence.mbarrier_init by CTA c; a completed cluster barrier publishes fenced inits. */
void mbar_fence_init(struct launch *L, struct cta *c);

/* One line describing the barrier's state: "phase 0, pending 3 of 4 arrivals, tx-count 0". */
void mbar_describe(const struct mbar *mb, struct strbuf *b);

/* The notes of a deadlock report on group g, blocked in a wait on mb: the phase its parity
 * (or state) names, and a parity-1 wait that passed on the fresh barrier earlier. */
void mbar_describe_wait(struct launch *L, struct warp *w, struct group *g, const struct mbar *mb,
			struct strbuf *b);

#endif
