/**
 * Inbound is never lost (issue 16): simultaneous STOPs from one number, new to the book, over two
 * real connections, are all recorded, none refused (no ContactExists race, no "database is locked").
 */
import { ContactStore, MessageStore, Messaging } from "@smsbook/core"
import { Effect, Exit, Option } from "effect"
import * as fc from "fast-check"
import { afterAll, describe, expect, it } from "vitest"
import { type Kind, on } from "./Books.ts"

const number = "447400765432"

/** Registers the law for one kind of store with two connections. */
export const run = (kind: Kind, numRuns: number): void => {
  describe(`inbound races: ${kind.name}`, () => {
    afterAll(() => kind.dispose())

    it("every one of many simultaneous STOPs from a new number is recorded, and the number ends suppressed", async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.boolean(), { minLength: 2, maxLength: 12 }), async (sides) => {
          await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
            const [a, b] = yield* kind.open(2)
            if (a === undefined || b === undefined) return
            const exits = yield* Effect.forEach(
              sides,
              (onA, index) => Effect.exit(on(onA ? a : b)(Messaging.receiveMessage(number, index % 2 === 0 ? "STOP" : "stop "))),
              { concurrency: "unbounded" }
            )
            for (const exit of exits) expect(Exit.isSuccess(exit), String(exit)).toBe(true)
            const inbound = yield* on(b)(Effect.flatMap(MessageStore.MessageStore, (store) =>
              store.list({ direction: "MO", msisdn: number, limit: 100, start: 0 })))
            expect(inbound).toHaveLength(sides.length)
            const contact = yield* on(a)(Effect.flatMap(ContactStore.ContactStore, (store) => store.get(number)))
            expect(Option.getOrUndefined(contact)).toMatchObject({ status: "CANCELLED", added_from: "SMS" })
            expect((yield* on(a)(Effect.flatMap(ContactStore.ContactStore, (store) => store.suppressed([number])))).has(number))
              .toBe(true)
          })))
        }),
        { numRuns }
      )
    }, 300_000)
  })
}
