/*
 * ptxi.h - the public interface of libptxi: load and check a PTX module, launch a kernel
 * on the interpreter, read back buffers. Handles are opaque.
 * Exit-status convention shared with the ptxi program: 0 ok, 1 a rule was broken, 2 invalid
 * input or usage, 3 deadlock or step limit.
 *
 * Conventions of every function below: memory a function returns a pointer to belongs to
 * the library and stays valid as long as the object it came from (module, run, argument
 * list), unless its comment says the caller frees it; pointers the caller passes in are
 * only read during the call, unless a comment says they are kept. Nothing here prints but
 * through a sink, a report or a FILE the caller gives; nothing exits or aborts the program.
 * A module or run may be used by one thread at a time; separate ones by several at once.
 * Build with `pkg-config --cflags --libs ptxi` (docs/library.md: versions and the ABI).
 */
#ifndef PTXI_PTXI_H
#define PTXI_PTXI_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The version of this header; ptxi_version() gives the library's ("0.1.0"). The shared
 * library's soname (libptxi.so.N) changes whenever its ABI does (docs/library.md). */
#define PTXI_VERSION_MAJOR 0
#define PTXI_VERSION_MINOR 1
#define PTXI_VERSION_PATCH 0

enum { PTXI_OK = 0, PTXI_RULE = 1, PTXI_INVALID = 2, PTXI_DEADLOCK = 3, PTXI_INTERRUPTED = 130 };

typedef struct ptxi_module ptxi_module;
typedef struct ptxi_run ptxi_run;

/* Rule severities (--rule NAME=LEVEL): the level a run-time rule (docs/rules.md) or a static
 * check (docs/static-checks.md) is reported at. A warning is reported and changes no exit
 * status; off is not reported. Rules where the hardware faults, and checks of what ptxas
 * rejects, stay errors (they can only be raised). */
enum ptxi_severity { PTXI_SEVERITY_DEFAULT, PTXI_SEVERITY_ERROR, PTXI_SEVERITY_WARNING,
		     PTXI_SEVERITY_OFF };
typedef struct ptxi_severities ptxi_severities;
ptxi_severities *ptxi_severities_new(void);
/* Returns 0; -1: no rule or check of that name; -2 (a rule where the hardware faults) or -3
 * (a check of what ptxas rejects): it cannot be lowered. */
int ptxi_severities_set(ptxi_severities *s, const char *name, enum ptxi_severity level);
void ptxi_severities_free(ptxi_severities *s);

/* Receives each rendered diagnostic (level 0 error, 1 warning, 2 note). NULL: stderr. */
typedef void ptxi_sink(void *ctx, int level, const char *text);

/* Read, parse and statically check a PTX file ("-" for stdin). Returns NULL only if the
 * file cannot be read (the reason was sent to the sink); otherwise check
 * ptxi_module_errors. */
ptxi_module *ptxi_module_load(const char *path, ptxi_sink *sink, void *ctx);
/* Same, from a string already in memory (`name` is used in diagnostics). The module keeps
 * a pointer to `text` (it must outlive the module), a copy of `name`. */
ptxi_module *ptxi_module_load_string(const char *name, const char *text, ptxi_sink *sink,
				     void *ctx);
/* What `ptxi check` does: read, parse and check a PTX file, keeping no function body
 * longer than it takes to check it, so a module of any size is checked in the memory of its
 * largest function. Returns PTXI_OK, or PTXI_INVALID once errors were reported (an
 * unreadable file too). */
int ptxi_check(const char *path, ptxi_sink *sink, void *ctx);
/* The errors and warnings the load reported (a module with errors cannot be launched). */
unsigned ptxi_module_errors(const ptxi_module *m);
unsigned ptxi_module_warnings(const ptxi_module *m);
/* Free the module and everything it owns (NULL: nothing). Its runs stay valid. */
void ptxi_module_free(ptxi_module *m);

/* ---- Tensor maps (the 128-byte CUtensorMap, in NVIDIA's layout: docs/tensor-maps.md) ---- */

/* The parameters of cuTensorMapEncodeTiled / cuTensorMapEncodeIm2col, innermost dimension
 * first, with the driver's enum values (CUtensorMapDataType, ...Interleave, ...Swizzle,
 * ...L2promotion, ...FloatOOBfill). */
enum ptxi_tmap_type {
	PTXI_TMAP_U8, PTXI_TMAP_U16, PTXI_TMAP_U32, PTXI_TMAP_S32, PTXI_TMAP_U64,
	PTXI_TMAP_S64, PTXI_TMAP_F16, PTXI_TMAP_F32, PTXI_TMAP_F64, PTXI_TMAP_BF16,
	PTXI_TMAP_F32_FTZ, PTXI_TMAP_TF32, PTXI_TMAP_TF32_FTZ
};
struct ptxi_tmap_params {
	enum ptxi_tmap_type type;
	unsigned rank;                  /* 1..5 (3..5 for im2col and interleaved maps)      */
	uint64_t global_address;
	uint64_t global_dim[5];
	uint64_t global_strides[4];     /* bytes, of dimensions 1..rank-1                   */
	uint32_t box_dim[5];            /* tiled maps                                      */
	uint32_t element_strides[5];
	unsigned interleave;            /* 0 none, 1 16B, 2 32B                            */
	unsigned swizzle;               /* 0 none, 1 32B, 2 64B, 3 128B, 4..6 128B atoms   */
	unsigned l2_promotion;          /* 0 none, 1 64B, 2 128B, 3 256B                   */
	unsigned oob_fill;              /* 0 zero, 1 NaN (NAN_REQUEST_ZERO_FMA)            */
	bool im2col;                    /* cuTensorMapEncodeIm2col:                        */
	int pixel_box_lower[3], pixel_box_upper[3]; /* rank-2 entries, W first             */
	uint32_t channels_per_pixel, pixels_per_column;
};
/* Encode the 128 bytes at `map`, refusing what the driver refuses on sm_90. Returns PTXI_OK,
 * or PTXI_INVALID with the parameter at fault and why in `why` (if not NULL). */
int ptxi_tmap_encode(void *map, const struct ptxi_tmap_params *p, char *why, size_t whylen);
/* cuTensorMapEncodeTiled's own parameter list; returns as ptxi_tmap_encode. */
int ptxi_tmap_encode_tiled(void *map, enum ptxi_tmap_type type, unsigned rank, uint64_t address,
			   const uint64_t *global_dim, const uint64_t *global_strides,
			   const uint32_t *box_dim, const uint32_t *element_strides,
			   unsigned interleave, unsigned swizzle, unsigned l2_promotion,
			   unsigned oob_fill, char *why, size_t whylen);
/* A `tmap:` argument spec (without the "tmap:" prefix; README "Tensor maps"):
 * buf=K[+OFF],type=T,dims=D0xD1..,strides=S1x..,box=B0x..[,estrides=..][,interleave=..]
 * [,swizzle=..][,l2=..][,fill=zero|nan][,mode=tile|im2col,lower=..,upper=..,channels=C,
 * pixels=P]. Fills *p (global_address 0), *buf_arg = K and *buf_off = OFF, and checks every
 * rule but the address's alignment. Returns PTXI_OK or PTXI_INVALID with `why`. */
int ptxi_tmap_parse(const char *spec, struct ptxi_tmap_params *p, unsigned *buf_arg,
		    uint64_t *buf_off, char *why, size_t whylen);

enum ptxi_arg_kind { PTXI_ARG_SCALAR, PTXI_ARG_BUFFER, PTXI_ARG_TMAP, PTXI_ARG_BYTES };

struct ptxi_field;

/* A kernel argument, a field of a by-value struct argument, or a value for a module
 * variable (struct ptxi_set). */
struct ptxi_arg {
	enum ptxi_arg_kind kind;
	unsigned size;          /* SCALAR: 1, 2, 4 or 8 bytes                              */
	bool is_float;          /* SCALAR written as f32:/f64:                             */
	uint64_t value;         /* SCALAR bits                                             */
	const void *init;       /* BUFFER: initial bytes (NULL: zero-filled)               */
	size_t bytes;           /* BUFFER size                                             */
	const char *spec;       /* as written, for messages                                */
	struct ptxi_tmap_params tmap; /* TMAP: the map; its address is buffer argument     */
	unsigned tmap_buf;      /* tmap_buf's, plus tmap_off bytes                         */
	uint64_t tmap_off;
	bool tmap_buf_field;    /* TMAP field of a BYTES argument: the buffer is instead the
				 * one whose address the struct holds at byte tmap_buf_at   */
	uint64_t tmap_buf_at;
	const char *ref;        /* BUFFER: the named buffer (ptxi_config.buffers) of this name,
				 * not one of its own; TMAP: the map is over that named buffer,
				 * else the module .global variable of this name (buf=NAME)  */
	const struct ptxi_field *fields; /* BYTES: `bytes` bytes (init, or zeros) with these */
	unsigned nfields;       /* fields written over them                                */
};

/* A field of a BYTES argument: a SCALAR's bytes, a BUFFER's address (a buffer of its own),
 * or a TMAP's 128 bytes, at byte `off` of the struct. */
struct ptxi_field {
	uint64_t off;
	struct ptxi_arg value;
};

/* A module-scope .global or .const variable set before the launch, as cudaMemcpyToSymbol
 * does: a SCALAR, a BUFFER's address, a TMAP (buf=K names kernel argument K) or BYTES. */
struct ptxi_set {
	const char *symbol;
	struct ptxi_arg value;
};

/* How far a launch has come (for a progress line). */
struct ptxi_progress {
	uint64_t steps;                 /* warp-instructions so far                       */
	uint64_t clusters_done, clusters; /* clusters finished, of the grid's             */
	uint32_t warps_running, warps_waiting; /* of the cluster running now              */
	uint32_t cluster_ctas;          /* CTAs in a cluster                              */
};
typedef void ptxi_progress_fn(void *ctx, const struct ptxi_progress *p);

struct ptxi_config {
	const char *kernel;     /* NULL: the module's only entry; else its name, demangled
				 * name, or a part of either that names one kernel only    */
	uint32_t grid[3], block[3], cluster[3];
	bool cluster_given;     /* else .reqnctapercluster or 1x1x1                         */
	uint32_t dyn_shared;
	uint64_t max_steps;     /* 0: default                                              */
	uint64_t max_memory;    /* bytes the launch may allocate on the host: device buffers,
				 * shared memory, frames, local memory, shadow state (0: the
				 * default, PTXI_DEFAULT_MAX_MEMORY; UINT64_MAX: no limit)   */
	uint64_t seed;          /* 0: deterministic default schedule                       */
	bool keep_going;
	bool no_race;           /* turn the data-race detector off (it is on by default)   */
	bool trace_mbarrier, trace_all;
	uint64_t heap_bytes;    /* device heap for malloc; 0: 8 MiB (cudaLimitMallocHeapSize) */
	uint32_t max_errors;    /* reports shown, then a note; 0: 50; UINT32_MAX: no limit   */
	FILE *trace_out;        /* where --trace lines go (NULL: stderr)                   */
	bool trace_cta_given;   /* trace only CTA trace_cta (--trace-cta X,Y,Z)              */
	uint32_t trace_cta[3];
	bool trace_warp_given;  /* trace only warp trace_warp of each CTA (--trace-warp N)   */
	uint32_t trace_warp;
	uint32_t trace_lines[2];/* trace only source lines A..B (--trace-lines A-B; 0,0 all) */
	const char *trace_lines_file; /* with trace_lines: lines of this .loc source file, by
				 * path or its end (--trace-lines k.cu:A-B); NULL: PTX lines */
	uint32_t trace_width;   /* fold trace lines past this column (0: never)              */
	FILE *timeline_out;     /* --timeline: the launch as an HTML page (NULL: none)     */
	const struct ptxi_set *sets; /* module variables to set before the launch (--set)   */
	unsigned nsets;
	const struct ptxi_set *buffers; /* named buffers, not arguments (--buffer NAME=SPEC):
				 * BUFFER values that args, struct fields and tensor maps name
				 * (ref); they must outlive the run                         */
	unsigned nbuffers;
	ptxi_progress_fn *progress; /* called about every 65536 warp-instructions          */
	void *progress_ctx;
	/* When *interrupt becomes non-zero (a signal handler may set it), the launch stops,
	 * reports where every warp stands and returns PTXI_INTERRUPTED. */
	const volatile sig_atomic_t *interrupt;
	/* Threads that run the launch's clusters (--jobs). 0: one per online CPU, or one where
	 * the output would depend on the number (tracing, a timeline, malloc). A program whose
	 * output does not depend on the schedule shows the same with any number
	 * (docs/jobs.md). */
	unsigned jobs;
	/* Run part of the grid (--ctas): CTA linear indices and ranges "0,5,9" "0-15", or an
	 * even spread "sample:N"; a CTA runs its whole cluster. The others do not run and leave
	 * memory as it was. NULL: every CTA. */
	const char *ctas;
	/* ptxi debug's hooks (src/run/debug_hook.h; not for embedders): the launch runs on one
	 * thread and the debugger sees each instruction. NULL: none. */
	const struct dbg_hooks *debugger;
	/* The levels of the run-time rules (NULL: each its own); see ptxi_severities. */
	const ptxi_severities *severities;
	/* Where this launch's rendered diagnostics go instead of the module's sink (NULL: the
	 * module's; not when the module reports as data, ptxi_module_load_report). */
	ptxi_sink *sink;
	void *sink_ctx;
	/* A cooperative launch (--cooperative, cudaLaunchCooperativeKernel): every CTA of the
	 * grid runs at once and %envreg1:%envreg2 hold the grid-sync workspace, so
	 * cooperative_groups' this_grid().sync() works; a grid larger than an H100 holds at
	 * once is refused (docs/cooperative.md). */
	bool cooperative;
	/* Run everything on the interpreter: no native code for hot ALU runs (--no-jit; the
	 * environment's PTXI_JIT=0 turns the native tier off at load). */
	bool no_jit;
};
#define PTXI_MAX_JOBS 256 /* more jobs take this many threads */

#define PTXI_DEFAULT_MAX_MEMORY (4ull << 30) /* 4 GiB */

/* The parameters of `kernel` (NULL: the module's only kernel): their count, or -1 (no such
 * kernel, or the module has errors or cannot be loaded). The first `max` sizes in bytes go
 * to sizes[]; *ptr_size receives the module's pointer size (4 or 8). */
int ptxi_kernel_params(ptxi_module *m, const char *kernel, size_t *sizes, unsigned max,
		       unsigned *ptr_size);

/* Launch kernel cfg->kernel of m with `nargs` arguments (one per kernel parameter, in
 * order). Returns the exit status: PTXI_OK, PTXI_RULE (a rule was broken), PTXI_DEADLOCK
 * (also the step limit), PTXI_INTERRUPTED, or PTXI_INVALID for a usage error (no such
 * kernel, a bad shape, arguments that do not fit the parameters), all reported to the
 * module's sink or report. *out (if not NULL, freed
 * by the caller with ptxi_run_free) receives the run, for buffers and
 * statistics, also after a broken rule or deadlock. Whatever a launch reports, the module
 * stays as it was: a later launch runs afresh and reports only its own errors. */
int ptxi_launch(ptxi_module *m, const struct ptxi_config *cfg, const struct ptxi_arg *args,
		unsigned nargs, ptxi_run **out);
/* The bytes of buffer argument `arg` after the run (NULL if it is not a buffer). */
const void *ptxi_run_buffer(const ptxi_run *r, unsigned arg, size_t *bytes);
/* The bytes kernel parameter `arg` was given (NULL past the last). */
const void *ptxi_run_param(const ptxi_run *r, unsigned arg, size_t *bytes);
/* Device global memory from address `addr` to the end of the allocation holding it (a
 * buffer argument, a buffer of a struct field or --set, the module's .global block), or
 * NULL when no allocation holds it. */
const void *ptxi_run_memory(const ptxi_run *r, uint64_t addr, size_t *bytes);
/* The bytes of named buffer `name` (ptxi_config.buffers), else of module variable `name`
 * (.global or .const), after the run, or NULL. */
const void *ptxi_run_symbol(const ptxi_module *m, const ptxi_run *r, const char *name,
			    size_t *bytes);
/* Whether the launch stopped before its threads finished (a faulting rule, a deadlock, the
 * step limit, an interrupt): memory is as it was then. */
bool ptxi_run_stopped(const ptxi_run *r);
/* The warp-instructions and thread-instructions the launch ran (what --stats shows). */
void ptxi_run_stats(const ptxi_run *r, uint64_t *warp_insns, uint64_t *thread_insns);
/* The most bytes the launch held at once (what --max-memory limits). */
uint64_t ptxi_run_peak_memory(const ptxi_run *r);
/* Free the run with its device memory (NULL: nothing); the pointers it gave go with it. */
void ptxi_run_free(ptxi_run *r);

/* Diagnostics as data instead of text: one JSON object per line, written as each comes,
 * or one SARIF 2.1.0 log (rules with the help of `ptxi explain`) written by finish. */
enum ptxi_diag_format { PTXI_DIAG_TEXT, PTXI_DIAG_JSON, PTXI_DIAG_SARIF };
typedef struct ptxi_report ptxi_report;
/* NULL for PTXI_DIAG_TEXT (use the text sink) or when out of memory. */
ptxi_report *ptxi_report_new(enum ptxi_diag_format format, FILE *out);
/* Write what is left (SARIF: the log) and free r. Returns 0, or -1 if writing failed. */
int ptxi_report_finish(ptxi_report *r);
/* ptxi_module_load / ptxi_check with their diagnostics, and those of every launch of the
 * module, going to r. */
ptxi_module *ptxi_module_load_report(const char *path, ptxi_report *r);
int ptxi_check_report(const char *path, ptxi_report *r);
/* ptxi_module_load and ptxi_check with the static checks at the levels of `sev` (NULL: their
 * own; it must outlive the module), diagnostics to r when not NULL, else to the sink. */
ptxi_module *ptxi_module_load_with(const char *path, ptxi_sink *sink, void *ctx, ptxi_report *r,
				   const ptxi_severities *sev);
int ptxi_check_with(const char *path, ptxi_sink *sink, void *ctx, ptxi_report *r,
		    const ptxi_severities *sev);
/* `ptxi info`: each kernel (demangled), its parameters (name, type, size, alignment; Triton's
 * hidden scratch pointers marked), launch requirements and static shared memory, and a
 * `ptxi run` command line to start from. `path` is the file named in that command line.
 * Returns PTXI_OK, or PTXI_INVALID when the module has errors. */
int ptxi_module_info(ptxi_module *m, const char *path, FILE *out);
/* The library's version, "MAJOR.MINOR.PATCH" (static storage). */
const char *ptxi_version(void);

/* ptxi explain: what a concept, an instruction or a rule means (src/host/topics.def, rules.def),
 * with a live run of its sample. topic NULL lists the topics. Returns PTXI_OK, or
 * PTXI_INVALID for an unknown topic (the message, with suggestions, goes to err). */
int ptxi_explain(const char *topic, FILE *out, FILE *err);
/* docs/explain.md: every concept and instruction, as markdown. */
void ptxi_explain_markdown(FILE *out);
/* The catalogue of static checks (src/front/checks.def) that docs/static-checks.md holds between
 * its BEGIN/END markers, as markdown. */
void ptxi_explain_static_markdown(FILE *out);

/* ---- Embedding: arguments from text, diagnostics as records, kernels described ---------- */

/* An argument list and the memory its values hold. */
typedef struct ptxi_args ptxi_args;
/* An empty list (NULL when out of memory); the caller frees it with ptxi_args_free, after
 * the launches that use it. */
ptxi_args *ptxi_args_new(void);
/* Free the list and all the memory of the values parsed into it (NULL: nothing). */
void ptxi_args_free(ptxi_args *a);
/* Parse one value spec, as the ptxi program's --arg and --set take it (`ptxi run --help`):
 * u8: u16: u32: u64: s8: s16: s32: s64: f32: f64:VALUE, buf:BYTES, file:PATH (read now),
 * tmap:... (as ptxi_tmap_parse; docs/tensor-maps.md), bytes:SIZE[,@OFF=SPEC]... . *out's
 * pointers point into memory `a` holds (out itself is not added to the list: this is for
 * struct ptxi_set values). Returns PTXI_OK, or PTXI_INVALID with why in `why` in the
 * words the program prints after "ptxi: error: ". */
int ptxi_arg_parse(ptxi_args *a, const char *spec, struct ptxi_arg *out, char *why,
		   size_t whylen);
/* Append an argument: parsed from a spec (as ptxi_arg_parse); a scalar of `size` bytes
 * (1, 2, 4, 8; floats 4 or 8) whose bits are `bits`; a buffer of `bytes` bytes whose
 * initial contents are read from `init` at each launch (init is kept, not copied: it must
 * stay valid while the list is used; NULL: zeros). Returns PTXI_OK, or PTXI_INVALID (a bad
 * spec with why, a scalar that does not fit its size, out of memory). */
int ptxi_args_add_spec(ptxi_args *a, const char *spec, char *why, size_t whylen);
int ptxi_args_add_scalar(ptxi_args *a, unsigned size, bool is_float, uint64_t bits);
int ptxi_args_add_buffer(ptxi_args *a, const void *init, size_t bytes);
/* The list so far, for ptxi_launch (valid until the next append). */
const struct ptxi_arg *ptxi_args_list(const ptxi_args *a, unsigned *n);
/* Also a module variable to set before the launch, as --set SYMBOL=SPEC does (the same
 * symbol twice is an error), and the sets so far for cfg->sets, cfg->nsets (valid until the
 * next ptxi_args_add_set). Returns as ptxi_args_add_spec. */
int ptxi_args_add_set(ptxi_args *a, const char *symbol, const char *spec, char *why,
		      size_t whylen);
const struct ptxi_set *ptxi_args_sets(const ptxi_args *a, unsigned *n);

/* A diagnostic as data, for a ptxi_diag_fn. The strings are valid during the call only. */
struct ptxi_diagnostic {
	int level;              /* 0 error, 1 warning, 2 note                              */
	const char *rule;       /* the rule or check broken (docs/rules.md, docs/static-checks.md),
				 * "deadlock", "step-limit", or "ptx-invalid" / "ptx-warning"
				 * for one that names none (a usage error, an unreadable file) */
	const char *message;    /* without the rule's "[name]"                             */
	const char *file;       /* the PTX file, or NULL: no location                      */
	unsigned line, column, length; /* in the PTX file, from 1 (0: none)                */
	const char *threads;    /* "CTA (0,0,0) thread 3 (3,0,0)", or NULL                 */
	const char *notes;      /* every note line (the threads' too), '\n'-separated; NULL  */
	const char *source_file; /* where the module's .loc puts it (CUDA, Triton), or NULL */
	unsigned source_line, source_column;
};
typedef void ptxi_diag_fn(void *ctx, const struct ptxi_diagnostic *d);
/* A report that hands each diagnostic to fn, as it comes, instead of writing it. Use it
 * with ptxi_module_load_report, ptxi_module_load_string_report or ptxi_check_report; free
 * it with ptxi_report_finish (returns 0) after the module. NULL when out of memory. */
ptxi_report *ptxi_report_callback(ptxi_diag_fn *fn, void *ctx);
/* ptxi_module_load_string with its diagnostics, and those of its launches, going to r. */
ptxi_module *ptxi_module_load_string_report(const char *name, const char *text,
					    ptxi_report *r);

/* A kernel of a module, for ptxi_kernel_describe. Strings belong to the module. */
struct ptxi_kernel_info {
	const char *name;       /* its PTX name (what cfg->kernel takes)                   */
	const char *demangled;  /* its C++ name, or NULL when not mangled                  */
	unsigned nparams;
	uint32_t reqntid[3], maxntid[3], reqnctapercluster[3]; /* 0,0,0: not given          */
	uint32_t maxclusterrank; /* 0: not given                                           */
	bool explicitcluster;
	uint32_t static_shared; /* bytes of the module's static shared variables           */
};
/* A parameter of a kernel. */
struct ptxi_param_info {
	const char *name;
	const char *type;       /* ".u32", ".u64 .ptr", ".b8[128]", ".v2.f32"              */
	uint64_t size, align;   /* bytes                                                   */
	bool pointer;           /* .ptr, or Triton's hidden scratch pointers               */
	const char *note;       /* "Triton's hidden global-scratch pointer", "a CUtensorMap
				 * (__grid_constant__)?", or NULL                           */
	const char *spec;       /* the --arg to start from ("buf:BYTES", "u32:0", "tmap:...") */
};
/* The number of kernels (.entry with a body) of m, or -1 when the module has errors or
 * cannot be loaded (reported to its sink or report). */
int ptxi_kernel_count(ptxi_module *m);
/* Kernel `k` (0 .. count-1, in the module's order) into *out, and, when params is not
 * NULL, its first `max` parameters into params[]. Returns PTXI_OK, or PTXI_INVALID (no
 * such kernel, out of memory). */
int ptxi_kernel_describe(ptxi_module *m, unsigned k, struct ptxi_kernel_info *out,
			 struct ptxi_param_info *params, unsigned max);

#endif
