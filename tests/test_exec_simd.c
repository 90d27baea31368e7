/*
 * test_exec_simd.c - packed 16-bit integer arithmetic (add/min/max .u16x2/.s16x2, min/max.relu
 * .s16x2) and the SIMD video instructions (vadd2 ... vset4) of exec_int.c against an H100:
 * tests/hw_simd/forms.txt lists the instruction forms, inputs.bin the cases (a, b, c words)
 * and results.bin the H100's d for every form and case (made by tests/hw_simd/gen.py). Plus
 * the words of tests/programs/pending/repro/simd.ptx and the forms alu_prepare must refuse.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "run/exec_alu.h"
#include "helpers.h"

#ifndef PTXI_SOURCE_ROOT
#define PTXI_SOURCE_ROOT "."
#endif



/* Decode "vabsdiff4.u32.u32.u32.add" into an alu_insn the way the loader is asked to (see the
 * comment above vop_decode in exec_int.c): types in order into type, type2, boolop (vset:
 * boolop = btype too), .add into mode, comparisons into cmp, .sat/.relu into flags. */
static bool insn_from_name(const char *name, int nsrc, struct alu_insn *ai)
{
	return alu_from_name(name, nsrc, ai);
}

static uint32_t run1(const struct alu_insn *ai, uint32_t a, uint32_t b, uint32_t c)
{
	uint64_t A[LANES], B[LANES], C[LANES], D[LANES];
	for (int l = 0; l < LANES; l++) {
		A[l] = a | 0xdead000000000000ull; /* junk above the 32 bits is ignored */
		B[l] = b;
		C[l] = c;
		D[l] = 0x5555;
	}
	struct alu_args x = {.d = D, .a = A, .b = B, .c = C};
	ai->fn(ai, &x, 1u << 7);
	assert_int_equal(D[0], 0x5555); /* lanes outside the mask are untouched */
	return (uint32_t)D[7];
}

static void *slurp(const char *name, size_t *len)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/tests/hw_simd/%s", PTXI_SOURCE_ROOT, name);
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "cannot open %s\n", path);
		return NULL;
	}
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	void *p = malloc((size_t)n + 1);
	if (fread(p, 1, (size_t)n, f) != (size_t)n) {
		free(p);
		p = NULL;
	}
	fclose(f);
	((char *)p)[n] = 0;
	*len = (size_t)n;
	return p;
}

static uint32_t le32(const unsigned char *p)
{
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Every form, every case, all 32 lanes at once (a full-warp mask takes the counted loop). */
static void test_h100_vectors(void **state)
{
	(void)state;
	size_t lf, li, lr;
	char *forms = slurp("forms.txt", &lf);
	unsigned char *in = slurp("inputs.bin", &li), *res = slurp("results.bin", &lr);
	assert_non_null(forms);
	assert_non_null(in);
	assert_non_null(res);
	size_t ncase = li / 12;
	assert_true(ncase >= LANES && ncase % LANES == 0);
	int nform = 0, bad_forms = 0;
	long cases = 0, bad = 0;
	char *save = NULL;
	for (char *line = strtok_r(forms, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#' || !line[0])
			continue;
		char name[96];
		int nsrc;
		assert_int_equal(sscanf(line, "%95s %d", name, &nsrc), 2);
		assert_true((size_t)(nform + 1) * ncase * 4 <= lr);
		struct alu_insn ai;
		assert_true(insn_from_name(name, nsrc, &ai));
		const char *why = NULL;
		if (alu_prepare(&ai, &why) != 0) {
			print_error("%s: refused (%s)\n", name, why ? why : "?");
			bad_forms++;
			nform++;
			continue;
		}
		int shown = 0;
		long wrong = 0;
		for (size_t k = 0; k < ncase; k += LANES) {
			uint64_t A[LANES], B[LANES], C[LANES], D[LANES];
			for (int l = 0; l < LANES; l++) {
				const unsigned char *p = in + 12 * (k + l);
				A[l] = le32(p);
				B[l] = le32(p + 4);
				C[l] = le32(p + 8);
			}
			struct alu_args x = {.d = D, .a = A, .b = B, .c = C};
			ai.fn(&ai, &x, 0xffffffffu);
			for (int l = 0; l < LANES; l++) {
				uint32_t want = le32(res + 4 * ((size_t)nform * ncase + k + l));
				cases++;
				if (D[l] != want) {
					wrong++;
					if (shown++ < 3)
						print_error("%s a=%08x b=%08x c=%08x: ptxi %08llx, "
							    "H100 %08x\n", name, (unsigned)A[l],
							    (unsigned)B[l], (unsigned)C[l],
							    (unsigned long long)D[l], want);
				}
			}
		}
		bad += wrong;
		bad_forms += wrong != 0;
		nform++;
	}
	print_message("simd: %d forms, %ld cases, %ld differ (%d forms)\n", nform, cases, bad,
		      bad_forms);
	assert_true(nform >= 392);
	assert_int_equal(bad, 0);
	assert_int_equal(bad_forms, 0);
	free(forms);
	free(in);
	free(res);
}

/* tests/programs/pending/repro/simd.ptx: H100 words for single instructions. */
static void test_repro_words(void **state)
{
	(void)state;
	static const struct {
		const char *name;
		int nsrc;
		uint32_t a, b, c, want;
	} t[] = {
		{"add.u16x2", 2, 0x7fff8000, 0x00018001, 0, 0x80000001},
		{"add.s16x2", 2, 0x7fff8000, 0x00018001, 0, 0x80000001},
		{"max.u16x2", 2, 0x7fff8000, 0x00018001, 0, 0x7fff8001},
		{"min.u16x2", 2, 0x7fff8000, 0x00018001, 0, 0x00018000},
		{"max.s16x2", 2, 0x7fff8000, 0x00018001, 0, 0x7fff8001},
		{"min.s16x2", 2, 0x12345678, 0x87654321, 0, 0x87654321},
		{"vabsdiff4.u32.u32.u32", 3, 0x12345678, 0x87654321, 0, 0x75311357},
		{"vabsdiff4.u32.u32.u32.add", 3, 0x12345678, 0x87654321, 1000, 0x000004f8},
		{"vabsdiff2.u32.u32.u32.add", 3, 0x12345678, 0x87654321, 1000, 0x00008c70},
		{"vabsdiff4.s32.s32.s32", 3, 0x12345678, 0x87654321, 1000, 0x8b311357},
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		struct alu_insn ai;
		assert_true(insn_from_name(t[i].name, t[i].nsrc, &ai));
		assert_int_equal(alu_prepare(&ai, NULL), 0);
		uint32_t got = run1(&ai, t[i].a, t[i].b, t[i].c);
		if (got != t[i].want)
			print_error("%s: ptxi %08x, H100 %08x\n", t[i].name, got, t[i].want);
		assert_int_equal(got, t[i].want);
	}
}

/* Forms ptxas 13.0 rejects (or that need loader fields) are refused with a reason. */
static void test_refused(void **state)
{
	(void)state;
	static const struct {
		const char *name;
		int nsrc;
	} t[] = {
		{"sub.u16x2", 2}, {"sub.s16x2", 2}, {"add.sat.s16x2", 2}, {"neg.s16x2", 1},
		{"abs.s16x2", 1}, {"mul.lo.u16x2", 2}, {"min.relu.u16x2", 2}, {"max.s16x2", 3},
		{"vadd2.u32.u32.u32.sat.add", 3}, {"vabsdiff4.u32.u32.u32", 2},
		{"vadd2.u32.u32.u32.min", 3}, {"vset2.u32.u32.lt.sat", 3}, {"vadd4.u16.u32.u32", 3},
		{"vset4.u32.u32", 3},
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		struct alu_insn ai;
		assert_true(insn_from_name(t[i].name, t[i].nsrc, &ai));
		const char *why = NULL;
		if (alu_prepare(&ai, &why) == 0)
			print_error("%s: accepted\n", t[i].name);
		assert_int_equal(alu_prepare(&ai, &why), -1);
		assert_non_null(why);
	}
	/* A loader that does not pass btype (boolop) must not get a silently wrong .add. */
	struct alu_insn ai;
	assert_true(insn_from_name("vabsdiff4.u32.u32.add", 3, &ai));
	const char *why = NULL;
	assert_int_equal(alu_prepare(&ai, &why), -1);
	assert_non_null(strstr(why, "loader"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_repro_words),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_h100_vectors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
