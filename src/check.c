/*
 * check.c - static legality of a parsed module, judged as ptxas 13.0 judges it: modifiers
 * allowed per opcode and their combinations and order, operand counts and kinds, literal
 * operands ptxas checks, and the PTX ISA version / target each feature needs. The rules are
 * data in checkrules.def; the few that tie modifiers to operands are functions below.
 * Errors are what ptxas rejects; warnings are what the manual forbids but ptxas accepts.
 */
#include "check.h"
#include "check_wgmma.h"
#include "checks.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Modifier groups: at most one modifier of each group on one instruction. */
enum ck_group { G_NONE, G_LEAD, G_SEM, G_SCOPE, G_SPACE, G_TYPE, G_COMPLETION, G_MULTICAST,
		G_CACHE, G_OTHER, G_SPACES, G_VEC, G_OP, G_PRIORITY, G__COUNT };
/* G_SPACES: state spaces of a copy (destination, source), checked by the opcode's function.
 * G_PRIORITY: createpolicy's primary and secondary eviction priorities (policy_check), which
 * may repeat a word. */

/* Operand kinds of CK_OPND rows. */
enum ck_kind {
	K_NONE,
	K_MBAR,         /* [addr] of an mbarrier object: shared variable or register, not [imm] */
	K_U32,          /* 32-bit integer register or integer constant                         */
	K_U64,          /* 64-bit integer register or integer constant                         */
	K_STATE,        /* 64-bit integer register destination, or _ (rules in check.c)        */
	K_PRED_D,       /* predicate register destination, no sink                             */
	K_U32_D,        /* 32-bit integer register destination                                 */
	K_U64_D,        /* 64-bit integer register destination                                 */
	K_TY_D,         /* integer register destination of the instruction type's width        */
	K_TY_A,         /* integer register of the instruction type's width, or a variable     */
	K_ELECT,        /* d|p: 32-bit register or _, then a predicate register                */
	K_IMM,          /* integer constant                                                    */
};

enum { CF_PAIR = 1, CF_NEED_TYPE = 2, CF_CUSTOM = 4 };
enum { MF_LEAD = 1 };

struct ck_modrule {
	enum ir_op op;
	enum ir_mod mod;
	uint8_t group, flags;
	uint16_t ptx, sm;
};

static const struct ck_modrule modrules[] = {
#define CK_MOD(op, mod, group, ptx, sm, flags) {OP_##op, MOD_##mod, group, flags, ptx, sm},
#include "checkrules.def"
};

struct ck_oprule {
	bool known, has_opnds;
	uint8_t flags, min, max;
	uint8_t kinds[6];
	uint16_t ptx, sm;
	uint16_t first_mod, nmods;  /* slice of modrules                                       */
};

struct ck_sregrule {
	int sreg;
	uint16_t ptx, sm;
};

enum ck_sreg_id {
#define SREG(name, spelling, shape, size) CKS_##name,
#include "sreg.def"
#undef SREG
};

/* Shape and size of each special register, from sreg.def. */
enum { SR_V4, SR_SCALAR, SR_PRED };
static const uint8_t sreg_shape[] = {
#define SREG(name, spelling, shape, size) shape,
#include "sreg.def"
#undef SREG
};
static const uint8_t sreg_size[] = {
#define SREG(name, spelling, shape, size) size,
#include "sreg.def"
#undef SREG
};

static const struct ck_sregrule sregrules[] = {
#define CK_SREG(s, ptx, sm) {CKS_##s, ptx, sm},
#include "checkrules.def"
};

static const uint16_t target_min[][2] = {
#define CK_TARGET(sm, ptx) {sm, ptx},
#include "checkrules.def"
};

/* Sets of instruction types for the typed-instruction rows: one bit per MK_TYPE modifier. */
#define T(t) (1u << MOD_##t)
#define T_BIT(m) (1u << (m))
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

/* CK_ALU rows: the types and operands of one opcode (with one variant modifier). */
struct ck_alurow {
	enum ir_op op;
	enum ir_mod variant;
	uint32_t types;
	const char *sig;
	uint16_t ptx, sm;
};
static const struct ck_alurow alurows[] = {
#define CK_ALU(op, variant, types, sig, ptx, sm) {OP_##op, MOD_##variant, types, sig, ptx, sm},
#include "checkrules.def"
};

/* CK_AMOD rows: a modifier allowed on a typed opcode, for some of its types. */
struct ck_amod {
	enum ir_op op;
	enum ir_mod mod;
	uint32_t types;
	uint16_t ptx, sm;
};
static const struct ck_amod amods[] = {
#define CK_AMOD(op, mod, types, ptx, sm) {OP_##op, MOD_##mod, types, ptx, sm},
#include "checkrules.def"
};

/* CK_NEED rows: one of `any` is mandatory with these types. */
struct ck_needrow {
	enum ir_op op;
	uint32_t types;
	enum ir_mod when;       /* the row applies only with this modifier (NONE: always)    */
	enum ir_mod any[6];
};
static const struct ck_needrow needrows[] = {
#define CK_NEED(op, types, m1, m2, m3, m4, m5, m6)                                           \
	{OP_##op, types, MOD_NONE, {MOD_##m1, MOD_##m2, MOD_##m3, MOD_##m4, MOD_##m5, MOD_##m6}},
#define CK_NEED_WITH(op, types, when, m)                                                     \
	{OP_##op, types, MOD_##when, {MOD_##m, MOD_NONE, MOD_NONE, MOD_NONE, MOD_NONE, MOD_NONE}},
#include "checkrules.def"
};

/* CK_ATOM rows: the types each atom/red operation takes. */
static const struct {
	enum ir_mod op;
	uint32_t types;
} atomrows[] = {
#define CK_ATOM(op, types) {MOD_##op, types},
#include "checkrules.def"
};

/* CK_RED_ASYNC rows: the types each red.async operation takes. */
static const struct {
	enum ir_mod op;
	uint32_t types;
} redasyncrows[] = {
#define CK_RED_ASYNC(op, types) {MOD_##op, types},
#include "checkrules.def"
};

/* CK_BULK_RED rows: the types each cp.reduce.async.bulk operation takes per destination. */
static const struct {
	enum ir_mod dst, op;
	uint32_t types;
} bulkredrows[] = {
#define CK_BULK_RED(dst, op, types) {MOD_##dst, MOD_##op, types},
#include "checkrules.def"
};

/* CK_MEMMOD rows: the semantics, scope and cache words ld/st take. */
static const struct {
	enum ir_op op;
	enum ir_mod mod;
	uint16_t ptx, sm;
} memmods[] = {
#define CK_MEMMOD(op, mod, ptx, sm) {OP_##op, MOD_##mod, ptx, sm},
#include "checkrules.def"
};

/* Where one opcode's rows start in a table and how many there are. */
struct ck_slice {
	uint16_t first, n;
};

struct ck {
	struct ir_module *m;
	int errors;
	unsigned ver;               /* major*10 + minor                                     */
	unsigned sm;                /* 0 if no sm_XX target                                 */
	struct ck_oprule ops[OP__COUNT];
	struct ck_slice alu[OP__COUNT], amod[OP__COUNT], needs[OP__COUNT];
	bool noted[OP__COUNT];      /* an instruction ptxi does not model was reported        */
};

/* ---- Reporting --------------------------------------------------------------------------- */

/* Report a break of static check k (checks.def) at its level, named "[name]". */
__attribute__((format(printf, 4, 5)))
static void report(struct ck *c, enum check_id k, struct src_span s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	c->errors += check_vreport(c->m->diag, c->m->file, k, s, fmt, ap);
	va_end(ap);
}

/* Report if the module's .version or .target is older than `ptx` / sm_`sm`. The format
 * names the feature ("'.relaxed' on mbarrier.arrive", "mbarrier.try_wait"); it is rendered
 * only when the feature is missing, as this runs for nearly every instruction. Returns
 * false if so. */
__attribute__((format(printf, 5, 6)))
static bool need(struct ck *c, struct src_span s, unsigned ptx, unsigned sm, const char *fmt, ...)
{
	bool old_ptx = ptx && c->ver < ptx, old_sm = sm && c->sm && c->sm < sm;
	if (!old_ptx && !old_sm)
		return true;
	char what[160];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	if (old_ptx)
		report(c, CHECK_PTX_VERSION, s, "%s needs PTX ISA %u.%u (module is %u.%u)", what,
		       ptx / 10, ptx % 10, c->ver / 10, c->ver % 10);
	if (old_sm)
		report(c, CHECK_SM_TARGET, s, "%s needs sm_%u or newer (target is %s)", what, sm,
		       c->m->target);
	return false;
}

/* An instruction's name as written ("atom.add.u32"): a, b and c joined, cut to fit. It is
 * wanted for messages on every checked instruction, so it costs no printf. */
static const char *spell(char *buf, size_t cap, const char *a, const char *b, const char *c)
{
	size_t n = 0;
	for (const char *part[] = {a, b, c}, **q = part; q < part + 3; q++)
		for (const char *t = *q; *t && n + 1 < cap; t++)
			buf[n++] = *t;
	buf[n] = '\0';
	return buf;
}

/* ---- Operand helpers --------------------------------------------------------------------- */

/* The declared type of a register operand (not a special register), or MOD_NONE. */
static enum ir_mod reg_type(const struct ir_operand *o)
{
	if (o->kind != OPND_REG || !o->ref.sym)
		return MOD_NONE;
	const struct ir_sym *y = o->ref.sym;
	if (y->kind != SYM_REG && y->kind != SYM_REGRANGE)
		return MOD_NONE;
	if (y->vec > 1 && o->ref.comp < 0)
		return MOD_NONE;
	return y->type;
}

static bool is_sreg(const struct ir_operand *o)
{
	return o->kind == OPND_REG && o->ref.sym && o->ref.sym->kind == SYM_SREG;
}

static bool is_int_type(enum ir_mod t)
{
	return t != MOD_NONE && t != MOD_PRED && !ir_type_is_float(t);
}

/* An integer register of `bytes` bytes (any of .bN .uN .sN). */
static bool is_int_reg(const struct ir_operand *o, int bytes)
{
	enum ir_mod t = reg_type(o);
	return is_int_type(t) && ir_type_size(t) == bytes;
}

static bool is_pred_reg(const struct ir_operand *o)
{
	return reg_type(o) == MOD_PRED;
}

static const char *kind_text(enum ck_kind k)
{
	switch (k) {
	case K_MBAR: return "an address in shared memory";
	case K_U32: return "a 32-bit integer register or a constant";
	case K_U64: return "a 64-bit integer register or a constant";
	case K_STATE: return "a 64-bit integer register or '_'";
	case K_PRED_D: return "a predicate register";
	case K_U32_D: return "a 32-bit integer register";
	case K_U64_D: return "a 64-bit integer register";
	case K_TY_D: return "an integer register of the instruction type's width";
	case K_TY_A: return "a register of the instruction type's width, a shared variable or a constant";
	case K_ELECT: return "'d|p' (a 32-bit register or '_', and a predicate register)";
	case K_IMM: return "an integer constant";
	default: return "nothing";
	}
}

/* Is a memory operand acceptable as an mbarrier/bulk address? Reports and returns false
 * otherwise. `spaces_ok` tells whether a variable of state space `v` may be named. */
static bool has_space(const struct ir_insn *in)
{
	for (unsigned i = 0; i < in->nmods; i++)
		if (ir_mod_kind(in->mods[i]) == MK_SPACE)
			return true;
	return false;
}

static bool check_addr(struct ck *c, const struct ir_insn *in, const struct ir_operand *o,
		       int idx, bool want_shared, bool want_global)
{
	const char *name = ir_op_name(in->op);
	if (o->kind != OPND_ADDR) {
		report(c, CHECK_OPND_KIND, o->span,
		       "operand %d of %s must be an address in brackets", idx + 1, name);
		return false;
	}
	const struct ir_operand *b = o->addr.base;
	if (!b) {
		report(c, CHECK_ADDRESS, o->span,
		       "%s cannot take an immediate address (only .local can)", name);
		return false;
	}
	if (b->kind == OPND_SYM && b->ref.sym) {
		const struct ir_sym *y = b->ref.sym;
		if (y->kind != SYM_VAR) {
			report(c, CHECK_ADDRESS, b->span, "'%.*s' is not a variable",
			       (int)y->name_len, y->name);
			return false;
		}
		bool shared = y->space == MOD_SHARED || y->space == MOD_SHARED_CTA ||
			      y->space == MOD_SHARED_CLUSTER;
		bool global = y->space == MOD_GLOBAL;
		if ((shared && want_shared) || (global && want_global))
			return true;
		report(c, CHECK_ADDRESS, b->span,
		       "operand %d of %s must be in %s memory ('%.*s' is %s)", idx + 1, name,
		       want_shared ? "shared" : "global", (int)y->name_len, y->name,
		       ir_mod_name(y->space));
		return false;
	}
	if (b->kind == OPND_REG) {
		enum ir_mod t = reg_type(b);
		if (!is_int_type(t) || (ir_type_size(t) != 4 && ir_type_size(t) != 8)) {
			report(c, CHECK_ADDRESS, b->span,
			       "an address register must be a 32- or 64-bit integer");
			return false;
		}
		if (ir_type_size(t) == 4 && !has_space(in) && c->m->address_size != 32 &&
		    in->op != OP_CP_ASYNC_MBAR_ARRIVE) {
			/* ptxas: 32-bit generic addressing is not supported (any target); it takes
			 * cp.async.mbarrier.arrive's 32-bit register as a shared address. */
			report(c, CHECK_ADDRESS, b->span,
			       "a generic address needs a 64-bit register in a 64-bit "
			       "module (or write a state space such as '.shared')");
			return false;
		}
	}
	return true;
}

/* Check one operand against a kind; `ty` is the instruction type (for K_TY_*). */
static void check_kind(struct ck *c, const struct ir_insn *in, int i, enum ck_kind k,
		       enum ir_mod ty)
{
	const struct ir_operand *o = &in->opnds[i];
	const char *name = ir_op_name(in->op);
	bool ok = true;
	if (is_sreg(o) && k != K_NONE) {
		report(c, CHECK_SREG, o->span,
		       "a special register cannot be an operand of %s (read it with mov)", name);
		return;
	}
	switch (k) {
	case K_NONE:
		return;
	case K_MBAR:
		check_addr(c, in, o, i, true, false);
		return;
	case K_U32:
		ok = o->kind == OPND_IMM || is_int_reg(o, 4);
		break;
	case K_U64:
		ok = o->kind == OPND_IMM || is_int_reg(o, 8);
		break;
	case K_STATE:
		ok = o->kind == OPND_SINK || is_int_reg(o, 8);
		break;
	case K_PRED_D:
		ok = is_pred_reg(o) && !o->neg;
		break;
	case K_U32_D:
		ok = is_int_reg(o, 4);
		break;
	case K_U64_D:
		ok = is_int_reg(o, 8);
		break;
	case K_TY_D:
		ok = is_int_reg(o, ir_type_size(ty));
		break;
	case K_TY_A: {
		/* a shared variable, alone or plus a constant (sbuf+8, kept as an address) */
		const struct ir_operand *v = o->kind == OPND_ADDR && o->bare ? o->addr.base : o;
		ok = is_int_reg(o, ir_type_size(ty)) || o->kind == OPND_IMM ||
		     (v && v->kind == OPND_SYM && v->ref.sym && v->ref.sym->kind == SYM_VAR &&
		      (v->ref.sym->space == MOD_SHARED || v->ref.sym->space == MOD_SHARED_CTA ||
		       v->ref.sym->space == MOD_SHARED_CLUSTER));
		break;
	}
	case K_ELECT:
		ok = o->kind == OPND_DUAL && o->vec.n == 2 &&
		     (o->vec.elems[0].kind == OPND_SINK || is_int_reg(&o->vec.elems[0], 4)) &&
		     is_pred_reg(&o->vec.elems[1]) && !o->vec.elems[1].neg;
		break;
	case K_IMM:
		ok = o->kind == OPND_IMM;
		break;
	}
	if (!ok)
		report(c, CHECK_OPND_KIND, o->span, "operand %d of %s must be %s", i + 1, name,
		       kind_text(k));
}

/* ---- Modifiers --------------------------------------------------------------------------- */

/* What the generic pass found among an instruction's modifiers. */
struct mods {
	enum ir_mod by_group[G__COUNT];
	int at[G__COUNT];               /* index into in->mods, -1 if absent                  */
	bool bad;                       /* some modifier was rejected                          */
};

static const struct ck_modrule *find_mod(const struct ck *c, enum ir_op op, enum ir_mod m)
{
	const struct ck_oprule *r = &c->ops[op];
	for (unsigned i = r->first_mod; i < r->first_mod + r->nmods; i++)
		if (modrules[i].mod == m)
			return &modrules[i];
	return NULL;
}

static void check_mods(struct ck *c, const struct ir_insn *in, struct mods *ms)
{
	const struct ck_oprule *r = &c->ops[in->op];
	const char *name = ir_op_name(in->op);
	bool seen_plain = false;
	for (int g = 0; g < G__COUNT; g++) {
		ms->by_group[g] = MOD_NONE;
		ms->at[g] = -1;
	}
	ms->bad = false;
	for (unsigned i = 0; i < in->nmods; i++) {
		enum ir_mod m = in->mods[i];
		struct src_span s = in->mod_spans[i];
		const struct ck_modrule *mr = find_mod(c, in->op, m);
		if (!mr) {
			if (ir_mod_kind(m) == MK_TYPE && (r->flags & CF_NEED_TYPE))
				report(c, CHECK_INSN_TYPE, s, "'%s' is not a valid type for %s",
				       ir_mod_name(m), name);
			else if (ir_mod_kind(m) == MK_SPACE)
				report(c, CHECK_MOD_NOT_ALLOWED, s,
				       "'%s' is not a valid state space for %s", ir_mod_name(m),
				       name);
			else
				report(c, CHECK_MOD_NOT_ALLOWED, s, "'%s' is not allowed on %s",
				       ir_mod_name(m), name);
			ms->bad = true;
			continue;
		}
		for (unsigned j = 0; j < i && mr->group != G_PRIORITY; j++)
			if (in->mods[j] == m) {
				report(c, CHECK_MOD_CONFLICT, s, "duplicate '%s' on %s",
				       ir_mod_name(m), name);
				ms->bad = true;
				goto next;
			}
		if (ms->at[mr->group] >= 0 && mr->group != G_SPACES && mr->group != G_PRIORITY) {
			report(c, CHECK_MOD_CONFLICT, s, "'%s' cannot be combined with '%s' on %s",
			       ir_mod_name(m), ir_mod_name(ms->by_group[mr->group]), name);
			ms->bad = true;
			continue;
		}
		if ((mr->flags & MF_LEAD) && seen_plain) {
			report(c, CHECK_MOD_ORDER, s, "'%s' must come right after '%s'",
			       ir_mod_name(m), name);
			ms->bad = true;
		}
		if (!(mr->flags & MF_LEAD))
			seen_plain = true;
		if (!need(c, s, mr->ptx, mr->sm, "'%s' on %s", ir_mod_name(m), name))
			ms->bad = true;
		ms->by_group[mr->group] = m;
		ms->at[mr->group] = (int)i;
	next:;
	}
	if ((r->flags & CF_NEED_TYPE) && ms->at[G_TYPE] < 0 && !ms->bad) {
		bool u32 = in->op == OP_MAPA || in->op == OP_GETCTARANK || in->op == OP_ST_ASYNC ||
			   in->op == OP_RED_ASYNC || in->op == OP_CP_REDUCE_ASYNC_BULK;
		report(c, CHECK_INSN_TYPE, in->op_span,
		       "%s needs an instruction type (such as '.%s')", name, u32 ? "u32" : "b64");
	}
	if (r->flags & CF_PAIR) {
		int se = ms->at[G_SEM], sc = ms->at[G_SCOPE];
		bool wait = in->op == OP_MBAR_TEST_WAIT || in->op == OP_MBAR_TRY_WAIT;
		bool tx = in->op == OP_MBAR_EXPECT_TX || in->op == OP_MBAR_COMPLETE_TX;
		const char *sem = wait ? ".acquire" : tx ? ".relaxed" : ".release";
		if (se >= 0 && sc < 0)
			report(c, CHECK_MEMORY_ORDER, in->mod_spans[se],
			       "'%s' requires a scope ('.cta' or '.cluster')",
			       ir_mod_name(in->mods[se]));
		else if (sc >= 0 && se < 0)
			report(c, CHECK_MEMORY_ORDER, in->mod_spans[sc],
			       "'%s' requires a memory order such as '%s'",
			       ir_mod_name(in->mods[sc]), sem);
	}
}

static struct src_span mod_span(const struct ir_insn *in, const struct mods *ms, int g)
{
	return ms->at[g] >= 0 ? in->mod_spans[ms->at[g]] : in->op_span;
}

/* ---- Per-opcode rules -------------------------------------------------------------------- */

/* mbarrier.arrive / arrive_drop (ISA 9.7.13.15.13, .14). */
static void arrive_check(struct ck *c, const struct ir_insn *in, const struct mods *ms)
{
	const char *name = ir_op_name(in->op);
	bool expect = ms->by_group[G_LEAD] == MOD_EXPECT_TX;
	bool nocomp = ms->by_group[G_LEAD] == MOD_NOCOMPLETE;
	bool remote = ms->by_group[G_SPACE] == MOD_SHARED_CLUSTER;
	bool has_count = in->nopnds >= 3;
	if (nocomp) {
		struct src_span s = mod_span(in, ms, G_LEAD);
		if (ms->by_group[G_SEM] == MOD_RELAXED)
			report(c, CHECK_MBARRIER_FORM, mod_span(in, ms, G_SEM),
			       "'.relaxed' cannot be combined with '.noComplete' on %s", name);
		if (ms->by_group[G_SCOPE] == MOD_CLUSTER)
			report(c, CHECK_MBARRIER_FORM, mod_span(in, ms, G_SCOPE),
			       "'.cluster' cannot be combined with '.noComplete' on %s", name);
		if (remote)
			report(c, CHECK_MBARRIER_FORM, mod_span(in, ms, G_SPACE),
			       "'.shared::cluster' cannot be combined with '.noComplete' on %s",
			       name);
		if (!has_count && in->nopnds == 2)
			report(c, CHECK_MBARRIER_FORM, s, "%s.noComplete requires a count operand",
			       name);
	}
	if (expect && in->nopnds == 2)
		report(c, CHECK_MBARRIER_FORM, in->op_span,
		       "%s.expect_tx requires a txCount operand", name);
	if (has_count && !expect && !nocomp) {
		need(c, in->opnds[2].span, 78, 90, "a count operand on %s without '.noComplete'",
		     name);
	}
	if (in->nopnds >= 1 && in->opnds[0].kind == OPND_SINK) {
		if (in->op == OP_MBAR_ARRIVE)
			need(c, in->opnds[0].span, 71, 0,
			     "the sink '_' as destination of mbarrier.arrive");
	} else if (remote && in->nopnds >= 1) {
		report(c, CHECK_MBARRIER_FORM, in->opnds[0].span,
		       "%s on '.shared::cluster' cannot return a state: the destination must be '_'",
		       name);
	}
	if (has_count && in->opnds[2].kind == OPND_IMM) {
		int64_t v = in->opnds[2].imm;
		if (!expect && v <= 0)
			report(c, CHECK_OPND_VALUE, in->opnds[2].span,
			       "%s count must be positive (is %" PRId64 ")", name, v);
		else if (!expect && v > 1048575)
			report(c, CHECK_MBAR_COUNT, in->opnds[2].span,
			       "%s count %" PRId64 " exceeds the limit 2^20-1 (undefined behaviour)",
			       name, v);
		else if (expect && (v < 0 || v > 1048575))
			report(c, CHECK_MBAR_COUNT, in->opnds[2].span,
			       "txCount %" PRId64 " is outside [0, 2^20-1] (undefined behaviour)",
			       v);
	}
}

/* mbarrier.test_wait / try_wait (ISA 9.7.13.15.16). */
static void wait_check(struct ck *c, const struct ir_insn *in, const struct mods *ms)
{
	bool parity = ms->by_group[G_LEAD] == MOD_PARITY;
	if (in->nopnds < 3)
		return;
	const struct ir_operand *o = &in->opnds[2];
	if (parity) {
		/* phaseParity replaces the 64-bit state: a 32-bit register or 0/1. */
		if (o->kind == OPND_IMM) {
			if (o->imm != 0 && o->imm != 1)
				report(c, CHECK_OPND_VALUE, o->span,
				       "phaseParity must be 0 or 1 (is %" PRId64 ")", o->imm);
		} else if (!is_int_reg(o, 4)) {
			report(c, CHECK_OPND_KIND, o->span,
			       "phaseParity must be a 32-bit integer register or 0/1");
		}
	}
}

/* Called for K_U64 at position 2 of the waits: .parity changes the kind. */
static enum ck_kind wait_kind(const struct ir_insn *in, const struct mods *ms, int i,
			      enum ck_kind k)
{
	if (i == 2 && ms->by_group[G_LEAD] == MOD_PARITY)
		return K_NONE;  /* checked in wait_check */
	return k;
}

/* The size operand of a bulk copy, reduction or prefetch (ISA 9.7.9.25.4): a 32-bit integer,
 * a constant multiple of 16 up to 1048560 (ptxas 13.0). */
static void bulk_size_check(struct ck *c, const struct ir_insn *in, int i)
{
	const char *name = ir_op_name(in->op);
	const struct ir_operand *size = &in->opnds[i];
	if (size->kind != OPND_IMM) {
		check_kind(c, in, i, K_U32, MOD_NONE);
		return;
	}
	if (size->imm % 16 != 0 || size->imm < 0)
		report(c, CHECK_OPND_VALUE, size->span,
		       "%s size %" PRId64 " is not a multiple of 16", name, size->imm);
	else if (size->imm > 1048560)
		report(c, CHECK_OPND_VALUE, size->span, "%s size %" PRId64 " exceeds 1048560", name,
		       size->imm);
	else if (size->imm == 0)
		report(c, CHECK_EMPTY_COPY, size->span, "%s of 0 bytes", name);
}

/* Bulk copy directions, destination <- source (ISA 9.7.9.25.4.1, .2). */
enum bulk_dir { D_G2C, D_G2CTA, D_C2C, D_C2G, D_BAD };

static enum bulk_dir bulk_direction(enum ir_mod dst, enum ir_mod src)
{
	if (dst == MOD_SHARED_CLUSTER && src == MOD_GLOBAL)
		return D_G2C;
	if (dst == MOD_SHARED_CTA && src == MOD_GLOBAL)
		return D_G2CTA;
	if (dst == MOD_SHARED_CLUSTER && src == MOD_SHARED_CTA)
		return D_C2C;
	if (dst == MOD_GLOBAL && src == MOD_SHARED_CTA)
		return D_C2G;
	return D_BAD;
}

/* cp.async.bulk goes every way; cp.reduce.async.bulk only out of the executing CTA. */
static bool bulk_dir_allowed(enum ir_op op, enum bulk_dir dir)
{
	return dir != D_BAD && (op == OP_CP_ASYNC_BULK || dir == D_C2C || dir == D_C2G);
}

/* cp.async.bulk and cp.reduce.async.bulk (ISA 9.7.9.25.4.1, .2): direction, completion
 * mechanism and operands. */
static void bulk_check(struct ck *c, const struct ir_insn *in, const struct mods *ms)
{
	const char *name = ir_op_name(in->op);
	/* The two state spaces, destination first. */
	enum ir_mod sp[2] = {MOD_NONE, MOD_NONE};
	struct src_span sps[2] = {in->op_span, in->op_span};
	int nsp = 0;
	enum ir_mod comp = MOD_NONE;
	bool mcast = false, hint = false;
	for (unsigned i = 0; i < in->nmods; i++) {
		enum ir_mod m = in->mods[i];
		if (ir_mod_kind(m) == MK_SPACE) {
			if (nsp < 2) {
				sps[nsp] = in->mod_spans[i];
				sp[nsp] = m;
			}
			nsp++;
		} else if (m == MOD_COMPLETE_TX_BYTES || m == MOD_BULK_GROUP) {
			comp = m;
		} else if (m == MOD_MULTICAST_CLUSTER) {
			mcast = true;
		} else if (m == MOD_L2_CACHE_HINT) {
			hint = true;
		}
	}
	if (nsp != 2) {
		report(c, CHECK_BULK_FORM, in->op_span,
		       "%s needs a destination and a source state space", name);
		return;
	}
	enum bulk_dir dir = bulk_direction(sp[0], sp[1]);
	if (!bulk_dir_allowed(in->op, dir)) {
		report(c, CHECK_BULK_FORM, sps[0], "%s cannot copy from '%s' to '%s'", name,
		       ir_mod_name(sp[1]), ir_mod_name(sp[0]));
		return;
	}
	if (dir == D_G2CTA)
		need(c, sps[0], 86, 90, "cp.async.bulk to '.shared::cta'");
	if (comp == MOD_NONE) {
		report(c, CHECK_BULK_FORM, in->op_span, "%s needs a completion mechanism ('%s')",
		       name, dir == D_C2G ? ".bulk_group" : ".mbarrier::complete_tx::bytes");
		return;
	}
	if ((dir == D_C2G) != (comp == MOD_BULK_GROUP)) {
		report(c, CHECK_BULK_FORM, mod_span(in, ms, G_COMPLETION),
		       "'%s' is not the completion mechanism of " "%s%s%s", ir_mod_name(comp), name,
		       ir_mod_name(sp[0]), ir_mod_name(sp[1]));
		return;
	}
	if (mcast && dir != D_G2C) {
		report(c, CHECK_BULK_FORM, mod_span(in, ms, G_MULTICAST),
		       "'.multicast::cluster' needs a .global source and a .shared::cluster destination");
		return;
	}
	if (hint && dir == D_C2C) {
		report(c, CHECK_BULK_FORM, mod_span(in, ms, G_CACHE),
		       "'.L2::cache_hint' is not allowed on " "%s.shared::cluster.shared::cta",
		       name);
		return;
	}
	if (mcast && c->sm == 90 && !c->m->sm_arch_specific)
		report(c, CHECK_MANUAL_FORM, mod_span(in, ms, G_MULTICAST),
		       "'.multicast::cluster' is meant for sm_90a (slow on sm_90)");
	/* Operands: dst, src, size {, mbar} {, ctaMask} {, policy}. */
	unsigned want = 3 + (comp == MOD_COMPLETE_TX_BYTES) + mcast + hint;
	if (in->nopnds != want) {
		report(c, CHECK_OPND_COUNT, in->span, "this form of %s takes %u operands (has %u)",
		       name, want, in->nopnds);
		return;
	}
	check_addr(c, in, &in->opnds[0], 0, dir != D_C2G, dir == D_C2G);
	check_addr(c, in, &in->opnds[1], 1, dir == D_C2G || dir == D_C2C,
		   dir == D_G2C || dir == D_G2CTA);
	bulk_size_check(c, in, 2);
	unsigned k = 3;
	if (comp == MOD_COMPLETE_TX_BYTES) {
		const struct ir_operand *o = &in->opnds[k];
		if (is_int_reg(o, 8))
			/* ptxas 13.0 takes a bare 64-bit register; the manual writes [mbar]. */
			report(c, CHECK_MANUAL_FORM, o->span,
			       "the mbarrier operand of %s should be written in "
			       "brackets, as in [%.*s]", name, (int)o->span.len,
			       c->m->file->text + o->span.off);
		else
			check_kind(c, in, k, K_MBAR, MOD_NONE);
		k++;
	}
	if (mcast) {
		const struct ir_operand *o = &in->opnds[k];
		if (!(o->kind == OPND_IMM || is_int_reg(o, 2)))
			report(c, CHECK_OPND_KIND, o->span,
			       "ctaMask must be a 16-bit register or a constant");
		k++;
	}
	if (hint)
		check_kind(c, in, k++, K_U64, MOD_NONE);
}

/* cp.reduce.async.bulk's operation and element type (CK_BULK_RED rows by destination, ISA
 * 9.7.9.25.4.2); .noftz goes with .add.f16 / .add.bf16 only, which need it. Returns false
 * if something was reported. A destination with no rows is left to bulk_check. */
static bool bulk_reduce_check(struct ck *c, const struct ir_insn *in, const struct mods *ms)
{
	const char *name = ir_op_name(in->op);
	enum ir_mod op = ms->by_group[G_OP], ty = ms->by_group[G_TYPE], dst = MOD_NONE;
	for (unsigned i = 0; i < in->nmods && dst == MOD_NONE; i++)
		if (ir_mod_kind(in->mods[i]) == MK_SPACE)
			dst = in->mods[i];
	if (op == MOD_NONE) {
		report(c, CHECK_BULK_FORM, in->op_span,
		       "%s needs a reduction operation (such as '.add')", name);
		return false;
	}
	if (ty == MOD_NONE)
		return false; /* check_mods reported it */
	bool known = false, takes = false;
	for (size_t k = 0; k < sizeof bulkredrows / sizeof bulkredrows[0]; k++) {
		known |= bulkredrows[k].dst == dst;
		takes |= bulkredrows[k].dst == dst && bulkredrows[k].op == op &&
			 (bulkredrows[k].types & T_BIT(ty));
	}
	if (known && !takes) {
		report(c, CHECK_BULK_FORM, mod_span(in, ms, G_TYPE), "%s%s%s does not take '%s'",
		       name, ir_mod_name(dst), ir_mod_name(op), ir_mod_name(ty));
		return false;
	}
	bool half = op == MOD_ADD && (ty == MOD_F16 || ty == MOD_BF16);
	bool noftz = ms->by_group[G_OTHER] == MOD_NOFTZ;
	if (noftz && !half) {
		report(c, CHECK_BULK_FORM, mod_span(in, ms, G_OTHER),
		       "'.noftz' goes only with .add.f16 or .add.bf16 " "on %s", name);
		return false;
	}
	if (half && !noftz) {
		report(c, CHECK_BULK_FORM, in->op_span, "%s.add%s needs '.noftz'", name,
		       ir_mod_name(ty));
		return false;
	}
	return true;
}

/* cp.async.bulk.prefetch.L2.global{.L2::cache_hint} [srcMem], size{, cache-policy} (ISA
 * 9.7.9.25.4.3): a global address (a 32-bit register too: the space is written). */
static void prefetch_check(struct ck *c, const struct ir_insn *in, const struct mods *ms)
{
	const char *name = ir_op_name(in->op);
	bool hint = ms->at[G_CACHE] >= 0;
	if (ms->by_group[G_OTHER] != MOD_L2) {
		report(c, CHECK_MOD_MISSING, in->op_span, "%s needs the cache level '.L2'", name);
		return;
	}
	if (ms->by_group[G_SPACE] != MOD_GLOBAL) {
		report(c, CHECK_MOD_MISSING, in->op_span, "%s needs the state space '.global'",
		       name);
		return;
	}
	if (in->nopnds != 2u + hint) {
		report(c, CHECK_OPND_COUNT, in->span, "%s%s takes %u operands (has %u)", name,
		       hint ? ".L2::cache_hint" : "", 2u + hint, in->nopnds);
		return;
	}
	check_addr(c, in, &in->opnds[0], 0, false, true);
	bulk_size_check(c, in, 1);
	if (hint)
		check_kind(c, in, 2, K_U64, MOD_NONE);
}

/* fence.proxy.tensormap::generic.release.scope and .acquire.scope [addr], 128 (ISA
 * 9.7.13.4): orders generic-proxy writes of a tensor map before its use by tensor copies. */
static void tensormap_fence_check(struct ck *c, const struct ir_insn *in, enum ir_mod sem,
				  enum ir_mod scope, bool extra)
{
	const char *name = "fence.proxy.tensormap::generic";
	if (!need(c, in->op_span, 83, 90, "%s", name))
		return;
	if (extra || (sem != MOD_RELEASE && sem != MOD_ACQUIRE) ||
	    (scope != MOD_CTA && scope != MOD_CLUSTER && scope != MOD_GPU && scope != MOD_SYS)) {
		report(c, CHECK_FENCE_FORM, in->op_span,
		       "%s needs .release or .acquire and a scope (.cta, .cluster, "
		       ".gpu or .sys), nothing else", name);
		return;
	}
	if (sem == MOD_RELEASE)
		return;
	if (in->nopnds != 2) {
		report(c, CHECK_OPND_COUNT, in->span,
		       "%s.acquire takes the tensor map's address and its size, 128 "
		       "(has %u operands)", name, in->nopnds);
		return;
	}
	const struct ir_operand *a = &in->opnds[0], *n = &in->opnds[1];
	if (a->kind != OPND_ADDR || !a->addr.base)
		report(c, CHECK_OPND_KIND, a->span,
		       "operand 1 of %s must be an address in brackets", name);
	else if (n->kind != OPND_IMM || n->imm != 128)
		report(c, CHECK_OPND_VALUE, n->span,
		       "operand 2 of %s must be 128, the size of a tensor map", name);
}

/* fence and membar forms (ISA 9.7.13.4). */
static void fence_check(struct ck *c, const struct ir_insn *in)
{
	enum ir_mod sem = MOD_NONE, scope = MOD_NONE, space = MOD_NONE;
	bool mbinit = false, proxy = false, async = false, async_generic = false, other = false;
	bool alias = false, tensormap = false;
	enum ir_mod restrict_ = MOD_NONE;
	struct src_span bad = in->op_span;
	for (unsigned i = 0; i < in->nmods; i++) {
		enum ir_mod m = in->mods[i];
		struct src_span s = in->mod_spans[i];
		enum ir_mod_kind k = ir_mod_kind(m);
		enum ir_mod *slot = k == MK_SEM ? &sem : k == MK_SCOPE ? &scope
				    : k == MK_SPACE ? &space : NULL;
		if (slot) {
			if (*slot != MOD_NONE) {
				report(c, CHECK_MOD_CONFLICT, s,
				       "'%s' cannot be combined with '%s' on fence", ir_mod_name(m),
				       ir_mod_name(*slot));
				return;
			}
			*slot = m;
			continue;
		}
		switch (m) {
		case MOD_MBARRIER_INIT: mbinit = true; break;
		case MOD_PROXY: proxy = true; break;
		case MOD_ASYNC: async = true; break;
		case MOD_ASYNC_GENERIC: async_generic = true; break;
		case MOD_TENSORMAP_GENERIC: tensormap = true; break;
		case MOD_ALIAS: alias = true; break;
		case MOD_SYNC_RESTRICT_CTA:
		case MOD_SYNC_RESTRICT_CLUSTER: restrict_ = m; break;
		default: other = true; bad = s; break;
		}
	}
	if (in->nopnds && !(in->op == OP_FENCE && tensormap && sem == MOD_ACQUIRE)) {
		report(c, CHECK_OPND_COUNT, in->span, "%s takes no operands", ir_op_name(in->op));
		return;
	}
	if (in->op == OP_MEMBAR) {
		/* membar.{cta,gl,sys}, membar.proxy.alias (ISA 9.7.13.4) */
		if (proxy) {
			if (!alias || other || async || async_generic || sem || scope || space)
				report(c, CHECK_FENCE_FORM, in->op_span,
				       "membar.proxy takes only '.alias'");
			else
				need(c, in->op_span, 75, 0, "membar.proxy");
			return;
		}
		if (sem || space || other || mbinit || async || restrict_ ||
		    (scope != MOD_CTA && scope != MOD_GL && scope != MOD_SYS))
			report(c, CHECK_FENCE_FORM, in->op_span,
			       "membar needs exactly one level: .cta, .gl or .sys");
		return;
	}
	if ((other || alias) && !proxy) {
		report(c, CHECK_MOD_NOT_ALLOWED, bad, "'%.*s' is not allowed on fence",
		       (int)bad.len, c->m->file->text + bad.off);
		return;
	}
	if (mbinit) {
		if (!need(c, in->op_span, 80, 90, "fence.mbarrier_init"))
			return;
		if (sem != MOD_RELEASE || scope != MOD_CLUSTER || space || proxy || restrict_)
			report(c, CHECK_FENCE_FORM, in->op_span,
			       "fence.mbarrier_init must be written "
			       "fence.mbarrier_init.release.cluster");
		return;
	}
	if (tensormap && !proxy) {
		report(c, CHECK_FENCE_FORM, in->op_span,
		       "'.tensormap::generic' is a proxy kind: write fence.proxy.tensormap::generic");
		return;
	}
	if (proxy) {
		if (!need(c, in->op_span, 75, 0, "fence.proxy"))
			return;
		if (tensormap) {
			tensormap_fence_check(c, in, sem, scope, space || restrict_ || async ||
					      async_generic || alias);
			return;
		}
		if (async || async_generic) {
			if (async_generic) {
				if (!need(c, in->op_span, 86, 90, "fence.proxy.async::generic"))
					return;
				if (!restrict_ || scope != MOD_CLUSTER || space ||
				    (sem != MOD_ACQUIRE && sem != MOD_RELEASE) ||
				    (sem == MOD_ACQUIRE) != (restrict_ == MOD_SYNC_RESTRICT_CLUSTER))
					report(c, CHECK_FENCE_FORM, in->op_span,
					       "fence.proxy.async::generic needs "
					       ".acquire.sync_restrict::shared::cluster.cluster or "
					       ".release.sync_restrict::shared::cta.cluster");
				return;
			}
			if (!need(c, in->op_span, 80, 90, "fence.proxy.async"))
				return;
			if (sem || scope || restrict_ || other || alias) {
				report(c, CHECK_FENCE_FORM, in->op_span,
				       "fence.proxy.async takes no memory order or scope");
				return;
			}
			if (space && space != MOD_GLOBAL && space != MOD_SHARED_CTA &&
			    space != MOD_SHARED_CLUSTER)
				report(c, CHECK_FENCE_FORM, in->op_span,
				       "fence.proxy.async takes .global, .shared::cta or "
				       ".shared::cluster, not '%s'", ir_mod_name(space));
			return;
		}
		/* fence.proxy.alias; the tensormap forms are not modelled. */
		if (!alias || other || sem || scope || space || restrict_)
			report(c, CHECK_FENCE_FORM, in->op_span,
			       "fence.proxy needs a proxy kind ('.alias' or '.async')");
		return;
	}
	if (async || async_generic || space) {
		report(c, CHECK_FENCE_FORM, in->op_span, "this fence form is not valid");
		return;
	}
	if (restrict_) {
		if (!need(c, in->op_span, 86, 90, "fence.sync_restrict"))
			return;
		if (scope != MOD_CLUSTER ||
		    !((sem == MOD_ACQUIRE && restrict_ == MOD_SYNC_RESTRICT_CLUSTER) ||
		      (sem == MOD_RELEASE && restrict_ == MOD_SYNC_RESTRICT_CTA)))
			report(c, CHECK_FENCE_FORM, in->op_span, "fence%s needs %s.cluster",
			       ir_mod_name(restrict_),
			       restrict_ == MOD_SYNC_RESTRICT_CLUSTER ? ".acquire" : ".release");
		return;
	}
	/* fence{.sem}.scope */
	if (scope == MOD_NONE) {
		report(c, CHECK_FENCE_FORM, in->op_span,
		       "fence needs a scope (.cta, .cluster, .gpu or .sys)");
		return;
	}
	if (scope != MOD_CTA && scope != MOD_CLUSTER && scope != MOD_GPU && scope != MOD_SYS) {
		report(c, CHECK_FENCE_FORM, in->op_span, "'%s' is not a fence scope",
		       ir_mod_name(scope));
		return;
	}
	if (scope == MOD_CLUSTER)
		need(c, in->op_span, 78, 90, "fence.cluster");
	if (sem != MOD_NONE && sem != MOD_SC && sem != MOD_ACQ_REL && sem != MOD_ACQUIRE &&
	    sem != MOD_RELEASE) {
		report(c, CHECK_FENCE_FORM, in->op_span, "'%s' is not a fence memory order",
		       ir_mod_name(sem));
		return;
	}
	if ((sem == MOD_ACQUIRE || sem == MOD_RELEASE) && c->ver < 86)
		/* ptxas 13.0 accepts them in any version; the manual says PTX 8.6. */
		report(c, CHECK_MANUAL_FORM, in->op_span,
		       "fence%s needs PTX ISA 8.6 according to the manual "
		       "(module is %u.%u; ptxas accepts it)", ir_mod_name(sem), c->ver / 10,
		       c->ver % 10);
}

/* ---- Typed instructions (CK_ALU / CK_AMOD / CK_NEED rows) ------------------------------- */

/* "add.u32", "mul.wide.s16": the opcode, its variant word and the instruction type. */
static const char *typed_name(char *buf, size_t cap, enum ir_op op, enum ir_mod variant,
			      enum ir_mod ty)
{
	return spell(buf, cap, ir_op_name(op), variant ? ir_mod_name(variant) : "",
		     ty ? ir_mod_name(ty) : "");
}

static bool is_float_type(enum ir_mod t)
{
	return t != MOD_NONE && ir_type_is_float(t);
}

/* Twice the width, same signedness (the .wide destination of mul/mad). */
static enum ir_mod wide_type(enum ir_mod t)
{
	switch (t) {
	case MOD_U16: return MOD_U32;
	case MOD_S16: return MOD_S32;
	case MOD_U32: return MOD_U64;
	case MOD_S32: return MOD_S64;
	case MOD_B16: return MOD_B32;
	case MOD_B32: return MOD_B64;
	default: return MOD_NONE;
	}
}

/* ISA 6.4.1: a register of declared type `r` may stand for an operand of type `t` (same
 * size): .bN fits everything of N bits, .uN/.sN fit each other and .bN, a floating-point
 * type takes its own registers and .bN ones, .pred only .pred. */
static bool reg_fits(enum ir_mod r, enum ir_mod t)
{
	if (r == MOD_PRED || t == MOD_PRED)
		return r == t;
	if (ir_type_size(r) != ir_type_size(t))
		return false;
	bool rb = r == MOD_B8 || r == MOD_B16 || r == MOD_B32 || r == MOD_B64 || r == MOD_B128;
	bool tb = t == MOD_B8 || t == MOD_B16 || t == MOD_B32 || t == MOD_B64 || t == MOD_B128;
	if (rb || tb)
		return true;
	if (is_float_type(t) || is_float_type(r))
		return r == t;
	return true;
}

static const char *type_words(enum ir_mod t)
{
	if (t == MOD_PRED)
		return "a predicate register";
	if (is_float_type(t))
		return "a register of that type or a .bN register";
	return "an integer or .bN register";
}

static bool has_mod(const struct ir_insn *in, enum ir_mod m)
{
	for (unsigned i = 0; i < in->nmods; i++)
		if (in->mods[i] == m)
			return true;
	return false;
}

/* One operand of a typed instruction against its signature letter. `what` is the
 * instruction's full name (add.u32); ty the instruction type. */
static void typed_operand(struct ck *c, const struct ir_insn *in, int i, char letter,
			  enum ir_mod ty, const char *what)
{
	const struct ir_operand *o = &in->opnds[i];
	if (letter == 'R' || letter == 'V') {
		/* d|p: the destination and, optionally, a predicate (shfl.sync, match.all) */
		letter = letter == 'R' ? 'd' : 'U';
		if (o->kind == OPND_DUAL && o->vec.n == 2) {
			const struct ir_operand *p = &o->vec.elems[1];
			if (!is_pred_reg(p) || p->neg)
				report(c, CHECK_OPND_KIND, p->span,
				       "the second destination of %s must be a predicate "
				       "register", what);
			o = &o->vec.elems[0];
		}
	} else if (o->kind == OPND_DUAL && letter != 'Q') {
		report(c, CHECK_OPND_KIND, o->span,
		       "%s writes one destination ('d|p' is not allowed)", what);
		return;
	}
	enum ir_mod want = ty;
	bool dest = letter == 'd' || letter == 'D' || letter == 'U' || letter == 'P';
	switch (letter) {
	case 'D': case 'A': want = wide_type(ty); break;
	case 'u': case 'U': want = MOD_U32; break;
	case 'p': case 'P': want = MOD_PRED; break;
	default: break;
	}
	if (is_sreg(o))
		return;         /* check_sreg_use reports it */
	if (letter == 'Q') {
		if (o->kind == OPND_DUAL) {
			for (unsigned k = 0; k < o->vec.n; k++) {
				const struct ir_operand *e = &o->vec.elems[k];
				if (e->kind != OPND_SINK && (!is_pred_reg(e) || e->neg))
					report(c, CHECK_OPND_KIND, e->span,
					       "the destinations of %s must be predicate "
					       "registers or '_'", what);
			}
			return;
		}
		if (o->kind == OPND_SINK)
			return;
		letter = 'P';
		dest = true;
		want = MOD_PRED;
	}
	if (in->op == OP_MOV && o->kind == OPND_VEC) {
		/* pack / unpack: mov.b64 %rd, {%r1, %r2} and the reverse (ISA 9.7.9.10). */
		int bits = 0;
		if (has_mod(in, MOD_V2) || has_mod(in, MOD_V4))
			return;         /* vector mov: element-wise, not modelled */
		if (ty != MOD_B16 && ty != MOD_B32 && ty != MOD_B64 && ty != MOD_B128) {
			report(c, CHECK_OPND_TYPE, o->span,
			       "%s cannot pack or unpack a vector (use mov.b%d)", what,
			       ir_type_size(ty) * 8);
			return;
		}
		int width = 0; /* ptxas: the elements have one width */
		for (unsigned k = 0; k < o->vec.n; k++) {
			const struct ir_operand *e = &o->vec.elems[k];
			enum ir_mod r = reg_type(e);
			if (e->kind == OPND_SINK && dest && o->vec.n) {
				bits += ir_type_size(ty) * 8 / (int)o->vec.n;
				continue;
			}
			if (e->kind != OPND_REG || r == MOD_NONE || r == MOD_PRED) {
				report(c, CHECK_OPND_KIND, e->span,
				       "the elements of a %s vector must be registers", what);
				return;
			}
			if (width && ir_type_size(r) != width) {
				report(c, CHECK_OPND_TYPE, e->span,
				       "the elements of a %s vector must have one width (%d and %d "
				       "bits)", what, width * 8, ir_type_size(r) * 8);
				return;
			}
			width = ir_type_size(r);
			bits += ir_type_size(r) * 8;
		}
		if (bits != ir_type_size(ty) * 8)
			report(c, CHECK_OPND_TYPE, o->span,
			       "the vector of %s has %d bits; %s moves %d", what, bits, what,
			       ir_type_size(ty) * 8);
		return;
	}
	if (letter == 'm') {
		/* mov source: also the address of a variable or function (plus a constant:
		 * `gbuf+8`, an unbracketed address). */
		if (o->kind == OPND_ADDR && o->bare && o->addr.base)
			o = o->addr.base;
		if (o->kind == OPND_SYM && o->ref.sym &&
		    (o->ref.sym->kind == SYM_VAR || o->ref.sym->kind == SYM_FUNC)) {
			const struct ir_sym *y = o->ref.sym;
			bool shared = y->kind == SYM_VAR && (y->space == MOD_SHARED ||
				      y->space == MOD_SHARED_CTA || y->space == MOD_SHARED_CLUSTER);
			if (is_float_type(ty) || ty == MOD_PRED)
				report(c, CHECK_ADDRESS, o->span,
				       "the address of '%.*s' needs an integer mov, not %s",
				       (int)y->name_len, y->name, what);
			else if (!shared && y->kind == SYM_VAR && y->space == MOD_GLOBAL &&
				 ir_type_size(ty) == 4 && c->m->address_size != 32)
				/* ptxas: "32-Bit compilation is no longer supported" (.global only,
				 * and 16-bit movs pass: ptxas 13.0's own rule) */
				report(c, CHECK_ADDRESS, o->span,
				       "the address of '%.*s' is 64 bits wide: %s would "
				       "truncate it (only .shared addresses fit 32 bits)",
				       (int)y->name_len, y->name, what);
			return;
		}
		letter = 'a';
	}
	if (letter == 'i') {
		if (o->kind != OPND_IMM)
			report(c, CHECK_OPND_KIND, o->span,
			       "operand %d of %s must be an integer constant", i + 1, what);
		return;
	}
	switch (o->kind) {
	case OPND_REG: {
		enum ir_mod r = reg_type(o);
		if (r == MOD_NONE) {
			report(c, CHECK_OPND_KIND, o->span,
			       "operand %d of %s must be a scalar register", i + 1, what);
			return;
		}
		if (o->neg && want != MOD_PRED) {
			report(c, CHECK_OPND_KIND, o->span,
			       "operand %d of %s cannot be negated with '!'", i + 1, what);
			return;
		}
		if (o->neg && dest) {
			report(c, CHECK_OPND_KIND, o->span,
			       "the destination of %s cannot be negated with '!'", what);
			return;
		}
		/* ptxas 13.0 quirk: a .f16x2 register passes for any 32-bit integer/bit operand
		 * of the instruction type (or its .wide), even for a .pred one (not .f32). */
		if (r == MOD_F16X2 && strchr("daDA", letter) &&
		    (want == MOD_PRED || (ir_type_size(want) == 4 && !is_float_type(want))))
			return;
		if (r != MOD_PRED && want != MOD_PRED && ir_type_size(r) != ir_type_size(want)) {
			report(c, CHECK_OPND_TYPE, o->span,
			       "operand %d of %s is a %d-bit register; expected %d bits", i + 1,
			       what, ir_type_size(r) * 8, ir_type_size(want) * 8);
			return;
		}
		if (!reg_fits(r, want))
			report(c, CHECK_OPND_TYPE, o->span,
			       "operand %d of %s is a %s register; expected %s%s", i + 1, what,
			       ir_mod_name(r), type_words(want),
			       want == ty || want == MOD_PRED ? "" : " of the operand's width");
		return;
	}
	case OPND_SINK:
		report(c, CHECK_OPND_KIND, o->span,
		       dest ? "%s cannot discard its result ('_' is not allowed)"
			    : "'_' cannot be a source operand of %s",
		       what);
		return;
	case OPND_IMM:
		if (dest)
			break;
		if (is_float_type(want))
			report(c, CHECK_OPND_TYPE, o->span,
			       "operand %d of %s is an integer constant; expected a "
			       "floating-point constant such as 0f3F800000", i + 1, what);
		return;
	case OPND_FIMM:
		if (dest)
			break;
		if (want == MOD_F32 || want == MOD_F64)
			return;
		if ((want == MOD_B32 && o->fimm.is_f32) || (want == MOD_B64 && !o->fimm.is_f32))
			return;
		if (want == MOD_B32 || want == MOD_B64)
			report(c, CHECK_OPND_TYPE, o->span,
			       "operand %d of %s must be a %s literal to fill %d bits", i + 1, what,
			       want == MOD_B32 ? "0f (32-bit)" : "0d (64-bit)",
			       ir_type_size(want) * 8);
		else
			report(c, CHECK_OPND_TYPE, o->span,
			       "operand %d of %s is a floating-point constant; %s takes " "%s",
			       i + 1, what, what,
			       is_float_type(want) ? "no 0f/0d literals" : "integer constants");
		return;
	default:
		break;
	}
	report(c, CHECK_OPND_KIND, o->span, "operand %d of %s must be %s", i + 1, what,
	       dest ? "a register" : "a register or a constant");
}

/* The instruction type of a typed instruction, or MOD_NONE if absent / repeated (reported). */
static enum ir_mod single_type(struct ck *c, const struct ir_insn *in, int *at,
			       enum ir_mod natural)
{
	enum ir_mod ty = MOD_NONE;
	*at = -1;
	for (unsigned i = 0; i < in->nmods; i++) {
		if (ir_mod_kind(in->mods[i]) != MK_TYPE)
			continue;
		if (ty != MOD_NONE) {
			report(c, CHECK_INSN_TYPE, in->mod_spans[i],
			       "%s takes one instruction type ('%s' and '%s')", ir_op_name(in->op),
			       ir_mod_name(ty), ir_mod_name(in->mods[i]));
			*at = -2;
			return MOD_NONE;
		}
		ty = in->mods[i];
		*at = (int)i;
	}
	if (ty == MOD_NONE)
		report(c, CHECK_INSN_TYPE, in->op_span,
		       "%s needs an instruction type (such as '%s')", ir_op_name(in->op),
		       ir_mod_name(natural));
	return ty;
}

/* "'.rn', '.rz', '.rm' or '.rp'" into buf. */
static void list_mods(char *buf, size_t cap, const enum ir_mod *ms, int n)
{
	size_t k = 0;
	buf[0] = '\0';
	for (int i = 0; i < n && k < cap; i++)
		k += (size_t)snprintf(buf + k, cap - k, "%s'%s'", i == 0 ? "" : i == n - 1 ? " or "
				      : ", ", ir_mod_name(ms[i]));
}

/* Opcodes with CK_ALU rows: instruction type, variant, modifiers and operand widths. */
static void typed_check(struct ck *c, const struct ir_insn *in)
{
	const struct ck_slice *rs = &c->alu[in->op], *ms = &c->amod[in->op];
	const char *name = ir_op_name(in->op);
	char full[64];
	/* The variant word (.lo/.hi/.wide) selects the rows. */
	enum ir_mod variant = MOD_NONE;
	for (unsigned i = 0; i < in->nmods; i++)
		for (unsigned k = rs->first; k < rs->first + rs->n; k++)
			if (alurows[k].variant != MOD_NONE && alurows[k].variant == in->mods[i]) {
				if (variant != MOD_NONE && variant != in->mods[i]) {
					report(c, CHECK_MOD_CONFLICT, in->mod_spans[i],
					       "'%s' cannot be combined with '%s' " "on %s",
					       ir_mod_name(in->mods[i]), ir_mod_name(variant), name);
					return;
				}
				variant = in->mods[i];
			}
	int tat;
	/* The first type of the opcode's first row, for the message. */
	enum ir_mod natural = MOD_B32;
	for (int t = MOD_PRED; t < 32 && t < MOD__COUNT; t++)
		if (alurows[rs->first].types & T_BIT(t)) {
			natural = (enum ir_mod)t;
			if (ir_type_size(natural) == 4)
				break;
		}
	enum ir_mod ty = single_type(c, in, &tat, natural);
	if (ty == MOD_NONE)
		return;
	struct src_span tspan = in->mod_spans[tat];
	const struct ck_alurow *row = NULL;
	bool variant_known = false;
	for (unsigned k = rs->first; k < rs->first + rs->n; k++)
		if (alurows[k].variant == variant) {
			variant_known = true;
			if (alurows[k].types & T_BIT(ty)) {
				row = &alurows[k];
				break;
			}
		}
	typed_name(full, sizeof full, in->op, variant, ty);
	if (!row) {
		/* Would another variant take this type?  (mul.s32 needs .lo/.hi/.wide) */
		enum ir_mod alts[6];
		int n = 0;
		for (unsigned k = rs->first; k < rs->first + rs->n && n < 6; k++)
			if ((alurows[k].types & T_BIT(ty)) && alurows[k].variant != MOD_NONE &&
			    (n == 0 || alts[n - 1] != alurows[k].variant))
				alts[n++] = alurows[k].variant;
		if (n && variant == MOD_NONE) {
			char l[96];
			list_mods(l, sizeof l, alts, n);
			report(c, CHECK_MOD_MISSING, in->op_span, "%s%s requires %s", name,
			       ir_mod_name(ty), l);
		} else if (!variant_known) {
			/* every variant of the opcode: "shfl.sync needs '.up', '.down', ..." */
			n = 0;
			for (unsigned k = rs->first; k < rs->first + rs->n && n < 6; k++) {
				bool seen = false;
				for (int j = 0; j < n; j++)
					seen |= alts[j] == alurows[k].variant;
				if (!seen && alurows[k].variant != MOD_NONE)
					alts[n++] = alurows[k].variant;
			}
			char l[96];
			list_mods(l, sizeof l, alts, n);
			report(c, CHECK_MOD_MISSING, in->op_span, "%s needs %s", name, l);
		} else {
			report(c, CHECK_INSN_TYPE, tspan, "'%s' is not a valid type for %s%s",
			       ir_mod_name(ty), name, variant ? ir_mod_name(variant) : "");
		}
		return;
	}
	need(c, tspan, row->ptx, row->sm, "%s", full);
	/* Modifiers: each must have a CK_AMOD row covering the type; one rounding at most. */
	int rnd = -1;
	bool bad = false;
	for (unsigned i = 0; i < in->nmods; i++) {
		enum ir_mod m = in->mods[i];
		struct src_span s = in->mod_spans[i];
		if (ir_mod_kind(m) == MK_TYPE || m == variant)
			continue;
		for (unsigned j = 0; j < i; j++)
			if (in->mods[j] == m) {
				report(c, CHECK_MOD_CONFLICT, s, "duplicate '%s' on %s",
				       ir_mod_name(m), full);
				bad = true;
				goto next;
			}
		/* The row that covers the type, else any row of the modifier (for the message). */
		const struct ck_amod *a = NULL;
		for (unsigned k = ms->first; k < ms->first + ms->n; k++)
			if (amods[k].mod == m && (!a || (amods[k].types & T_BIT(ty))))
				a = &amods[k];
		if (!a) {
			report(c, CHECK_MOD_NOT_ALLOWED, s, "'%s' is not allowed on %s",
			       ir_mod_name(m), name);
			bad = true;
			continue;
		}
		if (!(a->types & T_BIT(ty))) {
			if (ir_mod_kind(m) == MK_ROUND)
				report(c, CHECK_ROUNDING, s, "%s takes no rounding modifier ('%s')",
				       full, ir_mod_name(m));
			else
				report(c, CHECK_MOD_NOT_ALLOWED, s, "'%s' does not apply to %s",
				       ir_mod_name(m), full);
			bad = true;
			continue;
		}
		if (ir_mod_kind(m) == MK_ROUND) {
			if (rnd >= 0) {
				report(c, CHECK_MOD_CONFLICT, s,
				       "'%s' cannot be combined with '%s' on %s", ir_mod_name(m),
				       ir_mod_name(in->mods[rnd]), full);
				bad = true;
				continue;
			}
			rnd = (int)i;
		}
		need(c, s, a->ptx, a->sm, "'%s' on %s", ir_mod_name(m), full);
	next:;
	}
	if (bad)
		return;
	const struct ck_slice *ns = &c->needs[in->op];
	for (unsigned k = ns->first; k < ns->first + ns->n; k++) {
		const struct ck_needrow *nr = &needrows[k];
		if (!(nr->types & T_BIT(ty)) || (nr->when && !has_mod(in, nr->when)))
			continue;
		int n = 0;
		bool found = false, all_rnd = true;
		for (; n < 6 && nr->any[n] != MOD_NONE; n++) {
			found |= has_mod(in, nr->any[n]);
			all_rnd &= ir_mod_kind(nr->any[n]) == MK_ROUND;
		}
		if (found)
			continue;
		char l[128];
		list_mods(l, sizeof l, nr->any, n);
		if (nr->when)
			report(c, CHECK_MOD_MISSING, in->op_span, "%s%s requires %s", full,
			       ir_mod_name(nr->when), l);
		else if (all_rnd)
			report(c, CHECK_ROUNDING, in->op_span,
			       "%s requires a rounding modifier (%s)", full, l);
		else
			report(c, CHECK_MOD_MISSING, in->op_span, "%s requires %s", full, l);
		return;
	}
	const char *sig = row->sig;
	if (in->op == OP_SETP) {
		bool cmp = false, boolop = false;
		for (unsigned i = 0; i < in->nmods; i++) {
			cmp |= ir_mod_kind(in->mods[i]) == MK_CMP || in->mods[i] == MOD_LO ||
			       in->mods[i] == MOD_HI;  /* .lo/.hi are words of mul too */
			boolop |= in->mods[i] == MOD_AND || in->mods[i] == MOD_OR ||
				  in->mods[i] == MOD_XOR;
		}
		if (!cmp) {
			report(c, CHECK_MOD_MISSING, in->op_span,
			       "%s requires a comparison such as '.eq' or '.lt'", full);
			return;
		}
		sig = boolop ? "Qaap" : "Qaa";
		/* ptxas lets p|_ through (the sink writes nothing) */
		if ((ty == MOD_F16 || ty == MOD_BF16) && in->nopnds && in->opnds[0].kind == OPND_DUAL &&
		    in->opnds[0].vec.elems[1].kind != OPND_SINK) {
			report(c, CHECK_OPND_KIND, in->opnds[0].span,
			       "%s writes one predicate ('p|q' is for the " "x2 types)", full);
			return;
		}
	}
	/* Operands. */
	unsigned want = (unsigned)strlen(sig);
	if (in->nopnds != want) {
		report(c, CHECK_OPND_COUNT, in->span, "%s takes %u operand%s (has %u)", full, want,
		       want == 1 ? "" : "s", in->nopnds);
		return;
	}
	for (unsigned i = 0; i < want; i++)
		typed_operand(c, in, (int)i, sig[i], ty, full);
}

/* ---- cvt (ISA 9.7.9.21) ------------------------------------------------------------------ */

static bool cvt_basic(enum ir_mod t)
{
	switch (t) {
	case MOD_U8: case MOD_S8: case MOD_U16: case MOD_S16: case MOD_U32: case MOD_S32:
	case MOD_U64: case MOD_S64: case MOD_F16: case MOD_BF16: case MOD_F32: case MOD_F64:
		return true;
	default:
		return false;
	}
}

/* A cvt (or ld/st) data operand: integer types take any integer/bit register at least as
 * wide as the type (ISA 6.4.1.2, "operand size exceeding instruction-type size"); floating
 * types take their own registers or .bN ones at least as wide (ptxas 13.0). */
static bool reg_fits_wide(enum ir_mod r, enum ir_mod t)
{
	if (r == MOD_PRED || t == MOD_PRED)
		return r == t;
	bool rb = r == MOD_B16 || r == MOD_B32 || r == MOD_B64;
	if (is_float_type(t))
		return r == t || (rb && ir_type_size(r) >= ir_type_size(t));
	if (is_float_type(r) && r != MOD_F16X2)
		return ir_type_size(t) == ir_type_size(r) && (t == MOD_B16 || t == MOD_B32 ||
							     t == MOD_B64);
	return ir_type_size(r) >= ir_type_size(t) || (ir_type_size(t) == 1 && ir_type_size(r) >= 2);
}

static void cvt_operand(struct ck *c, const struct ir_insn *in, int i, enum ir_mod t,
			const char *what)
{
	const struct ir_operand *o = &in->opnds[i];
	if (is_sreg(o))
		return;
	if (o->kind == OPND_REG) {
		enum ir_mod r = reg_type(o);
		if (r == MOD_NONE || o->neg) {
			report(c, CHECK_OPND_KIND, o->span,
			       "operand %d of %s must be a scalar register", i + 1, what);
			return;
		}
		if (!reg_fits_wide(r, t))
			report(c, CHECK_OPND_TYPE, o->span,
			       "operand %d of %s is a %s register; %s needs %s", i + 1, what,
			       ir_mod_name(r), ir_mod_name(t),
			       is_float_type(t) ? "a register of that type or a .bN one of its size"
						: "an integer or .bN register at least as wide");
		return;
	}
	if (i == 1 && o->kind == OPND_IMM && !is_float_type(t))
		return;
	if (i == 1 && o->kind == OPND_FIMM && (t == MOD_F32 || t == MOD_F64))
		return;
	if (i == 0 && o->kind == OPND_SINK)
		report(c, CHECK_OPND_KIND, o->span,
		       "%s cannot discard its result ('_' is not allowed)", what);
	else
		report(c, CHECK_OPND_KIND, o->span, "operand %d of %s must be a register%s", i + 1,
		       what, i == 1 ? " or a constant of the source type" : "");
}

/* cvt{.rnd}{.ftz}{.sat}.dtype.atype d, a: which rounding each direction needs or forbids. */
static void cvt_check(struct ck *c, const struct ir_insn *in)
{
	enum ir_mod ty[2] = {MOD_NONE, MOD_NONE};
	int nty = 0, rnd = -1;
	for (unsigned i = 0; i < in->nmods; i++) {
		enum ir_mod m = in->mods[i];
		if (ir_mod_kind(m) == MK_TYPE) {
			if (nty < 2)
				ty[nty] = m;
			nty++;
		} else if (ir_mod_kind(m) == MK_ROUND) {
			if (rnd >= 0) {
				report(c, CHECK_MOD_CONFLICT, in->mod_spans[i],
				       "'%s' cannot be combined with '%s' on cvt", ir_mod_name(m),
				       ir_mod_name(in->mods[rnd]));
				return;
			}
			rnd = (int)i;
		}
	}
	if (nty != 2) {
		report(c, CHECK_INSN_TYPE, in->op_span,
		       "cvt needs a destination and a source type (such as "
		       "cvt.f32.s32), has %d type%s", nty, nty == 1 ? "" : "s");
		return;
	}
	enum ir_mod d = ty[0], a = ty[1];
	if (!cvt_basic(d) || !cvt_basic(a)) {
		/* The packed and narrow float forms take an .f32 (pair) or a packed source;
		 * their modifiers are not modelled. Bit types are never cvt types. */
		bool pair = (d == MOD_F16X2 || d == MOD_BF16X2) && a == MOD_F32;
		bool pack = pair || (d == MOD_TF32 && a == MOD_F32) ||
			    ((d == MOD_E4M3X2 || d == MOD_E5M2X2) && (a == MOD_F32 || a == MOD_F16X2));
		bool unpack = d == MOD_F16X2 && (a == MOD_E4M3X2 || a == MOD_E5M2X2);
		bool f8 = d == MOD_E4M3X2 || d == MOD_E5M2X2 || a == MOD_E4M3X2 || a == MOD_E5M2X2;
		/* ISA 9.7.9.21: PTX 7.8 on sm_90, sm_89 from PTX 8.1 */
		if (f8 && !need(c, in->op_span, 78, c->ver >= 81 ? 89 : 90,
				"cvt with .e4m3x2/.e5m2x2"))
			return;
		if (!pack && !unpack)
			report(c, CHECK_CVT_FORM, in->op_span, "cvt cannot convert %s to %s",
			       ir_mod_name(a), ir_mod_name(d));
		else if (pair && in->nopnds != 3)
			report(c, CHECK_CVT_FORM, in->span,
			       "cvt%s%s packs two .f32 sources: it takes 3 operands " "(has %u)",
			       ir_mod_name(d), ir_mod_name(a), in->nopnds);
		return;
	}
	if ((d == MOD_BF16 && ir_type_size(a) == 1) || (a == MOD_BF16 && ir_type_size(d) == 1)) {
		report(c, CHECK_CVT_FORM, in->op_span,
		       "cvt has no conversion between .bf16 and 8-bit integers");
		return;
	}
	char full[48];
	snprintf(full, sizeof full, "cvt%s%s", ir_mod_name(d), ir_mod_name(a));
	bool df = is_float_type(d), af = is_float_type(a);
	enum ir_mod r = rnd >= 0 ? in->mods[rnd] : MOD_NONE;
	bool rint = r == MOD_RNI || r == MOD_RZI || r == MOD_RMI || r == MOD_RPI;
	bool rflt = r == MOD_RN || r == MOD_RZ || r == MOD_RM || r == MOD_RP;
	struct src_span rs = rnd >= 0 ? in->mod_spans[rnd] : in->op_span;
	static const enum ir_mod irnd[] = {MOD_RNI, MOD_RZI, MOD_RMI, MOD_RPI};
	static const enum ir_mod frnd[] = {MOD_RN, MOD_RZ, MOD_RM, MOD_RP};
	char l[64];
	if (df && af && d != a && (a == MOD_BF16 || ir_type_size(d) == ir_type_size(a))) {
		/* from .bf16, and between .f16 and .bf16: a float rounding is optional */
		if (r && !rflt) {
			list_mods(l, sizeof l, frnd, 4);
			report(c, CHECK_ROUNDING, rs, "'%s' is not a rounding of %s (use %s)",
			       ir_mod_name(r), full, l);
			return;
		}
	} else if (df && af) {
		if (ir_type_size(d) < ir_type_size(a)) {
			if (!rflt) {
				list_mods(l, sizeof l, frnd, 4);
				report(c, CHECK_ROUNDING, rs,
				       r ? "'%s' is not a rounding of %s (use %s)"
					 : "%s%s requires a rounding modifier (%s)",
				       r ? ir_mod_name(r) : "", full, l);
				return;
			}
		} else if (d == a) {
			if (r && !rint) {
				list_mods(l, sizeof l, irnd, 4);
				report(c, CHECK_ROUNDING, rs,
				       "'%s' is not a rounding of %s (use %s, or none)",
				       ir_mod_name(r), full, l);
				return;
			}
		} else if (r) {
			report(c, CHECK_ROUNDING, rs,
			       "%s takes no rounding modifier ('%s'): the conversion is exact",
			       full, ir_mod_name(r));
			return;
		}
	} else if (df || af) {
		const enum ir_mod *want = df ? frnd : irnd;
		if (df ? !rflt : !rint) {
			list_mods(l, sizeof l, want, 4);
			if (r)
				report(c, CHECK_ROUNDING, rs,
				       "'%s' is not a rounding of %s (use %s)", ir_mod_name(r),
				       full, l);
			else
				report(c, CHECK_ROUNDING, rs,
				       "%s requires a rounding modifier (%s)", full, l);
			return;
		}
	} else if (r) {
		report(c, CHECK_ROUNDING, rs, "%s takes no rounding modifier ('%s')", full,
		       ir_mod_name(r));
		return;
	}
	for (unsigned i = 0; i < in->nmods; i++) {
		enum ir_mod m = in->mods[i];
		struct src_span s = in->mod_spans[i];
		if (ir_mod_kind(m) == MK_TYPE || ir_mod_kind(m) == MK_ROUND)
			continue;
		if (m == MOD_FTZ) {
			if (d != MOD_F32 && a != MOD_F32) {
				report(c, CHECK_CVT_FORM, s,
				       "'.ftz' on cvt needs an .f32 source or destination (%s)",
				       full);
				return;
			}
		} else if (m == MOD_SAT) {
			/* int to int: only where the value can overflow (narrower, or a change of
			 * signedness); never onto .bf16 */
			bool grows = !df && !af && ir_type_size(d) >= ir_type_size(a) &&
				     ir_type_is_signed(d) == ir_type_is_signed(a);
			if (grows || d == MOD_BF16) {
				report(c, CHECK_CVT_FORM, s, "'.sat' does not apply to %s", full);
				return;
			}
		} else if (m == MOD_RELU || m == MOD_SATFINITE) {
			if ((d != MOD_F16 && d != MOD_BF16) || a != MOD_F32) {
				report(c, CHECK_CVT_FORM, s,
				       "'%s' on cvt needs an .f16/.bf16 destination and an .f32 "
				       "source", ir_mod_name(m));
				return;
			}
			if (m == MOD_RELU && has_mod(in, MOD_FTZ)) {
				report(c, CHECK_CVT_FORM, s,
				       "'.relu' cannot be combined with '.ftz' on %s", full);
				return;
			}
			if (m == MOD_SATFINITE) {
				if (!need(c, s, 81, 0, "'.satfinite' on %s", full))
					return;
			}
		} else {
			report(c, CHECK_MOD_NOT_ALLOWED, s, "'%s' is not allowed on cvt",
			       ir_mod_name(m));
			return;
		}
	}
	if (in->nopnds != 2) {
		report(c, CHECK_OPND_COUNT, in->span, "%s takes 2 operands (has %u)", full,
		       in->nopnds);
		return;
	}
	cvt_operand(c, in, 0, d, full);
	cvt_operand(c, in, 1, a, full);
}

/* ---- Control flow and addresses ---------------------------------------------------------- */

/* bra{.uni} target: a label (ISA 9.7.12.1); brx.idx takes registers. */
static void bra_check(struct ck *c, const struct ir_insn *in)
{
	for (unsigned i = 0; i < in->nmods; i++)
		if (in->mods[i] != MOD_UNI) {
			report(c, CHECK_MOD_NOT_ALLOWED, in->mod_spans[i],
			       "bra takes only '.uni' (not '%s')", ir_mod_name(in->mods[i]));
			return;
		}
	if (in->nopnds != 1) {
		report(c, CHECK_OPND_COUNT, in->span, "bra takes one operand, a label (has %u)",
		       in->nopnds);
		return;
	}
	const struct ir_operand *o = &in->opnds[0];
	if (o->kind != OPND_SYM || !o->ref.sym || o->ref.sym->kind != SYM_LABEL)
		report(c, CHECK_BRANCH_FORM, o->span,
		       "the target of bra must be a label (use brx.idx to jump through "
		       "a register)");
}

/* brx.idx{.uni} index, tlist (ISA 9.7.12.2): an index, then a label declared by
 * .branchtargets; the loader relies on that shape. */
static void brx_check(struct ck *c, const struct ir_insn *in)
{
	if (in->nopnds != 2) {
		report(c, CHECK_OPND_COUNT, in->span,
		       "brx.idx takes two operands, an index and a .branchtargets "
		       "label (has %u)", in->nopnds);
		return;
	}
	const struct ir_operand *t = &in->opnds[1];
	bool ref = t->kind == OPND_SYM || t->kind == OPND_REG;
	if (!ref || !t->ref.sym || t->ref.sym->kind != SYM_TARGETS)
		report(c, CHECK_BRANCH_FORM, t->span,
		       "the second operand of brx.idx must be a label declared by "
		       ".branchtargets");
}

/* The state-space word of an instruction and its index, or MOD_NONE. */
static enum ir_mod space_of(const struct ir_insn *in, int *at)
{
	for (unsigned i = 0; i < in->nmods; i++)
		if (ir_mod_kind(in->mods[i]) == MK_SPACE) {
			*at = (int)i;
			return in->mods[i];
		}
	*at = -1;
	return MOD_NONE;
}

static bool same_space(enum ir_mod v, enum ir_mod i)
{
	bool sv = v == MOD_SHARED || v == MOD_SHARED_CTA || v == MOD_SHARED_CLUSTER;
	bool si = i == MOD_SHARED || i == MOD_SHARED_CTA || i == MOD_SHARED_CLUSTER;
	bool pi = i == MOD_PARAM || i == MOD_PARAM_ENTRY || i == MOD_PARAM_FUNC;
	return (sv && si) || v == i || (pi && v == MOD_PARAM);
}

/* exit, ret{.uni}, trap (ISA 9.7.12.5-7, 9.7.20.1): no operands, no type; only ret takes
 * '.uni'. */
static void noarg_check(struct ck *c, const struct ir_insn *in)
{
	const char *name = ir_op_name(in->op);
	for (unsigned i = 0; i < in->nmods; i++)
		if (!(in->op == OP_RET && in->mods[i] == MOD_UNI)) {
			report(c, CHECK_MOD_NOT_ALLOWED, in->mod_spans[i],
			       "'%s' is not valid on %s", ir_mod_name(in->mods[i]), name);
			return;
		}
	if (in->nopnds)
		report(c, CHECK_OPND_COUNT, in->span, "%s takes no operands (has %u)", name,
		       in->nopnds);
}

/* cvta{.to}.space.size d, a (ISA 9.7.9.19): a state space is mandatory, the size is .u32 or
 * .u64 (ptxas 13.0: only .u64 in a 64-bit module), d and a are registers of that width (a
 * may also name a variable of the same state space, or be a constant). */
static void cvta_check(struct ck *c, const struct ir_insn *in)
{
	int sat;
	enum ir_mod space = space_of(in, &sat);
	if (space == MOD_NONE) {
		report(c, CHECK_MOD_MISSING, in->op_span,
		       "cvta needs a state space (such as '.global' or '.shared')");
		return;
	}
	enum ir_mod ty = MOD_NONE;
	for (unsigned i = 0; i < in->nmods; i++) {
		enum ir_mod m = in->mods[i];
		if (ir_mod_kind(m) != MK_TYPE)
			continue;
		if (m != MOD_U32 && m != MOD_U64) {
			report(c, CHECK_INSN_TYPE, in->mod_spans[i],
			       "cvta takes '.u64' (or '.u32'), not '%s'", ir_mod_name(m));
			return;
		}
		ty = m;
		if (ir_type_size(m) == 4 && c->m->address_size != 32) {
			report(c, CHECK_INSN_TYPE, in->mod_spans[i],
			       "cvta%s: 32-bit address conversion is not supported "
			       "by ptxas 13.0 (use .u64)", ir_mod_name(m));
			return;
		}
	}
	if (ty == MOD_NONE) {
		report(c, CHECK_INSN_TYPE, in->op_span, "cvta needs a type ('.u64')");
		return;
	}
	if (in->nopnds != 2)
		return;
	for (unsigned i = 0; i < 2; i++) {
		const struct ir_operand *o = &in->opnds[i];
		if (o->kind == OPND_REG && !is_sreg(o) && !is_int_reg(o, ir_type_size(ty)))
			report(c, CHECK_OPND_TYPE, o->span,
			       "operand %u of cvta%s must be a %d-bit integer register", i + 1,
			       ir_mod_name(ty), ir_type_size(ty) * 8);
	}
	const struct ir_operand *a = &in->opnds[1];
	if (a->kind == OPND_ADDR && a->addr.base)
		a = a->addr.base;
	if (a->kind == OPND_SYM && a->ref.sym && a->ref.sym->kind == SYM_VAR &&
	    !same_space(a->ref.sym->space, space))
		report(c, CHECK_ADDRESS, a->span,
		       "'%.*s' is in %s memory, not %s: the address does not match " "cvta%s",
		       (int)a->ref.sym->name_len, a->ref.sym->name, ir_mod_name(a->ref.sym->space),
		       ir_mod_name(space), ir_mod_name(space));
}

/* isspacep.space p, a (ISA 9.7.9.20): a state space and no type; p is a predicate;
 * .param::entry needs PTX 8.3. */
static void isspacep_check(struct ck *c, const struct ir_insn *in)
{
	int sat;
	enum ir_mod space = space_of(in, &sat);
	if (space == MOD_NONE) {
		report(c, CHECK_MOD_MISSING, in->op_span,
		       "isspacep needs a state space (such as '.global')");
		return;
	}
	if (space == MOD_PARAM_ENTRY)
		need(c, in->mod_spans[sat], 83, 0, "'.param::entry' on isspacep");
	for (unsigned i = 0; i < in->nmods; i++)
		if (ir_mod_kind(in->mods[i]) == MK_TYPE) {
			report(c, CHECK_INSN_TYPE, in->mod_spans[i],
			       "isspacep takes no type ('%s')", ir_mod_name(in->mods[i]));
			return;
		}
	if (in->nopnds >= 1 && (!is_pred_reg(&in->opnds[0]) || in->opnds[0].neg))
		report(c, CHECK_OPND_KIND, in->opnds[0].span,
		       "the destination of isspacep must be a predicate " "register");
}

/* A barrier-number or thread-count operand: a 32-bit integer register or a constant,
 * 0..15 for the barrier, a positive multiple of 32 for the count (ISA 9.7.13.1). */
static void bar_operand(struct ck *c, const struct ir_insn *in, const struct ir_operand *o,
			bool count)
{
	const char *name = ir_op_name(in->op);
	if (o->kind == OPND_IMM) {
		if (!count && (o->imm < 0 || o->imm > 15))
			report(c, CHECK_BARRIER_FORM, o->span,
			       "barrier number %" PRId64 " of %s is outside [0, 15]", o->imm, name);
		else if (count && (o->imm <= 0 || o->imm % 32))
			report(c, CHECK_BARRIER_FORM, o->span,
			       "thread count %" PRId64 " of %s must be a positive multiple "
			       "of the warp size (32)", o->imm, name);
		return;
	}
	if (!is_sreg(o) && !is_int_reg(o, 4))
		report(c, CHECK_OPND_KIND, o->span,
		       "the %s of %s must be a 32-bit integer register or a constant",
		       count ? "thread count" : "barrier number", name);
}

/* bar{.cta}.sync/.arrive/.red, barrier{.cta}.*, bar.warp.sync (ISA 9.7.13.1, .13.2):
 * operand counts and literals; bar.sync/.arrive take no '.aligned' (barrier.* does);
 * bar.red.popc is .u32, .and/.or are .pred. */
static void bar_check(struct ck *c, const struct ir_insn *in)
{
	const char *name = ir_op_name(in->op);
	unsigned n = in->nopnds;
	if (in->op == OP_BAR_WARP_SYNC) {
		if (n != 1) {
			report(c, CHECK_OPND_COUNT, in->span,
			       "bar.warp.sync takes one operand, a member mask (has %u)", n);
			return;
		}
		if (in->opnds[0].kind != OPND_IMM && !is_int_reg(&in->opnds[0], 4))
			report(c, CHECK_OPND_KIND, in->opnds[0].span,
			       "the member mask of bar.warp.sync must be a 32-bit "
			       "integer register or a constant");
		return;
	}
	bool bar = in->op == OP_BAR_SYNC || in->op == OP_BAR_ARRIVE || in->op == OP_BAR_RED;
	for (unsigned i = 0; i < in->nmods; i++)
		if (bar && in->mods[i] == MOD_ALIGNED) {
			report(c, CHECK_MOD_NOT_ALLOWED, in->mod_spans[i],
			       "'.aligned' is not valid on %s (bar is always "
			       "aligned; barrier%s takes it)", name, name + 3);
			return;
		}
	if (in->op == OP_BAR_RED || in->op == OP_BARRIER_RED) {
		bool popc = has_mod(in, MOD_POPC);
		enum ir_mod want = popc ? MOD_U32 : MOD_PRED;
		for (unsigned i = 0; i < in->nmods; i++)
			if (ir_mod_kind(in->mods[i]) == MK_TYPE && in->mods[i] != want) {
				report(c, CHECK_BARRIER_FORM, in->mod_spans[i],
				       "%s%s needs '%s', not '%s'", name,
				       popc ? ".popc" : ".and/.or", ir_mod_name(want),
				       ir_mod_name(in->mods[i]));
				return;
			}
		if (n < 3 || n > 4) {
			report(c, CHECK_OPND_COUNT, in->span, "%s takes 3 or 4 operands (has %u)",
			       name, n);
			return;
		}
		const struct ir_operand *d = &in->opnds[0], *p = &in->opnds[n - 1];
		if (popc ? !is_int_reg(d, 4) : !is_pred_reg(d))
			report(c, CHECK_OPND_KIND, d->span,
			       "the destination of %s must be a %s register", name,
			       popc ? "32-bit integer" : "predicate");
		if (!is_pred_reg(p))
			report(c, CHECK_OPND_KIND, p->span,
			       "the last operand of %s must be a predicate register", name);
		bar_operand(c, in, &in->opnds[1], false);
		if (n == 4)
			bar_operand(c, in, &in->opnds[2], true);
		return;
	}
	bool arrive = in->op == OP_BAR_ARRIVE || in->op == OP_BARRIER_ARRIVE;
	unsigned lo = arrive ? 2 : 1;
	if (n < lo || n > 2) {
		report(c, CHECK_OPND_COUNT, in->span,
		       arrive ? "%s takes 2 operands, a barrier and a thread count (has %u)"
			      : "%s takes 1 or 2 operands, a barrier and a thread count (has %u)",
		       name, n);
		return;
	}
	bar_operand(c, in, &in->opnds[0], false);
	if (n == 2)
		bar_operand(c, in, &in->opnds[1], true);
}

/* A cp.async address operand naming a variable of the wrong state space. */
static void cp_async_addr(struct ck *c, const struct ir_operand *o, int n, bool shared)
{
	if (o->kind != OPND_ADDR) {
		report(c, CHECK_OPND_KIND, o->span,
		       "operand %d of cp.async must be an address in brackets", n);
		return;
	}
	const struct ir_operand *b = o->addr.base;
	if (!b || b->kind != OPND_SYM || !b->ref.sym || b->ref.sym->kind != SYM_VAR)
		return;
	const struct ir_sym *y = b->ref.sym;
	bool ok = shared ? y->space == MOD_SHARED || y->space == MOD_SHARED_CTA
			 : y->space == MOD_GLOBAL;
	if (!ok)
		report(c, CHECK_CP_ASYNC_FORM, b->span,
		       "'%.*s' is in %s memory: the %s of cp.async must be in %s", (int)y->name_len,
		       y->name, ir_mod_name(y->space), shared ? "destination" : "source",
		       shared ? ".shared" : ".global");
}

/* cp.async.ca/.cg.shared{::cta}.global [dst], [src], cp-size {, src-size | ignore-src}
 * {, cache-policy} (ISA 9.7.9.25.3): .ca or .cg is mandatory; .cg copies 16 bytes, .ca 4,
 * 8 or 16; cp-size is a constant, src-size a 32-bit integer no larger than cp-size. */
static void cp_async_check(struct ck *c, const struct ir_insn *in)
{
	bool cg = has_mod(in, MOD_CG), hint = has_mod(in, MOD_L2_CACHE_HINT);
	if (!cg && !has_mod(in, MOD_CA)) {
		report(c, CHECK_MOD_MISSING, in->op_span, "cp.async needs '.ca' or '.cg'");
		return;
	}
	enum ir_mod sp[3] = {MOD_NONE, MOD_NONE, MOD_NONE};
	int nsp = 0, at = -1;
	for (unsigned i = 0; i < in->nmods; i++) {
		enum ir_mod m = in->mods[i];
		if (ir_mod_kind(m) == MK_SPACE && nsp < 3) {
			sp[nsp++] = m;
			at = (int)i;
		}
		if (m == MOD_L2_CACHE_HINT || m == MOD_L2_64B || m == MOD_L2_128B ||
		    m == MOD_L2_256B) {
			need(c, in->mod_spans[i], 74, 0, "'%s' on cp.async", ir_mod_name(m));
		}
	}
	if (nsp != 2 || (sp[0] != MOD_SHARED && sp[0] != MOD_SHARED_CTA) || sp[1] != MOD_GLOBAL) {
		report(c, CHECK_CP_ASYNC_FORM, at >= 0 ? in->mod_spans[at] : in->op_span,
		       "cp.async copies from .global to "
		       ".shared: write its state spaces as '.shared.global'");
		return;
	}
	unsigned lo = 3 + hint, hi = 4 + hint;
	if (in->nopnds < lo || in->nopnds > hi) {
		report(c, CHECK_OPND_COUNT, in->span, "cp.async%s takes %u or %u operands (has %u)",
		       hint ? ".L2::cache_hint" : "", lo, hi, in->nopnds);
		return;
	}
	cp_async_addr(c, &in->opnds[0], 1, true);
	cp_async_addr(c, &in->opnds[1], 2, false);
	const struct ir_operand *o = &in->opnds[2];
	if (o->kind != OPND_IMM) {
		report(c, CHECK_OPND_KIND, o->span,
		       "the cp-size of cp.async must be a constant (4, 8 or 16)");
		return;
	}
	int64_t v = o->imm;
	if (cg && v != 16)
		report(c, CHECK_CP_ASYNC_FORM, o->span,
		       "cp.async.cg copies 16 bytes (cp-size is %" PRId64 ")", v);
	else if (!cg && v != 4 && v != 8 && v != 16)
		report(c, CHECK_CP_ASYNC_FORM, o->span,
		       "cp.async cp-size must be 4, 8 or 16 (is %" PRId64 ")", v);
	if (in->nopnds == hi) {
		const struct ir_operand *s = &in->opnds[3];
		if (s->kind == OPND_IMM && (s->imm < 0 || s->imm > v))
			report(c, CHECK_CP_ASYNC_FORM, s->span,
			       "cp.async src-size %" PRId64 " is outside [0, cp-size %" PRId64 "]",
			       s->imm, v);
		else if (s->kind != OPND_IMM && !is_int_reg(s, 4) && !is_pred_reg(s))
			report(c, CHECK_OPND_KIND, s->span,
			       "the src-size of cp.async must be a 32-bit integer (or an "
			       "ignore-src predicate)");
	}
}

/* atom / red words beyond operation x type (ISA 9.7.13.5, .6): the state space is generic,
 * .global or .shared; red has no .cas/.exch; no .sat; vectors and .bf16 addition need sm_90. */
static bool atom_mods_check(struct ck *c, const struct ir_insn *in)
{
	const char *name = ir_op_name(in->op);
	bool ok = true;
	for (unsigned i = 0; i < in->nmods; i++) {
		enum ir_mod m = in->mods[i];
		struct src_span s = in->mod_spans[i];
		if (ir_mod_kind(m) == MK_SPACE && m != MOD_GLOBAL && m != MOD_SHARED &&
		    m != MOD_SHARED_CTA && m != MOD_SHARED_CLUSTER) {
			report(c, CHECK_MOD_NOT_ALLOWED, s,
			       "%s works on .global or .shared memory, not '%s'", name,
			       ir_mod_name(m));
			ok = false;
		} else if (in->op == OP_RED && (m == MOD_CAS || m == MOD_EXCH)) {
			report(c, CHECK_MOD_NOT_ALLOWED, s,
			       "red has no '%s' (it returns nothing; use atom%s)", ir_mod_name(m),
			       ir_mod_name(m));
			ok = false;
		} else if (m == MOD_SAT) {
			report(c, CHECK_MOD_NOT_ALLOWED, s, "'.sat' is not valid on %s", name);
			ok = false;
		} else if (ir_mod_kind(m) == MK_VEC) {
			ok &= need(c, s, 0, 90, "%s with a vector type ('%s')", name, ir_mod_name(m));
		} else if ((m == MOD_BF16 || m == MOD_BF16X2) && has_mod(in, MOD_ADD)) {
			ok &= need(c, s, 0, 90, "%s.add%s", name, ir_mod_name(m));
		} else if (m == MOD_B128) {
			ok &= need(c, s, 0, 90, "%s with type .b128", name);
		}
	}
	return ok;
}

/* atom / red operand counts (ISA 9.7.13.5, .6): d, [a], b {, c for cas} {, cache-policy}. */
static void atom_check(struct ck *c, const struct ir_insn *in)
{
	bool cas = has_mod(in, MOD_CAS), hint = has_mod(in, MOD_L2_CACHE_HINT);
	bool vec = false;
	for (unsigned i = 0; i < in->nmods; i++)
		vec |= ir_mod_kind(in->mods[i]) == MK_VEC;
	if (!atom_mods_check(c, in) || vec)
		return;
	unsigned want = (in->op == OP_ATOM ? 3u : 2u) + cas + hint;
	const char *name = ir_op_name(in->op);
	/* operation x type (CK_ATOM rows); the half types need .noftz */
	enum ir_mod aop = MOD_NONE, ty = MOD_NONE;
	int at = -1;
	for (unsigned i = 0; i < in->nmods; i++) {
		if (ir_mod_kind(in->mods[i]) == MK_TYPE) {
			ty = in->mods[i];
			at = (int)i;
		}
		for (size_t k = 0; k < sizeof atomrows / sizeof atomrows[0]; k++)
			if (atomrows[k].op == in->mods[i])
				aop = in->mods[i];
	}
	if (aop == MOD_NONE || ty == MOD_NONE) {
		report(c, CHECK_MOD_MISSING, in->op_span,
		       "%s needs an operation (such as '.add') and a type", name);
		return;
	}
	bool typed_ok = false;
	for (size_t k = 0; k < sizeof atomrows / sizeof atomrows[0]; k++)
		typed_ok |= atomrows[k].op == aop && (atomrows[k].types & T_BIT(ty));
	if (!typed_ok && aop == MOD_ADD && (ty == MOD_F16 || ty == MOD_F16X2 || ty == MOD_BF16 ||
					    ty == MOD_BF16X2))
		typed_ok = has_mod(in, MOD_NOFTZ);
	if (!typed_ok) {
		report(c, CHECK_INSN_TYPE, in->mod_spans[at], "%s%s does not take '%s'", name,
		       ir_mod_name(aop), ir_mod_name(ty));
		return;
	}
	if (in->nopnds != want) {
		report(c, CHECK_OPND_COUNT, in->span, "%s%s takes %u operands (has %u)", name,
		       cas ? ".cas" : "", want, in->nopnds);
		return;
	}
	unsigned ai = in->op == OP_ATOM ? 1 : 0;
	if (in->opnds[ai].kind != OPND_ADDR)
		report(c, CHECK_OPND_KIND, in->opnds[ai].span,
		       "operand %u of %s must be an address in brackets", ai + 1, name);
	/* data operands: registers of the type's width (.b128: .b128 registers), constants of
	 * its kind (ptxas 13.0 takes an integer constant for a .b128 operand too) */
	char what[48];
	spell(what, sizeof what, name, ir_mod_name(aop), ir_mod_name(ty));
	for (unsigned i = 0; i < want - hint; i++) {
		const struct ir_operand *o = &in->opnds[i];
		if (i == ai || is_sreg(o))
			continue;
		enum ir_mod r = reg_type(o);
		if (o->kind == OPND_REG && r != MOD_NONE &&
		    (ty == MOD_B128 ? r != MOD_B128 : r == MOD_PRED ||
		     ir_type_size(r) != ir_type_size(ty)))
			report(c, CHECK_OPND_TYPE, o->span,
			       "operand %u of %s is a %d-bit register; expected %d bits", i + 1,
			       what, r == MOD_PRED ? 1 : ir_type_size(r) * 8, ir_type_size(ty) * 8);
		else if (o->kind == OPND_IMM && is_float_type(ty))
			report(c, CHECK_OPND_KIND, o->span,
			       "operand %u of %s is an integer constant; expected a "
			       "floating-point value", i + 1, what);
	}
}

/* An address of st.async / red.async: ptxas 13.0 takes a 32-bit register even without a
 * state space, where check_addr wants a 64-bit generic one, and then a variable of any
 * space (a generic address). */
static void async_addr(struct ck *c, const struct ir_insn *in, int i, bool generic)
{
	const struct ir_operand *o = &in->opnds[i];
	const struct ir_operand *b = o->kind == OPND_ADDR ? o->addr.base : NULL;
	if (b && (is_int_reg(b, 4) || (generic && b->kind == OPND_SYM && b->ref.sym &&
				       b->ref.sym->kind == SYM_VAR)))
		return;
	check_addr(c, in, o, i, true, false);
}

/* One value stored by st.async / red.async `what` of type ty (ptxas 13.0): a register that
 * fits the type (ISA 6.4.1; in a vector an integer register of the width also stands for a
 * float element), an integer constant for an integer type, a 0f/0d one for a float type or
 * a .bN of its width (any in a vector). */
static void async_value(struct ck *c, const struct ir_operand *o, enum ir_mod ty, bool in_vec,
			const char *what)
{
	bool ok = false;
	if (is_sreg(o)) {
		report(c, CHECK_SREG, o->span,
		       "a special register cannot be an operand of %s (read it with " "mov)", what);
		return;
	}
	if (o->kind == OPND_REG) {
		enum ir_mod r = reg_type(o);
		ok = r != MOD_NONE && !o->neg &&
		     (reg_fits(r, ty) || (in_vec && is_float_type(ty) && is_int_type(r) &&
					 ir_type_size(r) == ir_type_size(ty)));
		if (!ok && r != MOD_NONE && !o->neg) {
			report(c, CHECK_OPND_TYPE, o->span, "%s cannot store a %s register", what,
			       ir_mod_name(r));
			return;
		}
	} else if (o->kind == OPND_IMM) {
		ok = !is_float_type(ty);
	} else if (o->kind == OPND_FIMM) {
		ok = in_vec || ty == MOD_F32 || ty == MOD_F64 ||
		     (ty == MOD_B32 && o->fimm.is_f32) || (ty == MOD_B64 && !o->fimm.is_f32);
	}
	if (!ok)
		report(c, CHECK_OPND_TYPE, o->span,
		       "the value of %s must be %s or a constant of its type", what, type_words(ty));
}

static bool red_async_takes(enum ir_mod op, enum ir_mod ty)
{
	for (size_t k = 0; k < sizeof redasyncrows / sizeof redasyncrows[0]; k++)
		if (redasyncrows[k].op == op)
			return redasyncrows[k].types & T_BIT(ty);
	return false;
}

/* The value operand: one value, or a vector of n. ptxas 13.0 also takes one value for a
 * .vN and, for a 32-bit type, a vector of 2 or 4 without .vN (warnings: ptxi does not run
 * those). */
static void async_values(struct ck *c, const struct ir_insn *in, enum ir_mod ty, int n,
			 const char *what)
{
	const struct ir_operand *o = &in->opnds[1];
	if (n == 1 && o->kind == OPND_VEC && o->vec.n == 1)
		o = &o->vec.elems[0];   /* { %r2 }: a scalar, as in ld/st */
	int got = o->kind == OPND_VEC ? (int)o->vec.n : 1;
	if (got > 1 && in->nopnds == 2) {
		report(c, CHECK_ASYNC_STORE_FORM, o->span,
		       "a vector value of st.async needs the mbarrier operand");
		return;
	}
	bool lax = o->kind != OPND_VEC ||
		   (n == 1 && ir_type_size(ty) == 4 && (got == 2 || got == 4));
	if (got != n && !lax) {
		report(c, CHECK_ASYNC_STORE_FORM, o->span, "%s needs %s (has %d)", what,
		       n == 1 ? "one value" : n == 2 ? "a vector of 2 values" : "a vector of 4 values",
		       got);
		return;
	}
	if (got != n)
		report(c, CHECK_MANUAL_FORM, o->span,
		       "%s stores %d value%s, but the operand has %d (ptxas accepts "
		       "it; ptxi cannot run it)", what, n, n == 1 ? "" : "s", got);
	if (got == 1)
		async_value(c, o, ty, false, what);
	for (int k = 0; got > 1 && k < got; k++)
		async_value(c, &o->vec.elems[k], ty, true, what);
}

/* What the manual says of forms ptxas 13.0 takes: the forms without [mbar] or without the
 * completion mechanism belong to sm_100's .release.global stores; st.async names only
 * .shared::cluster and gets .cluster in PTX 8.7 on sm_100. */
static void async_store_warnings(struct ck *c, const struct ir_insn *in, const struct mods *ms,
				 const char *what)
{
	enum ir_mod space = ms->by_group[G_SPACE];
	if (in->nopnds == 2 || ms->at[G_COMPLETION] < 0)
		report(c, CHECK_MANUAL_FORM, in->span,
		       "%s without %s is not a form of the manual (ptxas accepts it; "
		       "ptxi cannot run it)", what,
		       in->nopnds == 2 ? "an mbarrier operand" : "'.mbarrier::complete_tx::bytes'");
	if (in->op != OP_ST_ASYNC)
		return;
	if (space == MOD_SHARED || space == MOD_SHARED_CTA)
		report(c, CHECK_MANUAL_FORM, mod_span(in, ms, G_SPACE),
		       "'%s' on st.async: the manual allows only "
		       "'.shared::cluster' (ptxas accepts it; ptxi reads the addresses as "
		       "shared::cluster ones)", ir_mod_name(space));
	if (ms->by_group[G_SCOPE] == MOD_CLUSTER)
		report(c, CHECK_MANUAL_FORM, mod_span(in, ms, G_SCOPE),
		       "'.cluster' on st.async needs PTX ISA 8.7 "
		       "and sm_100 according to the manual (ptxas accepts it)");
}

/* st.async / red.async (ISA 9.7.9.12, 9.7.13.7), as ptxas 13.0 takes them: [a], b, [mbar]
 * with .mbarrier::complete_tx::bytes, which st.async may leave out only with .shared::cta,
 * .shared, or neither space nor scope nor [mbar]; st.async's .weak excludes .cluster, which
 * wants .shared::cluster if a space is written; red.async is .relaxed.cluster with an
 * operation of CK_RED_ASYNC; a vector needs [mbar] and holds at most 16 bytes. */
static void async_store_check(struct ck *c, const struct ir_insn *in, const struct mods *ms)
{
	const char *name = ir_op_name(in->op);
	bool red = in->op == OP_RED_ASYNC;
	enum ir_mod ty = ms->by_group[G_TYPE], vec = ms->by_group[G_VEC], op = ms->by_group[G_OP];
	enum ir_mod sem = ms->by_group[G_SEM], scope = ms->by_group[G_SCOPE];
	enum ir_mod space = ms->by_group[G_SPACE];
	int n = vec ? ir_mod_arg(vec) : 1;
	if (ty == MOD_NONE)
		return; /* check_mods reported it */
	if (red && sem == MOD_NONE) {
		report(c, CHECK_ASYNC_STORE_FORM, in->op_span,
		       "red.async needs the memory order and scope " "'.relaxed.cluster'");
		return;
	}
	if (red && scope == MOD_NONE) {
		report(c, CHECK_ASYNC_STORE_FORM, mod_span(in, ms, G_SEM),
		       "'.relaxed' on red.async requires the scope " "'.cluster'");
		return;
	}
	if (!red && sem != MOD_NONE && scope != MOD_NONE) {
		report(c, CHECK_ASYNC_STORE_FORM, mod_span(in, ms, G_SCOPE),
		       "'.weak' cannot be combined with '.cluster' on " "st.async");
		return;
	}
	if (scope != MOD_NONE && space != MOD_NONE && space != MOD_SHARED_CLUSTER) {
		report(c, CHECK_ASYNC_STORE_FORM, mod_span(in, ms, G_SPACE),
		       "'.cluster' on st.async requires " "'.shared::cluster' (not '%s')",
		       ir_mod_name(space));
		return;
	}
	if (ms->at[G_COMPLETION] < 0 && (red || space == MOD_SHARED_CLUSTER || scope != MOD_NONE ||
					 (space == MOD_NONE && in->nopnds == 3))) {
		report(c, CHECK_ASYNC_STORE_FORM, in->op_span, "%s needs the completion mechanism "
		       "'.mbarrier::complete_tx::bytes'", name);
		return;
	}
	if (red && op == MOD_NONE) {
		report(c, CHECK_ASYNC_STORE_FORM, in->op_span,
		       "red.async needs an operation (such as '.add')");
		return;
	}
	if (red && !red_async_takes(op, ty)) {
		report(c, CHECK_ASYNC_STORE_FORM, mod_span(in, ms, G_TYPE),
		       "red.async%s does not take '%s'", ir_mod_name(op), ir_mod_name(ty));
		return;
	}
	if (vec && (in->nopnds == 2 || n * ir_type_size(ty) > 16)) {
		report(c, CHECK_ASYNC_STORE_FORM, mod_span(in, ms, G_VEC),
		       in->nopnds == 2 ? "'%s' on st.async needs the mbarrier operand"
				       : "'%s%s' on st.async stores more than 16 bytes",
		       ir_mod_name(vec), in->nopnds == 2 ? "" : ir_mod_name(ty));
		return;
	}
	if (in->nopnds < 2 || in->nopnds > 3) {
		report(c, CHECK_OPND_COUNT, in->span,
		       "%s takes 3 operands, [a], b, [mbar] (has %u)", name, in->nopnds);
		return;
	}
	char what[64];
	spell(what, sizeof what, name, red ? ir_mod_name(op) : vec ? ir_mod_name(vec) : "",
	      ir_mod_name(ty));
	async_addr(c, in, 0, space == MOD_NONE);
	if (in->nopnds == 3)
		async_addr(c, in, 2, space == MOD_NONE);
	if (red)
		async_value(c, &in->opnds[1], ty, false, what);
	else
		async_values(c, in, ty, n, what);
	async_store_warnings(c, in, ms, what);
}

/* ---- cache eviction policies (ISA 9.7.9.18) ---------------------------------------------- */

static bool is_priority(enum ir_mod m)
{
	return m == MOD_L2_EVICT_LAST || m == MOD_L2_EVICT_NORMAL || m == MOD_L2_EVICT_FIRST ||
	       m == MOD_L2_EVICT_UNCHANGED;
}

/* A primary eviction priority, then at most a secondary one, which is .L2::evict_first or
 * .L2::evict_unchanged (ptxas 13.0 takes the primary's word again there). */
static bool policy_priorities(struct ck *c, const struct ir_insn *in)
{
	const char *name = ir_op_name(in->op);
	int n = 0;
	for (unsigned i = 0; i < in->nmods; i++) {
		enum ir_mod m = in->mods[i];
		if (!is_priority(m))
			continue;
		if (++n == 3) {
			report(c, CHECK_POLICY_FORM, in->mod_spans[i],
			       "%s takes at most two eviction priorities (a primary "
			       "and a secondary one)", name);
			return false;
		}
		if (n == 2 && m != MOD_L2_EVICT_FIRST && m != MOD_L2_EVICT_UNCHANGED) {
			report(c, CHECK_POLICY_FORM, in->mod_spans[i],
			       "'%s' cannot be the secondary eviction priority of %s "
			       "(only .L2::evict_first or .L2::evict_unchanged)", ir_mod_name(m),
			       name);
			return false;
		}
	}
	if (!n)
		report(c, CHECK_POLICY_FORM, in->op_span,
		       "%s needs an eviction priority (such as '.L2::evict_last')", name);
	return n > 0;
}

/* The fraction: an .f32 (or .b32) register, or a constant that is in (0.0, 1.0] as an f32
 * (ptxas 13.0 rounds a 0d constant to f32 first). */
static void policy_fraction(struct ck *c, const struct ir_operand *o)
{
	if (o->kind == OPND_FIMM) {
		float f;
		if (o->fimm.is_f32) {
			uint32_t b = (uint32_t)o->fimm.bits;
			memcpy(&f, &b, 4);
		} else {
			double d;
			memcpy(&d, &o->fimm.bits, 8);
			f = (float)d;
		}
		if (!(f > 0.0f && f <= 1.0f))
			report(c, CHECK_POLICY_FORM, o->span,
			       "the fraction of createpolicy.fractional must be in (0.0, 1.0] "
			       "(is %g)", (double)f);
		return;
	}
	enum ir_mod r = reg_type(o);
	if (is_sreg(o) || o->kind != OPND_REG || r == MOD_NONE || o->neg || !reg_fits(r, MOD_F32))
		report(c, CHECK_OPND_TYPE, o->span,
		       "the fraction of createpolicy.fractional must be an .f32 or .b32 "
		       "register, or a floating-point constant");
}

/* createpolicy.range's address: a .global one with .global, else generic (any variable);
 * ptxas 13.0 takes a 32-bit register either way. Then primary-size <= total-size, compared
 * as 32-bit values when both are constants. */
static void policy_range(struct ck *c, const struct ir_insn *in, const struct mods *ms)
{
	const struct ir_operand *o = &in->opnds[1], *p = &in->opnds[2], *t = &in->opnds[3];
	const struct ir_operand *b = o->kind == OPND_ADDR ? o->addr.base : NULL;
	bool generic = ms->by_group[G_SPACE] == MOD_NONE;
	bool var = b && b->kind == OPND_SYM && b->ref.sym && b->ref.sym->kind == SYM_VAR;
	if (!(b && is_int_reg(b, 4)) && !(generic && var))
		check_addr(c, in, o, 1, false, true);
	if (p->kind == OPND_IMM && t->kind == OPND_IMM && (uint32_t)p->imm > (uint32_t)t->imm)
		report(c, CHECK_POLICY_FORM, p->span,
		       "the primary-size of createpolicy.range (%" PRIu32 ") exceeds its "
		       "total-size (%" PRIu32 ")", (uint32_t)p->imm, (uint32_t)t->imm);
}

/* createpolicy (ISA 9.7.9.18), once the operand kinds of its CK_OPND row passed. */
static void policy_check(struct ck *c, const struct ir_insn *in, const struct mods *ms)
{
	if (in->op == OP_CREATEPOLICY_CVT) {
		if (ms->by_group[G_OTHER] != MOD_L2)
			report(c, CHECK_MOD_MISSING, in->op_span,
			       "createpolicy.cvt needs the cache level '.L2'");
		return;
	}
	if (!policy_priorities(c, in))
		return;
	if (in->op == OP_CREATEPOLICY_RANGE)
		policy_range(c, in, ms);
	else if (in->nopnds == 2)
		policy_fraction(c, &in->opnds[1]);
}

/* ld / st / atom / red with a variable address: the variable's state space must be the
 * instruction's (ptxas: "state space mismatch"); generic accesses take any variable. */
static void space_match_check(struct ck *c, const struct ir_insn *in)
{
	enum ir_mod space = MOD_NONE;
	for (unsigned i = 0; i < in->nmods; i++)
		if (ir_mod_kind(in->mods[i]) == MK_SPACE)
			space = in->mods[i];
	/* The address operand: first of st/red, second of ld/atom. */
	unsigned ai = in->op == OP_ST || in->op == OP_RED ? 0 : 1;
	if (in->nopnds > ai && in->opnds[ai].kind != OPND_ADDR) {
		report(c, CHECK_OPND_KIND, in->opnds[ai].span,
		       "operand %u of %s must be an address in brackets", ai + 1,
		       ir_op_name(in->op));
		return;
	}
	if (in->nopnds > ai && !in->opnds[ai].addr.base && space != MOD_LOCAL) {
		report(c, CHECK_ADDRESS, in->opnds[ai].span,
		       "%s%s cannot take an immediate address (only .local " "can)",
		       ir_op_name(in->op), ir_mod_name(space));
		return;
	}
	for (unsigned i = 0; i < in->nopnds; i++) {
		const struct ir_operand *o = &in->opnds[i];
		const struct ir_operand *b = o->kind == OPND_ADDR ? o->addr.base : NULL;
		if (b && b->kind == OPND_SYM && b->ref.sym && b->ref.sym->kind != SYM_VAR) {
			report(c, CHECK_ADDRESS, b->span,
			       "'%.*s' is not a variable: an address operand names a "
			       "variable or an integer register", (int)b->ref.sym->name_len,
			       b->ref.sym->name);
			return;
		}
		if (b && b->kind == OPND_REG && !is_sreg(b) &&
		    (!is_int_type(reg_type(b)) || ir_type_size(reg_type(b)) < 2)) {
			report(c, CHECK_ADDRESS, b->span,
			       "an address register must be an integer register");
			return;
		}
		if (b && (space == MOD_NONE || space == MOD_GLOBAL) && is_int_reg(b, 4) &&
		    c->m->address_size != 32) {
			/* ptxas: 32-bit generic addressing is not supported (any target) */
			report(c, CHECK_ADDRESS, b->span,
			       "a generic address needs a 64-bit register in a 64-bit "
			       "module (or write a state space such as '.shared')");
			return;
		}
	}
	if (space == MOD_NONE)
		return;
	for (unsigned i = 0; i < in->nopnds; i++) {
		const struct ir_operand *o = &in->opnds[i];
		if (o->kind != OPND_ADDR || !o->addr.base || o->addr.base->kind != OPND_SYM ||
		    !o->addr.base->ref.sym || o->addr.base->ref.sym->kind != SYM_VAR)
			continue;
		const struct ir_sym *y = o->addr.base->ref.sym;
		enum ir_mod vs = y->space;
		bool shared_v = vs == MOD_SHARED || vs == MOD_SHARED_CTA || vs == MOD_SHARED_CLUSTER;
		bool shared_i = space == MOD_SHARED || space == MOD_SHARED_CTA ||
				space == MOD_SHARED_CLUSTER;
		bool param_i = space == MOD_PARAM || space == MOD_PARAM_ENTRY ||
			       space == MOD_PARAM_FUNC;
		if ((shared_v && shared_i) || vs == space || (param_i && vs == MOD_PARAM))
			continue;
		report(c, CHECK_ADDRESS, o->addr.base->span,
		       "'%.*s' is in %s memory, not %s: the address does not " "match %s%s",
		       (int)y->name_len, y->name, ir_mod_name(vs), ir_mod_name(space),
		       ir_op_name(in->op), ir_mod_name(space));
	}
}

/* ld/st semantics, scope and cache words (CK_MEMMOD rows) and how they combine (ISA 9.7.9.8,
 * .9, as ptxas 13.0 applies them): .relaxed/.acquire/.release need a scope and a scope needs
 * one of them; .nc takes no ordering; .L2::evict_* only on 256-bit vectors; .L2::cache_hint
 * and only it adds a cache-policy operand; .const is read-only. Returns false if st.const. */
static bool ldst_mods_check(struct ck *c, const struct ir_insn *in)
{
	const char *name = ir_op_name(in->op);
	int sem = -1, scope = -1, nc = -1, evict = -1, vec = 1;
	enum ir_mod type = MOD_NONE;
	for (unsigned i = 0; i < in->nmods; i++) {
		enum ir_mod m = in->mods[i];
		enum ir_mod_kind k = ir_mod_kind(m);
		if (k == MK_VEC)
			vec = ir_mod_arg(m);
		if (k == MK_TYPE)
			type = m;
		if (in->op == OP_ST && m == MOD_CONST) {
			report(c, CHECK_MOD_NOT_ALLOWED, in->mod_spans[i],
			       "st cannot write '.const' memory (it is read-only)");
			return false;
		}
		if (k != MK_SEM && k != MK_SCOPE && k != MK_CACHE)
			continue;
		size_t r = 0, n = sizeof memmods / sizeof memmods[0];
		while (r < n && !(memmods[r].op == in->op && memmods[r].mod == m))
			r++;
		if (r == n) {
			report(c, CHECK_MOD_NOT_ALLOWED, in->mod_spans[i],
			       "'%s' is not a valid qualifier for %s", ir_mod_name(m), name);
			continue;
		}
		need(c, in->mod_spans[i], memmods[r].ptx, memmods[r].sm, "'%s' on %s", ir_mod_name(m),
		     name);
		if (m == MOD_RELAXED || m == MOD_ACQUIRE || m == MOD_RELEASE ||
		    (m == MOD_VOLATILE && sem < 0))
			sem = (int)i;
		if (k == MK_SCOPE)
			scope = (int)i;
		if (m == MOD_NC)
			nc = (int)i;
		if (m == MOD_L2_EVICT_NORMAL || m == MOD_L2_EVICT_FIRST || m == MOD_L2_EVICT_LAST)
			evict = (int)i;
	}
	enum ir_mod sm_ = sem >= 0 ? in->mods[sem] : MOD_NONE;
	if (sem >= 0 && sm_ != MOD_VOLATILE && scope < 0)
		report(c, CHECK_MEMORY_ORDER, in->mod_spans[sem],
		       "'%s' on %s requires a scope ('.cta', '.cluster', '.gpu' " "or '.sys')",
		       ir_mod_name(sm_), name);
	if (scope >= 0 && (sem < 0 || sm_ == MOD_VOLATILE))
		report(c, CHECK_MEMORY_ORDER, in->mod_spans[scope],
		       "scope '%s' on %s needs '.relaxed' or %s", ir_mod_name(in->mods[scope]),
		       name, in->op == OP_LD ? "'.acquire'" : "'.release'");
	if (nc >= 0 && sem >= 0)
		report(c, CHECK_MEMORY_ORDER, in->mod_spans[nc],
		       "'.nc' cannot be combined with '%s' (non-coherent loads are " "weak)",
		       ir_mod_name(sm_));
	if (evict >= 0 && !((vec == 8 && ir_type_size(type) == 4) ||
			    (vec == 4 && ir_type_size(type) == 8)))
		report(c, CHECK_MEMORY_ORDER, in->mod_spans[evict],
		       "'%s' on %s needs a 256-bit vector ('.v8.b32' or " "'.v4.b64')",
		       ir_mod_name(in->mods[evict]), name);
	unsigned want = 2u + has_mod(in, MOD_L2_CACHE_HINT);
	if (in->nopnds != want) {
		if (in->nopnds == 3)
			report(c, CHECK_MEMORY_ORDER, in->opnds[2].span,
			       "a cache-policy operand needs '.L2::cache_hint' on %s", name);
		else
			report(c, CHECK_OPND_COUNT, in->span, "%s%s takes %u operands (has %u)",
			       name, want == 3 ? ".L2::cache_hint" : "", want, in->nopnds);
	}
	return true;
}

/* ld/st data operand (ISA 9.7.9.8, .9): the type is one of .bN/.uN/.sN/.f32/.f64; the
 * register may be wider than the type (a .bN type takes any register, ptxas 13.0); vectors
 * have exactly N elements of at most 16 bytes in all, '_' only in loaded vectors. */
static bool ldst_elem(struct ck *c, const struct ir_insn *in, const struct ir_operand *o,
		      enum ir_mod t, bool load, const char *what)
{
	if (o->kind == OPND_REG && !is_sreg(o)) {
		enum ir_mod r = reg_type(o);
		bool bt = t == MOD_B8 || t == MOD_B16 || t == MOD_B32 || t == MOD_B64;
		bool ok = r != MOD_NONE && r != MOD_PRED && !o->neg &&
			  (bt ? ir_type_size(r) >= ir_type_size(t) ||
				(t == MOD_B8 && ir_type_size(r) >= 2) : reg_fits_wide(r, t));
		if (!ok)
			report(c, CHECK_OPND_TYPE, o->span, "%s cannot %s a %s register as %s",
			       what, load ? "load into" : "store from", ir_mod_name(r),
			       ir_mod_name(t));
		return ok;
	}
	if (o->kind == OPND_SINK && load)
		return true;
	if (!load && o->kind == OPND_IMM && !is_float_type(t))
		return true;
	if (!load && o->kind == OPND_FIMM &&
	    (t == MOD_F32 || t == MOD_F64 || (t == MOD_B32 && o->fimm.is_f32) ||
	     (t == MOD_B64 && !o->fimm.is_f32)))
		return true;
	report(c, CHECK_OPND_KIND, o->span, "the data operand of %s must be a register%s", what,
	       load ? " (or '_' in a vector)" : " or a constant of its type");
	(void)in;
	return false;
}

static void ldst_data_check(struct ck *c, const struct ir_insn *in)
{
	bool load = in->op == OP_LD;
	enum ir_mod t = MOD_NONE;
	int nvec = 1;
	for (unsigned i = 0; i < in->nmods; i++) {
		enum ir_mod m = in->mods[i];
		if (ir_mod_kind(m) == MK_VEC)
			nvec = ir_mod_arg(m);
		if (ir_mod_kind(m) != MK_TYPE)
			continue;
		if (t != MOD_NONE) {
			report(c, CHECK_INSN_TYPE, in->mod_spans[i],
			       "%s takes one type ('%s' and '%s')", ir_op_name(in->op),
			       ir_mod_name(t), ir_mod_name(m));
			return;
		}
		t = m;
		if (m == MOD_PRED || (is_float_type(m) && m != MOD_F32 && m != MOD_F64)) {
			report(c, CHECK_INSN_TYPE, in->mod_spans[i],
			       "'%s' is not a valid type for %s", ir_mod_name(m),
			       ir_op_name(in->op));
			return;
		}
	}
	if (t == MOD_NONE) {
		report(c, CHECK_INSN_TYPE, in->op_span, "%s needs a type (such as '.u32')",
		       ir_op_name(in->op));
		return;
	}
	if (in->nopnds < 2 || in->nopnds > 3)
		return;
	char what[48];
	spell(what, sizeof what, ir_op_name(in->op), ir_mod_name(t), "");
	const struct ir_operand *o = &in->opnds[load ? 0 : 1];
	if (t == MOD_B128) {
		/* ptxas 13.0: a .b128 register (PTX 8.3), or an integer constant stored; no
		 * vector (more than 128 bits) */
		if (nvec > 1)
			report(c, CHECK_OPND_TYPE, o->span, "%s.v%d.b128 moves %d bytes; at most 16",
			       ir_op_name(in->op), nvec, nvec * 16);
		else if (nvec == 1 && reg_type(o) != MOD_B128 && (load || o->kind != OPND_IMM))
			report(c, CHECK_OPND_TYPE, o->span,
			       "the data operand of %s must be a .b128 register%s", what,
			       load ? "" : " or an integer constant");
		return;
	}
	if (nvec == 1 && o->kind == OPND_VEC && o->vec.n == 1)
		o = &o->vec.elems[0];   /* { %r2 }: Triton's spelling of a scalar */
	if (nvec == 1) {
		if (o->kind == OPND_SINK && load)
			report(c, CHECK_OPND_KIND, o->span,
			       "%s cannot discard the loaded value ('_')", what);
		else
			ldst_elem(c, in, o, t, load, what);
		return;
	}
	if (o->kind != OPND_VEC) {
		report(c, CHECK_OPND_TYPE, o->span, "%s.v%d needs a vector of %d registers", what,
		       nvec, nvec);
		return;
	}
	if ((int)o->vec.n != nvec) {
		report(c, CHECK_OPND_TYPE, o->span, "%s.v%d needs %d elements (has %u)", what, nvec,
		       nvec, o->vec.n);
		return;
	}
	if (nvec * ir_type_size(t) > 16) {
		report(c, CHECK_OPND_TYPE, o->span, "%s.v%d moves %d bytes; at most 16", what, nvec,
		       nvec * ir_type_size(t));
		return;
	}
	/* ptxas 13.0 checks vector elements by width only (an .f32 register passes for .u32) */
	enum ir_mod et = t == MOD_U8 || t == MOD_S8 ? MOD_B8 : t == MOD_U16 || t == MOD_S16 ? MOD_B16
			 : t == MOD_U32 || t == MOD_S32 ? MOD_B32 : t == MOD_U64 || t == MOD_S64
			 ? MOD_B64 : t;
	for (unsigned k = 0; k < o->vec.n; k++)
		if (!ldst_elem(c, in, &o->vec.elems[k], et, load, what))
			return;
}

/* ---- Driver ------------------------------------------------------------------------------ */

/* Special registers are read only by mov and cvt (ISA 10), whole or by component, into a
 * register of their own width (mov) - ptxas: "Special register argument not allowed". */
static bool check_sreg_use(struct ck *c, const struct ir_insn *in, const struct ir_operand *o)
{
	const struct ir_sym *y = o->ref.sym;
	int id = y->sreg, name_len = (int)y->name_len;
	if (in->op != OP_MOV && in->op != OP_CVT) {
		if (c->ops[in->op].known)
			return true;    /* the operand kinds report it */
		report(c, CHECK_SREG, o->span,
		       "special register '%.*s' cannot be an operand of %s (read it with " "mov)",
		       name_len, y->name, ir_op_name(in->op));
		return false;
	}
	if (sreg_shape[id] == SR_V4 && o->ref.comp < 0) {
		report(c, CHECK_SREG, o->span,
		       "'%.*s' is a vector: read one component (.x, .y or .z)", name_len, y->name);
		return false;
	}
	if (sreg_shape[id] != SR_V4 && o->ref.comp >= 0) {
		report(c, CHECK_SREG, o->span, "'%.*s' has no components", name_len, y->name);
		return false;
	}
	if (in->op == OP_MOV) {
		enum ir_mod t = MOD_NONE;
		for (unsigned i = 0; i < in->nmods; i++)
			if (ir_mod_kind(in->mods[i]) == MK_TYPE)
				t = in->mods[i];
		/* %tid, %ntid, %ctaid, %nctaid were 16-bit before PTX 2.0: mov.u16 still reads
		 * them (ptxas 13.0). */
		bool legacy16 = (id == CKS_TID || id == CKS_NTID || id == CKS_CTAID ||
				 id == CKS_NCTAID) && ir_type_size(t) == 2;
		bool ok = sreg_shape[id] == SR_PRED ? t == MOD_PRED
			  : is_int_type(t) && (ir_type_size(t) == sreg_size[id] || legacy16);
		if (t != MOD_NONE && !ok) {
			report(c, CHECK_SREG, o->span, "'%.*s' is %s: mov%s cannot read it",
			       name_len, y->name,
			       sreg_shape[id] == SR_PRED ? "a predicate"
			       : sreg_size[id] == 8      ? "64 bits wide"
							 : "32 bits wide",
			       ir_mod_name(t));
			return false;
		}
	}
	return true;
}

/* Opcodes without rule rows: only the gates every instruction shares (ISA 5.1: the
 * ::cta / ::cluster sub-qualifiers need PTX 7.8, ::cluster needs sm_90) and, for ld/st, the
 * immediate-address restriction ptxas enforces ("[imm]" only for .local). */
static void check_unlisted(struct ck *c, const struct ir_insn *in)
{
	const char *name = ir_op_name(in->op);
	enum ir_mod space = MOD_NONE;
	for (unsigned i = 0; i < in->nmods; i++) {
		enum ir_mod m = in->mods[i];
		if (ir_mod_kind(m) == MK_SPACE)
			space = m;
		if (m == MOD_SHARED_CTA || m == MOD_SHARED_CLUSTER)
			need(c, in->mod_spans[i], 78, m == MOD_SHARED_CLUSTER ? 90 : 0, "'%s' on %s",
			     ir_mod_name(m), name);
	}
	(void)space;     /* ld/st addresses: space_match_check */
}

/* ISA 6.4.3: the elements of a vector destination must be distinct registers. ptxas
 * accepts a repeat; the run reports it (rule vector-destination-repeated) when it runs. */
static void vector_destination_check(struct ck *c, const struct ir_insn *in)
{
	if (in->op == OP_ST || in->nopnds < 1 || in->opnds[0].kind != OPND_VEC)
		return;
	const struct ir_operand *v = &in->opnds[0];
	for (uint32_t i = 1; i < v->vec.n; i++)
		for (uint32_t k = 0; k < i; k++) {
			const struct ir_operand *a = &v->vec.elems[k], *b = &v->vec.elems[i];
			if (a->kind == OPND_REG && b->kind == OPND_REG && a->ref.sym == b->ref.sym &&
			    a->ref.index == b->ref.index && a->ref.comp == b->ref.comp) {
				report(c, CHECK_VEC_DEST_TWICE, b->span,
				       "the vector destination of %s names '%.*s' twice: "
				       "the manual leaves the result undefined (ptxas accepts it)",
				       ir_op_name(in->op), (int)b->span.len,
				       c->m->file->text + b->span.off);
				return;
			}
		}
}

/* An instruction ptxi reads but does not model: accepted, said once per module. */
static bool unmodelled(struct ck *c, const struct ir_insn *in)
{
	if (ir_op_family(in->op) != FAM_UNMODELLED)
		return false;
	if (!c->noted[in->op]) {
		c->noted[in->op] = true;
		report(c, CHECK_UNMODELLED, in->op_span,
		       "ptxi does not model %s: it is checked no further than its syntax, and "
		       "'ptxi run' stops where one is executed", ir_op_name(in->op));
	}
	return true;
}

/* call's target is a .func (ptxas: "Illegal call target, device function expected"). */
static void call_check(struct ck *c, const struct ir_insn *in)
{
	for (unsigned i = 0; i < in->nopnds; i++) {
		const struct ir_operand *o = &in->opnds[i];
		const struct ir_sym *y = o->kind == OPND_SYM ? o->ref.sym : NULL;
		if (y && y->kind == SYM_FUNC && y->func && y->func->is_entry)
			report(c, CHECK_BRANCH_FORM, o->span,
			       "'%.*s' is a kernel (.entry): call needs a .func", (int)y->name_len,
			       y->name);
	}
}

/* Whether operand o names something that was never declared (reported already). */
static bool unresolved(const struct ir_operand *o)
{
	switch (o->kind) {
	case OPND_SYM:
		return !o->ref.sym;
	case OPND_REG:
		return !o->ref.sym;
	case OPND_ADDR:
		return o->addr.base && unresolved(o->addr.base);
	case OPND_VEC:
	case OPND_LIST:
	case OPND_DUAL:
		for (uint32_t i = 0; i < o->vec.n; i++)
			if (unresolved(&o->vec.elems[i]))
				return true;
		return false;
	default:
		return false;
	}
}

static void check_insn(struct ck *c, const struct ir_insn *in)
{
	for (uint32_t i = 0; i < in->nopnds; i++)
		if (unresolved(&in->opnds[i]))
			return; /* its undeclared name is its error: the rest would be noise */
	if (unmodelled(c, in))
		return;
	if (ir_op_family(in->op) == FAM_WGMMA) {
		c->errors += check_wgmma(c->m, in);
		return;
	}
	if (in->op == OP_CALL)
		call_check(c, in);
	vector_destination_check(c, in);
	/* Special registers: version and target gates apply wherever they are read. */
	for (unsigned i = 0; i < in->nopnds; i++) {
		const struct ir_operand *o = &in->opnds[i];
		if (!is_sreg(o))
			continue;
		if (!check_sreg_use(c, in, o))
			continue;
		for (size_t k = 0; k < sizeof sregrules / sizeof sregrules[0]; k++)
			if (sregrules[k].sreg == o->ref.sym->sreg)
				need(c, o->span, sregrules[k].ptx, sregrules[k].sm, "'%.*s'",
				     (int)o->ref.sym->name_len, o->ref.sym->name);
	}
	/* @p: the guard is a predicate register (ISA 9.7.1) */
	if (in->has_guard && !is_sreg(&in->guard) && !is_pred_reg(&in->guard))
		report(c, CHECK_OPND_KIND, in->guard.span,
		       "the guard of %s must be a predicate register", ir_op_name(in->op));
	const struct ck_oprule *r = &c->ops[in->op];
	if (!r->known) {
		if (c->alu[in->op].n)
			typed_check(c, in);
		switch (in->op) {
		case OP_CVT: cvt_check(c, in); break;
		case OP_BRA: bra_check(c, in); break;
		case OP_BRX_IDX: brx_check(c, in); break;
		case OP_CVTA: cvta_check(c, in); break;
		case OP_ISSPACEP: isspacep_check(c, in); break;
		case OP_EXIT:
		case OP_RET:
		case OP_TRAP:
			noarg_check(c, in);
			break;
		case OP_BAR_SYNC:
		case OP_BAR_ARRIVE:
		case OP_BAR_RED:
		case OP_BARRIER_SYNC:
		case OP_BARRIER_ARRIVE:
		case OP_BARRIER_RED:
		case OP_BAR_WARP_SYNC:
			bar_check(c, in);
			break;
		case OP_CP_ASYNC: cp_async_check(c, in); break;
		case OP_ATOM:
		case OP_RED:
			atom_check(c, in);
			space_match_check(c, in);
			break;
		case OP_LD:
		case OP_ST:
			if (!ldst_mods_check(c, in))
				break;
			space_match_check(c, in);
			ldst_data_check(c, in);
			break;
		default:
			break;
		}
		check_unlisted(c, in);
		return;
	}
	const char *name = ir_op_name(in->op);
	if (!need(c, in->op_span, r->ptx, r->sm, "%s", name))
		return;
	if (in->op == OP_FENCE || in->op == OP_MEMBAR) {
		fence_check(c, in); /* operands too: only one form has any */
		return;
	}
	struct mods ms;
	check_mods(c, in, &ms);
	if (ms.bad)
		return;
	if (in->op == OP_CP_ASYNC_BULK || in->op == OP_CP_REDUCE_ASYNC_BULK) {
		if (in->op == OP_CP_ASYNC_BULK || bulk_reduce_check(c, in, &ms))
			bulk_check(c, in, &ms);
		return;
	}
	if (in->op == OP_CP_ASYNC_BULK_PREFETCH) {
		prefetch_check(c, in, &ms);
		return;
	}
	if (in->op == OP_ST_ASYNC || in->op == OP_RED_ASYNC) {
		async_store_check(c, in, &ms);
		return;
	}
	if (r->has_opnds) {
		if (in->nopnds < r->min || in->nopnds > r->max) {
			if (r->min == r->max)
				report(c, CHECK_OPND_COUNT, in->span,
				       "%s takes %u operand%s (has %u)", name, r->min,
				       r->min == 1 ? "" : "s", in->nopnds);
			else
				report(c, CHECK_OPND_COUNT, in->span,
				       "%s takes %u to %u operands (has %u)", name, r->min, r->max,
				       in->nopnds);
			return;
		}
		for (unsigned i = 0; i < in->nopnds && i < 6; i++) {
			enum ck_kind k = r->kinds[i];
			if (in->op == OP_MBAR_TEST_WAIT || in->op == OP_MBAR_TRY_WAIT)
				k = wait_kind(in, &ms, (int)i, k);
			check_kind(c, in, (int)i, k, ms.by_group[G_TYPE]);
		}
	}
	switch (in->op) {
	case OP_MBAR_ARRIVE:
	case OP_MBAR_ARRIVE_DROP:
		arrive_check(c, in, &ms);
		break;
	case OP_MBAR_TEST_WAIT:
	case OP_MBAR_TRY_WAIT:
		wait_check(c, in, &ms);
		break;
	case OP_CREATEPOLICY_FRACTIONAL:
	case OP_CREATEPOLICY_RANGE:
	case OP_CREATEPOLICY_CVT:
		policy_check(c, in, &ms);
		break;
	case OP_MBAR_INIT:
		if (in->nopnds == 2 && in->opnds[1].kind == OPND_IMM &&
		    (in->opnds[1].imm < 1 || in->opnds[1].imm > 1048575))
			report(c, CHECK_MBAR_COUNT, in->opnds[1].span,
			       "mbarrier.init count %" PRId64 " is outside "
			       "[1, 2^20-1] (undefined behaviour; ptxas accepts it)",
			       in->opnds[1].imm);
		break;
	default:
		break;
	}
}

/* .version and .target of the module itself. */
static void check_header(struct ck *c)
{
	struct ir_module *m = c->m;
	struct src_span vs = m->version_span, ts = m->target_span; /* where the parser saw them */
	if (c->ver > 90) {
		report(c, CHECK_MODULE_HEADER, vs,
		       "PTX ISA %u.%u is not supported (the newest is 9.0, as in ptxas 13.0)",
		       c->ver / 10, c->ver % 10);
		return;
	}
	if (!c->sm)
		return;
	for (size_t i = 0; i < sizeof target_min / sizeof target_min[0]; i++)
		if (target_min[i][0] == c->sm) {
			unsigned need_ptx = target_min[i][1];
			if (m->sm_arch_specific && c->sm == 90)
				need_ptx = 80;
			if (c->ver < need_ptx)
				report(c, CHECK_MODULE_HEADER, ts,
				       "target %s needs PTX ISA %u.%u (module is %u.%u)", m->target,
				       need_ptx / 10, need_ptx % 10, c->ver / 10, c->ver % 10);
			return;
		}
}

static void build_tables(struct ck *c)
{
	memset(c->ops, 0, sizeof c->ops);
#define CK_OP(op, ptx_, sm_, flags_)                                                         \
	c->ops[OP_##op].known = true;                                                        \
	c->ops[OP_##op].ptx = ptx_;                                                          \
	c->ops[OP_##op].sm = sm_;                                                            \
	c->ops[OP_##op].flags = flags_;
#define CK_OPND(op, min_, max_, k0, k1, k2, k3, k4, k5)                                      \
	c->ops[OP_##op].has_opnds = true;                                                    \
	c->ops[OP_##op].min = min_;                                                          \
	c->ops[OP_##op].max = max_;                                                          \
	memcpy(c->ops[OP_##op].kinds, (uint8_t[]){k0, k1, k2, k3, k4, k5}, 6);
#include "checkrules.def"
#define SLICE(tab, field)                                                                    \
	for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++) {                             \
		struct ck_slice *sl = &c->field[tab[i].op];                                  \
		if (sl->n == 0)                                                              \
			sl->first = (uint16_t)i;                                             \
		sl->n = (uint16_t)(i + 1 - sl->first);                                       \
	}
	memset(c->alu, 0, sizeof c->alu);
	memset(c->amod, 0, sizeof c->amod);
	memset(c->needs, 0, sizeof c->needs);
	SLICE(alurows, alu)
	SLICE(amods, amod)
	SLICE(needrows, needs)
#undef SLICE
	/* membar shares fence's rules. */
	c->ops[OP_MEMBAR] = c->ops[OP_FENCE];
	size_t n = sizeof modrules / sizeof modrules[0];
	for (size_t i = 0; i < n; i++) {
		struct ck_oprule *r = &c->ops[modrules[i].op];
		if (r->nmods == 0)
			r->first_mod = (uint16_t)i;
		r->nmods = (uint16_t)(i + 1 - r->first_mod);
	}
}

struct ck *check_begin(struct ir_module *m)
{
	struct ck *c = arena_xcalloc(1, sizeof *c);
	c->m = m;
	c->ver = m->version_major * 10 + (m->version_minor < 10 ? m->version_minor : 9);
	c->sm = m->sm;
	build_tables(c);
	check_header(c);
	return c;
}

/* A kernel's parameter block, laid out as the loader does, fits PTX_MAX_KPARAM: `ptxi
 * check` and `ptxi run` agree on it. */
static void kparam_check(struct ck *c, const struct ir_func *f)
{
	uint64_t used = 0;
	for (uint32_t i = 0; i < f->nparams; i++)
		if (f->params[i]->space != MOD_REG)
			ir_place(&used, f->params[i]);
	if (used <= PTX_MAX_KPARAM)
		return;
	char n[32];
	snprintf(n, sizeof n, "%llu", (unsigned long long)used);
	report(c, CHECK_KERNEL_PARAMS, f->span,
	       "kernel '%s' has %s bytes of parameters; the limit is %u", f->sym->name,
	       used == UINT64_MAX ? "2^64 or more" : n, PTX_MAX_KPARAM);
}

void check_func(struct ck *c, const struct ir_func *f)
{
	if (f->is_entry)
		kparam_check(c, f);
	for (uint32_t i = 0; i < f->ninsns; i++)
		check_insn(c, &f->insns[i]);
}

int check_end(struct ck *c)
{
	int errors = c->errors;
	free(c);
	return errors;
}

int check_module(struct ir_module *m)
{
	struct ck *c = check_begin(m);
	for (struct ir_func *f = m->funcs; f; f = f->next)
		check_func(c, f);
	return check_end(c);
}
