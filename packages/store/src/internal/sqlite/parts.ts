/**
 * The dispatcher's queue in a SQLite store: outbox parts with their state (migrations 4 and 5), claimed by
 * the one dispatcher a file allows, on a connection of its own beside the store's.
 */
import { Effect, Layer } from "effect"
import { PartQueue, StoreFailure, type StoreUnavailable } from "@smsbook/core"
import * as DispatcherProcess from "../dispatcherProcess.ts"
import * as Connection from "./connection.ts"
import * as Migrations from "./migrations.ts"
import * as Rows from "./rows.ts"

const inList = (states: ReadonlyArray<string>) => states.map((state) => `'${state}'`).join(", ")
const unsent = inList(PartQueue.unsentStates)
// Every query over parts still on their way names the outbox_pending index's predicate, so SQLite can use it.
const live = Migrations.livePartsPredicate

/** The queue's statements; `sql` in tests, which check that none of them scans the outbox. */
export const sql = {
  holder: "SELECT owner, host, pid, lease_until FROM dispatcher WHERE id = 1",
  takeOver: "INSERT INTO dispatcher (id, owner, host, pid, lease_until) VALUES (1, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET owner = excluded.owner, host = excluded.host, pid = excluded.pid, lease_until = excluded.lease_until",
  // One dispatcher per file: when it enters, every lease of another owner has ended.
  endOthers: `UPDATE outbox SET lease_until = 0 WHERE ${live} AND state IN ('claimed', 'submitting') AND owner IS NOT ?`,
  renewParts: `UPDATE outbox SET lease_until = ? WHERE ${live} AND state IN ('claimed', 'submitting') AND owner = ?`,
  leave: "DELETE FROM dispatcher WHERE id = 1 AND owner = ?",
  // A number with a part in doubt gets nothing more until a receipt or the end of the doubt settles
  // it: then its parts in doubt all come from the last writes before one crash, and a receipt from
  // it settles the oldest of them rightly.
  next: `SELECT seq, ${Rows.partColumns.join(", ")} FROM outbox WHERE ${live} AND state = 'queued'
    AND NOT EXISTS (SELECT 1 FROM outbox d WHERE d.state = 'in_doubt' AND d.msisdn = outbox.msisdn AND d.lease_until IS NOT NULL)
    ORDER BY seq LIMIT ?`,
  claimOne: "UPDATE outbox SET state = 'claimed', owner = ?, lease_until = ? WHERE seq = ?",
  byseq: "SELECT message_id, msisdn, state FROM outbox WHERE seq = ?",
  toSubmitting: "UPDATE outbox SET state = 'submitting', written = ? WHERE seq = ?",
  notTaken: "UPDATE outbox SET state = 'claimed' WHERE seq = ? AND state = 'submitting'",
  optedOut: "SELECT 1 AS found FROM suppressions WHERE msisdn = ?",
  started: `SELECT 1 AS found FROM outbox WHERE message_id = ? AND msisdn = ? AND state NOT IN (${unsent}) LIMIT 1`,
  cancel: "UPDATE outbox SET state = 'cancelled', owner = NULL, lease_until = NULL WHERE seq = ?",
  uncount: "UPDATE messages SET sent_count = max(0, sent_count - ?) WHERE message_id = ?",
  requeue: `UPDATE outbox SET state = 'queued', owner = NULL, lease_until = NULL WHERE ${live} AND state = 'claimed' AND lease_until < ?`,
  doubt: `UPDATE outbox SET state = 'in_doubt', owner = NULL, lease_until = ? WHERE ${live} AND state = 'submitting' AND lease_until < ?`,
  resend: `UPDATE outbox SET state = 'queued', lease_until = NULL WHERE ${live} AND state = 'in_doubt' AND lease_until IS NOT NULL AND lease_until < ?`,
  submitted: "UPDATE outbox SET state = 'submitted', smsc_id = ?, owner = NULL, lease_until = NULL WHERE seq = ? AND state IN ('submitting', 'in_doubt')",
  refused: "UPDATE outbox SET state = 'refused', owner = NULL, lease_until = NULL WHERE seq = ? RETURNING message_id",
  release: "UPDATE outbox SET state = 'queued', owner = NULL, lease_until = NULL WHERE seq = ? AND state IN ('claimed', 'submitting')",
  // The part given the id last (written last: a part queued early may be sent late): an SMSC that restarts numbers its
  // parts from the start again, and the earlier part holding the id has had its receipt.
  bySmscId: "SELECT seq, message_id, msisdn, part, state FROM outbox WHERE smsc_id = ? ORDER BY written DESC, seq DESC LIMIT 1",
  oldestInDoubt: "SELECT seq, message_id, msisdn, part, state FROM outbox WHERE state = 'in_doubt' AND msisdn = ? ORDER BY written, seq LIMIT 1",
  setState: "UPDATE outbox SET state = ?, smsc_id = coalesce(smsc_id, ?), lease_until = NULL WHERE seq = ?",
  errorCount: `UPDATE messages SET error_count = (SELECT count(*) FROM outbox WHERE message_id = ?1 AND ${Migrations.failedPartsPredicate}) WHERE message_id = ?1`,
  states: "SELECT message_id, msisdn, part, state, smsc_id FROM outbox WHERE message_id = ? ORDER BY part, msisdn, seq",
  awaiting: "SELECT count(*) AS n FROM outbox WHERE state = 'submitted'",
  pending: `SELECT count(*) AS n FROM outbox WHERE ${live} AND (state IN ('queued', 'claimed', 'submitting')
    OR (state = 'in_doubt' AND lease_until IS NOT NULL))`
} as const

const isFinal = new Set<string>(PartQueue.finalStates)

const stateOf = (row: Rows.Row): PartQueue.State => {
  const value = Rows.text(row, "state")
  const state = PartQueue.states.find((candidate) => candidate === value)
  if (state === undefined) throw new Error(`outbox.state holds ${JSON.stringify(value)}, not a part state`)
  return state
}

/** The queue over an open, migrated file. */
export const make = (db: Connection.Database): PartQueue.PartQueue["Service"] => {
  const refreshErrorCount = (messageId: string) => db.statement(sql.errorCount).run(messageId)
  /**
   * Whether a part of `messageId` to `msisdn` must not go out: the number opted out and no part of
   * that message to it reached the SMSC (a started message is finished, so the handset can put it together).
   */
  const withdrawn = (messageId: string, msisdn: string): boolean =>
    db.statement(sql.optedOut).get(msisdn) !== undefined && db.statement(sql.started).get(messageId, msisdn) === undefined
  /** Cancels the part `seq` of `messageId`; the message's `sent_count` no longer counts it. */
  const cancel = (seq: number, messageId: string) => {
    db.statement(sql.cancel).run(seq)
    db.statement(sql.uncount).run(1, messageId)
  }
  /** A receipt applied to its part, inside the caller's transaction. */
  const applyReceipt = (receipt: PartQueue.ReceiptInput): PartQueue.ReceiptOutcome => {
    const row = receipt.smscIds.map((id) => db.statement(sql.bySmscId).get(id)).find((found) => found !== undefined) ??
      db.statement(sql.oldestInDoubt).get(receipt.msisdn)
    if (row === undefined) return { _tag: "Unknown" }
    const messageId = Rows.text(row, "message_id")
    const current = stateOf(row)
    if (isFinal.has(current) || current === receipt.state) return { _tag: "Duplicate", message_id: messageId, state: current }
    db.statement(sql.setState).run(receipt.state, receipt.smscIds[0] ?? null, Rows.number(row, "seq"))
    if (PartQueue.failedStates.includes(receipt.state)) refreshErrorCount(messageId)
    return { _tag: "Updated", message_id: messageId, part: Rows.number(row, "part"), msisdn: Rows.text(row, "msisdn"), state: receipt.state }
  }
  return PartQueue.PartQueue.of({
    enter: (dispatcher, now, leaseMs) =>
      Effect.flatten(db.write("parts.enter", () => {
        const holder = db.statement(sql.holder).get()
        if (holder === undefined || Rows.text(holder, "owner") !== dispatcher.owner) {
          if (holder !== undefined) {
            const host = Rows.text(holder, "host")
            const pid = Rows.number(holder, "pid")
            const leaseLive = Rows.number(holder, "lease_until") >= now
            const dead = host === dispatcher.host ? !DispatcherProcess.alive(pid) : !leaseLive
            if (!dead) {
              return Effect.fail(new StoreFailure({
                operation: "dispatch",
                reason: `another dispatcher (process ${pid} on ${host}) is draining this SQLite book; only one may run on SQLite (use PostgreSQL to run several)`
              }))
            }
          }
          // The previous dispatcher stopped or died: `recover` settles what it held.
          db.statement(sql.endOthers).run(dispatcher.owner)
        }
        db.statement(sql.takeOver).run(dispatcher.owner, dispatcher.host, dispatcher.pid, now + leaseMs)
        db.statement(sql.renewParts).run(now + leaseMs, dispatcher.owner)
        return Effect.void
      })),
    leave: (dispatcher) => db.write("parts.leave", () => void db.statement(sql.leave).run(dispatcher.owner)),
    claim: (owner, limit, now, leaseMs) =>
      db.write("parts.claim", () => {
        const parts: Array<PartQueue.Claimed> = []
        let cancelled = 0
        for (const row of db.statement(sql.next).all(limit)) {
          const part = { seq: Rows.number(row, "seq"), ...Rows.partFromRow(row) }
          if (withdrawn(part.message_id, part.msisdn)) {
            cancel(part.seq, part.message_id)
            cancelled++
          } else {
            db.statement(sql.claimOne).run(owner, now + leaseMs, part.seq)
            parts.push(part)
          }
        }
        return { parts, cancelled }
      }),
    sending: (seqs) =>
      db.write("parts.sending", () =>
        seqs.filter((seq) => {
          const row = db.statement(sql.byseq).get(seq)
          if (row === undefined) return false
          const state = Rows.text(row, "state")
          if (state === "submitting") return true
          if (state !== "claimed") return false
          const messageId = Rows.text(row, "message_id")
          if (withdrawn(messageId, Rows.text(row, "msisdn"))) {
            cancel(seq, messageId)
            return false
          }
          db.statement(sql.toSubmitting).run(DispatcherProcess.nextWrite(), seq)
          return true
        })),
    notTaken: (seqs) => db.write("parts.notTaken", () => {
      for (const seq of seqs) db.statement(sql.notTaken).run(seq)
    }),
    recover: (now, doubtMs) =>
      db.write("parts.recover", () => ({
        requeued: Number(db.statement(sql.requeue).run(now).changes),
        inDoubt: Number(db.statement(sql.doubt).run(doubtMs === undefined ? null : now + doubtMs, now).changes)
      })),
    resend: (now) => db.write("parts.resend", () => Number(db.statement(sql.resend).run(now).changes)),
    answer: (answers) =>
      db.write("parts.answer", () => {
        const touched = new Set<string>()
        for (const answer of answers) {
          if ("smscId" in answer) db.statement(sql.submitted).run(answer.smscId, answer.seq)
          else {
            const row = db.statement(sql.refused).get(answer.seq)
            if (row !== undefined) touched.add(Rows.text(row, "message_id"))
          }
        }
        for (const messageId of touched) refreshErrorCount(messageId)
      }),
    release: (seqs) => db.write("parts.release", () => {
      for (const seq of seqs) db.statement(sql.release).run(seq)
    }),
    receipt: (receipt) => db.write("parts.receipt", () => applyReceipt(receipt)),
    receipts: (receipts) => receipts.length === 0 ? Effect.succeed([]) : db.write("parts.receipts", () => receipts.map(applyReceipt)),
    states: (messageId) =>
      db.read("parts.states", () =>
        db.statement(sql.states).all(messageId).map((row) => {
          const smscId = row["smsc_id"]
          return {
            message_id: Rows.text(row, "message_id"),
            msisdn: Rows.text(row, "msisdn"),
            part: Rows.number(row, "part"),
            state: stateOf(row),
            ...(typeof smscId === "string" ? { smsc_id: smscId } : {})
          }
        })),
    awaitingReceipts: db.read("parts.awaitingReceipts", () => Rows.number(db.statement(sql.awaiting).get() ?? { n: 0 }, "n")),
    pending: db.read("parts.pending", () => Rows.number(db.statement(sql.pending).get() ?? { n: 0 }, "n"))
  })
}

/** The queue of the SQLite file at `path` (created and migrated if needed), closed with the layer. */
export const layer = (
  path: string,
  options: Pick<Connection.Options, "lockWaitMs" | "onLockWait">
): Layer.Layer<PartQueue.PartQueue, StoreUnavailable> =>
  Layer.effect(
    PartQueue.PartQueue,
    Effect.gen(function*() {
      const db = yield* Connection.make(path, options)
      yield* Migrations.run(db, path)
      return make(db)
    })
  )

