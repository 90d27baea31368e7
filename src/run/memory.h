/*
 * memory.h - the modelled address spaces: global allocations, the generic-address windows
 * of shared, local, const and kernel-param memory, and the shared::cluster encoding.
 *   shared::cta address:     byte offset in the executing CTA's shared memory (< 2^24)
 *   shared::cluster address: ((rank + 1) << 24) | offset; an address below 2^24 means the
 *                            executing CTA, so shared::cta addresses are valid cluster ones
 *   generic address:         window base + the space address (global addresses are generic)
 */
#ifndef PTXI_MEMORY_H
#define PTXI_MEMORY_H

#include <stdbool.h>
#include <stdint.h>

#include "launch.h"

#define WIN_SHARED 0x00007e0000000000ull
#define WIN_LOCAL 0x00007d0000000000ull
#define WIN_CONST 0x00007c0000000000ull
#define WIN_PARAM 0x00007b0000000000ull
#define WIN_SIZE 0x0000000100000000ull
#define GLOBAL_BASE 0x0000000700000000ull
#define MAPPED_BASE_ALT 0x0000500000000000ull /* mem_create_mapped where GLOBAL_BASE is taken */
#define CLUSTER_SHIFT 24
#define CTA_SPACE (1u << CLUSTER_SHIFT)

/* A global allocation. Fixed once made, but for `freed`: with --jobs, threads read it while
 * another thread's free() marks it. */
struct region {
	uint64_t base, size;
	uint8_t *data;          /* kept after a free until the memory goes: a copy issued
				 * before, or a thread of another cluster, may still touch it  */
	uint32_t index;         /* in the memory's table (mem_region)                       */
	bool freed;             /* by free(): no access reaches it (atomic)                 */
	char name[40];
};

/* The table of regions, in increasing base order, in chunks that never move: with --jobs,
 * threads look regions up while the device heap (devrt.c, under its lock) adds more. */
#define REGION_CHUNK 1024u
#define REGION_CHUNKS 4096u     /* so at most 4M allocations */

struct memory {
	uint32_t n;     /* regions made (atomic: stored once the region is whole)          */
	uint64_t next;  /* where the next allocation goes (mem_alloc: one caller at a time) */
	uint32_t last;  /* index of the region hit last (a one-entry cache) */
	/* The launch's own allocations (device buffers, CTAs' shared memory and warps, frames,
	 * local memory, mbarrier shadows) are charged here against --max-memory. */
	uint64_t used, peak, limit; /* limit 0: none */
	/* mem_create_mapped: every allocation's bytes are the host's at its device address, as
	 * unified addressing gives (ptxi exec: host code reads managed memory directly) */
	bool mapped;
	uint64_t mapped_base, mapped_end;
	/* Whether an address no allocation holds is the host's own memory (ptxi exec), so that
	 * a report can say a host pointer reached the kernel; NULL: never. */
	bool (*is_host)(uint64_t addr);
	/* Host memory the device reaches at the host's own address, outside the table
	 * (cudaHostRegister, ptxi exec): the region holding [addr, addr+size) that lies
	 * outside mapped_base..mapped_end; NULL: none. Not called when NULL. */
	struct region *(*find_host)(uint64_t addr, uint64_t size);
	/* The grid-sync workspace a cooperative launch gets (%envreg1:%envreg2), made at the
	 * first one and kept, as the driver keeps it for the context (0: none yet). */
	uint64_t grid_ws;
	/* The device heap (malloc/free in kernels, devrt.c), kept with the memory as the
	 * context keeps it: a block malloc'd by one launch is freed by a later one (the CUDA
	 * sample newdelete). heap_free frees it with the memory. */
	void *heap;
	void (*heap_free)(void *heap);
	/* mem_create's memory (ptxi run): the allocations' bytes in one reservation, each at
	 * its address's offset from GLOBAL_BASE, so that a launch does not fault in its buffers
	 * page by page (mem_alloc). resv NULL: none (could not be made, or not yet: resv_tried);
	 * an allocation past its end gets bytes of its own. */
	uint8_t *resv;
	uint64_t resv_size;
	bool resv_tried;
	/* Scratch (mem_scratch): one mapping, kept for the next launch (ptxi exec); the bytes
	 * taken (atomic: --jobs workers take their parts at once), the most any launch took (to
	 * be zeroed when taken again), how much of it asks for huge pages, and the bytes a
	 * thread's part holds (mem_scratch_expect's per thread). */
	uint8_t *scratch;
	uint64_t scratch_size, scratch_used, scratch_dirty, scratch_huge, scratch_part;
	/* Last, so that a launch with few allocations touches one page of this struct. */
	struct region *chunk[REGION_CHUNKS];
};

struct memory *mem_create(void);
/* A memory whose allocations live at their own address in this process: `bytes` of address
 * space at GLOBAL_BASE are reserved (not committed) for them. NULL if that range is taken
 * or cannot be reserved. */
struct memory *mem_create_mapped(uint64_t bytes);
/* Give a freed region's whole pages back to the system (mapped memories; else no-op). */
void mem_region_release(struct memory *m, struct region *r);
void mem_destroy(struct memory *m);
/* Scratch: zeroed bytes of the launch's own state that lives until the launch ends (its
 * frames' registers, the spin watch's saved states), taken in turn from one mapping so that
 * a launch does not fault them in page by page from the heap. Each thread takes its bytes
 * from a part of its own (launch.h's scratch_part, zero before its first): two --jobs
 * workers' frames interleaved in one stretch made both slower (mem_scratch_calloc).
 * mem_scratch_expect, before the launch runs (one thread): map it, with huge pages for the
 * `bytes` each of `threads` threads will take when that is worth it. mem_scratch_calloc:
 * from the thread's part, else (full, none) calloc; mem_scratch_free frees what calloc gave.
 * mem_scratch_reset, once the launch has ended: every byte given back (every part ends). */
void mem_scratch_expect(struct memory *m, uint64_t bytes, unsigned threads);
void *mem_scratch_calloc(struct memory *m, struct scratch_part *part, size_t bytes);
void mem_scratch_free(struct memory *m, void *p);
void mem_scratch_reset(struct memory *m);
/* Charge `bytes` of the launch's own memory: false (nothing charged) when that would pass
 * the limit. mem_release gives bytes back when their owner is freed. */
bool mem_charge(struct memory *m, uint64_t bytes);
void mem_release(struct memory *m, uint64_t bytes);
/* A zero-filled global allocation; returns its address (0: out of memory, or over the
 * limit: then m->used + size > m->limit). One caller at a time; lookups may run meanwhile. */
uint64_t mem_alloc(struct memory *m, uint64_t size, const char *name);
/* Regions made so far, and region i of them. */
static inline uint32_t mem_regions(const struct memory *m)
{
	return __atomic_load_n(&m->n, __ATOMIC_ACQUIRE);
}
static inline struct region *mem_region(const struct memory *m, uint32_t i)
{
	return &m->chunk[i / REGION_CHUNK][i % REGION_CHUNK];
}
/* free() of a heap block: no later lookup finds r (its address stays taken). */
void mem_region_free(struct region *r);
static inline bool mem_region_freed(const struct region *r)
{
	return __atomic_load_n(&r->freed, __ATOMIC_RELAXED);
}
/* "global", "shared::cta", ... */
const char *mem_space_name(enum mspace s);
struct region *mem_find(struct memory *m, uint64_t addr, uint64_t size);

/* Where a lane's access lands: the bytes, and which CTA's shared memory (if shared). */
struct access {
	uint8_t *p;
	struct cta *cta;    /* shared accesses                                                */
	uint32_t off;       /* shared offset                                                  */
	enum mspace space;  /* resolved space (generic addresses are resolved)               */
	struct region *region; /* global accesses: the allocation, and the address in it      */
	uint64_t addr;
	bool async_raced;   /* it broke async-copy-race (a copy in flight or unobserved)      */
};

/* Resolve an access of `size` bytes at `addr` in `space` for `lane` of the current warp:
 * where it lands, and a generic-proxy write noted. Reports a broken rule and returns false
 * if it is out of bounds or misaligned. The checks that need the layers above memory
 * (mbarriers, copies in flight) are access_lane's (access.c), which instructions call. */
bool mem_resolve(struct launch *L, struct warp *w, uint32_t lane, enum mspace space,
		 uint64_t addr, uint32_t size, bool write, struct access *out);
/* A generic address to its space and the address in it (other spaces: unchanged). */
void mem_concrete(enum mspace *space, uint64_t *addr);
/* The alignment rule of an access of `size` bytes (reported when broken). */
bool mem_aligned(struct launch *L, uint32_t lane, enum mspace space, uint64_t addr,
		 uint32_t size);
/* A whole warp's accesses of `size` bytes at shared::cta addresses addr[l] + delta, for the
 * lanes of mask, resolved at once: with each lane's offset in off[l], SHL_FIT when every
 * one lands aligned in c's own shared memory, and SHL_FIT | SHL_CONSEC when besides the
 * lanes are a full warp at consecutive places (off[l] = off[0] + l * size); 0 when some
 * lane needs mem_resolve (which then reports exactly as before). */
enum { SHL_FIT = 1, SHL_CONSEC = 2 };
int mem_shared_lanes(const struct cta *c, const uint64_t *addr, uint64_t delta, uint32_t mask,
		     uint32_t size, uint32_t *off);
/* The same for a warp's accesses of `size` bytes (1, 2, 4 or 8) at .global addresses: true,
 * with each lane's host address in p[l], when every lane of mask lands aligned inside the
 * allocation the first lane's address is in (its writes then marked for the proxy checks as
 * mem_resolve marks them); false when some lane needs mem_resolve, nothing done. */
bool mem_global_lanes(struct launch *L, const uint64_t *addr, uint32_t mask, uint32_t size,
		      bool write, uint8_t **p);
/* Where an asynchronous store will land (st.async, red.async): a shared::cluster or generic
 * address, checked like mem_resolve but without the checks of an ordinary access (mbarrier
 * bytes, copies in flight), which apply when it lands. */
bool mem_locate_shared(struct launch *L, struct warp *w, uint32_t lane, enum mspace space,
		       uint64_t addr, uint32_t size, struct access *out);
/* Which window a generic address falls in (MS_GLOBAL if none). */
enum mspace mem_generic_space(uint64_t addr);
/* Decode a shared::cluster address to (cta, offset). False if not a valid one. */
bool mem_cluster_decode(struct launch *L, struct cta *self, uint64_t addr, struct cta **cta,
			uint32_t *off);

/* A generic-proxy write of [off, off+size) of c's shared memory: ordinary stores, and
 * st.async / red.async when they land (ISA 9.7.9.12: performed in the generic proxy). */
void mem_proxy_mark(struct cta *c, uint32_t off, uint32_t size);
/* The same for the stores of a warp's lanes (mask) of `size` <= 16 bytes at off[l], each
 * aligned to its size when size is a power of two (mem_shared_lanes checked it). */
void mem_proxy_mark_lanes(struct cta *c, const uint32_t *off, uint32_t mask, uint32_t size);
/* mem_proxy_mark_lanes' marks of a whole warp's stores at consecutive places (SHL_CONSEC):
 * the `bytes` bytes from off, marked as one range. */
void mem_proxy_mark_row(struct cta *c, uint32_t off, uint32_t bytes);
/* The bytes of a CTA's proxy map (proxy_dirty: one per 16-byte granule of its shared memory,
 * and one more). */
static inline uint32_t proxy_map_bytes(uint32_t smem_size)
{
	return smem_size / 16 + 1;
}
/* fence.proxy.async by CTA c: its generic writes are now visible to the async proxy. */
void mem_proxy_fence(struct cta *c);
/* Whether [off, off+size) of c's shared memory holds unfenced generic writes. */
bool mem_proxy_dirty(const struct cta *c, uint32_t off, uint32_t size);
/* The same for global memory (L->gproxy: the running cluster's writes):
 * fence.proxy.async{.global} by any thread of the cluster, and the check. */
void mem_proxy_fence_global(struct launch *L);
bool mem_global_proxy_dirty(struct launch *L, const struct region *r, uint64_t addr,
			    uint64_t size);
/* Tensor maps in global memory written in the generic proxy (ordinary stores,
 * tensormap.replace) and the tensormap proxy fences that make them usable by tensor copies:
 * mark, fence [addr, addr+size) (tensormap.cp_fenceproxy) or all (fence.proxy.tensormap::
 * generic), check. */
void mem_tmap_mark(struct launch *L, uint64_t addr, uint64_t size);
void mem_tmap_fence(struct launch *L, uint64_t addr, uint64_t size);
void mem_tmap_fence_all(struct launch *L);
bool mem_tmap_dirty(struct launch *L, uint64_t addr, uint64_t size);
/* Forget the cluster's global proxy maps (end of a cluster: sched_cluster). */
void mem_gproxy_reset(struct launch *L);

/* Charge `bytes` of the launch's own memory; past --max-memory, reports (status 2, naming
 * `what`) and returns false. */
bool launch_charge(struct launch *L, uint64_t bytes, const char *what);

#endif
