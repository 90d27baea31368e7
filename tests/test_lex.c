/*
 * test_lex.c - the re2c lexer (grammar/ptx.re): token kinds by their Bison names, spans,
 * comments and the skipped sub-languages (.section blocks, #line), and hostile input
 * (NUL bytes, unterminated constructs, absurd nesting, huge tokens).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support/diag.h"
#include "front/lex.h"

struct capture {
	char text[4096];
	unsigned n;
};

static void sink(void *ctx, enum diag_level level, const char *text)
{
	struct capture *c = ctx;
	(void)level;
	if (c->n++ == 0)
		snprintf(c->text, sizeof c->text, "%s", text);
}

/* Lex `len` bytes of `text` and return the token names joined by spaces ("identifier ';'"),
 * without the final "end of file". */
static char *lex_names(const char *text, size_t len, struct capture *cap)
{
	static char out[1 << 16];
	struct src_file f = {.path = "t.ptx", .text = text, .len = len};
	struct diag d = {.sink = sink, .ctx = cap};
	struct lexer lx;
	lex_init(&lx, &f, &d);
	out[0] = '\0';
	size_t used = 0;
	struct src_span s;
	int kind, guard = 0;
	while ((kind = lex_scan(&lx, &s)) != 0 && guard++ < 100000) {
		int n = snprintf(out + used, sizeof out - used, "%s%s", used ? " " : "",
				 ptx_token_name(kind));
		if (n > 0 && used + (size_t)n < sizeof out)
			used += (size_t)n;
	}
	free(f.line_starts);
	return out;
}

static char *names(const char *text)
{
	struct capture cap = {0};
	return lex_names(text, strlen(text), &cap);
}

/* The i-th token's kind name and span. */
static const char *nth(const char *text, int i, struct src_span *span)
{
	struct src_file f = {.path = "t.ptx", .text = text, .len = strlen(text)};
	struct diag d = {0};
	struct lexer lx;
	lex_init(&lx, &f, &d);
	int kind = 0;
	for (int k = 0; k <= i; k++)
		kind = lex_scan(&lx, span);
	return ptx_token_name(kind);
}

static void test_lexer_instruction(void **state)
{
	(void)state;
	assert_string_equal(names("add.s32 %r1, %r2, 4;"),
			    "identifier modifier identifier ',' identifier ',' integer ';'");
	assert_string_equal(names("@!%p1 bra.uni $L__BB0_2;"),
			    "'@' '!' identifier identifier modifier identifier ';'");
	assert_string_equal(names("$L__BB0_2:"), "identifier ':'");
}

static void test_lexer_spans_are_byte_offsets(void **state)
{
	(void)state;
	const char *t = "  mov.u32\t%r1, %tid.x;";
	struct src_span s;
	assert_string_equal(nth(t, 0, &s), "identifier");
	assert_int_equal(s.off, 2);
	assert_int_equal(s.len, 3);
	assert_string_equal(nth(t, 1, &s), "modifier");
	assert_int_equal(s.off, 5);
	assert_int_equal(s.len, 4);
	assert_string_equal(nth(t, 2, &s), "identifier");
	assert_int_equal(s.off, 10);
	assert_int_equal(s.len, 3);
	assert_string_equal(nth(t, 4, &s), "identifier"); /* %tid */
	assert_int_equal(s.off, 15);
	assert_int_equal(s.len, 4);
	assert_string_equal(nth(t, 5, &s), "modifier"); /* .x */
	assert_int_equal(s.off, 19);
	assert_int_equal(s.len, 2);
}

static void test_lexer_scoped_modifiers_are_one_token(void **state)
{
	(void)state;
	const char *t = "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes";
	assert_string_equal(names(t), "identifier modifier modifier modifier '.global' modifier");
	struct src_span s;
	nth(t, 3, &s);
	assert_int_equal(s.len, strlen(".shared::cluster"));
	nth(t, 5, &s);
	assert_int_equal(s.len, strlen(".mbarrier::complete_tx::bytes"));
	assert_string_equal(names("ld.global.L2::64B.L1::evict_last.v4.u32"),
			    "identifier '.global' modifier modifier modifier modifier");
}

static void test_lexer_directives(void **state)
{
	(void)state;
	assert_string_equal(names(".version 9.0 .target sm_90a, debug .address_size 64"),
			    "'.version' floating-point constant '.target' identifier ',' identifier "
			    "'.address_size' integer");
	assert_string_equal(names(".visible .entry .func .extern .weak .common"),
			    "'.visible' '.entry' '.func' '.extern' '.weak' '.common'");
	assert_string_equal(names(".reg .shared .local .const .global .param .align .ptr"),
			    "'.reg' '.shared' '.local' '.const' '.global' '.param' '.align' '.ptr'");
	assert_string_equal(names(".maxntid .reqntid .minnctapersm .maxnreg .reqnctapercluster "
				  ".explicitcluster .maxclusterrank .noreturn"),
			    "performance directive performance directive performance directive "
			    "performance directive performance directive performance directive "
			    "performance directive performance directive");
	assert_string_equal(names(".callprototype .calltargets .branchtargets .pragma \"nounroll\""),
			    "'.callprototype' '.calltargets' '.branchtargets' '.pragma' string");
	assert_string_equal(names(".file 1 \"a.cu\" .loc 1 2 3"),
			    "'.file' integer string '.loc' integer integer integer");
	/* A directive name with more letters is an ordinary word. */
	assert_string_equal(names(".regs .shared::cta"), "modifier modifier");
}

static void test_lexer_numbers(void **state)
{
	(void)state;
	assert_string_equal(names("0 42 0x1F 0X1f 017 0b101 42U 18446744073709551615"),
			    "integer integer integer integer integer integer integer integer");
	assert_string_equal(names("0f3F800000 0d3FF0000000000000 1.5 1. 2e10 1.5e-3"),
			    "floating-point constant floating-point constant floating-point constant "
			    "floating-point constant floating-point constant floating-point constant");
	/* Malformed numbers stay one token, so the builder can name them in its message. */
	assert_string_equal(names("0f3F80 09 12abc"), "integer integer integer");
}

static void test_lexer_operators(void **state)
{
	(void)state;
	assert_string_equal(names("<< >> <= >= == != && || < > = + - * / % ! ~ & | ^ ? : @"),
			    "'<<' '>>' '<=' '>=' '==' '!=' '&&' '||' '<' '>' '=' '+' '-' '*' '/' "
			    "'%' '!' '~' '&' '|' '^' '?' ':' '@'");
	assert_string_equal(names("[%rd1+-8] {a, _} (x)"),
			    "'[' identifier '+' '-' integer ']' '{' identifier ',' '_' '}' '(' "
			    "identifier ')'");
	assert_string_equal(names("_ _x $x %x %"), "'_' identifier identifier identifier '%'");
}

static void test_lexer_comments_and_line_directives(void **state)
{
	(void)state;
	assert_string_equal(names("// a comment { ;\nret /* block\n * comment */ ;"),
			    "identifier ';'");
	assert_string_equal(names("#line 12 \"x.cu\"\nret;\n#  line 3\n"), "identifier ';'");
	assert_string_equal(names("#define X 1\nret;"), "preprocessor directive identifier ';'");
	assert_string_equal(names("#linefoo\n"), "preprocessor directive");
}

static void test_lexer_section_is_one_token(void **state)
{
	(void)state;
	const char *t = ".section .debug_info\n{\n.b32 1\n.b8 \"}\" // }\n{ .b8 2 }\n/* } */ }\n"
			"ret;";
	assert_string_equal(names(t), "'.section' identifier ';'");
	struct src_span s;
	nth(t, 0, &s);
	assert_int_equal(s.off, 0);
	assert_int_equal(s.off + s.len, strstr(t, "ret") - t - 1);
	assert_string_equal(names(".section .debug_str { .b8 1"), "invalid character");
}

static void test_lexer_nul_bytes_are_invalid_characters(void **state)
{
	(void)state;
	static const char text[] = "a\0b \0";
	struct capture cap = {0};
	assert_string_equal(lex_names(text, sizeof text - 1, &cap),
			    "identifier invalid character identifier invalid character");
	assert_int_equal(cap.n, 0);
	static const char garbage[] = "\x01\xff\x80;";
	assert_string_equal(lex_names(garbage, sizeof garbage - 1, &cap),
			    "invalid character invalid character invalid character ';'");
}

static void test_lexer_unterminated(void **state)
{
	(void)state;
	assert_string_equal(names("ret; /* never closed"), "identifier ';' invalid character");
	assert_string_equal(names(".pragma \"never closed\nret;"),
			    "'.pragma' invalid character identifier identifier identifier ';'");
	assert_string_equal(names(""), "");
	assert_string_equal(names("   \n\t  "), "");
}

static void test_lexer_nesting_limit(void **state)
{
	(void)state;
	size_t n = 100000;
	char *t = malloc(2 * n + 8);
	memset(t, '{', n);
	memset(t + n, '}', n);
	strcpy(t + 2 * n, "ret;");
	struct capture cap = {0};
	char *out = lex_names(t, strlen(t), &cap);
	/* 256 '{' survive, the rest up to the matching '}' is dropped: the text stays balanced. */
	size_t opens = 0, closes = 0;
	for (char *c = out; (c = strstr(c, "'{'")); c += 3)
		opens++;
	for (char *c = out; (c = strstr(c, "'}'")); c += 3)
		closes++;
	assert_int_equal(opens, LEX_MAX_DEPTH);
	assert_int_equal(closes, LEX_MAX_DEPTH);
	assert_non_null(strstr(out, "identifier ';'"));
	assert_int_equal(cap.n, 1);
	assert_non_null(strstr(cap.text, "t.ptx:1:257: error: nesting too deep (more than 256 levels"));
	free(t);
}

static void test_lexer_huge_identifier(void **state)
{
	(void)state;
	size_t n = 1 << 21;
	char *t = malloc(n + 8);
	t[0] = '%';
	memset(t + 1, 'x', n - 1);
	strcpy(t + n, ";");
	struct src_span s;
	assert_string_equal(nth(t, 0, &s), "identifier");
	assert_int_equal(s.len, n);
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lexer_instruction),
		cmocka_unit_test(test_lexer_spans_are_byte_offsets),
		cmocka_unit_test(test_lexer_scoped_modifiers_are_one_token),
		cmocka_unit_test(test_lexer_directives),
		cmocka_unit_test(test_lexer_numbers),
		cmocka_unit_test(test_lexer_operators),
		cmocka_unit_test(test_lexer_comments_and_line_directives),
		cmocka_unit_test(test_lexer_section_is_one_token),
		cmocka_unit_test(test_lexer_nul_bytes_are_invalid_characters),
		cmocka_unit_test(test_lexer_unterminated),
		cmocka_unit_test(test_lexer_nesting_limit),
		cmocka_unit_test(test_lexer_huge_identifier),
	};
	return cmocka_run_group_tests_name("lexer", tests, NULL, NULL);
}
