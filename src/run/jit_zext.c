/*
 * jit_zext.c - registers whose upper halves are zero (jit_zext.h).
 *
 * A value a thread reads from a slot was written there by an instruction of its function
 * (or is 0: a fresh frame is zeroed, and a frame taken from the cache again is cleared where
 * its thread may read before writing, regdef.c; any other stale value is never read), so a
 * slot is clean when every instruction that may write it writes a value of at most 32 bits,
 * zero-extended (a guarded one leaves the lanes it skips as they were):
 * - jit.c's integer forms of at most 32-bit results (narrow: add, sub, mul.lo, mad.lo,
 *   logic, shifts, min, max, selp of .16 and .32 types; setp and the .pred logic ops, 0
 *   or 1), whose lane functions and native code store them zero-extended (exec_alu.h);
 * - a mov of at most 4 bytes from a register, an immediate, a special register or an
 *   address, which every form of it cuts to its type (exec_mov, exec_mov_warp, jit_seg.c's);
 * - a scalar ld of at most 4 bytes of an unsigned, bit or float type, which widens it with
 *   zeros (exec_mem.c's widen; smem.c's loads alike).
 * Every other writer (cvt, a signed ld, a vector, a call's results, shfl, ...) spoils the
 * slots its destinations name, an instruction not lane-local (regdef.h) every slot it names,
 * and a .func's .reg parameters and results are spoiled (its caller writes them).
 */
#include "jit_zext.h"

#include <string.h>

#include "exec.h"
#include "regdef.h"

static void spoil_each(void *clean, uint32_t s)
{
	((uint8_t *)clean)[s] = 0;
}

static void spoil(const struct dop *o, uint8_t *clean, uint32_t ns)
{
	regdef_op_slots(o, ns, spoil_each, clean);
}

/* a mov whose every form writes its destination cut to at most 4 bytes */
static bool narrow_mov(const struct dinsn *di)
{
	enum dop_kind k = (enum dop_kind)di->s[0].kind;
	return di->exec == exec_mov && ir_type_size((enum ir_mod)di->type) <= 4 &&
	       (k == DOP_REG || k == DOP_IMM || k == DOP_SREG || k == DOP_ADDR ||
		k == DOP_SYMADDR);
}

/* a scalar ld that widens at most 4 bytes with zeros */
static bool narrow_ld(const struct dinsn *di)
{
	enum ir_mod t = (enum ir_mod)di->type;
	return di->op == OP_LD && di->vec == 1 && ir_type_size(t) <= 4 && !ir_type_is_signed(t);
}

/* Whether di writes destination d (its d or d2: a register of at most 8 bytes) clean */
static bool writes_clean(const struct dinsn *di, const struct dop *d, bool narrow)
{
	if (d->kind != DOP_REG || d->reg_size > 8)
		return false;
	return narrow || (d == &di->d && (narrow_mov(di) || narrow_ld(di)));
}

void jit_zext(const struct dfunc *fn, const bool *narrow, uint8_t *clean)
{
	uint32_t ns = fn->nslots;
	memset(clean, 1, ns);
	regdef_param_slots(fn, true, ns, spoil_each, clean);
	for (uint32_t i = 0; i < fn->ncode; i++) {
		const struct dinsn *di = &fn->code[i];
		if (!regdef_lane_local(di)) {
			for (int k = 0; k < 5; k++)
				spoil(&di->s[k], clean, ns);
			spoil(&di->d, clean, ns);
			spoil(&di->d2, clean, ns);
			continue;
		}
		if (di->d.kind != DOP_NONE && !writes_clean(di, &di->d, narrow[i]))
			spoil(&di->d, clean, ns);
		if (di->d2.kind != DOP_NONE && !writes_clean(di, &di->d2, narrow[i]))
			spoil(&di->d2, clean, ns);
	}
}
