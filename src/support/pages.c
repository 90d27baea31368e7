/*
 * pages.c - aligned anonymous mappings (pages.h). A huge page backs only a range aligned
 * to its size, and mmap promises a small page's alignment: map `align` bytes more, then
 * give back the part before the boundary and the part after the end.
 */
#include "pages.h"

#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

static uintptr_t round_up(uintptr_t x, size_t to)
{
	return (x + to - 1) & ~(uintptr_t)(to - 1);
}

void *pages_map(size_t size, size_t align, bool noreserve)
{
	size_t small = (size_t)sysconf(_SC_PAGESIZE), extra = align > small ? align : 0;
	if (!size || size > SIZE_MAX - extra - small)
		return NULL;
	int flags = MAP_PRIVATE | MAP_ANONYMOUS | (noreserve ? MAP_NORESERVE : 0);
	uint8_t *p = mmap(NULL, size + extra, PROT_READ | PROT_WRITE, flags, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	if (!extra)
		return p;
	uint8_t *a = (uint8_t *)round_up((uintptr_t)p, align);
	uint8_t *end = (uint8_t *)round_up((uintptr_t)a + size, small);
	uint8_t *map_end = (uint8_t *)round_up((uintptr_t)p + size + extra, small);
	if (a > p)
		munmap(p, (size_t)(a - p));
	if (map_end > end)
		munmap(end, (size_t)(map_end - end));
	return a;
}

void pages_advise_huge(void *p, size_t len)
{
#ifdef MADV_HUGEPAGE
	madvise(p, len, MADV_HUGEPAGE);
#else
	(void)p;
	(void)len;
#endif
}
