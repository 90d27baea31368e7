/*
 * check_mma.c - static legality of the warp-level matrix instructions (ISA 9.7.14.5): mma,
 * its sparse forms mma.sp and mma.sp::ordered_metadata, and
 * ldmatrix, stmatrix, movmatrix. The words are read from the opcode's text, as ptxas reads
 * them: in any order, the types in the order D, A, B, C.
 */
#include "check_priv.h"

#include <stdio.h>
#include <string.h>

#include "front/checks.h"
#include "wgmma_form.h"

/* The element types of matrix fragments. */
enum mt { MT_NONE, MT_F16, MT_BF16, MT_TF32, MT_F32, MT_F64, MT_S8, MT_U8, MT_S4, MT_U4, MT_B1,
	  MT_E4M3, MT_E5M2, MT_S32, MT_OTHER };
static const char *const mt_names[] = {"", "f16", "bf16", "tf32", "f32", "f64", "s8", "u8",
				       "s4", "u4", "b1", "e4m3", "e5m2", "s32"};

static enum mt mt_of(const char *w, size_t n)
{
	for (unsigned i = 1; i < sizeof mt_names / sizeof mt_names[0]; i++)
		if (strlen(mt_names[i]) == n && memcmp(mt_names[i], w, n) == 0)
			return (enum mt)i;
	return MT_NONE;
}

/* A type word of another kind (.b32, .u32 ...): a type, but none of a fragment's. */
static bool other_type(const char *w, size_t n)
{
	char buf[16];
	if (n == 0 || n >= sizeof buf)
		return false;
	buf[0] = '.';
	memcpy(buf + 1, w, n);
	enum ir_mod m = ir_mod_lookup(buf, n + 1);
	return m != MOD_NONE && ir_mod_kind(m) == MK_TYPE;
}

/* "m16n8k16" -> 16, 8, 16 (k 0 for "m8n8"). */
static bool shape_of(const char *w, size_t n, unsigned v[3])
{
	return mma_shape_parse(w, n, v, true);
}

/*
 * The forms of mma (ISA 9.7.14.5.14, 9.7.14.6 for .sp): by input type class and shape, the
 * 32-bit registers of A and B (A and B .f64: 64-bit ones), the accumulator types, whether
 * any layout is allowed (only m8n8k4 .f16; else .row.col), and the PTX ISA / target gates.
 */
enum cls { C_F16, C_BF16, C_TF32, C_F64, C_I8, C_I4, C_B1, C_F8 };
struct mma_row {
	enum cls cls;
	bool sparse;
	uint16_t m, n, k;
	uint8_t na, nb;
	bool any_layout;
	uint16_t ptx, sm;
};
static const struct mma_row mma_rows[] = {
	{C_F16, false, 8, 8, 4, 2, 2, true, 64, 70},
	{C_F16, false, 16, 8, 8, 2, 1, false, 65, 75},
	{C_F16, false, 16, 8, 16, 4, 2, false, 70, 80},
	{C_BF16, false, 16, 8, 8, 2, 1, false, 70, 80},
	{C_BF16, false, 16, 8, 16, 4, 2, false, 70, 80},
	{C_TF32, false, 16, 8, 4, 2, 1, false, 70, 80},
	{C_TF32, false, 16, 8, 8, 4, 2, false, 70, 80},
	{C_F64, false, 8, 8, 4, 1, 1, false, 70, 80},
	{C_F64, false, 16, 8, 4, 2, 1, false, 78, 90},
	{C_F64, false, 16, 8, 8, 4, 2, false, 78, 90},
	{C_F64, false, 16, 8, 16, 8, 4, false, 78, 90},
	{C_I8, false, 8, 8, 16, 1, 1, false, 65, 75},
	{C_I8, false, 16, 8, 16, 2, 1, false, 70, 80},
	{C_I8, false, 16, 8, 32, 4, 2, false, 70, 80},
	{C_I4, false, 8, 8, 32, 1, 1, false, 65, 75},
	{C_I4, false, 16, 8, 32, 2, 1, false, 70, 80},
	{C_I4, false, 16, 8, 64, 4, 2, false, 70, 80},
	{C_B1, false, 8, 8, 128, 1, 1, false, 70, 80},
	{C_B1, false, 16, 8, 128, 2, 1, false, 70, 80},
	{C_B1, false, 16, 8, 256, 4, 2, false, 70, 80},
	{C_F8, false, 16, 8, 32, 4, 2, false, 84, 89},
	{C_F8, false, 16, 8, 16, 2, 1, false, 87, 89},
	{C_F16, true, 16, 8, 16, 2, 2, false, 71, 80},
	{C_F16, true, 16, 8, 32, 4, 4, false, 71, 80},
	{C_BF16, true, 16, 8, 16, 2, 2, false, 71, 80},
	{C_BF16, true, 16, 8, 32, 4, 4, false, 71, 80},
	{C_TF32, true, 16, 8, 8, 2, 2, false, 71, 80},
	{C_TF32, true, 16, 8, 16, 4, 4, false, 71, 80},
	{C_I8, true, 16, 8, 32, 2, 2, false, 71, 80},
	{C_I8, true, 16, 8, 64, 4, 4, false, 71, 80},
	{C_I4, true, 16, 8, 64, 2, 2, false, 71, 80},
	{C_I4, true, 16, 8, 128, 4, 4, false, 71, 80},
	{C_F8, true, 16, 8, 64, 4, 4, false, 84, 89},
};

static int cls_of(enum mt a, enum mt b)
{
	bool f8a = a == MT_E4M3 || a == MT_E5M2, f8b = b == MT_E4M3 || b == MT_E5M2;
	bool i8a = a == MT_S8 || a == MT_U8, i8b = b == MT_S8 || b == MT_U8;
	bool i4a = a == MT_S4 || a == MT_U4, i4b = b == MT_S4 || b == MT_U4;
	if (f8a && f8b)
		return C_F8;
	if (i8a && i8b)
		return C_I8;
	if (i4a && i4b)
		return C_I4;
	if (a != b)
		return -1;
	switch (a) {
	case MT_F16: return C_F16;
	case MT_BF16: return C_BF16;
	case MT_TF32: return C_TF32;
	case MT_F64: return C_F64;
	case MT_B1: return C_B1;
	default: return -1;
	}
}

/* Whether every element of the vector o is a register fragment type t takes: .f32 and
 * .f64 their own registers or .bN ones, the packed and integer types 32-bit integer
 * (.b32/.u32/.s32) ones. */
static bool frag_ok(const struct ir_operand *o, unsigned n, enum mt t)
{
	if (o->kind != OPND_VEC || o->vec.n != n)
		return false;
	for (unsigned i = 0; i < n; i++) {
		const struct ir_operand *e = &o->vec.elems[i];
		if (t == MT_F32 ? !ck_reg_fits(ck_reg_type(e), MOD_F32)
		    : t == MT_F64 ? !ck_reg_fits(ck_reg_type(e), MOD_F64) : !ck_is_int_reg(e, 4))
			return false;
	}
	return true;
}

struct mform {
	unsigned nsync, naligned, nlayout, nshape, ntypes, nsat, nops;
	bool layout_row[2];
	unsigned shape[3];
	enum mt t[4];
	bool other_ty, ops_bad;
	const char *op1;
	size_t op1n;
};

/* mma, mma.sp, mma.sp::ordered_metadata. */
void ck_mma_check(struct ck *c, const struct ir_insn *in, const struct mods *ms)
{
	(void)ms;
	bool sparse = in->op != OP_MMA;
	const char *name = ir_op_name(in->op);
	struct ck_words ws;
	ck_words(c, in, in->op == OP_MMA ? 1 : 2, &ws);
	if (ws.overflow) {
		ck_report(c, CHECK_MOD_CONFLICT, in->op_span, "too many modifiers on %s", name);
		return;
	}
	struct mform f;
	memset(&f, 0, sizeof f);
	for (unsigned i = 0; i < ws.count; i++) {
		unsigned v[3];
		enum mt t;
		if (ck_word_is(&ws, i, "sync")) {
			f.nsync++;
		} else if (ck_word_is(&ws, i, "aligned")) {
			f.naligned++;
		} else if (ck_word_is(&ws, i, "row") || ck_word_is(&ws, i, "col")) {
			if (f.nlayout < 2)
				f.layout_row[f.nlayout] = ws.w[i][0] == 'r';
			f.nlayout++;
		} else if (ck_word_is(&ws, i, "satfinite")) {
			f.nsat++;
		} else if (ck_word_is(&ws, i, "xor") || ck_word_is(&ws, i, "and") || ck_word_is(&ws, i, "popc")) {
			bool popc = ws.w[i][0] == 'p';
			if (f.nops == 0 && !popc) {
				f.op1 = ws.w[i];
				f.op1n = ws.n[i];
			}
			f.ops_bad |= f.nops == 0 ? popc : !popc;
			f.nops++;
		} else if (shape_of(ws.w[i], ws.n[i], v) && v[2]) {
			memcpy(f.shape, v, sizeof v);
			f.nshape++;
		} else if ((t = mt_of(ws.w[i], ws.n[i])) != MT_NONE) {
			if (f.ntypes < 4)
				f.t[f.ntypes] = t;
			f.ntypes++;
		} else if (other_type(ws.w[i], ws.n[i])) {
			f.other_ty = true;
			f.ntypes++;
		} else {
			ck_report(c, CHECK_MOD_NOT_ALLOWED, in->op_span,
				  "unexpected modifier '.%.*s' on %s", (int)ws.n[i], ws.w[i], name);
			return;
		}
	}
	if (!f.nsync || !f.naligned) {
		ck_report(c, CHECK_MOD_MISSING, in->op_span, "%s is written %s.sync.aligned", name,
			  name);
		return;
	}
	if (f.naligned > 1 || f.nshape != 1) {
		ck_report(c, CHECK_MOD_CONFLICT, in->op_span, "%s takes one shape and one .aligned",
			  name);
		return;
	}
	if (f.ntypes != 4 || f.other_ty) {
		ck_report(c, CHECK_INSN_TYPE, in->op_span,
			  "%s takes four types: D, A, B, C (.f32.f16.f16.f32 ...)", name);
		return;
	}
	enum mt d = f.t[0], a = f.t[1], b = f.t[2], cc = f.t[3];
	int cls = cls_of(a, b);
	const struct mma_row *r = NULL;
	for (size_t i = 0; cls >= 0 && i < sizeof mma_rows / sizeof mma_rows[0]; i++)
		if (mma_rows[i].cls == (enum cls)cls && mma_rows[i].sparse == sparse &&
		    mma_rows[i].m == f.shape[0] && mma_rows[i].n == f.shape[1] &&
		    mma_rows[i].k == f.shape[2])
			r = &mma_rows[i];
	if (!r) {
		ck_report(c, CHECK_INSN_TYPE, in->op_span, "%s has no form .m%un%uk%u with A .%s "
			  "and B .%s", name, f.shape[0], f.shape[1], f.shape[2], mt_names[a],
			  mt_names[b]);
		return;
	}
	/* accumulators: .f16/.f32 for f16 and fp8 inputs (D and C alike past m8n8k4), .f32 for
	 * bf16 and tf32, .f64 for f64, .s32 for the integers */
	bool acc_ok;
	switch (r->cls) {
	case C_F16:
	case C_F8:
		acc_ok = (d == MT_F16 || d == MT_F32) && (cc == MT_F16 || cc == MT_F32) &&
			 (r->any_layout || d == cc);
		break;
	case C_BF16:
	case C_TF32:
		acc_ok = d == MT_F32 && cc == MT_F32;
		break;
	case C_F64:
		acc_ok = d == MT_F64 && cc == MT_F64;
		break;
	default:
		acc_ok = d == MT_S32 && cc == MT_S32;
	}
	if (!acc_ok) {
		ck_report(c, CHECK_INSN_TYPE, in->op_span, "%s with .%s inputs cannot accumulate "
			  ".%s into .%s", name, mt_names[a], mt_names[cc], mt_names[d]);
		return;
	}
	if (f.nlayout != 2 || (!r->any_layout && !(f.layout_row[0] && !f.layout_row[1]))) {
		ck_report(c, CHECK_MOD_NOT_ALLOWED, in->op_span, "%s .m%un%uk%u takes the layouts %s",
			  name, r->m, r->n, r->k, r->any_layout ? "of A and B (.row/.col)"
								: ".row.col");
		return;
	}
	bool integer = r->cls == C_I8 || r->cls == C_I4 || r->cls == C_B1;
	if (f.nsat && (!integer || r->cls == C_B1)) {
		ck_report(c, CHECK_MOD_NOT_ALLOWED, in->op_span,
			  ".satfinite is only for the 8- and 4-bit integer forms of %s", name);
		return;
	}
	if ((r->cls == C_B1) != (f.nops > 0) ||
	    (f.nops && (f.nops != 2 || f.ops_bad))) {
		ck_report(c, CHECK_MOD_MISSING, in->op_span, r->cls == C_B1
			  ? "the b1 form of %s takes .xor.popc or .and.popc"
			  : ".xor/.and.popc is only for the b1 form of %s", name);
		return;
	}
	if (!ck_need(c, in->op_span, r->ptx, r->sm, "%s .m%un%uk%u .%s", name, r->m, r->n, r->k,
		     mt_names[a]))
		return;
	if (in->op == OP_MMA_SP_ORDERED &&
	    !ck_need(c, in->op_span, 85, 80, "%s", name))
		return;
	/* operands: D, A, B, C (sparse: then the metadata and the selector) */
	unsigned want = sparse ? 6 : 4;
	if (in->nopnds != want) {
		ck_report(c, CHECK_OPND_COUNT, in->span, "%s takes %u operands (has %u)", name, want,
			  in->nopnds);
		return;
	}
	unsigned dn = d == MT_F64 ? (r->m == 8 ? 2 : 4)
		      : d == MT_F16 ? (r->m == 8 ? 4 : 2) : (r->m == 8 && r->cls == C_F16 ? 8 :
							      r->m == 8 ? 2 : 4);
	unsigned cn = cc == MT_F64 ? (r->m == 8 ? 2 : 4)
		      : cc == MT_F16 ? (r->m == 8 ? 4 : 2) : (r->m == 8 && r->cls == C_F16 ? 8 :
							       r->m == 8 ? 2 : 4);
	enum mt at = r->cls == C_F64 ? MT_F64 : MT_B1; /* B1: any 32-bit integer register */
	const struct { const struct ir_operand *o; unsigned n; enum mt t; const char *what; }
	frags[4] = {
		{&in->opnds[0], dn, d, "D"}, {&in->opnds[1], r->na, at, "A"},
		{&in->opnds[2], r->nb, at, "B"}, {&in->opnds[3], cn, cc, "C"},
	};
	for (int i = 0; i < 4; i++)
		if (!frag_ok(frags[i].o, frags[i].n, frags[i].t)) {
			ck_report(c, CHECK_OPND_TYPE, frags[i].o->span,
				  "%s of %s .m%un%uk%u.%s is a vector of %u %s registers",
				  frags[i].what, name, r->m, r->n, r->k, mt_names[a], frags[i].n,
				  frags[i].t == MT_F32 ? ".f32 (or .b32)"
				  : frags[i].t == MT_F64 ? ".f64 (or .b64)" : "32-bit integer");
			return;
		}
	if (sparse) {
		const struct ir_operand *e = &in->opnds[4], *s = &in->opnds[5];
		if (!ck_is_int_reg(e, 4) && e->kind != OPND_IMM)
			ck_report(c, CHECK_OPND_TYPE, e->span,
				  "the sparsity metadata of %s is a 32-bit register", name);
		/* the selector: which threads of a group of four give the metadata */
		int64_t hi = r->cls == C_F16 || r->cls == C_BF16 ? 3 : r->cls == C_TF32 ? 3 : 1;
		if (s->kind != OPND_IMM)
			ck_report(c, CHECK_OPND_KIND, s->span,
				  "the sparsity selector of %s is an integer constant", name);
		else if (s->imm < 0 || s->imm > hi)
			ck_report(c, CHECK_OPND_VALUE, s->span, "the sparsity selector of %s .%s "
				  "is 0 to %lld (is %lld)", name, mt_names[a], (long long)hi,
				  (long long)s->imm);
	}
}

/* ldmatrix, stmatrix, movmatrix (ISA 9.7.14.5.15-17): .sync.aligned, the shape .m8n8 (the
 * others are for newer targets than sm_90a), .x1/.x2/.x4 (not on movmatrix, which needs
 * .trans), shared memory only, the type .b16, and vectors of that many 32-bit registers. */
void ck_matrix_check(struct ck *c, const struct ir_insn *in, const struct mods *ms)
{
	(void)ms;
	const char *name = ir_op_name(in->op);
	bool mov = in->op == OP_MOVMATRIX, st = in->op == OP_STMATRIX;
	struct ck_words ws;
	ck_words(c, in, 1, &ws);
	unsigned nsync = 0, naligned = 0, nshape = 0, nnum = 0, ntrans = 0, ntype = 0, nspace = 0;
	unsigned num = 0;
	bool bad_shape = false, bad_type = false, bad_space = false;
	for (unsigned i = 0; i < ws.count; i++) {
		unsigned v[3];
		if (ck_word_is(&ws, i, "sync")) {
			nsync++;
		} else if (ck_word_is(&ws, i, "aligned")) {
			naligned++;
		} else if (ck_word_is(&ws, i, "trans")) {
			ntrans++;
		} else if (!mov && (ck_word_is(&ws, i, "x1") || ck_word_is(&ws, i, "x2") ||
				    ck_word_is(&ws, i, "x4"))) {
			num = (unsigned)(ws.w[i][1] - '0'), nnum++;
		} else if (shape_of(ws.w[i], ws.n[i], v) && !v[2]) {
			bad_shape |= !(v[0] == 8 && v[1] == 8);
			nshape++;
		} else if (!mov && (ck_word_is(&ws, i, "shared") ||
				    ck_word_is(&ws, i, "shared::cta"))) {
			nspace++;
		} else if (!mov && (ck_word_is(&ws, i, "shared::cluster") ||
				    ck_word_is(&ws, i, "global") || ck_word_is(&ws, i, "local") ||
				    ck_word_is(&ws, i, "param") || ck_word_is(&ws, i, "const"))) {
			bad_space = true, nspace++;
		} else if (ck_word_is(&ws, i, "b16")) {
			ntype++;
		} else if (other_type(ws.w[i], ws.n[i])) {
			bad_type = true, ntype++;
		} else {
			ck_report(c, CHECK_MOD_NOT_ALLOWED, in->op_span,
				  "unexpected modifier '.%.*s' on %s", (int)ws.n[i], ws.w[i], name);
			return;
		}
	}
	if (!ck_need(c, in->op_span, in->op == OP_LDMATRIX ? 65 : 78,
		     in->op == OP_STMATRIX ? 90 : 75, "%s", name))
		return;
	if (!nsync || naligned != 1 || nshape != 1 || (!mov && nnum != 1) || ntrans > 1 ||
	    (mov && ntrans != 1)) {
		ck_report(c, CHECK_MOD_MISSING, in->op_span, "%s is written %s.sync.aligned.m8n8%s"
			  "%s.b16", name, name, mov ? "" : ".{x1,x2,x4}", mov ? ".trans" :
			  "{.trans}{.shared}");
		return;
	}
	if (bad_shape) {
		ck_report(c, CHECK_SM_TARGET, in->op_span, "%s takes the shape .m8n8 on targets up "
			  "to sm_90a", name);
		return;
	}
	if (nspace > 1 || bad_space) {
		ck_report(c, CHECK_MOD_NOT_ALLOWED, in->op_span, "%s works on .shared (.shared::cta) "
			  "memory only", name);
		return;
	}
	if (ntype != 1 || bad_type) {
		ck_report(c, CHECK_INSN_TYPE, in->op_span, "%s .m8n8 takes the type .b16", name);
		return;
	}
	if (in->nopnds != 2) {
		ck_report(c, CHECK_OPND_COUNT, in->span, "%s takes 2 operands (has %u)", name,
			  in->nopnds);
		return;
	}
	if (mov) {
		for (unsigned i = 0; i < 2; i++)
			if (!ck_is_int_reg(&in->opnds[i], 4)) {
				ck_report(c, CHECK_OPND_TYPE, in->opnds[i].span,
					  "the operands of movmatrix are 32-bit registers");
				return;
			}
		return;
	}
	const struct ir_operand *a = &in->opnds[st ? 0 : 1], *v = &in->opnds[st ? 1 : 0];
	if (a->kind != OPND_ADDR || a->bare) {
		ck_report(c, CHECK_OPND_KIND, a->span, "the matrix address of %s is in brackets",
			  name);
		return;
	}
	if (!ck_check_addr(c, in, a, st ? 0 : 1, true, false))
		return;
	bool ok = v->kind == OPND_VEC && v->vec.n == num;
	for (unsigned i = 0; ok && i < num; i++) {
		enum ir_mod t = ck_reg_type(&v->vec.elems[i]);
		ok = t != MOD_NONE && t != MOD_PRED && ir_type_size(t) == 4;
	}
	if (!ok)
		ck_report(c, CHECK_OPND_TYPE, v->span, "%s .x%u moves a vector of %u 32-bit "
			  "registers", name, num, num);
}

/* prefetch and prefetchu (ISA 9.7.9.15): a cache level (.L1, .L2, an L2 eviction priority
 * .L2::evict_last or .L2::evict_normal, or .tensormap), of a .global or .local address (a
 * priority: .global only; .tensormap: generic, .const or .param); prefetchu .L1 only. */
void ck_prefetch_insn_check(struct ck *c, const struct ir_insn *in, const struct mods *ms)
{
	(void)ms;
	const char *name = ir_op_name(in->op);
	bool u = in->op == OP_PREFETCHU;
	struct ck_words ws;
	ck_words(c, in, 1, &ws);
	unsigned nlevel = 0, nspace = 0;
	int level = -1; /* 0 L1, 1 L2, 2 priority, 3 tensormap */
	const char *space = NULL;
	size_t space_n = 0;
	for (unsigned i = 0; i < ws.count; i++) {
		static const char *const levels[] = {"L1", "L2", "L2::evict_last",
						     "L2::evict_normal", "tensormap"};
		static const int kind[] = {0, 1, 2, 2, 3};
		int k = -1;
		for (int j = 0; j < 5; j++)
			if (ck_word_is(&ws, i, levels[j]))
				k = kind[j];
		if (k >= 0) {
			level = k, nlevel++;
		} else if (ck_word_is(&ws, i, "global") || ck_word_is(&ws, i, "local") ||
			   ck_word_is(&ws, i, "shared") || ck_word_is(&ws, i, "const") ||
			   ck_word_is(&ws, i, "param") || ck_word_is(&ws, i, "shared::cta") ||
			   ck_word_is(&ws, i, "shared::cluster")) {
			space = ws.w[i], space_n = ws.n[i], nspace++;
		} else {
			ck_report(c, CHECK_MOD_NOT_ALLOWED, in->op_span,
				  "unexpected modifier '.%.*s' on %s", (int)ws.n[i], ws.w[i], name);
			return;
		}
	}
	if (nlevel != 1 || nspace > 1 || (u && (level != 0 || nspace))) {
		ck_report(c, CHECK_MOD_MISSING, in->op_span, u ? "prefetchu is written prefetchu.L1"
			  : "%s takes one cache level (.L1, .L2, .L2::evict_last, "
			  ".L2::evict_normal, .tensormap) and at most one state space", name);
		return;
	}
	if (level == 2 && !ck_need(c, in->op_span, 74, 80, "%s with an eviction priority", name))
		return;
	if (level == 3 && !ck_need(c, in->op_span, 80, 90, "%s.tensormap", name))
		return;
	bool global = space && space_n == 6 && memcmp(space, "global", 6) == 0;
	bool local = space && space_n == 5 && memcmp(space, "local", 5) == 0;
	bool ok = level == 3 ? !space || (space_n == 5 && (memcmp(space, "const", 5) == 0 ||
							   memcmp(space, "param", 5) == 0))
		  : level == 2 ? !space || global : !space || global || local;
	if (!ok) {
		ck_report(c, CHECK_MOD_NOT_ALLOWED, in->op_span, "%s%s does not take .%.*s", name,
			  level == 3 ? ".tensormap" : level == 2 ? " with an eviction priority" : "",
			  (int)space_n, space);
		return;
	}
	if (in->nopnds != 1) {
		ck_report(c, CHECK_OPND_COUNT, in->span, "%s takes 1 operand (has %u)", name,
			  in->nopnds);
		return;
	}
	const struct ir_operand *a = &in->opnds[0];
	if (a->kind != OPND_ADDR || a->bare) {
		ck_report(c, CHECK_OPND_KIND, a->span, "the operand of %s is an address in brackets",
			  name);
		return;
	}
	const struct ir_operand *b = a->addr.base;
	if (b && b->kind == OPND_REG) {
		ck_check_addr(c, in, a, 0, true, true);
		return;
	}
	if (b && b->kind == OPND_SYM && b->ref.sym && b->ref.sym->kind == SYM_VAR) {
		enum ir_mod vs = b->ref.sym->space;
		bool match = !space ? vs != MOD_PARAM || level == 3
			     : global ? vs == MOD_GLOBAL : local ? vs == MOD_LOCAL
			     : (space_n == 5 && memcmp(space, "const", 5) == 0) ? vs == MOD_CONST
			     : vs == MOD_PARAM;
		if (!match)
			ck_report(c, CHECK_ADDRESS, b->span, "'%.*s' is not in the state space %s "
				  "reads", (int)b->ref.sym->name_len, b->ref.sym->name, name);
	}
}
