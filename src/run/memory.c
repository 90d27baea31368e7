/*
 * memory.c - global allocations and the resolution of every lane's memory access: generic
 * windows, shared::cta / shared::cluster decoding, local and param frames, bounds and
 * alignment checks, and the proxy maps of generic writes. Memory is the bottom layer: the
 * checks that need mbarriers, asynchronous copies or wgmma are made above it (access.c).
 */
#include "memory.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#endif

#include "initcheck.h"
#include "report/rules.h"
#include "support/pages.h"

/* The struct is mapped rather than calloc'd: its table of chunk pointers is 32 KiB, of which
 * a launch uses the first entries, and calloc would zero (fault in) every page of it. */
struct memory *mem_create(void)
{
	void *p = mmap(NULL, sizeof(struct memory), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	struct memory *m = p; /* zero bytes: every field's starting value */
	m->next = GLOBAL_BASE;
	return m;
}

#define CHUNK_BYTES (REGION_CHUNK * sizeof(struct region))

static void memory_unmap(struct memory *m)
{
	munmap(m, sizeof *m);
}

struct memory *mem_create_mapped(uint64_t bytes)
{
	struct memory *m = mem_create();
	if (!m)
		return NULL;
	/* GLOBAL_BASE, where `ptxi run` puts its buffers; else (AddressSanitizer keeps that
	 * range for itself) MAPPED_BASE_ALT, free in ordinary, ASan and TSan processes alike.
	 * PROT_NONE reserves without committing; allocations are opened as they are made. */
	static const uint64_t bases[] = {GLOBAL_BASE, MAPPED_BASE_ALT};
	for (unsigned i = 0; i < 2 && !m->mapped; i++) {
		void *p = mmap((void *)bases[i], bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS |
			       MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
		if (p != MAP_FAILED && p != (void *)bases[i])
			munmap(p, bytes); /* a kernel that took the address as a hint only */
		else if (p != MAP_FAILED)
			m->mapped = true, m->mapped_base = bases[i];
	}
	if (!m->mapped) {
		memory_unmap(m);
		return NULL;
	}
	m->next = m->mapped_base;
	m->mapped_end = m->mapped_base + bytes;
	return m;
}

/* The reservation of mem_create's memory. A first touch of a page costs a fault (about 15 us
 * on the development VM: a launch's 128 KiB buffer took half a millisecond in faults);
 * in a transparent huge page a first touch brings 2 MiB at once (0.13 ms there). The
 * reservation is address space only (MAP_NORESERVE): a page is committed when first
 * touched, zero-filled as calloc's bytes are. It holds the address range of --max-memory
 * and half as much again for the gaps between allocations (RESV_MAX without a limit). */
#define HUGE_PAGE ((uint64_t)PAGES_HUGE)
#define RESV_MAX (64ull << 30)
/* An allocation of at least this many bytes asks for huge pages for the 2 MiB ranges it
 * touches: 16 small pages' faults cost more than one huge page's on the development VM,
 * while on bare metal (a fault ~0.5 us, zeroing 2 MiB ~70 us) a buffer of 64 KiB pays at
 * most ~50 us more. Smaller ones (a scalar result, a counter) keep small pages, so a small
 * launch does not zero 2 MiB. */
#define HUGE_MIN (64ull << 10)

static uint64_t page_size(void)
{
	return (uint64_t)sysconf(_SC_PAGESIZE);
}

/* The bytes of a new region of a mapped memory: its own address, opened for access. */
static uint8_t *mapped_data(struct memory *m, uint64_t base, uint64_t size)
{
	uint64_t pg = page_size(), lo = base & ~(pg - 1), hi = (base + size + pg - 1) & ~(pg - 1);
	if (hi > m->mapped_end || (hi > lo && mprotect((void *)lo, hi - lo, PROT_READ | PROT_WRITE)))
		return NULL;
	/* huge pages where one fits: only a 2 MiB range wholly opened can hold one (the rest
	 * of the reservation stays PROT_NONE, so that a stray host pointer faults) */
	if (size >= HUGE_PAGE)
		pages_advise_huge((void *)lo, hi - lo);
	return (uint8_t *)base;
}


static void reserve(struct memory *m)
{
	m->resv_tried = true;
	uint64_t want = m->limit && m->limit < RESV_MAX ? m->limit + m->limit / 2 : RESV_MAX;
	want = (want + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	uint8_t *a = pages_map(want, HUGE_PAGE, true);
	if (!a)
		return; /* (a limit on address space: each allocation gets bytes of its own) */
	m->resv = a;
	m->resv_size = want;
}

/* The bytes of a new region of mem_create's memory in the reservation; NULL when it lies
 * past the reservation's end. AddressSanitizer is told of the gap after it, as a calloc'd
 * region's end would be known to it. */
static uint8_t *reserved_data(struct memory *m, uint64_t base, uint64_t size, uint64_t next)
{
	if (!m->resv_tried)
		reserve(m);
	uint64_t off = base - GLOBAL_BASE;
	if (!m->resv || off > m->resv_size || size > m->resv_size - off)
		return NULL;
	if (size >= HUGE_MIN) {
		uint64_t lo = off & ~(HUGE_PAGE - 1), hi = (off + size + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
		/* advice only: where transparent huge pages are off, small pages as before */
		pages_advise_huge(m->resv + lo,
				  (size_t)(hi < m->resv_size ? hi - lo : m->resv_size - lo));
	}
#if defined(__SANITIZE_ADDRESS__)
	uint64_t gap_end = next - GLOBAL_BASE < m->resv_size ? next - GLOBAL_BASE : m->resv_size;
	ASAN_POISON_MEMORY_REGION(m->resv + off + size, (size_t)(gap_end - off - size));
#else
	(void)next;
#endif
	return m->resv + off;
}

static bool in_reservation(const struct memory *m, const uint8_t *p)
{
	return m->resv && p >= m->resv && p < m->resv + m->resv_size;
}

/* Scratch is address space reserved up to SCRATCH_MAX, committed as taken. */
#define SCRATCH_MAX (256ull << 20)

/* A thread's part holds what it is expected to take, at least this much. */
#define SCRATCH_PART_MIN (64ull << 10)

void mem_scratch_expect(struct memory *m, uint64_t bytes, unsigned threads)
{
	if (!m->scratch) {
		uint8_t *a = pages_map(SCRATCH_MAX, HUGE_PAGE, true);
		if (!a)
			return; /* every taker gets calloc's bytes */
		m->scratch = a;
		m->scratch_size = SCRATCH_MAX;
	}
	uint64_t part = (bytes + SCRATCH_PART_MIN - 1) & ~(SCRATCH_PART_MIN - 1);
	m->scratch_part = part ? part : SCRATCH_PART_MIN;
	uint64_t all = m->scratch_part * (threads ? threads : 1);
	/* as for global allocations (HUGE_MIN): small launches keep small pages */
	if (all >= HUGE_MIN && all <= m->scratch_size && all > m->scratch_huge) {
		uint64_t hi = (all + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
		pages_advise_huge(m->scratch + m->scratch_huge, (size_t)(hi - m->scratch_huge));
		m->scratch_huge = hi;
	}
}

/* A thread takes its bytes from a part of the scratch of its own, not in turn with the other
 * threads from one stretch: with --jobs 2, the two workers' frames (registers, parameters)
 * taken in turn lay interleaved, each allocation on cache lines of its own, and yet
 * reduce_smem took 1.6x the time two processes took for the same clusters; given a part
 * each (contiguous, one beside the other), the workers ran as fast as the two processes
 * (bench/README.md, issue 25). Interleaved 4 KiB pages apart it was as slow, so the cost is
 * not a shared cache line's: what matters is that each worker's state is one stretch. */
void *mem_scratch_calloc(struct memory *m, struct scratch_part *part, size_t bytes)
{
	uint64_t n = ((uint64_t)bytes + 63) & ~(uint64_t)63; /* each its own cache lines */
	if (m->scratch && n && n > part->end - part->at) { /* a new part */
		uint64_t want = n > m->scratch_part ? n : m->scratch_part;
		uint64_t at = __atomic_fetch_add(&m->scratch_used, want, __ATOMIC_RELAXED);
		*part = (struct scratch_part){0, 0};
		if (at <= m->scratch_size && want <= m->scratch_size - at)
			*part = (struct scratch_part){at, at + want};
	}
	if (m->scratch && n && n <= part->end - part->at) {
		uint64_t at = part->at;
		part->at += n;
		/* bytes an earlier launch wrote are zeroed again; fresh ones are zero */
		if (at < m->scratch_dirty)
			memset(m->scratch + at, 0,
			       (size_t)(m->scratch_dirty - at < n ? m->scratch_dirty - at : n));
		return m->scratch + at;
	}
	return calloc(1, bytes ? bytes : 1);
}

void mem_scratch_free(struct memory *m, void *p)
{
	uint8_t *b = p;
	if (!m->scratch || b < m->scratch || b >= m->scratch + m->scratch_size)
		free(p);
}

void mem_scratch_reset(struct memory *m)
{
	uint64_t used = m->scratch_used < m->scratch_size ? m->scratch_used : m->scratch_size;
	if (used > m->scratch_dirty)
		m->scratch_dirty = used;
	m->scratch_used = 0;
}

void mem_region_release(struct memory *m, struct region *r)
{
	uint64_t pg = page_size(), lo = (r->base + pg - 1) & ~(pg - 1),
		 hi = (r->base + r->size) & ~(pg - 1);
	if (m->mapped && hi > lo)
		madvise((void *)lo, hi - lo, MADV_DONTNEED); /* zero pages when used again */
}

void mem_destroy(struct memory *m)
{
	if (!m)
		return;
	if (m->heap_free)
		m->heap_free(m->heap);
	if (m->mapped)
		munmap((void *)m->mapped_base, m->mapped_end - m->mapped_base);
	for (uint32_t i = 0; i < m->n && !m->mapped; i++)
		if (!in_reservation(m, mem_region(m, i)->data))
			free(mem_region(m, i)->data);
	if (m->resv) {
#if defined(__SANITIZE_ADDRESS__)
		/* the gaps' poison would outlive the mapping, on what takes its place */
		uint64_t used = m->next - GLOBAL_BASE;
		ASAN_UNPOISON_MEMORY_REGION(m->resv, used < m->resv_size ? used : m->resv_size);
#endif
		munmap(m->resv, m->resv_size);
	}
	if (m->scratch)
		munmap(m->scratch, m->scratch_size);
	for (uint32_t c = 0; c < REGION_CHUNKS && m->chunk[c]; c++)
		munmap(m->chunk[c], CHUNK_BYTES);
	memory_unmap(m);
}

void mem_region_free(struct region *r)
{
	__atomic_store_n(&r->freed, true, __ATOMIC_RELAXED);
}

/* Atomic: with --jobs, clusters on several threads charge the one launch. */
bool mem_charge(struct memory *m, uint64_t bytes)
{
	uint64_t used = __atomic_load_n(&m->used, __ATOMIC_RELAXED), now;
	do {
		if (m->limit && (bytes > m->limit || used > m->limit - bytes))
			return false;
		now = used + bytes;
	} while (!__atomic_compare_exchange_n(&m->used, &used, now, true, __ATOMIC_RELAXED,
					      __ATOMIC_RELAXED));
	uint64_t peak = __atomic_load_n(&m->peak, __ATOMIC_RELAXED);
	while (now > peak && !__atomic_compare_exchange_n(&m->peak, &peak, now, true,
							  __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
	return true;
}

void mem_release(struct memory *m, uint64_t bytes)
{
	uint64_t used = __atomic_load_n(&m->used, __ATOMIC_RELAXED);
	while (!__atomic_compare_exchange_n(&m->used, &used, bytes > used ? 0 : used - bytes, true,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

uint64_t mem_alloc(struct memory *m, uint64_t size, const char *name)
{
	uint32_t i = m->n, c = i / REGION_CHUNK;
	if (c == REGION_CHUNKS || !mem_charge(m, size))
		return 0;
	if (!m->chunk[c]) {
		/* mapped, as the struct is: calloc would fault in all of its 72 KiB at once */
		void *p = mmap(NULL, CHUNK_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			       -1, 0);
		if (p == MAP_FAILED) {
			mem_release(m, size);
			return 0;
		}
		m->chunk[c] = p;
	}
	struct region *r = mem_region(m, i);
	*r = (struct region){.base = m->next, .size = size, .index = i};
	/* A gap after each allocation, so running off its end is an error, not a neighbour. */
	uint64_t next = m->next + ((size + 4096 + 255) & ~(uint64_t)255);
	if (m->mapped)
		r->data = mapped_data(m, r->base, size);
	else if (!(r->data = reserved_data(m, r->base, size, next)))
		r->data = calloc(1, size ? size : 1);
	if (!r->data) {
		mem_release(m, size);
		return 0;
	}
	snprintf(r->name, sizeof r->name, "%s", name);
	__atomic_store_n(&m->n, i + 1, __ATOMIC_RELEASE); /* now lookups may find it */
	m->next = next;
	return r->base;
}

struct region *mem_find(struct memory *m, uint64_t addr, uint64_t size)
{
	if (m->find_host && (addr < m->mapped_base || addr >= m->mapped_end))
		return m->find_host(addr, size);
	uint32_t n = mem_regions(m);
	if (n == 0)
		return NULL;
	/* the cache is shared by --jobs threads: an index of a region this thread may not
	 * see yet (another's malloc) is passed over */
	uint32_t last = __atomic_load_n(&m->last, __ATOMIC_RELAXED);
	struct region *r = last < n ? mem_region(m, last) : NULL;
	if (r && addr >= r->base && addr - r->base + size <= r->size && !mem_region_freed(r))
		return r;
	uint32_t lo = 0, hi = n; /* regions are in increasing base order */
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		if (mem_region(m, mid)->base <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	r = mem_region(m, lo - 1);
	if (addr - r->base + size > r->size || addr - r->base >= r->size || mem_region_freed(r))
		return NULL;
	__atomic_store_n(&m->last, lo - 1, __ATOMIC_RELAXED);
	return r;
}

enum mspace mem_generic_space(uint64_t addr)
{
	if (addr - WIN_SHARED < WIN_SIZE)
		return MS_SHARED_CLUSTER;
	if (addr - WIN_LOCAL < WIN_SIZE)
		return MS_LOCAL;
	if (addr - WIN_CONST < WIN_SIZE)
		return MS_CONST;
	if (addr - WIN_PARAM < WIN_SIZE)
		return MS_PARAM_KERNEL;
	return MS_GLOBAL;
}

bool mem_cluster_decode(struct launch *L, struct cta *self, uint64_t addr, struct cta **cta,
			uint32_t *off)
{
	addr &= 0xffffffffu;
	if (addr < CTA_SPACE) {
		*cta = self;
		*off = (uint32_t)addr;
		return true;
	}
	uint32_t rank = (uint32_t)(addr >> CLUSTER_SHIFT) - 1;
	struct cluster *cl = self->cluster;
	if (rank >= cl->nctas)
		return false;
	*cta = &cl->ctas[rank];
	*off = (uint32_t)addr & (CTA_SPACE - 1);
	return true;
}

const char *mem_space_name(enum mspace s)
{
	static const char *names[] = {"none", "generic", "global", "shared::cta", "shared::cluster",
				      "local", "param", "param", "const"};
	return names[s];
}

static bool out_of_bounds(struct launch *L, uint32_t lane, enum mspace s, uint64_t addr,
			  uint32_t size, const char *why)
{
	rule_break(L, RULE_MEM_OUT_OF_BOUNDS, 1u << lane,
		   "%u-byte access at %s address 0x%llx is outside %s", size, mem_space_name(s),
		   (unsigned long long)addr, why);
	return false;
}

/* Where a global access that hit no allocation lies, as compute-sanitizer says it: against
 * the nearest allocation ("it ends 4 bytes past the end of the 4096-byte buffer of
 * argument 1 at 0x700000000"). */
static void nearest_allocation(const struct memory *m, uint64_t addr, uint32_t size,
			       struct strbuf *b)
{
	if (m->is_host && (addr < m->mapped_base || addr >= m->mapped_end) && m->is_host(addr)) {
		/* an access over the edge of a cudaHostRegister'd range: one that begins in it or
		 * right after it, or ends in it or right before it */
		const struct region *r = NULL;
		if (m->find_host && !(r = m->find_host(addr, 1)) && addr > 0)
			r = m->find_host(addr - 1, 1);
		if (r)
			sb_printf(b, "it ends %llu bytes past the end of the %llu bytes of %s at 0x%llx",
				  (unsigned long long)(addr + size - (r->base + r->size)),
				  (unsigned long long)r->size, r->name, (unsigned long long)r->base);
		else if (m->find_host && (r = m->find_host(addr + size, 1)))
			sb_printf(b, "it starts %llu bytes before the %llu bytes of %s at 0x%llx",
				  (unsigned long long)(r->base - addr), (unsigned long long)r->size,
				  r->name, (unsigned long long)r->base);
		else
			sb_printf(b, "it is a host pointer: the program's own memory, which no "
				  "cudaMalloc, cudaMallocManaged, cudaMallocHost or cudaHostRegister "
				  "made, and the GPU cannot reach");
		return;
	}
	const struct region *best = NULL;
	uint64_t best_d = UINT64_MAX;
	for (uint32_t i = 0, n = mem_regions(m); i < n; i++) {
		const struct region *r = mem_region(m, i);
		uint64_t end = r->base + (mem_region_freed(r) ? 0 : r->size);
		uint64_t d = addr < r->base ? r->base - addr : addr + size > end ? addr + size - end : 0;
		if (d < best_d) {
			best = r;
			best_d = d;
		}
	}
	if (!best) {
		sb_printf(b, "the launch has no global allocation");
	} else if (mem_region_freed(best)) {
		sb_printf(b, "it is %llu bytes into a freed %s (used after free)",
			  (unsigned long long)(addr - best->base), best->name);
	} else if (addr < best->base) {
		sb_printf(b, "it starts %llu bytes before the %llu-byte %s at 0x%llx",
			  (unsigned long long)(best->base - addr), (unsigned long long)best->size,
			  best->name, (unsigned long long)best->base);
	} else {
		uint64_t end = best->base + best->size;
		sb_printf(b, "it ends %llu bytes past the end of the %llu-byte %s at 0x%llx",
			  (unsigned long long)(addr + size - end), (unsigned long long)best->size,
			  best->name, (unsigned long long)best->base);
	}
}

/* Generic-proxy writes, remembered per 16-byte granule until a fence.proxy.async, so a
 * bulk copy that reads them unfenced is caught (ISA 9.7.9.25.2). A map is allocated on the
 * first write to its memory; `bytes` is the memory's size. */
static void dirty_mark(uint8_t **map, uint64_t bytes, uint64_t off, uint64_t size)
{
	if (!map || (!*map && !(*map = calloc(bytes / 16 + 1, 1))))
		return;
	for (uint64_t g = off / 16; g <= (off + size - 1) / 16; g++)
		(*map)[g] = 1;
}

static bool dirty_any(const uint8_t *map, uint64_t off, uint64_t size)
{
	if (!map || !size)
		return false;
	for (uint64_t g = off / 16; g <= (off + size - 1) / 16; g++)
		if (map[g])
			return true;
	return false;
}

void mem_proxy_mark(struct cta *c, uint32_t off, uint32_t size)
{
	dirty_mark(&c->proxy_dirty, c->smem_size, off, size);
	init_mark(c, off, size);
}

/* After a warp's stores: whether every granule of c's shared memory is marked now is looked
 * at 1, 2, 4, ... stores apart; then the marks of a warp's stores are skipped (they would
 * set what is set) until a fence.proxy.async clears the map. */
static void look_all_dirty(struct cta *c)
{
	if (!look_due(&c->proxy_look))
		return;
	/* (memchr: the map's bytes a vector at a time) */
	c->proxy_all = !memchr(c->proxy_dirty, 0, (c->smem_size - 1) / 16 + 1);
}

void mem_proxy_mark_lanes(struct cta *c, const uint32_t *off, uint32_t mask, uint32_t size)
{
	init_mark_lanes(c, off, mask, size);
	if (c->proxy_all)
		return;
	if (!c->proxy_dirty && !(c->proxy_dirty = calloc(proxy_map_bytes(c->smem_size), 1)))
		return;
	if (size <= 16 && !(size & (size - 1))) {
		/* mem_shared_lanes found every offset aligned: one 16-byte granule a lane */
		for (uint32_t m = mask; m; m &= m - 1)
			c->proxy_dirty[off[__builtin_ctz(m)] / 16] = 1;
	} else {
		for (uint32_t m = mask; m; m &= m - 1) {
			uint32_t l = (uint32_t)__builtin_ctz(m);
			c->proxy_dirty[off[l] / 16] = 1;
			c->proxy_dirty[(off[l] + size - 1) / 16] = 1;
		}
	}
	look_all_dirty(c);
}

void mem_proxy_mark_row(struct cta *c, uint32_t off, uint32_t bytes)
{
	init_mark(c, off, bytes); /* (whole bytes of the initcheck map at once) */
	if (c->proxy_all)
		return;
	if (!c->proxy_dirty && !(c->proxy_dirty = calloc(proxy_map_bytes(c->smem_size), 1)))
		return;
	memset(c->proxy_dirty + off / 16, 1, (off + bytes - 1) / 16 - off / 16 + 1);
	look_all_dirty(c);
}

void mem_proxy_fence(struct cta *c)
{
	if (c->proxy_dirty)
		memset(c->proxy_dirty, 0, proxy_map_bytes(c->smem_size));
	c->proxy_all = false;
}

bool mem_proxy_dirty(const struct cta *c, uint32_t off, uint32_t size)
{
	return dirty_any(c->proxy_dirty, off, size);
}

/* The slot of region r's map in `maps` (L->gproxy.async or .tmap), room made for every
 * region of the memory; NULL when there is no memory for it (the write goes unmarked). */
static uint8_t **gproxy_map(struct launch *L, uint8_t ***maps, const struct region *r)
{
	struct gproxy *g = &L->gproxy;
	uint32_t i = r->index;
	if (i >= g->n) {
		uint32_t n = mem_regions(L->mem);
		uint8_t **a = realloc(g->async, n * sizeof *a);
		if (a)
			g->async = a;
		uint8_t **t = a ? realloc(g->tmap, n * sizeof *t) : NULL;
		if (!t)
			return NULL;
		g->tmap = t;
		memset(a + g->n, 0, (n - g->n) * sizeof *a);
		memset(t + g->n, 0, (n - g->n) * sizeof *t);
		g->n = n;
	}
	return &(*maps)[i];
}

/* The map of region r in `maps`, NULL when it has none (nothing written). */
static const uint8_t *gproxy_find(const struct launch *L, uint8_t **maps, const struct region *r)
{
	return r->index < L->gproxy.n ? maps[r->index] : NULL;
}

static void gproxy_clear(struct launch *L, uint8_t **maps)
{
	for (uint32_t i = 0; i < L->gproxy.n; i++)
		if (maps[i])
			memset(maps[i], 0, mem_region(L->mem, i)->size / 16 + 1);
}

void mem_proxy_fence_global(struct launch *L)
{
	gproxy_clear(L, L->gproxy.async);
}

bool mem_global_proxy_dirty(struct launch *L, const struct region *r, uint64_t addr,
			    uint64_t size)
{
	return dirty_any(gproxy_find(L, L->gproxy.async, r), addr - r->base, size);
}

/* Tensor maps in global memory: 16-byte granules written in the generic proxy (ordinary
 * stores, tensormap.replace) since the last fence.proxy.tensormap::generic (rule
 * tensormap-proxy-fence). Kept only for programs with tensor copies. */
void mem_tmap_mark(struct launch *L, uint64_t addr, uint64_t size)
{
	struct region *r = mem_find(L->mem, addr, size);
	if (r)
		dirty_mark(gproxy_map(L, &L->gproxy.tmap, r), r->size, addr - r->base, size);
}

void mem_tmap_fence(struct launch *L, uint64_t addr, uint64_t size)
{
	struct region *r = mem_find(L->mem, addr, size);
	uint8_t *map = r ? (uint8_t *)gproxy_find(L, L->gproxy.tmap, r) : NULL;
	if (map)
		for (uint64_t g = (addr - r->base) / 16; g <= (addr - r->base + size - 1) / 16; g++)
			map[g] = 0;
}

void mem_tmap_fence_all(struct launch *L)
{
	gproxy_clear(L, L->gproxy.tmap);
}

bool mem_tmap_dirty(struct launch *L, uint64_t addr, uint64_t size)
{
	struct region *r = mem_find(L->mem, addr, size);
	return r && dirty_any(gproxy_find(L, L->gproxy.tmap, r), addr - r->base, size);
}

void mem_gproxy_reset(struct launch *L)
{
	for (uint32_t i = 0; i < L->gproxy.n; i++) {
		free(L->gproxy.async[i]);
		free(L->gproxy.tmap[i]);
	}
	free(L->gproxy.async);
	free(L->gproxy.tmap);
	L->gproxy = (struct gproxy){0};
}

/* Which CTA's shared memory an access lands in, and where: bounds, and a peer that still
 * runs. */
static bool shared_locate(struct launch *L, struct warp *w, uint32_t lane, enum mspace space,
			  uint64_t addr, uint32_t size, struct access *out)
{
	struct cta *c;
	uint32_t off;
	if (space == MS_SHARED_CTA && (addr & 0xffffffffu) >= CTA_SPACE) {
		if (!mem_cluster_decode(L, w->cta, addr, &c, &off) || c != w->cta)
			return out_of_bounds(L, lane, space, addr, size,
					     "the executing CTA's shared memory");
	} else if (!mem_cluster_decode(L, w->cta, addr, &c, &off)) {
		return out_of_bounds(L, lane, space, addr, size, "the cluster's shared memory");
	}
	if ((uint64_t)off + size > c->smem_size) {
		char why[96];
		snprintf(why, sizeof why, "the %u bytes of shared memory of CTA rank %u",
			 c->smem_size, c->rank);
		return out_of_bounds(L, lane, space, addr, size, why);
	}
	if (c != w->cta && c->exited) {
		rule_break(L, RULE_PEER_EXITED, 1u << lane,
			   "access to the shared memory of CTA rank %u, which has exited", c->rank);
		return false;
	}
	out->p = c->smem + off;
	out->cta = c;
	out->off = off;
	out->space = c == w->cta ? MS_SHARED_CTA : MS_SHARED_CLUSTER;
	return true;
}

bool mem_aligned(struct launch *L, uint32_t lane, enum mspace space, uint64_t addr,
		 uint32_t size)
{
	if (size > 1 && (addr & (size - 1)) && size <= 16) {
		rule_break(L, RULE_MEM_MISALIGNED, 1u << lane,
			   "%u-byte access at %s address 0x%llx is not %u-byte aligned", size,
			   mem_space_name(space), (unsigned long long)addr, size);
		return false;
	}
	return true;
}

bool mem_locate_shared(struct launch *L, struct warp *w, uint32_t lane, enum mspace space,
		       uint64_t addr, uint32_t size, struct access *out)
{
	if (space == MS_GENERIC) {
		if (mem_generic_space(addr) != MS_SHARED_CLUSTER)
			return out_of_bounds(L, lane, space, addr, size, "the shared window");
		addr -= WIN_SHARED;
		space = MS_SHARED_CLUSTER;
	}
	if (space != MS_SHARED_CTA && space != MS_SHARED_CLUSTER) /* a variable of another space */
		return out_of_bounds(L, lane, space, addr, size, "shared memory");
	return mem_aligned(L, lane, space, addr, size) &&
	       shared_locate(L, w, lane, space, addr, size, out);
}

void mem_concrete(enum mspace *space, uint64_t *addr)
{
	if (*space != MS_GENERIC)
		return;
	*space = mem_generic_space(*addr);
	if (*space != MS_GLOBAL)
		*addr -= *space == MS_SHARED_CLUSTER ? WIN_SHARED
			 : *space == MS_LOCAL	     ? WIN_LOCAL
			 : *space == MS_CONST	     ? WIN_CONST
						     : WIN_PARAM;
}

static bool global_resolve(struct launch *L, uint32_t lane, uint64_t addr, uint32_t size,
			   bool write, struct access *out)
{
	struct region *r = mem_find(L->mem, addr, size);
	if (!r) {
		struct strbuf why = {0};
		sb_printf(&why, "every allocation: ");
		nearest_allocation(L->mem, addr, size, &why);
		out_of_bounds(L, lane, MS_GLOBAL, addr, size, why.s ? why.s : "every allocation");
		sb_free(&why);
		return false;
	}
	out->p = r->data + (addr - r->base);
	out->region = r;
	out->addr = addr;
	if (write && L->P->async_reads_global)
		dirty_mark(gproxy_map(L, &L->gproxy.async, r), r->size, addr - r->base, size);
	if (write && L->P->tensor_copies)
		dirty_mark(gproxy_map(L, &L->gproxy.tmap, r), r->size, addr - r->base, size);
	return true;
}

bool mem_resolve(struct launch *L, struct warp *w, uint32_t lane, enum mspace space,
		 uint64_t addr, uint32_t size, bool write, struct access *out)
{
	out->cta = NULL;
	out->async_raced = false;
	mem_concrete(&space, &addr);
	if (!mem_aligned(L, lane, space, addr, size))
		return false;
	out->space = space;
	switch (space) {
	case MS_GLOBAL:
		return global_resolve(L, lane, addr, size, write, out);
	case MS_SHARED_CTA:
	case MS_SHARED_CLUSTER:
		if (!shared_locate(L, w, lane, space, addr, size, out))
			return false;
		if (write)
			mem_proxy_mark(out->cta, out->off, size);
		return true;
	case MS_LOCAL:
		if (addr + size > w->local_stride || addr >= w->local_stride)
			return out_of_bounds(L, lane, space, addr, size, "the thread's local memory");
		out->p = w->local + (size_t)lane * w->local_stride + addr;
		return true;
	case MS_PARAM_KERNEL:
		if (write)
			return out_of_bounds(L, lane, space, addr, size, "writable memory (kernel "
					     "parameters are read-only)");
		if (addr + size > L->kparam_size || addr >= L->kparam_size)
			return out_of_bounds(L, lane, space, addr, size, "the kernel parameters");
		out->p = L->kparams + addr;
		return true;
	case MS_CONST:
		if (write || addr + size > L->P->const_size || addr >= L->P->const_size)
			return out_of_bounds(L, lane, space, addr, size,
					     write ? "writable memory" : "the .const bank");
		out->p = L->const_bank + addr;
		return true;
	default:
		return out_of_bounds(L, lane, space, addr, size, "any state space");
	}
}

/* The launch's own memory (interpreter state) against --max-memory. */
bool launch_charge(struct launch *L, uint64_t bytes, const char *what)
{
	if (mem_charge(L->mem, bytes))
		return true;
	if (L->stop) /* reported already (the lanes after the first that failed, ...) */
		return false;
	runtime_error(L, PTXI_INVALID, "%s needs %llu more bytes, past --max-memory %llu (the "
		      "launch holds %llu)", what, (unsigned long long)bytes,
		      (unsigned long long)L->mem->limit, (unsigned long long)L->mem->used);
	return false;
}

/* Whether the lanes of mask of addr land aligned inside [base, base + last + size): each
 * lane's host address (data + its offset) in p[l]. A whole warp is one plain loop, built for
 * AVX2 too where the compiler can (the clones of mem_shared_lanes, below). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && \
	!defined(__SANITIZE_THREAD__)
__attribute__((target_clones("arch=x86-64-v3", "default")))
#endif
static bool lanes_inside(const uint64_t *addr, uint32_t mask, uint32_t size, uint64_t base,
			 uint64_t last, uint8_t *data, uint8_t **p)
{
	uint64_t bad = 0;
	if (mask == FULL_MASK) {
		for (uint32_t l = 0; l < LANES; l++) {
			uint64_t o = addr[l] - base;
			bad |= (addr[l] & (size - 1)) | (uint64_t)-(uint64_t)(o > last);
			p[l] = data + o;
		}
		return !bad;
	}
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		uint64_t o = addr[l] - base; /* below base wraps to far above last */
		bad |= (addr[l] & (size - 1)) | (uint64_t)-(uint64_t)(o > last);
		p[l] = data + o;
	}
	return !bad;
}

bool mem_global_lanes(struct launch *L, const uint64_t *addr, uint32_t mask, uint32_t size,
		      bool write, uint8_t **p)
{
	struct region *r = mem_find(L->mem, addr[__builtin_ctz(mask)], size);
	if (!r)
		return false;
	uint64_t base = r->base, last = r->size - size; /* mem_find: size <= r->size */
	if (!lanes_inside(addr, mask, size, base, last, r->data, p))
		return false;
	for (uint32_t m = mask; write && m && (L->P->async_reads_global || L->P->tensor_copies);
	     m &= m - 1) {
		uint64_t o = addr[__builtin_ctz(m)] - base;
		if (L->P->async_reads_global)
			dirty_mark(gproxy_map(L, &L->gproxy.async, r), r->size, o, size);
		if (L->P->tensor_copies)
			dirty_mark(gproxy_map(L, &L->gproxy.tmap, r), r->size, o, size);
	}
	return true;
}

/* Built for AVX2 too where the compiler can (chosen at load, as the ALU's lane loops): the
 * 32 lanes then take four vector steps. Not under ThreadSanitizer: the choosers run before
 * its runtime. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && \
	!defined(__SANITIZE_THREAD__)
__attribute__((target_clones("arch=x86-64-v3", "default")))
#endif
int mem_shared_lanes(const struct cta *c, const uint64_t *addr, uint64_t delta, uint32_t mask,
		     uint32_t size, uint32_t *off)
{
	/* One pass over the lanes, no early exit: the common case is that every lane fits. A
	 * shared::cta address counts by its low 32 bits (those of the sum are the sum's). */
	uint64_t bad = 0, end = c->smem_size;
	uint32_t d = (uint32_t)delta;
	if (mask == 0xffffffffu && size <= end) {
		/* 32-bit lanes the compiler vectorises: off + size <= end as off <= end - size */
		uint32_t bad32 = 0, apart = 0, last = (uint32_t)(end - size), sm = size - 1;
		uint32_t want = (uint32_t)addr[0] + d; /* lane l's place if they are consecutive */
		for (uint32_t l = 0; l < 32; l++) {
			off[l] = (uint32_t)addr[l] + d;
			bad32 |= (off[l] & sm) | (uint32_t)-(uint32_t)(off[l] > last);
			apart |= off[l] ^ want;
			want += size;
		}
		return bad32 ? 0 : apart ? SHL_FIT : SHL_FIT | SHL_CONSEC;
	}
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		off[l] = (uint32_t)addr[l] + d;
		bad |= (off[l] & (size - 1)) | ((uint64_t)off[l] + size > end);
	}
	return bad ? 0 : SHL_FIT;
}
