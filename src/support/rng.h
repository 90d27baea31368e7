/*
 * rng.h - the launch's pseudo-random streams (--seed). Each purpose draws from a stream of
 * its own (the schedule's order, asynchronous copies' landing, wgmma completion), so that a
 * change in how often one of them draws leaves the others' choices as they were.
 */
#ifndef PTXI_RNG_H
#define PTXI_RNG_H

#include <stdint.h>

enum rng_purpose { RNG_SCHEDULE, RNG_ASYNC, RNG_WGMMA };

struct rng {
	uint64_t s;
};

/* The stream of `purpose` for a --seed. The schedule's stream is seeded as the single
 * stream of earlier versions was, so seeded schedules stay what they were. */
static inline void rng_seed(struct rng *r, uint64_t seed, enum rng_purpose purpose)
{
	r->s = (seed + (uint64_t)purpose * 0xD1B54A32D192ED03ull) * 0x9E3779B97F4A7C15ull + 1;
	if (!r->s) /* xorshift never leaves 0 */
		r->s = 0x2545F4914F6CDD1Dull;
}

/* The stream of `purpose` for cluster `cluster` (its linear index): cluster 0's is
 * rng_seed's, so a launch of one cluster draws as before streams were per cluster. */
static inline void rng_seed_cluster(struct rng *r, uint64_t seed, enum rng_purpose purpose,
				    uint64_t cluster)
{
	rng_seed(r, seed + cluster * 0x632BE59BD9B4E019ull, purpose);
}

/* xorshift64 (Marsaglia 2003, shifts 13, 7, 17). */
static inline uint64_t rng_next(struct rng *r)
{
	r->s ^= r->s << 13;
	r->s ^= r->s >> 7;
	r->s ^= r->s << 17;
	return r->s;
}

/* A latency of 1..512 steps: the top bits of a multiplied draw (xorshift64*). */
static inline uint64_t rng_latency(struct rng *r)
{
	return 1 + (rng_next(r) * 2685821657736338717ull >> 55);
}

#endif
