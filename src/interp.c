/*
 * interp.c - the dispatch loop: run one group of a warp's lanes, instruction by
 * instruction, over lane arrays. Operand access, special registers, and control flow
 * (branches, calls, returns, exit) live here; arithmetic is in exec_*.c, memory in
 * exec_mem.c, warp and barrier instructions in exec_warp.c, mbarriers in mbarrier.c.
 */
#include "interp.h"

#include "ptxi/ptxi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "async.h"
#include "devrt.h"
#include "gather.h"
#include "exec.h"
#include "exec_alu_impl.h"
#include "exec_tma.h"
#include "mbarrier.h"
#include "memory.h"
#include "wgmma.h"

uint64_t *slot_ptr(struct frame *f, uint32_t slot)
{
	return f->regs + (size_t)slot * LANES;
}

/* ---- special registers --------------------------------------------------------------- */

static uint32_t v4(const uint32_t v[3], uint32_t comp)
{
	return comp < 3 ? v[comp] : 0;
}

/* %envreg0..31: the manual leaves them to the driver. What an H100 (driver 580.159) gave
 * in every CTA of every launch (tests/regress/envreg.ptx): envreg0 0x038432c8, envreg5 1,
 * envreg9 0x120, the others 0. */
static uint32_t envreg(enum sreg r)
{
	switch (r) {
	case SREG_ENVREG0:
		return 0x038432c8u;
	case SREG_ENVREG5:
		return 1;
	case SREG_ENVREG9:
		return 0x120;
	default:
		return 0;
	}
}

static uint64_t sreg_value(struct launch *L, struct warp *w, enum sreg r, uint32_t comp,
			   uint32_t lane)
{
	struct cta *c = w->cta;
	const struct launch_config *k = &L->cfg;
	uint32_t t = w->id * LANES + lane;
	switch (r) {
	case SREG_TID: {
		uint32_t tid[3] = {t % k->block[0], (t / k->block[0]) % k->block[1],
				   t / (k->block[0] * k->block[1])};
		return v4(tid, comp);
	}
	case SREG_NTID:
		return v4(k->block, comp);
	case SREG_LANEID:
		return lane;
	case SREG_WARPID:
		return w->id;
	case SREG_NWARPID:
		return c->nwarps;
	case SREG_CTAID:
		return v4(c->ctaid, comp);
	case SREG_NCTAID:
		return v4(k->grid, comp);
	case SREG_SMID:
		return c->linear % 132;
	case SREG_NSMID:
		return 132;
	case SREG_GRIDID:
		return 1;
	case SREG_IS_EXPLICIT_CLUSTER:
		return k->explicit_cluster;
	case SREG_CLUSTERID:
		return v4(c->cluster->id, comp);
	case SREG_NCLUSTERID: {
		uint32_t n[3] = {k->grid[0] / k->cluster[0], k->grid[1] / k->cluster[1],
				 k->grid[2] / k->cluster[2]};
		return v4(n, comp);
	}
	case SREG_CLUSTER_CTAID:
		return v4(c->cluster_ctaid, comp);
	case SREG_CLUSTER_NCTAID:
		return v4(k->cluster, comp);
	case SREG_CLUSTER_CTARANK:
		return c->rank;
	case SREG_CLUSTER_NCTARANK:
		return c->cluster->nctas;
	case SREG_LANEMASK_EQ:
		return 1u << lane;
	case SREG_LANEMASK_LE:
		return (uint32_t)((2ull << lane) - 1);
	case SREG_LANEMASK_LT:
		return (1u << lane) - 1;
	case SREG_LANEMASK_GE:
		return ~((1u << lane) - 1);
	case SREG_LANEMASK_GT:
		return (uint32_t)~((2ull << lane) - 1);
	case SREG_CLOCK:
		return (uint32_t)L->clock;
	case SREG_CLOCK_HI:
		return (uint32_t)(L->clock >> 32);
	case SREG_CLOCK64:
		return L->clock;
	case SREG_GLOBALTIMER:
		return L->clock;
	case SREG_GLOBALTIMER_LO:
		return (uint32_t)L->clock;
	case SREG_GLOBALTIMER_HI:
		return (uint32_t)(L->clock >> 32);
	case SREG_DYNAMIC_SMEM_SIZE:
		return k->dyn_shared;
	case SREG_TOTAL_SMEM_SIZE:
	case SREG_AGGR_SMEM_SIZE:
		return c->smem_size;
	case SREG_CURRENT_GRAPH_EXEC:
		return 0; /* the manual: 0 outside a CUDA device graph, and ptxi launches none */
	default:
		return envreg(r);
	}
}

/* ---- operands ------------------------------------------------------------------------ */

uint64_t op_read(struct launch *L, struct warp *w, struct frame *f, const struct dop *o,
		 uint32_t lane)
{
	uint64_t v;
	switch (o->kind) {
	case DOP_REG:
		v = f->regs[(size_t)o->slot * LANES + lane];
		break;
	case DOP_IMM:
		v = o->imm[lane];
		break;
	case DOP_SREG:
		v = sreg_value(L, w, (enum sreg)o->sreg, o->comp, lane);
		break;
	case DOP_SYMADDR:
	case DOP_ADDR:
		v = op_addr(L, w, f, o, lane);
		break;
	default:
		v = 0;
	}
	return o->neg ? !(v & 1) : v;
}

uint64_t op_addr(struct launch *L, struct warp *w, struct frame *f, const struct dop *o,
		 uint32_t lane)
{
	(void)L;
	(void)w;
	uint64_t a = (uint64_t)o->off;
	if (o->has_reg)
		a += f->regs[(size_t)o->slot * LANES + lane];
	else if (o->space == MS_LOCAL)
		a += f->local_base; /* frame-relative .local variable */
	return a;
}

void op_write(struct frame *f, const struct dop *o, uint32_t lane, uint64_t v)
{
	if (o->kind == DOP_REG)
		f->regs[(size_t)o->slot * LANES + lane] = v;
}

/* The lane array of a source operand; special registers, negated predicates and
 * addresses are materialised into `tmp`. */
static const uint64_t *lanes_of(struct launch *L, struct warp *w, struct frame *f,
				const struct dop *o, uint64_t *tmp, uint32_t mask)
{
	if (!o->neg) {
		if (o->kind == DOP_REG)
			return slot_ptr(f, o->slot);
		if (o->kind == DOP_IMM)
			return o->imm;
	}
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		tmp[l] = op_read(L, w, f, o, l);
	}
	return tmp;
}

/* --trace-cta / --trace-warp / --trace-lines: is this warp at this line traced? */
static bool trace_wanted(const struct launch *L, const struct warp *w, uint32_t line)
{
	const struct launch_config *c = &L->cfg;
	if (w && c->trace_cta_given && memcmp(w->cta->ctaid, c->trace_cta, sizeof c->trace_cta))
		return false;
	if (w && c->trace_warp_given && w->id != c->trace_warp)
		return false;
	return !c->trace_lines[1] || (line >= c->trace_lines[0] && line <= c->trace_lines[1]);
}

/* Print `s`, folded at spaces past --trace-width columns; continuation lines indented. */
static void print_folded(FILE *out, const char *s, uint32_t width)
{
	size_t col = 0;
	while (*s) {
		size_t sp = strspn(s, " ");
		size_t n = strcspn(s + sp, " ");
		if (width && col > 8 && col + sp + n > width) {
			fputs("\n        ", out);
			col = 8;
		} else {
			fprintf(out, "%.*s", (int)sp, s);
			col += sp;
		}
		fwrite(s + sp, 1, n, out);
		col += n;
		s += sp + n;
	}
	fputc('\n', out);
}

void trace_line(struct launch *L, struct warp *w, uint32_t lanes, const char *text)
{
	if (!L->cfg.trace_print)
		return;
	gather_flush(L); /* a report gathered so far comes before what follows it */
	FILE *out = L->trace ? L->trace : stderr;
	uint32_t line = 0, col = 0;
	if (L->ci && L->ci->ir)
		src_locate(L->file, L->ci->ir->span.off, &line, &col);
	if (!trace_wanted(L, w, line))
		return;
	struct strbuf b = {0}, t = {0};
	if (w)
		describe_threads(L, w, lanes, &b);
	sb_printf(&t, "[trace] %s:%u: %s%s%s", L->file->path, line, b.s ? b.s : "",
		  b.s ? ": " : "", text);
	print_folded(out, t.s, L->cfg.trace_width);
	sb_free(&b);
	sb_free(&t);
}

/* A register value as its type reads it: " (1.5)" for float types, "" otherwise. */
static void float_value(uint8_t type, uint64_t v, struct strbuf *b)
{
	union { uint32_t u; float f; } s = {.u = (uint32_t)v};
	union { uint64_t u; double d; } d = {.u = v};
	switch ((enum ir_mod)type) {
	case MOD_F32:
		sb_printf(b, " (%.9g)", (double)s.f);
		break;
	case MOD_F64:
		sb_printf(b, " (%.17g)", d.d);
		break;
	case MOD_F16:
		sb_printf(b, " (%.5g)", alu_half_to_f64(FMT_F16, (uint16_t)v));
		break;
	case MOD_BF16:
		sb_printf(b, " (%.4g)", alu_half_to_f64(FMT_BF16, (uint16_t)v));
		break;
	default:
		break;
	}
}

static void trace_insn(struct launch *L, struct warp *w, const struct dinsn *di, uint32_t group,
		       uint32_t mask)
{
	if (!di->ir)
		return;
	char t[300];
	int n = snprintf(t, sizeof t, "%.*s", (int)(di->ir->span.len > 200 ? 200 : di->ir->span.len),
			 L->file->text + di->ir->span.off);
	if (mask != group && n > 0 && (size_t)n < sizeof t)
		snprintf(t + n, sizeof t - (size_t)n, mask ? "   [guard false for some threads]"
							: "   [guard false: nothing done]");
	trace_line(L, w, mask ? mask : group, t);
}

/* After an instruction ran under --trace all: the destination's new values, so a learner
 * sees what it did ("%r3 = 0x00000007", or per lane when the lanes differ). */
static void trace_result(struct launch *L, struct frame *f, const struct dinsn *di,
			 uint32_t mask)
{
	const struct dop *d = &di->d;
	if (!mask || !di->ir || d->kind != DOP_REG || !di->ir->nopnds)
		return;
	uint32_t line = 0, col = 0;
	src_locate(L->file, di->ir->span.off, &line, &col);
	if (!trace_wanted(L, L->cw, line))
		return;
	const struct ir_operand *o = &di->ir->opnds[0];
	if (o->kind == OPND_DUAL)
		o = &o->vec.elems[0];
	/* floats are shown as values too, by the register's declared type */
	uint8_t type = o->kind == OPND_REG && o->ref.sym ? (uint8_t)o->ref.sym->type : 0;
	const uint64_t *v = slot_ptr(f, d->slot);
	uint32_t l0 = (uint32_t)__builtin_ctz(mask);
	bool same = true;
	for (uint32_t m = mask; m; m &= m - 1)
		same &= v[__builtin_ctz(m)] == v[l0];
	struct strbuf b = {0};
	sb_printf(&b, "        %.*s = ", (int)o->span.len, L->file->text + o->span.off);
	if (same) {
		sb_printf(&b, "0x%llx", (unsigned long long)v[l0]);
		float_value(type, v[l0], &b);
	} else {
		int shown = 0;
		for (uint32_t m = mask; m && shown < 8; m &= m - 1, shown++) {
			sb_printf(&b, "%s[%d] 0x%llx", shown ? ", " : "", __builtin_ctz(m),
				  (unsigned long long)v[__builtin_ctz(m)]);
			float_value(type, v[__builtin_ctz(m)], &b);
		}
		if (popcount32(mask) > 8)
			sb_printf(&b, ", ...");
	}
	print_folded(L->trace ? L->trace : stderr, b.s, L->cfg.trace_width);
	sb_free(&b);
}

/* ---- control flow -------------------------------------------------------------------- */

static uint32_t pred_mask(const uint64_t *p, bool neg)
{
	uint32_t m = 0;
	for (int l = 0; l < LANES; l++)
		m |= (uint32_t)(p[l] & 1) << l;
	return neg ? ~m : m;
}

uint32_t popcount32(uint32_t m)
{
	m = m - ((m >> 1) & 0x55555555u);
	m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
	return (((m + (m >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}

bool launch_charge(struct launch *L, uint64_t bytes, const char *what)
{
	if (mem_charge(L->mem, bytes))
		return true;
	runtime_error(L, PTXI_INVALID, "%s needs %llu more bytes, past --max-memory %llu (the "
		      "launch holds %llu)", what, (unsigned long long)bytes,
		      (unsigned long long)L->mem->limit, (unsigned long long)L->mem->used);
	return false;
}

/* What one frame of fn holds on the host: registers and parameters of 32 lanes. */
static uint64_t frame_bytes(const struct dfunc *fn)
{
	return sizeof(struct frame) + (uint64_t)fn->nslots * LANES * sizeof(uint64_t) +
	       (uint64_t)LANES * (fn->param_size ? fn->param_size : 1);
}

/* Grow the warp's local memory to `need` bytes per thread (existing bytes kept). */
static bool local_grow(struct launch *L, struct warp *w, uint32_t need)
{
	if (need <= w->local_stride)
		return true;
	uint32_t stride = w->local_stride ? w->local_stride : 256;
	while (stride < need)
		stride *= 2;
	uint64_t grow = (uint64_t)LANES * (stride - w->local_stride);
	if (!launch_charge(L, grow, "local memory"))
		return false;
	uint8_t *nl = calloc((size_t)LANES, stride);
	if (!nl) {
		mem_release(L->mem, grow);
		return false;
	}
	for (int l = 0; l < LANES && w->local; l++)
		memcpy(nl + (size_t)l * stride, w->local + (size_t)l * w->local_stride, w->local_top);
	free(w->local);
	w->local = nl;
	w->local_stride = stride;
	return true;
}

/* A frame for fn: from the launch's cache when one is free (registers start at zero). */
static struct frame *frame_new(struct launch *L, struct warp *w, struct dfunc *fn)
{
	size_t idx = (size_t)(fn - L->P->funcs);
	uint32_t need = w->local_top + fn->local_size; /* do_call keeps it within the stack */
	if (!local_grow(L, w, need))
		return NULL;
	struct frame *f = L->frame_cache ? L->frame_cache[idx] : NULL;
	size_t pbytes = (size_t)LANES * (fn->param_size ? fn->param_size : 1);
	if (f) {
		L->frame_cache[idx] = f->next_free;
		memset(f->regs, 0, (size_t)fn->nslots * LANES * sizeof(uint64_t));
		memset(f->params, 0, pbytes);
		f->caller = NULL;
		f->call = NULL;
		f->depth = 0;
		f->refs = 0;
		f->ret_pc = 0;
	} else {
		if (!launch_charge(L, frame_bytes(fn), "a call frame"))
			return NULL;
		f = calloc(1, sizeof *f);
		if (f) {
			f->fn = fn;
			f->regs = calloc((size_t)fn->nslots * LANES, sizeof(uint64_t));
			f->params = calloc(pbytes, 1);
		}
		if (!f || !f->regs || !f->params) {
			if (f) {
				free(f->regs);
				free(f->params);
			}
			free(f);
			mem_release(L->mem, frame_bytes(fn));
			return NULL;
		}
	}
	f->local_base = w->local_top;
	w->local_top = need;
	return f;
}

void frame_release(struct launch *L, struct warp *w, struct frame *f)
{
	while (f && --f->refs <= 0) {
		struct frame *caller = f->caller; /* a callee frame holds a reference to it */
		if (f->local_base + f->fn->local_size == w->local_top)
			w->local_top = f->local_base;
		size_t idx = (size_t)(f->fn - L->P->funcs);
		f->next_free = L->frame_cache[idx];
		L->frame_cache[idx] = f;
		f = caller;
	}
}

void frame_cache_free(struct launch *L)
{
	for (uint32_t i = 0; L->frame_cache && i < L->P->nfuncs; i++) {
		struct frame *f = L->frame_cache[i];
		while (f) {
			struct frame *next = f->next_free;
			mem_release(L->mem, frame_bytes(f->fn));
			free(f->regs);
			free(f->params);
			free(f);
			f = next;
		}
	}
	free(L->frame_cache);
	L->frame_cache = NULL;
}

struct frame *sched_base_frame(struct launch *L, struct warp *w)
{
	struct frame *f = frame_new(L, w, L->kernel);
	if (f) {
		f->refs = 1;
		f->stack = L->kernel->local_size + L->kernel->param_size;
	}
	return f;
}

/* Lane l's bytes [off, off + size) of a frame's parameter area; NULL if not all inside. */
static uint8_t *param_at(struct frame *f, uint32_t l, int64_t off, uint64_t size)
{
	uint64_t total = f->fn->param_size;
	if (off < 0 || (uint64_t)off > total || size > total - (uint64_t)off)
		return NULL;
	return f->params + (size_t)l * total + (size_t)off;
}

bool call_operand_fits(const struct dop *o, const struct ir_sym *formal)
{
	uint64_t want = ir_sym_bytes(formal);
	if (o->kind == DOP_SYMADDR && o->space == MS_PARAM_FRAME)
		return formal->space == MOD_REG ? want <= ir_sym_bytes(o->sym)
						: want == ir_sym_bytes(o->sym);
	/* a register or an immediate: one value (a .b128 register: a pair) */
	return want <= (o->kind == DOP_REG && o->reg_size == 16 ? 16u : 8u);
}

/* Move one parameter or result of `size` bytes, lane by lane, from a caller's or callee's
 * operand into a .param slot (to_off) or register (to_reg) of the other frame. Sizes were
 * matched against the declarations (load, or do_call for indirect calls); the bounds
 * checks of param_at only keep a mismatch from touching memory outside the frames. */
static void move_param(struct launch *L, struct warp *w, uint32_t mask, struct frame *sf,
		       const struct dop *src, const struct ir_sym *src_reg, struct frame *df,
		       int64_t to_off, const struct dop *to_reg, uint64_t size)
{
	bool src_pair = src_reg ? src_reg->type == MOD_B128
				: src->kind == DOP_REG && src->reg_size == 16;
	bool to_pair = to_reg && to_reg->reg_size == 16;
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		uint64_t v[2] = {0, 0}; /* a register's value; a .b128 register's pair */
		const uint8_t *from = (const uint8_t *)v;
		uint64_t n = size;
		if (src_reg) {
			v[0] = sf->regs[(size_t)src_reg->slot * LANES + l];
		} else if (src->kind == DOP_SYMADDR && src->space == MS_PARAM_FRAME) {
			from = param_at(sf, l, src->off, size);
		} else {
			v[0] = op_read(L, w, sf, src, l);
		}
		if (src_pair && from == (const uint8_t *)v)
			v[1] = sf->regs[((size_t)(src_reg ? (uint32_t)src_reg->slot : src->slot) + 1) *
					LANES + l];
		if (from == (const uint8_t *)v && n > sizeof v)
			n = sizeof v;
		if (!from)
			continue;
		if (to_reg) {
			uint64_t r[2] = {0, 0};
			memcpy(r, from, n > sizeof r ? sizeof r : n);
			df->regs[(size_t)to_reg->slot * LANES + l] = r[0];
			if (to_pair)
				df->regs[((size_t)to_reg->slot + 1) * LANES + l] = r[1];
		} else {
			uint8_t *to = param_at(df, l, to_off, size);
			if (to) {
				memset(to, 0, size);
				memcpy(to, from, n);
			}
		}
	}
}

/* An indirect call reaches its callee only at run time: its operands must fit the
 * callee's declaration as a direct call's do at load. */
static bool indirect_call_fits(struct launch *L, const struct dinsn *di, const struct dfunc *fn)
{
	const struct ir_func *irf = fn->ir;
	if (irf->nparams != di->s[1].nelem || irf->nrets != di->d.nelem) {
		runtime_error(L, 1, "indirect call of '%s' with %u argument(s) and %u result(s); it "
			      "takes %u and %u", fn->name, di->s[1].nelem, di->d.nelem, irf->nparams,
			      irf->nrets);
		return false;
	}
	for (uint32_t i = 0; i < irf->nparams + irf->nrets; i++) {
		bool ret = i >= irf->nparams;
		const struct ir_sym *p = ret ? irf->rets[i - irf->nparams] : irf->params[i];
		const struct dop *o = ret ? &di->d.elems[i - irf->nparams] : &di->s[1].elems[i];
		if (!call_operand_fits(o, p)) {
			runtime_error(L, 1, "indirect call of '%s': %s '%s' is %llu bytes, and the "
				      "call's operand does not match it", fn->name,
				      ret ? "result" : "parameter", p->name,
				      (unsigned long long)ir_sym_bytes(p));
			return false;
		}
	}
	return true;
}

uint64_t call_arg(struct launch *L, struct warp *w, struct frame *f, const struct dinsn *di,
		  const struct dfunc *callee, uint32_t i, uint32_t lane)
{
	const struct dop *src = &di->s[1].elems[i];
	uint64_t n = ir_sym_bytes(callee->ir->params[i]);
	n = n > 8 ? 8 : n;
	uint64_t v = 0;
	if (src->kind == DOP_SYMADDR && src->space == MS_PARAM_FRAME) {
		const uint8_t *from = param_at(f, lane, src->off, n);
		if (from)
			memcpy(&v, from, n);
	} else {
		v = op_read(L, w, f, src, lane);
	}
	return n == 8 ? v : v & ((1ull << (n * 8)) - 1);
}

void call_result(struct frame *f, const struct dinsn *di, const struct dfunc *callee,
		 uint32_t lane, uint64_t v)
{
	if (!di->d.nelem || !callee->ir->nrets)
		return;
	const struct dop *dst = &di->d.elems[0];
	uint64_t n = ir_sym_bytes(callee->ir->rets[0]);
	n = n > 8 ? 8 : n;
	uint8_t *to = dst->kind == DOP_SYMADDR && dst->space == MS_PARAM_FRAME
			      ? param_at(f, lane, dst->off, n)
			      : NULL;
	if (to)
		memcpy(to, &v, n);
	else if (dst->kind == DOP_REG)
		f->regs[(size_t)dst->slot * LANES + lane] = v;
}

static void do_call(struct launch *L, struct warp *w, struct group *g, const struct dinsn *di,
		    uint32_t mask)
{
	struct frame *f = g->frame;
	struct dfunc *callee = di->callee;
	if (!callee) {
		/* Indirect: the register holds a function address made by mov or an initializer.
		 * Lanes may call different functions: call those of the first lane's target now;
		 * the others stay at this instruction and call theirs next. */
		uint32_t l0 = (uint32_t)__builtin_ctz(mask), same = 0;
		uint64_t v = op_read(L, w, f, &di->s[0], l0);
		for (uint32_t m = mask; m; m &= m - 1)
			if (op_read(L, w, f, &di->s[0], (uint32_t)__builtin_ctz(m)) == v)
				same |= 1u << __builtin_ctz(m);
		uint64_t idx = v - FUNC_ADDR_BASE;
		if (idx >= L->P->nfuncs) {
			runtime_error(L, 1, "indirect call through 0x%llx, which is no function",
				      (unsigned long long)v);
			return;
		}
		callee = &L->P->funcs[idx];
		mask = same;
		if (!indirect_call_fits(L, di, callee))
			return;
	}
	if (!callee->ir->has_body) { /* an external: the device runtime, or an error */
		if (mask != g->mask && !(g = sched_split(w, g, mask, g->pc)))
			return;
		devrt_call(L, w, f, di, callee, mask);
		g->pc++;
		return;
	}
	if (f->depth + 1 >= MAX_CALL_DEPTH) {
		rule_break(L, RULE_STACK_OVERFLOW, mask, "call depth %u exceeded calling '%s'",
			   MAX_CALL_DEPTH, callee->name);
		return;
	}
	uint64_t stack = (uint64_t)f->stack + callee->local_size + callee->param_size;
	if (stack > MAX_THREAD_STACK) {
		rule_break(L, RULE_STACK_OVERFLOW, mask, "calling '%s' at depth %u needs %llu bytes "
			   "of stack per thread (.local and .param of every active frame); a thread "
			   "has %u", callee->name, f->depth + 1, (unsigned long long)stack,
			   MAX_THREAD_STACK);
		return;
	}
	if (mask != g->mask) {
		g = sched_split(w, g, mask, g->pc);
		if (!g)
			return;
	}
	struct frame *nf = frame_new(L, w, callee);
	if (!nf) {
		if (!L->stop)
			runtime_error(L, 1, "out of memory calling '%s'", callee->name);
		return;
	}
	nf->stack = (uint32_t)stack;
	const struct ir_func *irf = callee->ir;
	for (uint32_t i = 0; i < irf->nparams && i < di->s[1].nelem; i++) {
		const struct ir_sym *p = irf->params[i];
		struct dop reg = {.kind = DOP_REG, .slot = (uint32_t)p->slot,
				  .reg_size = (uint8_t)ir_type_size(p->type)};
		move_param(L, w, mask, f, &di->s[1].elems[i], NULL, nf, callee->param_off[i],
			   p->space == MOD_REG ? &reg : NULL, ir_sym_bytes(p));
	}
	nf->caller = f;
	nf->ret_pc = g->pc + 1;
	nf->call = di;
	nf->depth = f->depth + 1;
	nf->refs = 1;
	f->refs++; /* the callee frame keeps its caller alive */
	g->frame = nf;
	frame_release(L, w, f); /* the group's reference moves to the callee */
	g->pc = 0;
}

/* ret from a .func: copy results, pop the frame. */
static void do_ret(struct launch *L, struct warp *w, struct group *g, uint32_t mask)
{
	struct frame *f = g->frame;
	if (!f->caller) {
		sched_group_exit(L, w, g, mask);
		return;
	}
	if (mask != g->mask) {
		g = sched_split(w, g, mask, g->pc);
		if (!g)
			return;
	}
	const struct dinsn *call = f->call;
	const struct ir_func *irf = f->fn->ir;
	struct frame *cf = f->caller;
	for (uint32_t i = 0; i < irf->nrets && i < call->d.nelem; i++) {
		const struct dop *dst = &call->d.elems[i];
		const struct ir_sym *rs = irf->rets[i];
		struct dop from = {.kind = DOP_SYMADDR, .space = MS_PARAM_FRAME,
				   .off = f->fn->ret_off[i]};
		bool to_param = dst->kind == DOP_SYMADDR && dst->space == MS_PARAM_FRAME;
		if (to_param || dst->kind == DOP_REG)
			move_param(L, w, mask, f, &from, rs->space == MOD_REG ? rs : NULL, cf,
				   dst->off, to_param ? NULL : dst, ir_sym_bytes(rs));
	}
	g->frame = cf;
	g->pc = f->ret_pc;
	cf->refs++;
	frame_release(L, w, f);      /* the group's reference to the callee            */
}

/* A branch taken by `taken` of the group's lanes: uniform, or split in two groups. */
static void do_branch(struct launch *L, struct warp *w, struct group *g, uint32_t taken,
		      uint32_t target)
{
	if (taken == g->mask)
		g->pc = target;
	else if (!taken || sched_split(w, g, taken, target))
		g->pc++;
	else
		runtime_error(L, 1, "out of memory splitting a divergent branch");
}

static void do_brx(struct launch *L, struct warp *w, struct group *g, const struct dinsn *di,
		   uint32_t mask)
{
	struct frame *f = g->frame;
	uint32_t left = mask, stay = g->mask & ~mask;
	while (left) {
		uint32_t l0 = (uint32_t)__builtin_ctz(left);
		uint64_t i0 = op_read(L, w, f, &di->s[0], l0) & 0xffffffffu;
		if (i0 >= di->s[1].nelem) {
			runtime_error(L, 1, "brx.idx index %llu is outside its %u targets",
				      (unsigned long long)i0, di->s[1].nelem);
			return;
		}
		uint32_t same = 0;
		for (uint32_t m = left; m; m &= m - 1) {
			uint32_t l = (uint32_t)__builtin_ctz(m);
			if ((op_read(L, w, f, &di->s[0], l) & 0xffffffffu) == i0)
				same |= 1u << l;
		}
		left &= ~same;
		uint32_t target = (uint32_t)di->s[1].elems[i0].off;
		if (!left && !stay) {
			g->pc = target;
			return;
		}
		sched_split(w, g, same, target);
	}
	g->pc++;
}

/* Anything that is not straight-line ALU work goes through here. Returns false when the
 * group blocked (state changed) and must yield. */
static bool exec_other(struct launch *L, struct warp *w, struct group *g, const struct dinsn *di,
		       uint32_t mask)
{
	switch ((enum ir_family)di->fam) {
	case FAM_MOVE:
		exec_move(L, w, g->frame, di, mask);
		g->pc++;
		return true;
	case FAM_MEM:
		exec_mem(L, w, g->frame, di, mask);
		g->pc++;
		return true;
	case FAM_MBAR:
		if (!mbar_exec(L, w, g, di, mask))
			return false;
		g->pc++;
		return true;
	case FAM_ASYNC:
		async_exec(L, w, g, di, mask);
		g->pc++;
		return true;
	case FAM_TMA:
		tma_exec(L, w, g, di, mask);
		g->pc++;
		return true;
	case FAM_WARP:
	case FAM_SYNC:
		return exec_warp(L, w, g, di, mask);
	case FAM_MMA:
		return exec_mma(L, w, g, di, mask);
	case FAM_WGMMA:
		return wgmma_exec(L, w, g, di, mask);
	case FAM_UNMODELLED:
		runtime_error(L, 2, "unsupported instruction '%s': ptxi reads it but does not model "
			      "it", ir_op_name((enum ir_op)di->op));
		return false;
	default:
		runtime_error(L, 2, "internal error: no handler for '%s'",
			      ir_op_name((enum ir_op)di->op));
		return false;
	}
}

/*
 * The dispatch loop. Runs group g until it blocks, splits, exits, meets or passes another
 * group of its warp (so the scheduler can re-converge them), or `budget` runs out.
 */
uint32_t interp_run_group(struct launch *L, struct warp *w, struct group *g, uint32_t budget)
{
	uint64_t tmp[6][LANES];
	uint32_t n = 0;
	bool alone = w->groups == g && !g->next;
	/* Stop where the next group of the same frame waits, so the two re-converge. */
	uint32_t stop_pc = UINT32_MAX;
	for (struct group *o = w->groups; o && !alone; o = o->next)
		if (o != g && o->frame == g->frame && o->pc > g->pc && o->pc < stop_pc)
			stop_pc = o->pc;
	L->cw = w;
	while (n < budget && g->state == G_READY && !L->stop) {
		struct frame *f = g->frame;
		const struct dinsn *di = &f->fn->code[g->pc];
		uint32_t mask = g->mask;
		L->ci = di;
		if (di->guard >= 0)
			mask &= pred_mask(slot_ptr(f, (uint32_t)di->guard), di->guard_neg);
		L->cmask = mask;
		n++;
		L->steps++;
		if (L->cfg.trace_all)
			trace_insn(L, w, di, g->mask, mask);
		if (!mask) { /* the guard is false for every lane: nothing happens */
			if (++g->pc == stop_pc)
				return n;
			continue;
		}
		if (w->wg_busy)
			wgmma_check_regs(L, w, f, di, mask);
		if (di->fam == FAM_ALU) {
			struct alu_args x;
			x.d = di->d.kind == DOP_REG ? slot_ptr(f, di->d.slot) : tmp[4];
			x.d2 = di->d2.kind == DOP_REG ? slot_ptr(f, di->d2.slot) : tmp[5];
			const uint64_t **src[4] = {&x.a, &x.b, &x.c, &x.e};
			x.a = x.b = x.c = x.e = NULL;
			for (uint32_t i = 0; i < di->nsrc && i < 4; i++)
				*src[i] = lanes_of(L, w, f, &di->s[i], tmp[i], mask);
			x.cc = w->cc;
			di->alu.fn(&di->alu, &x, mask);
			if (w->wg_track)
				wgmma_note_writes(w, f, di);
			if (L->cfg.trace_all)
				trace_result(L, f, di, mask);
			if (++g->pc == stop_pc)
				return n;
			continue;
		}
		switch ((enum ir_op)di->op) {
		case OP_BRA: {
			uint32_t before = g->mask;
			do_branch(L, w, g, mask, di->target);
			if (!alone || mask != before)
				return n; /* diverged, or others to re-converge with */
			continue;
		}
		case OP_BRX_IDX:
			do_brx(L, w, g, di, mask);
			return n;
		case OP_CALL:
			do_call(L, w, g, di, mask);
			return n;
		case OP_RET:
			do_ret(L, w, g, mask);
			return n;
		case OP_EXIT:
			sched_group_exit(L, w, g, mask);
			return n;
		case OP_TRAP:
			rule_break(L, RULE_TRAP, mask, "trap executed");
			L->stop = true;
			return n;
		default:
			/* Asynchronous work lands at its due step, before an instruction that
			 * could observe it (ALU and control instructions cannot). */
			if (L->steps >= L->next_due)
				async_land_due(L, L->steps);
			if (di->flags & DF_VEC_DUP)
				rule_break(L, RULE_VEC_DST_REPEATED, mask, "the vector destination "
					   "names one register twice (the last element is kept)");
			if (L->stop)
				return n;
			bool go_on = exec_other(L, w, g, di, mask);
			if (w->wg_track)
				wgmma_note_writes(w, f, di);
			if (!go_on)
				return n;
			if (L->cfg.trace_all && di->fam != FAM_MBAR)
				trace_result(L, f, di, mask);
			if (!alone || w->groups != g || g->next)
				return n;
			continue;
		}
	}
	return n;
}
