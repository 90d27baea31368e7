/*
 * modinfo.h - `ptxi info` (modinfo.c): a module's kernels, parameters and launch
 * requirements, with a `ptxi run` command line for each.
 */
#ifndef PTXI_MODINFO_H
#define PTXI_MODINFO_H

#include <stdio.h>

#include "front/ir.h"

/* Write the description of module m (read from `path`) to out. static_shared: the bytes of
 * its static shared variables, as the loader laid them out. */
void modinfo_write(const struct ir_module *m, uint32_t static_shared, const char *path, FILE *out);

#endif
