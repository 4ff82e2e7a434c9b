/* The benchmark generators' random numbers: splitmix64, small and
 * seedable, the same on every platform, so that the same arguments give
 * the same files everywhere.  Each generator is one file and includes
 * this once. */
#ifndef RD_BENCH_RNG_H
#define RD_BENCH_RNG_H

#include <stdint.h>

static uint64_t rng_state;

static inline uint64_t rng_next(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* A number in [0, n). */
static inline unsigned rng_below(unsigned n)
{
	return (unsigned)(rng_next() % n);
}

#endif
