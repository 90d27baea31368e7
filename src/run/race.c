/*
 * race.c - happens-before data races (rule data-race) under the PTX memory model.
 *
 * Clocks. Every thread (lane) has its own epoch `clock` and a vector clock `vc` of what it
 * has acquired. A release joins the thread's vc and epoch into the sync object's clock and
 * starts a new epoch; an acquire joins the object's clock into the thread's vc. Vector
 * clocks are immutable once shared (reference counts, copy on write), stored as one dense
 * chunk per CTA that appears in them: after a barrier every participant shares one vector,
 * so a CTA barrier costs O(threads), not O(threads^2).
 * Sync objects: CTA barrier instances (bar.sync/arrive/red, named, with counts), bar.warp.sync,
 * cluster barrier phases (.release arrive, .acquire wait), mbarrier phases (arrive = release,
 * a wait that returned True for the phase = acquire), and memory locations written by
 * release patterns (st.release, atom.release/acq_rel, a strong write after a release fence)
 * and read by acquire patterns (ld.acquire, atom.acquire/acq_rel, a strong read followed by
 * an acquire fence), with scopes: a .cta release does not reach another CTA.
 * Shadow memory. Shared, distributed shared and global memory have one cell per 4-byte
 * granule, allocated a page at a time on first touch: the last write and the reads since
 * (an antichain: a read ordered before a newer one is dropped), each with its byte mask,
 * thread, epoch and instruction. Two accesses race when their bytes overlap, one is a write,
 * they are not both strong with scopes that include each other (morally strong), and
 * the earlier one's epoch is not in the later thread's vector clock.
 * Asynchronous operations (cp.async, bulk and tensor copies, st.async, red.async) are agents
 * of their issuing thread, with thread ids of their own (agent_of): a copy's landing writes
 * its destination and reads its source with the agent's clock, checked against earlier
 * accesses with what the issuing thread had acquired at the issue (race_copy_issue), and
 * what completes it releases the agent's clock: the complete-tx or arrive-on into an
 * mbarrier phase, or the issuing thread's wait_group (its own agents' clocks are kept
 * beside its vector, seen_cp / seen_bulk, and released with it). Accesses made while the
 * copy was in flight were judged then (async.c: rule async-copy-race, or race_copy_in_flight
 * when not ordered after the issue), not again when it lands.
 */
#include "race.h"
#include "race_priv.h"

#include <stdlib.h>
#include <string.h>

#include "report/gather.h"
#include "launch.h"
#include "memory.h"
#include "report/rules.h"
#include "report/srcloc.h"

#define GRAN 4u             /* bytes per shadow cell                                     */
#define PAGE_CELLS 256u     /* cells per shadow page (1 KiB of memory)                   */
#define MAX_READERS 64u     /* concurrent reads kept per cell beyond the first           */
#define FIRST_READERS 2u    /* room for them made at first (doubled up to MAX_READERS)   */
#define MAX_PAIRS 64u       /* distinct racing instruction pairs reported (--keep-going) */
#define INIT_SEEN 8u        /* mbarriers per thread known initialised before it          */

/* ---- vector clocks ------------------------------------------------------------------- */

struct vchunk {
	uint32_t cta;           /* linear CTA index                                          */
	uint32_t *c;            /* one clock per thread of that CTA                          */
};

struct vc {
	uint32_t refs;
	uint32_t n, cap;        /* chunks, sorted by CTA                                     */
	uint64_t gen;           /* names the contents: renumbered on every change            */
	uint64_t joined;        /* gen of the last vector joined in: this one covers it      */
	struct vchunk *ch;
};

/* ---- shadow memory ------------------------------------------------------------------- */

enum { RF_STRONG = 1, RF_RMW = 2, RF_ASYNC = 4 }; /* rec.flags; bits 4-6: scope (enum scope) */
enum scope { SC_NONE, SC_CTA, SC_CLUSTER, SC_GPU, SC_SYS };

struct rec {
	const struct dinsn *insn;
	uint32_t tid, clock;    /* clock 0: no access                                        */
	uint32_t step;          /* L->steps when it was made (low bits)                      */
	uint8_t mask, flags;
};

struct readers {
	uint32_t n, cap;        /* entries; room for them (at most MAX_READERS)              */
	uint64_t ok_gen;        /* a vector (gen) under which no entry happens before: a read
				 * with it adds itself without the scan (0: unknown)         */
	uint64_t tids[4];       /* bit (tid & 255) of each entry's thread (a superset)       */
	struct rec e[];
};

struct cell {
	struct rec w, r;        /* the last write; one read since                            */
	struct rec r2;          /* the first of the further reads, while it is the only one
				 * (clock 0: none here; `more` then holds them all): most
				 * granules have two readers in a barrier interval, and a
				 * word's second reader needs no list (quick_word)           */
	struct readers *more;   /* further reads concurrent with r                           */
};

struct shadow {
	uint64_t npages;
	struct cell **pages;
	uint64_t charged;       /* bytes charged against --max-memory (pages, readers)       */
};

/* ---- threads and sync objects -------------------------------------------------------- */

struct rthread {                /* (its epoch is apart: race.clk)                        */
	struct vc *vc;
	uint8_t fence;              /* scope of the last release fence (a release pattern)   */
	bool init_fence;            /* fence.mbarrier_init since its last cluster arrive     */
	uint32_t warp;              /* its warp's entry of race.wvc                          */
	struct vc *pending;         /* releases seen by strong reads, for an acquire fence    */
	const struct dinsn *phantom;/* a wait that passed for the phase before the first      */
	uint32_t init_seen[INIT_SEEN]; /* ids of mbarriers whose init it was found after, each
					* in slot id % INIT_SEEN (a ring's stages, all kept)  */
	uint32_t seen_cp, seen_bulk;/* clocks of its own cp.async / bulk-group agents that its
				     * wait_groups acquired (released with its vector)        */
	uint32_t mbar_clock;        /* copies it issued that complete on an mbarrier          */
	uint32_t wsync;             /* L->steps of its last shfl/vote/match/redux .sync       */
};

struct loc {                    /* a location written by release patterns                */
	uint64_t key;
	struct vc *wide;            /* releases at .cluster scope or wider                   */
	struct vc *cta;             /* releases at .cta scope by CTA cta_id                  */
	uint32_t cta_id;
};

struct rmbar {
	struct vc *acc, *last;      /* arrivals of the open phase; of the last completed one */
	struct rec init;            /* the mbarrier.init that made it                        */
};

struct rcta {
	struct vc *acc[16], *done[16];
	uint32_t pend[16];          /* warps whose whole arrival at a barrier that they wait at
				     * is released when it completes (race_bar_arrive)         */
	struct shadow smem;
	struct vc *cacc, *cdone;    /* the cluster barrier, in its cluster's first CTA        */
};

struct race {
	uint32_t nt;                /* threads per CTA                                       */
	uint32_t nctas;             /* CTAs of the grid; agents' CTA numbers lie above       */
	bool agents;                /* their thread ids fit in 32 bits: copies are recorded  */
	uint64_t charged;           /* mbarrier and global shadow tables (--max-memory)      */
	uint32_t shift;             /* thread ids: CTA << shift | thread (no divisions)       */
	bool seen_any;              /* some thread's wait_group acquired copies of its own    */
	uint64_t gen;
	struct vc *zero;
	struct cluster *cl;         /* the running cluster                                   */
	struct rthread *th;         /* its threads: slot * nt + thread                       */
	uint32_t *clk;              /* their epochs, in th's order: a warp's lie together, so
				     * that a barrier raises them in one vector loop          */
	struct vc **wvc;            /* by warp (slot * nw + id): the vector every lane of that
				     * warp holds, when known (NULL: not known), so that a whole
				     * warp's barrier or access does not compare 32 pointers  */
	uint32_t nw;                /* warps per CTA                                         */
	bool wvc_ok;                /* whole warps (threads per CTA a multiple of 32): wvc is
				     * kept, a warp's entry lying at its threads' index / 32   */
	struct vc *spare;           /* a barrier's vector whose last holder let it go, kept for
				     * the next barrier (no calloc and free each), and its chunk */
	uint32_t *spare_c;
	struct rcta *cta;           /* its CTAs, by slot (the rank; a cooperative launch's
				     * whole grid runs at once, each CTA a slot of its own)   */
	struct rmbar *mb;           /* by mbarrier place (rmbar)                             */
	uint32_t nmb, mb_base;      /* mb_base: mbarrier ids handed out before the cluster   */
	struct shadow *glob;        /* by region index                                       */
	uint32_t nglob;
	struct loc *locs;           /* open addressing, power-of-two capacity                */
	uint32_t nlocs, loccap;
	struct {                    /* the last join of a shared vector with a sync object:  */
		uint64_t from, src; /* lanes that share the vector and acquire the same     */
		struct vc *result;  /* object (one instruction of a warp) share the result  */
	} memo;
	const struct dinsn *pairs[MAX_PAIRS][2];
	uint32_t npairs;
	/* --jobs (race_global.c) */
	bool shard;                 /* a worker's: global accesses go to its cluster's log     */
	struct race_glog *glog;     /* the running cluster's log                               */
	uint32_t mbase;             /* CTA number of the markers' first chunk                   */
	struct race_jobs *jobs;     /* the launch's replay state                                */
	struct race_glog *replay;   /* the log being replayed                                   */
	struct race *whole;         /* a worker's: the launch's                                 */
	bool head;                  /* a worker's: every cluster before its own was shown: its
				     * global accesses are judged at once, on the launch's      */
};

/* ---- vector clock operations --------------------------------------------------------- */

static struct vc *vc_new(struct race *R)
{
	struct vc *v = calloc(1, sizeof *v);
	if (v) {
		v->refs = 1;
		v->gen = ++R->gen;
	}
	return v;
}

static struct vc *vc_ref(struct vc *v)
{
	v->refs++;
	return v;
}

static void vc_free(struct vc *v)
{
	for (uint32_t i = 0; i < v->n; i++)
		free(v->ch[i].c);
	free(v->ch);
	free(v);
}

static inline void vc_put(struct vc *v)
{
	if (v && !--v->refs)
		vc_free(v);
}

static int vc_find(const struct vc *v, uint32_t cta)
{
	uint32_t lo = 0, hi = v->n;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		if (v->ch[mid].cta < cta)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (int)lo;
}

static inline uint32_t cta_of(const struct race *R, uint32_t tid)
{
	return tid >> R->shift;
}

static inline uint32_t local_of(const struct race *R, uint32_t tid)
{
	return tid & ((1u << R->shift) - 1);
}

static inline uint32_t vc_get(const struct race *R, const struct vc *v, uint32_t tid)
{
	uint32_t cta = cta_of(R, tid);
	if (v->n == 1)
		return v->ch[0].cta == cta ? v->ch[0].c[local_of(R, tid)] : 0;
	int i = vc_find(v, cta);
	return (uint32_t)i < v->n && v->ch[i].cta == cta ? v->ch[i].c[local_of(R, tid)] : 0;
}

/* The chunk of `cta` in v (which the caller owns), made if missing; NULL: out of memory. */
static uint32_t *vc_chunk(struct race *R, struct vc *v, uint32_t cta)
{
	int i = vc_find(v, cta);
	if ((uint32_t)i < v->n && v->ch[i].cta == cta)
		return v->ch[i].c;
	if (v->n == v->cap) {
		uint32_t cap = v->cap ? v->cap * 2 : 2;
		struct vchunk *ch = realloc(v->ch, cap * sizeof *ch);
		if (!ch)
			return NULL;
		v->ch = ch;
		v->cap = cap;
	}
	uint32_t *c = R->spare_c;
	if (c) {
		R->spare_c = NULL;
		memset(c, 0, R->nt * sizeof *c);
	} else if (!(c = calloc(R->nt, sizeof *c))) {
		return NULL;
	}
	memmove(&v->ch[i + 1], &v->ch[i], (v->n - (uint32_t)i) * sizeof *v->ch);
	v->ch[i] = (struct vchunk){cta, c};
	v->n++;
	return c;
}

/* An empty vector: the spare one if there is (its chunk kept for vc_chunk), else new. */
static struct vc *vc_fresh(struct race *R)
{
	struct vc *v = R->spare;
	if (!v)
		return vc_new(R);
	R->spare = NULL;
	if (R->spare_c)
		free(R->spare_c);
	R->spare_c = v->ch[0].c;
	v->n = 0;
	v->refs = 1;
	v->gen = ++R->gen;
	v->joined = 0;
	return v;
}

/* v, whose last reference went: kept as the spare when it has one chunk (a barrier's
 * vector, let go by its last waiter), else freed. */
static void vc_recycle(struct race *R, struct vc *v)
{
	if (R->spare || v->n != 1) {
		vc_free(v);
		return;
	}
	R->spare = v;
}

static struct vc *vc_copy(struct race *R, const struct vc *s)
{
	struct vc *v = vc_new(R);
	if (!v)
		return NULL;
	v->joined = s->joined;
	for (uint32_t i = 0; i < s->n; i++) {
		uint32_t *c = vc_chunk(R, v, s->ch[i].cta);
		if (c)
			memcpy(c, s->ch[i].c, R->nt * sizeof *c);
	}
	return v;
}

/* *p, made exclusively the caller's (copied if shared, made if NULL). */
static struct vc *vc_own(struct race *R, struct vc **p)
{
	if (!*p)
		*p = vc_fresh(R);
	else if ((*p)->refs > 1) {
		struct vc *c = vc_copy(R, *p);
		if (!c)
			return NULL;
		vc_put(*p);
		*p = c;
	}
	return *p;
}

static void vc_join(struct race *R, struct vc *d, const struct vc *s)
{
	if (!d || !s || d->joined == s->gen || d == s)
		return;
	bool empty = d->n == 0; /* a fresh vector (a barrier's first arrival): a copy */
	for (uint32_t i = 0; i < s->n; i++) {
		uint32_t *c = vc_chunk(R, d, s->ch[i].cta);
		if (!c)
			return;
		const uint32_t *x = s->ch[i].c;
		if (empty) {
			memcpy(c, x, R->nt * sizeof *c);
			continue;
		}
		for (uint32_t k = 0; k < R->nt; k++)
			c[k] = c[k] > x[k] ? c[k] : x[k];
	}
	d->gen = ++R->gen;
	d->joined = s->gen;
}

static void vc_raise(struct race *R, struct vc *v, uint32_t tid, uint32_t clock)
{
	uint32_t *c = v ? vc_chunk(R, v, cta_of(R, tid)) : NULL;
	if (c && c[local_of(R, tid)] < clock) {
		c[local_of(R, tid)] = clock;
		v->gen = ++R->gen;
	}
}

/* ---- threads ------------------------------------------------------------------------- */

static uint32_t tid_of(const struct race *R, const struct warp *w, uint32_t lane)
{
	return w->cta->linear << R->shift | (w->id * LANES + lane);
}

static struct rthread *thr(struct race *R, const struct warp *w, uint32_t lane)
{
	return &R->th[w->cta->slot * R->nt + w->id * LANES + lane];
}

/* The epoch of thread t (one of R->th). */
static inline uint32_t *clock_of(const struct race *R, const struct rthread *t)
{
	return &R->clk[t - R->th];
}

/* The cache of the vector shared by w's lanes (race.wvc). */
static inline struct vc **wvc_of(const struct race *R, const struct warp *w)
{
	return &R->wvc[w->cta->slot * R->nw + w->id];
}

/* Thread t's vector changes alone: its warp's lanes may no longer share one. */
static inline void wvc_forget(struct race *R, const struct rthread *t)
{
	if (R->wvc)
		R->wvc[t->warp] = NULL;
}

/* Whether some lane of the whole warp w holds another vector than v (none: v is cached as
 * the one they share). */
static inline bool lanes_differ(struct race *R, const struct warp *w, const struct vc *v)
{
	struct vc **k = wvc_of(R, w);
	if (R->wvc_ok && *k == v)
		return false;
	const struct rthread *t0 = thr(R, w, 0);
	uintptr_t differ = 0;
#pragma GCC unroll 8
	for (uint32_t l = 0; l < LANES; l++)
		differ |= (uintptr_t)t0[l].vc ^ (uintptr_t)v;
	if (!differ && R->wvc_ok)
		*k = (struct vc *)v;
	return differ != 0;
}

/* The thread id of thread tid's agent of kind k: CTA numbers above the grid's. */
static inline uint32_t agent_of(const struct race *R, uint32_t tid, enum race_agent k)
{
	return tid + ((uint32_t)(k + 1) * R->nctas << R->shift);
}

static inline bool is_agent(const struct race *R, uint32_t tid)
{
	return cta_of(R, tid) >= R->nctas;
}

/* Release: the object's clock covers everything the thread did so far, and the copies its
 * wait_groups waited for; a new epoch. */
static void release_into(struct race *R, struct vc **obj, struct rthread *t, uint32_t tid)
{
	struct vc *a = vc_own(R, obj);
	vc_join(R, a, t->vc);
	vc_raise(R, a, tid, *clock_of(R, t));
	if (t->seen_cp)
		vc_raise(R, a, agent_of(R, tid, RA_CP), t->seen_cp);
	if (t->seen_bulk)
		vc_raise(R, a, agent_of(R, tid, RA_BULK), t->seen_bulk);
	(*clock_of(R, t))++;
}

/* release_into for the lanes of w in `lanes`, at once: one join per distinct vector (the
 * lanes of a warp usually share one), each lane's epoch raised in the CTA's chunk. */
static void release_lanes(struct race *R, struct vc **obj, const struct warp *w,
			  uint32_t lanes)
{
	struct vc *a = vc_own(R, obj);
	struct rthread *t0 = thr(R, w, 0);
	const struct vc *last = lanes ? t0[__builtin_ctz(lanes)].vc : NULL;
	vc_join(R, a, last); /* first, while a fresh vector takes it as a copy */
	uint32_t *c = a ? vc_chunk(R, a, w->cta->linear) : NULL;
	if (!c)
		return;
	c += w->id * LANES;
	bool raised = false;
	uint32_t seen = 0; /* lanes that waited for copies of their own */
	uint32_t *k0 = clock_of(R, t0);
	if (lanes == 0xffffffffu) { /* a whole warp: usually one vector, joined above */
		bool differ = lanes_differ(R, w, last); /* some lane's vector is not `last` */
		/* a thread's epoch is above every clock of it in any vector (each release
		 * starts a new one): raised, as a max would raise it */
		memcpy(c, k0, LANES * sizeof *c);
		for (uint32_t l = 0; l < LANES; l++)
			k0[l]++;
		raised = true;
		for (uint32_t l = 0; R->seen_any && l < LANES; l++)
			seen |= (t0[l].seen_cp | t0[l].seen_bulk) ? 1u << l : 0;
		lanes = 0;
		if (differ) /* the others joined now: the result is the same */
			for (uint32_t l = 0; l < LANES; l++)
				vc_join(R, a, t0[l].vc);
	}
	for (uint32_t m = lanes; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		struct rthread *t = t0 + l;
		if (t->vc != last) {
			vc_join(R, a, t->vc);
			last = t->vc;
		}
		uint32_t k = k0[l];
		raised |= c[l] < k;
		c[l] = c[l] < k ? k : c[l];
		seen |= (t->seen_cp | t->seen_bulk) ? 1u << l : 0;
		k0[l] = k + 1;
	}
	for (uint32_t m = seen; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m), tid = tid_of(R, w, l);
		struct rthread *t = t0 + l;
		if (t->seen_cp)
			vc_raise(R, a, agent_of(R, tid, RA_CP), t->seen_cp);
		if (t->seen_bulk)
			vc_raise(R, a, agent_of(R, tid, RA_BULK), t->seen_bulk);
	}
	if (raised)
		a->gen = ++R->gen;
}

static void adopt(struct race *R, struct rthread *t, struct vc *s)
{
	wvc_forget(R, t);
	vc_put(t->vc);
	t->vc = vc_ref(s);
}

static void acquire_from(struct race *R, struct rthread *t, struct vc *s)
{
	if (!s || s == t->vc)
		return;
	if (s->joined == t->vc->gen) { /* s already covers the thread's vector: share it */
		adopt(R, t, s);
		return;
	}
	if (R->memo.result && R->memo.from == t->vc->gen && R->memo.src == s->gen) {
		adopt(R, t, R->memo.result);
		return;
	}
	if (t->vc->refs == 1) {
		vc_join(R, t->vc, s);
		return;
	}
	uint64_t from = t->vc->gen;
	wvc_forget(R, t);
	struct vc *v = vc_own(R, &t->vc);
	if (!v)
		return;
	vc_join(R, v, s);
	vc_put(R->memo.result);
	R->memo.from = from;
	R->memo.src = s->gen;
	R->memo.result = vc_ref(v);
}

/* Whether access p happens before the current one, made by thread `tid` (an agent's
 * checks pass the issuing thread as `owner` and its state at the issue as t). */
static inline bool happens_before(const struct race *R, const struct rthread *t, uint32_t tid,
				  uint32_t owner, const struct rec *p)
{
	if (p->tid == tid || p->tid == owner || vc_get(R, t->vc, p->tid) >= p->clock)
		return true;
	if (!(p->flags & RF_ASYNC)) /* (the rest only for a copy of the owner's) */
		return false;
	if (p->tid == agent_of(R, owner, RA_CP))
		return t->seen_cp >= p->clock;
	return p->tid == agent_of(R, owner, RA_BULK) && t->seen_bulk >= p->clock;
}

/* ---- scopes -------------------------------------------------------------------------- */

static enum scope scope_of(uint8_t mod, enum scope dflt)
{
	switch ((enum ir_mod)mod) {
	case MOD_CTA:
		return SC_CTA;
	case MOD_CLUSTER:
		return SC_CLUSTER;
	case MOD_GPU:
	case MOD_GL:
		return SC_GPU;
	case MOD_SYS:
		return SC_SYS;
	default:
		return dflt;
	}
}

static uint32_t cluster_of(const struct launch *L, uint32_t cta)
{
	const uint32_t *g = L->cfg.grid, *k = L->cfg.cluster;
	uint32_t x = cta % g[0], y = cta / g[0] % g[1], z = cta / (g[0] * g[1]);
	uint32_t nx = g[0] / k[0], ny = g[1] / k[1];
	return x / k[0] + nx * (y / k[1] + ny * (z / k[2]));
}

/* Whether scope `s` of thread a includes thread b. */
static bool includes(const struct launch *L, enum scope s, uint32_t a, uint32_t b)
{
	const struct race *R = L->race;
	if (s == SC_CTA)
		return cta_of(R, a) == cta_of(R, b);
	if (s == SC_CLUSTER)
		return cluster_of(L, cta_of(R, a)) == cluster_of(L, cta_of(R, b));
	return true;
}

static bool morally_strong(const struct launch *L, uint8_t fa, uint32_t a, uint8_t fb,
			   uint32_t b)
{
	return (fa & RF_STRONG) && (fb & RF_STRONG) && includes(L, (enum scope)(fa >> 4), a, b) &&
	       includes(L, (enum scope)(fb >> 4), b, a);
}

/* The strength and scope of the current instruction's access. */
static uint8_t access_flags(const struct dinsn *di)
{
	enum ir_op op = (enum ir_op)di->op;
	if (op == OP_ATOM || op == OP_RED)
		return RF_STRONG | RF_RMW | (uint8_t)(scope_of(di->scope, SC_GPU) << 4);
	switch ((enum ir_mod)di->sem) {
	case MOD_RELAXED:
	case MOD_ACQUIRE:
	case MOD_RELEASE:
		return RF_STRONG | (uint8_t)(scope_of(di->scope, SC_GPU) << 4);
	case MOD_VOLATILE:
	case MOD_MMIO:
		return RF_STRONG | (uint8_t)(SC_SYS << 4);
	default:
		return 0;
	}
}

/* ---- release/acquire through memory locations ---------------------------------------- */

static struct loc *loc_find(struct race *R, uint64_t key, bool make)
{
	if (make && (R->nlocs + 1) * 2 > R->loccap) {
		uint32_t cap = R->loccap ? R->loccap * 2 : 64;
		struct loc *n = calloc(cap, sizeof *n);
		if (!n)
			return NULL;
		for (uint32_t i = 0; i < R->loccap; i++) {
			if (!R->locs[i].key)
				continue;
			uint32_t h = (uint32_t)(R->locs[i].key * 0x9E3779B97F4A7C15ull >> 32) & (cap - 1);
			while (n[h].key)
				h = (h + 1) & (cap - 1);
			n[h] = R->locs[i];
		}
		free(R->locs);
		R->locs = n;
		R->loccap = cap;
	}
	if (!R->loccap)
		return NULL;
	uint32_t h = (uint32_t)(key * 0x9E3779B97F4A7C15ull >> 32) & (R->loccap - 1);
	while (R->locs[h].key && R->locs[h].key != key)
		h = (h + 1) & (R->loccap - 1);
	if (R->locs[h].key)
		return &R->locs[h];
	if (!make)
		return NULL;
	R->nlocs++;
	R->locs[h].key = key;
	return &R->locs[h];
}

static uint64_t loc_key(const struct access *a)
{
	if (a->space == MS_GLOBAL)
		return a->addr;
	return 1ull << 63 | (uint64_t)a->cta->linear << 32 | a->off;
}

/* What a read by thread `tid` at scope `s` acquires from the location. */
static void loc_gather(struct race *R, struct loc *l, struct rthread *t, uint32_t tid,
		       struct vc **into)
{
	if (l->wide)
		vc_join(R, vc_own(R, into), l->wide);
	if (l->cta && l->cta_id == cta_of(R, tid))
		vc_join(R, vc_own(R, into), l->cta);
	(void)t;
}

static void marker_into(struct launch *L, uint64_t key, struct vc **into);

static void sync_through(struct launch *L, struct rthread *t, uint32_t tid,
			 const struct access *a, enum race_kind kind, uint8_t flags)
{
	struct race *R = L->race;
	const struct dinsn *di = L->ci;
	enum ir_mod sem = (enum ir_mod)di->sem;
	bool reads = kind != RACE_WRITE, writes = kind != RACE_READ;
	if (reads) {
		struct loc *l = loc_find(R, loc_key(a), false);
		bool mark = R->shard && a->space == MS_GLOBAL; /* what clusters before released */
		if ((l || mark) && (sem == MOD_ACQUIRE || sem == MOD_ACQ_REL)) {
			struct vc *got = NULL;
			if (l)
				loc_gather(R, l, t, tid, &got);
			if (mark)
				marker_into(L, a->addr, &got);
			acquire_from(R, t, got);
			vc_put(got);
		} else if (l || mark) {
			if (l)
				loc_gather(R, l, t, tid, &t->pending);
			if (mark)
				marker_into(L, a->addr, &t->pending);
		}
	}
	if (writes && (sem == MOD_RELEASE || sem == MOD_ACQ_REL || t->fence)) {
		struct loc *l = loc_find(R, loc_key(a), true);
		if (!l)
			return;
		enum scope s = (enum scope)(flags >> 4);
		if (!(sem == MOD_RELEASE || sem == MOD_ACQ_REL) && t->fence < s)
			s = (enum scope)t->fence;
		if (s == SC_CTA) {
			if (l->cta && l->cta_id != cta_of(R, tid)) {
				vc_put(l->cta);
				l->cta = NULL;
			}
			l->cta_id = cta_of(R, tid);
			release_into(R, &l->cta, t, tid);
		} else {
			release_into(R, &l->wide, t, tid);
		}
	}
}

/* ---- shadow memory ------------------------------------------------------------------- */

/* Host memory for the detector's state, charged against --max-memory (false: over it; the
 * launch stops with the clear message). */
static void *charged_calloc(struct launch *L, uint64_t *acct, size_t n, size_t size)
{
	if (!launch_charge(L, (uint64_t)n * size, "the data-race detector's shadow state"))
		return NULL;
	void *p = calloc(n, size);
	if (!p) {
		mem_release(L->mem, (uint64_t)n * size);
		return NULL;
	}
	*acct += (uint64_t)n * size;
	return p;
}

static struct cell *shadow_cell(struct launch *L, struct shadow *s, uint64_t bytes, uint64_t g)
{
	if (!s->pages) {
		s->npages = (bytes + GRAN * PAGE_CELLS - 1) / (GRAN * PAGE_CELLS);
		s->pages = charged_calloc(L, &s->charged, s->npages ? s->npages : 1,
					  sizeof *s->pages);
		if (!s->pages)
			return NULL;
	}
	uint64_t p = g / PAGE_CELLS;
	if (p >= s->npages)
		return NULL;
	if (!s->pages[p] &&
	    !(s->pages[p] = charged_calloc(L, &s->charged, PAGE_CELLS, sizeof **s->pages)))
		return NULL;
	return &s->pages[p][g % PAGE_CELLS];
}

static void shadow_free(struct launch *L, struct shadow *s)
{
	for (uint64_t p = 0; s->pages && p < s->npages; p++) {
		for (uint32_t i = 0; s->pages[p] && i < PAGE_CELLS; i++)
			free(s->pages[p][i].more);
		free(s->pages[p]);
	}
	free(s->pages);
	mem_release(L->mem, s->charged);
	memset(s, 0, sizeof *s);
}

static struct shadow *global_shadow(struct launch *L, const struct region *r)
{
	struct race *R = L->race;
	uint32_t i = r->index;
	if (i >= R->nglob) {
		uint32_t n = i + 8;
		if (!launch_charge(L, (uint64_t)(n - R->nglob) * sizeof *R->glob,
				   "the data-race detector's shadow state"))
			return NULL;
		struct shadow *g = realloc(R->glob, n * sizeof *g);
		if (!g) {
			mem_release(L->mem, (uint64_t)(n - R->nglob) * sizeof *R->glob);
			return NULL;
		}
		R->charged += (uint64_t)(n - R->nglob) * sizeof *g;
		memset(g + R->nglob, 0, (n - R->nglob) * sizeof *g);
		R->glob = g;
		R->nglob = n;
	}
	return &R->glob[i];
}

/* ---- reports ------------------------------------------------------------------------- */

static const char *kind_name(const struct rec *p, bool write)
{
	return p->flags & RF_RMW ? "atomic" : write ? "write" : "read";
}

/* The state of thread `tid` if it belongs to the running cluster (a cooperative launch:
 * the grid). */
static const struct rthread *cluster_thread(const struct race *R, uint32_t tid)
{
	for (uint32_t r = 0; r < R->cl->nctas; r++)
		if (R->cl->ctas[r].linear == cta_of(R, tid))
			return &R->th[r * R->nt + local_of(R, tid)];
	return NULL;
}

/* "thread 3", "CTA (1,0,0) thread 3" (not the CTA of `self`), and for an agent "the
 * cp.async.bulk of thread 3" (insn: the copy's instruction). */
static void describe_tid(const struct launch *L, uint32_t tid, const struct dinsn *insn,
			 uint32_t self, struct strbuf *b)
{
	const struct race *R = L->race;
	uint32_t cta = cta_of(R, tid) % R->nctas;
	if (is_agent(R, tid))
		sb_printf(b, "the %s of ", ir_op_name((enum ir_op)insn->op));
	if (cta != cta_of(R, self) % R->nctas) {
		const uint32_t *g = L->cfg.grid;
		sb_printf(b, "CTA (%u,%u,%u) ", cta % g[0], cta / g[0] % g[1], cta / (g[0] * g[1]));
	}
	sb_printf(b, "thread %u", local_of(R, tid));
}

static void describe_place(struct launch *L, struct warp *w, const struct access *a,
			   uint32_t size, struct strbuf *b)
{
	if (a->space == MS_GLOBAL) {
		sb_printf(b, "global 0x%llx (%s+0x%llx, %u bytes)", (unsigned long long)a->addr,
			  a->region->name, (unsigned long long)(a->addr - a->region->base), size);
		return;
	}
	uint32_t within = 0;
	const struct ir_sym *s = srcloc_shared_var(L->P, a->off, &within);
	if (a->cta == w->cta)
		sb_printf(b, "shared 0x%x", a->off);
	else
		sb_printf(b, "shared::cluster 0x%x of CTA rank %u", a->off, a->cta->rank);
	struct strbuf name = {0};
	if (s)
		srcloc_var_name(s, &name);
	if (s && size <= 16 && within % size == 0) /* an element; a copy's bytes: an offset */
		sb_printf(b, " ('%s[%u]', %u bytes)", name.s, within / size, size);
	else if (s)
		sb_printf(b, " ('%s'+%u, %u bytes)", name.s, within, size);
	else
		sb_printf(b, " (%u bytes)", size);
	sb_free(&name);
}

static bool first_pair(struct race *R, const struct dinsn *a, const struct dinsn *b)
{
	for (uint32_t i = 0; i < R->npairs; i++)
		if (R->pairs[i][0] == a && R->pairs[i][1] == b)
			return false;
	if (R->npairs == MAX_PAIRS)
		return false;
	R->pairs[R->npairs][0] = a;
	R->pairs[R->npairs][1] = b;
	R->npairs++;
	return true;
}

static uint32_t line_of(struct launch *L, const struct dinsn *di)
{
	uint32_t line = 0, col = 0;
	if (di && di->ir)
		src_locate(L->file, di->ir->span.off, &line, &col);
	return line;
}

/* What orders a copy's bytes before an access, by the agent that made them. */
static const char *const copy_order[] = {
	[RA_CP] = "a cp.async's copy is ordered before its thread's cp.async.wait_group or "
		  "wait_all that waits for it (or a wait on the mbarrier of a later "
		  "cp.async.mbarrier.arrive); other threads need a barrier after that wait",
	[RA_BULK] = "a bulk-group copy is ordered before its thread's cp.async.bulk.wait_group "
		    "that waits for it (for its source reads, wait_group.read); other threads "
		    "need a barrier after that wait",
	[RA_MBAR] = "its bytes are ordered only before accesses that follow a wait returning True "
		    "for the phase of the mbarrier its complete-tx completes",
};

/* One access checked: the thread or copy agent making it, and how to judge earlier ones. */
struct acc_ctx {
	struct launch *L;
	struct race *R;
	struct rthread *t;      /* the thread; for a copy, its thread's state at the issue     */
	struct shadow *s;
	struct warp *w;         /* the thread's warp and lane (the issuing one for a copy)     */
	uint32_t lane;
	uint32_t tid, owner;    /* who accesses (a thread or an agent) and its thread          */
	uint8_t flags;
	bool copy;              /* a copy landing: accesses after its issue are not judged     */
	bool gread;             /* a copy's read of global memory (add_read)                   */
	bool skip_agents;       /* async-copy-race named this access: not copies again         */
	uint32_t issued;        /* a copy's issue step                                         */
};

static bool shard_report_begin(struct launch *L, struct race *R, const void *a, const void *b);
static void shard_report_end(struct launch *L, struct race *R);
static bool race_pair_keep(struct launch *L, const void *a, const void *b);

static void report(struct acc_ctx *x, const struct access *a, uint32_t size,
		   enum race_kind kind, const struct rec *p, bool pwrite, bool same)
{
	struct launch *L = x->L;
	struct race *R = x->R;
	if (!first_pair(R, p->insn, L->ci))
		return;
	if (!shard_report_begin(L, R, p->insn, L->ci))
		return;
	struct strbuf msg = {0}, prev = {0}, notes = {0};
	describe_tid(L, p->tid, p->insn, x->tid, &prev);
	sb_printf(&msg, "data race on ");
	describe_place(L, x->w, a, size, &msg);
	sb_printf(&msg, ": this %s by ", kind == RACE_READ ? "read" : kind == RACE_RMW ? "atomic"
								    : "write");
	if (x->copy)
		sb_printf(&msg, "the %s of ", ir_op_name((enum ir_op)L->ci->op));
	sb_printf(&msg, "CTA (%u,%u,%u) thread %u is not ordered after the %s by %s",
		  x->w->cta->ctaid[0], x->w->cta->ctaid[1], x->w->cta->ctaid[2],
		  local_of(R, x->owner), kind_name(p, pwrite), prev.s);
	/* A consumer that passed a wait for the phase before the first (a fresh barrier's
	 * parity 1) and read: the wrong parity. A producer doing so before its first write
	 * is the usual start of a ring of empty stages, not the cause. */
	const struct rthread *o = R->cl ? cluster_thread(R, p->tid) : NULL;
	const struct dinsn *oph = o ? o->phantom : race_glog_phantom(R->replay, p->tid);
	const struct dinsn *ph = kind == RACE_READ && !x->copy ? x->t->phantom : NULL;
	if (!ph && oph && !pwrite && !(p->flags & RF_RMW))
		ph = oph;
	if (ph)
		sb_printf(&notes, "the wait at line %u returned True for parity 1 of a barrier in "
			  "phase 0: the phase before the first, so it waited for no arrive",
			  line_of(L, ph));
	else if (x->copy)
		sb_printf(&notes, "a copy is ordered after what its thread had acquired when it "
			  "issued it: nothing ordered the %s before the issue at line %u (a wait on "
			  "an mbarrier its accessors arrive on, or a barrier, would)",
			  kind_name(p, pwrite), line_of(L, L->ci));
	else if (is_agent(R, p->tid) && p->insn && p->insn->fam == FAM_WGMMA)
		sb_printf(&notes, "a wgmma.mma_async reads its shared operands once for its "
			  "warpgroup, ordered before each warp's wgmma.wait_group that covers it; "
			  "other threads need a barrier or a release after such a wait");
	else if (is_agent(R, p->tid))
		sb_printf(&notes, "%s", copy_order[cta_of(R, p->tid) / R->nctas - 1]);
	else
		sb_printf(&notes, "nothing orders them: no barrier, mbarrier wait or release/"
			  "acquire pair of a scope that includes both threads lies between");
	if (same)
		sb_printf(&msg, ", and both store the same value");
	rule_break_notes(L, same ? RULE_DATA_RACE_SAME_VALUE : RULE_DATA_RACE, 1u << x->lane,
			 notes.s, msg.s);
	sb_free(&msg);
	msg = (struct strbuf){0};
	sb_printf(&msg, "the earlier %s by %s", kind_name(p, pwrite), prev.s);
	gather_flush(L); /* the note follows its report */
	if (p->insn && p->insn->ir)
		srcloc_emit(L->diag, DIAG_NOTE, L->file, L->P->m, p->insn->ir,
			    srcloc_func_of(L->P, p->insn), NULL, msg.s);
	shard_report_end(L, R);
	sb_free(&msg);
	sb_free(&prev);
	sb_free(&notes);
}

/* ---- the access check ---------------------------------------------------------------- */

static inline __attribute__((always_inline)) bool conflicts(const struct acc_ctx *x, const struct rec *p, uint8_t mask)
{
	if (!p->clock || !(p->mask & mask) || p->tid == x->tid ||
	    happens_before(x->R, x->t, x->tid, x->owner, p) ||
	    morally_strong(x->L, p->flags, p->tid, x->flags, x->tid))
		return false;
	if (x->skip_agents && (p->flags & RF_ASYNC))
		return false;
	/* made while the copy was in flight: async-copy-race reported it then */
	return !(x->copy && (int32_t)(p->step - x->issued) > 0);
}

/* Record r (a cell's write or its one read) becomes me; a record of the same thread keeps
 * its bytes too. */
static inline void take_rec(struct rec *r, const struct rec *me, uint32_t tid)
{
	uint8_t keep = r->clock && r->tid == tid ? r->mask : 0;
	*r = *me;
	r->mask |= keep;
}

/* Add me to a list whose entries are all concurrent with it (ok_gen's fast path): the
 * thread's own entry, if any, takes this read; else it is appended (or, with the list
 * full, takes a slot its thread id picks). */
static inline void readers_put(struct readers *m, const struct rec *me, uint32_t tid)
{
	uint64_t bit = 1ull << (tid & 63), *word = &m->tids[tid >> 6 & 3];
	uint32_t i = 0;
	while ((*word & bit) && i < m->n && m->e[i].tid != tid)
		i++;
	if ((*word & bit) && i < m->n) {
		uint8_t keep = m->e[i].mask;
		m->e[i] = *me;
		m->e[i].mask |= keep;
	} else {
		m->e[m->n < MAX_READERS ? m->n++ : tid % MAX_READERS] = *me;
		*word |= bit;
	}
}

/* c's list of further reads with room for one more entry (or full at MAX_READERS, where
 * an entry gives way): made or grown, charged against --max-memory; NULL: out of it. Most
 * lists stay short (two readers of a word per barrier interval), so room is made as needed
 * rather than MAX_READERS entries for every cell that has a second reader. */
static __attribute__((noinline)) struct readers *readers_room(const struct acc_ctx *x,
							      struct cell *c)
{
	struct readers *m = c->more;
	if (m && (m->n < m->cap || m->cap == MAX_READERS))
		return m;
	uint32_t cap = m ? m->cap * 2 : FIRST_READERS;
	cap = cap < MAX_READERS ? cap : MAX_READERS;
	size_t had = m ? sizeof *m + m->cap * sizeof *m->e : 0;
	size_t size = sizeof *m + cap * sizeof *m->e;
	if (!launch_charge(x->L, size - had, "the data-race detector's shadow state"))
		return NULL;
	struct readers *g = realloc(m, size);
	if (!g) {
		mem_release(x->L->mem, size - had);
		return NULL;
	}
	if (!m)
		memset(g, 0, sizeof *g);
	g->cap = cap;
	x->s->charged += size - had;
	return c->more = g;
}

/* Record a read in the cell's antichain of concurrent reads. A copy's read of global
 * memory is kept only in the cell's one read: every CTA of a GEMM copies the same tiles,
 * and lists of their reads made the detector several times slower. It takes the place of
 * an earlier copy's read or of a read ordered before it, and is left out beside a thread's
 * concurrent read (a race with it may be missed, none is invented). */
static void add_read(const struct acc_ctx *x, struct cell *c, const struct rec *me)
{
	struct rec *r = &c->r;
	if (x->gread) {
		if (!r->clock || r->tid == x->tid || (r->flags & RF_ASYNC) ||
		    happens_before(x->R, x->t, x->tid, x->owner, r)) {
			take_rec(r, me, x->tid);
		}
		return;
	}
	if (!r->clock || r->tid == x->tid ||
	    (!(r->mask & ~me->mask) && happens_before(x->R, x->t, x->tid, x->owner, r))) {
		take_rec(r, me, x->tid);
		return;
	}
	struct readers *m = c->more;
	if ((!m || (m->n == m->cap && m->cap < MAX_READERS)) && !(m = readers_room(x, c)))
		return;
	uint64_t gen = x->t->vc->gen;
	/* Fast path (reads of one barrier interval: many threads with one shared vector): no
	 * entry happens before under this vector and none is this thread's, so the scan below
	 * would keep every entry and append this one. The new entry keeps that true: no
	 * vector holds its thread's current epoch, which has not been released yet. */
	if (!x->copy && m->ok_gen == gen) {
		readers_put(m, me, x->tid);
		return;
	}
	uint32_t k = 0;
	bool placed = false, ok = !x->copy, dropped = false;
	for (uint32_t i = 0; i < m->n; i++) {
		struct rec *e = &m->e[i];
		if (e->tid == x->tid) {
			uint8_t keep = e->mask;
			*e = *me;
			e->mask |= keep;
			placed = true;
		} else if (happens_before(x->R, x->t, x->tid, x->owner, e)) {
			if (!(e->mask & ~me->mask)) {
				dropped = true;
				continue; /* covered by this read */
			}
			ok = false;
		} else if (e->flags & RF_ASYNC) {
			ok = false; /* whether an agent's entry is ordered depends on the thread */
		}
		if (k != i)
			m->e[k] = *e;
		k++;
	}
	m->n = k;
	if (dropped) { /* the kept entries' threads */
		memset(m->tids, 0, sizeof m->tids);
		for (uint32_t i = 0; i < k; i++)
			m->tids[m->e[i].tid >> 6 & 3] |= 1ull << (m->e[i].tid & 63);
	}
	if (!placed)
		m->e[m->n < MAX_READERS ? m->n++ : x->tid % MAX_READERS] = *me;
	m->tids[x->tid >> 6 & 3] |= 1ull << (x->tid & 63);
	m->ok_gen = ok ? gen : 0;
}

static void clear_reads(struct cell *c, uint8_t mask)
{
	if ((c->r.mask &= (uint8_t)~mask) == 0)
		c->r.clock = 0;
	struct readers *m = c->more;
	if (!m)
		return;
	uint32_t k = 0;
	for (uint32_t i = 0; i < m->n; i++)
		if ((m->e[i].mask &= (uint8_t)~mask) != 0)
			m->e[k++] = m->e[i];
	if (k == m->n)
		return;
	m->n = k;
	memset(m->tids, 0, sizeof m->tids); /* the kept entries' threads */
	for (uint32_t i = 0; i < k; i++)
		m->tids[m->e[i].tid >> 6 & 3] |= 1ull << (m->e[i].tid & 63);
}

/* The cell's r2 moved to its list (the list's first entry, which it is), so that the code
 * that knows only the list sees it; false: out of --max-memory (the launch stops). The
 * list is empty while r2 is in use; its ok_gen stays what quick_word left (unknown, 0,
 * for a list made here: add_read then scans, to the same result). */
static __attribute__((noinline)) bool spill(const struct acc_ctx *x, struct cell *c)
{
	struct readers *m = readers_room(x, c);
	if (!m)
		return false;
	m->e[0] = c->r2;
	m->n = 1;
	m->tids[c->r2.tid >> 6 & 3] |= 1ull << (c->r2.tid & 63);
	c->r2.clock = 0;
	c->r2.mask = 0;
	return true;
}

/* Check one granule; false after a report. */
static inline __attribute__((always_inline)) bool check_cell(const struct acc_ctx *x, struct cell *c, const struct rec *me,
		       enum race_kind kind, const void *newv, const uint8_t *old, uint32_t n,
		       const struct rec **hit)
{
	if (c->r2.clock && !spill(x, c))
		return true;
	/* *hit: the earlier access it races with; the write's pointer is &c->w. Lanes of
	 * one instruction writing the same value (newv, over the n bytes at old) do not race. */
	if (conflicts(x, &c->w, me->mask) &&
	    !(kind == RACE_WRITE && newv && c->w.step == me->step &&
	      !((c->w.flags | me->flags) & RF_ASYNC) && memcmp(newv, old, n) == 0)) {
		*hit = &c->w;
		return false;
	}
	if (kind == RACE_READ) {
		add_read(x, c, me);
		return true;
	}
	if (conflicts(x, &c->r, me->mask)) {
		*hit = &c->r;
		return false;
	}
	for (uint32_t i = 0; c->more && i < c->more->n; i++)
		if (conflicts(x, &c->more->e[i], me->mask)) {
			*hit = &c->more->e[i];
			return false;
		}
	take_rec(&c->w, me, x->tid);
	clear_reads(c, me->mask);
	return true;
}

/* The cell of granule g of s if its page is made, else NULL. */
static inline struct cell *cell_made(const struct shadow *s, uint64_t g)
{
	uint64_t p = g / PAGE_CELLS;
	return s->pages && p < s->npages && s->pages[p] ? &s->pages[p][g % PAGE_CELLS] : NULL;
}

/* The cell of granule g of s: the page looked up inline, made by shadow_cell if missing. */
static inline struct cell *cell_at(struct launch *L, struct shadow *s, uint64_t bytes,
				   uint64_t g)
{
	struct cell *c = cell_made(s, g);
	return c ? c : shadow_cell(L, s, bytes, g);
}

/* The shadow of the memory `a` lands in, its offset there and size; NULL: not tracked. */
static struct shadow *shadow_of(struct launch *L, const struct access *a, uint64_t *off,
				uint64_t *bytes)
{
	struct race *R = L->race;
	if (a->space == MS_GLOBAL) {
		*off = a->addr - a->region->base;
		*bytes = a->region->size;
		return global_shadow(L, a->region);
	}
	if (a->space == MS_SHARED_CTA || a->space == MS_SHARED_CLUSTER) {
		*off = a->off;
		*bytes = a->cta->smem_size;
		return &R->cta[a->cta->slot].smem;
	}
	return NULL;
}

/* Whether the detector watches space s: shared and global memory. Local memory and a
 * frame's parameters belong to one thread, kernel parameters and constants are read-only:
 * nothing there can race, and a strong access there synchronises nothing another thread
 * can see (no shadow, no location clock). */
static inline bool race_tracked(enum mspace s)
{
	return s == MS_GLOBAL || s == MS_SHARED_CTA || s == MS_SHARED_CLUSTER;
}

/* Two plain stores of the bytes the memory holds (nv: the new bytes, mem: what it holds):
 * a rule of its own, data-race-same-value. */
static bool same_store(enum race_kind kind, const struct rec *me, const struct rec *hit,
		       const struct rec *cell_w, const uint8_t *nv, const uint8_t *mem, uint64_t n)
{
	return kind == RACE_WRITE && nv && hit == cell_w &&
	       !((hit->flags | me->flags) & (RF_ASYNC | RF_RMW)) && memcmp(nv, mem, n) == 0;
}

/* Check and record the access `me` of x over `size` bytes at a; false after a report. */
static inline bool check_range(struct acc_ctx *x, const struct access *a, uint32_t size,
			enum race_kind kind, struct rec *me, const void *newv)
{
	uint64_t off, bytes;
	if (!(x->s = shadow_of(x->L, a, &off, &bytes)))
		return true;
	uint64_t end = off + size;
	x->gread = x->copy && kind == RACE_READ && a->space == MS_GLOBAL;
	for (uint64_t g = off / GRAN; g * GRAN < end; g++) {
		uint64_t lo = off > g * GRAN ? off : g * GRAN;
		uint64_t hi = end < g * GRAN + GRAN ? end : g * GRAN + GRAN;
		me->mask = (uint8_t)(((1u << (hi - lo)) - 1) << (lo - g * GRAN));
		struct cell *c = cell_at(x->L, x->s, bytes, g);
		if (!c)
			return false;
		const struct rec *hit = NULL;
		const uint8_t *nv = newv ? (const uint8_t *)newv + (lo - off) : NULL;
		if (!check_cell(x, c, me, kind, nv, a->p + (lo - off), (uint32_t)(hi - lo), &hit)) {
			report(x, a, size, kind, hit, hit == &c->w,
			       same_store(kind, me, hit, &c->w, nv, a->p + (lo - off), hi - lo));
			return false;
		}
	}
	return true;
}

static void defer_access(struct launch *L, struct warp *w, uint32_t lane,
			 const struct access *a, uint32_t size, enum race_kind kind,
			 const void *newv);

/* ---- lanes of one warp in lock step (rule warp-sync-missing) ---------------------------
 * Volatile accesses are strong, so two of them never make a data race; but lanes of a warp
 * are independent threads, and nothing orders one lane's volatile write and another lane's
 * volatile access of the same bytes at a later instruction unless a warp-level
 * synchronisation lies between: bar.warp.sync (happens-before), or a shfl/vote/match/redux
 * .sync that both lanes executed since (rthread.wsync). The warp-synchronous reduction
 * without __syncwarp() is the case. Only shared memory is watched (what that idiom uses;
 * --jobs judges global accesses elsewhere). */

static bool lockstep_pair(const struct acc_ctx *x, const struct rec *p, uint8_t mask,
			  uint32_t step)
{
	const struct race *R = x->R;
	if (!p->clock || !(p->mask & mask) || p->tid == x->tid || p->step == step ||
	    !p->insn || p->insn->sem != MOD_VOLATILE || (p->flags & RF_RMW) ||
	    cta_of(R, p->tid) != cta_of(R, x->tid) ||
	    local_of(R, p->tid) / LANES != local_of(R, x->tid) / LANES ||
	    happens_before(R, x->t, x->tid, x->owner, p))
		return false;
	const struct rthread *o = &x->t[(int64_t)local_of(R, p->tid) - local_of(R, x->tid)];
	return !((int32_t)(x->t->wsync - p->step) > 0 && (int32_t)(o->wsync - p->step) > 0);
}

static void lockstep_report(struct acc_ctx *x, const struct access *a, uint32_t size,
			    enum race_kind kind, const struct rec *p, bool pwrite)
{
	struct launch *L = x->L;
	struct race *R = x->R;
	if (!first_pair(R, p->insn, L->ci) || !shard_report_begin(L, R, p->insn, L->ci))
		return;
	struct strbuf msg = {0}, notes = {0};
	uint32_t me = local_of(R, x->tid), other = local_of(R, p->tid);
	sb_printf(&msg, "lanes %u and %u of warp %u exchange ", other % LANES, me % LANES,
		  me / LANES);
	describe_place(L, x->w, a, size, &msg);
	sb_printf(&msg, " with no __syncwarp between: this volatile %s by CTA (%u,%u,%u) thread "
		  "%u is not ordered after the volatile %s by thread %u",
		  kind == RACE_READ ? "read" : "write", x->w->cta->ctaid[0], x->w->cta->ctaid[1],
		  x->w->cta->ctaid[2], me, pwrite ? "write" : "read", other);
	sb_printf(&notes, "lanes of a warp are independent threads (sm_70 and later): running "
		  "in lock step orders nothing, and volatile accesses only make each access whole; "
		  "a bar.warp.sync (__syncwarp()) between the two instructions orders them");
	rule_break_notes(L, RULE_WARP_SYNC_MISSING, 1u << x->lane, notes.s, msg.s);
	sb_free(&msg);
	msg = (struct strbuf){0};
	sb_printf(&msg, "the earlier volatile %s by thread %u", pwrite ? "write" : "read", other);
	gather_flush(L); /* the note follows its report */
	if (p->insn->ir)
		srcloc_emit(L->diag, DIAG_NOTE, L->file, L->P->m, p->insn->ir,
			    srcloc_func_of(L->P, p->insn), NULL, msg.s);
	shard_report_end(L, R);
	sb_free(&msg);
	sb_free(&notes);
}

/* The current volatile access of x against the other lanes' of its warp; false after a
 * report. Cells not made yet hold no access. */
static bool lockstep_check(struct acc_ctx *x, const struct access *a, uint32_t size,
			   enum race_kind kind)
{
	if (a->space != MS_SHARED_CTA || a->cta != x->w->cta)
		return true;
	struct shadow *s = &x->R->cta[a->cta->rank].smem;
	uint32_t end = a->off + size, step = (uint32_t)x->L->steps;
	for (uint32_t g = a->off / GRAN; g * GRAN < end; g++) {
		uint32_t lo = a->off > g * GRAN ? a->off : g * GRAN;
		uint32_t hi = end < g * GRAN + GRAN ? end : g * GRAN + GRAN;
		uint8_t mask = (uint8_t)(((1u << (hi - lo)) - 1) << (lo - g * GRAN));
		const struct cell *c = cell_made(s, g);
		if (!c)
			continue;
		const struct rec *hit = lockstep_pair(x, &c->w, mask, step) ? &c->w : NULL;
		if (!hit && kind != RACE_READ && lockstep_pair(x, &c->r, mask, step))
			hit = &c->r;
		if (!hit && kind != RACE_READ && lockstep_pair(x, &c->r2, mask, step))
			hit = &c->r2;
		for (uint32_t i = 0; !hit && kind != RACE_READ && c->more && i < c->more->n; i++)
			if (lockstep_pair(x, &c->more->e[i], mask, step))
				hit = &c->more->e[i];
		if (hit) {
			lockstep_report(x, a, size, kind, hit, hit == &c->w);
			return false;
		}
	}
	return true;
}

void race_lockstep_sync(struct launch *L, struct warp *w, uint32_t lanes)
{
	struct race *R = L->race;
	for (uint32_t m = R ? lanes : 0; m; m &= m - 1)
		thr(R, w, (uint32_t)__builtin_ctz(m))->wsync = (uint32_t)L->steps;
}

void race_access(struct launch *L, struct warp *w, uint32_t lane, const struct access *a,
		 uint32_t size, enum race_kind kind, const void *newv)
{
	struct race *R = L->race;
	if (!R || !size || L->stop || !race_tracked(a->space))
		return;
	uint32_t tid = tid_of(R, w, lane);
	if (R->shard && a->space == MS_GLOBAL) { /* judged in cluster order (race_global.c) */
		defer_access(L, w, lane, a, size, kind, newv);
		return;
	}
	struct acc_ctx x = {.L = L, .R = R, .t = thr(R, w, lane), .w = w, .lane = lane,
			    .tid = tid, .owner = tid, .flags = access_flags(L->ci),
			    .skip_agents = a->async_raced};
	struct rec me = {L->ci, tid, *clock_of(R, x.t), (uint32_t)L->steps, 0, x.flags};
	if (L->ci->sem == MOD_VOLATILE && kind != RACE_RMW && !lockstep_check(&x, a, size, kind))
		return;
	if (check_range(&x, a, size, kind, &me, newv) && (x.flags & RF_STRONG))
		sync_through(L, x.t, tid, a, kind, x.flags);
}

bool race_plain(const struct dinsn *di)
{
	return access_flags(di) == 0;
}

/* ---- the warp-wide quick path -------------------------------------------------------- */

static const uint32_t no_clocks[1024]; /* a vector without a chunk for a CTA (blocks have at
					* most 1024 threads): all of its clocks are 0 */

/* v's clocks of CTA cta's threads (no_clocks when v has none). */
static const uint32_t *vc_clocks(const struct vc *v, uint32_t cta)
{
	if (v->n == 1)
		return v->ch[0].cta == cta ? v->ch[0].c : no_clocks;
	int i = vc_find(v, cta);
	return (uint32_t)i < v->n && v->ch[i].cta == cta ? v->ch[i].c : no_clocks;
}

/* What the quick path knows of the accessing threads: they are of the CTA whose thread ids
 * lie in [base, base + span), and their vector's clocks of those threads are clk[tid - base]
 * (the lanes of one warp usually share one vector: `gen`, its generation). */
struct quick {
	uint32_t base, span;
	const uint32_t *clk;
	uint64_t gen;
	const struct dinsn *insn;   /* the instruction and its step (quick_word)              */
	uint32_t step;
};

/* Whether record p, made by another thread, is known ordered before a plain access by a
 * thread of q: p is by a thread of the CTA (not an agent: their CTA numbers lie above the
 * grid's) and its epoch is in the vector. False says nothing: happens_before may still find
 * p ordered (a thread of another CTA, an agent). */
static inline bool quick_ordered(const struct quick *q, const struct rec *p)
{
	uint32_t k = p->tid - q->base;
	return k < q->span && q->clk[k] >= p->clock;
}

/* Whether record p may conflict with the plain access me (quick_ordered's terms): false
 * when conflicts() would be false for certain. */
static inline bool quick_may_conflict(const struct quick *q, const struct rec *p,
				      const struct rec *me)
{
	return p->clock && (p->mask & me->mask) && p->tid != me->tid && !quick_ordered(q, p);
}

/* check_cell for a plain access `me` (no strength, no copy) by a thread of q, in the common
 * cases: every earlier record it meets is the thread's own or quick_ordered, and a read
 * either takes the cell's one read (which it covers) or, concurrent with it, joins the list
 * of further reads by add_read's fast path. Then the cell is updated as check_cell would;
 * false: not decided here, the cell untouched (check_cell decides). */
static inline __attribute__((always_inline)) bool quick_cell(const struct quick *q, struct cell *c, const struct rec *me,
			      bool write)
{
	struct rec *r = &c->r;
	uint32_t tid = me->tid;
	if (c->r2.clock) /* (check_cell moves it to the list, which this path knows) */
		return false;
	if (quick_may_conflict(q, &c->w, me))
		return false;
	if (!write) {
		if (!r->clock || r->tid == tid ||
		    (!(r->mask & ~me->mask) && quick_ordered(q, r))) {
			take_rec(r, me, tid);
			return true;
		}
		/* add_read's fast path, when its first case surely fails (r is not covered, or
		 * is by a thread of the CTA, whose order quick_ordered knows exactly) and the
		 * thread has no entry in the list yet */
		struct readers *m = c->more;
		if (!m || (m->n && m->ok_gen != q->gen) ||
		    (m->n == m->cap && m->cap < MAX_READERS) ||
		    (!(r->mask & ~me->mask) && r->tid - q->base >= q->span))
			return false;
		readers_put(m, me, tid);
		m->ok_gen = q->gen; /* (an empty list: what add_read's scan of nothing concludes) */
		return true;
	}
	if (quick_may_conflict(q, r, me))
		return false;
	struct readers *m = c->more;
	bool all = true; /* every further read has no bytes outside this write's */
	for (uint32_t i = 0; m && i < m->n; i++) {
		if (quick_may_conflict(q, &m->e[i], me))
			return false;
		all &= !(m->e[i].mask & ~me->mask);
	}
	take_rec(&c->w, me, tid);
	if ((r->mask &= (uint8_t)~me->mask) == 0)
		r->clock = 0;
	if (m && m->n && all) { /* clear_reads, which would drop them all */
		m->n = 0;
		memset(m->tids, 0, sizeof m->tids);
	} else if (m && m->n) {
		clear_reads(c, me->mask);
	}
	return true;
}

/* quick_cell for a whole word (the word loop of race_shared_lanes), with what that lets go:
 * every record kept has some byte (a write's record is a write's bytes, a read's goes when
 * its last byte is written), so each overlaps the word, and the word covers each; the
 * records it leaves are quick_cell's, byte for byte. The access: thread tid at epoch
 * clock, by q's instruction at q's step. */
static inline __attribute__((always_inline)) bool quick_word(const struct quick *q,
							     struct cell *c, uint32_t tid,
							     uint32_t clock, bool write)
{
	struct rec *r = &c->r;
	const struct rec me = {q->insn, tid, clock, q->step, 0xf, 0};
	if (c->w.clock && c->w.tid != tid && !quick_ordered(q, &c->w))
		return false;
	if (!write) {
		if (!r->clock || r->tid == tid || quick_ordered(q, r)) {
			*r = me; /* (take_rec: its bytes are all of the word) */
			return true;
		}
		/* add_read's fast path, as quick_cell takes it; the first further read of a
		 * word goes to r2 (an empty list: what add_read's scan of nothing concludes),
		 * the next ones to the list once check_cell has moved r2 there */
		struct readers *m = c->more;
		if (r->tid - q->base >= q->span || c->r2.clock)
			return false;
		if (!m || !m->n) {
			c->r2 = me;
			if (m)
				m->ok_gen = q->gen;
			return true;
		}
		if (m->ok_gen != q->gen || (m->n == m->cap && m->cap < MAX_READERS))
			return false;
		readers_put(m, &me, tid);
		return true;
	}
	if (r->clock && r->tid != tid && !quick_ordered(q, r))
		return false;
	if (c->r2.clock && c->r2.tid != tid && !quick_ordered(q, &c->r2))
		return false;
	struct readers *m = c->more;
	uint32_t n = m ? m->n : 0;
	for (uint32_t i = 0; i < n; i++)
		if (m->e[i].tid != tid && !quick_ordered(q, &m->e[i]))
			return false;
	c->w = me; /* (its own earlier write's bytes are within the word) */
	r->mask = 0;
	r->clock = 0;
	c->r2.mask = 0;
	c->r2.clock = 0;
	if (n) { /* clear_reads, which drops them all */
		m->n = 0;
		memset(m->tids, 0, sizeof m->tids);
	}
	return true;
}

/* A lane's bytes stored as exec_st stores them: the low `size` bytes of its value. */
static inline void store_low(uint8_t *p, uint64_t v, uint32_t size)
{
	uint8_t b = (uint8_t)v;
	uint16_t h = (uint16_t)v;
	uint32_t u = (uint32_t)v;
	switch (size) {
	case 1:
		memcpy(p, &b, 1);
		break;
	case 2:
		memcpy(p, &h, 2);
		break;
	case 4:
		memcpy(p, &u, 4);
		break;
	default:
		memcpy(p, &v, 8);
	}
}

/* Lane l of race_shared_lanes checked and recorded granule by granule in full (x: its
 * warp's context), its bytes then stored; false when a report stopped the launch. */
static __attribute__((noinline)) bool shared_lane_full(struct acc_ctx *x, uint32_t l,
						       uint32_t o, uint32_t size,
						       const uint64_t *v)
{
	struct launch *L = x->L;
	struct race *R = x->R;
	struct cta *c = x->w->cta;
	enum race_kind kind = v ? RACE_WRITE : RACE_READ;
	const uint8_t *nv = v ? (const uint8_t *)&v[l] : NULL; /* its low bytes stored */
	x->t = thr(R, x->w, l);
	x->tid = x->owner = tid_of(R, x->w, l);
	x->lane = l;
	struct rec me = {L->ci, x->tid, *clock_of(R, x->t), (uint32_t)L->steps, 0, 0};
	uint32_t end = o + size;
	for (uint32_t g = o / GRAN; g * GRAN < end; g++) {
		uint32_t lo = o > g * GRAN ? o : g * GRAN;
		uint32_t hi = end < g * GRAN + GRAN ? end : g * GRAN + GRAN;
		me.mask = (uint8_t)(((1u << (hi - lo)) - 1) << (lo - g * GRAN));
		struct cell *cell = cell_at(L, x->s, c->smem_size, g);
		if (!cell)
			break;
		const struct rec *hit = NULL;
		const uint8_t *bv = nv ? nv + (lo - o) : NULL;
		if (!check_cell(x, cell, &me, kind, bv, c->smem + lo, hi - lo, &hit)) {
			struct access a = {.p = c->smem + o, .cta = c, .off = o,
					   .space = MS_SHARED_CTA};
			report(x, &a, size, kind, hit, hit == &cell->w,
			       same_store(kind, &me, hit, &cell->w, bv, c->smem + lo, hi - lo));
			break;
		}
	}
	if (L->stop)
		return false;
	if (v)
		store_low(c->smem + o, v[l], size);
	return true;
}

/* race_shared_lanes' lanes in order (write: v, the values, is not NULL), each by the quick
 * path when it can, else in full; the lanes that go on. */
static inline __attribute__((always_inline)) uint32_t
shared_lanes_loop(struct acc_ctx *x, uint32_t mask, const uint32_t *off, uint32_t size,
		  const uint64_t *v, const bool write)
{
	struct launch *L = x->L;
	struct race *R = x->R;
	struct cta *c = x->w->cta;
	struct shadow *s = x->s;
	struct rthread *t0 = thr(R, x->w, 0);
	const uint32_t *k0 = clock_of(R, t0);
	uint32_t tid0 = tid_of(R, x->w, 0), done = 0, shift = R->shift, cta = c->linear;
	/* The quick path (quick_cell): a lane of one granule whose vector is the first lane's
	 * (usually all of them share one), its cell's page made. */
	const struct vc *vq = t0[__builtin_ctz(mask)].vc;
	struct quick q = {cta << shift, 1u << shift, vc_clocks(vq, cta), vq->gen, L->ci,
			  (uint32_t)L->steps};
	bool quick = R->nt <= sizeof no_clocks / sizeof *no_clocks && size <= GRAN;
	struct rec me = {L->ci, 0, 0, (uint32_t)L->steps, 0, 0};
	uint8_t m1 = (uint8_t)((1u << size) - 1);
	struct cell *const *pages = s->pages;
	uint64_t npages = pages ? s->npages : 0;
	if (quick && size == GRAN && npages) {
		/* a word per lane (aligned: one granule each; in the CTA's memory: its page is
		 * in the table), the usual case: the quick path with less to test per lane */
		uint32_t m = mask;
		if (mask == 0xffffffffu) {
			/* a whole warp on 32 consecutive words of one page, one vector (the
			 * usual case): the cells side by side, no per-lane lookups, until a
			 * lane the quick path cannot decide (it and those after: below) */
			uint32_t o0 = off[0], g0 = o0 / GRAN, skew = 0;
#pragma GCC unroll 8
			for (uint32_t l = 0; l < LANES; l++)
				skew |= off[l] - o0 - l * GRAN;
			struct cell *run = !skew && !lanes_differ(R, x->w, vq) && g0 % PAGE_CELLS + LANES <= PAGE_CELLS
						   ? pages[g0 / PAGE_CELLS] : NULL;
			uint32_t l = 0;
			while (run && l < LANES &&
			       quick_word(&q, run + g0 % PAGE_CELLS + l, tid0 + l, k0[l], write)) {
				if (write)
					store_low(c->smem + o0 + l * GRAN, v[l], GRAN);
				l++;
			}
			if (l == LANES)
				return mask;
			m = mask & ~((1u << l) - 1); /* (l < 32) */
		}
		for (; m; m &= m - 1) {
			uint32_t l = (uint32_t)__builtin_ctz(m), o = off[l], g = o / GRAN;
			const struct rthread *t = t0 + l;
			struct cell *page = pages[g / PAGE_CELLS];
			if (t->vc == vq && page &&
			    quick_word(&q, page + g % PAGE_CELLS, tid0 + l, k0[l], write)) {
				if (write)
					store_low(c->smem + o, v[l], GRAN);
				continue;
			}
			if (!shared_lane_full(x, l, o, size, v))
				return mask & ((1u << l) - 1);
			pages = s->pages; /* (it may have made them) */
		}
		return mask;
	}
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m), o = off[l], g = o / GRAN;
		struct rthread *t = t0 + l;
		if (quick && t->vc == vq && g / PAGE_CELLS < npages && pages[g / PAGE_CELLS]) {
			me.tid = tid0 + l;
			me.clock = k0[l];
			me.mask = (uint8_t)(m1 << (o % GRAN));
			if (quick_cell(&q, pages[g / PAGE_CELLS] + g % PAGE_CELLS, &me, write)) {
				if (write)
					store_low(c->smem + o, v[l], size);
				done |= 1u << l;
				continue;
			}
		}
		if (!shared_lane_full(x, l, o, size, v))
			break;
		done |= 1u << l;
		pages = s->pages; /* (it may have made them) */
		npages = pages ? s->npages : 0;
	}
	return done;
}

uint32_t race_shared_lanes(struct launch *L, struct warp *w, uint32_t mask, const uint32_t *off,
			   uint32_t size, const uint64_t *v)
{
	struct race *R = L->race;
	if (L->stop || !mask)
		return 0;
	struct acc_ctx x = {.L = L, .R = R, .s = &R->cta[w->cta->slot].smem, .w = w};
	return v ? shared_lanes_loop(&x, mask, off, size, v, true)
		 : shared_lanes_loop(&x, mask, off, size, NULL, false);
}

/* ---- asynchronous copies ------------------------------------------------------------- */

bool race_after_issue(struct launch *L, struct warp *w, uint32_t lane,
		      const struct race_copy *rc)
{
	struct race *R = L->race;
	if (!R || !rc->clock || !w)
		return true;
	return tid_of(R, w, lane) == rc->tid ||
	       vc_get(R, thr(R, w, lane)->vc, rc->tid) >= rc->tclock;
}

void race_copy_in_flight(struct launch *L, uint32_t lane, const struct race_copy *rc,
			 const struct dinsn *copy, const struct access *a, uint32_t size,
			 bool write, bool source)
{
	struct race *R = L->race;
	struct warp *w = L->cw;
	if (!first_pair(R, copy, L->ci))
		return;
	if (!shard_report_begin(L, R, copy, L->ci))
		return;
	uint32_t tid = tid_of(R, w, lane);
	struct strbuf msg = {0}, who = {0};
	describe_tid(L, rc->agent, copy, tid, &who);
	sb_printf(&msg, "data race on ");
	describe_place(L, w, a, size, &msg);
	sb_printf(&msg, ": this %s by CTA (%u,%u,%u) thread %u is not ordered with the %s by %s, "
		  "in flight", write ? "write" : "read", w->cta->ctaid[0], w->cta->ctaid[1],
		  w->cta->ctaid[2], local_of(R, tid), source ? "read" : "write", who.s);
	rule_break_notes(L, RULE_DATA_RACE, 1u << lane,
			 "nothing orders the copy's issue before this access (no barrier, wait or "
			 "release/acquire pair from the issuing thread), so the copy may land "
			 "before, during or after it", msg.s);
	sb_free(&msg);
	msg = (struct strbuf){0};
	sb_printf(&msg, "the %s by %s, issued here", source ? "read" : "write", who.s);
	gather_flush(L); /* the note follows its report */
	if (copy->ir)
		srcloc_emit(L->diag, DIAG_NOTE, L->file, L->P->m, copy->ir,
			    srcloc_func_of(L->P, copy), NULL, msg.s);
	shard_report_end(L, R);
	sb_free(&msg);
	sb_free(&who);
}

void race_copy_issue(struct launch *L, struct warp *w, uint32_t lane, enum race_agent kind,
		     struct race_copy *rc)
{
	struct race *R = L->race;
	memset(rc, 0, sizeof *rc);
	if (!R || !R->agents)
		return;
	struct rthread *t = thr(R, w, lane);
	uint32_t tid = tid_of(R, w, lane);
	rc->vc = vc_ref(t->vc);
	rc->tid = tid;
	rc->tclock = (*clock_of(R, t))++; /* its later accesses are not before the copy */
	rc->seen_cp = t->seen_cp;
	rc->seen_bulk = t->seen_bulk;
	rc->agent = agent_of(R, tid, kind);
	rc->clock = kind == RA_CP     ? w->cp_open[lane] + 1
		    : kind == RA_BULK ? w->bulk_open[lane] + 1
				      : ++t->mbar_clock;
	rc->issued = (uint32_t)L->steps;
}

void race_copy_drop(struct race_copy *rc)
{
	vc_put(rc->vc);
	rc->vc = NULL;
}

static void defer_copy(struct launch *L, const struct race_copy *rc, const struct access *a,
		       uint32_t size, enum race_kind kind, uint8_t flags);

/* ---- a copy's landing, cell by cell with its clocks looked up once --------------------
 * A landing checks and records many cells (a tensor box, a wgmma's operands) under one
 * vector, the issuing thread's at the issue, which is shared and so never changes (vectors
 * are copy on write). happens_before looks the vector up afresh for every record it meets;
 * here each CTA's clocks are looked up once (struct hbq), so deciding a record is a compare.
 * copy_cell decides a cell as check_cell would when no record may conflict, and records
 * the access the same way; when one may, it changes nothing and check_cell decides (and
 * reports). */

struct hbq {
	const struct race *R;
	const struct vc *vc;        /* the issuing thread's vector at the issue               */
	uint32_t tid, owner;        /* the copy's agent and its thread                        */
	uint32_t cp, bulk;          /* the thread's cp.async and bulk-group agents            */
	uint32_t seen_cp, seen_bulk;/* their clocks its wait_groups had acquired              */
	uint32_t shift, local;      /* thread ids: CTA << shift | local                       */
	uint32_t key[4];            /* CTA number + 1 of each slot's clocks (0: none yet)     */
	const uint32_t *clk[4];     /* the vector's clocks of that CTA's threads             */
	bool direct;                /* CTAs too large for no_clocks: vc_get every time       */
};

/* The vector's clock of thread tid, its CTA's chunk looked up once. */
static inline __attribute__((always_inline)) uint32_t hbq_clock(struct hbq *q, uint32_t tid)
{
	uint32_t cta = tid >> q->shift, s = cta & 3;
	if (__builtin_expect(q->direct, 0))
		return vc_get(q->R, q->vc, tid);
	if (q->key[s] != cta + 1) {
		q->key[s] = cta + 1;
		q->clk[s] = vc_clocks(q->vc, cta);
	}
	return q->clk[s][tid & q->local];
}

/* happens_before(R, t, tid, owner, p) of the copy, through q. */
static inline __attribute__((always_inline)) bool hbq_before(struct hbq *q,
							     const struct rec *p)
{
	if (p->tid == q->tid || p->tid == q->owner || hbq_clock(q, p->tid) >= p->clock)
		return true;
	if (!(p->flags & RF_ASYNC))
		return false;
	if (p->tid == q->cp)
		return q->seen_cp >= p->clock;
	return p->tid == q->bulk && q->seen_bulk >= p->clock;
}

/* Whether p may conflict with the copy's access of `mask` (conflicts() may still say no:
 * strength, or made while the copy was in flight). */
static inline __attribute__((always_inline)) bool hbq_may_conflict(struct hbq *q,
								   const struct rec *p,
								   uint8_t mask)
{
	return p->clock && (p->mask & mask) && p->tid != q->tid && !hbq_before(q, p);
}

/* add_read for the copy's read (a copy takes no fast path there), through q. Returns
 * whether it went on to the list: else only the cell's one read, and what it found there
 * (the read and the mask), decided what it did. */
static inline __attribute__((always_inline)) bool
copy_add_read(const struct acc_ctx *x, struct hbq *q, struct cell *c, const struct rec *me)
{
	struct rec *r = &c->r;
	uint32_t tid = q->tid;
	if (x->gread) {
		if (!r->clock || r->tid == tid || (r->flags & RF_ASYNC) || hbq_before(q, r))
			take_rec(r, me, tid);
		return false;
	}
	if (!r->clock || r->tid == tid || (!(r->mask & ~me->mask) && hbq_before(q, r))) {
		take_rec(r, me, tid);
		return false;
	}
	struct readers *m = c->more;
	if ((!m || (m->n == m->cap && m->cap < MAX_READERS)) && !(m = readers_room(x, c)))
		return true;
	uint32_t k = 0, n = m->n;
	bool placed = false, dropped = false;
	for (uint32_t i = 0; i < n; i++) {
		struct rec *e = &m->e[i];
		if (e->tid == tid) {
			uint8_t keep = e->mask;
			*e = *me;
			e->mask |= keep;
			placed = true;
		} else if (!(e->mask & ~me->mask) && hbq_before(q, e)) {
			dropped = true;
			continue; /* covered by this read */
		}
		if (k != i)
			m->e[k] = *e;
		k++;
	}
	if (dropped) { /* the kept entries' threads */
		memset(m->tids, 0, sizeof m->tids);
		for (uint32_t i = 0; i < k; i++)
			m->tids[m->e[i].tid >> 6 & 3] |= 1ull << (m->e[i].tid & 63);
	}
	if (!placed)
		m->e[k < MAX_READERS ? k++ : tid % MAX_READERS] = *me;
	m->n = k;
	m->tids[tid >> 6 & 3] |= 1ull << (tid & 63);
	m->ok_gen = 0; /* (add_read's `ok` starts false for a copy) */
	return true;
}

/* check_cell for the copy's access `me` when no record of c may conflict with it (true:
 * checked and recorded; *list: a read went on to the list); false: c untouched,
 * check_cell decides. */
static inline __attribute__((always_inline)) bool
copy_cell(const struct acc_ctx *x, struct hbq *q, struct cell *c, const struct rec *me,
	  enum race_kind kind, bool *list)
{
	if (hbq_may_conflict(q, &c->w, me->mask))
		return false;
	if (kind == RACE_READ) {
		*list = copy_add_read(x, q, c, me);
		return true;
	}
	if (hbq_may_conflict(q, &c->r, me->mask))
		return false;
	for (uint32_t i = 0; c->more && i < c->more->n; i++)
		if (hbq_may_conflict(q, &c->more->e[i], me->mask))
			return false;
	take_rec(&c->w, me, me->tid);
	clear_reads(c, me->mask);
	return true;
}

/* The last cell a landing decided in full, before and after: copy_cell is a function of
 * what it reads of the cell (its write, when it writes; its read; its list's entries,
 * threads and ok_gen; whether it has a list), the access's mask and the landing's context,
 * so a cell whose state agrees in all that ends in the same state. What it reads: a write
 * reads it all (ST_ALL); a read that only took or left the cell's one read read just that
 * (ST_R: copy_add_read's first cases; the write is checked apart, and left); one that went
 * on to the list read the read and the list but not ok_gen, which it sets (ST_LIST). The
 * cells of a box or of a wgmma's operand were mostly made alike (by the same accesses), so
 * most take the recorded state as it is, compared and copied. Lists longer than
 * MEMO_READERS are not kept; a cell whose list lacks room for the state after is decided
 * in full. */
enum { MEMO_READERS = 8 };
enum { ST_R, ST_LIST, ST_ALL };

struct cell_state {
	struct rec w, r;
	bool more;                  /* it has a list (perhaps empty)                          */
	uint32_t n;
	uint64_t ok_gen, tids[4];
	struct rec e[MEMO_READERS];
};

struct copy_memo {
	bool valid;
	uint8_t mask, what;         /* the access's mask; ST_*                                */
	struct rec last_w;          /* the last write a read of all 4 bytes found no conflict
				     * with (then none for any mask): no need to ask again    */
	struct cell_state in, out;
};

static void memo_init(struct copy_memo *memo)
{
	memo->valid = false;
	memset(&memo->last_w, 0, sizeof memo->last_w); /* (clock 0: no write) */
}

/* The difference of the 8-byte words at a and b (0: equal). */
static inline __attribute__((always_inline)) uint64_t word_diff(const void *a, const void *b)
{
	uint64_t x, y;
	memcpy(&x, a, 8);
	memcpy(&y, b, 8);
	return x ^ y;
}

_Static_assert(sizeof(struct rec) == 24, "a rec is three words");

/* Whether two records are the same (their padding too: at worst a miss). */
static inline __attribute__((always_inline)) bool rec_same(const struct rec *a,
							   const struct rec *b)
{
	const uint8_t *x = (const uint8_t *)a, *y = (const uint8_t *)b;
	return !(word_diff(x, y) | word_diff(x + 8, y + 8) | word_diff(x + 16, y + 16));
}

/* c's state into st; false: its list is too long to keep. */
static inline bool state_get(const struct cell *c, struct cell_state *st)
{
	const struct readers *m = c->more;
	if (m && m->n > MEMO_READERS)
		return false;
	st->w = c->w;
	st->r = c->r;
	st->more = m != NULL;
	st->n = m ? m->n : 0;
	if (m) {
		st->ok_gen = m->ok_gen;
		memcpy(st->tids, m->tids, sizeof st->tids);
		memcpy(st->e, m->e, m->n * sizeof *m->e);
	}
	return true;
}

/* Whether c agrees with st in what `what` (ST_*) compares. */
static inline __attribute__((always_inline)) bool state_same(const struct cell *c,
							     const struct cell_state *st,
							     unsigned what)
{
	if (!rec_same(&c->r, &st->r))
		return false;
	if (what == ST_R)
		return true;
	const struct readers *m = c->more;
	if ((m != NULL) != st->more || (what == ST_ALL && !rec_same(&c->w, &st->w)))
		return false;
	if (!m)
		return true;
	if (m->n != st->n || (what == ST_ALL && m->ok_gen != st->ok_gen) ||
	    ((m->tids[0] ^ st->tids[0]) | (m->tids[1] ^ st->tids[1]) |
	     (m->tids[2] ^ st->tids[2]) | (m->tids[3] ^ st->tids[3])))
		return false;
	uint64_t d = 0;
	for (uint32_t i = 0; i < m->n; i++)
		d |= !rec_same(&m->e[i], &st->e[i]);
	return !d;
}

/* Put into c the parts of state st that `what` changes, when its list has room (it has one
 * when st has, with ST_LIST or ST_ALL: state_same said so, as the state before had one;
 * lists are never taken away); false: not put. */
static inline __attribute__((always_inline)) bool state_put(struct cell *c,
							    const struct cell_state *st,
							    unsigned what)
{
	struct readers *m = c->more;
	if (what != ST_R && ((st->more && !m) || (m && m->cap < st->n)))
		return false;
	c->r = st->r;
	if (what == ST_ALL)
		c->w = st->w;
	if (what != ST_R && m) {
		m->n = st->n;
		m->ok_gen = st->ok_gen;
		memcpy(m->tids, st->tids, sizeof m->tids);
		memcpy(m->e, st->e, st->n * sizeof *m->e);
	}
	return true;
}

/* The mask of granule g's bytes within [off, end). */
static inline uint8_t gran_mask(uint64_t g, uint64_t off, uint64_t end)
{
	uint64_t lo = off > g * GRAN ? off : g * GRAN;
	uint64_t hi = end < g * GRAN + GRAN ? end : g * GRAN + GRAN;
	return (uint8_t)(((1u << (hi - lo)) - 1) << (lo - g * GRAN));
}

/* check_range for the copy's access (x->copy, no store value) of the `size` bytes at
 * offset off of shadow s (`bytes` long; a: the access, for a report), through q and memo:
 * the cells of each page side by side. */
static inline __attribute__((always_inline)) bool
copy_cells_in(struct acc_ctx *x, struct hbq *q, struct copy_memo *memo, struct shadow *s,
	      uint64_t bytes, uint64_t off, uint32_t size, enum race_kind kind, struct rec *me,
	      const struct access *a)
{
	uint64_t end = off + size, g = off / GRAN, gend = (end + GRAN - 1) / GRAN;
	bool w = kind != RACE_READ; /* a read checks the write, and leaves it */
	x->s = s;
	x->gread = kind == RACE_READ && a->space == MS_GLOBAL;
	while (g < gend) {
		struct cell *c = cell_at(x->L, s, bytes, g);
		if (!c)
			return false;
		uint64_t stop = (g / PAGE_CELLS + 1) * PAGE_CELLS;
		for (stop = stop < gend ? stop : gend; g < stop; g++, c++) {
			me->mask = g * GRAN >= off && g * GRAN + GRAN <= end ? 0xf
									      : gran_mask(g, off, end);
			bool fine = w || rec_same(&c->w, &memo->last_w);
			if (!fine && !hbq_may_conflict(q, &c->w, me->mask)) {
				fine = true;
				if (me->mask == 0xf)
					memo->last_w = c->w;
			}
			if (memo->valid && memo->mask == me->mask && fine &&
			    state_same(c, &memo->in, memo->what) &&
			    state_put(c, &memo->out, memo->what))
				continue;
			memo->valid = false;
			bool keep = state_get(c, &memo->in), list = true;
			if (copy_cell(x, q, c, me, kind, &list)) {
				memo->valid = keep && !x->L->stop && state_get(c, &memo->out);
				memo->mask = me->mask;
				memo->what = w ? ST_ALL : list ? ST_LIST : ST_R;
				continue;
			}
			const struct rec *hit = NULL;
			uint64_t lo = off > g * GRAN ? off : g * GRAN;
			uint32_t n = (uint32_t)__builtin_popcount(me->mask);
			if (!check_cell(x, c, me, kind, NULL, a->p + (lo - off), n, &hit)) {
				report(x, a, size, kind, hit, hit == &c->w, false);
				return false;
			}
		}
	}
	return true;
}

static __attribute__((noinline)) bool copy_cells(struct acc_ctx *x, struct hbq *q,
						 struct copy_memo *memo, struct shadow *s,
						 uint64_t bytes, uint64_t off, uint32_t size,
						 enum race_kind kind, struct rec *me,
						 const struct access *a)
{
	return copy_cells_in(x, q, memo, s, bytes, off, size, kind, me, a);
}

/* q for agent tid of thread `owner`, whose state at the issue was t. */
static void hbq_init(const struct race *R, const struct rthread *t, uint32_t tid,
		     uint32_t owner, struct hbq *q)
{
	*q = (struct hbq){.R = R, .vc = t->vc, .tid = tid, .owner = owner,
			  .cp = agent_of(R, owner, RA_CP), .bulk = agent_of(R, owner, RA_BULK),
			  .seen_cp = t->seen_cp, .seen_bulk = t->seen_bulk, .shift = R->shift,
			  .local = (1u << R->shift) - 1,
			  .direct = R->nt > sizeof no_clocks / sizeof *no_clocks};
}

/* The context of copy rc's landing (t: its issuing thread's state at the issue). */
static void copy_ctx(struct launch *L, const struct race_copy *rc, struct rthread *t,
		     uint8_t flags, struct acc_ctx *x, struct hbq *q)
{
	struct race *R = L->race;
	*t = (struct rthread){.vc = rc->vc, .seen_cp = rc->seen_cp, .seen_bulk = rc->seen_bulk};
	*x = (struct acc_ctx){.L = L, .R = R, .t = t, .w = L->cw,
			      .lane = (uint32_t)__builtin_ctz(L->cmask), .tid = rc->agent,
			      .owner = rc->tid, .flags = flags, .copy = true,
			      .skip_agents = rc->raced, .issued = rc->issued};
	hbq_init(R, t, rc->agent, rc->tid, q);
}

void race_copy_access(struct launch *L, const struct race_copy *rc, const struct access *a,
		      uint32_t size, enum race_kind kind)
{
	struct race *R = L->race;
	if (!R || !rc->vc || !size || L->stop || !L->cw || !race_tracked(a->space))
		return;
	uint8_t flags = RF_ASYNC;
	if (kind == RACE_RMW) /* red.async, bulk reductions: atomic per element */
		flags |= RF_STRONG | RF_RMW | (uint8_t)(SC_GPU << 4);
	if (R->shard && a->space == MS_GLOBAL) {
		defer_copy(L, rc, a, size, kind, flags);
		return;
	}
	struct rthread t;
	struct acc_ctx x;
	struct hbq q;
	uint64_t off, bytes;
	copy_ctx(L, rc, &t, flags, &x, &q);
	struct rec me = {L->ci, rc->agent, rc->clock, (uint32_t)L->steps, 0, flags};
	struct shadow *s = shadow_of(L, a, &off, &bytes);
	struct copy_memo memo;
	memo_init(&memo);
	if (s)
		copy_cells(&x, &q, &memo, s, bytes, off, size, kind, &me, a);
}

void race_copy_reads(struct launch *L, const struct race_copy *rc, struct cta *c,
		     const uint32_t *off, uint32_t n, uint32_t size)
{
	struct race *R = L->race;
	if (!R || !rc->vc || !size || L->stop || !L->cw)
		return;
	struct rthread t;
	struct acc_ctx x;
	struct hbq q;
	copy_ctx(L, rc, &t, RF_ASYNC, &x, &q);
	struct rec me = {L->ci, rc->agent, rc->clock, (uint32_t)L->steps, 0, RF_ASYNC};
	struct shadow *s = &R->cta[c->slot].smem;
	struct copy_memo memo;
	memo_init(&memo);
	for (uint32_t i = 0; i < n && !L->stop; i++) {
		struct access a = {.p = c->smem + off[i], .cta = c, .off = off[i],
				   .space = MS_SHARED_CTA};
		copy_cells_in(&x, &q, &memo, s, c->smem_size, off[i], size, RACE_READ, &me, &a);
	}
}

/* ---- barriers, mbarriers, fences ----------------------------------------------------- */

void race_bar_arrive(struct launch *L, struct warp *w, uint32_t lanes, uint32_t id)
{
	struct race *R = L->race;
	if (!R)
		return;
	struct rcta *rc = &R->cta[w->cta->slot];
	enum ir_op op = (enum ir_op)L->ci->op;
	/* A whole warp that waits here (bar.sync, bar.red; not bar.arrive) with one vector
	 * and no copies of its own waited for: its lanes' vector and epochs cannot change
	 * before the instance completes, so race_bar_done releases them then, with the other
	 * warps', in one pass over the CTA's epochs. The same clock results (a join, and each
	 * epoch above every clock of its thread in any vector). */
	if (lanes == 0xffffffffu && !R->seen_any && R->wvc_ok &&
	    (op == OP_BAR_SYNC || op == OP_BARRIER_SYNC || op == OP_BAR_RED ||
	     op == OP_BARRIER_RED) && !lanes_differ(R, w, thr(R, w, 0)->vc)) {
		rc->pend[id] |= 1u << w->id;
		return;
	}
	release_lanes(R, &rc->acc[id], w, lanes);
}

/* The deferred arrivals of the warps of pend (race_bar_arrive) released into *obj: each
 * distinct vector joined (the warps usually share one), every epoch copied and raised. */
static void release_warps(struct race *R, struct vc **obj, const struct cta *c, uint32_t pend)
{
	struct vc *a = vc_own(R, obj);
	struct vc *const *wv = &R->wvc[c->slot * R->nw];
	const struct vc *last = NULL;
	for (uint32_t m = pend; a && m; m &= m - 1) {
		const struct vc *v = wv[__builtin_ctz(m)];
		if (v != last)
			vc_join(R, a, v);
		last = v;
	}
	uint32_t *ch = a ? vc_chunk(R, a, c->linear) : NULL;
	if (!ch)
		return;
	uint32_t nt = R->nt, *k = &R->clk[c->slot * nt];
	if (pend == (R->nw == LANES ? 0xffffffffu : (1u << R->nw) - 1) && nt % LANES == 0) {
		memcpy(ch, k, nt * sizeof *ch); /* every warp of the CTA: one pass */
		for (uint32_t o = 0; o < nt; o += LANES)
			for (uint32_t l = 0; l < LANES; l++)
				k[o + l]++;
	} else {
		for (uint32_t m = pend; m; m &= m - 1) {
			uint32_t o = (uint32_t)__builtin_ctz(m) * LANES;
			memcpy(ch + o, k + o, LANES * sizeof *ch);
			for (uint32_t l = 0; l < LANES; l++)
				k[o + l]++;
		}
	}
	a->gen = ++R->gen;
}

void race_bar_done(struct launch *L, struct cta *c, uint32_t id)
{
	struct race *R = L->race;
	if (!R)
		return;
	struct rcta *rc = &R->cta[c->slot];
	if (rc->pend[id])
		release_warps(R, &rc->acc[id], c, rc->pend[id]);
	rc->pend[id] = 0;
	vc_put(rc->done[id]);
	rc->done[id] = rc->acc[id];
	rc->acc[id] = NULL;
}

void race_bar_acquire(struct launch *L, struct warp *w, uint32_t lanes, uint32_t id)
{
	struct race *R = L->race;
	struct vc *d = R ? R->cta[w->cta->slot].done[id] : NULL;
	if (!d)
		return;
	/* every waiter released into this instance and has not moved since: d covers it */
	struct rthread *t0 = thr(R, w, 0);
	struct vc *old = NULL; /* the lanes' vector, counted out at once (usually one) */
	uint32_t n = 0, all = 0;
	if (lanes == 0xffffffffu && t0->vc != d) {
		/* a whole warp: usually one vector, given up at once by the lanes that share
		 * lane 0's; the others (if any) below */
		old = t0->vc;
		bool differ = lanes_differ(R, w, old); /* some lane's vector is not old */
		if (!differ) {
#pragma GCC unroll 8
			for (uint32_t l = 0; l < LANES; l++)
				t0[l].vc = d;
			n = LANES;
		}
		*wvc_of(R, w) = differ ? NULL : d;
		for (uint32_t l = 0; differ && l < LANES; l++)
			if (t0[l].vc == old) {
				t0[l].vc = d;
				n++;
			}
		d->refs += n;
		if ((old->refs -= n) == 0)
			vc_recycle(R, old);
		if (n == LANES)
			return;
		old = NULL;
		n = 0;
	}
	for (uint32_t m = lanes; m; m &= m - 1) {
		struct rthread *t = t0 + __builtin_ctz(m);
		struct vc *o = t->vc;
		if (o == d)
			continue;
		if (o != old) {
			if (old && (old->refs -= n) == 0)
				vc_recycle(R, old);
			old = o;
			n = 0;
		}
		n++;
		all++;
		t->vc = d;
	}
	if (all)
		*wvc_of(R, w) = NULL;
	d->refs += all;
	if (old && (old->refs -= n) == 0)
		vc_recycle(R, old);
}

void race_warp_sync(struct launch *L, struct warp *w, uint32_t lanes)
{
	struct race *R = L->race;
	if (!R)
		return;
	struct vc *acc = NULL;
	for (uint32_t m = lanes; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		release_into(R, &acc, thr(R, w, l), tid_of(R, w, l));
	}
	for (uint32_t m = lanes; acc && m; m &= m - 1)
		adopt(R, thr(R, w, (uint32_t)__builtin_ctz(m)), acc);
	vc_put(acc);
}

/* Where c's cluster barrier keeps its clocks: with its cluster's first CTA. */
static struct rcta *cbar_of(struct race *R, const struct cta *c)
{
	return &R->cta[c->slot - c->rank];
}

void race_cbar_arrive(struct launch *L, struct warp *w, uint32_t lanes, bool relaxed)
{
	struct race *R = L->race;
	if (!R)
		return;
	for (uint32_t m = lanes; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		struct rthread *t = thr(R, w, l);
		/* a relaxed arrive releases after fence.mbarrier_init or a release fence of
		 * cluster scope (a release pattern: how inits are published to the cluster) */
		bool fenced = t->init_fence || t->fence >= SC_CLUSTER;
		t->init_fence = false;
		if (!relaxed || fenced)
			release_into(R, &cbar_of(R, w->cta)->cacc, t, tid_of(R, w, l));
	}
}

void race_cbar_done(struct launch *L, struct cluster *cl)
{
	struct race *R = L->race;
	if (!R)
		return;
	struct rcta *b = cbar_of(R, &cl->ctas[0]);
	vc_put(b->cdone);
	b->cdone = b->cacc;
	b->cacc = NULL;
}

void race_cbar_acquire(struct launch *L, struct warp *w, uint32_t lanes)
{
	struct race *R = L->race;
	if (!R)
		return;
	for (uint32_t m = lanes; m; m &= m - 1)
		acquire_from(R, thr(R, w, (uint32_t)__builtin_ctz(m)), cbar_of(R, w->cta)->cdone);
}

/* The state of mb: by the first object made at its place in the running cluster, so that
 * init/inval cycles at one place reuse one entry (race_mbar_init clears it). */
static struct rmbar *rmbar(struct launch *L, const struct mbar *mb)
{
	struct race *R = L->race;
	if (mb->first_id <= R->mb_base)
		return NULL;
	uint32_t k = mb->first_id - R->mb_base - 1;
	if (k >= R->nmb) {
		uint32_t n = k + 16;
		uint64_t more = (uint64_t)(n - R->nmb) * sizeof *R->mb;
		if (!launch_charge(L, more, "the data-race detector's mbarrier table"))
			return NULL;
		struct rmbar *t = realloc(R->mb, n * sizeof *t);
		if (!t) {
			mem_release(L->mem, more);
			return NULL;
		}
		R->charged += more;
		memset(t + R->nmb, 0, (n - R->nmb) * sizeof *t);
		R->mb = t;
		R->nmb = n;
	}
	return &R->mb[k];
}

void race_mbar_arrive(struct launch *L, struct warp *w, uint32_t lanes, const struct mbar *mb)
{
	struct race *R = L->race;
	struct rmbar *b = R && w ? rmbar(L, mb) : NULL;
	if (!b || L->ci->sem == MOD_RELAXED)
		return;
	release_lanes(R, &b->acc, w, lanes);
}

void race_mbar_done(struct launch *L, const struct mbar *mb)
{
	struct race *R = L->race;
	struct rmbar *b = R ? rmbar(L, mb) : NULL;
	if (!b)
		return;
	vc_put(b->last);
	b->last = b->acc;
	b->acc = NULL;
}

void race_mbar_acquire(struct launch *L, struct warp *w, uint32_t lane, const struct mbar *mb,
		       bool phantom)
{
	struct race *R = L->race;
	struct rmbar *b = R ? rmbar(L, mb) : NULL;
	if (!b)
		return;
	struct rthread *t = thr(R, w, lane);
	if (phantom) {
		t->phantom = L->ci;
		if (R->glog && L->log)
			race_glog_phantom_event(L, R->glog, tid_of(R, w, lane));
		return;
	}
	if (L->ci->sem != MOD_RELAXED)
		acquire_from(R, t, b->last);
}

void race_mbar_init(struct launch *L, struct warp *w, uint32_t lane, const struct mbar *mb)
{
	struct race *R = L->race;
	struct rmbar *b = R ? rmbar(L, mb) : NULL;
	if (!b)
		return;
	vc_put(b->acc);
	vc_put(b->last);
	b->acc = b->last = NULL;
	b->init = (struct rec){L->ci, tid_of(R, w, lane), *clock_of(R, thr(R, w, lane)),
				      (uint32_t)L->steps, 0xf, 0};
}

uint32_t race_mbar_unordered(struct launch *L, struct warp *w, uint32_t lanes,
			     const struct mbar *mb, const struct dinsn **init)
{
	struct race *R = L->race;
	if (!R || !w)
		return 0;
	/* the lanes not yet known ordered after the init (clocks only grow: once after, always
	 * after), before the mbarrier's state is even looked up: a wait polled in a loop */
	struct rthread *t0 = thr(R, w, 0);
	uint32_t slot = mb->id % INIT_SEEN, todo = 0;
	for (uint32_t m = lanes; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		todo |= (uint32_t)(t0[l].init_seen[slot] != mb->id) << l;
	}
	struct rmbar *b = todo ? rmbar(L, mb) : NULL;
	uint32_t bad = 0;
	if (!b || !b->init.clock)
		return 0;
	for (uint32_t m = todo; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m), tid = tid_of(R, w, l);
		if (happens_before(R, t0 + l, tid, tid, &b->init))
			t0[l].init_seen[slot] = mb->id;
		else
			bad |= 1u << l;
	}
	*init = b->init.insn;
	return bad;
}

void race_fence(struct launch *L, struct warp *w, uint32_t lanes)
{
	struct race *R = L->race;
	const struct dinsn *di = L->ci;
	if (!R || (di->flags & DF_PROXY))
		return;
	if (di->flags & DF_MBARRIER_INIT) {
		for (uint32_t m = lanes; m; m &= m - 1)
			thr(R, w, (uint32_t)__builtin_ctz(m))->init_fence = true;
		return;
	}
	enum ir_mod sem = (enum ir_mod)di->sem;
	enum scope s = scope_of(di->scope, SC_GPU);
	for (uint32_t m = lanes; m; m &= m - 1) {
		struct rthread *t = thr(R, w, (uint32_t)__builtin_ctz(m));
		if (sem != MOD_ACQUIRE && t->fence < s)
			t->fence = (uint8_t)s;
		if (sem != MOD_RELEASE && t->pending) {
			acquire_from(R, t, t->pending);
			vc_put(t->pending);
			t->pending = NULL;
		}
	}
}

void race_copy_complete(struct launch *L, const struct race_copy *rc, const struct mbar *mb)
{
	struct race *R = L->race;
	struct rmbar *b = R && rc->vc ? rmbar(L, mb) : NULL;
	struct vc *a = b ? vc_own(R, &b->acc) : NULL;
	if (!a)
		return;
	vc_join(R, a, rc->vc);
	vc_raise(R, a, rc->tid, rc->tclock);
	vc_raise(R, a, rc->agent, rc->clock);
}

void race_copy_waited(struct launch *L, struct warp *w, uint32_t lane, enum race_agent kind,
		      uint32_t below)
{
	struct race *R = L->race;
	if (!R)
		return;
	struct rthread *t = thr(R, w, lane);
	uint32_t *seen = kind == RA_CP ? &t->seen_cp : &t->seen_bulk;
	if (*seen < below)
		*seen = below;
	R->seen_any |= below != 0;
}

void race_agent_acquire(struct launch *L, struct warp *w, uint32_t lanes, uint32_t agent,
			uint32_t clock)
{
	struct race *R = L->race;
	if (!R || !clock)
		return;
	struct vc *from = NULL, *to = NULL; /* lanes that share a vector share the result */
	for (uint32_t m = lanes; m; m &= m - 1) {
		struct rthread *t = thr(R, w, (uint32_t)__builtin_ctz(m));
		if (vc_get(R, t->vc, agent) >= clock)
			continue;
		if (from && t->vc == from) {
			adopt(R, t, to);
			continue;
		}
		from = t->vc;
		wvc_forget(R, t);
		struct vc *v = vc_own(R, &t->vc);
		if (!v)
			return;
		vc_raise(R, v, agent, clock);
		to = v;
	}
}

/* ---- lifetime ------------------------------------------------------------------------ */

bool race_begin(struct launch *L)
{
	struct race *R = calloc(1, sizeof *R);
	if (!R)
		return false;
	R->nt = L->cfg.block[0] * L->cfg.block[1] * L->cfg.block[2];
	while ((1u << R->shift) < R->nt)
		R->shift++;
	const uint32_t *g = L->cfg.grid;
	uint64_t nctas = (uint64_t)g[0] * g[1] * g[2];
	R->nctas = (uint32_t)nctas;
	/* agents take three more CTA numbers per CTA; past 32-bit ids copies go unrecorded */
	R->agents = (nctas * (RA__COUNT + 1) << R->shift) <= UINT32_MAX;
	R->zero = vc_new(R);
	if (!R->zero) {
		free(R);
		return false;
	}
	L->race = R;
	return true;
}

static bool shard_cluster_begin(struct launch *L);
static void shard_cluster_end(struct launch *L);

bool race_cluster_begin(struct launch *L, struct cluster *cl)
{
	struct race *R = L->race;
	if (!R)
		return true;
	R->cl = cl;
	R->mb_base = L->mbars.ids;
	if (R->shard && !shard_cluster_begin(L))
		return false;
	R->th = calloc((size_t)cl->nctas * R->nt, sizeof *R->th);
	R->clk = malloc((size_t)cl->nctas * R->nt * sizeof *R->clk);
	R->cta = calloc(cl->nctas, sizeof *R->cta);
	R->nw = (R->nt + LANES - 1) / LANES;
	R->wvc_ok = R->nt % LANES == 0;
	R->wvc = calloc((size_t)cl->nctas * R->nw, sizeof *R->wvc);
	if (!R->th || !R->clk || !R->cta || !R->wvc)
		return false;
	for (size_t i = 0; i < (size_t)cl->nctas * R->nt; i++) {
		R->th[i].vc = vc_ref(R->zero);
		R->th[i].warp = (uint32_t)(i / R->nt * R->nw + i % R->nt / LANES);
		R->clk[i] = 1;
	}
	return true;
}

void race_cluster_end(struct launch *L, struct cluster *cl)
{
	struct race *R = L->race;
	if (!R)
		return;
	for (size_t i = 0; R->th && i < (size_t)cl->nctas * R->nt; i++) {
		vc_put(R->th[i].vc);
		vc_put(R->th[i].pending);
	}
	for (uint32_t r = 0; R->cta && r < cl->nctas; r++) {
		for (int i = 0; i < 16; i++) {
			vc_put(R->cta[r].acc[i]);
			vc_put(R->cta[r].done[i]);
		}
		vc_put(R->cta[r].cacc);
		vc_put(R->cta[r].cdone);
		shadow_free(L, &R->cta[r].smem);
	}
	for (uint32_t i = 0; i < R->nmb; i++) {
		vc_put(R->mb[i].acc);
		vc_put(R->mb[i].last);
	}
	if (R->mb)
		memset(R->mb, 0, R->nmb * sizeof *R->mb);
	free(R->th);
	free(R->clk);
	free(R->cta);
	free(R->wvc);
	R->wvc = NULL;
	R->th = NULL;
	R->clk = NULL;
	R->cta = NULL;
	R->cl = NULL;
	if (R->shard)
		shard_cluster_end(L);
}

void race_end(struct launch *L)
{
	struct race *R = L->race;
	if (!R)
		return;
	for (uint32_t i = 0; i < R->nglob; i++)
		shadow_free(L, &R->glob[i]);
	free(R->glob);
	for (uint32_t i = 0; i < R->loccap; i++) {
		vc_put(R->locs[i].wide);
		vc_put(R->locs[i].cta);
	}
	free(R->locs);
	free(R->mb);
	mem_release(L->mem, R->charged);
	vc_put(R->memo.result);
	vc_put(R->zero);
	if (R->spare)
		vc_free(R->spare);
	free(R->spare_c);
	race_jobs_free(R->jobs);
	free(R);
	L->race = NULL;
}

/* ---- --jobs: a worker's global accesses, judged in cluster order (race_global.c) ----- */

/* Markers (race_priv.h) are threads of CTA numbers above the agents'. */
static bool marker_tid(const struct race *R, uint32_t idx, uint32_t *tid)
{
	uint64_t cta = (uint64_t)R->mbase + idx / R->nt;
	if ((cta + 1) << R->shift > (uint64_t)UINT32_MAX + 1)
		return false;
	*tid = (uint32_t)(cta << R->shift) | idx % R->nt;
	return true;
}

static void marker_into(struct launch *L, uint64_t key, struct vc **into)
{
	struct race *R = L->race;
	uint32_t idx, tid;
	if (!R->glog)
		return;
	if (!race_glog_marker(R->glog, key, &idx) || !marker_tid(R, idx, &tid)) {
		runtime_error(L, 2, "the data-race detector has no room for the global locations "
			      "this cluster synchronises through (--jobs; --jobs 1 has)");
		return;
	}
	vc_raise(R, vc_own(R, into), tid, 1);
}

static bool head_check(struct launch *L, const struct race_gacc *e,
		       const struct dinsn *phantom);

/* A worker's global access: logged for the replay, or judged at once when the cluster is
 * the oldest not shown (false: it raced). */
static bool defer(struct launch *L, const struct rthread *t, uint32_t tid, uint32_t owner,
		  const struct warp *w, uint32_t lane, const struct access *a, uint32_t size,
		  enum race_kind kind, uint8_t flags, const void *newv, bool copy, bool skip,
		  uint32_t clock, uint32_t issued, const struct dinsn *phantom)
{
	struct race *R = L->race;
	if (!L->log || !R->glog) /* a loop watched past the step limit (sched.c): unreported */
		return true;
	const struct cta *c = w->cta;
	struct race_gacc e = {.insn = L->ci, .vc = t->vc, .region = a->region, .addr = a->addr,
			      .tid = tid, .owner = owner, .clock = clock,
			      .step = (uint32_t)L->steps, .issued = issued,
			      .seen_cp = t->seen_cp, .seen_bulk = t->seen_bulk, .cta = c->linear,
			      .ctaid = {c->ctaid[0], c->ctaid[1], c->ctaid[2]}, .rank = c->rank,
			      .warp = w->id, .lane = lane, .size = size, .what = GA_ACCESS,
			      .kind = (uint8_t)kind, .flags = flags, .copy = copy,
			      .skip_agents = skip};
	if (newv && size <= sizeof e.newv) {
		memcpy(e.newv, newv, size);
		memcpy(e.old, a->p, size);
		e.has_newv = true;
		e.plain = !(flags & (RF_RMW | RF_ASYNC));
	}
	if (!R->head && L->is_head && L->is_head(L)) {
		/* the oldest cluster not shown: judged at once from here on, so a race stops it
		 * where one thread stops, before it writes more (--dump after the report) */
		race_glog_wait_head(L, R->glog, L->ci->op == OP_ATOM);
		R->head = !L->stop;
		if (L->stop)
			return true;
	}
	if (R->head)
		return head_check(L, &e, phantom);
	if (!race_glog_add(L, R->glog, &e) && !L->stop)
		runtime_error(L, 2, "out of memory keeping the data-race detector's log (--jobs)");
	R->head = race_glog_head(R->glog);
	return true;
}

/* The access e of the oldest cluster not shown, judged on the launch's shadow as one thread
 * judges it, with its reports in the worker's log where they belong. */
static bool head_check(struct launch *L, const struct race_gacc *e,
		       const struct dinsn *phantom)
{
	struct race *R = L->race, *M = R->whole;
	struct race_glog *G = R->glog;
	L->race = M; /* (nothing else touches it until this cluster is shown) */
	M->cl = R->cl;
	M->th = R->th;
	M->clk = R->clk;
	M->wvc = R->wvc;
	M->nw = R->nw;
	M->wvc_ok = R->wvc_ok;
	struct vc *v = race_glog_resolved(L, G, e->vc);
	uint8_t old[sizeof e->old];
	if (e->has_newv)
		race_glog_old(L, e, old);
	bool ok = !v || race_replay_access(L, NULL, e, v, old, race_glog_step(G, e->step),
					   race_glog_step(G, e->issued), phantom);
	if (!L->stop)
		race_glog_stored(L, e);
	M->cl = NULL;
	M->th = NULL;
	M->clk = NULL;
	M->wvc = NULL;
	L->race = R;
	return ok;
}

static bool shard_report_begin(struct launch *L, struct race *R, const void *a, const void *b)
{
	if (!R->shard || !L->log)
		return true;
	if (R->head) /* every cluster before was shown: the launch's pairs say now */
		return first_pair(R->whole, a, b);
	gather_log_group_begin(L->log, race_pair_keep, a, b); /* they say at the replay */
	return true;
}

static void shard_report_end(struct launch *L, struct race *R)
{
	if (R->shard && L->log && !R->head)
		gather_log_group_end(L->log);
}

static void defer_access(struct launch *L, struct warp *w, uint32_t lane,
			 const struct access *a, uint32_t size, enum race_kind kind,
			 const void *newv)
{
	struct race *R = L->race;
	struct rthread *t = thr(R, w, lane);
	uint32_t tid = tid_of(R, w, lane);
	uint8_t flags = access_flags(L->ci);
	/* A strong read sees what other clusters wrote: it waits until every cluster before
	 * has run, so that it reads what one thread's would (a red returns nothing) */
	if ((flags & RF_STRONG) && kind != RACE_WRITE && L->ci->op != OP_RED && R->glog &&
	    !R->head) {
		race_glog_wait_head(L, R->glog, L->ci->op == OP_ATOM);
		R->head = !L->stop;
	}
	if (L->stop)
		return;
	if (defer(L, t, tid, tid, w, lane, a, size, kind, flags, newv, false, a->async_raced,
		  *clock_of(R, t), 0, t->phantom) && (flags & RF_STRONG))
		sync_through(L, t, tid, a, kind, flags);
}

static void defer_copy(struct launch *L, const struct race_copy *rc, const struct access *a,
		       uint32_t size, enum race_kind kind, uint8_t flags)
{
	struct rthread t = {.vc = rc->vc, .seen_cp = rc->seen_cp, .seen_bulk = rc->seen_bulk};
	defer(L, &t, rc->agent, rc->tid, L->cw, (uint32_t)__builtin_ctz(L->cmask), a, size, kind,
	      flags, NULL, true, rc->raced, rc->clock, rc->issued, NULL);
}

static bool race_pair_keep(struct launch *L, const void *a, const void *b)
{
	return !L->race || first_pair(L->race, a, b);
}

/* A worker's cluster begins: a vector of its own for its threads to start from, its own
 * reported pairs (the launch's decide at the replay), and its log. */
static bool shard_cluster_begin(struct launch *L)
{
	struct race *R = L->race;
	vc_put(R->zero);
	R->zero = vc_new(R);
	R->npairs = 0;
	R->head = false;
	R->glog = race_glog_new(L);
	return R->zero && R->glog;
}

/* ... and ends: its releases to global locations go with its log, and nothing the worker
 * keeps refers to a vector of the log's, which another thread frees. */
static void shard_cluster_end(struct launch *L)
{
	struct race *R = L->race;
	for (uint32_t i = 0; i < R->loccap; i++) {
		struct loc *l = &R->locs[i];
		if (l->key && l->wide && !(l->key >> 63) && R->glog)
			race_glog_loc(R->glog, l->key, l->wide);
		vc_put(l->wide);
		vc_put(l->cta);
	}
	if (R->locs)
		memset(R->locs, 0, R->loccap * sizeof *R->locs);
	R->nlocs = 0;
	vc_put(R->memo.result);
	R->memo.result = NULL;
	vc_put(R->zero);
	R->zero = NULL;
	if (R->glog)
		race_glog_done(R->glog);
	R->glog = NULL;
}

/* The launch's thread ids leave room for markers above the agents'. */
static uint32_t markers_base(const struct launch *L, uint32_t *shift)
{
	uint32_t nt = L->cfg.block[0] * L->cfg.block[1] * L->cfg.block[2];
	*shift = 0;
	while ((1u << *shift) < nt)
		(*shift)++;
	const uint32_t *g = L->cfg.grid;
	uint64_t nctas = (uint64_t)g[0] * g[1] * g[2];
	uint64_t base = nctas * (RA__COUNT + 1);
	return (base + 64) << *shift <= UINT32_MAX ? (uint32_t)base : 0;
}

bool race_jobs_ok(const struct launch *L)
{
	uint32_t shift;
	return markers_base(L, &shift) != 0;
}

bool race_jobs_begin(struct launch *L)
{
	struct race *R = L->race;
	uint32_t shift;
	if (!R)
		return true;
	R->mbase = markers_base(L, &shift);
	R->jobs = race_jobs_new(L->mem);
	return R->jobs != NULL;
}

bool race_shard(struct launch *S, unsigned index, struct launch *L)
{
	struct race *R = S->race;
	uint32_t shift;
	if (!R)
		return true;
	R->shard = true;
	R->whole = L->race;
	R->mbase = markers_base(S, &shift);
	R->gen = (uint64_t)(index + 1) << 48; /* vectors' names unique across workers */
	vc_put(R->zero);
	R->zero = NULL;
	return true;
}

struct race_jobs *race_jobs_state(const struct launch *L)
{
	return L->race->jobs;
}

struct vc *race_vc_ref(struct vc *v)
{
	return v ? vc_ref(v) : NULL;
}

void race_vc_put(struct vc *v)
{
	vc_put(v);
}

struct vc *race_resolve(struct launch *L, struct vc *v, const uint64_t *keys, uint32_t nkeys)
{
	struct race *R = L->race;
	uint32_t m = (uint32_t)vc_find(v, R->mbase);
	if (m == v->n)
		return vc_ref(v);
	struct vc *r = vc_new(R);
	for (uint32_t i = 0; r && i < m; i++) {
		uint32_t *c = vc_chunk(R, r, v->ch[i].cta);
		if (!c) {
			vc_put(r);
			return NULL;
		}
		memcpy(c, v->ch[i].c, R->nt * sizeof *c);
	}
	for (uint32_t i = m; r && i < v->n; i++)
		for (uint32_t k = 0; k < R->nt; k++) {
			uint64_t idx = (uint64_t)(v->ch[i].cta - R->mbase) * R->nt + k;
			struct loc *l = v->ch[i].c[k] && idx < nkeys ? loc_find(R, keys[idx], false)
								     : NULL;
			if (l && l->wide)
				vc_join(R, r, l->wide);
		}
	return r;
}

void race_merge_loc(struct launch *L, uint64_t key, struct vc *v)
{
	struct race *R = L->race;
	struct loc *l = loc_find(R, key, true);
	if (l)
		vc_join(R, vc_own(R, &l->wide), v);
}

bool race_replay_access(struct launch *L, struct race_glog *G, const struct race_gacc *e,
			struct vc *v, const uint8_t *old, uint32_t step, uint32_t issued,
			const struct dinsn *phantom)
{
	struct race *R = L->race;
	struct cta c = {.linear = e->cta, .ctaid = {e->ctaid[0], e->ctaid[1], e->ctaid[2]},
			.rank = e->rank, .slot = e->rank};
	struct warp w = {.cta = &c, .id = e->warp};
	struct rthread t = {.vc = v, .seen_cp = e->seen_cp, .seen_bulk = e->seen_bulk,
			    .phantom = G ? race_glog_phantom(G, e->owner) : phantom};
	struct acc_ctx x = {.L = L, .R = R, .t = &t, .w = &w, .lane = e->lane, .tid = e->tid,
			    .owner = e->owner, .flags = e->flags, .copy = e->copy,
			    .skip_agents = e->skip_agents, .issued = issued};
	struct rec me = {e->insn, e->tid, e->clock, step, 0, e->flags};
	struct access a = {.p = (uint8_t *)old, .space = MS_GLOBAL,
			   .region = (struct region *)e->region, .addr = e->addr};
	struct warp *cw = L->cw;
	const struct dinsn *ci = L->ci;
	uint32_t cmask = L->cmask;
	L->cw = &w;
	L->ci = e->insn;
	L->cmask = 1u << e->lane;
	R->replay = G;
	bool ok;
	uint64_t off, bytes;
	struct shadow *s = e->copy && !e->has_newv ? shadow_of(L, &a, &off, &bytes) : NULL;
	if (s) { /* a copy's landing (race_copy_access) */
		struct hbq q;
		struct copy_memo memo;
		hbq_init(R, &t, e->tid, e->owner, &q);
		memo_init(&memo);
		ok = copy_cells(&x, &q, &memo, s, bytes, off, e->size, (enum race_kind)e->kind,
				&me, &a);
	} else {
		ok = check_range(&x, &a, e->size, (enum race_kind)e->kind, &me,
				 e->has_newv ? e->newv : NULL);
	}
	R->replay = NULL;
	L->cw = cw;
	L->ci = ci;
	L->cmask = cmask;
	return ok;
}
