// Streams, events and symbols: __constant__ and __device__ variables set and read with
// cudaMemcpyToSymbol/FromSymbol, cudaGetSymbolAddress, a __managed__ variable and managed
// memory, two streams ordered by an event, async copies and sets, cudaEventElapsedTime.
#include <cstdio>

__constant__ int coeff[4];
__device__ int total;
__device__ int table[8];
__managed__ int calls;

__global__ void weigh(const int *in, int *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		out[i] = in[i] * coeff[i % 4] + table[i % 8];
		atomicAdd(&total, out[i]);
	}
	if (i == 0)
		calls++;
}

__global__ void twice(int *v, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		v[i] *= 2;
	if (i == 0)
		calls++;
}

int main()
{
	const int n = 64;
	int h[n], c[4] = {1, 2, 3, 4}, t[8];
	for (int i = 0; i < n; i++)
		h[i] = i;
	for (int i = 0; i < 8; i++)
		t[i] = 100 * i;
	cudaMemcpyToSymbol(coeff, c, sizeof c);
	cudaMemcpyToSymbol(table, t, sizeof t);
	int zero = 0;
	cudaMemcpyToSymbol(total, &zero, sizeof zero);
	int *table_addr = nullptr;
	cudaGetSymbolAddress((void **)&table_addr, table);
	cudaMemset(table_addr + 7, 0, sizeof(int)); /* table[7] = 0 through its address */

	int *in, *out, *m;
	cudaMalloc(&in, sizeof h);
	cudaMalloc(&out, sizeof h);
	cudaMallocManaged(&m, sizeof h);
	cudaStream_t s1, s2;
	cudaStreamCreate(&s1);
	cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
	cudaEvent_t start, copied, done;
	cudaEventCreate(&start);
	cudaEventCreate(&copied);
	cudaEventCreate(&done);
	cudaEventRecord(start, s1);
	cudaMemcpyAsync(in, h, sizeof h, cudaMemcpyHostToDevice, s1);
	cudaEventRecord(copied, s1);
	cudaStreamWaitEvent(s2, copied, 0);
	weigh<<<2, 32, 0, s2>>>(in, out, n);
	cudaMemcpyAsync(m, out, sizeof h, cudaMemcpyDeviceToDevice, s2);
	twice<<<1, 64, 0, s2>>>(m, n);
	cudaEventRecord(done, s2);
	cudaEventSynchronize(done);
	float ms = 0;
	cudaError_t et = cudaEventElapsedTime(&ms, start, done);
	int sum = 0;
	cudaMemcpyFromSymbol(&sum, total, sizeof sum);
	int expect = 0;
	for (int i = 0; i < n; i++)
		expect += i * c[i % 4] + (i % 8 == 7 ? 0 : t[i % 8]);
	int bad = 0;
	for (int i = 0; i < n; i++)
		bad += m[i] != 2 * (i * c[i % 4] + (i % 8 == 7 ? 0 : t[i % 8]));
	printf("total %d (expected %d), managed m[5] %d, m[63] %d, %d wrong, kernels counted %d\n",
	       sum, expect, m[5], m[63], bad, calls);
	printf("elapsed: %s, positive: %s, stream query: %s\n", cudaGetErrorName(et),
	       ms > 0 ? "yes" : "no", cudaGetErrorName(cudaStreamQuery(s2)));
	size_t free_b, total_b;
	cudaMemGetInfo(&free_b, &total_b);
	printf("memory: free <= total: %s\n", free_b <= total_b ? "yes" : "no");
	cudaStreamDestroy(s1);
	cudaStreamDestroy(s2);
	cudaFree(in);
	cudaFree(out);
	cudaFree(m);
	return bad != 0 || sum != expect;
}
