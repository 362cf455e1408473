/**
 * The port contract suite: one set of vitest tests that every adapter of the storage ports runs against
 * itself — every use case with its wire shapes, every filter, paging rule and error, the anti-spam and
 * opt-out laws, ordering, concurrent writers, and properties against a model.
 */
import { describe, expect, it } from "@effect/vitest"
import { DateTime, Effect, Layer, Option, Result, type Scope, Stream } from "effect"
import { TestClock } from "effect/testing"
import * as fc from "fast-check"
import * as Account from "../Account.ts"
import * as Carrier from "../Carrier.ts"
import type * as Contact from "../Contact.ts"
import * as ContactBook from "../ContactBook.ts"
import type { SmsbookError } from "../Errors.ts"
import * as ContactStore from "../ContactStore.ts"
import * as HttpDate from "../HttpDate.ts"
import type * as Message from "../Message.ts"
import * as Messaging from "../Messaging.ts"
import * as MessageStore from "../MessageStore.ts"
import * as Msisdn from "../Msisdn.ts"
import * as Sms from "../Sms.ts"

/** What an adapter provides: both stores, its carrier, and a view of what the carrier was handed. */
export type Ports = ContactStore.ContactStore | MessageStore.MessageStore | Carrier.Carrier | Carrier.Outbox

/** What a test body may use: the ports, the account, and a scope. */
export type Env = Ports | Account.Account | Scope.Scope

export interface Options {
  /** fast-check runs per property; each run builds a fresh store (default 20). */
  readonly numRuns?: number
  /** Fibers racing each other in the concurrency tests (default 8). */
  readonly racers?: number
  /** Per-test timeout in milliseconds (default: vitest's). */
  readonly timeout?: number
}

/** The account every test acts for: a 4-character short name leaves a budget of 154. */
export const settings: Account.Settings = {
  short_name: "Acme",
  short_code: "60777",
  user: "operator",
  time_zone: "UTC",
  spam_period_seconds: 86_400
}

/** Sat, 21 Nov 2026 10:15:00 GMT: every test starts its `TestClock` here. */
export const epoch = Date.UTC(2026, 10, 21, 10, 15, 0)

/** A valid GB mobile number, `447400` + `n` on 6 digits (0 ≤ n ≤ 999999). */
export const msisdn = (n: number): Msisdn.Msisdn => Result.getOrThrow(Msisdn.parse(`447400${String(n).padStart(6, "0")}`))

/** A contact as a port stores it, for tests that need a status or flag no use case sets directly. */
export const contactValue = (n: number, fields: Partial<Omit<Contact.Contact, "msisdn">> = {}): Contact.Contact => {
  const number = msisdn(n)
  const first_name = fields.first_name ?? ""
  const last_name = fields.last_name ?? ""
  return {
    msisdn: number,
    ...Msisdn.split(number),
    first_name,
    last_name,
    full_name: [first_name, last_name].filter((name) => name !== "").join(" "),
    added_from: "API",
    status: "SUBSCRIBED",
    tags: [],
    profile_uid: n.toString(16).padStart(32, "0"),
    monitoring: false,
    ...fields
  }
}

/** An import row for number `n`. */
export const candidate = (
  n: number,
  fields: Partial<Pick<ContactBook.Candidate, "first_name" | "last_name" | "tags">> = {}
): ContactBook.Candidate => {
  const number = msisdn(n)
  return { msisdn: number, ...Msisdn.split(number), first_name: "", last_name: "", tags: [], ...fields }
}

/** A stored message as a port keeps it, for the port-level tests. */
export const storedValue = (messageId: string, fields: Partial<Message.Stored> = {}): Message.Stored => ({
  message_id: messageId,
  short_code: settings.short_code,
  direction: "MT",
  status: "READY",
  message: "hello",
  total_recipients: 1,
  sent_count: 0,
  error_count: 0,
  total_monitors: 0,
  is_scheduled: false,
  is_billable: true,
  created_at: epoch,
  type: 1,
  tags: [],
  segments: 1,
  ...fields
})

const hasTag = <E extends { readonly _tag: string }, T extends E["_tag"]>(
  error: E,
  tag: T
): error is Extract<E, { readonly _tag: T }> => error._tag === tag

/** Runs `effect` expecting it to fail with `tag`; yields the error for its fields to be checked. */
export const refused = <A, E extends { readonly _tag: string }, R, T extends E["_tag"]>(
  effect: Effect.Effect<A, E, R>,
  tag: T
): Effect.Effect<Extract<E, { readonly _tag: T }>, never, R> =>
  Effect.flatMap(Effect.result(effect), (result) => {
    if (Result.isSuccess(result)) {
      return Effect.die(new Error(`expected ${tag}, got a success: ${JSON.stringify(result.success)}`))
    }
    const error = result.failure
    return hasTag(error, tag)
      ? Effect.succeed(error)
      : Effect.die(new Error(`expected ${tag}, got ${error._tag}: ${JSON.stringify(error)}`))
  })

const sortedKeys = (value: object): ReadonlyArray<string> => Object.keys(value).sort()

const contactKeys = [
  "added_from",
  "country_code",
  "first_name",
  "full_name",
  "last_name",
  "monitoring",
  "msisdn",
  "phone_number",
  "profile_uid",
  "status",
  "tags"
]

const individualKeys = [
  "country",
  "created_by",
  "created_on",
  "direction",
  "error_count",
  "is_billable",
  "is_scheduled",
  "message",
  "message_id",
  "msisdn",
  "sent_count",
  "short_code",
  "status",
  "total_monitors",
  "total_recipients",
  "type"
]

const groupResponseKeys = [
  "created_on",
  "direction",
  "error_count",
  "is_billable",
  "is_scheduled",
  "message",
  "sent_count",
  "short_code",
  "status",
  "total_monitors",
  "total_recipients",
  "type"
]

const withKey = (keys: ReadonlyArray<string>, key: string): ReadonlyArray<string> => [...keys, key].sort()

/** The HTTP-date of `epoch + offset` milliseconds. */
const httpDate = (offset: number): string => HttpDate.format(DateTime.makeUnsafe(epoch + offset))

/** The full contacts of a list (a list without `shortResults` has only those). */
const fullContacts = (list: ReadonlyArray<Contact.Contact | Contact.ShortContact>): ReadonlyArray<Contact.Contact> =>
  list.filter((contact): contact is Contact.Contact => "profile_uid" in contact)

const allContacts = Effect.map(ContactBook.listContacts({ Limit: "1000" }), fullContacts)
const allMessages = Messaging.listMessages({ Limit: "1000" })

const partsOf = (messageId: string) =>
  Effect.map(Effect.flatMap(Carrier.Outbox, (outbox) => outbox.parts), (parts) =>
    parts.filter((part) => part.message_id === messageId))

/** The texts each number was handed for a message, parts joined in order. */
const textsByMsisdn = (parts: ReadonlyArray<Carrier.Part>): ReadonlyMap<string, string> => {
  const byNumber = new Map<string, Array<Carrier.Part>>()
  for (const part of parts) byNumber.set(part.msisdn, [...(byNumber.get(part.msisdn) ?? []), part])
  return new Map([...byNumber].map(([number, own]) => [number, [...own].sort((a, b) => a.part - b.part).map((p) => p.text).join("")]))
}

/** A UCS-2 text of two SMS parts once prefixed (86 UTF-16 units). */
const twoPartText = "\u0436".repeat(80)

// ---------------------------------------------------------------------------------------------
// The model of the contact book the properties compare the store with: written apart from the
// use cases (trim, join, normalise) so a shared mistake cannot hide.

const modelFullName = (first: string, last: string) => [first.trim(), last.trim()].filter((s) => s !== "").join(" ")

const modelTags = (tags: ReadonlyArray<string>): ReadonlyArray<string> => {
  const out: Array<string> = []
  for (const tag of tags.map((t) => t.trim())) {
    if (tag !== "" && !out.some((kept) => kept.toLowerCase() === tag.toLowerCase())) out.push(tag)
  }
  return out
}

type Op =
  | { readonly op: "create"; readonly n: number; readonly first: string; readonly last: string }
  | {
    readonly op: "edit"
    readonly n: number
    readonly first: string | undefined
    readonly last: string | undefined
    readonly tags: ReadonlyArray<string> | undefined
    readonly monitoring: boolean | undefined
  }
  | { readonly op: "delete"; readonly n: number }

const nameArb = fc.string({ unit: fc.constantFrom("a", "B", " ", "%", "_", "\u00e9", "\u0436"), maxLength: 6 })
const numberArb = fc.integer({ min: 0, max: 5 })

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant("create" as const), n: numberArb, first: nameArb, last: nameArb }),
  fc.record({
    op: fc.constant("edit" as const),
    n: numberArb,
    first: fc.option(nameArb, { nil: undefined }),
    last: fc.option(nameArb, { nil: undefined }),
    tags: fc.option(fc.array(fc.constantFrom("news", "NEWS", " sport ", "", "vip"), { maxLength: 4 }), { nil: undefined }),
    monitoring: fc.option(fc.boolean(), { nil: undefined })
  }),
  fc.record({ op: fc.constant("delete" as const), n: numberArb })
)

const editBody = (op: Extract<Op, { op: "edit" }>) => ({
  ...(op.first === undefined ? {} : { first_name: op.first }),
  ...(op.last === undefined ? {} : { last_name: op.last }),
  ...(op.tags === undefined ? {} : { tags: op.tags }),
  ...(op.monitoring === undefined ? {} : { monitoring: op.monitoring })
})

const applyOp = Effect.fnUntraced(function*(model: Map<string, Contact.Contact>, op: Op) {
  const key = msisdn(op.n)
  const known = model.get(key)
  switch (op.op) {
    case "create": {
      if (known !== undefined) {
        expect(yield* refused(ContactBook.createContact(key, { first_name: op.first, last_name: op.last }), "ContactExists")).toMatchObject({
          msisdn: key
        })
        return
      }
      const created = yield* ContactBook.createContact(key, { first_name: op.first, last_name: op.last })
      expect(created).toMatchObject({
        msisdn: key,
        first_name: op.first.trim(),
        last_name: op.last.trim(),
        full_name: modelFullName(op.first, op.last),
        status: "SUBSCRIBED",
        added_from: "API",
        tags: [],
        monitoring: false
      })
      model.set(key, created)
      return
    }
    case "edit": {
      if (known === undefined) {
        expect(yield* refused(ContactBook.editContact(key, editBody(op)), "ContactNotFound")).toMatchObject({ msisdn: key })
        return
      }
      const first_name = op.first ?? known.first_name
      const last_name = op.last ?? known.last_name
      const expected: Contact.Contact = {
        ...known,
        first_name,
        last_name,
        full_name: modelFullName(first_name, last_name),
        tags: op.tags === undefined ? known.tags : modelTags(op.tags),
        monitoring: op.monitoring ?? known.monitoring
      }
      expect(yield* ContactBook.editContact(key, editBody(op))).toEqual(expected)
      model.set(key, expected)
      return
    }
    case "delete": {
      if (known === undefined) {
        expect(yield* refused(ContactBook.deleteContact(key), "ContactNotFound")).toMatchObject({ msisdn: key })
        return
      }
      expect(yield* ContactBook.deleteContact(key)).toEqual({ msisdn: key, deleted: true })
      model.delete(key)
      return
    }
  }
})

/** A write the transaction property makes through the ports. */
type Write =
  | { readonly write: "insert"; readonly n: number }
  | { readonly write: "update"; readonly n: number; readonly name: string }
  | { readonly write: "remove"; readonly n: number }
  | { readonly write: "message"; readonly n: number }
  | { readonly write: "deliveries"; readonly n: number }

const seeded = [0, 1, 2, 3, 4]

const writesArb: fc.Arbitrary<ReadonlyArray<Write>> = fc
  .uniqueArray(
    fc.oneof(
      fc.integer({ min: 5, max: 9 }).map((n): Write => ({ write: "insert", n })),
      fc.record({ n: fc.constantFrom(...seeded), name: nameArb }).map(({ n, name }): Write => ({ write: "update", n, name })),
      fc.constantFrom(...seeded).map((n): Write => ({ write: "remove", n })),
      fc.integer({ min: 0, max: 9 }).map((n): Write => ({ write: "message", n })),
      fc.integer({ min: 0, max: 9 }).map((n): Write => ({ write: "deliveries", n }))
    ),
    // One write per contact and per message, so every write is valid against the seeded store.
    { selector: (w) => w.write === "insert" || w.write === "update" || w.write === "remove" ? `c${w.n}` : `${w.write}${w.n}`, maxLength: 8 }
  )

const perform = Effect.fnUntraced(function*(write: Write) {
  const contacts = yield* ContactStore.ContactStore
  const messages = yield* MessageStore.MessageStore
  switch (write.write) {
    case "insert":
      return yield* contacts.insert(contactValue(write.n, { first_name: "New" }))
    case "update":
      return yield* contacts.update(contactValue(write.n, { first_name: write.name.trim() }))
    case "remove":
      return yield* contacts.remove(msisdn(write.n))
    case "message":
      return yield* messages.insert(storedValue(`tx${write.n}`, { msisdn: msisdn(write.n), id: `tx-${write.n}` }))
    case "deliveries":
      return yield* Effect.asVoid(messages.recordDeliveries("seed", [msisdn(write.n)]))
  }
})

/** Everything the transaction property can observe of a store. */
const snapshot = Effect.gen(function*() {
  const messages = yield* MessageStore.MessageStore
  const contacts = yield* ContactStore.ContactStore
  return {
    contacts: yield* contacts.list({ limit: 1000, start: 0 }),
    count: yield* contacts.count,
    messages: yield* messages.list({ limit: 1000, start: 0 }),
    deliveries: yield* messages.countDeliveries("seed")
  }
})

class Abort extends Error {
  readonly _tag = "Abort"
}

/**
 * Registers the contract suite for an adapter (vitest `describe`/`it` blocks, so call it at the top
 * level of a test file). `makeLayer` is called once per test and once per property run and must give
 * a fresh, empty store — a new temporary file, a new schema — because every test starts from nothing.
 *
 * Every test runs under a `TestClock` set to {@link epoch} (a jump of decades from 0) and moved by
 * the tests: an adapter whose internals run on Effect's `Clock` (pool reapers, timeouts) must pin them
 * to the live clock, or they spin or never fire.
 */
export const run = (name: string, makeLayer: () => Layer.Layer<Ports, unknown>, options: Options = {}): void => {
  const numRuns = options.numRuns ?? 20
  const racers = options.racers ?? 8
  const timeout = options.timeout

  const environment = (account: Account.Settings) => Layer.merge(makeLayer(), Account.layer(account))

  /** One test over a fresh store, the clock at `epoch`. */
  const test = (title: string, body: () => Effect.Effect<unknown, unknown, Env>, account: Account.Settings = settings) =>
    it.effect(title, () => Effect.andThen(TestClock.setTime(epoch), Effect.suspend(body)).pipe(Effect.provide(environment(account))), timeout)

  /** A property: every generated case runs over its own fresh store. */
  const property = <T>(title: string, arbitrary: fc.Arbitrary<T>, body: (value: T) => Effect.Effect<unknown, unknown, Env>) =>
    it(title, () =>
      fc.assert(
        fc.asyncProperty(arbitrary, (value) =>
          Effect.runPromise(
            Effect.andThen(TestClock.setTime(epoch), Effect.suspend(() => body(value))).pipe(
              Effect.scoped,
              Effect.provide(Layer.merge(environment(settings), TestClock.layer()))
            )
          ).then(() => undefined)),
        { numRuns }
      ), timeout)

  describe(`contract: ${name}`, () => {
    // -------------------------------------------------------------------------------------------
    describe("POST /contacts/:msisdn (4.6)", () => {
      test("creates the contact the interface describes: API, no tags, not monitoring, SUBSCRIBED, names and keys filled", () =>
        Effect.gen(function*() {
          const created = yield* ContactBook.createContact(msisdn(123456), { first_name: " Ann ", last_name: "Lee" })
          expect(sortedKeys(created)).toEqual(contactKeys)
          expect(created).toMatchObject({
            msisdn: "447400123456",
            phone_number: "7400123456",
            country_code: "44",
            first_name: "Ann",
            last_name: "Lee",
            full_name: "Ann Lee",
            added_from: "API",
            status: "SUBSCRIBED",
            tags: [],
            monitoring: false
          })
          expect(created.profile_uid).toMatch(/^[0-9a-f]+$/)
          expect(yield* ContactBook.getContact("447400123456")).toEqual(created)
          expect(yield* allContacts).toEqual([created])
        }))

      test("accepts the path as a number and a body that agrees with it (msisdn in any notation, country_code with +)", () =>
        Effect.gen(function*() {
          const a = yield* ContactBook.createContact(447400000001, { msisdn: 447400000001, country_code: "44" })
          const b = yield* ContactBook.createContact("447400000002", { msisdn: "+44 7400 000002", country_code: "+44" })
          expect([a.msisdn, b.msisdn]).toEqual([msisdn(1), msisdn(2)])
          expect(a.full_name).toBe("")
          expect(a.profile_uid).not.toBe(b.profile_uid)
        }))

      test("full_name joins the names with one space and skips a blank one", () =>
        Effect.gen(function*() {
          expect((yield* ContactBook.createContact(msisdn(1), { first_name: "Ann" })).full_name).toBe("Ann")
          expect((yield* ContactBook.createContact(msisdn(2), { last_name: " Lee " })).full_name).toBe("Lee")
          expect((yield* ContactBook.createContact(msisdn(3), { first_name: "  ", last_name: "" })).full_name).toBe("")
        }))

      test("a status in the body is refused, whatever its value, and nothing is created", () =>
        Effect.gen(function*() {
          for (const status of ["SUBSCRIBED", "CANCELLED", ""]) {
            expect(yield* refused(ContactBook.createContact(msisdn(1), { first_name: "Ann", status }), "InvalidField")).toMatchObject({
              field: "status"
            })
          }
          expect(yield* allContacts).toEqual([])
        }))

      test("a body msisdn or country_code that contradicts the path is refused, and nothing is created", () =>
        Effect.gen(function*() {
          expect(yield* refused(ContactBook.createContact(msisdn(1), { msisdn: msisdn(2) }), "InvalidField")).toMatchObject({
            field: "msisdn"
          })
          expect(yield* refused(ContactBook.createContact(msisdn(1), { country_code: "33" }), "InvalidField")).toMatchObject({
            field: "country_code"
          })
          expect(yield* allContacts).toEqual([])
        }))

      test("an existing msisdn is refused with ContactExists and the stored contact is untouched", () =>
        Effect.gen(function*() {
          const first = yield* ContactBook.createContact(msisdn(1), { first_name: "Ann" })
          expect(yield* refused(ContactBook.createContact(msisdn(1), { first_name: "Second" }), "ContactExists")).toMatchObject({
            msisdn: msisdn(1)
          })
          expect(yield* ContactBook.getContact(msisdn(1))).toEqual(first)
        }))

      test("a path that is not a phone number is refused with InvalidMsisdn", () =>
        Effect.gen(function*() {
          yield* refused(ContactBook.createContact("12", {}), "InvalidMsisdn")
          yield* refused(ContactBook.createContact("447700900123", {}), "InvalidMsisdn")
          expect(yield* allContacts).toEqual([])
        }))
    })

    // -------------------------------------------------------------------------------------------
    describe("GET, PUT, DELETE /contacts/:msisdn (4.5, 4.7, 4.8)", () => {
      test("get reads the path in any notation; an absent contact is ContactNotFound", () =>
        Effect.gen(function*() {
          const created = yield* ContactBook.createContact(msisdn(1), { first_name: "Ann" })
          expect(yield* ContactBook.getContact("+44 7400 000001")).toEqual(created)
          expect(yield* ContactBook.getContact(447400000001)).toEqual(created)
          expect(yield* refused(ContactBook.getContact(msisdn(2)), "ContactNotFound")).toMatchObject({ msisdn: msisdn(2) })
        }))

      test("edit changes names, tags and monitoring, recomputes full_name, keeps the rest, and stores it", () =>
        Effect.gen(function*() {
          const created = yield* ContactBook.createContact(msisdn(1), { first_name: "Ann", last_name: "Lee" })
          const edited = yield* ContactBook.editContact(msisdn(1), {
            first_name: "Anna",
            tags: [" news ", "NEWS", "", "vip"],
            monitoring: "1"
          })
          expect(edited).toEqual({
            ...created,
            first_name: "Anna",
            full_name: "Anna Lee",
            tags: ["news", "vip"],
            monitoring: true
          })
          expect(yield* ContactBook.getContact(msisdn(1))).toEqual(edited)
          const renamed = yield* ContactBook.editContact(msisdn(1), { last_name: "" })
          expect(renamed).toMatchObject({ first_name: "Anna", last_name: "", full_name: "Anna", tags: ["news", "vip"] })
          expect(yield* ContactBook.editContact(msisdn(1), {})).toEqual(renamed)
        }))

      test("edit refuses every non-editable field by name and leaves the contact untouched", () =>
        Effect.gen(function*() {
          const created = yield* ContactBook.createContact(msisdn(1), { first_name: "Ann" })
          const fields = {
            status: "CANCELLED",
            full_name: "X Y",
            msisdn: msisdn(1),
            phone_number: "7400000001",
            country_code: "44",
            added_from: "WEB_FORM",
            profile_uid: "ff"
          }
          for (const [field, value] of Object.entries(fields)) {
            expect(yield* refused(ContactBook.editContact(msisdn(1), { first_name: "Second", [field]: value }), "InvalidField")).toMatchObject({
              field
            })
          }
          expect(yield* refused(ContactBook.editContact(msisdn(1), { monitoring: "yes" }), "InvalidField")).toMatchObject({
            field: "monitoring"
          })
          expect(yield* ContactBook.getContact(msisdn(1))).toEqual(created)
        }))

      test("edit of an absent contact is ContactNotFound and creates nothing", () =>
        Effect.gen(function*() {
          expect(yield* refused(ContactBook.editContact(msisdn(9), { first_name: "Ann" }), "ContactNotFound")).toMatchObject({
            msisdn: msisdn(9)
          })
          expect(yield* allContacts).toEqual([])
        }))

      test("delete answers { msisdn, deleted: true }, removes the contact, and a second delete is ContactNotFound", () =>
        Effect.gen(function*() {
          yield* ContactBook.createContact(msisdn(1), {})
          const kept = yield* ContactBook.createContact(msisdn(2), {})
          expect(yield* ContactBook.deleteContact("+44 7400 000001")).toEqual({ msisdn: msisdn(1), deleted: true })
          yield* refused(ContactBook.getContact(msisdn(1)), "ContactNotFound")
          expect(yield* refused(ContactBook.deleteContact(msisdn(1)), "ContactNotFound")).toMatchObject({ msisdn: msisdn(1) })
          expect(yield* allContacts).toEqual([kept])
          const again = yield* ContactBook.createContact(msisdn(1), { first_name: "Back" })
          expect(again.first_name).toBe("Back")
        }))
    })

    // -------------------------------------------------------------------------------------------
    describe("GET /contacts (4.4)", () => {
      test("an empty book lists []", () => Effect.map(allContacts, (list) => expect(list).toEqual([])))

      test("contacts are ordered by msisdn, whatever the order they were created in", () =>
        Effect.gen(function*() {
          const numbers = ["447400000300", "12125550123", "447400000002", "33612345678", "4915123456789", "447400000100"]
          for (const number of numbers) yield* ContactBook.createContact(number, {})
          expect((yield* allContacts).map((c) => c.msisdn)).toEqual([...numbers].sort())
        }))

      test("Limit defaults to 50 and Start to 0; Limit 1000 is accepted; Start past the end gives []", () =>
        Effect.gen(function*() {
          yield* ContactBook.upsertContacts(Array.from({ length: 51 }, (_, i) => candidate(50 - i)), { blankErases: false })
          const all = yield* allContacts
          expect(all.map((c) => c.msisdn)).toEqual(Array.from({ length: 51 }, (_, i) => msisdn(i)))
          expect(yield* ContactBook.listContacts({})).toEqual(all.slice(0, 50))
          expect(yield* ContactBook.listContacts({ Start: "48" })).toEqual(all.slice(48))
          expect(yield* ContactBook.listContacts({ Start: "2", Limit: "3" })).toEqual(all.slice(2, 5))
          expect(yield* ContactBook.listContacts({ Start: "51" })).toEqual([])
          expect(yield* ContactBook.listContacts({ start: "10", limit: "1" })).toEqual(all.slice(10, 11))
          expect(yield* ContactBook.listContacts({ START: "10", LIMIT: "1" })).toEqual(all.slice(10, 11))
        }))

      test("Limit over 1000, Limit 0, a negative or non-numeric Start are refused, not clamped", () =>
        Effect.gen(function*() {
          yield* ContactBook.createContact(msisdn(1), {})
          for (const [parameter, params] of [
            ["Limit", { Limit: "1001" }],
            ["Limit", { Limit: "0" }],
            ["Limit", { Limit: "ten" }],
            ["Start", { Start: "-1" }],
            ["Start", { Start: "1.5" }]
          ] as const) {
            expect(yield* refused(ContactBook.listContacts(params), "InvalidParameter")).toMatchObject({ parameter })
          }
        }))

      test("Query matches a case-insensitive substring of the msisdn, first, last or full name", () =>
        Effect.gen(function*() {
          const ann = yield* ContactBook.createContact(msisdn(111), { first_name: "Ann", last_name: "Lee" })
          const second = yield* ContactBook.createContact(msisdn(222), { first_name: "Second", last_name: "Stone" })
          const carl = yield* ContactBook.createContact("33612345678", { first_name: "Carl" })
          const query = (text: string) => Effect.map(ContactBook.listContacts({ Query: text }), (list) => list.map((c) => c.msisdn))
          expect(yield* query("ANN")).toEqual([ann.msisdn])
          expect(yield* query("stone")).toEqual([second.msisdn])
          expect(yield* query("nn Le")).toEqual([ann.msisdn])
          expect(yield* query("612345")).toEqual([carl.msisdn])
          expect(yield* query("7400000")).toEqual([ann.msisdn, second.msisdn])
          expect(yield* query("o")).toEqual([second.msisdn])
          expect(yield* query("zzz")).toEqual([])
          expect(yield* ContactBook.listContacts({ query: "second" })).toEqual([second])
        }))

      test("Query takes % and _ literally (no wildcard)", () =>
        Effect.gen(function*() {
          const juice = yield* ContactBook.createContact(msisdn(1), { first_name: "100% Juice" })
          const under = yield* ContactBook.createContact(msisdn(2), { first_name: "Under_score" })
          yield* ContactBook.createContact(msisdn(3), { first_name: "Underxscore", last_name: "1000 Juice" })
          const query = (text: string) => Effect.map(ContactBook.listContacts({ Query: text }), (list) => list.map((c) => c.msisdn))
          expect(yield* query("%")).toEqual([juice.msisdn])
          expect(yield* query("0%")).toEqual([juice.msisdn])
          expect(yield* query("_")).toEqual([under.msisdn])
          expect(yield* query("r_s")).toEqual([under.msisdn])
          expect(yield* query("\\")).toEqual([])
        }))

      test("Status filters by status (any case, the samples' SUSCRIBED too); an unknown status is refused", () =>
        Effect.gen(function*() {
          const store = yield* ContactStore.ContactStore
          yield* store.insert(contactValue(1, { status: "INVITED", first_name: "Ivy" }))
          yield* store.insert(contactValue(2, { status: "CONFIRMED", first_name: "Cy" }))
          yield* store.insert(contactValue(3, { status: "CANCELLED", first_name: "Cat" }))
          yield* store.insert(contactValue(4, { first_name: "Sue" }))
          const status = (params: Record<string, string>) =>
            Effect.map(ContactBook.listContacts(params), (list) => list.map((c) => c.msisdn))
          expect(yield* status({ Status: "INVITED" })).toEqual([msisdn(1)])
          expect(yield* status({ Status: "confirmed" })).toEqual([msisdn(2)])
          expect(yield* status({ status: "CANCELLED" })).toEqual([msisdn(3)])
          expect(yield* status({ Status: "SUBSCRIBED" })).toEqual([msisdn(4)])
          expect(yield* status({ Status: "SUSCRIBED" })).toEqual([msisdn(4)])
          expect(yield* status({ Status: "CANCELLED", Query: "ca" })).toEqual([msisdn(3)])
          expect(yield* status({ Status: "CANCELLED", Query: "sue" })).toEqual([])
          expect(yield* refused(ContactBook.listContacts({ Status: "ACTIVE" }), "InvalidParameter")).toMatchObject({ parameter: "Status" })
        }))

      test("shortResults true/1 gives exactly { msisdn, first_name, last_name, status }; false/0 the full contact", () =>
        Effect.gen(function*() {
          const ann = yield* ContactBook.createContact(msisdn(1), { first_name: "Ann", last_name: "Lee" })
          const short = { msisdn: ann.msisdn, first_name: "Ann", last_name: "Lee", status: "SUBSCRIBED" }
          for (const value of ["1", "true", "TRUE"]) {
            const list = yield* ContactBook.listContacts({ shortResults: value })
            expect(list).toEqual([short])
            expect(list.map(sortedKeys)).toEqual([["first_name", "last_name", "msisdn", "status"]])
          }
          for (const value of ["0", "false", ""]) {
            expect(yield* ContactBook.listContacts({ shortresults: value })).toEqual([ann])
          }
          expect(yield* refused(ContactBook.listContacts({ shortResults: "yes" }), "InvalidParameter")).toMatchObject({
            parameter: "shortResults"
          })
        }))
    })

    // -------------------------------------------------------------------------------------------
    describe("upsertContacts (imports)", () => {
      test("new rows are created SUBSCRIBED from FILE_UPLOAD with their tags; a re-run is all unchanged and changes nothing", () =>
        Effect.gen(function*() {
          const rows = [
            candidate(2, { first_name: "Second", tags: ["news", " News ", "vip"] }),
            candidate(1, { first_name: "Ann", last_name: "Lee" })
          ]
          const first = yield* ContactBook.upsertContacts(rows, { blankErases: false })
          expect(first).toEqual([
            { kind: "created", msisdn: msisdn(2), optedOut: false, duplicate: false },
            { kind: "created", msisdn: msisdn(1), optedOut: false, duplicate: false }
          ])
          const stored = yield* allContacts
          expect(stored).toHaveLength(2)
          expect(stored[0]).toMatchObject({
            msisdn: msisdn(1),
            phone_number: "7400000001",
            country_code: "44",
            full_name: "Ann Lee",
            added_from: "FILE_UPLOAD",
            status: "SUBSCRIBED",
            tags: [],
            monitoring: false
          })
          expect(stored[1]).toMatchObject({ msisdn: msisdn(2), tags: ["news", "vip"], added_from: "FILE_UPLOAD" })
          const again = yield* ContactBook.upsertContacts(rows, { blankErases: false })
          expect(again.map((o) => o.kind)).toEqual(["unchanged", "unchanged"])
          expect(yield* allContacts).toEqual(stored)
        }))

      test("an existing contact is updated: names replaced, tags added, everything else kept", () =>
        Effect.gen(function*() {
          const created = yield* ContactBook.createContact(msisdn(1), { first_name: "Ann", last_name: "Lee" })
          yield* ContactBook.editContact(msisdn(1), { tags: ["news"], monitoring: true })
          const outcomes = yield* ContactBook.upsertContacts([candidate(1, { last_name: "Smith", tags: ["NEWS", "vip"] })], {
            blankErases: false
          })
          expect(outcomes).toEqual([{ kind: "updated", msisdn: msisdn(1), optedOut: false, duplicate: false }])
          expect(yield* ContactBook.getContact(msisdn(1))).toEqual({
            ...created,
            last_name: "Smith",
            full_name: "Ann Smith",
            tags: ["news", "vip"],
            monitoring: true
          })
        }))

      test("blank names keep the stored ones unless blankErases", () =>
        Effect.gen(function*() {
          yield* ContactBook.createContact(msisdn(1), { first_name: "Ann", last_name: "Lee" })
          const kept = yield* ContactBook.upsertContacts([candidate(1, { first_name: "", last_name: "" })], { blankErases: false })
          expect(kept.map((o) => o.kind)).toEqual(["unchanged"])
          expect(yield* ContactBook.getContact(msisdn(1))).toMatchObject({ first_name: "Ann", last_name: "Lee" })
          const erased = yield* ContactBook.upsertContacts([candidate(1, { last_name: "" })], { blankErases: true })
          expect(erased.map((o) => o.kind)).toEqual(["updated"])
          expect(yield* ContactBook.getContact(msisdn(1))).toMatchObject({ first_name: "", last_name: "", full_name: "" })
        }))

      test("a CANCELLED contact is never resubscribed by an import", () =>
        Effect.gen(function*() {
          yield* ContactBook.createContact(msisdn(1), { first_name: "Ann" })
          yield* ContactBook.optOut(msisdn(1))
          const outcomes = yield* ContactBook.upsertContacts([candidate(1, { first_name: "Anna", tags: ["news"] })], {
            blankErases: false
          })
          expect(outcomes).toEqual([{ kind: "updated", msisdn: msisdn(1), optedOut: true, duplicate: false }])
          expect(yield* ContactBook.getContact(msisdn(1))).toMatchObject({ first_name: "Anna", status: "CANCELLED", tags: ["news"] })
          const again = yield* ContactBook.upsertContacts([candidate(1, { first_name: "Anna" })], { blankErases: false })
          expect(again).toEqual([{ kind: "unchanged", msisdn: msisdn(1), optedOut: true, duplicate: false }])
          expect((yield* ContactBook.getContact(msisdn(1))).status).toBe("CANCELLED")
        }))

      test("the same number twice in a batch is merged into one contact", () =>
        Effect.gen(function*() {
          yield* ContactBook.createContact(msisdn(2), { first_name: "Second" })
          const outcomes = yield* ContactBook.upsertContacts([
            candidate(1, { first_name: "Ann", tags: ["a"] }),
            candidate(2, { first_name: "Rob" }),
            candidate(1, { first_name: "Anna", tags: ["b"] }),
            candidate(2, { first_name: "Bobby" }),
            candidate(1, { first_name: "Anna", tags: ["A"] })
          ], { blankErases: false })
          expect(outcomes).toEqual([
            { kind: "created", msisdn: msisdn(1), optedOut: false, duplicate: false },
            { kind: "updated", msisdn: msisdn(2), optedOut: false, duplicate: false },
            { kind: "updated", msisdn: msisdn(1), optedOut: false, duplicate: true },
            { kind: "updated", msisdn: msisdn(2), optedOut: false, duplicate: true },
            { kind: "unchanged", msisdn: msisdn(1), optedOut: false, duplicate: true }
          ])
          const list = yield* allContacts
          expect(list.map((c) => [c.msisdn, c.first_name, c.tags])).toEqual([
            [msisdn(1), "Anna", ["a", "b"]],
            [msisdn(2), "Bobby", []]
          ])
        }))
    })

    // -------------------------------------------------------------------------------------------
    describe("POST /messages/send_to_contact (4.2)", () => {
      test("answers READY, type 1, sent_count 0, error_count 0, total_recipients 1, total_monitors 0, with message_id, msisdn, country, created_by", () =>
        Effect.gen(function*() {
          const sent = yield* Messaging.sendToContact({ msisdn: msisdn(1), message: "Hello there" })
          expect(sortedKeys(sent)).toEqual(individualKeys)
          expect(sent).toMatchObject({
            short_code: settings.short_code,
            country: "44",
            msisdn: msisdn(1),
            direction: "MT",
            status: "READY",
            message: "Hello there",
            total_recipients: 1,
            sent_count: 0,
            error_count: 0,
            total_monitors: 0,
            is_scheduled: false,
            is_billable: true,
            created_on: "2026-11-21 10:15:00",
            created_by: settings.user,
            type: 1
          })
          expect(sent.message_id).toMatch(/^[0-9a-f]+$/)
          expect(yield* allMessages).toEqual([sent])
        }))

      test("reads the table's misdn and a numeric id, which comes back as text", () =>
        Effect.gen(function*() {
          const sent = yield* Messaging.sendToContact({ misdn: 447400000001, message: "Hi", id: 12345 })
          expect(sortedKeys(sent)).toEqual(withKey(individualKeys, "id"))
          expect(sent).toMatchObject({ msisdn: msisdn(1), id: "12345" })
          expect(yield* allMessages).toEqual([sent])
        }))

      test("created_on is rendered in the account's time zone", () =>
        Effect.gen(function*() {
          const sent = yield* Messaging.sendToContact({ msisdn: msisdn(1), message: "Hi" })
          expect(sent.created_on).toBe("2026-11-21 19:15:00")
          expect((yield* allMessages).map((m) => m.created_on)).toEqual(["2026-11-21 19:15:00"])
        }), { ...settings, time_zone: "Asia/Tokyo" })

      test("a text over the budget is MessageTooLong, the budget itself fits; nothing is created on refusal", () =>
        Effect.gen(function*() {
          const budget = Sms.budget(settings.short_name)
          expect(yield* refused(Messaging.sendToContact({ msisdn: msisdn(1), message: "x".repeat(budget + 1) }), "MessageTooLong"))
            .toMatchObject({ length: budget + 1, max: budget })
          expect(yield* allMessages).toEqual([])
          const sent = yield* Messaging.sendToContact({ msisdn: msisdn(1), message: "x".repeat(budget) })
          expect(sent.message).toBe("x".repeat(budget))
        }))

      test("an id over 40 characters is ExternalIdTooLong, 40 fit; nothing is created on refusal", () =>
        Effect.gen(function*() {
          expect(yield* refused(Messaging.sendToContact({ msisdn: msisdn(1), message: "Hi", id: "i".repeat(41) }), "ExternalIdTooLong"))
            .toMatchObject({ length: 41, max: 40 })
          expect(yield* allMessages).toEqual([])
          expect((yield* Messaging.sendToContact({ msisdn: msisdn(1), message: "Hi", id: "i".repeat(40) })).id).toBe("i".repeat(40))
        }))

      test("a number that is not a phone number is InvalidMsisdn; a number not in the book may be sent to", () =>
        Effect.gen(function*() {
          yield* refused(Messaging.sendToContact({ msisdn: "12", message: "Hi" }), "InvalidMsisdn")
          yield* refused(Messaging.sendToContact({ message: "Hi" }), "InvalidField")
          expect(yield* allMessages).toEqual([])
          expect((yield* Messaging.sendToContact({ msisdn: "+1 212 555 0123", message: "Hi" })).msisdn).toBe("12125550123")
        }))

      test("an opted-out (CANCELLED) contact is refused with RecipientOptedOut and nothing is created", () =>
        Effect.gen(function*() {
          yield* ContactBook.createContact(msisdn(1), {})
          yield* ContactBook.optOut(msisdn(1))
          expect(yield* refused(Messaging.sendToContact({ msisdn: msisdn(1), message: "Hi" }), "RecipientOptedOut")).toMatchObject({
            msisdn: msisdn(1)
          })
          expect(yield* allMessages).toEqual([])
        }))

      test("delivery hands every part of the prefixed text to the carrier once: SENT, sent_count = parts", () =>
        Effect.gen(function*() {
          const sent = yield* Messaging.sendToContact({ msisdn: msisdn(1), message: twoPartText })
          const delivered = yield* Messaging.deliverMessage(sent.message_id ?? "")
          expect(delivered).toEqual({ ...sent, status: "SENT", sent_count: 2 })
          const parts = yield* partsOf(sent.message_id ?? "")
          expect(parts.map((p) => [p.msisdn, p.part, p.parts, p.short_code])).toEqual([
            [msisdn(1), 1, 2, settings.short_code],
            [msisdn(1), 2, 2, settings.short_code]
          ])
          expect(textsByMsisdn(parts).get(msisdn(1))).toBe(Sms.prefix(settings.short_name, twoPartText))
          expect(yield* refused(Messaging.deliverMessage(sent.message_id ?? ""), "IllegalTransition")).toMatchObject({
            from: "SENT",
            to: "SENT"
          })
          expect(yield* partsOf(sent.message_id ?? "")).toHaveLength(2)
          expect(yield* allMessages).toEqual([delivered])
        }))
    })

    // -------------------------------------------------------------------------------------------
    describe("POST /messages/send (4.3) and the processing of a group message", () => {
      test("answers PENDING, type 2, zero counts, not billable nor scheduled, and omits message_id, msisdn, country, created_by", () =>
        Effect.gen(function*() {
          const { message_id, response } = yield* Messaging.sendToGroups({ tags: ["News"], message: "Big news" })
          expect(sortedKeys(response)).toEqual(groupResponseKeys)
          expect(response).toEqual({
            short_code: settings.short_code,
            direction: "MT",
            status: "PENDING",
            message: "Big news",
            total_recipients: 0,
            sent_count: 0,
            error_count: 0,
            total_monitors: 0,
            is_scheduled: false,
            is_billable: false,
            created_on: "2026-11-21 10:15:00",
            type: 2
          })
          const listed = yield* allMessages
          expect(listed).toEqual([{ ...response, message_id, created_by: settings.user }])
          const withId = yield* Messaging.sendToGroups({ tags: ["News"], message: "More", id: 77 })
          expect(sortedKeys(withId.response)).toEqual(withKey(groupResponseKeys, "id"))
          expect(withId.response.id).toBe("77")
        }))

      test("without tags (absent, empty, blank) it is refused with MissingTags and nothing is created", () =>
        Effect.gen(function*() {
          yield* ContactBook.createContact(msisdn(1), {})
          yield* refused(Messaging.sendToGroups({ message: "Hi" }), "MissingTags")
          yield* refused(Messaging.sendToGroups({ tags: [], message: "Hi" }), "MissingTags")
          yield* refused(Messaging.sendToGroups({ tags: [" ", ""], message: "Hi" }), "MissingTags")
          expect(yield* allMessages).toEqual([])
        }))

      test("a text over the budget or an id over 40 characters is refused and nothing is created", () =>
        Effect.gen(function*() {
          const budget = Sms.budget(settings.short_name)
          yield* refused(Messaging.sendToGroups({ tags: ["a"], message: "x".repeat(budget + 1) }), "MessageTooLong")
          yield* refused(Messaging.sendToGroups({ tags: ["a"], message: "Hi", id: "i".repeat(41) }), "ExternalIdTooLong")
          expect(yield* allMessages).toEqual([])
        }))

      test("processing goes PENDING → PROCESSING → READY → SENT, handing over only while PROCESSING", () =>
        Effect.gen(function*() {
          const store = yield* MessageStore.MessageStore
          const carrier = yield* Carrier.Carrier
          yield* ContactBook.createContact(msisdn(1), {})
          yield* ContactBook.editContact(msisdn(1), { tags: ["news"] })
          const { message_id } = yield* Messaging.sendToGroups({ tags: ["news"], message: "Big news" })
          expect(Option.map(yield* store.get(message_id), (m) => m.status)).toEqual(Option.some("PENDING"))
          const moves: Array<string> = []
          const seenWhileHandingOver: Array<string> = []
          const { message } = yield* Messaging.processGroupMessage(message_id).pipe(
            Effect.provideService(MessageStore.MessageStore, {
              ...store,
              update: (m) => Effect.andThen(Effect.sync(() => moves.push(m.status)), store.update(m))
            }),
            Effect.provideService(Carrier.Carrier, {
              handOver: (parts) =>
                Effect.andThen(
                  Effect.tap(store.get(message_id), (m) => Effect.sync(() => seenWhileHandingOver.push(Option.getOrThrow(m).status))),
                  carrier.handOver(parts)
                )
            })
          )
          expect(moves).toEqual(["PROCESSING", "READY", "SENT"])
          expect(seenWhileHandingOver).toEqual(["PROCESSING"])
          expect(message.status).toBe("SENT")
          expect(yield* store.get(message_id)).toEqual(Option.some(message))
        }))

      test("reaches SUBSCRIBED and CONFIRMED contacts of any tag (any case) once each; monitors get a copy and are counted apart", () =>
        Effect.gen(function*() {
          const contacts = yield* ContactStore.ContactStore
          yield* contacts.insert(contactValue(1, { tags: ["News"] }))
          yield* contacts.insert(contactValue(2, { tags: ["sport", "NEWS"], status: "CONFIRMED" }))
          yield* contacts.insert(contactValue(3, { tags: ["news"], status: "INVITED" }))
          yield* contacts.insert(contactValue(4, { tags: ["news"], status: "CANCELLED", monitoring: true }))
          yield* contacts.insert(contactValue(5, { tags: ["other"], monitoring: true }))
          yield* contacts.insert(contactValue(6, { tags: ["news"], monitoring: true }))
          yield* contacts.insert(contactValue(7, { tags: ["other"] }))
          yield* contacts.insert(contactValue(8, { monitoring: true, status: "INVITED" }))
          yield* contacts.insert(contactValue(9, { monitoring: true, status: "CANCELLED" }))
          yield* contacts.insert(contactValue(10, { tags: ["newsletter"] }))
          const { message_id } = yield* Messaging.sendToGroups({ tags: ["news", "Sport"], message: twoPartText })
          const { handedOver, message } = yield* Messaging.processGroupMessage(message_id)
          const segments = Sms.analyzePrefixed(settings.short_name, twoPartText).segments
          expect(segments).toBe(2)
          expect(message).toMatchObject({
            status: "SENT",
            total_recipients: 3,
            total_monitors: 1,
            sent_count: segments * (3 + 1),
            error_count: 0
          })
          expect(handedOver).toBe(4)
          const parts = yield* partsOf(message_id)
          expect(parts).toHaveLength(message.sent_count)
          expect(new Set(parts.map((p) => `${p.msisdn}/${p.part}`)).size).toBe(parts.length)
          const texts = textsByMsisdn(parts)
          expect([...texts.keys()].sort()).toEqual([msisdn(1), msisdn(2), msisdn(5), msisdn(6)])
          for (const text of texts.values()) expect(text).toBe(Sms.prefix(settings.short_name, twoPartText))
          expect(parts.every((p) => p.parts === segments && p.short_code === settings.short_code)).toBe(true)
          const listed = yield* allMessages
          expect(listed).toHaveLength(1)
          expect(listed[0]).toMatchObject({ status: "SENT", total_recipients: 3, total_monitors: 1, sent_count: 8, type: 2 })
          expect(listed[0]).not.toHaveProperty("msisdn")
        }))

      test("processing twice, or a resumed run, hands nobody anything twice and keeps the counts", () =>
        Effect.gen(function*() {
          const store = yield* MessageStore.MessageStore
          yield* ContactBook.upsertContacts([1, 2, 3, 4].map((n) => candidate(n, { tags: ["club"] })), { blankErases: false })
          const { message_id } = yield* Messaging.sendToGroups({ tags: ["club"], message: "Meeting tonight" })
          // A crashed run: two members were handed the message, then the process died while PROCESSING.
          const pending = Option.getOrThrow(yield* store.get(message_id))
          yield* store.update({ ...pending, status: "PROCESSING" })
          expect(yield* store.recordDeliveries(message_id, [msisdn(2), msisdn(4)])).toEqual([msisdn(2), msisdn(4)])
          const resumed = yield* Messaging.processGroupMessage(message_id)
          expect(resumed.handedOver).toBe(2)
          expect(resumed.message).toMatchObject({ status: "SENT", total_recipients: 4, sent_count: 4 })
          expect((yield* partsOf(message_id)).map((p) => p.msisdn).sort()).toEqual([msisdn(1), msisdn(3)])
          const twice = yield* Messaging.processGroupMessage(message_id)
          expect(twice).toEqual({ message: resumed.message, handedOver: 0 })
          // Sent, then found PROCESSING again (a stale worker): still nobody gets it twice.
          yield* store.update({ ...resumed.message, status: "PROCESSING" })
          const again = yield* Messaging.processGroupMessage(message_id)
          expect(again.handedOver).toBe(0)
          expect(again.message).toEqual(resumed.message)
          expect(yield* partsOf(message_id)).toHaveLength(2)
          expect(yield* store.countDeliveries(message_id)).toBe(4)
        }))

      test("concurrent processing of one message hands each member every part exactly once", () =>
        Effect.gen(function*() {
          yield* ContactBook.upsertContacts(Array.from({ length: 12 }, (_, n) => candidate(n, { tags: ["all"] })), { blankErases: false })
          const { message_id } = yield* Messaging.sendToGroups({ tags: ["all"], message: twoPartText })
          const runs = yield* Effect.all(
            Array.from({ length: racers }, () => Messaging.processGroupMessage(message_id)),
            { concurrency: "unbounded" }
          )
          expect(runs.reduce((sum, r) => sum + r.handedOver, 0)).toBe(12)
          const parts = yield* partsOf(message_id)
          expect(parts).toHaveLength(24)
          expect(new Set(parts.map((p) => `${p.msisdn}/${p.part}`)).size).toBe(24)
          expect(Option.map(yield* (yield* MessageStore.MessageStore).get(message_id), (m) => [m.status, m.sent_count])).toEqual(
            Option.some(["SENT", 24])
          )
        }))

      test("a group with nobody to reach completes with zero counts and hands nothing over", () =>
        Effect.gen(function*() {
          yield* ContactBook.createContact(msisdn(1), {})
          const { message_id } = yield* Messaging.sendToGroups({ tags: ["ghosts"], message: "Boo" })
          const { handedOver, message } = yield* Messaging.processGroupMessage(message_id)
          expect(handedOver).toBe(0)
          expect(message).toMatchObject({ status: "SENT", total_recipients: 0, total_monitors: 0, sent_count: 0 })
          expect(yield* partsOf(message_id)).toEqual([])
        }))

      test("an individual message is not processed as a group; an unknown message_id is refused", () =>
        Effect.gen(function*() {
          const sent = yield* Messaging.sendToContact({ msisdn: msisdn(1), message: "Hi" })
          yield* refused(Messaging.processGroupMessage(sent.message_id ?? ""), "IllegalTransition")
          expect(yield* refused(Messaging.processGroupMessage("ffff"), "MessageNotFound")).toMatchObject({
            message_id: "ffff"
          })
        }))
    })

    // -------------------------------------------------------------------------------------------
    describe("broadcast (a group send carried through to SENT)", () => {
      test("sends and processes: SENT, every member handed the message once", () =>
        Effect.gen(function*() {
          yield* ContactBook.upsertContacts([1, 2, 3].map((n) => candidate(n, { tags: ["club"] })), { blankErases: false })
          const { handedOver, message, resumed } = yield* Messaging.broadcast({ tags: ["CLUB"], message: "Tonight" }, { allowEmpty: false })
          expect(resumed).toBe(false)
          expect(handedOver).toBe(3)
          expect(message).toMatchObject({ status: "SENT", type: 2, total_recipients: 3, sent_count: 3, tags: ["CLUB"] })
          expect((yield* partsOf(message.message_id)).map((p) => p.msisdn).sort()).toEqual([msisdn(1), msisdn(2), msisdn(3)])
          expect(yield* allMessages).toHaveLength(1)
        }))

      test("nobody to reach (monitors alone do not count) is NoRecipients and creates nothing, unless allowEmpty", () =>
        Effect.gen(function*() {
          yield* ContactBook.createContact(msisdn(1), {})
          yield* ContactBook.editContact(msisdn(1), { monitoring: true })
          yield* ContactBook.createContact(msisdn(2), {})
          yield* ContactBook.editContact(msisdn(2), { tags: ["ghosts"] })
          yield* ContactBook.optOut(msisdn(2))
          expect(yield* refused(Messaging.broadcast({ tags: ["ghosts"], message: "Boo" }, { allowEmpty: false }), "NoRecipients"))
            .toMatchObject({ tags: ["ghosts"] })
          expect(yield* allMessages).toEqual([])
          yield* refused(Messaging.broadcast({ message: "Boo" }, { allowEmpty: false }), "MissingTags")
          expect(yield* allMessages).toEqual([])
          const { message } = yield* Messaging.broadcast({ tags: ["ghosts"], message: "Boo" }, { allowEmpty: true })
          expect(message).toMatchObject({ status: "SENT", total_recipients: 0, total_monitors: 1, sent_count: 1 })
          expect((yield* partsOf(message.message_id)).map((p) => p.msisdn)).toEqual([msisdn(1)])
        }))

      test("the id of an unfinished group message resumes it (same text and tags), nobody twice; a finished one is DuplicateSend", () =>
        Effect.gen(function*() {
          const store = yield* MessageStore.MessageStore
          yield* ContactBook.upsertContacts([1, 2, 3].map((n) => candidate(n, { tags: ["club"] })), { blankErases: false })
          // An interrupted run: created, one member handed the message, then the process died.
          const { message_id } = yield* Messaging.sendToGroups({ tags: ["club"], message: "Tonight", id: "weekly" })
          yield* store.update({ ...Option.getOrThrow(yield* store.get(message_id)), status: "PROCESSING" })
          yield* store.recordDeliveries(message_id, [msisdn(2)])
          yield* TestClock.adjust("1 minute")
          expect(yield* refused(Messaging.broadcast({ tags: ["club"], message: "Changed", id: "weekly" }, { allowEmpty: false }), "InvalidField"))
            .toMatchObject({ field: "id" })
          const resumed = yield* Messaging.broadcast({ tags: ["club"], message: "Tonight", id: "weekly" }, { allowEmpty: false })
          expect(resumed).toMatchObject({ resumed: true, handedOver: 2 })
          expect(resumed.message).toMatchObject({ message_id, status: "SENT", total_recipients: 3, sent_count: 3 })
          expect((yield* partsOf(message_id)).map((p) => p.msisdn).sort()).toEqual([msisdn(1), msisdn(3)])
          yield* refused(Messaging.broadcast({ tags: ["club"], message: "Tonight", id: "weekly" }, { allowEmpty: false }), "DuplicateSend")
          expect(yield* allMessages).toHaveLength(1)
        }))
    })

    // -------------------------------------------------------------------------------------------
    describe("GET /messages (4.1)", () => {
      test("messages are ordered by creation, then message_id", () =>
        Effect.gen(function*() {
          const a = yield* Messaging.sendToContact({ msisdn: msisdn(1), message: "a" })
          const b = yield* Messaging.sendToContact({ msisdn: msisdn(2), message: "b" })
          yield* TestClock.setTime(epoch - 60_000)
          const early = yield* Messaging.receiveMessage(msisdn(3), "early")
          yield* TestClock.setTime(epoch + 1)
          const c = (yield* Messaging.sendToGroups({ tags: ["x"], message: "c" })).message_id
          const listed = yield* allMessages
          const sameInstant = [a.message_id, b.message_id].sort()
          expect(listed.map((m) => m.message_id)).toEqual([early.message.message_id, ...sameInstant, c])
        }))

      test("Limit defaults to 200; start offsets; Limit 1000 is the most, over it is refused", () =>
        Effect.gen(function*() {
          yield* Effect.forEach(Array.from({ length: 201 }, (_, i) => i), (i) =>
            Effect.andThen(TestClock.setTime(epoch + i * 1000), Messaging.receiveMessage(msisdn(i % 7), `m${i}`)))
          const all = yield* allMessages
          expect(all.map((m) => m.message)).toEqual(Array.from({ length: 201 }, (_, i) => `m${i}`))
          expect(yield* Messaging.listMessages({})).toEqual(all.slice(0, 200))
          expect(yield* Messaging.listMessages({ start: "199" })).toEqual(all.slice(199))
          expect(yield* Messaging.listMessages({ Start: "5", limit: "2" })).toEqual(all.slice(5, 7))
          expect(yield* Messaging.listMessages({ start: "201" })).toEqual([])
          expect(yield* refused(Messaging.listMessages({ Limit: "1001" }), "InvalidParameter")).toMatchObject({ parameter: "Limit" })
          expect(yield* refused(Messaging.listMessages({ start: "-1" }), "InvalidParameter")).toMatchObject({ parameter: "start" })
        }))

      test("direction selects MT, MO or ALL (the default), in any case; anything else is refused", () =>
        Effect.gen(function*() {
          const mt = yield* Messaging.sendToContact({ msisdn: msisdn(1), message: "out" })
          const group = yield* Messaging.sendToGroups({ tags: ["x"], message: "out to group" })
          yield* TestClock.adjust(1)
          const mo = yield* Messaging.receiveMessage(msisdn(1), "in")
          const ids = (params: Record<string, string>) => Effect.map(Messaging.listMessages(params), (list) => list.map((m) => m.message_id))
          expect((yield* ids({ direction: "MT" })).sort()).toEqual([mt.message_id, group.message_id].sort())
          expect(yield* ids({ direction: "mo" })).toEqual([mo.message.message_id])
          expect(yield* ids({ Direction: "ALL" })).toHaveLength(3)
          expect(yield* ids({})).toHaveLength(3)
          expect(yield* refused(Messaging.listMessages({ direction: "IN" }), "InvalidParameter")).toMatchObject({ parameter: "direction" })
        }))

      test("misdn (or msisdn) selects the messages of one number, both directions; a bad number is refused", () =>
        Effect.gen(function*() {
          const out = yield* Messaging.sendToContact({ msisdn: msisdn(1), message: "out" })
          yield* Messaging.sendToContact({ msisdn: msisdn(2), message: "other" })
          yield* Messaging.sendToGroups({ tags: ["x"], message: "group" })
          yield* TestClock.adjust(1)
          const back = yield* Messaging.receiveMessage(msisdn(1), "reply")
          const expected = [out.message_id, back.message.message_id]
          const ids = (params: Record<string, string>) => Effect.map(Messaging.listMessages(params), (list) => list.map((m) => m.message_id))
          expect(yield* ids({ misdn: msisdn(1) })).toEqual(expected)
          expect(yield* ids({ msisdn: "+44 7400 000001" })).toEqual(expected)
          expect(yield* ids({ misdn: msisdn(1), direction: "MO" })).toEqual([back.message.message_id])
          expect(yield* ids({ misdn: msisdn(3) })).toEqual([])
          expect(yield* refused(Messaging.listMessages({ misdn: "12" }), "InvalidParameter")).toMatchObject({ parameter: "misdn" })
        }))

      test("group_short_name selects the group messages sent to that tag, in any case", () =>
        Effect.gen(function*() {
          const news = yield* Messaging.sendToGroups({ tags: ["News", "Sport"], message: "both" })
          const sport = yield* Messaging.sendToGroups({ tags: ["sport"], message: "sport" })
          yield* Messaging.sendToContact({ msisdn: msisdn(1), message: "individual" })
          const ids = (tag: string) =>
            Effect.map(Messaging.listMessages({ group_short_name: tag }), (list) => list.map((m) => m.message_id).sort())
          expect(yield* ids("news")).toEqual([news.message_id])
          expect(yield* ids("SPORT")).toEqual([news.message_id, sport.message_id].sort())
          expect(yield* ids("spor")).toEqual([])
          expect(yield* ids("individual")).toEqual([])
        }))

      test("start_date and end_date are HTTP-dates, inclusive to the second, each optional (an absent bound is open)", () =>
        Effect.gen(function*() {
          const at = (offset: number, text: string) =>
            Effect.andThen(TestClock.setTime(epoch + offset), Messaging.receiveMessage(msisdn(1), text))
          yield* at(0, "t0")
          yield* at(3_600_999, "t1")
          yield* at(7_200_000, "t2")
          const texts = (params: Record<string, string>) => Effect.map(Messaging.listMessages(params), (list) => list.map((m) => m.message))
          const hour = httpDate(3_600_000)
          expect(hour).toBe("Sat, 21 Nov 2026 11:15:00 GMT")
          expect(yield* texts({ start_date: hour })).toEqual(["t1", "t2"])
          expect(yield* texts({ end_date: hour })).toEqual(["t0", "t1"])
          expect(yield* texts({ start_date: hour, end_date: hour })).toEqual(["t1"])
          expect(yield* texts({ start_date: httpDate(3_601_000) })).toEqual(["t2"])
          expect(yield* texts({ end_date: httpDate(3_599_000) })).toEqual(["t0"])
          expect(yield* texts({ start_date: "Saturday, 21-Nov-26 11:15:00 GMT" })).toEqual(["t1", "t2"])
          expect(yield* texts({ end_date: "Sat Nov 21 11:15:00 2026" })).toEqual(["t0", "t1"])
          expect(yield* texts({ START_DATE: "Sat, 21 Nov 2026 12:15:00 +0100" })).toEqual(["t1", "t2"])
          expect(yield* texts({ start_date: "", end_date: "" })).toEqual(["t0", "t1", "t2"])
          expect(yield* refused(Messaging.listMessages({ start_date: "2026-11-21" }), "InvalidParameter")).toMatchObject({
            parameter: "start_date"
          })
          expect(yield* refused(Messaging.listMessages({ end_date: "Sun, 21 Nov 2026 11:15:00 GMT" }), "InvalidParameter"))
            .toMatchObject({ parameter: "end_date" })
          expect(yield* refused(Messaging.listMessages({ start_date: httpDate(1000), end_date: httpDate(0) }), "InvalidParameter"))
            .toMatchObject({ parameter: "start_date" })
        }))

      test("filters combine", () =>
        Effect.gen(function*() {
          yield* Messaging.sendToContact({ msisdn: msisdn(1), message: "early out" })
          yield* TestClock.setTime(epoch + 10_000)
          yield* Messaging.receiveMessage(msisdn(1), "late in")
          yield* Messaging.sendToContact({ msisdn: msisdn(1), message: "late out" })
          yield* Messaging.sendToContact({ msisdn: msisdn(2), message: "late other" })
          const listed = yield* Messaging.listMessages({ start_date: httpDate(10_000), misdn: msisdn(1), direction: "MT" })
          expect(listed.map((m) => m.message)).toEqual(["late out"])
        }))
    })

    // -------------------------------------------------------------------------------------------
    describe("anti-spam", () => {
      test("the same id within the spam period is DuplicateSend naming the first message, and nothing is created", () =>
        Effect.gen(function*() {
          const first = yield* Messaging.sendToContact({ msisdn: msisdn(1), message: "Hi", id: "promo-1" })
          yield* TestClock.adjust("1 hour")
          const error = yield* refused(Messaging.sendToContact({ msisdn: msisdn(2), message: "Hi again", id: "promo-1" }), "DuplicateSend")
          expect(error).toMatchObject({ id: "promo-1", message_id: first.message_id, created_at: new Date(epoch).toISOString() })
          yield* refused(Messaging.sendToGroups({ tags: ["all"], message: "Hi all", id: "promo-1" }), "DuplicateSend")
          expect(yield* allMessages).toEqual([first])
        }))

      test("ids are shared by individual and group sends; a numeric id equals its text", () =>
        Effect.gen(function*() {
          const group = yield* Messaging.sendToGroups({ tags: ["all"], message: "Hi", id: 42 })
          expect(yield* refused(Messaging.sendToContact({ msisdn: msisdn(1), message: "Hi", id: "42" }), "DuplicateSend")).toMatchObject({
            message_id: group.message_id
          })
          yield* Messaging.sendToContact({ msisdn: msisdn(1), message: "Hi", id: "43" })
          yield* Messaging.sendToContact({ msisdn: msisdn(1), message: "Hi" })
          yield* Messaging.sendToContact({ msisdn: msisdn(1), message: "Hi" })
          expect(yield* allMessages).toHaveLength(4)
        }))

      test("the period is measured on the clock: refused up to and at its end, allowed once it has passed", () =>
        Effect.gen(function*() {
          const period = settings.spam_period_seconds * 1000
          yield* Messaging.sendToContact({ msisdn: msisdn(1), message: "Hi", id: "daily" })
          yield* TestClock.setTime(epoch + period - 1)
          yield* refused(Messaging.sendToContact({ msisdn: msisdn(1), message: "Hi", id: "daily" }), "DuplicateSend")
          yield* TestClock.setTime(epoch + period)
          yield* refused(Messaging.sendToContact({ msisdn: msisdn(1), message: "Hi", id: "daily" }), "DuplicateSend")
          yield* TestClock.setTime(epoch + period + 1)
          const later = yield* Messaging.sendToContact({ msisdn: msisdn(1), message: "Hi", id: "daily" })
          yield* TestClock.adjust("1 hour")
          expect(yield* refused(Messaging.sendToGroups({ tags: ["a"], message: "Hi", id: "daily" }), "DuplicateSend")).toMatchObject({
            message_id: later.message_id
          })
          expect(yield* allMessages).toHaveLength(2)
        }))

      test("with a spam period of 0 the same id is refused only at the same instant", () =>
        Effect.gen(function*() {
          yield* Messaging.sendToContact({ msisdn: msisdn(1), message: "Hi", id: "x" })
          yield* refused(Messaging.sendToContact({ msisdn: msisdn(1), message: "Hi", id: "x" }), "DuplicateSend")
          yield* TestClock.adjust(1)
          yield* Messaging.sendToContact({ msisdn: msisdn(1), message: "Hi", id: "x" })
        }), { ...settings, spam_period_seconds: 0 })

      test("concurrent sends with the same id: exactly one succeeds, the others are DuplicateSend", () =>
        Effect.gen(function*() {
          const send = (i: number): Effect.Effect<unknown, SmsbookError, Env> =>
            i % 2 === 0
              ? Messaging.sendToContact({ msisdn: msisdn(i), message: `Hi ${i}`, id: "race" })
              : Messaging.sendToGroups({ tags: ["all"], message: `Hi ${i}`, id: "race" })
          const sends = Array.from({ length: racers }, (_, i) => Effect.result(send(i)))
          const results = yield* Effect.all(sends, { concurrency: "unbounded" })
          expect(results.filter(Result.isSuccess)).toHaveLength(1)
          const failures = results.filter(Result.isFailure).map((r) => r.failure._tag)
          expect(failures).toEqual(Array.from({ length: racers - 1 }, () => "DuplicateSend"))
          expect(yield* allMessages).toHaveLength(1)
        }))
    })

    // -------------------------------------------------------------------------------------------
    describe("opt-out and inbound messages", () => {
      test("an inbound SMS is recorded as MO and listed; a text that is not only a keyword changes nothing", () =>
        Effect.gen(function*() {
          const ann = yield* ContactBook.createContact(msisdn(1), { first_name: "Ann" })
          const { action, message } = yield* Messaging.receiveMessage("+44 7400 000001", "Please STOP sending")
          expect(action).toBeUndefined()
          expect(message).toMatchObject({
            msisdn: msisdn(1),
            country: "44",
            direction: "MO",
            message: "Please STOP sending",
            short_code: settings.short_code,
            created_on: "2026-11-21 10:15:00"
          })
          expect(message).not.toHaveProperty("created_by")
          expect(yield* allMessages).toEqual([message])
          expect(yield* ContactBook.getContact(msisdn(1))).toEqual(ann)
        }))

      test("every opt-out keyword, in any case, alone in the text, makes the contact CANCELLED", () =>
        Effect.gen(function*() {
          const keywords = ["STOP", "stopall", " Unsubscribe ", "END", "quit", "Cancel", "OPTOUT\n"]
          yield* ContactBook.upsertContacts(keywords.map((_, i) => candidate(i)), { blankErases: false })
          for (const [i, keyword] of keywords.entries()) {
            const { action, contact } = yield* Messaging.receiveMessage(msisdn(i), keyword)
            expect(action).toBe("opt-out")
            expect(contact?.status).toBe("CANCELLED")
          }
          expect((yield* ContactBook.listContacts({ Status: "CANCELLED" })).map((c) => c.msisdn)).toEqual(keywords.map((_, i) => msisdn(i)))
          expect(yield* Messaging.listMessages({ direction: "MO" })).toHaveLength(keywords.length)
        }))

      test("START or UNSTOP resubscribes a CANCELLED contact; an unknown number's keyword creates it from SMS in that state", () =>
        Effect.gen(function*() {
          yield* ContactBook.createContact(msisdn(1), { first_name: "Ann" })
          yield* Messaging.receiveMessage(msisdn(1), "stop")
          expect((yield* Messaging.receiveMessage(msisdn(1), "Start")).contact?.status).toBe("SUBSCRIBED")
          expect((yield* ContactBook.getContact(msisdn(1))).first_name).toBe("Ann")
          const stranger = yield* Messaging.receiveMessage(msisdn(2), "STOP")
          expect(stranger.contact).toMatchObject({ msisdn: msisdn(2), status: "CANCELLED", added_from: "SMS", tags: [] })
          expect(yield* ContactBook.getContact(msisdn(2))).toEqual(stranger.contact)
          yield* ContactBook.upsertContacts([candidate(2, { first_name: "Imported" })], { blankErases: false })
          expect((yield* ContactBook.getContact(msisdn(2))).status).toBe("CANCELLED")
          expect((yield* Messaging.receiveMessage(msisdn(2), "unstop")).contact?.status).toBe("SUBSCRIBED")
          const newcomer = yield* Messaging.receiveMessage(msisdn(3), "START")
          expect(newcomer.contact).toMatchObject({ status: "SUBSCRIBED", added_from: "SMS" })
          const hello = yield* Messaging.receiveMessage(msisdn(4), "hello")
          expect(hello.contact).toBeUndefined()
          yield* refused(ContactBook.getContact(msisdn(4)), "ContactNotFound")
        }))

      test("a keyword the contact's status cannot follow leaves the contact as it is and the SMS is still recorded", () =>
        Effect.gen(function*() {
          const store = yield* ContactStore.ContactStore
          const invited = contactValue(1, { status: "INVITED" })
          yield* store.insert(invited)
          const { action, contact } = yield* Messaging.receiveMessage(msisdn(1), "START")
          expect(action).toBe("resubscribe")
          expect(contact).toEqual(invited)
          expect(yield* ContactBook.getContact(msisdn(1))).toEqual(invited)
          expect(yield* allMessages).toHaveLength(1)
        }))

      test("optOut cancels (twice is a no-op), resubscribe restores; an absent contact is ContactNotFound", () =>
        Effect.gen(function*() {
          const created = yield* ContactBook.createContact(msisdn(1), {})
          expect(yield* ContactBook.optOut(msisdn(1))).toEqual({ ...created, status: "CANCELLED" })
          expect(yield* ContactBook.optOut(msisdn(1))).toEqual({ ...created, status: "CANCELLED" })
          expect(yield* ContactBook.getContact(msisdn(1))).toEqual({ ...created, status: "CANCELLED" })
          expect(yield* ContactBook.resubscribe(msisdn(1))).toEqual(created)
          yield* refused(ContactBook.optOut(msisdn(2)), "ContactNotFound")
        }))

      test("an opted-out contact never receives a group message, even as a monitor; after START it does again", () =>
        Effect.gen(function*() {
          yield* ContactBook.createContact(msisdn(1), {})
          yield* ContactBook.createContact(msisdn(2), {})
          yield* ContactBook.editContact(msisdn(1), { tags: ["news"], monitoring: true })
          yield* ContactBook.editContact(msisdn(2), { tags: ["news"] })
          yield* Messaging.receiveMessage(msisdn(1), "STOP")
          const first = yield* Messaging.sendToGroups({ tags: ["news"], message: "One" })
          const one = yield* Messaging.processGroupMessage(first.message_id)
          expect(one.message).toMatchObject({ total_recipients: 1, total_monitors: 0 })
          expect((yield* partsOf(first.message_id)).map((p) => p.msisdn)).toEqual([msisdn(2)])
          yield* TestClock.adjust(1)
          yield* Messaging.receiveMessage(msisdn(1), "START")
          const second = yield* Messaging.sendToGroups({ tags: ["news"], message: "Two" })
          yield* Messaging.processGroupMessage(second.message_id)
          expect((yield* partsOf(second.message_id)).map((p) => p.msisdn).sort()).toEqual([msisdn(1), msisdn(2)])
        }))
    })

    // -------------------------------------------------------------------------------------------
    describe("concurrent writers", () => {
      test("parallel creates of distinct contacts all land", () =>
        Effect.gen(function*() {
          const created = yield* Effect.all(
            Array.from({ length: racers * 4 }, (_, i) => ContactBook.createContact(msisdn(i), { first_name: `n${i}` })),
            { concurrency: "unbounded" }
          )
          expect(yield* allContacts).toEqual([...created].sort((a, b) => a.msisdn < b.msisdn ? -1 : 1))
          expect(yield* (yield* ContactStore.ContactStore).count).toBe(racers * 4)
        }))

      test("parallel creates of one contact: exactly one wins, the others are ContactExists", () =>
        Effect.gen(function*() {
          const results = yield* Effect.all(
            Array.from({ length: racers }, (_, i) => Effect.result(ContactBook.createContact(msisdn(1), { first_name: `n${i}` }))),
            { concurrency: "unbounded" }
          )
          const winners = results.filter(Result.isSuccess).map((r) => r.success)
          expect(winners).toHaveLength(1)
          expect(results.filter(Result.isFailure).map((r) => r.failure._tag)).toEqual(
            Array.from({ length: racers - 1 }, () => "ContactExists")
          )
          expect(yield* allContacts).toEqual(winners)
        }))

      test("parallel edits of distinct contacts and parallel deletes all land", () =>
        Effect.gen(function*() {
          const numbers = Array.from({ length: racers * 2 }, (_, i) => i)
          yield* ContactBook.upsertContacts(numbers.map((n) => candidate(n)), { blankErases: false })
          yield* Effect.all(numbers.map((n) => ContactBook.editContact(msisdn(n), { first_name: `e${n}`, tags: [`t${n}`] })), {
            concurrency: "unbounded"
          })
          expect((yield* allContacts).map((c) => [c.first_name, c.tags])).toEqual(numbers.map((n) => [`e${n}`, [`t${n}`]]))
          yield* Effect.all(numbers.filter((n) => n % 2 === 0).map((n) => ContactBook.deleteContact(msisdn(n))), {
            concurrency: "unbounded"
          })
          expect((yield* allContacts).map((c) => c.msisdn)).toEqual(numbers.filter((n) => n % 2 === 1).map(msisdn))
        }))
    })

    // -------------------------------------------------------------------------------------------
    describe("ports", () => {
      test("a contact reads back exactly as written: unicode names, tag order, every status and origin", () =>
        Effect.gen(function*() {
          const store = yield* ContactStore.ContactStore
          const odd = contactValue(1, {
            first_name: "Zo\u00eb \u0416\u0435\u043d\u044f",
            last_name: "O'Brien \"\u2603\" \ud83d\ude00",
            tags: ["b", "A", "c d"],
            status: "INVITED",
            added_from: "WEB_FORM",
            monitoring: true
          })
          yield* store.insert(odd)
          expect(yield* store.get(msisdn(1))).toEqual(Option.some(odd))
          expect(yield* store.get(msisdn(2))).toEqual(Option.none())
          for (const status of ["CONFIRMED", "CANCELLED", "SUBSCRIBED"] as const) {
            for (const added_from of ["SMS", "SUBSCRIPTION_REQUEST", "FILE_UPLOAD", "API"] as const) {
              const next = { ...odd, status, added_from, monitoring: false, tags: [] }
              yield* store.update(next)
              expect(yield* store.get(msisdn(1))).toEqual(Option.some(next))
            }
          }
        }))

      test("insert of an existing msisdn is ContactExists; update or remove of an absent one is ContactNotFound", () =>
        Effect.gen(function*() {
          const store = yield* ContactStore.ContactStore
          yield* store.insert(contactValue(1))
          expect(yield* refused(store.insert(contactValue(1, { first_name: "x" })), "ContactExists")).toMatchObject({ msisdn: msisdn(1) })
          expect(yield* refused(store.update(contactValue(2)), "ContactNotFound")).toMatchObject({ msisdn: msisdn(2) })
          expect(yield* refused(store.remove(msisdn(2)), "ContactNotFound")).toMatchObject({ msisdn: msisdn(2) })
          expect(yield* store.get(msisdn(1))).toEqual(Option.some(contactValue(1)))
          expect(yield* store.get(msisdn(2))).toEqual(Option.none())
        }))

      test("getMany finds the existing ones among many; write applies inserts and updates together; count counts", () =>
        Effect.gen(function*() {
          const store = yield* ContactStore.ContactStore
          yield* store.write({ insert: [contactValue(1), contactValue(2), contactValue(3)], update: [] })
          yield* store.write({ insert: [contactValue(4)], update: [contactValue(2, { first_name: "Two", tags: ["x"] })] })
          const found = yield* store.getMany([msisdn(2), msisdn(4), msisdn(9), msisdn(2)])
          expect([...found.keys()].sort()).toEqual([msisdn(2), msisdn(4)])
          expect(found.get(msisdn(2))).toEqual(contactValue(2, { first_name: "Two", tags: ["x"] }))
          expect((yield* store.getMany([])).size).toBe(0)
          expect(yield* store.count).toBe(4)
          yield* store.write({ insert: [], update: [] })
          expect(yield* store.count).toBe(4)
        }))

      test("audience streams every contact with one of the tags (any case) or monitoring, each once, by msisdn", () =>
        Effect.gen(function*() {
          const store = yield* ContactStore.ContactStore
          yield* store.write({
            insert: [
              contactValue(5, { tags: ["News", "news2"] }),
              contactValue(1, { tags: ["a", "SPORT"], status: "CANCELLED" }),
              contactValue(3, { monitoring: true }),
              contactValue(2, { tags: ["newsletter"] }),
              contactValue(4, { tags: ["sport", "news"], status: "INVITED" })
            ],
            update: []
          })
          const audience = yield* Stream.runCollect(store.audience({ tags: ["news", "Sport"] }))
          expect(audience.map((c) => c.msisdn)).toEqual([msisdn(1), msisdn(3), msisdn(4), msisdn(5)])
          expect(audience[3]).toEqual(contactValue(5, { tags: ["News", "news2"] }))
        }))

      test("a message reads back exactly as written, to the millisecond; findById gives the latest; stream follows list order", () =>
        Effect.gen(function*() {
          const store = yield* MessageStore.MessageStore
          const full = storedValue("0001", {
            id: "ext-1",
            country: "44",
            msisdn: msisdn(1),
            created_by: "operator",
            message: "\u0436 \ud83d\ude00 'quoted' \"double\"",
            created_at: epoch + 123,
            sent_count: 6,
            error_count: 1,
            segments: 3,
            is_scheduled: true,
            is_billable: false
          })
          const group = storedValue("0002", {
            type: 2,
            status: "PENDING",
            tags: ["News", "sport"],
            total_recipients: 0,
            created_at: epoch + 50,
            id: "ext-1"
          })
          const mo = storedValue("0003", { direction: "MO", status: "SENT", msisdn: msisdn(2), created_at: epoch + 50 })
          yield* store.insert(full)
          yield* store.insert(group)
          yield* store.insert(mo)
          expect(yield* store.get("0001")).toEqual(Option.some(full))
          expect(yield* store.get("0002")).toEqual(Option.some(group))
          expect(yield* store.get("0003")).toEqual(Option.some(mo))
          expect(yield* store.get("0004")).toEqual(Option.none())
          expect(yield* store.findById("ext-1")).toEqual(Option.some(full))
          expect(yield* store.findById("ext-2")).toEqual(Option.none())
          const listed = yield* store.list({ limit: 10, start: 0 })
          expect(listed.map((m) => m.message_id)).toEqual(["0002", "0003", "0001"])
          expect(yield* Stream.runCollect(store.stream({}))).toEqual(listed)
          expect(yield* Stream.runCollect(store.stream({ direction: "MO" }))).toEqual([mo])
          expect(yield* Stream.runCollect(store.stream({ group: "NEWS" }))).toEqual([group])
          expect(yield* store.list({ limit: 1, start: 1, from: epoch + 50, to: epoch + 123 })).toEqual([mo])
          const sent = { ...group, status: "SENT" as const, total_recipients: 3, total_monitors: 1, sent_count: 4 }
          yield* store.update(sent)
          expect(yield* store.get("0002")).toEqual(Option.some(sent))
        }))

      test("insert with antiSpam refuses an id created at or after `since`, atomically with the insert", () =>
        Effect.gen(function*() {
          const store = yield* MessageStore.MessageStore
          yield* store.insert(storedValue("0001", { id: "dup", created_at: epoch }))
          const error = yield* refused(store.insert(storedValue("0002", { id: "dup", created_at: epoch + 5 }), { id: "dup", since: epoch }), "DuplicateSend")
          expect(error).toMatchObject({ id: "dup", message_id: "0001", created_at: new Date(epoch).toISOString() })
          expect(yield* store.get("0002")).toEqual(Option.none())
          yield* store.insert(storedValue("0003", { id: "dup", created_at: epoch + 5 }), { id: "dup", since: epoch + 1 })
          yield* store.insert(storedValue("0004", { id: "other", created_at: epoch + 5 }), { id: "other", since: 0 })
          expect((yield* store.list({ limit: 10, start: 0 })).map((m) => m.message_id)).toEqual(["0001", "0003", "0004"])
        }))

      test("recordDeliveries returns only the numbers not recorded before, in order; countDeliveries counts per message", () =>
        Effect.gen(function*() {
          const store = yield* MessageStore.MessageStore
          expect(yield* store.recordDeliveries("m1", [msisdn(3), msisdn(1)])).toEqual([msisdn(3), msisdn(1)])
          expect(yield* store.recordDeliveries("m1", [msisdn(2), msisdn(1), msisdn(4)])).toEqual([msisdn(2), msisdn(4)])
          expect(yield* store.recordDeliveries("m1", [])).toEqual([])
          expect(yield* store.recordDeliveries("m2", [msisdn(1)])).toEqual([msisdn(1)])
          expect(yield* store.countDeliveries("m1")).toBe(4)
          expect(yield* store.countDeliveries("m2")).toBe(1)
          expect(yield* store.countDeliveries("m3")).toBe(0)
        }))

      test("a transaction commits all its writes, across both stores, and returns its value", () =>
        Effect.gen(function*() {
          const contacts = yield* ContactStore.ContactStore
          const messages = yield* MessageStore.MessageStore
          const value = yield* messages.transaction(Effect.gen(function*() {
            yield* contacts.insert(contactValue(1))
            yield* messages.insert(storedValue("0001"))
            return yield* contacts.transaction(Effect.as(contacts.insert(contactValue(2)), "done"))
          }))
          expect(value).toBe("done")
          expect(yield* contacts.count).toBe(2)
          expect(yield* messages.get("0001")).toEqual(Option.some(storedValue("0001")))
        }))

      test("a transaction that fails leaves nothing, across both stores, and fails with its own error", () =>
        Effect.gen(function*() {
          const contacts = yield* ContactStore.ContactStore
          const messages = yield* MessageStore.MessageStore
          yield* contacts.insert(contactValue(1))
          const error = yield* Effect.flip(contacts.transaction(Effect.gen(function*() {
            yield* contacts.insert(contactValue(2))
            yield* contacts.update(contactValue(1, { first_name: "changed" }))
            yield* messages.insert(storedValue("0001", { id: "x" }))
            yield* messages.recordDeliveries("0001", [msisdn(1)])
            return yield* contacts.insert(contactValue(1))
          })))
          expect(error).toMatchObject({ _tag: "ContactExists", msisdn: msisdn(1) })
          expect(yield* contacts.list({ limit: 10, start: 0 })).toEqual([contactValue(1)])
          expect(yield* messages.list({ limit: 10, start: 0 })).toEqual([])
          expect(yield* messages.countDeliveries("0001")).toBe(0)
          yield* messages.insert(storedValue("0002", { id: "x" }), { id: "x", since: 0 })
        }))
    })

    // -------------------------------------------------------------------------------------------
    describe("laws", () => {
      property(
        "contacts: pages of any Limit, from Start 0 on, concatenate to the full list (also under a Query)",
        fc.record({
          numbers: fc.uniqueArray(fc.integer({ min: 0, max: 999_999 }), { maxLength: 25 }),
          limit: fc.integer({ min: 1, max: 7 }),
          query: fc.constantFrom(undefined, "1", "74000", "x")
        }),
        ({ limit, numbers, query }) =>
          Effect.gen(function*() {
            yield* ContactBook.upsertContacts(numbers.map((n) => candidate(n, { first_name: n % 2 === 0 ? "x" : "y" })), { blankErases: false })
            const filter = query === undefined ? {} : { Query: query }
            const full = fullContacts(yield* ContactBook.listContacts({ ...filter, Limit: "1000" }))
            const pages: Array<Contact.Contact> = []
            for (let start = 0;; start += limit) {
              const page = yield* ContactBook.listContacts({ ...filter, Start: String(start), Limit: String(limit) })
              expect(page.length).toBeLessThanOrEqual(limit)
              pages.push(...fullContacts(page))
              if (page.length < limit) break
            }
            expect(pages).toEqual(full)
            const expected = numbers.map(msisdn).filter((m) =>
              query === undefined || m.includes(query) || (query === "x" && Number(m.slice(6)) % 2 === 0)
            )
            expect(full.map((c) => c.msisdn)).toEqual(expected.sort())
          })
      )

      property(
        "messages: pages of any Limit concatenate to the full list, ordered by creation then message_id",
        fc.record({
          gaps: fc.array(fc.integer({ min: 0, max: 2 }), { maxLength: 20 }),
          limit: fc.integer({ min: 1, max: 6 })
        }),
        ({ gaps, limit }) =>
          Effect.gen(function*() {
            for (const [i, gap] of gaps.entries()) {
              yield* TestClock.adjust(gap)
              if (i % 3 === 0) yield* Messaging.receiveMessage(msisdn(i), `m${i}`)
              else if (i % 3 === 1) yield* Messaging.sendToContact({ msisdn: msisdn(i), message: `m${i}` })
              else yield* Messaging.sendToGroups({ tags: ["g"], message: `m${i}` })
            }
            const full = yield* allMessages
            expect(full).toHaveLength(gaps.length)
            const ids = full.map((m) => m.message_id ?? "")
            expect(ids).toEqual([...ids].sort())
            const pages: Array<Message.Message> = []
            for (let start = 0;; start += limit) {
              const page = yield* Messaging.listMessages({ start: String(start), Limit: String(limit) })
              pages.push(...page)
              if (page.length < limit) break
            }
            expect(pages).toEqual(full)
          })
      )

      property(
        "any sequence of create, edit and delete leaves the store equal to a model map",
        fc.array(opArb, { maxLength: 25 }),
        (ops) =>
          Effect.gen(function*() {
            const model = new Map<string, Contact.Contact>()
            for (const op of ops) yield* applyOp(model, op)
            const expected = [...model.values()].sort((a, b) => a.msisdn < b.msisdn ? -1 : 1)
            expect(yield* allContacts).toEqual(expected)
            expect(yield* (yield* ContactStore.ContactStore).count).toBe(model.size)
            for (const contact of expected) expect(yield* ContactBook.getContact(contact.msisdn)).toEqual(contact)
          })
      )

      property(
        "a transaction that fails leaves nothing behind; the same writes committed are all visible",
        fc.record({ writes: writesArb, fail: fc.boolean(), viaMessages: fc.boolean() }),
        ({ fail, viaMessages, writes }) =>
          Effect.gen(function*() {
            const contacts = yield* ContactStore.ContactStore
            const messages = yield* MessageStore.MessageStore
            yield* contacts.write({ insert: seeded.map((n) => contactValue(n)), update: [] })
            yield* messages.insert(storedValue("seed"))
            yield* messages.recordDeliveries("seed", [msisdn(0)])
            const before = yield* snapshot
            const body = Effect.andThen(
              Effect.forEach(writes, perform, { discard: true }),
              fail ? Effect.fail(new Abort("abort")) : Effect.void
            )
            const exit = yield* Effect.result(viaMessages ? messages.transaction(body) : contacts.transaction(body))
            const after = yield* snapshot
            if (fail) {
              expect(Result.isFailure(exit) && exit.failure instanceof Abort).toBe(true)
              expect(after).toEqual(before)
              return
            }
            expect(Result.isSuccess(exit)).toBe(true)
            const removed = writes.filter((w) => w.write === "remove").length
            const inserted = writes.filter((w) => w.write === "insert").length
            expect(after.count).toBe(before.count + inserted - removed)
            expect(after.messages).toHaveLength(1 + writes.filter((w) => w.write === "message").length)
            const freshDeliveries = writes.filter((w) => w.write === "deliveries" && w.n !== 0).length
            expect(after.deliveries).toBe(1 + freshDeliveries)
            for (const write of writes) {
              if (write.write === "update") {
                expect(Option.map(yield* contacts.get(msisdn(write.n)), (c) => c.first_name)).toEqual(Option.some(write.name.trim()))
              }
            }
          })
      )
    })
  })
}
