/*
 * jit_x86.h - the x86-64 encoder of the native tier (jit.c): the AVX2 instructions it emits,
 * VEX encoded, on ymm registers and [base + index + disp] or [rip + disp] memory, and the few
 * scalar instructions of its chunk loop. Bytes are appended to a growing buffer; the encodings
 * are the ones GNU as picks (tests/test_jit_x86.c holds its bytes).
 */
#ifndef PTXI_JIT_X86_H
#define PTXI_JIT_X86_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A code buffer; `oom` once a growth failed (the bytes are then incomplete). */
struct xbuf {
	uint8_t *p;
	size_t len, cap;
	bool oom;
};

enum x86_gpr { X_RAX, X_RCX, X_RDX, X_RBX, X_RSP, X_RBP, X_RSI, X_RDI, X_R8, X_R9, X_R10,
	       X_R11, X_R12, X_R13, X_R14, X_R15 };

/* A memory operand: [base + index*scale + disp], index -1 for none; base -1: [rip + disp]. */
struct xmem {
	int base, index, scale;
	int32_t disp;
};

/*
 * The VEX-encoded ymm instructions: name, opcode map (1: 0F, 2: 0F38, 3: 0F3A), implied
 * prefix (pp: 1 = 66, 2 = F3), VEX.W, opcode byte. An `ext` row takes an opcode extension in
 * ModRM.reg and an imm8 (the shifts by an immediate); VPBLENDD takes an imm8 and VBLENDVPD a
 * fourth register in imm8[7:4] (x86_v4).
 */
#define X86_VOPS(X)                                                                        \
	X(VPADDQ, 1, 1, 0, 0xD4)                                                           \
	X(VPSUBQ, 1, 1, 0, 0xFB)                                                           \
	X(VPAND, 1, 1, 0, 0xDB)                                                            \
	X(VPANDN, 1, 1, 0, 0xDF)                                                           \
	X(VPOR, 1, 1, 0, 0xEB)                                                             \
	X(VPXOR, 1, 1, 0, 0xEF)                                                            \
	X(VPMULUDQ, 1, 1, 0, 0xF4)                                                         \
	X(VPMULDQ, 2, 1, 0, 0x28)                                                          \
	X(VPCMPEQQ, 2, 1, 0, 0x29)                                                         \
	X(VPCMPGTQ, 2, 1, 0, 0x37)                                                         \
	X(VPSLLVQ, 2, 1, 1, 0x47)                                                          \
	X(VPSRLVQ, 2, 1, 1, 0x45)                                                          \
	X(VPBLENDD, 3, 1, 0, 0x02)                                                         \
	X(VBLENDVPD, 3, 1, 0, 0x4B)                                                        \
	X(VMOVDQU_LD, 1, 2, 0, 0x6F)                                                       \
	X(VMOVDQU_ST, 1, 2, 0, 0x7F)                                                       \
	X(VPMASKMOVQ_ST, 2, 1, 1, 0x8E)                                                    \
	X(VMOVMSKPD, 1, 1, 0, 0x50) /* d: a general register */                            \
	X(VPSLLQ_I, 1, 1, 0, 0x73) /* /6 */                                                \
	X(VPSRLQ_I, 1, 1, 0, 0x73) /* /2 */                                                \
	X(VPSRAD_I, 1, 1, 0, 0x72) /* /4 */                                                \
	X(VPSRAW_I, 1, 1, 0, 0x71) /* /4 */                                                \
	X(VPCMPEQD, 1, 1, 0, 0x76)                                                         \
	X(VPBROADCASTQ, 2, 1, 0, 0x59) /* v: none (0) */                                   \
	X(VPMOVZXDQ, 2, 1, 0, 0x35) /* from 128 bits; v: none */                           \
	X(VPMOVSXDQ, 2, 1, 0, 0x25) /* from 128 bits; v: none */                           \
	X(VPTEST, 2, 1, 0, 0x17) /* v: none; flags */                                      \
	X(VSHUFPS, 1, 0, 0, 0xC6) /* imm8 (x86_vrri) */                                    \
	X(VPERMQ, 3, 1, 1, 0x00) /* imm8 (x86_vrri); v: none */                           \
	X(VMOVMSKPS, 1, 0, 0, 0x50) /* d: a general register */                            \
	X(VPSLLD_I, 1, 1, 0, 0x72) /* /6 */

enum x86_vop {
#define X(name, map, pp, w, opc) XV_##name,
	X86_VOPS(X)
#undef X
	XV__COUNT
};

/* d = op(v, rm): three registers (ymm numbers 0-15); for the stores, d is the register
 * stored and v the mask (VPMASKMOVQ_ST). */
void x86_vrr(struct xbuf *b, enum x86_vop op, int d, int v, int rm);
void x86_vrm(struct xbuf *b, enum x86_vop op, int d, int v, struct xmem m);
/* VPBLENDD d, v, rm, imm8 (VSHUFPS, VPERMQ too); with rm in memory */
void x86_vrri(struct xbuf *b, enum x86_vop op, int d, int v, int rm, uint8_t imm);
void x86_vrmi(struct xbuf *b, enum x86_vop op, int d, int v, struct xmem m, uint8_t imm);
/* VBLENDVPD d, v, rm, mask: d = mask's sign bit ? rm : v, per 64-bit lane */
void x86_v4(struct xbuf *b, enum x86_vop op, int d, int v, int rm, int mask);
/* the shifts by an immediate: d = rm shifted by imm */
void x86_vshi(struct xbuf *b, enum x86_vop op, int d, int rm, uint8_t imm);

/* scalar instructions of the chunk loop and of a segment's code (jit_seg.c) */
void x86_mov32(struct xbuf *b, int d, int s);              /* mov d32, s32            */
void x86_alu_ri(struct xbuf *b, int ext, bool w64, int r, int32_t imm); /* add 0, and 4,
									 * sub 5, cmp 7  */
void x86_shift_ri(struct xbuf *b, int ext, bool w64, int r, uint8_t imm); /* shl 4, shr 5 */
void x86_shift_cl(struct xbuf *b, int ext, bool w64, int r); /* the same by cl */
/* op d, s on general registers, opc the "r/m, reg" opcode: X86_MOV, X86_SUB, ... */
enum { X86_ADD = 0x01, X86_OR = 0x09, X86_AND = 0x21, X86_SUB = 0x29, X86_XOR = 0x31, X86_CMP = 0x39,
       X86_TEST8 = 0x84, X86_TEST = 0x85, X86_MOV = 0x89 };
void x86_alu_rr(struct xbuf *b, int opc, bool w64, int d, int s);
void x86_lea_rip(struct xbuf *b, int d, int32_t disp);    /* lea d64, [rip + disp]   */
void x86_mov_ri(struct xbuf *b, int d, uint32_t imm);      /* mov d32, imm32          */
void x86_mov_ri64(struct xbuf *b, int d, uint64_t imm);    /* mov d64, imm64          */
void x86_load(struct xbuf *b, bool w64, int d, struct xmem m);  /* mov d, [m]         */
void x86_store(struct xbuf *b, bool w64, struct xmem m, int s); /* mov [m], s         */
/* d64 = the `bytes` (1, 2, 4 or 8) at [m], zero-extended (movzx, mov d32) or sign-extended
 * (movsx, movsxd) */
void x86_load_ext(struct xbuf *b, int bytes, bool sgn, int d, struct xmem m);
void x86_mov_mi(struct xbuf *b, struct xmem m, uint32_t imm); /* mov dword [m], imm32 */
void x86_mov_mi64(struct xbuf *b, struct xmem m, int32_t imm); /* mov qword [m], imm32 */
void x86_alu_mi(struct xbuf *b, int ext, bool w64, struct xmem m, int8_t imm); /* op [m], imm8 */
void x86_alu_mi32(struct xbuf *b, int ext, struct xmem m, uint32_t imm); /* op dword [m], imm32 */
void x86_mov_mi8(struct xbuf *b, struct xmem m, uint8_t imm); /* mov byte [m], imm8 */
void x86_store8(struct xbuf *b, struct xmem m, int s); /* mov [m], s's low byte  */
void x86_imul_rr(struct xbuf *b, bool w64, int d, int s);     /* imul d, s               */
void x86_popcnt(struct xbuf *b, int d, int s);                /* popcnt d32, s32         */
void x86_test_ri(struct xbuf *b, int r, uint32_t imm);        /* test r32, imm32         */
/* the same ALU operations with memory (opc as x86_alu_rr's): op [m], s and op d, [m] */
void x86_alu_mr(struct xbuf *b, int opc, bool w64, struct xmem m, int s);
void x86_alu_rm(struct xbuf *b, int opc, bool w64, int d, struct xmem m);
void x86_alu_m8i(struct xbuf *b, int ext, struct xmem m, uint8_t imm); /* op byte [m], imm8 */
void x86_cmov_rm(struct xbuf *b, int cc, bool w64, int d, struct xmem m); /* cmovcc d, [m] */
void x86_imul_rri(struct xbuf *b, bool w64, int d, int s, int32_t imm); /* imul d, s, imm32 */
void x86_lea(struct xbuf *b, int d, struct xmem m);        /* lea d64, [m]            */
void x86_push(struct xbuf *b, int r);
void x86_pop(struct xbuf *b, int r);
size_t x86_call(struct xbuf *b);                           /* call rel32 (x86_patch)  */
void x86_call_r(struct xbuf *b, int r);                   /* call r64                */
/* jcc / jmp with a 32-bit displacement; return where the displacement lies (x86_patch) */
size_t x86_jcc(struct xbuf *b, int cc); /* 0x2 b, 0x3 ae, 0x4 e/z, 0x5 ne/nz, 0x6 be, 0x7 a,
					  * 0xF g */
size_t x86_jmp(struct xbuf *b);
void x86_jmp_r(struct xbuf *b, int r);                    /* jmp r64                 */
void x86_jmp_m(struct xbuf *b, struct xmem m);            /* jmp qword [m]           */
/* point the 32-bit displacement at `at` (ending at at + 4) to buffer offset `to` */
void x86_patch(struct xbuf *b, size_t at, size_t to);
void x86_vzeroupper(struct xbuf *b);
void x86_ret(struct xbuf *b);

/* raw bytes */
void x86_bytes(struct xbuf *b, const void *p, size_t n);

#endif
