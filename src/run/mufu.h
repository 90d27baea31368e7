/*
 * mufu.h - bit-exact model of the H100's special-function unit (MUFU) and of the SASS sequences
 * ptxas 13 (sm_90) emits for the f32 .approx / div.full instructions. All values are f32 bit
 * patterns. See docs/alu.md ("Approximate instructions") for how the tables were measured.
 */
#ifndef PTXI_MUFU_H
#define PTXI_MUFU_H

#include <stdbool.h>
#include <stdint.h>

/* The MUFU operations themselves (subnormal inputs and results flushed to zero). */
uint32_t mufu_rcp(uint32_t x);
uint32_t mufu_rsq(uint32_t x);
uint32_t mufu_sqrt(uint32_t x);
uint32_t mufu_ex2(uint32_t x);
uint32_t mufu_lg2(uint32_t x);
uint32_t mufu_sin(uint32_t x); /* x in turns (after the FMUL.RZ by 1/(2 pi)) */
uint32_t mufu_cos(uint32_t x);
uint32_t mufu_tanh(uint32_t x);

/* PTX instructions, as the SASS sequence ptxas emits for each (bit-exact on the H100). */
uint32_t ptx_rcp_approx_f32(uint32_t a, bool ftz);
uint32_t ptx_rsqrt_approx_f32(uint32_t a, bool ftz);
uint32_t ptx_sqrt_approx_f32(uint32_t a, bool ftz);
uint32_t ptx_ex2_approx_f32(uint32_t a, bool ftz);
uint32_t ptx_lg2_approx_f32(uint32_t a, bool ftz);
uint32_t ptx_sin_approx_f32(uint32_t a); /* .ftz changes nothing */
uint32_t ptx_cos_approx_f32(uint32_t a);
uint32_t ptx_tanh_approx_f32(uint32_t a);
uint32_t ptx_div_approx_f32(uint32_t a, uint32_t b, bool ftz);
uint32_t ptx_div_full_f32(uint32_t a, uint32_t b, bool ftz);

/* The f32 multiply ptxas uses around MUFU: FMUL (round to nearest, subnormals kept) and
 * FMUL.FTZ (subnormal inputs and tiny-before-rounding results flushed). */
uint32_t mufu_fmul(uint32_t a, uint32_t b, bool ftz);

#endif
