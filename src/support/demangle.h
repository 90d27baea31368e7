/*
 * demangle.h - C++ (Itanium ABI) names as a user reads them, for every message, `ptxi info`
 * and --kernel. One helper for the whole library, over libstdc++'s __cxa_demangle.
 */
#ifndef PTXI_DEMANGLE_H
#define PTXI_DEMANGLE_H

#include <stdbool.h>
#include <stddef.h>

/* The demangled form of `name` (malloc'd, the caller frees it), or NULL when `name` is not
 * a mangled C++ name (a plain PTX identifier, a Triton kernel) or memory ran out. */
char *demangle_alloc(const char *name);

/* Shorten a demangled name in place: internal-linkage file prefixes (_INTERNAL_...::) and
 * versioned inline namespaces (::__4::) go, "(anonymous namespace)" reads "(anonymous)".
 * demangle_alloc and demangle_name apply it. */
void demangle_tidy(char *s);

/* `name` demangled into buf (cut to size), or `name` itself when it is not mangled. The
 * result is buf or name; handy in printf arguments. */
const char *demangle_name(const char *name, char *buf, size_t size);

/* Whether `name` looks mangled (starts with _Z). */
bool demangle_is_mangled(const char *name);

#endif
