// A cuda::barrier kernel that prints and asserts: each thread writes its slot, waits on the
// barrier, then checks its neighbour's slot; thread 0 prints the block's sum. `limit` sets
// the assertion: sums >= limit fail in every thread that checks one.
#include <cassert>
#include <cstdio>
#include <cuda/barrier>
#pragma nv_diag_suppress static_var_with_dynamic_init

__global__ void barrier_assert(int *out, int limit)
{
  __shared__ int slot[64];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  int t = threadIdx.x;
  if (t == 0)
    init(&bar, blockDim.x);
  __syncthreads();
  slot[t] = t * 2;
  bar.arrive_and_wait();
  int pair = slot[t] + slot[(t + 1) % blockDim.x];
  assert(pair < limit);
  out[blockIdx.x * blockDim.x + t] = pair;
  if (t == 0)
    printf("block %d: slot[0] + slot[1] = %d\n", blockIdx.x, pair);
}
