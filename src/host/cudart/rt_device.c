/*
 * rt_device.c - the one device: an H100 SXM (sm_90, 132 SMs, 227 KiB of shared memory a block
 * may opt in to, clusters), its properties and attributes, versions, limits, and the
 * error queries (cudaGetLastError keeps a sticky fault, as CUDA does).
 */
#include <string.h>

#include <stdint.h>

#include "rt.h"

#define EXPORT __attribute__((visibility("default")))

/* struct cudaDeviceProp of CUDA 13 (driver_types.h), field for field. */
struct device_prop {
	char name[256];
	unsigned char uuid[16];
	char luid[8];
	unsigned luid_mask;
	size_t total_global_mem, shared_per_block;
	int regs_per_block, warp_size;
	size_t mem_pitch;
	int max_threads_per_block, max_threads_dim[3], max_grid[3];
	size_t total_const_mem;
	int major, minor;
	size_t texture_alignment, texture_pitch_alignment;
	int sm_count, integrated, can_map_host_memory;
	int tex1d, tex1d_mip, tex2d[2], tex2d_mip[2], tex2d_linear[3], tex2d_gather[2], tex3d[3],
	    tex3d_alt[3], tex_cube, tex1d_layered[2], tex2d_layered[3], tex_cube_layered[2];
	int surf1d, surf2d[2], surf3d[3], surf1d_layered[2], surf2d_layered[3], surf_cube,
	    surf_cube_layered[2];
	size_t surface_alignment;
	int concurrent_kernels, ecc, pci_bus, pci_device, pci_domain, tcc, async_engines,
	    unified_addressing, bus_width, l2_size, persisting_l2_max, max_threads_per_sm,
	    stream_priorities, global_l1, local_l1;
	size_t shared_per_sm;
	int regs_per_sm, managed_memory, multi_gpu_board, multi_gpu_group, host_native_atomic,
	    pageable_access, concurrent_managed, preemption, host_ptr_for_registered,
	    cooperative_launch;
	size_t shared_per_block_optin;
	int pageable_uses_host_tables, direct_managed_from_host, max_blocks_per_sm,
	    access_policy_max_window;
	size_t reserved_shared_per_block;
	int host_register, sparse_arrays, host_register_read_only, timeline_semaphore,
	    memory_pools, rdma;
	unsigned rdma_flush_options;
	int rdma_ordering;
	unsigned pool_handle_types;
	int deferred_mapping, ipc_event, cluster_launch, unified_function_pointers, numa_config,
	    numa_id, mps, host_numa_id;
	unsigned gpu_pci_device, gpu_pci_subsystem;
	int host_numa_multinode_ipc, reserved[56];
};

static void h100(struct device_prop *p)
{
	memset(p, 0, sizeof *p);
	snprintf(p->name, sizeof p->name, "NVIDIA H100 80GB HBM3 (ptxi)");
	memcpy(p->uuid, "ptxi-H100-sm_90\0", 16);
	p->total_global_mem = rt.mem->limit;
	p->shared_per_block = 48 * 1024;
	p->regs_per_block = 65536;
	p->warp_size = 32;
	p->mem_pitch = 2147483647;
	p->max_threads_per_block = 1024;
	p->max_threads_dim[0] = p->max_threads_dim[1] = 1024;
	p->max_threads_dim[2] = 64;
	p->max_grid[0] = 2147483647;
	p->max_grid[1] = p->max_grid[2] = 65535;
	p->total_const_mem = 65536;
	p->major = 9;
	p->minor = 0;
	p->texture_alignment = 512;
	p->texture_pitch_alignment = 32;
	p->sm_count = 132;
	p->can_map_host_memory = 1;
	p->surface_alignment = 512;
	p->concurrent_kernels = 1;
	p->ecc = 1;
	p->async_engines = 3;
	p->unified_addressing = 1;
	p->bus_width = 5120;
	p->l2_size = 50 * 1024 * 1024;
	p->persisting_l2_max = 32768000;
	p->max_threads_per_sm = 2048;
	p->stream_priorities = 1;
	p->global_l1 = p->local_l1 = 1;
	p->shared_per_sm = 228 * 1024;
	p->regs_per_sm = 65536;
	p->managed_memory = 1;
	p->concurrent_managed = 1;
	p->preemption = 1;
	p->host_ptr_for_registered = 1;
	p->cooperative_launch = 1;
	p->shared_per_block_optin = 227 * 1024;
	p->max_blocks_per_sm = 32;
	p->access_policy_max_window = 134217728;
	p->reserved_shared_per_block = 1024;
	p->host_register = 1;
	p->memory_pools = 1;
	p->cluster_launch = 1;
	p->unified_function_pointers = 1;
	p->numa_id = -1;
	p->sparse_arrays = p->host_register_read_only = p->timeline_semaphore = p->rdma = 1;
	p->rdma_flush_options = 1;
	p->rdma_ordering = 100;
	p->pool_handle_types = 9;
	p->deferred_mapping = p->ipc_event = 1;
	p->gpu_pci_device = (0x2330u << 16) | 0x10de;
}

EXPORT cudaError_t cudaGetDeviceCount(int *n)
{
	cudaError_t e;
	if (!rt_enter(&e)) {
		*n = 0;
		return e;
	}
	*n = 1;
	rt_leave();
	return cudaSuccess;
}

EXPORT cudaError_t cudaGetDevice(int *d)
{
	*d = 0;
	return cudaSuccess;
}

EXPORT cudaError_t cudaSetDevice(int d)
{
	return rt_ret(d == 0 ? cudaSuccess : cudaErrorInvalidDevice);
}

EXPORT cudaError_t cudaSetDeviceFlags(unsigned flags)
{
	return cudaSuccess;
}

EXPORT cudaError_t cudaGetDeviceProperties(struct device_prop *p, int d)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	if (d == 0 && p)
		h100(p);
	rt_leave();
	return rt_ret(d != 0 ? cudaErrorInvalidDevice : p ? cudaSuccess : cudaErrorInvalidValue);
}

/* cudaDeviceGetAttribute's answers, by cudaDeviceAttr 1..147: measured with CUDA 13.0 on
 * an H200 (the H100's sibling, sm_90, 132 SMs), with the H100 SXM's memory clock, bus
 * width, L2 and PCI device id, and no PCI location. */
static const int attrs[148] = {
	[1] = 1024, [2] = 1024, [3] = 1024, [4] = 64, [5] = 2147483647, [6] = 65535, [7] = 65535,
	[8] = 49152, [9] = 65536, [10] = 32, [11] = 2147483647, [12] = 65536, [13] = 1980000,
	[14] = 512, [15] = 1, [16] = 132, [17] = 0, [18] = 0, [19] = 1, [20] = 0, [21] = 131072,
	[22] = 131072, [23] = 65536, [24] = 16384, [25] = 16384, [26] = 16384, [27] = 32768,
	[28] = 32768, [29] = 2048, [30] = 512, [31] = 1, [32] = 1, [33] = 0, [34] = 0, [35] = 0,
	[36] = 2619000, [37] = 5120, [38] = 52428800, [39] = 2048, [40] = 3, [41] = 1, [42] = 32768,
	[43] = 2048, [44] = 1, [45] = 32768, [46] = 32768, [47] = 8192, [48] = 8192, [49] = 32768,
	[50] = 0, [51] = 32, [52] = 32768, [53] = 32768, [54] = 2046, [55] = 32768, [56] = 131072,
	[57] = 65536, [58] = 16384, [59] = 16384, [60] = 16384, [61] = 32768, [62] = 2048,
	[63] = 32768, [64] = 32768, [65] = 2048, [66] = 32768, [67] = 32768, [68] = 2046,
	[69] = 268435456, [70] = 131072, [71] = 65000, [72] = 2097120, [73] = 32768, [74] = 32768,
	[75] = 9, [76] = 0, [77] = 32768, [78] = 1, [79] = 1, [80] = 1, [81] = 233472, [82] = 65536,
	[83] = 1, [84] = 0, [85] = 0, [86] = 0, [87] = 2, [88] = 0, [89] = 1, [90] = 1, [91] = 1,
	[92] = 0, [93] = 0, [94] = 0, [95] = 1, [96] = 1, [97] = 232448, [98] = 0, [99] = 1,
	[100] = 0, [101] = 0, [102] = 1, [103] = 1, [104] = 0, [105] = 0, [106] = 32, [107] = 1,
	[108] = 32768000, [109] = 134217728, [110] = 1, [111] = 1024, [112] = 1, [113] = 1, [114] = 1,
	[115] = 1, [116] = 1, [117] = 1, [118] = 100, [119] = 9, [120] = 1, [121] = 1, [122] = 1,
	[123] = 1, [124] = 1, [125] = 1, [126] = 4, [127] = 1, [128] = 1, [129] = 1, [130] = 0,
	[131] = -1, [132] = 0, [133] = 0, [134] = 0, [135] = 0, [136] = 0, [137] = 0, [138] = 0,
	[139] = 590352606, [140] = 0, [141] = 1, [142] = 1, [143] = 0, [144] = 1, [145] = 1,
	[146] = 0, [147] = 0,
};

EXPORT cudaError_t cudaDeviceGetAttribute(int *v, int attr, int d)
{
	if (d != 0)
		return rt_ret(cudaErrorInvalidDevice);
	if (!v || attr < 1 || attr > 147)
		return rt_ret(cudaErrorInvalidValue);
	*v = attrs[attr];
	return cudaSuccess;
}

EXPORT cudaError_t cudaRuntimeGetVersion(int *v)
{
	*v = 13000;
	return cudaSuccess;
}

EXPORT cudaError_t cudaDriverGetVersion(int *v)
{
	*v = 13000;
	return cudaSuccess;
}

/* cudaLimit: StackSize 0, PrintfFifoSize 1, MallocHeapSize 2, DevRuntimeSyncDepth 3,
 * DevRuntimePendingLaunchCount 4, MaxL2FetchGranularity 5, PersistingL2CacheSize 6. The
 * defaults and bounds are an H200's (2026-11-28); 3 it refuses too (no -rdc). The heap's
 * size is the device heap's (devrt.c); the others bound what ptxi does not model (a stack
 * that grows, the printf buffer, the L2), so they are kept and read back. The H200 rounds
 * the persisting size up to its 3932160-byte granularity; ptxi keeps it as given. */
enum { LIMITS = 7 };
static size_t limit_value[LIMITS] = {1024, 8650752, 8388608, 0, 2048, 64, 11796480};
static const size_t limit_max[LIMITS] = {SIZE_MAX, SIZE_MAX, SIZE_MAX, 0, SIZE_MAX, 128,
					 32768000 /* cudaDevAttrMaxPersistingL2CacheSize */};

EXPORT cudaError_t cudaDeviceSetLimit(int limit, size_t value)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	e = cudaSuccess;
	if (limit < 0 || limit >= LIMITS || limit == 3)
		e = cudaErrorUnsupportedLimit;
	else if (value > limit_max[limit])
		e = cudaErrorInvalidValue;
	else
		limit_value[limit] = value;
	if (e == cudaSuccess && limit == 2)
		rt.opt.base.heap_bytes = value;
	rt_leave();
	return rt_ret(e);
}

EXPORT cudaError_t cudaDeviceGetLimit(size_t *value, int limit)
{
	if (limit < 0 || limit >= LIMITS || limit == 3)
		return rt_ret(cudaErrorUnsupportedLimit);
	if (!value)
		return rt_ret(cudaErrorInvalidValue);
	*value = limit_value[limit];
	return cudaSuccess;
}

/* Profiling ranges: with no profiler attached the CUDA runtime returns success and does
 * nothing (an H200, 2026-11-28), and ptxi is never profiled. */
EXPORT cudaError_t cudaProfilerStart(void)
{
	return cudaSuccess;
}

EXPORT cudaError_t cudaProfilerStop(void)
{
	return cudaSuccess;
}

/* The persisting lines of the L2, which ptxi does not model: nothing to reset. */
EXPORT cudaError_t cudaCtxResetPersistingL2Cache(void)
{
	return cudaSuccess;
}

EXPORT cudaError_t cudaDeviceSynchronize(void)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	e = rt_capture_unsafe();
	if (e == cudaSuccess)
		e = rt_sync();
	rt_leave();
	return rt_ret(e);
}

EXPORT cudaError_t cudaDeviceReset(void)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	rt_flush_prints();
	rt.sticky = rt.fault = cudaSuccess; /* a fresh context; allocations stay (ptxi keeps one memory) */
	rt.last = cudaSuccess;
	rt_leave();
	return cudaSuccess;
}

/* ---- errors ----------------------------------------------------------------------------- */

EXPORT cudaError_t cudaGetLastError(void)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	e = rt.last ? rt.last : rt.sticky;
	rt.last = cudaSuccess;
	rt_leave();
	return e;
}

EXPORT cudaError_t cudaPeekAtLastError(void)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	e = rt.last ? rt.last : rt.sticky;
	rt_leave();
	return e;
}

EXPORT const char *cudaGetErrorName(cudaError_t e)
{
	return rt_error_name(e);
}

EXPORT const char *cudaGetErrorString(cudaError_t e)
{
	return rt_error_string(e);
}
