// Runtime calls that programs (the NVIDIA CUDA samples among them) make around their kernels,
// answered as an H200 answers them: device limits, profiler ranges, stream callbacks, the L2
// access policy of a stream, cache preferences, mapped host memory; and a kernel that splits each warp into tiles of 16 threads
// (cooperative_groups::tiled_partition), whose shuffles, votes and reductions pass each
// tile's own membermask.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstdio>
#include <cstring>
#include <cuda_profiler_api.h>
namespace cg = cooperative_groups;

__global__ void tiles(int *out)
{
	cg::thread_block_tile<16> t = cg::tiled_partition<16>(cg::this_thread_block());
	int r = t.thread_rank();
	int sum = cg::reduce(t, r, cg::plus<int>());
	unsigned odd = t.ballot(r & 1);
	int next = t.shfl_down(r, 1);
	t.sync();
	out[threadIdx.x] = sum * 1000000 + (int)odd * 100 + next;
}

static bool called;
static void CUDART_CB note(cudaStream_t, cudaError_t status, void *data)
{
	called = status == cudaSuccess && *(int *)data == 42;
}

int main()
{
	const char *names[] = {"StackSize", "PrintfFifoSize", "MallocHeapSize", "DevRuntimeSyncDepth",
			       "DevRuntimePendingLaunchCount", "MaxL2FetchGranularity",
			       "PersistingL2CacheSize"};
	for (int l = 0; l < 7; l++) {
		size_t v = 0;
		cudaError_t e = cudaDeviceGetLimit(&v, (cudaLimit)l);
		printf("limit %s: %s %zu\n", names[l], cudaGetErrorName(e), e ? 0 : v);
	}
	cudaGetLastError();
	size_t v = 0;
	printf("set MaxL2FetchGranularity 32: %s", cudaGetErrorName(cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, 32)));
	cudaDeviceGetLimit(&v, cudaLimitMaxL2FetchGranularity);
	printf(", then %zu\n", v);
	printf("set MaxL2FetchGranularity 256: %s\n", cudaGetErrorName(cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, 256)));
	printf("set PersistingL2CacheSize 0: %s\n", cudaGetErrorName(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0)));
	printf("set PersistingL2CacheSize 100000000: %s\n", cudaGetErrorName(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 100000000)));
	cudaGetLastError();
	printf("profiler start, stop: %s %s\n", cudaGetErrorName(cudaProfilerStart()), cudaGetErrorName(cudaProfilerStop()));

	cudaStream_t s;
	cudaStreamCreate(&s);
	int data = 42;
	printf("callback with flags 1: %s\n", cudaGetErrorName(cudaStreamAddCallback(s, note, &data, 1)));
	cudaGetLastError();
	printf("callback: %s", cudaGetErrorName(cudaStreamAddCallback(s, note, &data, 0)));
	cudaStreamSynchronize(s);
	printf(", called %d\n", called);

	int *d;
	cudaMalloc(&d, 64 * sizeof(int));
	cudaStreamAttrValue a = {};
	a.accessPolicyWindow.base_ptr = d;
	a.accessPolicyWindow.num_bytes = 64 * sizeof(int);
	a.accessPolicyWindow.hitRatio = 0.6f;
	a.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
	a.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
	printf("access policy window: %s\n", cudaGetErrorName(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &a)));
	a.accessPolicyWindow.num_bytes = (size_t)1 << 30;
	printf("a window of 1 GiB: %s\n", cudaGetErrorName(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &a)));
	a.accessPolicyWindow.num_bytes = 256;
	a.accessPolicyWindow.hitRatio = 1.5f;
	printf("a hit ratio of 1.5: %s\n", cudaGetErrorName(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &a)));
	a.accessPolicyWindow.hitRatio = 0.5f;
	a.accessPolicyWindow.missProp = cudaAccessPropertyPersisting;
	printf("persisting misses: %s\n", cudaGetErrorName(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &a)));
	cudaGetLastError();
	cudaStreamAttrValue p;
	memset(&p, 0, sizeof p);
	printf("priority: %s %d\n", cudaGetErrorName(cudaStreamGetAttribute(s, cudaStreamAttributePriority, &p)), p.priority);
	int least = 7, greatest = 7, prio = 7;
	cudaStream_t hi;
	printf("priority range: %s", cudaGetErrorName(cudaDeviceGetStreamPriorityRange(&least, &greatest)));
	cudaStreamCreateWithPriority(&hi, cudaStreamNonBlocking, greatest);
	cudaStreamGetPriority(hi, &prio);
	printf(" %d to %d, a stream made with %d has %d\n", least, greatest, greatest, prio);
	printf("attribute 2 (cooperative) of a stream: %s\n", cudaGetErrorName(cudaStreamGetAttribute(s, (cudaStreamAttrID)2, &p)));
	cudaGetLastError();
	printf("reset persisting lines: %s\n", cudaGetErrorName(cudaCtxResetPersistingL2Cache()));
	printf("cache config of a kernel: %s\n", cudaGetErrorName(cudaFuncSetCacheConfig(tiles, cudaFuncCachePreferShared)));
	printf("cache config 7: %s\n", cudaGetErrorName(cudaFuncSetCacheConfig(tiles, (cudaFuncCache)7)));
	cudaGetLastError();
	int dc = -1;
	printf("device cache config: %s", cudaGetErrorName(cudaDeviceSetCacheConfig(cudaFuncCachePreferL1)));
	cudaDeviceGetCacheConfig((cudaFuncCache *)&dc);
	printf(", then %d\n", dc);
	int *mapped, *dev = nullptr;
	cudaHostAlloc(&mapped, 256, cudaHostAllocMapped);
	cudaError_t e = cudaHostGetDevicePointer((void **)&dev, mapped, 0);
	printf("device pointer of mapped memory: %s, %s\n", cudaGetErrorName(e), dev == mapped ? "the same" : "another");
	int plain[4];
	printf("device pointer of stack memory: %s\n", cudaGetErrorName(cudaHostGetDevicePointer((void **)&dev, plain, 0)));
	cudaGetLastError();

	tiles<<<1, 64, 0, s>>>(d);
	int h[64];
	cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
	printf("tiles: %s\n", cudaGetErrorName(cudaGetLastError()));
	for (int i = 0; i < 64; i += 15)
		printf("thread %d: %d\n", i, h[i]);
	return 0;
}
