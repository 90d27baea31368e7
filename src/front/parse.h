/*
 * parse.h - what the grammar (grammar/ptx.y), the lexer and the IR builders (ir*.c) share:
 * the parser context, the semantic value types, and the ir_* builder calls the grammar
 * actions make. Nothing outside the front end includes this.
 */
#ifndef PTXI_PARSE_H
#define PTXI_PARSE_H

#include <stdbool.h>
#include <stdint.h>

#include "support/diag.h"
#include "ir.h"
#include "lex.h"

/* How an expression was written, where that changes what it means. */
enum pform {
	PF_PLAIN,
	PF_NONE,        /* absent (an initializer that was not given)                      */
	PF_ADDEXPR,     /* name+imm outside brackets: an OPND_ADDR until it meets [ ]      */
	PF_BRACKET,     /* [ ... ] or name[imm]                                             */
	PF_PAREN,       /* ( list ): an OPND_LIST, or one value in parentheses              */
	PF_GENERIC,     /* generic(name) in an initializer                                 */
};

/* An operand or constant expression while it is parsed. These live on the parser's
 * expression stack (parser.ex); Bison's values are indices into it, so its stack stays small.
 * A builder replaces its operands, which are always the topmost entries, by its result. */
struct pexpr {
	struct ir_operand o;
	uint8_t form;           /* enum pform of the expression itself                      */
	uint8_t has;            /* PH_* bits: forms found anywhere inside (itself included) */
	bool is_unsigned;       /* integer constant of type .u64 (U suffix, or too big)    */
};
enum { PH_ADDEXPR = 1, PH_GENERIC = 2, PH_BRACKET = 4, PH_UNSIGNED = 8 };

/* Elements pushed on the parser's operand stack: [start, start + n). */
struct plist {
	uint32_t start, n;
};

struct dims {
	uint64_t nelem;         /* product of the dimensions                                */
	bool is_array, unsized, bad;
};

/* Parameters before their function exists: chained through next_in_scope. */
struct sym_list {
	struct ir_sym *head, *tail;
	uint32_t n;
};

enum { LINK_VISIBLE = 1, LINK_EXTERN = 2, LINK_WEAK = 4, LINK_COMMON = 8 };

/* The part of a declaration before the names: state space, alignment, type, vector. */
struct declspec {
	enum ir_mod space, type, ptr_space;
	int vec;
	uint32_t align;
	bool is_ptr, bad;
	unsigned linkage;
	struct src_span span;
};

/* Where the module header stands: .version, then .target (one or more), then optionally
 * .address_size, then declarations and functions (ISA 11.1; ptxas insists on the order). */
enum header_state { HDR_NONE, HDR_VERSION, HDR_TARGET, HDR_ADDRESS_SIZE, HDR_DONE };

struct parser {
	struct lexer lx;
	struct ir_module *m;
	struct arena *a;                /* where builders allocate: the module's arena, or
					   `scratch` inside a body that will be dropped      */
	struct arena *scratch;          /* bodies with hooks.drop_bodies, reset after each */
	struct ir_hooks hooks;
	enum header_state header;
	struct diag *d;
	struct src_file *file;
	int last_tok;                   /* kind of the last token the lexer returned       */
	struct src_span tok, prev_tok;  /* its span, and the span of the one before        */
	struct ir_scope *builtin;       /* special registers                               */
	struct ir_func *func;           /* function whose body is open, or NULL            */
	struct ir_scope *scope;         /* innermost open scope                            */
	struct declspec *spec;          /* of the declaration being parsed                 */
	struct dims dims;               /* of the declarator being parsed (never nested)   */
	bool in_body;                   /* between a function's { and }                    */
	const struct ir_loc *loc;       /* last .loc of the body                           */
	const struct ir_loc *locs[64];  /* recent .locs, for inlined_at (a ring)           */
	uint32_t nlocs;
	struct src_span loc_func;       /* attributes of the .loc being parsed             */
	uint32_t loc_inl[3];
	bool loc_has_inl;
	/* Scratch, reused statement after statement (malloc'd, freed by ir_parse). */
	struct ir_operand *ostk;        /* operand stack for lists, vectors, operand lists */
	uint8_t *fstk;                  /* PH_* bits of each stacked operand               */
	uint32_t osp, ocap;
	struct src_span *words;         /* modifiers / declaration attributes              */
	uint32_t nwords, wcap;
	uint32_t ints[4];               /* int list of a performance directive             */
	struct pexpr *ex;               /* expression stack                                */
	uint32_t nex, excap;
	struct ir_insn *insns;          /* the open function's instructions               */
	uint32_t ninsns, icap;
	struct pending *pend;           /* initializers and target lists to resolve        */
	uint32_t npend, pcap, pend_func;
	uint32_t nblocks;               /* open { } blocks inside the function             */
	bool redefining;                /* the open function already had a body            */
	bool quiet_orphans;             /* a broken header: drop its body silently         */
};

/* A symbol whose initializer or target list names other symbols. */
struct pending {
	struct ir_sym *sym;
	struct ir_scope *scope;
};

/* Module header and line information. ir_header comes first for each header directive
 * and reports one out of order (HDR_VERSION, HDR_TARGET or HDR_ADDRESS_SIZE). */
void ir_header(struct parser *p, struct src_span at, enum header_state which);
void ir_version(struct parser *p, struct src_span num);
void ir_target(struct parser *p, struct src_span name);
void ir_address_size(struct parser *p, struct src_span num);
void ir_file(struct parser *p, struct src_span idx, struct src_span path);
void ir_loc(struct parser *p, struct src_span file, struct src_span line, struct src_span col);
void ir_loc_func(struct parser *p, struct src_span key, struct src_span label);
void ir_loc_inlined(struct parser *p, struct src_span key, struct src_span file,
		    struct src_span line, struct src_span col);
void ir_section(struct parser *p, struct src_span s);
void ir_pragma(struct parser *p, struct src_span str);

/* Modifier and attribute words: collected in order, consumed by the next builder. */
uint32_t ir_words_begin(struct parser *p);
uint32_t ir_words_push(struct parser *p, uint32_t n, struct src_span w);
uint32_t ir_words_align(struct parser *p, uint32_t n, struct src_span kw, struct src_span num);

/* Declarations. */
struct declspec *ir_declspec(struct parser *p, unsigned linkage, struct src_span space,
			     uint32_t nattrs, struct src_span all);
struct dims *ir_dims_none(struct parser *p);
struct dims *ir_dims_add(struct parser *p, struct dims *d, uint32_t n, struct src_span s);
struct dims *ir_dims_unsized(struct parser *p, struct dims *d, struct src_span s);
void ir_declare(struct parser *p, struct src_span name, const struct dims *d, uint32_t init,
		struct src_span all);
void ir_declare_range(struct parser *p, struct src_span name, struct src_span n,
		      struct src_span all);
struct sym_list *ir_params_none(struct parser *p);
struct sym_list *ir_params_add(struct parser *p, struct sym_list *l, struct declspec *s,
			       struct src_span name, const struct dims *d);

/* Functions. */
struct ir_func *ir_func_begin(struct parser *p, unsigned linkage, bool is_entry,
			      struct sym_list *rets, struct src_span name, struct sym_list *params,
			      struct src_span all);
uint32_t ir_ints_first(struct parser *p, struct src_span n);
uint32_t ir_ints_push(struct parser *p, uint32_t count, struct src_span n);
void ir_perf(struct parser *p, struct src_span dir, uint32_t nints);
void ir_func_body_begin(struct parser *p, struct src_span brace);
void ir_func_end(struct parser *p, struct src_span close);
void ir_func_decl_end(struct parser *p, struct src_span semi);
void ir_block_open(struct parser *p, struct src_span brace);
void ir_block_close(struct parser *p, struct src_span brace);
void ir_proto(struct parser *p, struct src_span label, struct sym_list *rets,
	      struct sym_list *params, struct src_span all);
void ir_targets(struct parser *p, struct src_span label, struct plist l, struct src_span all);

/* Instructions and operands. */
void ir_label(struct parser *p, struct src_span name);
void ir_insn_new(struct parser *p, uint32_t guard, struct src_span opcode,
		 uint32_t nmods, struct plist opnds, struct src_span all);
uint32_t ir_guard(struct parser *p, bool neg, struct src_span name, struct src_span all);
uint32_t ir_guard_none(struct parser *p);
struct plist ir_list_first(struct parser *p, uint32_t e);
struct plist ir_list_push(struct parser *p, struct plist l, uint32_t e);
struct plist ir_list_empty(struct parser *p);

uint32_t ir_e_int(struct parser *p, struct src_span s);
uint32_t ir_e_float(struct parser *p, struct src_span s);
uint32_t ir_e_name(struct parser *p, struct src_span s);
uint32_t ir_e_comp(struct parser *p, struct src_span name, struct src_span comp,
		       struct src_span all);
uint32_t ir_e_sink(struct parser *p, struct src_span s);
uint32_t ir_e_paren(struct parser *p, struct plist l, struct src_span all);
uint32_t ir_e_vector(struct parser *p, struct plist l, struct src_span all);
uint32_t ir_e_addr(struct parser *p, uint32_t e, struct src_span all);
uint32_t ir_e_addr_suffix(struct parser *p, uint32_t e, struct src_span word,
			 struct src_span all);
/* [a, b, ...]: the operand list of a texture, surface or tensor access (e.g. a tensor map
 * and its coordinates), which only instructions ptxi does not model take. */
uint32_t ir_e_addr_list(struct parser *p, uint32_t first, struct plist rest,
			struct src_span all);
uint32_t ir_e_index(struct parser *p, struct src_span name, uint32_t e,
			struct src_span all);
uint32_t ir_e_call(struct parser *p, struct src_span fn, uint32_t arg,
		       struct src_span all);
uint32_t ir_e_cast(struct parser *p, struct src_span type, uint32_t e,
		       struct src_span all);
uint32_t ir_e_unary(struct parser *p, int op, uint32_t e, struct src_span all);
uint32_t ir_e_binary(struct parser *p, int op, uint32_t l, uint32_t r,
			 struct src_span opspan, struct src_span all);
uint32_t ir_e_cond(struct parser *p, uint32_t c, uint32_t t, uint32_t f,
		       struct src_span all);

/* Binary operators that have no single-character token. */
enum { EOP_SHL = 256, EOP_SHR, EOP_LE, EOP_GE, EOP_EQ, EOP_NE, EOP_ANDAND, EOP_OROR };

/* Bison's error callback: one syntax error message. `lexcase` says what the offending
 * token was when that matters more than the grammar's view: 0 any token, 1 the invalid
 * character token, 2 a preprocessor line. */
void ir_syntax_error(struct parser *p, const struct src_span *loc, const char *msg, int lexcase);
int ptx_parse(struct parser *p);

#endif
