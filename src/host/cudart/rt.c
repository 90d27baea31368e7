/*
 * rt.c - the runtime's process-wide state: the device made on first use (memory at the
 * addresses the program sees, options from `ptxi exec`), errors as CUDA keeps them (the
 * last error, sticky faults), device printf held until a synchronisation, the reports of
 * each launch headed by its kernel, number and grid, and the counts at exit.
 */
#include "rt.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "host/report.h"

struct rt_state rt = {.lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP};

#define DEVICE_BYTES (80ull << 30) /* an H100 SXM's HBM3, the most cudaMalloc gives */

const char *rt_error_name(cudaError_t e)
{
	if (e == cudaSuccess)
		return "cudaSuccess";
	switch (e) {
#define ERR(v, name, text) case v: return "cudaError" #name;
#include "errors.def"
#undef ERR
	}
	return "unrecognized error code";
}

const char *rt_error_string(cudaError_t e)
{
	switch (e) {
#define ERR(v, name, text) case v: return text;
#include "errors.def"
#undef ERR
	}
	return "unrecognized error code";
}

static const char *env(const char *name)
{
	const char *v = getenv(name);
	return v && *v ? v : NULL;
}

static uint64_t env_num(const char *name, uint64_t dflt)
{
	const char *v = env(name);
	return v ? strtoull(v, NULL, 0) : dflt;
}

/* An address outside device memory that this process has mapped (mincore fails with
 * ENOMEM on an unmapped page). */
static bool host_mapped(uint64_t addr)
{
	long pg = sysconf(_SC_PAGESIZE);
	unsigned char v;
	void *page = (void *)(uintptr_t)(addr & ~(uint64_t)(pg - 1));
	return addr >= (uint64_t)pg && mincore(page, 1, &v) == 0;
}

static void options(struct rt_options *o)
{
	memset(o, 0, sizeof *o);
	o->base.max_steps = env_num("PTXI_MAX_STEPS", 0);
	o->base.keep_going = env("PTXI_KEEP_GOING") != NULL;
	o->base.no_race = env("PTXI_NO_RACE") != NULL;
	o->base.jobs = (unsigned)env_num("PTXI_JOBS", 0); /* 0: one per CPU */
	o->base.max_errors = (uint32_t)env_num("PTXI_MAX_ERRORS", 0);
	o->base.max_memory = UINT64_MAX;
	const char *d = env("PTXI_DIAGNOSTICS");
	o->diag = d && !strcmp(d, "json") ? PTXI_DIAG_JSON
		  : d && !strcmp(d, "sarif") ? PTXI_DIAG_SARIF : PTXI_DIAG_TEXT;
	o->launch = env("PTXI_LAUNCH");
	o->trace = env("PTXI_TRACE");
	o->ctas = env("PTXI_CTAS");
	o->timeline = env("PTXI_TIMELINE");
	o->status_fd = (int)env_num("PTXI_STATUS_FD", (uint64_t)-1);
}

static void at_exit(void);

bool rt_enter(cudaError_t *err)
{
	pthread_mutex_lock(&rt.lock);
	if (rt.init && rt.mem)
		return true;
	if (!rt.init) {
		rt.init = true;
		options(&rt.opt);
		if (rt.opt.diag != PTXI_DIAG_TEXT)
			rt.report = ptxi_report_new(rt.opt.diag, stderr);
		rt.mem = mem_create_mapped(DEVICE_BYTES + (1ull << 30));
		if (rt.mem) {
			rt.mem->limit = DEVICE_BYTES;
			rt.mem->is_host = host_mapped;
		} else {
			fprintf(stderr, "ptxi: cannot reserve the device's address range at 0x%llx "
				"or 0x%llx (%s): no CUDA device\n", (unsigned long long)GLOBAL_BASE,
				(unsigned long long)MAPPED_BASE_ALT, strerror(errno));
		}
		atexit(at_exit);
	}
	if (!rt.mem) {
		*err = cudaErrorNoDevice;
		rt.last = cudaErrorNoDevice;
		pthread_mutex_unlock(&rt.lock);
		return false;
	}
	return true;
}

void rt_leave(void)
{
	pthread_mutex_unlock(&rt.lock);
}

cudaError_t rt_ret(cudaError_t e)
{
	if (e != cudaSuccess)
		rt.last = e;
	return e;
}

void rt_say(bool error, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (error)
		rt.errors++;
	fflush(stdout);
	fprintf(stderr, "ptxi: %s%s\n", error ? "error: " : "", msg);
}

cudaError_t rt_unsupported(const char *name)
{
	static char said[64][64];
	static unsigned nsaid;
	pthread_mutex_lock(&rt.lock);
	bool seen = false;
	for (unsigned i = 0; i < nsaid && !seen; i++)
		seen = !strcmp(said[i], name);
	if (!seen) {
		if (nsaid < 64)
			snprintf(said[nsaid++], sizeof said[0], "%s", name);
		bool driver = !strncmp(name, "cu", 2) && strncmp(name, "cuda", 4);
		rt_say(true, "%s is not provided by ptxi's CUDA %s: the program gets %s", name,
		       driver ? "driver" : "runtime",
		       driver ? "CUDA_ERROR_NOT_SUPPORTED" : "cudaErrorNotSupported");
	}
	rt.last = cudaErrorNotSupported;
	pthread_mutex_unlock(&rt.lock);
	return cudaErrorNotSupported;
}

void rt_flush_prints(void)
{
	if (rt.fault && !rt.sticky)
		rt.sticky = rt.fault;
	for (int i = 0; i < 2; i++) {
		if (!rt.held[i].n)
			continue;
		FILE *f = i ? stderr : stdout;
		fwrite(rt.held[i].s, 1, rt.held[i].n, f);
		fflush(f);
		free(rt.held[i].s);
		rt.held[i].s = NULL;
		rt.held[i].n = 0;
	}
}

cudaError_t rt_sync(void)
{
	rt_flush_prints();
	return rt.sticky;
}

/* ---- the counts at exit ------------------------------------------------------------- */

static void at_exit(void)
{
	pthread_mutex_lock(&rt.lock);
	rt_flush_prints();
	char sum[200];
	snprintf(sum, sizeof sum, "%llu error%s in %llu launch%s of %llu kernel%s",
		 (unsigned long long)rt.errors, rt.errors == 1 ? "" : "s",
		 (unsigned long long)rt.launches, rt.launches == 1 ? "" : "es",
		 (unsigned long long)rt.kernels_launched, rt.kernels_launched == 1 ? "" : "s");
	fflush(stdout);
	if (rt.report) { /* the summary is the document's last note: stderr holds data only */
		struct diag_record n = {.level = DIAG_NOTE, .rule = "summary", .rule_len = 7,
					.msg = sum, .msg_len = strlen(sum)};
		report_record(rt.report, &n);
		ptxi_report_finish(rt.report);
		rt.report = NULL;
	} else {
		fprintf(stderr, "ptxi: %s\n", sum);
	}
	if (rt.opt.status_fd >= 0) {
		char line[64];
		int n = snprintf(line, sizeof line, "%llu\n", (unsigned long long)rt.errors);
		if (write(rt.opt.status_fd, line, (size_t)n) != n)
			fprintf(stderr, "ptxi: could not tell ptxi exec the error count\n");
	}
	pthread_mutex_unlock(&rt.lock);
}
