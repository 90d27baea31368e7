/*
 * test_pages.c - src/support/pages.c: a mapping starts at the alignment asked for, is zero
 * and writable to its last byte, and keeps nothing mapped past its end (the extra bytes
 * mapped for the alignment are given back).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "support/pages.h"

/* Whether the small page holding p is mapped (msync fails with ENOMEM where it is not). */
static bool mapped(const void *p)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	void *page = (void *)((uintptr_t)p & ~(uintptr_t)(pg - 1));
	return msync(page, pg, MS_ASYNC) == 0 || errno != ENOMEM;
}

static void check_map(size_t size, size_t align, bool noreserve)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	uint8_t *p = pages_map(size, align, noreserve);
	assert_non_null(p);
	assert_int_equal((uintptr_t)p % (align > pg ? align : pg), 0);
	assert_int_equal(p[0], 0);
	assert_int_equal(p[size - 1], 0);
	p[0] = 1;
	p[size - 1] = 2;
	assert_true(mapped(p + size - 1));
	/* the page after the last one is no longer this mapping's */
	size_t end = (size + pg - 1) / pg * pg;
	if (align > pg)
		assert_false(mapped(p + end));
	assert_int_equal(munmap(p, size), 0);
}

static void test_pages_huge_aligned(void **state)
{
	(void)state;
	check_map(PAGES_HUGE, PAGES_HUGE, false);
	check_map(3 * PAGES_HUGE, PAGES_HUGE, true);
}

/* a size that is not a whole number of small pages: the tail given back starts at the
 * next page boundary (munmap refuses an address inside a page) */
static void test_pages_odd_size(void **state)
{
	(void)state;
	check_map(PAGES_HUGE / 2 + 100, PAGES_HUGE, true);
	check_map(5000, PAGES_HUGE, false);
}

static void test_pages_small_align(void **state)
{
	(void)state;
	check_map(128u << 10, 0, false);
	check_map(4096, 1, true);
}

static void test_pages_refuses_zero_and_huge(void **state)
{
	(void)state;
	assert_null(pages_map(0, PAGES_HUGE, false));
	assert_null(pages_map(SIZE_MAX - 10, PAGES_HUGE, true));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pages_huge_aligned),
		cmocka_unit_test(test_pages_odd_size),
		cmocka_unit_test(test_pages_small_align),
		cmocka_unit_test(test_pages_refuses_zero_and_huge),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
