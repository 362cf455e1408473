/**
 * One `node:sqlite` connection as the SQLite store uses it: the pragmas it runs under, a cache of
 * prepared statements, and a `BEGIN IMMEDIATE` that gives up at once instead of blocking the thread.
 */
import { DatabaseSync, type StatementSync } from "node:sqlite"

export interface Connection {
  readonly db: DatabaseSync
  /** The prepared statement of `sql`, prepared once per connection and reused for every row. */
  readonly statement: (sql: string) => StatementSync
  /**
   * Tries `BEGIN IMMEDIATE` without waiting: `false` when another connection holds the write lock,
   * so the caller can wait asynchronously (the busy handler would freeze the event loop instead).
   */
  readonly tryBegin: () => boolean
  readonly commit: () => void
  /** Rolls back the open transaction, if any (SQLite may already have rolled back after some errors). */
  readonly rollback: () => void
  readonly close: () => void
}

/** Tuning of every connection: WAL so readers never block the writer, 64 MiB of page cache for bulk work. */
export const pragmas = (busyTimeout: number): ReadonlyArray<string> => [
  "PRAGMA journal_mode = WAL",
  "PRAGMA synchronous = NORMAL",
  "PRAGMA foreign_keys = ON",
  `PRAGMA busy_timeout = ${busyTimeout}`,
  "PRAGMA cache_size = -65536",
  "PRAGMA temp_store = MEMORY"
]

/** The message of a thrown value: node:sqlite throws `Error`s carrying SQLite's own text. */
export const reasonOf = (error: unknown): string => error instanceof Error ? error.message : String(error)

/** Whether a node:sqlite error is SQLITE_BUSY (another connection holds the lock), extended codes included. */
export const isBusy = (error: unknown): boolean =>
  typeof error === "object" && error !== null && "errcode" in error && typeof error.errcode === "number" &&
  (error.errcode & 0xff) === 5

/**
 * Opens `path` and applies the pragmas; throws node:sqlite's error when the file cannot be opened
 * or is not a database (closing what was opened).
 */
export const open = (path: string, busyTimeout: number): Connection => {
  const db = new DatabaseSync(path, { enableForeignKeyConstraints: true, timeout: busyTimeout })
  try {
    for (const pragma of pragmas(busyTimeout)) db.prepare(pragma).get()
  } catch (error) {
    db.close()
    throw error
  }
  const cache = new Map<string, StatementSync>()
  const statement = (sql: string): StatementSync => {
    const cached = cache.get(sql)
    if (cached !== undefined) return cached
    const prepared = db.prepare(sql)
    cache.set(sql, prepared)
    return prepared
  }
  // A pragma takes effect when it is prepared, not when a prepared copy runs: these must be exec'd.
  const noWait = "PRAGMA busy_timeout = 0"
  const wait = `PRAGMA busy_timeout = ${busyTimeout}`
  const begin = db.prepare("BEGIN IMMEDIATE")
  const commit = db.prepare("COMMIT")
  const rollback = db.prepare("ROLLBACK")
  return {
    db,
    statement,
    tryBegin: () => {
      db.exec(noWait)
      try {
        begin.run()
        return true
      } catch (error) {
        if (isBusy(error)) return false
        throw error
      } finally {
        db.exec(wait)
      }
    },
    commit: () => void commit.run(),
    rollback: () => {
      if (db.isOpen && db.isTransaction) rollback.run()
    },
    close: () => {
      if (!db.isOpen) return
      if (db.isTransaction) rollback.run()
      cache.clear()
      db.close()
    }
  }
}
