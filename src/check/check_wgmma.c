/*
 * check_wgmma.c - static legality of the warpgroup instructions (ISA 9.7.15.5-9.7.15.7,
 * 9.7.19.5): wgmma.fence, wgmma.commit_group, wgmma.wait_group, wgmma.mma_async (every dense
 * shape and type, dense and sparse) and setmaxnreg. All need
 * PTX ISA 8.0 and sm_90a. Each ck_* function is an opcode's checker (ops.def).
 */
#include "check_priv.h"

#include <stdarg.h>
#include <stdio.h>

#include "front/checks.h"
#include "wgmma_form.h"

struct wck {
	struct ir_module *m;
	const struct ir_insn *in;
	int errors;
};

/* Report a break of static check k (checks.def), named "[name]". */
__attribute__((format(printf, 4, 5)))
static void error(struct wck *c, enum check_id k, struct src_span s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	c->errors += check_vreport(c->m->diag, c->m->file, k, s, fmt, ap);
	va_end(ap);
}

static const struct ir_sym *reg_sym(const struct ir_operand *o)
{
	const struct ir_sym *y = o->kind == OPND_REG ? o->ref.sym : NULL;
	return y && (y->kind == SYM_REG || y->kind == SYM_REGRANGE) ? y : NULL;
}

/* A register of `bytes` bytes (not a predicate). */
static bool is_reg(const struct ir_operand *o, int bytes)
{
	const struct ir_sym *y = reg_sym(o);
	return y && y->type != MOD_PRED && ir_type_size(y->type) == bytes;
}

static void imm_operand(struct wck *c, enum check_id k, unsigned i, const char *what, int64_t lo,
			int64_t hi, bool only_ends)
{
	const struct ir_operand *o = &c->in->opnds[i];
	if (o->kind != OPND_IMM) {
		error(c, CHECK_OPND_KIND, o->span, "%s of %s must be an integer constant", what,
		      ir_op_name(c->in->op));
		return;
	}
	bool ok = only_ends ? o->imm == lo || o->imm == hi : o->imm >= lo && o->imm <= hi;
	if (!ok)
		error(c, k, o->span, "%s of %s must be %s%lld %s %lld (is %lld)", what,
		      ir_op_name(c->in->op), only_ends ? "" : "from ", (long long)lo,
		      only_ends ? "or" : "to", (long long)hi, (long long)o->imm);
}

/* The operands after the instruction's name, as the manual lists them per input type: D, A,
 * B, (the sparse form: the metadata register and the sparsity selector), scale-d, then the
 * constants of the floating-point forms. */
static void mma_operands(struct wck *c, const struct wg_form *f)
{
	const struct ir_insn *in = c->in;
	bool fl = f->d != WG_S32;
	bool half = f->a == WG_F16 || f->a == WG_BF16;
	unsigned sp = f->sparse ? 2 : 0;
	unsigned want = (fl ? (half ? (f->a_regs ? 7 : 8) : 6) : 4) + sp;
	const char *op = f->sparse ? "wgmma.mma_async.sp" : "wgmma.mma_async";
	if (in->nopnds != want) {
		error(c, CHECK_OPND_COUNT, in->span, "%s.%s.%s with A in %s takes %u operands "
		      "(has %u)", op, wg_type_name(f->d), wg_type_name(f->a),
		      f->a_regs ? "registers" : "shared memory", want, in->nopnds);
		return;
	}
	const struct ir_operand *d = &in->opnds[0];
	unsigned nd = wg_d_regs(f);
	if (d->kind != OPND_VEC || d->vec.n != nd) {
		error(c, CHECK_WGMMA_FORM, d->span,
		      "the accumulator of .m%un%uk%u.%s is a vector of %u registers", f->m, f->n,
		      f->k, wg_type_name(f->d), nd);
		return;
	}
	for (unsigned i = 0; i < d->vec.n; i++)
		if (!is_reg(&d->vec.elems[i], 4)) {
			error(c, CHECK_WGMMA_FORM, d->vec.elems[i].span,
			      "accumulator registers of wgmma.mma_async are " "32-bit registers");
			return;
		}
	const struct ir_operand *a = &in->opnds[1];
	if (f->a_regs) {
		if (f->a == WG_B1)
			c->errors += check_report(c->m->diag, c->m->file, CHECK_MANUAL_FORM, a->span,
				     "the manual gives the b1 form of wgmma.mma_async A from "
				     "shared memory only (a descriptor); ptxas accepts registers");
		if (a->kind != OPND_VEC || a->vec.n != WG_A_REGS)
			error(c, CHECK_WGMMA_FORM, a->span,
			      "A in registers is a vector of %u 32-bit registers", WG_A_REGS);
		else
			for (unsigned i = 0; i < a->vec.n; i++)
				if (!is_reg(&a->vec.elems[i], 4))
					error(c, CHECK_WGMMA_FORM, a->vec.elems[i].span,
					      "A fragment registers are 32-bit " "registers");
	} else if (!is_reg(a, 8) && a->kind != OPND_IMM) {
		error(c, CHECK_WGMMA_FORM, a->span,
		      "the A descriptor is a 64-bit register or constant");
	}
	const struct ir_operand *b = &in->opnds[2];
	if (!is_reg(b, 8) && b->kind != OPND_IMM)
		error(c, CHECK_WGMMA_FORM, b->span,
		      "the B descriptor is a 64-bit register or constant");
	if (sp) {
		/* the selector picks the thread pair of a group of four that gives the
		 * metadata: 0 or 1 where K is 16 (32-bit inputs) or 32 (16-bit), else 0 */
		const struct ir_operand *e = &in->opnds[3];
		if (!is_reg(e, 4) && e->kind != OPND_IMM)
			error(c, CHECK_WGMMA_FORM, e->span,
			      "the sparsity metadata of %s is a 32-bit register", op);
		imm_operand(c, CHECK_OPND_VALUE, 4, "the sparsity selector", 0,
			    wg_type_bits(f->a) >= 16 ? 1 : 0, false);
	}
	const struct ir_operand *p = &in->opnds[3 + sp];
	const struct ir_sym *py = reg_sym(p);
	if (!(py && py->type == MOD_PRED) && p->kind != OPND_IMM)
		error(c, CHECK_WGMMA_FORM, p->span, "scale-d of wgmma.mma_async is a predicate");
	if (!fl)
		return;
	imm_operand(c, CHECK_WGMMA_FORM, 4 + sp, "imm-scale-a", -1, 1, true);
	imm_operand(c, CHECK_WGMMA_FORM, 5 + sp, "imm-scale-b", -1, 1, true);
	for (unsigned i = 6 + sp; i < want; i++)
		imm_operand(c, CHECK_WGMMA_FORM, i, i + 1 == want ? "imm-trans-b" : "imm-trans-a",
			    0, 1, false);
}

static bool gates(struct wck *c)
{
	unsigned ver = c->m->version_major * 10 + c->m->version_minor;
	const char *name = ir_op_name(c->in->op);
	if (ver < 80) {
		error(c, CHECK_PTX_VERSION, c->in->op_span,
		      "%s needs PTX ISA 8.0 (module is %u.%u)", name, c->m->version_major,
		      c->m->version_minor);
		return false;
	}
	if (c->m->sm && (c->m->sm != 90 || !c->m->sm_arch_specific)) {
		error(c, CHECK_SM_TARGET, c->in->op_span, "%s needs target sm_90a (target is %s)",
		      name, c->m->target);
		return false;
	}
	return true;
}

/* What every warpgroup instruction checks first: PTX 8.0 and sm_90a, and its opcode words
 * (wgmma_form.c). False if either failed (reported). */
static bool form_ok(struct wck *c, struct wg_form *f)
{
	if (!gates(c))
		return false;
	char buf[200];
	const char *e = wg_form_parse(c->m->file->text, c->in, f, buf, sizeof buf);
	if (e) {
		error(c, CHECK_WGMMA_FORM, c->in->op_span, "%s", e);
		return false;
	}
	/* ptxas 13.0: the sparse forms came with PTX ISA 8.2, mixed s8/u8 inputs with 8.4 */
	unsigned ver = c->m->version_major * 10 + c->m->version_minor;
	const char *what = NULL;
	unsigned need = 0;
	if (f->sparse && ver < 82)
		what = "wgmma.mma_async.sp", need = 82;
	else if (f->d == WG_S32 && f->a != f->b && ver < 84)
		what = "wgmma.mma_async with mixed .s8/.u8 inputs", need = 84;
	if (what) {
		error(c, CHECK_PTX_VERSION, c->in->op_span, "%s needs PTX ISA %u.%u (module is "
		      "%u.%u)", what, need / 10, need % 10, c->m->version_major,
		      c->m->version_minor);
		return false;
	}
	return true;
}

/* wgmma.mma_async and its sparse form: the operands per input type. */
void ck_wgmma_mma_check(struct ck *ck, const struct ir_insn *in, const struct mods *ms)
{
	(void)ms;
	struct wck c = {.m = ck->m, .in = in};
	struct wg_form f;
	if (form_ok(&c, &f)) {
		mma_operands(&c, &f);
	}
	ck->errors += c.errors;
}

/* wgmma.wait_group N: N a constant up to 2^20. */
void ck_wgmma_wait_check(struct ck *ck, const struct ir_insn *in, const struct mods *ms)
{
	(void)ms;
	struct wck c = {.m = ck->m, .in = in};
	struct wg_form f;
	if (form_ok(&c, &f)) {
		if (in->nopnds != 1)
			error(&c, CHECK_OPND_COUNT, in->span,
			      "wgmma.wait_group takes 1 operand (has %u)", in->nopnds);
		else
			imm_operand(&c, CHECK_OPND_VALUE, 0, "the group count", 0, 1 << 20, false);
	}
	ck->errors += c.errors;
}

/* wgmma.fence, wgmma.commit_group: no operands. */
void ck_wgmma_noarg_check(struct ck *ck, const struct ir_insn *in, const struct mods *ms)
{
	(void)ms;
	struct wck c = {.m = ck->m, .in = in};
	struct wg_form f;
	if (form_ok(&c, &f) && in->nopnds)
		error(&c, CHECK_OPND_COUNT, in->span, "%s takes no operands", ir_op_name(in->op));
	ck->errors += c.errors;
}

/* setmaxnreg.{inc,dec}.sync.aligned.u32 count (ISA 9.7.19.5): the count is a constant in
 * 24..256 and a multiple of 8, as ptxas requires. */
void ck_setmaxnreg_check(struct ck *ck, const struct ir_insn *in, const struct mods *ms)
{
	(void)ms;
	struct wck c = {.m = ck->m, .in = in};
	struct wg_form f;
	if (!form_ok(&c, &f)) {
		ck->errors += c.errors;
		return;
	}
	if (in->nopnds != 1) {
		error(&c, CHECK_OPND_COUNT, in->span, "setmaxnreg takes 1 operand (has %u)",
		      in->nopnds);
	} else {
		imm_operand(&c, CHECK_SETMAXNREG, 0, "the register count", 24, 256, false);
		if (in->opnds[0].kind == OPND_IMM && in->opnds[0].imm % 8)
			error(&c, CHECK_SETMAXNREG, in->opnds[0].span,
			      "the register count of setmaxnreg must be a "
			      "multiple of 8 (is %lld)", (long long)in->opnds[0].imm);
	}
	ck->errors += c.errors;
}
