/*
 * interp.h - the dispatch loop (interp.c): runs a group of a warp's lanes instruction by
 * instruction. Operands are operand.h, call frames frame.h, --trace output trace.h; the
 * decoded program is prog.h, the launch's state launch.h.
 */
#ifndef PTXI_INTERP_H
#define PTXI_INTERP_H

#include <stdint.h>

#include "launch.h"

struct sweep;
/* Run one group of `w` until it blocks, exits, diverges into a lower pc, or `budget`
 * instructions ran. Returns the number of instructions executed. With `sw` (the
 * scheduler's round, sweep.h), a warp's one group parked at a CTA barrier goes on with the
 * round's next warp (or the next round's first) where the scheduler would run it at once:
 * then sw->w is the warp whose instructions the answer counts (sw->crossed: in a later
 * round). */
uint32_t interp_run_group(struct launch *L, struct warp *w, struct group *g, uint32_t budget,
			  struct sweep *sw);

/* Land what is due at or before step `now` on the asynchronous clock: the copies (async.c),
 * then the seeded wgmma completions (exec_wgmma.c), which share L->async.next_due. */
void interp_land_due(struct launch *L, uint64_t now);

/* Mark an instruction whose handler the dispatch loop's direct path may call (the loader,
 * once its handler is final). */
void interp_mark_direct(struct dinsn *di);

#endif
