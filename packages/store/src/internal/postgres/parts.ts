/**
 * The dispatcher's queue in a PostgreSQL store: several dispatchers share it, each claiming parts
 * with `FOR UPDATE SKIP LOCKED` under a lease; a dead one's unwritten parts are queued again, its
 * parts on the wire are in doubt until a receipt (or the end of the doubt) settles them.
 */
import { type Duration, Effect, Layer, Schema } from "effect"
import type { SqlClient } from "effect/sql"
import { PartQueue, type StoreUnavailable } from "@smsbook/core"
import * as DispatcherProcess from "../dispatcherProcess.ts"
import { attempt, NumberFromInt8, rowsDecoder } from "./connection.ts"
import * as Pool from "./pool.ts"
import { countOf } from "./rows.ts"

const StateSchema = Schema.Literals(PartQueue.states)

const ClaimedRow = Schema.Struct({
  seq: NumberFromInt8,
  message_id: Schema.String,
  msisdn: Schema.String,
  short_code: Schema.String,
  part: Schema.Number,
  parts: Schema.Number,
  text: Schema.String,
  state: StateSchema
})

const StateRow = Schema.Struct({
  seq: NumberFromInt8,
  message_id: Schema.String,
  msisdn: Schema.String,
  part: Schema.Number,
  state: StateSchema,
  smsc_id: Schema.NullOr(Schema.String)
})

const OwnerRow = Schema.Struct({ owner: Schema.String })

const SeqRow = Schema.Struct({ seq: NumberFromInt8, message_id: Schema.String, state: StateSchema })

const SmscIdRow = Schema.Struct({ seq: NumberFromInt8, smsc_id: Schema.String })

const MessageIdRow = Schema.Struct({ message_id: Schema.String })

const decodeClaimed = rowsDecoder(ClaimedRow)
const decodeStates = rowsDecoder(StateRow)
const decodeOwners = rowsDecoder(OwnerRow)
const decodeSeqs = rowsDecoder(SeqRow)
const decodeSmscIds = rowsDecoder(SmscIdRow)
const decodeMessageIds = rowsDecoder(MessageIdRow)

const isFinal = new Set<string>(PartQueue.finalStates)

/** The queue over `sql`. */
export const make = (sql: SqlClient.SqlClient): PartQueue.PartQueue["Service"] => {
  const failed = [...PartQueue.failedStates]
  const unsent = [...PartQueue.unsentStates]
  const refreshErrorCount = (messageId: string) =>
    sql`UPDATE messages SET error_count = (SELECT count(*) FROM outbox WHERE message_id = ${messageId} AND state IN ${sql.in(failed)})
      WHERE message_id = ${messageId}`
  /**
   * Whether the part in `outbox` must not go out: its number opted out and no part of that message
   * to it reached the SMSC (a started message is finished, so the handset can put it together).
   */
  const withdrawn = sql`(EXISTS (SELECT 1 FROM suppressions s WHERE s.msisdn = outbox.msisdn)
    AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.message_id = outbox.message_id AND o.msisdn = outbox.msisdn
      AND o.state NOT IN ${sql.in(unsent)}))`
  /** Cancelled parts leave their message's `sent_count`. */
  const uncount = (messageIds: ReadonlyArray<string>) => {
    const counts = new Map<string, number>()
    for (const id of messageIds) counts.set(id, (counts.get(id) ?? 0) + 1)
    if (counts.size === 0) return Effect.void
    return sql`UPDATE messages SET sent_count = GREATEST(0, sent_count - c.n)
      FROM unnest(${[...counts.keys()]}::text[], ${[...counts.values()]}::int[]) AS c(message_id, n)
      WHERE messages.message_id = c.message_id`.pipe(Effect.asVoid)
  }
  /** A receipt applied to its part, inside the caller's transaction. */
  const applyReceipt = (receipt: PartQueue.ReceiptInput) =>
    Effect.gen(function*() {
      let rows = receipt.smscIds.length === 0 ? [] : yield* sql`SELECT seq, message_id, msisdn, part, state, smsc_id FROM outbox
        WHERE smsc_id IN ${sql.in(receipt.smscIds)} ORDER BY array_position(${receipt.smscIds}::text[], smsc_id), written DESC NULLS LAST, seq DESC LIMIT 1 FOR UPDATE`.pipe(Effect.flatMap(decodeStates("parts.receipt")))
      if (rows.length === 0) {
        rows = yield* sql`SELECT seq, message_id, msisdn, part, state, smsc_id FROM outbox
          WHERE state = 'in_doubt' AND msisdn = ${receipt.msisdn} ORDER BY written, seq LIMIT 1 FOR UPDATE SKIP LOCKED`.pipe(Effect.flatMap(decodeStates("parts.receipt")))
      }
      const row = rows[0]
      if (row === undefined) return { _tag: "Unknown" } satisfies PartQueue.ReceiptOutcome
      if (isFinal.has(row.state) || row.state === receipt.state) {
        return { _tag: "Duplicate", message_id: row.message_id, state: row.state } satisfies PartQueue.ReceiptOutcome
      }
      yield* sql`UPDATE outbox SET state = ${receipt.state}, smsc_id = coalesce(smsc_id, ${receipt.smscIds[0] ?? null}), lease_until = NULL
        WHERE seq = ${row.seq}`
      if (PartQueue.failedStates.includes(receipt.state)) yield* refreshErrorCount(row.message_id)
      return { _tag: "Updated", message_id: row.message_id, part: row.part, msisdn: row.msisdn, state: receipt.state } satisfies PartQueue.ReceiptOutcome
    })
  /**
   * Receipts in one transaction, in a few statements whatever their number: their parts are found by SMSC id, then
   * locked without waiting (SKIP LOCKED: a batch never holds one part while waiting for another, so it cannot deadlock
   * with another dispatcher), changed in memory in receipt order as `applyReceipt` would one by one, and written at
   * once. A receipt whose part another transaction holds now is `Unknown`: the dispatcher tries it again next turn.
   */
  const applyReceipts = (receipts: ReadonlyArray<PartQueue.ReceiptInput>) =>
    sql.withTransaction(Effect.gen(function*() {
      const ids = [...new Set(receipts.flatMap((receipt) => receipt.smscIds))]
      // Each SMSC id's parts, the one written last first: a receipt names the part given its own id last (an SMSC that
      // restarts numbers its parts from the start again), else its first other spelling that a part holds (as SQLite
      // asks them in turn): an SMSC numbering in decimal gave another part `10`, which is also the hex of a receipt's `16`.
      const known = ids.length === 0 ? [] : yield* sql`SELECT seq, smsc_id FROM outbox
        WHERE smsc_id = ANY(${ids}::text[]) ORDER BY written DESC NULLS LAST, seq DESC`.pipe(Effect.flatMap(decodeSmscIds("parts.receipts")))
      const seqsById = new Map<string, Array<number>>()
      const index = (id: string, seq: number) => {
        const seqs = seqsById.get(id) ?? []
        seqs.push(seq)
        seqsById.set(id, seqs)
      }
      for (const row of known) index(row.smsc_id, row.seq)
      const wanted = [...new Set(known.map((row) => row.seq))]
      const locked = wanted.length === 0 ? [] : yield* sql`SELECT seq, message_id, msisdn, part, state, smsc_id FROM outbox
        WHERE seq = ANY(${wanted}::bigint[]) ORDER BY seq FOR UPDATE SKIP LOCKED`.pipe(Effect.flatMap(decodeStates("parts.receipts")))
      const rows = new Map(locked.map((row) => [row.seq, { ...row }]))
      const changed = new Map<number, { readonly state: PartQueue.State; readonly smscId: string | null }>()
      const failedMessages = new Set<string>()
      // In-doubt parts are looked up in the table: what this batch changed is written first.
      const write = Effect.gen(function*() {
        if (changed.size === 0) return
        const seqs = [...changed.keys()]
        const values = [...changed.values()]
        changed.clear()
        yield* sql`UPDATE outbox SET state = c.state, smsc_id = coalesce(outbox.smsc_id, c.smsc_id), lease_until = NULL
          FROM unnest(${seqs}::bigint[], ${values.map((value) => value.state)}::text[], ${values.map((value) => value.smscId)}::text[]) AS c(seq, state, smsc_id)
          WHERE outbox.seq = c.seq`
      })
      const outcomes: Array<PartQueue.ReceiptOutcome> = []
      for (const receipt of receipts) {
        const target = receipt.smscIds.map((id) => seqsById.get(id)?.[0]).find((seq) => seq !== undefined) ?? Number.POSITIVE_INFINITY
        let row = rows.get(target)
        if (Number.isFinite(target) && row === undefined) {
          outcomes.push({ _tag: "Unknown" })
          continue
        }
        if (row === undefined) {
          yield* write
          const inDoubt = yield* sql`SELECT seq, message_id, msisdn, part, state, smsc_id FROM outbox
            WHERE state = 'in_doubt' AND msisdn = ${receipt.msisdn} ORDER BY written, seq LIMIT 1 FOR UPDATE SKIP LOCKED`.pipe(Effect.flatMap(decodeStates("parts.receipts")))
          const found = inDoubt[0]
          if (found === undefined) {
            outcomes.push({ _tag: "Unknown" })
            continue
          }
          row = rows.get(found.seq) ?? { ...found }
          rows.set(row.seq, row)
        }
        if (isFinal.has(row.state) || row.state === receipt.state) {
          outcomes.push({ _tag: "Duplicate", message_id: row.message_id, state: row.state })
          continue
        }
        row.state = receipt.state
        const first = receipt.smscIds[0]
        if (row.smsc_id === null && first !== undefined) {
          row.smsc_id = first
          index(first, row.seq)
        }
        changed.set(row.seq, { state: receipt.state, smscId: row.smsc_id })
        if (PartQueue.failedStates.includes(receipt.state)) failedMessages.add(row.message_id)
        outcomes.push({ _tag: "Updated", message_id: row.message_id, part: row.part, msisdn: row.msisdn, state: receipt.state })
      }
      yield* write
      for (const messageId of failedMessages) yield* refreshErrorCount(messageId)
      return outcomes
    }))
  return PartQueue.PartQueue.of({
    // Several dispatchers may run: entering renews this one's leases, and ends those of a dispatcher
    // of this host whose process is gone (a restart takes over at once; others wait for the lease).
    enter: (dispatcher, now, leaseMs) =>
      Effect.gen(function*() {
        yield* sql`UPDATE outbox SET lease_until = ${now + leaseMs}
          WHERE state IN ('claimed', 'submitting') AND owner = ${dispatcher.owner}`
        const owners = yield* sql`SELECT DISTINCT owner FROM outbox
          WHERE state IN ('claimed', 'submitting') AND lease_until >= ${now} AND owner <> ${dispatcher.owner}`.pipe(
          Effect.flatMap(decodeOwners("parts.enter"))
        )
        const dead = owners.map((row) => row.owner).filter((owner) => DispatcherProcess.deadHere(owner, dispatcher.host))
        if (dead.length > 0) {
          yield* sql`UPDATE outbox SET lease_until = 0 WHERE state IN ('claimed', 'submitting') AND owner = ANY(${dead}::text[])`
        }
      }).pipe(attempt("parts.enter")),
    leave: () => Effect.void,
    claim: (owner, limit, now, leaseMs) =>
      // A number with a part in doubt gets nothing more until it is settled (see the SQLite queue).
      sql.withTransaction(Effect.gen(function*() {
        const rows = yield* sql`UPDATE outbox SET
            state = CASE WHEN ${withdrawn} THEN 'cancelled' ELSE 'claimed' END,
            owner = CASE WHEN ${withdrawn} THEN NULL ELSE ${owner} END,
            lease_until = CASE WHEN ${withdrawn} THEN NULL ELSE ${now + leaseMs}::bigint END
          WHERE seq IN (SELECT seq FROM outbox WHERE state = 'queued'
            AND NOT EXISTS (SELECT 1 FROM outbox d WHERE d.state = 'in_doubt' AND d.msisdn = outbox.msisdn AND d.lease_until IS NOT NULL)
            ORDER BY seq LIMIT ${limit} FOR UPDATE SKIP LOCKED)
          RETURNING seq, message_id, msisdn, short_code, part, parts, text, state`.pipe(Effect.flatMap(decodeClaimed("parts.claim")))
        const cancelled = rows.filter((row) => row.state === "cancelled")
        yield* uncount(cancelled.map((row) => row.message_id))
        const parts = rows.filter((row) => row.state !== "cancelled")
          .map(({ state: _state, ...part }) => part)
          .sort((a, b) => a.seq - b.seq)
        return { parts, cancelled: cancelled.length } satisfies PartQueue.Claim
      })).pipe(attempt("parts.claim")),
    sending: (seqs) =>
      seqs.length === 0 ? Effect.succeed([]) : sql.withTransaction(Effect.gen(function*() {
        const written = seqs.map(() => DispatcherProcess.nextWrite())
        const rows = yield* sql`UPDATE outbox SET
            state = CASE WHEN outbox.state = 'claimed' AND ${withdrawn} THEN 'cancelled' ELSE 'submitting' END,
            written = CASE WHEN outbox.state = 'claimed' THEN w.written ELSE outbox.written END
          FROM unnest(${seqs}::bigint[], ${written}::bigint[]) AS w(seq, written)
          WHERE outbox.seq = w.seq AND outbox.state IN ('claimed', 'submitting')
          RETURNING outbox.seq, outbox.message_id, outbox.state`.pipe(Effect.flatMap(decodeSeqs("parts.sending")))
        const cancelled = rows.filter((row) => row.state === "cancelled")
        if (cancelled.length > 0) {
          yield* uncount(cancelled.map((row) => row.message_id))
          yield* sql`UPDATE outbox SET owner = NULL, lease_until = NULL WHERE seq = ANY(${cancelled.map((row) => row.seq)}::bigint[])`
        }
        const allowed = new Set(rows.filter((row) => row.state === "submitting").map((row) => row.seq))
        return seqs.filter((seq) => allowed.has(seq))
      })).pipe(attempt("parts.sending")),
    notTaken: (seqs) =>
      seqs.length === 0 ? Effect.void : sql`UPDATE outbox SET state = 'claimed'
        WHERE seq = ANY(${seqs}::bigint[]) AND state = 'submitting'`.pipe(Effect.asVoid, attempt("parts.notTaken")),
    recover: (now, doubtMs) =>
      sql.withTransaction(Effect.gen(function*() {
        const requeued = yield* sql`UPDATE outbox SET state = 'queued', owner = NULL, lease_until = NULL
          WHERE state = 'claimed' AND lease_until < ${now} RETURNING seq`
        const inDoubt = yield* sql`UPDATE outbox SET state = 'in_doubt', owner = NULL, lease_until = ${doubtMs === undefined ? null : now + doubtMs}
          WHERE state = 'submitting' AND lease_until < ${now} RETURNING seq`
        return { requeued: requeued.length, inDoubt: inDoubt.length } satisfies PartQueue.Recovered
      })).pipe(attempt("parts.recover")),
    resend: (now) =>
      sql`UPDATE outbox SET state = 'queued', lease_until = NULL
        WHERE state = 'in_doubt' AND lease_until IS NOT NULL AND lease_until < ${now} RETURNING seq`.pipe(
        Effect.map((rows) => rows.length),
        attempt("parts.resend")
      ),
    answer: (answers) => {
      if (answers.length === 0) return Effect.void
      const accepted = answers.flatMap((answer) => "smscId" in answer ? [answer] : [])
      const refused = answers.flatMap((answer) => "smscId" in answer ? [] : [answer.seq])
      return sql.withTransaction(Effect.gen(function*() {
        if (accepted.length > 0) {
          yield* sql`UPDATE outbox SET state = 'submitted', smsc_id = a.smsc_id, owner = NULL, lease_until = NULL
            FROM unnest(${accepted.map((answer) => answer.seq)}::bigint[], ${accepted.map((answer) => answer.smscId)}::text[]) AS a(seq, smsc_id)
            WHERE outbox.seq = a.seq AND outbox.state IN ('submitting', 'in_doubt')`
        }
        if (refused.length > 0) {
          const rows = yield* sql`UPDATE outbox SET state = 'refused', owner = NULL, lease_until = NULL
            WHERE seq = ANY(${refused}::bigint[]) RETURNING message_id`.pipe(Effect.flatMap(decodeMessageIds("parts.answer")))
          for (const messageId of new Set(rows.map((row) => row.message_id))) yield* refreshErrorCount(messageId)
        }
      })).pipe(attempt("parts.answer"))
    },
    release: (seqs) =>
      seqs.length === 0 ? Effect.void : sql`UPDATE outbox SET state = 'queued', owner = NULL, lease_until = NULL
        WHERE seq = ANY(${seqs}::bigint[]) AND state IN ('claimed', 'submitting')`.pipe(Effect.asVoid, attempt("parts.release")),
    receipt: (receipt) => sql.withTransaction(applyReceipt(receipt)).pipe(attempt("parts.receipt")),
    receipts: (receipts) => receipts.length === 0 ? Effect.succeed([]) : applyReceipts(receipts).pipe(attempt("parts.receipts")),
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
    awaitingReceipts: sql`SELECT count(*) AS n FROM outbox WHERE state = 'submitted'`.pipe(countOf("parts.awaitingReceipts")),
    pending: sql`SELECT count(*) AS n FROM outbox WHERE state IN ('queued', 'claimed', 'submitting')
      OR (state = 'in_doubt' AND lease_until IS NOT NULL)`.pipe(countOf("parts.pending"))
  })
}

/**
 * The queue of the PostgreSQL database at `url`, migrated on start; the pool closes with the layer. `lockWait` bounds
 * its waits for another transaction's locks, as the store's own (`PostgresStore.Options.lockWait`).
 */
export const layer = (url: string, options: { readonly lockWait?: Duration.Input | undefined } = {}): Layer.Layer<PartQueue.PartQueue, StoreUnavailable> =>
  Layer.effect(PartQueue.PartQueue, Effect.map(Pool.open(url, { maxConnections: 4, lockWait: options.lockWait }), make))
