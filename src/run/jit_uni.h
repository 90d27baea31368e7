/*
 * jit_uni.h - which registers of a function hold the same value in every lane of a warp
 * that never split (jit_uni.c), for the segment code (jit_seg.c).
 */
#ifndef PTXI_JIT_UNI_H
#define PTXI_JIT_UNI_H

#include <stdbool.h>
#include <stdint.h>

#include "prog.h"

/* uni[s] (fn->nslots of them): 1 where slot s is uniform in a warp that never split and
 * has all its lanes; pure[i]: instruction i lies in a compiled block (jit.c's forms). */
void jit_uniform(const struct dfunc *fn, const bool *pure, uint8_t *uni);

/* lane[s] (fn->nslots of them): 1 where every write of slot s is an unguarded mov of
 * %tid.x into a 32-bit register (and something writes it): in a warp that never split and
 * has all its lanes, lane l holds its own thread's %tid.x, (32 * warp + l) mod %ntid.x. */
void jit_lanes(const struct dfunc *fn, uint8_t *lane);

#endif
