/**
 * PostgresSchema: a throwaway schema on the test server, so each test file gets an empty book of its own
 * on one PostgreSQL and leaves nothing behind.
 */
import { PgClient } from "@effect/sql-pg"
import { Effect, ManagedRuntime, Redacted } from "effect"
import { SqlClient } from "effect/sql"

/** A schema made for one test: the store URL whose search path is it, and how to drop it. */
export interface Throwaway {
  readonly url: string
  readonly drop: () => Promise<void>
}

/** Makes a fresh schema named `smsbook_<label>_…` on the server at `serverUrl`. */
export const make = async (serverUrl: string, label: string): Promise<Throwaway> => {
  const admin = ManagedRuntime.make(PgClient.layer({ url: Redacted.make(serverUrl) }))
  const schema = `smsbook_${label}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
  await admin.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`CREATE SCHEMA ${sql(schema)}`))
  const url = new URL(serverUrl)
  url.searchParams.set("options", `-c search_path=${schema}`)
  return {
    url: url.href,
    drop: async () => {
      await admin.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`DROP SCHEMA ${sql(schema)} CASCADE`))
      await admin.dispose()
    }
  }
}
