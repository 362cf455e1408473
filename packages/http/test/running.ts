/**
 * A real smsbook server for tests: listening on an ephemeral 127.0.0.1 port over the given store,
 * its access log collected, stopped by `close` (the same graceful stop as SIGTERM).
 */
import { Account } from "@smsbook/core"
import { Context, Effect, Exit, Layer, Scope } from "effect"
import { HttpServer } from "effect/http"
import { NetAddress } from "effect/net"
import { DatabaseSync } from "node:sqlite"
import * as Server from "../src/Server.ts"
import * as Stores from "./stores.ts"
import { afterAll, beforeAll } from "vitest"

export interface Running {
  readonly url: string
  readonly log: ReadonlyArray<string>
  readonly close: () => Promise<void>
}

export const account: Account.Settings = { ...Account.defaults, short_name: "ACME", user: "tester" }

export const start = async (options: Partial<Server.Options> & { readonly store: string }): Promise<Running> => {
  const log: Array<string> = []
  const scope = Effect.runSync(Scope.make())
  const context = await Effect.runPromise(
    Layer.buildWithScope(Server.layer({ host: "127.0.0.1", port: 0, account, log: (line) => log.push(line), ...options }), scope)
  )
  const server = Context.get(context, HttpServer.HttpServer)
  return {
    url: NetAddress.formatUrlUnsafe(server.address, "http"),
    log,
    close: () => Effect.runPromise(Scope.close(scope, Exit.void))
  }
}

/**
 * A server (no key needed) over a fresh SQLite book whose write lock another connection holds, as a nightly import in
 * another process would: `use` gets the server and the holder, which may commit; all is closed after.
 */
export const withLockedBook = async (
  lockWait: NonNullable<Server.Options["lockWait"]>,
  use: (server: Running, holder: DatabaseSync) => Promise<void>
): Promise<void> => {
  const store = await Stores.fresh("sqlite")
  const server = await start({ store: store.url, noAuth: true, lockWait })
  const holder = new DatabaseSync(store.url)
  try {
    holder.exec("BEGIN IMMEDIATE")
    await use(server, holder)
  } finally {
    if (holder.isTransaction) holder.exec("ROLLBACK")
    holder.close()
    await server.close()
    await store.drop()
  }
}

/** The server {@link serving} keeps for the tests of a `describe`: read in the tests, once it started. */
export interface Served {
  readonly url: string
  /** A live key's secret (empty with `noAuth`). */
  readonly key: string
  /** The book's store URL. */
  readonly store: string
  /** The access-log lines so far. */
  readonly log: ReadonlyArray<string>
}

/**
 * A server over a fresh SQLite book for the tests of the calling `describe`: started before them (with a live key, or
 * none with `noAuth`), stopped and its book removed after.
 */
export const serving = (options: { readonly noAuth?: boolean } = {}): Served => {
  let store: Stores.TestStore | undefined
  let server: Running | undefined
  const served = { url: "", key: "", store: "", get log() { return server?.log ?? [] } }
  beforeAll(async () => {
    store = await Stores.fresh("sqlite")
    served.store = store.url
    if (options.noAuth !== true) served.key = await Stores.createKey(store.url, "tests")
    server = await start({ store: store.url, ...(options.noAuth === true ? { noAuth: true } : {}) })
    served.url = server.url
  })
  afterAll(async () => {
    await server?.close()
    await store?.drop()
  })
  return served
}
