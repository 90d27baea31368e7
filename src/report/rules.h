/*
 * rules.h - the table of run-time rules (rules.def): ids, names, manual sections, and
 * whether the hardware carries on after a break; and how the run reports a broken rule or
 * a run-time error at the current instruction (rules.c).
 */
#ifndef PTXI_RULES_H
#define PTXI_RULES_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

/* RB_WARN: a warning by default (--rule NAME=error makes it an error); the run carries on. */
enum rule_break { RB_CONTINUE, RB_FAULT, RB_WARN };

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
/* The rule named `name`, or -1. */
int rule_find(const char *name);
/* "PTX ISA " before a section number; "" before another source (CUDA's guide). */
const char *rule_source(const char *section);

struct launch;
struct warp;
struct strbuf;
/* The linear thread ids of `lanes` of warp w, as ranges: "threads 0-15, 20" / "thread 7". */
void describe_lanes(const struct warp *w, uint32_t lanes, struct strbuf *b);

/* Report a broken rule at the current instruction; `notes` adds context lines. Sets
 * L->status = 1 and L->stop for faulting rules unless keep-going allows continuing. */
__attribute__((format(printf, 4, 5)))
void rule_break(struct launch *L, enum rule_id r, uint32_t lanes, const char *fmt, ...);
void rule_break_notes(struct launch *L, enum rule_id r, uint32_t lanes, const char *notes,
		      const char *msg);
void rule_breakv(struct launch *L, enum rule_id r, uint32_t lanes, const char *notes,
		 const char *fmt, va_list ap);
/* "CTA (x,y,z) thread (x,y,z)" or a range, for the lanes of the current warp */
void describe_threads(struct launch *L, struct warp *w, uint32_t lanes, struct strbuf *b);
/* An error that is no rule (status 2: bad input, 1: the program's own failure). */
__attribute__((format(printf, 3, 4)))
void runtime_error(struct launch *L, int status, const char *fmt, ...);

#endif
