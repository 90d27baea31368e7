/*
 * rt_stream.c - streams and events. Work runs when it is issued, in issue order, which keeps
 * every order CUDA promises (within a stream, and across streams through events); so a
 * stream is always idle once a call returns, and an event completes when it is recorded.
 * Elapsed times are host time between the records, at least a microsecond apart so that a
 * measured interval is positive.
 */
#include <stdlib.h>
#include <time.h>

#include "rt.h"

#define EXPORT __attribute__((visibility("default")))

struct rt_event {
	unsigned flags;
	bool recorded;
	double ms;
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
	e = rt_capture_unmodelled(s, "cudaStreamWaitEvent");
	rt_leave();
	return rt_ret(e);
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
	e = rt_capture_unmodelled(s, "cudaEventRecord");
	if (e == cudaSuccess) {
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
	cudaError_t e;
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
	return rt.sticky;
}

/* cudaEventDisableTiming */
#define EVENT_NO_TIMING 2u

EXPORT cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
	if (!ms || !start || !end)
		return rt_ret(cudaErrorInvalidValue);
	if ((start->flags | end->flags) & EVENT_NO_TIMING)
		return rt_ret(cudaErrorInvalidResourceHandle);
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
