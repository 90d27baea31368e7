/*
 * rt_pool.h - stream-ordered allocation (rt_pool.c): the default pool's allocations, and
 * graphs' allocations, which alloc and free nodes open and close.
 */
#ifndef PTXI_RT_POOL_H
#define PTXI_RT_POOL_H

#include "rt_graph.h"

struct rt_pool;

/* cudaMallocAsync outside a capture: an allocation of the default pool. */
cudaError_t rt_pool_alloc(void **p, size_t n);
/* Before p is freed (cudaFree, cudaFreeAsync): 1 when p is a graph's allocation, which is
 * closed now (its address kept); -1 when it is one that is not allocated; 0 otherwise (a
 * pool allocation is no longer counted), the caller frees it. */
int rt_pool_free(void *p);
/* Make n an alloc node of `size` bytes: its address taken now, closed until it runs. */
cudaError_t rt_graph_alloc(struct rt_gnode *n, size_t size);
/* Whether p is the address of a graph's alloc node. */
bool rt_graph_allocation(const void *p);
/* Run an alloc or free node (an instance's). */
cudaError_t rt_graph_mem_run(const struct rt_gnode *n);
/* Whether pool is the default pool (cudaMemPool_t), the only one ptxi provides. */
bool rt_pool_is_default(const struct rt_pool *pool);

#endif
