/*
 * tc_arith.c - the H100's tensor-core arithmetic (../shared/spec/tensor-h100.md): the block FMA
 * for floating-point inputs with f32 and f16 accumulators, ptxas's fp8 emulation for mma.sync
 * on sm_90, exact integer and b1 dot products, and the f64 FMA chain.
 */
#include "tc_arith.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- element formats --------------------------------------------------------------------- */

enum fmt_special { SPEC_IEEE, SPEC_E4M3, SPEC_NONE };

/* A binary floating-point format: field widths, bias and how inf/NaN are spelt. */
struct fmt {
	int ebits, fbits, bias;
	enum fmt_special special;
	int shift; /* bits of the raw word below the format's own (tf32: 13 ignored bits) */
};

static const struct fmt FMT_F32 = {8, 23, 127, SPEC_IEEE, 0};
static const struct fmt FMT_F16 = {5, 10, 15, SPEC_IEEE, 0};

static const struct fmt FMT_BF16 = {8, 7, 127, SPEC_IEEE, 0};

static const struct fmt *elem_fmt(enum tc_elem t)
{
	static const struct fmt tf32 = {8, 10, 127, SPEC_IEEE, 13};
	static const struct fmt e4m3 = {4, 3, 7, SPEC_E4M3, 0};
	static const struct fmt e5m2 = {5, 2, 15, SPEC_IEEE, 0};

	switch (t) {
	case TC_F16: return &FMT_F16;
	case TC_BF16: return &FMT_BF16;
	case TC_TF32: return &tf32;
	case TC_E4M3: return &e4m3;
	case TC_E5M2: return &e5m2;
	default: return NULL;
	}
}

const char *tc_elem_name(enum tc_elem t)
{
	static const char *const names[] = {
#define X(name, spelling) spelling,
		TC_ELEMS(X)
#undef X
	};
	return (unsigned)t < TC__COUNT ? names[t] : NULL;
}

bool tc_elem_is_float(enum tc_elem t)
{
	return elem_fmt(t) != NULL;
}

static bool is_fp8(enum tc_elem t)
{
	return t == TC_E4M3 || t == TC_E5M2;
}

unsigned tc_block_size(enum tc_elem t)
{
	if (t == TC_TF32)
		return 8;
	return is_fp8(t) ? 32 : 16;
}

/* ---- decoded values ---------------------------------------------------------------------- */

enum val_kind { VAL_FINITE, VAL_INF, VAL_NAN };

/*
 * A finite value is sig * 2^(exp - frac): exp is the unbiased exponent (the minimum normal
 * one for zeros and subnormals), sig the significand with its hidden bit.
 */
struct val {
	enum val_kind kind;
	bool neg;
	int exp, frac;
	uint64_t sig;
};

static inline struct val decode(const struct fmt *f, uint32_t raw)
{
	uint32_t bits = raw >> f->shift;
	uint32_t man = bits & ((1u << f->fbits) - 1);
	uint32_t e = (bits >> f->fbits) & ((1u << f->ebits) - 1);
	uint32_t emax = (1u << f->ebits) - 1;
	struct val v = {VAL_FINITE, (bits >> (f->ebits + f->fbits)) & 1, 0, f->fbits, man};

	if (f->special == SPEC_IEEE && e == emax) {
		v.kind = man ? VAL_NAN : VAL_INF;
		return v;
	}
	if (f->special == SPEC_E4M3 && e == emax && man == (1u << f->fbits) - 1) {
		v.kind = VAL_NAN;
		return v;
	}
	v.exp = (e ? (int)e : 1) - f->bias;
	if (e)
		v.sig |= 1u << f->fbits;
	return v;
}

/* ---- the block FMA ----------------------------------------------------------------------- */

/* A block's exact-after-truncation sum, s * 2^lsb, or a special result. */
struct block_sum {
	enum val_kind kind;
	bool neg; /* of an infinite result */
	int64_t s;
	int lsb;
};

/* How the block treats its terms: fraction bits kept below the anchor, its lowest value. */
struct block_rule {
	int keep, anchor_floor;
};

/* Term sig * 2^(exp - frac) as a multiple of 2^lsb, magnitude truncated. A nonzero term
 * lies at most keep bits above lsb (exp <= anchor), so the left shift stays small. */
static int64_t align_term(uint64_t sig, int exp, int frac, int lsb)
{
	int shift = exp - frac - lsb;

	if (sig == 0)
		return 0;
	if (shift >= 0)
		return (int64_t)(sig << shift);
	return -shift >= 64 ? 0 : (int64_t)(sig >> -shift);
}

/*
 * Infinities and NaNs decide the result alone: any NaN, inf * 0 or +inf + -inf gives NaN,
 * otherwise any infinity gives itself. Returns false when every term is finite.
 */
static bool special_sum(const struct val *pa, const struct val *pb, unsigned n,
			const struct val *c, struct block_sum *out)
{
	bool pinf = false, ninf = false, nan = c->kind == VAL_NAN;

	if (c->kind == VAL_INF)
		*(c->neg ? &ninf : &pinf) = true;
	for (unsigned i = 0; i < n; i++) {
		const struct val *x = &pa[i], *y = &pb[i];
		bool neg = x->neg != y->neg;

		if (x->kind == VAL_NAN || y->kind == VAL_NAN)
			nan = true;
		else if (x->kind == VAL_INF || y->kind == VAL_INF) {
			if ((x->kind == VAL_FINITE && x->sig == 0) ||
			    (y->kind == VAL_FINITE && y->sig == 0))
				nan = true;
			else
				*(neg ? &ninf : &pinf) = true;
		}
	}
	if (nan || (pinf && ninf))
		out->kind = VAL_NAN;
	else if (pinf || ninf) {
		out->kind = VAL_INF;
		out->neg = ninf;
	} else
		return false;
	return true;
}

/*
 * One block FMA: the exact products and c aligned to the largest exponent among the nonzero
 * terms (a product's exponent is the sum of its operands', its significand in [0, 4)), each
 * truncated rule->keep fraction bits below that anchor, and summed exactly.
 */
static struct block_sum block_fma(const struct val *pa, const struct val *pb, unsigned n,
				  const struct val *c, const struct block_rule *rule)
{
	struct block_sum sum = {VAL_FINITE, false, 0, 0};
	int anchor = rule->anchor_floor;

	if (special_sum(pa, pb, n, c, &sum))
		return sum;
	if (c->sig && c->exp > anchor)
		anchor = c->exp;
	for (unsigned i = 0; i < n; i++)
		if (pa[i].sig && pb[i].sig && pa[i].exp + pb[i].exp > anchor)
			anchor = pa[i].exp + pb[i].exp;
	sum.lsb = anchor - rule->keep;
	for (unsigned i = 0; i < n; i++) {
		int64_t t = align_term(pa[i].sig * pb[i].sig, pa[i].exp + pb[i].exp,
				       pa[i].frac + pb[i].frac, sum.lsb);
		sum.s += pa[i].neg != pb[i].neg ? -t : t;
	}
	int64_t tc = align_term(c->sig, c->exp, c->frac, sum.lsb);
	sum.s += c->neg ? -tc : tc;
	return sum;
}

static int msb64(uint64_t x)
{
	return 63 - __builtin_clzll(x);
}

/* The f32 result of a block, rounded toward zero to frac_keep fraction bits; zero is +0. */
static uint32_t round_f32_rz(const struct block_sum *s, int frac_keep)
{
	if (s->kind == VAL_NAN)
		return 0x7fffffffu;
	if (s->kind == VAL_INF)
		return s->neg ? 0xff800000u : 0x7f800000u;
	if (s->s == 0)
		return 0;
	uint32_t sign = s->s < 0 ? 0x80000000u : 0;
	uint64_t mag = s->s < 0 ? -(uint64_t)s->s : (uint64_t)s->s;
	int e = msb64(mag) + s->lsb;

	if (e > 127)
		return sign | 0x7f800000u;
	int unit = e < -126 ? -149 : e - 23; /* value of the result's last bit */
	uint64_t m = align_term(mag, s->lsb, 0, unit);

	if (e >= -126) {
		m &= ~((1ull << (23 - frac_keep)) - 1);
		return sign | (uint32_t)(e + 127) << 23 | ((uint32_t)m & 0x7fffffu);
	}
	return m ? sign | (uint32_t)m : 0;
}

/* The f16 result of a block, rounded to nearest even; zero is +0. */
static uint16_t round_f16_rn(const struct block_sum *s)
{
	if (s->kind == VAL_NAN)
		return 0x7fff;
	if (s->kind == VAL_INF)
		return s->neg ? 0xfc00 : 0x7c00;
	if (s->s == 0)
		return 0;
	uint16_t sign = s->s < 0 ? 0x8000 : 0;
	uint64_t mag = s->s < 0 ? -(uint64_t)s->s : (uint64_t)s->s;
	int e = msb64(mag) + s->lsb;
	int unit = e < -14 ? -24 : e - 10;
	uint64_t m;

	if (unit <= s->lsb)
		m = mag << (s->lsb - unit);
	else {
		int sh = unit - s->lsb;
		uint64_t rem = sh >= 64 ? mag : mag & ((1ull << sh) - 1);
		uint64_t half = sh > 64 ? 0 : 1ull << (sh - 1);

		m = sh >= 64 ? 0 : mag >> sh;
		if (rem > half || (rem == half && (m & 1)))
			m++;
	}
	if (m == 0)
		return 0;
	if (e < -14) /* subnormal, or rounded up to the smallest normal (same encoding) */
		return sign | (uint16_t)m;
	if (m >> 11) {
		m >>= 1;
		e++;
	}
	if (e > 15)
		return sign | 0x7c00;
	return sign | (uint16_t)((e + 15) << 10 | (m & 0x3ff));
}

/* Where the compiler can, the decoding and the tile are also built for AVX2 and chosen at
 * load time: a panel's 32-bit lanes then run 8 columns at once (the same bits: integer
 * arithmetic only). Not under ThreadSanitizer: the choosers run before its runtime. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && \
	!defined(__SANITIZE_THREAD__)
#define TILE_CLONES __attribute__((target_clones("avx2", "default"), flatten))
#else
#define TILE_CLONES
#endif

/* ---- decoded operands and the fast block FMA ---------------------------------------------- */

/* A zero element's exponent: a product with it lies far below any anchor (>= -133). */
enum { ZERO_EXP = -(1 << 20) };

/* decode() without branches, so that the loop vectorises: the special cases by masks. */
static inline void decode_into(const struct fmt *f, const uint32_t *raw, unsigned k,
			       struct tc_operand *out)
{
	uint32_t fmask = (1u << f->fbits) - 1, emax = (1u << f->ebits) - 1;
	bool special = false;

	out->frac = f->fbits;
	for (unsigned i = 0; i < k; i++) {
		uint32_t bits = raw[i] >> f->shift, man = bits & fmask;
		uint32_t e = bits >> f->fbits & emax;
		uint32_t sig = man | (uint32_t)(e != 0) << f->fbits;

		special |= f->special == SPEC_IEEE ? e == emax
						   : e == emax && man == fmask; /* e4m3 */
		out->sig[i] = sig;
		out->exp[i] = sig ? (int32_t)(e | (e == 0)) - f->bias : ZERO_EXP;
		out->neg[i] = 0u - (bits >> (f->ebits + f->fbits) & 1);
		out->raw[i] = raw[i];
	}
	out->special = special;
}

TILE_CLONES
void tc_operand_decode(enum tc_elem t, const uint32_t *raw, unsigned k, struct tc_operand *out)
{
	out->type = t;
	out->k = k;
	switch (t) { /* a constant format: decode() folds into the loop */
	case TC_F16: decode_into(&FMT_F16, raw, k, out); break;
	case TC_BF16: decode_into(&FMT_BF16, raw, k, out); break;
	default: decode_into(elem_fmt(t), raw, k, out); break;
	}
}

/*
 * block_fma over decoded finite operands, elements [i0, i0 + n): the same sum without a
 * struct per term. Each product a.sig * b.sig (< 2^22) is a multiple of 2^(ea + eb - fa - fb);
 * shifted up to lsb = anchor - keep's scale (keep >= fa + fb for every type) it stays below
 * 2^27, then the distance below the anchor is shifted out (truncation of the magnitude).
 * 32 such terms of f16 (16 of 2^27), bf16 (16 of 2^27), tf32 (8) or fp8 (32 of 2^15) sum
 * within 32 bits, so the loops run on 32-bit lanes and vectorise.
 */
static inline struct block_sum block_fast(const struct tc_operand *a, const struct tc_operand *b,
					  unsigned i0, unsigned n, const struct val *c,
					  const struct block_rule *rule)
{
	const int32_t *ea = a->exp + i0, *eb = b->exp + i0;
	const uint32_t *sa = a->sig + i0, *sb = b->sig + i0, *na = a->neg + i0, *nb = b->neg + i0;
	int32_t anchor = rule->anchor_floor, up = rule->keep - a->frac - b->frac, s = 0;

	if (c->sig && c->exp > anchor)
		anchor = c->exp;
	for (unsigned i = 0; i < n; i++)
		anchor = ea[i] + eb[i] > anchor ? ea[i] + eb[i] : anchor;
	for (unsigned i = 0; i < n; i++) {
		uint32_t d = (uint32_t)(anchor - ea[i] - eb[i]);
		uint32_t t = sa[i] * sb[i] << up >> (d < 31 ? d : 31);
		uint32_t m = na[i] ^ nb[i];

		s += (int32_t)((t ^ m) - m);
	}
	struct block_sum sum = {VAL_FINITE, false, s, anchor - rule->keep};
	int64_t tc = align_term(c->sig, c->exp, c->frac, sum.lsb);
	sum.s += c->neg ? -tc : tc;
	return sum;
}

/* The general block FMA (infinities and NaNs too) over the raw elements [i0, i0 + n). */
static struct block_sum block_general(const struct tc_operand *a, const struct tc_operand *b,
				      unsigned i0, unsigned n, const struct val *c,
				      const struct block_rule *rule)
{
	const struct fmt *fa = elem_fmt(a->type), *fb = elem_fmt(b->type);
	struct val pa[TC_KMAX], pb[TC_KMAX];

	for (unsigned i = 0; i < n; i++) {
		pa[i] = decode(fa, a->raw[i0 + i]);
		pb[i] = decode(fb, b->raw[i0 + i]);
	}
	return block_fma(pa, pb, n, c, rule);
}

static inline struct block_sum block_any(const struct tc_operand *a, const struct tc_operand *b,
				  unsigned i0, unsigned n, const struct val *c,
				  const struct block_rule *rule)
{
	if (a->special || b->special || c->kind != VAL_FINITE)
		return block_general(a, b, i0, n, c, rule);
	switch (n) { /* whole blocks: a constant trip count the compiler can vectorise */
	case 8: return block_fast(a, b, i0, 8, c, rule);
	case 16: return block_fast(a, b, i0, 16, c, rule);
	case 32: return block_fast(a, b, i0, 32, c, rule);
	default: return block_fast(a, b, i0, n, c, rule);
	}
}

static inline uint32_t dot_f32(const struct tc_operand *a, const struct tc_operand *b, uint32_t c)
{
	bool fp8 = is_fp8(a->type);
	struct block_rule rule = {fp8 ? 13 : 25, -133};
	unsigned bs = tc_block_size(a->type);

	for (unsigned i = 0; i == 0 || i < a->k; i += bs) {
		unsigned n = a->k - i < bs ? a->k - i : bs;
		struct val vc = decode(&FMT_F32, c);
		struct block_sum s = block_any(a, b, i, n, &vc, &rule);

		c = round_f32_rz(&s, fp8 ? 13 : 23);
	}
	return c;
}

static inline uint16_t dot_f16(const struct tc_operand *a, const struct tc_operand *b, uint16_t c)
{
	struct block_rule rule = {is_fp8(a->type) ? 13 : 25, -21};
	unsigned bs = tc_block_size(a->type);

	for (unsigned i = 0; i == 0 || i < a->k; i += bs) {
		unsigned n = a->k - i < bs ? a->k - i : bs;
		struct val vc = decode(&FMT_F16, c);
		struct block_sum s = block_any(a, b, i, n, &vc, &rule);

		c = round_f16_rn(&s);
	}
	return c;
}

/* ---- a tile of dot products, vectorised over columns -------------------------------------- */

enum { TILE_W = 8 }; /* columns of B per panel: one AVX2 vector */

/* TILE_W lanes (GCC/Clang vector extensions: the compiler picks the machine's vectors). */
typedef int32_t vs32 __attribute__((vector_size(4 * TILE_W)));
typedef uint32_t vu32 __attribute__((vector_size(4 * TILE_W)));

/* TILE_W columns of B turned k-major, so that a row of A meets them in vector lanes. */
struct panel {
	vs32 exp[TC_KMAX];
	vu32 sig[TC_KMAX], neg[TC_KMAX];
	bool special; /* an inf or NaN in one of its columns */
};

static void panel_fill(struct panel *p, const struct tc_operand *b, unsigned w, unsigned k)
{
	p->special = false;
	for (unsigned j = 0; j < TILE_W; j++) {
		p->special |= j < w && b[j].special;
		for (unsigned i = 0; i < k; i++) {
			p->exp[i][j] = j < w ? b[j].exp[i] : ZERO_EXP;
			p->sig[i][j] = j < w ? b[j].sig[i] : 0;
			p->neg[i][j] = j < w ? b[j].neg[i] : 0;
		}
	}
}

/* block_fast for one row of A against a panel: *anchor holds each column's floor (or its
 * c's exponent) on entry, the block's anchor on return; *s the truncated sums of products.
 * Comparisons give all-ones lanes, so max and min are masks. */
static inline void panel_block(const struct tc_operand *a, const struct panel *p, unsigned n,
			       int up, vs32 *anchor, vs32 *s)
{
	vs32 anc = *anchor, sum = {0};

	for (unsigned i = 0; i < n; i++) {
		vs32 e = a->exp[i] + p->exp[i], gt = e > anc;
		anc = (e & gt) | (anc & ~gt);
	}
	for (unsigned i = 0; i < n; i++) {
		vu32 d = (vu32)(anc - a->exp[i] - p->exp[i]), far = (vu32)(d > 31);
		vu32 t = a->sig[i] * p->sig[i] << up >> ((d & ~far) | (31 & far));
		vu32 m = a->neg[i] ^ p->neg[i];
		sum += (vs32)((t ^ m) - m);
	}
	*anchor = anc;
	*s = sum;
}

static inline bool acc_special(enum tc_acc acc, uint32_t c)
{
	return acc == TC_ACC_F32 ? (c >> 23 & 0xff) == 0xff : (c >> 10 & 0x1f) == 0x1f;
}

static inline uint32_t dot_acc(enum tc_acc acc, const struct tc_operand *a,
			       const struct tc_operand *b, uint32_t c)
{
	return acc == TC_ACC_F32 ? dot_f32(a, b, c) : dot_f16(a, b, (uint16_t)c);
}

/* A finite accumulator's fields in vector lanes (f32, or f16 in the low half). */
struct vacc {
	vs32 exp;
	vu32 sig, neg;
};

static inline struct vacc vacc_decode(enum tc_acc acc, const uint32_t *cr, unsigned w)
{
	const struct fmt *f = acc == TC_ACC_F32 ? &FMT_F32 : &FMT_F16;
	vu32 c = {0};
	for (unsigned j = 0; j < w; j++)
		c[j] = cr[j];
	vs32 e = (vs32)(c >> f->fbits & ((1u << f->ebits) - 1)), normal = e != 0;
	struct vacc v = {(e | (1 & ~normal)) - f->bias,
			 (c & ((1u << f->fbits) - 1)) | ((vu32)normal & (1u << f->fbits)),
			 (vu32)((vs32)(c >> (f->ebits + f->fbits) & 1) != 0)};
	return v;
}

/* A block's sum s * 2^lsb rounded toward zero to an f32 with frac_keep fraction bits: the
 * normal range directly, the rest by round_f32_rz. */
static inline uint32_t finish_f32(int64_t s, int lsb, int frac_keep)
{
	if (s == 0)
		return 0;
	uint64_t mag = s < 0 ? -(uint64_t)s : (uint64_t)s;
	int top = msb64(mag), e = top + lsb;
	if (e < -126 || e > 127) {
		struct block_sum sum = {VAL_FINITE, false, s, lsb};
		return round_f32_rz(&sum, frac_keep);
	}
	uint64_t m = top >= 23 ? mag >> (top - 23) : mag << (23 - top);
	m &= ~((1ull << (23 - frac_keep)) - 1);
	return (s < 0 ? 0x80000000u : 0) | (uint32_t)(e + 127) << 23 | ((uint32_t)m & 0x7fffffu);
}

/* Row a against the w <= TILE_W columns b of panel p, into cr[0..w). One block, all finite:
 * the vector loops; else (specials, several blocks) one dot product at a time. */
static inline void panel_row(const struct tc_operand *a, const struct tc_operand *b,
			     const struct panel *p, unsigned w, enum tc_acc acc, uint32_t *cr)
{
	bool fp8 = is_fp8(a->type), slow = a->special || p->special;
	struct block_rule rule = {fp8 ? 13 : 25, acc == TC_ACC_F32 ? -133 : -21};
	int cfrac = acc == TC_ACC_F32 ? 23 : 10;

	slow |= a->k > tc_block_size(a->type);
	for (unsigned j = 0; j < w; j++)
		slow |= acc_special(acc, cr[j]);
	if (slow) {
		for (unsigned j = 0; j < w; j++)
			cr[j] = dot_acc(acc, a, &b[j], cr[j]);
		return;
	}
	struct vacc c = vacc_decode(acc, cr, w);
	vs32 floor = {0}, anchor, s;
	floor += rule.anchor_floor;
	vs32 up_c = (vs32)(c.sig != 0) & (c.exp > floor);
	anchor = (c.exp & up_c) | (floor & ~up_c);
	int up = rule.keep - a->frac - b->frac;
	switch (a->k) { /* a constant trip count the compiler can vectorise */
	case 8: panel_block(a, p, 8, up, &anchor, &s); break;
	case 16: panel_block(a, p, 16, up, &anchor, &s); break;
	case 32: panel_block(a, p, 32, up, &anchor, &s); break;
	default: panel_block(a, p, a->k, up, &anchor, &s); break;
	}
	/* c's term: shifted by c.exp - cfrac - lsb, at most 2 (f32) or 15 (f16) up */
	vs32 sh = c.exp - cfrac - (anchor - rule.keep), pos = sh > 0, zero = {0};
	vu32 lsh = (vu32)(sh & pos), rsh = (vu32)((zero - sh) & ~pos), far = rsh > 31;
	vu32 ct = c.sig << lsh >> ((rsh & ~far) | (31 & far));
	for (unsigned j = 0; j < w; j++) {
		int64_t sum = (int64_t)s[j] + (c.neg[j] ? -(int64_t)ct[j] : (int64_t)ct[j]);
		int lsb = anchor[j] - rule.keep;

		if (acc == TC_ACC_F32) {
			cr[j] = finish_f32(sum, lsb, fp8 ? 13 : 23);
		} else {
			struct block_sum bs = {VAL_FINITE, false, sum, lsb};
			cr[j] = round_f16_rn(&bs);
		}
	}
}

/* Rows a[0..m) against the w columns b of panel p, into c (rows nb apart). */
static inline void tile_panel(const struct tc_operand *a, unsigned m, const struct tc_operand *b,
			      const struct panel *p, unsigned w, enum tc_acc acc, uint32_t *c,
			      unsigned nb)
{
	for (unsigned r = 0; r < m; r++)
		panel_row(&a[r], b, p, w, acc, c + (size_t)r * nb);
}

/* The tile for one accumulator type (a constant once inlined): B decoded TILE_W columns at
 * a time, each panel used by every row of A. */
static inline void tile(const struct tc_operand *a, unsigned m, enum tc_elem tb,
			const uint32_t *b, unsigned nb, enum tc_acc acc, uint32_t *c)
{
	struct tc_operand cols[TILE_W];
	struct panel p;
	unsigned k = a->k;

	for (unsigned j0 = 0; j0 < nb; j0 += TILE_W) {
		unsigned w = nb - j0 < TILE_W ? nb - j0 : TILE_W;

		for (unsigned j = 0; j < w; j++)
			tc_operand_decode(tb, b + (size_t)(j0 + j) * k, k, &cols[j]);
		panel_fill(&p, cols, w, k);
		tile_panel(a, m, cols, &p, w, acc, c + j0, nb);
	}
}

TILE_CLONES
void tc_dot_tile(const struct tc_operand *a, unsigned m, enum tc_elem tb, const uint32_t *b,
		 unsigned nb, enum tc_acc acc, uint32_t *c)
{
	if (!m)
		return;
	if (acc == TC_ACC_F32)
		tile(a, m, tb, b, nb, TC_ACC_F32, c);
	else
		tile(a, m, tb, b, nb, TC_ACC_F16, c);
}

/* ---- B decoded once for several tiles ----------------------------------------------------- */

struct tc_btile {
	unsigned n, cap;           /* columns, columns allocated                                */
	struct tc_operand *cols;   /* n                                                         */
	struct panel *panels;      /* one per TILE_W columns, aligned for the vector lanes      */
};

struct tc_btile *tc_btile_new(void)
{
	return calloc(1, sizeof(struct tc_btile));
}

void tc_btile_free(struct tc_btile *t)
{
	if (!t)
		return;
	free(t->cols);
	free(t->panels);
	free(t);
}

static bool btile_reserve(struct tc_btile *t, unsigned n)
{
	if (n <= t->cap)
		return true;
	size_t np = (n + TILE_W - 1) / TILE_W, size = np * sizeof(struct panel);
	struct tc_operand *cols = realloc(t->cols, n * sizeof *cols);
	if (!cols)
		return false;
	t->cols = cols;
	struct panel *panels = aligned_alloc(_Alignof(struct panel),
					     (size + _Alignof(struct panel) - 1) /
						     _Alignof(struct panel) * _Alignof(struct panel));
	if (!panels)
		return false;
	free(t->panels);
	t->panels = panels;
	t->cap = n;
	return true;
}

TILE_CLONES
bool tc_btile_decode(struct tc_btile *t, enum tc_elem tb, const uint32_t *b, unsigned n,
		     unsigned k)
{
	if (!btile_reserve(t, n))
		return false;
	t->n = n;
	for (unsigned j = 0; j < n; j++)
		tc_operand_decode(tb, b + (size_t)j * k, k, &t->cols[j]);
	for (unsigned j0 = 0; j0 < n; j0 += TILE_W)
		panel_fill(&t->panels[j0 / TILE_W], t->cols + j0,
			   n - j0 < TILE_W ? n - j0 : TILE_W, k);
	return true;
}

static inline void tile_b(const struct tc_operand *a, unsigned m, const struct tc_btile *b,
			  enum tc_acc acc, uint32_t *c)
{
	for (unsigned j0 = 0; j0 < b->n; j0 += TILE_W)
		tile_panel(a, m, b->cols + j0, &b->panels[j0 / TILE_W],
			   b->n - j0 < TILE_W ? b->n - j0 : TILE_W, acc, c + j0, b->n);
}

TILE_CLONES
void tc_dot_tile_b(const struct tc_operand *a, unsigned m, const struct tc_btile *b,
		   enum tc_acc acc, uint32_t *c)
{
	if (acc == TC_ACC_F32)
		tile_b(a, m, b, TC_ACC_F32, c);
	else
		tile_b(a, m, b, TC_ACC_F16, c);
}

/* ---- dot products from raw elements, TC_KMAX at a time ----------------------------------- */

uint32_t tc_dot_f32(enum tc_elem ta, enum tc_elem tb, const uint32_t *a, const uint32_t *b,
		    unsigned k, uint32_t c)
{
	struct tc_operand da, db;

	do {
		unsigned n = k < TC_KMAX ? k : TC_KMAX;

		tc_operand_decode(ta, a, n, &da);
		tc_operand_decode(tb, b, n, &db);
		c = dot_f32(&da, &db, c);
		a += n, b += n, k -= n;
	} while (k);
	return c;
}

uint16_t tc_dot_f16(enum tc_elem ta, enum tc_elem tb, const uint32_t *a, const uint32_t *b,
		    unsigned k, uint16_t c)
{
	struct tc_operand da, db;

	do {
		unsigned n = k < TC_KMAX ? k : TC_KMAX;

		tc_operand_decode(ta, a, n, &da);
		tc_operand_decode(tb, b, n, &db);
		c = dot_f16(&da, &db, c);
		a += n, b += n, k -= n;
	} while (k);
	return c;
}

/* ---- scalar fp32 and f16 steps of the emulated forms ------------------------------------ */

static uint32_t f32_bits(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

static float bits_f32(uint32_t u)
{
	float f;
	memcpy(&f, &u, 4);
	return f;
}

/* The hardware's fp32 results: IEEE round to nearest even, subnormals kept, and a NaN is
 * always the canonical 0x7fffffff. */
static uint32_t f32_canon(float f)
{
	return isnan(f) ? 0x7fffffffu : f32_bits(f);
}

static uint32_t f32_add(uint32_t x, uint32_t y)
{
	return f32_canon(bits_f32(x) + bits_f32(y));
}

static uint32_t f32_mul(uint32_t x, uint32_t y)
{
	return f32_canon(bits_f32(x) * bits_f32(y));
}

static uint32_t f32_fma(uint32_t x, uint32_t y, uint32_t z)
{
	return f32_canon(fmaf(bits_f32(x), bits_f32(y), bits_f32(z)));
}

static double f16_to_f64(uint32_t h)
{
	int e = (h >> 10) & 31;
	double m = h & 0x3ff;
	double v = e == 31 ? (m ? NAN : INFINITY) : e ? ldexp(1024 + m, e - 25) : ldexp(m, -24);

	return h & 0x8000 ? -v : v;
}

static uint32_t f16_to_f32(uint32_t h)
{
	return f32_bits((float)f16_to_f64(h));
}

/* A double to f16 bits, rounded to nearest even; NaN gives 0x7fff. */
static uint16_t f64_to_f16(double x)
{
	uint16_t sign = signbit(x) ? 0x8000 : 0;
	double a = fabs(x);

	if (isnan(x))
		return 0x7fff;
	if (a >= 65520.0) /* halfway between 65504 and 2^16 rounds up to inf */
		return sign | 0x7c00;
	int e;
	frexp(a, &e); /* a = f * 2^e, f in [0.5, 1) */
	if (e < -13)
		e = -13; /* subnormals: the quantum stays 2^-24 */
	double q = ldexp(1.0, e - 11), n = nearbyint(a / q); /* default rounding: to even */
	double r = n * q;
	if (r == 0)
		return sign;
	int re;
	frexp(r, &re);
	if (re < -13)
		return sign | (uint16_t)(r / ldexp(1.0, -24));
	return sign | (uint16_t)((re + 14) << 10) | (uint16_t)(ldexp(r, 11 - re) - 1024);
}

uint16_t tc_f32_to_f16(uint32_t f)
{
	return f64_to_f16(bits_f32(f));
}

/* ---- fp8 mma.sync on sm_90: two f16 MMAs and an fp32 add ---------------------------------- */

/* fp8 bits -> f16 bits (exact: every e4m3 and e5m2 value is an f16 value). */
static uint32_t fp8_to_f16(enum tc_elem t, uint32_t raw)
{
	if (t == TC_E5M2) /* e5m2 is f16 with the low byte cut off */
		return (raw & 0xff) << 8;
	struct val v = decode(elem_fmt(t), raw);
	uint32_t sign = v.neg ? 0x8000 : 0;

	if (v.kind == VAL_NAN)
		return 0x7fff;
	if (v.kind == VAL_INF)
		return sign | 0x7c00;
	if (v.sig == 0)
		return sign;
	/* sig * 2^(exp - frac) normalised: an e4m3 value is never an f16 subnormal (least 2^-9) */
	int e = msb64(v.sig) + v.exp - v.frac;
	uint32_t m = (uint32_t)(v.sig << (10 - msb64(v.sig))) & 0x3ff;
	return sign | (uint32_t)(e + 15) << 10 | m;
}


/* The two halves of an fp8 mma.sync's k, widened to f16: k = 0,1,4,5,... first and
 * 2,3,6,7,... second. Returns the elements in each half. */
static unsigned fp8_split(enum tc_elem ta, enum tc_elem tb, const uint32_t *a, const uint32_t *b,
			  unsigned k, uint32_t ha[2][128], uint32_t hb[2][128])
{
	unsigned n[2] = {0, 0};

	for (unsigned i = 0; i < k && i < 256; i++) {
		unsigned half = (i >> 1) & 1;
		ha[half][n[half]] = fp8_to_f16(ta, a[i]);
		hb[half][n[half]++] = fp8_to_f16(tb, b[i]);
	}
	return n[0];
}

uint32_t tc_dot_fp8_sm90_f32(enum tc_elem ta, enum tc_elem tb, const uint32_t *a,
			     const uint32_t *b, unsigned k, uint32_t c)
{
	uint32_t ha[2][128], hb[2][128];
	unsigned n = fp8_split(ta, tb, a, b, k, ha, hb);
	uint32_t d1 = tc_dot_f32(TC_F16, TC_F16, ha[0], hb[0], n, 0);
	uint32_t d2 = tc_dot_f32(TC_F16, TC_F16, ha[1], hb[1], n, d1);

	return f32_add(d2, c);
}

uint16_t tc_dot_fp8_sm90_f16(enum tc_elem ta, enum tc_elem tb, const uint32_t *a,
			     const uint32_t *b, unsigned k, uint16_t c)
{
	uint32_t ha[2][128], hb[2][128];
	unsigned n = fp8_split(ta, tb, a, b, k, ha, hb);
	uint16_t d1 = tc_dot_f16(TC_F16, TC_F16, ha[0], hb[0], n, 0);
	uint16_t d2 = tc_dot_f16(TC_F16, TC_F16, ha[1], hb[1], n, d1);

	/* an f16 add: the exact sum of two f16 values fits a double */
	return f64_to_f16(f16_to_f64(d2) + f16_to_f64(c));
}

/* ---- mma.m8n8k4 with f16 inputs on sm_90: fp32 FMAs ------------------------------------- */

uint32_t tc_dot_m8n8k4_f32(const uint32_t *a, const uint32_t *b, uint32_t c)
{
	uint32_t s = 0;

	for (unsigned i = 0; i < 4; i++)
		s = f32_fma(f16_to_f32(a[i]), f16_to_f32(b[i]), s);
	return f32_add(c, s);
}

uint16_t tc_dot_m8n8k4_f16(const uint32_t *a, const uint32_t *b, uint16_t c)
{
	uint32_t s01 = f32_fma(f16_to_f32(a[1]), f16_to_f32(b[1]),
			       f32_mul(f16_to_f32(a[0]), f16_to_f32(b[0])));
	uint32_t s23 = f32_fma(f16_to_f32(a[3]), f16_to_f32(b[3]),
			       f32_mul(f16_to_f32(a[2]), f16_to_f32(b[2])));

	return tc_f32_to_f16(f32_add(f32_add(f16_to_f32(c), s01), s23));
}

/* ---- integer, b1 and f64 ----------------------------------------------------------------- */

static int64_t int_elem(enum tc_elem t, uint32_t raw)
{
	switch (t) {
	case TC_S8: return (int8_t)(raw & 0xff);
	case TC_U8: return raw & 0xff;
	case TC_S4: return (int64_t)((raw & 0xf) ^ 8) - 8;
	case TC_U4: return raw & 0xf;
	default: return 0;
	}
}

int32_t tc_dot_int(enum tc_elem ta, enum tc_elem tb, const uint32_t *a, const uint32_t *b,
		   unsigned k, int32_t c, bool satfinite)
{
	int64_t sum = c;

	for (unsigned i = 0; i < k; i++)
		sum += int_elem(ta, a[i]) * int_elem(tb, b[i]);
	if (satfinite)
		return sum > INT32_MAX ? INT32_MAX : sum < INT32_MIN ? INT32_MIN : (int32_t)sum;
	return (int32_t)(uint32_t)sum;
}

int32_t tc_dot_b1(enum tc_bop op, const uint32_t *a, const uint32_t *b, unsigned nwords,
		  int32_t c)
{
	uint32_t sum = (uint32_t)c;

	for (unsigned i = 0; i < nwords; i++)
		sum += __builtin_popcount(op == TC_BOP_AND ? a[i] & b[i] : a[i] ^ b[i]);
	return (int32_t)sum;
}

static uint64_t f64_bits(double d)
{
	uint64_t u;
	memcpy(&u, &d, 8);
	return u;
}

static double bits_f64(uint64_t u)
{
	double d;
	memcpy(&d, &u, 8);
	return d;
}

uint64_t tc_dot_f64(const uint64_t *a, const uint64_t *b, unsigned k, uint64_t c)
{
	const uint64_t quiet = 1ull << 51;

	for (unsigned i = 0; i < k; i++) {
		double x = bits_f64(a[i]), y = bits_f64(b[i]), z = bits_f64(c);

		if (isnan(y))
			c = b[i] | quiet;
		else if (isnan(z))
			c |= quiet;
		else if (isnan(x))
			c = a[i] | quiet;
		else {
			double d = fma(x, y, z);
			c = isnan(d) ? 0xfff8000000000000ull : f64_bits(d);
		}
	}
	return c;
}
