/*
 * async_priv.h - the event queue as its two halves share it: async.c keeps the queue, lands
 * events and checks accesses against them; exec_async.c runs the instructions that issue
 * events (cp.async, cp.async.bulk, st.async, ...; a tensor copy's event for exec_tma.c) and
 * wait for them, and checks a new copy against the copies and wgmma operands in flight. Nothing else includes
 * it: the rest of the interpreter sees async.h.
 */
#ifndef PTXI_ASYNC_PRIV_H
#define PTXI_ASYNC_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include "async.h"
#include "run/race.h"

enum ev_kind { EV_COPY, EV_ARRIVE, EV_BULK, EV_STORE, EV_TENSOR };

enum { ARRIVE_LATENCY = 2 }; /* steps from the last awaited copy to the arrive-on */

struct event {
	enum ev_kind kind;
	uint64_t due, seq;
	uint64_t issued;            /* L->steps at issue (--timeline)                        */
	struct warp *w;             /* issuing warp and lane (groups, diagnostics)           */
	uint32_t lane;
	uint32_t group;             /* commit group of the issuing thread                    */
	bool bulk_group;            /* counted in the bulk groups, not the cp.async groups   */
	const struct dinsn *insn;
	uint32_t size, src_size;
	uint8_t *src;               /* source bytes (read when the copy lands)               */
	uint8_t data[16];           /* EV_STORE: the value(s) read at issue                  */
	struct tma_job *tjob;       /* EV_TENSOR: the box (exec_tma.c); owned by the event   */
	uint32_t ssize;             /* source bytes when they differ from size (EV_TENSOR)   */
	uint32_t tx;                /* EV_TENSOR: complete-tx bytes (the box, not `size`)     */
	/* destination: global pointer, or shared offset in CTAs */
	uint8_t *dst;
	struct cta *dcta;
	uint32_t doff;
	uint32_t ctamask;           /* multicast: the destination CTAs' ranks                */
	bool multicast;
	bool noinc;                 /* EV_ARRIVE: .noinc (else it releases the phase hold)   */
	bool has_mbar;              /* EV_BULK: complete-tx on each destination's barrier at */
	uint32_t mbar_off;          /* mbar_off; EV_ARRIVE: the arrive-on at mbar_cta       */
	struct cta *mbar_cta;
	uint32_t mbar_gen;          /* L->mbars.ids at issue (mbar_async_*)                   */
	/* ranges for race checks */
	enum mspace dspace, sspace;
	uint64_t daddr, saddr;
	struct cta *scta;
	struct race_copy rc;        /* the data-race detector's view of it (race.h)           */
};

/* The ranks a bulk copy to shared memory lands in: ctaMask's, or the destination's. */
static inline uint32_t async_targets(const struct event *e)
{
	return e->multicast ? e->ctamask : 1u << e->dcta->rank;
}

/* How many bytes an event reads from its source. */
static inline uint32_t src_bytes(const struct event *e)
{
	return e->ssize ? e->ssize : e->size;
}

/* When the next event may land: 64 steps after issue, or a seeded latency with --seed. */
uint64_t async_latency(struct launch *L);
/* A new event of (w, lane)'s instruction di, due at step `due`, zeroed but for those. NULL
 * (after a runtime error) when out of memory. */
struct event *async_push(struct launch *L, enum ev_kind kind, struct warp *w, uint32_t lane,
			 const struct dinsn *di, uint64_t due);
/* Forget the event async_push just made: its issue found it bad. */
void async_cancel(struct launch *L);
/* The latest due time of (w, lane)'s cp.async copies in flight, or `after` if later. */
uint64_t async_copies_due(struct launch *L, const struct warp *w, uint32_t lane, uint64_t after);
/* Whether an access by `verb` of [addr, addr+size) races with an asynchronous operation
 * other than `self` (rule async-copy-race; async.c says which). Reports the first. */
bool async_check_overlaps(struct launch *L, const struct event *self, const char *verb,
			  struct cta *cta, enum mspace space, uint64_t addr, uint32_t size,
			  bool write, uint32_t lane);

/* What a cp.async.wait_group / wait_all or cp.async.bulk.wait_group waits for. */
struct async_wait {
	struct launch *L;
	struct warp *w;
	uint32_t lane, below;       /* the groups below `below` (unless all)                  */
	bool bulk, all;
	bool read;                  /* cp.async.bulk.wait_group.read: sources only            */
};
/* Land, in order, every copy of (w, lane) that the wait must see complete, then the
 * arrive-ons that were waiting for them; a bulk wait observes their completion. */
void async_land_waited(struct launch *L, const struct async_wait *s);

#endif
