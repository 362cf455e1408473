/**
 * The dispatcher's queue on SQLite, as laws: what a dead dispatcher left is settled exactly (claimed
 * parts sent again, parts in doubt settled by receipts in write order, the rest sent again), and an
 * opt-out cancels exactly the parts of messages not started to that number.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Account, Messaging, PartQueue } from "@smsbook/core"
import { Effect, Layer, ManagedRuntime } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as PartStore from "../src/PartStore.ts"
import * as Store from "../src/Store.ts"

const number = "447400900000"

/** A fresh book holding `messages` individual messages to one number, handed to the outbox. */
const bookWith = async (messages: number) => {
  const folder = mkdtempSync(join(tmpdir(), "smsbook-parts-"))
  const url = `sqlite:${join(folder, "book.db")}`
  const runtime = ManagedRuntime.make(Layer.mergeAll(
    Store.layer(url),
    PartStore.layer(url),
    Account.layer({ ...Account.defaults, short_name: "Shop" })
  ))
  for (let i = 0; i < messages; i++) await runtime.runPromise(Messaging.sendNow({ msisdn: number, message: `message ${i}` }))
  const queue = await runtime.runPromise(Effect.service(PartQueue.PartQueue))
  const done = async () => {
    await runtime.dispose()
    rmSync(folder, { recursive: true, force: true })
  }
  return { runtime, queue, done }
}

/** Parts, the order they were written in, how many of the first writes the SMSC took, how many it never got. */
const deaths = fc.integer({ min: 1, max: 6 }).chain((parts) =>
  fc.record({
    parts: fc.constant(parts),
    order: fc.shuffledSubarray(Array.from({ length: parts }, (_, i) => i), { minLength: parts, maxLength: parts }),
    taken: fc.integer({ min: 0, max: parts }),
    unwritten: fc.integer({ min: 0, max: 3 })
  }))

describe("PartQueue on SQLite", () => {
  it("law: after a dispatcher dies, its unwritten parts are queued again, receipts settle the first writes, the rest go again after the doubt", async () => {
    await fc.assert(fc.asyncProperty(deaths, async ({ parts, order, taken, unwritten }) => {
      const { runtime, queue, done } = await bookWith(parts + unwritten)
      try {
        const claimed = (await runtime.runPromise(queue.claim("dead", parts + unwritten, 0, 1000))).parts
        expect(claimed).toHaveLength(parts + unwritten)
        // Written one at a time in `order`; the last `unwritten` parts were claimed, never written.
        const written = order.map((index) => claimed[index]?.seq ?? -1)
        for (const seq of written) expect(await runtime.runPromise(queue.sending([seq]))).toEqual([seq])
        // The lease ends: recovered at t = 2000 with a doubt of 5000.
        expect(await runtime.runPromise(queue.recover(2000, 5000))).toEqual({ requeued: unwritten, inDoubt: parts })
        for (let i = 0; i < taken; i++) {
          const outcome = await runtime.runPromise(queue.receipt({ smscIds: [`smsc-${i}`], state: "delivered", msisdn: number }))
          expect(outcome).toMatchObject({ _tag: "Updated", state: "delivered" })
        }
        // Nothing more to that number while a part of it is in doubt.
        if (taken < parts) expect((await runtime.runPromise(queue.claim("next", 100, 3000, 1000))).parts).toEqual([])
        expect(await runtime.runPromise(queue.resend(6000))).toBe(0)
        expect(await runtime.runPromise(queue.resend(7001))).toBe(parts - taken)
        const states = new Map((await Promise.all(claimed.map((part) => runtime.runPromise(queue.states(part.message_id))))).flat()
          .map((state) => [`${state.message_id}/${state.part}`, state.state]))
        const stateOf = (seq: number) => {
          const part = claimed.find((candidate) => candidate.seq === seq)
          return states.get(`${part?.message_id}/${part?.part}`)
        }
        expect(written.map(stateOf)).toEqual(written.map((_, i) => i < taken ? "delivered" : "queued"))
        const again = await runtime.runPromise(queue.claim("next", 100, 8000, 1000))
        expect(again.parts.length).toBe(parts - taken + unwritten)
      } finally {
        await done()
      }
    }), { numRuns: 15 })
  }, 120_000)

  it("law: an opt-out cancels the parts of the messages not started to that number, and leaves the started ones", async () => {
    await fc.assert(fc.asyncProperty(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 0, max: 4 }), async (messages, startedWanted) => {
      const started = Math.min(startedWanted, messages)
      const { runtime, queue, done } = await bookWith(messages)
      try {
        const first = (await runtime.runPromise(queue.claim("d", started, 0, 60_000))).parts
        await runtime.runPromise(queue.sending(first.map((part) => part.seq)))
        await runtime.runPromise(Messaging.receiveMessage(number, "STOP"))
        const rest = await runtime.runPromise(queue.claim("d", 100, 0, 60_000))
        expect([rest.parts.length, rest.cancelled]).toEqual([0, messages - started])
        const listed = await runtime.runPromise(Messaging.listMessages({ direction: "MT" }))
        // By id: messages sent within one millisecond list in the order of their ids' random part, not of sending.
        const startedIds = new Set(first.map((part) => part.message_id))
        expect(startedIds.size).toBe(started)
        expect(listed.map((message) => message.sent_count)).toEqual(listed.map((message) => startedIds.has(message.message_id ?? "") ? 1 : 0))
      } finally {
        await done()
      }
    }), { numRuns: 10 })
  }, 120_000)
})
