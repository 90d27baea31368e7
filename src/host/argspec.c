/*
 * argspec.c - argument values written as text (ptxi_args, include/ptxi/ptxi.h): the value
 * specs of the ptxi program's --arg, --set and struct fields (u32:5, buf:BYTES, file:PATH,
 * tmap:..., bytes:SIZE,@OFF=SPEC...), parsed here so that every embedder (the program, the
 * Python module) reads them alike, and argument lists built from specs, scalars and
 * buffers. A failed parse says why in the words the program prints after "ptxi: error: ".
 */
#include "ptxi/ptxi.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fill.h"
#include "support/numbers.h"

#define PTX_MAX_STRUCT 32764u /* a kernel's whole parameter block (PTX ISA 5.1.6.4) */

/* The most a file: argument holds: a regular file as large as a buf: argument may be, or
 * 64 MiB from a pipe or device (so that /dev/zero is an error, not all of memory). */
#define MAX_FILE_ARG (1ull << 34)
#define MAX_STREAM_ARG (64ull << 20)
#define MAX_FILL (1ull << 32) /* a filled buffer's bytes are made here first */

struct ptxi_args {
	void **owned;           /* memory the parsed values point into                     */
	unsigned nowned, capowned;
	struct ptxi_arg *list;  /* the argument list (ptxi_args_add_*)                     */
	unsigned n, cap;
	struct ptxi_set *sets;  /* module variables to set (ptxi_args_add_set)             */
	unsigned nsets, capsets;
};

/* Where a parse says why it failed. */
struct why {
	char *buf;
	size_t len;
};

__attribute__((format(printf, 2, 3))) static bool fail(struct why *w, const char *fmt, ...)
{
	if (w->buf && w->len) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(w->buf, w->len, fmt, ap);
		va_end(ap);
	}
	return false;
}

ptxi_args *ptxi_args_new(void)
{
	return calloc(1, sizeof(ptxi_args));
}

void ptxi_args_free(ptxi_args *a)
{
	if (!a)
		return;
	for (unsigned i = 0; i < a->nowned; i++)
		free(a->owned[i]);
	free(a->owned);
	free(a->list);
	free(a->sets);
	free(a);
}

/* p, now owned by a; NULL (p freed) when out of memory. */
static void *keep(ptxi_args *a, void *p)
{
	if (!p)
		return NULL;
	if (a->nowned == a->capowned) {
		unsigned cap = a->capowned ? a->capowned * 2 : 16;
		void **np = realloc(a->owned, cap * sizeof *np);
		if (!np) {
			free(p);
			return NULL;
		}
		a->owned = np;
		a->capowned = cap;
	}
	return a->owned[a->nowned++] = p;
}

/* A file: argument's bytes; NULL with errno set (EISDIR, EFBIG past the limits above). */
static void *read_whole(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	struct stat st;
	bool regular = fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode);
	uint64_t limit = regular ? MAX_FILE_ARG : MAX_STREAM_ARG;
	if ((!regular && S_ISDIR(st.st_mode)) || (regular && (uint64_t)st.st_size > limit)) {
		fclose(f);
		errno = regular ? EFBIG : EISDIR;
		return NULL;
	}
	size_t cap = regular && st.st_size > 0 ? (size_t)st.st_size + 1 : 4096, len = 0;
	unsigned char *buf = malloc(cap);
	while (buf) {
		size_t got = fread(buf + len, 1, cap - len, f);
		len += got;
		if (got == 0)
			break;
		if (len > limit) {
			free(buf);
			fclose(f);
			errno = EFBIG;
			return NULL;
		}
		if (len == cap) {
			unsigned char *nb = realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap *= 2;
		}
	}
	fclose(f);
	*n = len;
	return buf;
}

static const struct {
	const char *name;
	unsigned size;
	bool sgn, flt;
} scalars[] = {
	{"u8", 1, false, false},  {"u16", 2, false, false}, {"u32", 4, false, false},
	{"u64", 8, false, false}, {"s8", 1, true, false},   {"s16", 2, true, false},
	{"s32", 4, true, false},  {"s64", 8, true, false},  {"f32", 4, false, true},
	{"f64", 8, false, true},
};

static bool parse_u64(const char *s, uint64_t *v)
{
	const char *end;
	return num_scan(s, true, &end, v) && !*end;
}

/* VALUE of scalar type i into a. */
static bool scalar_value(unsigned i, const char *v, struct ptxi_arg *a)
{
	a->kind = PTXI_ARG_SCALAR;
	a->size = scalars[i].size;
	a->is_float = scalars[i].flt;
	char *end;
	errno = 0;
	if (scalars[i].flt) {
		double d = strtod(v, &end);
		if (end == v || *end || errno)
			return false;
		if (a->size == 4) {
			float fl = (float)d;
			uint32_t b;
			memcpy(&b, &fl, 4);
			a->value = b;
		} else {
			memcpy(&a->value, &d, 8);
		}
		return true;
	}
	if (scalars[i].sgn) {
		long long x = strtoll(v, &end, 0);
		if (end == v || *end || errno)
			return false;
		int64_t lo = a->size == 8 ? INT64_MIN : -(1ll << (a->size * 8 - 1));
		int64_t hi = a->size == 8 ? INT64_MAX : (1ll << (a->size * 8 - 1)) - 1;
		if (x < lo || x > hi)
			return false;
		a->value = (uint64_t)x & (a->size == 8 ? ~0ull : (1ull << (a->size * 8)) - 1);
		return true;
	}
	uint64_t x;
	if (!parse_u64(v, &x) || (a->size < 8 && x >> (a->size * 8)))
		return false;
	a->value = x;
	return true;
}

static bool file_value(ptxi_args *own, const char *path, struct ptxi_arg *a, struct why *w)
{
	size_t n;
	void *data = read_whole(path, &n);
	if (!data) {
		if (errno == EFBIG)
			return fail(w, "cannot read '%s': larger than a file: argument may be (16 GiB; "
				    "64 MiB from a pipe or device)", path);
		return fail(w, "cannot read '%s': %s", path, strerror(errno));
	}
	if (!keep(own, data))
		return fail(w, "out of memory");
	a->kind = PTXI_ARG_BUFFER;
	a->init = data;
	a->bytes = n;
	return true;
}

/* A tensor map; inside a struct, buf=@OFF names the struct's buffer field at byte OFF. */
static bool tmap_value(ptxi_args *own, const char *spec, const char *v, struct ptxi_arg *a,
		       struct why *w)
{
	char *copy = keep(own, strdup(v));
	if (!copy)
		return fail(w, "out of memory");
	char *at = strstr(copy, "buf=@");
	if (at) {
		const char *end;
		uint64_t off;
		if (!num_scan(at + 5, true, &end, &off))
			return fail(w, "tensor map '%s': buf=@OFF needs a byte offset", spec);
		a->tmap_buf_field = true;
		a->tmap_buf_at = off;
		memmove(at + 4, "0", 1);
		memmove(at + 5, end, strlen(end) + 1);
	}
	char *named = strstr(copy, "buf=");
	if (named && (named == copy || named[-1] == ',') && !strchr("0123456789@", named[4])) {
		size_t len = strcspn(named + 4, ",+"); /* buf=NAME[+BYTES]: a --buffer or .global */
		if (!len)
			return fail(w, "tensor map '%s': buf= needs a name or an argument", spec);
		if (!(a->ref = keep(own, strndup(named + 4, len))))
			return fail(w, "out of memory");
		memmove(named + 5, named + 4 + len, strlen(named + 4 + len) + 1);
		named[4] = '0';
	}
	char why[200];
	a->kind = PTXI_ARG_TMAP;
	if (ptxi_tmap_parse(copy, &a->tmap, &a->tmap_buf, &a->tmap_off, why, sizeof why) == PTXI_OK)
		return true;
	return fail(w, "tensor map '%s': %s", spec, why);
}

static bool parse_value(ptxi_args *own, const char *spec, struct ptxi_arg *a, struct why *w);

/* bytes:SIZE[,@OFF=SPEC]...: SIZE zero bytes with fields written over them. */
static bool struct_value(ptxi_args *own, const char *spec, const char *v, struct ptxi_arg *a,
			 struct why *w)
{
	const char *end;
	uint64_t size;
	if (!num_scan(v, true, &end, &size) || size == 0 || size > PTX_MAX_STRUCT ||
	    (*end && strncmp(end, ",@", 2) != 0))
		return fail(w, "'%s': want bytes:SIZE[,@OFF=SPEC]..., SIZE 1-%u", spec,
			    PTX_MAX_STRUCT);
	unsigned n = 0;
	for (const char *p = end; (p = strstr(p, ",@")); p += 2)
		n++;
	struct ptxi_field *fields = n ? keep(own, calloc(n, sizeof *fields)) : NULL;
	if (n && !fields)
		return fail(w, "out of memory");
	const char *p = end;
	for (unsigned i = 0; i < n; i++) {
		const char *field = p + 2, *next = strstr(field, ",@");
		size_t len = next ? (size_t)(next - field) : strlen(field);
		char *text = keep(own, strndup(field, len));
		if (!text)
			return fail(w, "out of memory");
		char *eq = strchr(text, '=');
		if (!num_scan(text, true, &end, &fields[i].off) || !eq || end != eq)
			return fail(w, "'%s': field '@%s' is not @OFF=SPEC", spec, text);
		if (strncmp(eq + 1, "bytes:", 6) == 0)
			return fail(w, "'%s': a field cannot be a struct (give its fields to the "
				    "outer one)", spec);
		if (!parse_value(own, eq + 1, &fields[i].value, w))
			return false;
		p = field + len;
	}
	a->kind = PTXI_ARG_BYTES;
	a->bytes = (size_t)size;
	a->fields = fields;
	a->nfields = n;
	return true;
}

static bool parse_value(ptxi_args *own, const char *spec, struct ptxi_arg *a, struct why *w)
{
	memset(a, 0, sizeof *a);
	a->spec = spec;
	const char *colon = strchr(spec, ':');
	size_t k = colon ? (size_t)(colon - spec) : 0;
	const char *v = colon ? colon + 1 : "";
	for (unsigned i = 0; colon && i < sizeof scalars / sizeof scalars[0]; i++)
		if (strlen(scalars[i].name) == k && strncmp(spec, scalars[i].name, k) == 0)
			return scalar_value(i, v, a) ||
			       fail(w, "'%s': not a %s value", spec, scalars[i].name);
	if (strncmp(spec, "buf=", 4) == 0 && spec[4]) { /* the named buffer (--buffer NAME) */
		a->kind = PTXI_ARG_BUFFER;
		a->ref = spec + 4;
		return true;
	}
	if (k == 3 && strncmp(spec, "buf", 3) == 0) {
		uint64_t n;
		const char *fill = strchr(v, ':'); /* buf:BYTES:FILL (fill.c) */
		char bytes[32];
		snprintf(bytes, sizeof bytes, "%.*s", fill ? (int)(fill - v) : (int)strlen(v), v);
		if (!parse_u64(bytes, &n) || n > MAX_FILE_ARG || (fill && n > MAX_FILL))
			return fail(w, "'%s': want buf:BYTES[:FILL], at most 16 GiB (4 GiB with a "
				    "fill)", spec);
		a->kind = PTXI_ARG_BUFFER;
		a->bytes = (size_t)n;
		unsigned char *init;
		if (fill && !fill_parse(spec, fill + 1, a->bytes, &init, w->buf, w->len))
			return false;
		if (fill && init && !(a->init = keep(own, init)))
			return fail(w, "out of memory");
		return true;
	}
	if (k == 4 && strncmp(spec, "file", 4) == 0)
		return file_value(own, v, a, w);
	if (k == 4 && strncmp(spec, "tmap", 4) == 0)
		return tmap_value(own, spec, v, a, w);
	if (k == 5 && strncmp(spec, "bytes", 5) == 0)
		return struct_value(own, spec, v, a, w);
	return fail(w, "'%s': want TYPE:VALUE (u8 u16 u32 u64 s8 s16 s32 s64 f32 f64), "
		    "buf:BYTES, buf=NAME, file:PATH, tmap:... or bytes:SIZE[,@OFF=SPEC]...", spec);
}

int ptxi_arg_parse(ptxi_args *a, const char *spec, struct ptxi_arg *out, char *why,
		   size_t whylen)
{
	struct why w = {why, whylen};
	char *copy = keep(a, strdup(spec)); /* the value keeps its spec for messages */
	if (!copy) {
		memset(out, 0, sizeof *out);
		return fail(&w, "out of memory"), PTXI_INVALID;
	}
	return parse_value(a, copy, out, &w) ? PTXI_OK : PTXI_INVALID;
}

/* A new entry at the end of the list, zeroed; NULL when out of memory. */
static struct ptxi_arg *append(ptxi_args *a)
{
	if (a->n == a->cap) {
		unsigned cap = a->cap ? a->cap * 2 : 8;
		struct ptxi_arg *np = realloc(a->list, cap * sizeof *np);
		if (!np)
			return NULL;
		a->list = np;
		a->cap = cap;
	}
	struct ptxi_arg *e = &a->list[a->n];
	memset(e, 0, sizeof *e);
	return e;
}

int ptxi_args_add_spec(ptxi_args *a, const char *spec, char *why, size_t whylen)
{
	struct ptxi_arg *e = append(a);
	if (!e) {
		struct why w = {why, whylen};
		return fail(&w, "out of memory"), PTXI_INVALID;
	}
	if (ptxi_arg_parse(a, spec, e, why, whylen) != PTXI_OK)
		return PTXI_INVALID;
	a->n++;
	return PTXI_OK;
}

/* p (a spec for messages), now owned by a; NULL when out of memory. */
static const char *keep_text(ptxi_args *a, const char *text)
{
	return keep(a, strdup(text));
}

int ptxi_args_add_scalar(ptxi_args *a, unsigned size, bool is_float, uint64_t bits)
{
	if (!(size == 1 || size == 2 || size == 4 || size == 8) || (is_float && size < 4) ||
	    (size < 8 && bits >> (size * 8)))
		return PTXI_INVALID;
	struct ptxi_arg *e = append(a);
	if (!e)
		return PTXI_INVALID;
	e->kind = PTXI_ARG_SCALAR;
	e->size = size;
	e->is_float = is_float;
	e->value = bits;
	/* how it reads in messages: "u32:5", "f32:1.5" */
	char text[64];
	if (is_float && size == 4) {
		float f;
		uint32_t b = (uint32_t)bits;
		memcpy(&f, &b, 4);
		snprintf(text, sizeof text, "f32:%.9g", f);
	} else if (is_float) {
		double d;
		memcpy(&d, &bits, 8);
		snprintf(text, sizeof text, "f64:%.17g", d);
	} else {
		snprintf(text, sizeof text, "u%u:%llu", size * 8, (unsigned long long)bits);
	}
	if (!(e->spec = keep_text(a, text)))
		return PTXI_INVALID;
	a->n++;
	return PTXI_OK;
}

int ptxi_args_add_buffer(ptxi_args *a, const void *init, size_t bytes)
{
	if (bytes > MAX_FILE_ARG)
		return PTXI_INVALID;
	struct ptxi_arg *e = append(a);
	if (!e)
		return PTXI_INVALID;
	e->kind = PTXI_ARG_BUFFER;
	e->init = init;
	e->bytes = bytes;
	char text[64];
	snprintf(text, sizeof text, "buffer of %llu bytes", (unsigned long long)bytes);
	if (!(e->spec = keep_text(a, text)))
		return PTXI_INVALID;
	a->n++;
	return PTXI_OK;
}

const struct ptxi_arg *ptxi_args_list(const ptxi_args *a, unsigned *n)
{
	*n = a->n;
	return a->list;
}

int ptxi_args_add_set(ptxi_args *a, const char *symbol, const char *spec, char *why,
		      size_t whylen)
{
	struct why w = {why, whylen};
	if (a->nsets == a->capsets) {
		unsigned cap = a->capsets ? a->capsets * 2 : 8;
		struct ptxi_set *np = realloc(a->sets, cap * sizeof *np);
		if (!np)
			return fail(&w, "out of memory"), PTXI_INVALID;
		a->sets = np;
		a->capsets = cap;
	}
	for (unsigned i = 0; i < a->nsets; i++) /* else the last would silently win */
		if (strcmp(a->sets[i].symbol, symbol) == 0)
			return fail(&w, "--set %s is given twice", symbol), PTXI_INVALID;
	struct ptxi_set *s = &a->sets[a->nsets];
	if (!*symbol || !(s->symbol = keep(a, strdup(symbol))))
		return fail(&w, *symbol ? "out of memory" : "--set needs a symbol"), PTXI_INVALID;
	if (ptxi_arg_parse(a, spec, &s->value, why, whylen) != PTXI_OK)
		return PTXI_INVALID;
	a->nsets++;
	return PTXI_OK;
}

const struct ptxi_set *ptxi_args_sets(const ptxi_args *a, unsigned *n)
{
	*n = a->nsets;
	return a->sets;
}
