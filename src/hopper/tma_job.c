/*
 * tma_job.c - a tensor copy resolved at issue (exec_tma.c), and its landing: the walk of the
 * box between global and shared memory, as the H100 does it (the notes at the top of
 * exec_tma.c). The asynchronous-copy queue (async.c) lands it when it is due.
 */
#include "tma_job.h"

#include <stdlib.h>
#include <string.h>

#include "run/atom.h"
#include "run/exec_alu.h"
#include "run/memory.h"
#include "report/rules.h"
#include "swizzle.h"

static uint32_t chunk_bytes(const struct tmap *t)
{
	return t->interleave == 2 ? 32 : 16;
}

void box_shape(const struct tmap *t, struct box_shape *s)
{
	memset(s, 0, sizeof *s);
	s->es = tmap_elem_size(t->elem);
	if (t->im2col) { /* a row per pixel */
		s->row_bytes = t->channels * s->es;
		uint32_t sp = swz_span(t->swizzle);
		s->pitch = sp && s->row_bytes < sp ? sp : s->row_bytes;
		s->rows = t->pixels;
		return;
	}
	s->first = t->interleave ? 2 : 1;
	/* interleaved: a plane of ceil(box0 / estride0) chunks (dimension 0 counts chunks) */
	s->row_bytes = t->interleave ? (t->box[0] + t->estride[0] - 1) / t->estride[0] *
					       chunk_bytes(t)
				     : t->box[0] * s->es;
	uint32_t span = swz_span(t->swizzle);
	s->pitch = span && s->row_bytes < span ? span : s->row_bytes;
	s->rows = 1;
	for (unsigned i = s->first; i < t->rank; i++) {
		s->n[i] = (t->box[i] + t->estride[i] - 1) / t->estride[i];
		s->rows *= s->n[i];
	}
}

/* tf32 from f32 bits: round to nearest even at 10 fraction bits; NaN is 0x7fffe000. */
static uint32_t to_tf32(uint32_t x)
{
	if ((x & 0x7f800000u) == 0x7f800000u && (x & 0x7fffffu))
		return 0x7fffe000u;
	if ((x & 0x7f800000u) == 0x7f800000u)
		return x;
	uint32_t r = x + 0xfffu + ((x >> 13) & 1);
	return r & 0xffffe000u;
}

/* The global byte offset from the tensor's address of row `row` (dimensions >= first),
 * or -1 when the row is out of bounds in those dimensions. Interleaved: the plane's origin
 * (c1 rows in; chunk x of dimension 0 is x chunks on from there, interleave_chunk). */
int64_t row_offset(const struct tma_job *j, const struct box_shape *s, uint64_t row)
{
	const struct tmap *t = &j->map;
	int64_t off = 0;
	bool oob = false;
	for (unsigned i = s->first; i < t->rank; i++) {
		uint64_t k = row % s->n[i];
		row /= s->n[i];
		int64_t x = (int64_t)j->c[i] + (int64_t)k * t->estride[i];
		oob |= x < 0 || (uint64_t)x >= t->dim[i];
		off += x * (int64_t)t->stride[i];
	}
	if (t->interleave) {
		oob |= j->c[1] < 0 || (uint64_t)j->c[1] >= t->dim[1];
		off += (int64_t)j->c[1] * (int64_t)t->stride[1];
	}
	return oob ? -1 : off;
}

/* Chunk e of an interleaved plane: its chunk x = c0 + e * estride0 in dimension 0, and its
 * byte offset from the plane's origin, or -1 outside 0 <= x < globalDim[0] (zero-filled;
 * measured: tests/hw_tma, il16_*). */
int64_t interleave_chunk(const struct tma_job *j, uint32_t e)
{
	const struct tmap *t = &j->map;
	int64_t x = (int64_t)j->c[0] + (int64_t)e * t->estride[0];
	if (x < 0 || (uint64_t)x >= t->dim[0])
		return -1;
	return x * chunk_bytes(t);
}

/* Whether element e of a tile row is in bounds in dimension 0. */
static bool col_in(const struct tma_job *j, uint32_t e)
{
	int64_t x = (int64_t)j->c[0] + e;
	return x >= 0 && (uint64_t)x < j->map.dim[0];
}

/* The tensor's bytes at offset `off` from its address, within its allocation. */
static uint8_t *global_at(struct launch *L, const struct tma_job *j, int64_t off, uint32_t n)
{
	uint64_t a = j->map.addr + (uint64_t)off;
	const struct region *r = j->r;
	if (r && a >= r->base && a + n <= r->base + r->size && !mem_region_freed(r))
		return r->data + (a - r->base);
	rule_break(L, RULE_BULK_BOUNDS, L->cmask, "%s: tensor bytes 0x%llx+%u, inside the tensor "
		   "map's bounds, are outside every global allocation",
		   ir_op_name((enum ir_op)L->ci->op), (unsigned long long)a, n);
	return NULL;
}

static void fill(const struct tmap *t, uint8_t *p, uint32_t n)
{
	for (uint32_t i = 0; i < n; i += 2) {
		uint16_t v = t->nan_fill ? 0x7ff7 : 0;
		memcpy(p + i, &v, n - i < 2 ? n - i : 2);
	}
}

/* One element from global to shared (loads). */
static void load_elem(const struct tmap *t, uint8_t *dst, const uint8_t *src, uint32_t es)
{
	if (!src) {
		fill(t, dst, es);
		return;
	}
	if (tmap_elem_is_tf32(t->elem)) {
		uint32_t x;
		memcpy(&x, src, 4);
		x = to_tf32(x);
		memcpy(dst, &x, 4);
		return;
	}
	memcpy(dst, src, es);
}

/* One element from shared to global (stores and reductions). */
static void store_elem(const struct tma_job *j, uint8_t *dst, const uint8_t *src, uint32_t es)
{
	if (j->kind == TMA_STORE) {
		memcpy(dst, src, es);
		return;
	}
	uint64_t old = 0, b = 0;
	memcpy(&old, dst, es);
	memcpy(&b, src, es);
	uint64_t nv = exec_atom_value(&j->red, old, b, 0, 0);
	memcpy(dst, &nv, es);
}

/* The im2col walk (spec/tensor-h100.md): pixelsPerColumn pixels from the start coordinates,
 * W fastest, each coordinate stepping by its elementStrides entry over the half-open pixel
 * box [lower, dim + upper) and carrying into the next one (back to lower), the last into the
 * image elementStrides[N] on (past the last image: filled; measured: tests/hw_tma, i2c*);
 * the pixel read is that position plus the instruction's im2col offsets, channelsPerPixel
 * channels from c0. pixel_at: the global byte offset of the pixel's channel 0, and whether
 * the pixel is in bounds (its channels may still lie outside dimension 0: col_in). */
static bool pixel_at(const struct tma_job *j, const int64_t *pos, int64_t *off)
{
	const struct tmap *t = &j->map;
	unsigned ns = t->rank - 2, nd = t->rank - 1; /* spatial dims 1..ns, batch dim nd */
	bool in = pos[nd] >= 0 && (uint64_t)pos[nd] < t->dim[nd];
	*off = pos[nd] * (int64_t)t->stride[nd];
	for (unsigned d = 1; d <= ns; d++) {
		int64_t x = pos[d] + j->off[d - 1];
		in &= x >= 0 && (uint64_t)x < t->dim[d];
		*off += x * (int64_t)t->stride[d];
	}
	return in;
}

static void pixel_next(const struct tmap *t, int64_t *pos)
{
	unsigned ns = t->rank - 2, nd = t->rank - 1;
	for (unsigned d = 1; d <= ns; d++) {
		pos[d] += t->estride[d];
		if (pos[d] < (int64_t)t->dim[d] + t->upper[d - 1])
			break;
		pos[d] = t->lower[d - 1];
		if (d == ns)
			pos[nd] += t->estride[nd];
	}
}

static void pixel_start(const struct tma_job *j, int64_t *pos)
{
	for (unsigned i = 0; i < j->map.rank; i++)
		pos[i] = j->c[i];
}

/* An im2col load: one pixel is one row of the box in shared memory. */
static void land_im2col(struct launch *L, const struct tma_job *j, struct cta *c,
			const struct box_shape *s)
{
	const struct tmap *t = &j->map;
	int64_t pos[TMAP_MAX_RANK];
	pixel_start(j, pos);
	for (uint32_t p = 0; p < t->pixels && !L->stop; p++, pixel_next(t, pos)) {
		int64_t off;
		bool in = pixel_at(j, pos, &off);
		uint32_t rbase = j->soff + p * s->pitch;
		for (uint32_t e = 0; e < t->channels; e++) {
			bool ce = in && col_in(j, e);
			uint8_t *g = NULL;
			if (ce && !(g = global_at(L, j, off + ((int64_t)j->c[0] + e) * s->es, s->es)))
				return;
			load_elem(t, c->smem + swz_addr(t->swizzle, rbase + e * s->es), g, s->es);
		}
	}
}

void tma_land(struct launch *L, const struct tma_job *j, struct cta *c)
{
	const struct tmap *t = &j->map;
	struct box_shape s;
	box_shape(t, &s);
	if (t->im2col) {
		land_im2col(L, j, c, &s);
		return;
	}
	for (uint64_t row = 0; row < s.rows && !L->stop; row++) {
		int64_t goff = row_offset(j, &s, row);
		uint32_t rbase = j->soff + (uint32_t)row * s.pitch;
		if (t->interleave) { /* a plane of chunks, 16 bytes at a time */
			uint32_t cb = chunk_bytes(t);
			for (uint32_t b = 0; b < s.row_bytes && !L->stop; b += 16) {
				int64_t x = goff < 0 ? -1 : interleave_chunk(j, b / cb);
				const uint8_t *g = x < 0 ? NULL : global_at(L, j, goff + x + b % cb, 16);
				if (x >= 0 && !g)
					return;
				uint8_t *p = c->smem + swz_addr(t->swizzle, rbase + b);
				for (uint32_t e = 0; e < 16; e += s.es)
					load_elem(t, p + e, g ? g + e : NULL, s.es);
			}
			continue;
		}
		for (uint32_t e = 0; e < t->box[0]; e++) {
			bool in = goff >= 0 && col_in(j, e);
			uint8_t *g = NULL;
			if (in && !(g = global_at(L, j, goff + ((int64_t)j->c[0] + e) * s.es, s.es)))
				return;
			uint32_t sh = swz_addr(t->swizzle, rbase + e * s.es);
			if (j->kind == TMA_LOAD)
				load_elem(t, c->smem + sh, g, s.es);
			else if (in)
				store_elem(j, g, c->smem + sh, s.es);
		}
	}
}

/* ---- the box's global bytes (the data-race detector, async.c) -------------------------- */

/* Runs of contiguous bytes, each passed on once the next one does not extend it. */
struct runs {
	bool (*fn)(void *ctx, uint64_t addr, uint32_t n);
	void *ctx;
	uint64_t a, n;
	bool stopped;
};

static void run_add(struct runs *r, uint64_t a, uint64_t n)
{
	if (r->stopped || !n)
		return;
	if (r->n && r->a + r->n == a && r->n + n <= UINT32_MAX) {
		r->n += n;
		return;
	}
	if (r->n && !r->fn(r->ctx, r->a, (uint32_t)r->n))
		r->stopped = true;
	r->a = a;
	r->n = n;
}

/* The in-bounds elements [x0, x1) of dimension 0 of a row starting c0 with n elements. */
static void row_span(const struct tma_job *j, uint32_t n, int64_t *x0, int64_t *x1)
{
	*x0 = j->c[0] < 0 ? 0 : j->c[0];
	*x1 = (int64_t)j->c[0] + n;
	if (*x1 > (int64_t)j->map.dim[0])
		*x1 = (int64_t)j->map.dim[0];
}

bool tma_runs(const struct tma_job *j, bool (*fn)(void *ctx, uint64_t addr, uint32_t n),
	      void *ctx)
{
	const struct tmap *t = &j->map;
	struct box_shape s;
	box_shape(t, &s);
	struct runs r = {.fn = fn, .ctx = ctx};
	int64_t x0, x1;
	if (t->im2col) {
		int64_t pos[TMAP_MAX_RANK], off;
		pixel_start(j, pos);
		row_span(j, t->channels, &x0, &x1);
		for (uint32_t p = 0; p < t->pixels && !r.stopped; p++, pixel_next(t, pos))
			if (pixel_at(j, pos, &off) && x0 < x1)
				run_add(&r, t->addr + (uint64_t)(off + x0 * s.es),
					(uint64_t)(x1 - x0) * s.es);
	} else {
		row_span(j, t->box[0], &x0, &x1);
		for (uint64_t row = 0; row < s.rows && !r.stopped; row++) {
			int64_t goff = row_offset(j, &s, row);
			if (goff < 0)
				continue;
			if (!t->interleave) {
				if (x0 < x1)
					run_add(&r, t->addr + (uint64_t)(goff + x0 * s.es),
						(uint64_t)(x1 - x0) * s.es);
				continue;
			}
			uint32_t cb = chunk_bytes(t);
			for (uint32_t e = 0; e < s.row_bytes / cb; e++) {
				int64_t x = interleave_chunk(j, e);
				if (x >= 0)
					run_add(&r, t->addr + (uint64_t)(goff + x), cb);
			}
		}
	}
	if (!r.stopped && r.n && !fn(ctx, r.a, (uint32_t)r.n))
		r.stopped = true;
	return !r.stopped;
}

struct touch {
	uint64_t a, n;
};

static bool misses(void *ctx, uint64_t a, uint32_t n)
{
	const struct touch *t = ctx;
	return !(a < t->a + t->n && t->a < a + n);
}

bool tma_touches(const struct tma_job *j, uint64_t addr, uint64_t n)
{
	struct touch t = {addr, n};
	return !tma_runs(j, misses, &t);
}

void tma_job_free(struct tma_job *j)
{
	free(j);
}
