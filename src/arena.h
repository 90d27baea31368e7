/*
 * arena.h - bump allocator that owns everything built at load time (IR, strings, symbols).
 * One arena_destroy frees it all. Built with -Darena_tracked=true, every object is its own
 * malloc so AddressSanitizer sees overflows between objects.
 */
#ifndef PTXI_ARENA_H
#define PTXI_ARENA_H

#include <stddef.h>

struct arena;

struct arena *arena_create(void);
void arena_destroy(struct arena *a);
/* Free everything allocated so far but keep the memory for the next allocations: a scratch
 * arena reset after each function keeps a long module's footprint at one function's. */
void arena_reset(struct arena *a);
/* Zeroed, aligned to 16. Never returns NULL: out of memory aborts with a message, since a
 * loader that cannot allocate has no useful way to continue. */
void *arena_alloc(struct arena *a, size_t size);
/* Copy of s[0..len) with a terminating NUL. */
char *arena_strndup(struct arena *a, const char *s, size_t len);
/* Grow an arena array: returns a new block of new_cap elements holding the old contents. */
void *arena_grow(struct arena *a, void *old, size_t elem, size_t old_count, size_t new_cap);

#endif
