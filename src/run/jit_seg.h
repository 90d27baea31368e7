/*
 * jit_seg.h - the native tier's segment code, made by jit.c's compile after a function's
 * blocks, into the same buffer (its calls reach them by rel32), and run by interp.c's
 * seg_run.
 */
#ifndef PTXI_JIT_SEG_H
#define PTXI_JIT_SEG_H

#include <stddef.h>
#include <stdint.h>

#include "jit_ctx.h"
#include "jit_x86.h"
#include "prog.h"

/* The block starting at an instruction: n instructions (0: none), entered at `entry` (as
 * dinsn.jit), or at `whole` for a whole warp, or at `uni` for a whole warp whose registers
 * the block reads are the same in all lanes (SIZE_MAX: no such code; these take the frame's
 * registers in rdi); whole_bra and uni_bra, the same two answering for the branch right
 * after the block, whose guard the block's last setp wrote (SIZE_MAX: none): whole_bra
 * returns eax 15 where the guard's bit 0 is set in all 32 lanes and ecx 15 where in none,
 * uni_bra eax's bit 0 lane 0's bit; hyb and hyb_bra, whole and whole_bra for a whole warp
 * that never split, the block's ops that read uniform registers run once (SIZE_MAX: no such
 * code); loop: a loop's body (run_direct's jit_loop), which a
 * segment leaves to run_direct; bra_bare: nothing after the branch reads its guard, and
 * uni_bra does not store it (the segment code calls uni_bra only where the budget holds the
 * branch too, and takes the branch's ends from its summary at once). */
struct jseg_block {
	size_t entry, whole, uni, whole_bra, uni_bra, hyb, hyb_bra;
	uint32_t n;
	bool loop, bra_bare;
};

struct jit_map;

struct jit_live;

/* Emit fn's segment code into b: off[i] receives where entering at instruction i starts
 * (SIZE_MAX: no entry there); its pieces are noted in pm (jit_map.h; NULL: none); lv: fn's
 * live slots (jit_live.h). Returns where the code's jit_seg_fn starts, or SIZE_MAX for none
 * (no segment, or out of memory). */
size_t jit_seg_gen(struct xbuf *b, const struct dfunc *fn, const struct jseg_block *blk,
		   size_t *off, struct jit_map *pm, const struct jit_live *lv);

#endif
