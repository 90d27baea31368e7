/*
 * test_jobs_turns.c - src/run/jobs_turns.h: when --jobs workers start clusters one at a
 * time. After a full log of the detector waited for the clusters before it longer than its
 * cluster ran before (the workers take turns), the next
 * `backoff` clusters start only as the oldest unshown; the backoff doubles to TURNS_MAX
 * while waits come back, and is 1 again after a cluster ran beside an earlier one without
 * one. After the turns, one cluster at most runs beside the oldest, then twice as many each
 * time one ran beside without a wait.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "run/jobs_turns.h"

/* Start clusters from `next` as turns allow with `shown` shown, none ending: how many. */
static uint32_t started_beside(struct jobs_turns *t, uint64_t next, uint64_t shown,
			       uint64_t upto)
{
	uint32_t n = 0;
	while (next < upto && turns_may_start(t, next, shown)) {
		turns_start(t, next++, shown);
		n++;
	}
	return n;
}

static void test_turns_side_by_side_at_first(void **state)
{
	(void)state;
	struct jobs_turns t = turns_new();
	assert_true(turns_may_start(&t, 5, 2));
	assert_true(turns_start(&t, 5, 2)); /* beside clusters 2 to 4 */
	assert_false(turns_start(&t, 2, 2)); /* the oldest unshown */
	assert_int_equal(t.one_by_one, 0);
	assert_int_equal(t.backoff, 1);
}

static void test_turns_one_at_a_time_after_a_wait(void **state)
{
	(void)state;
	struct jobs_turns t = turns_new();
	turns_waited(&t);
	assert_int_equal(t.one_by_one, 1);
	assert_int_equal(t.backoff, 2);
	assert_false(turns_may_start(&t, 3, 2)); /* cluster 2 not shown yet */
	assert_true(turns_may_start(&t, 3, 3));
	assert_false(turns_start(&t, 3, 3));
	assert_int_equal(t.one_by_one, 0);
	assert_true(turns_may_start(&t, 4, 3)); /* the turns are over: beside again */
	assert_true(turns_start(&t, 4, 3));
	assert_int_equal(t.one_by_one, 0);
}

static void test_turns_backoff_doubles_to_max(void **state)
{
	(void)state;
	struct jobs_turns t = turns_new();
	uint32_t want = 1;
	for (int k = 0; k < 10; k++) {
		turns_waited(&t);
		assert_int_equal(t.one_by_one, want);
		want = want * 2 > TURNS_MAX ? TURNS_MAX : want * 2;
		assert_int_equal(t.backoff, want);
	}
	assert_int_equal(t.backoff, TURNS_MAX);
	/* each of one_by_one starts as the oldest, then the next may start beside */
	uint64_t shown = 100;
	for (uint32_t k = 0; k < TURNS_MAX; k++) {
		assert_int_equal(started_beside(&t, shown + 1, shown, shown + 8), 0);
		assert_false(turns_start(&t, shown, shown));
		shown++;
	}
	assert_int_equal(started_beside(&t, shown + 1, shown, shown + 8), 1); /* (beside: 1) */
}

static void test_turns_beside_grows_after_the_turns(void **state)
{
	(void)state;
	struct jobs_turns t = turns_new();
	assert_int_equal(started_beside(&t, 10, 10, 18), 8); /* at first: the whole window */
	turns_waited(&t);
	assert_int_equal(t.beside, 1);
	assert_false(turns_start(&t, 20, 20)); /* the one turn */
	assert_int_equal(started_beside(&t, 21, 20, 30), 1); /* cluster 21 beside 20 */
	turns_beside_ended(&t, false);
	assert_int_equal(t.beside, 2);
	assert_int_equal(started_beside(&t, 22, 20, 30), 1); /* 21, 22 beside 20 */
	turns_beside_ended(&t, false);
	turns_beside_ended(&t, false);
	assert_int_equal(t.beside, 8);
	assert_int_equal(started_beside(&t, 23, 20, 40), 6); /* up to 28: 8 beside 20 */
	turns_beside_ended(&t, true); /* a wait: no growth */
	assert_int_equal(t.beside, 8);
	turns_waited(&t);
	assert_int_equal(t.beside, 1); /* and the next wait starts it over */
	t.beside = TURNS_ALL - 1;
	turns_beside_ended(&t, false);
	assert_int_equal(t.beside, TURNS_ALL); /* (no wrap past the top) */
}

static void test_turns_full_log_waits_longer_than_it_ran(void **state)
{
	(void)state;
	struct jobs_turns t = turns_new();
	assert_false(turns_full_log(&t, 1000, 0)); /* the head's log: no wait */
	assert_false(turns_full_log(&t, 1000, 999)); /* filled late: ran more than it waited */
	assert_false(turns_full_log(&t, 1000, 1000));
	assert_int_equal(t.one_by_one, 0);
	assert_int_equal(t.backoff, 1);
	assert_true(turns_full_log(&t, 1000, 1001)); /* an eighth of its work, then a wait */
	assert_int_equal(t.one_by_one, 1);
	assert_int_equal(t.backoff, 2);
	assert_true(turns_full_log(&t, 10, 8000));
	assert_int_equal(t.one_by_one, 2);
	assert_int_equal(t.backoff, 4);
}

static void test_turns_backoff_resets_after_side_by_side(void **state)
{
	(void)state;
	struct jobs_turns t = turns_new();
	turns_waited(&t);
	turns_waited(&t);
	turns_waited(&t);
	assert_int_equal(t.backoff, 8);
	turns_beside_ended(&t, true); /* it waited too: no change */
	assert_int_equal(t.backoff, 8);
	assert_int_equal(t.one_by_one, 4);
	turns_beside_ended(&t, false);
	assert_int_equal(t.backoff, 1);
	assert_int_equal(t.one_by_one, 4); /* the turns under way run out as they were */
	turns_waited(&t);
	assert_int_equal(t.one_by_one, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_turns_side_by_side_at_first),
		cmocka_unit_test(test_turns_one_at_a_time_after_a_wait),
		cmocka_unit_test(test_turns_backoff_doubles_to_max),
		cmocka_unit_test(test_turns_full_log_waits_longer_than_it_ran),
		cmocka_unit_test(test_turns_backoff_resets_after_side_by_side),
		cmocka_unit_test(test_turns_beside_grows_after_the_turns),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
