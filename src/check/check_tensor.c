/*
 * check_tensor.c - static legality of the tensor copies (ISA 9.7.9.25.5): cp.async.bulk.tensor
 * (a load into shared memory, or a store out of it), cp.reduce.async.bulk.tensor and
 * cp.async.bulk.prefetch.tensor, as ptxas 13.0 judges them: one word of each kind in any
 * order, a direction and completion mechanism of the manual's list, a load mode the
 * direction and dimension count take, and the operands that form spells (coordinates,
 * im2col offsets, ctaMask, cache policy). The sm_100a forms (.tile::gather4, .tile::scatter4,
 * .im2col::w, .im2col::w::128, .cta_group::N) are checked but not run.
 */

#include "check_priv.h"

#include <stdio.h>
#include <string.h>

/* The kinds of word a tensor copy takes: at most one of each. */
enum tw { TW_DIM, TW_MODE, TW_SPACE, TW_COMPLETION, TW_MULTICAST, TW_HINT, TW_CTA_GROUP,
	  TW_LEVEL, TW_REDOP, TW_ACC, TW__COUNT };

static const char *const tw_what[TW__COUNT] = {
	"dimension ('.1d' .. '.5d')", "load mode", "state space", "completion mechanism",
	"'.multicast::cluster'", "'.L2::cache_hint'", "'.cta_group::N'", "'.L2'",
	"reduction operation", "accumulation precision ('.acc::f32' or '.acc::f16')",
};

/* The word kind of m on op, or -1 if op does not take it. */
static int word_kind(enum ir_op op, enum ir_mod m)
{
	bool red = op == OP_CP_REDUCE_ASYNC_BULK_TENSOR, pf = op == OP_CP_ASYNC_BULK_PREFETCH_TENSOR;
	switch (m) {
	case MOD_DIM1: case MOD_DIM2: case MOD_DIM3: case MOD_DIM4: case MOD_DIM5:
		return TW_DIM;
	case MOD_TILE: case MOD_IM2COL: case MOD_IM2COL_NO_OFFS: case MOD_TILE_GATHER4:
	case MOD_TILE_SCATTER4: case MOD_IM2COL_W: case MOD_IM2COL_W128:
		return TW_MODE;
	case MOD_SHARED: case MOD_SHARED_CTA: case MOD_SHARED_CLUSTER: case MOD_GLOBAL:
		return TW_SPACE;
	case MOD_COMPLETE_TX_BYTES: case MOD_BULK_GROUP:
		return pf ? -1 : TW_COMPLETION;
	case MOD_MULTICAST_CLUSTER:
		return op == OP_CP_ASYNC_BULK_TENSOR ? TW_MULTICAST : -1;
	case MOD_L2_CACHE_HINT:
		return TW_HINT;
	case MOD_CTA_GROUP_1: case MOD_CTA_GROUP_2:
		return op == OP_CP_ASYNC_BULK_TENSOR ? TW_CTA_GROUP : -1;
	case MOD_L2:
		return pf ? TW_LEVEL : -1;
	case MOD_ACC_F32: case MOD_ACC_F16: /* ptxas 13.0 takes one anywhere and ignores it */
		return TW_ACC;
	case MOD_ADD: case MOD_MIN: case MOD_MAX: case MOD_INC: case MOD_DEC: case MOD_AND:
	case MOD_OR: case MOD_XOR:
		return red ? TW_REDOP : -1;
	default:
		return -1;
	}
}

/* One tensor copy as written: its words by kind, its dimension count and direction. */
struct tform {
	enum ir_mod w[TW__COUNT];
	int at[TW__COUNT];              /* index into in->mods                                */
	enum ir_mod sp[2];              /* state spaces, destination first                     */
	int nsp;
	int dims;
	bool load;                      /* cp.async.bulk.tensor into shared memory             */
};

static struct src_span word_span(const struct ir_insn *in, const struct tform *f, int k)
{
	return f->at[k] >= 0 ? in->mod_spans[f->at[k]] : in->op_span;
}

/* Sorts the words into f; false (reported) on a word the opcode does not take or one written
 * twice. */
static bool read_words(struct ck *c, const struct ir_insn *in, struct tform *f)
{
	const char *name = ir_op_name(in->op);
	for (int k = 0; k < TW__COUNT; k++) {
		f->w[k] = MOD_NONE;
		f->at[k] = -1;
	}
	f->nsp = 0;
	f->load = false;
	for (unsigned i = 0; i < in->nmods; i++) {
		enum ir_mod m = in->mods[i];
		int k = word_kind(in->op, m);
		if (k < 0) {
			ck_report(c, CHECK_MOD_NOT_ALLOWED, in->mod_spans[i],
				  ir_mod_kind(m) == MK_TYPE ? "%s takes no type ('%s'): the tensor "
							      "map gives the element type"
							    : "%s does not take '%s'",
				  name, ir_mod_name(m));
			return false;
		}
		if (k == TW_SPACE) {
			if (f->nsp < 2)
				f->sp[f->nsp] = m;
			if (++f->nsp > (in->op == OP_CP_ASYNC_BULK_PREFETCH_TENSOR ? 1 : 2)) {
				ck_report(c, CHECK_MOD_NOT_ALLOWED, in->mod_spans[i],
					  "too many state spaces on %s", name);
				return false;
			}
			if (f->at[k] < 0)
				f->at[k] = (int)i;
			continue;
		}
		if (f->w[k] != MOD_NONE) {
			ck_report(c, CHECK_MOD_NOT_ALLOWED, in->mod_spans[i],
				  "%s takes one %s ('%s' and '%s')", name, tw_what[k],
				  ir_mod_name(f->w[k]), ir_mod_name(m));
			return false;
		}
		f->w[k] = m;
		f->at[k] = (int)i;
	}
	f->dims = f->w[TW_DIM] ? ir_mod_arg(f->w[TW_DIM]) : 0;
	return true;
}

/* The direction, completion mechanism and the words that go with them. */
static bool check_direction(struct ck *c, const struct ir_insn *in, struct tform *f)
{
	const char *name = ir_op_name(in->op);
	if (!f->dims) {
		ck_report(c, CHECK_MOD_MISSING, in->op_span,
			  "%s needs a dimension count ('.1d' .. '.5d')", name);
		return false;
	}
	if (in->op == OP_CP_ASYNC_BULK_PREFETCH_TENSOR) {
		if (f->nsp != 1 || f->sp[0] != MOD_GLOBAL) {
			ck_report(c, CHECK_BULK_FORM, word_span(in, f, TW_SPACE),
				  "%s prefetches from '.global' (write '.global')", name);
			return false;
		}
		if (!f->w[TW_LEVEL]) {
			ck_report(c, CHECK_MOD_MISSING, in->op_span,
				  "%s needs the cache level '.L2'", name);
			return false;
		}
		return true;
	}
	if (f->w[TW_REDOP] == MOD_NONE && in->op == OP_CP_REDUCE_ASYNC_BULK_TENSOR) {
		ck_report(c, CHECK_MOD_MISSING, in->op_span,
			  "%s needs a reduction operation (.add, .min, .max, .inc, .dec, .and, .or, "
			  ".xor)", name);
		return false;
	}
	bool load = f->nsp == 2 && f->sp[1] == MOD_GLOBAL &&
		    (f->sp[0] == MOD_SHARED_CLUSTER || f->sp[0] == MOD_SHARED_CTA);
	bool store = f->nsp == 2 && f->sp[0] == MOD_GLOBAL && f->sp[1] == MOD_SHARED_CTA;
	if (f->nsp != 2 || (!store && (!load || in->op != OP_CP_ASYNC_BULK_TENSOR))) {
		ck_report(c, CHECK_BULK_FORM, word_span(in, f, TW_SPACE),
			  in->op == OP_CP_ASYNC_BULK_TENSOR
				  ? "%s copies .shared::cluster.global, .shared::cta.global or "
				    ".global.shared::cta (destination, source)"
				  : "%s reduces .global.shared::cta (destination, source)",
			  name);
		return false;
	}
	f->load = load;
	if (load && f->sp[0] == MOD_SHARED_CTA &&
	    !ck_need(c, word_span(in, f, TW_SPACE), 86, 90, "%s to '.shared::cta'", name))
		return false;
	enum ir_mod want = load ? MOD_COMPLETE_TX_BYTES : MOD_BULK_GROUP;
	if (f->w[TW_COMPLETION] != want) {
		ck_report(c, f->w[TW_COMPLETION] ? CHECK_BULK_FORM : CHECK_MOD_MISSING,
			  word_span(in, f, TW_COMPLETION), "%s %s completes through '%s'", name,
			  load ? "into shared memory" : "to global memory", ir_mod_name(want));
		return false;
	}
	if (f->w[TW_MULTICAST] && f->sp[0] != MOD_SHARED_CLUSTER) {
		ck_report(c, CHECK_BULK_FORM, word_span(in, f, TW_MULTICAST),
			  "'.multicast::cluster' needs the '.shared::cluster' destination");
		return false;
	}
	if (f->w[TW_CTA_GROUP] && !load) {
		ck_report(c, CHECK_BULK_FORM, word_span(in, f, TW_CTA_GROUP),
			  "'%s' is only for a load into shared memory", ir_mod_name(f->w[TW_CTA_GROUP]));
		return false;
	}
	return true;
}

/* The sm_100a forms: PTX 8.6 and an sm_10x/sm_11x target with the 'a' (architecture) or 'f'
 * (family) suffix (ptxas 13.0: sm_100 and sm_120a refuse them). */
static bool need_sm100a(struct ck *c, struct src_span s, const char *what)
{
	if (!ck_need(c, s, 86, 0, "%s", what))
		return false;
	size_t n = strlen(c->m->target);
	char suffix = n ? c->m->target[n - 1] : 0;
	if (!c->sm || (c->sm >= 100 && c->sm < 120 && (suffix == 'a' || suffix == 'f')))
		return true;
	ck_report(c, CHECK_SM_TARGET, s, "%s needs sm_100a (or another sm_10x 'a' target; target "
		  "is %s)", what, c->m->target);
	return false;
}

/* The load mode: one the copy's kind takes, with a dimension count it takes. */
static bool check_mode(struct ck *c, const struct ir_insn *in, const struct tform *f)
{
	const char *name = ir_op_name(in->op);
	enum ir_mod mode = f->w[TW_MODE] ? f->w[TW_MODE] : MOD_TILE;
	struct src_span s = word_span(in, f, TW_MODE);
	bool reads = f->load || in->op == OP_CP_ASYNC_BULK_PREFETCH_TENSOR;
	bool ok;
	switch (mode) {
	case MOD_TILE: ok = true; break;
	case MOD_IM2COL: case MOD_TILE_GATHER4: case MOD_IM2COL_W: case MOD_IM2COL_W128:
		ok = reads;
		break;
	case MOD_IM2COL_NO_OFFS: case MOD_TILE_SCATTER4:
		ok = !reads;
		break;
	default: ok = false; break;
	}
	if (!ok) {
		ck_report(c, CHECK_MOD_NOT_ALLOWED, s, "%s%s does not take '%s'", name,
			  in->op == OP_CP_ASYNC_BULK_TENSOR ? (f->load ? " (a load)" : " (a store)")
							    : "",
			  ir_mod_name(mode));
		return false;
	}
	bool gather = mode == MOD_TILE_GATHER4 || mode == MOD_TILE_SCATTER4;
	bool im2col = mode != MOD_TILE && !gather;
	if ((gather && f->dims != 2) || (im2col && f->dims < 3)) {
		ck_report(c, CHECK_BULK_FORM, word_span(in, f, TW_DIM), "'%s' cannot be combined "
			  "with '%s' (%s)", ir_mod_name(f->w[TW_DIM]), ir_mod_name(mode),
			  gather ? "it is .2d only" : "it needs 3 to 5 dimensions");
		return false;
	}
	char what[96];
	if (gather || mode == MOD_IM2COL_W || mode == MOD_IM2COL_W128) {
		snprintf(what, sizeof what, "'%s' on %s", ir_mod_name(mode), name);
		if (!need_sm100a(c, s, what))
			return false;
	}
	if (f->w[TW_CTA_GROUP]) {
		snprintf(what, sizeof what, "'%s' on %s", ir_mod_name(f->w[TW_CTA_GROUP]), name);
		if (!need_sm100a(c, word_span(in, f, TW_CTA_GROUP), what))
			return false;
	}
	return true;
}

/* An integer register of `bytes` bytes or an integer constant. */
static bool int_value(const struct ir_operand *o, int bytes)
{
	return o->kind == OPND_IMM || ck_is_int_reg(o, bytes);
}

/* A shared-memory address: [reg], [reg+imm], [shared variable(+imm)], or a bare register. */
static bool shared_address(struct ck *c, const struct ir_insn *in, const struct ir_operand *o,
			   const char *what)
{
	const char *name = ir_op_name(in->op);
	if (o->kind == OPND_REG && !ck_is_pred_reg(o))
		return true; /* ptxas 13.0 takes any bare register but a predicate */
	if (o->kind != OPND_ADDR) {
		ck_report(c, CHECK_OPND_KIND, o->span, "the %s of %s must be an address in shared "
			  "memory", what, name);
		return false;
	}
	return ck_check_addr(c, in, o, (int)(o - in->opnds), true, false);
}

/* [map, {coordinates}]: the map a register or a variable in .global memory (ptxas refuses
 * .const, .param and .shared ones), the
 * coordinates `n` 32-bit integers. */
static bool tensor_operand(struct ck *c, const struct ir_insn *in, const struct ir_operand *o,
			   int n)
{
	const char *name = ir_op_name(in->op);
	if (o->kind != OPND_LIST || o->vec.n != 2 || o->vec.elems[1].kind != OPND_VEC) {
		ck_report(c, CHECK_OPND_KIND, o->span,
			  "the tensor operand of %s is [tensorMap, {coordinates}]", name);
		return false;
	}
	const struct ir_operand *map = &o->vec.elems[0], *v = &o->vec.elems[1];
	if (map->kind == OPND_SYM && map->ref.sym) {
		const struct ir_sym *y = map->ref.sym;
		if (y->kind != SYM_VAR || y->space != MOD_GLOBAL) {
			ck_report(c, CHECK_ADDRESS, map->span, "the tensor map of %s must be in "
				  "global memory ('%.*s' is %s)", name, (int)y->name_len, y->name,
				  y->kind == SYM_VAR ? ir_mod_name(y->space) : "not a variable");
			return false;
		}
	} else if (map->kind != OPND_REG || ck_is_pred_reg(map)) {
		ck_report(c, CHECK_OPND_KIND, map->span,
			  "the tensor map of %s must be a register or a variable", name);
		return false;
	}
	if ((int)v->vec.n != n) {
		ck_report(c, CHECK_OPND_COUNT, v->span,
			  "%s takes %d coordinate%s here (has %u)", name, n, n == 1 ? "" : "s",
			  v->vec.n);
		return false;
	}
	for (uint32_t i = 0; i < v->vec.n; i++)
		if (!int_value(&v->vec.elems[i], 4)) {
			ck_report(c, CHECK_OPND_KIND, v->vec.elems[i].span,
				  "a coordinate of %s must be a 32-bit integer register or a "
				  "constant", name);
			return false;
		}
	return true;
}

/* The operands the form spells, in order. */
static void check_operands(struct ck *c, const struct ir_insn *in, const struct tform *f)
{
	const char *name = ir_op_name(in->op);
	enum ir_mod mode = f->w[TW_MODE] ? f->w[TW_MODE] : MOD_TILE;
	bool gather = mode == MOD_TILE_GATHER4 || mode == MOD_TILE_SCATTER4;
	bool reads = f->load || in->op == OP_CP_ASYNC_BULK_PREFETCH_TENSOR;
	int noffs = !reads ? 0 : mode == MOD_IM2COL ? f->dims - 2
			  : mode == MOD_IM2COL_W || mode == MOD_IM2COL_W128 ? 2 : 0;
	int want = 1 + (in->op != OP_CP_ASYNC_BULK_PREFETCH_TENSOR) + f->load + (noffs > 0) +
		   (f->w[TW_MULTICAST] != MOD_NONE) + (f->w[TW_HINT] != MOD_NONE);
	if (in->nopnds != want) {
		ck_report(c, CHECK_OPND_COUNT, in->span, "%s takes %d operands here (has %u)", name,
			  want, in->nopnds);
		return;
	}
	int k = 0;
	if (f->load && !shared_address(c, in, &in->opnds[k++], "destination"))
		return;
	if (!tensor_operand(c, in, &in->opnds[k++], gather ? 5 : f->dims))
		return;
	if (!f->load && in->op != OP_CP_ASYNC_BULK_PREFETCH_TENSOR &&
	    !shared_address(c, in, &in->opnds[k++], "source"))
		return;
	if (f->load && !shared_address(c, in, &in->opnds[k++], "mbarrier"))
		return;
	if (noffs) {
		const struct ir_operand *o = &in->opnds[k++];
		if (o->kind != OPND_VEC || (int)o->vec.n != noffs) {
			ck_report(c, CHECK_OPND_COUNT, o->span, "'%s' on %s takes a vector of %d "
				  "im2col offsets", ir_mod_name(mode), name, noffs);
			return;
		}
		for (uint32_t i = 0; i < o->vec.n; i++)
			if (!int_value(&o->vec.elems[i], 2)) {
				ck_report(c, CHECK_OPND_KIND, o->vec.elems[i].span, "an im2col "
					  "offset must be a 16-bit integer register or a constant");
				return;
			}
	}
	if (f->w[TW_MULTICAST] && !int_value(&in->opnds[k++], 2)) {
		ck_report(c, CHECK_OPND_KIND, in->opnds[k - 1].span,
			  "the ctaMask of %s must be a 16-bit integer register or a constant", name);
		return;
	}
	if (f->w[TW_HINT] && !int_value(&in->opnds[k++], 8))
		ck_report(c, CHECK_OPND_KIND, in->opnds[k - 1].span,
			  "the cache policy of %s must be a 64-bit integer register or a constant",
			  name);
}

/* What ptxi checks here but does not run: said once per opcode. */
static void note_not_run(struct ck *c, const struct ir_insn *in, const struct tform *f)
{
	enum ir_mod mode = f->w[TW_MODE];
	enum ir_mod why = mode == MOD_TILE_GATHER4 || mode == MOD_TILE_SCATTER4 ||
			  mode == MOD_IM2COL_W || mode == MOD_IM2COL_W128 ||
			  mode == MOD_IM2COL_NO_OFFS ? mode : f->w[TW_CTA_GROUP];
	if (why == MOD_NONE || c->noted[in->op])
		return;
	c->noted[in->op] = true;
	ck_report(c, CHECK_UNSUPPORTED, in->op_span, "ptxi does not model %s with '%s': 'ptxi "
		  "run' stops the launch that reaches it", ir_op_name(in->op), ir_mod_name(why));
}

void ck_tensor_copy_check(struct ck *c, const struct ir_insn *in, const struct mods *ms)
{
	(void)ms; /* CF_OWN_FORM: the words are read here */
	struct tform f;
	if (!read_words(c, in, &f) || !check_direction(c, in, &f) || !check_mode(c, in, &f))
		return;
	int errors = c->errors;
	check_operands(c, in, &f);
	if (c->errors == errors)
		note_not_run(c, in, &f);
}
