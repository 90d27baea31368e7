/*
 * occupancy.h - how many CTAs an sm_90 SM holds at once, by threads and shared memory: what
 * a cooperative launch's grid must fit in (ptxi.c) and what the occupancy queries of the
 * CUDA runtime answer (cudart/rt_launch.c). An H200 (132 SMs, driver 580) gave exactly these
 * for a kernel of 11 registers: registers are not counted (PTX does not say how many the
 * machine code uses), so a kernel that needs many may be allowed more here than on a GPU.
 */
#ifndef PTXI_OCCUPANCY_H
#define PTXI_OCCUPANCY_H

#include <stdint.h>

#define OCC_SMS 132             /* an H100 SXM's SMs (an H200 has as many)                  */
#define OCC_CTAS_PER_SM 32
#define OCC_THREADS_PER_SM 2048
#define OCC_SMEM_PER_SM 233472  /* 228 KiB, of which 1 KiB is reserved for each CTA        */
#define OCC_SMEM_RESERVED 1024

/* CTAs of `threads` threads (warps allocated whole) and `smem` bytes of shared memory
 * (static and dynamic) one SM holds at once. */
static inline uint32_t occ_ctas_per_sm(uint64_t threads, uint64_t smem)
{
	if (!threads)
		return 0;
	uint64_t by_threads = OCC_THREADS_PER_SM / ((threads + 31) / 32 * 32);
	uint64_t by_shared = smem ? OCC_SMEM_PER_SM / (smem + OCC_SMEM_RESERVED) : OCC_CTAS_PER_SM;
	uint64_t n = by_threads < by_shared ? by_threads : by_shared;
	return (uint32_t)(n < OCC_CTAS_PER_SM ? n : OCC_CTAS_PER_SM);
}

#endif
