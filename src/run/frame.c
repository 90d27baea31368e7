/*
 * frame.c - call frames: a function's registers and parameters for the 32 lanes of a warp,
 * kept in a per-function cache for reuse, each thread's .local stack; and how arguments and
 * results move between a caller's frame and its callee's.
 */
#include "frame.h"

#include <stdlib.h>
#include <string.h>

#include "memory.h"
#include "operand.h"
#include "report/rules.h"

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
struct frame *frame_new(struct launch *L, struct warp *w, struct dfunc *fn)
{
	size_t idx = (size_t)(fn - L->P->funcs);
	uint32_t need = w->local_top + fn->local_size; /* do_call keeps it within the stack */
	if (!local_grow(L, w, need))
		return NULL;
	struct frame *f = L->frame_cache ? L->frame_cache[idx] : NULL;
	size_t pbytes = (size_t)LANES * (fn->param_size ? fn->param_size : 1);
	if (f) {
		L->frame_cache[idx] = f->next_free;
		if (fn->clear_known && !L->dbg && !L->cfg.trace_all) /* what a thread may read first */
			for (uint32_t k = 0; k < fn->nclear; k++)
				memset(f->regs + (size_t)fn->clear[2 * k] * LANES, 0,
				       (size_t)fn->clear[2 * k + 1] * LANES * sizeof(uint64_t));
		else /* ptxi debug shows any lane's registers, --trace each read */
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
		if (f) { /* kept in the cache until the launch ends: the launch's scratch */
			f->fn = fn;
			f->regs = mem_scratch_calloc(L->mem, &L->scratch,
						     (size_t)fn->nslots * LANES * sizeof(uint64_t));
			f->params = mem_scratch_calloc(L->mem, &L->scratch, pbytes);
		}
		if (!f || !f->regs || !f->params) {
			if (f) {
				mem_scratch_free(L->mem, f->regs);
				mem_scratch_free(L->mem, f->params);
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
			mem_scratch_free(L->mem, f->regs);
			mem_scratch_free(L->mem, f->params);
			free(f);
			f = next;
		}
	}
	free(L->frame_cache);
	L->frame_cache = NULL;
}

void frame_scratch_expect(struct launch *L, unsigned jobs)
{
	const struct launch_config *k = &L->cfg;
	uint64_t warps = (uint64_t)k->cluster[0] * k->cluster[1] * k->cluster[2] *
			 (((uint64_t)k->block[0] * k->block[1] * k->block[2] + LANES - 1) / LANES);
	if (k->cooperative) /* every cluster at once */
		warps *= (uint64_t)(k->grid[0] / k->cluster[0]) * (k->grid[1] / k->cluster[1]) *
			 (k->grid[2] / k->cluster[2]);
	/* a cluster at a time per thread; twice: the spin watch keeps a copy of each */
	mem_scratch_expect(L->mem, warps * frame_bytes(L->kernel) * 2, jobs ? jobs : 1);
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
void move_param(struct launch *L, struct warp *w, uint32_t mask, struct frame *sf,
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
