/*
 * test_ptxi.c - unit tests of the library's entry points (ptxi.c) as `ptxi check` uses them:
 * ptxi_check streams a file through the parser and checker one function body at a time, so
 * these tests pin that it reports exactly what a whole-module load reports, in source order,
 * that no body's names outlive it, and that a mapped file ending on a page boundary still
 * has its NUL sentinel.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "ptxi/ptxi.h"

#define HDR ".version 8.0\n.target sm_90\n.address_size 64\n"

/* Every diagnostic's first line, in order, without the temporary file's name. */
struct lines {
	char text[16][256];
	unsigned n;
};

static void collect(void *ctx, int level, const char *text)
{
	struct lines *l = ctx;
	if (level == 2 || l->n == 16) /* notes follow their error */
		return;
	if (strncmp(text, "/tmp/ptxi-test-", 15) == 0)
		text = strchr(text, ':') + 1;
	size_t k = strcspn(text, "\n");
	if (k >= sizeof l->text[0])
		k = sizeof l->text[0] - 1;
	memcpy(l->text[l->n], text, k);
	l->text[l->n++][k] = '\0';
}

/* A temporary file holding `text`; the caller unlinks and frees the path. */
static char *temp_file(const char *text, size_t len)
{
	char *path = strdup("/tmp/ptxi-test-XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, len), (ssize_t)len);
	close(fd);
	return path;
}

/* ptxi_check's status and lines for `text`, checked against a whole-module load. */
static int check_text(const char *text, struct lines *out)
{
	char *path = temp_file(text, strlen(text));
	memset(out, 0, sizeof *out);
	int status = ptxi_check(path, collect, out);
	struct lines whole = {0};
	ptxi_module *m = ptxi_module_load(path, collect, &whole);
	assert_non_null(m);
	assert_int_equal(status == PTXI_OK, ptxi_module_errors(m) == 0);
	ptxi_module_free(m);
	assert_int_equal(whole.n, out->n);
	for (unsigned i = 0; i < out->n; i++)
		assert_string_equal(whole.text[i], out->text[i]);
	unlink(path);
	free(path);
	return status;
}

static const char kernel_a[] = /* lines 4-9: one check error on line 7 */
	".visible .entry a()\n{\n\t.reg .b32 %r<4>;\n\tadd.s64 %r1, %r2, 1;\n\tret;\n}\n";
static const char kernel_b[] = /* lines 10-19: clean, labels and a nested block */
	".visible .entry b()\n{\n\t.reg .b32 %r<4>;\n\t.reg .pred %p;\n"
	"\tsetp.eq.s32 %p, %r1, 0;\n\t@%p bra DONE;\n\t{ .reg .b32 %t; mov.b32 %t, 1; }\n"
	"DONE:\n\tret;\n}\n";
static const char kernel_c[] = /* lines 20-25: one check error on line 23 */
	".visible .entry c()\n{\n\t.reg .b64 %rd<4>;\n\tmul.lo.s32 %rd1, %rd2, 3;\n\tret;\n}\n";

static void test_check_reports_every_function_in_order(void **state)
{
	(void)state;
	char text[2048];
	snprintf(text, sizeof text, HDR "%s%s%s", kernel_a, kernel_b, kernel_c);
	struct lines l;
	assert_int_equal(check_text(text, &l), PTXI_INVALID);
	assert_int_equal(l.n, 4);
	assert_string_equal(l.text[0], "7:10: error: operand 1 of add.s64 is a 32-bit register; "
				       "expected 64 bits [operand-type]");
	assert_string_equal(l.text[1], "7:15: error: operand 2 of add.s64 is a 32-bit register; "
				       "expected 64 bits [operand-type]");
	assert_string_equal(l.text[2], "23:13: error: operand 1 of mul.lo.s32 is a 64-bit "
				       "register; expected 32 bits [operand-type]");
	assert_string_equal(l.text[3], "23:19: error: operand 2 of mul.lo.s32 is a 64-bit "
				       "register; expected 32 bits [operand-type]");
}

/* After a syntax error the checks stop: what follows is not the module that was meant. */
static void test_check_stops_after_a_syntax_error(void **state)
{
	(void)state;
	char text[2048];
	snprintf(text, sizeof text, HDR "%s.visible .entry s()\n{\n\tret\n}\n%s", kernel_a,
		 kernel_c);
	struct lines l;
	assert_int_equal(check_text(text, &l), PTXI_INVALID);
	assert_int_equal(l.n, 3);
	assert_string_equal(l.text[0], "7:10: error: operand 1 of add.s64 is a 32-bit register; "
				       "expected 64 bits [operand-type]");
	assert_string_equal(l.text[2], "13:1: error: syntax error, unexpected '}' (missing ';' at "
				       "the end of the previous line?) [syntax]");
}

/* Each body's registers and labels are gone once it closes: the next function cannot see
 * them, and may declare the same names again. */
static void test_check_forgets_each_body(void **state)
{
	(void)state;
	struct lines l;
	char text[8192];
	int n = snprintf(text, sizeof text, HDR);
	for (int i = 0; i < 40; i++)
		n += snprintf(text + n, sizeof text - (size_t)n,
			      ".func f%d()\n{\n\t.reg .b32 %%r<9>;\n\tadd.u32 %%r1, %%r2, %d;\n"
			      "L:\n\tret;\n}\n", i, i);
	assert_int_equal(check_text(text, &l), PTXI_OK);
	assert_int_equal(l.n, 0);
	snprintf(text, sizeof text, HDR ".func f()\n{\n\t.reg .b32 %%only_f;\n\tret;\n}\n"
		 ".func g()\n{\n\tmov.b32 %%only_f, 1;\n\tret;\n}\n");
	assert_int_equal(check_text(text, &l), PTXI_INVALID);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.text[0], "11:10: error: undeclared identifier '%only_f'"
				       " [undeclared-identifier]");
}

/* A mapped file whose size is a whole number of pages: the NUL after it must still be
 * there, and a last token that touches the end must still be read whole. */
static void test_check_file_of_whole_pages(void **state)
{
	(void)state;
	long page = sysconf(_SC_PAGESIZE);
	static const char body[] = HDR ".visible .entry k()\n{\n\tret;\n}\n";
	for (int pages = 1; pages <= 3; pages++) {
		size_t len = (size_t)(page * pages);
		char *text = malloc(len + 1);
		memset(text, ' ', len);
		memcpy(text, body, sizeof body - 1);
		memcpy(text + sizeof body - 1, "//", 2);       /* a comment to the very end */
		text[len] = '\0';
		char *path = temp_file(text, len);
		struct lines l = {0};
		assert_int_equal(ptxi_check(path, collect, &l), PTXI_OK);
		unlink(path);
		/* and the last byte is the closing brace */
		memset(text, ' ', len);
		memcpy(text, body, sizeof body - 3);
		text[len - 1] = '}';
		free(path);
		path = temp_file(text, len);
		assert_int_equal(ptxi_check(path, collect, &l), PTXI_OK);
		assert_int_equal(l.n, 0);
		unlink(path);
		free(path);
		free(text);
	}
}

static void test_check_unreadable_file(void **state)
{
	(void)state;
	struct lines l = {0};
	assert_int_equal(ptxi_check("/nonexistent/k.ptx", collect, &l), PTXI_INVALID);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.text[0], "ptxi: error: cannot read '/nonexistent/k.ptx': No such "
				       "file or directory");
	l.n = 0;
	assert_int_equal(ptxi_check("/tmp", collect, &l), PTXI_INVALID);
	assert_string_equal(l.text[0], "ptxi: error: cannot read '/tmp': Is a directory");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_reports_every_function_in_order),
		cmocka_unit_test(test_check_stops_after_a_syntax_error),
		cmocka_unit_test(test_check_forgets_each_body),
		cmocka_unit_test(test_check_file_of_whole_pages),
		cmocka_unit_test(test_check_unreadable_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
