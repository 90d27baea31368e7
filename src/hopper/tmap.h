/*
 * tmap.h - tensor maps (the 128-byte CUtensorMap): NVIDIA's layout of the 128 bytes,
 * the driver's encoding rules (cuTensorMapEncodeTiled / Im2col), and the `tmap:` argument
 * spec. The executor reads maps through tmap_unpack; tensormap.replace writes fields with
 * tmap_replace. docs/tensor-maps.md describes the layout.
 */
#ifndef PTXI_TMAP_H
#define PTXI_TMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ptxi/ptxi.h"
#include "swizzle.h"

enum { TMAP_BYTES = 128, TMAP_MAX_RANK = 5 };

/* A decoded tensor map. Element types are the PTX tensormap.replace codes (tmap_elem_*). */
struct tmap {
	uint64_t addr;              /* global address of the tensor                          */
	unsigned rank;              /* 1..5                                                   */
	unsigned elem;              /* PTX elemtype code: 0 u8 ... 6 f16, 7 f32, 10 bf16 ...  */
	uint64_t dim[TMAP_MAX_RANK];
	uint64_t stride[TMAP_MAX_RANK]; /* bytes; stride[0] is unused (elements are packed)  */
	uint32_t box[TMAP_MAX_RANK];
	uint32_t estride[TMAP_MAX_RANK];
	unsigned interleave;        /* 0 none, 1 16B, 2 32B                                   */
	enum swz_mode swizzle;
	unsigned l2;                /* 0 none, 1 64B, 2 128B, 3 256B                          */
	bool nan_fill;              /* out-of-bounds elements read as 0x7ff7 repeated         */
	bool im2col;
	int lower[3], upper[3];     /* im2col pixel box corners, W first (rank-2 entries)    */
	uint32_t channels, pixels;  /* im2col channelsPerPixel, pixelsPerColumn              */
};

void tmap_pack(const struct tmap *t, uint8_t out[TMAP_BYTES]);
void tmap_unpack(const uint8_t in[TMAP_BYTES], struct tmap *t);
/* Whether the driver would encode t (the address included): false with the parameter at
 * fault and why in `why`. */
bool tmap_check(const struct tmap *t, char *why, size_t n);
/* Element size in bytes, whether it is a floating-point type (NaN fill allowed), whether a
 * TF32 type (rounded on load), its name; 0 / NULL for an unknown code. */
unsigned tmap_elem_size(unsigned elem);
bool tmap_elem_is_float(unsigned elem);
bool tmap_elem_is_tf32(unsigned elem);
const char *tmap_elem_name(unsigned elem);

/* tensormap.replace fields (ISA 9.7.9.28), in mods.def order of their words. */
enum tmap_field {
	TMF_GLOBAL_ADDRESS,
	TMF_RANK,
	TMF_BOX_DIM,
	TMF_GLOBAL_DIM,
	TMF_GLOBAL_STRIDE,
	TMF_ELEMENT_STRIDE,
	TMF_ELEMTYPE,
	TMF_INTERLEAVE_LAYOUT,
	TMF_SWIZZLE_MODE,
	TMF_SWIZZLE_ATOMICITY,
	TMF_FILL_MODE,
};
/* Write one field of the packed map `m` as tensormap.replace does (rank as rank-1, strides
 * in bytes, element type by PTX code); nothing else changes. False (and nothing written)
 * when the field cannot hold the value. */
bool tmap_replace(uint8_t m[TMAP_BYTES], enum tmap_field f, unsigned ord, uint64_t v);

#endif
