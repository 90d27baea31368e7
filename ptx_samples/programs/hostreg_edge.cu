// A kernel running over an edge of memory cudaHostRegister registered: a store to the int
// just past its end, or (HOSTREG_BEFORE set) just before its start. The report names the
// registered range the access ran over, not a bare host pointer.
#include <cstdio>
#include <cstdlib>

__global__ void touch(int *p, int i)
{
	p[i] = 7;
}

#define N 64

int main()
{
	int *raw = (int *)calloc(N + 8, sizeof(int));
	int *h = raw + 4;
	cudaError_t e = cudaHostRegister(h, N * sizeof(int), cudaHostRegisterMapped);
	printf("register: %s\n", cudaGetErrorName(e));
	touch<<<1, 1>>>(h, getenv("HOSTREG_BEFORE") ? -1 : N);
	printf("a store over the edge: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
	free(raw);
	return 0;
}
