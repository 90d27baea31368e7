/*
 * rt_reports.c - the reports of the program's modules and launches. Before a launch's first
 * report, a line names it: "ptxi: launch 3 of saxpy(int, float, float const*, float*),
 * grid (4,1,1), block (256,1,1):". A report of a fault (a rule whose break the hardware faults on, a device assert, a deadlock or a
 * loop past --max-steps) sets the error the program sees, as CUDA would give it.
 */
#include "rt_reports.h"

#include <stdlib.h>
#include <string.h>

#include "host/report.h"
#include "rt.h"
#include "support/demangle.h"

/* The error a GPU gives for the fault a report names (rule, message and notes), or
 * cudaSuccess when the hardware carries on. */
static cudaError_t fault_of(const char *rule, size_t rule_len, const char *text)
{
	char r[64];
	snprintf(r, sizeof r, "%.*s", (int)(rule_len < 63 ? rule_len : 63), rule ? rule : "");
	if (!strcmp(r, "deadlock") || !strcmp(r, "step-limit") || !strcmp(r, "interrupted"))
		return cudaErrorLaunchTimeout;
	if (!strcmp(r, "device-assert"))
		return cudaErrorAssert;
	if (!text || !strstr(text, "the hardware faults here"))
		return cudaSuccess;
	if (strstr(r, "misaligned") || strstr(r, "alignment"))
		return cudaErrorMisalignedAddress;
	if (strstr(r, "out-of-bounds") || strstr(r, "bounds") || strstr(r, "window"))
		return cudaErrorIllegalAddress;
	if (!strcmp(r, "trap"))
		return cudaErrorLaunchFailure;
	return cudaErrorLaunchFailure;
}

static void head(char *buf, size_t size)
{
	char d[400];
	const struct rt_kernel *k = rt.cur_kernel;
	int n = snprintf(buf, size, "launch %llu of %s, grid (%u,%u,%u), block (%u,%u,%u)",
			 (unsigned long long)rt.cur_launch, demangle_name(k->name, d, sizeof d),
			 rt.cur_grid.x, rt.cur_grid.y, rt.cur_grid.z, rt.cur_block.x, rt.cur_block.y,
			 rt.cur_block.z);
	if (n > 0 && (size_t)n < size && rt.cur_cluster[0] * rt.cur_cluster[1] * rt.cur_cluster[2] > 1)
		snprintf(buf + n, size - (size_t)n, ", cluster (%u,%u,%u)", rt.cur_cluster[0],
			 rt.cur_cluster[1], rt.cur_cluster[2]);
}

static void note_fault(cudaError_t e)
{
	if (e != cudaSuccess && rt.cur_fault == cudaSuccess)
		rt.cur_fault = e;
}

/* A note with no place in the program (--jobs's, say) that was shown already: every
 * launch would repeat it. */
static bool said_before(int level, const char *text)
{
	static char *said[16];
	static unsigned n;
	if (level != DIAG_NOTE || strncmp(text, "ptxi: note:", 11))
		return false;
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(said[i], text))
			return true;
	if (n < 16)
		said[n++] = strdup(text);
	return false;
}

void rt_report_sink(void *ctx, int level, const char *text)
{
	(void)ctx;
	if (said_before(level, text))
		return;
	fflush(stdout);
	if (rt.cur_kernel && !rt.cur_headed) {
		char h[600];
		head(h, sizeof h);
		fprintf(stderr, "ptxi: %s:\n", h);
		rt.cur_headed = true;
	}
	fputs(text, stderr);
	if (level != DIAG_ERROR || !rt.cur_kernel)
		return;
	/* "path:line:col: error: message [rule]" */
	const char *eol = strchr(text, '\n');
	size_t first = eol ? (size_t)(eol - text) : strlen(text);
	const char *rule = NULL;
	size_t rule_len = 0;
	if (first && text[first - 1] == ']') {
		const char *open = text + first - 1;
		while (open > text && *open != '[')
			open--;
		rule = open + 1;
		rule_len = (size_t)(text + first - 1 - rule);
	}
	note_fault(fault_of(rule, rule_len, text));
}

void rt_report_record(void *ctx, const struct diag_record *r)
{
	(void)ctx;
	if (rt.cur_kernel && !rt.cur_headed) {
		char h[600];
		head(h, sizeof h);
		struct diag_record n = {.level = DIAG_NOTE, .rule = "launch", .rule_len = 6,
					.msg = h, .msg_len = strlen(h)};
		report_record(rt.report, &n);
		rt.cur_headed = true;
	}
	report_record(rt.report, r);
	if (r->level == DIAG_ERROR && rt.cur_kernel)
		note_fault(fault_of(r->rule, r->rule_len, r->notes));
}
