/**
 * Contract: sending to groups (4.3), processing a group message (PENDING to SENT, resumable, nobody
 * twice, under racing workers) and broadcast, which carries a group send through.
 */
import { describe, expect } from "@effect/vitest"
import { Carrier, ContactBook, ContactStore, Messaging, MessageStore, Sms } from "@smsbook/core"
import { Effect, Option } from "effect"
import { TestClock } from "effect/testing"
import * as Fixtures from "../Fixtures.ts"
import type * as Harness from "./Harness.ts"
import * as Observe from "./Observe.ts"

/**
 * What a run of `messageId` killed after its committed batches handed it to `msisdns` leaves: the message PROCESSING,
 * those members recorded and their parts counted in `sent_count`, as each batch commits them; answers the members
 * recorded now.
 */
const killedAfter = (messageId: string, msisdns: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const store = yield* MessageStore.MessageStore
    const message = Option.getOrThrow(yield* store.get(messageId))
    const parts = Sms.analyzePrefixed(Fixtures.settings.short_name, message.message).parts.length
    const fresh = yield* store.recordDeliveries(messageId, msisdns)
    yield* store.update({ ...message, status: "PROCESSING", sent_count: message.sent_count + parts * fresh.length })
    return fresh
  })

export const register = ({ test, racers }: Harness.Harness): void => {
  describe("POST /messages/send (4.3) and the processing of a group message", () => {
    test("answers PENDING, type 2, zero counts, not billable nor scheduled, and omits message_id, msisdn, country, created_by", () =>
      Effect.gen(function*() {
        const { message_id, response } = yield* Messaging.sendToGroups({ tags: ["News"], message: "Big news" })
        expect(Observe.sortedKeys(response)).toEqual(Observe.groupResponseKeys)
        expect(response).toEqual({
          short_code: Fixtures.settings.short_code,
          ...Fixtures.pendingGroup,
          message: "Big news",
          created_on: "2026-11-21 10:15:00"
        })
        const listed = yield* Observe.allMessages
        expect(listed).toEqual([{ ...response, message_id, created_by: Fixtures.settings.user }])
        const withId = yield* Messaging.sendToGroups({ tags: ["News"], message: "More", id: 77 })
        expect(Observe.sortedKeys(withId.response)).toEqual(Observe.withKey(Observe.groupResponseKeys, "id"))
        expect(withId.response.id).toBe("77")
      }))

    test("without tags (absent, empty, blank) it is refused with MissingTags and nothing is created", () =>
      Effect.gen(function*() {
        yield* ContactBook.createContact(Fixtures.msisdn(1), {})
        yield* Observe.refused(Messaging.sendToGroups({ message: "Hi" }), "MissingTags")
        yield* Observe.refused(Messaging.sendToGroups({ tags: [], message: "Hi" }), "MissingTags")
        yield* Observe.refused(Messaging.sendToGroups({ tags: [" ", ""], message: "Hi" }), "MissingTags")
        expect(yield* Observe.allMessages).toEqual([])
      }))

    test("a text over the budget or an id over 40 characters is refused and nothing is created", () =>
      Effect.gen(function*() {
        const budget = Sms.budget(Fixtures.settings.short_name)
        yield* Observe.refused(Messaging.sendToGroups({ tags: ["a"], message: "x".repeat(budget + 1) }), "MessageTooLong")
        yield* Observe.refused(Messaging.sendToGroups({ tags: ["a"], message: "Hi", id: "i".repeat(41) }), "ExternalIdTooLong")
        expect(yield* Observe.allMessages).toEqual([])
      }))

    test("an empty or blank text, or one that is not valid Unicode, is refused as InvalidField message and nothing is created", () =>
      Effect.gen(function*() {
        for (const message of ["", "   ", "\t\n", "\u00a0", "Hi \ud800", "caf\ufffd"]) {
          expect(yield* Observe.refused(Messaging.sendToGroups({ tags: ["a"], message }), "InvalidField")).toMatchObject({ field: "message" })
          expect(yield* Observe.refused(Messaging.sendToContact({ msisdn: Fixtures.msisdn(1), message }), "InvalidField"))
            .toMatchObject({ field: "message" })
        }
        expect(yield* Observe.allMessages).toEqual([])
      }))

    test("processing goes PENDING → PROCESSING → READY → SENT, handing over only while PROCESSING", () =>
      Effect.gen(function*() {
        const store = yield* MessageStore.MessageStore
        const carrier = yield* Carrier.Carrier
        yield* ContactBook.createContact(Fixtures.msisdn(1), {})
        yield* ContactBook.editContact(Fixtures.msisdn(1), { tags: ["news"] })
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
        // Its status moves (the counts move batch by batch, PROCESSING still).
        expect(moves.filter((status, i) => status !== moves[i - 1])).toEqual(["PROCESSING", "READY", "SENT"])
        expect(seenWhileHandingOver).toEqual(["PROCESSING"])
        expect(message.status).toBe("SENT")
        expect(yield* store.get(message_id)).toEqual(Option.some(message))
      }))

    test("reaches SUBSCRIBED and CONFIRMED contacts of any tag (any case) once each; monitors get a copy and are counted apart", () =>
      Effect.gen(function*() {
        const contacts = yield* ContactStore.ContactStore
        yield* contacts.insert(Fixtures.contact(1, { tags: ["News"] }))
        yield* contacts.insert(Fixtures.contact(2, { tags: ["sport", "NEWS"], status: "CONFIRMED" }))
        yield* contacts.insert(Fixtures.contact(3, { tags: ["news"], status: "INVITED" }))
        yield* contacts.insert(Fixtures.contact(4, { tags: ["news"], status: "CANCELLED", monitoring: true }))
        yield* contacts.insert(Fixtures.contact(5, { tags: ["other"], monitoring: true }))
        yield* contacts.insert(Fixtures.contact(6, { tags: ["news"], monitoring: true }))
        yield* contacts.insert(Fixtures.contact(7, { tags: ["other"] }))
        yield* contacts.insert(Fixtures.contact(8, { monitoring: true, status: "INVITED" }))
        yield* contacts.insert(Fixtures.contact(9, { monitoring: true, status: "CANCELLED" }))
        yield* contacts.insert(Fixtures.contact(10, { tags: ["newsletter"] }))
        const { message_id } = yield* Messaging.sendToGroups({ tags: ["news", "Sport"], message: Observe.twoPartText })
        const { handedOver, message } = yield* Messaging.processGroupMessage(message_id)
        const segments = Sms.analyzePrefixed(Fixtures.settings.short_name, Observe.twoPartText).segments
        expect(segments).toBe(2)
        expect(message).toMatchObject({
          status: "SENT",
          total_recipients: 3,
          total_monitors: 1,
          sent_count: segments * (3 + 1),
          error_count: 0
        })
        expect(handedOver).toBe(4)
        const parts = yield* Observe.partsOf(message_id)
        expect(parts).toHaveLength(message.sent_count)
        expect(new Set(parts.map((p) => `${p.msisdn}/${p.part}`)).size).toBe(parts.length)
        const texts = Observe.textsByMsisdn(parts)
        expect([...texts.keys()].sort()).toEqual([Fixtures.msisdn(1), Fixtures.msisdn(2), Fixtures.msisdn(5), Fixtures.msisdn(6)])
        for (const text of texts.values()) expect(text).toBe(Sms.prefix(Fixtures.settings.short_name, Observe.twoPartText))
        expect(parts.every((p) => p.parts === segments && p.short_code === Fixtures.settings.short_code)).toBe(true)
        const listed = yield* Observe.allMessages
        expect(listed).toHaveLength(1)
        expect(listed[0]).toMatchObject({ status: "SENT", total_recipients: 3, total_monitors: 1, sent_count: 8, type: 2 })
        expect(listed[0]).not.toHaveProperty("msisdn")
      }))

    test("processing twice, or a resumed run, hands nobody anything twice and keeps the counts", () =>
      Effect.gen(function*() {
        const store = yield* MessageStore.MessageStore
        yield* ContactBook.upsertContacts([1, 2, 3, 4].map((n) => Fixtures.candidate(n, { tags: ["club"] })), { blankErases: false })
        const { message_id } = yield* Messaging.sendToGroups({ tags: ["club"], message: "Meeting tonight" })
        // A crashed run: two members were handed the message, then the process died while PROCESSING.
        expect(yield* killedAfter(message_id, [Fixtures.msisdn(2), Fixtures.msisdn(4)])).toEqual([Fixtures.msisdn(2), Fixtures.msisdn(4)])
        const resumed = yield* Messaging.processGroupMessage(message_id)
        expect(resumed.handedOver).toBe(2)
        expect(resumed.message).toMatchObject({ status: "SENT", total_recipients: 4, sent_count: 4 })
        expect((yield* Observe.partsOf(message_id)).map((p) => p.msisdn).sort()).toEqual([Fixtures.msisdn(1), Fixtures.msisdn(3)])
        const twice = yield* Messaging.processGroupMessage(message_id)
        expect(twice).toEqual({ message: resumed.message, handedOver: 0 })
        // Sent, then found PROCESSING again (a stale worker): still nobody gets it twice.
        yield* store.update({ ...resumed.message, status: "PROCESSING" })
        const again = yield* Messaging.processGroupMessage(message_id)
        expect(again.handedOver).toBe(0)
        expect(again.message).toEqual(resumed.message)
        expect(yield* Observe.partsOf(message_id)).toHaveLength(2)
        expect(yield* store.countDeliveries(message_id)).toBe(4)
      }))

    test("a resumed run counts in sent_count every member handed the message, those who left the audience since included", () =>
      Effect.gen(function*() {
        yield* ContactBook.upsertContacts([1, 2, 3, 4].map((n) => Fixtures.candidate(n, { tags: ["club"] })), { blankErases: false })
        const { message_id } = yield* Messaging.sendToGroups({ tags: ["club"], message: "Meeting tonight" })
        // A crashed run handed the message to 1 and 2; then 1 left the group and 2 opted out.
        yield* killedAfter(message_id, [Fixtures.msisdn(1), Fixtures.msisdn(2)])
        yield* ContactBook.editContact(Fixtures.msisdn(1), { tags: ["other"] })
        yield* ContactBook.optOut(Fixtures.msisdn(2))
        const resumed = yield* Messaging.processGroupMessage(message_id)
        expect(resumed.handedOver).toBe(2)
        // Four members were handed a part (a dispatcher's cancellation of 2's unsent part takes one off later);
        // the audience resolved now is two.
        expect(resumed.message).toMatchObject({ status: "SENT", total_recipients: 2, sent_count: 4 })
      }))

    test("what a dispatcher counts while the message is processed stays: a cancelled part leaves sent_count, a failed one is in error_count", () =>
      Effect.gen(function*() {
        const store = yield* MessageStore.MessageStore
        yield* ContactBook.upsertContacts([1, 2, 3].map((n) => Fixtures.candidate(n, { tags: ["club"] })), { blankErases: false })
        const { message_id } = yield* Messaging.sendToGroups({ tags: ["club"], message: "Tonight" })
        // Once the batch is committed, a dispatcher cancels one part (its member opted out) and counts another failed.
        const dispatcher = Effect.gen(function*() {
          const now = Option.getOrThrow(yield* store.get(message_id))
          yield* store.update({ ...now, sent_count: now.sent_count - 1, error_count: now.error_count + 1 })
        })
        let transactions = 0
        const { message } = yield* Messaging.processGroupMessage(message_id).pipe(
          Effect.provideService(MessageStore.MessageStore, {
            ...store,
            transaction: (effect) => Effect.tap(store.transaction(effect), () => transactions++ === 0 ? dispatcher : Effect.void)
          })
        )
        expect(message).toMatchObject({ status: "SENT", total_recipients: 3, sent_count: 2, error_count: 1 })
        expect(yield* store.get(message_id)).toEqual(Option.some(message))
      }))

    test("a run that read the message PENDING while another run handed it to everybody writes none of that read back", () =>
      Effect.gen(function*() {
        const store = yield* MessageStore.MessageStore
        yield* ContactBook.upsertContacts([1, 2, 3].map((n) => Fixtures.candidate(n, { tags: ["club"] })), { blankErases: false })
        const { message_id } = yield* Messaging.sendToGroups({ tags: ["club"], message: "Tonight" })
        // What a read without the row's lock sees may be old by the time it is written: here a broadcast's run read the
        // message PENDING, and a dispatcher's run of it committed everything in between.
        let reads = 0
        const other = Messaging.processGroupMessage(message_id).pipe(Effect.provideService(MessageStore.MessageStore, store))
        yield* Messaging.processGroupMessage(message_id).pipe(
          Effect.provideService(MessageStore.MessageStore, {
            ...store,
            get: (id, options) => Effect.tap(store.get(id, options), () => options?.forUpdate !== true && reads++ === 0 ? other : Effect.void)
          })
        )
        expect(reads).toBeLessThanOrEqual(1)
        expect(Option.map(yield* store.get(message_id), (m) => [m.status, m.sent_count, m.total_recipients])).toEqual(Option.some(["SENT", 3, 3]))
        expect(yield* Observe.partsOf(message_id)).toHaveLength(3)
      }))

    test("concurrent processing of one message hands each member every part exactly once", () =>
      Effect.gen(function*() {
        yield* ContactBook.upsertContacts(Array.from({ length: 12 }, (_, n) => Fixtures.candidate(n, { tags: ["all"] })), { blankErases: false })
        const { message_id } = yield* Messaging.sendToGroups({ tags: ["all"], message: Observe.twoPartText })
        const runs = yield* Effect.all(
          Array.from({ length: racers }, () => Messaging.processGroupMessage(message_id)),
          { concurrency: "unbounded" }
        )
        expect(runs.reduce((sum, r) => sum + r.handedOver, 0)).toBe(12)
        const parts = yield* Observe.partsOf(message_id)
        expect(parts).toHaveLength(24)
        expect(new Set(parts.map((p) => `${p.msisdn}/${p.part}`)).size).toBe(24)
        expect(Option.map(yield* (yield* MessageStore.MessageStore).get(message_id), (m) => [m.status, m.sent_count])).toEqual(
          Option.some(["SENT", 24])
        )
      }))

    test("a group with nobody to reach completes with zero counts and hands nothing over", () =>
      Effect.gen(function*() {
        yield* ContactBook.createContact(Fixtures.msisdn(1), {})
        const { message_id } = yield* Messaging.sendToGroups({ tags: ["ghosts"], message: "Boo" })
        const { handedOver, message } = yield* Messaging.processGroupMessage(message_id)
        expect(handedOver).toBe(0)
        expect(message).toMatchObject({ status: "SENT", total_recipients: 0, total_monitors: 0, sent_count: 0 })
        expect(yield* Observe.partsOf(message_id)).toEqual([])
      }))

    test("an individual message is not processed as a group; an unknown message_id is refused", () =>
      Effect.gen(function*() {
        const sent = yield* Messaging.sendToContact({ msisdn: Fixtures.msisdn(1), message: "Hi" })
        yield* Observe.refused(Messaging.processGroupMessage(sent.message_id ?? ""), "IllegalTransition")
        expect(yield* Observe.refused(Messaging.processGroupMessage("ffff"), "MessageNotFound")).toMatchObject({
          message_id: "ffff"
        })
      }))
  })

  // -------------------------------------------------------------------------------------------
  describe("broadcast (a group send carried through to SENT)", () => {
    test("sends and processes: SENT, every member handed the message once", () =>
      Effect.gen(function*() {
        yield* ContactBook.upsertContacts([1, 2, 3].map((n) => Fixtures.candidate(n, { tags: ["club"] })), { blankErases: false })
        const { handedOver, message, resumed } = yield* Messaging.broadcast({ tags: ["CLUB"], message: "Tonight" }, { allowEmpty: false })
        expect(resumed).toBe(false)
        expect(handedOver).toBe(3)
        expect(message).toMatchObject({ status: "SENT", type: 2, total_recipients: 3, sent_count: 3, tags: ["CLUB"] })
        expect((yield* Observe.partsOf(message.message_id)).map((p) => p.msisdn).sort()).toEqual([Fixtures.msisdn(1), Fixtures.msisdn(2), Fixtures.msisdn(3)])
        expect(yield* Observe.allMessages).toHaveLength(1)
      }))

    test("nobody to reach (monitors alone do not count) is NoRecipients and creates nothing, unless allowEmpty", () =>
      Effect.gen(function*() {
        yield* ContactBook.createContact(Fixtures.msisdn(1), {})
        yield* ContactBook.editContact(Fixtures.msisdn(1), { monitoring: true })
        yield* ContactBook.createContact(Fixtures.msisdn(2), {})
        yield* ContactBook.editContact(Fixtures.msisdn(2), { tags: ["ghosts"] })
        yield* ContactBook.optOut(Fixtures.msisdn(2))
        expect(yield* Observe.refused(Messaging.broadcast({ tags: ["ghosts"], message: "Boo" }, { allowEmpty: false }), "NoRecipients"))
          .toMatchObject({ tags: ["ghosts"] })
        expect(yield* Observe.allMessages).toEqual([])
        yield* Observe.refused(Messaging.broadcast({ message: "Boo" }, { allowEmpty: false }), "MissingTags")
        expect(yield* Observe.allMessages).toEqual([])
        const { message } = yield* Messaging.broadcast({ tags: ["ghosts"], message: "Boo" }, { allowEmpty: true })
        expect(message).toMatchObject({ status: "SENT", total_recipients: 0, total_monitors: 1, sent_count: 1 })
        expect((yield* Observe.partsOf(message.message_id)).map((p) => p.msisdn)).toEqual([Fixtures.msisdn(1)])
      }))

    test("the id of an unfinished group message resumes it (same text and tags), nobody twice; a finished one is DuplicateSend", () =>
      Effect.gen(function*() {
        yield* ContactBook.upsertContacts([1, 2, 3].map((n) => Fixtures.candidate(n, { tags: ["club"] })), { blankErases: false })
        // An interrupted run: created, one member handed the message, then the process died.
        const { message_id } = yield* Messaging.sendToGroups({ tags: ["club"], message: "Tonight", id: "weekly" })
        yield* killedAfter(message_id, [Fixtures.msisdn(2)])
        yield* TestClock.adjust("1 minute")
        expect(yield* Observe.refused(Messaging.broadcast({ tags: ["club"], message: "Changed", id: "weekly" }, { allowEmpty: false }), "InvalidField"))
          .toMatchObject({ field: "id" })
        const resumed = yield* Messaging.broadcast({ tags: ["club"], message: "Tonight", id: "weekly" }, { allowEmpty: false })
        expect(resumed).toMatchObject({ resumed: true, handedOver: 2 })
        expect(resumed.message).toMatchObject({ message_id, status: "SENT", total_recipients: 3, sent_count: 3 })
        expect((yield* Observe.partsOf(message_id)).map((p) => p.msisdn).sort()).toEqual([Fixtures.msisdn(1), Fixtures.msisdn(3)])
        yield* Observe.refused(Messaging.broadcast({ tags: ["club"], message: "Tonight", id: "weekly" }, { allowEmpty: false }), "DuplicateSend")
        expect(yield* Observe.allMessages).toHaveLength(1)
      }))

    test("HandOverProgress is told the members handed the message so far, batch by batch, once committed", () =>
      Effect.gen(function*() {
        yield* ContactBook.upsertContacts([1, 2, 3].map((n) => Fixtures.candidate(n, { tags: ["club"] })), { blankErases: false })
        const told: Array<readonly [string, number]> = []
        const result = yield* Messaging.broadcast({ tags: ["club"], message: "Tonight" }, { allowEmpty: false }).pipe(
          Effect.provideService(Messaging.HandOverProgress, (messageId, handedOver) => void told.push([messageId, handedOver]))
        )
        expect(told.at(-1)).toEqual([result.message.message_id, 3])
        expect(told.map(([, n]) => n)).toEqual([...told.map(([, n]) => n)].sort((a, b) => a - b))
      }))

    test("a resumed broadcast may name its tags in another order or case; other tags are refused", () =>
      Effect.gen(function*() {
        const store = yield* MessageStore.MessageStore
        yield* ContactBook.upsertContacts([1, 2].map((n) => Fixtures.candidate(n, { tags: ["club", "vip"] })), { blankErases: false })
        const { message_id } = yield* Messaging.sendToGroups({ tags: ["club", "vip"], message: "Tonight", id: "weekly" })
        yield* store.update({ ...Option.getOrThrow(yield* store.get(message_id)), status: "PROCESSING" })
        yield* Observe.refused(Messaging.broadcast({ tags: ["club"], message: "Tonight", id: "weekly" }, { allowEmpty: false }), "InvalidField")
        yield* Observe.refused(Messaging.broadcast({ tags: ["club", "vip", "news"], message: "Tonight", id: "weekly" }, { allowEmpty: false }), "InvalidField")
        const resumed = yield* Messaging.broadcast({ tags: ["VIP", "club"], message: "Tonight", id: "weekly" }, { allowEmpty: false })
        expect(resumed).toMatchObject({ resumed: true, handedOver: 2 })
        expect(resumed.message).toMatchObject({ message_id, status: "SENT", sent_count: 2 })
      }))
  })
}
