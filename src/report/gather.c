/*
 * gather.c - one report per bug. Breaks of one rule at one instruction are gathered while
 * each comes from threads that have not broken it there yet (the same dynamic step of
 * every warp and CTA, which run that instruction at different times): one report names
 * them all ("threads 0-31 of CTAs (0..3,0,0)"). Reports are emitted in the order their
 * first break happened, when the launch ends, before a deadlock or run-time error report
 * or a trace line, or when a thread breaks the rule there a second time (a later step).
 * The launch closes with a count of its errors by kind ("ptxi: 3 errors:
 * async-copy-race 2, deadlock 1").
 */
#include "gather.h"

#include <stdlib.h>
#include <string.h>

#include "level.h"
#include "srcloc.h"

#define MAX_KINDS 32
#define MAX_OPEN 32 /* bugs gathered at once; the oldest is emitted to make room */

/* One bug: a rule broken at an instruction, and every thread that broke it there. */
struct bug {
	const char *rule;       /* its name (rules.def: static)                              */
	const struct dinsn *di;
	struct strbuf msg, notes;   /* the first break's message, and its notes below the threads */
	struct gather_hit *hits;
	uint32_t nhits, cap;
};

struct report {
	struct bug open[MAX_OPEN];  /* in the order of their first break */
	uint32_t nopen;
	struct kind { const char *name; uint32_t n; bool warning; } kinds[MAX_KINDS];
	uint32_t nkinds, total, warnings;
};

static struct report *rep(struct launch *L)
{
	if (!L->rep)
		L->rep = calloc(1, sizeof *L->rep);
	return L->rep;
}

void gather_count(struct launch *L, const char *kind)
{
	if (L->log) {
		gather_log_count(L->log, kind);
		return;
	}
	struct report *r = rep(L);
	if (!r)
		return;
	bool warning = rule_level_named(L, kind) == SEV_WARNING;
	if (warning)
		r->warnings++;
	else
		r->total++;
	for (uint32_t i = 0; i < r->nkinds; i++)
		if (!strcmp(r->kinds[i].name, kind)) {
			r->kinds[i].n++;
			return;
		}
	if (r->nkinds < MAX_KINDS)
		r->kinds[r->nkinds++] = (struct kind){kind, 1, warning};
}

/* ---- naming the threads ----------------------------------------------------------------- */

/* "thread 7 (7,0,0)" or "threads 0-31, 40": the threads of CTA c among the hits. */
static void cta_threads(struct launch *L, const struct bug *r, uint32_t c,
			struct strbuf *b)
{
	uint32_t nw = 0, count = 0, last = 0;
	for (uint32_t i = 0; i < r->nhits; i++)
		if (r->hits[i].cta == c && r->hits[i].warp >= nw)
			nw = r->hits[i].warp + 1;
	uint32_t *lanes = calloc(nw ? nw : 1, sizeof *lanes);
	if (!lanes)
		return;
	for (uint32_t i = 0; i < r->nhits; i++)
		if (r->hits[i].cta == c && r->hits[i].warp < nw)
			lanes[r->hits[i].warp] |= r->hits[i].lanes;
	for (uint32_t w = 0; w < nw; w++) {
		count += (uint32_t)__builtin_popcount(lanes[w]);
		if (lanes[w])
			last = w * LANES + 31 - (uint32_t)__builtin_clz(lanes[w]);
	}
	if (count == 1) {
		uint32_t bx = L->cfg.block[0], by = L->cfg.block[1];
		sb_printf(b, "thread %u (%u,%u,%u)", last, last % bx, last / bx % by, last / (bx * by));
		free(lanes);
		return;
	}
	sb_printf(b, "threads ");
	bool first = true;
	for (uint32_t t = 0; t < nw * LANES;) {
		if (!(lanes[t / LANES] >> (t % LANES) & 1)) {
			t++;
			continue;
		}
		uint32_t u = t;
		while (u + 1 < nw * LANES && (lanes[(u + 1) / LANES] >> ((u + 1) % LANES) & 1))
			u++;
		sb_printf(b, first ? "%u" : ", %u", t);
		if (u > t)
			sb_printf(b, "-%u", u);
		first = false;
		t = u + 1;
	}
	free(lanes);
}

/* "(0..3,0,0)" for CTAs whose x indices run on with the same y and z, "(5,1,0)" alone. */
static void cta_runs(const struct gather_hit *const *ctas, uint32_t n, struct strbuf *b)
{
	for (uint32_t i = 0; i < n;) {
		uint32_t j = i;
		while (j + 1 < n && ctas[j + 1]->ctaid[0] == ctas[j]->ctaid[0] + 1 &&
		       ctas[j + 1]->ctaid[1] == ctas[i]->ctaid[1] &&
		       ctas[j + 1]->ctaid[2] == ctas[i]->ctaid[2])
			j++;
		sb_printf(b, "%s(%u", i ? ", " : "", ctas[i]->ctaid[0]);
		if (j > i)
			sb_printf(b, "..%u", ctas[j]->ctaid[0]);
		sb_printf(b, ",%u,%u)", ctas[i]->ctaid[1], ctas[i]->ctaid[2]);
		i = j + 1;
	}
}

/* "CTA (0,0,0) threads 0-31" for one CTA; "threads 0-31 of CTAs (0..3,0,0)" for CTAs that
 * share their threads; one line per distinct set of threads. */
static void describe_hits(struct launch *L, const struct bug *r, struct strbuf *b)
{
	const struct gather_hit **ctas = calloc(r->nhits, sizeof *ctas); /* first hit of each CTA */
	struct strbuf *names = calloc(r->nhits, sizeof *names);
	bool *done = calloc(r->nhits, sizeof *done);
	uint32_t n = 0;
	for (uint32_t i = 0; ctas && names && done && i < r->nhits; i++) {
		uint32_t k = 0;
		while (k < n && ctas[k]->cta != r->hits[i].cta)
			k++;
		if (k == n)
			ctas[n++] = &r->hits[i];
	}
	if (n == 1) {
		const struct gather_hit *h = ctas[0];
		sb_printf(b, "CTA (%u,%u,%u) ", h->ctaid[0], h->ctaid[1], h->ctaid[2]);
		if (L->cfg.cluster[0] * L->cfg.cluster[1] * L->cfg.cluster[2] > 1)
			sb_printf(b, "(cluster rank %u) ", h->rank);
		cta_threads(L, r, h->cta, b);
		sb_printf(b, "\n");
	}
	for (uint32_t i = 0; n > 1 && i < n; i++)
		cta_threads(L, r, ctas[i]->cta, &names[i]);
	const struct gather_hit **same = calloc(n ? n : 1, sizeof *same);
	for (uint32_t i = 0; n > 1 && same && i < n; i++) {
		if (done[i])
			continue;
		uint32_t m = 0;
		for (uint32_t k = i; k < n; k++)
			if (!done[k] && !strcmp(names[k].s, names[i].s)) {
				done[k] = true;
				same[m++] = ctas[k];
			}
		sb_printf(b, "%s of CTA%s ", names[i].s, m > 1 ? "s" : "");
		cta_runs(same, m, b);
		sb_printf(b, "\n");
	}
	for (uint32_t i = 0; names && i < n; i++)
		sb_free(&names[i]);
	free(same);
	free(ctas);
	free(names);
	free(done);
}

/* ---- gathering -------------------------------------------------------------------------- */

static void emit(struct launch *L, struct bug *r)
{
	struct strbuf n = {0};
	describe_hits(L, r, &n);
	sb_printf(&n, "%s", r->notes.s ? r->notes.s : "");
	bool warning = rule_level_named(L, r->rule) == SEV_WARNING;
	srcloc_emit(L->diag, warning ? DIAG_WARNING : DIAG_ERROR, L->file, L->P->m,
		    r->di ? r->di->ir : NULL, srcloc_func_of(L->P, r->di), n.s, r->msg.s ? r->msg.s : "");
	sb_free(&n);
	sb_free(&r->msg);
	sb_free(&r->notes);
	free(r->hits);
}

/* Emit open bug i and close the gap. */
static void emit_open(struct launch *L, uint32_t i)
{
	struct report *rp = L->rep;
	emit(L, &rp->open[i]);
	memmove(&rp->open[i], &rp->open[i + 1], (rp->nopen - i - 1) * sizeof rp->open[0]);
	rp->nopen--;
}

void gather_flush(struct launch *L)
{
	if (L->log) {
		gather_log_flush(L->log);
		return;
	}
	while (L->rep && L->rep->nopen)
		emit_open(L, 0);
}

/* Whether the warp's lanes already broke the bug's rule there. */
static bool overlaps(const struct bug *r, const struct gather_hit *h)
{
	for (uint32_t i = 0; i < r->nhits; i++)
		if (r->hits[i].cta == h->cta && r->hits[i].warp == h->warp &&
		    (r->hits[i].lanes & h->lanes))
			return true;
	return false;
}

static bool add_hit(struct bug *r, const struct gather_hit *h)
{
	for (uint32_t i = 0; i < r->nhits; i++)
		if (r->hits[i].cta == h->cta && r->hits[i].warp == h->warp) {
			r->hits[i].lanes |= h->lanes;
			return true;
		}
	if (r->nhits == r->cap) {
		uint32_t cap = r->cap ? r->cap * 2 : 16;
		struct gather_hit *nh = realloc(r->hits, cap * sizeof *nh);
		if (!nh)
			return false;
		r->hits = nh;
		r->cap = cap;
	}
	r->hits[r->nhits++] = *h;
	return true;
}

void gather_hit(struct launch *L, const char *rule, const struct dinsn *di,
		const struct gather_hit *h, const char *notes, const char *msg)
{
	struct report *rp = rep(L);
	if (!rp)
		return;
	for (uint32_t i = 0; i < rp->nopen; i++) {
		struct bug *b = &rp->open[i];
		if (strcmp(b->rule, rule) != 0 || b->di != di)
			continue;
		if (!overlaps(b, h)) {
			add_hit(b, h);
			return;
		}
		emit_open(L, i); /* these threads again: a later step, a new report */
		break;
	}
	if (rp->nopen == MAX_OPEN)
		emit_open(L, 0);
	gather_count(L, rule);
	struct bug *b = &rp->open[rp->nopen++];
	*b = (struct bug){.rule = rule, .di = di};
	sb_printf(&b->msg, "%s", msg);
	sb_printf(&b->notes, "%s", notes ? notes : "");
	add_hit(b, h);
}

void gather_rule(struct launch *L, const char *rule, uint32_t lanes, const char *notes,
		 const char *msg)
{
	struct warp *w = L->cw;
	struct report *rp = L->log ? NULL : rep(L);
	if (!w || (!L->log && !rp)) { /* no thread to name: report it alone */
		gather_flush(L);
		if (L->log || rp)
			gather_count(L, rule);
		bool warning = rule_level_named(L, rule) == SEV_WARNING;
		srcloc_emit(L->diag, warning ? DIAG_WARNING : DIAG_ERROR, L->file, L->P->m,
			    L->ci ? L->ci->ir : NULL, srcloc_func_of(L->P, L->ci), notes, msg);
		return;
	}
	const struct cta *c = w->cta;
	struct gather_hit h = {c->linear, {c->ctaid[0], c->ctaid[1], c->ctaid[2]}, c->rank, w->id,
			       lanes};
	if (L->log) {
		gather_log_rule(L->log, rule, L->ci, &h, notes, msg);
		L->log_poll(L); /* a long log is shown early, when it can be (jobs.c) */
	} else
		gather_hit(L, rule, L->ci, &h, notes, msg);
}

uint32_t gather_total(const struct launch *L)
{
	return L->rep ? L->rep->total : 0;
}

void gather_summary(struct launch *L)
{
	gather_flush(L);
	struct report *r = L->rep;
	if (!r || !(r->total + r->warnings) || L->diag->record || !L->diag->sink) /* data */
		return;
	struct strbuf b = {0};
	sb_printf(&b, "ptxi:");
	for (int w = 0; w < 2; w++) { /* the errors, then the warnings */
		uint32_t total = w ? r->warnings : r->total;
		if (!total)
			continue;
		sb_printf(&b, "%s %u %s%s:", w && r->total ? ";" : "", total, w ? "warning" : "error",
			  total == 1 ? "" : "s");
		bool first = true;
		for (uint32_t i = 0; i < r->nkinds; i++)
			if (r->kinds[i].warning == (w == 1)) {
				sb_printf(&b, "%s %s %u", first ? "" : ",", r->kinds[i].name,
					  r->kinds[i].n);
				first = false;
			}
	}
	sb_printf(&b, "\n");
	L->diag->sink(L->diag->ctx, DIAG_NOTE, b.s);
	sb_free(&b);
}

void gather_free(struct launch *L)
{
	gather_flush(L);
	free(L->rep);
	L->rep = NULL;
}

/* The printf output of the cluster from *done up to `to`. */
static void put_out(struct gather_log *g, FILE *out, size_t *done, size_t to)
{
	if (to > *done)
		fwrite(g->out_buf + *done, 1, to - *done, out);
	fflush(out); /* before the report that follows, as devrt does with one thread */
	*done = to;
}

void gather_log_put_out(struct gather_log *g, FILE *out, size_t to)
{
	if (to <= g->out_done)
		return;
	fflush(g->out);
	put_out(g, out, &g->out_done, to);
}

void gather_log_drain(struct launch *L, struct gather_log *g, FILE *out)
{
	fflush(g->out);
	bool stopped = false;
	size_t i = 0;
	for (; i < g->n && !stopped; i++) {
		struct log_entry *e = &g->e[i];
		if (g->between && (stopped = g->between(L, g->between_ctx, g, out, i)))
			break;
		put_out(g, out, &g->out_done, e->out_at);
		switch (e->kind) {
		case E_RULE:
			gather_hit(L, e->rule, e->di, &e->hit, e->notes, e->msg);
			break;
		case E_FLUSH:
			gather_flush(L);
			break;
		case E_COUNT:
			gather_count(L, e->rule);
			break;
		case E_DIAG:
			if (diag_count(L->diag, e->level) && L->diag->sink)
				L->diag->sink(L->diag->ctx, e->level, e->msg ? e->msg : "");
			break;
		case E_RECORD:
			if (diag_count(L->diag, e->rec.level) && L->diag->record)
				L->diag->record(L->diag->record_ctx, &e->rec);
			break;
		case E_GROUP: /* a report one thread would not have made: its entries go */
			if (!e->keep(L, e->ka, e->kb))
				for (size_t k = 0; k < e->skip && i + 1 < g->n; k++)
					gather_log_entry_free(&g->e[++i]);
			break;
		}
		gather_log_entry_free(e);
	}
	if (!stopped && g->between)
		stopped = g->between(L, g->between_ctx, g, out, SIZE_MAX);
	for (; i < g->n; i++) /* after what stopped the launch */
		gather_log_entry_free(&g->e[i]);
	g->n = 0;
	g->group = 0;
	g->want_drain = false;
	if (!stopped)
		put_out(g, out, &g->out_done, g->out_len);
	if (g->lost)
		diag_emit(L->diag, DIAG_ERROR, NULL, (struct src_span){0, 0}, NULL,
			  "out of memory keeping a cluster's reports (--jobs): some are missing");
	g->lost = false;
}

void gather_log_replay(struct launch *L, struct gather_log *g, FILE *out)
{
	gather_log_drain(L, g, out);
	gather_log_free(g);
}
