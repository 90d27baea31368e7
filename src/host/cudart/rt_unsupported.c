/*
 * rt_unsupported.c - every other function of CUDA 13's libcudart.so.13 (api.def): a weak
 * definition that says the API is not provided and returns cudaErrorNotSupported, so a
 * program that calls one is told, never answered with a silent success. The functions ptxi
 * provides are strong definitions in the other files, which the linker takes instead.
 */
#include "rt.h"

#define API(name) \
	__attribute__((weak, visibility("default"))) cudaError_t name(void); \
	__attribute__((weak, visibility("default"))) cudaError_t name(void) \
	{ \
		return rt_unsupported(#name); \
	}
#include "api.def"
#undef API
