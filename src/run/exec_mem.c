/*
 * exec_mem.c - data movement (mov, cvta, isspacep, mapa, getctarank) and memory accesses
 * (ld, st, atom, red, prefetch) over every state space, one lane at a time through
 * access_lane, which checks bounds, alignment, live mbarriers and in-flight copies - or, for
 * ld/st.shared when none of those checks can fire, every lane resolved at once. The atomic
 * arithmetic is atom.c's (red.async and reducing copies use it too when they land).
 */
#include <stdlib.h>
#include <string.h>

#include "access.h"
#include "atom.h"
#include "exec.h"
#include "initcheck.h"
#include "launch.h"
#include "memory.h"
#include "operand.h"
#include "race.h"
#include "report/rules.h"
#include "smem.h"

/* The first min(size, 8) bytes at p, as one load of that width (a narrow store read back
 * wider stalls store forwarding). */
static inline uint64_t load_bytes(const uint8_t *p, uint32_t size)
{
	uint8_t b;
	uint16_t h;
	uint32_t u;
	uint64_t d;
	switch (size) {
	case 1:
		memcpy(&b, p, 1);
		return b;
	case 2:
		memcpy(&h, p, 2);
		return h;
	case 4:
		memcpy(&u, p, 4);
		return u;
	default:
		memcpy(&d, p, 8);
		return d;
	}
}

/* ---- 128-bit values: a .b128 register is two slots, the low half first --------------- */

static bool is_pair(const struct dop *o)
{
	return o->kind == DOP_REG && o->reg_size == 16;
}

/* One lane's 128-bit source: a register pair, or a constant or an address: its 64 bits
 * (a negative constant sign-extended to 64) with a zero high half, as the H100 widens
 * them (tests/hw_b128). */
static void read128(struct launch *L, struct warp *w, struct frame *f, const struct dop *o,
		    uint32_t lane, uint64_t v[2])
{
	v[0] = op_read(L, w, f, o, lane);
	v[1] = is_pair(o) ? slot_ptr(f, o->slot + 1)[lane] : 0;
}

static void write128(struct frame *f, const struct dop *o, uint32_t lane, const uint64_t v[2])
{
	op_write(f, o, lane, v[0]);
	if (is_pair(o))
		slot_ptr(f, o->slot + 1)[lane] = v[1];
}

/* A loaded value (extended to 64 bits by its type, ISA 9.7.9.8) into its destination; a
 * .b128 register gets a zero high half: the H100 sign-extends ld.s32 into a .b128 register
 * to 64 bits only (tests/hw_b128; the manual does not say). */
static void write_loaded(struct frame *f, const struct dop *o, uint32_t lane, uint64_t v)
{
	op_write(f, o, lane, v);
	if (is_pair(o))
		slot_ptr(f, o->slot + 1)[lane] = 0;
}

/* mov.b128: copy a pair, widen a constant or an address, or pack / unpack two .b64 or four
 * .b32 registers, the first element in the lowest bits (ISA 9.7.9.10). */
static void exec_mov128(struct launch *L, struct warp *w, struct frame *f,
			const struct dinsn *di, uint32_t mask)
{
	const struct dop *d = &di->d, *s = &di->s[0];
	const struct dop *vec = d->kind == DOP_VEC ? d : s->kind == DOP_VEC ? s : NULL;
	uint32_t n = vec && vec->nelem ? vec->nelem : 1, es = 16 / n;
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		uint64_t v[2] = {0, 0};
		if (s->kind == DOP_VEC) {
			for (uint32_t i = 0; i < n; i++) {
				uint64_t e = op_read(L, w, f, &s->elems[i], l);
				memcpy((uint8_t *)v + i * es, &e, es);
			}
		} else {
			read128(L, w, f, s, l, v);
		}
		if (d->kind != DOP_VEC) {
			write128(f, d, l, v);
			continue;
		}
		for (uint32_t i = 0; i < n; i++) {
			uint64_t e = 0;
			memcpy(&e, (const uint8_t *)v + i * es, es);
			op_write(f, &d->elems[i], l, e);
		}
	}
}

/* ---- data movement ------------------------------------------------------------------- */

static uint64_t window_base(enum mspace s)
{
	switch (s) {
	case MS_SHARED_CTA:
	case MS_SHARED_CLUSTER:
		return WIN_SHARED;
	case MS_LOCAL:
		return WIN_LOCAL;
	case MS_CONST:
		return WIN_CONST;
	case MS_PARAM_KERNEL:
	case MS_PARAM_FRAME:
		return WIN_PARAM;
	default:
		return 0;
	}
}

/* Whether every value of special register o is below 2^32 (a kernel's prologue reads these:
 * a 32-bit or wider move then keeps them as they are). */
static bool sreg_32(const struct dop *o)
{
	enum sreg r = (enum sreg)o->sreg;
	return r == SREG_TID || r == SREG_NTID || r == SREG_CTAID || r == SREG_NCTAID;
}

bool exec_mov_warp(struct launch *L, struct warp *w, struct frame *f, const struct dinsn *di)
{
	const struct dop *s = &di->s[0];
	int size = ir_type_size((enum ir_mod)di->type);
	if (di->d.kind != DOP_REG || s->neg || size == 16)
		return false;
	uint64_t sm = di->type == MOD_PRED ? 1 : size_mask(size), *d = slot_ptr(f, di->d.slot);
	switch (s->kind) {
	case DOP_REG:
	case DOP_IMM: {
		const uint64_t *a = s->kind == DOP_REG ? slot_ptr(f, s->slot) : s->imm;
#pragma GCC ivdep
		for (uint32_t l = 0; l < LANES; l++) /* (lane l reads a[l] alone: d may be a) */
			d[l] = a[l] & sm;
		return true;
	}
	case DOP_ADDR:
	case DOP_SYMADDR: {
		if (s->has_reg)
			return false;
		/* a variable's address: op_addr's value, the same for every lane, once */
		lanes_fill(d, op_addr(L, w, f, s, 0) & sm, FULL_MASK);
		return true;
	}
	case DOP_SREG:
		if (!sreg_32(s)) /* (%clock and the others: exec_mov's lane by lane) */
			return false;
		op_sreg_lanes(L, w, s, FULL_MASK, d);
		if (sm < UINT32_MAX) /* (else the values fit the type) */
			for (uint32_t l = 0; l < LANES; l++)
				d[l] &= sm;
		return true;
	default:
		return false;
	}
}

enum step exec_mov(struct launch *L, struct warp *w, struct group *g, const struct dinsn *di,
		   uint32_t mask)
{
	struct frame *f = g->frame;
	if (mask == FULL_MASK && exec_mov_warp(L, w, f, di))
		return STEP_NEXT;
	int size = ir_type_size((enum ir_mod)di->type);
	if (size == 16) {
		exec_mov128(L, w, f, di, mask);
		return STEP_NEXT;
	}
	if (di->d.kind == DOP_VEC) { /* unpack: mov.b64 {a, b}, x */
		int n = di->d.nelem, es = size / (n ? n : 1);
		for (uint32_t m = mask; m; m &= m - 1) {
			uint32_t l = (uint32_t)__builtin_ctz(m);
			uint64_t v = op_read(L, w, f, &di->s[0], l);
			for (int i = 0; i < n; i++)
				op_write(f, &di->d.elems[i], l, (v >> (i * es * 8)) & size_mask(es));
		}
		return STEP_NEXT;
	}
	if (di->s[0].kind == DOP_VEC) { /* pack: mov.b64 x, {a, b} */
		int n = di->s[0].nelem, es = size / (n ? n : 1);
		for (uint32_t m = mask; m; m &= m - 1) {
			uint32_t l = (uint32_t)__builtin_ctz(m);
			uint64_t v = 0;
			for (int i = 0; i < n; i++)
				v |= (op_read(L, w, f, &di->s[0].elems[i], l) & size_mask(es)) << (i * es * 8);
			op_write(f, &di->d, l, v);
		}
		return STEP_NEXT;
	}
	uint64_t sm = di->type == MOD_PRED ? 1 : size_mask(size);
	const struct dop *s = &di->s[0];
	if (s->kind == DOP_FUNC) {
		uint64_t v = FUNC_ADDR_BASE + (uint64_t)(s->func - L->P->funcs);
		for (uint32_t m = mask; m; m &= m - 1)
			op_write(f, &di->d, (uint32_t)__builtin_ctz(m), v);
		return STEP_NEXT;
	}
	if ((s->kind == DOP_REG || s->kind == DOP_IMM) && di->d.kind == DOP_REG && !s->neg) {
		const uint64_t *a = s->kind == DOP_REG ? slot_ptr(f, s->slot) : s->imm;
		uint64_t *d = slot_ptr(f, di->d.slot);
		for (uint32_t m = mask; m; m &= m - 1) {
			uint32_t l = (uint32_t)__builtin_ctz(m);
			d[l] = a[l] & sm;
		}
		return STEP_NEXT;
	}
	if ((s->kind == DOP_SYMADDR || s->kind == DOP_ADDR) && !s->has_reg && !s->neg &&
	    di->d.kind == DOP_REG) {
		/* a variable's address: op_addr's value, the same for every lane, once */
		lanes_fill(slot_ptr(f, di->d.slot), op_addr(L, w, f, s, 0) & sm, mask);
		return STEP_NEXT;
	}
	if (s->kind == DOP_SREG && mask == FULL_MASK && di->d.kind == DOP_REG) {
		/* a whole warp's special register: straight into the register's lanes */
		uint64_t *d = slot_ptr(f, di->d.slot);
		op_sreg_lanes(L, w, s, mask, d);
		for (uint32_t l = 0; l < LANES; l++)
			d[l] &= sm;
		return STEP_NEXT;
	}
	if (s->kind == DOP_SREG) { /* a special register: its lanes at once */
		uint64_t v[LANES];
		op_sreg_lanes(L, w, s, mask, v);
		for (uint32_t m = mask; m; m &= m - 1)
			op_write(f, &di->d, (uint32_t)__builtin_ctz(m), v[__builtin_ctz(m)] & sm);
		return STEP_NEXT;
	}
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		op_write(f, &di->d, l, op_read(L, w, f, s, l) & sm);
	}
	return STEP_NEXT;
}

static void remember_bad_cvta(struct warp *w, const struct dinsn *di, uint32_t lane,
			      uint64_t from, uint64_t result)
{
	if (!w->bad_cvta_at && !(w->bad_cvta_at = calloc(1, sizeof *w->bad_cvta_at)))
		return; /* out of memory: the use is then judged as any other access */
	w->bad_cvta |= 1u << lane;
	w->bad_cvta_at->result[lane] = result;
	w->bad_cvta_at->from[lane] = from;
	w->bad_cvta_at->insn[lane] = di;
}

enum step exec_cvta(struct launch *L, struct warp *w, struct group *g, const struct dinsn *di,
		    uint32_t mask)
{
	struct frame *f = g->frame;
	enum mspace win = (enum mspace)di->space2;
	uint64_t base = window_base(win);
	uint64_t sm = size_mask(ir_type_size((enum ir_mod)di->type));
	/* a lane whose address is the last one converted cleanly takes its result (a kernel
	 * parameter's pointer: the same in every lane) */
	const uint64_t *src = di->s[0].kind == DOP_REG && !di->s[0].neg
		? slot_ptr(f, di->s[0].slot) : NULL;
	uint64_t last_a = 0, last_r = 0;
	bool have = false;
	/* a whole warp converting one address (read before any lane is written: d may be the
	 * source): the first lane's clean result is every lane's */
	uint64_t *whole = NULL;
	if (src && mask == FULL_MASK && di->d.kind == DOP_REG) {
		uint64_t apart = 0;
		for (uint32_t l = 0; l < LANES; l++)
			apart |= src[l] ^ src[0];
		whole = apart ? NULL : slot_ptr(f, di->d.slot);
	}
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		uint64_t a = src ? src[l] : op_read(L, w, f, &di->s[0], l), r;
		if (have && a == last_a) {
			op_write(f, &di->d, l, last_r);
			continue;
		}
		if (di->flags & DF_TO) {
			enum mspace got = mem_generic_space(a);
			bool ok = win == MS_GLOBAL ? got == MS_GLOBAL || got == MS_PARAM_KERNEL
				: (win == MS_SHARED_CTA || win == MS_SHARED_CLUSTER)
					? got == MS_SHARED_CLUSTER
					: got == win || (win == MS_PARAM_FRAME && got == MS_PARAM_KERNEL);
			/* Plain .shared accepts any CTA of the cluster: nvcc converts mapa results
			 * with cvta.to.shared.u64 and the H100 yields the shared::cluster address
			 * (tests/programs: cluster_reduce). Only an explicit ::cta insists on the
			 * executing CTA, as the manual says. */
			if (ok && (di->flags & DF_CTA_SPACE)) {
				struct cta *c;
				uint32_t off;
				ok = mem_cluster_decode(L, w->cta, a - WIN_SHARED, &c, &off) && c == w->cta;
			}
			r = a - base;
			if (!ok && (win == MS_SHARED_CTA || win == MS_SHARED_CLUSTER)) {
				/* code computes shared offsets of any pointer and uses them only when
				 * they are shared: report at a use as an address (memory.c) */
				remember_bad_cvta(w, di, l, a, r & sm);
			} else if (!ok) {
				rule_break(L, RULE_CVTA_WINDOW, 1u << l,
					   "cvta.to converts 0x%llx, which is not in the named window",
					   (unsigned long long)a);
				if (L->stop)
					return STEP_NEXT;
			}
			have = ok; /* a lane it reported or noted is not taken as a model */
		} else {
			r = a + base;
			have = true;
		}
		last_a = a;
		last_r = r & sm;
		if (have && whole) {
			for (uint32_t k = 0; k < LANES; k++)
				whole[k] = last_r;
			return STEP_NEXT;
		}
		op_write(f, &di->d, l, r & sm);
	}
	return STEP_NEXT;
}

enum step exec_isspacep(struct launch *L, struct warp *w, struct group *g, const struct dinsn *di,
			uint32_t mask)
{
	struct frame *f = g->frame;
	enum mspace want = (enum mspace)di->space;
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		uint64_t a = op_read(L, w, f, &di->s[0], l);
		enum mspace got = mem_generic_space(a);
		bool r;
		if (want == MS_SHARED_CTA || want == MS_SHARED_CLUSTER) {
			struct cta *c;
			uint32_t off;
			r = got == MS_SHARED_CLUSTER &&
			    mem_cluster_decode(L, w->cta, a - WIN_SHARED, &c, &off) &&
			    (want == MS_SHARED_CLUSTER || c == w->cta) && off < c->smem_size;
		} else if (want == MS_GLOBAL) {
			r = got == MS_GLOBAL || got == MS_PARAM_KERNEL;
		} else if (want == MS_PARAM_KERNEL || want == MS_PARAM_FRAME) {
			r = got == MS_PARAM_KERNEL;
		} else {
			r = got == want;
		}
		op_write(f, &di->d, l, r);
	}
	return STEP_NEXT;
}

/* mapa / getctarank: with .shared::cluster the operands are shared addresses, without a
 * space generic ones. */
enum step exec_mapa(struct launch *L, struct warp *w, struct group *g, const struct dinsn *di,
		    uint32_t mask)
{
	struct frame *f = g->frame;
	bool generic = di->space == MS_GENERIC;
	uint64_t sm = size_mask(ir_type_size((enum ir_mod)di->type));
	struct cluster *cl = w->cta->cluster;
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		uint64_t a = op_read(L, w, f, &di->s[0], l);
		struct cta *c;
		uint32_t off;
		uint64_t sa = generic ? a - WIN_SHARED : a;
		if ((generic && mem_generic_space(a) != MS_SHARED_CLUSTER) ||
		    !mem_cluster_decode(L, w->cta, sa, &c, &off)) {
			rule_break(L, RULE_MAPA_RANK, 1u << l, "%s of 0x%llx, which is not a shared "
				   "address", ir_op_name((enum ir_op)di->op), (unsigned long long)a);
			return STEP_NEXT;
		}
		if (di->op == OP_GETCTARANK) {
			op_write(f, &di->d, l, c->rank);
			continue;
		}
		uint64_t rank = op_read(L, w, f, &di->s[1], l) & 0xffffffffu;
		if (rank >= cl->nctas) {
			rule_break(L, RULE_MAPA_RANK, 1u << l, "mapa to rank %llu of a cluster of %u "
				   "CTAs", (unsigned long long)rank, cl->nctas);
			return STEP_NEXT;
		}
		uint64_t r = ((rank + 1) << CLUSTER_SHIFT) | off;
		op_write(f, &di->d, l, (generic ? r + WIN_SHARED : r) & sm);
	}
	return STEP_NEXT;
}

/* ---- memory -------------------------------------------------------------------------- */

/* Resolve one lane's access, and check it for data races (`newv`: what a store writes);
 * frame params live in the frame, not in access_lane. With `soff` the access is a
 * shared::cta one already resolved for the whole warp (shared_lanes): only the race
 * detector is left to see it. */
static uint8_t *lane_bytes(struct launch *L, struct warp *w, struct frame *f,
			   const struct dinsn *di, uint32_t lane, uint32_t size, enum race_kind kind,
			   const void *newv, const uint32_t *soff)
{
	bool write = kind != RACE_READ;
	if (soff) {
		struct cta *c = w->cta;
		if (write) /* (reads were tested for the warp: exec_ld) */
			mem_proxy_mark(c, soff[lane], size);
		if (!L->race)
			return c->smem + soff[lane];
		struct access acc = {.p = c->smem + soff[lane], .cta = c, .off = soff[lane],
				     .space = MS_SHARED_CTA};
		race_access(L, w, lane, &acc, size, kind, newv);
		return L->stop ? NULL : acc.p;
	}
	uint64_t a = op_addr(L, w, f, &di->s[0], lane);
	if (di->space == MS_PARAM_FRAME) {
		/* written so that no sum wraps: a = -4 is far outside, not at 0 */
		if (a > f->fn->param_size || size > f->fn->param_size - a) {
			rule_break(L, RULE_MEM_OUT_OF_BOUNDS, 1u << lane,
				   "%u-byte access at param offset %lld is outside the %u bytes of "
				   "parameters", size, (long long)a, f->fn->param_size);
			return NULL;
		}
		return f->params + (size_t)lane * f->fn->param_size + a;
	}
	struct access acc;
	if (!access_lane(L, w, lane, (enum mspace)di->space, a, size, write, &acc))
		return NULL;
	if (!write && acc.cta && init_checking(L))
		init_check(L, w, lane, acc.cta, acc.off, size);
	race_access(L, w, lane, &acc, size, kind, newv);
	return L->stop ? NULL : acc.p;
}

/* Whether an ld reads one place for every lane, whose checks cannot depend on the lane: a
 * kernel parameter or a .const word named without a register, with no spin watch to note
 * each lane's read (the data-race detector watches neither space: race_tracked). */
static bool same_for_lanes(const struct launch *L, const struct dinsn *di)
{
	return (di->space == MS_PARAM_KERNEL || di->space == MS_CONST) &&
	       di->s[0].kind == DOP_ADDR && !di->s[0].has_reg && !L->spin_rec;
}

/* An ld/st.shared::cta of the whole warp resolved once: the offsets of the lanes of mask in
 * off[], when every lane lands aligned in its own CTA's shared memory and no check of
 * access.c can fire (*consec: a full warp at consecutive places, mem_shared_lanes). NULL:
 * go lane by lane (which then reports what is wrong). */
static const uint32_t *shared_lanes(struct launch *L, struct warp *w, struct frame *f,
				    const struct dinsn *di, uint32_t mask, uint32_t size,
				    uint32_t off[LANES], bool *consec)
{
	const struct dop *o = &di->s[0];
	if (di->space != MS_SHARED_CTA || !access_shared_quiet(L, w))
		return NULL;
	int fit;
	if (o->kind == DOP_ADDR && o->has_reg) { /* the register's lanes plus the offset */
		fit = mem_shared_lanes(w->cta, slot_ptr(f, o->slot), (uint64_t)o->off, mask, size,
				       off);
	} else { /* a variable's address: the same for every lane */
		uint64_t a[LANES], a0 = op_addr(L, w, f, o, 0);
		for (uint32_t l = 0; l < LANES; l++)
			a[l] = a0;
		fit = mem_shared_lanes(w->cta, a, 0, mask, size, off);
	}
	*consec = fit & SHL_CONSEC;
	return fit ? off : NULL;
}

/* A plain ld/st.global of the whole warp through a register, resolved at once: each lane's
 * address in a[] and host address in p[], when every lane lands aligned in one allocation
 * and no check of access.c and no spin watch needs to see a lane (the detector sees the
 * lanes at once: race_global_lanes, for a plain access). NULL: go lane by lane (which then
 * reports what is wrong). */
static uint8_t **global_lanes(struct launch *L, struct frame *f, const struct dinsn *di,
			      uint32_t mask, uint32_t size, bool write, uint8_t *p[LANES],
			      uint64_t a[LANES])
{
	const struct dop *o = &di->s[0];
	if (di->space != MS_GLOBAL || o->kind != DOP_ADDR || !o->has_reg || size > 8 ||
	    (L->race && !race_plain(di)) || !access_global_quiet(L))
		return NULL;
	const uint64_t *r = slot_ptr(f, o->slot);
	for (uint32_t l = 0; l < LANES; l++)
		a[l] = r[l] + (uint64_t)o->off;
	return mem_global_lanes(L, a, mask, size, write, p) ? p : NULL;
}

/* A scalar ld.shared into a register, its lanes resolved at once and no detector to see
 * them: straight from shared memory into the register's lanes. */
static void ld_shared_quick(struct warp *w, struct frame *f, const struct dinsn *di,
			    uint32_t mask, const uint32_t *off, uint32_t es, bool sgn, bool consec)
{
	const uint8_t *smem = w->cta->smem;
	uint64_t *d = slot_ptr(f, di->d.slot);
	if (consec && mask == FULL_MASK && es == 4) { /* 32 words in a row: widened at once */
		uint32_t u[LANES];
		memcpy(u, smem + off[0], sizeof u);
		if (sgn)
			for (uint32_t l = 0; l < LANES; l++)
				d[l] = (uint64_t)(int64_t)(int32_t)u[l];
		else
			for (uint32_t l = 0; l < LANES; l++)
				d[l] = u[l];
		return;
	}
	if (mask == FULL_MASK && es == 4) { /* the common case: one plain loop, no lane walk */
		for (uint32_t l = 0; l < LANES; l++) {
			uint32_t u;
			memcpy(&u, smem + off[l], 4);
			d[l] = sgn ? (uint64_t)(int64_t)(int32_t)u : u;
		}
		return;
	}
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		d[l] = widen(load_bytes(smem + off[l], es), (int)es, sgn);
	}
}

static enum step ld_any(struct launch *L, struct warp *w, struct group *g,
			const struct dinsn *di, uint32_t mask);

/* A scalar ld.param of a kernel parameter by its name into a register (a kernel's prologue
 * has a few): one place for every lane and nothing to check but its bounds and alignment,
 * which cannot depend on the lane (no spin watch: same_for_lanes; the detector does not
 * watch the space), so read once into the lanes of mask. False: anything else, or a read
 * out of bounds or misaligned, which ld_any's lane_bytes reports as before. */
bool exec_ld_kparam(struct launch *L, struct frame *f, const struct dinsn *di, uint32_t mask)
{
	const struct dop *o = &di->s[0];
	if (di->space != MS_PARAM_KERNEL || o->kind != DOP_ADDR || o->has_reg || L->spin_rec ||
	    di->vec != 1 || di->d.kind != DOP_REG || is_pair(&di->d) || L->stop)
		return false;
	enum ir_mod t = (enum ir_mod)di->type;
	uint32_t es = (uint32_t)ir_type_size(t);
	uint64_t a = (uint64_t)o->off; /* (op_addr's, with no register) */
	if (!es || es > 8 || (a & (es - 1)) || a >= L->kparam_size || a + es > L->kparam_size)
		return false;
	lanes_fill(slot_ptr(f, di->d.slot),
		   widen(load_bytes(L->kparams + a, es), (int)es, ir_type_is_signed(t)), mask);
	return true;
}

enum step exec_ld(struct launch *L, struct warp *w, struct group *g, const struct dinsn *di,
		  uint32_t mask)
{
	if (di->smem && smem_ld(L, w, g->frame, di, mask))
		return STEP_NEXT;
	return ld_any(L, w, g, di, mask);
}

/* exec_ld's every other case: out of its line, so the warp-wide path saves few registers */
static __attribute__((noinline)) enum step ld_any(struct launch *L, struct warp *w,
						  struct group *g, const struct dinsn *di,
						  uint32_t mask)
{
	struct frame *f = g->frame;
	enum ir_mod t = (enum ir_mod)di->type;
	uint32_t es = (uint32_t)ir_type_size(t), n = di->vec, off[LANES];
	bool sgn = ir_type_is_signed(t);
	bool consec = false;
	const uint32_t *soff = shared_lanes(L, w, f, di, mask, es * n, off, &consec);
	if (soff && init_checking(L) && !w->cta->init_full) /* (a full map: nothing to test) */
		init_check_lanes(L, w, soff, mask, es * n);
	if (soff && !L->race && n == 1 && es <= 8 && di->d.kind == DOP_REG && !is_pair(&di->d)) {
		ld_shared_quick(w, f, di, mask, soff, es, sgn, consec);
		return STEP_NEXT;
	}
	if (soff && n == 1 && es <= 8 && di->d.kind == DOP_REG && !is_pair(&di->d) &&
	    race_plain(di)) { /* the detector sees the warp's lanes at once */
		uint32_t done = race_shared_lanes(L, w, mask, soff, es, NULL);
		ld_shared_quick(w, f, di, done, soff, es, sgn, consec && done == mask);
		return STEP_NEXT;
	}
	uint8_t *gp[LANES];
	uint64_t ga[LANES];
	if (n == 1 && di->d.kind == DOP_REG && global_lanes(L, f, di, mask, es, false, gp, ga)) {
		if (L->race) /* the lanes the detector lets go on */
			mask = race_global_lanes(L, w, mask, ga, gp, es, NULL);
		for (uint32_t m = mask; m; m &= m - 1) {
			uint32_t l = (uint32_t)__builtin_ctz(m);
			write_loaded(f, &di->d, l, widen(load_bytes(gp[l], es), (int)es, sgn));
		}
		return STEP_NEXT;
	}
	if (exec_ld_kparam(L, f, di, mask))
		return STEP_NEXT;
	if (same_for_lanes(L, di) && es <= 8) {
		/* one address for the whole warp: read (and checked) once, for every lane */
		uint8_t *p = lane_bytes(L, w, f, di, (uint32_t)__builtin_ctz(mask), es * n, RACE_READ,
					NULL, NULL);
		for (uint32_t i = 0; p && i < n; i++) {
			const struct dop *d = di->d.kind == DOP_VEC ? &di->d.elems[i] : &di->d;
			uint64_t v = widen(load_bytes(p + i * es, es), (int)es, sgn);
			if (mask == FULL_MASK && d->kind == DOP_REG && !is_pair(d)) {
				uint64_t *r = slot_ptr(f, d->slot); /* (a plain loop) */
				for (uint32_t l = 0; l < LANES; l++)
					r[l] = v;
				continue;
			}
			for (uint32_t m = mask; m; m &= m - 1)
				write_loaded(f, d, (uint32_t)__builtin_ctz(m), v);
		}
		return STEP_NEXT;
	}
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		uint8_t *p = lane_bytes(L, w, f, di, l, es * n, RACE_READ, NULL, soff);
		if (!p)
			return STEP_NEXT;
		if (es == 16) { /* ld.b128: one register pair (no vectors: the checker) */
			uint64_t v[2];
			memcpy(v, p, 16);
			write128(f, &di->d, l, v);
			continue;
		}
		for (uint32_t i = 0; i < n; i++) {
			const struct dop *d = di->d.kind == DOP_VEC ? &di->d.elems[i] : &di->d;
			write_loaded(f, d, l, widen(load_bytes(p + i * es, es), (int)es, sgn));
		}
	}
	return STEP_NEXT;
}

/* A scalar st.shared of a register or immediate, its lanes resolved at once and no
 * detector to see them: its generic-proxy writes noted, then the bytes stored. */
static void st_shared_quick(struct warp *w, struct frame *f, const struct dinsn *di,
			    uint32_t mask, const uint32_t *off, uint32_t es, bool consec)
{
	struct cta *c = w->cta;
	const struct dop *s = &di->s[1];
	const uint64_t *v = s->kind == DOP_REG ? slot_ptr(f, s->slot) : s->imm;
	if (((c->init_bits && !c->init_full) || !c->proxy_all) && consec) /* (else it marks */
		mem_proxy_mark_row(c, off[0], LANES * es);		       /* nothing) */
	else if ((c->init_bits && !c->init_full) || !c->proxy_all)
		mem_proxy_mark_lanes(c, off, mask, es);
	if (consec && mask == FULL_MASK && es == 4) { /* 32 words in a row: narrowed at once */
		uint32_t u[LANES];
		for (uint32_t l = 0; l < LANES; l++)
			u[l] = (uint32_t)v[l];
		memcpy(c->smem + off[0], u, sizeof u);
		return;
	}
	if (mask == FULL_MASK && es == 4) {
		for (uint32_t l = 0; l < LANES; l++) {
			uint32_t u = (uint32_t)v[l];
			memcpy(c->smem + off[l], &u, 4);
		}
		return;
	}
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		uint8_t b = (uint8_t)v[l];
		uint16_t h = (uint16_t)v[l];
		uint32_t u = (uint32_t)v[l];
		switch (es) {
		case 1:
			memcpy(c->smem + off[l], &b, 1);
			break;
		case 2:
			memcpy(c->smem + off[l], &h, 2);
			break;
		case 4:
			memcpy(c->smem + off[l], &u, 4);
			break;
		default:
			memcpy(c->smem + off[l], &v[l], 8);
		}
	}
}

static enum step st_any(struct launch *L, struct warp *w, struct group *g,
			const struct dinsn *di, uint32_t mask);

/* The low es bytes of v[l] (little-endian) to gp[l], for the lanes of mask: one width for
 * the warp, so each lane's store is a plain move, not a call of memcpy. */
static void global_store(uint8_t *const *gp, const uint64_t *v, uint32_t mask, uint32_t es)
{
	switch (es) {
	case 1:
		for (uint32_t m = mask; m; m &= m - 1)
			*gp[__builtin_ctz(m)] = (uint8_t)v[__builtin_ctz(m)];
		break;
	case 2:
		for (uint32_t m = mask; m; m &= m - 1) {
			uint16_t h = (uint16_t)v[__builtin_ctz(m)];
			memcpy(gp[__builtin_ctz(m)], &h, 2);
		}
		break;
	case 4:
		if (mask == FULL_MASK) {
			for (uint32_t l = 0; l < LANES; l++) {
				uint32_t u = (uint32_t)v[l];
				memcpy(gp[l], &u, 4);
			}
			break;
		}
		for (uint32_t m = mask; m; m &= m - 1) {
			uint32_t u = (uint32_t)v[__builtin_ctz(m)];
			memcpy(gp[__builtin_ctz(m)], &u, 4);
		}
		break;
	default:
		for (uint32_t m = mask; m; m &= m - 1)
			memcpy(gp[__builtin_ctz(m)], &v[__builtin_ctz(m)], 8);
	}
}

enum step exec_st(struct launch *L, struct warp *w, struct group *g, const struct dinsn *di,
		  uint32_t mask)
{
	if (di->smem && smem_st(L, w, g->frame, di, mask))
		return STEP_NEXT;
	return st_any(L, w, g, di, mask);
}

/* exec_st's every other case, out of its line as ld_any is */
static __attribute__((noinline)) enum step st_any(struct launch *L, struct warp *w,
						  struct group *g, const struct dinsn *di,
						  uint32_t mask)
{
	struct frame *f = g->frame;
	enum ir_mod t = (enum ir_mod)di->type;
	uint32_t es = (uint32_t)ir_type_size(t), n = di->vec, off[LANES];
	uint8_t bytes[4 * 16];
	if (es * n > sizeof bytes) {
		runtime_error(L, 2, "internal error: a %u-byte store", es * n);
		return STEP_NEXT;
	}
	bool consec = false;
	const uint32_t *soff = shared_lanes(L, w, f, di, mask, es * n, off, &consec);
	if (soff && !L->race && n == 1 && es <= 8 && !di->s[1].neg &&
	    (di->s[1].kind == DOP_REG || di->s[1].kind == DOP_IMM)) {
		st_shared_quick(w, f, di, mask, soff, es, consec);
		return STEP_NEXT;
	}
	uint8_t *gp[LANES];
	uint64_t ga[LANES];
	if (n == 1 && !di->s[1].neg && (di->s[1].kind == DOP_REG || di->s[1].kind == DOP_IMM) &&
	    global_lanes(L, f, di, mask, es, true, gp, ga)) {
		const uint64_t *v = di->s[1].kind == DOP_REG ? slot_ptr(f, di->s[1].slot)
							     : di->s[1].imm;
		if (L->race) { /* the detector checks and stores lane by lane */
			race_global_lanes(L, w, mask, ga, gp, es, v);
			return STEP_NEXT;
		}
		global_store(gp, v, mask, es);
		return STEP_NEXT;
	}
	if (soff && n == 1 && es <= 8 && !di->s[1].neg && race_plain(di) &&
	    (di->s[1].kind == DOP_REG || di->s[1].kind == DOP_IMM)) {
		const struct dop *s = &di->s[1]; /* the detector checks and stores lane by lane */
		mem_proxy_mark_lanes(w->cta, soff, mask, es);
		race_shared_lanes(L, w, mask, soff, es, s->kind == DOP_REG ? slot_ptr(f, s->slot)
									   : s->imm);
		return STEP_NEXT;
	}
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		memset(bytes, 0, sizeof bytes);
		for (uint32_t i = 0; i < n; i++) {
			const struct dop *s = di->s[1].kind == DOP_VEC ? &di->s[1].elems[i] : &di->s[1];
			uint64_t v[2];
			read128(L, w, f, s, l, v); /* a narrower type stores the low bytes */
			memcpy(bytes + i * es, v, es);
		}
		uint8_t *p = lane_bytes(L, w, f, di, l, es * n, RACE_WRITE, bytes, soff);
		if (!p)
			return STEP_NEXT;
		memcpy(p, bytes, es * n);
	}
	return STEP_NEXT;
}

/* atom.cas.b128 / atom.exch.b128 (sm_90): one 16-byte read-modify-write per lane. */
static void exec_atom128(struct launch *L, struct warp *w, struct frame *f,
			 const struct dinsn *di, uint32_t mask)
{
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		uint8_t *p = lane_bytes(L, w, f, di, l, 16, RACE_RMW, NULL, NULL);
		if (!p)
			return;
		uint64_t old[2], b[2], c[2] = {0, 0};
		memcpy(old, p, 16);
		read128(L, w, f, &di->s[1], l, b);
		if (di->mode == MOD_CAS)
			read128(L, w, f, &di->s[2], l, c);
		const uint64_t *nv = di->mode != MOD_CAS ? b
				     : old[0] == b[0] && old[1] == b[1] ? c : old;
		memcpy(p, nv, 16);
		write128(f, &di->d, l, old);
	}
}

static void atom_lanes(struct launch *L, struct warp *w, struct frame *f, const struct dinsn *di,
		       uint32_t mask)
{
	enum ir_mod t = (enum ir_mod)di->type;
	uint32_t size = (uint32_t)ir_type_size(t);
	bool is_red = di->op == OP_RED;
	if (size == 16) {
		exec_atom128(L, w, f, di, mask);
		return;
	}
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		uint8_t *p = lane_bytes(L, w, f, di, l, size, RACE_RMW, NULL, NULL);
		if (!p)
			return;
		uint64_t old = 0;
		memcpy(&old, p, size);
		uint64_t b = op_read(L, w, f, &di->s[1], l);
		uint64_t c = di->nsrc > 2 ? op_read(L, w, f, &di->s[2], l) : 0;
		uint64_t nv = exec_atom_value(di, old, b, c, l);
		memcpy(p, &nv, size);
		if (!is_red)
			op_write(f, &di->d, l, extend(old, t));
	}
}

/* A warp's read-modify-writes, whole beside other clusters' (global_rmw_begin). */
enum step exec_atom(struct launch *L, struct warp *w, struct group *g, const struct dinsn *di,
		    uint32_t mask)
{
	global_rmw_begin(L);
	atom_lanes(L, w, g->frame, di, mask);
	global_rmw_end(L);
	return STEP_NEXT;
}

/* prefetch, prefetchu: a cache hint, with no architectural effect. */
enum step exec_prefetch(struct launch *L, struct warp *w, struct group *g, const struct dinsn *di,
			uint32_t mask)
{
	(void)L, (void)w, (void)g, (void)di, (void)mask;
	return STEP_NEXT;
}
