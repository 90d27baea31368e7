/*
 * race_copy.c - asynchronous copies as agents of their issuing thread: issue, accesses
 * made while in flight, and the landing, checked cell by cell against what the thread
 * had acquired at the issue.
 */
#include "race_priv.h"
#include "race_land.h"

#include <stdlib.h>
#include <string.h>

#include "report/gather.h"
#include "report/rules.h"
#include "report/srcloc.h"

/* ---- asynchronous copies ------------------------------------------------------------- */

bool race_after_issue(struct launch *L, struct warp *w, uint32_t lane,
		      const struct race_copy *rc)
{
	struct race *R = L->race;
	if (!R || !rc->clock || !w)
		return true;
	return tid_of(R, w, lane) == rc->tid ||
	       vc_get(R, tvc(R, thr(R, w, lane)), rc->tid) >= rc->tclock;
}

void race_copy_in_flight(struct launch *L, uint32_t lane, const struct race_copy *rc,
			 const struct dinsn *copy, const struct access *a, uint32_t size,
			 bool write, bool source)
{
	struct race *R = L->race;
	struct warp *w = L->cw;
	if (!race_first_pair(R, copy, L->ci))
		return;
	if (!race_shard_report_begin(L, R, copy, L->ci))
		return;
	uint32_t tid = tid_of(R, w, lane);
	struct strbuf msg = {0}, who = {0};
	race_describe_tid(L, rc->agent, copy, tid, &who);
	sb_printf(&msg, "data race on ");
	race_describe_place(L, w, a, size, &msg);
	sb_printf(&msg, ": this %s by CTA (%u,%u,%u) thread %u is not ordered with the %s by %s, "
		  "in flight", write ? "write" : "read", w->cta->ctaid[0], w->cta->ctaid[1],
		  w->cta->ctaid[2], local_of(R, tid), source ? "read" : "write", who.s);
	rule_break_notes(L, RULE_DATA_RACE, 1u << lane,
			 "nothing orders the copy's issue before this access (no barrier, wait or "
			 "release/acquire pair from the issuing thread), so the copy may land "
			 "before, during or after it", msg.s);
	sb_free(&msg);
	msg = (struct strbuf){0};
	sb_printf(&msg, "the %s by %s, issued here", source ? "read" : "write", who.s);
	gather_flush(L); /* the note follows its report */
	if (copy->ir)
		srcloc_emit(L->diag, DIAG_NOTE, L->file, L->P->m, copy->ir,
			    srcloc_func_of(L->P, copy), NULL, msg.s);
	race_shard_report_end(L, R);
	sb_free(&msg);
	sb_free(&who);
}

void race_copy_issue(struct launch *L, struct warp *w, uint32_t lane, enum race_agent kind,
		     struct race_copy *rc)
{
	struct race *R = L->race;
	memset(rc, 0, sizeof *rc);
	if (!R || !R->agents)
		return;
	struct rthread *t = thr(R, w, lane);
	uint32_t tid = tid_of(R, w, lane);
	rc->vc = vc_ref(tvc(R, t));
	rc->tid = tid;
	rc->tclock = (*clock_of(R, t))++; /* its later accesses are not before the copy */
	rc->seen_cp = t->seen_cp;
	rc->seen_bulk = t->seen_bulk;
	rc->agent = agent_of(R, tid, kind);
	rc->clock = kind == RA_CP     ? w->cp_open[lane] + 1
		    : kind == RA_BULK ? w->bulk_open[lane] + 1
				      : ++cold_of(R, t)->mbar_clock;
	rc->issued = (uint32_t)L->steps;
}

void race_copy_drop(struct launch *L, struct race_copy *rc)
{
	if (rc->vc && !--rc->vc->refs)
		vc_free(L->race, L->mem, rc->vc);
	rc->vc = NULL;
}


/* check_range for the copy's access (x->copy, no store value) of the `size` bytes at
 * offset off of shadow s (`bytes` long; a: the access, for a report), through q and memo:
 * the cells of each page side by side. */
static inline __attribute__((always_inline)) bool
copy_cells_in(struct acc_ctx *x, struct hbq *q, struct copy_memo *memo, struct shadow *s,
	      uint64_t bytes, uint64_t off, uint32_t size, enum race_kind kind, struct rec *me,
	      const struct access *a)
{
	uint64_t end = off + size, g = off / GRAN, gend = (end + GRAN - 1) / GRAN;
	bool w = kind != RACE_READ; /* a read checks the write, and leaves it */
	x->s = s;
	x->gread = kind == RACE_READ && a->space == MS_GLOBAL;
	if (a->space != MS_GLOBAL) { /* (an agent's records: no barrier of the CTA orders them) */
		x->R->cta[a->cta->slot].foreign = true;
		if (gend > g)
			rows_settle(&x->R->cta[a->cta->slot], a->cta->smem_size, g, gend - 1);
	}
	while (g < gend) {
		struct cell *c = cell_at(x->L, s, bytes, g);
		if (!c)
			return false;
		uint64_t stop = (g / PAGE_CELLS + 1) * PAGE_CELLS;
		for (stop = stop < gend ? stop : gend; g < stop; g++, c++) {
			if (glist_of(c) && !race_widen(x, c)) /* (what the code below reads) */
				return false;
			me->mask = g * GRAN >= off && g * GRAN + GRAN <= end ? 0xf
									      : gran_mask(g, off, end);
			bool fine = w || rec_same(&c->w, &memo->last_w);
			if (!fine && !hbq_may_conflict(q, &c->w, me->mask)) {
				fine = true;
				if (me->mask == 0xf)
					memo->last_w = c->w;
			}
			if (memo->valid && memo->mask == me->mask && fine &&
			    state_same(c, &memo->in, memo->what) &&
			    state_put(c, &memo->out, memo->what))
				continue;
			memo->valid = false;
			bool keep = state_get(c, &memo->in), list = true;
			if (copy_cell(x, q, c, me, kind, &list)) {
				memo->valid = keep && !x->L->stop && state_get(c, &memo->out);
				memo->mask = me->mask;
				memo->what = w ? ST_ALL : list ? ST_LIST : ST_R;
				continue;
			}
			const struct rec *hit = NULL;
			uint64_t lo = off > g * GRAN ? off : g * GRAN;
			uint32_t n = (uint32_t)__builtin_popcount(me->mask);
			if (!check_cell(x, c, me, kind, NULL, a->p + (lo - off), n, &hit)) {
				race_report(x, a, size, kind, hit, hit == &c->w, false);
				return false;
			}
		}
	}
	return true;
}

static __attribute__((noinline)) bool copy_cells(struct acc_ctx *x, struct hbq *q,
						 struct copy_memo *memo, struct shadow *s,
						 uint64_t bytes, uint64_t off, uint32_t size,
						 enum race_kind kind, struct rec *me,
						 const struct access *a)
{
	return copy_cells_in(x, q, memo, s, bytes, off, size, kind, me, a);
}

void race_copy_access(struct launch *L, const struct race_copy *rc, const struct access *a,
		      uint32_t size, enum race_kind kind)
{
	struct race *R = L->race;
	if (!R || !rc->vc || !size || L->stop || !L->cw || !race_tracked(a->space))
		return;
	uint8_t flags = RF_ASYNC;
	if (kind == RACE_RMW) /* red.async, bulk reductions: atomic per element */
		flags |= RF_STRONG | RF_RMW | (uint8_t)(SC_GPU << 4);
	if (R->shard && a->space == MS_GLOBAL) {
		race_defer_copy(L, rc, a, size, kind, flags);
		return;
	}
	struct rthread t;
	struct acc_ctx x;
	struct hbq q;
	uint64_t off, bytes;
	copy_ctx(L, rc, &t, flags, &x, &q);
	struct rec me = {L->ci, rc->agent, rc->clock, (uint32_t)L->steps, 0, flags};
	struct shadow *s = race_shadow_of(L, a, &off, &bytes);
	struct copy_memo memo;
	memo_init(&memo);
	if (s)
		copy_cells(&x, &q, &memo, s, bytes, off, size, kind, &me, a);
}

void race_copy_reads(struct launch *L, const struct race_copy *rc, struct cta *c,
		     const uint32_t *off, uint32_t n, uint32_t size)
{
	struct race *R = L->race;
	if (!R || !rc->vc || !size || L->stop || !L->cw || (R->wg.open && R->wg.all))
		return; /* (the last: read with the other parts of its warpgroup) */
	struct rthread t;
	struct acc_ctx x;
	struct hbq q;
	copy_ctx(L, rc, &t, RF_ASYNC, &x, &q);
	struct rec me = {L->ci, rc->agent, rc->clock, (uint32_t)L->steps, 0, RF_ASYNC};
	struct shadow *s = &R->cta[c->slot].smem;
	struct copy_memo memo;
	memo_init(&memo);
	for (uint32_t i = 0; i < n && !L->stop; i++) {
		if (R->wg.open && size == 16 && race_wg_read_done(R, off[i]))
			continue; /* (read with the other parts of its warpgroup) */
		struct access a = {.p = c->smem + off[i], .cta = c, .off = off[i],
				   .space = MS_SHARED_CTA};
		copy_cells_in(&x, &q, &memo, s, c->smem_size, off[i], size, RACE_READ, &me, &a);
	}
}

bool race_copy_land(struct acc_ctx *x, const struct rthread *t, struct shadow *s,
		    uint64_t bytes, uint64_t off, uint32_t size, enum race_kind kind,
		    struct rec *me, const struct access *a)
{
	struct hbq q;
	struct copy_memo memo;
	hbq_init(x->R, t, x->tid, x->owner, &q);
	memo_init(&memo);
	return copy_cells(x, &q, &memo, s, bytes, off, size, kind, me, a);
}
