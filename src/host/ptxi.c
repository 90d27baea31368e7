/*
 * ptxi.c - the library's public entry points: load + check a module, configure and run a
 * launch (kernel choice, shape checks, argument binding, memory set-up), read results.
 */
#include "ptxi/ptxi.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hopper/async.h"
#include "bind.h"
#include "ctasel.h"
#include "env.h"
#include "check/check.h"
#include "support/demangle.h"
#include "run/devrt.h"
#include "run/frame.h"
#include "report/gather.h"
#include "run/jit.h"
#include "run/jobs.h"
#include "hopper/landed.h"
#include "run/launch.h"
#include "run/load.h"
#include "hopper/mbarrier.h"
#include "run/memory.h"
#include "inputkind.h"
#include "modinfo.h"
#include "occupancy.h"
#include "ptxi_priv.h"
#include "run/sched.h"
#include "severity.h"
#include "report/timeline.h"
#include "report/srcloc.h"
#include "hopper/tmap.h"
#include "hopper/wgmma.h"

#define DEFAULT_MAX_STEPS 300000000ull /* warp-instructions: ~10 s of a spinning loop */

struct ptxi_module {
	struct src_file file;
	char *path;             /* the file's path or name as given: the module's own copy    */
	bool owns_text;
	struct arena *arena;
	struct diag diag;
	ptxi_sink *sink;
	void *ctx;
	struct ir_module *ir;
	struct ck *check;       /* the static checker, from the first function body on        */
	unsigned check_errors;  /* errors it reported (the rest of diag.nerrors are parse errors) */
	struct dprog *prog;
	bool load_tried;
	uint64_t global_base;   /* where the .global block goes (0: GLOBAL_BASE)              */
};

struct ptxi_run {
	struct memory *mem;
	bool env_mem;           /* mem is the caller's (env_launch), not the run's           */
	uint64_t *buf_addr;     /* per argument: buffer address or 0                          */
	size_t *buf_size;
	unsigned nargs;
	const struct ptxi_set *named; /* the named buffers (--buffer) and their addresses       */
	uint64_t *named_addr;
	unsigned nnamed;
	uint8_t *params;        /* the parameter block as bound, and each argument's place    */
	uint32_t *param_off, *param_len;
	uint8_t *const_bank;    /* the .const bank of the launch                              */
	uint64_t warp_insns, thread_insns;
	uint64_t peak_memory;
	bool stopped;           /* the launch stopped before every thread exited             */
};

static void sink_adapter(void *ctx, enum diag_level level, const char *text)
{
	ptxi_module *m = ctx;
	if (m->sink)
		m->sink(m->ctx, (int)level, text);
	else
		fputs(text, stderr);
}

static ptxi_module *module_new(ptxi_sink *sink, void *ctx)
{
	ptxi_module *m = calloc(1, sizeof *m);
	if (!m)
		return NULL;
	m->sink = sink;
	m->ctx = ctx;
	m->diag.sink = sink_adapter;
	m->diag.ctx = m;
	m->diag.max_errors = 50;
	m->arena = arena_create();
	if (!m->arena) {
		free(m);
		return NULL;
	}
	return m;
}

/* Check a body as soon as the parser closes it, while it is in cache; after a syntax error
 * the checks stop, as they would only add noise about a module that is not what was meant.
 * An undeclared name is no such error: the function's other errors are still reported. */
static void check_body(ptxi_module *m, struct ir_module *ir, const struct ir_func *f)
{
	if (m->diag.nerrors > m->check_errors + ir->nundeclared)
		return;
	unsigned before = m->diag.nerrors;
	if (!m->check) {
		m->check = check_begin(ir);
		check_set_loc_note(m->check, srcloc_from_note);
	}
	if (f)
		check_func(m->check, f);
	m->check_errors += m->diag.nerrors - before;
}

static void func_done(void *ctx, struct ir_module *ir, struct ir_func *f)
{
	check_body(ctx, ir, f);
}

static int usage_error(ptxi_module *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Parse and check; with `drop_bodies` (ptxi check) no body outlives its check. */
static void module_parse(ptxi_module *m, bool drop_bodies)
{
	jmp_buf oom;
	jmp_buf *prev = arena_catch_oom(&oom);
	if (setjmp(oom)) {
		arena_catch_oom(prev);
		m->ir = NULL;
		m->check = NULL;
		usage_error(m, "out of memory reading the module");
		return;
	}
	struct ir_hooks hooks = {.func_done = func_done, .ctx = m, .drop_bodies = drop_bodies};
	m->ir = ir_parse(m->arena, &m->diag, &m->file, &hooks);
	check_body(m, m->ir, NULL); /* the header, when no function body did it */
	if (m->check)
		check_end(m->check);
	m->check = NULL;
	arena_catch_oom(prev);
}

ptxi_module *module_read(const char *path, ptxi_sink *sink, void *ctx, diag_record_fn *record,
			 void *record_ctx, bool drop_bodies, const ptxi_severities *sev)
{
	ptxi_module *m = module_new(sink, ctx);
	if (!m)
		return NULL;
	m->diag.check_sev = severities_checks(sev);
	if (record) {
		m->diag.record = record;
		m->diag.record_ctx = record_ctx;
	}
	m->path = strdup(path);
	if (!m->path) {
		ptxi_module_free(m);
		return NULL;
	}
	if (src_file_read(&m->file, m->path) != 0) {
		char msg[512];
		if (errno == EFBIG)
			snprintf(msg, sizeof msg, "cannot read '%s': larger than the %zu MiB ptxi "
				 "reads (%zu MiB from a pipe or device)", path, SRC_MAX_BYTES >> 20,
				 SRC_MAX_STREAM >> 20);
		else
			snprintf(msg, sizeof msg, "cannot read '%s': %s", path, strerror(errno));
		diag_emit(&m->diag, DIAG_ERROR, NULL, (struct src_span){0, 0}, NULL, msg);
		ptxi_module_free(m);
		return NULL;
	}
	m->owns_text = true;
	char why[1024];
	if (inputkind_explain(&m->file, path, why, sizeof why)) { /* a .cu, an ELF, a fatbin */
		diag_emit(&m->diag, DIAG_ERROR, NULL, (struct src_span){0, 0}, NULL, why);
		ptxi_module_free(m);
		return NULL;
	}
	module_parse(m, drop_bodies);
	return m;
}

ptxi_module *ptxi_module_load(const char *path, ptxi_sink *sink, void *ctx)
{
	return module_read(path, sink, ctx, NULL, NULL, false, NULL);
}

int check_file(const char *path, ptxi_sink *sink, void *ctx, diag_record_fn *record,
	       void *record_ctx, const ptxi_severities *sev)
{
	ptxi_module *m = module_read(path, sink, ctx, record, record_ctx, true, sev);
	int status = m && m->diag.nerrors == 0 ? PTXI_OK : PTXI_INVALID;
	ptxi_module_free(m);
	return status;
}

int ptxi_check(const char *path, ptxi_sink *sink, void *ctx)
{
	return check_file(path, sink, ctx, NULL, NULL, NULL);
}

const char *ptxi_version(void)
{
	return PTXI_VERSION;
}

ptxi_module *module_from_string(const char *name, const char *text, ptxi_sink *sink, void *ctx,
				diag_record_fn *record, void *record_ctx)
{
	ptxi_module *m = module_new(sink, ctx);
	if (!m)
		return NULL;
	if (record) {
		m->diag.record = record;
		m->diag.record_ctx = record_ctx;
	}
	if (!(m->path = strdup(name))) {
		ptxi_module_free(m);
		return NULL;
	}
	src_file_from_string(&m->file, m->path, text);
	module_parse(m, false);
	return m;
}

ptxi_module *ptxi_module_load_string(const char *name, const char *text, ptxi_sink *sink,
				     void *ctx)
{
	return module_from_string(name, text, sink, ctx, NULL, NULL);
}

unsigned ptxi_module_errors(const ptxi_module *m)
{
	return m->diag.nerrors;
}

unsigned ptxi_module_warnings(const ptxi_module *m)
{
	return m->diag.nwarnings;
}

void ptxi_module_free(ptxi_module *m)
{
	if (!m)
		return;
	if (m->owns_text)
		src_file_free(&m->file);
	else
		free(m->file.line_starts);
	if (m->prog)
		jit_free(m->prog);
	arena_destroy(m->arena);
	free(m->path);
	free(m);
}

/* ---- launch -------------------------------------------------------------------------- */

static int usage_error(ptxi_module *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int usage_error(ptxi_module *m, const char *fmt, ...)
{
	char msg[600];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	diag_emit(&m->diag, DIAG_ERROR, NULL, (struct src_span){0, 0}, NULL, msg);
	return PTXI_INVALID;
}

static bool is_kernel(const struct dfunc *f)
{
	return f->ir->is_entry && f->ir->has_body;
}

/* How well `want` names kernel f: 3 its PTX name, 2 its demangled name, 1 its demangled
 * name without the parameter list ("ws_pipeline" for "ws_pipeline(int*)"), 0 a part of
 * either, -1 not at all. */
static int name_match(const struct dfunc *f, const char *want)
{
	if (strcmp(f->name, want) == 0)
		return 3;
	char *d = demangle_alloc(f->name);
	int how = -1;
	if (d) {
		size_t n = strcspn(d, "(");
		if (strcmp(d, want) == 0)
			how = 2;
		else if (strlen(want) == n && strncmp(d, want, n) == 0)
			how = 1;
		else if (strstr(d, want))
			how = 0;
	}
	if (how < 0 && strstr(f->name, want))
		how = 0;
	free(d);
	return how;
}

/* The kernel `name` names (NULL: the only one). *ambiguous is set when the best match is
 * shared by several kernels. */
static struct dfunc *find_kernel(ptxi_module *m, const char *name, bool *ambiguous)
{
	struct dfunc *best = NULL;
	int best_how = -1;
	unsigned n = 0;
	*ambiguous = false;
	for (uint32_t i = 0; i < m->prog->nfuncs; i++) {
		struct dfunc *f = &m->prog->funcs[i];
		if (!is_kernel(f))
			continue;
		int how = name ? name_match(f, name) : 0;
		if (how > best_how) {
			best = f;
			best_how = how;
			n = 1;
		} else if (how == best_how && how >= 0) {
			n++;
		}
	}
	*ambiguous = n > 1 && best_how < 3;
	return n == 1 || best_how == 3 ? best : NULL;
}

/* The kernels' names, demangled, as a list for a message. */
static void list_kernels(ptxi_module *m, const char *part, char *buf, size_t size)
{
	size_t used = 0;
	buf[0] = '\0';
	for (uint32_t i = 0; i < m->prog->nfuncs && used + 4 < size; i++) {
		struct dfunc *f = &m->prog->funcs[i];
		if (!is_kernel(f) || (part && name_match(f, part) < 0))
			continue;
		char d[200];
		used += (size_t)snprintf(buf + used, size - used, "%s%s", used ? ", " : "",
					 demangle_name(f->name, d, sizeof d));
	}
}

/* The grid a launch may ask for on sm_90 (cudaDeviceProp maxGridSize; maxThreadsDim is
 * 1024 in x and y, 64 in z). */
static const uint32_t max_grid[3] = {0x7fffffff, 65535, 65535};

static int check_shape(ptxi_module *m, struct dfunc *k, struct launch_config *c,
		       const struct ptxi_config *cfg)
{
	const struct ir_perf *p = &k->ir->perf;
	if (!cfg->cluster_given) {
		for (int d = 0; d < 3; d++)
			c->cluster[d] = p->reqnctapercluster[d] ? p->reqnctapercluster[d] : 1;
		c->explicit_cluster = p->reqnctapercluster[0] || p->explicitcluster;
	}
	uint64_t threads = 1, ctas = 1;
	for (int d = 0; d < 3; d++) {
		if (!c->grid[d] || !c->block[d] || !c->cluster[d])
			return usage_error(m, "grid, block and cluster sizes must be at least 1");
		if (c->grid[d] > max_grid[d])
			return usage_error(m, "a grid has at most %u CTAs in %c (asked for %u)",
					   max_grid[d], "xyz"[d], c->grid[d]);
		if (c->grid[d] % c->cluster[d])
			return usage_error(m, "the grid (%u,%u,%u) is not a whole number of clusters "
					   "(%u,%u,%u)", c->grid[0], c->grid[1], c->grid[2],
					   c->cluster[0], c->cluster[1], c->cluster[2]);
		if (p->reqnctapercluster[d] && c->cluster[d] != p->reqnctapercluster[d])
			return usage_error(m, "kernel '%s' requires clusters of (%u,%u,%u) CTAs "
					   "(.reqnctapercluster)", k->name, p->reqnctapercluster[0],
					   p->reqnctapercluster[1], p->reqnctapercluster[2]);
		if (p->reqntid[0] && c->block[d] != (p->reqntid[d] ? p->reqntid[d] : 1))
			return usage_error(m, "kernel '%s' requires blocks of (%u,%u,%u) threads "
					   "(.reqntid)", k->name, p->reqntid[0],
					   p->reqntid[1] ? p->reqntid[1] : 1, p->reqntid[2] ? p->reqntid[2] : 1);
		threads *= c->block[d];
		ctas *= c->cluster[d];
	}
	if (threads > 1024)
		return usage_error(m, "a block has at most 1024 threads (asked for %llu)",
				   (unsigned long long)threads);
	if (c->block[2] > 64)
		return usage_error(m, "a block has at most 64 threads in z (asked for %u)", c->block[2]);
	uint64_t maxn = (uint64_t)(p->maxntid[0] ? p->maxntid[0] : 1024) *
			(p->maxntid[1] ? p->maxntid[1] : 1) * (p->maxntid[2] ? p->maxntid[2] : 1);
	if (p->maxntid[0] && threads > maxn)
		return usage_error(m, "kernel '%s' allows at most %llu threads per block (.maxntid)",
				   k->name, (unsigned long long)maxn);
	if (ctas > 16)
		return usage_error(m, "a cluster has at most 16 CTAs (asked for %llu)",
				   (unsigned long long)ctas);
	if (p->maxclusterrank && ctas > p->maxclusterrank)
		return usage_error(m, "kernel '%s' allows at most %u CTAs per cluster "
				   "(.maxclusterrank)", k->name, p->maxclusterrank);
	if ((uint64_t)k->shared_dyn_off + c->dyn_shared > 227 * 1024)
		return usage_error(m, "shared memory of %llu bytes per CTA is above the 227 KiB of "
				   "an sm_90 CTA", (unsigned long long)k->shared_dyn_off + c->dyn_shared);
	return PTXI_OK;
}

/* --ctas: the clusters the launch runs, said in a note; a bad list is a usage error. */
static int select_ctas(ptxi_module *m, struct launch *L, const char *spec, struct ctasel *sel)
{
	char why[300], list[200];
	if (ctasel_parse(spec, L->cfg.grid, L->cfg.cluster, sel, why, sizeof why) != 0)
		return usage_error(m, "%s", why);
	L->run_clusters = sel->clusters;
	L->clusters = sel->nclusters;
	ctasel_describe(sel, L->cfg.grid, L->cfg.cluster, list, sizeof list);
	bool whole = L->cfg.cluster[0] * L->cfg.cluster[1] * L->cfg.cluster[2] > 1;
	char msg[600];
	snprintf(msg, sizeof msg, "--ctas: %llu of %llu CTAs run (%s)%s; the others do not run "
		 "and leave memory as it was: --dump, --out and --expect show only these CTAs' "
		 "writes", (unsigned long long)sel->ctas, (unsigned long long)sel->total, list,
		 whole ? ", each with its whole cluster" : "");
	diag_emit(&m->diag, DIAG_NOTE, NULL, (struct src_span){0, 0}, NULL, msg);
	return PTXI_OK;
}

/* A cooperative launch (ptxi_config.cooperative): its CTAs wait for one another, so it runs
 * whole, and only a grid an H100 holds at once may be launched (cudaLaunchCooperativeKernel
 * refuses a larger one with cudaErrorCooperativeLaunchTooLarge). */
static int check_cooperative(ptxi_module *m, const struct launch *L, const struct ptxi_config *cfg)
{
	const struct launch_config *k = &L->cfg;
	if (cfg->ctas)
		return usage_error(m, "--ctas cannot run part of a cooperative launch: its CTAs "
				   "wait for one another (this_grid().sync())");
	uint64_t threads = (uint64_t)k->block[0] * k->block[1] * k->block[2];
	uint64_t ctas = (uint64_t)k->grid[0] * k->grid[1] * k->grid[2];
	uint64_t smem = k->dyn_shared ? (uint64_t)L->kernel->shared_dyn_off + k->dyn_shared
				      : L->kernel->shared_static;
	uint32_t per_sm = occ_ctas_per_sm(threads, smem);
	if (ctas > (uint64_t)OCC_SMS * per_sm)
		return usage_error(m, "a cooperative launch's CTAs must all be resident at once: "
				   "an H100 holds %u CTAs of %llu threads and %llu bytes of shared "
				   "memory (%u SMs, %u each; registers are not counted), and the grid "
				   "has %llu", OCC_SMS * per_sm, (unsigned long long)threads,
				   (unsigned long long)smem, OCC_SMS, per_sm, (unsigned long long)ctas);
	return PTXI_OK;
}

/* The grid-sync workspace of a cooperative launch, made at the memory's first and kept (a
 * later launch on the same memory, ptxi exec's, sees its address too, as on a GPU). Each
 * cooperative launch writes it afresh as an H200's driver does: its size (16), the barrier
 * counter (0), then 1 and 0. */
static int grid_workspace(ptxi_module *m, struct memory *mem)
{
	static const uint32_t init[4] = {16, 0, 1, 0};
	if (!mem->grid_ws && !(mem->grid_ws = mem_alloc(mem, sizeof init, "grid-sync workspace")))
		return bind_memory_error(&m->diag, mem, sizeof init, "the grid-sync workspace");
	memcpy(mem_find(mem, mem->grid_ws, sizeof init)->data, init, sizeof init);
	return PTXI_OK;
}

/* The decoded program, loaded at the first launch. NULL (reported) if it cannot run. */
static struct dprog *module_prog(ptxi_module *m)
{
	if (!m->ir || m->diag.nerrors) {
		usage_error(m, "the module has errors: it cannot be launched");
		return NULL;
	}
	if (!m->load_tried) {
		m->load_tried = true;
		jmp_buf oom;
		jmp_buf *prev = arena_catch_oom(&oom);
		if (setjmp(oom)) {
			arena_catch_oom(prev);
			m->prog = NULL;
			usage_error(m, "out of memory loading the module");
			return NULL;
		}
		m->prog = load_program_at(m->ir, m->global_base ? m->global_base : GLOBAL_BASE);
		arena_catch_oom(prev);
		return m->prog; /* the loader reported why not */
	}
	if (!m->prog)
		usage_error(m, "the module cannot be launched: the loader rejected it (at its first "
			    "launch)");
	return m->prog;
}

int ptxi_module_info(ptxi_module *m, const char *path, FILE *out)
{
	if (!module_prog(m))
		return PTXI_INVALID;
	modinfo_write(m->ir, m->prog, path, out);
	return PTXI_OK;
}

int ptxi_kernel_count(ptxi_module *m)
{
	unsigned errors = m->diag.nerrors; /* the module's counts are its load's */
	int n = module_prog(m) ? (int)modinfo_kernels(m->ir) : -1;
	m->diag.nerrors = errors;
	return n;
}

int ptxi_kernel_describe(ptxi_module *m, unsigned k, struct ptxi_kernel_info *out,
			 struct ptxi_param_info *params, unsigned max)
{
	unsigned errors = m->diag.nerrors;
	bool loaded = module_prog(m) != NULL;
	m->diag.nerrors = errors;
	if (!loaded)
		return PTXI_INVALID;
	jmp_buf oom;
	jmp_buf *prev = arena_catch_oom(&oom);
	if (setjmp(oom)) {
		arena_catch_oom(prev);
		return PTXI_INVALID;
	}
	bool ok = modinfo_describe(m->ir, m->arena, m->prog, k, out, params, max);
	arena_catch_oom(prev);
	return ok ? PTXI_OK : PTXI_INVALID;
}

int ptxi_kernel_params(ptxi_module *m, const char *kernel, size_t *sizes, unsigned max,
		       unsigned *ptr_size)
{
	unsigned errors = m->diag.nerrors;
	bool ambiguous;
	struct dfunc *k = module_prog(m) ? find_kernel(m, kernel, &ambiguous) : NULL;
	m->diag.nerrors = errors;
	if (!k)
		return -1;
	const struct ir_func *f = k->ir;
	for (unsigned i = 0; i < f->nparams && i < max; i++)
		sizes[i] = (size_t)ir_sym_bytes(f->params[i]);
	*ptr_size = m->ir->address_size == 32 ? 4 : 8;
	return (int)f->nparams;
}

/* The parameter block as bound, for --dump N@OFF after the run. */
static void keep_params(ptxi_run *run, const struct launch *L)
{
	const struct ir_func *f = L->kernel->ir;
	run->params = malloc(L->kparam_size ? L->kparam_size : 1);
	run->param_off = calloc(f->nparams + 1, sizeof *run->param_off);
	run->param_len = calloc(f->nparams + 1, sizeof *run->param_len);
	if (!run->params || !run->param_off || !run->param_len)
		return; /* then ptxi_run_param answers NULL */
	memcpy(run->params, L->kparams, L->kparam_size);
	for (uint32_t i = 0; i < f->nparams; i++) {
		run->param_off[i] = (uint32_t)f->params[i]->addr;
		run->param_len[i] = (uint32_t)ir_sym_bytes(f->params[i]);
	}
}

/* env_launch: the parameter block from CUDA's void **args, each parameter's bytes. */
static int env_params(ptxi_module *m, struct launch *L, void *const *params)
{
	const struct ir_func *f = L->kernel->ir;
	L->kparam_size = L->kernel->kparam_size;
	L->kparams = calloc(1, L->kparam_size ? L->kparam_size : 1);
	if (!L->kparams)
		return usage_error(m, "out of memory");
	for (uint32_t i = 0; i < f->nparams; i++) {
		if (!params || !params[i])
			return usage_error(m, "kernel '%s': no value for parameter %u", L->kernel->name,
					   i + 1);
		memcpy(L->kparams + f->params[i]->addr, params[i], (size_t)ir_sym_bytes(f->params[i]));
	}
	return PTXI_OK;
}

static int launch(ptxi_module *m, const struct ptxi_config *cfg, const struct ptxi_arg *args,
		  unsigned nargs, ptxi_run **out, const struct env_module *em, void *const *params,
		  FILE *const *print, unsigned *errors)
{
	if (!module_prog(m))
		return PTXI_INVALID;
	struct launch L;
	memset(&L, 0, sizeof L);
	L.P = m->prog;
	L.diag = &m->diag;
	L.file = &m->file;
	bool ambiguous;
	L.kernel = find_kernel(m, cfg->kernel, &ambiguous);
	if (!L.kernel) {
		char names[400];
		list_kernels(m, ambiguous ? cfg->kernel : NULL, names, sizeof names);
		if (cfg->kernel && ambiguous)
			return usage_error(m, "--kernel '%s' names several kernels (%s): name one "
					   "in full", cfg->kernel, names);
		if (cfg->kernel)
			return usage_error(m, "no kernel named '%s' (kernels: %s)", cfg->kernel,
					   names[0] ? names : "none");
		return usage_error(m, "the module has %s kernels (%s): name one with --kernel",
				   names[0] ? "several" : "no", names[0] ? names : "none");
	}
	if (!cfg->no_jit)
		jit_prepare(m->prog, L.kernel);
	if (cfg->trace_lines_file && cfg->trace_lines[1] &&
	    !srcloc_names_file(m->prog->m, cfg->trace_lines_file))
		return usage_error(m, "--trace-lines: no .loc of the module names source file "
				   "'%s' (nvcc -lineinfo writes them)", cfg->trace_lines_file);
	memcpy(L.cfg.grid, cfg->grid, sizeof L.cfg.grid);
	memcpy(L.cfg.block, cfg->block, sizeof L.cfg.block);
	memcpy(L.cfg.cluster, cfg->cluster, sizeof L.cfg.cluster);
	L.cfg.explicit_cluster = cfg->cluster_given;
	L.cfg.dyn_shared = cfg->dyn_shared;
	L.cfg.seed = cfg->seed;
	L.cfg.keep_going = cfg->keep_going;
	L.cfg.no_race = cfg->no_race;
	L.cfg.no_jit = cfg->no_jit;
	L.cfg.trace_print = cfg->trace_mbarrier || cfg->trace_all;
	L.cfg.trace_mbar = L.cfg.trace_print || cfg->timeline_out;
	L.cfg.trace_all = cfg->trace_all;
	L.cfg.trace_cta_given = cfg->trace_cta_given;
	memcpy(L.cfg.trace_cta, cfg->trace_cta, sizeof L.cfg.trace_cta);
	L.cfg.trace_warp_given = cfg->trace_warp_given;
	L.cfg.trace_warp = cfg->trace_warp;
	memcpy(L.cfg.trace_lines, cfg->trace_lines, sizeof L.cfg.trace_lines);
	L.cfg.trace_lines_file = cfg->trace_lines_file;
	L.cfg.trace_width = cfg->trace_width;
	L.cfg.heap_size = cfg->heap_bytes ? cfg->heap_bytes : DEVRT_HEAP_DEFAULT;
	L.cfg.out = print ? print[0] : NULL;
	L.cfg.assert_out = print ? print[1] : NULL;
	L.cfg.rule_sev = severities_rules(cfg->severities);
	if (cfg->max_errors)
		m->diag.max_errors = cfg->max_errors == UINT32_MAX ? 0 : cfg->max_errors;
	L.trace = cfg->trace_out;
	L.max_steps = cfg->max_steps ? cfg->max_steps : DEFAULT_MAX_STEPS;
	L.progress = cfg->progress;
	L.progress_ctx = cfg->progress_ctx;
	L.interrupt = cfg->interrupt;
	async_init(&L);
	wgmma_launch_init(&L);
	int st = check_shape(m, L.kernel, &L.cfg, cfg);
	if (st)
		return st;
	L.cfg.cooperative = cfg->cooperative;
	if (cfg->cooperative && (st = check_cooperative(m, &L, cfg)) != PTXI_OK)
		return st;
	struct ctasel sel = {0};
	if (cfg->ctas && (st = select_ctas(m, &L, cfg->ctas, &sel)) != PTXI_OK)
		return st;
	ptxi_run *run = calloc(1, sizeof *run);
	if (!run) {
		free(sel.clusters);
		return usage_error(m, "out of memory");
	}
	run->nargs = nargs;
	run->buf_addr = calloc(nargs + 1, sizeof *run->buf_addr);
	run->buf_size = calloc(nargs + 1, sizeof *run->buf_size);
	run->env_mem = em != NULL;
	run->named = cfg->buffers;
	run->nnamed = cfg->nbuffers;
	run->named_addr = calloc(cfg->nbuffers + 1, sizeof *run->named_addr);
	L.mem = run->mem = em ? em->mem : mem_create();
	if (!run->mem || !run->buf_addr || !run->buf_size || !run->named_addr) {
		ptxi_run_free(run);
		free(sel.clusters);
		return usage_error(m, "out of memory");
	}
	if (em) {
		L.const_bank = em->const_bank;
		st = env_params(m, &L, params);
		if (st == PTXI_OK)
			keep_params(run, &L);
		goto run;
	}
	L.mem->limit = cfg->max_memory == UINT64_MAX ? 0
		       : cfg->max_memory		 ? cfg->max_memory
							 : PTXI_DEFAULT_MAX_MEMORY;
	uint64_t gbase = 0;
	if (m->prog->global_size) {
		gbase = mem_alloc(L.mem, m->prog->global_size, "block of .global variables");
		if (gbase)
			memcpy(mem_find(L.mem, gbase, 1)->data, m->prog->global_init,
			       m->prog->global_size);
		else
			st = bind_memory_error(&m->diag, L.mem, m->prog->global_size,
					       "the module's .global variables");
	}
	run->const_bank = malloc(m->prog->const_size ? m->prog->const_size : 1);
	if (!run->const_bank)
		st = usage_error(m, "out of memory");
	else
		memcpy(run->const_bank, m->prog->const_bytes, m->prog->const_size);
	L.const_bank = run->const_bank;
	struct bind_bufs bufs = {run->buf_addr, run->buf_size, cfg->buffers, cfg->nbuffers,
				 run->named_addr};
	if (st == PTXI_OK)
		st = bind_args(&m->diag, &L, args, nargs, &bufs);
	if (st == PTXI_OK)
		keep_params(run, &L);
	if (st == PTXI_OK) {
		bind_relocs(&L, gbase, run->const_bank);
		st = bind_sets(&m->diag, &L, cfg->sets, cfg->nsets, args, nargs, &bufs,
			       run->const_bank);
	}
run:
	if (st == PTXI_OK && cfg->cooperative)
		st = grid_workspace(m, L.mem);
	if (st == PTXI_OK) {
		L.timeline = cfg->timeline_out ? tl_create() : NULL;
		L.dbg = cfg->debugger;
		frame_scratch_expect(&L, L.dbg ? 1 : cfg->jobs);
		st = jobs_launch(&L, L.dbg ? 1 : cfg->jobs);
		mem_scratch_reset(L.mem); /* (the frames and watches are freed: sched_end) */
	}
	if (L.timeline) {
		if (tl_write_html(L.timeline, &L, cfg->timeline_out) != 0)
			st = usage_error(m, "could not write the --timeline page");
		tl_free(L.timeline);
	}
	run->warp_insns = L.steps;
	run->thread_insns = L.thread_steps;
	run->peak_memory = L.mem->peak;
	run->stopped = st == PTXI_OK ? false : L.stop || st == PTXI_DEADLOCK || st == PTXI_INTERRUPTED;
	bind_free(&L);
	mbar_table_free(&L);
	async_free(&L);
	landed_free(&L);
	wgmma_launch_free(&L);
	gather_summary(&L);
	if (sel.clusters) {
		char msg[200];
		snprintf(msg, sizeof msg, "only part of the grid ran: %llu of %llu CTAs (--ctas)",
			 (unsigned long long)sel.ctas, (unsigned long long)sel.total);
		diag_emit(&m->diag, DIAG_NOTE, NULL, (struct src_span){0, 0}, NULL, msg);
		free(sel.clusters);
	}
	if (errors)
		*errors = gather_total(&L);
	gather_free(&L);
	if (out)
		*out = run;
	else
		ptxi_run_free(run);
	return st;
}

const void *ptxi_run_buffer(const ptxi_run *r, unsigned arg, size_t *bytes)
{
	if (!r || arg >= r->nargs || !r->buf_addr[arg])
		return NULL;
	struct region *reg = mem_find(r->mem, r->buf_addr[arg], 1);
	if (!reg)
		return NULL;
	*bytes = r->buf_size[arg];
	return reg->data;
}

const void *ptxi_run_param(const ptxi_run *r, unsigned arg, size_t *bytes)
{
	if (!r || !r->params || !r->param_len || arg >= r->nargs)
		return NULL;
	*bytes = r->param_len[arg];
	return r->params + r->param_off[arg];
}

const void *ptxi_run_memory(const ptxi_run *r, uint64_t addr, size_t *bytes)
{
	struct region *reg = r ? mem_find(r->mem, addr, 1) : NULL;
	if (!reg)
		return NULL;
	*bytes = (size_t)(reg->base + reg->size - addr);
	return reg->data + (addr - reg->base);
}

const void *ptxi_run_symbol(const ptxi_module *m, const ptxi_run *r, const char *name,
			    size_t *bytes)
{
	for (unsigned i = 0; r && i < r->nnamed; i++)
		if (strcmp(r->named[i].symbol, name) == 0 && r->named_addr[i]) {
			struct region *reg = mem_find(r->mem, r->named_addr[i], 1);
			*bytes = r->named[i].value.bytes;
			return reg ? reg->data : NULL;
		}
	const struct ir_sym *s = r && m->ir ? bind_find_var(m->ir, name) : NULL;
	if (!s)
		return NULL;
	*bytes = (size_t)ir_sym_bytes(s);
	if (s->space == MOD_CONST)
		return r->const_bank ? r->const_bank + s->addr : NULL;
	struct region *reg = mem_find(r->mem, s->addr, 1);
	return reg ? reg->data + (s->addr - reg->base) : NULL;
}

bool ptxi_run_stopped(const ptxi_run *r)
{
	return r && r->stopped;
}

void ptxi_run_stats(const ptxi_run *r, uint64_t *warp_insns, uint64_t *thread_insns)
{
	*warp_insns = r->warp_insns;
	*thread_insns = r->thread_insns;
}

int ptxi_launch(ptxi_module *m, const struct ptxi_config *cfg, const struct ptxi_arg *args,
		unsigned nargs, ptxi_run **out)
{
	/* a launch's errors are its own: the module keeps the counts of its load */
	unsigned errors = m->diag.nerrors;
	bool suppressed = m->diag.suppressed;
	if (out)
		*out = NULL;
	ptxi_sink *sink = m->sink;
	void *ctx = m->ctx;
	if (cfg->sink && !m->diag.record) { /* this launch's text elsewhere (--explore) */
		m->sink = cfg->sink;
		m->ctx = cfg->sink_ctx;
	}
	int st = launch(m, cfg, args, nargs, out, NULL, NULL, NULL, NULL);
	m->sink = sink;
	m->ctx = ctx;
	m->diag.nerrors = errors;
	m->diag.suppressed = suppressed;
	return st;
}

uint64_t ptxi_run_peak_memory(const ptxi_run *r)
{
	return r->peak_memory;
}

void ptxi_run_free(ptxi_run *r)
{
	if (!r)
		return;
	if (!r->env_mem)
		mem_destroy(r->mem);
	free(r->params);
	free(r->param_off);
	free(r->param_len);
	free(r->const_bank);
	free(r->buf_addr);
	free(r->buf_size);
	free(r->named_addr);
	free(r);
}

/* ---- modules and launches over lasting device memory (env.h) ---------------------------- */

int env_module_load(struct env_module *em, ptxi_module *m, struct memory *mem)
{
	memset(em, 0, sizeof *em);
	em->m = m;
	em->mem = mem;
	m->global_base = mem->next; /* where mem_alloc puts the block, below */
	struct dprog *P = module_prog(m);
	if (!P)
		return PTXI_INVALID;
	if (P->global_size) {
		em->gbase = mem_alloc(mem, P->global_size, "block of .global variables");
		if (em->gbase != m->global_base)
			return bind_memory_error(&m->diag, mem, P->global_size,
						 "the module's .global variables");
		memcpy(mem_find(mem, em->gbase, 1)->data, P->global_init, P->global_size);
	}
	em->const_size = P->const_size;
	em->const_bank = malloc(P->const_size ? P->const_size : 1);
	if (!em->const_bank)
		return usage_error(m, "out of memory");
	memcpy(em->const_bank, P->const_bytes, P->const_size);
	struct launch L = {.P = P, .mem = mem};
	bind_relocs(&L, em->gbase, em->const_bank);
	return PTXI_OK;
}

void env_module_free(struct env_module *em)
{
	free(em->const_bank);
	em->const_bank = NULL;
}

bool env_symbol(const struct env_module *em, const char *name, uint64_t *addr, uint64_t *size,
		bool *is_const)
{
	const struct ir_sym *s = em->m->ir ? bind_find_var(em->m->ir, name) : NULL;
	if (!s)
		return false;
	*addr = s->addr;
	*size = ir_sym_bytes(s);
	*is_const = s->space == MOD_CONST;
	return true;
}

uint64_t env_cta_shared(const struct env_module *em, const char *name, uint32_t dyn)
{
	const struct dprog *P = em->m->prog;
	for (uint32_t i = 0; P && i < P->nfuncs; i++) {
		const struct dfunc *k = &P->funcs[i];
		if (is_kernel(k) && !strcmp(k->name, name))
			return dyn ? (uint64_t)k->shared_dyn_off + dyn : k->shared_static;
	}
	return dyn;
}

int env_launch(struct env_module *em, const struct ptxi_config *cfg, void *const *params,
	       FILE *print, FILE *asserts, unsigned *errors)
{
	ptxi_module *m = em->m;
	unsigned load_errors = m->diag.nerrors;
	bool suppressed = m->diag.suppressed;
	FILE *out[2] = {print, asserts};
	int st = launch(m, cfg, NULL, 0, NULL, em, params, out, errors);
	m->diag.nerrors = load_errors;
	m->diag.suppressed = suppressed;
	return st;
}

void env_module_record(ptxi_module *m, diag_record_fn *fn, void *ctx)
{
	m->diag.record = fn;
	m->diag.record_ctx = ctx;
}

int env_kernel_params(const struct env_module *em, const char *name, uint32_t *len, uint32_t max)
{
	struct dprog *P = em->m->prog;
	for (uint32_t i = 0; P && i < P->nfuncs; i++) {
		const struct ir_func *f = P->funcs[i].ir;
		if (!is_kernel(&P->funcs[i]) || strcmp(P->funcs[i].name, name))
			continue;
		if (f->nparams > max)
			return -1;
		for (uint32_t j = 0; j < f->nparams; j++)
			len[j] = (uint32_t)ir_sym_bytes(f->params[j]);
		return (int)f->nparams;
	}
	return -1;
}

bool env_has_kernel(const struct env_module *em, const char *name)
{
	struct dprog *P = em->m->prog;
	for (uint32_t i = 0; P && i < P->nfuncs; i++)
		if (is_kernel(&P->funcs[i]) && !strcmp(P->funcs[i].name, name))
			return true;
	return false;
}
