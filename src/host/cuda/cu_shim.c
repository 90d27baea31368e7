/*
 * cu_shim.c - libcuda.so.1, an ELF filter on libcudart.so.13 (meson.build links it with
 * --filter): the driver API lives in libcudart.so.13 beside the runtime, so that both share
 * one device, one memory and one set of modules. This library names every function of CUDA
 * 13's libcuda.so.1 (cu_api.def), so that a program links against it as against NVIDIA's; the
 * dynamic linker resolves each name in libcudart.so.13, which it loads first. The bodies
 * below never run.
 */
#include <stdio.h>
#include <stdlib.h>

static void not_filtered(const char *name)
{
	fprintf(stderr, "ptxi: libcuda.so.1 was loaded without libcudart.so.13 (%s)\n", name);
	abort();
}

#define CU(name) \
	__attribute__((visibility("default"))) void name(void); \
	void name(void) { not_filtered(#name); }
#include "cu_api.def"
#undef CU
