/*
 * rt_capture.c - stream capture. Between cudaStreamBeginCapture and cudaStreamEndCapture the
 * work issued to a stream is recorded as the nodes of a graph, not run: kernel launches
 * (their arguments' bytes copied when issued), cudaMemcpyAsync, cudaMemsetAsync and
 * cudaLaunchHostFunc, each node depending on the stream's work before it. Other streams
 * join the capture through events (cudaEventRecord in the capture, cudaStreamWaitEvent in
 * the other stream), so a graph may fork and join; every stream that joined must be joined
 * back to the origin stream before the capture ends. What CUDA forbids during a capture is
 * refused with CUDA's error and invalidates the capture; asynchronous work ptxi does not
 * record is said and refused with cudaErrorNotSupported.
 */
#include "rt_pool.h"

#include <stdlib.h>
#include <string.h>

#include "support/demangle.h"

#define EXPORT __attribute__((visibility("default")))

enum { MODE_GLOBAL, MODE_THREAD_LOCAL, MODE_RELAXED };
enum { STATUS_NONE, STATUS_ACTIVE, STATUS_INVALIDATED };
enum { STREAM_NON_BLOCKING = 1 };       /* cudaStreamNonBlocking                          */

/* A stream in a capture: the nodes its next work depends on. */
struct member {
	cudaStream_t s;             /* NULL: destroyed (its work must still be joined back)   */
	struct rt_gnode **tail;
	size_t ntail;
};

struct rt_capture {
	cudaStream_t s;             /* the origin stream (members[0])                         */
	struct member *members;
	unsigned nmembers;
	struct rt_graph *g;
	int mode;
	bool invalid;
	unsigned long long id;
	pthread_t thread;
};

/* The captures in progress (a handful at most), and each thread's capture mode. */
static struct rt_capture **caps;
static unsigned ncaps;
static unsigned long long next_id = 1;
static _Thread_local int thread_mode = MODE_GLOBAL;

static struct member *member_of(cudaStream_t s)
{
	struct rt_capture *c = s->cap;
	for (unsigned i = 0; i < c->nmembers; i++)
		if (c->members[i].s == s)
			return &c->members[i];
	return NULL; /* not reached: a stream with cap is a member */
}

/* Make the stream's next work depend on deps[0..n) (with `keep`: as well as on its tail). */
static bool tail_set(struct member *m, struct rt_gnode *const *deps, size_t n, bool keep)
{
	size_t have = keep ? m->ntail : 0;
	struct rt_gnode **t = realloc(m->tail, (have + n ? have + n : 1) * sizeof *t);
	if (!t)
		return false;
	m->tail = t;
	m->ntail = have;
	for (size_t i = 0; i < n; i++) {
		bool dup = false;
		for (size_t j = 0; j < m->ntail && !dup; j++)
			dup = t[j] == deps[i];
		if (!dup)
			t[m->ntail++] = deps[i];
	}
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
		for (unsigned m = 0; m < caps[i]->nmembers; m++)
			if (caps[i]->members[m].s &&
			    !(caps[i]->members[m].s->flags & STREAM_NON_BLOCKING))
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
	struct member *m = member_of(s);
	if (!rt_graph_add(c->g, n, m->tail, m->ntail)) {
		rt_gnode_free(n);
		invalidate(c);
		return cudaErrorMemoryAllocation;
	}
	m->tail[0] = n; /* the stream's next work depends on this node alone */
	m->ntail = 1;
	return cudaSuccess;
}

static struct rt_gnode *node_new(enum node_kind kind)
{
	return rt_gnode_new(kind);
}

cudaError_t rt_capture_kernel(cudaStream_t s, struct rt_kernel *k, dim3 grid, dim3 block,
			      size_t shared, void **args, const unsigned *cluster, bool cooperative)
{
	struct rt_gnode *n = node_new(NODE_KERNEL);
	if (!n)
		return cudaErrorMemoryAllocation;
	n->kind = NODE_EMPTY; /* until its launch is made */
	cudaError_t e = rt_gnode_kernel(n, k, grid, block, shared, args, cluster, cooperative);
	if (e != cudaSuccess) {
		rt_gnode_free(n);
		return e;
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
	g->u.copy.width = n;
	g->u.copy.height = g->u.copy.depth = 1;
	g->u.copy.kind = kind;
	return add(s, g);
}

cudaError_t rt_capture_set(cudaStream_t s, void *p, int value, size_t n)
{
	struct rt_gnode *g = node_new(NODE_MEMSET);
	if (!g)
		return cudaErrorMemoryAllocation;
	g->u.set.p = p;
	g->u.set.value = (uint8_t)value;
	g->u.set.elem = 1;
	g->u.set.width = n;
	g->u.set.height = 1;
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

/* c ends: no stream captures into it any more, and it is no longer in progress. */
cudaError_t rt_capture_alloc(cudaStream_t s, void **p, size_t n)
{
	if (!p)
		return cudaErrorInvalidValue;
	if (!n) { /* no bytes: NULL, and no node (as an H200 answers) */
		*p = NULL;
		return cudaSuccess;
	}
	struct rt_gnode *g = node_new(NODE_ALLOC);
	if (!g)
		return cudaErrorMemoryAllocation;
	cudaError_t e = rt_graph_alloc(g, n);
	if (e != cudaSuccess) {
		rt_gnode_free(g);
		return e;
	}
	void *a = g->u.mem.p;
	e = add(s, g);
	if (e == cudaSuccess)
		*p = a;
	return e;
}

cudaError_t rt_capture_free(cudaStream_t s, void *p)
{
	if (!rt_graph_allocation(p)) {
		rt_say(true, "cudaFreeAsync(%p) in a capture: not the address of a graph's "
		       "allocation (cudaMallocAsync in a capture, or an alloc node)", p);
		return cudaErrorInvalidValue;
	}
	struct rt_gnode *g = node_new(NODE_FREE);
	if (!g)
		return cudaErrorMemoryAllocation;
	g->u.mem.p = p;
	return add(s, g);
}

/* c ends: no stream captures into it any more, and it is no longer in progress. */
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
	for (unsigned i = 0; i < c->nmembers; i++) {
		if (c->members[i].s)
			c->members[i].s->cap = NULL;
		free(c->members[i].tail);
	}
	free(c->members);
}

void rt_capture_drop(cudaStream_t s)
{
	if (!rt_capturing(s))
		return;
	struct rt_capture *c = s->cap;
	if (s != c->s) { /* a stream that joined: the capture goes on without it, and its
			  * work must be joined back all the same (through an event) */
		member_of(s)->s = NULL;
		s->cap = NULL;
		return;
	}
	capture_remove(c);
	rt_graph_free(c->g);
	free(c);
}

/* Stream s joins capture c, its work depending on deps[0..n). */
static cudaError_t join(struct rt_capture *c, cudaStream_t s, struct rt_gnode *const *deps,
			size_t n)
{
	struct member *m = realloc(c->members, (c->nmembers + 1) * sizeof *m);
	if (!m)
		return cudaErrorMemoryAllocation;
	c->members = m;
	m = &c->members[c->nmembers];
	*m = (struct member){.s = s};
	if (!tail_set(m, deps, n, false))
		return cudaErrorMemoryAllocation;
	c->nmembers++;
	s->cap = c;
	return cudaSuccess;
}

static struct rt_capture *capture_by_id(unsigned long long id)
{
	for (unsigned i = 0; i < ncaps && id; i++)
		if (caps[i]->id == id)
			return caps[i];
	return NULL;
}

cudaError_t rt_capture_record(cudaStream_t s, struct rt_event_capture *ec)
{
	free(ec->deps);
	*ec = (struct rt_event_capture){0};
	if (!rt_capturing(s))
		return cudaSuccess;
	struct rt_capture *c = s->cap;
	if (c->invalid)
		return cudaErrorStreamCaptureInvalidated;
	struct member *m = member_of(s);
	ec->deps = malloc((m->ntail ? m->ntail : 1) * sizeof *ec->deps);
	if (!ec->deps) {
		invalidate(c);
		return cudaErrorMemoryAllocation;
	}
	memcpy(ec->deps, m->tail, m->ntail * sizeof *ec->deps);
	ec->n = m->ntail;
	ec->capture = c->id;
	return cudaSuccess;
}

cudaError_t rt_capture_wait(cudaStream_t s, const struct rt_event_capture *ec)
{
	struct rt_capture *c = capture_by_id(ec->capture);
	if (!c) /* an event recorded outside any capture in progress */
		return rt_capture_unmodelled(s, "cudaStreamWaitEvent on an event recorded outside "
					     "the capture");
	if (!RT_STREAM_OBJECT(s)) {
		invalidate(c);
		if ((uintptr_t)s <= 1)
			return cudaErrorStreamCaptureImplicit;
		rt_say(true, "cudaStreamWaitEvent of cudaStreamPerThread on a capture's event is not "
		       "provided by ptxi's CUDA runtime: the program gets cudaErrorNotSupported");
		return cudaErrorNotSupported;
	}
	if (c->invalid)
		return cudaErrorStreamCaptureInvalidated;
	if (s->cap && s->cap != c) {
		invalidate(c);
		invalidate(s->cap);
		return cudaErrorStreamCaptureMerge;
	}
	cudaError_t e = s->cap ? (tail_set(member_of(s), ec->deps, ec->n, true)
				  ? cudaSuccess : cudaErrorMemoryAllocation)
			       : join(c, s, ec->deps, ec->n);
	if (e != cudaSuccess)
		invalidate(c);
	return e;
}

bool rt_capture_event_live(const struct rt_event_capture *ec)
{
	return capture_by_id(ec->capture) != NULL;
}

bool rt_capture_event_used(const struct rt_event_capture *ec)
{
	struct rt_capture *c = capture_by_id(ec->capture);
	if (c)
		invalidate(c);
	return c != NULL;
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
	g->capturing = true;
	c->mode = mode;
	c->id = next_id++;
	c->thread = pthread_self();
	if (join(c, s, NULL, 0) != cudaSuccess) {
		free(c->members);
		free(c);
		free(g);
		return cudaErrorMemoryAllocation;
	}
	caps[ncaps++] = c;
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

/* Whether the origin stream's work depends on every other member's last work (each stream
 * that joined the capture was joined back): each member's tail is among the origin's tail
 * and what it depends on. */
static bool joined(struct rt_capture *c)
{
	struct rt_graph *g = c->g;
	if (c->nmembers == 1)
		return true;
	for (size_t i = 0; i < g->n; i++)
		g->nodes[i]->at = 0; /* 1: the origin's work depends on it */
	const struct member *o = &c->members[0];
	for (size_t i = 0; i < o->ntail; i++)
		o->tail[i]->at = 1;
	for (size_t i = g->n; i-- > 0;) /* creation order is a topological order */
		for (size_t d = 0; g->nodes[i]->at && d < g->nodes[i]->ndeps; d++)
			g->nodes[i]->deps[d]->at = 1;
	for (unsigned m = 1; m < c->nmembers; m++)
		for (size_t i = 0; i < c->members[m].ntail; i++)
			if (!c->members[m].tail[i]->at)
				return false;
	return true;
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
	if (s != c->s) {
		invalidate(c);
		return cudaErrorStreamCaptureUnmatched;
	}
	cudaError_t unjoined = c->invalid || joined(c) ? cudaSuccess
			       : cudaErrorStreamCaptureUnjoined; /* (an invalid one says so) */
	capture_remove(c);
	if (unjoined) {
		rt_graph_free(c->g);
		free(c);
		*out = NULL;
		return unjoined;
	}
	bool invalid = c->invalid;
	c->g->capturing = false; /* the program's now */
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

/* cudaGraphEdgeData: every edge of a capture is a plain one (all zero). */
#define MAX_EDGES 1024
static const unsigned char plain_edge[MAX_EDGES][8];

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
		const struct member *m = member_of(s);
		if (edges && m->ntail > MAX_EDGES) {
			rt_say(true, "cudaStreamGetCaptureInfo: the edge data of more than %d "
			       "dependencies is not provided by ptxi's CUDA runtime: the program "
			       "gets cudaErrorNotSupported", MAX_EDGES);
			e = cudaErrorNotSupported;
		}
		if (e == cudaSuccess && id)
			*id = c->id;
		if (e == cudaSuccess && graph)
			*graph = c->g;
		if (e == cudaSuccess && deps)
			*deps = m->ntail ? m->tail : NULL;
		if (e == cudaSuccess && edges)
			*edges = m->ntail ? plain_edge : NULL;
		if (e == cudaSuccess && ndeps)
			*ndeps = m->ntail;
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
