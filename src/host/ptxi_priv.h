/*
 * ptxi_priv.h - what the library's other files use of ptxi.c: reading a module with its
 * diagnostics going to a record function (report.c's ptxi_module_load_report and
 * ptxi_check_report, which sit above ptxi.c with the structured reports).
 */
#ifndef PTXI_PTXI_PRIV_H
#define PTXI_PTXI_PRIV_H

#include <stdbool.h>

#include "ptxi/ptxi.h"
#include "support/diag.h"

/* Read and check the module at path; diagnostics go to sink, or to record (with
 * record_ctx) as data when it is set; sev: the static checks' levels (NULL: their own). drop_bodies: keep no function body (a check only). */
ptxi_module *module_read(const char *path, ptxi_sink *sink, void *ctx, diag_record_fn *record,
			 void *record_ctx, bool drop_bodies, const ptxi_severities *sev);
/* A module parsed from text (named name in its diagnostics), as module_read. */
ptxi_module *module_from_string(const char *name, const char *text, ptxi_sink *sink, void *ctx,
				diag_record_fn *record, void *record_ctx);
/* ptxi_check with diagnostics going to record when it is set. */
int check_file(const char *path, ptxi_sink *sink, void *ctx, diag_record_fn *record,
	       void *record_ctx, const ptxi_severities *sev);

#endif
