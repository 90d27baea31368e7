/*
 * exec_int.c - integer, bit, logic, comparison and selection instructions (ISA 9.7.1,
 * 9.7.4-9.7.8), and alu_prepare, which picks one specialised function per instruction so the
 * lane loops never look at the type. Results follow the H100 where the manual leaves them open
 * (division by zero, carry convention): see docs/alu.md.
 */
#include "exec_alu.h"
#include "exec_alu_impl.h"

#include <stddef.h>

__extension__ typedef unsigned __int128 u128;
__extension__ typedef __int128 s128;

/*
 * Notes (ISA 9.7.1, checked on an H100, tests/hw_alu):
 *  - div x/0 and rem x%0 give all ones (u and s, every width); INT_MIN / -1 = INT_MIN and
 *    INT_MIN % -1 = 0.
 *  - bfe/bfi.b64 use the whole 32-bit position and length operands (32-bit forms: bits 0-7).
 *  - The carry lane array holds the hardware carry flag: add.cc sets it to the carry out,
 *    sub.cc/subc.cc to NOT borrow, and subc computes a + ~b + cc (so cc = 1 means "no borrow
 *    in"). addc after sub.cc therefore sees 1 when no borrow occurred, as on the hardware.
 *  - Shift amounts are unsigned 32-bit; shl/shr by >= width give 0 (shr.s: sign fill).
 */

/* ---- elementwise families, instantiated per width ------------------------------------- */

#define DEF_BIN(name, UT, expr)                                                            \
	ALU_FN(name)                                                                       \
	{                                                                                  \
		(void)ai;                                                                  \
		const uint64_t *A = x->a, *B = x->b;                                       \
		LANE_MAP(mask, x->d, {                                                     \
			UT a = (UT)A[l], b = (UT)B[l];                                     \
			v = (UT)(expr);                                                    \
		});                                                                        \
	}

#define DEF_TER(name, UT, expr)                                                            \
	ALU_FN(name)                                                                       \
	{                                                                                  \
		(void)ai;                                                                  \
		const uint64_t *A = x->a, *B = x->b, *C = x->c;                            \
		LANE_MAP(mask, x->d, {                                                     \
			UT a = (UT)A[l], b = (UT)B[l], c = (UT)C[l];                       \
			v = (UT)(expr);                                                    \
		});                                                                        \
	}

#define DEF_UN(name, UT, expr)                                                             \
	ALU_FN(name)                                                                       \
	{                                                                                  \
		(void)ai;                                                                  \
		const uint64_t *A = x->a;                                                  \
		LANE_MAP(mask, x->d, {                                                     \
			UT a = (UT)A[l];                                                   \
			v = (UT)(expr);                                                    \
		});                                                                        \
	}

/*
 * W-bit operations whose low W bits depend only on the low W bits of their operands (add,
 * sub, mul.lo, mad.lo, the logic operations, shl; shr once its operand is cut): computed on
 * the whole 64-bit lanes, then cut to W bits. The same bits as on W-bit values, but the
 * vector code stays in the registers' 64-bit lanes instead of narrowing every operand and
 * widening the result.
 */
#define DEF_WRAP_BIN(name, W, expr)                                                        \
	ALU_FN(name)                                                                       \
	{                                                                                  \
		(void)ai;                                                                  \
		const uint64_t *A = x->a, *B = x->b;                                       \
		LANE_MAP(mask, x->d, {                                                     \
			uint64_t a = A[l], b = B[l];                                       \
			v = (expr) & alu_wmask(W);                                         \
		});                                                                        \
	}

#define DEF_WRAP_TER(name, W, expr)                                                        \
	ALU_FN(name)                                                                       \
	{                                                                                  \
		(void)ai;                                                                  \
		const uint64_t *A = x->a, *B = x->b, *C = x->c;                            \
		LANE_MAP(mask, x->d, {                                                     \
			uint64_t a = A[l], b = B[l], c = C[l];                             \
			v = (expr) & alu_wmask(W);                                         \
		});                                                                        \
	}

#define DEF_WRAP_UN(name, W, expr)                                                         \
	ALU_FN(name)                                                                       \
	{                                                                                  \
		(void)ai;                                                                  \
		const uint64_t *A = x->a;                                                  \
		LANE_MAP(mask, x->d, {                                                     \
			uint64_t a = A[l];                                                 \
			v = (expr) & alu_wmask(W);                                         \
		});                                                                        \
	}

/* signed view of an unsigned value of the same width */
#define S_(ST, v) ((ST)(v))

static inline uint64_t hi_u64(uint64_t a, uint64_t b) { return (uint64_t)(((u128)a * b) >> 64); }
static inline uint64_t hi_s64(uint64_t a, uint64_t b)
{
	return (uint64_t)(((s128)(int64_t)a * (int64_t)b) >> 64);
}

/* Integer family for width W with unsigned type UT, signed ST, and double-width types. */
#define INT_FAMILY(W, UT, ST, MAXU)                                                        \
	DEF_WRAP_BIN(add_##W, W, a + b)                                                        \
	DEF_WRAP_BIN(sub_##W, W, a - b)                                                        \
	DEF_WRAP_BIN(mul_lo_##W, W, a * b)                                     \
	DEF_WRAP_TER(mad_lo_##W, W, a * b + c)                                 \
	DEF_BIN(min_u##W, UT, a < b ? a : b)                                               \
	DEF_BIN(max_u##W, UT, a > b ? a : b)                                               \
	DEF_BIN(min_s##W, UT, S_(ST, a) < S_(ST, b) ? a : b)                               \
	DEF_BIN(max_s##W, UT, S_(ST, a) > S_(ST, b) ? a : b)                               \
	DEF_BIN(div_u##W, UT, b ? a / b : MAXU)                                            \
	DEF_BIN(rem_u##W, UT, b ? a % b : MAXU)                                            \
	DEF_BIN(div_s##W, UT, div_s##W##_1(a, b))                                          \
	DEF_BIN(rem_s##W, UT, rem_s##W##_1(a, b))                                          \
	DEF_UN(abs_s##W, UT, S_(ST, a) < 0 ? (UT)(0 - a) : a)                              \
	DEF_WRAP_UN(neg_##W, W, 0 - a)                                                         \
	DEF_WRAP_UN(not_##W, W, ~a)                                                            \
	DEF_UN(cnot_##W, UT, a == 0)                                                       \
	DEF_WRAP_BIN(and_##W, W, a & b)                                                        \
	DEF_WRAP_BIN(or_##W, W, a | b)                                                         \
	DEF_WRAP_BIN(xor_##W, W, a ^ b)                                                        \
	ALU_FN(shl_##W)                                                                    \
	{                                                                                  \
		(void)ai;                                                                  \
		LANE_MAP(mask, x->d, {                                                     \
			uint64_t s = (uint32_t)x->b[l], a = x->a[l];                       \
			v = s >= W ? 0 : (a << s) & alu_wmask(W);                          \
		});                                                                        \
	}                                                                                  \
	ALU_FN(shr_u##W)                                                                   \
	{                                                                                  \
		(void)ai;                                                                  \
		LANE_MAP(mask, x->d, {                                                     \
			uint64_t s = (uint32_t)x->b[l], a = x->a[l] & alu_wmask(W);        \
			v = s >= W ? 0 : a >> s;                                           \
		});                                                                        \
	}                                                                                  \
	ALU_FN(shr_s##W)                                                                   \
	{                                                                                  \
		(void)ai;                                                                  \
		LANE_MAP(mask, x->d, {                                                     \
			uint32_t s = (uint32_t)x->b[l];                                    \
			ST a = (ST)(UT)x->a[l];                                            \
			v = (UT)(a >> (s >= W ? W - 1 : s));                               \
		});                                                                        \
	}                                                                                  \
	ALU_FN(sad_u##W)                                                                   \
	{                                                                                  \
		(void)ai;                                                                  \
		LANE_LOOP(mask, {                                                          \
			UT a = (UT)x->a[l], b = (UT)x->b[l], c = (UT)x->c[l];              \
			x->d[l] = (UT)(c + (a < b ? b - a : a - b));                       \
		});                                                                        \
	}                                                                                  \
	ALU_FN(sad_s##W)                                                                   \
	{                                                                                  \
		(void)ai;                                                                  \
		LANE_LOOP(mask, {                                                          \
			UT a = (UT)x->a[l], b = (UT)x->b[l], c = (UT)x->c[l];              \
			x->d[l] = (UT)(c + (S_(ST, a) < S_(ST, b) ? b - a : a - b));       \
		});                                                                        \
	}

#define DIVS(W, UT, ST, MINS)                                                              \
	static inline UT div_s##W##_1(UT a, UT b)                                          \
	{                                                                                  \
		if (b == 0)                                                                \
			return (UT)~(UT)0;                                                 \
		if (a == (UT)MINS && (ST)b == -1)                                          \
			return a;                                                          \
		return (UT)((ST)a / (ST)b);                                                \
	}                                                                                  \
	static inline UT rem_s##W##_1(UT a, UT b)                                          \
	{                                                                                  \
		if (b == 0)                                                                \
			return (UT)~(UT)0;                                                 \
		if ((ST)b == -1)                                                           \
			return 0;                                                          \
		return (UT)((ST)a % (ST)b);                                                \
	}

DIVS(16, uint16_t, int16_t, 0x8000u)
DIVS(32, uint32_t, int32_t, 0x80000000u)
DIVS(64, uint64_t, int64_t, 0x8000000000000000ull)

INT_FAMILY(16, uint16_t, int16_t, 0xffffu)
INT_FAMILY(32, uint32_t, int32_t, 0xffffffffu)
INT_FAMILY(64, uint64_t, int64_t, ~0ull)

/* mul.hi / mad.hi */
DEF_BIN(mul_hi_u16, uint16_t, ((uint32_t)a * b) >> 16)
DEF_BIN(mul_hi_s16, uint16_t, (uint32_t)((int32_t)(int16_t)a * (int16_t)b) >> 16)
DEF_BIN(mul_hi_u32, uint32_t, ((uint64_t)a * b) >> 32)
DEF_BIN(mul_hi_s32, uint32_t, (uint64_t)((int64_t)(int32_t)a * (int32_t)b) >> 32)
DEF_BIN(mul_hi_u64, uint64_t, hi_u64(a, b))
DEF_BIN(mul_hi_s64, uint64_t, hi_s64(a, b))
DEF_TER(mad_hi_u16, uint16_t, (((uint32_t)a * b) >> 16) + c)
DEF_TER(mad_hi_s16, uint16_t, ((uint32_t)((int32_t)(int16_t)a * (int16_t)b) >> 16) + c)
DEF_TER(mad_hi_u32, uint32_t, (((uint64_t)a * b) >> 32) + c)
DEF_TER(mad_hi_s32, uint32_t, ((uint64_t)((int64_t)(int32_t)a * (int32_t)b) >> 32) + c)
DEF_TER(mad_hi_u64, uint64_t, hi_u64(a, b) + c)
DEF_TER(mad_hi_s64, uint64_t, hi_s64(a, b) + c)

/* mul.wide / mad.wide: d has twice the width */
DEF_BIN(mul_wide_u16, uint32_t, (uint32_t)(uint16_t)a * (uint16_t)b)
DEF_BIN(mul_wide_s16, uint32_t, (uint32_t)((int32_t)(int16_t)a * (int16_t)b))
DEF_BIN(mul_wide_u32, uint64_t, (uint64_t)(uint32_t)a * (uint32_t)b)
DEF_BIN(mul_wide_s32, uint64_t, (uint64_t)((int64_t)(int32_t)a * (int32_t)b))
DEF_TER(mad_wide_u16, uint32_t, (uint32_t)(uint16_t)a * (uint16_t)b + c)
DEF_TER(mad_wide_s16, uint32_t, (uint32_t)((int32_t)(int16_t)a * (int16_t)b) + c)
DEF_TER(mad_wide_u32, uint64_t, (uint64_t)(uint32_t)a * (uint32_t)b + c)
DEF_TER(mad_wide_s32, uint64_t, (uint64_t)((int64_t)(int32_t)a * (int32_t)b) + c)

/* .sat forms (s32 only) */
static inline uint32_t sat32(int64_t v)
{
	return (uint32_t)(v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v);
}
DEF_BIN(add_sat_s32, uint32_t, sat32((int64_t)(int32_t)a + (int32_t)b))
DEF_BIN(sub_sat_s32, uint32_t, sat32((int64_t)(int32_t)a - (int32_t)b))
DEF_TER(mad_hi_sat_s32, uint32_t,
	sat32(((int64_t)(int32_t)a * (int32_t)b >> 32) + (int32_t)c))
DEF_BIN(min_relu_s32, uint32_t, (int32_t)a < (int32_t)b ? ((int32_t)a < 0 ? 0 : a) : ((int32_t)b < 0 ? 0 : b))
DEF_BIN(max_relu_s32, uint32_t, (int32_t)a > (int32_t)b ? ((int32_t)a < 0 ? 0 : a) : ((int32_t)b < 0 ? 0 : b))

/* mul24 / mad24: 24-bit operands, 48-bit product; .hi = bits 47..16 */
static inline int64_t s24(uint32_t v) { return alu_sext(v, 24); }
DEF_BIN(mul24_lo_u32, uint32_t, (uint64_t)(a & 0xffffff) * (b & 0xffffff))
DEF_BIN(mul24_lo_s32, uint32_t, (uint64_t)(s24(a) * s24(b)))
DEF_BIN(mul24_hi_u32, uint32_t, ((uint64_t)(a & 0xffffff) * (b & 0xffffff)) >> 16)
DEF_BIN(mul24_hi_s32, uint32_t, (uint64_t)(s24(a) * s24(b)) >> 16)
DEF_TER(mad24_lo_u32, uint32_t, (uint64_t)(a & 0xffffff) * (b & 0xffffff) + c)
DEF_TER(mad24_lo_s32, uint32_t, (uint64_t)(s24(a) * s24(b)) + c)
DEF_TER(mad24_hi_u32, uint32_t, (((uint64_t)(a & 0xffffff) * (b & 0xffffff)) >> 16) + c)
DEF_TER(mad24_hi_s32, uint32_t, ((uint64_t)(s24(a) * s24(b)) >> 16) + c)
DEF_TER(mad24_hi_sat_s32, uint32_t, sat32(((s24(a) * s24(b)) >> 16) + (int32_t)c))

/* ---- carry chain --------------------------------------------------------------------- */

/* One carry-chain step: d = a + (sub ? ~b : b) + cin over `bits` bits, with the carry out.
 * The product forms (mad.lo/hi.cc, madc) feed the chosen product half as `a`. */
static inline uint64_t addcarry(uint64_t a, uint64_t b, uint64_t cin, int bits, uint64_t *cout)
{
	if (bits == 32) {
		uint64_t s = (a & 0xffffffffu) + (b & 0xffffffffu) + cin;
		*cout = s >> 32;
		return s & 0xffffffffu;
	}
	uint64_t s = a + b;
	uint64_t c1 = s < a;
	uint64_t s2 = s + cin;
	*cout = c1 | (s2 < s);
	return s2;
}

/* add/sub/addc/subc with .cc; mad/madc .lo/.hi with .cc. */
ALU_FN(carry_generic)
{
	int bits = alu_bits(ai->type);
	bool sgn = alu_signed(ai->type);
	bool sub = ai->op == OP_SUB || ai->op == OP_SUBC;
	bool cin_used = ai->op == OP_ADDC || ai->op == OP_SUBC || ai->op == OP_MADC;
	bool mad = ai->op == OP_MAD || ai->op == OP_MADC;
	bool hi = ai->flags & ALU_HI;
	bool wcc = ai->flags & ALU_CC;
	uint64_t m = alu_wmask(bits);
	LANE_LOOP(mask, {
		uint64_t a = x->a[l] & m, b = x->b[l] & m, cin, cout;
		if (mad) {
			uint64_t p;
			if (bits == 32) {
				uint64_t t = sgn ? (uint64_t)((int64_t)(int32_t)a * (int32_t)b) : a * b;
				p = hi ? t >> 32 : t;
			} else {
				p = hi ? (sgn ? hi_s64(a, b) : hi_u64(a, b)) : a * b;
			}
			a = p & m;
			b = x->c[l] & m;
		}
		if (sub)
			b = ~b & m;
		cin = cin_used ? (x->cc[l] & 1) : (sub ? 1 : 0);
		x->d[l] = addcarry(a, b, cin, bits, &cout);
		if (wcc)
			x->cc[l] = cout;
	});
}

/* Fast path of add.cc.u32 / addc.u32 for multi-word arithmetic. */
ALU_FN(add_cc_32)
{
	(void)ai;
	LANE_LOOP(mask, {
		uint64_t s = (x->a[l] & 0xffffffffu) + (x->b[l] & 0xffffffffu);
		x->d[l] = s & 0xffffffffu;
		x->cc[l] = s >> 32;
	});
}

/* ---- bit operations -------------------------------------------------------------------- */

DEF_UN(popc_32, uint32_t, __builtin_popcount(a))
DEF_UN(popc_64, uint64_t, (uint32_t)__builtin_popcountll(a))
DEF_UN(clz_32, uint32_t, a ? __builtin_clz(a) : 32)
DEF_UN(clz_64, uint64_t, (uint32_t)(a ? __builtin_clzll(a) : 64))

static inline uint32_t brev32(uint32_t v)
{
	v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
	v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
	v = ((v >> 4) & 0x0f0f0f0fu) | ((v & 0x0f0f0f0fu) << 4);
	return __builtin_bswap32(v);
}
DEF_UN(brev_32, uint32_t, brev32(a))
DEF_UN(brev_64, uint64_t, ((uint64_t)brev32((uint32_t)a) << 32) | brev32((uint32_t)(a >> 32)))

ALU_FN(bfind_generic)
{
	int bits = alu_bits(ai->type);
	bool sgn = alu_signed(ai->type), amt = ai->flags & ALU_SHIFTAMT;
	uint64_t m = alu_wmask(bits);
	LANE_LOOP(mask, {
		uint64_t a = x->a[l] & m;
		if (sgn && (a >> (bits - 1)))
			a = ~a & m;
		uint32_t r;
		if (!a)
			r = 0xffffffffu;
		else {
			r = (uint32_t)(63 - __builtin_clzll(a));
			if (amt)
				r = (uint32_t)(bits - 1) - r;
		}
		x->d[l] = r;
	});
}

/* bfe/bfi take position and length from bits 0-7 (32-bit forms); the H100's 64-bit forms use
 * the whole 32-bit operands (a position of 256 is past the end, not 0). */
ALU_FN(bfe_generic)
{
	int bits = alu_bits(ai->type);
	uint32_t pmask = bits == 64 ? 0xffffffffu : 0xffu;
	bool sgn = alu_signed(ai->type);
	uint64_t m = alu_wmask(bits);
	LANE_LOOP(mask, {
		uint64_t a = x->a[l] & m;
		uint32_t pos = (uint32_t)x->b[l] & pmask, len = (uint32_t)x->c[l] & pmask;
		uint64_t r = 0;
		if (pos < (uint32_t)bits)
			r = a >> pos;
		if (len < 64)
			r &= (1ull << len) - 1;
		if (sgn && len) {
			uint64_t sb = (uint64_t)pos + len - 1;
			if (sb > (uint64_t)bits - 1)
				sb = (uint64_t)bits - 1;
			if ((a >> sb) & 1) {
				/* bits at and above len are the sign; positions past msb too */
				uint32_t have = pos < (uint32_t)bits ? (uint32_t)bits - pos : 0;
				uint32_t keep = len < have ? len : have;
				r |= keep >= 64 ? 0 : ~0ull << keep;
			}
		}
		x->d[l] = r & m;
	});
}

ALU_FN(bfi_generic)
{
	int bits = alu_bits(ai->type);
	uint32_t pmask = bits == 64 ? 0xffffffffu : 0xffu;
	uint64_t m = alu_wmask(bits);
	LANE_LOOP(mask, {
		uint64_t f = x->a[l] & m, b = x->b[l] & m;
		uint32_t pos = (uint32_t)x->c[l] & pmask, len = (uint32_t)x->e[l] & pmask;
		uint64_t r = b;
		if (pos < (uint32_t)bits && len) {
			uint64_t fm = len >= 64 ? ~0ull : (1ull << len) - 1;
			fm = (fm << pos) & m;
			r = (b & ~fm) | ((f << pos) & fm);
		}
		x->d[l] = r;
	});
}

ALU_FN(bmsk_b32)
{
	bool clamp = ai->flags & ALU_CLAMP;
	LANE_LOOP(mask, {
		uint32_t a = (uint32_t)x->a[l], b = (uint32_t)x->b[l];
		if (clamp) {
			a = a > 32 ? 32 : a;
			b = b > 32 ? 32 : b;
		} else {
			a &= 31;
			b &= 31;
		}
		uint64_t w = (b >= 64 ? ~0ull : (1ull << b) - 1);
		x->d[l] = a >= 32 ? 0 : (uint32_t)(w << a);
	});
}

ALU_FN(szext_32)
{
	bool clamp = ai->flags & ALU_CLAMP, sgn = alu_signed(ai->type);
	LANE_LOOP(mask, {
		uint32_t a = (uint32_t)x->a[l], n = (uint32_t)x->b[l];
		n = clamp ? (n > 32 ? 32 : n) : (n & 31);
		uint32_t r;
		if (n == 0)
			r = 0;
		else if (n >= 32)
			r = a;
		else
			r = sgn ? (uint32_t)alu_sext(a, (int)n) : a & ((1u << n) - 1);
		x->d[l] = r;
	});
}

ALU_FN(shf_b32)
{
	bool clamp = ai->flags & ALU_CLAMP, left = ai->flags & ALU_LEFT;
	LANE_LOOP(mask, {
		uint64_t v = ((x->b[l] & 0xffffffffu) << 32) | (x->a[l] & 0xffffffffu);
		uint32_t n = (uint32_t)x->c[l];
		n = clamp ? (n > 32 ? 32 : n) : (n & 31);
		x->d[l] = left ? (uint32_t)((v << n) >> 32) : (uint32_t)(v >> n);
	});
}

ALU_FN(lop3_b32)
{
	(void)ai;
	LANE_LOOP(mask, {
		uint32_t a = (uint32_t)x->a[l], b = (uint32_t)x->b[l], c = (uint32_t)x->c[l];
		uint32_t lut = (uint32_t)x->e[l], r = 0;
		for (int i = 0; i < 8; i++) {
			uint32_t t = ((i & 4) ? a : ~a) & ((i & 2) ? b : ~b) & ((i & 1) ? c : ~c);
			r |= ((lut >> i) & 1) ? t : 0;
		}
		x->d[l] = r;
	});
}

static inline uint32_t byte_of(uint64_t v, uint32_t i) { return (uint32_t)(v >> (8 * i)) & 0xff; }

ALU_FN(prmt_generic)
{
	(void)ai;
	LANE_LOOP(mask, {
		uint64_t v = ((x->b[l] & 0xffffffffu) << 32) | (x->a[l] & 0xffffffffu);
		uint32_t c = (uint32_t)x->c[l], r = 0;
		for (uint32_t i = 0; i < 4; i++) {
			uint32_t s = (c >> (4 * i)) & 0xf, by = byte_of(v, s & 7);
			if (s & 8)
				by = (by & 0x80) ? 0xff : 0;
			r |= by << (8 * i);
		}
		x->d[l] = r;
	});
}

/* prmt modes: byte indices d.b0..d.b3 for selector 0..3 (ISA 9.7.8.7) */
static const uint8_t prmt_tab[6][4][4] = {
	{{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},  /* f4e  */
	{{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},  /* b4e  */
	{{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},  /* rc8  */
	{{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},  /* ecl  */
	{{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},  /* ecr  */
	{{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}},  /* rc16 */
};

ALU_FN(prmt_mode)
{
	int t;
	switch (ai->mode) {
	case MOD_F4E: t = 0; break;
	case MOD_B4E: t = 1; break;
	case MOD_RC8: t = 2; break;
	case MOD_ECL: t = 3; break;
	case MOD_ECR: t = 4; break;
	default: t = 5; break;
	}
	LANE_LOOP(mask, {
		uint64_t v = ((x->b[l] & 0xffffffffu) << 32) | (x->a[l] & 0xffffffffu);
		const uint8_t *s = prmt_tab[t][x->c[l] & 3];
		x->d[l] = byte_of(v, s[0]) | byte_of(v, s[1]) << 8 | byte_of(v, s[2]) << 16 |
			  byte_of(v, s[3]) << 24;
	});
}

ALU_FN(dp4a)
{
	bool sa = alu_signed(ai->type), sb = alu_signed(ai->type2);
	LANE_LOOP(mask, {
		uint32_t a = (uint32_t)x->a[l], b = (uint32_t)x->b[l];
		int64_t acc = 0;
		for (int i = 0; i < 4; i++) {
			int64_t av = sa ? (int8_t)(a >> (8 * i)) : (uint8_t)(a >> (8 * i));
			int64_t bv = sb ? (int8_t)(b >> (8 * i)) : (uint8_t)(b >> (8 * i));
			acc += av * bv;
		}
		x->d[l] = (uint32_t)((uint64_t)acc + (uint32_t)x->c[l]);
	});
}

ALU_FN(dp2a)
{
	bool sa = alu_signed(ai->type), sb = alu_signed(ai->type2);
	int off = (ai->flags & ALU_HI) ? 2 : 0;
	LANE_LOOP(mask, {
		uint32_t a = (uint32_t)x->a[l], b = (uint32_t)x->b[l];
		int64_t acc = 0;
		for (int i = 0; i < 2; i++) {
			int64_t av = sa ? (int16_t)(a >> (16 * i)) : (uint16_t)(a >> (16 * i));
			int64_t bv = sb ? (int8_t)(b >> (8 * (i + off))) : (uint8_t)(b >> (8 * (i + off)));
			acc += av * bv;
		}
		x->d[l] = (uint32_t)((uint64_t)acc + (uint32_t)x->c[l]);
	});
}

/* ---- selection and comparison ---------------------------------------------------------- */

#define DEF_SELP(W, UT)                                                                    \
	ALU_FN(selp_##W)                                                                   \
	{                                                                                  \
		(void)ai;                                                                  \
		const uint64_t *A = x->a, *B = x->b, *C = x->c;                            \
		uint64_t *D = x->d;                                                        \
		/* both read, so the choice is a blend or cmov, not a branch per lane */   \
		LANE_MAP(mask, D, {                                                        \
			uint64_t a = A[l], b = B[l];                                       \
			v = (UT)(C[l] ? a : b);                                            \
		});                                                                        \
	}
DEF_SELP(16, uint16_t)
DEF_SELP(32, uint32_t)
DEF_SELP(64, uint64_t)
DEF_SELP(1, bool)

ALU_FN(slct_s32)
{
	uint64_t m = alu_wmask(alu_bits(ai->type));
	LANE_LOOP(mask, x->d[l] = ((int32_t)(uint32_t)x->c[l] >= 0 ? x->a[l] : x->b[l]) & m);
}

ALU_FN(slct_f32)
{
	uint64_t m = alu_wmask(alu_bits(ai->type));
	bool ftz = ai->flags & ALU_FTZ;
	LANE_LOOP(mask, {
		uint32_t c = (uint32_t)x->c[l];
		if (ftz && (c & 0x7f800000u) == 0)
			c &= 0x80000000u;
		float f = f32_of(c);
		x->d[l] = (f >= 0.0f ? x->a[l] : x->b[l]) & m;
	});
}

/* A setp without a boolean operation writes the comparison (and |q its negation) directly. */
#define DEF_CMP(name, T, REL)                                                              \
	ALU_FN(name)                                                                       \
	{                                                                                  \
		uint8_t t[LANES];                                                          \
		const uint64_t *A = x->a, *B = x->b;                                       \
		if (ai->op == OP_SETP && (ai->boolop == MOD_NONE || !x->c)) {              \
			LANE_MAP(mask, x->d, v = (T)A[l] REL(T) B[l]);                     \
			if (x->d2)                                                         \
				LANE_MAP(mask, x->d2, v = !((T)A[l] REL(T) B[l]));         \
			return;                                                            \
		}                                                                          \
		LANE_LOOP(mask, t[l] = (T)A[l] REL(T) B[l]);                               \
		alu_setp_finish(ai, x, mask, t);                                           \
	}

#define DEF_CMPS(W)                                                                        \
	DEF_CMP(cmp_eq_##W, uint##W##_t, ==)                                               \
	DEF_CMP(cmp_ne_##W, uint##W##_t, !=)                                               \
	DEF_CMP(cmp_lt_u##W, uint##W##_t, <)                                               \
	DEF_CMP(cmp_le_u##W, uint##W##_t, <=)                                              \
	DEF_CMP(cmp_gt_u##W, uint##W##_t, >)                                               \
	DEF_CMP(cmp_ge_u##W, uint##W##_t, >=)                                              \
	DEF_CMP(cmp_lt_s##W, int##W##_t, <)                                                \
	DEF_CMP(cmp_le_s##W, int##W##_t, <=)                                               \
	DEF_CMP(cmp_gt_s##W, int##W##_t, >)                                                \
	DEF_CMP(cmp_ge_s##W, int##W##_t, >=)                                               \
	static alu_fn *const cmp_tab_##W[10] = {                                           \
		cmp_eq_##W, cmp_ne_##W, cmp_lt_u##W, cmp_le_u##W, cmp_gt_u##W,             \
		cmp_ge_u##W, cmp_lt_s##W, cmp_le_s##W, cmp_gt_s##W, cmp_ge_s##W};

DEF_CMPS(16)
DEF_CMPS(32)
DEF_CMPS(64)

/* ---- packed 16-bit integers: add/min/max .u16x2/.s16x2 (ISA 9.7.1.1, 9.7.1.12-13) --------- */

/* Half i of a word, zero- or sign-extended. */
static inline int32_t h16(uint32_t v, int i, bool sgn)
{
	uint32_t h = (v >> (16 * i)) & 0xffffu;
	return sgn ? (int32_t)(int16_t)h : (int32_t)h;
}

ALU_FN(add_16x2)
{
	(void)ai;
	LANE_LOOP(mask, {
		uint32_t a = (uint32_t)x->a[l], b = (uint32_t)x->b[l];
		x->d[l] = ((a + b) & 0xffffu) | ((a & 0xffff0000u) + (b & 0xffff0000u));
	});
}

/* min/max per half; .relu (s16x2 only) clamps negative halves to 0. */
#define DEF_MINMAX_16X2(name, sgn, gt, relu)                                               \
	ALU_FN(name)                                                                       \
	{                                                                                  \
		(void)ai;                                                                  \
		LANE_LOOP(mask, {                                                          \
			uint32_t a = (uint32_t)x->a[l], b = (uint32_t)x->b[l], r = 0;      \
			for (int i = 0; i < 2; i++) {                                      \
				int32_t va = h16(a, i, sgn), vb = h16(b, i, sgn);          \
				int32_t v = (gt) ? (va > vb ? va : vb) : (va < vb ? va : vb); \
				if ((relu) && v < 0)                                       \
					v = 0;                                             \
				r |= ((uint32_t)v & 0xffffu) << (16 * i);                  \
			}                                                                  \
			x->d[l] = r;                                                       \
		});                                                                        \
	}
DEF_MINMAX_16X2(min_u16x2, false, false, false)
DEF_MINMAX_16X2(max_u16x2, false, true, false)
DEF_MINMAX_16X2(min_s16x2, true, false, false)
DEF_MINMAX_16X2(max_s16x2, true, true, false)
DEF_MINMAX_16X2(min_relu_s16x2, true, false, true)
DEF_MINMAX_16X2(max_relu_s16x2, true, true, true)

/* ---- SIMD video instructions: vadd2 ... vset4 (ISA 9.7.16.2) ---------------------------------
 *
 *   vop2/vop4.dtype.atype.btype{.sat}  d, a, b, c;   merge: d = the n results, c unused
 *   vop2/vop4.dtype.atype.btype.add    d, a, b, c;   accumulate: d = c + sum of the results
 *   vset2/vset4.atype.btype.cmp{.add}  d, a, b, c;   results are 0/1 per element
 *
 * Elements are the 2 halves (vop2) or 4 bytes (vop4) of a and b, extended by atype/btype; each
 * result t is computed exactly (vavrg: (x+y+1) >> 1 for x+y >= 0, else (x+y) >> 1), clamped to
 * dtype's element range by .sat, and either truncated into its element of d (merge) or added
 * at full precision to c (.add; d wraps at 32 bits). Checked on an H100 for every
 * dtype/atype/btype and .sat/.add combination (tests/hw_simd).
 *
 * What the loader passes (struct alu_insn): vop: type = dtype, type2 = atype, boolop = btype,
 * mode = the secondary operation (MOD_ADD, or MOD_NONE for merge); vset: type = atype,
 * type2 = btype, cmp = the comparison, boolop = btype again, mode as for vop. boolop (always a
 * type for these opcodes) tells alu_prepare that the loader decoded them; MOD_NONE there means
 * it did not (so .add would be lost) and the instruction is refused. Only the default element
 * selectors and merge mask are modelled (a.h10/a.b3210, b.h32/b.b7654, d.h10/d.b3210: what nvcc
 * emits); the operand forms `%r1.h0`, `%r2.b10` ... are not parsed by the front end.
 */

enum vop_kind { V_ADD, V_SUB, V_AVRG, V_ABSDIFF, V_MIN, V_MAX, V_SET };

struct vop_desc {
	uint8_t kind, n, sd, sa, sb, sat, acc, cmp;
};

static inline struct vop_desc vop_decode(const struct alu_insn *ai)
{
	struct vop_desc v = {0};
	switch (ai->op) {
	case OP_VADD2: case OP_VADD4: v.kind = V_ADD; break;
	case OP_VSUB2: case OP_VSUB4: v.kind = V_SUB; break;
	case OP_VAVRG2: case OP_VAVRG4: v.kind = V_AVRG; break;
	case OP_VABSDIFF2: case OP_VABSDIFF4: v.kind = V_ABSDIFF; break;
	case OP_VMIN2: case OP_VMIN4: v.kind = V_MIN; break;
	case OP_VMAX2: case OP_VMAX4: v.kind = V_MAX; break;
	default: v.kind = V_SET; break;
	}
	switch (ai->op) {
	case OP_VADD4: case OP_VSUB4: case OP_VAVRG4: case OP_VABSDIFF4: case OP_VMIN4:
	case OP_VMAX4: case OP_VSET4:
		v.n = 4;
		break;
	default:
		v.n = 2;
		break;
	}
	if (v.kind == V_SET) {
		v.sa = alu_signed(ai->type);
		v.sb = alu_signed(ai->type2);
		switch (ai->cmp) {
		case MOD_EQ: v.cmp = 0; break;
		case MOD_NE: v.cmp = 1; break;
		case MOD_LT: v.cmp = 2; break;
		case MOD_LE: v.cmp = 3; break;
		case MOD_GT: v.cmp = 4; break;
		default: v.cmp = 5; break;
		}
	} else {
		v.sd = alu_signed(ai->type);
		v.sa = alu_signed(ai->type2);
		v.sb = alu_signed(ai->boolop);
		v.sat = (ai->flags & ALU_SAT) != 0;
	}
	v.acc = ai->mode == MOD_ADD;
	return v;
}

static inline uint32_t vop_word(const struct vop_desc *v, uint32_t a, uint32_t b, uint32_t c)
{
	int w = v->n == 2 ? 16 : 8;
	uint32_t em = (1u << w) - 1, r = 0;
	int64_t lo = v->sd ? -(1ll << (w - 1)) : 0, hi = v->sd ? (1ll << (w - 1)) - 1 : em;
	for (int i = 0; i < v->n; i++) {
		uint32_t ea = (a >> (w * i)) & em, eb = (b >> (w * i)) & em;
		int64_t x = v->sa ? alu_sext(ea, w) : (int64_t)ea;
		int64_t y = v->sb ? alu_sext(eb, w) : (int64_t)eb;
		int64_t t;
		switch (v->kind) {
		case V_ADD: t = x + y; break;
		case V_SUB: t = x - y; break;
		case V_AVRG: t = x + y >= 0 ? (x + y + 1) >> 1 : (x + y) >> 1; break;
		case V_ABSDIFF: t = x > y ? x - y : y - x; break;
		case V_MIN: t = x < y ? x : y; break;
		case V_MAX: t = x > y ? x : y; break;
		default:
			switch (v->cmp) {
			case 0: t = x == y; break;
			case 1: t = x != y; break;
			case 2: t = x < y; break;
			case 3: t = x <= y; break;
			case 4: t = x > y; break;
			default: t = x >= y; break;
			}
			break;
		}
		if (v->sat)
			t = t < lo ? lo : t > hi ? hi : t;
		if (v->acc)
			c += (uint32_t)t;
		else
			r |= ((uint32_t)t & em) << (w * i);
	}
	return v->acc ? c : r;
}

ALU_FN(video_generic)
{
	struct vop_desc v = vop_decode(ai);
	LANE_LOOP(mask, x->d[l] = vop_word(&v, (uint32_t)x->a[l], (uint32_t)x->b[l],
					    (uint32_t)x->c[l]));
}

/* __vabsdiffu4, __vsadu4 and friends: vabsdiff4.u32.u32.u32{.add}. */
static inline uint32_t absdiff_u8x4_sum(uint32_t a, uint32_t b)
{
	uint32_t s = 0;
	for (int i = 0; i < 32; i += 8) {
		uint32_t x = (a >> i) & 0xff, y = (b >> i) & 0xff;
		s += x > y ? x - y : y - x;
	}
	return s;
}

ALU_FN(vabsdiff4_u32)
{
	(void)ai;
	LANE_LOOP(mask, {
		uint32_t a = (uint32_t)x->a[l], b = (uint32_t)x->b[l], r = 0;
		for (int i = 0; i < 32; i += 8) {
			uint32_t p = (a >> i) & 0xff, q = (b >> i) & 0xff;
			r |= (p > q ? p - q : q - p) << i;
		}
		x->d[l] = r;
	});
}

ALU_FN(vabsdiff4_u32_add)
{
	(void)ai;
	LANE_LOOP(mask, x->d[l] = (uint32_t)x->c[l] +
				  absdiff_u8x4_sum((uint32_t)x->a[l], (uint32_t)x->b[l]));
}

static bool is_video_op(enum ir_op op)
{
	switch (op) {
	case OP_VADD2: case OP_VSUB2: case OP_VAVRG2: case OP_VABSDIFF2: case OP_VMIN2:
	case OP_VMAX2: case OP_VSET2: case OP_VADD4: case OP_VSUB4: case OP_VAVRG4:
	case OP_VABSDIFF4: case OP_VMIN4: case OP_VMAX4: case OP_VSET4:
		return true;
	default:
		return false;
	}
}

static bool is_u32_s32(enum ir_mod t) { return t == MOD_U32 || t == MOD_S32; }

static int prepare_video(struct alu_insn *ai, const char **why)
{
	bool vset = ai->op == OP_VSET2 || ai->op == OP_VSET4;
	if (ai->boolop == MOD_NONE) {
		*why = "SIMD video instructions need their btype and secondary operation from "
		       "the loader, which does not decode them yet";
		return -1;
	}
	if (!is_u32_s32(ai->type) || !is_u32_s32(ai->type2) || !is_u32_s32(ai->boolop)) {
		*why = vset ? "vset2/vset4 take .atype.btype from .u32/.s32"
			    : "SIMD video instructions take .dtype.atype.btype from .u32/.s32";
		return -1;
	}
	if (ai->mode != MOD_NONE && ai->mode != MOD_ADD) {
		*why = "the only secondary operation of vop2/vop4/vset2/vset4 is .add";
		return -1;
	}
	if (ai->nsrc != 3) {
		*why = "SIMD video instructions take d, a, b, c";
		return -1;
	}
	if (vset) {
		if (ai->cmp != MOD_EQ && ai->cmp != MOD_NE && ai->cmp != MOD_LT &&
		    ai->cmp != MOD_LE && ai->cmp != MOD_GT && ai->cmp != MOD_GE) {
			*why = "vset2/vset4 need one of .eq .ne .lt .le .gt .ge";
			return -1;
		}
		if (ai->flags & ALU_SAT) {
			*why = "vset2/vset4 have no .sat";
			return -1;
		}
	} else if ((ai->flags & ALU_SAT) && ai->mode == MOD_ADD) {
		*why = ".sat cannot be combined with the secondary .add";
		return -1;
	}
	if (ai->flags & ~ALU_SAT) {
		*why = "modifier not allowed on a SIMD video instruction";
		return -1;
	}
	ai->fn = video_generic;
	if (ai->op == OP_VABSDIFF4 && ai->type == MOD_U32 && ai->type2 == MOD_U32 &&
	    ai->boolop == MOD_U32 && !(ai->flags & ALU_SAT))
		ai->fn = ai->mode == MOD_ADD ? vabsdiff4_u32_add : vabsdiff4_u32;
	return 0;
}

static int prepare_16x2(struct alu_insn *ai, const char **why)
{
	bool sgn = ai->type == MOD_S16X2;
	uint32_t f = ai->flags;
	alu_fn *fn = NULL;
	if (ai->nsrc != 2) {
		*why = ".u16x2/.s16x2 instructions take d, a, b";
		return -1;
	}
	switch (ai->op) {
	case OP_ADD:
		fn = f ? NULL : add_16x2;
		if (f & ALU_SAT)
			*why = ".sat applies only to add.s32, not to .u16x2/.s16x2";
		break;
	case OP_MIN:
	case OP_MAX: {
		bool mx = ai->op == OP_MAX;
		if (f == ALU_RELU && sgn)
			fn = mx ? max_relu_s16x2 : min_relu_s16x2;
		else if (f == 0)
			fn = sgn ? (mx ? max_s16x2 : min_s16x2) : (mx ? max_u16x2 : min_u16x2);
		else if (f == ALU_RELU)
			*why = ".relu applies to min/max .s16x2 and .s32, not .u16x2";
		break;
	}
	default:
		*why = ".u16x2/.s16x2 apply only to add, min and max";
		break;
	}
	if (!fn) {
		if (!*why)
			*why = "modifier not allowed with .u16x2/.s16x2";
		return -1;
	}
	ai->fn = fn;
	return 0;
}

/* ---- prepare --------------------------------------------------------------------------- */

#define PICK3(bits, f16, f32, f64) ((bits) == 16 ? (f16) : (bits) == 32 ? (f32) : (bits) == 64 ? (f64) : NULL)

static alu_fn *pick_int_cmp(const struct alu_insn *ai)
{
	int bits = alu_bits(ai->op == OP_SET ? ai->type2 : ai->type);
	bool sgn = alu_signed(ai->op == OP_SET ? ai->type2 : ai->type);
	int k;
	switch (ai->cmp) {
	case MOD_EQ: k = 0; break;
	case MOD_NE: k = 1; break;
	case MOD_LT: k = sgn ? 6 : 2; break;
	case MOD_LE: k = sgn ? 7 : 3; break;
	case MOD_GT: k = sgn ? 8 : 4; break;
	case MOD_GE: k = sgn ? 9 : 5; break;
	case MOD_LO: k = 2; break;
	case MOD_LS: k = 3; break;
	case MOD_HI: k = 4; break;
	case MOD_HS: k = 5; break;
	default: return NULL;
	}
	return PICK3(bits, cmp_tab_16[k], cmp_tab_32[k], cmp_tab_64[k]);
}

static const char *const unsup = "this integer instruction form is not supported";

int alu_prepare_int(struct alu_insn *ai, const char **why)
{
	enum ir_mod t = ai->type;
	int bits = alu_bits(t);
	bool sgn = alu_signed(t);
	uint32_t f = ai->flags;
	alu_fn *fn = NULL;
	bool cc = f & ALU_CC;
	switch (ai->op) {
	case OP_ADD:
		if (f & ALU_SAT)
			fn = t == MOD_S32 ? add_sat_s32 : NULL;
		else if (cc)
			fn = bits == 32 ? add_cc_32 : bits == 64 ? carry_generic : NULL;
		else
			fn = PICK3(bits, add_16, add_32, add_64);
		break;
	case OP_SUB:
		if (f & ALU_SAT)
			fn = t == MOD_S32 ? sub_sat_s32 : NULL;
		else if (cc)
			fn = bits >= 32 ? carry_generic : NULL;
		else
			fn = PICK3(bits, sub_16, sub_32, sub_64);
		break;
	case OP_ADDC:
	case OP_SUBC:
	case OP_MADC:
		fn = bits >= 32 ? carry_generic : NULL;
		break;
	case OP_MUL:
		if (f & ALU_WIDE)
			fn = bits == 16 ? (sgn ? mul_wide_s16 : mul_wide_u16)
			   : bits == 32 ? (sgn ? mul_wide_s32 : mul_wide_u32) : NULL;
		else if (f & ALU_HI)
			fn = sgn ? PICK3(bits, mul_hi_s16, mul_hi_s32, mul_hi_s64)
				 : PICK3(bits, mul_hi_u16, mul_hi_u32, mul_hi_u64);
		else
			fn = PICK3(bits, mul_lo_16, mul_lo_32, mul_lo_64);
		break;
	case OP_MAD:
		if (cc)
			fn = bits >= 32 && !(f & ALU_WIDE) ? carry_generic : NULL;
		else if (f & ALU_SAT)
			fn = t == MOD_S32 && (f & ALU_HI) ? mad_hi_sat_s32 : NULL;
		else if (f & ALU_WIDE)
			fn = bits == 16 ? (sgn ? mad_wide_s16 : mad_wide_u16)
			   : bits == 32 ? (sgn ? mad_wide_s32 : mad_wide_u32) : NULL;
		else if (f & ALU_HI)
			fn = sgn ? PICK3(bits, mad_hi_s16, mad_hi_s32, mad_hi_s64)
				 : PICK3(bits, mad_hi_u16, mad_hi_u32, mad_hi_u64);
		else
			fn = PICK3(bits, mad_lo_16, mad_lo_32, mad_lo_64);
		break;
	case OP_MUL24:
		if (bits == 32)
			fn = (f & ALU_HI) ? (sgn ? mul24_hi_s32 : mul24_hi_u32)
					  : (sgn ? mul24_lo_s32 : mul24_lo_u32);
		break;
	case OP_MAD24:
		if (bits == 32 && (f & ALU_SAT))
			fn = sgn && (f & ALU_HI) ? mad24_hi_sat_s32 : NULL;
		else if (bits == 32)
			fn = (f & ALU_HI) ? (sgn ? mad24_hi_s32 : mad24_hi_u32)
					  : (sgn ? mad24_lo_s32 : mad24_lo_u32);
		break;
	case OP_SAD:
		fn = sgn ? PICK3(bits, sad_s16, sad_s32, sad_s64) : PICK3(bits, sad_u16, sad_u32, sad_u64);
		break;
	case OP_DIV:
		fn = sgn ? PICK3(bits, div_s16, div_s32, div_s64) : PICK3(bits, div_u16, div_u32, div_u64);
		break;
	case OP_REM:
		fn = sgn ? PICK3(bits, rem_s16, rem_s32, rem_s64) : PICK3(bits, rem_u16, rem_u32, rem_u64);
		break;
	case OP_ABS:
		fn = PICK3(bits, abs_s16, abs_s32, abs_s64);
		break;
	case OP_NEG:
		fn = PICK3(bits, neg_16, neg_32, neg_64);
		break;
	case OP_MIN:
		if (f & ALU_RELU)
			fn = t == MOD_S32 ? min_relu_s32 : NULL;
		else
			fn = sgn ? PICK3(bits, min_s16, min_s32, min_s64) : PICK3(bits, min_u16, min_u32, min_u64);
		break;
	case OP_MAX:
		if (f & ALU_RELU)
			fn = t == MOD_S32 ? max_relu_s32 : NULL;
		else
			fn = sgn ? PICK3(bits, max_s16, max_s32, max_s64) : PICK3(bits, max_u16, max_u32, max_u64);
		break;
	case OP_POPC: fn = bits == 32 ? popc_32 : bits == 64 ? popc_64 : NULL; break;
	case OP_CLZ: fn = bits == 32 ? clz_32 : bits == 64 ? clz_64 : NULL; break;
	case OP_BREV: fn = bits == 32 ? brev_32 : bits == 64 ? brev_64 : NULL; break;
	case OP_BFIND: fn = bits >= 32 ? bfind_generic : NULL; break;
	case OP_BFE: fn = bits >= 32 ? bfe_generic : NULL; break;
	case OP_BFI: fn = bits >= 32 ? bfi_generic : NULL; break;
	case OP_BMSK: fn = bits == 32 ? bmsk_b32 : NULL; break;
	case OP_SZEXT: fn = bits == 32 ? szext_32 : NULL; break;
	case OP_DP4A: fn = dp4a; break;
	case OP_DP2A: fn = dp2a; break;
	case OP_PRMT:
		fn = ai->mode == MOD_NONE ? prmt_generic : prmt_mode;
		break;
	case OP_SHL: fn = PICK3(bits, shl_16, shl_32, shl_64); break;
	case OP_SHR:
		fn = sgn ? PICK3(bits, shr_s16, shr_s32, shr_s64) : PICK3(bits, shr_u16, shr_u32, shr_u64);
		break;
	case OP_SHF: fn = bits == 32 ? shf_b32 : NULL; break;
	case OP_AND:
		fn = t == MOD_PRED ? and_64 : PICK3(bits, and_16, and_32, and_64);
		break;
	case OP_OR:
		fn = t == MOD_PRED ? or_64 : PICK3(bits, or_16, or_32, or_64);
		break;
	case OP_XOR:
		fn = t == MOD_PRED ? xor_64 : PICK3(bits, xor_16, xor_32, xor_64);
		break;
	case OP_NOT:
		fn = t == MOD_PRED ? cnot_64 : PICK3(bits, not_16, not_32, not_64);
		break;
	case OP_CNOT: fn = PICK3(bits, cnot_16, cnot_32, cnot_64); break;
	case OP_LOP3:
		if (ai->boolop != MOD_NONE) {
			*why = "lop3 with a predicate BoolOp is not supported";
			return -1;
		}
		fn = bits == 32 ? lop3_b32 : NULL;
		break;
	case OP_SELP:
		fn = t == MOD_PRED ? selp_1 : PICK3(bits, selp_16, selp_32, selp_64);
		break;
	case OP_SLCT:
		fn = ai->type2 == MOD_F32 ? slct_f32 : ai->type2 == MOD_S32 ? slct_s32 : NULL;
		break;
	case OP_SETP:
	case OP_SET:
		fn = pick_int_cmp(ai);
		break;
	default:
		break;
	}
	if (!fn) {
		*why = unsup;
		return -1;
	}
	ai->fn = fn;
	return 0;
}

int alu_prepare(struct alu_insn *ai, const char **why)
{
	static const char *dummy;
	if (!why)
		why = &dummy;
	enum ir_mod t = ai->type;
	*why = NULL;
	if (is_video_op(ai->op))
		return prepare_video(ai, why);
	if (t == MOD_U16X2 || t == MOD_S16X2)
		return prepare_16x2(ai, why);
	switch (ai->op) {
	case OP_CVT:
		return alu_prepare_cvt(ai, why);
	case OP_TESTP: case OP_COPYSIGN: case OP_FMA: case OP_RCP: case OP_SQRT: case OP_RSQRT:
	case OP_EX2: case OP_LG2: case OP_SIN: case OP_COS: case OP_TANH:
		return alu_prepare_fp(ai, why);
	case OP_SETP:
	case OP_SET:
		if (!alu_is_int(ai->op == OP_SET ? ai->type2 : t))
			return alu_prepare_fp(ai, why);
		return alu_prepare_int(ai, why);
	case OP_SLCT:
		return alu_prepare_int(ai, why);
	case OP_MIN:
	case OP_MAX:
		if (ai->nsrc > 2) {
			*why = "three-input min/max is not supported";
			return -1;
		}
		/* fall through */
	case OP_ADD: case OP_SUB: case OP_MUL: case OP_MAD: case OP_DIV: case OP_ABS:
	case OP_NEG:
		if (!alu_is_int(t))
			return alu_prepare_fp(ai, why);
		return alu_prepare_int(ai, why);
	default:
		return alu_prepare_int(ai, why);
	}
}
