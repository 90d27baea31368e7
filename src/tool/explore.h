/*
 * explore.h - `ptxi run --explore N`: the launch under the default schedule and N seeded
 * ones (seeds 1..N, or from cfg->seed on), stopping at the first schedule that breaks a rule, deadlocks, or dumps other bytes
 * than the default one, with the --seed that reproduces it.
 */
#ifndef PTXI_EXPLORE_H
#define PTXI_EXPLORE_H

#include "cli_dump.h"

/* Runs the schedules (side by side in child processes, one per CPU or --jobs, when the
 * diagnostics are text: `text`), prints the dumps of the default one (or of the schedule that broke
 * a rule) to stdout and the verdict to stderr. Returns the exit status: that of the first
 * failing schedule, 1 for different output, else 0. */
int explore_run(ptxi_module *m, const struct ptxi_config *cfg, const struct ptxi_arg *args,
		unsigned nargs, const struct dump_spec *dumps, unsigned ndumps, unsigned n, bool text);

#endif
