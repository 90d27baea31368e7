/*
 * grow.c - grow.h's doubling array.
 */
#include "grow.h"

#include <stdint.h>
#include <stdlib.h>

bool grow_array(void **p, size_t *cap, size_t n, size_t size, size_t first)
{
	if (n < *cap)
		return true;
	size_t c = *cap ? *cap : first ? first : 1;
	while (c <= n || c == *cap) {
		if (c > SIZE_MAX / 2)
			return false;
		c *= 2;
	}
	if (size && c > SIZE_MAX / size)
		return false;
	void *q = realloc(*p, c * size);
	if (!q)
		return false;
	*p = q;
	*cap = c;
	return true;
}
