/*
 * exec.h - the instruction handlers the dispatch loop calls (one per ops.def row) and what
 * the families share: warp-wide lane waits, matrix decoding, frames.
 */
#ifndef PTXI_EXEC_H
#define PTXI_EXEC_H

#include "launch.h"

/* Every instruction's handler, one per row of ops.def, defined in its family's file. A
 * handler runs its instruction for the lanes of `mask` (the group's lanes whose guard
 * holds, never none) and says where the group goes (enum step, interp.h). */
/* An instruction or operand form ptxi cannot run (di->unsup says why): the launch that
 * reaches it stops there (load.c's lunsup). */
exec_fn exec_unsupported;
#define OP(name, spelling, family, dests, lits, decode, exec, check) exec_fn exec;
#include "front/ops.def"
#undef OP

/* The whole-warp forms of exec_mov and exec_ld that run_direct (interp.c) does in place, as
 * their handlers do them (exec_mem.c): a move of a register, an immediate, a variable's
 * address or %tid, %ntid, %ctaid, %nctaid into a register by all 32 lanes; a scalar
 * ld.param of a kernel parameter by its name, in bounds and aligned, into a register by the
 * lanes of mask. Done and true; false: nothing done (any other form, or a fault the handler
 * reports). Neither reads the step count or the clock, writes memory, stops the launch or
 * parks the group. */
bool exec_mov_warp(struct launch *L, struct warp *w, struct frame *f, const struct dinsn *di);
bool exec_ld_kparam(struct launch *L, struct frame *f, const struct dinsn *di, uint32_t mask);

/* A .sync warp instruction needs every non-exited lane of `member` in group g: false (and
 * g parked) while some are elsewhere, or after a rule break if mask leaves the members. */
bool warp_need_lanes(struct launch *L, struct warp *w, struct group *g, uint32_t member,
		     uint32_t mask);
/* The kinds of FAM_MMA rows; each row's decoder (load.c) names its own. */
enum mma_kind { MK_MMA, MK_LDMATRIX, MK_STMATRIX, MK_MOVMATRIX, MK_WMMA_LOAD, MK_WMMA_STORE,
		MK_WMMA_MMA, MK_MMA_SP };
/* Load time: the matrix form of a FAM_MMA instruction of `kind` into di->mma (allocated in
 * a), its operands already decoded; `which` is the fragment of wmma.load/store ('a', 'b',
 * 'c', 'd'). NULL, or why ptxi cannot run it (in buf or a literal). */
const char *mma_decode(struct arena *a, const struct ir_insn *in, struct dinsn *di,
		       enum mma_kind kind, char which, char *buf, size_t len);
/* What an instruction does for one lane of its group's frame. */
typedef void lane_fn(struct launch *L, struct warp *w, struct frame *f, const struct dinsn *di,
		     uint32_t lane);
/* Run fn for each lane of mask, in lane order, until the launch stops: the handler of an
 * instruction whose lanes act one after another and never wait (issuing asynchronous work;
 * a wait_group lands what it waits for at once). */
static inline enum step exec_each_lane(struct launch *L, struct warp *w, struct group *g,
				       const struct dinsn *di, uint32_t mask, lane_fn *fn)
{
	for (uint32_t m = mask; m && !L->stop; m &= m - 1)
		fn(L, w, g->frame, di, (uint32_t)__builtin_ctz(m));
	return STEP_NEXT;
}


#endif
