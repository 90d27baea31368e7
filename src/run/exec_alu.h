/*
 * exec_alu.h - arithmetic, logic, comparison and conversion semantics over lane arrays.
 * The interpreter hands an ALU instruction the 32-lane arrays of its operands; the ALU
 * computes every lane whose bit is set in `mask` and leaves the other lanes untouched.
 *
 * Value convention (shared with the whole interpreter): a register slot holds one uint64_t
 * per lane. A value of an n-byte type lives in the low n bytes; results are written
 * zero-extended to 64 bits (a .s32 -1 is stored as 0x00000000ffffffff). Inputs are read
 * from their low bits only (the instruction type decides the width), so a wider register
 * holding junk above is harmless. Predicates are 0 or 1. f16/bf16 are their 16-bit
 * patterns, f16x2/bf16x2 two of them (element 0 in bits 0-15), f32/f64 their IEEE bits.
 */
#ifndef PTXI_EXEC_ALU_H
#define PTXI_EXEC_ALU_H

#include <stdbool.h>
#include <stdint.h>

#include "front/ir.h"

#define LANES 32

/* Decoded modifier flags an ALU instruction may carry. */
enum {
	ALU_SAT = 1u << 0,      /* .sat                                                  */
	ALU_FTZ = 1u << 1,      /* .ftz                                                  */
	ALU_HI = 1u << 2,       /* mul.hi / mad.hi / mul24.hi                            */
	ALU_LO = 1u << 3,       /* .lo                                                   */
	ALU_WIDE = 1u << 4,     /* .wide                                                 */
	ALU_CC = 1u << 5,       /* .cc: write the carry-out lane array                  */
	ALU_APPROX = 1u << 6,   /* .approx                                               */
	ALU_FULL = 1u << 7,     /* .full (div.full.f32)                                  */
	ALU_RELU = 1u << 8,     /* .relu                                                 */
	ALU_NAN = 1u << 9,      /* min/max .NaN                                          */
	ALU_XORSIGN = 1u << 10, /* min/max .xorsign.abs                                  */
	ALU_SHIFTAMT = 1u << 11,/* bfind.shiftamt                                        */
	ALU_CLAMP = 1u << 12,   /* shf.clamp, bmsk.clamp, szext.clamp                    */
	ALU_LEFT = 1u << 13,    /* shf.l                                                 */
	ALU_SATFINITE = 1u << 14,
	ALU_OOB = 1u << 15,
};

struct alu_insn;

/* Operands: d (destination), d2 (second destination: setp's |q), a, b, c, e (sources in
 * written order after the destinations), cc (carry lane array of the warp, read by
 * addc/subc/madc, written by .cc forms). Arrays the instruction does not use may be NULL. */
struct alu_args {
	uint64_t *d, *d2;
	const uint64_t *a, *b, *c, *e;
	uint64_t *cc;
};

typedef void alu_fn(const struct alu_insn *ai, const struct alu_args *x, uint32_t mask);

struct alu_insn {
	enum ir_op op;
	enum ir_mod type;   /* the instruction type: destination type for cvt/set/slct      */
	enum ir_mod type2;  /* cvt/set/slct: source type; dp4a/dp2a: b's type; else NONE   */
	enum ir_mod rnd;    /* MK_ROUND modifier or NONE                                   */
	enum ir_mod cmp;    /* setp/set comparison (MOD_EQ ... MOD_LO/HI/LS/HS ...)         */
	enum ir_mod boolop; /* setp/set combining op: MOD_AND/OR/XOR or NONE               */
	enum ir_mod mode;   /* prmt mode (MOD_F4E ...), testp class (MOD_FINITE..), else NONE */
	uint32_t flags;     /* ALU_* bits                                                  */
	int nsrc;           /* number of source operands written                           */
	alu_fn *fn;         /* chosen by alu_prepare                                       */
};

/* Pick the function that executes `ai` (fast, specialised where it matters). Returns 0, or
 * -1 if this combination of opcode, type and modifiers is not supported; *why then names
 * what is missing (a static string) so the loader can report "unsupported ...". */
int alu_prepare(struct alu_insn *ai, const char **why);

/* The ALU fields of `op` written with `mods` (its dotted words after the opcode), exactly as
 * the loader decodes them (load.c); alu_prepare still has to pick the function. */
void alu_decode(struct alu_insn *ai, enum ir_op op, const enum ir_mod *mods, unsigned nmods,
		int nsrc);

#endif
