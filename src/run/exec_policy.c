/*
 * exec_policy.c - createpolicy (ISA 9.7.9.18): the opaque 64-bit cache eviction policies that
 * .L2::cache_hint operands consume. ptxi has no caches, so a policy is only a value: made
 * deterministically from the instruction and its operands, and never read back (any value,
 * a constant included, works as a cache-policy operand, as on the hardware).
 *
 * The value's layout is ptxi's own and may change; programs must treat it as opaque:
 *   bits 63-60  form: 1 fractional, 2 range, 3 cvt
 *   bits 59-56  primary priority, 55-52 secondary: 1 evict_normal, 2 evict_first,
 *               3 evict_last, 4 evict_unchanged (the default secondary)
 *   bits 47-0   fractional: the fraction's f32 bits; range: the address; cvt: the access
 *               property's low 48 bits
 */
#include <string.h>

#include "exec.h"
#include "launch.h"
#include "memory.h"
#include "operand.h"
#include "report/rules.h"

static uint64_t priority_code(enum ir_mod m)
{
	switch (m) {
	case MOD_L2_EVICT_NORMAL: return 1;
	case MOD_L2_EVICT_FIRST: return 2;
	case MOD_L2_EVICT_LAST: return 3;
	default: return 4;
	}
}

/* The form and priority bits of di's policies. */
static uint64_t policy_head(const struct dinsn *di)
{
	uint64_t form = di->op == OP_CREATEPOLICY_FRACTIONAL ? 1 : di->op == OP_CREATEPOLICY_RANGE
		      ? 2 : 3;
	if (form == 3)
		return form << 60;
	uint64_t second = di->flags & DF_EVICT_FIRST2 ? 2 : 4;
	return form << 60 | priority_code((enum ir_mod)di->mode) << 56 | second << 52;
}

/* A fraction must be in (0.0, 1.0]; an omitted one is 1.0. Returns its f32 bits. */
static uint32_t fraction(struct launch *L, struct warp *w, struct frame *f,
			 const struct dinsn *di, uint32_t lane)
{
	if (di->nsrc < 1)
		return 0x3f800000u;
	uint32_t bits = (uint32_t)op_read(L, w, f, &di->s[0], lane);
	float v;
	memcpy(&v, &bits, 4);
	if (!(v > 0.0f && v <= 1.0f))
		rule_break(L, RULE_CREATEPOLICY_OPERANDS, 1u << lane, "createpolicy.fractional with "
			   "the fraction %g, outside (0.0, 1.0]", (double)v);
	return bits;
}

/* The kernel parameters' window lies inside the global one, as isspacep.global says. */
static bool global_window(enum mspace s)
{
	return s == MS_GLOBAL || s == MS_PARAM_KERNEL;
}

/* createpolicy.range's address must lie in the .global window (ISA 9.7.9.18: else the
 * behaviour is undefined). With .global it is a global address; a generic one named by a
 * variable must be a global variable's, one in a register must fall in no other window. */
static void range_address(struct launch *L, const struct dinsn *di, uint64_t a, uint32_t lane)
{
	const struct dop *o = &di->s[0];
	if (di->space == MS_GLOBAL)
		return;
	if (!o->has_reg && o->sym && !global_window((enum mspace)o->space))
		rule_break(L, RULE_CREATEPOLICY_OPERANDS, 1u << lane, "createpolicy.range of '%s', "
			   "whose generic address is not in the .global window", o->sym->name);
	else if (o->has_reg && !global_window(mem_generic_space(a)))
		rule_break(L, RULE_CREATEPOLICY_OPERANDS, 1u << lane, "createpolicy.range of the "
			   "generic address 0x%llx, which is not in the .global window",
			   (unsigned long long)a);
}

/* createpolicy.range: the address, checked, and the sizes, compared. */
static uint64_t range_policy(struct launch *L, struct warp *w, struct frame *f,
			     const struct dinsn *di, uint32_t lane)
{
	uint64_t a = op_addr(L, w, f, &di->s[0], lane);
	uint32_t primary = (uint32_t)op_read(L, w, f, &di->s[1], lane);
	uint32_t total = (uint32_t)op_read(L, w, f, &di->s[2], lane);
	range_address(L, di, a, lane);
	if (primary > total && !L->stop)
		rule_break(L, RULE_CREATEPOLICY_OPERANDS, 1u << lane, "createpolicy.range with a "
			   "primary-size of %u bytes, larger than its total-size of %u", primary,
			   total);
	return a;
}

enum step exec_createpolicy(struct launch *L, struct warp *w, struct group *g,
			    const struct dinsn *di, uint32_t mask)
{
	struct frame *f = g->frame;
	const uint64_t low = (1ull << 48) - 1;
	uint64_t head = policy_head(di);
	for (uint32_t m = mask; m && !L->stop; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		uint64_t v;
		if (di->op == OP_CREATEPOLICY_FRACTIONAL)
			v = fraction(L, w, f, di, l);
		else if (di->op == OP_CREATEPOLICY_RANGE)
			v = range_policy(L, w, f, di, l);
		else
			v = op_read(L, w, f, &di->s[0], l);
		op_write(f, &di->d, l, head | (v & low));
	}
	return STEP_NEXT;
}
