/**
 * The schema of the SQLite store as a numbered list of migrations, tracked by `PRAGMA user_version`
 * and applied at open in one transaction, so a file is always at one whole version.
 */
import type { DatabaseSync } from "node:sqlite"
import { Effect, Result } from "effect"
import { StoreUnavailable, type StoreProblem } from "@smsbook/core"
import type { Database } from "./connection.ts"
import { problemOf, reasonOf } from "./errors.ts"
import * as Ownership from "./ownership.ts"

/** One step of the schema: applied once, in order, never edited after release (append a new one). */
export interface Migration {
  readonly version: number
  readonly name: string
  readonly sql: string
}

/**
 * The predicate of the partial index `outbox_pending` (migration 5), word for word. SQLite uses a partial index only
 * when the query's WHERE holds the index's own term (`state = 'queued'` alone does not count), so the part queue's
 * queries state it beside their own test on `state`; without it each claim scanned the whole outbox.
 */
export const livePartsPredicate = "state IN ('queued', 'claimed', 'submitting', 'in_doubt')"

/**
 * The predicate of the partial index `outbox_failed` (migration 6), word for word: the failed states of
 * `PartQueue.failedStates`. A message's `error_count` is counted through it, in the failed parts only: over all of a
 * message's parts, each failed receipt of a 1M-part broadcast counted a million rows.
 */
export const failedPartsPredicate = "state IN ('refused', 'undeliverable', 'expired', 'rejected', 'deleted')"

export const migrations: ReadonlyArray<Migration> = [
  {
    version: 1,
    name: "contacts, messages, deliveries and outbox",
    sql: `
      CREATE TABLE contacts (
        msisdn TEXT NOT NULL PRIMARY KEY,
        phone_number TEXT NOT NULL,
        first_name TEXT NOT NULL,
        last_name TEXT NOT NULL,
        full_name TEXT NOT NULL,
        country_code TEXT NOT NULL,
        added_from TEXT NOT NULL,
        status TEXT NOT NULL,
        tags TEXT NOT NULL,
        profile_uid TEXT NOT NULL,
        monitoring INTEGER NOT NULL
      ) WITHOUT ROWID;

      CREATE TABLE contact_tags (
        tag TEXT NOT NULL,
        msisdn TEXT NOT NULL,
        PRIMARY KEY (tag, msisdn)
      ) WITHOUT ROWID;

      CREATE TABLE messages (
        seq INTEGER PRIMARY KEY,
        message_id TEXT NOT NULL UNIQUE,
        id TEXT,
        short_code TEXT NOT NULL,
        country TEXT,
        msisdn TEXT,
        direction TEXT NOT NULL,
        status TEXT NOT NULL,
        message TEXT NOT NULL,
        total_recipients INTEGER NOT NULL,
        sent_count INTEGER NOT NULL,
        error_count INTEGER NOT NULL,
        total_monitors INTEGER NOT NULL,
        is_scheduled INTEGER NOT NULL,
        is_billable INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        created_by TEXT,
        type INTEGER NOT NULL,
        tags TEXT NOT NULL,
        segments INTEGER NOT NULL
      );
      CREATE INDEX messages_by_creation ON messages (created_at, message_id);
      CREATE INDEX messages_by_external_id ON messages (id, created_at, message_id) WHERE id IS NOT NULL;
      CREATE INDEX messages_by_msisdn ON messages (msisdn, created_at, message_id) WHERE msisdn IS NOT NULL;

      CREATE TABLE message_tags (
        tag TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        message_id TEXT NOT NULL,
        PRIMARY KEY (tag, created_at, message_id)
      ) WITHOUT ROWID;

      CREATE TABLE deliveries (
        message_id TEXT NOT NULL,
        msisdn TEXT NOT NULL,
        PRIMARY KEY (message_id, msisdn)
      ) WITHOUT ROWID;

      CREATE TABLE outbox (
        seq INTEGER PRIMARY KEY,
        message_id TEXT NOT NULL,
        msisdn TEXT NOT NULL,
        short_code TEXT NOT NULL,
        part INTEGER NOT NULL,
        parts INTEGER NOT NULL,
        text TEXT NOT NULL
      );
    `
  },
  {
    version: 2,
    name: "suppression list",
    // An opt-out binds the number, not the record: the list outlives deleted contacts. Books from
    // before it start with the numbers of their CANCELLED contacts.
    sql: `
      CREATE TABLE suppressions (
        msisdn TEXT NOT NULL PRIMARY KEY
      ) WITHOUT ROWID;
      INSERT INTO suppressions (msisdn) SELECT msisdn FROM contacts WHERE status = 'CANCELLED';
    `
  },
  {
    version: 3,
    name: "api keys of the HTTP server",
    sql: `
      CREATE TABLE api_keys (
        id TEXT NOT NULL PRIMARY KEY,
        name TEXT NOT NULL,
        hash TEXT NOT NULL UNIQUE,
        created_at INTEGER NOT NULL,
        revoked_at INTEGER
      );
    `
  },
  {
    version: 4,
    name: "part states of the dispatcher",
    // Each outbox part carries its way to the network. Parts handed over before a dispatcher
    // existed are "kept": the outbox was their carrier, and no dispatcher sends them now.
    sql: `
      ALTER TABLE outbox ADD COLUMN state TEXT NOT NULL DEFAULT 'queued';
      ALTER TABLE outbox ADD COLUMN smsc_id TEXT;
      ALTER TABLE outbox ADD COLUMN owner TEXT;
      ALTER TABLE outbox ADD COLUMN lease_until INTEGER;
      UPDATE outbox SET state = 'kept';
      CREATE INDEX outbox_pending ON outbox (state, seq) WHERE state IN ('queued', 'submitting');
      CREATE INDEX outbox_by_smsc_id ON outbox (smsc_id) WHERE smsc_id IS NOT NULL;
      CREATE INDEX outbox_unknown ON outbox (msisdn, seq) WHERE state = 'unknown';
      CREATE INDEX outbox_by_message ON outbox (message_id, part, msisdn);
      CREATE TABLE dispatcher (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        owner TEXT NOT NULL,
        host TEXT NOT NULL,
        pid INTEGER NOT NULL,
        lease_until INTEGER NOT NULL
      );
    `
  },
  {
    version: 5,
    name: "claimed, in-doubt and cancelled parts",
    // A claimed part is `claimed` until just before its PDU is written (`submitting`), so a dead dispatcher's
    // unwritten parts are sent again; `written` orders the writes. Parts that an older dispatcher left on the wire
    // (`unknown` without an SMSC id) are `in_doubt` for good: they were never to be sent twice.
    sql: `
      ALTER TABLE outbox ADD COLUMN written INTEGER;
      UPDATE outbox SET state = 'in_doubt', lease_until = NULL WHERE state = 'unknown' AND smsc_id IS NULL;
      DROP INDEX outbox_pending;
      CREATE INDEX outbox_pending ON outbox (state, seq) WHERE ${livePartsPredicate};
      DROP INDEX outbox_unknown;
      CREATE INDEX outbox_in_doubt ON outbox (msisdn, written) WHERE state = 'in_doubt';
      CREATE INDEX outbox_awaiting_receipt ON outbox (seq) WHERE state = 'submitted';
    `
  },
  {
    version: 6,
    name: "failed parts by message",
    sql: `CREATE INDEX outbox_failed ON outbox (message_id) WHERE ${failedPartsPredicate};`
  },
  {
    version: 7,
    name: "a message's parts by number",
    // The part queue asks whether a message has started to an opted-out number (message_id and msisdn): over
    // (message_id, part, msisdn), it read every part of the message, a broadcast's parts for each of its recipients.
    // PostgreSQL's `outbox_part` has had this order from the start. A message's states now sort its parts, which
    // they read in full anyway.
    sql: `
      DROP INDEX outbox_by_message;
      CREATE INDEX outbox_by_message ON outbox (message_id, msisdn, part);
    `
  }
]

/** The version a file has once every migration of this code is applied. */
export const latestVersion: number = migrations.reduce((latest, migration) => Math.max(latest, migration.version), 0)

/** Why a file cannot be brought to `latestVersion`. */
export interface MigrationProblem {
  readonly reason: string
  /** What beneath the book made it fail (a full disk, a read-only file…), where SQLite's result code says. */
  readonly problem?: StoreProblem
}

/** What `migrate` did: the version found and the version left. */
export interface Migrated {
  readonly from: number
  readonly to: number
}

/**
 * Brings the file to the latest version of `steps`: every pending migration and the new
 * `user_version` commit together or not at all, under `BEGIN IMMEDIATE` so two processes opening a
 * new file at once cannot both apply them (the versions are read again under the lock). Idempotent:
 * a file already at the latest version is left untouched, without taking the write lock. A file
 * written by newer code (a higher version) or by another program (another `application_id`, or a
 * `user_version` without ours) is refused rather than altered.
 */
export const migrate = (db: DatabaseSync, steps: ReadonlyArray<Migration> = migrations): Result.Result<Migrated, MigrationProblem> => {
  const target = steps.reduce((latest, migration) => Math.max(latest, migration.version), 0)
  let current: Migration | undefined
  try {
    // The common case, a file already current, is decided by a plain read: opening never waits
    // for another process's write transaction.
    const seen = Ownership.pragmaNumber(db, "user_version")
    if (seen === target && Ownership.pragmaNumber(db, "application_id") === Ownership.applicationId) return Result.succeed({ from: seen, to: target })
    db.exec("BEGIN IMMEDIATE")
    const from = Ownership.pragmaNumber(db, "user_version")
    // Read again under the lock: the connection checked the file before its pragmas, but another process may have
    // written it since.
    const refusal = Ownership.refusal(db) ??
      (from > target
        ? `the database has schema version ${from}, newer than this smsbook knows (${target}): upgrade smsbook`
        : undefined)
    if (refusal !== undefined) {
      db.exec("ROLLBACK")
      return Result.fail({ reason: refusal })
    }
    const pending = steps.filter((migration) => migration.version > from).sort((a, b) => a.version - b.version)
    for (const migration of pending) {
      current = migration
      db.exec(migration.sql)
    }
    current = undefined
    if (pending.length > 0) {
      db.exec(`PRAGMA application_id = ${Ownership.applicationId}`)
      db.exec(`PRAGMA user_version = ${target}`)
    }
    db.exec("COMMIT")
    return Result.succeed({ from, to: target })
  } catch (error) {
    if (db.isOpen && db.isTransaction) db.exec("ROLLBACK")
    const step = current === undefined ? "" : `migration ${current.version} (${current.name}): `
    return Result.fail({ reason: step + reasonOf(error), ...problemOf(error) })
  }
}

/** Migrates the store's file at open; a file that cannot be brought up to date is `StoreUnavailable`. */
export const run = (db: Database, path: string): Effect.Effect<Migrated, StoreUnavailable> =>
  Effect.suspend(() => {
    const migrated = migrate(db.connection.db)
    return Result.isSuccess(migrated)
      ? Effect.succeed(migrated.success)
      : Effect.fail(new StoreUnavailable({ url: path, ...migrated.failure }))
  })
