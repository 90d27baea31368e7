/*
 * test_tmap.c - src/hopper/swizzle.c and src/hopper/tmap.c: the address-based swizzle, the 128-byte map
 * layout (pack, unpack, tensormap.replace fields) against the bytes the H100's driver and
 * tensormap.replace made, the `tmap:` spec parser and every refusal of the encoder, with
 * its exact message.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hopper/swizzle.h"
#include "hopper/tmap.h"
#include "tmap_vectors.h"

/* 256 hex digits -> 128 bytes. */
static void unhex(const char *h, uint8_t out[TMAP_BYTES])
{
	assert_int_equal(strlen(h), 2 * TMAP_BYTES);
	for (unsigned i = 0; i < TMAP_BYTES; i++) {
		char byte[3] = {h[2 * i], h[2 * i + 1], 0};
		out[i] = (uint8_t)strtoul(byte, NULL, 16);
	}
}

/* First differing byte, for the failure message; -1 when equal. */
static int first_diff(const uint8_t *a, const uint8_t *b)
{
	for (int i = 0; i < TMAP_BYTES; i++)
		if (a[i] != b[i])
			return i;
	return -1;
}

static void test_swizzle_by_address(void **state)
{
	(void)state;
	/* 128B: chunk bits [4,7) ^= row bits [7,10) */
	assert_int_equal(swz_addr(SWZ_128B, 0x000), 0x000);
	assert_int_equal(swz_addr(SWZ_128B, 0x080), 0x090);
	assert_int_equal(swz_addr(SWZ_128B, 0x38f), 0x3ff);
	assert_int_equal(swz_addr(SWZ_128B, 0x400), 0x400); /* the pattern repeats every 1024 */
	/* 64B: [4,6) ^= [7,9); 32B: bit 4 ^= bit 7 */
	assert_int_equal(swz_addr(SWZ_64B, 0x180), 0x1b0);
	assert_int_equal(swz_addr(SWZ_64B, 0x200), 0x200);
	assert_int_equal(swz_addr(SWZ_32B, 0x080), 0x090);
	assert_int_equal(swz_addr(SWZ_32B, 0x100), 0x100);
	assert_int_equal(swz_addr(SWZ_NONE, 0x123), 0x123);
	/* a base 128 bytes on shifts the pattern by a row (the H100's dst128 case) */
	assert_int_equal(swz_addr(SWZ_128B, 0x80 + 0x10), 0x80);
	for (uint32_t m = 0; m < SWZ__COUNT; m++)
		for (uint32_t a = 0; a < 4096; a += 8)
			assert_int_equal(swz_addr(m, swz_addr(m, a)), a);
	assert_int_equal(swz_span(SWZ_32B), 32);
	assert_int_equal(swz_span(SWZ_128B_ATOM_64B), 128);
	assert_int_equal(swz_span(SWZ_NONE), 0);
	assert_string_equal(swz_name(SWZ_128B_ATOM_32B_FLIP_8B), "128B_atom_32B_flip_8B");
}

static void test_tmap_pack_unpack(void **state)
{
	(void)state;
	struct tmap t = {.addr = 0x7f0000001000, .rank = 3, .elem = 6, .dim = {64, 48, 5},
			 .stride = {0, 128, 6144}, .box = {32, 8, 2}, .estride = {1, 2, 1},
			 .swizzle = SWZ_64B, .l2 = 2, .nan_fill = true};
	uint8_t m[TMAP_BYTES];
	tmap_pack(&t, m);
	struct tmap u;
	tmap_unpack(m, &u);
	assert_int_equal(u.addr, t.addr);
	assert_int_equal(u.rank, 3);
	assert_int_equal(u.elem, 6);
	assert_int_equal(u.dim[2], 5);
	assert_int_equal(u.stride[2], 6144);
	assert_int_equal(u.box[0], 32);
	assert_int_equal(u.estride[1], 2);
	assert_int_equal(u.swizzle, SWZ_64B);
	assert_int_equal(u.l2, 2);
	assert_true(u.nan_fill);
	assert_false(u.im2col);
	uint8_t again[TMAP_BYTES];
	tmap_pack(&u, again);
	assert_memory_equal(m, again, TMAP_BYTES);
	char why[200];
	assert_true(tmap_check(&u, why, sizeof why));
	/* im2col (ptxi's own bytes): rank-3 corners take 16 bits */
	struct tmap c = {.addr = 0x2000, .rank = 3, .elem = 7, .dim = {16, 40000, 2},
			 .stride = {0, 64, 64 * 40000}, .estride = {1, 1, 1}, .im2col = true,
			 .lower = {-32768}, .upper = {32767}, .channels = 16, .pixels = 1024};
	tmap_pack(&c, m);
	tmap_unpack(m, &u);
	assert_memory_equal(&u.lower, &c.lower, sizeof c.lower);
	assert_memory_equal(&u.upper, &c.upper, sizeof c.upper);
	assert_true(u.im2col);
	assert_int_equal(u.channels, 16);
	assert_int_equal(u.pixels, 1024);
	assert_int_equal(u.box[0], 0);
	assert_true(tmap_check(&u, why, sizeof why));
}

/* Every map the H100's driver encoded for the conformance cases, byte for byte; the
 * driver's bytes also decode to their parameters and encode back unchanged. */
static void test_tmap_driver_bytes(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof tmap_vectors / sizeof tmap_vectors[0]; i++) {
		const struct tmap_vector *v = &tmap_vectors[i];
		uint8_t got[TMAP_BYTES], want[TMAP_BYTES], again[TMAP_BYTES];
		char why[200] = "";
		int st = ptxi_tmap_encode(got, &v->p, why, sizeof why);
		if (!v->bytes) {
			if (st != PTXI_INVALID)
				fail_msg("%s: the driver refuses this map; ptxi encodes it", v->name);
			continue;
		}
		if (st != PTXI_OK)
			fail_msg("%s: refused: %s", v->name, why);
		unhex(v->bytes, want);
		int d = first_diff(got, want);
		if (d >= 0)
			fail_msg("%s: byte %d is 0x%02x, the driver's 0x%02x", v->name, d, got[d],
				 want[d]);
		struct tmap t;
		tmap_unpack(want, &t);
		assert_int_equal(t.rank, v->p.rank);
		assert_int_equal(t.addr, v->p.global_address);
		for (unsigned k = 0; k < t.rank; k++) {
			assert_int_equal(t.dim[k], v->p.global_dim[k]);
			assert_int_equal(t.box[k], v->p.box_dim[k]);
			assert_int_equal(t.estride[k], v->p.element_strides[k]);
			if (k)
				assert_int_equal(t.stride[k], v->p.global_strides[k - 1]);
		}
		assert_true(tmap_check(&t, why, sizeof why));
		tmap_pack(&t, again);
		assert_memory_equal(again, want, TMAP_BYTES);
	}
}

/* The H100's bytes of tmap_build_f16_sw128: Triton's tensormap.replace sequence on a zeroed
 * map (f16 {64, 48}, stride 128, box {64, 16}, 128B swizzle). The driver-only fields stay
 * zero, and the map decodes as the host encoder's. */
static void test_tmap_replace_matches_h100(void **state)
{
	(void)state;
	const uint64_t addr = 0x7fb2efe00200;
	uint8_t m[TMAP_BYTES] = {0}, want[TMAP_BYTES], host[TMAP_BYTES];
	assert_true(tmap_replace(m, TMF_GLOBAL_ADDRESS, 0, addr));
	assert_true(tmap_replace(m, TMF_RANK, 0, 1));
	assert_true(tmap_replace(m, TMF_BOX_DIM, 0, 64));
	assert_true(tmap_replace(m, TMF_BOX_DIM, 1, 16));
	assert_true(tmap_replace(m, TMF_GLOBAL_DIM, 0, 64));
	assert_true(tmap_replace(m, TMF_GLOBAL_DIM, 1, 48));
	assert_true(tmap_replace(m, TMF_GLOBAL_STRIDE, 0, 128));
	assert_true(tmap_replace(m, TMF_ELEMENT_STRIDE, 0, 1));
	assert_true(tmap_replace(m, TMF_ELEMENT_STRIDE, 1, 1));
	assert_true(tmap_replace(m, TMF_ELEMTYPE, 0, 6));
	assert_true(tmap_replace(m, TMF_INTERLEAVE_LAYOUT, 0, 0));
	assert_true(tmap_replace(m, TMF_SWIZZLE_MODE, 0, 3));
	assert_true(tmap_replace(m, TMF_FILL_MODE, 0, 0));
	unhex("0002e0efb27f0000106300000800000000000000000000000000000000000000"
	      "3f0000002f0000000000000000000000000000000000003f0f00000000000000"
	      "0000000000000000000000000000000000000000000000000000000000000000"
	      "0000000000000000000000000000000000000000000000000000000000000000", want);
	assert_memory_equal(m, want, TMAP_BYTES);
	assert_int_equal(ptxi_tmap_encode_tiled(host, PTXI_TMAP_F16, 2, addr,
						(const uint64_t[]){64, 48}, (const uint64_t[]){128},
						(const uint32_t[]){64, 16}, (const uint32_t[]){1, 1}, 0,
						3, 0, 0, NULL, 0),
			 PTXI_OK);
	struct tmap a, b;
	tmap_unpack(m, &a);
	tmap_unpack(host, &b);
	assert_memory_equal(&a, &b, sizeof a);
	/* the host map differs only in the driver-only bytes 64..75 */
	assert_memory_equal(m, host, 64);
	assert_memory_equal(m + 76, host + 76, TMAP_BYTES - 76);
}

/* The H100's bytes of tmap_global_edit_f32: a host-encoded f32 map whose address and
 * box_dim[1] tensormap.replace changed; the driver's box byte count (512) stays. */
static void test_tmap_replace_edits_h100_map(void **state)
{
	(void)state;
	uint8_t m[TMAP_BYTES], want[TMAP_BYTES];
	assert_int_equal(ptxi_tmap_encode_tiled(m, PTXI_TMAP_F32, 2, 0x7f435be00000,
						(const uint64_t[]){40, 36}, (const uint64_t[]){176},
						(const uint32_t[]){16, 8}, (const uint32_t[]){1, 1}, 0,
						0, 0, 0, NULL, 0),
			 PTXI_OK);
	assert_true(tmap_replace(m, TMF_GLOBAL_ADDRESS, 0, 0x7f435be01c00));
	assert_true(tmap_replace(m, TMF_BOX_DIM, 1, 4));
	unhex("001ce05b437f0000900300000b00000000000000000000000000000000000000"
	      "27000000230000000000000000000000000000000000000f0300000000000000"
	      "0002000000000000100000000000000000000000000000000000000000000000"
	      "0000000000000000000000000000000000000000000000000000000000000000", want);
	assert_memory_equal(m, want, TMAP_BYTES);
	struct tmap t;
	tmap_unpack(m, &t);
	assert_int_equal(t.box[1], 4);
}

/* Values the fields cannot hold are refused and leave the map as it was. */
static void test_tmap_replace_refusals(void **state)
{
	(void)state;
	uint8_t m[TMAP_BYTES] = {0}, zero[TMAP_BYTES] = {0};
	assert_false(tmap_replace(m, TMF_RANK, 0, 5));
	assert_false(tmap_replace(m, TMF_ELEMTYPE, 0, 13));
	assert_false(tmap_replace(m, TMF_BOX_DIM, 5, 1));
	assert_false(tmap_replace(m, TMF_BOX_DIM, 0, 0));
	assert_false(tmap_replace(m, TMF_BOX_DIM, 0, 257));
	assert_false(tmap_replace(m, TMF_GLOBAL_DIM, 0, 0));
	assert_false(tmap_replace(m, TMF_GLOBAL_STRIDE, 0, 100));
	assert_false(tmap_replace(m, TMF_GLOBAL_STRIDE, 4, 128));
	assert_false(tmap_replace(m, TMF_ELEMENT_STRIDE, 0, 9));
	assert_false(tmap_replace(m, TMF_INTERLEAVE_LAYOUT, 0, 3));
	assert_false(tmap_replace(m, TMF_FILL_MODE, 0, 2));
	assert_memory_equal(m, zero, TMAP_BYTES);
	/* an all-zero map is a rank-1 u8 map of one element */
	struct tmap t;
	tmap_unpack(m, &t);
	assert_int_equal(t.rank, 1);
	assert_int_equal(t.elem, 0);
	assert_int_equal(t.dim[0], 1);
	assert_int_equal(t.box[0], 1);
	/* tf32 is f32 with the TF32 bit (bit 16 of the word at byte 8), as the driver writes it */
	assert_true(tmap_replace(m, TMF_ELEMTYPE, 0, 11));
	assert_int_equal(m[8] | m[9] << 8 | m[10] << 16, 7 << 7 | 1 << 16);
	tmap_unpack(m, &t);
	assert_int_equal(t.elem, 11);
	assert_true(tmap_replace(m, TMF_ELEMTYPE, 0, 7));
	assert_int_equal(m[10], 0);
	/* a map written by ordinary stores can hold what replace refuses: check refuses it */
	uint8_t bad[TMAP_BYTES] = {0};
	char why[200];
	bad[8] = 7 << 4; /* rank 8 */
	tmap_unpack(bad, &t);
	assert_false(tmap_check(&t, why, sizeof why));
	assert_string_equal(why, "tensorRank is 8; it must be 1 to 5");
	bad[8] = 0;
	bad[10] = 1; /* the tf32 bit on u8 */
	tmap_unpack(bad, &t);
	assert_false(tmap_check(&t, why, sizeof why));
	assert_string_equal(why, "the tf32 bit is set on element type 0, not on f32");
	bad[10] = 0;
	bad[9] = 0x07; /* type field 14 (bits 7..10 of the word at byte 8) */
	tmap_unpack(bad, &t);
	assert_false(tmap_check(&t, why, sizeof why));
	assert_string_equal(why, "tensorDataType 14 is not a type of sm_90");
	/* strides up to 2^40 keep their bits 36..39 (ptxi's own bytes) */
	assert_true(tmap_replace(m, TMF_GLOBAL_STRIDE, 1, (1ull << 40) - 16));
	tmap_unpack(m, &t);
	assert_int_equal(t.stride[2], (1ull << 40) - 16);
}

static void test_tmap_parse(void **state)
{
	(void)state;
	struct ptxi_tmap_params p;
	unsigned buf;
	uint64_t off;
	char why[200] = "";
	assert_int_equal(ptxi_tmap_parse("buf=3+256,type=bf16,dims=64x48x2,strides=128x6144,"
					 "box=32x16x1,estrides=1x2x1,swizzle=64B,l2=256B,fill=nan",
					 &p, &buf, &off, why, sizeof why),
			 PTXI_OK);
	assert_int_equal(buf, 3);
	assert_int_equal(off, 256);
	assert_int_equal(p.type, PTXI_TMAP_BF16);
	assert_int_equal(p.rank, 3);
	assert_int_equal(p.global_dim[1], 48);
	assert_int_equal(p.global_strides[1], 6144);
	assert_int_equal(p.box_dim[0], 32);
	assert_int_equal(p.element_strides[1], 2);
	assert_int_equal(p.swizzle, 2);
	assert_int_equal(p.l2_promotion, 3);
	assert_int_equal(p.oob_fill, 1);
	assert_int_equal(ptxi_tmap_parse("buf=0,type=f16,dims=8x10x6x2,strides=16x160x960,"
					 "mode=im2col,lower=-1x-1,upper=0x0,channels=8,pixels=64",
					 &p, &buf, &off, why, sizeof why),
			 PTXI_OK);
	assert_true(p.im2col);
	assert_int_equal(p.pixel_box_lower[1], -1);
	assert_int_equal(p.pixels_per_column, 64);
}

/* Each refusal names the parameter at fault. */
static void test_tmap_refusals(void **state)
{
	(void)state;
	static const struct {
		const char *spec, *why;
	} cases[] = {
		{"buf=1,type=u16,dims=64x48,strides=128,box=32x16,fill=nan",
		 "oobFill NaN needs a floating-point type, not u16"},
		{"buf=1,type=f16,dims=64x48,strides=128,box=64x16,swizzle=128B_atom_32B",
		 "swizzle 128B_atom_32B is not available on sm_90"},
		{"buf=1,type=f16,dims=8x10x6,strides=16x192,box=4x4x2,interleave=16B",
		 "boxDim[0] x element size is 8 bytes, not a multiple of 16"},
		{"buf=1,type=f32,dims=40x36,strides=176,box=300x8",
		 "boxDim[0] is 300; it must be 1 to 256"},
		{"buf=1,type=f32,dims=40x36,strides=176,box=64x8,swizzle=128B",
		 "boxDim[0] x element size is 256 bytes, more than the 128B swizzle span"},
		{"buf=1,type=f32,dims=40x36,strides=100,box=8x8",
		 "globalStrides[0] is 100; it must be a multiple of 16 below 2^40"},
		{"buf=1,type=f32,dims=40x0,strides=176,box=8x8", "globalDim[1] is 0; it must be 1 "
		 "to 2^32"},
		{"buf=1,type=f32,dims=40x36,strides=176,box=8x8,estrides=1x9",
		 "elementStrides[1] is 9; it must be 1 to 8"},
		{"buf=1,type=f16,dims=16x6x4,strides=32x256,box=16x4x2,interleave=32B",
		 "swizzle is none; a 32B-interleaved map needs 32B"},
		{"buf=1,type=f16,dims=16x6,strides=32,box=16x4,interleave=16B",
		 "tensorRank is 2; it must be 3 to 5 when interleaved"},
		{"buf=1,type=f17,dims=8,box=8", "type=f17 is not u8 u16 u32 s32 u64 s64 f16 f32 f64 "
		 "bf16 f32ftz tf32 tf32ftz"},
		{"buf=1,type=f32,dims=40x36,box=8x8", "strides= gives 0 values; a rank-2 map has 1"},
		{"buf=1,type=f32,dims=40x36,strides=176,box=8", "box= gives 1 values; a rank-2 map "
		 "has 2"},
		{"buf=1,type=f32,dims=40x36,strides=176,box=8x8,swizzle=16B",
		 "swizzle=16B is not one of its values (see ptxi --help)"},
		{"buf=x,type=f32,dims=40,box=8", "buf=x: want the index of a buffer argument, "
		 "optionally +BYTES"},
		{"buf=1,type=f32,dims=40x36,strides=176,box=8x8,colour=red",
		 "unknown parameter 'colour'"},
		{"type=f32,dims=40,box=8", "buf=, type= and dims= are required"},
		{"buf=1,type=f32,dims=16x4x4,strides=64x256,mode=im2col,lower=0,upper=0,channels=16,"
		 "pixels=4,swizzle=32B", "channelsPerPixel x element size is 64 bytes, more than the "
		 "32B swizzle span"},
		{"buf=1,type=f32,dims=4x4x4,strides=16x64,mode=im2col,lower=0,upper=0,channels=4,"
		 "pixels=2000", "pixelsPerColumn is 2000; it must be 1 to 1024"},
		{"buf=1,type=f32,dims=4x4x4x4,strides=16x64x256,mode=im2col,lower=-200x0,upper=0x0,"
		 "channels=4,pixels=8", "pixelBoxLowerCorner/UpperCorner[0] (-200, 0) is outside "
		 "[-128, 127] for rank 4"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct ptxi_tmap_params p;
		unsigned buf;
		uint64_t off;
		char why[200] = "";
		int st = ptxi_tmap_parse(cases[i].spec, &p, &buf, &off, why, sizeof why);
		if (st != PTXI_INVALID || strcmp(why, cases[i].why) != 0)
			fail_msg("%s: status %d, '%s'", cases[i].spec, st, why);
	}
	/* the address: 16-byte aligned, 32 with 32B interleave */
	uint8_t m[TMAP_BYTES];
	char why[200];
	assert_int_equal(ptxi_tmap_encode_tiled(m, PTXI_TMAP_F32, 1, 0x1008, (const uint64_t[]){40},
						NULL, (const uint32_t[]){8}, (const uint32_t[]){1}, 0,
						0, 0, 0, why, sizeof why),
			 PTXI_INVALID);
	assert_string_equal(why, "globalAddress 0x1008 is not 16-byte aligned");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_swizzle_by_address),
		cmocka_unit_test(test_tmap_pack_unpack),
		cmocka_unit_test(test_tmap_driver_bytes),
		cmocka_unit_test(test_tmap_replace_matches_h100),
		cmocka_unit_test(test_tmap_replace_edits_h100_map),
		cmocka_unit_test(test_tmap_replace_refusals),
		cmocka_unit_test(test_tmap_parse),
		cmocka_unit_test(test_tmap_refusals),
	};
	return cmocka_run_group_tests_name("tmap", tests, NULL, NULL);
}
