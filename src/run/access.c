/*
 * access.c - the checks of an ordinary memory access that need the layers above memory:
 * live mbarriers (mbarrier.c), asynchronous copies in flight or landed unobserved (async.c),
 * wgmma operands being read (exec_wgmma.c), uses of a bad cvta.to.shared result, and the
 * places a watched spin loop reads (sched.c). Memory itself only resolves (memory.c).
 */
#include "access.h"

#include "hopper/async.h"
#include "hopper/mbarrier.h"
#include "report/rules.h"
#include "hopper/wgmma.h"

/* A read by a loop watched at the step limit (sched.c): the place it reads. */
static void spin_note(struct launch *L, enum mspace space, uint64_t addr, uint32_t size)
{
	struct spin_rec *s = L->spin_rec;
	for (uint32_t i = 0; i < s->n; i++)
		if (s->place[i].space == space && s->place[i].addr == addr)
			return;
	if (s->n < SPIN_PLACES)
		s->place[s->n++] = (struct spin_place){(uint8_t)space, size, addr};
}

/* A shared access at an address made (it or an offset from it, up to 1 MiB on) by a
 * cvta.to.shared whose operand was not in the shared window: rule cvta-window, at the use. */
static void bad_cvta_use(struct launch *L, struct warp *w, uint32_t lane, uint64_t addr)
{
	const struct bad_cvta *b = w->bad_cvta_at;
	if (addr < b->result[lane] || addr - b->result[lane] >= (1u << 20))
		return;
	uint32_t line = 0, col = 0;
	if (b->insn[lane]->ir)
		src_locate(L->file, b->insn[lane]->ir->span.off, &line, &col);
	w->bad_cvta &= ~(1u << lane); /* one report for the conversion */
	rule_break(L, RULE_CVTA_WINDOW, 1u << lane,
		   "shared access at 0x%llx through the result of the cvta.to.shared at line %u, "
		   "which converted 0x%llx: not an address in the shared window",
		   (unsigned long long)addr, line, (unsigned long long)b->from[lane]);
}

/* An ordinary access to c's shared memory against live mbarriers, copies in flight and
 * wgmma operands being read; true when it broke async-copy-race. */
static bool shared_checks(struct launch *L, struct cta *c, uint32_t off, uint32_t size,
			  bool write, uint32_t lane)
{
	bool raced = false;
	struct mbar *mb = mbar_live_in(c, off, size);
	if (mb)
		rule_break(L, RULE_MBAR_PLAIN_ACCESS, 1u << lane,
			   "ordinary %s of %u bytes at shared 0x%x touches the live mbarrier at 0x%x",
			   write ? "store" : "load", size, off, mb->off);
	if (async_watching(L))
		raced = async_check_access(L, c, MS_SHARED_CTA, off, size, write, lane);
	if (L->wg.reading || (L->cw && L->cw->wg_busy))
		raced |= wgmma_check_access(L, c, off, size, write, lane);
	return raced;
}

bool access_lane(struct launch *L, struct warp *w, uint32_t lane, enum mspace space,
		 uint64_t addr, uint32_t size, bool write, struct access *out)
{
	mem_concrete(&space, &addr);
	bool shared = space == MS_SHARED_CTA || space == MS_SHARED_CLUSTER;
	bool cvta = shared && (w->bad_cvta >> lane & 1);
	if ((L->spin_rec && !write) || cvta) { /* noted only for aligned accesses */
		if (!mem_aligned(L, lane, space, addr, size))
			return false;
		if (L->spin_rec && !write)
			spin_note(L, space, addr, size);
		if (cvta)
			bad_cvta_use(L, w, lane, addr);
	}
	if (!mem_resolve(L, w, lane, space, addr, size, write, out))
		return false;
	if (shared)
		out->async_raced = shared_checks(L, out->cta, out->off, size, write, lane);
	else if (space == MS_GLOBAL && async_watching(L))
		out->async_raced = async_check_access(L, NULL, MS_GLOBAL, addr, size, write, lane);
	return true;
}

bool access_global_quiet(const struct launch *L)
{
	return !L->spin_rec && !async_watching(L);
}
