/**
 * Laws of spreadsheet-safe CSV cells: exactly the cells a spreadsheet would read as a formula get a
 * leading `'`, and nothing else about any cell changes.
 */
import { parse } from "csv-parse/sync"
import { stringify } from "csv-stringify/sync"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as spreadsheet from "../../../src/internal/csv/spreadsheet.ts"

const formulaStarts = ["=", "+", "-", "@", "\t", "\r"] as const

/** Any text, with formula characters and blanks frequent enough to matter. */
const cell = fc.oneof(
  fc.string(),
  fc.string({ unit: fc.constantFrom(...formulaStarts, "'", " ", "\n", "a", "1", "\"", ",") }),
  fc.tuple(fc.constantFrom(...formulaStarts), fc.string()).map(([start, rest]) => start + rest)
)

const startsWithFormula = (text: string): boolean => formulaStarts.some((start) => text.startsWith(start))

/** A cell a reader of smsbook's files would take for a neutralised one: `'`s, then a formula character. */
const looksNeutralised = (text: string): boolean => /^'+[=+\-@\t\r]/.test(text)

describe("spreadsheet.neutralize", () => {
  it("law: the result starts with one more ' exactly when the cell starts with = + - @ tab or CR, or looks neutralised already", () => {
    fc.assert(fc.property(cell, (text) => {
      const out = spreadsheet.neutralize(text)
      if (startsWithFormula(text) || looksNeutralised(text)) {
        expect(out).toBe(`'${text}`)
      } else {
        expect(out).toBe(text)
      }
    }))
  })

  it("law: nothing after the first character of the cell is ever changed", () => {
    fc.assert(fc.property(cell, (text) => {
      const out = spreadsheet.neutralize(text)
      expect(out.endsWith(text)).toBe(true)
      expect(out.length - text.length).toBeLessThanOrEqual(1)
    }))
  })

  it("law: a formula character anywhere but first is left alone", () => {
    fc.assert(fc.property(
      // Heads that start the cell as a formula does, or as a neutralised one does (`'` then a formula character, as
      // `'= ` in a random string), are the first law's, not this one's.
      fc.string({ minLength: 1 }).filter((text) => !startsWithFormula(text) && !looksNeutralised(text) && !/^'*$/.test(text)),
      fc.constantFrom(...formulaStarts),
      fc.string(),
      (head, formula, tail) => {
        const text = head + formula + tail
        expect(spreadsheet.neutralize(text)).toBe(text)
      }
    ))
  })

  it("law: no neutralised cell starts with a formula character", () => {
    fc.assert(fc.property(cell, (text) => {
      expect(startsWithFormula(spreadsheet.neutralize(text))).toBe(false)
    }))
  })

  it("examples", () => {
    const written: ReadonlyArray<readonly [string, string]> = [
      ["=SUM(A1:A9)", "'=SUM(A1:A9)"], ["+44 7400 123456", "'+44 7400 123456"], ["-1", "'-1"], ["@cmd", "'@cmd"],
      ["\tx", "'\tx"], ["\rx", "'\rx"], ["", ""], ["hello = world", "hello = world"], [" =1", " =1"], ["\n=1", "\n=1"],
      ["'=1", "''=1"], ["'hello", "'hello"]
    ]
    for (const [cell, out] of written) expect(spreadsheet.neutralize(cell)).toBe(out)
  })
})

describe("spreadsheet.casts", () => {
  it("booleans are true/false, never 1/empty", () => {
    expect(spreadsheet.casts.boolean(true)).toBe("true")
    expect(spreadsheet.casts.boolean(false)).toBe("false")
  })

  it("law: numbers are their plain text", () => {
    fc.assert(fc.property(fc.integer(), (n) => {
      expect(Number(spreadsheet.casts.number(n))).toBe(n)
    }))
  })

  // Read back with the record delimiter it was written with: whether a bare CR inside a cell survives a reader
  // that guesses the delimiter is the report's concern (see Report.test.ts).
  it("law: through csv-stringify and back, every cell reads as its neutralised text", () => {
    fc.assert(fc.property(fc.array(fc.tuple(cell, fc.boolean(), fc.nat()), { minLength: 1, maxLength: 8 }), (rows) => {
      const text = stringify(rows.map(([s, b, n]) => [s, b, n]), { cast: spreadsheet.casts, record_delimiter: "unix" })
      const back: ReadonlyArray<ReadonlyArray<string>> = parse(text, { record_delimiter: "\n" })
      expect(back).toEqual(rows.map(([s, b, n]) => [spreadsheet.neutralize(s), b ? "true" : "false", String(n)]))
    }))
  })
})

describe("neutralizeRaw", () => {
  it("law: a cell copied from an input file reads back (restored) as the original cell reads", () => {
    fc.assert(fc.property(cell, (text) => {
      expect(spreadsheet.restore(spreadsheet.neutralizeRaw(text))).toBe(spreadsheet.restore(text))
      expect(startsWithFormula(spreadsheet.neutralizeRaw(text))).toBe(false)
    }))
  })
})

describe("restore", () => {
  it("law: undoes neutralize for every cell, so rejects files and exports read back as the original cells", () => {
    fc.assert(fc.property(fc.oneof(cell, fc.tuple(fc.string({ unit: fc.constant("'"), maxLength: 3 }), cell).map(([quotes, rest]) => quotes + rest)), (text) => {
      expect(spreadsheet.restore(spreadsheet.neutralize(text))).toBe(text)
    }))
    expect(spreadsheet.restore("'=SUM(A1)")).toBe("=SUM(A1)")
    expect(spreadsheet.restore("''=SUM(A1)")).toBe("'=SUM(A1)")
    expect(spreadsheet.restore("'hello")).toBe("'hello")
  })
})
