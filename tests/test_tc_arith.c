/*
 * test_tc_arith.c - the tensor-core arithmetic (src/hopper/tc_arith.c): each rule of
 * ../shared/spec/tensor-h100.md on hand-made operands, then single outputs the H100 computed
 * (tests/hw_tc/mma_cases.txt, from the mma.sync and wgmma conformance cases by
 * tests/hw_tc/gen.py).
 */
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hopper/tc_arith.h"

#ifndef PTXI_SOURCE_ROOT
#define PTXI_SOURCE_ROOT "."
#endif

#define F16_ONE 0x3c00u
#define F32_ONE 0x3f800000u

/* ---- f32 accumulator --------------------------------------------------------------------- */

/* Fifteen products 2^-26 below a product 1.0 lie under the 25 kept bits: truncated to nothing
 * (an exact sum rounded toward zero would be 0x3f800001). */
static void test_tc_f32_truncates_below_anchor(void **state)
{
	uint32_t a[16], b[16];

	(void)state;
	a[0] = b[0] = F16_ONE;
	for (int i = 1; i < 16; i++)
		a[i] = b[i] = 0x0800; /* 2^-13 */
	assert_int_equal(tc_dot_f32(TC_F16, TC_F16, a, b, 16, 0), F32_ONE);
}

/* 1 + 1.5 * 2^-24 is rounded toward zero (to nearest it would be 0x3f800001), both signs. */
static void test_tc_f32_rounds_toward_zero(void **state)
{
	uint32_t a[1] = {0x0e00}, b[1] = {0x0c00}; /* 1.5 * 2^-12, 2^-12 */

	(void)state;
	assert_int_equal(tc_dot_f32(TC_F16, TC_F16, a, b, 1, F32_ONE), F32_ONE);
	a[0] |= 0x8000;
	assert_int_equal(tc_dot_f32(TC_F16, TC_F16, a, b, 1, 0xbf800000u), 0xbf800000u);
}

/* Every zero is +0: -0 terms, exact cancellation. */
static void test_tc_f32_zero_is_positive(void **state)
{
	uint32_t a[2] = {0x8000, 0x8000}, b[2] = {F16_ONE, F16_ONE};

	(void)state;
	assert_int_equal(tc_dot_f32(TC_F16, TC_F16, a, b, 2, 0x80000000u), 0);
	a[0] = F16_ONE;
	assert_int_equal(tc_dot_f32(TC_F16, TC_F16, a, b, 1, 0xbf800000u), 0);
}

/* NaN operand, inf * 0 and +inf + -inf give 0x7fffffff; a lone infinity stays. */
static void test_tc_f32_specials(void **state)
{
	uint32_t a[2] = {0x7e01, F16_ONE}, b[2] = {F16_ONE, F16_ONE};

	(void)state;
	assert_int_equal(tc_dot_f32(TC_F16, TC_F16, a, b, 2, 0), 0x7fffffffu);
	a[0] = 0x7c00, b[0] = 0;
	assert_int_equal(tc_dot_f32(TC_F16, TC_F16, a, b, 2, 0), 0x7fffffffu);
	b[0] = F16_ONE;
	assert_int_equal(tc_dot_f32(TC_F16, TC_F16, a, b, 2, 0xff800000u), 0x7fffffffu);
	assert_int_equal(tc_dot_f32(TC_F16, TC_F16, a, b, 2, 0), 0x7f800000u);
}

/* FLT_MAX + 2^127 overflows to inf although the rounding is toward zero. */
static void test_tc_f32_overflow_is_inf(void **state)
{
	uint32_t a[1] = {0x7f00}, b[1] = {0x3f80}; /* bf16 2^127, 1.0 */

	(void)state;
	assert_int_equal(tc_dot_f32(TC_BF16, TC_BF16, a, b, 1, 0x7f7fffffu), 0x7f800000u);
}

/* tf32: the low 13 bits of the word are ignored, not rounded (0x3f803fff is 0x3f802000). */
static void test_tc_tf32_ignores_low_bits(void **state)
{
	uint32_t a[1] = {0x3f803fffu}, b[1] = {F32_ONE};

	(void)state;
	assert_int_equal(tc_dot_f32(TC_TF32, TC_TF32, a, b, 1, 0), 0x3f802000u);
}

/* Native fp8 (wgmma) keeps 13 bits below the anchor; mma.sync on sm_90 goes through two f16
 * blocks, which keep 31 products of 2^-14 beside 1.0. */
static void test_tc_fp8_native_and_sm90(void **state)
{
	uint32_t a[32], b[32];

	(void)state;
	a[0] = b[0] = 0x38; /* e4m3 1.0 */
	for (int i = 1; i < 32; i++)
		a[i] = b[i] = 0x04; /* e4m3 2^-7 */
	assert_int_equal(tc_dot_f32(TC_E4M3, TC_E4M3, a, b, 32, 0), F32_ONE);
	assert_int_equal(tc_dot_fp8_sm90_f32(TC_E4M3, TC_E4M3, a, b, 32, 0), 0x3f803e00u);
}

/* A k of two blocks is the second block on the first one's result. */
static void test_tc_f32_block_after_block(void **state)
{
	uint32_t a[32], b[32];

	(void)state;
	for (int i = 0; i < 32; i++) {
		a[i] = 0x3c00 + (uint32_t)i * 37;
		b[i] = 0x2c00 + (uint32_t)i * 91;
	}
	uint32_t first = tc_dot_f32(TC_F16, TC_F16, a, b, 16, 0x3e000000u);
	assert_int_equal(tc_dot_f32(TC_F16, TC_F16, a, b, 32, 0x3e000000u),
			 tc_dot_f32(TC_F16, TC_F16, a + 16, b + 16, 16, first));
}

/* ---- decoded operands and tiles ---------------------------------------------------------- */

static uint32_t rng_next(uint32_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

/* Raw bits of a random element: any bits (infinities, NaNs, subnormals), or (narrow) a value
 * of exponent within a few binades of 1, where products cancel and carry. */
static uint32_t random_elem(enum tc_elem t, bool narrow, uint32_t *x)
{
	uint32_t r = rng_next(x);
	switch (t) {
	case TC_F16: return narrow ? (r & 0x83ff) | (13 + r % 5) << 10 : r & 0xffff;
	case TC_BF16: return narrow ? (r & 0x807f) | (125 + r % 5) << 7 : r & 0xffff;
	case TC_TF32: return narrow ? (r & 0x807fffff) | (125 + r % 5) << 23 : r;
	case TC_E4M3: return narrow ? (r & 0x87) | (5 + r % 5) << 3 : r & 0xff;
	default: return narrow ? (r & 0x83) | (13 + r % 5) << 2 : r & 0xff; /* e5m2 */
	}
}

static uint32_t random_acc(enum tc_acc acc, bool narrow, uint32_t *x)
{
	uint32_t r = rng_next(x);
	if (r % 7 == 0)
		return 0;
	if (acc == TC_ACC_F16)
		return narrow ? (r & 0x83ff) | (14 + r % 4) << 10 : r & 0xffff;
	return narrow ? (r & 0x807fffff) | (126 + r % 4) << 23 : r;
}

/* tc_dot_tile (B decoded by panels, vectorised over columns) gives every element exactly
 * as tc_dot_f32 / tc_dot_f16 give it one at a time: every type pair of wgmma, both
 * accumulators, wide and narrow values, a partial last panel. */
static void test_tc_tile_matches_single_dots(void **state)
{
	static const struct { enum tc_elem a, b; unsigned k; } pairs[] = {
		{TC_F16, TC_F16, 16}, {TC_BF16, TC_BF16, 16}, {TC_TF32, TC_TF32, 8},
		{TC_E4M3, TC_E4M3, 32}, {TC_E4M3, TC_E5M2, 32}, {TC_E5M2, TC_E4M3, 32},
		{TC_E5M2, TC_E5M2, 32}, {TC_F16, TC_F16, 32} /* two blocks: one at a time */,
	};
	enum { ROWS = 5, COLS = 21 };
	uint32_t x = 2463534242u, a[ROWS][32], b[COLS][32], c[ROWS][COLS], d[ROWS][COLS];
	struct tc_operand da[ROWS];
	struct tc_btile *bt = tc_btile_new();

	(void)state;
	assert_non_null(bt);
	for (unsigned p = 0; p < sizeof pairs / sizeof pairs[0]; p++)
		for (int acc = TC_ACC_F32; acc <= TC_ACC_F16; acc++)
			for (int round = 0; round < 40; round++) {
				bool narrow = round % 4 != 0;
				unsigned k = pairs[p].k;
				for (int r = 0; r < ROWS; r++) {
					for (unsigned i = 0; i < k; i++)
						a[r][i] = random_elem(pairs[p].a, narrow, &x);
					tc_operand_decode(pairs[p].a, a[r], k, &da[r]);
					for (int j = 0; j < COLS; j++)
						d[r][j] = c[r][j] = random_acc((enum tc_acc)acc, narrow, &x);
				}
				for (int j = 0; j < COLS; j++)
					for (unsigned i = 0; i < k; i++)
						b[j][i] = random_elem(pairs[p].b, narrow, &x);
				/* tc_dot_tile reads B as [column][k] with k elements a column */
				uint32_t packed[COLS * 32];
				for (int j = 0; j < COLS; j++)
					memcpy(packed + j * k, b[j], k * 4);
				tc_dot_tile(da, ROWS, pairs[p].b, packed, COLS, (enum tc_acc)acc, &d[0][0]);
				/* B decoded once (tc_btile) gives the same tile */
				uint32_t e[ROWS][COLS];
				memcpy(e, c, sizeof e);
				assert_true(tc_btile_decode(bt, pairs[p].b, packed, COLS, k));
				tc_dot_tile_b(da, ROWS, bt, (enum tc_acc)acc, &e[0][0]);
				assert_memory_equal(e, d, sizeof e);
				for (int r = 0; r < ROWS; r++)
					for (int j = 0; j < COLS; j++) {
						uint32_t want = acc == TC_ACC_F32
							? tc_dot_f32(pairs[p].a, pairs[p].b, a[r], b[j], k, c[r][j])
							: tc_dot_f16(pairs[p].a, pairs[p].b, a[r], b[j], k,
								     (uint16_t)c[r][j]);
						if (d[r][j] != want)
							fail_msg("%s x %s k%u acc %s: element (%d, %d): tile "
								 "%x, one at a time %x", tc_elem_name(pairs[p].a),
								 tc_elem_name(pairs[p].b), k,
								 acc == TC_ACC_F32 ? "f32" : "f16", r, j,
								 d[r][j], want);
					}
			}
	tc_btile_free(bt);
}

/* ---- forms ptxas emulates on sm_90 (tests/hw_tc/probes/ holds the H100's outputs) -------- */

/* m8n8k4 .f16 with an f32 D: a chain of fp32 FMAs from +0, each rounded to nearest even:
 * 1 + 2^-24 rounds back to 1 twice, where one rounding of the exact sum gives 1 + 2^-23. */
static void test_tc_m8n8k4_fma_chain(void **state)
{
	uint32_t a[4] = {0x3c00, 0x0001, 0x0001, 0}, b[4] = {0x3c00, 0x3c00, 0x3c00, 0x3c00};

	(void)state;
	assert_int_equal(tc_dot_m8n8k4_f32(a, b, 0), 0x3f800000);
	assert_int_equal(tc_dot_m8n8k4_f32(a, b, 0x80000000), 0x3f800000);
	a[3] = 0x7c00, b[3] = 0; /* inf x 0 */
	assert_int_equal(tc_dot_m8n8k4_f32(a, b, 0), 0x7fffffff);
	/* f16 D: (c + (a0 b0 + a1 b1)) + (a2 b2 + a3 b3), then rounded to f16 */
	uint32_t x[4] = {0x3c00, 0, 0x1000, 0x1000}; /* 1, 0, 2^-11, 2^-11 */
	b[3] = 0x3c00;
	assert_int_equal(tc_dot_m8n8k4_f16(x, b, 0), 0x3c01); /* 1 + 2^-10 */
	assert_int_equal(tc_dot_m8n8k4_f16(x, b, 0x7e00), 0x7fff);
}

/* fp8 mma.sync with an f16 accumulator: the two f16 blocks, then an f16 add of c rounded to
 * nearest even (1 + 1.5 ulp goes to 1 + 2 ulp; 1 + 0.5 ulp ties down to 1). */
static void test_tc_fp8_sm90_f16_add(void **state)
{
	uint32_t a[32] = {0x38}, b[32] = {0x38}; /* e4m3 1.0 at k = 0, zeros elsewhere */

	(void)state;
	assert_int_equal(tc_dot_fp8_sm90_f16(TC_E4M3, TC_E4M3, a, b, 32, 0x1600), 0x3c02);
	assert_int_equal(tc_dot_fp8_sm90_f16(TC_E4M3, TC_E4M3, a, b, 32, 0x1000), 0x3c00);
	assert_int_equal(tc_dot_fp8_sm90_f16(TC_E4M3, TC_E4M3, a, b, 16, 0x8000), 0x3c00);
}

/* cvt.rn.f16.f32: nearest even, subnormals kept, overflow from 65520 up, NaN 0x7fff. */
static void test_tc_f32_to_f16(void **state)
{
	(void)state;
	assert_int_equal(tc_f32_to_f16(0x477ff000), 0x7c00);  /* 65520 */
	assert_int_equal(tc_f32_to_f16(0x477fefff), 0x7bff);  /* just below */
	assert_int_equal(tc_f32_to_f16(0x33400000), 0x0001);  /* 0.75 of the least subnormal */
	assert_int_equal(tc_f32_to_f16(0x33000000), 0x0000);  /* 0.5 of it: ties to even */
	assert_int_equal(tc_f32_to_f16(0x80000000), 0x8000);
	assert_int_equal(tc_f32_to_f16(0x7fc00001), 0x7fff);
	assert_int_equal(tc_f32_to_f16(0x3f800000), 0x3c00);
}

/* ---- f16 accumulator --------------------------------------------------------------------- */

/* Round to nearest even: 1 + 2^-11 -> 1.0, 1 + 3 * 2^-11 -> 1 + 2^-9. */
static void test_tc_f16_rounds_to_nearest_even(void **state)
{
	uint32_t a[1] = {0x2400}, b[1] = {0x2800}; /* 2^-6, 2^-5 */

	(void)state;
	assert_int_equal(tc_dot_f16(TC_F16, TC_F16, a, b, 1, F16_ONE), F16_ONE);
	a[0] = 0x2600, b[0] = 0x2c00; /* 1.5 * 2^-6, 2^-4 */
	assert_int_equal(tc_dot_f16(TC_F16, TC_F16, a, b, 1, F16_ONE), 0x3c02);
	a[0] = 0x7e00;
	assert_int_equal(tc_dot_f16(TC_F16, TC_F16, a, b, 1, F16_ONE), 0x7fff);
}

/* ---- integers, b1, f64 ------------------------------------------------------------------- */

static void test_tc_int_wraps_or_clamps_final_sum(void **state)
{
	uint32_t a[2] = {0x7f, 0x80}, b[2] = {1, 1}; /* s8 127, -128 */

	(void)state;
	assert_int_equal(tc_dot_int(TC_S8, TC_S8, a, b, 1, INT32_MAX, false), INT32_MIN + 126);
	/* only the exact final sum is clamped, not the partial sum after +127 */
	assert_int_equal(tc_dot_int(TC_S8, TC_S8, a, b, 2, INT32_MAX, true), INT32_MAX - 1);
	assert_int_equal(tc_dot_int(TC_U8, TC_S8, a, b, 2, 0, false), 127 + 128);
	a[0] = 0x8, a[1] = 0xf; /* s4 -8, -1; u4 8, 15 */
	assert_int_equal(tc_dot_int(TC_S4, TC_U4, a, a, 2, 0, false), -64 - 15);
}

static void test_tc_b1_popc(void **state)
{
	uint32_t a[2] = {0xff00ff00u, 1}, b[2] = {0x0ff00ff0u, 3};

	(void)state;
	assert_int_equal(tc_dot_b1(TC_BOP_AND, a, b, 2, 5), 5 + 8 + 1);
	assert_int_equal(tc_dot_b1(TC_BOP_XOR, a, b, 2, 0), 16 + 1);
}

static void test_tc_f64_fma_chain(void **state)
{
	/* (1 + 2^-30)(1 - 2^-30) - 1 = -2^-60, seen only when the product is not rounded */
	uint64_t a[1] = {0x3ff0000000400000ull}, b[1] = {0x3fefffffff800000ull};

	(void)state;
	assert_int_equal(tc_dot_f64(a, b, 1, 0xbff0000000000000ull), 0xbc30000000000000ull);
	a[0] = 0x7ff0000000000001ull;
	b[0] = 0x7ff0000000000002ull;
	assert_int_equal(tc_dot_f64(a, b, 1, 0x7ff0000000000003ull), 0x7ff8000000000002ull);
	b[0] = 0x3ff0000000000000ull;
	assert_int_equal(tc_dot_f64(a, b, 1, 0x7ff0000000000003ull), 0x7ff8000000000003ull);
	assert_int_equal(tc_dot_f64(a, b, 1, 0), 0x7ff8000000000001ull);
	a[0] = 0x7ff0000000000000ull, b[0] = 0;
	assert_int_equal(tc_dot_f64(a, b, 1, 0), 0xfff8000000000000ull);
}

/* ---- the H100's outputs ------------------------------------------------------------------ */

static enum tc_elem elem_by_name(const char *s)
{
	for (int t = 0; t < TC__COUNT; t++)
		if (strcmp(tc_elem_name((enum tc_elem)t), s) == 0)
			return (enum tc_elem)t;
	fail_msg("unknown element type %s", s);
	return TC_F16;
}

static void test_tc_h100_mma_vectors(void **state)
{
	FILE *f = fopen(PTXI_SOURCE_ROOT "/tests/hw_tc/mma_cases.txt", "r");
	char fn[16], ta[8], tb[8];
	unsigned k, n = 0;
	uint32_t c, want, a[32], b[32];

	(void)state;
	assert_non_null(f);
	while (fscanf(f, " #%*[^\n]") == 0 || !feof(f)) {
		if (fscanf(f, "%15s %7s %7s %u %x %x", fn, ta, tb, &k, &c, &want) != 6)
			break;
		assert_true(k <= 32);
		for (unsigned i = 0; i < 2 * k; i++)
			assert_int_equal(fscanf(f, "%x", i < k ? &a[i] : &b[i - k]), 1);
		enum tc_elem xa = elem_by_name(ta), xb = elem_by_name(tb);
		uint32_t got = strcmp(fn, "f16") == 0 ? tc_dot_f16(xa, xb, a, b, k, (uint16_t)c)
			     : strcmp(fn, "fp8sm90") == 0 ? tc_dot_fp8_sm90_f32(xa, xb, a, b, k, c)
							  : tc_dot_f32(xa, xb, a, b, k, c);
		if (got != want)
			fail_msg("vector %u (%s %s k%u c=%x): H100 %x, ptxi %x", n, fn, ta, k, c, want, got);
		n++;
	}
	fclose(f);
	assert_true(n >= 280);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tc_f32_truncates_below_anchor),
		cmocka_unit_test(test_tc_f32_rounds_toward_zero),
		cmocka_unit_test(test_tc_f32_zero_is_positive),
		cmocka_unit_test(test_tc_f32_specials),
		cmocka_unit_test(test_tc_f32_overflow_is_inf),
		cmocka_unit_test(test_tc_tf32_ignores_low_bits),
		cmocka_unit_test(test_tc_fp8_native_and_sm90),
		cmocka_unit_test(test_tc_f32_block_after_block),
		cmocka_unit_test(test_tc_tile_matches_single_dots),
		cmocka_unit_test(test_tc_m8n8k4_fma_chain),
		cmocka_unit_test(test_tc_fp8_sm90_f16_add),
		cmocka_unit_test(test_tc_f32_to_f16),
		cmocka_unit_test(test_tc_f16_rounds_to_nearest_even),
		cmocka_unit_test(test_tc_int_wraps_or_clamps_final_sum),
		cmocka_unit_test(test_tc_b1_popc),
		cmocka_unit_test(test_tc_f64_fma_chain),
		cmocka_unit_test(test_tc_h100_mma_vectors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
