// Built with -G and with -lineinfo: DWARF sections and .loc lines.
__device__ int helper(int a, int b)
{
	int r = 0;
	for (int i = 0; i < a; i++)
		r += b ^ i;
	return r;
}

__global__ void debug_kernel(int *out, int n)
{
	int t = threadIdx.x + blockIdx.x * blockDim.x;
	if (t < n)
		out[t] = helper(t, n) + 1;
}
