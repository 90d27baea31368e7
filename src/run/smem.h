/*
 * smem.h - the warp-wide path of a plain ld/st.shared::cta (issue #31): one scalar register
 * (or immediate) of 1, 2, 4 or 8 bytes for each lane, at a register plus an offset or at a
 * variable's address, done for all the lanes at once when every one of them lands aligned
 * in its CTA's shared memory and nothing else has to see the access lane by lane.
 */
#ifndef PTXI_SMEM_H
#define PTXI_SMEM_H

#include <stdbool.h>
#include <stdint.h>

#include "launch.h"

/* dinsn.smem: the form the loader found (0: none, the general path only): ld or st, a
 * signed type, and log2 of the access's bytes. */
enum { SMEM_LD = 1, SMEM_ST = 2, SMEM_SIGNED = 4, SMEM_LOG_SHIFT = 3 };

static inline uint32_t smem_bytes(uint8_t form)
{
	return 1u << (form >> SMEM_LOG_SHIFT);
}

/* di's form, at load (none when the environment says PTXI_SMEM=0). */
uint8_t smem_form(const struct dinsn *di);

/* Run di (of form SMEM_LD / SMEM_ST) for the lanes of mask of w in frame f, when nothing
 * but its bytes and the race detector's check of a plain access is at stake now: no check
 * of access.c that could fire, no uninitialised-read test left (ld), and every lane in
 * bounds and aligned. With the detector on, race_shared_lanes checks the lanes in order
 * (before a store's bytes change; a report stops the lanes after). False: nothing was done,
 * and the general path (exec_mem.c) runs it and reports what is wrong. */
/* What of the row path (a whole warp's 4-byte access through a register at 32 places in a
 * row, done by the native tier's segment code inline: jit_seg.c) may run for w now: SMEM_ROW_LD,
 * SMEM_ROW_ST, where the bytes are all that is at stake - smem_ld and smem_st's own row
 * case without the detector. With the detector the same tests answer SMEM_FRESH_LD and
 * SMEM_FRESH_ST instead: the row case's tests of the moment before its check (ld_row4_any's
 * and st_row4_any's), so that the code may call its fresh check alone (smem_calls' line
 * and off) where the row lies within the shared bytes. A bit that is not there leaves the
 * access to those calls (which serve the detector too). Nothing the segment code runs
 * between two calls clears a bit. */
enum { SMEM_ROW_LD = 1, SMEM_ROW_ST = 2, SMEM_FRESH_LD = 8, SMEM_FRESH_ST = 16 };
uint32_t smem_rows(const struct launch *L, const struct warp *w);

bool smem_ld(struct launch *L, struct warp *w, struct frame *f, const struct dinsn *di,
	     uint32_t mask);
bool smem_st(struct launch *L, struct warp *w, struct frame *f, const struct dinsn *di,
	     uint32_t mask);

/* smem_ld / smem_st for a whole warp with the detector on, in two calls that the segment
 * code makes in turn (jit_seg.c): row, their row case alone (a 4-byte access through a
 * register on AVX2), then, where it declined, rest, their every other case. So the common
 * access skips smem_ld's tests, which are di's alone (~40 instructions of each of
 * smem_stencil's loads). False: di is no such access (smem_ld / smem_st in one call). */
typedef bool smem_fn(struct launch *L, struct warp *w, struct frame *f, const struct dinsn *di,
		     uint32_t mask);
/* Before those, where smem_rows answered SMEM_FRESH_LD / _ST and the segment code found a
 * whole warp's 32 lanes in a row from first (lane 0's place), aligned and within the shared
 * bytes, the row case's fresh check alone (race.h's race_row_fresh_*, for a plain access):
 * line for a first on a line start (RACE_LINE_BYTES), off for the others (NULL: none, the
 * row call decides). True: checked and recorded by the detector as the row call would, no
 * report made; the code moves the bytes itself as the row call would. False: nothing done. */
typedef bool smem_fresh_fn(struct launch *L, struct warp *w, uint32_t first);
/* wrap (a load's; NULL: none): where the segment code found the lanes not in one row, the
 * fresh check of a row that wraps around (two rows) with its move of the bytes, as a row
 * call is made (true: done, no report; false: nothing done). */
struct smem_calls {
	smem_fn *row, *rest;
	smem_fresh_fn *line, *off;
	smem_fn *wrap;
};
bool smem_race_calls(const struct dinsn *di, bool store, struct smem_calls *out);

#endif
