/**
 * Plumbing shared by the PostgreSQL adapter's ports: SQL and decoding failures as `StoreFailure`,
 * rows decoded once at the edge, transactions, and keyset paging as a flat-memory Stream.
 */
import { Effect, Option, Result, Schema, SchemaTransformation, Stream } from "effect"
import { type SqlClient, SqlError } from "effect/sql"
import { StoreFailure, type StoreProblem } from "@smsbook/core"
import * as Contention from "../contention.ts"

/** The text of a failure: PostgreSQL's own message when there is one (it names the constraint, the value). */
export const describeError = (error: SqlError.SqlError | Schema.SchemaError): string => {
  if (Schema.isSchemaError(error)) return `unexpected row: ${error.message}`
  const cause = error.reason.cause
  const detail = cause instanceof Error && cause.message !== "" ? cause.message : undefined
  return detail === undefined ? error.message : `${error.message}: ${detail}`
}

/** SQLSTATEs of a transaction aborted for contention: serialization_failure, deadlock_detected. */
const contentionCodes: ReadonlySet<string> = new Set(["40001", "40P01"])

const sqlState = (error: SqlError.SqlError): string | undefined => {
  const cause = error.reason.cause
  return typeof cause === "object" && cause !== null && "code" in cause && typeof cause.code === "string" ? cause.code : undefined
}

/** SQLSTATEs that say what is wrong beneath the book (PostgreSQL's appendix A), as `StoreProblem`s. */
const problemCodes: ReadonlyMap<string, StoreProblem> = new Map([
  ["57P01", "connection"], // admin_shutdown: the server is stopping
  ["57P02", "connection"], // crash_shutdown
  ["57P03", "connection"], // cannot_connect_now: the server is starting or in recovery
  ["53100", "disk-full"], // disk_full
  ["25006", "read-only"], // read_only_sql_transaction: a standby, or default_transaction_read_only
  ["58030", "disk-io"], // io_error
  ["XX001", "damaged"], // data_corrupted
  ["XX002", "damaged"], // index_corrupted
  ["28000", "access-denied"], // invalid_authorization_specification
  ["28P01", "access-denied"], // invalid_password
  ["42501", "access-denied"], // insufficient_privilege
  ["3D000", "no-database"] // invalid_catalog_name: the URL's database does not exist
])

/**
 * What a failure comes from, by the driver's reason (a lost or refused connection, refused credentials) or the server's
 * SQLSTATE (class 08 is every connection exception), as `StoreFailure` and `StoreUnavailable` carry it.
 */
export const problemOf = (error: unknown): { readonly problem?: StoreProblem } => {
  if (!SqlError.isSqlError(error)) return {}
  const kind = error.reason._tag
  if (kind === "ConnectionError") return { problem: "connection" }
  if (kind === "AuthenticationError" || kind === "AuthorizationError") return { problem: "access-denied" }
  const code = sqlState(error) ?? ""
  const problem = code.startsWith("08") ? "connection" : problemCodes.get(code)
  return problem === undefined ? {} : { problem }
}

/** lock_not_available: a statement waited for another transaction's lock longer than the pool's `lock_timeout`. */
const lockTimeout = "55P03"

/** `error` as a `StoreFailure({ operation })`, marked as contention when PostgreSQL aborted for it. */
export const failure = (operation: string, error: SqlError.SqlError | Schema.SchemaError): StoreFailure => {
  const waited = SqlError.isSqlError(error) && sqlState(error) === lockTimeout
  const reason = waited
    ? `${describeError(error)}: another transaction (an import, a suppression load) held what this write needs longer than the lock wait (--wait); nothing was written`
    : describeError(error)
  const failed = new StoreFailure({ operation, reason, ...problemOf(error) })
  return SqlError.isSqlError(error) && contentionCodes.has(sqlState(error) ?? "") ? Contention.mark(failed) : failed
}

type Infrastructure = SqlError.SqlError | Schema.SchemaError

const isInfrastructure = <E>(error: E): error is Extract<E, Infrastructure> =>
  SqlError.isSqlError(error) || Schema.isSchemaError(error)

/**
 * Runs `effect`, turning SQL and row-decoding failures into `StoreFailure({ operation })` while
 * the domain's own errors (ContactExists, DuplicateSend…) pass through unchanged.
 */
export const attempt = (operation: string) => <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.catchIf(
    effect,
    isInfrastructure,
    (error) => Effect.fail(failure(operation, error))
  )

/**
 * Runs `effect` in one transaction of `sql`. Nested calls join the outer transaction as a
 * savepoint (what `SqlClient.withTransaction` does), so a failed inner unit leaves nothing either.
 */
export const transaction = (sql: SqlClient.SqlClient) =>
<A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | StoreFailure, R> =>
  Effect.mapError(sql.withTransaction(effect), (error) =>
    SqlError.isSqlError(error) ? failure("transaction", error) : error)

/** An `int8` column (read by the driver as `bigint`) as a JS number; epoch milliseconds and counts fit exactly. */
export const NumberFromInt8 = Schema.Union([Schema.BigInt, Schema.Number]).pipe(
  Schema.decodeTo(
    Schema.Number,
    SchemaTransformation.transform({
      decode: (value) => Number(value),
      encode: (value) => value
    })
  )
)

/**
 * A decoder of a whole result set, failing as `StoreFailure({ operation })` on the first row that
 * does not match. Row by row with the synchronous decoder: half the cost of decoding the array as one value.
 */
export const rowsDecoder = <S extends Schema.Top & { readonly DecodingServices: never }>(schema: S) => {
  const decodeRow = Schema.decodeUnknownResult(schema)
  return (operation: string) => (rows: ReadonlyArray<unknown>): Effect.Effect<ReadonlyArray<S["Type"]>, StoreFailure> =>
    Effect.suspend(() => {
      const decoded: Array<S["Type"]> = []
      for (const row of rows) {
        const result = decodeRow(row)
        if (Result.isFailure(result)) {
          return Effect.fail(new StoreFailure({ operation, reason: describeError(result.failure) }))
        }
        decoded.push(result.success)
      }
      return Effect.succeed(decoded)
    })
}

/**
 * Every row of a query, read page by page with a keyset cursor (`WHERE key > last key ORDER BY
 * key LIMIT n`), so memory holds one page whatever the table size and no row is read twice even
 * when rows before the cursor change meanwhile. A page shorter than `pageSize` is the last.
 */
export const keyset = <A, Cursor>(
  pageSize: number,
  page: (after: Option.Option<Cursor>) => Effect.Effect<ReadonlyArray<A>, StoreFailure>,
  cursorOf: (row: A) => Cursor
): Stream.Stream<A, StoreFailure> =>
  Stream.paginate(Option.none<Cursor>(), (after) =>
    Effect.map(page(after), (rows) => {
      const last = rows.at(-1)
      const next = rows.length >= pageSize && last !== undefined ? Option.some(Option.some(cursorOf(last))) : Option.none()
      return [rows, next] as const
    }))
