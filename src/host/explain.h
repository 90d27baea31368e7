/*
 * explain.h - the topics of `ptxi explain` (topics.def) and the sample programs built into
 * the binary for it (ptx_samples/explain/, embedded by src/host/embed_samples.py).
 */
#ifndef PTXI_EXPLAIN_H
#define PTXI_EXPLAIN_H

#include <stddef.h>

/* The lines that delimit the generated catalogue in docs/static-checks.md. */
#define STATIC_MD_BEGIN "<!-- BEGIN ptxi explain --static-markdown -->"
#define STATIC_MD_END "<!-- END ptxi explain --static-markdown -->"

/* The text of an embedded sample by its path under ptx_samples/ ("explain/phases.ptx"), or
 * NULL. */
const char *explain_sample_text(const char *file);

/* Samples named in topics.def: how many, each one's file, and the command explain prints
 * for it (what the sample's first `// run:` line must say; tests compare the two). */
unsigned explain_sample_count(void);
/* What `ptxi explain RULE` prints for run-time rule r (enum rule_id), malloc'd; NULL if out
 * of memory. SARIF's rule help. */
char *explain_rule_text(int r);
/* What `ptxi explain CHECK` prints for static check k (enum check_id), without checking its
 * samples live; malloc'd, NULL if out of memory. SARIF's rule help. */
char *explain_check_text(int k);
const char *explain_sample_file(unsigned s);
void explain_sample_command(int s, char *buf, size_t size);

#endif
