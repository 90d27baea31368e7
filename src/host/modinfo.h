/*
 * modinfo.h - `ptxi info` (modinfo.c): a module's kernels, parameters and launch
 * requirements, with a `ptxi run` command line for each.
 */
#ifndef PTXI_MODINFO_H
#define PTXI_MODINFO_H

#include <stdio.h>

#include "front/ir.h"
#include "ptxi/ptxi.h"

struct arena;
struct dprog;

/* Write the description of module m (read from `path`) to out. P: m as the loader laid it
 * out (each kernel's static shared memory). */
void modinfo_write(const struct ir_module *m, const struct dprog *P, const char *path, FILE *out);

/* The kernels (.entry with a body) of m, and kernel k of them described for
 * ptxi_kernel_describe (strings the module does not hold yet go to arena a). False: no
 * kernel k. */
unsigned modinfo_kernels(const struct ir_module *m);
bool modinfo_describe(const struct ir_module *m, struct arena *a, const struct dprog *P,
		      unsigned k, struct ptxi_kernel_info *out, struct ptxi_param_info *params,
		      unsigned max);

#endif
