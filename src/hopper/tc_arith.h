/*
 * tc_arith.h - the H100 tensor cores' arithmetic, bit for bit, as a pure library: one output
 * element of an MMA from a row of A, a column of B and the accumulator c
 * (docs/tensor-cores.md, ../shared/spec/tensor-h100.md). mma.sync, wmma and wgmma all compute
 * through it; nothing here knows about registers, fragments or threads.
 */
#ifndef PTXI_TC_ARITH_H
#define PTXI_TC_ARITH_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Element types of the A and B operands. An element is passed as its raw bits in the low bits
 * of a uint32_t (a tf32 element as the whole 32-bit word: its low 13 bits are ignored, as the
 * hardware ignores them).
 */
#define TC_ELEMS(X)      \
	X(F16, "f16")    \
	X(BF16, "bf16")  \
	X(TF32, "tf32")  \
	X(E4M3, "e4m3")  \
	X(E5M2, "e5m2")  \
	X(S8, "s8")      \
	X(U8, "u8")      \
	X(S4, "s4")      \
	X(U4, "u4")      \
	X(B1, "b1")

enum tc_elem {
#define X(name, spelling) TC_##name,
	TC_ELEMS(X)
#undef X
	TC__COUNT
};

/* "f16", "e4m3", ...; NULL for a value outside the enum. */
const char *tc_elem_name(enum tc_elem t);

/* True for the floating-point element types (f16, bf16, tf32, e4m3, e5m2). */
bool tc_elem_is_float(enum tc_elem t);

/*
 * Products summed in one block FMA for these inputs: 16 (f16, bf16), 8 (tf32), 32 (fp8 as
 * wgmma computes it natively).
 */
unsigned tc_block_size(enum tc_elem t);

/*
 * d = c + sum over i < k of a[i] * b[i], with an f32 accumulator (c and the result are f32
 * bits). The k products go block after block (tc_block_size of the A type; a shorter k is
 * one block), each block's result the next block's c: exact products aligned to the largest
 * exponent, truncated 25 (fp8: 13) fraction bits below it, summed, rounded toward zero.
 * A and B may differ only between e4m3 and e5m2. NaN gives 0x7fffffff; every zero is +0.
 */
uint32_t tc_dot_f32(enum tc_elem ta, enum tc_elem tb, const uint32_t *a, const uint32_t *b,
		    unsigned k, uint32_t c);

/* The same with an f16 accumulator: c and the result are f16 bits, each block rounded to
 * nearest even; NaN gives 0x7fff. */
uint16_t tc_dot_f16(enum tc_elem ta, enum tc_elem tb, const uint32_t *a, const uint32_t *b,
		    unsigned k, uint16_t c);

/* Most elements one decoded operand holds: 32 (an fp8 block; two f16 blocks). */
#define TC_KMAX 32

/*
 * A row of A or a column of B decoded once for the many dot products that read it (a wgmma
 * uses each row n times): every element's significand, exponent and sign, as the block FMA
 * takes them. tc_dot_f32/f16 decode their arguments into this form themselves.
 */
struct tc_operand {
	enum tc_elem type;
	unsigned k;               /* elements, at most TC_KMAX                                */
	int frac;                 /* fraction bits of the type                                */
	bool special;             /* an inf or NaN among them: the general block FMA runs     */
	int32_t exp[TC_KMAX];     /* unbiased exponent; far below every anchor for a zero     */
	uint32_t sig[TC_KMAX];    /* significand with its hidden bit                          */
	uint32_t neg[TC_KMAX];    /* all ones for a negative element, else 0                  */
	uint32_t raw[TC_KMAX];
};

/* Decodes k <= TC_KMAX elements of a floating-point type t. */
void tc_operand_decode(enum tc_elem t, const uint32_t *raw, unsigned k, struct tc_operand *out);

/*
 * A tile of dot products: c[r * nb + j] = a[r] . b_j + c[r * nb + j] for r < m, j < nb, where
 * b_j is column j of B, its k elements of type tb at b[j * k] (k = a's); the accumulators are
 * f32 bits, or f16 bits in the low half (each as tc_dot_f32 / tc_dot_f16 gives it).
 * The fast form of a wgmma's block: B decoded once, a few columns at a time.
 */
enum tc_acc { TC_ACC_F32, TC_ACC_F16 };
void tc_dot_tile(const struct tc_operand *a, unsigned m, enum tc_elem tb, const uint32_t *b,
		 unsigned nb, enum tc_acc acc, uint32_t *c);

/*
 * B decoded once for several tiles that read it (the four warps of a wgmma): decode it with
 * tc_btile_decode (its n columns of k <= TC_KMAX elements of type tb at b[j * k]; false when
 * out of memory), then tc_dot_tile_b gives tc_dot_tile's results (nb = n, tb = B's type).
 */
struct tc_btile;
struct tc_btile *tc_btile_new(void);
void tc_btile_free(struct tc_btile *t);
bool tc_btile_decode(struct tc_btile *t, enum tc_elem tb, const uint32_t *b, unsigned n,
		     unsigned k);
void tc_dot_tile_b(const struct tc_operand *a, unsigned m, const struct tc_btile *b,
		   enum tc_acc acc, uint32_t *c);

/*
 * mma.sync with fp8 inputs and an f32 accumulator, as ptxas emulates it on sm_90: the
 * elements are widened to f16 (exactly); d1 = f16 block over k in {0,1,4,5,8,9,...} with
 * c = +0, d2 = f16 block over the other k with c = d1, result = d2 + c rounded to nearest
 * (an fp32 add). k is a multiple of 4 (32 for m16n8k32).
 */
uint32_t tc_dot_fp8_sm90_f32(enum tc_elem ta, enum tc_elem tb, const uint32_t *a,
			     const uint32_t *b, unsigned k, uint32_t c);

/* The same with an f16 accumulator (ptxas's form for .f16.e4m3.e4m3.f16 and the like): the
 * two halves as f16 blocks (f16 results, each rounded to nearest even), then an f16 add of
 * the accumulator, rounded to nearest even. */
uint16_t tc_dot_fp8_sm90_f16(enum tc_elem ta, enum tc_elem tb, const uint32_t *a,
			     const uint32_t *b, unsigned k, uint16_t c);

/*
 * mma.m8n8k4 with f16 A and B, as ptxas emulates it on sm_90 (no tensor-core form): the
 * halves are widened to fp32 and summed by fp32 operations, each rounded to nearest even.
 * An f32 D: s = fma(a3, b3, fma(a2, b2, fma(a1, b1, fma(a0, b0, +0)))), d = c + s (an f16 C
 * widened exactly). An f16 D: s01 = fma(a1, b1, a0 b0), s23 = fma(a3, b3, a2 b2),
 * d = (c + s01) + s23 rounded to f16. A NaN result is 0x7fffffff / 0x7fff.
 */
uint32_t tc_dot_m8n8k4_f32(const uint32_t *a, const uint32_t *b, uint32_t c);
uint16_t tc_dot_m8n8k4_f16(const uint32_t *a, const uint32_t *b, uint16_t c);

/* f32 bits to f16 bits, rounded to nearest even (cvt.rn.f16.f32); NaN gives 0x7fff. */
uint16_t tc_f32_to_f16(uint32_t f);

/*
 * Integer MMA: c + sum a[i] * b[i] for s8/u8/s4/u4 elements (raw bits in the low 8 or 4 bits,
 * A and B types independent), exact; the result wraps to 32 bits, or with satfinite the exact
 * final sum is clamped to the s32 range.
 */
int32_t tc_dot_int(enum tc_elem ta, enum tc_elem tb, const uint32_t *a, const uint32_t *b,
		   unsigned k, int32_t c, bool satfinite);

/* b1 MMA: c + sum over the 32-bit words of popc(a[i] AND b[i]) (or XOR), wrapping. */
enum tc_bop { TC_BOP_AND, TC_BOP_XOR };
int32_t tc_dot_b1(enum tc_bop op, const uint32_t *a, const uint32_t *b, unsigned nwords,
		  int32_t c);

/*
 * f64 MMA: a chain of fused multiply-adds in k order, d = fma(a[i], b[i], d) from d = c.
 * A NaN operand propagates (quieted; B's before the accumulator's before A's); an invalid
 * operation gives 0xfff8000000000000.
 */
uint64_t tc_dot_f64(const uint64_t *a, const uint64_t *b, unsigned k, uint64_t c);

#endif
