// CUDA graphs by stream capture: a copy in, a memset, two kernels, a copy out and a host
// function are captured (recorded, not run), the graph is launched twice (the copy in reads
// the pinned host buffer at each launch), and calls CUDA forbids during a capture are
// refused and invalidate it. Last, a captured kernel that stores one element past its
// allocation: the fault is reported when the graph launches it, as launch 5. (No GPU run
// is kept in gpu/: the expected output follows CUDA's documented semantics. A GPU would not
// fault on 4 bytes past a small allocation, inside its page; ptxi reports the store.)
#include <cstdio>

__global__ void scale(float *x, float a, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] *= a;
}

__global__ void add(float *y, const float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] += x[i];
}

__global__ void shift(int *p)
{
	p[threadIdx.x + 1] = threadIdx.x; // thread 31 stores past the 32 ints
}

static void note(void *calls)
{
	++*(int *)calls;
}

static int wrong(const float *out, int n, float base)
{
	int bad = 0;
	for (int i = 0; i < n; i++)
		bad += out[i] != 2 * (i + base);
	return bad;
}

int main()
{
	const int n = 256;
	float *h, *out, *x, *y;
	cudaMallocHost(&h, n * sizeof(float));
	cudaMallocHost(&out, n * sizeof(float));
	cudaMalloc(&x, n * sizeof(float));
	cudaMalloc(&y, n * sizeof(float));
	for (int i = 0; i < n; i++)
		h[i] = i, out[i] = -1;
	cudaStream_t s;
	cudaStreamCreate(&s);
	int calls = 0;

	cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
	cudaMemcpyAsync(x, h, n * sizeof(float), cudaMemcpyHostToDevice, s);
	cudaMemsetAsync(y, 0, n * sizeof(float), s);
	scale<<<2, 128, 0, s>>>(x, 2.0f, n);
	add<<<2, 128, 0, s>>>(y, x, n);
	cudaMemcpyAsync(out, y, n * sizeof(float), cudaMemcpyDeviceToHost, s);
	cudaLaunchHostFunc(s, note, &calls);
	cudaStreamCaptureStatus st;
	unsigned long long id = 0;
	size_t deps = 0;
	cudaError_t e = cudaStreamGetCaptureInfo(s, &st, &id, nullptr, nullptr, nullptr, &deps);
	printf("capturing: %s, status %d, id > 0: %s, dependencies %zu\n", cudaGetErrorName(e), st,
	       id > 0 ? "yes" : "no", deps);
	printf("recorded, not run: host function calls %d, out[5] %g\n", calls, out[5]);
	cudaGraph_t g;
	e = cudaStreamEndCapture(s, &g);
	size_t nodes = 0;
	cudaGraphGetNodes(g, nullptr, &nodes);
	cudaStreamIsCapturing(s, &st);
	printf("end capture: %s, %zu nodes, status %d\n", cudaGetErrorName(e), nodes, st);

	cudaGraphExec_t ge;
	e = cudaGraphInstantiate(&ge, g, 0);
	printf("instantiate: %s\n", cudaGetErrorName(e));
	cudaGraphDestroy(g); // the instance keeps its own nodes
	e = cudaGraphLaunch(ge, s);
	cudaStreamSynchronize(s);
	printf("launch 1: %s, wrong %d, host function calls %d\n", cudaGetErrorName(e),
	       wrong(out, n, 0), calls);
	for (int i = 0; i < n; i++)
		h[i] = i + 1;
	e = cudaGraphLaunch(ge, s);
	cudaStreamSynchronize(s);
	printf("launch 2: %s, wrong %d, host function calls %d, out[255] %g\n",
	       cudaGetErrorName(e), wrong(out, n, 1), calls, out[255]);
	cudaGraphExecDestroy(ge);

	// forbidden while capturing: waiting for the capturing stream, and a synchronous copy
	// (the legacy stream would depend on the capturing blocking stream)
	cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
	e = cudaStreamSynchronize(s);
	printf("cudaStreamSynchronize while capturing: %s (%s)\n", cudaGetErrorName(e),
	       cudaGetErrorString(e));
	cudaStreamIsCapturing(s, &st);
	g = nullptr;
	e = cudaStreamEndCapture(s, &g);
	printf("status %d, end capture: %s, graph %s\n", st, cudaGetErrorName(e),
	       g ? "made" : "none");
	cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
	e = cudaMemcpy(out, y, n * sizeof(float), cudaMemcpyDeviceToHost);
	printf("cudaMemcpy while capturing: %s\n", cudaGetErrorName(e));
	e = cudaStreamEndCapture(s, &g);
	printf("end capture: %s, graph %s\n", cudaGetErrorName(e), g ? "made" : "none");
	// what ptxi does not record (a 2D copy in a capture) is said, and refused
	cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
	e = cudaMemcpy2DAsync(out, 8, y, 8, 4, 2, cudaMemcpyDeviceToHost, s);
	printf("cudaMemcpy2DAsync while capturing: %s\n", cudaGetErrorName(e));
	e = cudaStreamEndCapture(s, &g);
	printf("end capture: %s, graph %s\n", cudaGetErrorName(e), g ? "made" : "none");
	cudaGetLastError();

	// a kernel that breaks a rule runs through the checked path when the graph launches it
	int *p;
	cudaMalloc(&p, 32 * sizeof(int));
	cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
	shift<<<1, 32, 0, s>>>(p);
	cudaStreamEndCapture(s, &g);
	cudaGraphInstantiate(&ge, g, 0);
	e = cudaGraphLaunch(ge, s);
	printf("faulty graph launch: %s, synchronize: %s\n", cudaGetErrorName(e),
	       cudaGetErrorName(cudaStreamSynchronize(s)));
	cudaGraphExecDestroy(ge);
	cudaGraphDestroy(g);
	cudaStreamDestroy(s);
	return 0;
}
