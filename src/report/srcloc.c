/*
 * srcloc.c - run-time reports in the user's terms. nvcc -lineinfo and Triton put .loc
 * before instructions (file index, line, column; for inlined code also the function's name
 * as a label of .debug_str and the position it was inlined at) and .file lines naming the
 * sources. A report then leads with the source position and line, says which function it
 * happened in and through which inlined calls, and keeps the PTX position as a note.
 */
#include "srcloc.h"

#include <stdlib.h>
#include <string.h>

#include "support/demangle.h"

#define MAX_CHAIN 16 /* inlined-at levels shown */

const struct dfunc *srcloc_func_of(const struct dprog *P, const struct dinsn *di)
{
	for (uint32_t i = 0; P && di && i < P->nfuncs; i++) {
		const struct dfunc *f = &P->funcs[i];
		if (f->code && di >= f->code && di < f->code + f->ncode)
			return f;
	}
	return NULL;
}

static const char *file_path(const struct ir_module *m, uint32_t index)
{
	for (uint32_t i = 0; i < m->nfiles; i++)
		if (m->files[i].index == index)
			return m->files[i].path;
	return NULL;
}

/* The bytes of a .debug_str label ("$L__info_string0: .b8 95,90,...,0") into b. The lexer
 * skips debug sections, so they are read from the text when a report needs a name. */
static bool debug_str(const struct src_file *f, struct src_span label, struct strbuf *b)
{
	const char *lab = f->text + label.off, *end = f->text + f->len;
	for (const char *p = f->text; (p = memmem(p, (size_t)(end - p), lab, label.len));
	     p += label.len) {
		const char *q = p + label.len;
		if (q >= end || *q != ':')
			continue;
		q++;
		for (;;) {
			while (q < end && (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r' || *q == ','))
				q++;
			if (end - q > 3 && !memcmp(q, ".b8", 3)) {
				q += 3;
				continue;
			}
			char *e;
			long v = strtol(q, &e, 10);
			if (e == q || v <= 0 || v > 255)
				return b->len > 0;
			sb_printf(b, "%c", (char)v);
			q = e;
		}
	}
	return false;
}

/* A function's name as the user wrote it: demangled, else as written. */
static void func_name(const char *name, struct strbuf *b)
{
	char *d = demangle_alloc(name);
	sb_printf(b, "%s", d ? d : name);
	free(d);
}

/* The name of the function a .loc lies in: its function_name label, or (outermost) fn. */
static void loc_func(const struct src_file *ptx, const struct ir_loc *l, const struct dfunc *fn,
		     struct strbuf *b)
{
	struct strbuf raw = {0};
	if (l->func.len && debug_str(ptx, l->func, &raw))
		func_name(raw.s, b);
	else if (!l->func.len && fn)
		func_name(fn->name, b);
	sb_free(&raw);
}

/* Open source `path` as .file names it, else the file of that name beside the PTX (a
 * module moved with its sources); `shown` gets the path that was read, or `path`. */
static bool open_source(const char *path, const char *ptx_path, struct src_file *f,
			struct strbuf *shown)
{
	shown->len = 0;
	if (src_file_read(f, path) == 0) {
		sb_printf(shown, "%s", path);
		return true;
	}
	const char *base = strrchr(path, '/');
	const char *dir_end = strrchr(ptx_path, '/');
	base = base ? base + 1 : path;
	sb_printf(shown, "%.*s%s", dir_end ? (int)(dir_end - ptx_path + 1) : 0, ptx_path, base);
	if (strcmp(shown->s, path) && src_file_read(f, shown->s) == 0)
		return true;
	shown->len = 0;
	sb_printf(shown, "%s", path);
	return false;
}

bool srcloc_open_source(const struct ir_module *m, uint32_t file, struct src_file *f)
{
	struct strbuf shown = {0};
	const char *path = file_path(m, file);
	bool ok = path && open_source(path, m->file->path, f, &shown);
	sb_free(&shown);
	return ok;
}

/* The path a .file index is shown as (see open_source). */
static void shown_path(const struct ir_module *m, const struct src_file *ptx, uint32_t index,
		       struct strbuf *shown)
{
	struct src_file f;
	const char *path = file_path(m, index);
	if (!path)
		sb_printf(shown, "?");
	else if (open_source(path, ptx->path, &f, shown))
		src_file_free(&f);
}

bool srcloc_is_library(const char *path)
{
	static const char *const roots[] = {"/usr/include/", "/usr/lib", "/usr/local/cuda",
					    "/opt/cuda", "/opt/nvidia"};
	static const char *const dirs[] = {"/include/cuda/", "/include/cccl/", "/include/cute/",
					   "/include/cutlass/", "/include/thrust/", "/include/cub/",
					   "/include/crt/", "/include/c++/", "/libcudacxx/",
					   "/include/cooperative_groups"};
	if (!path)
		return false;
	for (size_t i = 0; i < sizeof roots / sizeof *roots; i++)
		if (!strncmp(path, roots[i], strlen(roots[i])))
			return true;
	for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++)
		if (strstr(path, dirs[i]))
			return true;
	return false;
}

/* The frames of l, innermost first: l, then each inlined-at position; returns the count. */
static int frames_of(const struct ir_loc *l, const struct ir_loc **fr)
{
	int n = 0;
	for (; l && n < MAX_CHAIN + 1; l = l->inlined_at)
		fr[n++] = l;
	return n;
}

/* The frame a report leads with: the innermost in the user's own files, else the
 * innermost. */
static int lead_frame(const struct ir_module *m, const struct ir_loc *const *fr, int n)
{
	for (int i = 0; i < n; i++)
		if (fr[i]->line && file_path(m, fr[i]->file) &&
		    !srcloc_is_library(file_path(m, fr[i]->file)))
			return i;
	return 0;
}

const struct ir_loc *srcloc_user_loc(const struct ir_module *m, const struct ir_loc *l)
{
	const struct ir_loc *fr[MAX_CHAIN + 1];
	int n = frames_of(l, fr);
	return n ? fr[lead_frame(m, fr, n)] : NULL;
}

/* Whether `path` is `file` or ends in "/file". */
static bool path_is(const char *path, const char *file)
{
	size_t n = strlen(path), k = strlen(file);
	return n >= k && !strcmp(path + n - k, file) && (n == k || path[n - k - 1] == '/');
}

bool srcloc_names_file(const struct ir_module *m, const char *file)
{
	for (uint32_t i = 0; i < m->nfiles; i++)
		if (m->files[i].path && path_is(m->files[i].path, file))
			return true;
	return false;
}

bool srcloc_in_lines(const struct ir_module *m, const struct ir_loc *l, const char *file,
		     uint32_t first, uint32_t last)
{
	for (int depth = 0; l && depth <= MAX_CHAIN; l = l->inlined_at, depth++) {
		const char *path = file_path(m, l->file);
		if (path && path_is(path, file) && l->line >= first && l->line <= last)
			return true;
	}
	return false;
}

/* The path of .file `index` as the PTX text declares it, into b: a static check runs as
 * each function closes, before the .file lines nvcc writes after the functions are read. */
static bool text_file_path(const struct src_file *ptx, uint32_t index, struct strbuf *b)
{
	const char *t = ptx->text, *end = ptx->text + ptx->len;
	while ((t = memmem(t, (size_t)(end - t), ".file", 5))) {
		t += 5;
		char *e;
		while (t < end && (*t == ' ' || *t == '\t'))
			t++;
		if (strtoul(t, &e, 10) != index || e == t)
			continue;
		while (e < end && (*e == ' ' || *e == '\t'))
			e++;
		const char *q = e < end && *e == '"' ? memchr(e + 1, '"', (size_t)(end - e - 1)) : NULL;
		if (q && !memchr(e, '\n', (size_t)(q - e))) {
			sb_printf(b, "%.*s", (int)(q - e - 1), e + 1);
			return true;
		}
	}
	return false;
}

void srcloc_from_note(const struct ir_module *m, const struct ir_loc *l, const char *outer,
		      struct strbuf *b)
{
	const struct ir_loc *fr[MAX_CHAIN + 1], *u = NULL;
	struct strbuf path = {0}, name = {0};
	int n = frames_of(l, fr);
	for (int i = 0; i < n && !u; i++) { /* the lead frame, as lead_frame picks it */
		path.len = 0;
		if (fr[i]->line && text_file_path(m->file, fr[i]->file, &path) &&
		    !srcloc_is_library(path.s))
			u = fr[i];
	}
	if (!u && n && fr[0]->line) {
		u = fr[0];
		path.len = 0;
		text_file_path(m->file, u->file, &path);
	}
	if (!u || !path.len) {
		sb_free(&path);
		return;
	}
	struct src_file f;
	struct strbuf shown = {0};
	if (open_source(path.s, m->file->path, &f, &shown))
		src_file_free(&f);
	path.len = 0;
	sb_printf(&path, "%s", shown.s);
	sb_free(&shown);
	loc_func(m->file, u, NULL, &name);
	if (!name.len && !u->func.len && outer)
		func_name(outer, &name);
	sb_printf(b, "from %s:%u:%u", path.s, u->line, u->col);
	if (name.len)
		sb_printf(b, " in '%s'", name.s);
	sb_printf(b, "\n");
	sb_free(&path);
	sb_free(&name);
}

bool srcloc_short_pos(const struct ir_module *m, const struct ir_loc *l, struct strbuf *b)
{
	const struct ir_loc *u = srcloc_user_loc(m, l);
	const char *path = u && u->line ? file_path(m, u->file) : NULL;
	if (!path)
		return false;
	const char *base = strrchr(path, '/');
	sb_printf(b, "%s:%u", base ? base + 1 : path, u->line);
	return true;
}

/* "in function 'f'" of the lead frame and one "inlined from k.cu:42:7 in 'g'" per level
 * above it, then the library frames below it, outermost first ("library frame:
 * .../mbarrier_try_wait_parity.h:26:13 in 'cuda::ptx::...'"), one per line, each ending in
 * '\n'. */
static void context(struct strbuf *b, const struct src_file *ptx, const struct ir_module *m,
		    const struct ir_loc *const *fr, int n, int lead, const struct dfunc *fn)
{
	struct strbuf path = {0}, name = {0};
	loc_func(ptx, fr[lead], fn, &name);
	if (name.len)
		sb_printf(b, "in function '%s'\n", name.s);
	for (int i = lead + 1; i < n; i++) {
		path.len = name.len = 0;
		shown_path(m, ptx, fr[i]->file, &path);
		loc_func(ptx, fr[i], fn, &name);
		sb_printf(b, "inlined from %s:%u:%u", path.s, fr[i]->line, fr[i]->col);
		if (name.len)
			sb_printf(b, " in '%s'", name.s);
		sb_printf(b, "\n");
	}
	for (int i = lead - 1; i >= 0; i--) {
		path.len = name.len = 0;
		shown_path(m, ptx, fr[i]->file, &path);
		loc_func(ptx, fr[i], fn, &name);
		sb_printf(b, "library frame: %s:%u:%u", path.s, fr[i]->line, fr[i]->col);
		if (name.len)
			sb_printf(b, " in '%s'", name.s);
		sb_printf(b, "\n");
	}
	sb_free(&path);
	sb_free(&name);
}

/* Where a report on `in` stands in the source: the frame it leads with, the source's path
 * as shown, the file when readable, and the rest of the chain as notes. */
struct where {
	const struct ir_loc *l;
	struct strbuf path, ctx;
	struct src_file f;
	bool readable;
};

static void where_find(struct where *w, struct src_file *ptx, const struct ir_module *m,
		       const struct ir_insn *in, const struct dfunc *fn)
{
	const struct ir_loc *fr[MAX_CHAIN + 1];
	int n = frames_of(in->loc, fr), lead = lead_frame(m, fr, n);
	*w = (struct where){.l = fr[lead]};
	w->readable = open_source(file_path(m, w->l->file), ptx->path, &w->f, &w->path);
	context(&w->ctx, ptx, m, fr, n, lead, fn);
}

static void where_free(struct where *w)
{
	if (w->readable)
		src_file_free(&w->f);
	sb_free(&w->path);
	sb_free(&w->ctx);
}

/* The report as text: "k.cu:5:3: error: msg", the source line, the function and the
 * inlined-at chain, the library frames, the PTX position, then the notes. */
static void render(struct strbuf *b, enum diag_level level, struct src_file *ptx,
		   const struct ir_module *m, const struct ir_insn *in, const struct dfunc *fn,
		   const char *notes, const char *msg)
{
	struct where w;
	where_find(&w, ptx, m, in, fn);
	sb_printf(b, "%s:%u:%u: %s: %s\n", w.path.s, w.l->line, w.l->col, level_name(level),
		  msg);
	if (w.readable)
		diag_source_line(b, &w.f, w.l->line, w.l->col);
	diag_notes(b, w.ctx.s);
	uint32_t line, col;
	src_locate(ptx, in->span.off, &line, &col);
	sb_printf(b, "    PTX: %s:%u:%u\n", ptx->path, line, col);
	diag_notes(b, notes);
	where_free(&w);
}

/* The report as data (--diagnostics=json|sarif): the PTX position, and the source position
 * and its context as fields of their own. */
static void record(struct diag *d, enum diag_level level, struct src_file *ptx,
		   const struct ir_module *m, const struct ir_insn *in, const struct dfunc *fn,
		   const char *notes, const char *msg)
{
	struct where w;
	where_find(&w, ptx, m, in, fn);
	struct diag_record r;
	diag_record_init(&r, level, ptx, in->span, notes, msg);
	r.src_path = w.path.s;
	r.src_line = w.l->line;
	r.src_col = w.l->col;
	r.src_context = w.ctx.s;
	d->record(d->record_ctx, &r);
	where_free(&w);
}

void srcloc_emit(struct diag *d, enum diag_level level, struct src_file *ptx,
		 const struct ir_module *m, const struct ir_insn *in, const struct dfunc *fn,
		 const char *notes, const char *msg)
{
	const struct ir_loc *l = in ? in->loc : NULL;
	if (!l || !l->line || !m || !file_path(m, l->file)) { /* line 0: compiler-made code */
		diag_emit(d, level, in ? ptx : NULL, in ? in->span : (struct src_span){0, 0},
			  notes, msg);
		return;
	}
	if (!diag_count(d, level))
		return;
	if (d->record) {
		record(d, level, ptx, m, in, fn, notes, msg);
		return;
	}
	struct strbuf b = {0};
	render(&b, level, ptx, m, in, fn, notes, msg);
	d->sink(d->ctx, level, b.s ? b.s : "");
	sb_free(&b);
}

void srcloc_var_name(const struct ir_sym *s, struct strbuf *b)
{
	char *d = demangle_alloc(s->name);
	const char *name = d ? d : s->name;
	/* a function's static ("ws_pipeline()::empty"): the function is named elsewhere */
	if (d && !strncmp(s->name, "_ZZ", 3)) {
		int depth = 0;
		for (const char *p = d; *p; p++) {
			depth += (*p == '<' || *p == '(') - (*p == '>' || *p == ')');
			if (!depth && p[0] == ':' && p[1] == ':')
				name = p + 2;
		}
	}
	sb_printf(b, "%s", name);
	free(d);
}

void srcloc_var(const struct ir_sym *s, uint32_t within, uint32_t unit, struct strbuf *b)
{
	struct strbuf nb = {0};
	srcloc_var_name(s, &nb);
	const char *name = nb.s ? nb.s : "";
	uint32_t size = (uint32_t)ir_type_size(s->type) * (s->vec ? s->vec : 1);
	if (size <= 1 && unit)
		size = unit;
	if (s->is_array && size && within % size == 0)
		sb_printf(b, "'%s[%u]'", name, within / size);
	else if (within)
		sb_printf(b, "'%s+%u'", name, within);
	else
		sb_printf(b, "'%s'", name);
	sb_free(&nb);
}

const struct ir_sym *srcloc_shared_var(const struct dfunc *k, uint32_t off, uint32_t *within)
{
	const struct ir_sym *best = NULL;
	uint32_t at = 0;
	for (uint32_t i = 0; k && i < k->nshared; i++) /* the kernel's variables */
		if (k->shared_addrs[i] <= off && (!best || k->shared_addrs[i] > at)) {
			best = k->shared_syms[i];
			at = k->shared_addrs[i];
		}
	if (best)
		*within = off - at;
	return best;
}
