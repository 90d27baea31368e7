/*
 * atom.h - the arithmetic of an atomic read-modify-write (atom.c): the value it leaves in
 * memory, shared by the handlers (atom, red in exec_mem.c) and the asynchronous queue
 * (red.async, cp.reduce.async.bulk when they land), so neither calls the other; and the
 * value widths loads and atomics share.
 */
#ifndef PTXI_ATOM_H
#define PTXI_ATOM_H

#include <stdbool.h>
#include <stdint.h>

#include "prog.h"

static inline uint64_t size_mask(int size)
{
	return size >= 8 ? ~0ull : size <= 0 ? ~0ull : (1ull << (size * 8)) - 1;
}

/* The low `size` bytes of v, sign-extended when sgn. */
static inline uint64_t widen(uint64_t v, int size, bool sgn)
{
	if (size >= 8)
		return v;
	v &= size_mask(size);
	if (sgn && (v >> (size * 8 - 1) & 1))
		v |= ~size_mask(size);
	return v;
}

static inline uint64_t extend(uint64_t v, enum ir_mod t)
{
	return widen(v, ir_type_size(t), ir_type_is_signed(t));
}

/* The value an atomic read-modify-write of operation di->mode and type di->type leaves in
 * memory (atom, red, and red.async when it lands); c is the .cas operand. */
uint64_t exec_atom_value(const struct dinsn *di, uint64_t old, uint64_t b, uint64_t c,
			 uint32_t lane);

#endif
