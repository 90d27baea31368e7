/*
 * explain.h - the topics of `ptxi explain` (topics.def) and the sample programs built into
 * the binary for it (ptx_samples/explain/, embedded by src/embed_samples.py).
 */
#ifndef PTXI_EXPLAIN_H
#define PTXI_EXPLAIN_H

#include <stddef.h>

/* The text of an embedded sample by file name ("phases.ptx"), or NULL. */
const char *explain_sample_text(const char *file);

/* Samples named in topics.def: how many, each one's file, and the command explain prints
 * for it (what the sample's first `// run:` line must say; tests compare the two). */
unsigned explain_sample_count(void);
const char *explain_sample_file(unsigned s);
void explain_sample_command(int s, char *buf, size_t size);

#endif
