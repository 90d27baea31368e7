// An API ptxi's runtime does not provide (CUDA graphs): the program is told on stderr, and
// the call returns cudaErrorNotSupported instead of a silent success.
#include <cstdio>

int main()
{
	cudaGraph_t g;
	cudaError_t e = cudaGraphCreate(&g, 0);
	printf("cudaGraphCreate: %s\n", cudaGetErrorName(e));
	return e == cudaSuccess ? 0 : 3;
}
