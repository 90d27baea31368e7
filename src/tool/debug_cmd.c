/*
 * debug_cmd.c - the command language of `ptxi debug`: the table of commands
 * (debug_cmds.def), the loop that reads them while the launch is stopped (or between
 * launches), the words they share, and the commands that run, select and explain;
 * breakpoints are debug_break.c's, values and memory debug_print.c's. A handler returns true
 * when the launch should go on (or end).
 */
#include "debug_priv.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "front/ir.h"

static const struct dbg_cmd {
	const char *name, *alias;
	bool running;
	const char *usage, *help;
	cmd_fn *fn;
} cmds[] = {
#define CMD(id, name, alias, running, usage, help) {name, alias, running, usage, help, cmd_##id},
#include "debug_cmds.def"
#undef CMD
};
#define NCMDS (sizeof cmds / sizeof cmds[0])

/* ---- parsing ----------------------------------------------------------------------------- */

char *dbg_skip(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

void dbg_trim(char *s)
{
	size_t n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = 0;
}

/* A number (decimal or 0x hex) at *s, moving *s past it. */
bool dbg_number(char **s, uint64_t *v)
{
	char *end;
	*s = dbg_skip(*s);
	if (!isdigit((unsigned char)**s))
		return false;
	*v = strtoull(*s, &end, 0);
	*s = end;
	return true;
}

/* A whole argument that is one number. */
bool dbg_only_number(char *s, uint64_t *v)
{
	return dbg_number(&s, v) && !*dbg_skip(s);
}

bool dbg_coords(char *s, uint32_t c[3])
{
	uint64_t v[3] = {0, 0, 0};
	int n = 0;
	for (; n < 3; n++) {
		if (!dbg_number(&s, &v[n]) || v[n] > UINT32_MAX)
			return false;
		s = dbg_skip(s);
		if (*s != ',')
			break;
		s++;
	}
	if (*dbg_skip(s))
		return false;
	for (int i = 0; i < 3; i++)
		c[i] = (uint32_t)v[i];
	return true;
}

const char *dbg_base_name(const char *path)
{
	const char *b = strrchr(path, '/');
	return b ? b + 1 : path;
}

/* ---- running ----------------------------------------------------------------------------- */

/* End the running launch: it unwinds with no stop and no output. */
static void kill_launch(struct dbg *d)
{
	if (!d->L)
		return;
	d->killing = true;
	d->outp->muted = true;
	d->L->stop = true;
}

bool cmd_RUN(struct dbg *d, char *a)
{
	(void)a;
	d->req = REQ_RUN;
	kill_launch(d);
	return true;
}

bool cmd_QUIT(struct dbg *d, char *a)
{
	(void)a;
	d->req = REQ_QUIT;
	kill_launch(d);
	return true;
}

bool cmd_CONTINUE(struct dbg *d, char *a)
{
	(void)a;
	d->step = STEP_OFF;
	return true;
}

static bool stepping(struct dbg *d, enum dbg_step how)
{
	if (d->stopped_at_end)
		return dbg_write_error(d, "Nothing runs any more in this cluster: 'continue' ends "
				       "the launch, 'run' starts it again.");
	return dbg_start_step(d, how);
}

bool cmd_STEP(struct dbg *d, char *a)
{
	(void)a;
	return stepping(d, STEP_LINE);
}

bool cmd_NEXT(struct dbg *d, char *a)
{
	(void)a;
	return stepping(d, STEP_OVER);
}

bool cmd_STEPI(struct dbg *d, char *a)
{
	(void)a;
	return stepping(d, STEP_INSN);
}

bool cmd_FINISH(struct dbg *d, char *a)
{
	(void)a;
	return stepping(d, STEP_OUT);
}

/* ---- selection --------------------------------------------------------------------------- */

static void show_selected(struct dbg *d)
{
	const struct cta *c = d->w->cta;
	uint32_t t = d->w->id * LANES + d->lane, bx = d->L->cfg.block[0], by = d->L->cfg.block[1];
	fprintf(d->out, "[CTA (%u,%u,%u) warp %u lane %u: thread %u (%u,%u,%u)]\n", c->ctaid[0],
		c->ctaid[1], c->ctaid[2], d->w->id, d->lane, t, t % bx, (t / bx) % by,
		t / (bx * by));
	struct group *g = dbg_group_of(d->w, d->lane);
	if (g)
		show_where(d, d->w, g, dbg_insn(g));
	else
		fprintf(d->out, "(this thread has exited)\n");
}

static void select_warp(struct dbg *d, struct warp *w)
{
	d->w = w;
	uint32_t m = w->live ? w->live : w->valid;
	d->lane = m ? (uint32_t)__builtin_ctz(m) : 0;
}

bool cmd_CTA(struct dbg *d, char *a)
{
	uint32_t c[3];
	if (!dbg_coords(a, c))
		return dbg_write_error(d, "usage: cta X,Y,Z");
	struct cta *cta = dbg_find_cta(d, c);
	if (!cta)
		return dbg_write_error(d, "No CTA (%u,%u,%u) in the running cluster (the grid is "
				       "(%u,%u,%u); clusters run one after another).", c[0], c[1],
				       c[2], d->L->cfg.grid[0], d->L->cfg.grid[1], d->L->cfg.grid[2]);
	uint32_t id = d->w && d->w->id < cta->nwarps ? d->w->id : 0;
	select_warp(d, &cta->warps[id]);
	show_selected(d);
	return false;
}

bool cmd_WARP(struct dbg *d, char *a)
{
	uint64_t n;
	if (!dbg_only_number(a, &n))
		return dbg_write_error(d, "usage: warp N");
	if (n >= d->w->cta->nwarps)
		return dbg_write_error(d, "the CTA has warps 0-%u", d->w->cta->nwarps - 1);
	select_warp(d, &d->w->cta->warps[n]);
	show_selected(d);
	return false;
}

bool cmd_THREAD(struct dbg *d, char *a)
{
	uint64_t n;
	if (!dbg_only_number(a, &n))
		return dbg_write_error(d, "usage: thread N (a linear thread id of the CTA)");
	if (n >= d->w->cta->nthreads)
		return dbg_write_error(d, "the CTA has threads 0-%u", d->w->cta->nthreads - 1);
	d->w = &d->w->cta->warps[n / LANES];
	d->lane = (uint32_t)(n % LANES);
	show_selected(d);
	return false;
}

/* ---- info, backtrace, explain, help ------------------------------------------------------ */

bool cmd_INFO(struct dbg *d, char *a)
{
	static const struct { const char *name; void (*fn)(struct dbg *); bool running; } what[] = {
		{"warps", show_info_warps, true}, {"threads", show_info_threads, true},
		{"mbarriers", show_info_mbarriers, true}, {"copies", show_info_copies, true},
		{"barriers", show_info_barriers, true}, {"breakpoints", dbg_info_breakpoints, false},
		{"watchpoints", dbg_info_breakpoints, false}};
	a = dbg_skip(a);
	dbg_trim(a);
	size_t n = strlen(a), hit = 0, k = 0;
	for (size_t i = 0; i < sizeof what / sizeof what[0]; i++)
		if (n && strncmp(what[i].name, a, n) == 0) {
			hit++;
			k = i;
		}
	if (hit != 1)
		return dbg_write_error(d, "usage: info warps|threads|mbarriers|copies|barriers|"
				       "breakpoints");
	if (what[k].running && !d->L)
		return dbg_write_error(d, "The launch is not running.");
	what[k].fn(d);
	return false;
}

bool cmd_BACKTRACE(struct dbg *d, char *a)
{
	(void)a;
	show_backtrace(d);
	return false;
}

/* ptxi explain's topic, its output kept when it has none. */
static bool explain_topic(struct dbg *d, const char *topic)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *err = open_memstream(&buf, &len);
	if (!err)
		return false;
	fflush(d->out);
	int st = ptxi_explain(topic, d->out, err);
	fclose(err);
	free(buf);
	return st == 0;
}

bool cmd_EXPLAIN(struct dbg *d, char *a)
{
	(void)a;
	/* the rule broken at the stop, or the deadlock (the step limit has no topic: the
	 * instruction the selected warp runs at says more) */
	if ((d->why == WHY_RULE || d->why == WHY_BLOCKED) && d->outp->rule[0] &&
	    explain_topic(d, d->outp->rule))
		return false;
	struct group *g = dbg_group_of(d->w, d->lane);
	if (!g)
		return dbg_write_error(d, "thread %u has exited", d->w->id * LANES + d->lane);
	char op[64];
	snprintf(op, sizeof op, "%s", ir_op_name((enum ir_op)dbg_insn(g)->op));
	/* the instruction's name, then shorter: mbarrier.try_wait.parity -> mbarrier.try_wait */
	for (char *dot; *op; *dot = 0) {
		if (explain_topic(d, op))
			return false;
		if (!(dot = strrchr(op, '.')))
			break;
	}
	return dbg_write_error(d, "ptxi explain has no topic for '%s' ('ptxi explain' lists "
			       "them)", ir_op_name((enum ir_op)dbg_insn(g)->op));
}

bool cmd_HELP(struct dbg *d, char *a)
{
	(void)a;
	for (size_t i = 0; i < NCMDS; i++)
		fprintf(d->out, "%s%s%s%s\n    %s\n", cmds[i].usage, cmds[i].alias ? " (" : "",
			cmds[i].alias ? cmds[i].alias : "", cmds[i].alias ? ")" : "", cmds[i].help);
	return false;
}

/* ---- the loop ---------------------------------------------------------------------------- */

bool dbg_command(struct dbg *d, char *line)
{
	char *s = dbg_skip(line);
	size_t n = 0;
	while (s[n] && !isspace((unsigned char)s[n]) && s[n] != '/')
		n++;
	const struct dbg_cmd *c = NULL;
	unsigned matches = 0;
	for (size_t i = 0; i < NCMDS; i++) {
		if ((cmds[i].alias && strlen(cmds[i].alias) == n && strncmp(cmds[i].alias, s, n) == 0) ||
		    (strlen(cmds[i].name) == n && strncmp(cmds[i].name, s, n) == 0)) {
			c = &cmds[i];
			matches = 1;
			break;
		}
		if (n && strncmp(cmds[i].name, s, n) == 0) {
			c = &cmds[i];
			matches++;
		}
	}
	if (n == 5 && strncmp(s, "where", 5) == 0) { /* GDB's other word for it */
		c = &cmds[0];
		while (c->fn != cmd_BACKTRACE)
			c++;
		matches = 1;
	}
	if (matches != 1) {
		dbg_write_error(d, matches ? "Ambiguous command \"%.*s\"." :
			"Undefined command: \"%.*s\".  Try \"help\".", (int)n, s);
		return false;
	}
	if (c->running && (!d->L || !d->w)) {
		dbg_write_error(d, "The launch is not running.");
		return false;
	}
	return c->fn(d, dbg_skip(s + n));
}

void dbg_repl(struct dbg *d)
{
	for (;;) {
		fflush(d->out);
		char *line = input_line(d->in, d->out);
		if (!line) {
			if (d->req == REQ_NONE)
				cmd_QUIT(d, NULL);
			return;
		}
		bool go = dbg_command(d, line);
		free(line);
		if (go)
			return;
	}
}
