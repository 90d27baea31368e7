/*
 * shared_plan.c - the per-kernel .shared layout of shared_plan.h. Noting a body keeps only
 * what the layout needs (the module variables it names, its own .shared variables' sizes,
 * the functions it names), so `ptxi check` can free bodies as it goes; solving works on
 * bit sets: per function the variables it names and the functions it calls.
 */
#include "shared_plan.h"

#include <stdlib.h>
#include <string.h>

struct sp_var {
	const struct ir_sym *sym; /* a body's dangles once the body is freed                */
	uint64_t bytes, align;
	bool is_extern;
};

struct sp_func {
	const struct ir_func *f;
	uint32_t names, nnames;   /* in sp->names: the variables (maybe a body's) it names  */
	uint32_t calls, ncalls;   /* in sp->calls: the functions it names                   */
	uint32_t locals, nlocals; /* in sp->locals: the .shared variables of its body       */
	bool indirect;            /* calls through a register                               */
	struct shared_view view;
	uint32_t *held;           /* variable indices, in declaration order                 */
	uint64_t *addr;
};

/* A growable array of `size`-byte elements. */
struct pool {
	void *at;
	uint32_t n, cap;
};

struct shared_plan {
	struct pool funcs, names, calls, locals; /* sp_func, ir_sym *, ir_func *, sp_var */
	/* solved: */
	struct sp_var *vars;      /* the module's .shared variables, then the bodies'        */
	uint32_t nvars, words;    /* words: 64-bit words of a variable set                  */
	struct modref { const struct ir_sym *s; uint32_t v; } *mods; /* by s's address      */
	uint32_t nmod;
	struct sp_func **fsorted; /* by ir_func address                                     */
	uint64_t *fvars;          /* the variables some .func names                         */
	uint64_t *end;            /* a .func variable's end (they have one place)            */
	uint32_t *adj, *adj_at;   /* function i calls adj[adj_at[i] .. adj_at[i+1]), in order */
};

static bool push(struct pool *p, size_t size, const void *elem)
{
	if (p->n == p->cap) {
		uint32_t cap = p->cap ? p->cap * 2 : 16;
		void *at = realloc(p->at, (size_t)cap * size);
		if (!at)
			return false;
		p->at = at;
		p->cap = cap;
	}
	memcpy((char *)p->at + (size_t)p->n++ * size, elem, size);
	return true;
}

static void bit_set(uint64_t *b, uint32_t i)
{
	b[i / 64] |= 1ull << (i % 64);
}

static bool bit_get(const uint64_t *b, uint32_t i)
{
	return b[i / 64] >> (i % 64) & 1;
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return v > UINT64_MAX - (a - 1) ? UINT64_MAX : (v + a - 1) / a * a;
}

static bool is_shared(const struct ir_sym *s)
{
	return s->kind == SYM_VAR && (s->space == MOD_SHARED || s->space == MOD_SHARED_CTA ||
				      s->space == MOD_SHARED_CLUSTER);
}

struct shared_plan *shared_plan_new(void)
{
	return calloc(1, sizeof(struct shared_plan));
}

void shared_plan_free(struct shared_plan *sp)
{
	if (!sp)
		return;
	struct sp_func *fs = sp->funcs.at;
	for (uint32_t i = 0; i < sp->funcs.n; i++) {
		free(fs[i].held);
		free(fs[i].addr);
	}
	free(sp->funcs.at);
	free(sp->names.at);
	free(sp->calls.at);
	free(sp->locals.at);
	free(sp->vars);
	free(sp->mods);
	free(sp->fsorted);
	free(sp->fvars);
	free(sp->end);
	free(sp->adj);
	free(sp->adj_at);
	free(sp);
}

/* ---- noting a body ------------------------------------------------------------------- */

static bool note_local(struct shared_plan *sp, struct sp_func *nf, const struct ir_sym *s)
{
	const struct sp_var *l = sp->locals.at;
	for (uint32_t i = nf->locals; i < sp->locals.n; i++) /* a scope reached twice */
		if (l[i].sym == s)
			return true;
	struct sp_var v = {s, ir_sym_bytes(s), ir_sym_align(s), s->is_extern};
	if (!push(&sp->locals, sizeof v, &v))
		return false;
	nf->nlocals++;
	return true;
}

/* Every .shared variable of f's body, counted whether named or not (ptxas does). */
static bool note_locals(struct shared_plan *sp, struct sp_func *nf, const struct ir_func *f)
{
	for (const struct ir_sym *s = f->scope->syms; s; s = s->next_in_scope)
		if (is_shared(s) && !note_local(sp, nf, s))
			return false;
	const struct ir_scope *last = f->scope;
	for (uint32_t i = 0; i < f->ninsns; i++) {
		const struct ir_scope *sc = f->insns[i].scope;
		if (sc == last)
			continue;
		last = sc;
		for (; sc && sc != f->scope; sc = sc->parent)
			for (const struct ir_sym *s = sc->syms; s; s = s->next_in_scope)
				if (is_shared(s) && !note_local(sp, nf, s))
					return false;
	}
	return true;
}

/* What operand o names: a .shared variable, a function, a list of call targets. */
static bool note_opnd(struct shared_plan *sp, struct sp_func *nf, const struct ir_operand *o)
{
	switch (o->kind) {
	case OPND_REG:
	case OPND_SYM: {
		const struct ir_sym *s = o->ref.sym;
		if (!s)
			return true;
		if (is_shared(s)) {
			nf->nnames++;
			return push(&sp->names, sizeof s, &s);
		}
		if (s->kind == SYM_FUNC && s->func) {
			nf->ncalls++;
			return push(&sp->calls, sizeof s->func, &s->func);
		}
		if (s->kind == SYM_TARGETS)
			for (uint32_t i = 0; i < s->ntargets; i++)
				if (!note_opnd(sp, nf, &s->targets[i]))
					return false;
		return true;
	}
	case OPND_ADDR:
		return !o->addr.base || note_opnd(sp, nf, o->addr.base);
	case OPND_VEC:
	case OPND_LIST:
	case OPND_DUAL:
		for (uint32_t i = 0; i < o->vec.n; i++)
			if (!note_opnd(sp, nf, &o->vec.elems[i]))
				return false;
		return true;
	default:
		return true;
	}
}

/* An indirect call (through a register) may reach any function whose address a .global or
 * .const initializer holds: those become its callees when solved. */
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

bool shared_plan_note(struct shared_plan *sp, const struct ir_func *f)
{
	struct sp_func nf = {.f = f, .names = sp->names.n, .calls = sp->calls.n,
			     .locals = sp->locals.n};
	if (!note_locals(sp, &nf, f))
		return false;
	for (uint32_t i = 0; i < f->ninsns; i++) {
		const struct ir_insn *in = &f->insns[i];
		for (uint32_t k = 0; k < in->nopnds; k++)
			if (!note_opnd(sp, &nf, &in->opnds[k]))
				return false;
		nf.indirect |= calls_indirectly(in);
	}
	return push(&sp->funcs, sizeof nf, &nf);
}

/* ---- solving ------------------------------------------------------------------------- */

static int cmp_func(const void *a, const void *b)
{
	const struct ir_func *x = (*(struct sp_func *const *)a)->f;
	const struct ir_func *y = (*(struct sp_func *const *)b)->f;
	return x < y ? -1 : x > y;
}

static struct sp_func *func_of(const struct shared_plan *sp, const struct ir_func *f)
{
	struct sp_func key = {.f = f}, *kp = &key;
	struct sp_func **hit = sp->fsorted ? bsearch(&kp, sp->fsorted, sp->funcs.n,
						    sizeof *sp->fsorted, cmp_func) : NULL;
	return hit ? *hit : NULL;
}

static uint32_t index_of(const struct shared_plan *sp, const struct sp_func *nf)
{
	return (uint32_t)(nf - (const struct sp_func *)sp->funcs.at);
}

static int cmp_mod(const void *a, const void *b)
{
	const struct ir_sym *x = ((const struct modref *)a)->s, *y = ((const struct modref *)b)->s;
	return x < y ? -1 : x > y;
}

/* The variable index of a module variable s, or UINT32_MAX (a body's: counted already). */
static uint32_t mod_index(const struct shared_plan *sp, const struct ir_sym *s)
{
	struct modref key = {s, 0};
	const struct modref *hit = bsearch(&key, sp->mods, sp->nmod, sizeof key, cmp_mod);
	return hit ? hit->v : UINT32_MAX;
}

/* The variable table: the module's .shared variables in order, then the bodies'. */
static bool gather_vars(struct shared_plan *sp, const struct ir_module *m)
{
	uint32_t n = sp->locals.n;
	for (uint32_t i = 0; i < m->nvars; i++)
		n += is_shared(m->vars[i]);
	sp->vars = calloc(n + 1, sizeof *sp->vars);
	sp->mods = calloc(n + 1, sizeof *sp->mods);
	if (!sp->vars || !sp->mods)
		return false;
	for (uint32_t i = 0; i < m->nvars; i++) {
		const struct ir_sym *s = m->vars[i];
		if (is_shared(s)) {
			sp->mods[sp->nmod] = (struct modref){s, sp->nmod};
			sp->vars[sp->nmod++] = (struct sp_var){s, ir_sym_bytes(s), ir_sym_align(s),
								 s->is_extern};
		}
	}
	qsort(sp->mods, sp->nmod, sizeof *sp->mods, cmp_mod);
	if (sp->locals.n) /* memcpy takes no NULL, even for 0 bytes */
		memcpy(sp->vars + sp->nmod, sp->locals.at, sizeof *sp->vars * sp->locals.n);
	sp->nvars = n;
	sp->words = (n + 63) / 64 ? (n + 63) / 64 : 1;
	return true;
}

/* Function i's callees (sp_func indices) in the order its code names them, then those an
 * indirect call may reach; fn(sp, i, g, ctx) for each. */
static void each_callee(struct shared_plan *sp, const struct ir_module *m, uint32_t i,
			void (*fn)(struct shared_plan *, uint32_t, uint32_t, void *), void *ctx)
{
	const struct sp_func *fs = sp->funcs.at;
	const struct ir_func **callees = sp->calls.at;
	for (uint32_t k = 0; k < fs[i].ncalls; k++) {
		const struct sp_func *g = func_of(sp, callees[fs[i].calls + k]);
		if (g)
			fn(sp, i, index_of(sp, g), ctx);
	}
	for (uint32_t v = 0; fs[i].indirect && v < m->nvars; v++)
		for (uint32_t k = 0; k < m->vars[v]->ninit; k++) {
			const struct ir_init *in = &m->vars[v]->init[k];
			const struct sp_func *g;
			if ((in->kind == INIT_SYM || in->kind == INIT_GENERIC_SYM) && in->sym &&
			    in->sym->kind == SYM_FUNC && (g = func_of(sp, in->sym->func)))
				fn(sp, i, index_of(sp, g), ctx);
		}
}

static void count_edge(struct shared_plan *sp, uint32_t i, uint32_t g, void *ctx)
{
	(void)sp, (void)i, (void)g;
	++*(uint32_t *)ctx;
}

struct edges {
	uint64_t *calls;
	uint32_t fwords, n;
};

static void add_edge(struct shared_plan *sp, uint32_t i, uint32_t g, void *ctx)
{
	struct edges *e = ctx;
	bit_set(e->calls + (size_t)i * e->fwords, g);
	sp->adj[e->n++] = g;
}

/* direct[f]: the variables f's code names and its body's; calls[f] and sp->adj: what it
 * calls. Module variables are found through a sorted copy; a name without a hit is a
 * body's own. */
static bool name_sets(struct shared_plan *sp, const struct ir_module *m, uint64_t *direct,
		      uint64_t *calls, uint32_t fwords)
{
	struct sp_func *fs = sp->funcs.at;
	const struct ir_sym **names = sp->names.at;
	uint32_t nedges = 0;
	for (uint32_t i = 0; i < sp->funcs.n; i++)
		each_callee(sp, m, i, count_edge, &nedges);
	sp->adj = malloc(sizeof *sp->adj * (nedges + 1));
	sp->adj_at = malloc(sizeof *sp->adj_at * (sp->funcs.n + 1));
	if (!sp->adj || !sp->adj_at)
		return false;
	struct edges e = {calls, fwords, 0};
	for (uint32_t i = 0; i < sp->funcs.n; i++) {
		uint64_t *d = direct + (size_t)i * sp->words;
		for (uint32_t k = 0; k < fs[i].nnames; k++) {
			uint32_t v = mod_index(sp, names[fs[i].names + k]);
			if (v != UINT32_MAX)
				bit_set(d, v);
		}
		for (uint32_t k = 0; k < fs[i].nlocals; k++)
			bit_set(d, sp->nmod + fs[i].locals + k);
		sp->adj_at[i] = e.n;
		each_callee(sp, m, i, add_edge, &e);
	}
	sp->adj_at[sp->funcs.n] = e.n;
	return true;
}

/* reach (words wide): the variables named by function fi and all it calls. */
static void reach_of(const struct shared_plan *sp, const uint64_t *direct, const uint64_t *calls,
		     uint32_t fwords, uint32_t fi, uint64_t *reach, uint64_t *seen, uint32_t *stack)
{
	uint32_t n = 0;
	memset(reach, 0, sizeof *reach * sp->words);
	memset(seen, 0, sizeof *seen * fwords);
	bit_set(seen, fi);
	stack[n++] = fi;
	while (n) {
		uint32_t f = stack[--n];
		const uint64_t *d = direct + (size_t)f * sp->words;
		for (uint32_t w = 0; w < sp->words; w++)
			reach[w] |= d[w];
		const uint64_t *c = calls + (size_t)f * fwords;
		for (uint32_t w = 0; w < fwords; w++)
			for (uint64_t b = c[w] & ~seen[w]; b; b &= b - 1) {
				uint32_t g = w * 64 + (uint32_t)__builtin_ctzll(b);
				bit_set(seen, g);
				stack[n++] = g;
			}
	}
}

/* Offset of variable v after `used` bytes; *used grows past it (both saturate). */
static uint64_t place(const struct shared_plan *sp, uint32_t v, uint64_t *used)
{
	uint64_t at = align_up(*used, sp->vars[v].align);
	*used = at > UINT64_MAX - sp->vars[v].bytes ? UINT64_MAX : at + sp->vars[v].bytes;
	return at;
}

/* Place the variables the .funcs name, each after those that share a kernel with it. */
static void place_func_vars(struct shared_plan *sp, const uint64_t *kreach, uint32_t nk,
			    uint64_t *addr, uint32_t *fv)
{
	uint32_t n = 0;
	for (uint32_t v = 0; v < sp->nvars; v++)
		if (bit_get(sp->fvars, v) && !sp->vars[v].is_extern)
			fv[n++] = v;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t at = 0;
		for (uint32_t j = 0; j < i; j++) {
			if (sp->end[fv[j]] <= at)
				continue;
			for (uint32_t k = 0; k < nk; k++) {
				const uint64_t *r = kreach + (size_t)k * sp->words;
				if (bit_get(r, fv[j]) && bit_get(r, fv[i])) {
					at = sp->end[fv[j]];
					break;
				}
			}
		}
		addr[fv[i]] = place(sp, fv[i], &at);
		sp->end[fv[i]] = at;
	}
}

/* nf holds the variables of set `vars` at addr[] (an .extern's set later). */
static bool keep(const struct shared_plan *sp, struct sp_func *nf, const uint64_t *vars,
		 const uint64_t *addr)
{
	uint32_t n = 0;
	for (uint32_t v = 0; v < sp->nvars; v++)
		n += bit_get(vars, v);
	nf->held = malloc(sizeof *nf->held * (n ? n : 1));
	nf->addr = malloc(sizeof *nf->addr * (n ? n : 1));
	if (!nf->held || !nf->addr)
		return false;
	n = 0;
	for (uint32_t v = 0; v < sp->nvars; v++)
		if (bit_get(vars, v)) {
			nf->held[n] = v;
			nf->addr[n++] = addr[v];
		}
	nf->view.nheld = n;
	return true;
}


/* ---- the size ptxas reports ---------------------------------------------------------
 * ptxas -v (CUDA 13, sm_90) counts a kernel otherwise than the loader places it (the loader
 * gives a .func's variables one offset in every kernel): the module's variables the kernel
 * reaches, in declaration order; then its body's; then the body variables of each function
 * it reaches, the functions in the order of their names, each one's in declaration order.
 * Measured (tests/regress/static-shared-order.ptx keeps the cases): a caller's and a callee's
 * variables, siblings called in either order, declared in either order, names swapped. */

struct sz_scratch {
	uint32_t *stamp, mark;
	uint32_t *stack;
	struct sz_ref { const char *name; uint32_t f; } *reached;
};

static int cmp_name(const void *a, const void *b)
{
	return strcmp(((const struct sz_ref *)a)->name, ((const struct sz_ref *)b)->name);
}

/* The functions kernel kfi reaches (not itself) into t->reached; returns how many. */
static uint32_t reached_funcs(const struct shared_plan *sp, struct sz_scratch *t, uint32_t kfi)
{
	const struct sp_func *fs = sp->funcs.at;
	uint32_t n = 0, depth = 0;
	t->mark++;
	t->stamp[kfi] = t->mark;
	t->stack[depth++] = kfi;
	while (depth) {
		uint32_t f = t->stack[--depth];
		for (uint32_t k = sp->adj_at[f]; k < sp->adj_at[f + 1]; k++)
			if (t->stamp[sp->adj[k]] != t->mark) {
				uint32_t g = sp->adj[k];
				t->stamp[g] = t->mark;
				t->stack[depth++] = g;
				t->reached[n++] = (struct sz_ref){fs[g].f->sym->name, g};
			}
	}
	return n;
}

static void place_body(const struct shared_plan *sp, uint32_t fi, uint64_t *used)
{
	const struct sp_func *nf = (const struct sp_func *)sp->funcs.at + fi;
	for (uint32_t k = 0; k < nf->nlocals; k++)
		if (!sp->vars[sp->nmod + nf->locals + k].is_extern)
			place(sp, sp->nmod + nf->locals + k, used);
}

static uint64_t ptxas_bytes(const struct shared_plan *sp, struct sz_scratch *t, uint32_t kfi,
			    const uint64_t *r)
{
	uint64_t used = 0;
	for (uint32_t v = 0; v < sp->nmod; v++)
		if (bit_get(r, v) && !sp->vars[v].is_extern)
			place(sp, v, &used);
	place_body(sp, kfi, &used);
	uint32_t n = reached_funcs(sp, t, kfi);
	qsort(t->reached, n, sizeof *t->reached, cmp_name);
	for (uint32_t i = 0; i < n; i++)
		place_body(sp, t->reached[i].f, &used);
	return used;
}

/* Kernel nf: its .func variables where they are, then its own in order. */
static bool layout_kernel(struct shared_plan *sp, struct sp_func *nf, const uint64_t *r,
			  uint64_t *addr, uint64_t dyn_align, bool has_extern, struct sz_scratch *t)
{
	uint64_t counted = ptxas_bytes(sp, t, index_of(sp, nf), r);
	nf->view.ptxas_bytes = has_extern ? align_up(counted, dyn_align) : counted;
	uint64_t used = 0;
	for (uint32_t v = 0; v < sp->nvars; v++)
		if (bit_get(r, v) && bit_get(sp->fvars, v) && !sp->vars[v].is_extern &&
		    sp->end[v] > used)
			used = sp->end[v];
	for (uint32_t v = 0; v < sp->nvars; v++)
		if (bit_get(r, v) && !bit_get(sp->fvars, v) && !sp->vars[v].is_extern)
			addr[v] = place(sp, v, &used);
	nf->view.used = used;
	nf->view.bytes = has_extern ? align_up(used, dyn_align) : used;
	nf->view.dyn_off = align_up(used, dyn_align);
	return keep(sp, nf, r, addr);
}

static bool reaches_func_extern(const struct shared_plan *sp, const uint64_t *r)
{
	for (uint32_t v = 0; v < sp->nvars; v++)
		if (sp->vars[v].is_extern && bit_get(sp->fvars, v) && bit_get(r, v))
			return true;
	return false;
}

/* .extern arrays sit at each function's dyn_off; kernels that reach a .func naming one
 * share the largest of theirs, which is also every .func's. */
static void place_externs(struct shared_plan *sp, const uint64_t *kreach, const uint32_t *kof,
			  uint32_t nk)
{
	struct sp_func *fs = sp->funcs.at;
	uint64_t group = 0;
	for (uint32_t k = 0; k < nk; k++)
		if (reaches_func_extern(sp, kreach + (size_t)k * sp->words) &&
		    fs[kof[k]].view.dyn_off > group)
			group = fs[kof[k]].view.dyn_off;
	for (uint32_t k = 0; k < nk; k++)
		if (reaches_func_extern(sp, kreach + (size_t)k * sp->words))
			fs[kof[k]].view.dyn_off = group;
	for (uint32_t i = 0; i < sp->funcs.n; i++) {
		if (!fs[i].f->is_entry)
			fs[i].view.dyn_off = group;
		for (uint32_t h = 0; h < fs[i].view.nheld; h++)
			if (sp->vars[fs[i].held[h]].is_extern)
				fs[i].addr[h] = fs[i].view.dyn_off;
	}
}

bool shared_plan_solve(struct shared_plan *sp, const struct ir_module *m)
{
	struct sp_func *fs = sp->funcs.at;
	uint32_t nf = sp->funcs.n, nk = 0;
	if (!gather_vars(sp, m))
		return false;
	sp->fsorted = malloc(sizeof *sp->fsorted * (nf + 1));
	if (!sp->fsorted)
		return false;
	for (uint32_t i = 0; i < nf; i++) {
		sp->fsorted[i] = &fs[i];
		nk += fs[i].f->is_entry;
	}
	qsort(sp->fsorted, nf, sizeof *sp->fsorted, cmp_func);
	uint32_t fwords = (nf + 63) / 64 ? (nf + 63) / 64 : 1, w = sp->words;
	uint64_t *direct = calloc((size_t)nf * w + 1, sizeof *direct);
	uint64_t *calls = calloc((size_t)nf * fwords + 1, sizeof *calls);
	uint64_t *kreach = calloc((size_t)(nk ? nk : 1) * w, sizeof *kreach);
	uint64_t *seen = calloc(fwords, sizeof *seen), *addr = calloc(sp->nvars + 1, sizeof *addr);
	uint32_t *stack = calloc(nf + 1, sizeof *stack), *kof = calloc(nk + 1, sizeof *kof);
	uint32_t *fvlist = calloc(sp->nvars + 1, sizeof *fvlist);
	sp->fvars = calloc(w, sizeof *sp->fvars);
	sp->end = calloc(sp->nvars + 1, sizeof *sp->end);
	bool ok = direct && calls && kreach && seen && addr && stack && kof && fvlist &&
		  sp->fvars && sp->end;
	if (ok)
		ok = name_sets(sp, m, direct, calls, fwords);
	if (ok) {
		bool has_extern = false;
		uint64_t dyn_align = 16;
		for (uint32_t v = 0; v < sp->nvars; v++)
			if (sp->vars[v].is_extern) {
				has_extern = true;
				if (sp->vars[v].align > dyn_align)
					dyn_align = sp->vars[v].align;
			}
		for (uint32_t i = 0; i < nf; i++)
			for (uint32_t k = 0; !fs[i].f->is_entry && k < w; k++)
				sp->fvars[k] |= direct[(size_t)i * w + k];
		nk = 0;
		for (uint32_t i = 0; i < nf; i++)
			if (fs[i].f->is_entry) {
				kof[nk] = i;
				reach_of(sp, direct, calls, fwords, i, kreach + (size_t)nk++ * w, seen,
					 stack);
			}
		place_func_vars(sp, kreach, nk, addr, fvlist);
		struct sz_scratch t = {
			.stamp = calloc(nf + 1, sizeof *t.stamp),
			.stack = malloc(sizeof *t.stack * (nf + 1)),
			.reached = malloc(sizeof *t.reached * (nf + 1)),
		};
		ok = t.stamp && t.stack && t.reached;
		for (uint32_t k = 0; ok && k < nk; k++)
			ok = layout_kernel(sp, &fs[kof[k]], kreach + (size_t)k * w, addr, dyn_align,
					   has_extern, &t);
		free(t.stamp);
		free(t.stack);
		free(t.reached);
		for (uint32_t i = 0; ok && i < nf; i++)
			if (!fs[i].f->is_entry)
				ok = keep(sp, &fs[i], direct + (size_t)i * w, addr);
		if (ok)
			place_externs(sp, kreach, kof, nk);
	}
	free(direct);
	free(calls);
	free(kreach);
	free(seen);
	free(addr);
	free(stack);
	free(kof);
	free(fvlist);
	return ok;
}

const struct shared_view *shared_plan_view(const struct shared_plan *sp, const struct ir_func *f)
{
	const struct sp_func *nf = func_of(sp, f);
	return nf ? &nf->view : NULL;
}

void shared_plan_held(const struct shared_plan *sp, const struct ir_func *f, uint32_t i,
		      const struct ir_sym **sym, uint64_t *addr)
{
	const struct sp_func *nf = func_of(sp, f);
	*sym = sp->vars[nf->held[i]].sym;
	*addr = nf->addr[i];
}

/* A .func variable comes first: the one ending last passes first; then the kernel's own,
 * placed in declaration order. */
const struct ir_sym *shared_plan_past(const struct shared_plan *sp, const struct ir_func *f,
				      uint64_t limit)
{
	const struct sp_func *nf = func_of(sp, f);
	const struct ir_sym *far = NULL;
	uint64_t far_end = limit;
	for (uint32_t h = 0; nf && h < nf->view.nheld; h++) {
		uint32_t v = nf->held[h];
		if (bit_get(sp->fvars, v) && !sp->vars[v].is_extern && sp->end[v] > far_end) {
			far = sp->vars[v].sym;
			far_end = sp->end[v];
		}
	}
	if (far)
		return far;
	for (uint32_t h = 0; nf && h < nf->view.nheld; h++) {
		uint32_t v = nf->held[h];
		uint64_t end = nf->addr[h] > UINT64_MAX - sp->vars[v].bytes
				       ? UINT64_MAX : nf->addr[h] + sp->vars[v].bytes;
		if (!bit_get(sp->fvars, v) && !sp->vars[v].is_extern && end > limit)
			return sp->vars[v].sym;
	}
	return NULL;
}
