/*
 * timeline.c - records the launch for --timeline and writes it as one HTML page: the data as
 * JSON in the page, drawn by an inline script as SVG (nothing is fetched).
 */
#include "timeline.h"

#include <stdlib.h>
#include <string.h>

#include "run/launch.h"
#include "srcloc.h"
#include "support/grow.h"

#define TEXT_MAX 400            /* hover text kept per event                               */
#define AGG_BUCKETS 512         /* per-row count buckets once TL_DETAILED is reached        */

struct tl_event {
	uint8_t kind;
	bool span;
	int32_t bar;                /* index in bars, or -1                                    */
	uint32_t row, line, lanes;
	uint64_t t0, t1;
	uint32_t text;              /* offset in the text pool                                 */
};

struct tl_bar {
	const void *key;
	uint32_t label;             /* offset in the text pool                                 */
	uint32_t row;               /* the row of the warp that first touched it              */
};

struct tl_phase {
	uint32_t bar;
	uint64_t t, phase;
};

struct timeline {
	struct tl_event *ev;
	uint32_t nev;
	size_t evcap;
	struct tl_bar *bars;
	uint32_t nbars;
	size_t barcap;
	struct tl_phase *ph;
	uint32_t nph;
	size_t phcap;
	char *pool;
	size_t plen, pcap;
	uint64_t last;              /* the latest step seen                                    */
	uint64_t end;               /* where the schedule stopped (tl_stop; 0: at the end)     */
	uint64_t dropped;           /* events past TL_DETAILED, counted in agg only            */
	uint32_t *row_last;         /* per row: 1 + index of its latest event (0: none)        */
	uint32_t nrows;
	uint32_t *agg, agg_rows;
	uint64_t bucket;            /* steps per agg bucket                                     */
	bool oom;
};

struct timeline *tl_create(void)
{
	return calloc(1, sizeof(struct timeline));
}

void tl_free(struct timeline *t)
{
	if (!t)
		return;
	free(t->ev);
	free(t->bars);
	free(t->ph);
	free(t->pool);
	free(t->agg);
	free(t->row_last);
	free(t);
}

static uint32_t intern(struct timeline *t, const char *s)
{
	size_t n = strnlen(s, TEXT_MAX);
	if (t->plen + n + 1 > t->pcap) {
		size_t nc = t->pcap ? t->pcap * 2 : 65536;
		while (nc < t->plen + n + 1)
			nc *= 2;
		char *q = realloc(t->pool, nc);
		if (!q) {
			t->oom = true;
			return 0;
		}
		t->pool = q;
		t->pcap = nc;
	}
	uint32_t off = (uint32_t)t->plen;
	memcpy(t->pool + off, s, n);
	t->pool[off + n] = 0;
	t->plen += n + 1;
	return off;
}

static uint32_t warps_per_cta(const struct launch *L)
{
	uint32_t n = L->cfg.block[0] * L->cfg.block[1] * L->cfg.block[2];
	return (n + LANES - 1) / LANES;
}

static uint32_t row_of(const struct launch *L, const struct warp *w)
{
	return w ? w->cta->linear * warps_per_cta(L) + w->id : 0;
}

static uint32_t line_of(const struct launch *L, const struct dinsn *di)
{
	uint32_t line = 0, col = 0;
	if (di && di->ir)
		src_locate(L->file, di->ir->span.off, &line, &col);
	return line;
}

/* Past TL_DETAILED events: count per row in buckets that double in width as time goes on. */
static void aggregate(struct timeline *t, const struct launch *L, uint32_t row, uint64_t step)
{
	t->dropped++;
	if (!t->agg) {
		t->agg_rows = L->cfg.grid[0] * L->cfg.grid[1] * L->cfg.grid[2] * warps_per_cta(L);
		t->agg = calloc((size_t)t->agg_rows * AGG_BUCKETS, sizeof *t->agg);
		t->bucket = 1;
		while (t->bucket * AGG_BUCKETS <= step)
			t->bucket *= 2;
		if (!t->agg) {
			t->oom = true;
			return;
		}
	}
	while (step / t->bucket >= AGG_BUCKETS) {
		for (uint32_t r = 0; r < t->agg_rows; r++) {
			uint32_t *a = t->agg + (size_t)r * AGG_BUCKETS;
			for (uint32_t i = 0; i < AGG_BUCKETS / 2; i++)
				a[i] = a[2 * i] + a[2 * i + 1];
			memset(a + AGG_BUCKETS / 2, 0, AGG_BUCKETS / 2 * sizeof *a);
		}
		t->bucket *= 2;
	}
	if (row < t->agg_rows)
		t->agg[(size_t)row * AGG_BUCKETS + step / t->bucket]++;
}

/* The row's latest event, when it is a poll of the same wait that answered False again:
 * polling loops become one span instead of a million marks. */
static struct tl_event *same_poll(struct timeline *t, const struct launch *L, uint32_t row,
				  enum tl_kind kind, const struct dinsn *di)
{
	if (kind != TL_WAIT_FALSE || row >= t->nrows || !t->row_last[row])
		return NULL;
	struct tl_event *e = &t->ev[t->row_last[row] - 1];
	return e->kind == TL_WAIT_FALSE && e->line == line_of(L, di) ? e : NULL;
}

static struct tl_event *add(struct launch *L, struct warp *w, enum tl_kind kind, uint64_t t0,
			    const struct dinsn *di, const char *text)
{
	struct timeline *t = L->timeline;
	uint64_t now = t->end && L->steps > t->end ? t->end : L->steps;
	t0 = t->end && t0 > t->end ? t->end : t0;
	t->last = now > t->last ? now : t->last;
	uint32_t row = row_of(L, w);
	if (!t->row_last && !t->oom) {
		t->nrows = L->cfg.grid[0] * L->cfg.grid[1] * L->cfg.grid[2] * warps_per_cta(L);
		t->row_last = calloc(t->nrows ? t->nrows : 1, sizeof *t->row_last);
		if (!t->row_last)
			t->oom = true;
	}
	struct tl_event *poll = same_poll(t, L, row, kind, di);
	if (poll) {
		poll->t1 = now;
		poll->span = true;
		return NULL;
	}
	/* rule breaks and deadlocked threads are few and always kept */
	bool keep = kind == TL_RULE || kind == TL_BLOCKED;
	if ((t->nev >= TL_DETAILED && !keep) || t->oom) {
		aggregate(t, L, row, now);
		return NULL;
	}
	if (!grow_array((void **)&t->ev, &t->evcap, t->nev, sizeof *t->ev, 256)) {
		t->oom = true;
		return NULL;
	}
	if (row < t->nrows)
		t->row_last[row] = t->nev + 1;
	struct tl_event *e = &t->ev[t->nev++];
	*e = (struct tl_event){.kind = (uint8_t)kind, .bar = -1, .row = row, .t0 = t0,
			       .t1 = now, .line = line_of(L, di), .text = intern(t, text)};
	return e;
}

void tl_stop(struct launch *L)
{
	if (L->timeline && !L->timeline->end)
		L->timeline->end = L->steps ? L->steps : 1;
}

static int32_t bar_index(struct launch *L, struct warp *w, const void *key, const char *label)
{
	struct timeline *t = L->timeline;
	for (uint32_t i = t->nbars; i-- > 0;)
		if (t->bars[i].key == key)
			return (int32_t)i;
	if (!grow_array((void **)&t->bars, &t->barcap, t->nbars, sizeof *t->bars, 256))
		return -1;
	t->bars[t->nbars] = (struct tl_bar){key, intern(t, label), row_of(L, w)};
	return (int32_t)t->nbars++;
}

void tl_mark(struct launch *L, struct warp *w, uint32_t lanes, enum tl_kind kind,
	     const void *barrier, const char *label, uint64_t phase_before, uint64_t phase_after,
	     const char *text)
{
	struct timeline *t = L->timeline;
	struct tl_event *e = add(L, w, kind, L->steps, L->ci, text);
	int32_t b = barrier ? bar_index(L, w, barrier, label) : -1;
	if (e) {
		e->lanes = lanes;
		e->bar = b;
	}
	for (uint64_t p = phase_before; b >= 0 && p < phase_after && t->nph < TL_DETAILED; p++) {
		if (!grow_array((void **)&t->ph, &t->phcap, t->nph, sizeof *t->ph, 256))
			return;
		t->ph[t->nph++] = (struct tl_phase){(uint32_t)b, L->steps, p};
	}
}

void tl_wait(struct launch *L, struct warp *w, uint32_t lanes, uint64_t since, const char *text)
{
	bool blocked = strstr(text, "[deadlock]") != NULL;
	struct tl_event *poll = blocked ? same_poll(L->timeline, L, row_of(L, w), TL_WAIT_FALSE,
						     L->ci) : NULL;
	if (poll)       /* blocked since it began to poll */
		since = poll->t0;
	struct tl_event *e = add(L, w, blocked ? TL_BLOCKED : TL_WAIT_TRUE, since, L->ci, text);
	if (e) {
		e->span = true;
		e->lanes = lanes;
	}
}

void tl_copy(struct launch *L, struct warp *w, const struct dinsn *insn, uint64_t issued,
	     uint32_t bytes, const char *what)
{
	char text[160];
	snprintf(text, sizeof text, "%s: %u bytes, issued at step %llu, landed at step %llu", what,
		 bytes, (unsigned long long)issued, (unsigned long long)L->steps);
	struct tl_event *e = add(L, w, TL_LAND, issued, insn, text);
	if (e)
		e->span = true;
}

/* ---- the page ------------------------------------------------------------------------ */

static void json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c == '<')
			fputs("\\u003c", out);      /* never "</script>" inside the data */
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

static const char *const kind_names[TL__KINDS] = {
	[TL_INIT] = "init", [TL_ARRIVE] = "arrive", [TL_TX] = "tx", [TL_LAND] = "copy",
	[TL_WAIT_TRUE] = "wait", [TL_WAIT_FALSE] = "wait-false", [TL_RULE] = "rule",
	[TL_BLOCKED] = "blocked"};

static void write_rows(FILE *out, struct launch *L)
{
	uint32_t per = warps_per_cta(L), ncta = L->cfg.grid[0] * L->cfg.grid[1] * L->cfg.grid[2];
	uint32_t gx = L->cfg.grid[0], gy = L->cfg.grid[1];
	uint32_t csize = L->cfg.cluster[0] * L->cfg.cluster[1] * L->cfg.cluster[2];
	fputs("\"rows\":[", out);
	for (uint32_t c = 0; c < ncta; c++)
		for (uint32_t w = 0; w < per; w++)
			fprintf(out, "%s{\"cta\":\"(%u,%u,%u)\",\"cluster\":%u,\"warp\":%u}",
				c || w ? "," : "", c % gx, c / gx % gy, c / (gx * gy),
				csize > 1 ? c / csize : 0, w);
	fputs("]", out);
}

/* With -lineinfo: ,"cu":{"102":"k.cu:34",...}, the user's source line of each PTX line the
 * events name (the page leads with it, the PTX line second). */
static void write_cu_lines(FILE *out, struct launch *L, uint8_t *used, uint32_t nlines)
{
	fputs(",\"cu\":{", out);
	bool first = true;
	for (uint32_t i = 0; L->P && i < L->P->nfuncs; i++) {
		const struct dfunc *f = &L->P->funcs[i];
		for (uint32_t k = 0; k < f->ncode; k++) {
			const struct ir_insn *in = f->code[k].ir;
			uint32_t line, col;
			if (!in || !in->loc)
				continue;
			src_locate(L->file, in->span.off, &line, &col);
			struct strbuf b = {0};
			if (line <= nlines && used[line] == 1 && srcloc_short_pos(L->P->m, in->loc, &b)) {
				fprintf(out, "%s\"%u\":", first ? "" : ",", line);
				json_string(out, b.s);
				first = false;
				used[line] = 2; /* once */
			}
			sb_free(&b);
		}
	}
	fputs("}", out);
}

/* The source lines the events name, so the hover can show them. */
static void write_lines(FILE *out, const struct timeline *t, struct launch *L)
{
	uint32_t nlines = 1;
	for (const char *p = L->file->text; p && *p; p++)
		nlines += *p == '\n';
	uint8_t *used = calloc(nlines + 1, 1);
	fputs("\"src\":{", out);
	if (used) {
		for (uint32_t i = 0; i < t->nev; i++)
			if (t->ev[i].line <= nlines)
				used[t->ev[i].line] = 1;
		bool first = true;
		uint32_t line = 1;
		for (const char *p = L->file->text; p && *p; line++) {
			size_t n = strcspn(p, "\n");
			if (used[line]) {
				char buf[TEXT_MAX];
				const char *s = p + strspn(p, " \t");
				size_t k = n - (size_t)(s - p);
				snprintf(buf, sizeof buf, "%.*s", (int)(k < sizeof buf ? k : sizeof buf - 1),
					 s);
				fprintf(out, "%s\"%u\":", first ? "" : ",", line);
				json_string(out, buf);
				first = false;
			}
			p += n + (p[n] == '\n');
		}
	}
	fputs("}", out);
	if (used)
		write_cu_lines(out, L, used, nlines);
	free(used);
}

static void write_data(FILE *out, const struct timeline *t, struct launch *L)
{
	fputs("{\"kernel\":", out);
	struct strbuf kn = {0};
	if (L->kernel && L->kernel->ir)
		srcloc_kernel(L->kernel->ir, &kn);
	json_string(out, kn.s ? kn.s : L->kernel && L->kernel->name ? L->kernel->name : "?");
	sb_free(&kn);
	fputs(",\"file\":", out);
	json_string(out, L->file->path);
	fprintf(out, ",\"grid\":[%u,%u,%u],\"block\":[%u,%u,%u],\"cluster\":[%u,%u,%u]",
		L->cfg.grid[0], L->cfg.grid[1], L->cfg.grid[2], L->cfg.block[0], L->cfg.block[1],
		L->cfg.block[2], L->cfg.cluster[0], L->cfg.cluster[1], L->cfg.cluster[2]);
	uint64_t steps = t->end ? t->end : t->last > L->steps ? t->last : L->steps;
	fprintf(out, ",\"steps\":%llu,\"status\":%d,\"dropped\":%llu,",
		(unsigned long long)steps, L->status, (unsigned long long)t->dropped);
	write_rows(out, L);
	fputs(",\"kinds\":[", out);
	for (int k = 0; k < TL__KINDS; k++)
		fprintf(out, "%s\"%s\"", k ? "," : "", kind_names[k]);
	fputs("],\"events\":[", out);
	for (uint32_t i = 0; i < t->nev; i++) {
		const struct tl_event *e = &t->ev[i];
		fprintf(out, "%s[%u,%u,%llu,%llu,%u,%d,%u,", i ? "," : "", e->kind, e->row,
			(unsigned long long)e->t0, (unsigned long long)e->t1, e->line, e->bar,
			e->span ? 1 : 0);
		json_string(out, t->pool ? t->pool + e->text : "");
		fputs("]", out);
	}
	fputs("],\"barriers\":[", out);
	for (uint32_t i = 0; i < t->nbars; i++) {
		fprintf(out, "%s{\"row\":%u,\"label\":", i ? "," : "", t->bars[i].row);
		json_string(out, t->pool ? t->pool + t->bars[i].label : "");
		fputs("}", out);
	}
	fputs("],\"phases\":[", out);
	for (uint32_t i = 0; i < t->nph; i++)
		fprintf(out, "%s[%u,%llu,%llu]", i ? "," : "", t->ph[i].bar,
			(unsigned long long)t->ph[i].t, (unsigned long long)t->ph[i].phase);
	fprintf(out, "],\"agg\":{\"bucket\":%llu,\"rows\":[", (unsigned long long)t->bucket);
	for (uint32_t r = 0; t->agg && r < t->agg_rows; r++) {
		fprintf(out, "%s[", r ? "," : "");
		for (uint32_t b = 0; b < AGG_BUCKETS; b++)
			fprintf(out, "%s%u", b ? "," : "", t->agg[(size_t)r * AGG_BUCKETS + b]);
		fputs("]", out);
	}
	fputs("]},", out);
	write_lines(out, t, L);
	fputs("}", out);
}

extern const char timeline_page_head[], timeline_page_tail[];

int tl_write_html(const struct timeline *t, struct launch *L, FILE *out)
{
	fputs(timeline_page_head, out);
	write_data(out, t, L);
	fputs(timeline_page_tail, out);
	return ferror(out) ? -1 : 0;
}
