/*
 * regdef.h - which registers of a function a thread may read before writing them (regdef.c),
 * found once at load: only those must read as 0 in a frame reused from the cache (frame_new).
 */
#ifndef PTXI_REGDEF_H
#define PTXI_REGDEF_H

#include "prog.h"

/* Fill fn->clear (runs of slots frame_new zeroes in a reused frame) from fn's code; leaves
 * fn->clear_known false (clear them all) where it cannot tell (no memory, a huge function). */
void regdef_plan(struct dprog *P, struct dfunc *fn);

/* Whether di reads and writes its own lanes alone (the ALU rows, mov, cvta, ld, st, bra,
 * ret, exit): what it names are its lane's registers, nothing else's. */
bool regdef_lane_local(const struct dinsn *di);
/* The slot di surely writes in each lane of its mask through destination d (its d or d2),
 * or -1: an unguarded ALU row or mov into a register of at most 8 bytes. */
int64_t regdef_kill(const struct dop *d, const struct dinsn *di);
/* each(arg, slot) for each register slot below nslots o names (a pair's both, an address's
 * base, a vector's elements) */
void regdef_op_slots(const struct dop *o, uint32_t nslots, void (*each)(void *, uint32_t),
		     void *arg);

/* each(arg, slot) for each slot below nslots of fn's .reg parameters and, where `rets`, its
 * .reg results (a pair's both slots): what a call writes lane by lane (and, for the
 * results, reads back at the ret), no instruction of fn */
void regdef_param_slots(const struct dfunc *fn, bool rets, uint32_t nslots,
			void (*each)(void *, uint32_t), void *arg);

/* Where control may go after instruction i (di) of a function whose bra targets below n are
 * jumps: i + 1 (but after an unguarded jump), a jump's target, a brx.idx's table entries.
 * A successor may lie past the code; the caller judges it. */
struct regdef_succs {
	uint32_t fixed[2], nfixed;
	const struct dop *table; /* brx.idx's targets, or NULL */
};
struct regdef_succs regdef_succs_of(const struct dinsn *di, uint32_t i, uint32_t n);
static inline uint32_t regdef_succs_count(const struct regdef_succs *sc)
{
	return sc->nfixed + (sc->table ? sc->table->nelem : 0);
}
static inline uint64_t regdef_succ(const struct regdef_succs *sc, uint32_t e)
{
	return e < sc->nfixed ? sc->fixed[e] : (uint64_t)sc->table->elems[e - sc->nfixed].off;
}

#endif
