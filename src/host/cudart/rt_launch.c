/*
 * rt_launch.c - kernel launches: <<<>>> (the stubs' push/pop of the configuration and
 * __cudaLaunchKernel), cudaLaunchKernel, cudaLaunchKernelExC with its cluster and
 * cooperative attributes, function attributes and the occupancy queries. A launch runs to
 * its end before the call returns: streams are ordered as one in-order queue, which every
 * CUDA ordering allows. A fault becomes the sticky error CUDA gives.
 */
#include <stdlib.h>
#include <string.h>

#include "host/occupancy.h"
#include "rt.h"
#include "support/demangle.h"

#define EXPORT __attribute__((visibility("default")))
#define DEFAULT_DYN_SHARED (48 * 1024) /* above this a kernel must opt in (cudaFuncSetAttribute) */
#define MAX_DYN_SHARED (227 * 1024)

/* Whether --launch picks this launch (none given: every launch). */
static bool picked(const struct rt_kernel *k)
{
	const char *want = rt.opt.launch;
	if (!want)
		return true;
	char *end;
	unsigned long long n = strtoull(want, &end, 10);
	if (*want && !*end)
		return n == rt.launches;
	char d[400];
	return strstr(k->name, want) || strstr(demangle_name(k->name, d, sizeof d), want);
}

/* A shape no sm_90 launch may have: cudaErrorInvalidValue for more threads than a block
 * holds (as an H200 with CUDA 13 answers), cudaErrorInvalidConfiguration for the rest. */
cudaError_t rt_bad_config(dim3 grid, dim3 block)
{
	uint64_t threads = (uint64_t)block.x * block.y * block.z;
	if (threads > 1024 || block.x > 1024 || block.y > 1024 || block.z > 64)
		return cudaErrorInvalidValue;
	if (!grid.x || !grid.y || !grid.z || !threads || grid.y > 65535 || grid.z > 65535 ||
	    grid.x > 0x7fffffffu)
		return cudaErrorInvalidConfiguration;
	return cudaSuccess;
}

/* The launch's configuration for ptxi: the run options, trace and timeline if picked. */
static void configure(struct ptxi_config *c, const struct rt_kernel *k, dim3 grid, dim3 block,
		      size_t shared, const unsigned *cluster, bool cooperative, FILE **timeline)
{
	*c = rt.opt.base;
	c->kernel = k->name;
	c->grid[0] = grid.x, c->grid[1] = grid.y, c->grid[2] = grid.z;
	c->block[0] = block.x, c->block[1] = block.y, c->block[2] = block.z;
	c->dyn_shared = (uint32_t)shared;
	c->cooperative = cooperative;
	if (cluster) {
		memcpy(c->cluster, cluster, sizeof c->cluster);
		c->cluster_given = true;
	}
	*timeline = NULL;
	if (!picked(k))
		return;
	c->ctas = rt.opt.ctas;
	if (rt.opt.trace) {
		c->trace_all = !strcmp(rt.opt.trace, "all");
		c->trace_mbarrier = !c->trace_all;
	}
	static bool drawn;
	if (rt.opt.timeline && !drawn) {
		drawn = true; /* one page: the first launch picked */
		*timeline = fopen(rt.opt.timeline, "w");
		if (!*timeline)
			rt_say(true, "cannot write --timeline '%s'", rt.opt.timeline);
		c->timeline_out = *timeline;
	}
}

cudaError_t rt_launch(struct rt_kernel *k, dim3 grid, dim3 block, size_t shared, void **args,
		      const unsigned *cluster, bool cooperative)
{
	if (rt.fault && !rt.sticky)
		rt.sticky = rt.fault; /* the kernel before has ended: its fault is known */
	if (rt.sticky)
		return rt.sticky;
	if (!k)
		return cudaErrorInvalidDeviceFunction;
	cudaError_t bad = rt_bad_config(grid, block);
	if (bad)
		return bad;
	if (shared > MAX_DYN_SHARED ||
	    (shared > DEFAULT_DYN_SHARED && shared > (size_t)k->max_dyn_shared)) {
		char d[400];
		rt_say(false, "a launch of %s asks for %zu bytes of dynamic shared memory: above "
		       "48 KiB a kernel must opt in with cudaFuncSetAttribute(..., "
		       "cudaFuncAttributeMaxDynamicSharedMemorySize, n) (cudaErrorInvalidValue)",
		       demangle_name(k->name, d, sizeof d), shared);
		return cudaErrorInvalidValue;
	}
	if (!rt_module_ready(k->mod))
		return k->mod->fail;
	unsigned cl[3] = {1, 1, 1};
	if (!cluster && k->cluster[0])
		cluster = k->cluster;
	if (cluster)
		memcpy(cl, cluster, sizeof cl);
	if (cooperative && (uint64_t)grid.x * grid.y * grid.z >
			   (uint64_t)OCC_SMS * occ_ctas_per_sm((uint64_t)block.x * block.y * block.z,
					       env_cta_shared(&k->mod->em, k->name, (uint32_t)shared)))
		return cudaErrorCooperativeLaunchTooLarge; /* more than the GPU holds at once */
	rt.launches++;
	if (!k->launched) {
		k->launched = true;
		rt.kernels_launched++;
	}
	rt.cur_launch = rt.launches;
	rt.cur_kernel = k;
	rt.cur_grid = grid;
	rt.cur_block = block;
	memcpy(rt.cur_cluster, cl, sizeof cl);
	rt.cur_headed = false;
	rt.cur_fault = cudaSuccess;

	struct ptxi_config c;
	FILE *timeline;
	configure(&c, k, grid, block, shared, cluster, cooperative, &timeline);
	char *out[2] = {NULL, NULL};
	size_t nout[2] = {0, 0};
	FILE *held[2];
	for (int i = 0; i < 2; i++)
		held[i] = open_memstream(&out[i], &nout[i]);
	unsigned errors = 0;
	int st = env_launch(&k->mod->em, &c, args, held[0] ? held[0] : stdout,
			    held[1] ? held[1] : stderr, &errors);
	rt.errors += errors ? errors : st != PTXI_OK; /* a launch refused before it ran */
	for (int i = 0; i < 2; i++) {
		if (!held[i])
			continue;
		fclose(held[i]);
		char *p = realloc(rt.held[i].s, rt.held[i].n + nout[i] + 1);
		if (p) {
			memcpy(p + rt.held[i].n, out[i], nout[i]);
			rt.held[i].s = p;
			rt.held[i].n += nout[i];
		}
		free(out[i]);
	}
	if (timeline)
		fclose(timeline);
	rt.cur_kernel = NULL;
	cudaError_t e = rt.cur_fault;
	if (e == cudaSuccess && st == PTXI_DEADLOCK)
		e = cudaErrorLaunchTimeout;
	if (e == cudaSuccess && st != PTXI_OK && st != PTXI_RULE)
		e = cudaErrorLaunchFailure;
	if (e != cudaSuccess && !rt.fault)
		rt.fault = e; /* as on a GPU: known at the next synchronisation, then sticky */
	return cudaSuccess;
}

/* ---- the entry points ------------------------------------------------------------------ */

EXPORT unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared,
					    cudaStream_t stream)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return (unsigned)e;
	if (rt.npushed < 16) {
		rt.pushed[rt.npushed].grid = grid;
		rt.pushed[rt.npushed].block = block;
		rt.pushed[rt.npushed].shared = shared;
		rt.pushed[rt.npushed].stream = stream;
	}
	rt.npushed++;
	rt_leave();
	return 0;
}

EXPORT cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shared,
					      void *stream)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	if (!rt.npushed || rt.npushed > 16) {
		if (rt.npushed)
			rt.npushed--;
		rt_leave();
		return rt_ret(cudaErrorInvalidConfiguration);
	}
	rt.npushed--;
	*grid = rt.pushed[rt.npushed].grid;
	*block = rt.pushed[rt.npushed].block;
	*shared = rt.pushed[rt.npushed].shared;
	memcpy(stream, &rt.pushed[rt.npushed].stream, sizeof(cudaStream_t));
	rt_leave();
	return cudaSuccess;
}

/* A launch issued to stream s: run now, or recorded when s is capturing. */
static cudaError_t launch_api(struct rt_kernel *k, dim3 grid, dim3 block, void **args,
			      size_t shared, const unsigned *cluster, bool cooperative,
			      cudaStream_t s)
{
	bool rec = rt_capturing(s);
	/* a recorded launch of a bad shape is refused when issued, as one that runs is */
	cudaError_t e = !rec ? rt_capture_check(s, false)
			: k ? rt_bad_config(grid, block) : cudaSuccess;
	if (e == cudaSuccess)
		e = rec ? rt_capture_kernel(s, k, grid, block, shared, args, cluster, cooperative)
			: rt_launch(k, grid, block, shared, args, cluster, cooperative);
	return rt_ret(e);
}

EXPORT cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 grid, dim3 block, void **args,
				      size_t shared, cudaStream_t stream)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	e = launch_api(kernel, grid, block, args, shared, NULL, false, stream);
	rt_leave();
	return e;
}

EXPORT cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 grid, dim3 block,
					   void **args, size_t shared, cudaStream_t stream)
{
	return __cudaLaunchKernel(kernel, grid, block, args, shared, stream);
}

EXPORT cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args,
				    size_t shared, cudaStream_t stream)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	e = launch_api(rt_kernel_of(func), grid, block, args, shared, NULL, false, stream);
	rt_leave();
	return e;
}

EXPORT cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 grid, dim3 block, void **args,
					 size_t shared, cudaStream_t stream)
{
	return cudaLaunchKernel(func, grid, block, args, shared, stream);
}

EXPORT cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 grid, dim3 block,
					       void **args, size_t shared, cudaStream_t stream)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	e = launch_api(rt_kernel_of(func), grid, block, args, shared, NULL, true, stream);
	rt_leave();
	return e;
}

EXPORT cudaError_t cudaLaunchCooperativeKernel_ptsz(const void *func, dim3 grid, dim3 block,
						    void **args, size_t shared, cudaStream_t stream)
{
	return cudaLaunchCooperativeKernel(func, grid, block, args, shared, stream);
}

/* cudaLaunchConfig_t and cudaLaunchAttribute, as driver_types.h lays them out. */
struct launch_attr {
	int id;
	char pad[4];
	union { char bytes[64]; int cooperative; unsigned dim[3]; } val;
};
struct rt_launch_config {
	dim3 grid, block;
	size_t shared;
	cudaStream_t stream;
	struct launch_attr *attrs;
	unsigned nattrs;
};
enum { ATTR_IGNORE = 0, ATTR_COOPERATIVE = 2, ATTR_CLUSTER_DIM = 4, ATTR_CLUSTER_POLICY = 5,
       ATTR_PROGRAMMATIC = 6, ATTR_PRIORITY = 8 };

EXPORT cudaError_t cudaLaunchKernelExC(const struct rt_launch_config *cfg, const void *func,
				       void **args)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	const unsigned *cluster = NULL;
	bool coop = false;
	e = cfg ? cudaSuccess : cudaErrorInvalidValue;
	for (unsigned i = 0; cfg && i < cfg->nattrs && e == cudaSuccess; i++) {
		const struct launch_attr *a = &cfg->attrs[i];
		switch (a->id) {
		case ATTR_IGNORE:
		case ATTR_CLUSTER_POLICY:
		case ATTR_PRIORITY:
			break; /* a hint: the schedule ptxi models does not depend on it */
		case ATTR_COOPERATIVE:
			coop = a->val.cooperative != 0;
			break;
		case ATTR_CLUSTER_DIM:
			cluster = a->val.dim;
			break;
		case ATTR_PROGRAMMATIC:
			break; /* launches run in order: dependent launch is always satisfied */
		default:
			rt_leave();
			rt_say(true, "cudaLaunchKernelEx: launch attribute %d is not provided by "
			       "ptxi: the program gets cudaErrorNotSupported", a->id);
			return rt_ret(cudaErrorNotSupported);
		}
	}
	if (e == cudaSuccess)
		e = launch_api(rt_kernel_of(func), cfg->grid, cfg->block, args, cfg->shared,
			       cluster, coop, cfg->stream);
	rt_leave();
	return rt_ret(e);
}

EXPORT cudaError_t cudaLaunchKernelExC_ptsz(const struct rt_launch_config *cfg, const void *func,
					    void **args)
{
	return cudaLaunchKernelExC(cfg, func, args);
}

/* ---- function attributes and occupancy ----------------------------------------------- */

enum { FA_MAX_DYN_SHARED = 8, FA_CARVEOUT = 9, FA_CLUSTER_MUST_BE_SET = 10, FA_CLUSTER_W = 11,
       FA_CLUSTER_H = 12, FA_CLUSTER_D = 13, FA_NON_PORTABLE_CLUSTER = 14,
       FA_CLUSTER_POLICY = 15 };

EXPORT cudaError_t cudaFuncSetAttribute(const void *func, int attr, int value)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	struct rt_kernel *k = rt_kernel_of(func);
	e = cudaSuccess;
	if (!k) {
		e = cudaErrorInvalidDeviceFunction;
	} else if (attr == FA_MAX_DYN_SHARED) {
		if (value < 0 || value > MAX_DYN_SHARED)
			e = cudaErrorInvalidValue;
		else
			k->max_dyn_shared = value;
	} else if (attr >= FA_CLUSTER_W && attr <= FA_CLUSTER_D) {
		if (value < 0 || value > 16)
			e = cudaErrorInvalidValue;
		else
			k->cluster[attr - FA_CLUSTER_W] = (unsigned)value;
		for (int d = 0; d < 3; d++)
			if (k->cluster[0] && !k->cluster[d])
				k->cluster[d] = 1;
	} else if (attr == FA_CARVEOUT || attr == FA_NON_PORTABLE_CLUSTER ||
		   attr == FA_CLUSTER_POLICY || attr == FA_CLUSTER_MUST_BE_SET) {
		/* hints and permissions: ptxi allows up to 16 CTAs a cluster */
	} else {
		e = cudaErrorInvalidValue;
	}
	rt_leave();
	return rt_ret(e);
}

/* The L1/shared split preferred for a kernel or the device (cudaFuncCache: PreferNone 0,
 * Shared 1, L1 2, Equal 3): a hint for a cache ptxi does not model, which the H100
 * may ignore too; a bad value or function is refused as CUDA refuses it. */
enum { CACHE_PREFER_EQUAL = 3 };
static int device_cache_config;

EXPORT cudaError_t cudaFuncSetCacheConfig(const void *func, int config)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	e = !rt_kernel_of(func) ? cudaErrorInvalidDeviceFunction
	    : config < 0 || config > CACHE_PREFER_EQUAL ? cudaErrorInvalidValue : cudaSuccess;
	rt_leave();
	return rt_ret(e);
}

EXPORT cudaError_t cudaDeviceSetCacheConfig(int config)
{
	if (config < 0 || config > CACHE_PREFER_EQUAL)
		return rt_ret(cudaErrorInvalidValue);
	device_cache_config = config;
	return cudaSuccess;
}

EXPORT cudaError_t cudaDeviceGetCacheConfig(int *config)
{
	if (!config)
		return rt_ret(cudaErrorInvalidValue);
	*config = device_cache_config;
	return cudaSuccess;
}

/* struct cudaFuncAttributes of driver_types.h */
struct func_attrs {
	size_t shared, constant, local;
	int max_threads, regs, ptx_version, binary_version, cache_mode_ca, max_dyn_shared,
	    carveout, cluster_must_be_set, cluster_w, cluster_h, cluster_d, cluster_policy,
	    non_portable_cluster, reserved[16];
};

EXPORT cudaError_t cudaFuncGetAttributes(struct func_attrs *a, const void *func)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	struct rt_kernel *k = rt_kernel_of(func);
	if (!k || !a) {
		rt_leave();
		return rt_ret(k ? cudaErrorInvalidValue : cudaErrorInvalidDeviceFunction);
	}
	memset(a, 0, sizeof *a);
	if (rt_module_ready(k->mod)) /* the kernel's static shared memory, as ptxas -v says */
		a->shared = (size_t)env_cta_shared(&k->mod->em, k->name, 0);
	a->max_threads = 1024;
	a->regs = 32;
	a->ptx_version = 90;
	a->binary_version = 90;
	a->max_dyn_shared = k->max_dyn_shared > DEFAULT_DYN_SHARED ? k->max_dyn_shared
								   : DEFAULT_DYN_SHARED;
	a->carveout = -1;
	a->cluster_w = (int)k->cluster[0];
	a->cluster_h = (int)k->cluster[1];
	a->cluster_d = (int)k->cluster[2];
	rt_leave();
	return cudaSuccess;
}

/* The occupancy ptxi answers: by threads and shared memory of an sm_90 SM (occupancy.h);
 * registers are not modelled. */
static int blocks_per_sm(int threads, size_t shared)
{
	return threads <= 0 ? 0 : (int)occ_ctas_per_sm((uint64_t)threads, shared);
}

EXPORT cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *n, const void *func,
									  int block, size_t shared,
									  unsigned flags)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	e = rt_kernel_of(func) ? cudaSuccess : cudaErrorInvalidDeviceFunction;
	if (e == cudaSuccess)
		*n = blocks_per_sm(block, shared);
	rt_leave();
	return rt_ret(e);
}

EXPORT cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, const void *func,
								 int block, size_t shared)
{
	return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(n, func, block, shared, 0);
}

EXPORT cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *bytes, const void *func,
							     int nblocks, int block)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	struct rt_kernel *k = rt_kernel_of(func);
	size_t cap = k && k->max_dyn_shared > DEFAULT_DYN_SHARED ? (size_t)k->max_dyn_shared
								 : DEFAULT_DYN_SHARED;
	rt_leave();
	if (!k)
		return rt_ret(cudaErrorInvalidDeviceFunction);
	if (nblocks <= 0 || block <= 0)
		return rt_ret(cudaErrorInvalidValue);
	size_t per = 233472 / (size_t)nblocks;
	*bytes = per > 1024 ? per - 1024 : 0;
	if (*bytes > cap) /* the kernel's own limit (48 KiB unless it opted in to more) */
		*bytes = cap;
	return cudaSuccess;
}

EXPORT cudaError_t cudaOccupancyMaxActiveClusters(int *n, const void *func,
						  const struct rt_launch_config *cfg)
{
	unsigned size = 1;
	for (unsigned i = 0; cfg && i < cfg->nattrs; i++)
		if (cfg->attrs[i].id == ATTR_CLUSTER_DIM)
			size = cfg->attrs[i].val.dim[0] * cfg->attrs[i].val.dim[1] *
			       cfg->attrs[i].val.dim[2];
	int per_sm = cfg ? blocks_per_sm((int)(cfg->block.x * cfg->block.y * cfg->block.z),
					 cfg->shared) : 0;
	*n = size ? 132 * per_sm / (int)size : 0;
	return cudaSuccess;
}
