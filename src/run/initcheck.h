/*
 * initcheck.h - reads of shared memory that nothing has written (rule shared-uninitialized).
 * One bit per byte of a CTA's shared memory (cta.init_bits), set by every write: ordinary
 * stores and atomics (memory.c marks them with the generic-proxy writes), asynchronous
 * copies landing (cp.async, bulk and tensor copies, multicast included, st.async and
 * red.async), mbarrier.init (the object's 8 bytes). ld and ldmatrix test the bits of the
 * bytes they read. Shared memory starts undefined on the GPU (ptxi zeroes it, which would
 * hide the bug), so a read of a byte never written reads whatever the last CTA left there.
 */
#ifndef PTXI_INITCHECK_H
#define PTXI_INITCHECK_H

#include <stdbool.h>
#include <stdint.h>

#include "launch.h"

/* Bytes of a CTA's bit map (one bit per byte of shared memory, rounded up, plus 2 bytes so
 * that a test of 16 bytes near the end stays inside); none without shared memory. */
static inline uint32_t init_map_bytes(uint32_t smem_size)
{
	return smem_size ? smem_size / 8 + 3 : 0;
}

/* Bytes [off, off+size) of c's shared memory are written (within bounds: the caller's). */
void init_mark(struct cta *c, uint32_t off, uint32_t size);
/* The same for lanes of mask, each at off[l]. */
void init_mark_lanes(struct cta *c, const uint32_t *off, uint32_t mask, uint32_t size);

/* Whether reads are tested in this launch (the rule is not off). */
static inline bool init_checking(const struct launch *L)
{
	return L->initcheck;
}

/* A read of `size` bytes at shared (c, off) by `lane` of w at the current instruction:
 * reports the rule when any byte was never written. */
void init_check(struct launch *L, struct warp *w, uint32_t lane, struct cta *c, uint32_t off,
		uint32_t size);
/* The same for the lanes of mask of w, each at off[l] of w's own CTA. */
void init_check_lanes(struct launch *L, struct warp *w, const uint32_t *off, uint32_t mask,
		      uint32_t size);

#endif
