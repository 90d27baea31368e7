/*
 * seg_sweep.h - the CTA sweep's state for one call of the segment code (interp.c's seg_sweep
 * and its hop): the turn running, and what the hop takes as given for the call. The
 * segment code (jit_seg.c) reads and writes it too where it hands a calm turn over itself
 * at a bar.sync (gen_hand), so its layout is the one both compile against.
 */
#ifndef PTXI_SEG_SWEEP_H
#define PTXI_SEG_SWEEP_H

#include <stdbool.h>
#include <stdint.h>

#include "jit_ctx.h"
#include "launch.h"
#include "sweep.h"

/* What the scheduler does between two runs of a group it would pick again at once, done in
 * place: the clock moves on by the instructions run so far, as if the dispatch loop had
 * returned them; and when the group's lanes changed (a split), the instructions after this
 * point count its lanes now in the thread-instructions, not those the scheduler counted
 * when it picked the group (interp_run_group adds the difference at its end). */
struct repick {
	uint32_t n_clocked;     /* instructions the clock has moved by (the scheduler adds the rest) */
	int32_t dlanes;         /* the group's lanes now less its lanes when picked              */
	uint64_t fix;           /* thread-instructions before each change, not to count twice    */
	uint32_t vlanes, vpc;   /* a split not made (vsplit_fits): the taken lanes, their target */
};

struct seg_turn {
	struct warp *w;
	struct group *g;
	const struct dinsn *di;   /* in: a segment entry; out: where the code stopped      */
	const struct dinsn *last; /* seg_run's last and lmask (seg_native's)               */
	uint32_t lmask, left, limit, n_before;
	uint64_t steps;           /* L->steps where the turn began                          */
};

enum sweep_end {
	SWEEP_STOPPED, /* t->w's code stopped at t->di, not an arrival the hop makes        */
	SWEEP_DONE,    /* t->w's turn ended parked, sweep_next declined: seg_run's SEG_DONE */
	SWEEP_AGAIN,   /* swept to t->w, whose turn seg_run does not begin (SEG_AGAIN)      */
	SWEEP_WARP,    /* swept to t->w, whose turn seg_run begins (its next_warp)          */
};

/* the segment code's context, then what seg_hop reads and writes, and what it takes as
 * given for the whole call of the code (nothing the code or the hop does moves it) */
struct seg_sweeping {
	struct jit_seg_ctx c;
	struct launch *L;
	struct race *R;           /* L->race (for the code's race_defer: a load less)       */
	struct sweep *sw;
	struct seg_turn t;
	enum sweep_end end;
	uint64_t lim;             /* sweep_lim's (the poll and the step limit)              */
	uint64_t lim1;            /* lim less one, 0 where lim is (jit_hand.c's lazy test)  */
	/* a function and its code (fixed after the load), the last the hop saw: the next
	 * warp's instruction found from its pc alone where its frame's function is the
	 * same (no wait on the frame's chain of loads) */
	const struct dfunc *fn;
	const struct dinsn *code;
	/* SEG_LAZY_NONE, or the lazy hand-overs' base (jit_hand.c's lazy forms, in a calm
	 * call with the detector or without): the turn running was begun by the code's own
	 * hand-over (an ordinary one or a round's end), and lz_base was L->steps as the turn
	 * after the first of those that left their writes (the one that set lz_base, count's
	 * form) began. Until the settle (interp.c's seg_lazy_settle) these are left as they
	 * are to be: t.steps (c.end less SWEEP_QUANTUM), c.regs (c.f's), without the detector
	 * L->steps (t.steps), L->cw (c.w), t.g and c.w's last_pick (c.w's one group, its
	 * groups), L->clock and L->thread_steps short of the turns' instructions since
	 * lz_base (t.steps - lz_base, each of LANES threads), and the
	 * sweep's ran, true unless the turn is the round's first (k 1: the round's end that
	 * began it cleared ran, and no ordinary hand-over sets it again). What else the lazy
	 * forms leave unwritten is as it is to be already, as the hand-over that set lz_base
	 * wrote it and nothing but a settle's callers writes it: c.n0, t.left (SWEEP_QUANTUM),
	 * L->cmask (FULL_MASK), the sweep's lanes (LANES) and the repick (0: what sets it
	 * settles first, or, a region's lazy merge, makes it 0 again: jit_vs.c's join_lazy) -
	 * but where the turn running made a lazy completion (jit_hand.c's complete_lazy,
	 * without the detector only) or a region's lazy merge, which mark their pick by
	 * storing t.steps (then the turn's: no lazy hand-over writes t.steps, so a later
	 * turn's is behind its own) and t.left, the budget left past it (the bar.sync, the
	 * region's last instruction): then L->steps is t.steps plus the turn's SWEEP_QUANTUM
	 * - t.left instructions up to there, and L->clock is short of those too, which the
	 * repick's n_clocked counts (seg_hop_release's repicked, vsplit_join's). Every C
	 * that the code calls or leaves to in such a call settles first: seg_sweep's hops, its
	 * end, seg_vs_* (and the code itself before a region's access left to C or a region
	 * whose merge cannot be lazy (jit_vs.c), before the race form's
	 * completion, and before a round's end whose restart calls C: --jobs) - but for the
	 * detector's calls from the code (jit_seg.c's gen_smem_race, gen_row_fresh;
	 * ask_rows), which read none of those but L->steps, L->ci, L->cmask, which the code
	 * writes before each (race_regs), and L->cw: the race forms write L->steps and L->cw
	 * at every hand-over, and their settle leaves both as they are (jit_hand.c's
	 * count_lazy). With the detector (calm SEG_CALM_RACE) the mark is lz_race instead,
	 * lz_base staying SEG_LAZY_NONE: lz_base set tells the code's hand-over the lazy form
	 * without the detector (FORM_LAZY) in one compare, without a look at calm (every
	 * context of the code is a struct seg_sweeping's, seg_native's too, whose marks are
	 * SEG_LAZY_NONE: jit_ctx.h). */
	uint64_t lz_base;
	uint64_t lz_race;
};

#define SEG_LAZY_NONE UINT64_MAX

/* c.calm (jit_ctx.h): the call is calm (interp.c's seg_calm): the code's own hand-over at a
 * bar.sync (jit_hand.c) may run before the hop; with the detector on (SEG_CALM_RACE) it
 * makes the detector's deferred arrival too, where race_bar_defer would. A context without
 * the sweep's hop (seg_native's) leaves it 0: not calm (its lazy marks SEG_LAZY_NONE). */
enum { SEG_NOT_CALM, SEG_CALM, SEG_CALM_RACE };

#endif
