/*
 * check_async.c - static rules of the asynchronous and synchronising instructions that tie
 * modifiers to operands: mbarrier arrive/wait, bulk copies and reductions, bulk prefetch,
 * fence and membar, cp.async, st.async and red.async.
 */

#include "check_priv.h"

#include <inttypes.h>

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

/* mbarrier.arrive / arrive_drop (ISA 9.7.13.15.13, .14). */
void ck_arrive_check(struct ck *c, const struct ir_insn *in, const struct mods *ms)
{
	const char *name = ir_op_name(in->op);
	bool expect = ms->by_group[G_LEAD] == MOD_EXPECT_TX;
	bool nocomp = ms->by_group[G_LEAD] == MOD_NOCOMPLETE;
	bool remote = ms->by_group[G_SPACE] == MOD_SHARED_CLUSTER;
	bool has_count = in->nopnds >= 3;
	if (nocomp) {
		struct src_span s = ck_mod_span(in, ms, G_LEAD);
		if (ms->by_group[G_SEM] == MOD_RELAXED)
			ck_report(c, CHECK_MBARRIER_FORM, ck_mod_span(in, ms, G_SEM),
				  "'.relaxed' cannot be combined with '.noComplete' on %s", name);
		if (ms->by_group[G_SCOPE] == MOD_CLUSTER)
			ck_report(c, CHECK_MBARRIER_FORM, ck_mod_span(in, ms, G_SCOPE),
				  "'.cluster' cannot be combined with '.noComplete' on %s", name);
		if (remote)
			ck_report(c, CHECK_MBARRIER_FORM, ck_mod_span(in, ms, G_SPACE),
				  "'.shared::cluster' cannot be combined with '.noComplete' on %s",
				  name);
		if (!has_count && in->nopnds == 2)
			ck_report(c, CHECK_MBARRIER_FORM, s, "%s.noComplete requires a count operand",
				  name);
	}
	if (expect && in->nopnds == 2)
		ck_report(c, CHECK_MBARRIER_FORM, in->op_span,
			  "%s.expect_tx requires a txCount operand", name);
	if (has_count && !expect && !nocomp) {
		ck_need(c, in->opnds[2].span, 78, 90, "a count operand on %s without '.noComplete'",
			name);
	}
	if (in->nopnds >= 1 && in->opnds[0].kind == OPND_SINK) {
		if (in->op == OP_MBAR_ARRIVE)
			ck_need(c, in->opnds[0].span, 71, 0,
				"the sink '_' as destination of mbarrier.arrive");
	} else if (remote && in->nopnds >= 1) {
		ck_report(c, CHECK_MBARRIER_FORM, in->opnds[0].span,
			  "%s on '.shared::cluster' cannot return a state: the destination must be '_'",
			  name);
	}
	if (has_count && in->opnds[2].kind == OPND_IMM) {
		int64_t v = in->opnds[2].imm;
		if (!expect && v <= 0)
			ck_report(c, CHECK_OPND_VALUE, in->opnds[2].span,
				  "%s count must be positive (is %" PRId64 ")", name, v);
		else if (!expect && v > 1048575)
			ck_report(c, CHECK_MBAR_COUNT, in->opnds[2].span,
				  "%s count %" PRId64 " exceeds the limit 2^20-1 (undefined behaviour)",
				  name, v);
		else if (expect && (v < 0 || v > 1048575))
			ck_report(c, CHECK_MBAR_COUNT, in->opnds[2].span,
				  "txCount %" PRId64 " is outside [0, 2^20-1] (undefined behaviour)",
				  v);
	}
}

/* mbarrier.test_wait / try_wait (ISA 9.7.13.15.16). */
void ck_wait_check(struct ck *c, const struct ir_insn *in, const struct mods *ms)
{
	bool parity = ms->by_group[G_LEAD] == MOD_PARITY;
	if (in->nopnds < 3)
		return;
	const struct ir_operand *o = &in->opnds[2];
	if (!parity) /* the 64-bit state (its row's kind is K_NONE: .parity changes it) */
		ck_check_kind(c, in, 2, K_U64, ms->by_group[G_TYPE]);
	else {
		/* phaseParity replaces the 64-bit state: a 32-bit register or 0/1. */
		if (o->kind == OPND_IMM) {
			if (o->imm != 0 && o->imm != 1)
				ck_report(c, CHECK_OPND_VALUE, o->span,
					  "phaseParity must be 0 or 1 (is %" PRId64 ")", o->imm);
		} else if (!ck_is_int_reg(o, 4)) {
			ck_report(c, CHECK_OPND_KIND, o->span,
				  "phaseParity must be a 32-bit integer register or 0/1");
		}
	}
}

/* The size operand of a bulk copy, reduction or prefetch (ISA 9.7.9.25.4): a 32-bit integer,
 * a constant multiple of 16 up to 1048560 (ptxas 13.0). */
static void bulk_size_check(struct ck *c, const struct ir_insn *in, int i)
{
	const char *name = ir_op_name(in->op);
	const struct ir_operand *size = &in->opnds[i];
	if (size->kind != OPND_IMM) {
		ck_check_kind(c, in, i, K_U32, MOD_NONE);
		return;
	}
	if (size->imm % 16 != 0 || size->imm < 0)
		ck_report(c, CHECK_OPND_VALUE, size->span,
			  "%s size %" PRId64 " is not a multiple of 16", name, size->imm);
	else if (size->imm > 1048560)
		ck_report(c, CHECK_OPND_VALUE, size->span, "%s size %" PRId64 " exceeds 1048560", name,
			  size->imm);
	else if (size->imm == 0)
		ck_report(c, CHECK_EMPTY_COPY, size->span, "%s of 0 bytes", name);
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
void ck_bulk_check(struct ck *c, const struct ir_insn *in, const struct mods *ms)
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
		ck_report(c, CHECK_BULK_FORM, in->op_span,
			  "%s needs a destination and a source state space", name);
		return;
	}
	enum bulk_dir dir = bulk_direction(sp[0], sp[1]);
	if (!bulk_dir_allowed(in->op, dir)) {
		ck_report(c, CHECK_BULK_FORM, sps[0], "%s cannot copy from '%s' to '%s'", name,
			  ir_mod_name(sp[1]), ir_mod_name(sp[0]));
		return;
	}
	if (dir == D_G2CTA)
		ck_need(c, sps[0], 86, 90, "cp.async.bulk to '.shared::cta'");
	if (comp == MOD_NONE) {
		ck_report(c, CHECK_BULK_FORM, in->op_span, "%s needs a completion mechanism ('%s')",
			  name, dir == D_C2G ? ".bulk_group" : ".mbarrier::complete_tx::bytes");
		return;
	}
	if ((dir == D_C2G) != (comp == MOD_BULK_GROUP)) {
		ck_report(c, CHECK_BULK_FORM, ck_mod_span(in, ms, G_COMPLETION),
			  "'%s' is not the completion mechanism of " "%s%s%s", ir_mod_name(comp), name,
			  ir_mod_name(sp[0]), ir_mod_name(sp[1]));
		return;
	}
	if (mcast && dir != D_G2C) {
		ck_report(c, CHECK_BULK_FORM, ck_mod_span(in, ms, G_MULTICAST),
			  "'.multicast::cluster' needs a .global source and a .shared::cluster destination");
		return;
	}
	if (hint && dir == D_C2C) {
		ck_report(c, CHECK_BULK_FORM, ck_mod_span(in, ms, G_CACHE),
			  "'.L2::cache_hint' is not allowed on " "%s.shared::cluster.shared::cta",
			  name);
		return;
	}
	if (mcast && c->sm == 90 && !c->m->sm_arch_specific)
		ck_report(c, CHECK_MANUAL_FORM, ck_mod_span(in, ms, G_MULTICAST),
			  "'.multicast::cluster' is meant for sm_90a (slow on sm_90)");
	/* Operands: dst, src, size {, mbar} {, ctaMask} {, policy}. */
	unsigned want = 3 + (comp == MOD_COMPLETE_TX_BYTES) + mcast + hint;
	if (in->nopnds != want) {
		ck_report(c, CHECK_OPND_COUNT, in->span, "this form of %s takes %u operands (has %u)",
			  name, want, in->nopnds);
		return;
	}
	ck_check_addr(c, in, &in->opnds[0], 0, dir != D_C2G, dir == D_C2G);
	ck_check_addr(c, in, &in->opnds[1], 1, dir == D_C2G || dir == D_C2C,
		      dir == D_G2C || dir == D_G2CTA);
	bulk_size_check(c, in, 2);
	unsigned k = 3;
	if (comp == MOD_COMPLETE_TX_BYTES) {
		const struct ir_operand *o = &in->opnds[k];
		if (ck_is_int_reg(o, 8))
			/* ptxas 13.0 takes a bare 64-bit register; the manual writes [mbar]. */
			ck_report(c, CHECK_MANUAL_FORM, o->span,
				  "the mbarrier operand of %s should be written in "
				  "brackets, as in [%.*s]", name, (int)o->span.len,
				  c->m->file->text + o->span.off);
		else
			ck_check_kind(c, in, k, K_MBAR, MOD_NONE);
		k++;
	}
	if (mcast) {
		const struct ir_operand *o = &in->opnds[k];
		if (!(o->kind == OPND_IMM || ck_is_int_reg(o, 2)))
			ck_report(c, CHECK_OPND_KIND, o->span,
				  "ctaMask must be a 16-bit register or a constant");
		k++;
	}
	if (hint)
		ck_check_kind(c, in, k++, K_U64, MOD_NONE);
}

/* cp.reduce.async.bulk's operation and element type (CK_BULK_RED rows by destination, ISA
 * 9.7.9.25.4.2); .noftz goes with .add.f16 / .add.bf16 only, which need it. Returns false
 * if something was reported. A destination with no rows is left to ck_bulk_check. */
static bool bulk_reduce_check(struct ck *c, const struct ir_insn *in, const struct mods *ms)
{
	const char *name = ir_op_name(in->op);
	enum ir_mod op = ms->by_group[G_OP], ty = ms->by_group[G_TYPE], dst = MOD_NONE;
	for (unsigned i = 0; i < in->nmods && dst == MOD_NONE; i++)
		if (ir_mod_kind(in->mods[i]) == MK_SPACE)
			dst = in->mods[i];
	if (op == MOD_NONE) {
		ck_report(c, CHECK_BULK_FORM, in->op_span,
			  "%s needs a reduction operation (such as '.add')", name);
		return false;
	}
	if (ty == MOD_NONE)
		return false; /* ck_check_mods reported it */
	bool known = false, takes = false;
	for (size_t k = 0; k < sizeof bulkredrows / sizeof bulkredrows[0]; k++) {
		known |= bulkredrows[k].dst == dst;
		takes |= bulkredrows[k].dst == dst && bulkredrows[k].op == op &&
			 (bulkredrows[k].types & T_BIT(ty));
	}
	if (known && !takes) {
		ck_report(c, CHECK_BULK_FORM, ck_mod_span(in, ms, G_TYPE), "%s%s%s does not take '%s'",
			  name, ir_mod_name(dst), ir_mod_name(op), ir_mod_name(ty));
		return false;
	}
	bool half = op == MOD_ADD && (ty == MOD_F16 || ty == MOD_BF16);
	bool noftz = ms->by_group[G_OTHER] == MOD_NOFTZ;
	if (noftz && !half) {
		ck_report(c, CHECK_BULK_FORM, ck_mod_span(in, ms, G_OTHER),
			  "'.noftz' goes only with .add.f16 or .add.bf16 " "on %s", name);
		return false;
	}
	if (half && !noftz) {
		ck_report(c, CHECK_BULK_FORM, in->op_span, "%s.add%s needs '.noftz'", name,
			  ir_mod_name(ty));
		return false;
	}
	return true;
}

/* cp.async.bulk.prefetch.L2.global{.L2::cache_hint} [srcMem], size{, cache-policy} (ISA
 * 9.7.9.25.4.3): a global address (a 32-bit register too: the space is written). */
void ck_prefetch_check(struct ck *c, const struct ir_insn *in, const struct mods *ms)
{
	const char *name = ir_op_name(in->op);
	bool hint = ms->at[G_CACHE] >= 0;
	if (ms->by_group[G_OTHER] != MOD_L2) {
		ck_report(c, CHECK_MOD_MISSING, in->op_span, "%s needs the cache level '.L2'", name);
		return;
	}
	if (ms->by_group[G_SPACE] != MOD_GLOBAL) {
		ck_report(c, CHECK_MOD_MISSING, in->op_span, "%s needs the state space '.global'",
			  name);
		return;
	}
	if (in->nopnds != 2u + hint) {
		ck_report(c, CHECK_OPND_COUNT, in->span, "%s%s takes %u operands (has %u)", name,
			  hint ? ".L2::cache_hint" : "", 2u + hint, in->nopnds);
		return;
	}
	ck_check_addr(c, in, &in->opnds[0], 0, false, true);
	bulk_size_check(c, in, 1);
	if (hint)
		ck_check_kind(c, in, 2, K_U64, MOD_NONE);
}

/* fence.proxy.tensormap::generic.release.scope and .acquire.scope [addr], 128 (ISA
 * 9.7.13.4): orders generic-proxy writes of a tensor map before its use by tensor copies. */
static void tensormap_fence_check(struct ck *c, const struct ir_insn *in, enum ir_mod sem,
				  enum ir_mod scope, bool extra)
{
	const char *name = "fence.proxy.tensormap::generic";
	if (!ck_need(c, in->op_span, 83, 90, "%s", name))
		return;
	if (extra || (sem != MOD_RELEASE && sem != MOD_ACQUIRE) ||
	    (scope != MOD_CTA && scope != MOD_CLUSTER && scope != MOD_GPU && scope != MOD_SYS)) {
		ck_report(c, CHECK_FENCE_FORM, in->op_span,
			  "%s needs .release or .acquire and a scope (.cta, .cluster, "
			  ".gpu or .sys), nothing else", name);
		return;
	}
	if (sem == MOD_RELEASE)
		return;
	if (in->nopnds != 2) {
		ck_report(c, CHECK_OPND_COUNT, in->span,
			  "%s.acquire takes the tensor map's address and its size, 128 "
			  "(has %u operands)", name, in->nopnds);
		return;
	}
	const struct ir_operand *a = &in->opnds[0], *n = &in->opnds[1];
	if (a->kind != OPND_ADDR || !a->addr.base)
		ck_report(c, CHECK_OPND_KIND, a->span,
			  "operand 1 of %s must be an address in brackets", name);
	else if (n->kind != OPND_IMM || n->imm != 128)
		ck_report(c, CHECK_OPND_VALUE, n->span,
			  "operand 2 of %s must be 128, the size of a tensor map", name);
}

/* fence and membar forms (ISA 9.7.13.4). */
void ck_fence_check(struct ck *c, const struct ir_insn *in, const struct mods *ms)
{
	(void)ms;
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
				ck_report(c, CHECK_MOD_CONFLICT, s,
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
		ck_report(c, CHECK_OPND_COUNT, in->span, "%s takes no operands", ir_op_name(in->op));
		return;
	}
	if (in->op == OP_MEMBAR) {
		/* membar.{cta,gl,sys}, membar.proxy.alias (ISA 9.7.13.4) */
		if (proxy) {
			if (!alias || other || async || async_generic || sem || scope || space)
				ck_report(c, CHECK_FENCE_FORM, in->op_span,
					  "membar.proxy takes only '.alias'");
			else
				ck_need(c, in->op_span, 75, 0, "membar.proxy");
			return;
		}
		if (sem || space || other || mbinit || async || restrict_ ||
		    (scope != MOD_CTA && scope != MOD_GL && scope != MOD_SYS))
			ck_report(c, CHECK_FENCE_FORM, in->op_span,
				  "membar needs exactly one level: .cta, .gl or .sys");
		return;
	}
	if ((other || alias) && !proxy) {
		ck_report(c, CHECK_MOD_NOT_ALLOWED, bad, "'%.*s' is not allowed on fence",
			  (int)bad.len, c->m->file->text + bad.off);
		return;
	}
	if (mbinit) {
		if (!ck_need(c, in->op_span, 80, 90, "fence.mbarrier_init"))
			return;
		if (sem != MOD_RELEASE || scope != MOD_CLUSTER || space || proxy || restrict_)
			ck_report(c, CHECK_FENCE_FORM, in->op_span,
				  "fence.mbarrier_init must be written "
				  "fence.mbarrier_init.release.cluster");
		return;
	}
	if (tensormap && !proxy) {
		ck_report(c, CHECK_FENCE_FORM, in->op_span,
			  "'.tensormap::generic' is a proxy kind: write fence.proxy.tensormap::generic");
		return;
	}
	if (proxy) {
		if (!ck_need(c, in->op_span, 75, 0, "fence.proxy"))
			return;
		if (tensormap) {
			tensormap_fence_check(c, in, sem, scope, space || restrict_ || async ||
					      async_generic || alias);
			return;
		}
		if (async || async_generic) {
			if (async_generic) {
				if (!ck_need(c, in->op_span, 86, 90, "fence.proxy.async::generic"))
					return;
				if (!restrict_ || scope != MOD_CLUSTER || space ||
				    (sem != MOD_ACQUIRE && sem != MOD_RELEASE) ||
				    (sem == MOD_ACQUIRE) != (restrict_ == MOD_SYNC_RESTRICT_CLUSTER))
					ck_report(c, CHECK_FENCE_FORM, in->op_span,
						  "fence.proxy.async::generic needs "
						  ".acquire.sync_restrict::shared::cluster.cluster or "
						  ".release.sync_restrict::shared::cta.cluster");
				return;
			}
			if (!ck_need(c, in->op_span, 80, 90, "fence.proxy.async"))
				return;
			if (sem || scope || restrict_ || other || alias) {
				ck_report(c, CHECK_FENCE_FORM, in->op_span,
					  "fence.proxy.async takes no memory order or scope");
				return;
			}
			if (space && space != MOD_GLOBAL && space != MOD_SHARED_CTA &&
			    space != MOD_SHARED_CLUSTER)
				ck_report(c, CHECK_FENCE_FORM, in->op_span,
					  "fence.proxy.async takes .global, .shared::cta or "
					  ".shared::cluster, not '%s'", ir_mod_name(space));
			return;
		}
		/* fence.proxy.alias; the tensormap forms are not modelled. */
		if (!alias || other || sem || scope || space || restrict_)
			ck_report(c, CHECK_FENCE_FORM, in->op_span,
				  "fence.proxy needs a proxy kind ('.alias' or '.async')");
		return;
	}
	if (async || async_generic || space) {
		ck_report(c, CHECK_FENCE_FORM, in->op_span, "this fence form is not valid");
		return;
	}
	if (restrict_) {
		if (!ck_need(c, in->op_span, 86, 90, "fence.sync_restrict"))
			return;
		if (scope != MOD_CLUSTER ||
		    !((sem == MOD_ACQUIRE && restrict_ == MOD_SYNC_RESTRICT_CLUSTER) ||
		      (sem == MOD_RELEASE && restrict_ == MOD_SYNC_RESTRICT_CTA)))
			ck_report(c, CHECK_FENCE_FORM, in->op_span, "fence%s needs %s.cluster",
				  ir_mod_name(restrict_),
				  restrict_ == MOD_SYNC_RESTRICT_CLUSTER ? ".acquire" : ".release");
		return;
	}
	/* fence{.sem}.scope */
	if (scope == MOD_NONE) {
		ck_report(c, CHECK_FENCE_FORM, in->op_span,
			  "fence needs a scope (.cta, .cluster, .gpu or .sys)");
		return;
	}
	if (scope != MOD_CTA && scope != MOD_CLUSTER && scope != MOD_GPU && scope != MOD_SYS) {
		ck_report(c, CHECK_FENCE_FORM, in->op_span, "'%s' is not a fence scope",
			  ir_mod_name(scope));
		return;
	}
	if (scope == MOD_CLUSTER)
		ck_need(c, in->op_span, 78, 90, "fence.cluster");
	if (sem != MOD_NONE && sem != MOD_SC && sem != MOD_ACQ_REL && sem != MOD_ACQUIRE &&
	    sem != MOD_RELEASE) {
		ck_report(c, CHECK_FENCE_FORM, in->op_span, "'%s' is not a fence memory order",
			  ir_mod_name(sem));
		return;
	}
	if ((sem == MOD_ACQUIRE || sem == MOD_RELEASE) && c->ver < 86)
		/* ptxas 13.0 accepts them in any version; the manual says PTX 8.6. */
		ck_report(c, CHECK_MANUAL_FORM, in->op_span,
			  "fence%s needs PTX ISA 8.6 according to the manual "
			  "(module is %u.%u; ptxas accepts it)", ir_mod_name(sem), c->ver / 10,
			  c->ver % 10);
}

/* A cp.async address operand naming a variable of the wrong state space. */
static void cp_async_addr(struct ck *c, const struct ir_operand *o, int n, bool shared)
{
	if (o->kind != OPND_ADDR) {
		ck_report(c, CHECK_OPND_KIND, o->span,
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
		ck_report(c, CHECK_CP_ASYNC_FORM, b->span,
			  "'%.*s' is in %s memory: the %s of cp.async must be in %s", (int)y->name_len,
			  y->name, ir_mod_name(y->space), shared ? "destination" : "source",
			  shared ? ".shared" : ".global");
}

/* cp.async.ca/.cg.shared{::cta}.global [dst], [src], cp-size {, src-size | ignore-src}
 * {, cache-policy} (ISA 9.7.9.25.3): .ca or .cg is mandatory; .cg copies 16 bytes, .ca 4,
 * 8 or 16; cp-size is a constant, src-size a 32-bit integer no larger than cp-size. */
void ck_cp_async_check(struct ck *c, const struct ir_insn *in, const struct mods *ms)
{
	(void)ms;
	bool cg = ck_has_mod(in, MOD_CG), hint = ck_has_mod(in, MOD_L2_CACHE_HINT);
	if (!cg && !ck_has_mod(in, MOD_CA)) {
		ck_report(c, CHECK_MOD_MISSING, in->op_span, "cp.async needs '.ca' or '.cg'");
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
			ck_need(c, in->mod_spans[i], 74, 0, "'%s' on cp.async", ir_mod_name(m));
		}
	}
	if (nsp != 2 || (sp[0] != MOD_SHARED && sp[0] != MOD_SHARED_CTA) || sp[1] != MOD_GLOBAL) {
		ck_report(c, CHECK_CP_ASYNC_FORM, at >= 0 ? in->mod_spans[at] : in->op_span,
			  "cp.async copies from .global to "
			  ".shared: write its state spaces as '.shared.global'");
		return;
	}
	unsigned lo = 3 + hint, hi = 4 + hint;
	if (in->nopnds < lo || in->nopnds > hi) {
		ck_report(c, CHECK_OPND_COUNT, in->span, "cp.async%s takes %u or %u operands (has %u)",
			  hint ? ".L2::cache_hint" : "", lo, hi, in->nopnds);
		return;
	}
	cp_async_addr(c, &in->opnds[0], 1, true);
	cp_async_addr(c, &in->opnds[1], 2, false);
	const struct ir_operand *o = &in->opnds[2];
	if (o->kind != OPND_IMM) {
		ck_report(c, CHECK_OPND_KIND, o->span,
			  "the cp-size of cp.async must be a constant (4, 8 or 16)");
		return;
	}
	int64_t v = o->imm;
	if (cg && v != 16)
		ck_report(c, CHECK_CP_ASYNC_FORM, o->span,
			  "cp.async.cg copies 16 bytes (cp-size is %" PRId64 ")", v);
	else if (!cg && v != 4 && v != 8 && v != 16)
		ck_report(c, CHECK_CP_ASYNC_FORM, o->span,
			  "cp.async cp-size must be 4, 8 or 16 (is %" PRId64 ")", v);
	if (in->nopnds == hi) {
		const struct ir_operand *s = &in->opnds[3];
		if (s->kind == OPND_IMM && (s->imm < 0 || s->imm > v))
			ck_report(c, CHECK_CP_ASYNC_FORM, s->span,
				  "cp.async src-size %" PRId64 " is outside [0, cp-size %" PRId64 "]",
				  s->imm, v);
		else if (s->kind != OPND_IMM && !ck_is_int_reg(s, 4) && !ck_is_pred_reg(s))
			ck_report(c, CHECK_OPND_KIND, s->span,
				  "the src-size of cp.async must be a 32-bit integer (or an "
				  "ignore-src predicate)");
	}
}

/* An address of st.async / red.async: ptxas 13.0 takes a 32-bit register even without a
 * state space, where ck_check_addr wants a 64-bit generic one, and then a variable of any
 * space (a generic address). */
static void async_addr(struct ck *c, const struct ir_insn *in, int i, bool generic)
{
	const struct ir_operand *o = &in->opnds[i];
	const struct ir_operand *b = o->kind == OPND_ADDR ? o->addr.base : NULL;
	if (b && (ck_is_int_reg(b, 4) || (generic && b->kind == OPND_SYM && b->ref.sym &&
					  b->ref.sym->kind == SYM_VAR)))
		return;
	ck_check_addr(c, in, o, i, true, false);
}

/* One value stored by st.async / red.async `what` of type ty (ptxas 13.0): a register that
 * fits the type (ISA 6.4.1; in a vector an integer register of the width also stands for a
 * float element), an integer constant for an integer type, a 0f/0d one for a float type or
 * a .bN of its width (any in a vector). */
static void async_value(struct ck *c, const struct ir_operand *o, enum ir_mod ty, bool in_vec,
			const char *what)
{
	bool ok = false;
	if (ck_is_sreg(o)) {
		ck_report(c, CHECK_SREG, o->span,
			  "a special register cannot be an operand of %s (read it with " "mov)", what);
		return;
	}
	if (o->kind == OPND_REG) {
		enum ir_mod r = ck_reg_type(o);
		ok = r != MOD_NONE && !o->neg &&
		     (ck_reg_fits(r, ty) || (in_vec && ck_is_float_type(ty) && ck_is_int_type(r) &&
					    ir_type_size(r) == ir_type_size(ty)));
		if (!ok && r != MOD_NONE && !o->neg) {
			ck_report(c, CHECK_OPND_TYPE, o->span, "%s cannot store a %s register", what,
				  ir_mod_name(r));
			return;
		}
	} else if (o->kind == OPND_IMM) {
		ok = !ck_is_float_type(ty);
	} else if (o->kind == OPND_FIMM) {
		ok = in_vec || ty == MOD_F32 || ty == MOD_F64 ||
		     (ty == MOD_B32 && o->fimm.is_f32) || (ty == MOD_B64 && !o->fimm.is_f32);
	}
	if (!ok)
		ck_report(c, CHECK_OPND_TYPE, o->span,
			  "the value of %s must be %s or a constant of its type", what, ck_type_words(ty));
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
		ck_report(c, CHECK_ASYNC_STORE_FORM, o->span,
			  "a vector value of st.async needs the mbarrier operand");
		return;
	}
	bool lax = o->kind != OPND_VEC ||
		   (n == 1 && ir_type_size(ty) == 4 && (got == 2 || got == 4));
	if (got != n && !lax) {
		ck_report(c, CHECK_ASYNC_STORE_FORM, o->span, "%s needs %s (has %d)", what,
			  n == 1 ? "one value" : n == 2 ? "a vector of 2 values" : "a vector of 4 values",
			  got);
		return;
	}
	if (got != n)
		ck_report(c, CHECK_MANUAL_FORM, o->span,
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
		ck_report(c, CHECK_MANUAL_FORM, in->span,
			  "%s without %s is not a form of the manual (ptxas accepts it; "
			  "ptxi cannot run it)", what,
			  in->nopnds == 2 ? "an mbarrier operand" : "'.mbarrier::complete_tx::bytes'");
	if (in->op != OP_ST_ASYNC)
		return;
	if (space == MOD_SHARED || space == MOD_SHARED_CTA)
		ck_report(c, CHECK_MANUAL_FORM, ck_mod_span(in, ms, G_SPACE),
			  "'%s' on st.async: the manual allows only "
			  "'.shared::cluster' (ptxas accepts it; ptxi reads the addresses as "
			  "shared::cluster ones)", ir_mod_name(space));
	if (ms->by_group[G_SCOPE] == MOD_CLUSTER)
		ck_report(c, CHECK_MANUAL_FORM, ck_mod_span(in, ms, G_SCOPE),
			  "'.cluster' on st.async needs PTX ISA 8.7 "
			  "and sm_100 according to the manual (ptxas accepts it)");
}

/* st.async / red.async (ISA 9.7.9.12, 9.7.13.7), as ptxas 13.0 takes them: [a], b, [mbar]
 * with .mbarrier::complete_tx::bytes, which st.async may leave out only with .shared::cta,
 * .shared, or neither space nor scope nor [mbar]; st.async's .weak excludes .cluster, which
 * wants .shared::cluster if a space is written; red.async is .relaxed.cluster with an
 * operation of CK_RED_ASYNC; a vector needs [mbar] and holds at most 16 bytes. */
void ck_async_store_check(struct ck *c, const struct ir_insn *in, const struct mods *ms)
{
	const char *name = ir_op_name(in->op);
	bool red = in->op == OP_RED_ASYNC;
	enum ir_mod ty = ms->by_group[G_TYPE], vec = ms->by_group[G_VEC], op = ms->by_group[G_OP];
	enum ir_mod sem = ms->by_group[G_SEM], scope = ms->by_group[G_SCOPE];
	enum ir_mod space = ms->by_group[G_SPACE];
	int n = vec ? ir_mod_arg(vec) : 1;
	if (ty == MOD_NONE)
		return; /* ck_check_mods reported it */
	if (red && sem == MOD_NONE) {
		ck_report(c, CHECK_ASYNC_STORE_FORM, in->op_span,
			  "red.async needs the memory order and scope " "'.relaxed.cluster'");
		return;
	}
	if (red && scope == MOD_NONE) {
		ck_report(c, CHECK_ASYNC_STORE_FORM, ck_mod_span(in, ms, G_SEM),
			  "'.relaxed' on red.async requires the scope " "'.cluster'");
		return;
	}
	if (!red && sem != MOD_NONE && scope != MOD_NONE) {
		ck_report(c, CHECK_ASYNC_STORE_FORM, ck_mod_span(in, ms, G_SCOPE),
			  "'.weak' cannot be combined with '.cluster' on " "st.async");
		return;
	}
	if (scope != MOD_NONE && space != MOD_NONE && space != MOD_SHARED_CLUSTER) {
		ck_report(c, CHECK_ASYNC_STORE_FORM, ck_mod_span(in, ms, G_SPACE),
			  "'.cluster' on st.async requires " "'.shared::cluster' (not '%s')",
			  ir_mod_name(space));
		return;
	}
	if (ms->at[G_COMPLETION] < 0 && (red || space == MOD_SHARED_CLUSTER || scope != MOD_NONE ||
					 (space == MOD_NONE && in->nopnds == 3))) {
		ck_report(c, CHECK_ASYNC_STORE_FORM, in->op_span, "%s needs the completion mechanism "
			  "'.mbarrier::complete_tx::bytes'", name);
		return;
	}
	if (red && op == MOD_NONE) {
		ck_report(c, CHECK_ASYNC_STORE_FORM, in->op_span,
			  "red.async needs an operation (such as '.add')");
		return;
	}
	if (red && !red_async_takes(op, ty)) {
		ck_report(c, CHECK_ASYNC_STORE_FORM, ck_mod_span(in, ms, G_TYPE),
			  "red.async%s does not take '%s'", ir_mod_name(op), ir_mod_name(ty));
		return;
	}
	if (vec && (in->nopnds == 2 || n * ir_type_size(ty) > 16)) {
		ck_report(c, CHECK_ASYNC_STORE_FORM, ck_mod_span(in, ms, G_VEC),
			  in->nopnds == 2 ? "'%s' on st.async needs the mbarrier operand"
					  : "'%s%s' on st.async stores more than 16 bytes",
			  ir_mod_name(vec), in->nopnds == 2 ? "" : ir_mod_name(ty));
		return;
	}
	if (in->nopnds < 2 || in->nopnds > 3) {
		ck_report(c, CHECK_OPND_COUNT, in->span,
			  "%s takes 3 operands, [a], b, [mbar] (has %u)", name, in->nopnds);
		return;
	}
	char what[64];
	ck_spell(what, sizeof what, name, red ? ir_mod_name(op) : vec ? ir_mod_name(vec) : "",
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

/* cp.reduce.async.bulk: the operation and type per destination, then what every bulk copy
 * checks. */
void ck_cp_reduce_check(struct ck *c, const struct ir_insn *in, const struct mods *ms)
{
	if (bulk_reduce_check(c, in, ms))
		ck_bulk_check(c, in, ms);
}

/* mbarrier.init's count, when a constant: the manual's range (ptxas lets others pass). */
void ck_mbar_init_check(struct ck *c, const struct ir_insn *in, const struct mods *ms)
{
	(void)ms;
	if (in->nopnds == 2 && in->opnds[1].kind == OPND_IMM &&
	    (in->opnds[1].imm < 1 || in->opnds[1].imm > 1048575))
		ck_report(c, CHECK_MBAR_COUNT, in->opnds[1].span,
			  "mbarrier.init count %" PRId64 " is outside "
			  "[1, 2^20-1] (undefined behaviour; ptxas accepts it)",
			  in->opnds[1].imm);
}
