/**
 * Contract: upsertContacts, the use case under imports: creates, updates, merges the same number
 * within a batch, keeps stored names unless blankErases, and never resubscribes an opted-out contact.
 */
import { describe, expect } from "@effect/vitest"
import { ContactBook } from "@smsbook/core"
import { Effect } from "effect"
import * as Fixtures from "../Fixtures.ts"
import type * as Harness from "./Harness.ts"
import * as Observe from "./Observe.ts"

export const register = ({ test }: Harness.Harness): void => {
  describe("upsertContacts (imports)", () => {
    test("new rows are created SUBSCRIBED from FILE_UPLOAD with their tags; a re-run is all unchanged and changes nothing", () =>
      Effect.gen(function*() {
        const rows = [
          Fixtures.candidate(2, { first_name: "Second", tags: ["news", " News ", "vip"] }),
          Fixtures.candidate(1, { first_name: "Ann", last_name: "Lee" })
        ]
        const first = yield* ContactBook.upsertContacts(rows, { blankErases: false })
        expect(first).toEqual([
          { kind: "created", msisdn: Fixtures.msisdn(2), optedOut: false, duplicate: false },
          { kind: "created", msisdn: Fixtures.msisdn(1), optedOut: false, duplicate: false }
        ])
        const stored = yield* Observe.allContacts
        expect(stored).toHaveLength(2)
        expect(stored[0]).toMatchObject({
          msisdn: Fixtures.msisdn(1),
          phone_number: "7400000001",
          country_code: "44",
          full_name: "Ann Lee",
          added_from: "FILE_UPLOAD",
          status: "SUBSCRIBED",
          tags: [],
          monitoring: false
        })
        expect(stored[1]).toMatchObject({ msisdn: Fixtures.msisdn(2), tags: ["news", "vip"], added_from: "FILE_UPLOAD" })
        const again = yield* ContactBook.upsertContacts(rows, { blankErases: false })
        expect(again.map((o) => o.kind)).toEqual(["unchanged", "unchanged"])
        expect(yield* Observe.allContacts).toEqual(stored)
      }))

    test("an existing contact is updated: names replaced, tags added, everything else kept", () =>
      Effect.gen(function*() {
        const created = yield* ContactBook.createContact(Fixtures.msisdn(1), { first_name: "Ann", last_name: "Lee" })
        yield* ContactBook.editContact(Fixtures.msisdn(1), { tags: ["news"], monitoring: true })
        const outcomes = yield* ContactBook.upsertContacts([Fixtures.candidate(1, { last_name: "Smith", tags: ["NEWS", "vip"] })], {
          blankErases: false
        })
        expect(outcomes).toEqual([{ kind: "updated", msisdn: Fixtures.msisdn(1), optedOut: false, duplicate: false }])
        expect(yield* ContactBook.getContact(Fixtures.msisdn(1))).toEqual({
          ...created,
          last_name: "Smith",
          full_name: "Ann Smith",
          tags: ["news", "vip"],
          monitoring: true
        })
      }))

    test("blank names keep the stored ones unless blankErases", () =>
      Effect.gen(function*() {
        yield* ContactBook.createContact(Fixtures.msisdn(1), { first_name: "Ann", last_name: "Lee" })
        const kept = yield* ContactBook.upsertContacts([Fixtures.candidate(1, { first_name: "", last_name: "" })], { blankErases: false })
        expect(kept.map((o) => o.kind)).toEqual(["unchanged"])
        expect(yield* ContactBook.getContact(Fixtures.msisdn(1))).toMatchObject({ first_name: "Ann", last_name: "Lee" })
        const erased = yield* ContactBook.upsertContacts([Fixtures.candidate(1, { last_name: "" })], { blankErases: true })
        expect(erased.map((o) => o.kind)).toEqual(["updated"])
        expect(yield* ContactBook.getContact(Fixtures.msisdn(1))).toMatchObject({ first_name: "", last_name: "", full_name: "" })
      }))

    test("a CANCELLED contact is never resubscribed by an import", () =>
      Effect.gen(function*() {
        yield* ContactBook.createContact(Fixtures.msisdn(1), { first_name: "Ann" })
        yield* ContactBook.optOut(Fixtures.msisdn(1))
        const outcomes = yield* ContactBook.upsertContacts([Fixtures.candidate(1, { first_name: "Anna", tags: ["news"] })], {
          blankErases: false
        })
        expect(outcomes).toEqual([{ kind: "updated", msisdn: Fixtures.msisdn(1), optedOut: true, duplicate: false }])
        expect(yield* ContactBook.getContact(Fixtures.msisdn(1))).toMatchObject({ first_name: "Anna", status: "CANCELLED", tags: ["news"] })
        const again = yield* ContactBook.upsertContacts([Fixtures.candidate(1, { first_name: "Anna" })], { blankErases: false })
        expect(again).toEqual([{ kind: "unchanged", msisdn: Fixtures.msisdn(1), optedOut: true, duplicate: false }])
        expect((yield* ContactBook.getContact(Fixtures.msisdn(1))).status).toBe("CANCELLED")
      }))

    test("a suppressed number comes in CANCELLED, and its later rows in the batch are counted opted out too", () =>
      Effect.gen(function*() {
        yield* ContactBook.createContact(Fixtures.msisdn(1), { first_name: "Ann" })
        yield* ContactBook.optOut(Fixtures.msisdn(1))
        yield* ContactBook.deleteContact(Fixtures.msisdn(1))
        const outcomes = yield* ContactBook.upsertContacts([
          Fixtures.candidate(1, { first_name: "Ann" }),
          Fixtures.candidate(1, { tags: ["news"] })
        ], { blankErases: false })
        expect(outcomes).toEqual([
          { kind: "created", msisdn: Fixtures.msisdn(1), optedOut: true, duplicate: false, suppressed: true },
          { kind: "updated", msisdn: Fixtures.msisdn(1), optedOut: true, duplicate: true }
        ])
        expect(yield* ContactBook.getContact(Fixtures.msisdn(1))).toMatchObject({ status: "CANCELLED", tags: ["news"] })
      }))

    test("the same number twice in a batch is merged into one contact", () =>
      Effect.gen(function*() {
        yield* ContactBook.createContact(Fixtures.msisdn(2), { first_name: "Second" })
        const outcomes = yield* ContactBook.upsertContacts([
          Fixtures.candidate(1, { first_name: "Ann", tags: ["a"] }),
          Fixtures.candidate(2, { first_name: "Rob" }),
          Fixtures.candidate(1, { first_name: "Anna", tags: ["b"] }),
          Fixtures.candidate(2, { first_name: "Bobby" }),
          Fixtures.candidate(1, { first_name: "Anna", tags: ["A"] })
        ], { blankErases: false })
        expect(outcomes).toEqual([
          { kind: "created", msisdn: Fixtures.msisdn(1), optedOut: false, duplicate: false },
          { kind: "updated", msisdn: Fixtures.msisdn(2), optedOut: false, duplicate: false },
          { kind: "updated", msisdn: Fixtures.msisdn(1), optedOut: false, duplicate: true },
          { kind: "updated", msisdn: Fixtures.msisdn(2), optedOut: false, duplicate: true },
          { kind: "unchanged", msisdn: Fixtures.msisdn(1), optedOut: false, duplicate: true }
        ])
        const list = yield* Observe.allContacts
        expect(list.map((c) => [c.msisdn, c.first_name, c.tags])).toEqual([
          [Fixtures.msisdn(1), "Anna", ["a", "b"]],
          [Fixtures.msisdn(2), "Bobby", []]
        ])
      }))
  })
}
