/*
 * exec_fp.c - floating-point instructions on f32/f64 and on f16/bf16 (scalar and x2 pairs):
 * arithmetic with the four IEEE rounding modes, .ftz/.sat/.relu, min/max, comparisons, testp
 * and the .approx special functions (ISA 9.7.3, 9.7.4). The .approx ones return the correctly
 * rounded value of the exact function, so they can differ from the H100 within the manual's
 * error bound (docs/alu.md gives the measured differences).
 */
#include "exec_alu_impl.h"
#include "mufu.h"

#include <fenv.h>
#include <math.h>

/*
 * Notes (checked on an H100, tests/hw_alu):
 *  - f32 arithmetic that yields NaN returns the canonical 0x7fffffff, whatever the inputs.
 *  - f64 arithmetic propagates the last NaN operand (quieted); an invalid operation gives
 *    0xfff8000000000000 (see alu_nan64). abs/neg.f64 of a NaN return it quieted, unchanged
 *    in sign, while abs/neg of f32/f16/bf16 NaNs give the canonical NaN.
 *  - .ftz flushes subnormal inputs to zero of the same sign, and results that are tiny
 *    before rounding (|exact| < 2^-126), even if they would round to 2^-126.
 *  - .sat clamps to [+0, 1]; NaN becomes +0.
 */

/* ---- f32 helpers ------------------------------------------------------------------------ */

static inline float ftz32(float v)
{
	uint32_t b = bits_f32(v);
	return (b & 0x7f800000u) == 0 ? f32_of(b & 0x80000000u) : v;
}

static inline uint64_t out32(float r, bool ftz, bool sat)
{
	uint32_t b = bits_f32(r);
	if (r != r)
		return sat ? 0 : F32_CANON_NAN;
	if (ftz && (b & 0x7f800000u) == 0)
		b &= 0x80000000u;
	if (sat) {
		if (b >> 31)
			b = 0;
		else if (b > 0x3f800000u)
			b = 0x3f800000u;
	}
	return b;
}

static inline uint64_t quiet64(uint64_t v) { return v | 0x0008000000000000ull; }

static inline bool isnan64(uint64_t v) { return (v & 0x7fffffffffffffffull) > 0x7ff0000000000000ull; }

/* f64 NaN result on the H100: the first NaN among the operands in the order given (the
 * callers pass add/sub/mul/min/max as b, a; fma as b, c, a; div as a, b), quieted; else the
 * default NaN 0xfff8000000000000 (inf - inf, sqrt(-1), 0 * inf). */
static inline uint64_t alu_nan64(uint64_t p, uint64_t q, uint64_t r)
{
	if (isnan64(p))
		return quiet64(p);
	if (isnan64(q))
		return quiet64(q);
	if (isnan64(r))
		return quiet64(r);
	return 0xfff8000000000000ull;
}

/* .ftz decides tininess before rounding: a result whose exact value is below 2^-126 in
 * magnitude becomes zero even when it would round up to the smallest normal. */
/* Round-to-nearest .ftz: the H100 detects tininess after rounding (to 24 bits, exponent
 * unbounded). A product of magnitude 2^-126 * (1 - 2^-46) gives 2^-126 (seen in FMUL.FTZ of
 * div.full.ftz.f32, src/run/mufu.c); 2^-126 * (1 - 2^-24) is representable, so it is tiny and
 * flushes (the mul.rn.ftz case of docs/alu.md). */
static inline float tiny_flush_rn(float r, double exact)
{
	if (fabs(exact) < 0x1p-126 && r == r &&
	    fabs((double)(float)(exact * 0x1p128) * 0x1p-128) < 0x1p-126)
		return signbit(exact) ? -0.0f : 0.0f;
	return r;
}

static inline float tiny_flush(float r, double exact)
{
	if (fabs(exact) < 0x1p-126 && r == r)
		return signbit(exact) ? -0.0f : 0.0f;
	return r;
}

static inline uint64_t out64(double r, uint64_t a, uint64_t b, uint64_t c, bool sat)
{
	if (r != r)
		return sat ? 0 : alu_nan64(a, b, c);
	uint64_t v = bits_f64(r);
	if (sat) {
		if (v >> 63)
			v = 0;
		else if (v > 0x3ff0000000000000ull)
			v = 0x3ff0000000000000ull;
	}
	return v;
}

/* ---- f32 fast paths (round to nearest: the host's default mode) ------------------------ */

#define F32_BIN(name, op)                                                                  \
	ALU_FN(name)                                                                       \
	{                                                                                  \
		(void)ai;                                                                  \
		LANE_LOOP(mask, {                                                          \
			float a = f32_of(x->a[l]), b = f32_of(x->b[l]);                    \
			x->d[l] = out32(a op b, false, false);                             \
		});                                                                        \
	}                                                                                  \
	ALU_FN(name##_ftz)                                                                 \
	{                                                                                  \
		(void)ai;                                                                  \
		LANE_LOOP(mask, {                                                          \
			float a = ftz32(f32_of(x->a[l])), b = ftz32(f32_of(x->b[l]));      \
			double e = (double)a op (double)b; /* exact */                     \
			x->d[l] = out32(tiny_flush_rn((float)e, e), true, false);             \
		});                                                                        \
	}

F32_BIN(f32_add, +)
F32_BIN(f32_sub, -)
F32_BIN(f32_mul, *)

ALU_FN(f32_fma)
{
	(void)ai;
	LANE_LOOP(mask, x->d[l] = out32(fmaf(f32_of(x->a[l]), f32_of(x->b[l]), f32_of(x->c[l])), false, false));
}

ALU_FN(f32_fma_ftz)
{
	(void)ai;
	LANE_LOOP(mask, {
		float a = ftz32(f32_of(x->a[l])), b = ftz32(f32_of(x->b[l])), c = ftz32(f32_of(x->c[l]));
		x->d[l] = out32(tiny_flush_rn(fmaf(a, b, c), fma(a, b, c)), true, false);
	});
}

/* ---- f32/f64 generic arithmetic with rounding modes ---------------------------------- */

enum fk { K_ADD, K_SUB, K_MUL, K_FMA, K_DIV, K_SQRT, K_RCP };

static enum fk kind_of(const struct alu_insn *ai)
{
	switch (ai->op) {
	case OP_ADD: return K_ADD;
	case OP_SUB: return K_SUB;
	case OP_MUL: return K_MUL;
	case OP_DIV: return K_DIV;
	case OP_SQRT: return K_SQRT;
	case OP_RCP: return K_RCP;
	default: return K_FMA;
	}
}

static int fe_mode(enum ir_mod rnd)
{
	switch (rnd) {
	case MOD_RZ: return FE_TOWARDZERO;
	case MOD_RM: return FE_DOWNWARD;
	case MOD_RP: return FE_UPWARD;
	default: return FE_TONEAREST;
	}
}

static float f32_do(enum fk k, float a, float b, float c)
{
	volatile float r;
	switch (k) {
	case K_ADD: r = a + b; break;
	case K_SUB: r = a - b; break;
	case K_MUL: r = a * b; break;
	case K_FMA: r = fmaf(a, b, c); break;
	case K_DIV: r = a / b; break;
	case K_SQRT: r = sqrtf(a); break;
	default: r = 1.0f / a; break;
	}
	return r;
}

static double f64_do(enum fk k, double a, double b, double c)
{
	volatile double r;
	switch (k) {
	case K_ADD: r = a + b; break;
	case K_SUB: r = a - b; break;
	case K_MUL: r = a * b; break;
	case K_FMA: r = fma(a, b, c); break;
	case K_DIV: r = a / b; break;
	case K_SQRT: r = sqrt(a); break;
	default: r = 1.0 / a; break;
	}
	return r;
}

ALU_FN(f32_generic)
{
	enum fk k = kind_of(ai);
	bool ftz = ai->flags & ALU_FTZ, sat = ai->flags & ALU_SAT;
	int mode = fe_mode(ai->rnd), old = fegetround();
	if (mode != old)
		fesetround(mode);
	LANE_LOOP(mask, {
		float a = f32_of(x->a[l]), b = x->b ? f32_of(x->b[l]) : 0, c = x->c ? f32_of(x->c[l]) : 0;
		if (ftz) {
			a = ftz32(a);
			b = ftz32(b);
			c = ftz32(c);
		}
		float r = f32_do(k, a, b, c);
		if (ftz)
			r = tiny_flush(r, f64_do(k, a, b, c));
		x->d[l] = out32(r, ftz, sat);
	});
	if (mode != old)
		fesetround(old);
}

ALU_FN(f64_generic)
{
	enum fk k = kind_of(ai);
	bool sat = ai->flags & ALU_SAT;
	int mode = fe_mode(ai->rnd), old = fegetround();
	if (mode != old)
		fesetround(mode);
	LANE_LOOP(mask, {
		uint64_t ab = x->a[l], bb = x->b ? x->b[l] : 0, cb = x->c ? x->c[l] : 0;
		double r = f64_do(k, f64_of(ab), f64_of(bb), f64_of(cb));
		x->d[l] = k == K_DIV || k == K_SQRT || k == K_RCP ? out64(r, ab, bb, 0, sat)
			: k == K_FMA ? out64(r, bb, cb, ab, sat) : out64(r, bb, ab, 0, sat);
	});
	if (mode != old)
		fesetround(old);
}

ALU_FN(f64_add) { (void)ai; LANE_LOOP(mask, { uint64_t a = x->a[l], b = x->b[l]; x->d[l] = out64(f64_of(a) + f64_of(b), b, a, 0, false); }); }
ALU_FN(f64_sub) { (void)ai; LANE_LOOP(mask, { uint64_t a = x->a[l], b = x->b[l]; x->d[l] = out64(f64_of(a) - f64_of(b), b, a, 0, false); }); }
ALU_FN(f64_mul) { (void)ai; LANE_LOOP(mask, { uint64_t a = x->a[l], b = x->b[l]; x->d[l] = out64(f64_of(a) * f64_of(b), b, a, 0, false); }); }
ALU_FN(f64_fma)
{
	(void)ai;
	LANE_LOOP(mask, {
		uint64_t a = x->a[l], b = x->b[l], c = x->c[l];
		x->d[l] = out64(fma(f64_of(a), f64_of(b), f64_of(c)), b, c, a, false);
	});
}

/* rcp/sqrt/rsqrt/ex2/lg2/sin/cos/tanh.approx.f32, div.approx.f32, div.full.f32: bit-exact H100
 * model (mufu.c) */
ALU_FN(f32_mufu)
{
	bool ftz = ai->flags & ALU_FTZ;
	switch (ai->op) {
	case OP_RCP: LANE_LOOP(mask, x->d[l] = ptx_rcp_approx_f32((uint32_t)x->a[l], ftz)); break;
	case OP_SQRT: LANE_LOOP(mask, x->d[l] = ptx_sqrt_approx_f32((uint32_t)x->a[l], ftz)); break;
	case OP_RSQRT: LANE_LOOP(mask, x->d[l] = ptx_rsqrt_approx_f32((uint32_t)x->a[l], ftz)); break;
	case OP_EX2: LANE_LOOP(mask, x->d[l] = ptx_ex2_approx_f32((uint32_t)x->a[l], ftz)); break;
	case OP_LG2: LANE_LOOP(mask, x->d[l] = ptx_lg2_approx_f32((uint32_t)x->a[l], ftz)); break;
	case OP_SIN: LANE_LOOP(mask, x->d[l] = ptx_sin_approx_f32((uint32_t)x->a[l])); break;
	case OP_COS: LANE_LOOP(mask, x->d[l] = ptx_cos_approx_f32((uint32_t)x->a[l])); break;
	case OP_TANH: LANE_LOOP(mask, x->d[l] = ptx_tanh_approx_f32((uint32_t)x->a[l])); break;
	default:
		if (ai->flags & ALU_FULL)
			LANE_LOOP(mask, x->d[l] = ptx_div_full_f32((uint32_t)x->a[l], (uint32_t)x->b[l], ftz));
		else
			LANE_LOOP(mask, x->d[l] = ptx_div_approx_f32((uint32_t)x->a[l], (uint32_t)x->b[l], ftz));
		break;
	}
}

/* rcp.approx.ftz.f64 / rsqrt.approx{.ftz}.f64 */
ALU_FN(f64_approx)
{
	bool rsq = ai->op == OP_RSQRT;
	LANE_LOOP(mask, {
		uint64_t ab = x->a[l];
		if (ai->flags & ALU_FTZ) /* the H100 reads only the high word (MUFU.RCP64H) */
			ab &= 0xffffffff00000000ull;
		double a = f64_of(ab);
		if ((ai->flags & ALU_FTZ) && (ab & 0x7ff0000000000000ull) == 0)
			a = (ab >> 63) ? -0.0 : 0.0;
		uint64_t r = out64(rsq ? 1.0 / sqrt(a) : 1.0 / a, ab, 0, 0, false);
		/* the .ftz forms compute ~20 bits (low word zero): round to the high word */
		if ((ai->flags & ALU_FTZ) && (r & 0x7ff0000000000000ull) == 0)
			r &= 0x8000000000000000ull;
		if ((ai->flags & ALU_FTZ) && !isnan64(r) && (r & 0x7ff0000000000000ull) != 0x7ff0000000000000ull)
			r = (r + 0x80000000u) & 0xffffffff00000000ull;
		x->d[l] = r;
	});
}

/* ---- min/max/abs/neg/copysign ---------------------------------------------------------- */

ALU_FN(f32_minmax)
{
	bool mx = ai->op == OP_MAX, ftz = ai->flags & ALU_FTZ, nanp = ai->flags & ALU_NAN;
	bool xs = ai->flags & ALU_XORSIGN;
	LANE_LOOP(mask, {
		uint32_t ab = (uint32_t)x->a[l], bb = (uint32_t)x->b[l];
		if (ftz) {
			ab = bits_f32(ftz32(f32_of(ab)));
			bb = bits_f32(ftz32(f32_of(bb)));
		}
		uint32_t sx = (ab ^ bb) & 0x80000000u;
		if (xs) {
			ab &= 0x7fffffffu;
			bb &= 0x7fffffffu;
		}
		float a = f32_of(ab), b = f32_of(bb);
		uint32_t r;
		bool an = a != a, bn = b != b;
		if (an && bn)
			r = F32_CANON_NAN;
		else if (an || bn)
			r = nanp ? F32_CANON_NAN : (an ? bb : ab);
		else if (a == b)   /* equal, or +0 and -0 */
			r = mx ? (ab & bb) : (ab | bb);
		else
			r = ((a < b) != mx) ? ab : bb;
		if (xs && (r & 0x7fffffffu) <= 0x7f800000u)
			r |= sx;
		x->d[l] = r;
	});
}

ALU_FN(f64_minmax)
{
	bool mx = ai->op == OP_MAX;
	LANE_LOOP(mask, {
		uint64_t ab = x->a[l], bb = x->b[l];
		double a = f64_of(ab), b = f64_of(bb);
		uint64_t r;
		bool an = a != a, bn = b != b;
		if (an && bn)
			r = alu_nan64(bb, ab, 0);
		else if (an || bn)
			r = an ? bb : ab;
		else if (a == b)
			r = mx ? (ab & bb) : (ab | bb);
		else
			r = ((a < b) != mx) ? ab : bb;
		x->d[l] = r;
	});
}

ALU_FN(f32_abs)
{
	bool ftz = ai->flags & ALU_FTZ;
	LANE_LOOP(mask, {
		uint32_t b = (uint32_t)x->a[l] & 0x7fffffffu;
		if (ftz && (b & 0x7f800000u) == 0)
			b = 0;
		x->d[l] = b > 0x7f800000u ? F32_CANON_NAN : b;
	});
}

ALU_FN(f32_neg)
{
	bool ftz = ai->flags & ALU_FTZ;
	LANE_LOOP(mask, {
		uint32_t b = (uint32_t)x->a[l];
		if (ftz && (b & 0x7f800000u) == 0)
			b &= 0x80000000u;
		x->d[l] = (b & 0x7fffffffu) > 0x7f800000u ? F32_CANON_NAN : b ^ 0x80000000u;
	});
}

ALU_FN(f64_abs) { (void)ai; LANE_LOOP(mask, { uint64_t a = x->a[l]; x->d[l] = isnan64(a) ? quiet64(a) : a & 0x7fffffffffffffffull; }); }
ALU_FN(f64_neg) { (void)ai; LANE_LOOP(mask, { uint64_t a = x->a[l]; x->d[l] = isnan64(a) ? quiet64(a) : a ^ 0x8000000000000000ull; }); }

/* copysign d, a, b: b's magnitude with a's sign. */
ALU_FN(f32_copysign)
{
	(void)ai;
	LANE_LOOP(mask, x->d[l] = ((uint32_t)x->b[l] & 0x7fffffffu) | ((uint32_t)x->a[l] & 0x80000000u));
}

ALU_FN(f64_copysign)
{
	(void)ai;
	LANE_LOOP(mask, x->d[l] = (x->b[l] & 0x7fffffffffffffffull) | (x->a[l] & 0x8000000000000000ull));
}

/* ---- testp ------------------------------------------------------------------------------ */

ALU_FN(f_testp)
{
	enum alu_fmt f = ai->type == MOD_F64 ? FMT_F64 : FMT_F32;
	enum ir_mod m = ai->mode;
	LANE_LOOP(mask, {
		int c = alu_classify(f, x->a[l]);
		bool r;
		switch (m) {
		case MOD_FINITE: r = c != FC_INF && c != FC_NAN; break;
		case MOD_INFINITE: r = c == FC_INF; break;
		case MOD_NUMBER: r = c != FC_NAN; break;
		case MOD_NOTANUMBER: r = c == FC_NAN; break;
		case MOD_NORMAL: r = c == FC_NORMAL || c == FC_ZERO; break; /* H100: zero is normal */
		default: r = c == FC_SUB; break;
		}
		x->d[l] = r;
	});
}

/* ---- float comparisons -------------------------------------------------------------------- */

static inline bool fcmp(enum ir_mod cmp, double a, double b)
{
	bool u = a != a || b != b;
	switch (cmp) {
	case MOD_EQ: return !u && a == b;
	case MOD_NE: return !u && a != b;
	case MOD_LT: return !u && a < b;
	case MOD_LE: return !u && a <= b;
	case MOD_GT: return !u && a > b;
	case MOD_GE: return !u && a >= b;
	case MOD_EQU: return u || a == b;
	case MOD_NEU: return u || a != b;
	case MOD_LTU: return u || a < b;
	case MOD_LEU: return u || a <= b;
	case MOD_GTU: return u || a > b;
	case MOD_GEU: return u || a >= b;
	case MOD_NUM: return !u;
	default: return u; /* MOD_NAN_ */
	}
}

static inline double as_double(enum ir_mod t, uint64_t v, bool ftz)
{
	switch (t) {
	case MOD_F32: {
		float f = f32_of(v);
		return ftz ? ftz32(f) : f;
	}
	case MOD_F64: return f64_of(v);
	case MOD_F16: {
		uint16_t h = (uint16_t)v;
		if (ftz && (h & 0x7c00) == 0)
			h &= 0x8000;
		return alu_half_to_f64(FMT_F16, h);
	}
	case MOD_BF16: return alu_half_to_f64(FMT_BF16, (uint16_t)v);
	default: return 0;
	}
}

#define DEF_FCMP32(name, op, UNORD)                                                        \
	ALU_FN(name)                                                                       \
	{                                                                                  \
		uint8_t t[LANES];                                                          \
		LANE_LOOP(mask, {                                                          \
			float a = f32_of(x->a[l]), b = f32_of(x->b[l]);                    \
			t[l] = UNORD ? !(a op b) : (a op b);                               \
		});                                                                        \
		alu_setp_finish(ai, x, mask, t);                                           \
	}
/* ordered: a op b is false on NaN; unordered: !(a inverse-op b) */
DEF_FCMP32(fcmp32_lt, <, false)
DEF_FCMP32(fcmp32_le, <=, false)
DEF_FCMP32(fcmp32_gt, >, false)
DEF_FCMP32(fcmp32_ge, >=, false)
DEF_FCMP32(fcmp32_eq, ==, false)
DEF_FCMP32(fcmp32_geu, <, true)
DEF_FCMP32(fcmp32_gtu, <=, true)
DEF_FCMP32(fcmp32_leu, >, true)
DEF_FCMP32(fcmp32_ltu, >=, true)
DEF_FCMP32(fcmp32_neu, ==, true)

ALU_FN(fcmp_generic)
{
	uint8_t t[LANES];
	enum ir_mod ty = ai->op == OP_SET ? ai->type2 : ai->type;
	bool ftz = ai->flags & ALU_FTZ;
	enum ir_mod cmp = ai->cmp;
	LANE_LOOP(mask, t[l] = fcmp(cmp, as_double(ty, x->a[l], ftz), as_double(ty, x->b[l], ftz)));
	alu_setp_finish(ai, x, mask, t);
}

/* setp.cmp.f16x2 / bf16x2 p|q: p from the low halves, q from the high halves. */
ALU_FN(fcmp_x2)
{
	enum ir_mod ty = ai->type == MOD_F16X2 ? MOD_F16 : MOD_BF16;
	bool ftz = ai->flags & ALU_FTZ;
	LANE_LOOP(mask, {
		uint64_t a = x->a[l], b = x->b[l];
		x->d[l] = fcmp(ai->cmp, as_double(ty, a & 0xffff, ftz), as_double(ty, b & 0xffff, ftz));
		if (x->d2)
			x->d2[l] = fcmp(ai->cmp, as_double(ty, a >> 16 & 0xffff, ftz),
					as_double(ty, b >> 16 & 0xffff, ftz));
	});
}

/* ---- half precision (f16, bf16 and their x2 pairs) ------------------------------------------ */

/*
 * Round s + err (s = RN(exact), err = exact - s, both doubles) into the half format exactly:
 * the error only says on which side of s the exact value lies.
 */
static uint16_t half_round2(enum alu_fmt f, double s, double err, enum ir_mod rnd, unsigned opts)
{
	if (err == 0 || s != s || isinf(s) || s == 0)
		return alu_f64_to_half(f, s, rnd, opts);
	int sign, e;
	uint64_t m;
	alu_unpack(FMT_F64, bits_f64(s), &sign, &m, &e);
	bool same = (err < 0) == (s < 0);
	return (uint16_t)alu_round_pack(f, sign, same ? m << 1 : (m << 1) - 1, e - 1, true, rnd, opts);
}

enum hk { H_ADD, H_SUB, H_MUL, H_FMA, H_MIN, H_MAX, H_NEG, H_ABS, H_EX2, H_TANH };

struct hctx {
	enum alu_fmt f;
	enum hk k;
	bool ftz, sat, relu, nanp, xs;
	unsigned opts;
};

static inline bool hnan(enum alu_fmt f, uint16_t v) { return alu_classify(f, v) == FC_NAN; }

static uint16_t half1(const struct hctx *h, uint16_t a, uint16_t b, uint16_t c)
{
	enum alu_fmt f = h->f;
	uint16_t expmask = f == FMT_F16 ? 0x7c00 : 0x7f80;
	uint16_t nanv = (uint16_t)alu_fmt_nan(f);
	if (h->ftz) {
		if ((a & expmask) == 0) a &= 0x8000;
		if ((b & expmask) == 0) b &= 0x8000;
		if ((c & expmask) == 0) c &= 0x8000;
	}
	switch (h->k) {
	case H_NEG: return hnan(f, a) ? nanv : a ^ 0x8000;
	case H_ABS: return hnan(f, a) ? nanv : a & 0x7fff;
	case H_MIN:
	case H_MAX: {
		uint16_t sx = (a ^ b) & 0x8000;
		if (h->xs) {
			a &= 0x7fff;
			b &= 0x7fff;
		}
		double x = alu_half_to_f64(f, a), y = alu_half_to_f64(f, b);
		bool an = x != x, bn = y != y, mx = h->k == H_MAX;
		uint16_t r;
		if (an && bn)
			r = nanv;
		else if (an || bn)
			r = h->nanp ? nanv : (an ? b : a);
		else if (x == y)
			r = mx ? (a & b) : (a | b);
		else
			r = ((x < y) != mx) ? a : b;
		if (h->xs && !hnan(f, r))
			r |= sx;
		return r;
	}
	default:
		break;
	}
	double x = alu_half_to_f64(f, a), y = alu_half_to_f64(f, b), z = alu_half_to_f64(f, c);
	double s, err = 0;
	switch (h->k) {
	case H_ADD:
	case H_SUB: {
		if (h->k == H_SUB)
			y = -y;
		s = x + y;
		double bv = s - x;
		err = (x - (s - bv)) + (y - bv);
		break;
	}
	case H_MUL: s = x * y; break;
	case H_FMA: {
		double p = x * y; /* exact */
		s = p + z;
		double bv = s - p;
		err = (p - (s - bv)) + (z - bv);
		break;
	}
	case H_EX2: s = exp2(x); break;
	default: s = tanh(x); break;
	}
	if (s != s)
		return h->sat ? 0 : nanv;
	if (isinf(s))
		err = 0;
	uint16_t r = half_round2(f, s, err, MOD_RN, h->opts);
	if (h->sat) {
		if (r & 0x8000)
			r = 0;
		else if (!hnan(f, r) && alu_half_to_f64(f, r) > 1.0)
			r = f == FMT_F16 ? 0x3c00 : 0x3f80;
	}
	return r;
}

ALU_FN(half_generic)
{
	struct hctx h;
	enum ir_mod t = ai->type;
	bool x2 = t == MOD_F16X2 || t == MOD_BF16X2;
	h.f = (t == MOD_F16 || t == MOD_F16X2) ? FMT_F16 : FMT_BF16;
	switch (ai->op) {
	case OP_ADD: h.k = H_ADD; break;
	case OP_SUB: h.k = H_SUB; break;
	case OP_MUL: h.k = H_MUL; break;
	case OP_MIN: h.k = H_MIN; break;
	case OP_MAX: h.k = H_MAX; break;
	case OP_NEG: h.k = H_NEG; break;
	case OP_ABS: h.k = H_ABS; break;
	case OP_EX2: h.k = H_EX2; break;
	case OP_TANH: h.k = H_TANH; break;
	default: h.k = H_FMA; break;
	}
	h.ftz = ai->flags & ALU_FTZ;
	h.sat = ai->flags & ALU_SAT;
	h.relu = ai->flags & ALU_RELU;
	h.nanp = ai->flags & ALU_NAN;
	h.xs = ai->flags & ALU_XORSIGN;
	h.opts = (h.ftz ? RP_FTZ : 0) | (h.relu ? RP_RELU : 0);
	LANE_LOOP(mask, {
		uint64_t a = x->a[l], b = x->b ? x->b[l] : 0, c = x->c ? x->c[l] : 0;
		uint64_t r = half1(&h, (uint16_t)a, (uint16_t)b, (uint16_t)c);
		if (x2)
			r |= (uint64_t)half1(&h, (uint16_t)(a >> 16), (uint16_t)(b >> 16),
					     (uint16_t)(c >> 16)) << 16;
		x->d[l] = r;
	});
}

/* ---- prepare ------------------------------------------------------------------------------ */

static const char *const unsup_fp = "this floating-point instruction form is not supported";

static alu_fn *pick_fcmp32(enum ir_mod cmp)
{
	switch (cmp) {
	case MOD_LT: return fcmp32_lt;
	case MOD_LE: return fcmp32_le;
	case MOD_GT: return fcmp32_gt;
	case MOD_GE: return fcmp32_ge;
	case MOD_EQ: return fcmp32_eq;
	case MOD_LTU: return fcmp32_ltu;
	case MOD_LEU: return fcmp32_leu;
	case MOD_GTU: return fcmp32_gtu;
	case MOD_GEU: return fcmp32_geu;
	case MOD_NEU: return fcmp32_neu;
	default: return fcmp_generic;
	}
}

int alu_prepare_fp(struct alu_insn *ai, const char **why)
{
	enum ir_mod t = ai->type;
	uint32_t f = ai->flags;
	bool half = t == MOD_F16 || t == MOD_BF16 || t == MOD_F16X2 || t == MOD_BF16X2;
	bool f32 = t == MOD_F32, f64 = t == MOD_F64;
	bool rn = ai->rnd == MOD_NONE || ai->rnd == MOD_RN;
	bool ftz = f & ALU_FTZ, sat = f & ALU_SAT;
	alu_fn *fn = NULL;

	if (ai->op == OP_SETP || ai->op == OP_SET) {
		enum ir_mod ct = ai->op == OP_SET ? ai->type2 : t;
		if (ct == MOD_F16X2 || ct == MOD_BF16X2)
			fn = ai->op == OP_SETP && ai->boolop == MOD_NONE ? fcmp_x2 : NULL;
		else if (ct == MOD_F32 && !ftz)
			fn = pick_fcmp32(ai->cmp);
		else if (ct == MOD_F32 || ct == MOD_F64 || ct == MOD_F16 || ct == MOD_BF16)
			fn = fcmp_generic;
		if (ai->op == OP_SET && t != MOD_U32 && t != MOD_S32 && t != MOD_F32)
			fn = NULL;
		goto out;
	}
	if (half) {
		switch (ai->op) {
		case OP_ADD: case OP_SUB: case OP_MUL: case OP_FMA: case OP_MAD:
			if (!rn)
				break;
			fn = half_generic;
			break;
		case OP_NEG: case OP_ABS: case OP_MIN: case OP_MAX: case OP_EX2: case OP_TANH:
			fn = half_generic;
			break;
		default:
			break;
		}
		goto out;
	}
	if (!f32 && !f64)
		goto out;
	switch (ai->op) {
	case OP_ADD:
	case OP_SUB:
	case OP_MUL:
		if (f32 && rn && !sat)
			fn = ai->op == OP_ADD ? (ftz ? f32_add_ftz : f32_add)
			   : ai->op == OP_SUB ? (ftz ? f32_sub_ftz : f32_sub)
					      : (ftz ? f32_mul_ftz : f32_mul);
		else if (f64 && rn && !sat)
			fn = ai->op == OP_ADD ? f64_add : ai->op == OP_SUB ? f64_sub : f64_mul;
		else
			fn = f32 ? f32_generic : f64_generic;
		break;
	case OP_FMA:
	case OP_MAD:
		if (ai->op == OP_MAD && (f & (ALU_HI | ALU_LO | ALU_WIDE)))
			break;
		if (f32 && rn && !sat)
			fn = ftz ? f32_fma_ftz : f32_fma;
		else if (f64 && rn && !sat)
			fn = f64_fma;
		else
			fn = f32 ? f32_generic : f64_generic;
		break;
	case OP_DIV:
		if (f32 && (f & (ALU_APPROX | ALU_FULL)))
			fn = f32_mufu;
		else if (ai->rnd == MOD_NONE && f64)
			fn = f64_generic; /* div.f64 without rounding: PTX 1.x = .rn */
		else
			fn = f32 ? f32_generic : f64_generic;
		break;
	case OP_SQRT:
	case OP_RCP:
		if (f & ALU_APPROX)
			fn = f32 ? f32_mufu : (ai->op == OP_RCP ? f64_approx : NULL);
		else
			fn = f32 ? f32_generic : f64_generic;
		break;
	case OP_RSQRT:
		fn = f32 ? f32_mufu : f64_approx;
		break;
	case OP_EX2:
	case OP_LG2: case OP_SIN: case OP_COS: case OP_TANH:
		fn = f32 ? f32_mufu : NULL;
		break;
	case OP_MIN:
	case OP_MAX:
		fn = f32 ? f32_minmax : (f & (ALU_NAN | ALU_XORSIGN)) ? NULL : f64_minmax;
		break;
	case OP_ABS:
		fn = f32 ? f32_abs : f64_abs;
		break;
	case OP_NEG:
		fn = f32 ? f32_neg : f64_neg;
		break;
	case OP_COPYSIGN:
		fn = f32 ? f32_copysign : f64_copysign;
		break;
	case OP_TESTP:
		fn = f_testp;
		break;
	default:
		break;
	}
out:
	if (!fn) {
		*why = unsup_fp;
		return -1;
	}
	ai->fn = fn;
	return 0;
}
