/*
 * rt_pool.c - stream-ordered allocation: the device's default memory pool (cudaMallocAsync,
 * cudaMallocFromPoolAsync, its attributes) and graphs' allocations (alloc and free nodes,
 * made node by node or by cudaMallocAsync / cudaFreeAsync in a capture).
 *
 * Work runs when issued, so a pool allocation is an allocation like cudaMalloc's and its
 * cudaFreeAsync frees it at once; the pool keeps no freed memory, so there is nothing to
 * trim, and the memory it has reserved is not modelled (those attributes are refused).
 * A graph's allocation has one address for the graph's life (its alloc node's, given when
 * the node is made): the region is made then, closed, and opened by each launch's alloc
 * node, closed again by a free node (the graph's, another graph's, cudaFree or
 * cudaFreeAsync), so an access outside its life is a use after free.
 */
#include <stdlib.h>
#include <string.h>

#include "rt_pool.h"

#define EXPORT __attribute__((visibility("default")))

/* cudaMemPool_t: the device's default pool (the only one ptxi provides). */
struct rt_pool {
	uint64_t threshold;         /* cudaMemPoolAttrReleaseThreshold                        */
	int reuse[3];               /* cudaMemPoolReuse*: kept and read back                  */
	uint64_t used, used_high;
};
static struct rt_pool default_pool = {.reuse = {1, 1, 1}};

/* The live pool allocations, and every graph allocation. */
struct block {
	uint64_t base, size;
	struct region *r;           /* a graph's (NULL: the pool's)                           */
	bool live;
};
static struct block *blocks;
static size_t nblocks, capblocks;

static struct block *block_at(uint64_t base)
{
	for (size_t i = 0; i < nblocks; i++)
		if (blocks[i].base == base)
			return &blocks[i];
	return NULL;
}

static bool block_add(struct block b)
{
	if (nblocks == capblocks) {
		size_t cap = capblocks ? 2 * capblocks : 16;
		struct block *p = realloc(blocks, cap * sizeof *p);
		if (!p)
			return false;
		blocks = p;
		capblocks = cap;
	}
	blocks[nblocks++] = b;
	return true;
}

static void pool_used(uint64_t add, uint64_t sub)
{
	default_pool.used = default_pool.used + add - sub;
	if (default_pool.used > default_pool.used_high)
		default_pool.used_high = default_pool.used;
}

cudaError_t rt_pool_alloc(void **p, size_t n)
{
	uint64_t a = n ? mem_alloc(rt.mem, n, "allocation (cudaMallocAsync)") : 0;
	if (n && !a)
		return cudaErrorMemoryAllocation;
	if (a && !block_add((struct block){a, n, NULL, true})) {
		struct region *r = mem_find(rt.mem, a, 1);
		mem_region_free(r);
		mem_region_release(rt.mem, r);
		mem_release(rt.mem, n);
		return cudaErrorMemoryAllocation;
	}
	pool_used(n, 0);
	*p = (void *)(uintptr_t)a;
	return cudaSuccess;
}

int rt_pool_free(void *p)
{
	struct block *b = block_at((uint64_t)(uintptr_t)p);
	if (!b)
		return 0;
	if (!b->live)
		return -1;
	if (b->r) { /* a graph's: closed, its address kept for the graph's next launch */
		b->live = false;
		mem_region_free(b->r);
		mem_region_release(rt.mem, b->r);
		return 1;
	}
	pool_used(0, b->size);
	*b = blocks[--nblocks];
	return 0; /* the caller frees it as any allocation */
}

/* ---- graphs' allocations ----------------------------------------------------------------- */

cudaError_t rt_graph_alloc(struct rt_gnode *n, size_t size)
{
	if (!size)
		return cudaErrorInvalidValue;
	uint64_t a = mem_alloc(rt.mem, size, "allocation (a graph's alloc node)");
	if (!a)
		return cudaErrorMemoryAllocation;
	struct region *r = mem_find(rt.mem, a, 1);
	mem_region_free(r); /* closed until a launch runs the alloc node */
	if (!block_add((struct block){a, size, r, false}))
		return cudaErrorMemoryAllocation; /* (its address stays taken) */
	n->kind = NODE_ALLOC;
	n->u.mem.p = (void *)(uintptr_t)a;
	n->u.mem.n = size;
	return cudaSuccess;
}

bool rt_graph_allocation(const void *p)
{
	struct block *b = block_at((uint64_t)(uintptr_t)p);
	return b && b->r;
}

cudaError_t rt_graph_mem_run(const struct rt_gnode *n)
{
	struct block *b = block_at((uint64_t)(uintptr_t)n->u.mem.p);
	if (!b || !b->r)
		return cudaErrorInvalidValue; /* not reached: the node was checked when made */
	if (n->kind == NODE_ALLOC) {
		if (b->live) {
			rt_say(true, "cudaGraphLaunch: the graph's allocation at %p (%zu bytes) is "
			       "still allocated from its last launch (free it before the graph runs "
			       "again): the program gets cudaErrorInvalidValue", n->u.mem.p,
			       n->u.mem.n);
			return cudaErrorInvalidValue;
		}
		b->live = true;
		__atomic_store_n(&b->r->freed, false, __ATOMIC_RELAXED); /* open again */
		return cudaSuccess;
	}
	if (!b->live) {
		rt_say(true, "cudaGraphLaunch: a free node frees the graph allocation at %p, which "
		       "is not allocated (freed already): the program gets cudaErrorInvalidValue",
		       n->u.mem.p);
		return cudaErrorInvalidValue;
	}
	rt_pool_free(n->u.mem.p);
	return cudaSuccess;
}

/* struct cudaMemAllocNodeParams (driver_types.h) */
struct alloc_params {
	struct {
		int type, handles;
		struct { int type, id; } location;
		void *win32;
		size_t max_size;
		unsigned short usage;
		unsigned char reserved[54];
	} props;
	const void *access;
	size_t naccess;
	size_t bytes;
	void *dptr;
};

enum { ALLOC_PINNED = 1, LOCATION_DEVICE = 1 };

static cudaError_t add_alloc(struct rt_gnode **out, struct rt_graph *g,
			     struct rt_gnode *const *deps, size_t ndeps, struct alloc_params *p)
{
	cudaError_t e = rt_graph_add_check(out, g, deps, ndeps, "cudaGraphAddMemAllocNode");
	if (e != cudaSuccess)
		return e;
	if (!p || !p->bytes)
		return cudaErrorInvalidValue;
	if (p->props.type != ALLOC_PINNED || p->props.location.type != LOCATION_DEVICE)
		return cudaErrorInvalidValue;
	if (p->props.location.id != 0)
		return cudaErrorInvalidDevice;
	if (p->naccess || p->props.handles) {
		rt_say(true, "cudaGraphAddMemAllocNode: access descriptors and shareable handle "
		       "types are not provided by ptxi's CUDA runtime: the program gets "
		       "cudaErrorNotSupported");
		return cudaErrorNotSupported;
	}
	struct rt_gnode *n = rt_gnode_new(NODE_ALLOC);
	if (!n)
		return cudaErrorMemoryAllocation;
	e = rt_graph_alloc(n, p->bytes);
	if (e == cudaSuccess && !rt_graph_add(g, n, deps, ndeps))
		e = cudaErrorMemoryAllocation;
	if (e != cudaSuccess) {
		rt_gnode_free(n);
		return e;
	}
	p->dptr = n->u.mem.p;
	*out = n;
	return cudaSuccess;
}

EXPORT cudaError_t cudaGraphAddMemAllocNode(struct rt_gnode **out, struct rt_graph *g,
					    struct rt_gnode *const *deps, size_t ndeps,
					    struct alloc_params *p)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	e = add_alloc(out, g, deps, ndeps, p);
	rt_leave();
	return rt_ret(e);
}

static cudaError_t add_free(struct rt_gnode **out, struct rt_graph *g,
			    struct rt_gnode *const *deps, size_t ndeps, void *p)
{
	cudaError_t e = rt_graph_add_check(out, g, deps, ndeps, "cudaGraphAddMemFreeNode");
	if (e != cudaSuccess)
		return e;
	if (!rt_graph_allocation(p))
		return cudaErrorInvalidValue;
	struct rt_gnode *n = rt_gnode_new(NODE_FREE);
	if (!n)
		return cudaErrorMemoryAllocation;
	n->u.mem.p = p;
	if (!rt_graph_add(g, n, deps, ndeps)) {
		rt_gnode_free(n);
		return cudaErrorMemoryAllocation;
	}
	*out = n;
	return cudaSuccess;
}

EXPORT cudaError_t cudaGraphAddMemFreeNode(struct rt_gnode **out, struct rt_graph *g,
					   struct rt_gnode *const *deps, size_t ndeps, void *p)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	e = add_free(out, g, deps, ndeps, p);
	rt_leave();
	return rt_ret(e);
}

static cudaError_t alloc_get(struct rt_gnode *n, struct alloc_params *p)
{
	if (!n || !p || n->kind != NODE_ALLOC)
		return cudaErrorInvalidValue;
	memset(p, 0, sizeof *p);
	p->props.type = ALLOC_PINNED;
	p->props.location.type = LOCATION_DEVICE;
	p->bytes = n->u.mem.n;
	p->dptr = n->u.mem.p;
	return cudaSuccess;
}

EXPORT cudaError_t cudaGraphMemAllocNodeGetParams(struct rt_gnode *n, struct alloc_params *p)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	e = alloc_get(n, p);
	rt_leave();
	return rt_ret(e);
}

EXPORT cudaError_t cudaGraphMemFreeNodeGetParams(struct rt_gnode *n, void **p)
{
	if (!n || !p || n->kind != NODE_FREE)
		return rt_ret(cudaErrorInvalidValue);
	*p = n->u.mem.p;
	return cudaSuccess;
}

/* ---- the default pool -------------------------------------------------------------------- */

EXPORT cudaError_t cudaDeviceGetDefaultMemPool(struct rt_pool **pool, int dev)
{
	if (!pool)
		return rt_ret(cudaErrorInvalidValue);
	if (dev != 0)
		return rt_ret(cudaErrorInvalidDevice);
	*pool = &default_pool;
	return cudaSuccess;
}

EXPORT cudaError_t cudaDeviceGetMemPool(struct rt_pool **pool, int dev)
{
	return cudaDeviceGetDefaultMemPool(pool, dev);
}

enum { ATTR_REUSE_EVENTS = 1, ATTR_REUSE_OPPORTUNISTIC, ATTR_REUSE_INTERNAL,
       ATTR_RELEASE_THRESHOLD, ATTR_RESERVED_CURRENT, ATTR_RESERVED_HIGH, ATTR_USED_CURRENT,
       ATTR_USED_HIGH };

static cudaError_t reserved_refused(void)
{
	rt_say(true, "cudaMemPoolAttrReservedMem*: the memory a pool reserves beyond its "
	       "allocations is not modelled by ptxi's CUDA runtime (its pool keeps no freed "
	       "memory): the program gets cudaErrorNotSupported");
	return cudaErrorNotSupported;
}

static cudaError_t pool_attr(struct rt_pool *pool, int attr, void *v, bool set)
{
	if (pool != &default_pool || !v)
		return cudaErrorInvalidValue;
	uint64_t u64;
	switch (attr) {
	case ATTR_REUSE_EVENTS:
	case ATTR_REUSE_OPPORTUNISTIC:
	case ATTR_REUSE_INTERNAL:
		if (set)
			memcpy(&pool->reuse[attr - 1], v, sizeof(int));
		else
			memcpy(v, &pool->reuse[attr - 1], sizeof(int));
		return cudaSuccess;
	case ATTR_RELEASE_THRESHOLD:
		if (set)
			memcpy(&pool->threshold, v, sizeof pool->threshold);
		else
			memcpy(v, &pool->threshold, sizeof pool->threshold);
		return cudaSuccess;
	case ATTR_RESERVED_CURRENT:
	case ATTR_RESERVED_HIGH:
		if (set && attr == ATTR_RESERVED_CURRENT)
			return cudaErrorInvalidValue;
		return reserved_refused();
	case ATTR_USED_CURRENT:
		if (set)
			return cudaErrorInvalidValue;
		memcpy(v, &pool->used, sizeof pool->used);
		return cudaSuccess;
	case ATTR_USED_HIGH:
		if (!set) {
			memcpy(v, &pool->used_high, sizeof pool->used_high);
			return cudaSuccess;
		}
		memcpy(&u64, v, sizeof u64);
		if (u64) /* only a reset to 0 is allowed */
			return cudaErrorInvalidValue;
		pool->used_high = pool->used;
		return cudaSuccess;
	}
	return cudaErrorInvalidValue;
}

EXPORT cudaError_t cudaMemPoolSetAttribute(struct rt_pool *pool, int attr, void *v)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	e = pool_attr(pool, attr, v, true);
	rt_leave();
	return rt_ret(e);
}

EXPORT cudaError_t cudaMemPoolGetAttribute(struct rt_pool *pool, int attr, void *v)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	e = pool_attr(pool, attr, v, false);
	rt_leave();
	return rt_ret(e);
}

/* The pool keeps no freed memory: there is none to release. */
EXPORT cudaError_t cudaMemPoolTrimTo(struct rt_pool *pool, size_t keep)
{
	return pool == &default_pool ? cudaSuccess : rt_ret(cudaErrorInvalidValue);
}

bool rt_pool_is_default(const struct rt_pool *pool)
{
	return pool == &default_pool;
}
