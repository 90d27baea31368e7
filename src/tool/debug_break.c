/*
 * debug_break.c - breakpoints and watchpoints of `ptxi debug`: where a line, a source line
 * (.loc, code inlined at it included) or a function puts a breakpoint, its condition, the
 * word a watchpoint watches; break, watch, delete and info breakpoints.
 */
#include "debug_priv.h"

#include <string.h>

#include "front/ir.h"
#include "report/srcloc.h"

/* ---- breakpoints ------------------------------------------------------------------------- */

static struct dbg_point *new_point(struct dbg *d)
{
	for (uint32_t i = 0; i < DBG_MAX_POINTS; i++)
		if (!d->pt[i].id) {
			memset(&d->pt[i], 0, sizeof d->pt[i]);
			d->pt[i].id = d->next_id++;
			return &d->pt[i];
		}
	dbg_write_error(d, "too many breakpoints and watchpoints (at most %d)", DBG_MAX_POINTS);
	return NULL;
}

static const struct ir_srcfile *source_file(struct dbg *d, const char *name)
{
	const struct ir_module *m = d->P->m;
	for (uint32_t i = 0; i < m->nfiles; i++)
		if (strcmp(m->files[i].path, name) == 0 ||
		    strcmp(dbg_base_name(m->files[i].path), dbg_base_name(name)) == 0)
			return &m->files[i];
	return NULL;
}

/* The instructions at PTX line `line`, or at the next line that has one. */
static uint32_t locate_ptx_line(struct dbg *d, struct dbg_point *p, uint32_t line)
{
	uint32_t best = UINT32_MAX;
	for (uint32_t f = 0; f < d->P->nfuncs; f++)
		for (uint32_t pc = 0; pc < d->P->funcs[f].ncode; pc++) {
			uint32_t l = dbg_line(d, &d->P->funcs[f].code[pc]);
			if (l >= line && l < best)
				best = l;
		}
	for (uint32_t f = 0; best != UINT32_MAX && f < d->P->nfuncs; f++)
		for (uint32_t pc = 0; pc < d->P->funcs[f].ncode && p->nloc < DBG_MAX_LOCS; pc++)
			if (dbg_line(d, &d->P->funcs[f].code[pc]) == best)
				p->loc[p->nloc++] = (struct dbg_loc){f, pc};
	return best;
}

/* The line of `file` that instruction `in` runs for, at or after `from` and before `below`
 * (its own .loc, or a place its code was inlined at), or UINT32_MAX. */
static uint32_t loc_line(const struct ir_insn *in, uint32_t file, uint32_t from, uint32_t below)
{
	uint32_t best = UINT32_MAX;
	for (const struct ir_loc *l = in ? in->loc : NULL; l; l = l->inlined_at)
		if (l->file == file && l->line >= from && l->line < below && l->line < best)
			best = l->line;
	return best;
}

/* The instructions where source line `line` of .file `file` begins (the first of each run
 * of instructions of that line, inlined code included), or the next line that has some. */
static uint32_t locate_source_line(struct dbg *d, struct dbg_point *p, uint32_t file,
				   uint32_t line)
{
	uint32_t best = UINT32_MAX;
	for (uint32_t f = 0; f < d->P->nfuncs; f++)
		for (uint32_t pc = 0; pc < d->P->funcs[f].ncode; pc++) {
			uint32_t l = loc_line(d->P->funcs[f].code[pc].ir, file, line, best);
			if (l < best)
				best = l;
		}
	for (uint32_t f = 0; best != UINT32_MAX && f < d->P->nfuncs; f++) {
		const struct dfunc *fn = &d->P->funcs[f];
		for (uint32_t pc = 0; pc < fn->ncode && p->nloc < DBG_MAX_LOCS; pc++) {
			bool here = loc_line(fn->code[pc].ir, file, best, best + 1) == best;
			bool before = pc && loc_line(fn->code[pc - 1].ir, file, best, best + 1) == best;
			if (here && !before)
				p->loc[p->nloc++] = (struct dbg_loc){f, pc};
		}
	}
	return best;
}

static bool parse_cond(struct dbg *d, struct dbg_point *p, char *s)
{
	for (char *t = s; t && *dbg_skip(t);) {
		char *and = strstr(t, "&&");
		if (and)
			*and = 0;
		if (p->ncond == DBG_MAX_COND)
			return dbg_write_error(d, "at most %d conditions", DBG_MAX_COND);
		struct dbg_cond *c = &p->cond[p->ncond];
		t = dbg_skip(t);
		size_t n = strcspn(t, " =!<>");
		static const char *const ops[] = {"==", "!=", "<=", ">=", "<", ">"};
		static const enum cond_op opv[] = {COP_EQ, COP_NE, COP_LE, COP_GE, COP_LT, COP_GT};
		char *o = dbg_skip(t + n);
		int k = 0;
		while (k < 6 && strncmp(o, ops[k], strlen(ops[k])) != 0)
			k++;
		if (k == 6 || n == 0 || n >= sizeof c->reg)
			return dbg_write_error(d, "bad condition '%s' (want LHS OP N: warp, thread, "
					       "lane, %%reg; or cta == X,Y,Z)", t);
		c->op = opv[k];
		char *rhs = o + strlen(ops[k]);
		if (n == 3 && strncmp(t, "cta", 3) == 0) {
			c->lhs = COND_CTA;
			if ((c->op != COP_EQ && c->op != COP_NE) || !dbg_coords(rhs, c->cta))
				return dbg_write_error(d, "bad condition: want cta == X,Y,Z or cta != X,Y,Z");
		} else {
			if (n == 4 && strncmp(t, "warp", 4) == 0)
				c->lhs = COND_WARP;
			else if (n == 6 && strncmp(t, "thread", 6) == 0)
				c->lhs = COND_THREAD;
			else if (n == 4 && strncmp(t, "lane", 4) == 0)
				c->lhs = COND_LANE;
			else if (t[0] == '%') {
				c->lhs = COND_REG;
				memcpy(c->reg, t, n);
				c->reg[n] = 0;
			} else
				return dbg_write_error(d, "bad condition '%.*s' (warp, thread, lane, "
						       "%%reg or cta)", (int)n, t);
			if (!dbg_only_number(rhs, &c->value))
				return dbg_write_error(d, "bad condition: '%s' is no number", dbg_skip(rhs));
		}
		p->ncond++;
		t = and ? and + 2 : NULL;
	}
	return true;
}

bool cmd_BREAK(struct dbg *d, char *a)
{
	if (!d->P)
		return dbg_write_error(d, "no program yet");
	char *cond = strstr(a, " if ");
	if (cond)
		*cond = 0;
	dbg_trim(a);
	if (!*a)
		return dbg_write_error(d, "usage: break LINE | FILE:LINE | FUNCTION [if COND]");
	struct dbg_point *p = new_point(d);
	if (!p)
		return false;
	snprintf(p->spec, sizeof p->spec, "%s%s%s", a, cond ? " if " : "", cond ? dbg_skip(cond + 4) : "");
	if (cond && !parse_cond(d, p, cond + 4)) {
		p->id = 0;
		d->next_id--;
		return false;
	}
	char *colon = strrchr(a, ':');
	uint64_t line = 0;
	uint32_t at = UINT32_MAX;
	const char *file = dbg_base_name(d->file->path);
	if (dbg_only_number(a, &line)) {
		at = locate_ptx_line(d, p, (uint32_t)line);
	} else if (colon && dbg_only_number(colon + 1, &line)) {
		*colon = 0;
		const struct ir_srcfile *sf = NULL;
		if (strcmp(dbg_base_name(a), dbg_base_name(d->file->path)) == 0)
			at = locate_ptx_line(d, p, (uint32_t)line);
		else if ((sf = source_file(d, a)) != NULL) {
			at = locate_source_line(d, p, sf->index, (uint32_t)line);
			file = dbg_base_name(sf->path);
		} else {
			p->id = 0;
			d->next_id--;
			return dbg_write_error(d, "No source file named %s (the module's: %s and its "
					       ".file entries).", a, dbg_base_name(d->file->path));
		}
	} else {
		for (uint32_t f = 0; f < d->P->nfuncs; f++)
			if (strcmp(d->P->funcs[f].name, a) == 0 && d->P->funcs[f].ncode) {
				p->loc[p->nloc++] = (struct dbg_loc){f, 0};
				at = dbg_line(d, &d->P->funcs[f].code[0]);
			}
		if (!p->nloc) {
			p->id = 0;
			d->next_id--;
			return dbg_write_error(d, "Function \"%s\" not defined.", a);
		}
	}
	if (!p->nloc) {
		p->id = 0;
		d->next_id--;
		return dbg_write_error(d, "No line %llu or later with an instruction in %s.",
				       (unsigned long long)line, file);
	}
	fprintf(d->out, "Breakpoint %u at %s:%u", p->id, file, at);
	if (p->nloc > 1)
		fprintf(d->out, " (%u instructions)", p->nloc);
	fprintf(d->out, "\n");
	dbg_rebuild_breakpoints(d);
	return false;
}

bool cmd_DELETE(struct dbg *d, char *a)
{
	uint64_t n;
	a = dbg_skip(a);
	if (!*a) {
		for (uint32_t i = 0; i < DBG_MAX_POINTS; i++)
			d->pt[i].id = 0;
	} else if (!dbg_only_number(a, &n)) {
		return dbg_write_error(d, "usage: delete [N]");
	} else {
		uint32_t i = 0;
		while (i < DBG_MAX_POINTS && d->pt[i].id != n)
			i++;
		if (i == DBG_MAX_POINTS)
			return dbg_write_error(d, "No breakpoint number %llu.", (unsigned long long)n);
		d->pt[i].id = 0;
	}
	dbg_rebuild_breakpoints(d);
	return false;
}

bool cmd_WATCH(struct dbg *d, char *a)
{
	enum mspace space;
	uint64_t addr;
	const struct ir_sym *s;
	if (!dbg_mem_operand(d, a, &space, &addr, &s))
		return false;
	if (space != MS_SHARED_CTA && space != MS_GLOBAL)
		return dbg_write_error(d, "watch watches shared or global memory");
	if (addr % 4)
		return dbg_write_error(d, "watch watches an aligned 32-bit word: 0x%llx is not "
				       "4-byte aligned", (unsigned long long)addr);
	if (!dbg_mem_bytes(d, space, addr, 4))
		return false;
	struct dbg_point *p = new_point(d);
	if (!p)
		return false;
	p->watch = true;
	p->space = space;
	p->addr = addr;
	memcpy(p->cta, d->w->cta->ctaid, sizeof p->cta);
	int n = snprintf(p->spec, sizeof p->spec, "%s 0x%llx", dbg_space_word(space),
			 (unsigned long long)addr);
	if (space == MS_SHARED_CTA) {
		uint32_t within = 0;
		const struct ir_sym *v = srcloc_shared_var(d->L->kernel, (uint32_t)addr, &within);
		struct strbuf b = {0};
		if (v && within < ir_sym_bytes(v))
			srcloc_var(v, within, 4, &b);
		snprintf(p->spec + n, sizeof p->spec - (size_t)n, "%s%s of CTA (%u,%u,%u)",
			 b.s ? " " : "", b.s ? b.s : "", p->cta[0], p->cta[1], p->cta[2]);
		sb_free(&b);
	} else if (s) {
		snprintf(p->spec + n, sizeof p->spec - (size_t)n, " '%s+%llu'", s->name,
			 (unsigned long long)(addr - s->addr));
	}
	p->have_old = dbg_watch_read(d, p, &p->old);
	fprintf(d->out, "Watchpoint %u: %s\n", p->id, p->spec);
	return false;
}

void dbg_info_breakpoints(struct dbg *d)
{
	bool any = false;
	for (uint32_t i = 0; i < DBG_MAX_POINTS; i++) {
		const struct dbg_point *p = &d->pt[i];
		if (!p->id)
			continue;
		if (!any)
			fprintf(d->out, "Num  Type        Hits  What\n");
		any = true;
		fprintf(d->out, "%-4u %-11s %-5u %s\n", p->id, p->watch ? "watchpoint" : "breakpoint",
			p->hits, p->spec);
	}
	if (!any)
		fprintf(d->out, "No breakpoints or watchpoints.\n");
}

