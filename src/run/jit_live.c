/*
 * jit_live.c - live registers (jit_live.h): a backward data flow over the function's code, the
 * union over the successors, the same edges regdef.c's forward flow takes (each instruction
 * falls through but an unguarded bra; bra and brx.idx targets): an edge too many only keeps
 * more slots live.
 *
 * Each lane follows its own path and an instruction reads and writes its own lanes (the
 * interpreter, the native tier and the lane functions alike), so a slot is dead before pc
 * when on every path from pc an instruction that surely writes it (regdef_kill: an
 * unguarded ALU row or mov) comes before any that reads it. Reads are what regdef.c counts -
 * a guard, every register a source names (an address's base, a vector's elements) - and
 * besides:
 * - a guarded instruction's destinations (the lanes its guard leaves keep the old value);
 * - every register an instruction names that is not one of regdef_lane_local's (shfl reads
 *   other lanes', a call moves its operands, ...);
 * - at a .func's ret, its .reg parameters and results (the call's move_param reads the
 *   callee's result registers when it returns).
 * Nothing reads a frame's registers after its thread's last instruction: a frame taken from
 * the cache again is cleared where its next thread may read before writing (regdef.c), and a
 * debugger or --trace, which show registers, run no native code (interp.c).
 */
#include "jit_live.h"

#include <stdlib.h>
#include <string.h>

#include "regdef.h"

/* the most bits the flow keeps (instructions times slots) before it gives up */
#define LIVE_MAX_BITS (1u << 27)

static void set_each(void *b, uint32_t s)
{
	((uint64_t *)b)[s / 64] |= 1ull << (s % 64);
}

static void clear_bit(uint64_t *b, int64_t s, uint32_t ns)
{
	if (s >= 0 && s < ns)
		b[s / 64] &= ~(1ull << (s % 64));
}

static void name(const struct dop *o, uint64_t *b, uint32_t ns)
{
	regdef_op_slots(o, ns, set_each, b);
}

/* The slots instruction i reads (use) */
static void uses(const struct dfunc *fn, const struct dinsn *di, uint64_t *use)
{
	uint32_t ns = fn->nslots;
	if (di->guard >= 0 && (uint32_t)di->guard < ns)
		set_each(use, (uint32_t)di->guard);
	for (int k = 0; k < 5; k++)
		name(&di->s[k], use, ns);
	if (di->guard >= 0 || !regdef_lane_local(di)) {
		name(&di->d, use, ns);
		name(&di->d2, use, ns);
	}
	if (di->op == OP_RET && fn->ir && !fn->ir->is_entry)
		regdef_param_slots(fn, true, ns, set_each, use);
}

void jit_live_find(const struct dfunc *fn, struct jit_live *lv)
{
	uint32_t n = fn->ncode, ns = fn->nslots, nw = (ns + 63) / 64;
	*lv = (struct jit_live){NULL, nw, n, ns};
	if (!nw || (uint64_t)(n + 1) * nw * 64 > LIVE_MAX_BITS)
		return;
	uint64_t *in = calloc((size_t)(n + 1) * nw, sizeof *in);
	uint64_t *use = calloc((size_t)n * nw, sizeof *use), *out = malloc(sizeof *out * nw);
	if (!in || !use || !out) {
		free(in);
		free(use);
		free(out);
		return;
	}
	for (uint32_t i = 0; i < n; i++)
		uses(fn, &fn->code[i], use + (size_t)i * nw);
	for (bool changed = true; changed;) {
		changed = false;
		for (uint32_t i = n; i--;) {
			const struct dinsn *di = &fn->code[i];
			memset(out, 0, sizeof *out * nw);
			struct regdef_succs sc = regdef_succs_of(di, i, n);
			for (uint32_t e = 0; e < regdef_succs_count(&sc); e++) {
				uint64_t t = regdef_succ(&sc, e);
				const uint64_t *s = in + (size_t)(t < n ? t : n) * nw;
				for (uint32_t w = 0; w < nw; w++)
					out[w] |= s[w];
			}
			clear_bit(out, regdef_kill(&di->d, di), ns);
			clear_bit(out, regdef_kill(&di->d2, di), ns);
			uint64_t *a = in + (size_t)i * nw;
			const uint64_t *u = use + (size_t)i * nw;
			for (uint32_t w = 0; w < nw; w++) {
				uint64_t v = out[w] | u[w];
				changed |= v != a[w];
				a[w] = v;
			}
		}
	}
	free(use);
	free(out);
	lv->in = in;
}

void jit_live_free(struct jit_live *lv)
{
	free(lv->in);
	lv->in = NULL;
}

bool jit_live_in(const struct jit_live *lv, uint32_t pc, uint32_t s)
{
	if (!lv->in || s >= lv->nslots || pc > lv->ncode)
		return true;
	return lv->in[(size_t)pc * lv->nw + s / 64] >> (s % 64) & 1;
}

bool jit_live_after(const struct jit_live *lv, const struct dfunc *fn, uint32_t pc, uint32_t s)
{
	return (pc && pc <= lv->ncode && fn->code[pc - 1].guard == (int32_t)s) ||
	       jit_live_in(lv, pc, s);
}
