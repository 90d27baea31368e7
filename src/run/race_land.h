/*
 * race_land.h - a copy's landing, cell by cell (race_copy.c, race_wgreads.c): the issuing
 * thread's clocks looked up once (struct hbq), the cell decided as check_cell would when no
 * record may conflict, and the last cell decided in full remembered (struct copy_memo).
 * Only the data-race detector's landing code includes it.
 */
#ifndef PTXI_RACE_LAND_H
#define PTXI_RACE_LAND_H

#include "race_priv.h"

#include <string.h>

/* ---- a copy's landing, cell by cell with its clocks looked up once --------------------
 * A landing checks and records many cells (a tensor box, a wgmma's operands) under one
 * vector, the issuing thread's at the issue, which is shared and so never changes (vectors
 * are copy on write). happens_before looks the vector up afresh for every record it meets;
 * here each CTA's clocks are looked up once (struct hbq), so deciding a record is a compare.
 * copy_cell decides a cell as check_cell would when no record may conflict, and records
 * the access the same way; when one may, it changes nothing and check_cell decides (and
 * reports). */

struct hbq {
	const struct race *R;
	const struct vc *vc;        /* the issuing thread's vector at the issue               */
	uint32_t tid, owner;        /* the copy's agent and its thread                        */
	uint32_t cp, bulk;          /* the thread's cp.async and bulk-group agents            */
	uint32_t seen_cp, seen_bulk;/* their clocks its wait_groups had acquired              */
	uint32_t shift, local;      /* thread ids: CTA << shift | local                       */
	uint32_t key[4];            /* CTA number + 1 of each slot's clocks (0: none yet)     */
	const uint32_t *clk[4];     /* the vector's clocks of that CTA's threads             */
	bool direct;                /* CTAs too large for vc_no_clocks: vc_get every time       */
};

/* The vector's clock of thread tid, its CTA's chunk looked up once. */
static inline __attribute__((always_inline)) uint32_t hbq_clock(struct hbq *q, uint32_t tid)
{
	uint32_t cta = tid >> q->shift, s = cta & 3;
	if (__builtin_expect(q->direct, 0))
		return vc_get(q->R, q->vc, tid);
	if (q->key[s] != cta + 1) {
		q->key[s] = cta + 1;
		q->clk[s] = vc_clocks(q->vc, cta);
	}
	return q->clk[s][tid & q->local];
}

/* happens_before(R, t, tid, owner, p) of the copy, through q. */
static inline __attribute__((always_inline)) bool hbq_before(struct hbq *q,
							     const struct rec *p)
{
	if (p->tid == q->tid || p->tid == q->owner || hbq_clock(q, p->tid) >= p->clock)
		return true;
	if (!(p->flags & RF_ASYNC))
		return false;
	if (p->tid == q->cp)
		return q->seen_cp >= p->clock;
	return p->tid == q->bulk && q->seen_bulk >= p->clock;
}

/* Whether p may conflict with the copy's access of `mask` (conflicts() may still say no:
 * strength, or made while the copy was in flight). */
static inline __attribute__((always_inline)) bool hbq_may_conflict(struct hbq *q,
								   const struct rec *p,
								   uint8_t mask)
{
	return p->clock && (p->mask & mask) && p->tid != q->tid && !hbq_before(q, p);
}

/* add_read for the copy's read (a copy takes no fast path there), through q. Returns
 * whether it went on to the list: else only the cell's one read, and what it found there
 * (the read and the mask), decided what it did. */
static inline __attribute__((always_inline)) bool
copy_add_read(const struct acc_ctx *x, struct hbq *q, struct cell *c, const struct rec *me)
{
	struct rec *r = &c->r;
	uint32_t tid = q->tid;
	if (x->gread) {
		if (!r->clock || r->tid == tid || (r->flags & RF_ASYNC) || hbq_before(q, r))
			take_rec(r, me, tid);
		return false;
	}
	if (!r->clock || r->tid == tid || (!(r->mask & ~me->mask) && hbq_before(q, r))) {
		take_rec(r, me, tid);
		return false;
	}
	struct readers *m = c->more;
	if ((!m || (m->n == m->cap && m->cap < MAX_READERS)) && !(m = race_readers_room(x, c)))
		return true;
	uint32_t k = 0, n = m->n;
	bool placed = false, dropped = false;
	for (uint32_t i = 0; i < n; i++) {
		struct rec *e = &m->e[i];
		if (e->tid == tid) {
			uint8_t keep = rec_keep(e, me, tid);
			*e = *me;
			e->mask |= keep;
			placed = true;
		} else if (!(e->mask & ~me->mask) && hbq_before(q, e)) {
			dropped = true;
			continue; /* covered by this read */
		}
		if (k != i)
			m->e[k] = *e;
		k++;
	}
	if (dropped) { /* the kept entries' threads */
		memset(m->tids, 0, sizeof m->tids);
		for (uint32_t i = 0; i < k; i++)
			m->tids[m->e[i].tid >> 6 & 3] |= 1ull << (m->e[i].tid & 63);
	}
	if (!placed)
		m->e[k < MAX_READERS ? k++ : tid % MAX_READERS] = *me;
	m->n = k;
	m->tids[tid >> 6 & 3] |= 1ull << (tid & 63);
	m->ok_gen = 0; /* (add_read's `ok` starts false for a copy) */
	return true;
}

/* check_cell for the copy's access `me` when no record of c may conflict with it (true:
 * checked and recorded; *list: a read went on to the list); false: c untouched,
 * check_cell decides. */
static inline __attribute__((always_inline)) bool
copy_cell(const struct acc_ctx *x, struct hbq *q, struct cell *c, const struct rec *me,
	  enum race_kind kind, bool *list)
{
	if (hbq_may_conflict(q, &c->w, me->mask))
		return false;
	if (kind == RACE_READ) {
		*list = copy_add_read(x, q, c, me);
		return true;
	}
	if (hbq_may_conflict(q, &c->r, me->mask))
		return false;
	for (uint32_t i = 0; c->more && i < c->more->n; i++)
		if (hbq_may_conflict(q, &c->more->e[i], me->mask))
			return false;
	take_rec(&c->w, me, me->tid);
	clear_reads(c, me->mask);
	return true;
}

/* The last cell a landing decided in full, before and after: copy_cell is a function of
 * what it reads of the cell (its write, when it writes; its read; its list's entries,
 * threads and ok_gen; whether it has a list), the access's mask and the landing's context,
 * so a cell whose state agrees in all that ends in the same state. What it reads: a write
 * reads it all (ST_ALL); a read that only took or left the cell's one read read just that
 * (ST_R: copy_add_read's first cases; the write is checked apart, and left); one that went
 * on to the list read the read and the list but not ok_gen, which it sets (ST_LIST). The
 * cells of a box or of a wgmma's operand were mostly made alike (by the same accesses), so
 * most take the recorded state as it is, compared and copied. Lists longer than
 * MEMO_READERS are not kept; a cell whose list lacks room for the state after is decided
 * in full. */
enum { MEMO_READERS = 8 };
enum { ST_R, ST_LIST, ST_ALL };

struct cell_state {
	struct rec w, r;
	bool more;                  /* it has a list (perhaps empty)                          */
	uint32_t n;
	uint64_t ok_gen, tids[4];
	struct rec e[MEMO_READERS];
};

struct copy_memo {
	bool valid;
	uint8_t mask, what;         /* the access's mask; ST_*                                */
	struct rec last_w;          /* the last write a read of all 4 bytes found no conflict
				     * with (then none for any mask): no need to ask again    */
	struct cell_state in, out;
};

static inline void memo_init(struct copy_memo *memo)
{
	memo->valid = false;
	memset(&memo->last_w, 0, sizeof memo->last_w); /* (clock 0: no write) */
}

/* The difference of the 8-byte words at a and b (0: equal). */
static inline __attribute__((always_inline)) uint64_t word_diff(const void *a, const void *b)
{
	uint64_t x, y;
	memcpy(&x, a, 8);
	memcpy(&y, b, 8);
	return x ^ y;
}

_Static_assert(sizeof(struct rec) == 24, "a rec is three words");

/* Whether two records are the same (their padding too: at worst a miss). */
static inline __attribute__((always_inline)) bool rec_same(const struct rec *a,
							   const struct rec *b)
{
	const uint8_t *x = (const uint8_t *)a, *y = (const uint8_t *)b;
	return !(word_diff(x, y) | word_diff(x + 8, y + 8) | word_diff(x + 16, y + 16));
}

/* c's state into st; false: its list is too long to keep. */
static inline bool state_get(const struct cell *c, struct cell_state *st)
{
	const struct readers *m = c->more;
	if (m && m->n > MEMO_READERS)
		return false;
	st->w = c->w;
	st->r = c->r;
	st->more = m != NULL;
	st->n = m ? m->n : 0;
	if (m) {
		st->ok_gen = m->ok_gen;
		memcpy(st->tids, m->tids, sizeof st->tids);
		memcpy(st->e, m->e, m->n * sizeof *m->e);
	}
	return true;
}

/* Whether c agrees with st in what `what` (ST_*) compares. */
static inline __attribute__((always_inline)) bool state_same(const struct cell *c,
							     const struct cell_state *st,
							     unsigned what)
{
	if (!rec_same(&c->r, &st->r))
		return false;
	if (what == ST_R)
		return true;
	const struct readers *m = c->more;
	if ((m != NULL) != st->more || (what == ST_ALL && !rec_same(&c->w, &st->w)))
		return false;
	if (!m)
		return true;
	if (m->n != st->n || (what == ST_ALL && m->ok_gen != st->ok_gen) ||
	    ((m->tids[0] ^ st->tids[0]) | (m->tids[1] ^ st->tids[1]) |
	     (m->tids[2] ^ st->tids[2]) | (m->tids[3] ^ st->tids[3])))
		return false;
	uint64_t d = 0;
	for (uint32_t i = 0; i < m->n; i++)
		d |= !rec_same(&m->e[i], &st->e[i]);
	return !d;
}

/* n <= MEMO_READERS records from src to dst, each length a copy of known size (no call). */
static inline __attribute__((always_inline)) void recs_copy(struct rec *dst,
							    const struct rec *src, uint32_t n)
{
	switch (n) {
#define RECS_COPY(k)                                                                    \
	case k:                                                                          \
		memcpy(dst, src, k * sizeof *src);                                         \
		break;
		RECS_COPY(1) RECS_COPY(2) RECS_COPY(3) RECS_COPY(4)
		RECS_COPY(5) RECS_COPY(6) RECS_COPY(7) RECS_COPY(8)
#undef RECS_COPY
	default:
		break;
	}
}

/* Put into c the parts of state st that `what` changes, when its list has room (it has one
 * when st has, with ST_LIST or ST_ALL: state_same said so, as the state before had one;
 * lists are never taken away); false: not put. */
static inline __attribute__((always_inline)) bool state_put(struct cell *c,
							    const struct cell_state *st,
							    unsigned what)
{
	struct readers *m = c->more;
	if (what != ST_R && ((st->more && !m) || (m && m->cap < st->n)))
		return false;
	c->r = st->r;
	if (what == ST_ALL)
		c->w = st->w;
	if (what != ST_R && m) {
		m->n = st->n;
		m->from = NO_INDEX; /* (readers_find's shortcut: entries moved) */
		m->ok_gen = st->ok_gen;
		memcpy(m->tids, st->tids, sizeof m->tids);
		recs_copy(m->e, st->e, st->n);
	}
	return true;
}

/* The mask of granule g's bytes within [off, end). */
static inline uint8_t gran_mask(uint64_t g, uint64_t off, uint64_t end)
{
	uint64_t lo = off > g * GRAN ? off : g * GRAN;
	uint64_t hi = end < g * GRAN + GRAN ? end : g * GRAN + GRAN;
	return (uint8_t)(((1u << (hi - lo)) - 1) << (lo - g * GRAN));
}

/* q for agent tid of thread `owner`, whose state at the issue was t. */
static inline void hbq_init(const struct race *R, const struct rthread *t, uint32_t tid,
		     uint32_t owner, struct hbq *q)
{
	*q = (struct hbq){.R = R, .vc = tvc(R, t), .tid = tid, .owner = owner,
			  .cp = agent_of(R, owner, RA_CP), .bulk = agent_of(R, owner, RA_BULK),
			  .seen_cp = t->seen_cp, .seen_bulk = t->seen_bulk, .shift = R->shift,
			  .local = (1u << R->shift) - 1,
			  .direct = R->nt > sizeof vc_no_clocks / sizeof *vc_no_clocks};
}

/* The context of copy rc's landing (t: its issuing thread's state at the issue). */
static inline void copy_ctx(struct launch *L, const struct race_copy *rc, struct rthread *t,
		     uint8_t flags, struct acc_ctx *x, struct hbq *q)
{
	struct race *R = L->race;
	*t = (struct rthread){.lvc = rc->vc, .seen_cp = rc->seen_cp, .seen_bulk = rc->seen_bulk};
	*x = (struct acc_ctx){.L = L, .R = R, .t = t, .w = L->cw,
			      .lane = (uint32_t)__builtin_ctz(L->cmask), .tid = rc->agent,
			      .owner = rc->tid, .flags = flags, .copy = true,
			      .skip_agents = rc->raced, .issued = rc->issued};
	hbq_init(R, t, rc->agent, rc->tid, q);
}

#endif
