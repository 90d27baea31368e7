// Atomics on global and shared memory with order-independent outcomes. 2 blocks x 128 threads.
// out layout: [0..63] scalar results, [64..] per-thread / per-slot results.
#include "common.h"
__device__ unsigned g_scratch[64];
KERNEL atomics(unsigned *out, const unsigned char *in) {
  __shared__ int s_i[8]; __shared__ unsigned s_u[8]; __shared__ float s_f; __shared__ double s_d;
  __shared__ unsigned long long s_q; __shared__ unsigned s_hist[256];
  unsigned t = threadIdx.x, b = blockIdx.x, g = b * 128 + t, z = ZERO(in);
  unsigned v = in[g] + z;                    // 0..255
  if (t < 8) { s_i[t] = 0; s_u[t] = 0; }
  if (t == 0) { s_f = 0.0f; s_d = 0.0; s_q = 0; s_i[2] = INT_MAX; s_u[3] = 0xffffffffu; s_u[5] = 77; }
  s_hist[t] = 0; s_hist[t + 128] = 0;
  __syncthreads();
  atomicAdd(&s_i[0], (int)v - 128);
  atomicAdd(&s_u[0], v * 0x01000001u);
  atomicAdd(&s_f, (float)((int)v - 100) * 0.25f);          // exact in any order
  atomicAdd(&s_d, (double)v * 1048576.0 + 0.5);
  atomicAdd(&s_q, (unsigned long long)v << 30);
  atomicMax(&s_i[1], (int)(v * 2654435761u));
  atomicMin(&s_i[2], (int)(v * 2654435761u));
  atomicMax(&s_u[2], v * 40503u);
  atomicMin(&s_u[3], v * 40503u + 1);
  unsigned inc = atomicInc(&s_u[4], 9);                     // wraps at 10
  unsigned dec = atomicDec(&s_u[5], 100);
  atomicOr(&s_u[6], 1u << (v & 31));
  atomicXor(&s_u[7], v * 0x9e3779b9u);
  atomicAnd(&s_i[3], (int)v);
  unsigned ex = atomicExch(&s_i[4], (int)g + 1);             // a chain: sum of olds + final is fixed
  unsigned tk = atomicAdd(&s_hist[v], 1);                    // ticket per value
  // CAS loop: float max and 64-bit multiply-free accumulate
  {
    unsigned *p = &s_u[1]; unsigned old = *p, assumed;
    do { assumed = old; old = atomicCAS(p, assumed, max(assumed, v * 3 + 1)); } while (old != assumed);
  }
  __syncthreads();
  // global atomics: the output buffer is zero-filled
  atomicAdd(&out[0], v);
  atomicAdd((int *)&out[1], (int)v - 200);
  atomicAdd((float *)&out[2], 0.5f * (float)(v & 15));
  atomicAdd((unsigned long long *)&out[4], (unsigned long long)v * 0x100000001ULL);
  atomicAdd((double *)&out[6], (double)v / 8.0);
  atomicMax(&out[8], v ^ 0x5a);
  atomicMin((int *)&out[9], -(int)v);
  atomicMax((long long *)&out[10], (long long)v << 40);
  atomicMin((unsigned long long *)&out[12], 0ULL);
  atomicInc(&out[14], 37);
  atomicDec(&out[15], 13);
  atomicOr(&out[16], v << (t & 7));
  atomicAnd(&out[17], 0xffffffffu);
  unsigned long long *q = (unsigned long long *)&out[18];
  { unsigned long long old = *q, assumed;                  // CAS loop: 64-bit add through CAS
    do { assumed = old; old = atomicCAS(q, assumed, assumed + v + ((unsigned long long)t << 32)); } while (old != assumed); }
  atomicAdd_block(&out[20], 1);
  atomicAdd_system(&out[21], 2);
  atomicExch(&g_scratch[t & 63], 0);
  atomicAdd(&out[22], atomicExch(&out[23], 0) * 0);      // plain exch use, result 0
  __syncthreads();
  if (t == 0) {
    unsigned base = 24 + b * 20;
    out[base + 0] = (unsigned)s_i[0]; out[base + 1] = s_u[0]; out[base + 2] = __float_as_uint(s_f);
    out[base + 3] = (unsigned)__double_as_longlong(s_d); out[base + 4] = (unsigned)(__double_as_longlong(s_d) >> 32);
    out[base + 5] = (unsigned)s_q; out[base + 6] = (unsigned)(s_q >> 32);
    out[base + 7] = s_i[1]; out[base + 8] = s_i[2]; out[base + 9] = s_u[2]; out[base + 10] = s_u[3];
    out[base + 11] = s_u[4]; out[base + 12] = s_u[5]; out[base + 13] = s_u[6]; out[base + 14] = s_u[7];
    out[base + 15] = s_i[3]; out[base + 16] = s_u[1];
  }
  // per-block sums of order-dependent returns (the multisets are fixed)
  atomicAdd(&out[64 + b * 4 + 0], inc);
  atomicAdd(&out[64 + b * 4 + 1], dec);
  atomicAdd(&out[64 + b * 4 + 2], ex);
  if (t == 0) atomicAdd(&out[64 + b * 4 + 2], (unsigned)s_i[4]);
  atomicAdd(&out[64 + b * 4 + 3], tk * 1000 + v);
  out[128 + b * 256 + t] = s_hist[t]; out[128 + b * 256 + t + 128] = s_hist[t + 128];
}
