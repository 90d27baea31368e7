/*
 * check.h - static legality of a parsed module, as ptxas judges it: which qualifiers an
 * opcode takes and in which combinations, operand counts and kinds, and the minimum PTX ISA
 * version and target of every feature. Rules live in checkrules.def; check*.c apply them.
 */
#ifndef PTXI_CHECK_H
#define PTXI_CHECK_H

#include "front/ir.h"

/* Check every instruction of `m` (parsed without errors). Reports through m->diag: errors for
 * what ptxas rejects, warnings for what the manual forbids but ptxas lets pass. Returns the
 * number of errors reported. */
int check_module(struct ir_module *m);

/* The same, a function at a time, as the parser closes each body (ir_hooks.func_done):
 * check_begin checks .version/.target and must see them parsed already (they open every
 * module), check_func checks one body, check_end frees and returns the errors reported. */
struct ck;
struct ck *check_begin(struct ir_module *m);
/* The user's source position of an instruction's .loc as a note ("from k.cu:10:5 in 'f'"),
 * appended to b: given by the layer above (report/srcloc.c), which knows the source files. */
struct ir_loc;
struct strbuf;
typedef void check_loc_note_fn(const struct ir_module *m, const struct ir_loc *l,
			       const char *func, struct strbuf *b);
void check_set_loc_note(struct ck *c, check_loc_note_fn *fn);
void check_func(struct ck *c, const struct ir_func *f);
int check_end(struct ck *c);

#endif
