// y = a*x + y over n elements: run with filled inputs and checked with --expect
// (tests/userlang.sh).
__global__ void saxpy(float *y, const float *x, float a, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}
