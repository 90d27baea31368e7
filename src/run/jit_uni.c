/*
 * jit_uni.c - a function's warp-uniform registers (jit_uni.h), for the segment code's
 * one-chunk blocks and one-lane branch tests (jit_seg.c); its registers that hold %tid.x
 * alone (jit_lanes), for its setp decided from two lanes; and its registers that hold a
 * row of 4-byte places (jit_rows, with the kernel's entry stretch), for its row accesses
 * tested from two lanes.
 *
 * A slot is uniform when every instruction that names it as a destination is an unguarded
 * one of these, each a function of its operands' values alone (the same in every lane
 * where they are): an instruction of a compiled block (jit.c's integer forms: no carry, no
 * lane number), or a mov of a register, an immediate, a variable's address (exec_mov_warp's
 * one op_addr for all lanes) or a special register that is the same in every thread of a
 * CTA (%ntid, %nctaid, %ctaid) - and every register it reads is uniform too - or a scalar
 * load of one place every lane names alike (place_ld: a kernel parameter, a constant, a
 * shared word by its variable's name). Any other instruction makes its destinations non-uniform (d and d2), and
 * every register it names where it is not one that writes its own lanes of those alone
 * (regdef.c's list: ALU rows, mov, cvta, ld, st, bra, ret, exit). A slot nothing writes
 * reads as frame_new's 0 (regdef.c) in every lane, but for a .func's .reg parameters, which
 * the call writes lane by lane.
 *
 * That is exact only for a warp whose lanes all ran the same instructions with its whole
 * mask: the warp never split (struct warp's `split`), and no lane exited (the segment code
 * runs for a whole warp only). A warp that split may have had its lanes at different
 * iterations of a loop, each writing a uniform register at its own time (lowest-pc-first
 * scheduling does not reconverge at a post-dominator, and the fairness streak lets a group
 * run ahead): its registers are never taken as uniform again. A region of the segment code
 * (jit_seg.c's gen_region: a short forward branch's lanes that fall through run its stretch,
 * the others wait at its target, where all merge before anything else runs) is a split
 * whose lanes never stand at different iterations: after it, every register but those its
 * stretch writes holds what it held before in every lane. So a warp whose every split was
 * such a region, merged (launch.h's WARP_MERGED), keeps the facts of `merged` sets, which
 * leave out the slots such stretches write (region_bad).
 */
#include "jit_uni.h"

#include <stdlib.h>
#include <string.h>

#include "exec.h"
#include "jit_ctx.h"
#include "regdef.h"

static void clear_each(void *uni, uint32_t s)
{
	((uint8_t *)uni)[s] = 0;
}

struct shrink {
	uint8_t *set;
	bool *shrank;
};

/* slot s out of a set, noting whether it was in (regdef_op_slots' callback) */
static void drop_slot(void *ctx, uint32_t s)
{
	struct shrink *k = ctx;
	*k->shrank |= k->set[s] != 0;
	k->set[s] = 0;
}

/* Each register slot o names made non-uniform */
static void name_bad(const struct dop *o, uint8_t *uni, uint32_t nslots)
{
	regdef_op_slots(o, nslots, clear_each, uni);
}

/* Whether an operand di reads is the same in every lane */
static bool same(const struct dop *o, const uint8_t *uni, uint32_t nslots)
{
	switch (o->kind) {
	case DOP_NONE:
	case DOP_IMM:
		return true;
	case DOP_REG:
		return o->reg_size <= 8 && o->slot < nslots && uni[o->slot];
	case DOP_SREG:
		return o->sreg == SREG_NTID || o->sreg == SREG_NCTAID || o->sreg == SREG_CTAID;
	case DOP_SYMADDR:
	case DOP_ADDR: /* (a variable's address, exec_mov's op_addr once for every lane) */
		return !o->has_reg && !o->neg;
	default:
		return false;
	}
}

/* A scalar ld of one place every lane names alike (a variable's address, no register): a
 * kernel parameter or a constant, which nothing writes, or a word of the CTA's shared
 * memory, which only the warps of its cluster write, one instruction at a time on one
 * thread (jobs.c): every lane reads the same value */
static bool place_ld(const struct dinsn *di)
{
	const struct dop *a = &di->s[0];
	return di->op == OP_LD && di->vec == 1 && a->kind == DOP_ADDR && !a->has_reg &&
	       (di->space == MS_PARAM_KERNEL || di->space == MS_CONST ||
		di->space == MS_SHARED_CTA);
}

/* A candidate: an instruction whose destinations are uniform where its operands are */
static bool candidate(const struct dinsn *di, bool pure)
{
	return (pure || (di->exec == exec_mov && di->d2.kind == DOP_NONE) || place_ld(di)) &&
	       di->guard < 0 && di->d.kind == DOP_REG && di->d.reg_size <= 8;
}

static bool drop(uint8_t *uni, const struct dop *d, uint32_t nslots)
{
	if (d->kind != DOP_REG || d->slot >= nslots || !uni[d->slot])
		return false;
	uni[d->slot] = 0;
	return true;
}

/* A .func's .reg parameters: the caller's call writes them (exec_call's move_param), each
 * lane its own argument, and no instruction of fn does */
static void params_bad(const struct dfunc *fn, uint8_t *uni, uint32_t nslots)
{
	regdef_param_slots(fn, false, nslots, clear_each, uni);
}

/*
 * A region merged (jit_uni.h's `merged`): a forward branch whose lanes may part in a warp
 * with all its lanes at one pc - its guard not uniform (uni; NULL: any guard) - and whose
 * stretch to its target is no longer than a region's (jit_seg.c's region_picks, run_direct's
 * vsplit_fits: a superset of both) may have run that stretch for some lanes alone, the others
 * keeping what they held: every slot an instruction of the stretch writes is cleared in set.
 * Returns whether one was set.
 */
static bool region_bad(const struct dfunc *fn, const uint8_t *uni, uint8_t *set)
{
	uint32_t ns = fn->nslots;
	bool cleared = false;
	for (uint32_t i = 0; i < fn->ncode; i++) {
		const struct dinsn *di = &fn->code[i];
		uint32_t t = di->target;
		if (di->op != OP_BRA || di->guard < 0 || t <= i + 1 || t - i > JIT_VSPLIT_MAX ||
		    t > fn->ncode || (uni && (uint32_t)di->guard < ns && uni[di->guard]))
			continue;
		for (uint32_t k = i + 1; k < t; k++) {
			struct shrink sh = {set, &cleared};
			regdef_op_slots(&fn->code[k].d, ns, drop_slot, &sh);
			regdef_op_slots(&fn->code[k].d2, ns, drop_slot, &sh);
		}
	}
	return cleared;
}

/* mov of %tid.x into a 32-bit register, unguarded (jit_lanes) */
static bool tid_x_mov(const struct dinsn *di)
{
	return di->exec == exec_mov && di->guard < 0 && di->d.kind == DOP_REG &&
	       di->d.reg_size == 4 && di->d2.kind == DOP_NONE && di->s[0].kind == DOP_SREG &&
	       di->s[0].sreg == SREG_TID && di->s[0].comp == 0;
}

void jit_lanes(const struct dfunc *fn, uint8_t *lane)
{
	uint32_t ns = fn->nslots;
	memset(lane, 0, ns);
	for (uint32_t i = 0; i < fn->ncode; i++)
		if (tid_x_mov(&fn->code[i]) && fn->code[i].d.slot < ns)
			lane[fn->code[i].d.slot] = 1;
	params_bad(fn, lane, ns);
	for (uint32_t i = 0; i < fn->ncode; i++) {
		const struct dinsn *di = &fn->code[i];
		if (tid_x_mov(di))
			continue;
		name_bad(&di->d, lane, ns);
		name_bad(&di->d2, lane, ns);
		if (!regdef_lane_local(di))
			for (int k = 0; k < 5; k++)
				name_bad(&di->s[k], lane, ns);
	}
}

void jit_uniform(const struct dfunc *fn, const bool *pure, uint8_t *uni, bool merged)
{
	uint32_t ns = fn->nslots;
	memset(uni, 1, ns);
	params_bad(fn, uni, ns);
	for (uint32_t i = 0; i < fn->ncode; i++) {
		const struct dinsn *di = &fn->code[i];
		if (candidate(di, pure[i]))
			continue;
		name_bad(&di->d, uni, ns);
		name_bad(&di->d2, uni, ns);
		if (!regdef_lane_local(di)) /* (what it writes but d and d2 is not told apart) */
			for (int k = 0; k < 5; k++)
				name_bad(&di->s[k], uni, ns);
	}
	/* (a region's stretch cleared may make more guards non-uniform: again until none) */
	do {
		for (bool changed = true; changed;) {
			changed = false;
			for (uint32_t i = 0; i < fn->ncode; i++) {
				const struct dinsn *di = &fn->code[i];
				if (!candidate(di, pure[i]))
					continue;
				bool ok = true;
				for (int k = place_ld(di) ? 5 : 0; k < 5 && ok; k++)
					ok = same(&di->s[k], uni, ns);
				if (!ok) {
					changed |= drop(uni, &di->d, ns);
					changed |= drop(uni, &di->d2, ns);
				}
			}
		}
	} while (merged && region_bad(fn, uni, uni));
}

/*
 * Row registers (jit_rows): each a register whose every write, in a warp that never split
 * and has all its lanes, leaves u + 4 * %tid.x in lane l's low word, u the same in every
 * lane - the addresses of a warp's row of 4-byte places (smem.c's row case) - or u alone.
 * The two together are what every row write keeps: a lane register holds %tid.x or, read
 * before its mov, frame_new's 0 (all lanes ran the same instructions), so 4 times it is a
 * row or 0; a row plus or minus a uniform value, or its move, is of the same kind; and a
 * row register not yet written holds 0. So the set is the largest in which each write of
 * each register is a row write from the others (a loop's add of a uniform step to its own
 * row register stays in): all the registers something writes, less those with any other
 * write, again until none goes. The row test's check of lanes 0 and 31 (jit_seg.c's
 * row_known) tells a row from u alone.
 */

static bool is_w32(enum ir_mod t)
{
	return t == MOD_B32 || t == MOD_U32 || t == MOD_S32;
}

/* Whether operand o is a register slot marked in set[] */
static bool marked(const struct dop *o, const uint8_t *set, uint32_t ns)
{
	return o->kind == DOP_REG && !o->neg && o->slot < ns && set[o->slot];
}

/* Whether operand o is the same in every lane of a warp that never split: an immediate or
 * a uniform register */
static bool uniform_src(const struct dop *o, const uint8_t *uni, uint32_t ns)
{
	return (o->kind == DOP_IMM && !o->neg) || marked(o, uni, ns);
}

/* Whether o is the immediate k */
static bool imm_is(const struct dop *o, uint64_t k)
{
	return o->kind == DOP_IMM && !o->neg && o->imm[0] == k;
}

/* Whether di writes its destination as a row register from what row[] (proven so far),
 * lane[] and uni[] say (jit_rows' forms) */
static bool row_write(const struct dinsn *di, const uint8_t *row, const uint8_t *lane,
		      const uint8_t *uni, uint32_t ns)
{
	const struct dop *s = di->s;
	if (di->guard >= 0 || di->d.kind != DOP_REG || di->d.reg_size != 4 ||
	    di->d2.kind != DOP_NONE)
		return false;
	if (di->exec == exec_mov)
		return is_w32((enum ir_mod)di->type) && marked(&s[0], row, ns);
	const struct alu_insn *ai = &di->alu;
	if (di->fam != FAM_ALU || !is_w32(ai->type) || ai->nsrc != 2)
		return false;
	switch (ai->op) {
	case OP_SHL: /* (4 * the lane's %tid.x: no bit of it leaves the low word's row) */
		return !ai->flags && marked(&s[0], lane, ns) && imm_is(&s[1], 2);
	case OP_MUL:
		return ai->flags == ALU_LO && marked(&s[0], lane, ns) && imm_is(&s[1], 4);
	case OP_ADD:
		return !ai->flags && ((marked(&s[0], row, ns) && uniform_src(&s[1], uni, ns)) ||
				      (marked(&s[1], row, ns) && uniform_src(&s[0], uni, ns)));
	case OP_SUB:
		return !ai->flags && marked(&s[0], row, ns) && uniform_src(&s[1], uni, ns);
	default:
		return false;
	}
}

void jit_rows(const struct dfunc *fn, const uint8_t *uni, const uint8_t *lane, uint8_t *row)
{
	uint32_t ns = fn->nslots;
	memset(row, 0, ns);
	/* fine[s]: 0 where an instruction spoils s (as in jit_lanes); ok[]: scratch */
	uint8_t *ok = malloc(ns + 1), *fine = malloc(ns + 1);
	if (!ok || !fine) {
		free(ok);
		free(fine);
		return;
	}
	memset(fine, 1, ns);
	params_bad(fn, fine, ns);
	for (uint32_t i = 0; i < fn->ncode; i++) {
		const struct dinsn *di = &fn->code[i];
		if (!regdef_lane_local(di))
			for (int k = 0; k < 5; k++)
				name_bad(&di->s[k], fine, ns);
		name_bad(&di->d2, fine, ns);
	}
	for (uint32_t i = 0; i < fn->ncode; i++) /* (a register something writes) */
		if (fn->code[i].d.kind == DOP_REG && fn->code[i].d.slot < ns)
			row[fn->code[i].d.slot] = fine[fn->code[i].d.slot] ? JIT_ROW : 0;
	for (bool shrank = true; shrank;) {
		shrank = false;
		for (uint32_t i = 0; i < fn->ncode; i++) {
			const struct dinsn *di = &fn->code[i];
			if (!row_write(di, row, lane, uni, ns))
				regdef_op_slots(&di->d, ns, drop_slot, &(struct shrink){row, &shrank});
		}
	}
	/* fixed: no write past the entry stretch (ok[] again: 1 where none) */
	uint32_t run = jit_entry_run(fn);
	memset(ok, 1, ns);
	for (uint32_t i = run; i < fn->ncode; i++)
		name_bad(&fn->code[i].d, ok, ns);
	for (uint32_t s = 0; s < ns; s++)
		if (row[s] && ok[s])
			row[s] |= JIT_ROW_FIXED;
	free(ok);
	free(fine);
}

/*
 * A kernel's entry stretch: instructions 0..n-1, where none is a branch's target and each
 * is one that writes its own lanes alone (regdef_lane_local) but a bra, ret or exit. A
 * warp begins at instruction 0 with all its lanes in one group (its base frame is the
 * kernel's); nothing in the stretch can split it (only a divergent branch, a guarded
 * barrier, a call and the like do, none of them lane-local ALU, mov, cvta, ld or st) or
 * end a lane, and nothing enters it again (no target in it; a brx.idx anywhere, whose
 * targets are a table, makes it empty). So every lane ran each of those instructions once,
 * together, as in a warp that never split - and a register no instruction past the stretch
 * writes keeps what they left, whatever the warp does after.
 */
uint32_t jit_entry_run(const struct dfunc *fn)
{
	if (!fn->ir || !fn->ir->is_entry)
		return 0;
	uint32_t n = 0;
	while (n < fn->ncode) {
		const struct dinsn *di = &fn->code[n];
		if (!regdef_lane_local(di) || di->op == OP_BRA || di->op == OP_RET ||
		    di->op == OP_EXIT)
			break;
		n++;
	}
	for (uint32_t i = 0; i < fn->ncode; i++) {
		const struct dinsn *di = &fn->code[i];
		if (di->op == OP_BRX_IDX)
			return 0;
		if (di->op == OP_BRA && di->target < n)
			n = di->target;
	}
	return n;
}
