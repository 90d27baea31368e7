// cuda::barrier<thread_scope_block> with arrive_and_drop: 128 threads, six phases; threads
// 96..127 drop out in phase 2, threads 64..95 in phase 4. out[t] = per-thread checksum,
// out[128 + p] = shared totals per phase.
#include "common.h"
#pragma nv_diag_suppress static_var_with_dynamic_init
#include <cuda/barrier>
KERNEL barrier_drop(unsigned *out, const unsigned char *in) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ unsigned data[128];
  __shared__ unsigned total[6];
  unsigned t = threadIdx.x, z = ZERO(in);
  if (t == 0) { init(&bar, blockDim.x); for (int p = 0; p < 6; p++) total[p] = 0; }
  data[t] = 0;
  __syncthreads();
  unsigned acc = 0;
  for (unsigned p = 0; p < 6; p++) {
    if ((t >= 96 && p == 2) || (t >= 64 && t < 96 && p == 4)) { bar.arrive_and_drop(); break; }
    data[t] = t * p + in[t + p] + z;
    atomicAdd(&total[p], data[t]);
    bar.arrive_and_wait();
    acc = acc * 7 + data[(t + 1 + p * 5) % 128];
    bar.arrive_and_wait();
  }
  out[t] = acc;
  __syncthreads();
  if (t < 6) out[128 + t] = total[t];
}
