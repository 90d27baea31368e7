/*
 * srcparams.c - a kernel's parameters as the source names them. nvcc names them
 * _Z5scalePffi_param_1; with -lineinfo the kernel's first .loc is its declaration's line,
 * so the names are read there from the .cu file (when it can be read), and the types from
 * the demangled signature ("parameter 1 'scale' (float)"), else the PTX type.
 */
#include "srcloc.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "support/demangle.h"

#define MAX_PARAMS 1024
#define WINDOW 24 /* source lines searched for the declaration, from two above its .loc */

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* The top-level pieces of the list that starts after s[0] == '(', each trimmed, into
 * part[]/plen[]; returns the count, or -1 when the list does not close or has too many. */
static int split_list(const char *s, const char **part, size_t *plen)
{
	int depth = 0, n = 0;
	const char *start = s + 1;
	for (const char *p = s + 1; *p; p++) {
		if (*p == '(' || *p == '<' || *p == '[' || *p == '{') {
			depth++;
		} else if ((*p == ')' || *p == '>' || *p == ']' || *p == '}') && depth > 0) {
			depth--;
		} else if ((*p == ',' || *p == ')') && depth == 0) {
			const char *a = start, *e = p;
			while (a < e && isspace((unsigned char)*a))
				a++;
			while (e > a && isspace((unsigned char)e[-1]))
				e--;
			if (*p == ')' && n == 0 && (e == a || (e - a == 4 && !memcmp(a, "void", 4))))
				return 0;
			if (n == MAX_PARAMS)
				return -1;
			part[n] = a;
			plen[n++] = (size_t)(e - a);
			if (*p == ')')
				return n;
			start = p + 1;
		}
	}
	return -1;
}

/* The name a declared parameter ends in ("float *out" -> "out"), or none: "float". */
static size_t param_ident(const char *s, size_t n, const char **name)
{
	const char *eq = memchr(s, '=', n); /* a default argument */
	if (eq)
		n = (size_t)(eq - s);
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	size_t e = n;
	while (n && ident_char(s[n - 1]))
		n--;
	static const char *const words[] = {"int", "float", "double", "char", "short", "long",
					    "unsigned", "signed", "bool", "void", "const",
					    "volatile", "auto", "__restrict__", "__half"};
	if (e == n || !n || isdigit((unsigned char)s[n]))
		return 0;
	for (size_t i = 0; i < sizeof words / sizeof *words; i++)
		if (strlen(words[i]) == e - n && !memcmp(s + n, words[i], e - n))
			return 0;
	*name = s + n;
	return e - n;
}

/* The kernel's base name ("gemm" of "void ns::gemm<128>(float const*, float*)") and where
 * its argument list starts in the demangled name (NULL if unmangled). */
static void base_name(const char *demangled, const char *plain, struct strbuf *b,
		      const char **args)
{
	*args = NULL;
	if (!demangled) {
		sb_printf(b, "%s", plain);
		return;
	}
	int depth = 0;
	const char *p = demangled;
	for (; *p && !(*p == '(' && depth == 0); p++)
		depth += (*p == '<') - (*p == '>');
	*args = *p ? p : NULL;
	const char *e = p;
	if (e > demangled && e[-1] == '>') { /* template arguments */
		int d = 0;
		do {
			e--;
			d += (*e == '>') - (*e == '<');
		} while (e > demangled && d);
	}
	const char *s = e;
	while (s > demangled && ident_char(s[-1]))
		s--;
	sb_printf(b, "%.*s", (int)(e - s), s);
}

/* The text of the source around the kernel's first .loc, NULL if unreadable. */
static bool decl_text(const struct ir_module *m, const struct ir_func *f, struct strbuf *out)
{
	const struct ir_loc *l = NULL;
	for (uint32_t i = 0; i < f->ninsns && !l; i++)
		l = f->insns[i].loc;
	if (!l || !l->line)
		return false;
	struct src_file src;
	if (!srcloc_open_source(m, l->file, &src))
		return false;
	uint32_t first = l->line > 2 ? l->line - 2 : 1, line = 1;
	const char *t = src.text, *end = src.text + src.len;
	for (; t < end && line < first; t++)
		line += *t == '\n';
	const char *e = t;
	for (; e < end && line < first + WINDOW; e++)
		line += *e == '\n';
	sb_printf(out, "%.*s", (int)(e - t), t);
	src_file_free(&src);
	return out->len > 0;
}

/* Where `name(` is declared in text, just past the name; NULL if nowhere. */
static const char *find_decl(const char *text, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = text; n && (p = strstr(p, name)); p += n) {
		if (p > text && ident_char(p[-1]))
			continue;
		const char *q = p + n;
		while (isspace((unsigned char)*q))
			q++;
		if (*q == '<') { /* an explicit specialization's arguments */
			int d = 0;
			do
				d += (*q == '<') - (*q == '>');
			while (*++q && d);
			while (isspace((unsigned char)*q))
				q++;
		}
		if (*q == '(')
			return q;
	}
	return NULL;
}

void srcloc_param(const struct ir_module *m, const struct ir_func *f, uint32_t i,
		  struct strbuf *b)
{
	const struct ir_sym *p = f->params[i];
	char *d = demangle_alloc(f->sym->name);
	struct strbuf base = {0}, text = {0}, type = {0};
	const char *args, *name = NULL;
	size_t name_len = 0;
	base_name(d, f->sym->name, &base, &args);
	const char **part = calloc(MAX_PARAMS, sizeof *part);
	size_t *plen = calloc(MAX_PARAMS, sizeof *plen);
	if (part && plen && args && split_list(args, part, plen) == (int)f->nparams)
		sb_printf(&type, "%.*s", (int)plen[i], part[i]);
	const char *decl;
	if (part && plen && base.len && decl_text(m, f, &text) && (decl = find_decl(text.s, base.s)) &&
	    split_list(decl, part, plen) == (int)f->nparams) {
		name_len = param_ident(part[i], plen[i], &name);
		if (!type.len && name_len) { /* unmangled: the declared type, spaces folded */
			for (const char *c = part[i]; c < name; c++)
				if (!isspace((unsigned char)*c) || (type.len && type.s[type.len - 1] != ' '))
					sb_printf(&type, "%c", isspace((unsigned char)*c) ? ' ' : *c);
			while (type.len && type.s[type.len - 1] == ' ')
				type.s[--type.len] = 0;
		}
	}
	/* a name the PTX's author chose, not nvcc's kernel_param_N */
	size_t k = strlen(f->sym->name), pn = strlen(p->name);
	if (!name_len && !(pn > k && !strncmp(p->name, f->sym->name, k) &&
			   !strncmp(p->name + k, "_param_", 7))) {
		name = p->name;
		name_len = pn;
	}
	sb_printf(b, "parameter %u", i);
	if (name_len)
		sb_printf(b, " '%.*s'", (int)name_len, name);
	if (type.len)
		sb_printf(b, " (%s)", type.s);
	else
		sb_printf(b, " (%s%s)", p->is_array ? "an array of " : "", ir_mod_name(p->type));
	free(part);
	free(plen);
	free(d);
	sb_free(&base);
	sb_free(&text);
	sb_free(&type);
}

void srcloc_kernel(const struct ir_func *f, struct strbuf *b)
{
	char *d = demangle_alloc(f->sym->name);
	sb_printf(b, "%s", d ? d : f->sym->name);
	free(d);
}
