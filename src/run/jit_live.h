/*
 * jit_live.h - which registers of a function a thread may still read (jit_live.c), for the
 * native tier (jit.c): a value written into a slot no later instruction reads before the
 * next write of it need not be stored to the frame.
 */
#ifndef PTXI_JIT_LIVE_H
#define PTXI_JIT_LIVE_H

#include <stdbool.h>
#include <stdint.h>

#include "prog.h"

/* The live slots before each instruction (in[pc * nw ...], pc up to ncode); in NULL: every
 * slot is taken as live (no memory, a huge function). */
struct jit_live {
	uint64_t *in;
	uint32_t nw, ncode, nslots;
};

/* Find fn's live slots into lv (lv->in NULL where it cannot tell). */
void jit_live_find(const struct dfunc *fn, struct jit_live *lv);
void jit_live_free(struct jit_live *lv);

/* Whether slot s may be read by a thread whose next instruction is pc (pc == ncode: past
 * the end, where nothing is read). */
bool jit_live_in(const struct jit_live *lv, uint32_t pc, uint32_t s);

/* The same where a run of instructions ending at pc - 1 leaves to C: that instruction's
 * guard is read too (run_direct's and seg_account's mask of the last instruction run). */
bool jit_live_after(const struct jit_live *lv, const struct dfunc *fn, uint32_t pc, uint32_t s);

#endif
