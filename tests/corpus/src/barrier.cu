// cuda::barrier: arrive/wait, arrive_and_drop, arrive_and_wait.
#include <cuda/barrier>
#include <cooperative_groups.h>
#pragma nv_diag_suppress static_var_with_dynamic_init

__global__ void barrier_basic(int *out)
{
	__shared__ cuda::barrier<cuda::thread_scope_block> bar;
	if (threadIdx.x == 0)
		init(&bar, blockDim.x);
	__syncthreads();
	out[threadIdx.x] = threadIdx.x * 2;
	auto token = bar.arrive();
	bar.wait(std::move(token));
	if (threadIdx.x < 16) {
		bar.arrive_and_drop();
		return;
	}
	bar.arrive_and_wait();
	out[threadIdx.x] += 1;
}

__global__ void barrier_phases(unsigned *out, int n)
{
	__shared__ cuda::barrier<cuda::thread_scope_block> bar;
	__shared__ unsigned buf[256];
	if (threadIdx.x == 0)
		init(&bar, blockDim.x);
	__syncthreads();
	for (int i = 0; i < n; i++) {
		buf[threadIdx.x] = i * threadIdx.x;
		bar.arrive_and_wait();
		out[threadIdx.x] += buf[(threadIdx.x + 1) % blockDim.x];
		bar.arrive_and_wait();
	}
}
