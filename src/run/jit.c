/*
 * jit.c - the native tier (jit.h): block selection, register allocation and code generation.
 *
 * A block is a run of consecutive DF_ALU_DIRECT instructions (one alone too: its code beats
 * the lane function's, and the segment code, jit_seg.c, calls it) of the forms jit_form knows (integer add, sub, mul.lo, mul.wide.u32/s32, mad.lo,
 * and, or, xor, not, neg, shl, shr, unguarded min and max, selp, setp on .b/.u/.s 16/32/64,
 * and/or/xor/not on .pred), split at branch
 * targets so a loop's body starts one. Its code runs chunk-major: for each group of four
 * lanes (one ymm register of 64-bit lanes) with an active lane, the whole block with the PTX
 * registers in ymm registers; a register is loaded from the frame at its first use and
 * written back at the end of the chunk, all four lanes where all are active, else blended
 * into the old value by the chunk's lane mask. Lanes are independent in such code, so this
 * order gives the bits the instruction-major order of the lane functions gives; inactive
 * lanes compute on
 * whatever they hold and are never stored. A guarded instruction blends its result into the
 * destination by its predicate's bit 0, as pred_mask reads it.
 *
 * Values follow exec_alu.h's convention: a ymm lane holds exactly the 64 bits the lane
 * function would store, but for a predicate a setp or .pred logic op just made, which may be
 * held as a lane mask (enum form) until something else reads it or it is stored. `zx` tracks
 * how many low bits of a register may be nonzero, so a 32-bit or/xor/and of clean operands
 * skips the cut to 32 bits.
 *
 * What a block's code stores and assumes comes from facts of its whole function: a value no
 * later instruction reads before the next write of its slot is not stored (jit_live.h: at
 * the block's end and at each exit), and a slot every writer of which zero-extends a value
 * of at most 32 bits is loaded as such (jit_zext.h: `zx` 32, no cut). For a whole warp that
 * never split (the segment code's), the ops that read only uniform registers (jit_uni.h)
 * run once: the whole block (gen_whole's uniform code) or its uniform part (gen_hyb).
 *
 * Registers: ymm0-ymm11 hold PTX registers and constants (allocated per instruction; the
 * value whose next use lies farthest is evicted, stored back if it is still needed), ymm12
 * is zero, ymm13 and ymm14 are scratch, ymm15 the chunk's lane mask. General registers:
 * rdi the frame's registers (moved 32 bytes per chunk), eax the lanes left, edx the chunk's
 * lanes (times 32 in a partial chunk), rcx the lane-mask table, r8d the boundary to leave
 * at, r9 and r10 where to start for whole and partial chunks. Each jit_prepare's code lies
 * in one mapping, written and then made read-only and executable (never both).
 */
#include "jit.h"

#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__) && defined(__linux__)
#define JIT_HOST 1
#include <sys/mman.h>
#include "exec.h"
#include "jit_live.h"
#include "jit_map.h"
#include "jit_seg.h"
#include "jit_uni.h"
#include "jit_x86.h"
#include "jit_zext.h"
#include "support/grow.h"
#endif

/* ---- packed lanes (jit.h) -------------------------------------------------------------- */

/* jit_compact runs only where loops are compiled: on x86-64 with AVX2, so with popcnt */
#if defined(__x86_64__) && defined(__GNUC__)
#define JIT_POPCNT __attribute__((target("popcnt")))
#else
#define JIT_POPCNT
#endif

static JIT_POPCNT uint32_t bits(uint32_t m)
{
	return (uint32_t)__builtin_popcount(m);
}

void jit_perm_init(struct jit_perm *p)
{
	for (uint32_t j = 0; j < 32; j++)
		p->at[j] = (uint8_t)j;
	p->nswap = 0;
}

/* The swaps of p from `first` on, in order, in each of the slots (a slot at a time: the
 * lane numbers read once a swap, into locals the stores cannot alias). */
static void swap_lanes(uint64_t *regs, const uint32_t *slots, uint32_t nslots,
		       const struct jit_perm *p, uint32_t first)
{
	for (uint32_t s = 0; s < nslots; s++) {
		uint64_t *r = regs + (size_t)slots[s] * 32;
		for (uint32_t k = first; k < p->nswap; k++) {
			uint32_t h = p->swap[k][0], t = p->swap[k][1];
			uint64_t v = r[h];
			r[h] = r[t];
			r[t] = v;
		}
	}
}

JIT_POPCNT uint32_t jit_compact(uint64_t *regs, const uint32_t *slots, uint32_t nslots,
				struct jit_perm *p, uint32_t m)
{
	/* a chunk's bit: one where any of its four lanes is in m */
	uint32_t any = (m | m >> 1 | m >> 2 | m >> 3) & 0x11111111u;
	uint32_t n = bits(m);
	uint32_t low = n == 32 ? UINT32_MAX : (1u << n) - 1;
	uint32_t holes = low & ~m, movers = m & ~low;
	if (bits(any) <= (n + 3) / 4 || p->nswap + bits(holes) > JIT_NSWAP)
		return m;
	uint32_t first = p->nswap;
	for (; holes; holes &= holes - 1, movers &= movers - 1) {
		uint32_t h = (uint32_t)__builtin_ctz(holes), t = (uint32_t)__builtin_ctz(movers);
		uint8_t a = p->at[h];
		p->at[h] = p->at[t];
		p->at[t] = a;
		p->swap[p->nswap][0] = (uint8_t)h;
		p->swap[p->nswap++][1] = (uint8_t)t;
	}
	swap_lanes(regs, slots, nslots, p, first);
	return low;
}

void jit_unpack(uint64_t *regs, const uint32_t *slots, uint32_t nslots,
		const struct jit_perm *p)
{
	for (uint32_t s = 0; s < nslots; s++) {
		uint64_t *r = regs + (size_t)slots[s] * 32;
		for (uint32_t k = p->nswap; k--;) {
			uint32_t h = p->swap[k][0], t = p->swap[k][1];
			uint64_t v = r[h];
			r[h] = r[t];
			r[t] = v;
		}
	}
}

#ifdef JIT_HOST

/* A block may be entered and left every JIT_STEP instructions (jit.h), so a budget that
 * ends or starts inside a block costs at most that many interpreted ones. */
enum { JIT_MAX = 512, JIT_LOOK = 64 };
enum { NALLOC = 12, R_ZERO = 12, S1 = 13, S2 = 14, R_LMASK = 15 };
_Static_assert(NALLOC <= JIT_WONLY, "a loop's body ends with at most NALLOC values to store");
/* How a register holds its value: as the lane functions store it, or (a predicate a setp or
 * a .pred logic op made, for the selp, guard, logic op or loop exit that reads it next) all
 * ones in a lane where it is true (F_MASK) or false (F_NMASK). Stored, or read by anything
 * else, it is first made 0 or 1 (materialize); at a block's boundaries every value is. */
enum form { F_VAL, F_MASK, F_NMASK };
#define KCONST 0x80000000u
#define KNONE UINT32_MAX

enum jkind { JK_ADD, JK_SUB, JK_MUL, JK_MAD, JK_MULWU, JK_MULWS, JK_AND, JK_OR, JK_XOR, JK_NOT,
	     JK_CNOT, JK_NEG, JK_SHL, JK_SHRU, JK_SHRS, JK_SELP, JK_SETP,
	     JK_MIN, JK_MAX };

/* the comparisons setp reduces to: equality or signed 64-bit greater-than after the
 * operands are made comparable (cut, sign bit flipped) */
enum jcmp { JC_EQ, JC_NE, JC_LT, JC_LE, JC_GT, JC_GE };

/* One instruction in the form the code generator reads. Keys: a register slot, or KCONST |
 * pool index for a constant, or KNONE. */
struct jop {
	uint8_t kind, w;          /* w: operand width in bits                             */
	bool sgn, imm_b;          /* imm_b: b is an immediate shift amount (bval)          */
	bool pred;                /* on .pred registers                                     */
	uint8_t cmp, boolop;      /* setp: enum jcmp; boolop MOD_AND/OR/XOR or MOD_NONE     */
	uint8_t flip;             /* setp: operands' bits to flip (xk) after the cut       */
	uint32_t in[3];           /* a, b, c                                                */
	uint32_t xk, k16, k1;     /* constants: op-specific, 0xffff (16-bit cut), 1         */
	uint64_t bval;
	int32_t d, d2, guard;     /* slots; d2, guard -1 for none                           */
	bool gneg;
};

struct fixup {
	size_t at;                /* a rip displacement                                    */
	uint32_t k;               /* to this constant                                      */
};

/* The compiler's state for one program. */
struct jc {
	struct xbuf b;
	uint64_t *pool;
	uint32_t npool;
	size_t cpool;
	struct fixup *fix;
	uint32_t nfix;
	size_t cfix;
	bool oom;
	bool full;                /* the code being made is for chunks of 4 active lanes */
	size_t whole_from, whole_to; /* a whole chunk's code, as gen_body made it up to its */
	uint32_t whole_fix0, whole_fix1; /* stores, and its fixups: gen_whole's copies        */
	size_t whole_at;          /* where gen_whole's code starts (SIZE_MAX: none)        */
	size_t uni_at;            /* where gen_whole's uniform code starts (SIZE_MAX: none) */
	size_t whole_bra_at, uni_bra_at; /* gen_whole's branch summaries (SIZE_MAX: none)  */
	bool bra_bare;            /* uni_bra_at's code leaves the branch's guard unstored   */
	size_t hyb_at, hyb_bra_at; /* gen_hyb's code, without and with the summary (or none) */
	const uint8_t *uni;       /* the function's uniform slots (jit_uni.h)               */
	uint32_t last_key[NALLOC]; /* a whole chunk's stores: the slot each register holds */
	bool last_dirty[NALLOC];  /* and whether it is stored                               */
	/* the block being compiled: its function, its first instruction there, and what is
	 * read after each of its instructions (jit_live.h) */
	const struct dfunc *fn;
	const struct jit_live *live;
	const uint8_t *clean;     /* the slots whose upper halves are zero (jit_zext.h) */
	uint32_t pc0;
	const struct jop *ops;
	uint32_t nops;
	uint32_t key[NALLOC];
	bool dirty[NALLOC], pinned[NALLOC];
	bool fixed[NALLOC];       /* a loop's constant, loaded once before its passes */
	uint8_t form[NALLOC];     /* enum form of each register's value                 */
	uint32_t nu[NALLOC];      /* next_use of each register's value after its last use */
	uint8_t zx[NALLOC];
	/* a loop's body (gen_loop): the slots it saves (read, then written by a pass), the
	 * slots loaded in the chunk so far; bad: it cannot be one (a value to evict) */
	bool loop, bad;
	uint32_t keep[JIT_KEEP], nkeep;
	uint32_t loaded[JIT_MAX * 3], nloaded;
	/* the slots of the frame a loop's body reads or writes, in either kind of chunk */
	uint32_t touched[JIT_MAX * 3 + 1], ntouched;
	/* the slots it writes without loading them (a lane that leaves the loop stores them to
	 * the save area) */
	uint32_t wonly[JIT_WONLY], nwonly;
};

static uint32_t konst(struct jc *J, uint64_t v)
{
	for (uint32_t i = 0; i < J->npool; i++)
		if (J->pool[i] == v)
			return KCONST | i;
	if (!grow_array((void **)&J->pool, &J->cpool, J->npool, sizeof *J->pool, 64)) {
		J->oom = true;
		return KCONST;
	}
	J->pool[J->npool] = v;
	return KCONST | J->npool++;
}

/* ---- forms ------------------------------------------------------------------------------ */

static int width(enum ir_mod t, bool *sgn)
{
	*sgn = t == MOD_S16 || t == MOD_S32 || t == MOD_S64;
	switch (t) {
	case MOD_B16: case MOD_U16: case MOD_S16: return 16;
	case MOD_B32: case MOD_U32: case MOD_S32: return 32;
	case MOD_B64: case MOD_U64: case MOD_S64: return 64;
	default: return 0;
	}
}

/* Operand i (0 d, 1 d2, 2.. sources) of a DF_ALU_DIRECT instruction as a key. */
static uint32_t src_key(struct jc *J, const struct dinsn *di, int i)
{
	const struct dop *o = &di->s[i];
	if (o->kind == DOP_REG)
		return o->slot;
	return konst(J, o->imm[0]);
}

static enum jcmp cmp_of(enum ir_mod c, bool sgn, bool *uns, bool *ok)
{
	*ok = true;
	*uns = !sgn;
	switch (c) {
	case MOD_EQ: return JC_EQ;
	case MOD_NE: return JC_NE;
	case MOD_LT: return JC_LT;
	case MOD_LE: return JC_LE;
	case MOD_GT: return JC_GT;
	case MOD_GE: return JC_GE;
	case MOD_LO: *uns = true; return JC_LT;
	case MOD_LS: *uns = true; return JC_LE;
	case MOD_HI: *uns = true; return JC_GT;
	case MOD_HS: *uns = true; return JC_GE;
	default: *ok = false; return JC_EQ;
	}
}

/* The form of di the code generator runs, or false if it has none (the block ends). */
static bool jit_form(struct jc *J, const struct dinsn *di, struct jop *o)
{
	const struct alu_insn *ai = &di->alu;
	if (!(di->flags & DF_ALU_DIRECT) || di->d.kind != DOP_REG)
		return false;
	memset(o, 0, sizeof *o);
	o->in[0] = o->in[1] = o->in[2] = KNONE;
	o->xk = o->k16 = o->k1 = KNONE;
	o->d = (int32_t)di->d.slot;
	o->d2 = di->d2.kind == DOP_REG ? (int32_t)di->d2.slot : -1;
	o->guard = di->guard;
	o->gneg = di->guard_neg;
	bool pred = ai->type == MOD_PRED, sgn = false;
	int w = pred ? 64 : width(ai->type, &sgn);
	uint32_t f = ai->flags;
	int nsrc = 2;
	o->w = (uint8_t)w;
	o->sgn = sgn;
	o->pred = pred;
	/* run_direct reads the guard of a block's last instruction after the block for its
	 * mask (L->cmask): no instruction may write its own guard, as any may be the last */
	if (!w || (o->d2 >= 0 && ai->op != OP_SETP) ||
	    (o->guard >= 0 && (o->d == o->guard || o->d2 == o->guard)))
		return false;
	switch (ai->op) {
	case OP_ADD: case OP_SUB:
		if (f || pred)
			return false;
		o->kind = ai->op == OP_ADD ? JK_ADD : JK_SUB;
		break;
	case OP_MUL:
		if (pred)
			return false;
		if (f == ALU_LO) {
			o->kind = JK_MUL;
		} else if (f == ALU_WIDE && w == 32) {
			o->kind = sgn ? JK_MULWS : JK_MULWU;
			o->w = 64;
		} else {
			return false;
		}
		break;
	case OP_MAD:
		if (f != ALU_LO || pred)
			return false;
		o->kind = JK_MAD;
		nsrc = 3;
		break;
	case OP_AND: case OP_OR: case OP_XOR:
		if (f)
			return false;
		o->kind = ai->op == OP_AND ? JK_AND : ai->op == OP_OR ? JK_OR : JK_XOR;
		break;
	case OP_NOT:
		if (f)
			return false;
		o->kind = pred ? JK_CNOT : JK_NOT;
		nsrc = 1;
		break;
	case OP_NEG:
		if (f || pred || !sgn)
			return false;
		o->kind = JK_NEG;
		nsrc = 1;
		break;
	case OP_SHL: case OP_SHR:
		if (f || pred)
			return false;
		o->kind = ai->op == OP_SHL ? JK_SHL : sgn ? JK_SHRS : JK_SHRU;
		if (di->s[1].kind == DOP_IMM) {
			o->imm_b = true;
			o->bval = (uint32_t)di->s[1].imm[0];
		} else if (o->kind == JK_SHRS) {
			return false; /* a clamp per lane: not yet */
		}
		break;
	case OP_MIN: case OP_MAX:
		/* unguarded only: emit_op's code needs S1 besides the destination */
		if (f || pred || o->guard >= 0 || di->nsrc != 2)
			return false;
		o->kind = ai->op == OP_MIN ? JK_MIN : JK_MAX;
		if (w < 64 && sgn) {
			o->flip = 1;
			o->xk = konst(J, 1ull << (w - 1));
		} else if (w == 64 && !sgn) {
			o->flip = 1;
			o->xk = konst(J, 1ull << 63);
		}
		break;
	case OP_SELP:
		if (f || pred)
			return false;
		o->kind = JK_SELP;
		nsrc = 3;
		break;
	case OP_SETP: {
		bool uns, ok;
		if (f || pred || (o->d2 >= 0 && (o->d2 == o->d || o->guard >= 0)))
			return false;
		o->kind = JK_SETP;
		o->cmp = (uint8_t)cmp_of(ai->cmp, sgn, &uns, &ok);
		if (!ok)
			return false;
		o->boolop = (uint8_t)(di->nsrc >= 3 ? ai->boolop : MOD_NONE);
		if (o->boolop != MOD_NONE && o->boolop != MOD_AND && o->boolop != MOD_OR &&
		    o->boolop != MOD_XOR)
			return false;
		nsrc = o->boolop != MOD_NONE ? 3 : 2;
		/* 1: what a negated relation adds, and the boolean op's and a second
		 * destination's operand (emit_op) */
		if (o->cmp == JC_NE || o->cmp == JC_LE || o->cmp == JC_GE ||
		    o->boolop != MOD_NONE || o->d2 >= 0)
			o->k1 = konst(J, 1);
		if (o->cmp >= JC_LT && w < 64 && !uns) {
			o->flip = 1;
			o->xk = konst(J, 1ull << (w - 1));
		} else if (o->cmp >= JC_LT && w == 64 && uns) {
			o->flip = 1;
			o->xk = konst(J, 1ull << 63);
		}
		break;
	}
	default:
		return false;
	}
	if (di->nsrc < nsrc)
		return false;
	for (int i = 0; i < nsrc; i++)
		if (!(i == 1 && o->imm_b))
			o->in[i] = src_key(J, di, i);
	if (w == 16)
		o->k16 = konst(J, 0xffff);
	if (o->kind == JK_NOT)
		o->xk = konst(J, ~0ull);
	if (o->kind == JK_SHRS && w == 64) {
		uint32_t s = o->bval >= 63 ? 63 : (uint32_t)o->bval;
		o->xk = konst(J, 1ull << (63 - s));
	}
	return !J->oom;
}

/* ---- register allocation ------------------------------------------------------------------- */

static struct xmem home(uint32_t slot)
{
	return (struct xmem){X_RDI, -1, 1, (int32_t)(slot * LANES * sizeof(uint64_t))};
}

static void load_rip(struct jc *J, int r, uint32_t k)
{
	x86_vrm(&J->b, XV_VMOVDQU_LD, r, 0, (struct xmem){-1, -1, 1, 0});
	if (!grow_array((void **)&J->fix, &J->cfix, J->nfix, sizeof *J->fix, 64)) {
		J->oom = true;
		return;
	}
	J->fix[J->nfix++] = (struct fixup){J->b.len - 4, k & ~KCONST};
}

/* Whether the op reads key k (its inputs, constants, guard, and a guarded destination). */
static bool reads(const struct jop *o, uint32_t k)
{
	return o->in[0] == k || o->in[1] == k || o->in[2] == k || o->xk == k || o->k16 == k ||
	       o->k1 == k || (o->guard >= 0 && ((uint32_t)o->guard == k || (uint32_t)o->d == k));
}

static bool writes(const struct jop *o, uint32_t k)
{
	return (uint32_t)o->d == k || (o->d2 >= 0 && (uint32_t)o->d2 == k);
}

/* Where k is next read from op i on: its index, JIT_MAX + 1 if the block overwrites it
 * first (dead), JIT_MAX if it is not read again (needed as the block's result, or at an exit
 * on the way to the write that overwrites it). */
static uint32_t next_use(const struct jc *J, uint32_t k, uint32_t i)
{
	bool exit = false;
	/* looking JIT_LOOK ops ahead at most keeps compiling linear: past that, a value
	 * counts as needed (stored when evicted) and as far away as any */
	uint32_t end = J->nops - i > JIT_LOOK ? i + JIT_LOOK : J->nops;
	for (uint32_t j = i; j < end; j++) {
		if (reads(&J->ops[j], k))
			return j;
		if (writes(&J->ops[j], k))
			return exit ? JIT_MAX : JIT_MAX + 1;
		exit = exit || (!J->loop && (j + 1) % JIT_STEP == 0);
	}
	return JIT_MAX;
}

static int reg_of(const struct jc *J, uint32_t k)
{
	for (int r = 0; r < NALLOC; r++)
		if (J->key[r] == k)
			return r;
	return -1;
}

/* Store register r's active lanes to slot k's home: the old value blended with r by the
 * chunk's lane mask, then stored whole (vpmaskmovq stores are slow on some cores). S1 is
 * free wherever this is emitted: before an op's code, and after the block's. */
static void store_lanes(struct jc *J, int r, uint32_t k)
{
	x86_vrm(&J->b, XV_VMOVDQU_LD, S1, 0, home(k));
	x86_v4(&J->b, XV_VBLENDVPD, S1, S1, r, R_LMASK);
	x86_vrm(&J->b, XV_VMOVDQU_ST, S1, 0, home(k));
}

static void materialize(struct jc *J, int r);

/* Store register r to slot k's home as the chunk needs it. */
static void store_reg(struct jc *J, int r, uint32_t k)
{
	materialize(J, r);
	if (J->full)
		x86_vrm(&J->b, XV_VMOVDQU_ST, r, 0, home(k));
	else
		store_lanes(J, r, k);
}

/* A free register for the op, evicting the value used farthest away (stored back first if the
 * block or its successors still need it). */
static int take(struct jc *J)
{
	int best = -1;
	uint32_t far = 0;
	for (int r = 0; r < NALLOC; r++) {
		if (J->pinned[r] || J->fixed[r])
			continue;
		if (J->key[r] == KNONE)
			return r;
		uint32_t u = J->nu[r] * 2 + !J->dirty[r];
		if (best < 0 || u > far) {
			best = r;
			far = u;
		}
	}
	if (J->dirty[best] && J->nu[best] <= JIT_MAX) {
		J->bad |= J->loop; /* a loop's body stores only at its end */
		store_reg(J, best, J->key[best]);
	}
	J->key[best] = KNONE;
	J->dirty[best] = false;
	return best;
}

static int zx_of(uint64_t v)
{
	return v ? 64 - __builtin_clzll(v) : 1;
}

static bool in(const uint32_t *set, uint32_t n, uint32_t k)
{
	for (uint32_t i = 0; i < n; i++)
		if (set[i] == k)
			return true;
	return false;
}

/* A loop's body loaded slot k into register r: the first load in the chunk of a slot the
 * body writes saves its value (rdi + r9: the chunk's lanes of the save area). */
static void loop_loaded(struct jc *J, int r, uint32_t k)
{
	if (in(J->loaded, J->nloaded, k))
		return;
	if (J->nloaded == sizeof J->loaded / sizeof J->loaded[0]) {
		J->bad = true;
		return;
	}
	J->loaded[J->nloaded++] = k;
	bool written = false;
	for (uint32_t i = 0; i < J->nops && !written; i++)
		written = writes(&J->ops[i], k);
	if (!written)
		return;
	uint32_t c = 0;
	while (c < J->nkeep && J->keep[c] != k)
		c++;
	if (c == JIT_KEEP) {
		J->bad = true;
		return;
	}
	if (c == J->nkeep)
		J->keep[J->nkeep++] = k;
	x86_vrm(&J->b, XV_VMOVDQU_ST, r, 0,
		(struct xmem){X_RDI, X_R9, 1, (int32_t)(c * LANES * sizeof(uint64_t))});
}

/* k in a register for the op, loaded if need be; pinned for the op. */
static int fetch(struct jc *J, uint32_t k)
{
	if (k == KNONE)
		return -1;
	int r = reg_of(J, k);
	if (r < 0) {
		r = take(J);
		J->key[r] = k;
		J->dirty[r] = false;
		J->form[r] = F_VAL;
		if (k & KCONST) {
			load_rip(J, r, k);
			J->zx[r] = (uint8_t)zx_of(J->pool[k & ~KCONST]);
		} else {
			x86_vrm(&J->b, XV_VMOVDQU_LD, r, 0, home(k));
			J->zx[r] = J->clean && J->clean[k] ? 32 : 64;
			if (J->loop)
				loop_loaded(J, r, k);
		}
	}
	J->pinned[r] = true;
	return r;
}

/* The register that receives slot d's new value (its old one's, if it has one). */
static int dest(struct jc *J, uint32_t d)
{
	int r = reg_of(J, d);
	if (r < 0) {
		r = take(J);
		J->key[r] = d;
	}
	J->pinned[r] = true;
	return r;
}

/* ---- code generation ------------------------------------------------------------------------ */

static void vrr(struct jc *J, enum x86_vop op, int d, int v, int rm)
{
	x86_vrr(&J->b, op, d, v, rm);
}

/* r = r op constant k, the constant read from the pool (as load_rip reads it) */
static void op_rip(struct jc *J, enum x86_vop op, int r, uint32_t k)
{
	x86_vrm(&J->b, op, r, r, (struct xmem){-1, -1, 1, 0});
	if (!grow_array((void **)&J->fix, &J->cfix, J->nfix, sizeof *J->fix, 64)) {
		J->oom = true;
		return;
	}
	J->fix[J->nfix++] = (struct fixup){J->b.len - 4, k & ~KCONST};
}

static void materialize(struct jc *J, int r)
{
	if (J->form[r] == F_VAL)
		return;
	if (J->form[r] == F_NMASK) /* all ones where false: plus 1 is 0 there, 1 elsewhere */
		op_rip(J, XV_VPADDQ, r, konst(J, 1));
	else
		vrr(J, XV_VPSUBQ, r, R_ZERO, r);
	J->form[r] = F_VAL;
	J->zx[r] = 1;
}

static void materialize_all(struct jc *J)
{
	for (int r = 0; r < NALLOC; r++)
		if (J->key[r] != KNONE)
			materialize(J, r);
}

/* d = t cut to w bits (k16: the register of 0xffff) */
static void cut(struct jc *J, int w, int d, int t, int k16)
{
	if (w == 32)
		x86_vrri(&J->b, XV_VPBLENDD, d, t, R_ZERO, 0xAA);
	else if (w == 16)
		vrr(J, XV_VPAND, d, t, k16);
	else if (d != t)
		vrr(J, XV_VPOR, d, t, t);
}

/* d = a * b mod 2^64 (b: bval when bconst, its high half zero); S2 and s scratch, d written
 * last. */
static void mul64(struct jc *J, int d, int a, int b, bool bsmall, int s)
{
	x86_vshi(&J->b, XV_VPSRLQ_I, S2, a, 32);
	vrr(J, XV_VPMULUDQ, S2, S2, b);           /* ah * bl */
	if (!bsmall) {
		x86_vshi(&J->b, XV_VPSRLQ_I, s, b, 32);
		vrr(J, XV_VPMULUDQ, s, a, s);      /* al * bh */
		vrr(J, XV_VPADDQ, S2, S2, s);
	}
	x86_vshi(&J->b, XV_VPSLLQ_I, S2, S2, 32);
	vrr(J, XV_VPMULUDQ, s, a, b);              /* al * bl */
	vrr(J, XV_VPADDQ, d, s, S2);
}

/* d = a * c mod 2^64 for a constant c of one or two set bits (2^lo or 2^lo * (2^k + 1)):
 * shifts and an add instead of mul64's three multiplies; false for other constants. S2 is
 * scratch, d written last. */
static bool mul_shifts(struct jc *J, int d, int a, uint64_t c)
{
	if (!c || __builtin_popcountll(c) > 2)
		return false;
	int lo = __builtin_ctzll(c), hi = 63 - __builtin_clzll(c);
	if (lo == hi) {
		x86_vshi(&J->b, XV_VPSLLQ_I, d, a, (uint8_t)lo);
		return true;
	}
	x86_vshi(&J->b, XV_VPSLLQ_I, S2, a, (uint8_t)(hi - lo));
	if (!lo) {
		vrr(J, XV_VPADDQ, d, S2, a);
		return true;
	}
	vrr(J, XV_VPADDQ, S2, S2, a);
	x86_vshi(&J->b, XV_VPSLLQ_I, d, S2, (uint8_t)lo);
	return true;
}

/* The registers of op o's operands, and how many low bits of a and b may be nonzero */
struct ctx {
	int a, b, c, xk, k16, k1;
	uint8_t za, zb;
};

static bool bconst(const struct jop *o)
{
	return (o->in[1] & KCONST) && o->in[1] != KNONE;
}

static uint64_t bval(const struct jc *J, const struct jop *o)
{
	return J->pool[o->in[1] & ~KCONST];
}

/* b is a constant whose high half is zero: a * b needs no bh product */
static bool bsmall(const struct jc *J, const struct jop *o)
{
	return bconst(o) && !(bval(J, o) >> 32);
}

/* a 64-bit mul.lo or mad.lo by a constant mul_shifts does without the constant's register */
static bool by_shifts(const struct jc *J, const struct jop *o)
{
	return (o->kind == JK_MUL || o->kind == JK_MAD) && o->w == 64 && bconst(o) &&
	       bval(J, o) && __builtin_popcountll(bval(J, o)) <= 2;
}

/* setp's relation into T (not S2) as a mask: all ones where it holds, or where it does not
 * if the answer is true (NE, LE, GE). */
static bool setp_cmp(struct jc *J, const struct jop *o, const struct ctx *x, int T)
{
	/* the operands made comparable as 64-bit values: cut to w, sign bit flipped for a
	 * signed narrow or an unsigned 64-bit order */
	int w = o->w, pa = x->a, pb = x->b < 0 ? R_ZERO : x->b; /* (b: 0, gen_op1) */
	if (w < 64 && x->za > w) {
		cut(J, w, S1, pa, x->k16);
		pa = S1;
	}
	if (w < 64 && x->zb > w) {
		cut(J, w, S2, pb, x->k16);
		pb = S2;
	}
	if (o->flip) {
		vrr(J, XV_VPXOR, S1, pa, x->xk);
		vrr(J, XV_VPXOR, S2, pb, x->xk);
		pa = S1;
		pb = S2;
	}
	switch ((enum jcmp)o->cmp) {
	case JC_EQ: vrr(J, XV_VPCMPEQQ, T, pa, pb); return false;
	case JC_NE: vrr(J, XV_VPCMPEQQ, T, pa, pb); return true;
	case JC_GT: vrr(J, XV_VPCMPGTQ, T, pa, pb); return false;
	case JC_LT: vrr(J, XV_VPCMPGTQ, T, pb, pa); return false;
	case JC_LE: vrr(J, XV_VPCMPGTQ, T, pa, pb); return true;
	case JC_GE: vrr(J, XV_VPCMPGTQ, T, pb, pa); return true;
	}
	return false;
}

/* Emit op o into register D (written last; D may be S1 but not S2). Returns the result's zx. */
static int emit_op(struct jc *J, const struct jop *o, const struct ctx *x, int D, int D2)
{
	struct xbuf *b = &J->b;
	int w = o->w, R = w == 64 ? D : S1;
	switch ((enum jkind)o->kind) {
	case JK_ADD: vrr(J, XV_VPADDQ, R, x->a, x->b); cut(J, w, D, R, x->k16); return w;
	case JK_SUB: vrr(J, XV_VPSUBQ, R, x->a, x->b); cut(J, w, D, R, x->k16); return w;
	case JK_NEG: vrr(J, XV_VPSUBQ, R, R_ZERO, x->a); cut(J, w, D, R, x->k16); return w;
	case JK_NOT: vrr(J, XV_VPXOR, R, x->a, x->xk); cut(J, w, D, R, x->k16); return w;
	case JK_AND: case JK_OR: case JK_XOR: {
		enum x86_vop op = o->kind == JK_AND ? XV_VPAND : o->kind == JK_OR ? XV_VPOR : XV_VPXOR;
		int z = o->kind == JK_AND ? (x->za < x->zb ? x->za : x->zb)
					  : (x->za > x->zb ? x->za : x->zb);
		if (z <= w) {
			vrr(J, op, D, x->a, x->b);
			return z;
		}
		vrr(J, op, R, x->a, x->b);
		cut(J, w, D, R, x->k16);
		return w;
	}
	case JK_CNOT:
		vrr(J, XV_VPCMPEQQ, S1, x->a, R_ZERO);
		vrr(J, XV_VPSUBQ, D, R_ZERO, S1);
		return 1;
	case JK_MUL:
		if (w == 64 && !(bconst(o) && mul_shifts(J, D, x->a, bval(J, o))))
			mul64(J, D, x->a, x->b, bsmall(J, o), S1);
		if (w == 64)
			return 64;
		vrr(J, XV_VPMULUDQ, S1, x->a, x->b);
		cut(J, w, D, S1, x->k16);
		return w;
	case JK_MAD:
		if (w == 64) {
			if (!(bconst(o) && mul_shifts(J, S1, x->a, bval(J, o))))
				mul64(J, S1, x->a, x->b, bsmall(J, o), S1);
			vrr(J, XV_VPADDQ, D, S1, x->c);
			return 64;
		}
		vrr(J, XV_VPMULUDQ, S1, x->a, x->b);
		vrr(J, XV_VPADDQ, S1, S1, x->c);
		cut(J, w, D, S1, x->k16);
		return w;
	case JK_MULWU: vrr(J, XV_VPMULUDQ, D, x->a, x->b); return 64;
	case JK_MULWS: vrr(J, XV_VPMULDQ, D, x->a, x->b); return 64;
	case JK_SHL:
		if (o->imm_b) {
			if (o->bval >= (uint64_t)w) {
				vrr(J, XV_VPXOR, D, D, D);
				return 1;
			}
			x86_vshi(b, XV_VPSLLQ_I, R, x->a, (uint8_t)o->bval);
		} else {
			x86_vrri(b, XV_VPBLENDD, S2, x->b, R_ZERO, 0xAA);
			vrr(J, XV_VPSLLVQ, R, x->a, S2);
		}
		cut(J, w, D, R, x->k16);
		return w;
	case JK_SHRU: {
		int a = x->a;
		if (o->imm_b && o->bval >= (uint64_t)w) {
			vrr(J, XV_VPXOR, D, D, D);
			return 1;
		}
		if (!o->imm_b)
			x86_vrri(b, XV_VPBLENDD, S2, x->b, R_ZERO, 0xAA);
		if (w < 64 && x->za > w) {
			cut(J, w, S1, a, x->k16);
			a = S1;
		}
		if (o->imm_b)
			x86_vshi(b, XV_VPSRLQ_I, D, a, (uint8_t)o->bval);
		else
			vrr(J, XV_VPSRLVQ, D, a, S2);
		return w < 64 ? w : 64;
	}
	case JK_SHRS: {
		uint8_t s = (uint8_t)(o->bval >= (uint64_t)w - 1 ? (uint64_t)w - 1 : o->bval);
		if (w == 32) {
			x86_vshi(b, XV_VPSRAD_I, S1, x->a, s);
			cut(J, 32, D, S1, -1);
		} else if (w == 16) {
			x86_vshi(b, XV_VPSRAW_I, S1, x->a, s);
			cut(J, 16, D, S1, x->k16);
		} else { /* ((a >> s) ^ m) - m, m the shifted sign bit */
			x86_vshi(b, XV_VPSRLQ_I, S1, x->a, s);
			vrr(J, XV_VPXOR, S1, S1, x->xk);
			vrr(J, XV_VPSUBQ, D, S1, x->xk);
		}
		return w;
	}
	case JK_SELP:
		if (J->form[x->c] == F_MASK) {
			x86_v4(b, XV_VBLENDVPD, R, x->b, x->a, x->c);
		} else if (J->form[x->c] == F_NMASK) {
			x86_v4(b, XV_VBLENDVPD, R, x->a, x->b, x->c);
		} else {
			vrr(J, XV_VPCMPEQQ, S1, x->c, R_ZERO);      /* c == 0: take b */
			x86_v4(b, XV_VBLENDVPD, R, x->a, x->b, S1);
		}
		cut(J, w, D, R, x->k16);
		return w;
	case JK_MIN: case JK_MAX:
		/* the operands cut to w bits and made comparable as setp's are (flip: the
		 * sign bit, undone in the result), b taken where a > b (min) or b > a */
		if (w < 64 && x->za > w)
			cut(J, w, S1, x->a, x->k16);
		else
			vrr(J, XV_VPOR, S1, x->a, x->a);
		if (w < 64 && x->zb > w)
			cut(J, w, S2, x->b, x->k16);
		else
			vrr(J, XV_VPOR, S2, x->b, x->b);
		if (o->flip) {
			vrr(J, XV_VPXOR, S1, S1, x->xk);
			vrr(J, XV_VPXOR, S2, S2, x->xk);
		}
		if (o->kind == JK_MIN)
			vrr(J, XV_VPCMPGTQ, D, S1, S2);
		else
			vrr(J, XV_VPCMPGTQ, D, S2, S1);
		x86_v4(b, XV_VBLENDVPD, D, S1, S2, D);
		if (o->flip)
			vrr(J, XV_VPXOR, D, D, x->xk);
		return w;
	case JK_SETP: {
		bool neg = setp_cmp(J, o, x, S1);
		/* S1: all ones where the relation (negated if neg) holds. 0 - m is 1 where m is
		 * all ones, m + 1 where m is zero. */
		if (o->boolop != MOD_NONE)
			vrr(J, XV_VPAND, S2, x->c, x->k1);
		enum x86_vop bop = o->boolop == MOD_AND ? XV_VPAND : o->boolop == MOD_OR ? XV_VPOR
										   : XV_VPXOR;
		if (neg)
			vrr(J, XV_VPADDQ, D, S1, x->k1);
		else
			vrr(J, XV_VPSUBQ, D, R_ZERO, S1);
		if (o->boolop != MOD_NONE)
			vrr(J, bop, D, D, S2);
		if (D2 >= 0) {
			if (neg)
				vrr(J, XV_VPSUBQ, D2, R_ZERO, S1);
			else
				vrr(J, XV_VPADDQ, D2, S1, x->k1);
			if (o->boolop != MOD_NONE)
				vrr(J, bop, D2, D2, S2);
		}
		return 1;
	}
	}
	return 64;
}

static void gen_op1(struct jc *J, uint32_t i);

/* After op i: where each register it touched is next used (take() reads it; a register
 * no op touches keeps its value, so the value stays right until that use). */
static void note_uses(struct jc *J, uint32_t i)
{
	for (int r = 0; r < NALLOC; r++)
		if (J->pinned[r])
			J->nu[r] = next_use(J, J->key[r], i + 1);
}

static void gen_op(struct jc *J, uint32_t i)
{
	gen_op1(J, i);
	note_uses(J, i);
}

static void gen_op1(struct jc *J, uint32_t i)
{
	const struct jop *o = &J->ops[i];
	struct ctx x;
	memset(J->pinned, 0, sizeof J->pinned);
	/* a setp's b of 0 is R_ZERO, not a register loaded (setp_cmp); a setp of no boolean
	 * op, second destination or guard makes a mask, which needs no 1 (materialize) */
	bool setp = o->kind == JK_SETP, zero_b = setp && bconst(o) && !bval(J, o);
	bool mask_only = setp && o->boolop == MOD_NONE && o->d2 < 0 && o->guard < 0;
	x.a = fetch(J, o->in[0]);
	x.b = by_shifts(J, o) || zero_b ? -1 : fetch(J, o->in[1]);
	x.c = fetch(J, o->in[2]);
	x.xk = fetch(J, o->xk);
	x.k16 = fetch(J, o->k16);
	x.k1 = mask_only ? -1 : fetch(J, o->k1);
	int g = o->guard >= 0 ? fetch(J, (uint32_t)o->guard) : -1;
	/* a .pred logic op of two masks makes a mask; selp and a guard read one as it is */
	bool logic = o->pred && g < 0 && x.a >= 0 && x.b >= 0 && J->form[x.a] != F_VAL &&
		     J->form[x.b] != F_VAL &&
		     (o->kind == JK_AND || o->kind == JK_OR || o->kind == JK_XOR);
	if (!logic && x.a >= 0)
		materialize(J, x.a);
	if (!logic && x.b >= 0)
		materialize(J, x.b);
	if (o->kind != JK_SELP && x.c >= 0)
		materialize(J, x.c);
	x.za = x.a >= 0 ? J->zx[x.a] : 64;
	x.zb = x.b >= 0 ? J->zx[x.b] : zero_b ? 1 : 64;
	if (g >= 0) { /* into S1, then blended into the old value by the guard */
		int old = fetch(J, (uint32_t)o->d);
		materialize(J, old);
		int z = emit_op(J, o, &x, S1, -1);
		int m = g;
		bool neg = o->gneg;
		if (J->form[g] == F_VAL) { /* its bit 0, as pred_mask reads it */
			x86_vshi(&J->b, XV_VPSLLQ_I, S2, g, 63);
			m = S2;
		} else {
			neg ^= J->form[g] == F_NMASK;
		}
		if (neg)
			x86_v4(&J->b, XV_VBLENDVPD, old, S1, old, m);
		else
			x86_v4(&J->b, XV_VBLENDVPD, old, old, S1, m);
		if (z > J->zx[old])
			J->zx[old] = (uint8_t)z;
		J->dirty[old] = true;
		return;
	}
	/* the operands' forms before the destination's register (maybe one of theirs) is
	 * taken */
	bool ma = logic && J->form[x.a] == F_MASK, mb = logic && J->form[x.b] == F_MASK;
	int D = dest(J, (uint32_t)o->d);
	int D2 = o->d2 >= 0 ? dest(J, (uint32_t)o->d2) : -1;
	J->dirty[D] = true;
	if (logic) {
		enum form f = F_MASK;
		if (o->kind == JK_XOR) {
			vrr(J, XV_VPXOR, D, x.a, x.b);
			f = ma == mb ? F_MASK : F_NMASK;
		} else if (ma == mb) { /* and, or of two of a kind; of two negated: or, and */
			bool and = (o->kind == JK_AND) == ma;
			vrr(J, and ? XV_VPAND : XV_VPOR, D, x.a, x.b);
			f = ma ? F_MASK : F_NMASK;
		} else { /* a & ~b: andn; a | ~b: the negation of ~a & b */
			int m = ma ? x.a : x.b, n = ma ? x.b : x.a;
			if (o->kind == JK_AND)
				vrr(J, XV_VPANDN, D, n, m);
			else
				vrr(J, XV_VPANDN, D, m, n);
			f = o->kind == JK_AND ? F_MASK : F_NMASK;
		}
		J->form[D] = (uint8_t)f;
		J->zx[D] = 64;
		return;
	}
	if (o->kind == JK_SETP && o->boolop == MOD_NONE && D2 < 0) {
		J->form[D] = setp_cmp(J, o, &x, D) ? F_NMASK : F_MASK;
		J->zx[D] = 64;
		return;
	}
	int z = emit_op(J, o, &x, D, D2);
	J->zx[D] = (uint8_t)z;
	J->form[D] = F_VAL;
	if (D2 >= 0) {
		J->zx[D2] = 1;
		J->dirty[D2] = true;
		J->form[D2] = F_VAL;
	}
}

/* The registers' keys and dirty bits at a boundary of the block */
struct snap {
	uint32_t key[NALLOC];
	bool dirty[NALLOC];
	size_t exit_jump, resume;
};

/* Whether the value of slot k in the block's registers is read after its op `at` - 1 (at:
 * a boundary or the block's end, where it may leave): one no later instruction reads before
 * the next write of k (jit_live.h) need not be stored. */
static bool read_after(const struct jc *J, uint32_t k, uint32_t at)
{
	return jit_live_after(J->live, J->fn, J->pc0 + at, k);
}

/* s's dirty registers (the snapshot of a boundary, or the block's end at op `at`) that are
 * read after it, no longer dirty where they are not */
static void drop_dead(const struct jc *J, struct snap *s, uint32_t at)
{
	for (int r = 0; r < NALLOC; r++)
		s->dirty[r] = s->dirty[r] && read_after(J, s->key[r], at);
}

/* store the dirty registers of s */
static void gen_stores(struct jc *J, const struct snap *s)
{
	for (int r = 0; r < NALLOC; r++)
		if (s->dirty[r])
			store_reg(J, r, s->key[r]);
}

static void take_snap(const struct jc *J, struct snap *s)
{
	memcpy(s->key, J->key, sizeof s->key);
	memcpy(s->dirty, J->dirty, sizeof s->dirty);
}

/*
 * The block's code for one kind of chunk (J->full: every lane active, so registers are
 * stored whole; else blended by lane), from the jump of the chunk loop (r9 or r10) to the
 * jump back to its tail; stub[k] receives where entering at boundary k starts.
 */
static void gen_body(struct jc *J, struct snap *sn, size_t *stub, size_t tail)
{
	struct xbuf *b = &J->b;
	uint32_t n = J->nops, nb = (n + JIT_STEP - 1) / JIT_STEP;
	for (int r = 0; r < NALLOC; r++) {
		J->key[r] = KNONE;
		J->dirty[r] = false;
		J->form[r] = F_VAL;
	}
	for (uint32_t i = 0; i < n; i++) {
		if (i % JIT_STEP == 0) {
			struct snap *s = &sn[i / JIT_STEP];
			materialize_all(J);
			take_snap(J, s);
			if (i) {
				x86_alu_ri(b, 7, false, X_R8, (int32_t)(i / JIT_STEP));
				s->exit_jump = x86_jcc(b, 0x4);
			}
			s->resume = b->len;
			if (!i && J->full) {
				J->whole_from = b->len;
				J->whole_fix0 = J->nfix;
			}
		}
		gen_op(J, i);
	}
	struct snap last;
	materialize_all(J);
	take_snap(J, &last);
	drop_dead(J, &last, n);
	if (J->full) {
		J->whole_to = b->len;
		J->whole_fix1 = J->nfix;
		memcpy(J->last_key, last.key, sizeof last.key);
		memcpy(J->last_dirty, last.dirty, sizeof last.dirty);
	}
	gen_stores(J, &last);
	x86_patch(b, x86_jmp(b), tail);
	/* the stubs: entering at boundary k loads what its code expects in registers (the
	 * frame holds their values: the instructions before ran one by one); leaving there
	 * stores what the chunk changed so far */
	for (uint32_t k = 0; k < nb; k++) {
		const struct snap *s = &sn[k];
		stub[k] = b->len;
		for (int r = 0; r < NALLOC; r++) {
			if (s->key[r] == KNONE)
				continue;
			if (s->key[r] & KCONST)
				load_rip(J, r, s->key[r]);
			else
				x86_vrm(b, XV_VMOVDQU_LD, r, 0, home(s->key[r]));
		}
		x86_patch(b, x86_jmp(b), s->resume);
		if (k) {
			struct snap live = *s;
			drop_dead(J, &live, k * JIT_STEP);
			x86_patch(b, s->exit_jump, b->len);
			gen_stores(J, &live);
			x86_patch(b, x86_jmp(b), tail);
		}
	}
}

/* A chunk's turn in gen_block's chunk loop begins: its 4 lanes (eax's low bits) say where
 * it goes on: past the turn when no lane is active (*skip, for the caller to patch), to the
 * whole chunk's code (r9) when all are, else to the partial chunk's (r10) with its lane mask
 * picked from the table at rcx into R_LMASK (which only that code reads). */
static void gen_chunk_head(struct xbuf *b, size_t *skip)
{
	x86_mov32(b, X_RDX, X_RAX);
	x86_alu_ri(b, 4, false, X_RDX, 15);
	*skip = x86_jcc(b, 0x4);
	x86_alu_ri(b, 7, false, X_RDX, 15);
	size_t part = x86_jcc(b, 0x5);
	x86_jmp_r(b, X_R9);
	x86_patch(b, part, b->len);
	x86_shift_ri(b, 4, false, X_RDX, 5);
	x86_vrm(b, XV_VMOVDQU_LD, R_LMASK, 0, (struct xmem){X_RCX, X_RDX, 1, 0});
	x86_jmp_r(b, X_R10);
}

/* A chunk's turn ends: the next chunk's registers (rdi) and lanes (eax), back to `loop`
 * while a lane is left. */
static void gen_chunk_next(struct xbuf *b, size_t loop)
{
	x86_alu_ri(b, 0, true, X_RDI, 32);
	x86_shift_ri(b, 5, false, X_RAX, 4);
	x86_patch(b, x86_jcc(b, 0x5), loop);
}

/* One more copy of the whole chunk's code of gen_body (J->whole_*: from its start to its
 * stores, no exit lying between; the stores are its copier's), with its own fixups (its
 * constants reached through rip); `code` holds its bytes. */
static void copy_code(struct jc *J, const uint8_t *code, size_t from, size_t to, uint32_t fix0,
		      uint32_t fix1)
{
	struct xbuf *b = &J->b;
	size_t at = b->len;
	x86_bytes(b, code, to - from);
	for (uint32_t k = fix0; k < fix1; k++) {
		if (!grow_array((void **)&J->fix, &J->cfix, J->nfix, sizeof *J->fix, 64)) {
			J->oom = true;
			return;
		}
		J->fix[J->nfix++] = (struct fixup){J->fix[k].at - from + at, J->fix[k].k};
	}
}

static void copy_whole(struct jc *J, const uint8_t *code)
{
	copy_code(J, code, J->whole_from, J->whole_to, J->whole_fix0, J->whole_fix1);
}

/* The register that holds slot g at the end of a whole chunk's code, where the branch on g
 * right after the block may take its summary from the block (gen_whole): the block's last
 * write of g is an unguarded setp (so g is 0 or 1 in every lane) left in a register to store;
 * -1 for none. */
static int bra_reg(const struct jc *J, int32_t g)
{
	if (g < 0)
		return -1;
	uint32_t j = J->nops;
	while (j-- && !writes(&J->ops[j], (uint32_t)g))
		;
	if (j == UINT32_MAX || J->ops[j].kind != JK_SETP || J->ops[j].guard >= 0 ||
	    J->ops[j].d != g)
		return -1;
	for (int r = 0; r < NALLOC; r++)
		if (J->last_dirty[r] && J->last_key[r] == (uint32_t)g)
			return r;
	return -1;
}

/* Chunk c's stores of the whole chunk's code (rdi at chunk `at`), but of register `but`
 * (-1: none) */
static void whole_stores(struct jc *J, int c, int at, int but)
{
	for (int k = 0; k < NALLOC; k++) {
		if (!J->last_dirty[k] || k == but)
			continue;
		struct xmem m = home(J->last_key[k]);
		m.disp += 32 * (c - at);
		x86_vrm(&J->b, XV_VMOVDQU_ST, k, 0, m);
	}
}

/* The branch summary from R_LMASK, whose 64-bit lane j holds the sum over the eight chunks of
 * lane j's 0 or 1: eax bit j where it is 8 (bit 3, shifted to the sign), ecx bit j where it
 * is 0 - so eax 15 where the guard holds in all 32 lanes, ecx 15 where in none. */
static void whole_summary(struct jc *J)
{
	x86_vshi(&J->b, XV_VPSLLQ_I, S1, R_LMASK, 60);
	vrr(J, XV_VMOVMSKPD, X_RAX, 0, S1);
	vrr(J, XV_VPCMPEQQ, S1, R_LMASK, R_ZERO);
	vrr(J, XV_VMOVMSKPD, X_RCX, 0, S1);
}

/* The whole warp's code: eight copies of the whole chunk's code, rdi moved on between them.
 * With a branch summary (r >= 0, bra_reg's register): each chunk's 0 or 1 of the slot summed
 * into R_LMASK (which the whole chunk's code never reads), then eax 15 where every sum is 8
 * (the predicate holds in all 32 lanes), ecx 15 where every sum is 0 (in none). */
static void gen_whole_copies(struct jc *J, const uint8_t *code, int r)
{
	struct xbuf *b = &J->b;
	vrr(J, XV_VPXOR, R_ZERO, R_ZERO, R_ZERO);
	for (int c = 0; c < LANES / 4 && !J->oom; c++) {
		if (c)
			x86_alu_ri(b, 0, true, X_RDI, 32);
		copy_whole(J, code);
		whole_stores(J, c, c, -1);
		if (r >= 0)
			vrr(J, c ? XV_VPADDQ : XV_VPOR, R_LMASK, c ? R_LMASK : r, r);
	}
	if (r >= 0)
		whole_summary(J);
	x86_vzeroupper(b);
	x86_ret(b);
}

/* The uniform code (gen_whole): lanes 0-3 once, each value stored to all eight chunks; with
 * a branch summary (r >= 0), eax's bit 0 lane 0's bit 0 of its slot, and where `bare` the
 * slot not stored (the segment code takes the branch's ends from the summary at once, and
 * runs whole_bra's code, which stores it, on every way to something that reads it). */
static void gen_uni(struct jc *J, const uint8_t *code, int r, bool bare)
{
	struct xbuf *b = &J->b;
	vrr(J, XV_VPXOR, R_ZERO, R_ZERO, R_ZERO);
	copy_whole(J, code);
	for (int c = 0; c < LANES / 4; c++)
		whole_stores(J, c, 0, bare ? r : -1);
	if (r >= 0) {
		x86_vshi(b, XV_VPSLLQ_I, S1, r, 63);
		vrr(J, XV_VMOVMSKPD, X_RAX, 0, S1);
	}
	x86_vzeroupper(b);
	x86_ret(b);
}

/*
 * A block of one boundary (no exit inside) on a whole warp: the whole chunk's code, the
 * same for each chunk, eight times in a row with no chunk loop around it (a short block's
 * loop costs as much as its code), the copies reaching the frame through rdi, moved on
 * between them. Then (J->uni_at) the same block for a warp whose registers it reads hold
 * one value in all lanes (jit_uni.h): the code once, for lanes 0-3, each value it stores
 * stored to the other chunks too (their lanes would compute just that). Where a branch on
 * slot g follows the block (g >= 0) and bra_reg finds g in a register at the end, both once
 * more with the branch's summary (J->whole_bra_at, J->uni_bra_at) for the segment code,
 * which then need not read g's 32 lanes back from the frame; where nothing after the
 * branch reads g (g_dead), the uniform one does not store g either (the segment code
 * takes it only where the budget holds the branch too, whose ends it takes at once:
 * jseg_block's bra_bare, jit_seg.c's gen_block_summed).
 */
static void gen_whole(struct jc *J, int32_t g, bool g_dead)
{
	struct xbuf *b = &J->b;
	size_t len = J->whole_to - J->whole_from;
	uint8_t *code = b->oom ? NULL : malloc(len ? len : 1);
	if (!code) {
		J->oom = true;
		return;
	}
	memcpy(code, b->p + J->whole_from, len);
	gen_whole_copies(J, code, -1);
	J->uni_at = b->len;
	gen_uni(J, code, -1, false);
	int r = bra_reg(J, g);
	J->bra_bare = r >= 0 && g_dead;
	if (r >= 0) {
		J->whole_bra_at = b->len;
		gen_whole_copies(J, code, r);
		J->uni_bra_at = b->len;
		gen_uni(J, code, r, J->bra_bare);
	}
	free(code);
}

/* ---- a block's uniform part once (gen_hyb) ----------------------------------------------- */

/* The most registers the hoisted part may hold through the chunks (the rest for an op's
 * operands, constants and destination) */
enum { HYB_FIXED = 6 };

/* Whether slot k holds one value in every lane of a warp that never split when op i reads
 * it: the last op before i that writes it is hoisted, or none does and k is uniform. */
static bool same_at(const struct jc *J, const bool *hoist, uint32_t i, uint32_t k)
{
	for (uint32_t j = i; j--;)
		if (writes(&J->ops[j], k))
			return hoist[j];
	return k < J->fn->nslots && J->uni[k];
}

/* Whether op j reads or writes a destination of op o */
static bool touches_dest(const struct jop *oj, const struct jop *o)
{
	return reads(oj, (uint32_t)o->d) || writes(oj, (uint32_t)o->d) ||
	       (o->d2 >= 0 && (reads(oj, (uint32_t)o->d2) || writes(oj, (uint32_t)o->d2)));
}

/* The ops of a block of one boundary a warp that never split runs once (hoist[i]): those
 * all of whose registers read hold one value in every lane (same_at), no op before them
 * left in the chunks reading or writing their destinations. False where nothing is hoisted,
 * nothing is left, or an op left writes a hoisted one's destination. */
static bool hyb_split(const struct jc *J, bool *hoist)
{
	uint32_t n = J->nops, nh = 0;
	for (uint32_t i = 0; i < n; i++) {
		const struct jop *o = &J->ops[i];
		uint32_t rd[5] = {o->in[0], o->in[1], o->in[2],
				  o->guard >= 0 ? (uint32_t)o->guard : KNONE,
				  o->guard >= 0 ? (uint32_t)o->d : KNONE};
		bool u = true;
		for (int k = 0; k < 5 && u; k++)
			u = rd[k] == KNONE || (rd[k] & KCONST) || same_at(J, hoist, i, rd[k]);
		for (uint32_t j = 0; j < i && u; j++)
			u = hoist[j] || !touches_dest(&J->ops[j], o);
		hoist[i] = u;
		nh += u;
	}
	for (uint32_t j = 0; j < n && nh && nh < n; j++)
		for (uint32_t i = 0; i < n && !hoist[j]; i++)
			if (hoist[i] && (writes(&J->ops[j], (uint32_t)J->ops[i].d) ||
					 (J->ops[i].d2 >= 0 && writes(&J->ops[j], (uint32_t)J->ops[i].d2))))
				return false;
	return nh && nh < n;
}

static uint32_t nfixed(const struct jc *J)
{
	uint32_t f = 0;
	for (int r = 0; r < NALLOC; r++)
		f += J->fixed[r];
	return f;
}

/* Op i's destinations fixed in their registers (gen_hyb's hoisted values) */
static void fix_dests(struct jc *J, uint32_t i)
{
	int r = reg_of(J, (uint32_t)J->ops[i].d);
	if (r >= 0)
		J->fixed[r] = true;
	if (J->ops[i].d2 >= 0 && (r = reg_of(J, (uint32_t)J->ops[i].d2)) >= 0)
		J->fixed[r] = true;
}

/* eax 15 where slot g's fixed register r (a hoisted value: every lane's the same) is 1,
 * ecx 15 where it is 0: the whole summary's answer */
static void hyb_sum_fixed(struct jc *J, int r)
{
	x86_vshi(&J->b, XV_VPSLLQ_I, S1, r, 63);
	vrr(J, XV_VMOVMSKPD, X_RAX, 0, S1);
	vrr(J, XV_VPCMPEQQ, S1, r, R_ZERO);
	vrr(J, XV_VMOVMSKPD, X_RCX, 0, S1);
}

/* gen_hyb's code, with the branch summary on g where `sum` (whole_bra's answer); false where
 * the hoisted values do not fit the registers */
static bool gen_hyb_code(struct jc *J, const bool *hoist, int32_t g, bool sum)
{
	struct xbuf *b = &J->b;
	uint32_t n = J->nops;
	for (int r = 0; r < NALLOC; r++) {
		J->key[r] = KNONE;
		J->dirty[r] = J->fixed[r] = false;
		J->form[r] = F_VAL;
	}
	J->full = true;
	vrr(J, XV_VPXOR, R_ZERO, R_ZERO, R_ZERO);
	/* the hoisted ops for chunk 0's lanes, their values kept; those read after the block
	 * stored to every chunk */
	for (uint32_t i = 0; i < n; i++) {
		if (!hoist[i])
			continue;
		if (nfixed(J) > HYB_FIXED)
			return false;
		gen_op(J, i);
		fix_dests(J, i);
	}
	int gr = -1;
	for (int r = 0; r < NALLOC; r++) {
		if (!J->fixed[r])
			continue;
		materialize(J, r);
		gr = sum && J->key[r] == (uint32_t)g ? r : gr;
		for (int c = 0; c < LANES / 4 && J->dirty[r] && read_after(J, J->key[r], n); c++) {
			struct xmem m = home(J->key[r]);
			m.disp += 32 * c;
			x86_vrm(b, XV_VMOVDQU_ST, r, 0, m);
		}
		J->dirty[r] = false;
	}
	if (nfixed(J) > HYB_FIXED)
		return false;
	/* the rest, one chunk's code, as gen_body's end stores it: nothing but the fixed
	 * registers is taken as held at its start (each copy begins after the last) */
	for (int r = 0; r < NALLOC; r++)
		if (!J->fixed[r])
			J->key[r] = KNONE;
	size_t from = b->len;
	uint32_t fix0 = J->nfix;
	for (uint32_t i = 0; i < n; i++)
		if (!hoist[i])
			gen_op(J, i);
	struct snap last;
	materialize_all(J);
	take_snap(J, &last);
	drop_dead(J, &last, n);
	memcpy(J->last_key, last.key, sizeof last.key);
	memcpy(J->last_dirty, last.dirty, sizeof last.dirty);
	int r = gr < 0 && sum ? bra_reg(J, g) : -1;
	if (sum && gr < 0 && r < 0)
		return false;
	gen_stores(J, &last);
	size_t to = b->len;
	uint32_t fix1 = J->nfix;
	uint8_t *code = malloc(to - from + 1);
	if (!code) {
		J->oom = true;
		return false;
	}
	memcpy(code, b->p + from, to - from);
	for (int c = 0; c < LANES / 4 && !J->oom; c++) {
		if (c) {
			x86_alu_ri(b, 0, true, X_RDI, 32);
			copy_code(J, code, from, to, fix0, fix1);
		}
		if (r >= 0)
			vrr(J, c ? XV_VPADDQ : XV_VPOR, R_LMASK, c ? R_LMASK : r, r);
	}
	free(code);
	if (gr >= 0) {
		hyb_sum_fixed(J, gr);
	} else if (r >= 0) {
		whole_summary(J);
	}
	x86_vzeroupper(b);
	x86_ret(b);
	return true;
}

/*
 * A block of one boundary some of whose ops read only registers that hold one value in all
 * lanes of a warp that never split (uniform slots, jit_uni.h, and what such ops made), the
 * others not: those ops once, for lanes 0-3, their values kept in registers through the
 * chunks and stored to all eight (gen_uni's way), then the rest for each chunk
 * (gen_whole_copies' way) reading them there (J->hyb_at; J->hyb_bra_at with the branch
 * summary on g where gen_whole made one). Nothing where no op or every op is hoisted (the
 * uniform code), or where the hoisted values do not fit the registers.
 */
static void gen_hyb(struct jc *J, int32_t g)
{
	struct xbuf *b = &J->b;
	bool *hoist = J->uni ? calloc(J->nops, sizeof *hoist) : NULL;
	size_t start = b->len;
	uint32_t nfix = J->nfix;
	if (hoist && hyb_split(J, hoist)) {
		J->hyb_at = b->len;
		bool ok = gen_hyb_code(J, hoist, g, false);
		if (ok && J->whole_bra_at != SIZE_MAX) {
			J->hyb_bra_at = b->len;
			ok = gen_hyb_code(J, hoist, g, true);
		}
		if (!ok) {
			b->len = start;
			J->nfix = nfix;
			J->hyb_at = J->hyb_bra_at = SIZE_MAX;
		}
	}
	memset(J->fixed, 0, sizeof J->fixed);
	free(hoist);
}

/*
 * The chunk loop around the block's code. The block has an entry every JIT_STEP
 * instructions (entry[k] for boundary k): a stub that points r9 and r10 at the code of
 * boundary k for whole and partial chunks (the registers that code expects loaded first)
 * and joins the loop, which jumps to one of them for each chunk with an active lane. The
 * third argument (r8d) is the boundary to leave at: each one inside the block checks it and,
 * if it is this one, stores the registers the block changed so far (those read after it). g:
 * the guard slot of a branch right after the block (-1 for none), which gen_whole may sum
 * up; g_dead: nothing after that branch reads it.
 */
static void gen_block(struct jc *J, const struct jop *ops, uint32_t n, int32_t g, bool g_dead,
		      size_t *entry)
{
	struct xbuf *b = &J->b;
	uint32_t nb = (n + JIT_STEP - 1) / JIT_STEP;
	struct snap *sn = calloc(nb, sizeof *sn);
	size_t *lea = calloc(2 * (size_t)nb, sizeof *lea), *jmp = calloc(nb, sizeof *jmp);
	size_t *stub = calloc(2 * (size_t)nb, sizeof *stub);
	if (!sn || !lea || !jmp || !stub) {
		J->oom = true;
		goto out;
	}
	J->ops = ops;
	J->nops = n;
	size_t whole = 0;
	for (uint32_t k = 0; k < nb; k++) {
		entry[k] = b->len;
		if (nb == 1) { /* a whole warp: the chunks one after another (gen_whole) */
			x86_alu_ri(b, 7, false, X_RSI, -1);
			whole = x86_jcc(b, 0x4);
		}
		x86_lea_rip(b, X_R9, 0);
		lea[2 * k] = b->len - 4;
		x86_lea_rip(b, X_R10, 0);
		lea[2 * k + 1] = b->len - 4;
		jmp[k] = x86_jmp(b);
	}
	for (uint32_t k = 0; k < nb; k++)
		x86_patch(b, jmp[k], b->len);
	vrr(J, XV_VPXOR, R_ZERO, R_ZERO, R_ZERO);
	x86_lea_rip(b, X_RCX, 0);
	x86_patch(b, b->len - 4, 0); /* the lane-mask table opens the mapping */
	x86_mov32(b, X_RAX, X_RSI);
	x86_mov32(b, X_R8, X_RDX);
	size_t loop = b->len;
	size_t skip;
	gen_chunk_head(b, &skip);
	size_t tail = b->len;
	x86_patch(b, skip, tail);
	gen_chunk_next(b, loop);
	x86_vzeroupper(b);
	x86_ret(b);
	for (int full = 1; full >= 0; full--) {
		J->full = full;
		gen_body(J, sn, stub + (full ? 0 : nb), tail);
	}
	for (uint32_t k = 0; k < nb; k++) {
		x86_patch(b, lea[2 * k], stub[k]);
		x86_patch(b, lea[2 * k + 1], stub[nb + k]);
	}
	J->whole_at = J->uni_at = J->whole_bra_at = J->uni_bra_at = SIZE_MAX;
	J->bra_bare = false;
	J->hyb_at = J->hyb_bra_at = SIZE_MAX;
	if (nb == 1) {
		x86_patch(b, whole, b->len);
		J->whole_at = b->len;
		gen_whole(J, g, g_dead);
		gen_hyb(J, g);
	}
out:
	free(sn);
	free(lea);
	free(jmp);
	free(stub);
}

/* A loop's body for one kind of chunk: the block's code, then the stores of what it wrote
 * to slots it loaded (a next pass reads them; what it writes first is written again before
 * any read), then the lanes of the chunk (eax's low 4 bits) whose branch is not taken into
 * r11d (guard: the branch's predicate slot, -1 for none). Those lanes leave the loop: the
 * rest of what the pass wrote is stored for them too (blended by their lane mask), so their
 * frame is the block's, and their lane mask goes to the chunk's lanes of the save area's
 * exit words (jit.h's JIT_SAVE_EXIT), which are all ones for a lane that left. */
static void gen_loop_body(struct jc *J, int32_t guard, bool gneg)
{
	struct xbuf *b = &J->b;
	for (int r = 0; r < NALLOC; r++) {
		if (!J->fixed[r])
			J->key[r] = KNONE;
		J->dirty[r] = false;
		J->form[r] = F_VAL;
	}
	J->nloaded = 0;
	for (uint32_t i = 0; i < J->nops; i++)
		gen_op(J, i);
	for (int r = 0; r < NALLOC; r++)
		if (J->dirty[r] && in(J->loaded, J->nloaded, J->key[r]))
			store_reg(J, r, J->key[r]);
	for (uint32_t i = 0; i < J->nloaded; i++)
		if (!in(J->touched, J->ntouched, J->loaded[i]))
			J->touched[J->ntouched++] = J->loaded[i];
	if (guard < 0)
		return;
	int g = reg_of(J, (uint32_t)guard);
	if (g < 0) {
		x86_vrm(b, XV_VMOVDQU_LD, S1, 0, home((uint32_t)guard));
		g = S1;
		if (!in(J->touched, J->ntouched, (uint32_t)guard))
			J->touched[J->ntouched++] = (uint32_t)guard;
	}
	if (g != S1 && J->form[g] != F_VAL) { /* a mask: its sign bits */
		gneg ^= J->form[g] == F_NMASK;
		x86_vrr(b, XV_VMOVMSKPD, X_RDX, 0, g);
	} else {
		x86_vshi(b, XV_VPSLLQ_I, S1, g, 63);
		x86_vrr(b, XV_VMOVMSKPD, X_RDX, 0, S1);
	}
	if (!gneg)
		x86_alu_ri(b, 6, false, X_RDX, 15);
	if (!J->full) { /* the chunk's active lanes only */
		x86_alu_rr(b, X86_AND, false, X_RDX, X_RAX);
		x86_alu_ri(b, 4, false, X_RDX, 15);
	} else if (gneg) { /* the flags of edx (the xor's and the and's are) */
		x86_alu_ri(b, 7, false, X_RDX, 0);
	}
	/* lanes that leave: r11d told, their lane mask to the exit words (R_LMASK, free now),
	 * the slots written but not stored to the save area (the chunk's lanes of the k-th
	 * one's at JIT_SAVE_WONLY + k * LANES), for the caller to copy to those lanes' own */
	size_t stay = x86_jcc(b, 0x4);
	x86_alu_rr(b, X86_OR, false, X_R11, X_RDX);
	x86_shift_ri(b, 4, false, X_RDX, 5);
	x86_vrm(b, XV_VMOVDQU_LD, R_LMASK, 0, (struct xmem){X_RCX, X_RDX, 1, 0});
	x86_vrm(b, XV_VMOVDQU_ST, R_LMASK, 0,
		(struct xmem){X_RDI, X_R9, 1, (int32_t)(JIT_SAVE_EXIT * sizeof(uint64_t))});
	for (int r = 0; r < NALLOC; r++) {
		if (!J->dirty[r] || in(J->loaded, J->nloaded, J->key[r]))
			continue;
		uint32_t k = 0;
		while (k < J->nwonly && J->wonly[k] != J->key[r])
			k++;
		if (k == JIT_WONLY) { /* cannot be: no more registers than that are dirty */
			J->bad = true;
			continue;
		}
		if (k == J->nwonly)
			J->wonly[J->nwonly++] = J->key[r];
		materialize(J, r);
		x86_vrm(b, XV_VMOVDQU_ST, r, 0,
			(struct xmem){X_RDI, X_R9, 1,
				      (int32_t)((JIT_SAVE_WONLY + k * LANES) * sizeof(uint64_t))});
	}
	x86_patch(b, stay, b->len);
}

/*
 * The block of ops as its loop's body (jit.h's jit_loop_fn): the passes, each a chunk loop
 * as gen_block's over the lanes of gmask, while r8d (the passes left of cap) is not 0 and no
 * lane left the loop (r11d). r10 holds the frame's registers, r9 the save area less them.
 * False, with nothing emitted, where the body cannot be one (J->bad).
 */
/* Up to NFIXED constants the ops read, for gen_loop to load once; 0 if they read more. */
enum { NFIXED = 4 };
static uint32_t loop_consts(const struct jc *J, const struct jop *ops, uint32_t n, uint32_t *k)
{
	uint32_t nk = 0;
	for (uint32_t i = 0; i < n; i++) {
		const struct jop *o = &ops[i];
		uint32_t ks[6] = {o->in[0], by_shifts(J, o) ? KNONE : o->in[1], o->in[2], o->xk,
				  o->k16, o->k1};
		for (int j = 0; j < 6; j++) {
			if (ks[j] == KNONE || !(ks[j] & KCONST) || in(k, nk, ks[j]))
				continue;
			if (nk == NFIXED)
				return 0;
			k[nk++] = ks[j];
		}
	}
	return nk;
}

static bool gen_loop_as(struct jc *J, const struct jop *ops, uint32_t n, int32_t guard,
			bool gneg, size_t *entry, bool hoist);

/* The loop, its constants loaded once before the passes where the registers left suffice */
static bool gen_loop(struct jc *J, const struct jop *ops, uint32_t n, int32_t guard, bool gneg,
		     size_t *entry)
{
	return gen_loop_as(J, ops, n, guard, gneg, entry, true) ||
	       gen_loop_as(J, ops, n, guard, gneg, entry, false);
}

static bool gen_loop_as(struct jc *J, const struct jop *ops, uint32_t n, int32_t guard,
			bool gneg, size_t *entry, bool hoist)
{
	struct xbuf *b = &J->b;
	size_t start = b->len;
	uint32_t nfix = J->nfix;
	J->ops = ops;
	J->nops = n;
	J->loop = true;
	J->bad = false;
	J->nkeep = 0;
	J->ntouched = 0;
	J->nwonly = 0;
	*entry = b->len;
	vrr(J, XV_VPXOR, R_ZERO, R_ZERO, R_ZERO);
	x86_alu_rr(b, X86_MOV, true, X_R9, X_RCX);
	x86_alu_rr(b, X86_SUB, true, X_R9, X_RDI);
	x86_alu_rr(b, X86_MOV, true, X_R10, X_RDI);
	x86_mov32(b, X_R8, X_RDX);
	x86_lea_rip(b, X_RCX, 0);
	x86_patch(b, b->len - 4, 0); /* the lane-mask table */
	uint32_t kc[NFIXED], nk = hoist ? loop_consts(J, ops, n, kc) : 0;
	if (hoist && !nk)
		J->bad = true;
	for (uint32_t i = 0; i < nk; i++) {
		int r = NALLOC - 1 - (int)i;
		load_rip(J, r, kc[i]);
		J->key[r] = kc[i];
		J->fixed[r] = true;
		J->zx[r] = (uint8_t)zx_of(J->pool[kc[i] & ~KCONST]);
	}
	size_t pass = b->len;
	x86_alu_rr(b, X86_MOV, true, X_RDI, X_R10);
	x86_mov32(b, X_RAX, X_RSI);
	x86_alu_rr(b, X86_XOR, false, X_R11, X_R11);
	/* a chunk's turn: the whole chunk's code falls through to the next turn; a partial
	 * chunk's (its lane mask from the table at rcx into R_LMASK) lies after the loop, and
	 * an empty chunk goes on at once */
	size_t loop = b->len;
	x86_mov32(b, X_RDX, X_RAX);
	x86_alu_ri(b, 4, false, X_RDX, 15);
	x86_alu_ri(b, 7, false, X_RDX, 15);
	size_t part = x86_jcc(b, 0x5);
	J->full = true;
	gen_loop_body(J, guard, gneg);
	uint32_t nkeep = J->nkeep;
	size_t tail = b->len;
	gen_chunk_next(b, loop);
	x86_alu_ri(b, 5, false, X_R8, 1);
	size_t done = x86_jcc(b, 0x4);
	x86_alu_ri(b, 7, false, X_R11, 0);
	x86_patch(b, x86_jcc(b, 0x4), pass);
	x86_patch(b, done, b->len);
	x86_mov32(b, X_RAX, X_R8);
	x86_vzeroupper(b);
	x86_ret(b);
	x86_patch(b, part, b->len);
	x86_alu_rr(b, X86_OR, false, X_RDX, X_RDX);
	x86_patch(b, x86_jcc(b, 0x4), tail);
	x86_shift_ri(b, 4, false, X_RDX, 5);
	x86_vrm(b, XV_VMOVDQU_LD, R_LMASK, 0, (struct xmem){X_RCX, X_RDX, 1, 0});
	J->full = false;
	gen_loop_body(J, guard, gneg);
	x86_patch(b, x86_jmp(b), tail);
	J->loop = false;
	memset(J->fixed, 0, sizeof J->fixed);
	if (J->bad || J->nkeep != nkeep) {
		b->len = start;
		J->nfix = nfix;
		return false;
	}
	return true;
}

/* ---- driver ------------------------------------------------------------------------------- */

static bool host_ok(void)
{
	const char *e = getenv("PTXI_JIT");
	if (e && strcmp(e, "0") == 0)
		return false;
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx2");
}

/* The block starting at code[i], if any: its length (0: none), ops filled in. */
static uint32_t block_at(struct jc *J, const struct dfunc *fn, const bool *label, uint32_t i,
			 struct jop *ops)
{
	uint32_t n = 0;
	while (i + n < fn->ncode && n < JIT_MAX && (n == 0 || !label[i + n]) &&
	       jit_form(J, &fn->code[i + n], &ops[n]))
		n++;
	return n;
}

/* The slots of fn whose upper halves are zero (jit_zext.h) into J->clean, its uniform slots
 * (jit_uni.h) into J->uni; each NULL where there is no memory (none) */
static void find_facts(struct jc *J, const struct dfunc *fn)
{
	bool *narrow = calloc(fn->ncode + 1, sizeof *narrow);
	bool *pure = calloc(fn->ncode + 1, sizeof *pure);
	uint8_t *clean = malloc(fn->nslots + 1), *uni = malloc(fn->nslots + 1);
	struct jop o;
	if (!narrow || !pure || !clean || !uni) {
		free(clean);
		free(uni);
		clean = uni = NULL;
	}
	for (uint32_t i = 0; clean && i < fn->ncode; i++) {
		pure[i] = jit_form(J, &fn->code[i], &o);
		narrow[i] = pure[i] && (o.kind == JK_SETP || o.pred || o.w <= 32);
	}
	if (clean) {
		jit_zext(fn, narrow, clean);
		jit_uniform(fn, pure, uni, true);
	}
	free(narrow);
	free(pure);
	J->clean = clean;
	J->uni = uni;
}

/* Whether nothing reads the guard of branch br (at pc) after it, on either way it goes */
static bool guard_dead(const struct jit_live *lv, const struct dinsn *br, uint32_t pc)
{
	uint32_t g = (uint32_t)br->guard;
	return !jit_live_in(lv, pc + 1, g) && !jit_live_in(lv, br->target, g);
}

/* A program's compiled code: one mapping per jit_prepare that compiled something */
struct jit_code {
	void *map;
	uint32_t *keep;             /* the loops' dinsn.jit_keep */
	size_t size;
	struct jit_code *next;
};

/* Compile the blocks of `kernel` and of P's non-kernel functions not compiled yet. */
static void compile(struct dprog *P, const struct dfunc *kernel)
{
	/* zeroed but for the loop's slot lists (read only up to their counts: 12 KiB) */
	struct jc J;
	memset(&J, 0, offsetof(struct jc, loaded));
	J.nloaded = J.ntouched = 0;
	struct jop *ops = malloc(sizeof *ops * JIT_MAX);
	uint32_t nent = 0;
	size_t cent = 0;
	/* what the mapping's offsets become: a block's entry, a segment's, a function's
	 * segment code */
	enum { E_BLOCK, E_SEG, E_SEG_FN };
	struct ent {
		struct dinsn *di;
		size_t off, loop;
		uint32_t n, at, keep;
		uint8_t what;
		struct dfunc *fn;
	} *ent = NULL;
	uint32_t *keep = NULL, nkeepw = 0; /* the loops' jit_keep, one after another */
	size_t ckeep = 0;
	size_t *entry = malloc(sizeof *entry * (JIT_MAX / JIT_STEP + 1));
	if (!entry || !ops) {
		free(entry);
		free(ops);
		return;
	}
	struct jit_map *pm = jit_map_new(P->m->file); /* perf's names, where asked for */
	/* the lane-mask table: entry m has lane j all ones where bit j of m is set */
	for (uint32_t m = 0; m < 16; m++)
		for (int j = 0; j < 4; j++) {
			uint64_t v = (m >> j & 1) ? ~0ull : 0;
			x86_bytes(&J.b, &v, 8);
		}
	for (uint32_t f = 0; f < P->nfuncs && !J.oom && !J.b.oom; f++) {
		struct dfunc *fn = &P->funcs[f];
		if (!fn->code || fn->jit_done || (fn != kernel && fn->ir->is_entry))
			continue;
		fn->jit_done = true;
		bool *label = calloc(fn->ncode + 1, 1);
		if (!label) {
			J.oom = true;
			break;
		}
		struct jseg_block *blk = calloc(fn->ncode + 1, sizeof *blk);
		size_t *soff = malloc(sizeof *soff * (fn->ncode + 1));
		if (!blk || !soff) {
			free(label);
			free(blk);
			free(soff);
			J.oom = true;
			break;
		}
		for (uint32_t i = 0; i < fn->ncode; i++)
			if (fn->code[i].op == OP_BRA && fn->code[i].target < fn->ncode)
				label[fn->code[i].target] = true;
		struct jit_live live;
		jit_live_find(fn, &live);
		J.fn = fn;
		J.live = &live;
		find_facts(&J, fn);
		for (uint32_t i = 0; i < fn->ncode;) {
			uint32_t n = block_at(&J, fn, label, i, ops);
			if (!n) {
				i++;
				continue;
			}
			/* the branch after the block, whose guard its code may sum up */
			const struct dinsn *br = i + n < fn->ncode ? &fn->code[i + n] : NULL;
			int32_t g = br && br->op == OP_BRA ? br->guard : -1;
			jit_map_note(pm, J.b.len, fn, i, i + n - 1, "block");
			J.pc0 = i;
			gen_block(&J, ops, n, g, g >= 0 && guard_dead(&live, br, i + n), entry);
			blk[i] = (struct jseg_block){entry[0], J.whole_at, J.uni_at, J.whole_bra_at,
						     J.uni_bra_at, J.hyb_at, J.hyb_bra_at, n, false,
						     J.bra_bare};
			/* the block as a loop's body where a branch back to it follows */
			size_t loop = 0;
			bool is_loop = br && br->op == OP_BRA && br->target == i &&
				       !(br->flags & DF_ALIGNED);
			uint32_t at_keep = is_loop ? UINT32_MAX - 1 : UINT32_MAX;
			if (is_loop)
				jit_map_note(pm, J.b.len, fn, i, i + n, "loop");
			if (is_loop && gen_loop(&J, ops, n, br->guard, br->guard_neg, &loop)) {
				/* jit_keep: the count and slots saved, then those touched, then
				 * those written only (jit.h) */
				uint32_t at = nkeepw, nw = J.nkeep + J.ntouched + J.nwonly + 3;
				for (uint32_t k = 0; k < nw && !J.oom; k++) {
					uint32_t t = k - J.nkeep - 2, o = t - J.ntouched - 1;
					if (!grow_array((void **)&keep, &ckeep, nkeepw, sizeof *keep, 64))
						J.oom = true;
					else if (k <= J.nkeep)
						keep[nkeepw++] = k ? J.keep[k - 1] : J.nkeep;
					else if (k == J.nkeep + 1)
						keep[nkeepw++] = J.ntouched;
					else if (t < J.ntouched)
						keep[nkeepw++] = J.touched[t];
					else if (t == J.ntouched)
						keep[nkeepw++] = J.nwonly;
					else
						keep[nkeepw++] = J.wonly[o];
				}
				at_keep = at;
			}
			blk[i].loop = at_keep != UINT32_MAX;
			for (uint32_t k = 0; k * JIT_STEP < n; k++) {
				if (!grow_array((void **)&ent, &cent, nent, sizeof *ent, 64)) {
					J.oom = true;
					break;
				}
				ent[nent++] = (struct ent){&fn->code[i + k * JIT_STEP], entry[k],
							   k ? 0 : loop, n - k * JIT_STEP, k,
							   k ? UINT32_MAX : at_keep, E_BLOCK, NULL};
			}
			i += n;
		}
		free(label);
		free((void *)J.clean);
		free((void *)J.uni);
		J.clean = J.uni = NULL;
		/* the function's segments, reaching its blocks: entries with no block (n 0) */
		size_t seg = J.oom ? SIZE_MAX : jit_seg_gen(&J.b, fn, blk, soff, pm, &live);
		jit_live_free(&live);
		for (uint32_t i = 0; i < fn->ncode && seg != SIZE_MAX; i++) {
			if (soff[i] == SIZE_MAX)
				continue;
			if (!grow_array((void **)&ent, &cent, nent, sizeof *ent, 64)) {
				J.oom = true;
				break;
			}
			ent[nent++] = (struct ent){&fn->code[i], soff[i], 0, 0, 0, 0, E_SEG, fn};
		}
		if (seg != SIZE_MAX && !J.oom && grow_array((void **)&ent, &cent, nent, sizeof *ent, 64))
			ent[nent++] = (struct ent){NULL, seg, 0, 0, 0, 0, E_SEG_FN, fn};
		else if (seg != SIZE_MAX)
			J.oom = true;
		free(blk);
		free(soff);
	}
	/* the constants, 32 bytes each, after the code */
	while (J.b.len % 32)
		x86_bytes(&J.b, "\xcc", 1);
	size_t pool = J.b.len;
	jit_map_gap(pm, pool);
	for (uint32_t k = 0; k < J.npool; k++)
		for (int j = 0; j < 4; j++)
			x86_bytes(&J.b, &J.pool[k], 8);
	for (uint32_t k = 0; k < J.nfix; k++)
		x86_patch(&J.b, J.fix[k].at, pool + 32 * (size_t)J.fix[k].k);
	void *map = MAP_FAILED;
	if (!J.oom && !J.b.oom && nent) {
		map = mmap(NULL, J.b.len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
			   0);
		if (map != MAP_FAILED) {
			memcpy(map, J.b.p, J.b.len);
			if (mprotect(map, J.b.len, PROT_READ | PROT_EXEC) != 0) {
				munmap(map, J.b.len);
				map = MAP_FAILED;
			}
		}
	}
	struct jit_code *jc = map != MAP_FAILED ? malloc(sizeof *jc) : NULL;
	if (jc)
		jit_map_write(pm, map, J.b.len);
	else
		jit_map_free(pm);
	if (jc) {
		jc->map = map;
		jc->keep = keep;
		keep = NULL;
		jc->size = J.b.len;
		jc->next = P->jit;
		P->jit = jc;
		for (uint32_t e = 0; e < nent; e++) {
			void *at = (uint8_t *)map + ent[e].off;
			if (ent[e].what == E_SEG) {
				ent[e].di->seg = at;
				/* (a kernel's first instruction: a fresh warp's turn begins there) */
				ent[e].di->seg_bar = ent[e].di != ent[e].fn->code
					? ent[e].di[-1].exec == exec_bar
					: ent[e].fn->ir && ent[e].fn->ir->is_entry;
				continue;
			}
			if (ent[e].what == E_SEG_FN) {
				ent[e].fn->seg_fn = (jit_seg_fn *)at;
				continue;
			}
			ent[e].di->jit = (jit_block_fn *)(void *)((uint8_t *)map + ent[e].off);
			ent[e].di->jit_len = (uint16_t)ent[e].n;
			ent[e].di->jit_at = (uint16_t)ent[e].at;
			if (ent[e].keep == UINT32_MAX - 1) { /* a loop, run pass by pass */
				static const uint32_t none[1] = {0};
				ent[e].di->jit_keep = none;
			} else if (ent[e].keep != UINT32_MAX) {
				ent[e].di->jit_loop = (jit_loop_fn *)(void *)((uint8_t *)map +
									    ent[e].loop);
				ent[e].di->jit_keep = jc->keep + ent[e].keep;
			}
		}
	} else if (map != MAP_FAILED) {
		munmap(map, J.b.len);
	}
	free(ent);
	free(keep);
	free(entry);
	free(ops);
	free(J.b.p);
	free(J.pool);
	free(J.fix);
}

/* Serialises compiling: launches of one module from several threads (a library user's)
 * may prepare kernels at once; a function compiled once is only read afterwards. */
static pthread_mutex_t jit_lock = PTHREAD_MUTEX_INITIALIZER;

void jit_prepare(struct dprog *P, struct dfunc *kernel)
{
	static int ok = -1; /* the host's answer, asked once */
	pthread_mutex_lock(&jit_lock);
	if (ok < 0)
		ok = host_ok();
	if (ok && !kernel->jit_done)
		compile(P, kernel);
	pthread_mutex_unlock(&jit_lock);
}

void jit_free(struct dprog *P)
{
	while (P && P->jit) {
		struct jit_code *jc = P->jit;
		P->jit = jc->next;
		munmap(jc->map, jc->size);
		free(jc->keep);
		free(jc);
	}
}

#else /* no native tier on this host */

void jit_prepare(struct dprog *P, struct dfunc *kernel)
{
	(void)P, (void)kernel;
}

void jit_free(struct dprog *P)
{
	(void)P;
}

#endif
