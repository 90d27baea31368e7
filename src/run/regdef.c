/*
 * regdef.c - registers read before written (regdef.h).
 *
 * A thread runs its function's instructions along one path of the control-flow graph, and a
 * lane's registers change only by its own instructions: the interpreter, the native tier and
 * the lane functions write the lanes of an instruction's mask alone. So where every path to
 * a thread's read of a slot passes an unguarded instruction that writes it (definite
 * assignment: a forward data flow, the meet of paths an intersection), the thread reads
 * its own value, never what the frame held before. Every other slot read reads as 0 today, so
 * frame_new clears it. An edge too many only clears more: each instruction may fall through,
 * but for an unguarded bra.
 *
 * Reads count as the thread's own only for instructions that read its lane alone: the ALU
 * rows, mov, cvta, ld, st, bra, ret and exit. Every register named by any other instruction
 * (shfl reads other lanes', a call moves its operands into another frame, ...) is cleared as
 * before. Writes count only for an unguarded ALU row or mov whose destination is a register
 * of at most 8 bytes (a .b128 register is a pair of slots).
 */
#include "regdef.h"

#include <stdlib.h>
#include <string.h>

#include "support/arena.h"

/* the most bits the flow may keep (instructions times slots) before it gives up */
#define REGDEF_MAX_BITS (1u << 27)

static void set(uint64_t *b, uint32_t s)
{
	b[s / 64] |= 1ull << (s % 64);
}

static bool has(const uint64_t *b, uint32_t s)
{
	return b[s / 64] >> (s % 64) & 1;
}

void regdef_op_slots(const struct dop *o, uint32_t nslots, void (*each)(void *, uint32_t),
		     void *arg)
{
	switch (o->kind) {
	case DOP_REG:
		for (uint32_t k = 0; k < (o->reg_size == 16 ? 2u : 1u); k++)
			if (o->slot + k < nslots)
				each(arg, o->slot + k);
		break;
	case DOP_ADDR:
		if (o->has_reg && o->slot < nslots)
			each(arg, o->slot);
		break;
	case DOP_VEC:
		for (uint32_t i = 0; i < o->nelem && o->elems; i++)
			regdef_op_slots(&o->elems[i], nslots, each, arg);
		break;
	default:
		break;
	}
}

static void set_each(void *b, uint32_t s)
{
	set(b, s);
}

/* Each register slot o names into b */
static void op_slots(const struct dop *o, uint64_t *b, uint32_t nslots)
{
	regdef_op_slots(o, nslots, set_each, b);
}

bool regdef_lane_local(const struct dinsn *di)
{
	switch ((enum ir_op)di->op) {
	case OP_MOV: case OP_CVTA: case OP_LD: case OP_ST: case OP_BRA: case OP_RET:
	case OP_EXIT:
		return true;
	default:
		return di->fam == FAM_ALU;
	}
}

int64_t regdef_kill(const struct dop *d, const struct dinsn *di)
{
	if (di->guard >= 0 || (di->fam != FAM_ALU && di->op != OP_MOV))
		return -1;
	return d->kind == DOP_REG && d->reg_size <= 8 ? (int64_t)d->slot : -1;
}

void regdef_param_slots(const struct dfunc *fn, bool rets, uint32_t nslots,
			void (*each)(void *, uint32_t), void *arg)
{
	const struct ir_func *irf = fn->ir;
	uint32_t n = irf ? irf->nparams + (rets ? irf->nrets : 0) : 0;
	for (uint32_t k = 0; k < n; k++) {
		const struct ir_sym *p = k < irf->nparams ? irf->params[k] : irf->rets[k - irf->nparams];
		if (p->space != MOD_REG || p->slot < 0)
			continue;
		uint32_t w = ir_type_size(p->type) > 8 ? 2 : 1; /* (a pair's both slots) */
		for (uint32_t j = 0; j < w; j++)
			if ((uint32_t)p->slot + j < nslots)
				each(arg, (uint32_t)p->slot + j);
	}
}

struct regdef_succs regdef_succs_of(const struct dinsn *di, uint32_t i, uint32_t n)
{
	struct regdef_succs sc = {.nfixed = 0};
	bool jump = di->op == OP_BRA && di->target < n;
	if (!(jump && di->guard < 0))
		sc.fixed[sc.nfixed++] = i + 1;
	if (jump)
		sc.fixed[sc.nfixed++] = di->target;
	sc.table = di->op == OP_BRX_IDX ? &di->s[1] : NULL;
	return sc;
}

void regdef_plan(struct dprog *P, struct dfunc *fn)
{
	(void)P;
	fn->clear_known = false;
	uint32_t n = fn->ncode + 1, ns = fn->nslots, nw = (ns + 63) / 64;
	if (!nw || (uint64_t)n * nw * 64 > REGDEF_MAX_BITS)
		return;
	uint64_t *in = malloc(sizeof *in * (size_t)n * nw), *out = malloc(sizeof *out * nw);
	uint64_t *need = calloc(nw, sizeof *need), *tmp = calloc(nw, sizeof *tmp);
	if (!in || !out || !need || !tmp)
		goto done;
	memset(in, 0xff, sizeof *in * (size_t)n * nw);
	memset(in, 0, sizeof *in * nw); /* nothing is written at the entry */
	for (bool changed = true; changed;) {
		changed = false;
		for (uint32_t i = 0; i < n; i++) {
			const struct dinsn *di = &fn->code[i];
			memcpy(out, in + (size_t)i * nw, sizeof *out * nw);
			int64_t k1 = regdef_kill(&di->d, di), k2 = regdef_kill(&di->d2, di);
			if (k1 >= 0 && k1 < ns)
				set(out, (uint32_t)k1);
			if (k2 >= 0 && k2 < ns)
				set(out, (uint32_t)k2);
			struct regdef_succs sc = regdef_succs_of(di, i, n);
			for (uint32_t e = 0; e < regdef_succs_count(&sc); e++) {
				uint64_t t = regdef_succ(&sc, e);
				if (t >= n)
					continue;
				uint64_t *s = in + (size_t)t * nw;
				for (uint32_t w = 0; w < nw; w++) {
					uint64_t v = s[w] & out[w];
					changed |= v != s[w];
					s[w] = v;
				}
			}
		}
	}
	for (uint32_t i = 0; i < n; i++) {
		const struct dinsn *di = &fn->code[i];
		memset(tmp, 0, sizeof *tmp * nw);
		if (di->guard >= 0 && (uint32_t)di->guard < ns)
			set(tmp, (uint32_t)di->guard);
		for (int s = 0; s < 5; s++)
			op_slots(&di->s[s], tmp, ns);
		if (!regdef_lane_local(di)) { /* everything it names, as before */
			op_slots(&di->d, tmp, ns);
			op_slots(&di->d2, tmp, ns);
			for (uint32_t w = 0; w < nw; w++)
				need[w] |= tmp[w];
			continue;
		}
		const uint64_t *a = in + (size_t)i * nw;
		for (uint32_t w = 0; w < nw; w++)
			need[w] |= tmp[w] & ~a[w];
	}
	/* the runs of slots to clear */
	uint32_t nruns = 0;
	for (uint32_t s = 0; s < ns; s++)
		nruns += has(need, s) && (s == 0 || !has(need, s - 1));
	fn->clear = arena_alloc(P->arena, sizeof *fn->clear * 2 * (nruns + 1));
	fn->nclear = 0;
	for (uint32_t s = 0; s < ns; s++) {
		if (!has(need, s))
			continue;
		if (s == 0 || !has(need, s - 1))
			fn->clear[2 * fn->nclear++] = s;
		fn->clear[2 * fn->nclear - 1] = s + 1 - fn->clear[2 * fn->nclear - 2];
	}
	fn->clear_known = true;
done:
	free(in);
	free(out);
	free(need);
	free(tmp);
}
