// __match_any_sync / __match_all_sync (match.sync), 2 warps; out[op*64 + tid].
#include "common.h"
KERNEL warp_match(unsigned *out, const unsigned char *in) {
  unsigned t = threadIdx.x, l = t & 31, z = ZERO(in);
  unsigned v = in[t * 3 + 1] * 0x01010101u + t + z;
  const unsigned F = 0xffffffffu;
  unsigned r[12]; int n = 0;
  r[n++] = __match_any_sync(F, v % 5);
  r[n++] = __match_any_sync(F, (unsigned long long)(l / 6) << 33);
  int pred = 0; r[n++] = __match_all_sync(F, l / 40 + z, &pred); r[n++] = pred;
  r[n++] = __match_all_sync(F, l, &pred); r[n++] = pred;
  r[n++] = __match_all_sync(F, (unsigned long long)t / 32 + z, &pred); r[n++] = pred;
  unsigned sub = 0;
  if (l & 1) sub = __match_any_sync(0xaaaaaaaau, l % 3);
  else if (l < 20) sub = __match_any_sync(0x00055555u, v & 3);
  r[n++] = sub;
  for (int k = 0; k < n; k++) out[k * 64 + t] = r[k];
}
