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
import * as Format from "../../src/Format.ts"
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
  tags,
  // A status cell opts its number out when it says so (an export of another book); INVITED or CONFIRMED is the state a
  // contact the row creates starts in, as is its monitoring cell ("maybe" refuses the row).
  status: fc.constantFrom("", "", "SUBSCRIBED", "CANCELLED", "unsubscribed", "INVITED", "confirmed", "pending"),
  monitoring: fc.constantFrom("false", "false", "", "true", "TRUE", "1", "no", "maybe")
})

/** What the book holds before the import: contacts with names and tags, some opted out, some numbers only suppressed. */
const book = fc.array(
  fc.record({ at: fc.nat({ max: pool.length - 1 }), first: names, last: names, tags, state: fc.constantFrom("kept", "kept", "invited-monitor", "opted-out", "suppressed") }),
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
      // An invited monitor: what no import gives a contact it holds, nor takes from it.
      if (entry.state === "invited-monitor") {
        const [stored] = (yield* store.getMany([msisdn])).values()
        if (stored !== undefined && stored.status !== "CANCELLED") yield* store.update({ ...stored, status: "INVITED", monitoring: true })
      }
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
  // As `contacts export` writes them: its msisdn, status and monitoring columns are what make the import read `status`.
  const text = "msisdn,first_name,last_name,tags,status,monitoring\n" +
    stringify(s.rows.map((r) => [r.number, r.first, r.last, r.tags.join("|"), r.status, r.monitoring]))
  const bytes = Buffer.from(text, "utf8")
  const options: Import.Options = { defaultCountry: "GB", blankErases: s.blankErases, mergeEvery: s.mergeEvery, batchSize: s.batchSize }
  return Effect.runPromise(Effect.provide(
    Effect.gen(function*() {
      yield* seed(s.book)
      const beforeFirst = yield* contacts
      const first = comparable(yield* Import.run(once(bytes), options))
      const afterFirst = yield* contacts
      const second = comparable(yield* Import.run(once(bytes), options))
      const dry = comparable(yield* Import.run(once(bytes), { ...options, dryRun: true }))
      const optedOut = [...new Set(s.rows.filter((r) => /cancelled|unsubscribed/i.test(r.status)).map((r) => pool.indexOf(r.number)))]
        .filter((at) => at >= 0)
        .map(e164)
      const suppressed = yield* Effect.flatMap(Effect.service(ContactStore.ContactStore), (store) => store.suppressed(optedOut))
      return { beforeFirst, first, afterFirst, second, dry, afterSecond: yield* contacts, optedOut, suppressed: [...suppressed].sort() }
    }),
    layer
  ))
}

/**
 * A number merged, then staged again in a later window with a later row of it waiting behind: the merge hands the
 * staged row back, and it must take its tags before the waiting row's (file order), as row by row.
 */
const handedBack: Scenario = {
  rows: [
    { number: pool[0] ?? "", first: "Ann", last: "", tags: ["news"], status: "", monitoring: "false" },
    { number: pool[1] ?? "", first: "", last: "", tags: [], status: "", monitoring: "false" },
    { number: pool[0] ?? "", first: "", last: "", tags: ["VIP"], status: "", monitoring: "false" },
    { number: pool[0] ?? "", first: "Bea", last: "", tags: ["all"], status: "", monitoring: "false" },
    { number: pool[2] ?? "", first: "", last: "", tags: [], status: "", monitoring: "false" }
  ],
  book: [],
  blankErases: false,
  mergeEvery: 2,
  batchSize: 1
}

/** The import's handed-back row and waiting row of `handedBack`'s first number, in the order they took effect. */
const expectHandedBackOrder = (run: Awaited<ReturnType<typeof runIn>>) => {
  const first = run.afterFirst.find((contact) => contact.msisdn === e164(0))
  expect(first?.first_name).toBe("Ann")
  expect(first?.tags).toEqual(["news", "VIP", "all"])
  expect(run.first.duplicates).toBe(2)
}

/**
 * Every number a row says opted out ends suppressed, and CANCELLED where it has a contact (a row refused for its
 * monitoring cell keeps its opt-out but makes no contact), whatever its other rows and the book said.
 */
const expectOptOutsKept = (run: Awaited<ReturnType<typeof runIn>>) => {
  expect(run.second.opted_out_by_file).toBe(0)
  const notCancelled = run.afterFirst.filter((contact) => contact.status !== "CANCELLED").map((contact) => contact.msisdn)
  expect(run.optedOut.filter((msisdn) => notCancelled.includes(msisdn))).toEqual([])
  expect(run.suppressed).toEqual([...run.optedOut].sort())
}

/**
 * A number the book did not hold starts in the state of its first row the import took (a row with an unreadable
 * monitoring cell is refused): INVITED or CONFIRMED, monitoring or not, unless a row of it or the suppression list opts
 * it out; a number the book held (an invited monitor among them) keeps its status and monitoring.
 */
const expectStartingStates = (s: Scenario, run: Awaited<ReturnType<typeof runIn>>) => {
  const before = new Map(run.beforeFirst.map((contact) => [contact.msisdn, contact]))
  const monitors: Record<string, boolean> = { "true": true, "1": true }
  for (const contact of run.afterFirst) {
    const rows = s.rows.filter((r) => r.number !== "" && e164(pool.indexOf(r.number)) === contact.msisdn)
    const held = before.get(contact.msisdn)
    if (held !== undefined) {
      // The book's own state, whatever the file says (but an opt-out).
      expect([contact.msisdn, contact.monitoring]).toEqual([held.msisdn, held.monitoring])
      if (contact.status !== "CANCELLED") expect([contact.msisdn, contact.status]).toEqual([held.msisdn, held.status])
      continue
    }
    const first = rows.find((r) => r.monitoring !== "maybe")
    if (first === undefined) continue
    expect(contact.monitoring).toBe(monitors[first.monitoring.toLowerCase()] === true)
    // An opt-out in the file, or one the number's earlier contact left on the suppression list, makes it CANCELLED.
    if (rows.some((r) => /cancelled|unsubscribed/i.test(r.status))) continue
    if (s.book.some((entry) => e164(entry.at) === contact.msisdn)) continue
    const starting = first.status.toUpperCase()
    expect(contact.status).toBe(starting === "INVITED" || starting === "CONFIRMED" ? starting : "SUBSCRIBED")
  }
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
        expectOptOutsKept(bulk)
        expectStartingStates(s, bulk)
      }),
      { numRuns: 40 }
    )
  })

  it("a row the merge hands back takes effect before its number's waiting rows", async () => {
    const bulk = await withPostgres((layer) => runIn(layer, handedBack))
    expectHandedBackOrder(bulk)
    expect(bulk).toEqual(await runIn(MemoryStore.layer, handedBack))
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
        expectOptOutsKept(bulk)
        expectStartingStates(s, bulk)
      }),
      { numRuns: 150 }
    )
  })

  it("merges once mergeEvery rows are staged or waiting, however few numbers the file has", async () => {
    // Two numbers, each written ten times: only two rows are ever staged, the other eighteen wait for merges.
    const tags = ["news", "VIP", "all"] as const
    const rows: Scenario["rows"] = Array.from({ length: 20 }, (_, i) => ({ number: pool[i % 2] ?? "", first: "", last: "", tags: [tags[i % 3] ?? "all"], status: "", monitoring: "" }))
    const s: Scenario = { rows, book: [], blankErases: false, mergeEvery: 4, batchSize: 1 }
    let merges = 0
    const counting = Layer.effect(
      ContactStore.ContactStore,
      Effect.map(Effect.service(ContactStore.ContactStore), (store) =>
        ContactStore.ContactStore.of({
          ...store,
          bulkImport: (options) =>
            Effect.map(store.bulkImport?.(options) ?? Effect.die("no bulk import"), (bulk) => ({
              ...bulk,
              merge: (limit, last) => Effect.suspend(() => (merges++, bulk.merge(limit, last)))
            }))
        }))
    ).pipe(Layer.provide(SqliteStore.layer(path.join(temporary, `${++files}.db`))))
    const bulk = await runIn(counting, s)
    expect(bulk).toEqual(await runIn(MemoryStore.layer, s))
    // Three imports (first run, re-run, dry run) of 20 rows, a merge at least every 4 rows staged or waiting.
    expect(merges).toBeGreaterThanOrEqual(3 * 5)
  })

  it("a row the merge hands back takes effect before its number's waiting rows", async () => {
    const bulk = await runIn(SqliteStore.layer(path.join(temporary, `${++files}.db`)), handedBack)
    expectHandedBackOrder(bulk)
    expect(bulk).toEqual(await runIn(MemoryStore.layer, handedBack))
  })
})

describe("the summary's list of opted-out numbers", () => {
  const limit = Import.optedOutListLimit
  /** A book of `limit + 1` opted-out contacts, then a file of `numbers` of them; `repeat` writes the first one twice. */
  const importOptedOut = (layer: Layer.Layer<ContactStore.ContactStore, unknown>, numbers: number, repeat: boolean) => {
    const indexes = Array.from({ length: numbers }, (_, i) => i)
    const lines = [...indexes, ...(repeat ? [0] : [])].map((i) => `+${e164(i)}`)
    const bytes = Buffer.from(["mobile", ...lines].join("\n"), "utf8")
    return Effect.runPromise(Effect.provide(
      Effect.gen(function*() {
        yield* seed(Array.from({ length: limit + 1 }, (_, at) => ({ at, first: "", last: "", tags: [], state: "opted-out" })))
        return yield* Import.run(once(bytes), { defaultCountry: "GB", mergeEvery: 37, batchSize: 10 })
      }),
      layer
    ))
  }
  const optedOutLine = (summary: Import.Summary) => Format.importSummary("f.csv", summary).find((line) => line.includes("opted-out"))

  it.each([
    ["row by row (memory)", () => MemoryStore.layer],
    ["set-based (SQLite)", () => SqliteStore.layer(path.join(temporary, `${++files}.db`))]
  ])("%s: a list of exactly the limit is whole, one more number cuts it", async (_, layer) => {
    // The limit's numbers in limit + 1 rows: more rows than the list holds, yet every number is in it.
    const exact = await importOptedOut(layer(), limit, true)
    expect(exact.opted_out).toBe(limit + 1)
    expect(new Set(exact.opted_out_msisdns).size).toBe(limit)
    expect(exact.opted_out_msisdns_complete).toBe(true)
    expect(optedOutLine(exact)).not.toContain("…")

    const over = await importOptedOut(layer(), limit + 1, false)
    expect(over.opted_out).toBe(limit + 1)
    expect(over.opted_out_msisdns).toHaveLength(limit)
    expect(over.opted_out_msisdns_complete).toBe(false)
    expect(optedOutLine(over)).toMatch(/, …$/)
  })
})
