// Cooperative launches: a kernel that synchronises the whole grid (this_grid().sync())
// between its phases, launched by cudaLaunchCooperativeKernel and by cudaLaunchKernelEx
// with the cooperative attribute. Each CTA sums its slice; after the first grid sync each
// thread adds the sums of the CTAs before its own (a prefix over the grid); after the
// second each CTA reads its neighbour's first result. A grid larger than the GPU holds at
// once is refused. (A plain launch of it traps in a fresh context, which has no grid-sync
// workspace: tests/cooperative.sh shows that with ptxi run.)
#include <cooperative_groups.h>
#include <cstdio>

namespace cg = cooperative_groups;

__global__ void phases(const int *in, int *part, int *out, int *next)
{
	cg::grid_group grid = cg::this_grid();
	__shared__ int s[64];
	int b = blockIdx.x, t = threadIdx.x, i = b * 64 + t;
	s[t] = in[i];
	__syncthreads();
	for (int k = 32; k; k >>= 1) {
		if (t < k)
			s[t] += s[t + k];
		__syncthreads();
	}
	if (t == 0)
		part[b] = s[0];
	grid.sync();
	int before = 0;
	for (int c = 0; c < b; c++)
		before += part[c];
	out[i] = before + in[i];
	grid.sync();
	if (t == 0)
		next[b] = out[(b + 1) % gridDim.x * 64];
}

/* The launch's results against the host's: how many words are wrong. */
static int wrong(const int *in, const int *out, const int *next, int ctas)
{
	int bad = 0, before = 0;
	for (int b = 0; b < ctas; b++) {
		int sum = 0;
		for (int t = 0; t < 64; t++) {
			bad += out[b * 64 + t] != before + in[b * 64 + t];
			sum += in[b * 64 + t];
		}
		before += sum;
	}
	for (int b = 0; b < ctas; b++)
		bad += next[b] != out[(b + 1) % ctas * 64];
	return bad;
}

int main()
{
	const int most = 16;
	static int in[most * 64], out[most * 64], next[most];
	for (int i = 0; i < most * 64; i++)
		in[i] = i * 7 % 13;
	int *din, *dpart, *dout, *dnext;
	cudaMalloc(&din, sizeof in);
	cudaMalloc(&dpart, most * sizeof(int));
	cudaMalloc(&dout, sizeof out);
	cudaMalloc(&dnext, sizeof next);
	cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice);
	void *args[] = {&din, &dpart, &dout, &dnext};

	cudaError_t launch = cudaLaunchCooperativeKernel((void *)phases, 8, 64, args, 0, 0);
	cudaError_t sync = cudaDeviceSynchronize();
	cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
	cudaMemcpy(next, dnext, sizeof next, cudaMemcpyDeviceToHost);
	printf("cudaLaunchCooperativeKernel, 8 CTAs: launch %s, sync %s: out[511] %d, next[7] %d, "
	       "%d wrong\n", cudaGetErrorName(launch), cudaGetErrorName(sync), out[511], next[7],
	       wrong(in, out, next, 8));

	cudaLaunchConfig_t cfg = {};
	cfg.gridDim = dim3(16);
	cfg.blockDim = dim3(64);
	cudaLaunchAttribute attr[1];
	attr[0].id = cudaLaunchAttributeCooperative;
	attr[0].val.cooperative = 1;
	cfg.attrs = attr;
	cfg.numAttrs = 1;
	launch = cudaLaunchKernelEx(&cfg, phases, (const int *)din, dpart, dout, dnext);
	sync = cudaDeviceSynchronize();
	cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
	cudaMemcpy(next, dnext, sizeof next, cudaMemcpyDeviceToHost);
	printf("cudaLaunchKernelEx, cooperative, 16 CTAs: launch %s, sync %s: out[1023] %d, "
	       "next[15] %d, %d wrong\n", cudaGetErrorName(launch), cudaGetErrorName(sync),
	       out[1023], next[15], wrong(in, out, next, 16));

	/* more CTAs than 132 SMs hold at once (32 CTAs an SM at most): refused, and the
	 * error is the last one, not a sticky one */
	launch = cudaLaunchCooperativeKernel((void *)phases, 132 * 32 + 1, 64, args, 0, 0);
	printf("cudaLaunchCooperativeKernel, %d CTAs: %s\n", 132 * 32 + 1, cudaGetErrorName(launch));
	printf("then cudaGetLastError %s, cudaDeviceSynchronize %s\n",
	       cudaGetErrorName(cudaGetLastError()), cudaGetErrorName(cudaDeviceSynchronize()));
	return 0;
}
