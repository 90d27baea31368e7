/*
 * srcloc.h - what a run-time report says about where it happened in the user's terms: the
 * CUDA/Triton source position of the instruction (.file/.loc, with its inlined-at chain and
 * function names from .debug_str), the function, and variables by their C++ names.
 */
#ifndef PTXI_SRCLOC_H
#define PTXI_SRCLOC_H

#include "support/diag.h"
#include "run/prog.h"

/* Emit a report at instruction `in` (NULL: no location) of function `fn` (NULL: unknown).
 * With a .loc it leads with the source position, the source line when the file can be read,
 * the function and the inlined-at chain, and keeps the PTX position as a note; without, it
 * is reported at the PTX line as before. */
void srcloc_emit(struct diag *d, enum diag_level level, struct src_file *ptx,
		 const struct ir_module *m, const struct ir_insn *in, const struct dfunc *fn,
		 const char *notes, const char *msg);

/* The decoded function that holds instruction di (NULL if none). */
const struct dfunc *srcloc_func_of(const struct dprog *P, const struct dinsn *di);

/* A variable and an offset into it as the source names it, quoted: 'empty[1]' for byte 8
 * of a function-local static array of 8-byte elements (`unit` gives the element size when
 * the PTX declares bytes, as nvcc does for arrays of structs), 'bar+4' otherwise. */
void srcloc_var(const struct ir_sym *s, uint32_t within, uint32_t unit, struct strbuf *b);

/* The shared variable (of the module or of any function body) that holds shared offset
 * `off`, and `off`'s place in it; NULL if none. */
const struct ir_sym *srcloc_shared_var(const struct dprog *P, uint32_t off, uint32_t *within);

#endif
