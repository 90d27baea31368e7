/*
 * swizzle.h - the shared-memory swizzle of TMA tensor copies and wgmma matrix descriptors:
 * one function of the shared byte address (as the H100 does it), for the modes a tensor map
 * or a descriptor names. Nothing else in ptxi computes a swizzled address.
 */
#ifndef PTXI_SWIZZLE_H
#define PTXI_SWIZZLE_H

#include <stdint.h>

/* In the order of CUtensorMapSwizzle (and of tensormap.replace's swizzle_mode for the first
 * four). The atom modes swizzle 32- or 64-byte granules in a 128-byte span; the driver
 * refuses them on sm_90 (spec/tensor-h100.md), so only wgmma-style callers could reach them. */
enum swz_mode {
	SWZ_NONE,
	SWZ_32B,
	SWZ_64B,
	SWZ_128B,
	SWZ_128B_ATOM_32B,
	SWZ_128B_ATOM_32B_FLIP_8B,
	SWZ_128B_ATOM_64B,
	SWZ__COUNT
};

/* The byte address the hardware uses for the logical shared address `addr`. It is its own
 * inverse (it only XORs low bits with bits it leaves alone), so it maps both ways. */
uint32_t swz_addr(enum swz_mode m, uint32_t addr);
/* The span a box row occupies under the mode: 32, 64 or 128 bytes; 0 for SWZ_NONE. */
uint32_t swz_span(enum swz_mode m);
/* "none", "32B", ... "128B_atom_64B" (the --arg tmap: spelling). */
const char *swz_name(enum swz_mode m);

#endif
