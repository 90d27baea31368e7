/*
 * ir_expr.c - operands and constant expressions as the grammar builds them: the operand
 * stack, numbers, expressions (folded when constant), the expression stack whose indices
 * the grammar holds, and the lists and modifier words.
 */

#include "ir_priv.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ---- Parser helpers -------------------------------------------------------------------- */

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
struct ir_operand *irp_opop(struct parser *p, struct plist l, uint8_t *has)
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
void irp_unparen(struct parser *p, struct pexpr *e)
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
			irp_err(p, CHECK_CONST_EXPR, s, "invalid integer constant '" NAME_FMT "'",
				NAME_ARG(t, s.len));
			return false;
		}
		if (v > (UINT64_MAX - (uint64_t)d) / base)
			overflow = true;
		v = v * base + (uint64_t)d;
	}
	if (overflow) {
		irp_err(p, CHECK_CONST_EXPR, s, "integer constant '" NAME_FMT "' is too large",
			NAME_ARG(t, s.len));
		return false;
	}
	*out = v;
	if (is_unsigned)
		*is_unsigned = u || v > (uint64_t)INT64_MAX;
	return true;
}

bool irp_parse_u32(struct parser *p, struct src_span s, uint32_t *out)
{
	uint64_t v;
	if (!parse_uint(p, s, &v, NULL))
		return false;
	if (v > UINT32_MAX) {
		irp_err(p, CHECK_CONST_EXPR, s, "value '" NAME_FMT "' does not fit in 32 bits",
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

struct pexpr irp_e_name(struct parser *p, struct src_span s)
{
	struct pexpr e = {0};
	set_name(p, &e, s);
	return e;
}

static struct pexpr e_comp(struct parser *p, struct src_span name, struct src_span comp,
		       struct src_span all)
{
	struct pexpr e = irp_e_name(p, name);
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
		irp_err(p, CHECK_SYNTAX, comp, "invalid vector component '" NAME_FMT "'",
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
	e.o.vec.elems = irp_opop(p, l, &e.has);
	e.is_unsigned = u;
	return e;
}

static struct pexpr e_vector(struct parser *p, struct plist l, struct src_span all)
{
	struct pexpr e = {.form = PF_PLAIN};
	e.o.kind = OPND_VEC;
	e.o.span = all;
	e.o.vec.n = l.n;
	e.o.vec.elems = irp_opop(p, l, &e.has);
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
	irp_unparen(p, &e);
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
		irp_err(p, CHECK_SYNTAX, e.o.span,
			"invalid address: expected [name], [name+offset] or [constant]");
		*r = bad_expr(all);
	}
}

static struct pexpr e_index(struct parser *p, struct src_span name, struct pexpr *idx,
			struct src_span all)
{
	struct pexpr n = irp_e_name(p, name);
	struct pexpr i = *idx;
	irp_unparen(p, &i);
	if (n.o.kind != OPND_SYM) {
		irp_err(p, CHECK_SYNTAX, name, "'" NAME_FMT "' cannot be indexed",
			NAME_ARG(txt(p, name), name.len));
		return bad_expr(all);
	}
	if (i.o.kind != OPND_IMM) {
		irp_err(p, CHECK_SYNTAX, idx->o.span, "array index must be a constant expression");
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
	irp_unparen(p, &a);
	if (!(fn.len == 7 && memcmp(txt(p, fn), "generic", 7) == 0)) {
		irp_err(p, CHECK_CONST_EXPR, fn,
			"unknown function '" NAME_FMT "' in expression (only generic() exists)",
			NAME_ARG(txt(p, fn), fn.len));
		return bad_expr(all);
	}
	if (a.o.kind != OPND_SYM || a.o.ref.comp != COMP_NONE || a.o.neg) {
		irp_err(p, CHECK_SYNTAX, arg->o.span, "generic() takes the name of a variable");
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
	irp_unparen(p, &e);
	enum ir_mod t = ir_mod_lookup(txt(p, type), type.len);
	if (t != MOD_S64 && t != MOD_U64) {
		irp_err(p, CHECK_CONST_EXPR, type,
			"invalid cast to '" NAME_FMT "' (only .s64 and .u64 exist)",
			NAME_ARG(txt(p, type), type.len));
		return e;
	}
	if (e.o.kind != OPND_IMM) {
		irp_err(p, CHECK_CONST_EXPR, in->o.span, "a cast needs an integer constant expression");
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
	irp_unparen(p, &e);
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
	irp_err(p, CHECK_CONST_EXPR, all, "invalid operand to unary '%s'", op_spelling(op));
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
			irp_err(p, CHECK_CONST_EXPR, opspan, "division by zero in constant expression");
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
			irp_err(p, CHECK_CONST_EXPR, r->o.span, "shift count %" PRId64 " out of range",
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
	irp_unparen(p, &l);
	irp_unparen(p, &r);
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
		irp_err(p, CHECK_SYNTAX, opspan,
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
	irp_err(p, CHECK_CONST_EXPR, opspan, "invalid operands to binary '%s'", op_spelling(op));
	return bad_expr(all);
}

static struct pexpr e_cond(struct parser *p, struct pexpr *c, struct pexpr *t, struct pexpr *f,
		       struct src_span all)
{
	struct pexpr cc = *c, tt = *t, ff = *f;
	irp_unparen(p, &cc);
	irp_unparen(p, &tt);
	irp_unparen(p, &ff);
	if (cc.o.kind != OPND_IMM || tt.o.kind != OPND_IMM || ff.o.kind != OPND_IMM) {
		irp_err(p, CHECK_CONST_EXPR, all, "'?:' needs integer constant operands");
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

uint32_t irp_ex_push(struct parser *p, const struct pexpr *e)
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
	return irp_ex_push(p, &e);
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
	return irp_ex_push(p, &e);
}

uint32_t ir_e_sink(struct parser *p, struct src_span s)
{
	struct pexpr e = e_sink(p, s);
	return irp_ex_push(p, &e);
}

uint32_t ir_e_paren(struct parser *p, struct plist l, struct src_span all)
{
	struct pexpr e = e_paren(p, l, all);
	return irp_ex_push(p, &e);
}

uint32_t ir_e_vector(struct parser *p, struct plist l, struct src_span all)
{
	struct pexpr e = e_vector(p, l, all);
	return irp_ex_push(p, &e);
}

uint32_t ir_e_addr(struct parser *p, uint32_t e, struct src_span all)
{
	set_addr(p, &p->ex[e], all);
	p->nex = e + 1;
	return e;
}

/* [a].unified: the one word ptxas takes after an address (ld's syntax, ISA 9.7.9.8); where
 * it may stand is check_mem.c's rule. */
uint32_t ir_e_addr_suffix(struct parser *p, uint32_t e, struct src_span word,
			  struct src_span all)
{
	set_addr(p, &p->ex[e], all);
	p->nex = e + 1;
	if (word.len == 8 && memcmp(txt(p, word), ".unified", 8) == 0) {
		if (p->ex[e].o.kind == OPND_ADDR)
			p->ex[e].o.unified = true;
	} else {
		irp_err(p, CHECK_SYNTAX, word,
			"'" NAME_FMT "' cannot follow an address (only '.unified' can)",
			NAME_ARG(txt(p, word), word.len));
	}
	return e;
}

uint32_t ir_e_addr_list(struct parser *p, uint32_t first, struct plist rest, struct src_span all)
{
	uint8_t has;
	struct ir_operand *tail = irp_opop(p, rest, &has);
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
