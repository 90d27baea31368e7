/*
 * demangle.c - C++ names through libstdc++'s demangler (the one g++ and c++filt's ABI use),
 * never a hand-written one: nvcc mangles by the Itanium ABI, including templates, lambdas
 * and local statics (_ZZ4kernE5empty -> kern()::empty).
 */
#include "demangle.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <ctype.h>
#include <string.h>

/* Declared by <cxxabi.h> with C linkage; libstdc++ provides it. */
extern char *__cxa_demangle(const char *mangled, char *out, size_t *len, int *status);

bool demangle_is_mangled(const char *name)
{
	return name && name[0] == '_' && name[1] == 'Z';
}

/* Whether s starts with `word` followed by no more of an identifier. */
static size_t starts_ident(const char *s, const char *word)
{
	size_t n = strlen(word);
	return !strncmp(s, word, n) && !isalnum((unsigned char)s[n]) && s[n] != '_' ? n : 0;
}

/*
 * Shorten, in place, what nvcc and the libraries add that the user never wrote: the
 * per-file prefix of internal-linkage names ("_INTERNAL_18640008_10_k_cu_887197a0::", up
 * to 60 characters each, on every name in an anonymous namespace or cccl header), the
 * libraries' versioned inline namespaces ("cuda::ptx::__4::" -> "cuda::ptx::"), and
 * "(anonymous namespace)" -> "(anonymous)".
 */
void demangle_tidy(char *s)
{
	char *w = s;
	for (const char *r = s; *r;) {
		bool start = r == s || !(isalnum((unsigned char)r[-1]) || r[-1] == '_');
		size_t n = 0;
		if (start && !strncmp(r, "_INTERNAL_", 10)) {
			n = 10;
			while (isalnum((unsigned char)r[n]) || r[n] == '_')
				n++;
			if (strncmp(r + n, "::", 2)) /* not a namespace: keep it */
				n = 0;
			else
				n += 2;
		} else if (start && r[0] == '_' && r[1] == '_' && isdigit((unsigned char)r[2])) {
			n = 2;
			while (isdigit((unsigned char)r[n]))
				n++;
			n = w > s && w[-1] == ':' && !strncmp(r + n, "::", 2) ? n + 2 : 0;
		} else if ((n = starts_ident(r, "(anonymous namespace)"))) {
			memcpy(w, "(anonymous)", 11);
			w += 11;
			r += n;
			continue;
		}
		if (n) {
			r += n;
			continue;
		}
		*w++ = *r++;
	}
	*w = 0;
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
	demangle_tidy(s);
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
