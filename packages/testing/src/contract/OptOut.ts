/**
 * Contract: inbound messages and opt-out: keywords cancel and resubscribe, an opted-out contact is
 * never sent to, and every inbound SMS is recorded.
 */
import { describe, expect } from "@effect/vitest"
import { ContactBook, ContactStore, Messaging } from "@smsbook/core"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import * as Fixtures from "../Fixtures.ts"
import type * as Harness from "./Harness.ts"
import * as Observe from "./Observe.ts"

export const register = ({ test }: Harness.Harness): void => {
  describe("opt-out and inbound messages", () => {
    test("an inbound SMS is recorded as MO and listed; a text that is not only a keyword changes nothing", () =>
      Effect.gen(function*() {
        const ann = yield* ContactBook.createContact(Fixtures.msisdn(1), { first_name: "Ann" })
        const { action, message } = yield* Messaging.receiveMessage("+44 7400 000001", "Please STOP sending")
        expect(action).toBeUndefined()
        expect(message).toMatchObject({
          msisdn: Fixtures.msisdn(1),
          country: "44",
          direction: "MO",
          message: "Please STOP sending",
          short_code: Fixtures.settings.short_code,
          created_on: "2026-11-21 10:15:00"
        })
        expect(message).not.toHaveProperty("created_by")
        expect(yield* Observe.allMessages).toEqual([message])
        expect(yield* ContactBook.getContact(Fixtures.msisdn(1))).toEqual(ann)
      }))

    test("a sender written nationally is read in the default country given (a code, a name); without one it is refused and nothing is recorded", () =>
      Effect.gen(function*() {
        yield* ContactBook.createContact(Fixtures.msisdn(1), {})
        yield* Observe.refused(Messaging.receiveMessage("07400 000001", "STOP"), "InvalidMsisdn")
        expect(yield* Observe.allMessages).toEqual([])
        expect((yield* Messaging.receiveMessage("07400 000001", "STOP", { defaultCountry: "GB" })).contact?.status).toBe("CANCELLED")
        const { message } = yield* Messaging.receiveMessage("7400 000001", "hello", { defaultCountry: "United Kingdom" })
        expect(message.msisdn).toBe(Fixtures.msisdn(1))
        // An international sender stays international whatever the default.
        expect((yield* Messaging.receiveMessage("+44 7400 000002", "STOP", { defaultCountry: "FR" })).contact?.msisdn).toBe(Fixtures.msisdn(2))
      }))

    test("an inbound SMS holding a NUL or a lone surrogate is recorded all the same, each as U+FFFD (every store can keep it)", () =>
      Effect.gen(function*() {
        const { message } = yield* Messaging.receiveMessage(Fixtures.msisdn(1), "hi\u0000there \ud800!")
        expect(message.message).toBe("hi\ufffdthere \ufffd!")
        expect(yield* Observe.allMessages).toEqual([message])
      }))

    test("every opt-out keyword, in any case, alone in the text, makes the contact CANCELLED", () =>
      Effect.gen(function*() {
        const keywords = ["STOP", "stopall", " Unsubscribe ", "END", "quit", "Cancel", "OPTOUT\n"]
        yield* ContactBook.upsertContacts(keywords.map((_, i) => Fixtures.candidate(i)), { blankErases: false })
        for (const [i, keyword] of keywords.entries()) {
          const { action, contact } = yield* Messaging.receiveMessage(Fixtures.msisdn(i), keyword)
          expect(action).toBe("opt-out")
          expect(contact?.status).toBe("CANCELLED")
        }
        expect((yield* ContactBook.listContacts({ Status: "CANCELLED" })).map((c) => c.msisdn)).toEqual(keywords.map((_, i) => Fixtures.msisdn(i)))
        expect(yield* Messaging.listMessages({ direction: "MO" })).toHaveLength(keywords.length)
      }))

    test("START or UNSTOP resubscribes a CANCELLED contact; an unknown number's keyword creates it from SMS in that state", () =>
      Effect.gen(function*() {
        yield* ContactBook.createContact(Fixtures.msisdn(1), { first_name: "Ann" })
        yield* Messaging.receiveMessage(Fixtures.msisdn(1), "stop")
        expect((yield* Messaging.receiveMessage(Fixtures.msisdn(1), "Start")).contact?.status).toBe("SUBSCRIBED")
        expect((yield* ContactBook.getContact(Fixtures.msisdn(1))).first_name).toBe("Ann")
        const stranger = yield* Messaging.receiveMessage(Fixtures.msisdn(2), "STOP")
        expect(stranger.contact).toMatchObject({ msisdn: Fixtures.msisdn(2), status: "CANCELLED", added_from: "SMS", tags: [] })
        expect(yield* ContactBook.getContact(Fixtures.msisdn(2))).toEqual(stranger.contact)
        yield* ContactBook.upsertContacts([Fixtures.candidate(2, { first_name: "Imported" })], { blankErases: false })
        expect((yield* ContactBook.getContact(Fixtures.msisdn(2))).status).toBe("CANCELLED")
        expect((yield* Messaging.receiveMessage(Fixtures.msisdn(2), "unstop")).contact?.status).toBe("SUBSCRIBED")
        const newcomer = yield* Messaging.receiveMessage(Fixtures.msisdn(3), "START")
        expect(newcomer.contact).toMatchObject({ status: "SUBSCRIBED", added_from: "SMS" })
        const hello = yield* Messaging.receiveMessage(Fixtures.msisdn(4), "hello")
        expect(hello.contact).toBeUndefined()
        yield* Observe.refused(ContactBook.getContact(Fixtures.msisdn(4)), "ContactNotFound")
      }))

    test("a keyword the contact's status cannot follow leaves the contact as it is and the SMS is still recorded", () =>
      Effect.gen(function*() {
        const store = yield* ContactStore.ContactStore
        const invited = Fixtures.contact(1, { status: "INVITED" })
        yield* store.insert(invited)
        const { action, contact } = yield* Messaging.receiveMessage(Fixtures.msisdn(1), "START")
        expect(action).toBe("resubscribe")
        expect(contact).toEqual(invited)
        expect(yield* ContactBook.getContact(Fixtures.msisdn(1))).toEqual(invited)
        expect(yield* Observe.allMessages).toHaveLength(1)
      }))

    test("cancel opts out the numbers as one set: all suppressed, stored contacts CANCELLED, those moved counted, others left alone", () =>
      Effect.gen(function*() {
        const store = yield* ContactStore.ContactStore
        const kept = yield* ContactBook.createContact(Fixtures.msisdn(3), { first_name: "Kept" })
        yield* ContactBook.createContact(Fixtures.msisdn(1), { first_name: "Ann" })
        yield* ContactBook.createContact(Fixtures.msisdn(2), {})
        yield* ContactBook.optOut(Fixtures.msisdn(2))
        const numbers = [Fixtures.msisdn(1), Fixtures.msisdn(2), Fixtures.msisdn(9), Fixtures.msisdn(1)]
        // Rolled back with its transaction, as an import's dry run is.
        yield* Effect.exit(store.transaction(Effect.andThen(store.cancel(numbers), Effect.fail("rolled back"))))
        expect((yield* ContactBook.getContact(Fixtures.msisdn(1))).status).toBe("SUBSCRIBED")
        expect(yield* store.cancel(numbers)).toBe(1)
        expect(yield* ContactBook.getContact(Fixtures.msisdn(1))).toMatchObject({ status: "CANCELLED", first_name: "Ann" })
        expect(yield* ContactBook.getContact(Fixtures.msisdn(3))).toEqual(kept)
        // A number without a contact is suppressed all the same: an opt-out binds the number (a later add is CANCELLED).
        expect([...(yield* store.suppressed([...numbers, Fixtures.msisdn(3)]))].sort()).toEqual([Fixtures.msisdn(1), Fixtures.msisdn(2), Fixtures.msisdn(9)])
        expect(yield* store.cancel(numbers)).toBe(0)
        expect(yield* store.cancel([])).toBe(0)
      }))

    test("a batch write never moves a stored CANCELLED, even one whose entry is gone: it changes names and tags only", () =>
      Effect.gen(function*() {
        const store = yield* ContactStore.ContactStore
        const ann = yield* ContactBook.createContact(Fixtures.msisdn(1), { first_name: "Ann" })
        yield* ContactBook.optOut(Fixtures.msisdn(1))
        // The status alone must hold the opt-out here: the store's check of the list cannot.
        yield* store.unsuppress(Fixtures.msisdn(1))
        const renamed = { ...ann, first_name: "Anne", full_name: "Anne" }
        yield* store.write({ insert: [renamed], update: [] })
        expect(yield* ContactBook.getContact(Fixtures.msisdn(1))).toEqual({ ...renamed, status: "CANCELLED" })
        yield* store.write({ insert: [], update: [{ ...renamed, tags: ["news"] }] })
        expect(yield* ContactBook.getContact(Fixtures.msisdn(1))).toEqual({ ...renamed, tags: ["news"], status: "CANCELLED" })
      }))

    test("the suppression list is listed in msisdn order, a page after a number at a time, deleted contacts' numbers included", () =>
      Effect.gen(function*() {
        const store = yield* ContactStore.ContactStore
        expect(yield* store.listSuppressed({ limit: 10 })).toEqual([])
        yield* store.cancel([12, 3, 7, 40, 25].map(Fixtures.msisdn))
        yield* ContactBook.createContact(Fixtures.msisdn(30), {})
        yield* ContactBook.optOut(Fixtures.msisdn(30))
        yield* ContactBook.createContact(Fixtures.msisdn(8), {})
        yield* ContactBook.optOut(Fixtures.msisdn(8))
        yield* ContactBook.deleteContact(Fixtures.msisdn(8))
        // Resubscribed or forgotten, a number is no longer listed.
        yield* ContactBook.createContact(Fixtures.msisdn(5), {})
        yield* ContactBook.optOut(Fixtures.msisdn(5))
        yield* ContactBook.resubscribe(Fixtures.msisdn(5))
        yield* ContactBook.forget(Fixtures.msisdn(40))
        const all = [3, 7, 8, 12, 25, 30].map(Fixtures.msisdn)
        expect(yield* store.listSuppressed({ limit: 100 })).toEqual(all)
        expect(yield* store.listSuppressed({ limit: 2 })).toEqual(all.slice(0, 2))
        expect(yield* store.listSuppressed({ limit: 3, after: Fixtures.msisdn(7) })).toEqual(all.slice(2, 5))
        expect(yield* store.listSuppressed({ limit: 3, after: Fixtures.msisdn(9) })).toEqual(all.slice(3, 6))
        expect(yield* store.listSuppressed({ limit: 3, after: Fixtures.msisdn(30) })).toEqual([])
      }))

    test("optOut cancels (twice is a no-op), resubscribe restores; an absent contact is ContactNotFound", () =>
      Effect.gen(function*() {
        const created = yield* ContactBook.createContact(Fixtures.msisdn(1), {})
        expect(yield* ContactBook.optOut(Fixtures.msisdn(1))).toEqual({ ...created, status: "CANCELLED" })
        expect(yield* ContactBook.optOut(Fixtures.msisdn(1))).toEqual({ ...created, status: "CANCELLED" })
        expect(yield* ContactBook.getContact(Fixtures.msisdn(1))).toEqual({ ...created, status: "CANCELLED" })
        expect(yield* ContactBook.resubscribe(Fixtures.msisdn(1))).toEqual(created)
        yield* Observe.refused(ContactBook.optOut(Fixtures.msisdn(2)), "ContactNotFound")
      }))

    test("an opted-out contact never receives a group message, even as a monitor; after START it does again", () =>
      Effect.gen(function*() {
        yield* ContactBook.createContact(Fixtures.msisdn(1), {})
        yield* ContactBook.createContact(Fixtures.msisdn(2), {})
        yield* ContactBook.editContact(Fixtures.msisdn(1), { tags: ["news"], monitoring: true })
        yield* ContactBook.editContact(Fixtures.msisdn(2), { tags: ["news"] })
        yield* Messaging.receiveMessage(Fixtures.msisdn(1), "STOP")
        const first = yield* Messaging.sendToGroups({ tags: ["news"], message: "One" })
        const one = yield* Messaging.processGroupMessage(first.message_id)
        expect(one.message).toMatchObject({ total_recipients: 1, total_monitors: 0 })
        expect((yield* Observe.partsOf(first.message_id)).map((p) => p.msisdn)).toEqual([Fixtures.msisdn(2)])
        yield* TestClock.adjust(1)
        yield* Messaging.receiveMessage(Fixtures.msisdn(1), "START")
        const second = yield* Messaging.sendToGroups({ tags: ["news"], message: "Two" })
        yield* Messaging.processGroupMessage(second.message_id)
        expect((yield* Observe.partsOf(second.message_id)).map((p) => p.msisdn).sort()).toEqual([Fixtures.msisdn(1), Fixtures.msisdn(2)])
      }))
  })
}
