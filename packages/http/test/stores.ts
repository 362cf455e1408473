/**
 * The stores the HTTP tests run over: a fresh SQLite file always, a fresh PostgreSQL schema when
 * SMSBOOK_TEST_POSTGRES_URL names a server (scripts/postgres.sh); each removed by `drop`.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as ApiKeyStore from "@smsbook/store/ApiKeyStore"
import * as Store from "@smsbook/store/Store"
import { PostgresSchema } from "@smsbook/testing"
import { Effect, ManagedRuntime, Redacted } from "effect"

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

const postgres = (): Promise<TestStore> => PostgresSchema.make(postgresUrl, "http")

export const fresh = (kind: "sqlite" | "postgres"): Promise<TestStore> => kind === "sqlite" ? Promise.resolve(sqlite()) : postgres()

/** A live API key named `name` in the book at `url`: its secret, as a client sends it. */
export const createKey = async (url: string, name: string): Promise<string> => {
  const book = ManagedRuntime.make(Store.layer(url))
  try {
    return Redacted.value((await book.runPromise(Effect.flatMap(Effect.service(ApiKeyStore.ApiKeyStore), (keys) => keys.create(name)))).secret)
  } finally {
    await book.dispose()
  }
}
