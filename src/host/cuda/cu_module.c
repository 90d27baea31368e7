/*
 * cu_module.c - the driver API's modules and launches: cuModuleLoadData/Ex (PTX text or a
 * fat binary; parsed, checked and loaded at once, so errors come back from the load),
 * cuModuleLoad of a file, functions and globals, cuLaunchKernel/Ex (clusters, cooperative),
 * function attributes, tensor maps and cuGetProcAddress.
 */
#include <stdlib.h>
#include <string.h>

#include "cu.h"
#include "host/fatbin.h"
#include "support/demangle.h"

static CUresult load(CUmodule *out, const void *image, const char *what)
{
	CUresult r;
	if (!out || !image)
		return CUDA_ERROR_INVALID_VALUE;
	if (!cu_enter(&r))
		return r;
	struct rt_module *mod = calloc(1, sizeof *mod);
	void *grown = mod ? realloc(rt.mods, (rt.nmods + 1) * sizeof *rt.mods) : NULL;
	if (!grown) {
		free(mod);
		cu_leave();
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	rt.mods = grown;
	rt.mods[rt.nmods++] = mod;
	snprintf(mod->name, sizeof mod->name, "module%u.ptx", rt.nmods);
	if (fatbin_is(image))
		mod->wrapper = image; /* read now: the caller may free it after the call */
	else
		mod->ptx = strdup(image);
	r = rt_module_ready(mod) ? CUDA_SUCCESS : mod->fail == cudaErrorNoKernelImageForDevice
					? CUDA_ERROR_NO_BINARY_FOR_GPU : CUDA_ERROR_INVALID_PTX;
	mod->wrapper = NULL;
	*out = r == CUDA_SUCCESS ? mod : NULL;
	(void)what;
	cu_leave();
	return r;
}

CU_EXPORT CUresult cuModuleLoadData(CUmodule *m, const void *image)
{
	return load(m, image, "cuModuleLoadData");
}

CU_EXPORT CUresult cuModuleLoadDataEx(CUmodule *m, const void *image, unsigned nopts,
				      void *opts, void **values)
{
	return load(m, image, "cuModuleLoadDataEx"); /* JIT options: ptxi compiles nothing */
}

CU_EXPORT CUresult cuModuleLoadFatBinary(CUmodule *m, const void *image)
{
	return load(m, image, "cuModuleLoadFatBinary");
}

CU_EXPORT CUresult cuModuleLoad(CUmodule *m, const char *path)
{
	FILE *f = path ? fopen(path, "rb") : NULL;
	if (!f)
		return CUDA_ERROR_FILE_NOT_FOUND;
	char *buf = NULL;
	size_t n = 0, cap = 0;
	for (;;) {
		if (n + 65536 + 1 > cap) {
			char *p = realloc(buf, cap = 2 * cap + 65536 + 1);
			if (!p) {
				free(buf);
				fclose(f);
				return CUDA_ERROR_OUT_OF_MEMORY;
			}
			buf = p;
		}
		size_t got = fread(buf + n, 1, 65536, f);
		n += got;
		if (got < 65536)
			break;
	}
	fclose(f);
	buf[n] = '\0';
	CUresult r = load(m, buf, "cuModuleLoad");
	free(buf);
	return r;
}

CU_EXPORT CUresult cuModuleUnload(CUmodule m)
{
	return m ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE; /* kept: reports may name it */
}

CU_EXPORT CUresult cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name)
{
	CUresult r;
	if (!f || !m || !name)
		return CUDA_ERROR_INVALID_VALUE;
	if (!cu_enter(&r))
		return r;
	r = CUDA_ERROR_NOT_FOUND;
	for (unsigned i = 0; i < rt.nkernels && r; i++)
		if (rt.kernels[i]->mod == m && !strcmp(rt.kernels[i]->name, name)) {
			*f = rt.kernels[i];
			r = CUDA_SUCCESS;
		}
	if (r && m->ok && env_has_kernel(&m->em, name)) {
		struct rt_kernel *k = calloc(1, sizeof *k);
		void *grown = k ? realloc(rt.kernels, (rt.nkernels + 1) * sizeof *rt.kernels) : NULL;
		if (grown) {
			rt.kernels = grown;
			k->name = strdup(name);
			k->mod = m;
			rt.kernels[rt.nkernels++] = k;
			*f = k;
			r = CUDA_SUCCESS;
		} else {
			free(k);
			r = CUDA_ERROR_OUT_OF_MEMORY;
		}
	}
	cu_leave();
	return r;
}

CU_EXPORT CUresult cuModuleGetGlobal_v2(CUdeviceptr *p, size_t *bytes, CUmodule m, const char *name)
{
	CUresult r;
	if (!m || !name)
		return CUDA_ERROR_INVALID_VALUE;
	if (!cu_enter(&r))
		return r;
	uint64_t addr, size;
	bool is_const;
	r = CUDA_ERROR_NOT_FOUND;
	if (m->ok && env_symbol(&m->em, name, &addr, &size, &is_const)) {
		if (is_const) {
			rt_say(true, "cuModuleGetGlobal of .const '%s': ptxi keeps constant memory apart "
			       "from global memory, so it has no device address", name);
			r = CUDA_ERROR_NOT_SUPPORTED;
		} else {
			if (p)
				*p = addr;
			if (bytes)
				*bytes = (size_t)size;
			r = CUDA_SUCCESS;
		}
	}
	cu_leave();
	return r;
}

/* ---- launches ---------------------------------------------------------------------------- */

static CUresult launch(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
		       unsigned by, unsigned bz, unsigned shared, void **params, void **extra,
		       const unsigned *cluster, bool coop)
{
	CUresult r;
	if (!f)
		return CUDA_ERROR_INVALID_HANDLE;
	if (extra && *extra) {
		rt_say(true, "cuLaunchKernel's 'extra' argument buffer is not provided by ptxi "
		       "(pass kernelParams): CUDA_ERROR_NOT_SUPPORTED");
		return CUDA_ERROR_NOT_SUPPORTED;
	}
	if (!cu_enter(&r))
		return r;
	cudaError_t e = rt_launch(f, (dim3){gx, gy, gz}, (dim3){bx, by, bz}, shared, params,
				  cluster, coop);
	cu_leave();
	return cu_result(e);
}

CU_EXPORT CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz,
				  unsigned bx, unsigned by, unsigned bz, unsigned shared,
				  void *stream, void **params, void **extra)
{
	return launch(f, gx, gy, gz, bx, by, bz, shared, params, extra, NULL, false);
}

CU_EXPORT CUresult cuLaunchKernel_ptsz(CUfunction f, unsigned gx, unsigned gy, unsigned gz,
				       unsigned bx, unsigned by, unsigned bz, unsigned shared,
				       void *stream, void **params, void **extra)
{
	return launch(f, gx, gy, gz, bx, by, bz, shared, params, extra, NULL, false);
}

CU_EXPORT CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz,
					     unsigned bx, unsigned by, unsigned bz, unsigned shared,
					     void *stream, void **params)
{
	return launch(f, gx, gy, gz, bx, by, bz, shared, params, NULL, NULL, true);
}

/* CUlaunchConfig and CUlaunchAttribute of cuda.h */
struct cu_attr {
	int id;
	char pad[4];
	union { char bytes[64]; int cooperative; unsigned dim[3]; } val;
};
struct cu_config {
	unsigned gx, gy, gz, bx, by, bz, shared;
	void *stream;
	struct cu_attr *attrs;
	unsigned nattrs;
};

CU_EXPORT CUresult cuLaunchKernelEx(const struct cu_config *c, CUfunction f, void **params,
				    void **extra)
{
	if (!c)
		return CUDA_ERROR_INVALID_VALUE;
	const unsigned *cluster = NULL;
	bool coop = false;
	for (unsigned i = 0; i < c->nattrs; i++) {
		const struct cu_attr *a = &c->attrs[i];
		if (a->id == 2)
			coop = a->val.cooperative != 0;
		else if (a->id == 4)
			cluster = a->val.dim;
		else if (a->id != 0 && a->id != 5 && a->id != 6 && a->id != 8) {
			rt_say(true, "cuLaunchKernelEx: launch attribute %d is not provided by ptxi: "
			       "CUDA_ERROR_NOT_SUPPORTED", a->id);
			return CUDA_ERROR_NOT_SUPPORTED;
		}
	}
	return launch(f, c->gx, c->gy, c->gz, c->bx, c->by, c->bz, c->shared, params, extra,
		      cluster, coop);
}

CU_EXPORT CUresult cuLaunchKernelEx_ptsz(const struct cu_config *c, CUfunction f, void **params,
					 void **extra)
{
	return cuLaunchKernelEx(c, f, params, extra);
}

extern cudaError_t cudaFuncSetAttribute(const void *func, int attr, int value);

/* CUfunction_attribute: 8 max dynamic shared size, 9 carveout, 10.. cluster (as the
 * runtime's cudaFuncAttribute values) */
CU_EXPORT CUresult cuFuncSetAttribute(CUfunction f, int attr, int value)
{
	CUresult r;
	if (!f)
		return CUDA_ERROR_INVALID_HANDLE;
	if (!cu_enter(&r))
		return r;
	cu_leave();
	return cu_result(cudaFuncSetAttribute(f, attr, value));
}

CU_EXPORT CUresult cuFuncGetAttribute(int *v, int attr, CUfunction f)
{
	if (!f || !v)
		return CUDA_ERROR_INVALID_VALUE;
	switch (attr) {
	case 0: *v = 1024; break;                       /* MAX_THREADS_PER_BLOCK */
	case 1: case 2: case 3: *v = 0; break;          /* shared, const, local bytes */
	case 4: *v = 32; break;                         /* NUM_REGS */
	case 5: case 6: *v = 90; break;                 /* PTX, BINARY version */
	case 8: *v = f->max_dyn_shared > 49152 ? f->max_dyn_shared : 49152; break;
	default:
		rt_say(true, "cuFuncGetAttribute of attribute %d is not provided by ptxi", attr);
		return CUDA_ERROR_NOT_SUPPORTED;
	}
	return CUDA_SUCCESS;
}

/* ---- tensor maps ------------------------------------------------------------------------- */

CU_EXPORT CUresult cuTensorMapEncodeTiled(void *map, int type, unsigned rank, void *addr,
					  const uint64_t *dim, const uint64_t *strides,
					  const uint32_t *box, const uint32_t *estrides, int interleave,
					  int swizzle, int l2, int fill)
{
	return rt_tmap_tiled(map, type, rank, addr, dim, strides, box, estrides, interleave,
			     swizzle, l2, fill);
}

CU_EXPORT CUresult cuTensorMapEncodeIm2col(void *map, int type, unsigned rank, void *addr,
					   const uint64_t *dim, const uint64_t *strides,
					   const int *lower, const int *upper, uint32_t channels,
					   uint32_t pixels, const uint32_t *estrides, int interleave,
					   int swizzle, int l2, int fill)
{
	return rt_tmap_im2col(map, type, rank, addr, dim, strides, lower, upper, channels, pixels,
			      estrides, interleave, swizzle, l2, fill);
}

CU_EXPORT CUresult cuTensorMapReplaceAddress(void *map, void *addr)
{
	return rt_tmap_replace_address(map, addr);
}
