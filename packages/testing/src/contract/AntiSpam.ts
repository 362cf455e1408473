/**
 * Contract: the anti-spam law: an external id is used once per spam period, across individual and
 * group sends, measured on the clock, and atomic under racing senders.
 */
import { describe, expect } from "@effect/vitest"
import { type Errors, Messaging } from "@smsbook/core"
import { Effect, Result } from "effect"
import { TestClock } from "effect/testing"
import * as Fixtures from "../Fixtures.ts"
import type * as Harness from "./Harness.ts"
import * as Observe from "./Observe.ts"

export const register = ({ test, racers }: Harness.Harness): void => {
  describe("anti-spam", () => {
    test("the same id within the spam period is DuplicateSend naming the first message, and nothing is created", () =>
      Effect.gen(function*() {
        const first = yield* Messaging.sendToContact({ msisdn: Fixtures.msisdn(1), message: "Hi", id: "promo-1" })
        yield* TestClock.adjust("1 hour")
        const error = yield* Observe.refused(Messaging.sendToContact({ msisdn: Fixtures.msisdn(2), message: "Hi again", id: "promo-1" }), "DuplicateSend")
        expect(error).toMatchObject({ id: "promo-1", message_id: first.message_id, created_at: new Date(Fixtures.epoch).toISOString() })
        yield* Observe.refused(Messaging.sendToGroups({ tags: ["all"], message: "Hi all", id: "promo-1" }), "DuplicateSend")
        expect(yield* Observe.allMessages).toEqual([first])
      }))

    test("ids are shared by individual and group sends; a numeric id equals its text", () =>
      Effect.gen(function*() {
        const group = yield* Messaging.sendToGroups({ tags: ["all"], message: "Hi", id: 42 })
        expect(yield* Observe.refused(Messaging.sendToContact({ msisdn: Fixtures.msisdn(1), message: "Hi", id: "42" }), "DuplicateSend")).toMatchObject({
          message_id: group.message_id
        })
        yield* Messaging.sendToContact({ msisdn: Fixtures.msisdn(1), message: "Hi", id: "43" })
        yield* Messaging.sendToContact({ msisdn: Fixtures.msisdn(1), message: "Hi" })
        yield* Messaging.sendToContact({ msisdn: Fixtures.msisdn(1), message: "Hi" })
        expect(yield* Observe.allMessages).toHaveLength(4)
      }))

    test("the period is measured on the clock: refused up to and at its end, allowed once it has passed", () =>
      Effect.gen(function*() {
        const period = Fixtures.settings.spam_period_seconds * 1000
        yield* Messaging.sendToContact({ msisdn: Fixtures.msisdn(1), message: "Hi", id: "daily" })
        yield* TestClock.setTime(Fixtures.epoch + period - 1)
        yield* Observe.refused(Messaging.sendToContact({ msisdn: Fixtures.msisdn(1), message: "Hi", id: "daily" }), "DuplicateSend")
        yield* TestClock.setTime(Fixtures.epoch + period)
        yield* Observe.refused(Messaging.sendToContact({ msisdn: Fixtures.msisdn(1), message: "Hi", id: "daily" }), "DuplicateSend")
        yield* TestClock.setTime(Fixtures.epoch + period + 1)
        const later = yield* Messaging.sendToContact({ msisdn: Fixtures.msisdn(1), message: "Hi", id: "daily" })
        yield* TestClock.adjust("1 hour")
        expect(yield* Observe.refused(Messaging.sendToGroups({ tags: ["a"], message: "Hi", id: "daily" }), "DuplicateSend")).toMatchObject({
          message_id: later.message_id
        })
        expect(yield* Observe.allMessages).toHaveLength(2)
      }))

    test("with a spam period of 0 the same id is refused only at the same instant", () =>
      Effect.gen(function*() {
        yield* Messaging.sendToContact({ msisdn: Fixtures.msisdn(1), message: "Hi", id: "x" })
        yield* Observe.refused(Messaging.sendToContact({ msisdn: Fixtures.msisdn(1), message: "Hi", id: "x" }), "DuplicateSend")
        yield* TestClock.adjust(1)
        yield* Messaging.sendToContact({ msisdn: Fixtures.msisdn(1), message: "Hi", id: "x" })
      }), { ...Fixtures.settings, spam_period_seconds: 0 })

    test("concurrent sends with the same id: exactly one succeeds, the others are DuplicateSend", () =>
      Effect.gen(function*() {
        const send = (i: number): Effect.Effect<unknown, Errors.SmsbookError, Harness.Env> =>
          i % 2 === 0
            ? Messaging.sendToContact({ msisdn: Fixtures.msisdn(i), message: `Hi ${i}`, id: "race" })
            : Messaging.sendToGroups({ tags: ["all"], message: `Hi ${i}`, id: "race" })
        const sends = Array.from({ length: racers }, (_, i) => Effect.result(send(i)))
        const results = yield* Effect.all(sends, { concurrency: "unbounded" })
        expect(results.filter(Result.isSuccess)).toHaveLength(1)
        const failures = results.filter(Result.isFailure).map((r) => r.failure._tag)
        expect(failures).toEqual(Array.from({ length: racers - 1 }, () => "DuplicateSend"))
        expect(yield* Observe.allMessages).toHaveLength(1)
      }))
  })
}
