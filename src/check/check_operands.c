/*
 * check_operands.c - operand helpers of the static checks: register types, addresses, and
 * the operand kinds of CK_OPND rows (checkrules.def).
 */

#include "check_priv.h"

/* The declared type of a register operand (not a special register), or MOD_NONE. */
enum ir_mod ck_reg_type(const struct ir_operand *o)
{
	if (o->kind != OPND_REG || !o->ref.sym)
		return MOD_NONE;
	const struct ir_sym *y = o->ref.sym;
	if (y->kind != SYM_REG && y->kind != SYM_REGRANGE)
		return MOD_NONE;
	if (y->vec > 1 && o->ref.comp < 0)
		return MOD_NONE;
	return y->type;
}

bool ck_is_sreg(const struct ir_operand *o)
{
	return o->kind == OPND_REG && o->ref.sym && o->ref.sym->kind == SYM_SREG;
}

bool ck_is_int_type(enum ir_mod t)
{
	return t != MOD_NONE && t != MOD_PRED && !ir_type_is_float(t);
}

/* An integer register of `bytes` bytes (any of .bN .uN .sN). */
bool ck_is_int_reg(const struct ir_operand *o, int bytes)
{
	enum ir_mod t = ck_reg_type(o);
	return ck_is_int_type(t) && ir_type_size(t) == bytes;
}

bool ck_is_pred_reg(const struct ir_operand *o)
{
	return ck_reg_type(o) == MOD_PRED;
}

static const char *kind_text(enum ck_kind k)
{
	switch (k) {
	case K_MBAR: return "an address in shared memory";
	case K_U32: return "a 32-bit integer register or a constant";
	case K_U64: return "a 64-bit integer register or a constant";
	case K_STATE: return "a 64-bit integer register or '_'";
	case K_PRED_D: return "a predicate register";
	case K_U32_D: return "a 32-bit integer register";
	case K_U64_D: return "a 64-bit integer register";
	case K_TY_D: return "an integer register of the instruction type's width";
	case K_TY_A: return "a register of the instruction type's width, a shared variable or a constant";
	case K_ELECT: return "'d|p' (a 32-bit register or '_', and a predicate register)";
	case K_IMM: return "an integer constant";
	default: return "nothing";
	}
}

/* Is a memory operand acceptable as an mbarrier/bulk address? Reports and returns false
 * otherwise. `spaces_ok` tells whether a variable of state space `v` may be named. */
static bool has_space(const struct ir_insn *in)
{
	for (unsigned i = 0; i < in->nmods; i++)
		if (ir_mod_kind(in->mods[i]) == MK_SPACE)
			return true;
	return false;
}

bool ck_check_addr(struct ck *c, const struct ir_insn *in, const struct ir_operand *o,
		   int idx, bool want_shared, bool want_global)
{
	const char *name = ir_op_name(in->op);
	if (o->kind != OPND_ADDR) {
		ck_report(c, CHECK_OPND_KIND, o->span,
			  "operand %d of %s must be an address in brackets", idx + 1, name);
		return false;
	}
	const struct ir_operand *b = o->addr.base;
	if (!b) {
		ck_report(c, CHECK_ADDRESS, o->span,
			  "%s cannot take an immediate address (only .local can)", name);
		return false;
	}
	if (b->kind == OPND_SYM && b->ref.sym) {
		const struct ir_sym *y = b->ref.sym;
		if (y->kind != SYM_VAR) {
			ck_report(c, CHECK_ADDRESS, b->span, "'%.*s' is not a variable",
				  (int)y->name_len, y->name);
			return false;
		}
		bool shared = y->space == MOD_SHARED || y->space == MOD_SHARED_CTA ||
			      y->space == MOD_SHARED_CLUSTER;
		bool global = y->space == MOD_GLOBAL;
		if ((shared && want_shared) || (global && want_global))
			return true;
		ck_report(c, CHECK_ADDRESS, b->span,
			  "operand %d of %s must be in %s memory ('%.*s' is %s)", idx + 1, name,
			  want_shared ? "shared" : "global", (int)y->name_len, y->name,
			  ir_mod_name(y->space));
		return false;
	}
	if (b->kind == OPND_REG) {
		enum ir_mod t = ck_reg_type(b);
		if (!ck_is_int_type(t) || (ir_type_size(t) != 4 && ir_type_size(t) != 8)) {
			ck_report(c, CHECK_ADDRESS, b->span,
				  "an address register must be a 32- or 64-bit integer");
			return false;
		}
		if (ir_type_size(t) == 4 && !has_space(in) && c->m->address_size != 32 &&
		    in->op != OP_CP_ASYNC_MBAR_ARRIVE) {
			/* ptxas: 32-bit generic addressing is not supported (any target); it takes
			 * cp.async.mbarrier.arrive's 32-bit register as a shared address. */
			ck_report(c, CHECK_ADDRESS, b->span,
				  "a generic address needs a 64-bit register in a 64-bit "
				  "module (or write a state space such as '.shared')");
			return false;
		}
	}
	return true;
}

/* Check one operand against a kind; `ty` is the instruction type (for K_TY_*). */
void ck_check_kind(struct ck *c, const struct ir_insn *in, int i, enum ck_kind k,
		   enum ir_mod ty)
{
	const struct ir_operand *o = &in->opnds[i];
	const char *name = ir_op_name(in->op);
	bool ok = true;
	if (ck_is_sreg(o) && k != K_NONE) {
		ck_report(c, CHECK_SREG, o->span,
			  "a special register cannot be an operand of %s (read it with mov)", name);
		return;
	}
	switch (k) {
	case K_NONE:
		return;
	case K_MBAR:
		ck_check_addr(c, in, o, i, true, false);
		return;
	case K_U32:
		ok = o->kind == OPND_IMM || ck_is_int_reg(o, 4);
		break;
	case K_U64:
		ok = o->kind == OPND_IMM || ck_is_int_reg(o, 8);
		break;
	case K_STATE:
		ok = o->kind == OPND_SINK || ck_is_int_reg(o, 8);
		break;
	case K_PRED_D:
		ok = ck_is_pred_reg(o) && !o->neg;
		break;
	case K_U32_D:
		ok = ck_is_int_reg(o, 4);
		break;
	case K_U64_D:
		ok = ck_is_int_reg(o, 8);
		break;
	case K_TY_D:
		ok = ck_is_int_reg(o, ir_type_size(ty));
		break;
	case K_TY_A: {
		/* a shared variable, alone or plus a constant (sbuf+8, kept as an address) */
		const struct ir_operand *v = o->kind == OPND_ADDR && o->bare ? o->addr.base : o;
		ok = ck_is_int_reg(o, ir_type_size(ty)) || o->kind == OPND_IMM ||
		     (v && v->kind == OPND_SYM && v->ref.sym && v->ref.sym->kind == SYM_VAR &&
		      (v->ref.sym->space == MOD_SHARED || v->ref.sym->space == MOD_SHARED_CTA ||
		       v->ref.sym->space == MOD_SHARED_CLUSTER));
		break;
	}
	case K_ELECT:
		ok = o->kind == OPND_DUAL && o->vec.n == 2 &&
		     (o->vec.elems[0].kind == OPND_SINK || ck_is_int_reg(&o->vec.elems[0], 4)) &&
		     ck_is_pred_reg(&o->vec.elems[1]) && !o->vec.elems[1].neg;
		break;
	case K_IMM:
		ok = o->kind == OPND_IMM;
		break;
	}
	if (!ok)
		ck_report(c, CHECK_OPND_KIND, o->span, "operand %d of %s must be %s", i + 1, name,
			  kind_text(k));
}
