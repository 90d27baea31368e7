/*
 * arena.h - bump allocator that owns everything built at load time (IR, strings, symbols).
 * One arena_destroy frees it all. Built with -Darena_tracked=true, every object is its own
 * malloc so AddressSanitizer sees overflows between objects.
 */
#ifndef PTXI_ARENA_H
#define PTXI_ARENA_H

#include <setjmp.h>
#include <stddef.h>

struct arena;

/* Out of memory never exits the library: each entry point that builds or loads a module
 * installs a jmp_buf with arena_catch_oom (per thread; returns the one it replaces) and an
 * allocation failure in an arena, the parser or the checker longjmps there, where the
 * entry point reports it and returns a status. Memory those allocations held leaks. */
jmp_buf *arena_catch_oom(jmp_buf *jb);
/* malloc / calloc / realloc that jump to the installed jmp_buf on failure (with none
 * installed they return NULL, which no entry point of the library allows to happen). */
void *arena_xmalloc(size_t n);
void *arena_xcalloc(size_t n, size_t size);
void *arena_xrealloc(void *old, size_t n);

struct arena *arena_create(void);
void arena_destroy(struct arena *a);
/* Free everything allocated so far but keep the memory for the next allocations: a scratch
 * arena reset after each function keeps a long module's footprint at one function's. */
void arena_reset(struct arena *a);
/* Zeroed, aligned to 16. Out of memory (or a size past SIZE_MAX) jumps to the jmp_buf of
 * arena_catch_oom. */
void *arena_alloc(struct arena *a, size_t size);
/* Copy of s[0..len) with a terminating NUL. */
char *arena_strndup(struct arena *a, const char *s, size_t len);
/* Grow an arena array: returns a new block of new_cap elements holding the old contents. */
void *arena_grow(struct arena *a, void *old, size_t elem, size_t old_count, size_t new_cap);

#endif
