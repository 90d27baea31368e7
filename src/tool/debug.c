/*
 * debug.c - the session of `ptxi debug`: launches the kernel with the debugger's hooks
 * (src/run/debug_hook.h), decides before each instruction whether to stop (the start, a
 * breakpoint, a watchpoint, a finished step, a broken rule, Ctrl-C) and at the end of a
 * cluster (a deadlock, a rule that stopped the launch), and restarts or ends the launch as
 * the commands ask. The launch runs on this thread: a stop is a call that reads commands.
 */
#include "debug_priv.h"

#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "report/gather.h"
#include "report/rules.h"
#include "run/memory.h"
#include "support/diag.h"

static volatile sig_atomic_t interrupted; /* Ctrl-C while the launch runs: stop */

static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

void debug_sink(void *ctx, int level, const char *text)
{
	struct debug_out *o = ctx;
	if (o->muted)
		return;
	/* the rule a report names ("... [rule-name]" ends its first line), for explain */
	size_t n = strcspn(text, "\n");
	if (level == 0 && n > 2 && text[n - 1] == ']') {
		const char *open = text + n - 1;
		while (open > text && *open != '[')
			open--;
		size_t len = (size_t)(text + n - 1 - open - 1);
		if (*open == '[' && len < sizeof o->rule && !memchr(open + 1, ' ', len)) {
			memcpy(o->rule, open + 1, len);
			o->rule[len] = 0;
		}
	}
	fputs(text, o->to);
	fflush(o->to);
}

bool dbg_write_error(struct dbg *d, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfprintf(d->out, fmt, ap);
	va_end(ap);
	fputc('\n', d->out);
	return false;
}

const struct dinsn *dbg_insn(const struct group *g)
{
	return &g->frame->fn->code[g->pc];
}

uint32_t dbg_line(struct dbg *d, const struct dinsn *di)
{
	uint32_t line = 0, col = 0;
	if (di && di->ir && d->file)
		src_locate(d->file, di->ir->span.off, &line, &col);
	return line;
}

/* The line `step` and `next` move by: the source's (.loc) where the module has one, else the
 * PTX line. */
static uint32_t step_line(struct dbg *d, const struct dinsn *di)
{
	if (di->ir && di->ir->loc)
		return di->ir->loc->line | (di->ir->loc->file << 24);
	return dbg_line(d, di);
}

/* The group of w that holds `lane` (NULL if it exited). */
struct group *dbg_group_of(struct warp *w, uint32_t lane)
{
	for (struct group *g = w->groups; g; g = g->next)
		if (g->state != G_DONE && (g->mask >> lane & 1))
			return g;
	return NULL;
}

/* ---- breakpoints and watchpoints --------------------------------------------------------- */

/* Count the breakpoints at each instruction, so that the check before an instruction is one
 * load where none is. */
void dbg_rebuild_breakpoints(struct dbg *d)
{
	if (!d->P)
		return;
	if (!d->bp_base) {
		d->bp_base = calloc(d->P->nfuncs + 1, sizeof *d->bp_base);
		uint32_t n = 0;
		for (uint32_t f = 0; d->bp_base && f < d->P->nfuncs; f++) {
			d->bp_base[f] = n;
			n += d->P->funcs[f].ncode;
		}
		d->bp_count = calloc(n + 1, sizeof *d->bp_count);
		if (!d->bp_base || !d->bp_count) {
			free(d->bp_base);
			d->bp_base = NULL;
			return;
		}
		d->bp_base[d->P->nfuncs] = n;
	}
	memset(d->bp_count, 0, (d->bp_base[d->P->nfuncs] + 1) * sizeof *d->bp_count);
	for (uint32_t i = 0; i < DBG_MAX_POINTS; i++) {
		const struct dbg_point *p = &d->pt[i];
		for (uint32_t k = 0; p->id && !p->watch && k < p->nloc; k++)
			d->bp_count[d->bp_base[p->loc[k].fn] + p->loc[k].pc]++;
	}
}

/* A special register of one thread, by name (for conditions and print). */
static bool sreg_value(struct dbg *d, struct warp *w, uint32_t lane, const char *name,
		       uint64_t *v)
{
	const struct launch_config *k = &d->L->cfg;
	uint32_t t = w->id * LANES + lane, bx = k->block[0], by = k->block[1];
	const uint32_t tid[3] = {t % bx, (t / bx) % by, t / (bx * by)};
	static const char *const comp[3] = {"x", "y", "z"};
	for (int i = 0; i < 3; i++) {
		char n[32];
		snprintf(n, sizeof n, "%%tid.%s", comp[i]);
		if (strcmp(name, n) == 0)
			return *v = tid[i], true;
		snprintf(n, sizeof n, "%%ctaid.%s", comp[i]);
		if (strcmp(name, n) == 0)
			return *v = w->cta->ctaid[i], true;
		snprintf(n, sizeof n, "%%ntid.%s", comp[i]);
		if (strcmp(name, n) == 0)
			return *v = k->block[i], true;
	}
	if (strcmp(name, "%laneid") == 0)
		return *v = lane, true;
	if (strcmp(name, "%warpid") == 0)
		return *v = w->id, true;
	if (strcmp(name, "%cluster_ctarank") == 0)
		return *v = w->cta->rank, true;
	return false;
}

/* A register (or special register) of `lane` in frame f: its value and declared type. */
bool dbg_reg_value(struct dbg *d, struct warp *w, struct frame *f, uint32_t lane,
		   const char *name, uint64_t *v, enum ir_mod *type)
{
	*type = MOD_U32;
	if (sreg_value(d, w, lane, name, v))
		return true;
	uint32_t index = 0;
	const struct ir_sym *s = ir_lookup(d->P->m, f->fn->ir->scope, name, (uint32_t)strlen(name),
					   &index);
	if (!s || (s->kind != SYM_REG && s->kind != SYM_REGRANGE) || s->slot < 0 || s->vec > 1)
		return false;
	uint32_t per = ir_type_size(s->type) == 16 ? 2 : 1;
	uint32_t slot = (uint32_t)s->slot + (s->kind == SYM_REGRANGE ? index : 0) * per;
	if (slot >= f->fn->nslots)
		return false;
	*v = f->regs[(size_t)slot * LANES + lane];
	uint32_t size = ir_type_size(s->type);
	if (s->type == MOD_PRED)
		*v &= 1;
	else if (size && size < 8)
		*v &= (1ull << (size * 8)) - 1;
	*type = s->type;
	return true;
}

static bool compare(uint64_t a, enum cond_op op, uint64_t b)
{
	switch (op) {
	case COP_EQ: return a == b;
	case COP_NE: return a != b;
	case COP_LT: return a < b;
	case COP_LE: return a <= b;
	case COP_GT: return a > b;
	case COP_GE: return a >= b;
	}
	return false;
}

/* The lanes of g for which every condition of p holds. */
static uint32_t cond_lanes(struct dbg *d, struct warp *w, struct group *g,
			   const struct dbg_point *p)
{
	uint32_t m = g->mask;
	for (uint32_t i = 0; i < p->ncond && m; i++) {
		const struct dbg_cond *c = &p->cond[i];
		uint32_t ok = 0;
		for (uint32_t r = m; r; r &= r - 1) {
			uint32_t l = (uint32_t)__builtin_ctz(r);
			uint64_t v = 0;
			enum ir_mod type;
			switch (c->lhs) {
			case COND_WARP: v = w->id; break;
			case COND_THREAD: v = w->id * LANES + l; break;
			case COND_LANE: v = l; break;
			case COND_CTA: v = memcmp(w->cta->ctaid, c->cta, sizeof c->cta) != 0; break;
			case COND_REG:
				if (!dbg_reg_value(d, w, g->frame, l, c->reg, &v, &type))
					continue; /* not a register here: the condition is false */
				break;
			}
			if (c->lhs == COND_CTA ? (v == 0) == (c->op == COP_EQ)
					       : compare(v, c->op, c->value))
				ok |= 1u << l;
		}
		m &= ok;
	}
	return m;
}

/* A breakpoint at di whose condition holds for some lanes of g: it stops there. */
static bool breakpoint_hit(struct dbg *d, struct warp *w, struct group *g, const struct dinsn *di)
{
	uint32_t fn = (uint32_t)(g->frame->fn - d->P->funcs), pc = (uint32_t)(di - g->frame->fn->code);
	if (!d->bp_count || !d->bp_count[d->bp_base[fn] + pc])
		return false;
	for (uint32_t i = 0; i < DBG_MAX_POINTS; i++) {
		struct dbg_point *p = &d->pt[i];
		if (!p->id || p->watch)
			continue;
		for (uint32_t k = 0; k < p->nloc; k++) {
			if (p->loc[k].fn != fn || p->loc[k].pc != pc)
				continue;
			uint32_t lanes = cond_lanes(d, w, g, p);
			if (!lanes)
				break;
			p->hits++;
			d->stop_point = p->id;
			d->lane = (uint32_t)__builtin_ctz(lanes);
			return true;
		}
	}
	return false;
}

/* The CTA of the running cluster at ctaid c, or NULL. */
struct cta *dbg_find_cta(struct dbg *d, const uint32_t c[3])
{
	for (uint32_t r = 0; d->cl && r < d->cl->nctas; r++)
		if (memcmp(d->cl->ctas[r].ctaid, c, 3 * sizeof *c) == 0)
			return &d->cl->ctas[r];
	return NULL;
}

/* The word a watchpoint watches, now; false when it is not there (another cluster). */
bool dbg_watch_read(struct dbg *d, const struct dbg_point *p, uint32_t *v)
{
	if (p->space == MS_SHARED_CTA) {
		struct cta *c = dbg_find_cta(d, p->cta);
		if (!c || p->addr + 4 > c->smem_size)
			return false;
		memcpy(v, c->smem + p->addr, 4);
		return true;
	}
	struct region *r = mem_find(d->L->mem, p->addr, 4);
	if (!r)
		return false;
	memcpy(v, r->data + (p->addr - r->base), 4);
	return true;
}

/* A watched word that changed since the last look: says so, and stops. */
static bool watch_changed(struct dbg *d)
{
	bool stop = false;
	for (uint32_t i = 0; i < DBG_MAX_POINTS; i++) {
		struct dbg_point *p = &d->pt[i];
		uint32_t v;
		if (!p->id || !p->watch)
			continue;
		if (!dbg_watch_read(d, p, &v)) {
			p->have_old = false;
			continue;
		}
		if (p->have_old && v != p->old && !stop) {
			fprintf(d->out, "\nWatchpoint %u: %s\n\nOld value = %u (0x%x)\nNew value = %u "
				"(0x%x)\n", p->id, p->spec, p->old, p->old, v, v);
			if (d->last_w) {
				struct strbuf b = {0};
				describe_lanes(d->last_w, d->last_mask, &b);
				fprintf(d->out, "after CTA (%u,%u,%u) warp %u (%s) ran line %u\n",
					d->last_w->cta->ctaid[0], d->last_w->cta->ctaid[1],
					d->last_w->cta->ctaid[2], d->last_w->id, b.s ? b.s : "",
					dbg_line(d, d->last_di));
				sb_free(&b);
			}
			p->hits++;
			d->stop_point = p->id;
			stop = true;
		}
		p->old = v;
		p->have_old = true;
	}
	return stop;
}

/* ---- stepping ---------------------------------------------------------------------------- */

static bool step_done(struct dbg *d, struct warp *w, struct group *g, const struct dinsn *di)
{
	if (d->step == STEP_OFF || w != d->step_warp)
		return false;
	if (d->step_skip) {
		d->step_skip--;
		return false;
	}
	uint32_t depth = g->frame->depth;
	switch (d->step) {
	case STEP_INSN:
		return true;
	case STEP_LINE:
		return depth != d->step_depth || step_line(d, di) != d->step_line;
	case STEP_OVER:
		return depth < d->step_depth ||
		       (depth == d->step_depth && step_line(d, di) != d->step_line);
	case STEP_OUT:
		return depth < d->step_depth;
	case STEP_OFF:
		break;
	}
	return false;
}

/* Start stepping the selected warp (step, next, stepi, finish). */
bool dbg_start_step(struct dbg *d, enum dbg_step how)
{
	struct group *g = dbg_group_of(d->w, d->lane);
	if (!g)
		g = d->w->groups;
	if (!g || d->w->live == 0)
		return dbg_write_error(d, "warp %u has exited: select another (warp N)", d->w->id);
	if (how == STEP_OUT && g->frame->depth == 0)
		return dbg_write_error(d, "\"finish\" not meaningful in the outermost frame.");
	d->step = how;
	d->step_warp = d->w;
	d->step_depth = g->frame->depth;
	d->step_line = step_line(d, dbg_insn(g));
	/* the instruction at the stop runs next; another warp's first one is still to run */
	d->step_skip = d->w == d->sw ? 0 : 1;
	return true;
}

/* ---- stops ------------------------------------------------------------------------------- */

static void select_stop(struct dbg *d, struct warp *w, struct group *g)
{
	d->sw = w;
	d->sg = g;
	d->w = w;
	uint32_t mask = g ? g->mask : w ? w->live : 0;
	if (!(mask >> d->lane & 1) || d->why != WHY_BREAK)
		d->lane = mask ? (uint32_t)__builtin_ctz(mask) : 0;
}

/* Where the launch stopped and why, as a stop prints it. */
void dbg_stop_location(struct dbg *d)
{
	FILE *o = d->out;
	const struct launch_config *k = &d->L->cfg;
	switch (d->why) {
	case WHY_START:
		fprintf(o, "The launch of %s is stopped before its first instruction: grid (%u,%u,%u), "
			"block (%u,%u,%u)", d->L->kernel->name, k->grid[0], k->grid[1], k->grid[2],
			k->block[0], k->block[1], k->block[2]);
		if (k->cluster[0] * k->cluster[1] * k->cluster[2] > 1)
			fprintf(o, ", cluster (%u,%u,%u)", k->cluster[0], k->cluster[1], k->cluster[2]);
		fprintf(o, ", seed %llu.\n", (unsigned long long)k->seed);
		break;
	case WHY_BREAK:
		fprintf(o, "\nBreakpoint %u, ", d->stop_point);
		break;
	case WHY_INTERRUPT:
		fprintf(o, "\nInterrupted, ");
		break;
	case WHY_RULE:
		fprintf(o, "\nStopped: a rule was broken%s%s%s (the report is above); the last "
			"instruction run:\n", d->outp->rule[0] ? " [" : "", d->outp->rule, d->outp->rule[0] ? "]" : "");
		if (d->last_w)
			show_where(d, d->last_w, NULL, d->last_di);
		if (d->stopped_at_end)
			fprintf(o, "The launch ends here: 'continue' finishes it, 'run' starts it "
				"again.\n");
		return;
	case WHY_BLOCKED:
		fprintf(o, "\nStopped: %s (the report is above). The warps stand where they "
			"wait: info warps, info mbarriers, info barriers.\n",
			d->outp->rule[0] && strcmp(d->outp->rule, "step-limit") == 0
				? "the launch ran past the step limit"
				: "deadlock: no warp can run any more");
		return;
	case WHY_WATCH:
	case WHY_STEP:
		break;
	}
	if (d->sw && d->sg)
		show_where(d, d->sw, d->sg, dbg_insn(d->sg));
}

static void stop_here(struct dbg *d, struct warp *w, struct group *g)
{
	d->step = STEP_OFF;
	select_stop(d, w, g);
	if (d->why == WHY_RULE && d->last_w) { /* select the warp that broke it */
		d->w = d->last_w;
		d->lane = (uint32_t)__builtin_ctz(d->last_mask | 1u << 31);
	}
	dbg_stop_location(d);
	dbg_repl(d);
	interrupted = 0; /* a Ctrl-C at the prompt is no reason to stop again */
}

static void hook_before(void *ctx, struct launch *L, struct warp *w, struct group *g)
{
	struct dbg *d = ctx;
	if (d->killing || L->spin_rec) /* (the step limit's look at a loop is no run) */
		return;
	const struct dinsn *di = dbg_insn(g);
	d->L = L;
	d->cl = w->cta->cluster;
	bool stop = true;
	if (d->first) {
		d->first = false;
		d->outp->to = d->out;
		d->P = L->P;
		d->file = L->file;
		if (!d->bp_count)
			dbg_rebuild_breakpoints(d);
		d->why = WHY_START;
		watch_changed(d);
	} else if (interrupted) {
		interrupted = 0;
		d->why = WHY_INTERRUPT;
	} else if (gather_total(L) != d->reports) {
		gather_flush(L);
		d->why = WHY_RULE;
	} else if (watch_changed(d)) {
		d->why = WHY_WATCH;
	} else if (step_done(d, w, g, di)) {
		d->why = WHY_STEP;
	} else if (d->step != STEP_OFF && d->step_warp->live == 0) {
		fprintf(d->out, "\nwarp %u of CTA (%u,%u,%u) has exited.\n", d->step_warp->id,
			d->step_warp->cta->ctaid[0], d->step_warp->cta->ctaid[1],
			d->step_warp->cta->ctaid[2]);
		d->why = WHY_STEP;
	} else if (g->dbg_seen != di && breakpoint_hit(d, w, g, di)) {
		d->why = WHY_BREAK;
	} else {
		stop = false;
	}
	d->reports = gather_total(L);
	if (stop)
		stop_here(d, w, g);
	g->dbg_seen = di;
	d->last_w = w;
	d->last_di = di;
	d->last_mask = g->mask;
}

/* The first group of the cluster that waits (a deadlock's), else the warp that ran last. */
static struct warp *blocked_warp(struct dbg *d, struct cluster *cl, struct group **gp)
{
	for (uint32_t r = 0; r < cl->nctas; r++)
		for (uint32_t i = 0; i < cl->ctas[r].nwarps; i++)
			for (struct group *g = cl->ctas[r].warps[i].groups; g; g = g->next)
				if (g->state != G_DONE && g->state != G_READY) {
					*gp = g;
					return &cl->ctas[r].warps[i];
				}
	*gp = NULL;
	return d->last_w;
}

static void hook_cluster_end(void *ctx, struct launch *L, struct cluster *cl)
{
	struct dbg *d = ctx;
	d->L = L;
	d->cl = cl;
	if (!d->killing && !d->first) {
		uint32_t total = gather_total(L);
		bool report = total != d->reports;
		if (report)
			gather_flush(L);
		d->reports = total;
		bool watch = watch_changed(d);
		if (report || watch) {
			struct group *g = NULL;
			struct warp *w = L->status == 3 ? blocked_warp(d, cl, &g) : d->last_w;
			d->why = L->status == 3 ? WHY_BLOCKED : report ? WHY_RULE : WHY_WATCH;
			d->stopped_at_end = true;
			d->step = STEP_OFF;
			select_stop(d, w, g);
			dbg_stop_location(d);
			dbg_repl(d);
			interrupted = 0;
			d->stopped_at_end = false;
		}
	}
	/* the cluster's CTAs and warps go now */
	d->step = STEP_OFF;
	d->cl = NULL;
	d->w = d->sw = d->last_w = NULL;
	d->sg = NULL;
	for (uint32_t i = 0; i < DBG_MAX_POINTS; i++)
		if (d->pt[i].watch && d->pt[i].space == MS_SHARED_CTA)
			d->pt[i].have_old = false;
}

/* ---- the session ------------------------------------------------------------------------- */

int debug_take_args(struct debug_script *s, int argc, char **argv)
{
	memset(s, 0, sizeof *s);
	s->ex = calloc((size_t)argc + 1, sizeof *s->ex);
	if (!s->ex)
		return -1;
	int n = 0;
	for (int i = 0; i < argc; i++) {
		bool ex = strcmp(argv[i], "-ex") == 0, batch = strcmp(argv[i], "--batch") == 0;
		if (!ex && !batch && strncmp(argv[i], "--batch=", 8) != 0) {
			argv[n++] = argv[i];
			continue;
		}
		const char *v = !ex && !batch ? argv[i] + 8 : i + 1 < argc ? argv[++i] : NULL;
		if (!v || (!ex && s->batch)) {
			fprintf(stderr, v ? "ptxi: error: --batch is given twice\n"
					  : "ptxi: error: %s needs a value (see 'ptxi debug --help')\n",
				argv[i]);
			free(s->ex);
			s->ex = NULL;
			return -1;
		}
		if (ex)
			s->ex[s->nex++] = v;
		else
			s->batch = v;
	}
	return n;
}

int debug_session(ptxi_module *m, struct ptxi_config *cfg, const struct ptxi_arg *args,
		  unsigned nargs, const struct debug_script *s, struct debug_out *out)
{
	struct dbg *d = calloc(1, sizeof *d);
	if (!d)
		return PTXI_INVALID;
	d->in = input_new(s);
	if (!d->in) {
		free(d);
		return PTXI_INVALID;
	}
	d->out = out->to;
	d->outp = out;
	d->next_id = 1;
	d->hooks = (struct dbg_hooks){.ctx = d, .before = hook_before,
				      .cluster_end = hook_cluster_end};
	cfg->debugger = &d->hooks;
	cfg->jobs = 1;
	cfg->interrupt = NULL;
	cfg->progress = NULL;
	void (*old)(int) = signal(SIGINT, on_sigint);
	int status = 0;
	d->req = REQ_RUN;
	while (d->req != REQ_QUIT) {
		if (d->req == REQ_RUN) {
			d->req = REQ_NONE;
			d->first = true;
			d->killing = false;
			d->reports = 0;
			d->step = STEP_OFF;
			out->rule[0] = 0;
			out->muted = false;
			out->to = stderr; /* what stops the launch from starting is an error */
			for (uint32_t i = 0; i < DBG_MAX_POINTS; i++)
				d->pt[i].have_old = false;
			ptxi_run *r = NULL;
			int st = ptxi_launch(m, cfg, args, nargs, &r);
			ptxi_run_free(r);
			d->L = NULL;
			d->cl = NULL;
			d->w = d->sw = d->last_w = NULL;
			out->muted = false;
			if (d->first && !d->killing) { /* it never started: bad arguments */
				status = st;
				break;
			}
			if (d->req != REQ_NONE)
				continue;
			fprintf(d->out, "\n[the launch has ended: exit status %d]\n", st);
			status = st;
		}
		dbg_repl(d);
		if (d->req == REQ_NONE)
			d->req = REQ_QUIT;
	}
	signal(SIGINT, old);
	input_free(d->in);
	free(d->bp_base);
	free(d->bp_count);
	free(d);
	return status;
}
