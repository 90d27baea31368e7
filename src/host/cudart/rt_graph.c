/*
 * rt_graph.c - CUDA graphs made by stream capture (rt_capture.c records them):
 * cudaGraphInstantiate copies a graph's nodes, and cudaGraphLaunch replays them in order
 * through the same paths as work issued directly: each kernel is a launch like any other
 * (checked, numbered for --launch, its faults sticky), each copy and set checked as
 * cudaMemcpyAsync and cudaMemsetAsync check theirs.
 */
#include "rt_capture.h"

#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

enum { INST_AUTO_FREE = 1, INST_USE_PRIORITY = 8 }; /* cudaGraphInstantiateFlag*          */

static struct rt_gnode *node_clone(const struct rt_gnode *n)
{
	struct rt_gnode *c = malloc(sizeof *c);
	if (!c || n->kind != NODE_KERNEL)
		return c ? memcpy(c, n, sizeof *c) : NULL;
	*c = *n;
	size_t noff = (n->u.kernel.nargs ? n->u.kernel.nargs : 1) * sizeof *c->u.kernel.off;
	c->u.kernel.bytes = malloc(n->u.kernel.size ? n->u.kernel.size : 1);
	c->u.kernel.off = malloc(noff);
	if (!c->u.kernel.bytes || !c->u.kernel.off) {
		rt_gnode_free(c);
		return NULL;
	}
	memcpy(c->u.kernel.bytes, n->u.kernel.bytes, n->u.kernel.size);
	memcpy(c->u.kernel.off, n->u.kernel.off, noff);
	return c;
}

/* cudaGraphExec_t: a copy of the graph's nodes, so the graph may be changed or destroyed. */
EXPORT cudaError_t cudaGraphInstantiate(struct rt_graph **exec, struct rt_graph *g,
					unsigned long long flags)
{
	if (!exec || !g)
		return rt_ret(cudaErrorInvalidValue);
	if (flags & ~(unsigned long long)(INST_AUTO_FREE | INST_USE_PRIORITY)) {
		/* no allocation nodes to free, and priorities are a hint: those two are exact */
		rt_say(true, "cudaGraphInstantiate: flags 0x%llx are not provided by ptxi's CUDA "
		       "runtime: the program gets cudaErrorNotSupported", flags);
		return rt_ret(cudaErrorNotSupported);
	}
	struct rt_graph *x = calloc(1, sizeof *x);
	if (!x)
		return rt_ret(cudaErrorMemoryAllocation);
	for (size_t i = 0; i < g->n; i++) {
		struct rt_gnode *c = node_clone(g->nodes[i]);
		if (!c || !rt_graph_add(x, c)) {
			rt_gnode_free(c);
			rt_graph_free(x);
			return rt_ret(cudaErrorMemoryAllocation);
		}
	}
	*exec = x;
	return cudaSuccess;
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
	rt_graph_free(x);
	return cudaSuccess;
}

/* Node n of an exec, run now as its call would run it when issued. */
static cudaError_t replay(const struct rt_gnode *n)
{
	switch (n->kind) {
	case NODE_KERNEL: {
		void *argv[RT_MAX_PARAMS];
		for (unsigned i = 0; i < n->u.kernel.nargs; i++)
			argv[i] = n->u.kernel.bytes + n->u.kernel.off[i];
		return rt_launch(n->u.kernel.k, n->u.kernel.grid, n->u.kernel.block,
				 n->u.kernel.shared, argv,
				 n->u.kernel.has_cluster ? n->u.kernel.cluster : NULL,
				 n->u.kernel.cooperative);
	}
	case NODE_MEMCPY:
		return rt_copy(n->u.copy.dst, n->u.copy.src, n->u.copy.n, n->u.copy.kind,
			       "cudaMemcpyAsync (a graph's node)");
	case NODE_MEMSET:
		return rt_set(n->u.set.p, n->u.set.value, n->u.set.n,
			      "cudaMemsetAsync (a graph's node)");
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
