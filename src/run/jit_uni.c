/*
 * jit_uni.c - a function's warp-uniform registers (jit_uni.h), for the segment code's
 * one-chunk blocks and one-lane branch tests (jit_seg.c); and its registers that hold
 * %tid.x alone (jit_lanes), for its setp decided from two lanes.
 *
 * A slot is uniform when every instruction that names it as a destination is an unguarded
 * one of these, each a function of its operands' values alone (the same in every lane
 * where they are): an instruction of a compiled block (jit.c's integer forms: no carry, no
 * lane number), or a mov of a register, an immediate or a special register that is the
 * same in every thread of a CTA (%ntid, %nctaid, %ctaid) - and every register it reads is
 * uniform too - or a scalar load of one place every lane names alike (place_ld: a kernel
 * parameter, a constant, a shared word by its variable's name). Any other instruction makes its destinations non-uniform (d and d2), and
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
 * run ahead): its registers are never taken as uniform again.
 */
#include "jit_uni.h"

#include <string.h>

#include "exec.h"
#include "regdef.h"

static void clear_each(void *uni, uint32_t s)
{
	((uint8_t *)uni)[s] = 0;
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
	const struct ir_func *irf = fn->ir;
	for (uint32_t i = 0; irf && i < irf->nparams; i++) {
		const struct ir_sym *p = irf->params[i];
		if (p->space != MOD_REG || p->slot < 0)
			continue;
		uint32_t n = ir_type_size(p->type) > 8 ? 2 : 1; /* (a pair's both slots) */
		for (uint32_t k = 0; k < n; k++)
			if ((uint32_t)p->slot + k < nslots)
				uni[p->slot + k] = 0;
	}
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

void jit_uniform(const struct dfunc *fn, const bool *pure, uint8_t *uni)
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
}
