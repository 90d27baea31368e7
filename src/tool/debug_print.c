/*
 * debug_print.c - values and memory in `ptxi debug`: registers of a thread or of lanes,
 * variables, and the bytes of shared, global, local, param and const memory as the
 * selected thread sees them (print, x), and the memory operands the commands take.
 */
#include "debug_priv.h"

#include <ctype.h>
#include <string.h>

#include "front/ir.h"
#include "report/srcloc.h"
#include "run/memory.h"
#include "run/shared_layout.h"

/* ---- memory operands --------------------------------------------------------------------- */

static const struct { const char *name; enum mspace space; } spaces[] = {
	{"shared", MS_SHARED_CTA}, {"global", MS_GLOBAL}, {"local", MS_LOCAL},
	{"param", MS_PARAM_KERNEL}, {"const", MS_CONST}};

const char *dbg_space_word(enum mspace s)
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
bool dbg_mem_operand(struct dbg *d, char *a, enum mspace *space, uint64_t *addr,
			const struct ir_sym **sym)
{
	a = dbg_skip(a);
	dbg_trim(a);
	*sym = NULL;
	*space = MS_NONE;
	size_t n = strcspn(a, " \t");
	for (size_t i = 0; i < sizeof spaces / sizeof spaces[0]; i++)
		if (strlen(spaces[i].name) == n && strncmp(a, spaces[i].name, n) == 0) {
			*space = spaces[i].space;
			a = dbg_skip(a + n);
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
		at = dbg_only_number(a, addr);
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
	if (plus && !dbg_only_number(plus + 1, &off))
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
		return dbg_write_error(d, "'%s' is in %s memory", s->name, dbg_space_word(ss));
	uint64_t base = s->addr;
	if (ss == MS_SHARED_CTA && !shared_layout_addr(d->L->kernel, s, &base))
		return dbg_write_error(d, "'%s' is not in the shared memory of kernel '%s' (its "
				       "code does not name it)", s->name, d->L->kernel->name);
	*space = ss;
	*addr = base + off;
	*sym = s;
	return true;
}

/* Bytes of memory as the selected thread sees them: a pointer to `size` bytes, or NULL
 * after saying why. */
const uint8_t *dbg_mem_bytes(struct dbg *d, enum mspace space, uint64_t addr, uint64_t size)
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
	dbg_write_error(d, "Cannot access %s memory at 0x%llx (%llu bytes).", dbg_space_word(space),
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
	s = dbg_skip(s);
	if (strcmp(s, "all") == 0) {
		*mask = FULL_MASK;
		return true;
	}
	while (*s) {
		uint64_t a, b;
		if (!dbg_number(&s, &a) || a >= LANES)
			return false;
		b = a;
		s = dbg_skip(s);
		if (*s == '-') {
			s++;
			if (!dbg_number(&s, &b) || b >= LANES || b < a)
				return false;
		}
		for (uint64_t l = a; l <= b; l++)
			*mask |= 1u << l;
		s = dbg_skip(s);
		if (*s == ',')
			s = dbg_skip(s + 1);
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
	dbg_trim(a);
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

bool cmd_PRINT(struct dbg *d, char *a)
{
	char fmt;
	a = dbg_skip(a);
	if (!print_format(d, &a, &fmt))
		return false;
	a = dbg_skip(a);
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
	if (!dbg_mem_operand(d, a, &space, &addr, &s))
		return false;
	if (!s)
		return dbg_write_error(d, "print takes a register or a variable (x reads memory)");
	uint32_t es = type_size(s->type) * (uint32_t)(s->vec > 1 ? s->vec : 1);
	uint64_t base = s->addr;
	if (space == MS_SHARED_CTA)
		shared_layout_addr(d->L->kernel, s, &base); /* dbg_mem_operand found it */
	uint64_t total = ir_sym_bytes(s) - (addr - base);
	if (total > ir_sym_bytes(s) || total < es)
		return dbg_write_error(d, "that offset is past '%s'", s->name);
	uint64_t n = total / es, shown = n > 64 ? 64 : n;
	const uint8_t *p = dbg_mem_bytes(d, space, addr, shown * es);
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

bool cmd_X(struct dbg *d, char *a)
{
	uint64_t count = 1;
	char fmt = 'x', unit = 'w';
	if (*a == '/') {
		a++;
		if (isdigit((unsigned char)*a))
			dbg_number(&a, &count);
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
	if (!dbg_mem_operand(d, a, &space, &addr, &s))
		return false;
	const uint8_t *p = dbg_mem_bytes(d, space, addr, count * size);
	if (!p)
		return false;
	uint32_t per_line = size == 8 ? 2 : size == 4 ? 4 : 8;
	for (uint64_t i = 0; i < count; i++) {
		if (i % per_line == 0) {
			uint64_t at = addr + i * size;
			fprintf(d->out, "%s%s 0x%llx", i ? "\n" : "", dbg_space_word(space),
				(unsigned long long)at);
			if (space == MS_SHARED_CTA) {
				uint32_t within = 0;
				const struct ir_sym *v = srcloc_shared_var(d->L->kernel, (uint32_t)at, &within);
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

