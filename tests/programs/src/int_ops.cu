// Integer corner cases, 32 lanes, one (a, b) pair per lane; out[op*32 + lane].
#include "common.h"
__constant__ int A[32] = {0, 1, -1, INT_MIN, INT_MIN, INT_MAX, 7, -7, 7, -7, 100, 0x12345678,
  (int)0xdeadbeef, 31, 32, 33, 63, 64, -32, 255, 0x80000001, 0x7ffffffe, 5, -5, 1 << 30, 3, -3,
  0x0f0f0f0f, (int)0xf0f0f0f0, 12345, -99999, 2};
__constant__ int B[32] = {0, 0, 0, -1, 0, -1, 3, 3, -3, -3, 7, 16, 4, 1, 32, 33, 64, 65, -1, 8,
  2, 2, -1, 1, 31, 0x7fffffff, INT_MIN, 0x100, 40, 96, -33, 0x20};
__constant__ unsigned SEL[32] = {0x3210, 0x0123, 0x7654, 0x4567, 0x1111, 0x8888, 0x9abc, 0xcdef,
  0x0000, 0xffff, 0x7531, 0x2064, 0x5140, 0x3366, 0x0f0f, 0xf0f0, 0x1234, 0x8765, 0x0007,
  0x7000, 0x6543, 0x3456, 0x89ab, 0xba98, 0x2222, 0x4444, 0x6666, 0x1357, 0x2468, 0xaaaa,
  0x5555, 0xc3a1};
KERNEL int_ops(unsigned *out, const unsigned char *in) {
  unsigned l = threadIdx.x, z = ZERO(in);
  int a = A[l] + (int)z, b = B[l] + (int)z;
  unsigned ua = (unsigned)a, ub = (unsigned)b;
  unsigned r[64]; int n = 0;
  r[n++] = b ? 0u : 1u;
  r[n++] = (unsigned)(a / b);            // div.s32 (b may be 0; INT_MIN/-1)
  r[n++] = (unsigned)(a % b);            // rem.s32
  r[n++] = ua / ub;                      // div.u32
  r[n++] = ua % ub;                      // rem.u32
  { unsigned q; asm("rem.s32 %0, %1, %2;" : "=r"(q) : "r"(a), "r"(b)); r[n++] = q;
    asm("rem.u32 %0, %1, %2;" : "=r"(q) : "r"(ua), "r"(ub)); r[n++] = q; }
  r[n++] = (unsigned)__mulhi(a, b);
  r[n++] = __umulhi(ua, ub);
  r[n++] = (unsigned)(a * b);
  long long w = (long long)a * b; r[n++] = (unsigned)w; r[n++] = (unsigned)(w >> 32);
  r[n++] = __brev(ua);
  r[n++] = (unsigned)__clz(a);
  r[n++] = (unsigned)__popc(ua);
  r[n++] = (unsigned)__ffs(a);
  r[n++] = __byte_perm(ua, ub, SEL[l]);
  r[n++] = __funnelshift_l(ua, ub, ub);
  r[n++] = __funnelshift_lc(ua, ub, ub);
  r[n++] = __funnelshift_r(ua, ub, ub);
  r[n++] = __funnelshift_rc(ua, ub, ub);
  unsigned t;
  asm("shl.b32 %0, %1, %2;" : "=r"(t) : "r"(ua), "r"(ub)); r[n++] = t;
  asm("shr.u32 %0, %1, %2;" : "=r"(t) : "r"(ua), "r"(ub)); r[n++] = t;
  asm("shr.s32 %0, %1, %2;" : "=r"(t) : "r"(ua), "r"(ub)); r[n++] = t;
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(t) : "r"(ua), "r"(ub & 0xff), "r"((ub >> 3) & 0xff)); r[n++] = t;
  asm("bfe.s32 %0, %1, %2, %3;" : "=r"(t) : "r"(ua), "r"(l), "r"(ub & 0x3f)); r[n++] = t;
  asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(t) : "r"(ub), "r"(ua), "r"(l), "r"(ub & 0x3f)); r[n++] = t;
  asm("add.sat.s32 %0, %1, %2;" : "=r"(t) : "r"(ua), "r"(ub)); r[n++] = t;
  asm("sub.sat.s32 %0, %1, %2;" : "=r"(t) : "r"(ua), "r"(ub)); r[n++] = t;
  r[n++] = (unsigned)__hadd(a, b);
  r[n++] = (unsigned)__rhadd(a, b);
  r[n++] = __uhadd(ua, ub);
  r[n++] = __urhadd(ua, ub);
  r[n++] = __sad(a, b, l);
  r[n++] = __usad(ua, ub, l);
  r[n++] = (unsigned)__dp4a(a, b, (int)l);
  r[n++] = __dp2a_hi(ua, ub, l);
  r[n++] = (unsigned)abs(a);
  r[n++] = (unsigned)min(a, b);
  r[n++] = max(ua, ub);
  r[n++] = (unsigned)(a >> (l & 31)) ^ (ua >> (l & 31)) ^ (ua << (l & 31));
  asm("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(t) : "r"(ua), "r"(ub), "r"(SEL[l])); r[n++] = t;
  asm("prmt.b32.ecr %0, %1, %2, %3;" : "=r"(t) : "r"(ua), "r"(ub), "r"(SEL[l])); r[n++] = t;
  asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(t) : "r"(l), "r"(ub & 0x3f)); r[n++] = t;
  asm("szext.wrap.s32 %0, %1, %2;" : "=r"(t) : "r"(ua), "r"(ub)); r[n++] = t;
  for (int i = 0; i < n; i++) out[i * 32 + l] = r[i];
}
