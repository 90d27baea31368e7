/*
 * trace.h - --trace output (trace.c).
 */
#ifndef PTXI_TRACE_H
#define PTXI_TRACE_H

#include <stdint.h>

#include "run/launch.h"

/* Trace line (--trace): "file:line: CTA .. threads ..: text". */
void trace_line(struct launch *L, struct warp *w, uint32_t lanes, const char *text);
/* --trace all: the instruction di run by `mask` of the group's lanes `group`, and then the
 * values its destination took. */
void trace_insn(struct launch *L, struct warp *w, const struct dinsn *di, uint32_t group,
		uint32_t mask);
void trace_result(struct launch *L, struct frame *f, const struct dinsn *di, uint32_t mask);

#endif
