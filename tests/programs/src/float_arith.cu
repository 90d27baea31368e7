// IEEE-rounded float/double arithmetic corner cases, 32 lanes; out[op*32 + lane] (float bits).
#include "common.h"
__constant__ unsigned A[32] = {0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x7f800000,
  0xff800000, 0x7fc00000, 0x7f800001, 0x00000001, 0x807fffff, 0x00800000, 0x7f7fffff,
  0x3eaaaaab, 0x40490fdb, 0xc2c80000, 0x4b000001, 0x3f000000, 0x5f000000, 0xcf000000,
  0x4f800000, 0x3fc00000, 0xc0200000, 0x33800000, 0x7f000000, 0x00400000, 0x41200000,
  0x3f7fffff, 0x4effffff, 0xdf000001, 0x3dcccccd, 0x42f6e979, 0x80000001};
__constant__ unsigned B[32] = {0x80000000, 0x00000000, 0x40400000, 0x40400000, 0x7f800000,
  0x7f800000, 0x3f800000, 0x3f800000, 0x3f000000, 0x00000001, 0x3f000000, 0x40000000,
  0x3f800000, 0xc0490fdb, 0x00000000, 0x3f800000, 0x00000000, 0x7fc00000, 0x80000000,
  0xbf800000, 0x41200000, 0x40e00000, 0x33800000, 0x7f000000, 0x00400000, 0x3eaaaaab,
  0x34000000, 0x3f800001, 0x4f000000, 0x3dcccccd, 0xbf800000, 0x00000001};
__constant__ unsigned C[32] = {0x00000000, 0x00000000, 0xbf800000, 0x3f800000, 0xff800000,
  0x7f800000, 0x00000000, 0x00000000, 0x80000000, 0x00000000, 0x80800000, 0xff7fffff,
  0xbf800000, 0x00000000, 0x3f800000, 0xcb000001, 0x80000000, 0x00000000, 0x3f800000,
  0x4f800000, 0x3f000000, 0x3e800000, 0xa7000000, 0xff7fffff, 0x00000001, 0xbfaaaaab,
  0xb3800000, 0xbf800000, 0x5f000000, 0xbc23d70a, 0x40000000, 0x80000000};
KERNEL float_arith(unsigned *out, const unsigned char *in) {
  unsigned l = threadIdx.x, z = ZERO(in);
  float a = __uint_as_float(A[l] + z), b = __uint_as_float(B[l] + z), c = __uint_as_float(C[l] + z);
  float r[64]; int n = 0;
  r[n++] = a + b; r[n++] = a - b; r[n++] = a * b; r[n++] = a / b;
  r[n++] = fmaf(a, b, c);
  r[n++] = __fdiv_rn(a, b); r[n++] = __fdiv_rz(a, b); r[n++] = __fdiv_ru(a, b); r[n++] = __fdiv_rd(a, b);
  r[n++] = __fadd_rz(a, b); r[n++] = __fadd_ru(a, b); r[n++] = __fadd_rd(a, b);
  r[n++] = __fmul_rz(a, b); r[n++] = __fmul_ru(a, b); r[n++] = __fmul_rd(a, b);
  r[n++] = __fmaf_rz(a, b, c); r[n++] = __fmaf_ru(a, b, c); r[n++] = __fmaf_rd(a, b, c);
  r[n++] = sqrtf(a); r[n++] = __fsqrt_rz(a); r[n++] = __fsqrt_ru(a); r[n++] = __fsqrt_rd(a);
  r[n++] = __frcp_rn(a); r[n++] = __frcp_rz(a); r[n++] = __frcp_ru(a); r[n++] = __frcp_rd(a);
  r[n++] = fminf(a, b); r[n++] = fmaxf(a, b); r[n++] = fminf(a, c); r[n++] = fmaxf(b, c);
  r[n++] = fabsf(a); r[n++] = -a; r[n++] = copysignf(a, b);
  r[n++] = __saturatef(a);
  r[n++] = truncf(a); r[n++] = floorf(a); r[n++] = ceilf(a); r[n++] = rintf(a); r[n++] = roundf(a);
  r[n++] = (a < b) ? 1.0f : 0.0f;
  r[n++] = (a != a) ? 1.0f : (a >= b ? 2.0f : 3.0f);
  unsigned t;
  asm("mul.ftz.f32 %0, %1, %2;" : "=r"(t) : "f"(a), "f"(b)); r[n++] = __uint_as_float(t);
  asm("add.ftz.sat.f32 %0, %1, %2;" : "=r"(t) : "f"(a), "f"(c)); r[n++] = __uint_as_float(t);
  asm("fma.rn.ftz.f32 %0, %1, %2, %3;" : "=r"(t) : "f"(a), "f"(b), "f"(c)); r[n++] = __uint_as_float(t);
  asm("min.NaN.f32 %0, %1, %2;" : "=r"(t) : "f"(a), "f"(b)); r[n++] = __uint_as_float(t);
  asm("max.xorsign.abs.f32 %0, %1, %2;" : "=r"(t) : "f"(a), "f"(b)); r[n++] = __uint_as_float(t);
  asm("{ .reg .pred p; testp.subnormal.f32 p, %1; selp.u32 %0, 1, 0, p; }" : "=r"(t) : "f"(a));
  r[n++] = __uint_as_float(t);
  double da = a, db = b, dc = c;
  double d1 = da / db, d2 = fma(da, db, dc), d3 = sqrt(fabs(da) * 3.0), d4 = da * db + 1e-300;
  r[n++] = __uint_as_float((unsigned)__double_as_longlong(d1)); r[n++] = __uint_as_float((unsigned)(__double_as_longlong(d1) >> 32));
  r[n++] = __uint_as_float((unsigned)__double_as_longlong(d2)); r[n++] = __uint_as_float((unsigned)(__double_as_longlong(d2) >> 32));
  r[n++] = __uint_as_float((unsigned)__double_as_longlong(d3)); r[n++] = __uint_as_float((unsigned)(__double_as_longlong(d3) >> 32));
  r[n++] = __uint_as_float((unsigned)__double_as_longlong(d4)); r[n++] = __uint_as_float((unsigned)(__double_as_longlong(d4) >> 32));
  double d5 = __drcp_rn(da), d6 = __ddiv_rz(da, db), d7 = __dsqrt_ru(fabs(db));
  r[n++] = __uint_as_float((unsigned)(__double_as_longlong(d5) >> 32));
  r[n++] = __uint_as_float((unsigned)(__double_as_longlong(d6) >> 32)); r[n++] = __uint_as_float((unsigned)__double_as_longlong(d6));
  r[n++] = __uint_as_float((unsigned)__double_as_longlong(d7));
  for (int i = 0; i < n; i++) out[i * 32 + l] = __float_as_uint(r[i]);
}
