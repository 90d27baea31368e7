/*
 * cu.h - ptxi's CUDA driver API (cu*.c), built into libcudart.so.13 so that the runtime and
 * the driver share one device, one memory and one set of modules; libcuda.so.1
 * (cu_shim.c) only brings that library in. CUresult values are the driver's.
 */
#ifndef PTXI_CU_H
#define PTXI_CU_H

#include "host/cudart/rt.h"

typedef int CUresult;
typedef int CUdevice;
typedef uint64_t CUdeviceptr;
typedef struct cu_ctx *CUcontext;
typedef struct rt_module *CUmodule;
typedef struct rt_kernel *CUfunction;

enum {
	CUDA_SUCCESS = 0, CUDA_ERROR_INVALID_VALUE = 1, CUDA_ERROR_OUT_OF_MEMORY = 2,
	CUDA_ERROR_NOT_INITIALIZED = 3, CUDA_ERROR_NO_DEVICE = 100, CUDA_ERROR_INVALID_DEVICE = 101,
	CUDA_ERROR_INVALID_IMAGE = 200, CUDA_ERROR_INVALID_CONTEXT = 201,
	CUDA_ERROR_NO_BINARY_FOR_GPU = 209, CUDA_ERROR_INVALID_PTX = 218,
	CUDA_ERROR_FILE_NOT_FOUND = 301, CUDA_ERROR_INVALID_HANDLE = 400,
	CUDA_ERROR_NOT_FOUND = 500, CUDA_ERROR_NOT_SUPPORTED = 801,
};

#define CU_EXPORT __attribute__((visibility("default")))

/* The driver's result for a runtime error (the same numbers where both have the error). */
CUresult cu_result(cudaError_t e);
/* cuInit was called: else every call answers CUDA_ERROR_NOT_INITIALIZED. Takes rt.lock on
 * success (cu_leave gives it back). */
bool cu_enter(CUresult *r);
void cu_leave(void);

#endif
