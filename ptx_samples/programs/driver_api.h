/* The part of CUDA 13's driver API that driver.c calls, for machines with nvcc but without
 * the driver's header (cuda.h comes in its own package). The names are the symbols cuda.h's
 * macros select in CUDA 13 (cuCtxCreate is cuCtxCreate_v4, and so on), so the program binds
 * to libcuda.so.1 exactly as when built against cuda.h. */
#ifndef DRIVER_API_H
#define DRIVER_API_H
#include <stddef.h>

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUgraph_st *CUgraph;
typedef struct CUctxCreateParams_st CUctxCreateParams;
typedef enum { CU_GET_PROC_ADDRESS_SUCCESS = 0 } CUdriverProcAddressQueryResult;
enum { CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75 };
enum { CU_GET_PROC_ADDRESS_DEFAULT = 0 };

#define cuCtxCreate cuCtxCreate_v4
#define cuCtxDestroy cuCtxDestroy_v2
#define cuGetProcAddress cuGetProcAddress_v2
#define cuMemAlloc cuMemAlloc_v2
#define cuMemFree cuMemFree_v2
#define cuMemcpyDtoH cuMemcpyDtoH_v2
#define cuMemcpyHtoD cuMemcpyHtoD_v2
#define cuModuleGetGlobal cuModuleGetGlobal_v2

CUresult cuInit(unsigned flags);
CUresult cuGetErrorName(CUresult r, const char **name);
CUresult cuDeviceGet(CUdevice *dev, int ordinal);
CUresult cuDeviceGetName(char *name, int len, CUdevice dev);
CUresult cuDeviceGetAttribute(int *value, int attribute, CUdevice dev);
CUresult cuCtxCreate(CUcontext *ctx, CUctxCreateParams *params, unsigned flags, CUdevice dev);
CUresult cuCtxDestroy(CUcontext ctx);
CUresult cuCtxSynchronize(void);
CUresult cuModuleLoadData(CUmodule *mod, const void *image);
CUresult cuModuleGetFunction(CUfunction *f, CUmodule mod, const char *name);
CUresult cuModuleGetGlobal(CUdeviceptr *p, size_t *bytes, CUmodule mod, const char *name);
CUresult cuMemAlloc(CUdeviceptr *p, size_t bytes);
CUresult cuMemFree(CUdeviceptr p);
CUresult cuMemcpyHtoD(CUdeviceptr dst, const void *src, size_t bytes);
CUresult cuMemcpyDtoH(void *dst, CUdeviceptr src, size_t bytes);
CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
	unsigned by, unsigned bz, unsigned shared_bytes, CUstream stream, void **params,
	void **extra);
CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz,
	unsigned bx, unsigned by, unsigned bz, unsigned shared_bytes, CUstream stream,
	void **params);
CUresult cuGetProcAddress(const char *symbol, void **fn, int version, unsigned long long flags,
	CUdriverProcAddressQueryResult *status);
CUresult cuGraphCreate(CUgraph *graph, unsigned flags);
#endif
