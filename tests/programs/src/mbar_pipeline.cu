// Warp-specialised producer/consumer ring: warp 0 (one lane) streams 12 tiles of 256 bytes
// from global memory into a 4-stage shared ring with cp.async.bulk; warps 1-2 consume.
// full[s]: tile in stage s has landed (1 arrival + 256 tx bytes); empty[s]: both consumer warps
// are done with stage s (2 arrivals). Block of 96 threads; out[i*64 + c] per tile, then sums.
#include "common.h"
#include <cuda/ptx>
#include <cstdint>
namespace ptx = cuda::ptx;
#define STAGES 4
#define ITERS 12
#define TILE 256
KERNEL mbar_pipeline(unsigned *out, const unsigned char *in) {
  __shared__ alignas(128) unsigned ring[STAGES][TILE / 4];
  __shared__ alignas(8) uint64_t full[STAGES], empty[STAGES];
  unsigned t = threadIdx.x, warp = t / 32, lane = t % 32;
  if (t == 0) {
    for (int s = 0; s < STAGES; s++) { ptx::mbarrier_init(&full[s], 1); ptx::mbarrier_init(&empty[s], 2); }
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
  }
  __syncthreads();
  if (warp == 0) {
    if (lane == 0) {
      for (int i = 0; i < ITERS; i++) {
        int s = i % STAGES; uint32_t par = ((i / STAGES) & 1) ^ 1;
        while (!ptx::mbarrier_try_wait_parity(&empty[s], par)) {}
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full[s], TILE);
        ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, &ring[s][0], in + i * TILE, TILE, &full[s]);
      }
    }
  } else {
    unsigned c = t - 32;                       // consumer index 0..63
    unsigned acc = 0;
    for (int i = 0; i < ITERS; i++) {
      int s = i % STAGES; uint32_t par = (i / STAGES) & 1;
      while (!ptx::mbarrier_try_wait_parity(&full[s], par)) {}
      unsigned w = ring[s][c];
      unsigned x = (w ^ (i * 0x01010101u)) + c;
      out[i * 64 + c] = x;
      acc = acc * 31 + x;
      unsigned sum = __reduce_add_sync(0xffffffffu, w);
      __syncwarp();
      if (lane == 0) { ptx::mbarrier_arrive(&empty[s]); out[ITERS * 64 + 64 + i * 2 + (warp - 1)] = sum; }
    }
    out[ITERS * 64 + c] = acc;
  }
}
