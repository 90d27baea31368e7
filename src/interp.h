/*
 * interp.h - the dispatch loop and what handlers share with it: running a group of a warp
 * (interp_run_group), reading and writing one lane of an operand, call arguments, and trace
 * lines. The decoded program is prog.h, the launch's state launch.h.
 */
#ifndef PTXI_INTERP_H
#define PTXI_INTERP_H

#include <stdbool.h>
#include <stdint.h>

#include "launch.h"

/* Run one group of `w` until it blocks, exits, diverges into a lower pc, or `budget`
 * instructions ran. Returns the number of instructions executed. */
uint32_t interp_run_group(struct launch *L, struct warp *w, struct group *g, uint32_t budget);
uint64_t *slot_ptr(struct frame *f, uint32_t slot);
uint32_t popcount32(uint32_t m);
/* One lane's value of a source operand (register, immediate, special register), and of an
 * address operand (base register + offset, or a variable's address). */
uint64_t op_read(struct launch *L, struct warp *w, struct frame *f, const struct dop *o,
		 uint32_t lane);
uint64_t op_addr(struct launch *L, struct warp *w, struct frame *f, const struct dop *o,
		 uint32_t lane);
/* Argument i of call di of `callee` for one lane (at most 8 bytes), and the write of its
 * first result (external calls run by the device runtime, devrt.c). */
uint64_t call_arg(struct launch *L, struct warp *w, struct frame *f, const struct dinsn *di,
		  const struct dfunc *callee, uint32_t i, uint32_t lane);
void call_result(struct frame *f, const struct dinsn *di, const struct dfunc *callee,
		 uint32_t lane, uint64_t v);
/* Write one lane of a destination operand (no-op for a sink). */
void op_write(struct frame *f, const struct dop *o, uint32_t lane, uint64_t v);
/* Trace line (--trace): "file:line: CTA .. threads ..: text". */
void trace_line(struct launch *L, struct warp *w, uint32_t lanes, const char *text);

/* Whether a call operand (argument or result slot) fits the callee's declared parameter:
 * a .param variable of the same size (as ptxas demands), or one value of at most 8 bytes
 * (16 for a .b128 register). */
bool call_operand_fits(const struct dop *o, const struct ir_sym *formal);
/* Charge `bytes` of the launch's own memory; past --max-memory, reports (status 2, naming
 * `what`) and returns false. */
bool launch_charge(struct launch *L, uint64_t bytes, const char *what);

#endif
