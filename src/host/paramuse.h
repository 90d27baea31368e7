/*
 * paramuse.h - which parameter bytes a kernel reads, and as what (paramuse.c; ptxi info).
 */
#ifndef PTXI_PARAMUSE_H
#define PTXI_PARAMUSE_H

#include <stdio.h>

#include "front/ir.h"

/* `ptxi info`'s table of the byte ranges kernel f reads with ld.param or takes the address
 * of, each with its parameter and what the body uses it as. */
void paramuse_write(const struct ir_func *f, FILE *out);

#endif
