/*
 * ir_insn.c - instructions: the guard, the opcode and modifier words classified, and the
 * operands taken off the stack.
 */

#include "ir_priv.h"

#include <string.h>

/* Instructions whose operand may be a variable's address plus a constant, unbracketed
 * (`mov.u64 %rd, gbuf+8`, `mapa.u32 %r, sbuf+8, 1`): ptxas accepts it there. It is kept as
 * an OPND_ADDR, whose value is the address. */
static bool takes_symbol_offset(enum ir_op op)
{
	return op == OP_MOV || op == OP_MAPA || op == OP_GETCTARANK || op == OP_CVTA;
}

static struct pexpr guard_expr(struct parser *p, bool neg, struct src_span name, struct src_span all)
{
	struct pexpr e = irp_e_name(p, name);
	if (e.o.kind != OPND_SYM) {
		irp_err(p, CHECK_OPND_KIND, name, "a guard must be a predicate register");
		e = irp_e_name(p, name);
		e.o.kind = OPND_SYM;
	}
	e.o.neg = neg;
	e.o.span = all;
	return e;
}

uint32_t ir_guard(struct parser *p, bool neg, struct src_span name, struct src_span all)
{
	struct pexpr e = guard_expr(p, neg, name, all);
	return irp_ex_push(p, &e);
}

uint32_t ir_guard_none(struct parser *p)
{
	(void)p;
	return EX_NONE;
}

/* Whether modifier word w (with its '.') is `name`. */
static bool word_is(struct parser *p, struct src_span w, const char *name)
{
	size_t n = strlen(name);
	return w.len == n + 1 && memcmp(txt(p, w) + 1, name, n) == 0;
}

/* ptxas takes `.sync` more than once on every instruction that has it (vote.sync.sync,
 * mma.sync.sync): the repeats are dropped. It takes the .sync of vote, shfl and redux
 * anywhere among their modifiers (CUB writes vote.ballot.sync.b32), and barrier's after
 * .aligned (barrier.aligned.sync, not barrier.aligned.arrive): the word is moved to where
 * the opcode's name has it, so that the name is found. The spans keep their places in the
 * text. */
static void canonical_sync(struct parser *p, struct src_span opcode, uint32_t *nmods)
{
	uint32_t first = *nmods, k = 0;
	for (uint32_t i = 0; i < *nmods; i++) {
		if (word_is(p, p->words[i], "sync")) {
			if (first != *nmods)
				continue;
			first = k;
		}
		p->words[k++] = p->words[i];
	}
	*nmods = k;
	static const char *const floats[] = {"vote", "shfl", "redux", "barrier"};
	size_t f = 0;
	while (f < sizeof floats / sizeof *floats &&
	       !(opcode.len == strlen(floats[f]) && memcmp(txt(p, opcode), floats[f], opcode.len) == 0))
		f++;
	if (f == sizeof floats / sizeof *floats || first == k)
		return;
	bool barrier = f == 3;
	uint32_t base = barrier && k && word_is(p, p->words[0], "cta");
	for (uint32_t j = base; j < first; j++)
		if (barrier && !word_is(p, p->words[j], "aligned"))
			return;
	if (first <= base)
		return;
	struct src_span sync = p->words[first];
	memmove(&p->words[base + 1], &p->words[base], (first - base) * sizeof *p->words);
	p->words[base] = sync;
}

enum { MAX_WORDS = 64 };

void ir_insn_new(struct parser *p, uint32_t guard_id, struct src_span opcode, uint32_t nmods,
		 struct plist opnds, struct src_span all)
{
	struct pexpr *guard = guard_id == EX_NONE ? NULL : &p->ex[guard_id];
	p->nex = 0; /* statement done: the guard stays readable until the next push */
	if (nmods > p->nwords)
		nmods = p->nwords;
	struct src_span op_span = opcode;
	if (nmods)
		op_span.len = p->words[nmods - 1].off + p->words[nmods - 1].len - opcode.off;
	if (!irp_in_body(p, opcode, "instruction")) {
		p->osp = opnds.start;
		return;
	}
	canonical_sync(p, opcode, &nmods);
	const char *words[MAX_WORDS];
	size_t lens[MAX_WORDS];
	int nw = 1 + (int)(nmods < MAX_WORDS - 1 ? nmods : MAX_WORDS - 1);
	words[0] = txt(p, opcode);
	lens[0] = opcode.len;
	for (int i = 1; i < nw; i++) {
		words[i] = txt(p, p->words[i - 1]) + 1;
		lens[i] = p->words[i - 1].len - 1;
	}
	/* bar{.cta}.* and barrier{.cta}.* (ISA 9.7.13.1): the opcode is looked up without
	 * '.cta', which stays the first modifier (ck_bar_check gates it on PTX 7.8). */
	int cta = nw >= 3 && lens[1] == 3 && memcmp(words[1], "cta", 3) == 0 &&
		  ((lens[0] == 3 && memcmp(words[0], "bar", 3) == 0) ||
		   (lens[0] == 7 && memcmp(words[0], "barrier", 7) == 0));
	if (cta) {
		memmove(words + 1, words + 2, sizeof words[0] * (size_t)(nw - 2));
		memmove(lens + 1, lens + 2, sizeof lens[0] * (size_t)(nw - 2));
		nw--;
	}
	int used = 0;
	enum ir_op op = ir_op_lookup(words, lens, nw, &used);
	if (cta && op != OP_BAR_SYNC && op != OP_BAR_ARRIVE && op != OP_BAR_RED &&
	    op != OP_BARRIER_SYNC && op != OP_BARRIER_ARRIVE && op != OP_BARRIER_RED)
		op = OP__COUNT;
	if (op == OP__COUNT) {
		irp_err(p, CHECK_UNKNOWN_INSN, op_span, "unsupported instruction '" NAME_FMT "'",
			NAME_ARG(txt(p, op_span), op_span.len));
		p->osp = opnds.start;
		return;
	}
	if (nmods >= MAX_WORDS - 1)
		irp_err(p, CHECK_SYNTAX, op_span, "too many modifiers");
	if (p->ninsns == p->icap) {
		p->icap = p->icap ? p->icap * 2 : 1024;
		p->insns = xrealloc(p->insns, sizeof *p->insns * p->icap);
	}
	struct ir_insn *in = &p->insns[p->ninsns];
	memset(in, 0, sizeof *in);
	in->op = op;
	in->span = all;
	in->op_span = op_span;
	in->scope = p->scope;
	in->loc = p->loc;
	uint32_t first = (uint32_t)(used - 1 + cta), nm = nmods - first + (uint32_t)cta;
	if (nm) {
		size_t ms = (sizeof(enum ir_mod) * nm + 7) & ~(size_t)7;
		char *blk = arena_alloc(p->a, ms + sizeof(struct src_span) * nm);
		in->mods = (enum ir_mod *)blk;
		in->mod_spans = (struct src_span *)(blk + ms);
		uint32_t k = 0;
		if (cta) {
			in->mods[k] = MOD_CTA;
			in->mod_spans[k++] = p->words[0];
		}
		for (uint32_t i = first; i < nmods; i++) {
			struct src_span w = p->words[i];
			enum ir_mod m = ir_mod_lookup(txt(p, w), w.len);
			if (m == MOD_NONE && (ir_op_family(op) == FAM_UNMODELLED ||
					      ir_op_family(op) == FAM_UNSUPPORTED ||
					      ir_op_family(op) == FAM_WGMMA))
				continue; /* shapes, layouts, .2d...: words mods.def need not know
					   * (wgmma_form.c reads the wgmma words from the text) */
			if (m == MOD_NONE) {
				irp_err(p, CHECK_MOD_NOT_ALLOWED, w,
					"unknown modifier '" NAME_FMT "' on '%s'",
					NAME_ARG(txt(p, w), w.len), ir_op_name(op));
				continue;
			}
			in->mods[k] = m;
			in->mod_spans[k++] = w;
		}
		in->nmods = (uint16_t)k;
	}
	if (guard && guard->form != PF_NONE) {
		in->has_guard = true;
		in->guard_neg = guard->o.neg;
		in->guard = guard->o;
	}
	if (opnds.n > UINT16_MAX) {
		irp_err(p, CHECK_SYNTAX, all, "too many operands");
		opnds.n = UINT16_MAX;
	}
	in->nopnds = (uint16_t)opnds.n;
	if (opnds.n) {
		in->opnds = arena_alloc(p->a, sizeof *in->opnds * opnds.n);
		for (uint32_t i = 0; i < opnds.n; i++) {
			struct ir_operand *o = &in->opnds[i];
			*o = p->ostk[opnds.start + i];
			uint8_t f = p->fstk[opnds.start + i];
			if (op != OP_CALL && o->kind == OPND_LIST && o->vec.n == 1) {
				struct src_span s = o->span;
				*o = o->vec.elems[0];
				o->span = s;
			}
			if (f & PH_GENERIC)
				irp_err(p, CHECK_SYNTAX, o->span,
					"generic() is only allowed in initializers");
			else if ((f & PH_ADDEXPR) && !takes_symbol_offset(op))
				irp_err(p, CHECK_SYNTAX, o->span,
					"address arithmetic needs brackets, as in [sym+4]");
			else if (f & PH_ADDEXPR)
				o->bare = true;
		}
	}
	p->osp = opnds.start;
	p->ninsns++;
}
