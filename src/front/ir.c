/*
 * ir.c - the IR of a PTX module, as the grammar builds it: the builders its actions call
 * live in the ir_*.c files (tables, scopes, expressions, header, declarations, functions,
 * instructions). Here: the front end's error reports and syntax errors with their hints.
 * The driver that runs the grammar (ir_parse) is front.c's, above both.
 */

#include "ir.h"
#include "ir_priv.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* An error of the front end, named after the check it breaks (checks.def). */
void irp_err(struct parser *p, enum check_id k, struct src_span s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	check_vreport(p->d, p->file, k, s, fmt, ap);
	va_end(ap);
}

void irp_note(struct parser *p, struct src_span s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vreport(p->d, DIAG_NOTE, p->file, s, fmt, ap);
	va_end(ap);
}

static bool wordish(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '$' || c == '%' || c == '.';
}

/* A guess at the usual slips, from the tokens around the error: a missing ';' when the
 * offending token starts a new line, a missing ',' between two operands on one line. */
static const char *syntax_hint(struct parser *p, struct src_span s, const char *msg)
{
	const char *text = p->file->text;
	if (s.off >= p->file->len)
		return p->in_body ? " (missing '}' at the end of the function?)" : "";
	struct src_span q = p->prev_tok;
	if (q.len == 0 || q.off + q.len > s.off || strstr(msg, "expecting"))
		return ""; /* Bison's own list says it better */
	char last = text[q.off + q.len - 1], first = text[s.off];
	if (last == ';' || last == '{' || last == '}' || last == ':' || last == ',')
		return "";
	if (memchr(text + q.off + q.len, '\n', s.off - (q.off + q.len)))
		return " (missing ';' at the end of the previous line?)";
	if (p->in_body && (wordish(last) || last == ']' || last == ')') &&
	    (wordish(first) || first == '['))
		return " (missing ',' between operands?)";
	return "";
}

void ir_syntax_error(struct parser *p, const struct src_span *loc, const char *msg, int lexcase)
{
	struct src_span s = *loc;
	if (!p->in_body)
		p->quiet_orphans = true;
	if (strcmp(msg, "memory exhausted") == 0) {
		irp_err(p, CHECK_SYNTAX, s, "input is nested too deeply");
		return;
	}
	const char *t = txt(p, s);
	if (lexcase == 2) {
		uint32_t n = 1;
		while (n < s.len && n < 40 && !isspace((unsigned char)t[n]))
			n++;
		irp_err(p, CHECK_SYNTAX, s,
			"unsupported preprocessor directive '%.*s' (only #line is accepted)", (int)n, t);
		return;
	}
	if (lexcase == 1 && s.len >= 1) {
		if (t[0] == '"')
			irp_err(p, CHECK_SYNTAX, s, "unterminated string");
		else if (s.len >= 2 && t[0] == '/' && t[1] == '*')
			irp_err(p, CHECK_SYNTAX, s, "unterminated comment");
		else if (s.len >= 8 && memcmp(t, ".section", 8) == 0)
			irp_err(p, CHECK_SYNTAX, s, "unterminated .section block");
		else if (isprint((unsigned char)t[0]))
			irp_err(p, CHECK_SYNTAX, s, "invalid character '%c'", t[0]);
		else
			irp_err(p, CHECK_SYNTAX, s, "invalid character '\\x%02x'", (unsigned char)t[0]);
		return;
	}
	irp_err(p, CHECK_SYNTAX, s, "%s%s", msg, syntax_hint(p, s, msg));
}
