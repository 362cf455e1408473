/**
 * A suppression list loaded while contacts are created holds: numbers opted out as a set (`ContactStore.cancel`, as
 * `suppressions import` and an import's opt-outs apply them) in a transaction that stays open, racing contact adds of
 * the same numbers on another connection, always end with every contact of a suppressed number CANCELLED. Until the
 * set commits, its entries are visible to no other transaction: an add that did not wait for it created SUBSCRIBED
 * contacts of suppressed numbers (found on PostgreSQL by an independent review, 2026-11-27).
 */
import { ContactBook, ContactStore, Messaging } from "@smsbook/core"
import { Deferred, Effect, Exit, Fiber } from "effect"
import * as fc from "fast-check"
import { afterAll, describe, expect, it } from "vitest"
import { type Kind, on } from "./Books.ts"

const numbers = Array.from({ length: 6 }, (_, i) => `44740012346${i}`)

const sleep = (ms: number) => Effect.promise(() => new Promise<void>((resume) => setTimeout(resume, ms)))

/** Registers the law for one kind of store with two connections. */
export const run = (kind: Kind, numRuns: number): void => {
  describe(`suppression races: ${kind.name}`, () => {
    afterAll(() => kind.dispose())

    it("contacts added while a set of opt-outs is being applied end CANCELLED, whichever commits first; added after it was applied, they are answered CANCELLED", async () => {
      await fc.assert(
        fc.asyncProperty(fc.boolean(), fc.integer({ min: 0, max: 8 }), fc.integer({ min: 0, max: 30 }), async (afterApplied, addDelay, held) => {
          await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
            const [a, b] = yield* kind.open(2)
            if (a === undefined || b === undefined) return
            const applied = yield* Deferred.make<void>()
            // The set, applied and then held open a while (a long file's later work), on one connection…
            const load = yield* Effect.forkChild(on(a)(Effect.flatMap(ContactStore.ContactStore, (store) =>
              store.transaction(Effect.andThen(store.cancel(numbers), Effect.andThen(Deferred.succeed(applied, undefined), sleep(held)))))))
            // …the adds on the other, one by one: racing the set, or once it is applied (not yet committed).
            yield* afterApplied ? Deferred.await(applied) : sleep(addDelay)
            // Each number is added once, in a book that had none of them: every add succeeds.
            const added = yield* on(b)(Effect.forEach(numbers, (msisdn) => ContactBook.createContact(msisdn, { first_name: "Late" })))
            yield* Fiber.join(load)
            // The answer is what was stored: an add that waited for the set's commit stored CANCELLED.
            if (afterApplied) for (const contact of added) expect([contact.msisdn, contact.status]).toEqual([contact.msisdn, "CANCELLED"])
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

    // PostgreSQL only: on SQLite a write transaction holds the whole book, so every other write waits for it.
    if (kind.name === "postgres") it("a known sender's message and an add of a stored number do not wait for a set of opt-outs being applied", async () => {
      await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
        const [a, b] = yield* kind.open(2)
        if (a === undefined || b === undefined) return
        const known = "447400123470"
        yield* on(b)(ContactBook.createContact(known, { first_name: "Known" }))
        const applied = yield* Deferred.make<void>()
        const release = yield* Deferred.make<void>()
        const load = yield* Effect.forkChild(on(a)(Effect.flatMap(ContactStore.ContactStore, (store) =>
          store.transaction(Effect.andThen(store.cancel(numbers), Effect.andThen(Deferred.succeed(applied, undefined), Deferred.await(release)))))))
        yield* Deferred.await(applied)
        // While the set is held open, the known contact's STOP and an add of its number, on the other connection, end
        // before the set does: neither waits for it (one that did would wait until the timeout).
        const answered = yield* on(b)(Effect.all([
          Messaging.receiveMessage(known, "STOP"),
          Effect.flip(ContactBook.createContact(known, {}))
        ])).pipe(Effect.timeout("5 seconds"), Effect.exit)
        yield* Deferred.succeed(release, undefined)
        yield* Fiber.join(load)
        expect(Exit.isSuccess(answered), `waited for the set of opt-outs: ${String(answered)}`).toBe(true)
        if (Exit.isSuccess(answered)) {
          const [stop, refused] = answered.value
          expect([stop.action, stop.contact?.status]).toEqual(["opt-out", "CANCELLED"])
          expect(refused).toMatchObject({ _tag: "ContactExists", msisdn: known })
        }
      })))
    }, 60_000)
  })
}
