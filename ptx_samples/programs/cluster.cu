// A cluster launch with distributed shared memory: cudaLaunchKernelEx with the cluster-
// dimension attribute; each CTA reads its neighbour's shared memory through
// cluster.map_shared_rank, between two cluster barriers.
#include <cooperative_groups.h>
#include <cstdio>

namespace cg = cooperative_groups;

__global__ void ring(int *out)
{
	__shared__ int v[32];
	cg::cluster_group cl = cg::this_cluster();
	unsigned rank = cl.block_rank(), n = cl.num_blocks();
	v[threadIdx.x] = 1000 * (int)blockIdx.x + (int)threadIdx.x;
	cl.sync();
	int *peer = cl.map_shared_rank(v, (rank + 1) % n);
	int got = peer[(threadIdx.x + 1) % 32];
	cl.sync(); /* the peer's shared memory stays until every read of it is done */
	out[blockIdx.x * 32 + threadIdx.x] = got;
}

int main()
{
	const int ctas = 8;
	int *out;
	cudaMalloc(&out, ctas * 32 * sizeof(int));
	cudaLaunchConfig_t cfg = {};
	cfg.gridDim = dim3(ctas);
	cfg.blockDim = dim3(32);
	cudaLaunchAttribute attr[1];
	attr[0].id = cudaLaunchAttributeClusterDimension;
	attr[0].val.clusterDim.x = 4;
	attr[0].val.clusterDim.y = 1;
	attr[0].val.clusterDim.z = 1;
	cfg.attrs = attr;
	cfg.numAttrs = 1;
	cudaError_t launch = cudaLaunchKernelEx(&cfg, ring, out);
	cudaError_t sync = cudaDeviceSynchronize();
	int h[ctas * 32];
	cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
	int bad = 0;
	for (int b = 0; b < ctas; b++)
		for (int t = 0; t < 32; t++) {
			int peer = b / 4 * 4 + (b % 4 + 1) % 4;
			bad += h[b * 32 + t] != 1000 * peer + (t + 1) % 32;
		}
	printf("launch %s, sync %s: CTA 0 read %d, CTA 3 read %d, CTA 7 read %d, %d wrong\n",
	       cudaGetErrorName(launch), cudaGetErrorName(sync), h[0], h[3 * 32], h[7 * 32], bad);
	cudaFree(out);
	return bad != 0;
}
