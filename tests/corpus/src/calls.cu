// Device function calls (non-inlined), local arrays, recursion, indirect calls.
__device__ __noinline__ int square(int x) { return x * x; }
__device__ __noinline__ float mix(float a, float b, int k) { return a * k + b; }
__device__ __noinline__ int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
__device__ __noinline__ void fill(int *arr, int n) { for (int i = 0; i < n; i++) arr[i] = i * i; }
typedef int (*fn_t)(int);
__device__ fn_t table[2] = {square, fact};
__constant__ int coeffs[4] = {1, 2, 3, 4};
__device__ float gtab[3] = {1.0f, 2.5f, -3.0f};

__global__ void calls(int *out, int sel, float *fo)
{
	int local[32];
	fill(local, 32);
	out[threadIdx.x] = square(threadIdx.x) + fact(5) + local[threadIdx.x % 32] + coeffs[sel & 3];
	fo[threadIdx.x] = mix(gtab[sel % 3], 2.0f, sel);
	out[64 + threadIdx.x] = table[sel & 1](threadIdx.x);
}
