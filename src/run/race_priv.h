/*
 * race_priv.h - the data-race detector's state, shared by its files: race.c (the access
 * check, reports, lifetime), race_vc.c (vector clocks), race_sync.c (what orders threads:
 * barriers, mbarriers, fences, release/acquire through locations), race_quick.c (a warp's
 * shared accesses at once), race_copy.c (asynchronous copies), race_glist.c (a global
 * cell's compact list of concurrent reads), race_shard.c and race_global.c (--jobs). The
 * inline functions here are the per-access hot path.
 *
 * --jobs: a worker's cluster does not judge its accesses of global memory: it logs them
 * (race_gacc), with the vector clocks they were made under, and the launch replays the log
 * in cluster order against the one shadow of global memory (race_global.c), so that the
 * reports are one thread's. A strong read of a global location acquires a *marker* of it:
 * the releases to it by the clusters before, which the replay knows and the worker does not.
 */
#ifndef PTXI_RACE_PRIV_H
#define PTXI_RACE_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "launch.h"
#include "memory.h"
#include "race.h"

struct race_gacc;
struct race_glog;
struct race_jobs;
struct strbuf;

#define GRAN 4u             /* bytes per shadow cell                                     */
#define PAGE_CELLS 256u     /* cells per shadow page (1 KiB of memory)                   */
#define MAX_READERS 64u     /* concurrent reads kept per cell beyond the first           */
#define FIRST_READERS 2u    /* room for them made at first (doubled up to MAX_READERS)   */
#define READER_CLASSES 6u   /* list sizes: FIRST_READERS << k entries up to MAX_READERS  */
#define MAX_PAIRS 64u       /* distinct racing instruction pairs reported (--keep-going) */
#define INIT_SEEN 8u        /* mbarriers per thread known initialised before it          */
#define LINE_CELLS 32u       /* cells per line of a shared-memory shadow's eras            */
#define NO_INDEX 255u       /* readers.from: from and hi not known                       */

/* A function compiled twice, for AVX2 hosts (x86-64-v3) and for the rest, the one picked once at
 * load time: the eight-clock vectors below become one AVX2 operation, or two SSE2 ones. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && \
	!defined(__SANITIZE_THREAD__)
#define RACE_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define RACE_CLONES
#endif

typedef uint32_t u32x8 __attribute__((vector_size(32)));
typedef uint64_t u64x4 __attribute__((vector_size(32)));

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
	uint8_t n, cap;         /* entries; room for them (at most MAX_READERS)              */
	uint8_t from;           /* every entry of the CTA of thread hi lies at index from or
				 * later, or at the slot its thread id picks in a full list
				 * (NO_INDEX: from and hi not known; only a global cell's list
				 * keeps them, for readers_find; a writer that moves entries
				 * forgets them)                                             */
	uint8_t late;           /* a shared cell's full list: bit h, its half h (entries 32h..
				 * 32h + 31) is entry 32h's record for its thread + i in entry
				 * 32h + i, only entry 32h written (race_quick.c's bulk_reads;
				 * struct rrow's bc names the cell)                          */
	uint32_t hi;            /* (n > 0) no entry's thread id is above it                  */
	uint64_t ok_gen;        /* a vector (gen) under which no entry happens before: a read
				 * with it adds itself without the scan (0: unknown)         */
	uint64_t tids[4];       /* bit (tid & 255) of each entry's thread (a superset)       */
	struct rec e[];
};

/* A global cell's further reads (what struct readers holds) while every one is a plain
 * read by a thread of one instruction at one epoch with one byte mask: the cell's `more`
 * with its low bit set (glist_of), each entry 8 bytes, not a rec's 24. Every CTA's threads
 * reading the same operand words (the naive matrix product: 256 readers a word, 64 kept) made
 * the lists most of the detector's memory. The entries are the list's, in its order, so what
 * a later write finds first is what it found; an access the list cannot hold as it is (an
 * entry of another instruction, epoch or mask, a strong read, a write, a copy) makes it a
 * struct readers first (race_widen). race_glist.c. */
struct gent {
	uint32_t tid, step;
};

struct glist {
	uint8_t n, cap;         /* entries; room for them (at most MAX_READERS)               */
	uint8_t mask;           /* every entry's bytes                                        */
	uint32_t clock;         /* every entry's epoch                                        */
	uint32_t hi;            /* (n > 0) no entry's thread id is above it                   */
	const struct dinsn *insn; /* every entry's instruction                                 */
	uint64_t ok_gen;        /* as struct readers' (0: unknown)                            */
	uint64_t tids[4];       /* as struct readers' (a superset)                            */
	struct gent e[];
};

struct cell {
	struct rec w, r;        /* the last write; one read since                            */
	struct rec r2;          /* the first of the further reads, while it is the only one
				 * (clock 0: none here; `more` then holds them all): most
				 * granules have two readers in a barrier interval, and a
				 * word's second reader needs no list (quick_word)           */
	struct readers *more;   /* further reads concurrent with r (a global cell's: perhaps
				 * a struct glist, its low bit set)                         */
};

/* c's list of further reads if it is a struct glist, else NULL. */
static inline struct glist *glist_of(const struct cell *c)
{
	uintptr_t p = (uintptr_t)c->more;
	return p & 1 ? (struct glist *)(p - 1) : NULL;
}

/* A page of global memory's shadow while each of its cells holds at most one record, a
 * plain access's (the cell's write, or its one read: the bit of `read`), in 24 bytes, not a
 * struct cell's 80: most global words are written once, or read once, by one thread in a
 * kernel, and the full pages' fresh memory was a tenth of a stencil's time. An access that
 * the compact record cannot hold or judge makes the page full (race_shadow_cell): the same
 * records in struct cells, judged there. */
struct cpage {
	struct rec e[PAGE_CELLS];   /* the cell's one record (clock 0: none)                  */
	uint32_t read[PAGE_CELLS / 32]; /* which of them are reads                           */
};

struct shadow {
	uint64_t npages;
	struct cell **pages;    /* (global memory's: a compact page's entry is its struct cpage
				 * with the low bit set, page_compact's)                      */
	uint64_t charged;       /* bytes charged against --max-memory (pages, readers)       */
};

/* ---- threads and sync objects -------------------------------------------------------- */

struct rthread {                /* (its epoch is apart: race.clk, the mbarriers it knows
				 * initialised: race.seen, and what few instructions use:
				 * race.cold; 32 bytes)                                    */
	struct vc *lvc;             /* its vector (a reference); NULL: its warp's, race.wvc's
				     * entry, which the warp holds for all 32 lanes (tvc)     */
	uint8_t fence;              /* scope of the last release fence (a release pattern)   */
	bool init_fence;            /* fence.mbarrier_init since its last cluster arrive     */
	uint32_t warp;              /* its warp's entry of race.wvc                          */
	const struct dinsn *phantom;/* a wait that passed for the phase before the first      */
	uint32_t seen_cp, seen_bulk;/* clocks of its own cp.async / bulk-group agents that its
				     * wait_groups acquired (released with its vector)        */
};

struct rcold {                  /* a thread's state that few instructions touch           */
	struct vc *pending;         /* releases seen by strong reads, for an acquire fence    */
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

/* A row record (race_quick.c): the cells `mask` of a line of a CTA's shared-memory shadow
 * hold, in place of what their struct cell says, the record a plain access of the whole word
 * by thread tb + i (cell i of the line) at epoch clock leaves (rec_word's), made by insn at
 * step: a warp's lanes on words in a row at one epoch, recorded once for the row. */
struct rowd {
	const struct dinsn *insn;
	uint32_t tb, clock, step, mask;
};

/* A line's row records: its cells' write, read and second read (r2gen: the vector that
 * read was made under, which word_read leaves in an empty list's ok_gen), and z: cells whose
 * reads (r, r2 and the list) a row's write dropped while the cell still holds them. A cell
 * whose bit none of them has is its struct cell alone. race_rows_flush writes them into
 * the cells, as the per-lane path would have (every path but the row path's own, first). */
struct rrow {
	struct rowd w, r, r2;
	uint64_t r2gen;
	uint32_t z;
	bool on;                    /* counted in rcta.nrows                                   */
	uint8_t bc;                 /* 1 + the cell of the line whose list of further reads may
				     * have halves written late (struct readers' late; 0: none) */
};
/* (late and bc sit in padding: what --max-memory is charged for lists and rows is as before) */
_Static_assert(sizeof(struct readers) == 48, "struct readers' size");
_Static_assert(sizeof(struct rrow) == 3 * sizeof(struct rowd) + 16, "struct rrow's size");

/* Eras of a CTA's shared memory count its full barriers (race_sync.c's release_warps,
 * where every thread's epoch goes into the one vector era_gen), and each line of LINE_CELLS
 * cells keeps the latest era in which a write, and a read, of the CTA's threads was
 * recorded there. Such a record from an era before `era` is ordered before era_gen: its
 * epoch was at most the one the barrier copied. So a warp holding that vector finds every
 * record of a line stamped before `era` ordered without reading it (race_quick.c) -- unless
 * an agent or another CTA's thread, which no barrier of the CTA orders, recorded there
 * (foreign). */
struct rcta {
	struct vc *acc[16], *done[16];
	uint32_t pend[16];          /* warps whose whole arrival at a barrier that they wait at
				     * is released when it completes (race_bar_arrive)         */
	struct shadow smem;
	uint32_t *lines;            /* by line of smem: its write era, then its read era       */
	uint32_t era;               /* full barriers of the CTA, from 1                        */
	bool foreign;               /* an agent or another CTA's thread recorded in smem        */
	uint16_t nrows;             /* lines with row records (rrow.on; race_rows: where they
				     * lie, after the eras in the one block)                    */
	uint64_t era_gen;           /* the vector (gen) that the last one left every thread    */
	struct vc *cacc, *cdone;    /* the cluster barrier, in its cluster's first CTA        */
};

/* Memory mapped a slab at a time and cut into zero pieces that are never given back singly
 * (race.c): the shadow's pages and lists, and the --jobs logs' chunks (race_global.c). */
struct race_slabs {
	void **slabs;
	uint32_t nslabs, slabcap;
	uint8_t *at;                /* the current slab's next byte                          */
	size_t left;
};

struct race {
	struct launch *L;           /* whose run it serves (a worker's while it judges at once
				     * on the launch's): the launch told when a vector passes
				     * --max-memory                                           */
	struct memory *mem;         /* what vectors are charged to: the launch's, one for all
				     * workers                                                */
	uint64_t credit;            /* bytes charged for vectors and not held (race_vc.c)     */
	uint32_t nt;                /* threads per CTA                                       */
	uint32_t nctas;             /* CTAs of the grid; agents' CTA numbers lie above       */
	bool agents;                /* their thread ids fit in 32 bits: copies are recorded  */
	uint64_t charged;           /* mbarrier, location and global shadow tables, the kept
				     * arrays (--max-memory)                                  */
	uint32_t shift;             /* thread ids: CTA << shift | thread (no divisions)       */
	bool seen_any;              /* some thread's wait_group acquired copies of its own    */
	uint64_t gen;
	struct vc *zero;
	struct cluster *cl;         /* the running cluster                                   */
	struct rthread *th;         /* its threads: slot * nt + thread                       */
	uint32_t *clk;              /* their epochs, in th's order: a warp's lie together, so
				     * that a barrier raises them in one vector loop          */
	struct rcold *cold;         /* in th's order                                          */
	uint32_t *seen;             /* by slot, then thread (th's order): ids of mbarriers whose
				     * init the thread was found after, each in slot id %
				     * INIT_SEEN (a ring's stages, all kept; a warp's side by side) */
	size_t nseen;               /* threads of the running cluster (seen's slots apart)    */
	struct vc **wvc;            /* by warp (slot * nw + id): the vector every lane of that
				     * warp holds, when known (NULL: not known), so that a whole
				     * warp's barrier or access does not compare 32 pointers;
				     * the only place it is kept while the lanes' lvc are NULL
				     * (a whole warp after a barrier: race_sync.c's bar_acquire
				     * then writes one pointer, not 32, and the lanes' 32
				     * references stay counted in the vector's refs)          */
	uint32_t nw;                /* warps per CTA                                         */
	bool wvc_ok;                /* whole warps (threads per CTA a multiple of 32): wvc is
				     * kept, a warp's entry lying at its threads' index / 32   */
	struct vc *spare;           /* a barrier's vector whose last holder let it go, kept for
				     * the next barrier (no calloc and free each), and its chunk */
	uint32_t *spare_c;
	struct race_keep {          /* a cluster's arrays and shared-memory shadow pages kept,
				     * cleared, for the next one (no calloc of fresh pages and no
				     * page faults per cluster); pages are charged against
				     * --max-memory only while a shadow holds them             */
		struct rthread *th;
		uint32_t *clk, *seen;
		struct rcold *cold;
		struct rcta *cta;
		struct vc **wvc;
		size_t th_cap, clk_cap, seen_cap, cold_cap, cta_cap, wvc_cap; /* (charged) */
		struct cell **pool;         /* cleared pages let go by clusters before   */
		uint32_t npool, poolcap;
		struct cpage **cpool;       /* cleared compact pages let go when made full */
		uint32_t ncpool, cpoolcap;
		struct readers *rfree[READER_CLASSES]; /* lists let go (grown, or their
					     * shadow freed), by size class, each linked
					     * through its first entry (race.c)          */
		struct glist *gfree[READER_CLASSES]; /* struct glists so (race_glist.c) */
		struct race_slabs slab;     /* where every shadow page is cut from          */
	} keep;
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
	bool marked;                /* a worker's: it raised a marker (race_marker_into) into
				     * some vector once: only then may its threads' hold one   */
	struct {                    /* a warpgroup's wgmma parts read together (race_wgreads.c) */
		uint64_t *mark;     /* by 16-byte piece of shared memory: gen << 32, WG_DONE
				     * when read, and a bit for each part that reads it       */
		uint32_t n, gen;    /* mark's entries; the current pass's number            */
		bool open;          /* race_copy_reads leaves out the pieces gen's pass read  */
		bool all;           /* (open) it read every piece                            */
	} wg;
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
	bool glob;              /* an access of global memory (add_read: readers_place)         */
	bool skip_agents;       /* async-copy-race named this access: not copies again         */
	uint32_t issued;        /* a copy's issue step                                         */
	struct rcta *rc;        /* race_shared_lanes': the warp's CTA                          */
};

/* ---- what the files give each other -------------------------------------------------- */

/* race.c */
/* p (had bytes) grown to want bytes, the growth charged against --max-memory and added to
 * *acct; NULL: out of memory or past the limit (reported), p left as it was. */
void *race_grow(struct launch *L, uint64_t *acct, void *p, size_t had, size_t want,
		const char *what);
/* The cell of granule g of s (`bytes` of memory), its page made, or made full from its
 * compact page; NULL: out of --max-memory (reported) or past the end. */
struct cell *race_shadow_cell(struct launch *L, struct shadow *s, uint64_t bytes, uint64_t g);
/* Page p of global shadow s (`bytes` of memory) compact, made so if neither kind is made;
 * NULL: it is full, or out of --max-memory (reported). */
struct cpage *race_cpage(struct launch *L, struct shadow *s, uint64_t bytes, uint64_t p);
/* rc's lines for its `bytes` of shared memory, made if missing (every line of the current era:
 * records before them were not stamped); false: out of --max-memory. */
bool race_lines(struct launch *L, struct rcta *rc, uint64_t bytes);
struct shadow *race_shadow_of(struct launch *L, const struct access *a, uint64_t *off,
			      uint64_t *bytes);
struct readers *race_readers_room(const struct acc_ctx *x, struct cell *c);
/* `size` bytes of the slabs s, zero; NULL: no memory. */
void *race_slab_cut(struct race_slabs *s, size_t size);
void race_slabs_free(struct race_slabs *s);
/* race_glist.c: the read me of thread x recorded in global cell c's struct glist, made if c
 * has no list, as race_add_read records it in a struct readers (true: recorded, or out of
 * --max-memory); false: not one the glist holds, c->more now a struct readers (or none). */
bool race_glist_read(const struct acc_ctx *x, struct cell *c, const struct rec *me);
/* c's struct glist made a struct readers with the same entries in the same order (its
 * charge moved); false: out of --max-memory (reported). */
bool race_widen(const struct acc_ctx *x, struct cell *c);
/* A struct glist let go into race.keep, for the next one of its size (race_glist.c). */
void race_glist_give(struct race_keep *k, struct glist *g);
/* Bytes of a struct glist with room for cap entries. */
static inline size_t glist_bytes(uint32_t cap)
{
	return sizeof(struct glist) + cap * sizeof(struct gent);
}
/* Record a read in the cell's antichain of concurrent reads (check_cell). */
void race_add_read(const struct acc_ctx *x, struct cell *c, const struct rec *me);
/* The cell's r2 moved to its list; false: out of --max-memory (the launch stops). */
bool race_spill(const struct acc_ctx *x, struct cell *c);
/* Check and record the access me of x over `size` bytes at a; false after a report. */
bool race_check_range(struct acc_ctx *x, const struct access *a, uint32_t size,
		      enum race_kind kind, struct rec *me, const void *newv);
void race_report(struct acc_ctx *x, const struct access *a, uint32_t size,
		 enum race_kind kind, const struct rec *p, bool pwrite, bool same);
void race_describe_tid(const struct launch *L, uint32_t tid, const struct dinsn *insn,
		       uint32_t self, struct strbuf *b);
void race_describe_place(struct launch *L, struct warp *w, const struct access *a,
			 uint32_t size, struct strbuf *b);
/* Whether the pair (a, b) is reported for the first time (at most MAX_PAIRS are). */
bool race_first_pair(struct race *R, const struct dinsn *a, const struct dinsn *b);

/* race_sync.c */
bool race_morally_strong(const struct launch *L, uint8_t fa, uint32_t a, uint8_t fb,
			 uint32_t b);
uint8_t race_access_flags(const struct dinsn *di);
struct loc *race_loc_find(struct race *R, uint64_t key, bool make);
/* A strong access by thread t: what it acquires from and releases to its location. */
void race_sync_through(struct launch *L, struct rthread *t, uint32_t tid,
		       const struct access *a, enum race_kind kind, uint8_t flags);

/* race_copy.c: a copy's access of s (the --jobs replay's), cell by cell. */
bool race_copy_land(struct acc_ctx *x, const struct rthread *t, struct shadow *s,
		    uint64_t bytes, uint64_t off, uint32_t size, enum race_kind kind,
		    struct rec *me, const struct access *a);

/* race_shard.c (--jobs) */
void race_marker_into(struct launch *L, uint64_t key, struct vc **into);
bool race_shard_report_begin(struct launch *L, struct race *R, const void *a, const void *b);
void race_shard_report_end(struct launch *L, struct race *R);
void race_defer_access(struct launch *L, struct warp *w, uint32_t lane,
		       const struct access *a, uint32_t size, enum race_kind kind,
		       const void *newv);
/* A warp's plain global access of the lanes of mask (race_global_lanes' addr, p, size and
 * v) logged in one entry, each lane as race_defer_access would log it, and each store made
 * after; the lanes that go on. */
uint32_t race_defer_lanes(struct launch *L, struct warp *w, uint32_t mask,
			  const struct region *r, const uint64_t *addr, uint8_t *const *p,
			  uint32_t size, const uint64_t *v);
void race_defer_copy(struct launch *L, const struct race_copy *rc, const struct access *a,
		     uint32_t size, enum race_kind kind, uint8_t flags);
/* A worker's warp access of the lanes of mask to be judged at once, as one thread judges it
 * (its cluster the oldest not shown, and no lane's vector holding a marker): the launch's
 * state swapped in for it until race_head_leave, which takes the worker's own (own) and
 * what this returns (the launch the state served); *step: the launch's step. NULL: the
 * lanes go to the log (or L->stop: the wait for the clusters before found a race). */
struct launch *race_head_enter(struct launch *L, struct warp *w, uint32_t mask,
			       uint32_t *step);
void race_head_leave(struct launch *L, struct race *own, struct launch *served);
bool race_shard_cluster_begin(struct launch *L);
void race_shard_cluster_end(struct launch *L);

/* ---- vector clocks (race_vc.c) ------------------------------------------------------ */

struct vc *vc_new(struct race *R);
/* v freed, its bytes given back (vectors are charged against --max-memory) to R's credit,
 * or with no R to m. */
void vc_free(struct race *R, struct memory *m, struct vc *v);
/* The chunk of `cta` in v (which the caller owns), made if missing; NULL: out of memory.
 * `whole`: the caller writes every clock of it (a new one is not zeroed first). */
uint32_t *vc_chunk_for(struct race *R, struct vc *v, uint32_t cta, bool whole);
static inline uint32_t *vc_chunk(struct race *R, struct vc *v, uint32_t cta)
{
	return vc_chunk_for(R, v, cta, false);
}
void vc_free_spares(struct race *R);
/* v, whose last reference went: kept as the spare (a barrier's vector), else freed. */
void vc_recycle(struct race *R, struct vc *v);
/* *p, made exclusively the caller's (copied if shared, made if NULL). */
struct vc *vc_own(struct race *R, struct vc **p);
void vc_join(struct race *R, struct vc *d, const struct vc *s);
/* A new vector (the caller's), a joined with s: vc_own's copy of a, then vc_join, in one
 * pass. */
struct vc *vc_joined(struct race *R, const struct vc *a, const struct vc *s);
void vc_raise(struct race *R, struct vc *v, uint32_t tid, uint32_t clock);
extern const uint32_t vc_no_clocks[1024]; /* a CTA's clocks in a vector without its chunk */

/* A chunk's clocks follow a header: how many vectors hold it, a name for its contents
 * (renewed whenever it may be written) and the name of a chunk it is known to cover (the
 * one it was copied from, or one a comparison found below it). Clocks only rise, so a
 * chunk keeps covering what it covered; the names spare a grid-wide join comparing the
 * same chunks again and again. */
struct chunk_head {
	uint32_t refs, n;           /* n: its clocks (what its bytes are, when freed)        */
	uint64_t id, cover;
};
#define HEAD_WORDS (sizeof(struct chunk_head) / sizeof(uint32_t))

static inline struct chunk_head *chunk_head_of(const uint32_t *c)
{
	return (struct chunk_head *)(uintptr_t)(c - HEAD_WORDS);
}

/* The chunk of v's one CTA `cta`, held by v alone; NULL: v is not that one chunk alone. */
static inline uint32_t *vc_chunk_alone(const struct vc *v, uint32_t cta)
{
	uint32_t *c = v->n == 1 && v->ch[0].cta == cta ? v->ch[0].c : NULL;
	return c && chunk_head_of(c)->refs == 1 ? c : NULL;
}

/* v's one chunk (vc_chunk_alone's), v renamed as a fresh vector holding a fresh chunk
 * (vc_fresh's gen, chunk_new's id, in their order), for the caller to write all of it: a
 * barrier's vector made again in place (race_sync.c), when the caller knows no one else
 * holds v. (Inline: the caller's common path calls nothing before it writes the clocks.) */
static inline uint32_t *vc_renew_chunk(struct race *R, struct vc *v)
{
	uint32_t *c = v->ch[0].c;
	v->gen = ++R->gen;
	v->joined = 0;
	*chunk_head_of(c) = (struct chunk_head){.refs = 1, .n = R->nt, .id = ++R->gen};
	return c;
}

static inline struct vc *vc_ref(struct vc *v)
{
	v->refs++;
	return v;
}

static inline void vc_put(struct race *R, struct vc *v)
{
	if (v && !--v->refs)
		vc_free(R, NULL, v);
}

static inline int vc_find(const struct vc *v, uint32_t cta)
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

/* v's clocks of CTA cta's threads (no_clocks when v has none). */
static inline const uint32_t *vc_clocks(const struct vc *v, uint32_t cta)
{
	if (v->n == 1)
		return v->ch[0].cta == cta ? v->ch[0].c : vc_no_clocks;
	int i = vc_find(v, cta);
	return (uint32_t)i < v->n && v->ch[i].cta == cta ? v->ch[i].c : vc_no_clocks;
}

/* ---- threads ------------------------------------------------------------------------- */

static inline uint32_t tid_of(const struct race *R, const struct warp *w, uint32_t lane)
{
	return w->cta->linear << R->shift | (w->id * LANES + lane);
}

static inline struct rthread *thr(struct race *R, const struct warp *w, uint32_t lane)
{
	return &R->th[w->cta->slot * R->nt + w->id * LANES + lane];
}

/* The epoch of thread t (one of R->th). */
static inline uint32_t *clock_of(const struct race *R, const struct rthread *t)
{
	return &R->clk[t - R->th];
}

/* The rarely used state of thread t (one of R->th). */
static inline struct rcold *cold_of(const struct race *R, const struct rthread *t)
{
	return &R->cold[t - R->th];
}

/* The cache of the vector shared by w's lanes (race.wvc). */
static inline struct vc **wvc_of(const struct race *R, const struct warp *w)
{
	return &R->wvc[w->cta->slot * R->nw + w->id];
}

/* Thread t's vector (one of R->th, or a copy's or replay's state, whose lvc is set). */
static inline struct vc *tvc(const struct race *R, const struct rthread *t)
{
	return t->lvc ? t->lvc : R->wvc[t->warp];
}

/* race_sync.c: the lanes of t's warp, whose vector the warp holds for them, given each
 * their own pointer to it (its references were counted per lane all along). */
void race_warp_hand_out(struct race *R, struct rthread *t);

/* Thread t's vector changes alone: its warp's lanes may no longer share one. */
static inline void wvc_forget(struct race *R, struct rthread *t)
{
	if (!t->lvc)
		race_warp_hand_out(R, t);
	else if (R->wvc)
		R->wvc[t->warp] = NULL;
}

/* race_bar_arrive's common case, inline where a whole warp arrives at a bar.sync of
 * barrier id that it waits at (the CTA sweep's hop, interp.c): no copy of a thread's own
 * waited for in the launch (seen_any), the warps' vectors tracked and w's known (race.wvc:
 * every lane's). Then its lanes' vector and epochs cannot change before the instance
 * completes, so the release is deferred to the completion (a bit of the CTA's pend mask):
 * true. false: nothing done, race_bar_arrive decides. */
static inline bool race_bar_defer(struct race *R, const struct warp *w, uint32_t id)
{
	if (R->seen_any || !R->wvc_ok || !*wvc_of(R, w))
		return false;
	R->cta[w->cta->slot].pend[id] |= 1u << w->id;
	return true;
}

/* Whether some lane of the whole warp w holds another vector than v (none: v is cached as
 * the one they share). */
static inline bool lanes_differ(struct race *R, const struct warp *w, const struct vc *v)
{
	struct vc **k = wvc_of(R, w);
	if (R->wvc_ok && *k == v)
		return false;
	const struct rthread *t0 = thr(R, w, 0);
	if (!t0->lvc) /* every lane holds *k */
		return true;
	uintptr_t differ = 0;
#pragma GCC unroll 8
	for (uint32_t l = 0; l < LANES; l++)
		differ |= (uintptr_t)t0[l].lvc ^ (uintptr_t)v;
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

/* Whether access p happens before the current one, made by thread `tid` (an agent's
 * checks pass the issuing thread as `owner` and its state at the issue as t). */
static inline bool happens_before(const struct race *R, const struct rthread *t, uint32_t tid,
				  uint32_t owner, const struct rec *p)
{
	if (p->tid == tid || p->tid == owner || vc_get(R, tvc(R, t), p->tid) >= p->clock)
		return true;
	if (!(p->flags & RF_ASYNC)) /* (the rest only for a copy of the owner's) */
		return false;
	if (p->tid == agent_of(R, owner, RA_CP))
		return t->seen_cp >= p->clock;
	return p->tid == agent_of(R, owner, RA_BULK) && t->seen_bulk >= p->clock;
}

/* race_wgreads.c: whether the open race_wg_reads pass read the piece at shared offset off. */
bool race_wg_read_done(const struct race *R, uint32_t off);

/* ---- the access check (race.c) ---------------------------------------------------- */

static inline __attribute__((always_inline)) bool conflicts(const struct acc_ctx *x, const struct rec *p, uint8_t mask)
{
	if (!p->clock || !(p->mask & mask) || p->tid == x->tid ||
	    happens_before(x->R, x->t, x->tid, x->owner, p) ||
	    race_morally_strong(x->L, p->flags, p->tid, x->flags, x->tid))
		return false;
	if (x->skip_agents && (p->flags & RF_ASYNC))
		return false;
	/* made while the copy was in flight: async-copy-race reported it then */
	return !(x->copy && (int32_t)(p->step - x->issued) > 0);
}

/* Whether a record of thread tid whose bytes rec now merges into me keeps them: only one
 * of the same epoch (no release by the thread between). An older one's bytes would take
 * me's epoch, which no other thread has yet: their access after a barrier that orders the
 * old one would be reported as a race (the CUDA sample histogram64: a thread's word store
 * of s_Hist's initialisation, then its byte store after __syncthreads, claimed the word's
 * other bytes, which other threads own). Those bytes go; the record is the thread's latest. */
static inline uint8_t rec_keep(const struct rec *old, const struct rec *me, uint32_t tid)
{
	return old->clock && old->tid == tid && old->clock == me->clock ? old->mask : 0;
}

/* Record r (a cell's write or its one read) becomes me; a record of the same thread and
 * epoch keeps its bytes too. */
static inline void take_rec(struct rec *r, const struct rec *me, uint32_t tid)
{
	uint8_t keep = rec_keep(r, me, tid);
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
		uint8_t keep = rec_keep(&m->e[i], me, tid);
		m->e[i] = *me;
		m->e[i].mask |= keep;
	} else {
		m->e[m->n < MAX_READERS ? m->n++ : tid % MAX_READERS] = *me;
		*word |= bit;
	}
}

/* The cell's r2 moved to its list m (with room, empty while r2 is in use), its first entry:
 * race_spill's move, the list's hi and from forgotten. */
static inline void readers_spill(struct cell *c, struct readers *m)
{
	m->e[0] = c->r2;
	m->n = 1;
	m->from = NO_INDEX;
	m->tids[c->r2.tid >> 6 & 3] |= 1ull << (c->r2.tid & 63);
	c->r2.clock = 0;
	c->r2.mask = 0;
}

/* A global cell's list's hi and from, computed from its entries (after a writer that moved
 * them forgot them). */
static inline void readers_reindex(const struct race *R, struct readers *m)
{
	uint32_t hi = 0, from = 0;
	for (uint32_t i = 0; i < m->n; i++)
		hi = m->e[i].tid > hi ? m->e[i].tid : hi;
	while (from < m->n && cta_of(R, m->e[from].tid) != cta_of(R, hi))
		from++;
	m->hi = hi;
	m->from = (uint8_t)from;
}

/* readers_find's answer by the scan readers_put makes. */
static inline uint32_t readers_scan(const struct readers *m, uint32_t from, uint32_t tid)
{
	uint32_t i = from;
	while (i < m->n && m->e[i].tid != tid)
		i++;
	return i;
}

#ifdef RACE_VERIFY_READERS
#include <stdio.h>
/* A debugging build's check of readers_find (meson -Dc_args=-DRACE_VERIFY_READERS) against
 * readers_put's search (library code does not end the process: the suites' exact stderr
 * fails). */
static inline uint32_t readers_verified(const struct readers *m, uint32_t tid, uint32_t i)
{
	uint32_t want = (m->tids[tid >> 6 & 3] >> (tid & 63) & 1) ? readers_scan(m, 0, tid) : m->n;
	if (i != want)
		fprintf(stderr, "race_priv.h: readers_find put thread %u's entry at %u, not %u\n",
			tid, i, want);
	return i;
}
#else
#define readers_verified(m, tid, i) (i)
#endif

/* Which entry of a global cell's list is thread tid's (m->n: none): readers_put's search,
 * which scans the list whenever an entry's thread shares tid's low 8 bits (every CTA's
 * thread of the same index does: a word read by many CTAs' threads, each of a matrix
 * product's operands, scanned its full list at each read), made short by hi and from: a
 * thread above every entry's has none (threads mostly read a word in the order of their
 * ids: CTA after CTA, warp after warp), and one of hi's CTA has its entry at `from` or
 * later (appended since that CTA's first), or in its slot of a full list. */
static inline uint32_t readers_find(const struct race *R, struct readers *m, uint32_t tid)
{
	if (!(m->tids[tid >> 6 & 3] >> (tid & 63) & 1))
		return m->n;
	if (m->from == NO_INDEX)
		readers_reindex(R, m);
	uint32_t s = tid % MAX_READERS;
	if (tid > m->hi)
		return readers_verified(m, tid, m->n);
	if (cta_of(R, tid) != cta_of(R, m->hi))
		return readers_scan(m, 0, tid);
	if (s < m->from && s < m->n && m->e[s].tid == tid)
		return readers_verified(m, tid, s);
	return readers_verified(m, tid, readers_scan(m, m->from, tid));
}

/* Append me, of thread tid which has no entry, to a list (or, with the list full, put it in
 * the slot its thread id picks), keeping hi and from. */
static inline void readers_add(const struct race *R, struct readers *m, const struct rec *me,
			       uint32_t tid)
{
	bool append = m->n < MAX_READERS;
	uint32_t at = append ? m->n++ : tid % MAX_READERS;
	m->e[at] = *me;
	m->tids[tid >> 6 & 3] |= 1ull << (tid & 63);
	if (m->from == NO_INDEX || (m->n > 1 && tid <= m->hi))
		return;
	if (m->n == 1 || cta_of(R, tid) != cta_of(R, m->hi)) /* its CTA's first entry */
		m->from = (uint8_t)(append ? at : MAX_READERS);
	m->hi = tid;
}

/* readers_put for a global cell's list, by readers_find and readers_add. */
static inline void readers_place(const struct race *R, struct readers *m, const struct rec *me,
				 uint32_t tid)
{
	uint32_t i = readers_find(R, m, tid);
	if (i == m->n) {
		readers_add(R, m, me, tid);
		return;
	}
	uint8_t keep = rec_keep(&m->e[i], me, tid);
	m->e[i] = *me;
	m->e[i].mask |= keep;
}

static inline void clear_reads(struct cell *c, uint8_t mask)
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
	m->from = NO_INDEX;
	memset(m->tids, 0, sizeof m->tids); /* the kept entries' threads */
	for (uint32_t i = 0; i < k; i++)
		m->tids[m->e[i].tid >> 6 & 3] |= 1ull << (m->e[i].tid & 63);
}

/* Granules g0..g1 of rc's shared memory recorded by its threads (read: reads, else
 * writes): their lines' eras raised to the CTA's. */
static inline void lines_stamp(const struct rcta *rc, uint64_t g0, uint64_t g1, bool read)
{
	for (uint64_t i = g0 / LINE_CELLS; i <= g1 / LINE_CELLS; i++)
		rc->lines[2 * i + read] = rc->era;
}

/* Lines of shared memory of `bytes` (of rcta.lines, by two; of its row records). */
static inline uint64_t race_nlines(uint64_t bytes)
{
	uint64_t n = (bytes + GRAN * LINE_CELLS - 1) / (GRAN * LINE_CELLS);
	return n ? n : 1;
}

/* rc's row records, by line (its shared memory `bytes` long; rc->lines made). */
static inline struct rrow *race_rows(const struct rcta *rc, uint64_t bytes)
{
	return (struct rrow *)(rc->lines + 2 * race_nlines(bytes));
}

/* race_quick.c: the row records of granules g0..g1 of rc's shared memory (`bytes` long)
 * written into their cells. */
void race_rows_flush(struct rcta *rc, uint64_t bytes, uint64_t g0, uint64_t g1);

/* Granules g0..g1 of rc's shared memory (`bytes` long) about to be read or written by another
 * path than the row path: their row records written into their cells first. */
static inline void rows_settle(struct rcta *rc, uint64_t bytes, uint64_t g0, uint64_t g1)
{
	if (rc->nrows)
		race_rows_flush(rc, bytes, g0, g1);
}

/* Page p of s if it is compact (struct cpage), else NULL. */
static inline struct cpage *page_compact(const struct shadow *s, uint64_t p)
{
	uintptr_t e = s->pages && p < s->npages ? (uintptr_t)s->pages[p] : 0;
	return e & 1 ? (struct cpage *)(e - 1) : NULL;
}

/* The cell of granule g of s if its page is made full, else NULL. */
static inline struct cell *cell_made(const struct shadow *s, uint64_t g)
{
	uint64_t p = g / PAGE_CELLS;
	struct cell *pg = s->pages && p < s->npages ? s->pages[p] : NULL;
	return pg && !((uintptr_t)pg & 1) ? &pg[g % PAGE_CELLS] : NULL;
}

/* The cell of granule g of s: the page looked up inline, made by shadow_cell if missing. */
static inline struct cell *cell_at(struct launch *L, struct shadow *s, uint64_t bytes,
				   uint64_t g)
{
	struct cell *c = cell_made(s, g);
	return c ? c : race_shadow_cell(L, s, bytes, g);
}

/* Check one granule; false after a report. */
static inline __attribute__((always_inline)) bool check_cell(const struct acc_ctx *x, struct cell *c, const struct rec *me,
		       enum race_kind kind, const void *newv, const uint8_t *old, uint32_t n,
		       const struct rec **hit)
{
	if (c->r2.clock && !race_spill(x, c))
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
		race_add_read(x, c, me);
		return true;
	}
	if (conflicts(x, &c->r, me->mask)) {
		*hit = &c->r;
		return false;
	}
	if (glist_of(c) && !race_widen(x, c))
		return true; /* (out of --max-memory: the launch stops) */
	for (uint32_t i = 0; c->more && i < c->more->n; i++)
		if (conflicts(x, &c->more->e[i], me->mask)) {
			*hit = &c->more->e[i];
			return false;
		}
	take_rec(&c->w, me, x->tid);
	clear_reads(c, me->mask);
	return true;
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
static inline bool same_store(enum race_kind kind, const struct rec *me, const struct rec *hit,
		       const struct rec *cell_w, const uint8_t *nv, const uint8_t *mem, uint64_t n)
{
	return kind == RACE_WRITE && nv && hit == cell_w &&
	       !((hit->flags | me->flags) & (RF_ASYNC | RF_RMW)) && memcmp(nv, mem, n) == 0;
}

/* check_range's one step for an access of global memory, not a copy's, whose `size` bytes
 * lie in one granule (at offset off of the region; c: its cell, x->s: the region's shadow;
 * a->p: the bytes the memory holds); false after a report. */
static inline __attribute__((always_inline)) bool
check_granule(const struct acc_ctx *x, struct cell *c, const struct access *a, uint64_t off,
	      uint32_t size, enum race_kind kind, struct rec *me, const uint8_t *nv)
{
	const struct rec *hit = NULL;
	me->mask = (uint8_t)(((1u << size) - 1) << (off % GRAN));
	if (check_cell(x, c, me, kind, nv, a->p, size, &hit))
		return true;
	race_report((struct acc_ctx *)x, a, size, kind, hit, hit == &c->w,
		    same_store(kind, me, hit, &c->w, nv, a->p, size));
	return false;
}

/* Which entry of glist g is thread tid's (g->n: none), as readers_find answers for a struct
 * readers: entries are unique per thread, so the first found is the one. */
static inline uint32_t glist_find(const struct glist *g, uint32_t tid)
{
	if (!(g->tids[tid >> 6 & 3] >> (tid & 63) & 1) || tid > g->hi)
		return g->n;
	uint32_t i = 0;
	while (i < g->n && g->e[i].tid != tid)
		i++;
	return i;
}

/* readers_add for glist g: thread tid, which has no entry, appended, or in the slot its
 * thread id picks in a full list. */
static inline void glist_add(struct glist *g, uint32_t tid, uint32_t step)
{
	uint32_t at = g->n < MAX_READERS ? g->n++ : tid % MAX_READERS;
	g->e[at] = (struct gent){tid, step};
	g->tids[tid >> 6 & 3] |= 1ull << (tid & 63);
	g->hi = g->n == 1 || tid > g->hi ? tid : g->hi;
}

/* readers_place for glist g: thread tid's entry takes the read (its bytes and epoch are the
 * list's, as rec_keep keeps them: only the step changes), else the read is added. */
static inline void glist_place(struct glist *g, uint32_t tid, uint32_t step)
{
	uint32_t i = glist_find(g, tid);
	if (i < g->n)
		g->e[i].step = step;
	else
		glist_add(g, tid, step);
}

/* check_granule for a plain access by a thread (not a copy's, no strength) of one granule
 * of global memory at offset off (x->s: the region's shadow, `bytes` long) whose page is
 * not full: judged on the granule's compact record (struct cpage) when check_cell, on the
 * cell that record stands for, would make no report and leave at most one record, which
 * this leaves; false: not decided here, nothing changed (check_range then makes the page
 * full and judges the access there). */
static inline __attribute__((always_inline)) bool
compact_granule(const struct acc_ctx *x, uint64_t bytes, uint64_t off, uint32_t size,
		enum race_kind kind, struct rec *me)
{
	struct shadow *s = x->s;
	uint64_t g = off / GRAN, p = g / PAGE_CELLS;
	struct cpage *cp = page_compact(s, p);
	if (me->flags || x->flags || x->copy || off % GRAN + size > GRAN ||
	    (!cp && !(cp = race_cpage(x->L, s, bytes, p))))
		return false;
	uint32_t i = (uint32_t)(g % PAGE_CELLS), bit = 1u << (i % 32), *rd = &cp->read[i / 32];
	struct rec *e = &cp->e[i];
	me->mask = (uint8_t)(((1u << size) - 1) << (off % GRAN));
	if (!e->clock) { /* an empty cell: the access becomes its write, or its one read */
		*e = *me;
		*rd = kind == RACE_READ ? *rd | bit : *rd & ~bit;
		return true;
	}
	if (!(*rd & bit)) { /* a write: another write takes it (a read joins it: two records) */
		if (kind == RACE_READ || conflicts(x, e, me->mask))
			return false;
		take_rec(e, me, x->tid);
		return true;
	}
	if (kind == RACE_READ) { /* a read: add_read's first case, the one read taken */
		if (e->tid != x->tid &&
		    ((e->mask & ~me->mask) || !happens_before(x->R, x->t, x->tid, x->owner, e)))
			return false;
		take_rec(e, me, x->tid);
		return true;
	}
	/* a write after a read: the read, all of its bytes written, dropped (clear_reads) */
	if ((e->mask & ~me->mask) || conflicts(x, e, me->mask))
		return false;
	*e = *me;
	*rd &= ~bit;
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

/* n bytes copied, n of 1, 2, 4 or 8 (a lane's) at a fixed size: no call of memcpy. */
static inline void copy_small(void *d, const void *s, uint32_t n)
{
	switch (n) {
	case 1:
		memcpy(d, s, 1);
		break;
	case 2:
		memcpy(d, s, 2);
		break;
	case 4:
		memcpy(d, s, 4);
		break;
	case 8:
		memcpy(d, s, 8);
		break;
	default:
		memcpy(d, s, n);
	}
}

/* ---- --jobs (race_shard.c, race_global.c) ------------------------------------------- */


enum { GA_ACCESS, GA_PHANTOM, GA_LANES };

/* A warp's plain access logged at once (GA_LANES) keeps what can differ between its lanes
 * at `each`, arrays of one element a lane, in lane order: each lane's address; its vector
 * (a reference each), epoch and copies' clocks only where some lane's differs from the first
 * lane's (GL_* in the entry's `lay`; else the entry's vc, clock, seen_cp and seen_bulk hold
 * the one value, and vc one reference); a store's bytes and the memory's before it. A
 * warp's vector and epochs are mostly one (one barrier, one instruction), so a load's lane
 * takes 8 bytes, not 48: the log of a cluster that runs beside the oldest stays small
 * enough to replay from the caches. */
enum { GL_VC = 1, GL_CLOCK = 2, GL_SEEN = 4 };

struct race_glanes {
	uint64_t *addr;
	struct vc **vc;             /* NULL: the entry's for every lane                        */
	uint64_t *newv, *old;       /* a store's (low `size` bytes); NULL: a load              */
	uint32_t *clock;            /* NULL: the entry's                                       */
	uint32_t *seen;             /* seen_cp, seen_bulk of each lane; NULL: the entry's      */
};

/* One global access of a worker's cluster (or, GA_PHANTOM, a wait of thread tid that passed
 * for the phase before the first at insn; or, GA_LANES, a warp's plain access of the lanes
 * of `lanes`, the warp's part here (tid and owner: lane 0's) and each lane's in order at
 * `each`, each replayed as the GA_ACCESS it stands for). */
struct race_gacc {
	const struct dinsn *insn;
	struct vc *vc;              /* the thread's vector (a copy's: at the issue); a reference */
	const struct region *region;
	uint64_t addr;
	size_t at, out_at;          /* entries of the cluster's report log before it; printf bytes */
	uint32_t tid, owner, clock, step, issued, seen_cp, seen_bulk;
	uint32_t cta, ctaid[3], rank, warp, lane;
	uint32_t size, lanes;
	void *each;                 /* a GA_LANES entry's arrays (race_glanes_at)              */
	uint8_t what, kind, flags;  /* GA_*, enum race_kind, the record's flags                */
	uint8_t lay;                /* a GA_LANES entry's GL_* arrays                          */
	bool copy, skip_agents, has_newv, plain; /* plain: an ordinary store (not atomic, no copy) */
	uint8_t newv[32], old[32];  /* a store's bytes, and the memory's before it              */
};

/* race_global.c: a cluster's log (made by race_cluster_begin on a worker, owned by its
 * report log), the marker of a location, and the launch's replay state. */
struct race_glog *race_glog_new(struct launch *S);
/* e logged at the report log's place (a GA_LANES entry's lanes lie in the room
 * race_glog_lanes gave, filled; the log takes references to their vectors); false: out of
 * memory (reported). */
bool race_glog_add(struct launch *S, struct race_glog *G, const struct race_gacc *e);
/* Room for the arrays of a GA_LANES entry of n lanes laid out as lay says, a store's if
 * `store` (its `each`); NULL: out of memory (reported). */
void *race_glog_lanes(struct launch *S, struct race_glog *G, uint32_t n, uint8_t lay,
		      bool store);

/* The bytes a GA_LANES entry's arrays take: n lanes, its GL_* lay, a store's or a load's;
 * a multiple of 8, so that the next entry's 8-byte arrays stay aligned. */
static inline size_t race_glanes_bytes(uint32_t n, uint8_t lay, bool store)
{
	size_t b = n * (8 + (lay & GL_VC ? 8 : 0) + (store ? 16 : 0) + (lay & GL_CLOCK ? 4 : 0) +
			(lay & GL_SEEN ? 8 : 0));
	return (b + 7) & ~(size_t)7;
}

/* The arrays of the GA_LANES entry e (its `each`, laid out 8-byte arrays first). */
static inline struct race_glanes race_glanes_at(const struct race_gacc *e)
{
	uint32_t n = (uint32_t)__builtin_popcount(e->lanes);
	uint8_t *b = e->each;
	struct race_glanes g = {.addr = (uint64_t *)(void *)b};
	b += 8 * n;
	if (e->lay & GL_VC) {
		g.vc = (struct vc **)(void *)b;
		b += 8 * n;
	}
	if (e->kind == RACE_WRITE) {
		g.newv = (uint64_t *)(void *)b;
		g.old = g.newv + n;
		b += 16 * n;
	}
	if (e->lay & GL_CLOCK) {
		g.clock = (uint32_t *)(void *)b;
		b += 4 * n;
	}
	if (e->lay & GL_SEEN)
		g.seen = (uint32_t *)(void *)b;
	return g;
}
bool race_glog_marker(struct race_glog *G, uint64_t key, uint32_t *idx);
void race_glog_loc(struct race_glog *G, uint64_t key, struct vc *wide);
void race_glog_done(struct race_glog *G);
void race_jobs_free(struct race_jobs *J);
struct race_jobs *race_jobs_new(struct memory *mem);
/* Wait until every cluster before S's has been shown (`atomic`: exec_atom's lock is held,
 * and let go meanwhile). */
void race_glog_wait_head(struct launch *S, struct race_glog *G, bool atomic);
/* Whether every cluster before G's has been shown (it waited, or its log grew long). */
bool race_glog_head(const struct race_glog *G);
void race_glog_phantom_event(struct launch *S, struct race_glog *G, uint32_t tid);
const struct dinsn *race_glog_phantom(const struct race_glog *G, uint32_t tid);
/* Whether G holds a phantom wait of some thread (race_glog_phantom may find one). */
bool race_glog_phantoms(const struct race_glog *G);

/* A log's reference to a vector (NULL: none) taken, and let go (its bytes given back to m);
 * inline: a warp's entry takes one per lane. */
static inline struct vc *race_vc_ref(struct vc *v)
{
	return v ? vc_ref(v) : NULL;
}

static inline void race_vc_put(struct memory *m, struct vc *v)
{
	if (v && !--v->refs)
		vc_free(NULL, m, v);
}

/* race.c, for the replay (on the launch, in cluster order). */
struct vc *race_resolve(struct launch *L, struct vc *v, const uint64_t *keys, uint32_t nkeys);
void race_merge_loc(struct launch *L, uint64_t key, struct vc *v);
bool race_replay_access(struct launch *L, struct race_glog *G, const struct race_gacc *e,
			struct vc *v, const uint8_t *old, uint32_t step, uint32_t issued,
			const struct dinsn *phantom);
/* race_glanes.c: a GA_LANES entry e of G replayed at once, each lane as race_replay_access
 * would replay the GA_ACCESS it stands for, its store written to the image; false: not here
 * (a lane's vector holds a marker), nothing done. */
bool race_replay_lanes(struct launch *L, struct race_glog *G, const struct race_gacc *e);
/* race_global.c, for both: v resolved (kept until the next call; NULL: out of memory); the
 * bytes one thread finds at e (where the launch's image has them) and its store; a worker's
 * step as one thread counts it. */
struct vc *race_glog_resolved(struct launch *L, struct race_glog *G, struct vc *v);
void race_glog_old(struct launch *L, const struct race_gacc *e, uint8_t *old);
void race_glog_stored(struct launch *L, const struct race_gacc *e);
/* The `size` bytes at addr of r one thread would find: the image's where it has them, else
 * what the worker found (`found`); a store of `size` bytes there (new: NULL for a write
 * whose bytes the log lacks: not known). */
void race_img_read(struct launch *L, const struct region *r, uint64_t addr, uint32_t size,
		   const uint8_t *found, uint8_t *out);
void race_img_write(struct launch *L, const struct region *r, uint64_t addr, uint32_t size,
		    const uint8_t *new);
/* race_img_write of a warp's row: 32 words from addr (in one shadow page), lane l's the low
 * GRAN bytes of v[l]. */
void race_img_row(struct launch *L, const struct region *r, uint64_t addr, const uint64_t *v);
uint32_t race_glog_step(const struct race_glog *G, uint32_t step);
struct race_jobs *race_jobs_state(const struct launch *L);
/* The warp (and its CTA) that made the replayed access e, as e names them (one pair, kept
 * for the replays: no 1.6 KB made and zeroed per access; only the fields set here are read,
 * the rest stay zero). */
struct warp *race_jobs_scaffold(struct race_jobs *J, const struct race_gacc *e);

#endif
