/*
 * launch.h - the run-time state of a launch: clusters of CTAs of warps; a warp's lanes that
 * sit at the same instruction form a group that executes together (independent thread
 * scheduling), in a call frame. Each subsystem owns its part of struct launch, with its own
 * init and free: the asynchronous-copy queue (async.h), the copies landed but not yet
 * observed (landed.h), the mbarrier table (mbarrier.h), the wgmma completions (wgmma.h), the
 * data-race detector (race.h), the device runtime (devrt.h), the report gatherer
 * (gather.h), the frame cache (frame.h), the scheduler's state (sched.h).
 */
#ifndef PTXI_LAUNCH_H
#define PTXI_LAUNCH_H

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ptxi/ptxi.h"

#include "support/diag.h"
#include "prog.h"
#include "support/rng.h"

#define FULL_MASK 0xffffffffu
#define MAX_CALL_DEPTH 1024
/* A thread's stack: the .local variables and .param areas of its live frames. The H100
 * gives a thread at most 512 KiB of local memory; a deeper recursion faults there. */
#define MAX_THREAD_STACK (512u * 1024u)

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
	G_WGMMA,        /* wgmma.mma_async: until its whole warpgroup issued it (wait_id: the
			 * warp's wgmma.mma_async count before it)                           */
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
	const struct dinsn *dbg_seen; /* ptxi debug: the instruction it last stopped or passed at */
};

struct cta;

struct warp {
	struct cta *cta;
	uint32_t id;                /* warp index in the CTA                                   */
	uint32_t valid;             /* lanes that exist (partial last warp)                    */
	uint32_t live;              /* lanes not exited                                        */
	bool split;                 /* it ever had two groups (jit_uni.c: no register uniform;
				     * in live's padding, the size --stats counts unchanged)    */
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
	const struct dinsn *head;   /* the loop's first instruction in the function's order   */
	uint32_t n;
	struct spin_place { uint8_t space; uint32_t size; uint64_t addr; } place[SPIN_PLACES];
};

/* The watch for warps that spin on memory nobody writes (spin.c), one per cluster run:
 * zeroed to start. */
struct spin_warp;
struct spin_watch {
	uint64_t writes, epoch;     /* the launch's counts when the quiet stretch began        */
	uint32_t rounds;            /* scheduling rounds it has lasted                         */
	uint32_t nwarps;
	bool head;                  /* --jobs: every earlier cluster was shown when it began   */
	bool off;                   /* out of memory for a saved state: no watch               */
	bool sampled;               /* warps' watches changed since the last restart           */
	struct spin_warp *w;        /* per warp of the cluster                                 */
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
	const struct dinsn *first; /* the aligned instruction the first waiter parked at        */
	bool mixed;                 /* a waiter parked at another aligned one (barrier.c)       */
	bool red;                   /* a bar.red arrived (its waiters get results)              */
};

struct mbar;

/* A look whose answer rarely changes (is a map full yet?), taken 1, 2, 4, ... events apart
 * (the gap capped at 2^20), so the looks cost little against the events they serve. */
struct look {
	uint32_t probe, gap;    /* events until the next look, and the gap after it          */
};

static inline bool look_due(struct look *k)
{
	if (k->probe) {
		k->probe--;
		return false;
	}
	if (k->gap < (1u << 20))
		k->gap = k->gap ? k->gap * 2 : 1;
	k->probe = k->gap;
	return true;
}

struct cta {
	struct cluster *cluster;
	uint32_t rank;              /* %cluster_ctarank                                        */
	uint32_t slot;              /* among the CTAs that run together: the rank, or in a
				     * cooperative launch the CTA's place in the whole grid    */
	uint32_t ctaid[3], cluster_ctaid[3];
	uint32_t linear;            /* linear CTA index in the grid                            */
	uint8_t *smem;
	uint32_t smem_size;
	bool charged;               /* its bytes are charged to the launch (--max-memory)       */
	struct mbar **mbar_at;      /* per 8-byte word of smem: live mbarrier or NULL (lazy)  */
	uint8_t *init_bits;         /* per byte of smem, a bit: written (initcheck.c)           */
	bool init_full;             /* every bit of init_bits set: nothing left to test         */
	struct look init_look;      /* clean reads until init_full is looked at                */
	uint8_t *proxy_dirty;       /* per 16-byte granule: written by a generic store since the
				     * last fence.proxy.async (lazy; rule async-proxy-fence)     */
	bool proxy_all;             /* every granule of proxy_dirty set: marks change nothing   */
	struct look proxy_look;     /* warp stores until proxy_all is looked at                */
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
	struct spin_watch spin;     /* warps spinning on memory nobody writes (spin.c)        */
};

struct launch_config {
	uint32_t grid[3], block[3], cluster[3];
	bool explicit_cluster;
	bool cooperative;           /* every CTA of the grid runs at once (sched.c)           */
	uint32_t dyn_shared;
	uint64_t max_steps;
	uint64_t seed;
	bool keep_going;
	bool no_race;               /* --no-race: the data-race detector is off               */
	bool no_jit;                /* --no-jit: no native code for hot ALU runs (jit.h)      */
	bool trace_mbar, trace_all;
	bool trace_print;            /* --trace given (trace_mbar may be on for the timeline) */
	bool trace_cta_given, trace_warp_given; /* --trace-cta, --trace-warp filters        */
	uint32_t trace_cta[3], trace_warp;
	uint32_t trace_lines[2];     /* --trace-lines A-B ([1] 0: every line)                 */
	const char *trace_lines_file; /* --trace-lines FILE.cu:A-B: lines of that source     */
	uint32_t trace_width;        /* fold trace lines past this column (0: never)          */
	uint64_t heap_size;         /* device heap for malloc (bytes)                         */
	FILE *out;                  /* where device printf writes                             */
	FILE *assert_out;           /* where a failed assert's message goes (NULL: out); ptxi
				     * exec: stderr, as a GPU's driver writes it              */
	const uint8_t *rule_sev;    /* per rule, an enum sev (--rule; NULL: each its own)       */
};

struct wg_insn;
struct wg_warp;
struct wg_cta;
struct race;
struct event;
struct landed;

/* An mbarrier object (mbarrier.c runs its state machine; the race detector and the
 * scheduler read it). */
struct mbar {
	struct cta *cta;
	uint32_t off;           /* shared offset in its CTA                                  */
	uint32_t id;            /* index + 1 in the launch's table (state tokens carry it)    */
	uint32_t first_id;      /* id of the first object initialised at this place (the ones
				 * between were invalidated and replaced, then freed)         */
	uint32_t index;         /* in L->mbars.obj                                           */
	bool valid;
	uint64_t phase;         /* completed phases                                          */
	int64_t expected, pending, tx;
	int64_t tx_expected;    /* bytes expected in this phase (for deadlock reports)       */
	bool observed_prev;     /* a wait returned True for phase-1 (ISA 9.7.13.15.4)         */
	bool unobserved_reported;
	bool vis_reported;       /* rule 39 reported once per object                        */
	uint32_t cp_hold;       /* arrive-ons of cp.async.mbarrier.arrive (no .noinc) still to
				 * land: they hold the phase open without counting as pending
				 * arrivals (the H100 makes each one a transaction of 1)        */
	bool fenced;            /* fence.mbarrier_init ran in its CTA after the init          */
	uint32_t fence_cbar_phase; /* cluster-barrier phase at that fence                     */
	uint32_t inval_line;    /* source line of the mbarrier.inval that ended it (messages) */
	uint64_t reported;      /* wait rules already reported on it (bit = rule id)          */
	/* the first parity-1 wait that passed while phase 0 was open (it names the phase
	 * before phase 0): a consumer's wrong first parity, named in a deadlock report */
	const struct dinsn *fresh_pass_at;
	struct warp *fresh_pass_w;
	uint32_t fresh_pass_mask;
};

/* The launch's part that mbarrier.c owns (`mbars`; mbar_table_free): the objects made during
 * the launch; state tokens carry an object's id, which indexes this table. */
struct mbar_table {
	struct mbar **obj;
	uint32_t n, cap;            /* objects alive: an invalidated one is freed when an init
				     * replaces it and nothing refers to it any more          */
	uint32_t ids;               /* ids handed out: the newest object's id                  */
};

/* The launch's part that async.c owns (`async`; async_init, async_reset, async_free):
 * events pending, and the --seed stream that picks landing times. */
/* The launch's part that landed.c owns (`landed`; landed_free): bulk copies that landed
 * but whose completion no one has observed yet. */
struct landed_table {
	struct landed *rec;
	uint32_t n, cap;
};

/* The launch's part that memory.c owns (`gproxy`; mem_gproxy_reset): global memory's proxy
 * maps, per region (by index in the memory's table), of the running cluster's generic
 * writes since its last fences. A cluster's own: a cluster starts with none, so that with
 * --jobs each worker keeps its cluster's and the reports do not depend on the schedule. */
struct gproxy {
	uint8_t **async;            /* written since fence.proxy.async (rule async-proxy-fence) */
	uint8_t **tmap;             /* since fence.proxy.tensormap (tensormap-proxy-fence)      */
	uint32_t n;                 /* regions each has room for                                */
};

struct async_queue {
	struct event *events;
	uint32_t nevents, events_cap;
	uint64_t next_due;          /* earliest due step of the events (UINT64_MAX if none)   */
	uint64_t event_seq;
	struct rng rng;
};

/* The launch's part that exec_wgmma.c owns (`wg`; wgmma_launch_init, wgmma_launch_free):
 * wgmma.mma_async in flight, and the --seed stream that picks when a committed group
 * completes. */
struct wg_launch {
	uint32_t reading;           /* parts reading shared operands: stores are checked      */
	uint64_t due;               /* --seed: earliest step a committed group may complete   */
	struct warp **warps;        /* warps with parts in flight                             */
	uint32_t nwarps, warps_cap;
	struct rng rng;
};

/* A thread's part of the memory's scratch (mem_scratch_calloc): the bytes [at, end) of it
 * that it has yet to take; zero: none yet. */
struct scratch_part {
	uint64_t at, end;
};

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
	uint64_t writes;            /* instructions run that may write memory (spin.c)       */
	uint64_t epoch;             /* bumped by every change that can unblock a parked group:
				     * mbarrier and barrier state, async landings, exits. Plain
				     * stores are not: a test_wait loop that also stores still
				     * counts as making no progress (deadlock detection)     */
	uint64_t clock;             /* simulated time (ns), for %globaltimer and latencies    */
	struct rng sched_rng;       /* --seed: the order warps are tried in (sched.c)         */
	int status;                 /* 0 ok, 1 rule broken, 3 deadlock/steps, 2 bad input     */
	bool stop;                  /* a faulting rule: finish now                             */
	bool initcheck;             /* reads of shared memory are tested (initcheck.c)        */
	ptxi_progress_fn *progress; /* the caller's progress line, and its interrupt flag      */
	void *progress_ctx;
	const volatile sig_atomic_t *interrupt;
	uint64_t next_poll;         /* the step at which they are next looked at               */
	struct spin_rec *spin_rec;  /* while a spinning loop is watched (sched.c): its reads   */
	struct cluster *running;    /* the CTAs the scheduler runs now: a cluster, or the set
				     * of a cooperative grid's every CTA (sched.c)            */
	struct spin_warp *spin_keep; /* the last cluster's watches, their saved states' buffers */
	uint32_t spin_nkeep;        /* kept for the next cluster (spin.c)                     */
	uint64_t clusters_done, clusters;
	const uint64_t *run_clusters; /* --ctas: the clusters to run, by linear index,
				     * `clusters` of them (NULL: every cluster of the grid)    */
	struct mbar_table mbars;    /* mbarrier objects (mbarrier.c)                          */
	struct async_queue async;   /* asynchronous copies in flight (async.c)                */
	struct landed_table landed; /* copies landed, completion not observed (landed.c)      */
	struct gproxy gproxy;       /* the cluster's unfenced generic writes of global memory  */
	struct wg_launch wg;        /* wgmma.mma_async in flight (exec_wgmma.c)               */
	/* current instruction context, for diagnostics (Lua's savepc) */
	struct warp *cw;
	const struct dinsn *ci;
	uint32_t cmask;
	FILE *trace;
	struct race *race;          /* the data-race detector's state (race.c), NULL if off   */
	struct timeline *timeline;  /* --timeline: what the page shows (timeline.c)       */
	struct frame **frame_cache; /* per dfunc index: frames to reuse (no malloc churn)     */
	struct cta_spare *spare;    /* finished CTAs' allocations to reuse (sched.c)           */
	uint32_t nspare;
	struct group *spare_groups; /* exited and finished warps' groups to reuse (sched.c)   */
	struct scratch_part scratch; /* this thread's part of mem's scratch (frames, watches)   */
	struct report *rep;         /* the report being gathered, error counts (gather.c)     */
	/* --jobs (jobs.c): set in a worker thread's copy of the launch, NULL with one thread */
	struct gather_log *log;     /* its cluster's reports, replayed in cluster order        */
	const uint64_t *steps_shown; /* steps of the clusters shown so far, all earlier (atomic) */
	uint64_t cluster_from;      /* `steps` when this cluster began                         */
	const uint64_t *stop_from;  /* the first cluster that stopped the launch (atomic): a
				     * later one still running ends, its reports unseen     */
	pthread_mutex_t *atom_lock; /* held by an atomic: clusters share global memory         */
	bool in_rmw;                /* this thread holds atom_lock (global_rmw_begin)         */
	void (*log_poll)(struct launch *L); /* after a rule break is logged: may show it early */
	void (*log_full)(struct launch *L); /* the detector's global log is full: log_poll, and
					     * the workers take turns if it waits (jobs.c)      */
	bool (*is_head)(const struct launch *L);/* every earlier cluster is shown (spin.c)         */
	void (*wait_head)(struct launch *L); /* wait until it is, or the launch stopped before */
	void *jobs;                 /* the workers' shared state, for log_poll                 */
	const struct dbg_hooks *dbg; /* ptxi debug's hooks (debug_hook.h), NULL: none          */
};

/* The number of lanes in a mask. */
static inline uint32_t popcount32(uint32_t m)
{
	if (m == 0xffffffffu) /* a whole warp: the common case */
		return 32;
	m = m - ((m >> 1) & 0x55555555u);
	m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
	return (((m + (m >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}

/* With --jobs, clusters on other threads may read-modify-write the same global word at the
 * same moment: an atomic's lanes, or a bulk or tensor reduction's elements, run whole
 * between these two. */
static inline void global_rmw_begin(struct launch *L)
{
	if (L->atom_lock) {
		pthread_mutex_lock(L->atom_lock);
		L->in_rmw = true;
	}
}

static inline void global_rmw_end(struct launch *L)
{
	if (L->atom_lock) {
		L->in_rmw = false;
		pthread_mutex_unlock(L->atom_lock);
	}
}

#endif
