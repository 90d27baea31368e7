// Fast-math intrinsics (approximate hardware instructions) on 64 inputs per op; out[op*64 + i].
#include "common.h"
KERNEL float_approx(unsigned *out, const unsigned char *in) {
  unsigned i = threadIdx.x, z = ZERO(in);
  // inputs: a spread of magnitudes and signs, plus specials on the last lanes
  float x = ((float)(int)(i * 37u % 101u) - 50.0f) * 0.173f + (float)z;
  if (i == 60) x = __uint_as_float(0x7f800000 + z);
  if (i == 61) x = __uint_as_float(0xff800000 + z);
  if (i == 62) x = __uint_as_float(0x80000000 + z);
  if (i == 63) x = __uint_as_float(0x00000001 + z);
  float y = x * 0.37f + 1.25f;
  float r[16]; int n = 0;
  r[n++] = __expf(x); r[n++] = __sinf(x); r[n++] = __cosf(x); r[n++] = __logf(fabsf(x));
  r[n++] = __log2f(fabsf(x)); r[n++] = rsqrtf(fabsf(x)); r[n++] = __fdividef(x, y);
  r[n++] = exp2f(x); r[n++] = __powf(fabsf(x), y); r[n++] = __tanf(x);
  unsigned t;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=r"(t) : "f"(x)); r[n++] = __uint_as_float(t);
  asm("rcp.approx.f32 %0, %1;" : "=r"(t) : "f"(x)); r[n++] = __uint_as_float(t);
  asm("tanh.approx.f32 %0, %1;" : "=r"(t) : "f"(x)); r[n++] = __uint_as_float(t);
  asm("sqrt.approx.f32 %0, %1;" : "=r"(t) : "f"(fabsf(x))); r[n++] = __uint_as_float(t);
  r[n++] = x; r[n++] = y;
  for (int k = 0; k < n; k++) out[k * 64 + i] = __float_as_uint(r[k]);
}
