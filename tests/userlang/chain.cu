// Two kernels chained through memory (tests/userlang.sh): square's output is mirror_add's
// input. ptxi run launches one kernel; the first run writes its output with --out, the
// second reads that file as an argument and checks its result with --expect.
__global__ void square(float *y, const float *x, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[i] * x[i];
}

__global__ void mirror_add(float *z, const float *y, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    z[i] = y[i] + y[n - 1 - i];
}
