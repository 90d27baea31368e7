/*
 * jit_vs.h - a region's steps (jit_seg.c's gen_region: a divergent branch's split not made,
 * interp.c's vsplit) made by the segment code itself, without a call of C: the split's
 * beginning, the pick of the group again after an access, and the merge at the target -
 * exactly what interp.c's vsplit_begin, repicked and vsplit_join write there (jit_vs.c).
 */
#ifndef PTXI_JIT_VS_H
#define PTXI_JIT_VS_H

#include <stdint.h>

#include "jit_x86.h"
#include "prog.h"

/* The beginning of branch fn->code[i]'s region, `picks` the group's picks in it, r13d the
 * budget before the branch: the tests vsplit_fits left to run time (no asynchronous event,
 * the context's warp's one group its last pick, the fairness streak holding every pick),
 * each a jump returned in fail[0..3] (nothing written), then the split begun: the guard's
 * lanes taken, the group's mask the others (the context's vmask; lmask the taken ones),
 * the streak and the counts as vsplit_begin leaves them (its clock left to the next pick
 * or jit_vs_clock). */
void jit_vs_begin(struct xbuf *b, const struct dfunc *fn, uint32_t i, uint32_t picks,
		  size_t fail[4]);

/* After a region's access made by the code, r13d the budget before it: the group picked
 * again (the streak; repicked's clock left to the next pick or jit_vs_clock), or, where the access is the last instruction
 * before the target (`merge`), the lanes merged (vsplit_join). */
void jit_vs_picked(struct xbuf *b, bool merge);

/* Before a region's access left to C, r13d the budget before it, `back` instructions past
 * the last pick (the previous access's, or the branch's): repicked's clock of that pick,
 * which jit_vs_picked leaves to the next (where C made it, this moves the clock by 0). */
void jit_vs_clock(struct xbuf *b, uint32_t back);

/* At the target after a block, r13d the budget after it: the lanes merged (vsplit_join). */
void jit_vs_join(struct xbuf *b);

#endif
