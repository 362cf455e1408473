/**
 * The core's port contract suite against the PostgreSQL adapter on a real server
 * (SMSBOOK_TEST_POSTGRES_URL, see scripts/postgres.sh): every test and property run in its own schema.
 */
import { PgClient } from "@effect/sql-pg"
import { ContractSuite } from "@smsbook/testing"
import { Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, describe, it } from "vitest"
import * as PostgresStore from "../src/PostgresStore.ts"

const baseUrl = process.env["SMSBOOK_TEST_POSTGRES_URL"] ?? ""
const skipMessage = "PostgreSQL tests skipped: set SMSBOOK_TEST_POSTGRES_URL (scripts/postgres.sh start)"

if (baseUrl === "") {
  console.warn(skipMessage)
  describe("contract: postgres", () => {
    it.skip(skipMessage, () => {})
  })
} else {
  const admin = ManagedRuntime.make(PgClient.layer({ url: Redacted.make(baseUrl) }))
  const schemas: Array<string> = []
  afterAll(async () => {
    await admin.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) =>
      Effect.forEach(schemas, (schema) => sql`DROP SCHEMA ${sql(schema)} CASCADE`, { discard: true })))
    await admin.dispose()
  })

  /** A store in a new, empty schema; pages of 3 rows so every stream crosses pages. */
  const freshStore = () =>
    Layer.unwrap(Effect.gen(function*() {
      const schema = `smsbook_contract_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
      yield* Effect.promise(() => admin.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`CREATE SCHEMA ${sql(schema)}`)))
      schemas.push(schema)
      const url = new URL(baseUrl)
      url.searchParams.set("options", `-c search_path=${schema}`)
      return PostgresStore.layer(url.href, { pageSize: 3 })
    }))

  ContractSuite.run("postgres", freshStore, { numRuns: 15 })
}
