/** Control characters out of imported names: replaced by spaces, counted, everything else untouched. */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as CleanText from "../../src/internal/cleanText.ts"

describe("CleanText.replaceControls", () => {
  it("keeps the length, leaves no control, and changes exactly the counted characters", () => {
    fc.assert(fc.property(fc.string({ unit: "binary" }), (text) => {
      const clean = CleanText.replaceControls(text)
      expect(clean.length).toBe(text.length)
      expect(CleanText.countControls(clean)).toBe(0)
      let changed = 0
      for (let i = 0; i < text.length; i++) if (text[i] !== clean[i]) changed++
      expect(changed).toBe(CleanText.countControls(text))
    }))
  })

  it("a NUL, a tab and an escape in a name become spaces", () => {
    expect(CleanText.replaceControls("A\u0000n\tn\u001B")).toBe("A n n ")
    expect(CleanText.countControls("A\u0000n\tn\u001B\u0085")).toBe(4)
  })
})
