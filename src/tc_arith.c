/*
 * tc_arith.c - the H100's tensor-core arithmetic (../shared/spec/tensor-h100.md): the block FMA
 * for floating-point inputs with f32 and f16 accumulators, ptxas's fp8 emulation for mma.sync
 * on sm_90, exact integer and b1 dot products, and the f64 FMA chain.
 */
#include "tc_arith.h"

#include <math.h>
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

static const struct fmt *elem_fmt(enum tc_elem t)
{
	static const struct fmt bf16 = {8, 7, 127, SPEC_IEEE, 0};
	static const struct fmt tf32 = {8, 10, 127, SPEC_IEEE, 13};
	static const struct fmt e4m3 = {4, 3, 7, SPEC_E4M3, 0};
	static const struct fmt e5m2 = {5, 2, 15, SPEC_IEEE, 0};

	switch (t) {
	case TC_F16: return &FMT_F16;
	case TC_BF16: return &bf16;
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

static struct val decode(const struct fmt *f, uint32_t raw)
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

/* ---- dot products, block after block ----------------------------------------------------- */

static void decode_all(enum tc_elem t, const uint32_t *raw, unsigned n, struct val *out)
{
	const struct fmt *f = elem_fmt(t);

	for (unsigned i = 0; i < n; i++)
		out[i] = decode(f, raw[i]);
}

/* Decodes one block of A and B into pa/pb (at most 32 elements each); returns its length. */
static unsigned next_block(enum tc_elem ta, enum tc_elem tb, const uint32_t *a,
			   const uint32_t *b, unsigned left, struct val *pa, struct val *pb)
{
	unsigned n = tc_block_size(ta);

	if (n > left)
		n = left;
	decode_all(ta, a, n, pa);
	decode_all(tb, b, n, pb);
	return n;
}

uint32_t tc_dot_f32(enum tc_elem ta, enum tc_elem tb, const uint32_t *a, const uint32_t *b,
		    unsigned k, uint32_t c)
{
	bool fp8 = is_fp8(ta);
	struct block_rule rule = {fp8 ? 13 : 25, -133};
	struct val pa[32], pb[32];

	do {
		unsigned n = next_block(ta, tb, a, b, k, pa, pb);
		struct val vc = decode(&FMT_F32, c);
		struct block_sum s = block_fma(pa, pb, n, &vc, &rule);

		c = round_f32_rz(&s, fp8 ? 13 : 23);
		a += n, b += n, k -= n;
	} while (k);
	return c;
}

uint16_t tc_dot_f16(enum tc_elem ta, enum tc_elem tb, const uint32_t *a, const uint32_t *b,
		    unsigned k, uint16_t c)
{
	struct block_rule rule = {is_fp8(ta) ? 13 : 25, -21};
	struct val pa[32], pb[32];

	do {
		unsigned n = next_block(ta, tb, a, b, k, pa, pb);
		struct val vc = decode(&FMT_F16, c);
		struct block_sum s = block_fma(pa, pb, n, &vc, &rule);

		c = round_f16_rn(&s);
		a += n, b += n, k -= n;
	} while (k);
	return c;
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

uint32_t tc_dot_fp8_sm90_f32(enum tc_elem ta, enum tc_elem tb, const uint32_t *a,
			     const uint32_t *b, unsigned k, uint32_t c)
{
	uint32_t ha[2][128], hb[2][128];
	unsigned n[2] = {0, 0};

	for (unsigned i = 0; i < k && i < 256; i++) {
		unsigned half = (i >> 1) & 1; /* k = 0,1,4,5,... first; 2,3,6,7,... second */
		ha[half][n[half]] = fp8_to_f16(ta, a[i]);
		hb[half][n[half]++] = fp8_to_f16(tb, b[i]);
	}
	uint32_t d1 = tc_dot_f32(TC_F16, TC_F16, ha[0], hb[0], n[0], 0);
	uint32_t d2 = tc_dot_f32(TC_F16, TC_F16, ha[1], hb[1], n[1], d1);
	float sum = bits_f32(d2) + bits_f32(c);

	return isnan(sum) ? 0x7fffffffu : f32_bits(sum);
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
