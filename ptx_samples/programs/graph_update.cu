// cudaGraphExecUpdate: an instance takes the parameters of a graph of the same shape (a
// capture of the same calls with other arguments, as jacobiCudaGraphs does), and refuses one
// whose shape or node types differ (cudaErrorGraphExecUpdateFailure, with the reason and the
// node). The results follow CUDA's documented semantics (no GPU run is kept in gpu/).
#include <cstdio>

__global__ void fill(int *p, int v, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		p[i] = v + i;
}

#define N 64

static cudaGraph_t capture(cudaStream_t s, int *d, int v, int *out, bool extra)
{
	cudaGraph_t g;
	cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
	cudaMemsetAsync(d, 0, N * sizeof(int), s);
	fill<<<1, N, 0, s>>>(d, v, N);
	if (extra)
		fill<<<1, N, 0, s>>>(d, v, N);
	cudaMemcpyAsync(out, d, N * sizeof(int), cudaMemcpyDeviceToHost, s);
	cudaStreamEndCapture(s, &g);
	return g;
}

int main()
{
	int *d, out[N];
	cudaMalloc(&d, N * sizeof(int));
	cudaStream_t s;
	cudaStreamCreate(&s);
	cudaGraph_t g = capture(s, d, 10, out, false);
	cudaGraphExec_t x;
	cudaGraphInstantiate(&x, g, 0);
	cudaGraphLaunch(x, s);
	cudaStreamSynchronize(s);
	printf("launch: out[1] %d\n", out[1]);

	cudaGraph_t g2 = capture(s, d, 500, out, false);
	cudaGraphExecUpdateResultInfo info;
	cudaError_t e = cudaGraphExecUpdate(x, g2, &info);
	cudaGraphLaunch(x, s);
	cudaStreamSynchronize(s);
	printf("update: %s, result %d, launch: out[1] %d\n", cudaGetErrorName(e), (int)info.result,
	       out[1]);

	cudaGraph_t g3 = capture(s, d, 7, out, true);
	e = cudaGraphExecUpdate(x, g3, &info);
	printf("a node more: %s, result %d (topology changed %d), error node %d\n",
	       cudaGetErrorName(e), (int)info.result, (int)cudaGraphExecUpdateErrorTopologyChanged,
	       info.errorNode == nullptr);
	cudaGraphLaunch(x, s);
	cudaStreamSynchronize(s);
	printf("the instance unchanged: out[1] %d\n", out[1]);

	// the same shape, the kernel node replaced by an empty node
	cudaGraph_t g4;
	cudaGraphCreate(&g4, 0);
	cudaGraphNode_t a, b, c;
	cudaMemsetParams mp = {};
	mp.dst = d;
	mp.elementSize = 1;
	mp.width = N * sizeof(int);
	mp.height = 1;
	cudaGraphAddMemsetNode(&a, g4, nullptr, 0, &mp);
	cudaGraphAddEmptyNode(&b, g4, &a, 1);
	cudaGraphAddMemcpyNode1D(&c, g4, &b, 1, out, d, N * sizeof(int), cudaMemcpyDeviceToHost);
	e = cudaGraphExecUpdate(x, g4, &info);
	printf("a node's type changed: %s, result %d (node type changed %d), error node is it %d\n",
	       cudaGetErrorName(e), (int)info.result, (int)cudaGraphExecUpdateErrorNodeTypeChanged,
	       info.errorNode == b);
	cudaGetLastError();
	cudaGraphDestroy(g4);
	cudaGraphDestroy(g3);
	cudaGraphDestroy(g2);
	cudaGraphDestroy(g);
	cudaGraphExecDestroy(x);
	cudaStreamDestroy(s);
	return 0;
}
