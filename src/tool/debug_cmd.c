/*
 * debug_cmd.c - the command language of `ptxi debug`: one handler per row of
 * debug_cmds.def, and the loop that reads commands while the launch is stopped (or between
 * launches). A handler returns true when the launch should go on (or end).
 */
#include "debug_priv.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "front/ir.h"
#include "report/srcloc.h"
#include "run/memory.h"

typedef bool cmd_fn(struct dbg *d, char *args);

#define CMD(id, name, alias, running, usage, help) static cmd_fn cmd_##id;
#include "debug_cmds.def"
#undef CMD

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

static char *skip(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

static void trim(char *s)
{
	size_t n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = 0;
}

/* A number (decimal or 0x hex) at *s, moving *s past it. */
static bool number(char **s, uint64_t *v)
{
	char *end;
	*s = skip(*s);
	if (!isdigit((unsigned char)**s))
		return false;
	*v = strtoull(*s, &end, 0);
	*s = end;
	return true;
}

/* A whole argument that is one number. */
static bool only_number(char *s, uint64_t *v)
{
	return number(&s, v) && !*skip(s);
}

static bool coords(char *s, uint32_t c[3])
{
	uint64_t v[3] = {0, 0, 0};
	int n = 0;
	for (; n < 3; n++) {
		if (!number(&s, &v[n]) || v[n] > UINT32_MAX)
			return false;
		s = skip(s);
		if (*s != ',')
			break;
		s++;
	}
	if (*skip(s))
		return false;
	for (int i = 0; i < 3; i++)
		c[i] = (uint32_t)v[i];
	return true;
}

static const char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');
	return b ? b + 1 : path;
}

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
		    strcmp(base_name(m->files[i].path), base_name(name)) == 0)
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
	for (char *t = s; t && *skip(t);) {
		char *and = strstr(t, "&&");
		if (and)
			*and = 0;
		if (p->ncond == DBG_MAX_COND)
			return dbg_write_error(d, "at most %d conditions", DBG_MAX_COND);
		struct dbg_cond *c = &p->cond[p->ncond];
		t = skip(t);
		size_t n = strcspn(t, " =!<>");
		static const char *const ops[] = {"==", "!=", "<=", ">=", "<", ">"};
		static const enum cond_op opv[] = {COP_EQ, COP_NE, COP_LE, COP_GE, COP_LT, COP_GT};
		char *o = skip(t + n);
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
			if ((c->op != COP_EQ && c->op != COP_NE) || !coords(rhs, c->cta))
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
			if (!only_number(rhs, &c->value))
				return dbg_write_error(d, "bad condition: '%s' is no number", skip(rhs));
		}
		p->ncond++;
		t = and ? and + 2 : NULL;
	}
	return true;
}

static bool cmd_BREAK(struct dbg *d, char *a)
{
	if (!d->P)
		return dbg_write_error(d, "no program yet");
	char *cond = strstr(a, " if ");
	if (cond)
		*cond = 0;
	trim(a);
	if (!*a)
		return dbg_write_error(d, "usage: break LINE | FILE:LINE | FUNCTION [if COND]");
	struct dbg_point *p = new_point(d);
	if (!p)
		return false;
	snprintf(p->spec, sizeof p->spec, "%s%s%s", a, cond ? " if " : "", cond ? skip(cond + 4) : "");
	if (cond && !parse_cond(d, p, cond + 4)) {
		p->id = 0;
		d->next_id--;
		return false;
	}
	char *colon = strrchr(a, ':');
	uint64_t line = 0;
	uint32_t at = UINT32_MAX;
	const char *file = base_name(d->file->path);
	if (only_number(a, &line)) {
		at = locate_ptx_line(d, p, (uint32_t)line);
	} else if (colon && only_number(colon + 1, &line)) {
		*colon = 0;
		const struct ir_srcfile *sf = NULL;
		if (strcmp(base_name(a), base_name(d->file->path)) == 0)
			at = locate_ptx_line(d, p, (uint32_t)line);
		else if ((sf = source_file(d, a)) != NULL) {
			at = locate_source_line(d, p, sf->index, (uint32_t)line);
			file = base_name(sf->path);
		} else {
			p->id = 0;
			d->next_id--;
			return dbg_write_error(d, "No source file named %s (the module's: %s and its "
					       ".file entries).", a, base_name(d->file->path));
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

static bool cmd_DELETE(struct dbg *d, char *a)
{
	uint64_t n;
	a = skip(a);
	if (!*a) {
		for (uint32_t i = 0; i < DBG_MAX_POINTS; i++)
			d->pt[i].id = 0;
	} else if (!only_number(a, &n)) {
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

/* ---- memory operands --------------------------------------------------------------------- */

static const struct { const char *name; enum mspace space; } spaces[] = {
	{"shared", MS_SHARED_CTA}, {"global", MS_GLOBAL}, {"local", MS_LOCAL},
	{"param", MS_PARAM_KERNEL}, {"const", MS_CONST}};

static const char *space_word(enum mspace s)
{
	for (size_t i = 0; i < sizeof spaces / sizeof spaces[0]; i++)
		if (spaces[i].space == s)
			return spaces[i].name;
	return "?";
}

/* A variable by name as the selected thread sees it (its function's scope, the module's). */
static const struct ir_sym *find_var(struct dbg *d, const char *name, size_t n)
{
	struct group *g = d->w ? dbg_group_of(d->w, d->lane) : NULL;
	struct ir_scope *scope = g ? g->frame->fn->ir->scope : d->L->kernel->ir->scope;
	uint32_t index;
	const struct ir_sym *s = ir_lookup(d->P->m, scope, name, (uint32_t)n, &index);
	return s && s->kind == SYM_VAR ? s : NULL;
}

static enum mspace sym_space(const struct ir_sym *s)
{
	switch (s->space) {
	case MOD_SHARED:
	case MOD_SHARED_CTA: return MS_SHARED_CTA;
	case MOD_GLOBAL: return MS_GLOBAL;
	case MOD_LOCAL: return MS_LOCAL;
	case MOD_CONST: return MS_CONST;
	case MOD_PARAM: return s->is_param ? MS_PARAM_KERNEL : MS_NONE;
	default: return MS_NONE;
	}
}

/* "[SPACE] ADDR" or "SYMBOL[+OFF]": the space and address; *sym the variable if named. */
static bool mem_operand(struct dbg *d, char *a, enum mspace *space, uint64_t *addr,
			const struct ir_sym **sym)
{
	a = skip(a);
	trim(a);
	*sym = NULL;
	*space = MS_NONE;
	size_t n = strcspn(a, " \t");
	for (size_t i = 0; i < sizeof spaces / sizeof spaces[0]; i++)
		if (strlen(spaces[i].name) == n && strncmp(a, spaces[i].name, n) == 0) {
			*space = spaces[i].space;
			a = skip(a + n);
			break;
		}
	uint64_t off = 0;
	enum ir_mod type;
	bool at = false; /* a number, or a register holding the address */
	if (*a == '%') {
		struct group *g = dbg_group_of(d->w, d->lane);
		if (!g || !dbg_reg_value(d, d->w, g->frame, d->lane, a, addr, &type))
			return dbg_write_error(d, "No register \"%s\" here.", a);
		at = true;
	} else {
		at = only_number(a, addr);
	}
	if (at) {
		if (*space == MS_NONE)
			*space = mem_generic_space(*addr) == MS_GLOBAL ? MS_GLOBAL : MS_NONE;
		if (*space == MS_NONE) {
			enum mspace s = MS_GENERIC;
			mem_concrete(&s, addr);
			*space = s == MS_SHARED_CTA || s == MS_SHARED_CLUSTER ? MS_SHARED_CTA : s;
		}
		return true;
	}
	char *plus = strchr(a, '+');
	size_t len = plus ? (size_t)(plus - a) : strlen(a);
	while (len && isspace((unsigned char)a[len - 1]))
		len--;
	if (plus && !only_number(plus + 1, &off))
		return dbg_write_error(d, "bad offset '%s'", plus + 1);
	const struct ir_sym *s = len ? find_var(d, a, len) : NULL;
	if (!s)
		return dbg_write_error(d, "No symbol \"%.*s\" in the current context (want SPACE "
				       "ADDR or a variable).", (int)len, a);
	enum mspace ss = sym_space(s);
	if (ss == MS_NONE)
		return dbg_write_error(d, "'%s' is no variable of shared, global, local, param or "
				       "const memory", s->name);
	if (*space != MS_NONE && *space != ss)
		return dbg_write_error(d, "'%s' is in %s memory", s->name, space_word(ss));
	*space = ss;
	*addr = s->addr + off;
	*sym = s;
	return true;
}

/* Bytes of memory as the selected thread sees them: a pointer to `size` bytes, or NULL
 * after saying why. */
static const uint8_t *mem_bytes(struct dbg *d, enum mspace space, uint64_t addr, uint64_t size)
{
	struct launch *L = d->L;
	switch (space) {
	case MS_SHARED_CTA:
		if (addr + size > d->w->cta->smem_size || addr + size < addr)
			break;
		return d->w->cta->smem + addr;
	case MS_GLOBAL: {
		struct region *r = mem_find(L->mem, addr, size);
		if (!r)
			break;
		return r->data + (addr - r->base);
	}
	case MS_LOCAL: {
		struct group *g = dbg_group_of(d->w, d->lane);
		uint64_t a = addr + (g ? g->frame->local_base : 0);
		if (!d->w->local || a + size > d->w->local_stride)
			break;
		return d->w->local + (size_t)d->lane * d->w->local_stride + a;
	}
	case MS_PARAM_KERNEL:
		if (addr + size > L->kparam_size)
			break;
		return L->kparams + addr;
	case MS_CONST:
		if (addr + size > L->P->const_size)
			break;
		return L->const_bank + addr;
	default:
		break;
	}
	dbg_write_error(d, "Cannot access %s memory at 0x%llx (%llu bytes).", space_word(space),
			(unsigned long long)addr, (unsigned long long)size);
	return NULL;
}

/* ---- print and x ------------------------------------------------------------------------- */

static void format_value(FILE *o, char fmt, uint64_t v, uint32_t size, enum ir_mod type)
{
	if (fmt == 0)
		fmt = type == MOD_F32 || type == MOD_F64 ? 'f'
		      : type == MOD_S8 || type == MOD_S16 || type == MOD_S32 || type == MOD_S64 ? 'd'
		      : 'u';
	switch (fmt) {
	case 'x':
		fprintf(o, "0x%llx", (unsigned long long)v);
		break;
	case 'd': {
		int64_t s = size >= 8 ? (int64_t)v : (int64_t)(v << (64 - 8 * size)) >> (64 - 8 * size);
		fprintf(o, "%lld", (long long)s);
		break;
	}
	case 'f':
		if (size == 4) {
			float f;
			uint32_t b = (uint32_t)v;
			memcpy(&f, &b, 4);
			fprintf(o, "%.9g", (double)f);
		} else if (size == 8) {
			double f;
			memcpy(&f, &v, 8);
			fprintf(o, "%.17g", f);
		} else {
			fprintf(o, "0x%llx", (unsigned long long)v);
		}
		break;
	default:
		fprintf(o, "%llu", (unsigned long long)v);
	}
}

static bool print_format(struct dbg *d, char **a, char *fmt)
{
	*fmt = 0;
	if (**a != '/')
		return true;
	char f = (*a)[1];
	if (!strchr("xduf", f) || !f || ((*a)[2] && !isspace((unsigned char)(*a)[2])))
		return dbg_write_error(d, "bad format '/%c' (want /x, /d, /u or /f)", f);
	*fmt = f;
	*a += 2;
	return true;
}

/* "@all", "@5", "@0-3,8": a lane mask. */
static bool lane_set(char *s, uint32_t *mask)
{
	*mask = 0;
	s = skip(s);
	if (strcmp(s, "all") == 0) {
		*mask = FULL_MASK;
		return true;
	}
	while (*s) {
		uint64_t a, b;
		if (!number(&s, &a) || a >= LANES)
			return false;
		b = a;
		s = skip(s);
		if (*s == '-') {
			s++;
			if (!number(&s, &b) || b >= LANES || b < a)
				return false;
		}
		for (uint64_t l = a; l <= b; l++)
			*mask |= 1u << l;
		s = skip(s);
		if (*s == ',')
			s = skip(s + 1);
		else if (*s)
			return false;
	}
	return *mask != 0;
}

static uint32_t type_size(enum ir_mod t)
{
	uint32_t n = ir_type_size(t);
	return n ? n : 8;
}

static bool print_register(struct dbg *d, char *a, char fmt)
{
	char *at = strchr(a, '@');
	uint32_t lanes = 1u << d->lane;
	bool several = false;
	if (at) {
		*at = 0;
		if (!lane_set(at + 1, &lanes))
			return dbg_write_error(d, "bad lanes '%s' (want all, N, A-B or a list)", at + 1);
		several = true;
	}
	trim(a);
	uint64_t v;
	enum ir_mod type;
	struct group *g0 = dbg_group_of(d->w, d->lane);
	if (!several) {
		if (!g0)
			return dbg_write_error(d, "thread %u has exited", d->w->id * LANES + d->lane);
		if (!dbg_reg_value(d, d->w, g0->frame, d->lane, a, &v, &type))
			return dbg_write_error(d, "No register \"%s\" in %s.", a, g0->frame->fn->name);
		fprintf(d->out, "$%u = ", ++d->nvalues);
		format_value(d->out, fmt, v, type_size(type), type);
		fprintf(d->out, "\n");
		return false;
	}
	fprintf(d->out, "$%u = {", ++d->nvalues);
	bool first = true;
	for (uint32_t m = lanes; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		struct group *g = dbg_group_of(d->w, l);
		fprintf(d->out, "%s[%u] = ", first ? "" : ", ", l);
		first = false;
		if (!(d->w->valid >> l & 1))
			fprintf(d->out, "<no thread>");
		else if (!g)
			fprintf(d->out, "<exited>");
		else if (!dbg_reg_value(d, d->w, g->frame, l, a, &v, &type))
			fprintf(d->out, "<no %s in %s>", a, g->frame->fn->name);
		else
			format_value(d->out, fmt, v, type_size(type), type);
	}
	fprintf(d->out, "}\n");
	return false;
}

static bool cmd_PRINT(struct dbg *d, char *a)
{
	char fmt;
	a = skip(a);
	if (!print_format(d, &a, &fmt))
		return false;
	a = skip(a);
	if (!*a)
		return dbg_write_error(d, "usage: print[/x] %%REG [@LANES] | SYMBOL");
	/* a register (%r1, or a .func's parameter x), else a variable */
	size_t len = strcspn(a, " @");
	char name[128];
	snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1), a);
	uint64_t v;
	enum ir_mod type;
	struct group *g = dbg_group_of(d->w, d->lane);
	if (*a == '%' || (g && dbg_reg_value(d, d->w, g->frame, d->lane, name, &v, &type)))
		return print_register(d, a, fmt);
	enum mspace space;
	uint64_t addr;
	const struct ir_sym *s;
	if (!mem_operand(d, a, &space, &addr, &s))
		return false;
	if (!s)
		return dbg_write_error(d, "print takes a register or a variable (x reads memory)");
	uint32_t es = type_size(s->type) * (uint32_t)(s->vec > 1 ? s->vec : 1);
	uint64_t total = ir_sym_bytes(s) - (addr - s->addr);
	if (total > ir_sym_bytes(s) || total < es)
		return dbg_write_error(d, "that offset is past '%s'", s->name);
	uint64_t n = total / es, shown = n > 64 ? 64 : n;
	const uint8_t *p = mem_bytes(d, space, addr, shown * es);
	if (!p)
		return false;
	uint32_t unit = type_size(s->type);
	fprintf(d->out, "$%u = %s", ++d->nvalues, n > 1 || s->vec > 1 ? "{" : "");
	for (uint64_t i = 0; i < shown * es / unit; i++) {
		uint64_t v = 0;
		memcpy(&v, p + i * unit, unit);
		fprintf(d->out, "%s", i ? ", " : "");
		format_value(d->out, fmt, v, unit, s->type);
	}
	fprintf(d->out, "%s%s\n", n > shown ? "..." : "", n > 1 || s->vec > 1 ? "}" : "");
	return false;
}

static bool cmd_X(struct dbg *d, char *a)
{
	uint64_t count = 1;
	char fmt = 'x', unit = 'w';
	if (*a == '/') {
		a++;
		if (isdigit((unsigned char)*a))
			number(&a, &count);
		for (; *a && !isspace((unsigned char)*a); a++) {
			if (strchr("xduf", *a))
				fmt = *a;
			else if (strchr("bhwg", *a))
				unit = *a;
			else
				return dbg_write_error(d, "bad format letter '%c' (x d u f; b h w g)", *a);
		}
	}
	if (count == 0 || count > 4096)
		return dbg_write_error(d, "x shows 1 to 4096 units");
	uint32_t size = unit == 'b' ? 1 : unit == 'h' ? 2 : unit == 'w' ? 4 : 8;
	if (fmt == 'f' && size < 4)
		return dbg_write_error(d, "/f reads words (w) or giant words (g)");
	enum mspace space;
	uint64_t addr;
	const struct ir_sym *s;
	if (!mem_operand(d, a, &space, &addr, &s))
		return false;
	const uint8_t *p = mem_bytes(d, space, addr, count * size);
	if (!p)
		return false;
	uint32_t per_line = size == 8 ? 2 : size == 4 ? 4 : 8;
	for (uint64_t i = 0; i < count; i++) {
		if (i % per_line == 0) {
			uint64_t at = addr + i * size;
			fprintf(d->out, "%s%s 0x%llx", i ? "\n" : "", space_word(space),
				(unsigned long long)at);
			if (space == MS_SHARED_CTA) {
				uint32_t within = 0;
				const struct ir_sym *v = srcloc_shared_var(d->P, (uint32_t)at, &within);
				if (v && within < ir_sym_bytes(v))
					fprintf(d->out, " <%s+%u>", v->name, within);
			} else if (s) {
				fprintf(d->out, " <%s+%llu>", s->name, (unsigned long long)(at - s->addr));
			}
			fprintf(d->out, ":");
		}
		uint64_t v = 0;
		memcpy(&v, p + i * size, size);
		fprintf(d->out, "\t");
		if (fmt == 'x')
			fprintf(d->out, "0x%0*llx", (int)size * 2, (unsigned long long)v);
		else
			format_value(d->out, fmt, v, size, MOD_NONE);
	}
	fprintf(d->out, "\n");
	return false;
}

static bool cmd_WATCH(struct dbg *d, char *a)
{
	enum mspace space;
	uint64_t addr;
	const struct ir_sym *s;
	if (!mem_operand(d, a, &space, &addr, &s))
		return false;
	if (space != MS_SHARED_CTA && space != MS_GLOBAL)
		return dbg_write_error(d, "watch watches shared or global memory");
	if (addr % 4)
		return dbg_write_error(d, "watch watches an aligned 32-bit word: 0x%llx is not "
				       "4-byte aligned", (unsigned long long)addr);
	if (!mem_bytes(d, space, addr, 4))
		return false;
	struct dbg_point *p = new_point(d);
	if (!p)
		return false;
	p->watch = true;
	p->space = space;
	p->addr = addr;
	memcpy(p->cta, d->w->cta->ctaid, sizeof p->cta);
	int n = snprintf(p->spec, sizeof p->spec, "%s 0x%llx", space_word(space),
			 (unsigned long long)addr);
	if (space == MS_SHARED_CTA) {
		uint32_t within = 0;
		const struct ir_sym *v = srcloc_shared_var(d->P, (uint32_t)addr, &within);
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

static bool cmd_RUN(struct dbg *d, char *a)
{
	(void)a;
	d->req = REQ_RUN;
	kill_launch(d);
	return true;
}

static bool cmd_QUIT(struct dbg *d, char *a)
{
	(void)a;
	d->req = REQ_QUIT;
	kill_launch(d);
	return true;
}

static bool cmd_CONTINUE(struct dbg *d, char *a)
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

static bool cmd_STEP(struct dbg *d, char *a)
{
	(void)a;
	return stepping(d, STEP_LINE);
}

static bool cmd_NEXT(struct dbg *d, char *a)
{
	(void)a;
	return stepping(d, STEP_OVER);
}

static bool cmd_STEPI(struct dbg *d, char *a)
{
	(void)a;
	return stepping(d, STEP_INSN);
}

static bool cmd_FINISH(struct dbg *d, char *a)
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

static bool cmd_CTA(struct dbg *d, char *a)
{
	uint32_t c[3];
	if (!coords(a, c))
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

static bool cmd_WARP(struct dbg *d, char *a)
{
	uint64_t n;
	if (!only_number(a, &n))
		return dbg_write_error(d, "usage: warp N");
	if (n >= d->w->cta->nwarps)
		return dbg_write_error(d, "the CTA has warps 0-%u", d->w->cta->nwarps - 1);
	select_warp(d, &d->w->cta->warps[n]);
	show_selected(d);
	return false;
}

static bool cmd_THREAD(struct dbg *d, char *a)
{
	uint64_t n;
	if (!only_number(a, &n))
		return dbg_write_error(d, "usage: thread N (a linear thread id of the CTA)");
	if (n >= d->w->cta->nthreads)
		return dbg_write_error(d, "the CTA has threads 0-%u", d->w->cta->nthreads - 1);
	d->w = &d->w->cta->warps[n / LANES];
	d->lane = (uint32_t)(n % LANES);
	show_selected(d);
	return false;
}

/* ---- info, backtrace, explain, help ------------------------------------------------------ */

static void info_breakpoints(struct dbg *d)
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

static bool cmd_INFO(struct dbg *d, char *a)
{
	static const struct { const char *name; void (*fn)(struct dbg *); bool running; } what[] = {
		{"warps", show_info_warps, true}, {"threads", show_info_threads, true},
		{"mbarriers", show_info_mbarriers, true}, {"copies", show_info_copies, true},
		{"barriers", show_info_barriers, true}, {"breakpoints", info_breakpoints, false},
		{"watchpoints", info_breakpoints, false}};
	a = skip(a);
	trim(a);
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

static bool cmd_BACKTRACE(struct dbg *d, char *a)
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

static bool cmd_EXPLAIN(struct dbg *d, char *a)
{
	(void)a;
	/* the rule broken at the stop (a deadlock or the step limit has no topic: the
	 * instruction the selected warp waits at says more) */
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

static bool cmd_HELP(struct dbg *d, char *a)
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
	char *s = skip(line);
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
	return c->fn(d, skip(s + n));
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
