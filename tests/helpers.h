/*
 * helpers.h - shared by the unit tests: turn an instruction's spelling ("setp.lt.and.s32",
 * "vabsdiff4.u32.u32.u32.add") into a struct alu_insn through the library's own opcode and
 * modifier tables and the loader's decoding, so the tests exercise the real path.
 */
#ifndef PTXI_TEST_HELPERS_H
#define PTXI_TEST_HELPERS_H

#include <stdbool.h>
#include <string.h>

#include "exec_alu.h"
#include "ir.h"

static inline bool alu_from_name(const char *name, int nsrc, struct alu_insn *ai)
{
	enum { MAXW = 16 };
	const char *words[MAXW];
	size_t lens[MAXW];
	int n = 0;
	for (const char *p = name; n < MAXW;) {
		const char *dot = strchr(p, '.');
		words[n] = p;
		lens[n++] = dot ? (size_t)(dot - p) : strlen(p);
		if (!dot)
			break;
		p = dot + 1;
	}
	int used = 0;
	enum ir_op op = ir_op_lookup(words, lens, n, &used);
	if (op == OP__COUNT)
		return false;
	enum ir_mod mods[MAXW];
	unsigned nm = 0;
	for (int i = used; i < n; i++) {
		enum ir_mod m = ir_mod_lookup(words[i], lens[i]);
		if (m == MOD_NONE)
			return false;
		mods[nm++] = m;
	}
	alu_decode(ai, op, mods, nm, nsrc);
	return true;
}

#endif
