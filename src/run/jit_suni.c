/*
 * jit_suni.c - a uniform block and the branch after it inline in the segment code
 * (jit_suni.h). Where every register a block reads holds one value in all 32 lanes, its
 * uniform code (jit.c's gen_uni: lanes 0-3 computed in ymm registers, stored to all eight
 * chunks, the guard's bit moved out with VMOVMSKPD) is a call with a vzeroupper. This is
 * the same once in general registers, in the segment code itself: exec_alu.h's convention
 * is x86's own for 32-bit integer ops - operands read from their low 32 bits, a result
 * zero-extended to 64 - so `op r32, r/m32` on lane 0's values gives every lane's bits; a
 * shift by an immediate of at least 32 is 0 (shl, shr.u) or the sign (shr.s: by 31), as the
 * lane functions shift. The setp that ends the block, the branch's guard, is its compare
 * alone (or none, where it tests the op before it against 0: that op's ZF, zf_kept): the
 * branch jumps on its condition, the predicate left unstored (nothing after the branch
 * reads it), as the uniform code's bare form leaves it.
 */
#include "jit_suni.h"

#include "jit_regs.h"

/* the general registers values live in (the slots an op before the setp writes, and the
 * op's own destination before its slot's older value is let go), and one scratch */
enum { NPOOL = JIT_SUNI_SLOTS + 1, SCRATCH = X_R11 };
static const int pool[NPOOL] = {X_RAX, X_RCX, X_RDX, X_RSI, X_RDI, X_R8, X_R9, X_R10};

int jit_setp_cc(const struct alu_insn *ai)
{
	bool sgn = ai->type == MOD_S32;
	switch (ai->cmp) {
	case MOD_EQ: return 0x4;
	case MOD_NE: return 0x5;
	case MOD_LT: return sgn ? 0xC : 0x2;
	case MOD_LE: return sgn ? 0xE : 0x6;
	case MOD_GT: return sgn ? 0xF : 0x7;
	case MOD_GE: return sgn ? 0xD : 0x3;
	case MOD_LO: return 0x2;
	case MOD_LS: return 0x6;
	case MOD_HI: return 0x7;
	case MOD_HS: return 0x3;
	default: return -1;
	}
}

/* x86_alu_rr's opcode of a two-operand op (0: none) and x86_alu_ri's extension */
static int alu_opc(enum ir_op op, int *ext)
{
	switch (op) {
	case OP_ADD: *ext = 0; return X86_ADD;
	case OP_SUB: *ext = 5; return X86_SUB;
	case OP_AND: *ext = 4; return X86_AND;
	case OP_OR: *ext = 1; return X86_OR;
	case OP_XOR: *ext = 6; return X86_XOR;
	default: return 0;
	}
}

static bool src_ok(const struct dop *o)
{
	return !o->neg && (o->kind == DOP_IMM || (o->kind == DOP_REG && o->reg_size == 4));
}

/* Whether di is one of the ops (setp: the last) in jit_suni_gen's form */
static bool op_ok(const struct dinsn *di, bool last)
{
	const struct alu_insn *ai = &di->alu;
	int ext;
	if (di->fam != FAM_ALU || di->guard >= 0 || di->d.kind != DOP_REG ||
	    di->d2.kind != DOP_NONE || ai->nsrc != 2 || di->nsrc != 2 ||
	    !src_ok(&di->s[0]) || !src_ok(&di->s[1]))
		return false;
	if (ai->type != MOD_B32 && ai->type != MOD_U32 && ai->type != MOD_S32)
		return false;
	if (last)
		return ai->op == OP_SETP && !ai->flags && ai->boolop == MOD_NONE &&
		       jit_setp_cc(ai) >= 0;
	if (di->d.reg_size != 4)
		return false;
	switch (ai->op) {
	case OP_MUL:
		return ai->flags == ALU_LO;
	case OP_SHL:
	case OP_SHR:
		return !ai->flags && di->s[1].kind == DOP_IMM;
	default:
		return !ai->flags && alu_opc(ai->op, &ext);
	}
}

bool jit_suni_ok(const struct dfunc *fn, uint32_t i, uint32_t n)
{
	uint32_t written[JIT_SUNI_SLOTS], nw = 0;
	if (!n)
		return false;
	for (uint32_t k = i; k < i + n; k++) {
		const struct dinsn *di = &fn->code[k];
		if (!op_ok(di, k + 1 == i + n))
			return false;
		if (k + 1 == i + n)
			break;
		uint32_t w = 0;
		while (w < nw && written[w] != di->d.slot)
			w++;
		if (w == nw && nw == JIT_SUNI_SLOTS)
			return false;
		if (w == nw)
			written[nw++] = di->d.slot;
	}
	return true;
}

/* The values in general registers: slot[r] the slot pool[r] holds (UINT32_MAX: free) */
struct held {
	uint32_t slot[NPOOL];
};

static int find(const struct held *h, uint32_t s)
{
	for (int r = 0; r < NPOOL; r++)
		if (h->slot[r] == s)
			return r;
	return -1;
}

/* lane 0 of slot s in the frame (R_REGS) */
static struct xmem lane0(uint32_t s)
{
	return (struct xmem){R_REGS, -1, 1, (int32_t)(s * LANES * sizeof(uint64_t))};
}

/* r32 = operand o: its register, lane 0's low word, or the immediate */
static void get(struct xbuf *b, const struct held *h, const struct dop *o, int r)
{
	int at = o->kind == DOP_REG ? find(h, o->slot) : -1;
	if (o->kind == DOP_IMM)
		x86_mov_ri(b, r, (uint32_t)o->imm[0]);
	else if (at >= 0)
		x86_mov32(b, r, pool[at]);
	else
		x86_load(b, false, r, lane0(o->slot));
}

/* r32 op= operand o (x86_alu_rr's opc, x86_alu_ri's ext) */
static void apply(struct xbuf *b, const struct held *h, int opc, int ext, int r,
		  const struct dop *o)
{
	int at = o->kind == DOP_REG ? find(h, o->slot) : -1;
	if (o->kind == DOP_IMM)
		x86_alu_ri(b, ext, false, r, (int32_t)(uint32_t)o->imm[0]);
	else if (at >= 0)
		x86_alu_rr(b, opc, false, r, pool[at]);
	else
		x86_alu_rm(b, opc, false, r, lane0(o->slot));
}

/* pool register r = di's value (an op before the setp) */
static void gen_op(struct xbuf *b, const struct held *h, const struct dinsn *di, int r)
{
	const struct alu_insn *ai = &di->alu;
	int reg = pool[r], ext = 0, opc = alu_opc(ai->op, &ext);
	uint32_t s = di->s[1].kind == DOP_IMM ? (uint32_t)di->s[1].imm[0] : 0;
	get(b, h, &di->s[0], reg);
	switch (ai->op) {
	case OP_MUL:
		get(b, h, &di->s[1], SCRATCH);
		x86_imul_rr(b, false, reg, SCRATCH);
		break;
	case OP_SHL:
	case OP_SHR:
		if (ai->op == OP_SHR && ai->type == MOD_S32)
			x86_shift_ri(b, 7, false, reg, (uint8_t)(s >= 32 ? 31 : s));
		else if (s >= 32)
			x86_mov_ri(b, reg, 0);
		else
			x86_shift_ri(b, ai->op == OP_SHL ? 4 : 5, false, reg, (uint8_t)s);
		break;
	default:
		apply(b, h, opc, ext, reg, &di->s[1]);
		break;
	}
}

/* Whether setp sp, eq or ne of a register against an immediate 0, tests what op (the op
 * right before it) left in ZF: the register is op's destination, and op an add, sub, and,
 * or, xor or a shift by 1-31 (sar by more: by 31) - the flags of its 32-bit result, which
 * the stores between (mov, VPBROADCASTQ, VMOVDQU) leave */
static bool zf_kept(const struct dinsn *op, const struct dinsn *sp)
{
	const struct alu_insn *ai = &sp->alu;
	int ext;
	if ((ai->cmp != MOD_EQ && ai->cmp != MOD_NE) || sp->s[1].kind != DOP_IMM ||
	    (uint32_t)sp->s[1].imm[0] || sp->s[0].kind != DOP_REG || sp->s[0].slot != op->d.slot)
		return false;
	if (op->alu.op == OP_SHL || op->alu.op == OP_SHR) {
		uint32_t k = (uint32_t)op->s[1].imm[0];
		return k && (k < 32 || (op->alu.op == OP_SHR && op->alu.type == MOD_S32));
	}
	return alu_opc(op->alu.op, &ext) != 0;
}

int jit_suni_gen(struct xbuf *b, const struct dfunc *fn, uint32_t i, uint32_t n,
		 const struct jit_live *lv, struct xmem word, int y)
{
	struct held h;
	for (int r = 0; r < NPOOL; r++)
		h.slot[r] = UINT32_MAX;
	uint32_t last = i + n - 1;
	for (uint32_t k = i; k < last; k++) {
		const struct dinsn *di = &fn->code[k];
		int r = 0;
		while (h.slot[r] != UINT32_MAX) /* (jit_suni_ok: one is free) */
			r++;
		gen_op(b, &h, di, r);
		int old = find(&h, di->d.slot);
		if (old >= 0)
			h.slot[old] = UINT32_MAX;
		h.slot[r] = di->d.slot;
	}
	const struct dinsn *sp = &fn->code[last];
	for (int r = 0; r < NPOOL; r++) {
		uint32_t s = h.slot[r];
		if (s == UINT32_MAX || s == sp->d.slot || !jit_live_in(lv, last + 1, s))
			continue;
		x86_store(b, true, word, pool[r]);
		x86_vrm(b, XV_VPBROADCASTQ, y, 0, word);
		for (int c = 0; c < LANES / 4; c++) {
			struct xmem m = lane0(s);
			m.disp += 32 * c;
			x86_vrm(b, XV_VMOVDQU_ST, y, 0, m);
		}
	}
	if (n > 1 && zf_kept(&fn->code[last - 1], sp))
		return jit_setp_cc(&sp->alu);
	int a = sp->s[0].kind == DOP_REG ? find(&h, sp->s[0].slot) : -1;
	int ra = a >= 0 ? pool[a] : SCRATCH;
	if (a < 0)
		get(b, &h, &sp->s[0], SCRATCH);
	apply(b, &h, X86_CMP, 7, ra, &sp->s[1]);
	return jit_setp_cc(&sp->alu);
}
