/*
 * explore.c - schedule exploration (--explore N): seeds 1..N (or N seeds from --seed on)
 * change the order in which warps start each round and when asynchronous copies land
 * (sched.c, async.c); the default schedule (no seed) is the reference the others are
 * compared with. The seeded schedules are independent runs: with more than one CPU (or
 * --jobs N) they run side by side, each in a child process of its own, and their output is
 * taken back and judged in schedule order, so it is the same as one after another.
 */
#include "explore.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

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
		char why[1024];
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

/* ---- schedules side by side ----------------------------------------------------------- */

/* A schedule run in a child process: its stdout and stderr (printf, dump errors) and its
 * result (status, diagnostics, dumps), read back in schedule order. */
struct child {
	pid_t pid;
	FILE *out, *err, *res;
};

static bool put(FILE *f, const void *p, size_t n)
{
	return !n || fwrite(p, 1, n, f) == n;
}

static bool get(FILE *f, void *p, size_t n)
{
	return !n || fread(p, 1, n, f) == n;
}

static void keep_text(void *ctx, int level, const char *text);

/* In the child: run the schedule, write its result, and end without running the parent's
 * exit handlers or flushing its buffers twice. */
static void child_main(ptxi_module *m, const struct ptxi_config *cfg, uint64_t seed,
		       const struct ptxi_arg *args, unsigned nargs, const struct dump_spec *dumps,
		       unsigned ndumps, FILE *res)
{
	struct text out = {0};
	struct ptxi_config c = *cfg;
	c.sink = keep_text;
	c.sink_ctx = &out;
	struct dumped d;
	int st = launch(m, &c, seed, args, nargs, dumps, ndumps, &d);
	bool has = d.bytes != NULL, ok = true;
	ok &= put(res, &st, sizeof st) && put(res, &out.len, sizeof out.len) &&
	      put(res, out.s, out.len) && put(res, &has, sizeof has) &&
	      put(res, &d.len, sizeof d.len) && put(res, d.bytes, d.len) &&
	      put(res, d.at, (ndumps + 1) * sizeof *d.at);
	ok &= fflush(res) == 0;
	fflush(stdout);
	fflush(stderr);
	_exit(ok ? 0 : 1);
}

static void child_close(struct child *ch)
{
	if (ch->out)
		fclose(ch->out);
	if (ch->err)
		fclose(ch->err);
	if (ch->res)
		fclose(ch->res);
	*ch = (struct child){0};
}

/* Start schedule `seed` in a child; false (nothing started) when it cannot be. */
static bool child_start(struct child *ch, ptxi_module *m, const struct ptxi_config *cfg,
			uint64_t seed, const struct ptxi_arg *args, unsigned nargs,
			const struct dump_spec *dumps, unsigned ndumps)
{
	*ch = (struct child){0};
	ch->out = tmpfile();
	ch->err = tmpfile();
	ch->res = tmpfile();
	if (!ch->out || !ch->err || !ch->res) {
		child_close(ch);
		return false;
	}
	fflush(NULL); /* else the child writes the parent's buffered output again */
	ch->pid = fork();
	if (ch->pid < 0) {
		child_close(ch);
		return false;
	}
	if (ch->pid == 0) {
		if (dup2(fileno(ch->out), STDOUT_FILENO) < 0 ||
		    dup2(fileno(ch->err), STDERR_FILENO) < 0)
			_exit(1);
		child_main(m, cfg, seed, args, nargs, dumps, ndumps, ch->res);
	}
	return true;
}

static void copy_out(FILE *from, FILE *to)
{
	char buf[8192];
	size_t n;
	rewind(from);
	while ((n = fread(buf, 1, sizeof buf, from)) > 0)
		fwrite(buf, 1, n, to);
	fflush(to);
}

/* Wait for the child, pass on its stdout and stderr, and read its result into *out and
 * *d as launch() leaves them: its status, or 2 (said) when the child did not end well. */
static int child_finish(struct child *ch, unsigned ndumps, struct text *out, struct dumped *d)
{
	int ws = 0, st = PTXI_INVALID;
	while (waitpid(ch->pid, &ws, 0) < 0)
		;
	copy_out(ch->out, stdout);
	copy_out(ch->err, stderr);
	memset(d, 0, sizeof *d);
	*out = (struct text){0};
	bool has = false, ok = WIFEXITED(ws) && WEXITSTATUS(ws) == 0;
	rewind(ch->res);
	ok = ok && get(ch->res, &st, sizeof st) && get(ch->res, &out->len, sizeof out->len);
	ok = ok && (out->s = malloc(out->len + 1)) && get(ch->res, out->s, out->len);
	if (out->s)
		out->s[ok ? out->len : 0] = '\0';
	ok = ok && get(ch->res, &has, sizeof has) && get(ch->res, &d->len, sizeof d->len);
	ok = ok && (d->bytes = malloc(d->len + 1)) && get(ch->res, d->bytes, d->len);
	ok = ok && (d->at = calloc(ndumps + 1, sizeof *d->at)) &&
	     get(ch->res, d->at, (ndumps + 1) * sizeof *d->at);
	child_close(ch);
	if (!ok) {
		free(d->bytes);
		free(d->at);
		memset(d, 0, sizeof *d);
		d->at = calloc(ndumps + 1, sizeof *d->at);
		if (WIFSIGNALED(ws))
			fprintf(stderr, "ptxi: --explore: a schedule's process ended with signal %d\n",
				WTERMSIG(ws));
		else
			fprintf(stderr, "ptxi: --explore: could not read a schedule's result back\n");
		return PTXI_INVALID;
	}
	if (!has) {
		free(d->bytes);
		d->bytes = NULL;
	}
	return st;
}

/* How many schedules run at once: --jobs, else one per online CPU; one where the children
 * could not give their output back in order (reports as data, traces, a timeline). */
static unsigned side_by_side(const struct ptxi_config *cfg, bool text, unsigned n)
{
	long cpus = cfg->jobs ? (long)cfg->jobs : sysconf(_SC_NPROCESSORS_ONLN);
	if (!text || cfg->trace_mbarrier || cfg->trace_all || cfg->timeline_out || cpus <= 1)
		return 1;
	return cpus > (long)n ? n : (unsigned)cpus;
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
		unsigned nargs, const struct dump_spec *dumps, unsigned ndumps, unsigned n, bool text)
{
	struct dumped ref;
	uint64_t first = cfg->seed ? cfg->seed : 1;
	unsigned par = side_by_side(cfg, text, n);
	struct child *kids = par > 1 ? calloc(par, sizeof *kids) : NULL;
	unsigned started = 0; /* schedules handed to children so far */
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
			free(kids);
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
		int gst;
		if (kids) { /* the next `par` schedules run in children, taken back in order */
			while (started < n && started < i + par &&
			       child_start(&kids[started % par], m, &c, first + started, args, nargs,
					   dumps, ndumps))
				started++;
		}
		if (kids && i < started)
			gst = child_finish(&kids[i % par], ndumps, &out, &got);
		else
			gst = launch(m, &c, s, args, nargs, dumps, ndumps, &got);
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
	free(kids);
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
