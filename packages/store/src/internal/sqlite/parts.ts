/**
 * The dispatcher's queue in a SQLite store: outbox parts with their state (migration 4), claimed by
 * the one dispatcher a file allows, on a connection of its own beside the store's.
 */
import { hostname } from "node:os"
import { Effect, Layer } from "effect"
import { PartQueue, StoreFailure, type StoreUnavailable } from "@smsbook/core"
import * as Connection from "./connection.ts"
import type { LockWait } from "./lockHolder.ts"
import * as Migrations from "./migrations.ts"
import * as Rows from "./rows.ts"

const inList = (states: ReadonlyArray<string>) => states.map((state) => `'${state}'`).join(", ")
const failed = inList(PartQueue.failedStates)

const sql = {
  holder: "SELECT owner, host, pid, lease_until FROM dispatcher WHERE id = 1",
  takeOver: "INSERT INTO dispatcher (id, owner, host, pid, lease_until) VALUES (1, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET owner = excluded.owner, host = excluded.host, pid = excluded.pid, lease_until = excluded.lease_until",
  abandon: "UPDATE outbox SET state = 'unknown', owner = NULL, lease_until = NULL WHERE state = 'submitting'",
  renewParts: "UPDATE outbox SET lease_until = ? WHERE state = 'submitting' AND owner = ?",
  leave: "DELETE FROM dispatcher WHERE id = 1 AND owner = ?",
  claim: `UPDATE outbox SET state = 'submitting', owner = ?, lease_until = ?
    WHERE seq IN (SELECT seq FROM outbox WHERE state = 'queued' ORDER BY seq LIMIT ?)
    RETURNING seq, ${Rows.partColumns.join(", ")}`,
  recover: "UPDATE outbox SET state = 'unknown', owner = NULL, lease_until = NULL WHERE state = 'submitting' AND lease_until < ?",
  submitted: "UPDATE outbox SET state = 'submitted', smsc_id = ?, owner = NULL, lease_until = NULL WHERE seq = ? AND state IN ('submitting', 'unknown')",
  refused: "UPDATE outbox SET state = 'refused', owner = NULL, lease_until = NULL WHERE seq = ? RETURNING message_id",
  release: "UPDATE outbox SET state = 'queued', owner = NULL, lease_until = NULL WHERE seq = ? AND state = 'submitting'",
  bySmscId: "SELECT seq, message_id, msisdn, part, state FROM outbox WHERE smsc_id = ? ORDER BY seq LIMIT 1",
  oldestUnknown: "SELECT seq, message_id, msisdn, part, state FROM outbox WHERE state = 'unknown' AND msisdn = ? ORDER BY seq LIMIT 1",
  setState: "UPDATE outbox SET state = ?, smsc_id = coalesce(smsc_id, ?) WHERE seq = ?",
  errorCount: `UPDATE messages SET error_count = (SELECT count(*) FROM outbox WHERE message_id = ?1 AND state IN (${failed})) WHERE message_id = ?1`,
  states: "SELECT message_id, msisdn, part, state, smsc_id FROM outbox WHERE message_id = ? ORDER BY part, msisdn, seq",
  pending: "SELECT count(*) AS n FROM outbox WHERE state IN ('queued', 'submitting')"
} as const

const isFinal = new Set<string>(PartQueue.finalStates)

/** Whether process `pid` runs on this host (signal 0 only checks; EPERM means it exists). */
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return error instanceof Error && "code" in error && error.code === "EPERM"
  }
}

const stateOf = (row: Rows.Row): PartQueue.State => {
  const value = Rows.text(row, "state")
  const known: ReadonlyArray<PartQueue.State> = ["kept", "queued", "submitting", "submitted", "refused", "unknown", "enroute", "accepted", "delivered", "undeliverable", "expired", "rejected", "deleted"]
  const state = known.find((candidate) => candidate === value)
  if (state === undefined) throw new Error(`outbox.state holds ${JSON.stringify(value)}, not a part state`)
  return state
}

/** The queue over an open, migrated file. */
export const make = (db: Connection.Database): PartQueue.PartQueue["Service"] => {
  const refreshErrorCount = (messageId: string) => db.statement(sql.errorCount).run(messageId)
  return PartQueue.PartQueue.of({
    enter: (dispatcher, now, leaseMs) =>
      Effect.flatten(db.write("parts.enter", () => {
        const holder = db.statement(sql.holder).get()
        if (holder !== undefined && Rows.text(holder, "owner") !== dispatcher.owner) {
          const host = Rows.text(holder, "host")
          const pid = Rows.number(holder, "pid")
          const leaseLive = Rows.number(holder, "lease_until") >= now
          const dead = host === dispatcher.host ? !alive(pid) : !leaseLive
          if (!dead) {
            return Effect.fail(new StoreFailure({
              operation: "dispatch",
              reason: `another dispatcher (process ${pid} on ${host}) is draining this SQLite book; only one may run on SQLite (use PostgreSQL to run several)`
            }))
          }
          // The previous dispatcher died: what it had on the wire may have reached the SMSC.
          db.statement(sql.abandon).run()
        }
        db.statement(sql.takeOver).run(dispatcher.owner, dispatcher.host, dispatcher.pid, now + leaseMs)
        db.statement(sql.renewParts).run(now + leaseMs, dispatcher.owner)
        return Effect.void
      })),
    leave: (dispatcher) => db.write("parts.leave", () => void db.statement(sql.leave).run(dispatcher.owner)),
    claim: (owner, limit, now, leaseMs) =>
      db.write("parts.claim", () =>
        db.statement(sql.claim).all(owner, now + leaseMs, limit)
          .map((row) => ({ seq: Rows.number(row, "seq"), ...Rows.partFromRow(row) }))
          .sort((a, b) => a.seq - b.seq)),
    recover: (now) => db.write("parts.recover", () => Number(db.statement(sql.recover).run(now).changes)),
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
    receipt: (receipt) =>
      db.write("parts.receipt", (): PartQueue.ReceiptOutcome => {
        const row = receipt.smscIds.map((id) => db.statement(sql.bySmscId).get(id)).find((found) => found !== undefined) ??
          db.statement(sql.oldestUnknown).get(receipt.msisdn)
        if (row === undefined) return { _tag: "Unknown" }
        const messageId = Rows.text(row, "message_id")
        const current = stateOf(row)
        if (isFinal.has(current) || current === receipt.state) return { _tag: "Duplicate", message_id: messageId, state: current }
        db.statement(sql.setState).run(receipt.state, receipt.smscIds[0] ?? null, Rows.number(row, "seq"))
        if (PartQueue.failedStates.includes(receipt.state)) refreshErrorCount(messageId)
        return { _tag: "Updated", message_id: messageId, part: Rows.number(row, "part"), msisdn: Rows.text(row, "msisdn"), state: receipt.state }
      }),
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
    pending: db.read("parts.pending", () => Rows.number(db.statement(sql.pending).get() ?? { n: 0 }, "n"))
  })
}

/** The queue of the SQLite file at `path` (created and migrated if needed), closed with the layer. */
export const layer = (
  path: string,
  options: { readonly lockWaitMs: number; readonly onLockWait?: ((notice: LockWait) => void) | undefined }
): Layer.Layer<PartQueue.PartQueue, StoreUnavailable> =>
  Layer.effect(
    PartQueue.PartQueue,
    Effect.gen(function*() {
      const db = yield* Connection.make(path, options.lockWaitMs, undefined, options.onLockWait)
      yield* Migrations.run(db, path)
      return make(db)
    })
  )

/** This process as a dispatcher: a fresh owner name, the host and the pid. */
export const thisProcess = (): PartQueue.Dispatcher => ({
  owner: `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 10)}`,
  host: hostname(),
  pid: process.pid
})
