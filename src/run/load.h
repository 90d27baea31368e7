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

#endif
