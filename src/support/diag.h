/*
 * diag.h - source spans and the diagnostic sink.
 * Tokens and IR carry byte offsets; line and column are computed only when a message is
 * rendered ("file:line:col: error: message", the source line, a caret underline, notes).
 * The sink is a callback so tests can capture messages; nothing here prints by itself.
 */
#ifndef PTXI_DIAG_H
#define PTXI_DIAG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct src_span {
	uint32_t off, len;
};

/* Write a span with one 8-byte store. The parser reads spans back whole right after they
 * are made (token, then rule locations); after two 4-byte stores that load cannot be
 * forwarded from the store buffer and stalls, once per token and per reduction. */
static inline void span_set(struct src_span *s, uint32_t off, uint32_t len)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t v = (uint64_t)len << 32 | off;
	memcpy(s, &v, sizeof v);
#else
	s->off = off;
	s->len = len;
#endif
}

struct src_file {
	const char *path;
	const char *text;       /* the file's bytes, then a NUL                            */
	size_t len;
	size_t mapped;          /* bytes mapped (src_file_read of a regular file), else 0  */
	uint32_t *line_starts;  /* computed on first use                                   */
	uint32_t nlines;
};

enum diag_level { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE };

/* The level a user gave a rule or static check (--rule NAME=LEVEL; ptxi_severity's values):
 * SEV_DEFAULT keeps the table's. */
enum sev { SEV_DEFAULT, SEV_ERROR, SEV_WARNING, SEV_OFF };

/* Receives one fully rendered diagnostic (several lines, ending in '\n'). */
typedef void diag_sink_fn(void *ctx, enum diag_level level, const char *text);

/* A diagnostic as data, for JSON and SARIF (report.c). Strings are not NUL-terminated
 * where a length is given. */
struct diag_record {
	enum diag_level level;
	const char *rule;       /* the name in the message's trailing "[name]", or NULL   */
	size_t rule_len;
	const char *msg;        /* the message without that suffix                         */
	size_t msg_len;
	const char *path;       /* NULL: no location                                       */
	uint32_t line, col, len;
	const char *notes;      /* lines (threads, barrier state, rule text), or NULL      */
	/* where the module's .loc puts it in the CUDA/Triton source (src_path NULL: none) */
	const char *src_path;
	uint32_t src_line, src_col;
	const char *src_context; /* "in function ..." and "inlined from ..." lines, or NULL */
};
typedef void diag_record_fn(void *ctx, const struct diag_record *r);

struct diag {
	diag_sink_fn *sink;
	void *ctx;
	diag_record_fn *record; /* when set, diagnostics go here as data instead of text   */
	void *record_ctx;
	unsigned nerrors, nwarnings;
	const uint8_t *check_sev; /* per static check, an enum sev (NULL: each its own level)  */
	unsigned max_errors;    /* stop rendering errors past this many (0 = unlimited)     */
	bool suppressed;        /* set once max_errors was reached                          */
};

struct strbuf;

/* A sink that writes to stderr. */
void diag_init_stderr(struct diag *d);

/* The largest PTX text ptxi reads: a regular file (mapped, not copied) of up to 1 GiB, or
 * 64 MiB from a pipe or device (read into memory). More fails with errno EFBIG, so that
 * /dev/zero ends in an error instead of exhausting memory. */
#define SRC_MAX_BYTES ((size_t)1 << 30)
#define SRC_MAX_STREAM ((size_t)64 << 20)
/* Load a file (or "-" for stdin) into a src_file. Returns 0, or -1 with errno set. */
int src_file_read(struct src_file *f, const char *path);
void src_file_free(struct src_file *f);
/* Make a src_file over an in-memory string (tests); text must outlive the file. */
void src_file_from_string(struct src_file *f, const char *path, const char *text);

/* 1-based line and column of a byte offset. */
void src_locate(struct src_file *f, uint32_t off, uint32_t *line, uint32_t *col);

/* Report at a span of `file` (file may be NULL: no location). `notes` (may be NULL) is
 * appended after the caret line, each line indented; it is where runtime diagnostics put
 * the CTA/thread and barrier state. */
void diag_emit(struct diag *d, enum diag_level level, struct src_file *file,
	       struct src_span span, const char *notes, const char *msg);
/* The pieces of diag_emit, for reports that lead with another file's position (srcloc.c):
 * count a diagnostic (false: not to be rendered: no sink, or past max_errors); the head
 * "file:line:col: level: msg" with the source line and caret; notes, each line indented. */
bool diag_count(struct diag *d, enum diag_level level);
/* A diagnostic as data: the rule's name split off the message's " [name]", the PTX position
 * of `span` in `file` (none when file is NULL). */
void diag_record_init(struct diag_record *r, enum diag_level level, struct src_file *file,
		      struct src_span span, const char *notes, const char *msg);
void diag_head(struct strbuf *b, enum diag_level level, struct src_file *file,
	       struct src_span span, const char *msg);
void diag_notes(struct strbuf *b, const char *notes);
/* Line `line` of f with a caret under column col (1-based; 0: under its start). */
void diag_source_line(struct strbuf *b, struct src_file *f, uint32_t line, uint32_t col);
const char *level_name(enum diag_level l);
__attribute__((format(printf, 5, 6)))
void diag_report(struct diag *d, enum diag_level level, struct src_file *file,
		 struct src_span span, const char *fmt, ...);
void diag_vreport(struct diag *d, enum diag_level level, struct src_file *file,
		  struct src_span span, const char *fmt, va_list ap);

/* A growable string for building messages. */
struct strbuf {
	char *s;
	size_t len, cap;
};
__attribute__((format(printf, 2, 3))) void sb_printf(struct strbuf *b, const char *fmt, ...);
void sb_free(struct strbuf *b);

#endif
