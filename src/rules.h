/*
 * rules.h - the table of run-time rules (rules.def): ids, names, manual sections, and
 * whether the hardware carries on after a break.
 */
#ifndef PTXI_RULES_H
#define PTXI_RULES_H

#include <stdbool.h>
#include <stdint.h>

enum rule_break { RB_CONTINUE, RB_FAULT };

enum rule_id {
#define RULE(id, name, section, on_break, text, after) RULE_##id,
#include "rules.def"
#undef RULE
	RULE__COUNT
};

struct rule_info {
	const char *name, *section, *text;
	const char *after;      /* what the H100 does next, and ptxi with --keep-going   */
	enum rule_break on_break;
};

const struct rule_info *rule_info(enum rule_id r);
/* "PTX ISA " before a section number; "" before another source (CUDA's guide). */
const char *rule_source(const char *section);

struct warp;
struct strbuf;
/* The linear thread ids of `lanes` of warp w, as ranges: "threads 0-15, 20" / "thread 7". */
void describe_lanes(const struct warp *w, uint32_t lanes, struct strbuf *b);

#endif
