// Conversions of NaN/inf/out-of-range/halfway values, 32 lanes; out[op*32 + lane].
#include "common.h"
#include <cuda_fp16.h>
#include <cuda_bf16.h>
__constant__ unsigned F[32] = {0x7fc00000, 0xffc00001, 0x7f800000, 0xff800000, 0x80000000,
  0x00000000, 0x3f000000, 0xbf000000, 0x3fc00000, 0xc0200000, 0x4f000000, 0xcf000000,
  0x4f000001, 0xcf000001, 0x4f800000, 0x5f000000, 0xdf000000, 0x5f800000, 0x3f7fffff,
  0x477fe000, 0x477ff000, 0x47800000, 0x33000000, 0x33000001, 0x387fc000, 0x00000001,
  0x3f801000, 0x3f800800, 0x3f801800, 0xbf800fff, 0x4b7fffff, 0x7f7fffff};
__constant__ unsigned long long D[32] = {0x7ff8000000000000ULL, 0x7ff0000000000000ULL,
  0xfff0000000000000ULL, 0x8000000000000000ULL, 0x3ff0000010000000ULL, 0x3ff0000030000000ULL,
  0x3ff0000010000001ULL, 0xbff0000010000000ULL, 0x47efffffe0000000ULL, 0x47effffff0000000ULL,
  0x47f0000000000000ULL, 0x36a0000000000000ULL, 0x3690000000000000ULL, 0x3690000000000001ULL,
  0x41dfffffffc00000ULL, 0x41e0000000000000ULL, 0xc1e0000000000000ULL, 0xc1e0000000200000ULL,
  0x41efffffffe00000ULL, 0x43e0000000000000ULL, 0xc3e0000000000000ULL, 0x43f0000000000000ULL,
  0x3fe0000000000000ULL, 0xbfe0000000000000ULL, 0x4004000000000000ULL, 0xc00c000000000000ULL,
  0x0000000000000001ULL, 0x380fffffffffffffULL, 0x3e70000000000001ULL, 0x7fefffffffffffffULL,
  0x4330000000000001ULL, 0xfff8000000000123ULL};
__constant__ long long I[32] = {0, 1, -1, 0x7fffffff, -0x80000000LL, 0x1000001, 0x1000003,
  -0x1000001, 0xffffffffLL, 0x7fffffffffffffffLL, (long long)0x8000000000000000ULL,
  0x20000000000001LL, 0x20000000000003LL, -0x20000000000001LL, 0x7ffffe00, 0x7fffff80,
  0xffffff7fLL, 12345, -12345, 65504, 65520, -65536, 0x100000001LL, 0x7fffffffffffff00LL,
  (long long)0xffffffffffffff7fULL, 3, -3, 0x40000041, 0x1fffffffffffffLL, 0x7fffffffffffffffLL - 255,
  0x123456789LL, -0x123456789LL};
KERNEL cvt_ops(unsigned *out, const unsigned char *in) {
  unsigned l = threadIdx.x, z = ZERO(in);
  float f = __uint_as_float(F[l] + z);
  double d = __longlong_as_double(D[l] + z);
  long long i = I[l] + z;
  unsigned r[80]; int n = 0;
  r[n++] = __float2int_rn(f); r[n++] = __float2int_rz(f); r[n++] = __float2int_ru(f); r[n++] = __float2int_rd(f);
  r[n++] = __float2uint_rn(f); r[n++] = __float2uint_rz(f); r[n++] = __float2uint_ru(f); r[n++] = __float2uint_rd(f);
  long long q = __float2ll_rn(f); r[n++] = (unsigned)q; r[n++] = (unsigned)(q >> 32);
  q = __float2ll_rz(f); r[n++] = (unsigned)q; r[n++] = (unsigned)(q >> 32);
  unsigned long long uq = __float2ull_ru(f); r[n++] = (unsigned)uq; r[n++] = (unsigned)(uq >> 32);
  r[n++] = __double2int_rn(d); r[n++] = __double2int_rz(d); r[n++] = __double2uint_rd(d); r[n++] = __double2uint_ru(d);
  q = __double2ll_rn(d); r[n++] = (unsigned)q; r[n++] = (unsigned)(q >> 32);
  uq = __double2ull_rz(d); r[n++] = (unsigned)uq; r[n++] = (unsigned)(uq >> 32);
  r[n++] = __float_as_uint(__double2float_rn(d)); r[n++] = __float_as_uint(__double2float_rz(d));
  r[n++] = __float_as_uint(__double2float_ru(d)); r[n++] = __float_as_uint(__double2float_rd(d));
  unsigned long long db = __double_as_longlong((double)f); r[n++] = (unsigned)db; r[n++] = (unsigned)(db >> 32);
  r[n++] = __float_as_uint(__int2float_rn((int)i)); r[n++] = __float_as_uint(__int2float_rz((int)i));
  r[n++] = __float_as_uint(__int2float_ru((int)i)); r[n++] = __float_as_uint(__int2float_rd((int)i));
  r[n++] = __float_as_uint(__uint2float_rn((unsigned)i)); r[n++] = __float_as_uint(__uint2float_rd((unsigned)i));
  r[n++] = __float_as_uint(__ll2float_rn(i)); r[n++] = __float_as_uint(__ll2float_rz(i));
  r[n++] = __float_as_uint(__ull2float_ru((unsigned long long)i)); r[n++] = __float_as_uint(__ull2float_rd((unsigned long long)i));
  db = __double_as_longlong(__ll2double_rn(i)); r[n++] = (unsigned)db; r[n++] = (unsigned)(db >> 32);
  db = __double_as_longlong(__ull2double_rz((unsigned long long)i)); r[n++] = (unsigned)db; r[n++] = (unsigned)(db >> 32);
  __half h = __float2half_rn(f); r[n++] = __half_as_ushort(h); r[n++] = __float_as_uint(__half2float(h));
  r[n++] = __half_as_ushort(__float2half_rz(f)); r[n++] = __half_as_ushort(__float2half_ru(f)); r[n++] = __half_as_ushort(__float2half_rd(f));
  r[n++] = __half_as_ushort(__double2half(d));
  r[n++] = __float_as_uint(__half2float(__ushort_as_half((unsigned short)(F[l] >> 16) + z)));
  r[n++] = __half_as_ushort(__int2half_rn((int)i)); r[n++] = (unsigned)__half2int_rz(__ushort_as_half((unsigned short)(F[l] >> 16) + z));
  __nv_bfloat16 bf = __float2bfloat16_rn(f); r[n++] = __bfloat16_as_ushort(bf); r[n++] = __float_as_uint(__bfloat162float(bf));
  r[n++] = __bfloat16_as_ushort(__float2bfloat16_rz(f));
  __half2 h2 = __floats2half2_rn(f, __uint_as_float(F[(l + 5) & 31] + z)); r[n++] = *(unsigned *)&h2;
  unsigned t;
  asm("cvt.rni.s8.f32 %0, %1;" : "=r"(t) : "f"(f)); r[n++] = t;
  asm("cvt.rzi.sat.u16.f32 %0, %1;" : "=r"(t) : "f"(f)); r[n++] = t;
  asm("cvt.s8.s32 %0, %1;" : "=r"(t) : "r"((int)i)); r[n++] = t;
  asm("cvt.sat.u8.s32 %0, %1;" : "=r"(t) : "r"((int)i)); r[n++] = t;
  asm("cvt.sat.s16.s64 %0, %1;" : "=r"(t) : "l"(i)); r[n++] = t;
  asm("cvt.sat.u32.s64 %0, %1;" : "=r"(t) : "l"(i)); r[n++] = t;
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(t) : "f"(f)); r[n++] = t;
  asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(*(unsigned short *)&t) : "f"(f), "f"(-f)); r[n++] = t & 0xffff;
  asm("{ .reg .b16 hh; cvt.rn.satfinite.e5m2x2.f32 hh, %1, %2; cvt.u32.u16 %0, hh; }" : "=r"(t) : "f"(f), "f"(0.3f)); r[n++] = t;
  asm("cvt.rn.relu.f16x2.f32 %0, %1, %2;" : "=r"(t) : "f"(f), "f"(-f)); r[n++] = t;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(*(unsigned short *)&t) : "f"(f)); r[n++] = t & 0xffff;
  for (int k = 0; k < n; k++) out[k * 32 + l] = r[k];
}
