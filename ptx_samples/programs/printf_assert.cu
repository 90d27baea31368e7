// Device printf and assert: device output appears at the synchronisation, after what the
// host printed meanwhile, lanes in order; a failed assert prints CUDA's message, and the
// program sees cudaErrorAssert at the next synchronisation and in every call after it.
#include <cassert>
#include <cstdio>

__global__ void hello(int n)
{
	printf("thread %d says %d\n", threadIdx.x, n * (int)threadIdx.x);
}

__global__ void check(const int *v)
{
	assert(v[threadIdx.x] >= 0);
}

int main()
{
	hello<<<1, 4>>>(7);
	printf("host: launched\n");
	cudaError_t s1 = cudaDeviceSynchronize();
	printf("host: synchronised (%s)\n", cudaGetErrorName(s1));
	int h[4] = {1, 2, -3, 4}, *v;
	cudaMalloc(&v, sizeof h);
	cudaMemcpy(v, h, sizeof h, cudaMemcpyHostToDevice);
	check<<<1, 4>>>(v);
	cudaError_t launch = cudaGetLastError();
	cudaError_t sync = cudaDeviceSynchronize();
	int *w;
	cudaError_t later = cudaMalloc(&w, 16);
	printf("assert: launch %s, sync %s, later cudaMalloc %s\n", cudaGetErrorName(launch),
	       cudaGetErrorName(sync), cudaGetErrorName(later));
	return 0;
}
