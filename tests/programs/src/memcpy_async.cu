// cuda::memcpy_async with cuda::barrier: a block-wide 16-byte-aligned copy (bulk copy or
// cp.async on sm_90) and per-thread 4-byte copies (cp.async + cp.async.mbarrier.arrive.noinc),
// each completed through a cuda::barrier. 128 threads; out[k*128 + t].
#include "common.h"
#pragma nv_diag_suppress static_var_with_dynamic_init
#include <cuda/barrier>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
KERNEL memcpy_async_k(unsigned *out, const unsigned char *in) {
  __shared__ alignas(16) unsigned a[512];
  __shared__ alignas(16) unsigned b[128];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  cg::thread_block block = cg::this_thread_block();
  unsigned t = threadIdx.x;
  if (t == 0) init(&bar, blockDim.x);
  __syncthreads();
  cuda::memcpy_async(block, a, (const unsigned *)in, cuda::aligned_size_t<16>(sizeof a), bar);
  bar.arrive_and_wait();
  out[t] = a[t] ^ a[511 - t];
  out[128 + t] = a[t * 4 + 1] + a[t * 4 + 3];
  bar.arrive_and_wait();
  // per-thread element copies from an odd word offset
  cuda::memcpy_async(&b[t], (const unsigned *)in + 601 + t * 3, cuda::aligned_size_t<4>(4), bar);
  bar.arrive_and_wait();
  out[256 + t] = b[t] + b[(t + 1) % 128];
  bar.arrive_and_wait();
  // second round of block-wide copies, a different slice, to reuse the barrier's next phase
  cuda::memcpy_async(block, a, (const unsigned *)in + 1024, cuda::aligned_size_t<16>(1024), bar);
  bar.arrive_and_wait();
  out[384 + t] = a[t] * 3u + a[255 - t];
}
