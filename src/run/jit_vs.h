/*
 * jit_vs.h - a region's steps (jit_seg.c's gen_region: a divergent branch's split not made,
 * interp.c's vsplit) made by the segment code itself, without a call of C: the split's
 * beginning, the pick of the group again after an access, and the merge at the target -
 * exactly what interp.c's vsplit_begin, repicked and vsplit_join write there (jit_vs.c).
 */
#ifndef PTXI_JIT_VS_H
#define PTXI_JIT_VS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "jit_x86.h"
#include "prog.h"

/* A region as the code makes it: branch fn->code[i]'s, `picks` the group's picks in it
 * (jit_seg.c's region_picks); `lazy` (jit_vs_lazy) where a calm call's lazy hand-overs'
 * writes may stand through it; `split` where w's flag is marked split at its beginning (as
 * vsplit_begin marks it; the warp merged at the end), else only where C takes an access in
 * it: the uniform registers' facts (jit_uni.h) hold on past it (jit_seg.c's region_whole). */
struct jit_vs_region {
	const struct dfunc *fn;
	uint32_t i, picks;
	bool lazy, split;
};

/* Whether branch fn->code[i]'s region may merge lazily: its last instruction unguarded, so
 * that its mask is the region's for seg_account (jit_vs.c's head). */
bool jit_vs_lazy(const struct dfunc *fn, uint32_t i);

/* The beginning of region r, r13d the budget before the branch: the tests vsplit_fits left
 * to run time (no asynchronous event, the context's warp's one group its last pick, the
 * fairness streak holding every pick), each a jump returned in fail[0..3] (nothing
 * written); rsi left the context's warp, rdi its group, r9 untouched. */
void jit_vs_tests(struct xbuf *b, const struct jit_vs_region *r, size_t fail[4]);

/* edx = the lanes the branch takes: its guard's lanes in the frame (negated where it is) */
void jit_vs_guard(struct xbuf *b, const struct jit_vs_region *r);

/* After jit_vs_tests (rsi, rdi as it leaves them) and edx the lanes the branch takes, r13d
 * the budget before the branch: the split begun - the group's mask the other lanes (the
 * context's vmask; lmask the taken ones), the streak and the counts as vsplit_begin leaves
 * them (its clock left to the next pick or jit_vs_clock). */
void jit_vs_split(struct xbuf *b, const struct jit_vs_region *r);

/* After an access of region r made by the code, r13d the budget before it: the group picked
 * again (the streak; repicked's clock left to the next pick or jit_vs_clock), or, where the
 * access is the last instruction before the target (`merged`), the lanes merged
 * (vsplit_join). */
void jit_vs_picked(struct xbuf *b, const struct jit_vs_region *r, bool merged);

/* Before an access of region r left to C, r13d the budget before it, `back` instructions
 * past the last pick (the previous access's, or the branch's): the lazy hand-overs' writes
 * settled (where jit_vs_begin left them) and the split marked (where it did not), then
 * repicked's clock of that pick, which jit_vs_picked leaves to the next (where C made it,
 * this moves the clock by 0). */
void jit_vs_clock(struct xbuf *b, const struct jit_vs_region *r, uint32_t back);

/* At region r's target after a block, r13d the budget after it: the lanes merged
 * (vsplit_join). */
void jit_vs_join(struct xbuf *b, const struct jit_vs_region *r);

#endif
