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

/* What nvcc and cccl add that the user never wrote is shortened: the internal-linkage file
 * prefix, the versioned inline namespace, "(anonymous namespace)". */
static void test_demangle_tidy_internal_names(void **state)
{
	(void)state;
	char buf[512];
	assert_string_equal(
		demangle_name("_ZN47_INTERNAL_8ddb2679_16_cccl_deadlock_cu_887197a04cuda3ptx3__424"
			      "mbarrier_try_wait_parityIvEEbPmRKj", buf, sizeof buf),
		"bool cuda::ptx::mbarrier_try_wait_parity<void>(unsigned long*, unsigned int const&)");
	assert_string_equal(demangle_name("_ZN47_INTERNAL_8ddb2679_16_cccl_deadlock_cu_887197a049_GLOBAL__N"
					  "__8ddb2679_16_cccl_deadlock_cu_887197a09wait_fullEPmj", buf,
					  sizeof buf),
			    "(anonymous)::wait_full(unsigned long*, unsigned int)");
	char s[] = "ns::__12::f(x::__cxx11::y, a__4::b, _INTERNAL_x)";
	demangle_tidy(s);
	assert_string_equal(s, "ns::f(x::__cxx11::y, a__4::b, _INTERNAL_x)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_demangle_kernels),
		cmocka_unit_test(test_demangle_plain_names_pass_through),
		cmocka_unit_test(test_demangle_tidy_internal_names),
	};
	return cmocka_run_group_tests_name("demangle", tests, NULL, NULL);
}
