/*
 * gather.h - one report per bug (gather.c): breaks of a rule gathered across threads, the
 * closing count of errors by kind.
 */
#ifndef PTXI_GATHER_H
#define PTXI_GATHER_H

#include <stdio.h>

#include "run/launch.h"

/* Lanes of one warp that broke a rule; CTAs by value, as a cluster's CTAs are gone before
 * the report is. */
struct gather_hit {
	uint32_t cta;               /* linear index in the grid */
	uint32_t ctaid[3], rank;
	uint32_t warp, lanes;
};

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
/* The errors the launch's report holds so far. */
unsigned gather_total(const struct launch *L);
void gather_free(struct launch *L);
/* The break of `rule` at `di` by the threads of `h` (gather_rule's work, for a replay). */
void gather_hit(struct launch *L, const char *rule, const struct dinsn *di,
		const struct gather_hit *h, const char *notes, const char *msg);

/*
 * --jobs (gather_log.c): a cluster run on a worker thread keeps its reports in a log
 * (L->log) instead of making them: each gather_rule, gather_flush and gather_count, and
 * each diagnostic (the cluster's diag sink is gather_log_sink, or its record function
 * gather_log_record when reports are data), becomes an entry, with the device printf
 * output written so far (gather_log_out). gather_log_replay runs the entries
 * on the launch in cluster order, so that reports are gathered and shown as with one thread.
 */
struct gather_log;
struct gather_log *gather_log_new(void);
FILE *gather_log_out(struct gather_log *g);
void gather_log_sink(void *ctx, enum diag_level level, const char *text);
void gather_log_record(void *ctx, const struct diag_record *r);
void gather_log_rule(struct gather_log *g, const char *rule, const struct dinsn *di,
		     const struct gather_hit *h, const char *notes, const char *msg);
void gather_log_flush(struct gather_log *g);
void gather_log_count(struct gather_log *g, const char *kind);
/* Replay onto L (its report and diagnostics; the printf output to `out`), then free. */
void gather_log_replay(struct launch *L, struct gather_log *g, FILE *out);
/* The same for what the log holds so far, which it then drops: the cluster runs on, its
 * later entries replayed after these (a cluster whose earlier ones are all shown). */
void gather_log_drain(struct launch *L, struct gather_log *g, FILE *out);
size_t gather_log_entries(const struct gather_log *g);
void gather_log_free(struct gather_log *g);

#endif
