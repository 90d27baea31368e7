/*
 * race_vc.c - vector clocks: one dense chunk of clocks per CTA that appears, shared by
 * reference (copy on write), each change renaming the vector (gen) so that joins of a
 * vector already covered are skipped. Chunks are shared too, between the vectors that
 * copied or joined them, until one writes (vc_chunk): after a grid-wide synchronisation
 * every thread's vector names every CTA, and a copy or join of such vectors must not cost
 * the whole grid's clocks.
 */
#include "race_priv.h"

#include <stdlib.h>
#include <string.h>

#include "report/rules.h"

const uint32_t vc_no_clocks[1024]; /* blocks have at most 1024 threads */

/* Vectors, their chunk lists and chunks are charged against --max-memory as they are made:
 * the launch's one count, whichever worker made them (the thread that replays a worker's
 * log frees the vectors it holds, and gives their bytes back there). Each detector state
 * takes bytes from the count VC_CREDIT at a time and keeps what its frees give back, up to
 * twice that (R->credit), so that a vector made and dropped per barrier or copy costs no
 * atomic update of the count. */
#define VC_CREDIT (16u << 10)

/* The credit refilled, or `bytes` charged alone; false: past --max-memory, and the launch
 * stops (a caller that goes on with less changes nothing it shows). */
static bool vc_charge_more(struct race *R, uint64_t bytes)
{
	if (mem_charge(R->mem, bytes + VC_CREDIT)) {
		R->credit += VC_CREDIT;
		return true;
	}
	return mem_charge(R->mem, bytes) ||
	       launch_charge(R->L, bytes, "the data-race detector's vector clocks");
}

static inline bool vc_charge(struct race *R, uint64_t bytes)
{
	if (R->credit >= bytes) {
		R->credit -= bytes;
		return true;
	}
	return vc_charge_more(R, bytes);
}

/* bytes given back: to R's credit (what passes twice VC_CREDIT to the count), or with no R
 * (a vector dropped where no detector state is at hand) to m at once. */
static void vc_uncharge(struct race *R, struct memory *m, uint64_t bytes)
{
	if (!R) {
		mem_release(m, bytes);
		return;
	}
	R->credit += bytes;
	if (R->credit > 2 * VC_CREDIT) {
		mem_release(R->mem, R->credit - VC_CREDIT);
		R->credit = VC_CREDIT;
	}
}

struct vc *vc_new(struct race *R)
{
	if (!vc_charge(R, sizeof(struct vc)))
		return NULL;
	struct vc *v = calloc(1, sizeof *v);
	if (!v) {
		vc_uncharge(R, NULL, sizeof *v);
		return NULL;
	}
	v->refs = 1;
	v->gen = ++R->gen;
	return v;
}

/* (a chunk's header, struct chunk_head, and chunk_head_of(): race_priv.h) */

static uint32_t *chunk_share(uint32_t *c)
{
	chunk_head_of(c)->refs++;
	return c;
}

static inline uint64_t chunk_bytes(uint32_t n)
{
	return (n + HEAD_WORDS) * (uint64_t)sizeof(uint32_t);
}

static void chunk_free(struct race *R, struct memory *m, uint32_t *c)
{
	vc_uncharge(R, m, chunk_bytes(chunk_head_of(c)->n));
	free(chunk_head_of(c));
}

static void chunk_put(struct race *R, struct memory *m, uint32_t *c)
{
	if (--chunk_head_of(c)->refs == 0)
		chunk_free(R, m, c);
}

/* A chunk held once, zeroed unless the caller writes all its clocks (`zero` false): the
 * spare if there is one; NULL: out of memory. */
static uint32_t *chunk_new(struct race *R, bool zero)
{
	uint32_t *c = R->spare_c;
	if (c) {
		R->spare_c = NULL;
		if (zero)
			memset(c, 0, R->nt * sizeof *c);
	} else {
		if (!vc_charge(R, chunk_bytes(R->nt)))
			return NULL;
		uint32_t *a = calloc(R->nt + HEAD_WORDS, sizeof *a);
		if (!a) {
			vc_uncharge(R, NULL, chunk_bytes(R->nt));
			return NULL;
		}
		c = a + HEAD_WORDS;
	}
	*chunk_head_of(c) = (struct chunk_head){.refs = 1, .n = R->nt, .id = ++R->gen};
	return c;
}

/* x held by one more vector of R's: shared if R made it, else copied (another worker's
 * chunk: its count is that thread's to change); NULL: out of memory. */
static uint32_t *chunk_take(struct race *R, uint32_t *x)
{
	if (chunk_head_of(x)->id >> 48 == R->gen >> 48) /* ids carry their worker (race_shard.c) */
		return chunk_share(x);
	uint32_t *c = chunk_new(R, false);
	if (c) {
		memcpy(c, x, R->nt * sizeof *c);
		chunk_head_of(c)->cover = chunk_head_of(x)->id;
	}
	return c;
}

void vc_free(struct race *R, struct memory *m, struct vc *v)
{
	for (uint32_t i = 0; i < v->n; i++)
		chunk_put(R, m, v->ch[i].c);
	vc_uncharge(R, m, sizeof *v + v->cap * sizeof *v->ch);
	free(v->ch);
	free(v);
}

void vc_free_spares(struct race *R)
{
	if (R->spare)
		vc_free(R, NULL, R->spare);
	if (R->spare_c)
		chunk_free(R, NULL, R->spare_c);
	R->spare = NULL;
	R->spare_c = NULL;
	mem_release(R->mem, R->credit); /* (the last of the detector's vectors) */
	R->credit = 0;
}

/* The index of cta's chunk in v, a slot with no chunk yet (NULL) made if missing; -1: out
 * of memory. */
static int vc_slot_from(struct race *R, struct vc *v, uint32_t cta, int i)
{
	if ((uint32_t)i < v->n && v->ch[i].cta == cta)
		return i;
	if (v->n == v->cap) {
		uint32_t cap = v->cap ? v->cap * 2 : 2;
		if (!vc_charge(R, (cap - v->cap) * sizeof *v->ch))
			return -1;
		struct vchunk *ch = realloc(v->ch, cap * sizeof *ch);
		if (!ch) {
			vc_uncharge(R, NULL, (cap - v->cap) * sizeof *v->ch);
			return -1;
		}
		v->ch = ch;
		v->cap = cap;
	}
	if ((uint32_t)i < v->n) /* (not appended) */
		memmove(&v->ch[i + 1], &v->ch[i], (v->n - (uint32_t)i) * sizeof *v->ch);
	v->ch[i] = (struct vchunk){cta, NULL};
	v->n++;
	return i;
}

static int vc_slot(struct race *R, struct vc *v, uint32_t cta)
{
	return vc_slot_from(R, v, cta, vc_find(v, cta));
}

static void vc_unslot(struct vc *v, int i)
{
	v->n--;
	memmove(&v->ch[i], &v->ch[i + 1], (v->n - (uint32_t)i) * sizeof *v->ch);
}

/* The chunk of `cta` in v (which the caller owns), made if missing and made v's alone if
 * shared, to be written (`whole`: all of it, so that a new one is not zeroed first); NULL:
 * out of memory. */
uint32_t *vc_chunk_for(struct race *R, struct vc *v, uint32_t cta, bool whole)
{
	int i = vc_slot(R, v, cta);
	if (i < 0)
		return NULL;
	uint32_t *c = v->ch[i].c;
	if (c && chunk_head_of(c)->refs == 1) {
		chunk_head_of(c)->id = ++R->gen; /* to be written: what covered it may not now */
		return c;
	}
	uint32_t *n = chunk_new(R, !c && !whole); /* (else all of it copied or written) */
	if (!n) {
		if (!c)
			vc_unslot(v, i);
		return NULL;
	}
	if (c) {
		memcpy(n, c, R->nt * sizeof *n);
		chunk_head_of(n)->cover = chunk_head_of(c)->id;
		chunk_put(R, NULL, c);
	}
	v->ch[i].c = n;
	return n;
}

/* An empty vector: the spare one if there is (its chunk kept for chunk_new), else new. */
static struct vc *vc_fresh(struct race *R)
{
	struct vc *v = R->spare;
	if (!v)
		return vc_new(R);
	R->spare = NULL;
	uint32_t *c = v->ch[0].c;
	if (chunk_head_of(c)->refs == 1 && !R->spare_c)
		R->spare_c = c;
	else
		chunk_put(R, NULL, c);
	v->n = 0;
	v->refs = 1;
	v->gen = ++R->gen;
	v->joined = 0;
	return v;
}

/* v, whose last reference went: kept as the spare when it has one chunk (a barrier's
 * vector, let go by its last waiter), else freed. */
void vc_recycle(struct race *R, struct vc *v)
{
	if (R->spare || v->n != 1) {
		vc_free(R, NULL, v);
		return;
	}
	R->spare = v;
}

/* A copy of s: its chunks shared. */
static struct vc *vc_copy(struct race *R, const struct vc *s)
{
	struct vc *v = vc_new(R);
	if (!v)
		return NULL;
	uint32_t cap = s->n ? s->n : 1;
	if (!vc_charge(R, cap * sizeof *v->ch)) {
		vc_free(R, NULL, v);
		return NULL;
	}
	v->ch = malloc(cap * sizeof *v->ch);
	if (!v->ch) {
		vc_uncharge(R, NULL, cap * sizeof *v->ch);
		vc_free(R, NULL, v);
		return NULL;
	}
	v->cap = cap;
	v->joined = s->joined;
	for (uint32_t i = 0; i < s->n; i++) {
		uint32_t *c = chunk_take(R, s->ch[i].c);
		if (!c) {
			vc_free(R, NULL, v);
			return NULL;
		}
		v->ch[v->n++] = (struct vchunk){s->ch[i].cta, c};
	}
	return v;
}

/* *p, made exclusively the caller's (copied if shared, made if NULL). */
struct vc *vc_own(struct race *R, struct vc **p)
{
	if (!*p)
		*p = vc_fresh(R);
	else if ((*p)->refs > 1) {
		struct vc *c = vc_copy(R, *p);
		if (!c)
			return NULL;
		vc_put(R, *p);
		*p = c;
	}
	return *p;
}

/* How chunks c and x of n clocks compare: CLK_UP if x has a clock above c's (joining x
 * changes c), CLK_DOWN if c has one above x's (x cannot simply replace c). Eight clocks
 * a step, since a grid-wide join compares every CTA's chunk. */
enum { CLK_UP = 1, CLK_DOWN = 2 };
RACE_CLONES static unsigned chunk_order(const uint32_t *c, const uint32_t *x, uint32_t n)
{
	u32x8 up = {0}, down = {0};
	uint32_t k = 0, u = 0, dn = 0;
	for (; k + 8 <= n; k += 8) {
		u32x8 a, b;
		memcpy(&a, c + k, sizeof a);
		memcpy(&b, x + k, sizeof b);
		up |= (u32x8)(b > a);
		down |= (u32x8)(a > b);
	}
	for (int i = 0; i < 8; i++)
		u |= up[i], dn |= down[i];
	for (; k < n; k++)
		u |= x[k] > c[k], dn |= c[k] > x[k];
	return (u ? CLK_UP : 0) | (dn ? CLK_DOWN : 0);
}

/* c = max(c, x), n clocks. */
RACE_CLONES static void chunk_max(uint32_t *c, const uint32_t *x, uint32_t n)
{
	uint32_t k = 0;
	for (; k + 8 <= n; k += 8) {
		u32x8 a, b;
		memcpy(&a, c + k, sizeof a);
		memcpy(&b, x + k, sizeof b);
		u32x8 gt = (u32x8)(a > b);
		a = (a & gt) | (b & ~gt);
		memcpy(c + k, &a, sizeof a);
	}
	for (; k < n; k++)
		c[k] = c[k] > x[k] ? c[k] : x[k];
}

struct vc *vc_joined(struct race *R, const struct vc *a, const struct vc *s)
{
	struct vc *v = vc_copy(R, a);
	vc_join(R, v, s);
	return v;
}

/* d = max(d, s). A chunk d lacks, or one that s's covers, becomes s's (shared); a chunk
 * that covers s's is left alone; only chunks that differ both ways are merged into a
 * chunk of d's own. */
void vc_join(struct race *R, struct vc *d, const struct vc *s)
{
	if (!d || !s || d->joined == s->gen || d == s)
		return;
	int j = 0; /* d's chunks, sorted as s's: walked along, not searched */
	for (uint32_t i = 0; i < s->n; i++) {
		uint32_t *x = s->ch[i].c;
		while ((uint32_t)j < d->n && d->ch[j].cta < s->ch[i].cta)
			j++;
		if ((j = vc_slot_from(R, d, s->ch[i].cta, j)) < 0)
			return;
		uint32_t *c = d->ch[j].c;
		if (c == x || (c && chunk_head_of(c)->cover == chunk_head_of(x)->id))
			continue;
		unsigned order = c && chunk_head_of(x)->cover != chunk_head_of(c)->id ? chunk_order(c, x, R->nt)
								     : CLK_UP;
		if (c && !(order & CLK_UP)) {
			chunk_head_of(c)->cover = chunk_head_of(x)->id;
			continue;
		}
		if (!c || !(order & CLK_DOWN)) { /* s's chunk covers d's */
			uint32_t *t = chunk_take(R, x);
			if (!t) {
				if (!c)
					vc_unslot(d, j);
				return;
			}
			if (c)
				chunk_put(R, NULL, c);
			d->ch[j].c = t;
			continue;
		}
		if (!(c = vc_chunk(R, d, s->ch[i].cta)))
			return;
		chunk_max(c, x, R->nt);
	}
	d->gen = ++R->gen;
	d->joined = s->gen;
}

void vc_raise(struct race *R, struct vc *v, uint32_t tid, uint32_t clock)
{
	uint32_t *c = v ? vc_chunk(R, v, cta_of(R, tid)) : NULL;
	if (c && c[local_of(R, tid)] < clock) {
		c[local_of(R, tid)] = clock;
		v->gen = ++R->gen;
	}
}
