/*
 * check_flow.c - static rules of control flow and barriers: bra, brx.idx, call, exit, ret,
 * trap, and the bar / barrier family.
 */

#include "check_priv.h"

#include <inttypes.h>

/* call's target is a .func (ptxas: "Illegal call target, device function expected"). */
void ck_call_check(struct ck *c, const struct ir_insn *in, const struct mods *ms)
{
	(void)ms;
	for (unsigned i = 0; i < in->nopnds; i++) {
		const struct ir_operand *o = &in->opnds[i];
		const struct ir_sym *y = o->kind == OPND_SYM ? o->ref.sym : NULL;
		if (y && y->kind == SYM_FUNC && y->func && y->func->is_entry)
			ck_report(c, CHECK_BRANCH_FORM, o->span,
				  "'%.*s' is a kernel (.entry): call needs a .func", (int)y->name_len,
				  y->name);
	}
}

/* bra{.uni} target: a label (ISA 9.7.12.1); brx.idx takes registers. */
void ck_bra_check(struct ck *c, const struct ir_insn *in, const struct mods *ms)
{
	(void)ms;
	for (unsigned i = 0; i < in->nmods; i++)
		if (in->mods[i] != MOD_UNI) {
			ck_report(c, CHECK_MOD_NOT_ALLOWED, in->mod_spans[i],
				  "bra takes only '.uni' (not '%s')", ir_mod_name(in->mods[i]));
			return;
		}
	if (in->nopnds != 1) {
		ck_report(c, CHECK_OPND_COUNT, in->span, "bra takes one operand, a label (has %u)",
			  in->nopnds);
		return;
	}
	const struct ir_operand *o = &in->opnds[0];
	if (o->kind != OPND_SYM || !o->ref.sym || o->ref.sym->kind != SYM_LABEL)
		ck_report(c, CHECK_BRANCH_FORM, o->span,
			  "the target of bra must be a label (use brx.idx to jump through "
			  "a register)");
}

/* brx.idx{.uni} index, tlist (ISA 9.7.12.2): an index, then a label declared by
 * .branchtargets; the loader relies on that shape. */
void ck_brx_check(struct ck *c, const struct ir_insn *in, const struct mods *ms)
{
	(void)ms;
	if (in->nopnds != 2) {
		ck_report(c, CHECK_OPND_COUNT, in->span,
			  "brx.idx takes two operands, an index and a .branchtargets "
			  "label (has %u)", in->nopnds);
		return;
	}
	const struct ir_operand *t = &in->opnds[1];
	bool ref = t->kind == OPND_SYM || t->kind == OPND_REG;
	if (!ref || !t->ref.sym || t->ref.sym->kind != SYM_TARGETS)
		ck_report(c, CHECK_BRANCH_FORM, t->span,
			  "the second operand of brx.idx must be a label declared by "
			  ".branchtargets");
}

/* exit, ret{.uni}, trap (ISA 9.7.12.5-7, 9.7.20.1): no operands, no type; only ret takes
 * '.uni'. */
void ck_noarg_check(struct ck *c, const struct ir_insn *in, const struct mods *ms)
{
	(void)ms;
	const char *name = ir_op_name(in->op);
	for (unsigned i = 0; i < in->nmods; i++)
		if (!(in->op == OP_RET && in->mods[i] == MOD_UNI)) {
			ck_report(c, CHECK_MOD_NOT_ALLOWED, in->mod_spans[i],
				  "'%s' is not valid on %s", ir_mod_name(in->mods[i]), name);
			return;
		}
	if (in->nopnds)
		ck_report(c, CHECK_OPND_COUNT, in->span, "%s takes no operands (has %u)", name,
			  in->nopnds);
}

/* A barrier-number or thread-count operand: a 32-bit integer register or a constant,
 * 0..15 for the barrier, a positive multiple of 32 for the count (ISA 9.7.13.1). */
static void bar_operand(struct ck *c, const struct ir_insn *in, const struct ir_operand *o,
			bool count)
{
	const char *name = ir_op_name(in->op);
	if (o->kind == OPND_IMM) {
		if (!count && (o->imm < 0 || o->imm > 15))
			ck_report(c, CHECK_BARRIER_FORM, o->span,
				  "barrier number %" PRId64 " of %s is outside [0, 15]", o->imm, name);
		else if (count && (o->imm <= 0 || o->imm % 32))
			ck_report(c, CHECK_BARRIER_FORM, o->span,
				  "thread count %" PRId64 " of %s must be a positive multiple "
				  "of the warp size (32)", o->imm, name);
		return;
	}
	if (!ck_is_sreg(o) && !ck_is_int_reg(o, 4))
		ck_report(c, CHECK_OPND_KIND, o->span,
			  "the %s of %s must be a 32-bit integer register or a constant",
			  count ? "thread count" : "barrier number", name);
}

/* '.cta' only right after bar/barrier (the front puts it first; PTX 7.8), '.aligned' once
 * (ptxas 13.0). */
static bool bar_cta_aligned(struct ck *c, const struct ir_insn *in, bool bar)
{
	bool aligned = false;
	for (unsigned i = 0; i < in->nmods; i++) {
		struct src_span s = in->mod_spans[i];
		if (in->mods[i] == MOD_CTA) {
			if (i != 0 || s.off != in->op_span.off + (bar ? 3u : 7u)) {
				ck_report(c, CHECK_MOD_ORDER, s, "'.cta' must come right after '%s'",
					  bar ? "bar" : "barrier");
				return false;
			}
			if (!ck_need(c, s, 78, 0, "%s.cta", bar ? "bar" : "barrier"))
				return false;
		} else if (in->mods[i] == MOD_ALIGNED) {
			if (aligned) {
				ck_report(c, CHECK_MOD_CONFLICT, s, "duplicate '.aligned' on %s",
					  ir_op_name(in->op));
				return false;
			}
			aligned = true;
		}
	}
	return true;
}

/* The words bar and barrier take beside their name: .cta, .aligned (barrier's), and for
 * .red its operation and type; ptxas 13.0 refuses any other (bar.sync.gpu, bar.arrive.rz,
 * bar.warp.sync.aligned). */
static bool bar_words(struct ck *c, const struct ir_insn *in)
{
	bool red = in->op == OP_BAR_RED || in->op == OP_BARRIER_RED;
	for (unsigned i = 0; i < in->nmods; i++) {
		enum ir_mod m = in->mods[i];
		bool ok = in->op != OP_BAR_WARP_SYNC && (m == MOD_CTA || m == MOD_ALIGNED);
		ok |= red && (m == MOD_POPC || m == MOD_AND || m == MOD_OR ||
			      ir_mod_kind(m) == MK_TYPE);
		if (!ok) {
			ck_report(c, CHECK_MOD_NOT_ALLOWED, in->mod_spans[i],
				  "'%s' is not allowed on %s", ir_mod_name(m), ir_op_name(in->op));
			return false;
		}
	}
	return true;
}

/* bar.red and barrier.red: one operation (.popc, .and or .or) and one type. */
static bool red_words(struct ck *c, const struct ir_insn *in)
{
	int op = -1, type = -1;
	for (unsigned i = 0; i < in->nmods; i++) {
		enum ir_mod m = in->mods[i];
		int *at = m == MOD_POPC || m == MOD_AND || m == MOD_OR ? &op
			  : ir_mod_kind(m) == MK_TYPE			 ? &type
									 : NULL;
		if (!at)
			continue;
		if (*at >= 0) {
			ck_report(c, CHECK_MOD_CONFLICT, in->mod_spans[i],
				  "'%s' cannot be combined with '%s' on %s", ir_mod_name(m),
				  ir_mod_name(in->mods[*at]), ir_op_name(in->op));
			return false;
		}
		*at = (int)i;
	}
	if (op < 0 || type < 0) {
		ck_report(c, CHECK_BARRIER_FORM, in->op_span,
			  op < 0 ? "%s needs an operation: '.popc', '.and' or '.or'"
				 : "%s needs a type: '.u32' with '.popc', '.pred' with '.and' or '.or'",
			  ir_op_name(in->op));
		return false;
	}
	return true;
}

/* bar{.cta}.sync/.arrive/.red, barrier{.cta}.*, bar.warp.sync (ISA 9.7.13.1, .13.2):
 * operand counts and literals; bar.sync/.arrive take no '.aligned' (barrier.* does);
 * bar.red.popc is .u32, .and/.or are .pred. */
void ck_bar_check(struct ck *c, const struct ir_insn *in, const struct mods *ms)
{
	(void)ms;
	const char *name = ir_op_name(in->op);
	unsigned n = in->nopnds;
	if (!bar_words(c, in))
		return;
	if (in->op == OP_BAR_WARP_SYNC) {
		if (n != 1) {
			ck_report(c, CHECK_OPND_COUNT, in->span,
				  "bar.warp.sync takes one operand, a member mask (has %u)", n);
			return;
		}
		if (in->opnds[0].kind != OPND_IMM && !ck_is_int_reg(&in->opnds[0], 4))
			ck_report(c, CHECK_OPND_KIND, in->opnds[0].span,
				  "the member mask of bar.warp.sync must be a 32-bit "
				  "integer register or a constant");
		return;
	}
	bool bar = in->op == OP_BAR_SYNC || in->op == OP_BAR_ARRIVE || in->op == OP_BAR_RED;
	if (!bar_cta_aligned(c, in, bar))
		return;
	for (unsigned i = 0; i < in->nmods; i++)
		if (bar && in->mods[i] == MOD_ALIGNED) {
			ck_report(c, CHECK_MOD_NOT_ALLOWED, in->mod_spans[i],
				  "'.aligned' is not valid on %s (bar is always "
				  "aligned; barrier%s takes it)", name, name + 3);
			return;
		}
	if (in->op == OP_BAR_RED || in->op == OP_BARRIER_RED) {
		if (!red_words(c, in))
			return;
		bool popc = ck_has_mod(in, MOD_POPC);
		enum ir_mod want = popc ? MOD_U32 : MOD_PRED;
		for (unsigned i = 0; i < in->nmods; i++)
			if (ir_mod_kind(in->mods[i]) == MK_TYPE && in->mods[i] != want) {
				ck_report(c, CHECK_BARRIER_FORM, in->mod_spans[i],
					  "%s%s needs '%s', not '%s'", name,
					  popc ? ".popc" : ".and/.or", ir_mod_name(want),
					  ir_mod_name(in->mods[i]));
				return;
			}
		if (n < 3 || n > 4) {
			ck_report(c, CHECK_OPND_COUNT, in->span, "%s takes 3 or 4 operands (has %u)",
				  name, n);
			return;
		}
		const struct ir_operand *d = &in->opnds[0], *p = &in->opnds[n - 1];
		if (popc ? !ck_is_int_reg(d, 4) : !ck_is_pred_reg(d))
			ck_report(c, CHECK_OPND_KIND, d->span,
				  "the destination of %s must be a %s register", name,
				  popc ? "32-bit integer" : "predicate");
		if (!ck_is_pred_reg(p))
			ck_report(c, CHECK_OPND_KIND, p->span,
				  "the last operand of %s must be a predicate register", name);
		bar_operand(c, in, &in->opnds[1], false);
		if (n == 4)
			bar_operand(c, in, &in->opnds[2], true);
		return;
	}
	bool arrive = in->op == OP_BAR_ARRIVE || in->op == OP_BARRIER_ARRIVE;
	unsigned lo = arrive ? 2 : 1;
	if (n < lo || n > 2) {
		ck_report(c, CHECK_OPND_COUNT, in->span,
			  arrive ? "%s takes 2 operands, a barrier and a thread count (has %u)"
				 : "%s takes 1 or 2 operands, a barrier and a thread count (has %u)",
			  name, n);
		return;
	}
	bar_operand(c, in, &in->opnds[0], false);
	if (n == 2)
		bar_operand(c, in, &in->opnds[1], true);
}
