/*
 * operand.h - reading and writing one lane of a decoded operand (operand.c): registers,
 * immediates, special registers, addresses. Every handler uses it; it uses only the launch
 * state, so that it sits below them all.
 */
#ifndef PTXI_OPERAND_H
#define PTXI_OPERAND_H

#include <stddef.h>
#include <stdint.h>

#include "launch.h"

/* The lane array of register slot `slot` of frame f. */
static inline uint64_t *slot_ptr(struct frame *f, uint32_t slot)
{
	return f->regs + (size_t)slot * LANES;
}
/* One value v into the lanes of mask of lane array d (a whole warp: a plain loop). */
static inline void lanes_fill(uint64_t *d, uint64_t v, uint32_t mask)
{
	if (mask == 0xffffffffu) {
		for (uint32_t l = 0; l < LANES; l++)
			d[l] = v;
		return;
	}
	for (uint32_t m = mask; m; m &= m - 1)
		d[__builtin_ctz(m)] = v;
}
/* One lane's value of a source operand (register, immediate, special register), and of an
 * address operand (base register + offset, or a variable's address). */
uint64_t op_read(struct launch *L, struct warp *w, struct frame *f, const struct dop *o,
		 uint32_t lane);
uint64_t op_addr(struct launch *L, struct warp *w, struct frame *f, const struct dop *o,
		 uint32_t lane);
/* A special register operand's value (op_read's) in each lane of mask, into v[lane]. */
void op_sreg_lanes(struct launch *L, struct warp *w, const struct dop *o, uint32_t mask,
		   uint64_t *v);
/* Write one lane of a destination operand (no-op for a sink). */
static inline void op_write(struct frame *f, const struct dop *o, uint32_t lane, uint64_t v)
{
	if (o->kind == DOP_REG)
		f->regs[(size_t)o->slot * LANES + lane] = v;
}

#endif
