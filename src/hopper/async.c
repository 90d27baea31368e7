/*
 * async.c - asynchronous copies and stores as events: a queue ordered by due time and issue
 * order, landing (bytes, then complete-tx or arrive-on), what a wait lands, and the checks
 * of accesses against copies in flight. The instructions that issue and wait for events
 * are exec_async.c's (async_priv.h is what the two share): that way the access checks
 * (access.c), which ask this file about copies in flight, sit between them.
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
 *   the destination with the source's (atom's arithmetic, atom.c); it reads its
 *   destination in the async proxy too, so unfenced generic stores there break
 *   async-proxy-fence. Its manual section does not restrict the shared::cluster form to
 *   another CTA, as cp.async.bulk's does: a reduction into the executing CTA is allowed.
 * - cp.async.bulk.wait_group lands the thread's copies of the groups it waits for, tensor
 *   stores and reductions (.bulk_group) among them.
 * - cp.async.bulk.prefetch (9.7.9.25.4.3) has no architectural effect: only its size and
 *   alignment are checked (issue_prefetch says why not its range), and nothing is queued.
 * - st.async / red.async (ISA 9.7.9.12, 9.7.13.7): the value is read at issue; landing
 *   stores it (red.async: reduces with it, through atom.c's arithmetic) in the
 *   destination CTA, then completes tx of its size on the barrier, which must be in that CTA.
 *   They belong to no commit group: only the barrier observes them. They are generic-proxy
 *   writes: a bulk copy that reads them needs fence.proxy.async first.
 * - Every event remembers how many mbarrier objects existed when it was issued: one made
 *   later at the same place (inval, then init) is not the barrier it was issued against.
 */
#include "async_priv.h"

#include <stdlib.h>
#include <string.h>

#include "run/atom.h"
#include "landed.h"
#include "run/initcheck.h"
#include "run/launch.h"
#include "mbarrier.h"
#include "run/memory.h"
#include "run/race.h"
#include "report/rules.h"
#include "report/timeline.h"
#include "tma_job.h"

uint64_t async_latency(struct launch *L)
{
	return L->cfg.seed ? rng_latency(&L->async.rng) : 64;
}

struct event *async_push(struct launch *L, enum ev_kind kind, struct warp *w, uint32_t lane,
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

void async_cancel(struct launch *L)
{
	L->async.nevents--;
}

uint64_t async_copies_due(struct launch *L, const struct warp *w, uint32_t lane, uint64_t after)
{
	for (uint32_t i = 0; i < L->async.nevents; i++) {
		const struct event *o = &L->async.events[i];
		if (o->w == w && o->lane == lane && o->kind == EV_COPY && o->due > after)
			after = o->due;
	}
	return after;
}

void async_reset(struct launch *L)
{
	for (uint32_t i = 0; i < L->async.nevents; i++) {
		tma_job_free(L->async.events[i].tjob);
		race_copy_drop(L, &L->async.events[i].rc);
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
	uint64_t best = L->wg.due; /* seeded wgmma completions share the clock (exec_wgmma.c) */
	for (uint32_t i = 0; i < L->async.nevents; i++)
		if (L->async.events[i].due < best)
			best = L->async.events[i].due;
	return best;
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
	if (may_land(L, e, c)) {
		bulk_put(e, dst);
		init_mark(c, e->doff, e->size);
	}
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

struct box_race {
	struct launch *L;
	const struct event *e;
	enum race_kind kind;
};

static bool race_run(void *ctx, uint64_t addr, uint32_t n)
{
	struct box_race *b = ctx;
	race_land(b->L, b->e, NULL, addr, n, b->kind);
	return !b->L->stop;
}

/* A tensor copy's access of the global bytes of its box, one row's run at a time (its
 * out-of-bounds elements touch no memory). */
static void race_box(struct launch *L, const struct event *e, enum race_kind kind)
{
	struct box_race b = {L, e, kind};
	if (L->race)
		tma_runs(e->tjob, race_run, &b);
}

/* A tensor copy: a store or reduction writes global memory and is observed through its bulk
 * group, like a bulk copy to global; a load reads its box from global memory once, lands in
 * each destination CTA and completes the whole box's bytes on the barrier there. */
static void tensor_land(struct launch *L, struct event *e)
{
	if (!e->dcta) {
		race_land(L, e, e->scta, e->saddr, e->ssize, RACE_READ);
		race_box(L, e, dst_kind(e));
		if (L->stop)
			return;
		bool rmw = e->insn->op == OP_CP_REDUCE_ASYNC_BULK_TENSOR; /* (else a store) */
		if (rmw)
			global_rmw_begin(L);
		tma_land(L, e->tjob, e->scta);
		if (rmw)
			global_rmw_end(L);
		/* its box in global memory is observed by the thread's wait_group (the record
		 * keeps the box: its range holds bytes of the tensor it does not touch), its
		 * shared source stays the copy's until wait_group.read */
		struct landed rec = {.w = e->w, .lane = e->lane, .group = e->group, .insn = e->insn};
		if (e->size) {
			rec.addr = e->daddr;
			rec.size = e->size;
			rec.box = e->tjob;
			e->tjob = NULL;
			landed_remember(L, &e->rc, &rec);
		}
		rec.cta = e->scta;
		rec.addr = e->saddr;
		rec.size = e->ssize;
		rec.src = true;
		rec.box = NULL;
		landed_remember(L, &e->rc, &rec);
		return;
	}
	race_box(L, e, RACE_READ);
	for (uint32_t r = 0, t = async_targets(e); t >> r && !L->stop; r++) {
		if (!(t >> r & 1))
			continue;
		struct cta *c = &e->dcta->cluster->ctas[r];
		if (!may_land(L, e, c))
			continue;
		race_land(L, e, c, e->doff, e->size, RACE_WRITE);
		tma_land(L, e->tjob, c);
		init_mark(c, e->doff, e->size); /* the box's footprint, swizzled within it */
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
		if (e.sspace == MS_GLOBAL) /* its global source, then its shared destination */
			race_land(L, &e, NULL, e.saddr, e.src_size, RACE_READ);
		race_land(L, &e, e.dcta, e.doff, e.size, RACE_WRITE);
		if (e.src_size)
			memcpy(e.dst, e.src, e.src_size);
		memset(e.dst + e.src_size, 0, e.size - e.src_size);
		if (e.dcta)
			init_mark(e.dcta, e.doff, e.size);
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
		if (e.scta)
			race_land(L, &e, e.scta, e.saddr, e.size, RACE_READ);
		else if (e.sspace == MS_GLOBAL)
			race_land(L, &e, NULL, e.saddr, e.size, RACE_READ);
		if (!e.dcta) { /* to global memory: observed by the thread's bulk wait_group */
			race_land(L, &e, NULL, e.daddr, e.size, dst_kind(&e));
			bool rmw = e.insn->op == OP_CP_REDUCE_ASYNC_BULK; /* (else a copy) */
			if (rmw)
				global_rmw_begin(L);
			bulk_put(&e, e.dst);
			if (rmw)
				global_rmw_end(L);
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
		for (uint32_t r = 0, t = async_targets(&e); t >> r && !L->stop; r++) {
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
		tensor_land(L, &e); /* (a store's box may go to its record: e.tjob NULL) */
		tma_job_free(e.tjob);
		break;
	}
	race_copy_drop(L, &e.rc);
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

static int32_t earliest(struct launch *L, bool (*pick)(const struct event *, const void *), const void *ctx,
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
	L->async.next_due = async_next_due(L);
	return n;
}

static bool in_wait(const struct event *e, const void *ctx)
{
	const struct async_wait *s = ctx;
	return e->w == s->w && e->lane == s->lane &&
	       (e->kind == EV_COPY || e->kind == EV_BULK ||
		(e->kind == EV_TENSOR && e->bulk_group)) && e->bulk_group == s->bulk &&
	       (s->all || e->group < s->below);
}

/* An arrive-on of (w, lane) none of whose thread's earlier copies is still in flight. */
static bool ready_arrive(const struct event *e, const void *ctx)
{
	const struct async_wait *s = ctx;
	if (e->kind != EV_ARRIVE || e->w != s->w || e->lane != s->lane)
		return false;
	for (uint32_t i = 0; i < s->L->async.nevents; i++) {
		const struct event *o = &s->L->async.events[i];
		if (o->kind == EV_COPY && o->w == e->w && o->lane == e->lane && o->seq < e->seq)
			return false;
	}
	return true;
}

void async_land_waited(struct launch *L, const struct async_wait *s)
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
bool async_check_overlaps(struct launch *L, const struct event *self, const char *verb,
			  struct cta *cta, enum mspace space, uint64_t addr, uint32_t size,
			  bool write, uint32_t lane)
{
	bool shared = space != MS_GLOBAL;
	for (uint32_t i = 0; i < L->async.nevents; i++) {
		const struct event *e = &L->async.events[i];
		if (e->kind == EV_ARRIVE || e == self)
			continue;
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
			if ((hit_dst || hit_src) && e->kind == EV_TENSOR &&
			    !tma_touches(e->tjob, addr, size)) /* in the box's range, not its bytes */
				hit_dst = hit_src = false;
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
		if (r->cta != cta || !overlaps(addr, size, r->addr, r->size) || (r->src && !write) ||
		    (r->box && !tma_touches(r->box, addr, size)))
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
	return async_check_overlaps(L, NULL, write ? "store" : "load", cta, space, addr, size,
				    write, lane);
}

void async_check_read(struct launch *L, struct cta *cta, uint32_t off, uint32_t size,
		      uint32_t lane, const char *verb)
{
	async_check_overlaps(L, NULL, verb, cta, MS_SHARED_CTA, off, size, false, lane);
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




/* ---- ptxi debug's view ---------------------------------------------------------------- */

bool async_view(const struct launch *L, uint32_t i, struct async_view *v)
{
	if (i >= L->async.nevents)
		return false;
	const struct event *e = &L->async.events[i];
	*v = (struct async_view){.w = e->w, .lane = e->lane, .insn = e->insn, .issued = e->issued,
				 .due = e->due, .size = e->kind == EV_ARRIVE ? 0 : e->size,
				 .dspace = e->dspace, .sspace = e->sspace, .daddr = e->daddr,
				 .saddr = e->saddr, .dcta = e->dcta, .scta = e->scta,
				 .arrive = e->kind == EV_ARRIVE, .mbar_off = e->mbar_off};
	if (e->kind == EV_ARRIVE || e->kind == EV_STORE) {
		v->mbar_ranks = e->mbar_cta ? 1u << e->mbar_cta->rank : 0;
		v->tx = e->kind == EV_STORE ? e->size : 0;
	} else if ((e->kind == EV_BULK || e->kind == EV_TENSOR) && e->has_mbar && e->dcta) {
		v->mbar_ranks = async_targets(e);
		v->tx = e->kind == EV_TENSOR ? e->tx : e->size;
	}
	return true;
}
