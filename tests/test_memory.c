/*
 * test_memory.c - src/run/memory.c's scratch: each thread's part (issue 25). Two threads'
 * frames taken in turn from one stretch lay interleaved and made --jobs 2 run reduce_smem
 * 1.6x slower than two processes; each thread now takes its bytes from a contiguous part of
 * its own. These tests take from two parts in turn, as two workers do, and check that each
 * part's bytes stay contiguous and apart from the other's, 64-byte aligned and zero.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "run/memory.h"

#define PART (64u << 10) /* memory.c's SCRATCH_PART_MIN: the least a part holds */

static bool all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

/* Taken in turn, each part's allocations follow one another, and neither part's bytes lie
 * between the other's (one shared stretch put them a, b, a, b). */
static void test_parts_stay_apart(void **state)
{
	(void)state;
	struct memory *m = mem_create();
	assert_non_null(m);
	mem_scratch_expect(m, 40000, 2);
	struct scratch_part a = {0, 0}, b = {0, 0};
	uint8_t *pa[8], *pb[8];
	for (int i = 0; i < 8; i++) {
		pa[i] = mem_scratch_calloc(m, &a, 1000);
		pb[i] = mem_scratch_calloc(m, &b, 1000);
		assert_true((uintptr_t)pa[i] % 64 == 0 && (uintptr_t)pb[i] % 64 == 0);
		assert_true(all_zero(pa[i], 1000) && all_zero(pb[i], 1000));
		memset(pa[i], 0xa5, 1000);
		memset(pb[i], 0x5a, 1000);
	}
	for (int i = 1; i < 8; i++) { /* 1000 bytes: 1024 with their cache lines */
		assert_ptr_equal(pa[i], pa[i - 1] + 1024);
		assert_ptr_equal(pb[i], pb[i - 1] + 1024);
	}
	assert_true(pb[0] >= pa[7] + 1024 || pa[0] >= pb[7] + 1024);
	mem_destroy(m);
}

/* A part holds what a thread is expected to take (rounded up to PART), so that a worker's
 * frames all lie in one; an allocation past its end starts a new part, not shared. */
static void test_part_size_and_refill(void **state)
{
	(void)state;
	struct memory *m = mem_create();
	assert_non_null(m);
	mem_scratch_expect(m, PART + 1, 2); /* two parts of 2 * PART each */
	struct scratch_part a = {0, 0}, b = {0, 0};
	uint8_t *a0 = mem_scratch_calloc(m, &a, 64);
	uint8_t *b0 = mem_scratch_calloc(m, &b, 64);
	assert_ptr_equal(b0, a0 + 2 * PART);
	uint8_t *a1 = mem_scratch_calloc(m, &a, 2 * PART - 64); /* the rest of a's part */
	assert_ptr_equal(a1, a0 + 64);
	uint8_t *a2 = mem_scratch_calloc(m, &a, 64); /* a new part, after b's */
	assert_ptr_equal(a2, b0 + 2 * PART);
	uint8_t *big = mem_scratch_calloc(m, &b, 3 * PART); /* more than a part holds */
	assert_ptr_equal(big, a2 + 2 * PART);
	mem_destroy(m);
}

/* After the launch (mem_scratch_reset) the next one's parts hold zeros again where the
 * last one wrote; without a scratch (no mem_scratch_expect) each gets calloc's bytes. */
static void test_reset_zeroes_and_fallback(void **state)
{
	(void)state;
	struct memory *m = mem_create();
	assert_non_null(m);
	struct scratch_part a = {0, 0};
	uint8_t *c = mem_scratch_calloc(m, &a, 100); /* no scratch: the heap's */
	assert_non_null(c);
	assert_true(all_zero(c, 100));
	mem_scratch_free(m, c);
	mem_scratch_expect(m, 4096, 1);
	uint8_t *p = mem_scratch_calloc(m, &a, 4096);
	memset(p, 0xff, 4096);
	mem_scratch_reset(m);
	a = (struct scratch_part){0, 0};
	uint8_t *q = mem_scratch_calloc(m, &a, 4096);
	assert_ptr_equal(q, p);
	assert_true(all_zero(q, 4096));
	mem_destroy(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parts_stay_apart),
		cmocka_unit_test(test_part_size_and_refill),
		cmocka_unit_test(test_reset_zeroes_and_fallback),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
