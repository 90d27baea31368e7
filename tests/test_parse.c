/*
 * test_parse.c - PTX text to IR (grammar/ptx.y + src/ir*.c): module header, declarations,
 * functions and performance directives, instructions with their opcode/modifier split,
 * operands of every kind, name resolution and scopes, and the exact first line of the
 * diagnostics for malformed input, plus inputs that must neither crash nor hang.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <dirent.h>

#include "support/arena.h"
#include "support/diag.h"
#include "front/ir.h"

#ifndef PTXI_SOURCE_ROOT
#define PTXI_SOURCE_ROOT "."
#endif

/* ---- Fixture: one parse, its arena and its captured diagnostics ------------------------- */

struct fx {
	struct arena *a;
	struct src_file f;
	struct diag d;
	char first[1024];       /* first line of the first error                             */
	char all[16384];        /* every diagnostic, rendered                                */
	size_t used;
	unsigned nerr, nnote;
	struct ir_module *m;
};

static void sink(void *ctx, enum diag_level level, const char *text)
{
	struct fx *x = ctx;
	if (level == DIAG_ERROR && x->nerr++ == 0) {
		size_t k = strcspn(text, "\n");
		if (k >= sizeof x->first)
			k = sizeof x->first - 1;
		memcpy(x->first, text, k);
		x->first[k] = '\0';
	}
	if (level == DIAG_NOTE)
		x->nnote++;
	int n = snprintf(x->all + x->used, sizeof x->all - x->used, "%s", text);
	if (n > 0 && x->used + (size_t)n < sizeof x->all)
		x->used += (size_t)n;
}

static int setup(void **state)
{
	struct fx *x = calloc(1, sizeof *x);
	x->a = arena_create();
	*state = x;
	return 0;
}

static int teardown(void **state)
{
	struct fx *x = *state;
	arena_destroy(x->a);
	free(x->f.line_starts);
	free(x);
	return 0;
}

/* Parse `text` (len bytes; the byte after must be NUL) as "t.ptx". */
static struct ir_module *parse_n(struct fx *x, const char *text, size_t len)
{
	free(x->f.line_starts);
	memset(&x->f, 0, sizeof x->f);
	x->f.path = "t.ptx";
	x->f.text = text;
	x->f.len = len;
	x->d = (struct diag){.sink = sink, .ctx = x};
	x->first[0] = x->all[0] = '\0';
	x->used = 0;
	x->nerr = x->nnote = 0;
	x->m = ir_parse(x->a, &x->d, &x->f, NULL);
	return x->m;
}

static struct ir_module *parse(struct fx *x, const char *text)
{
	return parse_n(x, text, strlen(text));
}

/* Parse and insist on a clean module. */
static struct ir_module *parse_ok(struct fx *x, const char *text)
{
	struct ir_module *m = parse(x, text);
	if (x->nerr)
		fail_msg("unexpected diagnostics:\n%s", x->all);
	assert_int_equal(m->nerrors, 0);
	return m;
}

#define HDR ".version 9.0\n.target sm_90\n.address_size 64\n"

static struct ir_func *func(struct ir_module *m, const char *name)
{
	for (struct ir_func *f = m->funcs; f; f = f->next)
		if (strcmp(f->sym->name, name) == 0)
			return f;
	fail_msg("no function %s", name);
	return NULL;
}

static struct ir_sym *scope_sym(struct ir_scope *s, const char *name)
{
	for (struct ir_sym *y = s->syms; y; y = y->next_in_scope)
		if (strcmp(y->name, name) == 0)
			return y;
	return NULL;
}

static void assert_mods(const struct ir_insn *in, int n, ...)
{
	va_list ap;
	va_start(ap, n);
	assert_int_equal(in->nmods, n);
	for (int i = 0; i < n; i++)
		assert_string_equal(ir_mod_name(in->mods[i]), ir_mod_name(va_arg(ap, enum ir_mod)));
	va_end(ap);
}

/* Text of a span of the parsed file. */
static char *span_text(struct fx *x, struct src_span s)
{
	static char buf[256];
	snprintf(buf, sizeof buf, "%.*s", (int)s.len, x->f.text + s.off);
	return buf;
}

/* ---- Tables ------------------------------------------------------------------------------ */

static void test_tables_op_lookup_takes_longest(void **state)
{
	(void)state;
	const char *w[] = {"cp", "async", "bulk", "commit_group"};
	size_t l[] = {2, 5, 4, 12};
	int used = 0;
	assert_int_equal(ir_op_lookup(w, l, 4, &used), OP_CP_ASYNC_BULK_COMMIT_GROUP);
	assert_int_equal(used, 4);
	const char *w2[] = {"cp", "async", "bulk", "shared::cluster", "global"};
	size_t l2[] = {2, 5, 4, 15, 6};
	assert_int_equal(ir_op_lookup(w2, l2, 5, &used), OP_CP_ASYNC_BULK);
	assert_int_equal(used, 3);
	const char *w3[] = {"mbarrier", "arrive", "expect_tx"};
	size_t l3[] = {8, 6, 9};
	assert_int_equal(ir_op_lookup(w3, l3, 3, &used), OP_MBAR_ARRIVE);
	assert_int_equal(used, 2);
	const char *w4[] = {"tcgen05", "mma"};
	size_t l4[] = {7, 3};
	assert_int_equal(ir_op_lookup(w4, l4, 2, &used), OP__COUNT);
	const char *w6[] = {"wgmma", "mma_async", "sync"};
	size_t l6[] = {5, 9, 4};
	assert_int_equal(ir_op_lookup(w6, l6, 3, &used), OP_WGMMA_MMA_ASYNC);
	assert_int_equal(ir_op_family(OP_WGMMA_MMA_ASYNC), FAM_WGMMA);
	assert_int_equal(ir_op_family(OP_TEX), FAM_UNMODELLED);
	const char *w5[] = {"addc"};
	size_t l5[] = {3}; /* a prefix of the word: "add" */
	assert_int_equal(ir_op_lookup(w5, l5, 1, &used), OP_ADD);
	assert_string_equal(ir_op_name(OP_MBAR_TRY_WAIT), "mbarrier.try_wait");
	assert_int_equal(ir_op_family(OP_CP_ASYNC_BULK), FAM_ASYNC);
}

static void test_tables_mod_lookup(void **state)
{
	(void)state;
	assert_int_equal(ir_mod_lookup(".shared::cta", 12), MOD_SHARED_CTA);
	assert_int_equal(ir_mod_lookup("shared::cta", 11), MOD_SHARED_CTA);
	assert_int_equal(ir_mod_lookup(".mbarrier::complete_tx::bytes", 29), MOD_COMPLETE_TX_BYTES);
	assert_int_equal(ir_mod_lookup(".b32", 4), MOD_B32);
	assert_int_equal(ir_mod_lookup(".b3", 3), MOD_NONE);
	assert_int_equal(ir_mod_lookup(".b320", 5), MOD_NONE);
	assert_int_equal(ir_mod_lookup(".", 1), MOD_NONE);
	assert_int_equal(ir_mod_lookup("", 0), MOD_NONE);
	assert_int_equal(ir_mod_kind(MOD_RELEASE), MK_SEM);
	assert_int_equal(ir_mod_arg(MOD_V4), 4);
	assert_int_equal(ir_type_size(MOD_U64), 8);
	assert_true(ir_type_is_signed(MOD_S16));
	assert_false(ir_type_is_signed(MOD_U16));
	assert_true(ir_type_is_float(MOD_BF16X2));
	assert_false(ir_type_is_float(MOD_B32));
}

/* ---- Module header ----------------------------------------------------------------------- */

static void test_header_version_target(void **state)
{
	struct fx *x = *state;
	struct ir_module *m = parse_ok(x, ".version 8.5\n.target sm_90a\n.address_size 64\n");
	assert_int_equal(m->version_major, 8);
	assert_int_equal(m->version_minor, 5);
	assert_string_equal(m->target, "sm_90a");
	assert_int_equal(m->sm, 90);
	assert_true(m->sm_arch_specific);
	assert_int_equal(m->address_size, 64);
	assert_null(m->funcs);

	m = parse_ok(x, ".version 7.8\n.target sm_80, texmode_independent, debug, map_f64_to_f32\n");
	assert_int_equal(m->sm, 80);
	assert_false(m->sm_arch_specific);
	assert_int_equal(m->address_size, 0);

	m = parse_ok(x, ".version 9.0\n.target compute_90\n");
	assert_int_equal(m->sm, 90);
	assert_string_equal(m->target, "compute_90");

}

/* ptxas 13.0 wants .version first, then .target (repeatable), then at most one
 * .address_size, before anything else; an empty file is missing its .version. */
static void test_header_order(void **state)
{
	struct fx *x = *state;
	parse(x, "");
	assert_string_equal(x->first, "t.ptx:1:1: error: missing .version directive at the start "
			    "of the module [module-header]");
	parse(x, "// nothing but a comment\n");
	assert_string_equal(x->first, "t.ptx:2:1: error: missing .version directive at the start "
			    "of the module [module-header]");
	parse(x, ".target sm_90\n.address_size 64\n");
	assert_string_equal(x->first, "t.ptx:1:1: error: missing .version directive before "
			    "'.target' (a module starts with .version, then .target)"
			    " [module-header]");
	parse(x, ".version 8.0\n.address_size 64\n.visible .entry k() { ret; }\n");
	assert_string_equal(x->first, "t.ptx:2:1: error: missing .target directive before "
			    "'.address_size' [module-header]");
	parse(x, ".version 8.0\n.visible .entry k() { ret; }\n");
	assert_string_equal(x->first, "t.ptx:2:1: error: missing .target directive after .version"
				      " [module-header]");
	parse(x, ".version 8.0\n.global .u32 g;\n");
	assert_string_equal(x->first, "t.ptx:2:1: error: missing .target directive after .version"
				      " [module-header]");
	parse(x, ".version 8.0\n");
	assert_string_equal(x->first, "t.ptx:2:1: error: missing .target directive after .version"
				      " [module-header]");
	parse(x, ".target sm_90\n.version 8.0\n");
	assert_string_equal(x->first, "t.ptx:1:1: error: missing .version directive before "
			    "'.target' (a module starts with .version, then .target)"
			    " [module-header]");
	assert_int_equal(x->nerr, 2);
	assert_non_null(strstr(x->all, "t.ptx:2:1: error: '.version' must be the first directive "
			       "of the module"));
	parse(x, ".version 8.0\n.target sm_90\n.address_size 64\n.address_size 64\n");
	assert_string_equal(x->first, "t.ptx:4:1: error: duplicate .address_size directive"
				      " [module-header]");
	parse(x, ".version 8.0\n.target sm_90\n.address_size 64\n.target sm_90\n");
	assert_string_equal(x->first, "t.ptx:4:1: error: '.target' must come before "
			    "'.address_size' [module-header]");
	parse(x, ".version 8.0\n.target sm_90\n.visible .entry k() { ret; }\n.address_size 64\n");
	assert_string_equal(x->first, "t.ptx:4:1: error: '.address_size' must come before any "
			    "declaration [module-header]");
	parse(x, ".version 8.0\n.target sm_90\n.global .u32 g;\n.target sm_90\n");
	assert_string_equal(x->first, "t.ptx:4:1: error: '.target' must come before any "
			    "declaration [module-header]");
	parse_ok(x, ".version 8.0\n.target sm_90\n.target texmode_unified\n.address_size 64\n"
		 ".global .u32 g;\n");
}

static void test_header_errors(void **state)
{
	struct fx *x = *state;
	parse(x, ".version 9.0\n.target sm_9x\n");
	assert_string_equal(x->first, "t.ptx:2:9: error: unknown target 'sm_9x' [module-header]");
	parse(x, ".version 9.0\n.target sm_90\n.address_size 48\n");
	assert_string_equal(x->first, "t.ptx:3:15: error: address size must be 32 or 64"
				      " [module-header]");
	parse(x, ".version 9.0\n.version 9.0\n");
	assert_string_equal(x->first, "t.ptx:2:10: error: duplicate .version directive"
				      " [module-header]");
	parse(x, "#define N 4\n.version 9.0\n");
	assert_string_equal(x->first,
			    "t.ptx:1:1: error: unsupported preprocessor directive '#define' (only "
			    "#line is accepted) [syntax]");
	parse_ok(x, "#line 1 \"k.cu\"\n" HDR);
}

/* ---- Functions, parameters, performance directives --------------------------------------- */

static void test_func_entry_params_and_perf(void **state)
{
	struct fx *x = *state;
	struct ir_module *m = parse_ok(x, HDR
		".visible .entry k(\n"
		"\t.param .u64 .ptr .global .align 16 k_p0,\n"
		"\t.param .align 8 .b8 k_p1[64],\n"
		"\t.param .u32 k_p2\n"
		")\n"
		".maxntid 256, 1, 1\n.minnctapersm 2\n.maxnreg 64\n"
		".reqnctapercluster 2, 1\n.explicitcluster\n.maxclusterrank 8\n"
		"{\n\tret;\n}\n"
		".entry k2 .reqntid 128\n{\n\texit;\n}\n");
	struct ir_func *f = func(m, "k");
	assert_true(f->is_entry);
	assert_true(f->has_body);
	assert_true(f->sym->is_visible);
	assert_int_equal(f->sym->kind, SYM_FUNC);
	assert_ptr_equal(f->sym->func, f);
	assert_int_equal(f->nparams, 3);
	assert_int_equal(f->nrets, 0);
	struct ir_sym *p0 = f->params[0], *p1 = f->params[1], *p2 = f->params[2];
	assert_string_equal(p0->name, "k_p0");
	assert_int_equal(p0->kind, SYM_VAR);
	assert_int_equal(p0->space, MOD_PARAM);
	assert_int_equal(p0->type, MOD_U64);
	assert_true(p0->is_ptr_param);
	assert_true(p0->is_param);
	assert_int_equal(p0->align, 16);
	assert_true(p1->is_array);
	assert_int_equal(p1->nelem, 64);
	assert_int_equal(p1->align, 8);
	assert_int_equal(p1->type, MOD_B8);
	assert_false(p2->is_array);
	assert_int_equal(p2->nelem, 1);
	/* Parameters live in the body scope. */
	assert_ptr_equal(scope_sym(f->scope, "k_p1"), p1);
	assert_int_equal(f->perf.maxntid[0], 256);
	assert_int_equal(f->perf.maxntid[1], 1);
	assert_int_equal(f->perf.maxntid[2], 1);
	assert_int_equal(f->perf.minnctapersm, 2);
	assert_int_equal(f->perf.maxnreg, 64);
	assert_int_equal(f->perf.reqnctapercluster[0], 2);
	assert_int_equal(f->perf.reqnctapercluster[1], 1);
	assert_int_equal(f->perf.reqnctapercluster[2], 1); /* missing dimensions are 1 */
	assert_true(f->perf.explicitcluster);
	assert_int_equal(f->perf.maxclusterrank, 8);
	assert_int_equal(f->ninsns, 1);
	assert_int_equal(f->insns[0].op, OP_RET);

	struct ir_func *g = func(m, "k2");
	assert_int_equal(g->nparams, 0);
	assert_int_equal(g->perf.reqntid[0], 128);
	assert_int_equal(g->perf.maxntid[0], 0);
	assert_ptr_equal(ir_find_entry(m, "k2"), g);
	assert_null(ir_find_entry(m, "nope"));
	assert_ptr_equal(m->funcs, f);
	assert_ptr_equal(f->next, g);
}

static void test_func_return_params_and_prototypes(void **state)
{
	struct fx *x = *state;
	struct ir_module *m = parse_ok(x, HDR
		".func  (.param .b32 func_retval0) sq\n(\n\t.param .b32 sq_param_0\n)\n;\n"
		".extern .func ext(.param .b64 a);\n"
		".func  (.param .b32 func_retval0) sq(\n\t.param .b32 sq_param_0\n)\n.noreturn\n{\n"
		"\t.reg .b32 %r<3>;\n\tld.param.u32 %r1, [sq_param_0];\n"
		"\tmul.lo.s32 %r2, %r1, %r1;\n\tst.param.b32 [func_retval0+0], %r2;\n\tret;\n}\n"
		".func oldstyle(.reg .u32 a, .reg .u32 b)\n{\n\tadd.u32 a, a, b;\n\tret;\n}\n");
	struct ir_func *sq = func(m, "sq");
	assert_ptr_equal(m->funcs, sq); /* declared once, defined later: one function */
	assert_false(sq->is_entry);
	assert_true(sq->has_body);
	assert_int_equal(sq->nrets, 1);
	assert_string_equal(sq->rets[0]->name, "func_retval0");
	assert_true(sq->rets[0]->is_retparam);
	assert_int_equal(sq->nparams, 1);
	assert_false(sq->params[0]->is_retparam);
	assert_true(sq->perf.noreturn);
	assert_int_equal(sq->ninsns, 4);
	const struct ir_operand *st = &sq->insns[2].opnds[0];
	assert_int_equal(st->kind, OPND_ADDR);
	assert_ptr_equal(st->addr.base->ref.sym, sq->rets[0]);

	struct ir_func *ext = func(m, "ext");
	assert_false(ext->has_body);
	assert_true(ext->sym->is_extern);
	assert_int_equal(ext->ninsns, 0);

	struct ir_func *old = func(m, "oldstyle");
	assert_int_equal(old->params[0]->kind, SYM_REG);
	assert_int_equal(old->insns[0].opnds[0].kind, OPND_REG);
	assert_ptr_equal(old->insns[0].opnds[2].ref.sym, old->params[1]);
}

static void test_func_redefinition(void **state)
{
	struct fx *x = *state;
	struct ir_module *m = parse(x, HDR ".func f()\n{\n\tret;\n}\n.func f()\n{\n\texit;\n}\n");
	assert_string_equal(x->first, "t.ptx:8:1: error: redefinition of 'f' [declaration]");
	assert_int_equal(x->nnote, 1);
	assert_int_equal(func(m, "f")->insns[0].op, OP_RET);
	parse(x, HDR ".global .u32 f;\n.func f()\n{\n\tret;\n}\n");
	assert_string_equal(x->first, "t.ptx:5:7: error: redeclaration of 'f' [declaration]");
	parse(x, HDR ".entry k (.param .u32 a, .param .u32 a)\n{\n\tret;\n}\n");
	assert_string_equal(x->first, "t.ptx:4:38: error: redeclaration of 'a' [declaration]");
	parse(x, HDR ".entry k .maxntid 1, 2, 3, 4\n{\n\tret;\n}\n");
	assert_string_equal(x->first, "t.ptx:4:10: error: '.maxntid' takes 1 to 3 values"
				      " [declaration]");
}

/* ---- Declarations ------------------------------------------------------------------------ */

static void test_decl_module_variables(void **state)
{
	struct fx *x = *state;
	struct ir_module *m = parse_ok(x, HDR
		".func  (.param .b32 r) f1(.param .b32 a);\n"
		".func  (.param .b32 r) f2(.param .b32 a);\n"
		".global .align 8 .u64 table[2] = {f1, f2};\n"
		".const .align 4 .b8 coeffs[16] = {1, 0, 0, 0, 2, 0, 0, 0, 3};\n"
		".global .u32 tab[] = {1, 2, 3};\n"
		".global .u32 grid[2][3] = {{1, 2, 3}, {4, 5, 6}};\n"
		".global .f32 one = 0f3F800000;\n"
		".global .f64 half = 0.5;\n"
		".global .u64 ptr = generic(tab)+4;\n"
		".global .u64 ptr2 = tab+8;\n"
		".global .v4 .f32 v4;\n"
		".extern .shared .align 16 .b8 smem[];\n"
		".visible .global .s32 answer = -(6*7);\n"
		".weak .global .u32 w;\n");
	assert_int_equal(m->nvars, 12);
	struct ir_sym *t = m->vars[0];
	assert_string_equal(t->name, "table");
	assert_int_equal(t->kind, SYM_VAR);
	assert_int_equal(t->space, MOD_GLOBAL);
	assert_int_equal(t->align, 8);
	assert_int_equal(t->ninit, 2);
	assert_int_equal(t->init[0].kind, INIT_SYM);
	assert_ptr_equal(t->init[0].sym, func(m, "f1")->sym);
	assert_ptr_equal(t->init[1].sym, func(m, "f2")->sym);
	struct ir_sym *c = m->vars[1];
	assert_int_equal(c->space, MOD_CONST);
	assert_int_equal(c->nelem, 16);
	assert_int_equal(c->ninit, 9);
	assert_int_equal(c->init[8].kind, INIT_INT);
	assert_int_equal(c->init[8].i, 3);
	struct ir_sym *tab = m->vars[2];
	assert_true(tab->is_array);
	assert_int_equal(tab->nelem, 3); /* [] takes its size from the initializer */
	struct ir_sym *grid = m->vars[3];
	assert_int_equal(grid->nelem, 6);
	assert_int_equal(grid->ninit, 6); /* nested braces are flattened */
	assert_int_equal(grid->init[5].i, 6);
	struct ir_sym *one = m->vars[4];
	assert_int_equal(one->init[0].kind, INIT_F32);
	assert_int_equal(one->init[0].bits, 0x3F800000);
	assert_true(one->init[0].f == 1.0);
	struct ir_sym *half = m->vars[5];
	assert_int_equal(half->init[0].kind, INIT_F64);
	assert_true(half->init[0].f == 0.5);
	struct ir_sym *ptr = m->vars[6];
	assert_int_equal(ptr->init[0].kind, INIT_GENERIC_SYM);
	assert_ptr_equal(ptr->init[0].sym, tab);
	assert_int_equal(ptr->init[0].i, 4);
	struct ir_sym *ptr2 = m->vars[7];
	assert_int_equal(ptr2->init[0].kind, INIT_SYM);
	assert_int_equal(ptr2->init[0].i, 8);
	struct ir_sym *v4 = m->vars[8];
	assert_int_equal(v4->vec, 4);
	assert_int_equal(v4->type, MOD_F32);
	struct ir_sym *smem = m->vars[9];
	assert_true(smem->is_extern);
	assert_true(smem->is_array);
	assert_int_equal(smem->nelem, 0);
	assert_int_equal(smem->space, MOD_SHARED);
	assert_int_equal(smem->align, 16);
	assert_true(m->vars[10]->is_visible);
	assert_int_equal(m->vars[10]->init[0].i, -42);
	assert_true(m->vars[11]->is_weak);
	uint32_t idx = 99;
	assert_ptr_equal(ir_lookup(m, NULL, "grid", 4, &idx), grid);
	assert_int_equal(idx, 0);
}

static void test_decl_registers_and_ranges(void **state)
{
	struct fx *x = *state;
	struct ir_module *m = parse_ok(x, HDR ".entry k()\n{\n"
		"\t.reg .pred %p<5>;\n\t.reg .b32 %r<100>;\n\t.reg .b64 %SP, %SPL;\n"
		"\t.reg .v2 .f32 %vf;\n\t.local .align 16 .b8 __local_depot0[96];\n"
		"\t.shared .align 8 .b64 bar[4];\n"
		"\tmov.u32 %r99, %r0;\n\tmov.f32 %vf.y, 0f00000000;\n\tret;\n}\n");
	struct ir_func *f = func(m, "k");
	struct ir_sym *r = scope_sym(f->scope, "%r");
	assert_non_null(r);
	assert_int_equal(r->kind, SYM_REGRANGE);
	assert_int_equal(r->range_n, 100);
	assert_int_equal(r->type, MOD_B32);
	assert_int_equal(r->space, MOD_REG);
	assert_null(scope_sym(f->scope, "%r5")); /* ranges are not materialised */
	assert_int_equal(scope_sym(f->scope, "%SPL")->kind, SYM_REG);
	assert_int_equal(scope_sym(f->scope, "%vf")->vec, 2);
	struct ir_sym *depot = scope_sym(f->scope, "__local_depot0");
	assert_int_equal(depot->space, MOD_LOCAL);
	assert_int_equal(depot->nelem, 96);
	assert_int_equal(scope_sym(f->scope, "bar")->space, MOD_SHARED);
	/* declaration order is kept */
	assert_string_equal(f->scope->syms->name, "%p");
	const struct ir_operand *d = &f->insns[0].opnds[0], *s = &f->insns[0].opnds[1];
	assert_int_equal(d->kind, OPND_REG);
	assert_ptr_equal(d->ref.sym, r);
	assert_int_equal(d->ref.index, 99);
	assert_int_equal(d->ref.comp, -1);
	assert_int_equal(s->ref.index, 0);
	assert_int_equal(f->insns[1].opnds[0].ref.comp, 1);
	uint32_t idx = 0;
	assert_ptr_equal(ir_lookup(m, f->scope, "%r42", 4, &idx), r);
	assert_int_equal(idx, 42);
	assert_null(ir_lookup(m, f->scope, "%r100", 5, &idx));
	assert_null(ir_lookup(m, f->scope, "%r", 2, &idx));
}

static void test_decl_errors(void **state)
{
	struct fx *x = *state;
	parse(x, HDR ".entry k()\n{\n\t.reg .b32 %r<10>;\n\tmov.u32 %r1, %r10;\n\tret;\n}\n");
	assert_string_equal(x->first, "t.ptx:7:15: error: undeclared identifier '%r10'"
				      " [undeclared-identifier]");
	parse(x, HDR ".entry k()\n{\n\t.reg .b32 %r<10>;\n\t.reg .b32 %r5;\n\tret;\n}\n");
	assert_string_equal(x->first, "t.ptx:7:12: error: redeclaration of '%r5' [declaration]");
	assert_int_equal(x->nnote, 1);
	assert_non_null(strstr(x->all, "t.ptx:6:12: note: previous declaration of '%r' is here"));
	parse(x, HDR ".entry k()\n{\n\t.reg .b32 a;\n\t.reg .b64 a;\n\tret;\n}\n");
	assert_string_equal(x->first, "t.ptx:7:12: error: redeclaration of 'a' [declaration]");
	parse(x, HDR ".shared .align 12 .b8 s[4];\n");
	assert_string_equal(x->first, "t.ptx:4:16: error: alignment 12 is not a power of two"
				      " [declaration]");
	/* what ptxas 13.0 refuses in declarations */
	parse(x, HDR ".entry k()\n{\n\t.reg .v4 .b64 v;\n\tret;\n}\n");
	assert_string_equal(x->first, "t.ptx:6:2: error: vector type of 256 bits: at most 128 are "
			    "allowed [declaration]");
	parse(x, HDR ".entry k()\n{\n\t.reg .v2 .pred q;\n\tret;\n}\n");
	assert_string_equal(x->first, "t.ptx:6:2: error: a predicate cannot be a vector: .pred "
			    "declares scalar registers only [declaration]");
	parse(x, HDR ".shared .align 8 .b64 z[0];\n");
	assert_string_equal(x->first, "t.ptx:4:23: error: 'z' has no elements (an array of 0; only "
			    "an .extern declaration may leave its size open) [declaration]");
	parse_ok(x, HDR ".extern .shared .align 16 .b8 dyn[];\n");
	parse(x, HDR ".shared .u32 u = 5;\n");
	assert_string_equal(x->first, "t.ptx:4:18: error: only .global and .const variables can "
			    "have initializers, not '.shared' [declaration]");
	parse(x, ".version 8.0\n.target sm_90\n.address_size 64\n.global .b128 w;\n");
	assert_string_equal(x->first, "t.ptx:4:1: error: type .b128 needs PTX ISA 8.3 (module is "
			    "8.0) [ptx-version]");
	parse(x, HDR ".shared .b64 .align 8 bar;\n");
	assert_string_equal(x->first, "t.ptx:4:14: error: '.align' must come before the type"
				      " [declaration]");
	parse(x, HDR ".global .u33 g;\n");
	assert_string_equal(x->first, "t.ptx:4:9: error: unknown modifier '.u33' in declaration"
				      " [declaration]");
	parse(x, HDR ".global g;\n");
	assert_string_equal(x->first, "t.ptx:4:1: error: declaration has no type [declaration]");
	parse(x, HDR ".reg .b32 r;\n");
	assert_string_equal(x->first,
			    "t.ptx:4:1: error: '.reg' variables must be declared inside a function"
			    " [declaration]");
	parse(x, HDR ".global .u32 g[2][];\n");
	assert_string_equal(x->first, "t.ptx:4:18: error: only the first array dimension may be empty"
				      " [declaration]");
	parse(x, HDR ".global .u32 g[2] = {1, 2, 3};\n");
	assert_string_equal(x->first, "t.ptx:4:21: error: too many initializers (3 for 2 elements)"
				      " [declaration]");
	parse(x, HDR ".global .u64 g = missing;\n");
	assert_string_equal(x->first, "t.ptx:4:18: error: undeclared identifier 'missing'"
				      " [undeclared-identifier]");
	parse(x, HDR ".global .u32 g[18446744073709551615][4];\n");
	assert_string_equal(x->first, "t.ptx:4:16: error: array is too large [declaration]");
	parse(x, HDR ".global .u32 g[-1];\n");
	assert_string_equal(x->first, "t.ptx:4:16: error: array dimension must be a non-negative "
				      "integer constant [declaration]");
}

/* ---- Instructions: opcode and modifiers --------------------------------------------------- */

static void test_insn_opcode_and_modifiers(void **state)
{
	struct fx *x = *state;
	struct ir_module *m = parse_ok(x, HDR ".entry k()\n{\n"
		"\t.reg .b64 %rd<4>;\n\t.reg .b32 %r<4>;\n\t.reg .pred %p<4>;\n"
		"\t.shared .align 8 .b64 bar;\n\t.shared .align 128 .b8 buf[1024];\n"
		"\tmbarrier.arrive.expect_tx.release.cta.shared::cta.b64 %rd1, [bar], 256;\n"
		"\tcp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [buf], [%rd2], 256, [bar];\n"
		"\tmbarrier.try_wait.parity.shared::cta.b64 %p1, [bar], 0;\n"
		"\tld.global.nc.L1::no_allocate.L2::cache_hint.v2.u32 {%r1, %r2}, [%rd1], %rd3;\n"
		"\tcvta.to.global.u64 %rd1, %rd1;\n"
		"\tbarrier.cluster.arrive.release.aligned;\n"
		"\tcp.async.bulk.commit_group;\n"
		"\tld.weak.const.u32 %r1, [%rd1];\n"
		"\tld.param.u64 %rd1, [%rd1];\n"
		"\tret;\n}\n");
	struct ir_insn *in = func(m, "k")->insns;
	assert_int_equal(in[0].op, OP_MBAR_ARRIVE);
	assert_mods(&in[0], 5, MOD_EXPECT_TX, MOD_RELEASE, MOD_CTA, MOD_SHARED_CTA, MOD_B64);
	assert_string_equal(span_text(x, in[0].mod_spans[0]), ".expect_tx");
	assert_string_equal(span_text(x, in[0].mod_spans[3]), ".shared::cta");
	assert_string_equal(span_text(x, in[0].op_span),
			    "mbarrier.arrive.expect_tx.release.cta.shared::cta.b64");
	assert_string_equal(span_text(x, in[0].span),
			    "mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 %rd1, [bar], 256;");
	assert_int_equal(in[1].op, OP_CP_ASYNC_BULK);
	assert_mods(&in[1], 3, MOD_SHARED_CLUSTER, MOD_GLOBAL, MOD_COMPLETE_TX_BYTES);
	assert_int_equal(in[1].nopnds, 4);
	assert_int_equal(in[2].op, OP_MBAR_TRY_WAIT);
	assert_mods(&in[2], 3, MOD_PARITY, MOD_SHARED_CTA, MOD_B64);
	assert_int_equal(in[3].op, OP_LD);
	assert_mods(&in[3], 6, MOD_GLOBAL, MOD_NC, MOD_L1_NO_ALLOCATE, MOD_L2_CACHE_HINT, MOD_V2,
		    MOD_U32);
	assert_int_equal(in[4].op, OP_CVTA);
	assert_mods(&in[4], 3, MOD_TO, MOD_GLOBAL, MOD_U64);
	assert_int_equal(in[5].op, OP_BARRIER_CLUSTER_ARRIVE);
	assert_mods(&in[5], 2, MOD_RELEASE, MOD_ALIGNED);
	assert_int_equal(in[6].op, OP_CP_ASYNC_BULK_COMMIT_GROUP);
	assert_int_equal(in[6].nmods, 0);
	assert_null(in[6].mods);
	assert_mods(&in[7], 3, MOD_WEAK, MOD_CONST, MOD_U32);
	assert_mods(&in[8], 2, MOD_PARAM, MOD_U64);
}

static void test_insn_unsupported_and_unknown_modifier(void **state)
{
	struct fx *x = *state;
	struct ir_module *m = parse(x, HDR ".entry k()\n{\n\t.reg .f32 %f<9>;\n"
		"\ttcgen05.mma.cta_group::1.kind::f16 [%f1], %f2, %f3;\n"
		"\tadd.foo.f32 %f1, %f2, %f3;\n\tret;\n}\n");
	assert_string_equal(x->first,
			    "t.ptx:7:2: error: unsupported instruction "
			    "'tcgen05.mma.cta_group::1.kind::f16' [unknown-instruction]");
	assert_non_null(strstr(x->all, "t.ptx:8:5: error: unknown modifier '.foo' on 'add'"));
	assert_int_equal(x->nerr, 2);
	assert_int_equal(m->nerrors, 2);
	/* The instruction with a bad modifier is kept, without that modifier. */
	struct ir_func *f = func(m, "k");
	assert_int_equal(f->ninsns, 2);
	assert_int_equal(f->insns[0].op, OP_ADD);
	assert_mods(&f->insns[0], 1, MOD_F32);
	parse(x, HDR ".entry k()\n{\n\tmbarrier.arrive_dropx.b64 _, [0];\n}\n");
	assert_string_equal(x->first, "t.ptx:6:2: error: unsupported instruction 'mbarrier.arrive_dropx.b64'"
				      " [unknown-instruction]");
}

/* ---- Operands ---------------------------------------------------------------------------- */

static void test_opnd_special_registers(void **state)
{
	struct fx *x = *state;
	struct ir_module *m = parse_ok(x, HDR ".entry k()\n{\n\t.reg .b32 %r<9>;\n"
		"\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %ctaid.y;\n\tmov.u32 %r3, %ntid.z;\n"
		"\tmov.u32 %r4, %laneid;\n\tmov.u32 %r5, %cluster_ctarank;\n"
		"\tmov.u32 %r6, %clusterid.a;\n\tret;\n}\n");
	struct ir_insn *in = func(m, "k")->insns;
	const struct ir_operand *o = &in[0].opnds[1];
	assert_int_equal(o->kind, OPND_REG);
	assert_int_equal(o->ref.sym->kind, SYM_SREG);
	assert_string_equal(o->ref.sym->name, "%tid");
	assert_int_equal(o->ref.comp, 0);
	assert_string_equal(span_text(x, o->span), "%tid.x");
	assert_int_equal(in[1].opnds[1].ref.comp, 1);
	assert_int_equal(in[2].opnds[1].ref.comp, 2);
	assert_int_equal(in[3].opnds[1].ref.comp, -1);
	assert_string_equal(in[4].opnds[1].ref.sym->name, "%cluster_ctarank");
	assert_int_equal(in[5].opnds[1].ref.comp, 3);
	assert_ptr_equal(in[0].opnds[1].ref.sym, ir_lookup(m, NULL, "%tid", 4, NULL));
	parse(x, HDR ".entry k()\n{\n\t.reg .b32 %r<9>;\n\tmov.u32 %r1, %tid.q;\n\tret;\n}\n");
	assert_string_equal(x->first, "t.ptx:7:19: error: invalid vector component '.q' [syntax]");
}

static void test_opnd_immediates_and_constant_expressions(void **state)
{
	struct fx *x = *state;
	struct ir_module *m = parse_ok(x, HDR ".entry k()\n{\n\t.reg .b64 %rd<2>;\n"
		"\tmov.u64 %rd1, 42;\n\tmov.u64 %rd1, 0x1F;\n\tmov.u64 %rd1, 017;\n"
		"\tmov.u64 %rd1, 0b101;\n\tmov.u64 %rd1, -5;\n\tmov.u64 %rd1, 42U;\n"
		"\tmov.u64 %rd1, (1 + 2) * 3;\n\tmov.u64 %rd1, 1 << 4 | 1;\n\tmov.u64 %rd1, ~0;\n"
		"\tmov.u64 %rd1, -7 % 3;\n\tmov.u64 %rd1, 10 / 3 - 1;\n\tmov.u64 %rd1, WARP_SZ;\n"
		"\tmov.u64 %rd1, 18446744073709551615;\n\tmov.u64 %rd1, (.u64)-1 >> 60;\n"
		"\tmov.u64 %rd1, -1 >> 60;\n\tmov.u64 %rd1, 3 > 2 ? 7 : 8;\n"
		"\tmov.u64 %rd1, 1 == 1 && 2 != 2 || !0;\n\tmov.u64 %rd1, 0xffffffffffffffff + 2;\n"
		"\tret;\n}\n");
	static const int64_t want[] = {42, 31, 15, 5, -5, 42, 9, 17, -1, -1, 2, 32, -1, 15,
				       -1, 7, 1, 1};
	struct ir_insn *in = func(m, "k")->insns;
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		assert_int_equal(in[i].opnds[1].kind, OPND_IMM);
		assert_int_equal(in[i].opnds[1].imm, want[i]);
	}
	assert_string_equal(span_text(x, in[6].opnds[1].span), "(1 + 2) * 3");
}

static void test_opnd_float_immediates(void **state)
{
	struct fx *x = *state;
	struct ir_module *m = parse_ok(x, HDR ".entry k()\n{\n\t.reg .f32 %f<2>;\n"
		"\t.reg .f64 %fd<2>;\n\tmov.f32 %f1, 0f3F800000;\n\tmov.f64 %fd1, 0d3FF8000000000000;\n"
		"\tmov.f64 %fd1, 1.5;\n\tmov.f32 %f1, -0f3F800000;\n\tmov.f64 %fd1, -2.0;\n"
		"\tret;\n}\n");
	struct ir_insn *in = func(m, "k")->insns;
	assert_int_equal(in[0].opnds[1].kind, OPND_FIMM);
	assert_true(in[0].opnds[1].fimm.is_f32);
	assert_int_equal(in[0].opnds[1].fimm.bits, 0x3F800000);
	assert_false(in[1].opnds[1].fimm.is_f32);
	assert_int_equal(in[1].opnds[1].fimm.bits, 0x3FF8000000000000ull);
	assert_false(in[2].opnds[1].fimm.is_f32);
	assert_int_equal(in[2].opnds[1].fimm.bits, 0x3FF8000000000000ull);
	assert_int_equal(in[3].opnds[1].fimm.bits, 0xBF800000);
	assert_int_equal(in[4].opnds[1].fimm.bits, 0xC000000000000000ull);
}

static void test_opnd_addresses(void **state)
{
	struct fx *x = *state;
	struct ir_module *m = parse_ok(x, HDR ".global .u32 garr[8];\n.entry k(.param .u64 p)\n{\n"
		"\t.reg .b64 %rd<4>;\n\t.reg .b32 %r<4>;\n"
		"\tld.param.u64 %rd1, [p];\n\tld.global.u32 %r1, [%rd1+-8];\n"
		"\tld.global.u32 %r1, [garr+(2*8)];\n\tld.global.u32 %r1, [16];\n"
		"\tld.global.u32 %r1, garr[3];\n\tld.global.u32 %r1, [%rd1+4];\n"
		"\tld.global.u32 %r1, [4+%rd1];\n\tld.global.u32 %r1, [%rd1+0x10-4];\n"
		"\tmov.u64 %rd2, garr;\n\tret;\n}\n");
	struct ir_func *f = func(m, "k");
	struct ir_insn *in = f->insns;
	const struct ir_operand *a = &in[0].opnds[1];
	assert_int_equal(a->kind, OPND_ADDR);
	assert_int_equal(a->addr.base->kind, OPND_SYM);
	assert_ptr_equal(a->addr.base->ref.sym, f->params[0]);
	assert_int_equal(a->addr.off, 0);
	a = &in[1].opnds[1];
	assert_int_equal(a->addr.base->kind, OPND_REG);
	assert_string_equal(span_text(x, a->addr.base->span), "%rd1");
	assert_int_equal(a->addr.base->ref.index, 1);
	assert_int_equal(a->addr.off, -8);
	a = &in[2].opnds[1];
	assert_ptr_equal(a->addr.base->ref.sym, m->vars[0]);
	assert_int_equal(a->addr.off, 16);
	a = &in[3].opnds[1];
	assert_null(a->addr.base);
	assert_int_equal(a->addr.off, 16);
	a = &in[4].opnds[1]; /* garr[3]: element 3 of a .u32 array is 12 bytes in */
	assert_int_equal(a->kind, OPND_ADDR);
	assert_ptr_equal(a->addr.base->ref.sym, m->vars[0]);
	assert_int_equal(a->addr.base->ref.comp, -1);
	assert_int_equal(a->addr.off, 12);
	assert_int_equal(in[5].opnds[1].addr.off, 4);
	assert_int_equal(in[6].opnds[1].addr.off, 4);
	assert_int_equal(in[7].opnds[1].addr.off, 12);
	const struct ir_operand *s = &in[8].opnds[1];
	assert_int_equal(s->kind, OPND_SYM);
	assert_ptr_equal(s->ref.sym, m->vars[0]);
}

static void test_opnd_address_errors(void **state)
{
	struct fx *x = *state;
	parse(x, HDR ".entry k()\n{\n\t.reg .b64 %rd<4>;\n\tld.global.u32 %rd1, [%rd1-8];\n}\n");
	assert_string_equal(x->first, "t.ptx:7:27: error: invalid address '%rd1-8': write '%rd1+-8'"
				      " [syntax]");
	parse(x, HDR ".entry k()\n{\n\t.reg .b64 %rd<4>;\n\tld.global.u32 %rd1, [%rd1+%rd2];\n}\n");
	assert_string_equal(x->first, "t.ptx:7:27: error: invalid operands to binary '+'"
				      " [constant-expression]");
	parse(x, HDR ".global .u32 g;\n.entry k()\n{\n\t.reg .b64 %rd<4>;\n\tadd.u64 %rd1, g+4, 1;\n}\n");
	assert_string_equal(x->first,
			    "t.ptx:8:16: error: address arithmetic needs brackets, as in [sym+4]"
			    " [syntax]");
	/* where ptxas accepts it (mov, mapa, getctarank, cvta) it is an unbracketed address */
	struct ir_module *m = parse_ok(x, HDR ".global .u32 g;\n.entry k()\n{\n\t.reg .b64 %rd<4>;\n"
				       "\tmov.u64 %rd1, g+4;\n}\n");
	const struct ir_operand *o = &m->funcs->insns[0].opnds[1];
	assert_int_equal(o->kind, OPND_ADDR);
	assert_true(o->bare);
	assert_int_equal(o->addr.off, 4);
	assert_ptr_equal(o->addr.base->ref.sym, m->vars[0]);
	parse(x, HDR ".global .u32 g[4];\n.entry k()\n{\n\t.reg .b32 %r<4>;\n\tld.global.u32 %r1, g[%r2];\n}\n");
	assert_string_equal(x->first, "t.ptx:8:23: error: array index must be a constant expression"
				      " [syntax]");
	parse(x, HDR ".entry k()\n{\n\t.reg .b64 %rd<4>;\n\tmov.u64 %rd1, 1/0;\n}\n");
	assert_string_equal(x->first, "t.ptx:7:17: error: division by zero in constant expression"
				      " [constant-expression]");
	parse(x, HDR ".entry k()\n{\n\t.reg .b64 %rd<4>;\n\tmov.u64 %rd1, 1<<64;\n}\n");
	assert_string_equal(x->first, "t.ptx:7:19: error: shift count 64 out of range"
				      " [constant-expression]");
	parse(x, HDR ".entry k()\n{\n\t.reg .b64 %rd<4>;\n\tmov.u64 %rd1, 18446744073709551616;\n}\n");
	assert_string_equal(x->first,
			    "t.ptx:7:16: error: integer constant '18446744073709551616' is too large"
			    " [constant-expression]");
	parse(x, HDR ".entry k()\n{\n\t.reg .b64 %rd<4>;\n\tmov.u64 %rd1, 0f3F80;\n}\n");
	assert_string_equal(x->first, "t.ptx:7:16: error: invalid integer constant '0f3F80'"
				      " [constant-expression]");
	parse(x, HDR ".entry k()\n{\n\t.reg .b64 %rd<4>;\n\tmov.u64 %rd1, 09;\n}\n");
	assert_string_equal(x->first, "t.ptx:7:16: error: invalid integer constant '09'"
				      " [constant-expression]");
	parse(x, HDR ".global .u32 g;\n.entry k()\n{\n\t.reg .b64 %rd<4>;\n\tmov.u64 %rd1, generic(g);\n}\n");
	assert_string_equal(x->first, "t.ptx:8:16: error: generic() is only allowed in initializers"
				      " [syntax]");
}

static void test_opnd_vectors_sinks_duals_negation(void **state)
{
	struct fx *x = *state;
	struct ir_module *m = parse_ok(x, HDR ".entry k()\n{\n\t.reg .b32 %r<9>;\n"
		"\t.reg .b64 %rd<4>;\n\t.reg .pred %p<4>;\n"
		"\tst.local.v4.u32 [%rd1], {%r1, _, %r3, %r4};\n"
		"\tmov.b64 {%r1, %r2}, %rd1;\n"
		"\telect.sync %r1|%p1, -1;\n\telect.sync _|%p2, -1;\n"
		"\tsetp.lt.and.s32 %p1|%p2, %r1, %r2, !%p3;\n"
		"\tmbarrier.arrive.shared.b64 _, [%rd1];\n"
		"\tret;\n}\n");
	struct ir_insn *in = func(m, "k")->insns;
	const struct ir_operand *v = &in[0].opnds[1];
	assert_int_equal(v->kind, OPND_VEC);
	assert_int_equal(v->vec.n, 4);
	assert_int_equal(v->vec.elems[0].kind, OPND_REG);
	assert_int_equal(v->vec.elems[1].kind, OPND_SINK);
	assert_int_equal(v->vec.elems[3].ref.index, 4);
	assert_int_equal(in[1].opnds[0].kind, OPND_VEC);
	assert_int_equal(in[1].opnds[0].vec.n, 2);
	const struct ir_operand *d = &in[2].opnds[0];
	assert_int_equal(d->kind, OPND_DUAL);
	assert_int_equal(d->vec.n, 2);
	assert_int_equal(d->vec.elems[0].kind, OPND_REG);
	assert_int_equal(d->vec.elems[1].ref.index, 1);
	assert_int_equal(d->vec.elems[1].ref.sym->type, MOD_PRED);
	assert_int_equal(in[2].opnds[1].imm, -1);
	assert_int_equal(in[3].opnds[0].vec.elems[0].kind, OPND_SINK);
	const struct ir_operand *n = &in[4].opnds[3];
	assert_int_equal(n->kind, OPND_REG);
	assert_true(n->neg);
	assert_int_equal(n->ref.index, 3);
	assert_false(in[4].opnds[1].neg);
	assert_int_equal(in[5].opnds[0].kind, OPND_SINK);
}

static void test_opnd_call_syntax(void **state)
{
	struct fx *x = *state;
	struct ir_module *m = parse_ok(x, HDR
		".func (.param .b32 r) f(.param .b32 a, .param .b32 b);\n.func g();\n"
		".entry k()\n{\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n"
		"\t{ // callseq 0, 0\n\t.param .b32 param0;\n\t.param .b32 param1;\n"
		"\tst.param.b32 [param0+0], %r1;\n\t.param .b32 retval0;\n"
		"\tcall.uni (retval0), \n\tf, \n\t(\n\tparam0, \n\tparam1\n\t);\n"
		"\tld.param.b32 %r2, [retval0+0];\n\t}\n"
		"\tcall g;\n\tcall.uni g, ();\n"
		"\t{\n\t.param .b32 param0;\n\t.param .b32 retval0;\n"
		"\tprototype_4 : .callprototype (.param .b32 _) _ (.param .b32 _);\n"
		"\tcall (retval0), %rd1, (param0), prototype_4;\n\t}\n"
		"\tret;\n}\n");
	struct ir_func *k = func(m, "k");
	struct ir_insn *c = &k->insns[1];
	assert_int_equal(c->op, OP_CALL);
	assert_mods(c, 1, MOD_UNI);
	assert_int_equal(c->nopnds, 3);
	assert_int_equal(c->opnds[0].kind, OPND_LIST);
	assert_int_equal(c->opnds[0].vec.n, 1);
	assert_int_equal(c->opnds[0].vec.elems[0].kind, OPND_SYM);
	assert_string_equal(c->opnds[0].vec.elems[0].ref.sym->name, "retval0");
	assert_int_equal(c->opnds[0].vec.elems[0].ref.sym->space, MOD_PARAM);
	assert_int_equal(c->opnds[1].kind, OPND_SYM);
	assert_ptr_equal(c->opnds[1].ref.sym, func(m, "f")->sym);
	assert_int_equal(c->opnds[2].kind, OPND_LIST);
	assert_int_equal(c->opnds[2].vec.n, 2);
	assert_string_equal(c->opnds[2].vec.elems[1].ref.sym->name, "param1");
	/* the block's .param variables are in the block's scope, not the function's */
	assert_ptr_not_equal(c->scope, k->scope);
	assert_ptr_equal(c->scope->parent, k->scope);
	assert_non_null(scope_sym(c->scope, "param0"));
	assert_null(scope_sym(k->scope, "param0"));
	struct ir_insn *cg = &k->insns[3];
	assert_int_equal(cg->nopnds, 1);
	assert_ptr_equal(cg->opnds[0].ref.sym, func(m, "g")->sym);
	assert_int_equal(k->insns[4].nopnds, 2);
	assert_int_equal(k->insns[4].opnds[1].kind, OPND_LIST);
	assert_int_equal(k->insns[4].opnds[1].vec.n, 0);
	struct ir_insn *ci = &k->insns[5];
	assert_int_equal(ci->nopnds, 4);
	assert_int_equal(ci->opnds[1].kind, OPND_REG);
	struct ir_sym *proto = ci->opnds[3].ref.sym;
	assert_int_equal(proto->kind, SYM_PROTO);
	assert_non_null(proto->proto);
	assert_int_equal(proto->proto->nparams, 1);
	assert_int_equal(proto->proto->nrets, 1);
	assert_int_equal(proto->proto->params[0]->type, MOD_B32);
	assert_false(proto->proto->has_body);
}

/* ---- Labels, scopes, resolution ----------------------------------------------------------- */

static void test_labels_and_guards(void **state)
{
	struct fx *x = *state;
	struct ir_module *m = parse_ok(x, HDR ".entry k()\n{\n\t.reg .pred %p<4>;\n"
		"\t.reg .b32 %r<4>;\n"
		"\t@%p1 bra $L__BB0_2;\n"
		"\tmov.u32 %r1, 0;\n"
		"$L__BB0_2:\n"
		"L_wait: add.u32 %r1, %r1, 1;\n"
		"\t@!%p2 bra.uni L_wait;\n"
		"\tbra.uni $L__end;\n"
		"$L__end:\n}\n");
	struct ir_func *f = func(m, "k");
	struct ir_insn *in = f->insns;
	assert_int_equal(f->ninsns, 5);
	assert_true(in[0].has_guard);
	assert_false(in[0].guard_neg);
	assert_int_equal(in[0].guard.kind, OPND_REG);
	assert_int_equal(in[0].guard.ref.index, 1);
	assert_string_equal(span_text(x, in[0].guard.span), "@%p1");
	const struct ir_operand *t = &in[0].opnds[0];
	assert_int_equal(t->kind, OPND_SYM);
	assert_int_equal(t->ref.sym->kind, SYM_LABEL);
	assert_int_equal(t->ref.sym->label_index, 2);
	assert_true(in[3].has_guard);
	assert_true(in[3].guard_neg);
	assert_true(in[3].guard.neg);
	assert_int_equal(in[3].opnds[0].ref.sym->label_index, 2);
	assert_int_equal(in[4].opnds[0].ref.sym->label_index, 5); /* a label at the very end */
	assert_false(in[1].has_guard);
}

static void test_scopes_nested_blocks(void **state)
{
	struct fx *x = *state;
	struct ir_module *m = parse_ok(x, HDR ".entry k()\n{\n\t.reg .b32 %r<4>;\n"
		"\t{\n\t.reg .pred P_OUT;\n\tLAB_WAIT:\n\tselp.b32 %r1, 1, 0, P_OUT;\n"
		"\t@!P_OUT bra LAB_WAIT;\n\t}\n"
		"\t{\n\t.reg .pred P_OUT;\n\tLAB_WAIT:\n\tselp.b32 %r2, 1, 0, P_OUT;\n"
		"\t@!P_OUT bra LAB_WAIT;\n\t{ { .reg .b32 %r; mov.u32 %r, %r3; } }\n\t}\n"
		"\tret;\n}\n");
	struct ir_func *f = func(m, "k");
	struct ir_insn *in = f->insns;
	assert_int_equal(f->ninsns, 6);
	assert_ptr_not_equal(in[0].scope, in[2].scope);
	assert_ptr_equal(in[0].scope->parent, f->scope);
	assert_ptr_not_equal(in[0].opnds[3].ref.sym, in[2].opnds[3].ref.sym);
	assert_ptr_equal(in[0].opnds[3].ref.sym, scope_sym(in[0].scope, "P_OUT"));
	assert_int_equal(in[1].opnds[0].ref.sym->label_index, 0);
	assert_int_equal(in[3].opnds[0].ref.sym->label_index, 2);
	/* %r (a scalar) and %r<4> (a range) coexist; %r3 is the outer range's element. */
	assert_int_equal(in[4].opnds[0].ref.sym->kind, SYM_REG);
	assert_int_equal(in[4].opnds[1].ref.sym->kind, SYM_REGRANGE);
	assert_ptr_equal(in[4].scope->parent->parent, in[2].scope);
	assert_ptr_equal(in[5].scope, f->scope);

	parse(x, HDR ".entry k()\n{\n\t{\n\t.reg .pred q;\n\t}\n\t@q ret;\n}\n");
	assert_string_equal(x->first, "t.ptx:9:2: error: undeclared identifier 'q'"
				      " [undeclared-identifier]");
	parse(x, HDR ".entry k()\n{\nL: ret;\nL: ret;\n}\n");
	assert_string_equal(x->first, "t.ptx:7:1: error: redeclaration of 'L' [declaration]");
}

/* ---- Line information and debug sections --------------------------------------------------- */

static void test_loc_file_section(void **state)
{
	struct fx *x = *state;
	struct ir_module *m = parse_ok(x, HDR ".entry k()\n{\n"
		"\t.loc\t1 10 5\n\tret;\n"
		"\t.loc 2 20 3, function_name $L__info_string0, inlined_at 1 10 5\n"
		"\t.loc 3 30 1, inlined_at 2 20 3, function_name $L__info_string1\n\texit;\n"
		"\t.pragma \"nounroll\";\n\ttrap;\n}\n"
		".file 1 \"/tmp/a.cu\"\n.file 2 \"b.h\", 1700000000, 4242\n"
		".section .debug_info\n{\n.b32 1\n.b8 97,98\n$L__info_string0:\n.b8 95,0\n{ }\n}\n"
		".section .debug_loc { }\n");
	struct ir_func *f = func(m, "k");
	assert_int_equal(f->insns[0].loc->file, 1);
	assert_int_equal(f->insns[0].loc->line, 10);
	assert_int_equal(f->insns[1].loc->file, 3);
	assert_int_equal(f->insns[1].loc->line, 30);
	/* the inlined-at chain: 3:30 inlined at 2:20 (itself inlined at 1:10), names kept */
	const struct ir_loc *at = f->insns[1].loc->inlined_at;
	assert_non_null(at);
	assert_int_equal(at->file, 2);
	assert_int_equal(at->line, 20);
	assert_int_equal(at->col, 3);
	assert_int_equal(at->func.len, strlen("$L__info_string0"));
	assert_non_null(at->inlined_at);
	assert_int_equal(at->inlined_at->line, 10);
	assert_int_equal(at->inlined_at->col, 5);
	assert_null(at->inlined_at->inlined_at);
	assert_int_equal(m->nfiles, 2);
	assert_string_equal(m->files[0].path, "/tmp/a.cu");
	assert_int_equal(m->files[1].index, 2);
	assert_string_equal(m->files[1].path, "b.h");
	assert_int_equal(f->insns[2].op, OP_TRAP);
	m = parse_ok(x, HDR ".entry k()\n{\n\tret;\n}\n");
	assert_null(func(m, "k")->insns[0].loc);
}

/* ---- Syntax errors and recovery ------------------------------------------------------------ */

static void test_syntax_errors_read_well(void **state)
{
	struct fx *x = *state;
	parse(x, HDR ".entry k()\n{\n\t.reg .b32 %r<4>;\n\tadd.s32 %r1, %r2 %r3;\n\tret;\n}\n");
	assert_string_equal(x->first, "t.ptx:7:19: error: syntax error, unexpected identifier "
				      "(missing ',' between operands?) [syntax]");
	parse(x, HDR ".entry k()\n{\n\t.reg .b32 %r<4>;\n\tmov.u32 %r1, 1\n\tret;\n}\n");
	assert_string_equal(x->first, "t.ptx:8:2: error: syntax error, unexpected identifier "
				      "(missing ';' at the end of the previous line?) [syntax]");
	parse(x, HDR ".entry k()\n{\n\t.reg .b32 %r<4>;\n\tmov.u32 %r1, 1;\n");
	assert_string_equal(x->first, "t.ptx:8:1: error: syntax error, unexpected end of file "
				      "(missing '}' at the end of the function?) [syntax]");
	parse(x, HDR ".entry k(.param .u32 a .param .u32 b)\n{\n\tret;\n}\n");
	assert_string_equal(x->first, "t.ptx:4:24: error: syntax error, unexpected '.param', "
				      "expecting ',' or ')' or '[' [syntax]");
	parse(x, HDR ".entry k()\n{\n\tret;\n}\n}\n");
	assert_string_equal(x->first, "t.ptx:8:1: error: unmatched '}' [syntax]");
	parse(x, HDR "add.s32 a, b, c;\n");
	assert_string_equal(x->first, "t.ptx:4:1: error: instruction outside of a function body"
				      " [syntax]");
	parse(x, HDR ".entry k()\n{\n\tret; `\n}\n");
	assert_string_equal(x->first, "t.ptx:6:7: error: invalid character '`' [syntax]");
	parse(x, HDR ".entry k()\n{\n\tret; /* x\n}\n");
	assert_string_equal(x->first, "t.ptx:6:7: error: unterminated comment [syntax]");
	parse(x, HDR ".pragma \"x;\n");
	assert_string_equal(x->first, "t.ptx:4:9: error: unterminated string [syntax]");
}

static void test_recovery_reports_every_error(void **state)
{
	struct fx *x = *state;
	struct ir_module *m = parse(x, HDR ".entry k()\n{\n\t.reg .b32 %r<4>;\n"
		"\tadd.s32 %r1 %r2;\n"            /* syntax error */
		"\tmov.u32 %r1, 1;\n"
		"\tfrob.u32 %r1;\n"               /* unsupported */
		"\tmov.u32 %r1, %x;\n"            /* undeclared */
		"\t{ add.s32 %r1, , %r2; }\n"     /* syntax error in a block */
		"\tmov.u32 %r2, 2;\n"
		"\tret;\n}\n"
		".entry k2()\n{\n\tbra nowhere;\n}\n");
	assert_int_equal(x->nerr, 5);
	assert_int_equal(m->nerrors, 5);
	struct ir_func *k = func(m, "k");
	assert_int_equal(k->ninsns, 4); /* mov, mov, mov, ret survive */
	assert_int_equal(k->insns[3].op, OP_RET);
	assert_non_null(strstr(x->all, "t.ptx:17:6: error: undeclared identifier 'nowhere'"));
	/* A broken function header reports once; its body is then skipped quietly. */
	parse(x, HDR ".entry k(.param .u32 a,)\n{\n\tmov.u32 %r1, 1;\n\tret;\n}\n"
		     ".entry ok()\n{\n\tret;\n}\n");
	assert_int_equal(x->nerr, 1);
	assert_string_equal(x->first, "t.ptx:4:24: error: syntax error, unexpected ')' [syntax]");
	assert_non_null(ir_find_entry(x->m, "ok"));
}

/* ---- Hostile input ------------------------------------------------------------------------ */

static void test_hostile_nul_and_garbage(void **state)
{
	struct fx *x = *state;
	static const char nul[] = HDR ".entry k()\n{\n\tret;\0\n}\n";
	parse_n(x, nul, sizeof nul - 1);
	assert_string_equal(x->first, "t.ptx:6:6: error: invalid character '\\x00' [syntax]");
	char *g = malloc(300001);
	uint32_t s = 12345;
	for (int i = 0; i < 300000; i++) {
		s = s * 1103515245 + 12345;
		g[i] = (char)(s >> 16);
	}
	g[300000] = '\0';
	struct ir_module *m = parse_n(x, g, 300000);
	assert_true(m->nerrors > 0);
	free(g);
}

static void test_hostile_truncated_everywhere(void **state)
{
	struct fx *x = *state;
	static const char full[] = HDR ".global .u32 g[2] = {1, 2};\n"
		".visible .entry k(.param .u64 p, .param .align 8 .b8 q[16])\n.maxntid 32\n{\n"
		"\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n\tld.param.u64 %rd1, [p+8];\n"
		"\t{ .reg .pred P; @P bra L1; }\nL1:\n\tst.global.v2.u32 [%rd1+-4], {%r1, %r2};\n"
		"\tcall.uni (q), k, (p);\n\tret;\n}\n";
	char buf[sizeof full];
	/* Every prefix of a valid module parses without crashing; a cut anywhere after the
	 * header is an error. */
	for (size_t n = 0; n < sizeof full - 1; n++) {
		memcpy(buf, full, n);
		buf[n] = '\0';
		struct ir_module *m = parse_n(x, buf, n);
		assert_non_null(m);
	}
	parse_ok(x, full);
}

static void test_hostile_deep_nesting(void **state)
{
	struct fx *x = *state;
	size_t n = 100000, h = strlen(HDR ".entry k()\n{\n");
	char *t = malloc(h + 2 * n + 16);
	strcpy(t, HDR ".entry k()\n{\n");
	memset(t + h, '{', n);
	memset(t + h + n, '}', n);
	strcpy(t + h + 2 * n, "ret;\n}\n");
	struct ir_module *m = parse(x, t);
	assert_string_equal(x->first,
			    "t.ptx:6:256: error: nesting too deep (more than 256 levels of '(', '[' "
			    "and '{') [syntax]");
	assert_int_equal(m->nerrors, 1);
	assert_int_equal(func(m, "k")->ninsns, 1);
	/* a long chain of unary operators exhausts Bison's stack: one error, no crash */
	size_t u = 50000;
	char *e = malloc(h + u + 64);
	strcpy(e, HDR ".entry k()\n{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r1, ");
	size_t k = strlen(e);
	memset(e + k, '-', u);
	strcpy(e + k + u, "1;\n}\n");
	parse(x, e);
	assert_int_equal(x->nerr, 1);
	assert_non_null(strstr(x->first, "error: input is nested too deeply"));
	free(e);
	free(t);
}

static void test_hostile_huge_names_and_many_lines(void **state)
{
	struct fx *x = *state;
	size_t n = 1 << 20;
	char *name = malloc(n + 1);
	name[0] = '%';
	memset(name + 1, 'v', n - 1);
	name[n] = '\0';
	size_t cap = 3 * n + 256;
	char *t = malloc(cap);
	snprintf(t, cap, HDR ".entry k()\n{\n\t.reg .b32 %s;\n\tmov.u32 %s, 1;\n\tret;\n}\n", name,
		 name);
	struct ir_module *m = parse_ok(x, t);
	assert_int_equal(func(m, "k")->insns[0].opnds[0].ref.sym->name_len, n);
	/* an undeclared huge name: the message is cut, not the process */
	snprintf(t, cap, HDR ".entry k()\n{\n\tmov.u32 %s, 1;\n\tret;\n}\n", name);
	parse(x, t);
	assert_int_equal(x->nerr, 1);
	assert_non_null(strstr(x->first, "error: undeclared identifier '%vvvv"));
	assert_true(strlen(x->first) < 600);
	free(t);
	free(name);

	/* 1,000,000 lines, many of them blank or comments */
	size_t lines = 1000000;
	char *big = malloc(lines * 24 + 256);
	char *p = big + sprintf(big, HDR ".entry k()\n{\n\t.reg .b32 %%r<4>;\n");
	for (size_t i = 0; i < lines; i++) {
		static const char *const l[] = {"\tadd.s32 %r1, %r1, 1;\n", "\n", "// note\n"};
		p = stpcpy(p, l[i % 3]);
	}
	strcpy(p, "\tret;\n}\n");
	m = parse_ok(x, big);
	assert_int_equal(func(m, "k")->ninsns, lines / 3 + 2);
	free(big);
}

/* ---- Real PTX: the H100 conformance cases --------------------------------------------------- */

static void test_conformance_cases_parse_cleanly(void **state)
{
	struct fx *x = *state;
	const char *dir = PTXI_SOURCE_ROOT "/../shared/conformance/cases";
	DIR *d = opendir(dir);
	if (!d)
		skip();
	struct dirent *e;
	int n = 0;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (len < 5 || strcmp(e->d_name + len - 4, ".ptx") != 0)
			continue;
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		struct src_file f;
		assert_int_equal(src_file_read(&f, path), 0);
		struct diag dg = {.sink = sink, .ctx = x};
		x->nerr = 0;
		x->used = 0;
		struct ir_module *m = ir_parse(x->a, &dg, &f, NULL);
		if (m->nerrors)
			fail_msg("%s:\n%s", path, x->all);
		assert_non_null(m->funcs);
		src_file_free(&f);
		n++;
	}
	closedir(d);
	assert_true(n >= 20);
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_tables_op_lookup_takes_longest),
		T(test_tables_mod_lookup),
		T(test_header_version_target),
		T(test_header_errors),
		T(test_header_order),
		T(test_func_entry_params_and_perf),
		T(test_func_return_params_and_prototypes),
		T(test_func_redefinition),
		T(test_decl_module_variables),
		T(test_decl_registers_and_ranges),
		T(test_decl_errors),
		T(test_insn_opcode_and_modifiers),
		T(test_insn_unsupported_and_unknown_modifier),
		T(test_opnd_special_registers),
		T(test_opnd_immediates_and_constant_expressions),
		T(test_opnd_float_immediates),
		T(test_opnd_addresses),
		T(test_opnd_address_errors),
		T(test_opnd_vectors_sinks_duals_negation),
		T(test_opnd_call_syntax),
		T(test_labels_and_guards),
		T(test_scopes_nested_blocks),
		T(test_loc_file_section),
		T(test_syntax_errors_read_well),
		T(test_recovery_reports_every_error),
		T(test_hostile_nul_and_garbage),
		T(test_hostile_truncated_everywhere),
		T(test_hostile_deep_nesting),
		T(test_hostile_huge_names_and_many_lines),
		T(test_conformance_cases_parse_cleanly),
	};
#undef T
	return cmocka_run_group_tests_name("parser", tests, NULL, NULL);
}
