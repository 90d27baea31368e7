/*
 * wgmma_form.h - what a warpgroup instruction's opcode words say (ISA 9.7.15): the
 * wgmma.mma_async shape and types, .satfinite, the b1 operation, the sparse form; the
 * setmaxnreg action. The words are read from the opcode's text once (check and load), so
 * mods.def needs no row per shape (m64n8k16 ... m64n256k256: 128 of them).
 */
#ifndef PTXI_WGMMA_FORM_H
#define PTXI_WGMMA_FORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "front/ir.h"

/* Element types of A, B and the accumulator D. */
#define WG_TYPES(X)                                  \
	X(F16, "f16", 16) X(BF16, "bf16", 16)        \
	X(TF32, "tf32", 32) X(E4M3, "e4m3", 8)       \
	X(E5M2, "e5m2", 8) X(S8, "s8", 8)            \
	X(U8, "u8", 8) X(B1, "b1", 1)                \
	X(F32, "f32", 32) X(S32, "s32", 32)

enum wg_type {
	WG_NONE,
#define X(name, spelling, bits) WG_##name,
	WG_TYPES(X)
#undef X
};

const char *wg_type_name(enum wg_type t);
/* A shape word ("m64n128k16", without its dot) -> M, N, K in v; with k_optional, "m8n8"
 * too (K 0), as ldmatrix writes it. */
bool mma_shape_parse(const char *w, size_t n, unsigned v[3], bool k_optional);
unsigned wg_type_bits(enum wg_type t);

struct wg_form {
	uint16_t m, n, k;
	enum wg_type d, a, b;
	bool satfinite;
	bool popc_and;          /* b1: .and.popc                                            */
	bool sparse;            /* .sp: A 2:4 sparse (compressed to K/2), K doubled          */
	bool inc;               /* setmaxnreg: .inc (else .dec)                              */
	/* operand facts for wgmma.mma_async (from the operand list) */
	bool a_regs;            /* A in registers (the second operand is a vector)           */
	uint16_t nd;            /* accumulator registers                                    */
	uint8_t nimm;           /* immediates after scale-d: scale-a, scale-b, trans-a, -b  */
};

/* Registers of D (f32/s32: n/2, f16: n/4 packed pairs) and of an A fragment (4). */
static inline unsigned wg_d_regs(const struct wg_form *f)
{
	return f->d == WG_F16 ? f->n / 4u : f->n / 2u;
}
enum { WG_A_REGS = 4 };

/*
 * Read the opcode words of `in` (wgmma.* or setmaxnreg) from its text in `text`. Returns
 * NULL on success, else a message naming the first wrong word or combination. A sparse form
 * (.sp) parses with f->sparse set.
 */
const char *wg_form_parse(const char *text, const struct ir_insn *in, struct wg_form *f,
			  char *buf, size_t bufsize);

#endif
