/*
 * race_vc.c - vector clocks: one dense chunk of clocks per CTA that appears, shared by
 * reference (copy on write), each change renaming the vector (gen) so that joins of a
 * vector already covered are skipped.
 */
#include "race_priv.h"

#include <stdlib.h>
#include <string.h>

const uint32_t vc_no_clocks[1024]; /* blocks have at most 1024 threads */

struct vc *vc_new(struct race *R)
{
	struct vc *v = calloc(1, sizeof *v);
	if (v) {
		v->refs = 1;
		v->gen = ++R->gen;
	}
	return v;
}

void vc_free(struct vc *v)
{
	for (uint32_t i = 0; i < v->n; i++)
		free(v->ch[i].c);
	free(v->ch);
	free(v);
}

/* The chunk of `cta` in v (which the caller owns), made if missing; NULL: out of memory. */
uint32_t *vc_chunk(struct race *R, struct vc *v, uint32_t cta)
{
	int i = vc_find(v, cta);
	if ((uint32_t)i < v->n && v->ch[i].cta == cta)
		return v->ch[i].c;
	if (v->n == v->cap) {
		uint32_t cap = v->cap ? v->cap * 2 : 2;
		struct vchunk *ch = realloc(v->ch, cap * sizeof *ch);
		if (!ch)
			return NULL;
		v->ch = ch;
		v->cap = cap;
	}
	uint32_t *c = R->spare_c;
	if (c) {
		R->spare_c = NULL;
		memset(c, 0, R->nt * sizeof *c);
	} else if (!(c = calloc(R->nt, sizeof *c))) {
		return NULL;
	}
	memmove(&v->ch[i + 1], &v->ch[i], (v->n - (uint32_t)i) * sizeof *v->ch);
	v->ch[i] = (struct vchunk){cta, c};
	v->n++;
	return c;
}

/* An empty vector: the spare one if there is (its chunk kept for vc_chunk), else new. */
static struct vc *vc_fresh(struct race *R)
{
	struct vc *v = R->spare;
	if (!v)
		return vc_new(R);
	R->spare = NULL;
	if (R->spare_c)
		free(R->spare_c);
	R->spare_c = v->ch[0].c;
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
		vc_free(v);
		return;
	}
	R->spare = v;
}

static struct vc *vc_copy(struct race *R, const struct vc *s)
{
	struct vc *v = vc_new(R);
	if (!v)
		return NULL;
	v->joined = s->joined;
	for (uint32_t i = 0; i < s->n; i++) {
		uint32_t *c = vc_chunk(R, v, s->ch[i].cta);
		if (c)
			memcpy(c, s->ch[i].c, R->nt * sizeof *c);
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
		vc_put(*p);
		*p = c;
	}
	return *p;
}

/* c[k] = max(c[k], x[k]) for k < n: blocks of 8 the vectoriser takes (the two never
 * overlap: chunks of two vectors), built for AVX2 too where the compiler can (memory.c's
 * habit). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && \
	!defined(__SANITIZE_THREAD__)
__attribute__((target_clones("arch=x86-64-v3", "default")))
#endif
static void max_into(uint32_t *restrict c, const uint32_t *restrict x, uint32_t n)
{
	uint32_t k = 0;
	for (; k + 8 <= n; k += 8)
#pragma GCC unroll 8
		for (uint32_t j = 0; j < 8; j++)
			c[k + j] = c[k + j] > x[k + j] ? c[k + j] : x[k + j];
	for (; k < n; k++)
		c[k] = c[k] > x[k] ? c[k] : x[k];
}

/* c[k] = max(a[k], x[k]) for k < n (max_into's terms). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && \
	!defined(__SANITIZE_THREAD__)
__attribute__((target_clones("arch=x86-64-v3", "default")))
#endif
static void max_of(uint32_t *restrict c, const uint32_t *restrict a,
		   const uint32_t *restrict x, uint32_t n)
{
	uint32_t k = 0;
	for (; k + 8 <= n; k += 8)
#pragma GCC unroll 8
		for (uint32_t j = 0; j < 8; j++)
			c[k + j] = a[k + j] > x[k + j] ? a[k + j] : x[k + j];
	for (; k < n; k++)
		c[k] = a[k] > x[k] ? a[k] : x[k];
}

/* A chunk of clocks to fill: the spare one if there is (vc_chunk's), else new. */
static uint32_t *chunk_new(struct race *R)
{
	uint32_t *c = R->spare_c;
	if (c)
		R->spare_c = NULL;
	return c ? c : malloc(R->nt * sizeof *c);
}

struct vc *vc_joined(struct race *R, const struct vc *a, const struct vc *s)
{
	struct vc *v = vc_new(R);
	if (!v)
		return NULL;
	if (a->joined == s->gen) { /* a covers s (vc_join would skip it): a copy */
		v->joined = a->joined;
		for (uint32_t i = 0; i < a->n; i++) {
			uint32_t *c = vc_chunk(R, v, a->ch[i].cta);
			if (c)
				memcpy(c, a->ch[i].c, R->nt * sizeof *c);
		}
		return v;
	}
	if (!(v->ch = malloc((a->n + s->n) * sizeof *v->ch))) {
		vc_free(v);
		return NULL;
	}
	v->cap = a->n + s->n;
	uint32_t i = 0, j = 0;
	while (i < a->n || j < s->n) { /* the two sorted lists of chunks merged */
		bool ta = i < a->n && (j == s->n || a->ch[i].cta <= s->ch[j].cta);
		bool ts = j < s->n && (i == a->n || s->ch[j].cta <= a->ch[i].cta);
		uint32_t *c = chunk_new(R);
		if (!c) {
			vc_free(v);
			return NULL;
		}
		if (ta && ts)
			max_of(c, a->ch[i].c, s->ch[j].c, R->nt);
		else
			memcpy(c, ta ? a->ch[i].c : s->ch[j].c, R->nt * sizeof *c);
		v->ch[v->n++] = (struct vchunk){ta ? a->ch[i].cta : s->ch[j].cta, c};
		i += ta;
		j += ts;
	}
	v->gen = ++R->gen; /* (the gens vc_own's copy and vc_join's would take) */
	v->joined = s->gen;
	return v;
}

void vc_join(struct race *R, struct vc *d, const struct vc *s)
{
	if (!d || !s || d->joined == s->gen || d == s)
		return;
	bool empty = d->n == 0; /* a fresh vector (a barrier's first arrival): a copy */
	uint32_t j = 0; /* d's chunks, sorted as s's: walked along (vc_chunk when missing) */
	for (uint32_t i = 0; i < s->n; i++) {
		uint32_t cta = s->ch[i].cta, *c;
		while (j < d->n && d->ch[j].cta < cta)
			j++;
		if (j < d->n && d->ch[j].cta == cta)
			c = d->ch[j].c;
		else if (!(c = vc_chunk(R, d, cta)))
			return;
		const uint32_t *x = s->ch[i].c;
		if (empty) {
			memcpy(c, x, R->nt * sizeof *c);
			continue;
		}
		max_into(c, x, R->nt);
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
