import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Backoff from "../src/internal/backoff.ts"

describe("Backoff", () => {
  it("doubles wait after wait up to its maximum and halves on each answer taken, never below the first (law)", () => {
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 1000 }),
      fc.integer({ min: 1, max: 8 }),
      fc.array(fc.constantFrom("begin", "ease"), { maxLength: 40 }),
      (initial, doublings, steps) => {
        const max = initial * 2 ** doublings
        const backoff = Backoff.make({ initial, max })
        let expected = initial
        for (const [writes, step] of steps.entries()) {
          if (step === "ease") {
            backoff.ease()
            expected = Math.max(initial, expected / 2)
          } else {
            expect(backoff.begin(writes)).toBe(expected)
            expected = Math.min(expected * 2, max)
          }
        }
      }
    ))
  })

  it("takes a burst refused together as one step: only a write made after the wait began starts the next", () => {
    const backoff = Backoff.make({ initial: 1000, max: 60_000 })
    // Writes 1–5 were out when the first refusal came: the others are the same burst.
    expect(backoff.refused(1, 5)).toBe(1000)
    for (const written of [2, 3, 4, 5]) expect(backoff.refused(written, 5)).toBeLessThanOrEqual(1000)
    expect(backoff.pausedUntil()).toBeGreaterThan(Date.now())
    // Write 6 went out after that wait began: its refusal is the next burst.
    expect(backoff.refused(6, 6)).toBe(2000)
  })
})
