/*
 * test_jit_map.c - perf's names for the native tier's code (src/run/jit_map.h): with
 * PTXI_PERF_MAP=1 a launch appends "START SIZE ptxi FUNC:LINE[-LINE] WHAT" lines to
 * /tmp/perf-<pid>.map, one per piece of code, in ascending order, never overlapping, each
 * inside an executable mapping of this process while the module lives, naming lines of the
 * kernel; without it, no map is written.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "ptxi/ptxi.h"

/* lines 5-19 are the kernel's instructions: a block, ld/st.shared and a bar.sync, so both
 * block and segment code are made */
static const char kernel[] =
	".version 8.0\n.target sm_90\n.address_size 64\n"
	".visible .entry k(.param .u64 out)\n{\n"                          /* 4-5 */
	"  .reg .u32 %r<8>;\n  .reg .u64 %rd<4>;\n"                         /* 6-7 */
	"  .shared .align 4 .b8 s[128];\n"                                  /* 8 */
	"  ld.param.u64 %rd0, [out];\n"                                     /* 9 */
	"  cvta.to.global.u64 %rd0, %rd0;\n"                                /* 10 */
	"  mov.u32 %r0, %tid.x;\n"                                          /* 11 */
	"  shl.b32 %r1, %r0, 2;\n  mov.u32 %r2, s;\n  add.u32 %r3, %r2, %r1;\n" /* 12-14 */
	"  st.shared.u32 [%r3], %r0;\n"                                     /* 15 */
	"  bar.sync 0;\n"                                                   /* 16 */
	"  ld.shared.u32 %r4, [%r3];\n  add.u32 %r4, %r4, 1;\n"             /* 17-18 */
	"  mul.wide.u32 %rd1, %r0, 4;\n  add.u64 %rd1, %rd0, %rd1;\n"       /* 19-20 */
	"  st.global.u32 [%rd1], %r4;\n  ret;\n}\n";                        /* 21-23 */

static char path[64];

static void launch(ptxi_module *m)
{
	struct ptxi_arg arg = {.kind = PTXI_ARG_BUFFER, .bytes = 32 * 4, .spec = "buf:128"};
	struct ptxi_config cfg = {.grid = {1, 1, 1}, .block = {32, 1, 1}, .cluster = {1, 1, 1},
				  .max_steps = 100000};
	ptxi_run *run = NULL;
	assert_int_equal(ptxi_launch(m, &cfg, &arg, 1, &run), PTXI_OK);
	size_t n = 0;
	const uint32_t *w = ptxi_run_buffer(run, 0, &n);
	assert_int_equal(n, 32 * 4);
	for (uint32_t i = 0; i < 32; i++)
		assert_int_equal(w[i], i + 1);
	ptxi_run_free(run);
}

/* whether [a, a + n) lies in one executable mapping of this process */
static int in_code(unsigned long a, unsigned long n)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	int in = 0;
	while (f && fgets(line, sizeof line, f)) {
		unsigned long lo, hi;
		char perm[8];
		if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perm) == 3 && perm[2] == 'x' &&
		    a >= lo && a + n <= hi)
			in = 1;
	}
	if (f)
		fclose(f);
	return in;
}

static void test_map(void **state)
{
	(void)state;
	__builtin_cpu_init();
	if (!__builtin_cpu_supports("avx2"))
		skip(); /* no native tier: nothing to name */
	snprintf(path, sizeof path, "/tmp/perf-%ld.map", (long)getpid());
	remove(path);
	unsetenv("PTXI_PERF_MAP");
	ptxi_module *off = ptxi_module_load_string("k.ptx", kernel, NULL, NULL);
	launch(off);
	assert_null(fopen(path, "r"));
	setenv("PTXI_PERF_MAP", "1", 1);
	ptxi_module *m = ptxi_module_load_string("k.ptx", kernel, NULL, NULL);
	launch(m);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	char line[512];
	unsigned long prev_end = 0;
	unsigned nblock = 0, nld = 0, nst = 0, nbar = 0;
	while (fgets(line, sizeof line, f)) {
		unsigned long a, n;
		unsigned l0, l1;
		int at = 0;
		assert_int_equal(sscanf(line, "%lx %lx ptxi k:%u%n", &a, &n, &l0, &at), 3);
		assert_true(n > 0 && a >= prev_end);
		assert_true(in_code(a, n));
		prev_end = a + n;
		l1 = l0;
		if (line[at] == '-') {
			int more = 0;
			assert_int_equal(sscanf(line + at, "-%u%n", &l1, &more), 1);
			at += more;
		}
		assert_true(l0 >= 9 && l0 <= l1 && l1 <= 22);
		assert_int_equal(line[at], ' ');
		const char *what = line + at + 1;
		nblock += !strcmp(what, "block\n");
		nld += !strcmp(what, "seg ld.shared\n") && l0 == 17;
		nst += !strcmp(what, "seg st.shared\n") && l0 == 15;
		nbar += !strcmp(what, "seg bar.sync\n") && l0 == 16;
	}
	fclose(f);
	assert_true(nblock >= 2);
	assert_int_equal(nld, 1);
	assert_int_equal(nst, 1);
	assert_int_equal(nbar, 1);
	remove(path);
	unsetenv("PTXI_PERF_MAP");
	ptxi_module_free(m);
	ptxi_module_free(off);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_map),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
