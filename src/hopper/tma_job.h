/*
 * tma_job.h - a resolved tensor copy (tma_job.c): what exec_tma.c checks and resolves at
 * issue, and what the asynchronous-copy queue (async.c) lands later.
 */
#ifndef PTXI_TMA_JOB_H
#define PTXI_TMA_JOB_H

#include <stdbool.h>
#include <stdint.h>

#include "run/launch.h"
#include "run/memory.h"
#include "tmap.h"

enum tma_kind { TMA_LOAD, TMA_STORE, TMA_REDUCE };

struct tma_job {
	struct tmap map;
	enum tma_kind kind;
	int32_t c[TMAP_MAX_RANK];   /* box start, in elements (in chunks for dimension 0 of an
				     * interleaved map)                                        */
	uint32_t soff;              /* shared offset of the box (destination or source)        */
	struct region *r;           /* the allocation holding the tensor                       */
	struct dinsn red;           /* reductions: the element type and operation, as atom's   */
	int32_t off[3];             /* im2col: the offsets of the spatial dimensions, W first  */
};

/* The shape of a box in shared memory. */
struct box_shape {
	uint32_t es;                /* element size                                            */
	uint32_t row_bytes;         /* bytes of one row (an interleaved plane)                 */
	uint32_t pitch;             /* bytes from one row to the next in shared memory         */
	uint32_t n[TMAP_MAX_RANK];  /* rows in each dimension >= 1 (n[0] unused)               */
	uint32_t first;             /* first dimension that counts rows: 1, or 2 interleaved   */
	uint64_t rows;
};

/* The shape in shared memory of a box of map t. */
void box_shape(const struct tmap *t, struct box_shape *s);
/* The global byte offset from the tensor's address of row `row` (dimensions >= first),
 * or -1 when the row is out of bounds in those dimensions. */
int64_t row_offset(const struct tma_job *j, const struct box_shape *s, uint64_t row);
/* Chunk e of an interleaved plane: its byte offset from the plane's origin, or -1 when it
 * lies outside dimension 0. */
int64_t interleave_chunk(const struct tma_job *j, uint32_t e);
/* Land a tensor copy: a load into CTA c's shared memory, or a store or reduction from c's
 * shared memory into global memory. */
void tma_land(struct launch *L, const struct tma_job *j, struct cta *c);
/* The global bytes the box touches, its in-bounds elements only (out-of-bounds ones touch no
 * memory), as runs of contiguous bytes in the order the box is walked, a run that extends
 * the one before merged with it: fn(ctx, addr, n) for each until it returns false. Returns
 * whether every run was passed on. */
bool tma_runs(const struct tma_job *j, bool (*fn)(void *ctx, uint64_t addr, uint32_t n),
	      void *ctx);
/* Whether the box touches a byte of [addr, addr + n). */
bool tma_touches(const struct tma_job *j, uint64_t addr, uint64_t n);
void tma_job_free(struct tma_job *j);

#endif
