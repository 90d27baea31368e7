/*
 * level.h - the level a run-time rule is reported at in a launch (level.c): its table's
 * (rules.def: a warning for RB_WARN rules, else an error), or the one --rule gave it.
 * Below rules.c and gather.c, which both ask.
 */
#ifndef PTXI_LEVEL_H
#define PTXI_LEVEL_H

#include "run/launch.h"
#include "support/diag.h"

/* SEV_ERROR, SEV_WARNING or SEV_OFF for rule number `id` (rules.def's order). */
enum sev rule_level_of(const struct launch *L, int id);
/* The same by name; a name that is no rule ("deadlock", "runtime-error") is an error. */
enum sev rule_level_named(const struct launch *L, const char *name);

#endif
