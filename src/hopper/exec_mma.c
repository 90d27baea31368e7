/*
 * exec_mma.c - warp-level matrix instructions: mma.sync, ldmatrix, stmatrix, movmatrix and
 * wmma.load/store/mma. Each lane's fragment registers are gathered into whole matrices with
 * the layouts of the PTX manual, multiplied through tc_arith (the H100's arithmetic), and
 * scattered back; nothing here rounds or adds on its own.
 *
 * Notes
 * - m16n8kK fragments (ISA 9.7.14.5.x), for an element type of b bits packed p = 32/b to a
 *   32-bit register (p = 1 for tf32 and for f64's 64-bit registers), lane = 4g + t:
 *     A: register r, element j: row g + 8 (r & 1), column 4p (r >> 1) + p t + j
 *        (m8nNkK: row g, column p t + j);
 *     B: register r, element j: row (k) 4p r + p t + j, column g;
 *     C/D: element e of the lane: row g + 8 (e >> 1), column 2t + (e & 1).
 * - ldmatrix/stmatrix m8n8 .b16: matrix i's rows are addressed by lanes 8i..8i+7; lane l
 *   holds row l/4, columns 2(l%4) and 2(l%4)+1 of each matrix (with .trans, of its
 *   transpose), the lower column in the lower half. movmatrix transposes one such matrix.
 * - mma.m8n8k4 .f16 (ISA 9.7.14.5.1): four independent 8x8x4 products, one per quad-pair
 *   (lanes 4q..4q+3 and 16+4q..16+4q+3), with .row/.col layouts for A and B; ptxas emulates
 *   it on sm_90 with fp32 FMAs (tc_dot_m8n8k4_*).
 * - wmma fragments: the manual leaves their layout unspecified (ISA 9.7.14.4.1); ptxi uses
 *   the H100's, measured by tests/hw_tc/probes/wl_* and ws_* (wmma_at): tiles laid out like
 *   mma.sync registers, the same whatever the layout in memory. An f16 A or B fragment holds
 *   its distinct elements twice or four times over.
 * - These are .aligned warp instructions: the whole warp executes them together (rule
 *   warp-matrix-aligned), waiting for lanes that diverged like a .sync instruction does.
 */
#include <string.h>

#include "run/access.h"
#include "run/exec.h"
#include "run/initcheck.h"
#include "run/launch.h"
#include "run/memory.h"
#include "run/operand.h"
#include "run/race.h"
#include "report/rules.h"
#include "tc_arith.h"

/* Accumulator types beside tc_arith's element types (TC_F16 is the f16 accumulator). */
enum { MT_F32 = TC__COUNT, MT_S32, MT_F64, MT_B16, MT_NONE };

/* What load time decoded of a matrix instruction (dinsn->mma). */
struct mma_form {
	enum mma_kind kind;
	unsigned m, n, k;
	int ta, tb, tc, td;     /* element types of A, B, C, D (TC_* or MT_*) */
	enum tc_bop bop;
	bool satfinite, popc;
	unsigned nmat;          /* ldmatrix/stmatrix: matrices (.x1 .x2 .x4) */
	bool trans;
	char which;             /* wmma.load/store: 'a', 'b', 'c' (and 'd') */
	bool col;               /* wmma.load/store: column-major in memory */
	bool acol, bcol;        /* mma.m8n8k4 .f16: A, B column-major (.alayout.blayout) */
	bool quad;              /* mma.m8n8k4 .f16: four 8x8x4 products, one per quad-pair */
	unsigned sel;           /* mma.sp: the sparsity selector                              */
};

/* ---- types ------------------------------------------------------------------------------ */

static int mtype_of(enum ir_mod m)
{
	switch (m) {
	case MOD_F16: return TC_F16;
	case MOD_BF16: return TC_BF16;
	case MOD_TF32: return TC_TF32;
	case MOD_E4M3: return TC_E4M3;
	case MOD_E5M2: return TC_E5M2;
	case MOD_S8: return TC_S8;
	case MOD_U8: return TC_U8;
	case MOD_S4: return TC_S4;
	case MOD_U4: return TC_U4;
	case MOD_B1: return TC_B1;
	case MOD_F32: return MT_F32;
	case MOD_S32: return MT_S32;
	case MOD_F64: return MT_F64;
	case MOD_B16: return MT_B16;
	default: return MT_NONE;
	}
}

static const char *mtype_name(int t)
{
	switch (t) {
	case MT_F32: return "f32";
	case MT_S32: return "s32";
	case MT_F64: return "f64";
	case MT_B16: return "b16";
	case MT_NONE: return "?";
	default: return tc_elem_name((enum tc_elem)t);
	}
}

static unsigned mtype_bits(int t)
{
	switch (t) {
	case TC_F16: case TC_BF16: case MT_B16: return 16;
	case TC_E4M3: case TC_E5M2: case TC_S8: case TC_U8: return 8;
	case TC_S4: case TC_U4: return 4;
	case TC_B1: return 1;
	case MT_F64: return 64;
	default: return 32;
	}
}

/* Elements of type t in one register (64-bit registers for f64). */
static unsigned per_reg(int t)
{
	unsigned b = mtype_bits(t);
	return b >= 32 ? 1 : 32 / b;
}

/* The class of an A/B type for the table of forms: u8 goes with s8, u4 with s4, e5m2
 * with e4m3 (A and B may differ within a class). */
static int type_class(int t)
{
	return t == TC_U8 ? TC_S8 : t == TC_U4 ? TC_S4 : t == TC_E5M2 ? TC_E4M3 : t;
}

/* The mma.sync forms of sm_90 (ISA 9.7.14.5.14): M, N, K, A/B class, accumulator class
 * (TC_F16 standing for "f16 or f32"). */
#define MMA_FORMS(X)                                                        \
	X(16, 8, 16, TC_F16, TC_F16) X(16, 8, 8, TC_F16, TC_F16)            \
	X(8, 8, 4, TC_F16, TC_F16)                                          \
	X(16, 8, 16, TC_BF16, MT_F32) X(16, 8, 8, TC_BF16, MT_F32)          \
	X(16, 8, 8, TC_TF32, MT_F32) X(16, 8, 4, TC_TF32, MT_F32)           \
	X(16, 8, 32, TC_E4M3, TC_F16) X(16, 8, 16, TC_E4M3, TC_F16)         \
	X(8, 8, 4, MT_F64, MT_F64) X(16, 8, 4, MT_F64, MT_F64)              \
	X(16, 8, 8, MT_F64, MT_F64) X(16, 8, 16, MT_F64, MT_F64)            \
	X(8, 8, 16, TC_S8, MT_S32) X(16, 8, 16, TC_S8, MT_S32)              \
	X(16, 8, 32, TC_S8, MT_S32) X(8, 8, 32, TC_S4, MT_S32)              \
	X(16, 8, 32, TC_S4, MT_S32) X(16, 8, 64, TC_S4, MT_S32)             \
	X(8, 8, 128, TC_B1, MT_S32) X(16, 8, 128, TC_B1, MT_S32)            \
	X(16, 8, 256, TC_B1, MT_S32)

static bool acc_fits(int cls, int t)
{
	return cls == TC_F16 ? t == TC_F16 || t == MT_F32 : t == cls;
}

/* The mma.sp forms ptxas takes for sm_90a (ISA 9.7.14.6): M, N, K, A/B class, accumulator
 * class as MMA_FORMS (ptxas refuses fp8 with an f16 accumulator here). */
#define MMA_SP_FORMS(X)                                                     \
	X(16, 8, 16, TC_F16, TC_F16) X(16, 8, 32, TC_F16, TC_F16)           \
	X(16, 8, 16, TC_BF16, MT_F32) X(16, 8, 32, TC_BF16, MT_F32)         \
	X(16, 8, 8, TC_TF32, MT_F32) X(16, 8, 16, TC_TF32, MT_F32)          \
	X(16, 8, 32, TC_S8, MT_S32) X(16, 8, 64, TC_S8, MT_S32)             \
	X(16, 8, 64, TC_E4M3, MT_F32)

/*
 * mma.sp: A's row holds K/4 chunks (tf32: K/2 chunks of two), each with 4 bits of metadata;
 * the threads of a quad that hold the metadata of rows g and g + 8 (16 bits each) number
 * chunks / 4, and the sparsity selector picks which: 4 / that many values.
 */
static unsigned sp_chunks(const struct mma_form *f)
{
	return f->ta == TC_TF32 ? f->k / 2 : f->k / 4;
}

static unsigned sp_threads(const struct mma_form *f)
{
	return sp_chunks(f) / 4;
}

/* ---- decoding (load time) --------------------------------------------------------------- */

static unsigned nelem(const struct dop *o)
{
	return o->kind == DOP_VEC ? o->nelem : 1;
}

static const struct dop *elem(const struct dop *o, unsigned i)
{
	return o->kind == DOP_VEC ? &o->elems[i] : o;
}

/* Every element of o is a register of `bytes` bytes, and there are `want` of them, written
 * as a vector expression {...} even for one (ptxas: "Vector expected"). */
static const char *regs_check(const struct dop *o, unsigned want, unsigned bytes,
			      const char *what, char *buf, size_t len)
{
	if (o->kind != DOP_VEC) {
		snprintf(buf, len, "%s must be a vector expression {...}, even of one register", what);
		return buf;
	}
	if (nelem(o) != want) {
		snprintf(buf, len, "%s takes %u register%s (has %u)", what, want,
			 want == 1 ? "" : "s", nelem(o));
		return buf;
	}
	for (unsigned i = 0; i < want; i++) {
		const struct dop *e = elem(o, i);
		if (e->kind != DOP_REG || e->reg_size != bytes) {
			snprintf(buf, len, "%s must be %u-bit registers", what, bytes * 8);
			return buf;
		}
	}
	return NULL;
}

/* The shapes and types of MMA_FORMS or MMA_SP_FORMS as rows, so that one lookup serves
 * both. */
struct mma_shape {
	unsigned m, n, k;
	int cls, acc;
};
#define SHAPE_ROW(M, N, K, CLS, ACC) {M, N, K, CLS, ACC},
static const struct mma_shape dense_shapes[] = {MMA_FORMS(SHAPE_ROW)};
static const struct mma_shape sparse_shapes[] = {MMA_SP_FORMS(SHAPE_ROW)};
#undef SHAPE_ROW

/* NULL when f's shape and types are a row of tab; else why not ("mma.sp.m16n8k8 with ...").
 * name: "mma" or "mma.sp". */
static const char *form_known(const struct mma_form *f, const struct mma_shape *tab, size_t n,
			      const char *name, char *buf, size_t len)
{
	if (f->tb == MT_NONE || f->tc == MT_NONE || f->td == MT_NONE) {
		snprintf(buf, len, "%s needs four types (.dtype.atype.btype.ctype)", name);
		return buf;
	}
	int ca = type_class(f->ta);
	bool known = false;
	for (size_t i = 0; i < n && !known; i++)
		known = f->m == tab[i].m && f->n == tab[i].n && f->k == tab[i].k &&
			ca == tab[i].cls && type_class(f->tb) == tab[i].cls &&
			acc_fits(tab[i].acc, f->tc) && acc_fits(tab[i].acc, f->td);
	/* ptxas: an .f32 C needs an .f32 D */
	known &= !(f->tc == MT_F32 && f->td == TC_F16);
	if (known)
		return NULL;
	snprintf(buf, len, "%s.m%un%uk%u with .%s.%s.%s.%s is not an sm_90 form", name, f->m, f->n,
		 f->k, mtype_name(f->td), mtype_name(f->ta), mtype_name(f->tb), mtype_name(f->tc));
	return buf;
}

/* The registers of D, A, B and C: mn, mk, kn elements a lane, of ab (A, B), cb and db bytes. */
static const char *frag_regs(const struct mma_form *f, struct dinsn *di, unsigned mn,
			     unsigned mk, unsigned kn, unsigned ab, unsigned cb, unsigned db,
			     char *buf, size_t len)
{
	const char *e;
	if ((e = regs_check(&di->d, mn / per_reg(f->td), db, "D", buf, len)) ||
	    (e = regs_check(&di->s[0], mk / per_reg(f->ta), ab, "A", buf, len)) ||
	    (e = regs_check(&di->s[1], kn / per_reg(f->tb), ab, "B", buf, len)) ||
	    (e = regs_check(&di->s[2], mn / per_reg(f->tc), cb, "C", buf, len)))
		return e;
	return NULL;
}

static const char *decode_mma(struct mma_form *f, struct dinsn *di, char *buf, size_t len)
{
	const char *e = form_known(f, dense_shapes, sizeof dense_shapes / sizeof dense_shapes[0],
				   "mma", buf, len);
	if (e)
		return e;
	if (type_class(f->ta) == TC_E4M3 && f->tc != f->td) { /* fp8: .f16.f16 or .f32.f32 */
		snprintf(buf, len, "mma.m%un%uk%u with .%s.%s.%s.%s is not an sm_90 form", f->m,
			 f->n, f->k, mtype_name(f->td), mtype_name(f->ta), mtype_name(f->tb),
			 mtype_name(f->tc));
		return buf;
	}
	if (!f->quad && (f->acol || !f->bcol)) { /* as ptxas: only m8n8k4 .f16 takes others */
		snprintf(buf, len, "mma.m%un%uk%u with .%s takes .row.col only", f->m, f->n, f->k,
			 mtype_name(f->ta));
		return buf;
	}
	if (f->satfinite && f->td != MT_S32)
		return ".satfinite on mma is for integer types only";
	if (f->ta == TC_B1 && !f->popc)
		return "mma with .b1 needs .and.popc or .xor.popc";
	unsigned ab = f->ta == MT_F64 ? 8 : 4, cb = f->tc == MT_F64 ? 8 : 4;
	unsigned db = f->td == MT_F64 ? 8 : 4;
	/* elements per lane of C/D, A and B (m8n8k4 .f16: each quad-pair its own product) */
	unsigned g = f->quad ? 4 : 1, mn = g * f->m * f->n / 32, mk = g * f->m * f->k / 32;
	unsigned kn = g * f->k * f->n / 32;
	return frag_regs(f, di, mn, mk, kn, ab, cb, db, buf, len);
}

/* The selector is read from the text: the loader decodes immediates by the (float) type. */
static const char *decode_mma_sp(struct mma_form *f, const struct ir_insn *in, struct dinsn *di,
				 char *buf, size_t len)
{
	const char *e = form_known(f, sparse_shapes,
				   sizeof sparse_shapes / sizeof sparse_shapes[0], "mma.sp", buf, len);
	if (e)
		return e;
	if (f->acol || !f->bcol)
		return "mma.sp takes .row.col only";
	if (f->satfinite && f->td != MT_S32)
		return ".satfinite on mma.sp is for integer types only";
	unsigned mn = f->m * f->n / 32, mk = f->m * f->k / 64, kn = f->k * f->n / 32;
	if ((e = frag_regs(f, di, mn, mk, kn, 4, 4, 4, buf, len)))
		return e;
	if (di->nsrc != 5 || di->s[3].kind == DOP_VEC)
		return "mma.sp takes D, A, B, C, the metadata and the sparsity selector";
	unsigned nsel = 4 / sp_threads(f);
	const struct ir_operand *so = &in->opnds[in->nopnds - 1];
	if (so->kind != OPND_IMM || so->imm < 0 || so->imm >= (int64_t)nsel) {
		snprintf(buf, len, "the sparsity selector of mma.sp.m%un%uk%u .%s must be a constant "
			 "in 0..%u", f->m, f->n, f->k, mtype_name(f->ta), nsel - 1);
		return buf;
	}
	f->sel = (unsigned)so->imm;
	return NULL;
}

static const char *decode_ldst(struct mma_form *f, struct dinsn *di, char *buf, size_t len)
{
	bool ld = f->kind == MK_LDMATRIX;
	const struct dop *regs = ld ? &di->d : &di->s[1];
	const struct dop *addr = &di->s[0];

	if (f->m != 8 || f->n != 8 || f->td != MT_B16)
		return "only the .m8n8 .b16 form runs on sm_90 (.m16n16, .m8n16, .m16n8 and .b8 "
		       "need sm_100a)";
	if (!f->nmat)
		return "needs .x1, .x2 or .x4";
	if (addr->kind != DOP_ADDR)
		return "needs a shared-memory address operand";
	if (di->space != MS_SHARED_CTA && di->space != MS_SHARED_CLUSTER &&
	    di->space != MS_GENERIC)
		return "reads or writes shared memory only";
	return regs_check(regs, f->nmat, 4, ld ? "the destination" : "the source", buf, len);
}

/* movmatrix names plain registers (ptxas takes a one-element vector too). */
static bool b32_reg(const struct dop *o)
{
	const struct dop *r = o->kind == DOP_VEC && o->nelem == 1 ? &o->elems[0] : o;

	return r->kind == DOP_REG && r->reg_size == 4;
}

static const char *decode_movmatrix(struct mma_form *f, struct dinsn *di)
{
	if (f->m != 8 || f->n != 8 || f->td != MT_B16 || !f->trans)
		return "only movmatrix.sync.aligned.m8n8.trans.b16 exists";
	if (!b32_reg(&di->d) || !b32_reg(&di->s[0]))
		return "movmatrix takes a 32-bit register destination and source";
	return NULL;
}

/* The wmma shapes and A/B types of sm_90 (ISA 9.7.14.4.2): M, N, K, A/B class, accumulator
 * class (TC_F16: f16 or f32). */
#define WMMA_FORMS(X)                                                        \
	X(16, 16, 16, TC_F16, TC_F16) X(32, 8, 16, TC_F16, TC_F16)           \
	X(8, 32, 16, TC_F16, TC_F16) X(16, 16, 16, TC_BF16, MT_F32)          \
	X(32, 8, 16, TC_BF16, MT_F32) X(8, 32, 16, TC_BF16, MT_F32)          \
	X(16, 16, 16, TC_S8, MT_S32) X(32, 8, 16, TC_S8, MT_S32)             \
	X(8, 32, 16, TC_S8, MT_S32) X(16, 16, 8, TC_TF32, MT_F32)            \
	X(8, 8, 4, MT_F64, MT_F64) X(8, 8, 32, TC_S4, MT_S32)                \
	X(8, 8, 128, TC_B1, MT_S32)

/* Rows and columns of a wmma operand ('a' M x K, 'b' K x N, 'c'/'d' M x N). */
static void wmma_dims(const struct mma_form *f, char which, unsigned *rows, unsigned *cols)
{
	*rows = which == 'b' ? f->k : f->m;
	*cols = which == 'a' ? f->k : f->n;
}

/* Elements of one lane's fragment: distinct ones, and all (f16 A and B repeat theirs). */
static unsigned wmma_distinct(const struct mma_form *f, char which)
{
	unsigned r, c;

	wmma_dims(f, which, &r, &c);
	return r * c / 32;
}

static unsigned wmma_elems(const struct mma_form *f, char which, int t)
{
	return t == TC_F16 && (which == 'a' || which == 'b') ? 16 : wmma_distinct(f, which);
}

static int wmma_type(const struct mma_form *f, char which)
{
	return which == 'a' ? f->ta : which == 'b' ? f->tb : which == 'c' ? f->tc : f->td;
}

static bool wmma_shape_has(const struct mma_form *f, int cls, int acc, bool any_acc)
{
	bool known = false;
#define X(M, N, K, CLS, ACC)                                                          \
	known |= f->m == M && f->n == N && f->k == K && cls == CLS && (any_acc || ACC == acc);
	WMMA_FORMS(X)
#undef X
	return known;
}

/* Some wmma form of f's shape accumulates in type t. */
static bool wmma_acc_ok(const struct mma_form *f, int t)
{
	bool ok = false;
#define X(M, N, K, CLS, ACC) ok |= f->m == M && f->n == N && f->k == K && acc_fits(ACC, t);
	WMMA_FORMS(X)
#undef X
	return ok;
}

static const char *wmma_fragment_check(const struct mma_form *f, char which,
				       const struct dop *regs, char *buf, size_t len)
{
	int t = wmma_type(f, which);
	char what[24];

	snprintf(what, sizeof what, "the %c fragment", which);
	return regs_check(regs, wmma_elems(f, which, t) / per_reg(t), t == MT_F64 ? 8 : 4, what,
			  buf, len);
}

static const char *decode_wmma_ldst(struct mma_form *f, struct dinsn *di, int t, char *buf,
				    size_t len)
{
	bool store = f->kind == MK_WMMA_STORE;
	bool ok = f->which == 'a' || f->which == 'b'
		? t != MT_F32 && t != MT_S32 && wmma_shape_has(f, type_class(t), 0, true)
		: wmma_acc_ok(f, t);

	if (!ok) {
		snprintf(buf, len, "wmma.%s.%c with .m%un%uk%u and .%s is not an sm_90 form",
			 store ? "store" : "load", store ? 'd' : f->which, f->m, f->n, f->k,
			 mtype_name(t));
		return buf;
	}
	f->ta = f->tb = f->tc = f->td = t;
	if (di->s[0].kind != DOP_ADDR)
		return "wmma.load and wmma.store need an address operand";
	if (di->nsrc > (store ? 3u : 2u))
		return "too many operands";
	return wmma_fragment_check(f, f->which, store ? &di->s[1] : &di->d, buf, len);
}

static const char *decode_wmma_mma(struct mma_form *f, struct dinsn *di, const int *types,
				   unsigned nt, char *buf, size_t len)
{
	const char *e;

	if (nt == 2) /* .dtype.ctype: f16 inputs */
		f->td = types[0], f->ta = f->tb = TC_F16, f->tc = types[1];
	else
		f->td = types[0], f->ta = types[1], f->tb = types[2], f->tc = types[3];
	int ca = type_class(f->ta);
	bool ok = (nt == 2 || nt == 4) && ca == type_class(f->tb) &&
		  wmma_shape_has(f, ca, f->td, ca == TC_F16) &&
		  (ca == TC_F16 ? acc_fits(TC_F16, f->tc) && acc_fits(TC_F16, f->td)
			       : f->tc == f->td);
	if (!ok) {
		snprintf(buf, len, "wmma.mma with .m%un%uk%u and .%s.%s.%s.%s is not an sm_90 form",
			 f->m, f->n, f->k, mtype_name(f->td), mtype_name(f->ta), mtype_name(f->tb),
			 mtype_name(f->tc));
		return buf;
	}
	if (f->ta == TC_B1 && !f->popc)
		return "wmma.mma with .b1 needs .xor.popc or .and.popc";
	if ((e = wmma_fragment_check(f, 'd', &di->d, buf, len)) ||
	    (e = wmma_fragment_check(f, 'a', &di->s[0], buf, len)) ||
	    (e = wmma_fragment_check(f, 'b', &di->s[1], buf, len)) ||
	    (e = wmma_fragment_check(f, 'c', &di->s[2], buf, len)))
		return e;
	return NULL;
}

const char *mma_decode(struct arena *a, const struct ir_insn *in, struct dinsn *di,
		       enum mma_kind kind, char which, char *buf, size_t len)
{
	struct mma_form *f = arena_alloc(a, sizeof *f);
	int types[4] = {MT_NONE, MT_NONE, MT_NONE, MT_NONE};
	unsigned nt = 0;

	unsigned nlayout = 0;

	memset(f, 0, sizeof *f);
	f->kind = kind;
	f->which = which;
	for (uint32_t i = 0; i < in->nmods; i++) {
		enum ir_mod m = in->mods[i];
		if (ir_mod_kind(m) == MK_SHAPE) {
			unsigned s = (unsigned)ir_mod_arg(m);
			f->m = s >> 20, f->n = (s >> 10) & 1023, f->k = s & 1023;
		} else if (ir_mod_kind(m) == MK_TYPE && nt < 4) {
			types[nt++] = mtype_of(m);
		} else if (m == MOD_X1 || m == MOD_X2 || m == MOD_X4) {
			f->nmat = (unsigned)ir_mod_arg(m);
		}
		f->col |= m == MOD_COL;
		if (m == MOD_ROW || m == MOD_COL) { /* .alayout.blayout of mma, in this order */
			if (nlayout == 0)
				f->acol = m == MOD_COL;
			else
				f->bcol = m == MOD_COL;
			nlayout++;
		}
		f->satfinite |= m == MOD_SATFINITE;
		f->trans |= m == MOD_TRANS;
		f->popc |= m == MOD_POPC;
		if (m == MOD_XOR)
			f->bop = TC_BOP_XOR;
	}
	di->mma = f;
	switch (f->kind) {
	case MK_MMA:
		f->td = types[0], f->ta = types[1], f->tb = types[2], f->tc = types[3];
		f->quad = f->m == 8 && f->k == 4 && f->ta == TC_F16;
		if (nlayout != 2)
			return "mma.sync needs .alayout and .blayout (.row.col)";
		return decode_mma(f, di, buf, len);
	case MK_MMA_SP:
		f->td = types[0], f->ta = types[1], f->tb = types[2], f->tc = types[3];
		if (nlayout != 2)
			return "mma.sp needs .alayout and .blayout (.row.col)";
		return decode_mma_sp(f, in, di, buf, len);
	case MK_LDMATRIX:
	case MK_STMATRIX:
		f->td = types[0];
		return decode_ldst(f, di, buf, len);
	case MK_WMMA_LOAD:
	case MK_WMMA_STORE:
		return decode_wmma_ldst(f, di, types[0], buf, len);
	case MK_WMMA_MMA:
		return decode_wmma_mma(f, di, types, nt, buf, len);
	default:
		f->td = types[0];
		return decode_movmatrix(f, di);
	}
}

/* ---- fragments -------------------------------------------------------------------------- */

/* Element j (of `bits` bits) of a register value. */
static uint64_t reg_elem(uint64_t v, unsigned bits, unsigned j)
{
	return bits >= 64 ? v : (v >> (bits * j)) & ((1ull << bits) - 1);
}

/*
 * Reads operand o of every lane into matrix x (rows x cols, row-major); `at` gives the row
 * and column of element e of a lane's fragment.
 */
typedef void frag_at(const struct mma_form *f, int t, unsigned lane, unsigned e, unsigned *row,
		     unsigned *col);

static void frag_a(const struct mma_form *f, int t, unsigned lane, unsigned e, unsigned *row,
		   unsigned *col)
{
	unsigned p = per_reg(t), r = e / p, j = e % p, g = lane >> 2, q = lane & 3;

	*row = g + (f->m == 16 ? 8 * (r & 1) : 0);
	*col = 4 * p * (f->m == 16 ? r >> 1 : r) + p * q + j;
}

static void frag_b(const struct mma_form *f, int t, unsigned lane, unsigned e, unsigned *row,
		   unsigned *col)
{
	unsigned p = per_reg(t), r = e / p, j = e % p;

	(void)f;
	*row = 4 * p * r + p * (lane & 3) + j;
	*col = lane >> 2;
}

static void frag_c(const struct mma_form *f, int t, unsigned lane, unsigned e, unsigned *row,
		   unsigned *col)
{
	(void)f, (void)t;
	*row = (lane >> 2) + 8 * (e >> 1);
	*col = 2 * (lane & 3) + (e & 1);
}

static void gather(struct launch *L, struct warp *w, struct frame *f, const struct mma_form *mf,
		   const struct dop *o, int t, frag_at *at, uint64_t *x, unsigned cols)
{
	unsigned bits = mtype_bits(t), p = per_reg(t);

	for (unsigned lane = 0; lane < LANES; lane++)
		for (unsigned r = 0; r < nelem(o); r++) {
			uint64_t v = op_read(L, w, f, elem(o, r), lane);
			for (unsigned j = 0; j < p; j++) {
				unsigned row, col;
				at(mf, t, lane, r * p + j, &row, &col);
				x[row * cols + col] = reg_elem(v, bits, j);
			}
		}
}

static void scatter(struct frame *f, const struct mma_form *mf, const struct dop *o, int t,
		    const uint64_t *x, unsigned cols)
{
	unsigned bits = mtype_bits(t), p = per_reg(t);

	for (unsigned lane = 0; lane < LANES; lane++)
		for (unsigned r = 0; r < nelem(o); r++) {
			uint64_t v = 0;
			for (unsigned j = 0; j < p; j++) {
				unsigned row, col;
				frag_c(mf, t, lane, r * p + j, &row, &col);
				v |= x[row * cols + col] << (bits * j % 64);
			}
			op_write(f, elem(o, r), lane, v);
		}
}

/* ---- mma.sync --------------------------------------------------------------------------- */

/* One element of D from row i of A, column j of B and c. */
static uint64_t mma_elem(const struct mma_form *f, const uint64_t *a, const uint64_t *b,
			 unsigned i, unsigned j, uint64_t c)
{
	uint32_t ra[256], cb[256];
	uint64_t a64[16], b64[16];

	if (f->ta == MT_F64) {
		for (unsigned k = 0; k < f->k; k++)
			a64[k] = a[i * f->k + k], b64[k] = b[k * f->n + j];
		return tc_dot_f64(a64, b64, f->k, c);
	}
	for (unsigned k = 0; k < f->k; k++)
		ra[k] = (uint32_t)a[i * f->k + k], cb[k] = (uint32_t)b[k * f->n + j];
	switch (f->ta) {
	case TC_B1: {
		uint32_t wa[8] = {0}, wb[8] = {0};
		for (unsigned k = 0; k < f->k; k++)
			wa[k / 32] |= ra[k] << (k % 32), wb[k / 32] |= cb[k] << (k % 32);
		return (uint32_t)tc_dot_b1(f->bop, wa, wb, f->k / 32, (int32_t)c);
	}
	case TC_S8: case TC_U8: case TC_S4: case TC_U4:
		return (uint32_t)tc_dot_int((enum tc_elem)f->ta, (enum tc_elem)f->tb, ra, cb, f->k,
					    (int32_t)c, f->satfinite);
	case TC_E4M3: case TC_E5M2:
		if (f->td == TC_F16)
			return tc_dot_fp8_sm90_f16((enum tc_elem)f->ta, (enum tc_elem)f->tb, ra, cb,
						   f->k, (uint16_t)c);
		return tc_dot_fp8_sm90_f32((enum tc_elem)f->ta, (enum tc_elem)f->tb, ra, cb, f->k,
					   (uint32_t)c);
	case TC_TF32:
		if (f->kind == MK_WMMA_MMA) /* wmma's k8 runs as two k4 blocks on the H100 */
			return tc_dot_f32(TC_TF32, TC_TF32, ra + 4, cb + 4, 4,
					  tc_dot_f32(TC_TF32, TC_TF32, ra, cb, 4, (uint32_t)c));
		return tc_dot_f32(TC_TF32, TC_TF32, ra, cb, f->k, (uint32_t)c);
	default:
		if (f->td == TC_F16 && f->tc == MT_F32) /* wmma .f16.f32: the f32 result rounded */
			return tc_f32_to_f16(tc_dot_f32((enum tc_elem)f->ta, (enum tc_elem)f->tb, ra,
							cb, f->k, (uint32_t)c));
		if (f->td == TC_F16)
			return tc_dot_f16((enum tc_elem)f->ta, (enum tc_elem)f->tb, ra, cb, f->k,
					  (uint16_t)c);
		return tc_dot_f32((enum tc_elem)f->ta, (enum tc_elem)f->tb, ra, cb, f->k,
				  (uint32_t)c);
	}
}

/* f16 bits -> f32 bits, exactly (an f16 C under an f32 D). */
static uint64_t f16_to_f32(uint64_t h)
{
	uint32_t s = (uint32_t)(h & 0x8000) << 16, e = (h >> 10) & 31, m = h & 0x3ff;

	if (e == 31)
		return s | 0x7f800000u | m << 13;
	if (e == 0) {
		if (!m)
			return s;
		e = 1;
		while (!(m & 0x400))
			m <<= 1, e--;
		m &= 0x3ff;
	}
	return s | (e + 112) << 23 | m << 13;
}

static void run_mma_sync(struct launch *L, struct warp *w, struct frame *fr,
			 const struct dinsn *di)
{
	const struct mma_form *f = di->mma;
	uint64_t a[16 * 256], b[256 * 8], c[16 * 8], d[16 * 8];

	gather(L, w, fr, f, &di->s[0], f->ta, frag_a, a, f->k);
	gather(L, w, fr, f, &di->s[1], f->tb, frag_b, b, f->n);
	gather(L, w, fr, f, &di->s[2], f->tc, frag_c, c, f->n);
	for (unsigned i = 0; i < f->m; i++)
		for (unsigned j = 0; j < f->n; j++) {
			uint64_t cij = c[i * f->n + j];
			if (f->tc == TC_F16 && f->td == MT_F32)
				cij = f16_to_f32(cij);
			d[i * f->n + j] = mma_elem(f, a, b, i, j, cij);
		}
	scatter(fr, f, &di->d, f->td, d, f->n);
}

/* ---- mma.sp ---------------------------------------------------------------------------- */

/*
 * Column of A's row `row` that element cc of its compressed row (K/2 elements, in the
 * layout of a dense mma of depth K/2) stands for. Chunk c of the row (4 columns, 2 of them
 * kept) is described by 4 bits of one lane's metadata word: two 2-bit indices, the lower for
 * the lower element. For 16-bit types, lane 4 (row % 8) + sel * threads + c / 4,
 * bits from 16 (row / 8) + 4 (c % 4); for 8-bit types, lane 4 (row % 8) + 2 sel + row / 8
 * + 2 (c / 8), bits from 4 (c % 8) (measured: tests/hw_tc/probes/sl_*, sp_*). The H100
 * checks none of it: an index repeated uses that column twice.
 */
static unsigned sp_nibble(const struct mma_form *f, const uint32_t *meta, unsigned row,
			  unsigned c)
{
	if (mtype_bits(f->ta) == 8)
		return (meta[4 * (row % 8) + 2 * f->sel + row / 8 + 2 * (c / 8)] >> (4 * (c % 8))) &
		       15;
	return (meta[4 * (row % 8) + f->sel * sp_threads(f) + c / 4] >> (16 * (row / 8) +
								       4 * (c % 4))) & 15;
}

/*
 * tf32 is read as pairs of 16-bit halves, as wgmma.mma_async.sp's tf32 is: the 16-bit layout
 * above, chunk c being 4 halves (columns 2c and 2c + 1) that hold one compressed element;
 * 0b0100 keeps column 2c, 0b1110 column 2c + 1 (measured: tests/hw_tc/probes/spv_*, stl_*).
 * The other 14 patterns take the element's halves apart, which ptxi does not model
 * (UINT32_MAX).
 */
static unsigned sp_column(const struct mma_form *f, const uint32_t *meta, unsigned row,
			  unsigned cc)
{
	if (f->ta == TC_TF32) {
		unsigned nib = sp_nibble(f, meta, row, cc);
		return nib == 4 ? 2 * cc : nib == 14 ? 2 * cc + 1 : UINT32_MAX;
	}
	unsigned c = cc / 2;

	return 4 * c + ((sp_nibble(f, meta, row, c) >> (2 * (cc % 2))) & 3);
}

static void run_mma_sp(struct launch *L, struct warp *w, struct frame *fr,
		       const struct dinsn *di)
{
	const struct mma_form *f = di->mma;
	struct mma_form h = *f; /* the dense product of depth K/2 each row computes */
	uint64_t a[16 * 32], b[64 * 8], c[16 * 8], d[16 * 8], bs[32 * 8];
	uint32_t meta[LANES];

	h.k = f->k / 2;
	gather(L, w, fr, &h, &di->s[0], f->ta, frag_a, a, h.k);
	gather(L, w, fr, f, &di->s[1], f->tb, frag_b, b, f->n);
	gather(L, w, fr, f, &di->s[2], f->tc, frag_c, c, f->n);
	for (unsigned lane = 0; lane < LANES; lane++)
		meta[lane] = (uint32_t)op_read(L, w, fr, &di->s[3], lane);
	for (unsigned i = 0; i < f->m; i++) {
		for (unsigned cc = 0; cc < h.k; cc++) {
			unsigned col = sp_column(f, meta, i, cc);

			if (col == UINT32_MAX) {
				runtime_error(L, 2, "mma.sp.m%un%uk%u with .tf32: the metadata of row "
					      "%u keeps compressed element %u with pattern 0x%x, not "
					      "0b0100 (0x4) or 0b1110 (0xe); what the H100 computes then "
					      "is not modelled (docs/tensor-cores.md)", f->m, f->n, f->k,
					      i, cc, sp_nibble(f, meta, i, cc));
				return;
			}
			for (unsigned j = 0; j < f->n; j++)
				bs[cc * f->n + j] = b[col * f->n + j];
		}
		for (unsigned j = 0; j < f->n; j++) {
			uint64_t cij = c[i * f->n + j];
			if (f->tc == TC_F16 && f->td == MT_F32)
				cij = f16_to_f32(cij);
			d[i * f->n + j] = mma_elem(&h, a + i * h.k, bs, 0, j, cij);
		}
	}
	scatter(fr, f, &di->d, f->td, d, f->n);
}

/* ---- mma.m8n8k4 with .f16: quad-pairs ------------------------------------------------------ */

/*
 * Lanes 4q..4q+3 (low) and 16+4q..16+4q+3 (high) compute product q alone; where element i
 * of a lane's fragment sits in its 8x8x4 matrices (ISA 9.7.14.5.1, checked on the H100 by
 * tests/hw_tc/probes/mn_m8n8k4_*). r = lane % 4, h = 4 for a high lane.
 */
static unsigned quad_of(unsigned lane)
{
	return (lane >> 2) & 3;
}

static void quad_at(const struct mma_form *f, char which, unsigned lane, unsigned i,
		    unsigned *row, unsigned *col)
{
	unsigned r = lane & 3, h = lane >= 16 ? 4 : 0;

	switch (which) {
	case 'a':
		*row = f->acol ? i + h : r + h;
		*col = f->acol ? r : i;
		break;
	case 'b':
		*row = f->bcol ? i : r;
		*col = f->bcol ? r + h : i + h;
		break;
	default: {
		int t = which == 'c' ? f->tc : f->td;
		if (t == TC_F16) {
			*row = r + h, *col = i;
		} else {
			*row = (lane & 1) + (i & 2) + h;
			*col = (i & 4) + (lane & 2) + (i & 1);
		}
	}
	}
}

static void run_mma_quad(struct launch *L, struct warp *w, struct frame *fr,
			  const struct dinsn *di)
{
	const struct mma_form *f = di->mma;
	const struct dop *ops[3] = {&di->s[0], &di->s[1], &di->s[2]};
	const char which[3] = {'a', 'b', 'c'};
	int types[3] = {TC_F16, TC_F16, f->tc};
	uint32_t x[3][4][64]; /* A (8x4), B (4x8), C (8x8) of each quad-pair, row-major */
	uint32_t d[4][64];

	for (unsigned o = 0; o < 3; o++) {
		unsigned bits = mtype_bits(types[o]), p = per_reg(types[o]);
		unsigned cols = which[o] == 'a' ? 4 : 8;
		for (unsigned lane = 0; lane < LANES; lane++)
			for (unsigned r = 0; r < nelem(ops[o]); r++) {
				uint64_t v = op_read(L, w, fr, elem(ops[o], r), lane);
				for (unsigned j = 0; j < p; j++) {
					unsigned row, col;
					quad_at(f, which[o], lane, r * p + j, &row, &col);
					x[o][quad_of(lane)][row * cols + col] =
						(uint32_t)reg_elem(v, bits, j);
				}
			}
	}
	for (unsigned q = 0; q < 4; q++)
		for (unsigned i = 0; i < 8; i++)
			for (unsigned j = 0; j < 8; j++) {
				uint32_t a[4], b[4], c = x[2][q][i * 8 + j];
				for (unsigned k = 0; k < 4; k++)
					a[k] = x[0][q][i * 4 + k], b[k] = x[1][q][k * 8 + j];
				if (f->td == TC_F16)
					d[q][i * 8 + j] = tc_dot_m8n8k4_f16(a, b, (uint16_t)c);
				else
					d[q][i * 8 + j] = tc_dot_m8n8k4_f32(
						a, b, f->tc == TC_F16 ? (uint32_t)f16_to_f32(c) : c);
			}
	unsigned bits = mtype_bits(f->td), p = per_reg(f->td);
	for (unsigned lane = 0; lane < LANES; lane++)
		for (unsigned r = 0; r < nelem(&di->d); r++) {
			uint64_t v = 0;
			for (unsigned j = 0; j < p; j++) {
				unsigned row, col;
				quad_at(f, 'd', lane, r * p + j, &row, &col);
				v |= (uint64_t)d[quad_of(lane)][row * 8 + col] << (bits * j % 64);
			}
			op_write(fr, elem(&di->d, r), lane, v);
		}
}

/* ---- ldmatrix, stmatrix, movmatrix ------------------------------------------------------ */

/* Lane l's word of an 8x8 .b16 matrix x (row-major halves): row l/4, columns 2(l%4) and
 * 2(l%4)+1, or the same of the transpose. */
static uint32_t b16_word(const uint16_t *x, unsigned lane, bool trans)
{
	unsigned r = lane >> 2, c = 2 * (lane & 3);

	if (trans)
		return x[c * 8 + r] | (uint32_t)x[(c + 1) * 8 + r] << 16;
	return x[r * 8 + c] | (uint32_t)x[r * 8 + c + 1] << 16;
}

static void b16_put(uint16_t *x, unsigned lane, bool trans, uint32_t v)
{
	unsigned r = lane >> 2, c = 2 * (lane & 3);

	if (trans) {
		x[c * 8 + r] = (uint16_t)v, x[(c + 1) * 8 + r] = (uint16_t)(v >> 16);
		return;
	}
	x[r * 8 + c] = (uint16_t)v, x[r * 8 + c + 1] = (uint16_t)(v >> 16);
}

/* The 16 bytes of row r of matrix i, addressed by lane 8i + r, checked for data races
 * (`newv`: the row a store writes, NULL for a load); NULL after a fault. */
static uint8_t *matrix_row(struct launch *L, struct warp *w, struct frame *f,
			   const struct dinsn *di, unsigned i, unsigned r, const void *newv)
{
	unsigned lane = 8 * i + r;
	uint64_t addr = op_addr(L, w, f, &di->s[0], lane);
	struct access acc;

	if (!access_lane(L, w, lane, (enum mspace)di->space, addr, 16, newv != NULL, &acc))
		return NULL;
	if (!newv && acc.cta && init_checking(L))
		init_check(L, w, lane, acc.cta, acc.off, 16);
	race_access(L, w, lane, &acc, 16, newv ? RACE_WRITE : RACE_READ, newv);
	return L->stop ? NULL : acc.p;
}

static void run_ldmatrix(struct launch *L, struct warp *w, struct frame *f,
			 const struct dinsn *di)
{
	const struct mma_form *mf = di->mma;
	uint16_t x[4][64];

	for (unsigned i = 0; i < mf->nmat; i++)
		for (unsigned r = 0; r < 8; r++) {
			uint8_t *p = matrix_row(L, w, f, di, i, r, NULL);
			if (!p)
				return;
			memcpy(&x[i][r * 8], p, 16);
		}
	for (unsigned lane = 0; lane < LANES; lane++)
		for (unsigned i = 0; i < mf->nmat; i++)
			op_write(f, elem(&di->d, i), lane, b16_word(x[i], lane, mf->trans));
}

static void run_stmatrix(struct launch *L, struct warp *w, struct frame *f,
			 const struct dinsn *di)
{
	const struct mma_form *mf = di->mma;
	uint16_t x[4][64];

	for (unsigned lane = 0; lane < LANES; lane++)
		for (unsigned i = 0; i < mf->nmat; i++)
			b16_put(x[i], lane, mf->trans,
				(uint32_t)op_read(L, w, f, elem(&di->s[1], i), lane));
	for (unsigned i = 0; i < mf->nmat; i++)
		for (unsigned r = 0; r < 8; r++) {
			uint8_t *p = matrix_row(L, w, f, di, i, r, &x[i][r * 8]);
			if (!p)
				return;
			memcpy(p, &x[i][r * 8], 16);
		}
}

static void run_movmatrix(struct launch *L, struct warp *w, struct frame *f,
			  const struct dinsn *di)
{
	uint16_t x[64];

	for (unsigned lane = 0; lane < LANES; lane++)
		b16_put(x, lane, false, (uint32_t)op_read(L, w, f, elem(&di->s[0], 0), lane));
	for (unsigned lane = 0; lane < LANES; lane++)
		op_write(f, elem(&di->d, 0), lane, b16_word(x, lane, true));
}

/* ---- wmma ------------------------------------------------------------------------------- */

/*
 * Row and column of element e of a lane's wmma fragment, as the H100 lays them out (Notes):
 * a fragment is a list of tiles, each spread over the warp like an mma.sync register; lane
 * 4g + t holds u elements of a tile: row g, columns ut..ut+u-1 (A, C) or column g, rows
 * ut..ut+u-1 (B). u = elements per register (A, B) or 2 (C, D). m16n16 and m32n8 list the
 * tiles of A by 16 rows, then 4u columns, then 8 rows; of B by 8 columns, then 4u rows; of C
 * by 8 columns, then 8 rows. m8n32 is the transpose of m32n8 (A as B^T, B as A^T, C as C^T).
 * An f16 A or B has more registers than tiles: the tiles repeat.
 */
static void wmma_at(const struct mma_form *f, char which, unsigned lane, unsigned e,
		    unsigned *row, unsigned *col)
{
	unsigned m = f->m, n = f->n, k = f->k;
	bool tr = m < n;
	char w = which == 'd' ? 'c' : which;
	unsigned u = w == 'c' ? 2 : per_reg(wmma_type(f, which));
	unsigned i = e / u, g = lane >> 2, q = lane & 3, j = e % u, r0, c0, r, c;

	if (tr) {
		m = f->n, n = f->m;
		w = w == 'a' ? 'b' : w == 'b' ? 'a' : w;
	}
	if (w == 'a') {
		unsigned rh = m >= 16 ? 2 : 1, cb = k / (4 * u), nt = (m >= 16 ? m / 16 : 1) * cb * rh;
		i %= nt;
		r0 = 16 * (i / (cb * rh)) + 8 * (i % rh), c0 = 4 * u * ((i / rh) % cb);
	} else if (w == 'b') {
		unsigned kb = k / (4 * u);
		i %= n / 8 * kb;
		r0 = 4 * u * (i % kb), c0 = 8 * (i / kb);
	} else {
		i %= m / 8 * (n / 8);
		r0 = 8 * (i % (m / 8)), c0 = 8 * (i / (m / 8));
	}
	if (w == 'b')
		r = r0 + u * q + j, c = c0 + g;
	else
		r = r0 + g, c = c0 + u * q + j;
	*row = tr ? c : r;
	*col = tr ? r : c;
}

/* The memory element (row, col) of a wmma load or store: byte address and bit shift. */
static uint64_t wmma_addr(const struct mma_form *f, char which, uint64_t base, uint64_t stride,
			  unsigned row, unsigned col, unsigned bits, unsigned *shift)
{
	uint64_t i = f->col ? (uint64_t)col * stride + row : (uint64_t)row * stride + col;

	*shift = (unsigned)(i * bits % 8);
	return base + i * bits / 8;
}

/* Loads (store false) or stores one lane's fragment; false after a fault. */
static bool wmma_lane(struct launch *L, struct warp *w, struct frame *fr, const struct dinsn *di,
		      unsigned lane, bool store)
{
	const struct mma_form *f = di->mma;
	char which = f->which;
	int t = wmma_type(f, which);
	unsigned bits = mtype_bits(t), p = per_reg(t), rows, cols;
	const struct dop *regs = store ? &di->s[1] : &di->d;
	const struct dop *sop = store ? &di->s[2] : &di->s[1];
	uint64_t base = op_addr(L, w, fr, &di->s[0], lane);
	uint64_t stride;

	wmma_dims(f, which, &rows, &cols);
	stride = di->nsrc > (store ? 2u : 1u) ? op_read(L, w, fr, sop, lane) & 0xffffffffu
					      : (f->col ? rows : cols);
	for (unsigned r = 0; r < nelem(regs); r++) {
		uint64_t v = store ? op_read(L, w, fr, elem(regs, r), lane) : 0;
		for (unsigned j = 0; j < p; j++) {
			unsigned row, col, shift, size = bits < 8 ? 1 : bits / 8;
			uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
			struct access acc;
			uint64_t x = 0;
			wmma_at(f, which, lane, r * p + j, &row, &col);
			uint64_t at = wmma_addr(f, which, base, stride, row, col, bits, &shift);
			if (!access_lane(L, w, lane, (enum mspace)di->space, at, size, store, &acc))
				return false;
			memcpy(&x, acc.p, size);
			if (store)
				x = (x & ~(mask << shift)) | (reg_elem(v, bits, j) << shift);
			race_access(L, w, lane, &acc, size, store ? RACE_WRITE : RACE_READ,
				    store ? &x : NULL);
			if (L->stop)
				return false;
			if (store) {
				memcpy(acc.p, &x, size);
			} else {
				v |= ((x >> shift) & mask) << (bits * j % 64);
			}
		}
		if (!store)
			op_write(fr, elem(regs, r), lane, v);
	}
	return true;
}

static void wmma_gather(struct launch *L, struct warp *w, struct frame *fr,
			const struct mma_form *f, char which, const struct dop *o, uint64_t *x)
{
	int t = wmma_type(f, which);
	unsigned bits = mtype_bits(t), p = per_reg(t), rows, cols;

	wmma_dims(f, which, &rows, &cols);
	for (unsigned lane = 0; lane < LANES; lane++)
		for (unsigned r = 0; r < nelem(o); r++) {
			uint64_t v = op_read(L, w, fr, elem(o, r), lane);
			for (unsigned j = 0; j < p; j++) {
				unsigned row, col;
				wmma_at(f, which, lane, r * p + j, &row, &col);
				x[row * cols + col] = reg_elem(v, bits, j);
			}
		}
}

static void run_wmma_mma(struct launch *L, struct warp *w, struct frame *fr,
			 const struct dinsn *di)
{
	const struct mma_form *f = di->mma;
	uint64_t a[32 * 128], b[128 * 32], c[32 * 32], d[32 * 32];
	unsigned bits = mtype_bits(f->td), p = per_reg(f->td);

	wmma_gather(L, w, fr, f, 'a', &di->s[0], a);
	wmma_gather(L, w, fr, f, 'b', &di->s[1], b);
	wmma_gather(L, w, fr, f, 'c', &di->s[2], c);
	for (unsigned i = 0; i < f->m; i++)
		for (unsigned j = 0; j < f->n; j++) {
			uint64_t cij = c[i * f->n + j];
			if (f->tc == TC_F16 && f->td == MT_F32)
				cij = f16_to_f32(cij);
			d[i * f->n + j] = mma_elem(f, a, b, i, j, cij);
		}
	for (unsigned lane = 0; lane < LANES; lane++)
		for (unsigned r = 0; r < nelem(&di->d); r++) {
			uint64_t v = 0;
			for (unsigned j = 0; j < p; j++) {
				unsigned row, col;
				wmma_at(f, 'd', lane, r * p + j, &row, &col);
				v |= d[row * f->n + col] << (bits * j % 64);
			}
			op_write(fr, elem(&di->d, r), lane, v);
		}
}

/* ---- dispatch --------------------------------------------------------------------------- */

/*
 * The whole warp must execute an .aligned matrix instruction: lanes of the warp still at
 * other instructions are waited for; lanes that exited, do not exist, or are predicated
 * off break rule warp-matrix-aligned.
 */
static bool whole_warp(struct launch *L, struct warp *w, struct group *g, uint32_t mask)
{
	if (!warp_need_lanes(L, w, g, w->live, mask))
		return false;
	if (mask != FULL_MASK) {
		rule_break(L, RULE_MATRIX_ALIGNED, FULL_MASK & ~mask,
			   "%s executed by %u of the warp's 32 threads (the others %s)",
			   ir_op_name((enum ir_op)L->ci->op), popcount32(mask),
			   w->valid != FULL_MASK ? "do not exist"
			   : w->live != w->valid ? "exited" : "are predicated off");
		return false;
	}
	return true;
}

typedef void matrix_fn(struct launch *L, struct warp *w, struct frame *f,
		       const struct dinsn *di);

/* Run a matrix instruction once the whole warp is here (whole_warp). */
static enum step whole_warp_run(struct launch *L, struct warp *w, struct group *g,
				const struct dinsn *di, uint32_t mask, matrix_fn *run)
{
	if (!whole_warp(L, w, g, mask))
		return STEP_PARKED;
	run(L, w, g->frame, di);
	return L->stop ? STEP_PARKED : STEP_NEXT;
}

static void run_wmma_load(struct launch *L, struct warp *w, struct frame *f,
			  const struct dinsn *di)
{
	for (unsigned lane = 0; lane < LANES; lane++)
		if (!wmma_lane(L, w, f, di, lane, false))
			break;
}

static void run_wmma_store(struct launch *L, struct warp *w, struct frame *f,
			   const struct dinsn *di)
{
	for (unsigned lane = 0; lane < LANES; lane++)
		if (!wmma_lane(L, w, f, di, lane, true))
			break;
}

/* mma.sync: m8n8k4 runs per quadpair, every other shape over the warp */
static void run_mma(struct launch *L, struct warp *w, struct frame *f, const struct dinsn *di)
{
	if (di->mma->kind == MK_MMA_SP)
		run_mma_sp(L, w, f, di);
	else if (di->mma->quad)
		run_mma_quad(L, w, f, di);
	else
		run_mma_sync(L, w, f, di);
}

enum step exec_mma(struct launch *L, struct warp *w, struct group *g, const struct dinsn *di,
		   uint32_t mask)
{
	return whole_warp_run(L, w, g, di, mask, run_mma);
}

enum step exec_ldmatrix(struct launch *L, struct warp *w, struct group *g,
			const struct dinsn *di, uint32_t mask)
{
	return whole_warp_run(L, w, g, di, mask, run_ldmatrix);
}

enum step exec_stmatrix(struct launch *L, struct warp *w, struct group *g,
			const struct dinsn *di, uint32_t mask)
{
	return whole_warp_run(L, w, g, di, mask, run_stmatrix);
}

enum step exec_movmatrix(struct launch *L, struct warp *w, struct group *g,
			 const struct dinsn *di, uint32_t mask)
{
	return whole_warp_run(L, w, g, di, mask, run_movmatrix);
}

/* wmma.load.a / .b / .c */
enum step exec_wmma_load(struct launch *L, struct warp *w, struct group *g,
			 const struct dinsn *di, uint32_t mask)
{
	return whole_warp_run(L, w, g, di, mask, run_wmma_load);
}

enum step exec_wmma_store(struct launch *L, struct warp *w, struct group *g,
			  const struct dinsn *di, uint32_t mask)
{
	return whole_warp_run(L, w, g, di, mask, run_wmma_store);
}

enum step exec_wmma_mma(struct launch *L, struct warp *w, struct group *g,
			const struct dinsn *di, uint32_t mask)
{
	return whole_warp_run(L, w, g, di, mask, run_wmma_mma);
}
