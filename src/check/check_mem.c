/*
 * check_mem.c - static rules of address spaces and memory accesses: cvta, isspacep, atom
 * and red, createpolicy (cache eviction policies, ISA 9.7.9.18), and ld/st with their
 * semantics, scope, cache words and data operands.
 */

#include "check_priv.h"

#include <inttypes.h>
#include <string.h>

/* CK_ATOM rows: the types each atom/red operation takes. */
static const struct {
	enum ir_mod op;
	uint32_t types;
} atomrows[] = {
#define CK_ATOM(op, types) {MOD_##op, types},
#include "checkrules.def"
};

/* CK_MEMMOD rows: the semantics, scope and cache words ld/st take. */
static const struct {
	enum ir_op op;
	enum ir_mod mod;
	uint16_t ptx, sm;
} memmods[] = {
#define CK_MEMMOD(op, mod, ptx, sm) {OP_##op, MOD_##mod, ptx, sm},
#include "checkrules.def"
};

/* ---- Control flow and addresses ---------------------------------------------------------- */

/* The state-space word of an instruction and its index, or MOD_NONE. */
static enum ir_mod space_of(const struct ir_insn *in, int *at)
{
	for (unsigned i = 0; i < in->nmods; i++)
		if (ir_mod_kind(in->mods[i]) == MK_SPACE) {
			*at = (int)i;
			return in->mods[i];
		}
	*at = -1;
	return MOD_NONE;
}

static bool same_space(enum ir_mod v, enum ir_mod i)
{
	bool sv = v == MOD_SHARED || v == MOD_SHARED_CTA || v == MOD_SHARED_CLUSTER;
	bool si = i == MOD_SHARED || i == MOD_SHARED_CTA || i == MOD_SHARED_CLUSTER;
	bool pi = i == MOD_PARAM || i == MOD_PARAM_ENTRY || i == MOD_PARAM_FUNC;
	return (sv && si) || v == i || (pi && v == MOD_PARAM);
}

/* [a].unified (ld's syntax, ISA 9.7.9.8): ptxas 13.0 takes it on the address an instruction
 * reads into a destination (ld in every form, ldu, atom, multimem.ld_reduce, createpolicy.range,
 * ldmatrix, and mbarrier's arrive, arrive_drop, test_wait and try_wait), in the global or
 * generic space, with a register for its base (no variable, no constant address); on any other
 * instruction or address it refuses "Illegal use of attribute '.unified'" (any .version and
 * .target). It says only where the address may point, so it runs as the address alone. */
bool ck_unified_check(struct ck *c, const struct ir_insn *in)
{
	for (unsigned i = 0; i < in->nopnds; i++) {
		const struct ir_operand *o = &in->opnds[i];
		if (o->kind != OPND_ADDR || !o->unified)
			continue;
		bool reads = in->op == OP_LD || in->op == OP_LDU || in->op == OP_ATOM ||
			     in->op == OP_MULTIMEM_LD_REDUCE || in->op == OP_CREATEPOLICY_RANGE ||
			     in->op == OP_LDMATRIX || in->op == OP_MBAR_ARRIVE ||
			     in->op == OP_MBAR_ARRIVE_DROP || in->op == OP_MBAR_TEST_WAIT ||
			     in->op == OP_MBAR_TRY_WAIT;
		int at;
		enum ir_mod sp = space_of(in, &at);
		const char *why = NULL;
		if (!reads || i != 1)
			why = "only the source address of ld, ldu, atom, multimem.ld_reduce, "
			      "createpolicy.range, ldmatrix and mbarrier's arrive and wait forms";
		else if (sp != MOD_NONE && sp != MOD_GLOBAL)
			why = "only a global or generic address";
		else if (!o->addr.base || o->addr.base->kind != OPND_REG)
			why = "only an address held in a register";
		if (why) {
			ck_report(c, CHECK_ADDRESS, o->span, "%s cannot take '.unified' here: %s takes it",
				  ir_op_name(in->op), why);
			return false;
		}
	}
	return true;
}

/* cvta{.to}.space.size d, a (ISA 9.7.9.19): a state space is mandatory, the size is .u32 or
 * .u64 (ptxas 13.0: only .u64 in a 64-bit module), d and a are registers of that width (a
 * may also name a variable of the same state space, or be a constant). */
void ck_cvta_check(struct ck *c, const struct ir_insn *in, const struct mods *ms)
{
	(void)ms;
	int sat;
	enum ir_mod space = space_of(in, &sat);
	if (space == MOD_NONE) {
		ck_report(c, CHECK_MOD_MISSING, in->op_span,
			  "cvta needs a state space (such as '.global' or '.shared')");
		return;
	}
	enum ir_mod ty = MOD_NONE;
	for (unsigned i = 0; i < in->nmods; i++) {
		enum ir_mod m = in->mods[i];
		if (ir_mod_kind(m) != MK_TYPE)
			continue;
		if (m != MOD_U32 && m != MOD_U64) {
			ck_report(c, CHECK_INSN_TYPE, in->mod_spans[i],
				  "cvta takes '.u64' (or '.u32'), not '%s'", ir_mod_name(m));
			return;
		}
		ty = m;
		if (ir_type_size(m) == 4 && c->m->address_size != 32) {
			ck_report(c, CHECK_INSN_TYPE, in->mod_spans[i],
				  "cvta%s: 32-bit address conversion is not supported "
				  "by ptxas 13.0 (use .u64)", ir_mod_name(m));
			return;
		}
	}
	if (ty == MOD_NONE) {
		ck_report(c, CHECK_INSN_TYPE, in->op_span, "cvta needs a type ('.u64')");
		return;
	}
	if (in->nopnds != 2)
		return;
	for (unsigned i = 0; i < 2; i++) {
		const struct ir_operand *o = &in->opnds[i];
		if (o->kind == OPND_REG && !ck_is_sreg(o) && !ck_is_int_reg(o, ir_type_size(ty)))
			ck_report(c, CHECK_OPND_TYPE, o->span,
				  "operand %u of cvta%s must be a %d-bit integer register", i + 1,
				  ir_mod_name(ty), ir_type_size(ty) * 8);
	}
	const struct ir_operand *a = &in->opnds[1];
	if (a->kind == OPND_ADDR && a->addr.base)
		a = a->addr.base;
	if (a->kind == OPND_SYM && a->ref.sym && a->ref.sym->kind == SYM_VAR &&
	    !same_space(a->ref.sym->space, space))
		ck_report(c, CHECK_ADDRESS, a->span,
			  "'%.*s' is in %s memory, not %s: the address does not match " "cvta%s",
			  (int)a->ref.sym->name_len, a->ref.sym->name, ir_mod_name(a->ref.sym->space),
			  ir_mod_name(space), ir_mod_name(space));
}

/* isspacep.space p, a (ISA 9.7.9.20): a state space and no type; p is a predicate;
 * .param::entry needs PTX 8.3. */
void ck_isspacep_check(struct ck *c, const struct ir_insn *in, const struct mods *ms)
{
	(void)ms;
	int sat;
	enum ir_mod space = space_of(in, &sat);
	if (space == MOD_NONE) {
		ck_report(c, CHECK_MOD_MISSING, in->op_span,
			  "isspacep needs a state space (such as '.global')");
		return;
	}
	if (space == MOD_PARAM_ENTRY)
		ck_need(c, in->mod_spans[sat], 83, 0, "'.param::entry' on isspacep");
	for (unsigned i = 0; i < in->nmods; i++)
		if (ir_mod_kind(in->mods[i]) == MK_TYPE) {
			ck_report(c, CHECK_INSN_TYPE, in->mod_spans[i],
				  "isspacep takes no type ('%s')", ir_mod_name(in->mods[i]));
			return;
		}
	if (in->nopnds >= 1 && (!ck_is_pred_reg(&in->opnds[0]) || in->opnds[0].neg))
		ck_report(c, CHECK_OPND_KIND, in->opnds[0].span,
			  "the destination of isspacep must be a predicate " "register");
}

/* atom / red words beyond operation x type (ISA 9.7.13.5, .6): the state space is generic,
 * .global or .shared; red has no .cas/.exch; no .sat; vectors and .bf16 addition need sm_90. */
static bool atom_mods_check(struct ck *c, const struct ir_insn *in)
{
	const char *name = ir_op_name(in->op);
	bool ok = true;
	for (unsigned i = 0; i < in->nmods; i++) {
		enum ir_mod m = in->mods[i];
		struct src_span s = in->mod_spans[i];
		if (ir_mod_kind(m) == MK_SPACE && m != MOD_GLOBAL && m != MOD_SHARED &&
		    m != MOD_SHARED_CTA && m != MOD_SHARED_CLUSTER) {
			ck_report(c, CHECK_MOD_NOT_ALLOWED, s,
				  "%s works on .global or .shared memory, not '%s'", name,
				  ir_mod_name(m));
			ok = false;
		} else if (in->op == OP_RED && (m == MOD_CAS || m == MOD_EXCH)) {
			ck_report(c, CHECK_MOD_NOT_ALLOWED, s,
				  "red has no '%s' (it returns nothing; use atom%s)", ir_mod_name(m),
				  ir_mod_name(m));
			ok = false;
		} else if (m == MOD_SAT) {
			ck_report(c, CHECK_MOD_NOT_ALLOWED, s, "'.sat' is not valid on %s", name);
			ok = false;
		} else if (ir_mod_kind(m) == MK_VEC) {
			ok &= ck_need(c, s, 0, 90, "%s with a vector type ('%s')", name, ir_mod_name(m));
		} else if ((m == MOD_BF16 || m == MOD_BF16X2) && ck_has_mod(in, MOD_ADD)) {
			ok &= ck_need(c, s, 0, 90, "%s.add%s", name, ir_mod_name(m));
		} else if (m == MOD_B128) {
			ok &= ck_need(c, s, 0, 90, "%s with type .b128", name);
		}
	}
	return ok;
}

/* atom / red operand counts (ISA 9.7.13.5, .6): d, [a], b {, c for cas} {, cache-policy}. */
static void atom_check(struct ck *c, const struct ir_insn *in)
{
	bool cas = ck_has_mod(in, MOD_CAS), hint = ck_has_mod(in, MOD_L2_CACHE_HINT);
	bool vec = false;
	for (unsigned i = 0; i < in->nmods; i++)
		vec |= ir_mod_kind(in->mods[i]) == MK_VEC;
	if (!atom_mods_check(c, in) || vec)
		return;
	unsigned want = (in->op == OP_ATOM ? 3u : 2u) + cas + hint;
	const char *name = ir_op_name(in->op);
	/* operation x type (CK_ATOM rows); the half types need .noftz */
	enum ir_mod aop = MOD_NONE, ty = MOD_NONE;
	int at = -1;
	for (unsigned i = 0; i < in->nmods; i++) {
		if (ir_mod_kind(in->mods[i]) == MK_TYPE) {
			ty = in->mods[i];
			at = (int)i;
		}
		for (size_t k = 0; k < sizeof atomrows / sizeof atomrows[0]; k++)
			if (atomrows[k].op == in->mods[i])
				aop = in->mods[i];
	}
	if (aop == MOD_NONE || ty == MOD_NONE) {
		ck_report(c, CHECK_MOD_MISSING, in->op_span,
			  "%s needs an operation (such as '.add') and a type", name);
		return;
	}
	bool typed_ok = false;
	for (size_t k = 0; k < sizeof atomrows / sizeof atomrows[0]; k++)
		typed_ok |= atomrows[k].op == aop && (atomrows[k].types & T_BIT(ty));
	if (!typed_ok && aop == MOD_ADD && (ty == MOD_F16 || ty == MOD_F16X2 || ty == MOD_BF16 ||
					    ty == MOD_BF16X2))
		typed_ok = ck_has_mod(in, MOD_NOFTZ);
	if (!typed_ok) {
		ck_report(c, CHECK_INSN_TYPE, in->mod_spans[at], "%s%s does not take '%s'", name,
			  ir_mod_name(aop), ir_mod_name(ty));
		return;
	}
	if (in->nopnds != want) {
		ck_report(c, CHECK_OPND_COUNT, in->span, "%s%s takes %u operands (has %u)", name,
			  cas ? ".cas" : "", want, in->nopnds);
		return;
	}
	unsigned ai = in->op == OP_ATOM ? 1 : 0;
	if (in->opnds[ai].kind != OPND_ADDR)
		ck_report(c, CHECK_OPND_KIND, in->opnds[ai].span,
			  "operand %u of %s must be an address in brackets", ai + 1, name);
	/* data operands: registers of the type's width (.b128: .b128 registers), constants of
	 * its kind (ptxas 13.0 takes an integer constant for a .b128 operand too) */
	char what[48];
	ck_spell(what, sizeof what, name, ir_mod_name(aop), ir_mod_name(ty));
	for (unsigned i = 0; i < want - hint; i++) {
		const struct ir_operand *o = &in->opnds[i];
		if (i == ai || ck_is_sreg(o))
			continue;
		enum ir_mod r = ck_reg_type(o);
		if (o->kind == OPND_REG && r != MOD_NONE &&
		    (ty == MOD_B128 ? r != MOD_B128 : r == MOD_PRED ||
		     ir_type_size(r) != ir_type_size(ty)))
			ck_report(c, CHECK_OPND_TYPE, o->span,
				  "operand %u of %s is a %d-bit register; expected %d bits", i + 1,
				  what, r == MOD_PRED ? 1 : ir_type_size(r) * 8, ir_type_size(ty) * 8);
		else if (o->kind == OPND_IMM && ck_is_float_type(ty))
			ck_report(c, CHECK_OPND_KIND, o->span,
				  "operand %u of %s is an integer constant; expected a "
				  "floating-point value", i + 1, what);
	}
}

/* ---- cache eviction policies (ISA 9.7.9.18) ---------------------------------------------- */

static bool is_priority(enum ir_mod m)
{
	return m == MOD_L2_EVICT_LAST || m == MOD_L2_EVICT_NORMAL || m == MOD_L2_EVICT_FIRST ||
	       m == MOD_L2_EVICT_UNCHANGED;
}

/* A primary eviction priority, then at most a secondary one, which is .L2::evict_first or
 * .L2::evict_unchanged (ptxas 13.0 takes the primary's word again there). */
static bool policy_priorities(struct ck *c, const struct ir_insn *in)
{
	const char *name = ir_op_name(in->op);
	int n = 0;
	for (unsigned i = 0; i < in->nmods; i++) {
		enum ir_mod m = in->mods[i];
		if (!is_priority(m))
			continue;
		if (++n == 3) {
			ck_report(c, CHECK_POLICY_FORM, in->mod_spans[i],
				  "%s takes at most two eviction priorities (a primary "
				  "and a secondary one)", name);
			return false;
		}
		if (n == 2 && m != MOD_L2_EVICT_FIRST && m != MOD_L2_EVICT_UNCHANGED) {
			ck_report(c, CHECK_POLICY_FORM, in->mod_spans[i],
				  "'%s' cannot be the secondary eviction priority of %s "
				  "(only .L2::evict_first or .L2::evict_unchanged)", ir_mod_name(m),
				  name);
			return false;
		}
	}
	if (!n)
		ck_report(c, CHECK_POLICY_FORM, in->op_span,
			  "%s needs an eviction priority (such as '.L2::evict_last')", name);
	return n > 0;
}

/* The fraction: an .f32 (or .b32) register, or a constant that is in (0.0, 1.0] as an f32
 * (ptxas 13.0 rounds a 0d constant to f32 first). */
static void policy_fraction(struct ck *c, const struct ir_operand *o)
{
	if (o->kind == OPND_FIMM) {
		float f;
		if (o->fimm.is_f32) {
			uint32_t b = (uint32_t)o->fimm.bits;
			memcpy(&f, &b, 4);
		} else {
			double d;
			memcpy(&d, &o->fimm.bits, 8);
			f = (float)d;
		}
		if (!(f > 0.0f && f <= 1.0f))
			ck_report(c, CHECK_POLICY_FORM, o->span,
				  "the fraction of createpolicy.fractional must be in (0.0, 1.0] "
				  "(is %g)", (double)f);
		return;
	}
	enum ir_mod r = ck_reg_type(o);
	if (ck_is_sreg(o) || o->kind != OPND_REG || r == MOD_NONE || o->neg || !ck_reg_fits(r, MOD_F32))
		ck_report(c, CHECK_OPND_TYPE, o->span,
			  "the fraction of createpolicy.fractional must be an .f32 or .b32 "
			  "register, or a floating-point constant");
}

/* createpolicy.range's address: a .global one with .global, else generic (any variable);
 * ptxas 13.0 takes a 32-bit register either way. Then primary-size <= total-size, compared
 * as 32-bit values when both are constants. */
static void policy_range(struct ck *c, const struct ir_insn *in, const struct mods *ms)
{
	const struct ir_operand *o = &in->opnds[1], *p = &in->opnds[2], *t = &in->opnds[3];
	const struct ir_operand *b = o->kind == OPND_ADDR ? o->addr.base : NULL;
	bool generic = ms->by_group[G_SPACE] == MOD_NONE;
	bool var = b && b->kind == OPND_SYM && b->ref.sym && b->ref.sym->kind == SYM_VAR;
	if (!(b && ck_is_int_reg(b, 4)) && !(generic && var))
		ck_check_addr(c, in, o, 1, false, true);
	if (p->kind == OPND_IMM && t->kind == OPND_IMM && (uint32_t)p->imm > (uint32_t)t->imm)
		ck_report(c, CHECK_POLICY_FORM, p->span,
			  "the primary-size of createpolicy.range (%" PRIu32 ") exceeds its "
			  "total-size (%" PRIu32 ")", (uint32_t)p->imm, (uint32_t)t->imm);
}

/* createpolicy (ISA 9.7.9.18), once the operand kinds of its CK_OPND row passed. */
void ck_policy_check(struct ck *c, const struct ir_insn *in, const struct mods *ms)
{
	if (in->op == OP_CREATEPOLICY_CVT) {
		if (ms->by_group[G_OTHER] != MOD_L2)
			ck_report(c, CHECK_MOD_MISSING, in->op_span,
				     "createpolicy.cvt needs the cache level '.L2'");
		return;
	}
	if (!policy_priorities(c, in))
		return;
	if (in->op == OP_CREATEPOLICY_RANGE)
		policy_range(c, in, ms);
	else if (in->nopnds == 2)
		policy_fraction(c, &in->opnds[1]);
}

/* ld / st / atom / red with a variable address: the variable's state space must be the
 * instruction's (ptxas: "state space mismatch"); generic accesses take any variable. */
static void space_match_check(struct ck *c, const struct ir_insn *in)
{
	enum ir_mod space = MOD_NONE;
	for (unsigned i = 0; i < in->nmods; i++)
		if (ir_mod_kind(in->mods[i]) == MK_SPACE)
			space = in->mods[i];
	/* The address operand: first of st/red, second of ld/atom. */
	unsigned ai = in->op == OP_ST || in->op == OP_RED ? 0 : 1;
	if (in->nopnds > ai && in->opnds[ai].kind != OPND_ADDR) {
		ck_report(c, CHECK_OPND_KIND, in->opnds[ai].span,
			  "operand %u of %s must be an address in brackets", ai + 1,
			  ir_op_name(in->op));
		return;
	}
	if (in->nopnds > ai && !in->opnds[ai].addr.base && space != MOD_LOCAL) {
		ck_report(c, CHECK_ADDRESS, in->opnds[ai].span,
			  "%s%s cannot take an immediate address (only .local " "can)",
			  ir_op_name(in->op), ir_mod_name(space));
		return;
	}
	for (unsigned i = 0; i < in->nopnds; i++) {
		const struct ir_operand *o = &in->opnds[i];
		const struct ir_operand *b = o->kind == OPND_ADDR ? o->addr.base : NULL;
		if (b && b->kind == OPND_SYM && b->ref.sym && b->ref.sym->kind != SYM_VAR) {
			ck_report(c, CHECK_ADDRESS, b->span,
				     "'%.*s' is not a variable: an address operand names a "
				     "variable or an integer register", (int)b->ref.sym->name_len,
				     b->ref.sym->name);
			return;
		}
		if (b && b->kind == OPND_REG && !ck_is_sreg(b) &&
		    (!ck_is_int_type(ck_reg_type(b)) || ir_type_size(ck_reg_type(b)) < 2)) {
			ck_report(c, CHECK_ADDRESS, b->span,
				     "an address register must be an integer register");
			return;
		}
		if (b && (space == MOD_NONE || space == MOD_GLOBAL) && ck_is_int_reg(b, 4) &&
		    c->m->address_size != 32) {
			/* ptxas: 32-bit generic addressing is not supported (any target) */
			ck_report(c, CHECK_ADDRESS, b->span,
				     "a generic address needs a 64-bit register in a 64-bit "
				     "module (or write a state space such as '.shared')");
			return;
		}
	}
	if (space == MOD_NONE)
		return;
	for (unsigned i = 0; i < in->nopnds; i++) {
		const struct ir_operand *o = &in->opnds[i];
		if (o->kind != OPND_ADDR || !o->addr.base || o->addr.base->kind != OPND_SYM ||
		    !o->addr.base->ref.sym || o->addr.base->ref.sym->kind != SYM_VAR)
			continue;
		const struct ir_sym *y = o->addr.base->ref.sym;
		enum ir_mod vs = y->space;
		bool shared_v = vs == MOD_SHARED || vs == MOD_SHARED_CTA || vs == MOD_SHARED_CLUSTER;
		bool shared_i = space == MOD_SHARED || space == MOD_SHARED_CTA ||
				   space == MOD_SHARED_CLUSTER;
		bool param_i = space == MOD_PARAM || space == MOD_PARAM_ENTRY ||
				  space == MOD_PARAM_FUNC;
		if ((shared_v && shared_i) || vs == space || (param_i && vs == MOD_PARAM))
			continue;
		ck_report(c, CHECK_ADDRESS, o->addr.base->span,
			  "'%.*s' is in %s memory, not %s: the address does not " "match %s%s",
			  (int)y->name_len, y->name, ir_mod_name(vs), ir_mod_name(space),
			  ir_op_name(in->op), ir_mod_name(space));
	}
}

/* ld/st semantics, scope and cache words (CK_MEMMOD rows) and how they combine (ISA 9.7.9.8,
 * .9, as ptxas 13.0 applies them): .relaxed/.acquire/.release need a scope and a scope needs
 * one of them; .nc takes no ordering; .L2::evict_* only on 256-bit vectors; .L2::cache_hint
 * and only it adds a cache-policy operand; .const is read-only. Returns false if st.const. */
static bool ldst_mods_check(struct ck *c, const struct ir_insn *in)
{
	const char *name = ir_op_name(in->op);
	int sem = -1, scope = -1, nc = -1, evict = -1, vec = 1;
	enum ir_mod type = MOD_NONE;
	for (unsigned i = 0; i < in->nmods; i++) {
		enum ir_mod m = in->mods[i];
		enum ir_mod_kind k = ir_mod_kind(m);
		if (k == MK_VEC)
			vec = ir_mod_arg(m);
		if (k == MK_TYPE)
			type = m;
		if (in->op == OP_ST && m == MOD_CONST) {
			ck_report(c, CHECK_MOD_NOT_ALLOWED, in->mod_spans[i],
				     "st cannot write '.const' memory (it is read-only)");
			return false;
		}
		if (k != MK_SEM && k != MK_SCOPE && k != MK_CACHE)
			continue;
		for (unsigned j = 0; j < i; j++)
			if (k == MK_CACHE && in->mods[j] == m) {
				ck_report(c, CHECK_MOD_CONFLICT, in->mod_spans[i], "duplicate '%s' on %s",
					  ir_mod_name(m), name);
				return false;
			}
		/* prefetch sizes and cache hints: global (or generic) memory only (ptxas 13.0) */
		int at;
		enum ir_mod sp = space_of(in, &at);
		if ((m == MOD_L2_64B || m == MOD_L2_128B || m == MOD_L2_256B ||
		     m == MOD_L2_CACHE_HINT) && sp != MOD_NONE && sp != MOD_GLOBAL) {
			ck_report(c, CHECK_MOD_NOT_ALLOWED, in->mod_spans[i],
				  "'%s' on %s needs global memory (not '%s')", ir_mod_name(m), name,
				  ir_mod_name(sp));
			return false;
		}
		size_t r = 0, n = sizeof memmods / sizeof memmods[0];
		while (r < n && !(memmods[r].op == in->op && memmods[r].mod == m))
			r++;
		if (r == n) {
			ck_report(c, CHECK_MOD_NOT_ALLOWED, in->mod_spans[i],
				     "'%s' is not a valid qualifier for %s", ir_mod_name(m), name);
			continue;
		}
		ck_need(c, in->mod_spans[i], memmods[r].ptx, memmods[r].sm, "'%s' on %s", ir_mod_name(m),
			name);
		if (m == MOD_RELAXED || m == MOD_ACQUIRE || m == MOD_RELEASE ||
		    (m == MOD_VOLATILE && sem < 0))
			sem = (int)i;
		if (k == MK_SCOPE)
			scope = (int)i;
		if (m == MOD_NC)
			nc = (int)i;
		if (m == MOD_L2_EVICT_NORMAL || m == MOD_L2_EVICT_FIRST || m == MOD_L2_EVICT_LAST)
			evict = (int)i;
	}
	enum ir_mod sm_ = sem >= 0 ? in->mods[sem] : MOD_NONE;
	if (sem >= 0 && sm_ != MOD_VOLATILE && scope < 0)
		ck_report(c, CHECK_MEMORY_ORDER, in->mod_spans[sem],
			  "'%s' on %s requires a scope ('.cta', '.cluster', '.gpu' " "or '.sys')",
			  ir_mod_name(sm_), name);
	if (scope >= 0 && (sem < 0 || sm_ == MOD_VOLATILE))
		ck_report(c, CHECK_MEMORY_ORDER, in->mod_spans[scope],
			  "scope '%s' on %s needs '.relaxed' or %s", ir_mod_name(in->mods[scope]),
			  name, in->op == OP_LD ? "'.acquire'" : "'.release'");
	if (nc >= 0 && sem >= 0)
		ck_report(c, CHECK_MEMORY_ORDER, in->mod_spans[nc],
			  "'.nc' cannot be combined with '%s' (non-coherent loads are " "weak)",
			  ir_mod_name(sm_));
	if (evict >= 0 && !((vec == 8 && ir_type_size(type) == 4) ||
			       (vec == 4 && ir_type_size(type) == 8)))
		ck_report(c, CHECK_MEMORY_ORDER, in->mod_spans[evict],
			  "'%s' on %s needs a 256-bit vector ('.v8.b32' or " "'.v4.b64')",
			  ir_mod_name(in->mods[evict]), name);
	unsigned want = 2u + ck_has_mod(in, MOD_L2_CACHE_HINT);
	if (in->nopnds != want) {
		if (in->nopnds == 3)
			ck_report(c, CHECK_MEMORY_ORDER, in->opnds[2].span,
				     "a cache-policy operand needs '.L2::cache_hint' on %s", name);
		else
			ck_report(c, CHECK_OPND_COUNT, in->span, "%s%s takes %u operands (has %u)",
				     name, want == 3 ? ".L2::cache_hint" : "", want, in->nopnds);
	}
	return true;
}

/* ld/st data operand (ISA 9.7.9.8, .9): the type is one of .bN/.uN/.sN/.f32/.f64; the
 * register may be wider than the type (a .bN type takes any register, ptxas 13.0); vectors
 * have exactly N elements of at most 16 bytes in all, '_' only in loaded vectors. */
static bool ldst_elem(struct ck *c, const struct ir_insn *in, const struct ir_operand *o,
		      enum ir_mod t, bool load, const char *what)
{
	if (o->kind == OPND_REG && !ck_is_sreg(o)) {
		enum ir_mod r = ck_reg_type(o);
		bool bt = t == MOD_B8 || t == MOD_B16 || t == MOD_B32 || t == MOD_B64;
		bool ok = r != MOD_NONE && r != MOD_PRED && !o->neg &&
			     (bt ? ir_type_size(r) >= ir_type_size(t) ||
				   (t == MOD_B8 && ir_type_size(r) >= 2) : ck_reg_fits_wide(r, t));
		if (!ok)
			ck_report(c, CHECK_OPND_TYPE, o->span, "%s cannot %s a %s register as %s",
				     what, load ? "load into" : "store from", ir_mod_name(r),
				     ir_mod_name(t));
		return ok;
	}
	if (o->kind == OPND_SINK && load)
		return true;
	if (!load && o->kind == OPND_IMM && !ck_is_float_type(t))
		return true;
	if (!load && o->kind == OPND_FIMM &&
	    (t == MOD_F32 || t == MOD_F64 || (t == MOD_B32 && o->fimm.is_f32) ||
	     (t == MOD_B64 && !o->fimm.is_f32)))
		return true;
	ck_report(c, CHECK_OPND_KIND, o->span, "the data operand of %s must be a register%s", what,
		  load ? " (or '_' in a vector)" : " or a constant of its type");
	(void)in;
	return false;
}

static void ldst_data_check(struct ck *c, const struct ir_insn *in)
{
	bool load = in->op == OP_LD;
	enum ir_mod t = MOD_NONE;
	int nvec = 1;
	for (unsigned i = 0; i < in->nmods; i++) {
		enum ir_mod m = in->mods[i];
		if (ir_mod_kind(m) == MK_VEC)
			nvec = ir_mod_arg(m);
		if (ir_mod_kind(m) != MK_TYPE)
			continue;
		if (t != MOD_NONE) {
			ck_report(c, CHECK_INSN_TYPE, in->mod_spans[i],
				     "%s takes one type ('%s' and '%s')", ir_op_name(in->op),
				     ir_mod_name(t), ir_mod_name(m));
			return;
		}
		t = m;
		if (m == MOD_PRED || (ck_is_float_type(m) && m != MOD_F32 && m != MOD_F64)) {
			ck_report(c, CHECK_INSN_TYPE, in->mod_spans[i],
				     "'%s' is not a valid type for %s", ir_mod_name(m),
				     ir_op_name(in->op));
			return;
		}
	}
	if (t == MOD_NONE) {
		ck_report(c, CHECK_INSN_TYPE, in->op_span, "%s needs a type (such as '.u32')",
			  ir_op_name(in->op));
		return;
	}
	if (in->nopnds < 2 || in->nopnds > 3)
		return;
	char what[48];
	ck_spell(what, sizeof what, ir_op_name(in->op), ir_mod_name(t), "");
	const struct ir_operand *o = &in->opnds[load ? 0 : 1];
	if (t == MOD_B128) {
		/* ptxas 13.0: a .b128 register (PTX 8.3), or an integer constant stored; no
		 * vector (more than 128 bits) */
		if (nvec > 1)
			ck_report(c, CHECK_OPND_TYPE, o->span, "%s.v%d.b128 moves %d bytes; at most 16",
				  ir_op_name(in->op), nvec, nvec * 16);
		else if (nvec == 1 && ck_reg_type(o) != MOD_B128 && (load || o->kind != OPND_IMM))
			ck_report(c, CHECK_OPND_TYPE, o->span,
				  "the data operand of %s must be a .b128 register%s", what,
				     load ? "" : " or an integer constant");
		return;
	}
	if (nvec == 1 && o->kind == OPND_VEC && o->vec.n == 1)
		o = &o->vec.elems[0];   /* { %r2 }: Triton's spelling of a scalar */
	if (nvec == 1) {
		if (o->kind == OPND_SINK && load)
			ck_report(c, CHECK_OPND_KIND, o->span,
				     "%s cannot discard the loaded value ('_')", what);
		else
			ldst_elem(c, in, o, t, load, what);
		return;
	}
	if (o->kind != OPND_VEC) {
		ck_report(c, CHECK_OPND_TYPE, o->span, "%s.v%d needs a vector of %d registers", what,
			  nvec, nvec);
		return;
	}
	if ((int)o->vec.n != nvec) {
		ck_report(c, CHECK_OPND_TYPE, o->span, "%s.v%d needs %d elements (has %u)", what, nvec,
			  nvec, o->vec.n);
		return;
	}
	if (nvec * ir_type_size(t) > 16) {
		ck_report(c, CHECK_OPND_TYPE, o->span, "%s.v%d moves %d bytes; at most 16", what, nvec,
			  nvec * ir_type_size(t));
		return;
	}
	/* ptxas 13.0 checks vector elements by width only (an .f32 register passes for .u32) */
	enum ir_mod et = t == MOD_U8 || t == MOD_S8 ? MOD_B8 : t == MOD_U16 || t == MOD_S16 ? MOD_B16
			    : t == MOD_U32 || t == MOD_S32 ? MOD_B32 : t == MOD_U64 || t == MOD_S64
			    ? MOD_B64 : t;
	for (unsigned k = 0; k < o->vec.n; k++)
		if (!ldst_elem(c, in, &o->vec.elems[k], et, load, what))
			return;
}

/* atom, red: the operation and type, then the state space of a named variable. */
void ck_atom_red_check(struct ck *c, const struct ir_insn *in, const struct mods *ms)
{
	(void)ms;
	atom_check(c, in);
	space_match_check(c, in);
}

/* ld, st: their qualifiers, the state space of a named variable, the data operands. */
void ck_ldst_check(struct ck *c, const struct ir_insn *in, const struct mods *ms)
{
	(void)ms;
	if (!ldst_mods_check(c, in))
		return;
	space_match_check(c, in);
	ldst_data_check(c, in);
}

/* applypriority{.global}.L2::evict_normal [a], 128 and discard{.global}.L2 [a], 128 (ISA
 * 9.7.9.16, .17; PTX 7.4, sm_80). The words are read from the text, as ptxi drops the
 * ones it does not know on an instruction it does not model; ptxas takes each once. */
void ck_cachectl_check(struct ck *c, const struct ir_insn *in, const struct mods *ms)
{
	(void)ms;
	const char *name = ir_op_name(in->op);
	const char *level = in->op == OP_APPLYPRIORITY ? "L2::evict_normal" : "L2";
	if (!ck_need(c, in->op_span, 74, 80, "%s", name))
		return;
	struct ck_words ws;
	ck_words(c, in, 1, &ws);
	bool global = false, lev = false;
	for (unsigned i = 0; i < ws.count; i++) {
		struct src_span s = {(uint32_t)(ws.w[i] - c->m->file->text) - 1,
				     (uint32_t)ws.n[i] + 1};
		bool *seen = ck_word_is(&ws, i, "global") ? &global
			     : ck_word_is(&ws, i, level) ? &lev : NULL;
		if (!seen) {
			ck_report(c, CHECK_MOD_NOT_ALLOWED, s,
				  "'.%.*s' is not allowed on %s (it takes '.global' and '.%s')",
				  (int)ws.n[i], ws.w[i], name, level);
			return;
		}
		if (*seen) {
			ck_report(c, CHECK_MOD_CONFLICT, s, "duplicate '.%.*s' on %s", (int)ws.n[i],
				  ws.w[i], name);
			return;
		}
		*seen = true;
	}
	if (!lev) {
		ck_report(c, CHECK_MOD_NOT_ALLOWED, in->op_span, "%s needs '.%s'", name, level);
		return;
	}
	if (in->nopnds != 2) {
		ck_report(c, CHECK_OPND_COUNT, in->span,
			  "%s takes 2 operands, an address and the size 128 (has %u)", name,
			  in->nopnds);
		return;
	}
	if (!ck_check_addr(c, in, &in->opnds[0], 0, false, true))
		return;
	const struct ir_operand *n = &in->opnds[1];
	if (n->kind != OPND_IMM || n->imm != 128)
		ck_report(c, CHECK_OPND_KIND, n->span, "the size of %s must be the constant 128",
			  name);
}
