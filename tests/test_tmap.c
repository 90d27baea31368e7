/*
 * test_tmap.c - src/swizzle.c and src/tmap.c: the address-based swizzle, the 128-byte map
 * layout (pack, unpack, tensormap.replace fields), the `tmap:` spec parser and every
 * refusal of the encoder, with its exact message.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "swizzle.h"
#include "tmap.h"

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
}

/* A map built from zero with tensormap.replace is the map the encoder makes. */
static void test_tmap_replace_builds_a_map(void **state)
{
	(void)state;
	uint8_t m[TMAP_BYTES] = {0}, want[TMAP_BYTES];
	assert_true(tmap_replace(m, TMF_GLOBAL_ADDRESS, 0, 0x1000));
	assert_true(tmap_replace(m, TMF_RANK, 0, 1));
	assert_true(tmap_replace(m, TMF_BOX_DIM, 0, 64));
	assert_true(tmap_replace(m, TMF_BOX_DIM, 1, 8));
	assert_true(tmap_replace(m, TMF_GLOBAL_DIM, 0, 64));
	assert_true(tmap_replace(m, TMF_GLOBAL_DIM, 1, 48));
	assert_true(tmap_replace(m, TMF_GLOBAL_STRIDE, 0, 128));
	assert_true(tmap_replace(m, TMF_ELEMENT_STRIDE, 0, 1));
	assert_true(tmap_replace(m, TMF_ELEMENT_STRIDE, 1, 1));
	assert_true(tmap_replace(m, TMF_ELEMTYPE, 0, 6));
	assert_true(tmap_replace(m, TMF_SWIZZLE_MODE, 0, 3));
	assert_int_equal(ptxi_tmap_encode_tiled(want, PTXI_TMAP_F16, 2, 0x1000,
						(const uint64_t[]){64, 48}, (const uint64_t[]){128},
						(const uint32_t[]){64, 8}, (const uint32_t[]){1, 1}, 0,
						3, 0, 0, NULL, 0),
			 PTXI_OK);
	assert_memory_equal(m, want, TMAP_BYTES);
	assert_false(tmap_replace(m, TMF_RANK, 0, 5));
	assert_false(tmap_replace(m, TMF_ELEMTYPE, 0, 13));
	assert_false(tmap_replace(m, TMF_BOX_DIM, 5, 1));
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
		 "to 2^32-1"},
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
		cmocka_unit_test(test_tmap_replace_builds_a_map),
		cmocka_unit_test(test_tmap_parse),
		cmocka_unit_test(test_tmap_refusals),
	};
	return cmocka_run_group_tests_name("tmap", tests, NULL, NULL);
}
