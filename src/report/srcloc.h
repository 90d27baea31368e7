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

/* Whether a source path is a library's, not the user's: under a system, CUDA toolkit,
 * cccl, CUTLASS/CuTe, Thrust or CUB include directory. */
bool srcloc_is_library(const char *path);

/* The frame of l's chain (l and its inlined-at positions) a report leads with: the
 * innermost in the user's own files, else l; NULL when l is. */
const struct ir_loc *srcloc_user_loc(const struct ir_module *m, const struct ir_loc *l);

/* Open the source file of .file index `file` (as named, else beside the PTX); false when
 * it cannot be read. The caller frees f with src_file_free. */
bool srcloc_open_source(const struct ir_module *m, uint32_t file, struct src_file *f);

/* "parameter 1 'scale' (float)": parameter i of kernel f by its index, its name as the
 * source declares it (when the kernel's .loc leads to a readable source), its C++ type
 * (demangled) or else its PTX type ("parameter 1 (.f32)"). srcparams.c. */
void srcloc_param(const struct ir_module *m, const struct ir_func *f, uint32_t i,
		  struct strbuf *b);

/* The kernel's name as the user reads it: demangled, else as written. */
void srcloc_kernel(const struct ir_func *f, struct strbuf *b);

/* Whether the module's .file table names source `file` (a path or its end). */
bool srcloc_names_file(const struct ir_module *m, const char *file);

/* Whether any frame of l's chain lies in lines first..last of source `file` (a .file path
 * or its end: "k.cu" matches "/src/k.cu"): --trace-lines k.cu:A-B. */
bool srcloc_in_lines(const struct ir_module *m, const struct ir_loc *l, const char *file,
		     uint32_t first, uint32_t last);

/* "from k.cu:10:5 in 'f'\n": the lead frame of l, a note under a report at the PTX line
 * (a static check); `outer` names the function the PTX holds it in; nothing when l has no source position. */
void srcloc_from_note(const struct ir_module *m, const struct ir_loc *l, const char *outer,
		      struct strbuf *b);

/* "k.cu:34": the lead frame's file (its last component) and line, for one-line output
 * (--trace, the timeline); false (nothing written) when l has no source position. */
bool srcloc_short_pos(const struct ir_module *m, const struct ir_loc *l, struct strbuf *b);

/* The decoded function that holds instruction di (NULL if none). */
const struct dfunc *srcloc_func_of(const struct dprog *P, const struct dinsn *di);

/* A variable and an offset into it as the source names it, quoted: 'empty[1]' for byte 8
 * of a function-local static array of 8-byte elements (`unit` gives the element size when
 * the PTX declares bytes, as nvcc does for arrays of structs), 'bar+4' otherwise. */
void srcloc_var(const struct ir_sym *s, uint32_t within, uint32_t unit, struct strbuf *b);

/* A variable's name as the source spells it: demangled, a function's static without the
 * function ("tile" of _ZZ5scalePffiE4tile). */
void srcloc_var_name(const struct ir_sym *s, struct strbuf *b);

/* The shared variable of kernel k's CTA (shared_layout.h) that holds shared offset `off`,
 * and `off`'s place in it; NULL if none. */
const struct ir_sym *srcloc_shared_var(const struct dfunc *k, uint32_t off, uint32_t *within);

#endif
