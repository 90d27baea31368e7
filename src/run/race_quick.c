/*
 * race_quick.c - a warp's shared-memory accesses checked at once (race_shared_lanes):
 * the common case of plain accesses by threads whose earlier records are their own or
 * ordered by the one vector they share, decided per cell without the generic check.
 */
#include "race_priv.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* What the quick path knows of the accessing threads: they are of the CTA whose thread ids
 * lie in [base, base + span), and their vector's clocks of those threads are clk[tid - base]
 * (the lanes of one warp usually share one vector: `gen`, its generation). */
struct quick {
	uint32_t base, span;
	const uint32_t *clk;
	uint64_t gen;
	const struct dinsn *insn;   /* the instruction and its step (quick_word)              */
	uint32_t step;
	bool whole;                 /* the CTA is whole warps, clk has every thread's clock     */
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

/* fresh_read's premise: a row record's cells are all ordered or none (fine: what one told). */
static void verify_fresh(const struct rowd *d, uint32_t s, uint32_t fine, const uint32_t *vb,
			 uint32_t base, uint32_t span)
{
	uint32_t each = 0;
	for (uint32_t m = s; m; m &= m - 1) {
		uint32_t i = (uint32_t)__builtin_ctz(m), j = d->tb - base + i;
		if (j < span && vb[j] >= d->clock)
			each |= 1u << i;
	}
	if (each != fine)
		fprintf(stderr, "race_quick.c: a row record's cells differ in order\n");
}
#define RACE_VERIFY_FRESH(d, s, fine, vb, base, span) verify_fresh(d, s, fine, vb, base, span)

/* race_shared_row's premise: a warp's race.wvc entry, when set, is every lane's vector. */
static void verify_hold(struct race *R, const struct warp *w, const struct vc *v)
{
	for (uint32_t l = 0; v && l < LANES; l++)
		if (tvc(R, thr(R, w, l)) != v)
			fprintf(stderr, "race_quick.c: a warp's vector is not its lane's\n");
}
#define RACE_VERIFY_HOLD(R, w, v) verify_hold(R, w, v)
#else
#define RACE_VERIFY_HOLD(R, w, v) ((void)0)
#define RACE_VERIFY_OLD(q, c, tid, write, r_old) ((void)0)
#define RACE_VERIFY_FRESH(d, s, fine, vb, base, span) ((void)0)
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

/* Record r made a plain access of a whole word by thread tid at epoch clock, by insn at step
 * (take_rec's result: its bytes are all of the word), its 24 bytes written as three words. */
static inline __attribute__((always_inline)) void rec_put(struct rec *r,
							  const struct dinsn *insn,
							  uint32_t step, uint32_t tid,
							  uint32_t clock)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	_Static_assert(offsetof(struct rec, clock) == offsetof(struct rec, tid) + 4 &&
			       offsetof(struct rec, mask) == offsetof(struct rec, step) + 4 &&
			       offsetof(struct rec, flags) == offsetof(struct rec, mask) + 1 &&
			       sizeof(struct rec) == offsetof(struct rec, step) + 8,
		       "struct rec's layout");
	uint64_t tc = (uint64_t)clock << 32 | tid, sm = (uint64_t)0xf << 32 | step;
	r->insn = insn;
	memcpy(&r->tid, &tc, 8);
	memcpy(&r->step, &sm, 8); /* (mask 0xf, flags 0) */
#else
	*r = (struct rec){insn, tid, clock, step, 0xf, 0};
#endif
}

/* rec_put for q's instruction at its step. */
static inline __attribute__((always_inline)) void rec_word(struct rec *r, const struct quick *q,
							   uint32_t tid, uint32_t clock)
{
	rec_put(r, q->insn, q->step, tid, clock);
}

/* A plain read, by thread tid of q at epoch clock, of a word whose write is ordered before it (or
 * r_old: whose reads are too): it takes the cell's one read when that one is ordered, else
 * add_read's fast path as quick_cell takes it - the first further read of a word goes to r2
 * (an empty list: what add_read's scan of nothing concludes), the next ones to the list,
 * r2 moved there first as check_cell moves it (readers_spill: the list, made, has room).
 * False: not decided here, the cell untouched. */
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
	if (r->tid - q->base >= q->span)
		return false;
	if (c->r2.clock) {
		if (!m || m->n || m->ok_gen != q->gen)
			return false;
		readers_spill(c, m);
	} else if (!m || !m->n) {
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

/* cell_drop_reads but for r: where a read's record is written over it next (mat_fill_k). */
static inline __attribute__((always_inline)) void cell_drop_later_reads(struct cell *c)
{
	c->r2.mask = 0;
	c->r2.clock = 0;
	struct readers *m = c->more;
	if (m && m->n) {
		m->n = 0;
		m->late = 0; /* (late halves dropped unwritten) */
		memset(m->tids, 0, sizeof m->tids);
	}
}

/* A write of a whole word drops every read of the cell (r, r2, the readers' list): clear_reads
 * for the word's mask, without its per-entry walk. */
static inline __attribute__((always_inline)) void cell_drop_reads(struct cell *c)
{
	c->r.mask = 0;
	c->r.clock = 0;
	cell_drop_later_reads(c);
}

/* A plain write (thread tid of q at epoch clock) takes a word every record of which is
 * ordered before it: the write, and its reads dropped (clear_reads, which drops them all;
 * its own earlier write's bytes are within the word). */
static inline __attribute__((always_inline)) void word_write(const struct quick *q,
							     struct cell *c, uint32_t tid,
							     uint32_t clock)
{
	rec_word(&c->w, q, tid, clock);
	cell_drop_reads(c);
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

/* rec_put of threads tid..tid + n - 1 at epochs k[0..n) into p[0..n), by insn at step: in a
 * function of its own, so that its loop keeps them in registers. */
_Static_assert(sizeof(struct rec) == 24, "recs_put writes records of 24 bytes");
static __attribute__((noinline)) void recs_put(struct rec *p, const struct dinsn *insn,
					       uint32_t step, uint32_t tid, const uint32_t *k,
					       uint32_t n)
{
	uint32_t i = 0;
#if defined(__SSE2__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* two records (48 bytes) as three 16-byte stores: insn and tid|clock, the step's word
	 * (step, mask 0xf, flags 0: rec_put's) and insn, tid|clock and the step's word */
	const __m128i in = _mm_set1_epi64x((long long)(uintptr_t)insn);
	const __m128i sm = _mm_set1_epi64x((long long)((uint64_t)0xf << 32 | step));
	const __m128i mid = _mm_unpacklo_epi64(sm, in);
	__m128i t = _mm_setr_epi32((int)tid, (int)tid + 1, 0, 0);
	const __m128i two = _mm_set1_epi32(2);
	for (; i + 2 <= n; i += 2, t = _mm_add_epi32(t, two)) {
		__m128i tc = _mm_unpacklo_epi32(t, _mm_loadl_epi64((const __m128i *)(k + i)));
		uint8_t *q = (uint8_t *)&p[i];
		_mm_storeu_si128((__m128i *)q, _mm_unpacklo_epi64(in, tc));
		_mm_storeu_si128((__m128i *)(q + 16), mid);
		_mm_storeu_si128((__m128i *)(q + 32), _mm_unpackhi_epi64(tc, sm));
	}
#endif
	for (; i < n; i++)
		rec_put(&p[i], insn, step, tid + i, k[i]);
}

/* The lanes of a whole warp whose offset is o (bit l: lane l's). */
static inline uint32_t lanes_at(const uint32_t *off, uint32_t o)
{
	uint32_t at = 0;
#if defined(__SSE2__)
	const __m128i want = _mm_set1_epi32((int)o);
	for (int i = 0; i < 8; i++) {
		__m128i e = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(off + 4 * i)), want);
		at |= (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(e)) << 4 * i;
	}
#else
	for (uint32_t l = 0; l < LANES; l++)
		at |= (uint32_t)(off[l] == o) << l;
#endif
	return at;
}

/* The lanes of `rest` at o (after a lane whose read of the word at c word_read has just taken;
 * lanes of the warp of thread tid0, epochs k0, those that hold q's vector: all when held, else
 * tvc's) that word_read's last case would append to the list, one by one in lane order,
 * appended at once: while the word's write is ordered before them all (w_old, or by q), its
 * one read is concurrent with them (of the CTA, not ordered, not one of theirs), r2 is
 * empty and the list, not empty, is known free of entries ordered before q's vector
 * (ok_gen), a lane without an entry there (its thread's bit clear) is appended while the
 * list has room or is full at MAX_READERS (then in the slot its thread id picks: readers_put).
 * The lanes taken are left out of the warp's loop: their cell is no other lane's, and none of
 * them can report. Returns them. */
static inline uint32_t group_reads(const struct quick *q, struct cell *c, uint32_t tid0,
				   const uint32_t *k0, const uint32_t *off, uint32_t rest,
				   uint32_t o, bool full, bool w_old, bool held, struct race *R,
				   const struct rthread *t0, const struct vc *vq)
{
	const struct rec *r = &c->r;
	struct readers *m = c->more;
	if (!r->clock || r->tid - q->base >= q->span || quick_ordered(q, r) || c->r2.clock ||
	    !m || !m->n || m->ok_gen != q->gen ||
	    !(w_old || !c->w.clock || quick_ordered(q, &c->w)))
		return 0;
	uint32_t same = 0; /* (a whole warp's offsets all read, the others lane by lane) */
	if (full)
		same = lanes_at(off, o) & rest;
	for (uint32_t k = full ? 0 : rest; k; k &= k - 1)
		same |= (uint32_t)(off[__builtin_ctz(k)] == o) << __builtin_ctz(k);
	uint32_t taken = 0, n = m->n;
	for (; same; same &= same - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(same), tid = tid0 + l;
		uint64_t bit = 1ull << (tid & 63), *word = &m->tids[tid >> 6 & 3];
		if (tid == r->tid || (*word & bit) || (n == m->cap && m->cap < MAX_READERS) ||
		    (!held && tvc(R, t0 + l) != vq))
			break;
		rec_word(&m->e[n < MAX_READERS ? n++ : tid % MAX_READERS], q, tid, k0[l]);
		*word |= bit;
		taken |= 1u << l;
	}
	m->n = (uint8_t)n;
	return taken;
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

/* ---- row records (struct rrow) ---------------------------------------------------- */

enum { ROW_W, ROW_R, ROW_R2 };

/* 32 words of a warp (its epochs, its clocks in a vector) eight at a time: in RACE_CLONES
 * functions, one AVX2 operation each where the host has it. (No function takes or returns
 * such a vector: without AVX, that would change the ABI.) */
static inline __attribute__((always_inline)) uint64_t any8(u64x4 x)
{
	/* (halves folded in registers: the four lanes read one by one went through the
	 * stack, a store-forwarding wait on every row access) */
	x |= __builtin_shuffle(x, (u64x4){2, 3, 0, 1});
	x |= __builtin_shuffle(x, (u64x4){1, 0, 3, 2});
	return x[0];
}
#define ANY8(v) any8((u64x4)(v))

/* Whether the 32 words at k all hold c. */
static inline __attribute__((always_inline)) bool all32(const uint32_t *k, uint32_t c)
{
	u32x8 acc = {0};
#pragma GCC unroll 4
	for (int i = 0; i < 4; i++) {
		u32x8 v;
		memcpy(&v, k + 8 * i, sizeof v);
		acc |= v ^ c;
	}
	return !ANY8(acc);
}

/* How the 32 clocks at wc compare with c (as signed, rowd_fine's test): 1, all at or past it;
 * -1, all before it; 0, some each way. */
static inline __attribute__((always_inline)) int warp_vs(const uint32_t *wc, uint32_t c)
{
	typedef int32_t i32x8 __attribute__((vector_size(32)));
	i32x8 some = {0}, all = ~some;
#pragma GCC unroll 4
	for (int i = 0; i < 4; i++) {
		i32x8 v;
		memcpy(&v, wc + 8 * i, sizeof v);
		i32x8 lt = v < (int32_t)c;
		some |= lt;
		all &= lt;
	}
	all = ~all;
	return !ANY8(some) ? 1 : !ANY8(all) ? -1 : 0;
}

/* Row record h becomes d with cells `mask`: field by field, so that each load of d (built
 * by its fields on the stack just before) is served by the store that wrote it; a copy of
 * the struct reads it in 16 bytes that no one store covers, and waits for both (the fresh
 * path's hottest stall). */
static inline __attribute__((always_inline)) void rowd_set(struct rowd *h, const struct rowd *d,
							 uint32_t mask)
{
	const struct dinsn *insn = d->insn;
	uint32_t tb = d->tb, clock = d->clock, step = d->step;
	__asm__("" : "+r"(tb), "+r"(clock), "+r"(step)); /* (kept apart: no wider load) */
	h->insn = insn;
	h->tb = tb;
	h->clock = clock;
	h->step = step;
	h->mask = mask;
}

static inline struct rowd *row_of(struct rrow *rw, int k)
{
	return k == ROW_W ? &rw->w : k == ROW_R ? &rw->r : &rw->r2;
}

/* Line l's cells (a line with row records has its page made). */
static inline struct cell *line_cells(const struct rcta *rc, uint64_t l)
{
	uint64_t g = l * LINE_CELLS;
	return rc->smem.pages[g / PAGE_CELLS] + g % PAGE_CELLS;
}

/* ---- a warp's broadcast reads written late (struct readers' late, struct rrow's bc) ----
 *
 * A whole warp reading one word whose list of further reads is full puts its 32 records in
 * the 32 slots its thread ids pick (readers_put's slot tid % MAX_READERS): one half of the
 * list, replacing all it held. When its lanes are at one epoch, bulk_reads writes only the
 * half's first entry (lane 0's record: the half's others are it with thread + i), marks the
 * half late in the list and names the cell in its line's row records (bc); the next warp of
 * the same half replaces it again, and a write that drops the cell's reads (cell_drop_reads,
 * a row's z) drops the half unwritten (reduce_smem's s[0]: 256 readers a round, 64 entries
 * kept, all dropped by the next round's store). The half is written out (late_write)
 * wherever the entries could be read: by flush_cells, which every path but the row path
 * calls first (settle_lanes, race_rows_flush), before word_loads takes a lane on its own,
 * and before bulk_reads writes slots of a half that is not whole; the row path's tests of a
 * list decline (late_in). The list's count and thread bits are kept as if written. */

_Static_assert(MAX_READERS == 2 * LANES, "a full list is two halves of a warp's slots");

/* Whether cell i of line rw may have late reads. */
static inline bool late_at(const struct rrow *rw, uint32_t i)
{
	return rw->bc == i + 1;
}

/* Whether some cell of p whose reads rw's row write did not drop (z) may have late reads. */
static inline bool late_in(const struct rrow *rw, uint32_t p)
{
	return rw->bc && ((p & ~rw->z) >> (rw->bc - 1) & 1);
}

/* The cells of rw's line whose records the row records hold, or that may have late reads. */
static inline uint32_t row_cells(const struct rrow *rw)
{
	return rw->w.mask | rw->r.mask | rw->r2.mask | rw->z | (rw->bc ? 1u << (rw->bc - 1) : 0);
}

/* The late halves of the list of rw's cell c (its line's cell bc - 1) written: entry 32h + i
 * is entry 32h's record for its thread + i. */
static __attribute__((noinline)) void late_write(struct rrow *rw, struct cell *c)
{
	struct readers *m = c->more;
	for (uint32_t h = 0; m && h < MAX_READERS / LANES; h++) {
		if (!(m->late >> h & 1))
			continue;
		const struct rec t = m->e[LANES * h];
		for (uint32_t i = 1; i < LANES; i++)
			rec_put(&m->e[LANES * h + i], t.insn, t.step, t.tid + i, t.clock);
	}
	if (m)
		m->late = 0;
	rw->bc = 0;
}

/* Cell c (bit of its line's rw): the reads a row's write dropped dropped from it too, as
 * word_write drops them (late ones unwritten). */
static inline void mat_z(struct rrow *rw, struct cell *c, uint32_t bit)
{
	if (!(rw->z & bit))
		return;
	rw->z &= ~bit;
	cell_drop_reads(c);
}

/* Cell i of rw's line (c) given record d (row record k's, or one taking its place; gen:
 * an r2's vector) as the per-lane path writes it: a read's after the dropped reads go, an
 * r2 with the empty list's ok_gen (word_read). Inline: the fresh path's splits call it on
 * every round of a stencil. */
static inline __attribute__((always_inline)) void
mat_put(struct rrow *rw, int k, struct cell *c, uint32_t i, const struct rowd *d, uint64_t gen)
{
	if (k == ROW_W) {
		rec_put(&c->w, d->insn, d->step, d->tb + i, d->clock);
		return;
	}
	mat_z(rw, c, 1u << i);
	rec_put(k == ROW_R ? &c->r : &c->r2, d->insn, d->step, d->tb + i, d->clock);
	if (k == ROW_R2 && c->more)
		c->more->ok_gen = gen;
}

/* mat_put for the cells s of rw's line (c0) given one record d, a kind k at a time, run by
 * run of adjacent cells (a split's cells are one run: a tree level's interval): in each, a
 * cell's dropped reads (z) go just before its record is written, the cell and its thread
 * (tb + i) stepped along with the rest as loop invariants. The splits of a tree's partial
 * levels write a few dozen cells a round; bit by bit, the cell's index and place were a
 * third of each. */
static inline __attribute__((always_inline)) void
mat_fill_k(struct rrow *rw, const int k, struct cell *c0, uint32_t s, const struct rowd *d,
	   uint64_t gen)
{
	uint32_t zs = k != ROW_W ? rw->z & s : 0;
	rw->z &= ~zs;
	const struct dinsn *insn = d->insn;
	uint32_t tb = d->tb, clock = d->clock, step = d->step;
	while (s) {
		uint32_t a = (uint32_t)__builtin_ctz(s);
		uint32_t n = (uint32_t)__builtin_ctzll(~(uint64_t)(s >> a)); /* (the run's cells) */
		uint32_t z = zs >> a, tid = tb + a;
		for (struct cell *c = c0 + a, *e = c + n; c < e; c++, tid++, z >>= 1) {
			if (k == ROW_R && (z & 1))
				cell_drop_later_reads(c); /* (r: written next) */
			else if (k == ROW_R2 && (z & 1))
				cell_drop_reads(c);
			rec_put(k == ROW_W ? &c->w : k == ROW_R ? &c->r : &c->r2, insn, step, tid,
				clock);
			if (k == ROW_R2 && c->more)
				c->more->ok_gen = gen;
		}
		s &= s + (s & -s); /* (the run cleared: its carry runs past it) */
	}
}

static inline __attribute__((always_inline)) void
mat_fill(struct rrow *rw, int k, struct cell *c0, uint32_t s, const struct rowd *d, uint64_t gen)
{
	if (k == ROW_W)
		mat_fill_k(rw, ROW_W, c0, s, d, gen);
	else if (k == ROW_R)
		mat_fill_k(rw, ROW_R, c0, s, d, gen);
	else
		mat_fill_k(rw, ROW_R2, c0, s, d, gen);
}

/* Cells cm of line l (rw) given their row records (written into them, as the per-lane path
 * would have left them), and their late reads unless `late` (race_shared_word's: bulk_reads
 * takes them as they are); the line's records keep their other cells. */
static void flush_cells(struct rcta *rc, struct rrow *rw, uint64_t l, uint32_t cm, bool late)
{
	struct cell *c0 = line_cells(rc, l);
	for (uint32_t m = rw->z & cm; m; m &= m - 1) /* (first: the reads it dropped go) */
		mat_z(rw, c0 + __builtin_ctz(m), m & -m);
	if (!late && rw->bc && (cm >> (rw->bc - 1) & 1))
		late_write(rw, c0 + rw->bc - 1);
	for (int k = ROW_W; k <= ROW_R2; k++) {
		struct rowd *d = row_of(rw, k);
		mat_fill(rw, k, c0, d->mask & cm, d, rw->r2gen);
		d->mask &= ~cm;
	}
	if (!row_cells(rw)) {
		rw->on = false;
		rc->nrows--;
	}
}

void race_rows_flush(struct rcta *rc, uint64_t bytes, uint64_t g0, uint64_t g1)
{
	struct rrow *rows = race_rows(rc, bytes);
	uint64_t n = race_nlines(bytes);
	for (uint64_t l = g0 / LINE_CELLS; l <= g1 / LINE_CELLS && l < n; l++) {
		if (!rows[l].on)
			continue;
		uint64_t a = g0 > l * LINE_CELLS ? g0 - l * LINE_CELLS : 0;
		uint64_t e = g1 < l * LINE_CELLS + LINE_CELLS - 1 ? g1 - l * LINE_CELLS : 31;
		flush_cells(rc, &rows[l], l,
			    (e == 31 ? 0xffffffffu : (2u << e) - 1) & ~((1u << a) - 1), false);
	}
}

/* Lanes mask at off[l], `size` bytes each (aligned), about to go the per-lane way: the row
 * records of their cells written into the cells first, a line's at once for the lanes that
 * follow one another there (a row, a half warp's broadcast: one test, not one a lane). */
static void settle_lanes(struct rcta *rc, uint64_t bytes, uint32_t mask, const uint32_t *off,
			 uint32_t size)
{
	struct rrow *rows = race_rows(rc, bytes);
	uint64_t line = UINT64_MAX;
	uint32_t cm = 0;
	if (mask == 0xffffffffu && size == GRAN) {
		/* a whole warp of words on one line (a row, a broadcast, both halves of a warp
		 * on one): its line looked at once, its cells gathered only if it has rows */
		uint32_t apart = 0, l0 = off[0] / (GRAN * LINE_CELLS);
		bool one = lanes_at(off, off[0]) == 0xffffffffu; /* (a broadcast: one cell) */
#pragma GCC unroll 8
		for (uint32_t l = 0; !one && l < LANES; l++)
			apart |= off[l] / (GRAN * LINE_CELLS) ^ l0;
		if (!apart) {
			struct rrow *rw = &rows[l0];
			if (!rw->on)
				return;
			for (uint32_t l = 0; l < (one ? 1 : LANES); l++)
				cm |= 1u << (off[l] / GRAN % LINE_CELLS);
			if (row_cells(rw) & cm)
				flush_cells(rc, rw, l0, cm, false);
			return;
		}
	}
	bool on = false;
	for (uint32_t m = mask;; m &= m - 1) {
		uint32_t o = m ? off[__builtin_ctz(m)] : 0, e = o + size - 1; /* (one line: aligned) */
		uint64_t l = m ? o / (GRAN * LINE_CELLS) : UINT64_MAX;
		if (l != line) {
			struct rrow *rw = cm ? &rows[line] : NULL;
			if (rw && (row_cells(rw) & cm))
				flush_cells(rc, rw, line, cm, false);
			if (!m)
				return;
			line = l;
			on = rows[l].on; /* (a line without rows: its lanes pass) */
			cm = 0;
		}
		if (on)
			cm |= (2u << (e / GRAN % LINE_CELLS)) - (1u << (o / GRAN % LINE_CELLS));
	}
}

/* Cells s of rw's line (c0) take record d (row record k; gen: an r2's vector), leaving what
 * the per-lane path would: d becomes the row record where that holds no other cells or is
 * the same record; else the smaller of the two goes into the cells. */
/* Bits of x (no popcnt instruction in the baseline: no library call). */
static inline uint32_t bits_of(uint32_t x)
{
	x -= x >> 1 & 0x55555555u;
	x = (x & 0x33333333u) + (x >> 2 & 0x33333333u);
	return ((x + (x >> 4)) & 0x0f0f0f0fu) * 0x01010101u >> 24;
}

RACE_CLONES static __attribute__((noinline)) void row_take_slow(struct rcta *rc, struct rrow *rw, int k,
						    struct cell *c0, uint32_t s,
						    const struct rowd *d, uint64_t gen)
{
	struct rowd *h = row_of(rw, k);
	uint32_t other = h->mask & ~s;
	bool same = h->insn == d->insn && h->tb == d->tb && h->clock == d->clock &&
		    h->step == d->step && (k != ROW_R2 || rw->r2gen == gen);
	if (other && !same) {
		if (bits_of(s) <= bits_of(other)) {
			h->mask &= ~s;
			mat_fill(rw, k, c0, s, d, gen);
			return;
		}
		mat_fill(rw, k, c0, other, h, rw->r2gen);
	}
	uint32_t keep = same ? h->mask : 0;
	rowd_set(h, d, keep | s);
	if (k == ROW_R2)
		rw->r2gen = gen;
	if (!rw->on) {
		rw->on = true;
		rc->nrows++;
	}
}

static inline __attribute__((always_inline)) void row_take(struct rcta *rc, struct rrow *rw,
								  int k, struct cell *c0, uint32_t s,
								  const struct rowd *d, uint64_t gen)
{
	struct rowd *h = row_of(rw, k);
	if (!s)
		return;
	if (h->mask & ~s || !rw->on) { /* (another record's cells: which to keep) */
		row_take_slow(rc, rw, k, c0, s, d, gen);
		return;
	}
	rowd_set(h, d, s);
	if (k == ROW_R2)
		rw->r2gen = gen;
}

/* Whether record p (a cell's) is thread tid's own or ordered before q's access (or none). */
static inline bool rec_fine(const struct quick *q, const struct rec *p, uint32_t tid)
{
	return !p->clock || p->tid == tid || quick_ordered(q, p);
}

/* The cells of s (of d's) whose record of row d is thread tb + i's own or ordered before q's
 * access (quick_ordered; d's threads are of q's CTA). */
static inline __attribute__((always_inline)) uint32_t rowd_fine(const struct quick *q, const struct rowd *d, uint32_t s,
				 uint32_t tb)
{
	if (!s || d->tb == tb)
		return s;
	uint32_t k = d->tb - q->base, fine = 0, wk = (k + (uint32_t)__builtin_ctz(s)) & ~31u;
	if (q->whole && wk + LANES <= q->span) {
		/* d's threads are lanes of one warp: its 32 clocks all at or past d's epoch, or
		 * all before it, decide every cell at once */
		int vs = warp_vs(q->clk + wk, d->clock);
		if (vs)
			return vs > 0 ? s : 0;
	}
	for (uint32_t m = s; m; m &= m - 1) {
		uint32_t i = (uint32_t)__builtin_ctz(m), j = k + i;
		if (j < q->span && q->clk[j] >= d->clock)
			fine |= 1u << i;
	}
	return fine;
}

/* One line's part of a row: cells p of line l (rw, c0), cell i by thread tb + i. */
struct piece {
	struct rrow *rw;
	struct cell *c0;
	uint64_t l;
	uint32_t p, tb;
	bool w_old, r_old;          /* the line's eras (struct rcta)                           */
	uint32_t a, b;              /* a read's: cells whose read it takes; whose r2          */
};

/* Whether the cells' write records are each the thread's own or ordered (quick_word's first
 * test, for every cell of pc). */
static inline __attribute__((always_inline)) bool piece_w_fine(const struct quick *q, const struct piece *pc)
{
	const struct rrow *rw = pc->rw;
	uint32_t s = pc->p & rw->w.mask;
	if (rowd_fine(q, &rw->w, s, pc->tb) != s)
		return false;
	for (uint32_t m = pc->p & ~rw->w.mask; m; m &= m - 1) {
		uint32_t i = (uint32_t)__builtin_ctz(m);
		if (!rec_fine(q, &pc->c0[i].w, pc->tb + i))
			return false;
	}
	return true;
}

/* A write of pc's cells as quick_word (or old_seg, by the eras) takes it, decided: every
 * record is the thread's own or ordered before it. */
static inline __attribute__((always_inline)) bool piece_write_ok(const struct quick *q, const struct piece *pc)
{
	if (pc->w_old && pc->r_old)
		return true;
	const struct rrow *rw = pc->rw;
	if (late_in(rw, pc->p) || !piece_w_fine(q, pc)) /* (a list's late reads: not read here) */
		return false;
	for (int k = ROW_R; k <= ROW_R2; k++) {
		const struct rowd *d = k == ROW_R ? &rw->r : &rw->r2;
		uint32_t s = pc->p & d->mask;
		if (rowd_fine(q, d, s, pc->tb) != s)
			return false;
		for (uint32_t m = pc->p & ~d->mask & ~rw->z; m; m &= m - 1) {
			uint32_t i = (uint32_t)__builtin_ctz(m);
			const struct cell *c = &pc->c0[i];
			if (!rec_fine(q, k == ROW_R ? &c->r : &c->r2, pc->tb + i))
				return false;
		}
	}
	for (uint32_t m = pc->p & ~rw->z; m; m &= m - 1) {
		uint32_t i = (uint32_t)__builtin_ctz(m), tid = pc->tb + i;
		const struct readers *mo = pc->c0[i].more;
		for (uint32_t j = 0; mo && j < mo->n; j++)
			if (mo->e[j].tid != tid && !quick_ordered(q, &mo->e[j]))
				return false;
	}
	return true;
}

/* A read of pc's cells as word_read takes it (after quick_word's test of the write, unless
 * the eras say it is ordered), decided: pc->a, the cells whose one read it becomes; pc->b,
 * those whose second read (r2) it becomes. False: some cell goes another way. */
static inline __attribute__((always_inline)) bool piece_read_ok(const struct quick *q, struct piece *pc)
{
	const struct rrow *rw = pc->rw;
	if (!pc->w_old && !piece_w_fine(q, pc))
		return false;
	if (pc->r_old) {
		pc->a = pc->p;
		pc->b = 0;
		return true;
	}
	uint32_t rd = pc->p & rw->r.mask, fine = rowd_fine(q, &rw->r, rd, pc->tb);
	uint32_t a = fine | (pc->p & rw->z & ~rw->r.mask), b = rd & ~fine;
	for (uint32_t m = pc->p & ~rw->z & ~rw->r.mask; m; m &= m - 1) {
		uint32_t i = (uint32_t)__builtin_ctz(m);
		const struct rec *r = &pc->c0[i].r;
		if (rec_fine(q, r, pc->tb + i))
			a |= 1u << i;
		else if (r->tid - q->base >= q->span)
			return false;
		else
			b |= 1u << i;
	}
	if (b & rw->r2.mask)
		return false;
	for (uint32_t m = b & ~rw->z; m; m &= m - 1) { /* (a dropped r2 and list: empty) */
		const struct cell *c = &pc->c0[__builtin_ctz(m)];
		if (c->r2.clock || (c->more && c->more->n))
			return false;
	}
	pc->a = a;
	pc->b = b;
	return true;
}

#define ROW_PIECES 4u

/* Lanes lf.. of a run at cells g..g + len - 1 (one cell each, in a row; len <= LANES, so at
 * most two lines) added to pc's pieces line by line (thread tid0 + lane), with their cells;
 * false: more than ROW_PIECES, or a line without its page. */
static inline bool row_run(const struct rcta *rc, uint64_t nlines, struct piece *pc,
			   uint32_t *np, uint32_t tid0, uint32_t lf, uint64_t g, uint32_t len)
{
	const struct shadow *s = &rc->smem;
	uint64_t l = g / LINE_CELLS, last = g + len - 1, l1 = last / LINE_CELLS;
	uint32_t a = (uint32_t)(g % LINE_CELLS);
	if (*np + (l1 != l) >= ROW_PIECES || l1 >= nlines || last / PAGE_CELLS >= s->npages ||
	    !s->pages[g / PAGE_CELLS] || !s->pages[last / PAGE_CELLS])
		return false;
	struct piece *p = &pc[(*np)++];
	p->l = l;
	p->c0 = s->pages[g / PAGE_CELLS] + l * LINE_CELLS % PAGE_CELLS; /* (line_cells) */
	p->tb = tid0 + lf - a;
	if (l1 == l) {
		p->p = (len == LINE_CELLS ? 0xffffffffu : (1u << len) - 1) << a;
		return true;
	}
	p->p = 0xffffffffu << a; /* (a > 0) */
	struct piece *p2 = &pc[(*np)++];
	p2->l = l1;
	p2->c0 = s->pages[last / PAGE_CELLS] + l1 * LINE_CELLS % PAGE_CELLS;
	p2->tb = p->tb + LINE_CELLS;
	p2->p = (1u << (a + len - LINE_CELLS)) - 1;
	return true;
}

/* Whether no two of pieces pc[0..np) share a cell. */
static inline bool pieces_apart(const struct piece *pc, uint32_t np)
{
	for (uint32_t i = 0; i < np; i++)
		for (uint32_t j = 0; j < i; j++)
			if (pc[i].l == pc[j].l && (pc[i].p & pc[j].p))
				return false;
	return true;
}

/* Whether the lanes of mask of w all hold v (a partial warp's lanes alone: a CTA may have
 * fewer threads than its last warp has lanes). */
static inline bool lanes_hold(struct race *R, const struct warp *w, uint32_t mask,
			      const struct vc *v)
{
	if (mask == 0xffffffffu)
		return !lanes_differ(R, w, v);
	const struct rthread *t0 = thr(R, w, 0);
	if (!t0->lvc) /* (the warp holds every lane's) */
		return *wvc_of(R, w) == v;
	for (uint32_t m = mask; m; m &= m - 1)
		if (tvc(R, t0 + __builtin_ctz(m)) != v)
			return false;
	return true;
}

/* Pieces pc[0..np) of a plain access of whole words by lanes all of one vector and epoch
 * `clock`, decided against the row records and the cells (no change until every cell is
 * decided: the per-lane path's results, with no report) and recorded as one row record
 * per line; false: some cell the per-lane path must see, nothing changed. */
static inline __attribute__((always_inline)) bool row_commit(struct rcta *rc, struct rrow *rows, const struct quick *q,
		       struct piece *pc, uint32_t np, bool write, bool fresh, uint32_t clock)
{
	uint32_t era = rc->era;
	for (uint32_t j = 0; j < np; j++) {
		struct piece *p = &pc[j];
		p->rw = &rows[p->l];
		p->w_old = fresh && rc->lines[2 * p->l] < era;
		p->r_old = fresh && rc->lines[2 * p->l + 1] < era;
		if (!(write ? piece_write_ok(q, p) : piece_read_ok(q, p)))
			return false;
	}
	for (uint32_t j = 0; j < np; j++) {
		struct piece *p = &pc[j];
		struct rowd d = {q->insn, p->tb, clock, q->step, 0};
		rc->lines[2 * p->l + !write] = era;
		if (write) {
			row_take(rc, p->rw, ROW_W, p->c0, p->p, &d, 0);
			p->rw->r.mask &= ~p->p;
			p->rw->r2.mask &= ~p->p;
			p->rw->z |= p->p;
		} else {
			row_take(rc, p->rw, ROW_R, p->c0, p->a, &d, 0);
			row_take(rc, p->rw, ROW_R2, p->c0, p->b, &d, q->gen);
		}
	}
	return true;
}

/* The lanes l > 0 of a whole warp whose offset is not the word after lane l - 1's (bit l):
 * where its runs of consecutive words break. */
static inline uint32_t run_breaks(const uint32_t *off)
{
	uint32_t eq = 1;
#if defined(__SSE2__)
	const __m128i gran = _mm_set1_epi32((int)GRAN);
	for (int i = 0; i < 8; i++) { /* lanes 4i + 1..4i + 4, the last group 28..31 */
		int at = i < 7 ? 4 * i + 1 : 28;
		__m128i c = _mm_loadu_si128((const __m128i *)(off + at));
		__m128i p = _mm_loadu_si128((const __m128i *)(off + at - 1));
		__m128i e = _mm_cmpeq_epi32(c, _mm_add_epi32(p, gran));
		eq |= (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(e)) << at;
	}
#else
	for (uint32_t l = 1; l < LANES; l++)
		eq |= (uint32_t)(off[l] == off[l - 1] + GRAN) << l;
#endif
	return ~eq;
}

/* Whether the lanes of mask (k0: the warp's epochs) are at one epoch, that of lane l0. */
static inline bool one_epoch(const uint32_t *k0, uint32_t mask, uint32_t l0)
{
	uint32_t clock = k0[l0], ep = 0;
	if (mask == 0xffffffffu)
		return all32(k0, clock);
	for (uint32_t m = mask; m; m &= m - 1)
		ep |= k0[__builtin_ctz(m)] ^ clock;
	return !ep;
}

/* The row path: a plain access of whole words by the lanes of mask, all of one vector and one
 * epoch, at words in rows (a run of lanes on consecutive words: the whole warp, or the pieces
 * a wrap-around leaves), as row_commit takes it, a store's bytes then written; false: not
 * that case, or some cell that the per-lane path must see, nothing changed. */
RACE_CLONES static __attribute__((noinline)) bool row_path(struct acc_ctx *x, const struct quick *q, uint32_t mask,
		     const uint32_t *off, const uint64_t *v, bool write, bool fresh,
		     const uint32_t *k0, uint32_t tid0, const struct vc *vq)
{
	struct rcta *rc = x->rc;
	uint64_t bytes = x->w->cta->smem_size, nlines = race_nlines(bytes);
	uint32_t l0 = (uint32_t)__builtin_ctz(mask), o0 = off[l0], skew = 0;
	if (mask == 0xffffffffu) {
		skew = run_breaks(off);
	} else {
		for (uint32_t m = mask; m; m &= m - 1) {
			uint32_t l = (uint32_t)__builtin_ctz(m);
			skew |= off[l] - o0 - (l - l0) * GRAN;
		}
		skew |= (mask >> l0) & ((mask >> l0) + 1); /* (not a run of lanes) */
	}
	if (!one_epoch(k0, mask, l0) || !lanes_hold(x->R, x->w, mask, vq))
		return false;
	struct piece pc[ROW_PIECES];
	uint32_t np = 0;
	if (!skew) {
		if (!row_run(rc, nlines, pc, &np, tid0, l0, o0 / GRAN, bits_of(mask)))
			return false;
	} else {
		/* runs of lanes on consecutive words, then no two pieces on one cell */
		for (uint32_t l = 0; mask == 0xffffffffu && l < LANES;) { /* (skew: the breaks) */
			uint32_t rest = skew & ~((2u << l) - 1);
			uint32_t e = rest ? (uint32_t)__builtin_ctz(rest) : LANES;
			if (!row_run(rc, nlines, pc, &np, tid0, l, off[l] / GRAN, e - l))
				return false;
			l = e;
		}
		for (uint32_t m = mask == 0xffffffffu ? 0 : mask; m;) {
			uint32_t l = (uint32_t)__builtin_ctz(m), e = l + 1;
			if (e < LANES && (m >> e & 1) && off[e] == off[l])
				return false; /* two lanes on one cell (a broadcast): as below */
			while (e < LANES && (m >> e & 1) && off[e] == off[e - 1] + GRAN)
				e++;
			if (!row_run(rc, nlines, pc, &np, tid0, l, off[l] / GRAN, e - l))
				return false;
			m &= e == LANES ? 0 : ~0u << e;
		}
		if (!pieces_apart(pc, np))
			return false;
	}
	if (!row_commit(rc, race_rows(rc, bytes), q, pc, np, write, fresh, k0[l0]))
		return false;
	uint8_t *smem = x->w->cta->smem;
	for (uint32_t m = write ? mask : 0; m; m &= m - 1)
		store_low(smem + off[__builtin_ctz(m)], v[__builtin_ctz(m)], GRAN);
	return true;
}

/* Lanes [l, LANES) of a whole warp reading one word (thread tid0 + l at epoch k0[l], one
 * vector, tid0 a multiple of 32; the word's cell c, cell ci of line rw, its row records
 * settled but for its late reads) as word_read's last case takes them one by one, at once:
 * while the cell's write is ordered before them (w_ok) and its one read is concurrent and
 * not theirs, r2 is empty and the list of further reads is known free of entries ordered
 * before q's vector (ok_gen), each lane not yet in the list is appended (readers_put's
 * append, the list's room permitting). Lanes that fill one half of a full list at one epoch
 * are written late (struct readers' late, struct rrow's bc). Returns the first lane not taken. */
static inline uint32_t bulk_reads(struct rcta *rc, const struct quick *q, struct cell *c,
				  uint32_t tid0, const uint32_t *k0, uint32_t l, bool w_ok,
				  struct rrow *rw, uint32_t ci)
{
	const struct rec *r = &c->r;
	struct readers *m = c->more;
	if (!w_ok || !r->clock || r->tid - q->base >= q->span || quick_ordered(q, r) ||
	    c->r2.clock || !m || !m->n || m->ok_gen != q->gen || (tid0 & 31))
		return l;
	uint32_t e = r->tid - tid0 < LANES && r->tid - tid0 >= l ? r->tid - tid0 : LANES;
	if (m->cap < MAX_READERS && e - l > (uint32_t)(m->cap - m->n)) /* (add_read makes room) */
		e = l + (m->cap - m->n);
	uint64_t *word = &m->tids[tid0 >> 6 & 3];
	uint32_t sh = tid0 & 32;
	uint32_t want = (e == LANES ? 0xffffffffu : (1u << e) - 1) & ~((1u << l) - 1);
	if (l >= e || ((uint32_t)(*word >> sh) & want))
		return l;
	uint32_t n = m->n;
	if (n == MAX_READERS && l == 0 && e == LANES && all32(k0, k0[0])) {
		/* a whole half of a full list, one epoch: its first entry, the others late (a
		 * cell of the line named before written first: one is named at a time) */
		uint32_t h = tid0 / LANES % 2;
		if (rw->bc && !late_at(rw, ci))
			late_write(rw, c - ci + rw->bc - 1);
		rec_put(&m->e[LANES * h], q->insn, q->step, tid0, k0[0]);
		m->late |= (uint8_t)(1u << h);
		rw->bc = (uint8_t)(ci + 1);
		if (!rw->on) {
			rw->on = true;
			rc->nrows++;
		}
		*word |= (uint64_t)want << sh;
		return e;
	}
	if (late_at(rw, ci)) /* (slots of a late half, not all) */
		late_write(rw, c);
	/* appended while the list has room, then each in the slot its id picks (the count in
	 * a local: the records' stores cannot change it) */
	uint32_t a = e - l < MAX_READERS - n ? e - l : MAX_READERS - n;
	recs_put(&m->e[n], q->insn, q->step, tid0 + l, k0 + l, a);
	/* (the slots of lanes l + a..e - 1: side by side, tid0 being a multiple of 32) */
	_Static_assert(MAX_READERS % LANES == 0, "a warp's slots never wrap round the list");
	recs_put(&m->e[(tid0 + l + a) % MAX_READERS], q->insn, q->step, tid0 + l + a, k0 + l + a,
		 e - l - a);
	m->n = n + a;
	*word |= (uint64_t)want << sh;
	return e;
}

/* A whole warp's plain load of the word at o0 (its cell cb, page made, of line rw, whose row
 * records for it are settled but for its late reads), every lane holding q's vector (fresh:
 * the vector of the CTA's last full barrier): the lanes in turn on its one cell, no
 * per-lane lookups (s[0] after a reduction). Returns the lanes that go on. */
static inline __attribute__((always_inline)) uint32_t word_loads(struct acc_ctx *x,
								 const struct quick *q,
								 struct cell *cb, uint32_t o0,
								 bool fresh, const uint32_t *k0,
								 uint32_t tid0, struct rrow *rw)
{
	struct rcta *rc = x->rc;
	uint32_t g0 = o0 / GRAN, l = 0, ci = g0 % LINE_CELLS;
	bool w_old = fresh && rc->lines[g0 / LINE_CELLS * 2] < rc->era;
	lines_stamp(rc, g0, g0, true);
	while (l < LANES) {
		/* the lanes that join the list of further reads at once, then one in turn (in
		 * full if the quick path cannot; the list's late reads written first) */
		l = bulk_reads(rc, q, cb, tid0, k0, l,
			       w_old || !cb->w.clock || quick_ordered(q, &cb->w), rw, ci);
		if (l == LANES)
			break;
		if (late_at(rw, ci))
			late_write(rw, cb);
		if (!(w_old ? old_word(q, cb, tid0 + l, k0[l], false, false)
			    : quick_word(q, cb, tid0 + l, k0[l], false)) &&
		    !shared_lane_full(x, l, o0, GRAN, NULL))
			return (1u << l) - 1;
		l++;
	}
	return 0xffffffffu;
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
	const struct vc *vq = tvc(R, t0 + __builtin_ctz(mask));
	bool held = !t0->lvc; /* the warp holds every lane's vector, vq: no lane's is read */
	struct quick q = {cta << shift, 1u << shift, vc_clocks(vq, cta), vq->gen, L->ci,
			  (uint32_t)L->steps, R->wvc_ok};
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
	/* (a whole warp whose first two lanes share a word, a broadcast's: row_path refuses
	 * it, pieces_apart's answer, after its runs; not asked) */
	if (quick && size == GRAN && npages && (mask != 0xffffffffu || off[1] != off[0]) &&
	    row_path(x, &q, mask, off, v, write, fresh, k0, tid0, vq))
		return mask;
	if (rc->nrows)
		settle_lanes(rc, c->smem_size, mask, off, size);
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
			if (one)
				return word_loads(x, &q, one + g0 % PAGE_CELLS, o0, fresh, k0, tid0,
						  &race_rows(rc, c->smem_size)[g0 / LINE_CELLS]);
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
			if ((held || tvc(R, t) == vq) && page) {
				const uint32_t *ln = &lines[g / LINE_CELLS * 2];
				bool w_old = fresh && ln[0] < era, r_old = fresh && ln[1] < era;
				lines_stamp(rc, g, g, !write);
				struct cell *cl = page + g % PAGE_CELLS;
				if (w_old && (r_old || !write)
					    ? old_word(&q, cl, tid0 + l, k0[l], write, r_old)
					    : quick_word(&q, cl, tid0 + l, k0[l], write)) {
					uint32_t rest = m & (m - 1);
					if (write)
						store_low(c->smem + o, v[l], GRAN);
					else if (rest)
						/* the lanes after it on its word (a broadcast's) */
						m &= ~group_reads(&q, cl, tid0, k0, off, rest, o,
								  mask == 0xffffffffu, w_old,
								  held, R, t0, vq);
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
		if (quick && (held || tvc(R, t) == vq) && g / PAGE_CELLS < npages && pages[g / PAGE_CELLS]) {
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

uint32_t race_shared_word(struct launch *L, struct warp *w, uint32_t mask, uint32_t o,
			  uint32_t size)
{
	struct race *R = L->race;
	struct cta *c = w->cta;
	struct rcta *rc = &R->cta[c->slot];
	struct shadow *s = &rc->smem;
	if (L->stop || !mask || (!rc->lines && !race_lines(L, rc, c->smem_size)))
		return 0;
	size_t i0 = (size_t)c->slot * R->nt + w->id * LANES; /* (thr, clock_of) */
	const struct vc *vq = tvc(R, R->th + i0);
	uint32_t g0 = o / GRAN;
	/* shared_lanes_loop's case of a whole warp on one word, without its tests of the
	 * offsets (row_path not asked: two lanes on one word) */
	struct cell *one = mask == 0xffffffffu && size == GRAN && s->pages && s->npages &&
					   R->nt <= sizeof vc_no_clocks / sizeof *vc_no_clocks &&
					   !lanes_differ(R, w, vq)
				   ? s->pages[g0 / PAGE_CELLS]
				   : NULL;
	if (!one) {
		uint32_t off[LANES];
		for (uint32_t l = 0; l < LANES; l++)
			off[l] = o;
		return race_shared_lanes(L, w, mask, off, size, NULL);
	}
	uint64_t l0 = g0 / LINE_CELLS;
	struct rrow *rw = &race_rows(rc, c->smem_size)[l0];
	if (rc->nrows) { /* (settle_lanes for its one cell, its late reads kept: word_loads') */
		uint32_t cm = 1u << (g0 % LINE_CELLS);
		if (rw->on && ((rw->w.mask | rw->r.mask | rw->r2.mask | rw->z) & cm))
			flush_cells(rc, rw, l0, cm, true);
	}
	uint32_t cta = c->linear;
	struct quick q = {cta << R->shift, 1u << R->shift, vc_clocks(vq, cta), vq->gen, L->ci,
			  (uint32_t)L->steps, R->wvc_ok};
	struct acc_ctx x = {.L = L, .R = R, .s = s, .w = w, .rc = rc};
	return word_loads(&x, &q, one + g0 % PAGE_CELLS, o, !rc->foreign && vq->gen == rc->era_gen,
			  R->clk + i0, tid_of(R, w, 0), rw);
}

/* ---- the fresh path: a whole warp holding the vector of its CTA's last full barrier ---- */

/* Whether record r of a cell (by a thread of the CTA, base: its first thread's id, span:
 * its ids) is thread tid's own or ordered before an access under vb (the CTA's clocks of
 * the vector; rec_fine). */
static inline __attribute__((always_inline)) bool fresh_rec(const struct rec *r, uint32_t tid,
							    const uint32_t *vb, uint32_t base,
							    uint32_t span)
{
	uint32_t k = r->tid - base;
	return !r->clock || r->tid == tid || (k < span && vb[k] >= r->clock);
}

/* piece_read_ok for cells p of a line (rw, c0; cell i by thread tb + i) whose writes are of
 * eras before the CTA's (w_old) and whose reads are not (r_old false), the warp holding the
 * barrier's vector (vb: its clocks of the CTA's threads): a record of the CTA's threads is
 * ordered before the access exactly when it was made before that barrier, so a row record
 * (one warp at one epoch) is ordered for all its cells or for none, and one clock of it
 * tells which (rowd_fine's answer without its 32). *a, *b: as piece_read_ok's. */
static inline __attribute__((always_inline)) bool
fresh_read(const struct rrow *rw, const struct cell *c0, uint32_t p, uint32_t tb,
	   const uint32_t *vb, uint32_t base, uint32_t span, uint32_t *a, uint32_t *b)
{
	const struct rowd *r = &rw->r;
	uint32_t rd = p & r->mask, fine = rd;
	if (rd && r->tb != tb) {
		uint32_t k = r->tb - base + (uint32_t)__builtin_ctz(rd);
		if (k >= span)
			return false;
		fine = vb[k] >= r->clock ? rd : 0;
		RACE_VERIFY_FRESH(r, rd, fine, vb, base, span);
	}
	uint32_t ta = fine | (p & rw->z & ~r->mask), tbb = rd & ~fine;
	for (uint32_t m = p & ~rw->z & ~r->mask; m; m &= m - 1) {
		uint32_t i = (uint32_t)__builtin_ctz(m);
		const struct rec *cr = &c0[i].r;
		if (fresh_rec(cr, tb + i, vb, base, span))
			ta |= 1u << i;
		else if (cr->tid - base >= span)
			return false;
		else
			tbb |= 1u << i;
	}
	if (tbb & rw->r2.mask)
		return false;
	for (uint32_t m = tbb & ~rw->z; m; m &= m - 1) { /* (a dropped r2 and list: empty) */
		const struct cell *c = &c0[__builtin_ctz(m)];
		if (c->r2.clock || (c->more && c->more->n))
			return false;
	}
	*a = ta;
	*b = tbb;
	return true;
}

/* piece_write_ok for cells p of a line (rw, c0; cell i by thread tb + i) whose writes are of
 * eras before the CTA's and whose reads are not (a tree's store after its own loads of the
 * interval), the warp holding the barrier's vector (vb, base, span: fresh_read's): each read
 * record must be the cell's thread's own or ordered, a row record's one clock telling for
 * all its cells; every write is ordered (its era). False: the general path decides. */
static inline __attribute__((always_inline)) bool
fresh_write(const struct rrow *rw, const struct cell *c0, uint32_t p, uint32_t tb,
	    const uint32_t *vb, uint32_t base, uint32_t span)
{
	if (late_in(rw, p)) /* (a list's late reads: not read here) */
		return false;
	for (int k = ROW_R; k <= ROW_R2; k++) {
		const struct rowd *d = k == ROW_R ? &rw->r : &rw->r2;
		uint32_t s = p & d->mask;
		if (s && d->tb != tb) {
			uint32_t j = d->tb - base + (uint32_t)__builtin_ctz(s);
			if (j >= span || vb[j] < d->clock)
				return false;
			RACE_VERIFY_FRESH(d, s, s, vb, base, span);
		}
		for (uint32_t m = p & ~d->mask & ~rw->z; m; m &= m - 1) {
			uint32_t i = (uint32_t)__builtin_ctz(m);
			if (!fresh_rec(k == ROW_R ? &c0[i].r : &c0[i].r2, tb + i, vb, base, span))
				return false;
		}
	}
	for (uint32_t m = p & ~rw->z; m; m &= m - 1) { /* (the lists: piece_write_ok's test) */
		uint32_t i = (uint32_t)__builtin_ctz(m);
		const struct readers *mo = c0[i].more;
		for (uint32_t j = 0; mo && j < mo->n; j++) {
			uint32_t e = mo->e[j].tid - base;
			if (mo->e[j].tid != tb + i && !(e < span && vb[e] >= mo->e[j].clock))
				return false;
		}
	}
	return true;
}

/* Line l's cells c0, or where c0 is NULL line_cells' (a line with rows on): looked up only
 * where a cell is written (row2_fresh_ld's parts, rarely split). */
static inline __attribute__((always_inline)) struct cell *cells_or(const struct rcta *rc,
								    struct cell *c0, uint64_t l)
{
	return c0 ? c0 : line_cells(rc, l);
}

/* row_take for the fresh path, with its usual split inline: a record of one cell against
 * another of more, not the same, goes into its cell (row_take_slow's choice of the smaller,
 * without the call). c0, l: cells_or's. */
static inline __attribute__((always_inline)) void fresh_row_take(struct rcta *rc,
								  struct rrow *rw, int k,
								  struct cell *c0, uint64_t l,
								  uint32_t s, const struct rowd *d,
								  uint64_t gen)
{
	struct rowd *h = row_of(rw, k);
	uint32_t other = h->mask & ~s;
	if (!s)
		return;
	bool like = other && h->insn == d->insn && h->tb == d->tb && h->clock == d->clock;
	if (like && k != ROW_W && (k == ROW_R || rw->r2gen == gen)) {
		/* a read's record of the same instruction, threads and epoch made at another
		 * step (the neighbour warp's part of a stencil's line): one record for both, at
		 * d's step. A read record's step is only compared with a copy's issue
		 * (conflicts()) and by lockstep_pair (volatile records, never a row's); no copy
		 * is in flight at a row access (access_shared_quiet), so every copy that meets
		 * these cells later was issued after both steps, and either step answers alike. */
		rowd_set(h, d, other | s);
		return;
	}
	if (other && !(like && h->step == d->step)) {
		if (!(s & (s - 1))) { /* (one cell: it goes into its cell) */
			uint32_t i = (uint32_t)__builtin_ctz(s);
			h->mask = other;
			mat_put(rw, k, cells_or(rc, c0, l) + i, i, d, gen);
			return;
		}
		if (!(other & (other - 1))) { /* (the other record's one cell goes there) */
			uint32_t i = (uint32_t)__builtin_ctz(other);
			mat_put(rw, k, cells_or(rc, c0, l) + i, i, h, rw->r2gen);
			other = 0;
		}
	}
	if (other || !rw->on) {
		row_take_slow(rc, rw, k, cells_or(rc, c0, l), s, d, gen);
		return;
	}
	rowd_set(h, d, s);
	if (k == ROW_R2)
		rw->r2gen = gen;
}

/* row_commit's record of cells p of line l (rw, cells c0: cells_or's) of a fresh access,
 * decided (a, b: a read's, as piece_read_ok's). */
static inline __attribute__((always_inline)) void
fresh_take(struct rcta *rc, struct rrow *rw, uint32_t *ln, struct cell *c0, uint64_t l,
	   uint32_t p, uint32_t a, uint32_t b, const struct rowd *d, uint64_t gen, bool write)
{
	ln[!write] = rc->era;
	if (write) {
		fresh_row_take(rc, rw, ROW_W, c0, l, p, d, 0);
		rw->r.mask &= ~p;
		rw->r2.mask &= ~p;
		rw->z |= p;
	} else {
		fresh_row_take(rc, rw, ROW_R, c0, l, a, d, 0);
		fresh_row_take(rc, rw, ROW_R2, c0, l, b, d, gen);
	}
}

/* The cells of line l of shadow s (the line within it), or NULL: its page not made (the
 * general path, row_run, refuses it). */
static inline __attribute__((always_inline)) struct cell *fresh_cells(const struct shadow *s,
								       uint64_t l)
{
	uint64_t pg = l / (PAGE_CELLS / LINE_CELLS);
	struct cell *c = pg < s->npages ? s->pages[pg] : NULL;
	return c ? c + l % (PAGE_CELLS / LINE_CELLS) * LINE_CELLS : NULL;
}

/* race_shared_row for the low len lanes (all 32, or those a split leaves) of a whole warp
 * of one vector vq and one epoch (clock) when vq is the vector its CTA's last full barrier
 * left every thread (struct rcta's eras; no agent's or other CTA's record in the CTA's
 * shared memory) and the row is one or two line parts: decided as row_commit decides it,
 * with the eras and one clock per row record, and recorded as it records it. False: not
 * decided here, nothing changed. The eras decide most parts alone (a line written in this
 * era goes the general way; one not read in it takes the access whole), so the vector's
 * clocks are looked up only for a part read in this era. */
static inline __attribute__((always_inline)) bool
row_fresh(struct launch *L, struct rcta *rc, const struct cta *c, const struct vc *vq,
	  uint32_t clock, uint32_t tid0, uint32_t len, uint32_t first, uint32_t wrap,
	  uint32_t second, bool write)
{
	/* the line parts (row_run's): l0, p0, tb0, and l1, p1, tb1 unless p1 is 0 */
	uint32_t g = first / GRAN, a0 = g % LINE_CELLS, tb0 = tid0 - a0;
	uint64_t l0 = g / LINE_CELLS, l1 = l0 + 1; /* (64 bits: no narrow spill read wide) */
	uint32_t p0, p1 = 0, tb1 = tb0 + LINE_CELLS;
	if (a0 + wrap <= LINE_CELLS) {
		p0 = (wrap == LANES ? 0xffffffffu : (1u << wrap) - 1) << a0;
	} else {
		p0 = 0xffffffffu << a0;
		p1 = (1u << (a0 + wrap - LINE_CELLS)) - 1;
	}
	if (wrap < len) { /* (the second row: one line part, none before it past the first) */
		uint32_t g2 = second / GRAN, a2 = g2 % LINE_CELLS, n2 = len - wrap;
		if (p1 || a2 + n2 > LINE_CELLS)
			return false;
		l1 = g2 / LINE_CELLS;
		p1 = ((1u << n2) - 1) << a2;
		tb1 = tid0 + wrap - a2;
		if (l1 == l0 && (p0 & p1))
			return false; /* (pieces_apart: the general path refuses it) */
	}
	uint64_t nlines = race_nlines(c->smem_size);
	uint32_t era = rc->era;
	if (l0 >= nlines || (p1 && l1 >= nlines))
		return false;
	uint32_t *ln0 = &rc->lines[2 * l0], *ln1 = &rc->lines[2 * l1]; /* (both in range now) */
	if (ln0[0] >= era || (p1 && ln1[0] >= era))
		return false; /* (a write of this era: the general path) */
	struct rrow *rows = race_rows(rc, c->smem_size);
	/* (a line with rows on has its page: line_cells', without fresh_cells' tests) */
	struct cell *c0 = rows[l0].on ? line_cells(rc, l0) : fresh_cells(&rc->smem, l0);
	struct cell *c1 = p1 ? fresh_cells(&rc->smem, l1) : c0;
	if (!c0 || !c1)
		return false;
	uint32_t a0s = p0, b0s = 0, a1s = p1, b1s = 0;
	bool r0 = ln0[1] >= era, r1 = p1 && ln1[1] >= era; /* (read in this era) */
	if (r0 || r1) {
		uint32_t cta = c->linear, shift = L->race->shift, base = cta << shift;
		uint32_t span = 1u << shift;
		const uint32_t *vb = vq->n == 1 && vq->ch[0].cta == cta ? vq->ch[0].c
									 : vc_clocks(vq, cta);
		if (write ? (r0 && !fresh_write(&rows[l0], c0, p0, tb0, vb, base, span)) ||
				    (r1 && !fresh_write(&rows[l1], c1, p1, tb1, vb, base, span))
			  : (r0 && !fresh_read(&rows[l0], c0, p0, tb0, vb, base, span, &a0s,
					       &b0s)) ||
				    (r1 && !fresh_read(&rows[l1], c1, p1, tb1, vb, base, span, &a1s,
						       &b1s)))
			return false;
	}
	struct rowd d = {L->ci, tb0, clock, (uint32_t)L->steps, 0};
	fresh_take(rc, &rows[l0], ln0, c0, l0, p0, a0s, b0s, &d, vq->gen, write);
	if (p1) {
		d.tb = tb1;
		fresh_take(rc, &rows[l1], ln1, c1, l1, p1, a1s, b1s, &d, vq->gen, write);
	}
	return true;
}

/* race_shared_row in general: the row's pieces decided by row_commit. */
RACE_CLONES static __attribute__((noinline)) bool
row_general(struct launch *L, struct warp *w, uint32_t mask, uint32_t first, uint32_t wrap,
	    uint32_t second, bool write)
{
	struct race *R = L->race;
	struct cta *c = w->cta;
	struct rcta *rc = &R->cta[c->slot];
	if (L->stop || R->nt > sizeof vc_no_clocks / sizeof *vc_no_clocks ||
	    (!rc->lines && !race_lines(L, rc, c->smem_size)))
		return false;
	size_t i0 = (size_t)c->slot * R->nt + w->id * LANES; /* (thr, clock_of) */
	const uint32_t *k0 = R->clk + i0;
	const struct vc *vq = tvc(R, &R->th[i0]); /* (lane 0: mask is all lanes or the low ones) */
	if (!rc->smem.pages || !one_epoch(k0, mask, 0) || !lanes_hold(R, w, mask, vq))
		return false;
	uint32_t cta = c->linear, tid0 = tid_of(R, w, 0);
	struct quick q = {cta << R->shift, 1u << R->shift, vc_clocks(vq, cta), vq->gen, L->ci,
			  (uint32_t)L->steps, R->wvc_ok};
	struct piece pc[ROW_PIECES];
	uint32_t np = 0;
	uint64_t bytes = c->smem_size;
	uint32_t len = mask == 0xffffffffu ? LANES : (uint32_t)__builtin_ctz(~mask);
	uint64_t nlines = race_nlines(bytes);
	if (!row_run(rc, nlines, pc, &np, tid0, 0, first / GRAN, wrap))
		return false;
	if (wrap < len && (!row_run(rc, nlines, pc, &np, tid0, wrap, second / GRAN, len - wrap) ||
			   !pieces_apart(pc, np)))
		return false;
	return row_commit(rc, race_rows(rc, bytes), &q, pc, np, write,
			  !rc->foreign && vq->gen == rc->era_gen, k0[0]);
}

/* The fresh path's case (row_fresh): a whole warp whose lanes hold one vector (known: the
 * warp's race.wvc), the one its CTA's last full barrier left every thread, with no agent's
 * or other CTA's record in the CTA's shared memory, all at one epoch; the access by all its
 * lanes or by the low ones (a tree's partial levels). */
static inline __attribute__((always_inline)) bool
shared_row(struct launch *L, struct warp *w, uint32_t mask, uint32_t len, uint32_t first,
	   uint32_t wrap, uint32_t second, const bool write)
{
	struct race *R = L->race;
	const struct cta *c = w->cta;
	struct rcta *rc = &R->cta[c->slot];
	if (L->stop || !R->wvc_ok || !rc->lines || !rc->smem.pages || rc->foreign ||
	    R->nt > sizeof vc_no_clocks / sizeof *vc_no_clocks)
		return row_general(L, w, mask, first, wrap, second, write);
	const struct vc *vq = *wvc_of(R, w); /* (wvc_ok; non-NULL: every lane's) */
	const uint32_t *k0 = clock_of(R, thr(R, w, 0));
	RACE_VERIFY_HOLD(R, w, vq);
	if (vq && vq->gen == rc->era_gen && all32(k0, k0[0]) &&
	    row_fresh(L, rc, c, vq, k0[0], tid_of(R, w, 0), len, first, wrap, second, write))
		return true;
	return row_general(L, w, mask, first, wrap, second, write);
}

/* The lanes mask holds: all 32, or the low ones. */
static inline uint32_t mask_len(uint32_t mask)
{
	return mask == 0xffffffffu ? LANES : (uint32_t)__builtin_ctz(~mask);
}

/* race_shared_row's load and store, each its own function (one body for both spilled more
 * of the fresh path's values), out of line behind line_fresh. */
RACE_CLONES static __attribute__((noinline)) bool row_ld(struct launch *L, struct warp *w,
							  uint32_t mask, uint32_t first,
							  uint32_t wrap, uint32_t second)
{
	return shared_row(L, w, mask, mask_len(mask), first, wrap, second, false);
}

RACE_CLONES static __attribute__((noinline)) bool row_st(struct launch *L, struct warp *w,
							  uint32_t mask, uint32_t first,
							  uint32_t wrap, uint32_t second)
{
	return shared_row(L, w, mask, mask_len(mask), first, wrap, second, true);
}

/* race_shared_row_ld's and _st's way for the low k lanes (what they do there: row_ld and
 * row_st), their body called at once: a tree's partial levels, 15 accesses a round of
 * reduce_smem, each paid the layer's call and tests. */
RACE_CLONES bool race_shared_low_ld(struct launch *L, struct warp *w, uint32_t mask, uint32_t k,
				    uint32_t first)
{
	return shared_row(L, w, mask, k, first, k, 0, false);
}

RACE_CLONES bool race_shared_low_st(struct launch *L, struct warp *w, uint32_t mask, uint32_t k,
				    uint32_t first)
{
	return shared_row(L, w, mask, k, first, k, 0, true);
}

/* The fresh path's commonest case, before its general form (row_fresh) is set up: a whole
 * warp's row of 32 words that is line l (first / 128), one epoch and the vector of the CTA's
 * last full barrier (as race_shared_row's fresh case), on a line with row records neither
 * written nor read in this era (or, for a store, read in it by its own threads only). Every
 * record there is ordered before the access (the eras) or the accessing thread's own, the
 * access's cells are all of the line, so the line's record of its kind becomes the access
 * (fresh_row_take with no other cell) and a store drops the line's reads (z): what row_fresh
 * leaves. False: not that case, nothing changed. */
static inline __attribute__((always_inline)) bool line_fresh(struct launch *L, struct warp *w,
							     uint32_t first, bool write)
{
	struct race *R = L->race;
	const struct cta *c = w->cta;
	struct rcta *rc = &R->cta[c->slot];
	uint64_t l = first / (GRAN * LINE_CELLS);
	if (L->stop || !R->wvc_ok || !rc->lines || rc->foreign ||
	    R->nt > sizeof vc_no_clocks / sizeof *vc_no_clocks ||
	    l >= race_nlines(c->smem_size))
		return false;
	const struct vc *vq = *wvc_of(R, w); /* (wvc_ok; non-NULL: every lane's) */
	uint32_t *ln = &rc->lines[2 * l], era = rc->era;
	bool read_now = ln[1] >= era; /* (read in this era) */
	if (!vq || vq->gen != rc->era_gen || ln[0] >= era || (read_now && !write))
		return false;
	RACE_VERIFY_HOLD(R, w, vq);
	const uint32_t *k0 = clock_of(R, thr(R, w, 0));
	struct rrow *rw = &race_rows(rc, c->smem_size)[l];
	/* a store to a line read in this era by the same threads only (a tree's s[t] += ...:
	 * the line's read record theirs, whole, its cells' own reads dropped): what
	 * fresh_write decides without a clock */
	if (read_now && (rw->r.mask != 0xffffffffu || rw->r.tb != tid_of(R, w, 0) ||
			 rw->r2.mask || rw->z != 0xffffffffu))
		return false;
	if (!rw->on || !all32(k0, k0[0])) /* (rows on: the line's page is made, line_cells') */
		return false;
	struct rowd d = {L->ci, tid_of(R, w, 0), k0[0], (uint32_t)L->steps, 0};
	ln[!write] = era;
	if (!write) {
		rowd_set(&rw->r, &d, 0xffffffffu);
		return true;
	}
	rowd_set(&rw->w, &d, 0xffffffffu);
	rw->r.mask = 0;
	rw->r2.mask = 0;
	rw->z = 0xffffffffu;
	return true;
}

/* fresh_read's answer for cells p of a line (rw; cell i by thread tb + i) where it reads no
 * cell: each of them in a row record of the line or without reads (z), and none of those
 * it finds unordered (tbb) holding a cell's r2 (outside z). The vector's clock is looked
 * up (vq's of the CTA cta, base and span its threads) only for a read record of another
 * row. False: fresh_read would read a cell (or refuse): the general form decides. */
static inline __attribute__((always_inline)) bool
part_read(const struct rrow *rw, uint32_t p, uint32_t tb, const struct vc *vq, uint32_t cta,
	  uint32_t shift, uint32_t *a, uint32_t *b)
{
	const struct rowd *r = &rw->r;
	uint32_t rd = p & r->mask, fine = rd;
	if (p & ~rw->z & ~r->mask)
		return false;
	if (rd && r->tb != tb) {
		uint32_t base = cta << shift, span = 1u << shift;
		uint32_t k = r->tb - base + (uint32_t)__builtin_ctz(rd);
		if (k >= span)
			return false;
		const uint32_t *vb = vq->n == 1 && vq->ch[0].cta == cta ? vq->ch[0].c
									 : vc_clocks(vq, cta);
		fine = vb[k] >= r->clock ? rd : 0;
		RACE_VERIFY_FRESH(r, rd, fine, vb, base, span);
	}
	uint32_t tbb = rd & ~fine; /* (unordered reads: the part's r2) */
	if (tbb & (rw->r2.mask | ~rw->z))
		return false;
	*a = p & ~tbb; /* (fine, and the cells without reads) */
	*b = tbb;
	return true;
}

/* fresh_read for row2_fresh_ld's part on line l, where part_read did not decide it (a cell
 * of the part holds its own read record, or an unordered read meets one), out of line. */
static __attribute__((noinline)) bool cells_read(const struct rcta *rc, const struct rrow *rw,
						 uint64_t l, uint32_t p, uint32_t tb,
						 const struct vc *vq, uint32_t cta, uint32_t shift,
						 uint32_t *a, uint32_t *b)
{
	return fresh_read(rw, line_cells(rc, l), p, tb, vc_clocks(vq, cta), cta << shift,
			  1u << shift, a, b);
}

/* The fresh path's load of a whole warp's 32 words as two line parts: a row off the line
 * start (wrap 32: a stencil's t+1 and t-1, the end of line l0 from cell a0 and the start of
 * line l0 + 1), or a row that wraps around (lanes below wrap from first, the others from
 * second: a stencil's tile[(t+1)%n] at the tile's end) whose two runs each lie within a
 * line, the lines apart (two runs on one line may overlap: the general path's pieces_apart
 * decides those; a run over two lines makes three parts: row_fresh's). Each part decided as row_fresh decides it (read whole when the
 * line was not read in this era, else part_read: fresh_read where it reads no cell) and
 * recorded as it records it (fresh_take), part 0 first, without its general frame. The
 * conditions are row_fresh's and shared_row's (one epoch, the vector of the CTA's last full
 * barrier, no foreign record, neither line written in this era), with both lines' rows on
 * (so their cells are made: line_cells). False: not that case, nothing changed. */
static inline __attribute__((always_inline)) bool row2_fresh_ld(struct launch *L,
								 struct warp *w, uint32_t first,
								 uint32_t wrap, uint32_t second)
{
	struct race *R = L->race;
	const struct cta *c = w->cta;
	struct rcta *rc = &R->cta[c->slot];
	uint32_t g = first / GRAN, a0 = g % LINE_CELLS;
	uint64_t l0 = g / LINE_CELLS, l1 = l0 + 1;
	uint32_t p0 = 0xffffffffu << a0, p1 = ~p0, d1 = LINE_CELLS; /* (part 1's tb: tb0 + d1) */
	if (wrap < LANES) { /* (cell i of part 1 by lane wrap - a1 + i) */
		uint32_t g1 = second / GRAN, a1 = g1 % LINE_CELLS, n1 = LANES - wrap;
		l1 = g1 / LINE_CELLS;
		if (a0 + wrap > LINE_CELLS || a1 + n1 > LINE_CELLS || l1 == l0)
			return false;
		p0 = ((1u << wrap) - 1) << a0;
		p1 = ((1u << n1) - 1) << a1;
		d1 = a0 + wrap - a1;
	}
	if (L->stop || !R->wvc_ok || !rc->lines || rc->foreign ||
	    R->nt > sizeof vc_no_clocks / sizeof *vc_no_clocks ||
	    ((wrap < LANES && l0 >= race_nlines(c->smem_size)) || l1 >= race_nlines(c->smem_size)))
		return false;
	const struct vc *vq = *wvc_of(R, w); /* (wvc_ok; non-NULL: every lane's) */
	/* (line l1 at l1 - l0 from l0: row2_ld's 1 folds) */
	uint32_t *ln0 = &rc->lines[2 * l0], *ln1 = ln0 + 2 * (l1 - l0), era = rc->era;
	if (!vq || vq->gen != rc->era_gen || ln0[0] >= era || ln1[0] >= era)
		return false;
	struct rrow *rw0 = &race_rows(rc, c->smem_size)[l0], *rw1 = rw0 + (l1 - l0);
	const uint32_t *k0 = clock_of(R, thr(R, w, 0));
	if (!rw0->on || !rw1->on || !all32(k0, k0[0]))
		return false;
	RACE_VERIFY_HOLD(R, w, vq);
	uint32_t tb0 = tid_of(R, w, 0) - a0, tb1 = tb0 + d1;
	uint32_t a0s = p0, b0s = 0, a1s = p1, b1s = 0;
	if ((ln0[1] >= era && !part_read(rw0, p0, tb0, vq, c->linear, R->shift, &a0s, &b0s) &&
	     !cells_read(rc, rw0, l0, p0, tb0, vq, c->linear, R->shift, &a0s, &b0s)) ||
	    (ln1[1] >= era && !part_read(rw1, p1, tb1, vq, c->linear, R->shift, &a1s, &b1s) &&
	     !cells_read(rc, rw1, l1, p1, tb1, vq, c->linear, R->shift, &a1s, &b1s)))
		return false;
	struct rowd d = {L->ci, tb0, k0[0], (uint32_t)L->steps, 0};
	fresh_take(rc, rw0, ln0, NULL, l0, p0, a0s, b0s, &d, vq->gen, false);
	d.tb = tb1;
	fresh_take(rc, rw1, ln1, NULL, l1, p1, a1s, b1s, &d, vq->gen, false);
	return true;
}

/* A whole warp's row of 32 words off the line start: row2_fresh_ld, else row_ld. Out of
 * line (a tail call): inline, its frame was set up before race_shared_row_ld's first tests,
 * which cost every other row (reduce_smem's) ~20 instructions. */
RACE_CLONES static __attribute__((noinline)) bool row2_ld(struct launch *L, struct warp *w,
							   uint32_t first, uint32_t second)
{
	return row2_fresh_ld(L, w, first, LANES, second) ||
	       row_ld(L, w, 0xffffffffu, first, LANES, second);
}

/* A whole warp's (mask) row that wraps around (0 < wrap < 32): row2_fresh_ld, else row_ld
 * (row_ld's arguments: a tail call without moves). */
RACE_CLONES static __attribute__((noinline)) bool rowwrap_ld(struct launch *L,
							      struct warp *w, uint32_t mask,
							      uint32_t first, uint32_t wrap,
							      uint32_t second)
{
	return row2_fresh_ld(L, w, first, wrap, second) ||
	       row_ld(L, w, mask, first, wrap, second);
}

RACE_CLONES bool race_shared_row_ld(struct launch *L, struct warp *w, uint32_t mask,
				    uint32_t first, uint32_t wrap, uint32_t second)
{
	if (mask == 0xffffffffu && wrap == LANES) {
		if (first % (GRAN * LINE_CELLS))
			return row2_ld(L, w, first, second);
		if (line_fresh(L, w, first, false))
			return true;
	}
	if (mask == 0xffffffffu && wrap < LANES) /* (two rows: a row on the line start that
						      * line_fresh declined goes to row_ld) */
		return rowwrap_ld(L, w, mask, first, wrap, second);
	return row_ld(L, w, mask, first, wrap, second);
}

/* race_shared_row_ld's and _st's fresh cases alone, for a whole warp's row of 32 words at
 * first (line_fresh on a line start, a load's row2_fresh_ld off it), each its own function
 * so that neither pays for the other's frame: the segment code's call before its own move
 * of the bytes (smem.c's smem_race_calls). */
_Static_assert(RACE_LINE_BYTES == GRAN * LINE_CELLS, "race.h's line is the shadow's");

RACE_CLONES bool race_row_fresh_line_ld(struct launch *L, struct warp *w, uint32_t first)
{
	return line_fresh(L, w, first, false);
}

RACE_CLONES bool race_row_fresh_off_ld(struct launch *L, struct warp *w, uint32_t first)
{
	return row2_fresh_ld(L, w, first, LANES, 0);
}

/* A whole warp's row that wraps around (0 < wrap < 32: lanes below wrap from first, the
 * others from second), as rowwrap_ld's fresh case: the segment code's call (through smem.c's
 * ld_row4_wrap) where its row test found the lanes not in one row. */
RACE_CLONES bool race_row_fresh_wrap_ld(struct launch *L, struct warp *w, uint32_t first,
					uint32_t wrap, uint32_t second)
{
	return row2_fresh_ld(L, w, first, wrap, second);
}

RACE_CLONES bool race_row_fresh_line_st(struct launch *L, struct warp *w, uint32_t first)
{
	return line_fresh(L, w, first, true);
}

RACE_CLONES bool race_shared_row_st(struct launch *L, struct warp *w, uint32_t mask,
				    uint32_t first, uint32_t wrap, uint32_t second)
{
	if (mask == 0xffffffffu && wrap == LANES && !(first % (GRAN * LINE_CELLS)) &&
	    line_fresh(L, w, first, true))
		return true;
	return row_st(L, w, mask, first, wrap, second);
}
