/*
 * wgmma.h - warpgroup MMA and setmaxnreg at run time (exec_wgmma.c): the decoded form of an
 * instruction, its execution, the asynchrony of wgmma.mma_async (queued per warp, completed
 * in order when a wgmma.wait_group covers its group, or at a seeded point before), and the
 * checks that need the run: registers in flight, wgmma.fence, warpgroup alignment, shared
 * operands written while read.
 */
#ifndef PTXI_WGMMA_H
#define PTXI_WGMMA_H

#include <stdbool.h>
#include <stdint.h>

#include "run/prog.h"
#include "check/wgmma_form.h"

struct launch;
struct warp;
struct group;
struct frame;
struct cta;

/* Set up L->wg before the launch, and free it after. */
void wgmma_launch_init(struct launch *L);
void wgmma_launch_free(struct launch *L);

/* What load.c decodes for a FAM_WGMMA instruction (dinsn.wg). For wgmma.mma_async the
 * operands are d = D (a vector), s[0] = A (descriptor, or vector of 4 registers), s[1] = B's
 * descriptor, s[2] = scale-d, and for .sp s[3] = the metadata register. */
struct wg_insn {
	struct wg_form f;
	uint8_t sel;                /* .sp: the sparsity selector                               */
	int8_t scale_a, scale_b;    /* imm-scale-a/b: 1 or -1                                 */
	bool trans_a, trans_b;      /* imm-trans-a/b: MN-major A / B                           */
	uint32_t count;             /* wgmma.wait_group N                                       */
};


/* Before any other instruction of a warp with wgmma.mma_async in flight (w->wg_busy):
 * whether it touches their registers (rule wgmma-register-race). */
void wgmma_check_regs(struct launch *L, struct warp *w, struct frame *f, const struct dinsn *di,
		      uint32_t mask);
/* After an instruction of a warp that ran wgmma.fence (w->wg_track): remember which
 * registers it wrote and read, for rule wgmma-fence-missing. */
void wgmma_note_writes(struct warp *w, struct frame *f, const struct dinsn *di);

/* An ordinary access to c's shared memory while wgmma.mma_async read shared operands are in
 * flight (L->wg.reading), or while L->cw has parts no wait_group of its own covered yet
 * (cw->wg_busy): a write over one is rule async-copy-race (true when it broke). */
bool wgmma_check_access(struct launch *L, struct cta *c, uint32_t off, uint32_t size,
			bool write, uint32_t lane);

/* The same for an asynchronous copy (`verb`: "cp.async.bulk.tensor write", ...) that will
 * write [off, off+size) of c's shared memory: from its issue on, it may land at any time. */
bool wgmma_check_copy(struct launch *L, struct cta *c, uint32_t off, uint32_t size,
		      uint32_t lane, const char *verb);

/* Seeded completion: the earliest due step of a committed group (UINT64_MAX if none), and
 * completing the groups due at or before `now`. */
uint64_t wgmma_next_due(const struct launch *L);
void wgmma_land_due(struct launch *L, uint64_t now);

/* Every warp of w's CTA... w exited: drop what it has in flight, check its warpgroup. */
void wgmma_warp_exit(struct launch *L, struct warp *w);
/* Free a CTA's wgmma state (end of its cluster). */
void wgmma_cta_free(struct launch *L, struct cta *c);

#endif
