/*
 * rt_entry.c - cudaGetDriverEntryPoint(ByVersion): the driver functions programs fetch through
 * it (CUTLASS, cuda::ptx users): the tensor-map encoders over ptxi's encoder (which refuses
 * what the driver refuses), cuTensorMapReplaceAddress and the error strings. Any other name
 * is said on stderr and answered "symbol not found".
 */
#include <stdint.h>
#include <string.h>

#include "hopper/tmap.h"
#include "rt.h"

#define EXPORT __attribute__((visibility("default")))

enum { CUDA_SUCCESS = 0, CUDA_ERROR_INVALID_VALUE = 1, CUDA_ERROR_NOT_SUPPORTED = 801 };

static CUresult encode(void *map, const struct ptxi_tmap_params *p, const char *what)
{
	char why[200];
	if (!map)
		return CUDA_ERROR_INVALID_VALUE;
	if (ptxi_tmap_encode(map, p, why, sizeof why) != PTXI_OK) {
		rt_say(false, "%s refused the map (CUDA_ERROR_INVALID_VALUE): %s", what, why);
		return CUDA_ERROR_INVALID_VALUE;
	}
	return CUDA_SUCCESS;
}

static void common(struct ptxi_tmap_params *p, int type, unsigned rank, void *addr,
		   const uint64_t *dim, const uint64_t *strides, const uint32_t *estrides,
		   int interleave, int swizzle, int l2, int fill)
{
	memset(p, 0, sizeof *p);
	p->type = (enum ptxi_tmap_type)type;
	p->rank = rank;
	p->global_address = (uint64_t)(uintptr_t)addr;
	for (unsigned i = 0; i < rank && i < 5; i++) {
		p->global_dim[i] = dim ? dim[i] : 0;
		p->element_strides[i] = estrides ? estrides[i] : 0;
		if (i + 1 < rank)
			p->global_strides[i] = strides ? strides[i] : 0;
	}
	p->interleave = (unsigned)interleave;
	p->swizzle = (unsigned)swizzle;
	p->l2_promotion = (unsigned)l2;
	p->oob_fill = (unsigned)fill;
}

CUresult rt_tmap_tiled(void *map, int type, unsigned rank, void *addr, const uint64_t *dim,
			   const uint64_t *strides, const uint32_t *box, const uint32_t *estrides,
			   int interleave, int swizzle, int l2, int fill)
{
	struct ptxi_tmap_params p;
	if (rank == 0 || rank > 5)
		return CUDA_ERROR_INVALID_VALUE;
	common(&p, type, rank, addr, dim, strides, estrides, interleave, swizzle, l2, fill);
	for (unsigned i = 0; i < rank; i++)
		p.box_dim[i] = box ? box[i] : 0;
	return encode(map, &p, "cuTensorMapEncodeTiled");
}

CUresult rt_tmap_im2col(void *map, int type, unsigned rank, void *addr, const uint64_t *dim,
			    const uint64_t *strides, const int *lower, const int *upper,
			    uint32_t channels, uint32_t pixels, const uint32_t *estrides,
			    int interleave, int swizzle, int l2, int fill)
{
	struct ptxi_tmap_params p;
	if (rank < 3 || rank > 5)
		return CUDA_ERROR_INVALID_VALUE;
	common(&p, type, rank, addr, dim, strides, estrides, interleave, swizzle, l2, fill);
	p.im2col = true;
	for (unsigned i = 0; i + 2 < rank; i++) {
		p.pixel_box_lower[i] = lower ? lower[i] : 0;
		p.pixel_box_upper[i] = upper ? upper[i] : 0;
	}
	p.channels_per_pixel = channels;
	p.pixels_per_column = pixels;
	return encode(map, &p, "cuTensorMapEncodeIm2col");
}

CUresult rt_tmap_replace_address(void *map, void *addr)
{
	struct tmap t;
	char why[200];
	if (!map)
		return CUDA_ERROR_INVALID_VALUE;
	tmap_unpack(map, &t);
	t.addr = (uint64_t)(uintptr_t)addr;
	if (!tmap_check(&t, why, sizeof why)) {
		rt_say(false, "cuTensorMapReplaceAddress refused the address (CUDA_ERROR_INVALID_VALUE): "
		       "%s", why);
		return CUDA_ERROR_INVALID_VALUE;
	}
	tmap_replace(map, TMF_GLOBAL_ADDRESS, 0, t.addr);
	return CUDA_SUCCESS;
}

static CUresult get_error_string(CUresult e, const char **s)
{
	/* the driver's values agree with the runtime's for the errors ptxi gives */
	*s = e == CUDA_SUCCESS ? "no error" : rt_error_string(e);
	return CUDA_SUCCESS;
}

static CUresult get_error_name(CUresult e, const char **s)
{
	switch (e) {
	case CUDA_SUCCESS: *s = "CUDA_SUCCESS"; break;
	case CUDA_ERROR_INVALID_VALUE: *s = "CUDA_ERROR_INVALID_VALUE"; break;
	case CUDA_ERROR_NOT_SUPPORTED: *s = "CUDA_ERROR_NOT_SUPPORTED"; break;
	default: *s = rt_error_name(e); break;
	}
	return CUDA_SUCCESS;
}

static const struct { const char *name; void *fn; } entries[] = {
	{"cuTensorMapEncodeTiled", (void *)rt_tmap_tiled},
	{"cuTensorMapEncodeIm2col", (void *)rt_tmap_im2col},
	{"cuTensorMapReplaceAddress", (void *)rt_tmap_replace_address},
	{"cuGetErrorString", (void *)get_error_string},
	{"cuGetErrorName", (void *)get_error_name},
};

EXPORT cudaError_t cudaGetDriverEntryPointByVersion(const char *symbol, void **fn, unsigned version,
						    unsigned long long flags, int *status)
{
	if (!symbol || !fn)
		return rt_ret(cudaErrorInvalidValue);
	for (size_t i = 0; i < sizeof entries / sizeof entries[0]; i++)
		if (!strcmp(entries[i].name, symbol)) {
			*fn = entries[i].fn;
			if (status)
				*status = 0; /* cudaDriverEntryPointSuccess */
			return cudaSuccess;
		}
	*fn = NULL;
	if (status)
		*status = 1; /* cudaDriverEntryPointSymbolNotFound */
	char what[160];
	snprintf(what, sizeof what, "the driver function %s (through cudaGetDriverEntryPoint)",
		 symbol);
	rt_unsupported(what);
	rt.last = cudaSuccess; /* CUDA answers through *status, with success */
	return cudaSuccess;
}

EXPORT cudaError_t cudaGetDriverEntryPoint(const char *symbol, void **fn, unsigned long long flags,
					   int *status)
{
	return cudaGetDriverEntryPointByVersion(symbol, fn, 13000, flags, status);
}

EXPORT cudaError_t cudaGetDriverEntryPoint_ptsz(const char *symbol, void **fn,
						unsigned long long flags, int *status)
{
	return cudaGetDriverEntryPointByVersion(symbol, fn, 13000, flags, status);
}

EXPORT cudaError_t cudaGetDriverEntryPointByVersion_ptsz(const char *symbol, void **fn,
							 unsigned version, unsigned long long flags,
							 int *status)
{
	return cudaGetDriverEntryPointByVersion(symbol, fn, version, flags, status);
}
