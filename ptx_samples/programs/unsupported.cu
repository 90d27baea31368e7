// An API ptxi's runtime does not provide (CUDA arrays): the program is told on stderr, and
// the call returns cudaErrorNotSupported instead of a silent success.
#include <cstdio>

int main()
{
	cudaChannelFormatDesc d = {32, 0, 0, 0, cudaChannelFormatKindFloat};
	cudaArray_t a;
	cudaError_t e = cudaMallocArray(&a, &d, 16);
	printf("cudaMallocArray: %s\n", cudaGetErrorName(e));
	return e == cudaSuccess ? 0 : 3;
}
