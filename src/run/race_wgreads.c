/*
 * race_wgreads.c - the shared-operand reads of a warpgroup's wgmma parts that complete
 * together, each cell read once for all the parts that read it, where that reports nothing;
 * race_copy_reads reads the rest one part after another, as before.
 */
#include "race_priv.h"
#include "race_land.h"

#include <stdlib.h>

#include "run/launch.h"

/* Why it is exact. The parts complete back to back (exec_wgmma.c's complete_group), each
 * part's pieces read in order (race_copy_reads), then its async copies checked and its block
 * computed. A read of a cell is judged against the cell's write alone (copy_cell), which no
 * read changes; so whether part j's read of a cell may conflict does not depend on the other
 * parts' reads. Reading the cells piece by piece, all the parts that read a piece in their
 * order, ends in the states the parts' reads one after another leave, as long as no read of
 * a piece conflicts (then nothing reports, and nothing else reads the cells in between). A
 * piece whose write may conflict with one of its parts' reads stops the pass before it is
 * touched: the parts then read what is left in the old order, reporting as before, each
 * report after the same reports it followed (copies_check's too). Out of --max-memory, the
 * launch stops either way; what the cells hold after a stop is never looked at.
 *
 * The pass is taken when every piece is a whole aligned 16 bytes of shared memory that each
 * part reads at most once (so each cell's reads are its parts' in their order), and at most
 * WG_PARTS parts read. */

enum { WG_PARTS = 16, WG_MEMOS = 4 };
#define WG_DONE (1ull << 31)

/* One part's landing context (race_copy_reads's, for warp w). */
struct wg_agent {
	struct rthread t;
	struct acc_ctx x;
	struct hbq q;
	struct rec me;
};

/* The pass: the parts' contexts, the memos of whole pieces (by the set of parts that read
 * them), and the last write found ordered before the reads of a set of parts. */
struct wg_pass {
	struct launch *L;
	struct cta *c;
	struct rcta *rc;
	struct shadow *s;
	uint32_t m;
	struct wg_agent a[WG_PARTS];
	struct {
		uint32_t parts;     /* (0: none) */
		struct copy_memo memo;
	} memo[WG_MEMOS];
	uint32_t ok_parts;          /* a write of thread ok_tid at epoch ok_clock (an agent's:
				     * ok_async) is ordered before these parts' reads (0: none) */
	uint32_t ok_tid, ok_clock;
	uint8_t ok_async;
};

/* Mark the pieces each part reads with its bit; false: the pass cannot be taken. The marks
 * are not charged against --max-memory: 8 bytes per 16 of shared memory (114 KiB at most),
 * and a charge would move the point where a launch at its limit stops. */
static bool wg_mark(struct race *R, struct cta *c, const struct race_wg_part *p, uint32_t m)
{
	uint32_t n = (uint32_t)(c->smem_size / 16);
	if (n > R->wg.n) {
		uint64_t *k = realloc(R->wg.mark, n * sizeof *k);
		if (!k)
			return false;
		memset(k + R->wg.n, 0, (n - R->wg.n) * sizeof *k);
		R->wg.mark = k;
		R->wg.n = n;
	}
	if (!++R->wg.gen) { /* (wrapped: no mark may look current) */
		memset(R->wg.mark, 0, R->wg.n * sizeof *R->wg.mark);
		R->wg.gen = 1;
	}
	uint64_t gen = (uint64_t)R->wg.gen << 32;
	for (uint32_t j = 0; j < m; j++) {
		if (!p[j].rc->vc)
			continue; /* (it reads nothing: race_copy_reads) */
		for (uint32_t i = 0; i < p[j].n; i++) {
			uint32_t o = p[j].off[i];
			if (o % 16 || o / 16 >= n)
				return false;
			uint64_t *e = &R->wg.mark[o / 16];
			if ((*e & ~0xffffffffull) != gen)
				*e = gen;
			if (*e & (1ull << j))
				return false;
			*e |= 1ull << j;
		}
	}
	return true;
}

/* Whether write w may conflict with the read of any part of `parts`. What hbq_may_conflict
 * reads of w is its clock, whether its mask is empty, its thread and whether it is an
 * agent's (RF_ASYNC): the last write found ordered before them all is kept by those, so a
 * thread's stores of a row, all made at one epoch, are judged once. */
static bool wg_may_conflict(struct wg_pass *P, uint32_t parts, const struct rec *w)
{
	uint8_t async = w->flags & RF_ASYNC;
	if (!w->clock || !(w->mask & 0xf) ||
	    (w->tid == P->ok_tid && w->clock == P->ok_clock && async == P->ok_async &&
	     P->ok_parts == parts))
		return false;
	for (uint32_t b = parts; b; b &= b - 1)
		if (hbq_may_conflict(&P->a[__builtin_ctz(b)].q, w, 0xf))
			return true;
	P->ok_parts = parts;
	P->ok_tid = w->tid;
	P->ok_clock = w->clock;
	P->ok_async = async;
	return false;
}

/* Cell c read by the parts `parts` in their order, as their copy_cells_in would (no write of
 * c may conflict), through that set of parts' memo. */
static void wg_cell(struct wg_pass *P, uint32_t parts, struct copy_memo *memo, struct cell *c)
{
	if (memo->valid && state_same(c, &memo->in, memo->what) &&
	    state_put(c, &memo->out, memo->what))
		return;
	memo->valid = false;
	bool keep = state_get(c, &memo->in);
	unsigned what = ST_R;
	for (uint32_t b = parts; b && !P->L->stop; b &= b - 1) {
		struct wg_agent *a = &P->a[__builtin_ctz(b)];
		if (copy_add_read(&a->x, &a->q, c, &a->me))
			what = ST_LIST;
	}
	memo->valid = keep && !P->L->stop && state_get(c, &memo->out);
	memo->mask = 0xf;
	memo->what = (uint8_t)what;
}

/* The memo of the set of parts `parts`. */
static struct copy_memo *wg_memo(struct wg_pass *P, uint32_t parts)
{
	uint32_t k = parts % WG_MEMOS;
	if (P->memo[k].parts != parts) {
		P->memo[k].parts = parts;
		P->memo[k].memo.valid = false;
	}
	return &P->memo[k].memo;
}

/* The piece at shared offset o, read by `parts`; false: a write there may conflict with
 * one of the reads (or its page is not made yet), the piece untouched but for its rows. */
static bool wg_piece(struct wg_pass *P, uint32_t parts, uint32_t o)
{
	uint64_t g = o / GRAN;
	P->rc->foreign = true;
	rows_settle(P->rc, P->c->smem_size, g, g + 16 / GRAN - 1);
	struct cell *c = cell_made(P->s, g);
	if (!c || (g + 16 / GRAN - 1) / PAGE_CELLS != g / PAGE_CELLS)
		return false; /* (a new page: made by the parts one after another) */
	for (uint32_t k = 0; k < 16 / GRAN; k++)
		if (glist_of(&c[k]) || wg_may_conflict(P, parts, &c[k].w))
			return false;
	struct copy_memo *memo = wg_memo(P, parts);
	for (uint32_t k = 0; k < 16 / GRAN && !P->L->stop; k++)
		wg_cell(P, parts, memo, &c[k]);
	return true;
}

void race_wg_reads(struct launch *L, struct cta *c, const struct race_wg_part *p, uint32_t m)
{
	struct race *R = L->race;
	if (!R || L->stop || m < 2 || m > WG_PARTS || !wg_mark(R, c, p, m))
		return;
	R->wg.open = true;
	R->wg.all = false;
	struct wg_pass pass, *P = &pass;
	P->L = L;
	P->c = c;
	P->rc = &R->cta[c->slot];
	P->s = &P->rc->smem;
	P->m = m;
	P->ok_parts = 0;
	for (uint32_t k = 0; k < WG_MEMOS; k++)
		P->memo[k].parts = 0;
	for (uint32_t j = 0; j < m; j++) {
		struct wg_agent *a = &P->a[j];
		if (!p[j].rc->vc)
			continue;
		copy_ctx(L, p[j].rc, &a->t, RF_ASYNC, &a->x, &a->q);
		a->x.w = p[j].w;
		a->x.lane = 0;
		a->x.s = P->s;
		a->me = (struct rec){p[j].insn, p[j].rc->agent, p[j].rc->clock,
				     (uint32_t)L->steps, 0xf, RF_ASYNC};
	}
	uint64_t gen = (uint64_t)R->wg.gen << 32;
	for (uint32_t j = 0; j < m; j++)
		for (uint32_t i = 0; p[j].rc->vc && i < p[j].n && !L->stop; i++) {
			uint64_t *e = &R->wg.mark[p[j].off[i] / 16];
			if (*e & WG_DONE)
				continue; /* (read with an earlier part's) */
			if (!wg_piece(P, (uint32_t)(*e - gen), p[j].off[i]))
				return;
			*e |= WG_DONE;
		}
	R->wg.all = !L->stop;
}

void race_wg_reads_end(struct launch *L)
{
	if (L->race)
		L->race->wg.open = false;
}

bool race_wg_read_done(const struct race *R, uint32_t off)
{
	uint64_t e = off / 16 < R->wg.n ? R->wg.mark[off / 16] : 0;
	return R->wg.open && (R->wg.all || (e >> 32 == R->wg.gen && (e & WG_DONE)));
}
