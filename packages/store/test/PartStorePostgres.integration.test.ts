/**
 * The dispatcher's queue on a real PostgreSQL (SMSBOOK_TEST_POSTGRES_URL): its own pool waits for a lock another
 * transaction holds at most the store's lock wait (`--wait`), as the store's pool does.
 */
import { PgClient } from "@effect/sql-pg"
import { Account, Messaging, PartQueue } from "@smsbook/core"
import { PostgresSchema } from "@smsbook/testing"
import { Deferred, Effect, Exit, Layer, ManagedRuntime, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, describe, expect, it } from "vitest"
import * as PartStore from "../src/PartStore.ts"
import * as PostgresStore from "../src/PostgresStore.ts"

const serverUrl = process.env["SMSBOOK_TEST_POSTGRES_URL"] || undefined

const schemas: Array<PostgresSchema.Throwaway> = []
afterAll(async () => {
  for (const schema of schemas) await schema.drop()
})

describe.skipIf(serverUrl === undefined)("the dispatcher's queue on PostgreSQL", () => {
  it("waits for a part another transaction holds at most the lock wait (--wait), then fails naming it", async () => {
    const schema = await PostgresSchema.make(serverUrl ?? "", "queue")
    schemas.push(schema)
    const book = ManagedRuntime.make(Layer.mergeAll(
      PostgresStore.layer(schema.url),
      PartStore.layer(schema.url, { lockWait: "300 millis" }),
      Account.layer({ ...Account.defaults, short_name: "Shop" })
    ))
    const holder = ManagedRuntime.make(PgClient.layer({ url: Redacted.make(schema.url) }))
    try {
      await book.runPromise(Messaging.sendNow({ msisdn: "447400900000", message: "hello" }))
      const queue = await book.runPromise(Effect.service(PartQueue.PartQueue))
      const { parts } = await book.runPromise(queue.claim("d", 10, 0, 60_000))
      expect(parts).toHaveLength(1)
      const locked = await holder.runPromise(Deferred.make<void>())
      const done = await holder.runPromise(Deferred.make<void>())
      const held = holder.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) =>
        sql.withTransaction(Effect.andThen(sql`SELECT seq FROM outbox FOR UPDATE`, Effect.andThen(Deferred.succeed(locked, undefined), Deferred.await(done))))))
      await holder.runPromise(Deferred.await(locked))
      // Still waiting after 10 s is the defect: the lock is let go then, and the release goes through.
      const exit = await Promise.race([
        book.runPromiseExit(queue.release(parts.map((part) => part.seq))),
        new Promise<string>((resume) => setTimeout(() => resume("still waiting after 10 s"), 10_000))
      ]).finally(() => holder.runPromise(Deferred.succeed(done, undefined)))
      await held
      expect(typeof exit === "string" ? exit : Exit.isFailure(exit) ? String(exit.cause) : "succeeded")
        .toMatch(/StoreFailure[\s\S]*lock wait \(--wait\)/)
    } finally {
      await holder.dispose()
      await book.dispose()
    }
  }, 30_000)
})
