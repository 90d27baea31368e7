/*
 * rt_stream.c - streams and events. Work runs when it is issued, in issue order, which keeps
 * every order CUDA promises (within a stream, and across streams through events); so a
 * stream is always idle once a call returns, and an event completes when it is recorded.
 * Elapsed times are host time between the records, at least a microsecond apart so that a
 * measured interval is positive.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rt.h"

#define EXPORT __attribute__((visibility("default")))

struct rt_event {
	unsigned flags;
	bool recorded;
	double ms;
	struct rt_event_capture cap; /* its last record, when that was in a capture         */
};

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static cudaError_t stream_new(cudaStream_t *s, unsigned flags, int priority)
{
	if (!s)
		return rt_ret(cudaErrorInvalidValue);
	*s = calloc(1, sizeof **s);
	if (!*s)
		return rt_ret(cudaErrorMemoryAllocation);
	(*s)->flags = flags;
	(*s)->priority = priority;
	(*s)->sync_policy = -1; /* what an H200 reads before any is set */
	return cudaSuccess;
}

EXPORT cudaError_t cudaStreamCreate(cudaStream_t *s)
{
	return stream_new(s, 0, 0);
}

EXPORT cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags)
{
	return stream_new(s, flags, 0);
}

EXPORT cudaError_t cudaStreamCreateWithPriority(cudaStream_t *s, unsigned flags, int priority)
{
	return stream_new(s, flags, priority);
}

/* Stream priorities run from 0 (least) to -5 (greatest) on an H200; ptxi runs every
 * stream's work as it is issued, so a priority orders nothing. */
EXPORT cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest)
{
	if (least)
		*least = 0;
	if (greatest)
		*greatest = -5;
	return cudaSuccess;
}

EXPORT cudaError_t cudaStreamGetPriority(cudaStream_t s, int *priority)
{
	if (!priority)
		return rt_ret(cudaErrorInvalidValue);
	*priority = RT_STREAM_OBJECT(s) ? s->priority : 0;
	return cudaSuccess;
}

EXPORT cudaError_t cudaStreamDestroy(cudaStream_t s)
{
	if (!RT_STREAM_OBJECT(s))
		return s ? rt_ret(cudaErrorInvalidResourceHandle) : cudaSuccess;
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	rt_capture_drop(s);
	rt_leave();
	free(s);
	return cudaSuccess;
}

EXPORT cudaError_t cudaStreamSynchronize(cudaStream_t s)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	e = rt_capture_check(s, true);
	if (e == cudaSuccess)
		e = rt_sync();
	rt_leave();
	return rt_ret(e);
}

EXPORT cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t s)
{
	return cudaStreamSynchronize(s);
}

EXPORT cudaError_t cudaStreamQuery(cudaStream_t s)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	e = rt_capture_check(s, true);
	if (e == cudaSuccess)
		e = rt.sticky;
	rt_leave();
	return e;
}

EXPORT cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t ev, unsigned flags)
{
	if (!ev)
		return rt_ret(cudaErrorInvalidResourceHandle);
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	e = cudaSuccess; /* work runs when issued: the event's work has run */
	if (rt_capturing(s) || rt_capture_event_live(&ev->cap))
		e = rt_capture_wait(s, &ev->cap);
	rt_leave();
	return rt_ret(e);
}

EXPORT cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t s, cudaEvent_t ev, unsigned flags)
{
	return cudaStreamWaitEvent(s, ev, flags);
}

/* cudaErrorCapturedEvent: an event whose last record is in a capture in progress has not
 * happened, nor will it; the capture is invalidated. */
static cudaError_t event_captured(cudaEvent_t ev)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	e = rt_capture_event_used(&ev->cap) ? cudaErrorCapturedEvent : cudaSuccess;
	rt_leave();
	return e;
}

/* cudaEventQuery and cudaEventSynchronize: calls a capture that is not relaxed forbids (an
 * H200 answers cudaErrorStreamCaptureUnsupported and invalidates it), then the event's. */
static cudaError_t event_wait_check(cudaEvent_t ev)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	e = rt_capture_unsafe();
	rt_leave();
	return e != cudaSuccess ? e : event_captured(ev);
}

EXPORT cudaError_t cudaEventCreateWithFlags(cudaEvent_t *ev, unsigned flags)
{
	if (!ev)
		return rt_ret(cudaErrorInvalidValue);
	*ev = calloc(1, sizeof **ev);
	if (!*ev)
		return rt_ret(cudaErrorMemoryAllocation);
	(*ev)->flags = flags;
	return cudaSuccess;
}

EXPORT cudaError_t cudaEventCreate(cudaEvent_t *ev)
{
	return cudaEventCreateWithFlags(ev, 0);
}

EXPORT cudaError_t cudaEventDestroy(cudaEvent_t ev)
{
	if (ev)
		free(ev->cap.deps);
	free(ev);
	return cudaSuccess;
}

EXPORT cudaError_t cudaEventRecord(cudaEvent_t ev, cudaStream_t s)
{
	if (!ev)
		return rt_ret(cudaErrorInvalidResourceHandle);
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	e = rt_capture_record(s, &ev->cap);
	if (e == cudaSuccess && !rt_capturing(s)) {
		ev->ms = now_ms();
		ev->recorded = true;
		e = rt.sticky;
	}
	rt_leave();
	return rt_ret(e);
}

EXPORT cudaError_t cudaEventRecord_ptsz(cudaEvent_t ev, cudaStream_t s)
{
	return cudaEventRecord(ev, s);
}

EXPORT cudaError_t cudaEventRecordWithFlags(cudaEvent_t ev, cudaStream_t s, unsigned flags)
{
	return cudaEventRecord(ev, s);
}

EXPORT cudaError_t cudaEventSynchronize(cudaEvent_t ev)
{
	if (!ev)
		return rt_ret(cudaErrorInvalidResourceHandle);
	cudaError_t e = event_wait_check(ev);
	if (e != cudaSuccess)
		return rt_ret(e);
	if (!rt_enter(&e))
		return e;
	e = rt_sync();
	rt_leave();
	return rt_ret(e);
}

EXPORT cudaError_t cudaEventQuery(cudaEvent_t ev)
{
	if (!ev)
		return rt_ret(cudaErrorInvalidResourceHandle);
	cudaError_t e = event_wait_check(ev);
	return e != cudaSuccess ? rt_ret(e) : rt.sticky;
}

/* cudaEventDisableTiming */
#define EVENT_NO_TIMING 2u

EXPORT cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
	if (!ms || !start || !end)
		return rt_ret(cudaErrorInvalidValue);
	if ((start->flags | end->flags) & EVENT_NO_TIMING)
		return rt_ret(cudaErrorInvalidResourceHandle);
	cudaError_t e = event_captured(start);
	if (e == cudaSuccess)
		e = event_captured(end);
	if (e != cudaSuccess)
		return rt_ret(e);
	if (!start->recorded || !end->recorded)
		return rt_ret(cudaErrorInvalidResourceHandle);
	double d = end->ms - start->ms;
	*ms = (float)(d < 0.001 && d >= 0 ? 0.001 : d);
	return cudaSuccess;
}

/* cudaLaunchHostFunc: run now, in order with the work before it (or recorded, capturing). */
EXPORT cudaError_t cudaLaunchHostFunc(cudaStream_t s, void (*fn)(void *), void *data)
{
	cudaError_t e;
	if (!rt_enter(&e))
		return e;
	if (rt_capturing(s)) {
		e = rt_capture_host(s, fn, data);
		rt_leave();
		return rt_ret(e);
	}
	e = rt_capture_check(s, false);
	if (e == cudaSuccess) {
		rt_flush_prints();
		e = rt.sticky;
	}
	rt_leave();
	if (e == cudaSuccess && fn)
		fn(data);
	return rt_ret(e);
}

/* cudaStreamAddCallback: cudaLaunchHostFunc's older form, whose callback also gets the
 * stream and a status (cudaSuccess: the work before it ran). Flags must be 0 (an H200:
 * cudaErrorInvalidValue); a capture cannot record it. */
typedef void (*rt_stream_callback)(cudaStream_t, cudaError_t, void *);
EXPORT cudaError_t cudaStreamAddCallback(cudaStream_t s, rt_stream_callback cb, void *data,
					 unsigned flags)
{
	cudaError_t e;
	if (flags || !cb)
		return rt_ret(cudaErrorInvalidValue);
	if (!rt_enter(&e))
		return e;
	e = rt_capture_check(s, true);
	if (e == cudaSuccess) {
		rt_flush_prints();
		e = rt.sticky;
	}
	rt_leave();
	if (e == cudaSuccess)
		cb(s, cudaSuccess, data);
	return rt_ret(e);
}

EXPORT cudaError_t cudaStreamAddCallback_ptsz(cudaStream_t s, rt_stream_callback cb, void *data,
					      unsigned flags)
{
	return cudaStreamAddCallback(s, cb, data, flags);
}

/* ---- stream attributes ----------------------------------------------------------------- */

/* cudaStreamAttrID (cudaLaunchAttributeID) values a stream takes, as an H200 does: the L2
 * access policy window and the synchronisation policy are kept and read back (ptxi models
 * no L2 and never blocks, so they change nothing else); priority reads the stream's, the
 * memory-sync domain and its map their defaults. Others: cudaErrorInvalidValue. */
enum { ATTR_WINDOW = 1, ATTR_SYNC_POLICY = 3, ATTR_PRIORITY = 8, ATTR_DOMAIN_MAP = 9,
       ATTR_DOMAIN = 10 };
enum { ACCESS_PERSISTING = 2 };

struct rt_window { /* struct cudaAccessPolicyWindow */
	void *base;
	size_t bytes;
	float hit_ratio;
	int hit_prop, miss_prop;
};

static struct rt_stream legacy = {.sync_policy = -1}; /* the NULL and per-thread streams */

static struct rt_stream *stream_of(cudaStream_t s)
{
	return RT_STREAM_OBJECT(s) ? s : &legacy;
}

static cudaError_t set_window(struct rt_stream *st, const void *v)
{
	struct rt_window w;
	memcpy(&w, v, sizeof w);
	if (w.bytes > 134217728 /* cudaDevAttrMaxAccessPolicyWindowSize */ ||
	    !(w.hit_ratio >= 0.0f && w.hit_ratio <= 1.0f) || w.hit_prop < 0 ||
	    w.hit_prop > ACCESS_PERSISTING || w.miss_prop < 0 || w.miss_prop >= ACCESS_PERSISTING)
		return cudaErrorInvalidValue;
	memcpy(st->window, &w, sizeof w);
	return cudaSuccess;
}

EXPORT cudaError_t cudaStreamSetAttribute(cudaStream_t s, int id, const void *v)
{
	if (!v)
		return rt_ret(cudaErrorInvalidValue);
	struct rt_stream *st = stream_of(s);
	switch (id) {
	case ATTR_WINDOW:
		return rt_ret(set_window(st, v));
	case ATTR_SYNC_POLICY:
		memcpy(&st->sync_policy, v, sizeof st->sync_policy);
		return cudaSuccess;
	case ATTR_PRIORITY: /* taken, not applied: an H200 reads the creation's priority back */
	case ATTR_DOMAIN_MAP:
	case ATTR_DOMAIN:
		return cudaSuccess;
	default:
		return rt_ret(cudaErrorInvalidValue);
	}
}

EXPORT cudaError_t cudaStreamGetAttribute(cudaStream_t s, int id, void *v)
{
	if (!v)
		return rt_ret(cudaErrorInvalidValue);
	const struct rt_stream *st = stream_of(s);
	unsigned char map[2] = {0, 1}; /* default domain 0, remote domain 1 */
	int zero = 0;
	switch (id) {
	case ATTR_WINDOW:
		/* its fields, not the padding after them (an H200 writes 28 bytes) */
		memcpy(v, st->window, offsetof(struct rt_window, miss_prop) + sizeof(int));
		return cudaSuccess;
	case ATTR_SYNC_POLICY:
		memcpy(v, &st->sync_policy, sizeof st->sync_policy);
		return cudaSuccess;
	case ATTR_PRIORITY:
		memcpy(v, &st->priority, sizeof st->priority);
		return cudaSuccess;
	case ATTR_DOMAIN_MAP:
		memcpy(v, map, sizeof map);
		return cudaSuccess;
	case ATTR_DOMAIN:
		memcpy(v, &zero, sizeof zero);
		return cudaSuccess;
	default:
		return rt_ret(cudaErrorInvalidValue);
	}
}

EXPORT cudaError_t cudaStreamSetAttribute_ptsz(cudaStream_t s, int id, const void *v)
{
	return cudaStreamSetAttribute(s, id, v);
}

EXPORT cudaError_t cudaStreamGetAttribute_ptsz(cudaStream_t s, int id, void *v)
{
	return cudaStreamGetAttribute(s, id, v);
}
