// cudaHostRegister of ordinary host memory (malloc's, not page-aligned): a kernel reads and
// writes the host's bytes through the device pointer cudaHostGetDevicePointer gives (the
// host pointer itself, under unified addressing), and the calls CUDA refuses get its
// errors: a range registered already, in part or whole, an empty one, a device pointer of
// memory never registered, an unregistration of what is not registered.
#include <cstdio>
#include <cstdlib>

__global__ void bump(int *p, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		p[i] = 3 * p[i] + 1;
}

#define N 1000

int main()
{
	char *raw = (char *)malloc(N * sizeof(int) + 64);
	int *h = (int *)(raw + 4);
	for (int i = 0; i < N; i++)
		h[i] = i;
	cudaError_t e = cudaHostRegister(h, N * sizeof(int), cudaHostRegisterMapped);
	int *d = nullptr;
	cudaError_t e2 = cudaHostGetDevicePointer((void **)&d, h, 0);
	printf("register: %s, device pointer: %s, the host pointer %d\n", cudaGetErrorName(e),
	       cudaGetErrorName(e2), d == h);
	int *mid = nullptr;
	cudaHostGetDevicePointer((void **)&mid, h + 10, 0);
	cudaPointerAttributes pa;
	e = cudaPointerGetAttributes(&pa, h + 10);
	printf("inside: device pointer h + 10 %d, attributes %s, type %d, host pointer %d\n",
	       mid == h + 10, cudaGetErrorName(e), (int)pa.type, pa.hostPointer == h + 10);

	bump<<<(N + 255) / 256, 256>>>(d, N);
	e = cudaDeviceSynchronize();
	int bad = 0;
	for (int i = 0; i < N; i++)
		bad += h[i] != 3 * i + 1;
	printf("kernel through the device pointer: %s, wrong %d, h[999] %d\n", cudaGetErrorName(e),
	       bad, h[999]);
	h[5] = 100;
	bump<<<(N + 255) / 256, 256>>>(d, N);
	cudaDeviceSynchronize();
	printf("the host's store seen: h[5] %d\n", h[5]);

	e = cudaHostRegister(h, N * sizeof(int), cudaHostRegisterMapped);
	printf("registered again: %s\n", cudaGetErrorName(e));
	e = cudaHostRegister(h + 100, 16, 0);
	printf("a part registered again: %s\n", cudaGetErrorName(e));
	e = cudaHostRegister(h - 1, 8, 0);
	printf("overlapping its start: %s\n", cudaGetErrorName(e));
	e = cudaHostRegister(raw + 4 + N * sizeof(int), 0, 0);
	printf("no bytes: %s\n", cudaGetErrorName(e));
	int other[4];
	void *p = nullptr;
	e = cudaHostGetDevicePointer(&p, other, 0);
	printf("device pointer of memory never registered: %s\n", cudaGetErrorName(e));
	e = cudaHostUnregister(h + 10);
	printf("unregister inside: %s\n", cudaGetErrorName(e));
	e = cudaHostUnregister(h);
	e2 = cudaHostUnregister(h);
	printf("unregister: %s, again: %s\n", cudaGetErrorName(e), cudaGetErrorName(e2));
	e = cudaHostGetDevicePointer(&p, h, 0);
	printf("device pointer after: %s\n", cudaGetErrorName(e));
	cudaGetLastError();
	free(raw);
	return 0;
}
