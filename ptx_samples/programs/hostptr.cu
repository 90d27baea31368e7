// Memory the GPU cannot use: a cudaMemcpy that runs past its allocation, and a host
// pointer (plain malloc) passed to a kernel, which faults at its first access.
#include <cstdio>
#include <cstdlib>

__global__ void fill(int *p, int n)
{
	int i = threadIdx.x;
	if (i < n)
		p[i] = i;
}

int main()
{
	int *d, h[64] = {0};
	cudaMalloc(&d, 32 * sizeof(int));
	cudaError_t past = cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
	printf("copy of 256 bytes into 128: %s\n", cudaGetErrorName(past));
	cudaGetLastError();
	int *host = (int *)malloc(32 * sizeof(int));
	fill<<<1, 32>>>(host, 32);
	printf("kernel on a host pointer: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
	free(host);
	return 0;
}
