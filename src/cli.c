/*
 * cli.c - the ptxi program: parse the command line, call the library, print --dump words
 * and --stats, map results to exit statuses (0 ok, 1 rule broken, 2 invalid input or
 * usage, 3 deadlock or step limit). Nothing else lives here.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ptxi/ptxi.h"

#include "explore.h"

#define MAX_ARGS 64
#define MAX_DUMPS 64

static const char usage_text[] =
	"usage: ptxi check [--diagnostics=text|json|sarif] FILE...\n"
	"       ptxi explain [TOPIC]   (a concept, an instruction, a rule or a check; alone: the list)\n"
	"       ptxi run FILE.ptx [--kernel NAME] [--grid X[,Y[,Z]]] [--block X[,Y[,Z]]]\n"
	"                [--cluster X[,Y[,Z]]] [--shared BYTES] [--arg SPEC]... [--dump N]...\n"
	"                [--keep-going] [--no-race] [--seed N] [--explore N] [--max-steps N]\n"
	"                [--max-memory BYTES] [--stats] [--trace mbarrier|all]\n"
	"                [--timeline FILE.html] [--heap BYTES]\n"
	"  --arg SPEC   u8: u16: u32: u64: s32: s64: f32: f64: VALUE (decimal or 0x hex),\n"
	"               buf:BYTES (zero-filled device buffer), file:PATH (buffer with the file)\n"
	"               tmap:buf=K[+OFF],type=T,dims=D0xD1..,strides=S1x..,box=B0xB1..\n"
	"                 [,estrides=..][,interleave=none|16B|32B][,swizzle=none|32B|64B|128B]\n"
	"                 [,l2=none|64B|128B|256B][,fill=zero|nan]  (a CUtensorMap over buffer\n"
	"                 argument K; im2col: mode=im2col,lower=..,upper=..,channels=C,pixels=P)\n"
	"  --dump N     after the launch, print argument N's buffer as u32 words (hex)\n"
	"  --no-race    turn off the data-race detector (happens-before, on by default)\n"
	"  --explore N  run under the default and N seeded schedules (seeds 1..N, or from\n"
	"               --seed on); stop at the first that breaks a rule, deadlocks or dumps\n"
	"               other output, naming its --seed\n"
	"  --diagnostics=text|json|sarif  how diagnostics are written to stderr: text (the\n"
	"               default), one JSON object per line, or one SARIF 2.1.0 log\n"
	"  --trace-cta X,Y,Z  --trace-warp N  --trace-lines A-B   trace only these CTAs, warps\n"
	"               (index in the CTA) and source lines\n"
	"  --trace-width N  fold trace lines at N columns (default: 120 on a terminal, else\n"
	"               never; 0: never)\n"
	"  --timeline FILE.html  write the launch as a picture: warps, barrier operations,\n"
	"               waits, copies, phase completions, rule breaks (one self-contained page)\n"
	"  --max-memory BYTES  host memory the launch may hold (device buffers, shared and\n"
	"               local memory, frames, shadow state); default 4 GiB, 0 for no limit\n"
	"  --heap BYTES device heap for malloc in kernels (default 8388608, CUDA's)\n"
	"exit status: 0 ok, 1 a PTX rule was broken, 2 invalid input or usage, 3 deadlock or\n"
	"             step limit\n";

/* A usage error names what is wrong in one line; with no message, the whole usage. */
static int usage(const char *fmt, const char *what)
{
	if (!fmt) {
		fputs(usage_text, stderr);
		return 2;
	}
	fputs("ptxi: error: ", stderr);
	fprintf(stderr, fmt, what);
	fputs(" (see 'ptxi --help')\n", stderr);
	return 2;
}

/* --diagnostics=text|json|sarif (or "--diagnostics FORMAT"): true if argv[*i] is it. */
static bool diagnostics_option(int argc, char **argv, int *i, enum ptxi_diag_format *f,
			       int *status)
{
	const char *a = argv[*i], *v;
	if (strncmp(a, "--diagnostics=", 14) == 0)
		v = a + 14;
	else if (strcmp(a, "--diagnostics") == 0 && *i + 1 < argc)
		v = argv[++*i];
	else if (strcmp(a, "--diagnostics") == 0)
		return *status = usage("--diagnostics needs a value (text, json or sarif)", ""), true;
	else
		return false;
	if (strcmp(v, "text") == 0)
		*f = PTXI_DIAG_TEXT;
	else if (strcmp(v, "json") == 0)
		*f = PTXI_DIAG_JSON;
	else if (strcmp(v, "sarif") == 0)
		*f = PTXI_DIAG_SARIF;
	else
		*status = usage("bad --diagnostics '%s' (text, json or sarif)", v);
	return true;
}

/* The structured report diagnostics go to (on stderr, where text would go), or NULL. */
static ptxi_report *open_report(enum ptxi_diag_format f, int *status)
{
	if (f == PTXI_DIAG_TEXT)
		return NULL;
	ptxi_report *r = ptxi_report_new(f, stderr);
	if (!r)
		*status = usage("out of memory%s", "");
	return r;
}

static int cmd_check(int argc, char **argv)
{
	enum ptxi_diag_format format = PTXI_DIAG_TEXT;
	int status = PTXI_OK, files = 0;
	for (int i = 0; i < argc && !status; i++)
		if (!diagnostics_option(argc, argv, &i, &format, &status))
			files++;
	if (status)
		return status;
	if (!files)
		return usage("check needs at least one file", "");
	ptxi_report *report = open_report(format, &status);
	if (status)
		return status;
	for (int i = 0; i < argc; i++) {
		if (strncmp(argv[i], "--diagnostics", 13) == 0) {
			i += argv[i][13] != '=';
			continue;
		}
		int st = report ? ptxi_check_report(argv[i], report) : ptxi_check(argv[i], NULL, NULL);
		if (st != PTXI_OK)
			status = PTXI_INVALID;
	}
	if (ptxi_report_finish(report) != 0)
		status = PTXI_INVALID;
	return status;
}

static bool parse_u64(const char *s, uint64_t *v)
{
	if (!*s)
		return false;
	char *end;
	errno = 0;
	unsigned long long x = strtoull(s, &end, 0);
	if (errno || *end || *s == '-')
		return false;
	*v = x;
	return true;
}

/* "X[,Y[,Z]]"; missing ones are `fill`; each at least `min`. */
static bool parse_coords(const char *s, uint32_t d[3], unsigned long min, uint32_t fill)
{
	d[0] = d[1] = d[2] = fill;
	for (int i = 0; i < 3; i++) {
		char *end;
		errno = 0;
		unsigned long v = strtoul(s, &end, 10);
		if (errno || end == s || v < min || v > 0x7fffffff || *s == '-')
			return false;
		d[i] = (uint32_t)v;
		if (*end == '\0')
			return true;
		if (*end != ',')
			return false;
		s = end + 1;
	}
	return false;
}

static bool parse_dims(const char *s, uint32_t d[3])
{
	return parse_coords(s, d, 1, 1);
}

/* --trace-lines "A-B" or "A" */
static bool parse_line_range(const char *s, uint32_t r[2])
{
	char *end;
	unsigned long a = strtoul(s, &end, 10), b = a;
	if (end == s || *s == '-')
		return false;
	if (*end == '-') {
		const char *t = end + 1;
		b = strtoul(t, &end, 10);
		if (end == t || *t == '-')
			return false;
	}
	if (*end || a == 0 || b < a || b > 0xffffffffUL)
		return false;
	r[0] = (uint32_t)a;
	r[1] = (uint32_t)b;
	return true;
}

/* The most a file: argument holds: a regular file as large as a buf: argument may be, or
 * 64 MiB from a pipe or device (so that /dev/zero is an error, not all of memory). */
#define MAX_FILE_ARG (1ull << 34)
#define MAX_STREAM_ARG (64ull << 20)

/* A file: argument's bytes; NULL with errno set (EISDIR, EFBIG past the limits above). */
static void *read_whole(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	struct stat st;
	bool regular = fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode);
	uint64_t limit = regular ? MAX_FILE_ARG : MAX_STREAM_ARG;
	if ((!regular && S_ISDIR(st.st_mode)) || (regular && (uint64_t)st.st_size > limit)) {
		fclose(f);
		errno = regular ? EFBIG : EISDIR;
		return NULL;
	}
	size_t cap = regular && st.st_size > 0 ? (size_t)st.st_size + 1 : 4096, len = 0;
	unsigned char *buf = malloc(cap);
	while (buf) {
		size_t got = fread(buf + len, 1, cap - len, f);
		len += got;
		if (got == 0)
			break;
		if (len > limit) {
			free(buf);
			fclose(f);
			errno = EFBIG;
			return NULL;
		}
		if (len == cap) {
			unsigned char *nb = realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap *= 2;
		}
	}
	fclose(f);
	*n = len;
	return buf;
}

/* One --arg SPEC into a ptxi_arg; file: contents are kept in *owned. */
static bool parse_arg(const char *spec, struct ptxi_arg *a, void **owned)
{
	memset(a, 0, sizeof *a);
	a->spec = spec;
	const char *colon = strchr(spec, ':');
	if (!colon)
		return false;
	size_t k = (size_t)(colon - spec);
	const char *v = colon + 1;
	static const struct { const char *name; unsigned size; bool sgn, flt; } scalars[] = {
		{"u8", 1, false, false},  {"u16", 2, false, false}, {"u32", 4, false, false},
		{"u64", 8, false, false}, {"s8", 1, true, false},   {"s16", 2, true, false},
		{"s32", 4, true, false},  {"s64", 8, true, false},  {"f32", 4, false, true},
		{"f64", 8, false, true},
	};
	for (size_t i = 0; i < sizeof scalars / sizeof scalars[0]; i++) {
		if (strlen(scalars[i].name) != k || strncmp(spec, scalars[i].name, k) != 0)
			continue;
		a->kind = PTXI_ARG_SCALAR;
		a->size = scalars[i].size;
		a->is_float = scalars[i].flt;
		char *end;
		errno = 0;
		if (scalars[i].flt) {
			double d = strtod(v, &end);
			if (end == v || *end || errno)
				return false;
			if (a->size == 4) {
				float fl = (float)d;
				uint32_t b;
				memcpy(&b, &fl, 4);
				a->value = b;
			} else {
				memcpy(&a->value, &d, 8);
			}
			return true;
		}
		if (scalars[i].sgn) {
			long long x = strtoll(v, &end, 0);
			if (end == v || *end || errno)
				return false;
			int64_t lo = a->size == 8 ? INT64_MIN : -(1ll << (a->size * 8 - 1));
			int64_t hi = a->size == 8 ? INT64_MAX : (1ll << (a->size * 8 - 1)) - 1;
			if (x < lo || x > hi)
				return false;
			a->value = (uint64_t)x & (a->size == 8 ? ~0ull : (1ull << (a->size * 8)) - 1);
			return true;
		}
		uint64_t x;
		if (!parse_u64(v, &x) || (a->size < 8 && x >> (a->size * 8)))
			return false;
		a->value = x;
		return true;
	}
	if (k == 3 && strncmp(spec, "buf", 3) == 0) {
		uint64_t n;
		if (!parse_u64(v, &n) || n > (1ull << 34))
			return false;
		a->kind = PTXI_ARG_BUFFER;
		a->bytes = (size_t)n;
		return true;
	}
	if (k == 4 && strncmp(spec, "tmap", 4) == 0) {
		char why[200];
		a->kind = PTXI_ARG_TMAP;
		if (ptxi_tmap_parse(v, &a->tmap, &a->tmap_buf, &a->tmap_off, why, sizeof why) == PTXI_OK)
			return true;
		fprintf(stderr, "ptxi: error: tensor map '%s': %s\n", spec, why);
		return false;
	}
	if (k == 4 && strncmp(spec, "file", 4) == 0) {
		size_t n;
		void *data = read_whole(v, &n);
		if (!data) {
			if (errno == EFBIG)
				fprintf(stderr, "ptxi: error: cannot read '%s': larger than a file: "
					"argument may be (16 GiB; 64 MiB from a pipe or device)\n", v);
			else
				fprintf(stderr, "ptxi: error: cannot read '%s': %s\n", v, strerror(errno));
			return false;
		}
		*owned = data;
		a->kind = PTXI_ARG_BUFFER;
		a->init = data;
		a->bytes = n;
		return true;
	}
	return false;
}

struct run_opts {
	const char *file;
	struct ptxi_config cfg;
	struct ptxi_arg args[MAX_ARGS];
	void *owned[MAX_ARGS];
	unsigned nargs;
	unsigned dumps[MAX_DUMPS];
	unsigned ndumps;
	unsigned explore;       /* --explore N: seeded schedules to try (explore.c)        */
	bool stats;
	const char *timeline;    /* --timeline FILE.html */
	bool trace_width_given;
	enum ptxi_diag_format format;   /* --diagnostics */
};

static int parse_run(int argc, char **argv, struct run_opts *o)
{
	memset(o, 0, sizeof *o);
	for (int d = 0; d < 3; d++)
		o->cfg.grid[d] = o->cfg.block[d] = o->cfg.cluster[d] = 1;
	for (int i = 0; i < argc; i++) {
		int st = 0;
		if (diagnostics_option(argc, argv, &i, &o->format, &st)) {
			if (st)
				return st;
			continue;
		}
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		bool takes = strcmp(a, "--kernel") == 0 || strcmp(a, "--grid") == 0 ||
			     strcmp(a, "--block") == 0 || strcmp(a, "--cluster") == 0 ||
			     strcmp(a, "--shared") == 0 || strcmp(a, "--arg") == 0 ||
			     strcmp(a, "--dump") == 0 || strcmp(a, "--seed") == 0 ||
			     strcmp(a, "--max-steps") == 0 || strcmp(a, "--trace") == 0 ||
			     strcmp(a, "--trace-warp") == 0 || strcmp(a, "--trace-lines") == 0 ||
			     strcmp(a, "--trace-width") == 0 || strcmp(a, "--explore") == 0 ||
			     strcmp(a, "--max-memory") == 0 || strcmp(a, "--heap") == 0;
		if (takes && !v)
			return usage("%s needs a value", a);
		uint64_t n;
		if (strcmp(a, "--kernel") == 0)
			o->cfg.kernel = v;
		else if (strcmp(a, "--grid") == 0) {
			if (!parse_dims(v, o->cfg.grid))
				return usage("bad --grid '%s' (want X[,Y[,Z]], each at least 1)", v);
		} else if (strcmp(a, "--block") == 0) {
			if (!parse_dims(v, o->cfg.block))
				return usage("bad --block '%s' (want X[,Y[,Z]], each at least 1)", v);
		} else if (strcmp(a, "--cluster") == 0) {
			if (!parse_dims(v, o->cfg.cluster))
				return usage("bad --cluster '%s' (want X[,Y[,Z]], each at least 1)", v);
			o->cfg.cluster_given = true;
		} else if (strcmp(a, "--shared") == 0) {
			if (!parse_u64(v, &n) || n > 0x7fffffff)
				return usage("bad --shared '%s' (want a byte count)", v);
			o->cfg.dyn_shared = (uint32_t)n;
		} else if (strcmp(a, "--arg") == 0) {
			if (o->nargs == MAX_ARGS)
				return usage("too many --arg (at most 64)%s", "");
			if (!parse_arg(v, &o->args[o->nargs], &o->owned[o->nargs]))
				return usage("bad --arg '%s'", v);
			o->nargs++;
		} else if (strcmp(a, "--dump") == 0) {
			if (!parse_u64(v, &n) || n >= MAX_ARGS || o->ndumps == MAX_DUMPS)
				return usage("bad --dump '%s' (want an argument index)", v);
			o->dumps[o->ndumps++] = (unsigned)n;
		} else if (strcmp(a, "--seed") == 0) {
			if (!parse_u64(v, &n))
				return usage("bad --seed '%s'", v);
			o->cfg.seed = n;
		} else if (strcmp(a, "--explore") == 0) {
			if (!parse_u64(v, &n) || n == 0 || n > 100000)
				return usage("bad --explore '%s' (want a number of schedules, 1-100000)", v);
			o->explore = (unsigned)n;
		} else if (strcmp(a, "--max-steps") == 0) {
			if (!parse_u64(v, &n) || n == 0)
				return usage("bad --max-steps '%s'", v);
			o->cfg.max_steps = n;
		} else if (strcmp(a, "--max-memory") == 0) {
			if (!parse_u64(v, &n))
				return usage("bad --max-memory '%s' (want a byte count)", v);
			o->cfg.max_memory = n ? n : UINT64_MAX;
		} else if (strcmp(a, "--heap") == 0) {
			if (!parse_u64(v, &n) || n == 0 || n > (1ull << 34))
				return usage("bad --heap '%s' (want a byte count, at most 16 GiB)", v);
			o->cfg.heap_bytes = n;
		} else if (strcmp(a, "--trace") == 0) {
			if (strcmp(v, "mbarrier") == 0)
				o->cfg.trace_mbarrier = true;
			else if (strcmp(v, "all") == 0)
				o->cfg.trace_all = true;
			else
				return usage("bad --trace '%s' (mbarrier or all)", v);
		} else if (strcmp(a, "--timeline") == 0) {
			o->timeline = v;
		} else if (strcmp(a, "--trace-cta") == 0) {
			if (!parse_coords(v, o->cfg.trace_cta, 0, 0))
				return usage("bad --trace-cta '%s' (want X[,Y[,Z]] of a CTA)", v);
			o->cfg.trace_cta_given = true;
		} else if (strcmp(a, "--trace-warp") == 0) {
			if (!parse_u64(v, &n) || n > 31)
				return usage("bad --trace-warp '%s' (a warp of the CTA: 0-31)", v);
			o->cfg.trace_warp = (uint32_t)n;
			o->cfg.trace_warp_given = true;
		} else if (strcmp(a, "--trace-lines") == 0) {
			if (!parse_line_range(v, o->cfg.trace_lines))
				return usage("bad --trace-lines '%s' (want A-B or A, lines from 1)", v);
		} else if (strcmp(a, "--trace-width") == 0) {
			if (!parse_u64(v, &n) || (n && n < 40) || n > 100000)
				return usage("bad --trace-width '%s' (0: never fold, else 40 or more)", v);
			o->cfg.trace_width = (uint32_t)n;
			o->trace_width_given = true;
		} else if (strcmp(a, "--keep-going") == 0) {
			o->cfg.keep_going = true;
			continue;
		} else if (strcmp(a, "--no-race") == 0) {
			o->cfg.no_race = true;
			continue;
		} else if (strcmp(a, "--stats") == 0) {
			o->stats = true;
			continue;
		} else if (a[0] == '-' && a[1]) {
			return usage("unknown option '%s'", a);
		} else {
			if (o->file)
				return usage("more than one PTX file ('%s')", a);
			o->file = a;
			continue;
		}
		i++;
	}
	if (!o->file)
		return usage("run needs a PTX file%s", "");
	return 0;
}

static void dump_buffer(ptxi_run *r, unsigned arg)
{
	size_t n = 0;
	const unsigned char *p = ptxi_run_buffer(r, arg, &n);
	if (!p) {
		fprintf(stderr, "ptxi: error: --dump %u: argument %u is not a buffer\n", arg, arg);
		return;
	}
	for (size_t i = 0; i + 4 <= n; i += 4) {
		uint32_t w = (uint32_t)p[i] | (uint32_t)p[i + 1] << 8 | (uint32_t)p[i + 2] << 16 |
			     (uint32_t)p[i + 3] << 24;
		printf("%08x\n", w);
	}
}

static int cmd_run(int argc, char **argv)
{
	struct run_opts *o = calloc(1, sizeof *o);
	if (!o)
		return 2;
	ptxi_report *report = NULL;
	int status = parse_run(argc, argv, o);
	if (status)
		goto out;
	if (!o->trace_width_given && isatty(STDERR_FILENO))
		o->cfg.trace_width = 120;
	for (unsigned i = 0; i < o->ndumps; i++)
		if (o->dumps[i] >= o->nargs || o->args[o->dumps[i]].kind != PTXI_ARG_BUFFER) {
			char n[16];
			snprintf(n, sizeof n, "%u", o->dumps[i]);
			status = usage("--dump %s: that argument is not a buffer (buf: or file:)", n);
			goto out;
		}
	report = open_report(o->format, &status);
	if (status)
		goto out;
	ptxi_module *m = report ? ptxi_module_load_report(o->file, report)
				: ptxi_module_load(o->file, NULL, NULL);
	if (!m || ptxi_module_errors(m)) {
		ptxi_module_free(m);
		status = 2;
		goto out;
	}
	if (o->explore) {
		status = explore_run(m, &o->cfg, o->args, o->nargs, o->dumps, o->ndumps, o->explore);
		ptxi_module_free(m);
		goto out;
	}
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ptxi_run *r = NULL;
	if (o->timeline && !(o->cfg.timeline_out = fopen(o->timeline, "w"))) {
		fprintf(stderr, "ptxi: error: cannot write --timeline '%s': %s\n", o->timeline,
			strerror(errno));
		ptxi_module_free(m);
		status = 2;
		goto out;
	}
	status = ptxi_launch(m, &o->cfg, o->args, o->nargs, &r);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (o->cfg.timeline_out && fclose(o->cfg.timeline_out) != 0 && status != 2) {
		fprintf(stderr, "ptxi: error: could not write --timeline '%s'\n", o->timeline);
		status = 2;
	}
	if (r && status != 2)
		for (unsigned i = 0; i < o->ndumps; i++)
			dump_buffer(r, o->dumps[i]);
	if (r && o->stats) {
		uint64_t wi, ti;
		ptxi_run_stats(r, &wi, &ti);
		double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
		fprintf(stderr,
			"ptxi: stats: %" PRIu64 " warp-instructions, %" PRIu64
			" thread-instructions, %.3f s (%.1f M thread-instructions/s)\n",
			wi, ti, s, s > 0 ? (double)ti / s / 1e6 : 0.0);
		fprintf(stderr, "ptxi: stats: peak memory %" PRIu64 " bytes (%.1f MiB)\n",
			ptxi_run_peak_memory(r), (double)ptxi_run_peak_memory(r) / (1 << 20));
	}
	ptxi_run_free(r);
	ptxi_module_free(m);
out:
	if (ptxi_report_finish(report) != 0 && !status)
		status = 2;
	for (unsigned i = 0; i < o->nargs; i++)
		free(o->owned[i]);
	free(o);
	return status;
}

/* ptxi explain [TOPIC | --markdown | --static-markdown] */
static int cmd_explain(int argc, char **argv)
{
	if (argc > 1)
		return usage("explain takes one topic ('ptxi explain' lists them)", "");
	if (argc == 1 && strcmp(argv[0], "--markdown") == 0) {
		ptxi_explain_markdown(stdout);
		return 0;
	}
	if (argc == 1 && strcmp(argv[0], "--static-markdown") == 0) {
		ptxi_explain_static_markdown(stdout);
		return 0;
	}
	return ptxi_explain(argc ? argv[0] : NULL, stdout, stderr);
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage(NULL, "");
	if (strcmp(argv[1], "check") == 0)
		return cmd_check(argc - 2, argv + 2);
	if (strcmp(argv[1], "run") == 0)
		return cmd_run(argc - 2, argv + 2);
	if (strcmp(argv[1], "explain") == 0)
		return cmd_explain(argc - 2, argv + 2);
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		fputs(usage_text, stdout);
		return 0;
	}
	return usage("unknown command '%s'", argv[1]);
}
