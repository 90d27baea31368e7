/*
 * tmap.c - tensor maps: the 128-byte layout (NVIDIA's), the driver's encoding rules, the public
 * encoder (cuTensorMapEncodeTiled / Im2col) and the `tmap:` argument parser.
 *
 * Notes
 * - Layout: NVIDIA's own, inferred from the maps the H100's driver made for the conformance
 *   cases (tests/tmap_vectors.h; TMAP_FIELDS below, docs/tensor-maps.md). Dimensions, boxes
 *   and element strides are stored minus one and strides in 16-byte units, so an all-zero
 *   map is a rank-1 u8 map of one element, which tensormap.replace fills in field by field
 *   as Triton does. Fields no measured map shows (im2col, swizzle atomicity, stride bits
 *   36..39) are ptxi's own, in bytes the driver leaves zero.
 * - The driver's rules (CUDA's cuTensorMapEncodeTiled documentation; what an H100's driver
 *   refused, spec/tensor-h100.md): rank 1..5 (3..5 interleaved or im2col); address 16-byte
 *   aligned (32 with 32B interleave); dimensions 1..2^32; strides multiples of 16 (32 with
 *   32B interleave) below 2^40; box 1..256, and without interleave box[0] * element size a
 *   multiple of 16 bytes and, with a swizzle, at most its span; element strides 1..8; 32B
 *   interleave only with 32B swizzle; NaN fill only for floating-point types; no 128B atom
 *   swizzle on sm_90; interleaved box rows a multiple of 16 bytes (an 8-byte one is refused).
 */
#include "tmap.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/numbers.h"

/* Element types: PTX tensormap.replace code order; `cu` is CUtensorMapDataType. */
static const struct {
	const char *name;
	unsigned size;
	bool flt, tf32;
	int cu;
} elems[] = {
	{"u8", 1, false, false, PTXI_TMAP_U8},     {"u16", 2, false, false, PTXI_TMAP_U16},
	{"u32", 4, false, false, PTXI_TMAP_U32},   {"s32", 4, false, false, PTXI_TMAP_S32},
	{"u64", 8, false, false, PTXI_TMAP_U64},   {"s64", 8, false, false, PTXI_TMAP_S64},
	{"f16", 2, true, false, PTXI_TMAP_F16},    {"f32", 4, true, false, PTXI_TMAP_F32},
	{"f32ftz", 4, true, false, PTXI_TMAP_F32_FTZ}, {"f64", 8, true, false, PTXI_TMAP_F64},
	{"bf16", 2, true, false, PTXI_TMAP_BF16},  {"tf32", 4, true, true, PTXI_TMAP_TF32},
	{"tf32ftz", 4, true, true, PTXI_TMAP_TF32_FTZ},
};
enum { NELEMS = sizeof elems / sizeof elems[0] };

unsigned tmap_elem_size(unsigned e)
{
	return e < NELEMS ? elems[e].size : 0;
}

bool tmap_elem_is_float(unsigned e)
{
	return e < NELEMS && elems[e].flt;
}

bool tmap_elem_is_tf32(unsigned e)
{
	return e < NELEMS && elems[e].tf32;
}

const char *tmap_elem_name(unsigned e)
{
	return e < NELEMS ? elems[e].name : NULL;
}

/* ---- the 128 bytes ---------------------------------------------------------------------- */

/* Where each field lives: bit offset in the 128 bytes (little-endian) and width. Per-dimension
 * fields repeat every `width` bits, dimension 0 (strides: dimension 1) first. The first group
 * is NVIDIA's layout as the H100's driver writes it (tests/tmap_vectors.h); DRV_* fields are
 * written by the driver but not read by the hardware (a map built from zero by
 * tensormap.replace leaves them zero and loads the same); OWN_* fields are ptxi's own, where
 * no measured map pins the place down (bytes 96..127 are zero in every driver map). */
#define TMAP_FIELDS(X)                                                                           \
	X(ADDR, 0, 64)            /* global address */                                           \
	X(RANK, 68, 3)            /* rank - 1 */                                                 \
	X(ELEM, 71, 4)            /* element type, PTX code (tf32: f32's code and TF32 below) */ \
	X(INTERLEAVE, 75, 2)      /* 0 none, 1 16B, 2 32B */                                     \
	X(SWIZZLE, 77, 2)         /* 0 none, 1 32B, 2 64B, 3 128B */                             \
	X(NAN_FILL, 79, 1)        /* out-of-bounds elements read as NaN */                       \
	X(TF32, 80, 1)            /* round f32 to tf32 on load */                                \
	X(L2, 81, 2)              /* L2 promotion: 0 none, 1 64B, 2 128B, 3 256B */              \
	X(STRIDE, 96, 32)         /* x4: global stride of dimensions 1..4, in 16-byte units */   \
	X(DIM, 256, 32)           /* x5: global dimension - 1 */                                 \
	X(ESTRIDE, 416, 3)        /* x5: element stride - 1 */                                   \
	X(BOX, 440, 8)            /* x5: box dimension - 1 */                                    \
	X(DRV_BOX_BYTES, 512, 32) /* element size x product of box / element stride */           \
	X(DRV_SWZ_BYTES, 576, 16) /* swizzle pattern: 16 none, 256 32B, 512 64B, 1024 128B */    \
	X(OWN_IM2COL, 768, 1)     /* mode: 0 tile, 1 im2col */                                   \
	X(OWN_SWZ_ATOM, 776, 2)   /* swizzle atomicity: 0 16B, 1 32B, 2 32B+8B flip, 3 64B */    \
	X(OWN_STRIDE_HI, 784, 4)  /* x4: bits 36..39 of the global strides */                    \
	X(OWN_CHANNELS, 800, 16)  /* im2col channelsPerPixel */                                  \
	X(OWN_PIXELS, 816, 16)    /* im2col pixelsPerColumn */                                   \
	X(OWN_LOWER, 832, 16)     /* x3: im2col lower corner, signed */                          \
	X(OWN_UPPER, 880, 16)     /* x3: im2col upper corner, signed */

enum tmap_bits {
#define F(name, at, width) F_##name,
	TMAP_FIELDS(F)
#undef F
};

static const struct {
	unsigned short at, width;
} fields[] = {
#define F(name, at, width) {at, width},
	TMAP_FIELDS(F)
#undef F
};

/* Field f (entry i of a per-dimension field), bit by bit: a map is read once per copy. */
static uint64_t get(const uint8_t *m, enum tmap_bits f, unsigned i)
{
	unsigned at = fields[f].at + i * fields[f].width;
	uint64_t v = 0;
	for (unsigned b = 0; b < fields[f].width; b++)
		v |= (uint64_t)(m[(at + b) / 8] >> ((at + b) % 8) & 1) << b;
	return v;
}

static void put(uint8_t *m, enum tmap_bits f, unsigned i, uint64_t v)
{
	unsigned at = fields[f].at + i * fields[f].width;
	for (unsigned b = 0; b < fields[f].width; b++) {
		uint8_t bit = (uint8_t)(1u << ((at + b) % 8));
		m[(at + b) / 8] = (uint8_t)((m[(at + b) / 8] & ~bit) | (v >> b & 1 ? bit : 0));
	}
}

/* Element type: the PTX code in ELEM, except tf32 (11) and tf32.ftz (12), which the driver
 * writes as f32 (7) and f32.ftz (8) with the TF32 bit (tf32 measured; tf32.ftz by analogy). */
static void put_elem(uint8_t *m, unsigned elem)
{
	bool tf32 = tmap_elem_is_tf32(elem);
	put(m, F_ELEM, 0, tf32 ? elem - 4 : elem);
	put(m, F_TF32, 0, tf32);
}

enum { ELEM_BAD_TF32 = 0x100 }; /* | type: the TF32 bit on a type that is not f32 */

static unsigned get_elem(const uint8_t *m)
{
	unsigned e = (unsigned)get(m, F_ELEM, 0);
	if (!get(m, F_TF32, 0))
		return e;
	return e == 7 || e == 8 ? e + 4 : ELEM_BAD_TF32 | e;
}

/* Swizzle mode and atomicity fields <-> enum swz_mode. */
static void swz_fields(enum swz_mode s, unsigned *mode, unsigned *atom)
{
	*atom = s >= SWZ_128B_ATOM_32B ? (unsigned)(s - SWZ_128B_ATOM_32B) + 1 : 0;
	*mode = s >= SWZ_128B_ATOM_32B ? 3 : (unsigned)s;
}

static enum swz_mode swz_from_fields(unsigned mode, unsigned atom)
{
	if (atom == 0)
		return mode <= 3 ? (enum swz_mode)mode : SWZ__COUNT;
	return mode == 3 && atom <= 3 ? (enum swz_mode)(SWZ_128B_ATOM_32B + atom - 1) : SWZ__COUNT;
}

/* The driver-only fields, as the driver computes them: the box's bytes take
 * floor(box / element stride) elements in each dimension (7 rows at stride 2 give 3), and the
 * swizzle pattern is 8 rows of its span. */
static void put_driver_fields(uint8_t *m, const struct tmap *t)
{
	uint64_t bytes = tmap_elem_size(t->elem);
	if (t->im2col)
		bytes *= (uint64_t)t->channels * t->pixels;
	for (unsigned i = 0; !t->im2col && i < t->rank; i++)
		bytes *= t->estride[i] ? t->box[i] / t->estride[i] : 0;
	put(m, F_DRV_BOX_BYTES, 0, bytes);
	put(m, F_DRV_SWZ_BYTES, 0, t->swizzle == SWZ_NONE ? 16 : 8 * swz_span(t->swizzle));
}

void tmap_pack(const struct tmap *t, uint8_t m[TMAP_BYTES])
{
	memset(m, 0, TMAP_BYTES);
	put(m, F_ADDR, 0, t->addr);
	put(m, F_RANK, 0, t->rank ? t->rank - 1 : 0);
	put_elem(m, t->elem);
	put(m, F_INTERLEAVE, 0, t->interleave);
	unsigned mode, atom;
	swz_fields(t->swizzle, &mode, &atom);
	put(m, F_SWIZZLE, 0, mode);
	put(m, F_OWN_SWZ_ATOM, 0, atom);
	put(m, F_NAN_FILL, 0, t->nan_fill);
	put(m, F_L2, 0, t->l2);
	for (unsigned i = 0; i < t->rank && i < TMAP_MAX_RANK; i++) {
		if (i) {
			put(m, F_STRIDE, i - 1, t->stride[i] >> 4);
			put(m, F_OWN_STRIDE_HI, i - 1, t->stride[i] >> 36);
		}
		put(m, F_DIM, i, t->dim[i] - 1);
		put(m, F_ESTRIDE, i, t->estride[i] - 1);
		if (!t->im2col)
			put(m, F_BOX, i, t->box[i] - 1);
	}
	put(m, F_OWN_IM2COL, 0, t->im2col);
	if (t->im2col) {
		put(m, F_OWN_CHANNELS, 0, t->channels);
		put(m, F_OWN_PIXELS, 0, t->pixels);
		for (unsigned i = 0; i < 3; i++) {
			put(m, F_OWN_LOWER, i, (uint16_t)t->lower[i]);
			put(m, F_OWN_UPPER, i, (uint16_t)t->upper[i]);
		}
	}
	put_driver_fields(m, t);
}

void tmap_unpack(const uint8_t m[TMAP_BYTES], struct tmap *t)
{
	memset(t, 0, sizeof *t);
	t->addr = get(m, F_ADDR, 0);
	t->rank = (unsigned)get(m, F_RANK, 0) + 1;
	t->elem = get_elem(m);
	t->interleave = (unsigned)get(m, F_INTERLEAVE, 0);
	t->swizzle = swz_from_fields((unsigned)get(m, F_SWIZZLE, 0),
				     (unsigned)get(m, F_OWN_SWZ_ATOM, 0));
	t->nan_fill = get(m, F_NAN_FILL, 0);
	t->l2 = (unsigned)get(m, F_L2, 0);
	t->im2col = get(m, F_OWN_IM2COL, 0);
	for (unsigned i = 0; i < TMAP_MAX_RANK; i++) {
		if (i) {
			uint64_t units = get(m, F_STRIDE, i - 1) | get(m, F_OWN_STRIDE_HI, i - 1) << 32;
			t->stride[i] = units << 4;
		}
		t->dim[i] = get(m, F_DIM, i) + 1;
		t->estride[i] = (uint32_t)get(m, F_ESTRIDE, i) + 1;
		t->box[i] = t->im2col ? 0 : (uint32_t)get(m, F_BOX, i) + 1;
	}
	if (t->im2col) {
		t->channels = (uint32_t)get(m, F_OWN_CHANNELS, 0);
		t->pixels = (uint32_t)get(m, F_OWN_PIXELS, 0);
		for (unsigned i = 0; i < 3; i++) {
			t->lower[i] = (int16_t)get(m, F_OWN_LOWER, i);
			t->upper[i] = (int16_t)get(m, F_OWN_UPPER, i);
		}
	}
}

/* Write field f (entry i) when `ok`; says whether it did. */
static bool put_if(uint8_t *m, enum tmap_bits f, unsigned i, uint64_t v, bool ok)
{
	if (ok)
		put(m, f, i, v);
	return ok;
}

/* tensormap.replace writes only the field it names (the driver-only fields keep what they
 * held: the H100 leaves them as they were). A value outside the field's range is not written. */
bool tmap_replace(uint8_t m[TMAP_BYTES], enum tmap_field f, unsigned ord, uint64_t v)
{
	if (ord >= TMAP_MAX_RANK)
		return false;
	switch (f) {
	case TMF_GLOBAL_ADDRESS:
		put(m, F_ADDR, 0, v);
		return true;
	case TMF_RANK: /* written as rank-1 */
		return put_if(m, F_RANK, 0, v, v < TMAP_MAX_RANK);
	case TMF_BOX_DIM:
		return put_if(m, F_BOX, ord, v - 1, v >= 1 && v <= 256);
	case TMF_GLOBAL_DIM:
		return put_if(m, F_DIM, ord, v - 1, v >= 1 && v <= 1ull << 32);
	case TMF_GLOBAL_STRIDE: /* ord counts dimensions 1..4 from 0 */
		if (ord > 3 || v % 16 || v >= 1ull << 40)
			return false;
		put(m, F_STRIDE, ord, v >> 4);
		put(m, F_OWN_STRIDE_HI, ord, v >> 36);
		return true;
	case TMF_ELEMENT_STRIDE:
		return put_if(m, F_ESTRIDE, ord, v - 1, v >= 1 && v <= 8);
	case TMF_ELEMTYPE:
		if (v >= NELEMS)
			return false;
		put_elem(m, (unsigned)v);
		return true;
	case TMF_INTERLEAVE_LAYOUT:
		return put_if(m, F_INTERLEAVE, 0, v, v <= 2);
	case TMF_SWIZZLE_MODE:
		return put_if(m, F_SWIZZLE, 0, v, v <= 3);
	case TMF_SWIZZLE_ATOMICITY:
		return put_if(m, F_OWN_SWZ_ATOM, 0, v, v <= 3);
	case TMF_FILL_MODE:
		return put_if(m, F_NAN_FILL, 0, v, v <= 1);
	}
	return false;
}

/* ---- the driver's rules ----------------------------------------------------------------- */

static bool refuse(char *why, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool refuse(char *why, size_t n, const char *fmt, ...)
{
	if (why && n) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(why, n, fmt, ap);
		va_end(ap);
	}
	return false;
}

static bool check_dims(const struct tmap *t, unsigned es, char *why, size_t n)
{
	uint64_t salign = t->interleave == 2 ? 32 : 16;
	for (unsigned i = 0; i < t->rank; i++) {
		if (t->dim[i] == 0 || t->dim[i] > 1ull << 32)
			return refuse(why, n, "globalDim[%u] is %" PRIu64 "; it must be 1 to 2^32", i,
				      t->dim[i]);
		if (i && (t->stride[i] % salign || t->stride[i] >= 1ull << 40))
			return refuse(why, n, "globalStrides[%u] is %" PRIu64 "; it must be a multiple of "
				      "%" PRIu64 " below 2^40", i - 1, t->stride[i], salign);
		if (t->estride[i] < 1 || t->estride[i] > 8)
			return refuse(why, n, "elementStrides[%u] is %u; it must be 1 to 8", i,
				      t->estride[i]);
		if (t->im2col)
			continue;
		if (t->box[i] < 1 || t->box[i] > 256)
			return refuse(why, n, "boxDim[%u] is %u; it must be 1 to 256", i, t->box[i]);
	}
	if (t->im2col)
		return true;
	uint32_t row = t->box[0] * es, span = swz_span(t->swizzle);
	if (row % 16)
		return refuse(why, n, "boxDim[0] x element size is %u bytes, not a multiple of 16",
			      row);
	if (!t->interleave && span && row > span)
		return refuse(why, n, "boxDim[0] x element size is %u bytes, more than the %s "
			      "swizzle span", row, swz_name(t->swizzle));
	return true;
}

static bool check_im2col(const struct tmap *t, unsigned es, char *why, size_t n)
{
	static const int lim[] = {0, 0, 0, 32768, 128, 16};
	for (unsigned i = 0; i + 2 < t->rank; i++)
		if (t->lower[i] < -lim[t->rank] || t->lower[i] >= lim[t->rank] ||
		    t->upper[i] < -lim[t->rank] || t->upper[i] >= lim[t->rank])
			return refuse(why, n, "pixelBoxLowerCorner/UpperCorner[%u] (%d, %d) is outside "
				      "[%d, %d] for rank %u", i, t->lower[i], t->upper[i], -lim[t->rank],
				      lim[t->rank] - 1, t->rank);
	if (t->channels < 1 || t->channels > 256)
		return refuse(why, n, "channelsPerPixel is %u; it must be 1 to 256", t->channels);
	if (t->pixels < 1 || t->pixels > 1024)
		return refuse(why, n, "pixelsPerColumn is %u; it must be 1 to 1024", t->pixels);
	uint32_t row = t->channels * es, span = swz_span(t->swizzle);
	if (row % 16)
		return refuse(why, n, "channelsPerPixel x element size is %u bytes, not a multiple "
			      "of 16", row);
	if (!t->interleave && span && row > span)
		return refuse(why, n, "channelsPerPixel x element size is %u bytes, more than the %s "
			      "swizzle span", row, swz_name(t->swizzle));
	return true;
}

bool tmap_check(const struct tmap *t, char *why, size_t n)
{
	unsigned es = tmap_elem_size(t->elem);
	if (t->elem & ELEM_BAD_TF32)
		return refuse(why, n, "the tf32 bit is set on element type %u, not on f32",
			      t->elem & ~ELEM_BAD_TF32);
	if (!es)
		return refuse(why, n, "tensorDataType %u is not a type of sm_90", t->elem);
	unsigned minrank = t->interleave || t->im2col ? 3 : 1;
	if (t->rank < minrank || t->rank > TMAP_MAX_RANK)
		return refuse(why, n, "tensorRank is %u; it must be %u to 5%s", t->rank, minrank,
			      minrank == 3 ? (t->im2col ? " for im2col" : " when interleaved") : "");
	if (t->interleave > 2)
		return refuse(why, n, "interleave %u is not none, 16B or 32B", t->interleave);
	if (t->swizzle >= SWZ__COUNT)
		return refuse(why, n, "the swizzle mode and atomicity fields name no swizzle");
	if (t->swizzle >= SWZ_128B_ATOM_32B)
		return refuse(why, n, "swizzle %s is not available on sm_90", swz_name(t->swizzle));
	if (t->interleave == 2 && t->swizzle != SWZ_32B)
		return refuse(why, n, "swizzle is %s; a 32B-interleaved map needs 32B",
			      swz_name(t->swizzle));
	if (t->l2 > 3)
		return refuse(why, n, "l2Promotion %u is not none, 64B, 128B or 256B", t->l2);
	if (t->nan_fill && !tmap_elem_is_float(t->elem))
		return refuse(why, n, "oobFill NaN needs a floating-point type, not %s",
			      tmap_elem_name(t->elem));
	uint64_t aalign = t->interleave == 2 ? 32 : 16;
	if (t->addr % aalign)
		return refuse(why, n, "globalAddress 0x%" PRIx64 " is not %" PRIu64 "-byte aligned",
			      t->addr, aalign);
	if (!check_dims(t, es, why, n))
		return false;
	return !t->im2col || check_im2col(t, es, why, n);
}

/* ---- public encoder --------------------------------------------------------------------- */

static bool from_params(const struct ptxi_tmap_params *p, struct tmap *t, char *why, size_t n)
{
	memset(t, 0, sizeof *t);
	t->elem = NELEMS;
	for (unsigned i = 0; i < NELEMS; i++)
		if (elems[i].cu == (int)p->type)
			t->elem = i;
	if (t->elem == NELEMS)
		return refuse(why, n, "tensorDataType %u is not a type of sm_90", (unsigned)p->type);
	if (p->rank < 1 || p->rank > TMAP_MAX_RANK)
		return refuse(why, n, "tensorRank is %u; it must be 1 to 5", p->rank);
	if (p->swizzle >= SWZ__COUNT)
		return refuse(why, n, "swizzle %u is not a CUtensorMapSwizzle", p->swizzle);
	if (p->oob_fill > 1)
		return refuse(why, n, "oobFill %u is not none or NaN", p->oob_fill);
	t->addr = p->global_address;
	t->rank = p->rank;
	for (unsigned i = 0; i < p->rank; i++) {
		t->dim[i] = p->global_dim[i];
		t->stride[i] = i ? p->global_strides[i - 1] : 0;
		t->box[i] = p->im2col ? 0 : p->box_dim[i];
		t->estride[i] = p->element_strides[i];
	}
	t->interleave = p->interleave;
	t->swizzle = (enum swz_mode)p->swizzle;
	t->l2 = p->l2_promotion;
	t->nan_fill = p->oob_fill == 1;
	t->im2col = p->im2col;
	for (unsigned i = 0; p->im2col && i < 3; i++) {
		t->lower[i] = p->pixel_box_lower[i];
		t->upper[i] = p->pixel_box_upper[i];
	}
	t->channels = p->im2col ? p->channels_per_pixel : 0;
	t->pixels = p->im2col ? p->pixels_per_column : 0;
	return true;
}

int ptxi_tmap_encode(void *map, const struct ptxi_tmap_params *p, char *why, size_t whylen)
{
	struct tmap t;
	if (!from_params(p, &t, why, whylen) || !tmap_check(&t, why, whylen))
		return PTXI_INVALID;
	tmap_pack(&t, map);
	return PTXI_OK;
}

int ptxi_tmap_encode_tiled(void *map, enum ptxi_tmap_type type, unsigned rank, uint64_t address,
			   const uint64_t *global_dim, const uint64_t *global_strides,
			   const uint32_t *box_dim, const uint32_t *element_strides,
			   unsigned interleave, unsigned swizzle, unsigned l2_promotion,
			   unsigned oob_fill, char *why, size_t whylen)
{
	struct ptxi_tmap_params p = {.type = type, .rank = rank, .global_address = address,
				     .interleave = interleave, .swizzle = swizzle,
				     .l2_promotion = l2_promotion, .oob_fill = oob_fill};
	for (unsigned i = 0; i < rank && i < TMAP_MAX_RANK; i++) {
		p.global_dim[i] = global_dim[i];
		p.box_dim[i] = box_dim[i];
		p.element_strides[i] = element_strides[i];
		if (i)
			p.global_strides[i - 1] = global_strides[i - 1];
	}
	return ptxi_tmap_encode(map, &p, why, whylen);
}

/* ---- the tmap: spec ----------------------------------------------------------------------- */

/* "AxBxC" into up to `max` values; returns how many, or -1 when malformed. */
static int parse_list(const char *s, size_t len, int64_t *out, int max, bool sgn)
{
	int n = 0;
	const char *end = s + len;
	while (s < end) {
		if (n == max)
			return -1;
		const char *e;
		uint64_t u = 0;
		bool neg = sgn && *s == '-';
		if (!num_scan(s + neg, false, &e, &u) || e > end || u > (uint64_t)INT64_MAX)
			return -1;
		out[n++] = neg ? -(int64_t)u : (int64_t)u;
		s = e;
		if (s < end && *s++ != 'x')
			return -1;
		if (s == end && s[-1] == 'x')
			return -1;
	}
	return n;
}

static int pick(const char *v, size_t len, const char *const *names, unsigned count)
{
	for (unsigned i = 0; i < count; i++)
		if (strlen(names[i]) == len && strncmp(v, names[i], len) == 0)
			return (int)i;
	return -1;
}

static int pick_swizzle(const char *v, size_t len)
{
	for (unsigned m = 0; m < SWZ__COUNT; m++)
		if (strlen(swz_name(m)) == len && strncmp(v, swz_name(m), len) == 0)
			return (int)m;
	return -1;
}

struct spec_state {
	struct ptxi_tmap_params *p;
	int64_t dims[5], strides[5], box[5], estr[5], lower[5], upper[5];
	int ndims, nstrides, nbox, nestr, nlower, nupper;
	bool have_buf, have_type, have_channels, have_pixels;
};

/* One key=value of the spec. */
static bool spec_item(struct spec_state *st, const char *k, size_t kl, const char *v, size_t vl,
		      unsigned *buf_arg, uint64_t *buf_off, char *why, size_t n)
{
	static const char *const il[] = {"none", "16B", "32B"};
	static const char *const l2[] = {"none", "64B", "128B", "256B"};
	static const char *const fill[] = {"zero", "nan"};
	static const char *const mode[] = {"tile", "im2col"};
	struct ptxi_tmap_params *p = st->p;
#define KEY(s) (kl == sizeof(s) - 1 && strncmp(k, s, kl) == 0)
	int i;
	if (KEY("buf")) {
		const char *e;
		uint64_t a = 0, off = 0;
		bool ok = num_scan(v, false, &e, &a);
		if (ok && e < v + vl && *e == '+')
			ok = num_scan(e + 1, true, &e, &off);
		if (!ok || e != v + vl || a > 63)
			return refuse(why, n, "buf=%.*s: want the index of a buffer argument, "
				      "optionally +BYTES", (int)vl, v);
		*buf_arg = (unsigned)a;
		*buf_off = off;
		st->have_buf = true;
		return true;
	}
	if (KEY("type")) {
		for (unsigned t = 0; t < NELEMS; t++)
			if (strlen(elems[t].name) == vl && strncmp(v, elems[t].name, vl) == 0) {
				p->type = (enum ptxi_tmap_type)elems[t].cu;
				st->have_type = true;
				return true;
			}
		return refuse(why, n, "type=%.*s is not u8 u16 u32 s32 u64 s64 f16 f32 f64 bf16 "
			      "f32ftz tf32 tf32ftz", (int)vl, v);
	}
	struct { const char *key; int64_t *out; int *count; bool sgn; } lists[] = {
		{"dims", st->dims, &st->ndims, false},     {"strides", st->strides, &st->nstrides, false},
		{"box", st->box, &st->nbox, false},        {"estrides", st->estr, &st->nestr, false},
		{"lower", st->lower, &st->nlower, true},   {"upper", st->upper, &st->nupper, true},
	};
	for (unsigned j = 0; j < sizeof lists / sizeof lists[0]; j++)
		if (strlen(lists[j].key) == kl && strncmp(k, lists[j].key, kl) == 0) {
			*lists[j].count = parse_list(v, vl, lists[j].out, 5, lists[j].sgn);
			if (*lists[j].count < 1)
				return refuse(why, n, "%s=%.*s: want 1 to 5 numbers joined by 'x'",
					      lists[j].key, (int)vl, v);
			return true;
		}
	if (KEY("channels") || KEY("pixels")) {
		const char *e;
		uint64_t x;
		if (!num_scan(v, true, &e, &x) || e != v + vl || x > 0xffffffffu)
			return refuse(why, n, "%.*s=%.*s is not a count", (int)kl, k, (int)vl, v);
		if (KEY("channels")) {
			p->channels_per_pixel = (uint32_t)x;
			st->have_channels = true;
		} else {
			p->pixels_per_column = (uint32_t)x;
			st->have_pixels = true;
		}
		return true;
	}
	if (KEY("interleave") && (i = pick(v, vl, il, 3)) >= 0)
		p->interleave = (unsigned)i;
	else if (KEY("swizzle") && (i = pick_swizzle(v, vl)) >= 0)
		p->swizzle = (unsigned)i;
	else if (KEY("l2") && (i = pick(v, vl, l2, 4)) >= 0)
		p->l2_promotion = (unsigned)i;
	else if (KEY("fill") && (i = pick(v, vl, fill, 2)) >= 0)
		p->oob_fill = (unsigned)i;
	else if (KEY("mode") && (i = pick(v, vl, mode, 2)) >= 0)
		p->im2col = i == 1;
	else if (KEY("interleave") || KEY("swizzle") || KEY("l2") || KEY("fill") || KEY("mode"))
		return refuse(why, n, "%.*s=%.*s is not one of its values (see ptxi --help)",
			      (int)kl, k, (int)vl, v);
	else
		return refuse(why, n, "unknown parameter '%.*s'", (int)kl, k);
	return true;
#undef KEY
}

/* Counts of the lists must agree with the rank the dims give. */
static bool spec_finish(struct spec_state *st, char *why, size_t n)
{
	struct ptxi_tmap_params *p = st->p;
	if (!st->have_buf || !st->have_type || !st->ndims)
		return refuse(why, n, "buf=, type= and dims= are required");
	unsigned rank = (unsigned)st->ndims;
	p->rank = rank;
	if (st->nstrides != (int)rank - 1 && !(rank == 1 && st->nstrides == 0))
		return refuse(why, n, "strides= gives %d values; a rank-%u map has %u", st->nstrides,
			      rank, rank - 1);
	if (p->im2col) {
		if (st->nbox)
			return refuse(why, n, "box= is not a parameter of an im2col map");
		if (st->nlower != (int)rank - 2 || st->nupper != (int)rank - 2 || rank < 3)
			return refuse(why, n, "lower= and upper= need rank-2 values each (rank %u)",
				      rank);
		if (!st->have_channels || !st->have_pixels)
			return refuse(why, n, "an im2col map needs channels= and pixels=");
	} else {
		if (st->nbox != (int)rank)
			return refuse(why, n, "box= gives %d values; a rank-%u map has %u", st->nbox,
				      rank, rank);
		if (st->nlower || st->nupper || st->have_channels || st->have_pixels)
			return refuse(why, n, "lower=, upper=, channels= and pixels= need mode=im2col");
	}
	if (st->nestr && st->nestr != (int)rank)
		return refuse(why, n, "estrides= gives %d values; a rank-%u map has %u", st->nestr,
			      rank, rank);
	for (unsigned i = 0; i < rank; i++) {
		p->global_dim[i] = (uint64_t)st->dims[i];
		if (i)
			p->global_strides[i - 1] = (uint64_t)st->strides[i - 1];
		p->box_dim[i] = p->im2col ? 0 : st->box[i] > 0xffff ? 0xffff : (uint32_t)st->box[i];
		p->element_strides[i] = st->nestr ? (st->estr[i] > 0xff ? 0xff : (uint32_t)st->estr[i])
						  : 1;
	}
	for (unsigned i = 0; p->im2col && i + 2 < rank; i++) {
		p->pixel_box_lower[i] = (int)(st->lower[i] < -65536 ? -65536 : st->lower[i] > 65536 ?
					      65536 : st->lower[i]);
		p->pixel_box_upper[i] = (int)(st->upper[i] < -65536 ? -65536 : st->upper[i] > 65536 ?
					      65536 : st->upper[i]);
	}
	/* every rule but the address's alignment (the address is known at launch) */
	struct tmap t;
	p->global_address = 0;
	return from_params(p, &t, why, n) && tmap_check(&t, why, n);
}

/* Whether key k is one of the items of spec before `upto` (a key given twice is an error,
 * not the last one winning). */
static bool said_before(const char *spec, const char *upto, const char *k, size_t kl)
{
	for (const char *s = spec; s < upto; s += strcspn(s, ",") + 1) {
		const char *eq = memchr(s, '=', strcspn(s, ","));
		if (eq && (size_t)(eq - s) == kl && strncmp(s, k, kl) == 0)
			return true;
	}
	return false;
}

int ptxi_tmap_parse(const char *spec, struct ptxi_tmap_params *p, unsigned *buf_arg,
		    uint64_t *buf_off, char *why, size_t whylen)
{
	memset(p, 0, sizeof *p);
	*buf_arg = 0;
	*buf_off = 0;
	struct spec_state st = {.p = p};
	for (const char *s = spec; *s;) {
		const char *comma = strchr(s, ',');
		size_t len = comma ? (size_t)(comma - s) : strlen(s);
		const char *eq = memchr(s, '=', len);
		if (!eq)
			return refuse(why, whylen, "'%.*s' is not KEY=VALUE", (int)len, s),
			       PTXI_INVALID;
		if (said_before(spec, s, s, (size_t)(eq - s)))
			return refuse(why, whylen, "%.*s= is given twice", (int)(eq - s), s),
			       PTXI_INVALID;
		if (!spec_item(&st, s, (size_t)(eq - s), eq + 1, len - (size_t)(eq - s) - 1, buf_arg,
			       buf_off, why, whylen))
			return PTXI_INVALID;
		s += len + (comma ? 1 : 0);
	}
	return spec_finish(&st, why, whylen) ? PTXI_OK : PTXI_INVALID;
}
