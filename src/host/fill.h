/*
 * fill.h - buffers made from a spec instead of by a script (fill.c), for the program and
 * the library alike:
 * buf:BYTES:zero|iota:TYPE|random:TYPE[:SEED]|const:TYPE:V, and the element types they,
 * --expect and --dump share.
 */
#ifndef PTXI_FILL_H
#define PTXI_FILL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ptxi/ptxi.h"

/* An element type by name: u8 u16 u32 u64 s8 s16 s32 s64 f16 bf16 f32 f64. */
struct elem_type {
	const char *name;
	unsigned size;
	char kind;              /* 'u', 's' or 'f'                                         */
};
const struct elem_type *cli_elem_type(const char *name, size_t len);

/* Element p of type t as a double (exact for every type but 64-bit integers past 2^53). */
double cli_elem_value(const struct elem_type *t, const unsigned char *p);

/* The FILL of "buf:BYTES:FILL" (spec as written, for messages) as `bytes` bytes in *init
 * (malloc'd; NULL for zero, as a buffer without init is zero-filled). False with the
 * reason in why. */
bool fill_parse(const char *spec, const char *fill, size_t bytes, unsigned char **init,
		char *why, size_t whylen);

#endif
