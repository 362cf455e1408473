/**
 * The rows of a file are the same however they are read: on this thread, on the worker, or on the worker with every
 * batch's records sent back unread for this thread to read (the sharing a busy worker and an idle writer fall into).
 * And a batch survives its trip between the threads unchanged, as rows or as records.
 */
import * as Msisdn from "@smsbook/core/Msisdn"
import { stringify } from "csv-stringify/sync"
import * as fc from "fast-check"
import * as V8 from "node:v8"
import { describe, expect, it } from "vitest"
import * as ContactRows from "../../src/internal/contactRows.ts"
import * as Columns from "../../src/internal/csv/columns.ts"
import * as ReadRows from "../../src/internal/readRows.ts"
import * as RowBatches from "../../src/internal/rowBatches.ts"

const numbers = fc.oneof(
  fc.constantFrom("+44 7400 123456", "07400 123457", "7400123458", "0044 7400 123459", "+1 (212) 555-0100", "", "n/a"),
  fc.stringMatching(/^\+?[0-9 ()-]{0,16}$/),
  fc.string({ maxLength: 12 })
)

// Two to a few of the worker's 1000-row batches (`size: "max"`: fast-check would otherwise keep arrays short; six runs
// of at most one batch each once failed the check below that the files span several).
const records = fc.array(
  fc.tuple(
    numbers,
    fc.string({ maxLength: 8 }),
    fc.constantFrom("", "GB", "United States", "49"),
    fc.string({ maxLength: 10 }),
    fc.constantFrom("", "", "SUBSCRIBED", "INVITED", "confirmed", "CANCELLED", "pending"),
    fc.constantFrom("", "false", "true", "1", "maybe")
  ),
  { minLength: 1001, maxLength: 3500, size: "max" }
)

// An export's header (msisdn, status and monitoring): its status and monitoring cells are read, and travel too.
const fileOf = (rows: ReadonlyArray<ReadonlyArray<string>>): Uint8Array =>
  Buffer.from(stringify([["msisdn", "first_name", "country", "tags", "status", "monitoring"], ...rows]), "utf8")

/** The rows as a reader taking `pauseMs` between batches sees them (a slow writer: the worker then waits for room). */
const rowsOf = async (bytes: Uint8Array, options: ReadRows.Options, pauseMs = 0): Promise<Array<RowBatches.Row>> => {
  async function* source() {
    // Cut where the bytes fall, as a file's chunks do.
    for (let at = 0; at < bytes.length; at += 4096) yield bytes.subarray(at, at + 4096)
  }
  const opened = await ReadRows.open(source(), options)
  try {
    const columns = Columns.match(opened.header ?? [], undefined)
    if (columns._tag !== "Success") throw new Error("the header does not match")
    opened.start({ columns: columns.success, defaultCountry: "GB", tags: ["all"] })
    const rows: Array<RowBatches.Row> = []
    for (let batch = await opened.next(); batch.length > 0; batch = await opened.next()) {
      rows.push(...batch)
      if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs))
    }
    return rows
  } finally {
    opened.close()
  }
}

const line = fc.integer({ min: 1, max: 1_000_000 })
const text = fc.string({ unit: "grapheme", maxLength: 12 })

const msisdn = fc.stringMatching(/^[1-9][0-9]{7,14}$/).filter(Msisdn.isMsisdn)

const row: fc.Arbitrary<RowBatches.Row> = fc.oneof(
  fc.record({
    line,
    fields: fc.constant([]),
    read: fc.record({
      _tag: fc.constant("Candidate" as const),
      rule: fc.constantFrom("international", "national", "trunk-prefix-dropped", "calling-code-digits"),
      notes: fc.subarray([...ContactRows.notes]),
      optOut: fc.boolean(),
      candidate: fc.record({
        msisdn,
        country_code: fc.stringMatching(/^[1-9][0-9]{0,2}$/),
        phone_number: fc.stringMatching(/^[0-9]{4,12}$/),
        first_name: text,
        last_name: text,
        tags: fc.array(text, { maxLength: 3 }),
        status: fc.constantFrom("SUBSCRIBED", "INVITED", "CONFIRMED"),
        monitoring: fc.boolean()
      }, { requiredKeys: ["msisdn", "country_code", "phone_number", "first_name", "last_name", "tags"] })
    })
  }),
  fc.record({
    line,
    fields: fc.array(text, { maxLength: 5 }),
    read: fc.record({
      _tag: fc.constant("Reject" as const),
      reason: fc.constantFrom("missing-msisdn", "too-many-fields", "bad-encoding", "invalid", "too-short", "tag-too-long", "invalid-monitoring"),
      message: text,
      // A refused row that keeps its number's opt-out carries the number.
      optOut: msisdn
    }, { requiredKeys: ["_tag", "reason", "message"] })
  })
)

describe("reading rows", () => {
  it("on the worker, sharing batches or not, gives the rows read on this thread", async () => {
    let batches = 0
    await fc.assert(
      fc.asyncProperty(records, async (generated) => {
        const bytes = fileOf(generated)
        const here = await rowsOf(bytes, { encoding: undefined, batchSize: 250, worker: false })
        const options = { encoding: undefined, batchSize: 250, worker: true }
        expect(await rowsOf(bytes, { ...options, shareBelow: 0 })).toEqual(here)
        expect(await rowsOf(bytes, { ...options, shareBelow: Number.MAX_SAFE_INTEGER })).toEqual(here)
        // As the import runs it: batches read on the worker and batches read here, mixed, in file order.
        expect(await rowsOf(bytes, options)).toEqual(here)
        // A window of one batch and a slow reader: the worker waits for room before each batch.
        expect(await rowsOf(bytes, { ...options, shareBelow: 0, window: 1 }, 5)).toEqual(here)
        batches += Math.ceil(generated.length / ReadRows.workerBatchSize)
      }),
      // Each run starts four workers, which load the modules again.
      { numRuns: 6 }
    )
    // The files spanned several of the worker's batches, not one each.
    expect(batches).toBeGreaterThan(6)
  }, 300_000)

  it("a batch travels between the threads unchanged, as rows or as records", () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 40 }), (rows) => {
        expect(RowBatches.decode(RowBatches.encode(rows))).toEqual(rows)
      })
    )
    fc.assert(
      fc.property(fc.array(fc.record({ line, fields: fc.array(text, { maxLength: 6 }) }), { maxLength: 40 }), (records) => {
        expect(RowBatches.decodeRecords(RowBatches.encodeRecords(records))).toEqual(records)
      })
    )
  })

  it("bytes that are not a batch of records are refused as corrupt, never read as records", () => {
    for (const packed of [{ line: 2 }, [2, 3, "a", "b"], ["2", 1, "a"], [2, 1, 7], [2], [2, -2], [2, 0.5, "a"], [2, Number.NaN]]) {
      expect(() => RowBatches.decodeRecords(V8.serialize(packed))).toThrow(RowBatches.Corrupt)
    }
  })
})
