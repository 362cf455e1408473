/**
 * Temporary SQLite files for the adapter's tests: one folder per test file, removed after it, and a
 * store opened on a file for the length of one effect.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import { Effect } from "effect"
import { afterAll, beforeAll } from "vitest"
import * as SqliteStore from "../src/SqliteStore.ts"

/** Registers the folder's creation and removal; gives a new file path in it at each call. */
export const folder = (): () => string => {
  let dir = ""
  let files = 0
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "smsbook-sqlite-"))
  })
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true })
  })
  return () => join(dir, `store-${files++}.db`)
}

/** Runs `f` over a store on `path`, closing it afterwards. */
export const withStore = <A, E>(path: string, f: (ports: SqliteStore.Services) => Effect.Effect<A, E>, options: SqliteStore.Options = {}) =>
  Effect.runPromise(Effect.scoped(Effect.flatMap(SqliteStore.make(path, options), f)))

/** The failure of opening a store on `path`. */
export const openFailure = (path: string) => Effect.runPromise(Effect.flip(Effect.scoped(SqliteStore.make(path))))

/** A pragma's value in the file at `path`, read by a connection of its own. */
export const pragma = (path: string, name: string): unknown => {
  const db = new DatabaseSync(path)
  try {
    return db.prepare(`PRAGMA ${name}`).get()?.[name]
  } finally {
    db.close()
  }
}
