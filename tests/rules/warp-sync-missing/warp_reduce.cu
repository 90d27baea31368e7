// Block sums whose last warp reduces in shared memory (nvcc -arch=sm_90a -ptx -lineinfo;
// warp_reduce.ptx and ok_warp_reduce.ptx beside this file are its output, for the kernel
// each runs).
//   reduce_volatile: the pre-Volta idiom, the last six steps through a volatile pointer
//     with no __syncwarp(): lanes of a warp are independent threads since sm_70, so lane 0
//     may read s[16] before lane 16 stored it (rule warp-sync-missing)
//   reduce_syncwarp: the same with __syncwarp() between the reads and the writes of each
//     step, as the Volta tuning guide writes it
//   reduce_shfl: the last warp reduces in registers with __shfl_down_sync
#define N 128

extern "C" __global__ void reduce_volatile(int *out, const int *in)
{
	__shared__ int s[N];
	unsigned tid = threadIdx.x;
	s[tid] = in[blockIdx.x * N + tid];
	__syncthreads();
	if (tid < 64)
		s[tid] += s[tid + 64];
	__syncthreads();
	if (tid < 32) {
		volatile int *v = s;
		v[tid] += v[tid + 32];
		v[tid] += v[tid + 16];
		v[tid] += v[tid + 8];
		v[tid] += v[tid + 4];
		v[tid] += v[tid + 2];
		v[tid] += v[tid + 1];
	}
	if (tid == 0)
		out[blockIdx.x] = s[0];
}

extern "C" __global__ void reduce_syncwarp(int *out, const int *in)
{
	__shared__ int s[N];
	unsigned tid = threadIdx.x;
	s[tid] = in[blockIdx.x * N + tid];
	__syncthreads();
	if (tid < 64)
		s[tid] += s[tid + 64];
	__syncthreads();
	if (tid < 32) {
		volatile int *v = s;
		int x = v[tid];
		for (unsigned off = 32; off > 0; off >>= 1) {
			x += v[tid + off];
			__syncwarp();
			v[tid] = x;
			__syncwarp();
		}
	}
	if (tid == 0)
		out[blockIdx.x] = s[0];
}

extern "C" __global__ void reduce_shfl(int *out, const int *in)
{
	__shared__ int s[N];
	unsigned tid = threadIdx.x;
	s[tid] = in[blockIdx.x * N + tid];
	__syncthreads();
	if (tid < 64)
		s[tid] += s[tid + 64];
	__syncthreads();
	if (tid < 32) {
		volatile int *v = s;
		int x = v[tid] + v[tid + 32];
		for (unsigned off = 16; off > 0; off >>= 1)
			x += __shfl_down_sync(0xffffffffu, x, off);
		if (tid == 0)
			v[0] = x;
	}
	__syncthreads();
	if (tid == 0)
		out[blockIdx.x] = s[0];
}
