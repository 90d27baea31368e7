// Warp shuffles, votes, atomics, math.
__device__ unsigned counter;

__global__ void warp_ops(int *out, const int *in, float *fo)
{
	int lane = threadIdx.x & 31;
	int v = in[threadIdx.x];
	for (int off = 16; off > 0; off >>= 1)
		v += __shfl_down_sync(0xffffffffu, v, off);
	int x = __shfl_xor_sync(0xffffffffu, v, 1);
	int y = __shfl_sync(0xffffffffu, v, 0);
	int z = __shfl_up_sync(0xffffffffu, v, 2);
	unsigned ballot = __ballot_sync(0xffffffffu, v > 10);
	int any = __any_sync(0xffffffffu, lane == 3);
	int all = __all_sync(0xffffffffu, lane < 40);
	unsigned act = __activemask();
	atomicAdd(&counter, 1u);
	atomicMax(out + 1, v);
	atomicCAS(out + 2, 0, v);
	atomicExch(out + 3, lane);
	atomicAdd(fo, 1.0f);
	atomicMin((unsigned *)out + 4, (unsigned)v);
	atomicOr(out + 5, 1 << lane);
	__syncwarp();
	out[64 + threadIdx.x] = x + y + z + ballot + any + all + act + __popc(v) + __clz(v) + __brev(v);
	fo[1 + threadIdx.x] = __expf(fo[0]) + sqrtf(fo[2]) + __fdividef(1.0f, fo[3]) + rsqrtf(fo[4]);
	__threadfence();
	__threadfence_block();
}
