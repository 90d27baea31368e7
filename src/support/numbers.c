/*
 * numbers.c - the unsigned numbers users write: decimal, or 0x and hex digits.
 */
#include "numbers.h"

#include <errno.h>
#include <stdlib.h>

static bool is_digit(char c, int base)
{
	return (c >= '0' && c <= '9') ||
	       (base == 16 && ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')));
}

bool num_scan(const char *s, bool hex, const char **end, uint64_t *v)
{
	int base = hex && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ? 16 : 10;
	const char *digits = base == 16 ? s + 2 : s;
	*end = s;
	if (!is_digit(*digits, base))
		return false;
	char *e;
	errno = 0;
	unsigned long long x = strtoull(digits, &e, base);
	if (errno)
		return false;
	*v = x;
	*end = e;
	return true;
}
