/**
 * API keys in a PostgreSQL store: the `api_keys` table of migration 3, on the store's own pool
 * (keys are read about once a second by a busy server and written by hand).
 */
import { Effect, Option, Schema } from "effect"
import type { SqlClient } from "effect/sql"
import * as ApiKeyStore from "../../ApiKeyStore.ts"
import { attempt, NumberFromInt8, rowsDecoder } from "./connection.ts"

const KeyRow = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  hash: Schema.String,
  created_at: NumberFromInt8,
  revoked_at: Schema.NullOr(NumberFromInt8)
})

const decodeRows = rowsDecoder(KeyRow)

const toRow = (row: typeof KeyRow.Type): ApiKeyStore.Row => ({ ...row, revoked_at: row.revoked_at ?? undefined })

const first = (rows: ReadonlyArray<typeof KeyRow.Type>) => Option.map(Option.fromNullishOr(rows[0]), toRow)

/** The key store over `sql`. */
export const make = (sql: SqlClient.SqlClient): ApiKeyStore.ApiKeyStore["Service"] =>
  ApiKeyStore.make({
    insert: (row) =>
      sql`INSERT INTO api_keys (id, name, hash, created_at, revoked_at)
        VALUES (${row.id}, ${row.name}, ${row.hash}, ${row.created_at}, ${row.revoked_at ?? null})`.pipe(
        Effect.asVoid,
        attempt("apiKeys.insert")
      ),
    all: sql`SELECT id, name, hash, created_at, revoked_at FROM api_keys ORDER BY created_at, seq`.pipe(
      Effect.flatMap(decodeRows("apiKeys.list")),
      Effect.map((rows) => rows.map(toRow)),
      attempt("apiKeys.list")
    ),
    revoke: (id, at) =>
      sql`UPDATE api_keys SET revoked_at = coalesce(revoked_at, ${at}) WHERE id = ${id}
        RETURNING id, name, hash, created_at, revoked_at`.pipe(
        Effect.flatMap(decodeRows("apiKeys.revoke")),
        Effect.map(first),
        attempt("apiKeys.revoke")
      ),
    byHash: (hash) =>
      sql`SELECT id, name, hash, created_at, revoked_at FROM api_keys WHERE hash = ${hash}`.pipe(
        Effect.flatMap(decodeRows("apiKeys.verify")),
        Effect.map(first),
        attempt("apiKeys.verify")
      )
  })
