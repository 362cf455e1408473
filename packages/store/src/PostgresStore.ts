/**
 * The PostgreSQL adapter of every storage port (contacts, messages, carrier outbox), on `@effect/sql-pg`:
 * for teams that outgrow a SQLite file. Behaves exactly like the core's MemoryStore; migrates on start.
 */
import { PgClient } from "@effect/sql-pg"
import { Clock, Context, Duration, Effect, Layer, Redacted, type Scope } from "effect"
import { Reactivity } from "effect/reactivity"
import { type Migrator, SqlClient, SqlError } from "effect/sql"
import { Ports, StoreUnavailable } from "@smsbook/core"
import * as ApiKeyStore from "./ApiKeyStore.ts"
import * as Adapter from "./internal/adapter.ts"
import * as ApiKeys from "./internal/postgres/apiKeys.ts"
import * as Carrier from "./internal/postgres/carrier.ts"
import { describeError, problemOf } from "./internal/postgres/connection.ts"
import * as Contacts from "./internal/postgres/contacts.ts"
import * as Messages from "./internal/postgres/messages.ts"
import * as Migrations from "./internal/postgres/migrations.ts"
import { redactUrl, scrub } from "./internal/urlSecrets.ts"

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
export const defaultConnectTimeout = "5 seconds"

const unavailable = (url: string) => (error: SqlError.SqlError | Migrator.MigrationError): StoreUnavailable => {
  const reason = SqlError.isSqlError(error)
    ? describeError(error)
    : SqlError.isSqlError(error.cause)
    ? `${error.message}: ${describeError(error.cause)}`
    : error.message
  return new StoreUnavailable({ url: redactUrl(url), reason: scrub(url, reason), ...problemOf(SqlError.isSqlError(error) ? error : error.cause) })
}

const hasConnectTimeout = (url: string): boolean => /[?&]connect_timeout=/i.test(url)

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
export const make = (url: string, options: Options = {}): Effect.Effect<Services & Keys, StoreUnavailable, Scope.Scope> =>
  Effect.gen(function*() {
    const waits = {
      maxConnections: options.maxConnections ?? 10,
      lockWaitMs: options.lockWait === undefined ? undefined : Duration.toMillis(options.lockWait)
    }
    const sql = yield* PgClient.make({
      url: Redacted.make(url),
      maxConnections: waits.maxConnections,
      ...(options.lockWait === undefined ? {} : {
        // PostgreSQL reads a lock_timeout of 0 as no limit: a wait of 0 (fail at once, as SQLite's) is its least, 1 ms.
        startupParameters: { lock_timeout: String(Math.max(1, Math.floor(Math.min(Duration.toMillis(options.lockWait), 2 ** 31 - 1)))) }
      }),
      ...(hasConnectTimeout(url) ? {} : { connectTimeout: defaultConnectTimeout })
    })
    yield* Migrations.run.pipe(Effect.provideService(SqlClient.SqlClient, sql))
    const contacts = { make: (client: SqlClient.SqlClient, pageSize: number) => Contacts.make(client, pageSize, waits) }
    return Adapter.assemble({ Contacts: contacts, Messages, Carrier, ApiKeys }, sql, options.pageSize ?? defaultPageSize)
  }).pipe(
    Effect.provide(Reactivity.layer),
    // The pool runs on wall-clock time whatever clock its users' fibers have: connection lifetimes
    // are real-world matters, and a test clock jumping years ahead must neither expire nor spin it
    // (its idle reaper wakes once per idle timeout, so a jump of years would run it millions of times).
    Effect.provideService(Clock.Clock, Clock.Clock.defaultValue()),
    Effect.mapError(unavailable(url))
  )

/**
 * Every port over the PostgreSQL database at `url` (see `make`), with the API keys on the same
 * pool, closed when the layer is released.
 */
export const layer = (url: string, options: Options = {}): Layer.Layer<Ports.Ports | ApiKeyStore.ApiKeyStore, StoreUnavailable> =>
  Layer.effectContext(Effect.map(make(url, options), (services) =>
    Context.add(Ports.context(services), ApiKeyStore.ApiKeyStore, services.apiKeys)))
