/*
 * explore.c - schedule exploration (--explore N): seeds 1..N (or N seeds from --seed on)
 * change the order in which warps start each round and when asynchronous copies land
 * (sched.c, async.c); the default schedule (no seed) is the reference the others are
 * compared with.
 */
#include "explore.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The dumped buffers of one run, one after another. */
struct dumped {
	unsigned char *bytes;
	size_t len;
	size_t *at;             /* where each dumped argument starts                       */
};

/* Text kept from a sink. */
struct text {
	char *s;
	size_t len;
};

/* The bytes of every dump after run r (none when r is NULL: the launch did not run). False,
 * with no bytes kept, when one cannot be read (reported) or memory runs out. */
static bool collect(ptxi_module *m, ptxi_run *r, const struct dump_spec *dumps, unsigned ndumps,
		    struct dumped *d)
{
	memset(d, 0, sizeof *d);
	d->at = calloc(ndumps + 1, sizeof *d->at);
	if (!d->at)
		return false;
	for (unsigned i = 0; r && i < ndumps; i++) {
		size_t n = 0;
		char why[300];
		const unsigned char *p = cli_dump_bytes(m, r, &dumps[i], &n, why, sizeof why);
		unsigned char *b = p ? realloc(d->bytes, d->len + n + 1) : NULL;
		if (!b) {
			if (!p) /* as a launch without --explore reports it */
				cli_dump_error(&dumps[i], why);
			free(d->bytes);
			d->bytes = NULL;
			return false;
		}
		d->at[i] = d->len;
		memcpy(b + d->len, p, n);
		d->bytes = b;
		d->len += n;
	}
	d->at[ndumps] = d->len;
	return true;
}

/* The dumps of one run: --dump on stdout, --out to its file; 0, or 2 after a message. None
 * when the launch did not run (d->bytes NULL). */
static int print(const struct dumped *d, const struct dump_spec *dumps, unsigned ndumps)
{
	int st = 0;
	for (unsigned i = 0; d->bytes && i < ndumps; i++)
		if (cli_dump_emit(&dumps[i], d->bytes + d->at[i], d->at[i + 1] - d->at[i]))
			st = 2;
	fflush(stdout);
	return st;
}

static void release(struct dumped *d)
{
	free(d->bytes);
	free(d->at);
}

/* One schedule: its status, and its dumps in *d. */
static int launch(ptxi_module *m, const struct ptxi_config *cfg, uint64_t seed,
		  const struct ptxi_arg *args, unsigned nargs, const struct dump_spec *dumps,
		  unsigned ndumps, struct dumped *d)
{
	struct ptxi_config c = *cfg;
	c.seed = seed;
	c.jobs = 1; /* explore_run says so */
	ptxi_run *r = NULL;
	int st = ptxi_launch(m, &c, args, nargs, &r);
	if (!collect(m, r, dumps, ndumps, d) && st == PTXI_OK)
		st = PTXI_INVALID;
	ptxi_run_free(r);
	return st;
}

/* The first word where two runs' dumps differ: "argument 0, word 5: 00000007, not 00000003" */
static void first_difference(const struct dumped *a, const struct dumped *b,
			     const struct dump_spec *dumps, unsigned ndumps, char *out, size_t cap)
{
	for (unsigned i = 0; i < ndumps; i++)
		for (size_t k = a->at[i]; k + 4 <= a->at[i + 1]; k += 4) {
			uint32_t x, y;
			memcpy(&x, a->bytes + k, 4);
			memcpy(&y, b->bytes + k, 4);
			if (x != y) {
				snprintf(out, cap, "%s %s, word %zu: %08x, not %08x",
					 dumps[i].symbol ? "variable" : "argument", dumps[i].text,
					 (k - a->at[i]) / 4, y, x);
				return;
			}
		}
	snprintf(out, cap, "the dumps differ in size");
}

/* A schedule's diagnostics, kept to show only a failure not seen yet. */
static void keep_text(void *ctx, int level, const char *text)
{
	(void)level;
	struct text *t = ctx;
	size_t n = strlen(text);
	char *p = realloc(t->s, t->len + n + 1);
	if (!p)
		return;
	memcpy(p + t->len, text, n + 1);
	t->s = p;
	t->len += n;
}

/* What tells two failures apart: the status and, for each error and warning, its position
 * and rule ("k.ptx:12:3 [data-race]"), the first line of each report; sorted, so that the
 * threads named and the order reports come in do not matter. */
static char *signature(int st, const char *text, const char *diff)
{
	size_t n = 0, cap = 16;
	char **keys = malloc(cap * sizeof *keys), *out = NULL;
	for (const char *p = text ? text : ""; keys && *p;) {
		size_t len = strcspn(p, "\n");
		const char *lvl = memmem(p, len, ": error: ", 9);
		if (!lvl)
			lvl = memmem(p, len, ": warning: ", 11);
		const char *rule = NULL;
		for (const char *q = p; q < p + len; q++)
			if (*q == '[')
				rule = q;
		if (*p != ' ' && lvl && rule && n < 4096) {
			if (n == cap) {
				char **k = realloc(keys, 2 * cap * sizeof *keys);
				if (!k)
					break;
				keys = k;
				cap *= 2;
			}
			size_t a = (size_t)(lvl - p), b = (size_t)(p + len - rule);
			char *k = malloc(a + b + 2);
			if (k) {
				memcpy(k, p, a);
				k[a] = ' ';
				memcpy(k + a + 1, rule, b);
				k[a + 1 + b] = '\0';
				keys[n++] = k;
			}
		}
		p += len + (p[len] == '\n');
	}
	for (size_t i = 1; i < n; i++) /* insertion sort: a handful of keys */
		for (size_t j = i; j > 0 && strcmp(keys[j - 1], keys[j]) > 0; j--) {
			char *t = keys[j];
			keys[j] = keys[j - 1];
			keys[j - 1] = t;
		}
	struct text t = {0};
	char head[200];
	snprintf(head, sizeof head, "%d %s\n", st, diff ? diff : "");
	keep_text(&t, 0, head);
	for (size_t i = 0; i < n; i++) {
		if (!i || strcmp(keys[i], keys[i - 1]))
			keep_text(&t, 0, keys[i]);
		keep_text(&t, 0, "\n");
	}
	for (size_t i = 0; i < n; i++)
		free(keys[i]);
	free(keys);
	out = t.s;
	return out;
}

static const char *failure_name(int st)
{
	return st == PTXI_DEADLOCK ? "deadlocks" : st == PTXI_RULE ? "breaks a rule"
	       : st != PTXI_OK ? "fails" : "gives other output than the default schedule";
}

/* Whether sig is new (then kept in *seen). */
static bool is_new(char ***seen, unsigned *nseen, char *sig)
{
	for (unsigned i = 0; i < *nseen; i++)
		if (sig && !strcmp((*seen)[i], sig)) {
			free(sig);
			return false;
		}
	char **s = sig ? realloc(*seen, (*nseen + 1) * sizeof **seen) : NULL;
	if (!s) {
		free(sig);
		return true;
	}
	*seen = s;
	s[(*nseen)++] = sig;
	return true;
}

/*
 * The default schedule, then seeds: every schedule runs, whatever the ones before gave
 * (a default that deadlocks may hide a race another order shows). Each failure is shown
 * once: a schedule that fails the way an earlier one did (the same status, the same rules
 * at the same places) prints nothing. The status is the first failure's.
 */
int explore_run(ptxi_module *m, const struct ptxi_config *cfg, const struct ptxi_arg *args,
		unsigned nargs, const struct dump_spec *dumps, unsigned ndumps, unsigned n)
{
	struct dumped ref;
	uint64_t first = cfg->seed ? cfg->seed : 1;
	if (cfg->jobs > 1)
		fprintf(stderr, "ptxi: note: --jobs %u: --explore runs each schedule on one thread\n",
			cfg->jobs);
	struct ptxi_config c = *cfg;
	struct text out = {0};
	c.sink = keep_text;
	c.sink_ctx = &out;
	int st = launch(m, &c, 0, args, nargs, dumps, ndumps, &ref);
	if (out.s)
		fputs(out.s, stderr);
	char **seen = NULL;
	unsigned nseen = 0, failures = 0;
	int status = st;
	if (st != PTXI_OK) {
		print(&ref, dumps, ndumps);
		bool on = st == PTXI_RULE || st == PTXI_DEADLOCK; /* else bad input: stop */
		fprintf(stderr, "ptxi: --explore: the default schedule %s%s%s\n",
			on ? "" : "already ", failure_name(st), on ? "; trying the others" : "");
		if (!on) {
			release(&ref);
			free(out.s);
			return st;
		}
		is_new(&seen, &nseen, signature(st, out.s, NULL));
		failures++;
	}
	for (unsigned i = 0; i < n; i++) {
		struct dumped got;
		uint64_t s = first + i;
		free(out.s);
		out = (struct text){0};
		int gst = launch(m, &c, s, args, nargs, dumps, ndumps, &got);
		bool same = status != PTXI_OK ||
			    (got.len == ref.len && (!got.len || !memcmp(got.bytes, ref.bytes, got.len)));
		if (gst != PTXI_OK || !same) {
			char diff[160] = "";
			if (gst == PTXI_OK)
				first_difference(&ref, &got, dumps, ndumps, diff, sizeof diff);
			if (is_new(&seen, &nseen, signature(gst, out.s, diff))) {
				if (out.s)
					fputs(out.s, stderr);
				if (!failures)
					print(&got, dumps, ndumps);
				fprintf(stderr, "ptxi: --explore: schedule %u of %u %s%s%s%s: rerun it "
					"with --seed %llu\n", i + 1, n, failure_name(gst),
					diff[0] ? " (" : "", diff, diff[0] ? ")" : "",
					(unsigned long long)s);
				failures++;
			}
			if (status == PTXI_OK)
				status = gst != PTXI_OK ? gst : PTXI_RULE;
		}
		release(&got);
	}
	free(out.s);
	for (unsigned i = 0; i < nseen; i++)
		free(seen[i]);
	free(seen);
	if (status != PTXI_OK) {
		release(&ref);
		fprintf(stderr, "ptxi: --explore: %u schedules besides the default: %u distinct "
			"failure%s shown\n", n, failures, failures == 1 ? "" : "s");
		return status;
	}
	st = print(&ref, dumps, ndumps);
	release(&ref);
	fprintf(stderr, "ptxi: --explore: %u schedules besides the default: no rule broken, no "
		"deadlock, the same output\n", n);
	return st;
}
