/*
 * rt_capture.h - the graphs stream capture records (rt_capture.c) and rt_graph.c instantiates
 * and launches: nodes in issue order, each its own allocation so that a cudaGraphNode_t stays
 * valid while the graph grows.
 */
#ifndef PTXI_RT_CAPTURE_H
#define PTXI_RT_CAPTURE_H

#include "rt.h"

enum node_kind { NODE_KERNEL, NODE_MEMCPY, NODE_MEMSET, NODE_HOST };

struct rt_gnode {
	enum node_kind kind;
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
		} kernel;
		struct { void *dst; const void *src; size_t n; int kind; } copy;
		struct { void *p; int value; size_t n; } set;
		struct { void (*fn)(void *); void *data; } host;
	} u;
};

/* cudaGraph_t and cudaGraphExec_t (an exec owns copies of its graph's nodes). */
struct rt_graph {
	struct rt_gnode **nodes;
	size_t n, cap;
};

void rt_gnode_free(struct rt_gnode *n);
void rt_graph_free(struct rt_graph *g);
/* Append n (false: out of memory, n not taken). */
bool rt_graph_add(struct rt_graph *g, struct rt_gnode *n);

#endif
