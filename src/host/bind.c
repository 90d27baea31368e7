/*
 * bind.c - what a launch is given before it starts. Kernel arguments go into the parameter
 * block: scalars as their bytes, buffers as the address of a device allocation made here,
 * tensor maps encoded once the buffers they name have addresses, and by-value structs
 * (CUTLASS's Params, CUB's 16-byte arguments) as bytes with fields of each of those kinds.
 * Module variables are set as cudaMemcpyToSymbol would (--set), and variables initialised
 * with the address of another get it.
 */
#include "bind.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/memory.h"
#include "hopper/tmap.h"
#include "report/srcloc.h"

struct binder {
	struct diag *d;
	struct launch *L;
	unsigned ptr;               /* the module's pointer size                              */
	const struct ptxi_arg *args;
	unsigned nargs;
	const struct bind_bufs *bufs;
};

static int fail(struct diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct diag *d, const char *fmt, ...)
{
	char msg[600];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	diag_emit(d, DIAG_ERROR, NULL, (struct src_span){0, 0}, NULL, msg);
	return PTXI_INVALID;
}

int bind_memory_error(struct diag *d, const struct memory *mem, uint64_t bytes, const char *what)
{
	if (mem->limit && mem->used + bytes > mem->limit)
		return fail(d, "%s needs %llu bytes, past --max-memory %llu (the launch holds %llu)",
			    what, (unsigned long long)bytes, (unsigned long long)mem->limit,
			    (unsigned long long)mem->used);
	return fail(d, "out of memory for %s (%llu bytes)", what, (unsigned long long)bytes);
}

static const char *spec_of(const struct ptxi_arg *a)
{
	return a->spec ? a->spec : "?";
}

/* A device buffer holding a->init's bytes (or zeros): its address, 0 after a report. */
static uint64_t new_buffer(struct binder *b, const struct ptxi_arg *a, const char *name)
{
	uint64_t v = mem_alloc(b->L->mem, a->bytes, name);
	if (!v) {
		bind_memory_error(b->d, b->L->mem, a->bytes, a->spec ? a->spec : name);
		return 0;
	}
	if (a->init && a->bytes)
		memcpy(mem_find(b->L->mem, v, 1)->data, a->init, a->bytes);
	return v;
}

/* The named buffer (--buffer) called `name`, or -1. */
static int named_index(const struct binder *b, const char *name)
{
	for (unsigned i = 0; i < b->bufs->nnamed; i++)
		if (strcmp(b->bufs->named[i].symbol, name) == 0)
			return (int)i;
	return -1;
}

/* Buffer value v's address and size: the named buffer it refers to (buf=NAME), else a new
 * buffer of its own; 0 after a report. */
static uint64_t buffer_of(struct binder *b, const struct ptxi_arg *v, const char *name,
			  uint64_t *size)
{
	if (!v->ref) {
		*size = v->bytes;
		return new_buffer(b, v, name);
	}
	int k = named_index(b, v->ref);
	if (k < 0) {
		fail(b->d, "%s ('%s'): no --buffer %s was given", name, spec_of(v), v->ref);
		return 0;
	}
	*size = b->bufs->named[k].value.bytes;
	return b->bufs->named_addr[k];
}

/* Encode tensor map `a` at dst over the buffer at `base` (`size` bytes); `what` names it. */
static int put_tmap(struct binder *b, uint8_t *dst, const struct ptxi_arg *a, uint64_t base,
		    uint64_t size, const char *what)
{
	if (a->tmap_off > size)
		return fail(b->d, "%s ('%s'): its buffer has no byte %llu", what, spec_of(a),
			    (unsigned long long)a->tmap_off);
	struct ptxi_tmap_params tp = a->tmap;
	tp.global_address = base + a->tmap_off;
	char why[200];
	if (ptxi_tmap_encode(dst, &tp, why, sizeof why) != PTXI_OK)
		return fail(b->d, "%s ('%s'): %s", what, spec_of(a), why);
	return PTXI_OK;
}

static int tmap_arg_buffer(struct binder *b, const struct ptxi_arg *a, const char *what,
			   uint64_t *base, uint64_t *size);

/* The buffer field of struct value `s` at byte `at`, or NULL. */
static const struct ptxi_arg *buffer_field(const struct ptxi_arg *s, uint64_t at)
{
	for (unsigned i = 0; i < s->nfields; i++)
		if (s->fields[i].off == at && s->fields[i].value.kind == PTXI_ARG_BUFFER)
			return &s->fields[i].value;
	return NULL;
}

static uint64_t field_bytes(const struct binder *b, const struct ptxi_arg *v)
{
	return v->kind == PTXI_ARG_SCALAR ? v->size : v->kind == PTXI_ARG_TMAP ? TMAP_BYTES : b->ptr;
}

/* Each field of struct value `s` inside its bytes, and no two over the same byte (else one
 * would silently replace the other). */
static int check_fields(struct binder *b, const struct ptxi_arg *s, const char *what)
{
	for (unsigned i = 0; i < s->nfields; i++) {
		const struct ptxi_field *f = &s->fields[i];
		uint64_t n = field_bytes(b, &f->value);
		if (f->value.kind == PTXI_ARG_BYTES)
			return fail(b->d, "%s: field @%llu: a struct field cannot hold a struct "
				    "(give its bytes as fields of the outer one)", what,
				    (unsigned long long)f->off);
		if (f->off > s->bytes || n > s->bytes - f->off)
			return fail(b->d, "%s: field @%llu ('%s', %llu bytes) runs past the %zu "
				    "bytes of the struct", what, (unsigned long long)f->off,
				    spec_of(&f->value), (unsigned long long)n, s->bytes);
		for (unsigned j = 0; j < i; j++) {
			const struct ptxi_field *g = &s->fields[j];
			if (g->off < f->off + n && f->off < g->off + field_bytes(b, &g->value))
				return fail(b->d, "%s: fields @%llu ('%s') and @%llu ('%s') overlap",
					    what, (unsigned long long)g->off, spec_of(&g->value),
					    (unsigned long long)f->off, spec_of(&f->value));
		}
	}
	return PTXI_OK;
}

/* The fields of struct value `s` over its bytes at dst: scalars and buffers, then tensor
 * maps (which may name a buffer field). */
static int put_fields(struct binder *b, uint8_t *dst, const struct ptxi_arg *s, const char *what)
{
	if (check_fields(b, s, what))
		return PTXI_INVALID;
	if (s->init)
		memcpy(dst, s->init, s->bytes);
	for (int pass = 0; pass < 2; pass++)
		for (unsigned i = 0; i < s->nfields; i++) {
			const struct ptxi_field *f = &s->fields[i];
			const struct ptxi_arg *v = &f->value;
			if ((v->kind == PTXI_ARG_TMAP) != (pass == 1))
				continue;
			if (v->kind == PTXI_ARG_SCALAR) {
				memcpy(dst + f->off, &v->value, v->size);
			} else if (v->kind == PTXI_ARG_BUFFER) {
				uint64_t n, addr = buffer_of(b, v, "buffer of a struct field", &n);
				if (!addr)
					return PTXI_INVALID;
				memcpy(dst + f->off, &addr, b->ptr);
			} else {
				char w[200];
				snprintf(w, sizeof w, "%s: tensor map field @%llu", what,
					 (unsigned long long)f->off);
				uint64_t base = 0, size;
				if (!v->tmap_buf_field) { /* buf=K or buf=NAME */
					if (tmap_arg_buffer(b, v, w, &base, &size))
						return PTXI_INVALID;
				} else {
					const struct ptxi_arg *buf = buffer_field(s, v->tmap_buf_at);
					if (!buf)
						return fail(b->d, "%s ('%s'): buf=@%llu is not a buffer "
							    "field of the struct", w, spec_of(v),
							    (unsigned long long)v->tmap_buf_at);
					int n = buf->ref ? named_index(b, buf->ref) : -1;
					size = n >= 0 ? b->bufs->named[n].value.bytes : buf->bytes;
					memcpy(&base, dst + v->tmap_buf_at, b->ptr);
				}
				if (put_tmap(b, dst + f->off, v, base, size, w))
					return PTXI_INVALID;
			}
		}
	return PTXI_OK;
}

/* The buffer a tensor map names other than by a struct field: a named buffer or a module
 * .global variable (buf=NAME), or buffer argument K (buf=K); else a report. */
static int tmap_arg_buffer(struct binder *b, const struct ptxi_arg *a, const char *what,
			   uint64_t *base, uint64_t *size)
{
	unsigned k = a->tmap_buf;
	if (a->ref) {
		int n = named_index(b, a->ref);
		const struct ir_sym *v = n < 0 ? bind_find_var(b->L->P->m, a->ref) : NULL;
		if (n < 0 && (!v || v->space != MOD_GLOBAL))
			return fail(b->d, "%s ('%s'): buf=%s names no --buffer and no .global "
				    "variable of the module", what, spec_of(a), a->ref);
		*base = n >= 0 ? b->bufs->named_addr[n] : v->addr;
		*size = n >= 0 ? b->bufs->named[n].value.bytes : ir_sym_bytes(v);
		return PTXI_OK;
	}
	if (a->tmap_buf_field)
		return fail(b->d, "%s ('%s'): buf=@OFF names a field of a struct argument; here "
			    "name a buffer argument (buf=K)", what, spec_of(a));
	if (k >= b->nargs || !b->bufs->addr[k] || a->tmap_off > b->bufs->size[k])
		return fail(b->d, "%s ('%s'): buf=%u is not a buffer argument holding byte %llu",
			    what, spec_of(a), k, (unsigned long long)a->tmap_off);
	*base = b->bufs->addr[k];
	*size = b->bufs->size[k];
	return PTXI_OK;
}

/* "parameter 1 'scale' (float) of kernel 'scale(float*, float, int)'" into pb. */
static void param_of(const struct launch *L, unsigned i, struct strbuf *pb)
{
	struct strbuf k = {0};
	srcloc_param(L->P->m, L->kernel->ir, i, pb);
	srcloc_kernel(L->kernel->ir, &k);
	sb_printf(pb, " of kernel '%s'", k.s);
	sb_free(&k);
}

static int misfit(struct binder *b, unsigned i, const struct ir_sym *p)
{
	uint64_t psize = ir_sym_bytes(p);
	struct strbuf pb = {0};
	param_of(b->L, i, &pb);
	fail(b->d, "argument %u ('%s') does not fit %s, which is %llu byte%s", i + 1,
	     spec_of(&b->args[i]), pb.s, (unsigned long long)psize, psize == 1 ? "" : "s");
	sb_free(&pb);
	return PTXI_INVALID;
}

/* Argument i (not a tensor map) into its parameter's bytes at dst. */
static int put_arg(struct binder *b, unsigned i, const struct ir_sym *p, uint8_t *dst)
{
	const struct ptxi_arg *a = &b->args[i];
	uint64_t psize = ir_sym_bytes(p); /* the loader bounds the block: no wrap */
	char what[64];
	snprintf(what, sizeof what, "argument %u", i + 1);
	switch (a->kind) {
	case PTXI_ARG_BUFFER: {
		char name[40];
		snprintf(name, sizeof name, "buffer of argument %u", i);
		if (psize != b->ptr)
			return misfit(b, i, p);
		uint64_t n, v = buffer_of(b, a, name, &n);
		if (!v)
			return PTXI_INVALID;
		b->bufs->addr[i] = v;
		b->bufs->size[i] = n;
		memcpy(dst, &v, b->ptr);
		return PTXI_OK;
	}
	case PTXI_ARG_BYTES:
		if (a->bytes != psize)
			return misfit(b, i, p);
		return put_fields(b, dst, a, what);
	case PTXI_ARG_SCALAR: {
		bool pfloat = ir_type_is_float(p->type);
		if (a->size != psize || (a->is_float != pfloat && psize >= 4 && !p->is_array &&
					 p->type != MOD_B32 && p->type != MOD_B64))
			return misfit(b, i, p);
		memcpy(dst, &a->value, a->size);
		return PTXI_OK;
	}
	case PTXI_ARG_TMAP:
		break;
	}
	return PTXI_OK;
}

void bind_free(struct launch *L)
{
	free(L->kparams);
	L->kparams = NULL;
}

int bind_args(struct diag *d, struct launch *L, const struct ptxi_arg *args, unsigned nargs,
	      struct bind_bufs *bufs)
{
	const struct ir_func *f = L->kernel->ir;
	if (nargs != f->nparams) {
		struct strbuf k = {0};
		srcloc_kernel(f, &k);
		fail(d, "kernel '%s' takes %u parameter%s; %u --arg given", k.s, f->nparams,
		     f->nparams == 1 ? "" : "s", nargs);
		sb_free(&k);
		return PTXI_INVALID;
	}
	L->kparam_size = L->kernel->kparam_size;
	L->kparams = calloc(1, L->kparam_size ? L->kparam_size : 1);
	if (!L->kparams)
		return fail(d, "out of memory");
	struct binder b = {d, L, L->P->m->address_size == 32 ? 4 : 8, args, nargs, bufs};
	for (unsigned i = 0; i < bufs->nnamed; i++) {
		const struct ptxi_set *nb = &bufs->named[i];
		if (nb->value.kind != PTXI_ARG_BUFFER || nb->value.ref)
			return fail(d, "--buffer %s: '%s' is not a buffer (buf: or file:)", nb->symbol,
				    spec_of(&nb->value));
		if (!(bufs->named_addr[i] = new_buffer(&b, &nb->value, nb->symbol)))
			return PTXI_INVALID;
	}
	/* structs after the buffer arguments, whose addresses their tensor maps may take */
	for (int pass = 0; pass < 2; pass++)
		for (unsigned i = 0; i < nargs; i++)
			if ((args[i].kind == PTXI_ARG_BYTES) == (pass == 1) &&
			    put_arg(&b, i, f->params[i], L->kparams + f->params[i]->addr))
				return PTXI_INVALID;
	/* tensor maps last: the buffers they name have addresses now */
	for (unsigned i = 0; i < nargs; i++) {
		const struct ir_sym *p = f->params[i];
		if (args[i].kind != PTXI_ARG_TMAP)
			continue;
		if (ir_sym_bytes(p) != TMAP_BYTES) {
			struct strbuf pb = {0};
			param_of(L, i, &pb);
			fail(d, "tensor map argument %u ('%s') does not fit %s (%llu bytes; a tensor "
			     "map is 128)", i + 1, spec_of(&args[i]), pb.s,
			     (unsigned long long)ir_sym_bytes(p));
			sb_free(&pb);
			return PTXI_INVALID;
		}
		char what[64];
		snprintf(what, sizeof what, "tensor map argument %u", i + 1);
		uint64_t base, size;
		if (tmap_arg_buffer(&b, &args[i], what, &base, &size) ||
		    put_tmap(&b, L->kparams + p->addr, &args[i], base, size, what))
			return PTXI_INVALID;
	}
	return PTXI_OK;
}

const struct ir_sym *bind_find_var(const struct ir_module *m, const char *name)
{
	for (uint32_t i = 0; i < m->nvars; i++) {
		const struct ir_sym *s = m->vars[i];
		if ((s->space == MOD_GLOBAL || s->space == MOD_CONST) && strcmp(s->name, name) == 0)
			return s;
	}
	return NULL;
}

/* Where variable s lives in this launch: the .global block or the .const bank. */
static uint8_t *var_bytes(struct launch *L, const struct ir_sym *s, uint8_t *bank)
{
	if (s->space == MOD_CONST)
		return bank + s->addr;
	struct region *r = mem_find(L->mem, s->addr, ir_sym_bytes(s));
	return r ? r->data + (s->addr - r->base) : NULL;
}

/* One --set: value v into variable s. */
static int put_set(struct binder *b, const struct ptxi_set *set, const struct ir_sym *s,
		   uint8_t *dst)
{
	const struct ptxi_arg *v = &set->value;
	uint64_t size = ir_sym_bytes(s);
	char what[300];
	snprintf(what, sizeof what, "--set %s", set->symbol);
	uint64_t need = v->kind == PTXI_ARG_SCALAR ? v->size
			: v->kind == PTXI_ARG_BUFFER ? b->ptr
			: v->kind == PTXI_ARG_TMAP   ? TMAP_BYTES
						     : v->bytes;
	if (need > size || (v->kind != PTXI_ARG_BYTES && need != size))
		return fail(b->d, "%s: '%s' (%llu bytes) does not fit variable '%s' (%llu bytes)",
			    what, spec_of(v), (unsigned long long)need, s->name,
			    (unsigned long long)size);
	switch (v->kind) {
	case PTXI_ARG_SCALAR:
		memcpy(dst, &v->value, v->size);
		return PTXI_OK;
	case PTXI_ARG_BUFFER: {
		uint64_t n, addr = buffer_of(b, v, "buffer of a --set", &n);
		if (!addr)
			return PTXI_INVALID;
		memcpy(dst, &addr, b->ptr);
		return PTXI_OK;
	}
	case PTXI_ARG_TMAP: {
		uint64_t base, bsize;
		if (tmap_arg_buffer(b, v, what, &base, &bsize))
			return PTXI_INVALID;
		return put_tmap(b, dst, v, base, bsize, what);
	}
	case PTXI_ARG_BYTES:
		return put_fields(b, dst, v, what);
	}
	return PTXI_OK;
}

int bind_sets(struct diag *d, struct launch *L, const struct ptxi_set *sets, unsigned nsets,
	      const struct ptxi_arg *args, unsigned nargs, const struct bind_bufs *bufs,
	      uint8_t *bank)
{
	struct binder b = {d, L, L->P->m->address_size == 32 ? 4 : 8, args, nargs, bufs};
	for (unsigned i = 0; i < nsets; i++) {
		const struct ir_sym *s = bind_find_var(L->P->m, sets[i].symbol);
		if (!s)
			return fail(d, "--set %s: the module has no .global or .const variable of that "
				    "name", sets[i].symbol);
		uint8_t *dst = var_bytes(L, s, bank);
		if (!dst || put_set(&b, &sets[i], s, dst))
			return dst ? PTXI_INVALID
				   : fail(d, "--set %s: the variable has no bytes", sets[i].symbol);
	}
	return PTXI_OK;
}

void bind_relocs(struct launch *L, uint64_t gbase, uint8_t *bank)
{
	struct dprog *P = L->P;
	struct region *gr = P->global_size ? mem_find(L->mem, gbase, 1) : NULL;
	for (uint32_t i = 0; i < P->nrelocs; i++) {
		const struct reloc *r = &P->relocs[i];
		const struct ir_sym *s = r->sym;
		uint64_t a = s ? s->addr : 0;
		for (uint32_t k = 0; s && s->kind == SYM_FUNC && k < P->nfuncs; k++)
			if (P->funcs[k].ir == s->func)
				a = FUNC_ADDR_BASE + k;
		if (s && r->generic) {
			if (s->space == MOD_SHARED || s->space == MOD_SHARED_CTA)
				a += WIN_SHARED;
			else if (s->space == MOD_CONST)
				a += WIN_CONST;
		}
		a += (uint64_t)r->add;
		uint8_t *dst = r->in_const ? bank : gr ? gr->data : NULL;
		if (dst)
			memcpy(dst + r->at, &a, r->size); /* little-endian: the low bytes */
	}
}
