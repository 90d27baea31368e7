// CUDA graphs built node by node (cudaGraphCreate, cudaGraphAdd*Node, cudaGraphAddDependencies)
// and by a capture that forks into other streams and joins back through events: the nodes
// run in the order their edges ask for (not their creation order), node parameters change
// in a graph and in an instance, a clone is its own graph, and the calls CUDA refuses get
// its errors: a dependency from another graph, one named twice, an edge that exists, a
// cycle, a capture whose forked stream is not joined back.
#include <cstdio>

__global__ void fill(int *p, int v, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		p[i] = v + i;
}

__global__ void twice(int *out, const int *in, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = 2 * in[i];
}

__global__ void sum(int *out, const int *a, const int *b, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = a[i] + b[i];
}

static void note(void *calls)
{
	++*(int *)calls;
}

#define N 64

static cudaKernelNodeParams kparams(void *f, void **args)
{
	cudaKernelNodeParams p = {};
	p.func = f;
	p.gridDim = dim3(1);
	p.blockDim = dim3(N);
	p.kernelParams = args;
	return p;
}

int main()
{
	int *a, *b, *c, h[N], out[N];
	cudaMalloc(&a, N * sizeof(int));
	cudaMalloc(&b, N * sizeof(int));
	cudaMalloc(&c, N * sizeof(int));
	for (int i = 0; i < N; i++)
		h[i] = 100 * i;
	cudaStream_t s;
	cudaStreamCreate(&s);
	int n = N, calls = 0;

	// copy in (3D parameters) and a 4-byte memset, a kernel after both, a copy out, a host
	// node; the kernel is made before the memset it depends on
	cudaGraph_t g;
	cudaGraphCreate(&g, 0);
	cudaGraphNode_t in, set, k, copy_out, host;
	cudaMemcpy3DParms cp = {};
	cp.srcPtr = make_cudaPitchedPtr(h, N * sizeof(int), N, 1);
	cp.dstPtr = make_cudaPitchedPtr(a, N * sizeof(int), N, 1);
	cp.extent = make_cudaExtent(N * sizeof(int), 1, 1);
	cp.kind = cudaMemcpyHostToDevice;
	cudaError_t e = cudaGraphAddMemcpyNode(&in, g, nullptr, 0, &cp);
	printf("memcpy node: %s\n", cudaGetErrorName(e));
	void *kargs[] = {&c, &a, &b, &n};
	cudaKernelNodeParams kp = kparams((void *)sum, kargs);
	e = cudaGraphAddKernelNode(&k, g, &in, 1, &kp);
	printf("kernel node: %s\n", cudaGetErrorName(e));
	cudaMemsetParams mp = {};
	mp.dst = b;
	mp.value = 7;
	mp.elementSize = 4;
	mp.width = N;
	mp.height = 1;
	e = cudaGraphAddMemsetNode(&set, g, nullptr, 0, &mp);
	printf("memset node: %s\n", cudaGetErrorName(e));
	e = cudaGraphAddDependencies(g, &set, &k, nullptr, 1);
	printf("edge memset -> kernel: %s\n", cudaGetErrorName(e));
	e = cudaGraphAddMemcpyNode1D(&copy_out, g, &k, 1, out, c, N * sizeof(int),
				     cudaMemcpyDeviceToHost);
	printf("memcpy 1D node: %s\n", cudaGetErrorName(e));
	cudaHostNodeParams hp = {note, &calls};
	e = cudaGraphAddHostNode(&host, g, &copy_out, 1, &hp);
	printf("host node: %s\n", cudaGetErrorName(e));
	size_t nodes = 0, roots = 0, edges = 0;
	cudaGraphGetNodes(g, nullptr, &nodes);
	cudaGraphGetRootNodes(g, nullptr, &roots);
	cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &edges);
	cudaGraphNode_t from[8], to[8];
	size_t ne = 8;
	cudaGraphGetEdges(g, from, to, nullptr, &ne);
	int into_kernel = 0;
	for (size_t i = 0; i < ne; i++)
		into_kernel += to[i] == k;
	cudaGraphNodeType type;
	cudaGraphNodeGetType(set, &type);
	printf("%zu nodes, %zu roots, %zu edges (%zu read, %d into the kernel), memset node's "
	       "type %d\n", nodes, roots, edges, ne, into_kernel, (int)type);

	cudaGraphExec_t x;
	e = cudaGraphInstantiate(&x, g, 0);
	printf("instantiate: %s\n", cudaGetErrorName(e));
	e = cudaGraphLaunch(x, s);
	cudaStreamSynchronize(s);
	printf("launch: %s, out[0] %d out[63] %d, host node calls %d\n", cudaGetErrorName(e),
	       out[0], out[63], calls);

	// the graph's kernel node changed: the instance keeps its own; then the instance's
	int two = 2;
	void *kargs2[] = {&c, &b, &b, &two};
	cudaKernelNodeParams kp2 = kparams((void *)sum, kargs2);
	e = cudaGraphKernelNodeSetParams(k, &kp2);
	cudaGraphLaunch(x, s);
	cudaStreamSynchronize(s);
	printf("graph's node set: %s, the instance unchanged: out[1] %d out[2] %d\n",
	       cudaGetErrorName(e), out[1], out[2]);
	e = cudaGraphExecKernelNodeSetParams(x, k, &kp2);
	cudaGraphLaunch(x, s);
	cudaStreamSynchronize(s);
	printf("instance's node set: %s, out[1] %d out[2] %d\n", cudaGetErrorName(e), out[1],
	       out[2]);
	cudaKernelNodeParams got = {};
	e = cudaGraphKernelNodeGetParams(k, &got);
	printf("kernel node params: %s, func is sum %d, block %u, n %d\n", cudaGetErrorName(e),
	       got.func == (void *)sum, got.blockDim.x, *(int *)got.kernelParams[3]);
	e = cudaGraphKernelNodeGetParams(set, &got);
	printf("kernel params of a memset node: %s\n", cudaGetErrorName(e));

	// a clone is its own graph: its nodes are found by the original's
	cudaGraph_t g2;
	e = cudaGraphClone(&g2, g);
	cudaGraphNode_t k2;
	cudaError_t e2 = cudaGraphNodeFindInClone(&k2, k, g2);
	size_t n2 = 0;
	cudaGraphGetEdges(g2, nullptr, nullptr, nullptr, &n2);
	printf("clone: %s, find: %s, a different node %d, %zu edges\n", cudaGetErrorName(e),
	       cudaGetErrorName(e2), k2 != k, n2);

	// refused: a dependency from another graph, one named twice, an edge that exists, a
	// node on itself, a memset of 3-byte elements, a host node without a function
	cudaGraphNode_t extra, twice_deps[2] = {in, in};
	e = cudaGraphAddEmptyNode(&extra, g2, &in, 1);
	printf("dependency from another graph: %s\n", cudaGetErrorName(e));
	e = cudaGraphAddEmptyNode(&extra, g, twice_deps, 2);
	printf("dependency named twice: %s\n", cudaGetErrorName(e));
	e = cudaGraphAddDependencies(g, &set, &k, nullptr, 1);
	printf("edge that exists: %s\n", cudaGetErrorName(e));
	e = cudaGraphAddDependencies(g, &k, &k, nullptr, 1);
	printf("edge from a node to itself: %s\n", cudaGetErrorName(e));
	mp.elementSize = 3;
	e = cudaGraphAddMemsetNode(&extra, g, nullptr, 0, &mp);
	printf("memset of 3-byte elements: %s\n", cudaGetErrorName(e));
	kp.gridDim = dim3(0);
	e = cudaGraphAddKernelNode(&extra, g, nullptr, 0, &kp);
	printf("kernel node of an empty grid: %s\n", cudaGetErrorName(e));
	mp.elementSize = 4;
	mp.dst = h;
	e = cudaGraphAddMemsetNode(&extra, g, nullptr, 0, &mp);
	printf("memset node of host memory: %s\n", cudaGetErrorName(e));
	cudaHostNodeParams none = {};
	e = cudaGraphAddHostNode(&extra, g, nullptr, 0, &none);
	printf("host node without a function: %s\n", cudaGetErrorName(e));
	cudaGetLastError();

	// a cycle: the host node before the memcpy in, which the host node waits for
	cudaGraphNode_t h2, in2;
	cudaGraphNodeFindInClone(&h2, host, g2);
	cudaGraphNodeFindInClone(&in2, in, g2);
	e = cudaGraphAddDependencies(g2, &h2, &in2, nullptr, 1);
	printf("edge that closes a cycle: %s\n", cudaGetErrorName(e));
	cudaGraphExec_t x2 = nullptr;
	e = cudaGraphInstantiate(&x2, g2, 0);
	printf("instantiate with a cycle: %s\n", cudaGetErrorName(e));
	cudaGetLastError();
	// the node destroyed, its edges go with it
	e = cudaGraphDestroyNode(h2);
	cudaGraphGetEdges(g2, nullptr, nullptr, nullptr, &n2);
	e2 = cudaGraphInstantiate(&x2, g2, 0);
	printf("destroy node: %s, %zu edges, instantiate: %s\n", cudaGetErrorName(e), n2,
	       cudaGetErrorName(e2));
	cudaGraphExecDestroy(x2);
	cudaGraphDestroy(g2);
	cudaGraphExecDestroy(x);
	cudaGraphDestroy(g);

	// a capture that forks: s fills a, s2 fills b, s doubles a into c after both (joined)
	cudaStream_t s2;
	cudaStreamCreate(&s2);
	cudaEvent_t fork, join;
	cudaEventCreate(&fork);
	cudaEventCreate(&join);
	cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
	cudaEventRecord(fork, s);
	e = cudaStreamWaitEvent(s2, fork, 0);
	cudaStreamCaptureStatus st;
	cudaStreamIsCapturing(s2, &st);
	printf("fork: %s, the other stream's status %d\n", cudaGetErrorName(e), (int)st);
	fill<<<1, N, 0, s>>>(a, 1000, N);
	fill<<<1, N, 0, s2>>>(b, 2000, N);
	cudaEventRecord(join, s2);
	cudaStreamWaitEvent(s, join, 0);
	sum<<<1, N, 0, s>>>(c, a, b, n);
	cudaMemcpyAsync(out, c, N * sizeof(int), cudaMemcpyDeviceToHost, s);
	e = cudaStreamEndCapture(s, &g);
	cudaStreamIsCapturing(s2, &st);
	cudaGraphGetNodes(g, nullptr, &nodes);
	cudaGraphGetRootNodes(g, nullptr, &roots);
	cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &edges);
	printf("end capture: %s, the other stream's status %d, %zu nodes, %zu roots, %zu edges\n",
	       cudaGetErrorName(e), (int)st, nodes, roots, edges);
	cudaGraphInstantiate(&x, g, 0);
	e = cudaGraphLaunch(x, s);
	cudaStreamSynchronize(s);
	printf("launch: %s, out[0] %d out[63] %d\n", cudaGetErrorName(e), out[0], out[63]);
	cudaGraphExecDestroy(x);
	cudaGraphDestroy(g);

	// the forked stream's work not joined back
	cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
	cudaEventRecord(fork, s);
	cudaStreamWaitEvent(s2, fork, 0);
	fill<<<1, N, 0, s2>>>(b, 0, N);
	g = nullptr;
	e = cudaStreamEndCapture(s, &g);
	cudaStreamIsCapturing(s2, &st);
	printf("end capture, not joined: %s, graph %s, the other stream's status %d\n",
	       cudaGetErrorName(e), g ? "made" : "none", (int)st);
	// a capture ended in the stream that joined it, not the one it began in
	cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
	cudaEventRecord(fork, s);
	cudaStreamWaitEvent(s2, fork, 0);
	e = cudaStreamEndCapture(s2, &g);
	e2 = cudaStreamEndCapture(s, &g);
	printf("end capture in the other stream: %s, then in its own: %s\n", cudaGetErrorName(e),
	       cudaGetErrorName(e2));
	// an event's query: forbidden in a global capture; in a relaxed one, an event recorded
	// in the capture has not happened
	cudaEvent_t ev;
	cudaEventCreate(&ev);
	cudaEventRecord(ev, s);
	cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
	e = cudaEventQuery(ev);
	e2 = cudaStreamEndCapture(s, &g);
	printf("query in a global capture: %s, end capture: %s\n", cudaGetErrorName(e),
	       cudaGetErrorName(e2));
	cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
	e = cudaEventQuery(ev);
	fill<<<1, N, 0, s>>>(a, 0, N);
	cudaEventRecord(ev, s);
	e2 = cudaEventQuery(ev);
	cudaError_t e3 = cudaStreamEndCapture(s, &g);
	printf("query in a relaxed capture: before the event's record in it %s, after %s, end "
	       "capture: %s\n", cudaGetErrorName(e), cudaGetErrorName(e2), cudaGetErrorName(e3));
	cudaGraphDestroy(g);
	cudaEventDestroy(ev);
	cudaGetLastError();
	cudaEventDestroy(fork);
	cudaEventDestroy(join);
	cudaStreamDestroy(s2);
	cudaStreamDestroy(s);
	return 0;
}
