/**
 * What an import stopped by a signal says it kept: nothing while it reads and writes (its transaction rolls back),
 * "may have been committed" once it commits (a stop that lands during the commit is delivered after it).
 */
import { ContactStore, MemoryStore } from "@smsbook/core"
import { Deferred, Effect, Fiber, Layer } from "effect"
import { describe, expect, it } from "vitest"
import * as Interruption from "../../src/internal/interruption.ts"
import * as Import from "../../src/jobs/Import.ts"

async function* once(text: string): AsyncGenerator<Uint8Array> {
  yield new TextEncoder().encode(text)
}

const file = "msisdn,first_name\n447400123456,Ann\n447400123457,Bob\n"

/** What the import had said it kept when its work was done, just before the commit. */
let beforeCommit: string | undefined

/**
 * The memory store, whose commit is slow (an uninterruptible pause after the transaction's work, as SQLite's copying
 * of pages is) and says when it starts; its transaction's work may be slow too (an interruptible pause first).
 */
const storeWith = (committing: Deferred.Deferred<void>, commitTakes: Effect.Effect<void>, workTakes: Effect.Effect<void> = Effect.void) =>
  Layer.effect(
    ContactStore.ContactStore,
    Effect.map(Effect.service(ContactStore.ContactStore), (store) =>
      ContactStore.ContactStore.of({
        ...store,
        transaction: (effect) =>
          Effect.uninterruptibleMask((restore) =>
            Effect.tap(
              // What the job says it kept once its work is done and before the commit starts.
              store.transaction(restore(Effect.tap(Effect.andThen(workTakes, effect), () => Effect.sync(() => void (beforeCommit = Interruption.keptSoFar()))))),
              () => Effect.andThen(Deferred.succeed(committing, undefined), commitTakes)
            ))
      }))
  ).pipe(Layer.provide(MemoryStore.layer))


describe("an import stopped by a signal", () => {
  it("stopped during its commit, it says the import may have been committed (and a stop before says nothing was imported)", async () => {
    const committing = Deferred.makeUnsafe<void>()
    const kept = await Effect.runPromise(Effect.gen(function*() {
      const fiber = yield* Effect.forkChild(Effect.scoped(Import.run(once(file), { defaultCountry: "GB" })))
      yield* Deferred.await(committing)
      yield* Fiber.interrupt(fiber)
      return Interruption.keptSoFar()
    }).pipe(Effect.provide(storeWith(committing, Effect.sleep("50 millis")))))
    expect(kept).toBe(Import.committing)
    // Said before the commit begins: a stop during it finds the note there.
    expect(beforeCommit).toBe(Import.committing)

    // A stop while the transaction's work is under way: the next import starts afresh and says nothing was imported.
    const unused = Deferred.makeUnsafe<void>()
    const keptBefore = await Effect.runPromise(Effect.gen(function*() {
      const fiber = yield* Effect.forkChild(Effect.scoped(Import.run(once(file), { defaultCountry: "GB" })))
      yield* Effect.sleep("50 millis")
      yield* Fiber.interrupt(fiber)
      return Interruption.keptSoFar()
    }).pipe(Effect.provide(storeWith(unused, Effect.void, Effect.sleep("10 seconds")))))
    expect(keptBefore).toBe(Import.rolledBack)
  })
})
