/**
 * A store chosen by URL: `./file.db` or `sqlite:PATH` (the default `./smsbook.db`), `postgres://…`
 * (also `postgresql://`), `memory:`. Every choice provides the same ports (`Ports`) and its API keys.
 */
import { InvalidStoreUrl, MemoryStore, type Ports as CorePorts, StoreUnavailable } from "@smsbook/core"
import { type Duration, Effect, Layer } from "effect"
import * as fs from "node:fs"
import * as ApiKeyStore from "./ApiKeyStore.ts"
import { redactUrl } from "./internal/urlSecrets.ts"
import * as SqliteStore from "./SqliteStore.ts"

/** The services every store layer provides: the three ports and the carrier's outbox view. */
export type Ports = CorePorts.Ports

/** What `layer` provides: the ports and the API keys, over one connection (pool) of the store. */
export type Services = Ports | ApiKeyStore.ApiKeyStore

export type Location =
  | { readonly kind: "memory" }
  | { readonly kind: "sqlite"; readonly path: string }
  | { readonly kind: "postgres"; readonly url: string }

/** Reads a store URL; anything with a scheme other than sqlite, postgres(ql) and memory is refused. */
export const locate = (url: string): Location | InvalidStoreUrl => {
  const text = url.trim()
  if (text === "") return new InvalidStoreUrl({ url, reason: "is empty" })
  if (text === "memory:") return { kind: "memory" }
  if (/^postgres(ql)?:\/\//i.test(text)) return { kind: "postgres", url: text }
  if (/^sqlite:/i.test(text)) {
    // sqlite:PATH, and the URL forms sqlite://relative.db and sqlite:///absolute.db
    const path = text.slice("sqlite:".length).replace(/^\/\//, "")
    if (path === "") return new InvalidStoreUrl({ url, reason: "names no file (sqlite:PATH)" })
    return path.startsWith("file:") ? fileUri(url) : { kind: "sqlite", path }
  }
  if (text.startsWith("file:")) return fileUri(url)
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(text)
  if (scheme !== null) {
    return new InvalidStoreUrl({
      url: redactUrl(text),
      reason: `unknown scheme ${scheme[1]}: (use a file path, sqlite:PATH, postgres://… or memory:)`
    })
  }
  return { kind: "sqlite", path: text }
}

/**
 * A `file:` URI as a book: SQLite opens it as a URI (`file:book.db?mode=rw` is `book.db`), where every check of the
 * book's files (outputs that must not replace it, a new book's creation) would take it for a file named `file:…`, and
 * an output could replace the real book. A file whose name starts so is named `./file:…`.
 */
const fileUri = (url: string) =>
  new InvalidStoreUrl({ url, reason: "is a file: URI: give the book's path (a file whose name starts with file: as ./file:…)" })

/**
 * How long a command waits for another process's write transaction before failing (SQLite's write lock, PostgreSQL's
 * `lock_timeout`): long enough for a nightly import to queue behind another one.
 */
export const defaultLockWait: Duration.Input = "10 minutes"

export interface Options {
  /**
   * How long a writer waits for another writer before failing (default `defaultLockWait`): for the book's write lock
   * on SQLite, for any lock another transaction holds on PostgreSQL (its `lock_timeout`).
   */
  readonly lockWait?: Duration.Input
  /** SQLite's page cache in KiB (default 64 MiB, sized for imports; see `SqliteStore.Options`). */
  readonly cacheKiB?: number
  /** Told while a SQLite writer waits for another process's lock (see `SqliteStore.Options.onLockWait`). */
  readonly onLockWait?: (notice: SqliteStore.LockWait) => void
  /** SQLite's group commit, for servers (see `SqliteStore.Options.groupCommit`). */
  readonly groupCommit?: boolean
}

/**
 * The layer `build` makes from a PostgreSQL module loaded only now: the driver would cost every other command
 * startup time. A module that cannot be loaded leaves the store at `url` unavailable.
 */
export const postgresOnDemand = <M, A, E>(
  url: string,
  load: () => Promise<M>,
  build: (module: M) => Layer.Layer<A, E>
): Layer.Layer<A, E | StoreUnavailable> =>
  Layer.unwrap(
    Effect.tryPromise({
      try: load,
      catch: (cause) => new StoreUnavailable({ url: redactUrl(url), reason: `the PostgreSQL driver cannot be loaded: ${String(cause)}` })
    }).pipe(Effect.map(build))
  )

/**
 * Claims the SQLite book `url` names for a run that may create it: creates its file when there is none, exclusively
 * (a book another process created first is theirs). Returns `discard`, for the run to call if it fails: it removes the
 * book again unless another connection has it open or wrote to it (`SqliteStore.discardIfEmpty`). `undefined` when there is nothing to
 * claim (another store kind, or the file exists).
 */
export const claimNewBook = (url: string): { readonly discard: () => void } | undefined => {
  const location = locate(url)
  if (location instanceof InvalidStoreUrl || location.kind !== "sqlite" || location.path === ":memory:") return undefined
  try {
    fs.closeSync(fs.openSync(location.path, "wx"))
  } catch {
    return undefined
  }
  return { discard: () => void SqliteStore.discardIfEmpty(location.path) }
}

/** The ports and the API keys of the store at `url`. */
export const layer = (url: string, options: Options = {}): Layer.Layer<Services, InvalidStoreUrl | StoreUnavailable> => {
  const location = locate(url)
  if (location instanceof InvalidStoreUrl) return Layer.unwrap(Effect.fail(location))
  switch (location.kind) {
    case "memory":
      return Layer.merge(MemoryStore.layer, ApiKeyStore.layerMemory)
    case "sqlite":
      return SqliteStore.layer(location.path, {
        ...options,
        lockWait: options.lockWait ?? defaultLockWait
      })
    case "postgres":
      return postgresOnDemand(location.url, () => import("./PostgresStore.ts"), (pg) => pg.layer(location.url, { lockWait: options.lockWait ?? defaultLockWait }))
  }
}
