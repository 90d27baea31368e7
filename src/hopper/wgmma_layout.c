/*
 * wgmma_layout.c - matrix descriptors and register fragments of wgmma.mma_async
 * (ISA 9.7.15.5.1). The shared-memory layouts, per 16-byte piece (T elements of 16 bytes):
 *
 *   K-major, no swizzle:   row r, piece p at (r % 8) * 16 + (r / 8) * SBO + p * LBO
 *   K-major, swizzle W:    row r, piece p at (r % 8) * W  + (r / 8) * SBO + p * 16
 *   MN-major, no swizzle:  K index k, piece p at (k % 8) * 16 + (k / 8) * LBO + p * SBO
 *   MN-major, swizzle W:   K index k, piece p at (k % 8) * W + (k / 8) * SBO
 *                                                 + (p % (W/16)) * 16 + (p / (W/16)) * LBO
 *
 * all from the start address, then swizzled by address (swizzle.c). The H100 cases with the
 * descriptors of conformance/tensor (K-major, MN-major A and B, no swizzle; TMA-written 32B and
 * 64B swizzle) read exactly these bytes.
 */
#include "wgmma_layout.h"

#include "swizzle.h"

static enum swz_mode mode_of(uint32_t span)
{
	return span == 128 ? SWZ_128B : span == 64 ? SWZ_64B : span == 32 ? SWZ_32B : SWZ_NONE;
}

void wg_desc_decode(uint64_t v, struct wg_desc *d)
{
	static const uint32_t spans[4] = {0, 128, 64, 32};
	d->start = (uint32_t)(v & 0x3fff) << 4;
	d->lbo = (uint32_t)(v >> 16 & 0x3fff) << 4;
	d->sbo = (uint32_t)(v >> 32 & 0x3fff) << 4;
	d->base = (uint32_t)(v >> 49 & 7);
	d->swizzle = spans[v >> 62];
}

uint32_t wg_piece_addr(const struct wg_desc *d, bool mn_major, uint32_t row, uint32_t piece)
{
	uint32_t w = d->swizzle, a;
	if (!w) {
		a = mn_major ? (row % 8) * 16 + (row / 8) * d->lbo + piece * d->sbo
			     : (row % 8) * 16 + (row / 8) * d->sbo + piece * d->lbo;
		return d->start + a;
	}
	uint32_t per = w / 16;
	a = mn_major ? (row % 8) * w + (row / 8) * d->sbo + (piece % per) * 16 + (piece / per) * d->lbo
		     : (row % 8) * w + (row / 8) * d->sbo + piece * 16;
	/* The pattern repeats from a boundary of 8 rows (ISA: 1024/512/256 bytes); a base offset
	 * says where in it the matrix starts. */
	uint32_t shift = d->base * 128;
	return swz_addr(mode_of(w), d->start + a - shift) + shift;
}

void wg_a_elem(unsigned bits, unsigned lane, unsigned e, unsigned *row, unsigned *k)
{
	unsigned g = lane / 4, t = lane % 4;
	switch (bits) {
	case 32: /* tf32, k8: one element a register */
		*row = g + 8 * (e & 1);
		*k = t + 4 * (e >> 1);
		break;
	case 16: /* f16/bf16, k16: two a register */
		*row = g + 8 * (e >> 1 & 1);
		*k = 2 * t + (e & 1) + 8 * (e >> 2);
		break;
	default: /* 8-bit, k32: four a register */
		*row = g + 8 * (e >> 2 & 1);
		*k = 4 * t + (e & 3) + 16 * (e >> 3);
		break;
	}
}
