// cuda::ptx wrappers: mbarrier, cp.async.bulk, mapa, fences, elect.
#include <cuda/ptx>
#include <cuda/barrier>
#include <cstdint>
namespace ptx = cuda::ptx;

__global__ void __cluster_dims__(2, 1, 1) bulk_kernel(int4 *gout, const int4 *gin)
{
	__shared__ alignas(16) int4 smem[64];
	__shared__ alignas(8) uint64_t bar;
	if (threadIdx.x == 0) {
		ptx::mbarrier_init(&bar, 1);
		ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
	}
	__syncthreads();
	if (threadIdx.x == 0) {
		ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, smem, gin, sizeof(smem), &bar);
		uint64_t st = ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
							     ptx::space_shared, &bar, sizeof(smem));
		(void)st;
	}
	while (!ptx::mbarrier_try_wait_parity(&bar, 0)) {
	}
	gout[threadIdx.x] = smem[threadIdx.x];
	ptx::fence_proxy_async(ptx::space_shared);
	__syncthreads();
	if (threadIdx.x == 0) {
		ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, gout + 64, smem, sizeof(smem));
		ptx::cp_async_bulk_commit_group();
		ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
	}
	uint32_t peer = ptx::get_sreg_cluster_ctarank() ^ 1;
	uint64_t *remote = (uint64_t *)__cluster_map_shared_rank(&bar, peer);
	(void)remote;
	uint32_t nc = ptx::get_sreg_cluster_nctarank();
	gout[128 + threadIdx.x].x = nc + ptx::get_sreg_clusterid_x();
}

__global__ void mbar_plain(unsigned *out)
{
	__shared__ uint64_t bar;
	if (threadIdx.x == 0)
		ptx::mbarrier_init(&bar, blockDim.x);
	__syncthreads();
	uint64_t state = ptx::mbarrier_arrive(&bar);
	while (!ptx::mbarrier_test_wait(&bar, state)) {
	}
	ptx::mbarrier_try_wait(&bar, state);
	out[threadIdx.x] = (unsigned)state;
}
