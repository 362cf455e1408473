import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import type * as Link from "../src/internal/link.ts"
import * as Pending from "../src/internal/pending.ts"

interface Item extends Pending.Entry {
  readonly destination: string
}

/**
 * A gate over `destinations` (queued in order, keys 0…n-1; those in `cleared` cleared already), whose
 * journal allows `allow` and records what it was asked.
 */
const setup = (
  destinations: ReadonlyArray<string>,
  options: { readonly window: number; readonly tps: number; readonly inflight: number },
  allow: (key: number) => boolean,
  cleared: ReadonlySet<number> = new Set()
) => {
  const asked: Array<ReadonlyArray<number>> = []
  const outcomes = new Map<number, Link.Outcome>()
  let pumps = 0
  const journal: Link.Journal = {
    beforeWrite: async (keys) => {
      asked.push(keys)
      return keys.filter(allow)
    },
    notTaken: async () => undefined
  }
  const pending = Pending.make<Item>({
    journal,
    window: () => options.window,
    tps: options.tps,
    destinationOf: (item) => item.destination,
    inflight: () => options.inflight,
    pump: () => {
      pumps++
    }
  })
  destinations.forEach((destination, key) =>
    pending.queue.push({ destination, key, cleared: cleared.has(key), forgetting: undefined, written: undefined, settle: (outcome) => outcomes.set(key, outcome) })
  )
  return { pending, journal, asked, outcomes, pumps: () => pumps }
}

describe("pending submissions", () => {
  it("clears a batch of one per number, none busy or with one cleared already, no more than may go out now; the refused ones are Withheld", async () => {
    await fc.assert(fc.asyncProperty(
      fc.array(fc.record({ destination: fc.constantFrom("a", "b", "c", "d"), cleared: fc.boolean() }), { maxLength: 12 }),
      fc.subarray(["a", "b", "c", "d"]),
      fc.integer({ min: 1, max: 6 }),
      fc.constantFrom(0, 20, 60, 1000),
      fc.func(fc.boolean()),
      async (queued, busy, window, tps, allow) => {
        const destinations = queued.map((entry) => entry.destination)
        const cleared = new Set(queued.flatMap((entry, key) => entry.cleared ? [key] : []))
        const { pending, journal, asked, outcomes, pumps } = setup(destinations, { window, tps, inflight: 0 }, (key) => allow(key), cleared)
        pending.clear(journal, new Set(busy))
        expect(pending.isClearing()).toBe(true)
        await new Promise((resolve) => setTimeout(resolve, 0))
        expect(pending.isClearing()).toBe(false)
        expect(pumps()).toBe(1)
        const batch = asked[0] ?? []
        // The first submission of each free number (none out, none cleared), in queue order, up to the batch size.
        const most = tps > 0 ? Math.max(1, Math.min(window, Math.floor(tps / 20))) : window
        const free = (destination: string) => !busy.includes(destination) && queued.every((entry) => !entry.cleared || entry.destination !== destination)
        const firsts = destinations.flatMap((destination, key) => destinations.indexOf(destination) === key && free(destination) ? [key] : [])
        expect(batch).toEqual(firsts.slice(0, most))
        for (const key of batch) {
          const item = pending.queue.find((entry) => entry.key === key)
          if (allow(key)) expect(item?.cleared).toBe(true)
          else expect([item, outcomes.get(key)]).toEqual([undefined, { _tag: "Withheld" }])
        }
        expect(pending.queue.length).toBe(destinations.length - batch.filter((key) => !allow(key)).length)
      }
    ))
  })

  it("never tells the journal of a batch drained (the link closed) while it waited for what was not taken", async () => {
    const { pending, journal, asked, outcomes } = setup(["a", "b"], { window: 10, tps: 0, inflight: 0 }, () => true)
    let told: () => void = () => undefined
    const forgetting = new Promise<void>((resolve) => (told = resolve))
    for (const item of pending.queue) item.forgetting = forgetting
    pending.clear(journal, new Set())
    pending.drain("the link is closed")
    told()
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(asked).toEqual([])
    expect([outcomes.get(0), outcomes.get(1)]).toEqual([0, 1].map(() => ({ _tag: "LinkFailed", reason: "the link is closed", sent: false })))
    expect(pending.isClearing()).toBe(false)
  })

  it("fails the batch LinkFailed (not sent) when the journal cannot be written", async () => {
    const { pending, outcomes } = setup(["a", "b"], { window: 10, tps: 0, inflight: 0 }, () => true)
    pending.clear({ beforeWrite: () => Promise.reject(new Error("disk full")), notTaken: async () => undefined }, new Set())
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(pending.queue).toEqual([])
    expect(outcomes.get(1)).toEqual({ _tag: "LinkFailed", reason: "the part states could not be stored: Error: disk full", sent: false })
  })

  it("unclears what was not taken until the journal heard it, and drains the queue on close", async () => {
    const { pending, outcomes } = setup(["a"], { window: 10, tps: 0, inflight: 0 }, () => true)
    const [item] = pending.queue
    if (item === undefined) throw new Error("queued")
    item.cleared = true
    pending.notTaken([item])
    expect(item.cleared).toBe(false)
    await expect(item.forgetting).resolves.toBeUndefined()
    let idle = false
    const waiting = pending.idle().then(() => {
      idle = true
    })
    await Promise.resolve()
    expect(idle).toBe(false)
    pending.drain("the link is closed")
    pending.notifyIdle()
    await waiting
    expect(outcomes.get(0)).toEqual({ _tag: "LinkFailed", reason: "the link is closed", sent: false })
  })

  it("law: what went out and comes back is put back in the order it was written, after what was written before it and ahead of what never went out", () => {
    fc.assert(fc.property(
      // Write numbers of parts still queued (some throttled and put back already) and of parts coming back now, in any order.
      fc.uniqueArray(fc.record({ written: fc.integer({ min: 1, max: 100 }), queued: fc.boolean() }), { selector: (part) => part.written, maxLength: 20 })
        .chain((parts) => fc.shuffledSubarray(parts, { minLength: parts.length })),
      fc.integer({ min: 0, max: 4 }),
      (parts, unwritten) => {
        const { pending } = setup([], { window: 10, tps: 0, inflight: 0 }, () => true)
        const item = (written: number | undefined): Item => ({ destination: "a", key: written, cleared: true, forgetting: undefined, written, settle: () => undefined })
        const queued = parts.filter((part) => part.queued).map((part) => part.written).sort((a, b) => a - b)
        pending.queue.push(...queued.map(item), ...Array.from({ length: unwritten }, () => item(undefined)))
        pending.putBack(parts.filter((part) => !part.queued).map((part) => item(part.written)))
        const order = pending.queue.map((entry) => entry.written)
        expect(order).toEqual([...parts.map((part) => part.written).sort((a, b) => a - b), ...Array.from({ length: unwritten }, () => undefined)])
      }
    ))
  })
})
