/*
 * trace.c - --trace output: a line per event or instruction ("[trace] file:line: CTA ..
 * threads ..: text"), filtered by --trace-cta / --trace-warp / --trace-lines and folded at
 * --trace-width; under --trace all, each instruction and the values it wrote.
 */
#include "trace.h"

#include <stdio.h>
#include <string.h>

#include "run/exec_alu_impl.h"
#include "gather.h"
#include "run/operand.h"
#include "rules.h"
#include "srcloc.h"

/* --trace-cta / --trace-warp / --trace-lines: is this warp at this instruction (PTX line
 * `line`) traced? */
static bool trace_wanted(const struct launch *L, const struct warp *w, const struct dinsn *di,
			 uint32_t line)
{
	const struct launch_config *c = &L->cfg;
	if (w && c->trace_cta_given && memcmp(w->cta->ctaid, c->trace_cta, sizeof c->trace_cta))
		return false;
	if (w && c->trace_warp_given && w->id != c->trace_warp)
		return false;
	if (c->trace_lines[1] && c->trace_lines_file) /* lines of a .loc source */
		return di && di->ir &&
		       srcloc_in_lines(L->P->m, di->ir->loc, c->trace_lines_file,
				       c->trace_lines[0], c->trace_lines[1]);
	return !c->trace_lines[1] || (line >= c->trace_lines[0] && line <= c->trace_lines[1]);
}

/* Print `s`, folded at spaces past --trace-width columns; continuation lines indented. */
static void print_folded(FILE *out, const char *s, uint32_t width)
{
	size_t col = 0;
	while (*s) {
		size_t sp = strspn(s, " ");
		size_t n = strcspn(s + sp, " ");
		if (width && col > 8 && col + sp + n > width) {
			fputs("\n        ", out);
			col = 8;
		} else {
			fprintf(out, "%.*s", (int)sp, s);
			col += sp;
		}
		fwrite(s + sp, 1, n, out);
		col += n;
		s += sp + n;
	}
	fputc('\n', out);
}

void trace_line(struct launch *L, struct warp *w, uint32_t lanes, const char *text)
{
	if (!L->cfg.trace_print)
		return;
	gather_flush(L); /* a report gathered so far comes before what follows it */
	FILE *out = L->trace ? L->trace : stderr;
	uint32_t line = 0, col = 0;
	if (L->ci && L->ci->ir)
		src_locate(L->file, L->ci->ir->span.off, &line, &col);
	if (!trace_wanted(L, w, L->ci, line))
		return;
	struct strbuf b = {0}, t = {0}, src = {0};
	if (w)
		describe_threads(L, w, lanes, &b);
	/* with -lineinfo the user's .cu line leads, the PTX line second */
	if (L->ci && L->ci->ir && srcloc_short_pos(L->P->m, L->ci->ir->loc, &src))
		sb_printf(&t, "[trace] %s (%s:%u): %s%s%s", src.s, L->file->path, line,
			  b.s ? b.s : "", b.s ? ": " : "", text);
	else
		sb_printf(&t, "[trace] %s:%u: %s%s%s", L->file->path, line, b.s ? b.s : "",
			  b.s ? ": " : "", text);
	sb_free(&src);
	print_folded(out, t.s, L->cfg.trace_width);
	sb_free(&b);
	sb_free(&t);
}

/* A register value as its type reads it: " (1.5)" for float types, "" otherwise. */
static void float_value(uint8_t type, uint64_t v, struct strbuf *b)
{
	union { uint32_t u; float f; } s = {.u = (uint32_t)v};
	union { uint64_t u; double d; } d = {.u = v};
	switch ((enum ir_mod)type) {
	case MOD_F32:
		sb_printf(b, " (%.9g)", (double)s.f);
		break;
	case MOD_F64:
		sb_printf(b, " (%.17g)", d.d);
		break;
	case MOD_F16:
		sb_printf(b, " (%.5g)", alu_half_to_f64(FMT_F16, (uint16_t)v));
		break;
	case MOD_BF16:
		sb_printf(b, " (%.4g)", alu_half_to_f64(FMT_BF16, (uint16_t)v));
		break;
	default:
		break;
	}
}

void trace_insn(struct launch *L, struct warp *w, const struct dinsn *di, uint32_t group,
		       uint32_t mask)
{
	if (!di->ir)
		return;
	char t[300];
	int n = snprintf(t, sizeof t, "%.*s", (int)(di->ir->span.len > 200 ? 200 : di->ir->span.len),
			 L->file->text + di->ir->span.off);
	if (mask != group && n > 0 && (size_t)n < sizeof t)
		snprintf(t + n, sizeof t - (size_t)n, mask ? "   [guard false for some threads]"
							: "   [guard false: nothing done]");
	trace_line(L, w, mask ? mask : group, t);
}

/* After an instruction ran under --trace all: the destination's new values, so a learner
 * sees what it did ("%r3 = 0x00000007", or per lane when the lanes differ). */
/* One lane's register value in hex; a .b128 register's pair (hi) as one 128-bit number. */
static void reg_hex(struct strbuf *b, const uint64_t *v, const uint64_t *hi, uint32_t l)
{
	if (hi && hi[l])
		sb_printf(b, "0x%llx%016llx", (unsigned long long)hi[l], (unsigned long long)v[l]);
	else
		sb_printf(b, "0x%llx", (unsigned long long)v[l]);
}

void trace_result(struct launch *L, struct frame *f, const struct dinsn *di, uint32_t mask)
{
	const struct dop *d = &di->d;
	if (!mask || !di->ir || d->kind != DOP_REG || !di->ir->nopnds)
		return;
	uint32_t line = 0, col = 0;
	src_locate(L->file, di->ir->span.off, &line, &col);
	if (!trace_wanted(L, L->cw, di, line))
		return;
	const struct ir_operand *o = &di->ir->opnds[0];
	if (o->kind == OPND_DUAL)
		o = &o->vec.elems[0];
	/* floats are shown as values too, by the register's declared type */
	uint8_t type = o->kind == OPND_REG && o->ref.sym ? (uint8_t)o->ref.sym->type : 0;
	const uint64_t *v = slot_ptr(f, d->slot);
	const uint64_t *hi = d->reg_size == 16 ? slot_ptr(f, d->slot + 1) : NULL;
	uint32_t l0 = (uint32_t)__builtin_ctz(mask);
	bool same = true;
	for (uint32_t m = mask; m; m &= m - 1)
		same &= v[__builtin_ctz(m)] == v[l0] && (!hi || hi[__builtin_ctz(m)] == hi[l0]);
	struct strbuf b = {0};
	sb_printf(&b, "        %.*s = ", (int)o->span.len, L->file->text + o->span.off);
	if (same) {
		reg_hex(&b, v, hi, l0);
		float_value(type, v[l0], &b);
	} else {
		int shown = 0;
		for (uint32_t m = mask; m && shown < 8; m &= m - 1, shown++) {
			sb_printf(&b, "%s[%d] ", shown ? ", " : "", __builtin_ctz(m));
			reg_hex(&b, v, hi, (uint32_t)__builtin_ctz(m));
			float_value(type, v[__builtin_ctz(m)], &b);
		}
		if (popcount32(mask) > 8)
			sb_printf(&b, ", ...");
	}
	print_folded(L->trace ? L->trace : stderr, b.s, L->cfg.trace_width);
	sb_free(&b);
}
