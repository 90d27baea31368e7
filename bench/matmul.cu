// nvcc -arch=sm_90 -ptx -o matmul.ptx matmul.cu (bench/race.sh, race_cost.sh; issue 25)
// The naive matrix product every CUDA tutorial starts with: C = A B, n x n, one thread an
// element; each word of A and B is read by n threads of n/16 CTAs, nothing ordering them.
extern "C" __global__ void mm(const float *A, const float *B, float *C, int n)
{
	int i = blockIdx.y * blockDim.y + threadIdx.y, j = blockIdx.x * blockDim.x + threadIdx.x;
	float s = 0;
	for (int k = 0; k < n; k++)
		s += A[i * n + k] * B[k * n + j];
	C[i * n + j] = s;
}
