/*
 * exec_tma.c - TMA tensor copies with tensor maps, as the H100 does them
 * (../shared/spec/tensor-h100.md), and the device-side tensor-map instructions.
 *
 * Notes
 * - A tile box is boxDim[0] elements per row (elementStrides[0] is ignored) and, in each
 *   dimension i >= 1, ceil(boxDim[i] / elementStrides[i]) rows at coordinates c[i] +
 *   k * elementStrides[i]. Rows lie one after another in shared memory, each padded to the
 *   swizzle span when there is a swizzle (the padding is left untouched); then every byte
 *   address is swizzled (swizzle.c). Transaction bytes are the whole box, out-of-bounds
 *   elements included.
 * - Out-of-bounds elements (any coordinate < 0 or >= globalDim) read as zero, or as 0x7ff7
 *   repeated with the NaN fill; stores and reductions skip them (clipped).
 * - TF32 map types round each in-bounds f32 to tf32 on load (nearest even; NaN 0x7fffe000).
 * - Interleaved maps (16B/32B): dimension 0 counts 16- or 32-byte chunks; a plane is
 *   ceil(boxDim[0] / elementStrides[0]) chunks at c0, c0 + estride0, ... from the plane's
 *   origin (c1 rows in), read straight through row padding; chunks outside globalDim[0] are
 *   zero-filled; boxDim[1] is not used; dimensions >= 2 step as in tile mode.
 * - Faults where the H100 faults (rules tensor-copy-alignment, tensor-copy-coordinates):
 *   shared address not 128-byte aligned, tensor map not 64-byte aligned, box start in
 *   dimension 0 not 16-byte aligned, any negative coordinate of a store or reduction.
 */

#include <stdlib.h>
#include <string.h>

#include "run/access.h"
#include "async.h"
#include "run/exec.h"
#include "run/exec_alu.h"
#include "run/launch.h"
#include "mbarrier.h"
#include "run/memory.h"
#include "run/operand.h"
#include "report/rules.h"
#include "tma_job.h"
#include "tmap.h"
#include "report/trace.h"

/* ---- issue ------------------------------------------------------------------------------ */

static const char *op_name(const struct dinsn *di)
{
	return ir_op_name((enum ir_op)di->op);
}

/* The tensor map operand of `lane`: 64-byte aligned, in param, const or global memory,
 * valid; its rank the instruction's dimension count. */
static bool read_map(struct launch *L, struct warp *w, struct frame *f, const struct dinsn *di,
		     uint32_t lane, struct tmap *t)
{
	const struct dop *o = &di->s[0];
	uint64_t a = op_addr(L, w, f, o, lane);
	enum mspace sp = o->space == MS_NONE ? MS_GENERIC : (enum mspace)o->space;
	if (a % 64) {
		rule_break(L, RULE_TMA_ALIGN, 1u << lane, "%s: the tensor map at 0x%llx is not "
			   "64-byte aligned", op_name(di), (unsigned long long)a);
		return false;
	}
	struct access acc;
	if (!access_lane(L, w, lane, sp, a, TMAP_BYTES, false, &acc))
		return false;
	if (acc.space == MS_SHARED_CTA || acc.space == MS_SHARED_CLUSTER || acc.space == MS_LOCAL) {
		rule_break(L, RULE_TMA_MAP, 1u << lane, "%s: the tensor map at 0x%llx is in %s "
			   "memory; it must be in param, const or global memory", op_name(di),
			   (unsigned long long)a, acc.space == MS_LOCAL ? "local" : "shared");
		return false;
	}
	if (acc.space == MS_GLOBAL && mem_tmap_dirty(L, a, TMAP_BYTES))
		rule_break(L, RULE_TMAP_PROXY_FENCE, 1u << lane, "%s uses the tensor map at global "
			   "0x%llx, written by ordinary stores or tensormap.replace with no "
			   "fence.proxy.tensormap::generic since", op_name(di), (unsigned long long)a);
	tmap_unpack(acc.p, t);
	char why[200];
	if (!tmap_check(t, why, sizeof why)) {
		rule_break(L, RULE_TMA_MAP, 1u << lane, "%s: the tensor map at 0x%llx is not one the "
			   "driver would encode: %s", op_name(di), (unsigned long long)a, why);
		return false;
	}
	unsigned dims = di->s[1].nelem;
	if (t->rank != dims || t->im2col != ((di->flags & DF_IM2COL) != 0)) {
		rule_break(L, RULE_TMA_MAP, 1u << lane, "%s: a %ud %s copy with a rank-%u %s tensor "
			   "map", op_name(di), dims, di->flags & DF_IM2COL ? "im2col" : "tile",
			   t->rank, t->im2col ? "im2col" : "tile");
		return false;
	}
	return true;
}

/* Coordinates: where the H100 faults, and (stores) clipping only at the far end. */
static bool read_coords(struct launch *L, struct warp *w, struct frame *f,
			const struct dinsn *di, uint32_t lane, struct tma_job *j, bool store)
{
	const struct tmap *t = &j->map;
	for (unsigned i = 0; i < t->rank; i++)
		j->c[i] = (int32_t)op_read(L, w, f, &di->s[1].elems[i], lane);
	uint32_t es = tmap_elem_size(t->elem);
	if (!t->interleave && ((int64_t)j->c[0] * es) % 16) {
		rule_break(L, RULE_TMA_COORD, 1u << lane, "%s: the box starts at element %d of "
			   "dimension 0, byte %lld, which is not 16-byte aligned", op_name(di), j->c[0],
			   (long long)j->c[0] * es);
		return false;
	}
	for (unsigned i = 0; store && i < t->rank; i++)
		if (j->c[i] < 0) {
			rule_break(L, RULE_TMA_COORD, 1u << lane, "%s: coordinate %u is %d; a tensor "
				   "store or reduction may not start below 0", op_name(di), i, j->c[i]);
			return false;
		}
	return true;
}

/* The global bytes the box may touch (for race and proxy checks): from its first to its last
 * in-bounds byte, or an empty range. */
static void global_range(const struct tma_job *j, const struct box_shape *s, uint64_t *lo,
			 uint64_t *n)
{
	if (j->map.im2col) { /* pixels wander over the images: the whole tensor */
		*lo = j->map.addr;
		*n = j->map.dim[j->map.rank - 1] * j->map.stride[j->map.rank - 1];
		return;
	}
	int64_t a = INT64_MAX, b = INT64_MIN;
	for (uint64_t row = 0; row < s->rows; row++) {
		int64_t off = row_offset(j, s, row);
		if (off < 0)
			continue;
		if (j->map.interleave) {
			uint32_t cb = j->map.interleave == 2 ? 32 : 16;
			for (uint32_t e = 0; e < s->row_bytes / cb; e++) {
				int64_t x = interleave_chunk(j, e);
				if (x < 0)
					continue;
				a = off + x < a ? off + x : a;
				b = off + x + cb > b ? off + x + cb : b;
			}
			continue;
		}
		int64_t x0 = j->c[0] < 0 ? 0 : j->c[0];
		int64_t x1 = (int64_t)j->c[0] + j->map.box[0];
		x1 = x1 > (int64_t)j->map.dim[0] ? (int64_t)j->map.dim[0] : x1;
		if (x0 >= x1)
			continue;
		a = off + x0 * s->es < a ? off + x0 * s->es : a;
		b = off + x1 * s->es > b ? off + x1 * s->es : b;
	}
	*lo = a < b ? j->map.addr + (uint64_t)a : j->map.addr;
	*n = a < b ? (uint64_t)(b - a) : 0;
}

/* The shared operand: 128-byte aligned, the whole box inside the CTA's shared memory. */
static bool shared_box(struct launch *L, struct warp *w, struct frame *f, const struct dinsn *di,
		       uint32_t lane, enum mspace sp, const struct box_shape *s, struct cta **c,
		       uint32_t *off)
{
	uint64_t a = op_addr(L, w, f, &di->s[2], lane);
	if (!async_shared_operand(L, w, a, sp, lane, c, off, "shared address"))
		return false;
	if (*off % 128) {
		rule_break(L, RULE_TMA_ALIGN, 1u << lane, "%s: shared address 0x%x is not 128-byte "
			   "aligned", op_name(di), *off);
		return false;
	}
	uint64_t foot = s->rows * s->pitch;
	if (*off + foot > (*c)->smem_size) {
		rule_break(L, RULE_BULK_BOUNDS, 1u << lane, "%s: the box's %llu bytes at shared 0x%x "
			   "are outside the %u bytes of shared memory", op_name(di),
			   (unsigned long long)foot, *off, (*c)->smem_size);
		return false;
	}
	return true;
}

/* "box 32x8 at (8, 4) of a 64x48 f16 tensor" */
static void describe_box(const struct tma_job *j, char *buf, size_t n)
{
	const struct tmap *t = &j->map;
	size_t k = 0;
	k += (size_t)snprintf(buf + k, n - k, "box ");
	for (unsigned i = 0; i < t->rank && k < n; i++)
		k += (size_t)snprintf(buf + k, n - k, "%s%u", i ? "x" : "", t->box[i]);
	k += (size_t)snprintf(buf + k, n - k, " at (");
	for (unsigned i = 0; i < t->rank && k < n; i++)
		k += (size_t)snprintf(buf + k, n - k, "%s%d", i ? ", " : "", j->c[i]);
	k += (size_t)snprintf(buf + k, n - k, ") of a ");
	for (unsigned i = 0; i < t->rank && k < n; i++)
		k += (size_t)snprintf(buf + k, n - k, "%s%llu", i ? "x" : "",
				      (unsigned long long)t->dim[i]);
	if (k < n)
		snprintf(buf + k, n - k, " %s tensor%s%s", tmap_elem_name(t->elem),
			 t->swizzle ? ", swizzle " : "", t->swizzle ? swz_name(t->swizzle) : "");
}

static struct tma_job *new_job(struct launch *L)
{
	struct tma_job *j = calloc(1, sizeof *j);
	if (!j)
		runtime_error(L, 1, "out of memory for a tensor copy");
	return j;
}

/* cp.async.bulk.tensor.Nd.shared::cluster.global.tile.mbarrier::complete_tx::bytes
 * [dst], [map, {c}], [mbar] {, ctaMask} */
static void issue_load(struct launch *L, struct warp *w, struct frame *f, const struct dinsn *di,
		       uint32_t lane)
{
	struct tma_job *j = new_job(L);
	if (!j)
		return;
	j->kind = TMA_LOAD;
	struct box_shape s;
	struct async_tensor at = {.job = j};
	struct cta *mc;
	uint32_t moff;
	if (!read_map(L, w, f, di, lane, &j->map) || !read_coords(L, w, f, di, lane, j, false))
		goto drop;
	box_shape(&j->map, &s);
	for (unsigned i = 0; j->map.im2col && i < di->d2.nelem && i < 3; i++)
		j->off[i] = (int32_t)(op_read(L, w, f, &di->d2.elems[i], lane) & 0xffff);
	if (!shared_box(L, w, f, di, lane, MS_SHARED_CLUSTER, &s, &at.cta, &j->soff))
		goto drop;
	if (di->flags & DF_MULTICAST) {
		at.multicast = true;
		at.ctamask = (uint32_t)op_read(L, w, f, &di->s[4], lane) & 0xffff;
		if (at.ctamask >> w->cta->cluster->nctas) {
			rule_break(L, RULE_BULK_MULTICAST_MASK, 1u << lane, "ctaMask 0x%x names CTA "
				   "rank %d, but the cluster has %u CTAs", at.ctamask,
				   31 - __builtin_clz(at.ctamask), w->cta->cluster->nctas);
			goto drop;
		}
	}
	uint64_t ma = op_addr(L, w, f, &di->s[3], lane);
	if (!async_shared_operand(L, w, ma, MS_SHARED_CLUSTER, lane, &mc, &moff, "mbarrier"))
		goto drop;
	if (moff % 8) {
		rule_break(L, RULE_MBAR_MISALIGNED, 1u << lane, "mbarrier address 0x%x is not 8-byte "
			   "aligned", moff);
		goto drop;
	}
	if (mc != at.cta) {
		rule_break(L, RULE_BULK_MBAR_CTA, 1u << lane, "the mbarrier is in CTA rank %u but the "
			   "destination in CTA rank %u", mc->rank, at.cta->rank);
		if (L->stop)
			goto drop;
	}
	uint32_t targets = at.multicast ? at.ctamask : 1u << at.cta->rank;
	for (uint32_t r = 0; targets >> r; r++)
		if ((targets >> r & 1) &&
		    !mbar_async_issue_check(L, w, &at.cta->cluster->ctas[r], moff, lane, op_name(di)))
			goto drop;
	j->r = mem_find(L->mem, j->map.addr, 1);
	global_range(j, &s, &at.gaddr, &at.gsize);
	if (at.gsize && j->r && mem_global_proxy_dirty(L, j->r, at.gaddr, at.gsize))
		rule_break(L, RULE_PROXY_FENCE, 1u << lane, "%s reads global 0x%llx+%llu, written by "
			   "ordinary stores with no fence.proxy.async since", op_name(di),
			   (unsigned long long)at.gaddr, (unsigned long long)at.gsize);
	at.soff = j->soff;
	at.ssize = (uint32_t)(s.rows * s.pitch);
	at.tx = (uint32_t)(s.rows * s.row_bytes);
	at.has_mbar = true;
	at.mbar_off = moff;
	if (L->cfg.trace_mbar) {
		char box[160], line[320];
		describe_box(j, box, sizeof box);
		snprintf(line, sizeof line, "%s issued: %s, %u bytes to shared 0x%x%s, complete-tx "
			 "%u on the mbarrier at 0x%x", op_name(di), box, at.ssize, j->soff,
			 at.multicast ? " of each CTA in ctaMask" : "", at.tx, moff);
		trace_line(L, w, 1u << lane, line);
	}
	if (!at.multicast || at.ctamask)
		async_issue_tensor(L, w, lane, di, &at);
	else
		tma_job_free(j); /* ctaMask 0: nothing is copied, no tx completes (as bulk copies) */
	return;
drop:
	tma_job_free(j);
}

/* The types each reduction takes on the H100 (spec/tensor-h100.md; others fault). */
static bool reduce_type_ok(enum ir_mod op, unsigned elem)
{
	const char *n = tmap_elem_name(elem);
	bool u32 = !strcmp(n, "u32"), s32 = !strcmp(n, "s32"), u64 = !strcmp(n, "u64");
	bool s64 = !strcmp(n, "s64"), half = !strcmp(n, "f16") || !strcmp(n, "bf16");
	bool f32 = !strcmp(n, "f32") || !strcmp(n, "f32ftz"), f64 = !strcmp(n, "f64");
	switch (op) {
	case MOD_ADD:
		return u32 || s32 || u64 || f32 || half || f64;
	case MOD_MIN:
	case MOD_MAX:
		return u32 || s32 || u64 || s64 || half;
	case MOD_INC:
	case MOD_DEC:
		return u32;
	case MOD_AND:
	case MOD_OR:
	case MOD_XOR:
		return u32 || s32 || u64;
	default:
		return false;
	}
}

/* A reduction's arithmetic: atom's, on the map's element type. */
static bool prepare_reduce(struct launch *L, const struct dinsn *di, uint32_t lane,
			   struct tma_job *j)
{
	static const enum ir_mod types[] = {MOD_U8, MOD_U16, MOD_U32, MOD_S32,
					    MOD_U64, MOD_S64, MOD_F16, MOD_F32, MOD_F32, MOD_F64,
					    MOD_BF16, MOD_F32, MOD_F32};
	enum ir_mod op = (enum ir_mod)di->mode;
	if (!reduce_type_ok(op, j->map.elem)) {
		rule_break(L, RULE_TMA_REDUCE_TYPE, 1u << lane, "cp.reduce.async.bulk.tensor%s with a "
			   "%s tensor map", ir_mod_name(op), tmap_elem_name(j->map.elem));
		return false;
	}
	enum ir_mod t = types[j->map.elem];
	j->red.type = (uint8_t)t;
	j->red.mode = (uint8_t)op;
	if (ir_type_is_float(t)) {
		const char *why = NULL;
		j->red.alu = (struct alu_insn){.op = op == MOD_ADD ? OP_ADD : op == MOD_MIN ? OP_MIN
					       : OP_MAX, .type = t, .nsrc = 2,
					       .rnd = op == MOD_ADD ? MOD_RN : MOD_NONE};
		if (alu_prepare(&j->red.alu, &why) != 0) {
			runtime_error(L, 2, "cp.reduce.async.bulk.tensor%s on %s is not implemented: %s",
				      ir_mod_name(op), tmap_elem_name(j->map.elem), why ? why : "");
			return false;
		}
	}
	return true;
}

/* cp.async.bulk.tensor.Nd.global.shared::cta.tile.bulk_group [map, {c}], [src] and
 * cp.reduce.async.bulk.tensor.Nd.global.shared::cta.OP.tile.bulk_group. */
static void issue_store(struct launch *L, struct warp *w, struct frame *f, const struct dinsn *di,
			uint32_t lane)
{
	struct tma_job *j = new_job(L);
	if (!j)
		return;
	j->kind = di->op == OP_CP_REDUCE_ASYNC_BULK_TENSOR ? TMA_REDUCE : TMA_STORE;
	struct box_shape s;
	struct async_tensor at = {.job = j, .to_global = true};
	if (!read_map(L, w, f, di, lane, &j->map) || !read_coords(L, w, f, di, lane, j, true) ||
	    (j->kind == TMA_REDUCE && !prepare_reduce(L, di, lane, j)))
		goto drop;
	box_shape(&j->map, &s);
	if (!shared_box(L, w, f, di, lane, MS_SHARED_CTA, &s, &at.cta, &j->soff))
		goto drop;
	if (at.cta != w->cta) {
		rule_break(L, RULE_BULK_BOUNDS, 1u << lane, "%s: the shared::cta source is in CTA rank "
			   "%u, not the executing CTA", op_name(di), at.cta->rank);
		goto drop;
	}
	j->r = mem_find(L->mem, j->map.addr, 1);
	global_range(j, &s, &at.gaddr, &at.gsize);
	at.soff = j->soff;
	at.ssize = (uint32_t)(s.rows * s.pitch);
	if (mem_proxy_dirty(at.cta, at.soff, at.ssize))
		rule_break(L, RULE_PROXY_FENCE, 1u << lane, "%s reads shared 0x%x+%u, written by "
			   "ordinary stores with no fence.proxy.async since", op_name(di), at.soff,
			   at.ssize);
	if (j->kind == TMA_REDUCE && at.gsize && j->r &&
	    mem_global_proxy_dirty(L, j->r, at.gaddr, at.gsize))
		rule_break(L, RULE_PROXY_FENCE, 1u << lane, "%s reduces into global 0x%llx+%llu, "
			   "written by ordinary stores with no fence.proxy.async since", op_name(di),
			   (unsigned long long)at.gaddr, (unsigned long long)at.gsize);
	if (L->cfg.trace_mbar) {
		char box[160], line[320];
		describe_box(j, box, sizeof box);
		snprintf(line, sizeof line, "%s issued: %s, from shared 0x%x, bulk group %u",
			 op_name(di), box, j->soff, w->bulk_open[lane]);
		trace_line(L, w, 1u << lane, line);
	}
	async_issue_tensor(L, w, lane, di, &at);
	return;
drop:
	tma_job_free(j);
}

/* cp.async.bulk.prefetch.tensor: no architectural effect, but the map and the box start are
 * checked as for a load (the H100 faults on a misaligned start here too). */
static void issue_prefetch(struct launch *L, struct warp *w, struct frame *f,
			   const struct dinsn *di, uint32_t lane)
{
	struct tma_job j = {.kind = TMA_LOAD};
	if (read_map(L, w, f, di, lane, &j.map))
		read_coords(L, w, f, di, lane, &j, false);
}

/* ---- tensor maps on the device ---------------------------------------------------------- */

/* The 128 bytes of a tensor map operand in .global or .shared::cta (tensormap.replace, and
 * tensormap.cp_fenceproxy's two sides): 64-byte aligned, inside its space. */
static uint8_t *map_bytes(struct launch *L, struct warp *w, uint64_t a, enum mspace sp,
			  uint32_t lane, const struct dinsn *di, bool write, struct access *acc)
{
	if (a % 64) {
		rule_break(L, RULE_TMA_ALIGN, 1u << lane, "%s: the tensor map at 0x%llx is not "
			   "64-byte aligned", op_name(di), (unsigned long long)a);
		return NULL;
	}
	if (!access_lane(L, w, lane, sp, a, TMAP_BYTES, write, acc))
		return NULL;
	return acc->p;
}

static const char *const field_names[] = {
	".global_address", ".rank", ".box_dim", ".global_dim", ".global_stride",
	".element_stride", ".elemtype", ".interleave_layout", ".swizzle_mode",
	".swizzle_atomicity", ".fill_mode",
};

/* tensormap.replace.tile.FIELD.SPACE.b1024.bN [map], {ord,} value: one field, in the
 * generic proxy (a copy may use the map only after fence.proxy.tensormap::generic). */
static void exec_replace(struct launch *L, struct warp *w, struct frame *f,
			 const struct dinsn *di, uint32_t lane)
{
	struct access acc;
	uint64_t a = op_addr(L, w, f, &di->s[0], lane);
	uint8_t *m = map_bytes(L, w, a, (enum mspace)di->space, lane, di, true, &acc);
	if (!m)
		return;
	unsigned ord = di->nsrc == 3 ? (unsigned)op_read(L, w, f, &di->s[1], lane) : 0;
	uint64_t v = op_read(L, w, f, &di->s[di->nsrc - 1], lane);
	enum tmap_field fld = (enum tmap_field)di->mode; /* decode_tensor */
	if (!tmap_replace(m, fld, ord, v)) {
		rule_break(L, RULE_TMA_MAP, 1u << lane, "tensormap.replace%s writes %llu (ordinal %u), "
			   "which the field cannot hold", field_names[fld], (unsigned long long)v, ord);
		return;
	}
	if (acc.space == MS_GLOBAL)
		mem_tmap_mark(L, a, TMAP_BYTES);
}

/* tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.SCOPE.sync.aligned
 * [dst], [src], 128: copy a map from shared to global memory and release it to the
 * tensormap proxy (the reader still needs the acquire fence, which ptxi does not insist on). */
static void exec_cp_fenceproxy(struct launch *L, struct warp *w, struct frame *f,
			       const struct dinsn *di, uint32_t lane)
{
	struct access d, s;
	uint64_t da = op_addr(L, w, f, &di->s[0], lane), sa = op_addr(L, w, f, &di->s[1], lane);
	uint8_t *dst = map_bytes(L, w, da, MS_GLOBAL, lane, di, true, &d);
	uint8_t *src = dst ? map_bytes(L, w, sa, MS_SHARED_CTA, lane, di, false, &s) : NULL;
	if (!src)
		return;
	memmove(dst, src, TMAP_BYTES);
	mem_tmap_fence(L, da, TMAP_BYTES);
}

/* ---- handlers ------------------------------------------------------------------------ */

/* cp.async.bulk.tensor: a load into shared memory, or (.bulk_group) a store from it. */
enum step tma_exec_copy(struct launch *L, struct warp *w, struct group *g,
			const struct dinsn *di, uint32_t mask)
{
	return exec_each_lane(L, w, g, di, mask,
			      di->flags & DF_BULK_GROUP ? issue_store : issue_load);
}

enum step tma_exec_reduce(struct launch *L, struct warp *w, struct group *g,
			  const struct dinsn *di, uint32_t mask)
{
	return exec_each_lane(L, w, g, di, mask, issue_store);
}

enum step tma_exec_prefetch(struct launch *L, struct warp *w, struct group *g,
			    const struct dinsn *di, uint32_t mask)
{
	return exec_each_lane(L, w, g, di, mask, issue_prefetch);
}

enum step tma_exec_replace(struct launch *L, struct warp *w, struct group *g,
			   const struct dinsn *di, uint32_t mask)
{
	return exec_each_lane(L, w, g, di, mask, exec_replace);
}

enum step tma_exec_cp_fenceproxy(struct launch *L, struct warp *w, struct group *g,
				 const struct dinsn *di, uint32_t mask)
{
	return exec_each_lane(L, w, g, di, mask, exec_cp_fenceproxy);
}
