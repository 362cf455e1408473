/**
 * API keys in a PostgreSQL store: the `api_keys` table of migration 2, on a small pool of its own
 * (keys are read once per request and written by hand).
 */
import { PgClient } from "@effect/sql-pg"
import { Clock, Effect, Layer, Option, Redacted, Schema } from "effect"
import { Reactivity } from "effect/reactivity"
import { SqlClient, SqlError } from "effect/sql"
import { StoreUnavailable } from "@smsbook/core"
import * as ApiKeyStore from "../../ApiKeyStore.ts"
import * as PostgresMigrations from "./migrations.ts"
import { attempt, describeError, NumberFromInt8, rowsDecoder } from "./connection.ts"
import { redactUrl, scrub } from "../urlSecrets.ts"

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

/** The key store of the PostgreSQL database at `url`, migrated on start; the pool closes with the layer. */
export const layer = (url: string): Layer.Layer<ApiKeyStore.ApiKeyStore, StoreUnavailable> =>
  Layer.effect(
    ApiKeyStore.ApiKeyStore,
    Effect.gen(function*() {
      const sql = yield* PgClient.make({ url: Redacted.make(url), maxConnections: 2, connectTimeout: "5 seconds" })
      yield* PostgresMigrations.run.pipe(Effect.provideService(SqlClient.SqlClient, sql))
      return make(sql)
    }).pipe(
      Effect.provide(Reactivity.layer),
      Effect.provideService(Clock.Clock, Clock.Clock.defaultValue()),
      Effect.mapError((error) =>
        new StoreUnavailable({
          url: redactUrl(url),
          reason: scrub(url, SqlError.isSqlError(error) ? describeError(error) : error.message)
        })
      )
    )
  )
