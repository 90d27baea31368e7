/*
 * interp.h - the decoded program and the run-time state of a launch.
 * load.c turns a checked IR module into decoded functions (struct dfunc) whose instructions
 * (struct dinsn) hold resolved register slots, immediates and targets: the run loop never
 * touches a string. A launch is clusters of CTAs of warps; a warp's lanes that sit at the
 * same instruction form a group that executes together (independent thread scheduling).
 */
#ifndef PTXI_INTERP_H
#define PTXI_INTERP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ptxi/ptxi.h"

#include "diag.h"
#include "exec_alu.h"
#include "ir.h"
#include "rules.h"

#define FULL_MASK 0xffffffffu
#define MAX_CALL_DEPTH 1024
/* A thread's stack: the .local variables and .param areas of its live frames. The H100
 * gives a thread at most 512 KiB of local memory; a deeper recursion faults there. */
#define MAX_THREAD_STACK (512u * 1024u)
/* A function's address as a value (mov of a function name, initializers): base + index. */
#define FUNC_ADDR_BASE 0xF00000000000ull

/* ---- Decoded program ----------------------------------------------------------------- */

enum sreg {
#define SREG(name, spelling, shape, size) SREG_##name,
#include "sreg.def"
#undef SREG
	SREG__COUNT
};

/* Address spaces an operand or access resolves to. */
enum mspace {
	MS_NONE,
	MS_GENERIC,
	MS_GLOBAL,
	MS_SHARED_CTA,      /* executing CTA's shared memory (offset)                        */
	MS_SHARED_CLUSTER,  /* any CTA of the cluster (cluster-encoded address)              */
	MS_LOCAL,
	MS_PARAM_KERNEL,    /* kernel parameters (read-only, shared by all threads)          */
	MS_PARAM_FRAME,     /* .func parameters and .param variables of a body (per thread)  */
	MS_CONST,
};

enum dop_kind {
	DOP_NONE,
	DOP_REG,        /* slot                                                           */
	DOP_IMM,        /* imm: 32 copies of the value                                     */
	DOP_SREG,       /* special register sreg.comp                                      */
	DOP_ADDR,       /* [reg + off] or [off] in `space` (off includes a symbol's address) */
	DOP_SYMADDR,    /* address of a variable as a value: off in `space` (+frame local base) */
	DOP_VEC,        /* {elems}                                                          */
	DOP_SINK,
	DOP_FUNC,       /* a function, as a call target or an address                       */
};

struct dop {
	uint8_t kind;
	uint8_t space;      /* DOP_ADDR / DOP_SYMADDR: enum mspace of the symbol, or MS_NONE  */
	uint8_t sreg, comp;
	bool neg;           /* !p                                                             */
	bool has_reg;       /* DOP_ADDR: base is a register                                   */
	uint8_t nelem;      /* DOP_VEC                                                        */
	uint8_t reg_size;   /* DOP_REG: declared size in bytes (for ld/st of vectors)          */
	uint32_t slot;      /* DOP_REG slot / DOP_ADDR base register slot                     */
	int64_t off;
	const uint64_t *imm;
	struct dop *elems;
	struct dfunc *func;
	const struct ir_sym *sym; /* the variable named, for messages                          */
};

/* Flags of non-ALU instructions, decoded from modifiers. */
enum {
	DF_UNI = 1u << 0,
	DF_NOCOMPLETE = 1u << 1,
	DF_EXPECT_TX = 1u << 2,
	DF_PARITY = 1u << 3,
	DF_NOINC = 1u << 4,
	DF_MULTICAST = 1u << 5,
	DF_BULK_GROUP = 1u << 6,
	DF_READ = 1u << 7,
	DF_TO = 1u << 8,
	DF_ALIGNED = 1u << 9,
	DF_COMPLETE_TX = 1u << 10,
	DF_CACHE_HINT = 1u << 11,
	DF_MBARRIER_INIT = 1u << 12,
	DF_PROXY = 1u << 13,
	DF_WIDE = 1u << 14,
	DF_ARRIVE = 1u << 15,
	DF_WAIT = 1u << 16,
	DF_LAUNCH_DEPENDENTS = 1u << 17,
	DF_CLUSTER_SPACE = 1u << 18, /* .shared::cluster written                                  */
	DF_DST_GLOBAL = 1u << 19,
	DF_SRC_SHARED = 1u << 20,
	DF_CTA_SPACE = 1u << 21,     /* .shared::cta written (not plain .shared)                 */
	DF_VEC_DUP = 1u << 22,       /* a vector destination names one register twice           */
	DF_EVICT_FIRST2 = 1u << 23,  /* createpolicy: the secondary priority is .L2::evict_first */
	DF_IGNORE_SRC = 1u << 24,    /* cp.async's fourth operand is the ignore-src predicate   */
	DF_TENSORMAP = 1u << 25,     /* fence.proxy.tensormap::generic (not an async-proxy fence) */
	DF_IM2COL = 1u << 26,        /* a tensor copy in im2col mode                             */
};

struct mma_form;

struct launch;
struct warp;
struct group;
struct dinsn;

/* What a handler did with its group. Only the dispatch loop (interp.c) steps the pc. */
enum step {
	STEP_NEXT,   /* done: the loop moves the group to the next instruction              */
	STEP_JUMPED, /* the group is at the branch target the handler set                  */
	STEP_PARKED, /* back to the scheduler: the group waits where it is, exited, stopped
		      * the launch, or entered or left a frame or split (so it picks again) */
};

/* An instruction's handler (the HANDLER column of ops.def, declared in exec.h). */
typedef enum step exec_fn(struct launch *L, struct warp *w, struct group *g,
			  const struct dinsn *di, uint32_t mask);

struct dinsn {
	exec_fn *exec;          /* the handler, picked once at load                          */
	uint16_t op;            /* enum ir_op                                                */
	uint8_t nsrc;
	bool guard_neg;
	int32_t guard;          /* predicate slot, or -1                                     */
	uint8_t type, type2;    /* enum ir_mod (MK_TYPE)                                     */
	uint8_t space;          /* enum mspace of the access / object                        */
	uint8_t space2;         /* second space (cp.async source, cvta window)               */
	uint8_t sem, scope;     /* enum ir_mod                                               */
	uint8_t vec;            /* 1, 2, 4                                                   */
	uint8_t fam;            /* enum ir_family, cached for the dispatch loop              */
	uint8_t mode;           /* op-specific (atom op, shfl/vote mode, ...) as enum ir_mod  */
	uint32_t flags;         /* DF_*                                                      */
	struct dop d, d2;
	struct dop s[5];
	struct alu_insn alu;    /* FAM_ALU                                                   */
	const struct wg_insn *wg; /* FAM_WGMMA (wgmma.h)                                     */
	uint32_t target;        /* branch target index                                       */
	struct dfunc *callee;
	const struct mma_form *mma; /* FAM_MMA: shape, types, layouts (exec_mma.c)               */
	const struct ir_insn *ir;
};

struct dfunc {
	const struct ir_func *ir;
	const char *name;
	struct dinsn *code;
	uint32_t ncode;
	uint32_t nslots;        /* register slots; each is LANES uint64_t                     */
	uint32_t local_size;    /* bytes of .local variables per thread in one frame          */
	uint32_t param_size;    /* bytes per thread: formal + return params + body .param vars */
	uint32_t kparam_size;   /* kernels: bytes of the parameter block                      */
	uint32_t *param_off;    /* offsets of formal params (kernel block or frame area)      */
	uint32_t *ret_off;      /* offsets of return params                                   */
};

struct dprog {
	struct ir_module *m;
	struct arena *arena;
	struct dfunc *funcs;
	uint32_t nfuncs;
	uint32_t shared_static;     /* bytes of static .shared                                */
	uint32_t shared_dyn_off;    /* where .extern .shared arrays start                     */
	uint32_t shared_align;
	uint8_t *const_bytes;       /* the .const bank                                        */
	uint32_t const_size;
	uint8_t *global_init;       /* initial bytes of module .global variables              */
	uint32_t global_size;       /* laid out from offset 0 of the module's global block    */
	/* symbol-address initializers in .global/.const to patch once addresses are known   */
	/* an address written into an initializer element of `size` bytes at `at` */
	struct reloc { uint8_t in_const; uint32_t at; const struct ir_sym *sym; int64_t add;
		       bool generic; uint8_t size; } *relocs;
	uint32_t nrelocs;
	bool async_reads_global;    /* a bulk copy reads global memory (its source, or a
				     * cp.reduce.async.bulk's destination): ordinary global
				     * stores are tracked for rule async-proxy-fence          */
	bool tensor_copies;         /* tensor copies or tensor-map writes: ordinary global
				     * stores are tracked for rule tensormap-proxy-fence      */
};

/* Build a decoded program; reports unsupported features through m->diag. Returns NULL on
 * error. */
struct dprog *load_program(struct ir_module *m);

/* ---- Run-time state ------------------------------------------------------------------ */

struct frame {
	struct dfunc *fn;
	struct frame *next_free;    /* in the launch's cache of frames of fn                  */
	uint64_t *regs;         /* nslots * LANES                                             */
	uint8_t *params;        /* LANES * fn->param_size                                     */
	uint32_t local_base;    /* per-thread local offset of this frame's .local variables   */
	struct frame *caller;
	uint32_t ret_pc;        /* caller instruction to resume at                            */
	const struct dinsn *call;/* the call instruction (for return-value copies)            */
	int refs;               /* groups that point at this frame                            */
	uint32_t depth;
	uint32_t stack;         /* bytes of stack per thread up to and including this frame    */
};

enum gstate {
	G_READY,
	G_BAR,          /* bar.sync / barrier.sync: wait_id = barrier number                  */
	G_CLUSTER_BAR,  /* barrier.cluster.wait                                              */
	G_MBAR,         /* try_wait parked, or a spinning test_wait                            */
	G_WARPSYNC,     /* a .sync warp instruction waiting for the rest of its membermask    */
	G_ASYNC,        /* cp.async.wait_group / bulk wait_group                              */
	G_DONE,
};

struct group {
	uint32_t mask;
	uint32_t pc;
	struct frame *frame;
	enum gstate state;
	uint32_t wait_id;           /* G_BAR barrier id, G_WARPSYNC membermask                 */
	struct mbar *wait_mbar;     /* G_MBAR                                                  */
	uint64_t parked_at;         /* G_MBAR: L->steps when it parked (its time limit)        */
	bool timed_out;             /* G_MBAR: woken because nothing else could run            */
	struct group *next;
};

struct cta;

struct warp {
	struct cta *cta;
	uint32_t id;                /* warp index in the CTA                                   */
	uint32_t valid;             /* lanes that exist (partial last warp)                    */
	uint32_t live;              /* lanes not exited                                        */
	struct group *groups;       /* at most 32                                              */
	struct frame *base;
	uint64_t cc[LANES];         /* carry flags (.cc)                                       */
	uint8_t *local;             /* LANES * local_stride                                    */
	uint32_t local_stride, local_top;
	uint32_t cbar_arrived;      /* lanes that arrived on barrier.cluster this phase        */
	uint32_t cbar_waitable;     /* lanes whose arrival can be waited on                    */
	uint32_t cbar_phase[LANES]; /* cluster-barrier phase each lane's arrival belongs to     */
	/* asynchronous copy groups per lane (cp.async and bulk) */
	uint32_t cp_open[LANES];    /* number of the open cp.async group (commits so far)      */
	uint32_t bulk_open[LANES];  /* the same for bulk copies                                */
	uint64_t steps;             /* warp-instructions executed                              */
	struct group *last_pick;    /* fairness: the group picked last, and how many times in a */
	uint32_t streak;            /* row while another group was ready too (sched.c)          */
	struct wg_warp *wg;         /* wgmma state (exec_wgmma.c), NULL until one runs          */
	uint32_t wg_busy;           /* wgmma.mma_async parts in flight: registers are watched   */
	bool wg_track;              /* a warpgroup instruction ran: register writes are noted   */
	uint64_t poll_pc_epoch;     /* spin detection of test_wait loops                       */
	uint32_t poll_pc, poll_count;
	uint32_t bad_cvta;          /* lanes holding a cvta.to.shared result of a non-shared    */
	struct bad_cvta *bad_cvta_at; /* address: reported if used as one (exec_mem.c)        */
};

/* What a loop that runs past the step limit reads, watched for a while (sched.c): the
 * lines it runs through and the distinct places it reads. */
#define SPIN_PLACES 4
struct spin_rec {
	uint32_t first_line, last_line;
	uint32_t n;
	struct spin_place { uint8_t space; uint32_t size; uint64_t addr; } place[SPIN_PLACES];
};

/* The last cvta.to.shared of each lane whose operand was not in the shared window: its
 * result and operand, and the instruction, for a report at the access that uses it. */
struct bad_cvta {
	uint64_t result[LANES], from[LANES];
	const struct dinsn *insn[LANES];
};

struct barstate {
	uint32_t arrived;           /* threads arrived                                         */
	uint32_t expected;          /* 0 = all non-exited threads of the CTA                   */
	uint32_t red_and, red_or, red_popc;
};

struct mbar;

struct cta {
	struct cluster *cluster;
	uint32_t rank;              /* %cluster_ctarank                                        */
	uint32_t ctaid[3], cluster_ctaid[3];
	uint32_t linear;            /* linear CTA index in the grid                            */
	uint8_t *smem;
	uint32_t smem_size;
	bool charged;               /* its bytes are charged to the launch (--max-memory)       */
	struct mbar **mbar_at;      /* per 8-byte word of smem: live mbarrier or NULL (lazy)  */
	uint8_t *proxy_dirty;       /* per 16-byte granule: written by a generic store since the
				     * last fence.proxy.async (lazy; rule async-proxy-fence)     */
	struct warp *warps;
	uint32_t nwarps, nthreads, live_threads;
	struct barstate bar[16];
	bool exited;                /* every thread exited                                     */
	bool init_fenced;           /* a fence.mbarrier_init ran since the last init            */
	struct wg_cta *wg;          /* wgmma state (exec_wgmma.c), NULL until one runs          */
};

struct cluster {
	struct launch *L;
	uint32_t id[3];
	uint32_t linear;
	struct cta *ctas;
	uint32_t nctas;
	uint32_t cbar_phase, cbar_arrived, live_threads;
};

struct launch_config {
	uint32_t grid[3], block[3], cluster[3];
	bool explicit_cluster;
	uint32_t dyn_shared;
	uint64_t max_steps;
	uint64_t seed;
	bool keep_going;
	bool no_race;               /* --no-race: the data-race detector is off               */
	bool trace_mbar, trace_all;
	bool trace_print;            /* --trace given (trace_mbar may be on for the timeline) */
	bool trace_cta_given, trace_warp_given; /* --trace-cta, --trace-warp filters        */
	uint32_t trace_cta[3], trace_warp;
	uint32_t trace_lines[2];     /* --trace-lines A-B ([1] 0: every line)                 */
	uint32_t trace_width;        /* fold trace lines past this column (0: never)          */
	uint64_t heap_size;         /* device heap for malloc (bytes)                         */
	FILE *out;                  /* where device printf writes                             */
};

struct event;
struct landed;
struct wg_insn;
struct wg_warp;
struct wg_cta;
struct race;

struct launch {
	struct dprog *P;
	struct dfunc *kernel;
	struct launch_config cfg;
	struct diag *diag;
	struct src_file *file;
	struct memory *mem;
	uint8_t *kparams;           /* kernel parameter bytes                                 */
	uint32_t kparam_size;
	uint32_t *kparam_off;
	uint8_t *const_bank;        /* this launch's .const bank (--set may write it)          */
	uint32_t nthreads_cta;
	uint64_t steps, thread_steps, max_steps; /* steps: warp-instructions so far, counted as
						  * they run: asynchronous work is due at a step */
	uint64_t epoch;             /* bumped by every change that can unblock a parked group:
				     * mbarrier and barrier state, async landings, exits. Plain
				     * stores are not: a test_wait loop that also stores still
				     * counts as making no progress (deadlock detection)     */
	uint64_t clock;             /* simulated time (ns), for %globaltimer and latencies    */
	uint64_t rng;
	int status;                 /* 0 ok, 1 rule broken, 3 deadlock/steps, 2 bad input     */
	bool stop;                  /* a faulting rule: finish now                             */
	ptxi_progress_fn *progress; /* the caller's progress line, and its interrupt flag      */
	void *progress_ctx;
	const volatile sig_atomic_t *interrupt;
	uint64_t next_poll;         /* the step at which they are next looked at               */
	struct spin_rec *spin_rec;  /* while a spinning loop is watched (sched.c): its reads   */
	uint64_t clusters_done, clusters;
	/* mbarrier objects made during the launch: token ids index this table */
	struct mbar **mbars;
	uint32_t nmbars, mbars_cap; /* objects alive: an invalidated one is freed when an init
				     * replaces it and nothing refers to it any more          */
	uint32_t mbar_ids;          /* ids handed out: the newest object's id                  */
	/* pending asynchronous events (async.c) */
	struct event *events;
	uint32_t nevents, events_cap;
	uint64_t next_due;          /* earliest due step of the events (UINT64_MAX if none)   */
	struct landed *landed;      /* bulk copies landed but not yet observed (async.c)      */
	uint32_t nlanded, landed_cap;
	uint64_t event_seq;
	/* wgmma.mma_async in flight (exec_wgmma.c) */
	uint32_t wg_reading;        /* parts reading shared operands: stores are checked      */
	uint64_t wg_due;            /* --seed: earliest step a committed group may complete   */
	struct warp **wg_warps;     /* warps with parts in flight                             */
	uint32_t nwg_warps, wg_warps_cap;
	/* current instruction context, for diagnostics (Lua's savepc) */
	struct warp *cw;
	const struct dinsn *ci;
	uint32_t cmask;
	FILE *trace;
	struct race *race;          /* the data-race detector's state (race.c), NULL if off   */
	struct timeline *timeline;  /* --timeline: what the page shows (timeline.c)       */
	struct frame **frame_cache; /* per dfunc index: frames to reuse (no malloc churn)     */
	struct devrt *rt;           /* device runtime state: the heap (devrt.c), lazily made  */
	struct report *rep;         /* the report being gathered, error counts (gather.c)     */
};

/* interp.c */
/* Run one group of `w` until it blocks, exits, diverges into a lower pc, or `budget`
 * instructions ran. Returns the number of instructions executed. */
uint32_t interp_run_group(struct launch *L, struct warp *w, struct group *g, uint32_t budget);
uint64_t *slot_ptr(struct frame *f, uint32_t slot);
uint32_t popcount32(uint32_t m);
/* One lane's value of a source operand (register, immediate, special register), and of an
 * address operand (base register + offset, or a variable's address). */
uint64_t op_read(struct launch *L, struct warp *w, struct frame *f, const struct dop *o,
		 uint32_t lane);
uint64_t op_addr(struct launch *L, struct warp *w, struct frame *f, const struct dop *o,
		 uint32_t lane);
/* Argument i of call di of `callee` for one lane (at most 8 bytes), and the write of its
 * first result (external calls run by the device runtime, devrt.c). */
uint64_t call_arg(struct launch *L, struct warp *w, struct frame *f, const struct dinsn *di,
		  const struct dfunc *callee, uint32_t i, uint32_t lane);
void call_result(struct frame *f, const struct dinsn *di, const struct dfunc *callee,
		 uint32_t lane, uint64_t v);
/* Write one lane of a destination operand (no-op for a sink). */
void op_write(struct frame *f, const struct dop *o, uint32_t lane, uint64_t v);
/* Trace line (--trace): "file:line: CTA .. threads ..: text". */
void trace_line(struct launch *L, struct warp *w, uint32_t lanes, const char *text);

/* sched.c */
int sched_launch(struct launch *L);
void sched_wake_mbar(struct launch *L, struct mbar *mb);
void sched_group_exit(struct launch *L, struct warp *w, struct group *g, uint32_t mask);
struct group *sched_split(struct warp *w, struct group *g, uint32_t mask, uint32_t pc);

/* rules.c: report a broken rule at the current instruction; `notes` adds context lines.
 * Sets L->status = 1 and L->stop for faulting rules unless keep-going allows continuing. */
__attribute__((format(printf, 4, 5)))
void rule_break(struct launch *L, enum rule_id r, uint32_t lanes, const char *fmt, ...);
void rule_break_notes(struct launch *L, enum rule_id r, uint32_t lanes, const char *notes,
		      const char *msg);
void rule_breakv(struct launch *L, enum rule_id r, uint32_t lanes, const char *notes,
		 const char *fmt, va_list ap);
/* "CTA (x,y,z) thread (x,y,z)" or a range, for the lanes of the current warp */
void describe_threads(struct launch *L, struct warp *w, uint32_t lanes, struct strbuf *b);
void runtime_error(struct launch *L, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Whether a call operand (argument or result slot) fits the callee's declared parameter:
 * a .param variable of the same size (as ptxas demands), or one value of at most 8 bytes. */
bool call_operand_fits(const struct dop *o, const struct ir_sym *formal);
/* Charge `bytes` of the launch's own memory; past --max-memory, reports (status 2, naming
 * `what`) and returns false. */
bool launch_charge(struct launch *L, uint64_t bytes, const char *what);

#endif
