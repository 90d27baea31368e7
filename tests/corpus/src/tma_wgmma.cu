// TMA tensor-map load and a wgmma fence (corpus: instructions ptxi reads, accepts with a
// note, and does not run).
#include <cuda/ptx>
#include <cuda/barrier>
#include <cuda.h>
namespace ptx = cuda::ptx;

__global__ void tma_load(const __grid_constant__ CUtensorMap map, float *out)
{
  __shared__ alignas(128) float tile[32 * 32];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    int32_t coords[2] = {0, 0};
    ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, tile, &map, coords, &bar);
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, sizeof(tile));
  }
  while (!ptx::mbarrier_try_wait_parity(&bar, 0)) {}
  out[threadIdx.x] = tile[threadIdx.x];
  asm volatile("wgmma.fence.sync.aligned;");
}
