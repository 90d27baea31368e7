/*
 * cli_args.c - the values a user gives on the command line: numbers, shapes, line ranges,
 * and value specs for --arg, --set and the fields of by-value structs (scalars, buffers,
 * files, tensor maps, structs), which the library parses (src/host/argspec.c).
 */
#include "cli_args.h"

#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "support/numbers.h"

void *cli_keep(struct cli_owned *o, void *p)
{
	if (!p)
		return NULL;
	if (o->n == o->cap) {
		unsigned cap = o->cap ? o->cap * 2 : 16;
		void **np = realloc(o->p, cap * sizeof *np);
		if (!np) {
			free(p);
			return NULL;
		}
		o->p = np;
		o->cap = cap;
	}
	return o->p[o->n++] = p;
}

void cli_owned_free(struct cli_owned *o)
{
	for (unsigned i = 0; i < o->n; i++)
		free(o->p[i]);
	free(o->p);
	ptxi_args_free(o->specs);
	*o = (struct cli_owned){0};
}

bool cli_parse_u64(const char *s, uint64_t *v)
{
	const char *end;
	return num_scan(s, true, &end, v) && !*end;
}

bool cli_parse_coords(const char *s, uint32_t d[3], unsigned long min, uint32_t fill)
{
	d[0] = d[1] = d[2] = fill;
	for (int i = 0; i < 3; i++) {
		const char *end;
		uint64_t v;
		if (!num_scan(s, false, &end, &v) || v < min || v > 0x7fffffff)
			return false;
		d[i] = (uint32_t)v;
		if (*end == '\0')
			return true;
		if (*end != ',')
			return false;
		s = end + 1;
	}
	return false;
}

bool cli_parse_line_range(const char *s, uint32_t r[2])
{
	const char *end;
	uint64_t a, b;
	if (!num_scan(s, false, &end, &a))
		return false;
	b = a;
	if (*end == '-' && !num_scan(end + 1, false, &end, &b))
		return false;
	if (*end || a == 0 || b < a || b > 0xffffffffUL)
		return false;
	r[0] = (uint32_t)a;
	r[1] = (uint32_t)b;
	return true;
}


bool cli_parse_value(const char *spec, struct ptxi_arg *a, struct cli_owned *own)
{
	char why[600];
	if (!own->specs && !(own->specs = ptxi_args_new())) {
		fprintf(stderr, "ptxi: error: out of memory\n");
		return false;
	}
	if (ptxi_arg_parse(own->specs, spec, a, why, sizeof why) == PTXI_OK)
		return true;
	fprintf(stderr, "ptxi: error: %s\n", why);
	return false;
}
