/*
 * interp.c - the dispatch loop: run one group of a warp's lanes, instruction by
 * instruction, over lane arrays, each through the handler its ops.def row names (the ALU's
 * inline). Only the loop steps the pc: a handler answers next, jumped or parked (enum step).
 * Operand access, special registers, and the control-flow handlers (branches, calls,
 * returns, exit) live here; arithmetic is in exec_*.c, memory in exec_mem.c, warp and
 * barrier instructions in exec_warp.c, mbarriers in mbarrier.c.
 */
#include "interp.h"

#include "ptxi/ptxi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "hopper/async.h"
#include "devrt.h"
#include "exec.h"
#include "jit.h"
#include "exec_alu_impl.h"
#include "frame.h"
#include "report/gather.h"
#include "converge.h"
#include "group.h"
#include "hopper/mbarrier.h"
#include "memory.h"
#include "operand.h"
#include "report/rules.h"
#include "race.h"
#include "race_priv.h" /* (race_bar_defer: the sweep hop's arrival inline) */
#include "report/trace.h"
#include "smem.h"
#include "barrier.h"
#include "sweep.h"
#include "seg_sweep.h"
#include "debug_hook.h"
#include "hopper/wgmma.h"

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

/* ---- control flow -------------------------------------------------------------------- */

/* The lanes whose predicate (bit 0 of each lane) is true, or false if neg. Sixteen lanes at
 * a time where SSE2 is there: the lanes' low words gathered four to a vector (shufps), bit 0
 * shifted to the sign bit, the signs packed to bytes (saturating: 0x80000000 stays
 * negative, 0 stays 0) and gathered by pmovmskb. */
static inline uint32_t pred_mask(const uint64_t *p, bool neg)
{
	uint32_t m = 0;
#ifdef __SSE2__
#pragma GCC unroll 2
	for (int h = 0; h < LANES; h += 16) {
		__m128i q[4];
		for (int i = 0; i < 4; i++) {
			__m128 a = _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)(p + h + 4 * i)));
			__m128 b = _mm_castsi128_ps(
				_mm_loadu_si128((const __m128i *)(p + h + 4 * i + 2)));
			q[i] = _mm_slli_epi32(_mm_castps_si128(_mm_shuffle_ps(a, b, 0x88)), 31);
		}
		__m128i w = _mm_packs_epi16(_mm_packs_epi32(q[0], q[1]), _mm_packs_epi32(q[2], q[3]));
		m |= (uint32_t)_mm_movemask_epi8(w) << h;
	}
#else
	for (int l = 0; l < LANES; l++)
		m |= (uint32_t)(p[l] & 1) << l;
#endif
	return neg ? ~m : m;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define PRED_AVX2 1
/* pred_mask with AVX2 (run_direct, where the CPU has it): eight lanes' low words a vector
 * (vshufps gathers lanes 0,1,4,5 | 2,3,6,7, vpermq puts them in order), bit 0 shifted to
 * the sign bit, packed to words and bytes with saturation (whose interleaving of the
 * 128-bit halves vpermd undoes), the signs gathered by vpmovmskb. */
__attribute__((target("avx2"))) static uint32_t pred_mask_avx2(const uint64_t *p, bool neg)
{
	__m256i d[4];
#pragma GCC unroll 4
	for (int i = 0; i < 4; i++) {
		__m256 a = _mm256_castsi256_ps(_mm256_loadu_si256((const __m256i *)(p + 8 * i)));
		__m256 b = _mm256_castsi256_ps(_mm256_loadu_si256((const __m256i *)(p + 8 * i + 4)));
		__m256i q = _mm256_castps_si256(_mm256_shuffle_ps(a, b, 0x88));
		d[i] = _mm256_slli_epi32(_mm256_permute4x64_epi64(q, 0xD8), 31);
	}
	__m256i w = _mm256_packs_epi16(_mm256_packs_epi32(d[0], d[1]), _mm256_packs_epi32(d[2], d[3]));
	w = _mm256_permutevar8x32_epi32(w, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
	uint32_t m = (uint32_t)_mm256_movemask_epi8(w);
	return neg ? ~m : m;
}
#endif

/* The guard's lanes in run_direct: with AVX2 where the CPU has it (`avx2`). */
static inline uint32_t guard_mask(const uint64_t *p, bool neg, bool avx2)
{
#ifdef PRED_AVX2
	if (avx2)
		return pred_mask_avx2(p, neg);
#else
	(void)avx2;
#endif
	return pred_mask(p, neg);
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

/* ---- control flow --------------------------------------------------------------------- */

/* call: into the callee's frame (the scheduler picks the deepest frame next), or an external
 * function run at once (devrt.c). */
enum step exec_call(struct launch *L, struct warp *w, struct group *g, const struct dinsn *di,
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
			return STEP_PARKED;
		}
		callee = &L->P->funcs[idx];
		mask = same;
		if (!indirect_call_fits(L, di, callee))
			return STEP_PARKED;
	}
	if (!callee->ir->has_body) { /* an external: the device runtime, or an error */
		if (mask == g->mask) {
			devrt_call(L, w, f, di, callee, mask);
			return STEP_NEXT;
		}
		/* the calling lanes go on past the call in a group of their own */
		if (group_split(w, g, mask, g->pc + 1))
			devrt_call(L, w, f, di, callee, mask);
		return STEP_PARKED;
	}
	if (f->depth + 1 >= MAX_CALL_DEPTH) {
		rule_break(L, RULE_STACK_OVERFLOW, mask, "call depth %u exceeded calling '%s'",
			   MAX_CALL_DEPTH, callee->name);
		return STEP_PARKED;
	}
	uint64_t stack = (uint64_t)f->stack + callee->local_size + callee->param_size;
	if (stack > MAX_THREAD_STACK) {
		rule_break(L, RULE_STACK_OVERFLOW, mask, "calling '%s' at depth %u needs %llu bytes "
			   "of stack per thread (.local and .param of every active frame); a thread "
			   "has %u", callee->name, f->depth + 1, (unsigned long long)stack,
			   MAX_THREAD_STACK);
		return STEP_PARKED;
	}
	if (mask != g->mask) {
		g = group_split(w, g, mask, g->pc);
		if (!g)
			return STEP_PARKED;
	}
	struct frame *nf = frame_new(L, w, callee);
	if (!nf) {
		if (!L->stop)
			runtime_error(L, 1, "out of memory calling '%s'", callee->name);
		return STEP_PARKED;
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
	return STEP_PARKED;
}

/* ret from a .func: copy results, pop the frame (the scheduler picks again); from the
 * kernel, the lanes exit. */
enum step exec_ret(struct launch *L, struct warp *w, struct group *g, const struct dinsn *di,
		   uint32_t mask)
{
	(void)di;
	struct frame *f = g->frame;
	if (!f->caller)
		return exec_exit(L, w, g, di, mask);
	if (mask != g->mask) {
		g = group_split(w, g, mask, g->pc);
		if (!g)
			return STEP_PARKED;
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
	return STEP_PARKED;
}

/* bra, taken by the lanes of mask: uniform, or split in two groups (the taken lanes go to
 * the target in a group of their own, the others on). */
enum step exec_bra(struct launch *L, struct warp *w, struct group *g, const struct dinsn *di,
		   uint32_t mask)
{
	if (mask == g->mask) {
		g->pc = di->target;
		return STEP_JUMPED;
	}
	if (group_split(w, g, mask, di->target))
		return STEP_NEXT;
	runtime_error(L, 1, "out of memory splitting a divergent branch");
	return STEP_PARKED;
}

/* brx.idx: each lane to the target its index picks, in one group per target. It hands
 * back to the scheduler even when all lanes go one way. */
enum step exec_brx(struct launch *L, struct warp *w, struct group *g, const struct dinsn *di,
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
			return STEP_PARKED;
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
			return STEP_PARKED;
		}
		group_split(w, g, same, target);
	}
	return STEP_NEXT; /* the lanes whose guard is false go on */
}

enum step exec_exit(struct launch *L, struct warp *w, struct group *g, const struct dinsn *di,
		    uint32_t mask)
{
	(void)di;
	group_exit(L, w, g, mask);
	return STEP_PARKED;
}

enum step exec_trap(struct launch *L, struct warp *w, struct group *g, const struct dinsn *di,
		    uint32_t mask)
{
	(void)w, (void)g, (void)di;
	if (L->P->reads_grid_ws && !L->mem->grid_ws)
		rule_break_notes(L, RULE_TRAP, mask, "the kernel reads %envreg1 and %envreg2, the "
				 "grid-sync workspace that cooperative_groups' this_grid().sync() "
				 "traps without, and the launch has none: only a cooperative launch "
				 "gets one (ptxi run --cooperative, cudaLaunchCooperativeKernel)",
				 "trap executed");
	else
		rule_break(L, RULE_TRAP, mask, "trap executed");
	L->stop = true;
	return STEP_PARKED;
}

/* ---- handlers of the ALU and of what ptxi does not run ---------------------------------- */

/* An ALU instruction: the lane function the loader picked (di->alu.fn) over the lane arrays;
 * tmp holds operands that are not registers. */
static inline void alu_run(struct launch *L, struct warp *w, struct frame *f,
			   const struct dinsn *di, uint32_t mask, uint64_t tmp[5][LANES])
{
	struct alu_args x;
	x.d = di->d.kind == DOP_REG ? slot_ptr(f, di->d.slot) : tmp[4];
	x.d2 = di->d2.kind == DOP_REG ? slot_ptr(f, di->d2.slot) : NULL; /* setp without |q */
	const uint64_t **src[4] = {&x.a, &x.b, &x.c, &x.e};
	x.a = x.b = x.c = x.e = NULL;
	for (uint32_t i = 0; i < di->nsrc && i < 4; i++)
		*src[i] = lanes_of(L, w, f, &di->s[i], tmp[i], mask);
	x.cc = w->cc;
	di->alu.fn(&di->alu, &x, mask);
}

/* The ALU rows' handler. The dispatch loop runs them through alu_run itself, inline. */
enum step exec_alu(struct launch *L, struct warp *w, struct group *g, const struct dinsn *di,
		   uint32_t mask)
{
	uint64_t tmp[5][LANES];
	alu_run(L, w, g->frame, di, mask, tmp);
	return STEP_NEXT;
}

enum step exec_unmodelled(struct launch *L, struct warp *w, struct group *g,
			  const struct dinsn *di, uint32_t mask)
{
	(void)w, (void)g, (void)mask;
	runtime_error(L, 2, "unsupported instruction '%s': ptxi reads it but does not model it",
		      ir_op_name((enum ir_op)di->op));
	return STEP_PARKED;
}

enum step exec_unsupported(struct launch *L, struct warp *w, struct group *g,
			   const struct dinsn *di, uint32_t mask)
{
	(void)w, (void)g, (void)mask;
	runtime_error(L, 2, "unsupported instruction '%.*s': %s", (int)di->ir->op_span.len,
		      L->P->m->file->text + di->ir->op_span.off, di->unsup);
	return STEP_PARKED;
}

/* ---- the dispatch loop ---------------------------------------------------------------- */

/* Operand i's lane array of a DF_ALU_DIRECT instruction in the frame whose registers start
 * at address rb (struct alu_ref). */
static inline const uint64_t *aref_at(const struct dinsn *di, int i, uintptr_t rb)
{
	return (const uint64_t *)(di->aref.at[i] + (rb & di->aref.rel[i]));
}

/* A DF_ALU_DIRECT instruction's lane function on the lanes of mask, its operands in the
 * frame at rb; x carries the warp's carry flag between calls. */
static inline __attribute__((always_inline)) void alu_direct(const struct dinsn *di,
							     uintptr_t rb, struct alu_args *x,
							     uint32_t mask)
{
	x->d = (uint64_t *)aref_at(di, 0, rb);
	x->d2 = (uint64_t *)aref_at(di, 1, rb);
	x->a = aref_at(di, 2, rb);
	x->b = aref_at(di, 3, rb);
	x->c = aref_at(di, 4, rb);
	x->e = aref_at(di, 5, rb);
	di->alu.fn(&di->alu, x, mask);
}

/* How many instructions from di the native tier's block (jit.h) entered there runs: to its
 * end, or the last boundary within the budget and before stop; 0: none. */
static inline uint32_t jit_span(const struct dinsn *di, uint32_t left, const struct dinsn *stop)
{
	if (!di->jit)
		return 0;
	uint32_t n = di->jit_len;
	if (n > left)
		n = left;
	if (stop && stop > di && (uint32_t)(stop - di) < n)
		n = (uint32_t)(stop - di);
	return n < di->jit_len ? n - n % JIT_STEP : n;
}

/* The handlers run_direct may call itself (DF_EXEC_DIRECT): plain memory accesses, moves
 * of special registers and addresses, CTA barriers and branches. None of them splits a
 * group when its mask is the group's, and none but bra answers STEP_JUMPED. */
void interp_mark_direct(struct dinsn *di)
{
	exec_fn *e = di->exec;
	if (di->flags & DF_VEC_DUP)
		return; /* a rule breaks at each one: the dispatch loop says it */
	if (e == exec_ld || e == exec_st || e == exec_mov || e == exec_cvta || e == exec_bar ||
	    e == exec_bra)
		di->flags |= DF_EXEC_DIRECT | (converge_needed(di) ? DF_EXEC_ALIGNED : 0);
}

/* (struct repick, what the scheduler does between two runs done in place: seg_sweep.h) */
static inline void repicked(struct launch *L, struct repick *r, uint32_t n, uint32_t lanes_was,
			    uint32_t lanes_now)
{
	L->clock += n - r->n_clocked;
	r->n_clocked = n;
	if (lanes_now != lanes_was) {
		int32_t d = (int32_t)lanes_now - (int32_t)lanes_was;
		r->dlanes += d;
		r->fix -= (uint64_t)n * (uint64_t)(int64_t)d;
	}
}

/* The lanes whose values lie at lanes `out` (as p says) leave a loop whose pass stands for
 * them: its slots written only go from the save area to their own lanes (jit_loop_fn); those
 * slots are none the packing moves. Returns those lanes. */
static uint32_t loop_left(uint64_t *regs, const uint32_t *wonly, const uint64_t *save,
			  const struct jit_perm *p, uint32_t out)
{
	uint32_t lanes = 0;
	uint64_t *to[JIT_WONLY];
	uint32_t nw = wonly[0];
	for (uint32_t k = 0; k < nw; k++)
		to[k] = regs + (size_t)wonly[1 + k] * LANES;
	for (uint32_t b = out; b; b &= b - 1) {
		uint32_t j = (uint32_t)__builtin_ctz(b), l = p->at[j];
		const uint64_t *from = save + JIT_SAVE_WONLY + j;
		for (uint32_t k = 0; k < nw; k++)
			to[k][l] = from[k * LANES];
		lanes |= 1u << l;
	}
	return lanes;
}

/* Put back the saved lanes m of a loop's kept registers (jit_loop_fn): the pass taken back. */
static void loop_restore(uint64_t *regs, const uint32_t *keep, const uint64_t *save, uint32_t m)
{
	for (uint32_t k = 0; k < keep[0]; k++) {
		uint64_t *r = regs + (size_t)keep[1 + k] * LANES;
		const uint64_t *s = save + k * LANES;
		if (m == UINT32_MAX)
			memcpy(r, s, LANES * sizeof *save);
		else
			for (uint32_t b = m; b; b &= b - 1)
				r[__builtin_ctz(b)] = s[__builtin_ctz(b)];
	}
}

/*
 * At di, the start of a native block (jit.h) whose whole run_direct may run (n, left: its
 * length and budget): if the instruction after it is a plain branch back to di, the loop
 * runs its body again while each pass's branch is taken by all of the group's lanes and the
 * loop below would go on after it (budget left, and alone or group_picked_again), doing
 * what it does: the fairness streak, the stop and the clock (repicked, n_done the
 * instructions run before di) as it leaves them. Lanes whose branch is not taken while
 * others' is leave the loop in place where the scheduler would pick the rest again at once
 * (group_loop_exit: the split, and pick's merge of the leaving lanes into the group waiting
 * past the loop): the group goes on with fewer lanes (g->mask, and *stop_pc), its
 * thread-instructions counted as the split's (repicked), its streak begun again. Returns the
 * passes of the body run (0: none, it is no such loop or a second pass could not follow); its
 * last pass's branch is not run.
 */
static __attribute__((noinline)) uint32_t jit_loop(struct launch *L, struct warp *w,
						     struct group *g,
			 const struct dinsn *di, uint32_t n, uint32_t left, uintptr_t rb,
			 uint32_t gmask, bool alone, uint32_t n_done, struct repick *rp,
			 uint32_t *stop_pc)
{
	const struct dfunc *fn = g->frame->fn;
	const struct dinsn *br = di + n;
	uint32_t head = (uint32_t)(di - fn->code), end = head + n, stop = *stop_pc;
	uint32_t cap = (left + 1) / (n + 1), picks = UINT32_MAX;
	if (cap < 2 || end >= fn->ncode || br->exec != exec_bra || br->target != head ||
	    (br->flags & (DF_EXEC_DIRECT | DF_EXEC_ALIGNED)) != DF_EXEC_DIRECT)
		return 0;
	if (!alone) {
		g->pc = head;
		picks = L->async.nevents ? 0 : group_picks_left(w, g, &stop);
		if (!picks)
			return 0;
	}
	if (stop > head && stop <= end)
		return 0; /* another group waits in the loop */
	/* win: the passes the fairness streak allows from pass `from` on (the last is the one
	 * whose branch hands back) */
	uint32_t runs = 1, win = picks == UINT32_MAX ? UINT32_MAX : picks + 1, from = 0;
	bool left_in_place = false;
	if (di->jit_loop) { /* the passes compiled; the last taken back and run as a block */
		uint64_t save[JIT_SAVE], *regs = (uint64_t *)rb;
		const uint32_t *touched = jit_touched(di->jit_keep), *wonly = jit_wonly(di->jit_keep);
		struct jit_perm p;
		bool all_left = false;
		/* lanes may leave in place where the scheduler does nothing but the split and
		 * pick between the passes: no asynchronous event, somewhere to go */
		bool may_leave = !L->async.nevents && end + 1 < fn->ncode;
		/* after lanes left, the pass taken back has its branch within the budget (the loop
		 * below runs it, and leaves L->ci and L->cmask as they are to be) */
		uint32_t capx = cap * (n + 1) > left ? cap - 1 : cap;
		uint32_t m, done = 0; /* where the lanes running lie (jit_compact), passes run */
		/* the c-th pass of a call that may run c is the block's (tail): a pass the code
		 * ran would be taken back there, as at the cap or the streak's end */
		bool tail = false;
		jit_perm_init(&p);
		m = jit_compact(regs, touched + 1, touched[0], &p, gmask);
		memset(save + JIT_SAVE_EXIT, 0, LANES * sizeof *save);
		for (;;) {
			uint32_t c = (left_in_place ? capx : cap) - done;
			if (win != UINT32_MAX && win - (done - from) < c)
				c = win - (done - from);
			if (c < 2) {
				tail = true;
				break;
			}
			uint32_t r = c - 1 - di->jit_loop(regs, m, c - 1, save);
			done += r;
			uint32_t out = pred_mask(save + JIT_SAVE_EXIT, false) & m;
			if (out == m) { /* every lane left: the pass stands for all */
				loop_left(regs, wonly, save, &p, out);
				all_left = true;
				break;
			}
			if (!out) { /* (r == c - 1) every lane goes on: the c-th pass is the block's */
				tail = true;
				break;
			}
			/* lanes left in this pass: it stands (for the lanes that left, their slots
			 * written only are copied now: a pass taken back writes them again), its
			 * branch split the group, and the scheduler picked the lanes that go on
			 * again at once; or, where it would do more, the pass is taken back */
			if (!may_leave || done >= capx ||
			    !group_loop_exit(w, g, loop_left(regs, wonly, save, &p, out), end + 1))
				break;
			repicked(L, rp, n_done + done * (n + 1), popcount32(m), popcount32(m & ~out));
			for (uint32_t b = out; b; b &= b - 1)
				save[JIT_SAVE_EXIT + __builtin_ctz(b)] = 0;
			m = jit_compact(regs, touched + 1, touched[0], &p, m & ~out);
			from = done;
			win = FAIR_PICKS;
			left_in_place = true;
		}
		runs = done + tail;
		if (!all_left && !tail)
			loop_restore(regs, di->jit_keep, save, m);
		jit_unpack(regs, touched + 1, touched[0], &p);
		if (!all_left) /* (the lanes at m, unpacked: the group's, as lanes left in place) */
			di->jit(regs, g->mask, UINT32_MAX);
	} else {
		if (win < cap)
			cap = win;
		const uint64_t *guard = br->guard >= 0 ? (const uint64_t *)rb +
					(size_t)br->guard * LANES : NULL;
		for (;; runs++) {
			di->jit((uint64_t *)rb, gmask, UINT32_MAX);
			if (runs == cap ||
			    (guard && (gmask & pred_mask(guard, br->guard_neg)) != gmask))
				break;
		}
	}
	if (left_in_place) {
		w->streak = runs - 1 - from;
		*stop_pc = end + 1;
		repicked(L, rp, n_done + (runs - 1) * (n + 1), 0, 0);
	} else if (runs > 1 && !alone) {
		w->streak = picks == UINT32_MAX ? 0 : w->streak + runs - 1;
		*stop_pc = stop;
		repicked(L, rp, n_done + (runs - 1) * (n + 1), 0, 0);
	}
	return runs;
}

/*
 * A divergent forward branch of a warp's one group over a short stretch that needs no
 * group but its own (ALU instructions, plain loads, stores and moves: nothing that
 * branches, waits, or looks at the warp's other groups), where the scheduler would run the
 * lanes that fall through at once, then merge the two at the target: the split is not made
 * unless run_direct hands back inside the stretch (struct repick's vlanes: the taken lanes,
 * waiting at vpc; vsplit_make), and the merge is done in place (vsplit_join, what pick and
 * group_rejoin do). What the stretch's instructions see is the split's: the group's mask
 * is the lanes that fall through, the fairness streak, the clock and the counts move as
 * group_picked_again and pick would move them. With the detector on too: its checks and
 * records read the lanes of each access (the mask), L->steps, L->ci and L->cmask, which
 * are the split's, and nothing of the warp's groups.
 */
static bool vsplit_fits(const struct launch *L, const struct warp *w, const struct group *g,
			const struct dinsn *code, const struct dinsn *di, uint32_t left)
{
	uint32_t pc = (uint32_t)(di - code), t = di->target;
	if (L->async.nevents || w->last_pick != g || w->streak + 1 >= FAIR_PICKS ||
	    t <= pc + 1 || t - pc > JIT_VSPLIT_MAX || left < 2)
		return false;
	for (const struct dinsn *i = di + 1; i < code + t; i++) {
		exec_fn *e = i->exec;
		if ((i->flags & DF_ALU_DIRECT) ? i->jit_keep != NULL
		    : (i->flags & (DF_EXEC_DIRECT | DF_EXEC_ALIGNED)) != DF_EXEC_DIRECT ||
		      (e != exec_ld && e != exec_st && e != exec_mov && e != exec_cvta))
			return false;
	}
	return true;
}

/* The split not made at di, a branch the lanes `mask` of g (gmask) take, n the instructions
 * run with it: the lanes that fall through go on as g, the taken ones wait at the target
 * (rp->vlanes, vpc), the streak and the counts as exec_bra's split, group_picked_again's yes
 * and repicked leave them. */
static void vsplit_begin(struct launch *L, struct warp *w, struct group *g, struct repick *rp,
			 const struct dinsn *di, uint32_t gmask, uint32_t mask, uint32_t n)
{
	g->mask = gmask & ~mask;
	w->split = WARP_SPLIT;
	rp->vlanes = mask;
	rp->vpc = di->target;
	w->streak++;
	repicked(L, rp, n, popcount32(gmask), popcount32(g->mask));
}

/* The taken lanes (rp->vlanes) rejoin g at their target, as pick merges them; n: the
 * instructions run (repicked). */
static inline __attribute__((always_inline)) void
vsplit_join(struct launch *L, struct warp *w, struct group *g, struct repick *rp, uint32_t n)
{
	uint32_t was = popcount32(g->mask);
	g->mask |= rp->vlanes;
	rp->vlanes = 0;
	w->streak = 0;
	w->last_pick = g;
	repicked(L, rp, n, was, popcount32(g->mask));
}

/* The split, made now: exec_bra's, the taken lanes waiting at their target. */
static void vsplit_make(struct launch *L, struct warp *w, struct group *g, struct repick *rp)
{
	uint32_t lanes = rp->vlanes;
	rp->vlanes = 0;
	if (!group_split(w, g, lanes, rp->vpc))
		runtime_error(L, 1, "out of memory splitting a divergent branch");
}

/* run_direct's handlers it does in place for a whole warp's group that runs alone (a
 * kernel's prologue has several: its parameters, special registers and variables' addresses
 * into registers): exec.h's forms of exec_mov and exec_ld, which no step can observe but
 * through the registers they write; true when done. */
static inline bool in_place_form(const struct dinsn *di)
{
	/* (a test of two loads: a loop's ld.global pays no more) */
	return di->exec == exec_mov || (di->space == MS_PARAM_KERNEL && di->exec == exec_ld);
}

static inline bool in_place(struct launch *L, struct warp *w, struct frame *f,
			    const struct dinsn *di)
{
	if (di->exec == exec_mov)
		return exec_mov_warp(L, w, f, di);
	return exec_ld_kparam(L, f, di, FULL_MASK);
}

/*
 * A run of DF_ALU_DIRECT and DF_EXEC_DIRECT instructions from g's pc, at most `limit` of
 * them and not past *stop_at, for a group nothing watches (no debugger, no trace, no wgmma
 * in flight or to note). While g is its warp's only group (`alone`) it goes on as the loop
 * below does, and past a CTA barrier its own arrival completed (the scheduler would pick
 * the warp's one group again at once). A group that is not alone goes on after each handler
 * or branch - a divergent one too, which splits it - where the scheduler would pick it again
 * at once (group_picked_again), doing in place what the scheduler does between two runs
 * (repicked). The pc, the code and the registers stay in locals; L->steps, L->ci and
 * L->cmask are written before a handler runs (not one done in place: in_place) and at the
 * end, as the dispatch loop would have left them, since no lane function reads them. Each
 * instruction does here exactly what the loop below would do with it, in the same order;
 * what this does not do (a barrier some lanes of the warp are not at) it leaves to the loop,
 * untouched. *parked: the loop must hand back now (a handler parked the group, a group
 * split off, or the scheduler would pick another group). Returns how many instructions ran.
 */
static uint32_t run_direct(struct launch *L, struct warp *w, struct group *g, uint32_t limit,
			   uint32_t *stop_at, bool alone, uint32_t n_before, struct repick *rp,
			   bool *parked)
{
	/* The ALU loop keeps few values live across its calls (di, rb, gmask, left, stop):
	 * the pc is di - code, the count limit - left. */
	uint32_t stop_pc = *stop_at;
	const struct dinsn *code = g->frame->fn->code, *di = &code[g->pc], *last = NULL;
	const struct dinsn *stop = stop_pc == UINT32_MAX ? NULL : &code[stop_pc];
	uintptr_t rb = (uintptr_t)g->frame->regs;
	uint32_t gmask = g->mask, mask = 0, lmask = 0, left = limit;
	uint64_t steps = L->steps;
	struct alu_args x; /* (each lane array set before its call) */
	x.cc = w->cc;
	bool jit = !L->cfg.no_jit;
#ifdef PRED_AVX2
	bool avx2 = __builtin_cpu_supports("avx2");
#else
	bool avx2 = false;
#endif
	alone = alone && w->groups == g && !g->next;
again:
	for (;;) {
		uint32_t left0 = left;
		while (left) { /* the hot loop: ALU instructions alone */
			if (!(di->flags & DF_ALU_DIRECT))
				break;
			uint32_t n = jit ? jit_span(di, left, stop) : 0;
			if (n) { /* the native tier's block, then its last instruction's mask */
				uint32_t runs = di->jit_keep && n == di->jit_len
					? jit_loop(L, w, g, di, n, left, rb, gmask, alone,
						   n_before + limit - left, rp, &stop_pc) : 0;
				if (runs) { /* a loop: passes but the last ended by its jump */
					left -= (runs - 1) * (n + 1);
					stop = stop_pc == UINT32_MAX ? NULL : &code[stop_pc];
					/* lanes left it in place: its branch is the loop's below,
					 * which takes the group as it is now */
					if (g->mask != gmask)
						stop = di + n;
				} else {
					di->jit((uint64_t *)rb, gmask, n == di->jit_len
						? UINT32_MAX : di->jit_at + n / JIT_STEP);
				}
				left -= n;
				di += n - 1;
				mask = gmask;
				if (di->guard >= 0)
					mask &= guard_mask((const uint64_t *)rb +
							   (size_t)di->guard * LANES, di->guard_neg, avx2);
				if (++di == stop)
					break;
				continue;
			}
			mask = gmask;
			if (di->guard >= 0)
				mask &= guard_mask((const uint64_t *)rb + (size_t)di->guard * LANES,
						   di->guard_neg, avx2);
			if (mask)
				alu_direct(di, rb, &x, mask);
			left--;
			if (++di == stop)
				break;
		}
		if (left != left0) {
			last = di - 1;
			lmask = mask;
		}
		if (!left || di == stop || !(di->flags & DF_EXEC_DIRECT))
			break;
		/* di: a handler of DF_EXEC_DIRECT, as the dispatch loop would run it */
		mask = gmask;
		if (di->guard >= 0)
			mask &= guard_mask((const uint64_t *)rb + (size_t)di->guard * LANES,
					   di->guard_neg, avx2);
		if (!mask) { /* nothing happens */
			last = di;
			lmask = 0;
			left--;
			if (++di == stop)
				break;
			continue;
		}
		if ((di->flags & DF_EXEC_ALIGNED) && (mask != gmask || gmask != w->live))
			break;
		if (di->exec == exec_bra && mask == gmask) {
			last = di;
			lmask = mask;
			left--;
			di = &code[di->target];
			if (alone)
				continue;
			/* what the loop does after a jump of a group that is not alone */
			uint32_t k = limit - left;
			g->pc = (uint32_t)(di - code);
			if (!left || L->async.nevents || !group_picked_again(w, g, &stop_pc)) {
				*parked = true;
				break;
			}
			stop = stop_pc == UINT32_MAX ? NULL : &code[stop_pc];
			repicked(L, rp, n_before + k, 0, 0);
			continue;
		}
		if (in_place_form(di) && mask == FULL_MASK && alone && w->groups == g && !g->next &&
		    steps + (limit - left) + 1 < L->async.next_due && !L->stop &&
		    in_place(L, w, g->frame, di)) {
			/* done here, as below with nothing due to land: the handler's step,
			 * and the group goes on (the pc, L->steps, L->ci and L->cmask are
			 * written where the loop ends, as after an ALU instruction) */
			if (di->flags & DF_WRITES)
				L->writes++;
			left--;
			last = di++;
			lmask = mask;
			continue;
		}
		g->pc = (uint32_t)(di - code);
		L->steps = steps + (limit - left) + 1;
		L->ci = di;
		L->cmask = mask;
		if (di->exec == exec_bra) {
			if (alone && vsplit_fits(L, w, g, code, di, left)) {
				/* as below, the split not made: group_picked_again's yes, its
				 * stop the taken lanes' target */
				left--;
				vsplit_begin(L, w, g, rp, di, gmask, mask, n_before + limit - left);
				stop_pc = di->target;
				last = di;
				lmask = mask;
				di = &code[++g->pc];
				alone = false;
				stop = &code[stop_pc];
				gmask = g->mask;
				continue;
			}
			/* divergent: the taken lanes split off (exec_bra), the others go on; the
			 * loop hands back after it, and the scheduler picks again */
			enum step step = exec_bra(L, w, g, di, mask);
			left--;
			last = di;
			lmask = mask;
			if (step != STEP_NEXT) {
				*parked = true;
				L->steps = steps + (limit - left);
				*stop_at = stop_pc;
				return limit - left;
			}
			di = &code[++g->pc];
			alone = false;
			if (!left || L->async.nevents || !group_picked_again(w, g, &stop_pc)) {
				*parked = true;
				break;
			}
			stop = stop_pc == UINT32_MAX ? NULL : &code[stop_pc];
			repicked(L, rp, n_before + limit - left, popcount32(gmask), popcount32(g->mask));
			gmask = g->mask;
			continue;
		}
		if (L->steps >= L->async.next_due)
			interp_land_due(L, L->steps);
		if (di->flags & DF_WRITES) /* spin.c's quiet stretch ends, as in the loop */
			L->writes++;
		enum step step = L->stop ? STEP_PARKED : di->exec(L, w, g, di, mask);
		left--;
		if (step == STEP_NEXT)
			g->pc++;
		bool on = !L->stop && g->state == G_READY;
		if (on && alone && w->groups == g && !g->next) {
			/* on, as the loop goes on; past a barrier this arrival completed, as the
			 * scheduler picks the warp's one group again (pick's converged case) */
			if (step == STEP_PARKED && (on = left && !L->async.nevents)) {
				w->streak = 0;
				w->last_pick = g;
				repicked(L, rp, n_before + limit - left, 0, 0);
			}
		} else if (on && !alone && step == STEP_NEXT && rp->vlanes) {
			/* as below, with the taken lanes waiting at vpc: picked again while the
			 * streak allows; at vpc the scheduler would merge them and go on */
			on = left && !L->async.nevents;
			if (on && g->pc == rp->vpc) {
				vsplit_join(L, w, g, rp, n_before + limit - left);
				alone = true;
				gmask = g->mask;
				stop_pc = UINT32_MAX;
				stop = NULL;
			} else if (on && w->streak + 1 < FAIR_PICKS) {
				w->streak++;
				repicked(L, rp, n_before + limit - left, 0, 0);
			} else {
				on = false;
			}
		} else if (on && !alone && step == STEP_NEXT) {
			/* the loop hands back after a handler of a group not alone */
			on = left && !L->async.nevents && group_picked_again(w, g, &stop_pc);
			if (on) {
				stop = stop_pc == UINT32_MAX ? NULL : &code[stop_pc];
				repicked(L, rp, n_before + limit - left, 0, 0);
			}
		} else {
			on = false;
		}
		if (!on) {
			if (rp->vlanes)
				vsplit_make(L, w, g, rp);
			*parked = step == STEP_PARKED || w->groups != g || g->next;
			L->steps = steps + (limit - left);
			*stop_at = stop_pc;
			return limit - left;
		}
		last = di;
		lmask = mask;
		di = &code[g->pc];
	}
	if (rp->vlanes) { /* at the target: merged in place, as interp_run_group would */
		if (di == &code[rp->vpc] && left && !L->async.nevents && !L->stop) {
			vsplit_join(L, w, g, rp, n_before + limit - left);
			alone = true;
			gmask = g->mask;
			stop_pc = UINT32_MAX;
			stop = NULL;
			goto again;
		}
		vsplit_make(L, w, g, rp);
	}
	uint32_t k = limit - left;
	if (k) {
		g->pc = (uint32_t)(di - code);
		L->steps = steps + k;
		L->ci = last;
		L->cmask = lmask;
	}
	*stop_at = stop_pc;
	return k;
}

void interp_land_due(struct launch *L, uint64_t now)
{
	async_land_due(L, now);
	wgmma_land_due(L, now);
	L->async.next_due = async_next_due(L);
}

/* The end of a group's run of n instructions: the scheduler adds n to the clock, and n times
 * the lanes it picked to the thread-instructions; what repicked did in place is undone or
 * made up here. */
static inline void run_done(struct launch *L, const struct repick *rp, uint32_t n)
{
	L->clock -= rp->n_clocked;
	/* (the lanes may be back where they were, dlanes 0, and fix not: a split, then a
	 * rejoin) */
	L->thread_steps += (uint64_t)n * (uint64_t)(int64_t)rp->dlanes + rp->fix;
}

/*
 * The segment runner (issue #31): a warp's one group released from a CTA barrier, run from
 * there to the next one (a barrier-to-barrier segment) with less of run_direct's
 * bookkeeping - whole native blocks, lone ALU instructions, moves of a register or an
 * immediate, branches all of the group's lanes take or none does, ld/st.shared that smem.c
 * takes for the warp at once, bar.sync by the whole group - and at a barrier that waits on,
 * on with the round's next warp (the sweep, sweep_next) without a return to the dispatch
 * loop. It runs each instruction exactly as run_direct would, in the same order, and leaves
 * what run_direct leaves. What it does not take (a divergent branch, a block the budget
 * cuts, a loop's body, an access smem.c leaves to the general path, any other handler, an
 * asynchronous event due, the budget spent) it stops *before*, having done nothing of it,
 * with the pc, L->steps, L->ci and L->cmask as run_direct would have left them there
 * (SEG_DIRECT), so run_direct goes on from there as if it had run the segment's start itself.
 *
 * Why this is exact: nothing here reorders anything. The warps run in the scheduler's order
 * (sweep_next's), each instruction where run_direct would run it, so the clock, the
 * counts, %clock, the tickets of a global counter and any report are those of run_direct.
 * What it skips: a ld/st.shared smem.c takes, and a move, read neither the pc, L->steps,
 * L->ci nor L->cmask (smem.c answers false, having done nothing, wherever a lane could need
 * a report; a move of a register cannot report), so those are written only before a
 * barrier and where the runner ends; the landing of asynchronous work is never due inside
 * (checked before each handler as run_direct checks it: the runner stops there). With the
 * detector on, smem.c's path is exec_ld's and exec_st's own (each lane checked and recorded
 * in lane order), its records and reports read L->steps, L->ci and L->cmask, so those are
 * written before each ld/st.shared, and a report that stops the launch ends the turn there,
 * as run_direct's test after a handler does; a bar.sync's arrival releases as exec_bar's.
 */
enum seg {
	SEG_DIRECT, /* go on with run_direct from g's pc (w, g: the warp and group now)       */
	SEG_DONE,   /* as run_direct's return (*parked its answer)                           */
	SEG_AGAIN,  /* swept on to a warp whose turn the dispatch loop begins                  */
};

#ifdef PRED_AVX2
/* Whether g, its warp's one group, stands right after a CTA barrier's bar.sync (where a
 * warp's turn begins once the barrier completed), or at the start of its kernel where the
 * segment code has an entry (a fresh warp's first turn: its prologue, jit_pro.h). */
static inline bool seg_entry(const struct group *g)
{
	const struct dinsn *code = g->frame->fn->code;
	return g->pc ? code[g->pc - 1].exec == exec_bar : code->seg_bar;
}

/* g's `lanes` arrive at di, bar.sync of barrier id (b), which they do not complete: they
 * wait on (exec_bar's arrival, bar_note_waiter's record) */
static inline void seg_bar_wait(struct barstate *b, struct group *g, const struct dinsn *di,
				uint32_t id, uint32_t lanes)
{
	b->arrived += lanes;
	g->state = G_BAR;
	g->wait_id = id;
	bar_note_first(b, di); /* (bar_sync_const: an aligned form) */
}

/* w's group g arrives at di, bar.sync of a constant barrier by the whole group (mask): as
 * exec_bar does, its call and the completion's test inline where the barrier waits on (with
 * the detector, the arrival's release: bar_sync_rest's, L->ci the bar.sync). */
static inline enum step seg_bar(struct launch *L, struct warp *w, struct group *g,
				const struct dinsn *di, uint32_t mask)
{
	const struct dop *ido = &di->s[0];
	if (!bar_sync_const(di))
		return exec_bar(L, w, g, di, mask);
	struct cta *c = w->cta;
	uint32_t id = (uint32_t)ido->imm[0];
	struct barstate *b = &c->bar[id];
	if (b->arrived + popcount32(mask) >= (b->expected ? b->expected : c->live_threads))
		return exec_bar(L, w, g, di, mask); /* it completes: bar_release's */
	if (L->race)
		race_bar_arrive(L, w, mask, id);
	seg_bar_wait(b, g, di, id, popcount32(mask));
	return STEP_PARKED;
}

/* The writes the code's lazy hand-overs (jit_hand.c) left, made (seg_sweep.h's lz_base):
 * every C the segment code of a calm call calls or leaves to calls this first, before it
 * reads or writes any of them. With the detector its race forms leave L->steps and L->cw
 * written (its calls from the code read them; L->steps is the last access's where a report
 * stopped the launch). */
static void seg_lazy_settle(struct seg_sweeping *x)
{
	uint64_t *mark = x->c.calm == SEG_CALM_RACE ? &x->lz_race : &x->lz_base;
	if (*mark == SEG_LAZY_NONE)
		return;
	uint64_t base = *mark;
	struct launch *L = x->L;
	uint64_t steps = x->c.end - SWEEP_QUANTUM;
	/* where a lazy completion or a region's lazy merge was made in this turn (t.steps its
	 * mark), its repick: the clock moved on by the turn's instructions up to it, L->steps
	 * past it */
	uint32_t left = x->t.steps == steps ? x->t.left : SWEEP_QUANTUM;
	uint64_t now = x->c.end - left;
	x->t.steps = steps;
	x->t.left = left;
	x->c.regs = ((struct frame *)x->c.f)->regs; /* (the code's R_REGS: jit_hand.c's begin) */
	((struct repick *)x->c.rp)->n_clocked = SWEEP_QUANTUM - left;
	/* (with the detector the code wrote L->steps and L->cw at each hand-over and before
	 * each detector call, and a report's stop reads the access's L->steps; its lazy form
	 * makes no lazy completion, so `left` is SWEEP_QUANTUM there but after a region's
	 * lazy merge, which the clock and n_clocked count alone) */
	if (x->c.calm != SEG_CALM_RACE) {
		L->steps = now;
		L->cw = x->c.w;
	}
	/* the turn's one group, which the lazy form without the detector leaves (jit_hand.c's
	 * count_lazy, begin; the race forms write both, the same) */
	struct warp *w = x->c.w;
	x->t.g = w->groups;
	w->last_pick = w->groups;
	L->clock += now - base;
	L->thread_steps += (steps - base) * LANES;
	if (x->sw->k != 1) /* (k 1: a round's end began the turn, and cleared ran) */
		x->sw->ran = true;
	*mark = SEG_LAZY_NONE;
}

/* the same for a region's step (c a calm call's context, with the detector or without: a
 * struct seg_sweeping) */
static inline void seg_vs_settle(struct jit_seg_ctx *c)
{
	if (c->calm != SEG_NOT_CALM)
		seg_lazy_settle((struct seg_sweeping *)c);
}

/*
 * A region of the segment code (jit_seg.h): a divergent branch of w's whole group, where
 * run_direct would run its split not made (vsplit_fits), run by the code for the lanes that
 * fall through. The code makes the split's beginning, the picks after the accesses it makes
 * itself (its rows) and the merge at the target (jit_vs.c: vsplit_begin's, repicked's and
 * vsplit_join's writes); an access it leaves to C is seg_vs_smem's (L->steps, L->ci and
 * L->cmask, the access with the group's mask, L->writes, the group picked again or the
 * lanes merged). The code checks at the branch what run_direct would check on the way and
 * the code cannot leave halfway: the budget holds the region, no handler's test fails in
 * it. Where an access declines (smem.c: nothing done) the code leaves there with the split
 * not made standing (rp->vlanes) and run_direct goes on with it (seg_run, interp_run_group);
 * where a report stopped the launch, seg_run makes the split as run_direct does there.
 */
/* seg_vs_smem's steps before the access: the group at it, L->steps, L->ci and L->cmask */
static inline void seg_vs_at(struct jit_seg_ctx *c, uint32_t pc, uint32_t left)
{
	struct launch *L = c->L;
	struct warp *w = c->w;
	const struct frame *f = c->f;
	struct group *g = w->groups;
	g->pc = pc;
	L->steps = c->end - left + 1;
	L->ci = &f->fn->code[pc];
	L->cmask = g->mask;
}

/* and after it: L->writes, then the group past it picked again, or the lanes merged */
static uint32_t seg_vs_past(struct jit_seg_ctx *c, uint32_t pc, uint32_t left)
{
	struct launch *L = c->L;
	struct warp *w = c->w;
	const struct frame *f = c->f;
	struct group *g = w->groups;
	struct repick *rp = c->rp;
	if (f->fn->code[pc].flags & DF_WRITES)
		L->writes++;
	g->pc = pc + 1;
	if (L->stop)
		return JIT_VS_STOPPED;
	uint32_t n = c->n0 - (left - 1);
	if (g->pc == rp->vpc) {
		vsplit_join(L, w, g, rp, n);
	} else {
		w->streak++;
		repicked(L, rp, n, 0, 0);
	}
	return JIT_VS_ON;
}

static uint32_t seg_vs_smem(struct jit_seg_ctx *c, uint32_t pc, uint32_t left)
{
	seg_vs_settle(c);
	struct launch *L = c->L;
	struct warp *w = c->w;
	struct frame *f = c->f;
	const struct dinsn *di = &f->fn->code[pc];
	uint32_t mask = w->groups->mask;
	seg_vs_at(c, pc, left);
	if (!(di->exec == exec_ld ? smem_ld(L, w, f, di, mask) : smem_st(L, w, f, di, mask)))
		return JIT_VS_DECLINED;
	return seg_vs_past(c, pc, left);
}

/* c for the turn of w's whole group in frame f, `left` of its budget, `end` being its
 * steps + limit and n0 its instructions before plus limit (seg_run's), rp its repick: the
 * segment code's context, no hop (calm: L->stop clear and no step due, so hmin is 0) */
static inline __attribute__((always_inline)) void
seg_ctx_warp(struct jit_seg_ctx *c, const struct launch *L, struct warp *w, struct frame *f,
	     uint32_t left, uint64_t end, uint32_t n0, const bool calm)
{
	uint64_t due = L->async.next_due, late = end + 1 - due; /* now >= due: left <= late */
	c->regs = f->regs;
	c->left = left;
	c->hmin = calm ? 0
		  : L->stop || (due <= end + 1 && late >= UINT32_MAX) ? UINT32_MAX
		  : due <= end + 1 ? (uint32_t)late : 0;
	c->last = UINT32_MAX;
	c->writes = 0;
	c->row = JIT_ROW_ASK;
	c->w = w;
	c->f = f;
	c->end = end;
	c->n0 = n0;
}

/* the same, and what every turn's context holds alike (seg_hop's next turns keep it) */
static inline void seg_ctx_turn(struct jit_seg_ctx *c, struct launch *L, struct warp *w,
				struct frame *f, uint32_t left, uint64_t end, uint32_t n0,
				struct repick *rp)
{
	seg_ctx_warp(c, L, w, f, left, end, n0, false);
	c->L = L;
	c->row_cta = NULL; /* (C ran since the last call: ask again) */
	c->rp = rp;
	c->vs_smem = seg_vs_smem;
}

/* What the code at c ran in frame f, told as seg_run's loop leaves it: *left, *last,
 * *lmask and L->writes (nothing where nothing ran). A branch's mask the code tells; a
 * block's last instruction's guard is none of the block's destinations; a region's
 * instruction ran for vmask's lanes. L->writes takes c->writes even where this turn ran
 * nothing: the code's hand-over (jit_hand.c's count) leaves the turns' writes before it in
 * c->writes. */
static inline __attribute__((target("avx2"))) void
seg_account(struct launch *L, const struct frame *f, const struct jit_seg_ctx *c,
	    uint32_t *left, const struct dinsn **last, uint32_t *lmask)
{
	L->writes += c->writes;
	if (c->left == *left)
		return;
	const struct dinsn *l = &f->fn->code[c->last & ~JIT_SEG_LAST_REGION];
	uint32_t m = c->last & JIT_SEG_LAST_REGION ? c->vmask : FULL_MASK;
	*left = c->left;
	*last = l;
	*lmask = l->exec == exec_bra ? c->lmask
		 : l->guard >= 0 ? m & pred_mask_avx2((const uint64_t *)f->regs +
							      (size_t)l->guard * LANES,
						      l->guard_neg)
		 : m;
}

/* The native tier's code of the segment at di (jit.h's jit_seg_fn) on w's whole group in
 * frame f, `end` being steps + limit and n0 n_before + limit (seg_run's, and its repick rp):
 * runs what it can of seg_run's loop and
 * leaves *left, *last, *lmask and L->writes as that loop would; returns where it stopped
 * (nothing of that instruction done). A handler runs only while seg_run's `now` is before
 * L->async.next_due and L->stop is not set; nothing it runs moves the first, and with the
 * detector a report that sets the second ends the code past its access (L->stop: seg_run's
 * end, as after its own smem calls). */
static inline __attribute__((target("avx2"))) const struct dinsn *
seg_native(struct launch *L, struct warp *w, struct frame *f, const struct dinsn *di,
	   uint64_t end, uint32_t n0, struct repick *rp, uint32_t *left,
	   const struct dinsn **last, uint32_t *lmask)
{
	/* (a struct seg_sweeping's context, its lazy marks clear: the code's hand-over reads
	 * lz_base first, jit_ctx.h; not calm, so nothing else of it) */
	struct seg_sweeping x = {.lz_base = SEG_LAZY_NONE, .lz_race = SEG_LAZY_NONE};
	seg_ctx_turn(&x.c, L, w, f, *left, end, n0, rp);
	uint32_t pc = f->fn->seg_fn(&x.c, di->seg);
	seg_account(L, f, &x.c, left, last, lmask);
	return &f->fn->code[pc];
}

/*
 * The CTA sweep (issue #31): a warp's turn that ends at a bar.sync of a constant barrier the
 * segment code reaches, where the whole group arrives and the barrier waits on, and the
 * round's next warp (sweep_next's decision) begins at a segment entry of a whole group,
 * goes on from one to the other inside the segment code: at the bar.sync it calls seg_hop,
 * which makes the arrival, ends the turn, begins the next one and answers where that warp's
 * code goes on. seg_hop is seg_run's bar.sync path, its turn's end and its next_warp,
 * each reduced to what it does in this case: every test seg_run makes on the way is made,
 * in its order (the handlers' test in the code, the rest here), and wherever one fails
 * seg_hop has done nothing (the code leaves at the bar.sync, for seg_run) or the turn ended
 * as seg_run ends it (SWEEP_DONE, SWEEP_AGAIN, SWEEP_WARP). An arrival that completes the
 * barrier is seg_run's path past exec_bar's release (seg_hop_release): the same warp goes on
 * in the code after the bar.sync. So the clock, the counts and the schedule are seg_run's;
 * what is skipped is the segment code's exit and entry per turn and per completion.
 */
/* (the hop's state, struct seg_sweeping: seg_sweep.h) */

/* Whether a call of the code with the sweep's hop is calm: L->stop clear, no asynchronous
 * event in flight and none due. With the detector off, nothing the code and the hop run
 * then changes that (no handler of the code adds an event; without the detector smem.c declines
 * wherever a report could come, and a release that could break a rule is left to seg_run:
 * seg_release_on), so every turn the hop begins has hmin 0 (due never <= end + 1) and
 * sweep_next's tests of L->stop and the events hold without a look (with the detector on,
 * a report or a completion may set L->stop: seg_hop_race_calm looks at it). */
static inline bool seg_calm(const struct launch *L)
{
	return !L->stop && !L->async.nevents && L->async.next_due == UINT64_MAX;
}

/* Whether the arrival at di (pc, in fn) of w's whole group g, `left` of its turn's budget
 * before it, completing barrier b, goes on in the segment code as seg_run's bar.sync path
 * goes on: the warp's one group picked again at once, some budget and no asynchronous event
 * left (seg_run's `on`), no rule the release could break (bar_release's check of a
 * mixed barrier: it may stop the launch), and an entry right after the bar.sync. */
static inline bool seg_release_on(const struct launch *L, const struct dfunc *fn,
				  const struct warp *w, const struct group *g,
				  const struct barstate *b, const struct dinsn *di, uint32_t pc,
				  uint32_t left)
{
	return w->groups == g && !g->next && left > 1 && !L->async.nevents &&
	       (b->expected || (!b->mixed && (!b->first || b->first == di))) &&
	       pc + 1 < fn->ncode && di[1].seg;
}

/* The arrival seg_hop made at di (pc) completed barrier id of w's CTA, `left` of the turn's
 * budget after it: seg_run's bar.sync path on from exec_bar's completion (bar_sync_rest's
 * bar_check; the detector's race_bar_arrive made by seg_hop, in bar_sync_rest's order), the
 * group picked again at once, and the segment code
 * entered after the bar.sync as seg_run enters it (the turn's end, hmin and row unchanged:
 * the release moves none of them). */
static const void *seg_hop_release(struct seg_sweeping *x, struct warp *w, struct group *g,
				   const struct dinsn *di, uint32_t pc, uint32_t id, uint32_t left)
{
	struct launch *L = x->L;
	struct seg_turn *t = &x->t;
	bar_release(L, w->cta, id);
	w->streak = 0;
	w->last_pick = g;
	repicked(L, x->c.rp, t->n_before + (t->limit - left), 0, 0);
	t->left = left; /* seg_run's left, last and lmask there */
	t->last = di;
	t->lmask = FULL_MASK;
	x->c.left = left;
	x->c.last = pc;
	x->c.writes = 0; /* (told above) */
	return di[1].seg;
}

/* seg_run's bar.sync path, up to the arrival, for the hop at pc (di, with flags) of t->w's
 * whole group g (what the code ran told as seg_native tells it: last and lmask are not read
 * where a turn ends): returns the turn's budget left before the bar.sync */
static inline __attribute__((always_inline)) uint32_t
seg_hop_note(struct seg_sweeping *x, struct group *g, const struct dinsn *di, uint32_t pc,
	     uint32_t flags)
{
	struct launch *L = x->L;
	uint32_t left = x->c.left;
	L->writes += x->c.writes + ((flags & DF_WRITES) != 0);
	g->pc = pc;
	L->steps = x->t.steps + (x->t.limit - left) + 1;
	L->ci = di;
	L->cmask = FULL_MASK;
	return left;
}

/* t->w's turn ends with its whole group g waiting at a barrier, `left` of the budget after
 * the bar.sync: seg_run's turn's end (L->steps the turn's steps + k, as seg_hop_note wrote
 * it) and, where sweep_next goes on, its next_warp */
static inline __attribute__((always_inline)) const void *
seg_hop_on(struct seg_sweeping *x, struct warp *w, struct group *g, uint32_t left,
	   const bool calm)
{
	struct launch *L = x->L;
	struct seg_turn *t = &x->t;
	struct jit_seg_ctx *c = &x->c;
	uint32_t n = t->n_before + (t->limit - left);
	struct warp *nw;
	struct group *ng;
	if (!sweep_next_by(L, x->sw, w, g, n, x->lim, calm, &nw, &ng)) {
		t->left = left;
		x->end = SWEEP_DONE;
		return JIT_SEG_HOP_LEFT;
	}
	run_done(L, c->rp, n);
	*(struct repick *)c->rp = (struct repick){0};
	L->cw = nw;
	t->w = nw, t->g = ng, t->n_before = 0, t->limit = SWEEP_QUANTUM;
	struct frame *f = ng->frame;
	const struct dfunc *fn = f->fn;
	if (fn != x->fn) {
		x->fn = fn;
		x->code = fn->code;
	}
	const struct dinsn *di = &x->code[ng->pc];
	/* seg_entry's answer and di->seg in one line of di where both hold (seg_bar) */
	if (nw->wg_busy || nw->wg_track || !di->seg_bar || ng->mask != FULL_MASK) {
		if (nw->wg_busy || nw->wg_track || !seg_entry(ng)) {
			x->end = SWEEP_AGAIN;
			return JIT_SEG_HOP_LEFT;
		}
		/* seg_run's next_warp, where the segment code begins the turn */
		if (!fn->seg_fn || ng->mask != FULL_MASK || !di->seg) {
			x->end = SWEEP_WARP;
			return JIT_SEG_HOP_LEFT;
		}
	}
	t->steps = L->steps;
	t->left = SWEEP_QUANTUM; /* (last and lmask: read only once an instruction ran) */
	seg_ctx_warp(c, L, nw, f, SWEEP_QUANTUM, t->steps + SWEEP_QUANTUM, SWEEP_QUANTUM, calm);
	return di->seg;
}

/* What the code's own hand-over (jit_hand.c) leaves unwritten of the turn it begins, and
 * the sweep's warp, settled where C reads them again (the hop's entry, seg_sweep's end past
 * a stop): the warp running is the context's; and the turn's limit and instructions before
 * it are what its end and n0 tell, as they do for every turn (seg_sweep's first, seg_hop_on's
 * and the hand-over's: c.end = t.steps + t.limit, c.n0 = t.n_before + t.limit). */
static inline void seg_turn_settle(struct seg_sweeping *x)
{
	seg_lazy_settle(x);
	struct warp *w = x->c.w;
	x->t.w = w;
	x->sw->w = w;
	x->t.limit = (uint32_t)(x->c.end - x->t.steps);
	x->t.n_before = x->c.n0 - x->t.limit;
}

/* The hop where it is not seg_hop's common case: an aligned barrier of a warp not whole, or
 * an arrival that completes the barrier. */
static __attribute__((noinline)) const void *
seg_hop_any(struct jit_seg_ctx *c, uint32_t pc, uint32_t id, uint32_t flags,
	    const struct dinsn *di)
{
	struct seg_sweeping *x = (struct seg_sweeping *)c;
	struct launch *L = x->L;
	struct warp *w = x->t.w;
	struct group *g = x->t.g;
	const struct dfunc *fn = ((struct frame *)c->f)->fn;
	if ((flags & DF_EXEC_ALIGNED) && w->live != FULL_MASK)
		return NULL;
	struct cta *cta = w->cta;
	struct barstate *b = &cta->bar[id];
	bool completes = b->arrived + LANES >= (b->expected ? b->expected : cta->live_threads);
	if (completes && !seg_release_on(L, fn, w, g, b, di, pc, c->left))
		return NULL; /* seg_run's (exec_bar) */
	uint32_t left = seg_hop_note(x, g, di, pc, flags);
	if (L->race) /* (seg_bar's arrival) */
		race_bar_arrive(L, w, FULL_MASK, id);
	seg_bar_wait(b, g, di, id, LANES);
	left--;
	if (completes)
		return seg_hop_release(x, w, g, di, pc, id, left);
	return seg_hop_on(x, w, g, left, false);
}

/* seg_hop_any's completion, in a calm call (seg_calm) of a warp whose aligned test held:
 * its arrival, which bar_release would move past the bar.sync at once, is made moved (the
 * group not parked and its pc past the bar.sync: the release walks the waiters only, and
 * clears the count and the first waiter the arrival would have noted, which could not
 * have made the barrier mixed where bar_release looks: seg_release_on). */
static __attribute__((noinline)) const void *
seg_hop_done(struct seg_sweeping *x, uint32_t pc, uint32_t id, uint32_t flags,
	     const struct dinsn *di)
{
	struct warp *w = x->t.w;
	struct group *g = x->t.g;
	const struct dfunc *fn = ((struct frame *)x->c.f)->fn;
	if (!seg_release_on(x->L, fn, w, g, &w->cta->bar[id], di, pc, x->c.left))
		return NULL; /* seg_run's (exec_bar) */
	uint32_t left = seg_hop_note(x, g, di, pc + 1, flags) - 1;
	return seg_hop_release(x, w, g, di, pc, id, left);
}

/* The segment code's hop (jit_seg_ctx.hop) at pc (di), a bar.sync of constant barrier id
 * with flags (the instruction's), after the handlers' test: see above. Its common case inline
 * here (the whole warp arrives, the barrier waits on), the rest seg_hop_any's, which makes
 * the same tests again. (With the detector: seg_hop_race.) */
static inline __attribute__((always_inline)) const void *
seg_hop_common(struct jit_seg_ctx *c, uint32_t pc, uint32_t id, uint32_t flags,
	       const struct dinsn *di, const bool calm)
{
	struct seg_sweeping *x = (struct seg_sweeping *)c;
	struct warp *w = x->t.w;
	struct cta *cta = w->cta;
	struct barstate *b = &cta->bar[id];
	if ((flags & DF_EXEC_ALIGNED) && w->live != FULL_MASK)
		return seg_hop_any(c, pc, id, flags, di);
	if (b->arrived + LANES >= (b->expected ? b->expected : cta->live_threads))
		return calm ? seg_hop_done(x, pc, id, flags, di) : seg_hop_any(c, pc, id, flags, di);
	struct group *g = x->t.g;
	uint32_t left = seg_hop_note(x, g, di, pc, flags);
	seg_bar_wait(b, g, di, id, LANES);
	return seg_hop_on(x, w, g, left - 1, calm);
}

/* The hop of a launch without the detector, of a calm call of the code (seg_calm), and of a
 * launch with the detector (picked per call: L->race is the launch's). */
static const void *seg_hop(struct jit_seg_ctx *c, uint32_t pc, uint32_t id, uint32_t flags,
			   const struct dinsn *di)
{
	seg_turn_settle((struct seg_sweeping *)c);
	return seg_hop_common(c, pc, id, flags, di, false);
}

static const void *seg_hop_calm(struct jit_seg_ctx *c, uint32_t pc, uint32_t id,
				uint32_t flags, const struct dinsn *di)
{
	seg_turn_settle((struct seg_sweeping *)c);
	return seg_hop_common(c, pc, id, flags, di, true);
}

/*
 * The hop of a launch with the detector: seg_hop_common's steps, the arrival the detector's
 * (seg_bar's, in bar_sync_rest's order: after seg_hop_note wrote L->ci), its common case -
 * a whole warp's release deferred to the completion (race_bar_defer) - inline. In a call
 * that is calm but for the detector (seg_calm with the detector on) the next turns begin as seg_hop_calm
 * begins them (no look at the asynchronous events; hmin 0), which holds with the detector
 * too where L->stop is clear when the next turn begins: nothing the code or the hop runs
 * adds an event, and of what sets L->stop in such a call, a report in the code ends the
 * code there (gen_smem_race), and the hop's own detector calls - an arrival not deferred
 * (memory past --max-memory), a completion's (bar_release) - are followed by a look: the
 * first by seg_hop_race_lanes' non-calm turn, the second by the next hop's test of L->stop,
 * which then takes seg_hop_any's way (its own tests of L->stop).
 */

/* The detector's arrival of w not deferred inline (race_bar_arrive looks at its lanes):
 * then the rest of seg_hop_common's common case, with the next turn's tests. */
static __attribute__((noinline)) const void *
seg_hop_race_lanes(struct seg_sweeping *x, struct warp *w, struct group *g,
		   struct barstate *b, const struct dinsn *di, uint32_t id, uint32_t left)
{
	race_bar_arrive(x->L, w, FULL_MASK, id);
	seg_bar_wait(b, g, di, id, LANES);
	return seg_hop_on(x, w, g, left - 1, false);
}

/* seg_hop_any's completion, with the detector, of a warp whose aligned test held: the same
 * steps without its tests again. */
static __attribute__((noinline)) const void *
seg_hop_race_done(struct seg_sweeping *x, uint32_t pc, uint32_t id, uint32_t flags,
		  const struct dinsn *di)
{
	struct launch *L = x->L;
	struct warp *w = x->t.w;
	struct group *g = x->t.g;
	struct barstate *b = &w->cta->bar[id];
	const struct dfunc *fn = ((struct frame *)x->c.f)->fn;
	if (!seg_release_on(L, fn, w, g, b, di, pc, x->c.left))
		return NULL; /* seg_run's (exec_bar) */
	uint32_t left = seg_hop_note(x, g, di, pc, flags);
	if (!race_bar_defer(L->race, w, id))
		race_bar_arrive(L, w, FULL_MASK, id);
	seg_bar_wait(b, g, di, id, LANES);
	return seg_hop_release(x, w, g, di, pc, id, left - 1);
}

static inline __attribute__((always_inline)) const void *
seg_hop_race_common(struct jit_seg_ctx *c, uint32_t pc, uint32_t id, uint32_t flags,
		    const struct dinsn *di, const bool calm)
{
	struct seg_sweeping *x = (struct seg_sweeping *)c;
	struct launch *L = x->L;
	struct warp *w = x->t.w;
	struct cta *cta = w->cta;
	struct barstate *b = &cta->bar[id];
	if (((flags & DF_EXEC_ALIGNED) && w->live != FULL_MASK) || (calm && L->stop))
		return seg_hop_any(c, pc, id, flags, di);
	if (b->arrived + LANES >= (b->expected ? b->expected : cta->live_threads))
		return seg_hop_race_done(x, pc, id, flags, di);
	struct group *g = x->t.g;
	uint32_t left = seg_hop_note(x, g, di, pc, flags);
	if (!race_bar_defer(L->race, w, id))
		return seg_hop_race_lanes(x, w, g, b, di, id, left);
	seg_bar_wait(b, g, di, id, LANES);
	return seg_hop_on(x, w, g, left - 1, calm);
}

static const void *seg_hop_race(struct jit_seg_ctx *c, uint32_t pc, uint32_t id,
				uint32_t flags, const struct dinsn *di)
{
	seg_turn_settle((struct seg_sweeping *)c);
	return seg_hop_race_common(c, pc, id, flags, di, false);
}

static const void *seg_hop_race_calm(struct jit_seg_ctx *c, uint32_t pc, uint32_t id,
				     uint32_t flags, const struct dinsn *di)
{
	seg_turn_settle((struct seg_sweeping *)c);
	return seg_hop_race_common(c, pc, id, flags, di, true);
}

/* The segment code from t->di, t->w's whole group, with the sweep's hop: where it ended
 * (t as seg_run's locals then). */
static inline __attribute__((target("avx2"))) enum sweep_end
seg_sweep(struct launch *L, struct sweep *sw, struct repick *rp, struct seg_turn *t)
{
	struct frame *f = t->g->frame;
	struct seg_sweeping x = {.L = L, .R = L->race, .sw = sw, .t = *t, .lim = sweep_lim(L), .fn = f->fn,
				 .code = f->fn->code, .lz_base = SEG_LAZY_NONE,
				 .lz_race = SEG_LAZY_NONE};
	x.lim1 = x.lim ? x.lim - 1 : 0;
	seg_ctx_turn(&x.c, L, t->w, f, t->left, t->steps + t->limit, t->n_before + t->limit, rp);
	bool calm = seg_calm(L); /* (with the detector: seg_hop_race_calm, calm but for
				  * L->stop, which its hop looks at) */
	x.c.calm = !calm ? SEG_NOT_CALM : L->race ? SEG_CALM_RACE : SEG_CALM; /* (jit_hand.c) */
	x.c.hop = L->race ? (calm ? seg_hop_race_calm : seg_hop_race) : calm ? seg_hop_calm : seg_hop;
	uint32_t pc = f->fn->seg_fn(&x.c, t->di->seg);
	if (pc != JIT_SEG_SWEPT) /* (where it did, the hop settled it first) */
		seg_turn_settle(&x);
	*t = x.t;
	if (pc == JIT_SEG_SWEPT)
		return x.end;
	/* stopped: seg_native's account, in the frame of the turn now */
	f = t->g->frame;
	seg_account(L, f, &x.c, &t->left, &t->last, &t->lmask);
	t->di = &f->fn->code[pc];
	return SWEEP_STOPPED;
}

/* From interp_run_group (its w, g, n, budget, rp; *k, *parked: run_direct's answers); on
 * AVX2 only (the guards' pred_mask_avx2 inline). */
static __attribute__((noinline, target("avx2"))) enum seg
seg_run(struct launch *L, struct sweep *sw, struct warp **pw, struct group **pg, uint32_t *pn,
	uint32_t *pbudget, struct repick *rp, uint32_t *pk, bool *parked)
{
	struct warp *w = *pw;
	struct group *g = *pg;
	uint32_t n_before = *pn, limit = *pbudget - n_before;
	bool jit = !L->cfg.no_jit;
next_warp:;
	struct frame *f = g->frame;
	const struct dinsn *code = f->fn->code, *di = &code[g->pc], *last = NULL;
	uintptr_t rb = (uintptr_t)f->regs;
	uint32_t gmask = g->mask, mask = 0, lmask = 0, left = limit;
	uint64_t steps = L->steps;
	struct alu_args x;
	x.cc = w->cc;
	/* the segment's native code (jit_seg.c) for a whole warp, at each place it has an
	 * entry but the one it last stopped at */
	bool native = jit && f->fn->seg_fn && gmask == FULL_MASK;
	const struct dinsn *stopped = NULL;
	while (left) {
		/* the CTA sweep (with the detector, the hop's arrival is seg_bar's) */
		if (native && di->seg && di != stopped && sw) {
			struct seg_turn t = {w, g, di, last, lmask, left, limit, n_before, steps};
			enum sweep_end e = seg_sweep(L, sw, rp, &t);
			if (e == SWEEP_DONE) {
				uint32_t k = t.limit - t.left;
				*parked = true;
				*pw = t.w, *pg = t.g, *pn = t.n_before + k;
				*pbudget = t.n_before + t.limit, *pk = k;
				return SEG_DONE;
			}
			*parked = false;
			w = t.w, g = t.g, n_before = t.n_before, limit = t.limit;
			if (e == SWEEP_AGAIN) {
				*pw = w, *pg = g, *pn = 0, *pbudget = SWEEP_QUANTUM, *pk = 0;
				return SEG_AGAIN;
			}
			if (e == SWEEP_WARP)
				goto next_warp;
			f = g->frame; /* (the same warp, or one swept to) */
			code = f->fn->code;
			rb = (uintptr_t)f->regs;
			gmask = g->mask;
			x.cc = w->cc;
			steps = t.steps, left = t.left, last = t.last, lmask = t.lmask;
			di = stopped = t.di;
			if (L->stop) /* (the detector's report in the code: seg_native's end) */
				goto code_stopped;
			if (rp->vlanes)
				break; /* left in a region: run_direct goes on with its split */
			continue;
		}
		if (native && di->seg && di != stopped) {
			di = stopped = seg_native(L, w, f, di, steps + limit, n_before + limit, rp,
						  &left, &last, &lmask);
			if (L->stop) { /* a report in it stopped the launch: as below, past it */
			code_stopped:
				if (rp->vlanes) { /* in a region: run_direct's end there */
					vsplit_make(L, w, g, rp);
					*parked = w->groups != g || g->next;
				}
				g->pc = (uint32_t)(di - code);
				uint32_t k = limit - left;
				*pw = w, *pg = g, *pn = n_before + k;
				*pbudget = n_before + limit, *pk = k;
				return SEG_DONE;
			}
			if (rp->vlanes)
				break; /* left in a region: run_direct goes on with its split */
			continue;
		}
		uint32_t fl = di->flags;
		if (fl & DF_ALU_DIRECT) {
			if (jit && di->jit) { /* a whole block (as run_direct's jit_span) */
				uint32_t len = di->jit_len;
				if (di->jit_keep || len > left)
					break; /* a loop's body, or cut by the budget: run_direct's */
				di->jit((uint64_t *)rb, gmask, UINT32_MAX);
				left -= len;
				di += len - 1;
				mask = gmask;
				if (di->guard >= 0)
					mask &= pred_mask_avx2((const uint64_t *)rb +
							   (size_t)di->guard * LANES, di->guard_neg);
			} else {
				mask = gmask;
				if (di->guard >= 0)
					mask &= pred_mask_avx2((const uint64_t *)rb +
							   (size_t)di->guard * LANES, di->guard_neg);
				if (mask)
					alu_direct(di, rb, &x, mask);
				left--;
			}
			last = di++;
			lmask = mask;
			continue;
		}
		if (!(fl & DF_EXEC_DIRECT))
			break;
		mask = gmask;
		if (di->guard >= 0)
			mask &= pred_mask_avx2((const uint64_t *)rb + (size_t)di->guard * LANES,
					   di->guard_neg);
		if (!mask) { /* nothing happens */
			last = di++;
			lmask = 0;
			left--;
			continue;
		}
		if ((fl & DF_EXEC_ALIGNED) && (mask != gmask || gmask != w->live))
			break;
		exec_fn *e = di->exec;
		if (e == exec_bra) {
			if (mask != gmask)
				break; /* divergent: run_direct's (its if-conversion, or the split) */
			last = di;
			lmask = mask;
			left--;
			di = &code[di->target];
			continue;
		}
		uint64_t now = steps + (limit - left) + 1; /* L->steps as the handler runs */
		if (now >= L->async.next_due || L->stop)
			break;
		if (e == exec_ld || e == exec_st || e == exec_mov) {
			const struct dop *s0 = &di->s[0];
			if (e == exec_mov) { /* of a register or an immediate: exec_mov's loop */
				if (s0->neg || (s0->kind != DOP_REG && s0->kind != DOP_IMM) ||
				    di->d.kind != DOP_REG || ir_type_size((enum ir_mod)di->type) > 8)
					break;
				exec_mov(L, w, g, di, mask);
			} else if (!di->smem) {
				break;
			} else {
				if (L->race) { /* its records and reports read these */
					L->steps = now;
					L->ci = di;
					L->cmask = mask;
				}
				if (!(e == exec_ld ? smem_ld(L, w, f, di, mask)
						   : smem_st(L, w, f, di, mask)))
					break; /* nothing done: the general path's, which reports */
				if (L->stop) { /* a report stopped the launch: run_direct's end */
					g->pc = (uint32_t)(di - code) + 1;
					uint32_t k = limit - left + 1;
					*pw = w, *pg = g, *pn = n_before + k;
					*pbudget = n_before + limit, *pk = k;
					return SEG_DONE;
				}
			}
			if (fl & DF_WRITES) /* spin.c's quiet stretch ends, as in the loop */
				L->writes++;
			last = di++;
			lmask = mask;
			left--;
			continue;
		}
		if (e != exec_bar || mask != gmask)
			break;
		/* bar.sync by the whole group: run_direct's handler path */
		g->pc = (uint32_t)(di - code);
		L->steps = now;
		L->ci = di;
		L->cmask = mask;
		if (fl & DF_WRITES)
			L->writes++;
		enum step step = seg_bar(L, w, g, di, mask);
		left--;
		if (step == STEP_NEXT)
			g->pc++;
		bool on = !L->stop && g->state == G_READY && w->groups == g && !g->next;
		if (on && step == STEP_PARKED && (on = left && !L->async.nevents)) {
			/* past a barrier this arrival completed: the scheduler picks the warp's
			 * one group again at once (pick's converged case) */
			w->streak = 0;
			w->last_pick = g;
			repicked(L, rp, n_before + limit - left, 0, 0);
		}
		if (on) {
			last = di;
			lmask = mask;
			di = &code[g->pc];
			continue;
		}
		/* the turn ends, as run_direct's */
		uint32_t k = limit - left, n = n_before + k;
		L->steps = steps + k;
		*parked = step == STEP_PARKED || w->groups != g || g->next;
		struct warp *nw;
		struct group *ng;
		if (!*parked || !sw || !sweep_next(L, sw, w, g, n, &nw, &ng)) {
			*pw = w, *pg = g, *pn = n, *pbudget = n_before + limit, *pk = k;
			return SEG_DONE;
		}
		/* the round's next warp, as interp_run_group begins it after run_direct */
		run_done(L, rp, n);
		w = nw, g = ng, n_before = 0, limit = SWEEP_QUANTUM;
		*rp = (struct repick){0};
		L->cw = w;
		*parked = false;
		if (w->wg_busy || w->wg_track || !seg_entry(g)) {
			*pw = w, *pg = g, *pn = 0, *pbudget = SWEEP_QUANTUM, *pk = 0;
			return SEG_AGAIN;
		}
		goto next_warp;
	}
	uint32_t k = limit - left;
	if (k) {
		g->pc = (uint32_t)(di - code);
		L->steps = steps + k;
		L->ci = last;
		L->cmask = lmask;
	}
	*pw = w, *pg = g, *pn = n_before + k, *pbudget = n_before + limit, *pk = k;
	return left ? SEG_DIRECT : SEG_DONE; /* (the budget spent: as run_direct ends) */
}
#endif

/*
 * The dispatch loop. Runs group g until it blocks, splits, exits, meets or passes another
 * group of its warp (so the scheduler can re-converge them), or `budget` runs out.
 */
uint32_t interp_run_group(struct launch *L, struct warp *w, struct group *g, uint32_t budget,
			  struct sweep *sw)
{
	uint64_t tmp[5][LANES];
	uint32_t n = 0;
	struct repick rp = {0};
	bool alone = w->groups == g && !g->next;
	/* Stop where the next group of the same frame waits, so the two re-converge. */
	uint32_t stop_pc = UINT32_MAX;
	for (struct group *o = w->groups; o && !alone; o = o->next)
		if (o != g && o->frame == g->frame && o->pc > g->pc && o->pc < stop_pc)
			stop_pc = o->pc;
	L->cw = w;
	while (n < budget && g->state == G_READY && !L->stop) {
		if (L->dbg) { /* a debugger sees every instruction (debug_hook.h) */
			L->dbg->before(L->dbg->ctx, L, w, g);
			if (L->stop || g->state != G_READY)
				break;
		} else if (!L->cfg.trace_all && !w->wg_busy && !w->wg_track) {
			bool parked = false;
			uint32_t k = 0;
			/* a segment from a CTA barrier: the runner first, run_direct from where it
			 * stops (seg_run) */
#ifdef PRED_AVX2
			enum seg s = alone && seg_entry(g) && __builtin_cpu_supports("avx2")
				? seg_run(L, sw, &w, &g, &n, &budget, &rp, &k, &parked) : SEG_DIRECT;
#else
			enum seg s = SEG_DIRECT;
#endif
			if (s == SEG_AGAIN)
				continue;
			if (s == SEG_DIRECT) {
				/* where the segment code left a region, the split not made
				 * stands: run_direct goes on with it (jit_vs_begin) */
				if (rp.vlanes)
					stop_pc = rp.vpc;
				k = run_direct(L, w, g, budget - n, &stop_pc, alone && !rp.vlanes, n,
					       &rp, &parked);
				n += k;
			}
			if (parked) {
				/* w's one group waits at a CTA barrier: the round's next warp, in
				 * place (sweep_next), begins as a new call of this would */
				struct warp *nw;
				struct group *ng;
				if (!sw || !sweep_next(L, sw, w, g, n, &nw, &ng))
					break;
				run_done(L, &rp, n);
				w = nw, g = ng, n = 0, budget = SWEEP_QUANTUM;
				stop_pc = UINT32_MAX;
				rp = (struct repick){0};
				alone = true;
				L->cw = w;
				continue;
			}
			if (g->pc == stop_pc && k) {
				/* g met the next group of its frame: the scheduler would merge them
				 * and run the merged group, when they are the warp's two */
				uint32_t was = popcount32(g->mask);
				struct group *m = n < budget && !L->async.nevents && !L->stop
							  ? group_rejoin(L, w, g) : NULL;
				if (!m)
					break;
				g = m;
				alone = true;
				stop_pc = UINT32_MAX;
				repicked(L, &rp, n, was, popcount32(g->mask));
				continue;
			}
			if (n == budget || g->state != G_READY || L->stop)
				break;
		}
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
				break;
			continue;
		}
		if (w->wg_busy)
			wgmma_check_regs(L, w, f, di, mask);
		if (di->fam == FAM_ALU) { /* the hot path: straight-line work, no yield */
			alu_run(L, w, f, di, mask, tmp);
			if (w->wg_track)
				wgmma_note_writes(w, f, di);
			if (L->cfg.trace_all)
				trace_result(L, f, di, mask);
			if (++g->pc == stop_pc)
				break;
			continue;
		}
		bool ctrl = di->fam == FAM_CTRL;
		if (!ctrl) {
			/* Asynchronous work lands at its due step, before an instruction that
			 * could observe it (ALU and control instructions cannot). */
			if (L->steps >= L->async.next_due)
				interp_land_due(L, L->steps);
			if (di->flags & DF_VEC_DUP)
				rule_break(L, RULE_VEC_DST_REPEATED, mask, "the vector destination "
					   "names one register twice (the last element is kept)");
			if (L->stop)
				break;
		}
		/* an .aligned instruction waits for the warp's lanes on their way to it */
		if ((mask != g->mask || g->mask != w->live) && converge_needed(di) &&
		    !converge_aligned(L, w, g, di, mask))
			break;
		if (di->flags & DF_WRITES)
			L->writes++;
		enum step step = di->exec(L, w, g, di, mask);
		if (!ctrl && w->wg_track)
			wgmma_note_writes(w, f, di);
		if (step == STEP_PARKED)
			break;
		if (!ctrl && L->cfg.trace_all && di->fam != FAM_MBAR)
			trace_result(L, f, di, mask);
		if (step == STEP_NEXT) {
			g->pc++;
			if (ctrl)
				break; /* control flow hands back unless it jumped */
		}
		/* Go on while the group runs alone; a split or another group hands back, so
		 * the scheduler re-converges them, unless the scheduler would pick this group
		 * again at once after its branch. */
		if (alone && w->groups == g && !g->next)
			continue;
		if (step != STEP_JUMPED || n >= budget || L->async.nevents ||
		    !group_picked_again(w, g, &stop_pc))
			break;
		repicked(L, &rp, n, 0, 0);
	}
	run_done(L, &rp, n);
	return n;
}
