/*
 * race_sync.c - what orders threads for the data-race detector: releases and acquires of
 * vector clocks, scopes, release/acquire patterns through memory locations, CTA and
 * cluster barriers, mbarrier phases, fences and the completion of copies.
 */
#include "race_priv.h"

#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

#include "memory.h"
#include "report/rules.h"

/* Release: the object's clock covers everything the thread did so far, and the copies its
 * wait_groups waited for; a new epoch. */
static void release_into(struct race *R, struct vc **obj, struct rthread *t, uint32_t tid)
{
	struct vc *a = vc_own(R, obj);
	vc_join(R, a, tvc(R, t));
	vc_raise(R, a, tid, *clock_of(R, t));
	if (t->seen_cp)
		vc_raise(R, a, agent_of(R, tid, RA_CP), t->seen_cp);
	if (t->seen_bulk)
		vc_raise(R, a, agent_of(R, tid, RA_BULK), t->seen_bulk);
	(*clock_of(R, t))++;
}

/* release_into for the lanes of w in `lanes`, at once: one join per distinct vector (the
 * lanes of a warp usually share one), each lane's epoch raised in the CTA's chunk. */
static void release_lanes(struct race *R, struct vc **obj, const struct warp *w,
			  uint32_t lanes)
{
	struct vc *a = vc_own(R, obj);
	struct rthread *t0 = thr(R, w, 0);
	const struct vc *last = lanes ? tvc(R, t0 + __builtin_ctz(lanes)) : NULL;
	vc_join(R, a, last); /* first, while a fresh vector takes it as a copy */
	uint32_t *c = a ? vc_chunk(R, a, w->cta->linear) : NULL;
	if (!c)
		return;
	c += w->id * LANES;
	bool raised = false;
	uint32_t seen = 0; /* lanes that waited for copies of their own */
	uint32_t *k0 = clock_of(R, t0);
	if (lanes == 0xffffffffu) { /* a whole warp: usually one vector, joined above */
		bool differ = lanes_differ(R, w, last); /* some lane's vector is not `last` */
		/* a thread's epoch is above every clock of it in any vector (each release
		 * starts a new one): raised, as a max would raise it */
		memcpy(c, k0, LANES * sizeof *c);
		for (uint32_t l = 0; l < LANES; l++)
			k0[l]++;
		raised = true;
		for (uint32_t l = 0; R->seen_any && l < LANES; l++)
			seen |= (t0[l].seen_cp | t0[l].seen_bulk) ? 1u << l : 0;
		lanes = 0;
		if (differ) /* the others joined now: the result is the same */
			for (uint32_t l = 0; l < LANES; l++)
				vc_join(R, a, tvc(R, t0 + l));
	}
	for (uint32_t m = lanes; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		struct rthread *t = t0 + l;
		const struct vc *v = tvc(R, t);
		if (v != last) {
			vc_join(R, a, v);
			last = v;
		}
		uint32_t k = k0[l];
		raised |= c[l] < k;
		c[l] = c[l] < k ? k : c[l];
		seen |= (t->seen_cp | t->seen_bulk) ? 1u << l : 0;
		k0[l] = k + 1;
	}
	for (uint32_t m = seen; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m), tid = tid_of(R, w, l);
		struct rthread *t = t0 + l;
		if (t->seen_cp)
			vc_raise(R, a, agent_of(R, tid, RA_CP), t->seen_cp);
		if (t->seen_bulk)
			vc_raise(R, a, agent_of(R, tid, RA_BULK), t->seen_bulk);
	}
	if (raised)
		a->gen = ++R->gen;
}

static inline void adopt(struct race *R, struct rthread *t, struct vc *s)
{
	wvc_forget(R, t);
	vc_put(R, t->lvc);
	t->lvc = vc_ref(s);
}

static void acquire_from(struct race *R, struct rthread *t, struct vc *s)
{
	/* a vector only grows (joins and raises), so one whose last join was s still covers
	 * it: a spin loop's repeated acquires of an unchanged location cost nothing */
	struct vc *cur = tvc(R, t);
	if (!s || s == cur || cur->joined == s->gen)
		return;
	if (s->joined == cur->gen) { /* s already covers the thread's vector: share it */
		adopt(R, t, s);
		return;
	}
	if (R->memo.result && R->memo.from == cur->gen && R->memo.src == s->gen) {
		adopt(R, t, R->memo.result);
		return;
	}
	if (cur->refs == 1) { /* (the thread's alone: not a warp's, held for 32 lanes) */
		vc_join(R, cur, s);
		return;
	}
	uint64_t from = cur->gen;
	wvc_forget(R, t);
	struct vc *v = vc_joined(R, cur, s); /* (cur is shared: a new one) */
	if (!v)
		return;
	vc_put(R, t->lvc);
	t->lvc = v;
	vc_put(R, R->memo.result);
	R->memo.from = from;
	R->memo.src = s->gen;
	R->memo.result = vc_ref(v);
}

/* ---- scopes -------------------------------------------------------------------------- */

static enum scope scope_of(uint8_t mod, enum scope dflt)
{
	switch ((enum ir_mod)mod) {
	case MOD_CTA:
		return SC_CTA;
	case MOD_CLUSTER:
		return SC_CLUSTER;
	case MOD_GPU:
	case MOD_GL:
		return SC_GPU;
	case MOD_SYS:
		return SC_SYS;
	default:
		return dflt;
	}
}

static uint32_t cluster_of(const struct launch *L, uint32_t cta)
{
	const uint32_t *g = L->cfg.grid, *k = L->cfg.cluster;
	uint32_t x = cta % g[0], y = cta / g[0] % g[1], z = cta / (g[0] * g[1]);
	uint32_t nx = g[0] / k[0], ny = g[1] / k[1];
	return x / k[0] + nx * (y / k[1] + ny * (z / k[2]));
}

/* Whether scope `s` of thread a includes thread b. */
static bool includes(const struct launch *L, enum scope s, uint32_t a, uint32_t b)
{
	const struct race *R = L->race;
	if (s == SC_CTA)
		return cta_of(R, a) == cta_of(R, b);
	if (s == SC_CLUSTER)
		return cluster_of(L, cta_of(R, a)) == cluster_of(L, cta_of(R, b));
	return true;
}

bool race_morally_strong(const struct launch *L, uint8_t fa, uint32_t a, uint8_t fb,
			   uint32_t b)
{
	return (fa & RF_STRONG) && (fb & RF_STRONG) && includes(L, (enum scope)(fa >> 4), a, b) &&
	       includes(L, (enum scope)(fb >> 4), b, a);
}

/* The strength and scope of the current instruction's access. */
uint8_t race_access_flags(const struct dinsn *di)
{
	enum ir_op op = (enum ir_op)di->op;
	if (op == OP_ATOM || op == OP_RED)
		return RF_STRONG | RF_RMW | (uint8_t)(scope_of(di->scope, SC_GPU) << 4);
	if (!race_sem_strong(di->sem))
		return 0;
	enum ir_mod sem = (enum ir_mod)di->sem;
	return RF_STRONG | (uint8_t)((sem == MOD_VOLATILE || sem == MOD_MMIO
					      ? SC_SYS : scope_of(di->scope, SC_GPU)) << 4);
}

/* ---- release/acquire through memory locations ---------------------------------------- */

struct loc *race_loc_find(struct race *R, uint64_t key, bool make)
{
	if (make && (R->nlocs + 1) * 2 > R->loccap) {
		uint32_t cap = R->loccap ? R->loccap * 2 : 64;
		if (!launch_charge(R->L, cap * sizeof(struct loc),
				   "the data-race detector's table of locations"))
			return NULL;
		struct loc *n = calloc(cap, sizeof *n);
		if (!n) {
			mem_release(R->mem, cap * sizeof *n);
			return NULL;
		}
		mem_release(R->mem, R->loccap * sizeof *n);
		R->charged += (cap - R->loccap) * sizeof *n;
		for (uint32_t i = 0; i < R->loccap; i++) {
			if (!R->locs[i].key)
				continue;
			uint32_t h = (uint32_t)(R->locs[i].key * 0x9E3779B97F4A7C15ull >> 32) & (cap - 1);
			while (n[h].key)
				h = (h + 1) & (cap - 1);
			n[h] = R->locs[i];
		}
		free(R->locs);
		R->locs = n;
		R->loccap = cap;
	}
	if (!R->loccap)
		return NULL;
	uint32_t h = (uint32_t)(key * 0x9E3779B97F4A7C15ull >> 32) & (R->loccap - 1);
	while (R->locs[h].key && R->locs[h].key != key)
		h = (h + 1) & (R->loccap - 1);
	if (R->locs[h].key)
		return &R->locs[h];
	if (!make)
		return NULL;
	R->nlocs++;
	R->locs[h].key = key;
	return &R->locs[h];
}

static uint64_t loc_key(const struct access *a)
{
	if (a->space == MS_GLOBAL)
		return a->addr;
	return 1ull << 63 | (uint64_t)a->cta->linear << 32 | a->off;
}

/* s joined into *into; an empty *into takes s by reference (copied only if changed
 * later), so that a poll of an unchanged location sees the same vector, not a copy. */
static void gather_vc(struct race *R, struct vc **into, struct vc *s)
{
	if (!*into)
		*into = vc_ref(s);
	else
		vc_join(R, vc_own(R, into), s);
}

/* What a read by thread `tid` at scope `s` acquires from the location. */
static void loc_gather(struct race *R, struct loc *l, uint32_t tid, struct vc **into)
{
	if (l->wide)
		gather_vc(R, into, l->wide);
	if (l->cta && l->cta_id == cta_of(R, tid))
		gather_vc(R, into, l->cta);
}


void race_sync_through(struct launch *L, struct rthread *t, uint32_t tid,
			 const struct access *a, enum race_kind kind, uint8_t flags)
{
	struct race *R = L->race;
	const struct dinsn *di = L->ci;
	enum ir_mod sem = (enum ir_mod)di->sem;
	bool reads = kind != RACE_WRITE, writes = kind != RACE_READ;
	if (reads) {
		struct loc *l = race_loc_find(R, loc_key(a), false);
		bool mark = R->shard && a->space == MS_GLOBAL; /* what clusters before released */
		if ((l || mark) && (sem == MOD_ACQUIRE || sem == MOD_ACQ_REL)) {
			struct vc *got = NULL;
			if (l)
				loc_gather(R, l, tid, &got);
			if (mark)
				race_marker_into(L, a->addr, &got);
			acquire_from(R, t, got);
			vc_put(R, got);
		} else if (l || mark) {
			if (l)
				loc_gather(R, l, tid, &cold_of(R, t)->pending);
			if (mark)
				race_marker_into(L, a->addr, &cold_of(R, t)->pending);
		}
	}
	if (writes && (sem == MOD_RELEASE || sem == MOD_ACQ_REL || t->fence)) {
		struct loc *l = race_loc_find(R, loc_key(a), true);
		if (!l)
			return;
		enum scope s = (enum scope)(flags >> 4);
		if (!(sem == MOD_RELEASE || sem == MOD_ACQ_REL) && t->fence < s)
			s = (enum scope)t->fence;
		if (s == SC_CTA) {
			if (l->cta && l->cta_id != cta_of(R, tid)) {
				vc_put(R, l->cta);
				l->cta = NULL;
			}
			l->cta_id = cta_of(R, tid);
			release_into(R, &l->cta, t, tid);
		} else {
			release_into(R, &l->wide, t, tid);
		}
	}
}

/* ---- barriers, mbarriers, fences ----------------------------------------------------- */

/* Whether an arrival of `lanes` by op may be deferred to the completion when the warp's
 * lanes hold one vector: a whole warp that waits there (bar.sync, bar.red; not bar.arrive),
 * no copy of its own waited for, the warps' vectors tracked (race.wvc). */
static inline bool whole_waits(const struct race *R, uint32_t lanes, enum ir_op op)
{
	return lanes == 0xffffffffu && !R->seen_any && R->wvc_ok &&
	       (op == OP_BAR_SYNC || op == OP_BARRIER_SYNC || op == OP_BAR_RED ||
		op == OP_BARRIER_RED);
}

/* race_bar_arrive where the warp's vector is not known held (race.wvc) or the arrival is
 * not a whole waiting warp's: its lanes are looked at. */
static __attribute__((noinline)) void bar_arrive_lanes(struct race *R, struct warp *w,
							uint32_t lanes, uint32_t id, enum ir_op op)
{
	struct rcta *rc = &R->cta[w->cta->slot];
	if (whole_waits(R, lanes, op) && !lanes_differ(R, w, tvc(R, thr(R, w, 0)))) {
		rc->pend[id] |= 1u << w->id;
		return;
	}
	release_lanes(R, &rc->acc[id], w, lanes);
}

void race_bar_arrive(struct launch *L, struct warp *w, uint32_t lanes, uint32_t id)
{
	struct race *R = L->race;
	if (!R)
		return;
	enum ir_op op = (enum ir_op)L->ci->op;
	/* A whole warp that waits here (bar.sync, bar.red; not bar.arrive) with one vector
	 * and no copies of its own waited for: its lanes' vector and epochs cannot change
	 * before the instance completes, so bar_done releases them then, with the other
	 * warps', in one pass over the CTA's epochs. The same clock results (a join, and each
	 * epoch above every clock of its thread in any vector). A warp's known vector (race.wvc)
	 * is every lane's: no lane is read then (race_bar_defer; bar_arrive_lanes otherwise). */
	if (whole_waits(R, lanes, op) && race_bar_defer(R, w, id))
		return;
	bar_arrive_lanes(R, w, lanes, id, op);
}

/* ch[i] = k[i]++ for i < n (a whole number of warps): a CTA's epochs copied into a vector's
 * chunk and raised, in one pass over both; eight at a time on AVX2, two warps a step (GCC
 * does not unroll the loop), then the odd warp. */
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("avx2"), always_inline)) static inline void
copy_raise_vec(__m256i *d, __m256i *e, __m256i one)
{
	__m256i x = _mm256_loadu_si256(e);
	_mm256_storeu_si256(d, x);
	_mm256_storeu_si256(e, _mm256_add_epi32(x, one));
}

__attribute__((target("avx2"), noinline)) static void copy_raise_avx2(uint32_t *ch, uint32_t *k,
								       uint32_t n)
{
	const __m256i one = _mm256_set1_epi32(1);
	__m256i *d = (__m256i *)ch, *e = (__m256i *)k;
	for (const __m256i *end = e + n / 64 * 8; e < end; d += 8, e += 8)
#pragma GCC unroll 8
		for (int v = 0; v < 8; v++)
			copy_raise_vec(d + v, e + v, one);
	if (n % 64)
#pragma GCC unroll 4
		for (int v = 0; v < 4; v++)
			copy_raise_vec(d + v, e + v, one);
}
#endif

static __attribute__((noinline)) void copy_raise_plain(uint32_t *ch, uint32_t *k, uint32_t n)
{
	memcpy(ch, k, n * sizeof *ch);
	for (uint32_t o = 0; o < n; o += LANES) {
		uint32_t *p = k + o;
#pragma GCC unroll 32
		for (uint32_t l = 0; l < LANES; l++)
			p[l]++;
	}
}

/* (either way a call of its own: its callers' fast paths keep no registers for it) */
static inline void copy_raise(uint32_t *ch, uint32_t *k, uint32_t n)
{
#if defined(__x86_64__) && defined(__GNUC__)
	if (__builtin_cpu_supports("avx2")) {
		copy_raise_avx2(ch, k, n);
		return;
	}
#endif
	copy_raise_plain(ch, k, n);
}

/* The warps of a whole CTA, as race_bar_arrive's pend masks name them. */
static inline uint32_t whole_cta(const struct race *R)
{
	return R->nw == LANES ? 0xffffffffu : (1u << R->nw) - 1;
}

/* The deferred arrivals of the warps of pend (race_bar_arrive) released into *obj: each
 * distinct vector joined (the warps usually share one), every epoch copied and raised. */
static void release_warps(struct race *R, struct vc **obj, const struct cta *c, uint32_t pend)
{
	struct vc *a = vc_own(R, obj);
	struct vc *const *wv = &R->wvc[c->slot * R->nw];
	const struct vc *last = NULL;
	uint32_t nt = R->nt, *k = &R->clk[c->slot * nt];
	bool all = pend == whole_cta(R) && nt % LANES == 0;
	for (uint32_t m = pend; a && m; m &= m - 1) {
		const struct vc *v = wv[__builtin_ctz(m)];
		/* (every warp: the CTA's chunk is its epochs, above any vector's clocks of it) */
		if (v != last && !(all && v && (v->n == 0 || (v->n == 1 && v->ch[0].cta == c->linear))))
			vc_join(R, a, v);
		last = v;
	}
	uint32_t *ch = a ? vc_chunk_for(R, a, c->linear, all) : NULL;
	if (!ch)
		return;
	struct rcta *rc = &R->cta[c->slot];
	if (all) { /* (ch: each clock written, its old value below the epoch) */
		copy_raise(ch, k, nt); /* every warp of the CTA: one pass */
		/* every record its threads made is ordered before a (struct shadow's eras) */
		a->gen = ++R->gen;
		rc->era++;
		rc->era_gen = a->gen;
		return;
	}
	for (uint32_t m = pend; m; m &= m - 1) {
		uint32_t o = (uint32_t)__builtin_ctz(m) * LANES;
		memcpy(ch + o, k + o, LANES * sizeof *ch);
		for (uint32_t l = 0; l < LANES; l++)
			k[o + l]++;
	}
	a->gen = ++R->gen;
}

/* The instance of barrier id of c completes: its clock, the arrivals', taken (rc->done). */
static void bar_done(struct race *R, struct cta *c, uint32_t id)
{
	struct rcta *rc = &R->cta[c->slot];
	if (rc->pend[id])
		release_warps(R, &rc->acc[id], c, rc->pend[id]);
	rc->pend[id] = 0;
	vc_put(R, rc->done[id]);
	rc->done[id] = rc->acc[id];
	rc->acc[id] = NULL;
}

void race_warp_hand_out(struct race *R, struct rthread *t)
{
	struct vc **k = &R->wvc[t->warp];
	struct rthread *t0 = t - (t - R->th) % LANES; /* (whole warps: wvc_ok) */
	for (uint32_t l = 0; l < LANES; l++)
		t0[l].lvc = *k;
	*k = NULL;
}

/* The lanes of w acquire d, the completed instance's clock: every waiter released into
 * it and has not moved since, so d covers it, and it becomes their vector. A whole warp
 * whose lanes shared one vector shares d: the warp holds it for them (race.wvc), one
 * pointer written, not 32. */
static void bar_acquire(struct race *R, struct warp *w, uint32_t lanes, struct vc *d)
{
	struct rthread *t0 = thr(R, w, 0);
	struct vc *old = tvc(R, t0); /* the lanes' vector, counted out at once (usually one) */
	uint32_t n = 0, all = 0;
	if (lanes == 0xffffffffu && old != d) {
		bool differ = lanes_differ(R, w, old); /* some lane's vector is not old */
		if (!differ && R->wvc_ok) {
			if (t0->lvc) /* (the warp holds it from now on) */
				for (uint32_t l = 0; l < LANES; l++)
					t0[l].lvc = NULL;
			*wvc_of(R, w) = d;
			d->refs += LANES;
			if ((old->refs -= LANES) == 0)
				vc_recycle(R, old);
			return;
		}
		/* (lanes that differ hold their own pointers: only whole warps' are held) */
		*wvc_of(R, w) = differ ? NULL : d;
		for (uint32_t l = 0; l < LANES; l++)
			if (!differ || t0[l].lvc == old) {
				t0[l].lvc = d;
				n++;
			}
		d->refs += n;
		if ((old->refs -= n) == 0)
			vc_recycle(R, old);
		if (n == LANES)
			return;
		n = 0;
	}
	old = NULL;
	for (uint32_t m = lanes; m; m &= m - 1) {
		struct rthread *t = t0 + __builtin_ctz(m);
		struct vc *o = tvc(R, t);
		if (o == d)
			continue;
		if (!t->lvc) /* (the lanes part: each its own pointer) */
			race_warp_hand_out(R, t);
		if (o != old) {
			if (old && (old->refs -= n) == 0)
				vc_recycle(R, old);
			old = o;
			n = 0;
		}
		n++;
		all++;
		t->lvc = d;
	}
	if (all)
		*wvc_of(R, w) = NULL;
	d->refs += all;
	if (old && (old->refs -= n) == 0)
		vc_recycle(R, old);
}

/* bar_acquire of d by every warp of c, each whole, its arrival deferred (race_bar_arrive):
 * a warp holding its lanes' one vector (race.wvc) takes bar_acquire's first way, done here
 * in one pass; the references moved per run of warps that held one vector (their count
 * reaches 0 at the same warp as bar_acquire's, so vectors are recycled in its order). */
static void acquire_whole(struct race *R, struct cta *c, struct vc *d)
{
	struct vc **wv = &R->wvc[c->slot * R->nw], *old = NULL;
	struct rthread *t0 = &R->th[(size_t)c->slot * R->nt];
	uint32_t n = 0;
	for (uint32_t i = 0; i < c->nwarps; i++, t0 += LANES) {
		struct vc *o = wv[i];
		if (old && o != old) { /* (the run of old ends) */
			if ((old->refs -= n) == 0)
				vc_recycle(R, old);
			old = NULL;
			n = 0;
		}
		if (!R->wvc_ok || !o || o == d) {
			bar_acquire(R, &c->warps[i], 0xffffffffu, d);
			continue;
		}
		if (t0->lvc) /* (the warp holds it from now on) */
			for (uint32_t l = 0; l < LANES; l++)
				t0[l].lvc = NULL;
		wv[i] = d;
		d->refs += LANES;
		old = o;
		n += LANES;
	}
	if (old && (old->refs -= n) == 0)
		vc_recycle(R, old);
}

/* race_bar_complete of an instance every warp of c arrived at whole and waits at, each
 * holding one vector o: o holding c's chunk alone, referenced by those lanes and by the
 * barrier's last instance only. Then release_warps would make a fresh vector of one chunk,
 * c's epochs (o needs no join: its one chunk is c's, below them), bar_done would make it the
 * instance's, acquire_whole every warp's, and o, let go by all, would be recycled: o is made
 * that vector in place, with the same clocks, gens and references, and no vector made,
 * joined, walked or recycled. The tests, loads only: o, or NULL where not this case. */
static inline struct vc *in_place_of(const struct race *R, const struct cta *c, uint32_t id)
{
	const struct rcta *rc = &R->cta[c->slot];
	struct vc *const *wv = &R->wvc[c->slot * R->nw];
	struct vc *o = wv[0];
	if (rc->pend[id] != whole_cta(R) || !R->wvc_ok || !o || rc->acc[id] ||
	    o->refs != R->nt + (rc->done[id] == o))
		return NULL;
	for (uint32_t i = 1; i < R->nw; i++)
		if (wv[i] != o) /* a warp holding another vector */
			return NULL;
	return vc_chunk_alone(o, c->linear) ? o : NULL;
}

/* The completion in place of in_place_of's o (its last instance already o): o renamed, the
 * CTA's era raised (release_warps' whole-CTA case), the pend mask taken, then c's epochs
 * copied into o's chunk and raised - last, a tail call, nothing held across a call. (The
 * lanes' pointers stay: acquire_whole would clear them, but a warp's set race.wvc entry is
 * every lane's vector, so each lane's is NULL or o already, and o it stays.) */
static inline void complete_in_place(struct race *R, struct cta *c, uint32_t id, struct vc *o)
{
	struct rcta *rc = &R->cta[c->slot];
	uint32_t *ch = vc_renew_chunk(R, o);
	o->gen = ++R->gen;
	rc->era++;
	rc->era_gen = o->gen;
	rc->pend[id] = 0;
	copy_raise(ch, &R->clk[c->slot * R->nt], R->nt);
}

/* complete_in_place where the barrier's last instance is another vector (the first in
 * place after a completion made otherwise): that one let go for o (out of line: the common
 * case calls nothing before the copy). */
static __attribute__((noinline)) void complete_in_place_first(struct race *R, struct cta *c,
							      uint32_t id, struct vc *o)
{
	struct vc **done = &R->cta[c->slot].done[id];
	vc_put(R, *done);
	*done = vc_ref(o);
	complete_in_place(R, c, id, o);
}

/* race_bar_complete where in_place_of declines: the instance's vector made (bar_done),
 * then acquired by its waiters. */
static __attribute__((noinline)) void bar_complete_any(struct race *R, struct cta *c,
						       uint32_t id)
{
	uint32_t pend = R->cta[c->slot].pend[id];
	bar_done(R, c, id);
	struct vc *d = R->cta[c->slot].done[id];
	if (d && pend == whole_cta(R)) {
		/* every warp arrived whole and waits (race_bar_arrive): each one group of all
		 * its lanes parked here, so their groups need no walk */
		acquire_whole(R, c, d);
		return;
	}
	for (uint32_t i = 0; d && i < c->nwarps; i++) {
		struct warp *w = &c->warps[i];
		for (struct group *g = w->groups; g; g = g->next)
			if (g->state == G_BAR && g->wait_id == id)
				bar_acquire(R, w, g->mask, d);
	}
}

void race_bar_complete(struct launch *L, struct cta *c, uint32_t id)
{
	struct race *R = L->race;
	if (!R)
		return;
	struct vc *o = in_place_of(R, c, id);
	if (!o)
		bar_complete_any(R, c, id);
	else if (R->cta[c->slot].done[id] != o)
		complete_in_place_first(R, c, id, o);
	else
		complete_in_place(R, c, id, o);
}

void race_warp_sync(struct launch *L, struct warp *w, uint32_t lanes)
{
	struct race *R = L->race;
	if (!R)
		return;
	struct vc *acc = NULL;
	for (uint32_t m = lanes; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		release_into(R, &acc, thr(R, w, l), tid_of(R, w, l));
	}
	for (uint32_t m = lanes; acc && m; m &= m - 1)
		adopt(R, thr(R, w, (uint32_t)__builtin_ctz(m)), acc);
	vc_put(R, acc);
}

/* Where c's cluster barrier keeps its clocks: with its cluster's first CTA. */
static struct rcta *cbar_of(struct race *R, const struct cta *c)
{
	return &R->cta[c->slot - c->rank];
}

void race_cbar_arrive(struct launch *L, struct warp *w, uint32_t lanes, bool relaxed)
{
	struct race *R = L->race;
	if (!R)
		return;
	for (uint32_t m = lanes; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		struct rthread *t = thr(R, w, l);
		/* a relaxed arrive releases after fence.mbarrier_init or a release fence of
		 * cluster scope (a release pattern: how inits are published to the cluster) */
		bool fenced = t->init_fence || t->fence >= SC_CLUSTER;
		t->init_fence = false;
		if (!relaxed || fenced)
			release_into(R, &cbar_of(R, w->cta)->cacc, t, tid_of(R, w, l));
	}
}

void race_cbar_done(struct launch *L, struct cluster *cl)
{
	struct race *R = L->race;
	if (!R)
		return;
	struct rcta *b = cbar_of(R, &cl->ctas[0]);
	vc_put(R, b->cdone);
	b->cdone = b->cacc;
	b->cacc = NULL;
}

void race_cbar_acquire(struct launch *L, struct warp *w, uint32_t lanes)
{
	struct race *R = L->race;
	if (!R)
		return;
	for (uint32_t m = lanes; m; m &= m - 1)
		acquire_from(R, thr(R, w, (uint32_t)__builtin_ctz(m)), cbar_of(R, w->cta)->cdone);
}

/* The state of mb: by the first object made at its place in the running cluster, so that
 * init/inval cycles at one place reuse one entry (race_mbar_init clears it). */
static __attribute__((noinline)) struct rmbar *rmbar_grow(struct launch *L, uint32_t k);

static inline struct rmbar *rmbar(struct launch *L, const struct mbar *mb)
{
	struct race *R = L->race;
	if (mb->first_id <= R->mb_base)
		return NULL;
	uint32_t k = mb->first_id - R->mb_base - 1;
	return k < R->nmb ? &R->mb[k] : rmbar_grow(L, k);
}

/* rmbar's table grown to hold entry k. */
static struct rmbar *rmbar_grow(struct launch *L, uint32_t k)
{
	struct race *R = L->race;
	uint32_t n = k + 16;
	struct rmbar *t = race_grow(L, &R->charged, R->mb, R->nmb * sizeof *t, n * sizeof *t,
				    "the data-race detector's mbarrier table");
	if (!t)
		return NULL;
	memset(t + R->nmb, 0, (n - R->nmb) * sizeof *t);
	R->mb = t;
	R->nmb = n;
	return &R->mb[k];
}

void race_mbar_arrive(struct launch *L, struct warp *w, uint32_t lanes, const struct mbar *mb)
{
	struct race *R = L->race;
	struct rmbar *b = R && w ? rmbar(L, mb) : NULL;
	if (!b || L->ci->sem == MOD_RELAXED)
		return;
	release_lanes(R, &b->acc, w, lanes);
}

void race_mbar_done(struct launch *L, const struct mbar *mb)
{
	struct race *R = L->race;
	struct rmbar *b = R ? rmbar(L, mb) : NULL;
	if (!b)
		return;
	vc_put(R, b->last);
	b->last = b->acc;
	b->acc = NULL;
}

void race_mbar_acquire(struct launch *L, struct warp *w, uint32_t lane, const struct mbar *mb,
		       bool phantom)
{
	struct race *R = L->race;
	struct rmbar *b = R ? rmbar(L, mb) : NULL;
	if (!b)
		return;
	struct rthread *t = thr(R, w, lane);
	if (phantom) {
		t->phantom = L->ci;
		if (R->glog && L->log)
			race_glog_phantom_event(L, R->glog, tid_of(R, w, lane));
		return;
	}
	if (L->ci->sem != MOD_RELAXED)
		acquire_from(R, t, b->last);
}

void race_mbar_init(struct launch *L, struct warp *w, uint32_t lane, const struct mbar *mb)
{
	struct race *R = L->race;
	struct rmbar *b = R ? rmbar(L, mb) : NULL;
	if (!b)
		return;
	vc_put(R, b->acc);
	vc_put(R, b->last);
	b->acc = b->last = NULL;
	b->init = (struct rec){L->ci, tid_of(R, w, lane), *clock_of(R, thr(R, w, lane)),
				      (uint32_t)L->steps, 0xf, 0};
}

/* race_mbar_unordered for the lanes `todo` not known ordered after the init yet. */
static __attribute__((noinline)) uint32_t unordered_lanes(struct launch *L, struct warp *w,
							 uint32_t todo,
							 const struct mbar *mb,
							 const struct dinsn **init)
{
	struct race *R = L->race;
	struct rthread *t0 = thr(R, w, 0);
	uint32_t slot = mb->id % INIT_SEEN;
	uint32_t *seen = &R->seen[slot * R->nseen + (size_t)(t0 - R->th)];
	struct rmbar *b = rmbar(L, mb);
	uint32_t bad = 0;
	if (!b || !b->init.clock)
		return 0;
	for (uint32_t m = todo; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m), tid = tid_of(R, w, l);
		if (happens_before(R, t0 + l, tid, tid, &b->init))
			seen[l] = mb->id;
		else
			bad |= 1u << l;
	}
	*init = b->init.insn;
	return bad;
}

uint32_t race_mbar_unordered(struct launch *L, struct warp *w, uint32_t lanes,
			     const struct mbar *mb, const struct dinsn **init)
{
	struct race *R = L->race;
	if (!R || !w)
		return 0;
	/* the lanes not yet known ordered after the init (clocks only grow: once after, always
	 * after), before the mbarrier's state is even looked up: a wait polled in a loop */
	const struct rthread *t0 = thr(R, w, 0);
	uint32_t slot = mb->id % INIT_SEEN, todo = 0;
	const uint32_t *seen = &R->seen[slot * R->nseen + (size_t)(t0 - R->th)];
	for (uint32_t m = lanes; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		todo |= (uint32_t)(seen[l] != mb->id) << l;
	}
	return todo ? unordered_lanes(L, w, todo, mb, init) : 0;
}

void race_fence(struct launch *L, struct warp *w, uint32_t lanes)
{
	struct race *R = L->race;
	const struct dinsn *di = L->ci;
	if (!R || (di->flags & DF_PROXY))
		return;
	if (di->flags & DF_MBARRIER_INIT) {
		for (uint32_t m = lanes; m; m &= m - 1)
			thr(R, w, (uint32_t)__builtin_ctz(m))->init_fence = true;
		return;
	}
	enum ir_mod sem = (enum ir_mod)di->sem;
	enum scope s = scope_of(di->scope, SC_GPU);
	for (uint32_t m = lanes; m; m &= m - 1) {
		struct rthread *t = thr(R, w, (uint32_t)__builtin_ctz(m));
		if (sem != MOD_ACQUIRE && t->fence < s)
			t->fence = (uint8_t)s;
		struct rcold *k = cold_of(R, t);
		if (sem != MOD_RELEASE && k->pending) {
			acquire_from(R, t, k->pending);
			vc_put(R, k->pending);
			k->pending = NULL;
		}
	}
}

void race_copy_complete(struct launch *L, const struct race_copy *rc, const struct mbar *mb)
{
	struct race *R = L->race;
	struct rmbar *b = R && rc->vc ? rmbar(L, mb) : NULL;
	struct vc *a = b ? vc_own(R, &b->acc) : NULL;
	if (!a)
		return;
	vc_join(R, a, rc->vc);
	vc_raise(R, a, rc->tid, rc->tclock);
	vc_raise(R, a, rc->agent, rc->clock);
}

void race_copy_waited(struct launch *L, struct warp *w, uint32_t lane, enum race_agent kind,
		      uint32_t below)
{
	struct race *R = L->race;
	if (!R)
		return;
	struct rthread *t = thr(R, w, lane);
	uint32_t *seen = kind == RA_CP ? &t->seen_cp : &t->seen_bulk;
	if (*seen < below)
		*seen = below;
	R->seen_any |= below != 0;
}

void race_agent_acquire(struct launch *L, struct warp *w, uint32_t lanes, uint32_t agent,
			uint32_t clock)
{
	struct race *R = L->race;
	if (!R || !clock)
		return;
	struct vc *from = NULL, *to = NULL; /* lanes that share a vector share the result */
	for (uint32_t m = lanes; m; m &= m - 1) {
		struct rthread *t = thr(R, w, (uint32_t)__builtin_ctz(m));
		struct vc *cur = tvc(R, t);
		if (vc_get(R, cur, agent) >= clock)
			continue;
		if (from && cur == from) {
			adopt(R, t, to);
			continue;
		}
		from = cur;
		wvc_forget(R, t);
		struct vc *v = vc_own(R, &t->lvc);
		if (!v)
			return;
		vc_raise(R, v, agent, clock);
		to = v;
	}
}
