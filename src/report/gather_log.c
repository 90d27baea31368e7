/*
 * gather_log.c - a cluster's reports kept for later (--jobs). A worker thread runs its
 * cluster with L->log set: rule breaks, flushes, error counts and diagnostics (rendered
 * text, or records when reports are data: --diagnostics json|sarif) are entries here, each
 * with how much of the cluster's printf output came before it. Once
 * every earlier cluster has been replayed, gather_log_replay (gather.c) makes the reports on the
 * launch: breaks are gathered across clusters and shown in the order, and with the counts
 * and --max-errors cut, of a run on one thread.
 */
#include "gather_log.h"

#include <stdlib.h>
#include <string.h>

struct gather_log *gather_log_new(void)
{
	struct gather_log *g = calloc(1, sizeof *g);
	if (g && !(g->out = open_memstream(&g->out_buf, &g->out_len))) {
		free(g);
		g = NULL;
	}
	return g;
}

FILE *gather_log_out(struct gather_log *g)
{
	return g->out;
}

static struct log_entry *add(struct gather_log *g, enum entry_kind kind)
{
	if (g->n == g->cap) {
		size_t cap = g->cap ? g->cap * 2 : 16;
		struct log_entry *e = realloc(g->e, cap * sizeof *e);
		if (!e) {
			g->lost = true;
			return NULL;
		}
		g->e = e;
		g->cap = cap;
	}
	fflush(g->out);
	struct log_entry *e = &g->e[g->n++];
	*e = (struct log_entry){.kind = kind, .out_at = g->out_len};
	return e;
}

static char *keep(struct gather_log *g, const char *s)
{
	char *d = strdup(s ? s : "");
	g->lost |= !d;
	return d;
}

void gather_log_sink(void *ctx, enum diag_level level, const char *text)
{
	struct gather_log *g = ctx;
	struct log_entry *e = add(g, E_DIAG);
	if (e) {
		e->level = level;
		e->msg = keep(g, text);
	}
}

/* A copy of s's first n bytes, NUL-terminated; NULL stays NULL. */
static char *keep_n(struct gather_log *g, const char *s, size_t n)
{
	if (!s)
		return NULL;
	char *d = strndup(s, n);
	g->lost |= !d;
	return d;
}

static char *keep_opt(struct gather_log *g, const char *s)
{
	return s ? keep_n(g, s, strlen(s)) : NULL;
}

/* A deep copy of r: the caller's strings live only as long as the call. */
static void record_copy(struct gather_log *g, struct diag_record *d, const struct diag_record *r)
{
	*d = *r;
	d->rule = keep_n(g, r->rule, r->rule_len);
	d->msg = keep_n(g, r->msg ? r->msg : "", r->msg_len);
	d->path = keep_opt(g, r->path);
	d->notes = keep_opt(g, r->notes);
	d->src_path = keep_opt(g, r->src_path);
	d->src_context = keep_opt(g, r->src_context);
}

static void record_free(struct diag_record *r)
{
	free((char *)r->rule);
	free((char *)r->msg);
	free((char *)r->path);
	free((char *)r->notes);
	free((char *)r->src_path);
	free((char *)r->src_context);
}

void gather_log_record(void *ctx, const struct diag_record *r)
{
	struct gather_log *g = ctx;
	struct log_entry *e = add(g, E_RECORD);
	if (e)
		record_copy(g, &e->rec, r);
}

void gather_log_rule(struct gather_log *g, const char *rule, const struct dinsn *di,
		     const struct gather_hit *h, const char *notes, const char *msg)
{
	struct log_entry *e = add(g, E_RULE);
	if (!e)
		return;
	e->rule = rule;
	e->di = di;
	e->hit = *h;
	e->msg = keep(g, msg);
	e->notes = keep(g, notes);
}

void gather_log_flush(struct gather_log *g)
{
	if (g->n && g->e[g->n - 1].kind == E_FLUSH)
		return; /* a flush after a flush does nothing */
	add(g, E_FLUSH);
}

void gather_log_count(struct gather_log *g, const char *kind)
{
	struct log_entry *e = add(g, E_COUNT);
	if (e)
		e->rule = kind;
}

size_t gather_log_entries(const struct gather_log *g)
{
	return g->n;
}

void gather_log_group_begin(struct gather_log *g, gather_keep_fn *keep, const void *a,
			    const void *b)
{
	struct log_entry *e = add(g, E_GROUP);
	if (!e)
		return;
	e->keep = keep;
	e->ka = a;
	e->kb = b;
	g->group = g->n;
}

void gather_log_group_end(struct gather_log *g)
{
	if (g->group)
		g->e[g->group - 1].skip = g->n - g->group;
	g->group = 0;
}

size_t gather_log_out_pos(struct gather_log *g)
{
	off_t at = ftello(g->out);
	return at < 0 ? 0 : (size_t)at;
}

void gather_log_entry_free(struct log_entry *e)
{
	free(e->msg);
	free(e->notes);
	if (e->kind == E_RECORD)
		record_free(&e->rec);
}

void gather_log_free(struct gather_log *g)
{
	if (!g)
		return;
	for (size_t i = 0; i < g->n; i++)
		gather_log_entry_free(&g->e[i]);
	free(g->e);
	fclose(g->out);
	free(g->out_buf);
	if (g->between_free)
		g->between_free(g->between_ctx);
	free(g);
}
