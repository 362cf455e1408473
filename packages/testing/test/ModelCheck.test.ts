/**
 * The model check can fail: adapters broken in one way each (a filter ignored, no rollback, case-sensitive
 * tags, anti-spam skipped, deliveries recorded twice, an opt-out lifted) are caught, and a correct adapter passes.
 */
import { Carrier, ContactStore, MemoryStore, MessageStore } from "@smsbook/core"
import { Effect, Option, Stream } from "effect"
import { describe, expect, it } from "vitest"
import * as Fixtures from "../src/Fixtures.ts"
import * as ModelCheck from "../src/ModelCheck.ts"

type Services = Effect.Success<typeof MemoryStore.make>

/** A memory store with some of its calls replaced: the adapter under test. */
const broken = (change: (ports: Services) => Services): ModelCheck.Adapter => (effect) =>
  Effect.runPromise(Effect.flatMap(MemoryStore.make, (ports) => {
    const { carrier, contacts, messages, outbox } = change(ports)
    return effect.pipe(
      Effect.provideService(ContactStore.ContactStore, contacts),
      Effect.provideService(MessageStore.MessageStore, messages),
      Effect.provideService(Carrier.Carrier, carrier),
      Effect.provideService(Carrier.Outbox, outbox)
    )
  }))

const breakages: ReadonlyArray<readonly [string, (ports: Services) => Services]> = [
  ["a list that ignores the status filter", (ports) => ({
    ...ports,
    contacts: { ...ports.contacts, list: ({ status: _, ...rest }) => ports.contacts.list(rest) }
  })],
  ["transactions that never roll back", (ports) => ({
    ...ports,
    contacts: { ...ports.contacts, transaction: (effect) => effect },
    messages: { ...ports.messages, transaction: (effect) => effect }
  })],
  ["an audience that matches tags case-sensitively", (ports) => ({
    ...ports,
    contacts: {
      ...ports.contacts,
      audience: (filter) => Stream.filter(ports.contacts.audience(filter), (c) => c.monitoring || c.tags.some((t) => filter.tags.includes(t)))
    }
  })],
  ["an insert that skips the anti-spam check", (ports) => ({
    ...ports,
    messages: { ...ports.messages, insert: (message) => ports.messages.insert(message) }
  })],
  ["deliveries that answer every number, not only the new ones", (ports) => ({
    ...ports,
    messages: { ...ports.messages, recordDeliveries: (id, msisdns) => Effect.as(ports.messages.recordDeliveries(id, msisdns), msisdns) }
  })]
]

/** Breakages of the opt-out law, caught by the sequences of contact and suppression-list calls. */
const optOutBreakages: ReadonlyArray<readonly [string, (ports: Services) => Services]> = [
  // The opt-out law held only through the suppression list: a stored CANCELLED whose entry an unsuppress took off
  // goes back to the status the batch gives it.
  ["a batch write that lifts a stored CANCELLED whose suppression entry is gone", (ports) => ({
    ...ports,
    contacts: {
      ...ports.contacts,
      write: ({ insert, update }) =>
        Effect.forEach([...insert, ...update], (contact) =>
          Effect.flatMap(ports.contacts.suppressed([contact.msisdn]), (listed) =>
            listed.size > 0
              ? ports.contacts.write({ insert: [contact], update: [] })
              : Effect.flatMap(ports.contacts.get(contact.msisdn), (stored) =>
                Option.isSome(stored) ? Effect.orDie(ports.contacts.update(contact)) : Effect.orDie(Effect.asVoid(ports.contacts.insert(contact)))))
        , { discard: true })
    }
  })],
  ["a remove that also takes the number off the suppression list", (ports) => ({
    ...ports,
    contacts: { ...ports.contacts, remove: (msisdn) => Effect.andThen(ports.contacts.remove(msisdn), ports.contacts.unsuppress(msisdn)) }
  })],
  ["a cancel that counts the contacts already CANCELLED", (ports) => ({
    ...ports,
    contacts: {
      ...ports.contacts,
      cancel: (msisdns) =>
        Effect.flatMap(ports.contacts.getMany([...new Set(msisdns)]), (found) => Effect.as(ports.contacts.cancel(msisdns), found.size))
    }
  })]
]

/** A counterexample whose answers differ, not a crash of the harness. */
const expectCaught = (failure: unknown) =>
  expect(failure).toMatchObject({
    message: expect.stringMatching(/^Property failed/),
    cause: expect.objectContaining({ name: "AssertionError", message: expect.stringMatching(/deeply equal/) })
  })

describe("ModelCheck.check", () => {
  it.each(breakages)("catches %s", async (_, change) => {
    expectCaught(await ModelCheck.check(broken(change), { numRuns: 200, seed: 42 }).then(() => undefined, (error: unknown) => error))
  })

  it.each(optOutBreakages)("catches %s", async (_, change) => {
    const ops = ModelCheck.arbitraries().optOuts
    expectCaught(await ModelCheck.check(broken(change), { ops, numRuns: 100, seed: 42 }).then(() => undefined, (error: unknown) => error))
  })

  it("passes an adapter that answers as the memory store does", async () => {
    await ModelCheck.check(broken((ports) => ports), { numRuns: 50 })
    await ModelCheck.check(broken((ports) => ports), { ops: ModelCheck.arbitraries().optOuts, numRuns: 50 })
  })
})

describe("ModelCheck.run", () => {
  const answer = (ops: ReadonlyArray<ModelCheck.Op>) => ModelCheck.memory(Effect.forEach(ops, ModelCheck.run))
  const ann = Fixtures.contact(1, { first_name: "Ann" })

  it("answers in plain data: options, maps, and errors with their tag and fields", async () => {
    expect(await answer([
      { kind: "contact.get", msisdn: ann.msisdn },
      { kind: "contact.insert", contact: ann },
      { kind: "contact.insert", contact: ann },
      { kind: "contact.get", msisdn: ann.msisdn },
      { kind: "contact.getMany", msisdns: [ann.msisdn, Fixtures.msisdn(2)] }
    ])).toEqual([
      { ok: { none: true } },
      // An insert answers the contact as stored.
      { ok: ann },
      { error: expect.objectContaining({ _tag: "ContactExists", msisdn: ann.msisdn }) },
      { ok: { some: ann } },
      { ok: { map: [[ann.msisdn, ann]] } }
    ])
  })

  it("a transaction answers what each call inside saw, and a failed one leaves nothing", async () => {
    const [failed, count] = await answer([
      { kind: "transaction", via: "messages", ops: [{ kind: "contact.insert", contact: ann }, { kind: "contact.count" }], fails: true },
      { kind: "contact.count" }
    ])
    expect(failed).toEqual({ result: { error: "rolled back" }, inner: [ann, 1] })
    expect(count).toEqual({ ok: 0 })
  })
})
