/*
 * cli_args.c - the values a user gives on the command line: numbers, shapes, line ranges,
 * and value specs for --arg, --set and the fields of by-value structs (scalars, buffers,
 * files, tensor maps, structs).
 */
#include "cli_args.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_fill.h"
#include "support/numbers.h"

#define PTX_MAX_STRUCT 32764u /* a kernel's whole parameter block (PTX ISA 5.1.6.4) */

void *cli_keep(struct cli_owned *o, void *p)
{
	if (!p)
		return NULL;
	if (o->n == o->cap) {
		unsigned cap = o->cap ? o->cap * 2 : 16;
		void **np = realloc(o->p, cap * sizeof *np);
		if (!np) {
			free(p);
			return NULL;
		}
		o->p = np;
		o->cap = cap;
	}
	return o->p[o->n++] = p;
}

void cli_owned_free(struct cli_owned *o)
{
	for (unsigned i = 0; i < o->n; i++)
		free(o->p[i]);
	free(o->p);
	*o = (struct cli_owned){0};
}

bool cli_parse_u64(const char *s, uint64_t *v)
{
	const char *end;
	return num_scan(s, true, &end, v) && !*end;
}

bool cli_parse_coords(const char *s, uint32_t d[3], unsigned long min, uint32_t fill)
{
	d[0] = d[1] = d[2] = fill;
	for (int i = 0; i < 3; i++) {
		const char *end;
		uint64_t v;
		if (!num_scan(s, false, &end, &v) || v < min || v > 0x7fffffff)
			return false;
		d[i] = (uint32_t)v;
		if (*end == '\0')
			return true;
		if (*end != ',')
			return false;
		s = end + 1;
	}
	return false;
}

bool cli_parse_line_range(const char *s, uint32_t r[2])
{
	const char *end;
	uint64_t a, b;
	if (!num_scan(s, false, &end, &a))
		return false;
	b = a;
	if (*end == '-' && !num_scan(end + 1, false, &end, &b))
		return false;
	if (*end || a == 0 || b < a || b > 0xffffffffUL)
		return false;
	r[0] = (uint32_t)a;
	r[1] = (uint32_t)b;
	return true;
}


/* The most a file: argument holds: a regular file as large as a buf: argument may be, or
 * 64 MiB from a pipe or device (so that /dev/zero is an error, not all of memory). */
#define MAX_FILE_ARG (1ull << 34)
#define MAX_STREAM_ARG (64ull << 20)
#define MAX_FILL (1ull << 32) /* a filled buffer's bytes are made here first */

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
	if (!cli_parse_u64(v, &x) || (a->size < 8 && x >> (a->size * 8)))
		return false;
	a->value = x;
	return true;
}

static bool file_value(const char *path, struct ptxi_arg *a, struct cli_owned *own)
{
	size_t n;
	void *data = read_whole(path, &n);
	if (!data) {
		if (errno == EFBIG)
			fprintf(stderr, "ptxi: error: cannot read '%s': larger than a file: argument "
				"may be (16 GiB; 64 MiB from a pipe or device)\n", path);
		else
			fprintf(stderr, "ptxi: error: cannot read '%s': %s\n", path, strerror(errno));
		return false;
	}
	if (!cli_keep(own, data))
		return false;
	a->kind = PTXI_ARG_BUFFER;
	a->init = data;
	a->bytes = n;
	return true;
}

/* A tensor map; inside a struct, buf=@OFF names the struct's buffer field at byte OFF. */
static bool tmap_value(const char *spec, const char *v, struct ptxi_arg *a, struct cli_owned *own)
{
	char *copy = cli_keep(own, strdup(v));
	if (!copy)
		return false;
	char *at = strstr(copy, "buf=@");
	if (at) {
		const char *end;
		uint64_t off;
		if (!num_scan(at + 5, true, &end, &off)) {
			fprintf(stderr, "ptxi: error: tensor map '%s': buf=@OFF needs a byte offset\n",
				spec);
			return false;
		}
		a->tmap_buf_field = true;
		a->tmap_buf_at = off;
		memmove(at + 4, "0", 1);
		memmove(at + 5, end, strlen(end) + 1);
	}
	char *named = strstr(copy, "buf=");
	if (named && (named == copy || named[-1] == ',') && !strchr("0123456789@", named[4])) {
		size_t len = strcspn(named + 4, ",+"); /* buf=NAME[+BYTES]: a --buffer or .global */
		if (!len || !(a->ref = cli_keep(own, strndup(named + 4, len))))
			return false;
		memmove(named + 5, named + 4 + len, strlen(named + 4 + len) + 1);
		named[4] = '0';
	}
	char why[200];
	a->kind = PTXI_ARG_TMAP;
	if (ptxi_tmap_parse(copy, &a->tmap, &a->tmap_buf, &a->tmap_off, why, sizeof why) == PTXI_OK)
		return true;
	fprintf(stderr, "ptxi: error: tensor map '%s': %s\n", spec, why);
	return false;
}

/* bytes:SIZE[,@OFF=SPEC]...: SIZE zero bytes with fields written over them. */
static bool struct_value(const char *spec, const char *v, struct ptxi_arg *a,
			 struct cli_owned *own)
{
	const char *end;
	uint64_t size;
	if (!num_scan(v, true, &end, &size) || size == 0 || size > PTX_MAX_STRUCT ||
	    (*end && strncmp(end, ",@", 2) != 0)) {
		fprintf(stderr, "ptxi: error: '%s': want bytes:SIZE[,@OFF=SPEC]..., SIZE 1-%u\n", spec,
			PTX_MAX_STRUCT);
		return false;
	}
	unsigned n = 0;
	for (const char *p = end; (p = strstr(p, ",@")); p += 2)
		n++;
	struct ptxi_field *fields = n ? cli_keep(own, calloc(n, sizeof *fields)) : NULL;
	if (n && !fields)
		return false;
	const char *p = end;
	for (unsigned i = 0; i < n; i++) {
		const char *field = p + 2, *next = strstr(field, ",@");
		size_t len = next ? (size_t)(next - field) : strlen(field);
		char *text = cli_keep(own, strndup(field, len));
		if (!text)
			return false;
		char *eq = strchr(text, '=');
		if (!num_scan(text, true, &end, &fields[i].off) || !eq || end != eq) {
			fprintf(stderr, "ptxi: error: '%s': field '@%s' is not @OFF=SPEC\n", spec, text);
			return false;
		}
		if (strncmp(eq + 1, "bytes:", 6) == 0) {
			fprintf(stderr, "ptxi: error: '%s': a field cannot be a struct (give its fields "
				"to the outer one)\n", spec);
			return false;
		}
		if (!cli_parse_value(eq + 1, &fields[i].value, own))
			return false;
		p = field + len;
	}
	a->kind = PTXI_ARG_BYTES;
	a->bytes = (size_t)size;
	a->fields = fields;
	a->nfields = n;
	return true;
}

bool cli_parse_value(const char *spec, struct ptxi_arg *a, struct cli_owned *own)
{
	memset(a, 0, sizeof *a);
	a->spec = spec;
	const char *colon = strchr(spec, ':');
	size_t k = colon ? (size_t)(colon - spec) : 0;
	const char *v = colon ? colon + 1 : "";
	for (unsigned i = 0; colon && i < sizeof scalars / sizeof scalars[0]; i++)
		if (strlen(scalars[i].name) == k && strncmp(spec, scalars[i].name, k) == 0) {
			if (scalar_value(i, v, a))
				return true;
			fprintf(stderr, "ptxi: error: '%s': not a %s value\n", spec, scalars[i].name);
			return false;
		}
	if (strncmp(spec, "buf=", 4) == 0 && spec[4]) { /* the named buffer (--buffer NAME) */
		a->kind = PTXI_ARG_BUFFER;
		a->ref = spec + 4;
		return true;
	}
	if (k == 3 && strncmp(spec, "buf", 3) == 0) {
		uint64_t n;
		const char *fill = strchr(v, ':'); /* buf:BYTES:FILL (cli_fill.c) */
		char bytes[32];
		snprintf(bytes, sizeof bytes, "%.*s", fill ? (int)(fill - v) : (int)strlen(v), v);
		if (!cli_parse_u64(bytes, &n) || n > MAX_FILE_ARG || (fill && n > MAX_FILL)) {
			fprintf(stderr, "ptxi: error: '%s': want buf:BYTES[:FILL], at most 16 GiB "
				"(4 GiB with a fill)\n", spec);
			return false;
		}
		a->kind = PTXI_ARG_BUFFER;
		a->bytes = (size_t)n;
		unsigned char *init;
		if (fill && !cli_parse_fill(spec, fill + 1, a->bytes, &init))
			return false;
		if (fill && init && !(a->init = cli_keep(own, init)))
			return false;
		return true;
	}
	if (k == 4 && strncmp(spec, "file", 4) == 0)
		return file_value(v, a, own);
	if (k == 4 && strncmp(spec, "tmap", 4) == 0)
		return tmap_value(spec, v, a, own);
	if (k == 5 && strncmp(spec, "bytes", 5) == 0)
		return struct_value(spec, v, a, own);
	fprintf(stderr, "ptxi: error: '%s': want TYPE:VALUE (u8 u16 u32 u64 s8 s16 s32 s64 f32 f64), "
		"buf:BYTES, buf=NAME, file:PATH, tmap:... or bytes:SIZE[,@OFF=SPEC]...\n", spec);
	return false;
}
