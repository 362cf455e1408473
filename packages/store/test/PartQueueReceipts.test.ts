/**
 * `PartQueue.receipts` on both stores, as a law: a batch of receipts — by SMSC id, repeated, unknown, or settling parts
 * in doubt by their number — leaves the outcomes, part states and error_count that `receipt` one at a time leaves.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Account, Messaging, PartQueue } from "@smsbook/core"
import { PostgresSchema } from "@smsbook/testing"
import { Effect, Layer, ManagedRuntime } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as PartStore from "../src/PartStore.ts"
import * as Store from "../src/Store.ts"

const postgresUrl = process.env["SMSBOOK_TEST_POSTGRES_URL"] ?? ""
const numbers = ["447400900001", "447400900002"] as const

interface Book {
  readonly url: string
  readonly drop: () => Promise<void>
}

const sqliteBook = async (): Promise<Book> => {
  const folder = mkdtempSync(join(tmpdir(), "smsbook-receipts-"))
  return { url: `sqlite:${join(folder, "book.db")}`, drop: async () => rmSync(folder, { recursive: true, force: true }) }
}

const postgresBook = (): Promise<Book> => PostgresSchema.make(postgresUrl, "receipts")

/** Parts to the two numbers; how many the SMSC answered (the rest are in doubt); receipts by part (or none) and number. */
const scenarios = fc.array(fc.integer({ min: 0, max: 1 }), { minLength: 1, maxLength: 5 }).chain((to) =>
  fc.record({
    to: fc.constant(to),
    answered: fc.integer({ min: 0, max: to.length }),
    receipts: fc.array(fc.record({
      // `to.length` names no part: an unknown id, which may settle a part in doubt to its number.
      id: fc.integer({ min: 0, max: to.length }),
      number: fc.integer({ min: 0, max: 1 }),
      state: fc.constantFrom<PartQueue.State>("delivered", "undeliverable", "enroute", "expired", "accepted")
    }), { maxLength: 10 })
  }))

type Scenario = typeof scenarios extends fc.Arbitrary<infer S> ? S : never

const play = async (makeBook: () => Promise<Book>, { to, answered, receipts }: Scenario, batched: boolean) => {
  const book = await makeBook()
  const runtime = ManagedRuntime.make(Layer.mergeAll(Store.layer(book.url), PartStore.layer(book.url), Account.layer({ ...Account.defaults, short_name: "Shop" })))
  try {
    for (const [i, n] of to.entries()) await runtime.runPromise(Messaging.sendNow({ msisdn: numbers[n] ?? "", message: `message ${i}` }))
    const queue = await runtime.runPromise(Effect.service(PartQueue.PartQueue))
    const claimed = (await runtime.runPromise(queue.claim("d", to.length, 0, 1000))).parts
    const seqs = claimed.map((part) => part.seq)
    await runtime.runPromise(queue.sending(seqs))
    await runtime.runPromise(queue.answer(seqs.slice(0, answered).map((seq, i) => ({ seq, smscId: `smsc-${i}` }))))
    // The dispatcher died: what it wrote unanswered is in doubt.
    await runtime.runPromise(queue.recover(2000, 60_000))
    const inputs = receipts.map(({ id, number, state }) => ({ smscIds: [`smsc-${id}`], state, msisdn: numbers[number] ?? "" }))
    const outcomes = batched
      ? await runtime.runPromise(queue.receipts(inputs))
      : await runtime.runPromise(Effect.forEach(inputs, (input) => queue.receipt(input)))
    // Message ids differ from book to book: each is named by its part's place in the outbox.
    const place = new Map(claimed.map((part, i) => [part.message_id, i]))
    const named = (id: string | undefined) => place.get(id ?? "") ?? -1
    const listed = await runtime.runPromise(Messaging.listMessages({ direction: "MT" }))
    const stored = await runtime.runPromise(Effect.forEach(claimed, (part) => queue.states(part.message_id)))
    return {
      outcomes: outcomes.map((outcome) => "message_id" in outcome ? { ...outcome, message_id: named(outcome.message_id) } : outcome),
      states: stored.map((rows) => rows.map((row) => ({ ...row, message_id: named(row.message_id) }))),
      errorCounts: listed.map((message) => [named(message.message_id), message.error_count]).sort(([a], [b]) => Number(a) - Number(b))
    }
  } finally {
    await runtime.dispose()
    await book.drop()
  }
}

const law = (makeBook: () => Promise<Book>, numRuns: number) => async () => {
  await fc.assert(fc.asyncProperty(scenarios, async (scenario) => {
    const one = await play(makeBook, scenario, false)
    expect(await play(makeBook, scenario, true)).toEqual(one)
    // Not a vacuous law: receipts that name a part change it.
    if (scenario.receipts.some((receipt) => receipt.id < scenario.answered)) {
      expect(one.outcomes.some((outcome) => outcome._tag !== "Unknown")).toBe(true)
    }
  }), { numRuns })
}

describe("PartQueue.receipts", () => {
  it("law on SQLite: a batch of receipts leaves what the same receipts one at a time leave", law(sqliteBook, 20), 120_000)
  it.skipIf(postgresUrl === "")("law on PostgreSQL: a batch of receipts leaves what the same receipts one at a time leave", law(postgresBook, 10), 180_000)
})

/**
 * What `Receipt.idCandidates` reads a receipt's id `16` as: itself, then the other spellings of the number (its decimal
 * padding, its hex `10`…). An SMSC that numbers its parts in decimal gave an earlier part the id `10`.
 */
const spellingsOf16 = ["16", "0000000016", "10", "00000010", "0000000000000010"]

/** Two parts answered with the SMSC ids `10` and `16`, then a receipt for `16`: the part it names is the second. */
const exactIdFirst = (makeBook: () => Promise<Book>, batched: boolean) => async () => {
  const book = await makeBook()
  const runtime = ManagedRuntime.make(Layer.mergeAll(Store.layer(book.url), PartStore.layer(book.url), Account.layer({ ...Account.defaults, short_name: "Shop" })))
  try {
    for (const [i, number] of numbers.entries()) await runtime.runPromise(Messaging.sendNow({ msisdn: number, message: `message ${i}` }))
    const queue = await runtime.runPromise(Effect.service(PartQueue.PartQueue))
    const claimed = (await runtime.runPromise(queue.claim("d", 2, 0, 1000))).parts
    const seqs = claimed.map((part) => part.seq)
    await runtime.runPromise(queue.sending(seqs))
    await runtime.runPromise(queue.answer([{ seq: seqs[0] ?? 0, smscId: "10" }, { seq: seqs[1] ?? 0, smscId: "16" }]))
    const input = { smscIds: spellingsOf16, state: "undeliverable" as const, msisdn: numbers[1] }
    const outcome = batched ? (await runtime.runPromise(queue.receipts([input])))[0] : await runtime.runPromise(queue.receipt(input))
    expect(outcome).toMatchObject({ _tag: "Updated", message_id: claimed[1]?.message_id, msisdn: numbers[1] })
    expect((await runtime.runPromise(queue.states(claimed[0]?.message_id ?? ""))).map((row) => row.state)).toEqual(["submitted"])
  } finally {
    await runtime.dispose()
    await book.drop()
  }
}

describe("PartQueue.receipt: the receipt's own id before its other spellings", () => {
  it("SQLite, one at a time", exactIdFirst(sqliteBook, false), 60_000)
  it("SQLite, batched", exactIdFirst(sqliteBook, true), 60_000)
  it.skipIf(postgresUrl === "")("PostgreSQL, one at a time", exactIdFirst(postgresBook, false), 60_000)
  it.skipIf(postgresUrl === "")("PostgreSQL, batched", exactIdFirst(postgresBook, true), 60_000)
})

/**
 * An SMSC that restarts numbers its parts from the start again: a part answered `m1` got its receipt, a later one is
 * answered `m1` too. The later receipt is the part written later, whichever was queued first (`order`: the queued
 * parts' indexes in the order they are written).
 */
const reusedId = (makeBook: () => Promise<Book>, batched: boolean, order: ReadonlyArray<number>) => async () => {
  const book = await makeBook()
  const runtime = ManagedRuntime.make(Layer.mergeAll(Store.layer(book.url), PartStore.layer(book.url), Account.layer({ ...Account.defaults, short_name: "Shop" })))
  const apply = (queue: PartQueue.PartQueue["Service"], input: PartQueue.ReceiptInput) =>
    batched ? Effect.map(queue.receipts([input]), (outcomes) => outcomes[0]) : queue.receipt(input)
  try {
    const queue = await runtime.runPromise(Effect.service(PartQueue.PartQueue))
    for (const [i, number] of numbers.entries()) await runtime.runPromise(Messaging.sendNow({ msisdn: number, message: `message ${i}` }))
    const claimed = (await runtime.runPromise(queue.claim("d", 2, 0, 1000))).parts
    for (const [turn, at] of order.entries()) {
      const part = claimed[at]
      await runtime.runPromise(queue.sending([part?.seq ?? 0]))
      await runtime.runPromise(queue.answer([{ seq: part?.seq ?? 0, smscId: "m1" }]))
      const outcome = await runtime.runPromise(apply(queue, { smscIds: ["m1"], state: turn === 0 ? "delivered" : "undeliverable", msisdn: part?.msisdn ?? "" }))
      expect(outcome).toMatchObject({ _tag: "Updated", message_id: part?.message_id, msisdn: part?.msisdn })
    }
    expect((await runtime.runPromise(queue.states(claimed[order[0] ?? 0]?.message_id ?? ""))).map((row) => row.state)).toEqual(["delivered"])
  } finally {
    await runtime.dispose()
    await book.drop()
  }
}

describe("PartQueue.receipt: an SMSC id given again names the part given it last", () => {
  for (const [name, order] of [["in the order queued", [0, 1]], ["the part queued last written first", [1, 0]]] as const) {
    it(`SQLite, one at a time, ${name}`, reusedId(sqliteBook, false, order), 60_000)
    it(`SQLite, batched, ${name}`, reusedId(sqliteBook, true, order), 60_000)
    it.skipIf(postgresUrl === "")(`PostgreSQL, one at a time, ${name}`, reusedId(postgresBook, false, order), 60_000)
    it.skipIf(postgresUrl === "")(`PostgreSQL, batched, ${name}`, reusedId(postgresBook, true, order), 60_000)
  }
})
