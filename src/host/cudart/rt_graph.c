/*
 * rt_graph.c - CUDA graphs' nodes (rt_graph.h): made, copied, freed, added to a graph after
 * their dependencies. Stream capture (rt_capture.c), the node-by-node API (rt_graph_api.c)
 * and graphs' allocations (rt_pool.c) make them; rt_exec.c runs them.
 */
#include "rt_graph.h"

#include <stdlib.h>
#include <string.h>

#include "support/demangle.h"

static uint64_t next_id = 1;

void rt_gnode_free(struct rt_gnode *n)
{
	if (!n)
		return;
	if (n->kind == NODE_KERNEL) {
		free(n->u.kernel.bytes);
		free(n->u.kernel.off);
		free(n->u.kernel.argv);
	}
	free(n->deps);
	free(n);
}

void rt_graph_free(struct rt_graph *g)
{
	if (!g)
		return;
	for (size_t i = 0; i < g->n; i++)
		rt_gnode_free(g->nodes[i]);
	free(g->nodes);
	free(g);
}

struct rt_gnode *rt_gnode_new(enum node_kind kind)
{
	struct rt_gnode *n = calloc(1, sizeof *n);
	if (n) {
		n->kind = kind;
		n->id = __atomic_fetch_add(&next_id, 1, __ATOMIC_RELAXED);
	}
	return n;
}

/* The kernel part of n (a kernel node): its arguments' bytes, offsets and addresses. */
static bool kernel_args_alloc(struct rt_gnode *n, size_t total, unsigned np)
{
	n->u.kernel.bytes = malloc(total ? total : 1);
	n->u.kernel.off = malloc((np ? np : 1) * sizeof *n->u.kernel.off);
	n->u.kernel.argv = malloc((np ? np : 1) * sizeof *n->u.kernel.argv);
	return n->u.kernel.bytes && n->u.kernel.off && n->u.kernel.argv;
}

cudaError_t rt_gnode_kernel(struct rt_gnode *n, struct rt_kernel *k, dim3 grid, dim3 block,
			    size_t shared, void **args, const unsigned *cluster, bool cooperative)
{
	if (!k)
		return cudaErrorInvalidDeviceFunction;
	if (!rt_module_ready(k->mod))
		return k->mod->fail;
	uint32_t len[RT_MAX_PARAMS];
	int np = env_kernel_params(&k->mod->em, k->name, len, RT_MAX_PARAMS);
	if (np < 0)
		return cudaErrorInvalidDeviceFunction;
	size_t total = 0;
	for (int i = 0; i < np; i++) {
		if (!args || !args[i]) {
			char d[400];
			rt_say(true, "a graph's launch of %s has no value for parameter %d",
			       demangle_name(k->name, d, sizeof d), i + 1);
			return cudaErrorInvalidValue;
		}
		total += len[i];
	}
	struct rt_gnode t = {.kind = NODE_KERNEL};
	if (!kernel_args_alloc(&t, total, (unsigned)np)) {
		free(t.u.kernel.bytes);
		free(t.u.kernel.off);
		free(t.u.kernel.argv);
		return cudaErrorMemoryAllocation;
	}
	size_t at = 0;
	for (int i = 0; i < np; i++) {
		t.u.kernel.off[i] = (uint32_t)at;
		t.u.kernel.argv[i] = t.u.kernel.bytes + at;
		memcpy(t.u.kernel.bytes + at, args[i], len[i]);
		at += len[i];
	}
	t.u.kernel.nargs = (unsigned)np;
	t.u.kernel.size = total;
	t.u.kernel.k = k;
	t.u.kernel.grid = grid;
	t.u.kernel.block = block;
	t.u.kernel.shared = shared;
	t.u.kernel.cooperative = cooperative;
	if (cluster) {
		memcpy(t.u.kernel.cluster, cluster, sizeof t.u.kernel.cluster);
		t.u.kernel.has_cluster = true;
	}
	if (n->kind == NODE_KERNEL) { /* new parameters replace the old */
		free(n->u.kernel.bytes);
		free(n->u.kernel.off);
		free(n->u.kernel.argv);
	}
	n->kind = NODE_KERNEL;
	n->u.kernel = t.u.kernel;
	return cudaSuccess;
}

bool rt_graph_add(struct rt_graph *g, struct rt_gnode *n, struct rt_gnode *const *deps,
		  size_t ndeps)
{
	if (g->n == g->cap) {
		size_t cap = g->cap ? 2 * g->cap : 8;
		struct rt_gnode **p = realloc(g->nodes, cap * sizeof *p);
		if (!p)
			return false;
		g->nodes = p;
		g->cap = cap;
	}
	if (ndeps) {
		n->deps = malloc(ndeps * sizeof *n->deps);
		if (!n->deps)
			return false;
		memcpy(n->deps, deps, ndeps * sizeof *n->deps);
	}
	n->ndeps = ndeps;
	n->graph = g;
	g->nodes[g->n++] = n;
	return true;
}

struct rt_gnode *rt_gnode_clone(const struct rt_gnode *n)
{
	struct rt_gnode *c = malloc(sizeof *c);
	if (!c)
		return NULL;
	*c = *n;
	c->graph = NULL;
	c->deps = NULL;
	c->ndeps = 0;
	if (n->kind != NODE_KERNEL)
		return c;
	unsigned np = n->u.kernel.nargs;
	if (!kernel_args_alloc(c, n->u.kernel.size, np)) {
		rt_gnode_free(c);
		return NULL;
	}
	memcpy(c->u.kernel.bytes, n->u.kernel.bytes, n->u.kernel.size);
	memcpy(c->u.kernel.off, n->u.kernel.off, (np ? np : 1) * sizeof *c->u.kernel.off);
	for (unsigned i = 0; i < np; i++)
		c->u.kernel.argv[i] = c->u.kernel.bytes + c->u.kernel.off[i];
	return c;
}

cudaError_t rt_graph_add_check(struct rt_gnode **out, struct rt_graph *g,
			       struct rt_gnode *const *deps, size_t ndeps, const char *what)
{
	if (!out || !g || (ndeps && !deps))
		return cudaErrorInvalidValue;
	for (size_t i = 0; i < ndeps; i++) { /* nodes of g, each named once */
		if (!deps[i] || deps[i]->graph != g)
			return cudaErrorInvalidValue;
		for (size_t j = 0; j < i; j++)
			if (deps[j] == deps[i])
				return cudaErrorInvalidValue;
	}
	if (g->capturing) {
		rt_say(true, "%s on a graph that a stream capture is recording into is not "
		       "provided by ptxi's CUDA runtime: the program gets cudaErrorNotSupported",
		       what);
		return cudaErrorNotSupported;
	}
	return cudaSuccess;
}
