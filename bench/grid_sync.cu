// nvcc -arch=sm_90a -ptx -o grid_sync.ptx grid_sync.cu (bench/race.sh, race_cost.sh: --cooperative)
// grid_sync: every thread writes its word, the whole grid syncs (cooperative_groups), then
// each reads its neighbour's word from another CTA; ROUNDS times.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
#define ROUNDS 4
extern "C" __global__ void grid_sync(unsigned *buf, unsigned *out)
{
	cg::grid_group g = cg::this_grid();
	unsigned t = blockIdx.x * blockDim.x + threadIdx.x, n = gridDim.x * blockDim.x, acc = 0;
	for (int r = 0; r < ROUNDS; r++) {
		buf[t] = t * 3 + r;
		g.sync();
		acc += buf[(t + blockDim.x) % n];
		g.sync();
	}
	out[t] = acc;
}
