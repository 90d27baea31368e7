/*
 * load.c - decode once: turn a checked IR module into decoded functions. Registers become
 * slots, immediates 32-lane constant arrays, labels instruction indices, variables offsets
 * in their spaces (shared per CTA, local per frame, params per frame or kernel, const,
 * global). Anything the interpreter cannot execute is reported here, before any run.
 */
#include "load.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec.h"
#include "exec_alu.h"
#include "frame.h"
#include "interp.h"
#include "memory.h"
#include "regdef.h"
#include "shared_layout.h"
#include "smem.h"
#include "spin.h"
#include "hopper/wgmma.h"

/* What one thread's frame may hold: registers (slots of 32 lanes) and .local/.param bytes
 * (the hardware's local memory limit is 512 KiB per thread). */
#define MAX_SLOTS 65536u
#define MAX_LOCAL MAX_THREAD_STACK
#define MAX_CONST (64u * 1024u)         /* the .const bank                         */
#define MAX_GLOBAL_VARS (1u << 30)      /* module .global variables, 1 GiB         */
#define MAX_KPARAM PTX_MAX_KPARAM       /* a kernel's parameter block (ir.h)        */

struct loader {
	struct dprog *P;
	struct ir_module *m;
	uint64_t global_base;     /* where the module's .global block lies                */
	struct dfunc *fn;
	const struct ir_func *irf;
	struct ir_scope **scopes; /* every scope of the function being laid out */
	uint32_t nscopes, cap;
	uint64_t local_mod;       /* bytes of module-level .local variables      */
	int errors;
};

static void lerr(struct loader *ld, struct src_span sp, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void lerr(struct loader *ld, struct src_span sp, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vreport(ld->m->diag, DIAG_ERROR, ld->m->file, sp, fmt, ap);
	va_end(ap);
	ld->errors++;
}

/* A form ptxi cannot run (an instruction, or an operand form its handler does not take):
 * the module still loads, and a launch that reaches the instruction stops there with an
 * error naming it and `why` (exec_unsupported), so the module's other kernels run. Returns
 * true: the instruction is decoded, as that. */
static bool lunsup(struct loader *ld, struct dinsn *di, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static bool lunsup(struct loader *ld, struct dinsn *di, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	size_t n = strlen(buf) + 1;
	char *why = arena_alloc(ld->P->arena, n);
	memcpy(why, buf, n);
	di->unsup = why;
	di->exec = exec_unsupported;
	di->fam = FAM_UNSUPPORTED;
	di->flags &= ~(uint32_t)DF_ALU_DIRECT;
	return true;
}

/* Sizes and offsets are 64-bit and saturate at UINT64_MAX: a total never wraps below a
 * limit, so one comparison after the sum catches any oversized layout. */
static uint64_t align_up(uint64_t v, uint64_t a)
{
	if (!a)
		return v;
	return v > UINT64_MAX - (a - 1) ? UINT64_MAX : (v + a - 1) / a * a;
}

static uint64_t sym_size(const struct ir_sym *s)
{
	return ir_sym_bytes(s);
}

/* "N bytes" for messages; a saturated size says so. */
static const char *bytes_text(uint64_t n, char buf[40])
{
	if (n == UINT64_MAX)
		return "2^64 bytes or more";
	snprintf(buf, 40, "%llu bytes", (unsigned long long)n);
	return buf;
}

/* Place s at the next aligned offset of a space that holds *used bytes; returns the offset. */
static uint64_t place(uint64_t *used, const struct ir_sym *s)
{
	return ir_place(used, s);
}

/* ---- constant pool ------------------------------------------------------------------- */

static const uint64_t *splat(struct loader *ld, uint64_t v)
{
	uint64_t *p = arena_alloc(ld->P->arena, sizeof(uint64_t) * LANES);
	for (int i = 0; i < LANES; i++)
		p[i] = v;
	return p;
}


static uint64_t f64_bits(double d)
{
	uint64_t r;
	memcpy(&r, &d, 8);
	return r;
}

/* A double rounded to nearest into f32, f16 or bf16 by the ALU's own cvt (one rounding). */
static uint64_t cvt_rn_from_f64(double d, enum ir_mod t)
{
	struct alu_insn ai = {.op = OP_CVT, .type = t, .type2 = MOD_F64, .rnd = MOD_RN, .nsrc = 1};
	const char *why = NULL;
	if (alu_prepare(&ai, &why) != 0)
		return 0; /* not reached: these conversions are always implemented */
	uint64_t a[LANES], r[LANES];
	a[0] = f64_bits(d);
	struct alu_args x = {.d = r, .a = a};
	ai.fn(&ai, &x, 1u);
	return r[0];
}

/* The bits of a float literal as a value of type t (f32 bits when t is not a float type). */
static uint64_t float_bits(const struct ir_operand *o, enum ir_mod t)
{
	double d;
	if (o->fimm.is_f32) {
		uint32_t b = (uint32_t)o->fimm.bits;
		float f;
		memcpy(&f, &b, 4);
		if (ir_type_size(t) == 4 || t == MOD_NONE)
			return b;
		d = f;
	} else {
		memcpy(&d, &o->fimm.bits, 8);
	}
	if (ir_type_size(t) == 8)
		return f64_bits(d);
	return cvt_rn_from_f64(d, t == MOD_F16 || t == MOD_BF16 ? t : MOD_F32);
}


/* ---- layout -------------------------------------------------------------------------- */

static void add_scope(struct loader *ld, struct ir_scope *s)
{
	for (uint32_t i = 0; i < ld->nscopes; i++)
		if (ld->scopes[i] == s)
			return;
	if (ld->nscopes == ld->cap) {
		uint32_t cap = ld->cap ? ld->cap * 2 : 16;
		ld->scopes = arena_grow(ld->P->arena, ld->scopes, sizeof *ld->scopes, ld->nscopes, cap);
		ld->cap = cap;
	}
	ld->scopes[ld->nscopes++] = s;
}

static void collect_scopes(struct loader *ld, const struct ir_func *f)
{
	ld->nscopes = 0;
	if (f->scope)
		add_scope(ld, f->scope);
	for (uint32_t i = 0; i < f->ninsns; i++)
		for (struct ir_scope *s = f->insns[i].scope; s && s != f->scope; s = s->parent)
			add_scope(ld, s);
}

static void place_const_or_global(struct loader *ld, struct ir_sym *s)
{
	struct dprog *P = ld->P;
	bool is_const = s->space == MOD_CONST;
	uint32_t *size = is_const ? &P->const_size : &P->global_size;
	uint64_t used = *size;
	s->addr = place(&used, s);
	uint32_t limit = is_const ? MAX_CONST : MAX_GLOBAL_VARS;
	if (used > limit) {
		char b[40];
		lerr(ld, s->span, "variable '%s' (%s) takes the module's %s variables past %u bytes",
		     s->name, bytes_text(sym_size(s), b), is_const ? ".const" : ".global", limit);
		return;
	}
	*size = (uint32_t)used;
}

/* Write a variable's initializer into its bank (.const) or initial image (.global). */
static void write_init(struct loader *ld, struct ir_sym *s, uint8_t *bank)
{
	uint32_t esz = (uint32_t)ir_type_size(s->type);
	uint64_t total = sym_size(s);
	for (uint32_t i = 0; i < s->ninit && (uint64_t)(i + 1) * esz <= total; i++) {
		const struct ir_init *in = &s->init[i];
		uint8_t *at = bank + s->addr + (uint64_t)i * esz;
		uint64_t v = 0;
		switch (in->kind) {
		case INIT_INT:
			v = (uint64_t)in->i;
			break;
		case INIT_F32:
		case INIT_F64: {
			struct ir_operand o = {.kind = OPND_FIMM};
			o.fimm.is_f32 = in->kind == INIT_F32;
			o.fimm.bits = in->bits;
			if (in->kind == INIT_F64 && !in->bits) {
				memcpy(&o.fimm.bits, &in->f, 8);
			}
			v = float_bits(&o, s->type);
			break;
		}
		case INIT_SYM:
		case INIT_GENERIC_SYM: {
			struct dprog *P = ld->P;
			P->relocs = arena_grow(P->arena, P->relocs, sizeof *P->relocs, P->nrelocs,
					       P->nrelocs + 1);
			P->relocs[P->nrelocs++] = (struct reloc){s->space == MOD_CONST,
								 (uint32_t)(s->addr + (uint64_t)i * esz),
								 in->sym, in->i,
								 in->kind == INIT_GENERIC_SYM,
								 (uint8_t)(esz > 8 ? 8 : esz)};
			continue;
		}
		}
		memcpy(at, &v, esz > 8 ? 8 : esz);
	}
}

static void layout_module(struct loader *ld)
{
	struct ir_module *m = ld->m;
	for (uint32_t i = 0; i < m->nvars; i++) {
		struct ir_sym *s = m->vars[i];
		if (s->space == MOD_CONST || s->space == MOD_GLOBAL)
			place_const_or_global(ld, s);
		else if (s->space == MOD_LOCAL) {
			s->addr = place(&ld->local_mod, s);
		}
	}
	struct dprog *P = ld->P;
	if (ld->errors)
		return; /* a variable past its space's limit has no bytes to initialize */
	P->const_bytes = arena_alloc(P->arena, P->const_size ? P->const_size : 1);
	P->global_init = arena_alloc(P->arena, P->global_size ? P->global_size : 1);
	for (uint32_t i = 0; i < m->nvars; i++) {
		struct ir_sym *s = m->vars[i];
		if (s->space == MOD_CONST)
			write_init(ld, s, P->const_bytes);
		else if (s->space == MOD_GLOBAL) {
			write_init(ld, s, P->global_init);
			s->addr += ld->global_base; /* where the module block is allocated */
		}
	}
}

/* Slots a register takes: a .b128 register is a pair, low half first (two 64-bit slots). */
static uint32_t reg_slots(const struct ir_sym *s)
{
	return s->type == MOD_B128 ? 2 : 1;
}

/* Registers, frame-local variables and frame params of one function. */
static void layout_function(struct loader *ld, struct dfunc *df, const struct ir_func *f)
{
	collect_scopes(ld, f);
	uint32_t slot = 0;
	uint64_t slot_total = 0; /* counted wide: %r<4000000000> must not wrap */
	uint64_t local = ld->local_mod, param = 0, kparam = 0;
	for (uint32_t i = 0; i < f->nparams; i++) {
		struct ir_sym *s = f->params[i];
		if (s->space != MOD_REG) /* kernels: the parameter block, shared by all threads */
			s->addr = place(f->is_entry ? &kparam : &param, s);
	}
	for (uint32_t i = 0; i < f->nrets; i++)
		if (f->rets[i]->space != MOD_REG)
			f->rets[i]->addr = place(&param, f->rets[i]);
	for (uint32_t k = 0; k < ld->nscopes; k++) {
		for (struct ir_sym *s = ld->scopes[k]->syms; s; s = s->next_in_scope) {
			if (s->kind == SYM_REG) {
				s->slot = (int32_t)slot;
				slot_total += (uint32_t)(s->vec > 1 ? s->vec : 1) * reg_slots(s);
				slot = slot_total > MAX_SLOTS ? MAX_SLOTS : (uint32_t)slot_total;
			} else if (s->kind == SYM_REGRANGE) {
				s->slot = (int32_t)slot;
				slot_total += (uint64_t)s->range_n * reg_slots(s);
				slot = slot_total > MAX_SLOTS ? MAX_SLOTS : (uint32_t)slot_total;
			} else if (s->kind == SYM_VAR && s->space == MOD_LOCAL) {
				s->addr = place(&local, s);
			} else if (s->kind == SYM_VAR && s->space == MOD_PARAM && !s->is_param &&
				   !s->is_retparam) {
				s->addr = place(&param, s);
			}
		}
	}
	/* .reg formal parameters are registers of the callee */
	for (uint32_t i = 0; i < f->nparams; i++)
		if (f->params[i]->space == MOD_REG && f->params[i]->slot < 0) {
			f->params[i]->slot = (int32_t)slot;
			slot += reg_slots(f->params[i]);
		}
	for (uint32_t i = 0; i < f->nrets; i++)
		if (f->rets[i]->space == MOD_REG && f->rets[i]->slot < 0) {
			f->rets[i]->slot = (int32_t)slot;
			slot += reg_slots(f->rets[i]);
		}
	df->nslots = slot + 1; /* one scratch slot for sinks */
	if (slot_total > MAX_SLOTS)
		lerr(ld, f->span, "function '%s' declares %llu registers; ptxi supports up to %u",
		     df->name, (unsigned long long)slot_total, MAX_SLOTS);
	char b[40];
	if (local > MAX_LOCAL || param > MAX_LOCAL)
		lerr(ld, f->span, "function '%s' needs %s of %s per thread; the limit is %u",
		     df->name, bytes_text(local > MAX_LOCAL ? local : param, b),
		     local > MAX_LOCAL ? ".local memory" : "parameters", MAX_LOCAL);
	if (kparam > MAX_KPARAM)
		lerr(ld, f->span, "kernel '%s' has %s of parameters; the limit is %u", df->name,
		     bytes_text(kparam, b), MAX_KPARAM);
	/* within the limits now (or reported): the sizes fit 32 bits */
	df->local_size = (uint32_t)align_up(local > MAX_LOCAL ? 0 : local, 16);
	df->param_size = (uint32_t)align_up(param > MAX_LOCAL ? 0 : param, 8);
	df->kparam_size = (uint32_t)(kparam > MAX_KPARAM ? 0 : kparam);
}

/* ---- operands ------------------------------------------------------------------------ */

/* The space a state-space modifier names (MS_GENERIC when none is written). Parameters
 * start as kernel params; var_space and settle_space refine them. */
static enum mspace space_of(enum ir_mod m)
{
	switch (m) {
	case MOD_SHARED:
	case MOD_SHARED_CTA:
		return MS_SHARED_CTA;
	case MOD_SHARED_CLUSTER:
		return MS_SHARED_CLUSTER;
	case MOD_GLOBAL:
		return MS_GLOBAL;
	case MOD_LOCAL:
		return MS_LOCAL;
	case MOD_CONST:
		return MS_CONST;
	case MOD_PARAM:
	case MOD_PARAM_ENTRY:
	case MOD_PARAM_FUNC:
		return MS_PARAM_KERNEL;
	case MOD_NONE:
		return MS_GENERIC;
	default:
		return MS_NONE;
	}
}

/* The space of a variable; a .param is the kernel's block only for a kernel's own formal
 * parameters, otherwise it lives in the frame. */
static enum mspace var_space(struct loader *ld, const struct ir_sym *s)
{
	enum mspace sp = s->space == MOD_NONE ? MS_NONE : space_of(s->space);
	if (sp == MS_PARAM_KERNEL && !(s->is_param && ld->irf->is_entry && !s->is_retparam))
		return MS_PARAM_FRAME;
	return sp;
}

static struct dfunc *func_of(struct loader *ld, const struct ir_sym *s)
{
	for (uint32_t i = 0; i < ld->P->nfuncs; i++)
		if (ld->P->funcs[i].ir == s->func)
			return &ld->P->funcs[i];
	return NULL;
}

static bool decode_opnd(struct loader *ld, const struct ir_operand *o, enum ir_mod t,
			struct dop *d)
{
	memset(d, 0, sizeof *d);
	d->neg = o->neg;
	const struct ir_sym *s = (o->kind == OPND_REG || o->kind == OPND_SYM) ? o->ref.sym : NULL;
	switch (o->kind) {
	case OPND_REG: {
		if (!s)
			goto bad;
		if (s->kind == SYM_SREG) {
			d->kind = DOP_SREG;
			d->sreg = (uint8_t)s->sreg;
			if (s->sreg == SREG_ENVREG1 || s->sreg == SREG_ENVREG2)
				ld->P->reads_grid_ws = true;
			if (s->sreg >= SREG_RESERVED_SMEM_OFFSET_BEGIN &&
			    s->sreg <= SREG_RESERVED_SMEM_OFFSET_1)
				ld->P->reserved_smem = true; /* sreg.def keeps the five in a row */
			d->comp = (uint8_t)(o->ref.comp < 0 ? 0 : o->ref.comp);
			return true;
		}
		if (s->kind == SYM_REG || s->kind == SYM_REGRANGE) {
			d->kind = DOP_REG;
			d->slot = (uint32_t)s->slot + ((s->kind == SYM_REGRANGE ? o->ref.index : 0) +
				  (uint32_t)(o->ref.comp > 0 ? o->ref.comp : 0)) * reg_slots(s);
			d->reg_size = (uint8_t)ir_type_size(s->type);
			return true;
		}
		if (s->kind == SYM_VAR)
			goto var;
		if (s->kind == SYM_FUNC)
			goto func;
		goto bad;
	}
	case OPND_SYM: {
		if (!s)
			goto bad;
		if (s->kind == SYM_FUNC)
			goto func;
		if (s->kind == SYM_VAR) {
		var:
			d->kind = DOP_SYMADDR;
			d->space = (uint8_t)var_space(ld, s);
			d->off = (int64_t)s->addr;
			d->sym = s;
			return true;
		}
		if (s->kind == SYM_REG || s->kind == SYM_REGRANGE) {
			d->kind = DOP_REG;
			d->slot = (uint32_t)s->slot +
				  (s->kind == SYM_REGRANGE ? o->ref.index : 0) * reg_slots(s);
			d->reg_size = (uint8_t)ir_type_size(s->type);
			return true;
		}
		d->kind = DOP_NONE; /* labels, prototypes: used by the op decoder */
		d->sym = s;
		return true;
	func:
		d->kind = DOP_FUNC;
		d->func = func_of(ld, s);
		d->sym = s;
		return d->func != NULL;
	}
	case OPND_IMM:
		d->kind = DOP_IMM;
		d->off = o->imm;
		if (t && ir_type_is_float(t)) {
			/* an integer literal in a float instruction means that value */
			struct ir_operand f = {.kind = OPND_FIMM};
			double v = (double)o->imm;
			memcpy(&f.fimm.bits, &v, 8);
			d->imm = splat(ld, float_bits(&f, t));
		} else {
			d->imm = splat(ld, (uint64_t)o->imm);
		}
		return true;
	case OPND_FIMM:
		d->kind = DOP_IMM;
		d->imm = splat(ld, float_bits(o, t ? t : MOD_F32));
		return true;
	case OPND_ADDR:
		d->kind = DOP_ADDR;
		d->off = o->addr.off;
		if (o->addr.base) {
			const struct ir_operand *b = o->addr.base;
			const struct ir_sym *s = b->ref.sym;
			if (!s)
				goto bad;
			if (s->kind == SYM_REG || s->kind == SYM_REGRANGE) {
				d->has_reg = true;
				d->slot = (uint32_t)s->slot +
					  ((s->kind == SYM_REGRANGE ? b->ref.index : 0) +
					   (uint32_t)(b->ref.comp > 0 ? b->ref.comp : 0)) * reg_slots(s);
			} else if (s->kind == SYM_VAR) {
				d->space = (uint8_t)var_space(ld, s);
				d->off += (int64_t)s->addr;
				d->sym = s;
			} else {
				goto bad;
			}
		}
		return true;
	case OPND_VEC:
		d->kind = DOP_VEC;
		d->nelem = (uint8_t)o->vec.n;
		d->elems = arena_alloc(ld->P->arena, sizeof(struct dop) * (o->vec.n ? o->vec.n : 1));
		for (uint32_t i = 0; i < o->vec.n; i++)
			if (!decode_opnd(ld, &o->vec.elems[i], t, &d->elems[i]))
				return false;
		return true;
	case OPND_SINK:
		d->kind = DOP_SINK;
		return true;
	default:
		goto bad;
	}
bad:
	lerr(ld, o->span, "operand not supported here");
	return false;
}

/* ---- modifiers ----------------------------------------------------------------------- */

struct mods {
	enum ir_mod types[3];
	int ntypes;
	enum ir_mod spaces[3];
	int nspaces;
	enum ir_mod vec, rnd, cmp, sem, scope, boolop, mode, atomop, cache;
	bool has[MOD__COUNT];
};

static bool is_atom_op(enum ir_mod m)
{
	return m == MOD_ADD || m == MOD_MIN || m == MOD_MAX || m == MOD_INC || m == MOD_DEC ||
	       m == MOD_CAS || m == MOD_EXCH || m == MOD_AND || m == MOD_OR || m == MOD_XOR;
}

static void read_mods(enum ir_op op, const enum ir_mod *mods, uint32_t nmods, struct mods *md)
{
	memset(md, 0, sizeof *md);
	for (uint32_t i = 0; i < nmods; i++) {
		enum ir_mod m = mods[i];
		md->has[m] = true;
		switch (ir_mod_kind(m)) {
		case MK_TYPE:
			if (md->ntypes < 3)
				md->types[md->ntypes++] = m;
			break;
		case MK_SPACE:
			if (md->nspaces < 3)
				md->spaces[md->nspaces++] = m;
			break;
		case MK_VEC:
			md->vec = m;
			break;
		case MK_ROUND:
			md->rnd = m;
			break;
		case MK_CMP:
			md->cmp = m;
			break;
		case MK_SEM:
			md->sem = m;
			break;
		case MK_SCOPE:
			md->scope = m;
			break;
		case MK_CACHE:
			md->cache = m;
			break;
		default:
			if (m == MOD_LO || m == MOD_HI) {
				if (!md->cmp && (op == OP_SETP || op == OP_SET))
					md->cmp = m;
			} else if (m == MOD_AND || m == MOD_OR || m == MOD_XOR) {
				if (op == OP_SETP || op == OP_SET)
					md->boolop = m;
			}
			if (is_atom_op(m) && !md->atomop)
				md->atomop = m;
			if (m == MOD_F4E || m == MOD_B4E || m == MOD_RC8 || m == MOD_ECL ||
			    m == MOD_ECR || m == MOD_RC16 || m == MOD_FINITE || m == MOD_INFINITE ||
			    m == MOD_NUMBER || m == MOD_NOTANUMBER || m == MOD_NORMAL ||
			    m == MOD_SUBNORMAL || m == MOD_UP || m == MOD_DOWN || m == MOD_BFLY ||
			    m == MOD_IDX || m == MOD_ALL || m == MOD_ANY || m == MOD_UNI ||
			    m == MOD_BALLOT || m == MOD_POPC)
				md->mode = m;
			break;
		}
	}
}

/* ---- per-family decoding ------------------------------------------------------------- */

static uint32_t alu_flags(const struct mods *md, enum ir_op op)
{
	uint32_t f = 0;
	f |= md->has[MOD_SAT] ? ALU_SAT : 0;
	f |= md->has[MOD_FTZ] ? ALU_FTZ : 0;
	f |= md->has[MOD_WIDE] ? ALU_WIDE : 0;
	f |= md->has[MOD_CC] ? ALU_CC : 0;
	f |= md->has[MOD_APPROX] ? ALU_APPROX : 0;
	f |= md->has[MOD_FULL] ? ALU_FULL : 0;
	f |= md->has[MOD_RELU] ? ALU_RELU : 0;
	f |= md->has[MOD_NANMOD] ? ALU_NAN : 0;
	f |= md->has[MOD_XORSIGN] ? ALU_XORSIGN : 0;
	f |= md->has[MOD_SHIFTAMT] ? ALU_SHIFTAMT : 0;
	f |= md->has[MOD_CLAMP] ? ALU_CLAMP : 0;
	f |= md->has[MOD_L] ? ALU_LEFT : 0;
	f |= md->has[MOD_SATFINITE] ? ALU_SATFINITE : 0;
	f |= md->has[MOD_OOB] ? ALU_OOB : 0;
	if (op != OP_SETP && op != OP_SET) {
		f |= md->has[MOD_HI] ? ALU_HI : 0;
		f |= md->has[MOD_LO] ? ALU_LO : 0;
	}
	return f;
}

/* How each opcode's floating-point literal sources are encoded (ops.def's LITERALS). */
enum lit_type { LIT_TYPE, LIT_TYPE2, LIT_TYPE2_C, LIT_BITS, LIT_F32 };
static const uint8_t op_lits[OP__COUNT] = {
#define OP(name, spelling, family, dests, lits, decode, exec, check) [OP_##name] = LIT_##lits,
#include "front/ops.def"
#undef OP
};

/* The type of source i for float-literal encoding. */
static enum ir_mod src_type(const struct dinsn *di, uint32_t i)
{
	switch ((enum lit_type)op_lits[di->op]) {
	case LIT_TYPE2:
		return (enum ir_mod)di->type2;
	case LIT_TYPE2_C:
		return i == 2 ? (enum ir_mod)di->type2 : (enum ir_mod)di->type;
	case LIT_BITS:
		return MOD_NONE;
	case LIT_F32:
		return MOD_F32;
	case LIT_TYPE:
		break;
	}
	return (enum ir_mod)di->type;
}

/* Destinations first (count `ndst`), then sources into di->s. */
static bool decode_operands(struct loader *ld, const struct ir_insn *in, struct dinsn *di,
			    int ndst)
{
	int k = 0;
	if (ndst >= 1 && in->nopnds >= 1) {
		const struct ir_operand *o = &in->opnds[0];
		if (o->kind == OPND_DUAL) {
			if (!decode_opnd(ld, &o->vec.elems[0], (enum ir_mod)di->type, &di->d) ||
			    !decode_opnd(ld, &o->vec.elems[1], MOD_PRED, &di->d2))
				return false;
		} else if (!decode_opnd(ld, o, (enum ir_mod)di->type, &di->d)) {
			return false;
		}
		k = 1;
	}
	di->nsrc = 0;
	for (; k < in->nopnds; k++) {
		if (di->nsrc >= 5) {
			if (k == in->nopnds - 1 && in->op == OP_CP_ASYNC_BULK)
				break; /* cache-policy operand: a hint */
			lerr(ld, in->opnds[k].span, "too many operands");
			return false;
		}
		if (!decode_opnd(ld, &in->opnds[k], src_type(di, di->nsrc), &di->s[di->nsrc]))
			return false;
		di->nsrc++;
	}
	return true;
}

/* SIMD video instructions (vadd2 ... vset4) carry a third type and a secondary op. */
static bool is_video_op(enum ir_op op)
{
	return (op >= OP_VADD2 && op <= OP_VSET2) || (op >= OP_VADD4 && op <= OP_VSET4);
}

/* The ALU fields of an instruction from its modifiers. SIMD video instructions: boolop =
 * btype (the last type), mode = the secondary operation (.add) or none (merge). */
static void alu_fill(struct alu_insn *ai, enum ir_op op, const struct mods *md)
{
	memset(ai, 0, sizeof *ai);
	ai->op = op;
	ai->type = md->types[0];
	ai->type2 = md->ntypes > 1 ? md->types[1] : MOD_NONE;
	ai->rnd = md->rnd;
	ai->cmp = md->cmp;
	ai->boolop = md->boolop;
	ai->mode = md->mode;
	ai->flags = alu_flags(md, op);
	if (is_video_op(op)) {
		bool vset = op == OP_VSET2 || op == OP_VSET4;
		/* without all its types, no btype: alu_prepare then refuses the form */
		ai->boolop = md->ntypes == (vset ? 2 : 3) ? md->types[md->ntypes - 1] : MOD_NONE;
		ai->mode = md->atomop;
	}
}

void alu_decode(struct alu_insn *ai, enum ir_op op, const enum ir_mod *mods, unsigned nmods,
		int nsrc)
{
	struct mods md;
	read_mods(op, mods, nmods, &md);
	alu_fill(ai, op, &md);
	ai->nsrc = nsrc;
}

/* An ALU instruction whose destination is a register, whose second destination is a
 * register or none, and whose sources are registers and immediates (no `!p`) runs on the
 * dispatch loop's direct path: each operand's lane array is found from `aref` alone. */
static void resolve_direct(struct dinsn *di)
{
	const struct dop *ops[6] = {&di->d, &di->d2, &di->s[0], &di->s[1], &di->s[2], &di->s[3]};
	struct alu_ref ref = {{0}, {0}};
	if (di->d.kind != DOP_REG)
		return;
	for (uint32_t i = 0; i < 6; i++) {
		const struct dop *o = ops[i];
		if ((i >= 2 && i - 2 >= di->nsrc) || (i == 1 && o->kind != DOP_REG))
			continue; /* none: NULL, as alu_args has it */
		if (o->neg)
			return;
		if (o->kind == DOP_REG) {
			ref.at[i] = (uintptr_t)o->slot * LANES * sizeof(uint64_t);
			ref.rel[i] = UINTPTR_MAX;
		} else if (o->kind == DOP_IMM) {
			ref.at[i] = (uintptr_t)o->imm;
		} else {
			return;
		}
	}
	di->aref = ref;
	di->flags |= DF_ALU_DIRECT;
}

static bool decode_alu(struct loader *ld, const struct ir_insn *in, struct dinsn *di,
		       const struct mods *md)
{
	struct alu_insn *ai = &di->alu;
	alu_fill(ai, in->op, md);
	di->type = (uint8_t)ai->type;
	di->type2 = (uint8_t)ai->type2;
	bool vset = in->op == OP_VSET2 || in->op == OP_VSET4;
	if (is_video_op(in->op) && md->ntypes != (vset ? 2 : 3)) {
		lerr(ld, in->op_span, "'%.*s' needs %s", (int)in->op_span.len,
		     ld->m->file->text + in->op_span.off, vset ? ".atype.btype" : ".dtype.atype.btype");
		return false;
	}
	if (!decode_operands(ld, in, di, 1))
		return false;
	ai->nsrc = di->nsrc;
	const char *why = NULL;
	if (alu_prepare(ai, &why) != 0) {
		return lunsup(ld, di, "%s", why ? why : "not implemented");
	}
	resolve_direct(di);
	return true;
}

/* The space an instruction's address resolves in: written space, else the variable's. */
/* The bytes of the register an instruction's first (address) operand is based on; 0 when
 * it has none. */
static uint64_t addr_reg_bytes(const struct ir_insn *in)
{
	const struct ir_operand *b = in->nopnds && in->opnds[0].kind == OPND_ADDR
					     ? in->opnds[0].addr.base : NULL;
	return b && b->kind == OPND_REG && b->ref.sym ? ir_type_size(b->ref.sym->type) : 0;
}

static void settle_space(struct loader *ld, struct dinsn *di, const struct dop *addr)
{
	if (di->space == MS_PARAM_KERNEL)
		di->space = ld->irf->is_entry ? MS_PARAM_KERNEL : MS_PARAM_FRAME;
	if (addr->kind != DOP_ADDR || addr->has_reg || !addr->sym)
		return;
	if (di->space == MS_GENERIC || di->space == MS_PARAM_KERNEL ||
	    di->space == MS_PARAM_FRAME)
		di->space = addr->space;
}

static bool decode_branch(struct loader *ld, const struct ir_insn *in, struct dinsn *di)
{
	if (in->nopnds < 1 || !in->opnds[0].ref.sym ||
	    in->opnds[0].ref.sym->kind != SYM_LABEL) {
		lerr(ld, in->span, "bra needs a label");
		return false;
	}
	di->target = in->opnds[0].ref.sym->label_index;
	return true;
}

/* Each argument and result slot of a direct call against the callee's declaration: a
 * .param operand has the parameter's size (ptxas rejects a mismatch too); the copy at run
 * time would otherwise read or write past one of the two frames. */
static bool call_operands_fit(struct loader *ld, const struct ir_insn *in, struct dinsn *di)
{
	const struct ir_func *irf = di->callee->ir;
	for (uint32_t i = 0; i < irf->nparams + irf->nrets; i++) {
		bool ret = i >= irf->nparams;
		const struct ir_sym *p = ret ? irf->rets[i - irf->nparams] : irf->params[i];
		const struct dop *o = ret ? &di->d.elems[i - irf->nparams] : &di->s[1].elems[i];
		if (call_operand_fits(o, p))
			continue;
		if (o->kind == DOP_SYMADDR && o->space == MS_PARAM_FRAME)
			lerr(ld, in->span, "%s %u of the call of '%s' is '%s' (%llu bytes); %s '%s' is "
			     "%llu bytes", ret ? "result" : "argument", ret ? i - irf->nparams + 1 : i + 1,
			     di->callee->name, o->sym->name,
			     (unsigned long long)ir_sym_bytes(o->sym), ret ? "its result" : "its parameter",
			     p->name, (unsigned long long)ir_sym_bytes(p));
		else
			lerr(ld, in->span, "%s %u of the call of '%s' is a single value; %s '%s' is %llu "
			     "bytes and needs a .param variable of that size", ret ? "result" : "argument",
			     ret ? i - irf->nparams + 1 : i + 1, di->callee->name,
			     ret ? "its result" : "its parameter", p->name,
			     (unsigned long long)ir_sym_bytes(p));
		return false;
	}
	return true;
}

static bool decode_call(struct loader *ld, const struct ir_insn *in, struct dinsn *di)
{
	int k = 0;
	struct dop *rets = NULL, *args = NULL;
	uint32_t nrets = 0, nargs = 0;
	if (k < in->nopnds && in->opnds[k].kind == OPND_LIST && in->nopnds > 1) {
		const struct ir_operand *l = &in->opnds[k++];
		nrets = l->vec.n;
		rets = arena_alloc(ld->P->arena, sizeof *rets * (nrets + 1));
		for (uint32_t i = 0; i < nrets; i++)
			if (!decode_opnd(ld, &l->vec.elems[i], MOD_NONE, &rets[i]))
				return false;
	}
	if (k >= in->nopnds) {
		lerr(ld, in->span, "call without a target");
		return false;
	}
	const struct ir_operand *t = &in->opnds[k++];
	if (!decode_opnd(ld, t, MOD_NONE, &di->s[0]))
		return false;
	if (di->s[0].kind == DOP_FUNC) {
		di->callee = di->s[0].func; /* without a body: the device runtime (devrt.c) */
	} else if (di->s[0].kind != DOP_REG) {
		lerr(ld, t->span, "call target must be a function or a register");
		return false;
	}
	if (k < in->nopnds && in->opnds[k].kind == OPND_LIST) {
		const struct ir_operand *l = &in->opnds[k++];
		nargs = l->vec.n;
		args = arena_alloc(ld->P->arena, sizeof *args * (nargs + 1));
		for (uint32_t i = 0; i < nargs; i++)
			if (!decode_opnd(ld, &l->vec.elems[i], MOD_NONE, &args[i]))
				return false;
	}
	if (nargs > UINT8_MAX || nrets > UINT8_MAX) {
		lerr(ld, in->span, "call with %u arguments and %u results; ptxi supports up to %u "
		     "of each", nargs, nrets, UINT8_MAX);
		return false;
	}
	di->d.kind = DOP_VEC;
	di->d.elems = rets;
	di->d.nelem = (uint8_t)nrets;
	di->s[1].kind = DOP_VEC;
	di->s[1].elems = args;
	di->s[1].nelem = (uint8_t)nargs;
	if (di->callee && (nargs != di->callee->ir->nparams || nrets != di->callee->ir->nrets)) {
		lerr(ld, in->span, "call of '%s' with %u argument(s) and %u result(s); it takes %u "
		     "and %u", di->callee->name, nargs, nrets, di->callee->ir->nparams,
		     di->callee->ir->nrets);
		return false;
	}
	return di->callee ? call_operands_fit(ld, in, di) : true;
}

/* Atomics: integer and bit types run in exec_mem.c; float types (f16/bf16 and their x2 forms,
 * f32, f64) take the new value from the ALU's own add/min/max, prepared here. atom.add.f32
 * rounds to nearest and flushes subnormals (ISA 9.7.9.24). */
static bool decode_atom_type(struct loader *ld, const struct ir_insn *in, struct dinsn *di,
			     const struct mods *md)
{
	enum ir_mod t = md->types[0];
	const char *why = NULL;
	if (di->vec > 1)
		why = "vector atomics are not implemented";
	else if (ir_type_is_float(t)) {
		enum ir_op op = md->atomop == MOD_ADD ? OP_ADD : md->atomop == MOD_MIN ? OP_MIN
			      : md->atomop == MOD_MAX ? OP_MAX : OP__COUNT;
		if (op == OP__COUNT)
			why = "only add, min and max exist for floating-point atomics";
		else {
			di->alu = (struct alu_insn){.op = op, .type = t, .nsrc = 2,
						    .rnd = op == OP_ADD ? MOD_RN : MOD_NONE,
						    .flags = op == OP_ADD && t == MOD_F32 ? ALU_FTZ : 0};
			if (alu_prepare(&di->alu, &why) != 0)
				di->alu.fn = NULL;
		}
	} else if (t == MOD_B128) {
		if (in->op != OP_ATOM || (md->atomop != MOD_CAS && md->atomop != MOD_EXCH))
			why = "a .b128 atomic is atom.cas or atom.exch";
	} else if (ir_type_size(t) != 4 && ir_type_size(t) != 8) {
		why = "atomics on this type are not implemented";
	}
	if (!why)
		return true;
	return lunsup(ld, di, "%s", why);
}

/* st.async / red.async [a], b, [mbar] (ISA 9.7.9.12, 9.7.13.7). A written state space
 * makes both addresses shared::cluster ones (ptxas takes .shared::cta and .shared on st.async
 * too), none generic ones. The forms without [mbar] (ptxas accepts them; the .release.global
 * ones of sm_100) are not modelled. */
static bool decode_async_store(struct loader *ld, const struct ir_insn *in, struct dinsn *di,
			       const struct mods *md)
{
	const char *why = NULL;
	if (di->nsrc != 3 || di->s[0].kind != DOP_ADDR || di->s[2].kind != DOP_ADDR ||
	    (in->op == OP_ST_ASYNC && !(di->flags & DF_COMPLETE_TX)))
		why = "only the form '[a], b, [mbar]' completing on an mbarrier is supported";
	else if (di->space != MS_GENERIC && di->space != MS_SHARED_CTA &&
		 di->space != MS_SHARED_CLUSTER)
		why = "only the shared::cluster form is supported";
	else if ((di->s[1].kind == DOP_VEC ? di->s[1].nelem : 1) != di->vec)
		why = "the value must be a vector of as many values as .vN says (one without .vN)";
	else if (ir_type_size(md->types[0]) * di->vec > 16)
		why = "at most 16 bytes are stored";
	if (why)
		return lunsup(ld, di, "%s", why);
	if (di->space != MS_GENERIC)
		di->space = MS_SHARED_CLUSTER;
	return in->op == OP_ST_ASYNC || decode_atom_type(ld, in, di, md);
}

/* cp.async.bulk and cp.reduce.async.bulk: the forms ptxi runs are [dst], [src], size with
 * .bulk_group (to global memory) or with .mbarrier::complete_tx::bytes and [mbar]. A
 * cache-policy operand is read by no one. The reduction's arithmetic is atom's. */
static bool decode_bulk(struct loader *ld, const struct ir_insn *in, struct dinsn *di)
{
	if (di->flags & DF_BULK_GROUP)
		di->flags |= DF_DST_GLOBAL;
	if (!(di->flags & DF_BULK_GROUP) && (!(di->flags & DF_COMPLETE_TX) || di->nsrc < 4)) {
		return lunsup(ld, di, "only the forms completing through an mbarrier or a bulk "
			      "group are supported");
	}
	if (di->nsrc < 3)
		return false;
	if (di->space2 == MS_GLOBAL)
		ld->P->async_reads_global = true;
	return true;
}

/* The address of a tensor map: [reg] / [var] as a DOP_ADDR (its space the variable's, else
 * generic). `o` is an address operand or, inside [map, {c}], the bare first element. */
static bool decode_map_operand(struct loader *ld, const struct ir_operand *o, struct dop *d)
{
	if (o->kind == OPND_ADDR)
		return decode_opnd(ld, o, MOD_NONE, d);
	if (!decode_opnd(ld, o, MOD_U64, d))
		return false;
	if (d->kind == DOP_REG) { /* [%rd, {...}]: the register is the address */
		d->kind = DOP_ADDR;
		d->has_reg = true;
		d->off = 0;
		return true;
	}
	if (d->kind == DOP_SYMADDR) {
		d->kind = DOP_ADDR;
		return true;
	}
	lerr(ld, o->span, "the tensor map must be an address: a register or a variable");
	return false;
}

/* Tensor copies (ISA 9.7.9.25.5): s[0] the tensor map, s[1] the coordinates (their count is
 * the dimension count), s[2] the shared box, s[3] the mbarrier (loads), s[4] ctaMask
 * (multicast); d2 the im2col offsets. tensormap.replace: s[0] the map, s[1] the ordinal (if
 * any), s[2] the value. tensormap.cp_fenceproxy: s[0] destination, s[1] source. */
static bool decode_tensor(struct loader *ld, const struct ir_insn *in, struct dinsn *di,
			  const struct mods *md)
{
	const char *why = NULL;
	const struct ir_operand *op = in->opnds;
	unsigned n = in->nopnds;
	di->mode = (uint8_t)md->atomop;
	di->flags |= md->has[MOD_IM2COL] ? DF_IM2COL : 0;
	ld->P->tensor_copies = true;
	if (in->op == OP_TENSORMAP_REPLACE || in->op == OP_TENSORMAP_CP_FENCEPROXY) {
		static const enum ir_mod fields[] = {
			MOD_GLOBAL_ADDRESS, MOD_RANK, MOD_BOX_DIM, MOD_GLOBAL_DIM, MOD_GLOBAL_STRIDE,
			MOD_ELEMENT_STRIDE, MOD_ELEMTYPE, MOD_INTERLEAVE_LAYOUT, MOD_SWIZZLE_MODE,
			MOD_SWIZZLE_ATOMICITY, MOD_FILL_MODE,
		}; /* in enum tmap_field order */
		di->mode = 0xff;
		for (uint8_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
			if (md->has[fields[i]])
				di->mode = i;
		if (in->op == OP_TENSORMAP_REPLACE && di->mode == 0xff)
			why = "tensormap.replace needs a field (.global_address, .box_dim, ...)";
		else if (in->op == OP_TENSORMAP_REPLACE && !md->has[MOD_TILE])
			why = "only the .tile mode exists";
		else if (n < 2 || n > 3)
			why = "wrong operand count";
		for (unsigned i = 0; !why && i < n; i++)
			if (!decode_opnd(ld, &op[i], i == n - 1 ? md->types[0] : MOD_U32, &di->s[i]))
				return false;
		di->nsrc = (uint8_t)n;
		goto out;
	}
	bool load = in->op == OP_CP_ASYNC_BULK_TENSOR && !(di->flags & DF_BULK_GROUP);
	bool prefetch = in->op == OP_CP_ASYNC_BULK_PREFETCH_TENSOR;
	unsigned mi = load ? 1 : 0; /* where [map, {c}] is: after a load's [dst] */
	/* the forms ptxi checks but does not run (check_tensor.c notes them) */
	static const enum ir_mod not_run[] = {MOD_IM2COL_NO_OFFS, MOD_TILE_GATHER4,
		MOD_TILE_SCATTER4, MOD_IM2COL_W, MOD_IM2COL_W128, MOD_CTA_GROUP_1, MOD_CTA_GROUP_2};
	for (size_t i = 0; i < sizeof not_run / sizeof not_run[0]; i++)
		if (md->has[not_run[i]])
			return lunsup(ld, di, "'%s' is not modelled", ir_mod_name(not_run[i]));
	if (n <= mi || op[mi].kind != OPND_LIST || op[mi].vec.n != 2 ||
	    op[mi].vec.elems[1].kind != OPND_VEC)
		why = "the tensor operand must be [map, {coordinates}]";
	else if (!load && !prefetch && !(di->flags & DF_BULK_GROUP))
		why = "a tensor store or reduction completes through a bulk group (.bulk_group)";
	else if (load && !(di->flags & DF_COMPLETE_TX))
		why = "a tensor load completes on an mbarrier (.mbarrier::complete_tx::bytes)";
	if (why)
		goto out;
	if (!decode_map_operand(ld, &op[mi].vec.elems[0], &di->s[0]) ||
	    !decode_opnd(ld, &op[mi].vec.elems[1], MOD_S32, &di->s[1]))
		return false;
	if (di->s[1].nelem < 1 || di->s[1].nelem > 5)
		why = "a tensor has 1 to 5 dimensions";
	if (!prefetch && !why) {
		const struct ir_operand *sh = &op[load ? 0 : 1];
		if (!decode_opnd(ld, sh, MOD_NONE, &di->s[2]))
			return false;
		if (di->s[2].kind != DOP_ADDR)
			why = "the shared operand must be an address";
	}
	unsigned k = load ? 2 : prefetch ? 1 : 2; /* next operand */
	if (load && !why) {
		if (k >= n || !decode_opnd(ld, &op[k], MOD_NONE, &di->s[3]) ||
		    di->s[3].kind != DOP_ADDR)
			why = "a tensor load needs [mbarrier]";
		k++;
	}
	if (!why && (di->flags & DF_IM2COL) && (load || prefetch)) {
		if (k >= n || !decode_opnd(ld, &op[k], MOD_U16, &di->d2) || di->d2.kind != DOP_VEC)
			why = "an im2col copy needs its offsets {o, ...}";
		k++;
	}
	if (!why && (di->flags & DF_MULTICAST)) {
		if (k >= n || !decode_opnd(ld, &op[k], MOD_U16, &di->s[4]))
			why = "a multicast copy needs its ctaMask";
		k++;
	}
	if (!why && (di->flags & DF_CACHE_HINT))
		k++; /* the cache policy: a hint */
	if (!why && k != n)
		why = "unexpected operands";
	if (!why && (load || in->op == OP_CP_REDUCE_ASYNC_BULK_TENSOR))
		ld->P->async_reads_global = true;
	di->nsrc = 5;
out:
	if (!why)
		return true;
	return lunsup(ld, di, "%s", why);
}

/* createpolicy: the first eviction priority is the primary one (di->mode); the secondary
 * one, .L2::evict_unchanged unless .L2::evict_first is written, is a flag. */
static bool decode_createpolicy(const struct ir_insn *in, struct dinsn *di)
{
	int n = 0;
	for (uint32_t i = 0; i < in->nmods; i++) {
		enum ir_mod m = in->mods[i];
		if (m != MOD_L2_EVICT_LAST && m != MOD_L2_EVICT_NORMAL && m != MOD_L2_EVICT_FIRST &&
		    m != MOD_L2_EVICT_UNCHANGED)
			continue;
		if (n++ == 0)
			di->mode = (uint8_t)m;
		else if (m == MOD_L2_EVICT_FIRST)
			di->flags |= DF_EVICT_FIRST2;
	}
	if (in->op == OP_CREATEPOLICY_RANGE)
		return di->nsrc == 3 && di->s[0].kind == DOP_ADDR;
	return di->d.kind == DOP_REG;
}

/* wgmma.* and setmaxnreg: the form from the opcode's words, the immediates, and the
 * register operands (wgmma.h says where each goes). */
static bool decode_wgmma(struct loader *ld, const struct ir_insn *in, struct dinsn *di)
{
	struct wg_insn *x = arena_alloc(ld->P->arena, sizeof *x);
	char buf[200];
	const char *e = wg_form_parse(ld->m->file->text, in, &x->f, buf, sizeof buf);
	if (e) {
		lerr(ld, in->op_span, "%s", e);
		return false;
	}
	di->wg = x;
	x->scale_a = x->scale_b = 1;
	if (in->op == OP_WGMMA_WAIT_GROUP) {
		x->count = in->nopnds && in->opnds[0].kind == OPND_IMM ? (uint32_t)in->opnds[0].imm : 0;
		return true;
	}
	if (in->op != OP_WGMMA_MMA_ASYNC)
		return true;
	/* .sp: the metadata register and the sparsity selector come before scale-d */
	unsigned sp = x->f.sparse ? 2 : 0;
	if (in->nopnds < 4 + sp || (sp && in->opnds[4].kind != OPND_IMM)) {
		lerr(ld, in->span, "%s needs D, A, B, %sscale-d", x->f.sparse ?
		     "wgmma.mma_async.sp" : "wgmma.mma_async", sp ? "the metadata, a constant "
		     "sparsity selector and " : "and ");
		return false;
	}
	if (!decode_opnd(ld, &in->opnds[0], MOD_B32, &di->d))
		return false;
	for (int i = 0; i < 3; i++)
		if (!decode_opnd(ld, &in->opnds[i == 2 ? 3 + sp : (unsigned)i + 1],
				 i == 2 ? MOD_PRED : MOD_B64, &di->s[i]))
			return false;
	di->nsrc = 3;
	if (sp) {
		if (!decode_opnd(ld, &in->opnds[3], MOD_B32, &di->s[3]))
			return false;
		x->sel = (uint8_t)in->opnds[4].imm;
		di->nsrc = 4;
	}
	/* imm-scale-a, imm-scale-b, then imm-trans-a (not with A in registers), imm-trans-b */
	const struct ir_operand *imm = in->opnds + 4 + sp;
	unsigned nimm = in->nopnds - 4u - sp;
	if (nimm >= 2) {
		x->scale_a = (int8_t)(imm[0].imm < 0 ? -1 : 1);
		x->scale_b = (int8_t)(imm[1].imm < 0 ? -1 : 1);
	}
	if (nimm == 4) {
		x->trans_a = imm[2].imm != 0;
		x->trans_b = imm[3].imm != 0;
	} else if (nimm == 3) {
		x->trans_b = imm[2].imm != 0;
	}
	return true;
}

/* Each opcode's handler and how many of its leading operands are destinations (ops.def). */
static exec_fn *const op_exec[OP__COUNT] = {
#define OP(name, spelling, family, dests, lits, decode, exec, check) [OP_##name] = exec,
#include "front/ops.def"
#undef OP
};
static const uint8_t op_dests[OP__COUNT] = {
#define OP(name, spelling, family, dests, lits, decode, exec, check) [OP_##name] = dests,
#include "front/ops.def"
#undef OP
};

/* A vector destination with one register twice (ISA 6.4.3: undefined). */
static bool repeats_register(const struct dop *d)
{
	if (d->kind != DOP_VEC)
		return false;
	for (uint32_t i = 1; i < d->nelem; i++)
		for (uint32_t k = 0; k < i; k++)
			if (d->elems[i].kind == DOP_REG && d->elems[k].kind == DOP_REG &&
			    d->elems[i].slot == d->elems[k].slot && d->elems[i].comp == d->elems[k].comp)
				return true;
	return false;
}

/* mma, ldmatrix, stmatrix, movmatrix: the form exec_mma.c runs, or why it cannot. */
static bool decode_matrix(struct loader *ld, const struct ir_insn *in, struct dinsn *di,
			  enum mma_kind kind, char which)
{
	char buf[160];
	const char *why;

	bool wmma_mem = kind == MK_WMMA_LOAD || kind == MK_WMMA_STORE;
	if (wmma_mem || kind == MK_LDMATRIX || kind == MK_STMATRIX) /* an address first */
		settle_space(ld, di, &di->s[0]);
	/* wmma.load/store's stride counts elements: a .u32, whatever the element type */
	uint32_t stride = kind == MK_WMMA_STORE ? 2 : 1;
	if (wmma_mem && di->nsrc == stride + 1 &&
	    !decode_opnd(ld, &in->opnds[in->nopnds - 1], MOD_U32, &di->s[stride]))
		return false;
	why = mma_decode(ld->P->arena, in, di, kind, which, buf, sizeof buf);
	if (why)
		return lunsup(ld, di, "%s", why);
	return true;
}

/* Whether an operand is (or holds) a .b128 register. */
static bool b128_operand(const struct ir_operand *o)
{
	if (o->kind == OPND_REG)
		return o->ref.sym && o->ref.sym->type == MOD_B128;
	if (o->kind == OPND_VEC || o->kind == OPND_LIST || o->kind == OPND_DUAL)
		for (uint32_t i = 0; i < o->vec.n; i++)
			if (b128_operand(&o->vec.elems[i]))
				return true;
	return false;
}

/* ---- decoders (the DECODE column of ops.def) ----------------------------------------- */

/* A decoder finishes an instruction from its IR once the shared fields (type, spaces,
 * flags) are set: its operands and the form its handler runs. False: reported. */
typedef bool decode_fn(struct loader *ld, const struct ir_insn *in, struct dinsn *di,
		       const struct mods *md);

/* Instructions ptxi reads but does not run: reported when one runs (interp.c). */
static bool dec_none(struct loader *ld, const struct ir_insn *in, struct dinsn *di,
		     const struct mods *md)
{
	(void)ld, (void)in, (void)di, (void)md;
	return true;
}

static bool dec_alu(struct loader *ld, const struct ir_insn *in, struct dinsn *di,
		    const struct mods *md)
{
	/* cvt's sm_100a forms (fp6, fp4, ue8m0 and the .rs stochastic rounding): checked,
	 * not run */
	for (unsigned i = 0; in->op == OP_CVT && i < in->nmods; i++)
		if (ir_mod_kind(in->mods[i]) == MK_TYPE && in->mods[i] > MOD_B1)
			return lunsup(ld, di, "ptxi does not model cvt%s", ir_mod_name(in->mods[i]));
		else if (in->mods[i] == MOD_RS || in->mods[i] == MOD_PACK)
			return lunsup(ld, di, "ptxi does not model cvt%s", ir_mod_name(in->mods[i]));
	return decode_alu(ld, in, di, md);
}

static bool dec_tensor(struct loader *ld, const struct ir_insn *in, struct dinsn *di,
		       const struct mods *md)
{
	return decode_tensor(ld, in, di, md);
}

static bool dec_wgmma(struct loader *ld, const struct ir_insn *in, struct dinsn *di,
		      const struct mods *md)
{
	(void)md;
	return decode_wgmma(ld, in, di);
}

static bool dec_bra(struct loader *ld, const struct ir_insn *in, struct dinsn *di,
		    const struct mods *md)
{
	(void)md;
	return decode_branch(ld, in, di);
}

static bool dec_call(struct loader *ld, const struct ir_insn *in, struct dinsn *di,
		     const struct mods *md)
{
	(void)md;
	return decode_call(ld, in, di);
}

/* brx.idx index, tlist: the index, and the .branchtargets labels as instruction indices. */
static bool dec_brx(struct loader *ld, const struct ir_insn *in, struct dinsn *di,
		    const struct mods *md)
{
	(void)md;
	if (in->nopnds != 2 || !in->opnds[1].ref.sym ||
	    in->opnds[1].ref.sym->kind != SYM_TARGETS) {
		lerr(ld, in->span, "brx.idx needs an index and a .branchtargets label");
		return false;
	}
	if (!decode_opnd(ld, &in->opnds[0], MOD_U32, &di->s[0]))
		return false;
	const struct ir_sym *t = in->opnds[1].ref.sym;
	di->s[1].kind = DOP_VEC;
	di->s[1].nelem = (uint8_t)(t->ntargets > 255 ? 255 : t->ntargets);
	di->s[1].elems = arena_alloc(ld->P->arena, sizeof(struct dop) * (t->ntargets + 1));
	for (uint32_t i = 0; i < t->ntargets && i < 255; i++) {
		const struct ir_sym *lab = t->targets[i].ref.sym;
		if (!lab || lab->kind != SYM_LABEL) {
			lerr(ld, t->targets[i].span, "branch target is not a label");
			return false;
		}
		di->s[1].elems[i].off = lab->label_index;
	}
	di->nsrc = 2;
	return true;
}

/* ret, exit, trap */
static bool dec_ctrl(struct loader *ld, const struct ir_insn *in, struct dinsn *di,
		     const struct mods *md)
{
	(void)md;
	return decode_operands(ld, in, di, 0);
}

/* The operands as the row's DESTS says: destinations first, then sources. */
static bool dec_ops(struct loader *ld, const struct ir_insn *in, struct dinsn *di,
		    const struct mods *md)
{
	(void)md;
	if (!decode_operands(ld, in, di, in->nopnds ? op_dests[in->op] : 0))
		return false;
	if (repeats_register(&di->d))
		di->flags |= DF_VEC_DUP;
	return true;
}

/* The operands, the first an address, and the space it resolves to (di->space). */
static bool dec_address_first(struct loader *ld, const struct ir_insn *in, struct dinsn *di,
			      const struct mods *md)
{
	if (!dec_ops(ld, in, di, md))
		return false;
	if (di->nsrc < 1 || di->s[0].kind != DOP_ADDR) {
		lerr(ld, in->span, "%s needs an address operand", ir_op_name(in->op));
		return false;
	}
	settle_space(ld, di, &di->s[0]);
	return true;
}

/* The instructions that access memory: an address in a state space ptxi models. With
 * `kernel_param` (ld), a register address into .param in a kernel reads its parameters. */
static bool decode_access(struct loader *ld, const struct ir_insn *in, struct dinsn *di,
			  const struct mods *md, bool kernel_param)
{
	if (!dec_address_first(ld, in, di, md))
		return false;
	if (kernel_param && di->space == MS_PARAM_FRAME && di->s[0].has_reg && ld->irf->is_entry)
		di->space = MS_PARAM_KERNEL;
	if (di->space == MS_NONE) {
		lerr(ld, in->op_span, "state space not supported for %s", ir_op_name(in->op));
		return false;
	}
	return true;
}

/* ldu, st, prefetch, prefetchu */
static bool dec_access(struct loader *ld, const struct ir_insn *in, struct dinsn *di,
		       const struct mods *md)
{
	return decode_access(ld, in, di, md, false);
}

static bool dec_ld(struct loader *ld, const struct ir_insn *in, struct dinsn *di,
		   const struct mods *md)
{
	return decode_access(ld, in, di, md, true);
}

/* atom and red: also their operation and type */
static bool dec_atom(struct loader *ld, const struct ir_insn *in, struct dinsn *di,
		     const struct mods *md)
{
	if (!decode_access(ld, in, di, md, false))
		return false;
	if (!md->atomop) {
		lerr(ld, in->op_span, "%s needs an operation (.add, .cas, ...)",
		     ir_op_name(in->op));
		return false;
	}
	return decode_atom_type(ld, in, di, md);
}

/* The mbarrier family and cp.async.mbarrier.arrive: the barrier's shared address. With
 * `narrow_shared`, a generic address in a 32-bit register is a shared one. */
static bool decode_mbar(struct loader *ld, const struct ir_insn *in, struct dinsn *di,
			const struct mods *md, bool narrow_shared)
{
	if (!dec_address_first(ld, in, di, md))
		return false;
	if (narrow_shared && di->space == MS_GENERIC && addr_reg_bytes(in) == 4)
		di->space = MS_SHARED_CTA;
	if (di->space != MS_SHARED_CTA && di->space != MS_SHARED_CLUSTER &&
	    di->space != MS_GENERIC) {
		lerr(ld, in->op_span, "%s needs a shared address", ir_op_name(in->op));
		return false;
	}
	return true;
}

static bool dec_mbar(struct loader *ld, const struct ir_insn *in, struct dinsn *di,
		     const struct mods *md)
{
	return decode_mbar(ld, in, di, md, false);
}

/* cp.async.mbarrier.arrive: as ptxas takes it, a generic address in a 32-bit register is a
 * shared one. */
static bool dec_cp_async_arrive(struct loader *ld, const struct ir_insn *in, struct dinsn *di,
				const struct mods *md)
{
	return decode_mbar(ld, in, di, md, true);
}

static bool dec_cp_async(struct loader *ld, const struct ir_insn *in, struct dinsn *di,
			 const struct mods *md)
{
	di->mode = (uint8_t)(md->has[MOD_CG] ? MOD_CG : MOD_CA); /* its cache operator */
	if (!dec_ops(ld, in, di, md))
		return false;
	di->space = MS_SHARED_CTA;
	di->space2 = MS_GLOBAL;
	if (di->flags & DF_CACHE_HINT)
		di->nsrc--; /* the cache policy, last: no src-size (a hint, read by no one) */
	/* the fourth operand: a src-size, or the ignore-src predicate (a .pred register) */
	if (di->nsrc > 3 && in->opnds[3].kind == OPND_REG && in->opnds[3].ref.sym &&
	    in->opnds[3].ref.sym->type == MOD_PRED)
		di->flags |= DF_IGNORE_SRC;
	return di->nsrc >= 3;
}

/* st.async, red.async */
static bool dec_async_store(struct loader *ld, const struct ir_insn *in, struct dinsn *di,
			    const struct mods *md)
{
	return dec_ops(ld, in, di, md) && decode_async_store(ld, in, di, md);
}

/* cp.async.bulk, cp.reduce.async.bulk */
/* cp.async.bulk: which way it goes, as flags for its handler (exec_async.c). */
static bool dec_bulk_copy(struct loader *ld, const struct ir_insn *in, struct dinsn *di,
			  const struct mods *md)
{
	if (md->nspaces >= 2) {
		enum ir_mod dst = md->spaces[0], src = md->spaces[1];
		di->flags |= dst == MOD_GLOBAL ? DF_DST_GLOBAL : 0;
		di->flags |= src == MOD_SHARED_CTA || src == MOD_SHARED ? DF_SRC_SHARED : 0;
	}
	return dec_ops(ld, in, di, md) && decode_bulk(ld, in, di);
}

/* cp.reduce.async.bulk: also atom's arithmetic; into global memory it reads global memory
 * (its destination) too. */
static bool dec_bulk_reduce(struct loader *ld, const struct ir_insn *in, struct dinsn *di,
			    const struct mods *md)
{
	if (!dec_ops(ld, in, di, md) || !decode_bulk(ld, in, di))
		return false;
	if (di->flags & DF_DST_GLOBAL)
		ld->P->async_reads_global = true;
	return decode_atom_type(ld, in, di, md);
}

static bool dec_policy(struct loader *ld, const struct ir_insn *in, struct dinsn *di,
		       const struct mods *md)
{
	return dec_ops(ld, in, di, md) && decode_createpolicy(in, di);
}

static bool dec_bulk_prefetch(struct loader *ld, const struct ir_insn *in, struct dinsn *di,
			      const struct mods *md)
{
	if (!dec_ops(ld, in, di, md))
		return false;
	di->space = MS_GLOBAL;
	return di->nsrc >= 2 && di->s[0].kind == DOP_ADDR;
}

/* mov: one source, or a vector packed or unpacked. */
static bool dec_mov(struct loader *ld, const struct ir_insn *in, struct dinsn *di,
		    const struct mods *md)
{
	if (!dec_ops(ld, in, di, md))
		return false;
	if (di->d.kind == DOP_VEC || (di->nsrc == 1 && di->s[0].kind == DOP_VEC))
		return true;
	if (di->nsrc != 1) {
		lerr(ld, in->span, "mov takes one source");
		return false;
	}
	return true;
}

/* cvta.space.size d, a | var: to generic; cvta.to.space.size d, a: from generic. */
static bool dec_cvta(struct loader *ld, const struct ir_insn *in, struct dinsn *di,
		     const struct mods *md)
{
	if (!dec_ops(ld, in, di, md))
		return false;
	di->space2 = (uint8_t)(md->nspaces ? space_of(md->spaces[0]) : MS_NONE);
	if (di->nsrc == 1 && di->s[0].kind == DOP_ADDR && !di->s[0].has_reg) {
		di->s[0].kind = DOP_SYMADDR;
	}
	return true;
}

/* mma, ldmatrix, stmatrix, movmatrix, wmma.* */
/* The matrix rows, one decoder each: the operands, then the form of the row's kind. */
#define DEC_MATRIX(fn, kind, which)                                                          \
	static bool fn(struct loader *ld, const struct ir_insn *in, struct dinsn *di,        \
		       const struct mods *md)                                                \
	{                                                                                    \
		return dec_ops(ld, in, di, md) && decode_matrix(ld, in, di, kind, which);    \
	}
DEC_MATRIX(dec_mma, MK_MMA, 0)
DEC_MATRIX(dec_mma_sp, MK_MMA_SP, 0)
DEC_MATRIX(dec_ldmatrix, MK_LDMATRIX, 0)
DEC_MATRIX(dec_stmatrix, MK_STMATRIX, 0)
DEC_MATRIX(dec_movmatrix, MK_MOVMATRIX, 0)
DEC_MATRIX(dec_wmma_load_a, MK_WMMA_LOAD, 'a')
DEC_MATRIX(dec_wmma_load_b, MK_WMMA_LOAD, 'b')
DEC_MATRIX(dec_wmma_load_c, MK_WMMA_LOAD, 'c')
DEC_MATRIX(dec_wmma_store_d, MK_WMMA_STORE, 'd')
DEC_MATRIX(dec_wmma_mma, MK_WMMA_MMA, 0)
#undef DEC_MATRIX

/* Each opcode's decoder (ops.def). */
static decode_fn *const op_decode[OP__COUNT] = {
#define OP(name, spelling, family, dests, lits, decode, exec, check) [OP_##name] = decode,
#include "front/ops.def"
#undef OP
};

/* .b128 values (PTX 8.3) are register pairs that ld, ldu, st, mov, atom.cas/.exch and
 * calls move whole (exec_mem.c, interp.c). Any other instruction naming one stops the
 * launch that reaches it rather than run with half of it: why, or NULL. */
static const char *b128_unsupported(const struct ir_insn *in, const struct mods *md)
{
	bool typed = md->has[MOD_B128], regs = false;
	for (uint32_t i = 0; i < in->nopnds; i++)
		regs |= b128_operand(&in->opnds[i]);
	if (!typed && !regs)
		return NULL;
	if (in->op != OP_LD && in->op != OP_LDU && in->op != OP_ST && in->op != OP_MOV &&
	    in->op != OP_ATOM && in->op != OP_CALL)
		return "128-bit values (.b128) are modelled for ld, ldu, st, mov, atom.cas, "
		       "atom.exch and call only";
	if ((in->op == OP_MOV || in->op == OP_ATOM) && !typed)
		return "a .b128 register in a narrower mov or atom";
	return NULL;
}

static bool decode_insn(struct loader *ld, const struct ir_insn *in, struct dinsn *di)
{
	struct mods md;
	read_mods(in->op, in->mods, in->nmods, &md);
	di->op = (uint16_t)in->op;
	di->fam = (uint8_t)ir_op_family(in->op);
	di->exec = op_exec[in->op];
	di->ir = in;
	di->guard = -1;
	if (in->has_guard) {
		const struct ir_sym *g = in->guard.ref.sym;
		if (!g || (g->kind != SYM_REG && g->kind != SYM_REGRANGE)) {
			lerr(ld, in->guard.span, "guard must be a predicate register");
			return false;
		}
		di->guard = g->slot + (int32_t)(g->kind == SYM_REGRANGE ? in->guard.ref.index : 0);
		di->guard_neg = in->guard_neg;
	}
	di->type = (uint8_t)md.types[0];
	di->type2 = (uint8_t)(md.ntypes > 1 ? md.types[1] : MOD_NONE);
	di->space = (uint8_t)(md.nspaces ? space_of(md.spaces[0]) : MS_GENERIC);
	di->space2 = (uint8_t)(md.nspaces > 1 ? space_of(md.spaces[1]) : MS_NONE);
	di->sem = (uint8_t)md.sem;
	di->scope = (uint8_t)md.scope;
	di->vec = (uint8_t)(md.vec ? ir_mod_arg(md.vec) : 1);
	di->mode = (uint8_t)(md.atomop ? md.atomop : md.mode ? md.mode : md.cache);
	uint32_t f = 0;
	f |= spin_op_writes(in->op) ? DF_WRITES : 0;
	f |= md.has[MOD_UNI] ? DF_UNI : 0;
	f |= md.has[MOD_NOCOMPLETE] ? DF_NOCOMPLETE : 0;
	f |= md.has[MOD_EXPECT_TX] ? DF_EXPECT_TX : 0;
	f |= md.has[MOD_PARITY] ? DF_PARITY : 0;
	f |= md.has[MOD_NOINC] ? DF_NOINC : 0;
	f |= md.has[MOD_MULTICAST_CLUSTER] ? DF_MULTICAST : 0;
	f |= md.has[MOD_BULK_GROUP] ? DF_BULK_GROUP : 0;
	f |= md.has[MOD_READ] ? DF_READ : 0;
	f |= md.has[MOD_TO] ? DF_TO : 0;
	f |= md.has[MOD_ALIGNED] ? DF_ALIGNED : 0;
	f |= md.has[MOD_COMPLETE_TX_BYTES] ? DF_COMPLETE_TX : 0;
	f |= md.has[MOD_L2_CACHE_HINT] ? DF_CACHE_HINT : 0;
	f |= md.has[MOD_MBARRIER_INIT] ? DF_MBARRIER_INIT : 0;
	f |= md.has[MOD_PROXY] && !md.has[MOD_TENSORMAP_GENERIC] ? DF_PROXY : 0;
	f |= md.has[MOD_TENSORMAP_GENERIC] ? DF_TENSORMAP : 0;
	f |= md.has[MOD_WIDE] ? DF_WIDE : 0;
	f |= md.has[MOD_ARRIVE] ? DF_ARRIVE : 0;
	f |= md.has[MOD_WAIT] ? DF_WAIT : 0;
	f |= md.has[MOD_SHARED_CLUSTER] ? DF_CLUSTER_SPACE : 0;
	f |= md.has[MOD_SHARED_CTA] ? DF_CTA_SPACE : 0;
	di->flags = f;
	const char *why = b128_unsupported(in, &md);
	if (why)
		return lunsup(ld, di, "%s", why);
	return op_decode[in->op](ld, in, di, &md);
}

/* ---- driver -------------------------------------------------------------------------- */

struct dprog *load_program(struct ir_module *m)
{
	return load_program_at(m, GLOBAL_BASE);
}

struct dprog *load_program_at(struct ir_module *m, uint64_t global_base)
{
	struct dprog *P = arena_alloc(m->arena, sizeof *P);
	P->m = m;
	P->arena = m->arena;
	struct loader ld = {.P = P, .m = m, .global_base = global_base};
	uint32_t n = 0;
	for (struct ir_func *f = m->funcs; f; f = f->next)
		n++;
	P->funcs = arena_alloc(m->arena, sizeof *P->funcs * (n ? n : 1));
	P->nfuncs = n;
	uint32_t i = 0;
	for (struct ir_func *f = m->funcs; f; f = f->next, i++) {
		P->funcs[i].ir = f;
		P->funcs[i].name = f->sym ? f->sym->name : "?";
	}
	layout_module(&ld);
	ld.errors += shared_layout_plan(P, m->diag);
	for (i = 0; i < n; i++) {
		struct dfunc *df = &P->funcs[i];
		const struct ir_func *f = df->ir;
		if (!f->has_body)
			continue;
		for (uint32_t k = 0; k < f->nparams; k++)
			f->params[k]->slot = -1;
		for (uint32_t k = 0; k < f->nrets; k++)
			f->rets[k]->slot = -1;
		layout_function(&ld, df, f);
	}
	for (i = 0; i < n; i++) {
		struct dfunc *df = &P->funcs[i];
		const struct ir_func *f = df->ir;
		if (!f->has_body)
			continue;
		ld.fn = df;
		ld.irf = f;
		shared_layout_apply(df); /* its .shared variables' offsets, for its operands */
		df->ncode = f->ninsns;
		/* one extra instruction: an implicit ret at the end of the body */
		df->code = arena_alloc(m->arena, sizeof *df->code * (f->ninsns + 1));
		for (uint32_t k = 0; k < f->ninsns; k++) {
			if (!decode_insn(&ld, &f->insns[k], &df->code[k]) && ld.errors > 50)
				return NULL;
			interp_mark_direct(&df->code[k]);
			df->code[k].smem = smem_form(&df->code[k]);
		}
		df->code[f->ninsns].op = OP_RET;
		df->code[f->ninsns].fam = FAM_CTRL;
		df->code[f->ninsns].exec = exec_ret;
		df->code[f->ninsns].guard = -1;
		df->code[f->ninsns].ir = f->ninsns ? &f->insns[f->ninsns - 1] : NULL;
		df->param_off = arena_alloc(m->arena, sizeof(uint32_t) * (f->nparams + 1));
		df->ret_off = arena_alloc(m->arena, sizeof(uint32_t) * (f->nrets + 1));
		for (uint32_t k = 0; k < f->nparams; k++)
			df->param_off[k] = (uint32_t)f->params[k]->addr;
		for (uint32_t k = 0; k < f->nrets; k++)
			df->ret_off[k] = (uint32_t)f->rets[k]->addr;
		regdef_plan(P, df);
	}
	return ld.errors ? NULL : P;
}
