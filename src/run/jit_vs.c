/*
 * jit_vs.c - a region's steps in the segment code (jit_vs.h, issue #31): what interp.c's
 * vsplit_begin, repicked and vsplit_join write, emitted inline for the region's common case.
 *
 * What they leave out of seg_vs_begin / seg_vs_after, and why that is exact: the group's
 * pc, L->steps, L->ci and L->cmask, which those wrote at each step, are read by nothing the
 * code runs before the next writer - the code runs only blocks and its own row moves in a
 * region (neither reads them nor reports); an access left to C writes them itself first
 * (seg_vs_smem's seg_vs_at); and wherever the code ends, seg_run's end, the hop's note and
 * the hand-over write all four (the turn's steps, the last instruction and its mask). The
 * warp's last pick, which vsplit_join writes, is the group already (begin's test, and
 * nothing in the region picks), and is written all the same. The rest - the group's mask,
 * w's split, the streak, the clock, struct repick's counts and its split not made - is
 * written here as C writes it, step by step, so that where the code leaves the region
 * halfway (an access C declines, or a report that stops the launch) C finds what it found
 * before - but for repicked's clock after an access the code made: the clock moves to the
 * last pick's count however many picks came between (L->clock += n - n_clocked, n_clocked
 * = n, telescopes), and nothing in a region reads it (no block reads %clock, smem.c never
 * reads it), so the branch's pick and a pick after an access leave it to the next: the
 * merge, or jit_vs_clock before an access left to C (which may leave the code there) -
 * where C made the pick before it, that moves the clock by nothing.
 *
 * Registers: rbx the context, r13d the budget (jit_seg.c's); rax, rcx, rdx, rsi, rdi, r8,
 * r9 scratch; ymm 0 scratch.
 */
#include "jit_vs.h"

#include <stddef.h>

#include "group.h"
#include "jit_hand.h"
#include "seg_sweep.h"

enum { R_CTX = X_RBX, R_REGS = X_R12, R_LEFT = X_R13 }; /* (jit_seg.c's) */

#define AT(base, off) ((struct xmem){(base), -1, 1, (int32_t)(off)})
#define CTX(field) AT(R_CTX, offsetof(struct jit_seg_ctx, field))
#define RP(field) AT(X_RCX, offsetof(struct repick, field))

/* eax = the turn's instructions run so far, as seg_vs_* count them: ctx.n0 - left + plus */
static void count(struct xbuf *b, int32_t plus)
{
	x86_load(b, false, X_RAX, CTX(n0));
	x86_alu_rr(b, X86_SUB, false, X_RAX, R_LEFT);
	if (plus)
		x86_alu_ri(b, 0, false, X_RAX, plus);
}

/* repicked's clock, eax the count: L->clock += n - rp->n_clocked, rp->n_clocked = n; rcx is
 * left the context's repick */
static void clock_to(struct xbuf *b)
{
	x86_load(b, true, X_RCX, CTX(rp));
	x86_load(b, true, X_R9, CTX(L));
	x86_mov32(b, X_RSI, X_RAX);
	x86_alu_rm(b, X86_SUB, false, X_RSI, RP(n_clocked));
	x86_alu_mr(b, X86_ADD, true, AT(X_R9, offsetof(struct launch, clock)), X_RSI);
	x86_store(b, false, RP(n_clocked), X_RAX);
}

/* repicked's counts where the group's lanes changed by r8d (positive: more; `more`, else
 * fewer), eax the count: rp->dlanes += d, rp->fix -= n * d */
static void lanes_by(struct xbuf *b, bool more)
{
	x86_alu_mr(b, more ? X86_ADD : X86_SUB, false, RP(dlanes), X_R8);
	x86_imul_rr(b, true, X_R8, X_RAX); /* (both zero-extended: n, and d's magnitude) */
	x86_alu_mr(b, more ? X86_SUB : X86_ADD, true, RP(fix), X_R8);
}

/* edx = the lanes of guard slot g whose bit 0 is set (pred_mask's), negated by neg: eight
 * lanes' low words a vector (vshufps gathers lanes 0,1,4,5 | 2,3,6,7, vpermq puts them in
 * order, as pred_mask_avx2), bit 0 shifted to the sign, the signs gathered (eax scratch) */
static void guard_lanes(struct xbuf *b, uint32_t g, bool neg)
{
	for (int c = 0; c < LANES / 8; c++) {
		uint32_t at = g * LANES * sizeof(uint64_t) + 64u * (unsigned)c;
		x86_vrm(b, XV_VMOVDQU_LD, 0, 0, AT(R_REGS, at));
		x86_vrmi(b, XV_VSHUFPS, 0, 0, AT(R_REGS, at + 32), 0x88);
		x86_vrri(b, XV_VPERMQ, 0, 0, 0, 0xD8);
		x86_vshi(b, XV_VPSLLD_I, 0, 0, 31);
		x86_vrr(b, XV_VMOVMSKPS, c ? X_RAX : X_RDX, 0, 0);
		if (c) {
			x86_shift_ri(b, 4, false, X_RAX, (uint8_t)(8 * c));
			x86_alu_rr(b, X86_OR, false, X_RDX, X_RAX);
		}
	}
	if (neg)
		x86_alu_ri(b, 6, false, X_RDX, -1);
}

void jit_vs_begin(struct xbuf *b, const struct dfunc *fn, uint32_t i, uint32_t picks,
		  size_t fail[4])
{
	const struct dinsn *di = &fn->code[i];
	/* what lazy hand-overs left (the region writes the repick's counts and the clock,
	 * which their lazy form takes as the turn's first hand-over left them) */
	jit_hand_settle(b);
	/* vsplit_fits's tests, seg_vs_begin's order */
	x86_load(b, true, X_RAX, CTX(L));
	x86_alu_mi(b, 7, false, AT(X_RAX, offsetof(struct launch, async.nevents)), 0);
	fail[0] = x86_jcc(b, 0x5);
	x86_load(b, true, X_RSI, CTX(w));
	x86_load(b, true, X_RDI, AT(X_RSI, offsetof(struct warp, groups)));
	x86_alu_rm(b, X86_CMP, true, X_RDI, AT(X_RSI, offsetof(struct warp, last_pick)));
	fail[1] = x86_jcc(b, 0x5);
	x86_alu_mi(b, 7, true, AT(X_RDI, offsetof(struct group, next)), 0);
	fail[2] = x86_jcc(b, 0x5);
	x86_load(b, false, X_RCX, AT(X_RSI, offsetof(struct warp, streak)));
	x86_alu_ri(b, 0, false, X_RCX, (int32_t)picks);
	x86_alu_ri(b, 7, false, X_RCX, FAIR_PICKS);
	fail[3] = x86_jcc(b, 0x3);
	/* vsplit_begin (gmask the whole warp), n the instructions before the branch */
	guard_lanes(b, (uint32_t)di->guard, di->guard_neg);
	x86_store(b, false, CTX(lmask), X_RDX);
	x86_mov32(b, X_R8, X_RDX);
	x86_alu_ri(b, 6, false, X_R8, -1);
	x86_store(b, false, AT(X_RDI, offsetof(struct group, mask)), X_R8);
	x86_store(b, false, CTX(vmask), X_R8);
	x86_mov_mi8(b, AT(X_RSI, offsetof(struct warp, split)), WARP_SPLIT);
	x86_alu_mi(b, 0, false, AT(X_RSI, offsetof(struct warp, streak)), 1);
	count(b, 1);
	x86_load(b, true, X_RCX, CTX(rp)); /* (repicked's clock: left to the next clock_to) */
	x86_store(b, false, RP(vlanes), X_RDX);
	x86_mov_mi(b, RP(vpc), di->target);
	x86_popcnt(b, X_R8, X_RDX);
	lanes_by(b, false);
}

/* vsplit_join, eax the count: the taken lanes back in the group, the streak begun */
static void join(struct xbuf *b)
{
	clock_to(b);
	x86_load(b, true, X_RSI, CTX(w));
	x86_load(b, true, X_RDI, AT(X_RSI, offsetof(struct warp, groups)));
	x86_load(b, false, X_R8, RP(vlanes));
	x86_alu_mr(b, X86_OR, false, AT(X_RDI, offsetof(struct group, mask)), X_R8);
	x86_mov_mi(b, RP(vlanes), 0);
	x86_mov_mi(b, AT(X_RSI, offsetof(struct warp, streak)), 0);
	x86_store(b, true, AT(X_RSI, offsetof(struct warp, last_pick)), X_RDI);
	x86_popcnt(b, X_R8, X_R8);
	lanes_by(b, true);
}

void jit_vs_picked(struct xbuf *b, bool merge)
{
	if (merge) {
		count(b, 1);
		join(b);
		return;
	}
	/* seg_vs_past's pick again: the streak (repicked's clock left to the next clock_to) */
	x86_load(b, true, X_RSI, CTX(w));
	x86_alu_mi(b, 0, false, AT(X_RSI, offsetof(struct warp, streak)), 1);
}

void jit_vs_clock(struct xbuf *b, uint32_t back)
{
	count(b, 1 - (int32_t)back);
	clock_to(b);
}

void jit_vs_join(struct xbuf *b)
{
	count(b, 0);
	join(b);
}
