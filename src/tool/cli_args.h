/*
 * cli_args.h - the value specs of the ptxi program's options (cli_args.c): --arg, --set and
 * struct fields, numbers, coordinates and line ranges.
 */
#ifndef PTXI_CLI_ARGS_H
#define PTXI_CLI_ARGS_H

#include <stdbool.h>
#include <stdint.h>

#include "ptxi/ptxi.h"

/* Memory the parsed specs hold (file contents, struct fields), freed together. */
struct cli_owned {
	void **p;
	unsigned n, cap;
	ptxi_args *specs;       /* what the parsed value specs hold (ptxi_arg_parse)       */
};
void *cli_keep(struct cli_owned *o, void *p); /* p, or NULL (p freed) when out of memory */
void cli_owned_free(struct cli_owned *o);

bool cli_parse_u64(const char *s, uint64_t *v);
/* "X[,Y[,Z]]"; missing ones are `fill`; each at least `min`. */
bool cli_parse_coords(const char *s, uint32_t d[3], unsigned long min, uint32_t fill);
/* "A-B" or "A", lines from 1 */
bool cli_parse_line_range(const char *s, uint32_t r[2]);

/* One value spec (--arg, --set, a struct field): u8: .. f64: VALUE, buf:BYTES, file:PATH,
 * tmap:..., bytes:SIZE[,@OFF=SPEC]... On error a message naming what is wrong goes to
 * stderr and it returns false. */
bool cli_parse_value(const char *spec, struct ptxi_arg *a, struct cli_owned *own);

#endif
