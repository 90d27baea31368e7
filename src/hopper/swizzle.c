/*
 * swizzle.c - address-based shared-memory swizzle (spec/tensor-h100.md, "TMA").
 *
 * Notes
 * - The 16-byte chunk index inside a span (address bits [4, 4+k)) is XORed with the row
 *   index of 128-byte rows (address bits [7, 7+k)): k = 3 for 128B, 2 for 64B, 1 for 32B.
 *   It depends on the address, not on the offset inside a box: a destination at base+128
 *   shifts the pattern by a row (measured on the H100).
 * - The 128B atom modes (sm_100 and later; the driver refuses them on sm_90) swap 32- or
 *   64-byte granules instead of 16-byte chunks: granule index bits [5,7) or [6,7) XOR the
 *   row bits [7,9) or [7,8); FLIP_8B also swaps the 8-byte halves of each 16-byte chunk on
 *   odd rows (bit 3 ^= bit 7). This reading of CUDA's one-line descriptions was not measured.
 */
#include "swizzle.h"

static const struct {
	const char *name;
	uint32_t span;
} modes[SWZ__COUNT] = {
	[SWZ_NONE] = {"none", 0},
	[SWZ_32B] = {"32B", 32},
	[SWZ_64B] = {"64B", 64},
	[SWZ_128B] = {"128B", 128},
	[SWZ_128B_ATOM_32B] = {"128B_atom_32B", 128},
	[SWZ_128B_ATOM_32B_FLIP_8B] = {"128B_atom_32B_flip_8B", 128},
	[SWZ_128B_ATOM_64B] = {"128B_atom_64B", 128},
};

uint32_t swz_addr(enum swz_mode m, uint32_t addr)
{
	uint32_t row = addr >> 7;
	switch (m) {
	case SWZ_32B:
		return addr ^ (row & 1) << 4;
	case SWZ_64B:
		return addr ^ (row & 3) << 4;
	case SWZ_128B:
		return addr ^ (row & 7) << 4;
	case SWZ_128B_ATOM_32B:
		return addr ^ (row & 3) << 5;
	case SWZ_128B_ATOM_32B_FLIP_8B:
		return addr ^ (row & 3) << 5 ^ (row & 1) << 3;
	case SWZ_128B_ATOM_64B:
		return addr ^ (row & 1) << 6;
	default:
		return addr;
	}
}

uint32_t swz_span(enum swz_mode m)
{
	return m < SWZ__COUNT ? modes[m].span : 0;
}

const char *swz_name(enum swz_mode m)
{
	return m < SWZ__COUNT ? modes[m].name : "?";
}
