/**
 * The writers lock of a PostgreSQL book (SMSBOOK_TEST_POSTGRES_URL): a set of opt-outs being applied holds it, a new
 * contact waits for it at most the store's `lockWait` and without holding a connection of the pool, and a book in
 * another schema of the database never waits.
 */
import { Account, ContactStore, Messaging, MessageStore } from "@smsbook/core"
import { Fixtures, PostgresSchema } from "@smsbook/testing"
import { Deferred, Effect, Exit, Layer, ManagedRuntime } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import * as PostgresStore from "../src/PostgresStore.ts"

const serverUrl = process.env["SMSBOOK_TEST_POSTGRES_URL"] || undefined

const schemas: Array<PostgresSchema.Throwaway> = []
afterAll(async () => {
  for (const schema of schemas) await schema.drop()
})

const freshBook = async (): Promise<string> => {
  const schema = await PostgresSchema.make(serverUrl ?? "", "writers")
  schemas.push(schema)
  return schema.url
}

const store = (url: string, options?: PostgresStore.Options) => ManagedRuntime.make(PostgresStore.layer(url, options))

/** Runs `use` with a store on `url`, disposed after. */
const withStore = async <A>(
  url: string,
  options: PostgresStore.Options,
  use: (runtime: ReturnType<typeof store>) => Promise<A>
): Promise<A> => {
  const runtime = store(url, options)
  try {
    return await use(runtime)
  } finally {
    await runtime.dispose()
  }
}

/** An exit's failure as text, to match the lock wait's refusal against. */
const failure = (exit: Exit.Exit<unknown, unknown>): string => Exit.isFailure(exit) ? String(exit.cause) : "succeeded"
const lockWaitRefusal = /StoreFailure[\s\S]*lock wait \(--wait\)/

/** Runs `during` while the book at `url` holds a set of opt-outs applied and uncommitted (its writers lock held). */
const whileOptOutsHeld = async <A>(url: string, during: () => Promise<A>): Promise<A> => {
  const holder = store(url)
  try {
    const applied = await holder.runPromise(Deferred.make<void>())
    const release = await holder.runPromise(Deferred.make<void>())
    const held = holder.runPromise(Effect.flatMap(ContactStore.ContactStore, (contacts) =>
      contacts.transaction(Effect.andThen(contacts.cancel([Fixtures.msisdn(7)]), Effect.andThen(Deferred.succeed(applied, undefined), Deferred.await(release))))))
    await holder.runPromise(Deferred.await(applied))
    const result = await during().finally(() => holder.runPromise(Deferred.succeed(release, undefined)))
    await held
    return result
  } finally {
    await holder.dispose()
  }
}

const count = Effect.flatMap(ContactStore.ContactStore, (contacts) => contacts.count)

/** Whether `read` answers within 10 s, while the set of opt-outs is held (it waited for the set's end otherwise). */
const answersWhileHeld = (read: Promise<unknown>): Promise<boolean> =>
  Promise.race([read.then(() => true), new Promise<boolean>((resume) => setTimeout(() => resume(false), 10_000))])

const insert = (n: number) => Effect.flatMap(ContactStore.ContactStore, (contacts) => contacts.insert(Fixtures.contact(n)))

describe.skipIf(serverUrl === undefined)("the writers lock (PostgreSQL)", () => {
  it("a new contact waiting for a set of opt-outs longer than lockWait fails (STORE_FAILURE naming the wait) and writes nothing", async () => {
    const url = await freshBook()
    await withStore(url, { lockWait: "300 millis" }, async (waiter) => {
      const started = Date.now()
      const exit = await whileOptOutsHeld(url, () => waiter.runPromiseExit(insert(8)))
      expect(failure(exit)).toMatch(lockWaitRefusal)
      expect(Date.now() - started).toBeLessThan(10_000)
      expect(await waiter.runPromise(count)).toBe(0)
    })
  })

  it("lockWait bounds the whole wait of a new contact: for a permit to queue, then in the lock's queue", async () => {
    const url = await freshBook()
    // One permit (a pool of 3 keeps 2): the second creation waits for it, then in the queue, within one lock wait.
    await withStore(url, { maxConnections: 3, lockWait: "2 seconds" }, async (waiter) => {
      const ended = await whileOptOutsHeld(url, async () => {
        const first = waiter.runPromiseExit(insert(8))
        await new Promise((resume) => setTimeout(resume, 150))
        const started = Date.now()
        const second = await waiter.runPromiseExit(insert(9))
        await first
        return { second, waited: Date.now() - started }
      })
      expect(failure(ended.second)).toMatch(lockWaitRefusal)
      // Each wait bounded on its own, it waited for the first's 2 s and then 2 s more.
      expect(ended.waited).toBeLessThan(3_000)
    })
  })

  it("a lockWait of 0 fails at once, as on SQLite: PostgreSQL's lock_timeout of 0 would have meant no limit", async () => {
    const url = await freshBook()
    await withStore(url, { lockWait: 0 }, async (waiter) => {
      const started = Date.now()
      const cancel = Effect.flatMap(ContactStore.ContactStore, (contacts) => contacts.cancel([Fixtures.msisdn(9)]))
      const exits: ReadonlyArray<Exit.Exit<unknown, unknown>> = await whileOptOutsHeld(url, () =>
        Promise.all<Exit.Exit<unknown, unknown>>([waiter.runPromiseExit(insert(8)), waiter.runPromiseExit(cancel)]))
      for (const exit of exits) expect(failure(exit)).toMatch(lockWaitRefusal)
      expect(Date.now() - started).toBeLessThan(10_000)
    })
  })

  it("new contacts waiting for the lock hold no connection: with the pool's every connection's worth of them waiting, a read answers", async () => {
    const url = await freshBook()
    await withStore(url, { maxConnections: 3, lockWait: "60 seconds" }, async (waiter) => {
      const created = await whileOptOutsHeld(url, async () => {
        const waiting = Array.from({ length: 8 }, (_, i) => waiter.runPromiseExit(insert(100 + i)))
        // A blocking wait for the lock held a connection each: the read then waited for the pool until the set ended.
        expect(await answersWhileHeld(waiter.runPromise(count))).toBe(true)
        return waiting
      })
      const exits = await Promise.all(created)
      expect(exits.filter(Exit.isSuccess)).toHaveLength(8)
      expect(await waiter.runPromise(count)).toBe(8)
    })
  })

  it("an inbound STOP from a new number waits without a connection too: its transaction runs again, queued", async () => {
    const url = await freshBook()
    const receiver = ManagedRuntime.make(Layer.mergeAll(
      PostgresStore.layer(url, { maxConnections: 3, lockWait: "60 seconds" }),
      Account.layer({ ...Account.defaults, short_name: "ACME" })
    ))
    try {
      const senders = Array.from({ length: 6 }, (_, i) => Fixtures.msisdn(200 + i))
      const received = await whileOptOutsHeld(url, async () => {
        const waiting = senders.map((sender) => receiver.runPromiseExit(Messaging.receiveMessage(`+${sender}`, "STOP")))
        // Each message's transaction held a connection while its new sender waited: the read waited for the set.
        expect(await answersWhileHeld(receiver.runPromise(count))).toBe(true)
        return waiting
      })
      expect((await Promise.all(received)).filter(Exit.isSuccess)).toHaveLength(senders.length)
      // Every STOP is recorded once, and every sender ends CANCELLED with its number suppressed.
      const [messages, contacts, suppressed] = await receiver.runPromise(Effect.all([
        Effect.flatMap(MessageStore.MessageStore, (store) => store.list({ limit: 100, start: 0 })),
        Effect.flatMap(ContactStore.ContactStore, (store) => store.getMany(senders)),
        Effect.flatMap(ContactStore.ContactStore, (store) => store.suppressed(senders))
      ]))
      expect(messages.filter((message) => message.direction === "MO")).toHaveLength(senders.length)
      expect([...contacts.values()].map((contact) => contact.status)).toEqual(senders.map(() => "CANCELLED"))
      expect([...suppressed].sort()).toEqual([...senders].sort())
    } finally {
      await receiver.dispose()
    }
  })

  it("a new contact gets in between batch writers that take turns: it queues in PostgreSQL's lock queue, not behind all of them", async () => {
    const url = await freshBook()
    const writers = [store(url), store(url)]
    const creator = store(url, { lockWait: "5 seconds" })
    const pause = Effect.promise(() => new Promise<void>((resume) => setTimeout(resume, 150)))
    let writing = true
    try {
      // Two loaders of opt-out sets, each holding the writers lock 150 ms, one after the other without a gap.
      const loops = writers.map((writer, k) => (async () => {
        for (let i = 0; writing; i++) {
          await writer.runPromise(Effect.flatMap(ContactStore.ContactStore, (contacts) =>
            contacts.transaction(Effect.andThen(contacts.cancel([Fixtures.msisdn(1000 * (k + 1) + i)]), pause))))
        }
      })())
      await new Promise((resume) => setTimeout(resume, 300))
      // Asking without waiting never finds the lock free while they take turns; the queue lets it in between two.
      const created = await creator.runPromiseExit(insert(5))
      writing = false
      await Promise.all(loops)
      expect(Exit.isSuccess(created)).toBe(true)
    } finally {
      writing = false
      for (const runtime of [...writers, creator]) await runtime.dispose()
    }
  })

  it("the lock is the book's: a book in another schema of the database creates contacts while it is held", async () => {
    const [one, other] = [await freshBook(), await freshBook()]
    const neighbour = store(other, { lockWait: "2 seconds" })
    try {
      // With one lock for the whole database, this waited for the other book's set and failed after lockWait.
      const created = await whileOptOutsHeld(one, () => neighbour.runPromiseExit(insert(7)))
      expect(Exit.isSuccess(created) && created.value.status).toBe("SUBSCRIBED")
    } finally {
      await neighbour.dispose()
    }
  })
})
