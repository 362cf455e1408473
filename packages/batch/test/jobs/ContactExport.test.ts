/**
 * The contact export: filters, formats, spreadsheet safety, and its law — an export imported into
 * an empty book gives the same book.
 */
import { Contact, ContactBook, ContactStore, MemoryStore } from "@smsbook/core"
import { parse } from "csv-parse/sync"
import { Effect, Layer } from "effect"
import * as fc from "fast-check"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import * as ContactExport from "../../src/jobs/ContactExport.ts"
import * as Import from "../../src/jobs/Import.ts"
import { validNumbers } from "../validNumbers.ts"

const temporary = fs.mkdtempSync(path.join(os.tmpdir(), "smsbook-export-test-"))
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }))
let files = 0
const tempPath = (name: string) => path.join(temporary, `${++files}-${name}`)

const everything = Effect.gen(function*() {
  const store = yield* ContactStore.ContactStore
  return yield* store.list({ limit: 100_000, start: 0 })
})

/** What an import carries: the number, the names, the tags (as a set, any case once), the status and monitoring. */
const essence = (contacts: ReadonlyArray<Contact.Contact>) =>
  contacts.map((c) => ({
    msisdn: c.msisdn,
    first_name: c.first_name,
    last_name: c.last_name,
    tags: [...c.tags].sort(),
    status: c.status,
    monitoring: c.monitoring
  }))

// Quotes and formula characters anywhere, `'=` first included: the export writes `''=`, which reads back as `'=`.
const name = fc.stringMatching(/^[A-Za-zÀ-ÿ'=+@ ,"\-😀]{0,12}$/u).map((text) => text.trim())
const tag = fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/)
const person = fc.record({
  n: fc.integer({ min: 100000, max: 999999 }),
  first: name,
  last: name,
  tags: fc.uniqueArray(tag, { maxLength: 3 }),
  status: fc.constantFrom(...Contact.statuses),
  monitoring: fc.boolean()
})
const book = fc.uniqueArray(person, { selector: (p) => p.n, maxLength: 25 })

interface Person {
  readonly n: number
  readonly first: string
  readonly last: string
  readonly tags: ReadonlyArray<string>
  readonly status: Contact.Status
  readonly monitoring: boolean
}

const fill = (people: ReadonlyArray<Person>) =>
  Effect.forEach(people, (p) =>
    Effect.gen(function*() {
      const msisdn = `447400${p.n}`
      const created = yield* ContactBook.createContact(msisdn, { first_name: p.first, last_name: p.last })
      // No use case invites anyone (the interface has no invitation): an invited contact is stored as such.
      if (p.status === "INVITED" || p.status === "CONFIRMED") {
        yield* Effect.flatMap(Effect.service(ContactStore.ContactStore), (store) => store.update({ ...created, status: "INVITED" }))
      }
      if (p.status === "CONFIRMED") yield* ContactBook.confirm(msisdn)
      if (p.tags.length > 0 || p.monitoring) yield* ContactBook.editContact(msisdn, { tags: p.tags, monitoring: p.monitoring })
      if (p.status === "CANCELLED") yield* ContactBook.optOut(msisdn)
    }), { discard: true })

/** Whether each person's number is on the book's suppression list. */
const suppressedOf = (people: ReadonlyArray<Person>) =>
  Effect.flatMap(Effect.service(ContactStore.ContactStore), (store) =>
    Effect.map(store.suppressed(people.map((p) => `447400${p.n}`)), (found) => people.map((p) => found.has(`447400${p.n}`))))

const exportTo = (out: string, filter: ContactExport.Filter, options: ContactExport.Options) =>
  Effect.runPromise(Effect.provide(ContactExport.write(filter, out, options), MemoryStore.layer))

describe("ContactExport laws", () => {
  it("law: an export (CSV, plain or for Excel) imported into an empty book gives the same book, every status and monitoring included", async () => {
    await fc.assert(fc.asyncProperty(book, fc.boolean(), fc.integer({ min: 1, max: 7 }), async (people, excel, pageSize) => {
      const out = tempPath("book.csv")
      const [original, again] = await Effect.runPromise(Effect.gen(function*() {
        const before = yield* Effect.provide(Effect.andThen(fill(people), Effect.andThen(ContactExport.write({ tags: [] }, out, { format: "csv", excel, pageSize }), everything)), MemoryStore.layer)
        const after = yield* Effect.provide(
          Effect.andThen(Import.run(fs.createReadStream(out), { source: out }), Effect.zip(everything, suppressedOf(people))),
          MemoryStore.layer
        )
        return [before, after] as const
      }).pipe(Effect.scoped))
      const [contacts, suppressed] = again
      expect(essence(contacts)).toEqual(essence(original))
      // An opted-out number is on the new book's suppression list too: deleted, it would come back CANCELLED.
      expect(suppressed).toEqual(people.map((p) => p.status === "CANCELLED"))
    }), { numRuns: 40 })
  })

  it("law: an export imported with any --default-country gives the same numbers, of every country and type", async () => {
    // Bare MSISDN digits that often read as a national number too, or as another valid number of their own country.
    const numbers = validNumbers()
    await fc.assert(fc.asyncProperty(
      fc.uniqueArray(fc.constantFrom(...numbers), { minLength: 1, maxLength: 30 }),
      fc.constantFrom("US", "DE", "IT", "IN", "CN", "MX", "BR", "RU", "GB", "FR", "IS", "NG"),
      async (numbers, defaultCountry) => {
        const out = tempPath("world.csv")
        const before = await Effect.runPromise(Effect.provide(
          Effect.andThen(Effect.forEach(numbers, (msisdn) => ContactBook.createContact(msisdn, {})), Effect.andThen(ContactExport.write({ tags: [] }, out, { format: "csv", excel: false }), everything)),
          MemoryStore.layer
        ))
        const after = await Effect.runPromise(Effect.provide(
          Effect.andThen(Import.run(fs.createReadStream(out), { source: out, defaultCountry }), everything).pipe(Effect.scoped),
          MemoryStore.layer
        ))
        expect(after.map((c) => c.msisdn)).toEqual(before.map((c) => c.msisdn))
      }
    ), { numRuns: 40 })
  })

  it("law: the export holds exactly the contacts matching the filters, each once, whatever the page size", async () => {
    await fc.assert(fc.asyncProperty(book, fc.uniqueArray(tag, { maxLength: 2 }), fc.integer({ min: 1, max: 5 }), async (people, wanted, pageSize) => {
      const out = tempPath("some.jsonl")
      const [all, result] = await Effect.runPromise(Effect.provide(Effect.gen(function*() {
        yield* fill(people)
        const result = yield* ContactExport.write({ tags: wanted }, out, { format: "jsonl", excel: false, pageSize })
        return [yield* everything, result] as const
      }), MemoryStore.layer))
      const lines = fs.readFileSync(out, "utf8").split("\n").filter((line) => line !== "").map((line) => JSON.parse(line))
      const expected = all.filter((c) => wanted.length === 0 || c.tags.some((t) => wanted.includes(t.toLowerCase())))
      expect(lines).toEqual(JSON.parse(JSON.stringify(expected)))
      expect(result.rows).toBe(expected.length)
    }), { numRuns: 40 })
  })
})

/**
 * The memory store, where another writer changes the book before the export's place in it between any two pages the
 * export reads: it adds a contact before every other, or deletes the first (whose numbers go to `deleted`).
 */
const churning = (adds: boolean, deleted: Array<string>) =>
  Layer.effect(
    ContactStore.ContactStore,
    Effect.map(Effect.service(ContactStore.ContactStore), (store) => {
      let pages = 0
      const change = Effect.gen(function*() {
        // 4474000…: a mobile number before every person's (447400100000 and on).
        if (adds) {
          yield* ContactBook.createContact(`4474000${String(pages).padStart(5, "0")}`, {})
          return
        }
        const [first] = yield* store.list({ limit: 1, start: 0 })
        if (first === undefined) return
        deleted.push(first.msisdn)
        yield* store.remove(first.msisdn)
      })
      return ContactStore.ContactStore.of({
        ...store,
        list: (filter) =>
          Effect.andThen(pages++ > 0 ? change : Effect.void, store.list(filter)).pipe(
            Effect.provideService(ContactStore.ContactStore, store),
            Effect.orDie
          )
      })
    })
  ).pipe(Layer.provide(MemoryStore.layer))

describe("ContactExport under other writers", () => {
  it("law: contacts added or deleted before its place in the book shift nothing: each one there throughout is written once", async () => {
    await fc.assert(fc.asyncProperty(book, fc.integer({ min: 1, max: 5 }), fc.boolean(), async (people, pageSize, adds) => {
      const out = tempPath("churn.jsonl")
      const deleted: Array<string> = []
      await Effect.runPromise(Effect.provide(
        Effect.andThen(fill(people), ContactExport.write({ tags: [] }, out, { format: "jsonl", excel: false, pageSize })),
        churning(adds, deleted)
      ))
      const written: ReadonlyArray<string> = fs.readFileSync(out, "utf8").split("\n").filter((line) => line !== "")
        .map((line) => JSON.parse(line).msisdn)
      expect(new Set(written).size).toBe(written.length)
      expect([...written].sort()).toEqual(written)
      for (const p of people) if (!deleted.includes(`447400${p.n}`)) expect(written).toContain(`447400${p.n}`)
    }), { numRuns: 60 })
  })
})

describe("ContactExport examples", () => {
  it("CSV is spreadsheet-safe, in the import's column names; --excel adds a BOM and CRLF", async () => {
    const out = tempPath("safe.csv")
    await Effect.runPromise(Effect.provide(Effect.gen(function*() {
      yield* ContactBook.createContact("447400123456", { first_name: "=HYPERLINK(\"x\")", last_name: "Zoë 😀" })
      yield* ContactExport.write({ tags: [] }, out, { format: "csv", excel: true })
    }), MemoryStore.layer))
    const text = fs.readFileSync(out, "utf8")
    expect(text.startsWith("\uFEFFmsisdn,first_name,last_name,tags,status,monitoring,country_code\r\n")).toBe(true)
    const rows = parse(text.slice(1), { columns: true })
    expect(rows).toEqual([{ msisdn: "447400123456", first_name: "'=HYPERLINK(\"x\")", last_name: "Zoë 😀", tags: "", status: "SUBSCRIBED", monitoring: "false", country_code: "44" }])
  })

  it("JSON is one array of wire contacts; an empty book is []", async () => {
    const out = tempPath("empty.json")
    expect(await exportTo(out, { tags: [] }, { format: "json", excel: false })).toMatchObject({ rows: 0 })
    expect(JSON.parse(fs.readFileSync(out, "utf8"))).toEqual([])
  })
})
