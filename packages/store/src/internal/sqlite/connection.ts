/**
 * One `node:sqlite` connection as the SQLite store uses it: the pragmas it runs under, a cache of
 * prepared statements, and transactions that queue behind other fibers and other processes.
 * Just over 400 lines: the connection's lock, its reads, its transactions and its group commits are one mechanism
 * (each decides whether to take the lock by what the others hold), which split would be read in pieces.
 */
import { DatabaseSync, type StatementSync } from "node:sqlite"
import { Context, Deferred, Effect, Exit, Result, type Scope, Semaphore } from "effect"
import { StoreFailure, StoreUnavailable } from "@smsbook/core"
import * as Contention from "../contention.ts"
import { isBusy, problemOf, reasonOf } from "./errors.ts"
import * as LockHolder from "./lockHolder.ts"
import * as Ownership from "./ownership.ts"

export interface Connection {
  readonly db: DatabaseSync
  /** The prepared statement of `sql`, prepared once per connection and reused for every row. */
  readonly statement: (sql: string) => StatementSync
  /**
   * Tries `BEGIN IMMEDIATE` without waiting: `false` when another connection holds the write lock,
   * so the caller can wait asynchronously (the busy handler would freeze the event loop instead).
   */
  readonly tryBegin: () => boolean
  readonly commit: () => void
  /** Rolls back the open transaction, if any (SQLite may already have rolled back after some errors). */
  readonly rollback: () => void
  readonly close: () => void
}

/** The page cache of a connection unless told otherwise, in KiB: 64 MiB, for bulk work. */
export const defaultCacheKiB = 65536

/**
 * The page size of a new book, in bytes (an existing one keeps its own: it is fixed when the file is first written,
 * which entering WAL mode does, and a book in WAL mode keeps it for good). A merge of an import writes leaves all
 * over the contacts and tag indexes: with 16 KiB pages rather than SQLite's 4, it splits and writes a quarter as
 * many, and the cache holds the same bytes. At 1M rows, the SQLite side of a first import took 8.4 s instead of
 * 10.0, a re-import's 4.9 instead of 5.5.
 */
export const pageSize = 16384

/**
 * Tuning of every connection: new books' {@link pageSize} (before WAL mode, which fixes it), WAL so readers never
 * block the writer, a page cache (64 MiB by default) for bulk work, and TEMP tables and large sorts in a temporary
 * file (the OS caches it): in memory, an import's staging and the sorts of its merges took the 1M-row import's peak
 * from 387 to 567 MB, for 3 % less time.
 */
const pragmas = (busyTimeout: number, cacheKiB: number = defaultCacheKiB): ReadonlyArray<string> => [
  `PRAGMA page_size = ${pageSize}`,
  "PRAGMA journal_mode = WAL",
  "PRAGMA synchronous = NORMAL",
  "PRAGMA foreign_keys = ON",
  `PRAGMA busy_timeout = ${busyTimeout}`,
  `PRAGMA cache_size = -${Math.max(0, Math.floor(cacheKiB))}`,
  "PRAGMA temp_store = FILE"
]

/**
 * How long opening waits for the switch to WAL of a new file that other processes open too, in ms. They clear it in
 * milliseconds; a file another program holds locked in its own journal mode is refused after this, not after `--wait`
 * (the wait blocks the thread, Ctrl-C included).
 */
const switchWait = 2000

const pause = new Int32Array(new SharedArrayBuffer(4))

/**
 * Runs a pragma, waiting a little while another connection holds the lock it needs. SQLite's busy handler does not
 * cover `journal_mode = WAL` on a new file that several processes open at once (imports started together): each holds
 * the shared lock the other's change must wait out, so SQLite answers one of them SQLITE_BUSY at once rather than wait
 * for a deadlock ("database is locked" at open, in one of three overlapping imports). After each wait the file is
 * checked again (`refuse`): what another process wrote meanwhile may make it another program's, never to be altered.
 */
const runPragma = (db: DatabaseSync, pragma: string, refuse: () => void): void => {
  const until = Date.now() + switchWait
  for (;;) {
    try {
      db.prepare(pragma).get()
      return
    } catch (error) {
      if (!isBusy(error) || Date.now() >= until) throw error
      // A pause of 5–25 ms, different for each process, so that they do not meet again.
      Atomics.wait(pause, 0, 0, 5 + Math.floor(Math.random() * 20))
      refuse()
    }
  }
}

/**
 * Opens `path` and applies the pragmas; throws node:sqlite's error when the file cannot be opened
 * or is not a database, and an error saying whose it is when it is another program's SQLite file (closing what was
 * opened). That is read before any pragma: WAL mode rewrites the file's header and leaves a -wal and -shm beside it,
 * which a refused file must not get.
 */
export const open = (path: string, busyTimeout: number, cacheKiB: number = defaultCacheKiB): Connection => {
  const db = new DatabaseSync(path, { enableForeignKeyConstraints: true, timeout: busyTimeout })
  try {
    const refuse = () => {
      const refusal = Ownership.refusal(db)
      if (refusal !== undefined) throw new Error(refusal)
    }
    refuse()
    for (const pragma of pragmas(busyTimeout, cacheKiB)) runPragma(db, pragma, refuse)
  } catch (error) {
    db.close()
    throw error
  }
  const cache = new Map<string, StatementSync>()
  const statement = (sql: string): StatementSync => {
    const cached = cache.get(sql)
    if (cached !== undefined) return cached
    const prepared = db.prepare(sql)
    cache.set(sql, prepared)
    return prepared
  }
  // A pragma takes effect when it is prepared, not when a prepared copy runs: these must be exec'd.
  const noWait = "PRAGMA busy_timeout = 0"
  const wait = `PRAGMA busy_timeout = ${busyTimeout}`
  const begin = db.prepare("BEGIN IMMEDIATE")
  const commit = db.prepare("COMMIT")
  const rollback = db.prepare("ROLLBACK")
  return {
    db,
    statement,
    tryBegin: () => {
      db.exec(noWait)
      try {
        begin.run()
        return true
      } catch (error) {
        if (isBusy(error)) return false
        throw error
      } finally {
        db.exec(wait)
      }
    },
    commit: () => void commit.run(),
    rollback: () => {
      if (db.isOpen && db.isTransaction) rollback.run()
    },
    close: () => {
      if (!db.isOpen) return
      if (db.isTransaction) rollback.run()
      cache.clear()
      db.close()
    }
  }
}

/** When a waiting writer first says so, and how often after. */
const firstNoticeMs = 1000
const noticeEveryMs = 30_000

/**
 * The connections (by object identity) whose transaction the current fiber runs in: a nested
 * `transaction` joins the outer one, and statements run inside it without waiting for the lock.
 */
const ActiveTransactions = Context.Reference<ReadonlySet<object>>("@smsbook/store/SqliteStore/ActiveTransactions", {
  defaultValue: () => new Set()
})

/** The connection as the ports use it: statements run under a lock, writes in transactions. */
export interface Database {
  readonly connection: Connection
  readonly statement: (sql: string) => StatementSync
  /** Runs `run` alone on the connection (or inside the current fiber's transaction). */
  readonly read: <A>(operation: string, run: () => A) => Effect.Effect<A, StoreFailure>
  /** Runs `run` in a transaction of its own, or in the current fiber's. */
  readonly write: <A>(operation: string, run: () => A) => Effect.Effect<A, StoreFailure>
  /** `write` for a step that may refuse: its failure rolls the transaction back. */
  readonly writeOrFail: <A, E>(operation: string, run: () => Result.Result<A, E>) => Effect.Effect<A, E | StoreFailure>
  readonly transaction: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E | StoreFailure, R>
  /** `transaction`, retried with backoff while SQLite reports it busy. */
  readonly retrying: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E | StoreFailure, R>
}

/** node:sqlite's thrown `error` as `StoreFailure({ operation })` (marked as contention when SQLite was busy). */
const failureOf = (operation: string, error: unknown): StoreFailure => {
  const failure = new StoreFailure({ operation, reason: reasonOf(error), ...problemOf(error) })
  return isBusy(error) ? Contention.mark(failure) : failure
}

/** `run`, its thrown error as `StoreFailure({ operation })` (marked as contention when SQLite was busy). */
export const attempt = <A>(operation: string, run: () => A): Effect.Effect<A, StoreFailure> =>
  Effect.try({ try: run, catch: (error) => failureOf(operation, error) })

/**
 * The most transactions one SQLite transaction holds under `groupCommit`: it bounds how long the first of them waits
 * for its COMMIT when transactions keep coming.
 */
const groupLimit = 64

/** Transactions of concurrent fibers that share one SQLite transaction (`groupCommit`), each in a savepoint of it. */
interface Group {
  members: number
  /** Completed by the group's COMMIT (or its failure): no member answers before. */
  readonly committed: Deferred.Deferred<void, StoreFailure>
}

/** Resumes once the I/O callbacks of this turn of the event loop have run (and the fibers they started have yielded). */
const afterThisTurn = Effect.callback<void>((resume) => {
  const timer = setImmediate(() => resume(Effect.void))
  return Effect.sync(() => clearImmediate(timer))
})

export interface Options {
  /** How long a writer waits for another connection's write lock before failing, in ms. */
  readonly lockWaitMs: number
  /** The page cache, in KiB (default `defaultCacheKiB`). */
  readonly cacheKiB?: number | undefined
  /** Told after a writer has waited a second for the lock, then every 30 s it goes on waiting. */
  readonly onLockWait?: ((notice: LockHolder.LockWait) => void) | undefined
  /**
   * Concurrent transactions share one SQLite transaction, each in a savepoint of it, committed once the fibers
   * ready in this turn of the event loop have joined: for a server, where a COMMIT (its pages written to the WAL)
   * costs more than the statements of a request. Every transaction still answers only after its COMMIT; a read
   * outside a transaction may see the writes of the open group (on this connection, as a statement of it would).
   */
  readonly groupCommit?: boolean | undefined
}

/**
 * Opens the file at `path` for the scope's lifetime (closing it after), failing with
 * `StoreUnavailable` when it cannot be opened or is not a database.
 */
export const make = Effect.fnUntraced(function*(
  path: string,
  options: Options
): Effect.fn.Return<Database, StoreUnavailable, Scope.Scope> {
  const { lockWaitMs, cacheKiB = defaultCacheKiB, onLockWait, groupCommit = false } = options
  // The group of transactions not yet committed (`groupCommit`), committed before the connection closes.
  let group: Group | undefined
  const connection = yield* Effect.acquireRelease(
    Effect.try({
      try: () => open(path, lockWaitMs, cacheKiB),
      catch: (error) => new StoreUnavailable({ url: path, reason: reasonOf(error), ...problemOf(error) })
    }),
    (opened) =>
      Effect.sync(() => {
        // A member still running (stopped mid-way) has not finished its writes: the group is not committed then.
        if (running) failGroup(new Error("the store closed while a transaction ran"))
        else commitGroup()
        opened.close()
      })
  )
  // Whether a member of the group is running its effect (holding the lock).
  let running = false
  // node:sqlite is one synchronous connection: a transaction of one fiber must never see the
  // statements of another interleaved into it, so every use of the connection takes this lock.
  const lock = yield* Semaphore.make(1)

  /** Rolls the open group back, if any, and fails its members with `error`'s text. */
  function failGroup(error: unknown): void {
    const failing = group
    group = undefined
    connection.rollback()
    if (failing !== undefined) Deferred.doneUnsafe(failing.committed, Effect.fail(failureOf("transaction", error)))
  }

  /** Commits the open group, if any, and tells its members how it went (under the lock). */
  function commitGroup(): void {
    const committing = group
    if (committing === undefined) return
    try {
      connection.commit()
    } catch (error) {
      return failGroup(error)
    }
    group = undefined
    Deferred.doneUnsafe(committing.committed, Effect.void)
  }

  const exclusive = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.flatMap(Effect.service(ActiveTransactions), (active) => active.has(connection) ? effect : lock.withPermits(1)(effect))

  /**
   * `run` alone on the connection. Outside a SQLite transaction it runs at once: it is synchronous, so no other
   * fiber's statement can come between its own, and no transaction is open whose writes it could see in part. Taking
   * the lock there too cost a server's contact read ~4 µs of CPU. A closed connection fails in `attempt`.
   */
  const read = <A>(operation: string, run: () => A): Effect.Effect<A, StoreFailure> =>
    Effect.suspend(() =>
      connection.db.isOpen && connection.db.isTransaction ? exclusive(attempt(operation, run)) : attempt(operation, run)
    )

  /**
   * `step` under the lock, again and again until it has begun a transaction (`BEGIN IMMEDIATE`, or a group already
   * open), waiting asynchronously between tries (backing off up to 50 ms) while another connection writes. The lock is
   * released for each wait: a read of this connection (`/health`, a contact) must not queue for as long as another
   * process (a nightly import) keeps its write lock. Real time, not `Clock`: it waits for another process, which a
   * test clock does not move. `step` answers `undefined` when the write lock was busy (having done nothing).
   */
  const underWriteLock = <A, E, R>(
    step: (restore: <X, Y, Z>(effect: Effect.Effect<X, Y, Z>) => Effect.Effect<X, Y, Z>) => Effect.Effect<{ readonly value: A } | undefined, E, R>
  ): Effect.Effect<A, E | StoreFailure, R> =>
    Effect.gen(function*() {
      const started = performance.now()
      let pause = 1
      let nextNotice = firstNoticeMs
      for (;;) {
        const done = yield* lock.withPermits(1)(Effect.uninterruptibleMask(step))
        if (done !== undefined) return done.value
        const waitedMs = performance.now() - started
        if (onLockWait !== undefined && waitedMs >= nextNotice) {
          nextNotice += noticeEveryMs
          onLockWait({ path, waitedMs, lockWaitMs, holder: LockHolder.holderOf(path) })
        }
        if (waitedMs >= lockWaitMs) {
          return yield* new StoreFailure({
            operation: "transaction",
            reason: `database is locked: another connection (an import, a send) kept it for more than ${lockWaitMs} ms, ` +
              "the lock wait (--wait, SMSBOOK_LOCK_WAIT); nothing was written"
          })
        }
        const wait = pause
        yield* Effect.promise(() => new Promise<void>((resume) => setTimeout(resume, wait)))
        pause = Math.min(pause * 2, 50)
      }
    })

  /** Tries `BEGIN IMMEDIATE` once, without waiting: `false` when another connection holds the write lock. */
  const tryBegin = attempt("transaction", connection.tryBegin)

  const savepoint = connection.statement("SAVEPOINT smsbook_member")
  const releaseSavepoint = connection.statement("RELEASE smsbook_member")
  const rollbackToSavepoint = connection.statement("ROLLBACK TO smsbook_member")

  /** The group's COMMIT, once the fibers ready in this turn have joined it (unless `groupLimit` came first). */
  const commitLater = (waiting: Group) =>
    Effect.andThen(afterThisTurn, lock.withPermits(1)(Effect.sync(() => group === waiting && commitGroup())))

  /**
   * Ends a member's savepoint: kept when it succeeded, rolled back to when it failed. When SQLite has rolled the whole
   * transaction back (some errors do) or the savepoint cannot end, the group fails: none of it is written.
   */
  const endMember = (joined: Group, succeeded: boolean): void => {
    try {
      if (!connection.db.isTransaction) throw new Error("SQLite rolled the transaction back")
      if (!succeeded) rollbackToSavepoint.run()
      releaseSavepoint.run()
    } catch (error) {
      if (group === joined) failGroup(error)
    }
  }

  /**
   * `transaction` under `groupCommit`: `effect` in a savepoint of the open group (BEGIN IMMEDIATE opens one), its
   * failure rolling back to its savepoint alone; then, outside the lock, the group's COMMIT awaited, whose failure
   * is every member's (a failed member's too: its refusal may rest on the others' writes). Waiting for the lock can
   * be interrupted, as outside groups; once running, a member ends and waits for the COMMIT uninterruptibly.
   */
  const grouped = <A, E, R>(effect: Effect.Effect<A, E, R>, active: ReadonlySet<object>) =>
    Effect.flatMap(
      underWriteLock((restore) =>
        Effect.gen(function*() {
          // A statement outside any member (a read) can make SQLite roll the open transaction back.
          if (group !== undefined && !connection.db.isTransaction) failGroup(new Error("SQLite rolled the transaction back"))
          if (group === undefined) {
            if (!(yield* tryBegin)) return undefined
            group = { members: 0, committed: Deferred.makeUnsafe() }
            yield* Effect.forkDetach(commitLater(group))
          }
          const joined = group
          joined.members++
          yield* attempt("transaction", () => savepoint.run())
          running = true
          const exit = yield* Effect.exit(
            restore(Effect.provideService(effect, ActiveTransactions, new Set([...active, connection])))
          )
          running = false
          endMember(joined, Exit.isSuccess(exit))
          if (group === joined && joined.members >= groupLimit) commitGroup()
          return { value: [joined, exit] as const }
        })),
      ([joined, exit]) => Effect.andThen(Effect.uninterruptible(Deferred.await(joined.committed)), exit)
    )

  /**
   * All of `effect`'s writes or none: BEGIN IMMEDIATE (the write lock is taken up front, so a
   * check-then-write inside cannot race another process), COMMIT on success, ROLLBACK on failure
   * or interruption. Within a transaction of the same connection it simply runs.
   */
  const transaction = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | StoreFailure, R> =>
    Effect.flatMap(Effect.service(ActiveTransactions), (active) =>
      active.has(connection) ? effect : groupCommit ? grouped(effect, active) : underWriteLock((restore) =>
        Effect.gen(function*() {
          if (!(yield* tryBegin)) return undefined
          const exit = yield* Effect.exit(
            restore(Effect.provideService(effect, ActiveTransactions, new Set([...active, connection])))
          )
          if (Exit.isFailure(exit)) {
            connection.rollback()
            return yield* Effect.failCause(exit.cause)
          }
          yield* attempt("transaction", connection.commit).pipe(
            Effect.tapError(() => Effect.sync(connection.rollback))
          )
          return { value: exit.value }
        })
      ))

  return {
    connection,
    statement: connection.statement,
    read,
    write: (operation, run) => transaction(attempt(operation, run)),
    writeOrFail: (operation, run) => transaction(Effect.flatMap(attempt(operation, run), Effect.fromResult)),
    transaction,
    retrying: Contention.retrying(transaction)
  }
})
