// nvcc -arch=sm_90 -ptx -o matmul.ptx matmul.cu (bench/race.sh, race_cost.sh; issue 25)
// The naive matrix product every CUDA tutorial starts with: C = A B, n x n, one thread an
// element; each word of A and B is read by n threads of n/16 CTAs, nothing ordering them. The
// tiled product and saxpy below are the other kernels a user writes first.
extern "C" __global__ void mm(const float *A, const float *B, float *C, int n)
{
	int i = blockIdx.y * blockDim.y + threadIdx.y, j = blockIdx.x * blockDim.x + threadIdx.x;
	float s = 0;
	for (int k = 0; k < n; k++)
		s += A[i * n + k] * B[k * n + j];
	C[i * n + j] = s;
}

// The tiled product, the tutorials' next step: 16x16 tiles of A and B through shared memory
// between two __syncthreads; each tile word of As is read by half a warp at once, each of
// Bs by two lanes of a warp. (C first, so that --dump 0 shows the product.)
#define TILE 16
extern "C" __global__ void mm_tiled(float *C, const float *A, const float *B, int n)
{
	__shared__ float As[TILE][TILE], Bs[TILE][TILE];
	int tx = threadIdx.x, ty = threadIdx.y;
	int i = blockIdx.y * TILE + ty, j = blockIdx.x * TILE + tx;
	float s = 0;
	for (int t = 0; t < n / TILE; t++) {
		As[ty][tx] = A[i * n + t * TILE + tx];
		Bs[ty][tx] = B[(t * TILE + ty) * n + j];
		__syncthreads();
		for (int k = 0; k < TILE; k++)
			s += As[ty][k] * Bs[k][tx];
		__syncthreads();
	}
	C[i * n + j] = s;
}

// saxpy over a grid-stride loop: every word read or written by one thread, once (y first).
extern "C" __global__ void saxpy(float *y, const float *x, float a, int n)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
		y[i] = a * x[i] + y[i];
}
