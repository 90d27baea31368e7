/*
 * cli_rules.h - --rule NAME=LEVEL and --rules FILE (cli_rules.c): the levels `check` and
 * `run` report rules and static checks at.
 */
#ifndef PTXI_CLI_RULES_H
#define PTXI_CLI_RULES_H

#include <stdbool.h>

#include "ptxi/ptxi.h"

/* Set one "NAME=error|warning|off" in *s (made on first use). `where` names it in messages
 * ("--rule", "rules.txt:3"). On error a message goes to stderr and it returns false. */
bool cli_rule(ptxi_severities **s, const char *spec, const char *where);
/* Every line of FILE: NAME=LEVEL, blank lines and '#' comments aside. */
bool cli_rules_file(ptxi_severities **s, const char *path);

#endif
