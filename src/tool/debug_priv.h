/*
 * debug_priv.h - what the files of `ptxi debug` share: the session (struct dbg), its
 * breakpoints and watchpoints, where the launch stopped and what is selected. debug.c runs
 * the session and decides where to stop; debug_cmd.c reads and runs the commands
 * (debug_cmds.def); debug_break.c keeps breakpoints and watchpoints; debug_print.c prints
 * values and memory; debug_show.c prints state; debug_input.c reads lines.
 */
#ifndef PTXI_DEBUG_PRIV_H
#define PTXI_DEBUG_PRIV_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "debug.h"
#include "run/debug_hook.h"
#include "run/launch.h"

/* Why the launch stopped. */
enum dbg_why { WHY_START, WHY_BREAK, WHY_WATCH, WHY_STEP, WHY_RULE, WHY_BLOCKED, WHY_INTERRUPT };

/* What the user asked the warp to do before the next stop. */
enum dbg_step { STEP_OFF, STEP_INSN, STEP_LINE, STEP_OVER, STEP_OUT };

/* What the session does once the launch has given control back. */
enum dbg_req { REQ_NONE, REQ_RUN, REQ_QUIT };

/* A condition term of a breakpoint: `warp == 1`, `%r4 != 0`, `cta == 1,0,0`. */
enum cond_lhs { COND_WARP, COND_THREAD, COND_LANE, COND_CTA, COND_REG };
enum cond_op { COP_EQ, COP_NE, COP_LT, COP_LE, COP_GT, COP_GE };
struct dbg_cond {
	enum cond_lhs lhs;
	enum cond_op op;
	char reg[64];               /* COND_REG: the register's name                          */
	uint64_t value;
	uint32_t cta[3];            /* COND_CTA                                               */
};

#define DBG_MAX_COND 4
#define DBG_MAX_POINTS 64
#define DBG_MAX_LOCS 64

/* A breakpoint (at instructions) or a watchpoint (on a word of memory); one numbering. */
struct dbg_point {
	uint32_t id;                /* 0: a free slot                                          */
	bool watch;
	char spec[128];             /* as the user wrote it                                    */
	uint32_t hits;
	/* breakpoint */
	struct dbg_loc { uint32_t fn, pc; } loc[DBG_MAX_LOCS];
	uint32_t nloc;
	struct dbg_cond cond[DBG_MAX_COND];
	uint32_t ncond;
	/* watchpoint: a 32-bit word of `space` (shared: of the CTA at `cta`) */
	enum mspace space;
	uint32_t cta[3];
	uint64_t addr;
	uint32_t old;
	bool have_old;
	const char *what;           /* "'full[0]'" or "" */
	char name[64];
};

struct dbg_input;

struct dbg {
	struct dbg_hooks hooks;
	FILE *out;
	struct dbg_input *in;
	/* the module, known from the first stop on (it outlives every launch) */
	struct dprog *P;
	struct src_file *file;
	/* the launch while it runs (NULL between launches) and where it stopped */
	struct launch *L;
	struct cluster *cl;
	bool stopped_at_end;        /* stopped in cluster_end: nothing more runs in it          */
	enum dbg_why why;
	struct warp *sw;            /* the warp and group at the stop (sg NULL at the end)     */
	struct group *sg;
	uint32_t stop_point;        /* the breakpoint or watchpoint that stopped it           */
	struct debug_out *outp;     /* the launch's diagnostics; the last rule reported        */
	/* the selection */
	struct warp *w;
	uint32_t lane;
	/* stepping */
	enum dbg_step step;
	struct warp *step_warp;
	uint32_t step_skip;         /* calls of step_warp to let pass before checking          */
	uint32_t step_line, step_depth;
	/* what ran last (a rule broken since is its) */
	struct warp *last_w;
	const struct dinsn *last_di;
	uint32_t last_mask;
	uint32_t reports;           /* gather_total at the last look                          */
	bool first;                 /* the launch has not stopped yet                         */
	enum dbg_req req;
	bool killing;               /* the launch is being ended: no stop, no output          */
	bool muted;
	struct dbg_point pt[DBG_MAX_POINTS];
	uint32_t next_id;
	uint32_t *bp_count;         /* per instruction of the program: breakpoints there       */
	uint32_t *bp_base;          /* per function: its first instruction's index in bp_count */
	uint32_t nvalues;           /* print's $N                                             */
	volatile int *interrupt;    /* Ctrl-C                                                  */
	int status;                 /* the last launch that ran to its end                    */
	bool ended;                 /* that launch ended                                      */
};

/* debug.c */
void dbg_stop_location(struct dbg *d);
uint32_t dbg_line(struct dbg *d, const struct dinsn *di);
const struct dinsn *dbg_insn(const struct group *g);
struct group *dbg_group_of(struct warp *w, uint32_t lane);
void dbg_rebuild_breakpoints(struct dbg *d);
bool dbg_write_error(struct dbg *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool dbg_reg_value(struct dbg *d, struct warp *w, struct frame *f, uint32_t lane,
		   const char *name, uint64_t *v, enum ir_mod *type);
struct cta *dbg_find_cta(struct dbg *d, const uint32_t c[3]);
bool dbg_watch_read(struct dbg *d, const struct dbg_point *p, uint32_t *v);
bool dbg_start_step(struct dbg *d, enum dbg_step how);

/* The commands (debug_cmds.def): each takes its arguments and returns true when the launch
 * should go on (or end). debug_cmd.c runs them and defines most; debug_break.c break,
 * watch and delete; debug_print.c print and x. */
typedef bool cmd_fn(struct dbg *d, char *args);
#define CMD(id, name, alias, running, usage, help) cmd_fn cmd_##id;
#include "debug_cmds.def"
#undef CMD

/* debug_cmd.c: the words commands share */
char *dbg_skip(char *s);
void dbg_trim(char *s);
bool dbg_number(char **s, uint64_t *v);
bool dbg_only_number(char *s, uint64_t *v);
bool dbg_coords(char *s, uint32_t c[3]);
const char *dbg_base_name(const char *path);

/* debug_break.c */
void dbg_info_breakpoints(struct dbg *d);

/* debug_print.c: "[SPACE] ADDR", "%reg" or "SYMBOL[+OFF]" as a space and an address (*sym the
 * variable named); the bytes there as the selected thread sees them (NULL after saying
 * why); a space's word */
bool dbg_mem_operand(struct dbg *d, char *a, enum mspace *space, uint64_t *addr,
		     const struct ir_sym **sym);
const uint8_t *dbg_mem_bytes(struct dbg *d, enum mspace space, uint64_t addr, uint64_t size);
const char *dbg_space_word(enum mspace s);

/* debug_cmd.c: run one command line; true when the launch should go on (or end). */
bool dbg_command(struct dbg *d, char *line);
/* The commands' loop while stopped (or with no launch): returns when one resumes. */
void dbg_repl(struct dbg *d);

/* debug_show.c */
void show_where(struct dbg *d, struct warp *w, struct group *g, const struct dinsn *di);
void show_source_line(struct dbg *d, uint32_t line);
void show_info_warps(struct dbg *d);
void show_info_threads(struct dbg *d);
void show_info_mbarriers(struct dbg *d);
void show_info_copies(struct dbg *d);
void show_info_barriers(struct dbg *d);
void show_backtrace(struct dbg *d);
void show_wait(struct dbg *d, struct warp *w, struct group *g, struct strbuf *b);
void show_mbar_name(struct dbg *d, const struct cta *c, uint32_t off, struct strbuf *b);

/* debug_input.c */
struct dbg_input *input_new(const struct debug_script *s);
/* The next command line (malloc'd), or NULL when the input ends. */
char *input_line(struct dbg_input *in, FILE *out);
void input_free(struct dbg_input *in);

#endif
