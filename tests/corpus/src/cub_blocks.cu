// CUB's block and warp collectives as real programs use them: their inline PTX writes the
// .sync of vote and shfl among the other words (vote.ballot.sync.b32), which ptxas takes.
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/warp/warp_reduce.cuh>
#include <cub/warp/warp_scan.cuh>
#include <cub/util_ptx.cuh>

__global__ void block_sort(unsigned *keys)
{
	using Sort = cub::BlockRadixSort<unsigned, 128, 4>;
	__shared__ typename Sort::TempStorage tmp;
	unsigned k[4];
	for (int i = 0; i < 4; i++)
		k[i] = keys[threadIdx.x * 4 + i];
	Sort(tmp).Sort(k);
	for (int i = 0; i < 4; i++)
		keys[threadIdx.x * 4 + i] = k[i];
}

__global__ void block_reduce_scan(const int *in, int *out)
{
	using Reduce = cub::BlockReduce<int, 128>;
	using Scan = cub::BlockScan<int, 128>;
	__shared__ union {
		typename Reduce::TempStorage r;
		typename Scan::TempStorage s;
	} tmp;
	int v = in[blockIdx.x * 128 + threadIdx.x];
	int sum = Reduce(tmp.r).Sum(v);
	__syncthreads();
	int pre;
	Scan(tmp.s).ExclusiveSum(v, pre);
	out[blockIdx.x * 128 + threadIdx.x] = pre + (threadIdx.x == 0 ? sum : 0);
}

__global__ void warp_collectives(const float *in, float *out)
{
	using WR = cub::WarpReduce<float>;
	using WS = cub::WarpScan<float>;
	__shared__ typename WR::TempStorage r[4];
	__shared__ typename WS::TempStorage s[4];
	int w = threadIdx.x / 32;
	float v = in[blockIdx.x * 128 + threadIdx.x];
	float m = WR(r[w]).Reduce(v, cuda::maximum<>{});
	float inc;
	WS(s[w]).InclusiveSum(v, inc);
	out[blockIdx.x * 128 + threadIdx.x] = inc + m;
}

// The ballot loop DeviceRadixSort's onesweep ranks digits with (cub/util_ptx.cuh).
__global__ void warp_match(const unsigned *labels, unsigned *peers)
{
	unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
	peers[t] = cub::detail::warp_matcher_t<4, 32>::match_any(labels[t]);
}
