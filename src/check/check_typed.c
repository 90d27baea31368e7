/*
 * check_typed.c - the typed instructions (CK_ALU / CK_AMOD / CK_NEED rows of
 * checkrules.def): the types each opcode takes, the modifiers allowed per type, the ones
 * mandatory with some types, and each operand against the instruction type.
 */

#include "check_priv.h"

#include <stdio.h>
#include <string.h>

/* CK_ALU rows: the types and operands of one opcode (with one variant modifier). */
struct ck_alurow {
	enum ir_op op;
	enum ir_mod variant;
	uint32_t types;
	const char *sig;
	uint16_t ptx, sm;
};
static const struct ck_alurow alurows[] = {
#define CK_ALU(op, variant, types, sig, ptx, sm) {OP_##op, MOD_##variant, types, sig, ptx, sm},
#include "checkrules.def"
};

/* CK_AMOD rows: a modifier allowed on a typed opcode, for some of its types. */
struct ck_amod {
	enum ir_op op;
	enum ir_mod mod;
	uint32_t types;
	uint16_t ptx, sm;
};
static const struct ck_amod amods[] = {
#define CK_AMOD(op, mod, types, ptx, sm) {OP_##op, MOD_##mod, types, ptx, sm},
#include "checkrules.def"
};

/* CK_NEED rows: one of `any` is mandatory with these types. */
struct ck_needrow {
	enum ir_op op;
	uint32_t types;
	enum ir_mod when;       /* the row applies only with this modifier (NONE: always)    */
	enum ir_mod any[6];
};
static const struct ck_needrow needrows[] = {
#define CK_NEED(op, types, m1, m2, m3, m4, m5, m6)                                           \
	{OP_##op, types, MOD_NONE, {MOD_##m1, MOD_##m2, MOD_##m3, MOD_##m4, MOD_##m5, MOD_##m6}},
#define CK_NEED_WITH(op, types, when, m)                                                     \
	{OP_##op, types, MOD_##when, {MOD_##m, MOD_NONE, MOD_NONE, MOD_NONE, MOD_NONE, MOD_NONE}},
#include "checkrules.def"
};

/* "add.u32", "mul.wide.s16": the opcode, its variant word and the instruction type. */
static const char *typed_name(char *buf, size_t cap, enum ir_op op, enum ir_mod variant,
			      enum ir_mod ty)
{
	return ck_spell(buf, cap, ir_op_name(op), variant ? ir_mod_name(variant) : "",
			ty ? ir_mod_name(ty) : "");
}

bool ck_is_float_type(enum ir_mod t)
{
	return t != MOD_NONE && ir_type_is_float(t);
}

/* Twice the width, same signedness (the .wide destination of mul/mad). */
static enum ir_mod wide_type(enum ir_mod t)
{
	switch (t) {
	case MOD_U16: return MOD_U32;
	case MOD_S16: return MOD_S32;
	case MOD_U32: return MOD_U64;
	case MOD_S32: return MOD_S64;
	case MOD_B16: return MOD_B32;
	case MOD_B32: return MOD_B64;
	default: return MOD_NONE;
	}
}

/* ISA 6.4.1: a register of declared type `r` may stand for an operand of type `t` (same
 * size): .bN fits everything of N bits, .uN/.sN fit each other and .bN, a floating-point
 * type takes its own registers and .bN ones, .pred only .pred. */
bool ck_reg_fits(enum ir_mod r, enum ir_mod t)
{
	if (r == MOD_PRED || t == MOD_PRED)
		return r == t;
	if (ir_type_size(r) != ir_type_size(t))
		return false;
	bool rb = r == MOD_B8 || r == MOD_B16 || r == MOD_B32 || r == MOD_B64 || r == MOD_B128;
	bool tb = t == MOD_B8 || t == MOD_B16 || t == MOD_B32 || t == MOD_B64 || t == MOD_B128;
	if (rb || tb)
		return true;
	if (ck_is_float_type(t) || ck_is_float_type(r))
		return r == t;
	return true;
}

const char *ck_type_words(enum ir_mod t)
{
	if (t == MOD_PRED)
		return "a predicate register";
	if (ck_is_float_type(t))
		return "a register of that type or a .bN register";
	return "an integer or .bN register";
}

bool ck_has_mod(const struct ir_insn *in, enum ir_mod m)
{
	for (unsigned i = 0; i < in->nmods; i++)
		if (in->mods[i] == m)
			return true;
	return false;
}

/* One operand of a typed instruction against its signature letter. `what` is the
 * instruction's full name (add.u32); ty the instruction type. */
static void typed_operand(struct ck *c, const struct ir_insn *in, int i, char letter,
			  enum ir_mod ty, const char *what)
{
	const struct ir_operand *o = &in->opnds[i];
	if (letter == 'R' || letter == 'V') {
		/* d|p: the destination and, optionally, a predicate (shfl.sync, match.all) */
		letter = letter == 'R' ? 'd' : 'U';
		if (o->kind == OPND_DUAL && o->vec.n == 2) {
			const struct ir_operand *p = &o->vec.elems[1];
			if (!ck_is_pred_reg(p) || p->neg)
				ck_report(c, CHECK_OPND_KIND, p->span,
					  "the second destination of %s must be a predicate "
					  "register", what);
			o = &o->vec.elems[0];
		}
	} else if (o->kind == OPND_DUAL && letter != 'Q') {
		ck_report(c, CHECK_OPND_KIND, o->span,
			  "%s writes one destination ('d|p' is not allowed)", what);
		return;
	}
	enum ir_mod want = ty;
	bool dest = letter == 'd' || letter == 'D' || letter == 'U' || letter == 'P';
	switch (letter) {
	case 'D': case 'A': want = wide_type(ty); break;
	case 'u': case 'U': want = MOD_U32; break;
	case 'p': case 'P': want = MOD_PRED; break;
	default: break;
	}
	if (ck_is_sreg(o))
		return;         /* ck_check_sreg_use reports it */
	if (letter == 'Q') {
		if (o->kind == OPND_DUAL) {
			for (unsigned k = 0; k < o->vec.n; k++) {
				const struct ir_operand *e = &o->vec.elems[k];
				if (e->kind != OPND_SINK && (!ck_is_pred_reg(e) || e->neg))
					ck_report(c, CHECK_OPND_KIND, e->span,
						  "the destinations of %s must be predicate "
						  "registers or '_'", what);
			}
			return;
		}
		if (o->kind == OPND_SINK)
			return;
		letter = 'P';
		dest = true;
		want = MOD_PRED;
	}
	if (in->op == OP_MOV && o->kind == OPND_VEC) {
		/* pack / unpack: mov.b64 %rd, {%r1, %r2} and the reverse (ISA 9.7.9.10). */
		int bits = 0;
		if (ck_has_mod(in, MOD_V2) || ck_has_mod(in, MOD_V4))
			return;         /* vector mov: element-wise, not modelled */
		if (ty != MOD_B16 && ty != MOD_B32 && ty != MOD_B64 && ty != MOD_B128) {
			ck_report(c, CHECK_OPND_TYPE, o->span,
				  "%s cannot pack or unpack a vector (use mov.b%d)", what,
				  ir_type_size(ty) * 8);
			return;
		}
		int width = 0; /* ptxas: the elements have one width */
		for (unsigned k = 0; k < o->vec.n; k++) {
			const struct ir_operand *e = &o->vec.elems[k];
			enum ir_mod r = ck_reg_type(e);
			if (e->kind == OPND_SINK && dest && o->vec.n) {
				bits += ir_type_size(ty) * 8 / (int)o->vec.n;
				continue;
			}
			if (e->kind != OPND_REG || r == MOD_NONE || r == MOD_PRED) {
				ck_report(c, CHECK_OPND_KIND, e->span,
					  "the elements of a %s vector must be registers", what);
				return;
			}
			if (width && ir_type_size(r) != width) {
				ck_report(c, CHECK_OPND_TYPE, e->span,
					  "the elements of a %s vector must have one width (%d and %d "
					  "bits)", what, width * 8, ir_type_size(r) * 8);
				return;
			}
			width = ir_type_size(r);
			bits += ir_type_size(r) * 8;
		}
		if (bits != ir_type_size(ty) * 8)
			ck_report(c, CHECK_OPND_TYPE, o->span,
				  "the vector of %s has %d bits; %s moves %d", what, bits, what,
				  ir_type_size(ty) * 8);
		return;
	}
	if (letter == 'm') {
		/* mov source: also the address of a variable or function (plus a constant:
		 * `gbuf+8`, an unbracketed address). */
		if (o->kind == OPND_ADDR && o->bare && o->addr.base)
			o = o->addr.base;
		if (o->kind == OPND_SYM && o->ref.sym &&
		    (o->ref.sym->kind == SYM_VAR || o->ref.sym->kind == SYM_FUNC)) {
			const struct ir_sym *y = o->ref.sym;
			bool shared = y->kind == SYM_VAR && (y->space == MOD_SHARED ||
				      y->space == MOD_SHARED_CTA || y->space == MOD_SHARED_CLUSTER);
			if (ck_is_float_type(ty) || ty == MOD_PRED)
				ck_report(c, CHECK_ADDRESS, o->span,
					  "the address of '%.*s' needs an integer mov, not %s",
					  (int)y->name_len, y->name, what);
			else if (!shared && y->kind == SYM_VAR && y->space == MOD_GLOBAL &&
				 ir_type_size(ty) == 4 && c->m->address_size != 32)
				/* ptxas: "32-Bit compilation is no longer supported" (.global only,
				 * and 16-bit movs pass: ptxas 13.0's own rule) */
				ck_report(c, CHECK_ADDRESS, o->span,
					  "the address of '%.*s' is 64 bits wide: %s would "
					  "truncate it (only .shared addresses fit 32 bits)",
					  (int)y->name_len, y->name, what);
			return;
		}
		letter = 'a';
	}
	if (letter == 'i') {
		if (o->kind != OPND_IMM)
			ck_report(c, CHECK_OPND_KIND, o->span,
				  "operand %d of %s must be an integer constant", i + 1, what);
		return;
	}
	switch (o->kind) {
	case OPND_REG: {
		enum ir_mod r = ck_reg_type(o);
		if (r == MOD_NONE) {
			ck_report(c, CHECK_OPND_KIND, o->span,
				  "operand %d of %s must be a scalar register", i + 1, what);
			return;
		}
		if (o->neg && want != MOD_PRED) {
			ck_report(c, CHECK_OPND_KIND, o->span,
				  "operand %d of %s cannot be negated with '!'", i + 1, what);
			return;
		}
		if (o->neg && dest) {
			ck_report(c, CHECK_OPND_KIND, o->span,
				  "the destination of %s cannot be negated with '!'", what);
			return;
		}
		/* ptxas 13.0 quirk: a .f16x2 register passes for any 32-bit integer/bit operand
		 * of the instruction type (or its .wide), even for a .pred one (not .f32). */
		if (r == MOD_F16X2 && strchr("daDA", letter) &&
		    (want == MOD_PRED || (ir_type_size(want) == 4 && !ck_is_float_type(want))))
			return;
		if (r != MOD_PRED && want != MOD_PRED && ir_type_size(r) != ir_type_size(want)) {
			ck_report(c, CHECK_OPND_TYPE, o->span,
				  "operand %d of %s is a %d-bit register; expected %d bits", i + 1,
				  what, ir_type_size(r) * 8, ir_type_size(want) * 8);
			return;
		}
		if (!ck_reg_fits(r, want))
			ck_report(c, CHECK_OPND_TYPE, o->span,
				  "operand %d of %s is a %s register; expected %s%s", i + 1, what,
				  ir_mod_name(r), ck_type_words(want),
				  want == ty || want == MOD_PRED ? "" : " of the operand's width");
		return;
	}
	case OPND_SINK:
		ck_report(c, CHECK_OPND_KIND, o->span,
			  dest ? "%s cannot discard its result ('_' is not allowed)"
			       : "'_' cannot be a source operand of %s",
			  what);
		return;
	case OPND_IMM:
		if (dest)
			break;
		if (ck_is_float_type(want))
			ck_report(c, CHECK_OPND_TYPE, o->span,
				  "operand %d of %s is an integer constant; expected a "
				  "floating-point constant such as 0f3F800000", i + 1, what);
		return;
	case OPND_FIMM:
		if (dest)
			break;
		if (want == MOD_F32 || want == MOD_F64)
			return;
		if ((want == MOD_B32 && o->fimm.is_f32) || (want == MOD_B64 && !o->fimm.is_f32))
			return;
		if (want == MOD_B32 || want == MOD_B64)
			ck_report(c, CHECK_OPND_TYPE, o->span,
				  "operand %d of %s must be a %s literal to fill %d bits", i + 1, what,
				  want == MOD_B32 ? "0f (32-bit)" : "0d (64-bit)",
				  ir_type_size(want) * 8);
		else
			ck_report(c, CHECK_OPND_TYPE, o->span,
				  "operand %d of %s is a floating-point constant; %s takes " "%s",
				  i + 1, what, what,
				  ck_is_float_type(want) ? "no 0f/0d literals" : "integer constants");
		return;
	default:
		break;
	}
	ck_report(c, CHECK_OPND_KIND, o->span, "operand %d of %s must be %s", i + 1, what,
		  dest ? "a register" : "a register or a constant");
}

/* The instruction type of a typed instruction, or MOD_NONE if absent / repeated (reported). */
static enum ir_mod single_type(struct ck *c, const struct ir_insn *in, int *at,
			       enum ir_mod natural)
{
	enum ir_mod ty = MOD_NONE;
	*at = -1;
	for (unsigned i = 0; i < in->nmods; i++) {
		if (ir_mod_kind(in->mods[i]) != MK_TYPE)
			continue;
		if (ty != MOD_NONE) {
			ck_report(c, CHECK_INSN_TYPE, in->mod_spans[i],
				  "%s takes one instruction type ('%s' and '%s')", ir_op_name(in->op),
				  ir_mod_name(ty), ir_mod_name(in->mods[i]));
			*at = -2;
			return MOD_NONE;
		}
		ty = in->mods[i];
		*at = (int)i;
	}
	if (ty == MOD_NONE)
		ck_report(c, CHECK_INSN_TYPE, in->op_span,
			  "%s needs an instruction type (such as '%s')", ir_op_name(in->op),
			  ir_mod_name(natural));
	return ty;
}

/* "'.rn', '.rz', '.rm' or '.rp'" into buf. */
void ck_list_mods(char *buf, size_t cap, const enum ir_mod *ms, int n)
{
	size_t k = 0;
	buf[0] = '\0';
	for (int i = 0; i < n && k < cap; i++)
		k += (size_t)snprintf(buf + k, cap - k, "%s'%s'", i == 0 ? "" : i == n - 1 ? " or "
				      : ", ", ir_mod_name(ms[i]));
}

/* Opcodes with CK_ALU rows: instruction type, variant, modifiers and operand widths. */
/* The .lo/.hi/.wide of mul, mad, mul24 and mad24 leads their modifiers (ptxas 13.0 refuses
 * mad.cc.lo.u32 and mul.u32.hi); the variants of vote, shfl, redux and match may stand
 * anywhere. */
static bool variant_leads(enum ir_op op)
{
	return op == OP_MUL || op == OP_MAD || op == OP_MUL24 || op == OP_MAD24;
}

void ck_typed_check(struct ck *c, const struct ir_insn *in)
{
	const struct ck_slice *rs = &c->alu[in->op], *ms = &c->amod[in->op];
	const char *name = ir_op_name(in->op);
	char full[64];
	/* The variant word (.lo/.hi/.wide) selects the rows. */
	enum ir_mod variant = MOD_NONE;
	for (unsigned i = 0; i < in->nmods; i++)
		for (unsigned k = rs->first; k < rs->first + rs->n; k++)
			if (alurows[k].variant != MOD_NONE && alurows[k].variant == in->mods[i]) {
				if (variant == in->mods[i]) {
					ck_report(c, CHECK_MOD_CONFLICT, in->mod_spans[i],
						  "duplicate '%s' on %s", ir_mod_name(variant), name);
					return;
				}
				if (variant != MOD_NONE) {
					ck_report(c, CHECK_MOD_CONFLICT, in->mod_spans[i],
						  "'%s' cannot be combined with '%s' " "on %s",
						  ir_mod_name(in->mods[i]), ir_mod_name(variant), name);
					return;
				}
				if (i && variant_leads(in->op)) {
					ck_report(c, CHECK_MOD_ORDER, in->mod_spans[i],
						  "'%s' must come right after '%s'",
						  ir_mod_name(in->mods[i]), name);
					return;
				}
				variant = in->mods[i];
				break;
			}
	int tat;
	/* The first type of the opcode's first row, for the message. */
	enum ir_mod natural = MOD_B32;
	for (int t = MOD_PRED; t < 32 && t < MOD__COUNT; t++)
		if (alurows[rs->first].types & T_BIT(t)) {
			natural = (enum ir_mod)t;
			if (ir_type_size(natural) == 4)
				break;
		}
	enum ir_mod ty = single_type(c, in, &tat, natural);
	if (ty == MOD_NONE)
		return;
	struct src_span tspan = in->mod_spans[tat];
	const struct ck_alurow *row = NULL;
	bool variant_known = false;
	for (unsigned k = rs->first; k < rs->first + rs->n; k++)
		if (alurows[k].variant == variant) {
			variant_known = true;
			if (alurows[k].types & T_BIT(ty)) {
				row = &alurows[k];
				break;
			}
		}
	typed_name(full, sizeof full, in->op, variant, ty);
	if (!row) {
		/* Would another variant take this type?  (mul.s32 needs .lo/.hi/.wide) */
		enum ir_mod alts[6];
		int n = 0;
		for (unsigned k = rs->first; k < rs->first + rs->n && n < 6; k++)
			if ((alurows[k].types & T_BIT(ty)) && alurows[k].variant != MOD_NONE &&
			    (n == 0 || alts[n - 1] != alurows[k].variant))
				alts[n++] = alurows[k].variant;
		if (n && variant == MOD_NONE) {
			char l[96];
			ck_list_mods(l, sizeof l, alts, n);
			ck_report(c, CHECK_MOD_MISSING, in->op_span, "%s%s requires %s", name,
				  ir_mod_name(ty), l);
		} else if (!variant_known) {
			/* every variant of the opcode: "shfl.sync needs '.up', '.down', ..." */
			n = 0;
			for (unsigned k = rs->first; k < rs->first + rs->n && n < 6; k++) {
				bool seen = false;
				for (int j = 0; j < n; j++)
					seen |= alts[j] == alurows[k].variant;
				if (!seen && alurows[k].variant != MOD_NONE)
					alts[n++] = alurows[k].variant;
			}
			char l[96];
			ck_list_mods(l, sizeof l, alts, n);
			ck_report(c, CHECK_MOD_MISSING, in->op_span, "%s needs %s", name, l);
		} else {
			ck_report(c, CHECK_INSN_TYPE, tspan, "'%s' is not a valid type for %s%s",
				  ir_mod_name(ty), name, variant ? ir_mod_name(variant) : "");
		}
		return;
	}
	ck_need(c, tspan, row->ptx, row->sm, "%s", full);
	/* Modifiers: each must have a CK_AMOD row covering the type; one rounding at most. */
	int rnd = -1;
	bool bad = false;
	for (unsigned i = 0; i < in->nmods; i++) {
		enum ir_mod m = in->mods[i];
		struct src_span s = in->mod_spans[i];
		if (ir_mod_kind(m) == MK_TYPE || m == variant)
			continue;
		for (unsigned j = 0; j < i; j++)
			if (in->mods[j] == m) {
				ck_report(c, CHECK_MOD_CONFLICT, s, "duplicate '%s' on %s",
					  ir_mod_name(m), full);
				bad = true;
				goto next;
			}
		/* The row that covers the type, else any row of the modifier (for the message). */
		const struct ck_amod *a = NULL;
		for (unsigned k = ms->first; k < ms->first + ms->n; k++)
			if (amods[k].mod == m && (!a || (amods[k].types & T_BIT(ty))))
				a = &amods[k];
		if (!a) {
			ck_report(c, CHECK_MOD_NOT_ALLOWED, s, "'%s' is not allowed on %s",
				  ir_mod_name(m), name);
			bad = true;
			continue;
		}
		if (!(a->types & T_BIT(ty))) {
			if (ir_mod_kind(m) == MK_ROUND)
				ck_report(c, CHECK_ROUNDING, s, "%s takes no rounding modifier ('%s')",
					  full, ir_mod_name(m));
			else
				ck_report(c, CHECK_MOD_NOT_ALLOWED, s, "'%s' does not apply to %s",
					  ir_mod_name(m), full);
			bad = true;
			continue;
		}
		if (ir_mod_kind(m) == MK_ROUND) {
			if (rnd >= 0) {
				ck_report(c, CHECK_MOD_CONFLICT, s,
					  "'%s' cannot be combined with '%s' on %s", ir_mod_name(m),
					  ir_mod_name(in->mods[rnd]), full);
				bad = true;
				continue;
			}
			rnd = (int)i;
		}
		ck_need(c, s, a->ptx, a->sm, "'%s' on %s", ir_mod_name(m), full);
	next:;
	}
	if (bad)
		return;
	const struct ck_slice *ns = &c->needs[in->op];
	for (unsigned k = ns->first; k < ns->first + ns->n; k++) {
		const struct ck_needrow *nr = &needrows[k];
		if (!(nr->types & T_BIT(ty)) || (nr->when && !ck_has_mod(in, nr->when)))
			continue;
		int n = 0;
		bool found = false, all_rnd = true;
		for (; n < 6 && nr->any[n] != MOD_NONE; n++) {
			found |= ck_has_mod(in, nr->any[n]);
			all_rnd &= ir_mod_kind(nr->any[n]) == MK_ROUND;
		}
		if (found)
			continue;
		char l[128];
		ck_list_mods(l, sizeof l, nr->any, n);
		if (nr->when)
			ck_report(c, CHECK_MOD_MISSING, in->op_span, "%s%s requires %s", full,
				  ir_mod_name(nr->when), l);
		else if (all_rnd)
			ck_report(c, CHECK_ROUNDING, in->op_span,
				  "%s requires a rounding modifier (%s)", full, l);
		else
			ck_report(c, CHECK_MOD_MISSING, in->op_span, "%s requires %s", full, l);
		return;
	}
	const char *sig = row->sig;
	if (in->op == OP_SETP) {
		bool cmp = false, boolop = false;
		for (unsigned i = 0; i < in->nmods; i++) {
			cmp |= ir_mod_kind(in->mods[i]) == MK_CMP || in->mods[i] == MOD_LO ||
			       in->mods[i] == MOD_HI;  /* .lo/.hi are words of mul too */
			boolop |= in->mods[i] == MOD_AND || in->mods[i] == MOD_OR ||
				  in->mods[i] == MOD_XOR;
		}
		if (!cmp) {
			ck_report(c, CHECK_MOD_MISSING, in->op_span,
				  "%s requires a comparison such as '.eq' or '.lt'", full);
			return;
		}
		sig = boolop ? "Qaap" : "Qaa";
		/* ptxas lets p|_ through (the sink writes nothing) */
		if ((ty == MOD_F16 || ty == MOD_BF16) && in->nopnds && in->opnds[0].kind == OPND_DUAL &&
		    in->opnds[0].vec.elems[1].kind != OPND_SINK) {
			ck_report(c, CHECK_OPND_KIND, in->opnds[0].span,
				  "%s writes one predicate ('p|q' is for the " "x2 types)", full);
			return;
		}
	}
	/* Operands. */
	unsigned want = (unsigned)strlen(sig);
	if (in->nopnds != want) {
		ck_report(c, CHECK_OPND_COUNT, in->span, "%s takes %u operand%s (has %u)", full, want,
			  want == 1 ? "" : "s", in->nopnds);
		return;
	}
	for (unsigned i = 0; i < want; i++)
		typed_operand(c, in, (int)i, sig[i], ty, full);
}

/* Where each opcode's CK_ALU, CK_AMOD and CK_NEED rows start (rows of one opcode are
 * together). */
void ck_typed_index(struct ck *c)
{
#define SLICE(tab, field)                                                                    \
	for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++) {                             \
		struct ck_slice *sl = &c->field[tab[i].op];                                  \
		if (sl->n == 0)                                                              \
			sl->first = (uint16_t)i;                                             \
		sl->n = (uint16_t)(i + 1 - sl->first);                                       \
	}
	memset(c->alu, 0, sizeof c->alu);
	memset(c->amod, 0, sizeof c->amod);
	memset(c->needs, 0, sizeof c->needs);
	SLICE(alurows, alu)
	SLICE(amods, amod)
	SLICE(needrows, needs)
#undef SLICE
}
