/*
 * cli_dump.h - what --dump and --out read after a run and how they print it (cli_dump.c).
 */
#ifndef PTXI_CLI_DUMP_H
#define PTXI_CLI_DUMP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ptxi/ptxi.h"

/* How --dump prints elements. WORDS is the default: u32 words in hex, as ptxi always did. */
#define DUMP_FORMATS(X)                                                                     \
	X(WORDS, "", 4)                                                                     \
	X(U8, "u8", 1)                                                                      \
	X(U16, "u16", 2)                                                                    \
	X(U32, "u32", 4)                                                                    \
	X(U64, "u64", 8)                                                                    \
	X(S32, "s32", 4)                                                                    \
	X(F16, "f16", 2)                                                                    \
	X(BF16, "bf16", 2)                                                                  \
	X(F32, "f32", 4)                                                                    \
	X(F64, "f64", 8)                                                                    \
	X(HEX, "hex", 16)

enum dump_format {
#define X(id, name, size) DUMP_##id,
	DUMP_FORMATS(X)
#undef X
};

/* What a --dump or --out names: argument N's buffer, a module variable (SYMBOL), or the
 * buffer whose address either holds at byte OFF (N@OFF, SYMBOL@OFF). */
struct dump_spec {
	const char *text;       /* as written, for messages                                */
	const char *symbol;     /* NULL: an argument                                       */
	unsigned arg;
	bool at_field;          /* @OFF                                                    */
	uint64_t off;
	enum dump_format format;
	uint64_t count;         /* --dump ...:COUNT: the first COUNT elements (0: all)        */
	const char *path;       /* --out: the file to write                                */
};

/* "N[@OFF][:FMT][:COUNT]" or "SYMBOL[@OFF][:FMT][:COUNT]" (--dump); "N[@OFF]=PATH", "SYMBOL[@OFF]=PATH"
 * (--out). */
bool cli_parse_dump(const char *s, struct dump_spec *d);
bool cli_parse_out(const char *s, struct dump_spec *d);
/* The bytes d names after run r, or NULL with the reason in why. */
const unsigned char *cli_dump_bytes(ptxi_module *m, const ptxi_run *r, const struct dump_spec *d,
				    size_t *n, char *why, size_t whylen);
/* Print n bytes as d's format, one element per line (a tail shorter than an element: its
 * bytes in hex on a last line). */
void cli_dump_print(FILE *out, const struct dump_spec *d, const unsigned char *p, size_t n);
/* d's n bytes: printed on stdout (--dump) or written to its file (--out); 0, or 2 after a
 * message. */
int cli_dump_emit(const struct dump_spec *d, const unsigned char *p, size_t n);
/* "ptxi: error: --dump TEXT: WHY" (or --out) on stderr */
void cli_dump_error(const struct dump_spec *d, const char *why);
/* Every --dump to stdout and --out to its file; returns 0, or 2 after a message. */
int cli_dump_all(ptxi_module *m, const ptxi_run *r, const struct dump_spec *dumps, unsigned n);

#endif
