/*
 * rt_reports.h - where the reports of the program's modules and launches go (rt_reports.c): each
 * launch's headed by its kernel, number and grid, and read for the fault that
 * stops the launch and the CUDA error the program then sees.
 */
#ifndef PTXI_RT_REPORTS_H
#define PTXI_RT_REPORTS_H

#include "support/diag.h"

/* Text diagnostics (ptxi_sink), and the same as data for --diagnostics=json|sarif. */
void rt_report_sink(void *ctx, int level, const char *text);
void rt_report_record(void *ctx, const struct diag_record *r);

#endif
