/**
 * The model check: any adapter of the storage ports answers every sequence of port calls exactly as
 * the memory store does. Calls are data (`Op`), so fast-check generates, replays and shrinks them.
 * Just over 400 lines: every call of the ports is one case of `Op`, generated, run and compared here in one place.
 */
import { Carrier, Contact, ContactStore, MemoryStore, type Message, MessageStore } from "@smsbook/core"
import { Effect, Option, Stream } from "effect"
import * as fc from "fast-check"
import { expect } from "vitest"

/** The ports an adapter provides. */
export type Ports = ContactStore.ContactStore | MessageStore.MessageStore | Carrier.Carrier | Carrier.Outbox

/** A call that changes the store. */
export type Write =
  | { readonly kind: "contact.insert"; readonly contact: Contact.Contact }
  | { readonly kind: "contact.update"; readonly contact: Contact.Contact }
  | { readonly kind: "contact.remove"; readonly msisdn: string }
  | { readonly kind: "contact.write"; readonly insert: ReadonlyArray<Contact.Contact>; readonly update: ReadonlyArray<Contact.Contact> }
  | { readonly kind: "contact.getOrInsert"; readonly contact: Contact.Contact }
  | { readonly kind: "contact.suppress"; readonly msisdn: string }
  | { readonly kind: "contact.cancel"; readonly msisdns: ReadonlyArray<string> }
  | { readonly kind: "contact.unsuppress"; readonly msisdn: string }
  | { readonly kind: "contact.forget"; readonly msisdn: string }
  | { readonly kind: "message.insert"; readonly message: Message.Stored; readonly antiSpam: MessageStore.AntiSpam | undefined }
  | { readonly kind: "message.update"; readonly message: Message.Stored }
  | { readonly kind: "deliveries.record"; readonly messageId: string; readonly msisdns: ReadonlyArray<string> }
  | { readonly kind: "carrier.handOver"; readonly parts: ReadonlyArray<Carrier.Part> }

/** A call that only reads. */
export type Read =
  | { readonly kind: "contact.get"; readonly msisdn: string }
  | { readonly kind: "contact.getForUpdate"; readonly msisdn: string }
  | { readonly kind: "contact.getMany"; readonly msisdns: ReadonlyArray<string> }
  | { readonly kind: "contact.list"; readonly filter: ContactStore.ListFilter }
  | { readonly kind: "contact.audience"; readonly tags: ReadonlyArray<string> }
  | { readonly kind: "contact.count" }
  | { readonly kind: "contact.suppressed"; readonly msisdns: ReadonlyArray<string> }
  | { readonly kind: "contact.listSuppressed"; readonly page: ContactStore.SuppressedPage }
  | { readonly kind: "message.get"; readonly messageId: string }
  | { readonly kind: "message.findById"; readonly id: string }
  | { readonly kind: "message.list"; readonly page: MessageStore.Page }
  | { readonly kind: "message.stream"; readonly filter: MessageStore.Filter }
  | { readonly kind: "deliveries.count"; readonly messageId: string }
  | { readonly kind: "outbox" }

/** Calls run in one transaction of either store; the first failure, or `fails`, rolls them all back. */
export interface Transaction {
  readonly kind: "transaction"
  readonly via: "contacts" | "messages"
  readonly ops: ReadonlyArray<Write | Read>
  readonly fails: boolean
}

export type Op = Write | Read | Transaction

/** What a call answered, in plain data: a success value, or the failure's tag and fields. */
export type Outcome = { readonly ok: unknown } | { readonly error: unknown }

/** The message ids the generated calls use; the snapshot counts the deliveries of each. */
export const messageIds = ["m1", "m2", "m10", "M1"] as const

// ---------------------------------------------------------------------------------------------
// Running calls

/**
 * Options, maps and sets become plain data, so answers compare by value whatever the adapter built. A set is
 * sorted: its order is not part of any answer.
 */
const plain = (value: unknown): unknown =>
  Option.isOption(value)
    ? Option.match(value, { onNone: () => ({ none: true }), onSome: (some) => ({ some }) })
    : value instanceof Map
    ? { map: [...value] }
    : value instanceof Set
    ? { set: [...value].sort() }
    : value

const plainError = (error: unknown): unknown =>
  typeof error === "object" && error !== null && "_tag" in error ? { ...error, _tag: error._tag } : error

const outcome = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<Outcome, never, R> =>
  Effect.match(effect, { onSuccess: (value) => ({ ok: plain(value) }), onFailure: (error) => ({ error: plainError(error) }) })

/** The port call `op` names, made. */
const step = (op: Write | Read): Effect.Effect<unknown, unknown, Ports> =>
  Effect.gen(function*() {
    const contacts = yield* ContactStore.ContactStore
    const messages = yield* MessageStore.MessageStore
    switch (op.kind) {
      case "contact.insert":
        return yield* contacts.insert(op.contact)
      case "contact.update":
        return yield* contacts.update(op.contact)
      case "contact.remove":
        return yield* contacts.remove(op.msisdn)
      case "contact.write":
        return yield* contacts.write({ insert: op.insert, update: op.update })
      case "contact.getOrInsert":
        return yield* contacts.getOrInsert(op.contact)
      case "contact.suppress":
        return yield* contacts.suppress(op.msisdn)
      case "contact.cancel":
        return yield* contacts.cancel(op.msisdns)
      case "contact.unsuppress":
        return yield* contacts.unsuppress(op.msisdn)
      case "contact.forget":
        return yield* contacts.forget(op.msisdn)
      case "message.insert":
        return yield* messages.insert(op.message, op.antiSpam)
      case "message.update":
        return yield* messages.update(op.message)
      case "deliveries.record":
        return yield* messages.recordDeliveries(op.messageId, op.msisdns)
      case "carrier.handOver":
        return yield* (yield* Carrier.Carrier).handOver(op.parts)
      case "contact.get":
        return yield* contacts.get(op.msisdn)
      case "contact.getForUpdate":
        return yield* contacts.getForUpdate(op.msisdn)
      case "contact.getMany":
        return yield* contacts.getMany(op.msisdns)
      case "contact.list":
        return yield* contacts.list(op.filter)
      case "contact.audience":
        return yield* Stream.runCollect(contacts.audience({ tags: op.tags }))
      case "contact.count":
        return yield* contacts.count
      case "contact.suppressed":
        return yield* contacts.suppressed(op.msisdns)
      case "contact.listSuppressed":
        return yield* contacts.listSuppressed(op.page)
      case "message.get":
        return yield* messages.get(op.messageId)
      case "message.findById":
        return yield* messages.findById(op.id)
      case "message.list":
        return yield* messages.list(op.page)
      case "message.stream":
        return yield* Stream.runCollect(messages.stream(op.filter))
      case "deliveries.count":
        return yield* messages.countDeliveries(op.messageId)
      case "outbox":
        return yield* (yield* Carrier.Outbox).parts
    }
  })

/** Runs one call through the ports; a transaction also answers what each call inside it saw. */
export const run = (op: Op): Effect.Effect<unknown, never, Ports> => {
  if (op.kind !== "transaction") return outcome(step(op))
  return Effect.gen(function*() {
    const inner: Array<unknown> = []
    const body = Effect.gen(function*() {
      for (const each of op.ops) inner.push(plain(yield* step(each)))
      if (op.fails) return yield* Effect.fail("rolled back")
    })
    const store = op.via === "contacts" ? yield* ContactStore.ContactStore : yield* MessageStore.MessageStore
    const result = yield* outcome(store.transaction(body))
    return { result, inner }
  })
}

/** Everything a store holds, read through its ports (the suppression list too: it outlives the contacts). */
export const snapshot = Effect.gen(function*() {
  const contacts = yield* ContactStore.ContactStore
  const messages = yield* MessageStore.MessageStore
  return {
    contacts: yield* contacts.list({ limit: 1_000, start: 0 }),
    count: yield* contacts.count,
    suppressed: yield* contacts.listSuppressed({ limit: 1_000 }),
    messages: yield* Stream.runCollect(messages.stream({})),
    deliveries: yield* Effect.forEach(messageIds, (id) => messages.countDeliveries(id)),
    outbox: yield* (yield* Carrier.Outbox).parts
  }
})

/** The answer of every call in turn, then the snapshot. */
export const scenario = (ops: ReadonlyArray<Op>) =>
  Effect.gen(function*() {
    const outcomes = yield* Effect.forEach(ops, (op) => Effect.map(run(op), (answer) => ({ op: op.kind, answer })))
    return { outcomes, final: yield* snapshot }
  })

/** Runs an effect over the adapter under test; called once per generated case, each time on an empty store. */
export type Adapter = <A, E>(effect: Effect.Effect<A, E, Ports>) => Promise<A>

/** The reference: a fresh memory store. */
export const memory: Adapter = (effect) => Effect.runPromise(Effect.provide(effect, MemoryStore.layer))

// ---------------------------------------------------------------------------------------------
// Generating calls: small pools so keys collide (updates, duplicates, ties in ordering), and text with
// the characters where databases and JavaScript disagree: non-ASCII case folding (İ lowers to two
// code units, K is the Kelvin sign), LIKE wildcards % and _, quotes and backslashes, a surrogate pair.

const characters = ["a", "A", "b", "\u00e4", "\u00c4", "\u00e9", "\u00c9", "\u212a", "k", "K", "\u0130", "i", "\u03c9", "\u03a9", " ", "%", "_", "'", "\\", "1", "4", "\u{1F600}"]
const tags = ["news", "News", "NEWS", "vip", "VIP", "caf\u00e9", "CAF\u00c9", "x_y", "%", "\u00e4", "\u00c4", "\u0130", "i\u0307", "k", "\u212a"]
const msisdns = ["1", "10", "441", "4410", "45", "447400000001", "15550000001"]
const externalIds = ["e1", "e2", "e3"]
const instants = [0, 1, 1_000, 1_001, 1_500, 2_000, 1_700_000_000_000]

export interface Options {
  /** The adapter stores any string, U+0000 included (PostgreSQL text cannot). Default false. */
  readonly nul?: boolean
}

/** The arbitraries of calls, for properties that build their own sequences. */
export const arbitraries = (options: Options = {}) => {
  const alphabet = options.nul === true ? [...characters, "\u0000"] : characters
  const text = fc.string({ unit: fc.constantFrom(...alphabet), maxLength: 4 })
  const msisdn = fc.constantFrom(...msisdns)
  const tag = fc.constantFrom(...tags)
  const messageId = fc.constantFrom(...messageIds)
  const externalId = fc.constantFrom(...externalIds)
  const instant = fc.constantFrom(...instants)

  const contact: fc.Arbitrary<Contact.Contact> = fc.record({
    msisdn,
    phone_number: text,
    first_name: text,
    last_name: text,
    full_name: text,
    country_code: fc.constantFrom("44", "45", "1", "GB"),
    added_from: fc.constantFrom("WEB_FORM", "API", "FILE_UPLOAD", "SMS", "SUBSCRIPTION_REQUEST"),
    status: fc.constantFrom(...Contact.statuses),
    tags: fc.array(tag, { maxLength: 3 }),
    profile_uid: fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), maxLength: 8 }),
    monitoring: fc.boolean()
  })

  const message: fc.Arbitrary<Message.Stored> = fc.record({
    message_id: messageId,
    id: externalId,
    short_code: fc.constantFrom("12345", "SMSBOOK"),
    country: fc.constantFrom("44", "45"),
    msisdn,
    direction: fc.constantFrom("MT", "MO"),
    status: fc.constantFrom("PENDING", "PROCESSING", "READY", "SENT"),
    message: options.nul === true ? fc.oneof(text, fc.string({ unit: "binary", maxLength: 8 })) : text,
    total_recipients: fc.nat(1_000),
    sent_count: fc.nat(1_000),
    error_count: fc.nat(1_000),
    total_monitors: fc.nat(1_000),
    is_scheduled: fc.boolean(),
    is_billable: fc.boolean(),
    created_at: instant,
    created_by: text,
    type: fc.constantFrom(1, 2),
    tags: fc.array(tag, { maxLength: 3 }),
    segments: fc.integer({ min: 1, max: 5 })
  }, { requiredKeys: ["message_id", "short_code", "direction", "status", "message", "total_recipients", "sent_count", "error_count", "total_monitors", "is_scheduled", "is_billable", "created_at", "type", "tags", "segments"] })

  const contactFilter: fc.Arbitrary<ContactStore.ListFilter> = fc.record({
    query: fc.oneof(fc.string({ unit: fc.constantFrom(...alphabet), minLength: 1, maxLength: 2 }), fc.constantFrom("", "i\u0307", "44")),
    status: fc.constantFrom(...Contact.statuses),
    limit: fc.nat(6),
    start: fc.nat(3)
  }, { requiredKeys: ["limit", "start"] })

  const messageFilter: fc.Arbitrary<MessageStore.Filter> = fc.record({
    from: instant,
    to: instant,
    direction: fc.constantFrom("MT", "MO"),
    msisdn,
    group: tag
  }, { requiredKeys: [] })

  const part: fc.Arbitrary<Carrier.Part> = fc.record({
    message_id: messageId,
    msisdn,
    short_code: fc.constantFrom("12345"),
    part: fc.integer({ min: 1, max: 3 }),
    parts: fc.integer({ min: 1, max: 3 }),
    text
  })

  // Weighted towards the calls that build state and the queries that read it back.
  const contactWrites: ReadonlyArray<fc.WeightedArbitrary<Write>> = [
    { weight: 3, arbitrary: contact.map((c): Write => ({ kind: "contact.insert", contact: c })) },
    { weight: 2, arbitrary: contact.map((c): Write => ({ kind: "contact.update", contact: c })) },
    { weight: 1, arbitrary: msisdn.map((m): Write => ({ kind: "contact.remove", msisdn: m })) },
    {
      weight: 3,
      arbitrary: fc.record({ insert: fc.array(contact, { maxLength: 5 }), update: fc.array(contact, { maxLength: 3 }) })
        .map(({ insert, update }): Write => ({ kind: "contact.write", insert, update }))
    },
    { weight: 2, arbitrary: contact.map((c): Write => ({ kind: "contact.getOrInsert", contact: c })) },
    { weight: 1, arbitrary: msisdn.map((m): Write => ({ kind: "contact.suppress", msisdn: m })) },
    { weight: 2, arbitrary: fc.array(msisdn, { maxLength: 4 }).map((m): Write => ({ kind: "contact.cancel", msisdns: m })) },
    // As often as a cancel: a stored CANCELLED whose entry is gone is the state where only the store's law holds.
    { weight: 2, arbitrary: msisdn.map((m): Write => ({ kind: "contact.unsuppress", msisdn: m })) },
    { weight: 1, arbitrary: msisdn.map((m): Write => ({ kind: "contact.forget", msisdn: m })) }
  ]

  const writeOp: fc.Arbitrary<Write> = fc.oneof(
    ...contactWrites,
    {
      weight: 4,
      arbitrary: fc.tuple(message, fc.option(fc.record({ id: externalId, since: instant }), { nil: undefined }))
        .map(([m, antiSpam]): Write => ({ kind: "message.insert", message: m, antiSpam }))
    },
    { weight: 2, arbitrary: message.map((m): Write => ({ kind: "message.update", message: m })) },
    {
      weight: 2,
      arbitrary: fc.tuple(messageId, fc.array(msisdn, { maxLength: 5 }))
        .map(([id, numbers]): Write => ({ kind: "deliveries.record", messageId: id, msisdns: numbers }))
    },
    { weight: 1, arbitrary: fc.array(part, { maxLength: 3 }).map((parts): Write => ({ kind: "carrier.handOver", parts })) }
  )

  const contactReads: ReadonlyArray<fc.WeightedArbitrary<Read>> = [
    { weight: 1, arbitrary: msisdn.map((m): Read => ({ kind: "contact.get", msisdn: m })) },
    { weight: 1, arbitrary: msisdn.map((m): Read => ({ kind: "contact.getForUpdate", msisdn: m })) },
    { weight: 1, arbitrary: fc.array(msisdn, { maxLength: 5 }).map((m): Read => ({ kind: "contact.getMany", msisdns: m })) },
    { weight: 5, arbitrary: contactFilter.map((filter): Read => ({ kind: "contact.list", filter })) },
    { weight: 3, arbitrary: fc.array(tag, { maxLength: 3 }).map((t): Read => ({ kind: "contact.audience", tags: t })) },
    { weight: 1, arbitrary: fc.constant<Read>({ kind: "contact.count" }) },
    { weight: 1, arbitrary: fc.array(msisdn, { maxLength: 4 }).map((m): Read => ({ kind: "contact.suppressed", msisdns: m })) },
    {
      weight: 1,
      arbitrary: fc.record({ after: msisdn, limit: fc.nat(4) }, { requiredKeys: ["limit"] })
        .map((page): Read => ({ kind: "contact.listSuppressed", page }))
    }
  ]

  const readOp: fc.Arbitrary<Read> = fc.oneof(
    ...contactReads,
    { weight: 1, arbitrary: messageId.map((id): Read => ({ kind: "message.get", messageId: id })) },
    { weight: 2, arbitrary: externalId.map((id): Read => ({ kind: "message.findById", id })) },
    {
      weight: 2,
      arbitrary: fc.tuple(messageFilter, fc.nat(6), fc.nat(3))
        .map(([filter, limit, start]): Read => ({ kind: "message.list", page: { ...filter, limit, start } }))
    },
    { weight: 2, arbitrary: messageFilter.map((filter): Read => ({ kind: "message.stream", filter })) },
    { weight: 1, arbitrary: messageId.map((id): Read => ({ kind: "deliveries.count", messageId: id })) },
    { weight: 1, arbitrary: fc.constant<Read>({ kind: "outbox" }) }
  )

  const simpleOp: fc.Arbitrary<Write | Read> = fc.oneof({ weight: 5, arbitrary: writeOp }, { weight: 4, arbitrary: readOp })

  const transactionOp: fc.Arbitrary<Transaction> = fc.record({
    kind: fc.constant("transaction"),
    via: fc.constantFrom("contacts", "messages"),
    ops: fc.array(simpleOp, { minLength: 1, maxLength: 5 }),
    fails: fc.boolean()
  })

  const op: fc.Arbitrary<Op> = fc.oneof({ weight: 9, arbitrary: simpleOp }, { weight: 1, arbitrary: transactionOp })

  // size "max": sequences long enough to build states worth querying.
  const ops = fc.array(op, { minLength: 1, maxLength: 30, size: "max" })

  // Only the contact port's calls, the suppression list's among them, some in transactions: the opt-out law's
  // states (a stored CANCELLED, its entry lifted, then a batch write) come up in most sequences, not a few.
  const contactOp: fc.Arbitrary<Write | Read> = fc.oneof({ weight: 3, arbitrary: fc.oneof(...contactWrites) }, { weight: 1, arbitrary: fc.oneof(...contactReads) })
  const optOuts = fc.array(
    fc.oneof(
      { weight: 9, arbitrary: contactOp },
      {
        weight: 1,
        arbitrary: fc.record({
          kind: fc.constant("transaction" as const),
          via: fc.constant("contacts" as const),
          ops: fc.array(contactOp, { minLength: 1, maxLength: 5 }),
          fails: fc.boolean()
        })
      }
    ),
    { minLength: 1, maxLength: 30, size: "max" }
  )

  return {
    text,
    msisdn,
    tag,
    contact,
    message,
    contactFilter,
    messageFilter,
    part,
    writeOp,
    readOp,
    simpleOp,
    transactionOp,
    op,
    ops,
    contactOp,
    optOuts
  }
}

export interface CheckOptions extends Options {
  /** Generated sequences (default 100). */
  readonly numRuns?: number
  /** The sequences to try (default: `arbitraries(options).ops`). */
  readonly ops?: fc.Arbitrary<ReadonlyArray<Op>>
  /** fast-check seed, to replay a failure it reported. */
  readonly seed?: number
}

/**
 * Asserts that `adapter` answers every generated sequence of calls, and ends holding the same, as a
 * fresh memory store. Rejects with fast-check's shrunk counterexample when they differ.
 */
export const check = (adapter: Adapter, options: CheckOptions = {}): Promise<void> =>
  fc.assert(
    fc.asyncProperty(options.ops ?? arbitraries(options).ops, async (ops) => {
      const expected = await memory(scenario(ops))
      expect(await adapter(scenario(ops))).toEqual(expected)
    }),
    { numRuns: options.numRuns ?? 100, ...(options.seed === undefined ? {} : { seed: options.seed }) }
  )
