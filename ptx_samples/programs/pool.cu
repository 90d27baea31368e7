// Stream-ordered allocation: the default memory pool (cudaMallocAsync, cudaFreeAsync, its
// attributes), and graphs' allocations: cudaMallocAsync and cudaFreeAsync in a capture
// become alloc and free nodes, and alloc and free nodes made node by node; an allocation a
// graph leaves allocated lives on after its launch until it is freed, and the graph may not
// run again before. Freeing twice is refused.
#include <cstdio>

__global__ void fill(int *p, int v, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		p[i] = v + i;
}

#define N 64

int main()
{
	cudaStream_t s;
	cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
	cudaMemPool_t pool;
	cudaError_t e = cudaDeviceGetDefaultMemPool(&pool, 0);
	cudaMemPool_t other;
	cudaError_t e2 = cudaDeviceGetDefaultMemPool(&other, 1);
	printf("default pool: %s, of device 1: %s\n", cudaGetErrorName(e), cudaGetErrorName(e2));
	unsigned long long threshold = 1 << 20, got = 0, used = 0, high = 0;
	e = cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold);
	cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &got);
	printf("release threshold set: %s, read %llu\n", cudaGetErrorName(e),
	       (unsigned long long)got);

	int *a, *b, out[N];
	cudaMallocAsync(&a, N * sizeof(int), s);
	e = cudaMallocFromPoolAsync(&b, 1000, pool, s);
	cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used);
	printf("from the pool: %s, used %llu\n", cudaGetErrorName(e), (unsigned long long)used);
	fill<<<1, N, 0, s>>>(a, 5, N);
	cudaMemcpyAsync(out, a, sizeof out, cudaMemcpyDeviceToHost, s);
	cudaFreeAsync(a, s);
	cudaFreeAsync(b, s);
	cudaStreamSynchronize(s);
	cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used);
	cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &high);
	printf("out[63] %d, used %llu, high %llu\n", out[63], (unsigned long long)used,
	       (unsigned long long)high);
	unsigned long long zero = 0, one = 1;
	e = cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &zero);
	e2 = cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &one);
	cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &high);
	printf("high reset to 0: %s, to 1: %s, high %llu\n", cudaGetErrorName(e),
	       cudaGetErrorName(e2), (unsigned long long)high);
	e = cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &zero);
	printf("set the used memory: %s\n", cudaGetErrorName(e));
	e = cudaMemPoolTrimTo(pool, 0);
	printf("trim: %s\n", cudaGetErrorName(e));
	e = cudaFreeAsync(a, s);
	printf("freed twice: %s\n", cudaGetErrorName(e));
	cudaGetLastError();

	// a capture: the allocation's address is given when cudaMallocAsync is captured
	cudaGraph_t g;
	int *c = nullptr;
	cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
	int *none = c + 1;
	e = cudaMallocAsync(&none, 0, s);
	printf("captured malloc of no bytes: %s, NULL %d\n", cudaGetErrorName(e), none == nullptr);
	e = cudaMallocAsync(&c, N * sizeof(int), s);
	fill<<<1, N, 0, s>>>(c, 100, N);
	cudaMemcpyAsync(out, c, sizeof out, cudaMemcpyDeviceToHost, s);
	e2 = cudaFreeAsync(c, s);
	cudaStreamEndCapture(s, &g);
	size_t nodes = 0;
	cudaGraphGetNodes(g, nullptr, &nodes);
	cudaGraphNode_t list[4];
	size_t four = 4;
	cudaGraphGetNodes(g, list, &four);
	cudaGraphNodeType first, last;
	cudaGraphNodeGetType(list[0], &first);
	cudaGraphNodeGetType(list[3], &last);
	printf("captured malloc: %s, free: %s, an address %d, %zu nodes, types %d and %d\n",
	       cudaGetErrorName(e), cudaGetErrorName(e2), c != nullptr, nodes, (int)first,
	       (int)last);
	cudaGraphExec_t x;
	cudaGraphInstantiate(&x, g, 0);
	for (int i = 0; i < 2; i++) {
		out[63] = 0;
		e = cudaGraphLaunch(x, s);
		cudaStreamSynchronize(s);
		printf("launch %d: %s, out[63] %d\n", i + 1, cudaGetErrorName(e), out[63]);
	}
	cudaGraphExecDestroy(x);
	cudaGraphDestroy(g);

	// an alloc node with no free node: the memory outlives the launch
	cudaGraphCreate(&g, 0);
	cudaMemAllocNodeParams ap = {};
	ap.poolProps.allocType = cudaMemAllocationTypePinned;
	ap.poolProps.location.type = cudaMemLocationTypeDevice;
	ap.poolProps.location.id = 0;
	ap.bytesize = N * sizeof(int);
	cudaGraphNode_t alloc, k, fr;
	e = cudaGraphAddMemAllocNode(&alloc, g, nullptr, 0, &ap);
	int *d = (int *)ap.dptr, n = N, v = 7;
	void *args[] = {&d, &v, &n};
	cudaKernelNodeParams kp = {};
	kp.func = (void *)fill;
	kp.gridDim = dim3(1);
	kp.blockDim = dim3(N);
	kp.kernelParams = args;
	cudaGraphAddKernelNode(&k, g, &alloc, 1, &kp);
	e2 = cudaGraphAddMemFreeNode(&fr, g, &k, 1, a);
	printf("alloc node: %s, free node of a pool allocation: %s\n", cudaGetErrorName(e),
	       cudaGetErrorName(e2));
	cudaGraphInstantiate(&x, g, 0);
	cudaGraphExec_t x2;
	e = cudaGraphInstantiate(&x2, g, 0);
	printf("a second instance: %s\n", cudaGetErrorName(e));
	cudaGetLastError();
	cudaGraphLaunch(x, s);
	e = cudaMemcpy(out, d, sizeof out, cudaMemcpyDeviceToHost);
	printf("after the launch: %s, out[63] %d\n", cudaGetErrorName(e), out[63]);
	e = cudaGraphLaunch(x, s);
	printf("launch again, not freed: %s\n", cudaGetErrorName(e));
	cudaGetLastError();
	e = cudaFree(d);
	e2 = cudaGraphLaunch(x, s);
	cudaStreamSynchronize(s);
	printf("freed: %s, launch again: %s\n", cudaGetErrorName(e), cudaGetErrorName(e2));
	cudaFreeAsync(d, s);
	e = cudaFreeAsync(d, s);
	printf("freed twice: %s\n", cudaGetErrorName(e));
	cudaGetLastError();
	cudaGraphExecDestroy(x);
	cudaGraphDestroy(g);
	cudaStreamDestroy(s);
	return 0;
}
