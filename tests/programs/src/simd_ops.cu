// SIMD-within-a-word intrinsics (__v*2 / __v*4), 32 lanes; out[op*32 + lane].
#include "common.h"
__constant__ unsigned A[32] = {0, 1, 0xffffffff, 0x80000000, 0x7fff8000, 0x12345678, 0xdeadbeef,
  0x7f7f7f7f, 0x80808080, 0x01ff01ff, 0xff00ff00, 0x00ff00ff, 0x7fff7fff, 0x80008000, 0x55aa55aa,
  0xaa55aa55, 0x0f0f0f0f, 0xf0f0f0f0, 0x11223344, 0x44332211, 0xfffe0002, 0x0002fffe, 0x7f80017f,
  0x12121212, 0xc0c0c0c0, 0x40404040, 0x33cc33cc, 0xcafebabe, 0x00010001, 0x8001ffff, 0x7ffe8000, 0x01020304};
__constant__ unsigned B[32] = {0, 0xffffffff, 1, 0x80000000, 0x00018001, 0x87654321, 0xbeefdead,
  0x01010101, 0x80808080, 0xff01ff01, 0x00ff00ff, 0xff00ff00, 0x00017fff, 0x80000001, 0xaa55aa55,
  0xaa55aa55, 0xf0f0f0f0, 0x0f0f0f0f, 0x44332211, 0x11223344, 0x0003fffd, 0xfffd0003, 0x017f7f80,
  0x12121213, 0x40404040, 0xc0c0c0c0, 0xcc33cc33, 0xbabecafe, 0xffffffff, 0x80017fff, 0x00027fff, 0x04030201};
KERNEL simd_ops(unsigned *out, const unsigned char *in) {
  unsigned l = threadIdx.x, z = ZERO(in);
  unsigned a = A[l] + z, b = B[l] + z;
  unsigned r[32]; int n = 0;
  r[n++] = __vadd2(a, b); r[n++] = __vaddss2(a, b); r[n++] = __vaddus2(a, b); r[n++] = __vsub2(a, b);
  r[n++] = __vabsdiffs2(a, b); r[n++] = __vabsdiffu2(a, b); r[n++] = __vmaxs2(a, b); r[n++] = __vminu2(a, b);
  r[n++] = __vcmpgts2(a, b); r[n++] = __vcmpeq2(a, b); r[n++] = __vavgs2(a, b); r[n++] = __vhaddu2(a, b);
  r[n++] = __vadd4(a, b); r[n++] = __vaddss4(a, b); r[n++] = __vaddus4(a, b); r[n++] = __vsub4(a, b);
  r[n++] = __vsubss4(a, b); r[n++] = __vabsdiffs4(a, b); r[n++] = __vabsdiffu4(a, b); r[n++] = __vmaxu4(a, b);
  r[n++] = __vmins4(a, b); r[n++] = __vcmpltu4(a, b); r[n++] = __vcmpges4(a, b); r[n++] = __vavgu4(a, b);
  r[n++] = __vsads4(a, b); r[n++] = __vsadu2(a, b); r[n++] = __vabsss4(a); r[n++] = __vneg2(a);
  for (int k = 0; k < n; k++) out[k * 32 + l] = r[k];
}
