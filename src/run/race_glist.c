/*
 * race_glist.c - a global cell's further reads in 8 bytes each (struct glist, race_priv.h).
 *
 * The naive matrix product's operands are read by 256 threads a word (16 CTAs of 16 threads),
 * nothing ordering them, so each word's list of concurrent reads fills to MAX_READERS: with
 * 24-byte records, 1.6 KB a word, 210 MiB for a 256x256 product, most of it fresh memory the
 * kernel clears. Those reads share their instruction, epoch and bytes (one ld, no barrier,
 * whole words): a glist keeps those once and each entry's thread and step. Its entries are
 * struct readers' entries, in the same order, put and dropped by the same rules
 * (race_add_read's fast path and scan, readers_place), so that whatever reads the list later
 * finds the same records: a read that does not fit makes it a struct readers first
 * (race_widen), and so does a write, an atomic or a copy before looking at its entries.
 */
#include "race_priv.h"

static uint32_t glist_class(uint32_t cap)
{
	return (uint32_t)__builtin_ctz(cap / FIRST_READERS);
}

void race_glist_give(struct race_keep *k, struct glist *g)
{
	struct glist **head = &k->gfree[glist_class(g->cap)];
	memcpy(g->e, head, sizeof *head); /* (linked through its first entries) */
	*head = g;
}

/* c's glist (g, or none) with room for one more entry (or full at MAX_READERS), made or
 * grown as race_readers_room makes a struct readers, charged against --max-memory; the
 * list made takes me's instruction, epoch and bytes. NULL: out of --max-memory. */
static __attribute__((noinline)) struct glist *
glist_room(const struct acc_ctx *x, struct cell *c, struct glist *g, const struct rec *me)
{
	uint32_t cap = g ? g->cap * 2u : FIRST_READERS;
	cap = cap < MAX_READERS ? cap : MAX_READERS;
	size_t had = g ? glist_bytes(g->cap) : 0, size = glist_bytes(cap);
	struct race_keep *k = &x->L->race->keep;
	if (!launch_charge(x->L, size - had, "the data-race detector's shadow state"))
		return NULL;
	struct glist **head = &k->gfree[glist_class(cap)], *n = *head;
	if (n)
		memcpy(head, n->e, sizeof *head);
	else if (!(n = race_slab_cut(&k->slab, size))) {
		mem_release(x->L->mem, size - had);
		return NULL;
	}
	x->s->charged += size - had;
	if (g) {
		memcpy(n, g, had);
		race_glist_give(k, g);
	} else {
		*n = (struct glist){.insn = me->insn, .clock = me->clock, .mask = me->mask};
	}
	n->cap = (uint8_t)cap;
	c->more = (struct readers *)((uintptr_t)n | 1);
	return n;
}

/* race_add_read's scan for g, whose entries all have me's instruction, epoch and bytes:
 * the thread's own entry takes the read, entries ordered before it are dropped (each is
 * covered: the same bytes), the read appended if it had none; none left is ordered before
 * a read under this vector (gen). */
static void glist_scan(const struct acc_ctx *x, struct glist *g, const struct rec *me,
		       uint64_t gen)
{
	struct rec p = {g->insn, 0, g->clock, 0, g->mask, 0};
	uint32_t k = 0;
	bool placed = false, dropped = false;
	for (uint32_t i = 0; i < g->n; i++) {
		p.tid = g->e[i].tid;
		if (p.tid == x->tid) {
			g->e[i].step = me->step;
			placed = true;
		} else if (happens_before(x->R, x->t, x->tid, x->owner, &p)) {
			dropped = true;
			continue;
		}
		g->e[k++] = g->e[i];
	}
	g->n = (uint8_t)k;
	if (dropped) { /* the kept entries' threads, and the highest of them */
		memset(g->tids, 0, sizeof g->tids);
		g->hi = 0;
		for (uint32_t i = 0; i < k; i++) {
			uint32_t t = g->e[i].tid;
			g->tids[t >> 6 & 3] |= 1ull << (t & 63);
			g->hi = t > g->hi ? t : g->hi;
		}
	}
	if (!placed)
		glist_add(g, x->tid, me->step);
	g->ok_gen = gen;
}

bool race_glist_read(const struct acc_ctx *x, struct cell *c, const struct rec *me)
{
	struct glist *g = glist_of(c);
	if (c->more && !g)
		return false;
	if (me->flags || (g && (me->insn != g->insn || me->clock != g->clock ||
				me->mask != g->mask))) {
		if (g && !race_widen(x, c))
			return true; /* (out of --max-memory: the launch stops) */
		return false;
	}
	if ((!g || (g->n == g->cap && g->cap < MAX_READERS)) && !(g = glist_room(x, c, g, me)))
		return true;
	uint64_t gen = tvc(x->R, x->t)->gen;
	if (g->ok_gen != gen) {
		glist_scan(x, g, me, gen);
		return true;
	}
	glist_place(g, x->tid, me->step);
	return true;
}
