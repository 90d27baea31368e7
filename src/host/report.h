/*
 * report.h - structured diagnostics (report.c): the diag_record sink behind
 * ptxi_report (JSON lines or a SARIF 2.1.0 log; include/ptxi/ptxi.h).
 */
#ifndef PTXI_REPORT_H
#define PTXI_REPORT_H

#include "support/diag.h"
#include "ptxi/ptxi.h"

/* diag_record_fn for a ptxi_report (ctx). */
void report_record(void *ctx, const struct diag_record *d);

#endif
