/**
 * Contract: the ports themselves, below the use cases: values read back exactly as written, the
 * errors of each call, streams, anti-spam and deliveries, and transactions across both stores.
 */
import { describe, expect } from "@effect/vitest"
import { ContactStore, MessageStore } from "@smsbook/core"
import { Effect, Option, Stream } from "effect"
import * as Fixtures from "../Fixtures.ts"
import type * as Harness from "./Harness.ts"
import * as Observe from "./Observe.ts"

export const register = ({ test }: Harness.Harness): void => {
  describe("ports", () => {
    test("a contact reads back exactly as written: unicode names, tag order, every status and origin", () =>
      Effect.gen(function*() {
        const store = yield* ContactStore.ContactStore
        const odd = Fixtures.contact(1, {
          first_name: "Zo\u00eb \u0416\u0435\u043d\u044f",
          last_name: "O'Brien \"\u2603\" \ud83d\ude00",
          tags: ["b", "A", "c d"],
          status: "INVITED",
          added_from: "WEB_FORM",
          monitoring: true
        })
        yield* store.insert(odd)
        expect(yield* store.get(Fixtures.msisdn(1))).toEqual(Option.some(odd))
        expect(yield* store.get(Fixtures.msisdn(2))).toEqual(Option.none())
        for (const status of ["CONFIRMED", "CANCELLED", "SUBSCRIBED"] as const) {
          for (const added_from of ["SMS", "SUBSCRIPTION_REQUEST", "FILE_UPLOAD", "API"] as const) {
            const next = { ...odd, status, added_from, monitoring: false, tags: [] }
            yield* store.update(next)
            expect(yield* store.get(Fixtures.msisdn(1))).toEqual(Option.some(next))
          }
        }
      }))

    test("insert of an existing msisdn is ContactExists; update or remove of an absent one is ContactNotFound", () =>
      Effect.gen(function*() {
        const store = yield* ContactStore.ContactStore
        yield* store.insert(Fixtures.contact(1))
        expect(yield* Observe.refused(store.insert(Fixtures.contact(1, { first_name: "x" })), "ContactExists")).toMatchObject({ msisdn: Fixtures.msisdn(1) })
        expect(yield* Observe.refused(store.update(Fixtures.contact(2)), "ContactNotFound")).toMatchObject({ msisdn: Fixtures.msisdn(2) })
        expect(yield* Observe.refused(store.remove(Fixtures.msisdn(2)), "ContactNotFound")).toMatchObject({ msisdn: Fixtures.msisdn(2) })
        expect(yield* store.get(Fixtures.msisdn(1))).toEqual(Option.some(Fixtures.contact(1)))
        expect(yield* store.get(Fixtures.msisdn(2))).toEqual(Option.none())
      }))

    test("getMany finds the existing ones among many; write applies inserts and updates together; count counts", () =>
      Effect.gen(function*() {
        const store = yield* ContactStore.ContactStore
        yield* store.write({ insert: [Fixtures.contact(1), Fixtures.contact(2), Fixtures.contact(3)], update: [] })
        yield* store.write({ insert: [Fixtures.contact(4)], update: [Fixtures.contact(2, { first_name: "Two", tags: ["x"] })] })
        const found = yield* store.getMany([Fixtures.msisdn(2), Fixtures.msisdn(4), Fixtures.msisdn(9), Fixtures.msisdn(2)])
        expect([...found.keys()].sort()).toEqual([Fixtures.msisdn(2), Fixtures.msisdn(4)])
        expect(found.get(Fixtures.msisdn(2))).toEqual(Fixtures.contact(2, { first_name: "Two", tags: ["x"] }))
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
            Fixtures.contact(5, { tags: ["News", "news2"] }),
            Fixtures.contact(1, { tags: ["a", "SPORT"], status: "CANCELLED" }),
            Fixtures.contact(3, { monitoring: true }),
            Fixtures.contact(2, { tags: ["newsletter"] }),
            Fixtures.contact(4, { tags: ["sport", "news"], status: "INVITED" })
          ],
          update: []
        })
        const audience = yield* Stream.runCollect(store.audience({ tags: ["news", "Sport"] }))
        expect(audience.map((c) => c.msisdn)).toEqual([Fixtures.msisdn(1), Fixtures.msisdn(3), Fixtures.msisdn(4), Fixtures.msisdn(5)])
        expect(audience[3]).toEqual(Fixtures.contact(5, { tags: ["News", "news2"] }))
      }))

    test("a message reads back exactly as written, to the millisecond; findById gives the latest; stream follows list order", () =>
      Effect.gen(function*() {
        const store = yield* MessageStore.MessageStore
        const full = Fixtures.message("0001", {
          id: "ext-1",
          country: "44",
          msisdn: Fixtures.msisdn(1),
          created_by: "operator",
          message: "\u0436 \ud83d\ude00 'quoted' \"double\"",
          created_at: Fixtures.epoch + 123,
          sent_count: 6,
          error_count: 1,
          segments: 3,
          is_scheduled: true,
          is_billable: false
        })
        const group = Fixtures.message("0002", {
          type: 2,
          status: "PENDING",
          tags: ["News", "sport"],
          total_recipients: 0,
          created_at: Fixtures.epoch + 50,
          id: "ext-1"
        })
        const mo = Fixtures.message("0003", { direction: "MO", status: "SENT", msisdn: Fixtures.msisdn(2), created_at: Fixtures.epoch + 50 })
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
        expect(yield* store.list({ limit: 1, start: 1, from: Fixtures.epoch + 50, to: Fixtures.epoch + 123 })).toEqual([mo])
        const sent = { ...group, status: "SENT" as const, total_recipients: 3, total_monitors: 1, sent_count: 4 }
        yield* store.update(sent)
        expect(yield* store.get("0002")).toEqual(Option.some(sent))
      }))

    test("insert with antiSpam refuses an id created at or after `since`, atomically with the insert", () =>
      Effect.gen(function*() {
        const store = yield* MessageStore.MessageStore
        yield* store.insert(Fixtures.message("0001", { id: "dup", created_at: Fixtures.epoch }))
        const error = yield* Observe.refused(store.insert(Fixtures.message("0002", { id: "dup", created_at: Fixtures.epoch + 5 }), { id: "dup", since: Fixtures.epoch }), "DuplicateSend")
        expect(error).toMatchObject({ id: "dup", message_id: "0001", created_at: new Date(Fixtures.epoch).toISOString() })
        expect(yield* store.get("0002")).toEqual(Option.none())
        yield* store.insert(Fixtures.message("0003", { id: "dup", created_at: Fixtures.epoch + 5 }), { id: "dup", since: Fixtures.epoch + 1 })
        yield* store.insert(Fixtures.message("0004", { id: "other", created_at: Fixtures.epoch + 5 }), { id: "other", since: 0 })
        expect((yield* store.list({ limit: 10, start: 0 })).map((m) => m.message_id)).toEqual(["0001", "0003", "0004"])
      }))

    test("recordDeliveries returns only the numbers not recorded before, in order; countDeliveries counts per message", () =>
      Effect.gen(function*() {
        const store = yield* MessageStore.MessageStore
        expect(yield* store.recordDeliveries("m1", [Fixtures.msisdn(3), Fixtures.msisdn(1)])).toEqual([Fixtures.msisdn(3), Fixtures.msisdn(1)])
        expect(yield* store.recordDeliveries("m1", [Fixtures.msisdn(2), Fixtures.msisdn(1), Fixtures.msisdn(4)])).toEqual([Fixtures.msisdn(2), Fixtures.msisdn(4)])
        expect(yield* store.recordDeliveries("m1", [])).toEqual([])
        expect(yield* store.recordDeliveries("m2", [Fixtures.msisdn(1)])).toEqual([Fixtures.msisdn(1)])
        expect(yield* store.countDeliveries("m1")).toBe(4)
        expect(yield* store.countDeliveries("m2")).toBe(1)
        expect(yield* store.countDeliveries("m3")).toBe(0)
      }))

    test("a transaction commits all its writes, across both stores, and returns its value", () =>
      Effect.gen(function*() {
        const contacts = yield* ContactStore.ContactStore
        const messages = yield* MessageStore.MessageStore
        const value = yield* messages.transaction(Effect.gen(function*() {
          yield* contacts.insert(Fixtures.contact(1))
          yield* messages.insert(Fixtures.message("0001"))
          return yield* contacts.transaction(Effect.as(contacts.insert(Fixtures.contact(2)), "done"))
        }))
        expect(value).toBe("done")
        expect(yield* contacts.count).toBe(2)
        expect(yield* messages.get("0001")).toEqual(Option.some(Fixtures.message("0001")))
      }))

    test("a transaction that fails leaves nothing, across both stores, and fails with its own error", () =>
      Effect.gen(function*() {
        const contacts = yield* ContactStore.ContactStore
        const messages = yield* MessageStore.MessageStore
        yield* contacts.insert(Fixtures.contact(1))
        const error = yield* Effect.flip(contacts.transaction(Effect.gen(function*() {
          yield* contacts.insert(Fixtures.contact(2))
          yield* contacts.update(Fixtures.contact(1, { first_name: "changed" }))
          yield* messages.insert(Fixtures.message("0001", { id: "x" }))
          yield* messages.recordDeliveries("0001", [Fixtures.msisdn(1)])
          return yield* contacts.insert(Fixtures.contact(1))
        })))
        expect(error).toMatchObject({ _tag: "ContactExists", msisdn: Fixtures.msisdn(1) })
        expect(yield* contacts.list({ limit: 10, start: 0 })).toEqual([Fixtures.contact(1)])
        expect(yield* messages.list({ limit: 10, start: 0 })).toEqual([])
        expect(yield* messages.countDeliveries("0001")).toBe(0)
        yield* messages.insert(Fixtures.message("0002", { id: "x" }), { id: "x", since: 0 })
      }))
  })
}
