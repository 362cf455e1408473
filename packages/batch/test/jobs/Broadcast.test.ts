/**
 * A broadcast is one send whichever way it goes out: straight from the flags or from a reviewed plan, it has one
 * anti-spam id, so it is resumed or refused alike; and its dry run says what the real run would do. On SQLite files.
 */
import { describe, expect, it } from "@effect/vitest"
import { Account, Contact, ContactBook, MemoryStore, MessageStore, Messaging, Sms } from "@smsbook/core"
import { SqliteStore } from "@smsbook/store"
import { Effect, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import * as fc from "fast-check"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll } from "vitest"
import { isSmsbookError } from "../../src/Output.ts"
import * as BroadcastId from "../../src/internal/broadcastId.ts"
import * as Broadcast from "../../src/jobs/Broadcast.ts"
import * as Plan from "../../src/jobs/BroadcastPlan.ts"

const temporary = fs.mkdtempSync(path.join(os.tmpdir(), "smsbook-broadcast-test-"))
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }))
let files = 0
const tempFile = (name: string) => path.join(temporary, `${++files}-${name}`)

const acme: Account.Settings = { ...Account.defaults, short_name: "ACME" }
/** A fresh SQLite book for each test. */
const sqlite = () => Layer.mergeAll(SqliteStore.layer(tempFile("book.db")), Account.layer(acme))

/** How many messages the book has sent (MT): a broadcast that went out twice is two. */
const sentCount = Effect.map(Messaging.listMessages({}), (messages) => messages.filter((m) => m.direction === "MT").length)

const msisdnOf = (index: number) => `4474002${String(index).padStart(5, "0")}`

/** `count` contacts carrying `tags`. */
const seed = (count: number, tags: ReadonlyArray<string>) =>
  Effect.forEach(Array.from({ length: count }, (_, i) => msisdnOf(i)), (msisdn) =>
    Effect.andThen(ContactBook.createContact(msisdn, { first_name: "P" }), ContactBook.editContact(msisdn, { tags: [...tags] })), {
    discard: true
  })

/** The code of the failure of `effect`, which must be an smsbook error. */
const refusal = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.flatMap(Effect.flip(effect), (error) =>
    isSmsbookError(error) ? Effect.succeed(error._tag) : Effect.die(new Error(`not an smsbook error: ${String(error)}`)))

const noEmpty = { allowEmpty: false }

/**
 * What a broadcast killed after `handed` members leaves: its message PROCESSING under the digest id, those members
 * recorded as handed it and their parts counted, as its committed batches did.
 */
const interrupted = (tags: ReadonlyArray<string>, message: string, handed: number) =>
  Effect.gen(function*() {
    const id = BroadcastId.digestId(tags, message, acme.short_name)
    const accepted = yield* Messaging.sendToGroups({ tags, message, id })
    const store = yield* MessageStore.MessageStore
    const pending = Option.getOrThrow(yield* store.get(accepted.message_id))
    const parts = Sms.analyzePrefixed(acme.short_name, message).parts.length
    yield* store.update({ ...pending, status: "PROCESSING", sent_count: parts * handed })
    yield* store.recordDeliveries(accepted.message_id, Array.from({ length: handed }, (_, i) => msisdnOf(i)))
    return accepted.message_id
  })

describe("a plan without --id is the same broadcast as the command it was made from", () => {
  it.effect("sent directly (tags NeWs), then reviewed and sent from a plan (tags news): the dry run and the send are refused", () =>
    Effect.gen(function*() {
      yield* seed(3, ["news"])
      yield* Broadcast.send({ tags: ["NeWs"], message: "Shop opens at 9" }, noEmpty)
      expect(yield* refusal(Plan.write({ tags: ["news"], message: "Shop opens at 9" }, tempFile("plan.json")))).toBe("DuplicateSend")
      expect(yield* sentCount).toBe(1)
    }).pipe(Effect.provide(sqlite())))

  it.effect("planned, sent from the plan, then sent directly: the direct run is refused as a duplicate", () =>
    Effect.gen(function*() {
      yield* seed(3, ["news"])
      const plan = tempFile("plan.json")
      yield* Plan.write({ tags: ["news"], message: "Shop opens at 9" }, plan)
      const sent = yield* Broadcast.sendPlan(plan, noEmpty)
      expect(sent.message_id).toBeDefined()
      expect(sent.handed_over).toBe(3)
      expect(yield* refusal(Broadcast.send({ tags: ["NeWs"], message: "Shop opens at 9" }, noEmpty))).toBe("DuplicateSend")
      expect(yield* sentCount).toBe(1)
    }).pipe(Effect.provide(sqlite())))

  it.effect("sent directly, then a plan made before it is sent: refused as a duplicate, nobody gets it twice", () =>
    Effect.gen(function*() {
      yield* seed(3, ["news"])
      const plan = tempFile("plan.json")
      yield* Plan.write({ tags: ["news"], message: "Shop opens at 9" }, plan)
      yield* Broadcast.send({ tags: ["NeWs"], message: "Shop opens at 9" }, noEmpty)
      expect(yield* refusal(Broadcast.sendPlan(plan, noEmpty))).toBe("DuplicateSend")
      expect(yield* sentCount).toBe(1)
    }).pipe(Effect.provide(sqlite())))

  it.effect("two plans of the same broadcast, tags news and NEWS: the second is refused", () =>
    Effect.gen(function*() {
      yield* seed(2, ["news"])
      const lower = tempFile("lower.json")
      const upper = tempFile("upper.json")
      yield* Plan.write({ tags: ["news"], message: "Hi" }, lower)
      yield* Plan.write({ tags: ["NEWS"], message: "Hi" }, upper)
      yield* Broadcast.sendPlan(lower, noEmpty)
      expect(yield* refusal(Broadcast.sendPlan(upper, noEmpty))).toBe("DuplicateSend")
    }).pipe(Effect.provide(sqlite())))

  it.effect("a plan sent in full under the old plan- id is refused as a duplicate when run again, not sent under the new id", () =>
    Effect.gen(function*() {
      yield* seed(3, ["news"])
      const plan = tempFile("plan.json")
      yield* Plan.write({ tags: ["news"], message: "Old plan" }, plan)
      const { plan_sha256 } = yield* Plan.verify(plan, noEmpty)
      yield* Messaging.broadcast({ tags: ["news"], message: "Old plan", id: `plan-${plan_sha256.slice(0, 35)}` }, noEmpty)
      expect(yield* refusal(Broadcast.sendPlan(plan, noEmpty))).toBe("DuplicateSend")
      expect(yield* sentCount).toBe(1)
    }).pipe(Effect.provide(sqlite())))

  it.effect("a direct broadcast interrupted after some were handed it, then the review flow: the plan resumes it", () =>
    Effect.gen(function*() {
      yield* seed(5, ["big"])
      const messageId = yield* interrupted(["big"], "big 0.9", 2)
      const plan = tempFile("plan.json")
      yield* Plan.write({ tags: ["big"], message: "big 0.9" }, plan)
      const sent = yield* Broadcast.sendPlan(plan, noEmpty)
      expect(sent).toMatchObject({ message_id: messageId, resumed: true, handed_over: 3, recipients: 5, status: "SENT" })
    }).pipe(Effect.provide(sqlite())))

  it.effect("a plan with --id is sent under that id, as the command with --id is", () =>
    Effect.gen(function*() {
      yield* seed(2, ["news"])
      const plan = tempFile("plan.json")
      yield* Plan.write({ tags: ["news"], message: "Hi", id: "promo-1" }, plan)
      yield* Broadcast.sendPlan(plan, noEmpty)
      expect(yield* refusal(Broadcast.send({ tags: ["news"], message: "Hi", id: "promo-1" }, noEmpty))).toBe("DuplicateSend")
    }).pipe(Effect.provide(sqlite())))

  it("law: the id a plan is sent under is the direct command's, whatever the order, case and blanks of its tags", async () => {
    const tag = fc.constantFrom("news", "sport", "vip", "Über", "club")
    const variant = (tags: ReadonlyArray<string>) =>
      fc.tuple(fc.shuffledSubarray([...tags], { minLength: tags.length, maxLength: tags.length }), fc.array(fc.boolean(), { minLength: tags.length, maxLength: tags.length }), fc.array(fc.constantFrom("", " ", "  "), { minLength: tags.length, maxLength: tags.length }))
        .map(([order, upper, pad]) => order.map((t, i) => `${pad[i] ?? ""}${upper[i] === true ? t.toUpperCase() : t}${pad[i] ?? ""}`))
    const arbitrary = fc.uniqueArray(tag, { minLength: 1, maxLength: 4 }).chain((tags) =>
      fc.tuple(fc.constant(tags), variant(tags), fc.string({ minLength: 1, maxLength: 20 }).filter((s) => s.trim() !== ""))
    )
    await fc.assert(fc.asyncProperty(arbitrary, async ([tags, planned, message]) => {
      const summary = await Effect.runPromise(
        Plan.resolve({ tags: planned, message, allowEmpty: true }).pipe(Effect.provide(Layer.mergeAll(MemoryStore.layer, Account.layer(acme))))
      )
      expect(BroadcastId.idOf(summary, summary.short_name)).toBe(BroadcastId.digestId(tags, message, acme.short_name))
      expect(Contact.normalizeTags(planned).map((t) => t.toLowerCase()).sort()).toEqual([...tags].map((t) => t.toLowerCase()).sort())
    }), { numRuns: 200 })
  })
})

describe("a dry run says what the real run would do", () => {
  it.effect("an id over 40 characters or blank is refused as the send refuses it", () =>
    Effect.gen(function*() {
      yield* seed(2, ["news"])
      for (const id of ["x".repeat(41), "", "   "]) {
        const real = yield* refusal(Broadcast.send({ tags: ["news"], message: "Hi", id }, noEmpty))
        expect(yield* refusal(Plan.resolve({ tags: ["news"], message: "Hi", id }))).toBe(real)
        expect(yield* refusal(Plan.write({ tags: ["news"], message: "Hi", id }, tempFile("plan.json")))).toBe(real)
      }
      expect(["ExternalIdTooLong", "InvalidField"]).toContain(yield* refusal(Plan.resolve({ tags: ["news"], message: "Hi", id: "x".repeat(41) })))
    }).pipe(Effect.provide(sqlite())))

  it.effect("an already sent broadcast (within the spam period) is refused as a duplicate, as the real run is", () =>
    Effect.gen(function*() {
      yield* seed(2, ["news"])
      yield* Broadcast.send({ tags: ["news"], message: "Hi" }, noEmpty)
      expect(yield* refusal(Plan.resolve({ tags: ["NEWS"], message: "Hi" }))).toBe("DuplicateSend")
      yield* Broadcast.send({ tags: ["news"], message: "Hi", id: "promo-2" }, noEmpty)
      expect(yield* refusal(Plan.resolve({ tags: ["news"], message: "Hi", id: "promo-2" }))).toBe("DuplicateSend")
      // Another text is another broadcast.
      expect((yield* Plan.resolve({ tags: ["news"], message: "Hi again" })).recipients).toBe(2)
    }).pipe(Effect.provide(sqlite())))

  it.effect("at the very end of the spam period the dry run still refuses, as the send does; a millisecond later both go", () =>
    Effect.gen(function*() {
      yield* seed(2, ["news"])
      yield* Broadcast.send({ tags: ["news"], message: "Hi", id: "promo-4" }, noEmpty)
      yield* TestClock.adjust(acme.spam_period_seconds * 1000)
      expect(yield* refusal(Plan.resolve({ tags: ["news"], message: "Hi", id: "promo-4" }))).toBe("DuplicateSend")
      expect(yield* refusal(Broadcast.send({ tags: ["news"], message: "Hi", id: "promo-4" }, noEmpty))).toBe("DuplicateSend")
      yield* TestClock.adjust(1)
      expect((yield* Plan.resolve({ tags: ["news"], message: "Hi", id: "promo-4" })).recipients).toBe(2)
      expect(yield* Broadcast.send({ tags: ["news"], message: "Hi", id: "promo-4" }, noEmpty)).toMatchObject({ recipients: 2, resumed: false })
    }).pipe(Effect.provide(sqlite())))

  it.effect("an interrupted broadcast: the dry run says it resumes and how many remain", () =>
    Effect.gen(function*() {
      yield* seed(5, ["big"])
      const messageId = yield* interrupted(["big"], "big 0.9", 2)
      const summary = yield* Plan.resolve({ tags: ["BIG"], message: "big 0.9" })
      expect(summary.recipients).toBe(5)
      expect(summary.resume).toEqual({ message_id: messageId, handed_over_before: 2, remaining: 3 })
      // The real run does what the dry run said.
      const sent = yield* Broadcast.send({ tags: ["big"], message: "big 0.9" }, noEmpty)
      expect(sent).toMatchObject({ resumed: true, handed_over: 3 })
    }).pipe(Effect.provide(sqlite())))

  it.effect("an id of an unfinished message with another text is refused, as the real run refuses it", () =>
    Effect.gen(function*() {
      yield* seed(2, ["news"])
      const accepted = yield* Messaging.sendToGroups({ tags: ["news"], message: "first", id: "promo-3" })
      expect(accepted.response.status).toBe("PENDING")
      const real = yield* refusal(Broadcast.send({ tags: ["news"], message: "second", id: "promo-3" }, noEmpty))
      expect(yield* refusal(Plan.resolve({ tags: ["news"], message: "second", id: "promo-3" }))).toBe(real)
    }).pipe(Effect.provide(sqlite())))

  it.effect("a new broadcast has no resume", () =>
    Effect.gen(function*() {
      yield* seed(2, ["news"])
      const summary = yield* Plan.resolve({ tags: ["news"], message: "Hi" })
      expect(summary.resume).toBeUndefined()
    }).pipe(Effect.provide(sqlite())))
})

