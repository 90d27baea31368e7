/*
 * race.c - happens-before data races (rule data-race) under the PTX memory model.
 *
 * Clocks. Every thread (lane) has its own epoch `clock` and a vector clock `vc` of what it
 * has acquired. A release joins the thread's vc and epoch into the sync object's clock and
 * starts a new epoch; an acquire joins the object's clock into the thread's vc. Vector
 * clocks are immutable once shared (reference counts, copy on write), stored as one dense
 * chunk per CTA that appears in them: after a barrier every participant shares one vector,
 * so a CTA barrier costs O(threads), not O(threads^2).
 * Sync objects: CTA barrier instances (bar.sync/arrive/red, named, with counts), bar.warp.sync,
 * cluster barrier phases (.release arrive, .acquire wait), mbarrier phases (arrive = release,
 * a wait that returned True for the phase = acquire), and memory locations written by
 * release patterns (st.release, atom.release/acq_rel, a strong write after a release fence)
 * and read by acquire patterns (ld.acquire, atom.acquire/acq_rel, a strong read followed by
 * an acquire fence), with scopes: a .cta release does not reach another CTA.
 * Shadow memory. Shared, distributed shared and global memory have one cell per 4-byte
 * granule, allocated a page at a time on first touch: the last write and the reads since
 * (an antichain: a read ordered before a newer one is dropped), each with its byte mask,
 * thread, epoch and instruction. Two accesses race when their bytes overlap, one is a write,
 * they are not both strong with scopes that include each other (morally strong), and
 * the earlier one's epoch is not in the later thread's vector clock.
 * Asynchronous operations (cp.async, bulk and tensor copies, st.async, red.async) are agents
 * of their issuing thread, with thread ids of their own (agent_of): a copy's landing writes
 * its destination and reads its source with the agent's clock, checked against earlier
 * accesses with what the issuing thread had acquired at the issue (race_copy_issue), and
 * what completes it releases the agent's clock: the complete-tx or arrive-on into an
 * mbarrier phase, or the issuing thread's wait_group (its own agents' clocks are kept
 * beside its vector, seen_cp / seen_bulk, and released with it). Accesses made while the
 * copy was in flight were judged then (async.c: rule async-copy-race, or race_copy_in_flight
 * when not ordered after the issue), not again when it lands.
 */
#include "race_priv.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "report/gather.h"
#include "memory.h"
#include "report/rules.h"
#include "report/srcloc.h"
#include "support/pages.h"

/* ---- shadow memory ------------------------------------------------------------------- */

/* Host memory for the detector's state, charged against --max-memory (false: over it; the
 * launch stops with the clear message). */
static void *charged_calloc(struct launch *L, uint64_t *acct, size_t n, size_t size)
{
	if (!launch_charge(L, (uint64_t)n * size, "the data-race detector's shadow state"))
		return NULL;
	void *p = calloc(n, size);
	if (!p) {
		mem_release(L->mem, (uint64_t)n * size);
		return NULL;
	}
	*acct += (uint64_t)n * size;
	return p;
}

void *race_grow(struct launch *L, uint64_t *acct, void *p, size_t had, size_t want,
		const char *what)
{
	if (!launch_charge(L, want - had, what))
		return NULL;
	void *q = realloc(p, want);
	if (!q) {
		mem_release(L->mem, want - had);
		return NULL;
	}
	*acct += want - had;
	return q;
}

/* Shadow pages are cut from slabs mapped at once: a launch's first of SLAB_SMALL bytes
 * (a small kernel's shadow), then of SLAB_BYTES, on huge pages where the kernel gives them,
 * so that a launch touching much memory faults its shadow (80 bytes a word) in a slab at a
 * time, not 4 KiB at a time, and nothing clears it twice. */
#define SLAB_SMALL (128u << 10)
#define SLAB_BYTES (2u << 20)
#define PAGE_BYTES (PAGE_CELLS * sizeof(struct cell))

/* A fresh slab (the size its place in the list says; a big one aligned to its size, so
 * that a huge page can back it); false: no memory. */
static bool slab_new(struct race_slabs *s)
{
	if (s->nslabs == s->slabcap) {
		uint32_t cap = s->slabcap ? 2 * s->slabcap : 4;
		void **n = realloc(s->slabs, cap * sizeof *n);
		if (!n)
			return false;
		s->slabs = n;
		s->slabcap = cap;
	}
	size_t size = s->nslabs ? SLAB_BYTES : SLAB_SMALL;
	uint8_t *a = pages_map(size, s->nslabs ? size : 0, false);
	if (!a)
		return false;
	if (s->nslabs)
		pages_advise_huge(a, size);
	s->slabs[s->nslabs++] = a;
	s->at = a;
	s->left = size;
	return true;
}

/* `size` bytes of the current slab (a fresh one when it has less), zero; NULL: no memory. */
void *race_slab_cut(struct race_slabs *s, size_t size)
{
	if (s->left < size && !slab_new(s))
		return NULL;
	void *p = s->at; /* (mapped: zero) */
	s->at += size;
	s->left -= size;
	return p;
}

void race_slabs_free(struct race_slabs *s)
{
	for (uint32_t i = 0; i < s->nslabs; i++)
		munmap(s->slabs[i], i ? SLAB_BYTES : SLAB_SMALL);
	free(s->slabs);
}

/* Lists of further reads (struct readers) are cut from the slabs too, in READER_CLASSES
 * sizes, and a list let go (outgrown, or its shadow freed) waits in race.keep's rfree for
 * the next list of its size: a list grows by doubling, so a matrix product's operands,
 * read by many threads each, made a realloc at each doubling of every word's list. Their
 * charge is a shadow's, as a page's: only while a shadow holds them. */
static uint32_t readers_class(uint32_t cap)
{
	return (uint32_t)__builtin_ctz(cap / FIRST_READERS);
}

static size_t readers_bytes(uint32_t cap)
{
	return sizeof(struct readers) + cap * sizeof(struct rec);
}

/* Room for a list of cap entries (not cleared); NULL: no memory. */
static struct readers *readers_take(struct race_keep *k, uint32_t cap)
{
	struct readers **head = &k->rfree[readers_class(cap)], *m = *head;
	if (!m)
		return race_slab_cut(&k->slab, readers_bytes(cap));
	memcpy(head, m->e, sizeof *head); /* (the next one) */
	return m;
}

static void readers_give(struct race_keep *k, struct readers *m)
{
	if (!m)
		return;
	if ((uintptr_t)m & 1) { /* a struct glist (race_glist.c) */
		race_glist_give(k, (struct glist *)((uintptr_t)m - 1));
		return;
	}
	struct readers **head = &k->rfree[readers_class(m->cap)];
	memcpy(m->e, head, sizeof *head);
	*head = m;
}

/* `size` bytes charged to s against --max-memory; false: past it (reported). */
static bool page_charge(struct launch *L, struct shadow *s, size_t size)
{
	if (!launch_charge(L, size, "the data-race detector's shadow state"))
		return false;
	s->charged += size;
	return true;
}

static void page_uncharge(struct launch *L, struct shadow *s, size_t size)
{
	mem_release(L->mem, size);
	s->charged -= size;
}

/* A cleared shadow page for s, charged: one a cluster before let go (race.keep's pool), else
 * the next of the current slab. */
static struct cell *page_new(struct launch *L, struct shadow *s)
{
	struct race_keep *k = &L->race->keep;
	if (!page_charge(L, s, PAGE_BYTES))
		return NULL;
	struct cell *pg = k->npool ? k->pool[--k->npool] : race_slab_cut(&k->slab, PAGE_BYTES);
	if (!pg)
		page_uncharge(L, s, PAGE_BYTES);
	return pg;
}

/* s's table of pages for its `bytes` of memory, made if missing; false: out of memory. */
static bool pages_made(struct launch *L, struct shadow *s, uint64_t bytes)
{
	if (s->pages)
		return true;
	s->npages = (bytes + GRAN * PAGE_CELLS - 1) / (GRAN * PAGE_CELLS);
	s->pages = charged_calloc(L, &s->charged, s->npages ? s->npages : 1, sizeof *s->pages);
	return s->pages != NULL;
}

struct cpage *race_cpage(struct launch *L, struct shadow *s, uint64_t bytes, uint64_t p)
{
	struct race_keep *k = &L->race->keep;
	if (!pages_made(L, s, bytes) || p >= s->npages)
		return NULL;
	if (s->pages[p] || !page_charge(L, s, sizeof(struct cpage)))
		return page_compact(s, p);
	struct cpage *cp = k->ncpool ? k->cpool[--k->ncpool] : race_slab_cut(&k->slab, sizeof *cp);
	if (!cp) {
		page_uncharge(L, s, sizeof *cp);
		return NULL;
	}
	_Static_assert(_Alignof(struct cpage) > 1, "page_compact's tag");
	s->pages[p] = (struct cell *)((uintptr_t)cp | 1);
	return cp;
}

/* Page p of s made full from its compact page cp, each record its cell's write or its one
 * read; cp, cleared, goes to race.keep's pool. Its charge is released before the full page
 * is charged: the launch's peak is what the records need. False: out of memory (reported). */
static bool page_unpack(struct launch *L, struct shadow *s, uint64_t p, struct cpage *cp)
{
	struct race_keep *k = &L->race->keep;
	s->pages[p] = NULL;
	page_uncharge(L, s, sizeof *cp);
	struct cell *pg = s->pages[p] = page_new(L, s);
	for (uint32_t i = 0; pg && i < PAGE_CELLS; i++) {
		if (!cp->e[i].clock)
			continue;
		if (cp->read[i / 32] >> (i % 32) & 1)
			pg[i].r = cp->e[i];
		else
			pg[i].w = cp->e[i];
	}
	memset(cp, 0, sizeof *cp);
	if (k->ncpool == k->cpoolcap) {
		uint32_t cap = k->cpoolcap ? 2 * k->cpoolcap : 8;
		struct cpage **n = realloc(k->cpool, cap * sizeof *n);
		if (!n)
			return pg != NULL; /* (its slab keeps it until race_end) */
		k->cpool = n;
		k->cpoolcap = cap;
	}
	k->cpool[k->ncpool++] = cp;
	return pg != NULL;
}

struct cell *race_shadow_cell(struct launch *L, struct shadow *s, uint64_t bytes, uint64_t g)
{
	if (!pages_made(L, s, bytes))
		return NULL;
	uint64_t p = g / PAGE_CELLS;
	if (p >= s->npages)
		return NULL;
	struct cpage *cp = page_compact(s, p);
	if (cp)
		return page_unpack(L, s, p, cp) ? &s->pages[p][g % PAGE_CELLS] : NULL;
	if (!s->pages[p] && !(s->pages[p] = page_new(L, s)))
		return NULL;
	return &s->pages[p][g % PAGE_CELLS];
}

bool race_lines(struct launch *L, struct rcta *rc, uint64_t bytes)
{
	uint64_t n = 2 * race_nlines(bytes);
	if (rc->lines)
		return true;
	/* the eras, then the row records (race_rows) */
	_Static_assert(_Alignof(struct rrow) <= 2 * sizeof *rc->lines, "race_rows' alignment");
	if (!(rc->lines = charged_calloc(L, &rc->smem.charged, 1,
					 n * sizeof *rc->lines + n / 2 * sizeof(struct rrow))))
		return false;
	/* records made before (check_range stamps none while there are no lines) are at
	 * most of this era; with no page there is none, and every line is of the era before
	 * (a CTA's first stores then find their lines' records ordered without reading them) */
	uint32_t born = rc->smem.pages ? rc->era : rc->era - 1;
	for (uint64_t i = 0; i < n; i++)
		rc->lines[i] = born;
	return true;
}

static void shadow_free(struct launch *L, struct shadow *s)
{
	for (uint64_t p = 0; s->pages && p < s->npages; p++) /* (the pages: race.keep's slabs) */
		for (uint32_t i = 0; cell_made(s, p * PAGE_CELLS) && i < PAGE_CELLS; i++)
			readers_give(&L->race->keep, s->pages[p][i].more);
	free(s->pages);
	mem_release(L->mem, s->charged);
	memset(s, 0, sizeof *s);
}

/* shadow_free for a CTA's shared memory at the end of its cluster: the pages cleared into
 * race.keep for the next cluster. */
static void shadow_recycle(struct launch *L, struct shadow *s)
{
	struct race *R = L->race;
	for (uint64_t p = 0; s->pages && p < s->npages; p++) {
		struct cell *pg = s->pages[p];
		if (!pg)
			continue;
		s->pages[p] = NULL;
		for (uint32_t i = 0; i < PAGE_CELLS; i++)
			readers_give(&R->keep, pg[i].more);
		if (R->keep.npool == R->keep.poolcap) {
			uint32_t cap = R->keep.poolcap ? 2 * R->keep.poolcap : 8;
			struct cell **n = realloc(R->keep.pool, cap * sizeof *n);
			if (!n)
				continue; /* (its slab keeps it until race_end) */
			R->keep.pool = n;
			R->keep.poolcap = cap;
		}
		memset(pg, 0, PAGE_CELLS * sizeof *pg);
		R->keep.pool[R->keep.npool++] = pg;
	}
	shadow_free(L, s);
}

static struct shadow *global_shadow(struct launch *L, const struct region *r)
{
	struct race *R = L->race;
	uint32_t i = r->index;
	if (i >= R->nglob) {
		uint32_t n = i + 8;
		struct shadow *g = race_grow(L, &R->charged, R->glob, R->nglob * sizeof *g,
					     n * sizeof *g, "the data-race detector's shadow state");
		if (!g)
			return NULL;
		memset(g + R->nglob, 0, (n - R->nglob) * sizeof *g);
		R->glob = g;
		R->nglob = n;
	}
	return &R->glob[i];
}

/* ---- reports ------------------------------------------------------------------------- */

static const char *kind_name(const struct rec *p, bool write)
{
	return p->flags & RF_RMW ? "atomic" : write ? "write" : "read";
}

/* The state of thread `tid` if it belongs to the running cluster (a cooperative launch:
 * the grid). */
static const struct rthread *cluster_thread(const struct race *R, uint32_t tid)
{
	for (uint32_t r = 0; r < R->cl->nctas; r++)
		if (R->cl->ctas[r].linear == cta_of(R, tid))
			return &R->th[r * R->nt + local_of(R, tid)];
	return NULL;
}

/* "thread 3", "CTA (1,0,0) thread 3" (not the CTA of `self`), and for an agent "the
 * cp.async.bulk of thread 3" (insn: the copy's instruction). */
void race_describe_tid(const struct launch *L, uint32_t tid, const struct dinsn *insn,
			 uint32_t self, struct strbuf *b)
{
	const struct race *R = L->race;
	uint32_t cta = cta_of(R, tid) % R->nctas;
	if (is_agent(R, tid))
		sb_printf(b, "the %s of ", ir_op_name((enum ir_op)insn->op));
	if (cta != cta_of(R, self) % R->nctas) {
		const uint32_t *g = L->cfg.grid;
		sb_printf(b, "CTA (%u,%u,%u) ", cta % g[0], cta / g[0] % g[1], cta / (g[0] * g[1]));
	}
	sb_printf(b, "thread %u", local_of(R, tid));
}

void race_describe_place(struct launch *L, struct warp *w, const struct access *a,
			   uint32_t size, struct strbuf *b)
{
	if (a->space == MS_GLOBAL) {
		sb_printf(b, "global 0x%llx (%s+0x%llx, %u bytes)", (unsigned long long)a->addr,
			  a->region->name, (unsigned long long)(a->addr - a->region->base), size);
		return;
	}
	uint32_t within = 0;
	const struct ir_sym *s = srcloc_shared_var(L->kernel, a->off, &within);
	if (a->cta == w->cta)
		sb_printf(b, "shared 0x%x", a->off);
	else
		sb_printf(b, "shared::cluster 0x%x of CTA rank %u", a->off, a->cta->rank);
	struct strbuf name = {0};
	if (s)
		srcloc_var_name(s, &name);
	if (s && size <= 16 && within % size == 0) /* an element; a copy's bytes: an offset */
		sb_printf(b, " ('%s[%u]', %u bytes)", name.s, within / size, size);
	else if (s)
		sb_printf(b, " ('%s'+%u, %u bytes)", name.s, within, size);
	else
		sb_printf(b, " (%u bytes)", size);
	sb_free(&name);
}

bool race_first_pair(struct race *R, const struct dinsn *a, const struct dinsn *b)
{
	for (uint32_t i = 0; i < R->npairs; i++)
		if (R->pairs[i][0] == a && R->pairs[i][1] == b)
			return false;
	if (R->npairs == MAX_PAIRS)
		return false;
	R->pairs[R->npairs][0] = a;
	R->pairs[R->npairs][1] = b;
	R->npairs++;
	return true;
}

static uint32_t line_of(struct launch *L, const struct dinsn *di)
{
	uint32_t line = 0, col = 0;
	if (di && di->ir)
		src_locate(L->file, di->ir->span.off, &line, &col);
	return line;
}

/* What orders a copy's bytes before an access, by the agent that made them. */
static const char *const copy_order[] = {
	[RA_CP] = "a cp.async's copy is ordered before its thread's cp.async.wait_group or "
		  "wait_all that waits for it (or a wait on the mbarrier of a later "
		  "cp.async.mbarrier.arrive); other threads need a barrier after that wait",
	[RA_BULK] = "a bulk-group copy is ordered before its thread's cp.async.bulk.wait_group "
		    "that waits for it (for its source reads, wait_group.read); other threads "
		    "need a barrier after that wait",
	[RA_MBAR] = "its bytes are ordered only before accesses that follow a wait returning True "
		    "for the phase of the mbarrier its complete-tx completes",
};

void race_report(struct acc_ctx *x, const struct access *a, uint32_t size,
		   enum race_kind kind, const struct rec *p, bool pwrite, bool same)
{
	struct launch *L = x->L;
	struct race *R = x->R;
	if (!race_first_pair(R, p->insn, L->ci))
		return;
	if (!race_shard_report_begin(L, R, p->insn, L->ci))
		return;
	struct strbuf msg = {0}, prev = {0}, notes = {0};
	race_describe_tid(L, p->tid, p->insn, x->tid, &prev);
	sb_printf(&msg, "data race on ");
	race_describe_place(L, x->w, a, size, &msg);
	sb_printf(&msg, ": this %s by ", kind == RACE_READ ? "read" : kind == RACE_RMW ? "atomic"
								    : "write");
	if (x->copy)
		sb_printf(&msg, "the %s of ", ir_op_name((enum ir_op)L->ci->op));
	sb_printf(&msg, "CTA (%u,%u,%u) thread %u is not ordered after the %s by %s",
		  x->w->cta->ctaid[0], x->w->cta->ctaid[1], x->w->cta->ctaid[2],
		  local_of(R, x->owner), kind_name(p, pwrite), prev.s);
	/* A consumer that passed a wait for the phase before the first (a fresh barrier's
	 * parity 1) and read: the wrong parity. A producer doing so before its first write
	 * is the usual start of a ring of empty stages, not the cause. */
	const struct rthread *o = R->cl ? cluster_thread(R, p->tid) : NULL;
	const struct dinsn *oph = o ? o->phantom : race_glog_phantom(R->replay, p->tid);
	const struct dinsn *ph = kind == RACE_READ && !x->copy ? x->t->phantom : NULL;
	if (!ph && oph && !pwrite && !(p->flags & RF_RMW))
		ph = oph;
	if (ph)
		sb_printf(&notes, "the wait at line %u returned True for parity 1 of a barrier in "
			  "phase 0: the phase before the first, so it waited for no arrive",
			  line_of(L, ph));
	else if (x->copy)
		sb_printf(&notes, "a copy is ordered after what its thread had acquired when it "
			  "issued it: nothing ordered the %s before the issue at line %u (a wait on "
			  "an mbarrier its accessors arrive on, or a barrier, would)",
			  kind_name(p, pwrite), line_of(L, L->ci));
	else if (is_agent(R, p->tid) && p->insn && p->insn->fam == FAM_WGMMA)
		sb_printf(&notes, "a wgmma.mma_async reads its shared operands once for its "
			  "warpgroup, ordered before each warp's wgmma.wait_group that covers it; "
			  "other threads need a barrier or a release after such a wait");
	else if (is_agent(R, p->tid))
		sb_printf(&notes, "%s", copy_order[cta_of(R, p->tid) / R->nctas - 1]);
	else
		sb_printf(&notes, "nothing orders them: no barrier, mbarrier wait or release/"
			  "acquire pair of a scope that includes both threads lies between");
	if (same)
		sb_printf(&msg, ", and both store the same value");
	rule_break_notes(L, same ? RULE_DATA_RACE_SAME_VALUE : RULE_DATA_RACE, 1u << x->lane,
			 notes.s, msg.s);
	sb_free(&msg);
	msg = (struct strbuf){0};
	sb_printf(&msg, "the earlier %s by %s", kind_name(p, pwrite), prev.s);
	gather_flush(L); /* the note follows its report */
	if (p->insn && p->insn->ir)
		srcloc_emit(L->diag, DIAG_NOTE, L->file, L->P->m, p->insn->ir,
			    srcloc_func_of(L->P, p->insn), NULL, msg.s);
	race_shard_report_end(L, R);
	sb_free(&msg);
	sb_free(&prev);
	sb_free(&notes);
}

/* ---- the access check ---------------------------------------------------------------- */

/* A struct readers of cap entries taken (not cleared) in place of `had` bytes of list the
 * caller lets go, the difference charged against --max-memory and to x's shadow; NULL: out
 * of it (reported). */
static struct readers *readers_charged(const struct acc_ctx *x, uint32_t cap, size_t had)
{
	size_t more = readers_bytes(cap) - had;
	if (!launch_charge(x->L, more, "the data-race detector's shadow state"))
		return NULL;
	struct readers *m = readers_take(&x->L->race->keep, cap);
	if (!m) {
		mem_release(x->L->mem, more);
		return NULL;
	}
	x->s->charged += more;
	return m;
}

/* c's list of further reads with room for one more entry (or full at MAX_READERS, where
 * an entry gives way): made or grown, charged against --max-memory; NULL: out of it. Most
 * lists stay short (two readers of a word per barrier interval), so room is made as needed
 * rather than MAX_READERS entries for every cell that has a second reader. */
__attribute__((noinline)) struct readers *race_readers_room(const struct acc_ctx *x,
							      struct cell *c)
{
	struct readers *m = c->more;
	if (m && (m->n < m->cap || m->cap == MAX_READERS))
		return m;
	uint32_t cap = m ? m->cap * 2 : FIRST_READERS;
	cap = cap < MAX_READERS ? cap : MAX_READERS;
	size_t had = m ? readers_bytes(m->cap) : 0;
	struct race_keep *k = &x->L->race->keep;
	struct readers *g = readers_charged(x, cap, had);
	if (!g)
		return NULL;
	if (m)
		memcpy(g, m, had);
	else
		memset(g, 0, sizeof *g);
	readers_give(k, m);
	g->cap = (uint8_t)cap;
	return c->more = g;
}

bool race_widen(const struct acc_ctx *x, struct cell *c)
{
	struct glist *g = glist_of(c);
	uint32_t cap = g->cap;
	struct race_keep *k = &x->L->race->keep;
	struct readers *m = readers_charged(x, cap, glist_bytes(cap));
	if (!m)
		return false;
	*m = (struct readers){.n = g->n, .cap = (uint8_t)cap, .from = NO_INDEX, .hi = g->hi,
			      .ok_gen = g->ok_gen};
	memcpy(m->tids, g->tids, sizeof m->tids);
	for (uint32_t i = 0; i < g->n; i++)
		m->e[i] = (struct rec){g->insn, g->e[i].tid, g->clock, g->e[i].step, g->mask, 0};
	race_glist_give(k, g);
	c->more = m;
	return true;
}

/* Record a read in the cell's antichain of concurrent reads. A copy's read of global
 * memory is kept only in the cell's one read: every CTA of a GEMM copies the same tiles,
 * and lists of their reads made the detector several times slower. It takes the place of
 * an earlier copy's read or of a read ordered before it, and is left out beside a thread's
 * concurrent read (a race with it may be missed, none is invented). */
void race_add_read(const struct acc_ctx *x, struct cell *c, const struct rec *me)
{
	struct rec *r = &c->r;
	if (x->gread) {
		if (!r->clock || r->tid == x->tid || (r->flags & RF_ASYNC) ||
		    happens_before(x->R, x->t, x->tid, x->owner, r)) {
			take_rec(r, me, x->tid);
		}
		return;
	}
	if (!r->clock || r->tid == x->tid ||
	    (!(r->mask & ~me->mask) && happens_before(x->R, x->t, x->tid, x->owner, r))) {
		take_rec(r, me, x->tid);
		return;
	}
	if (x->glob && !x->copy && race_glist_read(x, c, me))
		return;
	struct readers *m = c->more;
	if ((!m || (m->n == m->cap && m->cap < MAX_READERS)) && !(m = race_readers_room(x, c)))
		return;
	uint64_t gen = tvc(x->R, x->t)->gen;
	/* Fast path (reads of one barrier interval: many threads with one shared vector): no
	 * entry happens before under this vector and none is this thread's, so the scan below
	 * would keep every entry and append this one. The new entry keeps that true: no
	 * vector holds its thread's current epoch, which has not been released yet. */
	if (!x->copy && m->ok_gen == gen) {
		if (x->glob)
			readers_place(x->R, m, me, x->tid);
		else
			readers_put(m, me, x->tid);
		return;
	}
	uint32_t k = 0;
	bool placed = false, ok = !x->copy, dropped = false;
	for (uint32_t i = 0; i < m->n; i++) {
		struct rec *e = &m->e[i];
		if (e->tid == x->tid) {
			uint8_t keep = rec_keep(e, me, x->tid);
			*e = *me;
			e->mask |= keep;
			placed = true;
		} else if (happens_before(x->R, x->t, x->tid, x->owner, e)) {
			if (!(e->mask & ~me->mask)) {
				dropped = true;
				continue; /* covered by this read */
			}
			ok = false;
		} else if (e->flags & RF_ASYNC) {
			ok = false; /* whether an agent's entry is ordered depends on the thread */
		}
		if (k != i)
			m->e[k] = *e;
		k++;
	}
	m->n = k;
	if (dropped) { /* the kept entries' threads */
		m->from = NO_INDEX;
		memset(m->tids, 0, sizeof m->tids);
		for (uint32_t i = 0; i < k; i++)
			m->tids[m->e[i].tid >> 6 & 3] |= 1ull << (m->e[i].tid & 63);
	}
	if (!placed)
		readers_add(x->R, m, me, x->tid);
	m->tids[x->tid >> 6 & 3] |= 1ull << (x->tid & 63);
	m->ok_gen = ok ? gen : 0;
}

/* The cell's r2 moved to its list (the list's first entry, which it is), so that the code
 * that knows only the list sees it; false: out of --max-memory (the launch stops). The
 * list is empty while r2 is in use; its ok_gen stays what quick_word left (unknown, 0,
 * for a list made here: add_read then scans, to the same result). */
bool race_spill(const struct acc_ctx *x, struct cell *c)
{
	struct readers *m = race_readers_room(x, c);
	if (!m)
		return false;
	readers_spill(c, m);
	return true;
}

/* The shadow of the memory `a` lands in, its offset there and size; NULL: not tracked. */
struct shadow *race_shadow_of(struct launch *L, const struct access *a, uint64_t *off,
				uint64_t *bytes)
{
	struct race *R = L->race;
	if (a->space == MS_GLOBAL) {
		*off = a->addr - a->region->base;
		*bytes = a->region->size;
		return global_shadow(L, a->region);
	}
	if (a->space == MS_SHARED_CTA || a->space == MS_SHARED_CLUSTER) {
		*off = a->off;
		*bytes = a->cta->smem_size;
		return &R->cta[a->cta->slot].smem;
	}
	return NULL;
}

/* Granules g0..g1 of a CTA's shared memory about to be recorded by x: their lines stamped
 * with the era (before the records: an era is an upper bound) when x is a thread of the
 * CTA's, which its barriers order, else its eras turned off (struct rcta). */
static void shared_eras(const struct acc_ctx *x, const struct access *a, uint64_t g0,
			uint64_t g1, bool read)
{
	struct rcta *rc = &x->R->cta[a->cta->slot];
	rows_settle(rc, a->cta->smem_size, g0, g1);
	if (x->copy || cta_of(x->R, x->tid) != a->cta->linear)
		rc->foreign = true;
	else if (rc->lines) /* (else race_lines makes them later, of that era throughout) */
		lines_stamp(rc, g0, g1, read);
}

/* Check and record the access `me` of x over `size` bytes at a; false after a report. */
static inline bool check_range(struct acc_ctx *x, const struct access *a, uint32_t size,
			enum race_kind kind, struct rec *me, const void *newv)
{
	uint64_t off, bytes;
	if (!(x->s = race_shadow_of(x->L, a, &off, &bytes)))
		return true;
	uint64_t end = off + size;
	x->gread = x->copy && kind == RACE_READ && a->space == MS_GLOBAL;
	x->glob = a->space == MS_GLOBAL;
	if (a->space != MS_GLOBAL && size)
		shared_eras(x, a, off / GRAN, (end - 1) / GRAN, kind == RACE_READ);
	for (uint64_t g = off / GRAN; g * GRAN < end; g++) {
		uint64_t lo = off > g * GRAN ? off : g * GRAN;
		uint64_t hi = end < g * GRAN + GRAN ? end : g * GRAN + GRAN;
		me->mask = (uint8_t)(((1u << (hi - lo)) - 1) << (lo - g * GRAN));
		struct cell *c = cell_at(x->L, x->s, bytes, g);
		if (!c)
			return false;
		const struct rec *hit = NULL;
		const uint8_t *nv = newv ? (const uint8_t *)newv + (lo - off) : NULL;
		if (!check_cell(x, c, me, kind, nv, a->p + (lo - off), (uint32_t)(hi - lo), &hit)) {
			race_report(x, a, size, kind, hit, hit == &c->w,
			       same_store(kind, me, hit, &c->w, nv, a->p + (lo - off), hi - lo));
			return false;
		}
	}
	return true;
}

bool race_check_range(struct acc_ctx *x, const struct access *a, uint32_t size,
		      enum race_kind kind, struct rec *me, const void *newv)
{
	return check_range(x, a, size, kind, me, newv);
}

/* ---- lanes of one warp in lock step (rule warp-sync-missing) ---------------------------
 * Volatile accesses are strong, so two of them never make a data race; but lanes of a warp
 * are independent threads, and nothing orders one lane's volatile write and another lane's
 * volatile access of the same bytes at a later instruction unless a warp-level
 * synchronisation lies between: bar.warp.sync (happens-before), or a shfl/vote/match/redux
 * .sync that both lanes executed since (rthread.wsync). The warp-synchronous reduction
 * without __syncwarp() is the case. Only shared memory is watched (what that idiom uses;
 * --jobs judges global accesses elsewhere). */

static bool lockstep_pair(const struct acc_ctx *x, const struct rec *p, uint8_t mask,
			  uint32_t step)
{
	const struct race *R = x->R;
	if (!p->clock || !(p->mask & mask) || p->tid == x->tid || p->step == step ||
	    !p->insn || p->insn->sem != MOD_VOLATILE || (p->flags & RF_RMW) ||
	    cta_of(R, p->tid) != cta_of(R, x->tid) ||
	    local_of(R, p->tid) / LANES != local_of(R, x->tid) / LANES ||
	    happens_before(R, x->t, x->tid, x->owner, p))
		return false;
	const struct rthread *o = &x->t[(int64_t)local_of(R, p->tid) - local_of(R, x->tid)];
	return !((int32_t)(cold_of(R, x->t)->wsync - p->step) > 0 &&
		 (int32_t)(cold_of(R, o)->wsync - p->step) > 0);
}

static void lockstep_report(struct acc_ctx *x, const struct access *a, uint32_t size,
			    enum race_kind kind, const struct rec *p, bool pwrite)
{
	struct launch *L = x->L;
	struct race *R = x->R;
	if (!race_first_pair(R, p->insn, L->ci) || !race_shard_report_begin(L, R, p->insn, L->ci))
		return;
	struct strbuf msg = {0}, notes = {0};
	uint32_t me = local_of(R, x->tid), other = local_of(R, p->tid);
	sb_printf(&msg, "lanes %u and %u of warp %u exchange ", other % LANES, me % LANES,
		  me / LANES);
	race_describe_place(L, x->w, a, size, &msg);
	sb_printf(&msg, " with no __syncwarp between: this volatile %s by CTA (%u,%u,%u) thread "
		  "%u is not ordered after the volatile %s by thread %u",
		  kind == RACE_READ ? "read" : "write", x->w->cta->ctaid[0], x->w->cta->ctaid[1],
		  x->w->cta->ctaid[2], me, pwrite ? "write" : "read", other);
	sb_printf(&notes, "lanes of a warp are independent threads (sm_70 and later): running "
		  "in lock step orders nothing, and volatile accesses only make each access whole; "
		  "a bar.warp.sync (__syncwarp()) between the two instructions orders them");
	rule_break_notes(L, RULE_WARP_SYNC_MISSING, 1u << x->lane, notes.s, msg.s);
	sb_free(&msg);
	msg = (struct strbuf){0};
	sb_printf(&msg, "the earlier volatile %s by thread %u", pwrite ? "write" : "read", other);
	gather_flush(L); /* the note follows its report */
	if (p->insn->ir)
		srcloc_emit(L->diag, DIAG_NOTE, L->file, L->P->m, p->insn->ir,
			    srcloc_func_of(L->P, p->insn), NULL, msg.s);
	race_shard_report_end(L, R);
	sb_free(&msg);
	sb_free(&notes);
}

/* The current volatile access of x against the other lanes' of its warp; false after a
 * report. Cells not made yet hold no access. */
static bool lockstep_check(struct acc_ctx *x, const struct access *a, uint32_t size,
			   enum race_kind kind)
{
	if (a->space != MS_SHARED_CTA || a->cta != x->w->cta)
		return true;
	struct shadow *s = &x->R->cta[a->cta->rank].smem;
	uint32_t end = a->off + size, step = (uint32_t)x->L->steps;
	if (size)
		rows_settle(&x->R->cta[a->cta->rank], a->cta->smem_size, a->off / GRAN,
			    (end - 1) / GRAN);
	for (uint32_t g = a->off / GRAN; g * GRAN < end; g++) {
		uint32_t lo = a->off > g * GRAN ? a->off : g * GRAN;
		uint32_t hi = end < g * GRAN + GRAN ? end : g * GRAN + GRAN;
		uint8_t mask = (uint8_t)(((1u << (hi - lo)) - 1) << (lo - g * GRAN));
		const struct cell *c = cell_made(s, g);
		if (!c)
			continue;
		const struct rec *hit = lockstep_pair(x, &c->w, mask, step) ? &c->w : NULL;
		if (!hit && kind != RACE_READ && lockstep_pair(x, &c->r, mask, step))
			hit = &c->r;
		if (!hit && kind != RACE_READ && lockstep_pair(x, &c->r2, mask, step))
			hit = &c->r2;
		for (uint32_t i = 0; !hit && kind != RACE_READ && c->more && i < c->more->n; i++)
			if (lockstep_pair(x, &c->more->e[i], mask, step))
				hit = &c->more->e[i];
		if (hit) {
			lockstep_report(x, a, size, kind, hit, hit == &c->w);
			return false;
		}
	}
	return true;
}

void race_lockstep_sync(struct launch *L, struct warp *w, uint32_t lanes)
{
	struct race *R = L->race;
	for (uint32_t m = R ? lanes : 0; m; m &= m - 1)
		cold_of(R, thr(R, w, (uint32_t)__builtin_ctz(m)))->wsync = (uint32_t)L->steps;
}

void race_access(struct launch *L, struct warp *w, uint32_t lane, const struct access *a,
		 uint32_t size, enum race_kind kind, const void *newv)
{
	struct race *R = L->race;
	if (!R || !size || L->stop || !race_tracked(a->space))
		return;
	uint32_t tid = tid_of(R, w, lane);
	if (R->shard && a->space == MS_GLOBAL) { /* judged in cluster order (race_global.c) */
		race_defer_access(L, w, lane, a, size, kind, newv);
		return;
	}
	struct acc_ctx x = {.L = L, .R = R, .t = thr(R, w, lane), .w = w, .lane = lane,
			    .tid = tid, .owner = tid, .flags = race_access_flags(L->ci),
			    .skip_agents = a->async_raced};
	struct rec me = {L->ci, tid, *clock_of(R, x.t), (uint32_t)L->steps, 0, x.flags};
	if (L->ci->sem == MOD_VOLATILE && kind != RACE_RMW && !lockstep_check(&x, a, size, kind))
		return;
	if (check_range(&x, a, size, kind, &me, newv) && (x.flags & RF_STRONG))
		race_sync_through(L, x.t, tid, a, kind, x.flags);
}

/* ---- lifetime ------------------------------------------------------------------------ */

bool race_begin(struct launch *L)
{
	struct race *R = calloc(1, sizeof *R);
	if (!R)
		return false;
	R->L = L;
	R->mem = L->mem;
	R->nt = L->cfg.block[0] * L->cfg.block[1] * L->cfg.block[2];
	while ((1u << R->shift) < R->nt)
		R->shift++;
	const uint32_t *g = L->cfg.grid;
	uint64_t nctas = (uint64_t)g[0] * g[1] * g[2];
	R->nctas = (uint32_t)nctas;
	/* agents take three more CTA numbers per CTA; past 32-bit ids copies go unrecorded */
	R->agents = (nctas * (RA__COUNT + 1) << R->shift) <= UINT32_MAX;
	R->zero = vc_new(R);
	if (!R->zero) {
		free(R);
		return false;
	}
	L->race = R;
	return true;
}

/* *p with room for n items of `size` bytes, the first n cleared (`clear`; else the caller
 * writes each): the room a cluster before left (*cap items) reused, else made anew and
 * charged against --max-memory (R->charged); false: out of memory, or past the limit
 * (reported). */
static bool keep_room(struct launch *L, void **p, size_t *cap, size_t n, size_t size,
		      bool clear)
{
	struct race *R = L->race;
	if (*p && n <= *cap) {
		if (clear)
			memset(*p, 0, n * size);
		return true;
	}
	free(*p);
	*p = NULL;
	mem_release(L->mem, *cap * size);
	R->charged -= *cap * size;
	*cap = 0;
	n = n ? n : 1;
	if (!launch_charge(L, n * size, "the data-race detector's thread state"))
		return false;
	if (!(*p = calloc(n, size))) {
		mem_release(L->mem, n * size);
		return false;
	}
	R->charged += n * size;
	*cap = n;
	return true;
}

bool race_cluster_begin(struct launch *L, struct cluster *cl)
{
	struct race *R = L->race;
	if (!R)
		return true;
	R->cl = cl;
	R->mb_base = L->mbars.ids;
	if (R->shard && !race_shard_cluster_begin(L))
		return false;
	size_t n = (size_t)cl->nctas * R->nt;
	R->nw = (R->nt + LANES - 1) / LANES;
	R->wvc_ok = R->nt % LANES == 0;
	struct race_keep *k = &R->keep;
	/* (th and clk: each entry written below) */
	bool ok = keep_room(L, (void **)&k->th, &k->th_cap, n, sizeof *R->th, false) &&
		  keep_room(L, (void **)&k->clk, &k->clk_cap, n, sizeof *R->clk, false) &&
		  keep_room(L, (void **)&k->seen, &k->seen_cap, n * INIT_SEEN, sizeof *R->seen,
			    true) &&
		  keep_room(L, (void **)&k->cold, &k->cold_cap, n, sizeof *R->cold, true) &&
		  keep_room(L, (void **)&k->cta, &k->cta_cap, cl->nctas, sizeof *R->cta, true) &&
		  keep_room(L, (void **)&k->wvc, &k->wvc_cap, (size_t)cl->nctas * R->nw,
			    sizeof *R->wvc, true);
	if (!ok)
		return false;
	R->th = k->th;
	R->clk = k->clk;
	R->seen = k->seen;
	R->nseen = n;
	R->cold = k->cold;
	R->cta = k->cta;
	R->wvc = k->wvc;
	for (uint32_t r = 0; r < cl->nctas; r++) {
		R->cta[r].era = 1;
		R->cta[r].era_gen = R->zero->gen;
	}
	for (size_t i = 0; i < n; i++) {
		R->th[i] = (struct rthread){.lvc = R->zero,
					    .warp = (uint32_t)(i / R->nt * R->nw + i % R->nt / LANES)};
		R->clk[i] = 1;
	}
	R->zero->refs += (uint32_t)n;
	return true;
}

void race_cluster_end(struct launch *L, struct cluster *cl)
{
	struct race *R = L->race;
	if (!R)
		return;
	/* (the arrays are kept for the next cluster, every reference in them let go) */
	for (size_t i = 0; R->th && i < (size_t)cl->nctas * R->nt; i++) {
		vc_put(R, tvc(R, &R->th[i])); /* (one reference a lane, a warp's too) */
		vc_put(R, R->cold[i].pending);
		R->th[i].lvc = NULL;
		R->cold[i].pending = NULL;
	}
	for (uint32_t r = 0; R->cta && r < cl->nctas; r++) {
		struct rcta *rc = &R->cta[r];
		for (int i = 0; i < 16; i++) {
			vc_put(R, rc->acc[i]);
			vc_put(R, rc->done[i]);
			rc->acc[i] = rc->done[i] = NULL;
		}
		vc_put(R, rc->cacc);
		vc_put(R, rc->cdone);
		rc->cacc = rc->cdone = NULL;
		shadow_recycle(L, &rc->smem);
		free(rc->lines);
		rc->lines = NULL;
		rc->nrows = 0;
	}
	for (uint32_t i = 0; i < R->nmb; i++) {
		vc_put(R, R->mb[i].acc);
		vc_put(R, R->mb[i].last);
	}
	if (R->mb)
		memset(R->mb, 0, R->nmb * sizeof *R->mb);
	R->wvc = NULL; /* (kept in R->keep) */
	R->th = NULL;
	R->clk = NULL;
	R->seen = NULL;
	R->cold = NULL;
	R->cta = NULL;
	R->cl = NULL;
	if (R->shard)
		race_shard_cluster_end(L);
}

void race_end(struct launch *L)
{
	struct race *R = L->race;
	if (!R)
		return;
	for (uint32_t i = 0; i < R->nglob; i++)
		shadow_free(L, &R->glob[i]);
	free(R->glob);
	for (uint32_t i = 0; i < R->loccap; i++) {
		vc_put(R, R->locs[i].wide);
		vc_put(R, R->locs[i].cta);
	}
	free(R->locs);
	free(R->mb);
	free(R->keep.th);
	free(R->keep.clk);
	free(R->keep.seen);
	free(R->keep.cold);
	free(R->keep.cta);
	free(R->keep.wvc);
	free(R->wg.mark);
	race_slabs_free(&R->keep.slab);
	free(R->keep.pool);
	free(R->keep.cpool);
	mem_release(L->mem, R->charged);
	vc_put(R, R->memo.result);
	vc_put(R, R->zero);
	vc_free_spares(R);
	race_jobs_free(R->jobs);
	free(R);
	L->race = NULL;
}
