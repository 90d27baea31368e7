/*
 * async.h - asynchronous copies (cp.async, cp.async.bulk), cp.async.mbarrier.arrive, and
 * the asynchronous stores st.async and red.async. An issued copy becomes an event that lands
 * later: at a deterministic point by default, at a seeded pseudo-random one with --seed.
 * Landing writes the bytes and performs the complete-tx or arrive-on. Until then, reading
 * the destination or writing the source is a visible bug (rule async-copy-race), not a
 * hidden one.
 */
#ifndef PTXI_ASYNC_H
#define PTXI_ASYNC_H

#include <stdbool.h>
#include <stdint.h>

#include "run/launch.h"

struct launch;
struct warp;
struct group;
struct cta;
struct mbar;
struct event;
struct landed;

/* Set up L->async before the launch (nothing allocated yet). */
void async_init(struct launch *L);

/* A tensor copy resolved at issue (exec_tma.c), to be queued as an event. */
struct tma_job;
struct async_tensor {
	struct tma_job *job;        /* owned by the event from now on (tma_land, tma_job_free) */
	bool to_global;             /* a store or reduction: lands in global memory, bulk group */
	struct cta *cta;            /* the shared side: destination (loads) or source CTA      */
	uint32_t soff, ssize;       /* the shared bytes the box occupies                       */
	uint64_t gaddr, gsize;      /* the global bytes it may touch                           */
	uint32_t tx;                /* loads: the complete-tx on each destination's barrier    */
	bool multicast;             /* loads: to each CTA of ctamask, at the same offsets      */
	uint32_t ctamask;
	bool has_mbar;
	uint32_t mbar_off;
};
/* Queue it (exec_async.c, the issue side of the queue). */
void async_issue_tensor(struct launch *L, struct warp *w, uint32_t lane, const struct dinsn *di,
			const struct async_tensor *t);
/* Resolve a shared operand (a shared::cluster or generic address) of a bulk or tensor copy to
 * (cta, offset); breaks bulk-copy-bounds if it is none. */
bool async_shared_operand(struct launch *L, struct warp *w, uint64_t a, enum mspace sp,
			  uint32_t lane, struct cta **c, uint32_t *off, const char *what);
/* Land every event due at or before `now`. Returns how many landed. The loop lands the
 * wgmma completions with them (interp_land_due). */
uint32_t async_land_due(struct launch *L, uint64_t now);
/* The due time of the earliest pending event or seeded wgmma completion (UINT64_MAX if
 * none). */
uint64_t async_next_due(struct launch *L);
/* Ordinary access check against copies in flight, and against bulk copies that landed but
 * whose completion no one has observed yet (rule async-copy-race). cta is the shared memory
 * owner for shared accesses, NULL for global. Call it only when async_watching. True when
 * it reported. */
bool async_check_access(struct launch *L, struct cta *cta, enum mspace space, uint64_t addr,
			uint32_t size, bool write, uint32_t lane);

/* The same for a read of c's shared memory by `verb` (e.g. "wgmma.mma_async read"). */
void async_check_read(struct launch *L, struct cta *cta, uint32_t off, uint32_t size,
		      uint32_t lane, const char *verb);

static inline bool async_watching(const struct launch *L)
{
	return L->async.nevents || L->landed.n;
}
/* An event in flight as ptxi debug shows it (info copies, info mbarriers). */
struct async_view {
	const struct warp *w;       /* the issuing thread                                   */
	uint32_t lane;
	const struct dinsn *insn;   /* its instruction                                      */
	uint64_t issued, due;       /* L->steps at issue, and when it lands                 */
	uint32_t size;              /* bytes written when it lands (0: an arrive-on)         */
	enum mspace dspace, sspace;
	uint64_t daddr, saddr;      /* shared offsets or global addresses                    */
	const struct cta *dcta, *scta;
	bool arrive;                /* it arrives on the barrier (cp.async.mbarrier.arrive)  */
	uint32_t mbar_ranks;        /* the CTAs (ranks of the cluster) whose barrier at      */
	uint32_t mbar_off;          /* mbar_off it completes tx (or arrives) on; 0: none     */
	uint32_t tx;                /* bytes of that complete-tx                             */
};
/* Event i of those in flight (in issue order) as a view; false past the last. */
bool async_view(const struct launch *L, uint32_t i, struct async_view *v);

/* Forget everything pending (end of a cluster; the landed records too), and free what
 * async.c allocated (end of a launch: async_free). */
void async_reset(struct launch *L);
void async_free(struct launch *L);

#endif
