/*
 * access.h - an ordinary memory access by one lane, as ld/st/atom and the other
 * instructions that read or write memory make it: memory.c says where it lands; this layer
 * adds the checks that belong to the layers above memory - a live mbarrier under the bytes,
 * asynchronous copies and wgmma operands in flight, the result of a cvta.to.shared of a
 * non-shared address, the reads of a loop watched at the step limit.
 */
#ifndef PTXI_ACCESS_H
#define PTXI_ACCESS_H

#include <stdbool.h>
#include <stdint.h>

#include "hopper/async.h"
#include "memory.h"

/* Resolve and check an access of `size` bytes at `addr` in `space` for `lane` of warp w.
 * Reports a broken rule and returns false if it is out of bounds or misaligned; out->
 * async_raced is set when it broke async-copy-race. */
bool access_lane(struct launch *L, struct warp *w, uint32_t lane, enum mspace space,
		 uint64_t addr, uint32_t size, bool write, struct access *out);
/* Whether none of this layer's checks can fire for a shared::cta access of warp w now (no
 * mbarrier in its CTA, nothing in flight, no spin watch, no bad cvta result): then an
 * instruction may resolve its lanes at once (mem_shared_lanes) and skip access_lane. */
static inline bool access_shared_quiet(const struct launch *L, const struct warp *w)
{
	return !L->spin_rec && !w->bad_cvta && !w->cta->mbar_at && !async_watching(L) &&
	       !L->wg.reading && !w->wg_busy;
}
/* Whether no check here can fire for a .global access (no spin watch, nothing
 * asynchronous to check it against): then memory.c may resolve the warp at once. */
bool access_global_quiet(const struct launch *L);

#endif
