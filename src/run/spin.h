/*
 * spin.h - spotting warps that spin on memory nobody will change (spin.c).
 */
#ifndef PTXI_SPIN_H
#define PTXI_SPIN_H

#include <stdbool.h>
#include <stdint.h>

struct launch;
struct cluster;
struct spin_watch;              /* launch.h */

/* After each scheduling round of cluster cl: true when every unfinished warp has come back
 * to an earlier state while nothing changed memory, barriers or mbarriers, and nothing
 * asynchronous is in flight - no warp can make progress again. */
bool spin_stuck(struct launch *L, struct cluster *cl, struct spin_watch *s);
/* Whether spin_stuck, called now, answers false without looking at a warp: the watch is
 * off or not made yet, or the stretch since it began was not quiet (an instruction that
 * writes ran, a barrier completed: spin_stuck then begins it anew). Nothing done (the CTA
 * sweep asks before it ends a round, where the arrival that ended the round was such an
 * instruction: sweep.h). */
bool spin_busy(const struct launch *L, const struct cluster *cl, const struct spin_watch *s);
/* The end of a cluster's watch: its buffers kept in L for the next cluster's. */
void spin_free(struct launch *L, struct spin_watch *s);
/* The end of the launch: the buffers kept freed. */
void spin_end(struct launch *L);
/* Whether instruction op may write memory or make output (the loader's DF_WRITES): every
 * instruction but those known to read only. Counting too many only keeps the watch off. */
bool spin_op_writes(int op);

#endif
