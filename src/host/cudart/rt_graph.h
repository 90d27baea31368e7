/*
 * rt_graph.h - CUDA graphs: made by stream capture (rt_capture.c) or node by node
 * (rt_graph_api.c), instantiated and launched by rt_exec.c. A graph is its nodes in creation
 * order, each its own allocation (a cudaGraphNode_t stays valid while the graph grows), each
 * with the nodes it depends on; an instance runs them in a topological order.
 */
#ifndef PTXI_RT_GRAPH_H
#define PTXI_RT_GRAPH_H

#include "rt.h"

/* The node kinds ptxi provides, numbered as cudaGraphNodeType numbers them. */
enum node_kind { NODE_KERNEL = 0, NODE_MEMCPY = 1, NODE_MEMSET = 2, NODE_HOST = 3,
		 NODE_EMPTY = 5, NODE_ALLOC = 10, NODE_FREE = 11 };

struct rt_gnode {
	enum node_kind kind;
	struct rt_graph *graph;     /* the graph that owns it                                  */
	uint64_t id;                /* unique: an instance's copy names its graph's node so    */
	struct rt_gnode **deps;     /* the nodes it depends on (its incoming edges)            */
	size_t ndeps;
	size_t at;                  /* its index in its graph, while the graph is sorted       */
	union {
		struct {
			struct rt_kernel *k;
			dim3 grid, block;
			size_t shared;
			unsigned cluster[3];
			bool has_cluster, cooperative;
			unsigned nargs;
			size_t size;            /* of bytes                                   */
			uint8_t *bytes;         /* the arguments, one after another           */
			uint32_t *off;          /* where each begins in bytes                 */
			void **argv;            /* each one's address (kernelParams, read back) */
		} kernel;
		/* rows of width bytes, height rows a slice, depth slices (a 1D copy: 1, 1) */
		struct {
			void *dst;
			const void *src;
			size_t dpitch, dslice, spitch, sslice, width, height, depth;
			int kind;
		} copy;
		/* height rows of width elements of elem bytes, pitch bytes apart */
		struct { void *p; size_t pitch, width, height; unsigned value, elem; } set;
		struct { void (*fn)(void *); void *data; } host;
		struct { void *p; size_t n; } mem;  /* NODE_ALLOC, NODE_FREE                   */
	} u;
};

/* cudaGraph_t, and cudaGraphExec_t (an instance owns copies of its graph's nodes, in the
 * order it runs them). */
struct rt_graph {
	struct rt_gnode **nodes;
	size_t n, cap;
	bool capturing;             /* a capture records into it: not the program's to change */
};

void rt_gnode_free(struct rt_gnode *n);
void rt_graph_free(struct rt_graph *g);
/* A node of no graph yet, with no dependencies (NULL: out of memory). */
struct rt_gnode *rt_gnode_new(enum node_kind kind);
/* A kernel node's launch: the arguments' bytes copied from args now. */
cudaError_t rt_gnode_kernel(struct rt_gnode *n, struct rt_kernel *k, dim3 grid, dim3 block,
			    size_t shared, void **args, const unsigned *cluster, bool cooperative);
/* Append n to g, depending on deps[0..ndeps) (false: out of memory, n not taken). */
bool rt_graph_add(struct rt_graph *g, struct rt_gnode *n, struct rt_gnode *const *deps,
		  size_t ndeps);
/* A copy of n: the same id, no graph, no dependencies (NULL: out of memory). */
struct rt_gnode *rt_gnode_clone(const struct rt_gnode *n);
/* The checks every cudaGraphAdd*Node makes first: out and g given, deps[0..ndeps) nodes of
 * g named once (else cudaErrorInvalidValue), g not a capture's (said: not provided). */
cudaError_t rt_graph_add_check(struct rt_gnode **out, struct rt_graph *g,
			       struct rt_gnode *const *deps, size_t ndeps, const char *what);

#endif
