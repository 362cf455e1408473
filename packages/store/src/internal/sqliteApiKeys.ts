/**
 * API keys in a SQLite store file, on a connection of their own (WAL lets it sit beside the
 * store's): the `api_keys` table of migration 2.
 */
import { Effect, Layer, Option, Result } from "effect"
import { StoreFailure, StoreUnavailable } from "@smsbook/core"
import * as ApiKeyStore from "../ApiKeyStore.ts"
import * as SqliteMigrations from "../SqliteMigrations.ts"
import * as Connection from "./sqliteConnection.ts"
import * as Rows from "./sqliteRows.ts"

const columns = "id, name, hash, created_at, revoked_at"

const rowOf = (row: Rows.Row): ApiKeyStore.Row => ({
  id: Rows.text(row, "id"),
  name: Rows.text(row, "name"),
  hash: Rows.text(row, "hash"),
  created_at: Rows.number(row, "created_at"),
  revoked_at: row["revoked_at"] === null || row["revoked_at"] === undefined ? undefined : Rows.number(row, "revoked_at")
})

const open = (path: string) =>
  Effect.try({
    try: () => Connection.open(path, 5000),
    catch: (error) => new StoreUnavailable({ url: path, reason: Connection.reasonOf(error) })
  }).pipe(
    Effect.flatMap((connection) => {
      const migrated = SqliteMigrations.migrate(connection.db)
      if (Result.isSuccess(migrated)) return Effect.succeed(connection)
      connection.close()
      return Effect.fail(new StoreUnavailable({ url: path, reason: migrated.failure.reason }))
    })
  )

/** The key store of the SQLite file at `path` (created and migrated if needed), closed with the layer. */
export const layer = (path: string): Layer.Layer<ApiKeyStore.ApiKeyStore, StoreUnavailable> =>
  Layer.effect(
    ApiKeyStore.ApiKeyStore,
    Effect.map(Effect.acquireRelease(open(path), (connection) => Effect.sync(connection.close)), ({ statement }) => {
      const attempt = <A>(operation: string, run: () => A) =>
        Effect.try({ try: run, catch: (error) => new StoreFailure({ operation, reason: Connection.reasonOf(error) }) })
      return ApiKeyStore.make({
        insert: (row) =>
          attempt("apiKeys.insert", () =>
            void statement(`INSERT INTO api_keys (${columns}) VALUES (?, ?, ?, ?, ?)`)
              .run(row.id, row.name, row.hash, row.created_at, row.revoked_at ?? null)),
        all: attempt("apiKeys.list", () =>
          statement(`SELECT ${columns} FROM api_keys ORDER BY created_at, rowid`).all().map(rowOf)),
        revoke: (id, at) =>
          attempt("apiKeys.revoke", () => {
            const row = statement(
              `UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE id = ? RETURNING ${columns}`
            ).get(at, id)
            return row === undefined ? Option.none() : Option.some(rowOf(row))
          }),
        byHash: (hash) =>
          attempt("apiKeys.verify", () => {
            const row = statement(`SELECT ${columns} FROM api_keys WHERE hash = ?`).get(hash)
            return row === undefined ? Option.none() : Option.some(rowOf(row))
          })
      })
    })
  )
