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

/*
 * A block whose next instruction is a branch back to its start, compiled as that loop
 * (dinsn.jit_loop, at the block's start): runs the block's passes (at most cap, at least one)
 * on the lanes of gmask while the branch's predicate holds for all of them, storing only what
 * a next pass reads (so a pass costs a fraction of the block's). Before each pass it saves
 * the registers a pass reads and then writes (the slots of dinsn.jit_keep: its count, then
 * the slots) to save (JIT_KEEP * LANES words, the k-th one's lanes at k * LANES); the last
 * pass it ran - the one whose branch some lane does not take, or the cap-th - is to be taken
 * back: its caller puts back the saved lanes of gmask and runs the block (dinsn.jit) once
 * for it, which stores all it writes. Returns cap less the passes run (the last included).
 */
typedef uint32_t jit_loop_fn(uint64_t *regs, uint32_t gmask, uint32_t cap, uint64_t *save);

/* A loop's dinsn.jit_keep: the count of slots saved, those slots, then the count of slots of
 * the frame its code touches (reads or writes), those slots. */
static inline const uint32_t *jit_touched(const uint32_t *keep)
{
	return keep + 1 + keep[0];
}

/*
 * The lanes of a group packed (jit_pack): a loop's passes on a group whose lanes are
 * scattered over more chunks of four than they fill run on its n lanes moved to lanes 0..n-1
 * of the slots the code touches, each swapped with the lane it displaces (lane[k]: the
 * group's lanes from `first`, its lowest lane not in the group); jit_unpack swaps them back.
 * Only lanes move: the bits are the same, lane for lane, inactive lanes' too.
 */
struct jit_perm {
	uint32_t n, first;
	uint8_t lane[32];
};

/* p for gmask; false where packing would save no chunk of four */
bool jit_perm_of(struct jit_perm *p, uint32_t gmask);
void jit_pack(uint64_t *regs, const uint32_t *slots, uint32_t nslots, const struct jit_perm *p);
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
