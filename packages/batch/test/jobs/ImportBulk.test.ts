/**
 * The set-based import (SQLite's staging table and merge) against the row-by-row one (the memory store): on generated
 * files and books, both give the same summary and leave the same contacts, on a first run and on a re-run.
 */
import { ContactBook, ContactStore, MemoryStore, type Msisdn } from "@smsbook/core"
import { PostgresStore, SqliteStore } from "@smsbook/store"
import { PostgresSchema } from "@smsbook/testing"
import { stringify } from "csv-stringify/sync"
import { Effect, Layer } from "effect"
import * as fc from "fast-check"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import * as Import from "../../src/jobs/Import.ts"

const temporary = fs.mkdtempSync(path.join(os.tmpdir(), "smsbook-import-bulk-"))
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }))
let files = 0

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes
}

/** A small pool of GB mobiles, so that files repeat numbers and books already hold some. */
const pool = Array.from({ length: 12 }, (_, i) => `7400 1000${String(i).padStart(2, "0")}`)
const e164 = (i: number) => `447400${String(1_000_00 + i).padStart(6, "0")}` as Msisdn.Msisdn

const names = fc.constantFrom("", "", "Ann", "Bea", "Émile", "ann")
const tags = fc.array(fc.constantFrom("news", "News", "VIP", "all", "ß", " x "), { maxLength: 3 })

const row = fc.record({
  number: fc.oneof(fc.nat({ max: pool.length - 1 }).map((i) => pool[i] ?? ""), fc.constantFrom("0740", "bad", "")),
  first: names,
  last: names,
  tags
})

/** What the book holds before the import: contacts with names and tags, some opted out, some numbers only suppressed. */
const book = fc.array(
  fc.record({ at: fc.nat({ max: pool.length - 1 }), first: names, last: names, tags, state: fc.constantFrom("kept", "kept", "opted-out", "suppressed") }),
  { maxLength: 6 }
)

const scenario = fc.record({
  rows: fc.array(row, { minLength: 1, maxLength: 30 }),
  book,
  blankErases: fc.boolean(),
  mergeEvery: fc.integer({ min: 1, max: 8 }),
  batchSize: fc.integer({ min: 1, max: 7 })
})

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never

const seed = (entries: Scenario["book"]) =>
  Effect.forEach(entries, (entry) =>
    Effect.gen(function*() {
      const msisdn = e164(entry.at)
      const store = yield* ContactStore.ContactStore
      yield* ContactBook.upsertContacts([{
        msisdn,
        country_code: "44",
        phone_number: msisdn.slice(2),
        first_name: entry.first,
        last_name: entry.last,
        tags: entry.tags
      }], { blankErases: false })
      if (entry.state === "opted-out" || entry.state === "suppressed") yield* ContactBook.optOut(msisdn)
      if (entry.state === "suppressed") yield* store.remove(msisdn)
    }), { discard: true })

const contacts = Effect.gen(function*() {
  const store = yield* ContactStore.ContactStore
  const all = yield* store.list({ limit: 1000, start: 0 })
  return all.map(({ profile_uid: _, ...contact }) => contact)
})

const comparable = ({ elapsed_ms: _e, rows_per_second: _r, ...summary }: Import.Summary) => summary

const runIn = (layer: Layer.Layer<ContactStore.ContactStore, unknown>, s: Scenario) => {
  const text = "mobile,first_name,last_name,tags\n" + stringify(s.rows.map((r) => [r.number, r.first, r.last, r.tags.join("|")]))
  const bytes = Buffer.from(text, "utf8")
  const options: Import.Options = { defaultCountry: "GB", blankErases: s.blankErases, mergeEvery: s.mergeEvery, batchSize: s.batchSize }
  return Effect.runPromise(Effect.provide(
    Effect.gen(function*() {
      yield* seed(s.book)
      const first = comparable(yield* Import.run(once(bytes), options))
      const afterFirst = yield* contacts
      const second = comparable(yield* Import.run(once(bytes), options))
      const dry = comparable(yield* Import.run(once(bytes), { ...options, dryRun: true }))
      return { first, afterFirst, second, dry, afterSecond: yield* contacts }
    }),
    layer
  ))
}

const postgresUrl = process.env["SMSBOOK_TEST_POSTGRES_URL"] ?? ""

/** A PostgreSQL store in a schema of its own, dropped after the run. */
const withPostgres = async <A>(use: (layer: Layer.Layer<ContactStore.ContactStore, unknown>) => Promise<A>): Promise<A> => {
  const schema = await PostgresSchema.make(postgresUrl, "bulk")
  try {
    return await use(PostgresStore.layer(schema.url))
  } finally {
    await schema.drop()
  }
}

describe.skipIf(postgresUrl === "")("set-based import (PostgreSQL) against row by row (memory)", () => {
  it("same summaries, same contacts, first run and re-run", async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const bulk = await withPostgres((layer) => runIn(layer, s))
        const rowByRow = await runIn(MemoryStore.layer, s)
        expect(bulk).toEqual(rowByRow)
      }),
      { numRuns: 40 }
    )
  })
})

describe("set-based import (SQLite) against row by row (memory)", () => {
  it("same summaries, same contacts, first run and re-run", async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const sqlite = SqliteStore.layer(path.join(temporary, `${++files}.db`))
        const bulk = await runIn(sqlite, s)
        const rowByRow = await runIn(MemoryStore.layer, s)
        expect(bulk).toEqual(rowByRow)
        expect(bulk.second.created + bulk.second.updated).toBe(0)
      }),
      { numRuns: 150 }
    )
  })
})
