/*
 * cli_dump.c - what a launch leaves for the user: --dump prints a buffer (an argument's, one
 * a struct argument points to, or a module variable) in the element format asked for, one
 * element per line; --out writes its raw bytes to a file.
 */
#include "cli_dump.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "support/numbers.h"

static const struct {
	const char *name;
	unsigned size;
} formats[] = {
#define X(id, name, size) {name, size},
	DUMP_FORMATS(X)
#undef X
};

/* "N", "N@OFF", "SYMBOL" or "SYMBOL@OFF", up to `end`. */
static bool parse_target(const char *s, const char *end, struct dump_spec *d)
{
	const char *at = memchr(s, '@', (size_t)(end - s));
	const char *name_end = at ? at : end;
	if (name_end == s)
		return false;
	char *e;
	errno = 0;
	if (s[0] < '0' || s[0] > '9') {
		d->symbol = strndup(s, (size_t)(name_end - s));
		if (!d->symbol)
			return false;
		e = (char *)name_end;
	} else {
		unsigned long arg = strtoul(s, &e, 10);
		if (errno || arg >= 4096)
			return false;
		d->arg = (unsigned)arg;
	}
	if (e < end && *e == '@') {
		const char *o = e + 1;
		const char *after;
		if (!num_scan(o, true, &after, &d->off))
			return false;
		e = (char *)after;
		d->at_field = true;
	}
	return e == end;
}

bool cli_parse_dump(const char *s, struct dump_spec *d)
{
	*d = (struct dump_spec){.text = s};
	const char *colon = strrchr(s, ':');
	const char *end = colon ? colon : s + strlen(s);
	const char *after;
	if (colon && num_scan(colon + 1, false, &after, &d->count) && !*after) { /* :COUNT */
		if (!d->count)
			return false;
		end = colon;
		while (colon > s && colon[-1] != ':')
			colon--;
		colon = colon > s ? colon - 1 : NULL;
		if (colon && memchr(s, '@', (size_t)(colon - s)) == NULL && colon[1] >= '0' &&
		    colon[1] <= '9') /* "0:4": the ':' was the count's */
			colon = NULL;
		if (colon) {
			char fmt[8];
			snprintf(fmt, sizeof fmt, "%.*s", (int)(end - colon - 1), colon + 1);
			unsigned i = 1;
			while (i < sizeof formats / sizeof formats[0] && strcmp(fmt, formats[i].name))
				i++;
			if (i == sizeof formats / sizeof formats[0])
				return false;
			d->format = (enum dump_format)i;
			end = colon;
		}
		return parse_target(s, end, d);
	}
	if (colon) {
		unsigned i = 1; /* WORDS has no name */
		while (i < sizeof formats / sizeof formats[0] && strcmp(colon + 1, formats[i].name))
			i++;
		if (i == sizeof formats / sizeof formats[0])
			return false;
		d->format = (enum dump_format)i;
	}
	return parse_target(s, end, d);
}

bool cli_parse_out(const char *s, struct dump_spec *d)
{
	*d = (struct dump_spec){.text = s};
	const char *eq = strchr(s, '=');
	if (!eq || !eq[1])
		return false;
	d->path = eq + 1;
	return parse_target(s, eq, d);
}

const unsigned char *cli_dump_bytes(ptxi_module *m, const ptxi_run *r, const struct dump_spec *d,
				    size_t *n, char *why, size_t whylen)
{
	const unsigned char *p;
	size_t plen;
	char what[512]; /* a name past 400 bytes (a long mangled one) is cut, visibly */
	if (d->symbol) {
		p = ptxi_run_symbol(m, r, d->symbol, &plen);
		snprintf(what, sizeof what, "variable '%.400s%s'", d->symbol,
			 strlen(d->symbol) > 400 ? "..." : "");
		if (!p)
			snprintf(why, whylen, "the module has no .global or .const variable '%s'",
				 d->symbol);
	} else if (!d->at_field) {
		p = ptxi_run_buffer(r, d->arg, &plen);
		if (!p)
			snprintf(why, whylen, "argument %u is not a buffer (buf: or file:)", d->arg);
	} else {
		p = ptxi_run_param(r, d->arg, &plen);
		snprintf(what, sizeof what, "argument %u", d->arg);
		if (!p)
			snprintf(why, whylen, "the kernel has no argument %u", d->arg);
	}
	if (!p || !d->at_field) {
		*n = plen;
		return p;
	}
	/* @OFF: the buffer whose address the argument or variable holds there */
	if (d->off > plen || plen - d->off < 8) {
		snprintf(why, whylen, "%s has no 8-byte address at byte %" PRIu64, what, d->off);
		return NULL;
	}
	uint64_t addr;
	memcpy(&addr, p + d->off, 8);
	p = ptxi_run_memory(r, addr, n);
	if (!p)
		snprintf(why, whylen, "byte %" PRIu64 " of %s holds 0x%" PRIx64 ", which is in no "
			 "device buffer", d->off, what, addr);
	return p;
}

static float half_to_float(uint16_t h)
{
	uint32_t sign = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 31, f = h & 0x3ff, bits;
	if (e == 31) {
		bits = sign | 0x7f800000u | f << 13;
	} else if (e) {
		bits = sign | (e + 112) << 23 | f << 13;
	} else if (f) { /* subnormal: normalise */
		int s = 0;
		while (!(f & 0x400)) {
			f <<= 1;
			s++;
		}
		bits = sign | (uint32_t)(113 - s) << 23 | (f & 0x3ff) << 13;
	} else {
		bits = sign;
	}
	float x;
	memcpy(&x, &bits, 4);
	return x;
}

static void element(FILE *out, enum dump_format f, const unsigned char *p)
{
	uint64_t v = 0;
	memcpy(&v, p, formats[f].size > 8 ? 8 : formats[f].size); /* little-endian host */
	float x;
	uint32_t bits;
	double d;
	switch (f) {
	case DUMP_WORDS:
		fprintf(out, "%08" PRIx64 "\n", v);
		break;
	case DUMP_U8:
	case DUMP_U16:
	case DUMP_U32:
	case DUMP_U64:
		fprintf(out, "%" PRIu64 "\n", v);
		break;
	case DUMP_S32:
		fprintf(out, "%" PRId32 "\n", (int32_t)(uint32_t)v);
		break;
	case DUMP_F16:
		fprintf(out, "%.9g\n", (double)half_to_float((uint16_t)v));
		break;
	case DUMP_BF16:
		bits = (uint32_t)v << 16;
		memcpy(&x, &bits, 4);
		fprintf(out, "%.9g\n", (double)x);
		break;
	case DUMP_F32:
		bits = (uint32_t)v;
		memcpy(&x, &bits, 4);
		fprintf(out, "%.9g\n", (double)x);
		break;
	case DUMP_F64:
		memcpy(&d, p, 8);
		fprintf(out, "%.17g\n", d);
		break;
	case DUMP_HEX:
		for (unsigned i = 0; i < 16; i++)
			fprintf(out, "%02x%s", p[i], i == 15 ? "\n" : " ");
		break;
	}
}

/* The default format, words in hex, formatted by hand a block at a time: fprintf per word
 * was most of a short run's time for a 128 KiB buffer. */
static size_t print_words(FILE *out, const unsigned char *p, size_t n)
{
	static const char digit[] = "0123456789abcdef";
	char buf[512 * 9];
	size_t i = 0, len = 0;
	for (; i + 4 <= n; i += 4) {
		uint32_t v;
		memcpy(&v, p + i, 4); /* little-endian host */
		for (int k = 7; k >= 0; k--, v >>= 4)
			buf[len + (size_t)k] = digit[v & 15];
		buf[len + 8] = '\n';
		len += 9;
		if (len == sizeof buf) {
			fwrite(buf, 1, len, out);
			len = 0;
		}
	}
	fwrite(buf, 1, len, out);
	return i;
}

void cli_dump_print(FILE *out, const struct dump_spec *d, const unsigned char *p, size_t n)
{
	unsigned size = formats[d->format].size;
	size_t i = d->format == DUMP_WORDS ? print_words(out, p, n) : 0;
	for (; i + size <= n; i += size)
		element(out, d->format, p + i);
	if (i == n)
		return;
	for (size_t k = i; k < n; k++) /* the bytes that make no whole element */
		fprintf(out, "%02x%s", p[k], k + 1 == n ? "\n" : " ");
}

static int write_out(const struct dump_spec *d, const unsigned char *p, size_t n)
{
	FILE *f = fopen(d->path, "wb");
	bool ok = f && fwrite(p, 1, n, f) == n;
	if (f && fclose(f) != 0)
		ok = false;
	if (!ok) {
		fprintf(stderr, "ptxi: error: --out %s: cannot write '%s': %s\n", d->text, d->path,
			strerror(errno));
		return 2;
	}
	return 0;
}

int cli_dump_emit(const struct dump_spec *d, const unsigned char *p, size_t n)
{
	if (d->path)
		return write_out(d, p, n);
	if (d->count && d->count < n / formats[d->format].size) /* :COUNT elements */
		n = (size_t)d->count * formats[d->format].size;
	cli_dump_print(stdout, d, p, n);
	return 0;
}

void cli_dump_error(const struct dump_spec *d, const char *why)
{
	fprintf(stderr, "ptxi: error: --%s %s: %s\n", d->path ? "out" : "dump", d->text, why);
}

int cli_dump_all(ptxi_module *m, const ptxi_run *r, const struct dump_spec *dumps, unsigned n)
{
	int st = 0;
	for (unsigned i = 0; i < n; i++) {
		size_t len = 0;
		char why[1024];
		const unsigned char *p = cli_dump_bytes(m, r, &dumps[i], &len, why, sizeof why);
		if (!p) {
			cli_dump_error(&dumps[i], why);
			st = 2;
		} else if (cli_dump_emit(&dumps[i], p, len)) {
			st = 2;
		}
	}
	fflush(stdout);
	return st;
}
