/**
 * The SQLite adapter of every port, on Node's built-in `node:sqlite`: one WAL file that several
 * processes can share, with the memory store's semantics and keyset-paged streams for bulk work.
 */
import * as fs from "node:fs"
import { DatabaseSync } from "node:sqlite"
import { Context, Duration, Effect, Layer, type Scope } from "effect"
import { Ports, type StoreUnavailable } from "@smsbook/core"
import * as ApiKeyStore from "./ApiKeyStore.ts"
import * as Adapter from "./internal/adapter.ts"
import * as ApiKeys from "./internal/sqlite/apiKeys.ts"
import * as Carrier from "./internal/sqlite/carrier.ts"
import * as Connection from "./internal/sqlite/connection.ts"
import * as Contacts from "./internal/sqlite/contacts.ts"
import * as Messages from "./internal/sqlite/messages.ts"
import type { LockWait } from "./internal/sqlite/lockHolder.ts"
import * as Migrations from "./internal/sqlite/migrations.ts"

export interface Options {
  /** Rows per page of `audience` and `stream`: memory stays flat whatever the table size (default 4096). */
  readonly pageSize?: number
  /**
   * How long a writer waits for another connection's (or process's) transaction to end before it
   * fails (default `defaultLockWait`). Writers queue on `BEGIN IMMEDIATE` meanwhile.
   */
  readonly lockWait?: Duration.Input
  /** `lockWait` in milliseconds (the older spelling; `lockWait` wins when both are given). */
  readonly busyTimeout?: number
  /**
   * The connection's page cache in KiB (default `Connection.defaultCacheKiB`, 64 MiB, for bulk
   * imports); a long-running server that reads a page at a time can ask for less.
   */
  readonly cacheKiB?: number
  /**
   * Told when a writer has waited a second for another process's write lock, then every 30 s: with the
   * holding process when the system can say (Linux), so a command can tell its user who it waits for.
   */
  readonly onLockWait?: (notice: LockWait) => void
  /**
   * Group commit, for servers: concurrent transactions share one SQLite transaction, each in a savepoint, committed
   * once the requests ready in this turn of the event loop have joined (each still answers after the COMMIT). A COMMIT
   * writes every page the transaction touched, and concurrent sends touch the same ones (default false).
   */
  readonly groupCommit?: boolean
}

export type { LockHolder, LockWait } from "./internal/sqlite/lockHolder.ts"

/** How long a writer waits for the write lock unless told otherwise; `Store.layer` waits longer. */
export const defaultLockWait: Duration.Input = "5 seconds"

/** The lock wait of `options` in whole milliseconds, as SQLite's busy timeout takes it. */
export const lockWaitMillis = (options: Pick<Options, "lockWait" | "busyTimeout">): number =>
  Math.max(0, Math.floor(Math.min(Duration.toMillis(options.lockWait ?? options.busyTimeout ?? defaultLockWait), 2 ** 31 - 1)))

/** The ports over one SQLite file, plus a view of the carrier's outbox table. */
export type Services = Ports.Services

/** The API keys kept in the same store, beside the ports. */
export interface Keys {
  readonly apiKeys: ApiKeyStore.ApiKeyStore["Service"]
}

/**
 * Removes the SQLite book at `path` (and its WAL and shared memory) if no other connection has it open and it holds no
 * row in any table: what a failed run that created the book leaves behind. Whether it was removed; any doubt keeps it.
 * Leaving WAL mode needs the book alone (every connection to a WAL book holds a lock on its shared memory), so it
 * tells whether another process opened the book meanwhile, as a second import started at the same time does.
 */
export const discardIfEmpty = (path: string): boolean => {
  let db: DatabaseSync | undefined
  try {
    db = new DatabaseSync(path, { timeout: 0 })
    const mode = db.prepare("PRAGMA journal_mode = DELETE").get()
    if (mode?.["journal_mode"] !== "delete") throw new Error("another connection has the book open")
    // Removed under an exclusive lock: a connection opening the book meanwhile waits, then finds it gone (its writes
    // fail, SQLITE_READONLY_DBMOVED), where a removal after the lock let a second import commit into a deleted file.
    db.exec("BEGIN EXCLUSIVE")
    const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'").all()
    const empty = tables.every((table) => db?.prepare(`SELECT 1 FROM "${String(table["name"]).replaceAll('"', '""')}" LIMIT 1`).get() === undefined)
    if (empty) for (const file of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`]) fs.rmSync(file, { force: true })
    return empty
  } catch {
    return false
  } finally {
    if (db?.isOpen === true) {
      if (db.isTransaction) db.exec("ROLLBACK")
      db.close()
    }
  }
}

/** Rows per keyset page when not told otherwise. */
export const defaultPageSize = 4096

/**
 * Opens (creating and migrating if needed) the SQLite file at `path` and builds the ports over it;
 * the connection closes with the scope. A path that cannot be opened, a file that is not a
 * database, or a schema newer than this code fails with `StoreUnavailable`. Behaviour is the memory
 * store's, port for port: same orders, filters and errors.
 */
export const make = Effect.fnUntraced(function*(
  path: string,
  options: Options = {}
): Effect.fn.Return<Services & Keys, StoreUnavailable, Scope.Scope> {
  const db = yield* Connection.make(path, {
    lockWaitMs: lockWaitMillis(options),
    cacheKiB: options.cacheKiB,
    onLockWait: options.onLockWait,
    groupCommit: options.groupCommit
  })
  yield* Migrations.run(db, path)
  return Adapter.assemble({ Contacts, Messages, Carrier, ApiKeys }, db, options.pageSize ?? defaultPageSize)
})

/**
 * Every port over the SQLite file at `path` (and the `Outbox` view the contract tests read), with
 * the API keys on the same connection, closing the file when the layer is released.
 */
export const layer = (
  path: string,
  options: Options = {}
): Layer.Layer<Ports.Ports | ApiKeyStore.ApiKeyStore, StoreUnavailable> =>
  Layer.effectContext(Effect.map(make(path, options), (services) =>
    Context.add(Ports.context(services), ApiKeyStore.ApiKeyStore, services.apiKeys)))
