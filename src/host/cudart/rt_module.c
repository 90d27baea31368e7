/*
 * rt_module.c - registration as nvcc's host stubs call it: a fat binary per translation unit,
 * its kernels (__cudaRegisterFunction) and variables (__cudaRegisterVar, managed ones), and
 * the module's PTX parsed, checked and loaded into device memory once, at its first use.
 */
#include <stdlib.h>
#include <string.h>

#include "host/fatbin.h"
#include "rt_reports.h"
#include "rt.h"

#define EXPORT __attribute__((visibility("default")))

static bool grow(void *arr, unsigned n, size_t elem)
{
	if (n & (n - 1) && n) /* a power of two is full */
		return true;
	void **a = arr;
	void *p = realloc(*a, (n ? 2 * n : 8) * elem);
	if (!p)
		return false;
	*a = p;
	return true;
}

EXPORT void **__cudaRegisterFatBinary(void *fat_cubin)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return NULL;
	struct rt_module *mod = calloc(1, sizeof *mod);
	if (!mod || !grow(&rt.mods, rt.nmods, sizeof *rt.mods)) {
		free(mod);
		rt_leave();
		return NULL;
	}
	mod->wrapper = fat_cubin;
	snprintf(mod->name, sizeof mod->name, "module%u.ptx", rt.nmods + 1);
	rt.mods[rt.nmods++] = mod;
	rt_leave();
	return (void **)mod;
}

EXPORT void __cudaRegisterFatBinaryEnd(void **handle)
{
	(void)handle; /* loaded at first use: a module nothing launches costs no start-up */
}

EXPORT void __cudaUnregisterFatBinary(void **handle)
{
	(void)handle; /* kept to the end: the reports and counts at exit may still name it */
}

EXPORT char __cudaInitModule(void **handle)
{
	cudaError_t e;
	if (!handle || !rt_enter(&e))
		return 0;
	bool ok = rt_module_ready((struct rt_module *)handle);
	rt_leave();
	return ok;
}

EXPORT void __cudaRegisterFunction(void **handle, const char *host_fun, char *device_fun,
				   const char *device_name, int thread_limit, void *tid, void *bid,
				   void *bdim, void *gdim, int *wsize)
{
	cudaError_t e;
	if (!handle || !rt_enter(&e))
		return;
	struct rt_kernel *k = calloc(1, sizeof *k);
	if (k && grow(&rt.kernels, rt.nkernels, sizeof *rt.kernels)) {
		k->host_fun = host_fun;
		k->name = strdup(device_name ? device_name : device_fun);
		k->mod = (struct rt_module *)handle;
		k->mod->nkernels++;
		rt.kernels[rt.nkernels++] = k;
	} else {
		free(k);
	}
	rt_leave();
}

static void add_var(void **handle, const void *host, void **managed, const char *name,
		    size_t size, int constant)
{
	cudaError_t e;
	if (!handle || !rt_enter(&e))
		return;
	struct rt_var *v = calloc(1, sizeof *v);
	if (v && grow(&rt.vars, rt.nvars, sizeof *rt.vars)) {
		v->host = host;
		v->name = strdup(name);
		v->mod = (struct rt_module *)handle;
		v->size = size;
		v->is_const = constant;
		v->managed = managed;
		v->mod->nvars++;
		rt.vars[rt.nvars++] = v;
		/* a managed variable's host pointer is valid from the start */
		if (managed && !rt_module_ready(v->mod))
			*managed = NULL;
	} else {
		free(v);
	}
	rt_leave();
}

EXPORT void __cudaRegisterVar(void **handle, char *host_var, char *device_address,
			      const char *device_name, int ext, size_t size, int constant, int global)
{
	add_var(handle, host_var, NULL, device_name, size, constant);
}

EXPORT void __cudaRegisterManagedVar(void **handle, void **host_var_ptr, char *device_address,
				     const char *device_name, int ext, size_t size, int constant,
				     int global)
{
	add_var(handle, host_var_ptr, host_var_ptr, device_name, size, constant);
}

EXPORT cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *host_fun)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	*kernel = rt_kernel_of(host_fun);
	e = *kernel ? cudaSuccess : cudaErrorInvalidDeviceFunction;
	rt_leave();
	return rt_ret(e);
}

struct rt_kernel *rt_kernel_of(const void *host_fun)
{
	for (unsigned i = 0; i < rt.nkernels; i++)
		if (rt.kernels[i]->host_fun == host_fun)
			return rt.kernels[i];
	/* a cudaKernel_t handle is accepted where a function is */
	for (unsigned i = 0; i < rt.nkernels; i++)
		if ((const void *)rt.kernels[i] == host_fun)
			return rt.kernels[i];
	return NULL;
}

struct rt_var *rt_var_of(const void *host)
{
	for (unsigned i = 0; i < rt.nvars; i++)
		if (rt.vars[i]->host == host)
			return rt.vars[i];
	return NULL;
}

/* Managed variables' host pointers: their device addresses, the same in this process. */
static void bind_managed(struct rt_module *mod)
{
	for (unsigned i = 0; i < rt.nvars; i++) {
		struct rt_var *v = rt.vars[i];
		uint64_t addr, size;
		bool is_const;
		if (v->mod == mod && v->managed &&
		    env_symbol(&mod->em, v->name, &addr, &size, &is_const)) {
			/* nvcc declares a managed variable as a .global pointer to its storage */
			uint64_t storage = 0;
			memcpy(&storage, (void *)(uintptr_t)addr, sizeof storage);
			*v->managed = (void *)(uintptr_t)(storage ? storage : addr);
		}
	}
}

bool rt_module_ready(struct rt_module *mod)
{
	if (mod->tried)
		return mod->ok;
	mod->tried = true;
	mod->fail = cudaErrorInvalidPtx;
	char why[400];
	size_t len;
	if (!mod->ptx && fatbin_ptx(mod->wrapper, SIZE_MAX, &mod->ptx, &len, why, sizeof why) != 0) {
		rt_say(true, "%s", why);
		mod->fail = cudaErrorNoKernelImageForDevice;
		return false;
	}
	mod->m = ptxi_module_load_string(mod->name, mod->ptx, rt_report_sink, NULL);
	if (!mod->m) {
		rt_say(true, "out of memory reading the program's PTX");
		return false;
	}
	if (rt.report)
		env_module_record(mod->m, rt_report_record, NULL);
	if (ptxi_module_errors(mod->m)) {
		rt.errors += ptxi_module_errors(mod->m);
		rt_say(false, "the program's PTX (%s) has errors: its kernels cannot run",
		       mod->name);
		return false;
	}
	if (env_module_load(&mod->em, mod->m, rt.mem) != PTXI_OK)
		return false;
	bind_managed(mod);
	mod->ok = true;
	return true;
}
