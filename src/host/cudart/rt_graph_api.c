/*
 * rt_graph_api.c - graphs made node by node: cudaGraphCreate, the cudaGraphAdd*Node calls
 * (kernel, memcpy, memset, host, empty), edges (cudaGraphAddDependencies and their
 * queries), node parameters read and changed, in a graph or in an instance, cudaGraphClone
 * and cudaGraphDestroyNode. A node's dependencies must be nodes of the same graph, listed
 * once; what CUDA refuses is refused with its error, and what ptxi does not model (CUDA
 * arrays, `extra` launch parameters, edge data) is said and refused with
 * cudaErrorNotSupported. The order the edges ask for is kept when an instance runs
 * (rt_graph.c); a cycle is refused there.
 */
#include "rt_exec.h"

#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

/* CUDA 13's parameter structures (driver_types.h) */
struct kernel_params { /* cudaKernelNodeParams */
	void *func;
	dim3 grid, block;
	unsigned shared;
	void **args, **extra;
};
struct pitched { void *ptr; size_t pitch, xsize, ysize; }; /* cudaPitchedPtr */
struct pos3 { size_t x, y, z; };                           /* cudaPos, cudaExtent */
struct copy3d_params { /* cudaMemcpy3DParms */
	void *src_array;
	struct pos3 src_pos;
	struct pitched src;
	void *dst_array;
	struct pos3 dst_pos;
	struct pitched dst;
	struct pos3 extent;
	int kind;
};
struct memset_params { void *dst; size_t pitch; unsigned value, elem; size_t width, height; };
struct host_params { void (*fn)(void *); void *data; };
struct edge_data { unsigned char from_port, to_port, type, reserved[5]; }; /* cudaGraphEdgeData */

/* The API's body under the runtime's lock: `e = (body)`. */
#define LOCKED(body) \
	do { \
		cudaError_t e_; \
		if (!rt_enter(&e_)) \
			return e_; \
		e_ = (body); \
		rt_leave(); \
		return rt_ret(e_); \
	} while (0)

static cudaError_t not_provided(const char *what)
{
	rt_say(true, "%s is not provided by ptxi's CUDA runtime: the program gets "
	       "cudaErrorNotSupported", what);
	return cudaErrorNotSupported;
}

EXPORT cudaError_t cudaGraphCreate(struct rt_graph **g, unsigned flags)
{
	if (!g || flags)
		return rt_ret(cudaErrorInvalidValue);
	*g = calloc(1, sizeof **g);
	return *g ? cudaSuccess : rt_ret(cudaErrorMemoryAllocation);
}

EXPORT cudaError_t cudaGraphDestroy(struct rt_graph *g)
{
	if (!g)
		return rt_ret(cudaErrorInvalidValue);
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	bool capturing = g->capturing; /* the graph a capture records into is not the
					      * program's */
	if (!capturing) {
		rt_graph_forget(g);
		rt_graph_free(g);
	}
	rt_leave();
	return capturing ? rt_ret(cudaErrorIllegalState) : cudaSuccess;
}

/* Add node n (made by the caller, freed here on failure) to g after deps. */
static cudaError_t add(struct rt_gnode **out, struct rt_graph *g, struct rt_gnode *const *deps,
		       size_t ndeps, struct rt_gnode *n)
{
	if (!rt_graph_add(g, n, deps, ndeps)) {
		rt_gnode_free(n);
		return cudaErrorMemoryAllocation;
	}
	*out = n;
	return cudaSuccess;
}

/* A kernel node's launch from cudaKernelNodeParams. */
static cudaError_t kernel_from(struct rt_gnode *n, const struct kernel_params *p)
{
	if (!p)
		return cudaErrorInvalidValue;
	if (p->extra)
		return not_provided("a kernel node's `extra` parameters (cudaKernelNodeParams)");
	struct rt_kernel *k = rt_kernel_of(p->func);
	if (!k)
		return cudaErrorInvalidDeviceFunction;
	if (rt_bad_config(p->grid, p->block) != cudaSuccess)
		return cudaErrorInvalidValue; /* a node's shape: an H200 answers so for any */
	return rt_gnode_kernel(n, k, p->grid, p->block, p->shared, p->args, NULL, false);
}

static cudaError_t add_kernel(struct rt_gnode **out, struct rt_graph *g,
			      struct rt_gnode *const *deps, size_t ndeps,
			      const struct kernel_params *p)
{
	cudaError_t e = rt_graph_add_check(out, g, deps, ndeps, "cudaGraphAddKernelNode");
	if (e != cudaSuccess)
		return e;
	struct rt_gnode *n = rt_gnode_new(NODE_EMPTY);
	if (!n)
		return cudaErrorMemoryAllocation;
	e = kernel_from(n, p);
	if (e != cudaSuccess) {
		rt_gnode_free(n);
		return e;
	}
	return add(out, g, deps, ndeps, n);
}

EXPORT cudaError_t cudaGraphAddKernelNode(struct rt_gnode **out, struct rt_graph *g,
					  struct rt_gnode *const *deps, size_t ndeps,
					  const struct kernel_params *p)
{
	LOCKED(add_kernel(out, g, deps, ndeps, p));
}

/* A pitched pointer at a position: the first byte, the pitch and the slice's bytes. */
static char *at_pos(const struct pitched *p, const struct pos3 *at, size_t *slice)
{
	*slice = p->pitch * p->ysize;
	return (char *)p->ptr + at->z * *slice + at->y * p->pitch + at->x;
}

static cudaError_t copy_from(struct rt_gnode *n, const struct copy3d_params *p)
{
	if (!p)
		return cudaErrorInvalidValue;
	if (p->src_array || p->dst_array)
		return not_provided("a memcpy node of a CUDA array (cudaMemcpy3DParms srcArray, "
				    "dstArray)");
	if (p->kind < cudaMemcpyHostToHost || p->kind > cudaMemcpyDefault)
		return cudaErrorInvalidMemcpyDirection;
	bool rows = p->extent.y > 1 || p->extent.z > 1;
	if (rows && (p->extent.x > p->src.pitch || p->extent.x > p->dst.pitch))
		return cudaErrorInvalidPitchValue;
	if (!p->src.ptr || !p->dst.ptr)
		return cudaErrorInvalidValue;
	n->kind = NODE_MEMCPY;
	n->u.copy.dst = at_pos(&p->dst, &p->dst_pos, &n->u.copy.dslice);
	n->u.copy.src = at_pos(&p->src, &p->src_pos, &n->u.copy.sslice);
	n->u.copy.dpitch = p->dst.pitch;
	n->u.copy.spitch = p->src.pitch;
	n->u.copy.width = p->extent.x;
	n->u.copy.height = p->extent.y;
	n->u.copy.depth = p->extent.z;
	n->u.copy.kind = p->kind;
	return cudaSuccess;
}

static cudaError_t add_copy(struct rt_gnode **out, struct rt_graph *g,
			    struct rt_gnode *const *deps, size_t ndeps,
			    const struct copy3d_params *p)
{
	cudaError_t e = rt_graph_add_check(out, g, deps, ndeps, "cudaGraphAddMemcpyNode");
	struct rt_gnode *n = e == cudaSuccess ? rt_gnode_new(NODE_MEMCPY) : NULL;
	if (e == cudaSuccess && !n)
		e = cudaErrorMemoryAllocation;
	if (e == cudaSuccess)
		e = copy_from(n, p);
	if (e != cudaSuccess) {
		rt_gnode_free(n);
		return e;
	}
	return add(out, g, deps, ndeps, n);
}

EXPORT cudaError_t cudaGraphAddMemcpyNode(struct rt_gnode **out, struct rt_graph *g,
					  struct rt_gnode *const *deps, size_t ndeps,
					  const struct copy3d_params *p)
{
	LOCKED(add_copy(out, g, deps, ndeps, p));
}

/* A 1D copy as the 3D parameters that describe it. */
static struct copy3d_params copy1d(void *dst, const void *src, size_t n, int kind)
{
	return (struct copy3d_params){.src = {(void *)src, n, n, 1}, .dst = {dst, n, n, 1},
				      .extent = {n, 1, 1}, .kind = kind};
}

EXPORT cudaError_t cudaGraphAddMemcpyNode1D(struct rt_gnode **out, struct rt_graph *g,
					    struct rt_gnode *const *deps, size_t ndeps, void *dst,
					    const void *src, size_t n, int kind)
{
	struct copy3d_params p = copy1d(dst, src, n, kind);
	LOCKED(add_copy(out, g, deps, ndeps, &p));
}

static cudaError_t set_from(struct rt_gnode *n, const struct memset_params *p)
{
	if (!p || !p->dst || (p->elem != 1 && p->elem != 2 && p->elem != 4))
		return cudaErrorInvalidValue;
	if (p->height > 1 && p->pitch < p->width * p->elem)
		return cudaErrorInvalidValue;
	/* device memory (an H200 refuses host memory when the node is made) */
	size_t span = p->height ? (p->height - 1) * p->pitch + p->width * p->elem : 0;
	if (span && rt_device_range(p->dst, span, "cudaGraphAddMemsetNode") <= 0)
		return cudaErrorInvalidValue;
	n->kind = NODE_MEMSET;
	n->u.set.p = p->dst;
	n->u.set.pitch = p->pitch;
	n->u.set.width = p->width;
	n->u.set.height = p->height;
	n->u.set.value = p->value;
	n->u.set.elem = p->elem;
	return cudaSuccess;
}

static cudaError_t add_set(struct rt_gnode **out, struct rt_graph *g,
			   struct rt_gnode *const *deps, size_t ndeps, const struct memset_params *p)
{
	cudaError_t e = rt_graph_add_check(out, g, deps, ndeps, "cudaGraphAddMemsetNode");
	struct rt_gnode *n = e == cudaSuccess ? rt_gnode_new(NODE_MEMSET) : NULL;
	if (e == cudaSuccess && !n)
		e = cudaErrorMemoryAllocation;
	if (e == cudaSuccess)
		e = set_from(n, p);
	if (e != cudaSuccess) {
		rt_gnode_free(n);
		return e;
	}
	return add(out, g, deps, ndeps, n);
}

EXPORT cudaError_t cudaGraphAddMemsetNode(struct rt_gnode **out, struct rt_graph *g,
					  struct rt_gnode *const *deps, size_t ndeps,
					  const struct memset_params *p)
{
	LOCKED(add_set(out, g, deps, ndeps, p));
}

static cudaError_t add_simple(struct rt_gnode **out, struct rt_graph *g,
			      struct rt_gnode *const *deps, size_t ndeps,
			      const struct host_params *p, const char *what)
{
	cudaError_t e = rt_graph_add_check(out, g, deps, ndeps, what);
	if (e != cudaSuccess)
		return e;
	if (p && !p->fn) /* a host node must have a function */
		return cudaErrorInvalidValue;
	struct rt_gnode *n = rt_gnode_new(p ? NODE_HOST : NODE_EMPTY);
	if (!n)
		return cudaErrorMemoryAllocation;
	if (p) {
		n->u.host.fn = p->fn;
		n->u.host.data = p->data;
	}
	return add(out, g, deps, ndeps, n);
}

EXPORT cudaError_t cudaGraphAddHostNode(struct rt_gnode **out, struct rt_graph *g,
					struct rt_gnode *const *deps, size_t ndeps,
					const struct host_params *p)
{
	static const struct host_params none;
	LOCKED(add_simple(out, g, deps, ndeps, p ? p : &none, "cudaGraphAddHostNode"));
}

EXPORT cudaError_t cudaGraphAddEmptyNode(struct rt_gnode **out, struct rt_graph *g,
					 struct rt_gnode *const *deps, size_t ndeps)
{
	LOCKED(add_simple(out, g, deps, ndeps, NULL, "cudaGraphAddEmptyNode"));
}

/* ---- edges ------------------------------------------------------------------------------- */

static bool depends(const struct rt_gnode *to, const struct rt_gnode *from)
{
	for (size_t i = 0; i < to->ndeps; i++)
		if (to->deps[i] == from)
			return true;
	return false;
}

static bool edges_plain(const struct edge_data *ed, size_t n)
{
	static const struct edge_data zero;
	for (size_t i = 0; ed && i < n; i++)
		if (memcmp(&ed[i], &zero, sizeof zero))
			return false;
	return true;
}

static cudaError_t add_edges(struct rt_graph *g, struct rt_gnode *const *from,
			     struct rt_gnode *const *to, const struct edge_data *ed, size_t n)
{
	if (!g || (n && (!from || !to)))
		return cudaErrorInvalidValue;
	if (!edges_plain(ed, n))
		return not_provided("edge data (cudaGraphEdgeData other than the default)");
	for (size_t i = 0; i < n; i++) {
		if (!from[i] || !to[i] || from[i]->graph != g || to[i]->graph != g ||
		    from[i] == to[i] || depends(to[i], from[i]))
			return cudaErrorInvalidValue;
		for (size_t j = 0; j < i; j++)
			if (from[j] == from[i] && to[j] == to[i])
				return cudaErrorInvalidValue;
	}
	if (n && g->capturing)
		return not_provided("cudaGraphAddDependencies on a graph that a stream capture "
				    "is recording into");
	for (size_t i = 0; i < n; i++) {
		struct rt_gnode *t = to[i];
		struct rt_gnode **d = realloc(t->deps, (t->ndeps + 1) * sizeof *d);
		if (!d)
			return cudaErrorMemoryAllocation;
		d[t->ndeps++] = from[i];
		t->deps = d;
	}
	return cudaSuccess;
}

EXPORT cudaError_t cudaGraphAddDependencies(struct rt_graph *g, struct rt_gnode *const *from,
					    struct rt_gnode *const *to,
					    const struct edge_data *ed, size_t n)
{
	LOCKED(add_edges(g, from, to, ed, n));
}

static void drop_dep(struct rt_gnode *t, const struct rt_gnode *from)
{
	for (size_t i = 0; i < t->ndeps; i++)
		if (t->deps[i] == from) {
			memmove(t->deps + i, t->deps + i + 1, (t->ndeps - i - 1) * sizeof *t->deps);
			t->ndeps--;
			return;
		}
}

static cudaError_t remove_edges(struct rt_graph *g, struct rt_gnode *const *from,
				struct rt_gnode *const *to, const struct edge_data *ed, size_t n)
{
	if (!g || (n && (!from || !to)))
		return cudaErrorInvalidValue;
	if (!edges_plain(ed, n))
		return not_provided("edge data (cudaGraphEdgeData other than the default)");
	for (size_t i = 0; i < n; i++)
		if (!from[i] || !to[i] || from[i]->graph != g || to[i]->graph != g ||
		    !depends(to[i], from[i]))
			return cudaErrorInvalidValue;
	if (n && g->capturing)
		return not_provided("cudaGraphRemoveDependencies on a graph that a stream "
				    "capture is recording into");
	for (size_t i = 0; i < n; i++)
		drop_dep(to[i], from[i]);
	return cudaSuccess;
}

EXPORT cudaError_t cudaGraphRemoveDependencies(struct rt_graph *g, struct rt_gnode *const *from,
					       struct rt_gnode *const *to,
					       const struct edge_data *ed, size_t n)
{
	LOCKED(remove_edges(g, from, to, ed, n));
}

/* ---- queries: a NULL array asks for the count; else up to *n entries are filled (the rest
 * of a longer array NULL) and *n becomes the number filled ------------------------------- */

static void fill(struct rt_gnode **out, size_t *n, size_t i, struct rt_gnode *v)
{
	if (out && i < *n)
		out[i] = v;
}

static void fill_done(struct rt_gnode **out, size_t *n, size_t count)
{
	if (!out) {
		*n = count;
		return;
	}
	for (size_t i = count; i < *n; i++)
		out[i] = NULL;
	if (count < *n)
		*n = count;
}

static cudaError_t get_nodes(struct rt_graph *g, struct rt_gnode **out, size_t *n, bool roots)
{
	if (!g || !n)
		return cudaErrorInvalidValue;
	size_t k = 0;
	for (size_t i = 0; i < g->n; i++)
		if (!roots || !g->nodes[i]->ndeps)
			fill(out, n, k++, g->nodes[i]);
	fill_done(out, n, k);
	return cudaSuccess;
}

EXPORT cudaError_t cudaGraphGetNodes(struct rt_graph *g, struct rt_gnode **nodes, size_t *n)
{
	LOCKED(get_nodes(g, nodes, n, false));
}

EXPORT cudaError_t cudaGraphGetRootNodes(struct rt_graph *g, struct rt_gnode **nodes, size_t *n)
{
	LOCKED(get_nodes(g, nodes, n, true));
}

static cudaError_t get_edges(struct rt_graph *g, struct rt_gnode **from, struct rt_gnode **to,
			     struct edge_data *ed, size_t *n)
{
	if (!g || !n || (!from != !to) || (ed && !from))
		return cudaErrorInvalidValue;
	size_t k = 0;
	for (size_t i = 0; i < g->n; i++)
		for (size_t d = 0; d < g->nodes[i]->ndeps; d++, k++)
			if (from && k < *n) {
				from[k] = g->nodes[i]->deps[d];
				to[k] = g->nodes[i];
				if (ed)
					memset(&ed[k], 0, sizeof *ed);
			}
	if (from) {
		for (size_t i = k; i < *n; i++) {
			from[i] = to[i] = NULL;
			if (ed)
				memset(&ed[i], 0, sizeof *ed);
		}
		if (k < *n)
			*n = k;
	} else {
		*n = k;
	}
	return cudaSuccess;
}

EXPORT cudaError_t cudaGraphGetEdges(struct rt_graph *g, struct rt_gnode **from,
				     struct rt_gnode **to, struct edge_data *ed, size_t *n)
{
	LOCKED(get_edges(g, from, to, ed, n));
}

static cudaError_t node_links(struct rt_gnode *node, struct rt_gnode **out,
			      struct edge_data *ed, size_t *n, bool dependents)
{
	if (!node || !n || (ed && !out))
		return cudaErrorInvalidValue;
	size_t k = 0;
	if (!dependents) {
		for (size_t i = 0; i < node->ndeps; i++)
			fill(out, n, k++, node->deps[i]);
	} else {
		const struct rt_graph *g = node->graph;
		for (size_t i = 0; i < g->n; i++)
			if (depends(g->nodes[i], node))
				fill(out, n, k++, g->nodes[i]);
	}
	if (ed)
		memset(ed, 0, (k < *n ? k : *n) * sizeof *ed);
	fill_done(out, n, k);
	return cudaSuccess;
}

EXPORT cudaError_t cudaGraphNodeGetDependencies(struct rt_gnode *node, struct rt_gnode **deps,
						struct edge_data *ed, size_t *n)
{
	LOCKED(node_links(node, deps, ed, n, false));
}

EXPORT cudaError_t cudaGraphNodeGetDependentNodes(struct rt_gnode *node, struct rt_gnode **deps,
						  struct edge_data *ed, size_t *n)
{
	LOCKED(node_links(node, deps, ed, n, true));
}

EXPORT cudaError_t cudaGraphNodeGetType(struct rt_gnode *node, int *type)
{
	if (!node || !type)
		return rt_ret(cudaErrorInvalidValue);
	*type = (int)node->kind;
	return cudaSuccess;
}

/* ---- node parameters ------------------------------------------------------------------- */

static cudaError_t kernel_get(struct rt_gnode *n, struct kernel_params *p)
{
	if (!n || !p || n->kind != NODE_KERNEL)
		return cudaErrorInvalidValue;
	p->func = (void *)n->u.kernel.k->host_fun;
	p->grid = n->u.kernel.grid;
	p->block = n->u.kernel.block;
	p->shared = (unsigned)n->u.kernel.shared;
	p->args = n->u.kernel.argv;
	p->extra = NULL;
	return cudaSuccess;
}

EXPORT cudaError_t cudaGraphKernelNodeGetParams(struct rt_gnode *n, struct kernel_params *p)
{
	LOCKED(kernel_get(n, p));
}

static cudaError_t kernel_set(struct rt_gnode *n, const struct kernel_params *p)
{
	if (!n || !p || n->kind != NODE_KERNEL)
		return cudaErrorInvalidValue;
	return kernel_from(n, p);
}

EXPORT cudaError_t cudaGraphKernelNodeSetParams(struct rt_gnode *n, const struct kernel_params *p)
{
	LOCKED(kernel_set(n, p));
}

static cudaError_t set_get(struct rt_gnode *n, struct memset_params *p)
{
	if (!n || !p || n->kind != NODE_MEMSET)
		return cudaErrorInvalidValue;
	*p = (struct memset_params){n->u.set.p, n->u.set.pitch, n->u.set.value, n->u.set.elem,
				    n->u.set.width, n->u.set.height};
	return cudaSuccess;
}

EXPORT cudaError_t cudaGraphMemsetNodeGetParams(struct rt_gnode *n, struct memset_params *p)
{
	LOCKED(set_get(n, p));
}

static cudaError_t set_set(struct rt_gnode *n, const struct memset_params *p)
{
	if (!n || n->kind != NODE_MEMSET)
		return cudaErrorInvalidValue;
	return set_from(n, p);
}

EXPORT cudaError_t cudaGraphMemsetNodeSetParams(struct rt_gnode *n,
						const struct memset_params *p)
{
	LOCKED(set_set(n, p));
}

static cudaError_t copy_set(struct rt_gnode *n, const struct copy3d_params *p)
{
	if (!n || n->kind != NODE_MEMCPY)
		return cudaErrorInvalidValue;
	return copy_from(n, p);
}

EXPORT cudaError_t cudaGraphMemcpyNodeSetParams(struct rt_gnode *n,
						const struct copy3d_params *p)
{
	LOCKED(copy_set(n, p));
}

EXPORT cudaError_t cudaGraphMemcpyNodeSetParams1D(struct rt_gnode *n, void *dst, const void *src,
						  size_t count, int kind)
{
	struct copy3d_params p = copy1d(dst, src, count, kind);
	LOCKED(copy_set(n, &p));
}

static cudaError_t host_get(struct rt_gnode *n, struct host_params *p)
{
	if (!n || !p || n->kind != NODE_HOST)
		return cudaErrorInvalidValue;
	p->fn = n->u.host.fn;
	p->data = n->u.host.data;
	return cudaSuccess;
}

EXPORT cudaError_t cudaGraphHostNodeGetParams(struct rt_gnode *n, struct host_params *p)
{
	LOCKED(host_get(n, p));
}

static cudaError_t host_set(struct rt_gnode *n, const struct host_params *p)
{
	if (!n || !p || !p->fn || n->kind != NODE_HOST)
		return cudaErrorInvalidValue;
	n->u.host.fn = p->fn;
	n->u.host.data = p->data;
	return cudaSuccess;
}

EXPORT cudaError_t cudaGraphHostNodeSetParams(struct rt_gnode *n, const struct host_params *p)
{
	LOCKED(host_set(n, p));
}

/* An instance's copy of graph node `node` (NULL: none, as for a node added after the
 * instance was made). */
static struct rt_gnode *exec_copy(struct rt_graph *x, const struct rt_gnode *node)
{
	for (size_t i = 0; x && node && i < x->n; i++)
		if (x->nodes[i]->id == node->id)
			return x->nodes[i];
	return NULL;
}

static cudaError_t exec_kernel_set(struct rt_graph *x, struct rt_gnode *node,
				   const struct kernel_params *p)
{
	struct rt_gnode *c = exec_copy(x, node);
	if (!c || c->kind != NODE_KERNEL)
		return cudaErrorInvalidValue;
	return kernel_from(c, p);
}

EXPORT cudaError_t cudaGraphExecKernelNodeSetParams(struct rt_graph *x, struct rt_gnode *node,
						    const struct kernel_params *p)
{
	LOCKED(exec_kernel_set(x, node, p));
}

static cudaError_t exec_set_set(struct rt_graph *x, struct rt_gnode *node,
				const struct memset_params *p)
{
	struct rt_gnode *c = exec_copy(x, node);
	if (!c || c->kind != NODE_MEMSET)
		return cudaErrorInvalidValue;
	return set_from(c, p);
}

EXPORT cudaError_t cudaGraphExecMemsetNodeSetParams(struct rt_graph *x, struct rt_gnode *node,
						    const struct memset_params *p)
{
	LOCKED(exec_set_set(x, node, p));
}

static cudaError_t exec_copy_set(struct rt_graph *x, struct rt_gnode *node,
				 const struct copy3d_params *p)
{
	struct rt_gnode *c = exec_copy(x, node);
	if (!c || c->kind != NODE_MEMCPY)
		return cudaErrorInvalidValue;
	return copy_from(c, p);
}

EXPORT cudaError_t cudaGraphExecMemcpyNodeSetParams(struct rt_graph *x, struct rt_gnode *node,
						    const struct copy3d_params *p)
{
	LOCKED(exec_copy_set(x, node, p));
}

EXPORT cudaError_t cudaGraphExecMemcpyNodeSetParams1D(struct rt_graph *x, struct rt_gnode *node,
						      void *dst, const void *src, size_t count,
						      int kind)
{
	struct copy3d_params p = copy1d(dst, src, count, kind);
	LOCKED(exec_copy_set(x, node, &p));
}

static cudaError_t exec_host_set(struct rt_graph *x, struct rt_gnode *node,
				 const struct host_params *p)
{
	struct rt_gnode *c = exec_copy(x, node);
	if (!c || c->kind != NODE_HOST)
		return cudaErrorInvalidValue;
	return host_set(c, p);
}

EXPORT cudaError_t cudaGraphExecHostNodeSetParams(struct rt_graph *x, struct rt_gnode *node,
						  const struct host_params *p)
{
	LOCKED(exec_host_set(x, node, p));
}

/* ---- whole graphs ------------------------------------------------------------------------ */

static cudaError_t graph_clone(struct rt_graph **out, struct rt_graph *g)
{
	if (!out || !g)
		return cudaErrorInvalidValue;
	struct rt_graph *c = calloc(1, sizeof *c);
	if (!c)
		return cudaErrorMemoryAllocation;
	for (size_t i = 0; i < g->n; i++) {
		g->nodes[i]->at = i;
		struct rt_gnode *n = rt_gnode_clone(g->nodes[i]);
		if (!n || !rt_graph_add(c, n, NULL, 0)) {
			rt_gnode_free(n);
			rt_graph_free(c);
			return cudaErrorMemoryAllocation;
		}
	}
	/* then the edges: a node may depend on one made after it (cudaGraphAddDependencies) */
	for (size_t i = 0; i < g->n; i++) {
		const struct rt_gnode *o = g->nodes[i];
		struct rt_gnode *n = c->nodes[i];
		n->deps = malloc((o->ndeps ? o->ndeps : 1) * sizeof *n->deps);
		if (!n->deps) {
			rt_graph_free(c);
			return cudaErrorMemoryAllocation;
		}
		for (size_t d = 0; d < o->ndeps; d++)
			n->deps[d] = c->nodes[o->deps[d]->at];
		n->ndeps = o->ndeps;
	}
	*out = c;
	return cudaSuccess;
}

EXPORT cudaError_t cudaGraphClone(struct rt_graph **out, struct rt_graph *g)
{
	LOCKED(graph_clone(out, g));
}

static cudaError_t find_in_clone(struct rt_gnode **out, struct rt_gnode *orig,
				 struct rt_graph *c)
{
	if (!out || !orig || !c)
		return cudaErrorInvalidValue;
	for (size_t i = 0; i < c->n; i++)
		if (c->nodes[i]->id == orig->id && c->nodes[i] != orig) {
			*out = c->nodes[i];
			return cudaSuccess;
		}
	return cudaErrorInvalidValue;
}

EXPORT cudaError_t cudaGraphNodeFindInClone(struct rt_gnode **out, struct rt_gnode *orig,
					    struct rt_graph *c)
{
	LOCKED(find_in_clone(out, orig, c));
}

static cudaError_t destroy_node(struct rt_gnode *node)
{
	if (!node)
		return cudaErrorInvalidValue;
	struct rt_graph *g = node->graph;
	if (g->capturing)
		return not_provided("cudaGraphDestroyNode on a graph that a stream capture is "
				    "recording into");
	size_t k = 0;
	for (size_t i = 0; i < g->n; i++) {
		drop_dep(g->nodes[i], node);
		if (g->nodes[i] != node)
			g->nodes[k++] = g->nodes[i];
	}
	g->n = k;
	rt_gnode_free(node);
	return cudaSuccess;
}

EXPORT cudaError_t cudaGraphDestroyNode(struct rt_gnode *node)
{
	LOCKED(destroy_node(node));
}
