/*
 * devrt.h - the CUDA device runtime calls a module declares .extern and nvcc emits calls to:
 * vprintf (printf), __assertfail (assert), malloc and free over a device heap. A declared
 * external that never runs is harmless; one that runs without a model here is an error
 * naming it (exit 2).
 */
#ifndef PTXI_DEVRT_H
#define PTXI_DEVRT_H

#include "launch.h"

#define DEVRT_HEAP_DEFAULT (8ull << 20) /* cudaLimitMallocHeapSize's default */

/* Run the call `di` of the bodiless function `callee` for the lanes of `mask` of warp w,
 * whose caller frame is f. */
void devrt_call(struct launch *L, struct warp *w, struct frame *f, const struct dinsn *di,
		const struct dfunc *callee, uint32_t mask);
/* Make the heap now, when the program calls malloc or free (before --jobs starts threads
 * that share it); false: out of memory. */
bool devrt_begin(struct launch *L);
/* Whether the program calls malloc or free. */
bool devrt_uses_heap(const struct launch *L);

#endif
