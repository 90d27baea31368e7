/*
 * jit_x86.c - the encoder of jit_x86.h. Every ymm instruction is 256-bit (VEX.L = 1) and takes
 * the short two-byte VEX prefix where it can (map 0F, W0, no extended rm or index register),
 * as GNU as does, so the unit test can compare with its bytes.
 */
#include "jit_x86.h"

#include <stdlib.h>
#include <string.h>

static const struct vop_row {
	uint8_t map, pp, w, opc;
} vops[XV__COUNT] = {
#define X(name, map, pp, w, opc) [XV_##name] = {map, pp, w, opc},
	X86_VOPS(X)
#undef X
};

/* ModRM.reg extension of the shifts by an immediate */
static int shift_ext(enum x86_vop op)
{
	switch (op) {
	case XV_VPSLLQ_I:
	case XV_VPSLLD_I: return 6;
	case XV_VPSRLQ_I: return 2;
	default: return 4; /* VPSRAD_I, VPSRAW_I */
	}
}

static void put(struct xbuf *b, uint8_t v)
{
	if (b->oom)
		return;
	if (b->len == b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 4096;
		uint8_t *p = realloc(b->p, cap);
		if (!p) {
			b->oom = true; /* the caller throws the bytes away */
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	b->p[b->len++] = v;
}

static void put32(struct xbuf *b, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		put(b, (uint8_t)(v >> (8 * i)));
}

void x86_bytes(struct xbuf *b, const void *p, size_t n)
{
	if (b->oom)
		return;
	if (n > b->cap - b->len) { /* room for all n at once (copies of whole code: jit.c) */
		size_t cap = b->cap ? b->cap : 4096;
		while (n > cap - b->len)
			cap *= 2;
		uint8_t *q = realloc(b->p, cap);
		if (!q) {
			b->oom = true;
			return;
		}
		b->p = q;
		b->cap = cap;
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

/* The VEX prefix: r, x, bb are bit 3 of ModRM.reg, SIB.index and ModRM.rm / SIB.base; v the
 * register of VEX.vvvv. */
static void vex(struct xbuf *b, const struct vop_row *o, int r, int x, int bb, int v)
{
	uint8_t tail = (uint8_t)(((~v & 15) << 3) | 4 | o->pp);
	if (o->map == 1 && !o->w && !x && !bb) {
		put(b, 0xC5);
		put(b, (uint8_t)((!r << 7) | tail));
	} else {
		put(b, 0xC4);
		put(b, (uint8_t)((!r << 7) | (!x << 6) | (!bb << 5) | o->map));
		put(b, (uint8_t)((o->w << 7) | tail));
	}
}

static void modrm_mem(struct xbuf *b, int reg, struct xmem m)
{
	reg &= 7;
	if (m.base < 0) { /* [rip + disp32] */
		put(b, (uint8_t)((reg << 3) | 5));
		put32(b, (uint32_t)m.disp);
		return;
	}
	int base = m.base & 7;
	int mod = m.disp == 0 && base != 5 ? 0 : m.disp >= -128 && m.disp <= 127 ? 1 : 2;
	if (m.index >= 0 || base == 4) {
		int ss = m.scale == 8 ? 3 : m.scale == 4 ? 2 : m.scale == 2 ? 1 : 0;
		int idx = m.index >= 0 ? m.index & 7 : 4;
		put(b, (uint8_t)((mod << 6) | (reg << 3) | 4));
		put(b, (uint8_t)((ss << 6) | (idx << 3) | base));
	} else {
		put(b, (uint8_t)((mod << 6) | (reg << 3) | base));
	}
	if (mod == 1)
		put(b, (uint8_t)m.disp);
	else if (mod == 2)
		put32(b, (uint32_t)m.disp);
}

void x86_vrr(struct xbuf *b, enum x86_vop op, int d, int v, int rm)
{
	const struct vop_row *o = &vops[op];
	if (op == XV_VMOVDQU_ST) { /* the register stored is ModRM.reg */
		int t = d;
		d = rm;
		rm = t;
	}
	vex(b, o, d >> 3, 0, rm >> 3, v);
	put(b, o->opc);
	put(b, (uint8_t)(0xC0 | (d & 7) << 3 | (rm & 7)));
}

void x86_vrm(struct xbuf *b, enum x86_vop op, int d, int v, struct xmem m)
{
	const struct vop_row *o = &vops[op];
	vex(b, o, d >> 3, m.index >= 0 ? m.index >> 3 : 0, m.base >= 0 ? m.base >> 3 : 0, v);
	put(b, o->opc);
	modrm_mem(b, d, m);
}

void x86_vrri(struct xbuf *b, enum x86_vop op, int d, int v, int rm, uint8_t imm)
{
	x86_vrr(b, op, d, v, rm);
	put(b, imm);
}

void x86_vrmi(struct xbuf *b, enum x86_vop op, int d, int v, struct xmem m, uint8_t imm)
{
	x86_vrm(b, op, d, v, m);
	put(b, imm);
}

void x86_v4(struct xbuf *b, enum x86_vop op, int d, int v, int rm, int mask)
{
	x86_vrr(b, op, d, v, rm);
	put(b, (uint8_t)(mask << 4));
}

void x86_vshi(struct xbuf *b, enum x86_vop op, int d, int rm, uint8_t imm)
{
	const struct vop_row *o = &vops[op];
	vex(b, o, 0, 0, rm >> 3, d);
	put(b, o->opc);
	put(b, (uint8_t)(0xC0 | shift_ext(op) << 3 | (rm & 7)));
	put(b, imm);
}

/* REX prefix where one is needed: w (64-bit operand), r (ModRM.reg >= 8), bb (rm >= 8) */
static void rex(struct xbuf *b, bool w, int r, int bb)
{
	if (w || r >= 8 || bb >= 8)
		put(b, (uint8_t)(0x40 | w << 3 | (r >= 8) << 2 | (bb >= 8)));
}

void x86_mov32(struct xbuf *b, int d, int s)
{
	rex(b, false, s, d);
	put(b, 0x89);
	put(b, (uint8_t)(0xC0 | (s & 7) << 3 | (d & 7)));
}

void x86_alu_ri(struct xbuf *b, int ext, bool w64, int r, int32_t imm)
{
	rex(b, w64, 0, r);
	bool small = imm >= -128 && imm <= 127;
	put(b, small ? 0x83 : 0x81);
	put(b, (uint8_t)(0xC0 | ext << 3 | (r & 7)));
	if (small)
		put(b, (uint8_t)imm);
	else
		put32(b, (uint32_t)imm);
}

void x86_alu_rr(struct xbuf *b, int opc, bool w64, int d, int s)
{
	rex(b, w64, s, d);
	put(b, (uint8_t)opc);
	put(b, (uint8_t)(0xC0 | (s & 7) << 3 | (d & 7)));
}

void x86_shift_ri(struct xbuf *b, int ext, bool w64, int r, uint8_t imm)
{
	rex(b, w64, 0, r);
	put(b, 0xC1);
	put(b, (uint8_t)(0xC0 | ext << 3 | (r & 7)));
	put(b, imm);
}

void x86_shift_cl(struct xbuf *b, int ext, bool w64, int r)
{
	rex(b, w64, 0, r);
	put(b, 0xD3);
	put(b, (uint8_t)(0xC0 | ext << 3 | (r & 7)));
}

/* a legacy instruction's REX prefix and ModRM (and SIB, displacement) for reg and [m] */
static void legacy_mem(struct xbuf *b, bool w, int reg, struct xmem m)
{
	int x = m.index >= 0 ? m.index >> 3 : 0, bb = m.base >= 0 ? m.base >> 3 : 0;
	if (w || reg >= 8 || x || bb)
		put(b, (uint8_t)(0x40 | w << 3 | (reg >= 8) << 2 | x << 1 | bb));
}

void x86_load(struct xbuf *b, bool w64, int d, struct xmem m)
{
	legacy_mem(b, w64, d, m);
	put(b, 0x8B);
	modrm_mem(b, d, m);
}

void x86_store(struct xbuf *b, bool w64, struct xmem m, int s)
{
	legacy_mem(b, w64, s, m);
	put(b, 0x89);
	modrm_mem(b, s, m);
}

void x86_load_ext(struct xbuf *b, int bytes, bool sgn, int d, struct xmem m)
{
	if (bytes == 8 || (bytes == 4 && !sgn)) {
		x86_load(b, bytes == 8, d, m);
		return;
	}
	legacy_mem(b, sgn, d, m);
	if (bytes == 4) { /* movsxd */
		put(b, 0x63);
	} else {
		put(b, 0x0F);
		put(b, (uint8_t)((sgn ? 0xBE : 0xB6) | (bytes == 2)));
	}
	modrm_mem(b, d, m);
}

void x86_alu_mi(struct xbuf *b, int ext, bool w64, struct xmem m, int8_t imm)
{
	legacy_mem(b, w64, 0, m);
	put(b, 0x83);
	modrm_mem(b, ext, m);
	put(b, (uint8_t)imm);
}

void x86_alu_mi32(struct xbuf *b, int ext, struct xmem m, uint32_t imm)
{
	legacy_mem(b, false, 0, m);
	put(b, 0x81);
	modrm_mem(b, ext, m);
	put32(b, imm);
}

void x86_mov_mi(struct xbuf *b, struct xmem m, uint32_t imm)
{
	legacy_mem(b, false, 0, m);
	put(b, 0xC7);
	modrm_mem(b, 0, m);
	put32(b, imm);
}

void x86_mov_mi64(struct xbuf *b, struct xmem m, int32_t imm)
{
	legacy_mem(b, true, 0, m);
	put(b, 0xC7);
	modrm_mem(b, 0, m);
	put32(b, (uint32_t)imm);
}

/* (a REX prefix always: without one, registers 4-7 would be ah, ch, dh, bh) */
void x86_store8(struct xbuf *b, struct xmem m, int s)
{
	int x = m.index >= 0 ? m.index >> 3 : 0, bb = m.base >= 0 ? m.base >> 3 : 0;
	put(b, (uint8_t)(0x40 | (s >= 8) << 2 | x << 1 | bb));
	put(b, 0x88);
	modrm_mem(b, s, m);
}

void x86_mov_mi8(struct xbuf *b, struct xmem m, uint8_t imm)
{
	legacy_mem(b, false, 0, m);
	put(b, 0xC6);
	modrm_mem(b, 0, m);
	put(b, imm);
}

void x86_imul_rr(struct xbuf *b, bool w64, int d, int s)
{
	rex(b, w64, d, s);
	put(b, 0x0F);
	put(b, 0xAF);
	put(b, (uint8_t)(0xC0 | (d & 7) << 3 | (s & 7)));
}

void x86_test_ri(struct xbuf *b, int r, uint32_t imm)
{
	rex(b, false, 0, r);
	put(b, 0xF7);
	put(b, (uint8_t)(0xC0 | (r & 7)));
	put32(b, imm);
}

void x86_popcnt(struct xbuf *b, int d, int s)
{
	put(b, 0xF3);
	rex(b, false, d, s);
	put(b, 0x0F);
	put(b, 0xB8);
	put(b, (uint8_t)(0xC0 | (d & 7) << 3 | (s & 7)));
}

void x86_alu_mr(struct xbuf *b, int opc, bool w64, struct xmem m, int s)
{
	legacy_mem(b, w64, s, m);
	put(b, (uint8_t)opc);
	modrm_mem(b, s, m);
}

/* (the "reg, r/m" opcode is the "r/m, reg" one plus 2: add 03, cmp 3B, ...) */
void x86_alu_rm(struct xbuf *b, int opc, bool w64, int d, struct xmem m)
{
	legacy_mem(b, w64, d, m);
	put(b, (uint8_t)(opc + 2));
	modrm_mem(b, d, m);
}

void x86_alu_m8i(struct xbuf *b, int ext, struct xmem m, uint8_t imm)
{
	legacy_mem(b, false, 0, m);
	put(b, 0x80);
	modrm_mem(b, ext, m);
	put(b, imm);
}

/* (cc as x86_jcc's) */
void x86_cmov_rm(struct xbuf *b, int cc, bool w64, int d, struct xmem m)
{
	legacy_mem(b, w64, d, m);
	put(b, 0x0F);
	put(b, (uint8_t)(0x40 | cc));
	modrm_mem(b, d, m);
}

void x86_imul_rri(struct xbuf *b, bool w64, int d, int s, int32_t imm)
{
	rex(b, w64, d, s);
	put(b, 0x69);
	put(b, (uint8_t)(0xC0 | (d & 7) << 3 | (s & 7)));
	put32(b, (uint32_t)imm);
}

void x86_lea(struct xbuf *b, int d, struct xmem m)
{
	legacy_mem(b, true, d, m);
	put(b, 0x8D);
	modrm_mem(b, d, m);
}

void x86_mov_ri(struct xbuf *b, int d, uint32_t imm)
{
	rex(b, false, 0, d);
	put(b, (uint8_t)(0xB8 | (d & 7)));
	put32(b, imm);
}

void x86_mov_ri64(struct xbuf *b, int d, uint64_t imm)
{
	rex(b, true, 0, d);
	put(b, (uint8_t)(0xB8 | (d & 7)));
	put32(b, (uint32_t)imm);
	put32(b, (uint32_t)(imm >> 32));
}

void x86_push(struct xbuf *b, int r)
{
	rex(b, false, 0, r);
	put(b, (uint8_t)(0x50 | (r & 7)));
}

void x86_pop(struct xbuf *b, int r)
{
	rex(b, false, 0, r);
	put(b, (uint8_t)(0x58 | (r & 7)));
}

/* op rel32 (call, jmp): where the displacement goes, for x86_patch */
static size_t rel32(struct xbuf *b, uint8_t op)
{
	put(b, op);
	size_t at = b->len;
	put32(b, 0);
	return at;
}

/* FF /ext r64 (call 2, jmp 4): the indirect forms */
static void ff_r(struct xbuf *b, int ext, int r)
{
	rex(b, false, 0, r);
	put(b, 0xFF);
	put(b, (uint8_t)(0xC0 | ext << 3 | (r & 7)));
}

size_t x86_call(struct xbuf *b)
{
	return rel32(b, 0xE8);
}

void x86_call_r(struct xbuf *b, int r)
{
	ff_r(b, 2, r);
}

void x86_jmp_m(struct xbuf *b, struct xmem m)
{
	legacy_mem(b, false, 0, m);
	put(b, 0xFF);
	modrm_mem(b, 4, m);
}

void x86_lea_rip(struct xbuf *b, int d, int32_t disp)
{
	rex(b, true, d, 0);
	put(b, 0x8D);
	put(b, (uint8_t)((d & 7) << 3 | 5));
	put32(b, (uint32_t)disp);
}

size_t x86_jcc(struct xbuf *b, int cc)
{
	put(b, 0x0F);
	put(b, (uint8_t)(0x80 | cc));
	size_t at = b->len;
	put32(b, 0);
	return at;
}

size_t x86_jmp(struct xbuf *b)
{
	return rel32(b, 0xE9);
}

void x86_jmp_r(struct xbuf *b, int r)
{
	ff_r(b, 4, r);
}

void x86_patch(struct xbuf *b, size_t at, size_t to)
{
	if (b->oom || at + 4 > b->len)
		return;
	uint32_t rel = (uint32_t)((int64_t)to - (int64_t)(at + 4));
	memcpy(b->p + at, &rel, 4);
}

void x86_vzeroupper(struct xbuf *b)
{
	put(b, 0xC5);
	put(b, 0xF8);
	put(b, 0x77);
}

void x86_ret(struct xbuf *b)
{
	put(b, 0xC3);
}
