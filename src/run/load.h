/*
 * load.h - the loader: a checked IR module becomes a decoded program (prog.h). Operands are
 * resolved to register slots, labels to instruction indices, and .shared/.global/.const
 * variables are laid out; each instruction's executor is picked once, here.
 */
#ifndef PTXI_LOAD_H
#define PTXI_LOAD_H

#include "prog.h"

/* Build a decoded program; reports unsupported features through m->diag. Returns NULL on
 * error. */
struct dprog *load_program(struct ir_module *m);
/* The same with the module's .global block at `global_base` (load_program: GLOBAL_BASE, the
 * first allocation of a launch's own memory; ptxi exec: where device memory has room). */
struct dprog *load_program_at(struct ir_module *m, uint64_t global_base);

#endif
