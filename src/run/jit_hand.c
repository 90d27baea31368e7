/*
 * jit_hand.c - the CTA sweep's common hand-over in the segment code (issue #31): at a
 * bar.sync of a constant barrier, in a calm call (the context's `calm`), a whole warp's
 * arrival that does not complete the barrier, followed in the same round and CTA by the
 * next warp (w + 1) whose one whole group is ready at a segment entry of the same function,
 * is made here without the call of the hop: exactly the writes interp.c's seg_hop_calm
 * makes on that path (seg_hop_note, seg_bar_wait, sweep_next_by, run_done, seg_hop_on and
 * seg_ctx_warp), then a jump to the next warp's entry with its registers (a direct one
 * where that warp stands at the entry right after this bar.sync: hand) - or, where the
 * turn ending was begun by such a hand-over, the lazy form: those of the writes that only C
 * reads left to a settle (seg_sweep.h's lz_base, count_lazy). Every test is made before the
 * first write; where one fails the code falls through to the hop's call,
 * which makes them all again in C (so the C hop sees the state it always saw). The
 * arrival that completes the barrier is made here too where seg_hop_done's common case
 * holds (complete: bar_release's walk of the CTA's waiters, then the same warp on past the
 * bar.sync; in the lazy form without the detector complete_lazy, which leaves the
 * repick's clock to the settle and the turn lazy), and so is a round's end where sweep_round's common case holds (no --seed
 * draw, the spin watch only restarted: round_tests, restart), the next round beginning
 * with warp 0 of CTA 0. What is left to C: a completion with a rule to check (waiters at
 * two instructions), bar.red's results, or one instruction of budget left; a round's end
 * under --seed or with the spin watch to make or sampled; a split or partial warp,
 * another function's frame, the step limit or poll, and any call that is not calm (a
 * stop, asynchronous events). With the detector on (a call whose calm is SEG_CALM_RACE)
 * the hand-over is seg_hop_race_calm's path instead: its test of L->stop, and the
 * detector's arrival deferred (race_priv.h's race_bar_defer: the warp's bit of its CTA's
 * pend mask); and the completing arrival seg_hop_race_done's: deferred the same way, the
 * warp's group parked as seg_bar_wait parks it, race_bar_complete called from the code
 * (the one call it makes there), then the release. An arrival that race_bar_defer would not
 * defer is left to C. Tests that a fact of the whole launch already answers are not made
 * (closed_kernel, countless), nor, in the lazy form, those its beginning answered (tests).
 *
 * The race forms are lazy too (FORM_RACE_LAZY), with two writes more: the detector's calls
 * from the code (jit_seg.c: gen_smem_race's smem_ld / smem_st and the row calls,
 * gen_row_fresh's fresh checks and wrap, ask_rows) read of what the lazy form leaves only
 * L->steps, L->ci and L->cmask, which the code writes before each of them (race_regs), and
 * L->cw (the reports' warp: report/gather.c's gather_rule; access.c's wgmma look), so
 * count_lazy writes L->cw where `race`, and L->steps too: where a report stops the launch
 * C reads the access's L->steps as the code wrote it, and where the turn's code leaves
 * before its first instruction seg_run does not write it again, so the settle does not
 * write either with the detector (it would write the turn's start over the access's).
 * L->clock, L->thread_steps, t.steps, c.regs and the sweep's ran none of the calls reads
 * (operand.c's %clock and the scheduler: C that the code reaches only through a settle).
 * So their counts, steps and reports are the same as the full form's. The round's end is
 * the lazy form's; the completion settles first (it calls race_bar_complete, C) and
 * stores c.regs, where the lazy form's (complete_lazy) leaves the turn lazy.
 */
#include "jit_hand.h"

#include <stddef.h>

#include "exec.h"
#include "jit_regs.h"
#include "race_priv.h"
#include "seg_sweep.h"

/* this code's scratch beside the registers the segment code keeps (jit_regs.h): past the
 * last test (nothing falls through to the hop's call after it) R_LAST too, which begin and
 * complete set last */
enum { R_SCR = R_LAST };

#define AT(base, off) ((struct xmem){(base), -1, 1, (int32_t)(off)})
#define SW(field) AT(R_CTX, offsetof(struct seg_sweeping, field))
#define SPIN(field) (offsetof(struct cluster, spin) + offsetof(struct spin_watch, field))
#define BAR(id, field) (offsetof(struct cta, bar) + (id) * sizeof(struct barstate) + \
			offsetof(struct barstate, field))

/* The hand-over's forms (hand), each in code of its own: where the turn ending was begun by
 * the code's own hand-over (its mark set, lz_base or lz_race: the lazy writes) or not,
 * without the detector (FORM_LAZY, FORM_FULL) and with it (FORM_RACE_LAZY, FORM_RACE: the
 * detector's arrival too, and L->steps and L->cw written for its calls from the code: the
 * head of this file). */
enum form { FORM_FULL, FORM_LAZY, FORM_RACE, FORM_RACE_LAZY };

static bool form_race(enum form form)
{
	return form == FORM_RACE || form == FORM_RACE_LAZY;
}

static bool form_lazy(enum form form)
{
	return form == FORM_LAZY || form == FORM_RACE_LAZY;
}

/* Whether tests() leaves rdi one short of L->steps past the bar.sync: in the lazy form
 * without the detector, where only begin reads it (c.end, adding the one), but for the
 * round's end that settles and counts (round_end adds it there) */
static bool steps_less1(enum form form)
{
	return form == FORM_LAZY;
}

struct hand {
	struct xbuf *b;
	size_t fail[256]; /* the tests' jumps to the hop's call (the four forms: 162 at most) */
	unsigned nfail;
	bool full;       /* a jump found no room in fail: the code is not kept */
	size_t done;     /* the arrival completes the barrier: the jump to complete() */
	size_t round;    /* the round's end: the jump to round_tests() */
	bool closed;     /* fn is a closed kernel (closed_kernel): next_tests' fewer tests */
	bool countless;  /* and no barrier of its launch waits on a count (countless) */
	bool direct;     /* fn->code[i + 1] is an entry: the direct jumps to it (hand) */
	size_t *jumps;   /* those jumps, for the caller to point at that entry */
	unsigned njumps;
};

/* begin's `at` for the direct jump to the entry right after the bar.sync (hand) */
enum { AT_DIRECT = -1 };

/* the lazy hand-overs' mark (seg_sweep.h): lz_race with the detector, else lz_base */
static struct xmem mark(bool race)
{
	return race ? SW(lz_race) : SW(lz_base);
}

/* four registers kept across a call of C (four pushes: the stack stays aligned for it) */
static void keep4(struct xbuf *b, const int r[4])
{
	for (int k = 0; k < 4; k++)
		x86_push(b, r[k]);
}

static void unkeep4(struct xbuf *b, const int r[4])
{
	for (int k = 3; k >= 0; k--)
		x86_pop(b, r[k]);
}

/* a jump already made (its place in the code) sent to the hop's call */
static void fail_at(struct hand *H, size_t jump)
{
	if (H->nfail == sizeof H->fail / sizeof *H->fail)
		H->full = true;
	else
		H->fail[H->nfail++] = jump;
}

/* a test's jump (condition cc) to the hop's call */
static void fail_if(struct hand *H, int cc)
{
	fail_at(H, x86_jcc(H->b, cc));
}

/* a test of the byte flag at m: to the hop's call where it is set (cc 0x5) or clear (0x4) */
static void fail_if_flag(struct hand *H, struct xmem m, int cc)
{
	x86_alu_m8i(H->b, 7, m, 0);
	fail_if(H, cc);
}

/* on at the entry right after the bar.sync (fn->code[i + 1]): the direct jump where
 * H->direct, kept in H->jumps, else through rdi (complete_tests' look-up) */
static void past(struct hand *H)
{
	if (!H->direct)
		x86_jmp_r(H->b, X_RDI);
	else if (H->njumps == JIT_HAND_JUMPS)
		H->full = true;
	else
		H->jumps[H->njumps++] = x86_jmp(H->b);
}

/* [m] += r (64 bits) */
static void add_mem(struct xbuf *b, struct xmem m, int r)
{
	x86_alu_mr(b, X86_ADD, true, m, r);
}

/* The tests, loads only: rax w, rcx its CTA, rdx w's group, rdi L->steps after the bar.sync
 * (one short in FORM_LAZY: steps_less1), r8 the sweep (sweep_next_by's and seg_hop_on's, in
 * the case they go on at once). An arrival that completes the barrier jumps to H->done (rax
 * w, rcx its CTA) */
static void tests(struct hand *H, const struct dfunc *fn, uint32_t i, enum form form)
{
	struct xbuf *b = H->b;
	const struct dinsn *di = &fn->code[i];
	uint32_t id = (uint32_t)di->s[0].imm[0];
	/* In the lazy form w's turn was begun by the code's hand-over, whose next_tests found
	 * w's first group whole and ready: its one group, every lane live. Nothing since changed
	 * that: only C splits a group (group_split, a handler's) or ends lanes (an exit, where
	 * the code leaves), and the code's region (jit_vs.c) begins with a settle; every C the
	 * code calls or leaves to settles first, which ends the lazy form (lz_base), but for
	 * the detector's calls of the race forms (the head of this file), which neither split
	 * a group nor end lanes (smem.c, access.c and the detector write no group and no
	 * `live`). So w's aligned test and its one group's are not made there. */
	bool whole = form_lazy(form);
	x86_load(b, true, X_RAX, SW(c.w));
	if ((di->flags & DF_EXEC_ALIGNED) && !whole) {
		x86_alu_mi(b, 7, false, AT(X_RAX, offsetof(struct warp, live)), -1);
		fail_if(H, 0x5);
	}
	/* the arrival does not complete barrier id */
	x86_load(b, true, X_RCX, AT(X_RAX, offsetof(struct warp, cta)));
	x86_load(b, false, X_RSI, AT(X_RCX, BAR(id, arrived)));
	x86_alu_ri(b, 0, false, X_RSI, LANES);
	if (H->countless) { /* (expected 0 throughout: countless) */
		x86_alu_rm(b, X86_CMP, false, X_RSI, AT(X_RCX, offsetof(struct cta, live_threads)));
	} else {
		x86_load(b, false, X_RDX, AT(X_RCX, BAR(id, expected)));
		x86_alu_rr(b, X86_TEST, false, X_RDX, X_RDX);
		x86_cmov_rm(b, 0x4, false, X_RDX,
			    AT(X_RCX, offsetof(struct cta, live_threads)));
		x86_alu_rr(b, X86_CMP, false, X_RSI, X_RDX);
	}
	H->done = x86_jcc(b, 0x3);
	/* w's one group */
	x86_load(b, true, X_RDX, AT(X_RAX, offsetof(struct warp, groups)));
	if (!whole) {
		x86_alu_mi(b, 7, true, AT(X_RDX, offsetof(struct group, next)), 0);
		fail_if(H, 0x5);
	}
	/* L->steps past the bar.sync (seg_hop_note's: the turn's end less left, plus one)
	 * before sweep_lim's - in FORM_LAZY the one left out of rdi (steps_less1) and of
	 * the limit (lim1: where lim is 0, every L->steps and every rdi fails alike) */
	x86_load(b, true, X_RDI, SW(c.end));
	x86_alu_rr(b, X86_SUB, true, X_RDI, R_LEFT);
	if (steps_less1(form)) {
		x86_alu_rm(b, X86_CMP, true, X_RDI, SW(lim1));
	} else {
		x86_alu_ri(b, 0, true, X_RDI, 1);
		x86_alu_rm(b, X86_CMP, true, X_RDI, SW(lim));
	}
	fail_if(H, 0x3);
	/* the round's end: round_tests */
	x86_load(b, true, X_R8, SW(sw));
	x86_load(b, false, X_RSI, AT(X_R8, offsetof(struct sweep, k)));
	x86_alu_rm(b, X86_CMP, false, X_RSI, AT(X_R8, offsetof(struct sweep, total)));
	H->round = x86_jcc(b, 0x3);
}

/* Inside a round, the next warp s->(r, i) (r10): w + 1 inside a CTA (i not 0), else the
 * first of CTA r (rax w, r8 the sweep) */
static void next_in_round(struct xbuf *b)
{
	x86_lea(b, X_R10, AT(X_RAX, sizeof(struct warp)));
	x86_alu_mi(b, 7, false, AT(X_R8, offsetof(struct sweep, i)), 0);
	size_t inside = x86_jcc(b, 0x5);
	x86_load(b, true, X_R9, AT(X_R8, offsetof(struct sweep, cl)));
	x86_load(b, true, X_R9, AT(X_R9, offsetof(struct cluster, ctas)));
	x86_load(b, false, X_R11, AT(X_R8, offsetof(struct sweep, r)));
	x86_imul_rri(b, true, X_R11, X_R11, (int32_t)sizeof(struct cta));
	x86_load(b, true, X_R10, (struct xmem){X_R9, X_R11, 1,
					     (int32_t)offsetof(struct cta, warps)});
	x86_patch(b, inside, b->len);
}

/* At the round's end (s->k == s->total): whether sweep_next_by ends it there as
 * sweep_round_ready and sweep_round do, with nothing to do but their bookkeeping - no
 * --seed draw (the next round begins with warp 0 of CTA 0, r10), and spin_stuck answering
 * false at once: its watch off, or made, not sampled since its last restart, and the
 * stretch not quiet (L->writes past seg_hop_note's, or L->epoch, moved: spin_busy), so
 * that it only restarts the watch (count's round). rax w, rcx its CTA, r8 the sweep; leaves
 * rdx L (round_end's, where nothing took it since). */
static void round_tests(struct hand *H, const struct dinsn *di)
{
	struct xbuf *b = H->b;
	_Static_assert(sizeof(((struct launch *)0)->cfg.seed) == 8 &&
			       sizeof(((struct spin_watch *)0)->off) == 1,
		       "round_tests' compares: the fields' sizes");
	x86_load(b, true, X_RDX, SW(c.L));
	x86_alu_mi(b, 7, true, AT(X_RDX, offsetof(struct launch, cfg.seed)), 0);
	fail_if(H, 0x5);
	x86_load(b, true, X_R9, AT(X_R8, offsetof(struct sweep, cl)));
	x86_alu_m8i(b, 7, AT(X_R9, SPIN(off)), 0);
	size_t off = x86_jcc(b, 0x5);
	x86_alu_mi(b, 7, true, AT(X_R9, SPIN(w)), 0);
	fail_if(H, 0x4);
	fail_if_flag(H, AT(X_R9, SPIN(sampled)), 0x5);
	x86_load(b, true, X_RSI, AT(X_RDX, offsetof(struct launch, epoch)));
	x86_alu_rm(b, X86_CMP, true, X_RSI, AT(X_R9, SPIN(epoch)));
	size_t busy = x86_jcc(b, 0x5);
	x86_load(b, false, X_RSI, SW(c.writes));
	if (di->flags & DF_WRITES)
		x86_alu_ri(b, 0, true, X_RSI, 1);
	x86_alu_rm(b, X86_ADD, true, X_RSI, AT(X_RDX, offsetof(struct launch, writes)));
	x86_alu_rm(b, X86_CMP, true, X_RSI, AT(X_R9, SPIN(writes)));
	fail_if(H, 0x4);
	x86_patch(b, busy, b->len);
	x86_patch(b, off, b->len);
	/* the next warp (r10), warp 0 of CTA 0, not w: the round, begun there (no --seed),
	 * ends at w; so they are one only in a cluster of one warp, whose arrival completes
	 * the barrier where no count is named (countless: expected 0, the CTA's live threads
	 * at most LANES) and so never comes here */
	x86_load(b, true, X_R10, AT(X_R9, offsetof(struct cluster, ctas)));
	x86_load(b, true, X_R10, AT(X_R10, offsetof(struct cta, warps)));
	if (!H->countless) {
		x86_alu_rr(b, X86_CMP, true, X_R10, X_RAX);
		fail_if(H, 0x4);
	}
}

/* Whether every frame of every warp of fn's launch is of fn and no warp of it ever sets
 * its warpgroup watch (wg_busy, wg_track): fn a kernel (a warp's base frame is its launch's
 * kernel, one for every CTA of the launch) whose code has no call (frame_new's only other
 * caller: a .func's frame) and no warpgroup instruction (FAM_WGMMA's handlers are the only
 * writers of the watch; a CTA's warps begin zeroed, cta_alloc). Facts of the code alone,
 * true for the whole launch: next_tests' tests of the frame's function and of the watch
 * are then implied, and not made. */
static bool closed_kernel(const struct dfunc *fn)
{
	if (!fn->ir || !fn->ir->is_entry)
		return false;
	for (uint32_t k = 0; k < fn->ncode; k++)
		if (fn->code[k].op == OP_CALL || fn->code[k].fam == FAM_WGMMA)
			return false;
	return true;
}

/* Whether, fn a closed kernel, no barrier of its launch ever waits on a thread count: no
 * barrier instruction of fn's code names one (exec_bar's, the only writer of a barrier's
 * expected, sets it from a second source; bar_release clears it, a CTA begins zeroed, and
 * only fn's code runs: closed_kernel). bar.red and barrier.red, whose predicate is a second
 * source too, count as naming one (a test kept for nothing). Then expected is 0 in every
 * CTA of the launch: tests' target is the CTA's live threads alone. */
static bool countless(const struct dfunc *fn)
{
	for (uint32_t k = 0; k < fn->ncode; k++)
		if (fn->code[k].exec == exec_bar && fn->code[k].nsrc >= 2)
			return false;
	return true;
}

/* The next warp's tests (r10; leaves r11 its group, R_REGS its frame): its one group,
 * ready, no warpgroup watch, in a frame of this function (the watch and the function not
 * tested in a closed kernel: closed_kernel); its group's mask and pc are next_entry's or
 * hand's. (From here on R_REGS and R_SPLIT are scratch: past the tests the hand-over sets
 * them for the next warp, the hop's call reloads them, the code's exit reads neither, and
 * the completion, which keeps them, branched off before.) */
static void next_tests(struct hand *H, const struct dfunc *fn)
{
	struct xbuf *b = H->b;
	/* its one group, whole (next_entry, hand) and ready, no warpgroup watch: the first
	 * group whole (all LANES lanes) is the one group, as a lane is in one group's mask at
	 * most (group.c's split and merges move lanes, an exit leaves them in the group it
	 * finishes, a virtual split's taken lanes are in none) and no group in the list is
	 * empty (a split leaves lanes on both sides) - the first group's next is not tested */
	x86_load(b, true, X_R11, AT(X_R10, offsetof(struct warp, groups)));
	x86_alu_rr(b, X86_TEST, true, X_R11, X_R11);
	fail_if(H, 0x4);
	x86_alu_mi(b, 7, false, AT(X_R11, offsetof(struct group, state)), G_READY);
	fail_if(H, 0x5);
	if (!H->closed) {
		x86_alu_mi(b, 7, false, AT(X_R10, offsetof(struct warp, wg_busy)), 0);
		fail_if(H, 0x5);
		fail_if_flag(H, AT(X_R10, offsetof(struct warp, wg_track)), 0x5);
	}
	/* in a frame of this function, at an entry right after a bar.sync (seg_bar) */
	x86_load(b, true, R_REGS, AT(X_R11, offsetof(struct group, frame)));
	if (!H->closed) {
		x86_load(b, true, X_RSI, AT(R_REGS, offsetof(struct frame, fn)));
		x86_mov_ri64(b, X_R9, (uint64_t)(uintptr_t)fn);
		x86_alu_rr(b, X86_CMP, true, X_RSI, X_R9);
		fail_if(H, 0x5);
	}
}

/* the next warp's group (r11) whole (next_tests), and its instruction (the group's pc) in
 * fn's code at an entry right after a bar.sync (seg_bar), that entry kept in `at` for
 * begin, where nothing else reads it before: R_SPLIT (which race_defer, arrive, count,
 * count_lazy, settle and restart leave alone), or r9 in the lazy ordinary hand-over without
 * the detector, whose writes before begin leave r9 alone (arrive and count_lazy: next_ri's
 * scratch is rdx) */
static void next_entry(struct hand *H, const struct dfunc *fn, int at)
{
	struct xbuf *b = H->b;
	x86_alu_mi(b, 7, false, AT(X_R11, offsetof(struct group, mask)), -1);
	fail_if(H, 0x5);
	x86_load(b, false, X_RSI, AT(X_R11, offsetof(struct group, pc)));
	x86_imul_rri(b, true, X_RSI, X_RSI, (int32_t)sizeof(struct dinsn));
	x86_mov_ri64(b, X_R9, (uint64_t)(uintptr_t)fn->code);
	fail_if_flag(H, (struct xmem){X_R9, X_RSI, 1, (int32_t)offsetof(struct dinsn, seg_bar)},
		     0x4);
	x86_load(b, true, at, (struct xmem){X_R9, X_RSI, 1, (int32_t)offsetof(struct dinsn, seg)});
}

/* w's bit of a pend mask (race_bar_defer's 1u << w->id) */
static const uint32_t warp_bit[LANES] = {
#define B4(i) 1u << (i), 1u << ((i) + 1), 1u << ((i) + 2), 1u << ((i) + 3)
	B4(0), B4(4), B4(8), B4(12), B4(16), B4(20), B4(24), B4(28)
#undef B4
};

/* The detector's part of the hand-over (a calm call with the detector on): seg_hop_race_calm's
 * test of L->stop and race_bar_defer's tests, then its write - w's bit of
 * R->cta[slot].pend[id] - all after tests() (rax w, rcx its CTA; rdx, rsi, r9 scratch).
 * In the lazy race form (`lazy`) L->stop, R->seen_any and R->wvc_ok are not tested: the
 * full race form's hand-over that began the lazy ones found them clear, clear and set, and
 * since then only the code ran, whose every detector call it leaves at once where that
 * call set L->stop (gen_smem_race's test); wvc_ok is the launch's (race.c sets it once),
 * and only a wait_group (race_sync.c, C outside the code, reached through a settle) sets
 * seen_any. w's vector (*wvc_of) is tested still: the completion of w's last barrier, in
 * the stretch or before it, may have cleared it. */
static void race_defer(struct hand *H, const struct dinsn *di, bool lazy)
{
	struct xbuf *b = H->b;
	uint32_t id = (uint32_t)di->s[0].imm[0];
	_Static_assert(sizeof(((struct launch *)0)->stop) == 1 &&
			       sizeof(((struct race *)0)->seen_any) == 1 &&
			       sizeof(((struct race *)0)->wvc_ok) == 1 &&
			       sizeof(((struct race *)0)->nw) == 4 &&
			       sizeof(((struct cta *)0)->slot) == 4 &&
			       sizeof(((struct warp *)0)->id) == 4 &&
			       sizeof(((struct rcta *)0)->pend[0]) == 4,
		       "race_defer's loads: the fields' sizes");
	if (!lazy) {
		x86_load(b, true, X_RDX, SW(L));
		fail_if_flag(H, AT(X_RDX, offsetof(struct launch, stop)), 0x5);
	}
	x86_load(b, true, X_RDX, SW(R));
	if (!lazy) {
		fail_if_flag(H, AT(X_RDX, offsetof(struct race, seen_any)), 0x5);
		fail_if_flag(H, AT(X_RDX, offsetof(struct race, wvc_ok)), 0x4);
	}
	/* *wvc_of(R, w): R->wvc[slot * R->nw + w->id] (32 bits, as the C computes it); rsi
	 * &R->cta[slot] */
	x86_load(b, false, X_RSI, AT(X_RCX, offsetof(struct cta, slot)));
	x86_load(b, false, X_R9, AT(X_RDX, offsetof(struct race, nw)));
	x86_imul_rr(b, false, X_R9, X_RSI);
	x86_alu_rm(b, X86_ADD, false, X_R9, AT(X_RAX, offsetof(struct warp, id)));
	x86_imul_rri(b, true, X_RSI, X_RSI, (int32_t)sizeof(struct rcta));
	x86_alu_rm(b, X86_ADD, true, X_RSI, AT(X_RDX, offsetof(struct race, cta)));
	x86_load(b, true, X_RDX, AT(X_RDX, offsetof(struct race, wvc)));
	x86_alu_mi(b, 7, true, ((struct xmem){X_RDX, X_R9, 8, 0}), 0);
	fail_if(H, 0x4);
	/* R->cta[slot].pend[id] |= warp_bit[w->id] */
	x86_load(b, false, X_RDX, AT(X_RAX, offsetof(struct warp, id)));
	x86_mov_ri64(b, X_R9, (uint64_t)(uintptr_t)warp_bit);
	x86_load(b, false, X_RDX, ((struct xmem){X_R9, X_RDX, 4, 0}));
	x86_alu_mr(b, X86_OR, false, AT(X_RSI, offsetof(struct rcta, pend) + id * sizeof(uint32_t)),
		   X_RDX);
}

/* w's arrival at di (barrier id), not completing it: seg_hop_note's pc, seg_bar_wait's
 * count, state and first waiter (bar_note_first's: the barrier's first waiter di itself
 * tested first, the common case past the phase's first arrival) (rax w, rcx its CTA; rdx
 * w's group where `group`, else loaded; leaves rsi di) */
static void arrive(struct xbuf *b, const struct dinsn *di, uint32_t i, bool group)
{
	uint32_t id = (uint32_t)di->s[0].imm[0];
	x86_alu_mi(b, 0, false, AT(X_RCX, BAR(id, arrived)), LANES);
	x86_mov_ri64(b, X_RSI, (uint64_t)(uintptr_t)di);
	x86_alu_rm(b, X86_CMP, true, X_RSI, AT(X_RCX, BAR(id, first)));
	size_t same = x86_jcc(b, 0x4);
	x86_alu_mi(b, 7, true, AT(X_RCX, BAR(id, first)), 0);
	size_t have = x86_jcc(b, 0x5);
	x86_store(b, true, AT(X_RCX, BAR(id, first)), X_RSI);
	size_t done = x86_jmp(b);
	x86_patch(b, have, b->len);
	x86_mov_mi8(b, AT(X_RCX, BAR(id, mixed)), 1);
	x86_patch(b, same, b->len);
	x86_patch(b, done, b->len);
	if (!group)
		x86_load(b, true, X_RDX, AT(X_RAX, offsetof(struct warp, groups)));
	x86_mov_mi(b, AT(X_RDX, offsetof(struct group, pc)), i);
	/* state and wait_id in one store (release's assert: the two one 8-byte word), an
	 * immediate where the word is one (barrier 0: G_BAR alone) */
	uint64_t word = (uint64_t)id << 32 | (uint32_t)G_BAR;
	if (word <= INT32_MAX) {
		x86_mov_mi64(b, AT(X_RDX, offsetof(struct group, state)), (int32_t)word);
	} else {
		x86_mov_ri64(b, R_SCR, word);
		x86_store(b, true, AT(X_RDX, offsetof(struct group, state)), R_SCR);
	}
}

/* s->(r, i) past the next warp (edx its i + 1, R_SCR its r + 1 where it is the last of its
 * CTA; `same` the jump where it is not): past the CTA's last warp the first of the next
 * CTA, past the cluster's last CTA the first (rcx w's CTA, r8 the sweep). Every CTA of a
 * cluster has the same nwarps (sched.c), so w's CTA's is cl->ctas[0]'s. */
static void next_ri_store(struct xbuf *b, size_t same, bool in_reg)
{
	x86_alu_rr(b, X86_XOR, false, X_RDX, X_RDX);
	if (in_reg) {
		x86_mov_ri(b, R_SCR, 1);
	} else {
		x86_load(b, false, R_SCR, AT(X_R8, offsetof(struct sweep, r)));
		x86_alu_ri(b, 0, false, R_SCR, 1);
	}
	x86_load(b, true, X_RCX, AT(X_R8, offsetof(struct sweep, cl)));
	x86_alu_rm(b, X86_CMP, false, R_SCR, AT(X_RCX, offsetof(struct cluster, nctas)));
	size_t in = x86_jcc(b, 0x5);
	x86_alu_rr(b, X86_XOR, false, R_SCR, R_SCR);
	x86_patch(b, in, b->len);
	if (in_reg)
		x86_patch(b, same, b->len);
	x86_store(b, false, AT(X_R8, offsetof(struct sweep, r)), R_SCR);
	x86_store(b, false, AT(X_R8, offsetof(struct sweep, i)), X_RDX);
}

/* s->(r, i) past the next warp and k one more (sweep_next_by's; at a round's end,
 * sweep_round's start at warp 0 of CTA 0, and k from 0). (rcx w's CTA, r8 the sweep; rcx,
 * rdx, R_SCR scratch: r9 kept, the lazy hand-over's entry) */
static void next_ri(struct xbuf *b, bool round)
{
	if (round) {
		/* the new round's warp 0 of CTA 0 passed from registers, (r, i) = (0, 0) + 1:
		 * the sweep is not read back (its i and k, read as one word right after 4-byte
		 * stores of each, waited for the stores to leave: a load is not forwarded from
		 * two stores) */
		x86_mov_mi(b, AT(X_R8, offsetof(struct sweep, k)), 1);
		x86_mov_ri(b, X_RDX, 1);
		x86_alu_rr(b, X86_XOR, false, R_SCR, R_SCR);
		x86_alu_rm(b, X86_CMP, false, X_RDX, AT(X_RCX, offsetof(struct cta, nwarps)));
		next_ri_store(b, x86_jcc(b, 0x5), true);
		return;
	}
	x86_load(b, false, X_RDX, AT(X_R8, offsetof(struct sweep, i)));
	x86_alu_ri(b, 0, false, X_RDX, 1);
	x86_alu_rm(b, X86_CMP, false, X_RDX, AT(X_RCX, offsetof(struct cta, nwarps)));
	size_t same = x86_jcc(b, 0x5);
	next_ri_store(b, same, false);
	x86_alu_mi(b, 0, false, AT(X_R8, offsetof(struct sweep, k)), 1);
	size_t done = x86_jmp(b);
	/* inside the CTA: i and k each one more, in one add (i + 1 < nwarps: no carry) */
	_Static_assert(offsetof(struct sweep, k) == offsetof(struct sweep, i) + 4 &&
			       sizeof(((struct sweep *)0)->i) == 4,
		       "next_ri's add: s->i and s->k one 8-byte word");
	x86_patch(b, same, b->len);
	x86_mov_ri64(b, R_SCR, (uint64_t)1 << 32 | 1);
	x86_alu_mr(b, X86_ADD, true, AT(X_R8, offsetof(struct sweep, i)), R_SCR);
	x86_patch(b, done, b->len);
}

/* the bar.sync's write in L->writes (rcx L): with c.writes where `settle`, else kept in
 * c.writes (count's) */
static void count_writes(struct xbuf *b, const struct dinsn *di, bool settle)
{
	if (settle) {
		x86_load(b, false, X_RDX, SW(c.writes));
		if (di->flags & DF_WRITES)
			x86_alu_ri(b, 0, false, X_RDX, 1);
		add_mem(b, AT(X_RCX, offsetof(struct launch, writes)), X_RDX);
	} else if (di->flags & DF_WRITES) {
		x86_alu_mi(b, 0, false, SW(c.writes), 1);
	}
}

/* The launch's counts (seg_hop_note's, sweep_next_by's and run_done's for w's n
 * instructions, n = n0 - left + 1 in rdx), the repick reset; rax w, rcx its CTA, rsi di,
 * rdi L->steps, r8 the sweep, r10 the next warp, r11 its group (rcx, rsi, r9, R_SCR
 * scratch). L->writes takes c.writes and the bar.sync where `settle`; else the bar.sync is
 * added to c.writes, which keeps the turns' writes until the next place that settles them -
 * every round's end (here, or seg_hop_note), a completion, seg_account where the code
 * leaves - so that L->writes plus c.writes is always what L->writes was (their only reader
 * in between: round_tests, which adds the two) and c.writes never counts more than a
 * round's. */
static void count(struct xbuf *b, const struct dinsn *di, bool round, bool settle)
{
	next_ri(b, round);
	x86_load(b, true, X_RCX, SW(c.L));
	count_writes(b, di, settle);
	x86_store(b, true, AT(X_RCX, offsetof(struct launch, steps)), X_RDI);
	x86_store(b, true, AT(X_RCX, offsetof(struct launch, ci)), X_RSI);
	x86_mov_mi(b, AT(X_RCX, offsetof(struct launch, cmask)), FULL_MASK);
	x86_store(b, true, AT(X_RCX, offsetof(struct launch, cw)), X_R10);
	x86_load(b, false, X_RDX, SW(c.n0));
	x86_alu_rr(b, X86_SUB, false, X_RDX, R_LEFT);
	x86_alu_ri(b, 0, false, X_RDX, 1);
	/* thread_steps += n * (lanes + dlanes) + fix (64 bits, as n * lanes + n * dlanes +
	 * fix); clock += n - n_clocked */
	x86_load(b, true, X_RSI, SW(c.rp));
	x86_load(b, false, X_R9, AT(X_R8, offsetof(struct sweep, lanes)));
	x86_load_ext(b, 4, true, R_SCR, AT(X_RSI, offsetof(struct repick, dlanes)));
	x86_alu_rr(b, X86_ADD, true, X_R9, R_SCR);
	x86_imul_rr(b, true, X_R9, X_RDX);
	x86_alu_rm(b, X86_ADD, true, X_R9, AT(X_RSI, offsetof(struct repick, fix)));
	add_mem(b, AT(X_RCX, offsetof(struct launch, thread_steps)), X_R9);
	x86_load(b, false, R_SCR, AT(X_RSI, offsetof(struct repick, n_clocked)));
	x86_alu_rr(b, X86_MOV, true, X_R9, X_RDX);
	x86_alu_rr(b, X86_SUB, true, X_R9, R_SCR);
	add_mem(b, AT(X_RCX, offsetof(struct launch, clock)), X_R9);
	x86_alu_rr(b, X86_XOR, false, R_SCR, R_SCR);
	x86_store(b, false, AT(X_RSI, offsetof(struct repick, n_clocked)), R_SCR);
	x86_store(b, false, AT(X_RSI, offsetof(struct repick, dlanes)), R_SCR);
	x86_store(b, true, AT(X_RSI, offsetof(struct repick, fix)), R_SCR);
	x86_store(b, false, AT(X_RSI, offsetof(struct repick, vlanes)), R_SCR);
	x86_store(b, false, AT(X_RSI, offsetof(struct repick, vpc)), R_SCR);
	/* w's turn ends (its pick finds nothing), the next one's begins */
	add_mem(b, AT(X_RAX, offsetof(struct warp, steps)), X_RDX);
	x86_store(b, false, AT(X_RAX, offsetof(struct warp, streak)), R_SCR);
	x86_store(b, true, AT(X_RAX, offsetof(struct warp, last_pick)), R_SCR);
	/* (s->ran: the turn ran the bar.sync at least; a round's end clears it, and notes
	 * that the sweep crossed into the next round) */
	x86_mov_mi8(b, AT(X_R8, offsetof(struct sweep, ran)), !round);
	if (round)
		x86_mov_mi8(b, AT(X_R8, offsetof(struct sweep, crossed)), 1);
	x86_mov_mi(b, AT(X_R8, offsetof(struct sweep, lanes)), LANES);
	x86_store(b, false, AT(X_R10, offsetof(struct warp, streak)), R_SCR);
	x86_store(b, true, AT(X_R10, offsetof(struct warp, last_pick)), X_R11);
}

/* count's writes in the lazy form (seg_sweep.h's lz_base: the turn ending was begun by a
 * hand-over of the code, so n0 is SWEEP_QUANTUM, the lanes LANES and the repick 0): those
 * the settle makes not made - L->steps, L->cw, L->clock, L->thread_steps and the next
 * warp's last_pick (without the detector: its one group, r11, c.w's groups) - nor those
 * as they are to be already (L->cmask, the repick's reset, s->lanes, and s->ran inside a
 * round: the settle's where a round's end cleared it); n = SWEEP_QUANTUM - left + 1.
 * Registers as count's; at a round's end (`round`) L->writes settled as count's. With the
 * detector (`race`) L->steps and L->cw written all the same: the detector's calls from the
 * code read them, and L->steps, which the code writes before each call (race_regs), is
 * what C finds where a report stops the launch (the settle does not write it then). */
static void count_lazy(struct xbuf *b, const struct dinsn *di, bool round, bool race)
{
	next_ri(b, round);
	x86_load(b, true, X_RCX, SW(c.L));
	count_writes(b, di, round);
	if (race) {
		x86_store(b, true, AT(X_RCX, offsetof(struct launch, steps)), X_RDI);
		x86_store(b, true, AT(X_RCX, offsetof(struct launch, cw)), X_R10);
	}
	if (round) {
		x86_mov_mi8(b, AT(X_R8, offsetof(struct sweep, ran)), 0);
		x86_mov_mi8(b, AT(X_R8, offsetof(struct sweep, crossed)), 1);
	}
	x86_store(b, true, AT(X_RCX, offsetof(struct launch, ci)), X_RSI);
	x86_mov_ri(b, X_RDX, SWEEP_QUANTUM + 1);
	x86_alu_rr(b, X86_SUB, false, X_RDX, R_LEFT);
	add_mem(b, AT(X_RAX, offsetof(struct warp, steps)), X_RDX);
	/* (w's streak not stored: the hand-over that began w's turn stored it 0, as r10's
	 * below, and its only other writers - pick, a split and its rejoin - are C that the
	 * code reaches through a settle, which ends the lazy form, or the code's region,
	 * whose lazy merge stores it 0 again (jit_vs.c's join_lazy); its last_pick, that
	 * turn's group then, is NULL now - written, as the lazy form without the detector
	 * leaves the next warp's last_pick to the settle: the turn's one group, c.w's groups,
	 * which nothing reads before it but the code's region: its test takes the lazy
	 * form's mark for the settle's group, jit_vs.c's jit_vs_tests) */
	x86_mov_mi64(b, AT(X_RAX, offsetof(struct warp, last_pick)), 0);
	x86_mov_mi(b, AT(X_R10, offsetof(struct warp, streak)), 0);
	if (race)
		x86_store(b, true, AT(X_R10, offsetof(struct warp, last_pick)), X_R11);
}

/* interp.c's seg_lazy_settle, where the code itself writes what the lazy hand-overs left
 * (before a round's end that calls C, a region's repick, and the race lazy form's
 * completion): nothing where the mark (lz_base, with the detector lz_race) is
 * SEG_LAZY_NONE. With the detector (`race`) L->steps and L->cw are not written: the race
 * forms wrote both at every hand-over and before each detector call (count_lazy,
 * race_regs), and a report's stop reads the access's L->steps (a settle would write the
 * turn's start over it). Four scratch registers. */
static void settle(struct xbuf *b, const int r[4], bool race)
{
	int base = r[0], steps = r[1], x = r[2], y = r[3];
	x86_load(b, true, base, mark(race));
	x86_alu_ri(b, 7, true, base, -1);
	size_t none = x86_jcc(b, 0x4);
	x86_load(b, true, steps, SW(c.end));
	x86_alu_ri(b, 5, true, steps, SWEEP_QUANTUM);
	/* y the turn's left where a lazy completion marked it (complete_lazy: t.steps the
	 * turn's steps), else SWEEP_QUANTUM; x the instructions up to it, the repick's count */
	x86_mov_ri(b, y, SWEEP_QUANTUM);
	x86_alu_rm(b, X86_CMP, true, steps, SW(t.steps));
	x86_cmov_rm(b, 0x4, false, y, SW(t.left));
	x86_store(b, false, SW(t.left), y);
	x86_store(b, true, SW(t.steps), steps);
	x86_mov_ri(b, x, SWEEP_QUANTUM);
	x86_alu_rr(b, X86_SUB, false, x, y);
	x86_load(b, true, y, SW(c.rp));
	x86_store(b, false, AT(y, offsetof(struct repick, n_clocked)), x);
	/* L->steps the turn's and those up to the completion (without the detector), the
	 * clock on to there (the race forms make no lazy completion, but a region's lazy
	 * merge in a race-lazy turn marks its pick as one: jit_vs.c's join_lazy) */
	x86_load(b, true, y, SW(c.L));
	x86_alu_rr(b, X86_ADD, true, x, steps);
	if (!race)
		x86_store(b, true, AT(y, offsetof(struct launch, steps)), x);
	x86_alu_rr(b, X86_SUB, true, x, base);
	add_mem(b, AT(y, offsetof(struct launch, clock)), x);
	x86_alu_rr(b, X86_SUB, true, steps, base);
	_Static_assert(LANES == 32, "settle's thread-instructions: n << 5");
	x86_shift_ri(b, 4, true, steps, 5);
	add_mem(b, AT(y, offsetof(struct launch, thread_steps)), steps);
	x86_load(b, true, x, SW(c.w));
	if (!race)
		x86_store(b, true, AT(y, offsetof(struct launch, cw)), x);
	/* t.g and c.w's last_pick: the turn's one group (the race forms wrote both, the same) */
	x86_load(b, true, steps, AT(x, offsetof(struct warp, groups)));
	x86_store(b, true, SW(t.g), steps);
	x86_store(b, true, AT(x, offsetof(struct warp, last_pick)), steps);
	/* s->ran: set where the turn is not the round's first (k 1: a round's end began it) */
	x86_load(b, true, y, SW(sw));
	x86_alu_mi(b, 7, false, AT(y, offsetof(struct sweep, k)), 1);
	size_t first = x86_jcc(b, 0x4);
	x86_mov_mi8(b, AT(y, offsetof(struct sweep, ran)), 1);
	x86_patch(b, first, b->len);
	x86_mov_mi64(b, mark(race), -1);
	x86_patch(b, none, b->len);
}

/* (a copy for each calm: the detector's settle writes less) */
void jit_hand_settle(struct xbuf *b)
{
	static const int scratch[4] = {X_RAX, X_RCX, X_RDX, X_RSI};
	/* c.regs, which the lazy hand-over leaves (begin): the turn's registers (R_REGS, as
	 * c.regs is outside the lazy form) */
	x86_store(b, true, SW(c.regs), R_REGS);
	x86_alu_mi(b, 7, false, SW(c.calm), SEG_CALM);
	size_t race = x86_jcc(b, 0x5);
	settle(b, scratch, false);
	size_t done = x86_jmp(b);
	x86_patch(b, race, b->len);
	x86_alu_mi(b, 7, false, SW(c.calm), SEG_CALM_RACE);
	size_t other = x86_jcc(b, 0x5);
	settle(b, scratch, true);
	x86_patch(b, other, b->len);
	x86_patch(b, done, b->len);
}

/* At a round's end, after count or count_lazy (rcx L, as they leave it): spin_stuck's
 * restart of the cluster's watch (round_tests: nothing else), unless it is off - L->writes
 * and L->epoch as they are now, its head (!L->jobs || L->is_head(L), the one call the code
 * makes here: r10, r11 and rdi kept around it; `alone` where L->jobs is known 0: the lazy
 * round's end, which round_end takes only then) */
static void restart(struct xbuf *b, bool alone_known)
{
	x86_load(b, true, X_R9, AT(X_R8, offsetof(struct sweep, cl)));
	x86_alu_m8i(b, 7, AT(X_R9, SPIN(off)), 0);
	size_t off = x86_jcc(b, 0x5);
	x86_load(b, true, X_RSI, AT(X_RCX, offsetof(struct launch, writes)));
	x86_store(b, true, AT(X_R9, SPIN(writes)), X_RSI);
	x86_load(b, true, X_RSI, AT(X_RCX, offsetof(struct launch, epoch)));
	x86_store(b, true, AT(X_R9, SPIN(epoch)), X_RSI);
	x86_mov_mi(b, AT(X_R9, SPIN(rounds)), 0);
	x86_mov_mi8(b, AT(X_R9, SPIN(head)), 1);
	if (alone_known) {
		x86_patch(b, off, b->len);
		return;
	}
	x86_alu_mi(b, 7, true, AT(X_RCX, offsetof(struct launch, jobs)), 0);
	size_t alone = x86_jcc(b, 0x4);
	static const int kept[4] = {X_R9, X_R10, X_R11, X_RDI};
	keep4(b, kept);
	x86_vzeroupper(b);
	x86_alu_rr(b, X86_MOV, true, X_RDI, X_RCX);
	x86_load(b, true, X_RAX, AT(X_RCX, offsetof(struct launch, is_head)));
	x86_call_r(b, X_RAX);
	unkeep4(b, kept);
	x86_alu_rr(b, X86_TEST8, false, X_RAX, X_RAX); /* (a bool: al only) */
	size_t head = x86_jcc(b, 0x5);
	x86_mov_mi8(b, AT(X_R9, SPIN(head)), 0);
	x86_patch(b, head, b->len);
	x86_patch(b, alone, b->len);
	x86_patch(b, off, b->len);
}

/* the turn and the context for the next warp's (r10, its group r11, its frame R_REGS; rdi
 * L->steps, one short where lazy without the detector: steps_less1): seg_hop_on's and
 * seg_ctx_warp's (calm: hmin 0), the code's registers as its entry loads them, then on at
 * its entry (`at`'s: next_entry; AT_DIRECT the jump to the entry after this bar.sync, kept
 * in H->jumps). Not stored: t.w, t.n_before and t.limit, and the sweep's w (count), which C
 * takes from c.w, c.end and c.n0 where it reads them (interp.c's seg_turn_settle); t.g in
 * the lazy form without the detector (count_lazy's last_pick: the settle's, c.w's one
 * group; the code reads t.g only in complete_tests' other forms); c.left and c.last (C
 * reads them only where the code stored them itself: before the hop's call and at its
 * exit); c.writes where count kept the bar.sync in it (`settle` false); and without the
 * detector (`race` false) hmin: in a call that is calm it is 0 throughout (seg_sweep's
 * first turn and every turn C begins in it: no stop, no event due), in R_HMIN and in c.hmin
 * alike. The lazy forms (count_lazy's) leave t.steps to the settle, and t.left and c.n0,
 * which the turn ending had too (seg_sweep.h's lz_base) - and, with the detector, hmin: the
 * hand-over that began the turn ending wrote 0 to both, and only C that settles first (a
 * hop's seg_ctx_warp) writes c.hmin again, only the hop's return R_HMIN. They leave c.regs
 * too, the frame's registers, which the code keeps in R_REGS and reads back only after the
 * hop's call, whose settle writes it from c.f (interp.c's seg_lazy_settle; the detector's
 * calls from the code read none of it); the generated settle's callers have the turn's in
 * R_REGS and store it (jit_hand_settle, the race lazy form's completion), or begin the next
 * turn in count's form, which stores it (a round's end). */
static void begin(struct hand *H, bool race, bool settle, bool lazy, int at)
{
	struct xbuf *b = H->b;
	if (race || !lazy)
		x86_store(b, true, SW(t.g), X_R11);
	if (!lazy) {
		x86_store(b, true, SW(t.steps), X_RDI);
		x86_mov_mi(b, SW(t.left), SWEEP_QUANTUM);
	}
	x86_store(b, true, SW(c.f), R_REGS);
	x86_load(b, true, R_REGS, AT(R_REGS, offsetof(struct frame, regs)));
	if (!lazy)
		x86_store(b, true, SW(c.regs), R_REGS);
	x86_mov_ri(b, R_LEFT, SWEEP_QUANTUM);
	if (race && !lazy) {
		x86_alu_rr(b, X86_XOR, false, R_HMIN, R_HMIN);
		x86_store(b, false, SW(c.hmin), R_HMIN);
	}
	x86_mov_ri(b, R_LAST, UINT32_MAX);
	if (settle)
		x86_mov_mi(b, SW(c.writes), 0);
	x86_mov_mi(b, SW(c.row), JIT_ROW_ASK);
	x86_store(b, true, SW(c.w), X_R10);
	x86_alu_ri(b, 0, true, X_RDI, SWEEP_QUANTUM + (lazy && !race)); /* (steps_less1) */
	x86_store(b, true, SW(c.end), X_RDI);
	if (!lazy)
		x86_mov_mi(b, SW(c.n0), SWEEP_QUANTUM);
	if (at != X_R9 && at != AT_DIRECT)
		x86_alu_rr(b, X86_MOV, true, X_R9, at);
	x86_load_ext(b, 1, false, R_SPLIT, AT(X_R10, offsetof(struct warp, split)));
	if (at != AT_DIRECT)
		x86_jmp_r(b, X_R9);
	else
		past(H);
}

/* The completing arrival's tests, loads only (seg_hop_done's seg_release_on, and
 * bar_release's plain case): w's one group the turn's, some budget left past the bar.sync,
 * no rule the release could break (a whole CTA's barrier whose waiters all parked at this
 * instruction), no bar.red's results to write, an entry right after the bar.sync (rdi; none
 * where H->direct: past). rax w, rcx its CTA; leaves rdx w's group. In the lazy form w's
 * group is the turn's one group without a look (tests()' argument: the hand-over that began
 * the turn found it whole, and only C, after a settle, splits it). In a countless kernel
 * the barrier's expected is 0 and its red flag clear throughout (countless: exec_bar, their
 * only writer, sets red only for bar.red, which names a count), so neither is looked at. */
static void complete_tests(struct hand *H, const struct dfunc *fn, uint32_t i, enum form form)
{
	struct xbuf *b = H->b;
	const struct dinsn *di = &fn->code[i];
	uint32_t id = (uint32_t)di->s[0].imm[0];
	x86_load(b, true, X_RDX, AT(X_RAX, offsetof(struct warp, groups)));
	if (form != FORM_LAZY) {
		x86_load(b, true, X_R8, SW(t.g));
		x86_alu_rr(b, X86_CMP, true, X_RDX, X_R8);
		fail_if(H, 0x5);
		x86_alu_mi(b, 7, true, AT(X_RDX, offsetof(struct group, next)), 0);
		fail_if(H, 0x5);
	}
	x86_alu_ri(b, 7, false, R_LEFT, 1);
	fail_if(H, 0x6);
	size_t counted = SIZE_MAX;
	if (!H->countless) {
		x86_load(b, false, X_R8, AT(X_RCX, BAR(id, expected)));
		x86_alu_rr(b, X86_TEST, false, X_R8, X_R8);
		counted = x86_jcc(b, 0x5);
	}
	fail_if_flag(H, AT(X_RCX, BAR(id, mixed)), 0x5);
	x86_load(b, true, X_R8, AT(X_RCX, BAR(id, first)));
	x86_alu_rr(b, X86_TEST, true, X_R8, X_R8);
	size_t none = x86_jcc(b, 0x4);
	x86_mov_ri64(b, X_R9, (uint64_t)(uintptr_t)di);
	x86_alu_rr(b, X86_CMP, true, X_R8, X_R9);
	fail_if(H, 0x5);
	x86_patch(b, none, b->len);
	if (!H->countless) {
		x86_patch(b, counted, b->len);
		fail_if_flag(H, AT(X_RCX, BAR(id, red)), 0x5);
	}
	if (H->direct) /* (the entry after the bar.sync: past() jumps to it) */
		return;
	x86_mov_ri64(b, X_RDI, (uint64_t)(uintptr_t)&di[1]);
	x86_load(b, true, X_RDI, AT(X_RDI, offsetof(struct dinsn, seg)));
	x86_alu_rr(b, X86_TEST, true, X_RDI, X_RDI);
	fail_if(H, 0x4);
}

/* bar_release's plain case for barrier id of the CTA rcx: every group of its warps parked
 * on it moves past its bar.sync, the barrier's state cleared (r9, r10, r11 and R_SCR
 * scratch). A group's state and wait_id are tested as one word. */
static void release(struct xbuf *b, uint32_t id)
{
	_Static_assert(sizeof(struct barstate) % 8 == 0, "barstate cleared in 8-byte words");
	_Static_assert(offsetof(struct group, wait_id) == offsetof(struct group, state) + 4 &&
			       sizeof(((struct group *)0)->state) == 4 &&
			       sizeof(((struct group *)0)->wait_id) == 4,
		       "a group's state and wait_id read as one 8-byte word");
	/* the warps walked by a negative offset r11 from the end r10, up to 0 (the add that
	 * steps it is the loop's test; a CTA has a warp at least) */
	x86_load(b, true, X_R10, AT(X_RCX, offsetof(struct cta, warps)));
	x86_load(b, false, X_R11, AT(X_RCX, offsetof(struct cta, nwarps)));
	x86_imul_rri(b, true, X_R11, X_R11, -(int32_t)sizeof(struct warp));
	x86_alu_rr(b, X86_SUB, true, X_R10, X_R11);
	x86_mov_ri64(b, R_SCR, (uint64_t)id << 32 | (uint32_t)G_BAR);
	size_t warp = b->len;
	x86_load(b, true, X_R9,
		 ((struct xmem){X_R10, X_R11, 1, (int32_t)offsetof(struct warp, groups)}));
	x86_alu_rr(b, X86_TEST, true, X_R9, X_R9);
	size_t none = x86_jcc(b, 0x4);
	size_t group = b->len;
	x86_alu_mr(b, X86_CMP, true, AT(X_R9, offsetof(struct group, state)), R_SCR);
	size_t other = x86_jcc(b, 0x5);
	x86_mov_mi(b, AT(X_R9, offsetof(struct group, state)), G_READY);
	x86_alu_mi(b, 0, false, AT(X_R9, offsetof(struct group, pc)), 1);
	x86_patch(b, other, b->len);
	/* (a warp's one group, the common case: its next tested in memory, not loaded) */
	x86_alu_mi(b, 7, true, AT(X_R9, offsetof(struct group, next)), 0);
	size_t last = x86_jcc(b, 0x4);
	x86_load(b, true, X_R9, AT(X_R9, offsetof(struct group, next)));
	x86_patch(b, x86_jmp(b), group);
	x86_patch(b, last, b->len);
	x86_patch(b, none, b->len);
	x86_alu_ri(b, 0, true, X_R11, (int32_t)sizeof(struct warp));
	x86_patch(b, x86_jcc(b, 0x5), warp);
	x86_alu_rr(b, X86_XOR, false, X_R9, X_R9); /* (r9 left zero: complete's) */
	for (size_t k = 0; k < sizeof(struct barstate); k += 8)
		x86_store(b, true, AT(X_RCX, BAR(id, arrived) + k), X_R9);
}

/* The detector's completion of barrier id of the CTA rcx (race_bar_complete, as
 * bar_release calls it first): rax, rcx, rdx and rdi kept around the call, r8 L again */
static void race_complete(struct xbuf *b, uint32_t id)
{
	static const int kept[4] = {X_RAX, X_RCX, X_RDX, X_RDI};
	keep4(b, kept);
	x86_vzeroupper(b);
	x86_alu_rr(b, X86_MOV, true, X_RDI, X_R8);
	x86_alu_rr(b, X86_MOV, true, X_RSI, X_RCX);
	x86_mov_ri(b, X_RDX, id);
	x86_mov_ri64(b, X_RAX, (uint64_t)(uintptr_t)race_bar_complete);
	x86_call_r(b, X_RAX);
	unkeep4(b, kept);
	x86_load(b, true, X_R8, SW(c.L));
}

/* The arrival of w (rax; rcx its CTA, rdx its group, rdi the entry after the bar.sync: past)
 * completes the barrier: seg_hop_done's writes (seg_hop_note's past the bar.sync,
 * bar_release's, seg_hop_release's), then on at the entry after the bar.sync, the same
 * warp's turn going on with one instruction less of its budget. With the detector
 * (race: its arrival deferred already, race_defer) seg_hop_race_done's instead: the
 * arrival made as seg_bar_wait makes it, w's group parked at the bar.sync (the
 * detector's completion looks for the waiters there where not every warp's arrival was
 * deferred), then race_bar_complete, and the release moves every waiter past it, w's
 * group with them: the same state as seg_hop_done's after it. (The lazy form's without
 * the detector: complete_lazy. The race lazy form's settles first - race_bar_complete is
 * C - and stores c.regs, which its hand-overs left: the turn goes on in the code with
 * lz_base cleared, so no later settle of this turn writes it.) */
static void complete(struct hand *H, const struct dinsn *di, uint32_t i, enum form form)
{
	struct xbuf *b = H->b;
	uint32_t id = (uint32_t)di->s[0].imm[0];
	bool race = form_race(form);
	if (form == FORM_RACE_LAZY) { /* (in the full forms the mark is SEG_LAZY_NONE) */
		static const int scratch[4] = {X_R8, X_R9, X_R10, X_R11};
		x86_store(b, true, SW(c.regs), R_REGS);
		settle(b, scratch, race);
	}
	x86_load(b, true, X_R8, SW(c.L));
	x86_load(b, false, X_R9, SW(c.writes));
	if (di->flags & DF_WRITES)
		x86_alu_ri(b, 0, false, X_R9, 1);
	add_mem(b, AT(X_R8, offsetof(struct launch, writes)), X_R9);
	if (race) /* (rdx: race_defer's scratch, the group reloaded) */
		arrive(b, di, i, false);
	else
		x86_mov_mi(b, AT(X_RDX, offsetof(struct group, pc)), i + 1);
	x86_load(b, true, X_R9, SW(c.end));
	x86_alu_rr(b, X86_SUB, true, X_R9, R_LEFT);
	x86_alu_ri(b, 0, true, X_R9, 1);
	x86_store(b, true, AT(X_R8, offsetof(struct launch, steps)), X_R9);
	x86_mov_ri64(b, X_RSI, (uint64_t)(uintptr_t)di);
	x86_store(b, true, AT(X_R8, offsetof(struct launch, ci)), X_RSI);
	x86_mov_mi(b, AT(X_R8, offsetof(struct launch, cmask)), FULL_MASK);
	if (race) {
		race_complete(b, id);
		x86_mov_ri64(b, X_RSI, (uint64_t)(uintptr_t)di);
	}
	release(b, id);
	x86_alu_mi(b, 0, true, AT(X_R8, offsetof(struct launch, epoch)), 1);
	/* the same group picked again at once (seg_hop_release: repicked's clock) */
	x86_alu_ri(b, 5, false, R_LEFT, 1);
	x86_store(b, false, AT(X_RAX, offsetof(struct warp, streak)), X_R9);
	x86_store(b, true, AT(X_RAX, offsetof(struct warp, last_pick)), X_RDX);
	x86_load(b, false, X_R10, SW(c.n0));
	x86_alu_rr(b, X86_SUB, false, X_R10, R_LEFT);
	x86_load(b, true, X_R11, SW(c.rp));
	x86_alu_rr(b, X86_MOV, false, X_RCX, X_R10);
	x86_load(b, false, X_RDX, AT(X_R11, offsetof(struct repick, n_clocked)));
	x86_alu_rr(b, X86_SUB, false, X_RCX, X_RDX);
	add_mem(b, AT(X_R8, offsetof(struct launch, clock)), X_RCX);
	x86_store(b, false, AT(X_R11, offsetof(struct repick, n_clocked)), X_R10);
	x86_store(b, false, SW(t.left), R_LEFT);
	x86_store(b, true, SW(t.last), X_RSI);
	x86_mov_mi(b, SW(t.lmask), FULL_MASK);
	x86_store(b, false, SW(c.left), R_LEFT);
	x86_mov_ri(b, R_LAST, i);
	x86_store(b, false, SW(c.last), R_LAST);
	x86_store(b, false, SW(c.writes), X_R9);
	past(H);
}

/* The completion in the lazy form without the detector (w's turn begun by the code's hand-over, lz_base set),
 * after complete_tests: complete()'s writes but those the lazy form leaves or has as they
 * are to be, so the lazy hand-overs go on past it (the completion does not settle):
 * - the repick's clock (L->clock += n, n_clocked = n, n the turn's instructions up to and
 *   with the bar.sync) and L->steps past the bar.sync are left to the settle, which finds
 *   n from t.left where t.steps marks the turn as the one running (written here: the turn's
 *   steps, c.end less SWEEP_QUANTUM; the lazy hand-overs write neither, so a later turn's
 *   t.steps is behind its own) - and the turn's end counts the whole turn as ever, the
 *   repick's count being 0 for the turns after (interp.c's seg_lazy_settle);
 * - L->cmask (FULL_MASK) and w's streak (0) are as the hand-over that began the turn left
 *   them (count_lazy, begin), and nothing since wrote them: C, after a settle, only; its
 *   last_pick and t.g, its one group, are the settle's (count_lazy, begin);
 * - the bar.sync's write stays in c.writes (count_writes' way: L->writes plus c.writes is
 *   L->writes; the round's end settles it);
 * - c.left and c.last: read only where the code stored them (the hop's call stores left,
 *   the exit both, from R_LEFT and R_LAST).
 * Written as complete() writes them: the group's pc past the bar.sync, L->ci, the release
 * and L->epoch (the spin watch's), t.left, t.last and t.lmask (seg_account reads them where
 * the code leaves with nothing run after this), R_LEFT and R_LAST. rax w, rcx its CTA, rdx
 * its group, rdi the entry after the bar.sync (none where H->direct: past). */
static void complete_lazy(struct hand *H, const struct dinsn *di, uint32_t i)
{
	struct xbuf *b = H->b;
	uint32_t id = (uint32_t)di->s[0].imm[0];
	if (di->flags & DF_WRITES)
		x86_alu_mi(b, 0, false, SW(c.writes), 1);
	x86_mov_mi(b, AT(X_RDX, offsetof(struct group, pc)), i + 1);
	x86_load(b, true, X_R8, SW(c.L));
	x86_mov_ri64(b, X_RSI, (uint64_t)(uintptr_t)di);
	x86_store(b, true, AT(X_R8, offsetof(struct launch, ci)), X_RSI);
	release(b, id);
	x86_alu_mi(b, 0, true, AT(X_R8, offsetof(struct launch, epoch)), 1);
	x86_alu_ri(b, 5, false, R_LEFT, 1);
	x86_store(b, false, SW(t.left), R_LEFT);
	x86_store(b, true, SW(t.last), X_RSI);
	x86_mov_mi(b, SW(t.lmask), FULL_MASK);
	x86_load(b, true, X_R9, SW(c.end));
	x86_alu_ri(b, 5, true, X_R9, SWEEP_QUANTUM);
	x86_store(b, true, SW(t.steps), X_R9);
	x86_mov_ri(b, R_LAST, i);
	past(H);
}

/* A round's end, after its tests (and the detector's deferred arrival, race_defer): in
 * the lazy forms (the turn ending begun by a hand-over of the code) the lazy writes where
 * restart calls no C (L->jobs 0), else the settle (the lazy forms' only: lz_base is not
 * set in the full ones) and count's, which begins the lazy hand-overs as an ordinary
 * hand-over's count does (s->ran cleared: seg_sweep.h's lz_base). The next warp's entry in
 * `at` (R_SPLIT, or AT_DIRECT: begin). */
static void round_end(struct hand *H, const struct dinsn *di, uint32_t i, enum form form, int at)
{
	struct xbuf *b = H->b;
	bool race = form_race(form);
	if (form_lazy(form)) {
		if (race) /* (else rdx is round_tests' L still) */
			x86_load(b, true, X_RDX, SW(c.L));
		x86_alu_mi(b, 7, true, AT(X_RDX, offsetof(struct launch, jobs)), 0);
		size_t jobs = x86_jcc(b, 0x5);
		arrive(b, di, i, false);
		count_lazy(b, di, true, race);
		restart(b, true);
		begin(H, race, true, true, at);
		x86_patch(b, jobs, b->len);
		if (steps_less1(form)) /* (count's L->steps and lz_base) */
			x86_alu_ri(b, 0, true, X_RDI, 1);
		static const int scratch[4] = {X_R9, X_RSI, X_RDX, R_SCR};
		settle(b, scratch, race);
	}
	arrive(b, di, i, false);
	count(b, di, true, true);
	restart(b, false);
	x86_store(b, true, mark(race), X_RDI);
	begin(H, race, true, false, at);
}

/* The hand-over's writes past its tests (round: a round's end), and the jump to the next
 * warp's entry (`at`: begin's) */
static void hand_on(struct hand *H, const struct dinsn *di, uint32_t i, enum form form,
		    bool round, int at)
{
	struct xbuf *b = H->b;
	bool race = form_race(form), lazy = form_lazy(form);
	if (race)
		race_defer(H, di, lazy);
	/* (rdx is still w's group but where round_tests or race_defer took it; the writes
	 * are settled where restart may read L->writes: the detector reads none of them, nor
	 * L->writes) */
	if (round) {
		round_end(H, di, i, form, at);
		return;
	}
	arrive(b, di, i, !race);
	/* the ordinary hand-over: the lazy forms' writes, else count's, which begins the lazy
	 * hand-overs */
	if (lazy) {
		count_lazy(b, di, false, race);
		begin(H, race, false, true, at);
	} else {
		count(b, di, false, false);
		x86_store(b, true, mark(race), X_RDI);
		begin(H, race, false, false, at);
	}
}

/* One form of the hand-over, from its tests to the jumps to the next warp's entry, and the
 * completing arrival (with the detector: its deferred arrival, after every test; the
 * round's end is seg_hop_calm's in every form: seg_hop_race_calm ends a round as
 * seg_hop_calm does, sweep.h has nothing of the detector). */
static void hand(struct hand *H, const struct dfunc *fn, uint32_t i, enum form form)
{
	struct xbuf *b = H->b;
	const struct dinsn *di = &fn->code[i];
	bool race = form_race(form), lazy = form_lazy(form);
	tests(H, fn, i, form);
	for (int round = 0; round < 2; round++) {
		if (round) {
			x86_patch(b, H->round, b->len);
			round_tests(H, di);
		} else {
			next_in_round(b);
		}
		next_tests(H, fn);
		/* The next warp's group whole at the entry right after this bar.sync (pc
		 * i + 1: in lockstep, the warps released from this barrier), the common case,
		 * tested in one compare of the group's mask and pc (r9 scratch): a jump
		 * straight to that entry, which next_entry's look-up would find
		 * (fn->code[i + 1].seg, its seg_bar set: code[i] is a bar.sync, jit.c), in a
		 * copy of the writes of its own. */
		if (H->direct) {
			_Static_assert(offsetof(struct group, pc) ==
					       offsetof(struct group, mask) + 4 &&
					       sizeof(((struct group *)0)->mask) == 4,
				       "a group's mask and pc read as one 8-byte word");
			x86_mov_ri64(b, X_R9, (uint64_t)(i + 1) << 32 | FULL_MASK);
			x86_alu_rm(b, X86_CMP, true, X_R9,
				   AT(X_R11, offsetof(struct group, mask)));
			size_t other = x86_jcc(b, 0x5);
			hand_on(H, di, i, form, round, AT_DIRECT);
			x86_patch(b, other, b->len);
		}
		/* (the entry in r9 only where nothing takes r9 before begin: race_defer does) */
		int at = lazy && !race && !round ? X_R9 : R_SPLIT;
		next_entry(H, fn, at);
		hand_on(H, di, i, form, round, at);
	}
	x86_patch(b, H->done, b->len);
	if (i + 1 < fn->ncode) {
		complete_tests(H, fn, i, form);
		if (race) /* (rdx, w's group, taken again after it) */
			race_defer(H, di, lazy);
		if (form == FORM_LAZY)
			complete_lazy(H, di, i);
		else
			complete(H, di, i, form);
	} else {
		fail_at(H, x86_jmp(b));
	}
}

/* The hand-over's four forms, chosen by the call's calm and by its mark (each in a copy of
 * its own: a form pays no test of another's); any test failing falls through to the hop's
 * call that follows. */
unsigned jit_hand_gen(struct xbuf *b, const struct dfunc *fn, uint32_t i, bool direct,
		      size_t jumps[JIT_HAND_JUMPS])
{
	bool closed = closed_kernel(fn);
	struct hand H = {.b = b, .closed = closed, .countless = closed && countless(fn),
			 .direct = direct, .jumps = jumps};
	size_t start = b->len;
	/* (lz_base set: the lazy form without the detector, its call's calm SEG_CALM, as only
	 * FORM_FULL and FORM_LAZY set it, seg_sweep.h) */
	x86_alu_mi(b, 7, true, SW(lz_base), -1);
	size_t lazy = x86_jcc(b, 0x5);
	x86_alu_mi(b, 7, false, SW(c.calm), SEG_CALM);
	size_t race = x86_jcc(b, 0x5);
	hand(&H, fn, i, FORM_FULL);
	x86_patch(b, lazy, b->len);
	hand(&H, fn, i, FORM_LAZY);
	x86_patch(b, race, b->len);
	x86_alu_mi(b, 7, false, SW(c.calm), SEG_CALM_RACE);
	fail_if(&H, 0x5);
	x86_alu_mi(b, 7, true, SW(lz_race), -1);
	size_t race_lazy = x86_jcc(b, 0x5);
	hand(&H, fn, i, FORM_RACE);
	x86_patch(b, race_lazy, b->len);
	hand(&H, fn, i, FORM_RACE_LAZY);
	if (H.full) { /* (a test added past fail's room: no hand-over, the hop's call) */
		b->len = start;
		return 0;
	}
	for (unsigned k = 0; k < H.nfail; k++)
		x86_patch(b, H.fail[k], b->len);
	return H.njumps;
}
