/*
 * exec_cvt.c - cvt between every pair of integer and floating-point types (ISA 9.7.9.21),
 * and the exact soft-float rounding core the other ALU files share. Every conversion rounds
 * once, from the exact source value, so no double rounding can occur.
 */
#include "exec_alu_impl.h"

struct fmt_desc {
	int mbits, ebits, bias, width;
	bool ieee_inf;    /* all-ones exponent is Inf/NaN (false: e4m3, NaN is S.1111.111) */
};

static const struct fmt_desc fmts[] = {
	[FMT_F16] = {10, 5, 15, 16, true},
	[FMT_BF16] = {7, 8, 127, 16, true},
	[FMT_F32] = {23, 8, 127, 32, true},
	[FMT_F64] = {52, 11, 1023, 64, true},
	[FMT_TF32] = {10, 8, 127, 32, true},
	[FMT_E4M3] = {3, 4, 7, 8, false},
	[FMT_E5M2] = {2, 5, 15, 8, true},
};

uint64_t alu_fmt_nan(enum alu_fmt f)
{
	switch (f) {
	case FMT_F16: return F16_CANON_NAN;
	case FMT_BF16: return BF16_CANON_NAN;
	case FMT_F32: case FMT_TF32: return F32_CANON_NAN;
	case FMT_F64: return 0x7fffffffffffffffull;
	case FMT_E4M3: return 0x7f;
	case FMT_E5M2: return 0x7f;
	}
	return 0;
}

/* Bits of a format's value field (TF32 is stored as an f32 pattern, low 13 bits zero). */
static uint64_t encode(enum alu_fmt f, int sign, uint64_t be, uint64_t m)
{
	const struct fmt_desc *fd = &fmts[f];
	if (f == FMT_TF32)
		return ((uint64_t)sign << 31) | (be << 23) | (m << 13);
	return ((uint64_t)sign << (fd->width - 1)) | (be << fd->mbits) | m;
}

static uint64_t max_finite(enum alu_fmt f, int sign)
{
	const struct fmt_desc *fd = &fmts[f];
	uint64_t emax = (1ull << fd->ebits) - 1;
	if (!fd->ieee_inf) /* e4m3: S.1111.110 */
		return encode(f, sign, emax, (1ull << fd->mbits) - 2);
	return encode(f, sign, emax - 1, (1ull << fd->mbits) - 1);
}

static uint64_t infinity(enum alu_fmt f, int sign)
{
	const struct fmt_desc *fd = &fmts[f];
	if (!fd->ieee_inf)
		return encode(f, sign, (1ull << fd->ebits) - 1, (1ull << fd->mbits) - 1);
	return encode(f, sign, (1ull << fd->ebits) - 1, 0);
}

uint64_t alu_round_pack(enum alu_fmt f, int sign, uint64_t mant, int exp, bool sticky,
			enum ir_mod rnd, unsigned opts)
{
	const struct fmt_desc *fd = &fmts[f];
	if ((opts & RP_RELU) && sign)
		return 0;
	if (mant == 0) {
		if (!sticky)
			return encode(f, sign, 0, 0);
		mant = 1; /* a value below every quantum: only its direction matters */
		exp -= 200;
	}
	int n = 63 - __builtin_clzll(mant);
	int e = exp + n;                   /* weight of the leading bit                   */
	int emin = 1 - fd->bias;
	int q = (e > emin ? e : emin) - fd->mbits;  /* weight of the result's last bit   */
	int shift = q - exp;
	uint64_t r;
	bool guard = false, lower = sticky;
	if (shift <= 0) {
		r = mant << -shift;
	} else if (shift < 64) {
		r = mant >> shift;
		guard = (mant >> (shift - 1)) & 1;
		lower |= (mant & ((1ull << (shift - 1)) - 1)) != 0;
	} else if (shift == 64) {
		r = 0;
		guard = mant >> 63;
		lower |= (mant << 1) != 0;
	} else {
		r = 0;
		lower = true;
	}
	bool inc;
	switch (rnd) {
	case MOD_RZ: inc = false; break;
	case MOD_RM: inc = sign && (guard || lower); break;
	case MOD_RP: inc = !sign && (guard || lower); break;
	case MOD_RNA: inc = guard; break;
	default: inc = guard && (lower || (r & 1)); break;
	}
	r += inc;
	if (r >> (fd->mbits + 1)) {
		r >>= 1;
		q++;
	}
	uint64_t be, m = r & ((1ull << fd->mbits) - 1);
	if (r >> fd->mbits)
		be = (uint64_t)(q + fd->mbits + fd->bias);
	else
		be = 0;
	uint64_t emax = (1ull << fd->ebits) - 1;
	bool over = fd->ieee_inf ? be >= emax : (be > emax || (be == emax && m == (1ull << fd->mbits) - 1));
	if (over) {
		if (opts & RP_SATFINITE)
			return max_finite(f, sign);
		if (!fd->ieee_inf)
			return alu_fmt_nan(f) | ((uint64_t)sign << 7);
		switch (rnd) {
		case MOD_RZ: return max_finite(f, sign);
		case MOD_RM: return sign ? infinity(f, 1) : max_finite(f, 0);
		case MOD_RP: return sign ? max_finite(f, 1) : infinity(f, 0);
		default: return infinity(f, sign);
		}
	}
	if (be == 0 && (opts & RP_FTZ))
		return encode(f, sign, 0, 0);
	return encode(f, sign, be, m);
}

static uint64_t fmt_raw(enum alu_fmt f, uint64_t bits)
{
	return f == FMT_TF32 ? (bits >> 13) & 0x7ffff : bits & alu_wmask(fmts[f].width);
}

int alu_classify(enum alu_fmt f, uint64_t bits)
{
	const struct fmt_desc *fd = &fmts[f];
	uint64_t v = fmt_raw(f, bits);
	uint64_t m = v & ((1ull << fd->mbits) - 1);
	uint64_t be = (v >> fd->mbits) & ((1ull << fd->ebits) - 1);
	uint64_t emax = (1ull << fd->ebits) - 1;
	if (be == emax) {
		if (!fd->ieee_inf)
			return m == (1ull << fd->mbits) - 1 ? FC_NAN : FC_NORMAL;
		return m ? FC_NAN : FC_INF;
	}
	if (be == 0)
		return m ? FC_SUB : FC_ZERO;
	return FC_NORMAL;
}

void alu_unpack(enum alu_fmt f, uint64_t bits, int *sign, uint64_t *mant, int *exp)
{
	const struct fmt_desc *fd = &fmts[f];
	uint64_t v = fmt_raw(f, bits);
	int w = f == FMT_TF32 ? 19 : fd->width;
	*sign = (int)((v >> (w - 1)) & 1);
	uint64_t m = v & ((1ull << fd->mbits) - 1);
	int be = (int)((v >> fd->mbits) & ((1ull << fd->ebits) - 1));
	if (be == 0) {
		*mant = m;
		*exp = 1 - fd->bias - fd->mbits;
	} else {
		*mant = m | (1ull << fd->mbits);
		*exp = be - fd->bias - fd->mbits;
	}
}

double alu_half_to_f64(enum alu_fmt f, uint16_t h)
{
	int c = alu_classify(f, h);
	int s = (h >> 15) & 1;
	if (f == FMT_BF16)
		return (double)f32_of((uint32_t)h << 16);
	if (c == FC_NAN)
		return s ? -__builtin_nan("") : __builtin_nan("");
	if (c == FC_INF)
		return s ? -__builtin_inf() : __builtin_inf();
	if (c == FC_ZERO)
		return s ? -0.0 : 0.0;
	int sign, e;
	uint64_t m;
	alu_unpack(f, h, &sign, &m, &e);
	double v = __builtin_ldexp((double)m, e);
	return sign ? -v : v;
}

/* Decompose a finite nonzero double exactly. */
static void unpack_f64(double v, int *sign, uint64_t *mant, int *exp)
{
	alu_unpack(FMT_F64, bits_f64(v), sign, mant, exp);
}

uint16_t alu_f64_to_half(enum alu_fmt f, double v, enum ir_mod rnd, unsigned opts)
{
	uint64_t b = bits_f64(v);
	int c = alu_classify(FMT_F64, b);
	int s = (int)(b >> 63);
	if (c == FC_NAN)
		return (uint16_t)alu_fmt_nan(f);
	if ((opts & RP_RELU) && s)
		return 0;
	if (c == FC_INF)
		return (uint16_t)((opts & RP_SATFINITE) ? max_finite(f, s) : infinity(f, s));
	if (c == FC_ZERO)
		return (uint16_t)encode(f, s, 0, 0);
	int sign, e;
	uint64_t m;
	unpack_f64(v, &sign, &m, &e);
	return (uint16_t)alu_round_pack(f, sign, m, e, false, rnd, opts);
}

/* ---- cvt ------------------------------------------------------------------------------- */

/* The exact value a conversion starts from. */
struct xval {
	int cls;        /* FC_ZERO, FC_NORMAL (any finite nonzero), FC_INF, FC_NAN */
	int sign;
	uint64_t mant;
	int exp;
	int srcfmt;     /* source float format, -1 for integers (NaN payload rules) */
};

/*
 * NaN conversions as the H100 does them (tests/hw_alu): from f64 and into f64 the sign and
 * the leading payload bits are kept and the NaN is quieted; bf16 -> f32 is a plain shift;
 * other float-to-float pairs give the canonical NaN; .ftz f32 -> f64 gives the canonical f32
 * NaN widened (0x7fffffffe0000000); tf32 keeps the f32 bits with the dropped ones cleared
 * (.satfinite then subtracts one tf32 unit: 0x7fc12345 -> 0x7fc10000, as the H100 does).
 */
static uint64_t nan_convert(enum alu_fmt sf, uint64_t bits, enum alu_fmt df, bool ftz, bool satf)
{
	const struct fmt_desc *s = &fmts[sf], *d = &fmts[df];
	if (df == FMT_TF32)
		return (bits & 0xffffe000u) - (satf ? 0x2000u : 0); /* as observed */
	if (sf == FMT_BF16 && df == FMT_F32)
		return (bits & 0xffff) << 16;
	bool keep = (sf == FMT_F64 || df == FMT_F64) && sf != df && sf != FMT_TF32 &&
		    d->ieee_inf && df != FMT_E5M2 && !(ftz && sf == FMT_F32);
	if (sf == FMT_F64 && df == FMT_F64)
		return bits | (1ull << 51);
	if (ftz && sf == FMT_F32 && df == FMT_F64)
		return 0x7fffffffe0000000ull;
	if (!keep)
		return alu_fmt_nan(df);
	uint64_t sign = (bits >> (s->width - 1)) & 1;
	uint64_t m = bits & ((1ull << s->mbits) - 1);
	m = d->mbits >= s->mbits ? m << (d->mbits - s->mbits) : m >> (s->mbits - d->mbits);
	m |= 1ull << (d->mbits - 1);
	return encode(df, (int)sign, (1ull << d->ebits) - 1, m);
}

static enum alu_fmt fmt_of(enum ir_mod t)
{
	switch (t) {
	case MOD_F16: case MOD_F16X2: return FMT_F16;
	case MOD_BF16: case MOD_BF16X2: return FMT_BF16;
	case MOD_F32: return FMT_F32;
	case MOD_TF32: return FMT_TF32;
	case MOD_E4M3X2: return FMT_E4M3;
	case MOD_E5M2X2: return FMT_E5M2;
	default: return FMT_F64;
	}
}

static bool is_flt(enum ir_mod t)
{
	return alu_bits(t) && !alu_is_int(t) && t != MOD_PRED;
}

static struct xval x_from_float(enum alu_fmt f, uint64_t bits, bool ftz)
{
	struct xval v = {0, 0, 0, 0, (int)f};
	int c = alu_classify(f, bits);
	alu_unpack(f, bits, &v.sign, &v.mant, &v.exp);
	if (c == FC_SUB && ftz)
		c = FC_ZERO;
	v.cls = c == FC_SUB ? FC_NORMAL : c;
	return v;
}

static struct xval x_from_int(uint64_t a, int bits, bool sgn)
{
	struct xval v = {FC_NORMAL, 0, a & alu_wmask(bits), 0, -1};
	if (sgn) {
		int64_t s = alu_sext(a, bits);
		if (s < 0) {
			v.sign = 1;
			v.mant = 0 - (uint64_t)s;
		}
	}
	if (v.mant == 0)
		v.cls = FC_ZERO;
	return v;
}

/*
 * Round |v| to an integer with mode irnd (RNI/RZI/RMI/RPI). Returns the magnitude; *big is set
 * when it does not fit 64 bits.
 */
static uint64_t x_round_int(const struct xval *v, enum ir_mod irnd, bool *big)
{
	*big = false;
	if (v->cls != FC_NORMAL)
		return 0;
	if (v->exp >= 0) {
		if (v->exp >= 64 || (v->exp && (v->mant >> (64 - v->exp)))) {
			*big = true;
			return ~0ull;
		}
		return v->mant << v->exp;
	}
	int sh = -v->exp;
	uint64_t ip = sh >= 64 ? 0 : v->mant >> sh;
	bool guard, lower;
	if (sh > 64) {
		guard = false;
		lower = true;
	} else if (sh == 64) {
		guard = v->mant >> 63;
		lower = (v->mant << 1) != 0;
	} else {
		guard = (v->mant >> (sh - 1)) & 1;
		lower = (v->mant & ((1ull << (sh - 1)) - 1)) != 0;
	}
	bool inc;
	switch (irnd) {
	case MOD_RNI: case MOD_RN: inc = guard && (lower || (ip & 1)); break;
	case MOD_RMI: case MOD_RM: inc = v->sign && (guard || lower); break;
	case MOD_RPI: case MOD_RP: inc = !v->sign && (guard || lower); break;
	default: inc = false; break;
	}
	ip += inc;
	if (inc && ip == 0) {
		*big = true;
		return ~0ull;
	}
	return ip;
}

/* Float -> integer of `bits` bits: round, then saturate (NaN -> 0). */
static uint64_t x_to_int(const struct xval *v, enum ir_mod irnd, int bits, bool sgn)
{
	if (v->cls == FC_NAN) /* H100: 0, but the minimum-int pattern from f64 or into 64 bits */
		return (v->srcfmt == FMT_F64 || bits == 64) ? 1ull << (bits - 1) : 0;
	bool big = v->cls == FC_INF;
	uint64_t mag = v->cls == FC_INF ? ~0ull : x_round_int(v, irnd, &big);
	uint64_t r;
	if (sgn) {
		uint64_t lim = 1ull << (bits - 1);  /* |min| */
		if (v->sign)
			r = (big || mag > lim) ? lim : (0 - mag);
		else
			r = (big || mag > lim - 1) ? lim - 1 : mag;
	} else {
		uint64_t mx = alu_wmask(bits);
		if (v->sign)
			r = 0;
		else
			r = (big || mag > mx) ? mx : mag;
	}
	return r;
}

/* Integer result of `bits` bits into the register convention: signed 8/16-bit results are
 * sign-extended, as the H100 writes them into a wider register; others zero-extended. */
static inline uint64_t put_int(uint64_t r, int bits, bool sgn)
{
	if (sgn && bits < 32)
		return (uint64_t)alu_sext(r, bits);
	return r & alu_wmask(bits);
}

struct cvtf {
	enum alu_fmt f;
	enum ir_mod rnd;
	unsigned opts;
	bool sat;
	bool ftz;
};

/* Exact value -> float format. */
static uint64_t x_to_float(const struct xval *v, const struct cvtf *c, uint64_t srcbits)
{
	uint64_t r;
	switch (v->cls) {
	case FC_NAN:
		if (c->sat)
			return 0;
		return nan_convert((enum alu_fmt)v->srcfmt, srcbits, c->f, c->ftz,
				   c->opts & RP_SATFINITE);
	case FC_INF:
		if ((c->opts & RP_RELU) && v->sign)
			r = 0;
		else if (c->opts & RP_SATFINITE)
			r = max_finite(c->f, v->sign);
		else
			r = infinity(c->f, v->sign);
		break;
	case FC_ZERO:
		r = ((c->opts & RP_RELU) || c->sat) ? 0 : encode(c->f, v->sign, 0, 0);
		break;
	default:
		r = alu_round_pack(c->f, v->sign, v->mant, v->exp, false, c->rnd, c->opts);
		break;
	}
	if (c->sat) {
		/* clamp to [0, 1]: negative -> +0, > 1 -> 1.0 */
		int cl = alu_classify(c->f, r);
		int s = (int)((r >> (fmts[c->f].width - 1)) & 1);
		if (c->f == FMT_TF32)
			s = (int)((r >> 31) & 1);
		if (s || cl == FC_ZERO)
			r = 0;
		else {
			uint64_t one = encode(c->f, 0, (uint64_t)fmts[c->f].bias, 0);
			if (fmt_raw(c->f, r) > fmt_raw(c->f, one))
				r = one;
		}
	}
	return r;
}

/* ---- cvt functions ------------------------------------------------------------------------- */

ALU_FN(cvt_zext32) { (void)ai; LANE_LOOP(mask, x->d[l] = x->a[l] & 0xffffffffu); }
ALU_FN(cvt_sext32) { (void)ai; LANE_LOOP(mask, x->d[l] = (uint64_t)(int64_t)(int32_t)(uint32_t)x->a[l]); }
ALU_FN(cvt_copy64) { (void)ai; LANE_LOOP(mask, x->d[l] = x->a[l]); }
ALU_FN(cvt_zext16) { (void)ai; LANE_LOOP(mask, x->d[l] = x->a[l] & 0xffffu); }
ALU_FN(cvt_zext8) { (void)ai; LANE_LOOP(mask, x->d[l] = x->a[l] & 0xffu); }

/* Generic integer -> integer: extend from the source type, clamp with .sat, write. */
ALU_FN(cvt_int_int)
{
	int sb = alu_bits(ai->type2), db = alu_bits(ai->type);
	bool ss = alu_signed(ai->type2), ds = alu_signed(ai->type), sat = ai->flags & ALU_SAT;
	LANE_LOOP(mask, {
		uint64_t a = x->a[l];
		int64_t sv = ss ? alu_sext(a, sb) : 0;
		uint64_t uv = ss ? (uint64_t)sv : a & alu_wmask(sb);
		bool neg = ss && sv < 0;
		uint64_t r = uv;
		if (sat) {
			if (ds) {
				int64_t mx = (int64_t)(alu_wmask(db) >> 1), mn = -mx - 1;
				if (neg)
					r = sv < mn ? (uint64_t)mn : uv;
				else
					r = uv > (uint64_t)mx ? (uint64_t)mx : uv;
			} else {
				r = neg ? 0 : (uv > alu_wmask(db) ? alu_wmask(db) : uv);
			}
		}
		x->d[l] = put_int(r, db, ds);
	});
}

static void cvtf_init(struct cvtf *c, const struct alu_insn *ai, enum ir_mod dt)
{
	c->f = fmt_of(dt);
	c->rnd = ai->rnd;
	c->opts = ((ai->flags & ALU_FTZ) && (dt == MOD_F32)) ? RP_FTZ : 0;
	if (ai->flags & ALU_SATFINITE)
		c->opts |= RP_SATFINITE;
	if (ai->flags & ALU_RELU)
		c->opts |= RP_RELU;
	c->sat = ai->flags & ALU_SAT;
	c->ftz = ai->flags & ALU_FTZ;
}

ALU_FN(cvt_int_flt)
{
	int sb = alu_bits(ai->type2);
	bool ss = alu_signed(ai->type2);
	struct cvtf c;
	cvtf_init(&c, ai, ai->type);
	LANE_LOOP(mask, {
		struct xval v = x_from_int(x->a[l], sb, ss);
		x->d[l] = x_to_float(&v, &c, 0);
	});
}

ALU_FN(cvt_flt_int)
{
	int db = alu_bits(ai->type);
	bool ds = alu_signed(ai->type);
	enum alu_fmt sf = fmt_of(ai->type2);
	bool ftz = (ai->flags & ALU_FTZ) && ai->type2 == MOD_F32;
	LANE_LOOP(mask, {
		struct xval v = x_from_float(sf, x->a[l], ftz);
		x->d[l] = put_int(x_to_int(&v, ai->rnd, db, ds), db, ds);
	});
}

/* Float -> float: narrowing or widening with rnd, or same-type rounding to integer. */
ALU_FN(cvt_flt_flt)
{
	enum alu_fmt sf = fmt_of(ai->type2);
	bool ftz = (ai->flags & ALU_FTZ) && ai->type2 == MOD_F32;
	bool toint = ai->rnd == MOD_RNI || ai->rnd == MOD_RZI || ai->rnd == MOD_RMI ||
		     ai->rnd == MOD_RPI;
	struct cvtf c;
	cvtf_init(&c, ai, ai->type);
	if (toint)
		c.rnd = MOD_RN; /* the integer is exact in the format */
	LANE_LOOP(mask, {
		struct xval v = x_from_float(sf, x->a[l], ftz);
		if (toint && v.cls == FC_NORMAL && v.exp < 0) {
			bool big;
			v.mant = x_round_int(&v, ai->rnd, &big);
			v.exp = 0;
			if (v.mant == 0)
				v.cls = FC_ZERO;
		}
		x->d[l] = x_to_float(&v, &c, x->a[l]);
	});
}

/* cvt.frnd.{f16x2,bf16x2}.f32 d, a, b and cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32 d, a, b:
 * d's upper element from a, lower from b. */
ALU_FN(cvt_pack2)
{
	struct cvtf c;
	cvtf_init(&c, ai, ai->type);
	c.opts &= ~(unsigned)RP_FTZ;
	int sh = alu_bits(ai->type) / 2;
	LANE_LOOP(mask, {
		struct xval va = x_from_float(FMT_F32, x->a[l], false);
		struct xval vb = x_from_float(FMT_F32, x->b[l], false);
		x->d[l] = (x_to_float(&va, &c, x->a[l]) << sh) | x_to_float(&vb, &c, x->b[l]);
	});
}

/* cvt between two packed pairs (f16x2 <-> e4m3x2/e5m2x2), element by element. */
ALU_FN(cvt_pair)
{
	struct cvtf c;
	cvtf_init(&c, ai, ai->type);
	c.opts &= ~(unsigned)RP_FTZ;
	enum alu_fmt sf = fmt_of(ai->type2);
	int ssh = alu_bits(ai->type2) / 2, dsh = alu_bits(ai->type) / 2;
	LANE_LOOP(mask, {
		uint64_t a = x->a[l];
		struct xval lo = x_from_float(sf, a & alu_wmask(ssh), false);
		struct xval hi = x_from_float(sf, (a >> ssh) & alu_wmask(ssh), false);
		x->d[l] = (x_to_float(&hi, &c, (a >> ssh) & alu_wmask(ssh)) << dsh) |
			  x_to_float(&lo, &c, a & alu_wmask(ssh));
	});
}

/* Fast common float conversions (default rounding of the host is round-to-nearest-even). */
ALU_FN(cvt_f32_s32_rn) { (void)ai; LANE_LOOP(mask, x->d[l] = bits_f32((float)(int32_t)(uint32_t)x->a[l])); }
ALU_FN(cvt_f32_u32_rn) { (void)ai; LANE_LOOP(mask, x->d[l] = bits_f32((float)(uint32_t)x->a[l])); }
ALU_FN(cvt_f64_s32) { (void)ai; LANE_LOOP(mask, x->d[l] = bits_f64((double)(int32_t)(uint32_t)x->a[l])); }
ALU_FN(cvt_f64_u32) { (void)ai; LANE_LOOP(mask, x->d[l] = bits_f64((double)(uint32_t)x->a[l])); }

ALU_FN(cvt_f64_f32)
{
	(void)ai;
	LANE_LOOP(mask, {
		float f = f32_of(x->a[l]);
		x->d[l] = f != f ? nan_convert(FMT_F32, x->a[l] & 0xffffffffu, FMT_F64, false, false)
				 : bits_f64((double)f);
	});
}

ALU_FN(cvt_f32_f64_rn)
{
	(void)ai;
	LANE_LOOP(mask, {
		double v = f64_of(x->a[l]);
		x->d[l] = v != v ? nan_convert(FMT_F64, x->a[l], FMT_F32, false, false)
				 : bits_f32((float)v);
	});
}

ALU_FN(cvt_s32_f32_rzi)
{
	(void)ai;
	LANE_LOOP(mask, {
		float f = f32_of(x->a[l]);
		int32_t r;
		if (f != f)
			r = 0;
		else if (f >= 2147483648.0f)
			r = INT32_MAX;
		else if (f <= -2147483648.0f)
			r = INT32_MIN;
		else
			r = (int32_t)f;
		x->d[l] = (uint32_t)r;
	});
}

int alu_prepare_cvt(struct alu_insn *ai, const char **why)
{
	enum ir_mod d = ai->type, s = ai->type2;
	bool di = alu_is_int(d), si = alu_is_int(s);
	if (!alu_bits(d) || !alu_bits(s) || d == MOD_PRED || s == MOD_PRED) {
		*why = "cvt with these types is not supported";
		return -1;
	}
	bool toint = ai->rnd == MOD_RNI || ai->rnd == MOD_RZI || ai->rnd == MOD_RMI ||
		     ai->rnd == MOD_RPI;
	bool pair_d = d == MOD_F16X2 || d == MOD_BF16X2 || d == MOD_E4M3X2 || d == MOD_E5M2X2;
	bool pair_s = s == MOD_F16X2 || s == MOD_BF16X2 || s == MOD_E4M3X2 || s == MOD_E5M2X2;
	if (pair_d || pair_s) {
		if (pair_d && s == MOD_F32 && ai->nsrc >= 2) {
			ai->fn = cvt_pack2;
			return 0;
		}
		if (pair_d && pair_s && (d == MOD_F16X2 || s == MOD_F16X2)) {
			ai->fn = cvt_pair;
			return 0;
		}
		*why = "this packed cvt form is not supported";
		return -1;
	}
	if (di && si) {
		int db = alu_bits(d), sb = alu_bits(s);
		bool sat = ai->flags & ALU_SAT;
		if (!sat && db == 64 && sb == 32)
			ai->fn = alu_signed(s) ? cvt_sext32 : cvt_zext32;
		else if (!sat && db == 64 && sb == 64)
			ai->fn = cvt_copy64;
		else if (!sat && db == 32 && (sb == 64 || sb == 32))
			ai->fn = cvt_zext32;
		else if (!sat && db == 16 && sb >= 16 && !alu_signed(d))
			ai->fn = cvt_zext16;
		else if (!sat && db == 8 && !alu_signed(d))
			ai->fn = cvt_zext8;
		else
			ai->fn = cvt_int_int;
		return 0;
	}
	if (si) { /* int -> float */
		if (toint) {
			*why = "cvt from an integer takes .rn/.rz/.rm/.rp, not an integer rounding";
			return -1;
		}
		unsigned plain = ALU_SAT | ALU_FTZ | ALU_RELU | ALU_SATFINITE;
		bool rn = ai->rnd == MOD_RN || ai->rnd == MOD_NONE;
		if (rn && !(ai->flags & plain) && d == MOD_F32 && s == MOD_S32)
			ai->fn = cvt_f32_s32_rn;
		else if (rn && !(ai->flags & plain) && d == MOD_F32 && s == MOD_U32)
			ai->fn = cvt_f32_u32_rn;
		else if (!(ai->flags & plain) && d == MOD_F64 && s == MOD_S32)
			ai->fn = cvt_f64_s32;
		else if (!(ai->flags & plain) && d == MOD_F64 && s == MOD_U32)
			ai->fn = cvt_f64_u32;
		else
			ai->fn = cvt_int_flt;
		return 0;
	}
	if (di) { /* float -> int */
		if (!is_flt(s)) {
			*why = "cvt source type is not supported";
			return -1;
		}
		if (ai->rnd != MOD_NONE && !toint) {
			*why = "cvt to an integer takes .rni/.rzi/.rmi/.rpi";
			return -1;
		}
		if (ai->rnd == MOD_NONE)
			ai->rnd = MOD_RZI; /* not valid PTX; be lenient */
		if (d == MOD_S32 && s == MOD_F32 && ai->rnd == MOD_RZI && !(ai->flags & ALU_FTZ))
			ai->fn = cvt_s32_f32_rzi;
		else
			ai->fn = cvt_flt_int;
		return 0;
	}
	/* float -> float */
	unsigned plain = ALU_SAT | ALU_FTZ | ALU_RELU | ALU_SATFINITE;
	if (!(ai->flags & plain) && d == MOD_F64 && s == MOD_F32 && ai->rnd == MOD_NONE)
		ai->fn = cvt_f64_f32;
	else if (!(ai->flags & plain) && d == MOD_F32 && s == MOD_F64 && ai->rnd == MOD_RN)
		ai->fn = cvt_f32_f64_rn;
	else
		ai->fn = cvt_flt_flt;
	return 0;
}
