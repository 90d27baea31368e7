/*
 * exec_tma.h - TMA tensor copies (cp.async.bulk.tensor, cp.reduce.async.bulk.tensor,
 * cp.async.bulk.prefetch.tensor) and the device-side tensor-map instructions
 * (tensormap.replace, tensormap.cp_fenceproxy). A tensor copy is checked and resolved at
 * issue, then queued as an asynchronous event (async.c) whose landing walks the box here.
 */
#ifndef PTXI_EXEC_TMA_H
#define PTXI_EXEC_TMA_H

#include <stdbool.h>
#include <stdint.h>

#include "interp.h"

struct tma_job;

/* Land a tensor copy: a load into CTA c's shared memory, or a store or reduction from c's
 * shared memory into global memory. */
void tma_land(struct launch *L, const struct tma_job *j, struct cta *c);
void tma_job_free(struct tma_job *j);

#endif
