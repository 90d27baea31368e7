/*
 * exec_tma.h - TMA tensor copies (cp.async.bulk.tensor, cp.reduce.async.bulk.tensor,
 * cp.async.bulk.prefetch.tensor) and the device-side tensor-map instructions
 * (tensormap.replace, tensormap.cp_fenceproxy). A tensor copy is checked and resolved at
 * issue, then queued as an asynchronous event (async.c) whose landing walks the box (tma_job.c).
 */
#ifndef PTXI_EXEC_TMA_H
#define PTXI_EXEC_TMA_H

#include <stdbool.h>
#include <stdint.h>

#include "launch.h"

/* Execute a FAM_TMA instruction for `mask`. */
void tma_exec(struct launch *L, struct warp *w, struct group *g, const struct dinsn *di,
	      uint32_t mask);

#endif
