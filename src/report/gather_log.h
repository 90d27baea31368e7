/*
 * gather_log.h - a cluster's reports kept for later (gather_log.c), for --jobs: a cluster
 * run on a worker thread keeps its reports in a log (L->log) instead of making them: each
 * gather_rule, gather_flush and gather_count, and each diagnostic (the cluster's diag sink
 * is gather_log_sink, or its record function gather_log_record when reports are data),
 * becomes an entry, with the device printf output written so far (gather_log_out).
 * gather_log_replay (gather.c, above this) runs the entries on the launch in cluster order,
 * so that reports are gathered and shown as with one thread.
 */
#ifndef PTXI_GATHER_LOG_H
#define PTXI_GATHER_LOG_H

#include <stdbool.h>
#include <stdio.h>

#include "run/launch.h"

/* Lanes of one warp that broke a rule; CTAs by value, as a cluster's CTAs are gone before
 * the report is. */
struct gather_hit {
	uint32_t cta;               /* linear index in the grid */
	uint32_t ctaid[3], rank;
	uint32_t warp, lanes;
};

enum entry_kind { E_RULE, E_FLUSH, E_COUNT, E_DIAG, E_RECORD, E_GROUP };

/* --jobs with the data-race detector: whether a report a cluster made is made on the launch
 * (false: one thread would not have made it; its entries are dropped). */
typedef bool gather_keep_fn(struct launch *L, const void *a, const void *b);
/* What the log replays between its entries (the detector's deferred global accesses): those
 * made before entry `upto` (SIZE_MAX: all), their printf output first (gather_log_put_out).
 * True: one made the launch stop, so nothing after it is shown. */
typedef bool gather_between_fn(struct launch *L, void *ctx, struct gather_log *g, FILE *out,
			       size_t upto);

struct log_entry {
	enum entry_kind kind;
	enum diag_level level;      /* E_DIAG                                                  */
	const char *rule;           /* E_RULE, E_COUNT: a static name                          */
	const struct dinsn *di;     /* E_RULE                                                  */
	struct gather_hit hit;      /* E_RULE                                                  */
	char *msg, *notes;          /* E_RULE; E_DIAG: msg is the rendered text                */
	struct diag_record rec;     /* E_RECORD: its strings owned by the entry (record_copy)  */
	gather_keep_fn *keep;       /* E_GROUP: the entries up to `skip` more are shown if keep */
	const void *ka, *kb;        /* says so                                                 */
	size_t skip;
	size_t out_at;              /* printf bytes written before the entry                   */
};

struct gather_log {
	struct log_entry *e;
	size_t n, cap;
	FILE *out;                  /* the cluster's printf output (open_memstream)           */
	char *out_buf;
	size_t out_len;
	size_t out_done;            /* printf bytes already shown (gather_log_drain)          */
	bool lost;                  /* an entry could not be kept (out of memory)             */
	size_t group;               /* the open E_GROUP's index + 1 (0: none)                  */
	bool want_drain;            /* something kept beside the log is long: show it early   */
	gather_between_fn *between; /* and its context, freed with the log                    */
	void *between_ctx;
	void (*between_free)(void *ctx);
};

struct gather_log *gather_log_new(void);
FILE *gather_log_out(struct gather_log *g);
void gather_log_sink(void *ctx, enum diag_level level, const char *text);
void gather_log_record(void *ctx, const struct diag_record *r);
void gather_log_rule(struct gather_log *g, const char *rule, const struct dinsn *di,
		     const struct gather_hit *h, const char *notes, const char *msg);
void gather_log_flush(struct gather_log *g);
void gather_log_count(struct gather_log *g, const char *kind);
size_t gather_log_entries(const struct gather_log *g);
/* The entries of one report that is shown only if keep(L, a, b) says so at the replay. */
void gather_log_group_begin(struct gather_log *g, gather_keep_fn *keep, const void *a,
			    const void *b);
void gather_log_group_end(struct gather_log *g);
/* How much printf output the cluster has written so far. */
size_t gather_log_out_pos(struct gather_log *g);
void gather_log_free(struct gather_log *g);
void gather_log_entry_free(struct log_entry *e);

#endif
