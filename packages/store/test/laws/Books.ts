/**
 * The SQLite and PostgreSQL books of the reliability laws (the laws live in @smsbook/testing): a fresh store
 * reached through separate connections, store layers on one SQLite file or pools on one PostgreSQL schema.
 */
import { PgClient } from "@effect/sql-pg"
import { Laws } from "@smsbook/testing"
import { Effect, ManagedRuntime, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as PostgresStore from "../../src/PostgresStore.ts"
import * as SqliteStore from "../../src/SqliteStore.ts"

/** SQLite: every connection a store of its own on one new file, as separate processes would be (servers' group commit on request). */
export const sqlite = (options: Pick<SqliteStore.Options, "groupCommit"> = {}): Laws.Kind => {
  const dir = mkdtempSync(join(tmpdir(), "smsbook-laws-"))
  let files = 0
  return {
    name: options.groupCommit === true ? "sqlite with group commit" : "sqlite",
    open: (count) => {
      const path = join(dir, `book-${files++}.db`)
      return Effect.forEach(Array.from({ length: count }), () => SqliteStore.make(path, { ...options, lockWait: "30 seconds" }))
    },
    dispose: async () => rmSync(dir, { recursive: true, force: true })
  }
}

/** The PostgreSQL server of the tests, or undefined when SMSBOOK_TEST_POSTGRES_URL is not set. */
export const postgresUrl: string | undefined = process.env["SMSBOOK_TEST_POSTGRES_URL"] || undefined

/** PostgreSQL: every connection a pool of its own on one new schema. */
export const postgres = (baseUrl: string): Laws.Kind => {
  const admin = ManagedRuntime.make(PgClient.layer({ url: Redacted.make(baseUrl) }))
  const schemas: Array<string> = []
  const adminSql = <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) =>
    Effect.promise(() => admin.runPromise(Effect.flatMap(SqlClient.SqlClient, f)))
  return {
    name: "postgres",
    open: (count) =>
      Effect.gen(function*() {
        const schema = `smsbook_laws_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
        yield* adminSql((sql) => sql`CREATE SCHEMA ${sql(schema)}`)
        schemas.push(schema)
        const url = new URL(baseUrl)
        url.searchParams.set("options", `-c search_path=${schema}`)
        // The first opens alone, so the migrations run once before the others connect.
        const first = yield* PostgresStore.make(url.href, { maxConnections: 4 })
        const others = yield* Effect.forEach(
          Array.from({ length: count - 1 }),
          () => PostgresStore.make(url.href, { maxConnections: 4 }),
          { concurrency: "unbounded" }
        )
        return [first, ...others]
      }),
    dispose: async () => {
      await admin.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) =>
        Effect.forEach(schemas, (schema) => sql`DROP SCHEMA ${sql(schema)} CASCADE`, { discard: true })))
      await admin.dispose()
    }
  }
}
