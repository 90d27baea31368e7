/*
 * atom.c - the value an atomic read-modify-write leaves in memory: integer and bit-type
 * operations here, floating-point ones through the ALU kernel the loader picked.
 */
#include "atom.h"

/* The new value of an integer or bit-type atomic read-modify-write. */
static uint64_t atom_apply(enum ir_mod op, enum ir_mod t, uint64_t old, uint64_t b, uint64_t c)
{
	int size = ir_type_size(t);
	uint64_t sm = size_mask(size);
	bool sgn = ir_type_is_signed(t);
	int64_t so = (int64_t)extend(old, sgn ? t : MOD_NONE), sb = (int64_t)extend(b, sgn ? t : MOD_NONE);
	old &= sm;
	b &= sm;
	switch (op) {
	case MOD_ADD:
		return (old + b) & sm;
	case MOD_MIN:
		return sgn ? (uint64_t)(so < sb ? so : sb) & sm : old < b ? old : b;
	case MOD_MAX:
		return sgn ? (uint64_t)(so > sb ? so : sb) & sm : old > b ? old : b;
	case MOD_INC:
		return old >= b ? 0 : old + 1;
	case MOD_DEC:
		return (old == 0 || old > b) ? b : old - 1;
	case MOD_CAS:
		return old == b ? c & sm : old;
	case MOD_EXCH:
		return b;
	case MOD_AND:
		return old & b;
	case MOD_OR:
		return old | b;
	case MOD_XOR:
		return old ^ b;
	default:
		return old;
	}
}

/* The new value of a floating-point atomic: the ALU's own add/min/max (decoded into di->alu
 * at load), applied to one lane. */
static uint64_t atom_float(const struct dinsn *di, uint64_t old, uint64_t b, uint32_t lane)
{
	uint64_t a[LANES], bb[LANES], d[LANES];
	a[lane] = old;
	bb[lane] = b;
	struct alu_args x = {.d = d, .a = a, .b = bb};
	di->alu.fn(&di->alu, &x, 1u << lane);
	return d[lane];
}

uint64_t exec_atom_value(const struct dinsn *di, uint64_t old, uint64_t b, uint64_t c,
			 uint32_t lane)
{
	return di->alu.fn ? atom_float(di, old, b, lane)
			  : atom_apply((enum ir_mod)di->mode, (enum ir_mod)di->type, old, b, c);
}

