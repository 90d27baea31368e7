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
 * warp's last pick, which vsplit_join writes, is the group already (begin's test - where
 * the lazy form stands, the group the settle writes: jit_vs_tests - and nothing in the
 * region picks), and is written all the same. The rest - the group's mask,
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
 * w's split flag (launch.h) is WARP_SPLIT wherever C may see the warp inside the region:
 * from the beginning on (as vsplit_begin sets it) where the region does not leave the
 * uniform registers' facts standing, else (jit_seg.c's region_whole: none it writes is live
 * past it) only from an access C takes (jit_vs_clock). ebp, the code's copy, is not touched
 * inside the region: jit_seg.c's region end sets both (the flag as ebp found it where
 * region_whole holds, WARP_MERGED for 0 where it does not).
 *
 * The lazy hand-overs' writes (seg_sweep.h's lz_base, jit_hand.c's lazy forms) are not
 * settled at the beginning where the merge can leave them standing (jit_vs_lazy): nothing
 * the region runs reads what the settle writes - its blocks and row moves read no count,
 * clock, steps or c.regs, ask_rows none of them (the detector's calls from the code read
 * L->steps, L->ci, L->cmask and L->cw only, none the region's code writes or leaves) - and
 * C, which does, settles first: an access left to C settles before its clock (jit_vs_clock:
 * the settle then writes what it wrote at the beginning, begin's writes being none of its),
 * and an exit before the beginning leaves to C, which settles. What the region writes that
 * the lazy form takes as 0 - the repick - is made 0 again at the merge where the lazy form
 * stands (join_lazy): its counts' share goes to L->thread_steps at once (read only at the
 * launch's end), and its clock (n_clocked, then L->clock at the merge's pick) is left to
 * the settle by the mark a lazy completion makes (t.steps the turn's, t.left the budget past
 * the merge: the settle moves the clock to that pick and sets n_clocked to its count, as
 * clock_to would have) - with t.last and t.lmask as seg_account makes them of the region's
 * last instruction, which it reads where the code leaves with nothing run past the mark.
 *
 * Registers: rbx the context, r13d the budget (jit_seg.c's); rax, rcx, rdx, rsi, rdi, r8,
 * r9 scratch; ymm 0 scratch.
 */
#include "jit_vs.h"

#include <stddef.h>

#include "group.h"
#include "jit_hand.h"
#include "jit_regs.h"
#include "seg_sweep.h"

#define AT(base, off) ((struct xmem){(base), -1, 1, (int32_t)(off)})
#define CTX(field) AT(R_CTX, offsetof(struct jit_seg_ctx, field))
#define RP(field) AT(X_RCX, offsetof(struct repick, field))
#define SW(field) AT(R_CTX, offsetof(struct seg_sweeping, field))

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

bool jit_vs_lazy(const struct dfunc *fn, uint32_t i)
{
	return fn->code[fn->code[i].target - 1].guard < 0;
}

/* w's split flag set (rsi w) for C; ebp, the code's, stays as the region found it (jit_seg.c's
 * region end sets both) */
static void mark_split(struct xbuf *b)
{
	x86_mov_mi8(b, AT(X_RSI, offsetof(struct warp, split)), WARP_SPLIT);
}

void jit_vs_tests(struct xbuf *b, const struct jit_vs_region *r, size_t fail[4])
{
	/* what lazy hand-overs left, where the merge cannot leave the lazy form standing
	 * (the region writes the repick's counts and the clock, which that form takes as
	 * the turn's first hand-over left them: the head of this file) */
	if (!r->lazy)
		jit_hand_settle(b);
	/* vsplit_fits's tests, seg_vs_begin's order */
	x86_load(b, true, X_RAX, CTX(L));
	x86_alu_mi(b, 7, false, AT(X_RAX, offsetof(struct launch, async.nevents)), 0);
	fail[0] = x86_jcc(b, 0x5);
	x86_load(b, true, X_RSI, CTX(w));
	x86_load(b, true, X_RDI, AT(X_RSI, offsetof(struct warp, groups)));
	x86_alu_rm(b, X86_CMP, true, X_RDI, AT(X_RSI, offsetof(struct warp, last_pick)));
	if (r->lazy) {
		/* the last pick left to the settle where the lazy form stands: the turn's one
		 * group, w's groups (without the detector the lazy hand-over does not write the
		 * next warp's, and the ending warp's it makes NULL: jit_hand.c's count_lazy), so
		 * the test passes there as it passes on the settled state - a test of the
		 * memory alone failed every region entered in the lazy form, which then left to
		 * C (seg_run) at each entry, the region's gain lost to a context's zeroing */
		size_t same = x86_jcc(b, 0x4);
		x86_alu_mi(b, 7, true, SW(lz_base), -1);
		fail[1] = x86_jcc(b, 0x4);
		x86_patch(b, same, b->len);
	} else {
		fail[1] = x86_jcc(b, 0x5);
	}
	x86_alu_mi(b, 7, true, AT(X_RDI, offsetof(struct group, next)), 0);
	fail[2] = x86_jcc(b, 0x5);
	/* (streak + picks >= FAIR_PICKS: picks at most JIT_VSPLIT_MAX, an imm8 below) */
	_Static_assert(FAIR_PICKS - JIT_VSPLIT_MAX > 0 && FAIR_PICKS <= 127, "the streak's imm8");
	x86_alu_mi(b, 7, false, AT(X_RSI, offsetof(struct warp, streak)),
		   (int8_t)(FAIR_PICKS - r->picks));
	fail[3] = x86_jcc(b, 0x3);
}

void jit_vs_guard(struct xbuf *b, const struct jit_vs_region *r)
{
	const struct dinsn *di = &r->fn->code[r->i];
	guard_lanes(b, (uint32_t)di->guard, di->guard_neg);
}

void jit_vs_split(struct xbuf *b, const struct jit_vs_region *r)
{
	/* vsplit_begin (gmask the whole warp), n the instructions before the branch */
	x86_store(b, false, CTX(lmask), X_RDX);
	x86_mov32(b, X_R8, X_RDX);
	x86_alu_ri(b, 6, false, X_R8, -1);
	x86_store(b, false, AT(X_RDI, offsetof(struct group, mask)), X_R8);
	x86_store(b, false, CTX(vmask), X_R8);
	if (r->split)
		mark_split(b);
	x86_alu_mi(b, 0, false, AT(X_RSI, offsetof(struct warp, streak)), 1);
	count(b, 1);
	x86_load(b, true, X_RCX, CTX(rp)); /* (repicked's clock: left to the next clock_to) */
	x86_store(b, false, RP(vlanes), X_RDX);
	x86_mov_mi(b, RP(vpc), r->fn->code[r->i].target);
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

/* Jumps taken where the lazy hand-overs' writes do not stand (seg_sweep.h's marks: the
 * context a calm call's and its mark set), in none[0..1]: there c.regs is the turn's too
 * (the settle that cleared the mark, or the hand-over's begin, stored it), so
 * jit_hand_settle would write nothing. The mark is the call's: lz_base without the
 * detector, lz_race with it (jit_hand.c's mark), each set only in a call of its own calm,
 * so the other is SEG_LAZY_NONE and one of them set tells the lazy form of either - a test
 * of lz_base alone took the race lazy form for settled, and the merge then wrote the
 * clock and the repick as join does over the writes that form leaves (--stats and %clock
 * wrong with the detector: tests/regress/seg-region*.ptx) */
static void lazy_test(struct xbuf *b, size_t none[2])
{
	x86_alu_mi(b, 7, false, CTX(calm), SEG_NOT_CALM);
	none[0] = x86_jcc(b, 0x4);
	x86_alu_mi(b, 7, true, SW(lz_base), -1);
	size_t stands = x86_jcc(b, 0x5);
	x86_alu_mi(b, 7, true, SW(lz_race), -1);
	none[1] = x86_jcc(b, 0x4);
	x86_patch(b, stands, b->len);
}

/* The merge where the lazy hand-overs' writes stand (a calm call's context, lz_base set):
 * the group's lanes, the streak and the last pick as join() writes them; the repick back
 * to the 0 that form holds (its counts and vlanes; n_clocked never left it), its counts'
 * share in L->thread_steps at once (the stretch's instructions each ran without the taken
 * lanes: fix's rest at the turn's end); and the pick marked as complete_lazy marks its
 * own (jit_hand.c): t.steps the turn's, t.left the budget past the stretch (so the
 * settle moves the clock to here and finds n_clocked as clock_to leaves it), t.last and
 * t.lmask what seg_account makes of the stretch's last instruction (unguarded:
 * jit_vs_lazy) where the code leaves with nothing run past it. `plus`: count's (1 where
 * the budget is not yet counted for the last instruction). */
static void join_lazy(struct xbuf *b, const struct jit_vs_region *r, int32_t plus)
{
	const struct dfunc *fn = r->fn;
	uint32_t i = r->i, t = fn->code[i].target;
	x86_load(b, true, X_RCX, CTX(rp));
	x86_load(b, true, X_RSI, CTX(w));
	x86_load(b, true, X_RDI, AT(X_RSI, offsetof(struct warp, groups)));
	x86_load(b, false, X_R8, RP(vlanes));
	x86_alu_mr(b, X86_OR, false, AT(X_RDI, offsetof(struct group, mask)), X_R8);
	x86_mov_mi(b, AT(X_RSI, offsetof(struct warp, streak)), 0);
	x86_store(b, true, AT(X_RSI, offsetof(struct warp, last_pick)), X_RDI);
	x86_mov_mi(b, RP(vlanes), 0);
	x86_mov_mi(b, RP(dlanes), 0);
	x86_mov_mi64(b, RP(fix), 0);
	x86_popcnt(b, X_R8, X_R8);
	x86_imul_rri(b, true, X_R8, X_R8, (int32_t)(t - i - 1));
	x86_load(b, true, X_R9, CTX(L));
	x86_alu_mr(b, X86_SUB, true, AT(X_R9, offsetof(struct launch, thread_steps)), X_R8);
	x86_load(b, true, X_RAX, SW(c.end));
	x86_alu_ri(b, 5, true, X_RAX, SWEEP_QUANTUM);
	x86_store(b, true, SW(t.steps), X_RAX);
	x86_mov32(b, X_RAX, R_LEFT);
	if (plus)
		x86_alu_ri(b, 5, false, X_RAX, plus);
	x86_store(b, false, SW(t.left), X_RAX);
	x86_mov_ri64(b, X_RAX, (uint64_t)(uintptr_t)&fn->code[t - 1]);
	x86_store(b, true, SW(t.last), X_RAX);
	x86_load(b, false, X_RAX, CTX(vmask));
	x86_store(b, false, SW(t.lmask), X_RAX);
}

/* The merge: join_lazy where the lazy form stands (and jit_vs_lazy allows it), else
 * vsplit_join's (join) */
static void merge(struct xbuf *b, const struct jit_vs_region *r, int32_t plus)
{
	size_t full[2] = {SIZE_MAX, SIZE_MAX}, done = SIZE_MAX;
	if (r->lazy) {
		lazy_test(b, full);
		join_lazy(b, r, plus);
		done = x86_jmp(b);
	}
	for (int k = 0; k < 2; k++)
		if (full[k] != SIZE_MAX)
			x86_patch(b, full[k], b->len);
	count(b, plus);
	join(b);
	if (done != SIZE_MAX)
		x86_patch(b, done, b->len);
}

void jit_vs_picked(struct xbuf *b, const struct jit_vs_region *r, bool merged)
{
	if (merged) {
		merge(b, r, 1);
		return;
	}
	/* seg_vs_past's pick again: the streak (repicked's clock left to the next clock_to) */
	x86_load(b, true, X_RSI, CTX(w));
	x86_alu_mi(b, 0, false, AT(X_RSI, offsetof(struct warp, streak)), 1);
}

void jit_vs_clock(struct xbuf *b, const struct jit_vs_region *r, uint32_t back)
{
	if (r->lazy) { /* (begin left it: C, and clock_to, read what it writes) */
		size_t settled[2];
		lazy_test(b, settled);
		jit_hand_settle(b);
		for (int k = 0; k < 2; k++)
			x86_patch(b, settled[k], b->len);
	}
	if (!r->split) { /* (C's state as at a split marked at the beginning) */
		x86_load(b, true, X_RSI, CTX(w));
		mark_split(b);
	}
	count(b, 1 - (int32_t)back);
	clock_to(b);
}

void jit_vs_join(struct xbuf *b, const struct jit_vs_region *r)
{
	merge(b, r, 0);
}
