// A deadlock: an mbarrier initialised for two arrivals gets one, and every thread waits for
// the phase to complete. On a GPU the program hangs; ptxi reports where each thread waits,
// and the synchronisation returns an error instead.
#include <cstdio>

__global__ void stuck()
{
	__shared__ alignas(8) unsigned long long bar;
	unsigned b = (unsigned)__cvta_generic_to_shared(&bar);
	if (threadIdx.x == 0)
		asm volatile("mbarrier.init.shared::cta.b64 [%0], 2;" ::"r"(b));
	__syncthreads();
	if (threadIdx.x == 0)
		asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(b));
	asm volatile("{\n.reg .pred p;\nWAIT%=:\n"
		     "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0;\n"
		     "@!p bra WAIT%=;\n}" ::"r"(b) : "memory");
}

int main()
{
	stuck<<<1, 32>>>();
	cudaError_t e = cudaDeviceSynchronize();
	printf("sync: %s\n", cudaGetErrorName(e));
	return 0;
}
