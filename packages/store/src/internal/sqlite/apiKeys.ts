/**
 * API keys in a SQLite store file (the `api_keys` table of migration 3), on the store's own
 * connection: a second one would hold a page cache of its own and lose it at every write of the first.
 */
import { Option } from "effect"
import * as ApiKeyStore from "../../ApiKeyStore.ts"
import type * as Connection from "./connection.ts"
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
