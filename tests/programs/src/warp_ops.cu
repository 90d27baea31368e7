// Warp collectives, 2 warps (64 threads); out[op*64 + tid].
#include "common.h"
KERNEL warp_ops(unsigned *out, const unsigned char *in) {
  unsigned t = threadIdx.x, l = t & 31, z = ZERO(in);
  unsigned v = in[t * 3 + 1] * 0x01010101u + t + z;   // lane-varying data
  const unsigned F = 0xffffffffu;
  unsigned r[40]; int n = 0;
  r[n++] = __shfl_sync(F, v, (l * 7 + 3) & 31);
  r[n++] = __shfl_sync(F, v, l + 5, 8);              // width 8, index past the segment
  r[n++] = __shfl_up_sync(F, v, 3, 16);
  r[n++] = __shfl_down_sync(F, v, 5, 8);
  r[n++] = __shfl_xor_sync(F, v, 6, 4);
  r[n++] = __shfl_xor_sync(F, v, 17);
  r[n++] = __shfl_up_sync(F, v, 0);
  r[n++] = __shfl_down_sync(F, v, 31);
  double dv = (double)v * 1.5; double ds = __shfl_down_sync(F, dv, 1, 16);
  r[n++] = (unsigned)(__double_as_longlong(ds) >> 32);
  r[n++] = __ballot_sync(F, v & 1);
  r[n++] = __ballot_sync(F, l > t / 3);
  r[n++] = __all_sync(F, v != 7);
  r[n++] = __all_sync(F, v & 1);
  r[n++] = __any_sync(F, v == in[5] * 0x01010101u + 5);
  r[n++] = __any_sync(F, l == 40);
  r[n++] = __reduce_add_sync(F, v);
  r[n++] = __reduce_min_sync(F, v);
  r[n++] = __reduce_max_sync(F, (int)(v << 20));
  r[n++] = __reduce_and_sync(F, v | 0x10);
  r[n++] = __reduce_or_sync(F, 1u << l);
  r[n++] = __reduce_xor_sync(F, v);
  r[n++] = __activemask();
  unsigned act = 0, part = 0, sub = 0;
  if (l < 10) { act = __activemask(); part = __shfl_sync(0x3ff, v, 9 - l); sub = __ballot_sync(0x3ff, v & 2); }
  else if (l & 1) { sub = __reduce_add_sync(0xaaaaa800u, l); part = __shfl_sync(0xaaaaa800u, v, l == 11 ? 11 : (l ^ 2)); }  // stays inside the mask
  else { sub = __ballot_sync(0x55555400u, l % 3 == 0); }
  r[n++] = act; r[n++] = part; r[n++] = sub;
  __syncwarp();
  r[n++] = __popc(__ballot_sync(F, 1));
  // warp-level inclusive scan with shfl_up
  unsigned s = v & 0xff;
  for (int d = 1; d < 32; d <<= 1) { unsigned o = __shfl_up_sync(F, s, d); if (l >= d) s += o; }
  r[n++] = s;
  for (int k = 0; k < n; k++) out[k * 64 + t] = r[k];
}
