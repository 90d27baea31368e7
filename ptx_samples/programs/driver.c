/* The driver API, as hand-written host code and JIT-ing libraries use it: a module loaded
 * from PTX text with cuModuleLoadData, a function and a global looked up, memory, a launch
 * with cuLaunchKernel, cooperative launches, a pointer from cuGetProcAddress, and a driver
 * function ptxi does not provide. Built with cc against ptxi's libcuda.so.1 (tests/exec.sh), with CUDA's cuda.h where
 * it is installed. */
#if __has_include(<cuda.h>)
#include <cuda.h>
#else
#include "driver_api.h"
#endif
#include <stdio.h>

static const char ptx[] =
	".version 8.0\n.target sm_90\n.address_size 64\n"
	".visible .global .align 4 .u32 scale = 3;\n"
	".visible .entry add_scaled(.param .u64 p, .param .u32 n)\n{\n"
	"\t.reg .pred %p;\n\t.reg .b32 %r<6>;\n\t.reg .b64 %rd<4>;\n"
	"\tld.param.u64 %rd1, [p];\n\tld.param.u32 %r1, [n];\n"
	"\tmov.u32 %r2, %tid.x;\n\tsetp.ge.u32 %p, %r2, %r1;\n\t@%p bra DONE;\n"
	"\tmul.wide.u32 %rd2, %r2, 4;\n\tadd.u64 %rd3, %rd1, %rd2;\n"
	"\tld.global.u32 %r3, [%rd3];\n\tld.global.u32 %r4, [scale];\n"
	"\tmad.lo.u32 %r5, %r2, %r4, %r3;\n\tst.global.u32 [%rd3], %r5;\n"
	"DONE:\n\tret;\n}\n";

#define CHECK(call) \
	do { \
		CUresult r_ = (call); \
		const char *n_; \
		cuGetErrorName(r_, &n_); \
		printf("%-40s %s\n", #call, n_ ? n_ : "?"); \
	} while (0)

int main(void)
{
	CUdevice dev;
	CUcontext ctx;
	CUmodule mod;
	CUfunction f;
	CUdeviceptr d, g;
	char name[128];
	int h[32], cc, ok = 0;
	size_t gsize;
	unsigned n = 32;
	CHECK(cuInit(0));
	CHECK(cuDeviceGet(&dev, 0));
	CHECK(cuDeviceGetName(name, sizeof name, dev));
	CHECK(cuDeviceGetAttribute(&cc, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
	printf("compute capability major %d\n", cc);
	CHECK(cuCtxCreate(&ctx, NULL, 0, dev));
	CHECK(cuModuleLoadData(&mod, ptx));
	CHECK(cuModuleGetFunction(&f, mod, "add_scaled"));
	CHECK(cuModuleGetFunction(&f, mod, "add"));
	CHECK(cuModuleGetFunction(&f, mod, "add_scaled"));
	CHECK(cuModuleGetGlobal(&g, &gsize, mod, "scale"));
	int five = 5;
	CHECK(cuMemcpyHtoD(g, &five, sizeof five));
	for (int i = 0; i < 32; i++)
		h[i] = 100;
	CHECK(cuMemAlloc(&d, sizeof h));
	CHECK(cuMemcpyHtoD(d, h, sizeof h));
	void *args[] = {&d, &n};
	CHECK(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, args, NULL));
	CHECK(cuCtxSynchronize());
	CHECK(cuMemcpyDtoH(h, d, sizeof h));
	for (int i = 0; i < 32; i++)
		ok += h[i] == 100 + 5 * i;
	printf("%d of 32 right, h[31] = %d, global of %zu bytes\n", ok, h[31], gsize);
	/* a cooperative launch, and one of more CTAs than the GPU holds at once */
	CHECK(cuLaunchCooperativeKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, args));
	CHECK(cuLaunchCooperativeKernel(f, 132 * 32 + 1, 1, 1, 32, 1, 1, 0, NULL, args));
	CHECK(cuCtxSynchronize());
	void *fn = NULL;
	CUdriverProcAddressQueryResult q;
	CHECK(cuGetProcAddress("cuMemFree", &fn, 13000, CU_GET_PROC_ADDRESS_DEFAULT, &q));
	CHECK(((CUresult(*)(CUdeviceptr))fn)(d));
	CUgraph graph;
	CHECK(cuGraphCreate(&graph, 0));
	CHECK(cuCtxDestroy(ctx));
	return ok != 32;
}
