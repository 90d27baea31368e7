/*
 * grow.h - the growing array every module that collects an unknown number of things uses:
 * capacity doubled when full, so n appends cost O(n) copies in all.
 */
#ifndef PTXI_GROW_H
#define PTXI_GROW_H

#include <stdbool.h>
#include <stddef.h>

/* Make room for element n of *p (an array of *cap elements of `size` bytes): when n is
 * past the end, the capacity doubles (from `first`) and *p is reallocated. False, with *p
 * and *cap untouched, when out of memory or when the new size would not fit a size_t. */
bool grow_array(void **p, size_t *cap, size_t n, size_t size, size_t first);

#endif
