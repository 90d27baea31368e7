// The question asked of the H200 (2026-11-29, CUDA 13) about the shared-memory special
// registers: thread 0 of each launch writes %reserved_smem_offset_begin/_end/_cap/_0/_1,
// %total_smem_size, %aggr_smem_size, %dynamic_smem_size and the shared-window offsets of a
// static and an .extern __shared__ array (built: nvcc -arch=sm_90 smem_probe.cu). It printed
// (k0 no shared variables, k1 int[10], k2 char[3] + extern align 16, k3 int[10000]):
//   reservedSharedMemPerBlock=1024 sharedMemPerBlock=49152 optin=232448 perSM=233472
//   k0 dyn=0      sharedSizeBytes=0     | begin=0 end=288 cap=1024 off0=0 off1=0 total=0      aggr=1024   dynsz=0      static_at=- extern_at=-
//   k0 dyn=100    sharedSizeBytes=0     | begin=0 end=288 cap=1024 off0=0 off1=0 total=128    aggr=1124   dynsz=100    static_at=- extern_at=-
//   k1 dyn=0      sharedSizeBytes=48    | begin=0 end=288 cap=1024 off0=0 off1=0 total=128    aggr=1072   dynsz=0      static_at=1024 extern_at=-
//   k1 dyn=100    sharedSizeBytes=48    | begin=0 end=288 cap=1024 off0=0 off1=0 total=256    aggr=1172   dynsz=100    static_at=1024 extern_at=-
//   k2 dyn=0      sharedSizeBytes=16    | begin=0 end=288 cap=1024 off0=0 off1=0 total=128    aggr=1040   dynsz=0      static_at=1024 extern_at=1040
//   k2 dyn=100    sharedSizeBytes=16    | begin=0 end=288 cap=1024 off0=0 off1=0 total=128    aggr=1140   dynsz=100    static_at=1024 extern_at=1040
//   k2 dyn=1000   sharedSizeBytes=16    | begin=0 end=288 cap=1024 off0=0 off1=0 total=1024   aggr=2040   dynsz=1000   static_at=1024 extern_at=1040
//   k2 dyn=100000 sharedSizeBytes=16    | begin=0 end=288 cap=1024 off0=0 off1=0 total=100096 aggr=101040 dynsz=100000 static_at=1024 extern_at=1040
//   k3 dyn=0      sharedSizeBytes=40000 | begin=0 end=288 cap=1024 off0=0 off1=0 total=40064  aggr=41024  dynsz=0      static_at=1024 extern_at=-
//   k3 dyn=4      sharedSizeBytes=40000 | begin=0 end=288 cap=1024 off0=0 off1=0 total=40064  aggr=41028  dynsz=4      static_at=1024 extern_at=-
// docs/hardware-vs-manual.md says what ptxi takes from it; tests/regress/reserved-smem.ptx
// checks it. (Two CTAs write the same words: ptxi's race warnings on them are right.)
#include <cstdio>
struct R { unsigned v[10]; };
__device__ void regs(R *o, unsigned s, unsigned d)
{
	unsigned a, b, c, x0, x1, t, g, y;
	asm volatile("mov.u32 %0, %%reserved_smem_offset_begin;" : "=r"(a));
	asm volatile("mov.u32 %0, %%reserved_smem_offset_end;" : "=r"(b));
	asm volatile("mov.u32 %0, %%reserved_smem_offset_cap;" : "=r"(c));
	asm volatile("mov.u32 %0, %%reserved_smem_offset_0;" : "=r"(x0));
	asm volatile("mov.u32 %0, %%reserved_smem_offset_1;" : "=r"(x1));
	asm volatile("mov.u32 %0, %%total_smem_size;" : "=r"(t));
	asm volatile("mov.u32 %0, %%aggr_smem_size;" : "=r"(g));
	asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(y));
	R r = {{a, b, c, x0, x1, t, g, y, s, d}};
	*o = r;
}
__global__ void k0(R *o) { if (threadIdx.x == 0) regs(o, 0xffffffff, 0xffffffff); }
__global__ void k1(R *o)
{
	__shared__ int s[10];
	s[threadIdx.x % 10] = 1;
	if (threadIdx.x == 0) regs(o, (unsigned)__cvta_generic_to_shared(s), 0xffffffff);
}
extern __shared__ __align__(16) char dyn[];
__global__ void k2(R *o)
{
	__shared__ char c[3];
	c[threadIdx.x % 3] = 1;
	dyn[0] = 1;
	if (threadIdx.x == 0)
		regs(o, (unsigned)__cvta_generic_to_shared(c), (unsigned)__cvta_generic_to_shared(dyn));
}
__global__ void k3(R *o)
{
	__shared__ int big[10000];
	big[threadIdx.x] = 1;
	if (threadIdx.x == 0) regs(o, (unsigned)__cvta_generic_to_shared(big), 0xffffffff);
}
template <class K> void run(const char *n, K k, int dynb)
{
	R *d, h;
	cudaMalloc(&d, sizeof h);
	cudaMemset(d, 0xee, sizeof h);
	if (dynb > 48 * 1024) cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, dynb);
	k<<<2, 32, dynb>>>(d);
	cudaError_t e = cudaDeviceSynchronize();
	cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
	cudaFuncAttributes fa;
	cudaFuncGetAttributes(&fa, k);
	printf("%s dyn=%d err=%s sharedSizeBytes=%zu | begin=%u end=%u cap=%u off0=%u off1=%u total=%u aggr=%u dynsz=%u static_at=%u extern_at=%u\n",
	       n, dynb, cudaGetErrorName(e), fa.sharedSizeBytes, h.v[0], h.v[1], h.v[2], h.v[3], h.v[4], h.v[5], h.v[6], h.v[7], h.v[8], h.v[9]);
	cudaFree(d);
}
int main()
{
	int v;
	cudaDeviceGetAttribute(&v, cudaDevAttrReservedSharedMemoryPerBlock, 0); printf("reservedSharedMemPerBlock=%d\n", v);
	cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlock, 0); printf("sharedMemPerBlock=%d\n", v);
	cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0); printf("optin=%d\n", v);
	cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerMultiprocessor, 0); printf("perSM=%d\n", v);
	run("k0", k0, 0);
	run("k0", k0, 100);
	run("k1", k1, 0);
	run("k1", k1, 100);
	run("k2", k2, 0);
	run("k2", k2, 100);
	run("k2", k2, 1000);
	run("k2", k2, 100000);
	run("k3", k3, 0);
	run("k3", k3, 4);
	return 0;
}
