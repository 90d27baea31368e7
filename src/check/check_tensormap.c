/*
 * check_tensormap.c - static legality of tensormap.replace and tensormap.cp_fenceproxy
 * (ISA 9.7.9.28, 9.7.13.4.x; PTX ISA 8.3): the field and its type, the ordinal and value
 * operands with the ranges ptxas 13.0 takes on sm_90a, the state spaces, and the release
 * copy's fence words. The words are read in any order, as ptxas reads them.
 */
#include "check_priv.h"

#include <string.h>

#include "front/checks.h"

/* The fields tensormap.replace writes (ISA 9.7.9.28): the type of the value, whether an
 * ordinal (the dimension, 0..4) comes first, whether the value must be a constant, and its
 * range on sm_90a and on the sm_100-and-later specific targets (hi < 0: any; ptxas 13.0). */
static const struct tm_field {
	const char *name;
	bool b64, ordinal, constant;
	int hi, hi100;
	uint16_t ptx;
	bool sm90a;             /* sm_90a takes it                                          */
} tm_fields[] = {
	{"global_address", true, false, false, -1, -1, 83, true},
	{"rank", false, false, false, -1, -1, 83, true},
	{"box_dim", false, true, false, -1, -1, 83, true},
	{"global_dim", false, true, false, -1, -1, 83, true},
	{"global_stride", true, true, false, -1, -1, 83, true},
	{"element_stride", false, true, false, -1, -1, 83, true},
	{"elemtype", false, false, true, 12, 15, 83, true},
	{"interleave_layout", false, false, true, 2, 2, 83, true},
	{"swizzle_mode", false, false, true, 3, 3, 83, true},
	{"swizzle_atomicity", false, false, true, 3, 3, 86, false},
	{"fill_mode", false, false, true, 1, 1, 83, true},
};

static bool value_reg(const struct ir_operand *o, bool b64)
{
	return ck_is_int_reg(o, b64 ? 8 : 4) ||
	       (ck_reg_type(o) != MOD_NONE && ck_reg_type(o) != MOD_PRED &&
		ir_type_size(ck_reg_type(o)) == (b64 ? 8 : 4));
}

/* [a]: a register or a variable of .global (or, with .shared::cta, .shared) space, or any
 * state space with none written (generic). */
static bool map_address(struct ck *c, const struct ir_insn *in, int i, bool global,
			bool shared)
{
	const struct ir_operand *o = &in->opnds[i];
	if (o->kind != OPND_ADDR || o->bare) {
		ck_report(c, CHECK_OPND_KIND, o->span, "the tensor map of %s is an address in "
			  "brackets", ir_op_name(in->op));
		return false;
	}
	if (!global && !shared)
		global = shared = true; /* generic */
	return ck_check_addr(c, in, o, i, shared, global);
}

void ck_tensormap_replace_check(struct ck *c, const struct ir_insn *in, const struct mods *ms)
{
	(void)ms;
	const char *name = "tensormap.replace";
	struct ck_words ws;
	ck_words(c, in, 2, &ws);
	int field = -1;
	unsigned ntile = 0, nsize = 0, ntype = 0, nfield = 0, nspace = 0;
	bool b64 = false, global = false, shared = false, bad_space = false, other = false;
	for (unsigned i = 0; i < ws.count; i++) {
		unsigned k;
		for (k = 0; k < sizeof tm_fields / sizeof tm_fields[0]; k++)
			if (ck_word_is(&ws, i, tm_fields[k].name))
				break;
		if (k < sizeof tm_fields / sizeof tm_fields[0]) {
			field = (int)k, nfield++;
		} else if (ck_word_is(&ws, i, "tile")) {
			ntile++;
		} else if (ck_word_is(&ws, i, "b1024")) {
			nsize++;
		} else if (ck_word_is(&ws, i, "b32") || ck_word_is(&ws, i, "b64")) {
			b64 = ws.w[i][1] == '6', ntype++;
		} else if (ck_word_is(&ws, i, "global")) {
			global = true, nspace++;
		} else if (ck_word_is(&ws, i, "shared::cta")) {
			shared = true, nspace++;
		} else if (ck_word_is(&ws, i, "shared") || ck_word_is(&ws, i, "shared::cluster") ||
			   ck_word_is(&ws, i, "local") || ck_word_is(&ws, i, "param") ||
			   ck_word_is(&ws, i, "const")) {
			bad_space = true, nspace++;
		} else {
			other = true;
		}
	}
	if (!ck_need(c, in->op_span, 83, 90, "%s", name))
		return;
	/* sm_90a, or an arch- or family-specific target from sm_100 on (sm_100a, sm_100f) */
	bool later = c->sm >= 100 && (c->m->sm_arch_specific || c->m->sm_family_specific);
	if (c->sm && !later && (c->sm != 90 || !c->m->sm_arch_specific)) {
		ck_report(c, CHECK_SM_TARGET, in->op_span, "%s needs target sm_90a, or sm_100a "
			  "or later (target is %s)", name, c->m->target);
		return;
	}
	if (other || ntile != 1 || nsize != 1 || nfield != 1) {
		ck_report(c, CHECK_MOD_MISSING, in->op_span, "%s is written %s.tile.field{.space}"
			  ".b1024.type, with one field (.global_address, .box_dim ...)", name, name);
		return;
	}
	const struct tm_field *f = &tm_fields[field];
	if (!ck_need(c, in->op_span, f->ptx, 0, "%s.%s", name, f->name))
		return;
	if (!f->sm90a && !later) {
		ck_report(c, CHECK_SM_TARGET, in->op_span, "%s.%s is not for sm_90a", name, f->name);
		return;
	}
	if (nspace > 1 || bad_space) {
		ck_report(c, CHECK_MOD_NOT_ALLOWED, in->op_span, "%s writes a map in .global or "
			  ".shared::cta (or a generic address)", name);
		return;
	}
	if (ntype != 1 || b64 != f->b64) {
		ck_report(c, CHECK_INSN_TYPE, in->op_span, "%s.%s takes the type .%s", name,
			  f->name, f->b64 ? "b64" : "b32");
		return;
	}
	unsigned want = f->ordinal ? 3 : 2;
	if (in->nopnds != want) {
		ck_report(c, CHECK_OPND_COUNT, in->span, "%s.%s takes %u operands (has %u)", name,
			  f->name, want, in->nopnds);
		return;
	}
	if (!map_address(c, in, 0, global, shared))
		return;
	if (f->ordinal) {
		const struct ir_operand *o = &in->opnds[1];
		if (o->kind != OPND_IMM) {
			ck_report(c, CHECK_OPND_KIND, o->span, "the dimension of %s.%s is an integer "
				  "constant", name, f->name);
			return;
		}
		if (o->imm < 0 || o->imm > 4) {
			ck_report(c, CHECK_OPND_VALUE, o->span, "the dimension of %s.%s is 0 to 4 "
				  "(is %lld)", name, f->name, (long long)o->imm);
			return;
		}
	}
	const struct ir_operand *v = &in->opnds[want - 1];
	if (f->constant) {
		if (v->kind != OPND_IMM)
			ck_report(c, CHECK_OPND_KIND, v->span, "the value of %s.%s is an integer "
				  "constant", name, f->name);
		else if (v->imm < 0 || v->imm > (later ? f->hi100 : f->hi))
			ck_report(c, CHECK_OPND_VALUE, v->span, "the value of %s.%s is 0 to %d on "
				  "%s (is %lld)", name, f->name, later ? f->hi100 : f->hi,
				  later ? c->m->target : "sm_90a", (long long)v->imm);
		return;
	}
	if (v->kind != OPND_IMM && !value_reg(v, f->b64))
		ck_report(c, CHECK_OPND_TYPE, v->span, "the value of %s.%s is a %d-bit register or "
			  "a constant", name, f->name, f->b64 ? 64 : 32);
}

/* tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.scope.sync.aligned
 * [dst], [src], 128: a fence with a copy of a map from shared memory to global. */
void ck_tensormap_cp_check(struct ck *c, const struct ir_insn *in, const struct mods *ms)
{
	(void)ms;
	const char *name = "tensormap.cp_fenceproxy";
	if (!ck_need(c, in->op_span, 83, 90, "%s", name))
		return;
	struct ck_words ws;
	ck_words(c, in, 2, &ws);
	unsigned nglobal = 0, nshared = 0, nproxy = 0, nrel = 0, nscope = 0, nsync = 0;
	unsigned naligned = 0, nbad = 0;
	for (unsigned i = 0; i < ws.count; i++) {
		if (ck_word_is(&ws, i, "global"))
			nglobal++;
		else if (ck_word_is(&ws, i, "shared::cta"))
			nshared++;
		else if (ck_word_is(&ws, i, "tensormap::generic"))
			nproxy++;
		else if (ck_word_is(&ws, i, "release"))
			nrel++;
		else if (ck_word_is(&ws, i, "cta") || ck_word_is(&ws, i, "cluster") ||
			 ck_word_is(&ws, i, "gpu") || ck_word_is(&ws, i, "sys"))
			nscope++;
		else if (ck_word_is(&ws, i, "sync"))
			nsync++;
		else if (ck_word_is(&ws, i, "aligned"))
			naligned++;
		else
			nbad++;
	}
	if (nbad || nglobal != 1 || nshared != 1 || nproxy != 1 || nrel != 1 || nscope != 1 ||
	    !nsync || naligned != 1) {
		ck_report(c, CHECK_FENCE_FORM, in->op_span, "%s is written %s.global.shared::cta"
			  ".tensormap::generic.release.scope.sync.aligned", name, name);
		return;
	}
	if (in->nopnds != 3) {
		ck_report(c, CHECK_OPND_COUNT, in->span, "%s takes 3 operands (has %u)", name,
			  in->nopnds);
		return;
	}
	if (!map_address(c, in, 0, true, false) || !map_address(c, in, 1, false, true))
		return;
	const struct ir_operand *n = &in->opnds[2];
	if (n->kind != OPND_IMM || n->imm != 128)
		ck_report(c, CHECK_OPND_VALUE, n->span, "the size of %s is the constant 128", name);
}
