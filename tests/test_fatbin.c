/*
 * test_fatbin.c - src/host/fatbin.c on fat binaries nvcc 13 made (tests/fatbin/, from k.cu:
 * `nvcc -fatbin -arch=sm_90a` with --compress-mode default (zstd), speed (LZ4) and none;
 * SASS only; compute_100 PTX only): the same PTX from each, the sm_90a one of the two it
 * holds, the wrapper nvcc's host stubs pass, and every refusal with its message.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "host/fatbin.h"

static uint8_t *slurp(const char *name, size_t *len)
{
	char path[512];
	snprintf(path, sizeof path, "%s/tests/fatbin/%s", PTXI_SOURCE_ROOT, name);
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	static uint8_t buf[1 << 16] __attribute__((aligned(8)));
	*len = fread(buf, 1, sizeof buf, f);
	fclose(f);
	uint8_t *copy = malloc(*len + 1);
	memcpy(copy, buf, *len);
	return copy;
}

static char *ptx_of(const char *name, char *why)
{
	size_t n, len;
	uint8_t *fb = slurp(name, &n);
	char *text = NULL;
	int st = fatbin_ptx(fb, n, &text, &len, why, 300);
	free(fb);
	if (st == 0)
		assert_int_equal(strlen(text), len);
	return st == 0 ? text : NULL;
}

static void test_fatbin_every_compression(void **state)
{
	(void)state;
	char why[300];
	char *z = ptx_of("zstd.fatbin", why), *l = ptx_of("lz4.fatbin", why),
	     *p = ptx_of("plain.fatbin", why);
	assert_non_null(z);
	assert_non_null(l);
	assert_non_null(p);
	assert_string_equal(z, l);
	assert_string_equal(z, p);
	/* the arch-specific PTX of the two -arch=sm_90a embeds */
	assert_non_null(strstr(z, "\n.target sm_90a\n"));
	assert_non_null(strstr(z, ".visible .entry _Z5scalePff("));
	free(z);
	free(l);
	free(p);
}

static void test_fatbin_wrapper(void **state)
{
	(void)state;
	size_t n, len;
	uint8_t *fb = slurp("zstd.fatbin", &n);
	struct { uint32_t magic, version; const void *data; void *unused; } w = {
		FATBIN_WRAPPER_MAGIC, 1, fb, NULL};
	char *text, why[300];
	assert_true(fatbin_is(&w));
	assert_true(fatbin_is(fb));
	assert_int_equal(fatbin_ptx(&w, sizeof w, &text, &len, why, sizeof why), 0);
	assert_non_null(strstr(text, "_Z5scalePff"));
	free(text);
	free(fb);
}

static void test_fatbin_sass_only(void **state)
{
	(void)state;
	char why[300];
	assert_null(ptx_of("sass.fatbin", why));
	assert_string_equal(why, "the program holds SASS (sm_90a) and no PTX, and ptxi runs PTX: "
			    "rebuild with -gencode arch=compute_90a,code=compute_90a added (or "
			    "-arch=sm_90a, which embeds both)");
}

static void test_fatbin_newer_ptx_only(void **state)
{
	(void)state;
	char why[300];
	assert_null(ptx_of("ptx100.fatbin", why));
	assert_string_equal(why, "the program holds PTX for compute_100 only; ptxi models an "
			    "sm_90 GPU: rebuild with -gencode arch=compute_90a,code=compute_90a added");
}

static void test_fatbin_truncated_and_corrupt(void **state)
{
	(void)state;
	size_t n, len;
	uint8_t *fb = slurp("zstd.fatbin", &n);
	char *text, why[300];
	assert_int_equal(fatbin_ptx(fb, 100, &text, &len, why, sizeof why), -1);
	assert_string_equal(why, "the fat binary is truncated (4472 bytes of entries)");
	fb[0x1028 + 0x50 + 0x20] ^= 0xff; /* inside the zstd frame of the sm_90a entry */
	assert_int_equal(fatbin_ptx(fb, n, &text, &len, why, sizeof why), -1);
	assert_string_equal(why, "a zstd-compressed PTX entry does not decompress");
	fb[0] = 0;
	assert_int_equal(fatbin_ptx(fb, n, &text, &len, why, sizeof why), -1);
	assert_string_equal(why, "not an nvcc fat binary (magic 0xba55ed00)");
	free(fb);
}

static void test_fatbin_lz4_blocks(void **state)
{
	(void)state;
	/* "abcabcabcabcX": 3 literals, a match of 9 at offset 3, then the last literal */
	const uint8_t in[] = {0x35, 'a', 'b', 'c', 3, 0, 0x10, 'X'};
	uint8_t out[13];
	assert_true(fatbin_lz4(in, sizeof in, out, sizeof out));
	assert_memory_equal(out, "abcabcabcabcX", 13);
	assert_false(fatbin_lz4(in, sizeof in, out, 12));           /* does not fit        */
	const uint8_t far[] = {0x35, 'a', 'b', 'c', 9, 0, 0x10, 'X'};
	assert_false(fatbin_lz4(far, sizeof far, out, sizeof out)); /* offset before start */
	assert_false(fatbin_lz4(in, 5, out, sizeof out));           /* offset cut off      */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fatbin_every_compression),
		cmocka_unit_test(test_fatbin_wrapper),
		cmocka_unit_test(test_fatbin_sass_only),
		cmocka_unit_test(test_fatbin_newer_ptx_only),
		cmocka_unit_test(test_fatbin_truncated_and_corrupt),
		cmocka_unit_test(test_fatbin_lz4_blocks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
