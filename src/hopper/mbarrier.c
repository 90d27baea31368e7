/*
 * mbarrier.c - the mbarrier state machine (ISA 9.7.13.15) and its rules.
 *
 * Notes
 * - A phase completes when pending arrivals and tx-count are both 0, whichever update gets
 *   it there: arrive-on, complete-tx, or expect-tx (the H100 completes on expect-tx too).
 * - The lanes of a warp that execute one arrive together on one barrier are one combined
 *   update: each lane's state token records the same prior pending count (H100 behaviour).
 * - State tokens are opaque 64-bit values: magic 0xB7 [63:56], phase low 16 bits [55:40],
 *   object id [39:21], .noComplete flag [20], pending count before the arrive [19:0].
 * - A wait answers as the H100 does, from the phase parity alone: True iff the parity its
 *   operand names differs from the barrier's current one. For a legal operand that is
 *   exactly "that phase completed"; a stale, foreign or forged state (whose top bit the
 *   H100 reads as its parity) and an invalidated barrier (which keeps its phase) answer the
 *   same way after their rule is reported.
 * - cp.async.mbarrier.arrive without .noinc holds the phase open from issue until its
 *   arrive-on lands, with no visible change to the pending count (H100: pending_count
 *   right after it is unchanged, yet the phase cannot complete before the copies land).
 * - try_wait parks the group; it answers True when the phase completes and False when the
 *   scheduler finds nothing else that can make progress (sched.c).
 */
#include "mbarrier.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/exec.h"
#include "landed.h"
#include "run/launch.h"
#include "run/initcheck.h"
#include "run/memory.h"
#include "run/operand.h"
#include "run/race.h"
#include "report/rules.h"
#include "report/srcloc.h"
#include "report/timeline.h"
#include "report/trace.h"

#define TOKEN_MAGIC 0xB7ull

#define TOKEN_IDS 0x7ffffu /* ids 1..2^19-1 in a token: object ids wrap around */

static uint32_t token_id(const struct mbar *mb)
{
	return (mb->id - 1) % TOKEN_IDS + 1;
}

static uint64_t token_make(const struct mbar *mb, int64_t pending_before, bool nocomplete)
{
	return TOKEN_MAGIC << 56 | (mb->phase & 0xffff) << 40 | (uint64_t)token_id(mb) << 21 |
	       (uint64_t)nocomplete << 20 | ((uint64_t)pending_before & 0xfffff);
}

struct token {
	bool ok;
	uint32_t id;
	uint32_t phase16;
	bool nocomplete;
	uint32_t pending;
};

static struct token token_read(uint64_t t)
{
	struct token k = {0};
	k.ok = (t >> 56) == TOKEN_MAGIC;
	k.phase16 = (uint32_t)(t >> 40) & 0xffff;
	k.id = (uint32_t)(t >> 21) & 0x7ffff;
	k.nocomplete = (t >> 20) & 1;
	k.pending = (uint32_t)t & 0xfffff;
	return k;
}

void mbar_describe(const struct mbar *mb, struct strbuf *b)
{
	sb_printf(b, "phase %llu, pending %lld of %lld arrivals, tx-count %lld",
		  (unsigned long long)mb->phase, (long long)mb->pending, (long long)mb->expected,
		  (long long)mb->tx);
	if (mb->cp_hold)
		sb_printf(b, ", %u cp.async arrive-on%s to land", mb->cp_hold,
			  mb->cp_hold == 1 ? "" : "s");
	if (!mb->valid)
		sb_printf(b, " (invalidated)");
}

/* "mbarrier 'bar' (CTA (0,0,0), shared 0x0): phase 0, pending ..." */
static void describe_where(struct launch *L, const struct mbar *mb, struct strbuf *b)
{
	uint32_t within = 0;
	const struct ir_sym *s = srcloc_shared_var(L->kernel, mb->off, &within);
	sb_printf(b, "mbarrier ");
	if (s) {
		srcloc_var(s, within, 8, b);
		sb_printf(b, " ");
	}
	struct cta *c = mb->cta;
	sb_printf(b, "(CTA (%u,%u,%u), shared 0x%x): ", c->ctaid[0], c->ctaid[1], c->ctaid[2],
		  mb->off);
	mbar_describe(mb, b);
}

static void mbar_rule(struct launch *L, enum rule_id r, uint32_t lanes, const struct mbar *mb,
		      const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void mbar_rule(struct launch *L, enum rule_id r, uint32_t lanes, const struct mbar *mb,
		      const char *fmt, ...)
{
	struct strbuf n = {0};
	if (mb)
		describe_where(L, mb, &n);
	va_list ap;
	va_start(ap, fmt);
	rule_breakv(L, r, lanes, n.s, fmt, ap);
	va_end(ap);
	sb_free(&n);
}

/* "'bar' (shared 0x0)", "'bar+8' (shared 0x8)", "shared 0x40"; other CTAs' barriers add
 * "of CTA rank r". */
static void name_barrier(struct launch *L, const struct mbar *mb, const struct warp *w,
			 struct strbuf *b)
{
	uint32_t within = 0;
	const struct ir_sym *s = srcloc_shared_var(L->kernel, mb->off, &within);
	if (s) {
		srcloc_var(s, within, 8, b);
		sb_printf(b, " ");
	}
	sb_printf(b, "(shared 0x%x", mb->off);
	if (!w || w->cta != mb->cta)
		sb_printf(b, " of CTA rank %u", mb->cta->rank);
	sb_printf(b, ")");
}

/* The timeline's mark of a barrier operation: labelled "CTA (x,y,z) 'bar' (shared 0x0)". */
static void timeline_mark(struct launch *L, struct warp *w, uint32_t lanes, enum tl_kind kind,
			  const struct mbar *mb, uint64_t phase_before, const char *text)
{
	struct strbuf label = {0};
	const struct cta *c = mb->cta;
	sb_printf(&label, "CTA (%u,%u,%u) ", c->ctaid[0], c->ctaid[1], c->ctaid[2]);
	name_barrier(L, mb, c->nwarps ? &c->warps[0] : NULL, &label);
	tl_mark(L, w, lanes, kind, mb, label.s, phase_before, mb->phase, text);
	sb_free(&label);
}

/*
 * One --trace mbarrier line per barrier operation, for a learner following the state
 * machine:
 *   "mbarrier.arrive 'bar' (shared 0x0) [32 arrivals]: phase 0, pending 32 of 32 arrivals,
 *    tx-count 0 -> phase 1, pending 32 of 32 arrivals, tx-count 0; phase 0 completed"
 * `detail` says what the operation contributes; `before` is NULL for init.
 */
static void trace_update(struct launch *L, struct warp *w, uint32_t lanes, enum tl_kind kind,
			 const char *what, const char *detail, const struct mbar *mb,
			 const struct mbar *before)
{
	if (!L->cfg.trace_mbar)
		return;
	struct strbuf b = {0};
	sb_printf(&b, "%s ", what);
	name_barrier(L, mb, w, &b);
	if (detail && *detail)
		sb_printf(&b, " [%s]", detail);
	sb_printf(&b, ": ");
	if (before) {
		mbar_describe(before, &b);
		sb_printf(&b, " -> ");
	} else {
		sb_printf(&b, "new barrier: ");
	}
	mbar_describe(mb, &b);
	for (uint64_t p = before ? before->phase : mb->phase; p < mb->phase; p++)
		sb_printf(&b, "; phase %llu completed", (unsigned long long)p);
	trace_line(L, w, lanes, b.s);
	if (L->timeline)
		timeline_mark(L, w, lanes, kind, mb, before ? before->phase : mb->phase, b.s);
	sb_free(&b);
}

uint64_t mbar_shadow_bytes(const struct cta *c)
{
	return (uint64_t)(c->smem_size + 7) / 8 * sizeof(struct mbar *);
}

struct mbar *mbar_lookup(struct cta *c, uint32_t off)
{
	if (!c->mbar_at || off / 8 >= (c->smem_size + 7) / 8)
		return NULL;
	return c->mbar_at[off / 8];
}

struct mbar *mbar_live_in(const struct cta *c, uint32_t off, uint32_t size)
{
	if (!c->mbar_at || !size)
		return NULL;
	for (uint32_t w = off / 8; w <= (off + size - 1) / 8; w++) {
		struct mbar *mb = c->mbar_at[w];
		if (mb && mb->valid)
			return mb;
	}
	return NULL;
}

/* Groups parked on mb may be able to go on: make them ready (the scheduler runs them). */
static void wake_waiters(struct mbar *mb)
{
	struct cluster *cl = mb->cta->cluster;
	for (uint32_t i = 0; i < cl->nctas; i++) {
		struct cta *c = &cl->ctas[i];
		for (uint32_t k = 0; k < c->nwarps; k++)
			for (struct group *g = c->warps[k].groups; g; g = g->next)
				if (g->state == G_MBAR && g->wait_mbar == mb)
					g->state = G_READY;
	}
}

/* Complete the phase if nothing is outstanding: phase += 1, pending := expected. */
static bool maybe_complete(struct launch *L, struct mbar *mb)
{
	if (mb->pending != 0 || mb->tx != 0 || mb->cp_hold)
		return false;
	mb->phase++;
	race_mbar_done(L, mb);
	mb->pending = mb->expected;
	mb->tx_expected = 0;
	mb->observed_prev = false;
	mb->unobserved_reported = false;
	L->epoch++;
	wake_waiters(mb);
	return true;
}

/* Which operations may act on a barrier in another CTA (ISA 9.7.13.15.8). */
static bool remote_allowed(enum ir_op op)
{
	return op == OP_MBAR_ARRIVE || op == OP_MBAR_ARRIVE_DROP || op == OP_MBAR_EXPECT_TX ||
	       op == OP_MBAR_COMPLETE_TX;
}

bool mbar_decode(struct launch *L, struct warp *w, uint64_t a, enum mspace space,
		 uint32_t lane, const char *what, struct cta **cta, uint32_t *off)
{
	uint64_t sa = a;
	if (space != MS_GENERIC && space != MS_SHARED_CTA && space != MS_SHARED_CLUSTER) {
		rule_break(L, RULE_MBAR_WINDOW, 1u << lane, "address 0x%llx of %s names a variable "
			   "outside shared memory", (unsigned long long)a, what);
		return false;
	}
	if (space == MS_GENERIC) {
		enum mspace sp = mem_generic_space(a);
		if (sp != MS_SHARED_CLUSTER) {
			rule_break(L, RULE_MBAR_WINDOW, 1u << lane,
				   "generic address 0x%llx of %s is in the %s window, not shared memory",
				   (unsigned long long)a, what,
				   sp == MS_GLOBAL ? "global" : sp == MS_LOCAL ? "local"
							 : sp == MS_CONST ? "const" : "param");
			return false;
		}
		sa = a - WIN_SHARED;
	}
	if (!mem_cluster_decode(L, w->cta, sa, cta, off)) {
		rule_break(L, RULE_MBAR_WINDOW, 1u << lane,
			   "address 0x%llx of %s is not a shared address of this cluster",
			   (unsigned long long)a, what);
		return false;
	}
	if (*cta != w->cta && space == MS_SHARED_CTA) {
		rule_break(L, RULE_MBAR_WINDOW, 1u << lane,
			   "address 0x%llx of %s.shared::cta is in CTA rank %u, not the executing "
			   "CTA", (unsigned long long)a, what, (*cta)->rank);
		return false;
	}
	if (*off % 8) {
		rule_break(L, RULE_MBAR_MISALIGNED, 1u << lane,
			   "mbarrier address 0x%x is not 8-byte aligned", *off);
		return false;
	}
	if (*off + 8 > (*cta)->smem_size) {
		rule_break(L, RULE_MEM_OUT_OF_BOUNDS, 1u << lane,
			   "mbarrier at shared 0x%x is outside the %u bytes of shared memory", *off,
			   (*cta)->smem_size);
		return false;
	}
	return true;
}

/* Resolve the barrier address of one lane: mbar_decode, then whether this operation may
 * act on that CTA's barrier. Returns the CTA and offset, or false after reporting. */
static bool resolve_at(struct launch *L, struct warp *w, const struct dinsn *di, uint64_t a,
		       uint32_t lane, struct cta **cta, uint32_t *off)
{
	enum ir_op op = (enum ir_op)di->op;
	if (!mbar_decode(L, w, a, (enum mspace)di->space, lane, ir_op_name(op), cta, off))
		return false;
	if (*cta != w->cta && !remote_allowed(op)) {
		rule_break(L, RULE_MBAR_REMOTE_OP, 1u << lane,
			   "%s on the mbarrier of CTA rank %u (only arrive, arrive_drop, expect_tx "
			   "and complete_tx may act on another CTA's mbarrier)",
			   ir_op_name(op), (*cta)->rank);
		return false;
	}
	if (*cta != w->cta && (*cta)->exited) {
		rule_break(L, RULE_MBAR_PEER_EXITED, 1u << lane,
			   "%s on the mbarrier at shared 0x%x of CTA rank %u, which has exited",
			   ir_op_name(op), *off, (*cta)->rank);
		return false;
	}
	return true;
}

static bool resolve(struct launch *L, struct warp *w, struct frame *f, const struct dinsn *di,
		    uint32_t lane, struct cta **cta, uint32_t *off)
{
	return resolve_at(L, w, di, op_addr(L, w, f, &di->s[0], lane), lane, cta, off);
}

/* Report a use of (c, off), which holds no valid mbarrier. An inval left it there: rule
 * mbarrier-invalidated (the H100 carries on, the operation is lost). Nothing was ever
 * initialised there: mbarrier-uninitialized (the H100 faults, "Missing init"). `verb` is
 * "on" for an instruction, "lands on" for an asynchronous arrive-on or complete-tx. */
static void report_no_barrier(struct launch *L, const struct mbar *old, struct cta *c,
			      uint32_t off, uint32_t lanes, const char *what, const char *verb)
{
	if (old)
		rule_break(L, RULE_MBAR_INVALIDATED, lanes,
			   "%s %s shared 0x%x of CTA rank %u, which holds no valid mbarrier (it was "
			   "invalidated at line %u)", what, verb, off, c->rank, old->inval_line);
	else
		rule_break(L, RULE_MBAR_UNINIT, lanes,
			   "%s %s shared 0x%x of CTA rank %u, which holds no valid mbarrier (never "
			   "initialised)", what, verb, off, c->rank);
}

/* A valid barrier at (cta, off), or NULL after reporting. */
static struct mbar *live_barrier(struct launch *L, struct cta *c, uint32_t off, uint32_t lanes,
				 const char *what)
{
	struct mbar *mb = mbar_lookup(c, off);
	if (mb && mb->valid)
		return mb;
	report_no_barrier(L, mb, c, off, lanes, what, "on");
	return NULL;
}

void mbar_table_free(struct launch *L)
{
	for (uint32_t i = 0; i < L->mbars.n; i++)
		free(L->mbars.obj[i]);
	free(L->mbars.obj);
	memset(&L->mbars, 0, sizeof L->mbars);
}

static bool register_barrier(struct launch *L, struct mbar *mb)
{
	if (L->mbars.n == L->mbars.cap) {
		uint32_t cap = L->mbars.cap ? L->mbars.cap * 2 : 64;
		struct mbar **t = realloc(L->mbars.obj, cap * sizeof *t);
		if (!t) {
			runtime_error(L, 1, "out of memory for mbarrier objects");
			return false;
		}
		L->mbars.obj = t;
		L->mbars.cap = cap;
	}
	mb->index = L->mbars.n;
	L->mbars.obj[L->mbars.n++] = mb;
	mb->id = ++L->mbars.ids;
	return true;
}

/* Whether a group of mb's cluster is parked on mb. */
static bool awaited(const struct mbar *mb)
{
	const struct cluster *cl = mb->cta->cluster;
	for (uint32_t r = 0; r < cl->nctas; r++)
		for (uint32_t i = 0; i < cl->ctas[r].nwarps; i++)
			for (const struct group *g = cl->ctas[r].warps[i].groups; g; g = g->next)
				if (g->state == G_MBAR && g->wait_mbar == mb)
					return true;
	return false;
}

/* An init replaced `old`: free it unless a parked group or a landed copy's record still
 * names it (then it lives until the launch ends). Tokens carry ids, not pointers, and
 * first_id keeps what asynchronous landings need to know of it: init/inval cycles run in
 * constant memory. */
static void retire_barrier(struct launch *L, struct mbar *old)
{
	if (awaited(old) || landed_names_mbar(L, old))
		return;
	struct mbar *last = L->mbars.obj[--L->mbars.n];
	L->mbars.obj[old->index] = last;
	last->index = old->index;
	free(old);
	mem_release(L->mem, sizeof *old);
}

static void do_init(struct launch *L, struct warp *w, struct cta *c, uint32_t off,
		    uint64_t count, uint32_t lane)
{
	if (!c->mbar_at) {
		if (!launch_charge(L, mbar_shadow_bytes(c), "the mbarrier table of a CTA"))
			return;
		c->mbar_at = calloc((c->smem_size + 7) / 8, sizeof *c->mbar_at);
		if (!c->mbar_at) {
			mem_release(L->mem, mbar_shadow_bytes(c));
			runtime_error(L, 1, "out of memory for mbarrier shadow state");
			return;
		}
	}
	struct mbar *old = c->mbar_at[off / 8];
	if (old && old->valid)
		mbar_rule(L, RULE_MBAR_INIT_LIVE, 1u << lane, old,
			  "mbarrier.init on shared 0x%x, which already holds a valid mbarrier", off);
	if (count < 1 || count > MBAR_MAXCNT) {
		/* The H100 keeps the low 20 bits of a count above the range (2^20 reads as 0: a
		 * fresh-looking barrier whose first arrive over-arrives); 0 crashed its launch. */
		rule_break(L, count ? RULE_MBAR_INIT_COUNT_WRAP : RULE_MBAR_COUNT_RANGE, 1u << lane,
			   "mbarrier.init count %llu is outside [1, %u]", (unsigned long long)count,
			   MBAR_MAXCNT);
		if (L->stop)
			return;
	}
	if (!launch_charge(L, sizeof(struct mbar), "an mbarrier object"))
		return;
	struct mbar *mb = calloc(1, sizeof *mb);
	if (!mb || !register_barrier(L, mb)) {
		free(mb);
		mem_release(L->mem, sizeof(struct mbar));
		if (!L->stop)
			runtime_error(L, 1, "out of memory for an mbarrier");
		return;
	}
	mb->cta = c;
	mb->off = off;
	mb->first_id = old ? old->first_id : mb->id;
	mb->valid = true;
	mb->expected = mb->pending = (int64_t)(count & 0xfffff);
	race_mbar_init(L, w, lane, mb);
	c->mbar_at[off / 8] = mb;
	if (old)
		retire_barrier(L, old);
	memset(c->smem + off, 0, 8);
	init_mark(c, off, 8);
	c->init_fenced = false;
	L->epoch++;
	char detail[48];
	snprintf(detail, sizeof detail, "count %lld", (long long)mb->expected);
	trace_update(L, w, 1u << lane, TL_INIT, "mbarrier.init", detail, mb, NULL);
}

static void do_inval(struct launch *L, struct warp *w, struct cta *c, uint32_t off,
		     uint32_t lane)
{
	struct mbar *mb = live_barrier(L, c, off, 1u << lane, "mbarrier.inval");
	if (!mb)
		return;
	struct mbar before = *mb;
	mb->valid = false;
	uint32_t col;
	if (L->ci && L->ci->ir)
		src_locate(L->file, L->ci->ir->span.off, &mb->inval_line, &col);
	L->epoch++;
	trace_update(L, w, 1u << lane, TL_INIT, "mbarrier.inval", NULL, mb, &before);
}

/* Rule 39: a remote CTA may use the barrier only once its init was fenced and published
 * through a cluster barrier. */
static void check_visible(struct launch *L, struct warp *w, struct mbar *mb, uint32_t lanes)
{
	if (mb->cta == w->cta) { /* in the CTA: happens-before (race.c) */
		const struct dinsn *init = NULL;
		uint32_t bad = mb->vis_reported ? 0 : race_mbar_unordered(L, w, lanes, mb, &init);
		if (!bad)
			return;
		uint32_t line = 0, col = 0;
		if (init && init->ir)
			src_locate(L->file, init->ir->span.off, &line, &col);
		mbar_rule(L, RULE_MBAR_INIT_NOT_VISIBLE, bad, mb,
			  "the mbarrier is used before its init (line %u) is ordered before this "
			  "thread's operation: no bar.sync, barrier or release/acquire lies between",
			  line);
		mb->vis_reported = true;
		return;
	}
	struct cluster *cl = mb->cta->cluster;
	if (mb->vis_reported || (mb->fenced && cl->cbar_phase > mb->fence_cbar_phase))
		return;
	mbar_rule(L, RULE_MBAR_INIT_NOT_VISIBLE, lanes, mb,
		  "CTA rank %u uses the mbarrier of CTA rank %u before its init was made visible "
		  "(%s)",
		  w->cta->rank, mb->cta->rank,
		  mb->fenced ? "no cluster barrier completed since the init was released by "
			       "fence.mbarrier_init, a release fence or a release "
			       "barrier.cluster.arrive"
			     : "no fence.mbarrier_init, cluster-scope release fence or release "
			       "barrier.cluster.arrive after the init");
	mb->vis_reported = true;
}

/* Rule 26: an arrive-on in phase k+1 needs a wait that returned True for phase k. */
static void check_observed(struct launch *L, struct mbar *mb, uint32_t lanes, const char *what)
{
	if (mb->phase < 1 || mb->observed_prev || mb->unobserved_reported)
		return;
	mb->unobserved_reported = true;
	mbar_rule(L, RULE_MBAR_PHASE_NOT_OBSERVED, lanes, mb,
		  "%s on phase %llu before any test_wait/try_wait returned True for phase %llu",
		  what, (unsigned long long)mb->phase, (unsigned long long)mb->phase - 1);
}

/* The arrive family, one barrier, the combined update of `lanes`:
 * expect-tx (if .expect_tx), expected -= count (arrive_drop), then arrive-on. */
static void arrive_combined(struct launch *L, struct warp *w, struct frame *f,
			    const struct dinsn *di, struct mbar *mb, uint32_t lanes,
			    const uint64_t *count, const uint64_t *txc)
{
	enum ir_op op = (enum ir_op)di->op;
	bool drop = op == OP_MBAR_ARRIVE_DROP;
	bool nocomplete = di->flags & DF_NOCOMPLETE;
	struct mbar before = *mb;
	int64_t total = 0, txtotal = 0;
	for (uint32_t m = lanes; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		if (count[l] < 1 || count[l] > MBAR_MAXCNT) {
			/* the H100: an arrive of 0 changes nothing; above the range it faults */
			mbar_rule(L, count[l] ? RULE_MBAR_COUNT_RANGE : RULE_MBAR_ARRIVE_COUNT_ZERO,
				  1u << l, mb, "%s count %llu is outside [1, %u]", ir_op_name(op),
				  (unsigned long long)count[l], MBAR_MAXCNT);
			if (L->stop)
				return;
		}
		total += (int64_t)count[l];
		txtotal += (int64_t)txc[l];
	}
	check_visible(L, w, mb, lanes);
	check_observed(L, mb, lanes, ir_op_name(op));
	if (L->stop)
		return;
	if (di->flags & DF_EXPECT_TX) {
		for (uint32_t m = lanes; m; m &= m - 1) {
			uint32_t l = (uint32_t)__builtin_ctz(m);
			if (txc[l] > MBAR_MAXCNT) {
				mbar_rule(L, RULE_MBAR_TX_RANGE, 1u << l, mb,
					  "expect-tx count %llu is above %u",
					  (unsigned long long)txc[l], MBAR_MAXCNT);
				return;
			}
		}
		if (mb->tx + txtotal > MBAR_MAXCNT) {
			mbar_rule(L, RULE_MBAR_TX_RANGE, lanes, mb,
				  "expect-tx of %lld takes tx-count to %lld, above %u",
				  (long long)txtotal, (long long)(mb->tx + txtotal), MBAR_MAXCNT);
			return;
		}
		mb->tx += txtotal;
		mb->tx_expected += txtotal;
	}
	if (total > mb->pending) {
		mbar_rule(L, RULE_MBAR_OVER_ARRIVAL, lanes, mb,
			  "%s of %lld arrival%s with only %lld pending in phase %llu", ir_op_name(op),
			  (long long)total, total == 1 ? "" : "s", (long long)mb->pending,
			  (unsigned long long)mb->phase);
		if (L->stop)
			return;
	}
	int64_t pending_before = mb->pending;
	race_mbar_arrive(L, w, lanes, mb);
	if (drop)
		mb->expected -= total;
	mb->pending -= total;
	L->epoch++;
	/* Every lane's token: the phase before this arrive and the combined prior count. */
	if (di->d.kind == DOP_REG) {
		uint64_t tok = token_make(mb, pending_before, nocomplete);
		for (uint32_t m = lanes; m; m &= m - 1)
			op_write(f, &di->d, (uint32_t)__builtin_ctz(m), tok);
	}
	bool completed = maybe_complete(L, mb);
	if (L->cfg.trace_mbar) {
		char detail[96];
		int n = snprintf(detail, sizeof detail, "%lld arrival%s", (long long)total,
				 total == 1 ? "" : "s");
		if (di->flags & DF_EXPECT_TX)
			snprintf(detail + n, sizeof detail - (size_t)n, ", expect-tx %lld",
				 (long long)txtotal);
		else if (drop)
			snprintf(detail + n, sizeof detail - (size_t)n, ", expected count -%lld",
				 (long long)total);
		trace_update(L, w, lanes, TL_ARRIVE, ir_op_name(op), detail, mb, &before);
	}
	if (completed && nocomplete)
		mbar_rule(L, RULE_MBAR_NOCOMPLETE, lanes, mb,
			  "%s.noComplete completed phase %llu", ir_op_name(op),
			  (unsigned long long)before.phase);
}

static void tx_update(struct launch *L, struct warp *w, const struct dinsn *di,
		      struct mbar *mb, uint32_t lanes, int64_t delta, uint64_t maxop)
{
	struct mbar before = *mb;
	bool expect = di->op == OP_MBAR_EXPECT_TX;
	check_visible(L, w, mb, lanes);
	if (maxop > MBAR_MAXCNT || mb->tx + delta > MBAR_MAXCNT || mb->tx + delta < -MBAR_MAXCNT) {
		mbar_rule(L, RULE_MBAR_TX_RANGE, lanes, mb,
			  "%s of %llu takes tx-count from %lld to %lld, outside [-%u, %u]",
			  ir_op_name((enum ir_op)di->op), (unsigned long long)maxop, (long long)mb->tx,
			  (long long)(mb->tx + delta), MBAR_MAXCNT, MBAR_MAXCNT);
		return;
	}
	if (expect)
		mb->tx_expected += delta;
	mb->tx += delta;
	L->epoch++;
	maybe_complete(L, mb);
	if (L->cfg.trace_mbar) {
		char detail[64];
		snprintf(detail, sizeof detail, "%s %lld", expect ? "expect-tx" : "complete-tx",
			 (long long)(expect ? delta : -delta));
		trace_update(L, w, lanes, TL_TX, ir_op_name((enum ir_op)di->op), detail, mb,
			     &before);
	}
}

/* Does state token k come from an arrive on mb? */
static bool token_of(struct token k, const struct mbar *mb)
{
	return k.ok && k.id == token_id(mb);
}

/* A polling loop breaks a wait rule again on every iteration; with --keep-going each such
 * rule is reported once per barrier. True the first time. */
static bool first_report(struct mbar *mb, enum rule_id r)
{
	uint64_t bit = 1ull << ((unsigned)r & 63);
	if (mb->reported & bit)
		return false;
	mb->reported |= bit;
	return true;
}

/* The answer of a wait on mb for one lane, without side effects: True iff the phase parity
 * its operand names differs from the current one (see the notes at the top). */
static bool wait_answer(const struct dinsn *di, const struct mbar *mb, uint64_t arg)
{
	uint64_t parity;
	struct token k;
	if (di->flags & DF_PARITY)
		parity = arg;
	else if ((k = token_read(arg)).ok)
		parity = k.phase16;
	else
		parity = arg >> 63; /* not an arrive's state: the H100 reads the top bit */
	return (parity & 1) != (mb->phase & 1);
}

/* The rules on a wait's operand (ISA 9.7.13.15.16): parity 0 or 1; a state from an arrive
 * on this object, in the current or the immediately preceding phase. */
static void check_wait_operand(struct launch *L, const struct dinsn *di, struct mbar *mb,
			       uint64_t arg, uint32_t lane)
{
	if (di->flags & DF_PARITY) {
		if (arg > 1 && first_report(mb, RULE_MBAR_PARITY_RANGE))
			mbar_rule(L, RULE_MBAR_PARITY_RANGE, 1u << lane, mb,
				  "phaseParity %llu is not 0 or 1 (the low bit is used)",
				  (unsigned long long)arg);
		return;
	}
	struct token k = token_read(arg);
	if (!token_of(k, mb)) {
		if (first_report(mb, RULE_MBAR_FOREIGN_STATE))
			mbar_rule(L, RULE_MBAR_FOREIGN_STATE, 1u << lane, mb,
				  "state 0x%016llx is not a state of this mbarrier: %s",
				  (unsigned long long)arg,
				  !k.ok || k.id == 0 || (k.id > L->mbars.ids && L->mbars.ids < TOKEN_IDS)
					  ? "it was not produced by an mbarrier arrive"
					  : "it was produced by an arrive on another mbarrier object");
		return;
	}
	uint32_t age = ((uint32_t)(mb->phase & 0xffff) - k.phase16) & 0xffff;
	if (age >= 2 && first_report(mb, RULE_MBAR_STALE_STATE))
		mbar_rule(L, RULE_MBAR_STALE_STATE, 1u << lane, mb,
			  "state from phase %llu is %u phases old (current phase %llu)",
			  (unsigned long long)(mb->phase - age), age, (unsigned long long)mb->phase);
}

/* Evaluate a wait for one lane: check its operand, answer, and record that phase-1 was
 * observed (rule mbarrier-phase-not-observed). Only a legal operand observes: a stale,
 * foreign or forged state may answer True but observes nothing. */
static bool wait_lane(struct launch *L, const struct dinsn *di, struct mbar *mb, uint64_t arg,
		      uint32_t lane)
{
	check_wait_operand(L, di, mb, arg, lane);
	bool r = wait_answer(di, mb, arg);
	struct token k = token_read(arg);
	bool legal = (di->flags & DF_PARITY) || token_of(k, mb);
	bool names_previous = di->flags & DF_PARITY
				      ? mb->phase >= 1
				      : legal && (((uint32_t)(mb->phase & 0xffff) - k.phase16) & 0xffff) == 1;
	if (r && names_previous && mb->valid)
		mb->observed_prev = true;
	if (r && legal && mb->valid && L->landed.n)
		landed_observed(L, mb, mb->phase);
	return r;
}

/* The --trace line of a wait: its answer and what the answer means.
 *   "mbarrier.try_wait.parity 'bar' (shared 0x0) [parity 0]: True: phase 0 completed (now
 *    phase 1, pending 2 of 2 arrivals, tx-count 0)" */
static void trace_wait(struct launch *L, struct warp *w, struct group *g, const struct dinsn *di,
		       const struct mbar *mb, uint32_t mask, uint32_t done, bool timed_out)
{
	struct strbuf b = {0};
	uint32_t l0 = (uint32_t)__builtin_ctz(mask);
	uint64_t arg = op_read(L, w, g->frame, &di->s[1], l0);
	sb_printf(&b, "%s%s ", ir_op_name((enum ir_op)di->op), di->flags & DF_PARITY ? ".parity" : "");
	name_barrier(L, mb, w, &b);
	if (di->flags & DF_PARITY)
		sb_printf(&b, " [parity %llu]", (unsigned long long)arg);
	else
		sb_printf(&b, " [state of phase %u]", token_read(arg).phase16);
	if (done == mask && !(di->flags & DF_PARITY))
		sb_printf(&b, ": True: phase %u completed (now ", token_read(arg).phase16);
	else if (done == mask && mb->phase == 0)
		sb_printf(&b, ": True: on a fresh barrier parity 1 names the phase before phase 0 (");
	else if (done == mask)
		sb_printf(&b, ": True: phase %llu completed (now ", (unsigned long long)mb->phase - 1);
	else if (!done)
		sb_printf(&b, ": False%s: the phase is still open (",
			  timed_out ? " (timed out: nothing else could make progress)" : "");
	else
		sb_printf(&b, ": True for %d of %d threads (", __builtin_popcount(done),
			  __builtin_popcount(mask));
	mbar_describe(mb, &b);
	sb_printf(&b, ")");
	trace_line(L, w, mask, b.s);
	if (L->timeline) {
		if (g->parked_at && done) /* it parked: the wait is a bar up to now */
			tl_wait(L, w, mask, g->parked_at, b.s);
		g->parked_at = 0;
		timeline_mark(L, w, mask, done ? TL_WAIT_TRUE : TL_WAIT_FALSE, mb, mb->phase, b.s);
	}
	sb_free(&b);
}

/* Remember the first wait that passed on parity 1 while phase 0 of mbs[l] was open, with
 * the lanes among `passed` that waited on the same barrier. */
static void note_fresh_pass(struct mbar **mbs, struct warp *w, const struct dinsn *di,
			    uint32_t passed, uint32_t l)
{
	struct mbar *mb = mbs[l];
	uint32_t lanes = 0;
	for (uint32_t m = passed; m; m &= m - 1)
		if (mbs[__builtin_ctz(m)] == mb)
			lanes |= m & -m;
	mb->fresh_pass_at = di;
	mb->fresh_pass_w = w;
	mb->fresh_pass_mask = lanes;
}

static uint32_t line_of(struct launch *L, const struct dinsn *di)
{
	uint32_t line = 0, col = 0;
	if (di && di->ir)
		src_locate(L->file, di->ir->span.off, &line, &col);
	return line;
}

void mbar_describe_wait(struct launch *L, struct warp *w, struct group *g, const struct mbar *mb,
			struct strbuf *b)
{
	const struct dinsn *di = &g->frame->fn->code[g->pc];
	if ((di->op != OP_MBAR_TRY_WAIT && di->op != OP_MBAR_TEST_WAIT) || !g->mask)
		return;
	uint64_t arg = op_read(L, w, g->frame, &di->s[1], (uint32_t)__builtin_ctz(g->mask));
	unsigned long long n = (unsigned long long)mb->phase;
	if (di->flags & DF_PARITY) {
		unsigned p = (unsigned)(arg & 1);
		sb_printf(b, "\nthe wait is on parity %u, that of phase %llu, the phase in progress: "
			  "it returns True only once phase %llu completes", p, n, n);
		if (n)
			sb_printf(b, " (phase %llu, parity %u, has completed: a wait on parity %u "
				  "returns True at once)", n - 1, p ^ 1, p ^ 1);
		else if (mb->pending == mb->expected && !mb->tx && !mb->cp_hold)
			sb_printf(b, " (no arrival has reached it; on a fresh barrier a wait on "
				  "parity 1 returns True at once: it names the phase before phase 0, as "
				  "a producer's first wait for an empty slot does)");
	} else {
		struct token k = token_read(arg);
		if (token_of(k, mb))
			sb_printf(b, "\nthe wait's state is of phase %u, which is in progress",
				  k.phase16);
	}
	if (mb->fresh_pass_at) {
		struct strbuf t = {0};
		describe_threads(L, mb->fresh_pass_w, mb->fresh_pass_mask, &t);
		sb_printf(b, "\nearlier, %s passed a wait on parity 1 at line %u while phase 0 "
			  "was in progress, before any phase of this barrier had completed: on a "
			  "fresh barrier parity 1 names the phase before phase 0, so it returns "
			  "True at once; a wait for phase 0 is on parity 0", t.s ? t.s : "?",
			  line_of(L, mb->fresh_pass_at));
		sb_free(&t);
	}
}

/* test_wait / try_wait. Returns false when the group parks. */
static bool exec_wait(struct launch *L, struct warp *w, struct group *g, const struct dinsn *di,
		      uint32_t mask)
{
	struct frame *f = g->frame;
	bool is_try = di->op == OP_MBAR_TRY_WAIT;
	uint32_t done = 0;
	struct mbar *mbs[LANES], *first = NULL, *mb = NULL;
	uint64_t prev = 0;
	/* First pass, without side effects: each lane's barrier and answer. The lanes of a
	 * warp nearly always name one barrier: it is resolved once. */
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		uint64_t a = op_addr(L, w, f, &di->s[0], l);
		if (!first || a != prev) {
			struct cta *c;
			uint32_t off;
			if (!resolve_at(L, w, di, a, l, &c, &off))
				return true;
			mb = mbar_lookup(c, off);
			if (!mb || (!mb->valid && first_report(mb, RULE_MBAR_INVALIDATED)))
				report_no_barrier(L, mb, c, off, 1u << l,
						  ir_op_name((enum ir_op)di->op), "on");
			if (L->stop)
				return true;
			prev = a;
		}
		/* An invalidated barrier keeps the phase it had (it never completes another) */
		if (wait_answer(di, mb, op_read(L, w, f, &di->s[1], l)))
			done |= 1u << l;
		mbs[l] = mb;
		if (!first)
			first = mb;
	}
	if (done != mask && !g->timed_out) {
		/* An open phase: try_wait parks; a test_wait spinning at the same pc with no
		 * progress since its last poll parks as well (it would only spin). */
		bool park = is_try;
		if (!is_try) {
			if (w->poll_pc == g->pc && w->poll_pc_epoch == L->epoch)
				park = ++w->poll_count >= 3;
			else {
				w->poll_pc = g->pc;
				w->poll_pc_epoch = L->epoch;
				w->poll_count = 1;
			}
		}
		if (park) {
			g->state = G_MBAR;
			g->wait_mbar = first;
			g->parked_at = L->steps;
			return false;
		}
	}
	bool timed_out = g->timed_out;
	g->timed_out = false;
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		check_visible(L, w, mbs[l], 1u << l);
		bool r = wait_lane(L, di, mbs[l], op_read(L, w, f, &di->s[1], l), l);
		bool fresh = (di->flags & DF_PARITY) && mbs[l]->phase == 0;
		if (r && mbs[l]->valid)
			race_mbar_acquire(L, w, l, mbs[l], fresh);
		if (r && fresh && mbs[l]->valid && !mbs[l]->fresh_pass_at)
			note_fresh_pass(mbs, w, di, done & mask, l);
		op_write(f, &di->d, l, r);
	}
	if (L->cfg.trace_mbar)
		trace_wait(L, w, g, di, first, mask, done, timed_out);
	return true;
}

static void exec_pending_count(struct launch *L, struct frame *f, const struct dinsn *di,
			       struct warp *w, uint32_t mask)
{
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		uint64_t t = op_read(L, w, f, &di->s[0], l);
		struct token k = token_read(t);
		if (!k.ok) {
			rule_break(L, RULE_MBAR_PENDING_COUNT_STATE, 1u << l,
				   "mbarrier.pending_count of 0x%016llx, which no mbarrier arrive "
				   "produced", (unsigned long long)t);
		} else if (!k.nocomplete) {
			rule_break(L, RULE_MBAR_PENDING_COUNT_STATE, 1u << l,
				   "mbarrier.pending_count of a state not produced by a .noComplete "
				   "arrive (the H100 answers the prior pending count, %u)", k.pending);
		}
		if (L->stop)
			return;
		op_write(f, &di->d, l, k.pending);
	}
}

/* Group the lanes of an arrive/expect/complete by the barrier they name (almost always one),
 * and apply each group's combined update. */
static void exec_update(struct launch *L, struct warp *w, struct frame *f,
			const struct dinsn *di, uint32_t mask)
{
	struct cta *cta[LANES];
	uint32_t off[LANES];
	uint64_t count[LANES], txc[LANES];
	uint32_t todo = 0;
	enum ir_op op = (enum ir_op)di->op;
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		if (!resolve(L, w, f, di, l, &cta[l], &off[l])) {
			if (L->stop)
				return;
			continue;
		}
		if (cta[l] != w->cta && di->d.kind == DOP_REG) {
			rule_break(L, RULE_MBAR_REMOTE_STATE, 1u << l,
				   "%s on the mbarrier of CTA rank %u with a register destination "
				   "(a remote arrive returns no state: use _)",
				   ir_op_name(op), cta[l]->rank);
			return;
		}
		bool has_count = di->nsrc >= 2;
		uint64_t v = has_count ? op_read(L, w, f, &di->s[1], l) : 1;
		if (di->flags & DF_EXPECT_TX) {
			txc[l] = v;
			count[l] = 1;
		} else {
			count[l] = v;
			txc[l] = 0;
		}
		todo |= 1u << l;
	}
	while (todo) {
		uint32_t l0 = (uint32_t)__builtin_ctz(todo), same = 0;
		for (uint32_t m = todo; m; m &= m - 1) {
			uint32_t l = (uint32_t)__builtin_ctz(m);
			if (cta[l] == cta[l0] && off[l] == off[l0])
				same |= 1u << l;
		}
		todo &= ~same;
		struct mbar *mb = live_barrier(L, cta[l0], off[l0], same, ir_op_name(op));
		if (!mb) {
			if (L->stop)
				return;
			continue;
		}
		if (op == OP_MBAR_EXPECT_TX || op == OP_MBAR_COMPLETE_TX) {
			int64_t sum = 0;
			uint64_t maxop = 0;
			for (uint32_t m = same; m; m &= m - 1) {
				uint32_t l = (uint32_t)__builtin_ctz(m);
				sum += (int64_t)count[l];
				if (count[l] > maxop)
					maxop = count[l];
			}
			tx_update(L, w, di, mb, same, op == OP_MBAR_EXPECT_TX ? sum : -sum, maxop);
		} else {
			arrive_combined(L, w, f, di, mb, same, count, txc);
		}
		if (L->stop)
			return;
	}
}

/* mbarrier.init / mbarrier.inval, lane by lane. */
static enum step init_or_inval(struct launch *L, struct warp *w, struct group *g,
			       const struct dinsn *di, uint32_t mask)
{
	struct frame *f = g->frame;
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		struct cta *c;
		uint32_t off;
		if (!resolve(L, w, f, di, l, &c, &off)) {
			if (L->stop)
				return STEP_NEXT;
			continue;
		}
		if (di->op == OP_MBAR_INIT)
			do_init(L, w, c, off, op_read(L, w, f, &di->s[1], l) & 0xffffffffu, l);
		else
			do_inval(L, w, c, off, l);
		if (L->stop)
			return STEP_NEXT;
	}
	return STEP_NEXT;
}

enum step mbar_exec_init(struct launch *L, struct warp *w, struct group *g,
			 const struct dinsn *di, uint32_t mask)
{
	return init_or_inval(L, w, g, di, mask);
}

enum step mbar_exec_inval(struct launch *L, struct warp *w, struct group *g,
			  const struct dinsn *di, uint32_t mask)
{
	return init_or_inval(L, w, g, di, mask);
}

/* arrive, arrive_drop, expect_tx, complete_tx. */
enum step mbar_exec_update(struct launch *L, struct warp *w, struct group *g,
			   const struct dinsn *di, uint32_t mask)
{
	exec_update(L, w, g->frame, di, mask);
	return STEP_NEXT;
}

/* test_wait / try_wait: the group parks while the phase is open (try_wait, or a spinning
 * test_wait), and runs the instruction again when woken. */
enum step mbar_exec_wait(struct launch *L, struct warp *w, struct group *g,
			 const struct dinsn *di, uint32_t mask)
{
	return exec_wait(L, w, g, di, mask) ? STEP_NEXT : STEP_PARKED;
}

enum step mbar_exec_pending_count(struct launch *L, struct warp *w, struct group *g,
				  const struct dinsn *di, uint32_t mask)
{
	exec_pending_count(L, g->frame, di, w, mask);
	return STEP_NEXT;
}

/* The barrier an asynchronous operation lands on: valid, and made before the operation
 * was issued. Landings run with the issuing instruction as the diagnostic context. */
static struct mbar *async_target(struct launch *L, struct cta *c, uint32_t off, uint32_t gen,
				 const char *what)
{
	struct mbar *mb = mbar_lookup(c, off);
	if (!mb || !mb->valid) {
		report_no_barrier(L, mb, c, off, L->cmask, what, "lands on");
		return NULL;
	}
	/* Made after the issue at a place that held a barrier then: that one was invalidated
	 * and replaced. (If none stood here, the issue already reported it.) */
	if (mb->id > gen && mb->first_id <= gen) {
		mbar_rule(L, RULE_MBAR_INVALIDATED, L->cmask, mb,
			  "%s lands on shared 0x%x of CTA rank %u, whose mbarrier was "
			  "invalidated and initialised again after the operation was issued",
			  what, off, c->rank);
		return NULL;
	}
	return mb;
}

bool mbar_async_issue_check(struct launch *L, struct warp *w, struct cta *c, uint32_t off,
			    uint32_t lane, const char *what)
{
	return c != w->cta || live_barrier(L, c, off, 1u << lane, what) != NULL;
}

void mbar_async_complete_tx(struct launch *L, struct cta *c, uint32_t off, uint32_t bytes,
			    uint32_t gen)
{
	/* the issuing instruction names the operation (landings run in its context) */
	const char *op = ir_op_name((enum ir_op)L->ci->op);
	char what[64];
	snprintf(what, sizeof what, "the complete-tx of %s", op);
	struct mbar *mb = async_target(L, c, off, gen, what);
	if (!mb)
		return;
	check_visible(L, L->cw, mb, L->cmask);
	struct mbar before = *mb;
	if (mb->tx - (int64_t)bytes < -MBAR_MAXCNT) {
		mbar_rule(L, RULE_MBAR_TX_RANGE, L->cmask, mb,
			  "complete-tx of %u bytes takes tx-count below -%u", bytes, MBAR_MAXCNT);
		return;
	}
	mb->tx -= bytes;
	L->epoch++;
	maybe_complete(L, mb);
	char detail[64], lands[64];
	snprintf(detail, sizeof detail, "complete-tx %u", bytes);
	snprintf(lands, sizeof lands, "the %s lands: complete-tx on",
		 L->ci->op == OP_CP_ASYNC_BULK ? "copy" : op);
	trace_update(L, L->cw, L->cmask, TL_LAND, lands, detail, mb, &before);
}

void mbar_async_arrive(struct launch *L, struct cta *c, uint32_t off, bool noinc, uint32_t gen)
{
	const char *what = "the arrive-on of cp.async.mbarrier.arrive";
	struct mbar *mb = async_target(L, c, off, gen, what);
	if (!mb)
		return;
	struct mbar before = *mb;
	check_observed(L, mb, L->cmask, what);
	if (L->stop)
		return;
	if (!noinc && mb->cp_hold) {
		mb->cp_hold--; /* the +1 of its issue and this arrive-on: no net change */
	} else if (mb->pending < 1) {
		mbar_rule(L, RULE_MBAR_OVER_ARRIVAL, L->cmask, mb,
			  "%s finds no pending arrival", what);
		return;
	} else {
		mb->pending--;
	}
	race_mbar_arrive(L, L->cw, L->cmask, mb);
	L->epoch++;
	maybe_complete(L, mb);
	trace_update(L, L->cw, L->cmask, TL_LAND, "the copies landed: arrive-on", "1 arrival", mb,
		     &before);
}

void mbar_fence_init(struct launch *L, struct cta *c)
{
	if (!c->mbar_at)
		return;
	uint32_t words = (c->smem_size + 7) / 8;
	for (uint32_t i = 0; i < words; i++) {
		struct mbar *mb = c->mbar_at[i];
		if (mb && mb->valid && !mb->fenced) {
			mb->fenced = true;
			mb->fence_cbar_phase = c->cluster->cbar_phase;
		}
	}
	(void)L;
}

struct mbar *mbar_cp_async_arrive_issue(struct launch *L, struct warp *w, struct frame *f,
					const struct dinsn *di, uint32_t lane)
{
	struct cta *c;
	uint32_t off;
	if (!resolve(L, w, f, di, lane, &c, &off))
		return NULL;
	struct mbar *mb = live_barrier(L, c, off, 1u << lane, "cp.async.mbarrier.arrive");
	if (!mb)
		return NULL;
	struct mbar before = *mb;
	bool noinc = di->flags & DF_NOINC;
	if (!noinc) {
		if (mb->pending + 1 > MBAR_MAXCNT) {
			mbar_rule(L, RULE_MBAR_PENDING_OVERFLOW, 1u << lane, mb,
				  "cp.async.mbarrier.arrive raises the pending count above %u",
				  MBAR_MAXCNT);
			if (L->stop)
				return NULL;
			/* the H100 carries on: the +1 and the later arrive-on cancel */
		}
		mb->cp_hold++;
	}
	trace_update(L, w, 1u << lane, TL_ARRIVE, noinc ? "cp.async.mbarrier.arrive.noinc"
					      : "cp.async.mbarrier.arrive",
		     noinc ? "arrive-on once the thread's cp.async copies land"
			   : "holds the phase open until the thread's cp.async copies land, then "
			     "arrives (no net arrival)",
		     mb, &before);
	return mb;
}
