/*
 * ir_func.c - functions and blocks: a function's parameters and performance directives,
 * its body's scopes, labels, prototypes and branch targets, and the names resolved when the
 * body closes.
 */

#include "ir_priv.h"

#include <string.h>

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
		irp_declare(p, s, v[i]);
	}
}

struct ir_func *ir_func_begin(struct parser *p, unsigned linkage, bool is_entry,
			      struct sym_list *rets, struct src_span name, struct sym_list *params,
			      struct src_span all)
{
	struct ir_module *m = p->m;
	if (p->header != HDR_DONE)
		irp_header_done(p, all);
	p->quiet_orphans = false;
	p->redefining = false;
	if (p->func) /* cannot nest; only reachable after errors */
		ir_func_decl_end(p, all);
	const char *t = txt(p, name);
	struct ir_sym *old = irp_scope_find(m->scope, t, name.len, name_hash(t, name.len, false), false);
	struct ir_func *f;
	if (old && old->kind == SYM_FUNC) {
		f = old->func;
		p->redefining = f->has_body;
		if (f->is_entry != is_entry) {
			irp_err(p, CHECK_DECLARATION, name, "'" NAME_FMT "' was declared as %s",
				NAME_ARG(t, name.len), f->is_entry ? ".entry" : ".func");
			irp_note(p, old->span, "previous declaration of '" NAME_FMT "' is here",
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
		struct ir_sym *y = irp_sym_new(p, SYM_FUNC, name);
		y->func = f;
		f->sym = y;
		if (old) {
			irp_err(p, CHECK_DECLARATION, name, "redeclaration of '" NAME_FMT "'",
				NAME_ARG(t, name.len));
			irp_note(p, old->span, "previous declaration of '" NAME_FMT "' is here",
				 NAME_ARG(old->name, old->name_len));
		} else {
			irp_scope_add(p->a, m->scope, y);
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
		irp_err(p, CHECK_DECLARATION, name, "a kernel (.entry) cannot have return parameters");
	f->scope = irp_scope_new(p->a, m->scope);
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
	irp_parse_u32(p, n, &v);
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
		irp_err(p, CHECK_DECLARATION, dir, "'%.*s' takes %s", (int)dir.len, txt(p, dir),
			dim3 ? "1 to 3 values" : one ? "one value" : "no values");
	}
}

void ir_func_body_begin(struct parser *p, struct src_span brace)
{
	struct ir_func *f = p->func;
	if (!f)
		return;
	if (p->redefining) {
		irp_err(p, CHECK_DECLARATION, f->span, "redefinition of '" NAME_FMT "'",
			NAME_ARG(f->sym->name, f->sym->name_len));
		irp_note(p, f->sym->func->span, "previous definition of '" NAME_FMT "' is here",
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
		irp_err(p, CHECK_UNDECLARED, o->span, "undeclared identifier '" NAME_FMT "'",
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
					irp_err(p, CHECK_OPND_KIND, o->span,
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
void irp_resolve_pending(struct parser *p, uint32_t from)
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
				irp_err(p, CHECK_UNDECLARED, x->span,
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
		irp_scope_seal(p->scope);
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

void irp_func_finish(struct parser *p, bool resolve_names)
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
		irp_resolve_pending(p, p->pend_func);
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
	irp_scope_seal(f->scope);
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
	irp_func_finish(p, true);
}

void ir_func_decl_end(struct parser *p, struct src_span semi)
{
	(void)semi;
	if (!p->func)
		return;
	if (p->in_body) { /* only after errors */
		irp_func_finish(p, false);
		return;
	}
	irp_scope_seal(p->func->scope);
	p->func = NULL;
	p->scope = p->m->scope;
	p->redefining = false;
}

void ir_block_open(struct parser *p, struct src_span brace)
{
	if (!p->in_body && !p->quiet_orphans)
		irp_err(p, CHECK_SYNTAX, brace, "'{' outside of a function body");
	p->scope = irp_scope_new(p->a, p->scope);
	p->nblocks++;
}

void ir_block_close(struct parser *p, struct src_span brace)
{
	if (p->nblocks == 0) {
		if (!p->quiet_orphans)
			irp_err(p, CHECK_SYNTAX, brace, "unmatched '}'");
		return;
	}
	p->nblocks--;
	irp_scope_seal(p->scope);
	p->scope = p->scope->parent;
}

bool irp_in_body(struct parser *p, struct src_span s, const char *what)
{
	if (p->in_body)
		return true;
	if (!p->quiet_orphans)
		irp_err(p, CHECK_SYNTAX, s, "%s outside of a function body", what);
	return false;
}

void ir_label(struct parser *p, struct src_span name)
{
	if (!irp_in_body(p, name, "label"))
		return;
	struct ir_sym *y = irp_sym_new(p, SYM_LABEL, name);
	y->label_index = p->ninsns;
	irp_declare(p, p->scope, y);
}

void ir_proto(struct parser *p, struct src_span label, struct sym_list *rets,
	      struct sym_list *params, struct src_span all)
{
	if (!irp_in_body(p, label, ".callprototype"))
		return;
	struct ir_func *f = arena_alloc(p->a, sizeof *f);
	struct ir_sym *y = irp_sym_new(p, SYM_PROTO, label);
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
	irp_declare(p, p->scope, y);
}

void ir_targets(struct parser *p, struct src_span label, struct plist l, struct src_span all)
{
	(void)all;
	if (!irp_in_body(p, label, "target list")) {
		p->osp = l.start;
		return;
	}
	struct ir_sym *y = irp_sym_new(p, SYM_TARGETS, label);
	y->ntargets = l.n;
	y->targets = irp_opop(p, l, NULL);
	if (irp_declare(p, p->scope, y))
		irp_pending_add(p, y);
}
