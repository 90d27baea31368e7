// A grid-wide sum through cooperative_groups: each CTA doubles its input word into
// partial[], the grid synchronises (this_grid().sync(): the barrier counter at %envreg1:
// %envreg2 + 4), then CTA 0 sums every CTA's word; a second sync, then each CTA copies its
// neighbour's word, which the first sum did not touch. CTA `skip` returns before the first
// sync (-1: none), which leaves the others waiting forever.
// grid_sync.ptx is `nvcc -arch=sm_90a -ptx -rdc=false grid_sync.cu` (CUDA 13.0); regenerate
// it after editing this file.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void gsum(const int *in, int *partial, int *out, int skip)
{
	cg::grid_group grid = cg::this_grid();
	int b = blockIdx.x;
	if (b == skip)
		return;
	if (threadIdx.x == 0)
		partial[b] = in[b] * 2;
	grid.sync();
	if (b == 0 && threadIdx.x == 0) {
		int s = 0;
		for (int i = 0; i < gridDim.x; i++)
			s += partial[i];
		out[0] = s;
	}
	grid.sync();
	if (threadIdx.x == 0)
		out[1 + b] = partial[(b + 1) % gridDim.x];
}
