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

describe("Format.broadcastSent", () => {
  const sent = { message_id: "m1", recipients: 3, monitors: 1, segments: 2, sent_count: 8, error_count: 0, status: "SENT" as const, handed_over: 4, resumed: false }

  it("says the audience's SMS, and the count handed to the carrier where it differs", () => {
    expect(Format.broadcastSent(sent)[1]).toBe("  (3 recipients + 1 monitors) × 2 segment(s) = 8 SMS")
    expect(Format.broadcastSent({ ...sent, sent_count: 10, resumed: true })[1]).toBe(
      "  (3 recipients + 1 monitors) × 2 segment(s) = 8 SMS; 10 SMS handed to the carrier (members reached before a stop who have left the tags since, parts cancelled for an opt-out)"
    )
  })
})
