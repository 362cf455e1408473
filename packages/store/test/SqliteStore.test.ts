/**
 * The SQLite adapter on its own files (whose file it is: `SqliteOwnership.test.ts`): the same answers as the memory
 * store on any sequence of calls, the schema and its migrations, keyset streams over many pages, failures, the outbox and the layer.
 */
import { existsSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import { Account, Carrier as CarrierPort, ContactStore, MessageStore, Messaging } from "@smsbook/core"
import { Fixtures, ModelCheck } from "@smsbook/testing"
import { Effect, Fiber, Layer, Option, Stream } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as SqliteConnection from "../src/internal/sqlite/connection.ts"
import * as SqliteMigrations from "../src/internal/sqlite/migrations.ts"
import * as SqliteStore from "../src/SqliteStore.ts"
import * as SqliteFiles from "./sqliteFiles.ts"

const freshPath = SqliteFiles.folder()
const withStore = SqliteFiles.withStore

const { openFailure, pragma } = SqliteFiles

/** The SQLite adapter on a new file, as the model check runs it. */
const onFile = (path: string, options: SqliteStore.Options = {}): ModelCheck.Adapter => (effect) =>
  Effect.runPromise(Effect.provide(effect, SqliteStore.layer(path, options)))

// SQLite stores any string, U+0000 included, so the generated text has it too.
const calls = ModelCheck.arbitraries({ nul: true })

/** One write of distinct contacts, then lists (pages wider than the store) and audiences. */
const listsAndAudiences: fc.Arbitrary<ReadonlyArray<ModelCheck.Op>> = fc
  .tuple(
    fc.uniqueArray(calls.contact, { selector: (contact) => contact.msisdn, maxLength: 12 }),
    fc.array(calls.contactFilter.map((filter) => ({ ...filter, limit: filter.limit + 10 })), { minLength: 1, maxLength: 8 }),
    fc.array(fc.array(calls.tag, { maxLength: 3 }), { minLength: 1, maxLength: 4 })
  )
  .map(([all, filters, audiences]) => [
    { kind: "contact.write", insert: all, update: [] },
    ...filters.map((filter) => ({ kind: "contact.list" as const, filter })),
    ...audiences.map((tags) => ({ kind: "contact.audience" as const, tags }))
  ])

describe("SqliteStore against the memory store", () => {
  it("answers every sequence of port calls exactly as the memory store does", async () => {
    // Pages of 1 to 3 rows in turn, so every audience and stream crosses pages.
    let runs = 0
    await ModelCheck.check((effect) => onFile(freshPath(), { pageSize: 1 + (runs++ % 3) })(effect), { nul: true, numRuns: 150 })
  })

  it("keeps the opt-out law as the memory store does, on sequences of contact and suppression-list calls", async () => {
    await ModelCheck.check((effect) => onFile(freshPath())(effect), { ops: calls.optOuts, numRuns: 100 })
  })

  it("lists and selects audiences as the memory store does, whatever the case folding of the text", async () => {
    await ModelCheck.check((effect) => onFile(freshPath(), { pageSize: 2 })(effect), { ops: listsAndAudiences, numRuns: 200 })
  })

  it("keeps everything across a close and a reopen", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(calls.simpleOp, { maxLength: 20 }), async (ops) => {
        const path = freshPath()
        const before = await onFile(path)(Effect.andThen(Effect.forEach(ops, ModelCheck.run), ModelCheck.snapshot))
        const after = await onFile(path)(ModelCheck.snapshot)
        expect(after).toEqual(before)
      }),
      { numRuns: 30 }
    )
  })
})

// ---------------------------------------------------------------------------------------------

describe("opening a file", () => {
  it("creates the schema once: opening again is a no-op and keeps the data", async () => {
    const path = freshPath()
    await withStore(path, ({ contacts }) => contacts.insert(Fixtures.contact(1)))
    expect(pragma(path, "user_version")).toBe(SqliteMigrations.latestVersion)
    const again = await withStore(path, ({ contacts }) => contacts.get(Fixtures.contact(1).msisdn))
    expect(Option.getOrUndefined(again)).toEqual(Fixtures.contact(1))
    expect(pragma(path, "user_version")).toBe(SqliteMigrations.latestVersion)
    const db = new DatabaseSync(path)
    expect(SqliteMigrations.migrate(db)).toEqual(SqliteMigrations.migrate(db))
    db.close()
  })

  it("runs in WAL mode, so a second connection can read while one writes", async () => {
    const path = freshPath()
    await withStore(path, ({ contacts }) =>
      Effect.gen(function*() {
        yield* contacts.insert(Fixtures.contact(1))
        expect(existsSync(`${path}-wal`)).toBe(true)
        expect(pragma(path, "journal_mode")).toBe("wal")
        yield* contacts.transaction(Effect.gen(function*() {
          yield* contacts.insert(Fixtures.contact(2))
          const reader = new DatabaseSync(path, { readOnly: true })
          const seen = reader.prepare("SELECT count(*) AS n FROM contacts").get()?.n
          reader.close()
          expect(seen).toBe(1)
        }))
      }))
  })

  it("gives a new book its page size and WAL mode", async () => {
    const path = freshPath()
    await withStore(path, () => Effect.void)
    expect(pragma(path, "page_size")).toBe(SqliteConnection.pageSize)
    expect(pragma(path, "journal_mode")).toBe("wal")
  })

  it("fails with StoreUnavailable for a missing directory or a file that is not a database", async () => {
    const inMissingFolder = join(freshPath(), "no", "such", "x.db")
    expect(await openFailure(inMissingFolder)).toMatchObject({ _tag: "StoreUnavailable", url: inMissingFolder })
    const garbage = freshPath()
    writeFileSync(garbage, "this is not a database ".repeat(200))
    expect(await openFailure(garbage)).toMatchObject({ _tag: "StoreUnavailable", reason: "file is not a database" })
  })

  it("applies a failing migration not at all", () => {
    const path = freshPath()
    const db = new DatabaseSync(path)
    const result = SqliteMigrations.migrate(db, [
      { version: 1, name: "ok", sql: "CREATE TABLE a (x)" },
      { version: 2, name: "broken", sql: "CREATE TABLE a (y)" }
    ])
    expect(result).toMatchObject({ _tag: "Failure", failure: { reason: expect.stringMatching(/^migration 2 \(broken\)/) } })
    expect(db.prepare("SELECT count(*) AS n FROM sqlite_schema").get()?.n).toBe(0)
    expect(db.prepare("PRAGMA user_version").get()?.user_version).toBe(0)
    db.close()
  })
})
describe("streams page by keyset", () => {
  it("stream returns every message exactly once, in order, over many pages", async () => {
    const path = freshPath()
    const all = Array.from({ length: 1000 }, (_, n) => Fixtures.nthMessage(n, { tags: n % 3 === 0 ? ["Three"] : [], msisdn: n % 2 === 0 ? "1" : "2" }))
    const shuffled = [...all].sort((a, b) => (a.message_id.charCodeAt(8) % 7) - (b.message_id.charCodeAt(8) % 7))
    await withStore(path, ({ messages }) =>
      Effect.gen(function*() {
        yield* messages.transaction(Effect.forEach(shuffled, (m) => messages.insert(m), { discard: true }))
        expect(yield* Stream.runCollect(messages.stream({}))).toEqual(all)
        expect(yield* Stream.runCollect(messages.stream({ group: "three" }))).toEqual(all.filter((_, n) => n % 3 === 0))
        const from = all[100]?.created_at ?? 0
        const to = all[900]?.created_at ?? 0
        expect(yield* Stream.runCollect(messages.stream({ msisdn: "2", from, to }))).toEqual(
          all.filter((m) => m.msisdn === "2" && m.created_at >= from && m.created_at <= to)
        )
      }), { pageSize: 7 })
  })

  it("audience returns every matching contact once, by msisdn, over many pages", async () => {
    const path = freshPath()
    const all = Array.from({ length: 500 }, (_, n) =>
      Fixtures.contact(n, { tags: n % 5 === 0 ? ["A", "a", "b"] : n % 5 === 1 ? ["B"] : ["c"], monitoring: n % 7 === 0 }))
    await withStore(path, ({ contacts }) =>
      Effect.gen(function*() {
        yield* contacts.write({ insert: [...all].reverse(), update: [] })
        const audience = yield* Stream.runCollect(contacts.audience({ tags: ["a", "B"] }))
        expect(audience).toEqual(all.filter((c, n) => n % 5 <= 1 || c.monitoring))
        expect(yield* Stream.runCollect(contacts.audience({ tags: [] }))).toEqual(all.filter((c) => c.monitoring))
      }), { pageSize: 9 })
  })
})

describe("failures", () => {
  it("turn any SQLite error into StoreFailure naming the operation", async () => {
    const path = freshPath()
    await withStore(path, ({ contacts, messages }) =>
      Effect.gen(function*() {
        yield* contacts.insert(Fixtures.contact(1))
        const raw = new DatabaseSync(path)
        raw.exec("UPDATE contacts SET status = 'BOGUS'")
        expect(yield* Effect.flip(contacts.get(Fixtures.contact(1).msisdn))).toMatchObject({
          _tag: "StoreFailure",
          operation: "contacts.get",
          reason: expect.stringMatching(/corrupt row: column status/)
        })
        raw.exec("DROP TABLE deliveries")
        raw.close()
        expect(yield* Effect.flip(messages.recordDeliveries("m", ["1"]))).toMatchObject({
          _tag: "StoreFailure",
          operation: "messages.recordDeliveries",
          reason: expect.stringMatching(/no such table: deliveries/)
        })
      }))
  })

  it("read a corrupt message row (rows as arrays) as a StoreFailure naming the column", async () => {
    const path = freshPath()
    await withStore(path, ({ messages }) =>
      Effect.gen(function*() {
        yield* messages.insert(Fixtures.groupMessage("m1", ["news"]))
        yield* messages.insert(Fixtures.groupMessage("m2", ["news"], { created_at: Fixtures.epoch + 1 }))
        expect(Option.getOrThrow(yield* messages.get("m2")).tags).toEqual(["news"])
        const raw = new DatabaseSync(path)
        raw.exec("UPDATE messages SET direction = 'SIDEWAYS' WHERE message_id = 'm1'")
        raw.exec("UPDATE messages SET tags = '[1]' WHERE message_id = 'm2'")
        raw.close()
        expect(yield* Effect.flip(messages.get("m1"))).toMatchObject({
          _tag: "StoreFailure",
          operation: "messages.get",
          reason: expect.stringMatching(/corrupt row: column direction holds SIDEWAYS/)
        })
        expect(yield* Effect.flip(messages.get("m2"))).toMatchObject({ reason: expect.stringMatching(/corrupt row: column tags/) })
        expect(yield* Effect.flip(Stream.runCollect(messages.stream({})))).toMatchObject({
          _tag: "StoreFailure",
          operation: "messages.stream"
        })
      }))
  })

  it("undo the whole of a write that fails halfway, even outside an explicit transaction", async () => {
    const path = freshPath()
    await withStore(path, ({ contacts }) =>
      Effect.gen(function*() {
        const raw = new DatabaseSync(path)
        raw.exec("DROP TABLE contact_tags")
        raw.close()
        // The contact row goes in first; the tag row after it fails.
        expect(yield* Effect.flip(contacts.write({ insert: [Fixtures.contact(1)], update: [] }))).toMatchObject({
          _tag: "StoreFailure",
          operation: "contacts.write"
        })
        expect(yield* contacts.count).toBe(0)
        expect(yield* Effect.flip(contacts.insert(Fixtures.contact(2)))).toMatchObject({ _tag: "StoreFailure", operation: "contacts.insert" })
        expect(yield* contacts.list({ limit: 10, start: 0 })).toEqual([])
      }))
  })

  it("report the existing contact, the missing one and the earlier send", async () => {
    const path = freshPath()
    await withStore(path, ({ contacts, messages }) =>
      Effect.gen(function*() {
        yield* contacts.insert(Fixtures.contact(1))
        expect(yield* Effect.flip(contacts.insert(Fixtures.contact(1)))).toMatchObject({ _tag: "ContactExists", msisdn: Fixtures.contact(1).msisdn })
        expect(yield* Effect.flip(contacts.update(Fixtures.contact(2)))).toMatchObject({ _tag: "ContactNotFound", msisdn: Fixtures.contact(2).msisdn })
        expect(yield* Effect.flip(contacts.remove(Fixtures.contact(2).msisdn))).toMatchObject({ _tag: "ContactNotFound" })
        yield* messages.insert(Fixtures.nthMessage(1, { id: "ext", created_at: Date.UTC(2026, 10, 21, 10, 15) }), { id: "ext", since: 0 })
        expect(yield* Effect.flip(messages.insert(Fixtures.nthMessage(2, { id: "ext" }), { id: "ext", since: 0 }))).toMatchObject({
          _tag: "DuplicateSend",
          id: "ext",
          message_id: Fixtures.nthMessage(1).message_id,
          created_at: "2026-11-21T10:15:00.000Z"
        })
      }))
  })
})

describe("deliveries and outbox", () => {
  it("record each recipient once and report only the new ones, in order", async () => {
    await withStore(freshPath(), ({ messages }) =>
      Effect.gen(function*() {
        expect(yield* messages.recordDeliveries("m", ["3", "1", "3", "2"])).toEqual(["3", "1", "2"])
        expect(yield* messages.recordDeliveries("m", ["2", "4", "1"])).toEqual(["4"])
        expect(yield* messages.recordDeliveries("other", ["1"])).toEqual(["1"])
        expect(yield* messages.countDeliveries("m")).toBe(4)
      }))
  })

  it("keep every handed-over part, in order, for checking", async () => {
    const parts: ReadonlyArray<CarrierPort.Part> = [
      { message_id: "m", msisdn: "1", short_code: "12345", part: 1, parts: 2, text: "Shop: first" },
      { message_id: "m", msisdn: "1", short_code: "12345", part: 2, parts: 2, text: "second \u{1F600}" }
    ]
    await withStore(freshPath(), ({ carrier, outbox }) =>
      Effect.gen(function*() {
        expect(yield* carrier.handOver(parts)).toBe(0)
        expect(yield* outbox.parts).toEqual(parts)
      }))
  })
})

describe("layer", () => {
  it("provides every port and closes the file on release", async () => {
    const path = freshPath()
    const program = Effect.gen(function*() {
      const contacts = yield* ContactStore.ContactStore
      const messages = yield* MessageStore.MessageStore
      const carrier = yield* CarrierPort.Carrier
      const outbox = yield* CarrierPort.Outbox
      yield* contacts.insert(Fixtures.contact(1))
      yield* messages.insert(Fixtures.nthMessage(1))
      yield* carrier.handOver([{ message_id: "m", msisdn: "1", short_code: "1", part: 1, parts: 1, text: "t" }])
      return [yield* contacts.count, Option.isSome(yield* messages.get(Fixtures.nthMessage(1).message_id)), (yield* outbox.parts).length]
    })
    expect(await Effect.runPromise(Effect.provide(program, SqliteStore.layer(path)))).toEqual([1, true, 1])
    // Closed: the last connection checkpoints and removes the WAL file.
    expect(existsSync(`${path}-wal`)).toBe(false)
  })
})

describe("discarding a book a failed run created", () => {
  const book = async (contacts: number) => {
    const path = freshPath()
    await withStore(path, (ports) => Effect.forEach(Array.from({ length: contacts }, (_, i) => i), (i) => ports.contacts.insert(Fixtures.contact(i))))
    return path
  }
  const files = (path: string) => [path, `${path}-wal`, `${path}-shm`].filter(existsSync)

  it("removes an empty book no one else has open, with its WAL and shared memory", async () => {
    const path = await book(0)
    expect(SqliteStore.discardIfEmpty(path)).toBe(true)
    expect(files(path)).toEqual([])
  })

  it("keeps a book that holds a row, and one another connection has open (a second import started with it)", async () => {
    const filled = await book(1)
    expect(SqliteStore.discardIfEmpty(filled)).toBe(false)
    expect(files(filled)).toContain(filled)
    const empty = await book(0)
    // Open as a store opens it: in WAL mode, having read (which maps the shared memory).
    const other = new DatabaseSync(empty)
    other.prepare("SELECT count(*) FROM sqlite_schema").get()
    try {
      expect(SqliteStore.discardIfEmpty(empty)).toBe(false)
      expect(files(empty)).toContain(empty)
    } finally {
      other.close()
    }
    expect(SqliteStore.discardIfEmpty(empty)).toBe(true)
  })
})

describe("a broadcast over SQLite", () => {
  it("can be stopped between batches: each starts on a new turn of the event loop, where a signal's callback runs", async () => {
    const path = freshPath()
    const layer = Layer.merge(SqliteStore.layer(path), Account.layer({ ...Account.defaults, short_name: "ACME" }))
    const recipients = 4 * Messaging.deliveryBatchSize
    const { handed, delivered } = await Effect.runPromise(Effect.provide(
      Effect.gen(function*() {
        const contacts = yield* ContactStore.ContactStore
        yield* contacts.write({ insert: Array.from({ length: recipients }, (_, i) => Fixtures.contact(i, { tags: ["news"] })), update: [] })
        const { message_id } = yield* Messaging.sendToGroups({ tags: ["news"], message: "Big news" })
        let handed = 0
        const fiber = yield* Effect.forkChild(
          Messaging.processGroupMessage(message_id).pipe(Effect.provideService(Messaging.HandOverProgress, (_, n) => void (handed = n)))
        )
        // A timer, as a signal is a callback of the event loop: it runs only when the broadcast lets the loop turn.
        yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 1)))
        yield* Fiber.interrupt(fiber)
        const messages = yield* MessageStore.MessageStore
        return { handed, delivered: yield* messages.countDeliveries(message_id) }
      }),
      layer
    ))
    expect(delivered).toBe(handed)
    expect(delivered).toBeLessThan(recipients)
  })
})
