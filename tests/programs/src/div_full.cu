// div.full.f32 (the approximate full-range division Triton emits) and div.approx.f32 on 256
// operand pairs; out[i] = div.full, out[256 + i] = div.approx, out[512 + i] = div.rn for reference.
#include "common.h"
KERNEL div_full(unsigned *out, const unsigned char *in) {
  unsigned i = threadIdx.x, z = ZERO(in);
  unsigned ha = (i * 2654435761u) ^ (i >> 3), hb = (i * 40503u + 17u) * 2246822519u;
  float a = __uint_as_float(((ha & 0x007fffffu) | 0x3f800000u) + z) * (float)((int)(i % 13) - 6);
  float b = __uint_as_float(((hb & 0x007fffffu) | 0x3f800000u) + z) * (float)(1 + i % 7);
  if (i >= 240) { a = __uint_as_float(0x7f000000u + i + z); b = __uint_as_float(0x3e000000u + (i << 12)); }   // huge / small
  unsigned r0, r1;
  asm("div.full.f32 %0, %1, %2;" : "=r"(r0) : "f"(a), "f"(b));
  asm("div.approx.f32 %0, %1, %2;" : "=r"(r1) : "f"(a), "f"(b));
  out[i] = r0; out[256 + i] = r1; out[512 + i] = __float_as_uint(__fdiv_rn(a, b));
  out[768 + i] = __float_as_uint(a); out[1024 + i] = __float_as_uint(b);
}
