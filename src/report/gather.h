/*
 * gather.h - one report per bug (gather.c): breaks of a rule gathered across threads, the
 * closing count of errors by kind.
 */
#ifndef PTXI_GATHER_H
#define PTXI_GATHER_H

#include <stdio.h>

#include "gather_log.h"
#include "run/launch.h"

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
/* Errors counted so far (ptxi debug stops at each new one; ptxi exec counts them). */
uint32_t gather_total(const struct launch *L);
/* Flush, then "ptxi: 3 errors: async-copy-race 2, deadlock 1" when there were any. */
void gather_summary(struct launch *L);
void gather_free(struct launch *L);
/* The break of `rule` at `di` by the threads of `h` (gather_rule's work, for a replay). */
void gather_hit(struct launch *L, const char *rule, const struct dinsn *di,
		const struct gather_hit *h, const char *notes, const char *msg);
/* --jobs: replay a cluster's log (gather_log.h) onto L (its report and diagnostics; the
 * printf output to `out`), then free it. */
void gather_log_replay(struct launch *L, struct gather_log *g, FILE *out);
/* The same for what the log holds so far, which it then drops: the cluster runs on, its
 * later entries replayed after these (a cluster whose earlier ones are all shown). */
void gather_log_drain(struct launch *L, struct gather_log *g, FILE *out);
/* Show the cluster's printf output up to byte `to` (a gather_between_fn, before a report). */
void gather_log_put_out(struct gather_log *g, FILE *out, size_t to);


#endif
