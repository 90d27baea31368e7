// Warp 0 fills tile[] and warp 1 reads it with no barrier between: a data race the
// report names as the source does ('tile[1]'), at the .cu line of each access.
__global__ void scale(float *out, float scale, int n)
{
  __shared__ float tile[64];
  int t = threadIdx.x;
  if (t < 32)
    tile[t] = t * scale;
  else if (t - 32 < n)
    out[t - 32] = tile[t - 32];   // the bug: no __syncthreads() before this read
}
