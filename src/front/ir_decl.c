/*
 * ir_decl.c - declarations: state space, alignment, type and dimensions of a declaration,
 * symbols declared into their scope, initializers and parameter lists.
 */

#include "ir_priv.h"

#include <inttypes.h>
#include <string.h>

/* What ptxas refuses in a declaration's type: predicate vectors, vectors over 128 bits,
 * .b128 before PTX 8.3. */
static void declspec_limits(struct parser *p, struct declspec *s)
{
	if (s->bad || !s->type)
		return;
	uint32_t ver = p->m->version_major * 10 + p->m->version_minor;
	if (s->vec > 1 && s->type == MOD_PRED) {
		irp_err(p, CHECK_DECLARATION, s->span,
			"a predicate cannot be a vector: .pred declares scalar registers only");
		s->bad = true;
	} else if ((uint32_t)s->vec * (uint32_t)ir_type_size(s->type) > 16) {
		irp_err(p, CHECK_DECLARATION, s->span,
			"vector type of %u bits: at most 128 are allowed",
			(uint32_t)s->vec * (uint32_t)ir_type_size(s->type) * 8);
		s->bad = true;
	} else if (s->type == MOD_B128 && ver < 83) {
		irp_err(p, CHECK_PTX_VERSION, s->span, "type .b128 needs PTX ISA 8.3 (module is %u.%u)",
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
			if (!irp_parse_u32(p, num, &a)) {
				s->bad = true;
			} else if (a == 0 || (a & (a - 1))) {
				irp_err(p, CHECK_DECLARATION, num,
					"alignment %" PRIu32 " is not a power of two", a);
				s->bad = true;
			} else if (s->type && !s->is_ptr) {
				irp_err(p, CHECK_DECLARATION, w, "'.align' must come before the type");
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
			irp_err(p, CHECK_DECLARATION, w, "more than one type in declaration");
			s->bad = true;
		} else if (m && k == MK_VEC && s->vec == 1 && !s->type) {
			s->vec = ir_mod_arg(m);
		} else if (m && k == MK_SPACE && s->is_ptr && !s->ptr_space) {
			s->ptr_space = m;
		} else if (m) {
			irp_err(p, CHECK_DECLARATION, w, "unexpected '" NAME_FMT "' in declaration",
				NAME_ARG(t, w.len));
			s->bad = true;
		} else {
			irp_err(p, CHECK_DECLARATION, w,
				"unknown modifier '" NAME_FMT "' in declaration", NAME_ARG(t, w.len));
			s->bad = true;
		}
	}
	if (!s->type && !s->bad) {
		irp_err(p, CHECK_DECLARATION, space, "declaration has no type");
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
	irp_unparen(p, &e);
	if (e.o.kind != OPND_IMM || (!e.is_unsigned && e.o.imm < 0)) {
		irp_err(p, CHECK_DECLARATION, s,
			"array dimension must be a non-negative integer constant");
		d->bad = true;
		return d;
	}
	uint64_t v = (uint64_t)e.o.imm;
	if (d->unsized && !d->is_array) {
		d->nelem = v;
	} else if (d->nelem && v > (uint64_t)INT64_MAX / d->nelem) {
		irp_err(p, CHECK_DECLARATION, s, "array is too large");
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
		irp_err(p, CHECK_DECLARATION, s, "only the first array dimension may be empty");
		d->bad = true;
		return d;
	}
	d->unsized = true;
	d->is_array = true;
	d->nelem = 0;
	return d;
}

struct ir_sym *irp_sym_new(struct parser *p, enum ir_sym_kind kind, struct src_span name)
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
bool irp_declare(struct parser *p, struct ir_scope *s, struct ir_sym *y)
{
	bool range = y->kind == SYM_REGRANGE;
	struct ir_sym *old = irp_scope_find(s, y->name, y->name_len,
					    name_hash(y->name, y->name_len, range), range);
	if (!old && !range) {
		uint32_t plen;
		int64_t idx = irp_trailing_index(y->name, y->name_len, &plen);
		if (idx >= 0) {
			struct ir_sym *r = irp_scope_find(s, y->name, plen, name_hash(y->name, plen, true), true);
			if (r && (uint64_t)idx < r->range_n)
				old = r;
		}
	}
	if (old) {
		irp_err(p, CHECK_DECLARATION, y->span, "redeclaration of '" NAME_FMT "'",
			NAME_ARG(y->name, y->name_len));
		if (old->kind != SYM_SREG)
			irp_note(p, old->span, "previous declaration of '" NAME_FMT "' is here",
				 NAME_ARG(old->name, old->name_len));
		return false;
	}
	irp_scope_add(p->a, s, y);
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

void irp_pending_add(struct parser *p, struct ir_sym *y)
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
		irp_err(p, CHECK_DECLARATION, o->span, "invalid initializer element");
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
		irp_err(p, CHECK_DECLARATION, init->o.span, "invalid initializer");
		return;
	}
	if (y->kind != SYM_VAR) {
		irp_err(p, CHECK_DECLARATION, init->o.span, "registers cannot have initializers");
		return;
	}
	if (y->space != MOD_GLOBAL && y->space != MOD_CONST) {
		irp_err(p, CHECK_DECLARATION, init->o.span,
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
		irp_err(p, CHECK_DECLARATION, init->o.span,
			"too many initializers (%" PRIu32 " for %" PRIu64 " elements)", n,
			y->nelem * (uint64_t)y->vec);
	if (named)
		irp_pending_add(p, y);
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
		irp_header_done(p, s->span);
	struct ir_sym *y = irp_sym_new(p, reg ? SYM_REG : SYM_VAR, name);
	spec_apply(y, s);
	y->nelem = d->nelem;
	y->is_array = d->is_array;
	if (reg && d->is_array) {
		irp_err(p, CHECK_DECLARATION, name, "registers cannot be arrays");
		return;
	}
	if (module && (reg || s->space == MOD_PARAM)) {
		irp_err(p, CHECK_DECLARATION, s->span,
			"'%s' variables must be declared inside a function", ir_mod_name(s->space));
		return;
	}
	if (init->form != PF_NONE)
		set_init(p, y, init, d);
	else if (d->is_array && !d->unsized && d->nelem == 0 && !y->is_extern)
		irp_err(p, CHECK_DECLARATION, name,
			"'" NAME_FMT "' has no elements (an array of 0; only an .extern "
			"declaration may leave its size open)", NAME_ARG(y->name, y->name_len));
	(void)all;
	if (!irp_declare(p, p->scope, y))
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
		irp_err(p, CHECK_DECLARATION, name,
			"parameterized names (name<N>) are only allowed for .reg");
		return;
	}
	if (p->scope == p->m->scope) {
		if (p->header != HDR_DONE)
			irp_header_done(p, s->span);
		irp_err(p, CHECK_DECLARATION, s->span,
			"'.reg' variables must be declared inside a function");
		return;
	}
	uint32_t count;
	if (!irp_parse_u32(p, n, &count))
		return;
	struct ir_sym *y = irp_sym_new(p, SYM_REGRANGE, name);
	spec_apply(y, s);
	y->range_n = count;
	irp_declare(p, p->scope, y);
}

struct sym_list *ir_params_none(struct parser *p)
{
	return arena_alloc(p->a, sizeof(struct sym_list));
}

struct sym_list *ir_params_add(struct parser *p, struct sym_list *l, struct declspec *s,
			       struct src_span name, const struct dims *d)
{
	if (s->space != MOD_PARAM && s->space != MOD_REG) {
		irp_err(p, CHECK_DECLARATION, s->span, "parameters must be in .param or .reg space");
		return l;
	}
	struct ir_sym *y = irp_sym_new(p, s->space == MOD_REG ? SYM_REG : SYM_VAR, name);
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
