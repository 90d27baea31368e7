/*
 * jit_suni.h - a uniform block and the branch after it inline in the segment code
 * (jit_suni.c), its ops run once on lane 0's values in general registers, for jit_seg.c's
 * gen_block_summed where the warp's registers are uniform (jit_uni.h).
 */
#ifndef PTXI_JIT_SUNI_H
#define PTXI_JIT_SUNI_H

#include <stdbool.h>
#include <stdint.h>

#include "jit_live.h"
#include "jit_x86.h"
#include "prog.h"

/* Whether block [i, i + n) of fn has jit_suni_gen's form: 32-bit integer ops it computes
 * (add, sub, and, or, xor, mul.lo, shl and shr by an immediate), unguarded, then a 32-bit
 * setp of one destination, unguarded, whose relation has an x86 condition - the guard of
 * the branch right after it (the caller's test) - and at most JIT_SUNI_SLOTS slots written
 * before it. */
enum { JIT_SUNI_SLOTS = 7 };
bool jit_suni_ok(const struct dfunc *fn, uint32_t i, uint32_t n);

/* The x86 jcc condition under which a 32-bit setp's relation (ai's cmp and type) holds
 * after `cmp a, b`, -1 for a relation it has none for. */
int jit_setp_cc(const struct alu_insn *ai);

/* The block's code for a warp whose registers it reads hold one value in every lane (the
 * frame's registers in r12): each op on lane 0's low words, in rax, rcx, rdx, rsi, rdi and
 * r8-r11 (all scratch); each slot an op before the setp writes, where lv says something after
 * the block may read it, stored zero-extended to all 32 lanes (through `word`, a scratch
 * quadword, and ymm register y); the setp's predicate not stored (nothing after the branch
 * may read it: jseg_block's bra_bare). Returns the x86 condition (after its compare, for
 * x86_jcc) under which the setp holds. */
int jit_suni_gen(struct xbuf *b, const struct dfunc *fn, uint32_t i, uint32_t n,
		 const struct jit_live *lv, struct xmem word, int y);

#endif
