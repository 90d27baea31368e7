/*
 * report.c - diagnostics as data: one JSON object per line (--diagnostics=json), or one
 * SARIF 2.1.0 log (--diagnostics=sarif) whose rules carry the same help text as
 * `ptxi explain RULE`, so code-scanning services show what the terminal shows; and the
 * library calls that read a module with its diagnostics going to a report.
 */
#include "report.h"

#include <stdlib.h>
#include <string.h>

#include "front/checks.h"
#include "explain.h"
#include "ptxi_priv.h"
#include "report/rules.h"

/* Diagnostics that name no rule or check (an unreadable file), and the deadlock and
 * step-limit reports. */
#define RULE_INVALID "ptx-invalid"
#define RULE_WARNING "ptx-warning"
#define RULE_DEADLOCK "deadlock"
#define RULE_STEP_LIMIT "step-limit"

struct item {                   /* a kept diagnostic (SARIF writes them all at the end)  */
	enum diag_level level;
	char *rule, *msg, *path, *notes;
	uint32_t line, col, len;
	char *src_path;             /* the CUDA/Triton position from .loc, or NULL           */
	uint32_t src_line, src_col;
};

struct ptxi_report {
	enum ptxi_diag_format format;
	FILE *out;
	struct item *items;
	size_t n, cap;
	char *last_rule;            /* the rule of the last error or warning: its notes' rule  */
	bool oom;
	ptxi_diag_fn *fn;           /* ptxi_report_callback: each diagnostic goes here        */
	void *fn_ctx;
};

ptxi_report *ptxi_report_new(enum ptxi_diag_format format, FILE *out)
{
	if (format != PTXI_DIAG_JSON && format != PTXI_DIAG_SARIF)
		return NULL;
	ptxi_report *r = calloc(1, sizeof *r);
	if (r) {
		r->format = format;
		r->out = out;
	}
	return r;
}

ptxi_report *ptxi_report_callback(ptxi_diag_fn *fn, void *ctx)
{
	ptxi_report *r = calloc(1, sizeof *r);
	if (r) {
		r->format = PTXI_DIAG_TEXT;
		r->fn = fn;
		r->fn_ctx = ctx;
	}
	return r;
}

static void json_str(FILE *out, const char *s, size_t n)
{
	fputc('"', out);
	for (size_t i = 0; i < n && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", out);
		else if (c == '\t')
			fputs("\\t", out);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

static void json_cstr(FILE *out, const char *s)
{
	if (s)
		json_str(out, s, strlen(s));
	else
		fputs("null", out);
}

static const char *const level_names[] = {
	[DIAG_ERROR] = "error", [DIAG_WARNING] = "warning", [DIAG_NOTE] = "note"};

/* The rule a diagnostic breaks: its "[name]", or the class of a nameless one. */
static const char *rule_id(const struct item *it)
{
	if (it->rule)
		return it->rule;
	return it->level == DIAG_ERROR ? RULE_INVALID : RULE_WARNING;
}


/* The notes' line that names the threads ("CTA (0,0,0) threads 0-31"), if any. */
static void json_threads(FILE *out, const char *notes)
{
	for (const char *p = notes; p && *p;) {
		size_t n = strcspn(p, "\n");
		if (strncmp(p, "CTA (", 5) == 0 || strncmp(p, "threads ", 8) == 0) {
			json_str(out, p, n);
			return;
		}
		p += n + (p[n] == '\n');
	}
	fputs("null", out);
}

static void json_notes(FILE *out, const char *notes)
{
	fputc('[', out);
	bool first = true;
	for (const char *p = notes; p && *p;) {
		size_t n = strcspn(p, "\n");
		if (!first)
			fputc(',', out);
		json_str(out, p, n);
		first = false;
		p += n + (p[n] == '\n');
	}
	fputc(']', out);
}

/* "threads":..., "notes":[...] (JSON objects and SARIF properties alike); the leading
 * comma is the caller's when one is due. */
static void json_threads_notes(FILE *out, const char *notes)
{
	fputs("\"threads\":", out);
	json_threads(out, notes);
	fputs(",\"notes\":", out);
	json_notes(out, notes);
}

static void write_json(FILE *out, const struct item *it)
{
	fputs("{\"severity\":", out);
	json_cstr(out, level_names[it->level]);
	fputs(",\"rule\":", out);
	json_cstr(out, rule_id(it));
	fputs(",\"message\":", out);
	json_cstr(out, it->msg);
	fputs(",\"ptx\":", out);
	if (it->path) {
		fputs("{\"file\":", out);
		json_cstr(out, it->path);
		fprintf(out, ",\"line\":%u,\"column\":%u,\"length\":%u}", it->line, it->col, it->len);
	} else {
		fputs("null", out);
	}
	fputs(",\"source\":", out);
	if (it->src_path) {
		fputs("{\"file\":", out);
		json_cstr(out, it->src_path);
		fprintf(out, ",\"line\":%u,\"column\":%u}", it->src_line, it->src_col);
	} else {
		fputs("null", out);
	}
	fputc(',', out);
	json_threads_notes(out, it->notes);
	fputs("}\n", out);
	fflush(out);
}

/* A kept diagnostic as ptxi_report_callback hands it over. */
static void hand_over(ptxi_report *r, const struct item *it)
{
	char *threads = NULL;
	for (const char *p = it->notes; p && *p && !threads;) {
		size_t n = strcspn(p, "\n");
		if (strncmp(p, "CTA (", 5) == 0 || strncmp(p, "threads ", 8) == 0)
			threads = strndup(p, n);
		p += n + (p[n] == '\n');
	}
	struct ptxi_diagnostic d = {
		.level = (int)it->level, .rule = rule_id(it), .message = it->msg,
		.file = it->path, .line = it->line, .column = it->col, .length = it->len,
		.threads = threads, .notes = it->notes && *it->notes ? it->notes : NULL,
		.source_file = it->src_path, .source_line = it->src_line,
		.source_column = it->src_col};
	r->fn(r->fn_ctx, &d);
	free(threads);
}

static char *dup_n(const char *s, size_t n, bool *oom)
{
	if (!s)
		return NULL;
	char *d = strndup(s, n);
	*oom |= !d;
	return d;
}

/* The source context ("in function ...", "inlined from ...") and then the notes. */
static char *joined_notes(const char *context, const char *notes, bool *oom)
{
	size_t a = context ? strlen(context) : 0, b = notes ? strlen(notes) : 0;
	char *s = malloc(a + b + 1);
	if (!s) {
		*oom = true;
		return NULL;
	}
	memcpy(s, context ? context : "", a);
	memcpy(s + a, notes ? notes : "", b);
	s[a + b] = 0;
	return s;
}

void report_record(void *ctx, const struct diag_record *d)
{
	ptxi_report *r = ctx;
	struct item it = {.level = d->level, .line = d->line, .col = d->col, .len = d->len};
	bool oom = false;
	it.rule = dup_n(d->rule, d->rule_len, &oom);
	/* A note without a rule belongs to the diagnostic before it ("the earlier read"). */
	if (!it.rule && d->level == DIAG_NOTE && r->last_rule)
		it.rule = dup_n(r->last_rule, strlen(r->last_rule), &oom);
	if (d->level != DIAG_NOTE) {
		free(r->last_rule);
		r->last_rule = dup_n(rule_id(&it), strlen(rule_id(&it)), &oom);
	}
	it.msg = dup_n(d->msg, d->msg_len, &oom);
	it.path = d->path ? dup_n(d->path, strlen(d->path), &oom) : NULL;
	it.notes = joined_notes(d->src_context, d->notes, &oom);
	if (d->src_path) {
		it.src_path = dup_n(d->src_path, strlen(d->src_path), &oom);
		it.src_line = d->src_line;
		it.src_col = d->src_col;
	}
	if (!oom && r->fn) {
		hand_over(r, &it);
		oom = true; /* nothing to keep */
	} else if (!oom && r->format == PTXI_DIAG_JSON) {
		write_json(r->out, &it);
		oom = true; /* nothing to keep */
	} else if (!oom && r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 16;
		struct item *p = realloc(r->items, cap * sizeof *p);
		if (p) {
			r->items = p;
			r->cap = cap;
		} else {
			r->oom = oom = true;
		}
	}
	if (!oom) {
		r->items[r->n++] = it;
		return;
	}
	free(it.rule);
	free(it.msg);
	free(it.path);
	free(it.notes);
	free(it.src_path);
}

/* ---- SARIF 2.1.0 --------------------------------------------------------------------- */

/* One reportingDescriptor: id, texts, and the help `ptxi explain` gives. */
static void sarif_rule(FILE *out, const char *id, const char *desc, const char *help)
{
	fputs("{\"id\":", out);
	json_cstr(out, id);
	fputs(",\"shortDescription\":{\"text\":", out);
	json_cstr(out, desc);
	fputs("},\"fullDescription\":{\"text\":", out);
	json_cstr(out, desc);
	fputs("},\"help\":{\"text\":", out);
	json_cstr(out, help);
	fputs("}}", out);
}

/* The run-time rules (rules.def), the static checks (checks.def), then the four nameless
 * classes; index = position. */
static unsigned rule_index(const char *id)
{
	for (unsigned i = 0; i < RULE__COUNT; i++)
		if (strcmp(rule_info(i)->name, id) == 0)
			return i;
	int k = check_find(id);
	if (k >= 0)
		return RULE__COUNT + (unsigned)k;
	unsigned base = RULE__COUNT + CHECK__COUNT;
	if (strcmp(id, RULE_DEADLOCK) == 0)
		return base;
	if (strcmp(id, RULE_STEP_LIMIT) == 0)
		return base + 1;
	return strcmp(id, RULE_INVALID) == 0 ? base + 2 : base + 3;
}

/* The deadlock and step-limit reports and the two classes of diagnostics without a rule
 * (which: 0-3, in rule_index's order). */
static void nameless_rule(FILE *out, int which)
{
	static const char *const rule[4][3] = {
		{RULE_DEADLOCK, "the launch can never finish: threads wait forever",
		 "Threads wait on a barrier, an mbarrier phase or a warp collective that can "
		 "never complete. The report names every place where threads are blocked, "
		 "what they wait on and the barrier's state. Run `ptxi run ... --timeline "
		 "FILE.html` to see it."},
		{RULE_STEP_LIMIT, "the launch ran past --max-steps",
		 "A loop that never ends (a spin on a flag nobody sets, a wait that polls "
		 "without a barrier) ran the launch past its step limit (--max-steps, default "
		 "2000000 warp-instructions). The report names where the other threads wait."},
		{RULE_INVALID, "invalid input that names no static check",
		 "An error outside the static checks, such as an unreadable file; every "
		 "check ptxi makes has its own rule (docs/static-checks.md)."},
		{RULE_WARNING, "a warning that names no static check",
		 "A warning outside the static checks; every check ptxi makes has its own "
		 "rule (docs/static-checks.md)."},
	};
	sarif_rule(out, rule[which][0], rule[which][1], rule[which][2]);
}

#define NRULE_INDEX (RULE__COUNT + CHECK__COUNT + 4)

/* The descriptors of the rules whose index is marked in used[], in index order, separated
 * by commas: a log names only the rules its results use (all of them, with their help,
 * are 90 KB). */
static void sarif_rules(FILE *out, const bool *used)
{
	bool first = true;
#define SEP() (first ? (void)(first = false) : (void)fputc(',', out))
	for (unsigned i = 0; i < RULE__COUNT; i++) {
		if (!used[i])
			continue;
		SEP();
		char *help = explain_rule_text(i);
		sarif_rule(out, rule_info(i)->name, rule_info(i)->text, help ? help : rule_info(i)->text);
		free(help);
	}
	for (unsigned k = 0; k < CHECK__COUNT; k++) {
		if (!used[RULE__COUNT + k])
			continue;
		SEP();
		char *help = explain_check_text((int)k);
		sarif_rule(out, check_info(k)->name, check_info(k)->text,
			   help ? help : check_info(k)->text);
		free(help);
	}
	for (int k = 0; k < 4; k++) {
		if (!used[RULE__COUNT + CHECK__COUNT + (unsigned)k])
			continue;
		SEP();
		nameless_rule(out, k);
	}
#undef SEP
}

/* A file path as a URI reference: absolute paths as file:// URIs, bytes outside the
 * unreserved set and '/' percent-encoded. */
static void sarif_uri(FILE *out, const char *path)
{
	fputs(path[0] == '/' ? "\"file://" : "\"", out);
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    strchr("-._~/", *p))
			fputc(*p, out);
		else
			fprintf(out, "%%%02X", *p);
	}
	fputc('"', out);
}

/* A location object; id >= 0 for a related location (labelled as the PTX position). */
static void sarif_location(FILE *out, int id, const char *path, uint32_t line, uint32_t col,
			   uint32_t len)
{
	fputc('{', out);
	if (id >= 0)
		fprintf(out, "\"id\":%d,\"message\":{\"text\":\"PTX\"},", id);
	fputs("\"physicalLocation\":{\"artifactLocation\":{\"uri\":", out);
	sarif_uri(out, path);
	fprintf(out, "},\"region\":{\"startLine\":%u", line);
	if (col)
		fprintf(out, ",\"startColumn\":%u", col);
	if (len)
		fprintf(out, ",\"endColumn\":%u", col + len);
	fputs("}}}", out);
}

static void sarif_result(FILE *out, const struct item *it, const unsigned *pos)
{
	const char *id = rule_id(it);
	fputs("{\"ruleId\":", out);
	json_cstr(out, id);
	fprintf(out, ",\"ruleIndex\":%u,\"level\":", pos[rule_index(id)]);
	json_cstr(out, level_names[it->level]);
	fputs(",\"message\":{\"text\":", out);
	json_cstr(out, it->msg);
	fputs("}", out);
	/* Where the module has .loc, the source position leads and the PTX one is related. */
	if (it->src_path) {
		fputs(",\"locations\":[", out);
		sarif_location(out, -1, it->src_path, it->src_line, it->src_col, 0);
		fputs("]", out);
		if (it->path && it->line) {
			fputs(",\"relatedLocations\":[", out);
			sarif_location(out, 0, it->path, it->line, it->col, it->len);
			fputs("]", out);
		}
	} else if (it->path && it->line) {
		fputs(",\"locations\":[", out);
		sarif_location(out, -1, it->path, it->line, it->col, it->len);
		fputs("]", out);
	}
	fputs(",\"properties\":{", out);
	json_threads_notes(out, it->notes);
	fputs("}}", out);
}

static void sarif_write(FILE *out, const ptxi_report *r)
{
	fputs("{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\",\"version\":\"2.1.0\","
	      "\"runs\":[{\"tool\":{\"driver\":{\"name\":\"ptxi\",\"version\":\"" PTXI_VERSION
	      "\",\"rules\":[",
	      out);
	bool used[NRULE_INDEX] = {0};
	unsigned pos[NRULE_INDEX] = {0};
	for (size_t i = 0; i < r->n; i++)
		used[rule_index(rule_id(&r->items[i]))] = true;
	for (unsigned i = 0, n = 0; i < NRULE_INDEX; i++)
		pos[i] = used[i] ? n++ : 0;
	sarif_rules(out, used);
	fputs("]}},\"results\":[", out);
	for (size_t i = 0; i < r->n; i++) {
		if (i)
			fputc(',', out);
		sarif_result(out, &r->items[i], pos);
	}
	fputs("]}]}\n", out);
}

int ptxi_report_finish(ptxi_report *r)
{
	if (!r)
		return 0;
	if (r->format == PTXI_DIAG_SARIF)
		sarif_write(r->out, r);
	int st = (r->out && ferror(r->out)) || r->oom ? -1 : 0;
	for (size_t i = 0; i < r->n; i++) {
		free(r->items[i].rule);
		free(r->items[i].msg);
		free(r->items[i].path);
		free(r->items[i].notes);
		free(r->items[i].src_path);
	}
	free(r->items);
	free(r->last_rule);
	free(r);
	return st;
}

ptxi_module *ptxi_module_load_report(const char *path, ptxi_report *r)
{
	return module_read(path, NULL, NULL, report_record, r, false, NULL);
}

ptxi_module *ptxi_module_load_with(const char *path, ptxi_sink *sink, void *ctx, ptxi_report *r,
				   const ptxi_severities *sev)
{
	return r ? module_read(path, NULL, NULL, report_record, r, false, sev)
		 : module_read(path, sink, ctx, NULL, NULL, false, sev);
}

int ptxi_check_with(const char *path, ptxi_sink *sink, void *ctx, ptxi_report *r,
		    const ptxi_severities *sev)
{
	return r ? check_file(path, NULL, NULL, report_record, r, sev)
		 : check_file(path, sink, ctx, NULL, NULL, sev);
}

ptxi_module *ptxi_module_load_string_report(const char *name, const char *text,
					    ptxi_report *r)
{
	return module_from_string(name, text, NULL, NULL, report_record, r);
}

int ptxi_check_report(const char *path, ptxi_report *r)
{
	return check_file(path, NULL, NULL, report_record, r, NULL);
}
