/**
 * Tags changed at once are all kept: edits adding tags (`contacts edit --add-tags`) and an import batch adding its own,
 * racing over several real connections to one book, end with every tag any of them added. An edit that decided its
 * tags on a read made before it held the contact wrote back what it had read, dropping the others' (PostgreSQL).
 */
import { ContactBook, ContactStore, type Msisdn } from "@smsbook/core"
import { Effect, Exit, Option } from "effect"
import * as fc from "fast-check"
import { afterAll, describe, expect, it } from "vitest"
import { type Kind, on } from "./Books.ts"

const number = "447400123456"

/** An import batch that gives the number the tag `imported`, in its own transaction, as `smsbook import` writes one. */
const importBatch = Effect.flatMap(ContactStore.ContactStore, (store) =>
  store.transaction(ContactBook.upsertContacts([
    { msisdn: number as Msisdn.Msisdn, country_code: "44", phone_number: "7400123456", first_name: "", last_name: "", tags: ["imported"] }
  ], { blankErases: false })))

/** Registers the law for one kind of store with three connections. */
export const run = (kind: Kind, numRuns: number): void => {
  describe(`tag races: ${kind.name}`, () => {
    afterAll(() => kind.dispose())

    it("edits adding tags and an import adding its own, all at once, keep every tag any of them added", async () => {
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 2, max: 6 }), fc.boolean(), async (edits, withImport) => {
          await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
            const connections = yield* kind.open(3)
            const [first] = connections
            if (first === undefined) return
            yield* on(first)(ContactBook.createContact(number, { first_name: "Ann" }))
            yield* on(first)(ContactBook.editContact(number, { tags: ["kept"] }))
            const changes: Array<Effect.Effect<unknown, unknown>> = Array.from({ length: edits }, (_, i) =>
              on(connections[i % connections.length] ?? first)(ContactBook.changeContact(number, {}, { added: [`tag${i}`], removed: [] })))
            if (withImport) changes.push(on(connections[connections.length - 1] ?? first)(importBatch))
            const exits = yield* Effect.forEach(changes, (change) => Effect.exit(change), { concurrency: "unbounded" })
            for (const exit of exits) expect(Exit.isSuccess(exit), `a change failed: ${String(exit)}`).toBe(true)
            const contact = Option.getOrUndefined(yield* on(first)(Effect.flatMap(ContactStore.ContactStore, (store) => store.get(number))))
            const expected = ["kept", ...Array.from({ length: edits }, (_, i) => `tag${i}`), ...(withImport ? ["imported"] : [])]
            expect(contact?.tags.toSorted()).toEqual(expected.toSorted())
          })))
        }),
        { numRuns }
      )
    }, 300_000)
  })
}
