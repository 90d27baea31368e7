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
 * has all its lanes; pure[i]: instruction i lies in a compiled block (jit.c's forms).
 * `merged`: in such a warp too after regions, each merged where it began (launch.h's
 * WARP_MERGED): no slot written in the stretch of a branch whose guard is not uniform and
 * that a region may take (jit_uni.c's region_bad). */
void jit_uniform(const struct dfunc *fn, const bool *pure, uint8_t *uni, bool merged);

/* lane[s] (fn->nslots of them): 1 where every write of slot s is an unguarded mov of
 * %tid.x into a 32-bit register (and something writes it): in a warp that never split and
 * has all its lanes, lane l holds its own thread's %tid.x, (32 * warp + l) mod %ntid.x -
 * after regions merged too (WARP_MERGED): a region's stretch is blocks and ld/st.shared,
 * none of which writes such a slot. */
void jit_lanes(const struct dfunc *fn, uint8_t *lane);

/* row[s] (fn->nslots of them): JIT_ROW where every write of slot s (there is one) is an
 * unguarded 32-bit one of a "row" register: 4 times a jit_lanes register (shl by 2, mul.lo
 * by 4), a row register plus or minus a uniform one (uni[]) or an immediate, or a move of a
 * row register (the largest set of registers so written). In a warp that never split and has
 * all its lanes, lane l's low word is then u + 4 * %tid.x (mod 2^32), u the same in every
 * lane - or, where a lane register was read before its mov, u alone: see jit_uni.c.
 * JIT_ROW_FIXED too where every write lies in the kernel's entry stretch (jit_entry_run):
 * that holds then in any warp that has all its lanes, split or not. */
enum { JIT_ROW = 1, JIT_ROW_FIXED = 2 };
void jit_rows(const struct dfunc *fn, const uint8_t *uni, const uint8_t *lane, uint8_t *row);

/* The length of fn's entry stretch: the instructions from the first that every lane of a
 * warp runs once, together, before the warp can split (jit_uni.c); 0 for a .func. */
uint32_t jit_entry_run(const struct dfunc *fn);

#endif
