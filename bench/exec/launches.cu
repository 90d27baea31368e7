// bench/exec.sh: N launches (argv[1], default 1000) of a small kernel (one warp adding one
// to 32 ints), then one synchronisation; argv[1] = 0 launches nothing: the start-up cost.
#include <cstdio>
#include <cstdlib>

__global__ void bump(int *v)
{
	v[threadIdx.x] += 1;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000;
	int *v, h[32];
	cudaMalloc(&v, sizeof h);
	cudaMemset(v, 0, sizeof h);
	for (int i = 0; i < n; i++)
		bump<<<1, 32>>>(v);
	cudaMemcpy(h, v, sizeof h, cudaMemcpyDeviceToHost);
	printf("%d launches: v[31] = %d\n", n, h[31]);
	return h[31] != n;
}
