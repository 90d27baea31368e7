/*
 * mufu.c - the H100's MUFU.RCP / RSQ / SQRT / EX2 / LG2 / SIN / COS / TANH for f32, bit for
 * bit, and the SASS sequences ptxas 13 emits for rcp/rsqrt/sqrt/ex2/lg2/sin/cos.approx{.ftz}.f32,
 * tanh.approx.f32, div.approx{.ftz}.f32 and div.full{.ftz}.f32 (docs/alu.md).
 *
 * The unit is table driven: its result depends only on the significand (and the exponent's
 * parity for the square roots; for EX2 on the input's 23-bit fixed-point fraction and sign).
 * The tables below hold every such result, measured exhaustively on an H100
 * (tests/hw_alu/mufu/: meas.cu ran each MUFU over all of [1,2) or [1,4), mkmufu.c packed the
 * words). They come from src/run/mufu_data/mufu.bin.xz, unpacked at build time into a blob that
 * the generated mufu_blob.c embeds (symbol ptxi_mufu_blob).
 *
 * Blob (little-endian): u32 magic 0x4655464d, u32 ntables, then per table 8 u32: id, n, width, offset,
 * nexc, off_bases, off_codes, off_exc. Entry i of a table is the output word for input i of
 * the sweep. Entries come in blocks of 64: bases[i/64] is the word of the block's first entry;
 * each later entry adds offset + code + exception to its predecessor, where code is the
 * `width`-bit number stored as bit planes (u64 per plane per block, bit i%64) and exception is
 * the extra of the rare entries listed in (u32 index, i32 extra) pairs, sorted by index.
 */
#include "mufu.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

extern const unsigned char ptxi_mufu_blob[];

enum { T_RCP, T_RSQ, T_SQRT, T_EX2P, T_EX2N, T_LG2P, T_LG2N, T_SIN, T_TANH, T_COUNT };

struct mtab {
	uint32_t n, width;
	int32_t offset;
	uint32_t nexc;
	const unsigned char *bases, *codes, *exc;
};

static inline uint32_t rd32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t rd64(const unsigned char *p) { return rd32(p) | (uint64_t)rd32(p + 4) << 32; }

/* The directory lists the tables in id order (mkmufu writes them so). Read-only, no state. */
static inline struct mtab tab_of(int id)
{
	const unsigned char *b = ptxi_mufu_blob, *d = b + 8 + 32 * id;
	struct mtab t = {rd32(d + 4), rd32(d + 8), (int32_t)rd32(d + 12), rd32(d + 16),
			 b + rd32(d + 20), b + rd32(d + 24), b + rd32(d + 28)};
	return t;
}

/* Entry i of table id (i < n). */
static uint32_t tab_get(int id, uint32_t i)
{
	struct mtab tt = tab_of(id);
	const struct mtab *t = &tt;
	uint32_t blk = i >> 6, r = i & 63;
	uint32_t v = rd32(t->bases + 4 * (size_t)blk);
	if (r == 0)
		return v;
	uint64_t m = (r == 63 ? ~0ull : (2ull << r) - 1) & ~1ull; /* positions 1..r */
	uint32_t sum = 0;
	for (uint32_t p = 0; p < t->width; p++)
		sum += (uint32_t)__builtin_popcountll(rd64(t->codes + 8 * ((size_t)blk * t->width + p)) & m) << p;
	v += sum + (uint32_t)t->offset * r;
	if (t->nexc) {
		/* first exception with index > blk*64 */
		uint32_t lo = 0, hi = t->nexc, first = blk << 6;
		while (lo < hi) {
			uint32_t mid = (lo + hi) / 2;
			if (rd32(t->exc + 8 * (size_t)mid) <= first)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < t->nexc && rd32(t->exc + 8 * (size_t)lo) <= i; lo++)
			v += rd32(t->exc + 8 * (size_t)lo + 4);
	}
	return v;
}

#define QNAN 0x7fffffffu
#define SIGN 0x80000000u

static inline float f_of(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }
static inline uint32_t b_of(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }
static inline bool is_nan(uint32_t x) { return (x & 0x7fffffffu) > 0x7f800000u; }
static inline uint32_t expf_(uint32_t x) { return (x >> 23) & 0xff; }

/* Scale a positive normal word by 2^k; below the normal range it flushes to +0. */
static inline uint32_t scale(uint32_t w, int k)
{
	int e = (int)expf_(w) + k;
	if (e <= 0)
		return 0;
	if (e >= 255)
		return 0x7f800000u;
	return (w & 0x807fffffu) | (uint32_t)e << 23;
}

uint32_t mufu_rcp(uint32_t x)
{
	uint32_t s = x & SIGN, e = expf_(x);
	if (is_nan(x))
		return QNAN;
	if (e == 0)
		return s | 0x7f800000u; /* +-0, subnormal: +-inf */
	if (e == 255)
		return s;               /* +-inf: +-0 */
	uint32_t w = tab_get(T_RCP, x & 0x7fffffu);
	return s | scale(w, 127 - (int)e);
}

/* x = 2^(2k) * y, y in [1,4): table index = (odd exponent) * 2^23 + significand. */
static inline uint32_t sqrt_index(uint32_t x, int *k)
{
	int E = (int)expf_(x) - 127;
	int kk = E >= 0 ? E / 2 : -((1 - E) / 2);
	*k = kk;
	return (uint32_t)(E - 2 * kk) << 23 | (x & 0x7fffffu);
}

uint32_t mufu_rsq(uint32_t x)
{
	uint32_t s = x & SIGN, e = expf_(x);
	if (is_nan(x))
		return QNAN;
	if (e == 0)
		return s | 0x7f800000u;
	if (s)
		return QNAN;
	if (e == 255)
		return 0;
	int k;
	uint32_t i = sqrt_index(x, &k);
	return scale(tab_get(T_RSQ, i), -k);
}

uint32_t mufu_sqrt(uint32_t x)
{
	uint32_t s = x & SIGN, e = expf_(x);
	if (is_nan(x))
		return QNAN;
	if (e == 0)
		return s;
	if (s)
		return QNAN;
	if (e == 255)
		return 0x7f800000u;
	int k;
	uint32_t i = sqrt_index(x, &k);
	return scale(tab_get(T_SQRT, i), k);
}

/*
 * EX2 reads its input as sign and magnitude, the magnitude truncated to 23 fraction bits:
 * |x| = n + j/2^23. The result is 2^n * T+[j] for x >= 0 and 2^-n * T-[j] for x < 0, where the
 * tables hold the H100's words for 1 + j/2^23 (T+, in [2,4)) and -(1 + j/2^23) (T-, in
 * (1/4,1/2]).
 */
uint32_t mufu_ex2(uint32_t x)
{
	uint32_t s = x & SIGN, e = expf_(x);
	if (is_nan(x))
		return QNAN;
	if (e >= 127 + 7) /* |x| >= 128 */
		return s ? 0 : 0x7f800000u;
	uint32_t F; /* |x| * 2^23, truncated */
	if (e < 127 - 23)
		F = 0;
	else {
		uint64_t m = (x & 0x7fffffu) | 0x800000u; /* |x| = m * 2^(e-150) */
		int sh = (int)e - 150 + 23;
		F = (uint32_t)(sh >= 0 ? m << sh : m >> -sh);
	}
	int n = (int)(F >> 23);
	uint32_t j = F & 0x7fffffu;
	if (!s)
		return scale(tab_get(T_EX2P, j), n - 1);
	if (j == 0)
		return n > 126 ? 0 : (uint32_t)(127 - n) << 23;
	return scale(tab_get(T_EX2N, j), -(n - 1));
}

/* Round a double to f32 toward zero (any double that is f32-representable stays as it is). */
static inline float rz_f32(double p)
{
	float t = (float)p;
	if (fabs((double)t) > fabs(p))
		t = nextafterf(t, 0.0f);
	return t;
}

/*
 * LG2 of x = 2^E * (1 + j/2^23): for E >= 0 the f32 sum E + L+[j] rounded toward zero, for
 * E < 0 -(|E| - 1 + |L-[j]|) rounded toward zero in magnitude, where L+ holds the H100's words
 * for [1,2) and L-[j] those for [0.5,1) (L-[0] = LG2(0.5) = -(1 - 2^-22): the unit's result is
 * a fixed-point sum, which the truncated f32 of each half-table reproduces exactly).
 */
uint32_t mufu_lg2(uint32_t x)
{
	uint32_t e = expf_(x);
	if (is_nan(x))
		return QNAN;
	if (e == 0)
		return 0xff800000u; /* +-0, subnormal: -inf */
	if (x & SIGN)
		return QNAN;
	if (e == 255)
		return 0x7f800000u;
	int E = (int)e - 127;
	uint32_t j = x & 0x7fffffu;
	if (E >= 0)
		return b_of(rz_f32((double)E + (double)f_of(tab_get(T_LG2P, j))));
	return SIGN | b_of(rz_f32((double)(-E - 1) - (double)f_of(tab_get(T_LG2N, j))));
}

/*
 * SIN/COS of t (turns): the phase is |t| mod 1 truncated to 25 fraction bits, p, complemented
 * (~p) for negative t; quadrant q = p >> 23, r = p mod 2^23. sin = T[r], T[2^23-1-r], -T[r],
 * -T[2^23-1-r] in quadrants 0..3, cos(p) = sin(p + 2^23); T holds the H100's words over one
 * quadrant. Infinity and NaN give NaN.
 */
static uint32_t mufu_sincos(uint32_t x, bool cosine)
{
	uint32_t e = expf_(x);
	if (e == 255)
		return QNAN;
	uint32_t p = 0; /* floor(frac(|t|) * 2^25) */
	if (e >= 127 - 25 && e < 127 + 23) {
		uint64_t m = (x & 0x7fffffu) | 0x800000u; /* |t| = m * 2^(e-150) */
		int sh = (int)e - 150 + 25;
		p = (uint32_t)(sh >= 0 ? m << sh : m >> -sh) & 0x1ffffffu;
	}
	if (x & SIGN)
		p = ~p & 0x1ffffffu;
	if (cosine)
		p = (p + 0x800000u) & 0x1ffffffu;
	uint32_t q = p >> 23, r = p & 0x7fffffu;
	if (q & 1)
		r = 0x7fffffu - r;
	return tab_get(T_SIN, r) ^ (q & 2 ? SIGN : 0);
}

uint32_t mufu_sin(uint32_t x) { return mufu_sincos(x, false); }
uint32_t mufu_cos(uint32_t x) { return mufu_sincos(x, true); }

/*
 * TANH: odd; |x| < 2^-8: x itself (subnormals too); |x| >= 8: 1; in between the H100's words
 * are constant over aligned blocks of 2^k inputs, k per binade (2^-8..2^3: 6 6 6 5 5 4 4 4 3
 * 2 3), and the table holds one word per block, binade after binade.
 */
uint32_t mufu_tanh(uint32_t x)
{
	static const unsigned char kb[11] = {6, 6, 6, 5, 5, 4, 4, 4, 3, 2, 3};
	uint32_t s = x & SIGN, e = expf_(x);
	if (is_nan(x))
		return QNAN;
	if (e < 119)
		return x;
	if (e >= 130)
		return s | 0x3f800000u;
	uint32_t off = 0;
	for (uint32_t b = 119; b < e; b++)
		off += 1u << (23 - kb[b - 119]);
	return s | tab_get(T_TANH, off + ((x & 0x7fffffu) >> kb[e - 119]));
}

/* ---- the f32 multiply and the SASS sequences -------------------------------------------- */

uint32_t mufu_fmul(uint32_t a, uint32_t b, bool ftz)
{
	if (ftz) {
		if (expf_(a) == 0)
			a &= SIGN;
		if (expf_(b) == 0)
			b &= SIGN;
	}
	float r = f_of(a) * f_of(b);
	if (r != r)
		return QNAN;
	uint32_t w = b_of(r);
	if (ftz && fabs(r) <= 0x1p-126f) {
		/* tininess after rounding: flush only when the product rounded to 24 bits with an
		 * unbounded exponent is below 2^-126 (H100: div.full.ftz.f32 0x3f800001 /
		 * 0xfe800001 is -2^-126, from a product of magnitude 2^-126 * (1 - 2^-46)) */
		double ex = (double)f_of(a) * (double)f_of(b); /* exact */
		double rr = (double)(float)(ex * 0x1p128) * 0x1p-128;
		if (fabs(rr) < 0x1p-126)
			w &= SIGN;
	}
	return w;
}

static inline bool tiny(uint32_t x) { return (x & 0x7fffffffu) < 0x00800000u; }          /* |x| < 2^-126 */
static inline bool huge(uint32_t x) { uint32_t m = x & 0x7fffffffu; return m > 0x7e800000u && m <= 0x7f800000u; } /* |x| > 2^126, not NaN */

#define F_2P24 0x4b800000u   /* 16777216 */
#define F_2M24 0x33800000u
#define F_QUARTER 0x3e800000u

/*
 * rcp.approx.f32:   s = |a| < 2^-126 ? 2^24 : |a| > 2^126 ? 0.25 : 1;  d = s * RCP(s * a)
 * rcp.approx.ftz.f32: MUFU.RCP
 */
uint32_t ptx_rcp_approx_f32(uint32_t a, bool ftz)
{
	if (ftz)
		return mufu_rcp(a);
	uint32_t s = 0x3f800000u;
	if (tiny(a))
		s = F_2P24;
	if (huge(a))
		s = F_QUARTER;
	return mufu_fmul(s, mufu_rcp(mufu_fmul(s, a, false)), false);
}

/* rsqrt.approx.f32: |a| < 2^-126: RSQ(a * 2^24) * 4096; sqrt.approx.f32: SQRT(a * 2^24) / 4096 */
uint32_t ptx_rsqrt_approx_f32(uint32_t a, bool ftz)
{
	if (ftz || !tiny(a))
		return mufu_rsq(a);
	return mufu_fmul(mufu_rsq(mufu_fmul(a, F_2P24, false)), 0x45800000u, false);
}

uint32_t ptx_sqrt_approx_f32(uint32_t a, bool ftz)
{
	if (ftz || !tiny(a))
		return mufu_sqrt(a);
	return mufu_fmul(mufu_sqrt(mufu_fmul(a, F_2P24, false)), 0x39800000u, false);
}

/* ex2.approx.f32: a < -126: r = EX2(a * 0.5), d = r * r (subnormal results); .ftz: MUFU.EX2 */
uint32_t ptx_ex2_approx_f32(uint32_t a, bool ftz)
{
	if (ftz || !(f_of(a) < -126.0f))
		return mufu_ex2(a);
	uint32_t r = mufu_ex2(mufu_fmul(a, 0x3f000000u, false));
	return mufu_fmul(r, r, false);
}

/* div.approx.f32: |b| < 2^-126: a, b scaled by 2^24; d = RCP(b) * a. .ftz: FMUL.FTZ, no scaling */
uint32_t ptx_div_approx_f32(uint32_t a, uint32_t b, bool ftz)
{
	if (!ftz && tiny(b)) {
		b = mufu_fmul(b, F_2P24, false);
		a = mufu_fmul(a, F_2P24, false);
	}
	return mufu_fmul(mufu_rcp(b), a, ftz);
}

/* div.full.f32: |b| > 2^126: a, b scaled by 1/4; (not .ftz) |b| < 2^-126: scaled by 2^24;
 * d = RCP(b) * a */
uint32_t ptx_div_full_f32(uint32_t a, uint32_t b, bool ftz)
{
	bool big = ftz ? huge(tiny(b) ? b & SIGN : b) : huge(b);
	bool small = !ftz && tiny(b);
	if (big) {
		b = mufu_fmul(b, F_QUARTER, ftz);
		a = mufu_fmul(a, F_QUARTER, ftz);
	}
	if (small) {
		b = mufu_fmul(b, F_2P24, false);
		a = mufu_fmul(a, F_2P24, false);
	}
	return mufu_fmul(mufu_rcp(b), a, ftz);
}

/* lg2.approx.f32: |a| < 2^-126: LG2(a * 2^24) - 24 (FADD); .ftz: MUFU.LG2 */
uint32_t ptx_lg2_approx_f32(uint32_t a, bool ftz)
{
	if (ftz || !tiny(a))
		return mufu_lg2(a);
	float r = f_of(mufu_lg2(mufu_fmul(a, F_2P24, false))) + -24.0f;
	return r != r ? QNAN : b_of(r);
}

/* sin/cos.approx{.ftz}.f32: FMUL.RZ a * 0x3e22f983 (1/(2 pi)), then MUFU.SIN/COS */
static inline uint32_t turns_rz(uint32_t a)
{
	if (is_nan(a))
		return QNAN;
	return b_of(rz_f32((double)f_of(a) * (double)f_of(0x3e22f983u)));
}

uint32_t ptx_sin_approx_f32(uint32_t a) { return mufu_sin(turns_rz(a)); }
uint32_t ptx_cos_approx_f32(uint32_t a) { return mufu_cos(turns_rz(a)); }

/* tanh.approx.f32: MUFU.TANH */
uint32_t ptx_tanh_approx_f32(uint32_t a) { return mufu_tanh(a); }
