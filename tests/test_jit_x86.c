/*
 * test_jit_x86.c - src/run/jit_x86.c: every instruction the native tier emits, with low and
 * high registers and each kind of memory operand, gives the bytes GNU as gives for it
 * (as --64, Intel syntax; the table was made once with as and objcopy, so no assembler runs
 * here). Jumps, whose displacement the encoder patches, are checked on their own.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "run/jit_x86.h"

static const struct {
	const char *text;
	size_t len;
	uint8_t bytes[16];
} want[] = {
	{"vpaddq ymm0, ymm1, ymm2", 4, {0xc5, 0xf5, 0xd4, 0xc2}},
	{"vpaddq ymm13, ymm12, ymm15", 5, {0xc4, 0x41, 0x1d, 0xd4, 0xef}},
	{"vpaddq ymm8, ymm3, ymm9", 5, {0xc4, 0x41, 0x65, 0xd4, 0xc1}},
	{"vpaddq ymm5, ymm14, ymm1", 4, {0xc5, 0x8d, 0xd4, 0xe9}},
	{"vpsubq ymm0, ymm1, ymm2", 4, {0xc5, 0xf5, 0xfb, 0xc2}},
	{"vpsubq ymm13, ymm12, ymm15", 5, {0xc4, 0x41, 0x1d, 0xfb, 0xef}},
	{"vpsubq ymm8, ymm3, ymm9", 5, {0xc4, 0x41, 0x65, 0xfb, 0xc1}},
	{"vpsubq ymm5, ymm14, ymm1", 4, {0xc5, 0x8d, 0xfb, 0xe9}},
	{"vpand ymm0, ymm1, ymm2", 4, {0xc5, 0xf5, 0xdb, 0xc2}},
	{"vpand ymm13, ymm12, ymm15", 5, {0xc4, 0x41, 0x1d, 0xdb, 0xef}},
	{"vpand ymm8, ymm3, ymm9", 5, {0xc4, 0x41, 0x65, 0xdb, 0xc1}},
	{"vpand ymm5, ymm14, ymm1", 4, {0xc5, 0x8d, 0xdb, 0xe9}},
	{"vpandn ymm0, ymm1, ymm2", 4, {0xc5, 0xf5, 0xdf, 0xc2}},
	{"vpandn ymm13, ymm12, ymm15", 5, {0xc4, 0x41, 0x1d, 0xdf, 0xef}},
	{"vpandn ymm8, ymm3, ymm9", 5, {0xc4, 0x41, 0x65, 0xdf, 0xc1}},
	{"vpandn ymm5, ymm14, ymm1", 4, {0xc5, 0x8d, 0xdf, 0xe9}},
	{"vpor ymm0, ymm1, ymm2", 4, {0xc5, 0xf5, 0xeb, 0xc2}},
	{"vpor ymm13, ymm12, ymm15", 5, {0xc4, 0x41, 0x1d, 0xeb, 0xef}},
	{"vpor ymm8, ymm3, ymm9", 5, {0xc4, 0x41, 0x65, 0xeb, 0xc1}},
	{"vpor ymm5, ymm14, ymm1", 4, {0xc5, 0x8d, 0xeb, 0xe9}},
	{"vpxor ymm0, ymm1, ymm2", 4, {0xc5, 0xf5, 0xef, 0xc2}},
	{"vpxor ymm13, ymm12, ymm15", 5, {0xc4, 0x41, 0x1d, 0xef, 0xef}},
	{"vpxor ymm8, ymm3, ymm9", 5, {0xc4, 0x41, 0x65, 0xef, 0xc1}},
	{"vpxor ymm5, ymm14, ymm1", 4, {0xc5, 0x8d, 0xef, 0xe9}},
	{"vpmuludq ymm0, ymm1, ymm2", 4, {0xc5, 0xf5, 0xf4, 0xc2}},
	{"vpmuludq ymm13, ymm12, ymm15", 5, {0xc4, 0x41, 0x1d, 0xf4, 0xef}},
	{"vpmuludq ymm8, ymm3, ymm9", 5, {0xc4, 0x41, 0x65, 0xf4, 0xc1}},
	{"vpmuludq ymm5, ymm14, ymm1", 4, {0xc5, 0x8d, 0xf4, 0xe9}},
	{"vpmuldq ymm0, ymm1, ymm2", 5, {0xc4, 0xe2, 0x75, 0x28, 0xc2}},
	{"vpmuldq ymm13, ymm12, ymm15", 5, {0xc4, 0x42, 0x1d, 0x28, 0xef}},
	{"vpmuldq ymm8, ymm3, ymm9", 5, {0xc4, 0x42, 0x65, 0x28, 0xc1}},
	{"vpmuldq ymm5, ymm14, ymm1", 5, {0xc4, 0xe2, 0x0d, 0x28, 0xe9}},
	{"vpcmpeqq ymm0, ymm1, ymm2", 5, {0xc4, 0xe2, 0x75, 0x29, 0xc2}},
	{"vpcmpeqq ymm13, ymm12, ymm15", 5, {0xc4, 0x42, 0x1d, 0x29, 0xef}},
	{"vpcmpeqq ymm8, ymm3, ymm9", 5, {0xc4, 0x42, 0x65, 0x29, 0xc1}},
	{"vpcmpeqq ymm5, ymm14, ymm1", 5, {0xc4, 0xe2, 0x0d, 0x29, 0xe9}},
	{"vpcmpgtq ymm0, ymm1, ymm2", 5, {0xc4, 0xe2, 0x75, 0x37, 0xc2}},
	{"vpcmpgtq ymm13, ymm12, ymm15", 5, {0xc4, 0x42, 0x1d, 0x37, 0xef}},
	{"vpcmpgtq ymm8, ymm3, ymm9", 5, {0xc4, 0x42, 0x65, 0x37, 0xc1}},
	{"vpcmpgtq ymm5, ymm14, ymm1", 5, {0xc4, 0xe2, 0x0d, 0x37, 0xe9}},
	{"vpsllvq ymm0, ymm1, ymm2", 5, {0xc4, 0xe2, 0xf5, 0x47, 0xc2}},
	{"vpsllvq ymm13, ymm12, ymm15", 5, {0xc4, 0x42, 0x9d, 0x47, 0xef}},
	{"vpsllvq ymm8, ymm3, ymm9", 5, {0xc4, 0x42, 0xe5, 0x47, 0xc1}},
	{"vpsllvq ymm5, ymm14, ymm1", 5, {0xc4, 0xe2, 0x8d, 0x47, 0xe9}},
	{"vpsrlvq ymm0, ymm1, ymm2", 5, {0xc4, 0xe2, 0xf5, 0x45, 0xc2}},
	{"vpsrlvq ymm13, ymm12, ymm15", 5, {0xc4, 0x42, 0x9d, 0x45, 0xef}},
	{"vpsrlvq ymm8, ymm3, ymm9", 5, {0xc4, 0x42, 0xe5, 0x45, 0xc1}},
	{"vpsrlvq ymm5, ymm14, ymm1", 5, {0xc4, 0xe2, 0x8d, 0x45, 0xe9}},
	{"vpaddq ymm3, ymm10, ymmword ptr [rdi]", 4, {0xc5, 0xad, 0xd4, 0x1f}},
	{"vpaddq ymm3, ymm10, ymmword ptr [rdi+256]", 8, {0xc5, 0xad, 0xd4, 0x9f, 0x00, 0x01, 0x00, 0x00}},
	{"vpaddq ymm3, ymm10, ymmword ptr [rdi-64]", 5, {0xc5, 0xad, 0xd4, 0x5f, 0xc0}},
	{"vpaddq ymm3, ymm10, ymmword ptr [r9+0x1000]", 9, {0xc4, 0xc1, 0x2d, 0xd4, 0x99, 0x00, 0x10, 0x00, 0x00}},
	{"vpmuludq ymm3, ymm10, ymmword ptr [rdi]", 4, {0xc5, 0xad, 0xf4, 0x1f}},
	{"vpmuludq ymm3, ymm10, ymmword ptr [rdi+256]", 8, {0xc5, 0xad, 0xf4, 0x9f, 0x00, 0x01, 0x00, 0x00}},
	{"vpmuludq ymm3, ymm10, ymmword ptr [rdi-64]", 5, {0xc5, 0xad, 0xf4, 0x5f, 0xc0}},
	{"vpmuludq ymm3, ymm10, ymmword ptr [r9+0x1000]", 9, {0xc4, 0xc1, 0x2d, 0xf4, 0x99, 0x00, 0x10, 0x00, 0x00}},
	{"vpcmpgtq ymm3, ymm10, ymmword ptr [rdi]", 5, {0xc4, 0xe2, 0x2d, 0x37, 0x1f}},
	{"vpcmpgtq ymm3, ymm10, ymmword ptr [rdi+256]", 9, {0xc4, 0xe2, 0x2d, 0x37, 0x9f, 0x00, 0x01, 0x00, 0x00}},
	{"vpcmpgtq ymm3, ymm10, ymmword ptr [rdi-64]", 6, {0xc4, 0xe2, 0x2d, 0x37, 0x5f, 0xc0}},
	{"vpcmpgtq ymm3, ymm10, ymmword ptr [r9+0x1000]", 9, {0xc4, 0xc2, 0x2d, 0x37, 0x99, 0x00, 0x10, 0x00, 0x00}},
	{"vmovdqu ymm0, ymmword ptr [rdi]", 4, {0xc5, 0xfe, 0x6f, 0x07}},
	{"vmovdqu ymmword ptr [rdi], ymm0", 4, {0xc5, 0xfe, 0x7f, 0x07}},
	{"vpmaskmovq ymmword ptr [rdi], ymm15, ymm0", 5, {0xc4, 0xe2, 0x85, 0x8e, 0x07}},
	{"vmovdqu ymm0, ymmword ptr [rdi+256]", 8, {0xc5, 0xfe, 0x6f, 0x87, 0x00, 0x01, 0x00, 0x00}},
	{"vmovdqu ymmword ptr [rdi+256], ymm0", 8, {0xc5, 0xfe, 0x7f, 0x87, 0x00, 0x01, 0x00, 0x00}},
	{"vpmaskmovq ymmword ptr [rdi+256], ymm15, ymm0", 9, {0xc4, 0xe2, 0x85, 0x8e, 0x87, 0x00, 0x01, 0x00, 0x00}},
	{"vmovdqu ymm0, ymmword ptr [rdi-64]", 5, {0xc5, 0xfe, 0x6f, 0x47, 0xc0}},
	{"vmovdqu ymmword ptr [rdi-64], ymm0", 5, {0xc5, 0xfe, 0x7f, 0x47, 0xc0}},
	{"vpmaskmovq ymmword ptr [rdi-64], ymm15, ymm0", 6, {0xc4, 0xe2, 0x85, 0x8e, 0x47, 0xc0}},
	{"vmovdqu ymm0, ymmword ptr [rcx+rdx*1]", 5, {0xc5, 0xfe, 0x6f, 0x04, 0x11}},
	{"vmovdqu ymmword ptr [rcx+rdx*1], ymm0", 5, {0xc5, 0xfe, 0x7f, 0x04, 0x11}},
	{"vpmaskmovq ymmword ptr [rcx+rdx*1], ymm15, ymm0", 6, {0xc4, 0xe2, 0x85, 0x8e, 0x04, 0x11}},
	{"vmovdqu ymm0, ymmword ptr [r9+0x1000]", 9, {0xc4, 0xc1, 0x7e, 0x6f, 0x81, 0x00, 0x10, 0x00, 0x00}},
	{"vmovdqu ymmword ptr [r9+0x1000], ymm0", 9, {0xc4, 0xc1, 0x7e, 0x7f, 0x81, 0x00, 0x10, 0x00, 0x00}},
	{"vpmaskmovq ymmword ptr [r9+0x1000], ymm15, ymm0", 9, {0xc4, 0xc2, 0x85, 0x8e, 0x81, 0x00, 0x10, 0x00, 0x00}},
	{"vmovdqu ymm0, ymmword ptr [r13+0]", 6, {0xc4, 0xc1, 0x7e, 0x6f, 0x45, 0x00}},
	{"vmovdqu ymmword ptr [r13+0], ymm0", 6, {0xc4, 0xc1, 0x7e, 0x7f, 0x45, 0x00}},
	{"vpmaskmovq ymmword ptr [r13+0], ymm15, ymm0", 6, {0xc4, 0xc2, 0x85, 0x8e, 0x45, 0x00}},
	{"vmovdqu ymm0, ymmword ptr [rsp+8]", 6, {0xc5, 0xfe, 0x6f, 0x44, 0x24, 0x08}},
	{"vmovdqu ymmword ptr [rsp+8], ymm0", 6, {0xc5, 0xfe, 0x7f, 0x44, 0x24, 0x08}},
	{"vpmaskmovq ymmword ptr [rsp+8], ymm15, ymm0", 7, {0xc4, 0xe2, 0x85, 0x8e, 0x44, 0x24, 0x08}},
	{"vmovdqu ymm0, ymmword ptr [rip+0x100]", 8, {0xc5, 0xfe, 0x6f, 0x05, 0x00, 0x01, 0x00, 0x00}},
	{"vmovdqu ymmword ptr [rip+0x100], ymm0", 8, {0xc5, 0xfe, 0x7f, 0x05, 0x00, 0x01, 0x00, 0x00}},
	{"vpmaskmovq ymmword ptr [rip+0x100], ymm15, ymm0", 9, {0xc4, 0xe2, 0x85, 0x8e, 0x05, 0x00, 0x01, 0x00, 0x00}},
	{"vmovdqu ymm11, ymmword ptr [rdi]", 4, {0xc5, 0x7e, 0x6f, 0x1f}},
	{"vmovdqu ymmword ptr [rdi], ymm11", 4, {0xc5, 0x7e, 0x7f, 0x1f}},
	{"vpmaskmovq ymmword ptr [rdi], ymm15, ymm11", 5, {0xc4, 0x62, 0x85, 0x8e, 0x1f}},
	{"vmovdqu ymm11, ymmword ptr [rdi+256]", 8, {0xc5, 0x7e, 0x6f, 0x9f, 0x00, 0x01, 0x00, 0x00}},
	{"vmovdqu ymmword ptr [rdi+256], ymm11", 8, {0xc5, 0x7e, 0x7f, 0x9f, 0x00, 0x01, 0x00, 0x00}},
	{"vpmaskmovq ymmword ptr [rdi+256], ymm15, ymm11", 9, {0xc4, 0x62, 0x85, 0x8e, 0x9f, 0x00, 0x01, 0x00, 0x00}},
	{"vmovdqu ymm11, ymmword ptr [rdi-64]", 5, {0xc5, 0x7e, 0x6f, 0x5f, 0xc0}},
	{"vmovdqu ymmword ptr [rdi-64], ymm11", 5, {0xc5, 0x7e, 0x7f, 0x5f, 0xc0}},
	{"vpmaskmovq ymmword ptr [rdi-64], ymm15, ymm11", 6, {0xc4, 0x62, 0x85, 0x8e, 0x5f, 0xc0}},
	{"vmovdqu ymm11, ymmword ptr [rcx+rdx*1]", 5, {0xc5, 0x7e, 0x6f, 0x1c, 0x11}},
	{"vmovdqu ymmword ptr [rcx+rdx*1], ymm11", 5, {0xc5, 0x7e, 0x7f, 0x1c, 0x11}},
	{"vpmaskmovq ymmword ptr [rcx+rdx*1], ymm15, ymm11", 6, {0xc4, 0x62, 0x85, 0x8e, 0x1c, 0x11}},
	{"vmovdqu ymm11, ymmword ptr [r9+0x1000]", 9, {0xc4, 0x41, 0x7e, 0x6f, 0x99, 0x00, 0x10, 0x00, 0x00}},
	{"vmovdqu ymmword ptr [r9+0x1000], ymm11", 9, {0xc4, 0x41, 0x7e, 0x7f, 0x99, 0x00, 0x10, 0x00, 0x00}},
	{"vpmaskmovq ymmword ptr [r9+0x1000], ymm15, ymm11", 9, {0xc4, 0x42, 0x85, 0x8e, 0x99, 0x00, 0x10, 0x00, 0x00}},
	{"vmovdqu ymm11, ymmword ptr [r13+0]", 6, {0xc4, 0x41, 0x7e, 0x6f, 0x5d, 0x00}},
	{"vmovdqu ymmword ptr [r13+0], ymm11", 6, {0xc4, 0x41, 0x7e, 0x7f, 0x5d, 0x00}},
	{"vpmaskmovq ymmword ptr [r13+0], ymm15, ymm11", 6, {0xc4, 0x42, 0x85, 0x8e, 0x5d, 0x00}},
	{"vmovdqu ymm11, ymmword ptr [rsp+8]", 6, {0xc5, 0x7e, 0x6f, 0x5c, 0x24, 0x08}},
	{"vmovdqu ymmword ptr [rsp+8], ymm11", 6, {0xc5, 0x7e, 0x7f, 0x5c, 0x24, 0x08}},
	{"vpmaskmovq ymmword ptr [rsp+8], ymm15, ymm11", 7, {0xc4, 0x62, 0x85, 0x8e, 0x5c, 0x24, 0x08}},
	{"vmovdqu ymm11, ymmword ptr [rip+0x100]", 8, {0xc5, 0x7e, 0x6f, 0x1d, 0x00, 0x01, 0x00, 0x00}},
	{"vmovdqu ymmword ptr [rip+0x100], ymm11", 8, {0xc5, 0x7e, 0x7f, 0x1d, 0x00, 0x01, 0x00, 0x00}},
	{"vpmaskmovq ymmword ptr [rip+0x100], ymm15, ymm11", 9, {0xc4, 0x62, 0x85, 0x8e, 0x1d, 0x00, 0x01, 0x00, 0x00}},
	{"vmovdqu ymm15, ymmword ptr [rdi]", 4, {0xc5, 0x7e, 0x6f, 0x3f}},
	{"vmovdqu ymmword ptr [rdi], ymm15", 4, {0xc5, 0x7e, 0x7f, 0x3f}},
	{"vpmaskmovq ymmword ptr [rdi], ymm15, ymm15", 5, {0xc4, 0x62, 0x85, 0x8e, 0x3f}},
	{"vmovdqu ymm15, ymmword ptr [rdi+256]", 8, {0xc5, 0x7e, 0x6f, 0xbf, 0x00, 0x01, 0x00, 0x00}},
	{"vmovdqu ymmword ptr [rdi+256], ymm15", 8, {0xc5, 0x7e, 0x7f, 0xbf, 0x00, 0x01, 0x00, 0x00}},
	{"vpmaskmovq ymmword ptr [rdi+256], ymm15, ymm15", 9, {0xc4, 0x62, 0x85, 0x8e, 0xbf, 0x00, 0x01, 0x00, 0x00}},
	{"vmovdqu ymm15, ymmword ptr [rdi-64]", 5, {0xc5, 0x7e, 0x6f, 0x7f, 0xc0}},
	{"vmovdqu ymmword ptr [rdi-64], ymm15", 5, {0xc5, 0x7e, 0x7f, 0x7f, 0xc0}},
	{"vpmaskmovq ymmword ptr [rdi-64], ymm15, ymm15", 6, {0xc4, 0x62, 0x85, 0x8e, 0x7f, 0xc0}},
	{"vmovdqu ymm15, ymmword ptr [rcx+rdx*1]", 5, {0xc5, 0x7e, 0x6f, 0x3c, 0x11}},
	{"vmovdqu ymmword ptr [rcx+rdx*1], ymm15", 5, {0xc5, 0x7e, 0x7f, 0x3c, 0x11}},
	{"vpmaskmovq ymmword ptr [rcx+rdx*1], ymm15, ymm15", 6, {0xc4, 0x62, 0x85, 0x8e, 0x3c, 0x11}},
	{"vmovdqu ymm15, ymmword ptr [r9+0x1000]", 9, {0xc4, 0x41, 0x7e, 0x6f, 0xb9, 0x00, 0x10, 0x00, 0x00}},
	{"vmovdqu ymmword ptr [r9+0x1000], ymm15", 9, {0xc4, 0x41, 0x7e, 0x7f, 0xb9, 0x00, 0x10, 0x00, 0x00}},
	{"vpmaskmovq ymmword ptr [r9+0x1000], ymm15, ymm15", 9, {0xc4, 0x42, 0x85, 0x8e, 0xb9, 0x00, 0x10, 0x00, 0x00}},
	{"vmovdqu ymm15, ymmword ptr [r13+0]", 6, {0xc4, 0x41, 0x7e, 0x6f, 0x7d, 0x00}},
	{"vmovdqu ymmword ptr [r13+0], ymm15", 6, {0xc4, 0x41, 0x7e, 0x7f, 0x7d, 0x00}},
	{"vpmaskmovq ymmword ptr [r13+0], ymm15, ymm15", 6, {0xc4, 0x42, 0x85, 0x8e, 0x7d, 0x00}},
	{"vmovdqu ymm15, ymmword ptr [rsp+8]", 6, {0xc5, 0x7e, 0x6f, 0x7c, 0x24, 0x08}},
	{"vmovdqu ymmword ptr [rsp+8], ymm15", 6, {0xc5, 0x7e, 0x7f, 0x7c, 0x24, 0x08}},
	{"vpmaskmovq ymmword ptr [rsp+8], ymm15, ymm15", 7, {0xc4, 0x62, 0x85, 0x8e, 0x7c, 0x24, 0x08}},
	{"vmovdqu ymm15, ymmword ptr [rip+0x100]", 8, {0xc5, 0x7e, 0x6f, 0x3d, 0x00, 0x01, 0x00, 0x00}},
	{"vmovdqu ymmword ptr [rip+0x100], ymm15", 8, {0xc5, 0x7e, 0x7f, 0x3d, 0x00, 0x01, 0x00, 0x00}},
	{"vpmaskmovq ymmword ptr [rip+0x100], ymm15, ymm15", 9, {0xc4, 0x62, 0x85, 0x8e, 0x3d, 0x00, 0x01, 0x00, 0x00}},
	{"vpblendd ymm0, ymm1, ymm2, 0xAA", 6, {0xc4, 0xe3, 0x75, 0x02, 0xc2, 0xaa}},
	{"vblendvpd ymm0, ymm1, ymm2, ymm1", 6, {0xc4, 0xe3, 0x75, 0x4b, 0xc2, 0x10}},
	{"vpblendd ymm13, ymm12, ymm15, 0xAA", 6, {0xc4, 0x43, 0x1d, 0x02, 0xef, 0xaa}},
	{"vblendvpd ymm13, ymm12, ymm15, ymm9", 6, {0xc4, 0x43, 0x1d, 0x4b, 0xef, 0x90}},
	{"vpblendd ymm8, ymm3, ymm9, 0xAA", 6, {0xc4, 0x43, 0x65, 0x02, 0xc1, 0xaa}},
	{"vblendvpd ymm8, ymm3, ymm9, ymm11", 6, {0xc4, 0x43, 0x65, 0x4b, 0xc1, 0xb0}},
	{"vpblendd ymm5, ymm14, ymm1, 0xAA", 6, {0xc4, 0xe3, 0x0d, 0x02, 0xe9, 0xaa}},
	{"vblendvpd ymm5, ymm14, ymm1, ymm3", 6, {0xc4, 0xe3, 0x0d, 0x4b, 0xe9, 0x30}},
	{"vpsllq ymm0, ymm1, 32", 5, {0xc5, 0xfd, 0x73, 0xf1, 0x20}},
	{"vpsllq ymm14, ymm12, 63", 6, {0xc4, 0xc1, 0x0d, 0x73, 0xf4, 0x3f}},
	{"vpsllq ymm3, ymm9, 5", 6, {0xc4, 0xc1, 0x65, 0x73, 0xf1, 0x05}},
	{"vpsrlq ymm0, ymm1, 32", 5, {0xc5, 0xfd, 0x73, 0xd1, 0x20}},
	{"vpsrlq ymm14, ymm12, 63", 6, {0xc4, 0xc1, 0x0d, 0x73, 0xd4, 0x3f}},
	{"vpsrlq ymm3, ymm9, 5", 6, {0xc4, 0xc1, 0x65, 0x73, 0xd1, 0x05}},
	{"vpsrad ymm0, ymm1, 32", 5, {0xc5, 0xfd, 0x72, 0xe1, 0x20}},
	{"vpsrad ymm14, ymm12, 63", 6, {0xc4, 0xc1, 0x0d, 0x72, 0xe4, 0x3f}},
	{"vpsrad ymm3, ymm9, 5", 6, {0xc4, 0xc1, 0x65, 0x72, 0xe1, 0x05}},
	{"vpsraw ymm0, ymm1, 32", 5, {0xc5, 0xfd, 0x71, 0xe1, 0x20}},
	{"vpsraw ymm14, ymm12, 63", 6, {0xc4, 0xc1, 0x0d, 0x71, 0xe4, 0x3f}},
	{"vpsraw ymm3, ymm9, 5", 6, {0xc4, 0xc1, 0x65, 0x71, 0xe1, 0x05}},
	{"mov eax, esi", 2, {0x89, 0xf0}},
	{"mov r8d, edx", 3, {0x41, 0x89, 0xd0}},
	{"mov edx, r11d", 3, {0x44, 0x89, 0xda}},
	{"and edx, 15", 3, {0x83, 0xe2, 0x0f}},
	{"cmp edx, 480", 6, {0x81, 0xfa, 0xe0, 0x01, 0x00, 0x00}},
	{"cmp r8d, 3", 4, {0x41, 0x83, 0xf8, 0x03}},
	{"add rdi, 32", 4, {0x48, 0x83, 0xc7, 0x20}},
	{"sub r10, -200", 7, {0x49, 0x81, 0xea, 0x38, 0xff, 0xff, 0xff}},
	{"shl edx, 5", 3, {0xc1, 0xe2, 0x05}},
	{"shr eax, 4", 3, {0xc1, 0xe8, 0x04}},
	{"shr r9, 7", 4, {0x49, 0xc1, 0xe9, 0x07}},
	{"lea rcx, [rip+0x40]", 7, {0x48, 0x8d, 0x0d, 0x40, 0x00, 0x00, 0x00}},
	{"lea r9, [rip-16]", 7, {0x4c, 0x8d, 0x0d, 0xf0, 0xff, 0xff, 0xff}},
	{"jmp r9", 3, {0x41, 0xff, 0xe1}},
	{"jmp rax", 2, {0xff, 0xe0}},
	{"vzeroupper", 3, {0xc5, 0xf8, 0x77}},
	{"ret", 1, {0xc3}},
	{"vmovmskpd edx, ymm13", 5, {0xc4, 0xc1, 0x7d, 0x50, 0xd5}},
	{"vmovmskpd r11d, ymm0", 4, {0xc5, 0x7d, 0x50, 0xd8}},
	{"vmovmskpd eax, ymm9", 5, {0xc4, 0xc1, 0x7d, 0x50, 0xc1}},
	{"mov r9, rcx", 3, {0x49, 0x89, 0xc9}},
	{"mov rdi, r10", 3, {0x4c, 0x89, 0xd7}},
	{"mov r10, rdi", 3, {0x49, 0x89, 0xfa}},
	{"sub r9, rdi", 3, {0x49, 0x29, 0xf9}},
	{"and edx, eax", 2, {0x21, 0xc2}},
	{"or r11d, edx", 3, {0x41, 0x09, 0xd3}},
	{"xor r11d, r11d", 3, {0x45, 0x31, 0xdb}},
	{"xor edx, 15", 3, {0x83, 0xf2, 0x0f}},
	{"vmovdqu ymmword ptr [rdi+r9*1+0x100], ymm3", 10, {0xc4, 0xa1, 0x7e, 0x7f, 0x9c, 0x0f, 0x00, 0x01, 0x00, 0x00}},
	{"vmovdqu ymmword ptr [rdi+r9*1], ymm11", 6, {0xc4, 0x21, 0x7e, 0x7f, 0x1c, 0x0f}},
	{"vpcmpeqd ymm0, ymm1, ymm2", 4, {0xc5, 0xf5, 0x76, 0xc2}},
	{"vpcmpeqd ymm13, ymm12, ymm15", 5, {0xc4, 0x41, 0x1d, 0x76, 0xef}},
	{"vpbroadcastq ymm1, QWORD PTR [rdi+64]", 6, {0xc4, 0xe2, 0x7d, 0x59, 0x4f, 0x40}},
	{"vpbroadcastq ymm9, QWORD PTR [r9+4096]", 9, {0xc4, 0x42, 0x7d, 0x59, 0x89, 0x00, 0x10, 0x00, 0x00}},
	{"vpmovzxdq ymm1, XMMWORD PTR [rcx+rdx*1]", 6, {0xc4, 0xe2, 0x7d, 0x35, 0x0c, 0x11}},
	{"vpmovzxdq ymm10, XMMWORD PTR [rdi+16]", 6, {0xc4, 0x62, 0x7d, 0x35, 0x57, 0x10}},
	{"vpmovsxdq ymm1, XMMWORD PTR [rcx+rdx*1]", 6, {0xc4, 0xe2, 0x7d, 0x25, 0x0c, 0x11}},
	{"vpmovsxdq ymm10, XMMWORD PTR [rdi+16]", 6, {0xc4, 0x62, 0x7d, 0x25, 0x57, 0x10}},
	{"vptest ymm2, ymm2", 5, {0xc4, 0xe2, 0x7d, 0x17, 0xd2}},
	{"vptest ymm11, ymm4", 5, {0xc4, 0x62, 0x7d, 0x17, 0xdc}},
	{"vshufps ymm1, ymm1, YMMWORD PTR [rdi+96], 0x88", 6, {0xc5, 0xf4, 0xc6, 0x4f, 0x60, 0x88}},
	{"vshufps ymm12, ymm3, YMMWORD PTR [r9+256], 0x88", 10, {0xc4, 0x41, 0x64, 0xc6, 0xa1, 0x00, 0x01, 0x00, 0x00, 0x88}},
	{"vpermq ymm1, ymm1, 0xd8", 6, {0xc4, 0xe3, 0xfd, 0x00, 0xc9, 0xd8}},
	{"vpermq ymm13, ymm2, 0xd8", 6, {0xc4, 0x63, 0xfd, 0x00, 0xea, 0xd8}},
	{"mov eax, 0xffffffff", 5, {0xb8, 0xff, 0xff, 0xff, 0xff}},
	{"mov r8d, 7", 6, {0x41, 0xb8, 0x07, 0x00, 0x00, 0x00}},
	{"movabs rax, 0x123456789abcdef0", 10, {0x48, 0xb8, 0xf0, 0xde, 0xbc, 0x9a, 0x78, 0x56, 0x34, 0x12}},
	{"movabs r11, 0x0000000000401000", 10, {0x49, 0xbb, 0x00, 0x10, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00}},
	{"mov eax, DWORD PTR [rdi+8]", 3, {0x8b, 0x47, 0x08}},
	{"mov rcx, QWORD PTR [r9+256]", 7, {0x49, 0x8b, 0x89, 0x00, 0x01, 0x00, 0x00}},
	{"mov r12, QWORD PTR [rbx]", 3, {0x4c, 0x8b, 0x23}},
	{"mov DWORD PTR [rbx+4], r13d", 4, {0x44, 0x89, 0x6b, 0x04}},
	{"mov QWORD PTR [rdi+200], rax", 7, {0x48, 0x89, 0x87, 0xc8, 0x00, 0x00, 0x00}},
	{"mov DWORD PTR [rbx+12], 0xffffffff", 7, {0xc7, 0x43, 0x0c, 0xff, 0xff, 0xff, 0xff}},
	{"add DWORD PTR [rbx+20], 1", 4, {0x83, 0x43, 0x14, 0x01}},
	{"sub QWORD PTR [r9+8], -3", 5, {0x49, 0x83, 0x69, 0x08, 0xfd}},
	{"push rbx", 1, {0x53}},
	{"push r15", 2, {0x41, 0x57}},
	{"pop rbx", 1, {0x5b}},
	{"pop r15", 2, {0x41, 0x5f}},
	{"call rax", 2, {0xff, 0xd0}},
	{"call r11", 3, {0x41, 0xff, 0xd3}},
	{"add eax, r9d", 3, {0x44, 0x01, 0xc8}},
	{"cmp r12d, edx", 3, {0x41, 0x39, 0xd4}},
	{"test rdx, rdx", 3, {0x48, 0x85, 0xd2}},
	{"test al, al", 2, {0x84, 0xc0}},
	{"movzx eax, BYTE PTR [rcx+5]", 4, {0x0f, 0xb6, 0x41, 0x05}},
	{"movsx rax, BYTE PTR [rcx]", 4, {0x48, 0x0f, 0xbe, 0x01}},
	{"movzx eax, WORD PTR [r9+256]", 8, {0x41, 0x0f, 0xb7, 0x81, 0x00, 0x01, 0x00, 0x00}},
	{"movsx r12, WORD PTR [rcx+2]", 5, {0x4c, 0x0f, 0xbf, 0x61, 0x02}},
	{"mov eax, DWORD PTR [rcx+4]", 3, {0x8b, 0x41, 0x04}},
	{"movsxd rax, DWORD PTR [rcx+4]", 4, {0x48, 0x63, 0x41, 0x04}},
	{"mov rax, QWORD PTR [rcx+8]", 4, {0x48, 0x8b, 0x41, 0x08}},
	{"movsxd r10, DWORD PTR [r12+1024]", 8, {0x4d, 0x63, 0x94, 0x24, 0x00, 0x04, 0x00, 0x00}},
	{"mov BYTE PTR [rbx+12], 1", 4, {0xc6, 0x43, 0x0c, 0x01}},
	{"mov BYTE PTR [r10+300], 0", 8, {0x41, 0xc6, 0x82, 0x2c, 0x01, 0x00, 0x00, 0x00}},
	{"imul rax, rcx", 4, {0x48, 0x0f, 0xaf, 0xc1}},
	{"imul r9, r10", 4, {0x4d, 0x0f, 0xaf, 0xca}},
	{"imul edx, r11d", 4, {0x41, 0x0f, 0xaf, 0xd3}},
	{"add QWORD PTR [rcx+248], rdx", 7, {0x48, 0x01, 0x91, 0xf8, 0x00, 0x00, 0x00}},
	{"add DWORD PTR [r8+16], r9d", 4, {0x45, 0x01, 0x48, 0x10}},
	{"cmp rdi, QWORD PTR [rbx+240]", 7, {0x48, 0x3b, 0xbb, 0xf0, 0x00, 0x00, 0x00}},
	{"add r9, QWORD PTR [rsi+8]", 4, {0x4c, 0x03, 0x4e, 0x08}},
	{"cmp r9d, DWORD PTR [r10+r11*1+128]", 8, {0x47, 0x3b, 0x8c, 0x1a, 0x80, 0x00, 0x00, 0x00}},
	{"cmp BYTE PTR [r10+740], 0", 8, {0x41, 0x80, 0xba, 0xe4, 0x02, 0x00, 0x00, 0x00}},
	{"cmp BYTE PTR [r9+rsi*1+628], 0", 9, {0x41, 0x80, 0xbc, 0x31, 0x74, 0x02, 0x00, 0x00, 0x00}},
	{"imul rsi, rsi, 656", 7, {0x48, 0x69, 0xf6, 0x90, 0x02, 0x00, 0x00}},
	{"imul r11, r9, 800", 7, {0x4d, 0x69, 0xd9, 0x20, 0x03, 0x00, 0x00}},
	{"lea r10, [rax+776]", 7, {0x4c, 0x8d, 0x90, 0x08, 0x03, 0x00, 0x00}},
	{"lea rcx, [r12+r13*1+8]", 5, {0x4b, 0x8d, 0x4c, 0x2c, 0x08}},
	{"jmp QWORD PTR [r9+rsi*1+648]", 8, {0x41, 0xff, 0xa4, 0x31, 0x88, 0x02, 0x00, 0x00}},
	{"jmp QWORD PTR [rbx+16]", 3, {0xff, 0x63, 0x10}},
	{"cmove edx, DWORD PTR [rcx+136]", 7, {0x0f, 0x44, 0x91, 0x88, 0x00, 0x00, 0x00}},
	{"cmove r9, QWORD PTR [r10+8]", 5, {0x4d, 0x0f, 0x44, 0x4a, 0x08}},
	{"cmp QWORD PTR [r9+16], r15", 4, {0x4d, 0x39, 0x79, 0x10}},
	{"popcnt edx, r8d", 5, {0xf3, 0x41, 0x0f, 0xb8, 0xd0}},
	{"popcnt r8d, r8d", 5, {0xf3, 0x45, 0x0f, 0xb8, 0xc0}},
	{"popcnt eax, ecx", 4, {0xf3, 0x0f, 0xb8, 0xc1}},
	{"test edx, 0xf0", 6, {0xf7, 0xc2, 0xf0, 0x00, 0x00, 0x00}},
	{"test r8d, 0xff00", 7, {0x41, 0xf7, 0xc0, 0x00, 0xff, 0x00, 0x00}},
	{"vmovmskps eax, ymm0", 4, {0xc5, 0xfc, 0x50, 0xc0}},
	{"vmovmskps r11d, ymm13", 5, {0xc4, 0x41, 0x7c, 0x50, 0xdd}},
	{"vpslld ymm0, ymm1, 31", 5, {0xc5, 0xfd, 0x72, 0xf1, 0x1f}},
	{"vpslld ymm14, ymm12, 3", 6, {0xc4, 0xc1, 0x0d, 0x72, 0xf4, 0x03}},
	{"mov qword ptr [rbx+12], 1", 8, {0x48, 0xc7, 0x43, 0x0c, 0x01, 0x00, 0x00, 0x00}},
	{"mov qword ptr [r9+r11*1+16], -1", 9, {0x4b, 0xc7, 0x44, 0x19, 0x10, 0xff, 0xff, 0xff, 0xff}},
	{"cmp DWORD PTR [r11+4], 439", 8, {0x41, 0x81, 0x7b, 0x04, 0xb7, 0x01, 0x00, 0x00}},
	{"cmp DWORD PTR [rbx+256], 0x12345678", 10,
	 {0x81, 0xbb, 0x00, 0x01, 0x00, 0x00, 0x78, 0x56, 0x34, 0x12}},
	{"shl edx, cl", 2, {0xd3, 0xe2}},
	{"shl r9d, cl", 3, {0x41, 0xd3, 0xe1}},
	{"shr rax, cl", 3, {0x48, 0xd3, 0xe8}},
	{"mov byte ptr [rax+16], bpl", 4, {0x40, 0x88, 0x68, 0x10}},
	{"mov byte ptr [r10+300], bpl", 7, {0x41, 0x88, 0xaa, 0x2c, 0x01, 0x00, 0x00}},
};

#define NCASES (sizeof want / sizeof want[0])

/* case i of the table, through the encoder */
static void emit_case(struct xbuf *b, size_t i)
{
	switch (i) {
	case 0: x86_vrr(b, XV_VPADDQ, 0, 1, 2); break;
	case 1: x86_vrr(b, XV_VPADDQ, 13, 12, 15); break;
	case 2: x86_vrr(b, XV_VPADDQ, 8, 3, 9); break;
	case 3: x86_vrr(b, XV_VPADDQ, 5, 14, 1); break;
	case 4: x86_vrr(b, XV_VPSUBQ, 0, 1, 2); break;
	case 5: x86_vrr(b, XV_VPSUBQ, 13, 12, 15); break;
	case 6: x86_vrr(b, XV_VPSUBQ, 8, 3, 9); break;
	case 7: x86_vrr(b, XV_VPSUBQ, 5, 14, 1); break;
	case 8: x86_vrr(b, XV_VPAND, 0, 1, 2); break;
	case 9: x86_vrr(b, XV_VPAND, 13, 12, 15); break;
	case 10: x86_vrr(b, XV_VPAND, 8, 3, 9); break;
	case 11: x86_vrr(b, XV_VPAND, 5, 14, 1); break;
	case 12: x86_vrr(b, XV_VPANDN, 0, 1, 2); break;
	case 13: x86_vrr(b, XV_VPANDN, 13, 12, 15); break;
	case 14: x86_vrr(b, XV_VPANDN, 8, 3, 9); break;
	case 15: x86_vrr(b, XV_VPANDN, 5, 14, 1); break;
	case 16: x86_vrr(b, XV_VPOR, 0, 1, 2); break;
	case 17: x86_vrr(b, XV_VPOR, 13, 12, 15); break;
	case 18: x86_vrr(b, XV_VPOR, 8, 3, 9); break;
	case 19: x86_vrr(b, XV_VPOR, 5, 14, 1); break;
	case 20: x86_vrr(b, XV_VPXOR, 0, 1, 2); break;
	case 21: x86_vrr(b, XV_VPXOR, 13, 12, 15); break;
	case 22: x86_vrr(b, XV_VPXOR, 8, 3, 9); break;
	case 23: x86_vrr(b, XV_VPXOR, 5, 14, 1); break;
	case 24: x86_vrr(b, XV_VPMULUDQ, 0, 1, 2); break;
	case 25: x86_vrr(b, XV_VPMULUDQ, 13, 12, 15); break;
	case 26: x86_vrr(b, XV_VPMULUDQ, 8, 3, 9); break;
	case 27: x86_vrr(b, XV_VPMULUDQ, 5, 14, 1); break;
	case 28: x86_vrr(b, XV_VPMULDQ, 0, 1, 2); break;
	case 29: x86_vrr(b, XV_VPMULDQ, 13, 12, 15); break;
	case 30: x86_vrr(b, XV_VPMULDQ, 8, 3, 9); break;
	case 31: x86_vrr(b, XV_VPMULDQ, 5, 14, 1); break;
	case 32: x86_vrr(b, XV_VPCMPEQQ, 0, 1, 2); break;
	case 33: x86_vrr(b, XV_VPCMPEQQ, 13, 12, 15); break;
	case 34: x86_vrr(b, XV_VPCMPEQQ, 8, 3, 9); break;
	case 35: x86_vrr(b, XV_VPCMPEQQ, 5, 14, 1); break;
	case 36: x86_vrr(b, XV_VPCMPGTQ, 0, 1, 2); break;
	case 37: x86_vrr(b, XV_VPCMPGTQ, 13, 12, 15); break;
	case 38: x86_vrr(b, XV_VPCMPGTQ, 8, 3, 9); break;
	case 39: x86_vrr(b, XV_VPCMPGTQ, 5, 14, 1); break;
	case 40: x86_vrr(b, XV_VPSLLVQ, 0, 1, 2); break;
	case 41: x86_vrr(b, XV_VPSLLVQ, 13, 12, 15); break;
	case 42: x86_vrr(b, XV_VPSLLVQ, 8, 3, 9); break;
	case 43: x86_vrr(b, XV_VPSLLVQ, 5, 14, 1); break;
	case 44: x86_vrr(b, XV_VPSRLVQ, 0, 1, 2); break;
	case 45: x86_vrr(b, XV_VPSRLVQ, 13, 12, 15); break;
	case 46: x86_vrr(b, XV_VPSRLVQ, 8, 3, 9); break;
	case 47: x86_vrr(b, XV_VPSRLVQ, 5, 14, 1); break;
	case 48: x86_vrm(b, XV_VPADDQ, 3, 10, (struct xmem){X_RDI, -1, 1, 0}); break;
	case 49: x86_vrm(b, XV_VPADDQ, 3, 10, (struct xmem){X_RDI, -1, 1, 256}); break;
	case 50: x86_vrm(b, XV_VPADDQ, 3, 10, (struct xmem){X_RDI, -1, 1, -64}); break;
	case 51: x86_vrm(b, XV_VPADDQ, 3, 10, (struct xmem){X_R9, -1, 1, 4096}); break;
	case 52: x86_vrm(b, XV_VPMULUDQ, 3, 10, (struct xmem){X_RDI, -1, 1, 0}); break;
	case 53: x86_vrm(b, XV_VPMULUDQ, 3, 10, (struct xmem){X_RDI, -1, 1, 256}); break;
	case 54: x86_vrm(b, XV_VPMULUDQ, 3, 10, (struct xmem){X_RDI, -1, 1, -64}); break;
	case 55: x86_vrm(b, XV_VPMULUDQ, 3, 10, (struct xmem){X_R9, -1, 1, 4096}); break;
	case 56: x86_vrm(b, XV_VPCMPGTQ, 3, 10, (struct xmem){X_RDI, -1, 1, 0}); break;
	case 57: x86_vrm(b, XV_VPCMPGTQ, 3, 10, (struct xmem){X_RDI, -1, 1, 256}); break;
	case 58: x86_vrm(b, XV_VPCMPGTQ, 3, 10, (struct xmem){X_RDI, -1, 1, -64}); break;
	case 59: x86_vrm(b, XV_VPCMPGTQ, 3, 10, (struct xmem){X_R9, -1, 1, 4096}); break;
	case 60: x86_vrm(b, XV_VMOVDQU_LD, 0, 0, (struct xmem){X_RDI, -1, 1, 0}); break;
	case 61: x86_vrm(b, XV_VMOVDQU_ST, 0, 0, (struct xmem){X_RDI, -1, 1, 0}); break;
	case 62: x86_vrm(b, XV_VPMASKMOVQ_ST, 0, 15, (struct xmem){X_RDI, -1, 1, 0}); break;
	case 63: x86_vrm(b, XV_VMOVDQU_LD, 0, 0, (struct xmem){X_RDI, -1, 1, 256}); break;
	case 64: x86_vrm(b, XV_VMOVDQU_ST, 0, 0, (struct xmem){X_RDI, -1, 1, 256}); break;
	case 65: x86_vrm(b, XV_VPMASKMOVQ_ST, 0, 15, (struct xmem){X_RDI, -1, 1, 256}); break;
	case 66: x86_vrm(b, XV_VMOVDQU_LD, 0, 0, (struct xmem){X_RDI, -1, 1, -64}); break;
	case 67: x86_vrm(b, XV_VMOVDQU_ST, 0, 0, (struct xmem){X_RDI, -1, 1, -64}); break;
	case 68: x86_vrm(b, XV_VPMASKMOVQ_ST, 0, 15, (struct xmem){X_RDI, -1, 1, -64}); break;
	case 69: x86_vrm(b, XV_VMOVDQU_LD, 0, 0, (struct xmem){X_RCX, X_RDX, 1, 0}); break;
	case 70: x86_vrm(b, XV_VMOVDQU_ST, 0, 0, (struct xmem){X_RCX, X_RDX, 1, 0}); break;
	case 71: x86_vrm(b, XV_VPMASKMOVQ_ST, 0, 15, (struct xmem){X_RCX, X_RDX, 1, 0}); break;
	case 72: x86_vrm(b, XV_VMOVDQU_LD, 0, 0, (struct xmem){X_R9, -1, 1, 4096}); break;
	case 73: x86_vrm(b, XV_VMOVDQU_ST, 0, 0, (struct xmem){X_R9, -1, 1, 4096}); break;
	case 74: x86_vrm(b, XV_VPMASKMOVQ_ST, 0, 15, (struct xmem){X_R9, -1, 1, 4096}); break;
	case 75: x86_vrm(b, XV_VMOVDQU_LD, 0, 0, (struct xmem){X_R13, -1, 1, 0}); break;
	case 76: x86_vrm(b, XV_VMOVDQU_ST, 0, 0, (struct xmem){X_R13, -1, 1, 0}); break;
	case 77: x86_vrm(b, XV_VPMASKMOVQ_ST, 0, 15, (struct xmem){X_R13, -1, 1, 0}); break;
	case 78: x86_vrm(b, XV_VMOVDQU_LD, 0, 0, (struct xmem){X_RSP, -1, 1, 8}); break;
	case 79: x86_vrm(b, XV_VMOVDQU_ST, 0, 0, (struct xmem){X_RSP, -1, 1, 8}); break;
	case 80: x86_vrm(b, XV_VPMASKMOVQ_ST, 0, 15, (struct xmem){X_RSP, -1, 1, 8}); break;
	case 81: x86_vrm(b, XV_VMOVDQU_LD, 0, 0, (struct xmem){-1, -1, 1, 256}); break;
	case 82: x86_vrm(b, XV_VMOVDQU_ST, 0, 0, (struct xmem){-1, -1, 1, 256}); break;
	case 83: x86_vrm(b, XV_VPMASKMOVQ_ST, 0, 15, (struct xmem){-1, -1, 1, 256}); break;
	case 84: x86_vrm(b, XV_VMOVDQU_LD, 11, 0, (struct xmem){X_RDI, -1, 1, 0}); break;
	case 85: x86_vrm(b, XV_VMOVDQU_ST, 11, 0, (struct xmem){X_RDI, -1, 1, 0}); break;
	case 86: x86_vrm(b, XV_VPMASKMOVQ_ST, 11, 15, (struct xmem){X_RDI, -1, 1, 0}); break;
	case 87: x86_vrm(b, XV_VMOVDQU_LD, 11, 0, (struct xmem){X_RDI, -1, 1, 256}); break;
	case 88: x86_vrm(b, XV_VMOVDQU_ST, 11, 0, (struct xmem){X_RDI, -1, 1, 256}); break;
	case 89: x86_vrm(b, XV_VPMASKMOVQ_ST, 11, 15, (struct xmem){X_RDI, -1, 1, 256}); break;
	case 90: x86_vrm(b, XV_VMOVDQU_LD, 11, 0, (struct xmem){X_RDI, -1, 1, -64}); break;
	case 91: x86_vrm(b, XV_VMOVDQU_ST, 11, 0, (struct xmem){X_RDI, -1, 1, -64}); break;
	case 92: x86_vrm(b, XV_VPMASKMOVQ_ST, 11, 15, (struct xmem){X_RDI, -1, 1, -64}); break;
	case 93: x86_vrm(b, XV_VMOVDQU_LD, 11, 0, (struct xmem){X_RCX, X_RDX, 1, 0}); break;
	case 94: x86_vrm(b, XV_VMOVDQU_ST, 11, 0, (struct xmem){X_RCX, X_RDX, 1, 0}); break;
	case 95: x86_vrm(b, XV_VPMASKMOVQ_ST, 11, 15, (struct xmem){X_RCX, X_RDX, 1, 0}); break;
	case 96: x86_vrm(b, XV_VMOVDQU_LD, 11, 0, (struct xmem){X_R9, -1, 1, 4096}); break;
	case 97: x86_vrm(b, XV_VMOVDQU_ST, 11, 0, (struct xmem){X_R9, -1, 1, 4096}); break;
	case 98: x86_vrm(b, XV_VPMASKMOVQ_ST, 11, 15, (struct xmem){X_R9, -1, 1, 4096}); break;
	case 99: x86_vrm(b, XV_VMOVDQU_LD, 11, 0, (struct xmem){X_R13, -1, 1, 0}); break;
	case 100: x86_vrm(b, XV_VMOVDQU_ST, 11, 0, (struct xmem){X_R13, -1, 1, 0}); break;
	case 101: x86_vrm(b, XV_VPMASKMOVQ_ST, 11, 15, (struct xmem){X_R13, -1, 1, 0}); break;
	case 102: x86_vrm(b, XV_VMOVDQU_LD, 11, 0, (struct xmem){X_RSP, -1, 1, 8}); break;
	case 103: x86_vrm(b, XV_VMOVDQU_ST, 11, 0, (struct xmem){X_RSP, -1, 1, 8}); break;
	case 104: x86_vrm(b, XV_VPMASKMOVQ_ST, 11, 15, (struct xmem){X_RSP, -1, 1, 8}); break;
	case 105: x86_vrm(b, XV_VMOVDQU_LD, 11, 0, (struct xmem){-1, -1, 1, 256}); break;
	case 106: x86_vrm(b, XV_VMOVDQU_ST, 11, 0, (struct xmem){-1, -1, 1, 256}); break;
	case 107: x86_vrm(b, XV_VPMASKMOVQ_ST, 11, 15, (struct xmem){-1, -1, 1, 256}); break;
	case 108: x86_vrm(b, XV_VMOVDQU_LD, 15, 0, (struct xmem){X_RDI, -1, 1, 0}); break;
	case 109: x86_vrm(b, XV_VMOVDQU_ST, 15, 0, (struct xmem){X_RDI, -1, 1, 0}); break;
	case 110: x86_vrm(b, XV_VPMASKMOVQ_ST, 15, 15, (struct xmem){X_RDI, -1, 1, 0}); break;
	case 111: x86_vrm(b, XV_VMOVDQU_LD, 15, 0, (struct xmem){X_RDI, -1, 1, 256}); break;
	case 112: x86_vrm(b, XV_VMOVDQU_ST, 15, 0, (struct xmem){X_RDI, -1, 1, 256}); break;
	case 113: x86_vrm(b, XV_VPMASKMOVQ_ST, 15, 15, (struct xmem){X_RDI, -1, 1, 256}); break;
	case 114: x86_vrm(b, XV_VMOVDQU_LD, 15, 0, (struct xmem){X_RDI, -1, 1, -64}); break;
	case 115: x86_vrm(b, XV_VMOVDQU_ST, 15, 0, (struct xmem){X_RDI, -1, 1, -64}); break;
	case 116: x86_vrm(b, XV_VPMASKMOVQ_ST, 15, 15, (struct xmem){X_RDI, -1, 1, -64}); break;
	case 117: x86_vrm(b, XV_VMOVDQU_LD, 15, 0, (struct xmem){X_RCX, X_RDX, 1, 0}); break;
	case 118: x86_vrm(b, XV_VMOVDQU_ST, 15, 0, (struct xmem){X_RCX, X_RDX, 1, 0}); break;
	case 119: x86_vrm(b, XV_VPMASKMOVQ_ST, 15, 15, (struct xmem){X_RCX, X_RDX, 1, 0}); break;
	case 120: x86_vrm(b, XV_VMOVDQU_LD, 15, 0, (struct xmem){X_R9, -1, 1, 4096}); break;
	case 121: x86_vrm(b, XV_VMOVDQU_ST, 15, 0, (struct xmem){X_R9, -1, 1, 4096}); break;
	case 122: x86_vrm(b, XV_VPMASKMOVQ_ST, 15, 15, (struct xmem){X_R9, -1, 1, 4096}); break;
	case 123: x86_vrm(b, XV_VMOVDQU_LD, 15, 0, (struct xmem){X_R13, -1, 1, 0}); break;
	case 124: x86_vrm(b, XV_VMOVDQU_ST, 15, 0, (struct xmem){X_R13, -1, 1, 0}); break;
	case 125: x86_vrm(b, XV_VPMASKMOVQ_ST, 15, 15, (struct xmem){X_R13, -1, 1, 0}); break;
	case 126: x86_vrm(b, XV_VMOVDQU_LD, 15, 0, (struct xmem){X_RSP, -1, 1, 8}); break;
	case 127: x86_vrm(b, XV_VMOVDQU_ST, 15, 0, (struct xmem){X_RSP, -1, 1, 8}); break;
	case 128: x86_vrm(b, XV_VPMASKMOVQ_ST, 15, 15, (struct xmem){X_RSP, -1, 1, 8}); break;
	case 129: x86_vrm(b, XV_VMOVDQU_LD, 15, 0, (struct xmem){-1, -1, 1, 256}); break;
	case 130: x86_vrm(b, XV_VMOVDQU_ST, 15, 0, (struct xmem){-1, -1, 1, 256}); break;
	case 131: x86_vrm(b, XV_VPMASKMOVQ_ST, 15, 15, (struct xmem){-1, -1, 1, 256}); break;
	case 132: x86_vrri(b, XV_VPBLENDD, 0, 1, 2, 0xAA); break;
	case 133: x86_v4(b, XV_VBLENDVPD, 0, 1, 2, 1); break;
	case 134: x86_vrri(b, XV_VPBLENDD, 13, 12, 15, 0xAA); break;
	case 135: x86_v4(b, XV_VBLENDVPD, 13, 12, 15, 9); break;
	case 136: x86_vrri(b, XV_VPBLENDD, 8, 3, 9, 0xAA); break;
	case 137: x86_v4(b, XV_VBLENDVPD, 8, 3, 9, 11); break;
	case 138: x86_vrri(b, XV_VPBLENDD, 5, 14, 1, 0xAA); break;
	case 139: x86_v4(b, XV_VBLENDVPD, 5, 14, 1, 3); break;
	case 140: x86_vshi(b, XV_VPSLLQ_I, 0, 1, 32); break;
	case 141: x86_vshi(b, XV_VPSLLQ_I, 14, 12, 63); break;
	case 142: x86_vshi(b, XV_VPSLLQ_I, 3, 9, 5); break;
	case 143: x86_vshi(b, XV_VPSRLQ_I, 0, 1, 32); break;
	case 144: x86_vshi(b, XV_VPSRLQ_I, 14, 12, 63); break;
	case 145: x86_vshi(b, XV_VPSRLQ_I, 3, 9, 5); break;
	case 146: x86_vshi(b, XV_VPSRAD_I, 0, 1, 32); break;
	case 147: x86_vshi(b, XV_VPSRAD_I, 14, 12, 63); break;
	case 148: x86_vshi(b, XV_VPSRAD_I, 3, 9, 5); break;
	case 149: x86_vshi(b, XV_VPSRAW_I, 0, 1, 32); break;
	case 150: x86_vshi(b, XV_VPSRAW_I, 14, 12, 63); break;
	case 151: x86_vshi(b, XV_VPSRAW_I, 3, 9, 5); break;
	case 152: x86_mov32(b, X_RAX, X_RSI); break;
	case 153: x86_mov32(b, X_R8, X_RDX); break;
	case 154: x86_mov32(b, X_RDX, X_R11); break;
	case 155: x86_alu_ri(b, 4, false, X_RDX, 15); break;
	case 156: x86_alu_ri(b, 7, false, X_RDX, 480); break;
	case 157: x86_alu_ri(b, 7, false, X_R8, 3); break;
	case 158: x86_alu_ri(b, 0, true, X_RDI, 32); break;
	case 159: x86_alu_ri(b, 5, true, X_R10, -200); break;
	case 160: x86_shift_ri(b, 4, false, X_RDX, 5); break;
	case 161: x86_shift_ri(b, 5, false, X_RAX, 4); break;
	case 162: x86_shift_ri(b, 5, true, X_R9, 7); break;
	case 163: x86_lea_rip(b, X_RCX, 0x40); break;
	case 164: x86_lea_rip(b, X_R9, -16); break;
	case 165: x86_jmp_r(b, X_R9); break;
	case 166: x86_jmp_r(b, X_RAX); break;
	case 167: x86_vzeroupper(b); break;
	case 168: x86_ret(b); break;
	case 169: x86_vrr(b, XV_VMOVMSKPD, X_RDX, 0, 13); break;
	case 170: x86_vrr(b, XV_VMOVMSKPD, X_R11, 0, 0); break;
	case 171: x86_vrr(b, XV_VMOVMSKPD, X_RAX, 0, 9); break;
	case 172: x86_alu_rr(b, X86_MOV, true, X_R9, X_RCX); break;
	case 173: x86_alu_rr(b, X86_MOV, true, X_RDI, X_R10); break;
	case 174: x86_alu_rr(b, X86_MOV, true, X_R10, X_RDI); break;
	case 175: x86_alu_rr(b, X86_SUB, true, X_R9, X_RDI); break;
	case 176: x86_alu_rr(b, X86_AND, false, X_RDX, X_RAX); break;
	case 177: x86_alu_rr(b, X86_OR, false, X_R11, X_RDX); break;
	case 178: x86_alu_rr(b, X86_XOR, false, X_R11, X_R11); break;
	case 179: x86_alu_ri(b, 6, false, X_RDX, 15); break;
	case 180: x86_vrm(b, XV_VMOVDQU_ST, 3, 0, (struct xmem){X_RDI, X_R9, 1, 0x100}); break;
	case 181: x86_vrm(b, XV_VMOVDQU_ST, 11, 0, (struct xmem){X_RDI, X_R9, 1, 0}); break;
	case 182: x86_vrr(b, XV_VPCMPEQD, 0, 1, 2); break;
	case 183: x86_vrr(b, XV_VPCMPEQD, 13, 12, 15); break;
	case 184: x86_vrm(b, XV_VPBROADCASTQ, 1, 0, (struct xmem){X_RDI, -1, 1, 64}); break;
	case 185: x86_vrm(b, XV_VPBROADCASTQ, 9, 0, (struct xmem){X_R9, -1, 1, 4096}); break;
	case 186: x86_vrm(b, XV_VPMOVZXDQ, 1, 0, (struct xmem){X_RCX, X_RDX, 1, 0}); break;
	case 187: x86_vrm(b, XV_VPMOVZXDQ, 10, 0, (struct xmem){X_RDI, -1, 1, 16}); break;
	case 188: x86_vrm(b, XV_VPMOVSXDQ, 1, 0, (struct xmem){X_RCX, X_RDX, 1, 0}); break;
	case 189: x86_vrm(b, XV_VPMOVSXDQ, 10, 0, (struct xmem){X_RDI, -1, 1, 16}); break;
	case 190: x86_vrr(b, XV_VPTEST, 2, 0, 2); break;
	case 191: x86_vrr(b, XV_VPTEST, 11, 0, 4); break;
	case 192: x86_vrmi(b, XV_VSHUFPS, 1, 1, (struct xmem){X_RDI, -1, 1, 96}, 0x88); break;
	case 193: x86_vrmi(b, XV_VSHUFPS, 12, 3, (struct xmem){X_R9, -1, 1, 256}, 0x88); break;
	case 194: x86_vrri(b, XV_VPERMQ, 1, 0, 1, 0xD8); break;
	case 195: x86_vrri(b, XV_VPERMQ, 13, 0, 2, 0xD8); break;
	case 196: x86_mov_ri(b, X_RAX, 0xffffffffu); break;
	case 197: x86_mov_ri(b, X_R8, 7); break;
	case 198: x86_mov_ri64(b, X_RAX, 0x123456789abcdef0ull); break;
	case 199: x86_mov_ri64(b, X_R11, 0x401000); break;
	case 200: x86_load(b, false, X_RAX, (struct xmem){X_RDI, -1, 1, 8}); break;
	case 201: x86_load(b, true, X_RCX, (struct xmem){X_R9, -1, 1, 256}); break;
	case 202: x86_load(b, true, X_R12, (struct xmem){X_RBX, -1, 1, 0}); break;
	case 203: x86_store(b, false, (struct xmem){X_RBX, -1, 1, 4}, X_R13); break;
	case 204: x86_store(b, true, (struct xmem){X_RDI, -1, 1, 200}, X_RAX); break;
	case 205: x86_mov_mi(b, (struct xmem){X_RBX, -1, 1, 12}, 0xffffffffu); break;
	case 206: x86_alu_mi(b, 0, false, (struct xmem){X_RBX, -1, 1, 20}, 1); break;
	case 207: x86_alu_mi(b, 5, true, (struct xmem){X_R9, -1, 1, 8}, -3); break;
	case 208: x86_push(b, X_RBX); break;
	case 209: x86_push(b, X_R15); break;
	case 210: x86_pop(b, X_RBX); break;
	case 211: x86_pop(b, X_R15); break;
	case 212: x86_call_r(b, X_RAX); break;
	case 213: x86_call_r(b, X_R11); break;
	case 214: x86_alu_rr(b, X86_ADD, false, X_RAX, X_R9); break;
	case 215: x86_alu_rr(b, X86_CMP, false, X_R12, X_RDX); break;
	case 216: x86_alu_rr(b, X86_TEST, true, X_RDX, X_RDX); break;
	case 217: x86_alu_rr(b, X86_TEST8, false, X_RAX, X_RAX); break;
	case 218: x86_load_ext(b, 1, false, X_RAX, (struct xmem){X_RCX, -1, 1, 5}); break;
	case 219: x86_load_ext(b, 1, true, X_RAX, (struct xmem){X_RCX, -1, 1, 0}); break;
	case 220: x86_load_ext(b, 2, false, X_RAX, (struct xmem){X_R9, -1, 1, 256}); break;
	case 221: x86_load_ext(b, 2, true, X_R12, (struct xmem){X_RCX, -1, 1, 2}); break;
	case 222: x86_load_ext(b, 4, false, X_RAX, (struct xmem){X_RCX, -1, 1, 4}); break;
	case 223: x86_load_ext(b, 4, true, X_RAX, (struct xmem){X_RCX, -1, 1, 4}); break;
	case 224: x86_load_ext(b, 8, false, X_RAX, (struct xmem){X_RCX, -1, 1, 8}); break;
	case 225: x86_load_ext(b, 4, true, X_R10, (struct xmem){X_R12, -1, 1, 1024}); break;
	case 226: x86_mov_mi8(b, (struct xmem){X_RBX, -1, 1, 12}, 1); break;
	case 227: x86_mov_mi8(b, (struct xmem){X_R10, -1, 1, 300}, 0); break;
	case 228: x86_imul_rr(b, true, X_RAX, X_RCX); break;
	case 229: x86_imul_rr(b, true, X_R9, X_R10); break;
	case 230: x86_imul_rr(b, false, X_RDX, X_R11); break;
	case 231: x86_alu_mr(b, X86_ADD, true, (struct xmem){X_RCX, -1, 1, 248}, X_RDX); break;
	case 232: x86_alu_mr(b, X86_ADD, false, (struct xmem){X_R8, -1, 1, 16}, X_R9); break;
	case 233: x86_alu_rm(b, X86_CMP, true, X_RDI, (struct xmem){X_RBX, -1, 1, 240}); break;
	case 234: x86_alu_rm(b, X86_ADD, true, X_R9, (struct xmem){X_RSI, -1, 1, 8}); break;
	case 235: x86_alu_rm(b, X86_CMP, false, X_R9, (struct xmem){X_R10, X_R11, 1, 128}); break;
	case 236: x86_alu_m8i(b, 7, (struct xmem){X_R10, -1, 1, 740}, 0); break;
	case 237: x86_alu_m8i(b, 7, (struct xmem){X_R9, X_RSI, 1, 628}, 0); break;
	case 238: x86_imul_rri(b, true, X_RSI, X_RSI, 656); break;
	case 239: x86_imul_rri(b, true, X_R11, X_R9, 800); break;
	case 240: x86_lea(b, X_R10, (struct xmem){X_RAX, -1, 1, 776}); break;
	case 241: x86_lea(b, X_RCX, (struct xmem){X_R12, X_R13, 1, 8}); break;
	case 242: x86_jmp_m(b, (struct xmem){X_R9, X_RSI, 1, 648}); break;
	case 243: x86_jmp_m(b, (struct xmem){X_RBX, -1, 1, 16}); break;
	case 244: x86_cmov_rm(b, 0x4, false, X_RDX, (struct xmem){X_RCX, -1, 1, 136}); break;
	case 245: x86_cmov_rm(b, 0x4, true, X_R9, (struct xmem){X_R10, -1, 1, 8}); break;
	case 246: x86_alu_mr(b, X86_CMP, true, (struct xmem){X_R9, -1, 1, 16}, X_R15); break;
	case 247: x86_popcnt(b, X_RDX, X_R8); break;
	case 248: x86_popcnt(b, X_R8, X_R8); break;
	case 249: x86_popcnt(b, X_RAX, X_RCX); break;
	case 250: x86_test_ri(b, X_RDX, 0xf0); break;
	case 251: x86_test_ri(b, X_R8, 0xff00); break;
	case 252: x86_vrr(b, XV_VMOVMSKPS, X_RAX, 0, 0); break;
	case 253: x86_vrr(b, XV_VMOVMSKPS, X_R11, 0, 13); break;
	case 254: x86_vshi(b, XV_VPSLLD_I, 0, 1, 31); break;
	case 255: x86_vshi(b, XV_VPSLLD_I, 14, 12, 3); break;
	case 256: x86_mov_mi64(b, (struct xmem){X_RBX, -1, 1, 12}, 1); break;
	case 257: x86_mov_mi64(b, (struct xmem){X_R9, X_R11, 1, 16}, -1); break;
	case 258: x86_alu_mi32(b, 7, (struct xmem){X_R11, -1, 1, 4}, 439); break;
	case 259: x86_alu_mi32(b, 7, (struct xmem){X_RBX, -1, 1, 256}, 0x12345678); break;
	case 260: x86_shift_cl(b, 4, false, X_RDX); break;
	case 261: x86_shift_cl(b, 4, false, X_R9); break;
	case 262: x86_shift_cl(b, 5, true, X_RAX); break;
	case 263: x86_store8(b, (struct xmem){X_RAX, -1, 1, 16}, X_RBP); break;
	case 264: x86_store8(b, (struct xmem){X_R10, -1, 1, 300}, X_RBP); break;
	default: break;
	}
}

static void test_jit_x86_matches_as(void **state)
{
	(void)state;
	for (size_t i = 0; i < NCASES; i++) {
		struct xbuf b = {0};
		emit_case(&b, i);
		if (b.len != want[i].len || memcmp(b.p, want[i].bytes, b.len) != 0) {
			print_error("%s: got", want[i].text);
			for (size_t k = 0; k < b.len; k++)
				print_error(" %02x", b.p[k]);
			print_error("\n");
			fail();
		}
		free(b.p);
	}
}

/* jcc and jmp take a 32-bit displacement from the end of the instruction */
static void test_jit_x86_jumps(void **state)
{
	(void)state;
	struct xbuf b = {0};
	size_t j1 = x86_jcc(&b, 0x4);  /* 0f 84 rel32 at 0 */
	size_t j2 = x86_jmp(&b);       /* e9 rel32 at 6 */
	size_t j3 = x86_jcc(&b, 0x5);  /* 0f 85 rel32 at 11 */
	x86_ret(&b);
	x86_patch(&b, j1, b.len);      /* forward to 18, past ret */
	x86_patch(&b, j2, 0);          /* back to 0 */
	x86_patch(&b, j3, 11);         /* to itself */
	static const uint8_t bytes[] = {0x0f, 0x84, 0x0c, 0x00, 0x00, 0x00, 0xe9, 0xf5, 0xff, 0xff,
					0xff, 0x0f, 0x85, 0xfa, 0xff, 0xff, 0xff, 0xc3};
	assert_int_equal(b.len, sizeof bytes);
	assert_memory_equal(b.p, bytes, sizeof bytes);
	assert_int_equal(j1, 2);
	assert_int_equal(j2, 7);
	assert_int_equal(j3, 13);
	free(b.p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jit_x86_matches_as),
		cmocka_unit_test(test_jit_x86_jumps),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
