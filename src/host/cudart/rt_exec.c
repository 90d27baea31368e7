/*
 * rt_exec.c - CUDA graphs' instances: cudaGraphInstantiate puts a copy of the graph's nodes
 * in a topological order (a cycle is refused), and cudaGraphLaunch runs them in it through
 * the same paths as work issued directly: each kernel is a launch like any other (checked,
 * numbered for --launch, its faults sticky), each copy and set checked as cudaMemcpyAsync
 * and cudaMemsetAsync check theirs. Running the nodes one after another in an order their
 * dependencies allow keeps every order the graph promises. cudaGraphExecUpdate gives an
 * instance the parameters of a graph of the same shape.
 */
#include "rt_exec.h"

#include <stdlib.h>
#include <string.h>

#include "rt_pool.h"

#define EXPORT __attribute__((visibility("default")))

enum { INST_AUTO_FREE = 1, INST_USE_PRIORITY = 8 }; /* cudaGraphInstantiateFlag*          */

/* ---- instances --------------------------------------------------------------------------- */

/* g's nodes in a topological order, ties in creation order (Kahn's algorithm: a queue of
 * the nodes whose dependencies have all run). NULL with *e set: a cycle, or no memory. */
static struct rt_gnode **topo_order(const struct rt_graph *g, cudaError_t *e)
{
	size_t n = g->n, nedges = 0;
	for (size_t i = 0; i < n; i++) {
		g->nodes[i]->at = i;
		nedges += g->nodes[i]->ndeps;
	}
	/* each node's dependents, grouped by node: start[i]..start[i+1] of after */
	size_t *left = calloc(n + 1, sizeof *left), *start = calloc(n + 2, sizeof *start);
	size_t *after = malloc((nedges ? nedges : 1) * sizeof *after);
	size_t *queue = malloc((n ? n : 1) * sizeof *queue);
	struct rt_gnode **order = malloc((n ? n : 1) * sizeof *order);
	*e = cudaErrorMemoryAllocation;
	if (!left || !start || !after || !queue || !order) {
		free(order);
		order = NULL;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		left[i] = g->nodes[i]->ndeps;
		for (size_t d = 0; d < g->nodes[i]->ndeps; d++)
			start[g->nodes[i]->deps[d]->at + 2]++;
	}
	for (size_t i = 0; i < n; i++)
		start[i + 2] += start[i + 1];
	for (size_t i = 0; i < n; i++)
		for (size_t d = 0; d < g->nodes[i]->ndeps; d++)
			after[start[g->nodes[i]->deps[d]->at + 1]++] = i;
	/* now start[i]..start[i+1] are node i's dependents */
	size_t head = 0, tail = 0;
	for (size_t i = 0; i < n; i++)
		if (!left[i])
			queue[tail++] = i;
	while (head < tail) {
		size_t i = queue[head];
		order[head++] = g->nodes[i];
		for (size_t k = start[i]; k < start[i + 1]; k++)
			if (!--left[after[k]])
				queue[tail++] = after[k];
	}
	*e = cudaSuccess;
	if (head < n) { /* the nodes never queued wait on each other: a cycle */
		free(order);
		order = NULL;
		*e = cudaErrorInvalidValue;
	}
out:
	free(left);
	free(start);
	free(after);
	free(queue);
	return order;
}

/* The instances of graphs with alloc or free nodes: CUDA allows one at a time per graph
 * (a second instantiation: cudaErrorNotSupported, as an H200 answers). */
static struct mem_exec { const struct rt_graph *g, *x; } *mem_execs;
static size_t nmem_execs;

static bool has_mem_nodes(const struct rt_graph *g)
{
	for (size_t i = 0; i < g->n; i++)
		if (g->nodes[i]->kind == NODE_ALLOC || g->nodes[i]->kind == NODE_FREE)
			return true;
	return false;
}

/* Forget the pairs naming graph g or instance x. */
static void mem_execs_drop(const struct rt_graph *g, const struct rt_graph *x)
{
	size_t k = 0;
	for (size_t i = 0; i < nmem_execs; i++)
		if (mem_execs[i].g != g && mem_execs[i].x != x)
			mem_execs[k++] = mem_execs[i];
	nmem_execs = k;
}

void rt_graph_forget(const struct rt_graph *g)
{
	mem_execs_drop(g, NULL);
}

static cudaError_t mem_exec_check(const struct rt_graph *g)
{
	for (size_t i = 0; i < nmem_execs; i++)
		if (mem_execs[i].g == g) {
			rt_say(true, "cudaGraphInstantiate: the graph has alloc or free nodes and an "
			       "instance already (CUDA allows one at a time): the program gets "
			       "cudaErrorNotSupported");
			return cudaErrorNotSupported;
		}
	return cudaSuccess;
}

static bool mem_exec_add(const struct rt_graph *g, const struct rt_graph *x)
{
	struct mem_exec *p = realloc(mem_execs, (nmem_execs + 1) * sizeof *p);
	if (!p)
		return false;
	mem_execs = p;
	mem_execs[nmem_execs++] = (struct mem_exec){g, x};
	return true;
}

/* An instance's copies depend on each other as the graph's nodes do (order: the graph's
 * nodes in the instance's order, their `at` their creation index). */
static bool exec_edges(struct rt_graph *x, struct rt_gnode *const *order)
{
	size_t n = x->n;
	struct rt_gnode **by_at = malloc((n ? n : 1) * sizeof *by_at);
	if (!by_at)
		return false;
	for (size_t i = 0; i < n; i++)
		by_at[order[i]->at] = x->nodes[i];
	for (size_t i = 0; i < n; i++) {
		struct rt_gnode *c = x->nodes[i];
		c->deps = malloc((order[i]->ndeps ? order[i]->ndeps : 1) * sizeof *c->deps);
		if (!c->deps) {
			free(by_at);
			return false;
		}
		for (size_t d = 0; d < order[i]->ndeps; d++)
			c->deps[d] = by_at[order[i]->deps[d]->at];
		c->ndeps = order[i]->ndeps;
	}
	free(by_at);
	return true;
}

/* cudaGraphExec_t: copies of the graph's nodes in a topological order, so the graph may be
 * changed or destroyed. */
EXPORT cudaError_t cudaGraphInstantiate(struct rt_graph **exec, struct rt_graph *g,
					unsigned long long flags)
{
	if (!exec || !g)
		return rt_ret(cudaErrorInvalidValue);
	if (flags & ~(unsigned long long)(INST_AUTO_FREE | INST_USE_PRIORITY)) {
		/* priorities are a hint, and an allocation a graph leaves live is freed at its
		 * next launch either way (rt_pool.c): those two are exact */
		rt_say(true, "cudaGraphInstantiate: flags 0x%llx are not provided by ptxi's CUDA "
		       "runtime: the program gets cudaErrorNotSupported", flags);
		return rt_ret(cudaErrorNotSupported);
	}
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	bool mem = has_mem_nodes(g);
	if (mem && (e = mem_exec_check(g)) != cudaSuccess) {
		rt_leave();
		return rt_ret(e);
	}
	struct rt_gnode **order = topo_order(g, &e);
	if (!order) {
		if (e == cudaErrorInvalidValue)
			rt_say(true, "cudaGraphInstantiate: the graph's dependencies form a cycle, so "
			       "no order runs its nodes: the program gets cudaErrorInvalidValue");
		rt_leave();
		return rt_ret(e);
	}
	struct rt_graph *x = calloc(1, sizeof *x);
	e = x ? cudaSuccess : cudaErrorMemoryAllocation;
	for (size_t i = 0; i < g->n && e == cudaSuccess; i++) {
		struct rt_gnode *c = rt_gnode_clone(order[i]);
		if (!c || !rt_graph_add(x, c, NULL, 0)) {
			rt_gnode_free(c);
			e = cudaErrorMemoryAllocation;
		} else {
			c->at = order[i]->at; /* its creation index: cudaGraphExecUpdate pairs by it */
		}
	}
	if (e == cudaSuccess && !exec_edges(x, order))
		e = cudaErrorMemoryAllocation;
	free(order);
	if (e == cudaSuccess && mem && !mem_exec_add(g, x))
		e = cudaErrorMemoryAllocation;
	if (e != cudaSuccess)
		rt_graph_free(x);
	else
		*exec = x;
	rt_leave();
	return rt_ret(e);
}

EXPORT cudaError_t cudaGraphInstantiateWithFlags(struct rt_graph **exec, struct rt_graph *g,
						 unsigned long long flags)
{
	return cudaGraphInstantiate(exec, g, flags);
}

EXPORT cudaError_t cudaGraphExecDestroy(struct rt_graph *x)
{
	if (!x)
		return rt_ret(cudaErrorInvalidValue);
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	mem_execs_drop(NULL, x);
	rt_graph_free(x);
	rt_leave();
	return cudaSuccess;
}

/* A copy node's rows, each checked as cudaMemcpyAsync checks its range. */
static cudaError_t copy_rows(const struct rt_gnode *n)
{
	cudaError_t e = cudaSuccess;
	for (size_t z = 0; z < n->u.copy.depth && e == cudaSuccess; z++)
		for (size_t y = 0; y < n->u.copy.height && e == cudaSuccess; y++)
			e = rt_copy((char *)n->u.copy.dst + z * n->u.copy.dslice + y * n->u.copy.dpitch,
				    (const char *)n->u.copy.src + z * n->u.copy.sslice +
				    y * n->u.copy.spitch, n->u.copy.width, n->u.copy.kind,
				    "a graph's memcpy node");
	return e;
}

/* A memset node's rows: bytes as cudaMemsetAsync sets them; 2- and 4-byte elements after
 * the same check of the row's range. */
static cudaError_t set_rows(const struct rt_gnode *n)
{
	static const char what[] = "a graph's memset node";
	unsigned elem = n->u.set.elem;
	for (size_t y = 0; y < n->u.set.height; y++) {
		uint8_t *row = (uint8_t *)n->u.set.p + y * n->u.set.pitch;
		cudaError_t e = cudaSuccess;
		if (elem == 1) {
			e = rt_set(row, (int)n->u.set.value, n->u.set.width, what);
		} else if (rt.sticky) {
			e = rt.sticky;
		} else if (n->u.set.width) {
			int d = rt_device_range(row, n->u.set.width * elem, what);
			if (!d)
				rt_say(true, "%s: %p is host memory, not device memory", what, row);
			if (d <= 0)
				e = cudaErrorInvalidValue;
			for (size_t i = 0; d > 0 && i < n->u.set.width; i++)
				memcpy(row + i * elem, &n->u.set.value, elem); /* little-endian */
		}
		if (e != cudaSuccess)
			return e;
	}
	return cudaSuccess;
}

/* Node n of an exec, run now as its call would run it when issued. */
static cudaError_t replay(const struct rt_gnode *n)
{
	switch (n->kind) {
	case NODE_KERNEL:
		return rt_launch(n->u.kernel.k, n->u.kernel.grid, n->u.kernel.block,
				 n->u.kernel.shared, n->u.kernel.argv,
				 n->u.kernel.has_cluster ? n->u.kernel.cluster : NULL,
				 n->u.kernel.cooperative);
	case NODE_MEMCPY:
		return copy_rows(n);
	case NODE_MEMSET:
		return set_rows(n);
	case NODE_HOST: {
		rt_flush_prints();
		if (rt.sticky)
			return rt.sticky;
		rt_leave(); /* the function runs as the stream's work would: outside the runtime */
		n->u.host.fn(n->u.host.data);
		cudaError_t e;
		(void)rt_enter(&e); /* the device exists (the launch entered): this cannot fail */
		return cudaSuccess;
	}
	case NODE_EMPTY:
		return cudaSuccess;
	case NODE_ALLOC:
	case NODE_FREE:
		return rt_graph_mem_run(n);
	}
	return cudaErrorUnknown;
}

EXPORT cudaError_t cudaGraphLaunch(struct rt_graph *x, cudaStream_t s)
{
	if (!x)
		return rt_ret(cudaErrorInvalidValue);
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	e = rt_capture_unmodelled(s, "cudaGraphLaunch (a graph as a child of a capture)");
	if (e == cudaSuccess)
		e = rt_capture_check(s, false);
	for (size_t i = 0; i < x->n && e == cudaSuccess; i++)
		e = replay(x->nodes[i]);
	rt_leave();
	return rt_ret(e);
}

EXPORT cudaError_t cudaGraphLaunch_ptsz(struct rt_graph *x, cudaStream_t s)
{
	return cudaGraphLaunch(x, s);
}

/* Nothing to upload: an instance's nodes are ready to run. */
EXPORT cudaError_t cudaGraphUpload(struct rt_graph *x, cudaStream_t s)
{
	if (!x)
		return rt_ret(cudaErrorInvalidValue);
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	e = rt_capture_unmodelled(s, "cudaGraphUpload");
	if (e == cudaSuccess)
		e = rt_capture_check(s, false);
	rt_leave();
	return rt_ret(e);
}

EXPORT cudaError_t cudaGraphUpload_ptsz(struct rt_graph *x, cudaStream_t s)
{
	return cudaGraphUpload(x, s);
}

/* ---- cudaGraphExecUpdate ----------------------------------------------------------------- */

enum { UPDATE_SUCCESS, UPDATE_ERROR, UPDATE_TOPOLOGY, UPDATE_NODE_TYPE, UPDATE_FUNCTION,
       UPDATE_PARAMETERS, UPDATE_NOT_SUPPORTED };

struct update_info { /* cudaGraphExecUpdateResultInfo */
	int result;
	struct rt_gnode *node, *from;
};

/* Why graph g cannot update instance x (UPDATE_SUCCESS: it can), pairing nodes by creation
 * order and each node's dependencies by their order, as CUDA pairs them. */
static int update_check(struct rt_graph *x, struct rt_graph *g, struct rt_gnode **by_at,
			struct update_info *info)
{
	if (x->n != g->n)
		return UPDATE_TOPOLOGY;
	for (size_t i = 0; i < g->n; i++)
		g->nodes[i]->at = i;
	for (size_t i = 0; i < x->n; i++)
		by_at[x->nodes[i]->at] = x->nodes[i];
	for (size_t i = 0; i < g->n; i++) {
		struct rt_gnode *o = g->nodes[i], *c = by_at[i];
		info->node = o;
		if (o->kind != c->kind)
			return UPDATE_NODE_TYPE;
		if (o->ndeps != c->ndeps)
			return UPDATE_TOPOLOGY;
		for (size_t d = 0; d < o->ndeps; d++)
			if (o->deps[d]->at != c->deps[d]->at) {
				info->from = o->deps[d];
				return UPDATE_TOPOLOGY;
			}
		if (o->kind == NODE_ALLOC || o->kind == NODE_FREE)
			return UPDATE_NOT_SUPPORTED;
		if (o->kind == NODE_KERNEL && o->u.kernel.cooperative != c->u.kernel.cooperative)
			return UPDATE_PARAMETERS;
		if (o->kind == NODE_MEMSET && (o->u.set.height > 1 || c->u.set.height > 1) &&
		    (o->u.set.width != c->u.set.width || o->u.set.height != c->u.set.height ||
		     o->u.set.pitch != c->u.set.pitch || o->u.set.elem != c->u.set.elem))
			return UPDATE_PARAMETERS; /* a 2D memset: address and value only */
	}
	info->node = NULL;
	return UPDATE_SUCCESS;
}

static cudaError_t update(struct rt_graph *x, struct rt_graph *g, struct update_info *info)
{
	struct update_info none;
	if (!info)
		info = &none;
	*info = (struct update_info){UPDATE_ERROR, NULL, NULL};
	if (!x || !g)
		return cudaErrorInvalidValue;
	struct rt_gnode **by_at = malloc((x->n ? x->n : 1) * sizeof *by_at);
	if (!by_at)
		return cudaErrorMemoryAllocation;
	int why = update_check(x, g, by_at, info);
	if (why != UPDATE_SUCCESS) {
		free(by_at);
		info->result = why;
		return cudaErrorGraphExecUpdateFailure;
	}
	/* the parameters of each of g's nodes replace its pair's (kept: the pair's id,
	 * dependencies and place in the instance's order) */
	struct rt_gnode **fresh = calloc(g->n ? g->n : 1, sizeof *fresh);
	bool ok = fresh != NULL;
	for (size_t i = 0; ok && i < g->n; i++)
		ok = (fresh[i] = rt_gnode_clone(g->nodes[i])) != NULL;
	for (size_t i = 0; ok && i < g->n; i++) {
		struct rt_gnode *c = by_at[i], keep = *c;
		if (c->kind == NODE_KERNEL) {
			free(c->u.kernel.bytes);
			free(c->u.kernel.off);
			free(c->u.kernel.argv);
		}
		c->u = fresh[i]->u;
		c->id = keep.id;
		fresh[i]->kind = NODE_EMPTY; /* its arrays are c's now */
	}
	for (size_t i = 0; fresh && i < g->n; i++)
		rt_gnode_free(fresh[i]);
	free(fresh);
	free(by_at);
	if (!ok)
		return cudaErrorMemoryAllocation;
	info->result = UPDATE_SUCCESS;
	return cudaSuccess;
}

EXPORT cudaError_t cudaGraphExecUpdate(struct rt_graph *x, struct rt_graph *g,
				       struct update_info *info)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	e = update(x, g, info);
	rt_leave();
	return rt_ret(e);
}
