/**
 * The dispatcher's queue (core's `PartQueue`) of the store at a URL: the outbox parts of the same
 * SQLite file or PostgreSQL database as the book, on a connection (pool) of its own.
 */
import { InvalidStoreUrl, type PartQueue, type StoreUnavailable } from "@smsbook/core"
import { Effect, Layer } from "effect"
import * as DispatcherProcess from "./internal/dispatcherProcess.ts"
import * as SqliteParts from "./internal/sqlite/parts.ts"
import * as SqliteStore from "./SqliteStore.ts"
import * as Store from "./Store.ts"

/** This process as a dispatcher (owner name, host, pid). */
export const thisProcess = DispatcherProcess.thisProcess

/**
 * The queue of the store at `url`. A `memory:` book has no outbox another process could drain:
 * refused as an `InvalidStoreUrl`.
 */
export const layer = (url: string, options: Store.Options = {}): Layer.Layer<PartQueue.PartQueue, InvalidStoreUrl | StoreUnavailable> => {
  const location = Store.locate(url)
  if (location instanceof InvalidStoreUrl) return Layer.unwrap(Effect.fail(location))
  switch (location.kind) {
    case "memory":
      return Layer.unwrap(Effect.fail(new InvalidStoreUrl({ url, reason: "a memory: book cannot be dispatched; use a SQLite file or PostgreSQL" })))
    case "sqlite":
      return SqliteParts.layer(location.path, {
        lockWaitMs: SqliteStore.lockWaitMillis({ lockWait: options.lockWait ?? Store.defaultLockWait }),
        onLockWait: options.onLockWait
      })
    case "postgres":
      return Store.postgresOnDemand(location.url, () => import("./internal/postgres/parts.ts"), (pg) =>
        pg.layer(location.url, { lockWait: options.lockWait ?? Store.defaultLockWait }))
  }
}
