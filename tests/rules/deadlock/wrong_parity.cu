// A one-slot producer/consumer pipeline on two mbarriers, 'full' and 'empty', compiled three
// ways (nvcc -arch=sm_90a -ptx -lineinfo -DPRODUCER_PARITY=.. -DCONSUMER_PARITY=..):
//   ok_parity.ptx        the producer waits for 'empty' on parity (i&1)^1 (its first wait, on
//                        parity 1, names the phase before phase 0 and passes at once), the
//                        consumer waits for 'full' on parity i&1
//   producer_parity.ptx  the producer waits on i&1: its first wait, for phase 0 of 'empty',
//                        needs the consumer, which waits for a value never produced
//   consumer_parity.ptx  the consumer waits on (i&1)^1: its first wait passes at once on the
//                        fresh 'full', it reads the slot before it is written, and the pair
//                        then wait on each other
// Each has the same pipeline twice: waiting with try_wait, and with a test_wait spin loop.
#include <cstdint>

__device__ static void try_wait_parity(uint64_t *bar, uint32_t parity)
{
	uint32_t a = (uint32_t)__cvta_generic_to_shared(bar);
	asm volatile("{\n\t.reg .pred p;\n"
		     "WAIT:\n\t"
		     "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n\t"
		     "@!p bra WAIT;\n}" ::"r"(a), "r"(parity) : "memory");
}

__device__ static void test_wait_parity(uint64_t *bar, uint32_t parity)
{
	uint32_t a = (uint32_t)__cvta_generic_to_shared(bar);
	asm volatile("{\n\t.reg .pred p;\n"
		     "WAIT:\n\t"
		     "mbarrier.test_wait.parity.shared::cta.b64 p, [%0], %1;\n\t"
		     "@!p bra WAIT;\n}" ::"r"(a), "r"(parity) : "memory");
}

__device__ static void arrive(uint64_t *bar)
{
	uint32_t a = (uint32_t)__cvta_generic_to_shared(bar);
	asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(a) : "memory");
}

__device__ static void init(uint64_t *bar, uint32_t count)
{
	uint32_t a = (uint32_t)__cvta_generic_to_shared(bar);
	asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(a), "r"(count) : "memory");
}

template <void (*WAIT)(uint64_t *, uint32_t)>
__device__ static void pipeline(int *out, const int *in, int n)
{
	__shared__ alignas(8) uint64_t full, empty;
	__shared__ int slot;
	if (threadIdx.x == 0) {
		init(&full, 1);
		init(&empty, 1);
	}
	__syncthreads();
	if (threadIdx.x == 0) {
		for (int i = 0; i < n; i++) {
			WAIT(&empty, PRODUCER_PARITY);
			slot = in[i];
			arrive(&full);
		}
	} else if (threadIdx.x == 32) {
		for (int i = 0; i < n; i++) {
			WAIT(&full, CONSUMER_PARITY);
			out[i] = slot;
			arrive(&empty);
		}
	}
}

extern "C" __global__ void pipeline_try_wait(int *out, const int *in, int n)
{
	pipeline<try_wait_parity>(out, in, n);
}

extern "C" __global__ void pipeline_test_wait(int *out, const int *in, int n)
{
	pipeline<test_wait_parity>(out, in, n);
}
