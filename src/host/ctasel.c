/*
 * ctasel.c - --ctas: run part of a grid. A list of CTA indices and ranges ("0,5,9",
 * "0-15", "0-3,100") or an even spread ("sample:8") names CTAs by their linear index
 * (x fastest, then y, then z, as blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y *
 * blockIdx.z)). A CTA selects its whole cluster: the CTAs of a cluster run together or not
 * at all, as they share memory and barriers.
 */
#include "ctasel.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SELECTED (1u << 22) /* CTAs a list may name: a bigger part runs as the grid */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* A decimal number at *p (advanced past it); false if there is none or it overflows. */
static bool number(const char **p, uint64_t *v)
{
	if (**p < '0' || **p > '9')
		return false;
	char *end;
	errno = 0;
	unsigned long long n = strtoull(*p, &end, 10);
	if (errno)
		return false;
	*p = end;
	*v = n;
	return true;
}

struct cta_list {
	uint64_t *v;
	size_t n, cap;
};

static bool push(struct cta_list *l, uint64_t x)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 64;
		uint64_t *v = realloc(l->v, cap * sizeof *v);
		if (!v)
			return false;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = x;
	return true;
}

/* The CTAs the spec names, into l; false with why. */
static bool parse_list(const char *spec, uint64_t total, struct cta_list *l, char *why,
		       size_t whylen)
{
	if (strncmp(spec, "sample:", 7) == 0) {
		const char *p = spec + 7;
		uint64_t n;
		if (!number(&p, &n) || *p || !n) {
			snprintf(why, whylen, "--ctas '%s': sample:N wants a count of CTAs, at least 1",
				 spec);
			return false;
		}
		if (n > total)
			n = total;
		if (n > MAX_SELECTED)
			n = MAX_SELECTED;
		/* an even spread: CTA floor(i * total / n), the first and (for n > 1) near the last */
		for (uint64_t i = 0; i < n; i++)
			if (!push(l, (uint64_t)((unsigned __int128)i * total / n)))
				goto oom;
		return true;
	}
	const char *p = spec;
	do {
		const char *item = p;
		uint64_t a, b;
		if (!number(&p, &a))
			goto bad;
		b = a;
		if (*p == '-') {
			p++;
			if (!number(&p, &b))
				goto bad;
		}
		if (*p && *p != ',')
			goto bad;
		if (b < a) {
			snprintf(why, whylen, "--ctas: the range %.*s runs backwards", (int)(p - item),
				 item);
			return false;
		}
		if (b >= total) {
			snprintf(why, whylen, "--ctas: CTA %llu is outside the grid of %llu CTAs "
				 "(0-%llu)", (unsigned long long)b, (unsigned long long)total,
				 (unsigned long long)(total - 1));
			return false;
		}
		if (b - a >= MAX_SELECTED || l->n + (b - a) >= MAX_SELECTED) {
			snprintf(why, whylen, "--ctas: more than %u CTAs named: run the whole grid "
				 "(leave --ctas out)", MAX_SELECTED);
			return false;
		}
		for (uint64_t x = a; x <= b; x++)
			if (!push(l, x))
				goto oom;
	} while (*p++ == ',');
	return true;
bad:
	snprintf(why, whylen, "--ctas '%s': want CTA indices and ranges (0,5,9 or 0-15 or both) "
		 "or sample:N", spec);
	return false;
oom:
	snprintf(why, whylen, "out of memory");
	return false;
}

int ctasel_parse(const char *spec, const uint32_t grid[3], const uint32_t cluster[3],
		 struct ctasel *out, char *why, size_t whylen)
{
	uint64_t total = (uint64_t)grid[0] * grid[1] * grid[2];
	uint32_t nc[3] = {grid[0] / cluster[0], grid[1] / cluster[1], grid[2] / cluster[2]};
	struct cta_list l = {0};
	*out = (struct ctasel){0};
	if (!parse_list(spec, total, &l, why, whylen)) {
		free(l.v);
		return -1;
	}
	/* each CTA's cluster, by the cluster's linear index; sorted, once each */
	for (size_t i = 0; i < l.n; i++) {
		uint64_t c = l.v[i];
		uint64_t x = c % grid[0], y = c / grid[0] % grid[1], z = c / grid[0] / grid[1];
		l.v[i] = x / cluster[0] + (uint64_t)nc[0] * (y / cluster[1] + (uint64_t)nc[1] *
							     (z / cluster[2]));
	}
	qsort(l.v, l.n, sizeof *l.v, cmp_u64);
	size_t n = 0;
	for (size_t i = 0; i < l.n; i++)
		if (!n || l.v[n - 1] != l.v[i])
			l.v[n++] = l.v[i];
	out->clusters = l.v;
	out->nclusters = n;
	out->ctas = (uint64_t)n * cluster[0] * cluster[1] * cluster[2];
	out->total = total;
	return 0;
}

void ctasel_describe(const struct ctasel *s, const uint32_t grid[3], const uint32_t cluster[3],
		     char *buf, size_t size)
{
	uint32_t nc[3] = {grid[0] / cluster[0], grid[1] / cluster[1], grid[2] / cluster[2]};
	uint64_t per = (uint64_t)cluster[0] * cluster[1] * cluster[2];
	struct cta_list l = {0};
	/* the CTAs that run, by linear index (only to show them: a few suffice) */
	for (uint64_t i = 0; i < s->nclusters && l.n < 4096; i++) {
		uint64_t c = s->clusters[i];
		uint64_t cx = c % nc[0], cy = c / nc[0] % nc[1], cz = c / nc[0] / nc[1];
		for (uint64_t k = 0; k < per; k++) {
			uint64_t x = cx * cluster[0] + k % cluster[0];
			uint64_t y = cy * cluster[1] + k / cluster[0] % cluster[1];
			uint64_t z = cz * cluster[2] + k / cluster[0] / cluster[1];
			if (!push(&l, x + grid[0] * (y + (uint64_t)grid[1] * z)))
				break;
		}
	}
	qsort(l.v, l.n, sizeof *l.v, cmp_u64);
	size_t used = 0;
	unsigned shown = 0;
	buf[0] = 0;
	for (size_t i = 0; i < l.n && used < size;) {
		size_t j = i;
		while (j + 1 < l.n && l.v[j + 1] == l.v[j] + 1)
			j++;
		if (shown == 8) {
			snprintf(buf + used, size - used, ", ...");
			break;
		}
		used += (size_t)snprintf(buf + used, size - used, i == j ? "%s%llu" : "%s%llu-%llu",
					 shown ? ", " : "", (unsigned long long)l.v[i],
					 (unsigned long long)l.v[j]);
		shown++;
		i = j + 1;
	}
	if (l.n < s->ctas && shown < 8 && used < size)
		snprintf(buf + used, size - used, ", ...");
	free(l.v);
}
