/*
 * exec_wgmma.c - wgmma.fence, wgmma.commit_group, wgmma.wait_group, wgmma.mma_async and
 * setmaxnreg at run time (ISA 9.7.15.5-9.7.15.7).
 *
 * Notes
 * - A warpgroup is four consecutive warps of a CTA (warps 4g..4g+3). Warp w of the group
 *   holds rows [16*(w%4), 16*(w%4)+16) of D and of A, so each warp's part of a
 *   wgmma.mma_async depends only on its own registers, its rows of A and all of B.
 * - But the instruction is one operation of the warpgroup, as the H100 shows
 *   (tests/hw_tc/probes/wgr_overwrite): a warp stops at wgmma.mma_async (G_WGMMA) until all
 *   four warps issued it, and the shared operands are read once for the four parts, when
 *   the first of them completes. So a warp past its wait_group may overwrite them while
 *   another warp of its group has not reached its own wait_group yet.
 * - An issued wgmma.mma_async is queued per warp with its descriptors and scale-d; it
 *   reads its shared operands and its registers (A, and C from D) when it completes, and
 *   completes in issue order: when a wgmma.wait_group covers its group, or with --seed at a
 *   seeded step after its commit; completing one part completes the group's other three
 *   (done: they stay queued, their registers watched, until their own warp's wait_group).
 *   Until then its registers and shared operands are watched (wgmma-register-race,
 *   async-copy-race).
 * - For the data-race detector the group's read of the shared operands is made by an agent
 *   of lane 0 of each warp (race_copy_*, ordered after the warp's issue, RA_MBAR's clock),
 *   and a wgmma.wait_group that covers a wgmma acquires the four agents' reads: the read
 *   happens before any warp of the group passes its wait_group.
 * - The arithmetic is tc_arith.c's, over the whole tile in native loops: each row of A and
 *   column of B decoded once, then one block FMA per output element. The four warps read
 *   the same B: the group keeps the last one decoded (b_decoded) and the next warp reuses it
 *   when its gathered elements are the same.
 * - Registers belong to frames: the register rules keep marks per frame (wg_marks), so a
 *   wgmma in a called .func is watched in that frame and never confused with its caller's.
 * - Alignment: every warpgroup instruction runs with all 32 lanes of all four warps; the n-th
 *   warpgroup instruction of each warp of a group must be the same instruction
 *   (warpgroup-aligned). setmaxnreg has no other effect (ptxi has no register file to size).
 */
#include "wgmma.h"

#include <stdlib.h>
#include <string.h>

#include "async.h"
#include "run/exec.h"
#include "run/frame.h"
#include "run/launch.h"
#include "run/memory.h"
#include "run/operand.h"
#include "run/race.h"
#include "report/rules.h"
#include "tc_arith.h"
#include "wgmma_layout.h"

enum { UNCOMMITTED = UINT32_MAX, HIST = 256, WG_MAX_N = 256, MAX_MARKS = 16 };

/* One warp's part of one wgmma.mma_async in flight. */
struct wg_op {
	const struct dinsn *di;
	struct frame *f;
	uint64_t adesc, bdesc;
	bool scale_d;
	uint32_t group;             /* commit group, or UNCOMMITTED                           */
	uint64_t due;               /* --seed: the step it may complete at                   */
	uint32_t *pieces;           /* shared addresses of the 16-byte pieces read: A's (when
				     * in shared memory), then B's                           */
	uint32_t npieces;
	uint32_t meta[LANES];       /* .sp: the warp's metadata register, read at the issue   */
	uint32_t mseq;              /* the warp's wgmma.mma_async count before it             */
	bool done;                  /* computed with its warpgroup's first part to complete  */
	struct race_copy rc;        /* the data-race detector's agent of its operand reads    */
};

/* What the register rules know of one frame of the warp: a .func's registers are its own,
 * so the kernel and every called frame have their marks (up to MAX_MARKS frames; past that
 * the least useful are forgotten, which can only hide a report, never invent one). */
struct wg_marks {
	struct frame *f;
	uint32_t nslots;
	uint32_t *stamp, *rstamp;   /* per register slot: clock of its last write, last read  */
	uint16_t *busy;             /* per slot: in-flight wgmma parts that name it           */
	uint32_t nbusy;             /* in-flight wgmma parts of this frame                    */
};

struct wg_warp {
	struct wg_op *ops;          /* in issue order                                        */
	uint32_t nops, cap;
	uint32_t committed;         /* commit groups closed so far                           */
	bool fenced;                /* a wgmma.fence ran                                     */
	uint32_t mma_clock;         /* write clock at the first wgmma.mma_async after it, or
				     * UINT32_MAX before that one                            */
	uint32_t clock;             /* instructions with register accesses noted             */
	struct wg_marks marks[MAX_MARKS];
	uint32_t nmarks;
	struct wg_marks *last;      /* the marks found last                                   */
	uint32_t seq;               /* warpgroup instructions executed                       */
	uint32_t mmas;              /* wgmma.mma_async executed                              */
	uint32_t acquired;          /* of these, the first ones whose reads its lanes acquired */
	uint32_t commit_mmas[HIST]; /* wgmma.mma_async executed by each of the last HIST commits */
	void *scratch;              /* compute()'s operands, kept between wgmmas              */
	size_t scratch_size;
};

/* The four warps of a warpgroup, for alignment: how many warpgroup instructions each ran,
 * and the last HIST of them; and the data-race agents of the last HIST wgmma.mma_async
 * parts of each warp, which every warp's wait_group acquires. */
struct wg_group {
	uint32_t seq[4];
	const struct dinsn *hist[HIST];
	struct b_cache *b;
	struct { uint32_t agent, clock; } reader[HIST][4];
};

/* The B a warp of the group decoded last, for the next warp that reads the same elements
 * (the four warps of a wgmma read the same B): its raw elements are the key. */
struct b_cache {
	struct tc_btile *tile;
	enum tc_elem type;
	unsigned n, k;
	uint32_t *raw;
	size_t cap;
	bool valid;
};

struct wg_cta {
	uint16_t *reading;          /* per 16-byte granule: pieces of in-flight wgmmas        */
	struct wg_group *groups;
	uint32_t ngroups;
};

/* ---- state --------------------------------------------------------------------------- */

static struct wg_cta *cta_state(struct launch *L, struct cta *c)
{
	if (c->wg)
		return c->wg;
	c->wg = calloc(1, sizeof *c->wg);
	if (c->wg) {
		c->wg->ngroups = (c->nwarps + 3) / 4;
		c->wg->groups = calloc(c->wg->ngroups, sizeof *c->wg->groups);
		c->wg->reading = calloc(c->smem_size / 16 + 1, sizeof *c->wg->reading);
	}
	if (!c->wg || !c->wg->groups || !c->wg->reading) {
		runtime_error(L, 1, "out of memory for wgmma state");
		return NULL;
	}
	return c->wg;
}

static struct wg_warp *warp_state(struct launch *L, struct warp *w)
{
	if (w->wg)
		return w->wg;
	w->wg = calloc(1, sizeof *w->wg);
	if (!w->wg) {
		runtime_error(L, 1, "out of memory for wgmma state");
		return NULL;
	}
	return w->wg;
}

static void marks_clear(struct wg_marks *m)
{
	free(m->stamp);
	free(m->rstamp);
	free(m->busy);
	memset(m, 0, sizeof *m);
}

/*
 * The marks of frame f, made (zeroed) when `make` and there are none; NULL when there are
 * none, or out of memory. A frame's memory may serve another call later: same function,
 * same slots, and its stale clocks are older than any fence that matters.
 */
static struct wg_marks *marks_of(struct wg_warp *s, struct frame *f, bool make)
{
	if (s->last && s->last->f == f && s->last->nslots == f->fn->nslots)
		return s->last;
	struct wg_marks *m = NULL;
	for (uint32_t i = 0; i < s->nmarks && !m; i++)
		if (s->marks[i].f == f)
			m = &s->marks[i];
	if (m && m->nslots != f->fn->nslots) {
		if (m->nbusy)
			return NULL; /* cannot happen: an op in flight holds its frame */
		marks_clear(m);
	} else if (m) {
		return s->last = m;
	}
	if (!make)
		return NULL;
	if (!m && s->nmarks < MAX_MARKS)
		m = &s->marks[s->nmarks++];
	for (uint32_t i = 0; i < s->nmarks && !m; i++)
		if (!s->marks[i].nbusy && &s->marks[i] != s->last)
			m = &s->marks[i]; /* forget one */
	if (!m)
		return NULL;
	marks_clear(m);
	uint32_t n = f->fn->nslots + 1;
	m->stamp = calloc(n, sizeof *m->stamp);
	m->rstamp = calloc(n, sizeof *m->rstamp);
	m->busy = calloc(n, sizeof *m->busy);
	if (!m->stamp || !m->rstamp || !m->busy) {
		marks_clear(m);
		return NULL;
	}
	m->f = f;
	m->nslots = f->fn->nslots;
	return s->last = m;
}

/* At least `size` bytes of the warp's scratch memory, kept from one wgmma to the next (its
 * operands and decoded rows, ~45 KiB for N = 256: malloc'd afresh they cost page faults). */
static void *scratch(struct wg_warp *s, size_t size)
{
	if (size <= s->scratch_size)
		return s->scratch;
	void *p = realloc(s->scratch, size);
	if (!p)
		return NULL;
	s->scratch = p;
	s->scratch_size = size;
	return p;
}

/* Call fn(ctx, slot) for every register an operand names. */
static void each_reg(const struct dop *o, void (*fn)(void *, uint32_t), void *ctx)
{
	if (o->kind == DOP_REG)
		fn(ctx, o->slot);
	else if (o->kind == DOP_ADDR && o->has_reg)
		fn(ctx, o->slot);
	else if (o->kind == DOP_VEC)
		for (uint32_t i = 0; i < o->nelem; i++)
			each_reg(&o->elems[i], fn, ctx);
}

static uint32_t line_of(struct launch *L, const struct dinsn *di)
{
	uint32_t line = 0, col;
	if (di && di->ir)
		src_locate(L->file, di->ir->span.off, &line, &col);
	return line;
}

/* ---- operands ------------------------------------------------------------------------ */

static enum tc_elem elem_of(enum wg_type t)
{
	switch (t) {
	case WG_F16: return TC_F16;
	case WG_BF16: return TC_BF16;
	case WG_TF32: return TC_TF32;
	case WG_E4M3: return TC_E4M3;
	case WG_E5M2: return TC_E5M2;
	case WG_S8: return TC_S8;
	case WG_U8: return TC_U8;
	default: return TC_B1;
	}
}

/* Bits of one element as the arithmetic takes it: b1 goes by 32-bit words. */
static unsigned unit_bits(enum wg_type t)
{
	return t == WG_B1 ? 32 : wg_type_bits(t);
}

/* Elements (units) of A along K: 32 bytes' worth (.sp: the compressed row, K/2). */
static unsigned k_units(const struct wg_form *f)
{
	return 256 / unit_bits(f->a);
}

/* Elements of B along K: A's, or twice as many for .sp (64 bytes). */
static unsigned kb_units(const struct wg_form *f)
{
	return f->sparse ? 2 * k_units(f) : k_units(f);
}

/* 16-byte pieces of a K-major row of B: 2, or 4 for .sp. */
static unsigned b_row_pieces(const struct wg_form *f)
{
	return f->sparse ? 4 : 2;
}

static uint32_t unit_at(const uint8_t *p, unsigned bits, unsigned i)
{
	switch (bits) {
	case 8: return p[i];
	case 16: return (uint32_t)p[2 * i] | (uint32_t)p[2 * i + 1] << 8;
	default: {
		uint32_t v;
		memcpy(&v, p + 4 * i, 4);
		return v;
	}
	}
}

/* The pieces of an operand with `rows` rows starting at row0 (M or N index), in the order
 * gather() reads them: K-major, row by row, its `per` pieces; MN-major, K index by K index,
 * the pieces of 8 rows. */
static uint32_t list_pieces(const struct wg_desc *d, bool mn_major, unsigned k, unsigned per,
			    uint32_t row0, uint32_t rows, uint32_t *out)
{
	uint32_t n = 0;
	if (!mn_major) {
		for (uint32_t r = 0; r < rows; r++)
			for (uint32_t p = 0; p < per; p++)
				out[n++] = wg_piece_addr(d, false, row0 + r, p);
	} else {
		for (uint32_t kk = 0; kk < k; kk++)
			for (uint32_t p = row0 / 8; p < (row0 + rows) / 8; p++)
				out[n++] = wg_piece_addr(d, true, kk, p);
	}
	return n;
}

/* Elements [rows][ku] of an operand from shared memory, by the pieces listed. */
static void gather(const uint8_t *smem, const uint32_t *pieces, bool mn_major, unsigned bits,
		   unsigned ku, uint32_t rows, uint32_t *out)
{
	if (!mn_major) {
		unsigned per = 128 / bits, np = ku / per; /* units per piece, pieces per row */
		for (uint32_t r = 0; r < rows; r++)
			for (uint32_t p = 0; p < np; p++) {
				const uint8_t *src = smem + pieces[np * r + p];
				for (unsigned i = 0; i < per; i++)
					out[r * ku + p * per + i] = unit_at(src, bits, i);
			}
		return;
	}
	uint32_t np = rows / 8; /* 16-bit elements: 8 rows a piece */
	for (unsigned kk = 0; kk < ku; kk++)
		for (uint32_t p = 0; p < np; p++) {
			const uint8_t *src = smem + pieces[kk * np + p];
			for (unsigned i = 0; i < 8; i++)
				out[(p * 8 + i) * ku + kk] = unit_at(src, 16, i);
		}
}

/* A's 16 rows of warp `wq` from the thread's fragment registers. */
static void a_from_regs(struct frame *f, const struct dop *v, unsigned bits, unsigned ku,
			uint32_t *out)
{
	unsigned per_reg = 32 / bits, n = WG_A_REGS * per_reg;
	uint32_t mask = bits == 32 ? UINT32_MAX : (1u << bits) - 1;
	for (unsigned lane = 0; lane < LANES; lane++)
		for (unsigned e = 0; e < n; e++) {
			uint32_t reg = (uint32_t)slot_ptr(f, v->elems[e / per_reg].slot)[lane];
			unsigned row, k;
			wg_a_elem(bits, lane, e, &row, &k);
			out[row * ku + k] = reg >> (e % per_reg * bits) & mask;
		}
}

static void negate(uint32_t *v, size_t n, unsigned bits)
{
	uint32_t sign = 1u << (bits - 1);
	for (size_t i = 0; i < n; i++)
		v[i] ^= sign;
}

/* ---- the computation ----------------------------------------------------------------- */

/* One integer or b1 output element (floating point goes by float_dots). */
static uint32_t dot(const struct wg_insn *x, const uint32_t *a, const uint32_t *b, unsigned ku,
		    uint32_t c)
{
	const struct wg_form *f = &x->f;
	if (f->a == WG_B1)
		return (uint32_t)tc_dot_b1(TC_BOP_AND, a, b, ku, (int32_t)c);
	return (uint32_t)tc_dot_int(elem_of(f->a), elem_of(f->b), a, b, ku, (int32_t)c,
				    f->satfinite);
}

/* B (n columns of ku elements) decoded, from the group's cache when the last warp to decode
 * one read the same elements; NULL when out of memory. */
static const struct tc_btile *b_decoded(struct launch *L, struct warp *w, enum tc_elem t,
					const uint32_t *b, unsigned n, unsigned ku)
{
	struct wg_cta *cs = cta_state(L, w->cta);
	if (!cs)
		return NULL;
	struct wg_group *g = &cs->groups[w->id / 4];
	size_t bytes = sizeof *b * n * ku;
	if (!g->b && !(g->b = calloc(1, sizeof *g->b)))
		return NULL;
	struct b_cache *bc = g->b;
	if (bc->valid && bc->type == t && bc->n == n && bc->k == ku &&
	    !memcmp(bc->raw, b, bytes))
		return bc->tile;
	bc->valid = false;
	if (bytes > bc->cap) {
		uint32_t *raw = realloc(bc->raw, bytes);
		if (!raw)
			return NULL;
		bc->raw = raw, bc->cap = bytes;
	}
	if (!bc->tile && !(bc->tile = tc_btile_new()))
		return NULL;
	if (!tc_btile_decode(bc->tile, t, b, n, ku))
		return NULL;
	memcpy(bc->raw, b, bytes);
	bc->type = t, bc->n = n, bc->k = ku, bc->valid = true;
	return bc->tile;
}

/* The warp's 16 x N floating-point block into c (C in, D out): each row of A decoded once,
 * B decoded once for the warpgroup, then tc_dot_tile_b (one block FMA per element). */
static bool float_dots(struct launch *L, struct warp *w, const struct wg_form *f,
		       const uint32_t *a, const uint32_t *b, unsigned ku, struct tc_operand *da,
		       uint32_t *c)
{
	const struct tc_btile *bt = b_decoded(L, w, elem_of(f->b), b, f->n, ku);
	if (!bt)
		return false;
	for (unsigned row = 0; row < 16; row++)
		tc_operand_decode(elem_of(f->a), a + row * ku, ku, &da[row]);
	tc_dot_tile_b(da, 16, bt, f->d == WG_F32 ? TC_ACC_F32 : TC_ACC_F16, c);
	return true;
}

/*
 * Where D's elements sit in the warp's row-major 16 x N block: element i of lane l is at
 * lane[l] + elem[i] (wg_d_elem's row and column are a lane's part plus an element's part).
 * Element i is register i (f32, s32), or half i % 2 of register i / 2 (f16).
 */
struct d_offsets {
	uint32_t lane[LANES];
	uint32_t elem[WG_MAX_N / 2];
};

static void d_offsets(unsigned n, struct d_offsets *o)
{
	unsigned row, col;

	for (unsigned lane = 0; lane < LANES; lane++) {
		wg_d_elem(lane, 0, &row, &col);
		o->lane[lane] = row * n + col;
	}
	for (unsigned i = 0; i < n / 2; i++) {
		wg_d_elem(0, i, &row, &col);
		o->elem[i] = row * n + col;
	}
}

/* C from D's registers into c, or zeros when scale-d is false. */
static void c_read(const struct wg_op *op, const struct dop *d, bool half, unsigned n,
		   const struct d_offsets *o, uint32_t *c)
{
	if (!op->scale_d) {
		memset(c, 0, sizeof *c * 16 * n);
		return;
	}
	for (unsigned i = 0; i < n / 2; i++) {
		const uint64_t *r = slot_ptr(op->f, d->elems[half ? i / 2 : i].slot);
		unsigned sh = half ? i % 2 * 16 : 0;
		uint32_t mask = half ? 0xffff : UINT32_MAX, *ci = c + o->elem[i];
		for (unsigned lane = 0; lane < LANES; lane++)
			ci[o->lane[lane]] = (uint32_t)(r[lane] >> sh) & mask;
	}
}

/* D from c into its registers (an f16 register's two halves at once). */
static void d_write(const struct wg_op *op, const struct dop *d, bool half, unsigned n,
		    const struct d_offsets *o, const uint32_t *c)
{
	for (unsigned j = 0; j < (half ? n / 4 : n / 2); j++) {
		uint64_t *r = slot_ptr(op->f, d->elems[j].slot);
		if (!half) {
			const uint32_t *ci = c + o->elem[j];
			for (unsigned lane = 0; lane < LANES; lane++)
				r[lane] = ci[o->lane[lane]];
			continue;
		}
		const uint32_t *lo = c + o->elem[2 * j], *hi = c + o->elem[2 * j + 1];
		for (unsigned lane = 0; lane < LANES; lane++)
			r[lane] = (r[lane] & ~(uint64_t)UINT32_MAX) | lo[o->lane[lane]] |
				  (uint64_t)hi[o->lane[lane]] << 16;
	}
}

/*
 * .sp: the column of B (of kb) that compressed element cc of the warp's row `row` stands for
 * (measured: tests/hw_tc/probes/wsl_*). Each warp reads its 16 rows' metadata as mma.sp of
 * the same K does: 16-bit types, row r's chunk c (4 columns, 2 kept) in lane 4 (r % 8) +
 * 2 sel + c / 4, bits 16 (r / 8) + 4 (c % 4); 8-bit types (sel 0), lane 4 (r % 8) + r / 8 +
 * 2 (c / 8), bits 4 (c % 8); two 2-bit indices, the lower for the lower element; nothing is
 * checked (an index twice uses that column twice). tf32 is read as pairs of 16-bit halves
 * (the 16-bit layout, a chunk of 4 halves holding one tf32 element): 0b0100 keeps column
 * 2c, 0b1110 column 2c + 1; other patterns mix halves of A in ways ptxi does not model
 * (UINT32_MAX).
 */
static uint32_t sp_column(const struct wg_form *f, unsigned sel, const uint32_t *meta,
			  unsigned row, unsigned cc)
{
	unsigned bits = unit_bits(f->a), c = bits == 32 ? cc : cc / 2, nib;
	if (bits == 8)
		nib = meta[4 * (row % 8) + row / 8 + 2 * (c / 8)] >> (4 * (c % 8)) & 15;
	else
		nib = meta[4 * (row % 8) + 2 * sel + c / 4] >> (16 * (row / 8) + 4 * (c % 4)) & 15;
	if (bits == 32)
		return nib == 4 ? 2 * c : nib == 14 ? 2 * c + 1 : UINT32_MAX;
	return 4 * c + (nib >> (2 * (cc % 2)) & 3);
}

/* .sp: B's columns as row `row` of A uses them: its kb elements narrowed to the ku the
 * metadata keeps (bs[j * ku + cc]); false (reported) on a tf32 pattern ptxi does not model. */
static bool sp_select(struct launch *L, const struct wg_op *op, unsigned row, const uint32_t *b,
		      uint32_t *bs)
{
	const struct wg_insn *x = op->di->wg;
	const struct wg_form *f = &x->f;
	unsigned ku = k_units(f), kb = kb_units(f);
	for (unsigned cc = 0; cc < ku; cc++) {
		uint32_t col = sp_column(f, x->sel, op->meta, row, cc);
		if (col == UINT32_MAX) {
			runtime_error(L, 2, "wgmma.mma_async.sp with .tf32: the metadata of row %u "
				      "(of the warp's 16) keeps compressed element %u with a pattern "
				      "other than 0b0100 and 0b1110; what the H100 computes then is "
				      "not modelled (docs/tensor-cores.md)", row, cc);
			return false;
		}
		for (unsigned j = 0; j < f->n; j++)
			bs[j * ku + cc] = b[j * kb + col];
	}
	return true;
}

/* .sp: the warp's 16 x N block, row by row (each row keeps its own columns of B). */
static bool sparse_dots(struct launch *L, const struct wg_op *op, const uint32_t *a,
			const uint32_t *b, uint32_t *bs, struct tc_operand *da, uint32_t *c)
{
	const struct wg_insn *x = op->di->wg;
	const struct wg_form *f = &x->f;
	unsigned ku = k_units(f), n = f->n;
	bool fl = tc_elem_is_float(elem_of(f->a));
	for (unsigned row = 0; row < 16; row++) {
		if (!sp_select(L, op, row, b, bs))
			return false;
		if (fl) {
			tc_operand_decode(elem_of(f->a), a + row * ku, ku, da);
			tc_dot_tile(da, 1, elem_of(f->b), bs, n,
				    f->d == WG_F32 ? TC_ACC_F32 : TC_ACC_F16, c + row * n);
			continue;
		}
		for (unsigned col = 0; col < n; col++)
			c[row * n + col] = dot(x, a + row * ku, bs + col * ku, ku, c[row * n + col]);
	}
	return true;
}

/* Read C from D's registers (or zeros), compute the warp's 16 x N block, write D. */
static void compute(struct launch *L, struct warp *w, const struct wg_op *op)
{
	const struct dinsn *di = op->di;
	const struct wg_insn *x = di->wg;
	const struct wg_form *f = &x->f;
	unsigned ku = k_units(f), kb = kb_units(f), bits = unit_bits(f->a), n = f->n;
	struct tc_operand *dec = scratch(w->wg, sizeof *dec * 16 +
					 sizeof(uint32_t) * (16 * ku + n * kb + 16 * n + n * ku));
	if (!dec) {
		runtime_error(L, 1, "out of memory for wgmma.mma_async");
		return;
	}
	uint32_t *a = (uint32_t *)(dec + 16), *b = a + 16 * ku, *c = b + n * kb, *bs = c + 16 * n;
	const uint8_t *smem = w->cta->smem;
	uint32_t na = 0;
	if (f->a_regs) {
		a_from_regs(op->f, &di->s[0], bits, ku, a);
	} else {
		gather(smem, op->pieces, x->trans_a, bits, ku, 16, a);
		na = op->npieces - (x->trans_b ? kb * n / 8 : b_row_pieces(f) * n);
	}
	gather(smem, op->pieces + na, x->trans_b, bits, kb, n, b);
	if (x->scale_a < 0)
		negate(a, (size_t)16 * ku, bits);
	if (x->scale_b < 0)
		negate(b, (size_t)n * kb, bits);
	struct d_offsets o;
	d_offsets(n, &o);
	c_read(op, &di->d, f->d == WG_F16, n, &o, c);
	if (f->sparse) {
		if (sparse_dots(L, op, a, b, bs, dec, c))
			d_write(op, &di->d, f->d == WG_F16, n, &o, c);
		return;
	}
	if (tc_elem_is_float(elem_of(f->a))) {
		if (!float_dots(L, w, f, a, b, ku, dec, c)) {
			runtime_error(L, 1, "out of memory for wgmma.mma_async");
			return;
		}
	} else {
		for (unsigned row = 0; row < 16; row++)
			for (unsigned col = 0; col < n; col++)
				c[row * n + col] = dot(x, a + row * ku, b + col * ku, ku,
						       c[row * n + col]);
	}
	d_write(op, &di->d, f->d == WG_F16, n, &o, c);
}

/* ---- in flight ----------------------------------------------------------------------- */

struct busy_ctx {
	struct wg_marks *m;
	int delta;
};

static void busy_add(void *ctx, uint32_t slot)
{
	struct busy_ctx *b = ctx;
	if (slot < b->m->nslots)
		b->m->busy[slot] = (uint16_t)(b->m->busy[slot] + b->delta);
}

/* The part's shared operands are yet to be read (+1), or were read (-1). */
static void track_pieces(struct launch *L, struct warp *w, struct wg_op *op, int delta)
{
	struct wg_cta *cs = w->cta->wg;
	for (uint32_t i = 0; i < op->npieces; i++) {
		uint32_t g = op->pieces[i] / 16;
		cs->reading[g] = (uint16_t)(cs->reading[g] + delta);
	}
	L->wg.reading = (uint32_t)((int64_t)L->wg.reading + delta);
}

/* The part is in flight (+1: its registers are watched), or retired (-1). */
static void track(struct launch *L, struct warp *w, struct wg_op *op, int delta)
{
	struct wg_warp *s = w->wg;
	struct wg_marks *m = marks_of(s, op->f, delta > 0);
	if (!m && delta > 0)
		runtime_error(L, 1, "out of memory for wgmma state");
	if (m) {
		struct busy_ctx b = {m, delta};
		each_reg(&op->di->d, busy_add, &b);
		if (op->di->wg->f.a_regs)
			each_reg(&op->di->s[0], busy_add, &b);
		m->nbusy = (uint32_t)((int64_t)m->nbusy + delta);
	}
	w->wg_busy = (uint32_t)((int64_t)w->wg_busy + delta);
}

/* w has parts in flight (on), or none left (off): the launch's list of such warps, which
 * seeded completion walks. */
static void list_warp(struct launch *L, struct warp *w, bool on)
{
	if (!on) {
		for (uint32_t i = 0; i < L->wg.nwarps; i++)
			if (L->wg.warps[i] == w) {
				L->wg.warps[i] = L->wg.warps[--L->wg.nwarps];
				break;
			}
		return;
	}
	if (L->wg.nwarps == L->wg.warps_cap) {
		uint32_t cap = L->wg.warps_cap ? L->wg.warps_cap * 2 : 16;
		struct warp **n = realloc(L->wg.warps, sizeof *n * cap);
		if (!n) {
			runtime_error(L, 1, "out of memory for wgmma state");
			return;
		}
		L->wg.warps = n;
		L->wg.warps_cap = cap;
	}
	L->wg.warps[L->wg.nwarps++] = w;
}

/* The operands may not be bytes an asynchronous copy has yet to land, or landed without
 * anyone observing its completion (rule async-copy-race): checked when the wgmma is issued
 * and again when it completes, since it reads them at some point in between. */
static void copies_check(struct launch *L, struct cta *c, const struct wg_op *op)
{
	if (!L->async.nevents && !L->landed.n)
		return;
	for (uint32_t i = 0; i < op->npieces && !L->stop; i++)
		async_check_read(L, c, op->pieces[i], 16, 0, "wgmma.mma_async read");
}

/* A wgmma reads its shared operands through the async proxy (ISA 9.7.15.7.1): bytes ordinary
 * stores wrote must be made visible to it with fence.proxy.async first, as for a bulk copy's
 * source (async-proxy-fence-wgmma; a warning by default, as the H100 reads the new bytes).
 * Checked at the issue, where the fence must already be. */
static void proxy_check(struct launch *L, struct cta *c, const struct wg_op *op)
{
	for (uint32_t i = 0; i < op->npieces; i++)
		if (mem_proxy_dirty(c, op->pieces[i], 16)) {
			rule_break(L, RULE_PROXY_FENCE_WGMMA, L->cmask, "wgmma.mma_async reads shared "
				   "0x%x+16 through a matrix descriptor, written by ordinary stores "
				   "with no fence.proxy.async since", op->pieces[i]);
			return;
		}
}

/* The part reads its operands (for the data-race detector: its agent, with what lane 0 of
 * its warp had acquired at the issue) and computes its block. */
static void complete_part(struct launch *L, struct warp *w, struct wg_op *op)
{
	const struct dinsn *si = L->ci;
	struct warp *sw = L->cw;
	uint32_t sm = L->cmask;
	L->ci = op->di;
	L->cw = w;
	L->cmask = 1;
	race_copy_reads(L, &op->rc, w->cta, op->pieces, op->npieces, 16);
	copies_check(L, w->cta, op);
	if (!L->stop)
		compute(L, w, op);
	track_pieces(L, w, op, -1);
	op->done = true;
	L->ci = si;
	L->cw = sw;
	L->cmask = sm;
}

/* The data-race detector reads the shared operands of the parts complete_group is about
 * to complete, in its order, each cell once for all of them where nothing races
 * (race_wg_reads); complete_part's race_copy_reads reads the rest. */
static void reads_together(struct launch *L, struct warp *w, uint32_t mseq)
{
	struct race_wg_part p[16];
	uint32_t m = 0;
	if (!L->race)
		return;
	for (uint32_t k = 0; k < 4; k++) {
		struct wg_warp *s = w->cta->warps[(w->id & ~3u) + k].wg;
		for (uint32_t i = 0; s && i < s->nops && s->ops[i].mseq <= mseq; i++) {
			struct wg_op *op = &s->ops[i];
			if (op->done)
				continue;
			if (m == sizeof p / sizeof *p)
				return; /* (one part after another) */
			p[m++] = (struct race_wg_part){&op->rc, &w->cta->warps[(w->id & ~3u) + k],
						       op->di, op->pieces, op->npieces};
		}
	}
	race_wg_reads(L, w->cta, p, m);
}

/* w's part with count `mseq` completes: the warpgroup reads the shared operands once, so the
 * other warps' parts of the same wgmma.mma_async (and their earlier ones) complete too. */
static void complete_group(struct launch *L, struct warp *w, uint32_t mseq)
{
	struct cta *c = w->cta;
	reads_together(L, w, mseq);
	for (uint32_t k = 0; k < 4 && !L->stop; k++) {
		struct warp *o = &c->warps[(w->id & ~3u) + k];
		struct wg_warp *s = o->wg;
		for (uint32_t i = 0; s && i < s->nops && s->ops[i].mseq <= mseq && !L->stop; i++)
			if (!s->ops[i].done)
				complete_part(L, o, &s->ops[i]);
	}
	race_wg_reads_end(L);
}

/* Complete (or, when the warp is gone, drop) the first op of w's queue. */
static void retire_first(struct launch *L, struct warp *w, bool run)
{
	struct wg_warp *s = w->wg;
	if (run && !s->ops[0].done)
		complete_group(L, w, s->ops[0].mseq);
	struct wg_op op = s->ops[0];
	memmove(s->ops, s->ops + 1, sizeof *s->ops * --s->nops);
	track(L, w, &op, -1);
	if (!op.done)
		track_pieces(L, w, &op, -1);
	frame_release(L, w, op.f);
	free(op.pieces);
	race_copy_drop(L, &op.rc);
	if (!s->nops)
		list_warp(L, w, false);
}

/* The lanes of w are ordered after the operand reads of the four parts of each
 * wgmma.mma_async it issued below count `below` that it has not acquired yet. */
static void acquire_reads(struct launch *L, struct warp *w, uint32_t below)
{
	struct wg_cta *cs = w->cta->wg;
	struct wg_warp *s = w->wg;
	if (!L->race || !cs || w->id / 4 >= cs->ngroups)
		return;
	struct wg_group *g = &cs->groups[w->id / 4];
	if (below > s->acquired + HIST)
		s->acquired = below - HIST;
	for (; s->acquired < below; s->acquired++)
		for (uint32_t k = 0; k < 4; k++)
			race_agent_acquire(L, w, FULL_MASK, g->reader[s->acquired % HIST][k].agent,
					   g->reader[s->acquired % HIST][k].clock);
}

/* Complete every op of groups below `below`, in order. */
static void complete_below(struct launch *L, struct warp *w, uint32_t below)
{
	struct wg_warp *s = w->wg;
	while (s && s->nops && s->ops[0].group != UNCOMMITTED && s->ops[0].group < below &&
	       !L->stop)
		retire_first(L, w, true);
	if (s && below && !L->stop) /* (the last HIST commits; older ones were acquired) */
		acquire_reads(L, w, s->commit_mmas[(below - 1) % HIST]);
}

/* ---- checks -------------------------------------------------------------------------- */

/* All 32 lanes, all four warps of the group present: else warpgroup-aligned. */
static bool aligned_lanes(struct launch *L, struct warp *w, const struct dinsn *di,
			  uint32_t mask)
{
	struct cta *c = w->cta;
	uint32_t first = w->id & ~3u;
	if (first + 4 > c->nwarps || c->warps[first + 3].valid != FULL_MASK) {
		rule_break(L, RULE_WARPGROUP_ALIGNED, mask, "%s in a CTA of %u threads: warp %u's "
			   "warpgroup (warps %u-%u) is not four whole warps",
			   ir_op_name((enum ir_op)di->op), c->nthreads, w->id, first, first + 3);
		return false;
	}
	if (mask != FULL_MASK) {
		rule_break(L, RULE_WARPGROUP_ALIGNED, mask, "%s executed by %u of the 32 threads of "
			   "warp %u (diverged or predicated off)", ir_op_name((enum ir_op)di->op),
			   popcount32(mask), w->id);
		return false;
	}
	return true;
}

/* The n-th warpgroup instruction of every warp of a group is the same one. */
static bool aligned_seq(struct launch *L, struct warp *w, const struct dinsn *di)
{
	struct wg_cta *cs = cta_state(L, w->cta);
	struct wg_warp *s = w->wg;
	if (!cs)
		return false;
	struct wg_group *g = &cs->groups[w->id / 4];
	uint32_t me = w->id % 4, n = s->seq++, most = 0;
	for (uint32_t k = 0; k < 4; k++) {
		if (k == me)
			continue;
		if (!w->cta->warps[(w->id & ~3u) + k].live && g->seq[k] <= n) {
			rule_break(L, RULE_WARPGROUP_ALIGNED, FULL_MASK, "%s: warp %u of the warpgroup "
				   "exited without executing it", ir_op_name((enum ir_op)di->op),
				   (w->id & ~3u) + k);
			return false;
		}
		if (g->seq[k] > most)
			most = g->seq[k];
	}
	g->seq[me] = n + 1;
	if (n >= most) {
		g->hist[n % HIST] = di;
		return true;
	}
	const struct dinsn *o = g->hist[n % HIST];
	if (most - n < HIST && o != di) {
		rule_break(L, RULE_WARPGROUP_ALIGNED, FULL_MASK, "warp %u executes %s (its warpgroup "
			   "instruction #%u) where another warp of its warpgroup executed %s at line %u",
			   w->id, ir_op_name((enum ir_op)di->op), n + 1,
			   ir_op_name((enum ir_op)o->op), line_of(L, o));
		return false;
	}
	return true;
}

/* A register of a wgmma written or read by another instruction since the first
 * wgmma.mma_async after the last wgmma.fence (rule wgmma-fence-missing: the manual asks a
 * fence between any access of the accumulator or A registers and a wgmma using them, e.g.
 * an epilogue reading D and a next tile accumulating into it). Accesses between the fence
 * and that first wgmma are let pass: the manual asks the fence after them too, but nvcc
 * itself schedules the zeroing of the accumulators there (conformance/tensor e2e.ptx) and
 * the H100 computes right. */
struct fence_ctx {
	struct launch *L;
	struct wg_warp *s;
	struct wg_marks *m;
	const char *what;
	bool reported;
};

static void fence_reg(void *ctx, uint32_t slot)
{
	struct fence_ctx *fc = ctx;
	struct wg_warp *s = fc->s;
	struct wg_marks *m = fc->m;
	if (fc->reported || slot >= m->nslots)
		return;
	if (m->stamp[slot] > s->mma_clock)
		rule_break(fc->L, RULE_WGMMA_FENCE_MISSING, FULL_MASK, "wgmma.mma_async reads %s "
			   "registers written since the last wgmma.fence", fc->what);
	else if (m->rstamp[slot] > s->mma_clock)
		rule_break(fc->L, RULE_WGMMA_FENCE_MISSING, FULL_MASK, "wgmma.mma_async uses %s "
			   "registers that another instruction read since the last wgmma.fence",
			   fc->what);
	else
		return;
	fc->reported = true;
}

static void fence_check(struct launch *L, struct warp *w, struct frame *f, const struct dinsn *di)
{
	struct wg_warp *s = w->wg;
	if (!s->fenced) {
		rule_break(L, RULE_WGMMA_FENCE_MISSING, FULL_MASK, "wgmma.mma_async with no "
			   "wgmma.fence before it in this warp");
		return;
	}
	if (s->mma_clock == UINT32_MAX)
		s->mma_clock = s->clock; /* see fence_reg */
	struct wg_marks *m = marks_of(s, f, false);
	if (!m)
		return; /* no access of this frame noted since the warp's first wgmma.fence */
	struct fence_ctx fc = {L, s, m, "accumulator", false};
	each_reg(&di->d, fence_reg, &fc);
	if (!fc.reported && di->wg->f.a_regs) {
		fc.what = "A fragment";
		each_reg(&di->s[0], fence_reg, &fc);
	}
}

/* The pieces of both operands, in this CTA's shared memory. The manual asks for a
 * fence.proxy.async between generic writes and a wgmma reading them; Triton's own matmul
 * (cp.async, then wgmma) has none and the H100 reads the data, so ptxi does not ask
 * (docs/hardware-vs-manual.md). */
static bool locate(struct launch *L, struct warp *w, const struct dinsn *di, struct wg_op *op)
{
	const struct wg_insn *x = di->wg;
	const struct wg_form *f = &x->f;
	unsigned ku = k_units(f), kb = kb_units(f);
	uint32_t na = f->a_regs ? 0 : (x->trans_a ? ku * 2 : 32);
	uint32_t nb = x->trans_b ? kb * f->n / 8 : b_row_pieces(f) * f->n;
	op->pieces = malloc(sizeof *op->pieces * (na + nb));
	if (!op->pieces) {
		runtime_error(L, 1, "out of memory for wgmma.mma_async");
		return false;
	}
	struct wg_desc da, db;
	wg_desc_decode(op->adesc, &da);
	wg_desc_decode(op->bdesc, &db);
	uint32_t n = 0;
	if (!f->a_regs)
		n = list_pieces(&da, x->trans_a, ku, 2, 16 * (w->id % 4), 16, op->pieces);
	n += list_pieces(&db, x->trans_b, kb, b_row_pieces(f), 0, f->n, op->pieces + n);
	op->npieces = n;
	struct cta *c = w->cta;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t a = op->pieces[i];
		const char *which = i < na ? "A" : "B";
		if ((uint64_t)a + 16 > c->smem_size) {
			rule_break(L, RULE_WGMMA_DESCRIPTOR, FULL_MASK, "the %s descriptor 0x%016llx "
				   "addresses shared 0x%x+16, outside the CTA's %u bytes of shared "
				   "memory", which, (unsigned long long)(i < na ? op->adesc : op->bdesc),
				   a, c->smem_size);
			return false;
		}
	}
	return true;
}

/* ---- instructions -------------------------------------------------------------------- */

/* Queue w's part; false if a rule broke (it is not queued). */
static bool issue(struct launch *L, struct warp *w, struct group *g, const struct dinsn *di)
{
	struct wg_warp *s = w->wg;
	struct frame *f = g->frame;
	fence_check(L, w, f, di);
	struct wg_cta *cs = cta_state(L, w->cta);
	if (!cs)
		return false;
	struct wg_op op = {.di = di, .f = f, .group = UNCOMMITTED, .mseq = s->mmas};
	op.adesc = di->wg->f.a_regs ? 0 : op_read(L, w, f, &di->s[0], 0);
	op.bdesc = op_read(L, w, f, &di->s[1], 0);
	op.scale_d = op_read(L, w, f, &di->s[2], 0) & 1;
	for (uint32_t lane = 0; di->wg->f.sparse && lane < LANES; lane++)
		op.meta[lane] = (uint32_t)op_read(L, w, f, &di->s[3], lane);
	for (uint32_t lane = 1; lane < LANES; lane++)
		if ((!di->wg->f.a_regs && op_read(L, w, f, &di->s[0], lane) != op.adesc) ||
		    op_read(L, w, f, &di->s[1], lane) != op.bdesc) {
			rule_break(L, RULE_WARPGROUP_ALIGNED, FULL_MASK, "the threads of warp %u give "
				   "wgmma.mma_async different matrix descriptors", w->id);
			return false;
		}
	if (!locate(L, w, di, &op)) {
		free(op.pieces);
		return false;
	}
	copies_check(L, w->cta, &op);
	proxy_check(L, w->cta, &op);
	if (L->stop) {
		free(op.pieces);
		return false;
	}
	if (s->nops == s->cap) {
		uint32_t cap = s->cap ? s->cap * 2 : 8;
		struct wg_op *n = realloc(s->ops, sizeof *n * cap);
		if (!n) {
			free(op.pieces);
			runtime_error(L, 1, "out of memory for wgmma.mma_async");
			return false;
		}
		s->ops = n;
		s->cap = cap;
	}
	race_copy_issue(L, w, 0, RA_MBAR, &op.rc);
	cs->groups[w->id / 4].reader[op.mseq % HIST][w->id % 4].agent = op.rc.agent;
	cs->groups[w->id / 4].reader[op.mseq % HIST][w->id % 4].clock = op.rc.clock;
	f->refs++;
	if (!s->nops)
		list_warp(L, w, true);
	s->ops[s->nops++] = op;
	track(L, w, &s->ops[s->nops - 1], +1);
	track_pieces(L, w, &s->ops[s->nops - 1], +1);
	return true;
}

static void commit(struct launch *L, struct warp *w)
{
	struct wg_warp *s = w->wg;
	uint64_t due = L->cfg.seed ? L->steps + rng_latency(&L->wg.rng) : UINT64_MAX;
	for (uint32_t i = 0; i < s->nops; i++)
		if (s->ops[i].group == UNCOMMITTED) {
			s->ops[i].group = s->committed;
			s->ops[i].due = due;
		}
	s->commit_mmas[s->committed % HIST] = s->mmas;
	s->committed++;
	if (due < L->wg.due)
		L->wg.due = due;
	if (due < L->async.next_due)
		L->async.next_due = due;
}

/* ---- handlers ------------------------------------------------------------------------ */

/* The warp's warpgroup state, once the instruction passed the warpgroup's alignment rules
 * (all four warps, all lanes, the same instruction in the same order); NULL if a rule broke. */
static struct wg_warp *wg_enter(struct launch *L, struct warp *w, const struct dinsn *di,
				uint32_t mask)
{
	struct wg_warp *s = warp_state(L, w);
	if (!s || !aligned_lanes(L, w, di, mask) || !aligned_seq(L, w, di))
		return NULL;
	w->wg_track = true;
	return s;
}

enum step wgmma_exec_fence(struct launch *L, struct warp *w, struct group *g,
			   const struct dinsn *di, uint32_t mask)
{
	(void)g;
	struct wg_warp *s = wg_enter(L, w, di, mask);
	if (s) {
		s->fenced = true;
		s->mma_clock = UINT32_MAX;
	}
	return STEP_NEXT;
}

/* Whether every other live warp of w's warpgroup executed its wgmma.mma_async number n. */
static bool group_issued(const struct warp *w, uint32_t n)
{
	const struct cta *c = w->cta;
	uint32_t first = w->id & ~3u;
	for (uint32_t k = first; k < first + 4 && k < c->nwarps; k++) {
		const struct warp *o = &c->warps[k];
		if (o != w && o->live && (!o->wg || o->wg->mmas <= n))
			return false;
	}
	return true;
}

/* Let the warps of w's warpgroup parked at wgmma.mma_async go on once all have issued it
 * (or the others exited: warpgroup-aligned says so). */
static void wake_group(struct launch *L, struct warp *w)
{
	struct cta *c = w->cta;
	uint32_t first = w->id & ~3u;
	for (uint32_t k = first; k < first + 4 && k < c->nwarps; k++)
		for (struct group *g = c->warps[k].groups; g; g = g->next)
			if (g->state == G_WGMMA && group_issued(&c->warps[k], g->wait_id)) {
				g->state = G_READY;
				g->pc++;
				L->epoch++;
			}
}

enum step wgmma_exec_mma(struct launch *L, struct warp *w, struct group *g,
			 const struct dinsn *di, uint32_t mask)
{
	struct wg_warp *s = wg_enter(L, w, di, mask);
	struct wg_cta *cs = w->cta->wg;
	uint32_t n = w->wg ? w->wg->mmas : 0;
	if (cs && w->id / 4 < cs->ngroups) /* no agent until it issues */
		cs->groups[w->id / 4].reader[n % HIST][w->id % 4].clock = 0;
	bool queued = s && issue(L, w, g, di);
	if (w->wg)
		w->wg->mmas++; /* counted issued or not: the others do not wait for a broken one */
	wake_group(L, w);
	if (!queued || L->stop || group_issued(w, n))
		return STEP_NEXT;
	g->state = G_WGMMA;
	g->wait_id = n;
	return STEP_PARKED;
}

enum step wgmma_exec_commit(struct launch *L, struct warp *w, struct group *g,
			    const struct dinsn *di, uint32_t mask)
{
	(void)g;
	if (wg_enter(L, w, di, mask))
		commit(L, w);
	return STEP_NEXT;
}

enum step wgmma_exec_wait(struct launch *L, struct warp *w, struct group *g,
			  const struct dinsn *di, uint32_t mask)
{
	(void)g;
	struct wg_warp *s = wg_enter(L, w, di, mask);
	if (s)
		complete_below(L, w, s->committed > di->wg->count ? s->committed - di->wg->count : 0);
	return STEP_NEXT;
}

/* setmaxnreg: the CPU has no register file to resize, so only its rule remains: all four
 * warps of the warpgroup execute the same setmaxnreg together (warpgroup-aligned). */
enum step exec_setmaxnreg(struct launch *L, struct warp *w, struct group *g,
			  const struct dinsn *di, uint32_t mask)
{
	(void)g;
	wg_enter(L, w, di, mask);
	return STEP_NEXT;
}

/* ---- hooks --------------------------------------------------------------------------- */

struct race_ctx {
	struct launch *L;
	struct wg_warp *s;
	struct wg_marks *m;
	const struct dinsn *di;
	bool reported;
};

static void race_reg(void *ctx, uint32_t slot)
{
	struct race_ctx *rc = ctx;
	if (rc->reported || slot >= rc->m->nslots || !rc->m->busy[slot])
		return;
	rc->reported = true;
	const struct dinsn *by = NULL;
	for (uint32_t i = 0; i < rc->s->nops && !by; i++)
		if (rc->s->ops[i].f == rc->m->f)
			by = rc->s->ops[i].di;
	rule_break(rc->L, RULE_WGMMA_REG_RACE, rc->L->cmask, "%s touches a register of the "
		   "wgmma.mma_async issued at line %u, before a wgmma.wait_group covered it",
		   ir_op_name((enum ir_op)rc->di->op), line_of(rc->L, by));
}

void wgmma_check_regs(struct launch *L, struct warp *w, struct frame *f, const struct dinsn *di,
		      uint32_t mask)
{
	struct wg_warp *s = w->wg;
	(void)mask;
	if (!s || di->fam == FAM_WGMMA)
		return;
	struct wg_marks *m = marks_of(s, f, false);
	if (!m || !m->nbusy)
		return;
	struct race_ctx rc = {L, s, m, di, false};
	if (di->guard >= 0)
		race_reg(&rc, (uint32_t)di->guard);
	each_reg(&di->d, race_reg, &rc);
	each_reg(&di->d2, race_reg, &rc);
	for (uint32_t i = 0; i < di->nsrc && i < 5; i++)
		each_reg(&di->s[i], race_reg, &rc);
}

struct stamp_ctx {
	struct wg_marks *m;
	uint32_t clock;
};

static void stamp_reg(void *ctx, uint32_t slot)
{
	struct stamp_ctx *sc = ctx;
	if (slot < sc->m->nslots)
		sc->m->stamp[slot] = sc->clock;
}

static void rstamp_reg(void *ctx, uint32_t slot)
{
	struct stamp_ctx *sc = ctx;
	if (slot < sc->m->nslots)
		sc->m->rstamp[slot] = sc->clock;
}

void wgmma_note_writes(struct warp *w, struct frame *f, const struct dinsn *di)
{
	struct wg_warp *s = w->wg;
	if (!s || di->fam == FAM_WGMMA)
		return;
	struct wg_marks *m = marks_of(s, f, true);
	if (!m)
		return; /* out of memory: the rule sees less, nothing else changes */
	struct stamp_ctx sc = {m, ++s->clock};
	each_reg(&di->d, stamp_reg, &sc);
	each_reg(&di->d2, stamp_reg, &sc);
	for (uint32_t i = 0; i < di->nsrc && i < 5; i++)
		each_reg(&di->s[i], rstamp_reg, &sc);
}

bool wgmma_check_access(struct launch *L, struct cta *c, uint32_t off, uint32_t size,
			bool write, uint32_t lane)
{
	return write && wgmma_check_copy(L, c, off, size, lane, "store");
}

/* The wgmma.mma_async whose operands cover granule g of c: a part yet to read them, or (own)
 * one of L->cw's parts its warpgroup read that no wait_group of L->cw covered yet. */
static const struct dinsn *reader_of(struct launch *L, struct cta *c, uint32_t g, bool own,
				    bool copy, uint32_t lane)
{
	for (uint32_t k = 0; k < c->nwarps; k++) {
		const struct wg_warp *s = c->warps[k].wg;
		for (uint32_t i = 0; s && i < s->nops; i++) {
			if (s->ops[i].done != own || (own && &c->warps[k] != L->cw))
				continue;
			/* a copy by a thread not ordered after the wgmma's issue: the data-race
			 * detector names it (the wgmma's read checks copies in flight and landed) */
			if (copy && L->cw && !race_after_issue(L, L->cw, lane, &s->ops[i].rc))
				continue;
			for (uint32_t p = 0; p < s->ops[i].npieces; p++)
				if (s->ops[i].pieces[p] / 16 == g)
					return s->ops[i].di;
		}
	}
	return NULL;
}

bool wgmma_check_copy(struct launch *L, struct cta *c, uint32_t off, uint32_t size,
		      uint32_t lane, const char *verb)
{
	if (!c->wg || !size)
		return false;
	bool own = L->cw && L->cw->cta == c && L->cw->wg_busy;
	for (uint32_t g = off / 16; g <= (off + size - 1) / 16 && g < c->smem_size / 16 + 1; g++) {
		bool copy = strcmp(verb, "store") != 0;
		const struct dinsn *by = c->wg->reading[g] ? reader_of(L, c, g, false, copy, lane)
							   : NULL;
		if (!by && own)
			by = reader_of(L, c, g, true, copy, lane);
		if (!by)
			continue;
		rule_break(L, RULE_ASYNC_RACE, 1u << lane, "%s of %u bytes at shared 0x%x "
			   "overwrites an operand of the wgmma.mma_async issued at line %u, before a "
			   "wgmma.wait_group covered it", verb, size, off, line_of(L, by));
		return true;
	}
	return false;
}

void wgmma_launch_init(struct launch *L)
{
	memset(&L->wg, 0, sizeof L->wg);
	L->wg.due = UINT64_MAX;
	rng_seed(&L->wg.rng, L->cfg.seed, RNG_WGMMA);
}

void wgmma_launch_free(struct launch *L)
{
	free(L->wg.warps);
	L->wg.warps = NULL;
	L->wg.nwarps = L->wg.warps_cap = 0;
}

uint64_t wgmma_next_due(const struct launch *L)
{
	return L->wg.due;
}

void wgmma_land_due(struct launch *L, uint64_t now)
{
	if (now < L->wg.due)
		return;
	uint64_t next = UINT64_MAX;
	for (uint32_t i = 0; i < L->wg.nwarps && !L->stop;) {
		struct warp *w = L->wg.warps[i];
		struct wg_warp *s = w->wg;
		while (s->nops && s->ops[0].group != UNCOMMITTED && s->ops[0].due <= now && !L->stop)
			retire_first(L, w, true);
		if (i < L->wg.nwarps && L->wg.warps[i] != w)
			continue; /* it left the list: another took its place */
		for (uint32_t k = 0; k < s->nops; k++)
			if (s->ops[k].group != UNCOMMITTED && s->ops[k].due < next)
				next = s->ops[k].due;
		i++;
	}
	L->wg.due = next;
}

void wgmma_warp_exit(struct launch *L, struct warp *w)
{
	struct wg_warp *s = w->wg;
	while (s && s->nops)
		retire_first(L, w, false);
	wake_group(L, w);
	struct wg_cta *cs = w->cta->wg;
	if (!cs || w->id / 4 >= cs->ngroups)
		return;
	struct wg_group *g = &cs->groups[w->id / 4];
	for (uint32_t k = 0; k < 4; k++)
		if (g->seq[k] > g->seq[w->id % 4]) {
			const struct dinsn *o = g->hist[g->seq[w->id % 4] % HIST];
			rule_break(L, RULE_WARPGROUP_ALIGNED, 0, "warp %u exits without executing the "
				   "%s at line %u that warp %u of its warpgroup executed", w->id,
				   o ? ir_op_name((enum ir_op)o->op) : "?", line_of(L, o),
				   (w->id & ~3u) + k);
			return;
		}
}

void wgmma_cta_free(struct launch *L, struct cta *c)
{
	for (uint32_t k = 0; k < c->nwarps; k++) {
		struct warp *w = &c->warps[k];
		struct wg_warp *s = w->wg;
		if (!s)
			continue;
		while (s->nops)
			retire_first(L, w, false);
		free(s->ops);
		for (uint32_t i = 0; i < s->nmarks; i++)
			marks_clear(&s->marks[i]);
		free(s->scratch);
		free(s);
		w->wg = NULL;
	}
	if (c->wg) {
		for (uint32_t g = 0; g < c->wg->ngroups; g++) {
			struct b_cache *bc = c->wg->groups[g].b;
			if (bc) {
				tc_btile_free(bc->tile);
				free(bc->raw);
				free(bc);
			}
		}
		free(c->wg->reading);
		free(c->wg->groups);
		free(c->wg);
		c->wg = NULL;
	}
}
