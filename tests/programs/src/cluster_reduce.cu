// Cluster reduction: 4 CTAs of 64 threads in one cluster (launch with cluster 4,1,1). Every
// CTA fills its shared vals[], then one thread arrives remotely (mapa + mbarrier.arrive
// .release.cluster.shared::cluster) on rank 0's barrier; rank 0 waits (acquire.cluster) and
// sums the peers' shared memory through distributed shared memory.
#include "common.h"
#include <cooperative_groups.h>
#include <cuda/ptx>
#include <cstdint>
namespace cg = cooperative_groups;
namespace ptx = cuda::ptx;
KERNEL cluster_reduce(unsigned *out, const unsigned char *in) {
  __shared__ unsigned vals[64];
  __shared__ alignas(8) uint64_t bar;
  cg::cluster_group cluster = cg::this_cluster();
  unsigned t = threadIdx.x, rank = cluster.block_rank();
  if (rank == 0 && t == 0) {
    ptx::mbarrier_init(&bar, 4);
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
  }
  cluster.sync();                                   // barrier initialised before any remote arrival
  vals[t] = (in[rank * 64 + t] + 1u) * (rank * 0x10001u + 1u);
  __syncthreads();
  if (t == 0) {
    uint64_t *remote = cluster.map_shared_rank(&bar, 0);
    ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cluster, ptx::space_cluster, remote);
  }
  if (rank == 0) {
    while (!ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cluster, &bar, 0)) {}
    unsigned sum = 0, mx = 0;
    for (unsigned r = 0; r < 4; r++) { unsigned v = cluster.map_shared_rank(vals, r)[t]; sum += v; mx = max(mx, v); }
    out[t] = sum; out[64 + t] = mx;
  }
  if (t == 0) out[128 + rank * 4 + 0] = cluster.num_blocks();  // one writer (was every thread: a race)
  if (t == 1) { out[128 + rank * 4 + 1] = blockIdx.x; out[128 + rank * 4 + 2] = cluster.dim_blocks().x; unsigned r; asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(r)); out[128 + rank * 4 + 3] = r; }
  cluster.sync();                                   // peers' shared memory stays alive until read
}
