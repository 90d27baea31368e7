/*
 * ir.c - the IR of a PTX module: opcode, modifier and special-register tables (from the .def
 * X-macros), scopes and symbol tables, and the builders the grammar calls. Builders fold
 * constant expressions, classify modifiers, declare symbols and report semantic errors;
 * names are resolved when a function body closes, initializers when the module ends.
 */
#include "ir.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks.h"
#include "parse.h"

/* ---- Tables ---------------------------------------------------------------------------- */


/* Instructions whose operand may be a variable's address plus a constant, unbracketed
 * (`mov.u64 %rd, gbuf+8`, `mapa.u32 %r, sbuf+8, 1`): ptxas accepts it there. It is kept as
 * an OPND_ADDR, whose value is the address. */
static bool takes_symbol_offset(enum ir_op op)
{
	return op == OP_MOV || op == OP_MAPA || op == OP_GETCTARANK || op == OP_CVTA;
}
static const struct {
	const char *name;
	enum ir_family family;
} op_table[OP__COUNT] = {
#define OP(name, spelling, family) {spelling, family},
#include "ops.def"
#undef OP
};

static const struct {
	const char *name;
	enum ir_mod_kind kind;
	int arg;
} mod_table[MOD__COUNT] = {
	{"", MK_OTHER, 0},
#define MOD(name, spelling, kind, arg) {spelling, kind, arg},
#include "mods.def"
#undef MOD
};

enum sreg_id {
#define SREG(name, spelling, shape, size) SREG_##name,
#include "sreg.def"
#undef SREG
	SREG__COUNT
};

static const char *const sreg_names[SREG__COUNT] = {
#define SREG(name, spelling, shape, size) spelling,
#include "sreg.def"
#undef SREG
};

/* Hash tables over the spellings, built once: slot = table index + 1, 0 = empty. */
enum { OP_SLOTS = 512, MOD_SLOTS = 1024 };
static uint16_t op_slots[OP_SLOTS], mod_slots[MOD_SLOTS];
static uint8_t mod_len[MOD__COUNT];
static int op_max_words;
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

#define FNV_BASIS 2166136261u
static inline uint32_t fnv(uint32_t h, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static void build_tables(void)
{
	for (int i = 0; i < OP__COUNT; i++) {
		const char *s = op_table[i].name;
		uint32_t h = fnv(FNV_BASIS, s, strlen(s)) & (OP_SLOTS - 1);
		while (op_slots[h])
			h = (h + 1) & (OP_SLOTS - 1);
		op_slots[h] = (uint16_t)(i + 1);
		int words = 1;
		for (const char *c = s; *c; c++)
			words += *c == '.';
		if (words > op_max_words)
			op_max_words = words;
	}
	for (int i = 1; i < MOD__COUNT; i++) {
		const char *s = mod_table[i].name;
		mod_len[i] = (uint8_t)strlen(s);
		uint32_t h = fnv(FNV_BASIS, s, strlen(s)) & (MOD_SLOTS - 1);
		while (mod_slots[h])
			h = (h + 1) & (MOD_SLOTS - 1);
		mod_slots[h] = (uint16_t)i;
	}
}

static inline void tables_init(void)
{
	pthread_once(&tables_once, build_tables);
}

const char *ir_op_name(enum ir_op op)
{
	return (unsigned)op < OP__COUNT ? op_table[op].name : "?";
}

enum ir_family ir_op_family(enum ir_op op)
{
	return (unsigned)op < OP__COUNT ? op_table[op].family : FAM_ALU;
}

const char *ir_mod_name(enum ir_mod m)
{
	return (unsigned)m < MOD__COUNT ? mod_table[m].name : "?";
}

enum ir_mod_kind ir_mod_kind(enum ir_mod m)
{
	return (unsigned)m < MOD__COUNT ? mod_table[m].kind : MK_OTHER;
}

int ir_mod_arg(enum ir_mod m)
{
	return (unsigned)m < MOD__COUNT ? mod_table[m].arg : 0;
}

/* `s` may be spelled with its leading dot (".rn") or without ("rn"). */
enum ir_mod ir_mod_lookup(const char *s, size_t len)
{
	tables_init();
	uint32_t h = len && s[0] == '.' ? fnv(FNV_BASIS, s, len) : fnv(fnv(FNV_BASIS, ".", 1), s, len);
	size_t full = len && s[0] == '.' ? len : len + 1;
	const char *body = len && s[0] == '.' ? s + 1 : s;
	size_t blen = full - 1;
	for (uint32_t i = h & (MOD_SLOTS - 1);; i = (i + 1) & (MOD_SLOTS - 1)) {
		unsigned k = mod_slots[i];
		if (!k)
			return MOD_NONE;
		if (mod_len[k] == full && memcmp(mod_table[k].name + 1, body, blen) == 0)
			return (enum ir_mod)k;
	}
}

/* Does `spelling` equal words[0] . words[1] ... words[k-1]? */
static bool op_spelled(const char *spelling, const char *const *words, const size_t *lens, int k)
{
	const char *s = spelling;
	for (int i = 0; i < k; i++) {
		if (i) {
			if (*s != '.')
				return false;
			s++;
		}
		if (strncmp(s, words[i], lens[i]) != 0) /* stops at the end of `spelling` */
			return false;
		s += lens[i];
	}
	return *s == '\0';
}

enum ir_op ir_op_lookup(const char *const *words, const size_t *lens, int nwords, int *used)
{
	tables_init();
	uint32_t hk[8];
	int maxk = nwords < op_max_words ? nwords : op_max_words;
	if (maxk > 8)
		maxk = 8;
	uint32_t h = FNV_BASIS;
	for (int k = 0; k < maxk; k++) {
		if (k)
			h = fnv(h, ".", 1);
		h = fnv(h, words[k], lens[k]);
		hk[k] = h;
	}
	for (int k = maxk; k >= 1; k--) {
		for (uint32_t i = hk[k - 1] & (OP_SLOTS - 1);; i = (i + 1) & (OP_SLOTS - 1)) {
			unsigned e = op_slots[i];
			if (!e)
				break;
			if (op_spelled(op_table[e - 1].name, words, lens, k)) {
				if (used)
					*used = k;
				return (enum ir_op)(e - 1);
			}
		}
	}
	if (used)
		*used = 0;
	return OP__COUNT;
}

bool ir_type_is_signed(enum ir_mod t)
{
	return t == MOD_S8 || t == MOD_S16 || t == MOD_S32 || t == MOD_S64;
}

bool ir_type_is_float(enum ir_mod t)
{
	return t == MOD_F16 || t == MOD_F16X2 || t == MOD_BF16 || t == MOD_BF16X2 || t == MOD_F32 ||
	       t == MOD_F64 || t == MOD_TF32;
}

/* ---- Scopes and symbols ---------------------------------------------------------------- */

/*
 * A scope keeps its symbols on a list (newest first while the scope is open, reversed into
 * declaration order when it closes) and, once it holds more than a few, in an open-addressing
 * table. Register ranges (%r<N>) are keyed by their prefix but live apart from plain names:
 * `%r` and `%r<4>` are different declarations.
 */
enum { SCOPE_LINEAR = 8 };

static inline uint32_t name_hash(const char *s, uint32_t len, bool range)
{
	return fnv(range ? 0x9e3779b9u : FNV_BASIS, s, len);
}

static inline bool sym_is(const struct ir_sym *y, const char *name, uint32_t len, bool range)
{
	if (y->name_len != len || (y->kind == SYM_REGRANGE) != range)
		return false;
	for (uint32_t i = 0; i < len; i++) /* names are short: no call to memcmp */
		if (y->name[i] != name[i])
			return false;
	return true;
}

static struct ir_sym *scope_find(const struct ir_scope *s, const char *name, uint32_t len,
				 uint32_t h, bool range)
{
	if (!s->table) {
		for (struct ir_sym *y = s->syms; y; y = y->next_in_scope)
			if (sym_is(y, name, len, range))
				return y;
		return NULL;
	}
	for (uint32_t i = h & (s->tsize - 1);; i = (i + 1) & (s->tsize - 1)) {
		struct ir_sym *y = s->table[i];
		if (!y)
			return NULL;
		if (sym_is(y, name, len, range))
			return y;
	}
}

static void table_put(struct ir_sym **table, uint32_t tsize, struct ir_sym *y)
{
	uint32_t h = name_hash(y->name, y->name_len, y->kind == SYM_REGRANGE);
	uint32_t i = h & (tsize - 1);
	while (table[i])
		i = (i + 1) & (tsize - 1);
	table[i] = y;
}

static void scope_add(struct arena *a, struct ir_scope *s, struct ir_sym *y)
{
	y->next_in_scope = s->syms;
	s->syms = y;
	s->count++;
	if (s->count < SCOPE_LINEAR)
		return;
	if (!s->table || s->count * 2 > s->tsize) {
		uint32_t tsize = s->tsize ? s->tsize * 2 : 32;
		struct ir_sym **t = arena_alloc(a, sizeof *t * tsize);
		for (struct ir_sym *z = s->syms; z; z = z->next_in_scope)
			table_put(t, tsize, z);
		s->table = t;
		s->tsize = tsize;
		return;
	}
	table_put(s->table, s->tsize, y);
}

static struct ir_scope *scope_new(struct arena *a, struct ir_scope *parent)
{
	struct ir_scope *s = arena_alloc(a, sizeof *s);
	s->parent = parent;
	return s;
}

/* Put the symbol list into declaration order (it was built newest first). */
static void scope_seal(struct ir_scope *s)
{
	struct ir_sym *prev = NULL, *y = s->syms;
	while (y) {
		struct ir_sym *next = y->next_in_scope;
		y->next_in_scope = prev;
		prev = y;
		y = next;
	}
	s->syms = prev;
}

/* The element number of `%r57` (57), or -1 when the name does not end in a plain number. */
static int64_t trailing_index(const char *name, uint32_t len, uint32_t *prefix_len)
{
	uint32_t k = len;
	while (k > 0 && name[k - 1] >= '0' && name[k - 1] <= '9')
		k--;
	uint32_t nd = len - k;
	if (nd == 0 || k == 0 || nd > 10 || (nd > 1 && name[k] == '0'))
		return -1;
	int64_t v = 0;
	for (uint32_t i = k; i < len; i++)
		v = v * 10 + (name[i] - '0');
	*prefix_len = k;
	return v;
}

/* Look `name` up from scope `s` outward. In each scope a register-range element comes first
 * (the common case in compiler output: %r57 in %r<100>), then the plain name, whose hash is
 * computed only when some scope needs it. */
struct ir_sym *ir_lookup(struct ir_module *m, struct ir_scope *s, const char *name, uint32_t len,
			 uint32_t *index)
{
	uint32_t dummy, plen = 0, hfull = 0, hpre = 0;
	bool have_full = false;
	if (!index)
		index = &dummy;
	int64_t idx = trailing_index(name, len, &plen);
	if (idx >= 0)
		hpre = name_hash(name, plen, true);
	for (s = s ? s : m->scope; s; s = s->parent) {
		if (!s->count)
			continue;
		if (idx >= 0) {
			struct ir_sym *r = scope_find(s, name, plen, hpre, true);
			if (r && (uint64_t)idx < r->range_n) {
				*index = (uint32_t)idx;
				return r;
			}
		}
		if (!have_full) {
			hfull = name_hash(name, len, false);
			have_full = true;
		}
		struct ir_sym *y = scope_find(s, name, len, hfull, false);
		if (y) {
			*index = 0;
			return y;
		}
	}
	return NULL;
}

struct ir_func *ir_find_entry(struct ir_module *m, const char *name)
{
	if (!m || !name)
		return NULL;
	uint32_t len = (uint32_t)strlen(name);
	struct ir_sym *y = scope_find(m->scope, name, len, name_hash(name, len, false), false);
	if (y && y->kind == SYM_FUNC && y->func && y->func->is_entry && y->func->has_body)
		return y->func;
	return NULL;
}

/* ---- Parser helpers -------------------------------------------------------------------- */

/* An error of the front end, named after the check it breaks (checks.def). */
static void err(struct parser *p, enum check_id k, struct src_span s, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void err(struct parser *p, enum check_id k, struct src_span s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	check_vreport(p->d, p->file, k, s, fmt, ap);
	va_end(ap);
}

static void note(struct parser *p, struct src_span s, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void note(struct parser *p, struct src_span s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vreport(p->d, DIAG_NOTE, p->file, s, fmt, ap);
	va_end(ap);
}

static inline const char *txt(struct parser *p, struct src_span s)
{
	return p->file->text + s.off;
}

/* Names in messages: long ones are cut, so one message stays readable. */
#define NAME_FMT "%.*s%s"
#define NAME_ARG(s, n) (int)((n) > 200 ? 200 : (n)), (s), ((n) > 200 ? "..." : "")

#define xrealloc arena_xrealloc /* out of memory jumps to the library's entry point */

static void opush(struct parser *p, const struct ir_operand *o, uint8_t flags)
{
	if (p->osp == p->ocap) {
		p->ocap = p->ocap ? p->ocap * 2 : 256;
		p->ostk = xrealloc(p->ostk, sizeof *p->ostk * p->ocap);
		p->fstk = xrealloc(p->fstk, p->ocap);
	}
	p->fstk[p->osp] = flags;
	p->ostk[p->osp++] = *o;
}

/* Copy stack elements [l.start, l.start + l.n) into the arena and pop them. */
static struct ir_operand *opop(struct parser *p, struct plist l, uint8_t *has)
{
	struct ir_operand *v = NULL;
	uint8_t h = 0;
	if (l.n) {
		v = arena_alloc(p->a, sizeof *v * l.n);
		memcpy(v, p->ostk + l.start, sizeof *v * l.n);
		for (uint32_t i = 0; i < l.n; i++)
			h |= p->fstk[l.start + i] & (PH_ADDEXPR | PH_GENERIC | PH_BRACKET);
	}
	p->osp = l.start;
	if (has)
		*has = h;
	return v;
}

static struct ir_operand *ocopy(struct parser *p, const struct ir_operand *o)
{
	struct ir_operand *c = arena_alloc(p->a, sizeof *c);
	*c = *o;
	return c;
}

#define EX_NONE UINT32_MAX /* no expression (an absent guard or initializer) */

/* Internal markers in ref.comp, gone once names are resolved. */
enum { COMP_NONE = -1, COMP_GENERIC = -2, COMP_INDEXED = -3 };

/*
 * Builders of the common operands (names, integers, addresses) fill a zeroed entry in place
 * (set_*), the others return a value. A pexpr built in a local and copied out at once is
 * read back 16 bytes at a time before its narrower field stores have left the store
 * buffer, and that stalls on every operand.
 */
static void set_imm(struct pexpr *e, int64_t v, bool is_unsigned, struct src_span s)
{
	e->form = PF_PLAIN;
	e->is_unsigned = is_unsigned;
	e->has = is_unsigned ? PH_UNSIGNED : 0;
	e->o.kind = OPND_IMM;
	e->o.span = s;
	e->o.imm = v;
}

static struct pexpr pe_imm(int64_t v, bool is_unsigned, struct src_span s)
{
	struct pexpr e = {0};
	set_imm(&e, v, is_unsigned, s);
	return e;
}

static bool is_name(const struct ir_operand *o)
{
	return o->kind == OPND_SYM && !o->ref.sym;
}

/* ( x ) with one element means x where a value is wanted. */
static void unparen(struct parser *p, struct pexpr *e)
{
	if (e->form == PF_PAREN && e->o.kind == OPND_LIST && e->o.vec.n == 1) {
		bool u = e->is_unsigned;
		struct src_span s = e->o.span;
		e->o = e->o.vec.elems[0];
		e->o.span = s;
		e->form = e->o.kind == OPND_ADDR && (e->has & PH_ADDEXPR) ? PF_ADDEXPR : PF_PLAIN;
		e->is_unsigned = u;
	}
	(void)p;
}

/* ---- Numbers --------------------------------------------------------------------------- */

static int digit_val(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return 99;
}

/* An integer literal: decimal, 0x hex, 0b binary, 0 octal, optional U suffix. */
static bool parse_uint(struct parser *p, struct src_span s, uint64_t *out, bool *is_unsigned)
{
	const char *t = txt(p, s);
	uint32_t n = s.len;
	bool u = false;
	if (n > 1 && (t[n - 1] == 'U' || t[n - 1] == 'u')) {
		u = true;
		n--;
	}
	unsigned base = 10;
	uint32_t i = 0;
	if (n > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
		base = 16;
		i = 2;
	} else if (n > 2 && t[0] == '0' && (t[1] == 'b' || t[1] == 'B')) {
		base = 2;
		i = 2;
	} else if (n > 1 && t[0] == '0') {
		base = 8;
		i = 1;
	}
	uint64_t v = 0;
	bool overflow = false;
	for (; i < n; i++) {
		int d = digit_val(t[i]);
		if (d >= (int)base) {
			err(p, CHECK_CONST_EXPR, s, "invalid integer constant '" NAME_FMT "'",
			    NAME_ARG(t, s.len));
			return false;
		}
		if (v > (UINT64_MAX - (uint64_t)d) / base)
			overflow = true;
		v = v * base + (uint64_t)d;
	}
	if (overflow) {
		err(p, CHECK_CONST_EXPR, s, "integer constant '" NAME_FMT "' is too large",
		    NAME_ARG(t, s.len));
		return false;
	}
	*out = v;
	if (is_unsigned)
		*is_unsigned = u || v > (uint64_t)INT64_MAX;
	return true;
}

static bool parse_u32(struct parser *p, struct src_span s, uint32_t *out)
{
	uint64_t v;
	if (!parse_uint(p, s, &v, NULL))
		return false;
	if (v > UINT32_MAX) {
		err(p, CHECK_CONST_EXPR, s, "value '" NAME_FMT "' does not fit in 32 bits",
		    NAME_ARG(txt(p, s), s.len));
		return false;
	}
	*out = (uint32_t)v;
	return true;
}

/* ---- Expressions ----------------------------------------------------------------------- */

static void set_int(struct parser *p, struct pexpr *e, struct src_span s)
{
	uint64_t v = 0;
	bool u = false;
	parse_uint(p, s, &v, &u);
	set_imm(e, (int64_t)v, u, s);
}

static struct pexpr e_float(struct parser *p, struct src_span s)
{
	const char *t = txt(p, s);
	struct pexpr e = {.form = PF_PLAIN};
	e.o.kind = OPND_FIMM;
	e.o.span = s;
	if (s.len >= 2 && t[0] == '0' && (t[1] == 'f' || t[1] == 'F' || t[1] == 'd' || t[1] == 'D')) {
		uint64_t bits = 0;
		for (uint32_t i = 2; i < s.len; i++)
			bits = bits << 4 | (uint64_t)digit_val(t[i]);
		e.o.fimm.is_f32 = t[1] == 'f' || t[1] == 'F';
		e.o.fimm.bits = bits;
		return e;
	}
	char buf[128];
	char *b = s.len < sizeof buf ? buf : malloc(s.len + 1);
	double d = 0;
	if (b) {
		memcpy(b, t, s.len);
		b[s.len] = '\0';
		d = strtod(b, NULL);
		if (b != buf)
			free(b);
	}
	memcpy(&e.o.fimm.bits, &d, sizeof d);
	e.o.fimm.is_f32 = false;
	return e;
}

static void set_name(struct parser *p, struct pexpr *e, struct src_span s)
{
	const char *t = txt(p, s);
	if (s.len == 7 && memcmp(t, "WARP_SZ", 7) == 0) {
		set_imm(e, 32, false, s);
		return;
	}
	e->form = PF_PLAIN;
	e->o.kind = OPND_SYM;
	e->o.span = s;
	e->o.ref.name = t;
	e->o.ref.len = s.len;
	e->o.ref.comp = COMP_NONE;
}

static struct pexpr e_name(struct parser *p, struct src_span s)
{
	struct pexpr e = {0};
	set_name(p, &e, s);
	return e;
}

static struct pexpr e_comp(struct parser *p, struct src_span name, struct src_span comp,
		       struct src_span all)
{
	struct pexpr e = e_name(p, name);
	const char *c = txt(p, comp);
	int k = -1;
	if (comp.len == 2) {
		switch (c[1]) {
		case 'x': case 'r': k = 0; break;
		case 'y': case 'g': k = 1; break;
		case 'z': case 'b': k = 2; break;
		case 'w': case 'a': k = 3; break;
		default: break;
		}
	}
	if (k < 0 || e.o.kind != OPND_SYM) {
		err(p, CHECK_SYNTAX, comp, "invalid vector component '" NAME_FMT "'",
		    NAME_ARG(c, comp.len));
		return e;
	}
	e.o.ref.comp = k;
	e.o.span = all;
	return e;
}

static struct pexpr e_sink(struct parser *p, struct src_span s)
{
	(void)p;
	struct pexpr e = {.form = PF_PLAIN};
	e.o.kind = OPND_SINK;
	e.o.span = s;
	return e;
}

static struct pexpr e_paren(struct parser *p, struct plist l, struct src_span all)
{
	struct pexpr e = {.form = PF_PAREN};
	bool u = l.n == 1 && (p->fstk[l.start] & PH_UNSIGNED);
	e.o.kind = OPND_LIST;
	e.o.span = all;
	e.o.vec.n = l.n;
	e.o.vec.elems = opop(p, l, &e.has);
	e.is_unsigned = u;
	return e;
}

static struct pexpr e_vector(struct parser *p, struct plist l, struct src_span all)
{
	struct pexpr e = {.form = PF_PLAIN};
	e.o.kind = OPND_VEC;
	e.o.span = all;
	e.o.vec.n = l.n;
	e.o.vec.elems = opop(p, l, &e.has);
	return e;
}

static struct pexpr bad_expr(struct src_span s)
{
	return pe_imm(0, false, s);
}

/* [e], in place of e. */
static void set_addr(struct parser *p, struct pexpr *r, struct src_span all)
{
	struct pexpr e = *r;
	unparen(p, &e);
	memset(r, 0, sizeof *r);
	r->form = PF_BRACKET;
	r->has = (uint8_t)((e.has & ~PH_ADDEXPR) | PH_BRACKET);
	r->o.kind = OPND_ADDR;
	r->o.span = all;
	if (e.o.kind == OPND_SYM && !e.o.neg && e.form != PF_GENERIC) {
		r->o.addr.base = ocopy(p, &e.o);
	} else if (e.o.kind == OPND_IMM) {
		r->o.addr.off = e.o.imm;
	} else if (e.o.kind == OPND_ADDR && e.form == PF_ADDEXPR) {
		r->o.addr = e.o.addr;
	} else {
		err(p, CHECK_SYNTAX, e.o.span,
		    "invalid address: expected [name], [name+offset] or [constant]");
		*r = bad_expr(all);
	}
}

static struct pexpr e_index(struct parser *p, struct src_span name, struct pexpr *idx,
			struct src_span all)
{
	struct pexpr n = e_name(p, name);
	struct pexpr i = *idx;
	unparen(p, &i);
	if (n.o.kind != OPND_SYM) {
		err(p, CHECK_SYNTAX, name, "'" NAME_FMT "' cannot be indexed",
		    NAME_ARG(txt(p, name), name.len));
		return bad_expr(all);
	}
	if (i.o.kind != OPND_IMM) {
		err(p, CHECK_SYNTAX, idx->o.span, "array index must be a constant expression");
		return bad_expr(all);
	}
	struct pexpr r = {.form = PF_BRACKET, .has = PH_BRACKET};
	r.o.kind = OPND_ADDR;
	r.o.span = all;
	n.o.ref.comp = COMP_INDEXED; /* scaled by the element size once the name is resolved */
	r.o.addr.base = ocopy(p, &n.o);
	r.o.addr.off = i.o.imm;
	return r;
}

static struct pexpr e_call(struct parser *p, struct src_span fn, struct pexpr *arg,
		       struct src_span all)
{
	struct pexpr a = *arg;
	unparen(p, &a);
	if (!(fn.len == 7 && memcmp(txt(p, fn), "generic", 7) == 0)) {
		err(p, CHECK_CONST_EXPR, fn,
		    "unknown function '" NAME_FMT "' in expression (only generic() exists)",
		    NAME_ARG(txt(p, fn), fn.len));
		return bad_expr(all);
	}
	if (a.o.kind != OPND_SYM || a.o.ref.comp != COMP_NONE || a.o.neg) {
		err(p, CHECK_SYNTAX, arg->o.span, "generic() takes the name of a variable");
		return bad_expr(all);
	}
	a.o.ref.comp = COMP_GENERIC;
	a.o.span = all;
	a.form = PF_GENERIC;
	a.has |= PH_GENERIC;
	return a;
}

static struct pexpr e_cast(struct parser *p, struct src_span type, struct pexpr *in,
		       struct src_span all)
{
	struct pexpr e = *in;
	unparen(p, &e);
	enum ir_mod t = ir_mod_lookup(txt(p, type), type.len);
	if (t != MOD_S64 && t != MOD_U64) {
		err(p, CHECK_CONST_EXPR, type,
		    "invalid cast to '" NAME_FMT "' (only .s64 and .u64 exist)",
		    NAME_ARG(txt(p, type), type.len));
		return e;
	}
	if (e.o.kind != OPND_IMM) {
		err(p, CHECK_CONST_EXPR, in->o.span, "a cast needs an integer constant expression");
		return bad_expr(all);
	}
	e.is_unsigned = t == MOD_U64;
	e.o.span = all;
	return e;
}

static const char *op_spelling(int op)
{
	static const char *const names[] = {"<<", ">>", "<=", ">=", "==", "!=", "&&", "||"};
	static const char single[] = "+\0-\0*\0/\0%\0<\0>\0&\0^\0|\0!\0~\0?";
	if (op >= EOP_SHL && op <= EOP_OROR)
		return names[op - EOP_SHL];
	for (size_t i = 0; i < sizeof single; i += 2)
		if (single[i] == op)
			return single + i;
	return "?";
}

static struct pexpr e_unary(struct parser *p, int op, struct pexpr *in, struct src_span all)
{
	struct pexpr e = *in;
	unparen(p, &e);
	e.o.span = all;
	if (e.o.kind == OPND_IMM) {
		uint64_t v = (uint64_t)e.o.imm;
		switch (op) {
		case '-': v = 0 - v; break;
		case '~': v = ~v; break;
		case '!': v = v == 0; e.is_unsigned = false; break;
		default: break;
		}
		e.o.imm = (int64_t)v;
		return e;
	}
	if (e.o.kind == OPND_FIMM && (op == '-' || op == '+')) {
		if (op == '-')
			e.o.fimm.bits ^= e.o.fimm.is_f32 ? (uint64_t)1 << 31 : (uint64_t)1 << 63;
		return e;
	}
	if (op == '!' && is_name(&e.o) && e.form == PF_PLAIN) {
		e.o.neg = !e.o.neg;
		return e;
	}
	err(p, CHECK_CONST_EXPR, all, "invalid operand to unary '%s'", op_spelling(op));
	return bad_expr(all);
}

static bool fold(struct parser *p, int op, struct pexpr *l, struct pexpr *r, struct src_span opspan,
		 int64_t *out, bool *uns)
{
	bool u = l->is_unsigned || r->is_unsigned;
	uint64_t a = (uint64_t)l->o.imm, b = (uint64_t)r->o.imm;
	int64_t sa = l->o.imm, sb = r->o.imm;
	uint64_t v;
	switch (op) {
	case '+': v = a + b; break;
	case '-': v = a - b; break;
	case '*': v = a * b; break;
	case '/':
	case '%':
		if (b == 0) {
			err(p, CHECK_CONST_EXPR, opspan, "division by zero in constant expression");
			return false;
		}
		if (u)
			v = op == '/' ? a / b : a % b;
		else if (sa == INT64_MIN && sb == -1)
			v = op == '/' ? a : 0;
		else
			v = (uint64_t)(op == '/' ? sa / sb : sa % sb);
		break;
	case EOP_SHL:
	case EOP_SHR:
		if (b > 63) {
			err(p, CHECK_CONST_EXPR, r->o.span, "shift count %" PRId64 " out of range",
			    sb);
			return false;
		}
		if (op == EOP_SHL)
			v = a << b;
		else if (u || sa >= 0)
			v = a >> b;
		else
			v = ~(~a >> b);
		u = l->is_unsigned;
		break;
	case '<': v = u ? a < b : sa < sb; u = false; break;
	case '>': v = u ? a > b : sa > sb; u = false; break;
	case EOP_LE: v = u ? a <= b : sa <= sb; u = false; break;
	case EOP_GE: v = u ? a >= b : sa >= sb; u = false; break;
	case EOP_EQ: v = a == b; u = false; break;
	case EOP_NE: v = a != b; u = false; break;
	case '&': v = a & b; break;
	case '^': v = a ^ b; break;
	case '|': v = a | b; break;
	case EOP_ANDAND: v = a && b; u = false; break;
	case EOP_OROR: v = a || b; u = false; break;
	default: return false;
	}
	*out = (int64_t)v;
	*uns = u;
	return true;
}

/* name+imm outside brackets, carried as an OPND_ADDR until [ ] or an initializer takes it. */
static struct pexpr addexpr(struct parser *p, struct pexpr *name, int64_t off, struct src_span all)
{
	struct pexpr r = {.form = PF_ADDEXPR, .has = (uint8_t)(name->has | PH_ADDEXPR)};
	r.o.kind = OPND_ADDR;
	r.o.span = all;
	r.o.addr.base = ocopy(p, &name->o);
	r.o.addr.off = off;
	return r;
}

static struct pexpr e_binary(struct parser *p, int op, struct pexpr *lin, struct pexpr *rin,
			 struct src_span opspan, struct src_span all)
{
	struct pexpr l = *lin, r = *rin;
	unparen(p, &l);
	unparen(p, &r);
	bool lname = is_name(&l.o) && !l.o.neg, rname = is_name(&r.o) && !r.o.neg;
	if (l.o.kind == OPND_IMM && r.o.kind == OPND_IMM) {
		int64_t v;
		bool u;
		if (!fold(p, op, &l, &r, opspan, &v, &u))
			return bad_expr(all);
		return pe_imm(v, u, all);
	}
	if (op == '+' && r.o.kind == OPND_IMM && (lname || l.form == PF_ADDEXPR)) {
		if (lname)
			return addexpr(p, &l, r.o.imm, all);
		l.o.addr.off = (int64_t)((uint64_t)l.o.addr.off + (uint64_t)r.o.imm);
		l.o.span = all;
		return l;
	}
	if (op == '+' && l.o.kind == OPND_IMM && (rname || r.form == PF_ADDEXPR)) {
		if (rname)
			return addexpr(p, &r, l.o.imm, all);
		r.o.addr.off = (int64_t)((uint64_t)r.o.addr.off + (uint64_t)l.o.imm);
		r.o.span = all;
		return r;
	}
	if (op == '-' && r.o.kind == OPND_IMM && l.form == PF_ADDEXPR) {
		l.o.addr.off = (int64_t)((uint64_t)l.o.addr.off - (uint64_t)r.o.imm);
		l.o.span = all;
		return l;
	}
	if (op == '-' && r.o.kind == OPND_IMM && lname) {
		/* ptxas rejects [%rd1-8]: the offset is added, and may be negative. */
		err(p, CHECK_SYNTAX, opspan,
		    "invalid address '" NAME_FMT "-%" PRId64 "': write '" NAME_FMT "+-%" PRId64 "'",
		    NAME_ARG(l.o.ref.name, l.o.ref.len), r.o.imm,
		    NAME_ARG(l.o.ref.name, l.o.ref.len), r.o.imm);
		return addexpr(p, &l, (int64_t)(0 - (uint64_t)r.o.imm), all);
	}
	if (op == '|' && (lname || l.o.kind == OPND_SINK) && (rname || r.o.kind == OPND_SINK)) {
		struct pexpr d = {.form = PF_PLAIN};
		d.o.kind = OPND_DUAL;
		d.o.span = all;
		d.o.vec.n = 2;
		d.o.vec.elems = arena_alloc(p->a, sizeof(struct ir_operand) * 2);
		d.o.vec.elems[0] = l.o;
		d.o.vec.elems[1] = r.o;
		return d;
	}
	err(p, CHECK_CONST_EXPR, opspan, "invalid operands to binary '%s'", op_spelling(op));
	return bad_expr(all);
}

static struct pexpr e_cond(struct parser *p, struct pexpr *c, struct pexpr *t, struct pexpr *f,
		       struct src_span all)
{
	struct pexpr cc = *c, tt = *t, ff = *f;
	unparen(p, &cc);
	unparen(p, &tt);
	unparen(p, &ff);
	if (cc.o.kind != OPND_IMM || tt.o.kind != OPND_IMM || ff.o.kind != OPND_IMM) {
		err(p, CHECK_CONST_EXPR, all, "'?:' needs integer constant operands");
		return bad_expr(all);
	}
	struct pexpr r = cc.o.imm ? tt : ff;
	r.is_unsigned = tt.is_unsigned || ff.is_unsigned;
	r.o.span = all;
	return r;
}

/* ---- The expression stack: what the grammar holds are indices into it ------------------ */

/* A new, zeroed entry on top. */
static struct pexpr *ex_new(struct parser *p)
{
	if (p->nex == p->excap) {
		p->excap = p->excap ? p->excap * 2 : 64;
		p->ex = xrealloc(p->ex, sizeof *p->ex * p->excap);
	}
	struct pexpr *e = &p->ex[p->nex++];
	memset(e, 0, sizeof *e);
	return e;
}

static uint32_t ex_index(struct parser *p, const struct pexpr *e)
{
	return (uint32_t)(e - p->ex);
}

static uint32_t ex_push(struct parser *p, const struct pexpr *e)
{
	struct pexpr *slot = ex_new(p);
	*slot = *e;
	return ex_index(p, slot);
}

/* Replace the operands (the entries from `base` up) with their result. */
static uint32_t ex_set(struct parser *p, uint32_t base, const struct pexpr *e)
{
	p->ex[base] = *e;
	p->nex = base + 1;
	return base;
}

uint32_t ir_e_int(struct parser *p, struct src_span s)
{
	struct pexpr *e = ex_new(p);
	set_int(p, e, s);
	return ex_index(p, e);
}

uint32_t ir_e_float(struct parser *p, struct src_span s)
{
	struct pexpr e = e_float(p, s);
	return ex_push(p, &e);
}

uint32_t ir_e_name(struct parser *p, struct src_span s)
{
	struct pexpr *e = ex_new(p);
	set_name(p, e, s);
	return ex_index(p, e);
}

uint32_t ir_e_comp(struct parser *p, struct src_span name, struct src_span comp,
		   struct src_span all)
{
	struct pexpr e = e_comp(p, name, comp, all);
	return ex_push(p, &e);
}

uint32_t ir_e_sink(struct parser *p, struct src_span s)
{
	struct pexpr e = e_sink(p, s);
	return ex_push(p, &e);
}

uint32_t ir_e_paren(struct parser *p, struct plist l, struct src_span all)
{
	struct pexpr e = e_paren(p, l, all);
	return ex_push(p, &e);
}

uint32_t ir_e_vector(struct parser *p, struct plist l, struct src_span all)
{
	struct pexpr e = e_vector(p, l, all);
	return ex_push(p, &e);
}

uint32_t ir_e_addr(struct parser *p, uint32_t e, struct src_span all)
{
	set_addr(p, &p->ex[e], all);
	p->nex = e + 1;
	return e;
}

uint32_t ir_e_addr_list(struct parser *p, uint32_t first, struct plist rest, struct src_span all)
{
	uint8_t has;
	struct ir_operand *tail = opop(p, rest, &has);
	struct ir_operand *v = arena_alloc(p->a, sizeof *v * (rest.n + 1));
	v[0] = p->ex[first].o;
	if (rest.n)
		memcpy(v + 1, tail, sizeof *v * rest.n);
	struct pexpr e = {.form = PF_BRACKET,
			  .has = (uint8_t)(has | (p->ex[first].has & ~PH_ADDEXPR) | PH_BRACKET)};
	e.o.kind = OPND_LIST;
	e.o.span = all;
	e.o.vec.n = rest.n + 1;
	e.o.vec.elems = v;
	return ex_set(p, first, &e);
}

uint32_t ir_e_index(struct parser *p, struct src_span name, uint32_t e, struct src_span all)
{
	struct pexpr r = e_index(p, name, &p->ex[e], all);
	return ex_set(p, e, &r);
}

uint32_t ir_e_call(struct parser *p, struct src_span fn, uint32_t arg, struct src_span all)
{
	struct pexpr r = e_call(p, fn, &p->ex[arg], all);
	return ex_set(p, arg, &r);
}

uint32_t ir_e_cast(struct parser *p, struct src_span type, uint32_t e, struct src_span all)
{
	struct pexpr r = e_cast(p, type, &p->ex[e], all);
	return ex_set(p, e, &r);
}

uint32_t ir_e_unary(struct parser *p, int op, uint32_t e, struct src_span all)
{
	struct pexpr r = e_unary(p, op, &p->ex[e], all);
	return ex_set(p, e, &r);
}

uint32_t ir_e_binary(struct parser *p, int op, uint32_t l, uint32_t r, struct src_span opspan,
		     struct src_span all)
{
	struct pexpr e = e_binary(p, op, &p->ex[l], &p->ex[r], opspan, all);
	return ex_set(p, l, &e);
}

uint32_t ir_e_cond(struct parser *p, uint32_t c, uint32_t t, uint32_t f, struct src_span all)
{
	struct pexpr e = e_cond(p, &p->ex[c], &p->ex[t], &p->ex[f], all);
	return ex_set(p, c, &e);
}

/* ---- Lists and words ------------------------------------------------------------------- */

static uint8_t stack_flags(const struct pexpr *e)
{
	return (uint8_t)((e->has & (PH_ADDEXPR | PH_GENERIC | PH_BRACKET)) |
			 (e->is_unsigned ? PH_UNSIGNED : 0));
}

struct plist ir_list_first(struct parser *p, uint32_t e)
{
	struct plist l = {p->osp, 1};
	opush(p, &p->ex[e].o, stack_flags(&p->ex[e]));
	p->nex = e;
	return l;
}

struct plist ir_list_push(struct parser *p, struct plist l, uint32_t e)
{
	opush(p, &p->ex[e].o, stack_flags(&p->ex[e]));
	p->nex = e;
	l.n++;
	return l;
}

struct plist ir_list_empty(struct parser *p)
{
	return (struct plist){p->osp, 0};
}

uint32_t ir_words_begin(struct parser *p)
{
	p->nwords = 0;
	return 0;
}

uint32_t ir_words_push(struct parser *p, uint32_t n, struct src_span w)
{
	if (p->nwords == p->wcap) {
		p->wcap = p->wcap ? p->wcap * 2 : 32;
		p->words = xrealloc(p->words, sizeof *p->words * p->wcap);
	}
	p->words[p->nwords++] = w;
	return n + 1;
}

uint32_t ir_words_align(struct parser *p, uint32_t n, struct src_span kw, struct src_span num)
{
	n = ir_words_push(p, n, kw);
	return ir_words_push(p, n, num);
}

/* ---- Module header --------------------------------------------------------------------- */

void ir_version(struct parser *p, struct src_span num)
{
	const char *t = txt(p, num);
	uint32_t i = 0, major = 0, minor = 0;
	bool ok = num.len > 0 && num.len < 12;
	for (; ok && i < num.len && t[i] != '.'; i++)
		ok = t[i] >= '0' && t[i] <= '9', major = major * 10 + (uint32_t)(t[i] - '0');
	if (ok && i < num.len) {
		ok = i > 0 && i + 1 < num.len;
		for (i++; ok && i < num.len; i++)
			ok = t[i] >= '0' && t[i] <= '9', minor = minor * 10 + (uint32_t)(t[i] - '0');
	}
	if (!ok) {
		err(p, CHECK_MODULE_HEADER, num,
		    "invalid .version '" NAME_FMT "' (expected major.minor)", NAME_ARG(t, num.len));
		return;
	}
	if (p->m->version_major || p->m->version_minor) {
		err(p, CHECK_MODULE_HEADER, num, "duplicate .version directive");
		return;
	}
	p->m->version_major = major;
	p->m->version_minor = minor;
}

void ir_header(struct parser *p, struct src_span at, enum header_state next)
{
	static const char *const what[] = {"", "'.version'", "'.target'", "'.address_size'"};
	enum header_state h = p->header;
	if (next == HDR_VERSION && !p->m->version_span.len)
		p->m->version_span = at;
	if (next == HDR_TARGET && !p->m->target_span.len)
		p->m->target_span = at;
	if (next == HDR_VERSION) {
		if (h == HDR_NONE)
			p->header = HDR_VERSION;
		else if (!p->m->version_major && !p->m->version_minor)
			err(p, CHECK_MODULE_HEADER, at,
			    "'.version' must be the first directive of the module");
		return; /* a second .version is reported by ir_version */
	}
	if (h == HDR_NONE)
		err(p, CHECK_MODULE_HEADER, at,
		    "missing .version directive before %s (a module starts with .version, "
		    "then .target)", what[next]);
	else if (h == HDR_VERSION && next == HDR_ADDRESS_SIZE)
		err(p, CHECK_MODULE_HEADER, at, "missing .target directive before '.address_size'");
	else if (h == HDR_ADDRESS_SIZE && next == HDR_ADDRESS_SIZE)
		err(p, CHECK_MODULE_HEADER, at, "duplicate .address_size directive");
	else if (h > next)
		err(p, CHECK_MODULE_HEADER, at, "%s must come before %s", what[next],
		    h == HDR_DONE ? "any declaration" : "'.address_size'");
	if (h < next)
		p->header = next;
}

/* The first declaration or function (or the end of the file): the header must be whole. */
static void header_done(struct parser *p, struct src_span at)
{
	if (p->header == HDR_NONE)
		err(p, CHECK_MODULE_HEADER, at,
		    "missing .version directive at the start of the module");
	else if (p->header == HDR_VERSION)
		err(p, CHECK_MODULE_HEADER, at, "missing .target directive after .version");
	p->header = HDR_DONE;
}

void ir_target(struct parser *p, struct src_span name)
{
	const char *t = txt(p, name);
	uint32_t n = name.len, pre = 0;
	if (n > 3 && memcmp(t, "sm_", 3) == 0)
		pre = 3;
	else if (n > 8 && memcmp(t, "compute_", 8) == 0)
		pre = 8;
	if (pre) {
		uint32_t i = pre, sm = 0;
		while (i < n && t[i] >= '0' && t[i] <= '9' && sm < 100000)
			sm = sm * 10 + (uint32_t)(t[i++] - '0');
		bool ok = i > pre && (i == n || (i + 1 == n && (t[i] == 'a' || t[i] == 'f')));
		if (!ok) {
			err(p, CHECK_MODULE_HEADER, name, "unknown target '" NAME_FMT "'",
			    NAME_ARG(t, n));
			return;
		}
		if (!p->m->sm) {
			p->m->sm = sm;
			p->m->sm_arch_specific = i < n && t[i] == 'a';
			size_t c = n < sizeof p->m->target - 1 ? n : sizeof p->m->target - 1;
			memcpy(p->m->target, t, c);
			p->m->target[c] = '\0';
		}
		return;
	}
	static const char *const others[] = {"texmode_unified", "texmode_independent", "debug",
					     "map_f64_to_f32"};
	for (size_t i = 0; i < sizeof others / sizeof others[0]; i++)
		if (strlen(others[i]) == n && memcmp(others[i], t, n) == 0)
			return;
	err(p, CHECK_MODULE_HEADER, name, "unknown target '" NAME_FMT "'", NAME_ARG(t, n));
}

void ir_address_size(struct parser *p, struct src_span num)
{
	uint32_t v;
	if (!parse_u32(p, num, &v))
		return;
	if (v != 32 && v != 64) {
		err(p, CHECK_MODULE_HEADER, num, "address size must be 32 or 64");
		return;
	}
	p->m->address_size = v;
}

void ir_file(struct parser *p, struct src_span idx, struct src_span path)
{
	uint32_t v;
	struct ir_module *m = p->m;
	if (!parse_u32(p, idx, &v) || path.len < 2)
		return;
	if (m->nfiles == m->files_cap) {
		uint32_t cap = m->files_cap ? m->files_cap * 2 : 8;
		m->files = arena_grow(m->arena, m->files, sizeof *m->files, m->nfiles, cap);
		m->files_cap = cap;
	}
	m->files[m->nfiles++] = (struct ir_srcfile){
		v, arena_strndup(m->arena, p->file->text + path.off + 1, path.len - 2)};
}

static bool span_is(struct parser *p, struct src_span s, const char *word)
{
	return s.len == strlen(word) && memcmp(p->file->text + s.off, word, s.len) == 0;
}

void ir_loc_func(struct parser *p, struct src_span key, struct src_span label)
{
	if (span_is(p, key, "function_name"))
		p->loc_func = label;
}

void ir_loc_inlined(struct parser *p, struct src_span key, struct src_span file,
		    struct src_span line, struct src_span col)
{
	if (span_is(p, key, "inlined_at") && parse_u32(p, file, &p->loc_inl[0]) &&
	    parse_u32(p, line, &p->loc_inl[1]) && parse_u32(p, col, &p->loc_inl[2]))
		p->loc_has_inl = true;
}

/* The call site an inlined .loc names: the latest .loc at that position (it carries the
 * rest of the chain), or a bare position. */
static const struct ir_loc *inlined_site(struct parser *p)
{
	uint32_t n = p->nlocs < 64 ? p->nlocs : 64;
	for (uint32_t i = 0; i < n; i++) {
		const struct ir_loc *r = p->locs[(p->nlocs - 1 - i) % 64];
		if (r->file == p->loc_inl[0] && r->line == p->loc_inl[1] && r->col == p->loc_inl[2])
			return r;
	}
	struct ir_loc *r = arena_alloc(p->a, sizeof *r);
	*r = (struct ir_loc){p->loc_inl[0], p->loc_inl[1], p->loc_inl[2], {0, 0}, NULL};
	return r;
}

void ir_loc(struct parser *p, struct src_span file, struct src_span line, struct src_span col)
{
	uint32_t f = 0, l = 0, c = 0;
	if (parse_u32(p, file, &f) && parse_u32(p, line, &l) && parse_u32(p, col, &c) &&
	    p->in_body) {
		struct ir_loc *r = arena_alloc(p->a, sizeof *r);
		*r = (struct ir_loc){f, l, c, p->loc_func, p->loc_has_inl ? inlined_site(p) : NULL};
		p->locs[p->nlocs++ % 64] = r;
		p->loc = r;
	}
	p->loc_func = (struct src_span){0, 0};
	p->loc_has_inl = false;
}

void ir_section(struct parser *p, struct src_span s)
{
	(void)p;
	(void)s;
}

void ir_pragma(struct parser *p, struct src_span str)
{
	(void)p;
	(void)str;
}

/* ---- Declarations ---------------------------------------------------------------------- */

/* What ptxas refuses in a declaration's type: predicate vectors, vectors over 128 bits,
 * .b128 before PTX 8.3. */
static void declspec_limits(struct parser *p, struct declspec *s)
{
	if (s->bad || !s->type)
		return;
	uint32_t ver = p->m->version_major * 10 + p->m->version_minor;
	if (s->vec > 1 && s->type == MOD_PRED) {
		err(p, CHECK_DECLARATION, s->span,
		    "a predicate cannot be a vector: .pred declares scalar registers only");
		s->bad = true;
	} else if ((uint32_t)s->vec * (uint32_t)ir_type_size(s->type) > 16) {
		err(p, CHECK_DECLARATION, s->span,
		    "vector type of %u bits: at most 128 are allowed",
		    (uint32_t)s->vec * (uint32_t)ir_type_size(s->type) * 8);
		s->bad = true;
	} else if (s->type == MOD_B128 && ver < 83) {
		err(p, CHECK_PTX_VERSION, s->span, "type .b128 needs PTX ISA 8.3 (module is %u.%u)",
		    p->m->version_major, p->m->version_minor);
		s->bad = true;
	}
}

struct declspec *ir_declspec(struct parser *p, unsigned linkage, struct src_span space,
			     uint32_t nattrs, struct src_span all)
{
	struct declspec *s = arena_alloc(p->a, sizeof *s);
	s->linkage = linkage;
	s->span = all;
	s->vec = 1;
	s->space = ir_mod_lookup(txt(p, space), space.len);
	for (uint32_t i = 0; i < nattrs && i < p->nwords; i++) {
		struct src_span w = p->words[i];
		const char *t = txt(p, w);
		if (w.len == 4 && memcmp(t, ".ptr", 4) == 0) {
			s->is_ptr = true;
			continue;
		}
		if (w.len == 6 && memcmp(t, ".align", 6) == 0 && i + 1 < p->nwords) {
			struct src_span num = p->words[++i];
			uint32_t a;
			if (!parse_u32(p, num, &a)) {
				s->bad = true;
			} else if (a == 0 || (a & (a - 1))) {
				err(p, CHECK_DECLARATION, num,
				    "alignment %" PRIu32 " is not a power of two", a);
				s->bad = true;
			} else if (s->type && !s->is_ptr) {
				err(p, CHECK_DECLARATION, w, "'.align' must come before the type");
				s->bad = true;
			} else {
				s->align = a;
			}
			continue;
		}
		enum ir_mod m = ir_mod_lookup(t, w.len);
		enum ir_mod_kind k = m ? ir_mod_kind(m) : MK_OTHER;
		if (m && k == MK_TYPE && !s->type) {
			s->type = m;
		} else if (m && k == MK_TYPE) {
			err(p, CHECK_DECLARATION, w, "more than one type in declaration");
			s->bad = true;
		} else if (m && k == MK_VEC && s->vec == 1 && !s->type) {
			s->vec = ir_mod_arg(m);
		} else if (m && k == MK_SPACE && s->is_ptr && !s->ptr_space) {
			s->ptr_space = m;
		} else if (m) {
			err(p, CHECK_DECLARATION, w, "unexpected '" NAME_FMT "' in declaration",
			    NAME_ARG(t, w.len));
			s->bad = true;
		} else {
			err(p, CHECK_DECLARATION, w,
			    "unknown modifier '" NAME_FMT "' in declaration", NAME_ARG(t, w.len));
			s->bad = true;
		}
	}
	if (!s->type && !s->bad) {
		err(p, CHECK_DECLARATION, space, "declaration has no type");
		s->bad = true;
	}
	declspec_limits(p, s);
	p->spec = s;
	return s;
}

struct dims *ir_dims_none(struct parser *p)
{
	p->dims = (struct dims){.nelem = 1};
	return &p->dims;
}

struct dims *ir_dims_add(struct parser *p, struct dims *d, uint32_t n, struct src_span s)
{
	struct pexpr e = p->ex[n];
	p->nex = n;
	unparen(p, &e);
	if (e.o.kind != OPND_IMM || (!e.is_unsigned && e.o.imm < 0)) {
		err(p, CHECK_DECLARATION, s,
		    "array dimension must be a non-negative integer constant");
		d->bad = true;
		return d;
	}
	uint64_t v = (uint64_t)e.o.imm;
	if (d->unsized && !d->is_array) {
		d->nelem = v;
	} else if (d->nelem && v > (uint64_t)INT64_MAX / d->nelem) {
		err(p, CHECK_DECLARATION, s, "array is too large");
		d->bad = true;
	} else {
		d->nelem *= v;
	}
	d->is_array = true;
	return d;
}

struct dims *ir_dims_unsized(struct parser *p, struct dims *d, struct src_span s)
{
	if (d->is_array || d->unsized) {
		err(p, CHECK_DECLARATION, s, "only the first array dimension may be empty");
		d->bad = true;
		return d;
	}
	d->unsized = true;
	d->is_array = true;
	d->nelem = 0;
	return d;
}

static struct ir_sym *sym_new(struct parser *p, enum ir_sym_kind kind, struct src_span name)
{
	struct ir_sym *y = arena_alloc(p->a, sizeof *y);
	y->kind = kind;
	y->name = arena_strndup(p->a, txt(p, name), name.len);
	y->name_len = name.len;
	y->span = name;
	y->vec = 1;
	y->nelem = 1;
	y->slot = -1;
	return y;
}

/* Declare in `s`, unless the name is taken there: then report it, with the first one. */
static bool declare(struct parser *p, struct ir_scope *s, struct ir_sym *y)
{
	bool range = y->kind == SYM_REGRANGE;
	struct ir_sym *old = scope_find(s, y->name, y->name_len, name_hash(y->name, y->name_len, range),
					range);
	if (!old && !range) {
		uint32_t plen;
		int64_t idx = trailing_index(y->name, y->name_len, &plen);
		if (idx >= 0) {
			struct ir_sym *r = scope_find(s, y->name, plen, name_hash(y->name, plen, true), true);
			if (r && (uint64_t)idx < r->range_n)
				old = r;
		}
	}
	if (old) {
		err(p, CHECK_DECLARATION, y->span, "redeclaration of '" NAME_FMT "'",
		    NAME_ARG(y->name, y->name_len));
		if (old->kind != SYM_SREG)
			note(p, old->span, "previous declaration of '" NAME_FMT "' is here",
			     NAME_ARG(old->name, old->name_len));
		return false;
	}
	scope_add(p->a, s, y);
	return true;
}

static void spec_apply(struct ir_sym *y, const struct declspec *s)
{
	y->space = s->space;
	y->type = s->type;
	y->vec = s->vec;
	y->align = s->align;
	y->is_extern = s->linkage & LINK_EXTERN;
	y->is_visible = s->linkage & LINK_VISIBLE;
	y->is_weak = (s->linkage & (LINK_WEAK | LINK_COMMON)) != 0;
	y->is_ptr_param = s->is_ptr;
}

static void pending_add(struct parser *p, struct ir_sym *y)
{
	if (p->npend == p->pcap) {
		p->pcap = p->pcap ? p->pcap * 2 : 16;
		p->pend = xrealloc(p->pend, sizeof *p->pend * p->pcap);
	}
	p->pend[p->npend++] = (struct pending){y, p->scope};
}

/* Count, then store, the flattened elements of an initializer. */
static bool init_walk(struct parser *p, const struct ir_operand *o, struct ir_init *out,
		      uint32_t *n, bool *named)
{
	switch (o->kind) {
	case OPND_VEC:
		for (uint32_t i = 0; i < o->vec.n; i++)
			if (!init_walk(p, &o->vec.elems[i], out, n, named))
				return false;
		return true;
	case OPND_IMM:
	case OPND_FIMM:
	case OPND_SYM:
		break;
	case OPND_ADDR:
		if (o->addr.base && o->addr.base->kind == OPND_SYM)
			break;
		/* fallthrough */
	default:
		err(p, CHECK_DECLARATION, o->span, "invalid initializer element");
		return false;
	}
	if (out) {
		struct ir_init *x = &out[*n];
		x->span = o->span;
		if (o->kind == OPND_IMM) {
			x->kind = INIT_INT;
			x->i = o->imm;
		} else if (o->kind == OPND_FIMM) {
			x->kind = o->fimm.is_f32 ? INIT_F32 : INIT_F64;
			x->bits = o->fimm.bits;
			if (o->fimm.is_f32) {
				uint32_t b = (uint32_t)o->fimm.bits;
				float f;
				memcpy(&f, &b, sizeof f);
				x->f = f;
			} else {
				memcpy(&x->f, &o->fimm.bits, sizeof x->f);
			}
		} else {
			const struct ir_operand *b = o->kind == OPND_ADDR ? o->addr.base : o;
			x->kind = b->ref.comp == COMP_GENERIC ? INIT_GENERIC_SYM : INIT_SYM;
			x->i = o->kind == OPND_ADDR ? o->addr.off : 0;
			x->name = b->ref.name;
			x->name_len = b->ref.len;
		}
	}
	if (o->kind == OPND_SYM || o->kind == OPND_ADDR)
		*named = true;
	(*n)++;
	return true;
}

static void set_init(struct parser *p, struct ir_sym *y, struct pexpr *init,
		     const struct dims *d)
{
	if ((init->has & PH_BRACKET) || init->o.kind == OPND_LIST || init->o.kind == OPND_DUAL ||
	    init->o.kind == OPND_SINK) {
		err(p, CHECK_DECLARATION, init->o.span, "invalid initializer");
		return;
	}
	if (y->kind != SYM_VAR) {
		err(p, CHECK_DECLARATION, init->o.span, "registers cannot have initializers");
		return;
	}
	if (y->space != MOD_GLOBAL && y->space != MOD_CONST) {
		err(p, CHECK_DECLARATION, init->o.span,
		    "only .global and .const variables can have initializers, not " "'%s'",
		    ir_mod_name(y->space));
		return;
	}
	uint32_t n = 0;
	bool named = false;
	if (!init_walk(p, &init->o, NULL, &n, &named))
		return;
	y->init = arena_alloc(p->a, sizeof *y->init * (n ? n : 1));
	y->ninit = 0;
	init_walk(p, &init->o, y->init, &y->ninit, &named);
	if (d->unsized)
		y->nelem = (n + (uint32_t)y->vec - 1) / (uint32_t)y->vec;
	else if ((uint64_t)n > y->nelem * (uint64_t)y->vec)
		err(p, CHECK_DECLARATION, init->o.span,
		    "too many initializers (%" PRIu32 " for %" PRIu64 " elements)", n,
		    y->nelem * (uint64_t)y->vec);
	if (named)
		pending_add(p, y);
}

void ir_declare(struct parser *p, struct src_span name, const struct dims *d, uint32_t init_id,
		struct src_span all)
{
	const struct declspec *s = p->spec;
	struct pexpr none = {.form = PF_NONE};
	struct pexpr *init = init_id == EX_NONE ? &none : &p->ex[init_id];
	p->nex = 0; /* nothing else is live: the entry stays readable until the next push */
	if (!s)
		return;
	bool module = p->scope == p->m->scope;
	bool reg = s->space == MOD_REG;
	if (module && p->header != HDR_DONE)
		header_done(p, s->span);
	struct ir_sym *y = sym_new(p, reg ? SYM_REG : SYM_VAR, name);
	spec_apply(y, s);
	y->nelem = d->nelem;
	y->is_array = d->is_array;
	if (reg && d->is_array) {
		err(p, CHECK_DECLARATION, name, "registers cannot be arrays");
		return;
	}
	if (module && (reg || s->space == MOD_PARAM)) {
		err(p, CHECK_DECLARATION, s->span,
		    "'%s' variables must be declared inside a function", ir_mod_name(s->space));
		return;
	}
	if (init->form != PF_NONE)
		set_init(p, y, init, d);
	else if (d->is_array && !d->unsized && d->nelem == 0 && !y->is_extern)
		err(p, CHECK_DECLARATION, name,
		    "'" NAME_FMT "' has no elements (an array of 0; only an .extern "
		    "declaration may leave its size open)", NAME_ARG(y->name, y->name_len));
	(void)all;
	if (!declare(p, p->scope, y))
		return;
	if (module) {
		struct ir_module *m = p->m;
		if (m->nvars == m->vars_cap) {
			uint32_t cap = m->vars_cap ? m->vars_cap * 2 : 16;
			m->vars = arena_grow(p->a, m->vars, sizeof *m->vars, m->nvars, cap);
			m->vars_cap = cap;
		}
		m->vars[m->nvars++] = y;
	}
}

void ir_declare_range(struct parser *p, struct src_span name, struct src_span n,
		      struct src_span all)
{
	const struct declspec *s = p->spec;
	if (!s)
		return;
	(void)all;
	if (s->space != MOD_REG) {
		err(p, CHECK_DECLARATION, name,
		    "parameterized names (name<N>) are only allowed for .reg");
		return;
	}
	if (p->scope == p->m->scope) {
		if (p->header != HDR_DONE)
			header_done(p, s->span);
		err(p, CHECK_DECLARATION, s->span,
		    "'.reg' variables must be declared inside a function");
		return;
	}
	uint32_t count;
	if (!parse_u32(p, n, &count))
		return;
	struct ir_sym *y = sym_new(p, SYM_REGRANGE, name);
	spec_apply(y, s);
	y->range_n = count;
	declare(p, p->scope, y);
}

struct sym_list *ir_params_none(struct parser *p)
{
	return arena_alloc(p->a, sizeof(struct sym_list));
}

struct sym_list *ir_params_add(struct parser *p, struct sym_list *l, struct declspec *s,
			       struct src_span name, const struct dims *d)
{
	if (s->space != MOD_PARAM && s->space != MOD_REG) {
		err(p, CHECK_DECLARATION, s->span, "parameters must be in .param or .reg space");
		return l;
	}
	struct ir_sym *y = sym_new(p, s->space == MOD_REG ? SYM_REG : SYM_VAR, name);
	spec_apply(y, s);
	y->nelem = d->nelem;
	y->is_array = d->is_array;
	y->is_param = true;
	y->next_in_scope = NULL;
	if (l->tail)
		l->tail->next_in_scope = y;
	else
		l->head = y;
	l->tail = y;
	l->n++;
	return l;
}

/* ---- Functions and blocks -------------------------------------------------------------- */

static struct ir_sym **sym_array(struct parser *p, struct sym_list *l, bool ret)
{
	if (!l || !l->n)
		return NULL;
	struct ir_sym **v = arena_alloc(p->a, sizeof *v * l->n);
	uint32_t i = 0;
	for (struct ir_sym *y = l->head; y && i < l->n; y = y->next_in_scope) {
		y->is_retparam = ret;
		v[i++] = y;
	}
	return v;
}

/* Move a parameter list into a scope (the list's links become the scope's). */
static void params_into(struct parser *p, struct ir_scope *s, struct ir_sym **v, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		v[i]->next_in_scope = NULL;
		if (v[i]->name_len == 1 && v[i]->name[0] == '_')
			continue;
		declare(p, s, v[i]);
	}
}

struct ir_func *ir_func_begin(struct parser *p, unsigned linkage, bool is_entry,
			      struct sym_list *rets, struct src_span name, struct sym_list *params,
			      struct src_span all)
{
	struct ir_module *m = p->m;
	if (p->header != HDR_DONE)
		header_done(p, all);
	p->quiet_orphans = false;
	p->redefining = false;
	if (p->func) /* cannot nest; only reachable after errors */
		ir_func_decl_end(p, all);
	const char *t = txt(p, name);
	struct ir_sym *old = scope_find(m->scope, t, name.len, name_hash(t, name.len, false), false);
	struct ir_func *f;
	if (old && old->kind == SYM_FUNC) {
		f = old->func;
		p->redefining = f->has_body;
		if (f->is_entry != is_entry) {
			err(p, CHECK_DECLARATION, name, "'" NAME_FMT "' was declared as %s",
			    NAME_ARG(t, name.len), f->is_entry ? ".entry" : ".func");
			note(p, old->span, "previous declaration of '" NAME_FMT "' is here",
			     NAME_ARG(t, name.len));
		}
		if (p->redefining) {
			/* Parse the body into a detached function so the first one stays intact. */
			struct ir_func *g = arena_alloc(p->a, sizeof *g);
			g->sym = old;
			f = g;
		}
	} else {
		f = arena_alloc(p->a, sizeof *f);
		struct ir_sym *y = sym_new(p, SYM_FUNC, name);
		y->func = f;
		f->sym = y;
		if (old) {
			err(p, CHECK_DECLARATION, name, "redeclaration of '" NAME_FMT "'",
			    NAME_ARG(t, name.len));
			note(p, old->span, "previous declaration of '" NAME_FMT "' is here",
			     NAME_ARG(old->name, old->name_len));
		} else {
			scope_add(p->a, m->scope, y);
			if (m->funcs_tail)
				m->funcs_tail->next = f;
			else
				m->funcs = f;
			m->funcs_tail = f;
		}
	}
	struct ir_sym *y = f->sym;
	y->is_extern = linkage & LINK_EXTERN;
	y->is_visible = linkage & LINK_VISIBLE;
	y->is_weak = (linkage & (LINK_WEAK | LINK_COMMON)) != 0;
	f->is_entry = is_entry;
	f->span = all;
	memset(&f->perf, 0, sizeof f->perf);
	f->nrets = rets ? rets->n : 0;
	f->rets = sym_array(p, rets, true);
	f->nparams = params->n;
	f->params = sym_array(p, params, false);
	if (is_entry && f->nrets)
		err(p, CHECK_DECLARATION, name, "a kernel (.entry) cannot have return parameters");
	f->scope = scope_new(p->a, m->scope);
	params_into(p, f->scope, f->rets, f->nrets);
	params_into(p, f->scope, f->params, f->nparams);
	p->func = f;
	p->scope = f->scope;
	return f;
}

uint32_t ir_ints_first(struct parser *p, struct src_span n)
{
	return ir_ints_push(p, 0, n);
}

uint32_t ir_ints_push(struct parser *p, uint32_t count, struct src_span n)
{
	uint32_t v = 0;
	parse_u32(p, n, &v);
	if (count < 4)
		p->ints[count] = v;
	return count + 1;
}

void ir_perf(struct parser *p, struct src_span dir, uint32_t n)
{
	struct ir_func *f = p->func;
	if (!f)
		return;
	struct ir_perf *pf = &f->perf;
	const char *t = txt(p, dir) + 1;
	uint32_t len = dir.len - 1;
#define IS(s) (len == sizeof(s) - 1 && memcmp(t, s, len) == 0)
	uint32_t *dim3 = IS("maxntid") ? pf->maxntid : IS("reqntid") ? pf->reqntid
			 : IS("reqnctapercluster") ? pf->reqnctapercluster : NULL;
	uint32_t *one = IS("minnctapersm") || IS("maxnctapersm") ? &pf->minnctapersm
			: IS("maxnreg") ? &pf->maxnreg : IS("maxclusterrank") ? &pf->maxclusterrank
			: NULL;
	bool *flag = IS("explicitcluster") ? &pf->explicitcluster : IS("noreturn") ? &pf->noreturn
		     : NULL;
#undef IS
	if (dim3 && n >= 1 && n <= 3) {
		for (uint32_t i = 0; i < 3; i++)
			dim3[i] = i < n ? p->ints[i] : 1;
	} else if (one && n == 1) {
		*one = p->ints[0];
	} else if (flag && n == 0) {
		*flag = true;
	} else {
		err(p, CHECK_DECLARATION, dir, "'%.*s' takes %s", (int)dir.len, txt(p, dir),
		    dim3 ? "1 to 3 values" : one ? "one value" : "no values");
	}
}

void ir_func_body_begin(struct parser *p, struct src_span brace)
{
	struct ir_func *f = p->func;
	if (!f)
		return;
	if (p->redefining) {
		err(p, CHECK_DECLARATION, f->span, "redefinition of '" NAME_FMT "'",
		    NAME_ARG(f->sym->name, f->sym->name_len));
		note(p, f->sym->func->span, "previous definition of '" NAME_FMT "' is here",
		     NAME_ARG(f->sym->name, f->sym->name_len));
	}
	f->has_body = true;
	p->in_body = true;
	if (p->hooks.drop_bodies)
		p->a = p->scratch;
	p->ninsns = 0;
	p->nblocks = 0;
	p->loc = NULL;
	p->nlocs = 0;
	p->pend_func = p->npend;
	(void)brace;
}

static void resolve(struct parser *p, struct ir_operand *o, struct ir_scope *s);

static void resolve_name(struct parser *p, struct ir_operand *o, struct ir_scope *s)
{
	uint32_t index = 0;
	struct ir_sym *y = ir_lookup(p->m, s, o->ref.name, o->ref.len, &index);
	if (!y) {
		err(p, CHECK_UNDECLARED, o->span, "undeclared identifier '" NAME_FMT "'",
		    NAME_ARG(o->ref.name, o->ref.len));
		p->m->nundeclared++;
		return;
	}
	o->ref.sym = y;
	o->ref.index = index;
	if (y->kind == SYM_REG || y->kind == SYM_REGRANGE || y->kind == SYM_SREG)
		o->kind = OPND_REG;
}

static void resolve(struct parser *p, struct ir_operand *o, struct ir_scope *s)
{
	switch (o->kind) {
	case OPND_SYM:
		if (!o->ref.sym)
			resolve_name(p, o, s);
		break;
	case OPND_ADDR:
		if (o->addr.base) {
			struct ir_operand *b = o->addr.base;
			bool indexed = b->ref.comp == COMP_INDEXED;
			if (indexed)
				b->ref.comp = COMP_NONE;
			resolve(p, b, s);
			if (indexed && b->ref.sym) {
				struct ir_sym *y = b->ref.sym;
				uint64_t elem = (uint64_t)ir_type_size(y->type) * (uint64_t)y->vec;
				if (y->kind != SYM_VAR)
					err(p, CHECK_OPND_KIND, o->span,
					    "'" NAME_FMT "' is not a variable that can be indexed",
					    NAME_ARG(y->name, y->name_len));
				else
					o->addr.off = (int64_t)((uint64_t)o->addr.off * elem);
			}
		}
		break;
	case OPND_VEC:
	case OPND_LIST:
	case OPND_DUAL:
		for (uint32_t i = 0; i < o->vec.n; i++)
			resolve(p, &o->vec.elems[i], s);
		break;
	default:
		break;
	}
}

/* Resolve the names in initializers and target lists recorded since `from`. */
static void resolve_pending(struct parser *p, uint32_t from)
{
	for (uint32_t i = from; i < p->npend; i++) {
		struct ir_sym *y = p->pend[i].sym;
		struct ir_scope *s = p->pend[i].scope;
		if (y->kind == SYM_TARGETS) {
			for (uint32_t k = 0; k < y->ntargets; k++)
				resolve(p, &y->targets[k], s);
			continue;
		}
		for (uint32_t k = 0; k < y->ninit; k++) {
			struct ir_init *x = &y->init[k];
			if (x->kind != INIT_SYM && x->kind != INIT_GENERIC_SYM)
				continue;
			x->sym = ir_lookup(p->m, s, x->name, x->name_len, NULL);
			if (!x->sym) {
				err(p, CHECK_UNDECLARED, x->span,
				    "undeclared identifier '" NAME_FMT "'",
				    NAME_ARG(x->name, x->name_len));
				p->m->nundeclared++;
			}
		}
	}
	p->npend = from;
}

/* Close what error recovery may have left open inside the function. */
static void unwind_blocks(struct parser *p)
{
	while (p->scope && p->func && p->scope != p->func->scope && p->scope != p->m->scope) {
		scope_seal(p->scope);
		p->scope = p->scope->parent;
	}
	p->nblocks = 0;
}

/* Forget a body that func_done has seen: its instructions were borrowed from the parser's
 * buffer, its local symbols live in the scratch arena, which is cleared for the next body.
 * Only the header stays: name, parameters, performance directives. */
static void body_drop(struct parser *p, struct ir_func *f)
{
	f->insns = NULL;
	f->ninsns = f->cap = 0;
	*f->scope = (struct ir_scope){.parent = f->scope->parent};
	for (uint32_t i = 0; i < f->nrets; i++)
		f->rets[i]->next_in_scope = NULL;
	for (uint32_t i = 0; i < f->nparams; i++)
		f->params[i]->next_in_scope = NULL;
	arena_reset(p->scratch);
	p->a = p->m->arena;
}

static void func_finish(struct parser *p, bool resolve_names)
{
	struct ir_func *f = p->func;
	unwind_blocks(p);
	if (resolve_names) {
		for (uint32_t i = 0; i < p->ninsns; i++) {
			struct ir_insn *in = &p->insns[i];
			if (in->has_guard)
				resolve(p, &in->guard, in->scope);
			for (uint32_t k = 0; k < in->nopnds; k++)
				resolve(p, &in->opnds[k], in->scope);
		}
		resolve_pending(p, p->pend_func);
	} else {
		p->npend = p->pend_func;
	}
	f->ninsns = f->cap = p->ninsns;
	f->insns = NULL;
	if (p->ninsns && p->hooks.drop_bodies) {
		f->insns = p->insns;
	} else if (p->ninsns) {
		f->insns = arena_alloc(p->a, sizeof *f->insns * p->ninsns);
		memcpy(f->insns, p->insns, sizeof *f->insns * p->ninsns);
	}
	p->ninsns = 0;
	scope_seal(f->scope);
	if (resolve_names && p->hooks.func_done)
		p->hooks.func_done(p->hooks.ctx, p->m, f);
	if (p->hooks.drop_bodies)
		body_drop(p, f);
	p->func = NULL;
	p->scope = p->m->scope;
	p->in_body = false;
	p->redefining = false;
}

void ir_func_end(struct parser *p, struct src_span close)
{
	if (!p->func)
		return;
	p->func->span.len = close.off + close.len - p->func->span.off;
	func_finish(p, true);
}

void ir_func_decl_end(struct parser *p, struct src_span semi)
{
	(void)semi;
	if (!p->func)
		return;
	if (p->in_body) { /* only after errors */
		func_finish(p, false);
		return;
	}
	scope_seal(p->func->scope);
	p->func = NULL;
	p->scope = p->m->scope;
	p->redefining = false;
}

void ir_block_open(struct parser *p, struct src_span brace)
{
	if (!p->in_body && !p->quiet_orphans)
		err(p, CHECK_SYNTAX, brace, "'{' outside of a function body");
	p->scope = scope_new(p->a, p->scope);
	p->nblocks++;
}

void ir_block_close(struct parser *p, struct src_span brace)
{
	if (p->nblocks == 0) {
		if (!p->quiet_orphans)
			err(p, CHECK_SYNTAX, brace, "unmatched '}'");
		return;
	}
	p->nblocks--;
	scope_seal(p->scope);
	p->scope = p->scope->parent;
}

static bool in_body(struct parser *p, struct src_span s, const char *what)
{
	if (p->in_body)
		return true;
	if (!p->quiet_orphans)
		err(p, CHECK_SYNTAX, s, "%s outside of a function body", what);
	return false;
}

void ir_label(struct parser *p, struct src_span name)
{
	if (!in_body(p, name, "label"))
		return;
	struct ir_sym *y = sym_new(p, SYM_LABEL, name);
	y->label_index = p->ninsns;
	declare(p, p->scope, y);
}

void ir_proto(struct parser *p, struct src_span label, struct sym_list *rets,
	      struct sym_list *params, struct src_span all)
{
	if (!in_body(p, label, ".callprototype"))
		return;
	struct ir_func *f = arena_alloc(p->a, sizeof *f);
	struct ir_sym *y = sym_new(p, SYM_PROTO, label);
	f->sym = y;
	f->span = all;
	f->nrets = rets->n;
	f->rets = sym_array(p, rets, true);
	f->nparams = params->n;
	f->params = sym_array(p, params, false);
	for (uint32_t i = 0; i < f->nrets; i++)
		f->rets[i]->next_in_scope = NULL;
	for (uint32_t i = 0; i < f->nparams; i++)
		f->params[i]->next_in_scope = NULL;
	y->proto = f;
	y->func = f;
	declare(p, p->scope, y);
}

void ir_targets(struct parser *p, struct src_span label, struct plist l, struct src_span all)
{
	(void)all;
	if (!in_body(p, label, "target list")) {
		p->osp = l.start;
		return;
	}
	struct ir_sym *y = sym_new(p, SYM_TARGETS, label);
	y->ntargets = l.n;
	y->targets = opop(p, l, NULL);
	if (declare(p, p->scope, y))
		pending_add(p, y);
}

/* ---- Instructions ---------------------------------------------------------------------- */

static struct pexpr guard_expr(struct parser *p, bool neg, struct src_span name, struct src_span all)
{
	struct pexpr e = e_name(p, name);
	if (e.o.kind != OPND_SYM) {
		err(p, CHECK_OPND_KIND, name, "a guard must be a predicate register");
		e = e_name(p, name);
		e.o.kind = OPND_SYM;
	}
	e.o.neg = neg;
	e.o.span = all;
	return e;
}

uint32_t ir_guard(struct parser *p, bool neg, struct src_span name, struct src_span all)
{
	struct pexpr e = guard_expr(p, neg, name, all);
	return ex_push(p, &e);
}

uint32_t ir_guard_none(struct parser *p)
{
	(void)p;
	return EX_NONE;
}

enum { MAX_WORDS = 64 };

void ir_insn_new(struct parser *p, uint32_t guard_id, struct src_span opcode, uint32_t nmods,
		 struct plist opnds, struct src_span all)
{
	struct pexpr *guard = guard_id == EX_NONE ? NULL : &p->ex[guard_id];
	p->nex = 0; /* statement done: the guard stays readable until the next push */
	if (nmods > p->nwords)
		nmods = p->nwords;
	struct src_span op_span = opcode;
	if (nmods)
		op_span.len = p->words[nmods - 1].off + p->words[nmods - 1].len - opcode.off;
	if (!in_body(p, opcode, "instruction")) {
		p->osp = opnds.start;
		return;
	}
	const char *words[MAX_WORDS];
	size_t lens[MAX_WORDS];
	int nw = 1 + (int)(nmods < MAX_WORDS - 1 ? nmods : MAX_WORDS - 1);
	words[0] = txt(p, opcode);
	lens[0] = opcode.len;
	for (int i = 1; i < nw; i++) {
		words[i] = txt(p, p->words[i - 1]) + 1;
		lens[i] = p->words[i - 1].len - 1;
	}
	int used = 0;
	enum ir_op op = ir_op_lookup(words, lens, nw, &used);
	if (op == OP__COUNT) {
		struct strbuf b = {0};
		sb_printf(&b, NAME_FMT, NAME_ARG(words[0], lens[0]));
		for (uint32_t i = 0; i < nmods && b.len < 300; i++)
			sb_printf(&b, NAME_FMT, NAME_ARG(txt(p, p->words[i]), p->words[i].len));
		err(p, CHECK_UNKNOWN_INSN, op_span, "unsupported instruction '%s'", b.s ? b.s : "");
		sb_free(&b);
		p->osp = opnds.start;
		return;
	}
	if (nmods >= MAX_WORDS - 1)
		err(p, CHECK_SYNTAX, op_span, "too many modifiers");
	if (p->ninsns == p->icap) {
		p->icap = p->icap ? p->icap * 2 : 1024;
		p->insns = xrealloc(p->insns, sizeof *p->insns * p->icap);
	}
	struct ir_insn *in = &p->insns[p->ninsns];
	memset(in, 0, sizeof *in);
	in->op = op;
	in->span = all;
	in->op_span = op_span;
	in->scope = p->scope;
	in->loc = p->loc;
	uint32_t first = (uint32_t)used - 1, nm = nmods - first;
	if (nm) {
		size_t ms = (sizeof(enum ir_mod) * nm + 7) & ~(size_t)7;
		char *blk = arena_alloc(p->a, ms + sizeof(struct src_span) * nm);
		in->mods = (enum ir_mod *)blk;
		in->mod_spans = (struct src_span *)(blk + ms);
		uint32_t k = 0;
		for (uint32_t i = first; i < nmods; i++) {
			struct src_span w = p->words[i];
			enum ir_mod m = ir_mod_lookup(txt(p, w), w.len);
			if (m == MOD_NONE && (ir_op_family(op) == FAM_UNMODELLED ||
					      ir_op_family(op) == FAM_WGMMA))
				continue; /* shapes, layouts, .2d...: words mods.def need not know
					   * (wgmma_form.c reads the wgmma words from the text) */
			if (m == MOD_NONE) {
				err(p, CHECK_MOD_NOT_ALLOWED, w,
				    "unknown modifier '" NAME_FMT "' on '%s'",
				    NAME_ARG(txt(p, w), w.len), ir_op_name(op));
				continue;
			}
			in->mods[k] = m;
			in->mod_spans[k++] = w;
		}
		in->nmods = (uint16_t)k;
	}
	if (guard && guard->form != PF_NONE) {
		in->has_guard = true;
		in->guard_neg = guard->o.neg;
		in->guard = guard->o;
	}
	if (opnds.n > UINT16_MAX) {
		err(p, CHECK_SYNTAX, all, "too many operands");
		opnds.n = UINT16_MAX;
	}
	in->nopnds = (uint16_t)opnds.n;
	if (opnds.n) {
		in->opnds = arena_alloc(p->a, sizeof *in->opnds * opnds.n);
		for (uint32_t i = 0; i < opnds.n; i++) {
			struct ir_operand *o = &in->opnds[i];
			*o = p->ostk[opnds.start + i];
			uint8_t f = p->fstk[opnds.start + i];
			if (op != OP_CALL && o->kind == OPND_LIST && o->vec.n == 1) {
				struct src_span s = o->span;
				*o = o->vec.elems[0];
				o->span = s;
			}
			if (f & PH_GENERIC)
				err(p, CHECK_SYNTAX, o->span,
				    "generic() is only allowed in initializers");
			else if ((f & PH_ADDEXPR) && !takes_symbol_offset(op))
				err(p, CHECK_SYNTAX, o->span,
				    "address arithmetic needs brackets, as in [sym+4]");
			else if (f & PH_ADDEXPR)
				o->bare = true;
		}
	}
	p->osp = opnds.start;
	p->ninsns++;
}

/* ---- Syntax errors and the driver ------------------------------------------------------ */

static bool wordish(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '$' || c == '%' || c == '.';
}

/* A guess at the usual slips, from the tokens around the error: a missing ';' when the
 * offending token starts a new line, a missing ',' between two operands on one line. */
static const char *syntax_hint(struct parser *p, struct src_span s, const char *msg)
{
	const char *text = p->file->text;
	if (s.off >= p->file->len)
		return p->in_body ? " (missing '}' at the end of the function?)" : "";
	struct src_span q = p->prev_tok;
	if (q.len == 0 || q.off + q.len > s.off || strstr(msg, "expecting"))
		return ""; /* Bison's own list says it better */
	char last = text[q.off + q.len - 1], first = text[s.off];
	if (last == ';' || last == '{' || last == '}' || last == ':' || last == ',')
		return "";
	if (memchr(text + q.off + q.len, '\n', s.off - (q.off + q.len)))
		return " (missing ';' at the end of the previous line?)";
	if (p->in_body && (wordish(last) || last == ']' || last == ')') &&
	    (wordish(first) || first == '['))
		return " (missing ',' between operands?)";
	return "";
}

void ir_syntax_error(struct parser *p, const struct src_span *loc, const char *msg, int lexcase)
{
	struct src_span s = *loc;
	if (!p->in_body)
		p->quiet_orphans = true;
	if (strcmp(msg, "memory exhausted") == 0) {
		err(p, CHECK_SYNTAX, s, "input is nested too deeply");
		return;
	}
	const char *t = txt(p, s);
	if (lexcase == 2) {
		uint32_t n = 1;
		while (n < s.len && n < 40 && !isspace((unsigned char)t[n]))
			n++;
		err(p, CHECK_SYNTAX, s,
		    "unsupported preprocessor directive '%.*s' (only #line is accepted)", (int)n, t);
		return;
	}
	if (lexcase == 1 && s.len >= 1) {
		if (t[0] == '"')
			err(p, CHECK_SYNTAX, s, "unterminated string");
		else if (s.len >= 2 && t[0] == '/' && t[1] == '*')
			err(p, CHECK_SYNTAX, s, "unterminated comment");
		else if (s.len >= 8 && memcmp(t, ".section", 8) == 0)
			err(p, CHECK_SYNTAX, s, "unterminated .section block");
		else if (isprint((unsigned char)t[0]))
			err(p, CHECK_SYNTAX, s, "invalid character '%c'", t[0]);
		else
			err(p, CHECK_SYNTAX, s, "invalid character '\\x%02x'", (unsigned char)t[0]);
		return;
	}
	err(p, CHECK_SYNTAX, s, "%s%s", msg, syntax_hint(p, s, msg));
}

struct ir_module *ir_parse(struct arena *a, struct diag *d, struct src_file *file,
			   const struct ir_hooks *hooks)
{
	tables_init();
	struct ir_module *m = arena_alloc(a, sizeof *m);
	m->arena = a;
	m->diag = d;
	m->file = file;
	unsigned errors0 = d->nerrors;
	struct parser *p = arena_xcalloc(1, sizeof *p);
	p->m = m;
	p->a = a;
	p->d = d;
	p->file = file;
	if (hooks)
		p->hooks = *hooks;
	if (p->hooks.drop_bodies)
		p->scratch = arena_create();
	p->builtin = scope_new(a, NULL);
	for (int i = 0; i < SREG__COUNT; i++) {
		struct ir_sym *y = arena_alloc(a, sizeof *y);
		y->kind = SYM_SREG;
		y->name = sreg_names[i];
		y->name_len = (uint32_t)strlen(sreg_names[i]);
		y->space = MOD_SREG;
		y->vec = 1;
		y->nelem = 1;
		y->sreg = i;
		y->slot = -1;
		scope_add(a, p->builtin, y);
	}
	scope_seal(p->builtin);
	m->scope = scope_new(a, p->builtin);
	p->scope = m->scope;
	if (file->len >= UINT32_MAX) {
		diag_report(d, DIAG_ERROR, NULL, (struct src_span){0, 0},
			    "%s: file too large (4 GiB at most)", file->path);
	} else {
		lex_init(&p->lx, file, d);
		ptx_parse(p);
		if (p->func) {
			if (p->in_body)
				func_finish(p, false);
			else
				ir_func_decl_end(p, (struct src_span){0, 0});
		}
		while (p->scope && p->scope != m->scope) { /* orphan blocks left open */
			scope_seal(p->scope);
			p->scope = p->scope->parent;
		}
		resolve_pending(p, 0);
		if (p->header != HDR_DONE)
			header_done(p, (struct src_span){(uint32_t)file->len, 0});
	}
	scope_seal(m->scope);
	free(p->ostk);
	free(p->ex);
	free(p->fstk);
	free(p->words);
	free(p->insns);
	free(p->pend);
	arena_destroy(p->scratch);
	free(p);
	m->nerrors = d->nerrors - errors0;
	return m;
}
