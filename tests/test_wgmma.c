/*
 * test_wgmma.c - src/hopper/wgmma_layout.c and src/check/wgmma_form.c: matrix descriptors as the manual
 * lays them out (the descriptors of the H100 cases in conformance/tensor), the 16-byte pieces
 * each layout addresses, the A and D fragments, and which opcode words are valid.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "check/wgmma_form.h"
#include "hopper/wgmma_layout.h"

/* The descriptors nvcc built in conformance/tensor/ptx/wgmma.ptx: start | 0x1000080000
 * (LBO 128, SBO 256) and start | 0x800100000 (LBO 256, SBO 128). */
static void test_descriptor_fields(void **state)
{
	(void)state;
	struct wg_desc d;
	wg_desc_decode(0x40 | 68720001024ull, &d);
	assert_int_equal(d.start, 0x400);
	assert_int_equal(d.lbo, 128);
	assert_int_equal(d.sbo, 256);
	assert_int_equal(d.swizzle, 0);
	wg_desc_decode(34360786944ull, &d);
	assert_int_equal(d.lbo, 256);
	assert_int_equal(d.sbo, 128);
	/* Triton's matmul: A 64B swizzle (mode 2), SBO 512; B 128B (mode 1), SBO 1024; 32B is
	 * mode 3; base offset bits 51-49 */
	wg_desc_decode(0x8000002000000000ull, &d);
	assert_int_equal(d.swizzle, 64);
	assert_int_equal(d.sbo, 512);
	wg_desc_decode(4611686293305294848ull, &d);
	assert_int_equal(d.swizzle, 128);
	assert_int_equal(d.sbo, 1024);
	wg_desc_decode(3ull << 62 | 5ull << 49 | 0x3fff, &d);
	assert_int_equal(d.swizzle, 32);
	assert_int_equal(d.base, 5);
	assert_int_equal(d.start, 0x3fff0);
}

static void test_kmajor_pieces(void **state)
{
	(void)state;
	struct wg_desc d = {.start = 0x400, .lbo = 128, .sbo = 256};
	/* core matrices of 8 rows x 16 bytes: rows at 16 bytes, the second K half at LBO, the
	 * next 8 rows at SBO */
	assert_int_equal(wg_piece_addr(&d, false, 0, 0), 0x400);
	assert_int_equal(wg_piece_addr(&d, false, 7, 0), 0x400 + 7 * 16);
	assert_int_equal(wg_piece_addr(&d, false, 3, 1), 0x400 + 3 * 16 + 128);
	assert_int_equal(wg_piece_addr(&d, false, 9, 1), 0x400 + 16 + 256 + 128);
	/* 128B swizzle: a row spans 128 bytes, K halves side by side, then the address swizzle
	 * (16-byte chunk ^= row bits 7-9) */
	struct wg_desc s = {.start = 0x2000, .sbo = 1024, .swizzle = 128};
	assert_int_equal(wg_piece_addr(&s, false, 0, 1), 0x2010);
	assert_int_equal(wg_piece_addr(&s, false, 1, 0), 0x2080 + (1 << 4));
	assert_int_equal(wg_piece_addr(&s, false, 3, 1), (0x2000 + 3 * 128 + 16) ^ (3 << 4));
	assert_int_equal(wg_piece_addr(&s, false, 10, 0), (0x2000 + 1024 + 2 * 128) ^ (2 << 4));
	/* 32B swizzle: rows of 32 bytes, chunk bit 4 ^= address bit 7 */
	struct wg_desc t = {.start = 0, .sbo = 256, .swizzle = 32};
	assert_int_equal(wg_piece_addr(&t, false, 4, 0), 128 ^ 16);
	assert_int_equal(wg_piece_addr(&t, false, 4, 1), 144 ^ 16);
	/* a base offset shifts where the pattern starts */
	struct wg_desc b = {.start = 0x80, .sbo = 1024, .swizzle = 128, .base = 1};
	assert_int_equal(wg_piece_addr(&b, false, 0, 0), 0x80);
	assert_int_equal(wg_piece_addr(&b, false, 1, 0), 0x100 + 16);
}

static void test_mnmajor_pieces(void **state)
{
	(void)state;
	/* wg_f16_f32_tnspa: M-major A of 64 x 16 f16, LBO 1024 (next 8 K), SBO 128 (next 8 M) */
	struct wg_desc d = {.start = 0, .lbo = 1024, .sbo = 128};
	assert_int_equal(wg_piece_addr(&d, true, 0, 0), 0);
	assert_int_equal(wg_piece_addr(&d, true, 5, 0), 80);
	assert_int_equal(wg_piece_addr(&d, true, 0, 7), 7 * 128);
	assert_int_equal(wg_piece_addr(&d, true, 9, 2), 1024 + 16 + 256);
	/* swizzled: 8 K rows of W bytes, W/16 pieces of MN side by side, the next at LBO */
	struct wg_desc s = {.start = 0, .lbo = 2048, .sbo = 1024, .swizzle = 64};
	assert_int_equal(wg_piece_addr(&s, true, 0, 3), 48);
	assert_int_equal(wg_piece_addr(&s, true, 0, 4), 2048);
	assert_int_equal(wg_piece_addr(&s, true, 2, 1), (2 * 64 + 16) ^ (1 << 4));
	assert_int_equal(wg_piece_addr(&s, true, 8, 0), 1024);
}

static void test_fragments(void **state)
{
	(void)state;
	unsigned row, col, k;
	/* D: lane 5 holds row 1 (and 9), columns 2-3 of each 8 */
	wg_d_elem(5, 0, &row, &col);
	assert_true(row == 1 && col == 2);
	wg_d_elem(5, 3, &row, &col);
	assert_true(row == 9 && col == 3);
	wg_d_elem(31, 127, &row, &col);
	assert_true(row == 15 && col == 255);
	/* A f16: e 0-1 row g k 2t.., e 2-3 row g+8, e 4-7 k + 8 */
	wg_a_elem(16, 6, 0, &row, &k);
	assert_true(row == 1 && k == 4);
	wg_a_elem(16, 6, 3, &row, &k);
	assert_true(row == 9 && k == 5);
	wg_a_elem(16, 6, 6, &row, &k);
	assert_true(row == 9 && k == 12);
	wg_a_elem(16, 6, 5, &row, &k);
	assert_true(row == 1 && k == 13);
	/* tf32: one element a register */
	wg_a_elem(32, 6, 1, &row, &k);
	assert_true(row == 9 && k == 2);
	wg_a_elem(32, 6, 2, &row, &k);
	assert_true(row == 1 && k == 6);
	/* 8-bit: four a register */
	wg_a_elem(8, 6, 5, &row, &k);
	assert_true(row == 9 && k == 9);
	wg_a_elem(8, 6, 15, &row, &k);
	assert_true(row == 9 && k == 27);
}

/* Parse the opcode words of `text` as instruction `op` with no operands. */
static const char *parse(enum ir_op op, const char *text, struct wg_form *f)
{
	static char buf[200];
	struct ir_insn in;
	memset(&in, 0, sizeof in);
	in.op = op;
	in.op_span.off = 0;
	in.op_span.len = (uint32_t)strlen(text);
	return wg_form_parse(text, &in, f, buf, sizeof buf);
}

static void test_forms(void **state)
{
	(void)state;
	struct wg_form f;
	assert_null(parse(OP_WGMMA_MMA_ASYNC, "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16", &f));
	assert_true(f.m == 64 && f.n == 256 && f.k == 16 && f.d == WG_F32 && f.a == WG_BF16);
	assert_int_equal(wg_d_regs(&f), 128);
	assert_null(parse(OP_WGMMA_MMA_ASYNC, "wgmma.mma_async.sync.aligned.m64n24k32.s32.u8.s8", &f));
	assert_null(parse(OP_WGMMA_MMA_ASYNC, "wgmma.mma_async.sync.aligned.m64n8k32.satfinite.s32.s8.s8", &f));
	assert_true(f.satfinite);
	assert_null(parse(OP_WGMMA_MMA_ASYNC, "wgmma.mma_async.sync.aligned.m64n64k256.s32.b1.b1.and.popc", &f));
	assert_true(f.popc_and);
	assert_null(parse(OP_WGMMA_MMA_ASYNC, "wgmma.mma_async.sync.aligned.m64n40k32.f16.e5m2.e4m3", &f));
	assert_int_equal(wg_d_regs(&f), 10);
	assert_null(parse(OP_WGMMA_MMA_ASYNC, "wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16", &f));
	assert_true(f.sparse);
	assert_string_equal(parse(OP_WGMMA_MMA_ASYNC, "wgmma.mma_async.sync.aligned.m64n8k16.f16.bf16.bf16", &f),
			    "wgmma.mma_async with .bf16 inputs cannot accumulate in .f16");
	assert_non_null(strstr(parse(OP_WGMMA_MMA_ASYNC, "wgmma.mma_async.sync.aligned.m64n40k32.s32.s8.s8", &f),
			       "no shape .m64n40k32"));
	assert_non_null(strstr(parse(OP_WGMMA_MMA_ASYNC, "wgmma.mma_async.sync.aligned.m64n8k8.f32.f16.f16", &f),
			       "no shape .m64n8k8"));
	assert_string_equal(parse(OP_WGMMA_MMA_ASYNC, "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.bf16", &f),
			    "wgmma.mma_async has no form with A .f16 and B .bf16");
	assert_string_equal(parse(OP_WGMMA_MMA_ASYNC, "wgmma.mma_async.aligned.m64n8k16.f32.f16.f16", &f),
			    "wgmma.mma_async needs .sync");
	assert_string_equal(parse(OP_WGMMA_MMA_ASYNC, "wgmma.mma_async.sync.aligned.m64n8k16.satfinite.f32.f16.f16", &f),
			    ".satfinite is only for the integer forms of wgmma.mma_async");
	assert_string_equal(parse(OP_WGMMA_MMA_ASYNC, "wgmma.mma_async.sync.aligned.m64n8k256.s32.b1.b1", &f),
			    "the b1 form of wgmma.mma_async needs .and.popc");
	assert_null(parse(OP_WGMMA_WAIT_GROUP, "wgmma.wait_group.sync.aligned", &f));
	assert_string_equal(parse(OP_WGMMA_FENCE, "wgmma.fence.sync.aligned.cta", &f),
			    "unexpected modifier '.cta' on wgmma.fence");
	assert_null(parse(OP_SETMAXNREG, "setmaxnreg.inc.sync.aligned.u32", &f));
	assert_true(f.inc);
	assert_string_equal(parse(OP_SETMAXNREG, "setmaxnreg.sync.aligned.u32", &f),
			    "setmaxnreg needs .inc or .dec right after its name");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_descriptor_fields),
		cmocka_unit_test(test_kmajor_pieces),
		cmocka_unit_test(test_mnmajor_pieces),
		cmocka_unit_test(test_fragments),
		cmocka_unit_test(test_forms),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
