/*
 * exec_warp.c - warp-level instructions (shfl, vote, match, redux, elect, activemask,
 * bar.warp.sync), CTA barriers (bar / barrier .sync .arrive .red), the cluster barrier,
 * fences and nanosleep.
 *
 * Notes
 * - A .sync warp instruction needs every non-exited lane of its membermask at the same
 *   instruction: a group holding only some of them parks (G_WARPSYNC) until the others
 *   re-converge with it (sched.c merges groups at the same pc).
 * - Barriers count threads (ISA 9.7.13.1): without a count, a barrier completes when every
 *   non-exited thread of the CTA arrived. Waiting groups keep their pc; release advances it.
 * - barrier.cluster: each thread arrives once per phase; wait blocks until the phase of its
 *   arrival completed, i.e. all non-exited threads of the cluster arrived (ISA 9.7.13.3).
 */
#include <string.h>

#include "exec.h"
#include "barrier.h"
#include "group.h"
#include "launch.h"
#include "hopper/mbarrier.h"
#include "memory.h"
#include "operand.h"
#include "race.h"
#include "report/rules.h"

bool warp_need_lanes(struct launch *L, struct warp *w, struct group *g, uint32_t member,
		     uint32_t mask)
{
	if (mask & ~member) {
		rule_break(L, RULE_WARP_SYNC_MASK, mask & ~member,
			   "%s executed by a thread outside membermask 0x%08x",
			   ir_op_name((enum ir_op)L->ci->op), member);
		return false;
	}
	uint32_t gone = member & w->valid & ~w->live;
	if (gone) {
		struct strbuf b = {0};
		describe_lanes(w, gone, &b);
		rule_break(L, RULE_WARP_SYNC_EXITED, mask, "%s with membermask 0x%08x, which names %s, "
			   "exited", ir_op_name((enum ir_op)L->ci->op), member, b.s);
		sb_free(&b);
		if (L->stop)
			return false;
	}
	uint32_t missing = member & w->live & ~g->mask;
	if (missing) {
		g->state = G_WARPSYNC;
		g->wait_id = member;
		return false;
	}
	return true;
}

static void shfl_lanes(struct launch *L, struct warp *w, struct frame *f, const struct dinsn *di,
		       uint32_t mask)
{
	uint64_t a[LANES];
	for (int l = 0; l < LANES; l++)
		a[l] = (w->live >> l & 1) ? op_read(L, w, f, &di->s[0], (uint32_t)l) : 0;
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		uint32_t b = (uint32_t)op_read(L, w, f, &di->s[1], l) & 31;
		uint32_t c = (uint32_t)op_read(L, w, f, &di->s[2], l);
		uint32_t segmask = (c >> 8) & 31, clamp = c & 31;
		uint32_t maxl = (l & segmask) | (clamp & ~segmask), minl = l & segmask;
		int32_t j;
		bool p;
		switch ((enum ir_mod)di->mode) {
		case MOD_UP:
			j = (int32_t)l - (int32_t)b;
			p = j >= (int32_t)maxl;
			break;
		case MOD_DOWN:
			j = (int32_t)(l + b);
			p = j <= (int32_t)maxl;
			break;
		case MOD_BFLY:
			j = (int32_t)(l ^ b);
			p = j <= (int32_t)maxl;
			break;
		default: /* .idx */
			j = (int32_t)(minl | (b & ~segmask));
			p = j <= (int32_t)maxl;
			break;
		}
		if (!p)
			j = (int32_t)l;
		op_write(f, &di->d, l, a[j] & 0xffffffffu);
		op_write(f, &di->d2, l, p);
	}
}

/* Each lane votes among the lanes of its own membermask. */
static void vote_lanes(struct launch *L, struct warp *w, struct frame *f, const struct dinsn *di,
		       uint32_t mask, const uint32_t member[LANES])
{
	uint32_t set = 0;
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		set |= (uint32_t)(op_read(L, w, f, &di->s[0], l) & 1) << l;
	}
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m), part = mask & member[l];
		uint64_t r;
		switch ((enum ir_mod)di->mode) {
		case MOD_ALL:
			r = (set & part) == part;
			break;
		case MOD_ANY:
			r = (set & part) != 0;
			break;
		case MOD_UNI:
			r = (set & part) == part || (set & part) == 0;
			break;
		default: /* .ballot */
			r = set & part;
			break;
		}
		op_write(f, &di->d, l, r);
	}
}

/* Each lane compares with the lanes of its own membermask: lanes may pass different masks
 * (the H100 runs that, and real code does it for halves of a warp). */
static void match_lanes(struct launch *L, struct warp *w, struct frame *f, const struct dinsn *di,
		        uint32_t mask, const uint32_t member[LANES])
{
	uint64_t v[LANES] = {0};
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		v[l] = op_read(L, w, f, &di->s[0], l);
		if (ir_type_size((enum ir_mod)di->type) == 4)
			v[l] &= 0xffffffffu;
	}
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m), eq = 0, peers = mask & member[l];
		for (uint32_t k = peers; k; k &= k - 1)
			if (v[__builtin_ctz(k)] == v[l])
				eq |= 1u << __builtin_ctz(k);
		if (di->mode == MOD_ALL) {
			uint32_t all = eq == peers ? peers : 0;
			op_write(f, &di->d, l, all);
			op_write(f, &di->d2, l, all != 0);
		} else {
			op_write(f, &di->d, l, eq);
		}
	}
}

/* The lanes of mask whose membermask is lane l's. */
static uint32_t same_members(uint32_t mask, const uint32_t member[LANES], uint32_t l)
{
	uint32_t same = 0;
	for (uint32_t m = mask; m; m &= m - 1)
		if (member[__builtin_ctz(m)] == member[l])
			same |= 1u << __builtin_ctz(m);
	return same;
}

/* The membermask each lane passes in operand `at`: lanes may pass different ones (a warp
 * split into tiles, each naming its own; CUDA's tiled_partition does). Their union is what
 * must be present. Returns false (reported) where lanes are outside their own mask. */
static bool lane_members(struct launch *L, struct warp *w, struct frame *f,
			 const struct dop *at, uint32_t mask, uint32_t member[LANES],
			 uint32_t *all)
{
	uint32_t outside = 0;
	*all = 0;
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		member[l] = at->kind == DOP_IMM && l != (uint32_t)__builtin_ctz(mask)
				    ? member[__builtin_ctz(mask)] : (uint32_t)op_read(L, w, f, at, l);
		*all |= member[l];
		outside |= (~member[l] >> l & 1) << l;
	}
	if (!outside)
		return true;
	uint32_t l0 = (uint32_t)__builtin_ctz(outside), bad = member[l0];
	bool match = L->ci->op == OP_MATCH_SYNC; /* its name lacks the .sync */
	const char *name = match ? "match.sync" : ir_op_name((enum ir_op)L->ci->op);
	if (same_members(outside, member, l0) == outside)
		rule_break(L, RULE_WARP_SYNC_MASK, outside,
			   "%s executed by a thread outside %smembermask 0x%08x", name,
			   match ? "its " : "", bad);
	else
		rule_break(L, RULE_WARP_SYNC_MASK, outside,
			   "%s executed by threads outside their own membermasks (lane %u's is "
			   "0x%08x)", name, l0, bad);
	return false;
}

/* redux.sync's result over the lanes `peers`. */
static uint32_t redux_over(struct launch *L, struct warp *w, struct frame *f,
			   const struct dinsn *di, uint32_t peers)
{
	bool sgn = ir_type_is_signed((enum ir_mod)di->type);
	uint32_t acc = (uint32_t)op_read(L, w, f, &di->s[0], (uint32_t)__builtin_ctz(peers));
	for (uint32_t m = peers & (peers - 1); m; m &= m - 1) {
		uint32_t v = (uint32_t)op_read(L, w, f, &di->s[0], (uint32_t)__builtin_ctz(m));
		switch ((enum ir_mod)di->mode) {
		case MOD_ADD:
			acc += v;
			break;
		case MOD_MIN:
			acc = sgn ? ((int32_t)v < (int32_t)acc ? v : acc) : (v < acc ? v : acc);
			break;
		case MOD_MAX:
			acc = sgn ? ((int32_t)v > (int32_t)acc ? v : acc) : (v > acc ? v : acc);
			break;
		case MOD_AND:
			acc &= v;
			break;
		case MOD_OR:
			acc |= v;
			break;
		default:
			acc ^= v;
			break;
		}
	}
	return acc;
}

/* Each lane reduces over the lanes of its own membermask (once per distinct mask). */
static void redux_lanes(struct launch *L, struct warp *w, struct frame *f, const struct dinsn *di,
		        uint32_t mask, const uint32_t member[LANES])
{
	uint32_t done = 0;
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		if (done >> l & 1)
			continue;
		uint32_t peers = mask & member[l], same = same_members(m, member, l);
		uint32_t acc = redux_over(L, w, f, di, peers);
		for (uint32_t k = same; k; k &= k - 1)
			op_write(f, &di->d, (uint32_t)__builtin_ctz(k), acc);
		done |= same;
	}
}

/* ---- CTA barriers --------------------------------------------------------------------- */

/* A waiter parks at barrier b: what check_same_instruction (barrier.c) would find at the
 * barrier's completion, noted as the waiters come. */
static inline void bar_note_waiter(struct barstate *b, const struct dinsn *di)
{
	if (is_aligned_bar(di))
		bar_note_first(b, di);
}

/* bar / barrier .sync .arrive .red: the lanes of mask arrive; .sync and .red wait where they
 * are until the barrier completes (bar_check releases them past it). Out of exec_bar's line,
 * so its common case saves few registers. */
static __attribute__((noinline)) enum step bar_any(struct launch *L, struct warp *w,
						     struct group *g, const struct dinsn *di,
						     uint32_t mask)
{
	struct frame *f = g->frame;
	enum ir_op op = (enum ir_op)di->op;
	bool red = op == OP_BAR_RED || op == OP_BARRIER_RED;
	bool arrive = op == OP_BAR_ARRIVE || op == OP_BARRIER_ARRIVE;
	uint32_t l0 = (uint32_t)__builtin_ctz(mask);
	const struct dop *ido = &di->s[0];
	uint64_t id = ido->kind == DOP_IMM && !ido->neg ? ido->imm[l0] : op_read(L, w, f, ido, l0);
	if (id > 15) {
		runtime_error(L, 1, "barrier id %llu is above 15", (unsigned long long)id);
		return STEP_PARKED;
	}
	struct cta *c = w->cta;
	struct barstate *b = &c->bar[id];
	uint32_t nsrc_count = red ? 3 : 2;
	if (di->nsrc >= nsrc_count) {
		uint64_t cnt = op_read(L, w, f, &di->s[1], l0);
		if (cnt == 0 || cnt % 32 || cnt > c->nwarps * 32u) {
			runtime_error(L, 1, "barrier thread count %llu must be a non-zero multiple of "
				      "32 up to the CTA size", (unsigned long long)cnt);
			return STEP_PARKED;
		}
		b->expected = (uint32_t)cnt;
	}
	bool split = mask != g->mask;
	if (split) {
		/* only the lanes whose guard holds arrive, in a group of their own (past an
		 * arrive, waiting at a sync); the others step past later */
		g = group_split(w, g, mask, arrive ? g->pc + 1 : g->pc);
		if (!g)
			return STEP_PARKED;
	}
	b->arrived += popcount32(mask);
	if (L->race)
		race_bar_arrive(L, w, mask, (uint32_t)id);
	b->red |= red;
	if (red) { /* red_and counts true lanes: the AND holds when all arrivals were true */
		const struct dop *p = &di->s[di->nsrc - 1];
		for (uint32_t m = mask; m; m &= m - 1) {
			uint64_t v = op_read(L, w, f, p, (uint32_t)__builtin_ctz(m)) & 1;
			b->red_popc += (uint32_t)v;
			b->red_or |= (uint32_t)v;
			b->red_and += (uint32_t)v;
		}
	}
	if (arrive) {
		bar_check(L, c, (uint32_t)id);
		return split ? STEP_PARKED : STEP_NEXT;
	}
	g->state = G_BAR;
	g->wait_id = (uint32_t)id;
	bar_note_waiter(b, di);
	bar_check(L, c, (uint32_t)id);
	return STEP_PARKED;
}

/* exec_bar's case with the detector on, or the arrival that completes the barrier: the rest
 * of its steps, in the same order, out of its line (so its common case calls nothing). */
static __attribute__((noinline)) enum step bar_sync_rest(struct launch *L, struct warp *w,
							 struct group *g, const struct dinsn *di,
							 uint32_t mask, uint32_t id)
{
	struct cta *c = w->cta;
	if (L->race)
		race_bar_arrive(L, w, mask, id);
	g->state = G_BAR;
	g->wait_id = id;
	bar_note_waiter(&c->bar[id], di);
	bar_check(L, c, id);
	return STEP_PARKED;
}

/* The common case first, with nothing else to look at: bar.sync / barrier.sync of a
 * barrier named by a constant, for the whole CTA, by every lane of the group - what bar_any
 * does with it, in the same order. */
enum step exec_bar(struct launch *L, struct warp *w, struct group *g, const struct dinsn *di,
		   uint32_t mask)
{
	const struct dop *ido = &di->s[0];
	uint64_t id = ido->kind == DOP_IMM ? ido->imm[__builtin_ctz(mask)] : 16;
	if ((di->op != OP_BAR_SYNC && di->op != OP_BARRIER_SYNC) || di->nsrc != 1 ||
	    ido->neg || id > 15 || mask != g->mask)
		return bar_any(L, w, g, di, mask);
	struct cta *c = w->cta;
	struct barstate *b = &c->bar[id];
	b->arrived += popcount32(mask);
	if (L->race || b->arrived >= (b->expected ? b->expected : c->live_threads))
		return bar_sync_rest(L, w, g, di, mask, (uint32_t)id);
	g->state = G_BAR; /* (the barrier waits on: bar_check would do nothing) */
	g->wait_id = (uint32_t)id;
	bar_note_waiter(b, di);
	return STEP_PARKED;
}

/* ---- the cluster barrier ------------------------------------------------------------- */

/* barrier.cluster.arrive: each lane arrives once per phase. */
enum step exec_cluster_arrive(struct launch *L, struct warp *w, struct group *g,
			      const struct dinsn *di, uint32_t mask)
{
	struct cluster *cl = w->cta->cluster;
	uint32_t twice = mask & w->cbar_arrived;
	if (twice) {
		rule_break(L, RULE_CLUSTER_BAR_DOUBLE, twice,
			   "barrier.cluster.arrive twice in phase %u", cl->cbar_phase);
		if (L->stop)
			return STEP_PARKED;
	}
	uint32_t fresh = mask & ~twice;
	if (di->sem != MOD_RELAXED) /* a release arrive publishes the CTA's inits */
		mbar_fence_init(L, w->cta);
	race_cbar_arrive(L, w, fresh, di->sem == MOD_RELAXED);
	w->cbar_arrived |= fresh;
	w->cbar_waitable |= fresh;
	for (uint32_t m = fresh; m; m &= m - 1)
		w->cbar_phase[__builtin_ctz(m)] = cl->cbar_phase;
	cl->cbar_arrived += (uint32_t)__builtin_popcount(fresh);
	cluster_bar_check(L, cl);
	return STEP_NEXT;
}

/* barrier.cluster.wait: each lane's arrival phase must have completed; until then the
 * group waits here (cluster_bar_check readies it to try again). */
enum step exec_cluster_wait(struct launch *L, struct warp *w, struct group *g,
			    const struct dinsn *di, uint32_t mask)
{
	struct cluster *cl = w->cta->cluster;
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		if (!(w->cbar_waitable >> l & 1) || cl->cbar_phase <= w->cbar_phase[l]) {
			g->state = G_CLUSTER_BAR;
			return STEP_PARKED;
		}
	}
	w->cbar_waitable &= ~mask;
	race_cbar_acquire(L, w, mask);
	return STEP_NEXT;
}

/* A fence that orders the thread's earlier writes, mbarrier.init included, for the whole
 * cluster: release (or acq_rel, sc) at .cluster scope or wider, membar.gl/.sys. Like
 * fence.mbarrier_init it publishes the CTA's inits at the next cluster barrier (rule 39). */
static bool releases_cluster(const struct dinsn *di)
{
	if (di->flags & DF_PROXY)
		return false;
	bool wide = di->scope == MOD_CLUSTER || di->scope == MOD_GPU || di->scope == MOD_SYS ||
		    di->scope == MOD_GL;
	bool releases = di->sem == MOD_NONE || di->sem == MOD_RELEASE || di->sem == MOD_ACQ_REL ||
			di->sem == MOD_SC;
	return wide && releases;
}

/* ---- warp-level instructions --------------------------------------------------------- */

/* Whether every non-exited lane of the lanes' membermasks (operand `at`, each lane's own,
 * kept in member[]) is in the group; if not, the group waits or a rule broke. */
static bool members_here(struct launch *L, struct warp *w, struct group *g,
			 const struct dop *at, uint32_t mask, uint32_t member[LANES])
{
	uint32_t all;
	return lane_members(L, w, g->frame, at, mask, member, &all) &&
	       warp_need_lanes(L, w, g, all, mask);
}

enum step exec_shfl(struct launch *L, struct warp *w, struct group *g, const struct dinsn *di,
		    uint32_t mask)
{
	uint32_t member[LANES];
	if (!members_here(L, w, g, &di->s[3], mask, member))
		return STEP_PARKED;
	shfl_lanes(L, w, g->frame, di, mask);
	race_lockstep_sync(L, w, mask);
	return STEP_NEXT;
}

enum step exec_vote(struct launch *L, struct warp *w, struct group *g, const struct dinsn *di,
		    uint32_t mask)
{
	uint32_t member[LANES];
	if (!members_here(L, w, g, &di->s[di->nsrc - 1], mask, member))
		return STEP_PARKED;
	vote_lanes(L, w, g->frame, di, mask, member);
	race_lockstep_sync(L, w, mask);
	return STEP_NEXT;
}

enum step exec_match(struct launch *L, struct warp *w, struct group *g, const struct dinsn *di,
		     uint32_t mask)
{
	uint32_t member[LANES];
	if (!members_here(L, w, g, &di->s[di->nsrc - 1], mask, member))
		return STEP_PARKED;
	match_lanes(L, w, g->frame, di, mask, member);
	race_lockstep_sync(L, w, mask);
	return STEP_NEXT;
}

enum step exec_redux(struct launch *L, struct warp *w, struct group *g, const struct dinsn *di,
		     uint32_t mask)
{
	uint32_t member[LANES];
	if (!members_here(L, w, g, &di->s[di->nsrc - 1], mask, member))
		return STEP_PARKED;
	redux_lanes(L, w, g->frame, di, mask, member);
	race_lockstep_sync(L, w, mask);
	return STEP_NEXT;
}

/* Lanes that pass the same membermask synchronise with each other (memory too), not with
 * lanes of another mask. */
enum step exec_bar_warp_sync(struct launch *L, struct warp *w, struct group *g,
			     const struct dinsn *di, uint32_t mask)
{
	uint32_t member[LANES];
	if (!members_here(L, w, g, &di->s[0], mask, member))
		return STEP_PARKED;
	for (uint32_t m = mask; m;) {
		uint32_t same = same_members(m, member, (uint32_t)__builtin_ctz(m));
		race_warp_sync(L, w, same);
		m &= ~same;
	}
	return STEP_NEXT;
}

enum step exec_elect(struct launch *L, struct warp *w, struct group *g, const struct dinsn *di,
		     uint32_t mask)
{
	struct frame *f = g->frame;
	uint32_t member = (uint32_t)op_read(L, w, f, &di->s[di->nsrc - 1],
					    (uint32_t)__builtin_ctz(mask));
	if (mask & ~member) {
		rule_break(L, RULE_ELECT_MASK, mask & ~member,
			   "elect.sync executed by a thread outside membermask 0x%08x", member);
		if (L->stop)
			return STEP_PARKED;
		/* the H100: lanes outside get the leader and False */
	}
	if (!warp_need_lanes(L, w, g, member | mask, mask))
		return STEP_PARKED;
	uint32_t cand = member & mask;
	uint32_t leader = cand ? (uint32_t)__builtin_ctz(cand) : 0;
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		op_write(f, &di->d, l, leader);
		op_write(f, &di->d2, l, l == leader);
	}
	return STEP_NEXT;
}

enum step exec_activemask(struct launch *L, struct warp *w, struct group *g,
			  const struct dinsn *di, uint32_t mask)
{
	(void)L, (void)w;
	for (uint32_t m = mask; m; m &= m - 1)
		op_write(g->frame, &di->d, (uint32_t)__builtin_ctz(m), g->mask);
	return STEP_NEXT;
}

/* ---- fences and the rest ------------------------------------------------------------- */

enum step exec_fence(struct launch *L, struct warp *w, struct group *g, const struct dinsn *di,
		     uint32_t mask)
{
	(void)g;
	if ((di->flags & DF_MBARRIER_INIT) || releases_cluster(di))
		mbar_fence_init(L, w->cta);
	if ((di->flags & DF_PROXY) && di->space != MS_GLOBAL) /* fence.proxy.async{.shared*} */
		mem_proxy_fence(w->cta);
	if ((di->flags & DF_PROXY) && (di->space == MS_GLOBAL || di->space == MS_GENERIC))
		mem_proxy_fence_global(L);
	if (di->flags & DF_TENSORMAP) /* fence.proxy.tensormap::generic */
		mem_tmap_fence_all(L);
	race_fence(L, w, mask);
	return STEP_NEXT;
}

enum step exec_membar(struct launch *L, struct warp *w, struct group *g, const struct dinsn *di,
		      uint32_t mask)
{
	(void)g;
	if (releases_cluster(di))
		mbar_fence_init(L, w->cta);
	race_fence(L, w, mask);
	return STEP_NEXT;
}

enum step exec_nanosleep(struct launch *L, struct warp *w, struct group *g,
			 const struct dinsn *di, uint32_t mask)
{
	uint64_t ns = op_read(L, w, g->frame, &di->s[0], (uint32_t)__builtin_ctz(mask));
	L->clock += ns > 1000000 ? 1000000 : ns;
	return STEP_NEXT;
}

/* griddepcontrol: ptxi runs one grid at a time, so there is no dependent grid to launch
 * early or wait for. */
enum step exec_griddepcontrol(struct launch *L, struct warp *w, struct group *g,
			      const struct dinsn *di, uint32_t mask)
{
	(void)L, (void)w, (void)g, (void)di, (void)mask;
	return STEP_NEXT;
}
