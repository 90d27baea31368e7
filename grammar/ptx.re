/*
 * ptx.re - the PTX lexer (re2c, eof mode over a NUL-terminated buffer).
 * Rules classify bytes and move the cursor; they compute no values and count no lines.
 * Every dotted word is one generic token except the directives the grammar needs to see;
 * ir_insn.c classifies the rest through mods.def. A .section block (DWARF) is one token.
 */
#include "front/lex.h"

#include <stdio.h>
#include <string.h>

#include "front/checks.h"
#include "front/parse.h"
#include "parser.h"

void lex_init(struct lexer *lx, struct src_file *file, struct diag *d)
{
	memset(lx, 0, sizeof *lx);
	lx->text = (const unsigned char *)file->text;
	lx->cur = lx->text;
	lx->lim = lx->text + file->len;
	lx->diag = d;
	lx->file = file;
}

/* Skip a comment or string starting at s (no bound but lim); returns the byte after it, or
 * NULL if s starts neither. Used by the two skippers below, which are not token rules. */
static const unsigned char *skip_trivia(const unsigned char *s, const unsigned char *lim)
{
	if (s[0] == '/' && s + 1 < lim && s[1] == '/') {
		while (s < lim && *s != '\n')
			s++;
		return s;
	}
	if (s[0] == '/' && s + 1 < lim && s[1] == '*') {
		s += 2;
		while (s + 1 < lim && !(s[0] == '*' && s[1] == '/'))
			s++;
		return s + 1 < lim ? s + 2 : lim;
	}
	if (s[0] == '"') {
		s++;
		while (s < lim && *s != '"' && *s != '\n')
			s += (*s == '\\' && s + 1 < lim) ? 2 : 1;
		return s < lim && *s == '"' ? s + 1 : s;
	}
	return NULL;
}

/*
 * `.section .debug_xxx { ... }` as emitted for -G / -lineinfo: a sub-language of its own
 * (labels, .b8/.b32/.b64 data, strings) that the interpreter never needs. Skip the balanced
 * block. Returns false (cursor at end) when it is unterminated.
 */
static bool skip_section(struct lexer *lx)
{
	const unsigned char *s = lx->cur, *lim = lx->lim;
	while (s < lim && *s != '{') {
		const unsigned char *t = skip_trivia(s, lim);
		if (t) {
			s = t;
			continue;
		}
		if (*s == ';' || *s == '}')
			break; /* a section without a block */
		s++;
	}
	if (s >= lim || *s != '{') {
		lx->cur = s;
		return s < lim;
	}
	long depth = 0;
	while (s < lim) {
		const unsigned char *t = skip_trivia(s, lim);
		if (t) {
			s = t;
			continue;
		}
		if (*s == '{')
			depth++;
		else if (*s == '}' && --depth == 0) {
			lx->cur = s + 1;
			return true;
		}
		s++;
	}
	lx->cur = lim;
	return false;
}

/* Called at an opening bracket past LEX_MAX_DEPTH: report once, and drop everything up to
 * the bracket that closes it, so the parser sees a well-nested, shallower text. */
static void skip_too_deep(struct lexer *lx, const unsigned char *open)
{
	check_report(lx->diag, lx->file, CHECK_SYNTAX,
		     (struct src_span){(uint32_t)(open - lx->text), 1},
		     "nesting too deep (more than %d levels of '(', '[' and '{')", LEX_MAX_DEPTH);
	long depth = 1;
	const unsigned char *s = lx->cur, *lim = lx->lim;
	while (s < lim && depth > 0) {
		const unsigned char *t = skip_trivia(s, lim);
		if (t && t > s) {
			s = t;
			continue;
		}
		if (*s == '{' || *s == '(' || *s == '[')
			depth++;
		else if (*s == '}' || *s == ')' || *s == ']')
			depth--;
		s++;
	}
	lx->cur = s;
	lx->depth--;
}

static int open_bracket(struct lexer *lx, const unsigned char *tok, int kind)
{
	if (++lx->depth > LEX_MAX_DEPTH) {
		skip_too_deep(lx, tok);
		return -1;
	}
	return kind;
}

static int close_bracket(struct lexer *lx, int kind)
{
	if (lx->depth > 0)
		lx->depth--;
	return kind;
}

/* The cursor and marker are locals, so the DFA keeps them in registers; the helpers that
 * skip whole blocks take the lexer with the cursor written back (SYNC) and move it. */
#define SYNC(call) (lx->cur = cur, (call), cur = lx->cur)

int lex_scan(struct lexer *lx, struct src_span *span)
{
	const unsigned char *tok, *cur = lx->cur, *mar = cur, *lim = lx->lim;
	int kind;
	for (;;) {
		tok = cur;
		/*!re2c
		re2c:define:YYCTYPE = "unsigned char";
		re2c:define:YYCURSOR = "cur";
		re2c:define:YYMARKER = "mar";
		re2c:define:YYLIMIT = "lim";
		re2c:yyfill:enable = 0;
		re2c:eof = 0;

		ident = [a-zA-Z][a-zA-Z0-9_$]* | [_$%][a-zA-Z0-9_$]+;
		word = [a-zA-Z_$][a-zA-Z0-9_$]*;
		dotword = "." word ("::" [a-zA-Z0-9_$]+)*;
		hex = [0-9a-fA-F];
		exp = [eE] [+-]? [0-9]+;

		$ { kind = TOK_EOF; goto done; }
		[ \t\r\n\f\v]+ { continue; }
		"//" [^\n]* { continue; }
		"/*" ([^*] | "*"+ [^*/])* "*"+ "/" { continue; }
		"#" [ \t]* "line" ([ \t] [^\n]*)? { continue; }
		"#" [^\n]* { kind = TOK_HASH; goto done; }

		".version" { kind = TOK_VERSION; goto done; }
		".target" { kind = TOK_TARGET; goto done; }
		".address_size" { kind = TOK_ADDRESS_SIZE; goto done; }
		".entry" { kind = TOK_ENTRY; goto done; }
		".func" { kind = TOK_FUNC; goto done; }
		".visible" { kind = TOK_VISIBLE; goto done; }
		".extern" { kind = TOK_EXTERN; goto done; }
		".weak" { kind = TOK_WEAK; goto done; }
		".common" { kind = TOK_COMMON; goto done; }
		".reg" { kind = TOK_REG; goto done; }
		".shared" { kind = TOK_SHARED; goto done; }
		".local" { kind = TOK_LOCAL; goto done; }
		".const" { kind = TOK_CONST; goto done; }
		".global" { kind = TOK_GLOBAL; goto done; }
		".param" { kind = TOK_PARAM; goto done; }
		".align" { kind = TOK_ALIGN; goto done; }
		".ptr" { kind = TOK_PTR; goto done; }
		".attribute" { kind = TOK_ATTRIBUTE; goto done; }
		".file" { kind = TOK_FILE; goto done; }
		".loc" { kind = TOK_LOC; goto done; }
		".pragma" { kind = TOK_PRAGMA; goto done; }
		".callprototype" { kind = TOK_CALLPROTOTYPE; goto done; }
		".calltargets" { kind = TOK_CALLTARGETS; goto done; }
		".branchtargets" { kind = TOK_BRANCHTARGETS; goto done; }
		".maxntid" | ".reqntid" | ".minnctapersm" | ".maxnctapersm" | ".maxnreg"
		| ".reqnctapercluster" | ".explicitcluster" | ".maxclusterrank" | ".noreturn"
			{ kind = TOK_PERF; goto done; }
		".section" {
			bool whole;
			SYNC(whole = skip_section(lx));
			kind = whole ? TOK_SECTION : TOK_BAD;
			goto done;
		}
		dotword { kind = TOK_DOTWORD; goto done; }

		"_" { kind = TOK_SINK; goto done; }
		ident { kind = TOK_IDENT; goto done; }

		"0" [fF] hex{8} | "0" [dD] hex{16} { kind = TOK_FLOAT; goto done; }
		[0-9]+ "." [0-9]* exp? | [0-9]+ exp | "." [0-9]+ exp? { kind = TOK_FLOAT; goto done; }
		[0-9] [0-9a-zA-Z_]* { kind = TOK_INT; goto done; }
		"." [0-9]+ [a-zA-Z_] [a-zA-Z0-9_$]* { kind = TOK_DOTWORD; goto done; } /* .2d, .1d */

		"\"" ([^"\\\n] | "\\" [^\n])* "\"" { kind = TOK_STRING; goto done; }
		"\"" { kind = TOK_BAD; goto done; }
		"/*" { cur = lim; kind = TOK_BAD; goto done; }

		"<<" { kind = TOK_SHL; goto done; }
		">>" { kind = TOK_SHR; goto done; }
		"<=" { kind = TOK_LE; goto done; }
		">=" { kind = TOK_GE; goto done; }
		"==" { kind = TOK_EQ; goto done; }
		"!=" { kind = TOK_NE; goto done; }
		"&&" { kind = TOK_ANDAND; goto done; }
		"||" { kind = TOK_OROR; goto done; }
		"{" | "(" | "[" {
			SYNC(kind = open_bracket(lx, tok, tok[0]));
			if (kind < 0)
				continue;
			goto done;
		}
		"}" | ")" | "]" { kind = close_bracket(lx, tok[0]); goto done; }
		[,;:<>=+\-*/%!~&|^?@] { kind = tok[0]; goto done; }

		[^] { kind = TOK_BAD; goto done; }
		*/
	}
done:
	lx->cur = cur;
	span_set(span, (uint32_t)(tok - lx->text), (uint32_t)(cur - tok));
	return kind;
}

/* Bison's scanner entry point: the lexer proper knows nothing of semantic values. */
int ptx_lex(PTX_STYPE *lval, struct src_span *lloc, struct parser *p)
{
	(void)lval;
	p->prev_tok = p->tok;
	p->last_tok = lex_scan(&p->lx, lloc);
	p->tok = *lloc;
	return p->last_tok;
}
