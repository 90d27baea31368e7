/*
 * helpers.h - shared by the tests: a diagnostic sink that keeps the first error and warning,
 * and the spelling of an instruction ("setp.lt.and.s32") turned into a struct alu_insn
 * through the library's own opcode and modifier tables and the loader's decoding.
 */
#ifndef PTXI_TEST_HELPERS_H
#define PTXI_TEST_HELPERS_H

#include <stdbool.h>
#include <string.h>

#include "support/diag.h"
#include "run/exec_alu.h"
#include "front/ir.h"

/* A diagnostic sink that counts errors and warnings and keeps the first line of the first
 * of each ("t.ptx:8:16: error: ..."), for tests that assert exact diagnostics. */
struct diag_capture {
	char first_err[512], first_warn[512];
	unsigned nerr, nwarn;
};

static inline void capture_first_line(char *dst, size_t cap, const char *text)
{
	size_t k = strcspn(text, "\n");
	if (k >= cap)
		k = cap - 1;
	memcpy(dst, text, k);
	dst[k] = '\0';
}

static inline void capture_sink(void *ctx, enum diag_level level, const char *text)
{
	struct diag_capture *c = ctx;
	if (level == DIAG_ERROR && c->nerr++ == 0)
		capture_first_line(c->first_err, sizeof c->first_err, text);
	if (level == DIAG_WARNING && c->nwarn++ == 0)
		capture_first_line(c->first_warn, sizeof c->first_warn, text);
}

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
