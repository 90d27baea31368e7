// Benchmark kernels for ptxi (compiled with: nvcc -arch=sm_90 -ptx kernels.cu -o kernels.ptx).
// hash_int: an integer hash loop per thread; poly_f32: a float polynomial loop per thread;
// collatz: a divergent data-dependent loop; reduce_smem: shared-memory tree reductions.
// bench/native.c runs the same loops natively for the ratio.
#define ITERS 256
extern "C" __global__ void hash_int(unsigned *out, unsigned seed)
{
	unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned x = t ^ seed, y = t * 0x9E3779B9u;
	for (int i = 0; i < ITERS; i++) {
		x = x * 2654435761u + (unsigned)i;
		x ^= x >> 13;
		y += x ^ (y << 3);
		x = (x << 5) | (x >> 27);
	}
	out[t] = x ^ y;
}

extern "C" __global__ void poly_f32(float *out, float a)
{
	unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
	float x = (float)t * 1e-4f, acc = 0.0f;
	for (int i = 0; i < ITERS; i++) {
		acc = fmaf(acc, x, a);
		x = x * 0.999f + 1e-3f;
		acc = acc * 0.5f + x;
	}
	out[t] = acc;
}

// collatz: a data-dependent loop (heavy divergence and reconvergence): the Collatz steps
// of each thread's start value, at most 1000 steps.
extern "C" __global__ void collatz(unsigned *out, unsigned seed)
{
	unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned long long n = (unsigned long long)(t ^ seed) + 1;
	unsigned steps = 0;
	while (n != 1 && steps < 1000) {
		n = (n & 1) ? 3 * n + 1 : n >> 1;
		steps++;
	}
	out[t] = steps;
}

// reduce_smem: repeated shared-memory tree reductions with __syncthreads(); the last five
// levels run on partial warps. Thread 0 of each block writes the sum of the sums.
#define REDUCE_REPS 32
extern "C" __global__ void reduce_smem(unsigned *out, unsigned seed)
{
	__shared__ unsigned s[256];
	unsigned tid = threadIdx.x, total = 0;
	for (int r = 0; r < REDUCE_REPS; r++) {
		s[tid] = (blockIdx.x * blockDim.x + tid) * (seed + r);
		__syncthreads();
		for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
			if (tid < stride)
				s[tid] += s[tid + stride];
			__syncthreads();
		}
		total += s[0];
		__syncthreads();
	}
	out[blockIdx.x * blockDim.x + tid] = tid == 0 ? total : tid;
}
