/**
 * The dispatch bench's readings of its samples, as laws: memory that grows with the parts is never called flat, memory
 * that only fills a cache early is; the rates of a steady run are its rate, in every tenth.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Series from "./Series.ts"

/** A run of `total` parts at `perSecond`, sampled every second, memory given by `rss(parts)`. */
const run = (total: number, perSecond: number, rss: (parts: number) => number): ReadonlyArray<Series.Sample> =>
  Array.from({ length: Math.ceil(total / perSecond) + 1 }, (_, second) => {
    const parts = Math.min(total, second * perSecond)
    return { seconds: second, rssMB: rss(parts), parts, heapMB: undefined }
  })

const runs = fc.record({
  total: fc.integer({ min: 10_000, max: 2_000_000 }),
  seconds: fc.integer({ min: 20, max: 600 }),
  baseMB: fc.double({ min: 100, max: 400, noNaN: true })
})

describe("Series", () => {
  it("law: memory that grows in proportion to the parts sent, by more than the tolerance over the second half, is not flat", () => {
    fc.assert(fc.property(runs, fc.double({ min: 1, max: 5, noNaN: true }), ({ total, seconds, baseMB }, factor) => {
      // Per part, enough that the second half adds `factor` times the tolerance.
      const perPart = (factor * Series.flatTolerance(baseMB * 2)) / (total / 2)
      const samples = run(total, Math.ceil(total / seconds), (parts) => baseMB + perPart * parts)
      const memory = Series.memory(samples, total)
      expect(memory.flat).toBe(false)
      expect(memory.slopeMBPerMillion).toBeCloseTo(perPart * 1e6, 3)
    }))
  })

  it("law: memory that fills a cache in the first half and then holds is flat, whatever the cache's size", () => {
    fc.assert(fc.property(runs, fc.double({ min: 0, max: 300, noNaN: true }), ({ total, seconds, baseMB }, cacheMB) => {
      const samples = run(total, Math.ceil(total / seconds), (parts) => baseMB + cacheMB * Math.min(1, parts / (total * 0.4)))
      const memory = Series.memory(samples, total)
      expect(memory.flat).toBe(true)
      expect(memory.peakMB).toBeCloseTo(baseMB + cacheMB, 6)
    }))
  })

  it("law: a steady run's rate, and each tenth's, is its parts per second", () => {
    fc.assert(fc.property(fc.integer({ min: 100, max: 50_000 }), fc.integer({ min: 20, max: 400 }), (perSecond, seconds) => {
      const total = perSecond * seconds
      const progress = Array.from({ length: seconds + 1 }, (_, second) => ({ seconds: second, parts: second * perSecond }))
      expect(Series.rate(progress, total)).toBeCloseTo(perSecond, 6)
      const tenths = Series.tenths(progress, total)
      expect(tenths.length).toBeGreaterThan(0)
      for (const rate of tenths) expect(rate).toBeCloseTo(perSecond, 6)
    }))
  })

  it("a run that slows down shows it in its tenths, and a run that never finished has no overall rate", () => {
    // 1,000 parts/s for the first half of 100,000 parts, then 250 parts/s.
    const progress = [...Array.from({ length: 51 }, (_, s) => ({ seconds: s, parts: s * 1000 })),
      ...Array.from({ length: 200 }, (_, s) => ({ seconds: 51 + s, parts: 50_000 + (s + 1) * 250 }))]
    const tenths = Series.tenths(progress, 100_000)
    expect(tenths[0]).toBeCloseTo(1000, 6)
    expect(tenths[9]).toBeCloseTo(250, 6)
    expect(Series.rate(progress.slice(0, 60), 100_000)).toBeUndefined()
  })
})
