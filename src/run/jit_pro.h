/*
 * jit_pro.h - a kernel's prologue in the segment code (jit_seg.c): the handlers run_direct
 * does in place or through their own call for a whole warp that a fresh warp's first turn
 * runs before its first bar.sync (jit_pro.c), as native code.
 */
#ifndef PTXI_JIT_PRO_H
#define PTXI_JIT_PRO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "jit_x86.h"
#include "prog.h"

/* the most jumps to the exit one instruction's code has */
#define JIT_PRO_EXITS 4

/* The registers of the segment code that jit_pro_gen's code reads: the context and the
 * frame's registers (jit_seg.c's R_CTX, R_REGS). */
struct jit_pro_regs {
	int ctx, regs;
};

/* Whether jit_pro_gen emits instruction di of fn, unguarded: an ld.param of a kernel
 * parameter by its name, in bounds and aligned; a move of %tid.x, %ntid, %ctaid or %nctaid;
 * a cvta.to.global or a cvta to the generic space of a register. */
bool jit_pro_fits(const struct dfunc *fn, const struct dinsn *di);

/* Emit di's code (jit_pro_fits's yes): it writes di's destination in all 32 lanes as its
 * handler does for a whole warp, or jumps to the exit having done nothing (where the
 * handler could report, or takes another of its paths); those jumps' displacements are
 * left in exits[] (to patch), their count returned. Scratch: rax, rcx, rdx, ymm12-14
 * and the context's word. */
unsigned jit_pro_gen(struct xbuf *b, const struct jit_pro_regs *r, const struct dinsn *di,
		     size_t exits[JIT_PRO_EXITS]);

#endif
