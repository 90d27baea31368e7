// Compiled with -lineinfo: a producer warp fills two slots and arrives on full[s]; the
// consumer warp waits on full[s]. The producer forgets slot 1's arrive, so the consumer
// waits forever on full[1]: the deadlock report leads with the CUDA line of the wait and
// names the barrier as the source does.
#include <cstdint>

__device__ __forceinline__ void init(uint64_t *bar, int count)
{
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"((unsigned)__cvta_generic_to_shared(bar)), "r"(count));
}

__device__ __forceinline__ void arrive(uint64_t *bar)
{
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"((unsigned)__cvta_generic_to_shared(bar)));
}

__device__ __forceinline__ void wait(uint64_t *bar, int parity)
{
  asm volatile("{\n.reg .pred p;\nW: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n@!p bra W;\n}"
               ::"r"((unsigned)__cvta_generic_to_shared(bar)), "r"(parity));
}

__global__ void ws_pipeline(int *out)
{
  __shared__ uint64_t full[2];
  __shared__ int slot[2][32];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (threadIdx.x == 0) {
    init(&full[0], 32);
    init(&full[1], 32);
  }
  asm volatile("fence.mbarrier_init.release.cluster;");
  __syncthreads();
  if (warp == 0) {
    for (int s = 0; s < 2; s++) {
      slot[s][lane] = s * 100 + lane;
      if (s == 0)            // the bug: slot 1 is filled but never announced
        arrive(&full[s]);
    }
  } else {
    for (int s = 0; s < 2; s++) {
      wait(&full[s], 0);
      out[s * 32 + lane] = slot[s][lane];
    }
  }
}
