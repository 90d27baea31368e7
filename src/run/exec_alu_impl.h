/*
 * exec_alu_impl.h - internals shared by the ALU files (exec_int.c, exec_fp.c, exec_cvt.c):
 * the lane loop, type facts keyed on the MK_TYPE modifiers, IEEE bit helpers and the exact
 * soft-float rounding core used by every conversion and by the half-precision arithmetic.
 */
#ifndef PTXI_EXEC_ALU_IMPL_H
#define PTXI_EXEC_ALU_IMPL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "exec_alu.h"

/*
 * Run the body (the variadic part) for every lane l whose bit is set in mask. A full warp takes a plain counted loop
 * the compiler can vectorise; a partial one walks the set bits.
 */
#define LANE_LOOP(mask, ...)                                                               \
	do {                                                                               \
		if ((mask) == 0xffffffffu) {                                               \
			for (int l = 0; l < LANES; l++) {                                  \
				__VA_ARGS__;                                               \
			}                                                                  \
		} else {                                                                   \
			for (uint32_t m_ = (mask); m_; m_ &= m_ - 1) {                     \
				int l = __builtin_ctz(m_);                                 \
				__VA_ARGS__;                                                      \
			}                                                                  \
		}                                                                          \
	} while (0)

/*
 * D[l] = v, where the body (the variadic part) sets v for lane l, for the lanes of mask.
 * Unlike LANE_LOOP, a warp with at least half its lanes in mask computes all 32 and blends
 * the masked ones into D in the same loop: vector code instead of a walk over the bits.
 * Only for bodies that read lane l alone (so D may be a source) and are defined for any
 * value (lanes outside mask compute on whatever their registers hold, and are dropped); D
 * must have all 32 lanes.
 */
#define LANE_MAP(mask, D, ...)                                                             \
	do {                                                                               \
		uint64_t *D_ = (D);                                                        \
		uint32_t mm_ = (mask);                                                     \
		if (mm_ == 0xffffffffu) {                                                  \
			for (int l = 0; l < LANES; l++) {                                  \
				uint64_t v;                                                \
				__VA_ARGS__;                                               \
				D_[l] = v;                                                 \
			}                                                                  \
		} else if (__builtin_popcount(mm_) >= LANES / 2) {                         \
			for (int l = 0; l < LANES; l++) {                                  \
				uint64_t v;                                                \
				__VA_ARGS__;                                               \
				D_[l] = (mm_ >> l & 1) ? v : D_[l];                        \
			}                                                                  \
		} else {                                                                   \
			for (uint32_t m_ = mm_; m_; m_ &= m_ - 1) {                        \
				int l = __builtin_ctz(m_);                                 \
				uint64_t v;                                                \
				__VA_ARGS__;                                               \
				D_[l] = v;                                                 \
			}                                                                  \
		}                                                                          \
	} while (0)

/*
 * On x86-64 with gcc every lane loop is built twice, for x86-64-v3 (AVX2, FMA) and for the
 * baseline, and the loader's pointer goes to the one the CPU runs (ifunc). Both give the
 * same bits: the IEEE operations are exact in either, fmaf rounds once in either, and
 * vector code sees the same rounding mode and no flush-to-zero. Not under ThreadSanitizer:
 * the loader runs the choosers before TSan's runtime is up, and they are instrumented.
 */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && \
	!defined(__SANITIZE_THREAD__)
#define ALU_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#if __GNUC__ >= 12
/* gcc 12 takes storing a cloned function's address for a local's (a false positive) */
#pragma GCC diagnostic ignored "-Wdangling-pointer"
#endif
#else
#define ALU_CLONES
#endif

#define ALU_FN(name) ALU_CLONES static void name(const struct alu_insn *ai,               \
						 const struct alu_args *x, uint32_t mask)

/* ---- types ------------------------------------------------------------------------------ */

static inline int alu_bits(enum ir_mod t)
{
	switch (t) {
	case MOD_PRED: return 1;
	case MOD_B8: case MOD_U8: case MOD_S8: return 8;
	case MOD_B16: case MOD_U16: case MOD_S16: case MOD_F16: case MOD_BF16:
	case MOD_E4M3X2: case MOD_E5M2X2: return 16;
	case MOD_B32: case MOD_U32: case MOD_S32: case MOD_F32: case MOD_F16X2: case MOD_BF16X2:
	case MOD_TF32: return 32;
	case MOD_B64: case MOD_U64: case MOD_S64: case MOD_F64: return 64;
	default: return 0;
	}
}

static inline bool alu_signed(enum ir_mod t)
{
	return t == MOD_S8 || t == MOD_S16 || t == MOD_S32 || t == MOD_S64;
}

static inline bool alu_is_int(enum ir_mod t)
{
	switch (t) {
	case MOD_B8: case MOD_U8: case MOD_S8: case MOD_B16: case MOD_U16: case MOD_S16:
	case MOD_B32: case MOD_U32: case MOD_S32: case MOD_B64: case MOD_U64: case MOD_S64:
		return true;
	default:
		return false;
	}
}

static inline uint64_t alu_wmask(int bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

/* Sign-extend the low `bits` bits of v (1 <= bits <= 64). */
static inline int64_t alu_sext(uint64_t v, int bits)
{
	if (bits >= 64)
		return (int64_t)v;
	uint64_t m = 1ull << (bits - 1);
	v &= (m << 1) - 1;
	return (int64_t)((v ^ m) - m);
}

/* ---- IEEE bits ---------------------------------------------------------------------------- */

static inline float f32_of(uint64_t v)
{
	uint32_t u = (uint32_t)v;
	float f;
	memcpy(&f, &u, 4);
	return f;
}

static inline uint32_t bits_f32(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

static inline double f64_of(uint64_t v)
{
	double d;
	memcpy(&d, &v, 8);
	return d;
}

static inline uint64_t bits_f64(double d)
{
	uint64_t u;
	memcpy(&u, &d, 8);
	return u;
}

#define F32_CANON_NAN 0x7fffffffu
#define F16_CANON_NAN 0x7fffu
#define BF16_CANON_NAN 0x7fffu

/* ---- soft-float formats and the rounding core (exec_cvt.c) --------------------------------- */

enum alu_fmt { FMT_F16, FMT_BF16, FMT_F32, FMT_F64, FMT_TF32, FMT_E4M3, FMT_E5M2 };

/* Options for alu_round_pack. */
enum {
	RP_FTZ = 1,       /* subnormal results become signed zero                              */
	RP_SATFINITE = 2, /* overflow gives the largest finite value instead of infinity        */
	RP_RELU = 4,      /* negative results (and -0) become +0                                 */
};

/*
 * Round the exact value (-1)^sign * (mant + sticky/2) * 2^exp (sticky: nonzero bits lie below
 * mant's last bit, so the value is strictly above mant * 2^exp) into format f with rounding
 * mode rnd (MOD_RN/RZ/RM/RP/RNA; NONE = RN) and return its bit pattern.
 */
uint64_t alu_round_pack(enum alu_fmt f, int sign, uint64_t mant, int exp, bool sticky,
			enum ir_mod rnd, unsigned opts);

/* Decode a finite, nonzero value of format f to sign * mant * 2^exp; false for zero,
 * true otherwise (NaN/Inf must be handled before). */
void alu_unpack(enum alu_fmt f, uint64_t bits, int *sign, uint64_t *mant, int *exp);

/* Classification of a bit pattern in format f. */
enum { FC_ZERO, FC_SUB, FC_NORMAL, FC_INF, FC_NAN };
int alu_classify(enum alu_fmt f, uint64_t bits);

/* Round a double to f16 / bf16 bits (RN), exactly. */
uint16_t alu_f64_to_half(enum alu_fmt f, double v, enum ir_mod rnd, unsigned opts);
double alu_half_to_f64(enum alu_fmt f, uint16_t h);

/* Canonical NaN bits of a format. */
uint64_t alu_fmt_nan(enum alu_fmt f);

/* Finish setp/set from the raw comparison t[]: combine with c by boolop, write d (and d2)
 * (exec_setp.c). */
void alu_setp_finish(const struct alu_insn *ai, const struct alu_args *x, uint32_t mask,
		     const uint8_t *t);
int alu_prepare_int(struct alu_insn *ai, const char **why);
int alu_prepare_fp(struct alu_insn *ai, const char **why);
int alu_prepare_cvt(struct alu_insn *ai, const char **why);

#endif
