/**
 * Contention waits (issue 16): two imports of overlapping numbers, in different orders, each one
 * transaction of several batches on its own connection, both succeed and the book holds their union.
 */
import { ContactBook, ContactStore, type Msisdn } from "@smsbook/core"
import { Effect, Exit } from "effect"
import * as fc from "fast-check"
import { afterAll, describe, expect, it } from "vitest"
import { type Kind, on } from "./Books.ts"

const candidate = (n: number, tag: string): ContactBook.Candidate => {
  const national = `7400${String(100000 + n)}`
  return { msisdn: `44${national}` as Msisdn.Msisdn, country_code: "44", phone_number: national, first_name: `N${n}`, last_name: "", tags: [tag] }
}

/** An import as the CLI runs it: one transaction, rows handed to the store a batch at a time. */
const importRows = (rows: ReadonlyArray<ContactBook.Candidate>, batch: number) =>
  Effect.flatMap(ContactStore.ContactStore, (store) =>
    store.transaction(Effect.forEach(
      Array.from({ length: Math.ceil(rows.length / batch) }, (_, i) => rows.slice(i * batch, (i + 1) * batch)),
      (chunk) => ContactBook.upsertContacts(chunk, { blankErases: false }),
      { discard: true }
    )))

/** Registers the law for one kind of store with two connections. */
export const run = (kind: Kind, numRuns: number): void => {
  describe(`overlapping imports: ${kind.name}`, () => {
    afterAll(() => kind.dispose())

    it("two concurrent imports of overlapping numbers in any order both succeed; every number is in, with both tags where shared", async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.uniqueArray(fc.integer({ min: 0, max: 60 }), { minLength: 1, maxLength: 40 }),
          fc.uniqueArray(fc.integer({ min: 0, max: 60 }), { minLength: 1, maxLength: 40 }),
          fc.integer({ min: 1, max: 8 }),
          async (first, second, batch) => {
            await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
              const [a, b] = yield* kind.open(2)
              if (a === undefined || b === undefined) return
              const [one, two] = yield* Effect.all([
                Effect.exit(on(a)(importRows(first.map((n) => candidate(n, "one")), batch))),
                Effect.exit(on(b)(importRows([...second].reverse().map((n) => candidate(n, "two")), batch)))
              ], { concurrency: "unbounded" })
              expect(Exit.isSuccess(one), String(one)).toBe(true)
              expect(Exit.isSuccess(two), String(two)).toBe(true)
              const all = [...new Set([...first, ...second])]
              const found = yield* on(a)(Effect.flatMap(ContactStore.ContactStore, (store) =>
                store.getMany(all.map((n) => candidate(n, "").msisdn))))
              expect(found.size).toBe(all.length)
              for (const n of all) {
                const tags = found.get(candidate(n, "").msisdn)?.tags ?? []
                expect([...tags].sort()).toEqual([...(first.includes(n) ? ["one"] : []), ...(second.includes(n) ? ["two"] : [])].sort())
              }
            })))
          }
        ),
        { numRuns }
      )
    }, 300_000)
  })
}
