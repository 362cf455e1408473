/**
 * The stores the HTTP tests run over: a fresh SQLite file always, a fresh PostgreSQL schema when
 * SMSBOOK_TEST_POSTGRES_URL names a server (scripts/postgres.sh); each removed by `drop`.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { PgClient } from "@effect/sql-pg"
import { Effect, ManagedRuntime, Redacted } from "effect"
import { SqlClient } from "effect/sql"

export interface TestStore {
  readonly url: string
  readonly drop: () => Promise<void>
}

export const postgresUrl = process.env["SMSBOOK_TEST_POSTGRES_URL"] ?? ""
export const kinds: ReadonlyArray<"sqlite" | "postgres"> = postgresUrl === "" ? ["sqlite"] : ["sqlite", "postgres"]
if (postgresUrl === "") console.warn("PostgreSQL HTTP tests skipped: set SMSBOOK_TEST_POSTGRES_URL (scripts/postgres.sh start)")

const sqlite = (): TestStore => {
  const dir = mkdtempSync(join(tmpdir(), "smsbook-http-"))
  return { url: join(dir, "book.db"), drop: async () => rmSync(dir, { recursive: true, force: true }) }
}

const postgres = async (): Promise<TestStore> => {
  const admin = ManagedRuntime.make(PgClient.layer({ url: Redacted.make(postgresUrl) }))
  const schema = `smsbook_http_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
  await admin.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`CREATE SCHEMA ${sql(schema)}`))
  const url = new URL(postgresUrl)
  url.searchParams.set("options", `-c search_path=${schema}`)
  return {
    url: url.href,
    drop: async () => {
      await admin.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`DROP SCHEMA ${sql(schema)} CASCADE`))
      await admin.dispose()
    }
  }
}

export const fresh = (kind: "sqlite" | "postgres"): Promise<TestStore> => kind === "sqlite" ? Promise.resolve(sqlite()) : postgres()
