/*
 * numbers.h - the unsigned numbers a user writes on the command line and in a tmap: spec
 * (numbers.c): decimal, or hexadecimal after 0x. Unlike strtoull, no spaces or sign before
 * the digits ("-1" is not 2^64-1) and no octal ("010" is ten).
 */
#ifndef PTXI_NUMBERS_H
#define PTXI_NUMBERS_H

#include <stdbool.h>
#include <stdint.h>

/* The number at s into *v, *end past it; with `hex`, 0x starts hexadecimal digits (without,
 * as in a tmap: list "16x8", x is where the number ends). False (nothing read) when s does
 * not start with a digit, 0x has no hex digit after it, or the number is past 2^64-1. */
bool num_scan(const char *s, bool hex, const char **end, uint64_t *v);

#endif
