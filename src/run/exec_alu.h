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
 * An instruction's decoded form (struct alu_insn, its flags and struct alu_args) is part of
 * the decoded program (prog.h); this header is what picks and runs its kernel.
 */
#ifndef PTXI_EXEC_ALU_H
#define PTXI_EXEC_ALU_H

#include <stdbool.h>
#include <stdint.h>

#include "prog.h"

/* Pick the function that executes `ai` (fast, specialised where it matters). Returns 0, or
 * -1 if this combination of opcode, type and modifiers is not supported; *why then names
 * what is missing (a static string) so the loader can report "unsupported ...". */
int alu_prepare(struct alu_insn *ai, const char **why);

/* The ALU fields of `op` written with `mods` (its dotted words after the opcode), exactly as
 * the loader decodes them (load.c); alu_prepare still has to pick the function. */
void alu_decode(struct alu_insn *ai, enum ir_op op, const enum ir_mod *mods, unsigned nmods,
		int nsrc);

#endif
