/*
 * wgmma_form.c - the opcode words of wgmma.* and setmaxnreg (ISA 9.7.15.5, 9.7.15.6,
 * 9.7.15.7, 9.7.19.5): which shapes and type combinations exist, in the manual's order.
 */
#include "wgmma_form.h"

#include <stdio.h>
#include <string.h>

static const struct {
	const char *name;
	unsigned bits;
} types[] = {
	{"", 0},
#define X(name, spelling, bits) {spelling, bits},
	WG_TYPES(X)
#undef X
};

const char *wg_type_name(enum wg_type t)
{
	return types[t].name;
}

unsigned wg_type_bits(enum wg_type t)
{
	return types[t].bits;
}

static enum wg_type type_of(const char *w, size_t n)
{
	for (unsigned i = 1; i < sizeof types / sizeof types[0]; i++)
		if (strlen(types[i].name) == n && memcmp(types[i].name, w, n) == 0)
			return (enum wg_type)i;
	return WG_NONE;
}

static bool word_is(const char *w, size_t n, const char *s)
{
	return strlen(s) == n && memcmp(w, s, n) == 0;
}

bool mma_shape_parse(const char *w, size_t n, unsigned v[3], bool k_optional)
{
	const char tag[3] = {'m', 'n', 'k'};
	size_t i = 0;
	v[0] = v[1] = v[2] = 0;
	for (int part = 0; part < 3; part++) {
		if (k_optional && i == n && part == 2)
			return true;
		if (i >= n || w[i] != tag[part])
			return false;
		i++;
		size_t start = i;
		while (i < n && w[i] >= '0' && w[i] <= '9' && v[part] < 10000)
			v[part] = v[part] * 10 + (unsigned)(w[i++] - '0');
		if (i == start)
			return false;
	}
	return i == n;
}

/* "m64n128k16" -> 64, 128, 16 */
static bool shape_of(const char *w, size_t n, struct wg_form *f)
{
	unsigned v[3];
	if (!mma_shape_parse(w, n, v, false))
		return false;
	f->m = (uint16_t)v[0];
	f->n = (uint16_t)v[1];
	f->k = (uint16_t)v[2];
	return true;
}

static bool is_float8(enum wg_type t) { return t == WG_E4M3 || t == WG_E5M2; }
static bool is_int8(enum wg_type t) { return t == WG_S8 || t == WG_U8; }

/* N of the integer and b1 shapes: 8, 16, 24, then multiples of 16 up to 256. */
static bool int_n(unsigned n)
{
	return n == 8 || n == 24 || (n % 16 == 0 && n >= 16 && n <= 256);
}

/* The accumulator and K each input type takes (ISA 9.7.15.5.1, table of shapes). */
static const char *types_check(struct wg_form *f, char *buf, size_t bs)
{
	enum wg_type a = f->a, b = f->b, d = f->d;
	unsigned want_k = 0;
	bool ok_d = false, same = a == b;
	if (a == WG_F16 && same) {
		want_k = 16;
		ok_d = d == WG_F16 || d == WG_F32;
	} else if (a == WG_BF16 && same) {
		want_k = 16;
		ok_d = d == WG_F32;
	} else if (a == WG_TF32 && same) {
		want_k = 8;
		ok_d = d == WG_F32;
	} else if (is_float8(a) && is_float8(b)) {
		want_k = 32;
		ok_d = d == WG_F16 || d == WG_F32;
	} else if (is_int8(a) && is_int8(b)) {
		want_k = 32;
		ok_d = d == WG_S32;
	} else if (a == WG_B1 && same) {
		want_k = 256;
		ok_d = d == WG_S32;
	} else {
		snprintf(buf, bs, "wgmma.mma_async has no form with A .%s and B .%s",
			 wg_type_name(a), wg_type_name(b));
		return buf;
	}
	if (!ok_d) {
		snprintf(buf, bs, "wgmma.mma_async with .%s inputs cannot accumulate in .%s",
			 wg_type_name(a), wg_type_name(d));
		return buf;
	}
	if (f->sparse) /* .sp: A is 2:4 sparse, K doubles */
		want_k *= 2;
	bool integer = d == WG_S32;
	bool n_ok = f->n >= 8 && f->n <= 256 && (integer ? int_n(f->n) : f->n % 8 == 0);
	if (f->m != 64 || f->k != want_k || !n_ok) {
		snprintf(buf, bs, "wgmma.mma_async has no shape .m%un%uk%u for .%s inputs (M is 64, "
			 "K %u, N %s)", f->m, f->n, f->k, wg_type_name(a), want_k,
			 integer ? "8, 16, 24 or a multiple of 16 up to 256"
				 : "a multiple of 8 from 8 to 256");
		return buf;
	}
	if (f->satfinite && !integer) {
		snprintf(buf, bs, ".satfinite is only for the integer forms of wgmma.mma_async");
		return buf;
	}
	if ((a == WG_B1) != f->popc_and) {
		snprintf(buf, bs, a == WG_B1 ? "the b1 form of wgmma.mma_async needs .and.popc"
					    : ".and.popc is only for the b1 form of wgmma.mma_async");
		return buf;
	}
	return NULL;
}

struct words {
	const char *w[16];
	size_t n[16];
	unsigned count;
};

static bool split(const char *s, size_t len, struct words *ws)
{
	ws->count = 0;
	size_t i = 0;
	while (i < len) {
		size_t j = i;
		while (j < len && s[j] != '.')
			j++;
		if (ws->count == 16)
			return false;
		ws->w[ws->count] = s + i;
		ws->n[ws->count++] = j - i;
		i = j + 1;
	}
	return true;
}

/*
 * Notes (ptxas 13.0, tests/ptxas_hopper): after the opcode's own words ptxas takes the words
 * of a warpgroup instruction in any order. .sync is required and may repeat; .aligned is
 * optional (required on setmaxnreg) and written at most once; so are .sp and the shape.
 * .satfinite may repeat. The three types are D, A, B in the order written, whatever words
 * stand between them; the b1 operation is .and then .popc. wgmma.mma_async also takes and
 * ignores the layout words .row and .col.
 */
struct wg_seen {
	unsigned sync, aligned;
};

/* The words every warpgroup instruction may carry (.sync, .aligned); false if w is not one.
 * Sets *err on a repeated .aligned. */
static bool sync_word(const char *w, size_t n, struct wg_seen *s, const char **err)
{
	if (word_is(w, n, "sync")) {
		s->sync++;
		return true;
	}
	if (word_is(w, n, "aligned")) {
		if (s->aligned++)
			*err = "Multiple .aligned modifiers";
		return true;
	}
	return false;
}

static const char *sync_needed(const struct wg_seen *s, bool need_aligned, const char *op,
			       char *buf, size_t bs)
{
	if (!s->sync || (need_aligned && !s->aligned)) {
		snprintf(buf, bs, "%s needs .sync%s", op, need_aligned ? ".aligned" : "");
		return buf;
	}
	return NULL;
}

static const char *unexpected(const struct words *ws, unsigned i, const char *op, char *buf,
			      size_t bs)
{
	snprintf(buf, bs, "unexpected modifier '.%.*s' on %s", (int)ws->n[i], ws->w[i], op);
	return buf;
}

static const char *mma_words(const struct words *ws, unsigned i, struct wg_form *f, char *buf,
			     size_t bs)
{
	for (unsigned j = i; j < ws->count; j++)
		if (word_is(ws->w[j], ws->n[j], "sp"))
			f->sparse = true;
	const char *op = f->sparse ? "wgmma.mma_async.sp" : "wgmma.mma_async";
	struct wg_seen s = {0, 0};
	unsigned nsp = 0, nshape = 0, ntypes = 0, nops = 0;
	bool ops_ok = true;
	enum wg_type *slot[3] = {&f->d, &f->a, &f->b};
	for (; i < ws->count; i++) {
		const char *w = ws->w[i], *err = NULL;
		size_t n = ws->n[i];
		struct wg_form shape;
		enum wg_type t;
		if (sync_word(w, n, &s, &err)) {
			if (err) {
				snprintf(buf, bs, "%s on %s", err, op);
				return buf;
			}
		} else if (word_is(w, n, "sp")) {
			if (nsp++) {
				snprintf(buf, bs, "%s has .sp twice", op);
				return buf;
			}
		} else if (word_is(w, n, "satfinite")) {
			f->satfinite = true;
		} else if (word_is(w, n, "row") || word_is(w, n, "col")) {
			continue; /* accepted and ignored by ptxas: the layouts are the operands' */
		} else if (word_is(w, n, "and") || word_is(w, n, "popc")) {
			ops_ok = ops_ok && nops < 2 && w[0] == (nops ? 'p' : 'a');
			nops++;
		} else if (shape_of(w, n, &shape)) {
			if (nshape++) {
				snprintf(buf, bs, "%s has more than one shape", op);
				return buf;
			}
			f->m = shape.m, f->n = shape.n, f->k = shape.k;
		} else if ((t = type_of(w, n)) != WG_NONE) {
			if (ntypes < 3)
				*slot[ntypes] = t;
			ntypes++;
		} else {
			return unexpected(ws, i, op, buf, bs);
		}
	}
	const char *e = sync_needed(&s, false, op, buf, bs);
	if (e)
		return e;
	if (!nshape) {
		snprintf(buf, bs, "%s needs a shape (.m64nNkK)", op);
		return buf;
	}
	if (ntypes != 3) {
		snprintf(buf, bs, "%s needs three types: D, A, B (.f32.f16.f16, .s32.s8.u8, ...)",
			 op);
		return buf;
	}
	if (nops) {
		if (f->a != WG_B1) {
			snprintf(buf, bs, ".and.popc is only for the b1 form of wgmma.mma_async");
			return buf;
		}
		if (!ops_ok || nops != 2) {
			snprintf(buf, bs, "the b1 form of wgmma.mma_async takes the operation "
				 ".and.popc");
			return buf;
		}
		f->popc_and = true;
	}
	if (f->sparse && f->a == WG_B1) {
		snprintf(buf, bs, "wgmma.mma_async.sp has no b1 form");
		return buf;
	}
	return types_check(f, buf, bs);
}

static const char *setmaxnreg_words(const struct words *ws, unsigned i, struct wg_form *f,
				    char *buf, size_t bs)
{
	if (i < ws->count && (word_is(ws->w[i], ws->n[i], "inc") ||
			      word_is(ws->w[i], ws->n[i], "dec"))) {
		f->inc = ws->w[i][0] == 'i';
		i++;
	} else {
		snprintf(buf, bs, "setmaxnreg needs .inc or .dec right after its name");
		return buf;
	}
	struct wg_seen s = {0, 0};
	unsigned ntypes = 0;
	for (; i < ws->count; i++) {
		const char *err = NULL;
		if (sync_word(ws->w[i], ws->n[i], &s, &err)) {
			if (err) {
				snprintf(buf, bs, "%s on setmaxnreg", err);
				return buf;
			}
		} else if (word_is(ws->w[i], ws->n[i], "u32") ||
			   word_is(ws->w[i], ws->n[i], "s32")) {
			ntypes++;
		} else {
			return unexpected(ws, i, "setmaxnreg", buf, bs);
		}
	}
	const char *e = sync_needed(&s, true, "setmaxnreg", buf, bs);
	if (e)
		return e;
	if (ntypes != 1) {
		snprintf(buf, bs, "setmaxnreg takes one type, .u32 (or .s32)");
		return buf;
	}
	return NULL;
}

const char *wg_form_parse(const char *text, const struct ir_insn *in, struct wg_form *f,
			  char *buf, size_t bs)
{
	memset(f, 0, sizeof *f);
	struct words ws;
	if (!split(text + in->op_span.off, in->op_span.len, &ws)) {
		snprintf(buf, bs, "too many modifiers on %s", ir_op_name(in->op));
		return buf;
	}
	unsigned i = in->op == OP_SETMAXNREG ? 1 : 2; /* after the opcode's own words */
	if (in->op == OP_SETMAXNREG)
		return setmaxnreg_words(&ws, i, f, buf, bs);
	if (in->op == OP_WGMMA_MMA_ASYNC) {
		const char *e = mma_words(&ws, i, f, buf, bs);
		if (in->nopnds >= 2) {
			f->a_regs = in->opnds[1].kind == OPND_VEC;
			f->nd = in->opnds[0].kind == OPND_VEC ? (uint16_t)in->opnds[0].vec.n : 1;
			f->nimm = in->nopnds > 4 ? (uint8_t)(in->nopnds - 4) : 0;
		}
		return e;
	}
	struct wg_seen s = {0, 0};
	for (; i < ws.count; i++) {
		const char *err = NULL;
		if (!sync_word(ws.w[i], ws.n[i], &s, &err))
			return unexpected(&ws, i, ir_op_name(in->op), buf, bs);
		if (err) {
			snprintf(buf, bs, "%s on %s", err, ir_op_name(in->op));
			return buf;
		}
	}
	return sync_needed(&s, false, ir_op_name(in->op), buf, bs);
}
