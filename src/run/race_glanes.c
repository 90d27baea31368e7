/*
 * race_glanes.c - a warp's plain ld/st.global checked at once (race_global_lanes): one
 * context, one region and one shadow for the warp, then each lane in order as race_access
 * would check it, its store made after its check; on a --jobs worker each lane is logged
 * as race_defer_access logs it.
 */
#include "race_priv.h"

#include <string.h>

/* The lanes of mask judged at once, as check_range judges each (x: the warp's context, s
 * the region's shadow); the lanes that go on. */
static inline __attribute__((always_inline)) uint32_t
judge_lanes(struct acc_ctx *x, uint32_t mask, struct region *r, const uint64_t *addr,
	    uint8_t *const *p, uint32_t size, const uint64_t *v, const bool write)
{
	struct launch *L = x->L;
	struct race *R = x->R;
	enum race_kind kind = write ? RACE_WRITE : RACE_READ;
	struct rthread *t0 = thr(R, x->w, 0);
	const uint32_t *k0 = clock_of(R, t0);
	uint32_t tid0 = tid_of(R, x->w, 0);
	struct rec me = {L->ci, 0, 0, (uint32_t)L->steps, 0, 0};
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		const uint8_t *nv = write ? (const uint8_t *)&v[l] : NULL; /* its low bytes */
		struct access a = {.p = p[l], .space = MS_GLOBAL, .region = r, .addr = addr[l]};
		x->t = t0 + l;
		x->tid = x->owner = tid0 + l;
		x->lane = l;
		me.tid = tid0 + l;
		me.clock = k0[l];
		uint64_t off = addr[l] - r->base;
		struct cell *c;
		if (size <= GRAN && (c = cell_made(x->s, off / GRAN))) { /* (aligned) */
			check_granule(x, c, &a, off, size, kind, &me, nv);
		} else if (!(size <= GRAN && compact_granule(x, r->size, off, size, kind, &me))) {
			race_check_range(x, &a, size, kind, &me, nv);
		}
		if (L->stop)
			return mask & ((1u << l) - 1);
		if (write)
			store_low(p[l], v[l], size);
	}
	return mask;
}

/* A whole warp's plain store of 32 words in a row (x: its context, r the region) on one
 * compact page whose 32 cells hold no record yet (a kernel's output, written once), judged
 * as compact_granule judges each lane, at once: every lane's record becomes its cell's
 * write, then its bytes are stored; false: not that case, nothing changed. */
static bool compact_row(struct acc_ctx *x, const struct region *r, const uint64_t *addr,
			uint8_t *const *p, const uint64_t *v)
{
	struct launch *L = x->L;
	struct race *R = x->R;
	uint64_t off = addr[0] - r->base, g = off / GRAN, i0 = g % PAGE_CELLS, apart = 0;
#pragma GCC unroll 8
	for (uint32_t l = 0; l < LANES; l++)
		apart |= addr[l] - addr[0] - l * GRAN;
	if (apart || off % GRAN || i0 + LANES > PAGE_CELLS)
		return false;
	struct cpage *cp = race_cpage(L, x->s, r->size, g / PAGE_CELLS); /* (NULL: full) */
	if (!cp)
		return false;
	struct rec *e = &cp->e[i0];
	uint32_t used = 0;
	for (uint32_t l = 0; l < LANES; l++)
		used |= e[l].clock;
	if (used)
		return false;
	const uint32_t *k0 = clock_of(R, thr(R, x->w, 0));
	uint32_t tid0 = tid_of(R, x->w, 0);
	for (uint32_t l = 0; l < LANES; l++) {
		e[l] = (struct rec){L->ci, tid0 + l, k0[l], (uint32_t)L->steps, 0xf, 0};
		cp->read[(i0 + l) / 32] &= ~(1u << (i0 + l) % 32);
		store_low(p[l], v[l], GRAN);
	}
	return true;
}

/* The lanes of mask logged for the replay (a --jobs worker's), each stored after. */
static uint32_t defer_lanes(struct launch *L, struct warp *w, uint32_t mask, struct region *r,
			    const uint64_t *addr, uint8_t *const *p, uint32_t size,
			    const uint64_t *v)
{
	struct race_gacc e = {0};
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		struct access a = {.p = p[l], .space = MS_GLOBAL, .region = r, .addr = addr[l]};
		race_defer_lane(L, w, l, &a, size, v ? RACE_WRITE : RACE_READ, v ? &v[l] : NULL, &e);
		if (L->stop)
			return mask & ((1u << l) - 1);
		if (v)
			store_low(p[l], v[l], size);
	}
	return mask;
}

uint32_t race_global_lanes(struct launch *L, struct warp *w, uint32_t mask, const uint64_t *addr,
			   uint8_t *const *p, uint32_t size, const uint64_t *v)
{
	struct race *R = L->race;
	if (L->stop || !mask)
		return 0;
	struct region *r = mem_find(L->mem, addr[__builtin_ctz(mask)], size);
	if (!r) /* (global_lanes found it) */
		return 0;
	if (R->shard)
		return defer_lanes(L, w, mask, r, addr, p, size, v);
	struct access a = {.p = p[__builtin_ctz(mask)], .space = MS_GLOBAL, .region = r,
			   .addr = addr[__builtin_ctz(mask)]};
	uint64_t off, bytes;
	struct acc_ctx x = {.L = L, .R = R, .w = w, .glob = true};
	if (!(x.s = race_shadow_of(L, &a, &off, &bytes))) { /* (out of memory: unchecked) */
		for (uint32_t m = L->stop ? 0 : mask; v && m; m &= m - 1)
			store_low(p[__builtin_ctz(m)], v[__builtin_ctz(m)], size);
		return L->stop ? 0 : mask;
	}
	if (v && mask == 0xffffffffu && size == GRAN && compact_row(&x, r, addr, p, v))
		return mask;
	return v ? judge_lanes(&x, mask, r, addr, p, size, v, true)
		 : judge_lanes(&x, mask, r, addr, p, size, NULL, false);
}
