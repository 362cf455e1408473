/**
 * Contract: the laws, as properties over generated cases: paging concatenates to the full list,
 * use cases agree with a model of the contact book, and a failed transaction leaves nothing.
 */
import { describe, expect } from "@effect/vitest"
import { type Contact, ContactBook, ContactStore, type Message, Messaging, MessageStore } from "@smsbook/core"
import { Effect, Option } from "effect"
import { TestClock } from "effect/testing"
import * as fc from "fast-check"
import * as Fixtures from "../Fixtures.ts"
import * as ModelCheck from "../ModelCheck.ts"
import * as ContactModel from "./ContactModel.ts"
import type * as Harness from "./Harness.ts"
import * as Observe from "./Observe.ts"

const seeded = [0, 1, 2, 3, 4]

/** The message the seeded store holds; one of the ids whose deliveries the snapshot counts. */
const seed = "m1"

interface Keyed {
  readonly key: string
  readonly write: ModelCheck.Write
}

// One write per contact and per message, so every write is valid against the seeded store.
const writesArb: fc.Arbitrary<ReadonlyArray<ModelCheck.Write>> = fc
  .uniqueArray(
    fc.oneof(
      fc.integer({ min: 5, max: 9 }).map((n): Keyed => ({
        key: `c${n}`,
        write: { kind: "contact.insert", contact: Fixtures.contact(n, { first_name: "New" }) }
      })),
      fc.record({ n: fc.constantFrom(...seeded), name: ContactModel.nameArb }).map(({ n, name }): Keyed => ({
        key: `c${n}`,
        write: { kind: "contact.update", contact: Fixtures.contact(n, { first_name: name.trim() }) }
      })),
      fc.constantFrom(...seeded).map((n): Keyed => ({ key: `c${n}`, write: { kind: "contact.remove", msisdn: Fixtures.msisdn(n) } })),
      fc.integer({ min: 0, max: 9 }).map((n): Keyed => ({
        key: `message${n}`,
        write: {
          kind: "message.insert",
          message: Fixtures.message(`tx${n}`, { msisdn: Fixtures.msisdn(n), id: `tx-${n}` }),
          antiSpam: undefined
        }
      })),
      fc.integer({ min: 0, max: 9 }).map((n): Keyed => ({
        key: `deliveries${n}`,
        write: { kind: "deliveries.record", messageId: seed, msisdns: [Fixtures.msisdn(n)] }
      }))
    ),
    { selector: (keyed) => keyed.key, maxLength: 8 }
  )
  .map((keyed) => keyed.map(({ write }) => write))

export const register = ({ property }: Harness.Harness): void => {
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
          yield* ContactBook.upsertContacts(numbers.map((n) => Fixtures.candidate(n, { first_name: n % 2 === 0 ? "x" : "y" })), { blankErases: false })
          const filter = query === undefined ? {} : { Query: query }
          const full = Observe.fullContacts(yield* ContactBook.listContacts({ ...filter, Limit: "1000" }))
          const pages: Array<Contact.Contact> = []
          for (let start = 0;; start += limit) {
            const page = yield* ContactBook.listContacts({ ...filter, Start: String(start), Limit: String(limit) })
            expect(page.length).toBeLessThanOrEqual(limit)
            pages.push(...Observe.fullContacts(page))
            if (page.length < limit) break
          }
          expect(pages).toEqual(full)
          const expected = numbers.map(Fixtures.msisdn).filter((m) =>
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
            if (i % 3 === 0) yield* Messaging.receiveMessage(Fixtures.msisdn(i), `m${i}`)
            else if (i % 3 === 1) yield* Messaging.sendToContact({ msisdn: Fixtures.msisdn(i), message: `m${i}` })
            else yield* Messaging.sendToGroups({ tags: ["g"], message: `m${i}` })
          }
          const full = yield* Observe.allMessages
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
      fc.array(ContactModel.opArb, { maxLength: 25 }),
      (ops) =>
        Effect.gen(function*() {
          const model = new Map<string, Contact.Contact>()
          for (const op of ops) yield* ContactModel.applyOp(model, op)
          const expected = [...model.values()].sort((a, b) => a.msisdn < b.msisdn ? -1 : 1)
          expect(yield* Observe.allContacts).toEqual(expected)
          expect(yield* (yield* ContactStore.ContactStore).count).toBe(model.size)
          for (const contact of expected) expect(yield* ContactBook.getContact(contact.msisdn)).toEqual(contact)
        })
    )

    property(
      "a transaction that fails leaves nothing behind; the same writes committed are all visible",
      fc.record({ writes: writesArb, fails: fc.boolean(), via: fc.constantFrom("contacts" as const, "messages" as const) }),
      ({ fails, via, writes }) =>
        Effect.gen(function*() {
          const contacts = yield* ContactStore.ContactStore
          const messages = yield* MessageStore.MessageStore
          yield* contacts.write({ insert: seeded.map((n) => Fixtures.contact(n)), update: [] })
          yield* messages.insert(Fixtures.message(seed))
          yield* messages.recordDeliveries(seed, [Fixtures.msisdn(0)])
          const before = yield* ModelCheck.snapshot
          const answer = yield* ModelCheck.run({ kind: "transaction", via, ops: writes, fails })
          const after = yield* ModelCheck.snapshot
          if (fails) {
            expect(answer).toMatchObject({ result: { error: "rolled back" } })
            expect(after).toEqual(before)
            return
          }
          expect(answer).toMatchObject({ result: { ok: undefined } })
          const count = (kind: ModelCheck.Write["kind"]) => writes.filter((w) => w.kind === kind).length
          expect(after.count).toBe(before.count + count("contact.insert") - count("contact.remove"))
          expect(after.messages).toHaveLength(1 + count("message.insert"))
          const fresh = writes.filter((w) => w.kind === "deliveries.record" && w.msisdns[0] !== Fixtures.msisdn(0)).length
          expect(after.deliveries[ModelCheck.messageIds.indexOf(seed)]).toBe(1 + fresh)
          for (const write of writes) {
            if (write.kind === "contact.update") {
              expect(Option.map(yield* contacts.get(write.contact.msisdn), (c) => c.first_name)).toEqual(Option.some(write.contact.first_name))
            }
          }
        })
    )
  })
}
