/*
 * cli_expect.c - --expect: after the launch, an output buffer (as --dump names it) is
 * compared element by element with a reference file of raw bytes. An element differs when
 * |got - want| > atol + rtol * |want| (NaN matches only NaN), or, with neither tolerance,
 * when its bits differ. The first mismatch and the count are reported, and exit status 1.
 */
#include "cli_expect.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The value of "KEY=" at s (s points past it), into *v. */
static bool tol(const char *s, size_t n, double *v)
{
	char buf[64], *end;
	if (!n || n >= sizeof buf)
		return false;
	memcpy(buf, s, n);
	buf[n] = 0;
	*v = strtod(buf, &end);
	return !*end && *v >= 0 && isfinite(*v);
}

bool cli_parse_expect(const char *s, struct expect_spec *e, struct cli_owned *own)
{
	*e = (struct expect_spec){.type = cli_elem_type("f32", 3)};
	if (!cli_parse_out(s, &e->d))
		return false;
	if (e->d.symbol)
		cli_keep(own, (void *)e->d.symbol);
	/* the options after the path: ",rtol=", ",atol=", ",type=" */
	const char *path = e->d.path, *opt = NULL;
	for (const char *p = path; (p = strchr(p, ',')); p++)
		if (!strncmp(p, ",rtol=", 6) || !strncmp(p, ",atol=", 6) || !strncmp(p, ",type=", 6)) {
			opt = p;
			break;
		}
	if (!opt)
		return true;
	char *kept = cli_keep(own, strndup(path, (size_t)(opt - path)));
	if (!kept || !*kept)
		return false;
	e->d.path = kept;
	while (*opt == ',') {
		const char *v = opt + 6;
		size_t n = strcspn(v, ",");
		if (!strncmp(opt, ",rtol=", 6) ? !tol(v, n, &e->rtol)
		    : !strncmp(opt, ",atol=", 6) ? !tol(v, n, &e->atol)
		    : !strncmp(opt, ",type=", 6) ? !(e->type = cli_elem_type(v, n))
						 : true)
			return false;
		opt = v + n;
	}
	return !*opt;
}

static unsigned char *read_file(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	unsigned char *p = NULL;
	size_t cap = 0;
	*n = 0;
	for (;;) {
		if (*n == cap) {
			cap = cap ? cap * 2 : 65536;
			unsigned char *np = realloc(p, cap);
			if (!np) {
				free(p);
				fclose(f);
				errno = ENOMEM;
				return NULL;
			}
			p = np;
		}
		size_t got = fread(p + *n, 1, cap - *n, f);
		*n += got;
		if (got == 0)
			break;
	}
	bool bad = ferror(f);
	fclose(f);
	if (bad) {
		free(p);
		errno = EIO;
		return NULL;
	}
	return p;
}

static bool differs(const struct expect_spec *e, const unsigned char *got,
		    const unsigned char *want)
{
	if (e->rtol == 0 && e->atol == 0)
		return memcmp(got, want, e->type->size) != 0;
	double g = cli_elem_value(e->type, got), w = cli_elem_value(e->type, want);
	if (isnan(g) || isnan(w))
		return isnan(g) != isnan(w);
	return fabs(g - w) > e->atol + e->rtol * fabs(w);
}

static void show(const struct elem_type *t, const unsigned char *p, char *buf, size_t n)
{
	if (t->kind == 'u' && t->size == 8) {
		uint64_t v;
		memcpy(&v, p, 8);
		snprintf(buf, n, "%" PRIu64, v);
	} else if (t->kind == 's' && t->size == 8) {
		int64_t v;
		memcpy(&v, p, 8);
		snprintf(buf, n, "%" PRId64, v);
	} else {
		snprintf(buf, n, "%.9g", cli_elem_value(t, p));
	}
}

/* One --expect: 0 (all match), 1 (some differ) or 2 (no buffer, no file). */
static int expect_one(ptxi_module *m, const ptxi_run *r, const struct expect_spec *e)
{
	char why[1024];
	size_t glen = 0, wlen = 0;
	const unsigned char *got = cli_dump_bytes(m, r, &e->d, &glen, why, sizeof why);
	if (!got) {
		fprintf(stderr, "ptxi: error: --expect %s: %s\n", e->d.text, why);
		return 2;
	}
	unsigned char *want = read_file(e->d.path, &wlen);
	if (!want) {
		fprintf(stderr, "ptxi: error: --expect %s: cannot read '%s': %s\n", e->d.text,
			e->d.path, strerror(errno));
		return 2;
	}
	unsigned size = e->type->size;
	int st = 0;
	if (wlen > glen || wlen % size) {
		fprintf(stderr, "ptxi: error: --expect %s: '%s' has %zu bytes; the buffer has %zu "
			"(want at most that many, a whole number of %u-byte %s elements)\n",
			e->d.text, e->d.path, wlen, glen, size, e->type->name);
		free(want);
		return 2;
	}
	size_t n = wlen / size, bad = 0, first = 0;
	for (size_t i = 0; i < n; i++)
		if (differs(e, got + i * size, want + i * size) && !bad++)
			first = i;
	if (bad) {
		char g[64], w[64];
		show(e->type, got + first * size, g, sizeof g);
		show(e->type, want + first * size, w, sizeof w);
		fprintf(stderr, "ptxi: error: --expect %s: %zu of %zu %s elements differ (rtol %g, "
			"atol %g); the first is element %zu (byte %zu): %s, expected %s\n",
			e->d.text, bad, n, e->type->name, e->rtol, e->atol, first, first * size, g, w);
		st = 1;
	} else {
		fprintf(stderr, "ptxi: --expect %s: all %zu %s elements match\n", e->d.text, n,
			e->type->name);
	}
	free(want);
	return st;
}

int cli_expect_all(ptxi_module *m, const ptxi_run *r, const struct expect_spec *e, unsigned n)
{
	int st = 0;
	for (unsigned i = 0; i < n; i++) {
		int s = expect_one(m, r, &e[i]);
		st = s > st ? s : st;
	}
	return st;
}
