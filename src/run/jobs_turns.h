/*
 * jobs_turns.h - when --jobs workers start clusters one at a time (jobs.c). With the
 * data-race detector on, a cluster that is not the oldest unshown logs its global accesses
 * (race_global.c); once its log is full it waits until every earlier cluster is shown and
 * replays it. Where it waits longer than it ran before, the workers only take turns, and
 * the replay costs more than judging at once (a naive matrix product at --jobs 2 took 1.8x
 * its --jobs 1 time: a CTA logs an eighth of its accesses, then waits for the whole of the
 * CTA before it): so after such a wait the next `backoff` clusters start only once every
 * earlier one is shown, as on one thread, and `backoff` doubles (to TURNS_MAX) each time
 * such a wait comes back. A cluster started beside an earlier one that ends without one
 * sets it to 1 again (the clusters ran side by side). When the turns run out, clusters go
 * back to side by side gradually: `beside` clusters at most run beside the oldest unshown,
 * 1 after a wait, doubled each time a cluster ran beside without one (with 8 workers, all
 * 7 others starting at once each filled a log and waited: the naive product at --jobs 8
 * took 1.2x its --jobs 1 time). A cluster that fills its log late (much work between its
 * global accesses) waits less than it ran and changes nothing. Only which cluster runs
 * when changes, which the output never shows.
 */
#ifndef PTXI_JOBS_TURNS_H
#define PTXI_JOBS_TURNS_H

#include <stdbool.h>
#include <stdint.h>

#define TURNS_MAX 64u /* clusters started one at a time, at most, after one full log waited */
#define TURNS_ALL UINT32_MAX /* beside: no bound but the workers' window                     */

struct jobs_turns {
	uint32_t one_by_one; /* clusters still to start only once every earlier is shown     */
	uint32_t backoff;    /* what the next full log that waits sets one_by_one to          */
	uint32_t beside;     /* clusters that may run beside the oldest unshown, at most      */
};

static inline struct jobs_turns turns_new(void)
{
	return (struct jobs_turns){.one_by_one = 0, .backoff = 1, .beside = TURNS_ALL};
}

/* Whether cluster `next` may start while `shown` clusters are shown. */
static inline bool turns_may_start(const struct jobs_turns *t, uint64_t next, uint64_t shown)
{
	return t->one_by_one ? next == shown : next - shown <= t->beside;
}

/* Cluster i starts while `shown` are shown; whether it starts beside an earlier one. */
static inline bool turns_start(struct jobs_turns *t, uint64_t i, uint64_t shown)
{
	if (t->one_by_one && i == shown)
		t->one_by_one--;
	return i > shown;
}

/* A cluster's full log waits for the clusters before it. */
static inline void turns_waited(struct jobs_turns *t)
{
	t->one_by_one = t->backoff;
	t->backoff = t->backoff * 2 > TURNS_MAX ? TURNS_MAX : t->backoff * 2;
	t->beside = 1;
}

/* A cluster's full log waited `waited` ns for the clusters before it, after the cluster ran
 * `ran` ns: whether the workers took turns (and the next clusters start one at a time). */
static inline bool turns_full_log(struct jobs_turns *t, uint64_t ran, uint64_t waited)
{
	if (waited <= ran)
		return false;
	turns_waited(t);
	return true;
}

/* A cluster started beside an earlier one ended; waited: its full log took turns. */
static inline void turns_beside_ended(struct jobs_turns *t, bool waited)
{
	if (waited)
		return;
	t->backoff = 1;
	t->beside = t->beside > TURNS_ALL / 2 ? TURNS_ALL : t->beside * 2;
}

#endif
