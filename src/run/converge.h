/*
 * converge.h - one model of convergence for every .aligned instruction (converge.c): bar /
 * barrier, barrier.cluster .aligned, wgmma.*, setmaxnreg, the .sync.aligned matrix
 * instructions. The warp's non-exited lanes that have not reached it must all be able to
 * reach the same instruction: those on their way are waited for, those that pass it by are
 * reported.
 */
#ifndef PTXI_CONVERGE_H
#define PTXI_CONVERGE_H

#include <stdbool.h>
#include <stdint.h>

#include "launch.h"
#include "prog.h"

/* Whether di must be executed by the whole warp together (.aligned, or bar.*). */
bool converge_needed(const struct dinsn *di);

/* Group g, whose lanes `mask` (the guard's) reach aligned instruction di. Returns true when
 * the handler may run: every non-exited lane of the warp is here, or the lanes that pass it
 * by were reported and the launch goes on (--keep-going). Returns false when g parked
 * (G_WARPSYNC) to wait for lanes still on their way to di, or the launch stops. */
bool converge_aligned(struct launch *L, struct warp *w, struct group *g, const struct dinsn *di,
		      uint32_t mask);

#endif
