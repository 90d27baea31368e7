/*
 * severity.c - the levels a user gives run-time rules and static checks (--rule NAME=LEVEL,
 * ptxi_severities): one byte per rule and per check, read by rule_break (rules.c) and
 * check_vreport (checks.c). What the hardware faults at, and what ptxas rejects, can only
 * be raised: made a warning, a fault would still stop the launch, and a module ptxas rejects
 * is not one ptxi can load.
 */
#include "severity.h"

#include <stdlib.h>

#include "front/checks.h"
#include "report/rules.h"

struct ptxi_severities {
	uint8_t check[CHECK__COUNT];
	uint8_t rule[RULE__COUNT];
};

ptxi_severities *ptxi_severities_new(void)
{
	return calloc(1, sizeof(struct ptxi_severities));
}

void ptxi_severities_free(ptxi_severities *s)
{
	free(s);
}

int ptxi_severities_set(ptxi_severities *s, const char *name, enum ptxi_severity level)
{
	bool lower = level == PTXI_SEVERITY_WARNING || level == PTXI_SEVERITY_OFF;
	int r = rule_find(name);
	if (r >= 0) {
		if (lower && rule_info((enum rule_id)r)->on_break == RB_FAULT)
			return -2;
		s->rule[r] = (uint8_t)level;
		return 0;
	}
	int k = check_find(name);
	if (k < 0)
		return -1;
	if (lower && check_info((enum check_id)k)->level == DIAG_ERROR)
		return -3;
	s->check[k] = (uint8_t)level;
	return 0;
}

const uint8_t *severities_checks(const ptxi_severities *s)
{
	return s ? s->check : NULL;
}

const uint8_t *severities_rules(const ptxi_severities *s)
{
	return s ? s->rule : NULL;
}
