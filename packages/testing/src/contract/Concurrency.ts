/**
 * Contract: concurrent writers: parallel creates, edits and deletes all land, and of racing creates
 * of one contact exactly one wins.
 */
import { describe, expect } from "@effect/vitest"
import { ContactBook, ContactStore } from "@smsbook/core"
import { Effect, Result } from "effect"
import * as Fixtures from "../Fixtures.ts"
import type * as Harness from "./Harness.ts"
import * as Observe from "./Observe.ts"

export const register = ({ test, racers }: Harness.Harness): void => {
  describe("concurrent writers", () => {
    test("parallel creates of distinct contacts all land", () =>
      Effect.gen(function*() {
        const created = yield* Effect.all(
          Array.from({ length: racers * 4 }, (_, i) => ContactBook.createContact(Fixtures.msisdn(i), { first_name: `n${i}` })),
          { concurrency: "unbounded" }
        )
        expect(yield* Observe.allContacts).toEqual([...created].sort((a, b) => a.msisdn < b.msisdn ? -1 : 1))
        expect(yield* (yield* ContactStore.ContactStore).count).toBe(racers * 4)
      }))

    test("parallel creates of one contact: exactly one wins, the others are ContactExists", () =>
      Effect.gen(function*() {
        const results = yield* Effect.all(
          Array.from({ length: racers }, (_, i) => Effect.result(ContactBook.createContact(Fixtures.msisdn(1), { first_name: `n${i}` }))),
          { concurrency: "unbounded" }
        )
        const winners = results.filter(Result.isSuccess).map((r) => r.success)
        expect(winners).toHaveLength(1)
        expect(results.filter(Result.isFailure).map((r) => r.failure._tag)).toEqual(
          Array.from({ length: racers - 1 }, () => "ContactExists")
        )
        expect(yield* Observe.allContacts).toEqual(winners)
      }))

    test("parallel edits of distinct contacts and parallel deletes all land", () =>
      Effect.gen(function*() {
        const numbers = Array.from({ length: racers * 2 }, (_, i) => i)
        yield* ContactBook.upsertContacts(numbers.map((n) => Fixtures.candidate(n)), { blankErases: false })
        yield* Effect.all(numbers.map((n) => ContactBook.editContact(Fixtures.msisdn(n), { first_name: `e${n}`, tags: [`t${n}`] })), {
          concurrency: "unbounded"
        })
        expect((yield* Observe.allContacts).map((c) => [c.first_name, c.tags])).toEqual(numbers.map((n) => [`e${n}`, [`t${n}`]]))
        yield* Effect.all(numbers.filter((n) => n % 2 === 0).map((n) => ContactBook.deleteContact(Fixtures.msisdn(n))), {
          concurrency: "unbounded"
        })
        expect((yield* Observe.allContacts).map((c) => c.msisdn)).toEqual(numbers.filter((n) => n % 2 === 1).map(Fixtures.msisdn))
      }))
  })
}
