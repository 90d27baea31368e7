/*
 * exec.h - the instruction families the dispatch loop hands off: data movement and address
 * conversion, memory accesses, warp-level and barrier instructions.
 */
#ifndef PTXI_EXEC_H
#define PTXI_EXEC_H

#include "launch.h"

/* mov, cvta, isspacep, mapa, getctarank, createpolicy */
void exec_move(struct launch *L, struct warp *w, struct frame *f, const struct dinsn *di,
	       uint32_t mask);
/* createpolicy.fractional / .range / .cvt: an opaque cache policy (exec_policy.c). */
void exec_createpolicy(struct launch *L, struct warp *w, struct frame *f,
		       const struct dinsn *di, uint32_t mask);
/* ld, ldu, st, atom, red, prefetch */
void exec_mem(struct launch *L, struct warp *w, struct frame *f, const struct dinsn *di,
	      uint32_t mask);
/* The value an atomic read-modify-write of operation di->mode and type di->type leaves in
 * memory (atom, red, and red.async when it lands); c is the .cas operand. */
uint64_t exec_atom_value(const struct dinsn *di, uint64_t old, uint64_t b, uint64_t c,
			 uint32_t lane);
/* shfl/vote/match/redux/elect/activemask/bar.warp.sync, bar/barrier(.cluster), fences,
 * nanosleep. Returns false if the group parked. */
bool exec_warp(struct launch *L, struct warp *w, struct group *g, const struct dinsn *di,
	       uint32_t mask);
/* A .sync warp instruction needs every non-exited lane of `member` in group g: false (and
 * g parked) while some are elsewhere, or after a rule break if mask leaves the members. */
bool warp_need_lanes(struct launch *L, struct warp *w, struct group *g, uint32_t member,
		     uint32_t mask);
/* mma.sync, ldmatrix, stmatrix, movmatrix (exec_mma.c). Returns false if the group parked
 * or the launch stopped. */
bool exec_mma(struct launch *L, struct warp *w, struct group *g, const struct dinsn *di,
	      uint32_t mask);
/* Load time: the matrix form of a FAM_MMA instruction into di->mma (allocated in a), its
 * operands already decoded. NULL, or why ptxi cannot run it (in buf or a literal). */
const char *mma_decode(struct arena *a, const struct ir_insn *in, struct dinsn *di,
		       char *buf, size_t len);
/* A barrier may have completed (arrivals, or threads exited): release its waiters. */
void bar_check(struct launch *L, struct cta *c, uint32_t id);
void cluster_bar_check(struct launch *L, struct cluster *cl);


#endif
