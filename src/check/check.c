/*
 * check.c - static legality of a parsed module, judged as ptxas 13.0 judges it: modifiers
 * allowed per opcode and their combinations and order, operand counts and kinds, literal
 * operands ptxas checks, and the PTX ISA version / target each feature needs. The rules are
 * data in checkrules.def; the few that tie modifiers to operands are functions in the
 * check_*.c files, one family each. Errors are what ptxas rejects; warnings are what the
 * manual forbids but ptxas accepts. This file reports, applies the rows every instruction
 * shares (version, target, special registers, operand kinds) and sends each instruction to
 * its family's function.
 */

#include "check.h"
#include "check_priv.h"
#include "shared_plan.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


struct ck_sregrule {
	int sreg;
	uint16_t ptx, sm;
};

enum ck_sreg_id {
#define SREG(name, spelling, shape, size) CKS_##name,
#include "front/sreg.def"
#undef SREG
};

/* Shape and size of each special register, from sreg.def. */
enum { SR_V4, SR_SCALAR, SR_PRED };
static const uint8_t sreg_shape[] = {
#define SREG(name, spelling, shape, size) shape,
#include "front/sreg.def"
#undef SREG
};
static const uint8_t sreg_size[] = {
#define SREG(name, spelling, shape, size) size,
#include "front/sreg.def"
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

/* ---- Reporting --------------------------------------------------------------------------- */

void check_set_loc_note(struct ck *c, check_loc_note_fn *fn)
{
	if (c)
		c->loc_note = fn;
}

/* Report a break of static check k (checks.def) at its level, named "[name]". */
__attribute__((format(printf, 4, 5)))
void ck_report(struct ck *c, enum check_id k, struct src_span s, const char *fmt, ...)
{
	va_list ap;
	struct strbuf note = {0};
	/* with -lineinfo: the user's source line of the instruction ("from k.cu:10:5 in 'f'") */
	if (c->loc_note && c->cur && c->cur->loc && s.off >= c->cur->span.off &&
	    s.off < c->cur->span.off + c->cur->span.len + 1)
		c->loc_note(c->m, c->cur->loc, c->cur_func, &note);
	va_start(ap, fmt);
	c->errors += check_vreport_notes(c->m->diag, c->m->file, k, s, note.s, fmt, ap);
	va_end(ap);
	sb_free(&note);
}

/* Report if the module's .version or .target is older than `ptx` / sm_`sm`. The format
 * names the feature ("'.relaxed' on mbarrier.arrive", "mbarrier.try_wait"); it is rendered
 * only when the feature is missing, as this runs for nearly every instruction. Returns
 * false if so. */
__attribute__((format(printf, 5, 6)))
bool ck_need(struct ck *c, struct src_span s, unsigned ptx, unsigned sm, const char *fmt, ...)
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
		ck_report(c, CHECK_PTX_VERSION, s, "%s needs PTX ISA %u.%u (module is %u.%u)", what,
			  ptx / 10, ptx % 10, c->ver / 10, c->ver % 10);
	if (old_sm)
		ck_report(c, CHECK_SM_TARGET, s, "%s needs sm_%u or newer (target is %s)", what, sm,
			  c->m->target);
	return false;
}

/* An instruction's name as written ("atom.add.u32"): a, b and c joined, cut to fit. It is
 * wanted for messages on every checked instruction, so it costs no printf. */
const char *ck_spell(char *buf, size_t cap, const char *a, const char *b, const char *c)
{
	size_t n = 0;
	for (const char *part[] = {a, b, c}, **q = part; q < part + 3; q++)
		for (const char *t = *q; *t && n + 1 < cap; t++)
			buf[n++] = *t;
	buf[n] = '\0';
	return buf;
}

/* ---- Driver ------------------------------------------------------------------------------ */

/* Special registers are read only by mov and cvt (ISA 10), whole or by component, into a
 * register of their own width (mov) - ptxas: "Special register argument not allowed". */
bool ck_check_sreg_use(struct ck *c, const struct ir_insn *in, const struct ir_operand *o)
{
	const struct ir_sym *y = o->ref.sym;
	int id = y->sreg, name_len = (int)y->name_len;
	if (in->op != OP_MOV && in->op != OP_CVT) {
		if (c->ops[in->op].known)
			return true;    /* the operand kinds report it */
		ck_report(c, CHECK_SREG, o->span,
			  "special register '%.*s' cannot be an operand of %s (read it with " "mov)",
			  name_len, y->name, ir_op_name(in->op));
		return false;
	}
	if (sreg_shape[id] == SR_V4 && o->ref.comp < 0) {
		ck_report(c, CHECK_SREG, o->span,
			  "'%.*s' is a vector: read one component (.x, .y or .z)", name_len, y->name);
		return false;
	}
	if (sreg_shape[id] != SR_V4 && o->ref.comp >= 0) {
		ck_report(c, CHECK_SREG, o->span, "'%.*s' has no components", name_len, y->name);
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
			  : ck_is_int_type(t) && (ir_type_size(t) == sreg_size[id] || legacy16);
		if (t != MOD_NONE && !ok) {
			ck_report(c, CHECK_SREG, o->span, "'%.*s' is %s: mov%s cannot read it",
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
			ck_need(c, in->mod_spans[i], 78, m == MOD_SHARED_CLUSTER ? 90 : 0, "'%s' on %s",
				ir_mod_name(m), name);
	}
	(void)space;     /* ld/st addresses: ck_space_match_check */
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
				ck_report(c, CHECK_VEC_DEST_TWICE, b->span,
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
		ck_report(c, CHECK_UNMODELLED, in->op_span,
			  "ptxi does not model %s: it is checked no further than its syntax, and "
			  "'ptxi run' stops where one is executed", ir_op_name(in->op));
	}
	return true;
}

void ck_words(const struct ck *c, const struct ir_insn *in, unsigned skip, struct ck_words *ws)
{
	const char *s = c->m->file->text + in->op_span.off;
	size_t len = in->op_span.len, i = 0;
	unsigned k = 0;
	ws->count = 0;
	ws->overflow = false;
	while (i <= len) {
		size_t j = i;
		while (j < len && s[j] != '.')
			j++;
		if (k++ >= skip) {
			if (ws->count == sizeof ws->w / sizeof ws->w[0]) {
				ws->overflow = true;
				return;
			}
			ws->w[ws->count] = s + i;
			ws->n[ws->count++] = j - i;
		}
		i = j + 1;
	}
}

bool ck_word_is(const struct ck_words *ws, unsigned i, const char *s)
{
	return strlen(s) == ws->n[i] && memcmp(ws->w[i], s, ws->n[i]) == 0;
}

/* Families whose rows' checkers read the whole instruction (wgmma's forms, the refused
 * sparse forms): none of the generic checks applies to them. */
static bool whole_form(enum ir_op op)
{
	enum ir_family f = ir_op_family(op);
	return f == FAM_WGMMA || f == FAM_UNSUPPORTED;
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

/* Each opcode's checker (ops.def). */
static ck_fn *const op_check[OP__COUNT] = {
#define OP(name, spelling, family, dests, lits, decode, exec, check) [OP_##name] = check,
#include "front/ops.def"
#undef OP
};

/* The checker of opcodes whose rows say all. */
void ck_rows(struct ck *c, const struct ir_insn *in, const struct mods *ms)
{
	(void)c, (void)in, (void)ms;
}

static void check_insn(struct ck *c, const struct ir_insn *in)
{
	for (uint32_t i = 0; i < in->nopnds; i++)
		if (unresolved(&in->opnds[i]))
			return; /* its undeclared name is its error: the rest would be noise */
	if (!ck_unified_check(c, in))
		return;
	if (unmodelled(c, in)) {
		op_check[in->op](c, in, NULL); /* what its row checks, if anything */
		return;
	}
	if (whole_form(in->op)) {
		op_check[in->op](c, in, NULL);
		return;
	}
	vector_destination_check(c, in);
	/* Special registers: version and target gates apply wherever they are read. */
	for (unsigned i = 0; i < in->nopnds; i++) {
		const struct ir_operand *o = &in->opnds[i];
		if (!ck_is_sreg(o))
			continue;
		if (!ck_check_sreg_use(c, in, o))
			continue;
		for (size_t k = 0; k < sizeof sregrules / sizeof sregrules[0]; k++)
			if (sregrules[k].sreg == o->ref.sym->sreg)
				ck_need(c, o->span, sregrules[k].ptx, sregrules[k].sm, "'%.*s'",
					(int)o->ref.sym->name_len, o->ref.sym->name);
	}
	/* @p: the guard is a predicate register (ISA 9.7.1) */
	if (in->has_guard && !ck_is_sreg(&in->guard) && !ck_is_pred_reg(&in->guard))
		ck_report(c, CHECK_OPND_KIND, in->guard.span,
			  "the guard of %s must be a predicate register", ir_op_name(in->op));
	const struct ck_oprule *r = &c->ops[in->op];
	if (!r->known) {
		if (c->alu[in->op].n)
			ck_typed_check(c, in);
		op_check[in->op](c, in, NULL);
		check_unlisted(c, in);
		return;
	}
	const char *name = ir_op_name(in->op);
	if (!ck_need(c, in->op_span, r->ptx, r->sm, "%s", name))
		return;
	if (r->flags & CF_OWN_FORM) {
		op_check[in->op](c, in, NULL); /* its modifiers and operands too */
		return;
	}
	struct mods ms;
	ck_check_mods(c, in, &ms);
	if (ms.bad)
		return;
	if (r->has_opnds) {
		if (in->nopnds < r->min || in->nopnds > r->max) {
			if (r->min == r->max)
				ck_report(c, CHECK_OPND_COUNT, in->span,
					  "%s takes %u operand%s (has %u)", name, r->min,
					  r->min == 1 ? "" : "s", in->nopnds);
			else
				ck_report(c, CHECK_OPND_COUNT, in->span,
					  "%s takes %u to %u operands (has %u)", name, r->min, r->max,
					  in->nopnds);
			return;
		}
		for (unsigned i = 0; i < in->nopnds && i < 6; i++)
			ck_check_kind(c, in, (int)i, r->kinds[i], ms.by_group[G_TYPE]);
	}
	op_check[in->op](c, in, &ms);
}

/* .version and .target of the module itself. */
static void check_header(struct ck *c)
{
	struct ir_module *m = c->m;
	struct src_span vs = m->version_span, ts = m->target_span; /* where the parser saw them */
	if (c->ver > 90) {
		ck_report(c, CHECK_MODULE_HEADER, vs,
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
				ck_report(c, CHECK_MODULE_HEADER, ts,
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
	ck_typed_index(c);
	/* membar shares fence's rules. */
	c->ops[OP_MEMBAR] = c->ops[OP_FENCE];
	ck_mods_index(c);
}

struct ck *check_begin(struct ir_module *m)
{
	struct ck *c = arena_xcalloc(1, sizeof *c);
	c->m = m;
	c->ver = m->version_major * 10 + (m->version_minor < 10 ? m->version_minor : 9);
	c->sm = m->sm;
	c->sp = shared_plan_new();
	c->sp_oom = !c->sp;
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
	ck_report(c, CHECK_KERNEL_PARAMS, f->span,
		  "kernel '%s' has %s bytes of parameters; the limit is %u", f->sym->name,
		  used == UINT64_MAX ? "2^64 or more" : n, PTX_MAX_KPARAM);
}

void check_func(struct ck *c, const struct ir_func *f)
{
	if (f->is_entry)
		kparam_check(c, f);
	if (f->has_body && !c->sp_oom)
		c->sp_oom = !shared_plan_note(c->sp, f);
	for (uint32_t i = 0; i < f->ninsns; i++) {
		c->cur = &f->insns[i];
		c->cur_func = f->sym->name;
		check_insn(c, &f->insns[i]);
	}
	c->cur = NULL;
}

/* Each kernel's static shared memory, laid out as the loader lays it out, within ptxas's
 * 48 KiB: bodies were noted as they were checked (and may be gone now). */
static void static_shared_check(struct ck *c)
{
	if (c->sp_oom || !shared_plan_solve(c->sp, c->m))
		return; /* out of memory: the loader says so if it runs */
	for (const struct ir_func *f = c->m->funcs; f; f = f->next) {
		const struct shared_view *v = shared_plan_view(c->sp, f);
		if (!f->is_entry || !v || v->ptxas_bytes <= SHARED_PLAN_STATIC_MAX)
			continue;
		char n[48];
		snprintf(n, sizeof n, "%llu bytes (%#llx)", (unsigned long long)v->ptxas_bytes,
			 (unsigned long long)v->ptxas_bytes);
		ck_report(c, CHECK_STATIC_SHARED, f->span,
			  "kernel '%s' has %s of static shared memory; ptxas allows %u (%#x)",
			  f->sym->name, v->ptxas_bytes == UINT64_MAX ? "2^64 bytes or more" : n,
			  SHARED_PLAN_STATIC_MAX, SHARED_PLAN_STATIC_MAX);
	}
}

int check_end(struct ck *c)
{
	static_shared_check(c);
	shared_plan_free(c->sp);
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
