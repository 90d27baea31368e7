/*
 * arena.c - bump allocation in large chunks; or, in tracked mode (sanitizer builds), one
 * malloc per object kept on a list, so out-of-bounds writes between objects are caught.
 */
#include "arena.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK_SIZE (256 * 1024)

struct chunk {
	struct chunk *next;
	size_t used, size;
	_Alignas(16) unsigned char data[];
};

struct arena {
	struct chunk *head;
};

static void *xmalloc(size_t n)
{
	void *p = malloc(n);
	if (!p) {
		fputs("ptxi: out of memory\n", stderr);
		exit(4);
	}
	return p;
}

struct arena *arena_create(void)
{
	struct arena *a = xmalloc(sizeof *a);
	a->head = NULL;
	return a;
}

void arena_destroy(struct arena *a)
{
	if (!a)
		return;
	struct chunk *c = a->head;
	while (c) {
		struct chunk *next = c->next;
		free(c);
		c = next;
	}
	free(a);
}

static struct chunk *new_chunk(struct arena *a, size_t size)
{
	struct chunk *c = xmalloc(sizeof *c + size);
	c->next = a->head;
	c->used = 0;
	c->size = size;
	a->head = c;
	return c;
}

void *arena_alloc(struct arena *a, size_t size)
{
	size = (size + 15) & ~(size_t)15;
	if (size == 0)
		size = 16;
#ifdef PTXI_ARENA_TRACKED
	struct chunk *c = new_chunk(a, size);
	c->used = size;
	memset(c->data, 0, size);
	return c->data;
#else
	struct chunk *c = a->head;
	if (!c || c->size - c->used < size) {
		if (size > CHUNK_SIZE / 4) {
			/* Big objects get their own chunk behind the head, so the head keeps its space. */
			struct chunk *big = xmalloc(sizeof *big + size);
			big->size = big->used = size;
			if (c) {
				big->next = c->next;
				c->next = big;
			} else {
				big->next = NULL;
				a->head = big;
			}
			memset(big->data, 0, size);
			return big->data;
		}
		c = new_chunk(a, CHUNK_SIZE);
	}
	void *p = c->data + c->used;
	c->used += size;
	memset(p, 0, size);
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
	void *p = arena_alloc(a, elem * new_cap);
	if (old_count)
		memcpy(p, old, elem * old_count);
	return p;
}
