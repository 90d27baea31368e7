/*
 * check_priv.h - what the check_*.c files share (private to the static checker): the
 * checker's state, modifier groups, operand kinds, type sets, and the helpers and per-family
 * checks each file offers the others.
 */
#ifndef PTXI_CHECK_PRIV_H
#define PTXI_CHECK_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "check.h"
#include "front/checks.h"

/* Modifier groups: at most one modifier of each group on one instruction. */
enum ck_group { G_NONE, G_LEAD, G_SEM, G_SCOPE, G_SPACE, G_TYPE, G_COMPLETION, G_MULTICAST,
		G_CACHE, G_OTHER, G_SPACES, G_VEC, G_OP, G_PRIORITY, G__COUNT };
/* G_SPACES: state spaces of a copy (destination, source), checked by the opcode's function.
 * G_PRIORITY: createpolicy's primary and secondary eviction priorities (ck_policy_check), which
 * may repeat a word. */

/* Operand kinds of CK_OPND rows. */
enum ck_kind {
	K_NONE,
	K_MBAR,         /* [addr] of an mbarrier object: shared variable or register, not [imm] */
	K_U32,          /* 32-bit integer register or integer constant                         */
	K_U64,          /* 64-bit integer register or integer constant                         */
	K_STATE,        /* 64-bit integer register destination, or _ (check_operands.c)        */
	K_PRED_D,       /* predicate register destination, no sink                             */
	K_U32_D,        /* 32-bit integer register destination                                 */
	K_U64_D,        /* 64-bit integer register destination                                 */
	K_TY_D,         /* integer register destination of the instruction type's width        */
	K_TY_A,         /* integer register of the instruction type's width, or a variable     */
	K_ELECT,        /* d|p: 32-bit register or _, then a predicate register                */
	K_IMM,          /* integer constant                                                    */
};

enum { CF_PAIR = 1, CF_NEED_TYPE = 2, CF_CUSTOM = 4, CF_OWN_FORM = 8 };
enum { MF_LEAD = 1 };

struct ck_modrule {
	enum ir_op op;
	enum ir_mod mod;
	uint8_t group, flags;
	uint16_t ptx, sm;
};

struct ck_oprule {
	bool known, has_opnds;
	uint8_t flags, min, max;
	uint8_t kinds[6];
	uint16_t ptx, sm;
	uint16_t first_mod, nmods;  /* slice of modrules                                       */
};

/* Sets of instruction types for the typed-instruction rows: one bit per MK_TYPE modifier. */
#define T(t) (1u << MOD_##t)
#define T_BIT(m) ((unsigned)(m) < 32 ? 1u << (m) : 0u)
#define TS_U (T(U16) | T(U32) | T(U64))
#define TS_S (T(S16) | T(S32) | T(S64))
#define TS_I (TS_U | TS_S)
#define TS_I32_64 (T(U32) | T(S32) | T(U64) | T(S64))
#define TS_B (T(B16) | T(B32) | T(B64))
#define TS_F (T(F32) | T(F64))
#define TS_H (T(F16) | T(F16X2))
#define TS_BH (T(BF16) | T(BF16X2))
#define TS_I2 (T(U16X2) | T(S16X2))
_Static_assert(MOD_E5M2X2 < 32 && MOD_S16X2 < 32, "type sets are 32-bit masks over the MK_TYPE modifiers");

/* Where one opcode's rows start in a table and how many there are. */
struct ck_slice {
	uint16_t first, n;
};

struct ck {
	struct ir_module *m;
	check_loc_note_fn *loc_note; /* NULL: no source notes                                */
	int errors;
	unsigned ver;               /* major*10 + minor                                     */
	unsigned sm;                /* 0 if no sm_XX target                                 */
	struct ck_oprule ops[OP__COUNT];
	struct ck_slice alu[OP__COUNT], amod[OP__COUNT], needs[OP__COUNT];
	bool noted[OP__COUNT];      /* an instruction ptxi does not model was reported        */
	const struct ir_insn *cur;  /* the instruction being checked (its .loc: a note)        */
	const char *cur_func;       /* the name of its function                               */
	struct shared_plan *sp;     /* each body's .shared names, for the kernels' sizes      */
	bool sp_oom;
};

/* What the generic pass found among an instruction's modifiers. */
struct mods {
	enum ir_mod by_group[G__COUNT];
	int at[G__COUNT];               /* index into in->mods, -1 if absent                  */
	bool bad;                       /* some modifier was rejected                          */
};

/* A checker (the CHECKER column of ops.def): what checkrules.def's rows cannot say about one
 * instruction. ms: its modifiers by group, or NULL where the generic pass does not run
 * (opcodes without CK_OP rows, and CF_OWN_FORM ones). */
typedef void ck_fn(struct ck *c, const struct ir_insn *in, const struct mods *ms);
#define OP(name, spelling, family, dests, lits, decode, exec, check) ck_fn check;
#include "front/ops.def"
#undef OP

/* The dotted words of an instruction's opcode text after its first `skip` ones (the
 * opcode's own), as written: for the families whose checkers read words mods.def need not
 * know (shapes, .acc::f32 ...) in any order, as ptxas does. */
struct ck_words {
	const char *w[24];
	size_t n[24];
	unsigned count;
	bool overflow;          /* more than 24 words                                       */
};

/* check.c */
void ck_words(const struct ck *c, const struct ir_insn *in, unsigned skip, struct ck_words *ws);
bool ck_word_is(const struct ck_words *ws, unsigned i, const char *s);
__attribute__((format(printf, 4, 5)))
void ck_report(struct ck *c, enum check_id k, struct src_span s, const char *fmt, ...);
__attribute__((format(printf, 5, 6)))
bool ck_need(struct ck *c, struct src_span s, unsigned ptx, unsigned sm, const char *fmt, ...);
const char *ck_spell(char *buf, size_t cap, const char *a, const char *b, const char *c);
bool ck_check_sreg_use(struct ck *c, const struct ir_insn *in, const struct ir_operand *o);

/* check_operands.c */
enum ir_mod ck_reg_type(const struct ir_operand *o);
bool ck_is_sreg(const struct ir_operand *o);
bool ck_is_int_type(enum ir_mod t);
bool ck_is_int_reg(const struct ir_operand *o, int bytes);
bool ck_is_pred_reg(const struct ir_operand *o);
bool ck_check_addr(struct ck *c, const struct ir_insn *in, const struct ir_operand *o,
		   int idx, bool want_shared, bool want_global);
void ck_check_kind(struct ck *c, const struct ir_insn *in, int i, enum ck_kind k,
		   enum ir_mod ty);

/* ck_check_mods.c */
void ck_check_mods(struct ck *c, const struct ir_insn *in, struct mods *ms);
struct src_span ck_mod_span(const struct ir_insn *in, const struct mods *ms, int g);
void ck_mods_index(struct ck *c);

/* check_typed.c */
bool ck_is_float_type(enum ir_mod t);
bool ck_reg_fits(enum ir_mod r, enum ir_mod t);
const char *ck_type_words(enum ir_mod t);
bool ck_has_mod(const struct ir_insn *in, enum ir_mod m);
void ck_list_mods(char *buf, size_t cap, const enum ir_mod *ms, int n);
void ck_typed_check(struct ck *c, const struct ir_insn *in);
void ck_typed_index(struct ck *c);

/* check_mem.c */
bool ck_unified_check(struct ck *c, const struct ir_insn *in);

/* check_cvt.c */
bool ck_reg_fits_wide(enum ir_mod r, enum ir_mod t);

/* check_flow.c */

/* check_mem.c */

#endif
