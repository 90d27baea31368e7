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
#include <time.h>

#include "ptxi/ptxi.h"

#define MAX_ARGS 64
#define MAX_DUMPS 64

static const char usage_text[] =
	"usage: ptxi check FILE...\n"
	"       ptxi explain [TOPIC]   (a concept, an instruction or a rule; alone: the list)\n"
	"       ptxi run FILE.ptx [--kernel NAME] [--grid X[,Y[,Z]]] [--block X[,Y[,Z]]]\n"
	"                [--cluster X[,Y[,Z]]] [--shared BYTES] [--arg SPEC]... [--dump N]...\n"
	"                [--keep-going] [--no-race] [--seed N] [--max-steps N] [--stats]\n"
	"                [--trace mbarrier|all] [--heap BYTES] [--max-errors N]\n"
	"  --arg SPEC   u8: u16: u32: u64: s32: s64: f32: f64: VALUE (decimal or 0x hex),\n"
	"               buf:BYTES (zero-filled device buffer), file:PATH (buffer with the file)\n"
	"               tmap:buf=K[+OFF],type=T,dims=D0xD1..,strides=S1x..,box=B0xB1..\n"
	"                 [,estrides=..][,interleave=none|16B|32B][,swizzle=none|32B|64B|128B]\n"
	"                 [,l2=none|64B|128B|256B][,fill=zero|nan]  (a CUtensorMap over buffer\n"
	"                 argument K; im2col: mode=im2col,lower=..,upper=..,channels=C,pixels=P)\n"
	"  --dump N     after the launch, print argument N's buffer as u32 words (hex)\n"
	"  --no-race    turn off the data-race detector (happens-before, on by default)\n"
	"  --heap BYTES device heap for malloc in kernels (default 8388608, CUDA's)\n"
	"  --max-errors N  reports shown before ptxi stops showing them (default 50; 0: all)\n"
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

static int cmd_check(int argc, char **argv)
{
	if (argc < 1)
		return usage("check needs at least one file", "");
	int status = PTXI_OK;
	for (int i = 0; i < argc; i++)
		if (ptxi_check(argv[i], NULL, NULL) != PTXI_OK)
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

static bool parse_dims(const char *s, uint32_t d[3])
{
	d[0] = d[1] = d[2] = 1;
	for (int i = 0; i < 3; i++) {
		char *end;
		errno = 0;
		unsigned long v = strtoul(s, &end, 10);
		if (errno || end == s || v == 0 || v > 0x7fffffff || *s == '-')
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

static void *read_whole(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, len = 0;
	unsigned char *buf = malloc(cap);
	while (buf) {
		size_t got = fread(buf + len, 1, cap - len, f);
		len += got;
		if (got == 0)
			break;
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
	bool stats;
};

static int parse_run(int argc, char **argv, struct run_opts *o)
{
	memset(o, 0, sizeof *o);
	for (int d = 0; d < 3; d++)
		o->cfg.grid[d] = o->cfg.block[d] = o->cfg.cluster[d] = 1;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		bool takes = strcmp(a, "--kernel") == 0 || strcmp(a, "--grid") == 0 ||
			     strcmp(a, "--block") == 0 || strcmp(a, "--cluster") == 0 ||
			     strcmp(a, "--shared") == 0 || strcmp(a, "--arg") == 0 ||
			     strcmp(a, "--dump") == 0 || strcmp(a, "--seed") == 0 ||
			     strcmp(a, "--max-steps") == 0 || strcmp(a, "--trace") == 0 ||
			     strcmp(a, "--heap") == 0 || strcmp(a, "--max-errors") == 0;
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
		} else if (strcmp(a, "--max-steps") == 0) {
			if (!parse_u64(v, &n) || n == 0)
				return usage("bad --max-steps '%s'", v);
			o->cfg.max_steps = n;
		} else if (strcmp(a, "--max-errors") == 0) {
			if (!parse_u64(v, &n) || n >= UINT32_MAX)
				return usage("bad --max-errors '%s' (want a count; 0: no limit)", v);
			o->cfg.max_errors = n ? (uint32_t)n : UINT32_MAX;
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
	int status = parse_run(argc, argv, o);
	if (status)
		goto out;
	for (unsigned i = 0; i < o->ndumps; i++)
		if (o->dumps[i] >= o->nargs || o->args[o->dumps[i]].kind != PTXI_ARG_BUFFER) {
			char n[16];
			snprintf(n, sizeof n, "%u", o->dumps[i]);
			status = usage("--dump %s: that argument is not a buffer (buf: or file:)", n);
			goto out;
		}
	ptxi_module *m = ptxi_module_load(o->file, NULL, NULL);
	if (!m || ptxi_module_errors(m)) {
		ptxi_module_free(m);
		status = 2;
		goto out;
	}
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ptxi_run *r = NULL;
	status = ptxi_launch(m, &o->cfg, o->args, o->nargs, &r);
	clock_gettime(CLOCK_MONOTONIC, &t1);
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
	}
	ptxi_run_free(r);
	ptxi_module_free(m);
out:
	for (unsigned i = 0; i < o->nargs; i++)
		free(o->owned[i]);
	free(o);
	return status;
}

/* ptxi explain [TOPIC | --markdown] */
static int cmd_explain(int argc, char **argv)
{
	if (argc > 1)
		return usage("explain takes one topic ('ptxi explain' lists them)", "");
	if (argc == 1 && strcmp(argv[0], "--markdown") == 0) {
		ptxi_explain_markdown(stdout);
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
