/*
 * jit_regs.h - the general registers the segment code keeps across its pieces (jit_seg.c's
 * code, the hand-over jit_hand.c writes into it, the regions of jit_vs.c and the inline
 * uniform blocks of jit_suni.c): one convention all of them compile against.
 */
#ifndef PTXI_JIT_REGS_H
#define PTXI_JIT_REGS_H

#include "jit_x86.h"

/* the context (struct jit_seg_ctx, within seg_sweep.h's struct seg_sweeping), the frame's
 * registers, the budget left, the handlers' floor (jit_seg_ctx's hmin), the last
 * instruction run, and the warp's split flag */
enum { R_CTX = X_RBX, R_REGS = X_R12, R_LEFT = X_R13, R_HMIN = X_R14, R_LAST = X_R15,
       R_SPLIT = X_RBP };

#endif
