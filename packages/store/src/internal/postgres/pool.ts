/**
 * A PostgreSQL pool as the store and the dispatcher's queue open it: connected, migrated, on wall-clock time, and any
 * failure to get there a `StoreUnavailable` whose URL and reason never show the password.
 */
import { PgClient } from "@effect/sql-pg"
import { Clock, Duration, Effect, Redacted, type Scope } from "effect"
import { Reactivity } from "effect/reactivity"
import { type Migrator, SqlClient, SqlError } from "effect/sql"
import { StoreUnavailable } from "@smsbook/core"
import { redactUrl, scrub } from "../urlSecrets.ts"
import { describeError, problemOf } from "./connection.ts"
import * as Migrations from "./migrations.ts"

/** How long a connection attempt (TCP, TLS, authentication) may take unless the URL's `connect_timeout` says. */
export const defaultConnectTimeout = "5 seconds"

// The driver's option wins over the URL's `connect_timeout`: it is given only where the URL has none.
const hasConnectTimeout = (url: string): boolean => /[?&]connect_timeout=/i.test(url)

const unavailable = (url: string) => (error: SqlError.SqlError | Migrator.MigrationError): StoreUnavailable => {
  const reason = SqlError.isSqlError(error)
    ? describeError(error)
    : SqlError.isSqlError(error.cause)
    ? `${error.message}: ${describeError(error.cause)}`
    : error.message
  return new StoreUnavailable({ url: redactUrl(url), reason: scrub(url, reason), ...problemOf(SqlError.isSqlError(error) ? error : error.cause) })
}

export interface Options {
  readonly maxConnections: number
  /**
   * How long a statement waits for a lock another transaction holds before it fails: every connection's
   * `lock_timeout`, so the store and the dispatcher's queue keep the same `--wait`. Unset, the server's own setting.
   */
  readonly lockWait?: Duration.Input | undefined
}

/** The pool of the database at `url`, its pending migrations applied; it closes with the scope. */
export const open = (url: string, options: Options): Effect.Effect<PgClient.PgClient, StoreUnavailable, Scope.Scope> =>
  Effect.gen(function*() {
    const sql = yield* PgClient.make({
      maxConnections: options.maxConnections,
      url: Redacted.make(url),
      ...(hasConnectTimeout(url) ? {} : { connectTimeout: defaultConnectTimeout }),
      ...(options.lockWait === undefined ? {} : {
        // PostgreSQL reads a lock_timeout of 0 as no limit: a wait of 0 (fail at once, as SQLite's) is its least, 1 ms.
        startupParameters: { lock_timeout: String(Math.max(1, Math.floor(Math.min(Duration.toMillis(options.lockWait), 2 ** 31 - 1)))) }
      })
    })
    yield* Migrations.run.pipe(Effect.provideService(SqlClient.SqlClient, sql))
    return sql
  }).pipe(
    Effect.provide(Reactivity.layer),
    // The pool runs on wall-clock time whatever clock its users' fibers have: connection lifetimes
    // are real-world matters, and a test clock jumping years ahead must neither expire nor spin it
    // (its idle reaper wakes once per idle timeout, so a jump of years would run it millions of times).
    Effect.provideService(Clock.Clock, Clock.Clock.defaultValue()),
    Effect.mapError(unavailable(url))
  )
