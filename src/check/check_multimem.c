/*
 * check_multimem.c - static legality of multimem.ld_reduce, multimem.st and multimem.red
 * (ISA 9.7.9.16; PTX ISA 8.1, sm_90), which ptxi reads but does not run: the memory order
 * and scope, the operation and the types it takes, vectors of the float types only, and
 * .acc::f32 on the half-precision sums. The words are read as ptxas reads them.
 */
#include "check_priv.h"

#include <string.h>

#include "front/checks.h"

/* The element types multimem moves, with the operations each takes. */
enum { MOP_ADD = 1, MOP_MINMAX = 2, MOP_BIT = 4 };
static const struct mm_type {
	const char *name;
	unsigned bytes;         /* of one element's register                                 */
	bool fl;                /* a float type: vectors allowed                            */
	bool half;              /* .f16/.bf16: only in a vector; .acc::f32 allowed            */
	bool packed;            /* .f16x2/.bf16x2: .acc::f32 allowed, no .v8                */
	uint8_t ld_ops, red_ops;
} mm_types[] = {
	{"b32", 4, false, false, false, MOP_BIT, MOP_BIT},
	{"b64", 8, false, false, false, MOP_BIT, MOP_BIT},
	{"u32", 4, false, false, false, MOP_ADD | MOP_MINMAX, MOP_ADD | MOP_MINMAX},
	{"s32", 4, false, false, false, MOP_ADD | MOP_MINMAX, MOP_ADD | MOP_MINMAX},
	{"u64", 8, false, false, false, MOP_ADD | MOP_MINMAX, MOP_ADD | MOP_MINMAX},
	{"s64", 8, false, false, false, MOP_MINMAX, MOP_MINMAX},
	{"f32", 4, true, false, false, MOP_ADD, MOP_ADD},
	{"f64", 8, true, false, false, MOP_ADD, MOP_ADD},
	{"f16", 2, true, true, false, MOP_ADD | MOP_MINMAX, MOP_ADD},
	{"bf16", 2, true, true, false, MOP_ADD | MOP_MINMAX, MOP_ADD},
	{"f16x2", 4, true, false, true, MOP_ADD | MOP_MINMAX, MOP_ADD},
	{"bf16x2", 4, true, false, true, MOP_ADD | MOP_MINMAX, MOP_ADD},
};

struct mmf {
	int sem, scope, op, ty, vec, acc, space, other_ty;
	unsigned nsem, nscope, nop, nty, nvec, nacc, nspace;
	const char *sem_w, *op_w;
	size_t sem_n, op_n;
	bool weak;
};

static int index_of(const char *const *list, const struct ck_words *ws, unsigned i)
{
	for (int k = 0; list[k]; k++)
		if (ck_word_is(ws, i, list[k]))
			return k;
	return -1;
}

static const char *const sems[] = {"weak", "relaxed", "acquire", "release", NULL};
static const char *const scopes[] = {"cta", "cluster", "gpu", "sys", NULL};
static const char *const ops[] = {"add", "min", "max", "and", "or", "xor", NULL};
static const char *const vecs[] = {"v2", "v4", "v8", NULL};
static const char *const spaces[] = {"global", "shared", "shared::cta", "shared::cluster",
				     "local", "const", "param", NULL};

/* A value of type t: a register of its size (a float type's own or a .bN one; the
 * integer and packed types never a float register), or a constant where imm_ok. */
static bool value_ok(const struct ir_operand *o, const struct mm_type *t, bool imm_ok)
{
	if (o->kind == OPND_IMM || o->kind == OPND_FIMM)
		return imm_ok;
	enum ir_mod r = ck_reg_type(o);
	if (r == MOD_NONE || r == MOD_PRED || ir_type_size(r) != (int)t->bytes)
		return false;
	if (t->half)
		return true;
	if (!t->fl || t->packed)
		return !ck_is_float_type(r);
	return ck_reg_fits(r, t->bytes == 4 ? MOD_F32 : MOD_F64);
}

void ck_multimem_check(struct ck *c, const struct ir_insn *in, const struct mods *ms)
{
	(void)ms;
	const char *name = ir_op_name(in->op);
	bool ld = in->op == OP_MULTIMEM_LD_REDUCE, st = in->op == OP_MULTIMEM_ST;
	if (!ck_need(c, in->op_span, 81, 90, "%s", name))
		return;
	struct ck_words ws;
	ck_words(c, in, 2, &ws);
	struct mmf f;
	memset(&f, 0, sizeof f);
	f.ty = -1;
	for (unsigned i = 0; i < ws.count; i++) {
		int k;
		if ((k = index_of(sems, &ws, i)) >= 0) {
			f.sem = k, f.nsem++;
		} else if ((k = index_of(scopes, &ws, i)) >= 0) {
			f.scope = k, f.nscope++;
		} else if ((k = index_of(ops, &ws, i)) >= 0 && !st) {
			f.op = k, f.nop++;
		} else if ((k = index_of(vecs, &ws, i)) >= 0) {
			f.vec = 2 << k, f.nvec++;
		} else if ((k = index_of(spaces, &ws, i)) >= 0) {
			f.space = k, f.nspace++;
		} else if (ck_word_is(&ws, i, "acc::f32") && !st) {
			f.nacc++;
		} else {
			for (k = 0; k < (int)(sizeof mm_types / sizeof mm_types[0]); k++)
				if (ck_word_is(&ws, i, mm_types[k].name))
					break;
			if (k < (int)(sizeof mm_types / sizeof mm_types[0])) {
				f.ty = k, f.nty++;
				continue;
			}
			char buf[24];
			enum ir_mod m = MOD_NONE;
			if (ws.n[i] + 1 < sizeof buf) {
				buf[0] = '.';
				memcpy(buf + 1, ws.w[i], ws.n[i]);
				m = ir_mod_lookup(buf, ws.n[i] + 1);
			}
			if (m != MOD_NONE && ir_mod_kind(m) == MK_TYPE) {
				f.other_ty = 1, f.nty++;
				continue;
			}
			ck_report(c, CHECK_MOD_NOT_ALLOWED, in->op_span,
				  "unexpected modifier '.%.*s' on %s", (int)ws.n[i], ws.w[i], name);
			return;
		}
	}
	if (f.nsem > 1 || f.nscope > 1 || f.nop > 1 || f.nvec > 1 || f.nacc > 1 || f.nspace > 1) {
		ck_report(c, CHECK_MOD_CONFLICT, in->op_span,
			  "%s takes at most one memory order, scope, operation, vector size, "
			  "state space and .acc::f32", name);
		return;
	}
	if (f.nspace && f.space != 0) {
		ck_report(c, CHECK_MOD_NOT_ALLOWED, in->op_span, "%s works on .global only", name);
		return;
	}
	/* order: ld_reduce .weak/.relaxed/.acquire, st .weak/.relaxed/.release, red
	 * .relaxed/.release; a scope goes with .relaxed/.acquire/.release, never alone or
	 * with .weak */
	bool sem_ok = !f.nsem || (ld ? f.sem != 3 : st ? f.sem != 2 : f.sem == 1 || f.sem == 3);
	if (!sem_ok) {
		ck_report(c, CHECK_MEMORY_ORDER, in->op_span, "%s does not take .%s", name,
			  sems[f.sem]);
		return;
	}
	if ((f.nscope && (!f.nsem || f.sem == 0)) || (f.nsem && f.sem != 0 && !f.nscope)) {
		ck_report(c, CHECK_MEMORY_ORDER, in->op_span, "on %s a scope comes with .relaxed, "
			  ".acquire or .release, and they with a scope", name);
		return;
	}
	if (!st && !f.nop) {
		ck_report(c, CHECK_MOD_MISSING, in->op_span, "%s needs an operation (.add, .min, "
			  "...)", name);
		return;
	}
	if (f.nty != 1 || f.other_ty) {
		ck_report(c, CHECK_INSN_TYPE, in->op_span, "%s takes one type of its list", name);
		return;
	}
	const struct mm_type *t = &mm_types[f.ty];
	if (!st) {
		uint8_t want = f.op == 0 ? MOP_ADD : f.op <= 2 ? MOP_MINMAX : MOP_BIT;
		if (!((ld ? t->ld_ops : t->red_ops) & want)) {
			ck_report(c, CHECK_INSN_TYPE, in->op_span, "%s.%s does not take .%s", name,
				  ops[f.op], t->name);
			return;
		}
	} else if (t->half) {
		ck_report(c, CHECK_INSN_TYPE, in->op_span, "%s does not take .%s", name, t->name);
		return;
	}
	if (f.nacc && (!(t->half || t->packed) || f.op != 0)) {
		ck_report(c, CHECK_MOD_NOT_ALLOWED, in->op_span,
			  ".acc::f32 is for the .add of .f16/.bf16 (and their x2) types only");
		return;
	}
	if (f.nvec && (!t->fl || t->bytes == 8 || (f.vec == 8 && !t->half))) {
		ck_report(c, CHECK_MOD_NOT_ALLOWED, in->op_span, "%s takes .v%d only with .f16, "
			  ".bf16 (up to .v8), .f32, .f16x2 or .bf16x2 (up to .v4)", name, f.vec);
		return;
	}
	if (t->half && !f.nvec) {
		ck_report(c, CHECK_INSN_TYPE, in->op_span, "%s takes .%s in a vector only", name,
			  t->name);
		return;
	}
	/* operands: ld_reduce d, [a]; st and red [a], b */
	if (in->nopnds != 2) {
		ck_report(c, CHECK_OPND_COUNT, in->span, "%s takes 2 operands (has %u)", name,
			  in->nopnds);
		return;
	}
	const struct ir_operand *a = &in->opnds[ld ? 1 : 0], *v = &in->opnds[ld ? 0 : 1];
	if (a->kind != OPND_ADDR || a->bare) {
		ck_report(c, CHECK_OPND_KIND, a->span, "the multimem address of %s is in brackets",
			  name);
		return;
	}
	if (!ck_check_addr(c, in, a, ld ? 1 : 0, false, true))
		return;
	unsigned n = f.nvec ? (unsigned)f.vec : 1;
	bool ok = n == 1 ? value_ok(v, t, !ld) : v->kind == OPND_VEC && v->vec.n == n;
	for (unsigned i = 0; ok && n > 1 && i < n; i++)
		ok = value_ok(&v->vec.elems[i], t, false);
	if (!ok)
		ck_report(c, CHECK_OPND_TYPE, v->span, "the %s of %s .%s is %s", ld ? "result"
			  : "value", name, t->name, n > 1 ? "a vector of registers of the type"
							   : "a register of the type");
}
