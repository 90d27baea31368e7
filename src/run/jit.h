/*
 * jit.h - the native tier (issue #31): straight runs of integer ALU instructions compiled at
 * a kernel's first launch into x86-64 AVX2 code that keeps the PTX registers in ymm
 * registers, four lanes at a time. run_direct (interp.c) calls a block instead of its
 * instructions one by one as far as its budget allows; everything else, and every host
 * without AVX2, runs as before.
 */
#ifndef PTXI_JIT_H
#define PTXI_JIT_H

#include <stdbool.h>
#include <stdint.h>

#include "jit_seg.h"
#include "prog.h"

/* Where a block may be entered and left: every JIT_STEP instructions from its start. */
#define JIT_STEP 8

/* A compiled block, entered at the instruction whose dinsn.jit it is (boundary dinsn.jit_at
 * of its block): runs its instructions on the lanes of gmask (the group's mask) of the frame
 * whose registers start at regs, exactly as the lane functions would one by one, up to
 * boundary `to` (its block's end if `to` is none of its boundaries). */
typedef void jit_block_fn(uint64_t *regs, uint32_t gmask, uint32_t to);

/* The most registers a loop's body saves (jit_loop_fn). */
#define JIT_KEEP 12

/* The most slots a loop's body writes without reading them first (jit_loop_fn): its values
 * to store all lie in ymm registers at its end, twelve at most */
#define JIT_WONLY 12

/* A loop's save area (jit_loop_fn): JIT_SAVE words, the exit words from JIT_SAVE_EXIT, the
 * slots written only of the lanes that leave from JIT_SAVE_WONLY */
#define JIT_SAVE_EXIT (JIT_KEEP * LANES)
#define JIT_SAVE_WONLY (JIT_SAVE_EXIT + LANES)
#define JIT_SAVE (JIT_SAVE_WONLY + JIT_WONLY * LANES)

/*
 * A block whose next instruction is a branch back to its start, compiled as that loop
 * (dinsn.jit_loop, at the block's start): runs the block's passes (at most cap, at least one)
 * on the lanes of gmask while the branch's predicate holds for all of them, storing only what
 * a next pass reads (so a pass costs a fraction of the block's). Before each pass it saves
 * the registers a pass reads and then writes (the slots of dinsn.jit_keep: its count, then
 * the slots) to save (the k-th one's lanes at k * LANES). The last pass it ran - the one
 * whose branch some lane does not take, or the cap-th - either stands for the lanes that
 * leave or is to be taken back. For the lanes that leave (their branch not taken), the exit
 * words (save[JIT_SAVE_EXIT + lane], which the caller zeroes) are all ones, and what the pass
 * wrote is stored: the saved slots in the frame, the slots written only (jit_wonly) in the
 * save area (the k-th one's lanes at JIT_SAVE_WONLY + k * LANES), for the caller to copy to
 * the frame. The pass stands for them, and the others may go on with a next call (the save
 * area holds their values from before the pass; the rest of their registers are written
 * again before they are read). To take the pass back, the caller puts back the saved lanes
 * of the lanes it ran on and runs the block (dinsn.jit) once for them, which stores all it
 * writes. Returns cap less the passes run (the last included).
 */
typedef uint32_t jit_loop_fn(uint64_t *regs, uint32_t gmask, uint32_t cap, uint64_t *save);

/* A loop's dinsn.jit_keep: the count of slots saved, those slots, then the count of slots of
 * the frame its code touches (reads, or writes and saves), those slots, then the count of
 * slots it writes without reading them first, those slots. */
static inline const uint32_t *jit_touched(const uint32_t *keep)
{
	return keep + 1 + keep[0];
}

static inline const uint32_t *jit_wonly(const uint32_t *keep)
{
	const uint32_t *t = jit_touched(keep);
	return t + 1 + t[0];
}

/*
 * The lanes of a group packed: a loop's passes on a group whose lanes are scattered over more
 * chunks of four than they fill run on its lanes moved to lanes 0..n-1 of the slots the code
 * touches (jit_touched), by swaps of two lanes each (at most JIT_NSWAP in all); jit_unpack
 * undoes them. Only lanes move: the bits are the same, lane for lane, inactive lanes' too.
 */
#define JIT_NSWAP 64
struct jit_perm {
	uint8_t at[32];                /* at[j]: the lane whose values lie at lane j */
	uint8_t swap[JIT_NSWAP][2];    /* the swaps made, in order                    */
	uint32_t nswap;
};

/* p: no lane moved */
void jit_perm_init(struct jit_perm *p);
/* The lanes m (as they lie now) moved to lanes 0..n-1 (n of them) where that saves a chunk
 * of four and the swaps fit; returns where they lie after (m itself if none moved). */
uint32_t jit_compact(uint64_t *regs, const uint32_t *slots, uint32_t nslots, struct jit_perm *p,
		     uint32_t m);
void jit_unpack(uint64_t *regs, const uint32_t *slots, uint32_t nslots,
		const struct jit_perm *p);

/* Compile the blocks of `kernel` and of every .func of P (a kernel may call them) not
 * compiled yet (dinsn.jit, jit_len, jit_at), before a launch of `kernel`: kernels never
 * launched cost nothing. Does nothing where the host cannot run the code (not x86-64, no
 * AVX2, no executable memory) or the environment says PTXI_JIT=0. Never fails: a block it
 * cannot compile runs as before. Thread-safe; a function compiled once is only read. */
void jit_prepare(struct dprog *P, struct dfunc *kernel);

/* Free P's compiled code. */
void jit_free(struct dprog *P);

#endif
