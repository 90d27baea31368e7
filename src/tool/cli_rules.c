/*
 * cli_rules.c - --rule NAME=error|warning|off and --rules FILE: a rule's or static check's
 * level, checked against the tables (ptxi_severities_set) so that a misspelt name or a level
 * that cannot apply is an error, never a setting that silently does nothing.
 */
#include "cli_rules.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const level_names[] = {
	[PTXI_SEVERITY_ERROR] = "error", [PTXI_SEVERITY_WARNING] = "warning",
	[PTXI_SEVERITY_OFF] = "off"};

bool cli_rule(ptxi_severities **s, const char *spec, const char *where)
{
	const char *eq = strchr(spec, '='), *end = eq;
	while (end && end > spec && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	const char *want = eq ? eq + 1 + strspn(eq + 1, " \t") : NULL;
	int level = 0;
	for (int l = PTXI_SEVERITY_ERROR; eq && l <= PTXI_SEVERITY_OFF; l++)
		if (strcmp(want, level_names[l]) == 0)
			level = l;
	if (!eq || end == spec || !level) {
		fprintf(stderr, "ptxi: error: %s '%s': want NAME=error, NAME=warning or NAME=off\n",
			where, spec);
		return false;
	}
	if (!*s && !(*s = ptxi_severities_new())) {
		fprintf(stderr, "ptxi: error: out of memory\n");
		return false;
	}
	char name[128];
	snprintf(name, sizeof name, "%.*s", (int)(end - spec), spec);
	int st = ptxi_severities_set(*s, name, (enum ptxi_severity)level);
	if (st == -1)
		fprintf(stderr, "ptxi: error: %s '%s': no rule or static check is named '%s' "
			"('ptxi explain' lists them)\n", where, spec, name);
	else if (st < -1)
		fprintf(stderr, "ptxi: error: %s '%s': '%s' stays an error: %s\n", where, spec, name,
			st == -2 ? "the hardware faults there, and so the launch stops"
				 : "ptxas rejects the module");
	return st == 0;
}

bool cli_rules_file(ptxi_severities **s, const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "ptxi: error: cannot read --rules '%s': %s\n", path, strerror(errno));
		return false;
	}
	char line[512], where[600];
	bool ok = true;
	for (unsigned n = 1; ok && fgets(line, sizeof line, f); n++) {
		char *p = line + strspn(line, " \t");
		p[strcspn(p, "#\r\n")] = '\0';
		for (size_t e = strlen(p); e && (p[e - 1] == ' ' || p[e - 1] == '\t'); e--)
			p[e - 1] = '\0';
		if (!*p)
			continue;
		snprintf(where, sizeof where, "%s:%u:", path, n);
		ok = cli_rule(s, p, where);
	}
	if (ok && ferror(f)) {
		fprintf(stderr, "ptxi: error: cannot read --rules '%s'\n", path);
		ok = false;
	}
	fclose(f);
	return ok;
}
