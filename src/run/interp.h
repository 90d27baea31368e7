/*
 * interp.h - the dispatch loop (interp.c): runs a group of a warp's lanes instruction by
 * instruction. Operands are operand.h, call frames frame.h, --trace output trace.h; the
 * decoded program is prog.h, the launch's state launch.h.
 */
#ifndef PTXI_INTERP_H
#define PTXI_INTERP_H

#include <stdint.h>

#include "launch.h"

/* Run one group of `w` until it blocks, exits, diverges into a lower pc, or `budget`
 * instructions ran. Returns the number of instructions executed. */
uint32_t interp_run_group(struct launch *L, struct warp *w, struct group *g, uint32_t budget);

#endif
