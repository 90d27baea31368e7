/*
 * test_gemm.c - the warp-specialised GEMM sample (ptx_samples/gemm/ws_gemm.ptx: a TMA
 * producer warp, two wgmma consumer warpgroups, a ring of full/empty mbarriers) computes
 * C = A x B^T right: every element of C against a reference computed here, in double, on
 * inputs whose sums are exact in f32 (quarters in [-2, 2], K = 256), so the bits must agree
 * whatever the tensor cores' rounding. Under the default schedule and seeded ones, with the
 * data-race detector on: a clean run is part of the result.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ptxi/ptxi.h"

#ifndef PTXI_SOURCE_ROOT
#define PTXI_SOURCE_ROOT "."
#endif

enum { M = 128, N = 128, K = 256 };

/* f16 bits of q / 4, |q| <= 8 (exact: at most 4 significant bits). */
static uint16_t f16_quarter(int q)
{
	if (q == 0)
		return 0;
	uint16_t sign = q < 0 ? 0x8000 : 0;
	unsigned m = (unsigned)abs(q);
	int e = 31 - __builtin_clz(m); /* q / 4 = m * 2^-2 = 1.f * 2^(e - 2) */
	unsigned frac = (m << (10 - e)) & 0x3ff;
	return sign | (uint16_t)((e - 2 + 15) << 10) | (uint16_t)frac;
}

struct inputs {
	int qa[M][K], qb[N][K];  /* values times 4 */
	uint16_t a[M][K], b[N][K];
};

static void make_inputs(struct inputs *in)
{
	uint32_t x = 12345;
	for (int pass = 0; pass < 2; pass++)
		for (int r = 0; r < 128; r++)
			for (int k = 0; k < K; k++) {
				x = x * 1103515245u + 12345u;
				int q = (int)(x >> 16) % 17 - 8;
				if (pass == 0) {
					in->qa[r][k] = q;
					in->a[r][k] = f16_quarter(q);
				} else {
					in->qb[r][k] = q;
					in->b[r][k] = f16_quarter(q);
				}
			}
}

static void sink(void *ctx, int level, const char *text)
{
	(void)ctx;
	(void)level;
	fprintf(stderr, "%s\n", text);
}

static void tmap_arg(struct ptxi_arg *a, const char *spec)
{
	char why[200];
	memset(a, 0, sizeof *a);
	a->kind = PTXI_ARG_TMAP;
	a->spec = spec;
	if (ptxi_tmap_parse(spec, &a->tmap, &a->tmap_buf, &a->tmap_off, why, sizeof why) != PTXI_OK)
		fail_msg("tensor map %s: %s", spec, why);
}

static void run_gemm(uint64_t seed)
{
	static struct inputs in;
	make_inputs(&in);
	ptxi_module *m = ptxi_module_load(PTXI_SOURCE_ROOT "/ptx_samples/gemm/ws_gemm.ptx", sink,
					  NULL);
	assert_non_null(m);
	assert_int_equal(ptxi_module_errors(m), 0);

	struct ptxi_arg args[5];
	tmap_arg(&args[0], "buf=2,type=f16,dims=256x128,strides=512,box=64x128,swizzle=128B");
	tmap_arg(&args[1], "buf=3,type=f16,dims=256x128,strides=512,box=64x64,swizzle=128B");
	for (int i = 2; i < 5; i++) {
		memset(&args[i], 0, sizeof args[i]);
		args[i].kind = PTXI_ARG_BUFFER;
		args[i].bytes = 65536;
		args[i].spec = "buf";
	}
	args[2].init = in.a;
	args[3].init = in.b;
	struct ptxi_config cfg = {.grid = {2, 1, 1}, .block = {384, 1, 1}, .cluster = {1, 1, 1},
				  .dyn_shared = 49184, .seed = seed};
	ptxi_run *run = NULL;
	assert_int_equal(ptxi_launch(m, &cfg, args, 5, &run), PTXI_OK);

	size_t bytes = 0;
	const float *c = ptxi_run_buffer(run, 4, &bytes);
	assert_non_null(c);
	assert_int_equal(bytes, (size_t)M * N * 4);
	unsigned bad = 0;
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			double sum = 0;
			for (int k = 0; k < K; k++)
				sum += in.qa[i][k] * in.qb[j][k] / 16.0;
			float want = (float)sum, got = c[i * N + j];
			if (memcmp(&want, &got, 4) != 0 && bad++ < 5)
				fprintf(stderr, "C[%d][%d]: reference %a, ptxi %a\n", i, j, want, got);
		}
	assert_int_equal(bad, 0);
	ptxi_run_free(run);
	ptxi_module_free(m);
}

static void test_gemm_default_schedule(void **state)
{
	(void)state;
	run_gemm(0);
}

static void test_gemm_seeded_schedules(void **state)
{
	(void)state;
	for (uint64_t seed = 1; seed <= 3; seed++)
		run_gemm(seed);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gemm_default_schedule),
		cmocka_unit_test(test_gemm_seeded_schedules),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
