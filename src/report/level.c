/*
 * level.c - a rule's level in a launch: rules.def's default (RB_WARN rules are warnings),
 * or what --rule set (L->cfg.rule_sev, one byte per rule).
 */
#include "level.h"

#include <string.h>

enum { RB_CONTINUE_, RB_FAULT_, RB_WARN_ };
#define RB_CONTINUE RB_CONTINUE_
#define RB_FAULT RB_FAULT_
#define RB_WARN RB_WARN_

static const struct { const char *name; int on_break; } table[] = {
#define RULE(id, name, section, on_break, text, after) {name, on_break},
#include "rules.def"
#undef RULE
};
#define NRULES (int)(sizeof table / sizeof table[0])

enum sev rule_level_of(const struct launch *L, int id)
{
	uint8_t s = L->cfg.rule_sev ? L->cfg.rule_sev[id] : SEV_DEFAULT;
	if (s != SEV_DEFAULT)
		return (enum sev)s;
	return table[id].on_break == RB_WARN ? SEV_WARNING : SEV_ERROR;
}

enum sev rule_level_named(const struct launch *L, const char *name)
{
	for (int r = 0; r < NRULES; r++)
		if (strcmp(table[r].name, name) == 0)
			return rule_level_of(L, r);
	return SEV_ERROR;
}
