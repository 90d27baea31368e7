/*
 * landed.h - bulk copies landed but not yet observed (landed.c).
 */
#ifndef PTXI_LANDED_H
#define PTXI_LANDED_H

#include <stdbool.h>
#include <stdint.h>

#include "run/launch.h"
#include "run/race.h"

/* A bulk copy that landed, until its completion is observed: by a wait on its mbarrier that
 * returns True once the barrier has left the phase the complete-tx landed in, or (a copy to
 * global memory) by the issuing thread's cp.async.bulk.wait_group. Reading or writing the
 * destination before that is a race the timing of this run happened to hide. */
struct landed {
	struct cta *cta;            /* destination CTA; NULL: global memory                  */
	uint64_t addr;              /* shared offset or global address                       */
	uint32_t size;
	const struct mbar *mb;      /* mbarrier completion: the barrier and its phase then    */
	uint64_t phase;
	bool src;                   /* a bulk group's shared source, not a destination: free
				     * for writes after the thread's wait_group.read           */
	struct warp *w;             /* bulk-group completion: the issuing thread and group   */
	uint32_t lane, group;
	const struct dinsn *insn;
	struct race_copy rc;        /* the copy's issue (race_after_issue; no vector kept)   */
	struct tma_job *box;        /* a tensor store's box, owned: of [addr, addr + size),
				     * only the bytes it touches (tma_touches)                */
};

struct tma_job;
/* Record r (a copy that landed, issued as rc; its box now the table's); the oldest record
 * goes past 4096. */
void landed_remember(struct launch *L, const struct race_copy *rc, struct landed *r);
/* Forget record i (observed, or reported). */
void landed_forget(struct launch *L, uint32_t i);
/* A wait on mb returned True with mb in phase `phase`: the bulk copies whose complete-tx
 * landed in an earlier phase are observed. */
void landed_observed(struct launch *L, const struct mbar *mb, uint64_t phase);
/* Whether a landed copy's record still names mbarrier object mb. */
bool landed_names_mbar(const struct launch *L, const struct mbar *mb);
/* Forget every record (end of a cluster), and free the table (end of a launch). */
void landed_reset(struct launch *L);
void landed_free(struct launch *L);

#endif
