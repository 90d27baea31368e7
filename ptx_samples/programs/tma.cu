// A TMA tile load with the tensor map encoded on the host through the driver entry point
// (cudaGetDriverEntryPoint("cuTensorMapEncodeTiled")), passed as a __grid_constant__
// parameter; the kernel waits on an mbarrier for the copy's bytes. A second tile reaches
// past the tensor's edge: those elements read as zero.
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cstdio>

#define W 64
#define H 32
#define TW 16
#define TH 8

__global__ void load_tile(const __grid_constant__ CUtensorMap map, float *out, int x0, int y0)
{
	__shared__ alignas(128) float tile[TH * TW];
	__shared__ alignas(8) unsigned long long bar;
	unsigned b = (unsigned)__cvta_generic_to_shared(&bar);
	unsigned t = (unsigned)__cvta_generic_to_shared(tile);
	if (threadIdx.x == 0) {
		asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b));
		asm volatile("fence.mbarrier_init.release.cluster;");
	}
	__syncthreads();
	if (threadIdx.x == 0) {
		asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b),
			     "r"((unsigned)sizeof tile));
		asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
			     " [%0], [%1, {%2, %3}], [%4];"
			     ::"r"(t), "l"(&map), "r"(x0), "r"(y0), "r"(b) : "memory");
	}
	asm volatile("{\n.reg .pred p;\nWAIT%=:\n"
		     "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0;\n"
		     "@!p bra WAIT%=;\n}" ::"r"(b) : "memory");
	for (int i = threadIdx.x; i < TH * TW; i += blockDim.x)
		out[i] = tile[i];
}

int main()
{
	float h[H * W];
	for (int i = 0; i < H * W; i++)
		h[i] = (float)i;
	float *g, *out;
	cudaMalloc(&g, sizeof h);
	cudaMalloc(&out, TH * TW * sizeof(float));
	cudaMemcpy(g, h, sizeof h, cudaMemcpyHostToDevice);
	PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;
	cudaDriverEntryPointQueryResult q;
	cudaError_t ep = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", (void **)&encode,
							  12000, cudaEnableDefault, &q);
	printf("entry point: %s, found: %s\n", cudaGetErrorName(ep),
	       q == cudaDriverEntryPointSuccess ? "yes" : "no");
	CUtensorMap map;
	cuuint64_t dims[2] = {W, H}, strides[1] = {W * sizeof(float)};
	cuuint32_t box[2] = {TW, TH}, es[2] = {1, 1};
	CUresult r = encode(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, g, dims, strides, box, es,
			    CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
			    CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
	printf("encode: %d\n", (int)r);
	int corners[2][2] = {{16, 8}, {56, 28}};
	for (int c = 0; c < 2; c++) {
		load_tile<<<1, 128>>>(map, out, corners[c][0], corners[c][1]);
		cudaError_t e = cudaDeviceSynchronize();
		float t[TH * TW];
		cudaMemcpy(t, out, sizeof t, cudaMemcpyDeviceToHost);
		int bad = 0;
		for (int y = 0; y < TH; y++)
			for (int x = 0; x < TW; x++) {
				int gx = corners[c][0] + x, gy = corners[c][1] + y;
				float want = gx < W && gy < H ? h[gy * W + gx] : 0.0f;
				bad += t[y * TW + x] != want;
			}
		printf("tile at (%d,%d): %s, first %g, last %g, %d wrong\n", corners[c][0],
		       corners[c][1], cudaGetErrorName(e), t[0], t[TH * TW - 1], bad);
	}
	cudaFree(g);
	cudaFree(out);
	return 0;
}
