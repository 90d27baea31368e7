// Block sums over shared memory (nvcc -arch=sm_90a -ptx -lineinfo; reduce.ptx and
// ok_reduce.ptx beside this file are its output, for the kernel each runs).
//   reduce_past_written: the tree starts at s = 64 but only tile[0..63] were written, so
//     the first step reads tile[64..127], which hold on the GPU whatever an earlier block
//     left there
//   dyn_past_written: each thread adds its right neighbour's element of the dynamic array,
//     and thread 63 reads buf[64], which no thread wrote
//   reduce_ok: the tree starts at s = 32, within what was written
#define N 64

extern "C" __global__ void reduce_past_written(int *out, const int *in)
{
	__shared__ int tile[2 * N];
	unsigned tid = threadIdx.x;
	tile[tid] = in[tid];
	__syncthreads();
	for (unsigned s = N; s > 0; s >>= 1) {
		if (tid < s)
			tile[tid] += tile[tid + s];
		__syncthreads();
	}
	if (tid == 0)
		out[0] = tile[0];
}

extern "C" __global__ void dyn_past_written(int *out, const int *in)
{
	extern __shared__ int buf[];
	unsigned tid = threadIdx.x;
	buf[tid] = in[tid];
	__syncthreads();
	out[tid] = buf[tid] + buf[tid + 1];
}

extern "C" __global__ void reduce_ok(int *out, const int *in)
{
	__shared__ int tile[2 * N];
	unsigned tid = threadIdx.x;
	tile[tid] = in[tid];
	__syncthreads();
	for (unsigned s = N / 2; s > 0; s >>= 1) {
		if (tid < s)
			tile[tid] += tile[tid + s];
		__syncthreads();
	}
	if (tid == 0)
		out[0] = tile[0];
}
