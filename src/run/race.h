/*
 * race.h - happens-before data-race detection (rule data-race) under the PTX memory model.
 * Every thread (each lane is one) carries a vector clock; synchronising operations carry
 * clocks from releasers to acquirers; shared, distributed shared and global memory have
 * shadow state per 4-byte granule (byte masks inside) holding the last write and the reads
 * since, so the cost grows with the memory touched, not with pairs of threads.
 * Asynchronous copies are agents of their issuing threads (race_copy_*).
 * L->race is NULL when the detector is off (--no-race): every hook returns at once.
 */
#ifndef PTXI_RACE_H
#define PTXI_RACE_H

#include <stdbool.h>
#include <stdint.h>

#include "launch.h"

struct access;
struct mbar;

enum race_kind { RACE_READ, RACE_WRITE, RACE_RMW };

/* Launch and cluster lifetime (clusters run one after another). */
bool race_begin(struct launch *L);
void race_end(struct launch *L);
bool race_cluster_begin(struct launch *L, struct cluster *cl);
void race_cluster_end(struct launch *L, struct cluster *cl);

/* One lane's ordinary access (ld, st, atom, red) of the current instruction L->ci, already
 * resolved to `a`; `newv` is what a store writes (lanes of one instruction writing the same
 * value do not race), NULL otherwise. Called before the bytes change. */
void race_access(struct launch *L, struct warp *w, uint32_t lane, const struct access *a,
		 uint32_t size, enum race_kind kind, const void *newv);

/* Whether an access of memory-order qualifier sem (enum ir_mod) is strong (relaxed,
 * acquire, release, volatile, mmio): race_access_flags' cases. */
static inline bool race_sem_strong(uint8_t sem)
{
	switch ((enum ir_mod)sem) {
	case MOD_RELAXED:
	case MOD_ACQUIRE:
	case MOD_RELEASE:
	case MOD_VOLATILE:
	case MOD_MMIO:
		return true;
	default:
		return false;
	}
}

/* Whether di's accesses are plain (weak ld/st: no release or acquire to model; no flags of
 * race_access_flags). Inline: every warp's ld/st.shared of the row path asks it. */
static inline bool race_plain(const struct dinsn *di)
{
	return di->op != OP_ATOM && di->op != OP_RED && !race_sem_strong(di->sem);
}
/* A warp's plain 4-byte ld/st by all lanes or the low ones (mask) at offsets first + 4 * lane
 * of its CTA's shared memory (smem.c's row path), recorded as row records when every lane
 * can be (race_quick.c): true, and the caller moves the bytes; false: nothing done, the
 * per-lane way (race_shared_lanes) decides. A row that wraps around (a whole warp whose lanes
 * from `wrap` lie at second + 4 * (lane - wrap) instead) is two such rows; wrap: the lanes of
 * mask for one row. */
bool race_shared_row_ld(struct launch *L, struct warp *w, uint32_t mask, uint32_t first,
			uint32_t wrap, uint32_t second);
bool race_shared_row_st(struct launch *L, struct warp *w, uint32_t mask, uint32_t first,
			uint32_t wrap, uint32_t second);
/* The same for the low k lanes of a warp (mask: their bits, 0 < k < 32; a split by lane
 * index, a tree's partial levels): one row at first, wrap k, decided as those decide it. */
bool race_shared_low_ld(struct launch *L, struct warp *w, uint32_t mask, uint32_t k,
			uint32_t first);
bool race_shared_low_st(struct launch *L, struct warp *w, uint32_t mask, uint32_t k,
			uint32_t first);
/* Their fresh case alone (the CTA's last barrier orders every record the access meets, or
 * the one clock of a row record tells) for a plain access by a whole warp of 32 words in a
 * row at first, aligned and in bounds: first on a line start (RACE_LINE_BYTES), or off it
 * (a load's two line parts). True where it decided the access there, recorded as
 * race_shared_row_ld / _st records it (the caller moves the bytes); false: nothing done,
 * those decide it. Never a report. */
enum { RACE_LINE_BYTES = 128 }; /* (race_priv.h's GRAN * LINE_CELLS) */
bool race_row_fresh_line_ld(struct launch *L, struct warp *w, uint32_t first);
bool race_row_fresh_off_ld(struct launch *L, struct warp *w, uint32_t first);
bool race_row_fresh_line_st(struct launch *L, struct warp *w, uint32_t first);
/* The same for a load by a whole warp of a row that wraps around (0 < wrap < 32: lanes
 * below wrap from first, the others from second, both rows aligned and in bounds). */
bool race_row_fresh_wrap_ld(struct launch *L, struct warp *w, uint32_t first, uint32_t wrap,
			    uint32_t second);
static inline bool race_shared_row(struct launch *L, struct warp *w, uint32_t mask,
				   uint32_t first, uint32_t wrap, uint32_t second, bool write)
{
	return write ? race_shared_row_st(L, w, mask, first, wrap, second)
		     : race_shared_row_ld(L, w, mask, first, wrap, second);
}
/* A warp's plain ld/st of `size` <= 8 bytes at offsets off[l] of its CTA's shared memory,
 * every lane resolved and aligned (exec_mem.c's quick path): each lane of mask checked and
 * recorded in order as race_access would; a store (v: each lane's value, its low bytes
 * stored) also writes the lane's bytes after its check. Returns the lanes that go on: all
 * of mask, or those before the one whose report stopped the launch. */
uint32_t race_shared_lanes(struct launch *L, struct warp *w, uint32_t mask, const uint32_t *off,
			   uint32_t size, const uint64_t *v);
/* race_shared_lanes for a plain load of `size` bytes at offset o by every lane of mask (a
 * variable's address: one word for the warp), which needs no offsets' array. */
uint32_t race_shared_word(struct launch *L, struct warp *w, uint32_t mask, uint32_t o,
			  uint32_t size);
/* The same for a warp's plain ld/st.global of `size` <= 8 bytes, every lane resolved and
 * aligned in one allocation (exec_mem.c's global_lanes): lane l at address addr[l], host
 * bytes p[l]; race_glanes.c. */
uint32_t race_global_lanes(struct launch *L, struct warp *w, uint32_t mask, const uint64_t *addr,
			   uint8_t *const *p, uint32_t size, const uint64_t *v);

/* CTA barriers: arrivals of `lanes` on barrier `id` release (bar.arrive, bar.sync,
 * bar.red); when the instance completes (bar_release, before its waiters move on),
 * race_bar_complete takes its clock, and every lane of c's groups waiting at it acquires it. */
void race_bar_arrive(struct launch *L, struct warp *w, uint32_t lanes, uint32_t id);
void race_bar_complete(struct launch *L, struct cta *c, uint32_t id);
/* bar.warp.sync: the lanes of `lanes` synchronise with each other. */
void race_warp_sync(struct launch *L, struct warp *w, uint32_t lanes);
/* shfl/vote/match/redux .sync: the lanes of `lanes` met there. That orders no memory, but
 * their volatile accesses before and after it are not reported as relying on lock step
 * (rule warp-sync-missing). */
void race_lockstep_sync(struct launch *L, struct warp *w, uint32_t lanes);
/* barrier.cluster: an arrive (a .relaxed one releases only after a release fence or
 * fence.mbarrier_init), the phase completing, a wait that passed. */
void race_cbar_arrive(struct launch *L, struct warp *w, uint32_t lanes, bool relaxed);
void race_cbar_done(struct launch *L, struct cluster *cl);
void race_cbar_acquire(struct launch *L, struct warp *w, uint32_t lanes);
/* mbarrier: an arrive of `lanes` (release), the phase completing, and a wait that returned
 * True for `lane` (acquire). `phantom`: the wait passed for the phase before the first. */
void race_mbar_arrive(struct launch *L, struct warp *w, uint32_t lanes, const struct mbar *mb);
void race_mbar_done(struct launch *L, const struct mbar *mb);
void race_mbar_acquire(struct launch *L, struct warp *w, uint32_t lane, const struct mbar *mb,
		       bool phantom);
/* mbarrier.init by `lane`; and which of `lanes` use mb without its init ordered before them
 * (`*init`: the init instruction). */
void race_mbar_init(struct launch *L, struct warp *w, uint32_t lane, const struct mbar *mb);
uint32_t race_mbar_unordered(struct launch *L, struct warp *w, uint32_t lanes,
			     const struct mbar *mb, const struct dinsn **init);
/* fence / membar of `lanes` (the current instruction). */
void race_fence(struct launch *L, struct warp *w, uint32_t lanes);

/* Asynchronous copies (cp.async, bulk and tensor copies, st.async, red.async). Each is made
 * by an agent of its issuing thread, ordered after the issue in program order; its landing
 * writes the destination (and reads a source in shared memory) with the agent's clock. How it completes names the agent: RA_CP, a cp.async, waited for by its thread's
 * cp.async.wait_group/wait_all (its clock is its commit group + 1) or an arrive-on;
 * RA_BULK, a copy in a bulk group, waited for by cp.async.bulk.wait_group; RA_MBAR, a copy
 * whose complete-tx on an mbarrier is the only ordering (bulk and tensor loads, st.async). */
enum race_agent { RA_CP, RA_BULK, RA_MBAR, RA__COUNT };
struct vc;
struct race_copy {              /* kept by the copy from issue to landing                    */
	struct vc *vc;              /* what the issuing thread had acquired at the issue     */
	uint32_t tid, tclock;       /* the issuing thread and its epoch then                 */
	uint32_t seen_cp, seen_bulk;/* its own copies it had waited for                      */
	uint32_t agent, clock;      /* the agent's thread id and this copy's clock (0: off)   */
	uint32_t issued;            /* L->steps at the issue (low bits)                      */
	bool raced;                 /* async-copy-race reported at the issue: not again      */
};
/* The copy of (w, lane)'s current instruction is issued; race_copy_drop when it is gone. */
void race_copy_issue(struct launch *L, struct warp *w, uint32_t lane, enum race_agent kind,
		     struct race_copy *rc);
void race_copy_drop(struct launch *L, struct race_copy *rc);
/* The landing of a copy (L->cw, L->ci, L->cmask: its issuer) writes (RACE_RMW: reduces)
 * or reads the `size` bytes at a. Accesses made since its issue are not judged again:
 * each was judged against the copy in flight when it was made (async.c). */
void race_copy_access(struct launch *L, const struct race_copy *rc, const struct access *a,
		      uint32_t size, enum race_kind kind);
/* race_copy_access for n reads of `size` bytes at offsets off[i] of c's shared memory, in
 * order (a wgmma's operand pieces). */
void race_copy_reads(struct launch *L, const struct race_copy *rc, struct cta *c,
		     const uint32_t *off, uint32_t n, uint32_t size);
/* A warpgroup's wgmma parts that complete together, in the order they complete
 * (exec_wgmma.c's complete_group). race_wg_reads reads their pieces of c's shared memory
 * as race_copy_reads would one part after another, each cell once for all its parts, as far
 * as that reports nothing; until race_wg_reads_end, race_copy_reads then reads only the
 * pieces it left. */
struct race_wg_part {
	const struct race_copy *rc;
	struct warp *w;             /* the part's warp                                        */
	const struct dinsn *insn;   /* its wgmma.mma_async                                    */
	const uint32_t *off;        /* its 16-byte pieces' offsets in c's shared memory       */
	uint32_t n;
};
void race_wg_reads(struct launch *L, struct cta *c, const struct race_wg_part *p, uint32_t m);
void race_wg_reads_end(struct launch *L);
/* The copy's complete-tx or arrive-on on mb (release into its open phase); call it before
 * the mbarrier is updated. */
void race_copy_complete(struct launch *L, const struct race_copy *rc, const struct mbar *mb);
/* Whether (w, lane)'s current access is ordered after the issue of copy rc. An access to a
 * copy's bytes before its completion was observed is rule async-copy-race when it is (the
 * thread knew of the copy and skipped the wait), a data race when it is not (race_copy_
 * in_flight reports one in flight; a landed copy's records in the shadow, the others). */
bool race_after_issue(struct launch *L, struct warp *w, uint32_t lane,
		      const struct race_copy *rc);
/* Report the current access of `lane` of L->cw, `size` bytes at a, racing with copy rc of
 * instruction `copy` in flight: with its pending write (its read, `source`). */
void race_copy_in_flight(struct launch *L, uint32_t lane, const struct race_copy *rc,
			 const struct dinsn *copy, const struct access *a, uint32_t size,
			 bool write, bool source);
/* (w, lane) waited for its copies of groups below `below` (RA_CP or RA_BULK). */
void race_copy_waited(struct launch *L, struct warp *w, uint32_t lane, enum race_agent kind,
		      uint32_t below);

/* The lanes of w are ordered after the accesses of agent `agent` (race_copy.agent) up to
 * `clock` (race_copy.clock): a wgmma.wait_group after the warpgroup's one read of a
 * wgmma's shared operands (exec_wgmma.c). */
void race_agent_acquire(struct launch *L, struct warp *w, uint32_t lanes, uint32_t agent,
			uint32_t clock);

/* --jobs (race_global.c): whether the launch's thread ids leave room for the detector to
 * run its clusters on workers; the launch's replay state (after race_begin); a worker's
 * copy of the launch (the `index`th, after its own race_begin), whose clusters log their
 * global accesses for the replay. */
bool race_jobs_ok(const struct launch *L);
bool race_jobs_begin(struct launch *L);
bool race_shard(struct launch *S, unsigned index, struct launch *L);

#endif
