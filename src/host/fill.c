/*
 * cli_fill.c - buffer fills of buf:BYTES:FILL: zero, iota:TYPE (element i holds i),
 * random:TYPE[:SEED] (integers: uniform bits; floats: uniform in [-1, 1); xorshift64 from
 * SEED, 1 by default, so a run is repeatable), const:TYPE:V (every element V).
 */
#include "fill.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/exec_alu_impl.h"
#include "support/numbers.h"
#include "support/rng.h"

static const struct elem_type types[] = {
	{"u8", 1, 'u'},  {"u16", 2, 'u'},  {"u32", 4, 'u'}, {"u64", 8, 'u'},
	{"s8", 1, 's'},  {"s16", 2, 's'},  {"s32", 4, 's'}, {"s64", 8, 's'},
	{"f16", 2, 'f'}, {"bf16", 2, 'f'}, {"f32", 4, 'f'}, {"f64", 8, 'f'},
};

const struct elem_type *cli_elem_type(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
		if (strlen(types[i].name) == len && !strncmp(types[i].name, name, len))
			return &types[i];
	return NULL;
}

double cli_elem_value(const struct elem_type *t, const unsigned char *p)
{
	uint64_t v = 0;
	memcpy(&v, p, t->size); /* little-endian host */
	if (t->kind == 'u')
		return (double)v;
	if (t->kind == 's') {
		unsigned sh = 64 - 8 * t->size;
		return (double)((int64_t)(v << sh) >> sh);
	}
	if (t->size == 8) {
		double d;
		memcpy(&d, &v, 8);
		return d;
	}
	if (t->size == 4) {
		float f;
		uint32_t b = (uint32_t)v;
		memcpy(&f, &b, 4);
		return f;
	}
	return alu_half_to_f64(!strcmp(t->name, "bf16") ? FMT_BF16 : FMT_F16, (uint16_t)v);
}

/* Value x as type t's bits (floats rounded to nearest even; integers wrap). */
static uint64_t elem_bits(const struct elem_type *t, double x)
{
	if (t->kind != 'f')
		return x < 0 ? (uint64_t)(int64_t)x : (uint64_t)x;
	if (t->size == 8) {
		uint64_t b;
		memcpy(&b, &x, 8);
		return b;
	}
	if (t->size == 4) {
		float f = (float)x;
		uint32_t b;
		memcpy(&b, &f, 4);
		return b;
	}
	return alu_f64_to_half(!strcmp(t->name, "bf16") ? FMT_BF16 : FMT_F16, x, MOD_RN, 0);
}

/* "TYPE" at s up to the next ':' or the end: the type, *rest past it. */
static const struct elem_type *type_at(const char *s, const char **rest)
{
	size_t n = strcspn(s, ":");
	*rest = s + n + (s[n] == ':');
	return cli_elem_type(s, n);
}

static bool fill_error(const char *spec, char *why, size_t whylen)
{
	snprintf(why, whylen, "'%s': want buf:BYTES[:FILL], FILL one of zero, iota:TYPE, "
		 "random:TYPE[:SEED], const:TYPE:V; TYPE one of u8 u16 u32 u64 s8 s16 s32 s64 "
		 "f16 bf16 f32 f64, BYTES a whole number of them", spec);
	return false;
}

bool fill_parse(const char *spec, const char *fill, size_t bytes, unsigned char **init,
		char *why, size_t whylen)
{
	*init = NULL;
	const char *rest = "";
	const struct elem_type *t = NULL;
	enum { ZERO, IOTA, RANDOM, CONST } how;
	double c = 0;
	uint64_t seed = 1;
	if (!strcmp(fill, "zero")) {
		how = ZERO;
	} else if (!strncmp(fill, "iota:", 5)) {
		how = IOTA;
		t = type_at(fill + 5, &rest);
		if (*rest)
			return fill_error(spec, why, whylen);
	} else if (!strncmp(fill, "random:", 7)) {
		how = RANDOM;
		t = type_at(fill + 7, &rest);
		const char *end;
		if (*rest && (!num_scan(rest, false, &end, &seed) || *end))
			return fill_error(spec, why, whylen);
	} else if (!strncmp(fill, "const:", 6)) {
		how = CONST;
		t = type_at(fill + 6, &rest);
		char *end;
		c = strtod(rest, &end);
		if (!*rest || *end)
			return fill_error(spec, why, whylen);
	} else {
		return fill_error(spec, why, whylen);
	}
	if (how == ZERO)
		return true; /* a buffer with no init is zero-filled */
	if (!t || bytes % t->size)
		return fill_error(spec, why, whylen);
	unsigned char *p = malloc(bytes ? bytes : 1);
	if (!p) {
		snprintf(why, whylen, "'%s': out of memory for %zu bytes", spec, bytes);
		return false;
	}
	struct rng r = {seed * 0x9E3779B97F4A7C15ull + 1};
	if (!r.s)
		r.s = 1;
	uint64_t cbits = elem_bits(t, c);
	for (size_t i = 0, n = bytes / t->size; i < n; i++) {
		uint64_t v = cbits;
		if (how == IOTA)
			v = elem_bits(t, (double)i);
		else if (how == RANDOM && t->kind == 'f') /* 53 bits to [-1, 1) */
			v = elem_bits(t, (double)(rng_next(&r) >> 11) * 0x1p-52 - 1.0);
		else if (how == RANDOM)
			v = rng_next(&r);
		memcpy(p + i * t->size, &v, t->size);
	}
	*init = p;
	return true;
}
