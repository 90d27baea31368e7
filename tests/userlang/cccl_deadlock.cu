// A cccl pipeline (cuda::ptx mbarriers) whose producer forgets slot 1's arrive: the
// consumer waits forever inside cccl's mbarrier_try_wait_parity.h. The report leads with
// the user's line (the loop in wait_full), the cccl frame is a note.
#include <cuda/ptx>
#include <cstdint>
namespace ptx = cuda::ptx;

namespace {
__device__ void wait_full(uint64_t *bar, uint32_t parity)
{
  while (!ptx::mbarrier_try_wait_parity(bar, parity)) {
  }
}
}

__global__ void pipeline(float *out, float scale)
{
  __shared__ uint64_t full[2];
  __shared__ float tile[2][32];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&full[0], 32);
    ptx::mbarrier_init(&full[1], 32);
  }
  __syncthreads();
  if (warp == 0) {
    for (int s = 0; s < 2; s++) {
      tile[s][lane] = s * scale + lane;
      if (s == 0)
        (void)ptx::mbarrier_arrive(&full[s]);
    }
  } else {
    for (int s = 0; s < 2; s++) {
      wait_full(&full[s], 0);
      out[s * 32 + lane] = tile[s][lane];
    }
  }
}
