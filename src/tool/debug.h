/*
 * debug.h - `ptxi debug`: a launch stepped as cuda-gdb steps a GPU, with the mbarriers in
 * view (debug.c, debug_cmd.c, debug_show.c, debug_input.c; docs/debugging.md). cli.c parses
 * the run options and calls debug_session.
 */
#ifndef PTXI_DEBUG_H
#define PTXI_DEBUG_H

#include <stdbool.h>
#include <stdio.h>

#include "ptxi/ptxi.h"

/* Where the commands come from: each -ex CMD in order, then the lines of --batch FILE (the
 * session ends after them), else standard input. */
struct debug_script {
	const char **ex;
	unsigned nex;
	const char *batch;
};

/* Where the launch's diagnostics go (the module's sink, ctx a struct debug_out): in the
 * session's output, in order with what the debugger prints; nothing while muted. */
struct debug_out {
	FILE *to;
	bool muted;
	char rule[64];      /* the rule the last report named                                  */
};
void debug_sink(void *ctx, int level, const char *text);

/* Take --batch FILE and -ex CMD out of argv (what stays is run options and the file);
 * returns the new argc, or -1 after printing an error. s->ex points into a malloc'd array
 * (free it). */
int debug_take_args(struct debug_script *s, int argc, char **argv);

/* The session: the launch starts stopped before its first instruction and the commands
 * run. Returns the exit status of the last launch that ran to its end (0 if none did), or
 * 2 when the launch cannot start. */
int debug_session(ptxi_module *m, struct ptxi_config *cfg, const struct ptxi_arg *args,
		  unsigned nargs, const struct debug_script *s, struct debug_out *out);

#endif
