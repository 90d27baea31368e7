/*
 * race_quick.c - a warp's shared-memory accesses checked at once (race_shared_lanes):
 * the common case of plain accesses by threads whose earlier records are their own or
 * ordered by the one vector they share, decided per cell without the generic check.
 */
#include "race_priv.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* What the quick path knows of the accessing threads: they are of the CTA whose thread ids
 * lie in [base, base + span), and their vector's clocks of those threads are clk[tid - base]
 * (the lanes of one warp usually share one vector: `gen`, its generation). */
struct quick {
	uint32_t base, span;
	const uint32_t *clk;
	uint64_t gen;
	const struct dinsn *insn;   /* the instruction and its step (quick_word)              */
	uint32_t step;
};

#ifdef RACE_VERIFY_ERAS
#include <stdio.h>
/* A debugging build's check of old_word's premise (meson -Dc_args=-DRACE_VERIFY_ERAS):
 * every record that it skips is one quick_word would find the thread's own or ordered. */
static bool verify_rec(const struct quick *q, const struct rec *p, uint32_t tid)
{
	return !p->clock || p->tid == tid ||
	       (p->tid - q->base < q->span && q->clk[p->tid - q->base] >= p->clock);
}

static void verify_old(const struct quick *q, const struct cell *c, uint32_t tid, bool write,
		       bool r_old)
{
	bool ok = verify_rec(q, &c->w, tid);
	if (write || r_old) {
		ok &= verify_rec(q, &c->r, tid);
		ok &= verify_rec(q, &c->r2, tid) || !write;
		for (uint32_t i = 0; write && c->more && i < c->more->n; i++)
			ok &= verify_rec(q, &c->more->e[i], tid);
	}
	if (!ok) /* (library code does not end the process: the suites' exact stderr fails) */
		fprintf(stderr, "race_quick.c: an era skipped a record it should have checked\n");
}
#define RACE_VERIFY_OLD(q, c, tid, write, r_old) verify_old(q, c, tid, write, r_old)
#else
#define RACE_VERIFY_OLD(q, c, tid, write, r_old) ((void)0)
#endif

/* Whether record p, made by another thread, is known ordered before a plain access by a
 * thread of q: p is by a thread of the CTA (not an agent: their CTA numbers lie above the
 * grid's) and its epoch is in the vector. False says nothing: happens_before may still find
 * p ordered (a thread of another CTA, an agent). */
static inline bool quick_ordered(const struct quick *q, const struct rec *p)
{
	uint32_t k = p->tid - q->base;
	return k < q->span && q->clk[k] >= p->clock;
}

/* Whether record p may conflict with the plain access me (quick_ordered's terms): false
 * when conflicts() would be false for certain. */
static inline bool quick_may_conflict(const struct quick *q, const struct rec *p,
				      const struct rec *me)
{
	return p->clock && (p->mask & me->mask) && p->tid != me->tid && !quick_ordered(q, p);
}

/* check_cell for a plain access `me` (no strength, no copy) by a thread of q, in the common
 * cases: every earlier record it meets is the thread's own or quick_ordered, and a read
 * either takes the cell's one read (which it covers) or, concurrent with it, joins the list
 * of further reads by add_read's fast path. Then the cell is updated as check_cell would;
 * false: not decided here, the cell untouched (check_cell decides). */
static inline __attribute__((always_inline)) bool quick_cell(const struct quick *q, struct cell *c, const struct rec *me,
			      bool write)
{
	struct rec *r = &c->r;
	uint32_t tid = me->tid;
	if (c->r2.clock) /* (check_cell moves it to the list, which this path knows) */
		return false;
	if (quick_may_conflict(q, &c->w, me))
		return false;
	if (!write) {
		if (!r->clock || r->tid == tid ||
		    (!(r->mask & ~me->mask) && quick_ordered(q, r))) {
			take_rec(r, me, tid);
			return true;
		}
		/* add_read's fast path, when its first case surely fails (r is not covered, or
		 * is by a thread of the CTA, whose order quick_ordered knows exactly) and the
		 * thread has no entry in the list yet */
		struct readers *m = c->more;
		if (!m || (m->n && m->ok_gen != q->gen) ||
		    (m->n == m->cap && m->cap < MAX_READERS) ||
		    (!(r->mask & ~me->mask) && r->tid - q->base >= q->span))
			return false;
		readers_put(m, me, tid);
		m->ok_gen = q->gen; /* (an empty list: what add_read's scan of nothing concludes) */
		return true;
	}
	if (quick_may_conflict(q, r, me))
		return false;
	struct readers *m = c->more;
	bool all = true; /* every further read has no bytes outside this write's */
	for (uint32_t i = 0; m && i < m->n; i++) {
		if (quick_may_conflict(q, &m->e[i], me))
			return false;
		all &= !(m->e[i].mask & ~me->mask);
	}
	take_rec(&c->w, me, tid);
	if ((r->mask &= (uint8_t)~me->mask) == 0)
		r->clock = 0;
	if (m && m->n && all) { /* clear_reads, which would drop them all */
		m->n = 0;
		memset(m->tids, 0, sizeof m->tids);
	} else if (m && m->n) {
		clear_reads(c, me->mask);
	}
	return true;
}

/* Record r made q's plain access of a whole word by thread tid at epoch clock (take_rec's
 * result: its bytes are all of the word), its 24 bytes written as three words. */
static inline __attribute__((always_inline)) void rec_word(struct rec *r, const struct quick *q,
							   uint32_t tid, uint32_t clock)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	_Static_assert(offsetof(struct rec, clock) == offsetof(struct rec, tid) + 4 &&
			       offsetof(struct rec, mask) == offsetof(struct rec, step) + 4 &&
			       offsetof(struct rec, flags) == offsetof(struct rec, mask) + 1 &&
			       sizeof(struct rec) == offsetof(struct rec, step) + 8,
		       "struct rec's layout");
	uint64_t tc = (uint64_t)clock << 32 | tid, sm = (uint64_t)0xf << 32 | q->step;
	r->insn = q->insn;
	memcpy(&r->tid, &tc, 8);
	memcpy(&r->step, &sm, 8); /* (mask 0xf, flags 0) */
#else
	*r = (struct rec){q->insn, tid, clock, q->step, 0xf, 0};
#endif
}

/* A plain read, by thread tid of q at epoch clock, of a word whose write is ordered before it (or
 * r_old: whose reads are too): it takes the cell's one read when that one is ordered, else
 * add_read's fast path as quick_cell takes it - the first further read of a word goes to r2
 * (an empty list: what add_read's scan of nothing concludes), the next ones to the list
 * once check_cell has moved r2 there. False: not decided here, the cell untouched. */
static inline __attribute__((always_inline)) bool word_read(const struct quick *q,
							    struct cell *c, uint32_t tid,
							    uint32_t clock, bool r_old)
{
	struct rec *r = &c->r;
	if (r_old || !r->clock || r->tid == tid || quick_ordered(q, r)) {
		rec_word(r, q, tid, clock);
		return true;
	}
	struct readers *m = c->more;
	if (r->tid - q->base >= q->span || c->r2.clock)
		return false;
	if (!m || !m->n) {
		rec_word(&c->r2, q, tid, clock);
		if (m)
			m->ok_gen = q->gen;
		return true;
	}
	if (m->ok_gen != q->gen || (m->n == m->cap && m->cap < MAX_READERS))
		return false;
	const struct rec me = {q->insn, tid, clock, q->step, 0xf, 0};
	readers_put(m, &me, tid);
	return true;
}

/* A plain write (thread tid of q at epoch clock) takes a word every record of which is
 * ordered before it: the write, and its reads dropped (clear_reads, which drops them all;
 * its own earlier write's bytes are within the word). */
static inline __attribute__((always_inline)) void word_write(const struct quick *q,
							     struct cell *c, uint32_t tid,
							     uint32_t clock)
{
	rec_word(&c->w, q, tid, clock);
	c->r.mask = 0;
	c->r.clock = 0;
	c->r2.mask = 0;
	c->r2.clock = 0;
	struct readers *m = c->more;
	if (m && m->n) {
		m->n = 0;
		memset(m->tids, 0, sizeof m->tids);
	}
}

/* quick_cell for a whole word (the word loop of race_shared_lanes), with what that lets go:
 * every record kept has some byte (a write's record is a write's bytes, a read's goes when
 * its last byte is written), so each overlaps the word, and the word covers each; the
 * records it leaves are quick_cell's, byte for byte. The access: thread tid at epoch
 * clock, by q's instruction at q's step. */
static inline __attribute__((always_inline)) bool quick_word(const struct quick *q,
							     struct cell *c, uint32_t tid,
							     uint32_t clock, bool write)
{
	if (c->w.clock && c->w.tid != tid && !quick_ordered(q, &c->w))
		return false;
	if (!write)
		return word_read(q, c, tid, clock, false);
	if (c->r.clock && c->r.tid != tid && !quick_ordered(q, &c->r))
		return false;
	if (c->r2.clock && c->r2.tid != tid && !quick_ordered(q, &c->r2))
		return false;
	struct readers *m = c->more;
	for (uint32_t i = 0; m && i < m->n; i++)
		if (m->e[i].tid != tid && !quick_ordered(q, &m->e[i]))
			return false;
	word_write(q, c, tid, clock);
	return true;
}

/* quick_word when the cell's line says every record there is ordered before the access
 * (struct rcta's eras): of its writes (w_old) and, for a write, of its reads too (r_old).
 * A write then takes the cell and drops its reads; a read with r_old (no read of this era
 * either) takes the one read, else goes on as quick_word's read. */
static inline __attribute__((always_inline)) bool old_word(const struct quick *q,
							   struct cell *c, uint32_t tid,
							   uint32_t clock, bool write, bool r_old)
{
	RACE_VERIFY_OLD(q, c, tid, write, r_old);
	if (!write)
		return word_read(q, c, tid, clock, r_old);
	word_write(q, c, tid, clock);
	return true;
}

/* old_word for lanes [l, e) of a warp on the cells from c0 (thread tid0 + l, epoch k0[l]
 * on c0 + l) whose line's eras say every record there is ordered before it: a write's, or
 * a read's when no read was recorded there in this era either. */
static inline __attribute__((always_inline)) void old_seg(const struct quick *q,
							  struct cell *c0, uint32_t tid0,
							  const uint32_t *k0, uint32_t l,
							  uint32_t e, bool write)
{
	for (; l < e; l++) {
		struct cell *c = c0 + l;
		RACE_VERIFY_OLD(q, c, tid0 + l, write, true);
		if (!write) {
			rec_word(&c->r, q, tid0 + l, k0[l]);
			continue;
		}
		word_write(q, c, tid0 + l, k0[l]);
	}
}

/* Lanes [l, LANES) of a whole warp reading one word (thread tid0 + l at epoch k0[l], one
 * vector, tid0 a multiple of 32) as word_read's last case takes them one by one, at once:
 * while the cell's write is ordered before them (w_ok) and its one read is concurrent and
 * not theirs, r2 is empty and the list of further reads is known free of entries ordered
 * before q's vector (ok_gen), each lane not yet in the list is appended (readers_put's
 * append, the list's room permitting). Returns the first lane not taken. */
static inline uint32_t bulk_reads(const struct quick *q, struct cell *c, uint32_t tid0,
				  const uint32_t *k0, uint32_t l, bool w_ok)
{
	const struct rec *r = &c->r;
	struct readers *m = c->more;
	if (!w_ok || !r->clock || r->tid - q->base >= q->span || quick_ordered(q, r) ||
	    c->r2.clock || !m || !m->n || m->ok_gen != q->gen || (tid0 & 31))
		return l;
	uint32_t e = r->tid - tid0 < LANES && r->tid - tid0 >= l ? r->tid - tid0 : LANES;
	if (m->cap < MAX_READERS && e - l > m->cap - m->n) /* (add_read makes room) */
		e = l + (m->cap - m->n);
	uint64_t *word = &m->tids[tid0 >> 6 & 3];
	uint32_t sh = tid0 & 32;
	uint32_t want = (e == LANES ? 0xffffffffu : (1u << e) - 1) & ~((1u << l) - 1);
	if (l >= e || ((uint32_t)(*word >> sh) & want))
		return l;
	for (uint32_t i = l; i < e; i++)
		rec_word(&m->e[m->n < MAX_READERS ? m->n++ : (tid0 + i) % MAX_READERS], q,
			 tid0 + i, k0[i]);
	*word |= (uint64_t)want << sh;
	return e;
}

/* Lane l of race_shared_lanes checked and recorded granule by granule in full (x: its
 * warp's context), its bytes then stored; false when a report stopped the launch. */
static __attribute__((noinline)) bool shared_lane_full(struct acc_ctx *x, uint32_t l,
						       uint32_t o, uint32_t size,
						       const uint64_t *v)
{
	struct launch *L = x->L;
	struct race *R = x->R;
	struct cta *c = x->w->cta;
	enum race_kind kind = v ? RACE_WRITE : RACE_READ;
	const uint8_t *nv = v ? (const uint8_t *)&v[l] : NULL; /* its low bytes stored */
	x->t = thr(R, x->w, l);
	x->tid = x->owner = tid_of(R, x->w, l);
	x->lane = l;
	struct rec me = {L->ci, x->tid, *clock_of(R, x->t), (uint32_t)L->steps, 0, 0};
	uint32_t end = o + size;
	for (uint32_t g = o / GRAN; g * GRAN < end; g++) {
		uint32_t lo = o > g * GRAN ? o : g * GRAN;
		uint32_t hi = end < g * GRAN + GRAN ? end : g * GRAN + GRAN;
		me.mask = (uint8_t)(((1u << (hi - lo)) - 1) << (lo - g * GRAN));
		struct cell *cell = cell_at(L, x->s, c->smem_size, g);
		if (!cell)
			break;
		lines_stamp(x->rc, g, g, !v);
		const struct rec *hit = NULL;
		const uint8_t *bv = nv ? nv + (lo - o) : NULL;
		if (!check_cell(x, cell, &me, kind, bv, c->smem + lo, hi - lo, &hit)) {
			struct access a = {.p = c->smem + o, .cta = c, .off = o,
					   .space = MS_SHARED_CTA};
			race_report(x, &a, size, kind, hit, hit == &cell->w,
			       same_store(kind, &me, hit, &cell->w, bv, c->smem + lo, hi - lo));
			break;
		}
	}
	if (L->stop)
		return false;
	if (v)
		store_low(c->smem + o, v[l], size);
	return true;
}

/* race_shared_lanes' lanes in order (write: v, the values, is not NULL), each by the quick
 * path when it can, else in full; the lanes that go on. */
static inline __attribute__((always_inline)) uint32_t
shared_lanes_loop(struct acc_ctx *x, uint32_t mask, const uint32_t *off, uint32_t size,
		  const uint64_t *v, const bool write)
{
	struct launch *L = x->L;
	struct race *R = x->R;
	struct cta *c = x->w->cta;
	struct shadow *s = x->s;
	size_t i0 = (size_t)c->slot * R->nt + x->w->id * LANES; /* (thr, clock_of) */
	struct rthread *t0 = R->th + i0;
	const uint32_t *k0 = R->clk + i0;
	uint32_t tid0 = tid_of(R, x->w, 0), done = 0, shift = R->shift, cta = c->linear;
	/* The quick path (quick_cell): a lane of one granule whose vector is the first lane's
	 * (usually all of them share one), its cell's page made. */
	const struct vc *vq = t0[__builtin_ctz(mask)].vc;
	struct quick q = {cta << shift, 1u << shift, vc_clocks(vq, cta), vq->gen, L->ci,
			  (uint32_t)L->steps};
	bool quick = R->nt <= sizeof vc_no_clocks / sizeof *vc_no_clocks && size <= GRAN;
	struct rec me = {L->ci, 0, 0, (uint32_t)L->steps, 0, 0};
	uint8_t m1 = (uint8_t)((1u << size) - 1);
	struct cell *const *pages = s->pages;
	uint64_t npages = pages ? s->npages : 0;
	struct rcta *rc = x->rc;
	const uint32_t *lines = rc->lines;
	uint32_t era = rc->era;
	/* the lanes hold the vector of the CTA's last full barrier: eras tell (struct rcta) */
	bool fresh = !rc->foreign && vq->gen == rc->era_gen;
	if (quick && size == GRAN && npages) {
		/* a word per lane (aligned: one granule each; in the CTA's memory: its page is
		 * in the table), the usual case: the quick path with less to test per lane */
		uint32_t m = mask;
		if (mask == 0xffffffffu) {
			/* a whole warp on 32 consecutive words of one page, one vector (the
			 * usual case): the cells side by side, no per-lane lookups, until a
			 * lane the quick path cannot decide (it and those after: below) */
			uint32_t o0 = off[0], g0 = o0 / GRAN, skew = 0, apart = 0;
#pragma GCC unroll 8
			for (uint32_t l = 0; l < LANES; l++)
				skew |= off[l] - o0 - l * GRAN;
			for (uint32_t l = 0; skew && !write && l < LANES; l++)
				apart |= off[l] ^ o0;
			struct cell *one = skew && !apart && !write && !lanes_differ(R, x->w, vq)
						   ? pages[g0 / PAGE_CELLS] : NULL;
			if (one) {
				/* a whole warp loading one word (s[0] after a reduction): the
				 * lanes in turn on its one cell, no per-lane lookups */
				struct cell *cb = one + g0 % PAGE_CELLS;
				bool w_old = fresh && lines[g0 / LINE_CELLS * 2] < era;
				uint32_t l = 0;
				lines_stamp(rc, g0, g0, true);
				while (l < LANES) {
					/* the lanes that join the list of further reads at once,
					 * then one in turn (in full if the quick path cannot) */
					l = bulk_reads(&q, cb, tid0, k0, l,
						       w_old || !cb->w.clock ||
							       quick_ordered(&q, &cb->w));
					if (l == LANES)
						break;
					if (!(w_old ? old_word(&q, cb, tid0 + l, k0[l], false, false)
						    : quick_word(&q, cb, tid0 + l, k0[l], false)) &&
					    !shared_lane_full(x, l, o0, size, NULL))
						return mask & ((1u << l) - 1);
					l++;
				}
				return mask;
			}
			struct cell *run = !one && !skew && !lanes_differ(R, x->w, vq) && g0 % PAGE_CELLS + LANES <= PAGE_CELLS
						   ? pages[g0 / PAGE_CELLS] : NULL;
			uint32_t l = 0;
			struct cell *c0 = run ? run + g0 % PAGE_CELLS : NULL;
			while (run && l < LANES) {
				/* line by line: where its eras say every record there is
				 * ordered (struct shadow), old_seg or old_word, unread */
				uint32_t g = g0 + l, e = l + LINE_CELLS - g % LINE_CELLS;
				e = e < LANES ? e : LANES;
				const uint32_t *ln = &lines[g / LINE_CELLS * 2];
				bool w_old = fresh && ln[0] < era, r_old = fresh && ln[1] < era;
				lines_stamp(rc, g, g, !write);
				if (w_old && (r_old || !write)) {
					if (write || r_old) {
						old_seg(&q, c0, tid0, k0, l, e, write);
						for (; write && l < e; l++)
							store_low(c->smem + o0 + l * GRAN, v[l], GRAN);
						l = e;
						continue;
					}
					while (l < e &&
					       old_word(&q, c0 + l, tid0 + l, k0[l], false, false))
						l++;
				} else {
					while (l < e &&
					       quick_word(&q, c0 + l, tid0 + l, k0[l], write)) {
						if (write)
							store_low(c->smem + o0 + l * GRAN, v[l],
								  GRAN);
						l++;
					}
				}
				if (l < e)
					break;
			}
			if (l == LANES)
				return mask;
			if (!one)
				m = mask & ~((1u << l) - 1); /* (l < 32) */
		}
		for (; m; m &= m - 1) {
			uint32_t l = (uint32_t)__builtin_ctz(m), o = off[l], g = o / GRAN;
			const struct rthread *t = t0 + l;
			struct cell *page = pages[g / PAGE_CELLS];
			if (t->vc == vq && page) {
				const uint32_t *ln = &lines[g / LINE_CELLS * 2];
				bool w_old = fresh && ln[0] < era, r_old = fresh && ln[1] < era;
				lines_stamp(rc, g, g, !write);
				if (w_old && (r_old || !write)
					    ? old_word(&q, page + g % PAGE_CELLS, tid0 + l, k0[l],
						       write, r_old)
					    : quick_word(&q, page + g % PAGE_CELLS, tid0 + l, k0[l],
							 write)) {
					if (write)
						store_low(c->smem + o, v[l], GRAN);
					continue;
				}
			}
			if (!shared_lane_full(x, l, o, size, v))
				return mask & ((1u << l) - 1);
			pages = s->pages; /* (it may have made them) */
		}
		return mask;
	}
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m), o = off[l], g = o / GRAN;
		struct rthread *t = t0 + l;
		if (quick && t->vc == vq && g / PAGE_CELLS < npages && pages[g / PAGE_CELLS]) {
			me.tid = tid0 + l;
			me.clock = k0[l];
			me.mask = (uint8_t)(m1 << (o % GRAN));
			lines_stamp(rc, g, g, !write);
			if (quick_cell(&q, pages[g / PAGE_CELLS] + g % PAGE_CELLS, &me, write)) {
				if (write)
					store_low(c->smem + o, v[l], size);
				done |= 1u << l;
				continue;
			}
		}
		if (!shared_lane_full(x, l, o, size, v))
			break;
		done |= 1u << l;
		pages = s->pages; /* (it may have made them) */
		npages = pages ? s->npages : 0;
	}
	return done;
}

uint32_t race_shared_lanes(struct launch *L, struct warp *w, uint32_t mask, const uint32_t *off,
			   uint32_t size, const uint64_t *v)
{
	struct race *R = L->race;
	if (L->stop || !mask)
		return 0;
	struct rcta *rc = &R->cta[w->cta->slot];
	if (!rc->lines && !race_lines(L, rc, w->cta->smem_size)) /* (made once a cluster) */
		return 0;
	struct acc_ctx x = {.L = L, .R = R, .s = &rc->smem, .w = w, .rc = rc};
	return v ? shared_lanes_loop(&x, mask, off, size, v, true)
		 : shared_lanes_loop(&x, mask, off, size, NULL, false);
}
