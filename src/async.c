/*
 * async.c - asynchronous copies and stores as events: issue-time checks, a queue ordered by
 * due time and issue order, landing (bytes, then complete-tx or arrive-on), commit/wait
 * groups.
 *
 * Notes
 * - cp.async (ISA 9.7.9.25.3): 4, 8 or 16 bytes per thread (16 only... any with .ca, 16
 *   with .cg), optional src-size zero-fills the rest. commit_group closes the thread's open
 *   group; wait_group N lands every group but the N most recent.
 * - cp.async.mbarrier.arrive: the arrive-on lands ARRIVE_LATENCY steps after the last
 *   cp.async the thread issued before it, or after the instruction itself when none is in
 *   flight (on the H100 the next arrive of the thread does not see it, the one after does);
 *   a wait_group/wait_all that lands those copies lands it too (the H100's next arrive sees
 *   it). Without .noinc the phase is held open from issue to landing (mbarrier.c).
 * - cp.async.bulk (ISA 9.7.9.25.4.1): size a multiple of 16, addresses 16-aligned; the
 *   complete-tx of `size` bytes goes to the mbarrier in the destination CTA; with
 *   .multicast::cluster, to each CTA of ctaMask at the same offsets (ctaMask 0: none).
 * - cp.reduce.async.bulk (9.7.9.25.4.2) is a bulk copy whose landing reduces each element of
 *   the destination with the source's (atom's arithmetic, exec_mem.c); it reads its
 *   destination in the async proxy too, so unfenced generic stores there break
 *   async-proxy-fence. Its manual section does not restrict the shared::cluster form to
 *   another CTA, as cp.async.bulk's does: a reduction into the executing CTA is allowed.
 * - cp.async.bulk.prefetch (9.7.9.25.4.3) has no architectural effect: only its size and
 *   alignment are checked (issue_prefetch says why not its range), and nothing is queued.
 * - st.async / red.async (ISA 9.7.9.12, 9.7.13.7): the value is read at issue; landing
 *   stores it (red.async: reduces with it, through exec_mem.c's atomic arithmetic) in the
 *   destination CTA, then completes tx of its size on the barrier, which must be in that CTA.
 *   They belong to no commit group: only the barrier observes them. They are generic-proxy
 *   writes: a bulk copy that reads them needs fence.proxy.async first.
 * - Every event remembers how many mbarrier objects existed when it was issued: one made
 *   later at the same place (inval, then init) is not the barrier it was issued against.
 */
#include "async.h"

#include <stdlib.h>
#include <string.h>

#include "access.h"
#include "exec.h"
#include "landed.h"
#include "launch.h"
#include "mbarrier.h"
#include "memory.h"
#include "operand.h"
#include "race.h"
#include "rules.h"
#include "timeline.h"
#include "tma_job.h"
#include "wgmma.h"

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

static uint64_t latency(struct launch *L)
{
	return L->cfg.seed ? rng_latency(&L->async.rng) : 64;
}

/* A new event of (w, lane)'s instruction di, due at step `due`. NULL when out of memory. */
static struct event *push(struct launch *L, enum ev_kind kind, struct warp *w, uint32_t lane,
			  const struct dinsn *di, uint64_t due)
{
	if (L->async.nevents == L->async.events_cap) {
		uint32_t cap = L->async.events_cap ? L->async.events_cap * 2 : 64;
		struct event *e = realloc(L->async.events, cap * sizeof *e);
		if (!e) {
			runtime_error(L, 1, "out of memory for asynchronous copies");
			return NULL;
		}
		L->async.events = e;
		L->async.events_cap = cap;
	}
	struct event *e = &L->async.events[L->async.nevents++];
	memset(e, 0, sizeof *e);
	e->seq = L->async.event_seq++;
	e->mbar_gen = L->mbars.ids;
	e->kind = kind;
	e->w = w;
	e->lane = lane;
	e->insn = di;
	e->due = due;
	e->issued = L->steps;
	if (due < L->async.next_due)
		L->async.next_due = due;
	return e;
}

void async_reset(struct launch *L)
{
	for (uint32_t i = 0; i < L->async.nevents; i++) {
		tma_job_free(L->async.events[i].tjob);
		race_copy_drop(&L->async.events[i].rc);
	}
	L->async.nevents = 0;
	landed_reset(L);
	L->async.next_due = UINT64_MAX;
}

void async_init(struct launch *L)
{
	memset(&L->async, 0, sizeof L->async);
	L->async.next_due = UINT64_MAX;
	rng_seed(&L->async.rng, L->cfg.seed, RNG_ASYNC);
}

void async_free(struct launch *L)
{
	async_reset(L);
	free(L->async.events);
}

uint64_t async_next_due(struct launch *L)
{
	uint64_t best = wgmma_next_due(L); /* seeded wgmma completions share the clock */
	for (uint32_t i = 0; i < L->async.nevents; i++)
		if (L->async.events[i].due < best)
			best = L->async.events[i].due;
	return best;
}

/* The ranks a bulk copy to shared memory lands in: ctaMask's, or the destination's. */
static uint32_t bulk_targets(const struct event *e)
{
	return e->multicast ? e->ctamask : 1u << e->dcta->rank;
}

/* Whether an event may write its bytes into CTA c now: the CTA must still run, and no live
 * mbarrier may lie under them (the H100 writes the bytes and leaves the barrier as it was). */
static bool may_land(struct launch *L, const struct event *e, struct cta *c)
{
	const char *what = ir_op_name((enum ir_op)e->insn->op);
	if (c->exited && c != e->w->cta) {
		rule_break(L, RULE_PEER_EXITED, L->cmask, "%s lands in the shared memory of CTA "
			   "rank %u, which has exited", what, c->rank);
		return false;
	}
	struct mbar *mb = mbar_live_in(c, e->doff, e->size);
	if (mb)
		rule_break(L, RULE_MBAR_PLAIN_ACCESS, L->cmask, "%s writes %u bytes at shared 0x%x "
			   "of CTA rank %u over the live mbarrier at 0x%x", what, e->size, e->doff,
			   c->rank, mb->off);
	return !L->stop;
}

/* A bulk copy's bytes at dst: copied, or (cp.reduce.async.bulk) each element of the
 * instruction type reduced with the source's, as atom would (ISA 9.7.9.25.4.2). */
static void bulk_put(const struct event *e, uint8_t *dst)
{
	if (e->insn->op != OP_CP_REDUCE_ASYNC_BULK) {
		memmove(dst, e->src, e->size); /* a copy onto its own source: the bytes as read */
		return;
	}
	uint32_t es = (uint32_t)ir_type_size((enum ir_mod)e->insn->type);
	for (uint32_t i = 0; i + es <= e->size; i += es) {
		uint64_t old = 0, b = 0;
		memcpy(&old, dst + i, es);
		memcpy(&b, e->src + i, es);
		uint64_t nv = exec_atom_value(e->insn, old, b, 0, e->lane);
		memcpy(dst + i, &nv, es);
	}
}

/* The landing as the data-race detector sees it: the copy's access of `size` bytes at
 * shared (c, off), or at global `addr` when c is NULL. */
/* The access the data-race detector is told of: shared (c, addr), or global addr (c NULL). */
static bool race_place(struct launch *L, const struct warp *w, struct cta *c, uint64_t addr,
		       uint32_t size, struct access *a)
{
	*a = (struct access){.cta = c, .off = (uint32_t)addr, .addr = addr};
	if (c) {
		a->p = c->smem + addr;
		a->space = c == w->cta ? MS_SHARED_CTA : MS_SHARED_CLUSTER;
		return true;
	}
	if (!(a->region = mem_find(L->mem, addr, size)))
		return false;
	a->p = a->region->data + (addr - a->region->base);
	a->space = MS_GLOBAL;
	return true;
}

static void race_land(struct launch *L, const struct event *e, struct cta *c, uint64_t addr,
		      uint32_t size, enum race_kind kind)
{
	struct access a;
	if (L->race && size && race_place(L, e->w, c, addr, size, &a))
		race_copy_access(L, &e->rc, &a, size, kind);
}

/* How a copy's destination is written: reductions are atomic per element. */
static enum race_kind dst_kind(const struct event *e)
{
	enum ir_op op = (enum ir_op)e->insn->op;
	return op == OP_CP_REDUCE_ASYNC_BULK || op == OP_CP_REDUCE_ASYNC_BULK_TENSOR ||
			       op == OP_RED_ASYNC
		       ? RACE_RMW
		       : RACE_WRITE;
}

/* The complete-tx or arrive-on of e on the barrier at (mc, off) releases the copy. */
static void race_complete(struct launch *L, const struct event *e, struct cta *mc, uint32_t off)
{
	struct mbar *mb = L->race ? mbar_lookup(mc, off) : NULL;
	if (mb && mb->valid)
		race_copy_complete(L, &e->rc, mb);
}

/* A bulk copy's bytes into CTA c. */
static void bulk_write(struct launch *L, const struct event *e, struct cta *c, uint8_t *dst)
{
	if (may_land(L, e, c))
		bulk_put(e, dst);
}

/* The bytes an event just wrote into c, to be observed through the barrier at (mc,
 * mbar_off) before anyone may touch them. */
static void remember_for_barrier(struct launch *L, const struct event *e, struct cta *c,
				 struct cta *mc)
{
	struct mbar *mb = mbar_lookup(mc, e->mbar_off);
	if (!mb || !mb->valid)
		return;
	struct landed r = {.cta = c, .addr = e->doff, .size = e->size, .mb = mb,
			   .phase = mb->phase, .insn = e->insn};
	landed_remember(L, &e->rc, &r);
}

/* st.async stores its value; red.async reduces the destination with it. Then complete-tx. */
static void store_land(struct launch *L, const struct event *e)
{
	if (!may_land(L, e, e->dcta))
		return;
	race_land(L, e, e->dcta, e->doff, e->size, dst_kind(e));
	uint8_t *p = e->dcta->smem + e->doff;
	if (e->insn->op == OP_RED_ASYNC) {
		uint64_t old = 0, b;
		memcpy(&old, p, e->size);
		memcpy(&b, e->data, sizeof b);
		uint64_t nv = exec_atom_value(e->insn, old, b, 0, e->lane);
		memcpy(p, &nv, e->size);
	} else {
		memcpy(p, e->data, e->size);
	}
	mem_proxy_mark(e->dcta, e->doff, e->size);
	remember_for_barrier(L, e, e->dcta, e->mbar_cta);
	race_complete(L, e, e->mbar_cta, e->mbar_off);
	mbar_async_complete_tx(L, e->mbar_cta, e->mbar_off, e->size, e->mbar_gen);
}

/* A tensor copy: a store or reduction writes global memory and is observed through its bulk
 * group, like a bulk copy to global; a load lands in each destination CTA and completes the
 * whole box's bytes on the barrier there. */
static void tensor_land(struct launch *L, const struct event *e)
{
	if (!e->dcta) {
		race_land(L, e, e->scta, e->saddr, e->ssize, RACE_READ);
		tma_land(L, e->tjob, e->scta);
		/* its shared source stays the copy's until wait_group.read (the global box, no
		 * contiguous range, is not tracked) */
		struct landed rec = {.w = e->w, .lane = e->lane, .group = e->group, .insn = e->insn};
		rec.cta = e->scta;
		rec.addr = e->saddr;
		rec.size = e->ssize;
		rec.src = true;
		landed_remember(L, &e->rc, &rec);
		return;
	}
	for (uint32_t r = 0, t = bulk_targets(e); t >> r && !L->stop; r++) {
		if (!(t >> r & 1))
			continue;
		struct cta *c = &e->dcta->cluster->ctas[r];
		if (!may_land(L, e, c))
			continue;
		race_land(L, e, c, e->doff, e->size, RACE_WRITE);
		tma_land(L, e->tjob, c);
		if (!e->has_mbar || L->stop)
			continue;
		remember_for_barrier(L, e, c, c);
		race_complete(L, e, c, e->mbar_off);
		mbar_async_complete_tx(L, c, e->mbar_off, e->tx, e->mbar_gen);
	}
}

static void land(struct launch *L, struct event e)
{
	/* Diagnostics while landing point at the issuing instruction. */
	struct warp *sw = L->cw;
	const struct dinsn *si = L->ci;
	uint32_t sm = L->cmask;
	L->cw = e.w;
	L->ci = e.insn;
	L->cmask = 1u << e.lane;
	L->epoch++;
	if (L->timeline)
		tl_copy(L, e.w, e.insn, e.issued, e.size, ir_op_name((enum ir_op)e.insn->op));
	switch (e.kind) {
	case EV_COPY:
		race_land(L, &e, e.dcta, e.doff, e.size, RACE_WRITE);
		if (e.src_size)
			memcpy(e.dst, e.src, e.src_size);
		memset(e.dst + e.src_size, 0, e.size - e.src_size);
		break;
	case EV_ARRIVE:
		race_complete(L, &e, e.mbar_cta, e.mbar_off);
		mbar_async_arrive(L, e.mbar_cta, e.mbar_off, e.noinc, e.mbar_gen);
		break;
	case EV_BULK: {
		struct mbar *sb = e.scta ? mbar_live_in(e.scta, (uint32_t)e.saddr, e.size) : NULL;
		if (sb)
			rule_break(L, RULE_MBAR_PLAIN_ACCESS, L->cmask, "%s reads %u bytes at shared "
				   "0x%llx over the live mbarrier at 0x%x",
				   ir_op_name((enum ir_op)e.insn->op), e.size,
				   (unsigned long long)e.saddr, sb->off);
		if (e.scta) /* (reads of global sources are not recorded: docs/races.md) */
			race_land(L, &e, e.scta, e.saddr, e.size, RACE_READ);
		if (!e.dcta) { /* to global memory: observed by the thread's bulk wait_group */
			race_land(L, &e, NULL, e.daddr, e.size, dst_kind(&e));
			bulk_put(&e, e.dst);
			struct landed rec = {.addr = e.daddr, .size = e.size, .w = e.w,
					     .lane = e.lane, .group = e.group, .insn = e.insn};
			landed_remember(L, &e.rc, &rec);
			if (e.scta) { /* and its source stays the copy's until wait_group.read */
				rec.cta = e.scta;
				rec.addr = e.saddr;
				rec.src = true;
				landed_remember(L, &e.rc, &rec);
			}
			break;
		}
		/* each destination CTA gets the bytes and the complete-tx on its barrier */
		for (uint32_t r = 0, t = bulk_targets(&e); t >> r && !L->stop; r++) {
			if (!(t >> r & 1))
				continue;
			struct cta *c = &e.dcta->cluster->ctas[r];
			race_land(L, &e, c, e.doff, e.size, dst_kind(&e));
			bulk_write(L, &e, c, c->smem + e.doff);
			if (!e.has_mbar || L->stop)
				continue;
			remember_for_barrier(L, &e, c, c);
			race_complete(L, &e, c, e.mbar_off);
			mbar_async_complete_tx(L, c, e.mbar_off, e.size, e.mbar_gen);
		}
		break;
	}
	case EV_STORE:
		store_land(L, &e);
		break;
	case EV_TENSOR:
		tensor_land(L, &e);
		tma_job_free(e.tjob);
		break;
	}
	race_copy_drop(&e.rc);
	L->cw = sw;
	L->ci = si;
	L->cmask = sm;
}

/* Land the event at index i (removing it first: landing may queue nothing, but keep the
 * array consistent anyway). */
static void land_at(struct launch *L, uint32_t i)
{
	struct event e = L->async.events[i];
	L->async.events[i] = L->async.events[--L->async.nevents];
	land(L, e);
}

static int32_t earliest(struct launch *L, bool (*pick)(const struct event *, void *), void *ctx,
			uint64_t now)
{
	int32_t best = -1;
	for (uint32_t i = 0; i < L->async.nevents; i++) {
		const struct event *e = &L->async.events[i];
		if (e->due > now || (pick && !pick(e, ctx)))
			continue;
		if (best < 0 || e->due < L->async.events[best].due ||
		    (e->due == L->async.events[best].due && e->seq < L->async.events[best].seq))
			best = (int32_t)i;
	}
	return best;
}

uint32_t async_land_due(struct launch *L, uint64_t now)
{
	uint32_t n = 0;
	int32_t i;
	while (!L->stop && (i = earliest(L, NULL, NULL, now)) >= 0) {
		land_at(L, (uint32_t)i);
		n++;
	}
	wgmma_land_due(L, now);
	L->async.next_due = async_next_due(L);
	return n;
}

struct wait_sel {
	struct launch *L;
	struct warp *w;
	uint32_t lane, below;
	bool bulk, all;
	bool read;                  /* cp.async.bulk.wait_group.read: sources only            */
};

static bool in_wait(const struct event *e, void *ctx)
{
	const struct wait_sel *s = ctx;
	return e->w == s->w && e->lane == s->lane &&
	       (e->kind == EV_COPY || e->kind == EV_BULK) && e->bulk_group == s->bulk &&
	       (s->all || e->group < s->below);
}

/* An arrive-on of (w, lane) none of whose thread's earlier copies is still in flight. */
static bool ready_arrive(const struct event *e, void *ctx)
{
	const struct wait_sel *s = ctx;
	if (e->kind != EV_ARRIVE || e->w != s->w || e->lane != s->lane)
		return false;
	for (uint32_t i = 0; i < s->L->async.nevents; i++) {
		const struct event *o = &s->L->async.events[i];
		if (o->kind == EV_COPY && o->w == e->w && o->lane == e->lane && o->seq < e->seq)
			return false;
	}
	return true;
}

/* Land, in order, every copy of (w, lane) that a wait_group must see complete, then the
 * arrive-ons that were waiting for them. */
static void land_waited(struct launch *L, struct wait_sel *s)
{
	int32_t i;
	while (!L->stop && (i = earliest(L, in_wait, s, UINT64_MAX)) >= 0)
		land_at(L, (uint32_t)i);
	while (!s->bulk && !L->stop && (i = earliest(L, ready_arrive, s, UINT64_MAX)) >= 0)
		land_at(L, (uint32_t)i);
	L->async.next_due = async_next_due(L);
	/* a bulk wait_group observes the completion of those copies (.read: their sources) */
	for (uint32_t k = 0; s->bulk && k < L->landed.n;) {
		const struct landed *r = &L->landed.rec[k];
		if (!r->mb && r->w == s->w && r->lane == s->lane && (s->all || r->group < s->below) &&
		    (r->src || !s->read))
			landed_forget(L, k);
		else
			k++;
	}
}

/* The source line of an instruction, for messages about an earlier one. */
static uint32_t line_of(struct launch *L, const struct dinsn *di)
{
	uint32_t line, col;
	src_locate(L->file, di->ir->span.off, &line, &col);
	return line;
}

static bool overlaps(uint64_t a, uint64_t an, uint64_t b, uint64_t bn)
{
	return a < b + bn && b < a + an;
}

/* How many bytes an event reads from its source. */
static uint32_t src_bytes(const struct event *e)
{
	return e->ssize ? e->ssize : e->size;
}

/* What an in-flight event is called in a race report. */
static const char *event_name(const struct event *e)
{
	enum ir_op op = (enum ir_op)e->insn->op;
	return op == OP_CP_ASYNC || op == OP_CP_ASYNC_BULK ? "asynchronous copy" : ir_op_name(op);
}

/* Whether an access by `verb` ("load", "store", "cp.async.bulk read"...) of [addr,
 * addr+size) races with an asynchronous operation other than `self`: one in flight (its
 * destination, or its source when writing), or one that landed but whose completion no one
 * has observed (its destination; a bulk group's source, when writing). Reports the first. */
static bool check_overlaps(struct launch *L, const struct event *self, const char *verb,
			   struct cta *cta, enum mspace space, uint64_t addr, uint32_t size,
			   bool write, uint32_t lane)
{
	bool shared = space != MS_GLOBAL;
	for (uint32_t i = 0; i < L->async.nevents; i++) {
		const struct event *e = &L->async.events[i];
		if (e->kind == EV_ARRIVE || e == self || (!shared && e->kind == EV_TENSOR))
			continue; /* (a tensor box's global side: see bulk_races) */
		bool hit_dst = false, hit_src = false;
		if (shared) {
			bool mine = e->multicast ? e->dcta && e->dcta->cluster == cta->cluster &&
							   (e->ctamask >> cta->rank & 1)
						 : e->dcta == cta;
			hit_dst = e->dcta && mine && overlaps(addr, size, e->doff, e->size);
			hit_src = write && e->sspace != MS_GLOBAL && e->scta == cta &&
				  overlaps(addr, size, e->saddr, src_bytes(e));
		} else {
			hit_dst = !e->dcta && overlaps(addr, size, e->daddr, e->size);
			hit_src = write && e->sspace == MS_GLOBAL &&
				  overlaps(addr, size, e->saddr, src_bytes(e));
		}
		struct access a;
		if ((hit_dst || hit_src) && !self && !race_after_issue(L, L->cw, lane, &e->rc) &&
		    race_place(L, L->cw, cta, addr, size, &a)) {
			/* the copy's issue is not ordered before the access: a data race */
			race_copy_in_flight(L, lane, &e->rc, e->insn, &a, size, write, !hit_dst);
			return true;
		}
		if (hit_dst || hit_src) {
			rule_break(L, RULE_ASYNC_RACE, 1u << lane,
				   "%s of %u bytes at %s 0x%llx %s the %s of the %s issued at line "
				   "%u, which has not completed",
				   verb, size, shared ? "shared" : "global",
				   (unsigned long long)addr, hit_dst ? "touches" : "overwrites",
				   hit_dst ? "destination" : "source", event_name(e),
				   line_of(L, e->insn));
			return true;
		}
	}
	for (uint32_t i = 0; i < L->landed.n; i++) {
		const struct landed *r = &L->landed.rec[i];
		if (r->cta != cta || !overlaps(addr, size, r->addr, r->size) || (r->src && !write))
			continue;
		if (!self && !race_after_issue(L, L->cw, lane, &r->rc))
			continue; /* a data race, on the copy's records in the shadow (race.c) */
		if (r->src)
			rule_break(L, RULE_ASYNC_RACE, 1u << lane,
				   "%s of %u bytes at %s 0x%llx overwrites the source of the %s issued at "
				   "line %u before the issuing thread waited for its bulk group "
				   "(cp.async.bulk.wait_group.read)", verb, size, cta ? "shared" : "global",
				   (unsigned long long)addr, ir_op_name((enum ir_op)r->insn->op),
				   line_of(L, r->insn));
		else
			rule_break(L, RULE_ASYNC_RACE, 1u << lane,
				   "%s of %u bytes at %s 0x%llx touches the destination of the %s issued "
				   "at line %u before its completion was observed (it landed, but %s)",
				   verb, size, cta ? "shared" : "global", (unsigned long long)addr,
				   ir_op_name((enum ir_op)r->insn->op), line_of(L, r->insn),
				   r->mb ? "no wait on its mbarrier has returned True since"
					 : "the issuing thread has not waited for its bulk group");
		landed_forget(L, i);
		return true;
	}
	return false;
}

bool async_check_access(struct launch *L, struct cta *cta, enum mspace space, uint64_t addr,
			uint32_t size, bool write, uint32_t lane)
{
	return check_overlaps(L, NULL, write ? "store" : "load", cta, space, addr, size, write, lane);
}

void async_check_read(struct launch *L, struct cta *cta, uint32_t off, uint32_t size,
		      uint32_t lane, const char *verb)
{
	check_overlaps(L, NULL, verb, cta, MS_SHARED_CTA, off, size, false, lane);
}

/* A bulk copy reads its source and writes its destination from its issue on: neither may
 * be bytes another asynchronous operation has not finished with (rule async-copy-race). */
static bool bulk_races(struct launch *L, const struct event *e, uint32_t lane)
{
	char rd[64], wr[64];
	snprintf(rd, sizeof rd, "%s read", ir_op_name((enum ir_op)e->insn->op));
	snprintf(wr, sizeof wr, "%s write", ir_op_name((enum ir_op)e->insn->op));
	/* a tensor box in global memory is no contiguous range: its global side is not checked */
	bool global_side = e->kind != EV_TENSOR, raced = false;
	if (e->scta || global_side)
		raced = check_overlaps(L, e, rd, e->scta, e->scta ? MS_SHARED_CTA : MS_GLOBAL,
				       e->saddr, src_bytes(e), false, lane);
	if (!e->dcta) {
		if (!L->stop && global_side)
			raced |= check_overlaps(L, e, wr, NULL, MS_GLOBAL, e->daddr, e->size, true,
						lane);
		return raced;
	}
	for (uint32_t r = 0, t = bulk_targets(e); t >> r && !L->stop; r++)
		if (t >> r & 1) {
			raced |= check_overlaps(L, e, wr, &e->dcta->cluster->ctas[r], MS_SHARED_CTA,
						e->doff, e->size, true, lane);
			if (!L->stop && L->wg.reading) /* and no operand of a wgmma in flight */
				wgmma_check_copy(L, &e->dcta->cluster->ctas[r], (uint32_t)e->doff,
						 e->size, lane, wr);
		}
	return raced;
}

bool async_shared_operand(struct launch *L, struct warp *w, uint64_t a, enum mspace sp,
			  uint32_t lane, struct cta **c, uint32_t *off, const char *what)
{
	if (sp == MS_GENERIC) {
		if (mem_generic_space(a) != MS_SHARED_CLUSTER)
			goto bad;
		a -= WIN_SHARED;
	}
	if (!mem_cluster_decode(L, w->cta, a, c, off))
		goto bad;
	return true;
bad:
	rule_break(L, RULE_BULK_BOUNDS, 1u << lane, "%s 0x%llx is not a shared address of the "
		   "cluster", what, (unsigned long long)a);
	return false;
}

/* A bulk operation's size must be a multiple of 16 (ISA 9.7.9.25.4); with --keep-going
 * the whole 16-byte blocks go ahead, as on the H100. False if nothing does. */
static bool bulk_size(struct launch *L, const struct dinsn *di, uint32_t lane, uint64_t *size)
{
	if (*size % 16 == 0)
		return true;
	rule_break(L, RULE_BULK_SIZE, 1u << lane, "%s size %llu is not a multiple of 16",
		   ir_op_name((enum ir_op)di->op), (unsigned long long)*size);
	*size &= ~15ull;
	return !L->stop;
}

/* ... and its addresses 16-byte aligned. */
static bool bulk_aligned(struct launch *L, const struct dinsn *di, uint32_t lane, uint64_t a,
			 const char *which)
{
	if (a % 16 == 0)
		return true;
	rule_break(L, RULE_BULK_ALIGN, 1u << lane, "%s %s address 0x%llx is not 16-byte aligned",
		   ir_op_name((enum ir_op)di->op), which, (unsigned long long)a);
	return false;
}

/* cp.reduce.async.bulk reads its destination: generic-proxy stores there need a
 * fence.proxy.async first, as for a source (async-proxy-fence). */
static void reduce_dst_fenced(struct launch *L, const struct dinsn *di, uint32_t lane,
			      bool dirty, const char *space, uint64_t a, uint64_t size)
{
	if (di->op == OP_CP_REDUCE_ASYNC_BULK && dirty)
		rule_break(L, RULE_PROXY_FENCE, 1u << lane, "cp.reduce.async.bulk reduces into %s "
			   "0x%llx+%llu, written by ordinary stores with no fence.proxy.async since",
			   space, (unsigned long long)a, (unsigned long long)size);
}

/* cp.async.bulk and cp.reduce.async.bulk: check, resolve both ranges and the barrier now,
 * and queue the event. */
static void issue_bulk(struct launch *L, struct warp *w, struct frame *f, const struct dinsn *di,
		       uint32_t lane)
{
	const char *name = ir_op_name((enum ir_op)di->op);
	uint64_t da = op_addr(L, w, f, &di->s[0], lane);
	uint64_t sa = op_addr(L, w, f, &di->s[1], lane);
	uint64_t size = op_read(L, w, f, &di->s[2], lane) & 0xffffffffu;
	if (!bulk_size(L, di, lane, &size) || !bulk_aligned(L, di, lane, da, "destination") ||
	    !bulk_aligned(L, di, lane, sa, "source"))
		return;
	uint32_t ctamask = 0;
	if (di->flags & DF_MULTICAST) {
		ctamask = (uint32_t)op_read(L, w, f, &di->s[4], lane) & 0xffff;
		if (ctamask >> w->cta->cluster->nctas) {
			rule_break(L, RULE_BULK_MULTICAST_MASK, 1u << lane, "ctaMask 0x%x names CTA "
				   "rank %d, but the cluster has %u CTAs", ctamask,
				   31 - __builtin_clz(ctamask), w->cta->cluster->nctas);
			return;
		}
		if (!ctamask)
			return; /* no destination: nothing is copied, no tx completes (H100) */
	}
	struct event *e = push(L, EV_BULK, w, lane, di, L->steps + latency(L));
	if (!e)
		return;
	e->multicast = di->flags & DF_MULTICAST;
	e->ctamask = ctamask;
	e->size = (uint32_t)size;
	e->dspace = (enum mspace)di->space;
	e->sspace = (enum mspace)di->space2;
	/* source */
	if (di->space2 == MS_GLOBAL) {
		struct region *r = mem_find(L->mem, sa, size ? size : 1);
		if (!r) {
			rule_break(L, RULE_BULK_BOUNDS, 1u << lane, "%s source range 0x%llx+%llu is "
				   "outside every global allocation", name, (unsigned long long)sa,
				   (unsigned long long)size);
			goto drop;
		}
		if (mem_global_proxy_dirty(r, sa, size))
			rule_break(L, RULE_PROXY_FENCE, 1u << lane,
				   "%s reads global 0x%llx+%llu, written by ordinary stores with no "
				   "fence.proxy.async since", name, (unsigned long long)sa,
				   (unsigned long long)size);
		e->src = r->data + (sa - r->base);
		e->saddr = sa;
	} else {
		struct cta *c;
		uint32_t off;
		if (!async_shared_operand(L, w, sa, di->space2, lane, &c, &off, "source"))
			goto drop;
		if (c != w->cta || off + size > c->smem_size) {
			rule_break(L, RULE_BULK_BOUNDS, 1u << lane, "%s source shared 0x%x+%llu is "
				   "outside the executing CTA's %u bytes of shared memory", name, off,
				   (unsigned long long)size, w->cta->smem_size);
			goto drop;
		}
		if (mem_proxy_dirty(c, off, (uint32_t)size))
			rule_break(L, RULE_PROXY_FENCE, 1u << lane,
				   "%s reads shared 0x%x+%llu, written by ordinary stores with no "
				   "fence.proxy.async since", name, off, (unsigned long long)size);
		e->src = c->smem + off;
		e->scta = c;
		e->saddr = off;
	}
	/* destination */
	if (di->flags & DF_DST_GLOBAL) {
		struct region *r = mem_find(L->mem, da, size ? size : 1);
		if (!r) {
			rule_break(L, RULE_BULK_BOUNDS, 1u << lane, "%s destination range "
				   "0x%llx+%llu is outside every global allocation", name,
				   (unsigned long long)da, (unsigned long long)size);
			goto drop;
		}
		reduce_dst_fenced(L, di, lane, mem_global_proxy_dirty(r, da, size), "global", da,
				  size);
		e->dst = r->data + (da - r->base);
		e->daddr = da;
		e->bulk_group = true;
		e->group = w->bulk_open[lane];
		race_copy_issue(L, w, lane, RA_BULK, &e->rc);
		e->rc.raced = bulk_races(L, e, lane);
		return;
	}
	struct cta *dc;
	uint32_t doff;
	if (!async_shared_operand(L, w, da, di->space, lane, &dc, &doff, "destination"))
		goto drop;
	if (doff + size > dc->smem_size) {
		rule_break(L, RULE_BULK_BOUNDS, 1u << lane, "%s destination shared 0x%x+%llu is "
			   "outside the %u bytes of shared memory", name, doff,
			   (unsigned long long)size, dc->smem_size);
		goto drop;
	}
	reduce_dst_fenced(L, di, lane, mem_proxy_dirty(dc, doff, (uint32_t)size), "shared", doff,
			  size);
	bool foreign_dst = di->space == MS_SHARED_CTA && dc != w->cta;
	if (foreign_dst) {
		rule_break(L, RULE_BULK_DST_CTA, 1u << lane, "the .shared::cta destination is in "
			   "CTA rank %u, not the executing CTA", dc->rank);
		if (L->stop)
			goto drop;
		/* the H100 copies there and completes tx on that CTA's barrier (below) */
	}
	if (di->flags & DF_SRC_SHARED && dc == w->cta) {
		rule_break(L, RULE_BULK_DST_CTA, 1u << lane, "a shared::cta to shared::cluster copy "
			   "must go to another CTA of the cluster");
		if (L->stop)
			goto drop;
		/* the H100 copies to the executing CTA like any other */
	}
	e->dcta = dc;
	e->doff = doff;
	e->daddr = doff;
	for (uint32_t r = 0, t = bulk_targets(e); t >> r; r++) {
		struct cta *c = &dc->cluster->ctas[r];
		if ((t >> r & 1) && c->exited && c != w->cta) {
			rule_break(L, RULE_PEER_EXITED, 1u << lane, "%s to the shared memory of CTA "
				   "rank %u, which has exited", name, c->rank);
			goto drop;
		}
	}
	if (di->flags & DF_COMPLETE_TX) {
		uint64_t ma = op_addr(L, w, f, &di->s[3], lane);
		struct cta *mc;
		uint32_t moff;
		if (!async_shared_operand(L, w, ma, di->space == MS_SHARED_CTA ? MS_SHARED_CTA :
				 MS_SHARED_CLUSTER, lane, &mc, &moff, "mbarrier"))
			goto drop;
		if (moff % 8) {
			rule_break(L, RULE_MBAR_MISALIGNED, 1u << lane,
				   "mbarrier address 0x%x is not 8-byte aligned", moff);
			goto drop;
		}
		if (mc != dc && !foreign_dst) {
			rule_break(L, RULE_BULK_MBAR_CTA, 1u << lane, "the mbarrier is in CTA rank %u "
				   "but the destination in CTA rank %u", mc->rank, dc->rank);
			if (L->stop)
				goto drop;
		}
		/* the H100 completes tx on the barrier at the same offset in the destination */
		for (uint32_t r = 0, t = bulk_targets(e); t >> r; r++)
			if ((t >> r & 1) && !mbar_async_issue_check(L, w, &dc->cluster->ctas[r], moff,
								   lane, name))
				goto drop;
		e->has_mbar = true;
		e->mbar_off = moff;
	}
	race_copy_issue(L, w, lane, RA_MBAR, &e->rc);
	e->rc.raced = bulk_races(L, e, lane);
	return;
drop:
	L->async.nevents--;
}

void async_issue_tensor(struct launch *L, struct warp *w, uint32_t lane, const struct dinsn *di,
			const struct async_tensor *t)
{
	struct event *e = push(L, EV_TENSOR, w, lane, di, L->steps + latency(L));
	if (!e) {
		tma_job_free(t->job);
		return;
	}
	e->tjob = t->job;
	if (t->to_global) { /* shared::cta -> global, in the thread's open bulk group */
		e->scta = t->cta;
		e->sspace = MS_SHARED_CTA;
		e->saddr = t->soff;
		e->ssize = t->ssize;
		e->dspace = MS_GLOBAL;
		e->daddr = t->gaddr;
		e->size = (uint32_t)t->gsize;
		e->bulk_group = true;
		e->group = w->bulk_open[lane];
	} else {
		e->sspace = MS_GLOBAL;
		e->saddr = t->gaddr;
		e->ssize = t->gsize ? (uint32_t)t->gsize : 1;
		e->dspace = MS_SHARED_CLUSTER;
		e->dcta = t->cta;
		e->doff = t->soff;
		e->daddr = t->soff;
		e->size = t->ssize;
		e->multicast = t->multicast;
		e->ctamask = t->ctamask;
		e->has_mbar = t->has_mbar;
		e->mbar_off = t->mbar_off;
		e->tx = t->tx;
	}
	race_copy_issue(L, w, lane, t->to_global ? RA_BULK : RA_MBAR, &e->rc);
	e->rc.raced = bulk_races(L, e, lane);
}

static void issue_cp_async(struct launch *L, struct warp *w, struct frame *f,
			   const struct dinsn *di, uint32_t lane)
{
	uint64_t da = op_addr(L, w, f, &di->s[0], lane);
	uint64_t sa = op_addr(L, w, f, &di->s[1], lane);
	uint32_t size = (uint32_t)op_read(L, w, f, &di->s[2], lane);
	uint32_t src_size = di->nsrc > 3 ? (uint32_t)op_read(L, w, f, &di->s[3], lane) : size;
	if (di->flags & DF_IGNORE_SRC) /* True: the source is not read, the bytes are zeros */
		src_size = src_size & 1 ? 0 : size;
	if ((size != 4 && size != 8 && size != 16) || src_size > size ||
	    (di->mode == MOD_CG && size != 16)) {
		rule_break(L, RULE_CP_ASYNC_SIZE, 1u << lane, "cp.async of %u bytes (src-size %u)",
			   size, src_size);
		if (L->stop || src_size <= size)
			return;
		src_size = size; /* the H100 copies cp-size bytes */
	}
	/* Only src-size bytes of the source are read: with 0 (a masked-off load, as Triton
	 * writes them) the source address may point anywhere. */
	struct access d, s = {0};
	if (!access_lane(L, w, lane, MS_SHARED_CTA, da, size, true, &d) ||
	    (src_size && !access_lane(L, w, lane, MS_GLOBAL, sa, src_size, false, &s)))
		return;
	struct event *e = push(L, EV_COPY, w, lane, di, L->steps + latency(L));
	if (!e)
		return;
	e->size = size;
	e->src_size = src_size;
	e->src = s.p;
	e->dst = d.p;
	e->dcta = NULL; /* a plain byte copy: dst pointer is final */
	e->group = w->cp_open[lane];
	e->dspace = MS_SHARED_CTA;
	e->sspace = MS_GLOBAL;
	e->saddr = sa;
	/* race checks on the shared destination use (cta, offset) */
	e->dcta = d.cta;
	e->doff = d.off;
	e->daddr = d.off;
	race_copy_issue(L, w, lane, RA_CP, &e->rc);
}

/* cp.async.bulk.prefetch: the manual asks a size that is a multiple of 16 and a 16-byte
 * aligned address, so those break bulk-copy-size and bulk-copy-alignment. It does not ask
 * the range to lie in an allocation, as cp.async.bulk's section does: the instruction "may
 * initiate" a prefetch, a hint with no architectural effect (like prefetch, which ptxi runs
 * as nothing too), so an address outside every allocation is no error and nothing else
 * happens. */
static void issue_prefetch(struct launch *L, struct warp *w, struct frame *f,
			   const struct dinsn *di, uint32_t lane)
{
	uint64_t sa = op_addr(L, w, f, &di->s[0], lane);
	uint64_t size = op_read(L, w, f, &di->s[1], lane) & 0xffffffffu;
	if (bulk_size(L, di, lane, &size))
		bulk_aligned(L, di, lane, sa, "source");
}

/* The cp.async.mbarrier.arrive event lands after the thread's earlier copies. */
static void issue_arrive(struct launch *L, struct warp *w, struct frame *f,
			 const struct dinsn *di, uint32_t lane)
{
	struct mbar *mb = mbar_cp_async_arrive_issue(L, w, f, di, lane);
	if (!mb)
		return;
	uint64_t after = L->steps;
	for (uint32_t i = 0; i < L->async.nevents; i++) {
		const struct event *o = &L->async.events[i];
		if (o->w == w && o->lane == lane && o->kind == EV_COPY && o->due > after)
			after = o->due;
	}
	struct event *e = push(L, EV_ARRIVE, w, lane, di,
			       after + (L->cfg.seed ? latency(L) : ARRIVE_LATENCY));
	if (!e)
		return;
	e->noinc = di->flags & DF_NOINC;
	e->mbar_cta = mb->cta;
	e->mbar_off = mb->off;
	race_copy_issue(L, w, lane, RA_CP, &e->rc); /* the copies issued before it */
}

/* The space of an address operand of st.async / red.async: the written one, else a named
 * variable's own, else generic. */
static enum mspace opnd_space(const struct dinsn *di, const struct dop *a)
{
	if (di->space != MS_GENERIC)
		return (enum mspace)di->space;
	return !a->has_reg && a->sym ? (enum mspace)a->space : MS_GENERIC;
}

/* Where st.async and red.async may write (ISA 9.7.9.12, 9.7.13.7). */
static void check_destination(struct launch *L, struct warp *w, const struct dinsn *di,
			      const struct cta *dc, uint32_t lane)
{
	if (di->op == OP_ST_ASYNC && w->cta->cluster->nctas < 2)
		rule_break(L, RULE_ASYNC_STORE_DESTINATION, 1u << lane,
			   "st.async in a cluster of one CTA (it needs %%cluster_nctarank > 1)");
	else if (di->op == OP_RED_ASYNC && dc == w->cta)
		rule_break(L, RULE_ASYNC_STORE_DESTINATION, 1u << lane,
			   "red.async to the shared memory of the executing CTA (rank %u), not to "
			   "another CTA of the cluster", dc->rank);
}

/* st.async / red.async: resolve the destination and the barrier now, and read the value. */
static void issue_store(struct launch *L, struct warp *w, struct frame *f,
			const struct dinsn *di, uint32_t lane)
{
	const char *what = ir_op_name((enum ir_op)di->op);
	uint32_t es = (uint32_t)ir_type_size((enum ir_mod)di->type), size = es * di->vec;
	uint64_t da = op_addr(L, w, f, &di->s[0], lane), ma = op_addr(L, w, f, &di->s[2], lane);
	struct access d;
	struct cta *mc;
	uint32_t moff;
	if (!mem_locate_shared(L, w, lane, opnd_space(di, &di->s[0]), da, size, &d) ||
	    !mbar_decode(L, w, ma, opnd_space(di, &di->s[2]), lane, what, &mc, &moff))
		return;
	if (mc != d.cta) {
		rule_break(L, RULE_ASYNC_STORE_MBAR_CTA, 1u << lane, "the mbarrier is in CTA rank "
			   "%u but the destination in CTA rank %u", mc->rank, d.cta->rank);
		if (L->stop)
			return;
		mc = d.cta; /* the H100 completes tx on the barrier at that offset there */
	}
	check_destination(L, w, di, d.cta, lane);
	if (L->stop || !mbar_async_issue_check(L, w, mc, moff, lane, what))
		return;
	struct event *e = push(L, EV_STORE, w, lane, di, L->steps + latency(L));
	if (!e)
		return;
	e->size = size;
	e->dcta = d.cta;
	e->doff = d.off;
	e->daddr = d.off;
	e->dspace = MS_SHARED_CLUSTER;
	e->has_mbar = true;
	e->mbar_cta = mc;
	e->mbar_off = moff;
	race_copy_issue(L, w, lane, RA_MBAR, &e->rc);
	for (uint32_t i = 0; i < di->vec; i++) {
		const struct dop *s = di->s[1].kind == DOP_VEC ? &di->s[1].elems[i] : &di->s[1];
		uint64_t v = op_read(L, w, f, s, lane);
		memcpy(e->data + i * es, &v, es);
	}
}

/* ---- handlers ------------------------------------------------------------------------ */

/* What one lane of an asynchronous instruction does. */
typedef void lane_fn(struct launch *L, struct warp *w, struct frame *f, const struct dinsn *di,
		     uint32_t lane);

/* Run fn for each lane of mask, in lane order, until the launch stops. Asynchronous
 * instructions never wait: wait_group lands what it waits for at once. */
static enum step each_lane(struct launch *L, struct warp *w, struct group *g,
			   const struct dinsn *di, uint32_t mask, lane_fn *fn)
{
	for (uint32_t m = mask; m && !L->stop; m &= m - 1)
		fn(L, w, g->frame, di, (uint32_t)__builtin_ctz(m));
	return STEP_NEXT;
}

static void commit_cp(struct launch *L, struct warp *w, struct frame *f, const struct dinsn *di,
		      uint32_t lane)
{
	(void)L, (void)f, (void)di;
	w->cp_open[lane]++;
}

static void commit_bulk(struct launch *L, struct warp *w, struct frame *f,
			const struct dinsn *di, uint32_t lane)
{
	(void)L, (void)f, (void)di;
	w->bulk_open[lane]++;
}

static void wait_all(struct launch *L, struct warp *w, struct frame *f, const struct dinsn *di,
		     uint32_t lane)
{
	(void)f, (void)di;
	struct wait_sel s = {.L = L, .w = w, .lane = lane, .all = true};
	land_waited(L, &s);
	race_copy_waited(L, w, lane, RA_CP, w->cp_open[lane] + 1);
	w->cp_open[lane]++;
}

/* cp.async.wait_group / cp.async.bulk.wait_group N: all but the newest N groups land. */
static void wait_group(struct launch *L, struct warp *w, struct frame *f, const struct dinsn *di,
		       uint32_t lane)
{
	struct wait_sel s = {.L = L, .w = w, .lane = lane};
	uint64_t n = op_read(L, w, f, &di->s[0], lane);
	s.bulk = di->op == OP_CP_ASYNC_BULK_WAIT_GROUP;
	s.read = di->flags & DF_READ;
	uint32_t open = s.bulk ? w->bulk_open[lane] : w->cp_open[lane];
	s.below = n >= open ? 0 : open - (uint32_t)n;
	land_waited(L, &s);
	race_copy_waited(L, w, lane, s.bulk ? RA_BULK : RA_CP, s.below);
}

enum step async_exec_cp(struct launch *L, struct warp *w, struct group *g,
			const struct dinsn *di, uint32_t mask)
{
	return each_lane(L, w, g, di, mask, issue_cp_async);
}

enum step async_exec_mbar_arrive(struct launch *L, struct warp *w, struct group *g,
				 const struct dinsn *di, uint32_t mask)
{
	return each_lane(L, w, g, di, mask, issue_arrive);
}

/* cp.async.bulk and cp.reduce.async.bulk */
enum step async_exec_bulk(struct launch *L, struct warp *w, struct group *g,
			  const struct dinsn *di, uint32_t mask)
{
	return each_lane(L, w, g, di, mask, issue_bulk);
}

enum step async_exec_prefetch(struct launch *L, struct warp *w, struct group *g,
			      const struct dinsn *di, uint32_t mask)
{
	return each_lane(L, w, g, di, mask, issue_prefetch);
}

/* st.async and red.async */
enum step async_exec_store(struct launch *L, struct warp *w, struct group *g,
			   const struct dinsn *di, uint32_t mask)
{
	return each_lane(L, w, g, di, mask, issue_store);
}

enum step async_exec_commit(struct launch *L, struct warp *w, struct group *g,
			    const struct dinsn *di, uint32_t mask)
{
	return each_lane(L, w, g, di, mask, commit_cp);
}

enum step async_exec_bulk_commit(struct launch *L, struct warp *w, struct group *g,
				 const struct dinsn *di, uint32_t mask)
{
	return each_lane(L, w, g, di, mask, commit_bulk);
}

enum step async_exec_wait_all(struct launch *L, struct warp *w, struct group *g,
			      const struct dinsn *di, uint32_t mask)
{
	return each_lane(L, w, g, di, mask, wait_all);
}

/* cp.async.wait_group and cp.async.bulk.wait_group */
enum step async_exec_wait_group(struct launch *L, struct warp *w, struct group *g,
				const struct dinsn *di, uint32_t mask)
{
	return each_lane(L, w, g, di, mask, wait_group);
}
