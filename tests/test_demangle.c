/*
 * test_demangle.c - src/support/demangle.c: nvcc's mangled names (kernels, templates, local statics
 * such as a __shared__ barrier array) read as C++; plain names pass through unchanged.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "support/demangle.h"

static void test_demangle_kernels(void **state)
{
	(void)state;
	char buf[256];
	assert_string_equal(demangle_name("_Z11ws_pipelinePfi", buf, sizeof buf),
			    "ws_pipeline(float*, int)");
	assert_string_equal(demangle_name("_ZZ11ws_pipelinePfiE5empty", buf, sizeof buf),
			    "ws_pipeline(float*, int)::empty");
	assert_string_equal(demangle_name("_Z4gemmILi128EEvPKfPf", buf, sizeof buf),
			    "void gemm<128>(float const*, float*)");
}

static void test_demangle_plain_names_pass_through(void **state)
{
	(void)state;
	char buf[64];
	const char *plain = "triton_mm_kernel";
	assert_ptr_equal(demangle_name(plain, buf, sizeof buf), plain);
	assert_null(demangle_alloc(plain));
	assert_null(demangle_alloc("_Zgarbage!"));
	assert_string_equal(demangle_name("_Zgarbage!", buf, sizeof buf), "_Zgarbage!");
	char small[8];
	assert_string_equal(demangle_name("_Z11ws_pipelinePfi", small, sizeof small), "ws_pipe");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_demangle_kernels),
		cmocka_unit_test(test_demangle_plain_names_pass_through),
	};
	return cmocka_run_group_tests_name("demangle", tests, NULL, NULL);
}
