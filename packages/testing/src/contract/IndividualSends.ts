/**
 * Contract: sending to one contact (4.2): the answer's shape, the text and id limits, opted-out
 * recipients, and delivery handing every part to the carrier once.
 */
import { describe, expect } from "@effect/vitest"
import { ContactBook, Messaging, MessageStore, Sms } from "@smsbook/core"
import { Effect, Option } from "effect"
import * as Fixtures from "../Fixtures.ts"
import type * as Harness from "./Harness.ts"
import * as Observe from "./Observe.ts"

export const register = ({ test }: Harness.Harness): void => {
  describe("POST /messages/send_to_contact (4.2)", () => {
    test("answers READY, type 1, sent_count 0, error_count 0, total_recipients 1, total_monitors 0, with message_id, msisdn, country, created_by", () =>
      Effect.gen(function*() {
        const sent = yield* Messaging.sendToContact({ msisdn: Fixtures.msisdn(1), message: "Hello there" })
        expect(Observe.sortedKeys(sent)).toEqual(Observe.individualKeys)
        expect(sent).toMatchObject({
          short_code: Fixtures.settings.short_code,
          country: "44",
          msisdn: Fixtures.msisdn(1),
          direction: "MT",
          status: "READY",
          message: "Hello there",
          ...Fixtures.unsent,
          total_recipients: 1,
          is_billable: true,
          created_on: "2026-11-21 10:15:00",
          created_by: Fixtures.settings.user,
          type: 1
        })
        expect(sent.message_id).toMatch(/^[0-9a-f]+$/)
        expect(yield* Observe.allMessages).toEqual([sent])
      }))

    test("reads the table's misdn and a numeric id, which comes back as text", () =>
      Effect.gen(function*() {
        const sent = yield* Messaging.sendToContact({ misdn: 447400000001, message: "Hi", id: 12345 })
        expect(Observe.sortedKeys(sent)).toEqual(Observe.withKey(Observe.individualKeys, "id"))
        expect(sent).toMatchObject({ msisdn: Fixtures.msisdn(1), id: "12345" })
        expect(yield* Observe.allMessages).toEqual([sent])
      }))

    test("created_on is rendered in the account's time zone", () =>
      Effect.gen(function*() {
        const sent = yield* Messaging.sendToContact({ msisdn: Fixtures.msisdn(1), message: "Hi" })
        expect(sent.created_on).toBe("2026-11-21 19:15:00")
        expect((yield* Observe.allMessages).map((m) => m.created_on)).toEqual(["2026-11-21 19:15:00"])
      }), { ...Fixtures.settings, time_zone: "Asia/Tokyo" })

    test("a text over the budget is MessageTooLong, the budget itself fits; nothing is created on refusal", () =>
      Effect.gen(function*() {
        const budget = Sms.budget(Fixtures.settings.short_name)
        expect(yield* Observe.refused(Messaging.sendToContact({ msisdn: Fixtures.msisdn(1), message: "x".repeat(budget + 1) }), "MessageTooLong"))
          .toMatchObject({ length: budget + 1, max: budget })
        expect(yield* Observe.allMessages).toEqual([])
        const sent = yield* Messaging.sendToContact({ msisdn: Fixtures.msisdn(1), message: "x".repeat(budget) })
        expect(sent.message).toBe("x".repeat(budget))
      }))

    test("an id over 40 characters is ExternalIdTooLong, 40 fit; nothing is created on refusal", () =>
      Effect.gen(function*() {
        expect(yield* Observe.refused(Messaging.sendToContact({ msisdn: Fixtures.msisdn(1), message: "Hi", id: "i".repeat(41) }), "ExternalIdTooLong"))
          .toMatchObject({ length: 41, max: 40 })
        expect(yield* Observe.allMessages).toEqual([])
        expect((yield* Messaging.sendToContact({ msisdn: Fixtures.msisdn(1), message: "Hi", id: "i".repeat(40) })).id).toBe("i".repeat(40))
      }))

    test("a number that is not a phone number is InvalidMsisdn; a number not in the book may be sent to", () =>
      Effect.gen(function*() {
        yield* Observe.refused(Messaging.sendToContact({ msisdn: "12", message: "Hi" }), "InvalidMsisdn")
        yield* Observe.refused(Messaging.sendToContact({ message: "Hi" }), "InvalidField")
        expect(yield* Observe.allMessages).toEqual([])
        expect((yield* Messaging.sendToContact({ msisdn: "+1 212 555 0123", message: "Hi" })).msisdn).toBe("12125550123")
      }))

    test("an opted-out (CANCELLED) contact is refused with RecipientOptedOut and nothing is created", () =>
      Effect.gen(function*() {
        yield* ContactBook.createContact(Fixtures.msisdn(1), {})
        yield* ContactBook.optOut(Fixtures.msisdn(1))
        expect(yield* Observe.refused(Messaging.sendToContact({ msisdn: Fixtures.msisdn(1), message: "Hi" }), "RecipientOptedOut")).toMatchObject({
          msisdn: Fixtures.msisdn(1)
        })
        expect(yield* Observe.allMessages).toEqual([])
      }))

    test("an opted-out number stays refused once its contact is deleted (the suppression list decides), until a resubscribe", () =>
      Effect.gen(function*() {
        yield* ContactBook.createContact(Fixtures.msisdn(1), {})
        yield* ContactBook.optOut(Fixtures.msisdn(1))
        yield* ContactBook.deleteContact(Fixtures.msisdn(1))
        yield* Observe.refused(Messaging.sendToContact({ msisdn: Fixtures.msisdn(1), message: "Hi" }), "RecipientOptedOut")
        expect(yield* Observe.allMessages).toEqual([])
        // A number never opted out, and not in the book, may still be sent to.
        expect((yield* Messaging.sendToContact({ msisdn: Fixtures.msisdn(2), message: "Hi" })).msisdn).toBe(Fixtures.msisdn(2))
      }))

    test("a delivery reads the message in its transaction: one from an earlier read is refused, and writes nothing over a dispatcher's counts", () =>
      Effect.gen(function*() {
        const store = yield* MessageStore.MessageStore
        const sent = yield* Messaging.sendToContact({ msisdn: Fixtures.msisdn(1), message: "Hi" })
        const ready = Option.getOrThrow(yield* store.get(sent.message_id ?? ""))
        yield* Messaging.deliverMessage(ready.message_id)
        // A dispatcher then counts the part failed.
        yield* store.update({ ...Option.getOrThrow(yield* store.get(ready.message_id)), error_count: 1 })
        // Another delivery whose read came before all that: an unlocked read answers the message READY.
        const earlier: typeof store = {
          ...store,
          get: (messageId, options) => options?.forUpdate === true ? store.get(messageId, options) : Effect.succeed(Option.some(ready))
        }
        yield* Observe.refused(
          Messaging.deliverMessage(ready.message_id).pipe(Effect.provideService(MessageStore.MessageStore, earlier)),
          "IllegalTransition"
        )
        expect(Option.getOrThrow(yield* store.get(ready.message_id))).toMatchObject({ status: "SENT", sent_count: 1, error_count: 1 })
      }))

    test("delivery hands every part of the prefixed text to the carrier once: SENT, sent_count = parts", () =>
      Effect.gen(function*() {
        const sent = yield* Messaging.sendToContact({ msisdn: Fixtures.msisdn(1), message: Observe.twoPartText })
        const delivered = yield* Messaging.deliverMessage(sent.message_id ?? "")
        expect(delivered).toEqual({ ...sent, status: "SENT", sent_count: 2 })
        const parts = yield* Observe.partsOf(sent.message_id ?? "")
        expect(parts.map((p) => [p.msisdn, p.part, p.parts, p.short_code])).toEqual([
          [Fixtures.msisdn(1), 1, 2, Fixtures.settings.short_code],
          [Fixtures.msisdn(1), 2, 2, Fixtures.settings.short_code]
        ])
        expect(Observe.textsByMsisdn(parts).get(Fixtures.msisdn(1))).toBe(Sms.prefix(Fixtures.settings.short_name, Observe.twoPartText))
        expect(yield* Observe.refused(Messaging.deliverMessage(sent.message_id ?? ""), "IllegalTransition")).toMatchObject({
          from: "SENT",
          to: "SENT"
        })
        expect(yield* Observe.partsOf(sent.message_id ?? "")).toHaveLength(2)
        expect(yield* Observe.allMessages).toEqual([delivered])
      }))
  })
}
