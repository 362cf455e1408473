/**
 * The dispatcher's queue in a PostgreSQL store: several dispatchers share it, each claiming parts
 * with `FOR UPDATE SKIP LOCKED` under a lease; a dead one's parts on the wire become `unknown`.
 */
import { PgClient } from "@effect/sql-pg"
import { Clock, Effect, Layer, Redacted, Schema } from "effect"
import { Reactivity } from "effect/reactivity"
import { SqlClient, SqlError } from "effect/sql"
import { PartQueue, StoreUnavailable } from "@smsbook/core"
import * as PostgresMigrations from "./migrations.ts"
import { attempt, describeError, NumberFromInt8, rowsDecoder } from "./connection.ts"
import { redactUrl, scrub } from "../urlSecrets.ts"

const StateSchema = Schema.Literals(["kept", "queued", "submitting", "submitted", "refused", "unknown", "enroute", "accepted", "delivered", "undeliverable", "expired", "rejected", "deleted"])

const ClaimedRow = Schema.Struct({
  seq: NumberFromInt8,
  message_id: Schema.String,
  msisdn: Schema.String,
  short_code: Schema.String,
  part: Schema.Number,
  parts: Schema.Number,
  text: Schema.String
})

const StateRow = Schema.Struct({
  seq: NumberFromInt8,
  message_id: Schema.String,
  msisdn: Schema.String,
  part: Schema.Number,
  state: StateSchema,
  smsc_id: Schema.NullOr(Schema.String)
})

const CountRow = Schema.Struct({ n: NumberFromInt8 })

const decodeClaimed = rowsDecoder(ClaimedRow)
const decodeStates = rowsDecoder(StateRow)
const decodeCount = rowsDecoder(CountRow)

const isFinal = new Set<string>(PartQueue.finalStates)

/** The queue over `sql`. */
export const make = (sql: SqlClient.SqlClient): PartQueue.PartQueue["Service"] => {
  const failed = [...PartQueue.failedStates]
  const refreshErrorCount = (messageId: string) =>
    sql`UPDATE messages SET error_count = (SELECT count(*) FROM outbox WHERE message_id = ${messageId} AND state IN ${sql.in(failed)})
      WHERE message_id = ${messageId}`
  return PartQueue.PartQueue.of({
    // Several dispatchers may run: registering renews the leases of what this one claimed.
    enter: (dispatcher, now, leaseMs) =>
      sql`UPDATE outbox SET lease_until = ${now + leaseMs} WHERE state = 'submitting' AND owner = ${dispatcher.owner}`.pipe(
        Effect.asVoid,
        attempt("parts.enter")
      ),
    leave: () => Effect.void,
    claim: (owner, limit, now, leaseMs) =>
      sql`UPDATE outbox SET state = 'submitting', owner = ${owner}, lease_until = ${now + leaseMs}
        WHERE seq IN (SELECT seq FROM outbox WHERE state = 'queued' ORDER BY seq LIMIT ${limit} FOR UPDATE SKIP LOCKED)
        RETURNING seq, message_id, msisdn, short_code, part, parts, text`.pipe(
        Effect.flatMap(decodeClaimed("parts.claim")),
        Effect.map((rows) => [...rows].sort((a, b) => a.seq - b.seq)),
        attempt("parts.claim")
      ),
    recover: (now) =>
      sql`UPDATE outbox SET state = 'unknown', owner = NULL, lease_until = NULL
        WHERE state = 'submitting' AND lease_until < ${now} RETURNING seq`.pipe(
        Effect.map((rows) => rows.length),
        attempt("parts.recover")
      ),
    answer: (answers) => {
      if (answers.length === 0) return Effect.void
      const accepted = answers.flatMap((answer) => "smscId" in answer ? [answer] : [])
      const refused = answers.flatMap((answer) => "smscId" in answer ? [] : [answer.seq])
      return sql.withTransaction(Effect.gen(function*() {
        if (accepted.length > 0) {
          yield* sql`UPDATE outbox SET state = 'submitted', smsc_id = a.smsc_id, owner = NULL, lease_until = NULL
            FROM unnest(${accepted.map((answer) => answer.seq)}::bigint[], ${accepted.map((answer) => answer.smscId)}::text[]) AS a(seq, smsc_id)
            WHERE outbox.seq = a.seq AND outbox.state IN ('submitting', 'unknown')`
        }
        if (refused.length > 0) {
          const rows = yield* sql<{ readonly message_id: string }>`UPDATE outbox SET state = 'refused', owner = NULL, lease_until = NULL
            WHERE seq = ANY(${refused}::bigint[]) RETURNING message_id`
          for (const messageId of new Set(rows.map((row) => row.message_id))) yield* refreshErrorCount(messageId)
        }
      })).pipe(attempt("parts.answer"))
    },
    release: (seqs) =>
      seqs.length === 0 ? Effect.void : sql`UPDATE outbox SET state = 'queued', owner = NULL, lease_until = NULL
        WHERE seq = ANY(${seqs}::bigint[]) AND state = 'submitting'`.pipe(Effect.asVoid, attempt("parts.release")),
    receipt: (receipt) =>
      sql.withTransaction(Effect.gen(function*() {
        let rows = receipt.smscIds.length === 0 ? [] : yield* sql`SELECT seq, message_id, msisdn, part, state, smsc_id FROM outbox
          WHERE smsc_id IN ${sql.in(receipt.smscIds)} ORDER BY seq LIMIT 1 FOR UPDATE`.pipe(Effect.flatMap(decodeStates("parts.receipt")))
        if (rows.length === 0) {
          rows = yield* sql`SELECT seq, message_id, msisdn, part, state, smsc_id FROM outbox
            WHERE state = 'unknown' AND msisdn = ${receipt.msisdn} ORDER BY seq LIMIT 1 FOR UPDATE SKIP LOCKED`.pipe(Effect.flatMap(decodeStates("parts.receipt")))
        }
        const row = rows[0]
        if (row === undefined) return { _tag: "Unknown" } satisfies PartQueue.ReceiptOutcome
        if (isFinal.has(row.state) || row.state === receipt.state) {
          return { _tag: "Duplicate", message_id: row.message_id, state: row.state } satisfies PartQueue.ReceiptOutcome
        }
        yield* sql`UPDATE outbox SET state = ${receipt.state}, smsc_id = coalesce(smsc_id, ${receipt.smscIds[0] ?? null}) WHERE seq = ${row.seq}`
        if (PartQueue.failedStates.includes(receipt.state)) yield* refreshErrorCount(row.message_id)
        return { _tag: "Updated", message_id: row.message_id, part: row.part, msisdn: row.msisdn, state: receipt.state } satisfies PartQueue.ReceiptOutcome
      })).pipe(attempt("parts.receipt")),
    states: (messageId) =>
      sql`SELECT seq, message_id, msisdn, part, state, smsc_id FROM outbox WHERE message_id = ${messageId} ORDER BY part, msisdn, seq`.pipe(
        Effect.flatMap(decodeStates("parts.states")),
        Effect.map((rows) => rows.map((row) => ({
          message_id: row.message_id,
          msisdn: row.msisdn,
          part: row.part,
          state: row.state,
          ...(row.smsc_id === null ? {} : { smsc_id: row.smsc_id })
        }))),
        attempt("parts.states")
      ),
    pending: sql`SELECT count(*) AS n FROM outbox WHERE state IN ('queued', 'submitting')`.pipe(
      Effect.flatMap(decodeCount("parts.pending")),
      Effect.map((rows) => rows[0]?.n ?? 0),
      attempt("parts.pending")
    )
  })
}

/** The queue of the PostgreSQL database at `url`, migrated on start; the pool closes with the layer. */
export const layer = (url: string): Layer.Layer<PartQueue.PartQueue, StoreUnavailable> =>
  Layer.effect(
    PartQueue.PartQueue,
    Effect.gen(function*() {
      const sql = yield* PgClient.make({ url: Redacted.make(url), maxConnections: 4, connectTimeout: "5 seconds" })
      yield* PostgresMigrations.run.pipe(Effect.provideService(SqlClient.SqlClient, sql))
      return make(sql)
    }).pipe(
      Effect.provide(Reactivity.layer),
      Effect.provideService(Clock.Clock, Clock.Clock.defaultValue()),
      Effect.mapError((error) =>
        new StoreUnavailable({
          url: redactUrl(url),
          reason: scrub(url, SqlError.isSqlError(error) ? describeError(error) : error.message)
        })
      )
    )
  )
