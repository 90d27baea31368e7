/*
 * wgmma_layout.h - where wgmma.mma_async finds its operands (ISA 9.7.15.5.1): the matrix
 * descriptor of a shared-memory operand and the address of each 16-byte piece of it, K-major
 * or MN-major, under each swizzle mode; the register fragments of A and D (which thread and
 * register hold which element). Pure functions: exec_wgmma.c moves the data.
 */
#ifndef PTXI_WGMMA_LAYOUT_H
#define PTXI_WGMMA_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>

/* A decoded 64-bit matrix descriptor (ISA 9.7.15.5.1.2.2). */
struct wg_desc {
	uint32_t start;         /* shared::cta byte address: bits 13-0, times 16              */
	uint32_t lbo, sbo;      /* leading / stride dimension byte offsets (bits 29-16, 45-32) */
	uint32_t base;          /* matrix base offset (bits 51-49)                            */
	uint32_t swizzle;       /* bits 63-62 read as a span: 0 (none), 128, 64 or 32 bytes    */
};

void wg_desc_decode(uint64_t v, struct wg_desc *d);

/*
 * The shared address of the 16 bytes of an operand tile that hold:
 *   K-major (mn_major false): row `row` (an M or N index) and K bytes [16*piece, 16*piece+16)
 *     of that row (the 32 K bytes of one wgmma are pieces 0 and 1);
 *   MN-major (16-bit types only): K index `row` and the 8 M or N elements [8*piece, 8*piece+8).
 * Core matrices are 8 rows of 16 bytes; with a swizzle mode a row spans the swizzle width and
 * the address is swizzled as the TMA swizzles it (a function of the address, shifted by the
 * base offset).
 */
uint32_t wg_piece_addr(const struct wg_desc *d, bool mn_major, uint32_t row, uint32_t piece);

/*
 * Fragments, for lane `lane` of the warp that holds rows [16*w, 16*w+16) of the tile:
 *   A element e of the thread (register e / per_reg, part e % per_reg; per_reg = 32 / bits):
 *     its row (0..15, within the warp's rows) and K index;
 *   D element i (f32/s32 register i; an f16 register j holds i = 2j low, 2j+1 high):
 *     its row (0..15) and column (0..N-1).
 */
void wg_a_elem(unsigned bits, unsigned lane, unsigned e, unsigned *row, unsigned *k);
static inline void wg_d_elem(unsigned lane, unsigned i, unsigned *row, unsigned *col)
{ /* inline: it runs for every element of every wgmma's C and D */
	*row = lane / 4 + 8 * (i >> 1 & 1);
	*col = 8 * (i >> 2) + 2 * (lane % 4) + (i & 1);
}

#endif
