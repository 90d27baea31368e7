/*
 * rt_capture.c - stream capture. Between cudaStreamBeginCapture and cudaStreamEndCapture the
 * work issued to a stream is recorded as the nodes of a graph, not run: kernel launches
 * (their arguments' bytes copied when issued), cudaMemcpyAsync, cudaMemsetAsync and
 * cudaLaunchHostFunc. One stream's capture is a chain, so a graph is its nodes in issue
 * order (rt_graph.c launches it). What CUDA forbids during a capture is refused with CUDA's
 * error and invalidates the capture; asynchronous work ptxi does not record (events, other
 * copies, multi-stream capture) is said and refused with cudaErrorNotSupported.
 */
#include "rt_capture.h"

#include <stdlib.h>
#include <string.h>

#include "support/demangle.h"

#define EXPORT __attribute__((visibility("default")))

enum { MODE_GLOBAL, MODE_THREAD_LOCAL, MODE_RELAXED };
enum { STATUS_NONE, STATUS_ACTIVE, STATUS_INVALIDATED };
enum { STREAM_NON_BLOCKING = 1 };       /* cudaStreamNonBlocking                          */

struct rt_capture {
	cudaStream_t s;
	struct rt_graph *g;
	int mode;
	bool invalid;
	unsigned long long id;
	pthread_t thread;
	struct rt_gnode *last;      /* cudaStreamGetCaptureInfo's dependency                  */
};

/* The captures in progress (a handful at most), and each thread's capture mode. */
static struct rt_capture **caps;
static unsigned ncaps;
static unsigned long long next_id = 1;
static _Thread_local int thread_mode = MODE_GLOBAL;

void rt_gnode_free(struct rt_gnode *n)
{
	if (n && n->kind == NODE_KERNEL) {
		free(n->u.kernel.bytes);
		free(n->u.kernel.off);
	}
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

bool rt_graph_add(struct rt_graph *g, struct rt_gnode *n)
{
	if (g->n == g->cap) {
		size_t cap = g->cap ? 2 * g->cap : 8;
		struct rt_gnode **p = realloc(g->nodes, cap * sizeof *p);
		if (!p)
			return false;
		g->nodes = p;
		g->cap = cap;
	}
	g->nodes[g->n++] = n;
	return true;
}

bool rt_capturing(cudaStream_t s)
{
	return RT_STREAM_OBJECT(s) && s->cap;
}

static void invalidate(struct rt_capture *c)
{
	c->invalid = true;
}

/* Whether this thread may not make calls that wait or are not stream-ordered (the rules of
 * cudaThreadExchangeStreamCaptureMode). */
static bool forbidden(void)
{
	if (thread_mode == MODE_RELAXED)
		return false;
	pthread_t me = pthread_self();
	for (unsigned i = 0; i < ncaps; i++) {
		bool mine = pthread_equal(caps[i]->thread, me);
		if ((mine && caps[i]->mode != MODE_RELAXED) ||
		    (!mine && thread_mode == MODE_GLOBAL && caps[i]->mode == MODE_GLOBAL))
			return true;
	}
	return false;
}

static void invalidate_forbidding(void)
{
	pthread_t me = pthread_self();
	for (unsigned i = 0; i < ncaps; i++)
		if (caps[i]->mode == MODE_GLOBAL ||
		    (caps[i]->mode == MODE_THREAD_LOCAL && pthread_equal(caps[i]->thread, me)))
			invalidate(caps[i]);
}

/* A blocking stream that captures: the legacy stream would depend on it. */
static struct rt_capture *blocking_capture(void)
{
	for (unsigned i = 0; i < ncaps; i++)
		if (!(caps[i]->s->flags & STREAM_NON_BLOCKING))
			return caps[i];
	return NULL;
}

cudaError_t rt_capture_check(cudaStream_t s, bool waits)
{
	if (!ncaps)
		return cudaSuccess;
	if (rt_capturing(s)) {
		if (!waits)
			return cudaSuccess;
		invalidate(s->cap);
		return cudaErrorStreamCaptureUnsupported;
	}
	struct rt_capture *b = (uintptr_t)s <= 1 ? blocking_capture() : NULL;
	if (b) {
		invalidate(b);
		return cudaErrorStreamCaptureImplicit;
	}
	return waits ? rt_capture_unsafe() : cudaSuccess;
}

cudaError_t rt_capture_unsafe(void)
{
	if (!ncaps || !forbidden())
		return cudaSuccess;
	invalidate_forbidding();
	return cudaErrorStreamCaptureUnsupported;
}

cudaError_t rt_capture_unmodelled(cudaStream_t s, const char *what)
{
	if (!rt_capturing(s))
		return cudaSuccess;
	invalidate(s->cap);
	rt_say(true, "%s on a capturing stream is not recorded by ptxi's stream capture: the "
	       "program gets cudaErrorNotSupported and the capture is invalidated", what);
	return cudaErrorNotSupported;
}

/* A new node for capturing stream s, or the error that refuses it. */
static cudaError_t add(cudaStream_t s, struct rt_gnode *n)
{
	struct rt_capture *c = s->cap;
	if (c->invalid || rt.sticky) {
		rt_gnode_free(n);
		return rt.sticky ? rt.sticky : cudaErrorStreamCaptureInvalidated;
	}
	if (!rt_graph_add(c->g, n)) {
		rt_gnode_free(n);
		invalidate(c);
		return cudaErrorMemoryAllocation;
	}
	c->last = n;
	return cudaSuccess;
}

static struct rt_gnode *node_new(enum node_kind kind)
{
	struct rt_gnode *n = calloc(1, sizeof *n);
	if (n)
		n->kind = kind;
	return n;
}

cudaError_t rt_capture_kernel(cudaStream_t s, struct rt_kernel *k, dim3 grid, dim3 block,
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
			rt_say(true, "a captured launch of %s has no value for parameter %d",
			       demangle_name(k->name, d, sizeof d), i + 1);
			return cudaErrorInvalidValue;
		}
		total += len[i];
	}
	struct rt_gnode *n = node_new(NODE_KERNEL);
	if (!n)
		return cudaErrorMemoryAllocation;
	n->u.kernel.bytes = malloc(total ? total : 1);
	n->u.kernel.off = malloc((np ? (size_t)np : 1) * sizeof *n->u.kernel.off);
	if (!n->u.kernel.bytes || !n->u.kernel.off) {
		rt_gnode_free(n);
		return cudaErrorMemoryAllocation;
	}
	size_t at = 0;
	for (int i = 0; i < np; i++) {
		n->u.kernel.off[i] = (uint32_t)at;
		memcpy(n->u.kernel.bytes + at, args[i], len[i]);
		at += len[i];
	}
	n->u.kernel.nargs = (unsigned)np;
	n->u.kernel.size = total;
	n->u.kernel.k = k;
	n->u.kernel.grid = grid;
	n->u.kernel.block = block;
	n->u.kernel.shared = shared;
	n->u.kernel.cooperative = cooperative;
	if (cluster) {
		memcpy(n->u.kernel.cluster, cluster, sizeof n->u.kernel.cluster);
		n->u.kernel.has_cluster = true;
	}
	return add(s, n);
}

cudaError_t rt_capture_copy(cudaStream_t s, void *dst, const void *src, size_t n, int kind)
{
	if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault)
		return cudaErrorInvalidMemcpyDirection;
	struct rt_gnode *g = node_new(NODE_MEMCPY);
	if (!g)
		return cudaErrorMemoryAllocation;
	g->u.copy.dst = dst;
	g->u.copy.src = src;
	g->u.copy.n = n;
	g->u.copy.kind = kind;
	return add(s, g);
}

cudaError_t rt_capture_set(cudaStream_t s, void *p, int value, size_t n)
{
	struct rt_gnode *g = node_new(NODE_MEMSET);
	if (!g)
		return cudaErrorMemoryAllocation;
	g->u.set.p = p;
	g->u.set.value = value;
	g->u.set.n = n;
	return add(s, g);
}

cudaError_t rt_capture_host(cudaStream_t s, void (*fn)(void *), void *data)
{
	if (!fn)
		return cudaErrorInvalidValue;
	struct rt_gnode *g = node_new(NODE_HOST);
	if (!g)
		return cudaErrorMemoryAllocation;
	g->u.host.fn = fn;
	g->u.host.data = data;
	return add(s, g);
}

static void capture_remove(struct rt_capture *c)
{
	for (unsigned i = 0; i < ncaps; i++)
		if (caps[i] == c) {
			caps[i] = caps[--ncaps];
			break;
		}
	if (!ncaps) {
		free(caps);
		caps = NULL;
	}
	c->s->cap = NULL;
}

void rt_capture_drop(cudaStream_t s)
{
	if (!rt_capturing(s))
		return;
	struct rt_capture *c = s->cap;
	capture_remove(c);
	rt_graph_free(c->g);
	free(c);
}

/* ---- the capture API --------------------------------------------------------------------- */

static cudaError_t begin(cudaStream_t s, int mode)
{
	if (mode < MODE_GLOBAL || mode > MODE_RELAXED)
		return cudaErrorInvalidValue;
	if ((uintptr_t)s <= 1)
		return cudaErrorStreamCaptureUnsupported; /* the legacy stream cannot capture */
	if (!RT_STREAM_OBJECT(s)) {
		rt_say(true, "cudaStreamBeginCapture on cudaStreamPerThread is not provided by "
		       "ptxi's CUDA runtime: the program gets cudaErrorNotSupported");
		return cudaErrorNotSupported;
	}
	if (s->cap)
		return cudaErrorIllegalState;
	struct rt_capture *c = calloc(1, sizeof *c);
	struct rt_graph *g = calloc(1, sizeof *g);
	struct rt_capture **p = realloc(caps, (ncaps + 1) * sizeof *p);
	if (p)
		caps = p;
	if (!c || !g || !p) {
		free(c);
		free(g);
		return cudaErrorMemoryAllocation;
	}
	c->s = s;
	c->g = g;
	c->mode = mode;
	c->id = next_id++;
	c->thread = pthread_self();
	caps[ncaps++] = c;
	s->cap = c;
	return cudaSuccess;
}

EXPORT cudaError_t cudaStreamBeginCapture(cudaStream_t s, int mode)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	e = begin(s, mode);
	rt_leave();
	return rt_ret(e);
}

EXPORT cudaError_t cudaStreamBeginCapture_ptsz(cudaStream_t s, int mode)
{
	return cudaStreamBeginCapture(s, mode);
}

static cudaError_t end(cudaStream_t s, struct rt_graph **out)
{
	if (!out)
		return cudaErrorInvalidValue;
	if (!rt_capturing(s))
		return cudaErrorIllegalState;
	struct rt_capture *c = s->cap;
	if (c->mode != MODE_RELAXED && !pthread_equal(c->thread, pthread_self()))
		return cudaErrorStreamCaptureWrongThread;
	capture_remove(c);
	bool invalid = c->invalid;
	*out = invalid ? NULL : c->g;
	if (invalid)
		rt_graph_free(c->g);
	free(c);
	return invalid ? cudaErrorStreamCaptureInvalidated : cudaSuccess;
}

EXPORT cudaError_t cudaStreamEndCapture(cudaStream_t s, struct rt_graph **graph)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	e = end(s, graph);
	rt_leave();
	return rt_ret(e);
}

EXPORT cudaError_t cudaStreamEndCapture_ptsz(cudaStream_t s, struct rt_graph **graph)
{
	return cudaStreamEndCapture(s, graph);
}

/* The capture status of s; the legacy stream's is an error while a blocking stream
 * captures. */
static cudaError_t status_of(cudaStream_t s, int *status)
{
	if (!status)
		return cudaErrorInvalidValue;
	if ((uintptr_t)s <= 1 && blocking_capture())
		return cudaErrorStreamCaptureImplicit;
	*status = !rt_capturing(s) ? STATUS_NONE
		  : s->cap->invalid ? STATUS_INVALIDATED : STATUS_ACTIVE;
	return cudaSuccess;
}

EXPORT cudaError_t cudaStreamIsCapturing(cudaStream_t s, int *status)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	e = status_of(s, status);
	rt_leave();
	return rt_ret(e);
}

EXPORT cudaError_t cudaStreamIsCapturing_ptsz(cudaStream_t s, int *status)
{
	return cudaStreamIsCapturing(s, status);
}

/* cudaGraphEdgeData: every edge of a captured chain is a plain one (all zero). */
static const unsigned char plain_edge[8];

EXPORT cudaError_t cudaStreamGetCaptureInfo(cudaStream_t s, int *status, unsigned long long *id,
					    struct rt_graph **graph, struct rt_gnode *const **deps,
					    const void **edges, size_t *ndeps)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	if (edges && !deps)
		e = cudaErrorInvalidValue;
	else
		e = status_of(s, status);
	if (e == cudaSuccess && *status == STATUS_ACTIVE) {
		struct rt_capture *c = s->cap;
		if (id)
			*id = c->id;
		if (graph)
			*graph = c->g;
		if (deps)
			*deps = c->last ? &c->last : NULL;
		if (edges)
			*edges = c->last ? plain_edge : NULL;
		if (ndeps)
			*ndeps = c->last ? 1 : 0;
	}
	rt_leave();
	return rt_ret(e);
}

EXPORT cudaError_t cudaStreamGetCaptureInfo_ptsz(cudaStream_t s, int *status,
						 unsigned long long *id, struct rt_graph **graph,
						 struct rt_gnode *const **deps, const void **edges,
						 size_t *ndeps)
{
	return cudaStreamGetCaptureInfo(s, status, id, graph, deps, edges, ndeps);
}

EXPORT cudaError_t cudaThreadExchangeStreamCaptureMode(int *mode)
{
	if (!mode || *mode < MODE_GLOBAL || *mode > MODE_RELAXED)
		return rt_ret(cudaErrorInvalidValue);
	int old = thread_mode;
	thread_mode = *mode;
	*mode = old;
	return cudaSuccess;
}

/* ---- graphs ------------------------------------------------------------------------------ */

EXPORT cudaError_t cudaGraphGetNodes(struct rt_graph *g, struct rt_gnode **nodes, size_t *n)
{
	if (!g || !n)
		return rt_ret(cudaErrorInvalidValue);
	if (nodes)
		for (size_t i = 0; i < *n; i++)
			nodes[i] = i < g->n ? g->nodes[i] : NULL;
	*n = g->n;
	return cudaSuccess;
}

EXPORT cudaError_t cudaGraphDestroy(struct rt_graph *g)
{
	if (!g)
		return rt_ret(cudaErrorInvalidValue);
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	for (unsigned i = 0; i < ncaps; i++)
		if (caps[i]->g == g) {
			rt_leave(); /* the graph a capture is recording into is not the program's */
			return rt_ret(cudaErrorIllegalState);
		}
	rt_graph_free(g);
	rt_leave();
	return cudaSuccess;
}
