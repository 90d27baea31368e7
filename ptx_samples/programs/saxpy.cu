// saxpy: the plainest CUDA program, run unchanged (ptxi exec, tests/exec.sh).
// Device properties, cudaMalloc/cudaMemcpy, a <<<>>> launch, the result checked on the host.
#include <cstdio>

__global__ void saxpy(int n, float a, const float *x, float *y)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = a * x[i] + y[i];
}

int main()
{
	int count = 0;
	cudaGetDeviceCount(&count);
	cudaDeviceProp p;
	cudaGetDeviceProperties(&p, 0);
	printf("devices %d, sm_%d%d, %d SMs, warp %d, opt-in shared %zu, clusters %d\n", count,
	       p.major, p.minor, p.multiProcessorCount, p.warpSize, p.sharedMemPerBlockOptin,
	       p.clusterLaunch);
	const int n = 1000;
	float hx[n], hy[n];
	for (int i = 0; i < n; i++) {
		hx[i] = (float)i;
		hy[i] = 1.0f;
	}
	float *x, *y;
	cudaMalloc(&x, n * sizeof(float));
	cudaMalloc(&y, n * sizeof(float));
	cudaMemcpy(x, hx, n * sizeof(float), cudaMemcpyHostToDevice);
	cudaMemcpy(y, hy, n * sizeof(float), cudaMemcpyHostToDevice);
	saxpy<<<(n + 255) / 256, 256>>>(n, 2.0f, x, y);
	cudaError_t launch = cudaGetLastError();
	cudaError_t sync = cudaDeviceSynchronize();
	cudaMemcpy(hy, y, n * sizeof(float), cudaMemcpyDeviceToHost);
	int bad = 0;
	for (int i = 0; i < n; i++)
		bad += hy[i] != 2.0f * i + 1.0f;
	printf("launch: %s, sync: %s, y[0] %g, y[999] %g, %d wrong\n", cudaGetErrorString(launch),
	       cudaGetErrorName(sync), hy[0], hy[999], bad);
	cudaFree(x);
	cudaFree(y);
	return bad != 0;
}
