/**
 * An opt-out holds under concurrency (issue 16): a STOP racing an edit, an import or an add of the
 * same number, over two real connections to one book, always leaves the contact CANCELLED and the
 * number suppressed, and the STOP's inbound message recorded.
 */
import { ContactBook, ContactStore, MessageStore, Messaging, type Msisdn } from "@smsbook/core"
import { Effect, Exit, Fiber, Option } from "effect"
import * as fc from "fast-check"
import { afterAll, describe, expect, it } from "vitest"
import { type Env, type Kind, on } from "./Books.ts"

const number = "447400123456"

type Rival = "edit" | "import" | "add"

/** The rival write, as the CLI runs it: an edit, an import batch inside its transaction, an add. */
const rival = (kind: Rival, round: number): Effect.Effect<unknown, unknown, Env> => {
  switch (kind) {
    case "edit":
      return ContactBook.editContact(number, { first_name: `Edit ${round}` })
    case "import":
      return Effect.flatMap(ContactStore.ContactStore, (store) =>
        store.transaction(ContactBook.upsertContacts([
          // Neighbours on both sides of the number, so the batch locks several rows.
          { msisdn: "447400123455" as Msisdn.Msisdn, country_code: "44", phone_number: "7400123455", first_name: "N", last_name: "", tags: [] },
          { msisdn: number as Msisdn.Msisdn, country_code: "44", phone_number: "7400123456", first_name: `Import ${round}`, last_name: "", tags: ["news"] },
          { msisdn: "447400123457" as Msisdn.Msisdn, country_code: "44", phone_number: "7400123457", first_name: "M", last_name: "", tags: [] }
        ], { blankErases: false })))
    case "add":
      return ContactBook.createContact(number, { first_name: `Add ${round}` })
  }
}

const sleep = (ms: number) => Effect.promise(() => new Promise<void>((resume) => setTimeout(resume, ms)))

/** Registers the law for one kind of store with two connections. */
export const run = (kind: Kind, numRuns: number): void => {
  describe(`opt-out races: ${kind.name}`, () => {
    afterAll(() => kind.dispose())

    it("for any interleaving of a STOP with edits, imports or adds of the number, it ends CANCELLED and suppressed", async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom<Rival>("edit", "import", "add"),
          fc.boolean(),
          fc.integer({ min: 0, max: 6 }),
          fc.integer({ min: 2, max: 6 }),
          async (rivalKind, seeded, stopDelay, rounds) => {
            await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
              const [a, b] = yield* kind.open(2)
              if (a === undefined || b === undefined) return
              if (seeded) yield* on(a)(ContactBook.createContact(number, { first_name: "Ann" }))
              // The rival writes over and over on one connection while the STOP lands on the other.
              const rivals = yield* Effect.forkChild(Effect.forEach(
                Array.from({ length: rounds }, (_, round) => round),
                (round) => Effect.exit(on(b)(rival(rivalKind, round))),
                { concurrency: 1 }
              ))
              yield* sleep(stopDelay)
              const stop = yield* Effect.exit(on(a)(Messaging.receiveMessage(number, "STOP")))
              const exits = yield* Fiber.join(rivals)
              expect(Exit.isSuccess(stop), `STOP failed: ${String(stop)}`).toBe(true)
              // A rival may be refused by the book (ContactExists, ContactNotFound), never fail in the store.
              for (const exit of exits) {
                if (Exit.isFailure(exit)) expect(String(exit.cause)).not.toMatch(/StoreFailure/)
              }
              for (const book of [a, b]) {
                const contact = yield* on(book)(Effect.flatMap(ContactStore.ContactStore, (store) => store.get(number)))
                expect(Option.getOrUndefined(contact)?.status).toBe("CANCELLED")
                const suppressed = yield* on(book)(Effect.flatMap(ContactStore.ContactStore, (store) => store.suppressed([number])))
                expect(suppressed.has(number)).toBe(true)
              }
              const inbound = yield* on(a)(Effect.flatMap(MessageStore.MessageStore, (store) =>
                store.list({ direction: "MO", msisdn: number, limit: 10, start: 0 })))
              expect(inbound).toHaveLength(1)
            })))
          }
        ),
        { numRuns }
      )
    }, 300_000)
  })
}
