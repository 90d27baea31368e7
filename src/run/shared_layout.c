/*
 * shared_layout.c - per-kernel .shared layout. ptxas gives each kernel the .shared variables
 * its code names (directly, or in any function it calls, transitively; a name in code that
 * never runs counts too), in declaration order, and nothing of other kernels: a module whose
 * kernels together declare more than 227 KiB loads when each kernel fits.
 *
 * Notes (measured with ptxas -v, CUDA 13, sm_90):
 *  - a kernel's static size is its named variables placed in declaration order, each at its
 *    alignment; naming a variable only by its address (mov r, var) counts.
 *  - in a module that declares any .extern .shared array (named by the kernel or not),
 *    every kernel's static size is rounded up to the largest .extern alignment, at least 16;
 *    dynamic shared memory starts there. Without one, the size is not rounded.
 *  - a .func's code is decoded once here, so the variables a .func names take one offset in
 *    every kernel that calls it: they are placed first, each after the ones that share a
 *    kernel with it; the kernel's own variables follow. Kernels that reach a .func naming
 *    an .extern array share one dynamic offset, the largest of theirs.
 */
#include "shared_layout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/diag.h"

struct plan {
	struct dprog *P;
	struct ir_module *m;
	struct ir_sym **vars; /* every .shared variable, in declaration order; slot = index */
	uint32_t nvars, cap;
	uint32_t words;       /* 64-bit words of one variable set                          */
	uint64_t *direct;     /* per function: the variables its code names                */
	uint64_t *calls;      /* per function: the functions its code names (nfuncs bits)  */
	uint32_t fwords;
	struct fidx { const struct ir_func *f; uint32_t i; } *sorted; /* by f, for index_of */
	bool oom;
};

static bool is_shared(const struct ir_sym *s)
{
	return s->kind == SYM_VAR && (s->space == MOD_SHARED || s->space == MOD_SHARED_CTA ||
				      s->space == MOD_SHARED_CLUSTER);
}

static void bit_set(uint64_t *b, uint32_t i)
{
	b[i / 64] |= 1ull << (i % 64);
}

static bool bit_get(const uint64_t *b, uint32_t i)
{
	return b[i / 64] >> (i % 64) & 1;
}

static void add_var(struct plan *p, struct ir_sym *s)
{
	for (uint32_t i = 0; i < p->nvars; i++) /* a scope reached twice */
		if (p->vars[i] == s)
			return;
	if (p->nvars == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 32;
		p->vars = arena_grow(p->P->arena, p->vars, sizeof *p->vars, p->nvars, p->cap);
	}
	s->slot = (int32_t)p->nvars;
	p->vars[p->nvars++] = s;
}

/* Every .shared variable: the module's, then each function's (all its scopes). */
static void collect_vars(struct plan *p)
{
	for (uint32_t i = 0; i < p->m->nvars; i++)
		if (is_shared(p->m->vars[i]))
			add_var(p, p->m->vars[i]);
	for (const struct ir_func *f = p->m->funcs; f; f = f->next) {
		const struct ir_scope *last = NULL;
		for (const struct ir_scope *sc = f->scope; sc; sc = NULL)
			for (struct ir_sym *s = sc->syms; s; s = s->next_in_scope)
				if (is_shared(s))
					add_var(p, s);
		for (uint32_t i = 0; i < f->ninsns; i++) {
			const struct ir_scope *sc = f->insns[i].scope;
			if (sc == last)
				continue;
			last = sc;
			for (; sc && sc != f->scope; sc = sc->parent)
				for (struct ir_sym *s = sc->syms; s; s = s->next_in_scope)
					if (is_shared(s))
						add_var(p, s);
		}
	}
}

static int cmp_fidx(const void *a, const void *b)
{
	const struct ir_func *x = ((const struct fidx *)a)->f, *y = ((const struct fidx *)b)->f;
	return x < y ? -1 : x > y;
}

/* The dfunc index of f (the order of m->funcs), or -1. */
static int32_t index_of(const struct plan *p, const struct ir_func *f)
{
	struct fidx key = {f, 0};
	const struct fidx *hit = bsearch(&key, p->sorted, p->P->nfuncs, sizeof *p->sorted, cmp_fidx);
	return hit ? (int32_t)hit->i : -1;
}

static void name_func(struct plan *p, uint32_t from, const struct ir_func *f)
{
	if (!f)
		return;
	int32_t to = index_of(p, f);
	if (to >= 0)
		bit_set(p->calls + (size_t)from * p->fwords, (uint32_t)to);
}

/* What operand o names: a .shared variable, a function, a list of call targets. */
static void walk_opnd(struct plan *p, uint32_t fi, const struct ir_operand *o)
{
	switch (o->kind) {
	case OPND_REG:
	case OPND_SYM: {
		const struct ir_sym *s = o->ref.sym;
		if (!s)
			return;
		if (is_shared(s))
			bit_set(p->direct + (size_t)fi * p->words, (uint32_t)s->slot);
		else if (s->kind == SYM_FUNC)
			name_func(p, fi, s->func);
		else if (s->kind == SYM_TARGETS)
			for (uint32_t i = 0; i < s->ntargets; i++)
				walk_opnd(p, fi, &s->targets[i]);
		return;
	}
	case OPND_ADDR:
		if (o->addr.base)
			walk_opnd(p, fi, o->addr.base);
		return;
	case OPND_VEC:
	case OPND_LIST:
	case OPND_DUAL:
		for (uint32_t i = 0; i < o->vec.n; i++)
			walk_opnd(p, fi, &o->vec.elems[i]);
		return;
	default:
		return;
	}
}

/* An indirect call (through a register) may reach any function whose address a .global or
 * .const initializer holds: those become callees of the function making it. */
static bool calls_indirectly(const struct ir_insn *in)
{
	if (in->op != OP_CALL)
		return false;
	for (uint32_t k = 0; k < in->nopnds; k++) {
		const struct ir_operand *o = &in->opnds[k];
		if (o->kind == OPND_SYM && o->ref.sym && o->ref.sym->kind == SYM_FUNC)
			return false;
	}
	return true;
}

static void name_init_funcs(struct plan *p, uint32_t fi)
{
	for (uint32_t i = 0; i < p->m->nvars; i++) {
		const struct ir_sym *v = p->m->vars[i];
		for (uint32_t k = 0; k < v->ninit; k++)
			if ((v->init[k].kind == INIT_SYM || v->init[k].kind == INIT_GENERIC_SYM) &&
			    v->init[k].sym && v->init[k].sym->kind == SYM_FUNC)
				name_func(p, fi, v->init[k].sym->func);
	}
}

static void walk_funcs(struct plan *p)
{
	for (uint32_t fi = 0; fi < p->P->nfuncs; fi++) {
		const struct ir_func *f = p->P->funcs[fi].ir;
		bool indirect = false;
		for (uint32_t i = 0; i < f->ninsns; i++) {
			const struct ir_insn *in = &f->insns[i];
			for (uint32_t k = 0; k < in->nopnds; k++)
				walk_opnd(p, fi, &in->opnds[k]);
			indirect |= calls_indirectly(in);
		}
		if (indirect)
			name_init_funcs(p, fi);
	}
}

/* reach (words wide): the variables named by function fi and all it calls. */
static void reach_of(struct plan *p, uint32_t fi, uint64_t *reach, uint64_t *seen,
		     uint32_t *stack)
{
	uint32_t n = 0;
	memset(reach, 0, sizeof *reach * p->words);
	memset(seen, 0, sizeof *seen * p->fwords);
	bit_set(seen, fi);
	stack[n++] = fi;
	while (n) {
		uint32_t f = stack[--n];
		const uint64_t *d = p->direct + (size_t)f * p->words;
		for (uint32_t w = 0; w < p->words; w++)
			reach[w] |= d[w];
		const uint64_t *c = p->calls + (size_t)f * p->fwords;
		for (uint32_t w = 0; w < p->fwords; w++)
			for (uint64_t b = c[w] & ~seen[w]; b; b &= b - 1) {
				uint32_t g = w * 64 + (uint32_t)__builtin_ctzll(b);
				bit_set(seen, g);
				stack[n++] = g;
			}
	}
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return a ? (v + a - 1) / a * a : v;
}

/* Give df the variables of set `vars` (words wide) at addr[]; externs at dyn. */
static void keep_map(struct plan *p, struct dfunc *df, const uint64_t *vars, const uint64_t *addr,
		     uint64_t dyn)
{
	uint32_t n = 0;
	for (uint32_t v = 0; v < p->nvars; v++)
		n += bit_get(vars, v);
	df->nshared = n;
	df->shared_syms = arena_alloc(p->P->arena, sizeof *df->shared_syms * (n ? n : 1));
	df->shared_addrs = arena_alloc(p->P->arena, sizeof *df->shared_addrs * (n ? n : 1));
	n = 0;
	for (uint32_t v = 0; v < p->nvars; v++)
		if (bit_get(vars, v)) {
			df->shared_syms[n] = p->vars[v];
			df->shared_addrs[n++] = (uint32_t)(p->vars[v]->is_extern ? dyn : addr[v]);
		}
}

static int too_big(struct plan *p, struct diag *d, const struct dfunc *k, const struct ir_sym *s)
{
	char b[48];
	uint64_t size = ir_sym_bytes(s);
	if (size == UINT64_MAX)
		snprintf(b, sizeof b, "2^64 bytes or more");
	else
		snprintf(b, sizeof b, "%llu bytes", (unsigned long long)size);
	diag_report(d, DIAG_ERROR, p->m->file, s->span, "shared variable '%s' (%s) takes the "
		    "static shared memory of kernel '%s' past the %u bytes of an sm_90 CTA", s->name,
		    b, k->name, SHARED_LAYOUT_MAX);
	return 1;
}

/* Place the variables the .funcs name: each after those that share a kernel with it. */
static void place_func_vars(struct plan *p, const uint64_t *fvars, const uint64_t *kreach,
			    uint32_t nk, uint64_t *addr, uint64_t *end, uint32_t *fv)
{
	uint32_t n = 0;
	for (uint32_t v = 0; v < p->nvars; v++)
		if (bit_get(fvars, v) && !p->vars[v]->is_extern)
			fv[n++] = v;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t at = 0;
		for (uint32_t j = 0; j < i; j++) {
			if (end[fv[j]] <= at)
				continue;
			for (uint32_t k = 0; k < nk; k++) {
				const uint64_t *r = kreach + (size_t)k * p->words;
				if (bit_get(r, fv[j]) && bit_get(r, fv[i])) {
					at = end[fv[j]];
					break;
				}
			}
		}
		addr[fv[i]] = ir_place(&at, p->vars[fv[i]]);
		end[fv[i]] = at;
	}
}

int shared_layout_plan(struct dprog *P, struct diag *d)
{
	struct plan p = {.P = P, .m = P->m};
	int errors = 0;
	collect_vars(&p);
	uint32_t nf = P->nfuncs;
	p.words = (p.nvars + 63) / 64 ? (p.nvars + 63) / 64 : 1;
	p.fwords = (nf + 63) / 64 ? (nf + 63) / 64 : 1;
	uint32_t nk = 0;
	for (uint32_t i = 0; i < nf; i++)
		nk += P->funcs[i].ir->is_entry;
	p.direct = calloc((size_t)nf * p.words + 1, sizeof *p.direct);
	p.calls = calloc((size_t)nf * p.fwords + 1, sizeof *p.calls);
	p.sorted = calloc(nf + 1, sizeof *p.sorted);
	uint64_t *kreach = calloc((size_t)(nk ? nk : 1) * p.words, sizeof *kreach);
	uint64_t *fvars = calloc(p.words, sizeof *fvars), *seen = calloc(p.fwords, sizeof *seen);
	uint64_t *addr = calloc(p.nvars + 1, sizeof *addr), *end = calloc(p.nvars + 1, sizeof *end);
	uint64_t *dyn = calloc(nk + 1, sizeof *dyn);
	uint32_t *stack = calloc(nf + 1, sizeof *stack), *kof = calloc(nk + 1, sizeof *kof);
	uint32_t *fvlist = calloc(p.nvars + 1, sizeof *fvlist); /* the .func variables */
	if (!p.direct || !p.calls || !p.sorted || !kreach || !fvars || !seen || !addr || !end ||
	    !dyn || !stack || !kof || !fvlist) {
		diag_report(d, DIAG_ERROR, P->m->file, (struct src_span){0, 0},
			    "out of memory laying out shared memory");
		errors = 1;
		goto out;
	}
	for (uint32_t i = 0; i < nf; i++)
		p.sorted[i] = (struct fidx){P->funcs[i].ir, i};
	qsort(p.sorted, nf, sizeof *p.sorted, cmp_fidx);
	walk_funcs(&p);

	/* the variables .funcs name; the module's .extern alignment */
	bool has_extern = false;
	uint64_t dyn_align = 16;
	for (uint32_t v = 0; v < p.nvars; v++)
		if (p.vars[v]->is_extern) {
			has_extern = true;
			if (ir_sym_align(p.vars[v]) > dyn_align)
				dyn_align = ir_sym_align(p.vars[v]);
		}
	for (uint32_t i = 0; i < nf; i++)
		if (!P->funcs[i].ir->is_entry)
			for (uint32_t w = 0; w < p.words; w++)
				fvars[w] |= p.direct[(size_t)i * p.words + w];
	nk = 0;
	for (uint32_t i = 0; i < nf; i++)
		if (P->funcs[i].ir->is_entry) {
			kof[nk] = i;
			reach_of(&p, i, kreach + (size_t)nk++ * p.words, seen, stack);
		}
	place_func_vars(&p, fvars, kreach, nk, addr, end, fvlist);

	/* each kernel: its .func variables where they are, then its own in order */
	for (uint32_t k = 0; k < nk; k++) {
		struct dfunc *df = &P->funcs[kof[k]];
		const uint64_t *r = kreach + (size_t)k * p.words;
		uint64_t used = 0;
		const struct ir_sym *last = NULL; /* the variable that ends last so far */
		for (uint32_t v = 0; v < p.nvars; v++)
			if (bit_get(r, v) && bit_get(fvars, v) && !p.vars[v]->is_extern &&
			    end[v] > used) {
				used = end[v];
				last = p.vars[v];
			}
		for (uint32_t v = 0; v < p.nvars && used <= SHARED_LAYOUT_MAX; v++) {
			if (!bit_get(r, v) || bit_get(fvars, v) || p.vars[v]->is_extern)
				continue;
			addr[v] = ir_place(&used, p.vars[v]); /* kept in the kernel's map below */
			last = p.vars[v];
		}
		if (used > SHARED_LAYOUT_MAX) {
			errors += too_big(&p, d, df, last);
			continue; /* the other kernels are reported too */
		}
		df->shared_static = (uint32_t)(has_extern ? align_up(used, dyn_align) : used);
		dyn[k] = align_up(used, dyn_align);
		keep_map(&p, df, r, addr, 0); /* externs fixed below */
	}
	if (errors)
		goto out;

	/* kernels that reach a .func naming an .extern array: one dynamic offset */
	uint64_t group = 0;
	bool any = false;
	for (uint32_t k = 0; k < nk; k++) {
		const uint64_t *r = kreach + (size_t)k * p.words;
		for (uint32_t v = 0; v < p.nvars; v++)
			if (p.vars[v]->is_extern && bit_get(fvars, v) && bit_get(r, v)) {
				any = true;
				if (dyn[k] > group)
					group = dyn[k];
				break;
			}
	}
	for (uint32_t k = 0; k < nk; k++) {
		struct dfunc *df = &P->funcs[kof[k]];
		const uint64_t *r = kreach + (size_t)k * p.words;
		if (any)
			for (uint32_t v = 0; v < p.nvars; v++)
				if (p.vars[v]->is_extern && bit_get(fvars, v) && bit_get(r, v)) {
					dyn[k] = group;
					break;
				}
		df->shared_dyn_off = (uint32_t)dyn[k];
		for (uint32_t i = 0; i < df->nshared; i++)
			if (df->shared_syms[i]->is_extern)
				df->shared_addrs[i] = df->shared_dyn_off;
	}
	/* each .func: the variables it names, at their one offset */
	for (uint32_t i = 0; i < nf; i++)
		if (!P->funcs[i].ir->is_entry)
			keep_map(&p, &P->funcs[i], p.direct + (size_t)i * p.words, addr, group);
out:
	free(p.direct);
	free(p.calls);
	free(p.sorted);
	free(kreach);
	free(fvars);
	free(seen);
	free(addr);
	free(end);
	free(dyn);
	free(stack);
	free(fvlist);
	free(kof);
	return errors;
}

void shared_layout_apply(const struct dfunc *df)
{
	for (uint32_t i = 0; i < df->nshared; i++)
		((struct ir_sym *)df->shared_syms[i])->addr = df->shared_addrs[i];
}

bool shared_layout_addr(const struct dfunc *k, const struct ir_sym *s, uint64_t *addr)
{
	for (uint32_t i = 0; k && i < k->nshared; i++)
		if (k->shared_syms[i] == s) {
			*addr = k->shared_addrs[i];
			return true;
		}
	return false;
}
