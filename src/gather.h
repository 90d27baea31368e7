/*
 * gather.h - one report per bug (gather.c): breaks of a rule gathered across threads, the
 * closing count of errors by kind.
 */
#ifndef PTXI_GATHER_H
#define PTXI_GATHER_H

#include "launch.h"

/* A break of the rule named `rule` by `lanes` of the current warp at the current
 * instruction, with its message and the notes that follow the threads line. Joins the open
 * report when that one is of the same rule and instruction and these threads are not in it
 * yet. */
void gather_rule(struct launch *L, const char *rule, uint32_t lanes, const char *notes,
		 const char *msg);
/* Emit the open report (before anything else is reported or traced). */
void gather_flush(struct launch *L);
/* Count one error of `kind` (a rule name, "deadlock", ...) for the closing line. */
void gather_count(struct launch *L, const char *kind);
/* Flush, then "ptxi: 3 errors: async-copy-race 2, deadlock 1" when there were any. */
void gather_summary(struct launch *L);
void gather_free(struct launch *L);

#endif
