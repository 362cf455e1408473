/**
 * Group commit (the server's SQLite store): concurrent transactions share one SQLite transaction, each in a
 * savepoint. Each must still be all or nothing on its own, answer only once its writes are committed, and the
 * group must really be one COMMIT (counted in the WAL, whose commit frames carry the database size).
 */
import { closeSync, openSync, readSync, statSync } from "node:fs"
import { DatabaseSync } from "node:sqlite"
import { Fixtures } from "@smsbook/testing"
import { Effect, Exit, Fiber, Option } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as SqliteFiles from "./sqliteFiles.ts"

const freshPath = SqliteFiles.folder()
const grouped = { groupCommit: true } as const

/** The commit frames in the WAL of `path` (a frame header's second word is the database size, zero but at a commit). */
const walCommits = (path: string): number => {
  const wal = `${path}-wal`
  const size = statSync(wal, { throwIfNoEntry: false })?.size ?? 0
  if (size < 32) return 0
  const fd = openSync(wal, "r")
  try {
    const header = Buffer.alloc(32)
    readSync(fd, header, 0, 32, 0)
    const frame = 24 + header.readUInt32BE(8)
    let commits = 0
    const frameHeader = Buffer.alloc(24)
    for (let at = 32; at + frame <= size; at += frame) {
      readSync(fd, frameHeader, 0, 24, at)
      if (frameHeader.readUInt32BE(4) !== 0) commits++
    }
    return commits
  } finally {
    closeSync(fd)
  }
}

/** The msisdns another connection sees in the book at `path`: what is committed. */
const committedMsisdns = (path: string): ReadonlySet<string> => {
  const db = new DatabaseSync(path, { readOnly: true })
  try {
    return new Set(db.prepare("SELECT msisdn FROM contacts").all().map((row) => String(row["msisdn"])))
  } finally {
    db.close()
  }
}

type Outcome = "commits" | "fails" | "dies"

describe("group commit", () => {
  it("keeps each of many concurrent transactions all or nothing on its own, and answers each after its COMMIT", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom<Outcome>("commits", "commits", "fails", "dies"), { minLength: 1, maxLength: 40 }), async (outcomes) => {
        const path = freshPath()
        // What another connection saw at the moment each transaction answered.
        const seenAtAnswer: Array<boolean> = []
        const exits = await SqliteFiles.withStore(path, ({ contacts }) =>
          Effect.forEach(outcomes, (outcome, i) =>
            Effect.exit(contacts.transaction(Effect.gen(function*() {
              yield* contacts.insert(Fixtures.contact(2 * i))
              yield* Effect.yieldNow
              yield* contacts.insert(Fixtures.contact(2 * i + 1))
              if (outcome === "fails") return yield* Effect.fail(`refused ${i}`)
              if (outcome === "dies") return yield* Effect.die(`broken ${i}`)
              return i
            }))).pipe(Effect.tap((exit) => Effect.sync(() => {
              seenAtAnswer[i] = Exit.isSuccess(exit) && committedMsisdns(path).has(Fixtures.contact(2 * i + 1).msisdn)
            }))), { concurrency: "unbounded" }), grouped)
        const stored = committedMsisdns(path)
        outcomes.forEach((outcome, i) => {
          const exit = exits[i]
          expect(exit !== undefined && Exit.isSuccess(exit) ? exit.value : undefined).toBe(outcome === "commits" ? i : undefined)
          expect(stored.has(Fixtures.contact(2 * i).msisdn)).toBe(outcome === "commits")
          expect(stored.has(Fixtures.contact(2 * i + 1).msisdn)).toBe(outcome === "commits")
          expect(seenAtAnswer[i]).toBe(outcome === "commits")
        })
      }),
      { numRuns: 20 }
    )
  })

  it("commits concurrent transactions together, and one at a time those that do not overlap", async () => {
    const path = freshPath()
    const commits = await SqliteFiles.withStore(path, ({ contacts }) =>
      Effect.gen(function*() {
        const before = walCommits(path)
        yield* Effect.forEach(Array.from({ length: 50 }, (_, i) => i), (i) => contacts.insert(Fixtures.contact(i)), { concurrency: "unbounded" })
        const together = walCommits(path) - before
        for (let i = 50; i < 55; i++) yield* contacts.insert(Fixtures.contact(i))
        return { together, alone: walCommits(path) - before - together }
      }), grouped)
    expect(commits.together).toBeGreaterThanOrEqual(1)
    expect(commits.together).toBeLessThanOrEqual(5)
    expect(commits.alone).toBe(5)
    expect(committedMsisdns(path).size).toBe(55)
  })

  it("never holds more than its limit of transactions in one COMMIT", async () => {
    const path = freshPath()
    const commits = await SqliteFiles.withStore(path, ({ contacts }) =>
      Effect.gen(function*() {
        const before = walCommits(path)
        yield* Effect.forEach(Array.from({ length: 200 }, (_, i) => i), (i) => contacts.insert(Fixtures.contact(i)), { concurrency: "unbounded" })
        return walCommits(path) - before
      }), grouped)
    expect(commits).toBeGreaterThanOrEqual(Math.ceil(200 / 64))
    expect(committedMsisdns(path).size).toBe(200)
  })

  it("closing the store while a transaction runs keeps none of its writes", async () => {
    const path = freshPath()
    await SqliteFiles.withStore(path, ({ contacts }) =>
      Effect.gen(function*() {
        // A fiber the store's scope does not own (a library caller's), stopped half-way by the close.
        yield* Effect.forkDetach(contacts.transaction(Effect.andThen(contacts.insert(Fixtures.contact(1)), Effect.never)))
        yield* Effect.sleep("20 millis")
      }), grouped)
    expect(committedMsisdns(path).size).toBe(0)
  })

  it("a transaction waiting for the lock can be interrupted, as outside groups", async () => {
    const path = freshPath()
    const took = await SqliteFiles.withStore(path, ({ contacts }) =>
      Effect.gen(function*() {
        const holder = yield* Effect.forkChild(contacts.transaction(Effect.andThen(contacts.insert(Fixtures.contact(1)), Effect.sleep("3 seconds"))))
        yield* Effect.sleep("20 millis")
        const queued = yield* Effect.forkChild(contacts.insert(Fixtures.contact(2)))
        yield* Effect.sleep("20 millis")
        const started = performance.now()
        yield* Fiber.interrupt(queued)
        const took = performance.now() - started
        yield* Fiber.interrupt(holder)
        return took
      }), grouped)
    expect(took).toBeLessThan(1000)
  })

  it("rolls back an interrupted transaction alone, and nests a transaction in the one it runs in", async () => {
    const path = freshPath()
    await SqliteFiles.withStore(path, ({ contacts, messages }) =>
      Effect.gen(function*() {
        const stuck = yield* Effect.forkChild(contacts.transaction(Effect.andThen(contacts.insert(Fixtures.contact(1)), Effect.never)))
        const other = yield* Effect.forkChild(contacts.transaction(
          Effect.andThen(contacts.insert(Fixtures.contact(2)), messages.transaction(contacts.insert(Fixtures.contact(3))))
        ))
        yield* Effect.yieldNow
        yield* Fiber.interrupt(stuck)
        yield* Fiber.join(other)
        expect(Option.isNone(yield* contacts.get(Fixtures.contact(1).msisdn))).toBe(true)
      }), grouped)
    expect([...committedMsisdns(path)].sort()).toEqual([Fixtures.contact(2).msisdn, Fixtures.contact(3).msisdn].sort())
  })
})
