/*
 * paramuse.c - `ptxi info`'s map of a kernel's parameter bytes: which byte ranges the body
 * reads with ld.param (offset and width), and which it uses as global or generic addresses
 * or as tensor maps. With it a large parameter struct (CUTLASS's Params, kilobytes of it)
 * can be laid out from the PTX alone: each field a kernel touches, at its offset.
 *
 * One pass over the body in order follows where values come from: a register loaded from
 * parameter bytes, or holding the address of parameter bytes (mov of a parameter's name,
 * cvta.param, add of a constant). Uses are then charged to those bytes: cvta.to.global or a
 * .global access of a loaded value (a global address), a generic access (an address), the
 * map operand of a tensor instruction (the bytes themselves as a __grid_constant__ map, or a
 * loaded pointer to a map). Control flow is not followed: the pass sees each instruction
 * once, which is what nvcc's straight-line parameter loads need.
 */
#include "paramuse.h"

#include <stdlib.h>
#include <string.h>

#include "support/grow.h"

enum use {
	USE_VALUE = 1,          /* read, used as nothing below                          */
	USE_GLOBAL = 2,         /* a global address (cvta.to.global, .global access)     */
	USE_GENERIC = 4,        /* a generic address (ld/st/atom without a space)        */
	USE_TMAP = 8,           /* the bytes are a tensor map (__grid_constant__)        */
	USE_TMAP_PTR = 16,      /* a pointer to a tensor map                             */
};

enum origin { O_NONE, O_LOADED, O_POINTER, O_PARAM_ADDR };

/* Where a register's value came from: loaded from parameter bytes `off` (O_LOADED), an
 * address computed from such a value (O_POINTER), or the address of parameter byte `off`
 * (O_PARAM_ADDR). */
struct reg_origin {
	const struct ir_sym *sym;
	uint32_t index;
	enum origin kind;
	uint64_t off;
};

struct range {
	uint64_t off, bytes;
	unsigned uses;
};

struct pass {
	const struct ir_func *f;
	uint64_t *param_off;    /* each parameter's byte offset                              */
	struct reg_origin *regs;
	size_t nregs, capregs;
	struct range *ranges;
	size_t nranges, capranges;
	bool oom;
};

static struct reg_origin *reg_find(struct pass *s, const struct ir_operand *o)
{
	if (o->kind != OPND_REG || !o->ref.sym)
		return NULL;
	for (size_t i = s->nregs; i-- > 0;)
		if (s->regs[i].sym == o->ref.sym && s->regs[i].index == o->ref.index)
			return &s->regs[i];
	return NULL;
}

/* Set register operand o's origin (O_NONE forgets it). */
static void reg_set(struct pass *s, const struct ir_operand *o, enum origin kind, uint64_t off)
{
	if (o->kind != OPND_REG || !o->ref.sym)
		return;
	struct reg_origin *r = reg_find(s, o);
	if (!r) {
		if (kind == O_NONE)
			return;
		if (!grow_array((void **)&s->regs, &s->capregs, s->nregs, sizeof *s->regs, 32)) {
			s->oom = true;
			return;
		}
		r = &s->regs[s->nregs++];
		r->sym = o->ref.sym;
		r->index = o->ref.index;
	}
	r->kind = kind;
	r->off = off;
}

/* Charge `use` to bytes off..off+bytes-1 (a new range, or one already seen). */
static void charge(struct pass *s, uint64_t off, uint64_t bytes, unsigned use)
{
	for (size_t i = 0; i < s->nranges; i++)
		if (s->ranges[i].off == off && (s->ranges[i].bytes == bytes || !bytes)) {
			s->ranges[i].uses |= use;
			return;
		}
	if (!bytes)
		bytes = use & USE_TMAP ? 128 : 8;
	if (!grow_array((void **)&s->ranges, &s->capranges, s->nranges, sizeof *s->ranges, 32)) {
		s->oom = true;
		return;
	}
	s->ranges[s->nranges++] = (struct range){off, bytes, use};
}

/* The kernel parameter operand o names, or -1. */
static int param_index(const struct pass *s, const struct ir_operand *o)
{
	if (o->kind != OPND_SYM || !o->ref.sym)
		return -1;
	for (uint32_t i = 0; i < s->f->nparams; i++)
		if (s->f->params[i] == o->ref.sym)
			return (int)i;
	return -1;
}

/* The parameter byte an address operand (or a bare name, or a register holding a parameter
 * address) points at; false when it points elsewhere. */
static bool param_addr(struct pass *s, const struct ir_operand *o, uint64_t *off)
{
	int64_t add = 0;
	if (o->kind == OPND_ADDR) {
		add = o->addr.off;
		o = o->addr.base;
		if (!o)
			return false;
	}
	int p = param_index(s, o);
	if (p >= 0) {
		*off = s->param_off[p] + (uint64_t)add;
		return true;
	}
	const struct reg_origin *r = reg_find(s, o);
	if (r && r->kind == O_PARAM_ADDR) {
		*off = r->off + (uint64_t)add;
		return true;
	}
	return false;
}

/* A value operand (or an address's base) holding a value loaded from parameter bytes, or a
 * pointer made from one: its origin, or NULL. */
static const struct reg_origin *loaded(struct pass *s, const struct ir_operand *o)
{
	if (o->kind == OPND_ADDR)
		o = o->addr.base;
	const struct reg_origin *r = o ? reg_find(s, o) : NULL;
	return r && (r->kind == O_LOADED || r->kind == O_POINTER) ? r : NULL;
}

static bool has_mod(const struct ir_insn *in, enum ir_mod m)
{
	for (uint16_t i = 0; i < in->nmods; i++)
		if (in->mods[i] == m)
			return true;
	return false;
}

/* The state space written on a memory instruction, or MOD_NONE (generic). */
static enum ir_mod space_of(const struct ir_insn *in)
{
	for (uint16_t i = 0; i < in->nmods; i++)
		if (ir_mod_kind(in->mods[i]) == MK_SPACE)
			return in->mods[i];
	return MOD_NONE;
}

/* Bytes one element of the instruction's type takes, and its vector length. */
static unsigned elem_bytes(const struct ir_insn *in, unsigned *vec)
{
	unsigned size = 0;
	*vec = 1;
	for (uint16_t i = 0; i < in->nmods; i++) {
		enum ir_mod_kind k = ir_mod_kind(in->mods[i]);
		if (k == MK_TYPE)
			size = (unsigned)ir_type_size(in->mods[i]);
		else if (k == MK_VEC)
			*vec = (unsigned)ir_mod_arg(in->mods[i]);
	}
	return size;
}

static void ld_param(struct pass *s, const struct ir_insn *in)
{
	uint64_t off;
	unsigned vec, size = elem_bytes(in, &vec);
	if (in->nopnds < 2 || !param_addr(s, &in->opnds[1], &off) || !size)
		return;
	charge(s, off, (uint64_t)size * vec, USE_VALUE);
	const struct ir_operand *d = &in->opnds[0];
	if (d->kind == OPND_VEC) {
		for (uint32_t k = 0; k < d->vec.n; k++)
			reg_set(s, &d->vec.elems[k], O_LOADED, off + (uint64_t)k * size);
	} else {
		reg_set(s, d, O_LOADED, off);
	}
}

/* An address used by a memory instruction: charge the parameter bytes it came from. */
static void address_use(struct pass *s, const struct ir_operand *o, enum ir_mod space)
{
	const struct reg_origin *r = loaded(s, o);
	if (r && (space == MOD_GLOBAL || space == MOD_NONE))
		charge(s, r->off, 0, space == MOD_GLOBAL ? USE_GLOBAL : USE_GENERIC);
}

/* The map operand of a tensor instruction: parameter bytes (the map itself) or a loaded
 * pointer to a map. */
static void tmap_use(struct pass *s, const struct ir_operand *o)
{
	uint64_t off;
	if (o->kind == OPND_LIST && o->vec.n)
		o = &o->vec.elems[0];
	if (param_addr(s, o, &off)) {
		charge(s, off, 128, USE_TMAP);
		return;
	}
	const struct reg_origin *r = loaded(s, o);
	if (r)
		charge(s, r->off, 0, USE_TMAP_PTR);
}

/* A destination computed from sources: the address of parameter bytes stays one (through
 * mov, cvta.param, add of a constant); a pointer from parameter bytes stays a pointer. */
static void derive(struct pass *s, const struct ir_insn *in)
{
	const struct ir_operand *d = &in->opnds[0];
	uint64_t off;
	if (in->nopnds == 2 && param_addr(s, &in->opnds[1], &off)) {
		reg_set(s, d, O_PARAM_ADDR, off);
		return;
	}
	if (in->op == OP_ADD && in->nopnds == 3 && in->opnds[2].kind == OPND_IMM &&
	    param_addr(s, &in->opnds[1], &off)) {
		reg_set(s, d, O_PARAM_ADDR, off + (uint64_t)in->opnds[2].imm);
		return;
	}
	const struct reg_origin *r = NULL;
	for (uint16_t i = 1; i < in->nopnds && !r; i++)
		r = loaded(s, &in->opnds[i]);
	if (r && (in->op == OP_MOV || in->op == OP_ADD || in->op == OP_SUB || in->op == OP_MAD ||
		  in->op == OP_CVTA))
		reg_set(s, d, in->op == OP_MOV ? r->kind : O_POINTER, r->off);
	else
		reg_set(s, d, O_NONE, 0);
}

static void visit(struct pass *s, const struct ir_insn *in)
{
	enum ir_mod space = space_of(in);
	switch (in->op) {
	case OP_LD:
	case OP_LDU:
		if (space == MOD_PARAM || space == MOD_PARAM_ENTRY) {
			ld_param(s, in);
			return;
		}
		if (in->nopnds >= 2)
			address_use(s, &in->opnds[1], space);
		break;
	case OP_ST:
	case OP_ATOM:
	case OP_RED:
		if (in->nopnds >= 1)
			address_use(s, &in->opnds[in->op == OP_ATOM ? 1 : 0], space);
		break;
	case OP_CVTA:
		if (has_mod(in, MOD_TO) && space == MOD_GLOBAL && in->nopnds == 2) {
			const struct reg_origin *r = loaded(s, &in->opnds[1]);
			if (r)
				charge(s, r->off, 0, USE_GLOBAL);
		}
		break;
	case OP_CP_ASYNC_BULK_TENSOR:
	case OP_CP_REDUCE_ASYNC_BULK_TENSOR:
	case OP_CP_ASYNC_BULK_PREFETCH_TENSOR:
		for (uint16_t i = 0; i < in->nopnds; i++)
			if (in->opnds[i].kind == OPND_LIST)
				tmap_use(s, &in->opnds[i]);
		return;
	case OP_PREFETCH:
	case OP_TENSORMAP_REPLACE:
	case OP_TENSORMAP_CP_FENCEPROXY:
		if (in->op != OP_PREFETCH || has_mod(in, MOD_TENSORMAP))
			for (uint16_t i = 0; i < in->nopnds; i++)
				if (in->opnds[i].kind == OPND_ADDR)
					tmap_use(s, &in->opnds[i]);
		return;
	default:
		break;
	}
	if (in->op == OP_ST || in->op == OP_RED || !in->nopnds)
		return;
	if (in->opnds[0].kind == OPND_REG)
		derive(s, in);
	else if (in->opnds[0].kind == OPND_VEC)
		for (uint32_t k = 0; k < in->opnds[0].vec.n; k++)
			reg_set(s, &in->opnds[0].vec.elems[k], O_NONE, 0);
}

static int by_offset(const void *a, const void *b)
{
	const struct range *x = a, *y = b;
	return x->off < y->off ? -1 : x->off > y->off ? 1 : x->bytes < y->bytes ? -1 : x->bytes > y->bytes;
}

/* What the uses say, in words. */
static void use_words(unsigned uses, char *buf, size_t size)
{
	static const struct {
		unsigned use;
		const char *words;
	} names[] = {{USE_TMAP, "tensor map (the bytes themselves: __grid_constant__)"},
		     {USE_TMAP_PTR, "address of a tensor map"},
		     {USE_GLOBAL, "global address"},
		     {USE_GENERIC, "generic address (ld/st without a space)"}};
	size_t n = 0;
	buf[0] = 0;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (uses & names[i].use)
			n += (size_t)snprintf(buf + n, n < size ? size - n : 0, "%s%s", n ? "; " : "",
					      names[i].words);
	if (!n)
		snprintf(buf, size, "value");
}

/* The parameter holding byte `off`, and the byte's offset inside it. */
static const struct ir_sym *param_at(const struct pass *s, uint64_t off, uint64_t *rel)
{
	for (uint32_t i = s->f->nparams; i-- > 0;)
		if (s->param_off[i] <= off) {
			*rel = off - s->param_off[i];
			return s->f->params[i];
		}
	return NULL;
}

void paramuse_write(const struct ir_func *f, FILE *out)
{
	struct pass s = {.f = f};
	s.param_off = calloc(f->nparams ? f->nparams : 1, sizeof *s.param_off);
	if (!s.param_off)
		return;
	uint64_t used = 0;
	for (uint32_t i = 0; i < f->nparams; i++)
		s.param_off[i] = ir_place(&used, f->params[i]);
	for (uint32_t i = 0; i < f->ninsns && !s.oom; i++)
		visit(&s, &f->insns[i]);
	if (s.nranges) {
		qsort(s.ranges, s.nranges, sizeof *s.ranges, by_offset);
		fprintf(out, "  parameter bytes used (ld.param reads, and parameter addresses taken):\n"
			     "    offset  bytes  in parameter                               use\n");
		for (size_t i = 0; i < s.nranges; i++) {
			const struct range *r = &s.ranges[i];
			uint64_t rel = 0;
			const struct ir_sym *p = param_at(&s, r->off, &rel);
			char where[64], words[160];
			snprintf(where, sizeof where, "%s+%llu", p ? p->name : "?", (unsigned long long)rel);
			use_words(r->uses, words, sizeof words);
			fprintf(out, "    %-7llu %-6llu %-42s %s\n", (unsigned long long)r->off,
				(unsigned long long)r->bytes, where, words);
		}
	} else if (f->nparams) {
		fprintf(out, "  parameter bytes used: none read by ld.param\n");
	}
	if (s.oom)
		fprintf(out, "  (out of memory: the list above is incomplete)\n");
	free(s.param_off);
	free(s.regs);
	free(s.ranges);
}
