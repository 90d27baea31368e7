/*
 * timeline.h - --timeline FILE.html: the launch as a picture. The interpreter reports what a
 * learner needs to see (barrier operations with their state before -> after, waits,
 * asynchronous copies from issue to landing, phase completions, rule breaks, the deadlock
 * state); at the end one self-contained HTML page draws it (inline SVG and script).
 * Memory stays bounded: past TL_DETAILED events only per-row counts are kept.
 */
#ifndef PTXI_TIMELINE_H
#define PTXI_TIMELINE_H

#include <stdint.h>
#include <stdio.h>

#define TL_DETAILED 100000

enum tl_kind {
	TL_INIT,        /* mbarrier.init / inval                                        */
	TL_ARRIVE,      /* an arrive-on by threads                                      */
	TL_TX,          /* expect-tx / complete-tx by threads                           */
	TL_LAND,        /* an asynchronous copy or arrive landed on a barrier           */
	TL_WAIT_TRUE,   /* a wait that answered True                                    */
	TL_WAIT_FALSE,  /* a wait that answered False                                   */
	TL_RULE,        /* a rule broken                                                */
	TL_BLOCKED,     /* a place where threads wait forever (deadlock)                */
	TL__KINDS
};

struct launch;
struct warp;
struct dinsn;
struct timeline;

struct timeline *tl_create(void);
void tl_free(struct timeline *t);

/* A mark of `kind` by `lanes` of w at the current step and instruction (L->ci); `barrier`
 * (may be NULL) identifies the mbarrier, `label` names it; phases before .. after-1 were
 * completed by it. `text` is what the hover shows. */
void tl_mark(struct launch *L, struct warp *w, uint32_t lanes, enum tl_kind kind,
	     const void *barrier, const char *label, uint64_t phase_before, uint64_t phase_after,
	     const char *text);
/* A span on w's row from step `since` to now: a wait that parked (or, for TL_BLOCKED, one
 * that never ends), or an asynchronous copy of `insn` from its issue to its landing. */
void tl_wait(struct launch *L, struct warp *w, uint32_t lanes, uint64_t since, const char *text);
void tl_copy(struct launch *L, struct warp *w, const struct dinsn *insn, uint64_t issued,
	     uint32_t bytes, const char *what);

/* The launch's schedule ends here: the steps a report runs after it (watching a loop a
 * while to say what it polls) are no part of the page, whose events end here too. */
void tl_stop(struct launch *L);

/* Write the page; returns 0, or -1 if writing failed. */
int tl_write_html(const struct timeline *t, struct launch *L, FILE *out);

#endif
