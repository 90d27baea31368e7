/*
 * explain.c - `ptxi explain`: what a rule, an instruction or a concept means, with a live
 * run of a sample that shows the state change, or for a static check the check of its
 * sample. Every text comes from topics.def, rules.def and checks.def, so explain,
 * docs/explain.md, docs/static-checks.md and the rule help in reports cannot drift.
 */
#include "explain.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "front/checks.h"
#include "ptxi/ptxi.h"
#include "report/rules.h"

#define WIDTH 88
#define SAMPLE_DIR "ptx_samples/explain/"
#define CHECKS_DIR "ptx_samples/checks/"

enum topic_kind { TK_CONCEPT, TK_INSN, TK_RULE, TK_CHECK };

static const char *const kind_name[] = {[TK_CONCEPT] = "concept",
					[TK_INSN] = "instruction",
					[TK_RULE] = "run-time rule",
					[TK_CHECK] = "static check"};

enum sample_id {
	NO_SAMPLE = -1,
#define SAMPLE(id, file, grid, cluster, block, args, trace, lo, hi) SAMPLE_##id,
#define TOPIC(id, kind, name, section, sample, what, h100)
#define APPLIES(topic, rule)
#define RULE_SAMPLE(rule, sample)
#include "topics.def"
#undef SAMPLE
#undef TOPIC
#undef APPLIES
#undef RULE_SAMPLE
	SAMPLE__COUNT
};

struct sample {
	const char *file;
	unsigned grid, cluster, block;
	const char *args;       /* --arg specs, separated by spaces                        */
	const char *trace;      /* --trace KIND ("mbarrier", "all") or ""                  */
	unsigned lines[2];      /* --trace-lines A-B, or 0 0                               */
};

static const struct sample samples[SAMPLE__COUNT] = {
#define SAMPLE(id, file, grid, cluster, block, args, trace, lo, hi)                        \
	[SAMPLE_##id] = {file, grid, cluster, block, args, trace, {lo, hi}},
#define TOPIC(id, kind, name, section, sample, what, h100)
#define APPLIES(topic, rule)
#define RULE_SAMPLE(rule, sample)
#include "topics.def"
#undef SAMPLE
#undef TOPIC
#undef APPLIES
#undef RULE_SAMPLE
};

enum topic_id {
#define SAMPLE(id, file, grid, cluster, block, args, trace, lo, hi)
#define TOPIC(id, kind, name, section, sample, what, h100) TOPIC_##id,
#define APPLIES(topic, rule)
#define RULE_SAMPLE(rule, sample)
#include "topics.def"
#undef SAMPLE
#undef TOPIC
#undef APPLIES
#undef RULE_SAMPLE
	TOPIC__COUNT
};

struct topic {
	enum topic_kind kind;
	const char *name, *section, *what, *h100;
	int sample;
};

static const struct topic topics[TOPIC__COUNT] = {
#define SAMPLE(id, file, grid, cluster, block, args, trace, lo, hi)
#define TOPIC(id, kind, name, section, sample, what, h100)                                 \
	[TOPIC_##id] = {kind, name, section, what, h100, SAMPLE_##sample},
#define APPLIES(topic, rule)
#define RULE_SAMPLE(rule, sample)
#define SAMPLE_NO_SAMPLE NO_SAMPLE
#include "topics.def"
#undef SAMPLE
#undef TOPIC
#undef APPLIES
#undef RULE_SAMPLE
#undef SAMPLE_NO_SAMPLE
};

static const struct {
	enum topic_id topic;
	enum rule_id rule;
} applies[] = {
#define SAMPLE(id, file, grid, cluster, block, args, trace, lo, hi)
#define TOPIC(id, kind, name, section, sample, what, h100)
#define APPLIES(topic, rule) {TOPIC_##topic, RULE_##rule},
#define RULE_SAMPLE(rule, sample)
#include "topics.def"
#undef SAMPLE
#undef TOPIC
#undef APPLIES
#undef RULE_SAMPLE
};
#define NAPPLIES (sizeof applies / sizeof applies[0])

/* Run-time rules that explain shows live, with the sample that breaks them. */
static const struct {
	enum rule_id rule;
	enum sample_id sample;
} rule_samples[] = {
#define SAMPLE(id, file, grid, cluster, block, args, trace, lo, hi)
#define TOPIC(id, kind, name, section, sample, what, h100)
#define APPLIES(topic, rule)
#define RULE_SAMPLE(rule, sample) {RULE_##rule, SAMPLE_##sample},
#include "topics.def"
#undef SAMPLE
#undef TOPIC
#undef APPLIES
#undef RULE_SAMPLE
};
#define NRULE_SAMPLES (sizeof rule_samples / sizeof rule_samples[0])

/* The sample that shows rule r live, or NO_SAMPLE. */
static int rule_sample(enum rule_id r)
{
	for (size_t i = 0; i < NRULE_SAMPLES; i++)
		if (rule_samples[i].rule == r)
			return rule_samples[i].sample;
	return NO_SAMPLE;
}

/* A topic found by name: one of topics[], a rule of rules.def or a check of checks.def. */
struct found {
	enum topic_kind kind;
	int index;              /* topic_id, rule_id for TK_RULE, check_id for TK_CHECK */
};

static bool find_topic(const char *name, struct found *f)
{
	for (int i = 0; i < TOPIC__COUNT; i++)
		if (strcasecmp(topics[i].name, name) == 0) {
			*f = (struct found){topics[i].kind, i};
			return true;
		}
	for (int r = 0; r < RULE__COUNT; r++)
		if (strcasecmp(rule_info(r)->name, name) == 0) {
			*f = (struct found){TK_RULE, r};
			return true;
		}
	int k = check_find(name);
	if (k >= 0)
		*f = (struct found){TK_CHECK, k};
	return k >= 0;
}

/* ---- text output ------------------------------------------------------------------- */

/* Print `text` wrapped at WIDTH, every line starting with `indent`. */
static void wrap(FILE *out, const char *indent, const char *text)
{
	size_t room = WIDTH - strlen(indent), col = 0;
	const char *p = text;
	while (*p) {
		while (*p == ' ')
			p++;
		size_t n = strcspn(p, " ");
		if (!n)
			break;
		if (col && col + 1 + n > room) {
			fputc('\n', out);
			col = 0;
		}
		fputs(col ? " " : indent, out);
		fwrite(p, 1, n, out);
		col += (col ? 1 : 0) + n;
		p += n;
	}
	if (col)
		fputc('\n', out);
}

/* The embedded text of sample s (keyed by its path under ptx_samples/), or NULL. */
static const char *sample_text(int s)
{
	char key[128];
	snprintf(key, sizeof key, "explain/%s", samples[s].file);
	return explain_sample_text(key);
}

/* The command that runs sample s, as its first `// run:` line gives it. */
void explain_sample_command(int s, char *buf, size_t size)
{
	const struct sample *x = &samples[s];
	int n = snprintf(buf, size, "ptxi run " SAMPLE_DIR "%s", x->file);
	if (x->grid > 1)
		n += snprintf(buf + n, size - n, " --grid %u", x->grid);
	if (x->cluster > 1)
		n += snprintf(buf + n, size - n, " --cluster %u", x->cluster);
	n += snprintf(buf + n, size - n, " --block %u", x->block);
	for (const char *a = x->args; *a;) {
		size_t len = strcspn(a, " ");
		n += snprintf(buf + n, size - n, " --arg %.*s", (int)len, a);
		a += len + strspn(a + len, " ");
	}
	if (x->trace[0])
		n += snprintf(buf + n, size - n, " --trace %s", x->trace);
	if (x->lines[1])
		snprintf(buf + n, size - n, " --trace-lines %u-%u", x->lines[0], x->lines[1]);
}

static void collect(void *ctx, int level, const char *text)
{
	fputs(text, (FILE *)ctx);
}

/* Run sample s as its command says; its trace and diagnostics into *text (malloc'd).
 * Returns the exit status, or -1 when the sample is not embedded. */
static int run_sample(int s, char **text)
{
	const char *src = sample_text(s);
	size_t len;
	FILE *mem = open_memstream(text, &len);
	ptxi_args *args = ptxi_args_new();
	if (!src || !mem || !args) {
		if (mem)
			fclose(mem);
		ptxi_args_free(args);
		*text = NULL;
		return -1;
	}
	const struct sample *x = &samples[s];
	char why[200], spec[256];
	for (const char *a = x->args; *a;) {
		size_t n = strcspn(a, " ");
		snprintf(spec, sizeof spec, "%.*s", (int)n, a);
		if (ptxi_args_add_spec(args, spec, why, sizeof why) != PTXI_OK)
			fprintf(mem, "ptxi: error: %s\n", why);
		a += n + strspn(a + n, " ");
	}
	char name[128];
	snprintf(name, sizeof name, SAMPLE_DIR "%s", x->file);
	ptxi_module *m = ptxi_module_load_string(name, src, collect, mem);
	struct ptxi_config cfg = {.grid = {x->grid, 1, 1}, .block = {x->block, 1, 1},
				  .cluster = {x->cluster, 1, 1}, .cluster_given = x->cluster > 1,
				  .trace_mbarrier = strcmp(x->trace, "mbarrier") == 0,
				  .trace_all = strcmp(x->trace, "all") == 0,
				  .trace_lines = {x->lines[0], x->lines[1]}, .trace_out = mem};
	unsigned nargs;
	const struct ptxi_arg *list = ptxi_args_list(args, &nargs);
	int st = m ? ptxi_launch(m, &cfg, list, nargs, NULL) : PTXI_INVALID;
	ptxi_module_free(m);
	ptxi_args_free(args);
	fclose(mem);
	return st;
}

/* Line `line` of text, without its indentation, as "%.*s" arguments. */
static int source_line(const char *text, unsigned line, const char **start)
{
	for (unsigned l = 1; text && *text && l < line; l++) {
		text = strchr(text, '\n');
		text = text ? text + 1 : NULL;
	}
	if (!text)
		return 0;
	text += strspn(text, " \t");
	*start = text;
	return (int)strcspn(text, "\n");
}

/* One trace line as "line N: SOURCE" then what happened, wrapped under it; any other
 * line (a diagnostic) as it is. */
static void print_run_line(FILE *out, const char *src, const char *line, size_t n,
			   const char *indent)
{
	static const char tag[] = "[trace] " SAMPLE_DIR;
	const char *colon = NULL;
	if (n > sizeof tag - 1 && strncmp(line, tag, sizeof tag - 1) == 0)
		colon = memchr(line + sizeof tag - 1, ':', n - (sizeof tag - 1));
	if (!colon && n > 9 && strncmp(line, "        %", 9) == 0) { /* --trace all's values */
		char *values = strndup(line + 8, n - 8), sub[32];
		snprintf(sub, sizeof sub, "%s    ", indent);
		wrap(out, sub, values);
		free(values);
		return;
	}
	if (!colon) {
		fprintf(out, "%s%.*s\n", indent, (int)n, line);
		return;
	}
	char *rest = strndup(colon + 1, n - (size_t)(colon + 1 - line));
	unsigned num = (unsigned)strtoul(rest, NULL, 10);
	const char *code = NULL;
	int len = source_line(src, num, &code);
	fprintf(out, "%sline %u: %.*s\n", indent, num, len, code ? code : "");
	char sub[32];
	snprintf(sub, sizeof sub, "%s    ", indent);
	wrap(out, sub, rest + strspn(rest, "0123456789:"));
	free(rest);
}

static void print_run(FILE *out, int s, const char *indent)
{
	char *text;
	int st = run_sample(s, &text);
	if (st < 0) {
		fprintf(out, "%s(the sample is not built into this ptxi)\n", indent);
		return;
	}
	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "\n");
		print_run_line(out, sample_text(s), p, n, indent);
		p += n + (p[n] == '\n');
	}
	free(text);
	fprintf(out, "%sexit status %d\n", indent, st);
}

static void print_rule_line(FILE *out, enum rule_id r)
{
	const struct rule_info *ri = rule_info(r);
	char *line;
	if (asprintf(&line, "%s (%s%s): %s", ri->name, rule_source(ri->section), ri->section, ri->text) < 0)
		return;
	wrap(out, "  ", line);
	free(line);
}

/* "Example, run live:" and the run of sample s (NO_SAMPLE: nothing). */
static void print_example(FILE *out, int s)
{
	if (s == NO_SAMPLE)
		return;
	char cmd[512];
	explain_sample_command(s, cmd, sizeof cmd);
	fprintf(out, "\nExample, run live:\n  $ %s\n", cmd);
	print_run(out, s, "  ");
}

static void explain_topic(FILE *out, enum topic_id t)
{
	const struct topic *x = &topics[t];
	fprintf(out, "%s - %s (PTX ISA %s)\n\n", x->name, kind_name[x->kind], x->section);
	wrap(out, "  ", x->what);
	if (x->h100[0]) {
		fputs("\nOn the H100:\n", out);
		wrap(out, "  ", x->h100);
	}
	bool any = false;
	for (size_t i = 0; i < NAPPLIES; i++)
		if (applies[i].topic == t) {
			fputs(any ? "" : "\nRules (ptxi explain RULE for each):\n", out);
			print_rule_line(out, applies[i].rule);
			any = true;
		}
	print_example(out, x->sample);
}

/* `live`: also run the rule's sample, if it has one (SARIF's help leaves that out). */
static void explain_rule(FILE *out, enum rule_id r, bool live)
{
	const struct rule_info *ri = rule_info(r);
	fprintf(out, "%s - %s (%s%s)\n\n", ri->name, kind_name[TK_RULE],
		rule_source(ri->section), ri->section);
	wrap(out, "  ", ri->text);
	fprintf(out, "\nWhen it is broken:\n");
	wrap(out, "  ", ri->on_break == RB_FAULT
			    ? "the H100 faults or the result is meaningless: ptxi stops the "
			      "launch, even with --keep-going."
			    : ri->on_break == RB_WARN
			    ? "a warning (--rule NAME=error makes it an error): ptxi reports it and "
			      "carries on, as the H100 does."
			    : "the H100 carries on: with --keep-going so does ptxi (--rule "
			      "NAME=warning reports it as a warning and carries on).");
	wrap(out, "  ", ri->after);
	fprintf(out, "\nPrograms: tests/rules/%s/ (ok_* keep the rule, the others break it)\n",
		ri->name);
	bool any = false;
	for (size_t i = 0; i < NAPPLIES; i++)
		if (applies[i].rule == r) {
			fprintf(out, "%s%s", any ? ", " : "See also: ptxi explain ",
				topics[applies[i].topic].name);
			any = true;
		}
	if (any)
		fputc('\n', out);
	if (live)
		print_example(out, rule_sample(r));
}

/* ---- static checks ------------------------------------------------------------------ */

static const char *const check_level[] = {
	[DIAG_ERROR] = "error", [DIAG_WARNING] = "warning", [DIAG_NOTE] = "note"};

static const char *const check_effect[] = {
	[DIAG_ERROR] = "ptxas rejects the module: 'ptxi check' and 'ptxi run' report it and exit "
		       "with status 2, and nothing runs.",
	[DIAG_WARNING] = "ptxas accepts the module: ptxi warns, the exit status does not change "
			 "and 'ptxi run' runs it.",
	[DIAG_NOTE] = "ptxi says so once per module; the exit status does not change."};

/* ptx_samples/checks/NAME.ptx (ok: ptx_samples/checks/ok/NAME.ptx), or its embedding key. */
static void check_sample(char *buf, size_t size, enum check_id k, bool ok, bool key)
{
	snprintf(buf, size, "%s%s%s.ptx", key ? "checks/" : CHECKS_DIR, ok ? "ok/" : "",
		 check_info(k)->name);
}

/* `ptxi check` of an embedded sample, live: its diagnostics into out, then the status. */
static void print_check(FILE *out, enum check_id k, bool ok, const char *indent)
{
	char key[128], path[128];
	check_sample(key, sizeof key, k, ok, true);
	check_sample(path, sizeof path, k, ok, false);
	const char *src = explain_sample_text(key);
	char *text = NULL;
	size_t len;
	FILE *mem = src ? open_memstream(&text, &len) : NULL;
	if (!mem) {
		fprintf(out, "%s(the sample is not built into this ptxi)\n", indent);
		return;
	}
	ptxi_module *m = ptxi_module_load_string(path, src, collect, mem);
	int st = m && ptxi_module_errors(m) == 0 ? PTXI_OK : PTXI_INVALID;
	ptxi_module_free(m);
	fclose(mem);
	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "\n");
		fprintf(out, "%s%.*s\n", indent, (int)n, p);
		p += n + (p[n] == '\n');
	}
	free(text);
	fprintf(out, "%sexit status %d\n", indent, st);
}

/* `live`: check the samples now and show what ptxi says (SARIF's help leaves that out). */
static void explain_check(FILE *out, enum check_id k, bool live)
{
	const struct check_info *ci = check_info(k);
	char bad[128], ok[128];
	check_sample(bad, sizeof bad, k, false, false);
	check_sample(ok, sizeof ok, k, true, false);
	fprintf(out, "%s - %s, %s (PTX ISA %s)\n\n", ci->name, kind_name[TK_CHECK],
		check_level[ci->level], ci->section);
	wrap(out, "  ", ci->text);
	fprintf(out, "\nWhen it is broken:\n");
	wrap(out, "  ", check_effect[ci->level]);
	fprintf(out, "\nExample%s:\n  $ ptxi check %s\n", live ? ", checked live" : "", bad);
	if (live)
		print_check(out, k, false, "  ");
	fprintf(out, "\nCorrected:\n  $ ptxi check %s\n", ok);
	if (live)
		print_check(out, k, true, "  ");
}

/* What explain_rule (rule) or explain_check writes of topic i, without the live run, as one
 * malloc'd string; NULL when out of memory. */
static char *topic_text(bool rule, int i)
{
	char *text = NULL;
	size_t len;
	FILE *mem = open_memstream(&text, &len);
	if (!mem)
		return NULL;
	if (rule)
		explain_rule(mem, (enum rule_id)i, false);
	else
		explain_check(mem, (enum check_id)i, false);
	if (fclose(mem) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

char *explain_rule_text(int r)
{
	return topic_text(true, r);
}

char *explain_check_text(int k)
{
	return topic_text(false, k);
}

/* The name of topic i of kind k: topics[], rules.def or checks.def. */
static const char *topic_name(enum topic_kind k, int i)
{
	return k == TK_RULE ? rule_info(i)->name
	       : k == TK_CHECK ? check_info(i)->name
			       : topics[i].name;
}

static void list_topics(FILE *out)
{
	static const char *const heading[] = {[TK_CONCEPT] = "Concepts",
					      [TK_INSN] = "Instructions",
					      [TK_RULE] = "Run-time rules",
					      [TK_CHECK] = "Static checks"};
	fputs("usage: ptxi explain TOPIC   (a concept, an instruction, a rule or a static check)\n",
	      out);
	for (int k = TK_CONCEPT; k <= TK_CHECK; k++) {
		fprintf(out, "\n%s:\n", heading[k]);
		int col = 0;
		int n = k == TK_RULE ? RULE__COUNT : k == TK_CHECK ? CHECK__COUNT : TOPIC__COUNT;
		for (int i = 0; i < n; i++) {
			if (k < TK_RULE && topics[i].kind != (enum topic_kind)k)
				continue;
			const char *name = topic_name(k, i);
			int len = (int)strlen(name);
			if (col && col + 2 + len > WIDTH) {
				fputc('\n', out);
				col = 0;
			}
			col += fprintf(out, col ? "  %s" : "  %s", name);
		}
		fputc('\n', out);
	}
}

/* Topics whose names contain `name`, or start like it: "did you mean". */
static void suggest(FILE *out, const char *name)
{
	int shown = 0;
	size_t n = strlen(name);
	for (int i = 0; i < TOPIC__COUNT + RULE__COUNT + CHECK__COUNT && shown < 8; i++) {
		const char *t = i < TOPIC__COUNT		 ? topics[i].name
				: i < TOPIC__COUNT + RULE__COUNT ? rule_info(i - TOPIC__COUNT)->name
				: check_info(i - TOPIC__COUNT - RULE__COUNT)->name;
		if (strcasestr(t, name) || (n >= 3 && strncasecmp(t, name, 3) == 0))
			fprintf(out, "%s%s", shown++ ? ", " : " (did you mean: ", t);
	}
	if (shown)
		fputs("?)", out);
}

int ptxi_explain(const char *topic, FILE *out, FILE *err)
{
	if (!topic) {
		list_topics(out);
		return PTXI_OK;
	}
	struct found f;
	if (!find_topic(topic, &f)) {
		fprintf(err, "ptxi: error: no topic '%s'", topic);
		suggest(err, topic);
		fputs("; 'ptxi explain' lists them\n", err);
		return PTXI_INVALID;
	}
	if (f.kind == TK_RULE)
		explain_rule(out, f.index, true);
	else if (f.kind == TK_CHECK)
		explain_check(out, f.index, true);
	else
		explain_topic(out, f.index);
	return PTXI_OK;
}

/* ---- docs/explain.md ----------------------------------------------------------------- */

static void md_example(FILE *out, int s)
{
	if (s == NO_SAMPLE)
		return;
	char cmd[512];
	explain_sample_command(s, cmd, sizeof cmd);
	fprintf(out, "Example (`%s%s`):\n\n    $ %s\n", SAMPLE_DIR, samples[s].file, cmd);
	print_run(out, s, "    ");
	fputc('\n', out);
}

static void md_topic(FILE *out, enum topic_id t)
{
	const struct topic *x = &topics[t];
	fprintf(out, "### `%s`\n\n*%s, PTX ISA %s*\n\n%s\n\n", x->name, kind_name[x->kind],
		x->section, x->what);
	if (x->h100[0])
		fprintf(out, "**On the H100:** %s\n\n", x->h100);
	bool any = false;
	for (size_t i = 0; i < NAPPLIES; i++)
		if (applies[i].topic == t) {
			const struct rule_info *ri = rule_info(applies[i].rule);
			fprintf(out, "%s- [`%s`](rules.md) (%s): %s\n", any ? "" : "Rules:\n\n",
				ri->name, ri->section, ri->text);
			any = true;
		}
	if (any)
		fputc('\n', out);
	md_example(out, x->sample);
}

void ptxi_explain_markdown(FILE *out)
{
	fputs("# ptxi explain\n\n"
	      "Generated by `ptxi explain --markdown > docs/explain.md`; do not edit by hand (the\n"
	      "texts live in `src/host/topics.def` and `src/report/rules.def`, and a test fails when this page\n"
	      "is stale). `ptxi explain TOPIC` prints the same for one topic; the examples are run\n"
	      "live from `ptx_samples/explain/`. Run-time rules are listed in [rules.md](rules.md),\n"
	      "static checks in [static-checks.md](static-checks.md).\n",
	      out);
	static const char *const heading[] = {[TK_CONCEPT] = "Concepts",
					      [TK_INSN] = "Instructions"};
	for (int k = TK_CONCEPT; k <= TK_INSN; k++) {
		fprintf(out, "\n## %s\n\n", heading[k]);
		for (int i = 0; i < TOPIC__COUNT; i++)
			if (topics[i].kind == (enum topic_kind)k)
				md_topic(out, i);
	}
	fputs("\n## Run-time rules, run live\n\n", out);
	for (size_t i = 0; i < NRULE_SAMPLES; i++) {
		const struct rule_info *ri = rule_info(rule_samples[i].rule);
		fprintf(out, "### `%s`\n\n*run-time rule, %s%s* ([rules.md](rules.md))\n\n%s\n\n",
			ri->name, rule_source(ri->section), ri->section, ri->text);
		md_example(out, rule_samples[i].sample);
	}
}

/* ---- docs/static-checks.md (the catalogue between its markers) ------------------------- */

/* A table cell: '|' escaped. */
static void md_cell(FILE *out, const char *s)
{
	for (; *s; s++)
		fputs(*s == '|' ? "\\|" : (char[]){*s, 0}, out);
}

void ptxi_explain_static_markdown(FILE *out)
{
	fputs(STATIC_MD_BEGIN "\n"
	      "<!-- Generated from src/front/checks.def by `ptxi explain --static-markdown` (make docs);\n"
	      "     do not edit by hand: a test fails when this block is stale. -->\n\n"
	      "| check | level | ISA § | what it says | breaks it | keeps it |\n"
	      "|---|---|---|---|---|---|\n",
	      out);
	for (int k = 0; k < CHECK__COUNT; k++) {
		const struct check_info *ci = check_info(k);
		char bad[128], ok[128];
		check_sample(bad, sizeof bad, k, false, false);
		check_sample(ok, sizeof ok, k, true, false);
		fprintf(out, "| `%s` | %s | %s | ", ci->name, check_level[ci->level], ci->section);
		md_cell(out, ci->text);
		fprintf(out, " | [`%s`](../%s) | [`%s`](../%s) |\n", bad + sizeof CHECKS_DIR - 1, bad,
			ok + sizeof CHECKS_DIR - 1, ok);
	}
	fputs("\n" STATIC_MD_END "\n", out);
}

/* For tests: every sample's file name, and its command. */
unsigned explain_sample_count(void)
{
	return SAMPLE__COUNT;
}

const char *explain_sample_file(unsigned s)
{
	return s < SAMPLE__COUNT ? samples[s].file : NULL;
}
