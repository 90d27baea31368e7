/*
 * frame.h - call frames and parameter passing (frame.c).
 */
#ifndef PTXI_FRAME_H
#define PTXI_FRAME_H

#include <stdbool.h>
#include <stdint.h>

#include "launch.h"

/* A frame of fn for warp w (from the cache, or new), its .local stack grown to fit; NULL
 * after a report when out of memory or past --max-memory. */
struct frame *frame_new(struct launch *L, struct warp *w, struct dfunc *fn);
/* Drop a reference; the last one returns the frame (and its callers' unreferenced frames)
 * to the cache. */
void frame_release(struct launch *L, struct warp *w, struct frame *f);
void frame_cache_free(struct launch *L);
/* Before a launch runs on `jobs` threads (0: as one): its scratch (mem_scratch_expect) told
 * of the bytes its clusters' frames and spin watches will take. */
void frame_scratch_expect(struct launch *L, unsigned jobs);
/* The kernel's frame that a warp starts in. */
struct frame *sched_base_frame(struct launch *L, struct warp *w);

/* Whether a call operand (argument or result slot) fits the callee's declared parameter:
 * a .param variable of the same size (as ptxas demands), or one value of at most 8 bytes
 * (16 for a .b128 register). */
bool call_operand_fits(const struct dop *o, const struct ir_sym *formal);
/* Move one parameter or result of `size` bytes, lane by lane, from a caller's or callee's
 * operand into a .param slot (to_off) or register (to_reg) of the other frame. */
void move_param(struct launch *L, struct warp *w, uint32_t mask, struct frame *sf,
		const struct dop *src, const struct ir_sym *src_reg, struct frame *df,
		int64_t to_off, const struct dop *to_reg, uint64_t size);
/* Argument i of call di of `callee` for one lane (at most 8 bytes), and the write of its
 * first result (external calls run by the device runtime, devrt.c). */
uint64_t call_arg(struct launch *L, struct warp *w, struct frame *f, const struct dinsn *di,
		  const struct dfunc *callee, uint32_t i, uint32_t lane);
void call_result(struct frame *f, const struct dinsn *di, const struct dfunc *callee,
		 uint32_t lane, uint64_t v);

#endif
