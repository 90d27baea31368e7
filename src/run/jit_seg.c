/*
 * jit_seg.c - a function's barrier-to-barrier segments as one piece of native code (jit_seg.h's
 * jit_seg_fn), for a warp whose one group is all 32 lanes: interp.c's seg_run, instruction
 * by instruction, without its loop. In a function with a bar.sync, every instruction but
 * those inside a block gets a label, and seg_run enters where it stands:
 *
 *   an ALU block (jit.c's, not a loop's body): called whole when the budget holds it all;
 *   a branch: taken or not when its guard is the same in all 32 lanes, else an exit;
 *   a move of a register or an immediate, and an ld/st.shared of smem.h's forms (through
 *   smem_ld / smem_st, the calls a launch with the detector makes too), unguarded, each
 *   after the handlers' test (left > hmin: no asynchronous event due, no stop);
 *
 * and anything else (bar.sync, other handlers, guarded handlers, lone ALU instructions) is
 * an exit: the code returns that instruction's pc having done nothing of it, as seg_run
 * breaks before it, for seg_run (and run_direct after it) to go on from there. Every exit
 * of a supported kind at a test that fails is the same (nothing of it done).
 *
 * Registers: rbx the context, r12 the frame's registers, r13d the budget left, r14d hmin,
 * r15d the last instruction run; ymm13 and ymm14 scratch (the blocks' own registers are
 * theirs, and nothing is kept in ymm registers between instructions).
 */
#include "jit_seg.h"

#include <stdlib.h>
#include <string.h>

#include "exec.h"
#include "smem.h"

enum { R_CTX = X_RBX, R_REGS = X_R12, R_LEFT = X_R13, R_HMIN = X_R14, R_LAST = X_R15 };
enum { Y1 = 13, Y2 = 14 };
enum kind { K_NONE, K_EXIT, K_BLOCK, K_BRA, K_MOV, K_SMEM };

struct patch {
	size_t at;
	uint32_t to;             /* an instruction's label, its exit stub, or a constant */
};

struct seg {
	struct xbuf *b;
	const struct dfunc *fn;
	const struct jseg_block *blk;
	uint8_t *kind;
	size_t *lab;
	struct patch *jl, *jx, *jk; /* jumps to labels, to exit stubs, rip to constants */
	uint32_t njl, njx, njk, cjl, cjx, cjk;
	uint64_t *pool;
	uint32_t npool, cpool;
	bool oom;
};

static bool more(void **p, uint32_t *cap, uint32_t n, size_t elem)
{
	if (n < *cap)
		return true;
	uint32_t c = *cap ? *cap * 2 : 32;
	void *q = realloc(*p, c * elem);
	if (!q)
		return false;
	*p = q;
	*cap = c;
	return true;
}

static void note(struct seg *S, struct patch **p, uint32_t *n, uint32_t *cap, size_t at,
		 uint32_t to)
{
	if (!more((void **)p, cap, *n, sizeof **p)) {
		S->oom = true;
		return;
	}
	(*p)[(*n)++] = (struct patch){at, to};
}

#define CTX(field) ((struct xmem){R_CTX, -1, 1, (int32_t)offsetof(struct jit_seg_ctx, field)})

/* lane chunk c (four lanes) of slot s in the frame */
static struct xmem lanes(uint32_t s, int c)
{
	return (struct xmem){R_REGS, -1, 1, (int32_t)(s * LANES * sizeof(uint64_t) + 32u * (unsigned)c)};
}

/* ymm r = the constant v in all four lanes (rip-relative, patched at the end) */
static void konst(struct seg *S, enum x86_vop op, int d, int v, uint64_t k)
{
	uint32_t i = 0;
	while (i < S->npool && S->pool[i] != k)
		i++;
	if (i == S->npool) {
		if (!more((void **)&S->pool, &S->cpool, S->npool, sizeof *S->pool)) {
			S->oom = true;
			return;
		}
		S->pool[S->npool++] = k;
	}
	x86_vrm(S->b, op, d, v, (struct xmem){-1, -1, 1, 0});
	note(S, &S->jk, &S->njk, &S->cjk, S->b->len - 4, i);
}

/* a jump to the stub that leaves at instruction i, nothing of it done */
static void to_exit(struct seg *S, size_t at, uint32_t i)
{
	note(S, &S->jx, &S->njx, &S->cjx, at, i);
}

/* on to instruction i: a jump unless its label comes next */
static void go_on(struct seg *S, uint32_t i, uint32_t next)
{
	if (i != next)
		note(S, &S->jl, &S->njl, &S->cjl, x86_jmp(S->b), i);
}

/* instruction i ran, `n` of the budget (one, or a block's length) */
static void ran(struct seg *S, uint32_t i, uint32_t n)
{
	x86_alu_ri(S->b, 5, false, R_LEFT, (int32_t)n);
	x86_mov_ri(S->b, R_LAST, i);
	if (S->fn->code[i].flags & DF_WRITES)
		x86_alu_mi(S->b, 0, false, CTX(writes), 1);
}

/* the handlers' test (seg_run's `now` against next_due and L->stop): left > hmin */
static void handler_test(struct seg *S, uint32_t i)
{
	x86_alu_rr(S->b, X86_CMP, false, R_LEFT, R_HMIN);
	to_exit(S, x86_jcc(S->b, 0x6), i);
}

/* What instruction i is to the segment code, and where it goes on (*a, *t: -1 none). */
static enum kind classify(const struct seg *S, uint32_t i, int64_t *a, int64_t *t)
{
	const struct dfunc *fn = S->fn;
	const struct dinsn *di = &fn->code[i];
	const struct jseg_block *bk = &S->blk[i];
	*a = *t = -1;
	if (bk->n && !bk->loop && i + bk->n < fn->ncode) {
		*a = i + bk->n;
		return K_BLOCK;
	}
	if (!(di->flags & DF_EXEC_DIRECT))
		return K_EXIT;
	if (di->op == OP_BRA && di->target < fn->ncode) {
		*t = di->target;
		if (di->guard >= 0 && i + 1 < fn->ncode)
			*a = i + 1;
		else if (di->guard >= 0)
			return K_EXIT;
		return K_BRA;
	}
	if (di->guard >= 0 || i + 1 >= fn->ncode)
		return K_EXIT;
	*a = i + 1;
	const struct dop *s0 = &di->s[0];
	if (di->exec == exec_mov && !s0->neg && (s0->kind == DOP_REG || s0->kind == DOP_IMM) &&
	    di->d.kind == DOP_REG && ir_type_size((enum ir_mod)di->type) <= 8)
		return K_MOV;
	if ((di->exec == exec_ld || di->exec == exec_st) && di->smem)
		return K_SMEM;
	return K_EXIT;
}

static void gen_block(struct seg *S, uint32_t i, uint32_t next)
{
	struct xbuf *b = S->b;
	const struct jseg_block *bk = &S->blk[i];
	x86_alu_ri(b, 7, false, R_LEFT, (int32_t)bk->n);
	to_exit(S, x86_jcc(b, 0x2), i);
	x86_alu_rr(b, X86_MOV, true, X_RDI, R_REGS);
	if (bk->whole == SIZE_MAX) {
		x86_mov_ri(b, X_RSI, FULL_MASK);
		x86_mov_ri(b, X_RDX, UINT32_MAX);
		x86_patch(b, x86_call(b), bk->entry);
	} else {
		x86_patch(b, x86_call(b), bk->whole);
	}
	ran(S, i + bk->n - 1, bk->n);
	go_on(S, i + bk->n, next);
}

/* A branch: its guard's bit 0 in all 32 lanes ANDed (eax, its four sign bits) and ORed (ecx):
 * all ones or all zeros go one way, anything else is divergent (run_direct's). */
static void gen_bra(struct seg *S, uint32_t i, uint32_t next)
{
	struct xbuf *b = S->b;
	const struct dinsn *di = &S->fn->code[i];
	x86_alu_rr(b, X86_TEST, false, R_LEFT, R_LEFT);
	to_exit(S, x86_jcc(b, 0x4), i);
	if (di->guard < 0) {
		ran(S, i, 1);
		x86_mov_mi(b, CTX(lmask), FULL_MASK);
		go_on(S, di->target, next);
		return;
	}
	uint32_t g = (uint32_t)di->guard;
	x86_vrm(b, XV_VMOVDQU_LD, Y1, 0, lanes(g, 0));
	x86_vrr(b, XV_VPOR, Y2, Y1, Y1);
	for (int c = 1; c < LANES / 4; c++) {
		x86_vrm(b, XV_VPAND, Y1, Y1, lanes(g, c));
		x86_vrm(b, XV_VPOR, Y2, Y2, lanes(g, c));
	}
	x86_vshi(b, XV_VPSLLQ_I, Y1, Y1, 63);
	x86_vrr(b, XV_VMOVMSKPD, X_RAX, 0, Y1);
	x86_vshi(b, XV_VPSLLQ_I, Y2, Y2, 63);
	x86_vrr(b, XV_VMOVMSKPD, X_RCX, 0, Y2);
	x86_alu_ri(b, 7, false, X_RAX, 15);
	size_t all = x86_jcc(b, 0x4);
	x86_alu_rr(b, X86_TEST, false, X_RCX, X_RCX);
	to_exit(S, x86_jcc(b, 0x5), i);
	/* no lane's guard holds */
	ran(S, i, 1);
	x86_mov_mi(b, CTX(lmask), di->guard_neg ? FULL_MASK : 0);
	note(S, &S->jl, &S->njl, &S->cjl, x86_jmp(b), di->guard_neg ? di->target : i + 1);
	x86_patch(b, all, b->len);
	ran(S, i, 1);
	x86_mov_mi(b, CTX(lmask), di->guard_neg ? 0 : FULL_MASK);
	go_on(S, di->guard_neg ? i + 1 : di->target, next);
}

/* exec_mov of a register or an immediate on all lanes: d = a & the type's mask */
static void gen_mov(struct seg *S, uint32_t i, uint32_t next)
{
	struct xbuf *b = S->b;
	const struct dinsn *di = &S->fn->code[i];
	const struct dop *s = &di->s[0];
	int size = ir_type_size((enum ir_mod)di->type);
	uint64_t sm = di->type == MOD_PRED ? 1 : size == 8 ? ~0ull : (1ull << (size * 8)) - 1;
	handler_test(S, i);
	if (s->kind == DOP_IMM)
		konst(S, XV_VMOVDQU_LD, Y1, 0, s->imm[0] & sm);
	for (int c = 0; c < LANES / 4; c++) {
		if (s->kind == DOP_REG) {
			x86_vrm(b, XV_VMOVDQU_LD, Y1, 0, lanes(s->slot, c));
			if (sm != ~0ull)
				konst(S, XV_VPAND, Y1, Y1, sm);
		}
		x86_vrm(b, XV_VMOVDQU_ST, Y1, 0, lanes(di->d.slot, c));
	}
	ran(S, i, 1);
	go_on(S, i + 1, next);
}

/* an ld/st.shared through smem.c (false from it: the exit, nothing done) */
static void gen_smem(struct seg *S, uint32_t i, uint32_t next)
{
	struct xbuf *b = S->b;
	const struct dinsn *di = &S->fn->code[i];
	handler_test(S, i);
	x86_vzeroupper(b);
	x86_load(b, true, X_RDI, CTX(L));
	x86_load(b, true, X_RSI, CTX(w));
	x86_load(b, true, X_RDX, CTX(f));
	x86_mov_ri64(b, X_RCX, (uint64_t)(uintptr_t)di);
	x86_mov_ri(b, X_R8, FULL_MASK);
	bool (*fn)(struct launch *, struct warp *, struct frame *, const struct dinsn *, uint32_t) =
		di->exec == exec_ld ? smem_ld : smem_st;
	x86_mov_ri64(b, X_RAX, (uint64_t)(uintptr_t)fn);
	x86_call_r(b, X_RAX);
	x86_alu_rr(b, X86_TEST8, false, X_RAX, X_RAX);
	to_exit(S, x86_jcc(b, 0x4), i);
	ran(S, i, 1);
	go_on(S, i + 1, next);
}

/* The entry (jit_seg_fn): the callee-saved registers it uses saved, the stack aligned for
 * its calls, the context's values in their registers, then on at `at` (rsi). */
static size_t gen_prologue(struct xbuf *b)
{
	size_t at = b->len;
	static const int saved[] = {X_RBX, X_RBP, X_R12, X_R13, X_R14, X_R15};
	for (size_t k = 0; k < sizeof saved / sizeof saved[0]; k++)
		x86_push(b, saved[k]);
	x86_alu_ri(b, 5, true, X_RSP, 8);
	x86_alu_rr(b, X86_MOV, true, R_CTX, X_RDI);
	x86_load(b, true, R_REGS, CTX(regs));
	x86_load(b, false, R_LEFT, CTX(left));
	x86_load(b, false, R_HMIN, CTX(hmin));
	x86_load(b, false, R_LAST, CTX(last));
	x86_jmp_r(b, X_RSI);
	return at;
}

/* The common exit: eax the pc; what seg_run reads back stored */
static size_t gen_epilogue(struct xbuf *b)
{
	size_t at = b->len;
	static const int saved[] = {X_R15, X_R14, X_R13, X_R12, X_RBP, X_RBX};
	x86_store(b, false, CTX(left), R_LEFT);
	x86_store(b, false, CTX(last), R_LAST);
	x86_vzeroupper(b);
	x86_alu_ri(b, 0, true, X_RSP, 8);
	for (size_t k = 0; k < sizeof saved / sizeof saved[0]; k++)
		x86_pop(b, saved[k]);
	x86_ret(b);
	return at;
}

/* What each instruction is (kind[i]) in a function with a CTA barrier (false: none, no
 * segment code): seg_run enters the code wherever it stands on an entry (after a bar.sync,
 * or after an instruction the code left to it), so every instruction gets its kind, but
 * those inside a block, which nothing enters. */
static bool classify_all(struct seg *S)
{
	const struct dfunc *fn = S->fn;
	bool any = false;
	for (uint32_t i = 0; i < fn->ncode; i++)
		any |= fn->code[i].exec == exec_bar;
	for (uint32_t i = 0; i < fn->ncode && any;) {
		int64_t a, t;
		S->kind[i] = (uint8_t)classify(S, i, &a, &t);
		i += S->kind[i] == K_BLOCK ? S->blk[i].n : 1;
	}
	return any;
}

size_t jit_seg_gen(struct xbuf *b, const struct dfunc *fn, const struct jseg_block *blk,
		   size_t *off)
{
	struct seg S = {.b = b, .fn = fn, .blk = blk};
	size_t start = b->len, entry = SIZE_MAX;
	for (uint32_t i = 0; i < fn->ncode; i++)
		off[i] = SIZE_MAX;
	S.kind = calloc(fn->ncode + 1, 1);
	S.lab = malloc(sizeof *S.lab * (fn->ncode + 1));
	size_t *stub = malloc(sizeof *stub * (fn->ncode + 1));
	if (!S.kind || !S.lab || !stub || !classify_all(&S))
		goto out;
	entry = gen_prologue(b);
	size_t epi = gen_epilogue(b);
	for (uint32_t i = 0; i < fn->ncode; i++) {
		stub[i] = SIZE_MAX;
		if (!S.kind[i])
			continue;
		uint32_t next = i + 1;
		while (next < fn->ncode && !S.kind[next])
			next++;
		S.lab[i] = b->len;
		if (S.kind[i] != K_EXIT)
			off[i] = b->len;
		switch ((enum kind)S.kind[i]) {
		case K_BLOCK: gen_block(&S, i, next); break;
		case K_BRA: gen_bra(&S, i, next); break;
		case K_MOV: gen_mov(&S, i, next); break;
		case K_SMEM: gen_smem(&S, i, next); break;
		default:
			stub[i] = b->len;
			x86_mov_ri(b, X_RAX, i);
			x86_patch(b, x86_jmp(b), epi);
			break;
		}
	}
	for (uint32_t k = 0; k < S.njx; k++) {
		uint32_t i = S.jx[k].to;
		if (stub[i] == SIZE_MAX) {
			stub[i] = b->len;
			x86_mov_ri(b, X_RAX, i);
			x86_patch(b, x86_jmp(b), epi);
		}
		x86_patch(b, S.jx[k].at, stub[i]);
	}
	for (uint32_t k = 0; k < S.njl; k++)
		x86_patch(b, S.jl[k].at, S.lab[S.jl[k].to]);
	while (b->len % 32)
		x86_bytes(b, "\xcc", 1);
	size_t pool = b->len;
	for (uint32_t k = 0; k < S.npool; k++)
		for (int j = 0; j < 4; j++)
			x86_bytes(b, &S.pool[k], 8);
	for (uint32_t k = 0; k < S.njk; k++)
		x86_patch(b, S.jk[k].at, pool + 32 * (size_t)S.jk[k].to);
	if (S.oom || b->oom) {
		b->len = b->oom ? b->len : start;
		entry = SIZE_MAX;
	}
out:
	if (entry == SIZE_MAX)
		for (uint32_t i = 0; i < fn->ncode; i++)
			off[i] = SIZE_MAX;
	free(S.kind);
	free(S.lab);
	free(stub);
	free(S.jl);
	free(S.jx);
	free(S.jk);
	free(S.pool);
	return entry;
}
