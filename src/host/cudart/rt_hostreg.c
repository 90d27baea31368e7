/*
 * rt_hostreg.c - cudaHostRegister: ordinary host memory (malloc's, a stack's, a mapping's)
 * made reachable from kernels at its own address, as an H100 reaches it (unified addressing,
 * cudaDevAttrCanUseHostPointerForRegisteredMem 1, so cudaHostGetDevicePointer gives the host
 * pointer back). Each registration is a region of the modelled memory whose bytes are the
 * program's own, found by the memory's find_host hook, so every kernel access to it is
 * checked (bounds, races) like an access to cudaMallocHost's memory; its index in the
 * detectors' tables is that of an empty region taken in the allocation table for it.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rt.h"

#define EXPORT __attribute__((visibility("default")))

/* cudaHostRegister flags */
enum { REG_PORTABLE = 1, REG_MAPPED = 2, REG_IO = 4, REG_READ_ONLY = 8 };

static struct region **regs;
static size_t nregs;

/* The registration holding [addr, addr+size) (find_host: called by launches' threads while
 * the API, which alone changes the list, waits for the launch). */
static struct region *find_host(uint64_t addr, uint64_t size)
{
	for (size_t i = 0; i < nregs; i++) {
		struct region *r = regs[i];
		if (addr >= r->base && addr - r->base < r->size && size <= r->size - (addr - r->base))
			return r;
	}
	return NULL;
}

static struct region *overlapping(uint64_t a, uint64_t n)
{
	for (size_t i = 0; i < nregs; i++)
		if (a < regs[i]->base + regs[i]->size && regs[i]->base < a + n)
			return regs[i];
	return NULL;
}

struct region *rt_registered(const void *p, size_t n)
{
	return find_host((uint64_t)(uintptr_t)p, n ? n : 1);
}

/* Whether every page of [a, a+n) is mapped in this process. */
static bool mapped(uint64_t a, uint64_t n)
{
	uint64_t pg = (uint64_t)sysconf(_SC_PAGESIZE);
	unsigned char v;
	for (uint64_t p = a & ~(pg - 1); p < a + n; p += pg)
		if (mincore((void *)(uintptr_t)p, 1, &v))
			return false;
	return true;
}

static cudaError_t reg(void *p, size_t n, unsigned flags)
{
	uint64_t a = (uint64_t)(uintptr_t)p;
	if (!p || !n || a + n < a || (flags & ~(unsigned)(REG_PORTABLE | REG_MAPPED | REG_IO |
							REG_READ_ONLY)))
		return cudaErrorInvalidValue;
	if (flags & (REG_IO | REG_READ_ONLY)) {
		rt_say(true, "cudaHostRegister: flag %s is not provided by ptxi's CUDA runtime: "
		       "the program gets cudaErrorNotSupported",
		       flags & REG_IO ? "cudaHostRegisterIoMemory" : "cudaHostRegisterReadOnly");
		return cudaErrorNotSupported;
	}
	if (a < rt.mem->mapped_end && a + n > rt.mem->mapped_base) {
		/* the runtime's own memory: cudaMallocHost's is pinned already */
		struct region *r = mem_find(rt.mem, a, 1);
		return r && strstr(r->name, "Host") ? cudaErrorHostMemoryAlreadyRegistered
						    : cudaErrorInvalidValue;
	}
	if (overlapping(a, n))
		return cudaErrorHostMemoryAlreadyRegistered;
	if (!mapped(a, n)) {
		rt_say(true, "cudaHostRegister(%p, %zu): the range is not all mapped in the "
		       "process", p, n);
		return cudaErrorInvalidValue;
	}
	if (rt.sticky)
		return rt.sticky;
	/* an index of the allocation table for the detectors: an empty region there */
	uint64_t slot = mem_alloc(rt.mem, 0, "cudaHostRegister's index");
	struct region *t = slot ? mem_region(rt.mem, mem_regions(rt.mem) - 1) : NULL;
	struct region *r = calloc(1, sizeof *r);
	struct region **l = realloc(regs, (nregs + 1) * sizeof *l);
	if (l)
		regs = l;
	if (!t || !r || !l) {
		free(r);
		return cudaErrorMemoryAllocation;
	}
	*r = (struct region){.base = a, .size = n, .data = p, .index = t->index};
	snprintf(r->name, sizeof r->name, "host memory (cudaHostRegister)");
	regs[nregs++] = r;
	rt.mem->find_host = find_host;
	return cudaSuccess;
}

EXPORT cudaError_t cudaHostRegister(void *p, size_t n, unsigned flags)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	e = rt_capture_unsafe();
	if (e == cudaSuccess)
		e = reg(p, n, flags);
	rt_leave();
	return rt_ret(e);
}

static cudaError_t unreg(void *p)
{
	if (!p)
		return cudaErrorInvalidValue;
	for (size_t i = 0; i < nregs; i++)
		if (regs[i]->base == (uint64_t)(uintptr_t)p) {
			free(regs[i]);
			regs[i] = regs[--nregs];
			return cudaSuccess;
		}
	/* inside a registration, not its start: an H200 answers cudaErrorInvalidValue */
	return find_host((uint64_t)(uintptr_t)p, 1) ? cudaErrorInvalidValue
						    : cudaErrorHostMemoryNotRegistered;
}

EXPORT cudaError_t cudaHostUnregister(void *p)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	rt_flush_prints(); /* it waits for the work that may use the memory */
	e = rt_capture_unsafe();
	if (e == cudaSuccess)
		e = unreg(p);
	rt_leave();
	return rt_ret(e);
}
