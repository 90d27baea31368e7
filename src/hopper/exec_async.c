/*
 * exec_async.c - the handlers of the asynchronous copies and stores: each lane's issue
 * (its checks, the ranges and barrier resolved now, the event queued in async.c), commit
 * groups and waits. The semantics, with their ISA sections, are in async.c's notes.
 */
#include <string.h>

#include "run/access.h"
#include "async_priv.h"
#include "run/exec.h"
#include "mbarrier.h"
#include "tma_job.h"
#include "wgmma.h"
#include "run/memory.h"
#include "run/operand.h"
#include "report/rules.h"

/* ---- issue --------------------------------------------------------------------------- */

struct box_check {
	struct launch *L;
	const struct event *e;
	const char *verb;
	bool write, raced;
	uint32_t lane;
};

static bool box_run(void *ctx, uint64_t addr, uint32_t n)
{
	struct box_check *b = ctx;
	b->raced = async_check_overlaps(b->L, b->e, b->verb, NULL, MS_GLOBAL, addr, n, b->write,
					b->lane);
	return !b->raced && !b->L->stop;
}

/* A copy's global side: a range, or a tensor copy's box, one run at a time. */
static bool global_races(struct launch *L, const struct event *e, const char *verb,
			 uint64_t addr, uint32_t size, bool write, uint32_t lane)
{
	if (e->kind != EV_TENSOR)
		return async_check_overlaps(L, e, verb, NULL, MS_GLOBAL, addr, size, write, lane);
	struct box_check b = {L, e, verb, write, false, lane};
	tma_runs(e->tjob, box_run, &b);
	return b.raced;
}

/* A bulk or tensor copy reads its source and writes its destination from its issue on:
 * neither may be bytes another asynchronous operation has not finished with (rule
 * async-copy-race). True when it reported. */
static bool async_bulk_races(struct launch *L, const struct event *e, uint32_t lane)
{
	char rd[64], wr[64];
	snprintf(rd, sizeof rd, "%s read", ir_op_name((enum ir_op)e->insn->op));
	snprintf(wr, sizeof wr, "%s write", ir_op_name((enum ir_op)e->insn->op));
	bool raced = e->scta ? async_check_overlaps(L, e, rd, e->scta, MS_SHARED_CTA, e->saddr,
						    src_bytes(e), false, lane)
			     : global_races(L, e, rd, e->saddr, src_bytes(e), false, lane);
	if (!e->dcta) {
		if (!L->stop)
			raced |= global_races(L, e, wr, e->daddr, e->size, true, lane);
		return raced;
	}
	for (uint32_t r = 0, t = async_targets(e); t >> r && !L->stop; r++)
		if (t >> r & 1) {
			raced |= async_check_overlaps(L, e, wr, &e->dcta->cluster->ctas[r],
						      MS_SHARED_CTA, e->doff, e->size, true, lane);
			if (!L->stop && (L->wg.reading || (L->cw && L->cw->wg_busy)))
				wgmma_check_copy(L, &e->dcta->cluster->ctas[r], (uint32_t)e->doff,
						 e->size, lane, wr); /* no wgmma operand in flight */
		}
	return raced;
}

void async_issue_tensor(struct launch *L, struct warp *w, uint32_t lane, const struct dinsn *di,
			const struct async_tensor *t)
{
	struct event *e = async_push(L, EV_TENSOR, w, lane, di, L->steps + async_latency(L));
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
	e->rc.raced = async_bulk_races(L, e, lane);
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
	struct event *e = async_push(L, EV_BULK, w, lane, di, L->steps + async_latency(L));
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
		if (mem_global_proxy_dirty(L, r, sa, size))
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
		reduce_dst_fenced(L, di, lane, mem_global_proxy_dirty(L, r, da, size), "global", da,
				  size);
		e->dst = r->data + (da - r->base);
		e->daddr = da;
		e->bulk_group = true;
		e->group = w->bulk_open[lane];
		race_copy_issue(L, w, lane, RA_BULK, &e->rc);
		e->rc.raced = async_bulk_races(L, e, lane);
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
	for (uint32_t r = 0, t = async_targets(e); t >> r; r++) {
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
		for (uint32_t r = 0, t = async_targets(e); t >> r; r++)
			if ((t >> r & 1) && !mbar_async_issue_check(L, w, &dc->cluster->ctas[r], moff,
								   lane, name))
				goto drop;
		e->has_mbar = true;
		e->mbar_off = moff;
	}
	race_copy_issue(L, w, lane, RA_MBAR, &e->rc);
	e->rc.raced = async_bulk_races(L, e, lane);
	return;
drop:
	async_cancel(L);
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
	struct event *e = async_push(L, EV_COPY, w, lane, di, L->steps + async_latency(L));
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
	uint64_t after = async_copies_due(L, w, lane, L->steps);
	struct event *e = async_push(L, EV_ARRIVE, w, lane, di,
			       after + (L->cfg.seed ? async_latency(L) : ARRIVE_LATENCY));
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
	struct event *e = async_push(L, EV_STORE, w, lane, di, L->steps + async_latency(L));
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
	struct async_wait s = {.L = L, .w = w, .lane = lane, .all = true};
	async_land_waited(L, &s);
	race_copy_waited(L, w, lane, RA_CP, w->cp_open[lane] + 1);
	w->cp_open[lane]++;
}

/* cp.async.wait_group / cp.async.bulk.wait_group N: all but the newest N groups land. */
static void wait_group(struct launch *L, struct warp *w, struct frame *f, const struct dinsn *di,
		       uint32_t lane)
{
	struct async_wait s = {.L = L, .w = w, .lane = lane};
	uint64_t n = op_read(L, w, f, &di->s[0], lane);
	s.bulk = di->op == OP_CP_ASYNC_BULK_WAIT_GROUP;
	s.read = di->flags & DF_READ;
	uint32_t open = s.bulk ? w->bulk_open[lane] : w->cp_open[lane];
	s.below = n >= open ? 0 : open - (uint32_t)n;
	async_land_waited(L, &s);
	race_copy_waited(L, w, lane, s.bulk ? RA_BULK : RA_CP, s.below);
}

enum step async_exec_cp(struct launch *L, struct warp *w, struct group *g,
			const struct dinsn *di, uint32_t mask)
{
	return exec_each_lane(L, w, g, di, mask, issue_cp_async);
}

enum step async_exec_mbar_arrive(struct launch *L, struct warp *w, struct group *g,
				 const struct dinsn *di, uint32_t mask)
{
	return exec_each_lane(L, w, g, di, mask, issue_arrive);
}

/* cp.async.bulk and cp.reduce.async.bulk */
enum step async_exec_bulk(struct launch *L, struct warp *w, struct group *g,
			  const struct dinsn *di, uint32_t mask)
{
	return exec_each_lane(L, w, g, di, mask, issue_bulk);
}

enum step async_exec_prefetch(struct launch *L, struct warp *w, struct group *g,
			      const struct dinsn *di, uint32_t mask)
{
	return exec_each_lane(L, w, g, di, mask, issue_prefetch);
}

/* st.async and red.async */
enum step async_exec_store(struct launch *L, struct warp *w, struct group *g,
			   const struct dinsn *di, uint32_t mask)
{
	return exec_each_lane(L, w, g, di, mask, issue_store);
}

enum step async_exec_commit(struct launch *L, struct warp *w, struct group *g,
			    const struct dinsn *di, uint32_t mask)
{
	return exec_each_lane(L, w, g, di, mask, commit_cp);
}

enum step async_exec_bulk_commit(struct launch *L, struct warp *w, struct group *g,
				 const struct dinsn *di, uint32_t mask)
{
	return exec_each_lane(L, w, g, di, mask, commit_bulk);
}

enum step async_exec_wait_all(struct launch *L, struct warp *w, struct group *g,
			      const struct dinsn *di, uint32_t mask)
{
	return exec_each_lane(L, w, g, di, mask, wait_all);
}

/* cp.async.wait_group and cp.async.bulk.wait_group */
enum step async_exec_wait_group(struct launch *L, struct warp *w, struct group *g,
				const struct dinsn *di, uint32_t mask)
{
	return exec_each_lane(L, w, g, di, mask, wait_group);
}
