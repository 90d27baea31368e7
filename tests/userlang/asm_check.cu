// Inline PTX that ptxas rejects: %clock64 read into a 32-bit register. `ptxi check`
// reports it at the PTX line and says which .cu line (and inlined function) it came from.
__device__ __forceinline__ unsigned stamp()
{
  unsigned r;
  asm volatile("mov.u32 %0, %%clock64;" : "=r"(r));
  return r;
}

__global__ void timed(unsigned *out)
{
  out[threadIdx.x] = stamp();
}
