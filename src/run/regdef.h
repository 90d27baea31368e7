/*
 * regdef.h - which registers of a function a thread may read before writing them (regdef.c),
 * found once at load: only those must read as 0 in a frame reused from the cache (frame_new).
 */
#ifndef PTXI_REGDEF_H
#define PTXI_REGDEF_H

#include "prog.h"

/* Fill fn->clear (runs of slots frame_new zeroes in a reused frame) from fn's code; leaves
 * fn->clear_known false (clear them all) where it cannot tell (no memory, a huge function). */
void regdef_plan(struct dprog *P, struct dfunc *fn);

#endif
