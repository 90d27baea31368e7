/*
 * race_shard.c - the detector on a --jobs worker: its cluster's global accesses go to a
 * log replayed in cluster order (race_global.c), or are judged at once on the launch's
 * shadow when every cluster before has been shown.
 */
#include "race_priv.h"

#include <stdlib.h>
#include <string.h>

#include "report/gather.h"
#include "report/rules.h"

/* Markers (race_priv.h) are threads of CTA numbers above the agents'. */
static bool marker_tid(const struct race *R, uint32_t idx, uint32_t *tid)
{
	uint64_t cta = (uint64_t)R->mbase + idx / R->nt;
	if ((cta + 1) << R->shift > (uint64_t)UINT32_MAX + 1)
		return false;
	*tid = (uint32_t)(cta << R->shift) | idx % R->nt;
	return true;
}

void race_marker_into(struct launch *L, uint64_t key, struct vc **into)
{
	struct race *R = L->race;
	uint32_t idx, tid;
	if (!R->glog)
		return;
	if (!race_glog_marker(R->glog, key, &idx) || !marker_tid(R, idx, &tid)) {
		runtime_error(L, 2, "the data-race detector has no room for the global locations "
			      "this cluster synchronises through (--jobs; --jobs 1 has)");
		return;
	}
	R->marked = true;
	vc_raise(R, vc_own(R, into), tid, 1);
}

static bool head_check(struct launch *L, const struct race_gacc *e,
		       const struct dinsn *phantom);

/* The cluster found the oldest not shown: its global accesses judged at once from here on,
 * so that a race stops it where one thread stops, before it writes more (--dump after the
 * report). true: the wait for the clusters before stopped the launch. */
static bool wait_head(struct launch *L)
{
	struct race *R = L->race;
	if (R->head || !L->is_head || !L->is_head(L))
		return false;
	race_glog_wait_head(L, R->glog, L->ci->op == OP_ATOM);
	R->head = !L->stop;
	return L->stop;
}

/* The entry e of a worker's global access, filled: logged for the replay, or judged at once
 * when the cluster is the oldest not shown (false: it raced). */
static bool defer_put(struct launch *L, struct race_gacc *e, const struct dinsn *phantom)
{
	struct race *R = L->race;
	if (wait_head(L))
		return true;
	if (R->head)
		return head_check(L, e, phantom);
	if (!race_glog_add(L, R->glog, e) && !L->stop)
		runtime_error(L, 2, "out of memory keeping the data-race detector's log (--jobs)");
	R->head = race_glog_head(R->glog);
	return true;
}

/* e's bytes of a store (newv) and what the memory holds before it (old). */
static inline void gacc_bytes(struct race_gacc *e, const void *newv, const uint8_t *old,
			      uint32_t size, uint8_t flags)
{
	e->has_newv = newv && size <= sizeof e->newv;
	if (!e->has_newv)
		return;
	memcpy(e->newv, newv, size);
	memcpy(e->old, old, size);
	e->plain = !(flags & (RF_RMW | RF_ASYNC));
}

/* A worker's global access: logged for the replay, or judged at once when the cluster is
 * the oldest not shown (false: it raced). */
static bool defer(struct launch *L, const struct rthread *t, uint32_t tid, uint32_t owner,
		  const struct warp *w, uint32_t lane, const struct access *a, uint32_t size,
		  enum race_kind kind, uint8_t flags, const void *newv, bool copy, bool skip,
		  uint32_t clock, uint32_t issued, const struct dinsn *phantom)
{
	struct race *R = L->race;
	if (!L->log || !R->glog) /* a loop watched past the step limit (sched.c): unreported */
		return true;
	const struct cta *c = w->cta;
	struct race_gacc e = {.insn = L->ci, .vc = tvc(R, t), .region = a->region, .addr = a->addr,
			      .tid = tid, .owner = owner, .clock = clock,
			      .step = (uint32_t)L->steps, .issued = issued,
			      .seen_cp = t->seen_cp, .seen_bulk = t->seen_bulk, .cta = c->linear,
			      .ctaid = {c->ctaid[0], c->ctaid[1], c->ctaid[2]}, .rank = c->rank,
			      .warp = w->id, .lane = lane, .size = size, .what = GA_ACCESS,
			      .kind = (uint8_t)kind, .flags = flags, .copy = copy,
			      .skip_agents = skip};
	gacc_bytes(&e, newv, a->p, size, flags);
	return defer_put(L, &e, phantom);
}

/* Which of the lanes of mask of w hold another vector, epoch or copies' clocks than the
 * first: the GL_* arrays their entry needs (a vector told by its pointer: lanes of one
 * vector the warp holds, race.wvc's, are one; branch-free, for a whole warp). */
static uint8_t lanes_lay(struct race *R, const struct rthread *t0, const uint32_t *k0,
			 uint32_t mask)
{
	uint32_t f = (uint32_t)__builtin_ctz(mask);
	uintptr_t v = (uintptr_t)tvc(R, t0 + f), dv = 0;
	uint32_t k = k0[f], cp = t0[f].seen_cp, bulk = t0[f].seen_bulk, dk = 0, ds = 0;
	if (mask == 0xffffffffu) {
		for (uint32_t l = 0; l < LANES; l++) {
			dv |= (uintptr_t)tvc(R, t0 + l) ^ v;
			dk |= k0[l] ^ k;
			ds |= (t0[l].seen_cp ^ cp) | (t0[l].seen_bulk ^ bulk);
		}
	} else {
		for (uint32_t m = mask; m; m &= m - 1) {
			uint32_t l = (uint32_t)__builtin_ctz(m);
			dv |= (uintptr_t)tvc(R, t0 + l) ^ v;
			dk |= k0[l] ^ k;
			ds |= (t0[l].seen_cp ^ cp) | (t0[l].seen_bulk ^ bulk);
		}
	}
	return (uint8_t)((dv ? GL_VC : 0) | (dk ? GL_CLOCK : 0) | (ds ? GL_SEEN : 0));
}

/* A warp's plain access of the lanes of mask logged in one entry (GA_LANES); false: out of
 * memory (reported). */
static bool log_lanes(struct launch *L, struct warp *w, uint32_t mask, const struct region *r,
		      const uint64_t *addr, uint8_t *const *p, uint32_t size, const uint64_t *v)
{
	struct race *R = L->race;
	const struct rthread *t0 = thr(R, w, 0);
	const uint32_t *k0 = clock_of(R, t0);
	uint32_t n = (uint32_t)__builtin_popcount(mask), f = (uint32_t)__builtin_ctz(mask);
	const struct cta *c = w->cta;
	struct race_gacc e = {.insn = L->ci, .region = r, .step = (uint32_t)L->steps,
			      .tid = tid_of(R, w, 0), .cta = c->linear,
			      .ctaid = {c->ctaid[0], c->ctaid[1], c->ctaid[2]}, .rank = c->rank,
			      .warp = w->id, .size = size, .lanes = mask, .what = GA_LANES,
			      .kind = (uint8_t)(v ? RACE_WRITE : RACE_READ),
			      .lay = lanes_lay(R, t0, k0, mask), .vc = tvc(R, t0 + f),
			      .clock = k0[f], .seen_cp = t0[f].seen_cp,
			      .seen_bulk = t0[f].seen_bulk};
	if (!(e.each = race_glog_lanes(L, R->glog, n, e.lay, v)))
		return false;
	struct race_glanes g = race_glanes_at(&e);
	if (mask == 0xffffffffu && !e.lay && !v) { /* (a whole warp's load, one vector) */
		memcpy(g.addr, addr, LANES * sizeof *addr);
		return race_glog_add(L, R->glog, &e);
	}
	uint32_t k = 0;
	for (uint32_t m = mask; m; m &= m - 1, k++) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		g.addr[k] = addr[l];
		if (g.vc)
			g.vc[k] = tvc(R, t0 + l);
		if (g.clock)
			g.clock[k] = k0[l];
		if (g.seen) {
			g.seen[2 * k] = t0[l].seen_cp;
			g.seen[2 * k + 1] = t0[l].seen_bulk;
		}
		if (v) {
			g.newv[k] = v[l];
			g.old[k] = 0;
			copy_small(&g.old[k], p[l], size);
		}
	}
	return race_glog_add(L, R->glog, &e);
}

uint32_t race_defer_lanes(struct launch *L, struct warp *w, uint32_t mask,
			  const struct region *r, const uint64_t *addr, uint8_t *const *p,
			  uint32_t size, const uint64_t *v)
{
	struct race *R = L->race;
	if (L->log && R->glog) { /* (else as defer) */
		if (!log_lanes(L, w, mask, r, addr, p, size, v) && !L->stop)
			runtime_error(L, 2, "out of memory keeping the data-race detector's log "
				      "(--jobs)");
		R->head = race_glog_head(R->glog);
		if (L->stop)
			return 0;
	}
	for (uint32_t m = v ? mask : 0; m; m &= m - 1)
		store_low(p[__builtin_ctz(m)], v[__builtin_ctz(m)], size);
	return mask;
}

/* The launch's detector state made L's (a worker's whose cluster is the oldest not shown:
 * nothing else touches it until this cluster is shown), with the worker's threads; the
 * launch it served. */
static struct launch *swap_in(struct launch *L)
{
	struct race *R = L->race, *M = R->whole;
	struct launch *served = M->L;
	L->race = M;
	M->L = L;
	M->cl = R->cl;
	M->th = R->th;
	M->clk = R->clk;
	M->wvc = R->wvc;
	M->nw = R->nw;
	M->wvc_ok = R->wvc_ok;
	return served;
}

/* ... and given back to the launch it served; L's own (R) again. */
void race_head_leave(struct launch *L, struct race *R, struct launch *served)
{
	struct race *M = L->race;
	M->cl = NULL;
	M->th = NULL;
	M->clk = NULL;
	M->wvc = NULL;
	M->L = served;
	L->race = R;
}

/* The access e of the oldest cluster not shown, judged on the launch's shadow as one thread
 * judges it, with its reports in the worker's log where they belong. */
static bool head_check(struct launch *L, const struct race_gacc *e,
		       const struct dinsn *phantom)
{
	struct race *R = L->race;
	struct race_glog *G = R->glog;
	struct launch *served = swap_in(L);
	struct vc *v = race_glog_resolved(L, G, e->vc);
	uint8_t old[sizeof e->old];
	if (e->has_newv)
		race_glog_old(L, e, old);
	bool ok = !v || race_replay_access(L, NULL, e, v, old, race_glog_step(G, e->step),
					   race_glog_step(G, e->issued), phantom);
	if (!L->stop)
		race_glog_stored(L, e);
	race_head_leave(L, R, served);
	return ok;
}

/* Whether some lane of mask of w holds a vector with a marker (race_resolve's work): none
 * while the worker never made one (the common case: no lane looked at). */
static bool lanes_marked(struct race *R, const struct warp *w, uint32_t mask)
{
	const struct vc *seen = NULL;
	if (!R->marked)
		return false;
	for (uint32_t m = mask; m; m &= m - 1) {
		const struct vc *v = tvc(R, thr(R, w, (uint32_t)__builtin_ctz(m)));
		if (v != seen && v->n && v->ch[v->n - 1].cta >= R->mbase)
			return true;
		seen = v;
	}
	return false;
}

struct launch *race_head_enter(struct launch *L, struct warp *w, uint32_t mask,
			       uint32_t *step)
{
	struct race *R = L->race;
	if (!L->log || !R->glog || wait_head(L) || !R->head || lanes_marked(R, w, mask))
		return NULL;
	*step = race_glog_step(R->glog, (uint32_t)L->steps);
	return swap_in(L);
}

static bool race_pair_keep(struct launch *L, const void *a, const void *b)
{
	return !L->race || race_first_pair(L->race, a, b);
}

bool race_shard_report_begin(struct launch *L, struct race *R, const void *a, const void *b)
{
	if (!R->shard || !L->log)
		return true;
	if (R->head) /* every cluster before was shown: the launch's pairs say now */
		return race_first_pair(R->whole, a, b);
	gather_log_group_begin(L->log, race_pair_keep, a, b); /* they say at the replay */
	return true;
}

void race_shard_report_end(struct launch *L, struct race *R)
{
	if (R->shard && L->log && !R->head)
		gather_log_group_end(L->log);
}

void race_defer_access(struct launch *L, struct warp *w, uint32_t lane,
			 const struct access *a, uint32_t size, enum race_kind kind,
			 const void *newv)
{
	struct race *R = L->race;
	struct rthread *t = thr(R, w, lane);
	uint32_t tid = tid_of(R, w, lane);
	uint8_t flags = race_access_flags(L->ci);
	/* A strong read sees what other clusters wrote: it waits until every cluster before
	 * has run, so that it reads what one thread's would (a red returns nothing) */
	if ((flags & RF_STRONG) && kind != RACE_WRITE && L->ci->op != OP_RED && R->glog &&
	    !R->head) {
		race_glog_wait_head(L, R->glog, L->ci->op == OP_ATOM);
		R->head = !L->stop;
	}
	if (L->stop)
		return;
	if (defer(L, t, tid, tid, w, lane, a, size, kind, flags, newv, false, a->async_raced,
		  *clock_of(R, t), 0, t->phantom) && (flags & RF_STRONG))
		race_sync_through(L, t, tid, a, kind, flags);
}

void race_defer_copy(struct launch *L, const struct race_copy *rc, const struct access *a,
		       uint32_t size, enum race_kind kind, uint8_t flags)
{
	struct rthread t = {.lvc = rc->vc, .seen_cp = rc->seen_cp, .seen_bulk = rc->seen_bulk};
	defer(L, &t, rc->agent, rc->tid, L->cw, (uint32_t)__builtin_ctz(L->cmask), a, size, kind,
	      flags, NULL, true, rc->raced, rc->clock, rc->issued, NULL);
}


/* A worker's cluster begins: a vector of its own for its threads to start from, its own
 * reported pairs (the launch's decide at the replay), and its log. The vector is empty, as
 * the launch's first is: it takes that one's name (gen names contents), so that the
 * clusters' threads share one name as with one thread (a global word's readers of many
 * CTAs then add themselves to its list without the scan: race_add_read's ok_gen). */
bool race_shard_cluster_begin(struct launch *L)
{
	struct race *R = L->race;
	vc_put(R, R->zero);
	R->zero = vc_new(R);
	if (R->zero)
		R->zero->gen = R->whole->zero->gen;
	R->npairs = 0;
	R->head = false;
	R->glog = race_glog_new(L);
	return R->zero && R->glog;
}

/* ... and ends: its releases to global locations go with its log, and nothing the worker
 * keeps refers to a vector of the log's, which another thread frees. */
void race_shard_cluster_end(struct launch *L)
{
	struct race *R = L->race;
	for (uint32_t i = 0; i < R->loccap; i++) {
		struct loc *l = &R->locs[i];
		if (l->key && l->wide && !(l->key >> 63) && R->glog)
			race_glog_loc(R->glog, l->key, l->wide);
		vc_put(R, l->wide);
		vc_put(R, l->cta);
	}
	if (R->locs)
		memset(R->locs, 0, R->loccap * sizeof *R->locs);
	R->nlocs = 0;
	vc_put(R, R->memo.result);
	R->memo.result = NULL;
	vc_put(R, R->zero);
	R->zero = NULL;
	if (R->glog)
		race_glog_done(R->glog);
	R->glog = NULL;
}

/* The launch's thread ids leave room for markers above the agents'. */
static uint32_t markers_base(const struct launch *L, uint32_t *shift)
{
	uint32_t nt = L->cfg.block[0] * L->cfg.block[1] * L->cfg.block[2];
	*shift = 0;
	while ((1u << *shift) < nt)
		(*shift)++;
	const uint32_t *g = L->cfg.grid;
	uint64_t nctas = (uint64_t)g[0] * g[1] * g[2];
	uint64_t base = nctas * (RA__COUNT + 1);
	return (base + 64) << *shift <= UINT32_MAX ? (uint32_t)base : 0;
}

bool race_jobs_ok(const struct launch *L)
{
	uint32_t shift;
	return markers_base(L, &shift) != 0;
}

bool race_jobs_begin(struct launch *L)
{
	struct race *R = L->race;
	uint32_t shift;
	if (!R)
		return true;
	R->mbase = markers_base(L, &shift);
	R->jobs = race_jobs_new(L->mem);
	return R->jobs != NULL;
}

bool race_shard(struct launch *S, unsigned index, struct launch *L)
{
	struct race *R = S->race;
	uint32_t shift;
	if (!R)
		return true;
	R->shard = true;
	R->whole = L->race;
	R->mbase = markers_base(S, &shift);
	R->gen = (uint64_t)(index + 1) << 48; /* vectors' names unique across workers */
	vc_put(R, R->zero);
	R->zero = NULL;
	return true;
}

struct race_jobs *race_jobs_state(const struct launch *L)
{
	return L->race->jobs;
}

struct vc *race_resolve(struct launch *L, struct vc *v, const uint64_t *keys, uint32_t nkeys)
{
	struct race *R = L->race;
	uint32_t m = (uint32_t)vc_find(v, R->mbase);
	if (m == v->n)
		return vc_ref(v);
	struct vc *r = vc_new(R);
	for (uint32_t i = 0; r && i < m; i++) {
		uint32_t *c = vc_chunk(R, r, v->ch[i].cta);
		if (!c) {
			vc_put(R, r);
			return NULL;
		}
		memcpy(c, v->ch[i].c, R->nt * sizeof *c);
	}
	for (uint32_t i = m; r && i < v->n; i++)
		for (uint32_t k = 0; k < R->nt; k++) {
			uint64_t idx = (uint64_t)(v->ch[i].cta - R->mbase) * R->nt + k;
			struct loc *l = v->ch[i].c[k] && idx < nkeys ? race_loc_find(R, keys[idx], false)
								     : NULL;
			if (l && l->wide)
				vc_join(R, r, l->wide);
		}
	return r;
}

void race_merge_loc(struct launch *L, uint64_t key, struct vc *v)
{
	struct race *R = L->race;
	struct loc *l = race_loc_find(R, key, true);
	if (l)
		vc_join(R, vc_own(R, &l->wide), v);
}

bool race_replay_access(struct launch *L, struct race_glog *G, const struct race_gacc *e,
			struct vc *v, const uint8_t *old, uint32_t step, uint32_t issued,
			const struct dinsn *phantom)
{
	struct race *R = L->race;
	struct warp *w = race_jobs_scaffold(R->jobs, e);
	struct rthread t = {.lvc = v, .seen_cp = e->seen_cp, .seen_bulk = e->seen_bulk,
			    .phantom = G ? race_glog_phantom(G, e->owner) : phantom};
	struct acc_ctx x = {.L = L, .R = R, .t = &t, .w = w, .lane = e->lane, .tid = e->tid,
			    .owner = e->owner, .flags = e->flags, .copy = e->copy,
			    .skip_agents = e->skip_agents, .issued = issued, .glob = true};
	struct rec me = {e->insn, e->tid, e->clock, step, 0, e->flags};
	struct access a = {.p = (uint8_t *)old, .space = MS_GLOBAL,
			   .region = (struct region *)e->region, .addr = e->addr};
	struct warp *cw = L->cw;
	const struct dinsn *ci = L->ci;
	uint32_t cmask = L->cmask;
	L->cw = w;
	L->ci = e->insn;
	L->cmask = 1u << e->lane;
	R->replay = G;
	bool ok;
	uint64_t off = e->addr - e->region->base, bytes;
	struct shadow *s = NULL;
	struct cell *cell;
	if (e->copy && !e->has_newv && (s = race_shadow_of(L, &a, &off, &bytes))) {
		/* a copy's landing (race_copy_access) */
		ok = race_copy_land(&x, &t, s, bytes, off, e->size, (enum race_kind)e->kind, &me,
				    &a);
	} else if (!e->copy && e->size <= GRAN && off % GRAN + e->size <= GRAN &&
		   (x.s = race_shadow_of(L, &a, &off, &bytes)) &&
		   (cell = cell_made(x.s, off / GRAN))) { /* one granule, its page made */
		ok = check_granule(&x, cell, &a, off, e->size, (enum race_kind)e->kind, &me,
				   e->has_newv ? e->newv : NULL);
	} else if (!e->copy && x.s && e->size <= GRAN &&
		   compact_granule(&x, bytes, off, e->size, (enum race_kind)e->kind, &me)) {
		ok = true; /* (its page compact: judged on its record) */
	} else {
		ok = race_check_range(&x, &a, e->size, (enum race_kind)e->kind, &me,
				      e->has_newv ? e->newv : NULL);
	}
	R->replay = NULL;
	L->cw = cw;
	L->ci = ci;
	L->cmask = cmask;
	return ok;
}
