import { execFile } from "node:child_process"
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { Carrier as CarrierPort, type Contact, ContactStore, type Message, MessageStore } from "@smsbook/core"
import { MemoryStore } from "@smsbook/core/testing"
import { Deferred, Effect, Exit, Fiber, Option, Stream } from "effect"
import * as fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as SqliteMigrations from "../src/internal/sqlite/migrations.ts"
import * as SqliteStore from "../src/SqliteStore.ts"

let dir = ""
let files = 0
const freshPath = () => join(dir, `store-${files++}.db`)

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "smsbook-sqlite-"))
})
afterAll(() => {
  rmSync(dir, { recursive: true, force: true })
})

type Ports = SqliteStore.Services

/** Runs `f` over a store on `path`, closing it afterwards. */
const withStore = <A, E>(path: string, f: (ports: Ports) => Effect.Effect<A, E>, options: SqliteStore.Options = {}) =>
  Effect.runPromise(Effect.scoped(Effect.flatMap(SqliteStore.make(path, options), f)))

const openFailure = (path: string) =>
  Effect.runPromise(Effect.flip(Effect.scoped(SqliteStore.make(path))))

// ---------------------------------------------------------------------------------------------
// Arbitraries: small pools so keys collide (updates, duplicates, ties in ordering), and text with
// the characters where SQLite and JavaScript disagree (non-ASCII case folding, %, _, NUL).

const msisdnPool = ["447400000001", "447400000002", "447400000003", "447400000004", "15550000001"] as const
const tagPool = ["news", "News", "NEWS", "vip", "Vip", "\u00e4", "\u00c4", "\u0130", "i\u0307", "k", "\u212a"] as const
const messageIdPool = ["m1", "m2", "m3", "m4", "m5"] as const
const externalIdPool = ["x", "y", "z"] as const

const msisdn = fc.constantFrom(...msisdnPool)
const tag = fc.constantFrom(...tagPool)
const textChar = fc.constantFrom("a", "A", "b", "\u00e4", "\u00c4", "\u212a", "k", "K", "\u0130", "i", " ", "%", "_", "\u0000", "1", "\u{1F600}")
const shortText = fc.array(textChar, { maxLength: 4 }).map((chars) => chars.join(""))
const queryText = fc.array(textChar, { maxLength: 2 }).map((chars) => chars.join(""))

const contact: fc.Arbitrary<Contact.Contact> = fc.record({
  msisdn,
  phone_number: fc.constantFrom("7400000001", "5550000001"),
  first_name: shortText,
  last_name: shortText,
  full_name: shortText,
  country_code: fc.constantFrom("GB", "US"),
  added_from: fc.constantFrom("WEB_FORM", "API", "FILE_UPLOAD", "SMS", "SUBSCRIPTION_REQUEST"),
  status: fc.constantFrom("SUBSCRIBED", "INVITED", "CONFIRMED", "CANCELLED"),
  tags: fc.array(tag, { maxLength: 3 }),
  profile_uid: fc.string({ maxLength: 3 }),
  monitoring: fc.boolean()
})

const optional = <K extends string, A>(key: K, arbitrary: fc.Arbitrary<A>): fc.Arbitrary<{ readonly [P in K]?: A }> =>
  fc.option(arbitrary, { nil: undefined }).map((value) => value === undefined ? {} : { [key]: value } as { [P in K]: A })

const message: fc.Arbitrary<Message.Stored> = fc
  .tuple(
    fc.record({
      message_id: fc.constantFrom(...messageIdPool),
      short_code: fc.constantFrom("12345", "777"),
      direction: fc.constantFrom("MT", "MO"),
      status: fc.constantFrom("PENDING", "PROCESSING", "READY", "SENT"),
      message: fc.string({ unit: "binary", maxLength: 8 }),
      total_recipients: fc.nat(1000),
      sent_count: fc.nat(1000),
      error_count: fc.nat(10),
      total_monitors: fc.nat(10),
      is_scheduled: fc.boolean(),
      is_billable: fc.boolean(),
      created_at: fc.integer({ min: 0, max: 5 }),
      type: fc.constantFrom(1, 2),
      tags: fc.array(tag, { maxLength: 3 }),
      segments: fc.integer({ min: 1, max: 4 })
    }),
    optional("id", fc.constantFrom(...externalIdPool)),
    optional("country", fc.constantFrom("GB", "US")),
    optional("msisdn", msisdn),
    optional("created_by", fc.constantFrom("api", "cli"))
  )
  .map(([base, ...extras]) => Object.assign({}, base, ...extras))

const messageFilter: fc.Arbitrary<MessageStore.Filter> = fc
  .tuple(
    optional("from", fc.integer({ min: 0, max: 5 })),
    optional("to", fc.integer({ min: 0, max: 5 })),
    optional("direction", fc.constantFrom("MT", "MO")),
    optional("msisdn", msisdn),
    optional("group", tag)
  )
  .map((parts) => Object.assign({}, ...parts))

const contactFilter: fc.Arbitrary<ContactStore.ListFilter> = fc
  .tuple(
    optional("query", queryText),
    optional("status", fc.constantFrom("SUBSCRIBED", "INVITED", "CONFIRMED", "CANCELLED")),
    fc.record({ limit: fc.integer({ min: 0, max: 4 }), start: fc.integer({ min: 0, max: 3 }) })
  )
  .map(([query, status, page]) => ({ ...query, ...status, ...page }))

const part: fc.Arbitrary<CarrierPort.Part> = fc.record({
  message_id: fc.constantFrom(...messageIdPool),
  msisdn,
  short_code: fc.constantFrom("12345"),
  part: fc.integer({ min: 1, max: 3 }),
  parts: fc.integer({ min: 1, max: 3 }),
  text: fc.string({ unit: "binary", maxLength: 6 })
})

type Command =
  | { readonly kind: "contacts.insert"; readonly contact: Contact.Contact }
  | { readonly kind: "contacts.update"; readonly contact: Contact.Contact }
  | { readonly kind: "contacts.remove"; readonly msisdn: string }
  | { readonly kind: "contacts.write"; readonly insert: Array<Contact.Contact>; readonly update: Array<Contact.Contact> }
  | { readonly kind: "contacts.get"; readonly msisdn: string }
  | { readonly kind: "contacts.getMany"; readonly msisdns: Array<string> }
  | { readonly kind: "contacts.list"; readonly filter: ContactStore.ListFilter }
  | { readonly kind: "contacts.audience"; readonly tags: Array<string> }
  | { readonly kind: "contacts.count" }
  | { readonly kind: "messages.insert"; readonly message: Message.Stored; readonly antiSpam?: MessageStore.AntiSpam }
  | { readonly kind: "messages.update"; readonly message: Message.Stored }
  | { readonly kind: "messages.get"; readonly messageId: string }
  | { readonly kind: "messages.findById"; readonly id: string }
  | { readonly kind: "messages.list"; readonly page: MessageStore.Page }
  | { readonly kind: "messages.stream"; readonly filter: MessageStore.Filter }
  | { readonly kind: "messages.recordDeliveries"; readonly messageId: string; readonly msisdns: Array<string> }
  | { readonly kind: "messages.countDeliveries"; readonly messageId: string }
  | { readonly kind: "carrier.handOver"; readonly parts: Array<CarrierPort.Part> }
  | { readonly kind: "transaction"; readonly commands: Array<Command>; readonly fail: boolean }

const simpleCommand: fc.Arbitrary<Command> = fc.oneof(
  { weight: 4, arbitrary: contact.map((c) => ({ kind: "contacts.insert" as const, contact: c })) },
  { weight: 3, arbitrary: contact.map((c) => ({ kind: "contacts.update" as const, contact: c })) },
  { weight: 2, arbitrary: msisdn.map((m) => ({ kind: "contacts.remove" as const, msisdn: m })) },
  {
    weight: 2,
    arbitrary: fc.record({ insert: fc.array(contact, { maxLength: 3 }), update: fc.array(contact, { maxLength: 3 }) })
      .map((writes) => ({ kind: "contacts.write" as const, ...writes }))
  },
  { weight: 1, arbitrary: msisdn.map((m) => ({ kind: "contacts.get" as const, msisdn: m })) },
  { weight: 1, arbitrary: fc.array(msisdn, { maxLength: 4 }).map((m) => ({ kind: "contacts.getMany" as const, msisdns: m })) },
  { weight: 3, arbitrary: contactFilter.map((filter) => ({ kind: "contacts.list" as const, filter })) },
  { weight: 2, arbitrary: fc.array(tag, { maxLength: 3 }).map((tags) => ({ kind: "contacts.audience" as const, tags })) },
  { weight: 1, arbitrary: fc.constant({ kind: "contacts.count" as const }) },
  {
    weight: 4,
    arbitrary: fc.tuple(message, optional("antiSpam", fc.record({ id: fc.constantFrom(...externalIdPool), since: fc.integer({ min: 0, max: 5 }) })))
      .map(([m, antiSpam]) => ({ kind: "messages.insert" as const, message: m, ...antiSpam }))
  },
  { weight: 2, arbitrary: message.map((m) => ({ kind: "messages.update" as const, message: m })) },
  { weight: 1, arbitrary: fc.constantFrom(...messageIdPool).map((id) => ({ kind: "messages.get" as const, messageId: id })) },
  { weight: 1, arbitrary: fc.constantFrom(...externalIdPool).map((id) => ({ kind: "messages.findById" as const, id })) },
  {
    weight: 2,
    arbitrary: fc.tuple(messageFilter, fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 3 }))
      .map(([filter, limit, start]) => ({ kind: "messages.list" as const, page: { ...filter, limit, start } }))
  },
  { weight: 2, arbitrary: messageFilter.map((filter) => ({ kind: "messages.stream" as const, filter })) },
  {
    weight: 2,
    arbitrary: fc.tuple(fc.constantFrom(...messageIdPool), fc.array(msisdn, { maxLength: 4 }))
      .map(([messageId, msisdns]) => ({ kind: "messages.recordDeliveries" as const, messageId, msisdns }))
  },
  { weight: 1, arbitrary: fc.constantFrom(...messageIdPool).map((id) => ({ kind: "messages.countDeliveries" as const, messageId: id })) },
  { weight: 1, arbitrary: fc.array(part, { maxLength: 3 }).map((parts) => ({ kind: "carrier.handOver" as const, parts })) }
)

const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 8, arbitrary: simpleCommand },
  {
    weight: 1,
    arbitrary: fc.record({ commands: fc.array(simpleCommand, { maxLength: 5 }), fail: fc.boolean() })
      .map((t) => ({ kind: "transaction" as const, ...t }))
  }
)

// ---------------------------------------------------------------------------------------------
// The model: run the same command on both stores and compare what they answer.

type Outcome = { readonly ok: unknown } | { readonly error: unknown }

const plain = (value: unknown): unknown =>
  Option.isOption(value)
    ? Option.match(value, { onNone: () => ({ none: true }), onSome: (some) => ({ some }) })
    : value instanceof Map
    ? { map: [...value.entries()] }
    : value

const outcome = <A, E>(effect: Effect.Effect<A, E>): Effect.Effect<Outcome> =>
  Effect.match(effect, { onSuccess: (value) => ({ ok: plain(value) }), onFailure: (error) => ({ error }) })

const run = (ports: Ports, cmd: Command): Effect.Effect<unknown> => {
  const { carrier, contacts, messages } = ports
  switch (cmd.kind) {
    case "contacts.insert":
      return outcome(contacts.insert(cmd.contact))
    case "contacts.update":
      return outcome(contacts.update(cmd.contact))
    case "contacts.remove":
      return outcome(contacts.remove(cmd.msisdn))
    case "contacts.write":
      return outcome(contacts.write({ insert: cmd.insert, update: cmd.update }))
    case "contacts.get":
      return outcome(contacts.get(cmd.msisdn))
    case "contacts.getMany":
      return outcome(contacts.getMany(cmd.msisdns))
    case "contacts.list":
      return outcome(contacts.list(cmd.filter))
    case "contacts.audience":
      return outcome(Stream.runCollect(contacts.audience({ tags: cmd.tags })))
    case "contacts.count":
      return outcome(contacts.count)
    case "messages.insert":
      return outcome(messages.insert(cmd.message, cmd.antiSpam))
    case "messages.update":
      return outcome(messages.update(cmd.message))
    case "messages.get":
      return outcome(messages.get(cmd.messageId))
    case "messages.findById":
      return outcome(messages.findById(cmd.id))
    case "messages.list":
      return outcome(messages.list(cmd.page))
    case "messages.stream":
      return outcome(Stream.runCollect(messages.stream(cmd.filter)))
    case "messages.recordDeliveries":
      return outcome(messages.recordDeliveries(cmd.messageId, cmd.msisdns))
    case "messages.countDeliveries":
      return outcome(messages.countDeliveries(cmd.messageId))
    case "carrier.handOver":
      return outcome(carrier.handOver(cmd.parts))
    case "transaction": {
      const inner: Array<unknown> = []
      return Effect.map(
        outcome(contacts.transaction(Effect.gen(function*() {
          for (const sub of cmd.commands) inner.push(yield* run(ports, sub))
          if (cmd.fail) return yield* Effect.fail("rolled back" as const)
        }))),
        (result) => ({ result, inner })
      )
    }
  }
}

/** Everything a store holds, read through its ports. */
const snapshot = (ports: Ports) =>
  Effect.all({
    contacts: ports.contacts.list({ limit: 1_000_000, start: 0 }),
    count: ports.contacts.count,
    messages: Stream.runCollect(ports.messages.stream({})),
    deliveries: Effect.forEach(messageIdPool, (id) => ports.messages.countDeliveries(id)),
    outbox: ports.outbox.parts
  })

describe("SqliteStore against the memory store", () => {
  it("answers every sequence of port calls exactly as the memory store does", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { maxLength: 25 }), fc.integer({ min: 1, max: 3 }), async (commands, pageSize) => {
        const memory = await Effect.runPromise(MemoryStore.make)
        await withStore(freshPath(), (sqlite) =>
          Effect.gen(function*() {
            for (const cmd of commands) {
              const expected = yield* run(memory, cmd)
              const actual = yield* run(sqlite, cmd)
              expect(actual).toEqual(expected)
            }
            expect(yield* snapshot(sqlite)).toEqual(yield* snapshot(memory))
          }), { pageSize })
      }),
      { numRuns: 150 }
    )
  })

  it("lists and selects audiences as the memory store does, whatever the case folding of the text", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(contact, { maxLength: 12 }),
        fc.array(contactFilter.map((filter) => ({ ...filter, limit: filter.limit + 10 })), { minLength: 1, maxLength: 8 }),
        fc.array(fc.array(tag, { maxLength: 3 }), { minLength: 1, maxLength: 4 }),
        async (all, filters, audiences) => {
          const memory = await Effect.runPromise(MemoryStore.make)
          const commands: ReadonlyArray<Command> = [
            { kind: "contacts.write", insert: all, update: [] },
            ...filters.map((filter) => ({ kind: "contacts.list" as const, filter })),
            ...audiences.map((tags) => ({ kind: "contacts.audience" as const, tags }))
          ]
          await withStore(freshPath(), (sqlite) =>
            Effect.gen(function*() {
              for (const cmd of commands) expect(yield* run(sqlite, cmd)).toEqual(yield* run(memory, cmd))
            }), { pageSize: 2 })
        }
      ),
      { numRuns: 200 }
    )
  })

  it("keeps everything across a close and a reopen", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(simpleCommand, { maxLength: 20 }), async (commands) => {
        const path = freshPath()
        const before = await withStore(path, (ports) =>
          Effect.gen(function*() {
            for (const cmd of commands) yield* run(ports, cmd)
            return yield* snapshot(ports)
          }))
        const after = await withStore(path, snapshot)
        expect(after).toEqual(before)
      }),
      { numRuns: 30 }
    )
  })
})

// ---------------------------------------------------------------------------------------------

const aContact = (n: number, overrides: Partial<Contact.Contact> = {}): Contact.Contact => ({
  msisdn: `4474${String(n).padStart(8, "0")}`,
  phone_number: `74${String(n).padStart(8, "0")}`,
  first_name: `First${n}`,
  last_name: `Last${n}`,
  full_name: `First${n} Last${n}`,
  country_code: "GB",
  added_from: "FILE_UPLOAD",
  status: "SUBSCRIBED",
  tags: n % 2 === 0 ? ["even"] : ["odd"],
  profile_uid: "",
  monitoring: false,
  ...overrides
})

const aMessage = (n: number, overrides: Partial<Message.Stored> = {}): Message.Stored => ({
  message_id: `msg-${String(n).padStart(6, "0")}`,
  short_code: "12345",
  direction: "MT",
  status: "SENT",
  message: `hello ${n}`,
  total_recipients: 1,
  sent_count: 1,
  error_count: 0,
  total_monitors: 0,
  is_scheduled: false,
  is_billable: true,
  created_at: 1_700_000_000_000 + Math.floor(n / 3),
  type: 1,
  tags: [],
  segments: 1,
  ...overrides
})

const pragma = (path: string, name: string): unknown => {
  const db = new DatabaseSync(path)
  try {
    return db.prepare(`PRAGMA ${name}`).get()?.[name]
  } finally {
    db.close()
  }
}

describe("opening a file", () => {
  it("creates the schema once: opening again is a no-op and keeps the data", async () => {
    const path = freshPath()
    await withStore(path, ({ contacts }) => contacts.insert(aContact(1)))
    expect(pragma(path, "user_version")).toBe(SqliteMigrations.latestVersion)
    const again = await withStore(path, ({ contacts }) => contacts.get(aContact(1).msisdn))
    expect(Option.getOrUndefined(again)).toEqual(aContact(1))
    expect(pragma(path, "user_version")).toBe(SqliteMigrations.latestVersion)
    const db = new DatabaseSync(path)
    expect(SqliteMigrations.migrate(db)).toEqual(SqliteMigrations.migrate(db))
    db.close()
  })

  it("runs in WAL mode, so a second connection can read while one writes", async () => {
    const path = freshPath()
    await withStore(path, ({ contacts }) =>
      Effect.gen(function*() {
        yield* contacts.insert(aContact(1))
        expect(existsSync(`${path}-wal`)).toBe(true)
        expect(pragma(path, "journal_mode")).toBe("wal")
        yield* contacts.transaction(Effect.gen(function*() {
          yield* contacts.insert(aContact(2))
          const reader = new DatabaseSync(path, { readOnly: true })
          const seen = reader.prepare("SELECT count(*) AS n FROM contacts").get()?.n
          reader.close()
          expect(seen).toBe(1)
        }))
      }))
  })

  it("refuses a file whose schema is newer than this code, and a SQLite file of another program", async () => {
    const newer = freshPath()
    const db = new DatabaseSync(newer)
    SqliteMigrations.migrate(db, [...SqliteMigrations.migrations, { version: 99, name: "future", sql: "CREATE TABLE future (x)" }])
    db.close()
    const refused = await openFailure(newer)
    expect(refused._tag).toBe("StoreUnavailable")
    expect(refused.reason).toContain(`schema version 99, newer than this smsbook knows (${SqliteMigrations.latestVersion})`)

    const foreign = freshPath()
    const other = new DatabaseSync(foreign)
    other.exec("CREATE TABLE contacts (x); PRAGMA user_version = 3")
    other.close()
    expect((await openFailure(foreign)).reason).toMatch(/not an smsbook database/)
  })

  it("fails with StoreUnavailable for a missing directory or a file that is not a database", async () => {
    const missing = await openFailure(join(dir, "no", "such", "dir", "x.db"))
    expect(missing).toMatchObject({ _tag: "StoreUnavailable", url: join(dir, "no", "such", "dir", "x.db") })
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

describe("transactions", () => {
  it("leave nothing behind when they fail, and everything when they succeed", async () => {
    const path = freshPath()
    await withStore(path, ({ contacts, messages }) =>
      Effect.gen(function*() {
        const failed = yield* Effect.exit(contacts.transaction(Effect.gen(function*() {
          yield* contacts.write({ insert: [aContact(1), aContact(2)], update: [] })
          yield* messages.insert(aMessage(1))
          yield* messages.transaction(contacts.insert(aContact(3)))
          return yield* Effect.fail("stop")
        })))
        expect(failed).toEqual(Exit.fail("stop"))
        expect(yield* contacts.count).toBe(0)
        expect(yield* messages.get(aMessage(1).message_id)).toEqual(Option.none())
        yield* messages.transaction(Effect.gen(function*() {
          yield* contacts.insert(aContact(1))
          yield* messages.insert(aMessage(1))
        }))
        expect(yield* contacts.count).toBe(1)
      }))
  })

  it("roll back when interrupted", async () => {
    const path = freshPath()
    await withStore(path, ({ contacts }) =>
      Effect.gen(function*() {
        const inside = yield* Deferred.make<void>()
        const fiber = yield* Effect.forkChild(contacts.transaction(Effect.gen(function*() {
          yield* contacts.insert(aContact(1))
          yield* Deferred.succeed(inside, undefined)
          return yield* Effect.never
        })))
        yield* Deferred.await(inside)
        yield* Fiber.interrupt(fiber)
        expect(yield* contacts.count).toBe(0)
        yield* contacts.insert(aContact(2))
        expect(yield* contacts.count).toBe(1)
      }))
  })

  it("serialise fibers: a read outside never sees another fiber's uncommitted writes", async () => {
    const path = freshPath()
    await withStore(path, ({ contacts }) =>
      Effect.gen(function*() {
        const inside = yield* Deferred.make<void>()
        const release = yield* Deferred.make<void>()
        const writer = yield* Effect.forkChild(contacts.transaction(Effect.gen(function*() {
          yield* contacts.insert(aContact(1))
          yield* Deferred.succeed(inside, undefined)
          yield* Deferred.await(release)
          return yield* Effect.fail("abort")
        })))
        yield* Deferred.await(inside)
        const reader = yield* Effect.forkChild(contacts.count)
        yield* Deferred.succeed(release, undefined)
        expect(yield* Fiber.join(reader)).toBe(0)
        expect(yield* Effect.exit(Fiber.join(writer))).toEqual(Exit.fail("abort"))
      }))
  })

  it("wait for another connection's transaction without blocking the event loop, then fail after busyTimeout", async () => {
    const path = freshPath()
    await withStore(path, () => Effect.void)
    const holder = new DatabaseSync(path)
    holder.exec("BEGIN IMMEDIATE")
    let ticks = 0
    const ticker = setInterval(() => ticks++, 1)
    const failure = await withStore(path, ({ contacts }) => Effect.flip(contacts.insert(aContact(1))), { busyTimeout: 100 })
    clearInterval(ticker)
    expect(failure).toMatchObject({ _tag: "StoreFailure", operation: "transaction" })
    expect(ticks).toBeGreaterThan(0)
    setTimeout(() => holder.exec("COMMIT"), 20)
    const count = await withStore(path, ({ contacts }) =>
      Effect.andThen(contacts.insert(aContact(1)), contacts.count), { busyTimeout: 10_000 })
    expect(count).toBe(1)
    holder.close()
  })
})

describe("anti-spam across connections", () => {
  it("lets exactly one of two connections racing with the same id insert", async () => {
    const path = freshPath()
    const settle = <A, E>(effect: Effect.Effect<A, E>) =>
      Effect.match(effect, { onSuccess: () => "inserted" as const, onFailure: (error) => error })
    await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
      const a = yield* SqliteStore.make(path)
      const b = yield* SqliteStore.make(path)
      for (let round = 0; round < 20; round++) {
        const id = `race-${round}`
        const antiSpam = { id, since: 0 }
        // A holds its write transaction across a yield while B tries: B must wait, then see A's row.
        const results = yield* Effect.all([
          settle(a.messages.transaction(Effect.andThen(
            a.messages.insert(aMessage(2 * round, { id }), antiSpam),
            Effect.yieldNow
          ))),
          settle(b.messages.insert(aMessage(2 * round + 1, { id }), antiSpam))
        ], { concurrency: "unbounded" })
        expect(results.filter((result) => result === "inserted")).toHaveLength(1)
        expect(results.find((result) => result !== "inserted")).toMatchObject({ _tag: "DuplicateSend", id })
      }
    })))
  })

  it("lets exactly one of several processes creating the file and inserting the same id at once succeed", async () => {
    const path = freshPath()
    const store = fileURLToPath(new URL("../src/SqliteStore.ts", import.meta.url))
    const script = `
      import { Effect } from "effect"
      import * as SqliteStore from ${JSON.stringify(store)}
      const [path, messageId] = process.argv.slice(-2)
      const message = { message_id: messageId, id: "same", short_code: "1", direction: "MT", status: "READY", message: "hi",
        total_recipients: 1, sent_count: 1, error_count: 0, total_monitors: 0, is_scheduled: false, is_billable: true,
        created_at: Date.now(), type: 1, tags: [], segments: 1 }
      const result = await Effect.runPromise(Effect.scoped(Effect.flatMap(SqliteStore.make(path),
        ({ messages }) => Effect.match(messages.insert(message, { id: "same", since: 0 }),
          { onSuccess: () => "inserted", onFailure: (error) => error._tag }))))
      console.log(result)
    `
    const exec = promisify(execFile)
    const root = fileURLToPath(new URL("../../..", import.meta.url))
    const results = await Promise.all(Array.from({ length: 4 }, (_, i) =>
      exec(process.execPath, ["--input-type=module", "-e", script, "--", path, `proc-${i}`], { cwd: root })
    ))
    const outputs = results.map(({ stdout }) => stdout.trim()).sort()
    expect(outputs).toEqual(["DuplicateSend", "DuplicateSend", "DuplicateSend", "inserted"])
  })
})

describe("streams page by keyset", () => {
  it("stream returns every message exactly once, in order, over many pages", async () => {
    const path = freshPath()
    const all = Array.from({ length: 1000 }, (_, n) => aMessage(n, { tags: n % 3 === 0 ? ["Three"] : [], msisdn: n % 2 === 0 ? "1" : "2" }))
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
      aContact(n, { tags: n % 5 === 0 ? ["A", "a", "b"] : n % 5 === 1 ? ["B"] : ["c"], monitoring: n % 7 === 0 }))
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
        yield* contacts.insert(aContact(1))
        const raw = new DatabaseSync(path)
        raw.exec("UPDATE contacts SET status = 'BOGUS'")
        expect(yield* Effect.flip(contacts.get(aContact(1).msisdn))).toMatchObject({
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

  it("undo the whole of a write that fails halfway, even outside an explicit transaction", async () => {
    const path = freshPath()
    await withStore(path, ({ contacts }) =>
      Effect.gen(function*() {
        const raw = new DatabaseSync(path)
        raw.exec("DROP TABLE contact_tags")
        raw.close()
        // The contact row goes in first; the tag row after it fails.
        expect(yield* Effect.flip(contacts.write({ insert: [aContact(1)], update: [] }))).toMatchObject({
          _tag: "StoreFailure",
          operation: "contacts.write"
        })
        expect(yield* contacts.count).toBe(0)
        expect(yield* Effect.flip(contacts.insert(aContact(2)))).toMatchObject({ _tag: "StoreFailure", operation: "contacts.insert" })
        expect(yield* contacts.list({ limit: 10, start: 0 })).toEqual([])
      }))
  })

  it("report the existing contact, the missing one and the earlier send", async () => {
    const path = freshPath()
    await withStore(path, ({ contacts, messages }) =>
      Effect.gen(function*() {
        yield* contacts.insert(aContact(1))
        expect(yield* Effect.flip(contacts.insert(aContact(1)))).toMatchObject({ _tag: "ContactExists", msisdn: aContact(1).msisdn })
        expect(yield* Effect.flip(contacts.update(aContact(2)))).toMatchObject({ _tag: "ContactNotFound", msisdn: aContact(2).msisdn })
        expect(yield* Effect.flip(contacts.remove(aContact(2).msisdn))).toMatchObject({ _tag: "ContactNotFound" })
        yield* messages.insert(aMessage(1, { id: "ext", created_at: Date.UTC(2026, 10, 21, 10, 15) }), { id: "ext", since: 0 })
        expect(yield* Effect.flip(messages.insert(aMessage(2, { id: "ext" }), { id: "ext", since: 0 }))).toMatchObject({
          _tag: "DuplicateSend",
          id: "ext",
          message_id: aMessage(1).message_id,
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
      yield* contacts.insert(aContact(1))
      yield* messages.insert(aMessage(1))
      yield* carrier.handOver([{ message_id: "m", msisdn: "1", short_code: "1", part: 1, parts: 1, text: "t" }])
      return [yield* contacts.count, Option.isSome(yield* messages.get(aMessage(1).message_id)), (yield* outbox.parts).length]
    })
    expect(await Effect.runPromise(Effect.provide(program, SqliteStore.layer(path)))).toEqual([1, true, 1])
    // Closed: the last connection checkpoints and removes the WAL file.
    expect(existsSync(`${path}-wal`)).toBe(false)
  })
})
