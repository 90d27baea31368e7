/*
 * test_relaunch.c - the library keeps a module usable whatever a launch reports: one module
 * is launched many times, good launches between bad ones (wrong arguments, a broken rule,
 * a deadlock, the step limit), and each launch gives its own status, its own message and,
 * when good, the right bytes. A module that fails to load says so on every launch.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "ptxi/ptxi.h"

#define HDR ".version 8.0\n.target sm_90\n.address_size 64\n"

/* out[tid] = tid * mul; mul == 0 makes thread 0 write past the buffer, mul == 1 makes it
 * trap, mul == 2 makes every thread spin forever. */
static const char kernel[] = HDR
	".visible .entry k(.param .u64 out, .param .u32 mul)\n"
	"{\n"
	"  .reg .u32 %r<4>;\n"
	"  .reg .u64 %rd<4>;\n"
	"  .reg .pred %p;\n"
	"  ld.param.u64 %rd0, [out];\n"
	"  ld.param.u32 %r1, [mul];\n"
	"  cvta.to.global.u64 %rd0, %rd0;\n"
	"  mov.u32 %r0, %tid.x;\n"
	"  setp.eq.u32 %p, %r1, 2;\n"
	"SPIN:\n"
	"  @%p bra SPIN;\n"
	"  setp.ne.u32 %p, %r1, 1;\n"
	"  @%p bra GO;\n"
	"  setp.eq.u32 %p, %r0, 0;\n"
	"  @%p trap;\n"
	"GO:\n"
	"  mul.lo.u32 %r2, %r0, %r1;\n"
	"  setp.eq.u32 %p, %r1, 0;\n"
	"  @%p mov.u32 %r0, 100000;\n"
	"  mul.wide.u32 %rd1, %r0, 4;\n"
	"  add.u64 %rd1, %rd0, %rd1;\n"
	"  st.global.u32 [%rd1], %r2;\n"
	"  ret;\n"
	"}\n";

struct seen {
	char first[256];
	unsigned n;
};

static void record(void *ctx, int level, const char *text)
{
	struct seen *s = ctx;
	if (level != 0)
		return;
	if (s->n++ == 0) {
		size_t k = strcspn(text, "\n");
		k = k < sizeof s->first - 1 ? k : sizeof s->first - 1;
		memcpy(s->first, text, k);
		s->first[k] = '\0';
	}
}

static int launch(ptxi_module *m, unsigned nargs, uint32_t mul, uint32_t *words)
{
	struct ptxi_arg args[2] = {
		{.kind = PTXI_ARG_BUFFER, .bytes = 32 * 4, .spec = "buf:128"},
		{.kind = PTXI_ARG_SCALAR, .size = 4, .value = mul, .spec = "u32"},
	};
	struct ptxi_config cfg = {.grid = {1, 1, 1}, .block = {32, 1, 1}, .cluster = {1, 1, 1},
				  .max_steps = 100000};
	ptxi_run *run = NULL;
	int st = ptxi_launch(m, &cfg, args, nargs, &run);
	size_t n = 0;
	const void *buf = run ? ptxi_run_buffer(run, 0, &n) : NULL;
	if (words && buf && n == 32 * 4)
		memcpy(words, buf, n);
	ptxi_run_free(run);
	return st;
}

static void good_launch(ptxi_module *m, struct seen *s, uint32_t mul)
{
	uint32_t words[32] = {0};
	s->n = 0;
	assert_int_equal(launch(m, 2, mul, words), PTXI_OK);
	assert_int_equal(s->n, 0);
	for (uint32_t i = 0; i < 32; i++)
		assert_int_equal(words[i], i * mul);
}

static void bad_launch(ptxi_module *m, struct seen *s, unsigned nargs, uint32_t mul,
		       int status, const char *message)
{
	s->n = 0;
	s->first[0] = '\0';
	assert_int_equal(launch(m, nargs, mul, NULL), status);
	assert_true(s->n >= 1);
	assert_non_null(strstr(s->first, message));
}

static void test_relaunch_after_errors(void **state)
{
	(void)state;
	struct seen s = {0};
	ptxi_module *m = ptxi_module_load_string("k.ptx", kernel, record, &s);
	assert_non_null(m);
	assert_int_equal(ptxi_module_errors(m), 0);
	for (int round = 0; round < 20; round++) {
		good_launch(m, &s, 3);
		bad_launch(m, &s, 1, 3, PTXI_INVALID, "kernel 'k' takes 2 parameters; 1 --arg given");
		good_launch(m, &s, 5);
		bad_launch(m, &s, 2, 0, PTXI_RULE, "is outside every allocation: it ends");
		good_launch(m, &s, 7);
		bad_launch(m, &s, 2, 1, PTXI_RULE, "trap executed [trap]");
		good_launch(m, &s, 9);
		bad_launch(m, &s, 2, 2, PTXI_DEADLOCK, "spin forever");
	}
	assert_int_equal(ptxi_module_errors(m), 0);
	ptxi_module_free(m);
}

/* A module the loader rejects: every launch reports it, not only the first. */
static void test_load_failure_every_time(void **state)
{
	(void)state;
	static const char bad[] = HDR
		".func f(.param .b8 x[16])\n{\n  ret;\n}\n"
		".visible .entry k()\n{\n  .param .b8 a[4];\n  call f, (a);\n  ret;\n}\n";
	struct seen s = {0};
	ptxi_module *m = ptxi_module_load_string("bad.ptx", bad, record, &s);
	assert_int_equal(ptxi_module_errors(m), 0);
	for (int i = 0; i < 3; i++) {
		s.n = 0;
		struct ptxi_config cfg = {.grid = {1, 1, 1}, .block = {1, 1, 1}, .cluster = {1, 1, 1}};
		assert_int_equal(ptxi_launch(m, &cfg, NULL, 0, NULL), PTXI_INVALID);
		assert_true(s.n >= 1);
	}
	ptxi_module_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_relaunch_after_errors),
		cmocka_unit_test(test_load_failure_every_time),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
