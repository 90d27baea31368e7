/*
 * cu_mem.c - the driver API's memory, streams and events, over the runtime's: the same
 * allocations in ptxi's modelled global memory, the same checks of every copy and set.
 */
#include <string.h>

#include "cu.h"

extern cudaError_t cudaMalloc(void **p, size_t n);
extern cudaError_t cudaMallocHost(void **p, size_t n);
extern cudaError_t cudaMallocManaged(void **p, size_t n, unsigned flags);
extern cudaError_t cudaFree(void *p);
extern cudaError_t cudaFreeHost(void *p);
extern cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, int kind);
extern cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, int kind, void *s);
extern cudaError_t cudaMemset(void *p, int value, size_t n);
extern cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total);
extern cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags);
extern cudaError_t cudaStreamDestroy(cudaStream_t s);
extern cudaError_t cudaStreamSynchronize(cudaStream_t s);
extern cudaError_t cudaEventCreateWithFlags(cudaEvent_t *ev, unsigned flags);
extern cudaError_t cudaEventRecord(cudaEvent_t ev, cudaStream_t s);
extern cudaError_t cudaEventSynchronize(cudaEvent_t ev);
extern cudaError_t cudaEventDestroy(cudaEvent_t ev);
extern cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b);

#define CALL(expr) \
	do { \
		CUresult r_; \
		if (!cu_enter(&r_)) \
			return r_; \
		cu_leave(); \
		return cu_result(expr); \
	} while (0)

CU_EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t n)
{
	CALL(cudaMalloc((void **)p, n));
}

CU_EXPORT CUresult cuMemAllocManaged(CUdeviceptr *p, size_t n, unsigned flags)
{
	CALL(cudaMallocManaged((void **)p, n, flags));
}

CU_EXPORT CUresult cuMemAllocHost_v2(void **p, size_t n)
{
	CALL(cudaMallocHost(p, n));
}

CU_EXPORT CUresult cuMemFree_v2(CUdeviceptr p)
{
	CALL(cudaFree((void *)(uintptr_t)p));
}

CU_EXPORT CUresult cuMemFreeHost(void *p)
{
	CALL(cudaFreeHost(p));
}

CU_EXPORT CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t n)
{
	CALL(cudaMemcpy((void *)(uintptr_t)dst, src, n, cudaMemcpyHostToDevice));
}

CU_EXPORT CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t n)
{
	CALL(cudaMemcpy(dst, (const void *)(uintptr_t)src, n, cudaMemcpyDeviceToHost));
}

CU_EXPORT CUresult cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src, size_t n)
{
	CALL(cudaMemcpy((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, n,
			cudaMemcpyDeviceToDevice));
}

CU_EXPORT CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t n)
{
	CALL(cudaMemcpy((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, n, cudaMemcpyDefault));
}

CU_EXPORT CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t n, void *s)
{
	CALL(cudaMemcpyAsync((void *)(uintptr_t)dst, src, n, cudaMemcpyHostToDevice, s));
}

CU_EXPORT CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t n, void *s)
{
	CALL(cudaMemcpyAsync(dst, (const void *)(uintptr_t)src, n, cudaMemcpyDeviceToHost, s));
}

CU_EXPORT CUresult cuMemsetD8_v2(CUdeviceptr p, unsigned char v, size_t n)
{
	CALL(cudaMemset((void *)(uintptr_t)p, v, n));
}

CU_EXPORT CUresult cuMemsetD32_v2(CUdeviceptr p, unsigned v, size_t n)
{
	CUresult r;
	if (!cu_enter(&r))
		return r;
	int ok = n ? rt_device_range((void *)(uintptr_t)p, n * 4, "cuMemsetD32") : 1;
	if (ok > 0)
		for (size_t i = 0; i < n; i++)
			memcpy((uint8_t *)(uintptr_t)p + 4 * i, &v, 4);
	cu_leave();
	return ok > 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CU_EXPORT CUresult cuMemGetInfo_v2(size_t *free_bytes, size_t *total)
{
	CALL(cudaMemGetInfo(free_bytes, total));
}

CU_EXPORT CUresult cuStreamCreate(cudaStream_t *s, unsigned flags)
{
	CALL(cudaStreamCreateWithFlags(s, flags));
}

CU_EXPORT CUresult cuStreamDestroy_v2(cudaStream_t s)
{
	CALL(cudaStreamDestroy(s));
}

CU_EXPORT CUresult cuStreamSynchronize(cudaStream_t s)
{
	CALL(cudaStreamSynchronize(s));
}

CU_EXPORT CUresult cuEventCreate(cudaEvent_t *ev, unsigned flags)
{
	CALL(cudaEventCreateWithFlags(ev, flags));
}

CU_EXPORT CUresult cuEventRecord(cudaEvent_t ev, cudaStream_t s)
{
	CALL(cudaEventRecord(ev, s));
}

CU_EXPORT CUresult cuEventSynchronize(cudaEvent_t ev)
{
	CALL(cudaEventSynchronize(ev));
}

CU_EXPORT CUresult cuEventDestroy_v2(cudaEvent_t ev)
{
	CALL(cudaEventDestroy(ev));
}

CU_EXPORT CUresult cuEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b)
{
	CALL(cudaEventElapsedTime(ms, a, b));
}
