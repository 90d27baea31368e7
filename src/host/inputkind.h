/*
 * inputkind.h - what a file that is not PTX is (CUDA source, a host program, a cubin, a
 * fatbin), said in one line with the command that makes or runs PTX (inputkind.c).
 */
#ifndef PTXI_INPUTKIND_H
#define PTXI_INPUTKIND_H

#include <stdbool.h>
#include <stddef.h>

#include "support/diag.h"

/* When f (read from `path`) is one of the kinds above, its explanation into msg and true;
 * false for anything else (PTX, or text the parser will judge). */
bool inputkind_explain(const struct src_file *f, const char *path, char *msg, size_t n);

#endif
