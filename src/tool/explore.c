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

int explore_run(ptxi_module *m, const struct ptxi_config *cfg, const struct ptxi_arg *args,
		unsigned nargs, const struct dump_spec *dumps, unsigned ndumps, unsigned n)
{
	struct dumped ref;
	uint64_t first = cfg->seed ? cfg->seed : 1;
	if (cfg->jobs > 1)
		fprintf(stderr, "ptxi: note: --jobs %u: --explore runs each schedule on one thread\n",
			cfg->jobs);
	int st = launch(m, cfg, 0, args, nargs, dumps, ndumps, &ref);
	if (st != PTXI_OK) {
		print(&ref, dumps, ndumps);
		release(&ref);
		fprintf(stderr, "ptxi: --explore: the default schedule already %s\n",
			st == PTXI_DEADLOCK ? "deadlocks" : st == PTXI_RULE ? "breaks a rule" : "fails");
		return st;
	}
	for (unsigned i = 0; i < n; i++) {
		struct dumped got;
		uint64_t s = first + i;
		st = launch(m, cfg, s, args, nargs, dumps, ndumps, &got);
		bool same = got.len == ref.len && (!got.len || !memcmp(got.bytes, ref.bytes, got.len));
		if (st != PTXI_OK || !same) {
			char diff[160] = "";
			if (st == PTXI_OK)
				first_difference(&ref, &got, dumps, ndumps, diff, sizeof diff);
			print(&got, dumps, ndumps);
			fprintf(stderr, "ptxi: --explore: schedule %u of %u %s%s%s%s: rerun it with "
				"--seed %llu\n", i + 1, n,
				st == PTXI_DEADLOCK ? "deadlocks"
				: st == PTXI_RULE   ? "breaks a rule"
				: st != PTXI_OK     ? "fails"
						    : "gives other output than the default schedule",
				diff[0] ? " (" : "", diff, diff[0] ? ")" : "", (unsigned long long)s);
			release(&got);
			release(&ref);
			return st != PTXI_OK ? st : PTXI_RULE;
		}
		release(&got);
	}
	st = print(&ref, dumps, ndumps);
	release(&ref);
	fprintf(stderr, "ptxi: --explore: %u schedules besides the default: no rule broken, no "
		"deadlock, the same output\n", n);
	return st;
}
