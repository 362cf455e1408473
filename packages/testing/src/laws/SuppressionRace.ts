/**
 * A suppression list loaded while contacts are created holds: numbers opted out as a set (`ContactStore.cancel`, as
 * `suppressions import` and an import's opt-outs apply them) in a transaction that stays open, racing contact adds of
 * the same numbers on another connection, always end with every contact of a suppressed number CANCELLED. Until the
 * set commits, its entries are visible to no other transaction: an add that did not wait for it created SUBSCRIBED
 * contacts of suppressed numbers (found on PostgreSQL by an independent review, 2026-11-27).
 */
import { ContactBook, ContactStore } from "@smsbook/core"
import { Effect, Fiber } from "effect"
import * as fc from "fast-check"
import { afterAll, describe, expect, it } from "vitest"
import { type Kind, on } from "./Books.ts"

const numbers = Array.from({ length: 6 }, (_, i) => `44740012346${i}`)

const sleep = (ms: number) => Effect.promise(() => new Promise<void>((resume) => setTimeout(resume, ms)))

/** Registers the law for one kind of store with two connections. */
export const run = (kind: Kind, numRuns: number): void => {
  describe(`suppression races: ${kind.name}`, () => {
    afterAll(() => kind.dispose())

    it("contacts added while a set of opt-outs is being applied end CANCELLED, whichever commits first", async () => {
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 0, max: 8 }), fc.integer({ min: 0, max: 30 }), async (addDelay, held) => {
          await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
            const [a, b] = yield* kind.open(2)
            if (a === undefined || b === undefined) return
            // The set, applied and then held open a while (a long file's later work), on one connection…
            const load = yield* Effect.forkChild(on(a)(Effect.flatMap(ContactStore.ContactStore, (store) =>
              store.transaction(Effect.andThen(store.cancel(numbers), sleep(held))))))
            // …the adds on the other, one by one (an add refused because it exists already is fine).
            yield* sleep(addDelay)
            yield* on(b)(Effect.forEach(numbers, (msisdn) => Effect.exit(ContactBook.createContact(msisdn, { first_name: "Late" })), { discard: true }))
            yield* Fiber.join(load)
            for (const book of [a, b]) {
              const stored = yield* on(book)(Effect.flatMap(ContactStore.ContactStore, (store) => store.list({ limit: 100, start: 0 })))
              const suppressed = yield* on(book)(Effect.flatMap(ContactStore.ContactStore, (store) => store.suppressed(numbers)))
              expect(suppressed.size).toBe(numbers.length)
              for (const contact of stored) expect([contact.msisdn, contact.status]).toEqual([contact.msisdn, "CANCELLED"])
            }
          })))
        }),
        { numRuns }
      )
    }, 300_000)
  })
}
