/*
 * arena.c - bump allocation in large chunks; or, in tracked mode (sanitizer builds), one
 * malloc per object kept on a list, so out-of-bounds writes between objects are caught.
 */
#include "arena.h"
#include "pages.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Chunks are 2 MiB mappings with transparent huge pages requested: a large module's IR is
 * several times its text, and on a VM faulting it in 4 KiB pages costs more than parsing.
 * Fresh mappings are zero, so allocations from them need no memset. */
#define CHUNK_SIZE (2u * 1024 * 1024)

struct chunk {
	struct chunk *next;
	size_t used, size;
	size_t mapped;          /* bytes mapped with mmap (0: from malloc)                  */
	_Alignas(16) unsigned char data[];
};

struct arena {
	struct chunk *head;
	struct chunk *spare;    /* standard chunks kept by arena_reset, zeroed, for reuse    */
};

static _Thread_local jmp_buf *oom_jump;

jmp_buf *arena_catch_oom(jmp_buf *jb)
{
	jmp_buf *prev = oom_jump;
	oom_jump = jb;
	return prev;
}

static void *oom(void)
{
	if (oom_jump)
		longjmp(*oom_jump, 1);
	return NULL;
}

void *arena_xmalloc(size_t n)
{
	void *p = malloc(n);
	return p ? p : oom();
}

void *arena_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);
	return p ? p : oom();
}

void *arena_xrealloc(void *old, size_t n)
{
	void *p = realloc(old, n);
	return p ? p : oom();
}

#define xmalloc arena_xmalloc

struct arena *arena_create(void)
{
	struct arena *a = xmalloc(sizeof *a);
	if (a)
		a->head = a->spare = NULL;
	return a;
}

static void free_chunk(struct chunk *c)
{
	if (c->mapped)
		munmap(c, c->mapped);
	else
		free(c);
}

static void free_list(struct chunk *c)
{
	while (c) {
		struct chunk *next = c->next;
		free_chunk(c);
		c = next;
	}
}

void arena_destroy(struct arena *a)
{
	if (!a)
		return;
	free_list(a->head);
	free_list(a->spare);
	free(a);
}

/* Standard chunks are cleared and kept (their pages stay mapped, so reuse costs no page
 * faults); big objects' chunks and malloc'd ones go back to the system. */
void arena_reset(struct arena *a)
{
	struct chunk *c = a->head;
	while (c) {
		struct chunk *next = c->next;
		if (c->mapped && c->size == CHUNK_SIZE - sizeof *c) {
			memset(c->data, 0, c->used);
			c->used = 0;
			c->next = a->spare;
			a->spare = c;
		} else {
			free_chunk(c);
		}
		c = next;
	}
	a->head = NULL;
}

#ifndef PTXI_ARENA_TRACKED
/* A zero-filled chunk able to hold `size` bytes: mapped (huge pages where the kernel
 * agrees), else malloc'd and cleared. */
static struct chunk *map_chunk(size_t size)
{
	size_t len = (sizeof(struct chunk) + size + PAGES_HUGE - 1) / PAGES_HUGE * PAGES_HUGE;
	void *p = pages_map(len, PAGES_HUGE, false);
	struct chunk *c;
	if (p) {
		pages_advise_huge(p, len);
		c = p;
		c->mapped = len;
		c->size = len - sizeof *c;
	} else {
		c = xmalloc(sizeof *c + size);
		memset(c->data, 0, size);
		c->mapped = 0;
		c->size = size;
	}
	c->used = 0;
	return c;
}

static struct chunk *new_chunk(struct arena *a, size_t size)
{
	struct chunk *c = a->spare;
	if (c)
		a->spare = c->next;
	else
		c = map_chunk(size);
	c->next = a->head;
	a->head = c;
	return c;
}
#endif

void *arena_alloc(struct arena *a, size_t size)
{
	if (size > SIZE_MAX / 2)
		return oom();
	size = (size + 15) & ~(size_t)15;
	if (size == 0)
		size = 16;
#ifdef PTXI_ARENA_TRACKED
	struct chunk *c = xmalloc(sizeof *c + size);
	c->mapped = 0;
	c->size = c->used = size;
	c->next = a->head;
	a->head = c;
	memset(c->data, 0, size);
	return c->data;
#else
	struct chunk *c = a->head;
	if (!c || c->size - c->used < size) {
		if (size > CHUNK_SIZE / 4) {
			/* Big objects get their own chunk behind the head, so the head keeps its space. */
			struct chunk *big = map_chunk(size);
			big->used = size;
			if (c) {
				big->next = c->next;
				c->next = big;
			} else {
				big->next = NULL;
				a->head = big;
			}
			return big->data;
		}
		c = new_chunk(a, CHUNK_SIZE - sizeof(struct chunk));
	}
	void *p = c->data + c->used; /* chunk memory is zero and never reused */
	c->used += size;
	return p;
#endif
}

char *arena_strndup(struct arena *a, const char *s, size_t len)
{
	char *p = arena_alloc(a, len + 1);
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

void *arena_grow(struct arena *a, void *old, size_t elem, size_t old_count, size_t new_cap)
{
	size_t bytes;
	if (__builtin_mul_overflow(elem, new_cap, &bytes))
		return oom();
	void *p = arena_alloc(a, bytes);
	if (old_count)
		memcpy(p, old, elem * old_count);
	return p;
}
