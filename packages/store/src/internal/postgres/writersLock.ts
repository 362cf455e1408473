/**
 * The writers lock of a PostgreSQL book: an advisory transaction lock that batch writers (imports, sets of opt-outs)
 * take exclusive, one after the other, and that a contact created on its own takes shared, waiting for the batch
 * writer at work without holding a connection of the pool while it waits for its turn.
 */
import { Cause, Context, Effect, Option, Semaphore } from "effect"
import type { SqlClient, SqlError } from "effect/sql"
import { StoreFailure } from "@smsbook/core"
import * as Contention from "../contention.ts"
import { transaction } from "./connection.ts"

/**
 * The class of the advisory lock that batch writers of one book queue on (an arbitrary constant: "SMSB"); its other
 * half is the book's schema, so books in other schemas of one database do not wait on each other.
 */
const writersLock = 0x534d5342

/** A new contact's transaction found a batch writer at work: it ends, giving its connection back, and queues. */
export class WritersAtWork {
  readonly _tag = "WritersAtWork"
}
const writersAtWork = new WritersAtWork()
const isWritersAtWork = (error: unknown): error is WritersAtWork => error === writersAtWork

/**
 * How a new contact inside a transaction waits for a batch writer: `queue` in PostgreSQL's lock queue, holding the
 * transaction's connection (the transaction cannot be run again), or `rerun`: end it, to be run again queued
 * (`retrying`).
 */
type CreationsMode = "queue" | "rerun"
const Creations = Context.Reference<CreationsMode>("@smsbook/store/postgres/writersLock/Creations", { defaultValue: () => "queue" })

/**
 * When a queued creation's wait ends (`performance.now()` time): the lock wait counts from the creation's start, so
 * the wait for a permit and the wait in the lock's queue share it. Unset: the pool's own `lock_timeout`.
 */
const QueueDeadline = Context.Reference<number | undefined>("@smsbook/store/postgres/writersLock/QueueDeadline", { defaultValue: () => undefined })

/** Connections of the pool a queue of new contacts leaves to everything else (reads, `/health`, other writes). */
const keptForOthers = 2

export interface Options {
  /** The pool's connections: at most all but two of them wait in the lock's queue for new contacts at once. */
  readonly maxConnections: number
  /** How long a new contact waits for a batch writer (no limit when unset, as PostgreSQL's own `lock_timeout`). */
  readonly lockWaitMs?: number | undefined
}

/** The writers lock of the book `sql` reaches (its schema's). */
export const make = (sql: SqlClient.SqlClient, options: Options) => {
  // Batch writers of one book (imports, sets of opt-outs) queue here, on an advisory lock held to the end of their
  // transaction, before their first read: two imports then run one after the other, and neither writes back a batch
  // it read before the other's commit, nor waits on the other's rows.
  const queueWriters = sql`SELECT pg_advisory_xact_lock(${writersLock}::int4, hashtext(current_schema())) AS locked`

  // A contact created on its own (an add, an unknown sender) waits for the batch writer at work, sharing the lock with
  // other such creations: a batch writer's suppression entries are visible to no one until it commits, so a contact
  // created meanwhile was stored SUBSCRIBED with its number on the list (the `SuppressionRace` law). Only a creation
  // waits: the contact port's `insert` and `getOrInsert` look for the stored contact first, without the lock.
  // A connection blocked on the lock for a whole import is one the pool cannot lend: a server's creations during a
  // nightly import took every connection, and its reads waited as long. So a creation first asks without waiting;
  // while a batch writer holds the lock, its transaction ends and it queues for the lock (in PostgreSQL's queue, so it
  // gets in between two writers) with at most `maxConnections` − 2 others at once: the rest of the pool stays free.
  const tryBehindWriters = sql`SELECT pg_try_advisory_xact_lock_shared(${writersLock}::int4, hashtext(current_schema())) AS locked`.pipe(
    Effect.flatMap((rows) => rows[0]?.["locked"] === true ? Effect.void : Effect.fail(writersAtWork))
  )
  // In the lock's queue for what is left of the creation's lock wait (`SET LOCAL`: this transaction only).
  const queueBehindWriters = Effect.flatMap(Effect.service(QueueDeadline), (deadline) =>
    Effect.andThen(
      deadline === undefined
        ? Effect.void
        : Effect.asVoid(sql.unsafe(`SET LOCAL lock_timeout = ${Math.max(1, Math.ceil(deadline - performance.now()))}`)),
      sql`SELECT pg_advisory_xact_lock_shared(${writersLock}::int4, hashtext(current_schema())) AS locked`
    ))
  const queueing = Semaphore.makeUnsafe(Math.max(1, options.maxConnections - keptForOthers))

  /**
   * Runs `queued` with one of the permits to queue for the lock. The lock wait counts from `started` (the creation's
   * start): the wait for a permit and the wait in the lock's queue together last at most that.
   */
  const withPermit = <A, E, R>(operation: string, started: number, queued: Effect.Effect<A, E, R>): Effect.Effect<A, E | StoreFailure, R> => {
    const { lockWaitMs } = options
    const deadline = lockWaitMs === undefined ? undefined : started + lockWaitMs
    const permit = deadline === undefined
      ? Effect.as(queueing.take(1), Option.some(1))
      : Effect.timeoutOption(queueing.take(1), Math.max(0, deadline - performance.now()))
    // The permit is given back however the creation ends, an interruption included.
    return Effect.uninterruptibleMask((restore) =>
      Effect.flatMap(restore(permit), (taken): Effect.Effect<A, E | StoreFailure, R> =>
        Option.isNone(taken)
          ? Effect.fail(new StoreFailure({
            operation,
            reason: `other new contacts waited for an import or a suppression load of this book longer than the lock wait (--wait) of ${lockWaitMs} ms; nothing was written`
          }))
          : Effect.ensuring(restore(Effect.provideService(queued, QueueDeadline, deadline)), queueing.release(1)))
    )
  }

  /**
   * Runs a creation's transaction (`queue`: whether it waits in the lock's queue) without waiting, then, if a batch
   * writer was at work, again in the queue with one of the permits. Inside another transaction, that transaction
   * holds its connection: where it is a `retrying` one (an inbound message stored with its new sender), the creation
   * ends it (a `WritersAtWork` defect) for `retrying` to run it again queued; inside any other, it queues at once.
   */
  const creation = <A, E, R>(
    operation: string,
    run: (queue: boolean) => Effect.Effect<A, E | WritersAtWork, R>
  ): Effect.Effect<A, E | StoreFailure, R> => {
    // Queued, it waits in PostgreSQL instead of failing: a `WritersAtWork` from it would be a defect.
    const queued = Effect.catch(run(true), (error) => isWritersAtWork(error) ? Effect.die(error) : Effect.fail(error))
    const unqueued = (atWork: (error: WritersAtWork) => Effect.Effect<A, E | StoreFailure, R>) =>
      Effect.catch(run(false), (error) => isWritersAtWork(error) ? atWork(error) : Effect.fail(error))
    return Effect.flatMap(
      Effect.all([Effect.serviceOption(sql.transactionService), Effect.service(Creations)]),
      ([outer, creations]): Effect.Effect<A, E | StoreFailure, R> => {
        const started = performance.now()
        return Option.isNone(outer)
          ? unqueued(() => withPermit(operation, started, queued))
          : creations === "rerun" ? unqueued(Effect.die) : queued
      }
    )
  }

  /**
   * `Contention.retrying` of a transaction that a new contact inside it may end for want of the writers lock: it then
   * runs again, queued, with one of the permits, its connection given back to the pool in between.
   */
  const retrying = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | StoreFailure, R> => {
    const once = (creations: CreationsMode) => Contention.retrying(transaction(sql))(Effect.provideService(effect, Creations, creations))
    return Effect.suspend(() => {
      const started = performance.now()
      return Effect.catchCause(once("rerun"), (cause) => {
        const defect = Cause.findDefect(cause)
        return defect._tag === "Success" && isWritersAtWork(defect.success)
          ? withPermit("ContactStore.retrying", started, once("queue"))
          : Effect.failCause(cause)
      })
    })
  }

  /** The lock taken shared by a creation: in the lock's queue, or without waiting (`WritersAtWork` while a writer holds it). */
  const behindWriters = (queue: boolean): Effect.Effect<void, SqlError.SqlError | WritersAtWork> =>
    Effect.asVoid(queue ? queueBehindWriters : tryBehindWriters)

  return { queueWriters, behindWriters, creation, retrying }
}
