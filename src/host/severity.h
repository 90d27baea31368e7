/*
 * severity.h - the levels given to rules and static checks (severity.c), as the byte tables
 * the report and check layers read (an enum sev per rule / per check; NULL: the defaults).
 */
#ifndef PTXI_SEVERITY_H
#define PTXI_SEVERITY_H

#include <stdint.h>

#include "ptxi/ptxi.h"

const uint8_t *severities_checks(const ptxi_severities *s);
const uint8_t *severities_rules(const ptxi_severities *s);

#endif
