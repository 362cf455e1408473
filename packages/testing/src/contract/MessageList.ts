/**
 * Contract: listing messages (4.1): creation order, paging, and the direction, number, group and
 * HTTP-date filters, alone and combined.
 */
import { describe, expect } from "@effect/vitest"
import { Messaging } from "@smsbook/core"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import * as Fixtures from "../Fixtures.ts"
import type * as Harness from "./Harness.ts"
import * as Observe from "./Observe.ts"

export const register = ({ test }: Harness.Harness): void => {
  describe("GET /messages (4.1)", () => {
    test("messages are ordered by creation, then message_id", () =>
      Effect.gen(function*() {
        const a = yield* Messaging.sendToContact({ msisdn: Fixtures.msisdn(1), message: "a" })
        const b = yield* Messaging.sendToContact({ msisdn: Fixtures.msisdn(2), message: "b" })
        yield* TestClock.setTime(Fixtures.epoch - 60_000)
        const early = yield* Messaging.receiveMessage(Fixtures.msisdn(3), "early")
        yield* TestClock.setTime(Fixtures.epoch + 1)
        const c = (yield* Messaging.sendToGroups({ tags: ["x"], message: "c" })).message_id
        const listed = yield* Observe.allMessages
        const sameInstant = [a.message_id, b.message_id].sort()
        expect(listed.map((m) => m.message_id)).toEqual([early.message.message_id, ...sameInstant, c])
      }))

    test("Limit defaults to 200; start offsets; Limit 1000 is the most, over it is refused", () =>
      Effect.gen(function*() {
        yield* Effect.forEach(Array.from({ length: 201 }, (_, i) => i), (i) =>
          Effect.andThen(TestClock.setTime(Fixtures.epoch + i * 1000), Messaging.receiveMessage(Fixtures.msisdn(i % 7), `m${i}`)))
        const all = yield* Observe.allMessages
        expect(all.map((m) => m.message)).toEqual(Array.from({ length: 201 }, (_, i) => `m${i}`))
        expect(yield* Messaging.listMessages({})).toEqual(all.slice(0, 200))
        expect(yield* Messaging.listMessages({ start: "199" })).toEqual(all.slice(199))
        expect(yield* Messaging.listMessages({ Start: "5", limit: "2" })).toEqual(all.slice(5, 7))
        expect(yield* Messaging.listMessages({ start: "201" })).toEqual([])
        expect(yield* Observe.refused(Messaging.listMessages({ Limit: "1001" }), "InvalidParameter")).toMatchObject({ parameter: "Limit" })
        expect(yield* Observe.refused(Messaging.listMessages({ start: "-1" }), "InvalidParameter")).toMatchObject({ parameter: "start" })
      }))

    test("direction selects MT, MO or ALL (the default), in any case; anything else is refused", () =>
      Effect.gen(function*() {
        const mt = yield* Messaging.sendToContact({ msisdn: Fixtures.msisdn(1), message: "out" })
        const group = yield* Messaging.sendToGroups({ tags: ["x"], message: "out to group" })
        yield* TestClock.adjust(1)
        const mo = yield* Messaging.receiveMessage(Fixtures.msisdn(1), "in")
        const ids = (params: Record<string, string>) => Effect.map(Messaging.listMessages(params), (list) => list.map((m) => m.message_id))
        expect((yield* ids({ direction: "MT" })).sort()).toEqual([mt.message_id, group.message_id].sort())
        expect(yield* ids({ direction: "mo" })).toEqual([mo.message.message_id])
        expect(yield* ids({ Direction: "ALL" })).toHaveLength(3)
        expect(yield* ids({})).toHaveLength(3)
        expect(yield* Observe.refused(Messaging.listMessages({ direction: "IN" }), "InvalidParameter")).toMatchObject({ parameter: "direction" })
      }))

    test("misdn (or msisdn) selects the messages of one number, both directions; a bad number is refused", () =>
      Effect.gen(function*() {
        const out = yield* Messaging.sendToContact({ msisdn: Fixtures.msisdn(1), message: "out" })
        yield* Messaging.sendToContact({ msisdn: Fixtures.msisdn(2), message: "other" })
        yield* Messaging.sendToGroups({ tags: ["x"], message: "group" })
        yield* TestClock.adjust(1)
        const back = yield* Messaging.receiveMessage(Fixtures.msisdn(1), "reply")
        const expected = [out.message_id, back.message.message_id]
        const ids = (params: Record<string, string>) => Effect.map(Messaging.listMessages(params), (list) => list.map((m) => m.message_id))
        expect(yield* ids({ misdn: Fixtures.msisdn(1) })).toEqual(expected)
        expect(yield* ids({ msisdn: "+44 7400 000001" })).toEqual(expected)
        expect(yield* ids({ misdn: Fixtures.msisdn(1), direction: "MO" })).toEqual([back.message.message_id])
        expect(yield* ids({ misdn: Fixtures.msisdn(3) })).toEqual([])
        expect(yield* Observe.refused(Messaging.listMessages({ misdn: "12" }), "InvalidMsisdn")).toMatchObject({ parameter: "misdn" })
      }))

    test("group_short_name selects the group messages sent to that tag, in any case", () =>
      Effect.gen(function*() {
        const news = yield* Messaging.sendToGroups({ tags: ["News", "Sport"], message: "both" })
        const sport = yield* Messaging.sendToGroups({ tags: ["sport"], message: "sport" })
        yield* Messaging.sendToContact({ msisdn: Fixtures.msisdn(1), message: "individual" })
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
          Effect.andThen(TestClock.setTime(Fixtures.epoch + offset), Messaging.receiveMessage(Fixtures.msisdn(1), text))
        yield* at(0, "t0")
        yield* at(3_600_999, "t1")
        yield* at(7_200_000, "t2")
        const texts = (params: Record<string, string>) => Effect.map(Messaging.listMessages(params), (list) => list.map((m) => m.message))
        const hour = Observe.httpDate(3_600_000)
        expect(hour).toBe("Sat, 21 Nov 2026 11:15:00 GMT")
        expect(yield* texts({ start_date: hour })).toEqual(["t1", "t2"])
        expect(yield* texts({ end_date: hour })).toEqual(["t0", "t1"])
        expect(yield* texts({ start_date: hour, end_date: hour })).toEqual(["t1"])
        expect(yield* texts({ start_date: Observe.httpDate(3_601_000) })).toEqual(["t2"])
        expect(yield* texts({ end_date: Observe.httpDate(3_599_000) })).toEqual(["t0"])
        expect(yield* texts({ start_date: "Saturday, 21-Nov-26 11:15:00 GMT" })).toEqual(["t1", "t2"])
        expect(yield* texts({ end_date: "Sat Nov 21 11:15:00 2026" })).toEqual(["t0", "t1"])
        expect(yield* texts({ START_DATE: "Sat, 21 Nov 2026 12:15:00 +0100" })).toEqual(["t1", "t2"])
        expect(yield* texts({ start_date: "", end_date: "" })).toEqual(["t0", "t1", "t2"])
        expect(yield* Observe.refused(Messaging.listMessages({ start_date: "2026-11-21" }), "InvalidHttpDate")).toMatchObject({
          parameter: "start_date"
        })
        expect(yield* Observe.refused(Messaging.listMessages({ end_date: "Sun, 21 Nov 2026 11:15:00 GMT" }), "InvalidHttpDate"))
          .toMatchObject({ parameter: "end_date" })
        expect(yield* Observe.refused(Messaging.listMessages({ start_date: Observe.httpDate(1000), end_date: Observe.httpDate(0) }), "InvalidParameter"))
          .toMatchObject({ parameter: "start_date" })
      }))

    test("filters combine", () =>
      Effect.gen(function*() {
        yield* Messaging.sendToContact({ msisdn: Fixtures.msisdn(1), message: "early out" })
        yield* TestClock.setTime(Fixtures.epoch + 10_000)
        yield* Messaging.receiveMessage(Fixtures.msisdn(1), "late in")
        yield* Messaging.sendToContact({ msisdn: Fixtures.msisdn(1), message: "late out" })
        yield* Messaging.sendToContact({ msisdn: Fixtures.msisdn(2), message: "late other" })
        const listed = yield* Messaging.listMessages({ start_date: Observe.httpDate(10_000), misdn: Fixtures.msisdn(1), direction: "MT" })
        expect(listed.map((m) => m.message)).toEqual(["late out"])
      }))
  })
}
