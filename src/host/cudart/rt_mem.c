/*
 * rt_mem.c - device memory as the program sees it: cudaMalloc, managed and pinned host memory
 * are allocations of ptxi's modelled global memory, each at the address the program holds
 * (unified addressing), so every kernel access is checked against them. Copies and sets
 * are checked too: a range that runs past its allocation is named, and refused.
 */
#include <string.h>

#include "rt_pool.h"

#define EXPORT __attribute__((visibility("default")))

int rt_device_range(const void *p, size_t n, const char *what)
{
	uint64_t a = (uint64_t)(uintptr_t)p;
	if (a < rt.mem->mapped_base || a >= rt.mem->mapped_end)
		return rt_registered(p, n) ? 1 : 0; /* registered host memory: the device's too */
	struct region *r = mem_find(rt.mem, a, n ? n : 1);
	if (r)
		return 1;
	r = mem_find(rt.mem, a, 1);
	if (r)
		rt_say(true, "%s: %zu bytes at %p run %llu bytes past the end of the %llu-byte %s "
		       "at 0x%llx", what, n, p,
		       (unsigned long long)(a + n - (r->base + r->size)), (unsigned long long)r->size,
		       r->name, (unsigned long long)r->base);
	else
		rt_say(true, "%s: %p is in no device allocation (freed, or never allocated)", what, p);
	return -1;
}

/* What a stream capture in progress says to a call (rt_graph.c), by how the call runs. */
enum gate { ASYNC,      /* work for stream s that a capture does not record               */
	    SYNC,       /* work for the legacy stream that the host waits for             */
	    UNSAFE };   /* no stream's work (cudaMalloc, cudaFree)                        */

static cudaError_t gate(enum gate how, cudaStream_t s, const char *what)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	e = how == ASYNC ? rt_capture_unmodelled(s, what) : cudaSuccess;
	if (e == cudaSuccess)
		e = how == UNSAFE ? rt_capture_unsafe() : rt_capture_check(s, how == SYNC);
	rt_leave();
	return rt_ret(e);
}

static cudaError_t alloc(void **p, size_t n, const char *what)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	if (!p) {
		rt_leave();
		return rt_ret(cudaErrorInvalidValue);
	}
	if (rt.sticky) {
		rt_leave();
		return rt.sticky;
	}
	uint64_t a = n ? mem_alloc(rt.mem, n, what) : 0;
	*p = (void *)(uintptr_t)a;
	rt_leave();
	return n && !a ? rt_ret(cudaErrorMemoryAllocation) : cudaSuccess;
}

EXPORT cudaError_t cudaMalloc(void **p, size_t n)
{
	cudaError_t e = gate(UNSAFE, NULL, NULL);
	return e ? e : alloc(p, n, "allocation (cudaMalloc)");
}

EXPORT cudaError_t cudaMallocManaged(void **p, size_t n, unsigned flags)
{
	cudaError_t e = gate(UNSAFE, NULL, NULL);
	return e ? e : alloc(p, n, "allocation (cudaMallocManaged)");
}

EXPORT cudaError_t cudaMallocHost(void **p, size_t n)
{
	cudaError_t e = gate(UNSAFE, NULL, NULL);
	return e ? e : alloc(p, n, "allocation (cudaMallocHost)");
}

EXPORT cudaError_t cudaHostAlloc(void **p, size_t n, unsigned flags)
{
	cudaError_t e = gate(UNSAFE, NULL, NULL);
	return e ? e : alloc(p, n, "allocation (cudaHostAlloc)");
}

/* Mapped host memory's device address: every allocation is already at the address the
 * host holds (unified addressing), so it is the pointer itself, for memory the runtime
 * allocated; flags must be 0. */
EXPORT cudaError_t cudaHostGetDevicePointer(void **dev, void *host, unsigned flags)
{
	if (!dev || flags)
		return rt_ret(cudaErrorInvalidValue);
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	uint64_t a = (uint64_t)(uintptr_t)host;
	bool ours = (a >= rt.mem->mapped_base && a < rt.mem->mapped_end && mem_find(rt.mem, a, 1)) ||
		    rt_registered(host, 1);
	rt_leave();
	if (!ours)
		return rt_ret(cudaErrorInvalidValue);
	*dev = host;
	return cudaSuccess;
}

/* cudaMallocAsync: the default pool's, or a graph's in a capture (rt_pool.c). */
EXPORT cudaError_t cudaMallocAsync(void **p, size_t n, cudaStream_t s)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	if (rt_capturing(s))
		e = rt_capture_alloc(s, p, n);
	else if (!p)
		e = cudaErrorInvalidValue;
	else if ((e = rt_capture_check(s, false)) == cudaSuccess && !(e = rt.sticky))
		e = rt_pool_alloc(p, n);
	rt_leave();
	return rt_ret(e);
}

EXPORT cudaError_t cudaMallocAsync_ptsz(void **p, size_t n, cudaStream_t s)
{
	return cudaMallocAsync(p, n, s);
}

EXPORT cudaError_t cudaMallocFromPoolAsync(void **p, size_t n, struct rt_pool *pool,
					   cudaStream_t s)
{
	if (!rt_pool_is_default(pool))
		return rt_ret(cudaErrorInvalidValue);
	return cudaMallocAsync(p, n, s);
}

EXPORT cudaError_t cudaMallocFromPoolAsync_ptsz(void **p, size_t n, struct rt_pool *pool,
						cudaStream_t s)
{
	return cudaMallocFromPoolAsync(p, n, pool, s);
}

EXPORT cudaError_t cudaMallocPitch(void **p, size_t *pitch, size_t width, size_t height)
{
	size_t w = (width + 511) & ~(size_t)511; /* an H100's texture pitch alignment */
	if (!pitch)
		return rt_ret(cudaErrorInvalidValue);
	*pitch = w;
	cudaError_t e = gate(UNSAFE, NULL, NULL);
	return e ? e : alloc(p, w * height, "allocation (cudaMallocPitch)");
}

static cudaError_t release(void *p, const char *what)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	rt_flush_prints(); /* cudaFree synchronises */
	e = rt.sticky;
	uint64_t a = (uint64_t)(uintptr_t)p;
	if (!e && p && rt_registered(p, 1)) {
		rt_say(true, "%s(%p): memory cudaHostRegister registered, not the runtime's "
		       "(cudaHostUnregister it)", what, p);
		rt_leave();
		return rt_ret(cudaErrorInvalidValue);
	}
	int pool = p && !e ? rt_pool_free(p) : 0; /* a graph's allocation: closed (1) */
	struct region *r = p && !e && !pool ? mem_find(rt.mem, a, 1) : NULL;
	if (!e && p && pool <= 0 && (!r || r->base != a)) {
		rt_say(true, "%s(%p): not the start of a live allocation (%s)", what, p,
		       r ? "inside one" : "freed already, or never allocated");
		e = cudaErrorInvalidValue;
	} else if (r) {
		mem_region_free(r);
		mem_region_release(rt.mem, r);
		mem_release(rt.mem, r->size);
	}
	rt_leave();
	return rt_ret(e);
}

EXPORT cudaError_t cudaFree(void *p)
{
	cudaError_t e = gate(UNSAFE, NULL, NULL);
	return e ? e : release(p, "cudaFree");
}

EXPORT cudaError_t cudaFreeHost(void *p)
{
	cudaError_t e = gate(UNSAFE, NULL, NULL);
	return e ? e : release(p, "cudaFreeHost");
}

EXPORT cudaError_t cudaFreeAsync(void *p, cudaStream_t s)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	bool capturing = rt_capturing(s);
	e = capturing ? rt_capture_free(s, p) : rt_capture_check(s, false);
	rt_leave();
	return e || capturing ? rt_ret(e) : release(p, "cudaFreeAsync");
}

EXPORT cudaError_t cudaFreeAsync_ptsz(void *p, cudaStream_t s)
{
	return cudaFreeAsync(p, s);
}

/* Copy n bytes, both ends checked: a device range must lie in one allocation; the kind must
 * agree with where the pointers are (cudaMemcpyDefault: anywhere). */
cudaError_t rt_copy(void *dst, const void *src, size_t n, int kind, const char *what)
{
	if (rt.sticky)
		return rt.sticky;
	if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault)
		return cudaErrorInvalidMemcpyDirection;
	if (!n)
		return cudaSuccess;
	if (!dst || !src)
		return cudaErrorInvalidValue;
	char w[80];
	snprintf(w, sizeof w, "%s destination", what);
	int d = rt_device_range(dst, n, w);
	snprintf(w, sizeof w, "%s source", what);
	int s = rt_device_range(src, n, w);
	if (d < 0 || s < 0)
		return cudaErrorInvalidValue;
	bool dev_dst = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
	bool dev_src = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
	if ((dev_dst && !d) || (dev_src && !s)) {
		rt_say(true, "%s: the %s %p is host memory, but the copy's kind says device memory",
		       what, dev_dst && !d ? "destination" : "source", dev_dst && !d ? dst : src);
		return cudaErrorInvalidValue;
	}
	memmove(dst, src, n);
	return cudaSuccess;
}

EXPORT cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, int kind)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	rt_flush_prints(); /* a blocking copy waits for the kernels before it */
	e = rt_capture_check(NULL, true);
	if (e == cudaSuccess)
		e = rt_copy(dst, src, n, kind, "cudaMemcpy");
	rt_leave();
	return rt_ret(e);
}

EXPORT cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, int kind,
				   cudaStream_t s)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	if (rt_capturing(s))
		e = rt_capture_copy(s, dst, src, n, kind);
	else if ((e = rt_capture_check(s, false)) == cudaSuccess)
		e = rt_copy(dst, src, n, kind, "cudaMemcpyAsync");
	rt_leave();
	return rt_ret(e);
}

EXPORT cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t n, int kind,
					cudaStream_t s)
{
	return cudaMemcpyAsync(dst, src, n, kind, s);
}

static cudaError_t copy2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
			  size_t height, int kind, const char *what)
{
	if (width > dpitch || width > spitch)
		return cudaErrorInvalidPitchValue;
	cudaError_t e = cudaSuccess;
	for (size_t r = 0; r < height && e == cudaSuccess; r++)
		e = rt_copy((char *)dst + r * dpitch, (const char *)src + r * spitch, width, kind, what);
	return e;
}

EXPORT cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch,
				size_t width, size_t height, int kind)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	rt_flush_prints();
	e = rt_capture_check(NULL, true);
	if (e == cudaSuccess)
		e = copy2d(dst, dpitch, src, spitch, width, height, kind, "cudaMemcpy2D");
	rt_leave();
	return rt_ret(e);
}

EXPORT cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
				     size_t width, size_t height, int kind, cudaStream_t s)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	e = rt_capture_unmodelled(s, "cudaMemcpy2DAsync");
	if (e == cudaSuccess)
		e = rt_capture_check(s, false);
	if (e == cudaSuccess)
		e = copy2d(dst, dpitch, src, spitch, width, height, kind, "cudaMemcpy2DAsync");
	rt_leave();
	return rt_ret(e);
}

cudaError_t rt_set(void *p, int value, size_t n, const char *what)
{
	if (rt.sticky)
		return rt.sticky;
	if (!n)
		return cudaSuccess;
	int d = rt_device_range(p, n, what);
	if (d < 0)
		return cudaErrorInvalidValue;
	if (!d) {
		rt_say(true, "%s: %p is host memory, not device memory", what, p);
		return cudaErrorInvalidValue;
	}
	memset(p, value, n);
	return cudaSuccess;
}

EXPORT cudaError_t cudaMemset(void *p, int value, size_t n)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	e = rt_capture_check(NULL, false);
	if (e == cudaSuccess)
		e = rt_set(p, value, n, "cudaMemset");
	rt_leave();
	return rt_ret(e);
}

EXPORT cudaError_t cudaMemsetAsync(void *p, int value, size_t n, cudaStream_t s)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	if (rt_capturing(s))
		e = rt_capture_set(s, p, value, n);
	else if ((e = rt_capture_check(s, false)) == cudaSuccess)
		e = rt_set(p, value, n, "cudaMemsetAsync");
	rt_leave();
	return rt_ret(e);
}

EXPORT cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	*total = rt.mem->limit;
	*free_bytes = rt.mem->limit - rt.mem->used;
	rt_leave();
	return cudaSuccess;
}

EXPORT cudaError_t cudaMemPrefetchAsync(const void *p, size_t n, int location, unsigned flags,
					cudaStream_t s)
{
	/* one memory: managed pages are always where they are needed */
	return gate(ASYNC, s, "cudaMemPrefetchAsync");
}

/* ---- symbols ---------------------------------------------------------------------------- */

/* Where symbol `sym` (its host shadow's address) lives: host-visible bytes. */
static cudaError_t symbol(const void *sym, uint8_t **at, size_t *size)
{
	struct rt_var *v = rt_var_of(sym);
	if (!v)
		return cudaErrorInvalidSymbol;
	if (!rt_module_ready(v->mod))
		return cudaErrorInvalidPtx;
	uint64_t addr, bytes;
	bool is_const;
	if (!env_symbol(&v->mod->em, v->name, &addr, &bytes, &is_const))
		return cudaErrorInvalidSymbol;
	*at = is_const ? v->mod->em.const_bank + addr : (uint8_t *)(uintptr_t)addr;
	*size = (size_t)bytes;
	return cudaSuccess;
}

static cudaError_t symbol_copy(const void *sym, void *buf, size_t n, size_t off, bool to,
			       const char *what)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	rt_flush_prints();
	uint8_t *at;
	size_t size;
	e = rt.sticky ? rt.sticky : symbol(sym, &at, &size);
	if (e == cudaSuccess && (off > size || n > size - off)) {
		rt_say(true, "%s: %zu bytes at offset %zu run past the %zu bytes of symbol '%s'",
		       what, n, off, size, rt_var_of(sym)->name);
		e = cudaErrorInvalidValue;
	}
	if (e == cudaSuccess && n)
		memmove(to ? at + off : buf, to ? buf : at + off, n);
	rt_leave();
	return rt_ret(e);
}

EXPORT cudaError_t cudaMemcpyToSymbol(const void *sym, const void *src, size_t n, size_t off,
				      int kind)
{
	cudaError_t e = gate(SYNC, NULL, NULL);
	return e ? e : symbol_copy(sym, (void *)src, n, off, true, "cudaMemcpyToSymbol");
}

EXPORT cudaError_t cudaMemcpyFromSymbol(void *dst, const void *sym, size_t n, size_t off,
					int kind)
{
	cudaError_t e = gate(SYNC, NULL, NULL);
	return e ? e : symbol_copy(sym, dst, n, off, false, "cudaMemcpyFromSymbol");
}

EXPORT cudaError_t cudaMemcpyToSymbolAsync(const void *sym, const void *src, size_t n,
					   size_t off, int kind, cudaStream_t s)
{
	cudaError_t e = gate(ASYNC, s, "cudaMemcpyToSymbolAsync");
	return e ? e : symbol_copy(sym, (void *)src, n, off, true, "cudaMemcpyToSymbolAsync");
}

EXPORT cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *sym, size_t n, size_t off,
					     int kind, cudaStream_t s)
{
	cudaError_t e = gate(ASYNC, s, "cudaMemcpyFromSymbolAsync");
	return e ? e : symbol_copy(sym, dst, n, off, false, "cudaMemcpyFromSymbolAsync");
}

EXPORT cudaError_t cudaGetSymbolAddress(void **p, const void *sym)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	uint8_t *at;
	size_t size;
	e = symbol(sym, &at, &size);
	if (e == cudaSuccess && rt_var_of(sym)->is_const) {
		rt_say(true, "cudaGetSymbolAddress of __constant__ '%s': ptxi keeps constant memory "
		       "apart from global memory, so it has no global address here",
		       rt_var_of(sym)->name);
		e = cudaErrorNotSupported;
	}
	if (e == cudaSuccess)
		*p = at;
	rt_leave();
	return rt_ret(e);
}

EXPORT cudaError_t cudaGetSymbolSize(size_t *n, const void *sym)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	uint8_t *at;
	e = symbol(sym, &at, n);
	rt_leave();
	return rt_ret(e);
}

/* struct cudaPointerAttributes: type, device, devicePointer, hostPointer, reserved[8] */
struct ptr_attrs {
	int type, device;
	void *device_ptr, *host_ptr;
	long reserved[8];
};

EXPORT cudaError_t cudaPointerGetAttributes(struct ptr_attrs *a, const void *p)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	memset(a, 0, sizeof *a);
	uint64_t x = (uint64_t)(uintptr_t)p;
	struct region *r = x >= rt.mem->mapped_base && x < rt.mem->mapped_end ? mem_find(rt.mem, x, 1) : NULL;
	if (rt_registered(p, 1)) {
		a->type = 1; /* registered host memory: host memory, at the same address */
		a->device_ptr = a->host_ptr = (void *)p;
	} else if (r) {
		/* cudaMemoryTypeHost 1, Device 2, Managed 3 */
		a->type = strstr(r->name, "Managed") ? 3 : strstr(r->name, "Host") ? 1 : 2;
		a->device_ptr = (void *)p;
		a->host_ptr = a->type != 2 ? (void *)p : NULL;
	} else {
		a->type = 0; /* cudaMemoryTypeUnregistered */
		a->device = -2;
	}
	rt_leave();
	return cudaSuccess;
}
