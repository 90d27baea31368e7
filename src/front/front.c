/*
 * front.c - the front end's entry: ir_parse (declared in ir.h) seeds the special registers,
 * runs the lexer and the grammar (grammar/ptx.re, ptx.y) over a file and finishes what they
 * leave open. The grammar calls the IR's builders (ir*.c, through parse.h); this file sits
 * above both, so the IR never calls back into the grammar.
 */
#include "ir.h"
#include "ir_priv.h"

#include <stdlib.h>
#include <string.h>

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

struct ir_module *ir_parse(struct arena *a, struct diag *d, struct src_file *file,
			   const struct ir_hooks *hooks)
{
	irp_tables_init();
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
	p->builtin = irp_scope_new(a, NULL);
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
		irp_scope_add(a, p->builtin, y);
	}
	irp_scope_seal(p->builtin);
	m->scope = irp_scope_new(a, p->builtin);
	p->scope = m->scope;
	if (file->len >= UINT32_MAX) {
		diag_report(d, DIAG_ERROR, NULL, (struct src_span){0, 0},
			    "%s: file too large (4 GiB at most)", file->path);
	} else {
		lex_init(&p->lx, file, d);
		ptx_parse(p);
		if (p->func) {
			if (p->in_body)
				irp_func_finish(p, false);
			else
				ir_func_decl_end(p, (struct src_span){0, 0});
		}
		while (p->scope && p->scope != m->scope) { /* orphan blocks left open */
			irp_scope_seal(p->scope);
			p->scope = p->scope->parent;
		}
		irp_resolve_pending(p, 0);
		if (p->header != HDR_DONE)
			irp_header_done(p, (struct src_span){(uint32_t)file->len, 0});
	}
	irp_scope_seal(m->scope);
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
