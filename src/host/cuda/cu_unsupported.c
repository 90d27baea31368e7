/*
 * cu_unsupported.c - every other function of CUDA 13's libcuda.so.1 (cu_api.def): a weak
 * definition that says the driver function is not provided and returns
 * CUDA_ERROR_NOT_SUPPORTED; the ones ptxi provides (cu*.c) are strong and win.
 */
#include "cu.h"

#define CU(name) \
	__attribute__((weak, visibility("default"))) CUresult name(void); \
	__attribute__((weak, visibility("default"))) CUresult name(void) \
	{ \
		return rt_unsupported(#name); \
	}
#include "cu_api.def"
#undef CU
