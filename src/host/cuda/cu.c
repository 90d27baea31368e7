/*
 * cu.c - the driver API's device, contexts and errors: cuInit, the one device (the
 * runtime's H100), a primary context and contexts made on it (all the same device memory),
 * cuGetErrorString/Name and cuGetProcAddress over the functions ptxi provides.
 */
#include <string.h>

#include "cu.h"

static bool inited;

struct cu_ctx {
	int device;
};
static struct cu_ctx primary, *current;

CUresult cu_result(cudaError_t e)
{
	switch (e) {
	case cudaErrorInvalidDeviceFunction:
	case cudaErrorInvalidResourceHandle:
		return CUDA_ERROR_INVALID_HANDLE;
	case cudaErrorInvalidSymbol:
		return CUDA_ERROR_NOT_FOUND;
	case cudaErrorInvalidConfiguration:
	case cudaErrorInvalidPitchValue:
	case cudaErrorInvalidMemcpyDirection:
		return CUDA_ERROR_INVALID_VALUE;
	case cudaErrorMemoryAllocation:
		return CUDA_ERROR_OUT_OF_MEMORY;
	default:
		return e; /* the same numbers: 0, 1, 100, 101, 209, 218, 700-720, 801, 999 */
	}
}

bool cu_enter(CUresult *r)
{
	cudaError_t e;
	if (!inited) {
		*r = CUDA_ERROR_NOT_INITIALIZED;
		return false;
	}
	if (!rt_enter(&e)) {
		*r = cu_result(e);
		return false;
	}
	return true;
}

void cu_leave(void)
{
	rt_leave();
}

CU_EXPORT CUresult cuInit(unsigned flags)
{
	cudaError_t e;
	if (flags)
		return CUDA_ERROR_INVALID_VALUE;
	if (!rt_enter(&e))
		return cu_result(e);
	inited = true;
	rt_leave();
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult cuDriverGetVersion(int *v)
{
	if (!v)
		return CUDA_ERROR_INVALID_VALUE;
	*v = 13000;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult cuDeviceGetCount(int *n)
{
	CUresult r;
	if (!cu_enter(&r))
		return r;
	*n = 1;
	cu_leave();
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult cuDeviceGet(CUdevice *d, int ordinal)
{
	CUresult r;
	if (!cu_enter(&r))
		return r;
	cu_leave();
	if (ordinal != 0)
		return CUDA_ERROR_INVALID_DEVICE;
	*d = 0;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult cuDeviceGetName(char *name, int len, CUdevice d)
{
	CUresult r;
	if (!cu_enter(&r))
		return r;
	cu_leave();
	if (d != 0)
		return CUDA_ERROR_INVALID_DEVICE;
	if (!name || len <= 0)
		return CUDA_ERROR_INVALID_VALUE;
	snprintf(name, (size_t)len, "NVIDIA H100 80GB HBM3 (ptxi)");
	return CUDA_SUCCESS;
}

extern cudaError_t cudaDeviceGetAttribute(int *v, int attr, int d);

/* CUdevice_attribute numbers agree with cudaDeviceAttr's. */
CU_EXPORT CUresult cuDeviceGetAttribute(int *v, int attr, CUdevice d)
{
	CUresult r;
	if (!cu_enter(&r))
		return r;
	cu_leave();
	return cu_result(cudaDeviceGetAttribute(v, attr, d));
}

CU_EXPORT CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice d)
{
	CUresult r;
	if (!cu_enter(&r))
		return r;
	*bytes = rt.mem->limit;
	cu_leave();
	return d == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

CU_EXPORT CUresult cuDeviceComputeCapability(int *major, int *minor, CUdevice d)
{
	*major = 9;
	*minor = 0;
	return d == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

/* ---- contexts: every one is the device's (one memory, one module set) ----------------- */

static CUresult ctx_new(CUcontext *c, CUdevice d)
{
	CUresult r;
	if (!cu_enter(&r))
		return r;
	cu_leave();
	if (d != 0)
		return CUDA_ERROR_INVALID_DEVICE;
	if (!c)
		return CUDA_ERROR_INVALID_VALUE;
	*c = current = &primary;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice d)
{
	CUresult r = ctx_new(c, d);
	current = NULL; /* retaining does not make it current */
	return r;
}

CU_EXPORT CUresult cuDevicePrimaryCtxRelease_v2(CUdevice d)
{
	return d == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

CU_EXPORT CUresult cuCtxCreate_v2(CUcontext *c, unsigned flags, CUdevice d)
{
	return ctx_new(c, d);
}

CU_EXPORT CUresult cuCtxCreate_v3(CUcontext *c, void *params, int nparams, unsigned flags,
				  CUdevice d)
{
	return ctx_new(c, d);
}

CU_EXPORT CUresult cuCtxCreate_v4(CUcontext *c, void *params, unsigned flags, CUdevice d)
{
	return ctx_new(c, d);
}

CU_EXPORT CUresult cuCtxDestroy_v2(CUcontext c)
{
	if (c != &primary)
		return CUDA_ERROR_INVALID_CONTEXT;
	if (current == c)
		current = NULL;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult cuCtxSetCurrent(CUcontext c)
{
	if (c && c != &primary)
		return CUDA_ERROR_INVALID_CONTEXT;
	current = c;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult cuCtxGetCurrent(CUcontext *c)
{
	*c = current;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult cuCtxPushCurrent_v2(CUcontext c)
{
	return cuCtxSetCurrent(c);
}

CU_EXPORT CUresult cuCtxPopCurrent_v2(CUcontext *c)
{
	if (c)
		*c = current;
	current = NULL;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult cuCtxGetDevice(CUdevice *d)
{
	*d = 0;
	return current ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

CU_EXPORT CUresult cuCtxSynchronize(void)
{
	CUresult r;
	if (!cu_enter(&r))
		return r;
	cudaError_t e = rt_sync();
	cu_leave();
	return cu_result(e);
}

/* ---- errors ------------------------------------------------------------------------------ */

CU_EXPORT CUresult cuGetErrorString(CUresult e, const char **s)
{
	if (!s)
		return CUDA_ERROR_INVALID_VALUE;
	switch (e) {
	case CUDA_ERROR_NOT_INITIALIZED: *s = "initialization error"; break;
	case CUDA_ERROR_INVALID_CONTEXT: *s = "invalid device context"; break;
	case CUDA_ERROR_INVALID_HANDLE: *s = "invalid resource handle"; break;
	case CUDA_ERROR_NOT_FOUND: *s = "named symbol not found"; break;
	case CUDA_ERROR_INVALID_IMAGE: *s = "device kernel image is invalid"; break;
	default: *s = rt_error_string(e); break;
	}
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult cuGetErrorName(CUresult e, const char **s)
{
	static const struct { int v; const char *name; } names[] = {
		{0, "CUDA_SUCCESS"}, {1, "CUDA_ERROR_INVALID_VALUE"}, {2, "CUDA_ERROR_OUT_OF_MEMORY"},
		{3, "CUDA_ERROR_NOT_INITIALIZED"}, {100, "CUDA_ERROR_NO_DEVICE"},
		{101, "CUDA_ERROR_INVALID_DEVICE"}, {200, "CUDA_ERROR_INVALID_IMAGE"},
		{201, "CUDA_ERROR_INVALID_CONTEXT"}, {209, "CUDA_ERROR_NO_BINARY_FOR_GPU"},
		{218, "CUDA_ERROR_INVALID_PTX"}, {301, "CUDA_ERROR_FILE_NOT_FOUND"},
		{400, "CUDA_ERROR_INVALID_HANDLE"}, {500, "CUDA_ERROR_NOT_FOUND"},
		{700, "CUDA_ERROR_ILLEGAL_ADDRESS"}, {702, "CUDA_ERROR_LAUNCH_TIMEOUT"},
		{710, "CUDA_ERROR_ASSERT"}, {716, "CUDA_ERROR_MISALIGNED_ADDRESS"},
		{719, "CUDA_ERROR_LAUNCH_FAILED"},
		{720, "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE"}, {801, "CUDA_ERROR_NOT_SUPPORTED"},
		{999, "CUDA_ERROR_UNKNOWN"},
	};
	if (!s)
		return CUDA_ERROR_INVALID_VALUE;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (names[i].v == e) {
			*s = names[i].name;
			return CUDA_SUCCESS;
		}
	*s = NULL;
	return CUDA_ERROR_INVALID_VALUE;
}
