/**
 * Contract: listing contacts (4.4): order, paging by Limit and Start, Query taken literally,
 * Status filters and shortResults; bad parameters are Observe.refused, never clamped.
 */
import { describe, expect } from "@effect/vitest"
import { ContactBook, ContactStore } from "@smsbook/core"
import { Effect } from "effect"
import * as Fixtures from "../Fixtures.ts"
import type * as Harness from "./Harness.ts"
import * as Observe from "./Observe.ts"

export const register = ({ test }: Harness.Harness): void => {
  describe("GET /contacts (4.4)", () => {
    test("an empty book lists []", () => Effect.map(Observe.allContacts, (list) => expect(list).toEqual([])))

    test("contacts are ordered by msisdn, whatever the order they were created in", () =>
      Effect.gen(function*() {
        const numbers = ["447400000300", "12125550123", "447400000002", "33612345678", "4915123456789", "447400000100"]
        for (const number of numbers) yield* ContactBook.createContact(number, {})
        expect((yield* Observe.allContacts).map((c) => c.msisdn)).toEqual([...numbers].sort())
      }))

    test("Limit defaults to 50 and Start to 0; Limit 1000 is accepted; Start past the end gives []", () =>
      Effect.gen(function*() {
        yield* ContactBook.upsertContacts(Array.from({ length: 51 }, (_, i) => Fixtures.candidate(50 - i)), { blankErases: false })
        const all = yield* Observe.allContacts
        expect(all.map((c) => c.msisdn)).toEqual(Array.from({ length: 51 }, (_, i) => Fixtures.msisdn(i)))
        expect(yield* ContactBook.listContacts({})).toEqual(all.slice(0, 50))
        expect(yield* ContactBook.listContacts({ Start: "48" })).toEqual(all.slice(48))
        expect(yield* ContactBook.listContacts({ Start: "2", Limit: "3" })).toEqual(all.slice(2, 5))
        expect(yield* ContactBook.listContacts({ Start: "51" })).toEqual([])
        expect(yield* ContactBook.listContacts({ start: "10", limit: "1" })).toEqual(all.slice(10, 11))
        expect(yield* ContactBook.listContacts({ START: "10", LIMIT: "1" })).toEqual(all.slice(10, 11))
      }))

    test("the port's keyset pages (after a number) walk the same book as its offsets, with the same filters", () =>
      Effect.gen(function*() {
        const store = yield* ContactStore.ContactStore
        yield* ContactBook.upsertContacts(Array.from({ length: 30 }, (_, i) => Fixtures.candidate(29 - i)), { blankErases: false })
        yield* ContactBook.optOut(Fixtures.msisdn(7))
        yield* ContactBook.optOut(Fixtures.msisdn(20))
        for (const filter of [{}, { status: "SUBSCRIBED" as const }, { query: "44740000001" }]) {
          const walked: Array<string> = []
          for (let after: string | undefined;;) {
            const page = yield* store.list({ ...filter, limit: 4, start: 0, ...(after === undefined ? {} : { after }) })
            walked.push(...page.map((c) => c.msisdn))
            after = page.at(-1)?.msisdn
            if (page.length < 4) break
          }
          expect(walked).toEqual((yield* store.list({ ...filter, limit: 1000, start: 0 })).map((c) => c.msisdn))
        }
        expect(yield* store.list({ limit: 10, start: 0, after: Fixtures.msisdn(29) })).toEqual([])
        expect((yield* store.list({ limit: 2, start: 1, after: Fixtures.msisdn(3) })).map((c) => c.msisdn))
          .toEqual([Fixtures.msisdn(5), Fixtures.msisdn(6)])
      }))

    test("Limit over 1000, Limit 0, a negative or non-numeric Start are refused, not clamped", () =>
      Effect.gen(function*() {
        yield* ContactBook.createContact(Fixtures.msisdn(1), {})
        for (const [parameter, params] of [
          ["Limit", { Limit: "1001" }],
          ["Limit", { Limit: "0" }],
          ["Limit", { Limit: "ten" }],
          ["Start", { Start: "-1" }],
          ["Start", { Start: "1.5" }]
        ] as const) {
          expect(yield* Observe.refused(ContactBook.listContacts(params), "InvalidParameter")).toMatchObject({ parameter })
        }
      }))

    test("Query matches a case-insensitive substring of the msisdn, first, last or full name", () =>
      Effect.gen(function*() {
        const ann = yield* ContactBook.createContact(Fixtures.msisdn(111), { first_name: "Ann", last_name: "Lee" })
        const second = yield* ContactBook.createContact(Fixtures.msisdn(222), { first_name: "Second", last_name: "Stone" })
        const carl = yield* ContactBook.createContact("33612345678", { first_name: "Carl" })
        const query = (text: string) => Effect.map(ContactBook.listContacts({ Query: text }), (list) => list.map((c) => c.msisdn))
        expect(yield* query("ANN")).toEqual([ann.msisdn])
        expect(yield* query("stone")).toEqual([second.msisdn])
        expect(yield* query("nn Le")).toEqual([ann.msisdn])
        expect(yield* query("612345")).toEqual([carl.msisdn])
        expect(yield* query("7400000")).toEqual([ann.msisdn, second.msisdn])
        expect(yield* query("o")).toEqual([second.msisdn])
        expect(yield* query("zzz")).toEqual([])
        expect(yield* ContactBook.listContacts({ query: "second" })).toEqual([second])
      }))

    test("Query takes % and _ literally (no wildcard)", () =>
      Effect.gen(function*() {
        const juice = yield* ContactBook.createContact(Fixtures.msisdn(1), { first_name: "100% Juice" })
        const under = yield* ContactBook.createContact(Fixtures.msisdn(2), { first_name: "Under_score" })
        yield* ContactBook.createContact(Fixtures.msisdn(3), { first_name: "Underxscore", last_name: "1000 Juice" })
        const query = (text: string) => Effect.map(ContactBook.listContacts({ Query: text }), (list) => list.map((c) => c.msisdn))
        expect(yield* query("%")).toEqual([juice.msisdn])
        expect(yield* query("0%")).toEqual([juice.msisdn])
        expect(yield* query("_")).toEqual([under.msisdn])
        expect(yield* query("r_s")).toEqual([under.msisdn])
        expect(yield* query("\\")).toEqual([])
      }))

    test("Status filters by status (any case, the samples' SUSCRIBED too); an unknown status is refused", () =>
      Effect.gen(function*() {
        const store = yield* ContactStore.ContactStore
        yield* store.insert(Fixtures.contact(1, { status: "INVITED", first_name: "Ivy" }))
        yield* store.insert(Fixtures.contact(2, { status: "CONFIRMED", first_name: "Cy" }))
        yield* store.insert(Fixtures.contact(3, { status: "CANCELLED", first_name: "Cat" }))
        yield* store.insert(Fixtures.contact(4, { first_name: "Sue" }))
        const status = (params: Record<string, string>) =>
          Effect.map(ContactBook.listContacts(params), (list) => list.map((c) => c.msisdn))
        expect(yield* status({ Status: "INVITED" })).toEqual([Fixtures.msisdn(1)])
        expect(yield* status({ Status: "confirmed" })).toEqual([Fixtures.msisdn(2)])
        expect(yield* status({ status: "CANCELLED" })).toEqual([Fixtures.msisdn(3)])
        expect(yield* status({ Status: "SUBSCRIBED" })).toEqual([Fixtures.msisdn(4)])
        expect(yield* status({ Status: "SUSCRIBED" })).toEqual([Fixtures.msisdn(4)])
        expect(yield* status({ Status: "CANCELLED", Query: "ca" })).toEqual([Fixtures.msisdn(3)])
        expect(yield* status({ Status: "CANCELLED", Query: "sue" })).toEqual([])
        expect(yield* Observe.refused(ContactBook.listContacts({ Status: "ACTIVE" }), "InvalidParameter")).toMatchObject({ parameter: "Status" })
      }))

    test("shortResults true/1 gives exactly { msisdn, first_name, last_name, status }; false/0 the full contact", () =>
      Effect.gen(function*() {
        const ann = yield* ContactBook.createContact(Fixtures.msisdn(1), { first_name: "Ann", last_name: "Lee" })
        const short = { msisdn: ann.msisdn, first_name: "Ann", last_name: "Lee", status: "SUBSCRIBED" }
        for (const value of ["1", "true", "TRUE"]) {
          const list = yield* ContactBook.listContacts({ shortResults: value })
          expect(list).toEqual([short])
          expect(list.map(Observe.sortedKeys)).toEqual([["first_name", "last_name", "msisdn", "status"]])
        }
        for (const value of ["0", "false", ""]) {
          expect(yield* ContactBook.listContacts({ shortresults: value })).toEqual([ann])
        }
        expect(yield* Observe.refused(ContactBook.listContacts({ shortResults: "yes" }), "InvalidParameter")).toMatchObject({
          parameter: "shortResults"
        })
      }))
  })
}
