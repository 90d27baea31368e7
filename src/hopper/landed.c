/*
 * landed.c - bulk copies that landed but whose completion no one has observed yet (the
 * launch's `landed` part): the asynchronous-copy queue (async.c) records them and checks
 * accesses against them; a wait on their mbarrier (mbarrier.c) observes them.
 */
#include "landed.h"

#include <stdlib.h>
#include <string.h>

#include "tma_job.h"

enum { MAX_LANDED = 4096 }; /* beyond this, the oldest records are forgotten */


void landed_remember(struct launch *L, const struct race_copy *rc, struct landed *r)
{
	r->rc = *rc;
	r->rc.vc = NULL;
	if (L->landed.n == MAX_LANDED) {
		tma_job_free(L->landed.rec[0].box);
		memmove(L->landed.rec, L->landed.rec + 1, (MAX_LANDED - 1) * sizeof *L->landed.rec);
		L->landed.n--;
	}
	if (L->landed.n == L->landed.cap) {
		uint32_t cap = L->landed.cap ? L->landed.cap * 2 : 16;
		struct landed *n = realloc(L->landed.rec, cap * sizeof *n);
		if (!n) {
			tma_job_free(r->box);
			return; /* the check is lost, the run is not */
		}
		L->landed.rec = n;
		L->landed.cap = cap;
	}
	L->landed.rec[L->landed.n++] = *r;
}

void landed_forget(struct launch *L, uint32_t i)
{
	tma_job_free(L->landed.rec[i].box);
	L->landed.rec[i] = L->landed.rec[--L->landed.n];
}

void landed_observed(struct launch *L, const struct mbar *mb, uint64_t phase)
{
	for (uint32_t i = 0; i < L->landed.n;)
		if (L->landed.rec[i].mb == mb && L->landed.rec[i].phase < phase)
			landed_forget(L, i);
		else
			i++;
}

bool landed_names_mbar(const struct launch *L, const struct mbar *mb)
{
	for (uint32_t i = 0; i < L->landed.n; i++)
		if (L->landed.rec[i].mb == mb)
			return true;
	return false;
}

void landed_reset(struct launch *L)
{
	for (uint32_t i = 0; i < L->landed.n; i++)
		tma_job_free(L->landed.rec[i].box);
	L->landed.n = 0;
}

void landed_free(struct launch *L)
{
	landed_reset(L);
	free(L->landed.rec);
	memset(&L->landed, 0, sizeof L->landed);
}
