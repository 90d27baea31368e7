// Objects on the device heap that outlive a launch, and each kernel's own shared memory.
// make() allocates a counter with a virtual method (new), bump() calls it through the vtable
// (a call whose prototype returns nothing: nvcc writes `.callprototype ()_ (...)`), and
// drop() deletes it in a third launch: the heap lasts as long as the context, not one
// launch. cudaFuncGetAttributes gives each kernel's static shared memory as ptxas counts it:
// only the __shared__ variables its code names.
#include <cstdio>

struct Counter {
	int n;
	__device__ Counter() : n(0) {}
	__device__ virtual ~Counter() {}
	__device__ virtual void bump(int by) { atomicAdd(&n, by); }
};

__global__ void make(Counter **slot) { *slot = new Counter(); }

__global__ void bump(Counter **slot, int *seen)
{
	__shared__ int tile[10];
	if (threadIdx.x < 10)
		tile[threadIdx.x] = threadIdx.x;
	__syncthreads();
	(*slot)->bump(tile[threadIdx.x % 10] >= 0 ? 1 : 0);
}

__global__ void read(Counter **slot, int *seen)
{
	__shared__ float wide[3000];
	wide[threadIdx.x] = 1.0f;
	__syncthreads();
	if (threadIdx.x == 0)
		*seen = (*slot)->n + (int)wide[63] - 1;
}

__global__ void drop(Counter **slot) { delete *slot; }

int main()
{
	Counter **slot;
	int *seen, host = -1;
	cudaMalloc(&slot, sizeof *slot);
	cudaMalloc(&seen, sizeof *seen);
	make<<<1, 1>>>(slot);
	bump<<<2, 64>>>(slot, seen);
	read<<<1, 64>>>(slot, seen);
	drop<<<1, 1>>>(slot);
	cudaError_t e = cudaDeviceSynchronize();
	cudaMemcpy(&host, seen, sizeof host, cudaMemcpyDeviceToHost);
	printf("counter %d after 128 bumps, sync: %s\n", host, cudaGetErrorName(e));
	cudaFuncAttributes a, b;
	cudaFuncGetAttributes(&a, bump);
	cudaFuncGetAttributes(&b, read);
	printf("static shared: bump %zu bytes, read %zu bytes\n", a.sharedSizeBytes,
	       b.sharedSizeBytes);
	return 0;
}
