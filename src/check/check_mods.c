/*
 * check_mods.c - the generic pass over an instruction's modifiers (CK_MOD rows of
 * checkrules.def): which are allowed on the opcode, at most one of each group, the words
 * that must lead, and the version and target each needs.
 */

#include "check_priv.h"

static const struct ck_modrule modrules[] = {
#define CK_MOD(op, mod, group, ptx, sm, flags) {OP_##op, MOD_##mod, group, flags, ptx, sm},
#include "checkrules.def"
};

static const struct ck_modrule *find_mod(const struct ck *c, enum ir_op op, enum ir_mod m)
{
	const struct ck_oprule *r = &c->ops[op];
	for (unsigned i = r->first_mod; i < r->first_mod + r->nmods; i++)
		if (modrules[i].mod == m)
			return &modrules[i];
	return NULL;
}

void ck_check_mods(struct ck *c, const struct ir_insn *in, struct mods *ms)
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
				ck_report(c, CHECK_INSN_TYPE, s, "'%s' is not a valid type for %s",
					  ir_mod_name(m), name);
			else if (ir_mod_kind(m) == MK_SPACE)
				ck_report(c, CHECK_MOD_NOT_ALLOWED, s,
					  "'%s' is not a valid state space for %s", ir_mod_name(m),
					  name);
			else
				ck_report(c, CHECK_MOD_NOT_ALLOWED, s, "'%s' is not allowed on %s",
					  ir_mod_name(m), name);
			ms->bad = true;
			continue;
		}
		for (unsigned j = 0; j < i && mr->group != G_PRIORITY; j++)
			if (in->mods[j] == m) {
				ck_report(c, CHECK_MOD_CONFLICT, s, "duplicate '%s' on %s",
					  ir_mod_name(m), name);
				ms->bad = true;
				goto next;
			}
		if (ms->at[mr->group] >= 0 && mr->group != G_SPACES && mr->group != G_PRIORITY) {
			ck_report(c, CHECK_MOD_CONFLICT, s, "'%s' cannot be combined with '%s' on %s",
				  ir_mod_name(m), ir_mod_name(ms->by_group[mr->group]), name);
			ms->bad = true;
			continue;
		}
		if ((mr->flags & MF_LEAD) && seen_plain) {
			ck_report(c, CHECK_MOD_ORDER, s, "'%s' must come right after '%s'",
				  ir_mod_name(m), name);
			ms->bad = true;
		}
		if (!(mr->flags & MF_LEAD))
			seen_plain = true;
		if (!ck_need(c, s, mr->ptx, mr->sm, "'%s' on %s", ir_mod_name(m), name))
			ms->bad = true;
		ms->by_group[mr->group] = m;
		ms->at[mr->group] = (int)i;
	next:;
	}
	if ((r->flags & CF_NEED_TYPE) && ms->at[G_TYPE] < 0 && !ms->bad) {
		bool u32 = in->op == OP_MAPA || in->op == OP_GETCTARANK || in->op == OP_ST_ASYNC ||
			   in->op == OP_RED_ASYNC || in->op == OP_CP_REDUCE_ASYNC_BULK;
		ck_report(c, CHECK_INSN_TYPE, in->op_span,
			  "%s needs an instruction type (such as '.%s')", name, u32 ? "u32" : "b64");
	}
	if (r->flags & CF_PAIR) {
		int se = ms->at[G_SEM], sc = ms->at[G_SCOPE];
		bool wait = in->op == OP_MBAR_TEST_WAIT || in->op == OP_MBAR_TRY_WAIT;
		bool tx = in->op == OP_MBAR_EXPECT_TX || in->op == OP_MBAR_COMPLETE_TX;
		const char *sem = wait ? ".acquire" : tx ? ".relaxed" : ".release";
		if (se >= 0 && sc < 0)
			ck_report(c, CHECK_MEMORY_ORDER, in->mod_spans[se],
				  "'%s' requires a scope ('.cta' or '.cluster')",
				  ir_mod_name(in->mods[se]));
		else if (sc >= 0 && se < 0)
			ck_report(c, CHECK_MEMORY_ORDER, in->mod_spans[sc],
				  "'%s' requires a memory order such as '%s'",
				  ir_mod_name(in->mods[sc]), sem);
	}
}

struct src_span ck_mod_span(const struct ir_insn *in, const struct mods *ms, int g)
{
	return ms->at[g] >= 0 ? in->mod_spans[ms->at[g]] : in->op_span;
}

/* Where each opcode's CK_MOD rows start (rows of one opcode are together). */
void ck_mods_index(struct ck *c)
{
	size_t n = sizeof modrules / sizeof modrules[0];
	for (size_t i = 0; i < n; i++) {
		struct ck_oprule *r = &c->ops[modrules[i].op];
		if (r->nmods == 0)
			r->first_mod = (uint16_t)i;
		r->nmods = (uint16_t)(i + 1 - r->first_mod);
	}
}
