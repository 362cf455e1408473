/** The human tables: every column as wide as its widest cell, however large the counts. */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Format from "../src/Format.ts"

const count = fc.nat({ max: 10_000_000 })

const summaryRow = fc.record({
  day: fc.constantFrom("2026-11-26", "2026-11-27"),
  direction: fc.constantFrom("MT" as const, "MO" as const),
  status: fc.constantFrom("PENDING" as const, "PROCESSING" as const, "READY" as const, "SENT" as const),
  messages: count,
  sms: count,
  recipients: count,
  monitors: count,
  errors: count
})

describe("Format.reportSummary", () => {
  it("law: every line of the table is as long as the header's, and each count ends under its heading", () => {
    fc.assert(fc.property(fc.array(summaryRow, { minLength: 1, maxLength: 8 }), (summary) => {
      const [total, header = "", ...lines] = Format.reportSummary({ rows: summary.length, summary })
      expect(total).toBe(`${summary.length} messages`)
      for (const line of lines) expect(line.length).toBe(header.length)
      summary.forEach((row, i) => {
        const line = lines[i] ?? ""
        expect(line.slice(0, header.indexOf("sms") + 3).trimEnd().endsWith(String(row.sms))).toBe(true)
        expect(line.endsWith(String(row.errors))).toBe(true)
      })
    }))
  })
})

describe("Format.table", () => {
  it("aligns columns by the terminal's width of each cell: wide scripts and emoji take two columns, accents none", () => {
    const lines = Format.table(["NAME", "TAGS"], [["王小明", "a"], ["Zoë", "b"], ["Zoe\u0308", "c"], ["Ann 😀", "d"], ["Ann", "e"]])
    // Every tag starts in the same terminal column: after the widest name (王小明, 6 columns) and two spaces.
    expect(lines).toEqual(["NAME    TAGS", "王小明  a", "Zoë     b", "Zoe\u0308     c", "Ann 😀  d", "Ann     e"])
  })
})
