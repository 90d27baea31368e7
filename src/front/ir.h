/*
 * ir.h - the intermediate representation of a PTX module, as the parser builds it.
 * Everything here is owned by the module's arena. Names are resolved to symbols and labels
 * to instruction indices when a function body closes; the loader (load.c) turns a checked
 * module into decoded kernels and never looks at strings again.
 */
#ifndef PTXI_IR_H
#define PTXI_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "support/arena.h"
#include "support/diag.h"

/* Opcodes: one enum value per row of ops.def. */
enum ir_family {
	FAM_ALU, FAM_MOVE, FAM_MEM, FAM_CTRL, FAM_WARP, FAM_SYNC, FAM_MBAR, FAM_ASYNC,
	FAM_TMA,        /* tensor copies and tensor maps (exec_tma.c) */
	FAM_MMA,        /* warp matrix instructions (exec_mma.c) */
	FAM_WGMMA,      /* warpgroup MMA and setmaxnreg (exec_wgmma.c)                  */
	FAM_UNMODELLED, /* read and accepted, not run (ops.def says which) */
	FAM_UNSUPPORTED, /* valid PTX ptxi refuses: check errors, the loader rejects it */
};

enum ir_op {
#define OP(name, spelling, family, dests, lits, decode, exec, check) OP_##name,
#include "ops.def"
#undef OP
	OP__COUNT
};

/* Modifiers: one enum value per row of mods.def. MOD_NONE (0) means "absent". */
enum ir_mod_kind {
	MK_TYPE, MK_SPACE, MK_VEC, MK_ROUND, MK_CMP, MK_SEM, MK_SCOPE, MK_CACHE, MK_SHAPE, MK_OTHER
};

enum ir_mod {
	MOD_NONE,
#define MOD(name, spelling, kind, arg) MOD_##name,
#include "mods.def"
#undef MOD
	MOD__COUNT
};

const char *ir_op_name(enum ir_op op);
enum ir_family ir_op_family(enum ir_op op);
const char *ir_mod_name(enum ir_mod m);
enum ir_mod_kind ir_mod_kind(enum ir_mod m);
int ir_mod_arg(enum ir_mod m);              /* type size in bytes, vector lanes */
enum ir_mod ir_mod_lookup(const char *s, size_t len);  /* MOD_NONE if unknown */
/* Longest opcode spelled by `words` (words[0] is the identifier, the rest dotted words
 * without their leading dot); stores how many words it used. Returns OP__COUNT if none. */
enum ir_op ir_op_lookup(const char *const *words, const size_t *lens, int nwords, int *used);

/* Type helpers over MK_TYPE modifiers. */
static inline int ir_type_size(enum ir_mod t) { return t ? ir_mod_arg(t) : 0; }
bool ir_type_is_signed(enum ir_mod t);      /* .s8-.s64 */
bool ir_type_is_float(enum ir_mod t);       /* .f16 .f16x2 .bf16 .bf16x2 .f32 .f64 .tf32 */

/* ---- Symbols ---------------------------------------------------------------------------- */

enum ir_sym_kind {
	SYM_REG,        /* .reg variable (scalar or vector register)                      */
	SYM_REGRANGE,   /* .reg .b32 %r<N>: names prefix0 .. prefix(N-1)                  */
	SYM_VAR,        /* variable in .global .shared .local .const .param (memory)      */
	SYM_LABEL,      /* instruction label                                              */
	SYM_FUNC,       /* .entry or .func                                                */
	SYM_PROTO,      /* label: .callprototype ...                                      */
	SYM_TARGETS,    /* label: .branchtargets / .calltargets list                      */
	SYM_SREG,       /* special register (%tid, %ctaid, %cluster_ctarank, ...)          */
};

/* An initializer element of a .global/.const variable: a constant, or a symbol address. */
struct ir_init {
	enum { INIT_INT, INIT_F32, INIT_F64, INIT_SYM, INIT_GENERIC_SYM } kind;
	int64_t i;              /* INT; offset for SYM kinds                                  */
	double f;
	uint64_t bits;          /* raw bits of 0f/0d literals                                 */
	struct ir_sym *sym;     /* SYM kinds (resolved at module end)                         */
	const char *name;       /* SYM kinds, unresolved name                                 */
	uint32_t name_len;
	struct src_span span;
};

struct ir_func;

struct ir_sym {
	enum ir_sym_kind kind;
	const char *name;
	uint32_t name_len;
	struct src_span span;       /* the declaring name                                     */
	enum ir_mod space;          /* MOD_REG, MOD_SHARED, MOD_GLOBAL, ...                   */
	enum ir_mod type;           /* element type (a MK_TYPE modifier)                      */
	int vec;                    /* 1, 2, 4 (or 8)                                         */
	uint32_t align;             /* bytes; 0 = natural                                     */
	uint64_t nelem;             /* product of array dimensions (1 for scalars); 0 if [] */
	bool is_array;
	bool is_extern, is_visible, is_weak, is_ptr_param;
	bool is_param;              /* a formal parameter of a function or kernel              */
	bool is_retparam;           /* a .func return parameter                               */
	uint32_t range_n;           /* SYM_REGRANGE: N                                        */
	uint32_t label_index;       /* SYM_LABEL: index of the next instruction in its function */
	struct ir_func *func;       /* SYM_FUNC                                               */
	int sreg;                   /* SYM_SREG: enum sreg value (sreg.def)                   */
	struct ir_init *init;       /* initializer elements (flattened), NULL if none         */
	uint32_t ninit;
	struct ir_operand *targets; /* SYM_TARGETS list, SYM_PROTO params (see ir_func)       */
	uint32_t ntargets;
	struct ir_func *proto;      /* SYM_PROTO: a function header describing the signature  */
	/* Filled by the loader. */
	int32_t slot;               /* first register slot, or memory offset in its space     */
	uint64_t addr;
	struct ir_sym *next_in_scope;
};

/* A kernel's parameter block: 32,764 bytes (CUDA 12.1 and later on sm_70 and later). */
#define PTX_MAX_KPARAM 32764u

/* Bytes of a variable or parameter: element x vector x elements, saturated at UINT64_MAX
 * so that a size never wraps (the loader's limits then reject it). */
static inline uint64_t ir_sym_bytes(const struct ir_sym *s)
{
	uint64_t elem = (uint64_t)ir_type_size(s->type) * (uint64_t)(s->vec > 1 ? s->vec : 1);
	uint64_t n;
	if (__builtin_mul_overflow(elem, s->is_array ? s->nelem : 1, &n))
		return UINT64_MAX;
	return n;
}

/* The byte alignment of a variable or parameter: declared, else its element's. On a .ptr
 * parameter .align is the pointee's alignment (ISA 5.1.6.4), not its own: Triton's
 * `.param .u64 .ptr .global .align 1 p` is 8-byte aligned. */
static inline uint64_t ir_sym_align(const struct ir_sym *s)
{
	uint64_t a = s->align && !s->is_ptr_param
			     ? s->align
			     : (uint64_t)ir_type_size(s->type) * (uint64_t)(s->vec > 1 ? s->vec : 1);
	return a ? a : 1;
}

/* Offset s takes after `used` bytes of its space; *used grows past it (both saturate). */
static inline uint64_t ir_place(uint64_t *used, const struct ir_sym *s)
{
	uint64_t a = ir_sym_align(s), size = ir_sym_bytes(s);
	uint64_t at = *used > UINT64_MAX - (a - 1) ? UINT64_MAX : (*used + a - 1) / a * a;
	*used = at > UINT64_MAX - size ? UINT64_MAX : at + size;
	return at;
}

/* A lexical scope: a function body or a nested { } block (inline asm declares in those). */
struct ir_scope {
	struct ir_scope *parent;
	struct ir_sym *syms;        /* linked through next_in_scope, in declaration order     */
	struct ir_sym **table;      /* open-addressing hash on name, size tsize (power of 2)   */
	uint32_t tsize, count;
};

/* ---- Operands and instructions ---------------------------------------------------------- */

enum ir_opnd_kind {
	OPND_REG,       /* register or special register; ref.comp selects .x/.y/.z/.w       */
	OPND_SYM,       /* a name that is not a register: variable address, label, function */
	OPND_IMM,       /* integer constant (already folded)                                */
	OPND_FIMM,      /* float constant: 0fXXXXXXXX (f32) or 0dXXXXXXXXXXXXXXXX / decimal   */
	OPND_ADDR,      /* [base], [base+imm], [imm]; base is REG or SYM or absent          */
	OPND_VEC,       /* {a, b, c, d}; elements may be SINK                               */
	OPND_LIST,      /* (a, b) in call syntax                                            */
	OPND_SINK,      /* _                                                                */
	OPND_DUAL,      /* d|p: elems[0] and elems[1]                                       */
};

struct ir_operand {
	enum ir_opnd_kind kind;
	struct src_span span;
	bool neg;                   /* !p (predicate operand)                                */
	bool bare;                  /* OPND_ADDR written without brackets: sym+imm as a value */
	bool unified;               /* OPND_ADDR written [a].unified (ld and kin; check_mem.c) */
	union {
		struct {
			const char *name;
			uint32_t len;
			struct ir_sym *sym; /* resolved at function end; NULL while unresolved    */
			uint32_t index;     /* SYM_REGRANGE element, or 0                        */
			int comp;           /* -1 none, 0..3 for .x .y .z .w (.r .g .b .a)       */
		} ref;
		int64_t imm;
		struct {
			bool is_f32;        /* 0f literal: f32 bits in `bits`                     */
			uint64_t bits;      /* raw IEEE bits (f32 in low 32 for 0f, else f64)     */
		} fimm;
		struct {
			struct ir_operand *base;  /* REG or SYM operand, or NULL for [imm]        */
			int64_t off;
		} addr;
		struct {
			uint32_t n;
			struct ir_operand *elems;
		} vec;                  /* VEC, LIST, DUAL                                    */
	};
};

/* A source position from .loc: the .file index, line and column; for code inlined from
 * another function, that function's name (a label of .debug_str, such as
 * $L__info_string0) and the position it was inlined at (itself a .loc, and so on). */
struct ir_loc {
	uint32_t file, line, col;
	struct src_span func;       /* the function_name label; len 0 if none               */
	const struct ir_loc *inlined_at;
};

struct ir_insn {
	enum ir_op op;
	struct src_span span;       /* the whole instruction                                */
	struct src_span op_span;    /* the opcode and its modifiers                          */
	uint16_t nmods;
	enum ir_mod *mods;          /* in written order                                      */
	struct src_span *mod_spans;
	bool has_guard, guard_neg;
	struct ir_operand guard;    /* OPND_REG when has_guard                               */
	uint16_t nopnds;
	struct ir_operand *opnds;
	struct ir_scope *scope;     /* innermost scope the instruction sits in               */
	const struct ir_loc *loc;   /* from the last .loc of the body, NULL if none           */
};

/* Kernel / function performance directives (ISA 11.4, 11.7). 0 = not given. */
struct ir_perf {
	uint32_t maxntid[3], reqntid[3], reqnctapercluster[3];
	uint32_t minnctapersm, maxnreg, maxclusterrank;
	bool explicitcluster, noreturn;
};

struct ir_func {
	struct ir_sym *sym;
	bool is_entry;
	bool has_body;              /* false for prototypes / .extern declarations           */
	struct ir_sym **params;     /* formal parameters in order                            */
	uint32_t nparams;
	struct ir_sym **rets;       /* .func return parameters                               */
	uint32_t nrets;
	struct ir_perf perf;
	struct ir_scope *scope;     /* body scope (parameters live here too)                  */
	struct ir_insn *insns;      /* growable array                                        */
	uint32_t ninsns, cap;
	struct src_span span;
	struct ir_func *next;
};

struct ir_module {
	struct arena *arena;
	struct diag *diag;
	uint32_t nundeclared;                   /* "undeclared identifier" errors reported   */
	struct src_file *file;
	uint32_t version_major, version_minor;  /* .version; 0.0 if missing                 */
	struct src_span version_span, target_span; /* the first .version and .target words  */
	char target[64];                        /* first sm_XX target (e.g. "sm_90a")        */
	uint32_t sm;                            /* numeric: 90 for sm_90 / sm_90a           */
	bool sm_arch_specific;                  /* the 'a' suffix                            */
	bool sm_family_specific;                /* the 'f' suffix                            */
	uint32_t address_size;                  /* 32 or 64                                 */
	struct ir_scope *scope;                 /* module scope                              */
	struct ir_func *funcs, *funcs_tail;
	struct ir_sym **vars;                   /* module-level variables, in order          */
	struct ir_srcfile { uint32_t index; const char *path; } *files; /* .file table     */
	uint32_t nfiles, files_cap;
	uint32_t nvars, vars_cap;
	uint32_t nerrors;
};

/* What the caller wants done as each function body closes (names resolved, scope sealed):
 * `func_done` sees it (a checker checks it while it is still in cache); with `drop_bodies`
 * the body's instructions and local symbols are then freed, so a module of any length is
 * checked in the memory of its largest function, and the module keeps only declarations. */
struct ir_hooks {
	void (*func_done)(void *ctx, struct ir_module *m, struct ir_func *f);
	void *ctx;
	bool drop_bodies;
};

/* Parse a whole PTX text into a module (front.c). Diagnostics go to `d`; the module is
 * returned even when errors occurred (nerrors > 0), so callers can report them all. `hooks`
 * may be NULL. */
struct ir_module *ir_parse(struct arena *a, struct diag *d, struct src_file *file,
			   const struct ir_hooks *hooks);

/* Lookup from the innermost scope outward, then the module scope. Handles %r<N> ranges
 * (stores the element index). NULL if not found. */
struct ir_sym *ir_lookup(struct ir_module *m, struct ir_scope *s, const char *name, uint32_t len,
			 uint32_t *index);

/* Find a kernel (.entry with body) by name; NULL if absent. */
struct ir_func *ir_find_entry(struct ir_module *m, const char *name);

#endif
