/*
 * check_cvt.c - static rules of cvt (ISA 9.7.9.21): the type pairs, rounding and
 * saturation words each pair takes, and the operand registers.
 */

#include "check_priv.h"

#include <stdio.h>

static bool cvt_basic(enum ir_mod t)
{
	switch (t) {
	case MOD_U8: case MOD_S8: case MOD_U16: case MOD_S16: case MOD_U32: case MOD_S32:
	case MOD_U64: case MOD_S64: case MOD_F16: case MOD_BF16: case MOD_F32: case MOD_F64:
		return true;
	default:
		return false;
	}
}

/* A cvt (or ld/st) data operand: integer types take any integer/bit register at least as
 * wide as the type (ISA 6.4.1.2, "operand size exceeding instruction-type size"); floating
 * types take their own registers or .bN ones at least as wide (ptxas 13.0). */
bool ck_reg_fits_wide(enum ir_mod r, enum ir_mod t)
{
	if (r == MOD_PRED || t == MOD_PRED)
		return r == t;
	bool rb = r == MOD_B16 || r == MOD_B32 || r == MOD_B64;
	if (ck_is_float_type(t))
		return r == t || (rb && ir_type_size(r) >= ir_type_size(t));
	if (ck_is_float_type(r) && r != MOD_F16X2)
		return ir_type_size(t) == ir_type_size(r) && (t == MOD_B16 || t == MOD_B32 ||
							     t == MOD_B64);
	return ir_type_size(r) >= ir_type_size(t) || (ir_type_size(t) == 1 && ir_type_size(r) >= 2);
}

static void cvt_operand(struct ck *c, const struct ir_insn *in, int i, enum ir_mod t,
			const char *what)
{
	const struct ir_operand *o = &in->opnds[i];
	if (ck_is_sreg(o))
		return;
	if (o->kind == OPND_REG) {
		enum ir_mod r = ck_reg_type(o);
		if (r == MOD_NONE || o->neg) {
			ck_report(c, CHECK_OPND_KIND, o->span,
				  "operand %d of %s must be a scalar register", i + 1, what);
			return;
		}
		if (!ck_reg_fits_wide(r, t))
			ck_report(c, CHECK_OPND_TYPE, o->span,
				  "operand %d of %s is a %s register; %s needs %s", i + 1, what,
				  ir_mod_name(r), ir_mod_name(t),
				  ck_is_float_type(t) ? "a register of that type or a .bN one of its size"
						   : "an integer or .bN register at least as wide");
		return;
	}
	if (i == 1 && o->kind == OPND_IMM && !ck_is_float_type(t))
		return;
	if (i == 1 && o->kind == OPND_FIMM && (t == MOD_F32 || t == MOD_F64))
		return;
	if (i == 0 && o->kind == OPND_SINK)
		ck_report(c, CHECK_OPND_KIND, o->span,
			  "%s cannot discard its result ('_' is not allowed)", what);
	else
		ck_report(c, CHECK_OPND_KIND, o->span, "operand %d of %s must be a register%s", i + 1,
			  what, i == 1 ? " or a constant of the source type" : "");
}

/* cvt{.rnd}{.ftz}{.sat}.dtype.atype d, a: which rounding each direction needs or forbids. */
void ck_cvt_check(struct ck *c, const struct ir_insn *in, const struct mods *ms)
{
	(void)ms;
	enum ir_mod ty[2] = {MOD_NONE, MOD_NONE};
	int nty = 0, rnd = -1;
	for (unsigned i = 0; i < in->nmods; i++) {
		enum ir_mod m = in->mods[i];
		if (ir_mod_kind(m) == MK_TYPE) {
			if (nty < 2)
				ty[nty] = m;
			nty++;
		} else if (ir_mod_kind(m) == MK_ROUND) {
			if (rnd >= 0) {
				ck_report(c, CHECK_MOD_CONFLICT, in->mod_spans[i],
					  "'%s' cannot be combined with '%s' on cvt", ir_mod_name(m),
					  ir_mod_name(in->mods[rnd]));
				return;
			}
			rnd = (int)i;
		}
	}
	if (nty != 2) {
		ck_report(c, CHECK_INSN_TYPE, in->op_span,
			  "cvt needs a destination and a source type (such as "
			  "cvt.f32.s32), has %d type%s", nty, nty == 1 ? "" : "s");
		return;
	}
	enum ir_mod d = ty[0], a = ty[1];
	if (!cvt_basic(d) || !cvt_basic(a)) {
		/* The packed and narrow float forms take an .f32 (pair) or a packed source;
		 * their modifiers are not modelled. Bit types are never cvt types. */
		bool pair = (d == MOD_F16X2 || d == MOD_BF16X2) && a == MOD_F32;
		bool pack = pair || (d == MOD_TF32 && a == MOD_F32) ||
			    ((d == MOD_E4M3X2 || d == MOD_E5M2X2) && (a == MOD_F32 || a == MOD_F16X2));
		bool unpack = d == MOD_F16X2 && (a == MOD_E4M3X2 || a == MOD_E5M2X2);
		bool f8 = d == MOD_E4M3X2 || d == MOD_E5M2X2 || a == MOD_E4M3X2 || a == MOD_E5M2X2;
		/* ISA 9.7.9.21: PTX 7.8 on sm_90, sm_89 from PTX 8.1 */
		if (f8 && !ck_need(c, in->op_span, 78, c->ver >= 81 ? 89 : 90,
				   "cvt with .e4m3x2/.e5m2x2"))
			return;
		if (!pack && !unpack)
			ck_report(c, CHECK_CVT_FORM, in->op_span, "cvt cannot convert %s to %s",
				  ir_mod_name(a), ir_mod_name(d));
		else if (pair && in->nopnds != 3)
			ck_report(c, CHECK_CVT_FORM, in->span,
				  "cvt%s%s packs two .f32 sources: it takes 3 operands " "(has %u)",
				  ir_mod_name(d), ir_mod_name(a), in->nopnds);
		return;
	}
	if ((d == MOD_BF16 && ir_type_size(a) == 1) || (a == MOD_BF16 && ir_type_size(d) == 1)) {
		ck_report(c, CHECK_CVT_FORM, in->op_span,
			  "cvt has no conversion between .bf16 and 8-bit integers");
		return;
	}
	char full[48];
	snprintf(full, sizeof full, "cvt%s%s", ir_mod_name(d), ir_mod_name(a));
	bool df = ck_is_float_type(d), af = ck_is_float_type(a);
	enum ir_mod r = rnd >= 0 ? in->mods[rnd] : MOD_NONE;
	bool rint = r == MOD_RNI || r == MOD_RZI || r == MOD_RMI || r == MOD_RPI;
	bool rflt = r == MOD_RN || r == MOD_RZ || r == MOD_RM || r == MOD_RP;
	struct src_span rs = rnd >= 0 ? in->mod_spans[rnd] : in->op_span;
	static const enum ir_mod irnd[] = {MOD_RNI, MOD_RZI, MOD_RMI, MOD_RPI};
	static const enum ir_mod frnd[] = {MOD_RN, MOD_RZ, MOD_RM, MOD_RP};
	char l[64];
	if (df && af && d != a && (a == MOD_BF16 || ir_type_size(d) == ir_type_size(a))) {
		/* from .bf16, and between .f16 and .bf16: a float rounding is optional */
		if (r && !rflt) {
			ck_list_mods(l, sizeof l, frnd, 4);
			ck_report(c, CHECK_ROUNDING, rs, "'%s' is not a rounding of %s (use %s)",
				  ir_mod_name(r), full, l);
			return;
		}
	} else if (df && af) {
		if (ir_type_size(d) < ir_type_size(a)) {
			if (!rflt) {
				ck_list_mods(l, sizeof l, frnd, 4);
				ck_report(c, CHECK_ROUNDING, rs,
					  r ? "'%s' is not a rounding of %s (use %s)"
					    : "%s%s requires a rounding modifier (%s)",
					  r ? ir_mod_name(r) : "", full, l);
				return;
			}
		} else if (d == a) {
			if (r && !rint) {
				ck_list_mods(l, sizeof l, irnd, 4);
				ck_report(c, CHECK_ROUNDING, rs,
					  "'%s' is not a rounding of %s (use %s, or none)",
					  ir_mod_name(r), full, l);
				return;
			}
		} else if (r) {
			ck_report(c, CHECK_ROUNDING, rs,
				  "%s takes no rounding modifier ('%s'): the conversion is exact",
				  full, ir_mod_name(r));
			return;
		}
	} else if (df || af) {
		const enum ir_mod *want = df ? frnd : irnd;
		if (df ? !rflt : !rint) {
			ck_list_mods(l, sizeof l, want, 4);
			if (r)
				ck_report(c, CHECK_ROUNDING, rs,
					  "'%s' is not a rounding of %s (use %s)", ir_mod_name(r),
					  full, l);
			else
				ck_report(c, CHECK_ROUNDING, rs,
					  "%s requires a rounding modifier (%s)", full, l);
			return;
		}
	} else if (r) {
		ck_report(c, CHECK_ROUNDING, rs, "%s takes no rounding modifier ('%s')", full,
			  ir_mod_name(r));
		return;
	}
	for (unsigned i = 0; i < in->nmods; i++) {
		enum ir_mod m = in->mods[i];
		struct src_span s = in->mod_spans[i];
		if (ir_mod_kind(m) == MK_TYPE || ir_mod_kind(m) == MK_ROUND)
			continue;
		if (m == MOD_FTZ) {
			if (d != MOD_F32 && a != MOD_F32) {
				ck_report(c, CHECK_CVT_FORM, s,
					  "'.ftz' on cvt needs an .f32 source or destination (%s)",
					  full);
				return;
			}
		} else if (m == MOD_SAT) {
			/* int to int: only where the value can overflow (narrower, or a change of
			 * signedness); never onto .bf16 */
			bool grows = !df && !af && ir_type_size(d) >= ir_type_size(a) &&
				     ir_type_is_signed(d) == ir_type_is_signed(a);
			if (grows || d == MOD_BF16) {
				ck_report(c, CHECK_CVT_FORM, s, "'.sat' does not apply to %s", full);
				return;
			}
		} else if (m == MOD_RELU || m == MOD_SATFINITE) {
			if ((d != MOD_F16 && d != MOD_BF16) || a != MOD_F32) {
				ck_report(c, CHECK_CVT_FORM, s,
					  "'%s' on cvt needs an .f16/.bf16 destination and an .f32 "
					  "source", ir_mod_name(m));
				return;
			}
			if (m == MOD_RELU && ck_has_mod(in, MOD_FTZ)) {
				ck_report(c, CHECK_CVT_FORM, s,
					  "'.relu' cannot be combined with '.ftz' on %s", full);
				return;
			}
			if (m == MOD_SATFINITE) {
				if (!ck_need(c, s, 81, 0, "'.satfinite' on %s", full))
					return;
			}
		} else {
			ck_report(c, CHECK_MOD_NOT_ALLOWED, s, "'%s' is not allowed on cvt",
				  ir_mod_name(m));
			return;
		}
	}
	if (in->nopnds != 2) {
		ck_report(c, CHECK_OPND_COUNT, in->span, "%s takes 2 operands (has %u)", full,
			  in->nopnds);
		return;
	}
	cvt_operand(c, in, 0, d, full);
	cvt_operand(c, in, 1, a, full);
}
