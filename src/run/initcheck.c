/*
 * initcheck.c - the bit map of written shared bytes and the test of reads against it
 * (initcheck.h). Marking is a few bit operations per access; a read tests the bits of its
 * bytes, which for an aligned access of up to 8 bytes lie in one byte of the map. Once every
 * byte of the CTA's shared memory has been written (the usual case after a kernel's first
 * stores), no read can find one that was not: a warp's reads and marks then cost nothing.
 */
#include "initcheck.h"

#include <string.h>

#include "prog.h"
#include "report/rules.h"
#include "report/srcloc.h"

void init_mark(struct cta *c, uint32_t off, uint32_t size)
{
	uint8_t *m = c->init_bits;
	if (!m || !size || c->init_full)
		return;
	uint32_t end = off + size;
	while (off < end && (off & 7)) { /* the head, bit by bit */
		m[off / 8] |= (uint8_t)(1u << (off & 7));
		off++;
	}
	if (end - off >= 8) { /* whole bytes of the map */
		memset(m + off / 8, 0xff, (end - off) / 8);
		off += (end - off) & ~7u;
	}
	for (; off < end; off++)
		m[off / 8] |= (uint8_t)(1u << (off & 7));
}

void init_mark_lanes(struct cta *c, const uint32_t *off, uint32_t mask, uint32_t size)
{
	uint8_t *m = c->init_bits;
	if (!m || c->init_full)
		return;
	if (size > 8 || !size) {
		for (; mask; mask &= mask - 1)
			init_mark(c, off[__builtin_ctz(mask)], size);
		return;
	}
	/* aligned accesses of 1, 2, 4 or 8 bytes: their bits lie in one byte of the map */
	uint8_t bits = (uint8_t)((1u << size) - 1);
	for (; mask; mask &= mask - 1) {
		uint32_t o = off[__builtin_ctz(mask)];
		m[o / 8] |= (uint8_t)(bits << (o & 7));
	}
}

/* The written bits of [off, off+size) (size <= 16), bit i for byte off+i. */
static uint32_t written(const struct cta *c, uint32_t off, uint32_t size)
{
	const uint8_t *m = c->init_bits;
	uint32_t v = m[off / 8] | (uint32_t)m[off / 8 + 1] << 8 | (uint32_t)m[off / 8 + 2] << 16;
	uint32_t want = size >= 32 ? ~0u : (1u << size) - 1;
	return (v >> (off & 7)) & want;
}

/* "shared 0x3c ('tile[15]')", "shared 0x48 ('smem'+8, dynamic shared memory at offset 8)" */
static void describe_place(struct launch *L, struct cta *c, struct warp *w, uint32_t off,
			   uint32_t size, struct strbuf *b)
{
	if (c == w->cta)
		sb_printf(b, "shared 0x%x", off);
	else
		sb_printf(b, "shared::cluster 0x%x of CTA rank %u", off, c->rank);
	uint32_t within = 0;
	const struct ir_sym *s = srcloc_shared_var(L->kernel, off, &within);
	bool dyn = L->cfg.dyn_shared && off >= L->kernel->shared_dyn_off;
	if (s) {
		struct strbuf name = {0};
		srcloc_var_name(s, &name);
		uint32_t es = (uint32_t)ir_type_size(s->type) * (s->vec ? s->vec : 1);
		if (s->is_array && (es == size || es <= 1) && within % size == 0) /* nvcc: .b8 */
			sb_printf(b, " ('%s[%u]'", name.s ? name.s : "?", within / size);
		else if (within)
			sb_printf(b, " ('%s'+%u", name.s ? name.s : "?", within);
		else
			sb_printf(b, " ('%s'", name.s ? name.s : "?");
		sb_free(&name);
		if (dyn)
			sb_printf(b, ", dynamic shared memory at offset %u", off - L->kernel->shared_dyn_off);
		sb_printf(b, ")");
	} else if (dyn) {
		sb_printf(b, " (dynamic shared memory at offset %u)", off - L->kernel->shared_dyn_off);
	}
}

/* Report lanes (of w) whose read of `size` bytes at (c, off) - the first lane's - found
 * the bytes `have` of it written and the others not; then count them written, so that one
 * place is reported once. */
static void report(struct launch *L, struct warp *w, uint32_t lanes, struct cta *c,
		   uint32_t off, uint32_t size, uint32_t have)
{
	struct strbuf msg = {0};
	sb_printf(&msg, "%u-byte read of ", size);
	describe_place(L, c, w, off, size, &msg);
	uint32_t missing = ~have & (size >= 32 ? ~0u : (1u << size) - 1);
	if (have) {
		uint32_t lo = (uint32_t)__builtin_ctz(missing);
		uint32_t hi = 31 - (uint32_t)__builtin_clz(missing);
		if (lo == hi)
			sb_printf(&msg, ": byte %u of it was never written", lo);
		else if (popcount32(missing) == hi - lo + 1)
			sb_printf(&msg, ": bytes %u-%u of it were never written", lo, hi);
		else
			sb_printf(&msg, ": %u of its bytes were never written", popcount32(missing));
	} else {
		sb_printf(&msg, ", which no thread or copy has written");
	}
	rule_break(L, RULE_SHARED_UNINIT, lanes, "%s", msg.s ? msg.s : "");
	sb_free(&msg);
	init_mark(c, off, size);
}

void init_check(struct launch *L, struct warp *w, uint32_t lane, struct cta *c, uint32_t off,
		uint32_t size)
{
	if (!c->init_bits || c->init_full)
		return;
	if (size > 16) { /* no ordinary read is wider: test 16 bytes at a time */
		for (uint32_t i = 0; i < size && !L->stop; i += 16)
			init_check(L, w, lane, c, off + i, size - i < 16 ? size - i : 16);
		return;
	}
	uint32_t have = written(c, off, size);
	if (have != (1u << size) - 1)
		report(L, w, 1u << lane, c, off, size, have);
}

/* After a clean read of a warp: whether every bit of c's map is set now is looked at 1, 2,
 * 4, ... clean reads apart, so the looks cost little against the reads they save. */
static void look_full(struct cta *c)
{
	if (!look_due(&c->init_look))
		return;
	const uint8_t *m = c->init_bits;
	uint32_t n = c->smem_size / 8, i = 0, rest = c->smem_size & 7;
	for (; i + 8 <= n; i += 8) {
		uint64_t x;
		memcpy(&x, m + i, 8);
		if (x != UINT64_MAX)
			return;
	}
	for (; i < n; i++)
		if (m[i] != 0xff)
			return;
	if (rest && (m[n] & ((1u << rest) - 1)) != (1u << rest) - 1)
		return;
	c->init_full = true;
}

void init_check_lanes(struct launch *L, struct warp *w, const uint32_t *off, uint32_t mask,
		      uint32_t size)
{
	struct cta *c = w->cta;
	if (!c->init_bits || c->init_full || size > 16)
		return;
	uint32_t full = (1u << size) - 1, bad = 0;
	if (size <= 8) { /* aligned (the lanes were resolved): the bits lie in one byte */
		const uint8_t *map = c->init_bits;
		for (uint32_t m = mask; m; m &= m - 1) {
			uint32_t l = (uint32_t)__builtin_ctz(m), o = off[l];
			bad |= (uint32_t)(((map[o / 8] >> (o & 7)) & full) != full) << l;
		}
	} else {
		for (uint32_t m = mask; m; m &= m - 1) {
			uint32_t l = (uint32_t)__builtin_ctz(m);
			if (written(c, off[l], size) != full)
				bad |= 1u << l;
		}
	}
	if (!bad) {
		look_full(c);
		return;
	}
	/* one report, at the first lane's place (gather joins the instruction's reports) */
	uint32_t l0 = (uint32_t)__builtin_ctz(bad);
	report(L, w, bad, c, off[l0], size, written(c, off[l0], size));
	for (uint32_t m = bad; m; m &= m - 1)
		init_mark(c, off[__builtin_ctz(m)], size);
}
