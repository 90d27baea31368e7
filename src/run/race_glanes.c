/*
 * race_glanes.c - a warp's plain ld/st.global checked at once (race_global_lanes): one
 * context, one region and one shadow for the warp, then each lane in order as race_access
 * would check it, its store made after its check. On a --jobs worker the same on the
 * launch's state when its cluster is the oldest not shown; else the lanes are logged in one
 * entry (race_defer_lanes), which the replay judges here too (race_replay_lanes).
 */
#include "race_priv.h"

#include <string.h>

/* Who judges a warp's lanes: one thread (JUDGE_ONE); a --jobs worker whose cluster is the
 * oldest not shown (JUDGE_HEAD: on the launch's state, at the launch's step, a store's
 * bytes compared with those one thread would find, race_global.c's image, and written there
 * too); the replay of a worker's logged lanes (JUDGE_REPLAY: the same, against the bytes
 * the worker found, nothing stored in memory, each lane's the one described if the replay
 * fails: L->cmask). */
enum judge { JUDGE_ONE, JUDGE_HEAD, JUDGE_REPLAY };

/* A warp's plain access of region r: lane l at addr[l], the bytes there p[l] (the replay's:
 * what the worker found there), a store's value v[l] (NULL: a load) of `size` bytes; made by
 * threads t0[l] at epochs k0[l], at `step`. */
struct wacc {
	struct region *r;
	const uint64_t *addr;
	uint8_t *const *p;
	uint32_t size;
	const uint64_t *v;
	struct rthread *t0;
	const uint32_t *k0;
	uint32_t step;
};

/* Lane l's store made (after its check) as `how` makes it. */
static inline __attribute__((always_inline)) void
store_lane(struct launch *L, const struct wacc *wa, uint32_t l, uint32_t size, enum judge how)
{
	if (how != JUDGE_REPLAY)
		store_low(wa->p[l], wa->v[l], size);
	if (how != JUDGE_ONE)
		race_img_write(L, wa->r, wa->addr[l], size, (const uint8_t *)&wa->v[l]);
}

/* A word whose glist took a lane's read (gread_lane), for the warp's later lanes that read
 * it: its address, the glist, the lane's vector and epoch, and the thread of the cell's one
 * read. Until another path judges a lane of that granule, the cell, its one read and the
 * list's instruction, mask and ok_gen stay as they were (glist_place changes only entries,
 * n, tids and hi), so for a later lane with the same vector and epoch every test but its own
 * (its thread not the one read's, room) holds already. */
struct gseen {
	uint64_t addr;
	struct glist *g;
	const struct vc *v;
	uint32_t clock, rtid;
};

/* The words a warp's read put so far, a slot each by its granule's hash (valid: slots in
 * use): a row of words, and two rows apart, take distinct slots. */
struct gseen_set {
	uint32_t valid;
	struct gseen e[LANES];
};

/* check_granule for lane l's plain read (of wa; by thread tid; x: the warp's context, x->s
 * the region's shadow), when it only puts the read in its full page's cell's glist by
 * race_glist_read's fast path: no write or second read in the cell (none can race), its one
 * read another thread's and not ordered before this one (unless this one has bytes it
 * lacks), the list's instruction, epoch and bytes the read's, room, and no entry ordered
 * before a read under the thread's vector (ok_gen). True: recorded so; false: nothing
 * changed (the lane is judged the usual way). Most reads of a word that many threads read
 * take it (the naive matrix product's operands: A's words 16 lanes a warp, B's 2), the
 * warp's later lanes of a word by gs without looking at the cell. */
static inline __attribute__((always_inline)) bool
gread_lane(const struct acc_ctx *x, struct gseen_set *gs, const struct wacc *wa, uint32_t l,
	   uint32_t tid, uint32_t *at)
{
	uint64_t a = wa->addr[l], h = a / GRAN;
	uint32_t slot = (uint32_t)((h ^ h >> 5) % LANES), bit = 1u << slot, k = wa->k0[l];
	const struct rthread *t = wa->t0 + l;
	const struct vc *v = tvc(x->R, t);
	struct gseen *e = &gs->e[slot];
	*at = slot;
	struct glist *g = e->g;
	if (!((gs->valid & bit) && e->addr == a && e->v == v && e->clock == k && e->rtid != tid)) {
		gs->valid &= ~bit;
		uint64_t off = a - wa->r->base;
		struct cell *c = cell_made(x->s, off / GRAN);
		g = c ? glist_of(c) : NULL;
		uint8_t mask = (uint8_t)(((1u << wa->size) - 1) << (off % GRAN));
		if (!g || c->w.clock || c->r2.clock || c->r.tid == tid || g->insn != x->L->ci ||
		    g->clock != k || g->mask != mask || v->gen != g->ok_gen ||
		    (!(c->r.mask & ~mask) && happens_before(x->R, t, tid, tid, &c->r)))
			return false;
		/* (a copy's read, RF_ASYNC: happens_before asks each thread) */
		gs->valid |= (uint32_t)!(c->r.flags & RF_ASYNC) << slot;
		*e = (struct gseen){a, g, v, k, c->r.tid};
	}
	if (g->n == g->cap && g->cap < MAX_READERS) { /* (race_glist_read grows it) */
		gs->valid &= ~bit;
		return false;
	}
	glist_place(g, tid, wa->step);
	return true;
}

/* After lane l's read went into e's glist (e cached): the lanes right after it in m that
 * read its address under its vector and epoch, not by the thread of the cell's one read, as
 * many as the list takes without growing, put at once: every one gread_lane would put, and
 * each appended (or put in its slot of a full list) as glist_place would, its thread being
 * above every entry's (glist_find: none). The lanes put (a warp's lanes on one word: the
 * naive matrix product's A[i][k], 16 lanes). */
static __attribute__((noinline)) uint32_t
gread_row(const struct race *R, const struct gseen *e, const struct wacc *wa, uint32_t m,
	  uint32_t l, uint32_t tid0)
{
	struct glist *g = e->g;
	const uint64_t *addr = wa->addr;
	const uint32_t *k0 = wa->k0;
	const struct rthread *t0 = wa->t0;
	uint64_t a = e->addr;
	const struct vc *v = e->v;
	uint32_t k = e->clock, rtid = e->rtid, step = wa->step;
	uint32_t end = l + 1 + (g->cap < MAX_READERS ? g->cap - g->n : LANES), j = l + 1;
	if (tid0 + l < g->hi) /* (lane l renewed an entry: threads above it have some) */
		return 0;
	end = end < LANES ? end : LANES;
	while (j < end && (m >> j & 1) && addr[j] == a && k0[j] == k && tvc(R, t0 + j) == v &&
	       tid0 + j != rtid)
		j++;
	for (uint32_t i = l + 1; i < j; i++)
		glist_add(g, tid0 + i, step);
	return (uint32_t)((1ull << j) - (2ull << l));
}

/* The lanes of m, in order, put by gread_lane (and gread_row) up to the first not put: the
 * lanes from that one on (0: all put). A loop of its own: judge_lanes' registers are the
 * slow path's. */
static uint32_t gread_run(const struct acc_ctx *x, struct gseen_set *gs, const struct wacc *wa,
			  uint32_t m, uint32_t tid0)
{
	while (m) {
		uint32_t l = (uint32_t)__builtin_ctz(m), slot;
		if (!gread_lane(x, gs, wa, l, tid0 + l, &slot))
			break;
		m &= m - 1;
		if ((gs->valid >> slot & 1) && l + 1 < LANES && (m >> (l + 1) & 1) &&
		    wa->addr[l + 1] == wa->addr[l])
			m &= ~gread_row(x->R, &gs->e[slot], wa, m, l, tid0);
	}
	return m;
}

/* The lanes of mask judged at once, as check_range judges each (x: the warp's context, s
 * the region's shadow); the lanes that go on. */
static inline __attribute__((always_inline)) uint32_t
judge_lanes(struct acc_ctx *x, uint32_t mask, const struct wacc *wa, const bool write,
	    const enum judge how)
{
	struct launch *L = x->L;
	struct region *r = wa->r;
	uint32_t size = wa->size;
	enum race_kind kind = write ? RACE_WRITE : RACE_READ;
	uint32_t tid0 = tid_of(x->R, x->w, 0);
	struct rec me = {L->ci, 0, 0, wa->step, 0, 0};
	uint8_t old[8];
	struct gseen_set gs;
	gs.valid = 0;
	/* (words on compact pages, read once, have no glist: the lane by lane loop's) */
	bool gread = !write && size <= GRAN &&
		     cell_made(x->s, (wa->addr[__builtin_ctz(mask)] - r->base) / GRAN);
	for (uint32_t m = mask; m; m &= m - 1) {
		if (gread && !(m = gread_run(x, &gs, wa, m, tid0)))
			break;
		uint32_t l = (uint32_t)__builtin_ctz(m);
		const uint8_t *nv = write ? (const uint8_t *)&wa->v[l] : NULL; /* its low bytes */
		struct access a = {.p = wa->p[l], .space = MS_GLOBAL, .region = r,
				   .addr = wa->addr[l]};
		if (how == JUDGE_REPLAY)
			L->cmask = 1u << l;
		x->t = wa->t0 + l;
		x->tid = x->owner = tid0 + l;
		x->lane = l;
		me.tid = tid0 + l;
		me.clock = wa->k0[l];
		uint64_t off = wa->addr[l] - r->base;
		struct cell *c = size <= GRAN ? cell_made(x->s, off / GRAN) : NULL; /* (aligned) */
		if (c || !(size <= GRAN && compact_granule(x, r->size, off, size, kind, &me))) {
			if (how != JUDGE_ONE && write) { /* what one thread's store finds there */
				race_img_read(L, r, wa->addr[l], size, wa->p[l], old);
				a.p = old; /* (a compact record's check compares no bytes) */
			}
			if (c)
				check_granule(x, c, &a, off, size, kind, &me, nv);
			else
				race_check_range(x, &a, size, kind, &me, nv);
		}
		if (L->stop)
			return mask & ((1u << l) - 1);
		if (write)
			store_lane(L, wa, l, size, how);
	}
	return mask;
}

/* A whole warp's plain access of 32 words in a row (x: its context) on one compact page,
 * judged as compact_granule judges each lane, at once, where it leaves each cell one
 * record, the lane's: a store (write) on cells that hold no record yet (a kernel's output,
 * written once) or each the read of its own lane's thread (saxpy's y, read then written:
 * compact_granule's write after a read, which no other thread made), then its bytes
 * stored; a load on a page already compact whose 32 cells hold no record (an operand read
 * once). False: not that case, nothing changed. */
static inline __attribute__((always_inline)) bool
compact_row(struct acc_ctx *x, const struct wacc *wa, const bool write, const enum judge how)
{
	struct launch *L = x->L;
	const uint64_t *addr = wa->addr;
	uint64_t off = addr[0] - wa->r->base, g = off / GRAN, i0 = g % PAGE_CELLS, apart = 0;
#pragma GCC unroll 8
	for (uint32_t l = 0; l < LANES; l++)
		apart |= addr[l] - addr[0] - l * GRAN;
	if (apart || off % GRAN || i0 + LANES > PAGE_CELLS)
		return false;
	struct cpage *cp = write ? race_cpage(L, x->s, wa->r->size, g / PAGE_CELLS) /* (NULL: */
				 : page_compact(x->s, g / PAGE_CELLS);    /* full) */
	if (!cp)
		return false;
	struct rec *e = &cp->e[i0];
	uint32_t used = 0, own = 0, tid0 = tid_of(x->R, x->w, 0);
	for (uint32_t l = 0, i = (uint32_t)i0; l < LANES; l++, i++) {
		used |= e[l].clock;
		own |= (uint32_t)(e[l].tid == tid0 + l && (cp->read[i / 32] >> i % 32 & 1)) << l;
	}
	if (used && (!write || own != 0xffffffffu))
		return false;
	for (uint32_t l = 0, i = (uint32_t)i0; l < LANES; l++, i++) {
		e[l] = (struct rec){L->ci, tid0 + l, wa->k0[l], wa->step, 0xf, 0};
		cp->read[i / 32] = write ? cp->read[i / 32] & ~(1u << i % 32)
					 : cp->read[i / 32] | 1u << i % 32;
		if (write && how != JUDGE_REPLAY)
			store_low(wa->p[l], wa->v[l], GRAN);
	}
	if (write && how != JUDGE_ONE) /* (store_lane's image part, the row at once) */
		race_img_row(L, wa->r, addr[0], wa->v);
	return true;
}

/* The lanes of mask of the warp access wa of w judged at once on R, as `how` judges them;
 * the lanes that go on. */
static inline __attribute__((always_inline)) uint32_t
judge_warp(struct launch *L, struct race *R, struct warp *w, uint32_t mask,
	   const struct wacc *wa, const enum judge how)
{
	uint32_t f = (uint32_t)__builtin_ctz(mask);
	struct access a = {.p = wa->p[f], .space = MS_GLOBAL, .region = wa->r,
			   .addr = wa->addr[f]};
	uint64_t off, bytes;
	struct acc_ctx x = {.L = L, .R = R, .w = w, .glob = true};
	if (how == JUDGE_REPLAY)
		L->cmask = 1u << f;
	if (!(x.s = race_shadow_of(L, &a, &off, &bytes))) { /* (out of memory: unchecked) */
		for (uint32_t m = L->stop ? 0 : mask; wa->v && m; m &= m - 1)
			store_lane(L, wa, (uint32_t)__builtin_ctz(m), wa->size, how);
		return L->stop ? 0 : mask;
	}
	if (mask == 0xffffffffu && wa->size == GRAN &&
	    (wa->v ? compact_row(&x, wa, true, how) : compact_row(&x, wa, false, how)))
		return mask;
	return wa->v ? judge_lanes(&x, mask, wa, true, how) : judge_lanes(&x, mask, wa, false, how);
}

/* judge_warp for each `how`, compiled apart (noinline: race_global_lanes stays small). */
static __attribute__((noinline)) uint32_t
judge_one(struct launch *L, struct warp *w, uint32_t mask, const struct wacc *wa)
{
	return judge_warp(L, L->race, w, mask, wa, JUDGE_ONE);
}

static __attribute__((noinline)) uint32_t
judge_head(struct launch *L, struct warp *w, uint32_t mask, const struct wacc *wa)
{
	return judge_warp(L, L->race, w, mask, wa, JUDGE_HEAD);
}

uint32_t race_global_lanes(struct launch *L, struct warp *w, uint32_t mask, const uint64_t *addr,
			   uint8_t *const *p, uint32_t size, const uint64_t *v)
{
	struct race *R = L->race;
	if (L->stop || !mask)
		return 0;
	struct region *r = mem_find(L->mem, addr[__builtin_ctz(mask)], size);
	if (!r) /* (global_lanes found it) */
		return 0;
	struct rthread *t0 = thr(R, w, 0);
	struct wacc wa = {r, addr, p, size, v, t0, clock_of(R, t0), (uint32_t)L->steps};
	if (!R->shard)
		return judge_one(L, w, mask, &wa);
	struct launch *served = race_head_enter(L, w, mask, &wa.step);
	if (!served)
		return L->stop ? 0 : race_defer_lanes(L, w, mask, r, addr, p, size, v);
	uint32_t done = judge_head(L, w, mask, &wa);
	race_head_leave(L, R, served);
	return done;
}

/* What judge_warp reads of a logged warp access, by lane. */
struct unpacked {
	struct rthread t[LANES];
	uint32_t k0[LANES];
	uint64_t addr[LANES], v[LANES];
	uint8_t *p[LANES];
	uint64_t none;              /* a load's bytes (none kept)                              */
};

/* The GA_LANES entry e of G (g: its arrays) made wa, by lane, in u: of a whole warp (the
 * k-th element lane k's) the log's own arrays of addresses, values and epochs serve. */
static void lanes_unpack(const struct race_glog *G, const struct race_gacc *e,
			 const struct race_glanes *g, struct unpacked *u, struct wacc *wa)
{
	bool ph = race_glog_phantoms(G), whole = e->lanes == 0xffffffffu;
	struct rthread one = {.lvc = e->vc, .seen_cp = e->seen_cp, .seen_bulk = e->seen_bulk};
	wa->addr = whole ? g->addr : u->addr;
	wa->v = !g->newv ? NULL : whole ? g->newv : u->v;
	wa->k0 = whole && g->clock ? g->clock : u->k0;
	wa->t0 = u->t;
	wa->p = u->p;
	if (whole && !g->vc && !g->seen && !ph) { /* (the common case, in plain loops) */
		for (uint32_t l = 0; l < LANES; l++) {
			memcpy(&u->t[l], &one, sizeof one);
			u->p[l] = g->old ? (uint8_t *)&g->old[l] : (uint8_t *)&u->none;
			u->k0[l] = g->clock ? g->clock[l] : e->clock;
		}
		return;
	}
	uint32_t k = 0;
	for (uint32_t m = e->lanes; m; m &= m - 1, k++) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		u->t[l] = one;
		if (g->vc)
			u->t[l].lvc = g->vc[k];
		if (g->seen) {
			u->t[l].seen_cp = g->seen[2 * k];
			u->t[l].seen_bulk = g->seen[2 * k + 1];
		}
		if (ph)
			u->t[l].phantom = race_glog_phantom(G, e->tid + l);
		if (!g->clock || !whole)
			u->k0[l] = g->clock ? g->clock[k] : e->clock;
		if (!whole) {
			u->addr[l] = g->addr[k];
			u->v[l] = g->newv ? g->newv[k] : 0;
		}
		u->p[l] = g->old ? (uint8_t *)&g->old[k] : (uint8_t *)&u->none;
	}
}

bool race_replay_lanes(struct launch *L, struct race_glog *G, const struct race_gacc *e)
{
	struct race *R = L->race;
	struct race_glanes g = race_glanes_at(e);
	uint32_t n = g.vc ? (uint32_t)__builtin_popcount(e->lanes) : 1;
	for (uint32_t k = 0; k < n; k++) { /* (a marker: race_resolve's, lane by lane) */
		const struct vc *v = g.vc ? g.vc[k] : e->vc;
		if (v->n && v->ch[v->n - 1].cta >= R->mbase)
			return false;
	}
	struct warp *w = race_jobs_scaffold(R->jobs, e);
	struct unpacked u;
	u.none = 0;
	struct wacc wa = {.r = (struct region *)e->region, .size = e->size,
			  .step = race_glog_step(G, e->step)};
	lanes_unpack(G, e, &g, &u, &wa);
	struct warp *cw = L->cw;
	const struct dinsn *ci = L->ci;
	uint32_t cmask = L->cmask;
	L->cw = w;
	L->ci = e->insn;
	R->replay = G;
	judge_warp(L, R, w, e->lanes, &wa, JUDGE_REPLAY);
	R->replay = NULL;
	L->cw = cw;
	L->ci = ci;
	L->cmask = cmask;
	return true;
}
