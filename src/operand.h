/*
 * operand.h - reading and writing one lane of a decoded operand (operand.c): registers,
 * immediates, special registers, addresses. Every handler uses it; it uses only the launch
 * state, so that it sits below them all.
 */
#ifndef PTXI_OPERAND_H
#define PTXI_OPERAND_H

#include <stdint.h>

#include "launch.h"

/* The lane array of register slot `slot` of frame f. */
uint64_t *slot_ptr(struct frame *f, uint32_t slot);
/* One lane's value of a source operand (register, immediate, special register), and of an
 * address operand (base register + offset, or a variable's address). */
uint64_t op_read(struct launch *L, struct warp *w, struct frame *f, const struct dop *o,
		 uint32_t lane);
uint64_t op_addr(struct launch *L, struct warp *w, struct frame *f, const struct dop *o,
		 uint32_t lane);
/* Write one lane of a destination operand (no-op for a sink). */
void op_write(struct frame *f, const struct dop *o, uint32_t lane, uint64_t v);

#endif
