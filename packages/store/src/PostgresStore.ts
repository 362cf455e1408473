/**
 * The PostgreSQL adapter of every storage port (contacts, messages, carrier outbox), on `@effect/sql-pg`:
 * for teams that outgrow a SQLite file. Behaves exactly like the core's MemoryStore; migrates on start.
 */
import { Context, Duration, Effect, Layer, type Scope } from "effect"
import type { SqlClient } from "effect/sql"
import { Ports, type StoreUnavailable } from "@smsbook/core"
import * as ApiKeyStore from "./ApiKeyStore.ts"
import * as Adapter from "./internal/adapter.ts"
import * as ApiKeys from "./internal/postgres/apiKeys.ts"
import * as Carrier from "./internal/postgres/carrier.ts"
import * as Contacts from "./internal/postgres/contacts.ts"
import * as Messages from "./internal/postgres/messages.ts"
import * as Pool from "./internal/postgres/pool.ts"
import { redactUrl } from "./internal/urlSecrets.ts"

export { redactUrl }

export interface Options {
  /**
   * Rows per page of `audience` and `stream` (default 5,000): memory holds one page, a round trip
   * fetches one. Tests use tiny pages to cross many page boundaries.
   */
  readonly pageSize?: number
  /** Connections in the pool (default 10). */
  readonly maxConnections?: number
  /**
   * How long a statement waits for a lock another transaction holds (another import, a set of opt-outs, a contact's
   * row) before it fails with `StoreFailure`: PostgreSQL's `lock_timeout`, for every connection of the pool, and how
   * long a new contact waits for an import or a set of opt-outs of the book. Unset, the server's own setting (no limit
   * unless it has one) and no limit.
   */
  readonly lockWait?: Duration.Input
}

/** Rows per keyset page when not told otherwise. */
export const defaultPageSize = 5_000

/** How long a connection attempt (TCP, TLS, authentication) may take unless the URL's `connect_timeout` says. */
export const defaultConnectTimeout = Pool.defaultConnectTimeout

/** The ports over one PostgreSQL database, plus a view of the carrier's outbox table. */
export type Services = Ports.Services

/** The API keys kept in the same store, beside the ports. */
export interface Keys {
  readonly apiKeys: ApiKeyStore.ApiKeyStore["Service"]
}

/**
 * The ports (and the carrier's outbox, as `Carrier.Outbox`) on the PostgreSQL database at
 * `url` (`postgres://user:password@host:port/db`, libpq query parameters such as `sslmode`,
 * `connect_timeout`, `options=-c search_path=…` understood). Connects, applies pending migrations
 * and fails with `StoreUnavailable` — whose `url` never shows the password — when the server cannot
 * be reached within the connect timeout, refuses the credentials or the schema cannot be migrated.
 * The pool and its connections close with the scope.
 */
export const make = Effect.fnUntraced(function*(
  url: string,
  options: Options = {}
): Effect.fn.Return<Services & Keys, StoreUnavailable, Scope.Scope> {
  const writers = {
    maxConnections: options.maxConnections ?? 10,
    lockWaitMs: options.lockWait === undefined ? undefined : Duration.toMillis(options.lockWait)
  }
  const sql = yield* Pool.open(url, { maxConnections: writers.maxConnections, lockWait: options.lockWait })
  const contacts = { make: (client: SqlClient.SqlClient, pageSize: number) => Contacts.make(client, pageSize, writers) }
  return Adapter.assemble({ Contacts: contacts, Messages, Carrier, ApiKeys }, sql, options.pageSize ?? defaultPageSize)
})

/**
 * Every port over the PostgreSQL database at `url` (see `make`), with the API keys on the same
 * pool, closed when the layer is released.
 */
export const layer = (url: string, options: Options = {}): Layer.Layer<Ports.Ports | ApiKeyStore.ApiKeyStore, StoreUnavailable> =>
  Layer.effectContext(Effect.map(make(url, options), (services) =>
    Context.add(Ports.context(services), ApiKeyStore.ApiKeyStore, services.apiKeys)))
