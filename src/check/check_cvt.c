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

/* The packed and narrow float forms of cvt (ISA 9.7.9.21, as ptxas 13.0 takes them): each
 * row is a destination and source type, how the sources are written, the roundings it takes
 * (one is needed), whether .relu may be added and whether .satfinite may be or must be, and
 * the PTX ISA and target it needs (ARCH: an sm_100a-style target). Nothing else (.ftz,
 * .sat) is allowed. */
enum { SRC_ONE, SRC_PAIR, SRC_PAIR_RBITS, SRC_VEC4_RBITS };
enum { SF_NO, SF_MAY, SF_MUST };
static const struct cvt_form {
	enum ir_mod d, a;
	uint8_t src, relu, satf, arch;
	enum ir_mod rnd[2];
	uint16_t ptx, sm, satf_ptx, satf_sm;
} cvt_forms[] = {
#define F(d, a, src, r1, r2, relu, satf, ptx, sm, arch, sptx, ssm)                               \
	{MOD_##d, MOD_##a, src, relu, satf, arch, {MOD_##r1, MOD_##r2}, ptx, sm, sptx, ssm},
	F(F16X2, F32, SRC_PAIR, RN, RZ, 1, SF_MAY, 70, 80, 0, 81, 0)
	F(BF16X2, F32, SRC_PAIR, RN, RZ, 1, SF_MAY, 70, 80, 0, 81, 0)
	F(F16X2, F32, SRC_PAIR_RBITS, RS, NONE, 1, SF_MAY, 87, 100, 1, 0, 0)
	F(BF16X2, F32, SRC_PAIR_RBITS, RS, NONE, 1, SF_MAY, 87, 100, 1, 0, 0)
	F(TF32, F32, SRC_ONE, RNA, NONE, 0, SF_MAY, 70, 80, 0, 81, 0)
	F(TF32, F32, SRC_ONE, RN, RZ, 1, SF_MAY, 78, 90, 0, 86, 100)
	F(E4M3X2, F32, SRC_PAIR, RN, NONE, 1, SF_MUST, 78, 89, 0, 0, 0)
	F(E5M2X2, F32, SRC_PAIR, RN, NONE, 1, SF_MUST, 78, 89, 0, 0, 0)
	F(E4M3X2, F16X2, SRC_ONE, RN, NONE, 1, SF_MUST, 78, 89, 0, 0, 0)
	F(E5M2X2, F16X2, SRC_ONE, RN, NONE, 1, SF_MUST, 78, 89, 0, 0, 0)
	F(F16X2, E4M3X2, SRC_ONE, RN, NONE, 1, SF_NO, 78, 89, 0, 0, 0)
	F(F16X2, E5M2X2, SRC_ONE, RN, NONE, 1, SF_NO, 78, 89, 0, 0, 0)
	F(E2M1X2, F32, SRC_PAIR, RN, NONE, 1, SF_MUST, 86, 100, 1, 0, 0)
	F(E2M3X2, F32, SRC_PAIR, RN, NONE, 1, SF_MUST, 86, 100, 1, 0, 0)
	F(E3M2X2, F32, SRC_PAIR, RN, NONE, 1, SF_MUST, 86, 100, 1, 0, 0)
	F(F16X2, E2M1X2, SRC_ONE, RN, NONE, 1, SF_NO, 86, 100, 1, 0, 0)
	F(F16X2, E2M3X2, SRC_ONE, RN, NONE, 1, SF_NO, 86, 100, 1, 0, 0)
	F(F16X2, E3M2X2, SRC_ONE, RN, NONE, 1, SF_NO, 86, 100, 1, 0, 0)
	F(UE8M0X2, F32, SRC_PAIR, RZ, RP, 0, SF_MAY, 86, 100, 1, 0, 0)
	F(UE8M0X2, BF16X2, SRC_ONE, RZ, RP, 0, SF_MAY, 86, 100, 1, 0, 0)
	F(BF16X2, UE8M0X2, SRC_ONE, RN, NONE, 0, SF_NO, 86, 100, 1, 0, 0)
	F(E4M3X4, F32, SRC_VEC4_RBITS, RS, NONE, 1, SF_MUST, 87, 100, 1, 0, 0)
	F(E5M2X4, F32, SRC_VEC4_RBITS, RS, NONE, 1, SF_MUST, 87, 100, 1, 0, 0)
	F(E2M3X4, F32, SRC_VEC4_RBITS, RS, NONE, 1, SF_MUST, 87, 100, 1, 0, 0)
	F(E3M2X4, F32, SRC_VEC4_RBITS, RS, NONE, 1, SF_MUST, 87, 100, 1, 0, 0)
	F(E2M1X4, F32, SRC_VEC4_RBITS, RS, NONE, 1, SF_MUST, 87, 100, 1, 0, 0)
#undef F
};

/* A packed operand: a .bN/.uN/.sN register of the type's exact size (an .f16x2 register
 * also holds .f16x2). */
static bool cvt_packed_reg(const struct ir_operand *o, enum ir_mod t)
{
	if (t == MOD_F32 && o->kind == OPND_FIMM)
		return true;
	if (o->kind != OPND_REG || o->neg || ck_is_sreg(o))
		return false;
	enum ir_mod r = ck_reg_type(o);
	if (t == MOD_F32)
		return ck_reg_fits_wide(r, t);
	return r == t || (ck_is_int_type(r) && ir_type_size(r) == ir_type_size(t));
}

static void cvt_packed(struct ck *c, const struct ir_insn *in, enum ir_mod d, enum ir_mod a,
		       enum ir_mod r)
{
	char full[48];
	snprintf(full, sizeof full, "cvt%s%s%s", r ? ir_mod_name(r) : "", ir_mod_name(d),
		 ir_mod_name(a));
	const struct cvt_form *f = NULL;
	bool pair = false;
	for (size_t i = 0; i < sizeof cvt_forms / sizeof cvt_forms[0]; i++) {
		const struct cvt_form *g = &cvt_forms[i];
		if (g->d != d || g->a != a)
			continue;
		pair = true;
		if (r && (g->rnd[0] == r || g->rnd[1] == r))
			f = g;
	}
	if (!pair) {
		ck_report(c, CHECK_CVT_FORM, in->op_span, "cvt cannot convert %s to %s",
			  ir_mod_name(a), ir_mod_name(d));
		return;
	}
	if (!f) {
		ck_report(c, CHECK_ROUNDING, in->op_span,
			  r ? "'%s' is not a rounding of cvt%s%s"
			    : "%scvt%s%s requires a rounding modifier",
			  r ? ir_mod_name(r) : "", ir_mod_name(d), ir_mod_name(a));
		return;
	}
	unsigned sm = f->sm;
	if (sm == 89 && c->ver < 81)
		sm = 90; /* ISA 9.7.9.21: sm_89 from PTX 8.1 */
	if (!ck_need(c, in->op_span, f->ptx, sm, "%s", full))
		return;
	if (f->arch && c->sm >= 100 && !c->m->sm_arch_specific) {
		ck_report(c, CHECK_SM_TARGET, in->op_span,
			  "%s needs an architecture-specific target such as sm_100a (target is %s)",
			  full, c->m->target);
		return;
	}
	bool satf = false;
	for (unsigned i = 0; i < in->nmods; i++) {
		enum ir_mod m = in->mods[i];
		struct src_span s = in->mod_spans[i];
		if (ir_mod_kind(m) == MK_TYPE || ir_mod_kind(m) == MK_ROUND)
			continue;
		if (m == MOD_SATFINITE && f->satf != SF_NO) {
			satf = true;
			if (!ck_need(c, s, f->satf_ptx, f->satf_sm, "'.satfinite' on %s", full))
				return;
			continue;
		}
		if (m == MOD_RELU && f->relu)
			continue;
		ck_report(c, CHECK_CVT_FORM, s, "'%s' is not allowed on %s", ir_mod_name(m),
			  full);
		return;
	}
	if (f->satf == SF_MUST && !satf) {
		ck_report(c, CHECK_CVT_FORM, in->op_span, "%s needs '.satfinite'", full);
		return;
	}
	unsigned want = f->src == SRC_ONE ? 2 : f->src == SRC_PAIR ? 3 : f->src == SRC_PAIR_RBITS
			? 4 : 3;
	if (in->nopnds != want) {
		ck_report(c, CHECK_OPND_COUNT, in->span, "%s takes %u operands (has %u)", full,
			  want, in->nopnds);
		return;
	}
	bool ok = cvt_packed_reg(&in->opnds[0], d);
	if (f->src == SRC_VEC4_RBITS) {
		const struct ir_operand *v = &in->opnds[1];
		ok = ok && v->kind == OPND_VEC && v->vec.n == 4;
		for (unsigned k = 0; ok && k < 4; k++)
			ok = cvt_packed_reg(&v->vec.elems[k], a);
	} else {
		for (unsigned k = 1; ok && k < (f->src == SRC_ONE ? 2u : 3u); k++)
			ok = cvt_packed_reg(&in->opnds[k], a);
	}
	if (ok && (f->src == SRC_PAIR_RBITS || f->src == SRC_VEC4_RBITS))
		ok = ck_is_int_reg(&in->opnds[want - 1], 4);
	if (!ok)
		ck_report(c, CHECK_OPND_TYPE, in->span,
			  "the operands of %s do not fit its types (the destination and each "
			  "packed source a .bN register of the packed size, .f32 sources .f32 "
			  "registers or constants)", full);
}

/* cvt.pack.sat.{u16,s16}.s32 d, a, b and cvt.pack.sat.{u8,s8,u4,s4}.s32.b32 d, a, b, c
 * (ISA 9.7.9.21; PTX 6.5, sm_72). */
static void cvt_pack(struct ck *c, const struct ir_insn *in)
{
	enum ir_mod ty[3] = {MOD_NONE, MOD_NONE, MOD_NONE};
	unsigned nty = 0;
	bool sat = false;
	if (!ck_need(c, in->op_span, 65, 72, "cvt.pack"))
		return;
	for (unsigned i = 0; i < in->nmods; i++) {
		enum ir_mod m = in->mods[i];
		if (ir_mod_kind(m) == MK_TYPE) {
			if (nty < 3)
				ty[nty] = m;
			nty++;
		} else if (m == MOD_SAT) {
			sat = true;
		} else if (m != MOD_PACK) {
			ck_report(c, CHECK_CVT_FORM, in->mod_spans[i], "'%s' is not allowed on cvt.pack",
				  ir_mod_name(m));
			return;
		}
	}
	bool wide = (ty[0] == MOD_U16 || ty[0] == MOD_S16) && nty == 2 && ty[1] == MOD_S32;
	bool narrow = (ty[0] == MOD_U8 || ty[0] == MOD_S8 || ty[0] == MOD_U4 || ty[0] == MOD_S4) &&
		      nty == 3 && ty[1] == MOD_S32 && ty[2] == MOD_B32;
	if (!sat || (!wide && !narrow)) {
		ck_report(c, CHECK_CVT_FORM, in->op_span,
			  "cvt.pack is cvt.pack.sat.{u16,s16}.s32 or "
			  "cvt.pack.sat.{u8,s8,u4,s4}.s32.b32");
		return;
	}
	unsigned want = wide ? 3 : 4;
	if (in->nopnds != want) {
		ck_report(c, CHECK_OPND_COUNT, in->span, "this cvt.pack takes %u operands (has %u)",
			  want, in->nopnds);
		return;
	}
	for (unsigned k = 0; k < want; k++)
		if (!ck_is_sreg(&in->opnds[k]) && !ck_is_int_reg(&in->opnds[k], 4) &&
		    !(k > 0 && in->opnds[k].kind == OPND_IMM)) {
			ck_report(c, CHECK_OPND_TYPE, in->opnds[k].span,
				  "operand %u of cvt.pack must be a 32-bit integer register", k + 1);
			return;
		}
}

/* cvt{.rnd}{.ftz}{.sat}.dtype.atype d, a: which rounding each direction needs or forbids. */
void ck_cvt_check(struct ck *c, const struct ir_insn *in, const struct mods *ms)
{
	(void)ms;
	if (ck_has_mod(in, MOD_PACK)) {
		cvt_pack(c, in);
		return;
	}
	for (unsigned i = 0; i < in->nmods; i++)
		for (unsigned j = 0; j < i; j++)
			if (in->mods[j] == in->mods[i] && ir_mod_kind(in->mods[i]) != MK_TYPE) {
				ck_report(c, CHECK_MOD_CONFLICT, in->mod_spans[i], "duplicate '%s' on cvt",
					  ir_mod_name(in->mods[i]));
				return;
			}
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
		cvt_packed(c, in, d, a, rnd >= 0 ? in->mods[rnd] : MOD_NONE);
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
			 * signedness); never to or from .bf16 (ptxas 13.0) */
			bool grows = !df && !af && ir_type_size(d) >= ir_type_size(a) &&
				     ir_type_is_signed(d) == ir_type_is_signed(a);
			if (grows || d == MOD_BF16 || a == MOD_BF16) {
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
			if (r != MOD_RN && r != MOD_RZ) {
				ck_report(c, CHECK_ROUNDING, s, "'%s' on %s needs '.rn' or '.rz'",
					  ir_mod_name(m), full);
				return;
			}
			enum ir_mod x = ck_has_mod(in, MOD_FTZ) ? MOD_FTZ
					: ck_has_mod(in, MOD_SAT) ? MOD_SAT : MOD_NONE;
			if (x) {
				ck_report(c, CHECK_CVT_FORM, s, "'%s' cannot be combined with '%s' on %s",
					  ir_mod_name(m), ir_mod_name(x), full);
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
