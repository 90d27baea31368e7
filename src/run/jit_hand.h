/*
 * jit_hand.h - the CTA sweep's common hand-over, made by the segment code itself at a
 * bar.sync (jit_hand.c), before the call of the context's hop.
 */
#ifndef PTXI_JIT_HAND_H
#define PTXI_JIT_HAND_H

#include <stdint.h>

#include "jit_x86.h"
#include "prog.h"

/* the most jumps jit_hand_gen leaves to its caller */
enum { JIT_HAND_JUMPS = 16 };

/* Emit, at the bar.sync fn->code[i] (a constant barrier, unguarded), the calm hand-over to
 * the next warp, or the calm arrival that completes the barrier (each with the detector's
 * deferred arrival, and at a completion its race_bar_complete, where the call's calm says
 * the detector is on): it either jumps to that warp's entry (or the same warp's past the
 * bar.sync), the hop's work done, or falls through past its code (nothing done), rbx the
 * context (a struct seg_sweeping where its calm is set: then its hop is there too), r13d
 * left before the bar.sync. Where `direct` (fn->code[i + 1] is an entry of the segment
 * code), the hand-overs to a warp at that entry jump to it directly: those jumps' places
 * (x86_patch's) are put in `jumps`, their number returned, for the caller to point at the
 * entry once it is emitted. */
unsigned jit_hand_gen(struct xbuf *b, const struct dfunc *fn, uint32_t i, bool direct,
		      size_t jumps[JIT_HAND_JUMPS]);

/* Emit the lazy hand-overs' settle (interp.c's seg_lazy_settle) for code that writes what
 * they leave (a region's repick and clock: jit_vs.c) without a call of C: c.regs from
 * R_REGS (every lazy form leaves it), then nothing more unless the context is a calm call's
 * (SEG_CALM or SEG_CALM_RACE) and its lazy mark is set (lz_base, lz_race). rbx the context;
 * rax, rcx, rdx, rsi scratch. */
void jit_hand_settle(struct xbuf *b);

#endif
