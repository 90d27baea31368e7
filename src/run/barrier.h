/*
 * barrier.h - the completion of CTA barriers (bar / barrier) and of the cluster barrier
 * (barrier.c): when the last thread a barrier waits for arrives (exec_warp.c) or exits
 * (group.c), its waiters are released. Below both, so neither calls the other.
 */
#ifndef PTXI_BARRIER_H
#define PTXI_BARRIER_H

#include <stdbool.h>
#include <stdint.h>

#include "launch.h"

/* bar.sync, bar.arrive and bar.red are the .aligned forms of barrier.sync/arrive/red
 * (ISA 9.7.13.1): every non-exited thread of the warp must execute the same instance. */
static inline bool is_aligned_bar(const struct dinsn *di)
{
	enum ir_op op = (enum ir_op)di->op;
	return op == OP_BAR_SYNC || op == OP_BAR_ARRIVE || op == OP_BAR_RED ||
	       (di->flags & DF_ALIGNED);
}

/* A waiter of an aligned form parks at barrier b at di: what check_same_instruction
 * (barrier.c) would find at the barrier's completion, noted as the waiters come. */
static inline void bar_note_first(struct barstate *b, const struct dinsn *di)
{
	if (!b->first)
		b->first = di;
	else if (b->first != di)
		b->mixed = true;
}

/* bar.sync (or barrier.sync.aligned) of a constant barrier, 0-15, with no thread count: the
 * arrival the segment runner and the CTA sweep make inline (interp.c, jit_seg.c). */
static inline bool bar_sync_const(const struct dinsn *di)
{
	const struct dop *ido = &di->s[0];
	return (di->op == OP_BAR_SYNC || di->op == OP_BARRIER_SYNC) && di->nsrc == 1 &&
	       ido->kind == DOP_IMM && !ido->neg && ido->imm[0] <= 15 && is_aligned_bar(di);
}

/* Barrier id of c completed: release its waiters (bar_check). */
void bar_release(struct launch *L, struct cta *c, uint32_t id);
/* A barrier may have completed (arrivals, or threads exited): release its waiters. */
static inline void bar_check(struct launch *L, struct cta *c, uint32_t id)
{
	const struct barstate *b = &c->bar[id];
	if (b->arrived && b->arrived >= (b->expected ? b->expected : c->live_threads))
		bar_release(L, c, id);
}
void cluster_bar_check(struct launch *L, struct cluster *cl);

#endif
