/*
 * cli.c - the ptxi program: commands (check, run, explain, info), their options (one table,
 * cli_opts.def, for parsing and --help), colour, and exit statuses (0 ok, 1 rule broken,
 * 2 invalid input or usage, 3 deadlock or step limit). Values are parsed in cli_args.c,
 * results printed in cli_dump.c; everything else is the library's.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "cli_args.h"
#include "cli_dump.h"
#include "debug.h"
#include "cli_expect.h"
#include "cli_exec.h"
#include "cli_rules.h"
#include "explore.h"

#define MAX_ARGS 256
#define MAX_DUMPS 64
#define MAX_SETS 64

enum { R = 1, C = 2, I = 4, E = 8 }; /* the commands of an option */

enum opt_id {
#define OPT(id, cmds, name, value, def, help) OPT_##id,
#include "cli_opts.def"
#undef OPT
	OPT__COUNT
};

static const struct option {
	unsigned cmds;
	const char *name, *value, *def, *help;
} options[OPT__COUNT] = {
#define OPT(id, cmds, name, value, def, help) {cmds, name, value, def, help},
#include "cli_opts.def"
#undef OPT
};

struct command;
typedef int command_fn(const struct command *c, int argc, char **argv);
static command_fn cmd_check, cmd_run, cmd_explain, cmd_info, cmd_debug;

static const struct command {
	const char *name;
	command_fn *fn;
	unsigned bit;
	const char *synopsis, *what;
} commands[] = {
	{"check", cmd_check, C, "ptxi check [OPTION]... FILE...",
	 "Parse and statically check PTX files as ptxas would ('-' reads stdin)."},
	{"run", cmd_run, R, "ptxi run FILE.ptx [OPTION]...",
	 "Launch a kernel of FILE.ptx on the interpreter and report every rule it breaks."},
	{"debug", cmd_debug, R, "ptxi debug FILE.ptx [--batch FILE] [-ex CMD]... [OPTION]...",
	 "Step a launch as cuda-gdb steps a GPU, with the mbarriers in view (docs/debugging.md)."},
	{"explain", cmd_explain, E, "ptxi explain [TOPIC]",
	 "What a concept, instruction, rule or static check means, shown live; alone: the topics."},
	{"info", cmd_info, I, "ptxi info FILE.ptx",
	 "The module's kernels, their parameters and launch requirements, and a ptxi run line "
	 "for each."},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static const char arg_specs[] =
	"SPEC (--arg, --set, and the fields of bytes:):\n"
	"  u8: u16: u32: u64: s8: s16: s32: s64: f32: f64: VALUE   a scalar (decimal or 0x hex)\n"
	"  buf:BYTES                  a zero-filled device buffer; the parameter gets its address\n"
	"  buf:BYTES:FILL             filled: zero, iota:TYPE (element i is i), random:TYPE[:SEED]\n"
	"                             (ints: any bits; floats: in [-1,1)), const:TYPE:V\n"
	"  file:PATH                  a device buffer holding the file\n"
	"  buf=NAME                   the address of --buffer NAME\n"
	"  tmap:buf=K[+OFF],type=T,dims=D0xD1..,strides=S1x..,box=B0xB1..[,estrides=..]\n"
	"       [,interleave=none|16B|32B][,swizzle=none|32B|64B|128B][,l2=none|64B|128B|256B]\n"
	"       [,fill=zero|nan]      a CUtensorMap over buffer argument K (im2col: mode=im2col,\n"
	"                             lower=..,upper=..,channels=C,pixels=P; in a struct, buf=@OFF\n"
	"                             names the struct's buffer field at byte OFF;\n"
	"                             buf=NAME a --buffer or a .global variable of the module)\n"
	"  bytes:SIZE[,@OFF=SPEC]...  a by-value struct of SIZE bytes with fields at byte offsets\n";

static const char exit_statuses[] =
	"exit status: 0 ok, 1 a PTX rule was broken, 2 invalid input or usage, 3 deadlock or\n"
	"step limit, 130 interrupted (Ctrl-C: where every warp stands is reported)\n";

/* ---- colour ----------------------------------------------------------------------------- */

static bool color;
static bool progress_on_screen; /* the progress line is on stderr's last line */

/* Clear the progress line before anything else is written to stderr. */
static void clear_progress(void)
{
	if (progress_on_screen)
		fputs("\r\033[K", stderr);
	progress_on_screen = false;
}

/* One line of a diagnostic, coloured as gcc does: the position bold, the level in its
 * colour, the caret line green. */
static void color_line(FILE *out, const char *s, size_t n)
{
	static const struct { const char *word, *sgr; } levels[] = {
		{" error: ", "1;31"}, {" warning: ", "1;35"}, {" note: ", "1;36"}};
	for (size_t i = 0; i < 3; i++) {
		const char *w = levels[i].word;
		const char *at = memmem(s, n, w, strlen(w));
		if (!at || memchr(s, ' ', (size_t)(at - s))) /* the level follows the position */
			continue;
		size_t pos = (size_t)(at - s), wl = strlen(w);
		fprintf(out, "\033[1m%.*s\033[0m \033[%sm%.*s\033[0m %.*s", (int)pos, s, levels[i].sgr,
			(int)(wl - 2), w + 1, (int)(n - pos - wl), at + wl);
		return;
	}
	const char *bar = memchr(s, '|', n);
	if (bar && memchr(bar, '^', n - (size_t)(bar - s)) && strspn(s, " 0123456789") == (size_t)(bar - s)) {
		fprintf(out, "%.*s\033[1;32m%.*s\033[0m", (int)(bar - s + 1), s, (int)(n - (size_t)(bar - s) - 1),
			bar + 1);
		return;
	}
	fwrite(s, 1, n, out);
}

static void color_text(FILE *out, const char *text)
{
	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "\n");
		color_line(out, p, n);
		p += n;
		if (*p == '\n')
			fputc(*p++, out);
	}
}

/* The library's diagnostics, coloured when asked. */
static void sink(void *ctx, int level, const char *text)
{
	(void)ctx;
	(void)level;
	clear_progress();
	if (color)
		color_text(stderr, text);
	else
		fputs(text, stderr);
}

static int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* "ptxi: error: ..." on stderr; returns 2, the usage status. */
static int error(const char *fmt, ...)
{
	char msg[1200];
	va_list ap;
	va_start(ap, fmt);
	int n = snprintf(msg, sizeof msg, "ptxi: error: ");
	vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
	va_end(ap);
	strncat(msg, "\n", sizeof msg - strlen(msg) - 1);
	sink(NULL, 0, msg);
	return PTXI_INVALID;
}

static bool set_color(const char *v)
{
	if (strcmp(v, "always") == 0)
		color = true;
	else if (strcmp(v, "never") == 0)
		color = false;
	else if (strcmp(v, "auto") == 0)
		color = isatty(STDERR_FILENO) && !getenv("NO_COLOR");
	else
		return false;
	return true;
}

/* ---- help ------------------------------------------------------------------------------- */

/* `text` folded at 78 columns, each line indented by `indent`. */
static void fold(FILE *out, const char *text, int indent, int col)
{
	for (const char *p = text; *p;) {
		size_t n = strcspn(p, " ");
		if (col + 1 + (int)n > 78 && col > indent) {
			fprintf(out, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', out);
			col++;
		}
		fprintf(out, "%.*s", (int)n, p);
		col += (int)n;
		p += n + (p[n] == ' ');
	}
	fputc('\n', out);
}

static void help(FILE *out, const struct command *c)
{
	fprintf(out, "usage: %s\n%s\n\noptions:\n", c->synopsis, c->what);
	for (unsigned i = 0; i < OPT__COUNT; i++) {
		const struct option *o = &options[i];
		if (!(o->cmds & c->bit))
			continue;
		char head[80];
		int n = snprintf(head, sizeof head, "  --%s%s%s", o->name, o->value ? " " : "",
				 o->value ? o->value : "");
		fprintf(out, "%s", head);
		char text[600];
		snprintf(text, sizeof text, "%s%s%s%s", o->help, o->def[0] ? " (default: " : "", o->def,
			 o->def[0] ? ")" : "");
		if (n > 28) {
			fprintf(out, "\n%*s", 30, "");
			n = 30;
		} else {
			fprintf(out, "%*s", 30 - n, "");
			n = 30;
		}
		fold(out, text, 30, n);
	}
	if (c->bit == R)
		fprintf(out, "\n%s", arg_specs);
	fprintf(out, "\nAn option's value may follow it as the next word or after '='.\n%s",
		exit_statuses);
}

static void usage_all(FILE *out)
{
	fprintf(out, "usage:");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(out, "%s %s\n", i ? "      " : "", commands[i].synopsis);
	fprintf(out, "       ptxi exec [OPTION]... [--] PROGRAM [ARG]...\n");
	fprintf(out, "       ptxi --version\n\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].what);
	fprintf(out, "  %-8s %s\n", "exec", "Run a CUDA program (nvcc -cudart shared) with its "
		"kernels on the interpreter.");
	fprintf(out, "\n'ptxi COMMAND --help' lists a command's options with their defaults.\n%s",
		exit_statuses);
}

static int usage(const char *fmt, const char *what)
{
	char msg[600];
	snprintf(msg, sizeof msg, fmt, what);
	return error("%s (see 'ptxi --help')", msg);
}

/* ---- options ---------------------------------------------------------------------------- */

/* argv[*i] as an option of command `cmd`: its id and value (NULL for a flag); -1 when it is
 * not an option, -2 after an error. */
static int next_option(int argc, char **argv, int *i, unsigned cmd, const char **value)
{
	const char *a = argv[*i];
	if (a[0] != '-' || strcmp(a, "-") == 0)
		return -1; /* an operand ("-": stdin) */
	if (a[1] != '-' || !a[2]) {
		usage("unknown option '%s'", a);
		return -2;
	}
	const char *eq = strchr(a, '=');
	size_t n = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
	for (int k = 0; k < OPT__COUNT; k++) {
		const struct option *o = &options[k];
		if (!(o->cmds & cmd) || strlen(o->name) != n || strncmp(o->name, a + 2, n))
			continue;
		if (!o->value) {
			if (eq)
				return usage("%s takes no value", o->name), -2;
			*value = NULL;
		} else if (eq) {
			*value = eq + 1;
		} else if (*i + 1 < argc) {
			*value = argv[++*i];
		} else {
			return usage("--%s needs a value", o->name), -2;
		}
		return k;
	}
	usage("unknown option '%s'", a);
	return -2;
}

static bool parse_format(const char *v, enum ptxi_diag_format *f)
{
	static const char *const names[] = {"text", "json", "sarif"};
	for (int i = 0; i < 3; i++)
		if (strcmp(v, names[i]) == 0) {
			*f = (enum ptxi_diag_format)i;
			return true;
		}
	return false;
}

/* Options every command shares (--color, --help, --diagnostics): 1 handled, 0 not one of
 * them, or an exit status + 1. */
static int common_option(int id, const char *v, const struct command *c,
			 enum ptxi_diag_format *format)
{
	if (id == OPT_COLOR) {
		if (!set_color(v))
			return 1 + usage("bad --color '%s' (auto, always or never)", v);
		return 1;
	}
	if (id == OPT_HELP) {
		help(stdout, c);
		exit(0); /* the program's own end: nothing to free that matters */
	}
	if (id == OPT_DIAGNOSTICS) {
		if (!parse_format(v, format))
			return 1 + usage("bad --diagnostics '%s' (text, json or sarif)", v);
		return 1;
	}
	return 0;
}

/* --rule and --rules of check and run: 0, or the usage status. */
static int rule_option(ptxi_severities **s, int id, const char *v)
{
	return (id == OPT_RULE ? cli_rule(s, v, "--rule") : cli_rules_file(s, v)) ? 0 : PTXI_INVALID;
}

/* ---- check, explain, info --------------------------------------------------------------- */

/* The structured report diagnostics go to (on stderr, where text would go), or NULL. */
static ptxi_report *open_report(enum ptxi_diag_format f, int *status)
{
	if (f == PTXI_DIAG_TEXT)
		return NULL;
	ptxi_report *r = ptxi_report_new(f, stderr);
	if (!r)
		*status = error("out of memory");
	return r;
}

static int cmd_check(const struct command *c, int argc, char **argv)
{
	enum ptxi_diag_format format = PTXI_DIAG_TEXT;
	const char **files = calloc((size_t)argc + 1, sizeof *files);
	ptxi_severities *sev = NULL;
	int nfiles = 0, status = 0;
	if (!files)
		return error("out of memory");
	for (int i = 0; i < argc && !status; i++) {
		const char *v;
		int id = next_option(argc, argv, &i, c->bit, &v);
		if (id == -1)
			files[nfiles++] = argv[i];
		else if (id == -2)
			status = PTXI_INVALID;
		else if (id == OPT_RULE || id == OPT_RULES)
			status = rule_option(&sev, id, v);
		else if (common_option(id, v, c, &format) > 1)
			status = PTXI_INVALID;
	}
	if (!status && !nfiles)
		status = usage("check needs at least one file%s", "");
	ptxi_report *report = status ? NULL : open_report(format, &status);
	bool failed = false;
	for (int i = 0; i < nfiles && !status; i++) /* every file, whatever the others gave */
		if (ptxi_check_with(files[i], sink, NULL, report, sev))
			failed = true;
	if (ptxi_report_finish(report) != 0 || failed)
		status = PTXI_INVALID;
	ptxi_severities_free(sev);
	free(files);
	return status;
}

/* explain and info: one operand, --color and --help. */
static int one_operand(const struct command *c, int argc, char **argv, const char **operand)
{
	*operand = NULL;
	enum ptxi_diag_format f;
	for (int i = 0; i < argc; i++) {
		const char *v;
		int id = next_option(argc, argv, &i, c->bit, &v);
		if (id == -2)
			return PTXI_INVALID;
		if (id >= 0) {
			int st = common_option(id, v, c, &f);
			if (st > 1)
				return st - 1;
		} else if (*operand) {
			return usage("%s takes one operand ('ptxi COMMAND --help')", c->name);
		} else {
			*operand = argv[i];
		}
	}
	return 0;
}

static int cmd_explain(const struct command *c, int argc, char **argv)
{
	if (argc == 1 && strcmp(argv[0], "--markdown") == 0) { /* docs/explain.md */
		ptxi_explain_markdown(stdout);
		return 0;
	}
	if (argc == 1 && strcmp(argv[0], "--static-markdown") == 0) { /* docs/static-checks.md */
		ptxi_explain_static_markdown(stdout);
		return 0;
	}
	const char *topic;
	int st = one_operand(c, argc, argv, &topic);
	return st ? st : ptxi_explain(topic, stdout, stderr);
}

static int cmd_info(const struct command *c, int argc, char **argv)
{
	const char *file;
	int st = one_operand(c, argc, argv, &file);
	if (st)
		return st;
	if (!file)
		return usage("info needs a PTX file%s", "");
	ptxi_module *m = ptxi_module_load(file, sink, NULL);
	if (!m)
		return PTXI_INVALID;
	st = ptxi_module_errors(m) ? PTXI_INVALID : ptxi_module_info(m, file, stdout);
	ptxi_module_free(m);
	return st;
}

/* ---- run -------------------------------------------------------------------------------- */

struct run_opts {
	const char *file;
	struct ptxi_config cfg;
	struct ptxi_arg args[MAX_ARGS];
	unsigned nargs;
	struct ptxi_set sets[MAX_SETS];
	unsigned nsets;
	struct ptxi_set buffers[MAX_SETS]; /* --buffer */
	unsigned nbuffers;
	struct dump_spec dumps[MAX_DUMPS];
	unsigned ndumps;
	struct expect_spec expects[MAX_DUMPS]; /* --expect */
	unsigned nexpects;
	struct cli_owned own;
	unsigned explore;       /* --explore N: seeded schedules to try (explore.c)        */
	bool stats;
	const char *timeline;   /* --timeline FILE.html */
	ptxi_severities *sev;   /* --rule, --rules (NULL: none given)                        */
	bool trace_width_given;
	enum ptxi_diag_format format;
	bool progress;          /* --progress: show the progress line                       */
	struct timespec t0;     /* the launch's start, and when the line is next rewritten   */
	double progress_at;
	bool told_long;         /* the note that the grid takes over an hour is out           */
};

/* Mapped, not calloc'd: of its ~70 KiB a run writes a few entries, and calloc would zero
 * (fault in) every page, ~15 us each on the development VM. Zero bytes: no option given. */
static struct run_opts *run_opts_new(void)
{
	void *p = mmap(NULL, sizeof(struct run_opts), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

static void run_opts_free(struct run_opts *o)
{
	if (o)
		munmap(o, sizeof *o);
}

static int count_option(const char *name, const char *v, uint64_t lo, uint64_t hi, uint64_t *n,
			const char *want)
{
	if (!cli_parse_u64(v, n) || *n < lo || *n > hi) {
		char msg[300];
		snprintf(msg, sizeof msg, "bad --%s '%%s' (%s)", name, want);
		return usage(msg, v);
	}
	return 0;
}

static int dims_option(const char *name, const char *v, uint32_t d[3])
{
	if (cli_parse_coords(v, d, 1, 1))
		return 0;
	char msg[300];
	snprintf(msg, sizeof msg, "bad --%s '%%s' (want X[,Y[,Z]], each 1 to 2147483647)", name);
	return usage(msg, v);
}

/* --buffer NAME=SPEC: a named buffer, not an argument. */
static int buffer_option(struct run_opts *o, const char *v)
{
	const char *eq = strchr(v, '=');
	if (!eq || eq == v || o->nbuffers == MAX_SETS || strspn(v, "0123456789") > 0)
		return usage("bad --buffer '%s' (want NAME=SPEC, NAME not a number; at most 64)", v);
	struct ptxi_set *s = &o->buffers[o->nbuffers];
	s->symbol = cli_keep(&o->own, strndup(v, (size_t)(eq - v)));
	if (!s->symbol)
		return PTXI_INVALID;
	for (unsigned i = 0; i < o->nbuffers; i++)
		if (strcmp(o->buffers[i].symbol, s->symbol) == 0)
			return usage("--buffer %s is given twice", s->symbol);
	if (!cli_parse_value(eq + 1, &s->value, &o->own))
		return PTXI_INVALID;
	if (s->value.kind != PTXI_ARG_BUFFER || s->value.ref)
		return usage("--buffer '%s': want NAME=buf:BYTES[:FILL] or NAME=file:PATH", v);
	o->nbuffers++;
	return 0;
}

static int set_option(struct run_opts *o, const char *v)
{
	const char *eq = strchr(v, '=');
	if (!eq || eq == v || o->nsets == MAX_SETS)
		return usage("bad --set '%s' (want SYMBOL=SPEC; at most 64)", v);
	struct ptxi_set *s = &o->sets[o->nsets];
	s->symbol = cli_keep(&o->own, strndup(v, (size_t)(eq - v)));
	if (!s->symbol)
		return PTXI_INVALID;
	for (unsigned i = 0; i < o->nsets; i++) /* else the last would silently win */
		if (strcmp(o->sets[i].symbol, s->symbol) == 0)
			return usage("--set %s is given twice", s->symbol);
	if (!cli_parse_value(eq + 1, &s->value, &o->own))
		return PTXI_INVALID;
	o->nsets++;
	return 0;
}

static int dump_option(struct run_opts *o, const char *v, bool out)
{
	if (o->ndumps == MAX_DUMPS)
		return usage("too many --dump and --out (at most 64)%s", "");
	struct dump_spec *d = &o->dumps[o->ndumps];
	if (out ? !cli_parse_out(v, d) : !cli_parse_dump(v, d))
		return usage(out ? "bad --out '%s' (want N[@OFF]=PATH or SYMBOL[@OFF]=PATH)"
				 : "bad --dump '%s' (want N[@OFF][:FMT][:COUNT] or "
				   "SYMBOL[@OFF][:FMT][:COUNT], FMT one of u8 u16 u32 u64 s32 f16 "
				   "bf16 f32 f64 hex)", v);
	if (d->symbol)
		cli_keep(&o->own, (void *)d->symbol);
	o->ndumps++;
	return 0;
}

static int trace_option(struct run_opts *o, int id, const char *v)
{
	uint64_t n;
	switch (id) {
	case OPT_TRACE:
		o->cfg.trace_mbarrier = strcmp(v, "mbarrier") == 0;
		o->cfg.trace_all = strcmp(v, "all") == 0;
		return o->cfg.trace_mbarrier || o->cfg.trace_all
			       ? 0 : usage("bad --trace '%s' (mbarrier or all)", v);
	case OPT_TRACE_CTA:
		o->cfg.trace_cta_given = true;
		return cli_parse_coords(v, o->cfg.trace_cta, 0, 0)
			       ? 0 : usage("bad --trace-cta '%s' (want X[,Y[,Z]] of a CTA)", v);
	case OPT_TRACE_WARP:
		o->cfg.trace_warp_given = true;
		o->cfg.trace_warp = (uint32_t)(cli_parse_u64(v, &n) ? n : 0);
		return cli_parse_u64(v, &n) && n <= 31
			       ? 0 : usage("bad --trace-warp '%s' (a warp of the CTA: 0-31)", v);
	case OPT_TRACE_LINES: {
		const char *colon = strrchr(v, ':'); /* FILE.cu:A-B: lines of a .loc source */
		if (colon && colon > v &&
		    !(o->cfg.trace_lines_file = cli_keep(&o->own, strndup(v, (size_t)(colon - v)))))
			return PTXI_INVALID;
		return cli_parse_line_range(colon ? colon + 1 : v, o->cfg.trace_lines)
			       ? 0 : usage("bad --trace-lines '%s' (want [FILE.cu:]A-B or A, lines from 1)", v);
	}
	case OPT_TRACE_WIDTH:
		o->trace_width_given = true;
		if (!cli_parse_u64(v, &n) || (n && n < 40) || n > 100000)
			return usage("bad --trace-width '%s' (0: never fold, else 40 or more)", v);
		o->cfg.trace_width = (uint32_t)n;
		return 0;
	}
	return 0;
}

/* One option of `ptxi run`. */
static int run_option(struct run_opts *o, int id, const char *v)
{
	uint64_t n = 0;
	int st = 0;
	switch (id) {
	case OPT_KERNEL:
		o->cfg.kernel = v;
		break;
	case OPT_CTAS:
		o->cfg.ctas = v; /* checked against the grid at the launch */
		break;
	case OPT_GRID:
		return dims_option("grid", v, o->cfg.grid);
	case OPT_BLOCK:
		return dims_option("block", v, o->cfg.block);
	case OPT_CLUSTER:
		o->cfg.cluster_given = true;
		return dims_option("cluster", v, o->cfg.cluster);
	case OPT_SHARED:
		st = count_option("shared", v, 0, 0x7fffffff, &n, "want a byte count");
		o->cfg.dyn_shared = (uint32_t)n;
		break;
	case OPT_ARG:
		if (o->nargs == MAX_ARGS)
			return usage("too many --arg (at most 256)%s", "");
		if (!cli_parse_value(v, &o->args[o->nargs], &o->own))
			return PTXI_INVALID;
		o->nargs++;
		break;
	case OPT_SET:
		return set_option(o, v);
	case OPT_BUFFER:
		return buffer_option(o, v);
	case OPT_DUMP:
	case OPT_OUT:
		return dump_option(o, v, id == OPT_OUT);
	case OPT_EXPECT:
		if (o->nexpects == MAX_DUMPS ||
		    !cli_parse_expect(v, &o->expects[o->nexpects], &o->own))
			return usage("bad --expect '%s' (want N[@OFF]=FILE[,rtol=R][,atol=A][,type=T] "
				     "or SYMBOL[@OFF]=FILE[,...]; at most 64)", v);
		o->nexpects++;
		return 0;
	case OPT_KEEP_GOING:
		o->cfg.keep_going = true;
		break;
	case OPT_COOPERATIVE:
		o->cfg.cooperative = true;
		break;
	case OPT_NO_RACE:
		o->cfg.no_race = true;
		break;
	case OPT_NO_JIT:
		o->cfg.no_jit = true;
		break;
	case OPT_STATS:
		o->stats = true;
		break;
	case OPT_SEED:
		st = count_option("seed", v, 0, UINT64_MAX, &o->cfg.seed, "want a number");
		break;
	case OPT_EXPLORE:
		st = count_option("explore", v, 1, 100000, &n, "want a number of schedules, 1-100000");
		o->explore = (unsigned)n;
		break;
	case OPT_JOBS:
		st = count_option("jobs", v, 1, PTXI_MAX_JOBS, &n, "want a number of threads, 1-256");
		o->cfg.jobs = (unsigned)n;
		break;
	case OPT_MAX_STEPS:
		st = count_option("max-steps", v, 1, UINT64_MAX, &o->cfg.max_steps, "want a count");
		break;
	case OPT_MAX_MEMORY:
		st = count_option("max-memory", v, 0, UINT64_MAX, &n, "want a byte count");
		o->cfg.max_memory = n ? n : UINT64_MAX;
		break;
	case OPT_MAX_ERRORS:
		st = count_option("max-errors", v, 0, UINT32_MAX - 1, &n, "want a count; 0: no limit");
		o->cfg.max_errors = n ? (uint32_t)n : UINT32_MAX;
		break;
	case OPT_HEAP:
		st = count_option("heap", v, 1, 1ull << 34, &n,
				  "want a byte count, at most 16 GiB");
		o->cfg.heap_bytes = n;
		break;
	case OPT_TIMELINE:
		o->timeline = v;
		break;
	case OPT_RULE:
	case OPT_RULES:
		return rule_option(&o->sev, id, v);
	case OPT_PROGRESS:
		if (strcmp(v, "auto") && strcmp(v, "always") && strcmp(v, "never"))
			return usage("bad --progress '%s' (auto, always or never)", v);
		o->progress = strcmp(v, "always") == 0 || (strcmp(v, "auto") == 0 && isatty(STDERR_FILENO));
		break;
	default:
		return trace_option(o, id, v);
	}
	return st;
}

/* --trace-cta, --trace-warp and --trace-lines narrow --trace: without it, or naming a CTA or
 * warp the launch does not have, they would silently trace nothing. */
static int check_trace_filters(const struct ptxi_config *c)
{
	bool filtered = c->trace_cta_given || c->trace_warp_given || c->trace_lines[1];
	if (filtered && !c->trace_mbarrier && !c->trace_all)
		return usage("--trace-cta, --trace-warp and --trace-lines narrow --trace: give "
			     "--trace mbarrier or --trace all%s", "");
	for (int d = 0; c->trace_cta_given && d < 3; d++)
		if (c->trace_cta[d] >= c->grid[d])
			return error("--trace-cta %u,%u,%u: the grid is (%u,%u,%u) CTAs",
				     c->trace_cta[0], c->trace_cta[1], c->trace_cta[2], c->grid[0],
				     c->grid[1], c->grid[2]);
	uint64_t threads = (uint64_t)c->block[0] * c->block[1] * c->block[2];
	if (c->trace_warp_given && c->trace_warp >= (threads + 31) / 32)
		return error("--trace-warp %u: the CTAs of this launch have warps 0-%llu",
			     c->trace_warp, (unsigned long long)(threads + 31) / 32 - 1);
	return 0;
}

static int parse_run(const struct command *c, int argc, char **argv, struct run_opts *o)
{
	o->progress = isatty(STDERR_FILENO);
	for (int d = 0; d < 3; d++)
		o->cfg.grid[d] = o->cfg.block[d] = o->cfg.cluster[d] = 1;
	for (int i = 0; i < argc; i++) {
		const char *v;
		int id = next_option(argc, argv, &i, c->bit, &v), st;
		if (id == -2)
			return PTXI_INVALID;
		if (id == -1) {
			if (o->file)
				return usage("more than one PTX file ('%s')", argv[i]);
			o->file = argv[i];
		} else if ((st = common_option(id, v, c, &o->format)) > 1) {
			return st - 1;
		} else if (!st && (st = run_option(o, id, v))) {
			return st;
		}
	}
	if (!o->file)
		return usage("run needs a PTX file%s", "");
	for (unsigned i = 0; i < o->ndumps; i++) {
		const struct dump_spec *d = &o->dumps[i];
		if (!d->symbol && !d->at_field &&
		    (d->arg >= o->nargs || o->args[d->arg].kind != PTXI_ARG_BUFFER))
			return error("--%s %s: argument %u is not a buffer (buf: or file:)",
				     d->path ? "out" : "dump", d->text, d->arg);
	}
	o->cfg.sets = o->sets;
	o->cfg.nsets = o->nsets;
	o->cfg.severities = o->sev;
	o->cfg.buffers = o->buffers;
	o->cfg.nbuffers = o->nbuffers;
	return check_trace_filters(&o->cfg);
}

static void print_stats(ptxi_run *r, const struct timespec *t0, const struct timespec *t1)
{
	uint64_t wi, ti;
	ptxi_run_stats(r, &wi, &ti);
	double s = (double)(t1->tv_sec - t0->tv_sec) + (double)(t1->tv_nsec - t0->tv_nsec) * 1e-9;
	fprintf(stderr,
		"ptxi: stats: %" PRIu64 " warp-instructions, %" PRIu64
		" thread-instructions, %.3f s (%.1f M thread-instructions/s)\n",
		wi, ti, s, s > 0 ? (double)ti / s / 1e6 : 0.0);
	fprintf(stderr, "ptxi: stats: peak memory %" PRIu64 " bytes (%.1f MiB)\n",
		ptxi_run_peak_memory(r), (double)ptxi_run_peak_memory(r) / (1 << 20));
}

static volatile sig_atomic_t interrupted; /* Ctrl-C: the launch reports where it stands */

static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

static double seconds_since(const struct timespec *t0)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) * 1e-9;
}

/* "1 h 05 min", "3 min 20 s", "12 s" */
static void duration(double s, char *out, size_t n)
{
	unsigned long long t = (unsigned long long)(s + 0.5);
	if (t >= 3600)
		snprintf(out, n, "%llu h %02llu min", t / 3600, t / 60 % 60);
	else if (t >= 60)
		snprintf(out, n, "%llu min %02llu s", t / 60, t % 60);
	else
		snprintf(out, n, "%llu s", t);
}

/* The progress line, rewritten in place once the launch has run 2 s (--progress): the CTAs
 * done and, once a cluster has finished, the time left at the pace so far; a grid that
 * would take over an hour at that pace is told once, progress line or not. */
static void progress_line(void *ctx, const struct ptxi_progress *p)
{
	struct run_opts *o = ctx;
	double s = seconds_since(&o->t0);
	double left = p->clusters_done ? s / (double)p->clusters_done *
					       (double)(p->clusters - p->clusters_done) : -1;
	char eta[48] = "", d[32];
	if (left >= 0) {
		duration(left, d, sizeof d);
		snprintf(eta, sizeof eta, ", about %s left", d);
	}
	if (left > 3600 && !o->told_long) {
		o->told_long = true;
		clear_progress();
		duration(left + s, d, sizeof d);
		fprintf(stderr, "ptxi: note: at this pace the grid of %" PRIu64 " CTAs takes about %s "
			"(Ctrl-C stops it and says where its warps stand)\n",
			p->clusters * p->cluster_ctas, d);
	}
	if (!o->progress || s < 2 || s < o->progress_at)
		return;
	o->progress_at = s + 0.5; /* twice a second is enough to read */
	fprintf(stderr, "\rptxi: %.0f s, %.1f M warp-instructions, %" PRIu64 " of %" PRIu64
		" CTAs finished%s, %u warps running, %u waiting (Ctrl-C: where they stand)\033[K",
		s, (double)p->steps / 1e6, p->clusters_done * p->cluster_ctas,
		p->clusters * p->cluster_ctas, eta, p->warps_running, p->warps_waiting);
	fflush(stderr);
	progress_on_screen = true;
}

/* One launch with its dumps, --out files and statistics. */
static int launch(struct run_opts *o, ptxi_module *m)
{
	if (o->timeline && !(o->cfg.timeline_out = fopen(o->timeline, "w")))
		return error("cannot write --timeline '%s': %s", o->timeline, strerror(errno));
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	o->t0 = t0;
	o->cfg.progress = progress_line; /* the line (--progress), a note on a long grid */
	o->cfg.progress_ctx = o;
	o->cfg.interrupt = &interrupted;
	if (o->stats && !o->cfg.jobs)
		o->cfg.jobs = 1; /* peak memory as one thread has it, not clusters side by side */
	void (*old)(int) = signal(SIGINT, on_sigint);
	ptxi_run *r = NULL;
	int status = ptxi_launch(m, &o->cfg, o->args, o->nargs, &r);
	signal(SIGINT, old);
	clear_progress();
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (o->cfg.timeline_out && fclose(o->cfg.timeline_out) != 0 && status != 2)
		status = error("could not write --timeline '%s'", o->timeline);
	if (r && status != 2 && ptxi_run_stopped(r) && (o->ndumps || o->nexpects))
		fprintf(stderr, "ptxi: note: the launch stopped before its threads finished: "
			"--dump, --out and --expect see memory as it was then\n");
	if (r && status != 2 && cli_dump_all(m, r, o->dumps, o->ndumps))
		status = PTXI_INVALID;
	int est = r && status != 2 ? cli_expect_all(m, r, o->expects, o->nexpects) : 0;
	if (est && (status == PTXI_OK || est == PTXI_INVALID))
		status = est;
	if (r && o->stats)
		print_stats(r, &t0, &t1);
	ptxi_run_free(r);
	return status;
}

static int cmd_run(const struct command *c, int argc, char **argv)
{
	struct run_opts *o = run_opts_new();
	if (!o)
		return error("out of memory");
	ptxi_report *report = NULL;
	int status = parse_run(c, argc, argv, o);
	if (!status && !o->trace_width_given && isatty(STDERR_FILENO))
		o->cfg.trace_width = 120;
	if (!status)
		report = open_report(o->format, &status);
	if (!status) {
		ptxi_module *m = ptxi_module_load_with(o->file, sink, NULL, report, o->sev);
		if (!m || ptxi_module_errors(m))
			status = PTXI_INVALID;
		else if (o->explore)
			status = explore_run(m, &o->cfg, o->args, o->nargs, o->dumps, o->ndumps,
					     o->explore, o->format == PTXI_DIAG_TEXT);
		else
			status = launch(o, m);
		ptxi_module_free(m);
	}
	if (ptxi_report_finish(report) != 0 && !status)
		status = PTXI_INVALID;
	cli_owned_free(&o->own);
	ptxi_severities_free(o->sev);
	run_opts_free(o);
	return status;
}

/* ptxi debug: the run options, and the commands from -ex and --batch (debug.c). */
static int cmd_debug(const struct command *c, int argc, char **argv)
{
	struct debug_script script;
	struct run_opts *o = run_opts_new();
	argc = o ? debug_take_args(&script, argc, argv) : -1;
	int status = argc < 0 ? PTXI_INVALID : parse_run(c, argc, argv, o);
	if (!status && (o->explore || o->format != PTXI_DIAG_TEXT || o->ndumps || o->timeline))
		status = usage("debug runs one schedule and writes text%s: no --explore, "
			       "--diagnostics, --dump, --out or --timeline", "");
	if (!status) {
		struct debug_out out = {.to = stderr}; /* the session's output from its first stop */
		ptxi_module *m = ptxi_module_load(o->file, debug_sink, &out);
		if (!m || ptxi_module_errors(m))
			status = PTXI_INVALID;
		else
			status = debug_session(m, &o->cfg, o->args, o->nargs, &script, &out);
		ptxi_module_free(m);
	}
	if (argc >= 0)
		free(script.ex);
	if (o)
		cli_owned_free(&o->own);
	run_opts_free(o);
	return status;
}

int main(int argc, char **argv)
{
	set_color("auto");
	if (argc < 2) {
		usage_all(stderr);
		return PTXI_INVALID;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage_all(stdout);
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("ptxi %s\n", ptxi_version());
		return 0;
	}
	if (strcmp(argv[1], "exec") == 0)
		return cli_exec(argc - 2, argv + 2);
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].fn(&commands[i], argc - 2, argv + 2);
	return usage("unknown command '%s'", argv[1]);
}
