/*
 * jit_seg.c - a function's barrier-to-barrier segments as one piece of native code (jit_seg.h's
 * jit_seg_fn), for a warp whose one group is all 32 lanes: interp.c's seg_run, instruction
 * by instruction, without its loop. In a function with a bar.sync, every instruction but
 * those inside a block gets a label, and seg_run enters where it stands:
 *
 *   an ALU block (jit.c's, not a loop's body): called whole when the budget holds it all;
 *   a branch: taken or not when its guard is the same in all 32 lanes, else its region
 *   (below) where it has one, or an exit; right after a block whose last setp wrote its
 *   guard, the block's code sums the guard up as it stores it (jit.c's whole_bra and
 *   uni_bra: all lanes, none, or lane 0 where uniform), so the branch reads no lane back,
 *   and where the budget holds both the block's code goes to the branch's end at once
 *   (gen_block_summed);
 *   a kernel's prologue forms (jit_pro.h: ld.param of a parameter, moves of special
 *   registers, cvta of one address), each after the handlers' test, where the code enters
 *   at a kernel's first instruction too (a fresh warp's first turn: interp.c's seg_entry);
 *   a move of a register, an immediate or a variable's address that is no frame's, and an
 *   ld/st.shared of smem.h's forms (a whole warp's row - through a register jit_rows finds holding 4 * %tid.x plus a uniform value,
 *   tested from lanes 0 and 31 alone: row_known -, or one place at a variable's address
 *   for every lane, inline where smem_rows allows it, else through
 *   smem_ld / smem_st, the calls a launch with the detector makes too: with it, L->steps,
 *   L->ci and L->cmask written first, and a report that stops the launch ends the code past
 *   the access, as seg_run's C does), unguarded, each after the handlers' test (left >
 *   hmin: no asynchronous event due, no stop);
 *
 *   a bar.sync of a constant barrier, unguarded: the context's hop (the CTA sweep), where
 *   seg_run gave one, which makes the arrival and may go on with the next warp's turn (in
 *   a calm call its common case made first by the code itself: jit_hand.c);
 *
 * and anything else (other handlers, guarded handlers, lone ALU instructions) is an exit:
 * the code returns that instruction's pc having done nothing of it, as seg_run breaks
 * before it, for seg_run (and run_direct after it) to go on from there. Every exit of a
 * supported kind at a test that fails is the same (nothing of it done).
 *
 * Registers: rbx the context, r12 the frame's registers, r13d the budget left, r14d hmin,
 * r15d the last instruction run, ebp the context's warp's `split` (launch.h); every ymm
 * register scratch (nothing is kept in them between instructions; the blocks it calls use
 * them as their own).
 *
 * Uniform registers (jit_uni.h): in a warp that never split but through regions merged
 * (ebp's WARP_SPLIT clear: to_split, jit_uniform's `merged` facts), a block all of whose
 * registers read are uniform runs its `uni` code (lanes 0-3 computed, stored to all eight
 * chunks), and a branch on a uniform predicate tests lane 0's bit 0 alone. There too, a
 * block of one 32-bit setp that compares %tid.x (jit_uni.h's jit_lanes) with a uniform
 * register or an immediate, for the branch right after it, is decided from lanes 0 and 31
 * where %tid.x counts up across the warp (gen_lane_setp): the relation is monotone in the
 * lane, and the block's eight chunks (whose summary the branch waited on) are not run.
 *
 * Regions (if-conversion, issue #31): a forward branch whose stretch to its target is at
 * most JIT_VSPLIT_MAX long and only blocks and unguarded ld/st.shared - where run_direct
 * runs a divergent branch as a split not made (interp.c's vsplit: the lanes that fall
 * through run the stretch, then the taken ones merge with them at the target) - has a
 * second, masked copy of the stretch, entered where its guard differs between lanes: the
 * budget must hold the whole stretch and every handler's test in it pass (the code cannot
 * leave halfway for any reason of its own), the code makes the split's beginning itself
 * as run_direct makes it (jit_vs.c; its runtime tests: the fairness streak, the last pick,
 * no asynchronous event), then the blocks run through their masked entry with the lanes
 * that fall through, each access through vs_smem (run_direct's handler path with that
 * mask, the picks and counts after it; a row of 4-byte places is moved inline for those
 * lanes where smem_rows allows it, the picks and counts after it made inline too), the
 * merge after a block inline, and the code goes on at the target with the whole warp -
 * merged: w's `split` WARP_SPLIT wherever C may see the warp inside (as group_split and
 * run_direct set it), and at the target as the region found it where no register the
 * region writes is one of the uniform registers' facts live past it (region_whole: the
 * uniform code and the rows go on after it), else WARP_MERGED for 0 (region_end). An
 * access smem.c declines leaves the code there with the split not made standing, for
 * run_direct to go on with.
 */
#include "jit_seg.h"

#include <stdlib.h>
#include <string.h>

#include "barrier.h"
#include "exec.h"
#include "jit_hand.h"
#include "jit_live.h"
#include "jit_map.h"
#include "jit_pro.h"
#include "jit_regs.h"
#include "jit_suni.h"
#include "jit_uni.h"
#include "jit_vs.h"
#include "race.h"
#include "regdef.h"
#include "smem.h"
#include "support/grow.h"

enum { Y1 = 13, Y2 = 14 };
_Static_assert(!(JIT_ROW_ASK & (SMEM_ROW_LD | SMEM_ROW_ST | SMEM_FRESH_LD | SMEM_FRESH_ST)),
	       "ctx.row's ask is no answer");
enum kind { K_NONE, K_EXIT, K_BLOCK, K_BRA, K_MOV, K_SMEM, K_BAR, K_PRO };

/* whether an instruction of kind k is an entry of the code (jit_seg_gen's `off`): not a
 * bar.sync (entered only from the code before it, gen_bar) nor an exit */
static bool entry_kind(uint8_t k)
{
	return k != K_NONE && k != K_EXIT && k != K_BAR;
}

struct patch {
	size_t at;
	uint32_t to;             /* an instruction's label, its exit stub, or a constant */
};

struct seg {
	struct xbuf *b;
	const struct dfunc *fn;
	const struct jseg_block *blk;
	uint8_t *kind;
	uint8_t *uni;              /* the slots jit_uniform finds uniform (`merged`'s set) */
	uint8_t *uni0;             /* those of a warp that never split (jit_rows' base) */
	uint8_t *lane;             /* the slots jit_lanes finds holding %tid.x */
	uint8_t *row;              /* the slots jit_rows finds holding 4 * %tid.x plus a uniform */
	const struct jit_live *live; /* the function's live slots (jit_suni_gen's stores) */
	size_t *lab;
	struct patch *jl, *jx, *jk; /* jumps to labels, to exit stubs, rip to constants */
	struct patch *jv;           /* jumps to a branch's region (gen_region) */
	struct patch *ja;           /* to it from a lane setp, r9d its lanes (gen_region_setp) */
	uint32_t njl, njx, njk, njv, nja;
	size_t cjl, cjx, cjk, cjv, cja;
	uint64_t (*pool)[4];
	uint32_t npool;
	size_t cpool;
	bool oom;
};

static void note(struct seg *S, struct patch **p, uint32_t *n, size_t *cap, size_t at,
		 uint32_t to)
{
	if (!grow_array((void **)p, cap, *n, sizeof **p, 32)) {
		S->oom = true;
		return;
	}
	(*p)[(*n)++] = (struct patch){at, to};
}

#define CTX(field) ((struct xmem){R_CTX, -1, 1, (int32_t)offsetof(struct jit_seg_ctx, field)})
#define LF(field) ((struct xmem){X_RAX, -1, 1, (int32_t)offsetof(struct launch, field)}) /* rax L */

/* lane chunk c (four lanes) of slot s in the frame */
static struct xmem lanes(uint32_t s, int c)
{
	return (struct xmem){R_REGS, -1, 1, (int32_t)(s * LANES * sizeof(uint64_t) + 32u * (unsigned)c)};
}

/* d = op(v, the four lanes q), q one of the pool's 32-byte slots (rip-relative, patched at
 * the end) */
static void konst_q(struct seg *S, enum x86_vop op, int d, int v, const uint64_t q[4])
{
	uint32_t i = 0;
	while (i < S->npool && memcmp(S->pool[i], q, sizeof S->pool[i]))
		i++;
	if (i == S->npool) {
		if (!grow_array((void **)&S->pool, &S->cpool, S->npool, sizeof *S->pool, 32)) {
			S->oom = true;
			return;
		}
		memcpy(S->pool[S->npool++], q, sizeof S->pool[i]);
	}
	x86_vrm(S->b, op, d, v, (struct xmem){-1, -1, 1, 0});
	note(S, &S->jk, &S->njk, &S->cjk, S->b->len - 4, i);
}

/* the constant k in all four lanes */
static void konst(struct seg *S, enum x86_vop op, int d, int v, uint64_t k)
{
	konst_q(S, op, d, v, (const uint64_t[4]){k, k, k, k});
}

/* {k, k + 4, k + 8, k + 12}: four lanes' 4-byte places from k on (gen_row) */
static void konst4(struct seg *S, enum x86_vop op, int d, int v, uint64_t k)
{
	konst_q(S, op, d, v, (const uint64_t[4]){k, k + 4, k + 8, k + 12});
}

/* a jump to the stub that leaves at instruction i, nothing of it done */
static void to_exit(struct seg *S, size_t at, uint32_t i)
{
	note(S, &S->jx, &S->njx, &S->cjx, at, i);
}

/* on to instruction i: a jump unless its label comes next */
static void go_on(struct seg *S, uint32_t i, uint32_t next)
{
	if (i != next)
		note(S, &S->jl, &S->njl, &S->cjl, x86_jmp(S->b), i);
}

/* instruction i ran, `n` of the budget (one, or a block's length) */
static void ran(struct seg *S, uint32_t i, uint32_t n)
{
	x86_alu_ri(S->b, 5, false, R_LEFT, (int32_t)n);
	x86_mov_ri(S->b, R_LAST, i);
	if (S->fn->code[i].flags & DF_WRITES)
		x86_alu_mi(S->b, 0, false, CTX(writes), 1);
}

/* The jump taken where the warp's registers are not known uniform: ebp's WARP_SPLIT (it
 * split other than through regions merged, launch.h); else jit_uniform's merged facts hold
 * (S->uni, S->lane), jit_rows' only where ebp is 0 (row_known) */
static size_t to_split(struct seg *S)
{
	x86_test_ri(S->b, R_SPLIT, WARP_SPLIT);
	return x86_jcc(S->b, 0x5);
}

/* the handlers' test (seg_run's `now` against next_due and L->stop): left > hmin */
static void handler_test(struct seg *S, uint32_t i)
{
	x86_alu_rr(S->b, X86_CMP, false, R_LEFT, R_HMIN);
	to_exit(S, x86_jcc(S->b, 0x6), i);
}

/* A move's source that is one value for every lane, known here: an immediate, or a
 * variable's address that is no frame's (exec_mov_warp's op_addr without a register) */
static bool mov_konst(const struct dop *s)
{
	return s->kind == DOP_IMM || ((s->kind == DOP_ADDR || s->kind == DOP_SYMADDR) &&
				      !s->has_reg && s->space != MS_LOCAL);
}

/* What instruction i is to the segment code. */
static enum kind classify(const struct seg *S, uint32_t i)
{
	const struct dfunc *fn = S->fn;
	const struct dinsn *di = &fn->code[i];
	const struct jseg_block *bk = &S->blk[i];
	if (bk->n && !bk->loop && i + bk->n < fn->ncode)
		return K_BLOCK;
	if (!(di->flags & DF_EXEC_DIRECT))
		return K_EXIT;
	if (di->op == OP_BRA && di->target < fn->ncode)
		return di->guard < 0 || i + 1 < fn->ncode ? K_BRA : K_EXIT;
	if (di->guard >= 0 || i + 1 >= fn->ncode)
		return K_EXIT;
	const struct dop *s0 = &di->s[0];
	if (di->exec == exec_mov && !s0->neg && (s0->kind == DOP_REG || mov_konst(s0)) &&
	    di->d.kind == DOP_REG && ir_type_size((enum ir_mod)di->type) <= 8)
		return K_MOV;
	if ((di->exec == exec_ld || di->exec == exec_st) && di->smem)
		return K_SMEM;
	if (jit_pro_fits(fn, di))
		return K_PRO;
	if (di->exec == exec_bar && bar_sync_const(di))
		return K_BAR;
	return K_EXIT;
}

/* Whether block i may run once for lanes 0-3 where the warp never split: every register
 * it reads is uniform (jit_uni.h: its guards, a guarded destination's old value, its
 * sources), so each it writes is then too */
static bool block_uniform(const struct seg *S, uint32_t i)
{
	for (uint32_t j = i; j < i + S->blk[i].n; j++) {
		const struct dinsn *di = &S->fn->code[j];
		if (di->guard >= 0 && (!S->uni[di->guard] || di->d.kind != DOP_REG ||
				       !S->uni[di->d.slot]))
			return false;
		for (int k = 0; k < 5; k++)
			if (di->s[k].kind == DOP_REG && !S->uni[di->s[k].slot])
				return false;
	}
	return true;
}

/*
 * A region: branch i's instructions up to its target, where they are all blocks and
 * unguarded ld/st.shared, no longer than run_direct's split not made runs (vsplit_fits;
 * an .aligned branch run_direct leaves to the dispatch loop). Returns the picks of the
 * group that run_direct makes in it (the branch's, and one after each access but one right
 * before the target, which merges the lanes instead): 0, no region.
 */
static uint32_t region_picks(const struct seg *S, uint32_t i)
{
	const struct dinsn *di = &S->fn->code[i];
	uint32_t t = di->target, picks = 1, j = i + 1;
	if (di->guard < 0 || (di->flags & DF_EXEC_ALIGNED) || t <= i + 1 ||
	    t - i > JIT_VSPLIT_MAX)
		return 0;
	while (j < t) {
		if (S->kind[j] == K_BLOCK) {
			j += S->blk[j].n;
			continue;
		}
		if (S->kind[j] != K_SMEM || (S->fn->code[j].flags & DF_EXEC_ALIGNED))
			return 0;
		picks += j + 1 < t;
		j++;
	}
	return j == t ? picks : 0;
}

/* the context's call at field `fn` (rdi the context; the other arguments set) */
static void call_ctx(struct seg *S, size_t fn)
{
	x86_vzeroupper(S->b);
	x86_alu_rr(S->b, X86_MOV, true, X_RDI, R_CTX);
	x86_load(S->b, true, X_RAX, (struct xmem){R_CTX, -1, 1, (int32_t)fn});
	x86_call_r(S->b, X_RAX);
}

/* instruction j ran in a region, n of the budget */
static void ran_region(struct seg *S, uint32_t j, uint32_t n)
{
	x86_alu_ri(S->b, 5, false, R_LEFT, (int32_t)n);
	x86_mov_ri(S->b, R_LAST, j | JIT_SEG_LAST_REGION);
}

/* Branch i ran, n of the budget: one, or two where the one-instruction block before it ran
 * with it (gen_block_summed: its writes counted too, as ran counts a block's) */
static void ran_bra(struct seg *S, uint32_t i, uint32_t n)
{
	if (n > 1 && (S->fn->code[i - 1].flags & DF_WRITES))
		x86_alu_mi(S->b, 0, false, CTX(writes), 1);
	ran(S, i, n);
}

/* Branch i's end where its guard holds in no lane: on past it (or at its target, negated);
 * n: ran_bra's */
static void bra_none(struct seg *S, uint32_t i, uint32_t n)
{
	const struct dinsn *di = &S->fn->code[i];
	ran_bra(S, i, n);
	x86_mov_mi(S->b, CTX(lmask), di->guard_neg ? FULL_MASK : 0);
	note(S, &S->jl, &S->njl, &S->cjl, x86_jmp(S->b), di->guard_neg ? di->target : i + 1);
}

/* Branch i's end where its guard holds in all lanes (next: the label the code falls into,
 * UINT32_MAX for none; n: ran_bra's) */
static void bra_all(struct seg *S, uint32_t i, uint32_t next, uint32_t n)
{
	const struct dinsn *di = &S->fn->code[i];
	ran_bra(S, i, n);
	x86_mov_mi(S->b, CTX(lmask), di->guard_neg ? 0 : FULL_MASK);
	go_on(S, di->guard_neg ? i + 1 : di->target, next);
}

/* A branch: its guard's bit 0 in all 32 lanes ANDed (eax, its four sign bits) and ORed (ecx):
 * all ones or all zeros go one way, anything else is divergent (run_direct's): a region where
 * it has one, else the exit. */
static void gen_bra(struct seg *S, uint32_t i, uint32_t next)
{
	struct xbuf *b = S->b;
	const struct dinsn *di = &S->fn->code[i];
	x86_alu_rr(b, X86_TEST, false, R_LEFT, R_LEFT);
	to_exit(S, x86_jcc(b, 0x4), i);
	if (di->guard < 0) {
		ran(S, i, 1);
		x86_mov_mi(b, CTX(lmask), FULL_MASK);
		go_on(S, di->target, next);
		return;
	}
	uint32_t g = (uint32_t)di->guard;
	size_t u_all = 0, u_none = 0;
	bool uni = S->uni[g];
	if (uni) { /* the warp never split (to_split): lane 0's bit 0 is every lane's */
		size_t split = to_split(S);
		x86_load(b, false, X_RAX, lanes(g, 0));
		x86_alu_ri(b, 4, false, X_RAX, 1);
		u_all = x86_jcc(b, 0x5);
		u_none = x86_jmp(b);
		x86_patch(b, split, b->len);
	}
	x86_vrm(b, XV_VMOVDQU_LD, Y1, 0, lanes(g, 0));
	x86_vrr(b, XV_VPOR, Y2, Y1, Y1);
	for (int c = 1; c < LANES / 4; c++) {
		x86_vrm(b, XV_VPAND, Y1, Y1, lanes(g, c));
		x86_vrm(b, XV_VPOR, Y2, Y2, lanes(g, c));
	}
	x86_vshi(b, XV_VPSLLQ_I, Y1, Y1, 63);
	x86_vrr(b, XV_VMOVMSKPD, X_RAX, 0, Y1);
	x86_vshi(b, XV_VPSLLQ_I, Y2, Y2, 63);
	x86_vrr(b, XV_VMOVMSKPD, X_RCX, 0, Y2);
	x86_alu_ri(b, 7, false, X_RAX, 15);
	size_t all = x86_jcc(b, 0x4);
	x86_alu_rr(b, X86_TEST, false, X_RCX, X_RCX);
	if (region_picks(S, i))
		note(S, &S->jv, &S->njv, &S->cjv, x86_jcc(b, 0x5), i);
	else
		to_exit(S, x86_jcc(b, 0x5), i);
	if (uni)
		x86_patch(b, u_none, b->len);
	bra_none(S, i, 1);
	x86_patch(b, all, b->len);
	if (uni)
		x86_patch(b, u_all, b->len);
	bra_all(S, i, next, 1);
}

/* Branch i's ends from whole_bra's summary (eax 15: the guard holds in all lanes, ecx 15: in
 * none), `count` instructions run on either: returns the jump, to patch, where the lanes
 * part */
static size_t summary_ends(struct seg *S, uint32_t i, uint32_t next, uint32_t count)
{
	struct xbuf *b = S->b;
	x86_alu_ri(b, 7, false, X_RAX, 15);
	size_t all = x86_jcc(b, 0x4);
	x86_alu_ri(b, 7, false, X_RCX, 15);
	size_t part = x86_jcc(b, 0x5);
	bra_none(S, i, count);
	x86_patch(b, all, b->len);
	bra_all(S, i, next, count);
	return part;
}

/*
 * Branch i right after a block whose code summed its guard up (jseg_block's whole_bra),
 * where gen_block_summed found the budget short of both: gen_bra's test of the budget, then
 * its ends taken from that summary (eax, ecx) instead of the guard's lanes in the frame;
 * where the lanes part, on to the branch's own code (its region, or the exit), which reads
 * them there.
 */
static void gen_bra_summed(struct seg *S, uint32_t i, uint32_t next)
{
	struct xbuf *b = S->b;
	x86_alu_rr(b, X86_TEST, false, R_LEFT, R_LEFT);
	to_exit(S, x86_jcc(b, 0x4), i);
	note(S, &S->jl, &S->njl, &S->cjl, summary_ends(S, i, next, 1), i);
}

/* The x86 condition (after cmp a, b) of setp's relation a REL b on 32 bits, -1 for none
 * that a lane_setp may take (eq and ne hold in no order of the lanes). */
static int lane_cc(const struct alu_insn *ai)
{
	return ai->cmp == MOD_EQ || ai->cmp == MOD_NE ? -1 : jit_setp_cc(ai);
}

/* Operand o of a lane_setp in r (32 bits): a register's lane `lane`, or the immediate */
static void lane_operand(struct seg *S, const struct dop *o, uint32_t lane, int r)
{
	if (o->kind == DOP_IMM)
		x86_mov_ri(S->b, r, (uint32_t)o->imm[0]);
	else
		x86_load(S->b, false, r,
			 (struct xmem){R_REGS, -1, 1,
				       (int32_t)((o->slot * LANES + lane) * sizeof(uint64_t))});
}

/* cmp a, b of a lane_setp for one lane: the %tid.x register's lane in t (operand x), the
 * uniform operand the immediate imm (b only) or in register u */
static void lane_cmp(struct seg *S, int x, int t, const struct dop *imm, int u)
{
	if (imm)
		x86_alu_ri(S->b, 7, false, t, (int32_t)(uint32_t)imm->imm[0]);
	else
		x86_alu_rr(S->b, X86_CMP, false, x == 0 ? t : u, x == 0 ? u : t);
}

/* Predicate slot g set to `v` (1 or 0) in every lane */
static void store_pred_all(struct seg *S, uint32_t g, bool v)
{
	struct xbuf *b = S->b;
	if (v) {
		x86_vrr(b, XV_VPCMPEQQ, Y1, Y1, Y1);
		x86_vshi(b, XV_VPSRLQ_I, Y1, Y1, 63);
	} else {
		x86_vrr(b, XV_VPXOR, Y1, Y1, Y1);
	}
	for (int c = 0; c < LANES / 4; c++)
		x86_vrm(b, XV_VMOVDQU_ST, Y1, 0, lanes(g, c));
	x86_vzeroupper(b);
}

/*
 * gen_lane_setp's lanes that part, where a region follows and nothing after the branch reads
 * the predicate (then the setp need not store it): the relation of t = lane 0's %tid.x plus
 * the lane (register t0 its lane 0's; x its operand) with the uniform u (register u, or the
 * immediate imm, which gen_lane_setp compares without a register) holds
 * in a prefix of the lanes or a suffix, which of the two fixed by its direction: with d =
 * u - t0, t < u in the d lanes below d, t <= u in d + 1; t > u in all but the d + 1 below,
 * t >= u in all but d (u REL t as t's mirror relation REL' u). Holding in lane 0 and not in
 * lane 31, or the other way (slow[2], slow[3]: the one the direction allows), that count
 * lies in 1..31 (the lanes' %tid.x run in order, no wrap, u between two of them). r9d the
 * lanes the branch takes - -1 << count, the prefix's complement, negated where the holding
 * lanes are the prefix or (not both) the branch's guard is negated - then on at the region's
 * entry from here (gen_region_setp). The other jump is left as it was (SIZE_MAX: taken).
 */
static void lane_setp_parted(struct seg *S, uint32_t i, int x, int t0, const struct dop *imm,
			     int u, size_t slow[4])
{
	struct xbuf *b = S->b;
	enum ir_mod c = (enum ir_mod)S->fn->code[i].alu.cmp;
	bool less = c == MOD_LT || c == MOD_LO || c == MOD_LE || c == MOD_LS;
	bool strict = c == MOD_LT || c == MOD_LO || c == MOD_GT || c == MOD_HI;
	bool prefix = x == 0 ? less : !less; /* (the holding lanes: REL' is less) */
	int k = prefix ? 2 : 3;
	x86_patch(b, slow[k], b->len);
	slow[k] = SIZE_MAX;
	if (imm)
		x86_mov_ri(b, X_RCX, (uint32_t)imm->imm[0]);
	else
		x86_mov32(b, X_RCX, u);
	x86_alu_rr(b, X86_SUB, false, X_RCX, t0);
	if (prefix != strict)
		x86_alu_ri(b, 0, false, X_RCX, 1);
	x86_mov_ri(b, X_R9, UINT32_MAX);
	x86_shift_cl(b, 4, false, X_R9);
	if (prefix != S->fn->code[i + 1].guard_neg)
		x86_alu_ri(b, 6, false, X_R9, -1);
	note(S, &S->ja, &S->nja, &S->cja, x86_jmp(b), i + 1);
}

/*
 * Block i, one 32-bit setp whose guard the branch right after it reads (gen_block_summed's
 * case, the budget holding both), comparing a register jit_lanes finds holding %tid.x with
 * a uniform register or an immediate: in a warp that never split (to_split: but through
 * regions merged) and whose %tid.x counts up by one from lane 0 to lane 31 (lane 31's is
 * lane 0's plus 31: no row of the block ends inside the warp), the relation is monotone in
 * the lane, so it holds in all lanes where it holds in lanes 0 and 31, in none where it
 * holds in neither. Then the code
 * stores the predicate (0 or 1 in each lane, as the block's code stores it) and takes the
 * branch's end at once, both counted (the summary whole_bra would give the branch, and the
 * branch's budget test, which the budget held, are not made); anything else (split, a row's
 * end, lanes that part) goes on past this code, nothing done, to the block's code. Where
 * nothing after the branch reads the predicate (jseg_block's bra_bare), it is not stored and
 * no vector register is touched: the branch's ends, taken at once, read none of its lanes.
 * Returns false where the block is no such setp (nothing emitted).
 */
static bool gen_lane_setp(struct seg *S, uint32_t i)
{
	struct xbuf *b = S->b;
	const struct dinsn *di = &S->fn->code[i];
	const struct dinsn *br = &S->fn->code[i + 1];
	const struct alu_insn *ai = &di->alu;
	int cc = lane_cc(ai);
	bool w32 = ai->type == MOD_U32 || ai->type == MOD_S32 || ai->type == MOD_B32;
	if (S->blk[i].n != 1 || ai->op != OP_SETP || cc < 0 || !w32 || ai->flags ||
	    di->nsrc != 2 || di->guard >= 0 || di->d2.kind != DOP_NONE ||
	    di->d.kind != DOP_REG || br->guard != (int32_t)di->d.slot)
		return false;
	const struct dop *s = di->s;
	int x = -1; /* which operand holds %tid.x; the other must be uniform */
	for (int k = 0; k < 2 && x < 0; k++)
		if (s[k].kind == DOP_REG && S->lane[s[k].slot] &&
		    (s[1 - k].kind == DOP_IMM ||
		     (s[1 - k].kind == DOP_REG && S->uni[s[1 - k].slot])))
			x = k;
	if (x < 0)
		return false;
	size_t slow[4];
	slow[0] = to_split(S);
	/* r8d, r9d: the %tid.x register's lanes 0 and 31 (lane 31's lane 0's plus 31, mod 2^32:
	 * eax its low word plus 31); r10d the uniform operand's (none for an immediate b) */
	int t0 = X_R8, t31 = X_R9, u = X_R10;
	const struct dop *uo = &s[1 - x];
	lane_operand(S, &s[x], 0, t0);
	lane_operand(S, &s[x], 31, t31);
	x86_lea(b, X_RAX, (struct xmem){t0, -1, 1, 31});
	x86_alu_rr(b, X86_CMP, false, X_RAX, t31);
	slow[1] = x86_jcc(b, 0x5);
	bool imm_b = x == 0 && uo->kind == DOP_IMM;
	if (!imm_b)
		lane_operand(S, uo, 0, u);
	lane_cmp(S, x, t0, imm_b ? uo : NULL, u);
	size_t none0 = x86_jcc(b, cc ^ 1);
	lane_cmp(S, x, t31, imm_b ? uo : NULL, u);
	slow[2] = x86_jcc(b, cc ^ 1);
	bool st = !S->blk[i].bra_bare;
	if (st)
		store_pred_all(S, di->d.slot, true);
	bra_all(S, i + 1, UINT32_MAX, 2);
	x86_patch(b, none0, b->len);
	lane_cmp(S, x, t31, imm_b ? uo : NULL, u);
	slow[3] = x86_jcc(b, cc);
	if (st)
		store_pred_all(S, di->d.slot, false);
	bra_none(S, i + 1, 2);
	if (!st && region_picks(S, i + 1))
		lane_setp_parted(S, i, x, t0, imm_b ? uo : NULL, u, slow);
	for (int k = 0; k < 4; k++)
		if (slow[k] != SIZE_MAX)
			x86_patch(b, slow[k], b->len);
	return true;
}

/* Whether uniform block i (block_uniform) and the branch after it, on a uniform guard that
 * nothing after it reads (bra_bare), have jit_suni_gen's form: the guard the block's last op,
 * a setp, writes */
static bool suni_fits(const struct seg *S, uint32_t i)
{
	const struct jseg_block *bk = &S->blk[i];
	const struct dinsn *br = &S->fn->code[i + bk->n], *last = br - 1;
	return S->uni[br->guard] && bk->bra_bare && jit_suni_ok(S->fn, i, bk->n) &&
	       last->d.slot == (uint32_t)br->guard;
}

/*
 * Block i followed by branch j on the guard its code sums up (jseg_block's whole_bra):
 * where the budget holds both (left > n, so the branch's own test of it would pass), the
 * block's code and then the branch's end at once, both counted in one - through gen_lane_setp
 * where it applies, the uniform code where the warp never split and it reads only uniform
 * registers (inline where jit_suni.c's form fits, else uni_bra: lane 0's bit), else
 * whole_bra's summary (or hyb_bra's, the same,
 * where the warp never split and some of its ops read only uniform registers), the lanes
 * that part going on where the branch's own code would send them (its region, or the exit),
 * the block counted (jit_uniform's facts hold: lanes that part read no uniform guard); else,
 * the budget short, the block alone and the branch as its code takes it (gen_bra_summed).
 * A guard nothing after the branch reads (jseg_block's bra_bare) is left unstored by
 * gen_lane_setp and uni_bra alone, whose ends are taken at once, reading only the summary;
 * every way on to something that reads the guard - the region, the exit, C - passes
 * whole_bra's or hyb_bra's code, which store it (so uniblock's store_summed is not needed).
 */
static void gen_block_summed(struct seg *S, uint32_t i, uint32_t next)
{
	struct xbuf *b = S->b;
	const struct jseg_block *bk = &S->blk[i];
	uint32_t j = i + bk->n;
	x86_alu_ri(b, 7, false, R_LEFT, (int32_t)bk->n + 1);
	size_t short_left = x86_jcc(b, 0x2), summed = SIZE_MAX;
	if (bk->n == 1)
		gen_lane_setp(S, i);
	if (bk->uni != SIZE_MAX && block_uniform(S, i)) {
		size_t split = to_split(S), all;
		if (suni_fits(S, i)) { /* (the uniform code inline, its setp the branch's compare) */
			all = x86_jcc(b, jit_suni_gen(b, S->fn, i, bk->n, S->live, CTX(word), Y1));
			bra_none(S, j, bk->n + 1);
			x86_patch(b, all, b->len);
			bra_all(S, j, UINT32_MAX, bk->n + 1);
		} else if (S->uni[S->fn->code[j].guard]) {
			x86_alu_rr(b, X86_MOV, true, X_RDI, R_REGS);
			x86_patch(b, x86_call(b), bk->uni_bra);
			x86_alu_ri(b, 4, false, X_RAX, 1);
			all = x86_jcc(b, 0x5);
			bra_none(S, j, bk->n + 1);
			x86_patch(b, all, b->len);
			bra_all(S, j, UINT32_MAX, bk->n + 1);
		} else { /* (the guard also written elsewhere: the branch reads its lanes) */
			x86_alu_rr(b, X86_MOV, true, X_RDI, R_REGS);
			x86_patch(b, x86_call(b), bk->uni);
			ran(S, j - 1, bk->n);
			note(S, &S->jl, &S->njl, &S->cjl, x86_jmp(b), j);
		}
		x86_patch(b, split, b->len);
	} else if (bk->hyb_bra != SIZE_MAX) { /* (whole_bra's summary, the guard stored) */
		size_t split = to_split(S);
		x86_alu_rr(b, X86_MOV, true, X_RDI, R_REGS);
		x86_patch(b, x86_call(b), bk->hyb_bra);
		summed = x86_jmp(b);
		x86_patch(b, split, b->len);
	}
	x86_alu_rr(b, X86_MOV, true, X_RDI, R_REGS);
	x86_patch(b, x86_call(b), bk->whole_bra);
	if (summed != SIZE_MAX)
		x86_patch(b, summed, b->len);
	size_t part = summary_ends(S, j, UINT32_MAX, bk->n + 1);
	x86_patch(b, part, b->len);
	ran(S, j - 1, bk->n);
	/* (gen_bra's code would find the budget held and the lanes parted: where it goes) */
	if (region_picks(S, j))
		note(S, &S->jv, &S->njv, &S->cjv, x86_jmp(b), j);
	else
		to_exit(S, x86_jmp(b), j);
	x86_patch(b, short_left, b->len);
	x86_alu_ri(b, 7, false, R_LEFT, (int32_t)bk->n);
	to_exit(S, x86_jcc(b, 0x2), i);
	x86_alu_rr(b, X86_MOV, true, X_RDI, R_REGS);
	x86_patch(b, x86_call(b), bk->whole_bra);
	ran(S, j - 1, bk->n);
	gen_bra_summed(S, j, next);
}

/* A block: called whole when the budget holds it all, through its uniform code where the
 * warp never split and it reads only uniform registers (or its hybrid code, where some of
 * its ops do: jseg_block's hyb); where a branch on the guard its code sums up follows
 * (jseg_block's whole_bra), gen_block_summed. */
static void gen_block(struct seg *S, uint32_t i, uint32_t next)
{
	struct xbuf *b = S->b;
	const struct jseg_block *bk = &S->blk[i];
	uint32_t j = i + bk->n;
	if (bk->whole_bra != SIZE_MAX && S->kind[j] == K_BRA) {
		gen_block_summed(S, i, next);
		return;
	}
	x86_alu_ri(b, 7, false, R_LEFT, (int32_t)bk->n);
	to_exit(S, x86_jcc(b, 0x2), i);
	x86_alu_rr(b, X86_MOV, true, X_RDI, R_REGS);
	if (bk->uni != SIZE_MAX && block_uniform(S, i)) {
		size_t split = to_split(S);
		x86_patch(b, x86_call(b), bk->uni);
		ran(S, j - 1, bk->n);
		note(S, &S->jl, &S->njl, &S->cjl, x86_jmp(b), j);
		x86_patch(b, split, b->len);
	} else if (bk->hyb != SIZE_MAX) {
		/* its uniform part once, where the warp never split */
		size_t split = to_split(S);
		x86_patch(b, x86_call(b), bk->hyb);
		ran(S, j - 1, bk->n);
		note(S, &S->jl, &S->njl, &S->cjl, x86_jmp(b), j);
		x86_patch(b, split, b->len);
	}
	if (bk->whole == SIZE_MAX) {
		x86_mov_ri(b, X_RSI, FULL_MASK);
		x86_mov_ri(b, X_RDX, UINT32_MAX);
		x86_patch(b, x86_call(b), bk->entry);
	} else {
		x86_patch(b, x86_call(b), bk->whole);
	}
	ran(S, j - 1, bk->n);
	go_on(S, j, next);
}

/* exec_mov of a register, an immediate or a variable's address on all lanes: d = a & the
 * type's mask (of a 4- or 8-byte uniform register, lane 0's alone where the warp never
 * split) */
static void gen_mov(struct seg *S, uint32_t i, uint32_t next)
{
	struct xbuf *b = S->b;
	const struct dinsn *di = &S->fn->code[i];
	const struct dop *s = &di->s[0];
	int size = ir_type_size((enum ir_mod)di->type);
	uint64_t sm = di->type == MOD_PRED ? 1 : size == 8 ? ~0ull : (1ull << (size * 8)) - 1;
	handler_test(S, i);
	size_t split = SIZE_MAX;
	if (s->kind == DOP_REG && S->uni[s->slot] && (size == 4 || size == 8)) {
		/* a uniform register where the warp never split: lane 0's value is every lane's,
		 * its 64 bits broadcast (masked as each lane's is), stored once a chunk */
		split = to_split(S);
		x86_vrm(b, XV_VPBROADCASTQ, Y1, 0, lanes(s->slot, 0));
		if (sm != ~0ull)
			konst(S, XV_VPAND, Y1, Y1, sm);
		for (int c = 0; c < LANES / 4; c++)
			x86_vrm(b, XV_VMOVDQU_ST, Y1, 0, lanes(di->d.slot, c));
		ran(S, i, 1);
		note(S, &S->jl, &S->njl, &S->cjl, x86_jmp(b), i + 1);
		x86_patch(b, split, b->len);
	}
	if (s->kind != DOP_REG)
		konst(S, XV_VMOVDQU_LD, Y1, 0,
		      (s->kind == DOP_IMM ? s->imm[0] : (uint64_t)s->off) & sm);
	for (int c = 0; c < LANES / 4; c++) {
		if (s->kind == DOP_REG) {
			x86_vrm(b, XV_VMOVDQU_LD, Y1, 0, lanes(s->slot, c));
			if (sm != ~0ull)
				konst(S, XV_VPAND, Y1, Y1, sm);
		}
		x86_vrm(b, XV_VMOVDQU_ST, Y1, 0, lanes(di->d.slot, c));
	}
	ran(S, i, 1);
	go_on(S, i + 1, next);
}

/* A kernel's prologue instruction (jit_pro.h), after the handlers' test */
static void gen_pro(struct seg *S, uint32_t i, uint32_t next)
{
	static const struct jit_pro_regs r = {R_CTX, R_REGS};
	size_t exits[JIT_PRO_EXITS];
	handler_test(S, i);
	unsigned n = jit_pro_gen(S->b, &r, &S->fn->code[i], exits);
	for (unsigned k = 0; k < n; k++)
		to_exit(S, exits[k], i);
	ran(S, i, 1);
	go_on(S, i + 1, next);
}

/* the detector on (L->race): zf clear, rax L */
static void race_test(struct seg *S)
{
	x86_load(S->b, true, X_RAX, CTX(L));
	x86_alu_mi(S->b, 7, true, LF(race), 0);
}

/* ctx.row asked for at the turn's first row access (gen_row): smem_rows, and the CTA's
 * shared memory. Within one call of the code an answer holds for the next turns of its
 * CTA's warps but one with a bad cvta result (smem_rows's one test of the warp; wg_busy
 * the hop's): nothing the code and its hop run clears a bit of it - the detector is the
 * launch's, mbarriers, asynchronous copies, wgmma, cvta and fence.proxy.async are no
 * instruction the code runs, the initcheck and proxy maps only fill (init_full and
 * proxy_all only rise), and a round's end in the hop only restarts the spin watch
 * (spin_busy). Kept only when whole: a bit may rise later. (Its first case the code makes
 * inline before the call: row_kept.) */
static void ask_rows(struct jit_seg_ctx *c)
{
	const struct warp *w = c->w;
	if (c->row_cta == w->cta && !w->bad_cvta &&
	    (c->row_kept == (SMEM_ROW_LD | SMEM_ROW_ST) ||
	     c->row_kept == (SMEM_FRESH_LD | SMEM_FRESH_ST))) {
		c->row = c->row_kept; /* (row_lim and smem: the CTA's, as asked) */
		return;
	}
	c->row = c->row_kept = smem_rows(c->L, w);
	c->row_cta = w->cta;
	c->row_lim = (int64_t)w->cta->smem_size - 128;
	c->smem = w->cta->smem;
}

/* ask_rows' first case inline: the kept answer where it holds for the turn's warp (its
 * CTA's, whole - the row case's or, with the detector, the fresh check's - no bad cvta
 * result): ctx.row and eax that answer, then the jump returned; else on past it, nothing
 * done (rax, rcx scratch). */
static size_t row_kept(struct xbuf *b)
{
	enum { WHOLE = SMEM_ROW_LD | SMEM_ROW_ST, FRESH = SMEM_FRESH_LD | SMEM_FRESH_ST };
	size_t no[3];
	x86_load(b, true, X_RAX, CTX(w));
	x86_load(b, true, X_RCX, (struct xmem){X_RAX, -1, 1, (int32_t)offsetof(struct warp, cta)});
	x86_alu_rm(b, X86_CMP, true, X_RCX, CTX(row_cta));
	no[0] = x86_jcc(b, 0x5);
	x86_alu_mi(b, 7, false, (struct xmem){X_RAX, -1, 1, (int32_t)offsetof(struct warp, bad_cvta)},
		   0);
	no[1] = x86_jcc(b, 0x5);
	x86_load(b, false, X_RAX, CTX(row_kept));
	x86_alu_ri(b, 7, false, X_RAX, WHOLE);
	size_t whole = x86_jcc(b, 0x4);
	x86_alu_ri(b, 7, false, X_RAX, FRESH);
	no[2] = x86_jcc(b, 0x5);
	x86_patch(b, whole, b->len);
	x86_store(b, false, CTX(row), X_RAX);
	size_t kept = x86_jmp(b);
	for (int k = 0; k < 3; k++)
		x86_patch(b, no[k], b->len);
	return kept;
}

/* ctx.row, asked for where the turn has not yet (ask_rows, its first case inline: with the
 * detector its answer holds SMEM_FRESH_* bits only), tested for `bit`: returns the jump
 * taken where it is not there */
static size_t row_bit(struct seg *S, uint32_t bit)
{
	struct xbuf *b = S->b;
	x86_load(b, false, X_RAX, CTX(row));
	x86_mov32(b, X_RCX, X_RAX);
	x86_alu_ri(b, 4, false, X_RCX, JIT_ROW_ASK);
	size_t known = x86_jcc(b, 0x4);
	size_t kept = row_kept(b);
	x86_vzeroupper(b);
	x86_alu_rr(b, X86_MOV, true, X_RDI, R_CTX);
	x86_mov_ri64(b, X_RAX, (uint64_t)(uintptr_t)ask_rows);
	x86_call_r(b, X_RAX);
	x86_load(b, false, X_RAX, CTX(row));
	x86_patch(b, known, b->len);
	x86_patch(b, kept, b->len);
	x86_alu_ri(b, 4, false, X_RAX, (int32_t)bit);
	return x86_jcc(b, 0x4);
}

/* ymm d: chunk c's lanes (four) of the mask broadcast in ymm 15, each all ones where set */
static void mask_chunk(struct seg *S, int d, int c)
{
	uint64_t k = 1ull << (4 * c);
	const uint64_t q[4] = {k, k << 1, k << 2, k << 3};
	konst_q(S, XV_VPAND, d, 15, q);
	konst_q(S, XV_VPCMPEQQ, d, d, q);
}

/* Whether instruction di is smem.c's row case: a 4-byte access through a register, of a
 * register where it stores */
static bool row_form(const struct dinsn *di)
{
	return (di->smem >> SMEM_LOG_SHIFT) == 2 && di->s[0].has_reg &&
	       (di->exec == exec_ld || di->s[1].kind == DOP_REG);
}

/* ctx.row's bit for the row case's move inline (smem_rows; never with the detector) */
static uint32_t row_move_bit(const struct dinsn *di)
{
	return di->exec == exec_ld ? SMEM_ROW_LD : SMEM_ROW_ST;
}

/* row_test's test of the lanes' addresses (lane 0's broadcast in Y1), of ctx.vmask's lanes
 * only where `masked` (ymm 15, and edx the mask): ZF set where they make a row. Masked, the
 * chunks from the first past the mask's last lane on are not tested (their lanes would be
 * masked off: a partial warp's lanes 0..n-1 make n / 4 chunks), as row_move skips them. */
static void row_lanes(struct seg *S, uint32_t a, bool masked)
{
	struct xbuf *b = S->b;
	size_t rest[LANES / 4];
	int nrest = 0;
	for (int c = 0; c < LANES / 4; c++) {
		if (masked && c) {
			x86_test_ri(b, X_RDX, UINT32_MAX << (4 * c));
			rest[nrest++] = x86_jcc(b, 0x4);
		}
		konst4(S, XV_VPADDQ, 0, Y1, 16u * (unsigned)c);
		x86_vrm(b, XV_VPXOR, 0, 0, lanes(a, c));
		if (masked) {
			mask_chunk(S, 1, c);
			x86_vrr(b, XV_VPAND, 0, 0, 1);
		}
		x86_vrr(b, XV_VPOR, Y2, c ? Y2 : 0, 0);
	}
	for (int k = 0; k < nrest; k++)
		x86_patch(b, rest[k], b->len);
	konst(S, XV_VPAND, Y2, Y2, 0xffffffffull);
	x86_vrr(b, XV_VPTEST, Y2, 0, Y2);
}

/*
 * row_test's shortcut for an access through a row register (jit_rows): where the warp
 * never split (ebp zero), or in any warp for a register only the entry stretch writes
 * (JIT_ROW_FIXED: what it left was written as in a warp that never split; a region's masked
 * access too), its lanes hold u + 4 * %tid.x, or u alone, in their low words. Where lane
 * 31's is lane 0's plus 124, %tid.x counts up by one from lane 0 to 31 (a wrap inside the
 * warp - %ntid.x at most 1024 - moves lane 31's by 4 * (31 - m %ntid.x), never 124 mod
 * 2^32; u alone moves it by 0), so every lane l holds lane 0's plus 4l: what row_lanes'
 * eight chunks test (all 32 lanes a row, so a region's lanes too). Returns the jump taken
 * there (on to the alignment and bounds tests), SIZE_MAX where there is no shortcut;
 * anything else goes on to row_lanes.
 */
static size_t row_known(struct seg *S, uint32_t a, bool masked)
{
	struct xbuf *b = S->b;
	bool fixed = S->row[a] & JIT_ROW_FIXED;
	if (!fixed && (masked || !S->row[a]))
		return SIZE_MAX;
	struct xmem l0 = lanes(a, 0), l31 = l0;
	l31.disp += 8 * (LANES - 1);
	size_t split = SIZE_MAX;
	if (!fixed) {
		x86_alu_rr(b, X86_TEST, false, R_SPLIT, R_SPLIT);
		split = x86_jcc(b, 0x5);
	}
	x86_load(b, false, X_RAX, l31);
	x86_alu_rm(b, X86_SUB, false, X_RAX, l0);
	x86_alu_ri(b, 7, false, X_RAX, 4 * (LANES - 1));
	size_t known = x86_jcc(b, 0x4);
	if (split != SIZE_MAX)
		x86_patch(b, split, b->len);
	return known;
}

/* Whose lanes row_test tests: a whole warp's; a region's (ctx.vmask), all 32 lanes tried
 * first; a region's alone, where a block of the region wrote the register before the access
 * (the lanes that skip the region keep older values there, which seldom make a row with
 * the region's: in a tree, an earlier level's) */
enum row_lanes_of { ROWS_WARP, ROWS_REGION, ROWS_PARTED };

/*
 * The tests of smem.c's row case inline, where smem_rows allows it (ctx.row's `bit`, asked
 * for once a turn): the lanes' addresses (their low words) are lane 0's plus 4l - lane 0's
 * 64 bits broadcast plus the pool's 4l, XORed with each lane's and ORed over the warp, the
 * high words masked off - and lane 0's place plus the offset is aligned and at most the
 * shared bytes less 128, so that all 32 places lie in them; through a row register,
 * row_known's two lanes first. `of` (but ROWS_WARP): only the lanes of ctx.vmask (a
 * region's) are tested (ymm 15 and edx left holding it), and lane 0's register, whether its
 * lane runs or not, gives the row. Anything else jumps to one of call[0..3]; rax is left the row's first
 * place, rcx its first byte.
 */
static void row_test(struct seg *S, const struct dinsn *di, uint32_t bit, enum row_lanes_of of,
		     size_t *call)
{
	struct xbuf *b = S->b;
	uint32_t a = di->s[0].slot;
	bool masked = of != ROWS_WARP;
	call[0] = row_bit(S, bit);
	if (masked) {
		x86_vrm(b, XV_VPBROADCASTQ, 15, 0, CTX(vmask));
		x86_load(b, false, X_RDX, CTX(vmask));
	}
	size_t known = row_known(S, a, masked);
	x86_vrm(b, XV_VPBROADCASTQ, Y1, 0, lanes(a, 0));
	size_t all = SIZE_MAX;
	if (of == ROWS_REGION) {
		/* all 32 lanes a row (the common case: a tree's lower half) make the region's
		 * lanes one; else the test of those alone */
		row_lanes(S, a, false);
		all = x86_jcc(b, 0x4);
	}
	row_lanes(S, a, masked);
	call[1] = x86_jcc(b, 0x5);
	if (all != SIZE_MAX)
		x86_patch(b, all, b->len);
	if (known != SIZE_MAX)
		x86_patch(b, known, b->len);
	x86_load(b, false, X_RAX, lanes(a, 0));
	if (di->s[0].off)
		x86_alu_ri(b, 0, false, X_RAX, (int32_t)(uint32_t)di->s[0].off);
	x86_mov32(b, X_RCX, X_RAX);
	x86_alu_ri(b, 4, false, X_RCX, 3);
	call[2] = x86_jcc(b, 0x5);
	x86_alu_rm(b, X86_CMP, true, X_RAX, CTX(row_lim));
	call[3] = x86_jcc(b, 0xF);
	x86_load(b, true, X_RCX, CTX(smem));
	x86_alu_rr(b, X86_ADD, true, X_RCX, X_RAX);
}

/*
 * smem.c's row case inline (ld_row4_any's and st_row4_any's) after row_test: 16 bytes at a
 * time widened into the destination's lanes (ld), or eight lanes' low words gathered into
 * 32 bytes (st: VSHUFPS and VPERMQ, as smem.c's low_words). `masked`: only ctx.vmask's lanes
 * (ymm 15), as smem.c moves a group's: the others' destination lanes (ld) and places (st,
 * the mask's lanes gathered as the words are) keep their bytes, blended back in (no masked
 * store: AMD's VPMASKMOV stores are slow; nothing else touches the frame or the CTA's
 * shared memory meanwhile), and the chunks of four lanes (st: eight) from the first past
 * the mask's last lane on are skipped (edx the mask, row_test's: a partial warp's lanes 0..n-1
 * touch n / 4 chunks).
 */
static void row_move(struct seg *S, const struct dinsn *di, bool masked)
{
	struct xbuf *b = S->b;
	size_t rest[LANES / 4], nrest = 0;
	for (int c = 0; c < LANES / 4; c++) {
		/* (masked: where none of the lanes from this chunk on - st: pair - is the
		 * region's, the rest is left as it is; chunk 0 on holds some) */
		if (masked && c && (di->exec == exec_ld || c < LANES / 8)) {
			x86_test_ri(b, X_RDX, UINT32_MAX << (di->exec == exec_ld ? 4 * c : 8 * c));
			rest[nrest++] = x86_jcc(b, 0x4);
		}
		if (di->exec == exec_ld) {
			struct xmem to = lanes(di->d.slot, c);
			x86_vrm(b, di->smem & SMEM_SIGNED ? XV_VPMOVSXDQ : XV_VPMOVZXDQ, Y1, 0,
				(struct xmem){X_RCX, -1, 1, 16 * c});
			if (masked) {
				mask_chunk(S, 0, c);
				x86_vrm(b, XV_VMOVDQU_LD, 1, 0, to);
				x86_v4(b, XV_VBLENDVPD, Y1, 1, Y1, 0);
			}
			x86_vrm(b, XV_VMOVDQU_ST, Y1, 0, to);
		} else if (c < LANES / 8) {
			uint32_t v = di->s[1].slot;
			struct xmem at = {X_RCX, -1, 1, 32 * c};
			x86_vrm(b, XV_VMOVDQU_LD, Y1, 0, lanes(v, 2 * c));
			x86_vrmi(b, XV_VSHUFPS, Y1, Y1, lanes(v, 2 * c + 1), 0x88);
			x86_vrri(b, XV_VPERMQ, Y1, 0, Y1, 0xD8);
			if (masked) {
				mask_chunk(S, 0, 2 * c);
				mask_chunk(S, 1, 2 * c + 1);
				x86_vrri(b, XV_VSHUFPS, 0, 0, 1, 0x88);
				x86_vrri(b, XV_VPERMQ, 0, 0, 0, 0xD8);
				x86_vrm(b, XV_VPANDN, 1, 0, at);
				x86_vrr(b, XV_VPAND, Y1, Y1, 0);
				x86_vrr(b, XV_VPOR, Y1, Y1, 1);
			}
			x86_vrm(b, XV_VMOVDQU_ST, Y1, 0, at);
		}
	}
	for (size_t k = 0; k < nrest; k++)
		x86_patch(b, rest[k], b->len);
}

/* Whether an instruction of branch i's region before access j writes the register j's
 * address is in (row_test's ROWS_PARTED) */
static bool region_wrote(const struct seg *S, uint32_t i, uint32_t j)
{
	uint32_t a = S->fn->code[j].s[0].slot;
	for (uint32_t k = i + 1; k < j; k++) {
		const struct dinsn *dk = &S->fn->code[k];
		if ((dk->d.kind == DOP_REG && dk->d.slot == a) ||
		    (dk->d2.kind == DOP_REG && dk->d2.slot == a))
			return true;
	}
	return false;
}

/* Whether region r has an access (each may be left to C: jit_vs_clock) */
static bool region_calls(const struct seg *S, const struct jit_vs_region *r)
{
	for (uint32_t j = r->i + 1; j < S->fn->code[r->i].target;
	     j += S->kind[j] == K_BLOCK ? S->blk[j].n : 1)
		if (S->kind[j] != K_BLOCK)
			return true;
	return false;
}

/*
 * Region r merged at its target: w's `split` left as ebp, the code's copy, holds it (the
 * region never changes ebp; nothing in it reads ebp). Where r->split, w's flag was marked
 * WARP_SPLIT at the beginning and the warp's registers the stretch wrote may differ between
 * lanes now: 0 becomes WARP_MERGED (jit_uni.c's `merged` facts, which leave those registers
 * out, hold on; jit_rows' do not), WARP_SPLIT stays. Where region_whole holds, no fact's
 * register the region wrote is read before a whole warp's write, so the flag goes back to
 * what ebp holds (0 keeps the rows too) - written only where an access C takes may have
 * marked it (jit_vs_clock).
 */
static void region_end(struct seg *S, const struct jit_vs_region *r)
{
	struct xbuf *b = S->b;
	if (!r->split) {
		if (region_calls(S, r)) {
			x86_load(b, true, X_RAX, CTX(w));
			x86_store8(b, (struct xmem){X_RAX, -1, 1, (int32_t)offsetof(struct warp, split)},
				   R_SPLIT);
		}
		return;
	}
	x86_alu_ri(b, 7, false, R_SPLIT, WARP_SPLIT);
	size_t split = x86_jcc(b, 0x4);
	x86_mov_ri(b, R_SPLIT, WARP_MERGED);
	x86_load(b, true, X_RAX, CTX(w));
	x86_mov_mi8(b, (struct xmem){X_RAX, -1, 1, (int32_t)offsetof(struct warp, split)},
		    WARP_MERGED);
	x86_patch(b, split, b->len);
}

/*
 * Whether branch i's region leaves the warp's uniform facts standing, so that the code need
 * not mark it split (jit_vs.h's `split`): no register the region writes (its blocks' and
 * loads' destinations, in some lanes only) is one of jit_uniform's (the full set, S->uni0:
 * jit_rows' facts are built on it, and hold only with ebp 0), jit_lanes' or jit_rows'
 * facts and live at the target (lv: read on some path from there before a write). Then at
 * every read of such a register outside a region in a warp that never split but through
 * regions, its last write was a whole warp's: were it a region's, the register would be
 * live at that region's target (no write between, on the path all its lanes took on). Reads
 * inside a region take none of the facts (its blocks run masked, its rows are tested or
 * JIT_ROW_FIXED). C, which takes no fact of them, finds the split marked where it takes an
 * access of the region (jit_vs_clock).
 */
struct region_writes {
	const struct seg *S;
	const struct jit_live *lv;
	uint32_t t;
	bool kept; /* no fact's register live at t written so far */
};

static void region_write(void *c, uint32_t s)
{
	struct region_writes *w = c;
	const struct seg *S = w->S;
	if ((S->uni0[s] || S->lane[s] || S->row[s]) && jit_live_in(w->lv, w->t, s))
		w->kept = false;
}

static bool region_whole(const struct seg *S, const struct jit_live *lv, uint32_t i)
{
	const struct dfunc *fn = S->fn;
	struct region_writes w = {S, lv, fn->code[i].target, true};
	for (uint32_t k = i + 1; k < w.t; k++) {
		regdef_op_slots(&fn->code[k].d, fn->nslots, region_write, &w);
		regdef_op_slots(&fn->code[k].d2, fn->nslots, region_write, &w);
	}
	return w.kept;
}

/*
 * Region r's entry from the lane setp right before its branch (gen_lane_setp, the setp not
 * run, its predicate nothing after the branch reads, r9d the lanes the branch takes): the
 * region's tests with the setp's budget too, failing to the exit at the setp (nothing of it
 * done: C runs it and the branch), then the setp counted and on at the split's beginning
 * (`split`) with those lanes, as the region's entry goes on with the guard's.
 */
static void gen_region_setp(struct seg *S, const struct jit_vs_region *r, size_t split)
{
	struct xbuf *b = S->b;
	uint32_t i = r->i, t = S->fn->code[i].target, n = 0;
	for (uint32_t k = 0; k < S->nja; k++)
		if (S->ja[k].to == i) {
			x86_patch(b, S->ja[k].at, b->len);
			n++;
		}
	if (!n)
		return;
	x86_mov32(b, X_RAX, R_LEFT);
	x86_alu_ri(b, 5, false, X_RAX, (int32_t)(t - i + 1));
	to_exit(S, x86_jcc(b, 0x6), i - 1);
	x86_alu_rr(b, X86_CMP, false, X_RAX, R_HMIN);
	to_exit(S, x86_jcc(b, 0x6), i - 1);
	size_t fail[4];
	jit_vs_tests(b, r, fail);
	for (int k = 0; k < 4; k++)
		to_exit(S, fail[k], i - 1);
	ran(S, i - 1, 1);
	x86_mov32(b, X_RDX, X_R9);
	x86_patch(b, x86_jmp(b), split);
}

/*
 * Branch i's region (region_picks), entered where its guard differs between lanes: the
 * budget must hold the branch and the region with some left at the target and pass every
 * handler's test in it (left - the stretch > hmin), and jit_vs_begin's tests must pass,
 * else the exit at i, nothing done. Then the lanes that fall through (ctx.vmask) run it:
 * each block through its masked entry, each access through vs_smem (declined: the exit
 * there; stopped: the exit past it) - a row (row_form) made inline for those lanes where
 * row_test passes, then jit_vs_picked - the merge by jit_vs_join after a block; then on at
 * the target with the whole warp, w's split as region_end leaves it.
 */
static void gen_region(struct seg *S, const struct jit_live *lv, uint32_t i, size_t epi)
{
	struct xbuf *b = S->b;
	uint32_t t = S->fn->code[i].target;
	const struct jit_vs_region r = {S->fn, i, region_picks(S, i), jit_vs_lazy(S->fn, i),
					!region_whole(S, lv, i)};
	x86_mov32(b, X_RAX, R_LEFT);
	x86_alu_ri(b, 5, false, X_RAX, (int32_t)(t - i));
	to_exit(S, x86_jcc(b, 0x6), i);
	x86_alu_rr(b, X86_CMP, false, X_RAX, R_HMIN);
	to_exit(S, x86_jcc(b, 0x6), i);
	size_t fail[4];
	jit_vs_tests(b, &r, fail);
	for (int k = 0; k < 4; k++)
		to_exit(S, fail[k], i);
	jit_vs_guard(b, &r);
	size_t split = b->len;
	jit_vs_split(b, &r);
	x86_alu_ri(b, 5, false, R_LEFT, 1);
	x86_mov_ri(b, R_LAST, i);
	bool block = false;
	uint32_t pick = i; /* the last pick before j: the branch's, or an access's */
	for (uint32_t j = i + 1; j < t; j += block ? S->blk[j].n : 1) {
		block = S->kind[j] == K_BLOCK;
		if (block) {
			x86_alu_rr(b, X86_MOV, true, X_RDI, R_REGS);
			x86_load(b, false, X_RSI, CTX(vmask));
			x86_mov_ri(b, X_RDX, UINT32_MAX);
			x86_patch(b, x86_call(b), S->blk[j].entry);
			ran_region(S, j + S->blk[j].n - 1, S->blk[j].n);
			continue;
		}
		size_t call[4], made = SIZE_MAX;
		if (row_form(&S->fn->code[j])) {
			row_test(S, &S->fn->code[j], row_move_bit(&S->fn->code[j]),
				 region_wrote(S, i, j) ? ROWS_PARTED : ROWS_REGION, call);
			row_move(S, &S->fn->code[j], true);
			jit_vs_picked(b, &r, j + 1 == t);
			ran_region(S, j, 1);
			if (S->fn->code[j].flags & DF_WRITES) /* (seg_vs_past's L->writes) */
				x86_alu_mi(b, 0, false, CTX(writes), 1);
			if (j + 1 == t) { /* (merged: on at the target at once) */
				region_end(S, &r);
				note(S, &S->jl, &S->njl, &S->cjl, x86_jmp(b), t);
			}
			else
				made = x86_jmp(b);
			for (int k = 0; k < 4; k++)
				x86_patch(b, call[k], b->len);
		}
		jit_vs_clock(b, &r, j - pick);
		pick = j;
		x86_mov_ri(b, X_RSI, j);
		x86_mov32(b, X_RDX, R_LEFT);
		call_ctx(S, offsetof(struct jit_seg_ctx, vs_smem));
		x86_alu_ri(b, 7, false, X_RAX, JIT_VS_ON);
		to_exit(S, x86_jcc(b, 0x2), j);
		size_t on = x86_jcc(b, 0x4);
		ran_region(S, j, 1);
		x86_mov_ri(b, X_RAX, j + 1);
		x86_patch(b, x86_jmp(b), epi);
		x86_patch(b, on, b->len);
		ran_region(S, j, 1);
		if (made != SIZE_MAX)
			x86_patch(b, made, b->len);
	}
	if (block)
		jit_vs_join(b, &r);
	region_end(S, &r);
	note(S, &S->jl, &S->njl, &S->cjl, x86_jmp(b), t);
	gen_region_setp(S, &r, split);
}

/* Whether an ld.shared at a variable's address (one place for all lanes: smem.c's ld_any)
 * may run inline (gen_bcast): aligned, and a compare with an imm32 tells whether it lies in
 * the CTA's shared memory */
static bool bcast_ok(const struct dinsn *di)
{
	uint32_t a = (uint32_t)di->s[0].off, es = smem_bytes(di->smem);
	return di->exec == exec_ld && !di->s[0].has_reg && !(a & (es - 1)) &&
	       (uint64_t)a + es <= INT32_MAX;
}

/*
 * ld_any's case of a variable's address inline, where smem_rows allows a load (ctx.row's
 * SMEM_ROW_LD: the checks it makes are ld_any's without the detector) and the place lies in
 * the shared bytes (a + size <= the shared bytes, i.e. a + size - 128 <= ctx.row_lim): the
 * bytes widened as load_widened widens them, through ctx.word into all 32 lanes. Anything
 * else goes on at *call (smem_ld, which takes or declines it as ever).
 */
static void gen_bcast(struct seg *S, const struct dinsn *di, size_t *call)
{
	struct xbuf *b = S->b;
	uint32_t a = (uint32_t)di->s[0].off, es = smem_bytes(di->smem);
	call[0] = row_bit(S, SMEM_ROW_LD);
	x86_load(b, true, X_RCX, CTX(row_lim));
	x86_alu_ri(b, 7, true, X_RCX, (int32_t)(a + es) - 128);
	call[1] = x86_jcc(b, 0xC); /* (jl) */
	x86_load(b, true, X_RCX, CTX(smem));
	x86_load_ext(b, (int)es, di->smem & SMEM_SIGNED, X_RAX,
		     (struct xmem){X_RCX, -1, 1, (int32_t)a});
	x86_store(b, true, CTX(word), X_RAX);
	x86_vrm(b, XV_VPBROADCASTQ, Y1, 0, CTX(word));
	for (int c = 0; c < LANES / 4; c++)
		x86_vrm(b, XV_VMOVDQU_ST, Y1, 0, lanes(di->d.slot, c));
}

/* gen_smem_race's stores (rax L) before its call (and gen_row_fresh's): L->steps, L->ci,
 * L->cmask; rcx is left the instruction, the row call's argument */
static void race_regs(struct seg *S, uint32_t i)
{
	struct xbuf *b = S->b;
	x86_load(b, true, X_RCX, CTX(end));
	x86_mov32(b, X_RDX, R_LEFT);
	x86_alu_rr(b, X86_SUB, true, X_RCX, X_RDX);
	x86_alu_ri(b, 0, true, X_RCX, 1);
	x86_store(b, true, LF(steps), X_RCX);
	x86_mov_ri64(b, X_RCX, (uint64_t)(uintptr_t)&S->fn->code[i]);
	x86_store(b, true, LF(ci), X_RCX);
	x86_mov_mi(b, LF(cmask), FULL_MASK);
}

/* a call of fn(L, w, edx) (smem_fresh_fn), the upper halves of the vector registers
 * cleared first */
static void call_fresh(struct seg *S, smem_fresh_fn *fn)
{
	struct xbuf *b = S->b;
	x86_vzeroupper(b);
	x86_load(b, true, X_RDI, CTX(L));
	x86_load(b, true, X_RSI, CTX(w));
	x86_mov_ri64(b, X_RAX, (uint64_t)(uintptr_t)fn);
	x86_call_r(b, X_RAX);
}

/* whether lane l's address (register slot a's low word) is lane l - 1's plus 4: zf */
static void lane_next(struct seg *S, uint32_t a, int l)
{
	struct xbuf *b = S->b;
	struct xmem at = lanes(a, 0), before = at;
	at.disp += 8 * l;
	before.disp += 8 * (l - 1);
	x86_load(b, false, X_RAX, at);
	x86_alu_rm(b, X86_SUB, false, X_RAX, before);
	x86_alu_ri(b, 7, false, X_RAX, 4);
}

/* The call of an smem_fn (smem.h's: fn) for di on the whole warp, its arguments taken from
 * the context (L, w, f); al its answer */
static void call_smem(struct xbuf *b, const struct dinsn *di, uint64_t fn)
{
	x86_load(b, true, X_RDI, CTX(L));
	x86_load(b, true, X_RSI, CTX(w));
	x86_load(b, true, X_RDX, CTX(f));
	x86_mov_ri64(b, X_RCX, (uint64_t)(uintptr_t)di);
	x86_mov_ri(b, X_R8, FULL_MASK);
	x86_mov_ri64(b, X_RAX, fn);
	x86_call_r(b, X_RAX);
}

/*
 * gen_row_fresh's call of wrap (smem_race_calls': a load's row that wraps around) where
 * row_test found the lanes not in one row (from *not_row): only where lanes 0 and 1 or 30
 * and 31 lie in a row (two rows split between those pairs have one of them: a broadcast
 * or a stride makes no call) and lanes 0 and 31 lie on different lines (RACE_LINE_BYTES:
 * the fresh check takes two runs only on two lines, and lane 31 is the second's - mm_tiled's
 * half rows, a tile's row twice, make no call). True from it: the jump to done_at (the
 * access's end); else, and where the lanes fail those tests, on past this code.
 */
static void gen_row_wrap(struct seg *S, const struct dinsn *di, smem_fn *wrap, size_t not_row,
			 size_t done_at)
{
	struct xbuf *b = S->b;
	uint32_t a = di->s[0].slot;
	x86_patch(b, not_row, b->len);
	lane_next(S, a, 1);
	size_t pair = x86_jcc(b, 0x4);
	lane_next(S, a, 31);
	size_t neither = x86_jcc(b, 0x5);
	x86_patch(b, pair, b->len);
	struct xmem at0 = lanes(a, 0), at31 = at0;
	at31.disp += 8 * (LANES - 1);
	x86_load(b, false, X_RAX, at0);
	x86_alu_ri(b, 0, false, X_RAX, (int32_t)(uint32_t)di->s[0].off);
	x86_load(b, false, X_RCX, at31);
	x86_alu_ri(b, 0, false, X_RCX, (int32_t)(uint32_t)di->s[0].off);
	x86_alu_rr(b, X86_XOR, false, X_RAX, X_RCX);
	x86_alu_ri(b, 7, false, X_RAX, RACE_LINE_BYTES);
	size_t one_line = x86_jcc(b, 0x2); /* (jb: the same line) */
	x86_vzeroupper(b);
	call_smem(b, di, (uint64_t)(uintptr_t)wrap);
	x86_alu_rr(b, X86_TEST8, false, X_RAX, X_RAX);
	x86_patch(b, x86_jcc(b, 0x5), done_at);
	x86_patch(b, neither, b->len);
	x86_patch(b, one_line, b->len);
}

/*
 * With the detector, the row case's fresh check before the row call (smem_race_calls' line
 * and off), after race_regs: where smem_rows allows it (ctx.row's SMEM_FRESH_LD / _ST) and
 * the 32 lanes lie in a row from lane 0's place, aligned and within the shared bytes
 * (row_test), line's call for a first on a line start (RACE_LINE_BYTES), off's for the
 * others (none: the row call); where it answers true, the bytes moved inline as the row
 * call moves them (row_move; rcx the row's first byte again) and *done jumps to the
 * access's end: the fresh check makes no report, and declines where one stopped the launch.
 * Lanes not in one row go to wrap's call first where there is one (gen_row_wrap).
 * Anything else goes on past this code with race_regs' rax and rcx: gen_smem_race's call,
 * which decides the access from the start.
 */
static void gen_row_fresh(struct seg *S, uint32_t i, const struct smem_calls *two,
			  size_t *done)
{
	struct xbuf *b = S->b;
	const struct dinsn *di = &S->fn->code[i];
	size_t call[4], decided, line_only = SIZE_MAX;
	row_test(S, di, di->exec == exec_ld ? SMEM_FRESH_LD : SMEM_FRESH_ST, ROWS_WARP, call);
	x86_mov32(b, X_RDX, X_RAX);
	x86_alu_ri(b, 4, false, X_RAX, RACE_LINE_BYTES - 1);
	size_t off_line = x86_jcc(b, 0x5);
	call_fresh(S, two->line);
	if (two->off) {
		decided = x86_jmp(b);
		x86_patch(b, off_line, b->len);
		call_fresh(S, two->off);
		x86_patch(b, decided, b->len);
	} else {
		line_only = off_line;
	}
	x86_alu_rr(b, X86_TEST8, false, X_RAX, X_RAX);
	size_t declined = x86_jcc(b, 0x4);
	x86_load(b, false, X_RCX, lanes(di->s[0].slot, 0));
	x86_alu_ri(b, 0, false, X_RCX, (int32_t)(uint32_t)di->s[0].off);
	x86_load(b, true, X_RAX, CTX(smem));
	x86_alu_rr(b, X86_ADD, true, X_RCX, X_RAX);
	row_move(S, di, false);
	size_t done_at = b->len;
	*done = x86_jmp(b);
	if (two->wrap)
		gen_row_wrap(S, di, two->wrap, call[1], done_at);
	for (int k = 0; k < 4; k++)
		if (k != 1 || !two->wrap)
			x86_patch(b, call[k], b->len);
	x86_patch(b, declined, b->len);
	if (line_only != SIZE_MAX)
		x86_patch(b, line_only, b->len);
	x86_vzeroupper(b);
	x86_load(b, true, X_RAX, CTX(L));
	x86_mov_ri64(b, X_RCX, (uint64_t)(uintptr_t)di);
}

/* The call of smem_ld / smem_st (fn) for instruction i, with the detector, after race_regs
 * (rax L, rcx i's instruction): as seg_run's C makes it, L->steps, L->ci and L->cmask
 * written first (the records and reports read them; L->steps is seg_run's `now`, ctx.end -
 * left + 1), and after a report that stopped the launch the exit past i, the budget and
 * the last instruction counted, L->writes not (seg_run's C returns there). Where
 * smem_race_calls splits it, fn is its row call and rest (else 0) is called when that one
 * declines. *done: the jump to the access's end. */
static void gen_smem_race(struct seg *S, uint32_t i, size_t epi, uint64_t fn, uint64_t rest,
			  size_t *done)
{
	struct xbuf *b = S->b;
	x86_alu_rr(b, X86_MOV, true, X_RDI, X_RAX);
	x86_load(b, true, X_RSI, CTX(w));
	x86_load(b, true, X_RDX, CTX(f));
	x86_mov_ri(b, X_R8, FULL_MASK);
	x86_mov_ri64(b, X_RAX, fn);
	x86_call_r(b, X_RAX);
	if (rest) { /* (the row call declined, nothing done: the rest, its arguments again) */
		x86_alu_rr(b, X86_TEST8, false, X_RAX, X_RAX);
		size_t took = x86_jcc(b, 0x5);
		call_smem(b, &S->fn->code[i], rest);
		x86_patch(b, took, b->len);
	}
	x86_alu_rr(b, X86_TEST8, false, X_RAX, X_RAX);
	to_exit(S, x86_jcc(b, 0x4), i);
	x86_load(b, true, X_RAX, CTX(L));
	x86_load(b, false, X_RAX, LF(stop)); /* (al: the bool; the rest, the next fields) */
	x86_alu_rr(b, X86_TEST8, false, X_RAX, X_RAX);
	*done = x86_jcc(b, 0x4);
	x86_alu_ri(b, 5, false, R_LEFT, 1);
	x86_mov_ri(b, R_LAST, i);
	x86_mov_ri(b, X_RAX, i + 1);
	x86_patch(b, x86_jmp(b), epi);
}

/* an ld/st.shared: the row case inline where it applies (never with the detector), else
 * through smem.c (false from it: the exit, nothing done), gen_smem_race's call with it */
static void gen_smem(struct seg *S, uint32_t i, uint32_t next, size_t epi)
{
	struct xbuf *b = S->b;
	const struct dinsn *di = &S->fn->code[i];
	handler_test(S, i);
	size_t call[4], done = 0, race_done;
	bool row = row_form(di);
	int ncall = row ? 4 : bcast_ok(di) ? 2 : 0;
	if (ncall) {
		if (row) {
			row_test(S, di, row_move_bit(di), ROWS_WARP, call);
			row_move(S, di, false);
		} else {
			gen_bcast(S, di, call);
		}
		done = x86_jmp(b);
		for (int k = 0; k < ncall; k++)
			x86_patch(b, call[k], b->len);
	}
	bool (*fn)(struct launch *, struct warp *, struct frame *, const struct dinsn *, uint32_t) =
		di->exec == exec_ld ? smem_ld : smem_st;
	struct smem_calls two;
	bool split = smem_race_calls(di, di->exec != exec_ld, &two);
	x86_vzeroupper(b);
	race_test(S);
	size_t plain = x86_jcc(b, 0x4), fresh_done = SIZE_MAX;
	race_regs(S, i);
	if (split && two.line)
		gen_row_fresh(S, i, &two, &fresh_done);
	gen_smem_race(S, i, epi, (uint64_t)(uintptr_t)(split ? two.row : fn),
		      split ? (uint64_t)(uintptr_t)two.rest : 0, &race_done);
	x86_patch(b, plain, b->len);
	call_smem(b, di, (uint64_t)(uintptr_t)fn);
	x86_alu_rr(b, X86_TEST8, false, X_RAX, X_RAX);
	to_exit(S, x86_jcc(b, 0x4), i);
	if (ncall)
		x86_patch(b, done, b->len);
	x86_patch(b, race_done, b->len);
	if (fresh_done != SIZE_MAX)
		x86_patch(b, fresh_done, b->len);
	ran(S, i, 1);
	go_on(S, i + 1, next);
}

/* R_SPLIT: the context's warp's `split` (launch.h: 0, WARP_SPLIT or WARP_MERGED) */
static void load_split(struct xbuf *b)
{
	x86_load(b, true, X_RAX, CTX(w));
	x86_load(b, false, R_SPLIT, (struct xmem){X_RAX, -1, 1, (int32_t)offsetof(struct warp, split)});
	x86_alu_ri(b, 4, false, R_SPLIT, 0xff);
}

/* A bar.sync of a constant barrier: the context's hop, where there is one, after the
 * handlers' test (seg_run's `now` test at a bar.sync) and the code's own hand-over (a calm
 * call's: it has a hop); the exit where it answers NULL. Not an entry: entered only from the
 * code before it (seg_run takes a bar.sync it stands on). */
static void gen_bar(struct seg *S, uint32_t i, size_t leave)
{
	struct xbuf *b = S->b;
	handler_test(S, i);
	size_t jumps[JIT_HAND_JUMPS];
	unsigned n = jit_hand_gen(b, S->fn, i, entry_kind(S->kind[i + 1]), jumps);
	for (unsigned k = 0; k < n; k++)
		note(S, &S->jl, &S->njl, &S->cjl, jumps[k], i + 1);
	x86_load(b, true, X_RAX, CTX(hop));
	x86_alu_rr(b, X86_TEST, true, X_RAX, X_RAX);
	to_exit(S, x86_jcc(b, 0x4), i);
	x86_store(b, false, CTX(left), R_LEFT);
	x86_vzeroupper(b);
	x86_alu_rr(b, X86_MOV, true, X_RDI, R_CTX);
	x86_mov_ri(b, X_RSI, i);
	x86_mov_ri(b, X_RDX, (uint32_t)S->fn->code[i].s[0].imm[0]);
	x86_mov_ri(b, X_RCX, S->fn->code[i].flags);
	x86_mov_ri64(b, X_R8, (uint64_t)(uintptr_t)&S->fn->code[i]);
	x86_call_r(b, X_RAX);
	x86_alu_ri(b, 7, true, X_RAX, (int32_t)(uintptr_t)JIT_SEG_HOP_LEFT);
	to_exit(S, x86_jcc(b, 0x2), i);
	x86_patch(b, x86_jcc(b, 0x4), leave);
	x86_load(b, true, R_REGS, CTX(regs));
	x86_load(b, false, R_LEFT, CTX(left));
	x86_load(b, false, R_HMIN, CTX(hmin));
	x86_load(b, false, R_LAST, CTX(last));
	x86_alu_rr(b, X86_MOV, true, X_RCX, X_RAX);
	load_split(b);
	x86_jmp_r(b, X_RCX);
}

/* The entry (jit_seg_fn): the callee-saved registers it uses saved, the stack aligned for
 * its calls, the context's values in their registers, then on at `at` (rsi). */
static size_t gen_prologue(struct xbuf *b)
{
	size_t at = b->len;
	static const int saved[] = {X_RBX, X_RBP, X_R12, X_R13, X_R14, X_R15};
	for (size_t k = 0; k < sizeof saved / sizeof saved[0]; k++)
		x86_push(b, saved[k]);
	x86_alu_ri(b, 5, true, X_RSP, 8);
	x86_alu_rr(b, X86_MOV, true, R_CTX, X_RDI);
	x86_load(b, true, R_REGS, CTX(regs));
	x86_load(b, false, R_LEFT, CTX(left));
	x86_load(b, false, R_HMIN, CTX(hmin));
	x86_load(b, false, R_LAST, CTX(last));
	load_split(b);
	x86_jmp_r(b, X_RSI);
	return at;
}

/* The common exit: eax the pc; what seg_run reads back stored */
static size_t gen_epilogue(struct xbuf *b)
{
	size_t at = b->len;
	static const int saved[] = {X_R15, X_R14, X_R13, X_R12, X_RBP, X_RBX};
	x86_store(b, false, CTX(left), R_LEFT);
	x86_store(b, false, CTX(last), R_LAST);
	x86_vzeroupper(b);
	x86_alu_ri(b, 0, true, X_RSP, 8);
	for (size_t k = 0; k < sizeof saved / sizeof saved[0]; k++)
		x86_pop(b, saved[k]);
	x86_ret(b);
	return at;
}

/* What each instruction is (kind[i]) in a function with a CTA barrier (false: none, no
 * segment code): seg_run enters the code wherever it stands on an entry (after a bar.sync,
 * or after an instruction the code left to it), so every instruction gets its kind, but
 * those inside a block, which nothing enters. */
static bool classify_all(struct seg *S)
{
	const struct dfunc *fn = S->fn;
	bool any = false;
	for (uint32_t i = 0; i < fn->ncode; i++)
		any |= fn->code[i].exec == exec_bar;
	for (uint32_t i = 0; i < fn->ncode && any;) {
		S->kind[i] = (uint8_t)classify(S, i);
		i += S->kind[i] == K_BLOCK ? S->blk[i].n : 1;
	}
	return any;
}

/* S->uni and S->lane: the uniform and %tid.x slots of a function whose blocks are S->blk,
 * after regions merged too (jit_uni.h's `merged`: ebp's WARP_SPLIT tests them); S->row from
 * the uniform slots of a warp that never split (ebp 0 tests it). False: no memory. */
static bool find_uniform(struct seg *S)
{
	const struct dfunc *fn = S->fn;
	bool *pure = calloc(fn->ncode + 1, sizeof *pure);
	uint8_t *uni0 = S->uni0 = malloc(fn->nslots + 1);
	S->uni = malloc(fn->nslots + 1);
	S->lane = malloc(fn->nslots + 1);
	S->row = malloc(fn->nslots + 1);
	bool ok = pure && uni0 && S->uni && S->lane && S->row;
	for (uint32_t i = 0; ok && i < fn->ncode; i++)
		for (uint32_t k = 0; k < S->blk[i].n; k++)
			pure[i + k] = true;
	if (ok) {
		jit_uniform(fn, pure, uni0, false);
		jit_lanes(fn, S->lane);
		jit_rows(fn, uni0, S->lane, S->row);
		jit_uniform(fn, pure, S->uni, true);
	}
	free(pure);
	return ok;
}

/* perf's name for instruction i's code (jit_map.h) */
static void map_insn(const struct seg *S, struct jit_map *pm, uint32_t i)
{
	static const char *const what[] = {
		[K_EXIT] = "seg exit", [K_BLOCK] = "seg block", [K_BRA] = "seg bra",
		[K_MOV] = "seg mov", [K_SMEM] = "seg ld.shared", [K_BAR] = "seg bar.sync",
		[K_PRO] = "seg prologue"};
	uint32_t last = S->kind[i] == K_BLOCK ? i + S->blk[i].n - 1 : i;
	bool st = S->kind[i] == K_SMEM && S->fn->code[i].exec == exec_st;
	jit_map_note(pm, S->b->len, S->fn, i, last, st ? "seg st.shared" : what[S->kind[i]]);
}

size_t jit_seg_gen(struct xbuf *b, const struct dfunc *fn, const struct jseg_block *blk,
		   size_t *off, struct jit_map *pm, const struct jit_live *lv)
{
	struct seg S = {.b = b, .fn = fn, .blk = blk, .live = lv};
	size_t start = b->len, entry = SIZE_MAX;
	for (uint32_t i = 0; i < fn->ncode; i++)
		off[i] = SIZE_MAX;
	S.kind = calloc(fn->ncode + 1, 1);
	S.lab = malloc(sizeof *S.lab * (fn->ncode + 1));
	size_t *stub = malloc(sizeof *stub * (fn->ncode + 1));
	if (!S.kind || !S.lab || !stub || !classify_all(&S) || !find_uniform(&S))
		goto out;
	jit_map_note(pm, b->len, fn, 0, fn->ncode - 1, "seg entry");
	entry = gen_prologue(b);
	size_t epi = gen_epilogue(b);
	size_t leave = b->len; /* where a hop ended the turn */
	x86_mov_ri(b, X_RAX, JIT_SEG_SWEPT);
	x86_patch(b, x86_jmp(b), epi);
	for (uint32_t i = 0; i < fn->ncode; i++) {
		stub[i] = SIZE_MAX;
		if (!S.kind[i])
			continue;
		uint32_t next = i + 1;
		while (next < fn->ncode && !S.kind[next])
			next++;
		S.lab[i] = b->len;
		map_insn(&S, pm, i);
		if (entry_kind(S.kind[i]))
			off[i] = b->len;
		switch ((enum kind)S.kind[i]) {
		case K_BLOCK: gen_block(&S, i, next); break;
		case K_BRA: gen_bra(&S, i, next); break;
		case K_MOV: gen_mov(&S, i, next); break;
		case K_SMEM: gen_smem(&S, i, next, epi); break;
		case K_BAR: gen_bar(&S, i, leave); break;
		case K_PRO: gen_pro(&S, i, next); break;
		default:
			stub[i] = b->len;
			x86_mov_ri(b, X_RAX, i);
			x86_patch(b, x86_jmp(b), epi);
			break;
		}
	}
	struct jit_live live = {NULL, 0, 0, 0};
	if (S.njv)
		jit_live_find(fn, &live);
	for (uint32_t k = 0; k < S.njv; k++) { /* (a branch's region once, for all its jumps) */
		uint32_t i = S.jv[k].to, first = 0;
		while (S.jv[first].to != i)
			first++;
		if (first < k) { /* (the first's `at` is its region's place now: below) */
			x86_patch(b, S.jv[k].at, S.jv[first].at);
			continue;
		}
		x86_patch(b, S.jv[k].at, b->len);
		jit_map_note(pm, b->len, fn, i, fn->code[i].target - 1, "seg region");
		S.jv[k].at = b->len;
		gen_region(&S, &live, i, epi);
	}
	jit_live_free(&live);
	jit_map_note(pm, b->len, fn, 0, fn->ncode - 1, "seg exits");
	for (uint32_t k = 0; k < S.njx; k++) {
		uint32_t i = S.jx[k].to;
		if (stub[i] == SIZE_MAX) {
			stub[i] = b->len;
			x86_mov_ri(b, X_RAX, i);
			x86_patch(b, x86_jmp(b), epi);
		}
		x86_patch(b, S.jx[k].at, stub[i]);
	}
	for (uint32_t k = 0; k < S.njl; k++)
		x86_patch(b, S.jl[k].at, S.lab[S.jl[k].to]);
	while (b->len % 32)
		x86_bytes(b, "\xcc", 1);
	size_t pool = b->len;
	jit_map_gap(pm, pool);
	for (uint32_t k = 0; k < S.npool; k++)
		x86_bytes(b, S.pool[k], sizeof S.pool[k]);
	for (uint32_t k = 0; k < S.njk; k++)
		x86_patch(b, S.jk[k].at, pool + 32 * (size_t)S.jk[k].to);
	if (S.oom || b->oom) {
		b->len = b->oom ? b->len : start;
		jit_map_gap(pm, b->len);
		entry = SIZE_MAX;
	}
out:
	if (entry == SIZE_MAX)
		for (uint32_t i = 0; i < fn->ncode; i++)
			off[i] = SIZE_MAX;
	free(S.kind);
	free(S.uni);
	free(S.uni0);
	free(S.lane);
	free(S.row);
	free(S.lab);
	free(S.ja);
	free(stub);
	free(S.jl);
	free(S.jx);
	free(S.jk);
	free(S.jv);
	free(S.pool);
	return entry;
}
