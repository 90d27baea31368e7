/*
 * test_grow.c - src/support/grow.c: the doubling array's capacities, exactly, and its refusals
 * (a size that would not fit a size_t leaves the array as it was).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "support/grow.h"

static void test_grow_doubles_from_first(void **state)
{
	(void)state;
	int *a = NULL;
	size_t cap = 0;
	assert_true(grow_array((void **)&a, &cap, 0, sizeof *a, 4));
	assert_int_equal(cap, 4);
	for (size_t n = 0; n < 4; n++) {
		assert_true(grow_array((void **)&a, &cap, n, sizeof *a, 4));
		a[n] = (int)n;
	}
	assert_int_equal(cap, 4);
	assert_true(grow_array((void **)&a, &cap, 4, sizeof *a, 4));
	assert_int_equal(cap, 8);
	a[4] = 4;
	for (int n = 0; n < 5; n++)
		assert_int_equal(a[n], n); /* kept across the realloc */
	free(a);
}

/* an index past the end by more than one doubling: doubled until it fits */
static void test_grow_past_the_end(void **state)
{
	(void)state;
	char *a = NULL;
	size_t cap = 0;
	assert_true(grow_array((void **)&a, &cap, 100, 1, 32));
	assert_int_equal(cap, 128);
	assert_true(grow_array((void **)&a, &cap, 128, 1, 32));
	assert_int_equal(cap, 256);
	assert_true(grow_array((void **)&a, &cap, 0, 1, 32)); /* in bounds: nothing moves */
	assert_int_equal(cap, 256);
	free(a);
}

/* no first capacity given: from one */
static void test_grow_first_zero(void **state)
{
	(void)state;
	long *a = NULL;
	size_t cap = 0;
	assert_true(grow_array((void **)&a, &cap, 0, sizeof *a, 0));
	assert_int_equal(cap, 1);
	assert_true(grow_array((void **)&a, &cap, 1, sizeof *a, 0));
	assert_int_equal(cap, 2);
	free(a);
}

static void test_grow_refuses_overflow(void **state)
{
	(void)state;
	char *a = NULL;
	size_t cap = 0;
	/* elements too large for the doubled count */
	assert_false(grow_array((void **)&a, &cap, 0, SIZE_MAX / 2, 4));
	assert_null(a);
	assert_int_equal(cap, 0);
	/* a count that cannot double */
	char one;
	char *p = &one;
	size_t big = SIZE_MAX / 2 + 1;
	assert_false(grow_array((void **)&p, &big, big, 1, 4));
	assert_ptr_equal(p, &one);
	assert_int_equal(big, SIZE_MAX / 2 + 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grow_doubles_from_first),
		cmocka_unit_test(test_grow_past_the_end),
		cmocka_unit_test(test_grow_first_zero),
		cmocka_unit_test(test_grow_refuses_overflow),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
