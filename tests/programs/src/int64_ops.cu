// 64-bit integer corner cases, 32 lanes; out[op*32 + lane] (64-bit results as lo, hi words).
#include "common.h"
__constant__ long long A[32] = {0, 1, -1, LLONG_MIN, LLONG_MIN, LLONG_MAX, 7, -7, 7, -7,
  1000000000000LL, 0x123456789abcdef0LL, (long long)0xdeadbeefcafebabeULL, 63, 64, 65,
  0x100000000LL, -0x100000000LL, 0xffffffffLL, 255, (long long)0x8000000000000001ULL,
  0x7ffffffffffffffeLL, 5, -5, 1LL << 62, 3, -3, 0x0f0f0f0f0f0f0f0fLL, 12345678901LL,
  -98765432109LL, 2, 0x7fffffffLL};
__constant__ long long B[32] = {0, 0, 0, -1, 0, -1, 3, 3, -3, -3, 7, 0x10000, 0xffffffffLL, 1,
  64, 65, 128, 0x100000000LL, -1, 8, 2, 2, -1, 1, 63, LLONG_MAX, LLONG_MIN, 0x100, 40, 96, -65,
  0x80000000LL};
KERNEL int64_ops(unsigned *out, const unsigned char *in) {
  unsigned l = threadIdx.x, z = ZERO(in);
  long long a = A[l] + z, b = B[l] + z;
  unsigned long long ua = a, ub = b;
  unsigned long long r[32]; int n = 0;
  r[n++] = (unsigned long long)(a / b);
  r[n++] = (unsigned long long)(a % b);
  r[n++] = ua / ub;
  r[n++] = ua % ub;
  r[n++] = ua * ub;
  r[n++] = (unsigned long long)__mul64hi(a, b);
  r[n++] = __umul64hi(ua, ub);
  r[n++] = __brevll(ua);
  r[n++] = (unsigned long long)__clzll(a);
  r[n++] = (unsigned long long)__popcll(ua);
  r[n++] = (unsigned long long)__ffsll(a);
  unsigned long long t;
  asm("shl.b64 %0, %1, %2;" : "=l"(t) : "l"(ua), "r"((unsigned)ub)); r[n++] = t;
  asm("shr.u64 %0, %1, %2;" : "=l"(t) : "l"(ua), "r"((unsigned)ub)); r[n++] = t;
  asm("shr.s64 %0, %1, %2;" : "=l"(t) : "l"(ua), "r"((unsigned)ub)); r[n++] = t;
  asm("bfe.u64 %0, %1, %2, %3;" : "=l"(t) : "l"(ua), "r"((unsigned)ub & 0xff), "r"(l * 3)); r[n++] = t;
  asm("bfe.s64 %0, %1, %2, %3;" : "=l"(t) : "l"(ua), "r"(l * 2), "r"((unsigned)ub & 0x7f)); r[n++] = t;
  asm("bfi.b64 %0, %1, %2, %3, %4;" : "=l"(t) : "l"(ub), "l"(ua), "r"(l * 2), "r"((unsigned)ub & 0x7f)); r[n++] = t;
  asm("rem.s64 %0, %1, %2;" : "=l"(t) : "l"(a), "l"(b)); r[n++] = t;
  asm("div.s64 %0, %1, %2;" : "=l"(t) : "l"(a), "l"(b)); r[n++] = t;
  asm("mad.lo.s64 %0, %1, %2, %3;" : "=l"(t) : "l"(a), "l"(b), "l"(ua >> 3)); r[n++] = t;
  r[n++] = (unsigned long long)llabs(a);
  r[n++] = (unsigned long long)min(a, b);
  r[n++] = max(ua, ub);
  r[n++] = (unsigned long long)(long long)(int)(unsigned)ua;      // cvt.s64.s32
  r[n++] = (unsigned long long)(short)ua | ((unsigned long long)(signed char)ub << 32);
  for (int i = 0; i < n; i++) { out[(2 * i) * 32 + l] = (unsigned)r[i]; out[(2 * i + 1) * 32 + l] = (unsigned)(r[i] >> 32); }
}
