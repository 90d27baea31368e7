/*
 * jit_zext.h - which registers of a function always hold a value whose upper 32 bits are
 * zero (jit_zext.c), so that the native tier (jit.c) need not cut them to 32 bits when it
 * loads them.
 */
#ifndef PTXI_JIT_ZEXT_H
#define PTXI_JIT_ZEXT_H

#include <stdbool.h>
#include <stdint.h>

#include "prog.h"

/* clean[s] (fn->nslots of them): 1 where every value a thread may read from slot s has its
 * upper 32 bits zero; narrow[i]: instruction i is one of jit.c's integer forms whose results
 * are at most 32 bits wide (zero-extended, as every lane function and the native code store
 * them: exec_alu.h). */
void jit_zext(const struct dfunc *fn, const bool *narrow, uint8_t *clean);

#endif
