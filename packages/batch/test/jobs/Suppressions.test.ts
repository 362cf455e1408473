/**
 * The suppression list as files: its laws (an export loaded into another book gives the same list; a load opts out
 * every number it reads, creates no contact, accounts for every row, and a dry run or a re-run changes nothing), and
 * the sample do-not-contact list as their example.
 */
import { ContactBook, ContactStore, MemoryStore, Msisdn } from "@smsbook/core"
import { SqliteStore } from "@smsbook/store"
import { Cause, Effect, Exit, Layer, Result } from "effect"
import * as fc from "fast-check"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, describe, expect, it } from "vitest"
import * as Suppressions from "../../src/jobs/Suppressions.ts"
import { validNumbers } from "../validNumbers.ts"

const temporary = fs.mkdtempSync(path.join(os.tmpdir(), "smsbook-suppressions-test-"))
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }))
let files = 0
const tempPath = (name: string) => path.join(temporary, `${++files}-${name}`)

const samples = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../samples")

const number = (n: number): Msisdn.Msisdn => Result.getOrThrow(Msisdn.parse(`447400${String(n).padStart(6, "0")}`))

/**
 * A book: contacts (some opted out, some of those deleted) and numbers opted out without a contact, from a range small
 * enough that a file's numbers often meet them.
 */
const book = fc.record({
  contacts: fc.uniqueArray(fc.record({ n: fc.integer({ min: 100000, max: 100040 }), optedOut: fc.boolean(), deleted: fc.boolean() }), {
    selector: (c) => c.n,
    maxLength: 20
  }),
  alone: fc.uniqueArray(fc.integer({ min: 100041, max: 100080 }), { maxLength: 20 })
})
type Book = typeof book extends fc.Arbitrary<infer B> ? B : never

const fill = ({ alone, contacts }: Book) =>
  Effect.gen(function*() {
    const store = yield* ContactStore.ContactStore
    for (const contact of contacts) {
      yield* ContactBook.createContact(number(contact.n), {})
      if (contact.optedOut) yield* ContactBook.optOut(number(contact.n))
      if (contact.deleted) yield* ContactBook.deleteContact(number(contact.n))
    }
    if (alone.length > 0) yield* store.cancel(alone.map(number))
  })

const everySuppressed = Effect.flatMap(Effect.service(ContactStore.ContactStore), (store) => store.listSuppressed({ limit: 100_000 }))
const everyContact = Effect.flatMap(Effect.service(ContactStore.ContactStore), (store) => store.list({ limit: 100_000, start: 0 }))

const loadFile = (file: string, options: Suppressions.LoadOptions = {}) =>
  Suppressions.load(fs.createReadStream(file), { source: file, ...options })

const loadText = (text: string, options: Suppressions.LoadOptions = {}) => {
  const file = tempPath("list.csv")
  fs.writeFileSync(file, text)
  return loadFile(file, options)
}

describe("Suppressions laws", () => {
  it("law: an export (CSV, plain or for Excel) loaded into an empty book gives the same list, deleted contacts' numbers included", async () => {
    await fc.assert(fc.asyncProperty(book, fc.boolean(), fc.integer({ min: 1, max: 7 }), async (people, excel, pageSize) => {
      const out = tempPath("suppressed.csv")
      const [before, exported] = await Effect.runPromise(Effect.provide(
        Effect.andThen(fill(people), Effect.zip(everySuppressed, Suppressions.write(out, { format: "csv", excel, pageSize }))),
        MemoryStore.layer
      ))
      expect(exported.rows).toBe(before.length)
      const [after, contacts, loaded] = await Effect.runPromise(Effect.provide(
        Effect.flatMap(loadFile(out), (loaded) => Effect.map(Effect.zip(everySuppressed, everyContact), ([list, all]) => [list, all, loaded] as const)),
        MemoryStore.layer
      ))
      expect(after).toEqual(before)
      expect(contacts).toEqual([])
      expect(loaded).toMatchObject({ read: before.length, numbers: before.length, added: before.length, rejected: 0, committed: true })
      if (before.length > 0) expect(loaded.columns).toEqual({ msisdn: "suppressed_msisdn", country: "country_code" })
    }), { numRuns: 40 })
  })

  it("law: a load opts out every number it reads and no other, creates no contact, and accounts for every row (a file of rows none of which reads is refused)", async () => {
    const row = fc.oneof(
      fc.integer({ min: 100000, max: 100080 }).map((n) => ({ n, text: `0${number(n).slice(2)}` })),
      fc.integer({ min: 100000, max: 100080 }).map((n) => ({ n, text: `+${number(n)}` })),
      fc.constantFrom({ n: undefined, text: "not a number" }, { n: undefined, text: "07400 12" })
    )
    await fc.assert(fc.asyncProperty(book, fc.array(row, { maxLength: 30 }), fc.boolean(), async (people, rows, dryRun) => {
      const text = `Phone,Notes\n${rows.map((r) => `${r.text},x`).join("\n")}\n`
      const [before, beforeContacts, loaded, after, afterContacts] = await Effect.runPromise(Effect.provide(
        Effect.gen(function*() {
          yield* fill(people)
          const before = yield* everySuppressed
          const beforeContacts = yield* everyContact
          const loaded = yield* Effect.exit(loadText(text, { defaultCountry: "GB", dryRun }))
          return [before, beforeContacts, loaded, yield* everySuppressed, yield* everyContact] as const
        }),
        MemoryStore.layer
      ))
      const read: ReadonlyArray<string> = [...new Set(rows.flatMap((r) => r.n === undefined ? [] : [number(r.n)]))]
      if (rows.length > 0 && read.length === 0) {
        expect(Exit.isFailure(loaded) && Cause.squash(loaded.cause)).toMatchObject({ _tag: "InvalidParameter", parameter: "FILE" })
        expect([after, afterContacts]).toEqual([before, beforeContacts])
        return
      }
      const expected = [...new Set([...before, ...read])].sort()
      expect(after).toEqual(dryRun ? before : expected)
      expect(Exit.isSuccess(loaded) && loaded.value).toMatchObject({
        read: rows.length,
        numbers: read.length,
        duplicates: rows.filter((r) => r.n !== undefined).length - read.length,
        rejected: rows.filter((r) => r.n === undefined).length,
        added: read.filter((msisdn) => !before.includes(msisdn)).length,
        already_suppressed: read.filter((msisdn) => before.includes(msisdn)).length,
        contacts_opted_out: beforeContacts.filter((c) => c.status !== "CANCELLED" && read.includes(c.msisdn)).length,
        dry_run: dryRun,
        committed: !dryRun
      })
      // The same contacts, those of the numbers read now CANCELLED; nothing else about them changes.
      expect(afterContacts).toEqual(
        beforeContacts.map((c) => !dryRun && read.includes(c.msisdn) ? { ...c, status: "CANCELLED" } : c)
      )
    }), { numRuns: 60 })
  })

  it("law: an export loaded with any --default-country gives the same list, numbers of every country and type included", async () => {
    // Bare MSISDN digits that often read as a national number too, or as another valid number of their own country.
    const numbers = validNumbers()
    expect(numbers.length).toBeGreaterThan(1000)
    await fc.assert(fc.asyncProperty(
      fc.subarray(numbers, { minLength: 1, maxLength: 40 }),
      fc.constantFrom("US", "DE", "IT", "IN", "CN", "MX", "BR", "RU", "GB", "FR", "IS", "NG"),
      fc.boolean(),
      async (numbers, defaultCountry, excel) => {
        const out = tempPath("numbers.csv")
        const before = await Effect.runPromise(Effect.provide(
          Effect.gen(function*() {
            const store = yield* ContactStore.ContactStore
            yield* store.cancel(numbers)
            yield* Suppressions.write(out, { format: "csv", excel, pageSize: 7 })
            return yield* everySuppressed
          }),
          MemoryStore.layer
        ))
        const [loaded, after] = await Effect.runPromise(Effect.provide(Effect.zip(loadFile(out, { defaultCountry }), everySuppressed), MemoryStore.layer))
        expect(after).toEqual(before)
        expect(loaded).toMatchObject({ numbers: numbers.length, rejected: 0 })
      }
    ), { numRuns: 60 })
  })

  it("law: loading the same file again changes nothing: every number is already on the list", async () => {
    await fc.assert(fc.asyncProperty(fc.uniqueArray(fc.integer({ min: 100000, max: 999999 }), { maxLength: 30 }), async (ns) => {
      const text = `msisdn\n${ns.map(number).join("\n")}\n`
      const again = await Effect.runPromise(Effect.provide(Effect.andThen(loadText(text), loadText(text)), MemoryStore.layer))
      expect(again).toMatchObject({ numbers: ns.length, added: 0, already_suppressed: ns.length, contacts_opted_out: 0 })
    }), { numRuns: 30 })
  })
})

describe("Suppressions examples", () => {
  it("the sample do-not-contact list, into a SQLite book: the people it names CANCELLED, its bad row in the rejects at its line", async () => {
    const rejects = tempPath("rejects.csv")
    const layer = Layer.fresh(SqliteStore.layer(tempPath("book.db")))
    const [loaded, cancelled, listed, exported] = await Effect.runPromise(Effect.provide(
      Effect.gen(function*() {
        for (const [msisdn, first_name] of [["447400123457", "Oliver"], ["447400445566", "Mohammed"], ["447400123456", "Amelia"]] as const) {
          yield* ContactBook.createContact(msisdn, { first_name })
        }
        const loaded = yield* loadFile(path.join(samples, "do-not-contact.csv"), { defaultCountry: "GB", rejectsPath: rejects })
        const contacts = yield* everyContact
        const out = tempPath("out.jsonl")
        yield* Suppressions.write(out, { format: "jsonl", excel: false, pageSize: 2 })
        return [loaded, contacts.filter((c) => c.status === "CANCELLED").map((c) => c.first_name), yield* everySuppressed, fs.readFileSync(out, "utf8")] as const
      }),
      layer
    ))
    expect(loaded).toMatchObject({
      read: 7,
      numbers: 5,
      added: 5,
      already_suppressed: 0,
      contacts_opted_out: 2,
      duplicates: 1,
      rejected: 1,
      reasons: { invalid: 1 },
      rejects_file: rejects,
      columns: { msisdn: "Phone Number", country: "Country" },
      columns_not_read: ["Date Added", "Source"]
    })
    expect(cancelled).toEqual(["Oliver", "Mohammed"])
    expect(listed).toEqual(["14155552671", "33612345678", "447400123457", "447400445566", "447400990011"])
    expect(exported.split("\n").filter((line) => line !== "").map((line) => JSON.parse(line))).toEqual([
      { msisdn: "14155552671", country_code: "1" },
      { msisdn: "33612345678", country_code: "33" },
      { msisdn: "447400123457", country_code: "44" },
      { msisdn: "447400445566", country_code: "44" },
      { msisdn: "447400990011", country_code: "44" }
    ])
    expect(fs.readFileSync(rejects, "utf8").split(/\r?\n/)[1]).toMatch(/^8,invalid,/)
  })

  it("a cell that is not valid text refuses a row only where its number is: another column may hold anything", async () => {
    const bytes = Buffer.concat([Buffer.from("msisdn,name\n447400100001,"), Buffer.from([0xff, 0xfe, 0x41]), Buffer.from("\n4474\xff00100002,B\n", "latin1")])
    const file = tempPath("bytes.csv")
    fs.writeFileSync(file, bytes)
    const loaded = await Effect.runPromise(Effect.provide(Effect.zip(loadFile(file, { encoding: "utf-8" }), everySuppressed), MemoryStore.layer))
    expect(loaded[0]).toMatchObject({ read: 2, numbers: 1, rejected: 1 })
    expect(loaded[1]).toEqual(["447400100001"])
  })

  it("a file with a status column, a --map of another field, or no number that reads is refused, and nothing is loaded", async () => {
    const refused = async (text: string, options: Suppressions.LoadOptions = {}) => {
      const exit = await Effect.runPromise(Effect.provide(Effect.zip(Effect.exit(loadText(text, options)), everySuppressed), MemoryStore.layer))
      expect(exit[1]).toEqual([])
      return Exit.isFailure(exit[0]) ? Cause.squash(exit[0].cause) : undefined
    }
    // A contacts export: loaded as a list, every contact in it would be opted out.
    expect(await refused("msisdn,first_name,status,monitoring\n447400100001,Ann,SUBSCRIBED,false\n")).toMatchObject({ _tag: "InvalidField", field: "status" })
    expect(await refused("Phone,Status\n447400100001,Removed\n")).toMatchObject({ _tag: "InvalidField", field: "status", value: "Status" })
    expect(await refused("Phone,Status\n447400100001,Removed\n", { map: ["Status=status"] })).toMatchObject({ _tag: "InvalidParameter", parameter: "--map" })
    expect(await refused("Phone\n07400 100001\n07400 100002\n")).toMatchObject({ _tag: "InvalidParameter", parameter: "FILE" })
    // Said so, every row is loaded.
    const loaded = await Effect.runPromise(Effect.provide(loadText("Phone,Status\n447400100001,Removed\n", { map: ["Status=ignore"] }), MemoryStore.layer))
    expect(loaded).toMatchObject({ numbers: 1, added: 1 })
  })

  it("JSON is one array of {msisdn, country_code}; an empty list is []", async () => {
    const out = tempPath("list.json")
    await Effect.runPromise(Effect.provide(Suppressions.write(out, { format: "json", excel: false }), MemoryStore.layer))
    expect(JSON.parse(fs.readFileSync(out, "utf8"))).toEqual([])
    await Effect.runPromise(Effect.provide(
      Effect.andThen(Effect.flatMap(Effect.service(ContactStore.ContactStore), (s) => s.cancel([number(2), number(1)])), Suppressions.write(out, { format: "json", excel: false })),
      MemoryStore.layer
    ))
    expect(JSON.parse(fs.readFileSync(out, "utf8"))).toEqual([{ msisdn: number(1), country_code: "44" }, { msisdn: number(2), country_code: "44" }])
  })

  it("add opts out a number with or without a contact, and says what it did", async () => {
    const results = await Effect.runPromise(Effect.provide(
      Effect.gen(function*() {
        yield* ContactBook.createContact(number(1), {})
        return [
          yield* Suppressions.add(number(1)),
          yield* Suppressions.add(number(1)),
          yield* Suppressions.add(number(2)),
          (yield* ContactBook.getContact(number(1))).status,
          yield* everySuppressed,
          (yield* everyContact).length
        ]
      }),
      MemoryStore.layer
    ))
    expect(results).toEqual([
      { msisdn: number(1), already_suppressed: false, contact_opted_out: true },
      { msisdn: number(1), already_suppressed: true, contact_opted_out: false },
      { msisdn: number(2), already_suppressed: false, contact_opted_out: false },
      "CANCELLED",
      [number(1), number(2)],
      1
    ])
  })
})
