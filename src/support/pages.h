/*
 * pages.h - fresh zero memory straight from the kernel, placed so that huge pages can back
 * it. Every large mapping of ptxi (the arenas' chunks, global memory's reservation, the
 * scratch, the detector's slabs and images) is made here: mmap, trim to the alignment,
 * advise.
 */
#ifndef PTXI_PAGES_H
#define PTXI_PAGES_H

#include <stdbool.h>
#include <stddef.h>

/* A huge page's bytes on x86-64 and arm64's default (what the alignments below aim at). */
#define PAGES_HUGE ((size_t)2 << 20)

/* `size` bytes of fresh zero memory that start at an `align` boundary (a power of two; at
 * most a small page's: no trimming), readable and writable; NULL when the kernel refuses.
 * noreserve: address space only (MAP_NORESERVE), committed page by page as it is touched.
 * Released with munmap(p, size). */
void *pages_map(size_t size, size_t align, bool noreserve);

/* Advice that [p, p + len) be backed by huge pages: where transparent huge pages are off
 * the same bytes come in small pages, so a refusal is not an error. */
void pages_advise_huge(void *p, size_t len);

#endif
