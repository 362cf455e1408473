import { Fixtures } from "@smsbook/testing"
import { Effect, Layer, Option, Result } from "effect"
import { TestClock } from "effect/testing"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Account from "../src/Account.ts"
import * as MemoryStore from "../src/MemoryStore.ts"
import type * as Message from "../src/Message.ts"
import { MessageStore } from "../src/MessageStore.ts"
import * as Resumption from "../src/Resumption.ts"

const period = Fixtures.settings.spam_period_seconds * 1000

/** `body` over a fresh memory store holding `stored`, the clock at the fixtures' epoch. */
const run = <A, E>(stored: ReadonlyArray<Message.Stored>, body: Effect.Effect<A, E, MessageStore | Account.Account>) =>
  Effect.runPromise(
    Effect.gen(function*() {
      yield* TestClock.setTime(Fixtures.epoch)
      const store = yield* MessageStore
      for (const message of stored) yield* store.insert(message)
      return yield* Effect.result(body)
    }).pipe(Effect.provide(Layer.mergeAll(MemoryStore.layer, Account.layer(Fixtures.settings), TestClock.layer())))
  )

/** `word` with random letter case. */
const anyCase = (word: string): fc.Arbitrary<string> =>
  fc.array(fc.boolean(), { minLength: word.length, maxLength: word.length }).map((upper) =>
    [...word].map((char, i) => upper[i] ? char.toUpperCase() : char.toLowerCase()).join("")
  )

describe("Resumption.unfinished", () => {
  const tags = ["news", "VIP", "sport"]
  const unfinished = (status: Message.Status) => Fixtures.groupMessage("m1", tags, { id: "launch", message: "Doors open at 9", status })

  it("law: an unfinished group message is resumed by its text and its tags in any order and any case", async () => {
    await fc.assert(fc.asyncProperty(
      fc.constantFrom<Message.Status>("PENDING", "PROCESSING", "READY"),
      fc.shuffledSubarray(tags, { minLength: tags.length }).chain((order) => fc.tuple(...order.map(anyCase))),
      async (status, asked) => {
        const found = await run([unfinished(status)], Resumption.unfinished("launch", "Doors open at 9", asked))
        expect(Result.isSuccess(found) && Option.isSome(found.success) && found.success.value.message_id).toBe("m1")
      }
    ), { numRuns: 30 })
  })

  it("law: another text, or tags naming other groups, under that id is refused on `id`, not resumed", async () => {
    await fc.assert(fc.asyncProperty(
      fc.oneof(
        fc.record({ text: fc.constantFrom("Doors open at 10", "doors open at 9", "Doors open at 9 "), tags: fc.constant(tags) }),
        fc.record({ text: fc.constant("Doors open at 9"), tags: fc.constantFrom(["news", "VIP"], [...tags, "other"], ["news", "vip", "sports"]) })
      ),
      async (asked) => {
        const found = await run([unfinished("PROCESSING")], Resumption.unfinished("launch", asked.text, asked.tags))
        expect(Result.isFailure(found) && found.failure._tag === "InvalidField" && found.failure.field).toBe("id")
      }
    ), { numRuns: 30 })
  })

  it("examples: nothing to resume without an id, under an unknown id, or once the message is SENT", async () => {
    for (const [id, status] of [[undefined, "PROCESSING"], ["other", "PROCESSING"], ["launch", "SENT"]] as const) {
      expect(await run([unfinished(status)], Resumption.unfinished(id, "Doors open at 9", tags))).toEqual(Result.succeed(Option.none()))
    }
  })
})

describe("Resumption.checkNotDuplicate", () => {
  it("law: the preview refuses an id exactly when the store's anti-spam check refuses a send of it now (the boundary inclusive)", async () => {
    await fc.assert(fc.asyncProperty(fc.integer({ min: -3, max: 3 }), fc.boolean(), async (delta, nearBoundary) => {
      // An earlier message under the id, created `age` ms before now: around the period's end, or around now.
      const age = (nearBoundary ? period : 0) + delta
      fc.pre(age >= 0)
      const earlier = Fixtures.message("m1", { id: "launch", created_at: Fixtures.epoch - age })
      const preview = await run([earlier], Resumption.checkNotDuplicate("launch"))
      const send = await run(
        [earlier],
        Effect.flatMap(Effect.service(MessageStore), (store) =>
          store.insert(Fixtures.message("m2", { id: "launch", created_at: Fixtures.epoch }), { id: "launch", since: Fixtures.epoch - period }))
      )
      expect(Result.isFailure(preview)).toBe(age <= period)
      expect(Result.isFailure(preview)).toBe(Result.isFailure(send))
      if (Result.isFailure(preview)) expect(preview.failure).toMatchObject({ _tag: "DuplicateSend", id: "launch", message_id: "m1" })
    }), { numRuns: 40 })
  })
})
