/*
 * rules.c - the rule table and how a broken rule is reported: the instruction's location,
 * the rule's name, the threads involved, and what the hardware does next.
 */
#include "rules.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "run/launch.h"
#include "gather.h"
#include "level.h"
#include "srcloc.h"
#include "timeline.h"

static const struct rule_info rules[RULE__COUNT] = {
#define RULE(id, name, section, on_break, text, after)                                    \
	[RULE_##id] = {name, section, text, after, on_break},
#include "rules.def"
#undef RULE
};

const struct rule_info *rule_info(enum rule_id r)
{
	return &rules[r];
}

int rule_find(const char *name)
{
	for (int r = 0; r < RULE__COUNT; r++)
		if (strcmp(rules[r].name, name) == 0)
			return r;
	return -1;
}

const char *rule_source(const char *section)
{
	return section[0] >= '0' && section[0] <= '9' ? "PTX ISA " : "";
}

/* Linear thread ids of `lanes` of warp w, as ranges: "threads 0-31, 40" or "thread 7". */
void describe_lanes(const struct warp *w, uint32_t lanes, struct strbuf *b)
{
	uint32_t base = w->id * LANES;
	if (__builtin_popcount(lanes) == 1) {
		sb_printf(b, "thread %u", base + (uint32_t)__builtin_ctz(lanes));
		return;
	}
	sb_printf(b, "threads ");
	bool first = true;
	for (int i = 0; i < LANES;) {
		if (!(lanes >> i & 1)) {
			i++;
			continue;
		}
		int j = i;
		while (j + 1 < LANES && (lanes >> (j + 1) & 1))
			j++;
		sb_printf(b, first ? "%u" : ", %u", base + (uint32_t)i);
		if (j > i)
			sb_printf(b, "-%u", base + (uint32_t)j);
		first = false;
		i = j + 1;
	}
}

/* "CTA (0,0,0) (cluster rank 1) thread 3 (3,0,0)" or "CTA (0,0,0) threads 0-31, 40". */
void describe_threads(struct launch *L, struct warp *w, uint32_t lanes, struct strbuf *b)
{
	struct cta *c = w->cta;
	sb_printf(b, "CTA (%u,%u,%u)", c->ctaid[0], c->ctaid[1], c->ctaid[2]);
	if (L->cfg.cluster[0] * L->cfg.cluster[1] * L->cfg.cluster[2] > 1)
		sb_printf(b, " (cluster rank %u)", c->rank);
	sb_printf(b, " ");
	describe_lanes(w, lanes, b);
	if (__builtin_popcount(lanes) == 1) {
		uint32_t t = w->id * LANES + (uint32_t)__builtin_ctz(lanes);
		uint32_t bx = L->cfg.block[0], by = L->cfg.block[1];
		sb_printf(b, " (%u,%u,%u)", t % bx, (t / bx) % by, t / (bx * by));
	}
}

/* A report at the current instruction, in source terms where the module has .loc. */
static void report_at(struct launch *L, const char *notes, const char *msg)
{
	const struct ir_insn *in = L->ci ? L->ci->ir : NULL;
	srcloc_emit(L->diag, DIAG_ERROR, L->file, L->P ? L->P->m : NULL, in,
		    srcloc_func_of(L->P, L->ci), notes, msg);
}

void rule_break_notes(struct launch *L, enum rule_id r, uint32_t lanes, const char *notes,
		      const char *msg)
{
	const struct rule_info *ri = rule_info(r);
	enum sev level = rule_level_of(L, (int)r);
	if (level == SEV_OFF)
		return;
	struct strbuf text = {0}, n = {0};
	sb_printf(&text, "%s [%s]", msg, ri->name);
	if (notes && *notes)
		sb_printf(&n, "%s\n", notes);
	sb_printf(&n, "rule (%s%s): %s", rule_source(ri->section), ri->section, ri->text);
	bool warning = level == SEV_WARNING && ri->on_break != RB_FAULT;
	bool fatal = ri->on_break == RB_FAULT || (!L->cfg.keep_going && !warning);
	if (ri->on_break == RB_FAULT)
		sb_printf(&n, "\nthe hardware faults here: the launch stops (%s)", ri->after);
	else if (warning)
		sb_printf(&n, "\na warning (--rule %s=error makes it an error): carrying on as "
			  "the hardware does: %s", ri->name, ri->after);
	else if (L->cfg.keep_going)
		sb_printf(&n, "\n--keep-going: carrying on as the hardware does: %s", ri->after);
	else
		sb_printf(&n, "\nthe hardware carries on; --keep-going would too: %s", ri->after);
	gather_rule(L, ri->name, lanes ? lanes : L->cmask, n.s, text.s);
	if (L->timeline)
		tl_mark(L, L->cw, lanes ? lanes : L->cmask, TL_RULE, NULL, NULL, 0, 0, text.s);
	sb_free(&text);
	sb_free(&n);
	if (!warning && (L->status == 0 || L->status == 1))
		L->status = 1;
	if (fatal)
		L->stop = true;
}

void rule_breakv(struct launch *L, enum rule_id r, uint32_t lanes, const char *notes,
		 const char *fmt, va_list ap)
{
	char msg[512];
	vsnprintf(msg, sizeof msg, fmt, ap);
	rule_break_notes(L, r, lanes, notes, msg);
}

void rule_break(struct launch *L, enum rule_id r, uint32_t lanes, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	rule_breakv(L, r, lanes, NULL, fmt, ap);
	va_end(ap);
}

void runtime_error(struct launch *L, int status, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	struct strbuf n = {0};
	if (L->cw)
		describe_threads(L, L->cw, L->cmask, &n);
	gather_flush(L);
	gather_count(L, "runtime-error");
	report_at(L, n.s, msg);
	sb_free(&n);
	if (L->status == 0 || L->status == 1)
		L->status = status;
	L->stop = true;
}
