/*
 * cu_proc.c - cuGetProcAddress: the driver functions ptxi provides, by the name programs ask
 * for (without the _v2 a header adds), each at its newest version here.
 */
#include <string.h>

#include "cu.h"

extern CUresult cuInit();
extern CUresult cuDriverGetVersion();
extern CUresult cuDeviceGetCount();
extern CUresult cuDeviceGet();
extern CUresult cuDeviceGetName();
extern CUresult cuDeviceGetAttribute();
extern CUresult cuDeviceTotalMem_v2();
extern CUresult cuDeviceComputeCapability();
extern CUresult cuDevicePrimaryCtxRetain();
extern CUresult cuDevicePrimaryCtxRelease_v2();
extern CUresult cuCtxCreate_v2();
extern CUresult cuCtxCreate_v3();
extern CUresult cuCtxCreate_v4();
extern CUresult cuCtxDestroy_v2();
extern CUresult cuCtxSetCurrent();
extern CUresult cuCtxGetCurrent();
extern CUresult cuCtxPushCurrent_v2();
extern CUresult cuCtxPopCurrent_v2();
extern CUresult cuCtxGetDevice();
extern CUresult cuCtxSynchronize();
extern CUresult cuGetErrorString();
extern CUresult cuGetErrorName();
extern CUresult cuModuleLoadData();
extern CUresult cuModuleLoadDataEx();
extern CUresult cuModuleLoadFatBinary();
extern CUresult cuModuleLoad();
extern CUresult cuModuleUnload();
extern CUresult cuModuleGetFunction();
extern CUresult cuModuleGetGlobal_v2();
extern CUresult cuLaunchKernel();
extern CUresult cuLaunchCooperativeKernel();
extern CUresult cuLaunchKernelEx();
extern CUresult cuFuncSetAttribute();
extern CUresult cuFuncGetAttribute();
extern CUresult cuTensorMapEncodeTiled();
extern CUresult cuTensorMapEncodeIm2col();
extern CUresult cuTensorMapReplaceAddress();
extern CUresult cuMemAlloc_v2();
extern CUresult cuMemAllocManaged();
extern CUresult cuMemAllocHost_v2();
extern CUresult cuMemFree_v2();
extern CUresult cuMemFreeHost();
extern CUresult cuMemcpyHtoD_v2();
extern CUresult cuMemcpyDtoH_v2();
extern CUresult cuMemcpyDtoD_v2();
extern CUresult cuMemcpy();
extern CUresult cuMemcpyHtoDAsync_v2();
extern CUresult cuMemcpyDtoHAsync_v2();
extern CUresult cuMemsetD8_v2();
extern CUresult cuMemsetD32_v2();
extern CUresult cuMemGetInfo_v2();
extern CUresult cuStreamCreate();
extern CUresult cuStreamDestroy_v2();
extern CUresult cuStreamSynchronize();
extern CUresult cuEventCreate();
extern CUresult cuEventRecord();
extern CUresult cuEventSynchronize();
extern CUresult cuEventDestroy_v2();
extern CUresult cuEventElapsedTime();

static const struct { const char *name; void *fn; } procs[] = {
	{"cuInit", (void *)cuInit},
	{"cuDriverGetVersion", (void *)cuDriverGetVersion},
	{"cuDeviceGetCount", (void *)cuDeviceGetCount},
	{"cuDeviceGet", (void *)cuDeviceGet},
	{"cuDeviceGetName", (void *)cuDeviceGetName},
	{"cuDeviceGetAttribute", (void *)cuDeviceGetAttribute},
	{"cuDeviceTotalMem", (void *)cuDeviceTotalMem_v2},
	{"cuDeviceComputeCapability", (void *)cuDeviceComputeCapability},
	{"cuDevicePrimaryCtxRetain", (void *)cuDevicePrimaryCtxRetain},
	{"cuDevicePrimaryCtxRelease", (void *)cuDevicePrimaryCtxRelease_v2},
	{"cuCtxCreate", (void *)cuCtxCreate_v2},
	{"cuCtxCreate", (void *)cuCtxCreate_v3},
	{"cuCtxCreate", (void *)cuCtxCreate_v4},
	{"cuCtxDestroy", (void *)cuCtxDestroy_v2},
	{"cuCtxSetCurrent", (void *)cuCtxSetCurrent},
	{"cuCtxGetCurrent", (void *)cuCtxGetCurrent},
	{"cuCtxPushCurrent", (void *)cuCtxPushCurrent_v2},
	{"cuCtxPopCurrent", (void *)cuCtxPopCurrent_v2},
	{"cuCtxGetDevice", (void *)cuCtxGetDevice},
	{"cuCtxSynchronize", (void *)cuCtxSynchronize},
	{"cuGetErrorString", (void *)cuGetErrorString},
	{"cuGetErrorName", (void *)cuGetErrorName},
	{"cuModuleLoadData", (void *)cuModuleLoadData},
	{"cuModuleLoadDataEx", (void *)cuModuleLoadDataEx},
	{"cuModuleLoadFatBinary", (void *)cuModuleLoadFatBinary},
	{"cuModuleLoad", (void *)cuModuleLoad},
	{"cuModuleUnload", (void *)cuModuleUnload},
	{"cuModuleGetFunction", (void *)cuModuleGetFunction},
	{"cuModuleGetGlobal", (void *)cuModuleGetGlobal_v2},
	{"cuLaunchKernel", (void *)cuLaunchKernel},
	{"cuLaunchCooperativeKernel", (void *)cuLaunchCooperativeKernel},
	{"cuLaunchKernelEx", (void *)cuLaunchKernelEx},
	{"cuFuncSetAttribute", (void *)cuFuncSetAttribute},
	{"cuFuncGetAttribute", (void *)cuFuncGetAttribute},
	{"cuTensorMapEncodeTiled", (void *)cuTensorMapEncodeTiled},
	{"cuTensorMapEncodeIm2col", (void *)cuTensorMapEncodeIm2col},
	{"cuTensorMapReplaceAddress", (void *)cuTensorMapReplaceAddress},
	{"cuMemAlloc", (void *)cuMemAlloc_v2},
	{"cuMemAllocManaged", (void *)cuMemAllocManaged},
	{"cuMemAllocHost", (void *)cuMemAllocHost_v2},
	{"cuMemFree", (void *)cuMemFree_v2},
	{"cuMemFreeHost", (void *)cuMemFreeHost},
	{"cuMemcpyHtoD", (void *)cuMemcpyHtoD_v2},
	{"cuMemcpyDtoH", (void *)cuMemcpyDtoH_v2},
	{"cuMemcpyDtoD", (void *)cuMemcpyDtoD_v2},
	{"cuMemcpy", (void *)cuMemcpy},
	{"cuMemcpyHtoDAsync", (void *)cuMemcpyHtoDAsync_v2},
	{"cuMemcpyDtoHAsync", (void *)cuMemcpyDtoHAsync_v2},
	{"cuMemsetD8", (void *)cuMemsetD8_v2},
	{"cuMemsetD32", (void *)cuMemsetD32_v2},
	{"cuMemGetInfo", (void *)cuMemGetInfo_v2},
	{"cuStreamCreate", (void *)cuStreamCreate},
	{"cuStreamDestroy", (void *)cuStreamDestroy_v2},
	{"cuStreamSynchronize", (void *)cuStreamSynchronize},
	{"cuEventCreate", (void *)cuEventCreate},
	{"cuEventRecord", (void *)cuEventRecord},
	{"cuEventSynchronize", (void *)cuEventSynchronize},
	{"cuEventDestroy", (void *)cuEventDestroy_v2},
	{"cuEventElapsedTime", (void *)cuEventElapsedTime},
};

/* CUdriverProcAddressQueryResult: 0 success, 1 symbol not found */
CU_EXPORT CUresult cuGetProcAddress_v2(const char *symbol, void **fn, int version, uint64_t flags,
				       int *status)
{
	if (!symbol || !fn)
		return CUDA_ERROR_INVALID_VALUE;
	for (size_t i = 0; i < sizeof procs / sizeof procs[0]; i++)
		if (!strcmp(procs[i].name, symbol)) {
			*fn = procs[i].fn;
			if (status)
				*status = 0;
			return CUDA_SUCCESS;
		}
	*fn = NULL;
	if (status)
		*status = 1;
	char what[160];
	snprintf(what, sizeof what, "the driver function %s (through cuGetProcAddress)", symbol);
	rt_unsupported(what);
	return CUDA_ERROR_NOT_FOUND;
}
