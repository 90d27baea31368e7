/*
 * rt.h - ptxi's CUDA runtime (libcudart.so.13): the process's one device, its memory, the
 * modules nvcc's host stubs register and their kernels and variables, and the options
 * `ptxi exec` passes. The types are CUDA 13's, in its ABI (cuda_runtime_api.h and
 * driver_types.h give the layouts); every API takes rt.lock.
 */
#ifndef PTXI_RT_H
#define PTXI_RT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ptxi/ptxi.h"

#include "host/env.h"

typedef int cudaError_t;
enum {
	cudaSuccess = 0,
#define ERR(v, name, text) cudaError##name = v,
#include "errors.def"
#undef ERR
};

typedef struct { unsigned x, y, z; } dim3;
typedef struct rt_stream *cudaStream_t;
typedef struct rt_event *cudaEvent_t;
typedef struct rt_kernel *cudaKernel_t;

/* A stream: its work runs when issued, unless it is capturing (rt_capture.c). The handles
 * 0 (the legacy stream), 1 (cudaStreamLegacy) and 2 (cudaStreamPerThread) are no object. */
struct rt_stream {
	unsigned flags;
	int priority;
	unsigned char window[32];   /* cudaStreamAttributeAccessPolicyWindow, as set           */
	int sync_policy;            /* cudaStreamAttributeSynchronizationPolicy, as set        */
	struct rt_capture *cap;     /* the capture it records into (NULL: none)               */
};
#define RT_STREAM_OBJECT(s) ((uintptr_t)(s) > 2)

enum { cudaMemcpyHostToHost, cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost,
       cudaMemcpyDeviceToDevice, cudaMemcpyDefault };

#define RT_MAX_PARAMS 4096 /* a kernel's parameters (CUDA allows 32764 bytes of them) */

/* A kernel as __cudaRegisterFunction names it: the host stub's address, the PTX name. */
struct rt_kernel {
	const void *host_fun;
	char *name;
	struct rt_module *mod;
	int max_dyn_shared;         /* cudaFuncAttributeMaxDynamicSharedMemorySize            */
	unsigned cluster[3];        /* cudaFuncAttributeRequiredCluster* (0: none)            */
	bool launched;
};

/* A __device__, __constant__ or __managed__ variable. */
struct rt_var {
	const void *host;           /* the host shadow's address: the symbol programs name     */
	char *name;
	struct rt_module *mod;
	size_t size;
	bool is_const;
	void **managed;             /* __managed__: the host pointer the runtime fills         */
};

/* A registered fat binary: parsed and loaded once, at its first use. */
struct rt_module {
	const void *wrapper;        /* the fat binary (NULL: ptx given, cuModuleLoadData)     */
	unsigned nkernels, nvars;
	bool tried, ok;
	cudaError_t fail;           /* why it cannot run: no PTX, or PTX with errors          */
	char name[48];              /* "module1.ptx": diagnostics name the PTX by it            */
	char *ptx;
	ptxi_module *m;
	struct env_module em;
};

struct rt_options {
	struct ptxi_config base;    /* max_steps, keep_going, no_race, jobs, max_errors, heap  */
	enum ptxi_diag_format diag;
	const char *launch;         /* --launch N|KERNEL: traced / pictured launches          */
	const char *trace;          /* "mbarrier" | "all" | NULL                              */
	const char *ctas;           /* --ctas: the part of the grid picked launches run       */
	const char *timeline;       /* --timeline path                                        */
	int status_fd;              /* ptxi exec reads the counts here at exit (-1: none)     */
};

struct rt_state {
	pthread_mutex_t lock;
	bool init;
	struct memory *mem;
	struct rt_options opt;
	ptxi_report *report;
	struct rt_module **mods;
	unsigned nmods;
	struct rt_kernel **kernels;
	unsigned nkernels;
	struct rt_var **vars;
	unsigned nvars;
	cudaError_t last;           /* cudaGetLastError                                       */
	cudaError_t sticky;         /* a fault: every later call returns it                   */
	cudaError_t fault;          /* a fault the program is told of at its next
				     * synchronisation (then sticky), as a GPU tells it      */
	uint64_t launches, kernels_launched, errors;
	/* the launch running now, for its reports */
	uint64_t cur_launch;
	const struct rt_kernel *cur_kernel;
	dim3 cur_grid, cur_block;
	unsigned cur_cluster[3];
	bool cur_headed;
	cudaError_t cur_fault;
	/* device printf (stdout) and failed asserts' messages (stderr), shown at the next
	 * synchronisation as a GPU shows them */
	struct { char *s; size_t n; } held[2];
	/* configuration pushed by <<<>>> for the stub's launch */
	struct { dim3 grid, block; size_t shared; cudaStream_t stream; } pushed[16];
	unsigned npushed;
};

extern struct rt_state rt;

/* Take the lock and make the device on first use (memory, options). False: no device
 * (reported), with *err set. */
bool rt_enter(cudaError_t *err);
void rt_leave(void);
/* Return e from an API call, noting it for cudaGetLastError. */
cudaError_t rt_ret(cudaError_t e);
/* The API `name` is not provided: said on stderr, once per name; cudaErrorNotSupported. */
cudaError_t rt_unsupported(const char *name);
/* A message from the runtime on stderr ("ptxi: ..."), counted as an error when `error`. */
void rt_say(bool error, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A synchronisation: device output held since the last one shown, a fault of a kernel
 * made the sticky error. */
void rt_flush_prints(void);
/* The same, returning the sticky error. */
cudaError_t rt_sync(void);
/* The module of kernel k (or variable v), loaded: false when it cannot be (reported). */
bool rt_module_ready(struct rt_module *mod);
struct rt_kernel *rt_kernel_of(const void *host_fun);
struct rt_var *rt_var_of(const void *host);
/* Launch k. `cluster` NULL: the kernel's own (or none). */
cudaError_t rt_launch(struct rt_kernel *k, dim3 grid, dim3 block, size_t shared,
		      void **args, const unsigned *cluster, bool cooperative);
/* The error a launch of this shape gets (cudaSuccess: none). */
cudaError_t rt_bad_config(dim3 grid, dim3 block);
/* Whether [p, p+n) is device memory: 1 inside one live allocation, 0 not device memory at
 * all (host), -1 device addresses but not one allocation (reported, naming `what`). */
int rt_device_range(const void *p, size_t n, const char *what);
const char *rt_error_name(cudaError_t e);
/* The cudaHostRegister registration holding [p, p+n) (rt_hostreg.c), or NULL. */
struct region *rt_registered(const void *p, size_t n);
/* The driver's tensor-map functions (rt_entry.c), with their parameter lists. */
typedef int CUresult;
CUresult rt_tmap_tiled(void *map, int type, unsigned rank, void *addr, const uint64_t *dim,
		       const uint64_t *strides, const uint32_t *box, const uint32_t *estrides,
		       int interleave, int swizzle, int l2, int fill);
CUresult rt_tmap_im2col(void *map, int type, unsigned rank, void *addr, const uint64_t *dim,
			const uint64_t *strides, const int *lower, const int *upper,
			uint32_t channels, uint32_t pixels, const uint32_t *estrides, int interleave,
			int swizzle, int l2, int fill);
CUresult rt_tmap_replace_address(void *map, void *addr);
const char *rt_error_string(cudaError_t e);

/* rt_mem.c's checked copy and set, as cudaMemcpyAsync and cudaMemsetAsync do them (`what`
 * names the call in reports). */
cudaError_t rt_copy(void *dst, const void *src, size_t n, int kind, const char *what);
cudaError_t rt_set(void *p, int value, size_t n, const char *what);

/* ---- stream capture (rt_capture.c; rt_exec.c launches the graphs) ------------------- */
/* Whether s records its work into a graph instead of running it. */
bool rt_capturing(cudaStream_t s);
/* Before work issued to s (NULL, 1: the legacy stream) that is not recorded: the error CUDA
 * gives when a capture forbids it, that capture then invalidated; cudaSuccess otherwise.
 * `waits`: the host waits for the work (cudaMemcpy, cudaStreamSynchronize), which a capture
 * of s, or one that is not relaxed, forbids. */
cudaError_t rt_capture_check(cudaStream_t s, bool waits);
/* Before a call that is no stream's work and that a capture that is not relaxed forbids
 * (cudaMalloc, cudaFree, cudaDeviceSynchronize): the same. */
cudaError_t rt_capture_unsafe(void);
/* Asynchronous work to a capturing stream that ptxi does not record: said, the capture
 * invalidated, cudaErrorNotSupported. cudaSuccess when s is not capturing. */
cudaError_t rt_capture_unmodelled(cudaStream_t s, const char *what);
/* Record work into capturing stream s (the arguments' bytes are copied now). */
cudaError_t rt_capture_kernel(cudaStream_t s, struct rt_kernel *k, dim3 grid, dim3 block,
			      size_t shared, void **args, const unsigned *cluster, bool cooperative);
cudaError_t rt_capture_copy(cudaStream_t s, void *dst, const void *src, size_t n, int kind);
cudaError_t rt_capture_set(cudaStream_t s, void *p, int value, size_t n);
cudaError_t rt_capture_host(cudaStream_t s, void (*fn)(void *), void *data);
/* cudaMallocAsync and cudaFreeAsync in a capture: a graph's alloc and free nodes. */
cudaError_t rt_capture_alloc(cudaStream_t s, void **p, size_t n);
cudaError_t rt_capture_free(cudaStream_t s, void *p);
/* cudaStreamDestroy of a capturing stream: its capture ends, its graph freed (a stream that
 * joined another's capture leaves it, which cannot end well then). */
void rt_capture_drop(cudaStream_t s);
/* An event's record in a capture: the nodes that work waiting for it depends on. */
struct rt_event_capture {
	unsigned long long capture; /* the capture's id (0: not recorded in one)              */
	struct rt_gnode **deps;
	size_t n;
};
/* cudaEventRecord into stream s: in a capture, the stream's last work noted in *ec; else
 * *ec cleared (cudaSuccess), the record then the caller's. */
cudaError_t rt_capture_record(cudaStream_t s, struct rt_event_capture *ec);
/* cudaStreamWaitEvent of s on an event recorded in a capture (or s capturing): s joins
 * that capture, or its next work depends on the event's nodes too. */
cudaError_t rt_capture_wait(cudaStream_t s, const struct rt_event_capture *ec);
/* Whether the event's record is in a capture still in progress. */
bool rt_capture_event_live(const struct rt_event_capture *ec);
/* The same, for a call that waits for or reads the event: that capture is invalidated (as an
 * H200 does, answering cudaErrorCapturedEvent). */
bool rt_capture_event_used(const struct rt_event_capture *ec);

#endif
