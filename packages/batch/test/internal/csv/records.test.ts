/**
 * Reading contact files whatever wrote them: CR, LF and CR LF end records in any mix, with the physical line
 * of each record; UTF-16 and UTF-32 without a BOM read by their NUL pattern; other NUL patterns refused.
 */
import * as fc from "fast-check"
import iconv from "iconv-lite"
import { describe, expect, it } from "vitest"
import * as Dialect from "../../../src/internal/csv/dialect.ts"
import * as CsvRecords from "../../../src/internal/csv/records.ts"

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes
}

const readAll = async (bytes: Uint8Array) => {
  const reader = await CsvRecords.open(once(bytes), { batchSize: 1000 })
  const rows: Array<CsvRecords.Row> = []
  for (;;) {
    const batch = await reader.next()
    if (batch.length === 0) break
    rows.push(...batch)
  }
  reader.close()
  return { rows, encoding: reader.encoding() }
}

describe("CsvRecords line ends", () => {
  it("any mix of CR, LF and CR LF: one record per line, on its physical line", async () => {
    await fc.assert(fc.asyncProperty(
      fc.array(fc.tuple(fc.stringMatching(/^[a-z0-9]{1,6}$/), fc.constantFrom("\r", "\n", "\r\n")), { minLength: 1, maxLength: 20 }),
      async (lines) => {
        const text = "msisdn,name\r\n" + lines.map(([cell, end], i) => `${i},${cell}${end}`).join("")
        const { rows } = await readAll(Buffer.from(text, "utf8"))
        expect(rows.map((row) => [...row.fields])).toEqual([["msisdn", "name"], ...lines.map(([cell], i) => [String(i), cell])])
        expect(rows.map((row) => row.line)).toEqual(rows.map((_, i) => i + 1))
      }
    ))
  })
})

describe("Dialect.wideEncodingOf", () => {
  it("reads UTF-16 and UTF-32 without a BOM, both byte orders", async () => {
    const text = "msisdn,first_name\n447400123456,Zoë\n"
    for (const encoding of ["utf-16le", "utf-16be", "utf-32le", "utf-32be"]) {
      const { rows, encoding: found } = await readAll(iconv.encode(text, encoding, { addBOM: false }))
      expect([encoding, found, rows.map((row) => [...row.fields])]).toEqual([encoding, encoding, [["msisdn", "first_name"], ["447400123456", "Zoë"]]])
    }
  })

  it("leaves UTF-8 and 8-bit text alone, and refuses NUL bytes in no known pattern", async () => {
    expect(Dialect.wideEncodingOf(Buffer.from("msisdn", "utf8"))).toBeUndefined()
    expect(Dialect.wideEncodingOf(Buffer.from([0, 0, 0, 0]))).toBeInstanceOf(Dialect.Undecodable)
    await expect(readAll(Buffer.from([0, 0, 0, 0, 0x41]))).rejects.toBeInstanceOf(CsvRecords.Malformed)
  })
})
