/*
 * exec_setp.c - the last step of setp and set, which integer (exec_int.c) and
 * floating-point (exec_fp.c) comparisons share: the raw comparison combined with c by the
 * boolean operation, written to d (and |q, or set's true and false values).
 */
#include "exec_alu_impl.h"

ALU_CLONES void alu_setp_finish(const struct alu_insn *ai, const struct alu_args *x,
				uint32_t mask, const uint8_t *t)
{
	uint64_t tv = 1, fv = 0;
	if (ai->op == OP_SET) {
		tv = ai->type == MOD_F32 ? 0x3f800000u : alu_wmask(alu_bits(ai->type));
	}
	if (ai->boolop == MOD_NONE || !x->c) {
		if (!x->d2 && ai->op == OP_SETP) {
			LANE_LOOP(mask, x->d[l] = t[l]);
			return;
		}
		LANE_LOOP(mask, {
			x->d[l] = t[l] ? tv : fv;
			if (x->d2)
				x->d2[l] = t[l] ? fv : tv;
		});
		return;
	}
	LANE_LOOP(mask, {
		unsigned c = x->c[l] & 1, p = t[l], q = !t[l];
		switch (ai->boolop) {
		case MOD_AND: p &= c; q &= c; break;
		case MOD_OR: p |= c; q |= c; break;
		default: p ^= c; q ^= c; break;
		}
		x->d[l] = p ? tv : fv;
		if (x->d2)
			x->d2[l] = q ? tv : fv;
	});
}
