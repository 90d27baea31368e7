/*
 * lex.h - the PTX lexer (grammar/ptx.re): bytes in, token kinds and byte spans out.
 * Tokens carry no values: the builders read numbers and names back from the source text
 * through the span. Token kinds are Bison's (parser.h); only grammar/ and tests use them.
 */
#ifndef PTXI_LEX_H
#define PTXI_LEX_H

#include <stdint.h>

#include "support/diag.h"

/* Nesting of ( [ { deeper than this is cut off by the lexer with one error, so absurd input
 * can neither exhaust the parser stack nor recurse deeply in the builders. */
enum { LEX_MAX_DEPTH = 256 };

struct lexer {
	const unsigned char *text; /* file start                                             */
	const unsigned char *cur;  /* next byte                                              */
	const unsigned char *lim;  /* text + len: the NUL sentinel                           */
	int depth;                 /* open ( [ { right now                                   */
	struct diag *diag;
	struct src_file *file;
};

void lex_init(struct lexer *lx, struct src_file *file, struct diag *d);
/* The next token's kind (0 at end of input) and its span. Never fails: bytes that start no
 * token come back as the "invalid character" token. */
int lex_scan(struct lexer *lx, struct src_span *span);
/* Bison's human name of a token kind ("identifier", "';'"), for tests and messages. */
const char *ptx_token_name(int kind);

#endif
