/*
 * jit_ctx.h - the context of the native tier's segment code (jit_seg.c's code, run by
 * interp.c's seg_run and seg_sweep): what a call of it takes and leaves, and its answers.
 */
#ifndef PTXI_JIT_CTX_H
#define PTXI_JIT_CTX_H

#include <stdint.h>

#include "prog.h"

/*
 * A barrier-to-barrier segment compiled (jit_seg.c): a function's code from each place a
 * warp's turn begins after a bar.sync, as one piece of native code for a whole warp (gmask
 * all 32 lanes) - its ALU blocks, branches all of whose lanes go one way, short forward
 * branches whose lanes part (a region: the lanes that fall through run the stretch to the
 * target, masked, as run_direct's split not made, then the whole warp goes on), moves of a
 * register or an immediate, and ld/st.shared (smem.h) - up to the next bar.sync or anything else,
 * where it returns with nothing of that done. It is interp.c's seg_run, instruction by
 * instruction, in native code: the pc where it stops is returned, and it leaves in the
 * context what seg_run would have counted on the way. At a bar.sync it may hand the turn to
 * the context's hop (the CTA sweep), which can go on with another warp's turn.
 */
struct jit_seg_ctx {
	uint64_t *regs;         /* in: the frame's registers                                  */
	uint32_t left;          /* in: the budget; out: what is left of it                    */
	uint32_t hmin;          /* in: a handler (ld, st, mov) runs only while left > hmin    */
	uint32_t last;          /* out: the last instruction run (unchanged if none ran)     */
	uint32_t writes;        /* out: instructions of DF_WRITES run (L->writes's share)     */
	uint32_t lmask;         /* out: the last instruction's mask, where it was a branch    */
	uint32_t row;           /* in: JIT_ROW_ASK; then smem_rows's answer (the row path)     */
	int64_t row_lim;        /* then: the shared bytes less 128, a row's start at most that  */
	uint8_t *smem;          /* then: the CTA's shared memory                               */
	const void *row_cta;    /* in: NULL; then the CTA whose answer row_kept is (ask_rows)   */
	uint32_t row_kept;      /* then: smem_rows's answer for row_cta, kept for its warps    */
	uint64_t word;          /* scratch: a shared word every lane loads (jit_seg.c's gen_bcast) */
	void *L, *w, *f;        /* in: smem_ld / smem_st's launch, warp and frame             */
	uint64_t end;           /* in: seg_run's steps + limit (the detector's L->steps)      */
	/* in: the CTA sweep (interp.c's seg_hop), or NULL: at a bar.sync of a constant barrier
	 * (barrier.h's bar_sync_const, unguarded), after the handlers' test, the code stores
	 * `left` and calls it with that instruction's pc, its barrier's id, its flags and the
	 * instruction itself (constants of the code: the hop need not load them from the
	 * instruction, a line the turn has not touched, nor find it through the frame). Its
	 * answer: NULL, nothing done (the code leaves there); JIT_SEG_HOP_LEFT, the code
	 * leaves at once returning JIT_SEG_SWEPT (the hop did the arrival and ended the
	 * turn); else where to go on, the code's registers reloaded from regs, left, hmin,
	 * last and w's `split` (the hop moved the context to the next warp's turn, or its
	 * arrival completed the barrier and the same warp goes on past the bar.sync). Every
	 * context is a struct seg_sweeping's (seg_sweep.h; seg_native's too, not calm, its
	 * lazy marks clear: the code's hand-over reads lz_base before calm). Where
	 * the context is a calm call's, the code first
	 * tries the hop's common case itself (jit_hand.c), writing what the hop would or
	 * leaving it to a settle (seg_sweep.h's lz_base): every C function the code of such
	 * a call calls - the hop, vs_smem - makes interp.c's seg_lazy_settle first, and a new
	 * call of C from the code must too where it reads the launch's counts or L->cw (the
	 * detector's calls read L->steps, L->ci and L->cmask, written before each, and L->cw,
	 * which the race forms do not leave: they make no settle); code
	 * that writes what the lazy form takes as left (a region's repick and clock) emits
	 * jit_hand_settle first (jit_hand.h), or leaves it as that form has it (jit_vs.c's
	 * lazy merge). */
	const void *(*hop)(struct jit_seg_ctx *c, uint32_t pc, uint32_t id, uint32_t flags,
			   const struct dinsn *di);
	/* in: seg_sweep.h's SEG_CALM or SEG_CALM_RACE where the context is a calm call's struct
	 * seg_sweeping (then hop is not NULL: the code's hand-over tests this, after
	 * lz_base, and the hop only where it fails), else 0. 32 bits: the code compares it
	 * whole. */
	uint32_t calm;
	/* A region (jit_seg.c's gen_region): a divergent branch's not-taken lanes run to its
	 * target as run_direct runs its split not made (interp.c's vsplit): the split's
	 * beginning, the picks after the accesses the code makes and the merge written by the
	 * code itself (jit_vs.c), any other access through vs_smem, `left` the budget before it. */
	void *rp;               /* in: seg_run's struct repick (the split's and the counts')  */
	uint32_t n0;            /* in: the turn's instructions before it plus its limit      */
	uint32_t vmask;         /* out: the region's lanes (last's, with JIT_SEG_LAST_REGION) */
	/* the region's ld/st.shared at pc: a JIT_VS_* answer */
	uint32_t (*vs_smem)(struct jit_seg_ctx *c, uint32_t pc, uint32_t left);
};

/* vs_smem's answers: nothing done (the code leaves there, the split not made left to
 * run_direct); done, on; done and a report stopped the launch (the code leaves past it) */
enum { JIT_VS_DECLINED, JIT_VS_ON, JIT_VS_STOPPED };
/* ctx.last's bit for an instruction a region ran: its mask is vmask's lanes (its guard's) */
#define JIT_SEG_LAST_REGION (1u << 31)
/* the longest branch-to-target stretch run_direct runs as a split not made (interp.c's
 * vsplit_fits), and so the longest region */
#define JIT_VSPLIT_MAX 16

enum { JIT_ROW_ASK = 4 }; /* (a bit smem_rows never answers: smem.h) */
#define JIT_SEG_HOP_LEFT ((const void *)1)
#define JIT_SEG_SWEPT UINT32_MAX /* the pc returned where the hop ended the turn */

/* Run fn's segment code entered at `at` (dinsn.seg); returns the pc it stopped at. */
typedef uint32_t jit_seg_fn(struct jit_seg_ctx *c, const void *at);

#endif
