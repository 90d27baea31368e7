/*
 * smem.c - the warp-wide path of a plain ld/st.shared::cta (issue #31): the lanes' offsets
 * formed and checked together (bounds and alignment, and whether they are 32 in a row),
 * then the bytes moved by one copy, a gather, or a walk over the lanes; with AVX2 where the
 * CPU has it. It gives exec_mem.c's bits; anything it does not take (a lane out of bounds
 * or misaligned, a check that must see each lane) it leaves untouched. With the race
 * detector on, a plain access's lanes are checked by race_shared_lanes between the offsets
 * and the move (a store's bytes written by it, each lane after its check), or, a 4-byte row
 * (or a row that wraps around: two rows), by race_shared_row at once.
 */
#include "smem.h"

#include <stdlib.h>
#include <string.h>

#include "access.h"
#include "initcheck.h"
#include "memory.h"
#include "operand.h"
#include "race.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define SMEM_AVX2 1
#endif

uint8_t smem_form(const struct dinsn *di)
{
	bool ld = di->op == OP_LD || di->op == OP_LDU; /* (exec_ld's rows) */
	if ((!ld && di->op != OP_ST) || di->space != MS_SHARED_CTA || di->vec != 1 ||
	    (di->flags & DF_VEC_DUP) || di->s[0].kind != DOP_ADDR ||
	    (!di->s[0].has_reg && di->s[0].space == MS_LOCAL))
		return 0;
	const char *e = getenv("PTXI_SMEM"); /* 0: none (tests/smem_diff.py's reference) */
	if (e && strcmp(e, "0") == 0)
		return 0;
	enum ir_mod t = (enum ir_mod)di->type;
	int es = ir_type_size(t);
	if (es != 1 && es != 2 && es != 4 && es != 8)
		return 0;
	uint8_t facts = (uint8_t)((ir_type_is_signed(t) ? SMEM_SIGNED : 0) |
				  __builtin_ctz((unsigned)es) << SMEM_LOG_SHIFT);
	if (ld)
		return di->d.kind == DOP_REG && di->d.reg_size != 16 ? SMEM_LD | facts : 0;
	const struct dop *v = &di->s[1];
	return !v->neg && (v->kind == DOP_REG || v->kind == DOP_IMM) ? SMEM_ST | facts : 0;
}

/* The first `size` bytes at p (1, 2, 4 or 8), zero- or sign-extended to 64 bits
 * (little-endian): each size a load of its own (a memcpy of a variable size is a call). */
static inline uint64_t load_widened(const uint8_t *p, uint32_t size, bool sgn)
{
	uint64_t v = 0;
	switch (size) {
	case 1: memcpy(&v, p, 1); break;
	case 2: memcpy(&v, p, 2); break;
	case 4: memcpy(&v, p, 4); break;
	default: memcpy(&v, p, 8); break;
	}
	if (sgn && size < 8 && (v >> (size * 8 - 1) & 1))
		v |= ~0ull << (size * 8);
	return v;
}

/* The loads of the lanes of mask, each at off[l], into d. */
static inline void ld_move(const uint8_t *smem, const uint32_t *off, uint32_t mask,
			   uint32_t es, bool sgn, uint64_t *d)
{
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		d[l] = load_widened(smem + off[l], es, sgn);
	}
}

/* The stores of the lanes of mask, each at off[l] (fit: SHL_*), of v's low bytes. */
static inline void st_move(uint8_t *smem, const uint32_t *off, int fit, uint32_t mask,
			   uint32_t es, const uint64_t *v)
{
	if (es == 8 && (fit & SHL_CONSEC)) {
		memcpy(smem + off[0], v, 8 * LANES);
		return;
	}
	for (uint32_t m = mask; m; m &= m - 1) { /* in lane order: of two at one place, the
						    higher lane's bytes stay */
		uint32_t l = (uint32_t)__builtin_ctz(m);
		memcpy(smem + off[l], &v[l], es); /* the low bytes: little-endian */
	}
}

#ifdef SMEM_AVX2
/* The lanes' bits of mask >> 8i as eight all-ones or zero words. */
__attribute__((target("avx2"))) static inline __m256i lane_bits(uint32_t mask, int i)
{
	const __m256i bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
	__m256i m = _mm256_set1_epi32((int)(mask >> (8 * i)));
	return _mm256_cmpeq_epi32(_mm256_and_si256(m, bit), bit);
}

/* Eight lanes' low words of r[8i..8i+7] in order (as interp.c's pred_mask_avx2 gathers). */
__attribute__((target("avx2"))) static inline __m256i low_words(const uint64_t *r)
{
	__m256 a = _mm256_castsi256_ps(_mm256_loadu_si256((const __m256i *)r));
	__m256 b = _mm256_castsi256_ps(_mm256_loadu_si256((const __m256i *)(r + 4)));
	return _mm256_permute4x64_epi64(_mm256_castps_si256(_mm256_shuffle_ps(a, b, 0x88)), 0xD8);
}

/* mem_shared_lanes's answer for r[l] + d, size <= end, eight lanes a vector. A whole warp
 * in a row is judged by its first lane: aligned, and the 32 places before the end (else
 * some lane is out, or misaligned, as lane by lane would find). */
__attribute__((target("avx2"))) static inline int offsets_avx2(const uint64_t *r, uint32_t d,
							       uint32_t mask, uint32_t size,
							       uint32_t end, uint32_t *off)
{
	const __m256i dv = _mm256_set1_epi32((int)d);
	uint32_t first = (uint32_t)r[0] + d;
	const __m256i base = _mm256_set1_epi32((int)first);
	const __m128i log = _mm_cvtsi32_si128(__builtin_ctz(size));
	static const int32_t lane[LANES] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,
					    11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
					    22, 23, 24, 25, 26, 27, 28, 29, 30, 31};
	__m256i v[4], apart = _mm256_setzero_si256();
#pragma GCC unroll 4
	for (int i = 0; i < 4; i++) {
		v[i] = _mm256_add_epi32(low_words(r + 8 * i), dv);
		_mm256_storeu_si256((__m256i *)(off + 8 * i), v[i]);
		/* lane l's place if the lanes are in a row from lane 0's: base + l * size */
		__m256i want = _mm256_add_epi32(
			base, _mm256_sll_epi32(_mm256_loadu_si256((const __m256i *)(lane + 8 * i)), log));
		apart = _mm256_or_si256(apart, _mm256_xor_si256(v[i], want));
	}
	if (mask == FULL_MASK && _mm256_testz_si256(apart, apart))
		return !(first & (size - 1)) && 32 * size <= end && first <= end - 32 * size
			       ? SHL_FIT | SHL_CONSEC : 0;
	const __m256i flip = _mm256_set1_epi32((int)0x80000000u);
	const __m256i sm = _mm256_set1_epi32((int)(size - 1));
	const __m256i lastf = _mm256_set1_epi32((int)((end - size) ^ 0x80000000u));
	__m256i bad = _mm256_setzero_si256();
#pragma GCC unroll 4
	for (int i = 0; i < 4; i++) {
		/* misaligned, or past end - size (unsigned, by the flipped sign) */
		__m256i e = _mm256_or_si256(_mm256_and_si256(v[i], sm),
					    _mm256_cmpgt_epi32(_mm256_xor_si256(v[i], flip), lastf));
		bad = _mm256_or_si256(bad, mask == FULL_MASK ? e
					   : _mm256_and_si256(e, lane_bits(mask, i)));
	}
	return _mm256_testz_si256(bad, bad) ? SHL_FIT : 0;
}

/* 4-byte loads into the 64-bit lanes of d, widened by sgn: 32 in a row at once, else a
 * gather of the lanes of mask, eight at a time. */
__attribute__((target("avx2"))) static inline void ld4_avx2(const uint8_t *smem,
							    const uint32_t *off, uint32_t mask,
							    bool consec, bool sgn, uint64_t *d)
{
	if (consec) {
		const uint8_t *p = smem + off[0];
#pragma GCC unroll 8
		for (int i = 0; i < 8; i++) {
			__m128i u = _mm_loadu_si128((const __m128i *)(p + 16 * i));
			__m256i v = sgn ? _mm256_cvtepi32_epi64(u) : _mm256_cvtepu32_epi64(u);
			_mm256_storeu_si256((__m256i *)(d + 4 * i), v);
		}
		return;
	}
	for (int i = 0; i < 4; i++) {
		uint32_t bits = mask >> (8 * i) & 0xffu;
		if (!bits)
			continue;
		__m256i m = lane_bits(mask, i);
		__m256i o = _mm256_loadu_si256((const __m256i *)(off + 8 * i));
		__m256i v = _mm256_mask_i32gather_epi32(_mm256_setzero_si256(), (const int *)smem,
							o, m, 1);
		__m128i v0 = _mm256_castsi256_si128(v), v1 = _mm256_extracti128_si256(v, 1);
		__m256i lo = sgn ? _mm256_cvtepi32_epi64(v0) : _mm256_cvtepu32_epi64(v0);
		__m256i hi = sgn ? _mm256_cvtepi32_epi64(v1) : _mm256_cvtepu32_epi64(v1);
		long long *q = (long long *)(d + 8 * i);
		if (bits == 0xffu) {
			_mm256_storeu_si256((__m256i *)q, lo);
			_mm256_storeu_si256((__m256i *)(q + 4), hi);
		} else {
			_mm256_maskstore_epi64(q, _mm256_cvtepi32_epi64(_mm256_castsi256_si128(m)), lo);
			_mm256_maskstore_epi64(q + 4, _mm256_cvtepi32_epi64(
							      _mm256_extracti128_si256(m, 1)), hi);
		}
	}
}

/* 32 lanes' low words stored in a row at p. */
__attribute__((target("avx2"))) static inline void st4_row_avx2(uint8_t *p, const uint64_t *v)
{
#pragma GCC unroll 4
	for (int i = 0; i < 4; i++)
		_mm256_storeu_si256((__m256i *)(p + 32 * i), low_words(v + 8 * i));
}

/* smem_ld's lanes at r[l] + delta (es <= c's bytes), in one AVX2 function: false when
 * some lane does not fit. */
__attribute__((target("avx2"))) static bool ld_lanes_avx2(struct launch *L, struct warp *w,
							  const uint64_t *r, uint32_t delta,
							  uint32_t mask, uint32_t es, bool sgn,
							  uint64_t *d)
{
	const struct cta *c = w->cta;
	uint32_t off[LANES];
	int fit = offsets_avx2(r, delta, mask, es, c->smem_size, off);
	if (!fit)
		return false;
	if (L->race) {
		uint32_t go = race_shared_lanes(L, w, mask, off, es, NULL);
		fit &= go == mask ? ~0 : ~SHL_CONSEC;
		mask = go;
	}
	if (es == 4)
		ld4_avx2(c->smem, off, mask, fit & SHL_CONSEC, sgn, d);
	else
		ld_move(c->smem, off, mask, es, sgn, d);
	return true;
}

/* smem_st's, the same way (mark: the writes noted for the proxy and initcheck maps). */
__attribute__((target("avx2"))) static bool st_lanes_avx2(struct launch *L, struct warp *w,
							  const uint64_t *r, uint32_t delta,
							  uint32_t mask, uint32_t es, const uint64_t *v,
							  bool mark)
{
	struct cta *c = w->cta;
	uint32_t off[LANES];
	int fit = offsets_avx2(r, delta, mask, es, c->smem_size, off);
	if (!fit)
		return false;
	if (mark && (fit & SHL_CONSEC))
		mem_proxy_mark_row(c, off[0], LANES * es);
	else if (mark)
		mem_proxy_mark_lanes(c, off, mask, es);
	if (L->race) { /* (it stores each lane after its check) */
		race_shared_lanes(L, w, mask, off, es, v);
		return true;
	}
	if (es == 4 && (fit & SHL_CONSEC))
		st4_row_avx2(c->smem + off[0], v);
	else
		st_move(c->smem, off, fit, mask, es, v);
	return true;
}
#endif

static bool has_avx2(void)
{
#ifdef SMEM_AVX2
	return __builtin_cpu_supports("avx2");
#else
	return false;
#endif
}

#ifdef SMEM_AVX2
/* Whether the 32 lanes' words of r + d (their low 32 bits) are 32 4-byte places in a row from
 * lane 0's, aligned and before end: offsets_avx2's SHL_FIT | SHL_CONSEC for a whole warp, on
 * the 64-bit lanes as they are (no copy of the offsets). *first: lane 0's place. */
__attribute__((target("avx2"))) static inline bool row4_avx2(const uint64_t *r, uint32_t d,
							     uint32_t end, uint32_t *first)
{
	uint32_t a = (uint32_t)r[0];
	const __m256i step = _mm256_setr_epi64x(0, 4, 8, 12), by = _mm256_set1_epi64x(16);
	__m256i want = _mm256_add_epi64(_mm256_set1_epi64x(a), step);
	__m256i eq = _mm256_set1_epi32(-1);
#pragma GCC unroll 8
	for (int i = 0; i < 8; i++) { /* the low words of lanes 4i..4i+3 against a + 4l */
		__m256i x = _mm256_loadu_si256((const __m256i *)(r + 4 * i));
		eq = _mm256_and_si256(eq, _mm256_cmpeq_epi32(x, want));
		want = _mm256_add_epi64(want, by);
	}
	*first = a + d;
	return (_mm256_movemask_ps(_mm256_castsi256_ps(eq)) & 0x55) == 0x55 && !(*first & 3) &&
	       128 <= end && *first <= end - 128;
}

/* row4_avx2's test with the detector on, which also takes a row that wraps around a tile
 * (smem_stencil's tile[(t+1)%256]) as two rows, so that the detector checks it at once, not
 * lane by lane: the 32 lanes' words of r + d at *first + 4l for the lanes below *k, at
 * *second + 4 * (l - *k) for the others, each row aligned and before end (*k: 32 for one
 * row, row4_avx2's case). */
__attribute__((target("avx2"), always_inline)) static inline bool
rows4_avx2(const uint64_t *r, uint32_t d, uint32_t end, uint32_t *first, uint32_t *k,
	   uint32_t *second)
{
	const __m256i by = _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28);
	uint32_t a = (uint32_t)r[0], at = 0, at2 = 0;
	__m256i base[4]; /* each lane's word less 4l: one value for each row */
#pragma GCC unroll 4
	for (int i = 0; i < 4; i++) {
		base[i] = _mm256_sub_epi32(low_words(r + 8 * i),
					   _mm256_add_epi32(by, _mm256_set1_epi32(32 * i)));
		at |= (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(
			      _mm256_cmpeq_epi32(base[i], _mm256_set1_epi32((int)a))))
		      << (8 * i);
	}
	*first = a + d;
	if (at == 0xffffffffu) {
		*k = LANES;
		return !(*first & 3) && 128 <= end && *first <= end - 128;
	}
	uint32_t n = (uint32_t)__builtin_ctz(~at), b = (uint32_t)r[n]; /* (0 < n < 32) */
	const __m256i b0 = _mm256_set1_epi32((int)(b - 4 * n));
#pragma GCC unroll 4
	for (int i = 0; i < 4; i++)
		at2 |= (uint32_t)_mm256_movemask_ps(
			       _mm256_castsi256_ps(_mm256_cmpeq_epi32(base[i], b0)))
		       << (8 * i);
	*second = b + d;
	*k = n;
	return (at2 | ((1u << n) - 1)) == 0xffffffffu && !((*first | *second) & 3) &&
	       4 * n <= end && *first <= end - 4 * n && 4 * (LANES - n) <= end &&
	       *second <= end - 4 * (LANES - n);
}

/* The same for the low k lanes (mask: 0 < k < 32, as a split by lane index leaves a group),
 * eight lanes a vector as far as the k go: offsets_avx2's SHL_FIT for lanes that lie in a
 * row from lane 0's place. (Lane by lane, its loop was a tenth of a tree level's access.) */
__attribute__((target("avx2"))) static inline bool low_row4(const uint64_t *r, uint32_t d,
							    uint32_t mask, uint32_t k,
							    uint32_t end, uint32_t *first)
{
	uint32_t a = (uint32_t)r[0];
	const __m256i by = _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28);
	__m256i bad = _mm256_setzero_si256();
	for (uint32_t i = 0; 8 * i < k; i++) { /* lane l's word against a + 4l */
		__m256i want = _mm256_add_epi32(_mm256_set1_epi32((int)(a + 32 * i)), by);
		bad = _mm256_or_si256(bad, _mm256_and_si256(_mm256_xor_si256(low_words(r + 8 * i),
									     want),
							    lane_bits(mask, (int)i)));
	}
	*first = a + d;
	return _mm256_testz_si256(bad, bad) && !(*first & 3) && 4 * k <= end &&
	       *first <= end - 4 * k;
}

/* The first `left` (1..3) of four 32-bit lanes. */
__attribute__((target("avx2"))) static inline __m128i first_lanes(uint32_t left)
{
	return _mm_cmpgt_epi32(_mm_set1_epi32((int)left), _mm_setr_epi32(0, 1, 2, 3));
}

/* The k (< 32) words in a row at p, widened by sgn into d[0..k): four lanes a vector, the
 * last ones by masked loads and stores (no byte past the row read, no lane past k written). */
__attribute__((target("avx2"))) static inline void ld_low_widen(const uint8_t *p, uint32_t k,
								bool sgn, uint64_t *d)
{
	for (uint32_t i = 0; 4 * i < k; i++) {
		uint32_t left = k - 4 * i;
		__m128i m = first_lanes(left);
		__m128i u = left >= 4 ? _mm_loadu_si128((const __m128i *)(p + 16 * i))
				      : _mm_maskload_epi32((const int *)(p + 16 * i), m);
		__m256i v = sgn ? _mm256_cvtepi32_epi64(u) : _mm256_cvtepu32_epi64(u);
		if (left >= 4)
			_mm256_storeu_si256((__m256i *)(d + 4 * i), v);
		else
			_mm256_maskstore_epi64((long long *)(d + 4 * i), _mm256_cvtepi32_epi64(m), v);
	}
}

/* The low words of v's lanes of mask (the low k < 32) stored in a row at p: eight lanes a
 * vector, the last ones by a masked store. */
__attribute__((target("avx2"))) static inline void st_low_row(uint8_t *p, uint32_t mask,
							      uint32_t k, const uint64_t *v)
{
	for (uint32_t i = 0; 8 * i < k; i++) {
		__m256i w = low_words(v + 8 * i);
		if (k - 8 * i >= 8)
			_mm256_storeu_si256((__m256i *)(p + 32 * i), w);
		else
			_mm256_maskstore_epi32((int *)(p + 32 * i), lane_bits(mask, (int)i), w);
	}
}

/* race_plain for di, an ld or st (smem_form's forms: never an atom or red, so its
 * semantics alone tell). */
static inline bool smem_plain(const struct dinsn *di)
{
	return !race_sem_strong(di->sem);
}

/* Whether ld_row4/st_row4 may take di on the lanes of mask: a 4-byte access through a
 * register by all lanes or the low ones (what row4_avx2 and low_row4 test), on AVX2. */
static inline bool row4_candidate(const struct dinsn *di, uint32_t mask)
{
	return (mask == FULL_MASK || !(mask & (mask + 1))) &&
	       (di->smem >> SMEM_LOG_SHIFT) == 2 && di->s[0].has_reg && has_avx2();
}

/* The words of two rows (lanes below k at first + 4l, the others at second + 4(l - k)),
 * widened into d's 32 lanes: eight lanes a gather, each lane's place chosen by a compare
 * (rows4_avx2 found both rows in bounds and aligned, and a gather reads only its lanes'
 * words). Lane by lane for the group that straddles the two rows cost ~220 instructions a
 * load; a copy of the two rows side by side first was two `rep movs` of a variable length,
 * whose stores the loads after it waited on. */
__attribute__((target("avx2"), noinline)) static void
ld_rows_widen(const uint8_t *smem, uint32_t first, uint32_t k, uint32_t second, bool sgn,
	      uint64_t *d)
{
	const __m256i at1 = _mm256_set1_epi32((int)first);
	const __m256i at2 = _mm256_set1_epi32((int)(second - 4 * k)); /* (lane l's: + 4l) */
	const __m256i k4 = _mm256_set1_epi32((int)(4 * k));
	__m256i l4 = _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28);
#pragma GCC unroll 4
	for (int i = 0; i < 4; i++) {
		__m256i in1 = _mm256_cmpgt_epi32(k4, l4); /* (lanes of the first row) */
		__m256i o = _mm256_add_epi32(l4, _mm256_blendv_epi8(at2, at1, in1));
		__m256i x = _mm256_i32gather_epi32((const int *)smem, o, 1);
		__m128i lo = _mm256_castsi256_si128(x), hi = _mm256_extracti128_si256(x, 1);
		_mm256_storeu_si256((__m256i *)(d + 8 * i),
				    sgn ? _mm256_cvtepi32_epi64(lo) : _mm256_cvtepu32_epi64(lo));
		_mm256_storeu_si256((__m256i *)(d + 8 * i + 4),
				    sgn ? _mm256_cvtepi32_epi64(hi) : _mm256_cvtepu32_epi64(hi));
		l4 = _mm256_add_epi32(l4, _mm256_set1_epi32(32));
	}
}

/* The common case of smem_ld in one short function: 4-byte loads through a register by a
 * whole warp, or by its low lanes, at places in a row, nothing to check but the bytes (no
 * uninitialised-read test, quiet) and, with the detector (race), a plain access's row record
 * (race_shared_row); what ld_lanes_avx2 does with it. False: not that case, nothing done. */
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) bool
ld_row4_any(struct launch *L, struct warp *w, struct frame *f, const struct dinsn *di,
	    uint32_t mask, bool race)
{
	const struct cta *c = w->cta;
	const struct dop *o = &di->s[0];
	const uint64_t *r = slot_ptr(f, o->slot);
	uint32_t first;
	if ((race && !smem_plain(di)) || (init_checking(L) && !c->init_full) ||
	    !access_shared_quiet(L, w))
		return false;
	if (mask != FULL_MASK) {
		uint32_t k = (uint32_t)__builtin_ctz(~mask);
		if (!low_row4(r, (uint32_t)o->off, mask, k, c->smem_size, &first) ||
		    (race && !race_shared_low_ld(L, w, mask, k, first)))
			return false;
		ld_low_widen(c->smem + first, k, di->smem & SMEM_SIGNED, slot_ptr(f, di->d.slot));
		return true;
	}
	uint32_t k = LANES, second = 0;
	if (race ? !rows4_avx2(r, (uint32_t)o->off, c->smem_size, &first, &k, &second) ||
			   !race_shared_row(L, w, mask, first, k, second, false)
		 : !row4_avx2(r, (uint32_t)o->off, c->smem_size, &first))
		return false;
	const uint8_t *p = c->smem + first;
	__m256i *dst = (__m256i *)slot_ptr(f, di->d.slot);
	if (k < LANES) { /* (two rows: four lanes at a time from where they lie) */
		ld_rows_widen(c->smem, first, k, second, di->smem & SMEM_SIGNED, (uint64_t *)dst);
		return true;
	}
	if (di->smem & SMEM_SIGNED) {
#pragma GCC unroll 8
		for (int i = 0; i < 8; i++)
			_mm256_storeu_si256(dst + i, _mm256_cvtepi32_epi64(
							     _mm_loadu_si128((const __m128i *)p + i)));
	} else {
#pragma GCC unroll 8
		for (int i = 0; i < 8; i++)
			_mm256_storeu_si256(dst + i, _mm256_cvtepu32_epi64(
							     _mm_loadu_si128((const __m128i *)p + i)));
	}
	return true;
}

__attribute__((target("avx2"), noinline)) static bool ld_row4_race(struct launch *L,
								    struct warp *w,
								    struct frame *f,
								    const struct dinsn *di,
								    uint32_t mask)
{
	return ld_row4_any(L, w, f, di, mask, true);
}

/* smem_calls' wrap: a whole warp's 4-byte load through a register whose lanes the segment
 * code found not in one row, after its tests of a plain access with ctx.row's SMEM_FRESH_LD
 * (smem_rows: quiet, the initcheck map full - ld_row4_any's first tests): where they are two
 * rows (rows4_avx2) that the detector's fresh case takes (race_row_fresh_wrap_ld), the words
 * widened as ld_row4_any widens them. False: nothing done, the row call decides from the
 * start (the fresh check changes nothing where it declines). */
__attribute__((target("avx2"), noinline)) static bool ld_row4_wrap(struct launch *L,
								    struct warp *w,
								    struct frame *f,
								    const struct dinsn *di,
								    uint32_t mask)
{
	const struct dop *o = &di->s[0];
	uint32_t first, k, second;
	(void)mask; /* (the whole warp's: the segment code's call) */
	if (!rows4_avx2(slot_ptr(f, o->slot), (uint32_t)o->off, w->cta->smem_size, &first, &k,
			&second) ||
	    k == LANES || !race_row_fresh_wrap_ld(L, w, first, k, second))
		return false;
	ld_rows_widen(w->cta->smem, first, k, second, di->smem & SMEM_SIGNED,
		      slot_ptr(f, di->d.slot));
	return true;
}

__attribute__((target("avx2"))) static bool ld_row4(struct launch *L, struct warp *w,
						    struct frame *f, const struct dinsn *di,
						    uint32_t mask)
{
	if (L->race)
		return ld_row4_race(L, w, f, di, mask);
	return ld_row4_any(L, w, f, di, mask, false);
}

/* smem_st's, the same way: 4-byte stores of a register in a row by a whole warp or its low
 * lanes, nothing to mark (the proxy and initcheck maps full), with the detector a row
 * record's check before the bytes change. */
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) bool
st_row4_any(struct launch *L, struct warp *w, struct frame *f, const struct dinsn *di,
	    uint32_t mask, bool race)
{
	struct cta *c = w->cta;
	const struct dop *o = &di->s[0], *s = &di->s[1];
	const uint64_t *r = slot_ptr(f, o->slot);
	uint32_t first;
	if ((race && !smem_plain(di)) || s->kind != DOP_REG || (c->init_bits && !c->init_full) ||
	    !c->proxy_all || !access_shared_quiet(L, w))
		return false;
	if (mask != FULL_MASK) {
		uint32_t k = (uint32_t)__builtin_ctz(~mask);
		if (!low_row4(r, (uint32_t)o->off, mask, k, c->smem_size, &first) ||
		    (race && !race_shared_low_st(L, w, mask, k, first)))
			return false;
		st_low_row(c->smem + first, mask, k, slot_ptr(f, s->slot));
		return true;
	}
	uint32_t k = LANES, second = 0;
	if (race ? !rows4_avx2(r, (uint32_t)o->off, c->smem_size, &first, &k, &second) ||
			   !race_shared_row(L, w, mask, first, k, second, true)
		 : !row4_avx2(r, (uint32_t)o->off, c->smem_size, &first))
		return false;
	if (k < LANES) { /* (two rows that race_shared_row found apart) */
		uint8_t words[4 * LANES];
		st4_row_avx2(words, slot_ptr(f, s->slot));
		memcpy(c->smem + first, words, 4 * k);
		memcpy(c->smem + second, words + 4 * k, 4 * (LANES - k));
		return true;
	}
	st4_row_avx2(c->smem + first, slot_ptr(f, s->slot));
	return true;
}

__attribute__((target("avx2"), noinline)) static bool st_row4_race(struct launch *L,
								    struct warp *w,
								    struct frame *f,
								    const struct dinsn *di,
								    uint32_t mask)
{
	return st_row4_any(L, w, f, di, mask, true);
}

__attribute__((target("avx2"))) static bool st_row4(struct launch *L, struct warp *w,
						    struct frame *f, const struct dinsn *di,
						    uint32_t mask)
{
	if (L->race)
		return st_row4_race(L, w, f, di, mask);
	return st_row4_any(L, w, f, di, mask, false);
}
#endif


/* Whether nothing but the bytes is at stake for an access di of w's CTA's shared memory
 * now, or a plain access's check by the detector (race_shared_lanes): no check of access.c
 * that could fire. */
static bool quiet(const struct launch *L, const struct warp *w, const struct dinsn *di)
{
	return (!L->race || smem_plain(di)) && access_shared_quiet(L, w);
}

/* smem_ld's every case but ld_row4's, out of its line (so that one saves few registers) */
static __attribute__((noinline)) bool ld_any(struct launch *L, struct warp *w, struct frame *f,
					     const struct dinsn *di, uint32_t mask)
{
	struct cta *c = w->cta;
	if ((init_checking(L) && !c->init_full) || !quiet(L, w, di))
		return false;
	const struct dop *o = &di->s[0];
	uint32_t es = smem_bytes(di->smem);
	bool sgn = di->smem & SMEM_SIGNED;
	uint64_t *d = slot_ptr(f, di->d.slot);
	if (!o->has_reg) { /* a variable's address: one place for every lane */
		uint32_t a = (uint32_t)op_addr(L, w, f, o, 0);
		if ((a & (es - 1)) || es > c->smem_size || a > c->smem_size - es)
			return false;
		if (L->race)
			mask = race_shared_word(L, w, mask, a, es);
		lanes_fill(d, load_widened(c->smem + a, es, sgn), mask);
		return true;
	}
	const uint64_t *r = slot_ptr(f, o->slot);
#ifdef SMEM_AVX2
	if (es <= c->smem_size && has_avx2())
		return ld_lanes_avx2(L, w, r, (uint32_t)o->off, mask, es, sgn, d);
#endif
	uint32_t off[LANES];
	if (!mem_shared_lanes(c, r, (uint32_t)o->off, mask, es, off))
		return false;
	if (L->race)
		mask = race_shared_lanes(L, w, mask, off, es, NULL);
	ld_move(c->smem, off, mask, es, sgn, d);
	return true;
}

/* smem_st's, the same way */
static __attribute__((noinline)) bool st_any(struct launch *L, struct warp *w, struct frame *f,
					     const struct dinsn *di, uint32_t mask)
{
	struct cta *c = w->cta;
	if (!quiet(L, w, di))
		return false;
	const struct dop *o = &di->s[0], *s = &di->s[1];
	uint32_t es = smem_bytes(di->smem), off[LANES];
	const uint64_t *v = s->kind == DOP_REG ? slot_ptr(f, s->slot) : s->imm;
	bool mark = (c->init_bits && !c->init_full) || !c->proxy_all; /* (else nothing to) */
	if (!o->has_reg) { /* one place for every lane: the highest lane's bytes stay */
		uint32_t a = (uint32_t)op_addr(L, w, f, o, 0);
		if ((a & (es - 1)) || es > c->smem_size || a > c->smem_size - es)
			return false;
		for (uint32_t l = 0; l < LANES; l++)
			off[l] = a;
		if (mark)
			mem_proxy_mark_lanes(c, off, mask, es);
		if (L->race) /* (lane by lane, each after its check) */
			race_shared_lanes(L, w, mask, off, es, v);
		else
			memcpy(c->smem + a, &v[31 - __builtin_clz(mask)], es);
		return true;
	}
	const uint64_t *r = slot_ptr(f, o->slot);
#ifdef SMEM_AVX2
	if (es <= c->smem_size && has_avx2())
		return st_lanes_avx2(L, w, r, (uint32_t)o->off, mask, es, v, mark);
#endif
	int fit = mem_shared_lanes(c, r, (uint32_t)o->off, mask, es, off);
	if (!fit)
		return false;
	if (mark)
		mem_proxy_mark_lanes(c, off, mask, es);
	if (L->race)
		race_shared_lanes(L, w, mask, off, es, v);
	else
		st_move(c->smem, off, fit, mask, es, v);
	return true;
}

uint32_t smem_rows(const struct launch *L, const struct warp *w)
{
	const struct cta *c = w->cta;
	if (!access_shared_quiet(L, w))
		return 0;
	bool ld = !(init_checking(L) && !c->init_full);
	bool st = !((c->init_bits && !c->init_full) || !c->proxy_all);
	return L->race ? (ld ? SMEM_FRESH_LD : 0) | (st ? SMEM_FRESH_ST : 0)
		       : (ld ? SMEM_ROW_LD : 0) | (st ? SMEM_ROW_ST : 0);
}

bool smem_ld(struct launch *L, struct warp *w, struct frame *f, const struct dinsn *di,
	     uint32_t mask)
{
#ifdef SMEM_AVX2
	if (row4_candidate(di, mask) && ld_row4(L, w, f, di, mask))
		return true;
#endif
	return ld_any(L, w, f, di, mask);
}

bool smem_st(struct launch *L, struct warp *w, struct frame *f, const struct dinsn *di,
	     uint32_t mask)
{
#ifdef SMEM_AVX2
	if (row4_candidate(di, mask) && st_row4(L, w, f, di, mask))
		return true;
#endif
	return st_any(L, w, f, di, mask);
}

bool smem_race_calls(const struct dinsn *di, bool store, struct smem_calls *out)
{
#ifdef SMEM_AVX2
	if (!row4_candidate(di, FULL_MASK))
		return false;
	/* (with L->race, smem_ld is row4_candidate && ld_row4_race, else ld_any; the row
	 * case's fresh calls only where it would not decline at its first test) */
	bool fresh = race_plain(di) && (!store || di->s[1].kind == DOP_REG);
	*out = store ? (struct smem_calls){st_row4_race, st_any,
					   fresh ? race_row_fresh_line_st : NULL, NULL, NULL}
		     : (struct smem_calls){ld_row4_race, ld_any,
					   fresh ? race_row_fresh_line_ld : NULL,
					   fresh ? race_row_fresh_off_ld : NULL,
					   fresh ? ld_row4_wrap : NULL};
	return true;
#else
	(void)di;
	(void)store;
	(void)out;
	return false;
#endif
}
