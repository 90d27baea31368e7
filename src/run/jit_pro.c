/*
 * jit_pro.c - a kernel's prologue in the segment code (jit_pro.h): the handlers a fresh
 * warp's first turn runs before its first bar.sync, which run_direct does for a whole warp
 * in place (exec_mem.c's exec_ld_kparam and exec_mov_warp) or through exec_cvta's one
 * conversion for every lane, as native code that writes what they write. Each computes one
 * value (or, for %tid.x, a count across the lanes) from the launch, the warp or the address
 * every lane converts, and stores it to the destination's 32 lanes. Where the handler could
 * report or takes another of its paths - a spin watch reading the parameter, a block whose
 * warp's %tid.x is not one count, lanes that convert different addresses, an address cvta
 * must report - the code jumps to the exit, nothing done, and the handler runs as before.
 */
#include "jit_pro.h"

#include <stddef.h>

#include "exec.h"
#include "front/ir.h"
#include "jit_ctx.h"
#include "launch.h"
#include "memory.h"

enum { Y0 = 12, Y1 = 13, Y2 = 14 };

/* lane l's offset in %tid.x from the warp's first thread: added to it, four lanes a chunk */
static const uint64_t lane_ids[LANES] = {
	0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
	16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31};

static struct xmem at(int base, size_t off)
{
	return (struct xmem){base, -1, 1, (int32_t)off};
}

#define CTX(field) at(r->ctx, offsetof(struct jit_seg_ctx, field))

/* the bits of the destination's type (exec_mov_warp's sm; a predicate's one) */
static uint64_t type_mask(const struct dinsn *di)
{
	int size = ir_type_size((enum ir_mod)di->type);
	return di->type == MOD_PRED ? 1 : size >= 8 ? ~0ull : (1ull << (size * 8)) - 1;
}

static bool kparam_fits(const struct dfunc *fn, const struct dinsn *di)
{
	const struct dop *o = &di->s[0];
	enum ir_mod t = (enum ir_mod)di->type;
	uint32_t es = (uint32_t)ir_type_size(t);
	uint64_t a = (uint64_t)o->off;
	/* exec_ld_kparam's tests that do not depend on the launch (kparam_size is the
	 * kernel's: bind.c, ptxi.c) */
	return di->exec == exec_ld && di->space == MS_PARAM_KERNEL && o->kind == DOP_ADDR &&
	       !o->has_reg && di->vec == 1 && di->d.kind == DOP_REG && di->d.reg_size != 16 &&
	       es && es <= 8 && !(a & (es - 1)) && a < fn->kparam_size &&
	       a + es <= fn->kparam_size;
}

static bool sreg_fits(const struct dinsn *di)
{
	const struct dop *s = &di->s[0];
	int size = ir_type_size((enum ir_mod)di->type);
	if (di->exec != exec_mov || s->kind != DOP_SREG || s->neg || di->d.kind != DOP_REG ||
	    size > 8 || size == 0)
		return false;
	enum sreg g = (enum sreg)s->sreg;
	return (g == SREG_TID && s->comp == 0) || g == SREG_NTID || g == SREG_CTAID ||
	       g == SREG_NCTAID;
}

static bool cvta_fits(const struct dinsn *di)
{
	const struct dop *s = &di->s[0];
	int size = ir_type_size((enum ir_mod)di->type);
	bool to = di->flags & DF_TO;
	return di->exec == exec_cvta && s->kind == DOP_REG && !s->neg && s->reg_size <= 8 &&
	       di->d.kind == DOP_REG && (size == 4 || size == 8) &&
	       (to ? di->space2 == MS_GLOBAL && !(di->flags & DF_CTA_SPACE) : true);
}

bool jit_pro_fits(const struct dfunc *fn, const struct dinsn *di)
{
	return di->guard < 0 && di->d2.kind == DOP_NONE &&
	       (kparam_fits(fn, di) || sreg_fits(di) || cvta_fits(di));
}

/* rax's 64 bits to all 32 lanes of the destination's slot (through the context's word) */
static void broadcast(struct xbuf *b, const struct jit_pro_regs *r, const struct dinsn *di)
{
	x86_store(b, true, CTX(word), X_RAX);
	x86_vrm(b, XV_VPBROADCASTQ, Y1, 0, CTX(word));
	for (int c = 0; c < LANES / 4; c++)
		x86_vrm(b, XV_VMOVDQU_ST, Y1, 0,
			at(r->regs, (size_t)di->d.slot * LANES * sizeof(uint64_t) + 32u * (unsigned)c));
}

/* rax masked to the destination's type, to all 32 lanes of its slot */
static void store_all(struct xbuf *b, const struct jit_pro_regs *r, const struct dinsn *di)
{
	uint64_t sm = type_mask(di);
	if (sm == UINT32_MAX)
		x86_mov32(b, X_RAX, X_RAX);
	else if (sm < UINT32_MAX)
		x86_alu_ri(b, 4, true, X_RAX, (int32_t)sm);
	broadcast(b, r, di);
}

/* exec_ld_kparam: the parameter's bytes widened as its type says, in every lane; a spin
 * watch notes the read (ld_any's path) */
static unsigned gen_kparam(struct xbuf *b, const struct jit_pro_regs *r, const struct dinsn *di,
			   size_t exits[])
{
	enum ir_mod t = (enum ir_mod)di->type;
	x86_load(b, true, X_RAX, CTX(L));
	x86_alu_mi(b, 7, true, at(X_RAX, offsetof(struct launch, spin_rec)), 0);
	exits[0] = x86_jcc(b, 0x5);
	x86_load(b, true, X_RAX, at(X_RAX, offsetof(struct launch, kparams)));
	x86_load_ext(b, ir_type_size(t), ir_type_is_signed(t), X_RAX,
		     at(X_RAX, (size_t)di->s[0].off));
	broadcast(b, r, di);
	return 1;
}

/* %tid.x of a whole warp that lies in the block's first row (t = 32 * w->id + l below
 * %ntid.x, so t mod %ntid.x is t: op_sreg_lanes' count): the warp's first thread plus the
 * lane; any other warp exits */
static unsigned gen_tid(struct xbuf *b, const struct jit_pro_regs *r, const struct dinsn *di,
			size_t exits[])
{
	size_t block = offsetof(struct launch, cfg) + offsetof(struct launch_config, block);
	x86_load(b, true, X_RAX, CTX(L));
	x86_load(b, true, X_RCX, CTX(w));
	x86_load(b, false, X_RCX, at(X_RCX, offsetof(struct warp, id)));
	x86_shift_ri(b, 4, false, X_RCX, 5); /* w->id * LANES */
	x86_mov32(b, X_RDX, X_RCX);
	x86_alu_ri(b, 0, false, X_RDX, LANES);
	x86_alu_rm(b, X86_CMP, false, X_RDX, at(X_RAX, block));
	exits[0] = x86_jcc(b, 0x7); /* past the row's end */
	x86_store(b, true, CTX(word), X_RCX);
	x86_vrm(b, XV_VPBROADCASTQ, Y1, 0, CTX(word));
	uint64_t sm = type_mask(di);
	if (sm < UINT32_MAX) {
		x86_mov_ri(b, X_RAX, (uint32_t)sm);
		x86_store(b, true, CTX(word), X_RAX);
		x86_vrm(b, XV_VPBROADCASTQ, Y0, 0, CTX(word));
	}
	x86_mov_ri64(b, X_RAX, (uint64_t)(uintptr_t)lane_ids);
	for (int c = 0; c < LANES / 4; c++) {
		x86_vrm(b, XV_VPADDQ, Y2, Y1, at(X_RAX, 32u * (unsigned)c));
		if (sm < UINT32_MAX)
			x86_vrr(b, XV_VPAND, Y2, Y2, Y0);
		x86_vrm(b, XV_VMOVDQU_ST, Y2, 0,
			at(r->regs, (size_t)di->d.slot * LANES * sizeof(uint64_t) + 32u * (unsigned)c));
	}
	return 1;
}

/* %ntid, %nctaid (the launch's) and %ctaid (the warp's CTA's): one value; a component past
 * z reads 0 (operand.c's v4) */
static unsigned gen_sreg(struct xbuf *b, const struct jit_pro_regs *r, const struct dinsn *di,
			 size_t exits[])
{
	const struct dop *s = &di->s[0];
	enum sreg g = (enum sreg)s->sreg;
	if (g == SREG_TID)
		return gen_tid(b, r, di, exits);
	if (s->comp >= 3) {
		x86_alu_rr(b, X86_XOR, false, X_RAX, X_RAX);
	} else if (g == SREG_CTAID) {
		x86_load(b, true, X_RAX, CTX(w));
		x86_load(b, true, X_RAX, at(X_RAX, offsetof(struct warp, cta)));
		x86_load(b, false, X_RAX, at(X_RAX, offsetof(struct cta, ctaid) + 4u * s->comp));
	} else {
		size_t k = offsetof(struct launch, cfg) +
			   (g == SREG_NTID ? offsetof(struct launch_config, block)
					   : offsetof(struct launch_config, grid));
		x86_load(b, true, X_RAX, CTX(L));
		x86_load(b, false, X_RAX, at(X_RAX, k + 4u * s->comp));
	}
	store_all(b, r, di);
	return 0;
}

/* exec_cvta of a whole warp converting one address (its `whole`: every lane's the same, else
 * the exit): .to.global keeps it where it is no address of the shared, local or constant
 * window (which it reports), a conversion to the generic space adds the window's base */
static unsigned gen_cvta(struct xbuf *b, const struct jit_pro_regs *r, const struct dinsn *di,
			 size_t exits[])
{
	unsigned n = 0;
	size_t src = (size_t)di->s[0].slot * LANES * sizeof(uint64_t);
	x86_vrm(b, XV_VPBROADCASTQ, Y1, 0, at(r->regs, src));
	x86_vrr(b, XV_VPXOR, Y0, Y0, Y0);
	for (int c = 0; c < LANES / 4; c++) { /* the lanes apart from lane 0's */
		x86_vrm(b, XV_VPXOR, Y2, Y1, at(r->regs, src + 32u * (unsigned)c));
		x86_vrr(b, XV_VPOR, Y0, Y0, Y2);
	}
	x86_vrr(b, XV_VPTEST, Y0, 0, Y0);
	exits[n++] = x86_jcc(b, 0x5);
	x86_load(b, true, X_RAX, at(r->regs, src));
	if (di->flags & DF_TO) { /* (mem_generic_space: a window is its high 32 bits) */
		static const uint64_t bad[] = {WIN_CONST, WIN_LOCAL, WIN_SHARED};
		x86_alu_rr(b, X86_MOV, true, X_RCX, X_RAX);
		x86_shift_ri(b, 5, true, X_RCX, 32);
		for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
			_Static_assert(WIN_SIZE == 1ull << 32, "a window is 2^32 bytes");
			x86_alu_ri(b, 7, false, X_RCX, (int32_t)(bad[k] >> 32));
			exits[n++] = x86_jcc(b, 0x4);
		}
	} else {
		uint64_t base;
		switch ((enum mspace)di->space2) { /* (exec_mem.c's window_base) */
		case MS_SHARED_CTA:
		case MS_SHARED_CLUSTER: base = WIN_SHARED; break;
		case MS_LOCAL: base = WIN_LOCAL; break;
		case MS_CONST: base = WIN_CONST; break;
		case MS_PARAM_KERNEL:
		case MS_PARAM_FRAME: base = WIN_PARAM; break;
		default: base = 0;
		}
		x86_mov_ri64(b, X_RCX, base);
		x86_alu_rr(b, X86_ADD, true, X_RAX, X_RCX);
	}
	store_all(b, r, di);
	return n;
}

unsigned jit_pro_gen(struct xbuf *b, const struct jit_pro_regs *r, const struct dinsn *di,
		     size_t exits[JIT_PRO_EXITS])
{
	if (di->exec == exec_ld)
		return gen_kparam(b, r, di, exits);
	if (di->exec == exec_mov)
		return gen_sreg(b, r, di, exits);
	return gen_cvta(b, r, di, exits);
}
