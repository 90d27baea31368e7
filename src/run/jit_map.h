/*
 * jit_map.h - perf's names for the native tier's code: with PTXI_PERF_MAP=1 in the
 * environment, each compile (jit.c) appends to /tmp/perf-<pid>.map one line
 * "START SIZE name" (hex, perf's JIT map format) per piece of the code it made - a block,
 * a segment's code for one instruction, a region, the segment code's entry and exits - named
 * by the function and the PTX lines it runs, so that perf report shows where the generated
 * code's time goes. Off (no map: every call below a no-op on NULL), nothing is collected.
 */
#ifndef PTXI_JIT_MAP_H
#define PTXI_JIT_MAP_H

#include <stddef.h>
#include <stdint.h>

#include "prog.h"

struct src_file;
struct jit_map;

/* A map for one compile of a program whose source is `file`, or NULL where the environment
 * asks for none (or memory ran out). */
struct jit_map *jit_map_new(struct src_file *file);
/* From buffer offset `at` on, up to the next note, the code runs fn's instructions first to
 * last (their lines name it), as `what` says ("block", "seg ld", ...). */
void jit_map_note(struct jit_map *m, size_t at, const struct dfunc *fn, uint32_t first,
		  uint32_t last, const char *what);
/* From `at` on, up to the next note, no code (constants, or code taken back: the notes
 * from `at` on are dropped): no line. */
void jit_map_gap(struct jit_map *m, size_t at);
/* Write the notes as laid out at `base` (the code's mapping, `len` bytes), then free m. */
void jit_map_write(struct jit_map *m, const void *base, size_t len);
void jit_map_free(struct jit_map *m);

#endif
