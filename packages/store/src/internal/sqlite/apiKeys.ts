/**
 * API keys in a SQLite store file (the `api_keys` table of migration 2), on a connection of their
 * own: WAL lets it sit beside the store's, and keys are read once per request and written by hand.
 */
import { Effect, Layer, Option } from "effect"
import type { StoreUnavailable } from "@smsbook/core"
import * as ApiKeyStore from "../../ApiKeyStore.ts"
import * as Connection from "./connection.ts"
import * as Migrations from "./migrations.ts"
import * as Rows from "./rows.ts"

const columns = "id, name, hash, created_at, revoked_at"

const sql = {
  insert: `INSERT INTO api_keys (${columns}) VALUES (?, ?, ?, ?, ?)`,
  all: `SELECT ${columns} FROM api_keys ORDER BY created_at, rowid`,
  revoke: `UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE id = ? RETURNING ${columns}`,
  byHash: `SELECT ${columns} FROM api_keys WHERE hash = ?`
} as const

const rowOf = (row: Rows.Row): ApiKeyStore.Row => ({
  id: Rows.text(row, "id"),
  name: Rows.text(row, "name"),
  hash: Rows.text(row, "hash"),
  created_at: Rows.number(row, "created_at"),
  revoked_at: row["revoked_at"] === null || row["revoked_at"] === undefined ? undefined : Rows.number(row, "revoked_at")
})

/** The key store over an open, migrated file. */
export const make = (db: Connection.Database): ApiKeyStore.ApiKeyStore["Service"] =>
  ApiKeyStore.make({
    insert: (row) =>
      db.write("apiKeys.insert", () => void db.statement(sql.insert).run(row.id, row.name, row.hash, row.created_at, row.revoked_at ?? null)),
    all: db.read("apiKeys.list", () => db.statement(sql.all).all().map(rowOf)),
    revoke: (id, at) =>
      db.write("apiKeys.revoke", () => Option.map(Option.fromNullishOr(db.statement(sql.revoke).get(at, id)), rowOf)),
    byHash: (hash) => db.read("apiKeys.verify", () => Option.map(Option.fromNullishOr(db.statement(sql.byHash).get(hash)), rowOf))
  })

/** The key store of the SQLite file at `path` (created and migrated if needed), closed with the layer. */
export const layer = (path: string): Layer.Layer<ApiKeyStore.ApiKeyStore, StoreUnavailable> =>
  Layer.effect(
    ApiKeyStore.ApiKeyStore,
    Effect.gen(function*() {
      const db = yield* Connection.make(path, 5000)
      yield* Migrations.run(db, path)
      return make(db)
    })
  )
