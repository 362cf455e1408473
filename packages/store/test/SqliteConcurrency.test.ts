/**
 * The SQLite adapter across connections and processes: transactions that roll back, serialise fibers
 * and wait for another connection's lock, and anti-spam that lets exactly one racing sender through.
 */
import { execFile } from "node:child_process"
import { DatabaseSync } from "node:sqlite"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { Fixtures } from "@smsbook/testing"
import { Deferred, Effect, Exit, Fiber, Option } from "effect"
import { describe, expect, it } from "vitest"
import * as SqliteStore from "../src/SqliteStore.ts"
import * as SqliteFiles from "./sqliteFiles.ts"

const freshPath = SqliteFiles.folder()
const withStore = SqliteFiles.withStore

/** Forks a transaction that inserts contact 1 and then runs `rest`; the fork is answered once the insert is made. */
const forkInsert = <A, E>(contacts: SqliteStore.Services["contacts"], rest: Effect.Effect<A, E>) =>
  Effect.gen(function*() {
    const inside = yield* Deferred.make<void>()
    const fiber = yield* Effect.forkChild(contacts.transaction(Effect.gen(function*() {
      yield* contacts.insert(Fixtures.contact(1))
      yield* Deferred.succeed(inside, undefined)
      return yield* rest
    })))
    yield* Deferred.await(inside)
    return fiber
  })

describe("transactions", () => {
  it("leave nothing behind when they fail, and everything when they succeed", async () => {
    await withStore(freshPath(), ({ contacts, messages }) =>
      Effect.gen(function*() {
        const failed = yield* Effect.exit(contacts.transaction(Effect.gen(function*() {
          yield* contacts.write({ insert: [Fixtures.contact(1), Fixtures.contact(2)], update: [] })
          yield* messages.insert(Fixtures.nthMessage(1))
          yield* messages.transaction(contacts.insert(Fixtures.contact(3)))
          return yield* Effect.fail("stop")
        })))
        expect(failed).toEqual(Exit.fail("stop"))
        expect(yield* contacts.count).toBe(0)
        expect(yield* messages.get(Fixtures.nthMessage(1).message_id)).toEqual(Option.none())
        yield* messages.transaction(Effect.gen(function*() {
          yield* contacts.insert(Fixtures.contact(1))
          yield* messages.insert(Fixtures.nthMessage(1))
        }))
        expect(yield* contacts.count).toBe(1)
      }))
  })

  it("roll back when interrupted", async () => {
    await withStore(freshPath(), ({ contacts }) =>
      Effect.gen(function*() {
        const fiber = yield* forkInsert(contacts, Effect.never)
        yield* Fiber.interrupt(fiber)
        expect(yield* contacts.count).toBe(0)
        yield* contacts.insert(Fixtures.contact(2))
        expect(yield* contacts.count).toBe(1)
      }))
  })

  it("serialise fibers: a read outside never sees another fiber's uncommitted writes", async () => {
    await withStore(freshPath(), ({ contacts }) =>
      Effect.gen(function*() {
        const release = yield* Deferred.make<void>()
        const writer = yield* forkInsert(contacts, Effect.andThen(Deferred.await(release), Effect.fail("abort")))
        const reader = yield* Effect.forkChild(contacts.count)
        yield* Deferred.succeed(release, undefined)
        expect(yield* Fiber.join(reader)).toBe(0)
        expect(yield* Effect.exit(Fiber.join(writer))).toEqual(Exit.fail("abort"))
      }))
  })

  it("wait for another connection's transaction without blocking the event loop, then fail after busyTimeout", async () => {
    const path = freshPath()
    await withStore(path, () => Effect.void)
    const holder = new DatabaseSync(path)
    holder.exec("BEGIN IMMEDIATE")
    let ticks = 0
    const ticker = setInterval(() => ticks++, 1)
    const failure = await withStore(path, ({ contacts }) => Effect.flip(contacts.insert(Fixtures.contact(1))), { busyTimeout: 100 })
    clearInterval(ticker)
    expect(failure).toMatchObject({ _tag: "StoreFailure", operation: "transaction" })
    expect(ticks).toBeGreaterThan(0)
    setTimeout(() => holder.exec("COMMIT"), 20)
    const count = await withStore(path, ({ contacts }) =>
      Effect.andThen(contacts.insert(Fixtures.contact(1)), contacts.count), { busyTimeout: 10_000 })
    expect(count).toBe(1)
    holder.close()
  })
})

describe("reads while a write waits for another connection's lock", () => {
  it.each([["one transaction at a time", false], ["group commit", true]] as const)(
    "answer at once (%s): the waiting write does not hold the connection",
    async (_, groupCommit) => {
      const path = freshPath()
      await withStore(path, ({ contacts }) => contacts.insert(Fixtures.contact(1)))
      const holder = new DatabaseSync(path)
      holder.exec("BEGIN IMMEDIATE")
      try {
        await withStore(path, ({ contacts }) =>
          Effect.gen(function*() {
            const write = yield* Effect.forkChild(contacts.insert(Fixtures.contact(2)))
            yield* Effect.sleep("50 millis")
            // The other connection still holds its lock (released below only): the reads must not queue behind the write.
            const reads = yield* Effect.forkChild(Effect.all([contacts.count, contacts.get(Fixtures.contact(1).msisdn)]))
            const answered = yield* Fiber.join(reads).pipe(Effect.timeoutOption("5 seconds"))
            holder.exec("COMMIT")
            expect(Option.map(answered, ([count, found]) => [count, Option.isSome(found)])).toEqual(Option.some([1, true]))
            yield* Fiber.join(write)
            expect(yield* contacts.count).toBe(2)
          }), { busyTimeout: 60_000, groupCommit })
      } finally {
        if (holder.isTransaction) holder.exec("ROLLBACK")
        holder.close()
      }
    }
  )
})

describe("anti-spam across connections", () => {
  it("lets exactly one of two connections racing with the same id insert", async () => {
    const path = freshPath()
    const settle = <A, E>(effect: Effect.Effect<A, E>) =>
      Effect.match(effect, { onSuccess: () => "inserted" as const, onFailure: (error) => error })
    await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
      const a = yield* SqliteStore.make(path)
      const b = yield* SqliteStore.make(path)
      for (let round = 0; round < 20; round++) {
        const id = `race-${round}`
        const antiSpam = { id, since: 0 }
        // A holds its write transaction across a yield while B tries: B must wait, then see A's row.
        const results = yield* Effect.all([
          settle(a.messages.transaction(Effect.andThen(
            a.messages.insert(Fixtures.nthMessage(2 * round, { id }), antiSpam),
            Effect.yieldNow
          ))),
          settle(b.messages.insert(Fixtures.nthMessage(2 * round + 1, { id }), antiSpam))
        ], { concurrency: "unbounded" })
        expect(results.filter((result) => result === "inserted")).toHaveLength(1)
        expect(results.find((result) => result !== "inserted")).toMatchObject({ _tag: "DuplicateSend", id })
      }
    })))
  })

  it("lets exactly one of several processes creating the file and inserting the same id at once succeed", async () => {
    const path = freshPath()
    const store = fileURLToPath(new URL("../src/SqliteStore.ts", import.meta.url))
    const script = `
      import { Effect } from "effect"
      import * as SqliteStore from ${JSON.stringify(store)}
      const [path, messageId] = process.argv.slice(-2)
      const message = { ...${JSON.stringify(Fixtures.message("", { id: "same" }))}, message_id: messageId, created_at: Date.now() }
      const result = await Effect.runPromise(Effect.scoped(Effect.flatMap(SqliteStore.make(path),
        ({ messages }) => Effect.match(messages.insert(message, { id: "same", since: 0 }),
          { onSuccess: () => "inserted", onFailure: (error) => error._tag }))))
      console.log(result)
    `
    const exec = promisify(execFile)
    const root = fileURLToPath(new URL("../../..", import.meta.url))
    const results = await Promise.all(Array.from({ length: 4 }, (_, i) =>
      exec(process.execPath, ["--input-type=module", "-e", script, "--", path, `proc-${i}`], { cwd: root })
    ))
    const outputs = results.map(({ stdout }) => stdout.trim()).sort()
    expect(outputs).toEqual(["DuplicateSend", "DuplicateSend", "DuplicateSend", "inserted"])
  })

  it("lets several processes open a new book at the same moment: each waits for the switch to WAL, none is refused", async () => {
    const store = fileURLToPath(new URL("../src/SqliteStore.ts", import.meta.url))
    // Each process loads first, then opens the book at the moment given, so that they meet in the switch to WAL.
    const script = `
      import { Effect } from "effect"
      import * as SqliteStore from ${JSON.stringify(store)}
      const [path, startAt] = process.argv.slice(-2)
      while (Date.now() < Number(startAt)) {}
      const result = await Effect.runPromise(Effect.scoped(Effect.flatMap(SqliteStore.make(path), ({ contacts }) => contacts.count)).pipe(
        Effect.match({ onSuccess: () => "opened", onFailure: (error) => error.message })))
      console.log(result)
    `
    const exec = promisify(execFile)
    const root = fileURLToPath(new URL("../../..", import.meta.url))
    for (let round = 0; round < 4; round++) {
      const path = freshPath()
      const startAt = String(Date.now() + 3000)
      const results = await Promise.all(Array.from({ length: 3 }, () =>
        exec(process.execPath, ["--input-type=module", "-e", script, "--", path, startAt], { cwd: root })
      ))
      expect(results.map(({ stdout }) => stdout.trim()), `round ${round}`).toEqual(["opened", "opened", "opened"])
    }
  }, 120_000)
})
