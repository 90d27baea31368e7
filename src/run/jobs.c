/*
 * jobs.c - clusters on threads (--jobs N). Workers take clusters in order from a counter;
 * each runs its cluster with the launch's reports kept in a log (gather_log.c) and hands
 * it back; whoever hands back the oldest unshown cluster replays the logs that are ready,
 * in cluster order, one thread at a time (the lock let go while a log replays). A cluster
 * that stops the launch (a faulting rule, a deadlock, the step limit) ends the launch as
 * with one thread: later clusters' logs are dropped and the ones still running end at
 * their next poll. Workers run at most a window
 * of clusters ahead of the oldest unshown one, so the logs kept stay few. Where the
 * detector's logs of global accesses fill and wait for the clusters before (the workers
 * take turns, and each log's replay costs more than judging at once), clusters start only
 * as the oldest unshown for a while, as on one thread (jobs_turns.h).
 */
#include "jobs.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hopper/async.h"
#include "devrt.h"
#include "report/gather.h"
#include "hopper/landed.h"
#include "launch.h"
#include "hopper/mbarrier.h"
#include "race.h"
#include "sched.h"
#include "hopper/wgmma.h"
#include "jobs_turns.h"

#define WINDOW_PER_JOB 4 /* clusters a worker may run ahead of the oldest unshown, each */
#define LOG_DRAIN 4096   /* entries a cluster's log holds before it shows them early      */

/* A cluster run and not yet shown. */
struct slot {
	struct gather_log *log;     /* NULL: none could be made (out of memory)               */
	uint64_t steps, thread_steps; /* warp- and thread-instructions it ran                 */
	int status;
	bool stop, done;
	uint64_t began;             /* when it started (ns: log_full)                         */
	bool beside;                /* started while an earlier cluster was not shown          */
	bool turned;                /* its detector's full log took turns (log_full)          */
};

struct jobs {
	struct launch *L;
	struct launch base;         /* L before any worker starts: what each copies           */
	uint32_t nc[3];             /* clusters per dimension                                 */
	uint64_t n;                 /* clusters                                               */
	pthread_mutex_t lock;       /* the fields below, and everything replay touches        */
	pthread_cond_t cond;        /* a cluster was shown: a worker may take another         */
	uint64_t next, shown;       /* next cluster to run; clusters shown (or dropped)       */
	bool showing;               /* a thread replays logs (show_ready), the lock let go    */
	uint64_t stop_from;         /* first cluster that stopped the launch (atomic)         */
	struct slot *slot;          /* window entries, by cluster index modulo window          */
	uint64_t window;
	uint64_t shown_steps;       /* steps of the clusters shown (atomic: workers read it)  */
	unsigned workers;           /* workers started (their race detectors' names)           */
	struct jobs_turns turns;    /* whether clusters start one at a time (log_full)         */
	pthread_mutex_t atom_lock;
};

/* Why the launch's clusters must run one at a time, or NULL. */
static const char *one_thread_reason(const struct launch *L)
{
	if (L->dbg)
		return "ptxi debug follows one schedule";
	if (!L->cfg.no_race && !race_jobs_ok(L))
		return "the data-race detector's thread ids leave no room for its clusters' "
		       "markers (--no-race turns it off)";
	if (L->cfg.trace_print || L->cfg.trace_mbar || L->timeline)
		return "--trace and --timeline follow one schedule";
	return NULL;
}

/* ---- a worker's copy of the launch -------------------------------------------------- */

/* Where replayed printf output goes. */
static FILE *launch_out(const struct launch *L)
{
	return L->cfg.out ? L->cfg.out : stdout;
}

/* A cluster that keeps many reports (--keep-going on a bug every lane hits, a rule broken
 * each time round a loop) waits until every earlier cluster is shown, then shows what it
 * has: they are what its end would show first, so the output is the same and the memory
 * its log holds stays bounded. A cluster after one that stopped the launch shows nothing
 * and ends. */
static void log_poll(struct launch *S)
{
	struct jobs *J = S->jobs;
	uint64_t i = S->clusters_done; /* its index (run_one) */
	/* (a worker in an atomic holds atom_lock, which the head may be waiting for: it shows
	 * its log at the next poll outside, one warp instruction's reports later) */
	if ((gather_log_entries(S->log) < LOG_DRAIN && !S->log->want_drain) || S->log->group ||
	    S->in_rmw)
		return;
	pthread_mutex_lock(&J->lock);
	while (J->shown < i && __atomic_load_n(&J->stop_from, __ATOMIC_RELAXED) > i)
		pthread_cond_wait(&J->cond, &J->lock);
	bool stop = __atomic_load_n(&J->stop_from, __ATOMIC_RELAXED) < i || J->L->stop;
	pthread_mutex_unlock(&J->lock);
	/* (drained without the lock: the launch is this cluster's until it is handed in) */
	if (!stop)
		gather_log_drain(J->L, S->log, launch_out(J->L));
	if (stop || J->L->stop) /* (the detector's replay found a race that ends it) */
		S->stop = true;
}

static uint64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* The detector's log of S's cluster's global accesses is full: it waits until every
 * earlier cluster is shown, then replays it (log_poll). If it waited longer than it ran,
 * the workers take turns (a naive matrix product's CTA makes ~8x as many accesses as a log
 * holds): the next clusters start one at a time (jobs_turns.h). */
static void log_full(struct launch *S)
{
	struct jobs *J = S->jobs;
	uint64_t i = S->clusters_done; /* its index (run_one) */
	if (!S->log->group) { /* (else log_poll shows nothing yet) */
		uint64_t t0 = now_ns(), t1 = t0;
		pthread_mutex_lock(&J->lock);
		while (J->shown < i && __atomic_load_n(&J->stop_from, __ATOMIC_RELAXED) > i) {
			pthread_cond_wait(&J->cond, &J->lock);
			t1 = now_ns();
		}
		struct slot *sl = &J->slot[i % J->window];
		if (turns_full_log(&J->turns, t0 - sl->began, t1 - t0))
			sl->turned = true;
		pthread_mutex_unlock(&J->lock);
	}
	log_poll(S); /* (it waits no more) */
}

/* Whether every cluster before S's is shown: its global memory is then one thread's. */
static bool is_head(const struct launch *S)
{
	const struct jobs *J = S->jobs;
	return __atomic_load_n(&J->shown, __ATOMIC_RELAXED) >= S->clusters_done;
}

/* Wait until every cluster before S's is shown (spin.c); a cluster after one that stopped
 * the launch stops. */
static void wait_head(struct launch *S)
{
	struct jobs *J = S->jobs;
	uint64_t i = S->clusters_done;
	pthread_mutex_lock(&J->lock);
	while (J->shown < i && __atomic_load_n(&J->stop_from, __ATOMIC_RELAXED) > i)
		pthread_cond_wait(&J->cond, &J->lock);
	if (J->shown < i || J->L->stop)
		S->stop = true;
	pthread_mutex_unlock(&J->lock);
}

static bool shard_init(struct launch *S, struct jobs *J, struct diag *d, unsigned index)
{
	*S = J->base; /* not *J->L, which replays write while workers start */
	S->steps = S->thread_steps = S->clock = S->epoch = 0;
	S->status = 0;
	S->stop = false;
	memset(&S->mbars, 0, sizeof S->mbars);
	memset(&S->landed, 0, sizeof S->landed);
	memset(&S->gproxy, 0, sizeof S->gproxy);
	S->rep = NULL; /* (the device heap, in the shared memory, devrt_begin made) */
	S->race = NULL;
	S->spin_rec = NULL;
	S->spin_keep = NULL; /* (spin.c: each worker keeps its own watches) */
	S->spin_nkeep = 0;
	S->scratch = (struct scratch_part){0, 0}; /* (memory.c: a part of its own) */
	S->progress = NULL;
	S->cw = NULL;
	S->ci = NULL;
	*d = (struct diag){0}; /* sched_begin's error goes nowhere: the worker does not start */
	S->diag = d;
	S->steps_shown = &J->shown_steps;
	S->stop_from = &J->stop_from;
	S->atom_lock = &J->atom_lock;
	S->log_poll = log_poll;
	S->log_full = log_full;
	S->is_head = is_head;
	S->wait_head = wait_head;
	S->jobs = J;
	async_init(S);
	wgmma_launch_init(S);
	if (!sched_begin(S) || !race_shard(S, index, J->L))
		return false;
	d->sink = gather_log_sink; /* into each cluster's log (run_one) */
	if (J->base.diag->record) /* reports as data: records, replayed as they came */
		d->record = gather_log_record;
	return true;
}

static void shard_free(struct launch *S)
{
	sched_end(S);
	mbar_table_free(S);
	async_free(S);
	landed_free(S);
	wgmma_launch_free(S);
	free(S->rep);
}

/* ---- showing clusters in order ------------------------------------------------------ */

static void merge_status(struct launch *L, int s)
{
	if (s && !(s == 1 && L->status)) /* a rule broken never hides a worse status */
		L->status = s;
}

/* Cluster J->shown's log replayed (its slot sl done); the cluster from which the launch
 * stops, or UINT64_MAX. Only the thread showing (show_ready) touches the launch. */
static uint64_t show_one(struct jobs *J, struct slot *sl, uint64_t i)
{
	struct launch *L = J->L;
	uint64_t stop = UINT64_MAX;
	if (L->stop) {
		gather_log_free(sl->log); /* after the cluster that ended the launch */
	} else if (!sl->log) {
		diag_emit(L->diag, DIAG_ERROR, NULL, (struct src_span){0, 0}, NULL,
			  "out of memory keeping a cluster's reports (--jobs)");
		merge_status(L, 2);
		L->stop = true;
	} else {
		gather_log_replay(L, sl->log, launch_out(L));
		__atomic_store_n(&J->shown_steps, J->shown_steps + sl->steps, __ATOMIC_RELAXED);
		L->steps += sl->steps; /* --stats: the clusters shown, in order */
		L->thread_steps += sl->thread_steps;
		if (L->stop) { /* the detector's replay: a race one thread stops at */
			stop = i;
		} else {
			merge_status(L, sl->status);
			L->stop = sl->stop;
		}
		L->clusters_done++;
		if (!L->stop && sched_launch_limit(L, J->shown_steps))
			stop = i + 1;
	}
	return stop;
}

/* Replay the clusters that are next in order and done (J->lock held): one thread at a
 * time, the first to find some ready, which shows too those handed in meanwhile. The lock
 * is let go while a log replays, so that the other workers hand in and take clusters (a
 * log of the detector's global accesses takes long to replay). */
static void show_ready(struct jobs *J)
{
	if (J->showing)
		return;
	J->showing = true;
	while (J->shown < J->n && J->slot[J->shown % J->window].done) {
		struct slot *sl = &J->slot[J->shown % J->window]; /* (not taken again meanwhile) */
		pthread_mutex_unlock(&J->lock);
		uint64_t stop = show_one(J, sl, J->shown);
		pthread_mutex_lock(&J->lock);
		if (stop < __atomic_load_n(&J->stop_from, __ATOMIC_RELAXED))
			__atomic_store_n(&J->stop_from, stop, __ATOMIC_RELAXED);
		*sl = (struct slot){0};
		__atomic_store_n(&J->shown, J->shown + 1, __ATOMIC_RELAXED); /* is_head reads it */
		pthread_cond_broadcast(&J->cond);
	}
	J->showing = false;
}

/* ---- workers ------------------------------------------------------------------------ */

/* The next cluster's index, or false when there is none to run (J->lock held): within the
 * window, and while the workers take turns (log_full), once every earlier one is shown. */
static bool take(struct jobs *J, uint64_t *i)
{
	for (;;) {
		if (J->next >= J->n || J->next > __atomic_load_n(&J->stop_from, __ATOMIC_RELAXED))
			return false;
		if (J->next < J->shown + J->window && turns_may_start(&J->turns, J->next, J->shown))
			break;
		pthread_cond_wait(&J->cond, &J->lock);
	}
	*i = J->next++;
	J->slot[*i % J->window] = (struct slot){.began = now_ns(),
						.beside = turns_start(&J->turns, *i, J->shown)};
	return true;
}

static void run_one(struct jobs *J, struct launch *S, struct diag *d, uint64_t i)
{
	struct gather_log *log = gather_log_new();
	uint64_t thread_from = S->thread_steps;
	if (log) {
		S->log = log;
		d->ctx = d->record_ctx = log;
		S->cfg.out = gather_log_out(log);
		S->status = 0;
		S->stop = false;
		S->clusters_done = i; /* its index: messages, and whether it still counts */
		S->next_poll = S->steps + (1u << 16);
		uint32_t cid[3];
		sched_cluster_id(S, i, cid);
		sched_cluster(S, cid);
		S->log = NULL;
	}
	pthread_mutex_lock(&J->lock);
	struct slot *sl = &J->slot[i % J->window];
	if (sl->beside)
		turns_beside_ended(&J->turns, sl->turned);
	*sl = (struct slot){.log = log, .steps = log ? S->steps - S->cluster_from : 0,
			    .thread_steps = S->thread_steps - thread_from, .status = S->status,
			    .stop = S->stop || S->status == 3 || !log, .done = true};
	if (sl->stop && i < __atomic_load_n(&J->stop_from, __ATOMIC_RELAXED))
		__atomic_store_n(&J->stop_from, i, __ATOMIC_RELAXED);
	show_ready(J);
	pthread_cond_broadcast(&J->cond);
	pthread_mutex_unlock(&J->lock);
}

static void *worker(void *arg)
{
	struct jobs *J = arg;
	struct launch S;
	struct diag d;
	pthread_mutex_lock(&J->lock);
	unsigned index = J->workers++;
	pthread_mutex_unlock(&J->lock);
	bool ok = shard_init(&S, J, &d, index);
	uint64_t i;
	pthread_mutex_lock(&J->lock); /* a worker that could not start runs nothing */
	while (ok && take(J, &i)) {
		pthread_mutex_unlock(&J->lock);
		run_one(J, &S, &d, i);
		pthread_mutex_lock(&J->lock);
	}
	pthread_mutex_unlock(&J->lock);
	shard_free(&S);
	return NULL;
}

/* ---- the launch --------------------------------------------------------------------- */

static int run_jobs(struct launch *L, unsigned n, const uint32_t nc[3])
{
	struct jobs J = {.L = L, .nc = {nc[0], nc[1], nc[2]}, .n = L->clusters,
			 .stop_from = UINT64_MAX, .window = (uint64_t)n * WINDOW_PER_JOB,
			 .turns = turns_new()};
	pthread_t *th = calloc(n, sizeof *th);
	J.slot = calloc(J.window, sizeof *J.slot);
	/* the detector's shadow of global memory, which the clusters' logs are replayed on */
	bool race = !L->cfg.no_race;
	if (!th || !J.slot || !devrt_begin(L) ||
	    (race && (!race_begin(L) || !race_jobs_begin(L)))) {
		if (race)
			race_end(L);
		free(th);
		free(J.slot);
		return sched_launch(L);
	}
	pthread_mutex_init(&J.lock, NULL);
	pthread_cond_init(&J.cond, NULL);
	pthread_mutex_init(&J.atom_lock, NULL);
	/* made now, not lazily by two threads at once: the source's line starts */
	if (L->file) {
		uint32_t line, col;
		src_locate(L->file, 0, &line, &col);
	}
	J.base = *L;
	unsigned started = 0;
	while (started + 1 < n && pthread_create(&th[started], NULL, worker, &J) == 0)
		started++;
	worker(&J); /* this thread is one of them */
	for (unsigned k = 0; k < started; k++)
		pthread_join(th[k], NULL);
	if (J.shown < J.n && !L->stop) { /* no worker could run the rest */
		diag_emit(L->diag, DIAG_ERROR, NULL, (struct src_span){0, 0}, NULL,
			  "out of memory starting a thread's copy of the launch (--jobs)");
		merge_status(L, 2);
	}
	race_end(L);
	pthread_mutex_destroy(&J.atom_lock);
	pthread_cond_destroy(&J.cond);
	pthread_mutex_destroy(&J.lock);
	free(J.slot);
	free(th);
	return L->status;
}

/* --jobs left out (0): a thread per online CPU, or one, silently, where the output would
 * depend on the number: what follows one schedule (one_thread_reason), and the device
 * heap, whose addresses depend on the order clusters allocate in (docs/jobs.md); and a
 * cooperative launch, whose CTAs all run together on one thread. */
static unsigned auto_jobs(const struct launch *L)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (cpus <= 1 || L->cfg.cooperative || one_thread_reason(L) || devrt_uses_heap(L))
		return 1;
	return cpus > PTXI_MAX_JOBS ? PTXI_MAX_JOBS : (unsigned)cpus;
}

int jobs_launch(struct launch *L, unsigned n)
{
	const struct launch_config *k = &L->cfg;
	uint32_t nc[3] = {k->grid[0] / k->cluster[0], k->grid[1] / k->cluster[1],
			  k->grid[2] / k->cluster[2]};
	L->clusters = sched_clusters(L);
	if (L->clusters <= 1)
		return sched_launch(L);
	if (!n)
		n = auto_jobs(L);
	if (n <= 1)
		return sched_launch(L);
	if (k->cooperative) {
		char m[200];
		snprintf(m, sizeof m, "--jobs %u: a cooperative launch runs on one thread, every "
			 "CTA of its grid together", n);
		diag_emit(L->diag, DIAG_NOTE, NULL, (struct src_span){0, 0}, NULL, m);
		return sched_launch(L);
	}
	const char *why = one_thread_reason(L);
	if (why) {
		char m[300];
		snprintf(m, sizeof m, "--jobs %u: the clusters run one at a time: %s", n, why);
		diag_emit(L->diag, DIAG_NOTE, NULL, (struct src_span){0, 0}, NULL, m);
		return sched_launch(L);
	}
	if (n > L->clusters)
		n = (unsigned)L->clusters;
	if (n > PTXI_MAX_JOBS)
		n = PTXI_MAX_JOBS;
	return run_jobs(L, n, nc);
}
