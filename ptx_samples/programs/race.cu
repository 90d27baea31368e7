// A racy pipeline: warp 0 fills a shared stage that warp 1 reads with no barrier between
// them. The program cannot see the bug (its output is whatever the schedule gave); ptxi
// reports the data race.
#include <cstdio>

__global__ void pipeline(const int *in, int *out)
{
	__shared__ int stage[64];
	int t = threadIdx.x;
	if (t < 32) {
		stage[t] = in[t] * 3;
		stage[t + 32] = in[t + 32] * 3;
	} else {
		/* missing: __syncthreads() between the producer's stores and these loads */
		out[t - 32] = stage[t - 32] + stage[t];
	}
}

int main()
{
	int h[64], *in, *out;
	for (int i = 0; i < 64; i++)
		h[i] = i;
	cudaMalloc(&in, sizeof h);
	cudaMalloc(&out, 32 * sizeof(int));
	cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
	pipeline<<<1, 64>>>(in, out);
	printf("pipeline ran: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
	return 0;
}
