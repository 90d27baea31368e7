/*
 * operand.c - one lane of an operand: register slots (a .b128 register is a pair of them),
 * immediates, special registers and addresses, read and written by every handler.
 */
#include "operand.h"

#include <string.h>

#include "memory.h"

/* ---- special registers --------------------------------------------------------------- */

static uint32_t v4(const uint32_t v[3], uint32_t comp)
{
	return comp < 3 ? v[comp] : 0;
}

/* %envreg0..31: the manual leaves them to the driver. What an H100 (driver 580.159) gave
 * in every CTA of every launch (tests/regress/envreg.ptx): envreg0 0x038432c8, envreg5 1,
 * envreg9 0x120, the others 0. envreg1:envreg2 is the address of the grid-sync workspace
 * (cooperative_groups' this_grid()): 0 until the context's first cooperative launch, then
 * that launch's workspace in every launch (an H200 with driver 580.159 showed it so). */
static uint32_t envreg(const struct launch *L, enum sreg r)
{
	switch (r) {
	case SREG_ENVREG1:
		return (uint32_t)(L->mem->grid_ws >> 32);
	case SREG_ENVREG2:
		return (uint32_t)L->mem->grid_ws;
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
	/* as the H200 gives them (docs/hardware-vs-manual.md): the total rounded up to 128
	 * bytes without the reserved KiB, the aggregate with it and not rounded */
	case SREG_TOTAL_SMEM_SIZE:
		return cta_reserved_begin(cta_user_smem(L->kernel, k->dyn_shared));
	case SREG_AGGR_SMEM_SIZE:
		return RESERVED_SMEM + cta_user_smem(L->kernel, k->dyn_shared);
	case SREG_RESERVED_SMEM_OFFSET_BEGIN:
	case SREG_RESERVED_SMEM_OFFSET_0:
	case SREG_RESERVED_SMEM_OFFSET_1:
		return cta_reserved_begin(cta_user_smem(L->kernel, k->dyn_shared));
	case SREG_RESERVED_SMEM_OFFSET_END:
		return cta_reserved_begin(cta_user_smem(L->kernel, k->dyn_shared)) +
		       RESERVED_SMEM_USED;
	case SREG_RESERVED_SMEM_OFFSET_CAP:
		return RESERVED_SMEM;
	case SREG_CURRENT_GRAPH_EXEC:
		return 0; /* the manual: 0 outside a CUDA device graph, and ptxi launches none */
	default:
		return envreg(L, r);
	}
}

void op_sreg_lanes(struct launch *L, struct warp *w, const struct dop *o, uint32_t mask,
		   uint64_t *v)
{
	enum sreg r = (enum sreg)o->sreg;
	const uint32_t *b = L->cfg.block;
	if (r == SREG_TID && mask == FULL_MASK && b[1] == 1 && b[2] == 1 &&
	    w->id * LANES + LANES <= b[0]) {
		/* a whole warp of a one-row block (the usual kernel's): x counts up from the
		 * warp's first thread, y and z are 0 (no divisions) */
		uint64_t x0 = o->comp == 0 ? w->id * LANES : 0, step = o->comp == 0;
		for (uint32_t l = 0; l < LANES; l++)
			v[l] = x0 + step * l;
	} else if (r == SREG_TID && mask == FULL_MASK && w->id * LANES % b[0] + LANES <= b[0]) {
		/* a whole warp within one row of the block: x counts up, y and z stay */
		uint32_t t = w->id * LANES;
		uint32_t tid[3] = {t % b[0], (t / b[0]) % b[1], t / (b[0] * b[1])};
		uint64_t x0 = o->comp == 0 ? tid[0] : v4(tid, o->comp), step = o->comp == 0;
		for (uint32_t l = 0; l < LANES; l++)
			v[l] = x0 + step * l;
	} else if (r == SREG_TID && mask) { /* sreg_value's divisions once, then a count */
		uint32_t l = (uint32_t)__builtin_ctz(mask), t = w->id * LANES + l;
		uint32_t tid[3] = {t % b[0], (t / b[0]) % b[1], t / (b[0] * b[1])};
		for (; l < LANES; l++) {
			if (mask >> l & 1)
				v[l] = v4(tid, o->comp);
			if (++tid[0] == b[0]) {
				tid[0] = 0;
				if (++tid[1] == b[1]) {
					tid[1] = 0;
					tid[2]++;
				}
			}
		}
	} else if (r == SREG_NTID || r == SREG_CTAID || r == SREG_NCTAID) { /* the warp's */
		uint64_t x = sreg_value(L, w, r, o->comp, 0);
		if (mask == FULL_MASK)
			for (uint32_t l = 0; l < LANES; l++) /* (a plain loop) */
				v[l] = x;
		else
			for (uint32_t m = mask; m; m &= m - 1)
				v[__builtin_ctz(m)] = x;
	} else {
		for (uint32_t m = mask; m; m &= m - 1)
			v[__builtin_ctz(m)] = sreg_value(L, w, r, o->comp, (uint32_t)__builtin_ctz(m));
	}
	if (o->neg)
		for (uint32_t m = mask; m; m &= m - 1)
			v[__builtin_ctz(m)] = !(v[__builtin_ctz(m)] & 1);
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
