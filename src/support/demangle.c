/*
 * demangle.c - C++ names through libstdc++'s demangler (the one g++ and c++filt's ABI use),
 * never a hand-written one: nvcc mangles by the Itanium ABI, including templates, lambdas
 * and local statics (_ZZ4kernE5empty -> kern()::empty).
 */
#include "demangle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Declared by <cxxabi.h> with C linkage; libstdc++ provides it. */
extern char *__cxa_demangle(const char *mangled, char *out, size_t *len, int *status);

bool demangle_is_mangled(const char *name)
{
	return name && name[0] == '_' && name[1] == 'Z';
}

char *demangle_alloc(const char *name)
{
	if (!demangle_is_mangled(name))
		return NULL;
	int status = 0;
	char *s = __cxa_demangle(name, NULL, NULL, &status);
	if (status != 0) {
		free(s);
		return NULL;
	}
	return s;
}

const char *demangle_name(const char *name, char *buf, size_t size)
{
	char *s = demangle_alloc(name);
	if (!s || size == 0) {
		free(s);
		return name;
	}
	snprintf(buf, size, "%s", s);
	free(s);
	return buf;
}
