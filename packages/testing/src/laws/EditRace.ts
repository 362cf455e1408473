/**
 * An import batch never undoes what is decided about a contact while it runs: a resubscribe (START, or
 * `contacts resubscribe`) and a `monitoring` edit racing import batches of the same number, over two real connections
 * to one book, always hold. An import decides names and tags only; a batch that wrote back the row it had read before
 * the decision would put the contact back to CANCELLED and its old monitoring flag.
 */
import { ContactBook, ContactStore, type Msisdn } from "@smsbook/core"
import { Effect, Exit, Fiber, Option } from "effect"
import * as fc from "fast-check"
import { afterAll, describe, expect, it } from "vitest"
import { type Kind, on } from "./Books.ts"

const number = "447400123456"

/** An import batch of the number between two neighbours, in its own transaction, as `smsbook import` writes one. */
const importBatch = (round: number) =>
  Effect.flatMap(ContactStore.ContactStore, (store) =>
    store.transaction(ContactBook.upsertContacts([
      { msisdn: "447400123455" as Msisdn.Msisdn, country_code: "44", phone_number: "7400123455", first_name: "N", last_name: "", tags: [] },
      { msisdn: number as Msisdn.Msisdn, country_code: "44", phone_number: "7400123456", first_name: `Import ${round}`, last_name: "", tags: [`r${round % 3}`] },
      { msisdn: "447400123457" as Msisdn.Msisdn, country_code: "44", phone_number: "7400123457", first_name: "M", last_name: "", tags: [] }
    ], { blankErases: false })))

const sleep = (ms: number) => Effect.promise(() => new Promise<void>((resume) => setTimeout(resume, ms)))

/** Registers the law for one kind of store with two connections. */
export const run = (kind: Kind, numRuns: number): void => {
  describe(`edit races: ${kind.name}`, () => {
    afterAll(() => kind.dispose())

    it("a resubscribe and a monitoring edit made while import batches of the number run are never undone by them", async () => {
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 0, max: 8 }), fc.integer({ min: 3, max: 8 }), async (delay, rounds) => {
          await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
            const [a, b] = yield* kind.open(2)
            if (a === undefined || b === undefined) return
            yield* on(a)(ContactBook.createContact(number, { first_name: "Ann" }))
            yield* on(a)(ContactBook.optOut(number))
            const imports = yield* Effect.forkChild(Effect.forEach(
              Array.from({ length: rounds }, (_, round) => round),
              (round) => Effect.exit(on(b)(importBatch(round))),
              { concurrency: 1 }
            ))
            yield* sleep(delay)
            const decided = yield* Effect.exit(on(a)(Effect.andThen(
              ContactBook.resubscribe(number),
              ContactBook.editContact(number, { monitoring: true })
            )))
            const exits = yield* Fiber.join(imports)
            expect(Exit.isSuccess(decided), `the decision failed: ${String(decided)}`).toBe(true)
            for (const exit of exits) expect(Exit.isSuccess(exit), `an import batch failed: ${String(exit)}`).toBe(true)
            for (const book of [a, b]) {
              const contact = Option.getOrUndefined(yield* on(book)(Effect.flatMap(ContactStore.ContactStore, (store) => store.get(number))))
              expect(contact?.status).toBe("SUBSCRIBED")
              expect(contact?.monitoring).toBe(true)
              const suppressed = yield* on(book)(Effect.flatMap(ContactStore.ContactStore, (store) => store.suppressed([number])))
              expect(suppressed.has(number)).toBe(false)
            }
          })))
        }),
        { numRuns }
      )
    }, 300_000)
  })
}
