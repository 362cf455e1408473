/**
 * A seeded pseudo-random generator (mulberry32) for the benchmark's data: the same seed gives the
 * same file on every machine and every run, so figures from different runs measure the same work.
 */

/** A source of numbers in [0, 1), advanced by each call. */
export type Random = () => number

/**
 * mulberry32: 32 bits of state, period 2^32, good enough to shape test data (not for secrets).
 * Deterministic by construction: the sequence depends on `seed` only, never on `Math.random`.
 */
export const mulberry32 = (seed: number): Random => {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** An integer in [0, n) drawn from `random`. */
export const below = (random: Random, n: number): number => Math.floor(random() * n)

/** One element of a non-empty list, drawn from `random`. */
export const pick = <A>(random: Random, items: readonly [A, ...ReadonlyArray<A>]): A => items[below(random, items.length)] ?? items[0]
