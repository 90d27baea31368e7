// Benchmark kernels for ptxi (compiled with: nvcc -arch=sm_90 -ptx kernels.cu -o kernels.ptx).
// hash_int: an integer hash loop per thread; saxpy_poly: a float polynomial loop per thread.
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
