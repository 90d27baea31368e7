/*
 * diag.c - rendering diagnostics: locate a byte offset, print file:line:col, the source line
 * with a caret underline, then notes. Line starts are computed lazily, once per file.
 */
#include "diag.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static void stderr_sink(void *ctx, enum diag_level level, const char *text)
{
	(void)ctx;
	(void)level;
	fputs(text, stderr);
}

void diag_init_stderr(struct diag *d)
{
	memset(d, 0, sizeof *d);
	d->sink = stderr_sink;
	d->max_errors = 50;
}

/* Read all of fp, at most `limit` bytes: one read of the right size for regular files,
 * doubling for pipes and devices (/dev/zero ends at the limit, errno EFBIG). */
static char *read_all(FILE *fp, size_t limit, size_t *len)
{
	struct stat st;
	size_t cap = 1 << 16;
	if (fstat(fileno(fp), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
		cap = (uint64_t)st.st_size < limit ? (size_t)st.st_size + 1 : limit + 1;
	char *buf = malloc(cap);
	size_t n = 0;
	while (buf) {
		n += fread(buf + n, 1, cap - n - 1, fp);
		if (n + 1 < cap || ferror(fp))
			break;
		if (n >= limit) {
			free(buf);
			errno = EFBIG;
			return NULL;
		}
		size_t ncap = cap * 2 > limit + 1 ? limit + 1 : cap * 2;
		char *nb = realloc(buf, ncap);
		if (!nb)
			free(buf);
		buf = nb;
		cap = ncap;
	}
	*len = n;
	return buf;
}

/*
 * A regular file is mapped rather than read: no copy, and its pages come straight from the
 * page cache. The lexer needs a NUL after the text, so the file goes over an anonymous,
 * zeroed mapping one byte longer: past the end of the file's last page the kernel gives
 * zeros, and when the size is a whole number of pages the NUL is the anonymous page after.
 * NULL when the file cannot be mapped (the caller reads it instead).
 */
static char *map_file(FILE *fp, size_t *len, size_t *mapped)
{
	struct stat st;
	if (fstat(fileno(fp), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
	    (uint64_t)st.st_size > SRC_MAX_BYTES)
		return NULL;
	size_t page = (size_t)sysconf(_SC_PAGESIZE), n = (size_t)st.st_size;
	size_t total = (n + 1 + page - 1) / page * page;
	char *base = mmap(NULL, total, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED)
		return NULL;
	if (mmap(base, n, PROT_READ, MAP_PRIVATE | MAP_FIXED | MAP_POPULATE, fileno(fp), 0) ==
	    MAP_FAILED) {
		munmap(base, total);
		return NULL;
	}
	*len = n;
	*mapped = total;
	return base;
}

int src_file_read(struct src_file *f, const char *path)
{
	memset(f, 0, sizeof *f);
	FILE *fp = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	if (!fp)
		return -1;
	struct stat st;
	bool regular = fstat(fileno(fp), &st) == 0 && S_ISREG(st.st_mode);
	if ((!regular && S_ISDIR(st.st_mode)) || (regular && (uint64_t)st.st_size > SRC_MAX_BYTES)) {
		if (fp != stdin)
			fclose(fp);
		errno = regular ? EFBIG : EISDIR;
		return -1;
	}
	size_t len = 0;
	char *map = map_file(fp, &len, &f->mapped);
	if (map) {
		if (fp != stdin)
			fclose(fp);
		f->path = path;
		f->text = map;
		f->len = len;
		return 0;
	}
	errno = 0;
	char *buf = read_all(fp, regular ? SRC_MAX_BYTES : SRC_MAX_STREAM, &len);
	int err = ferror(fp), why = errno == EFBIG ? EFBIG : buf ? EIO : ENOMEM;
	if (fp != stdin)
		fclose(fp);
	if (!buf || err) {
		free(buf);
		errno = why;
		return -1;
	}
	buf[len] = '\0';
	f->path = path;
	f->text = buf;
	f->len = len;
	return 0;
}

void src_file_free(struct src_file *f)
{
	if (f->mapped)
		munmap((void *)f->text, f->mapped);
	else
		free((void *)f->text);
	free(f->line_starts);
	memset(f, 0, sizeof *f);
}

void src_file_from_string(struct src_file *f, const char *path, const char *text)
{
	memset(f, 0, sizeof *f);
	f->path = path;
	f->text = text;
	f->len = strlen(text);
}

static void compute_lines(struct src_file *f)
{
	uint32_t n = 1;
	for (size_t i = 0; i < f->len; i++)
		n += f->text[i] == '\n';
	f->line_starts = malloc(sizeof(uint32_t) * (n + 1));
	if (!f->line_starts)
		return;
	uint32_t k = 0;
	f->line_starts[k++] = 0;
	for (size_t i = 0; i < f->len; i++)
		if (f->text[i] == '\n')
			f->line_starts[k++] = (uint32_t)i + 1;
	f->nlines = k;
}

void src_locate(struct src_file *f, uint32_t off, uint32_t *line, uint32_t *col)
{
	if (!f->line_starts)
		compute_lines(f);
	if (!f->line_starts || f->nlines == 0) {
		*line = 1;
		*col = off + 1;
		return;
	}
	uint32_t lo = 0, hi = f->nlines - 1;
	while (lo < hi) {
		uint32_t mid = (lo + hi + 1) / 2;
		if (f->line_starts[mid] <= off)
			lo = mid;
		else
			hi = mid - 1;
	}
	*line = lo + 1;
	*col = off - f->line_starts[lo] + 1;
}

const char *level_name(enum diag_level l)
{
	return l == DIAG_ERROR ? "error" : l == DIAG_WARNING ? "warning" : "note";
}

/* Append the source line holding `span` and a caret line under it. */
static void render_source(struct strbuf *b, struct src_file *f, struct src_span span,
			  uint32_t line, uint32_t col)
{
	uint32_t start = f->line_starts ? f->line_starts[line - 1] : 0;
	uint32_t end = start;
	while (end < f->len && f->text[end] != '\n' && f->text[end] != '\r')
		end++;
	if (end - start > 400)
		return; /* generated one-line files: the caret would help nobody */
	sb_printf(b, " %5u | ", line);
	for (uint32_t i = start; i < end; i++) {
		unsigned char c = (unsigned char)f->text[i];
		sb_printf(b, "%c", c == '\t' ? ' ' : (c < 32 || c > 126) ? '?' : (char)c);
	}
	sb_printf(b, "\n       | ");
	for (uint32_t i = 1; i < col; i++)
		sb_printf(b, " ");
	uint32_t n = span.len;
	if (n == 0 || col - 1 + n > end - start)
		n = (end - start >= col) ? end - start - (col - 1) : 1;
	if (n == 0)
		n = 1;
	sb_printf(b, "^");
	for (uint32_t i = 1; i < n; i++)
		sb_printf(b, "~");
	sb_printf(b, "\n");
}

/* The rule's name of a message that ends in " [name]" (lower case, digits, '-'), or NULL. */
static const char *rule_suffix(const char *msg, size_t n, size_t *len)
{
	if (n < 3 || msg[n - 1] != ']')
		return NULL;
	const char *open = memrchr(msg, '[', n);
	if (!open)
		return NULL;
	size_t k = (size_t)(msg + n - 1 - (open + 1));
	if (!k || strspn(open + 1, "abcdefghijklmnopqrstuvwxyz0123456789-") < k)
		return NULL;
	*len = k;
	return open + 1;
}

void diag_record_init(struct diag_record *r, enum diag_level level, struct src_file *file,
		      struct src_span span, const char *notes, const char *msg)
{
	*r = (struct diag_record){.level = level, .msg = msg, .msg_len = strlen(msg),
				  .notes = notes};
	r->rule = rule_suffix(msg, r->msg_len, &r->rule_len);
	if (r->rule) {
		r->msg_len = (size_t)(r->rule - 1 - msg);
		while (r->msg_len && msg[r->msg_len - 1] == ' ')
			r->msg_len--;
	}
	if (file) {
		if (span.off > file->len)
			span.off = (uint32_t)file->len;
		src_locate(file, span.off, &r->line, &r->col);
		r->path = file->path;
		r->len = span.len;
	}
}

bool diag_count(struct diag *d, enum diag_level level)
{
	if (level == DIAG_ERROR)
		d->nerrors++;
	else if (level == DIAG_WARNING)
		d->nwarnings++;
	if (d->max_errors && d->nerrors > d->max_errors) {
		if (!d->suppressed && d->record) {
			struct diag_record r;
			diag_record_init(&r, DIAG_NOTE, NULL, (struct src_span){0, 0}, NULL,
					 "too many errors; stopping the report here");
			d->record(d->record_ctx, &r);
		} else if (!d->suppressed && d->sink) {
			d->sink(d->ctx, DIAG_NOTE, "ptxi: too many errors; stopping the report here\n");
		}
		d->suppressed = true;
		return false;
	}
	return d->record || d->sink;
}

void diag_source_line(struct strbuf *b, struct src_file *f, uint32_t line, uint32_t col)
{
	if (!f->line_starts)
		compute_lines(f);
	if (!f->line_starts || line == 0 || line > f->nlines)
		return;
	render_source(b, f, (struct src_span){f->line_starts[line - 1] + (col ? col - 1 : 0), 1},
		      line, col ? col : 1);
}

void diag_head(struct strbuf *b, enum diag_level level, struct src_file *file,
	       struct src_span span, const char *msg)
{
	uint32_t line = 0, col = 0;
	if (!file) {
		sb_printf(b, "ptxi: %s: %s\n", level_name(level), msg);
		return;
	}
	if (span.off > file->len)
		span.off = (uint32_t)file->len;
	src_locate(file, span.off, &line, &col);
	sb_printf(b, "%s:%u:%u: %s: %s\n", file->path, line, col, level_name(level), msg);
	render_source(b, file, span, line, col);
}

void diag_notes(struct strbuf *b, const char *notes)
{
	for (const char *p = notes ? notes : ""; *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		sb_printf(b, "    %.*s\n", (int)n, p);
		p += n + (nl != NULL);
	}
}

void diag_emit(struct diag *d, enum diag_level level, struct src_file *file,
	       struct src_span span, const char *notes, const char *msg)
{
	if (!diag_count(d, level))
		return;
	if (d->record) {
		struct diag_record r;
		diag_record_init(&r, level, file, span, notes, msg);
		d->record(d->record_ctx, &r);
		return;
	}
	struct strbuf b = {0};
	diag_head(&b, level, file, span, msg);
	diag_notes(&b, notes);
	d->sink(d->ctx, level, b.s ? b.s : "");
	sb_free(&b);
}

void diag_vreport(struct diag *d, enum diag_level level, struct src_file *file,
		  struct src_span span, const char *fmt, va_list ap)
{
	char msg[1024];
	vsnprintf(msg, sizeof msg, fmt, ap);
	diag_emit(d, level, file, span, NULL, msg);
}

void diag_report(struct diag *d, enum diag_level level, struct src_file *file,
		 struct src_span span, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vreport(d, level, file, span, fmt, ap);
	va_end(ap);
}

void sb_printf(struct strbuf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (b->len + (size_t)n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 256;
		while (cap < b->len + (size_t)n + 1)
			cap *= 2;
		char *s = realloc(b->s, cap);
		if (!s)
			return;
		b->s = s;
		b->cap = cap;
	}
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void sb_free(struct strbuf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}
