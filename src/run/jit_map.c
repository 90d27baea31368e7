/*
 * jit_map.c - perf's names for the native tier's code (jit_map.h). The notes are buffer
 * offsets in the order the code is emitted, each ending where the next begins, so the
 * ranges never overlap; they are written once the code has its address.
 */
#include "jit_map.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support/diag.h"
#include "support/grow.h"

struct note {
	size_t at;
	char *name; /* NULL: a gap */
};

struct jit_map {
	struct src_file *file;
	struct note *n;
	uint32_t nn;
	size_t cap;
};

struct jit_map *jit_map_new(struct src_file *file)
{
	const char *e = getenv("PTXI_PERF_MAP");
	if (!e || strcmp(e, "1") != 0)
		return NULL;
	struct jit_map *m = calloc(1, sizeof *m);
	if (m)
		m->file = file;
	return m;
}

static void add(struct jit_map *m, size_t at, char *name)
{
	if (!grow_array((void **)&m->n, &m->cap, m->nn, sizeof *m->n, 64)) {
		free(name);
		return;
	}
	m->n[m->nn++] = (struct note){at, name};
}

/* the 1-based line of fn's instruction i (0: none known) */
static uint32_t line_of(const struct jit_map *m, const struct dfunc *fn, uint32_t i)
{
	uint32_t line = 0, col;
	if (m->file && fn->code[i].ir)
		src_locate(m->file, fn->code[i].ir->span.off, &line, &col);
	return line;
}

void jit_map_note(struct jit_map *m, size_t at, const struct dfunc *fn, uint32_t first,
		  uint32_t last, const char *what)
{
	if (!m)
		return;
	uint32_t l0 = line_of(m, fn, first), l1 = line_of(m, fn, last);
	char buf[512];
	if (l1 > l0)
		snprintf(buf, sizeof buf, "ptxi %s:%u-%u %s", fn->name, l0, l1, what);
	else
		snprintf(buf, sizeof buf, "ptxi %s:%u %s", fn->name, l0, what);
	add(m, at, strdup(buf));
}

void jit_map_gap(struct jit_map *m, size_t at)
{
	if (!m)
		return;
	while (m->nn && m->n[m->nn - 1].at >= at)
		free(m->n[--m->nn].name);
	add(m, at, NULL);
}

void jit_map_write(struct jit_map *m, const void *base, size_t len)
{
	if (!m)
		return;
	char path[64];
	snprintf(path, sizeof path, "/tmp/perf-%ld.map", (long)getpid());
	FILE *f = fopen(path, "a");
	for (uint32_t k = 0; k < m->nn && f; k++) {
		size_t end = k + 1 < m->nn ? m->n[k + 1].at : len;
		if (m->n[k].name && end > m->n[k].at)
			fprintf(f, "%lx %zx %s\n", (unsigned long)((uintptr_t)base + m->n[k].at),
				end - m->n[k].at, m->n[k].name);
	}
	if (f)
		fclose(f);
	jit_map_free(m);
}

void jit_map_free(struct jit_map *m)
{
	if (!m)
		return;
	for (uint32_t k = 0; k < m->nn; k++)
		free(m->n[k].name);
	free(m->n);
	free(m);
}
