/**
 * The PostgreSQL schema of smsbook as numbered migrations defined in code, run by effect's Migrator
 * (each pending migration once, in one transaction, serialised across processes by a table lock).
 */
import { Effect } from "effect"
import { Migrator, SqlClient } from "effect/sql"

/**
 * 1: every table of the three ports.
 * - Keys are `COLLATE "C"`: their order is byte order, which is JavaScript's string order for the
 *   digits of msisdns and the ASCII of message ids, whatever the database's locale.
 * - `*_lower` columns and the `tag` columns hold text lower-cased by JavaScript, so case-insensitive
 *   matching equals the reference store's under any database ctype.
 * - `messages.seq` records insertion order (the order the anti-spam check reports an earlier message in).
 * - `contact_tags` has no foreign key (it halved the speed of bulk tag writes): the adapter writes
 *   and deletes the pairs in the same statement or transaction as their contact.
 * - `anti_spam_locks` holds one row per external id; upserting it serialises senders of that id.
 * - `outbox` keeps every hand-over, duplicates included, in order (`seq`): a part handed over twice is visible.
 */
const initial = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE contacts (
    msisdn text COLLATE "C" PRIMARY KEY,
    phone_number text NOT NULL,
    first_name text NOT NULL,
    last_name text NOT NULL,
    full_name text NOT NULL,
    country_code text NOT NULL,
    added_from text NOT NULL,
    status text NOT NULL,
    tags jsonb NOT NULL,
    profile_uid text NOT NULL,
    monitoring boolean NOT NULL,
    first_name_lower text NOT NULL,
    last_name_lower text NOT NULL,
    full_name_lower text NOT NULL
  )`
  yield* sql`CREATE INDEX contacts_monitoring ON contacts (msisdn) WHERE monitoring`
  yield* sql`CREATE TABLE contact_tags (
    tag text COLLATE "C" NOT NULL,
    msisdn text COLLATE "C" NOT NULL,
    PRIMARY KEY (tag, msisdn)
  )`
  yield* sql`CREATE INDEX contact_tags_msisdn ON contact_tags (msisdn)`
  yield* sql`CREATE TABLE messages (
    message_id text COLLATE "C" PRIMARY KEY,
    seq bigint GENERATED ALWAYS AS IDENTITY,
    id text,
    short_code text NOT NULL,
    country text,
    msisdn text,
    direction text NOT NULL,
    status text NOT NULL,
    message text NOT NULL,
    total_recipients integer NOT NULL,
    sent_count integer NOT NULL,
    error_count integer NOT NULL,
    total_monitors integer NOT NULL,
    is_scheduled boolean NOT NULL,
    is_billable boolean NOT NULL,
    created_at bigint NOT NULL,
    created_by text,
    type smallint NOT NULL,
    tags jsonb NOT NULL,
    segments integer NOT NULL
  )`
  yield* sql`CREATE INDEX messages_created ON messages (created_at, message_id)`
  yield* sql`CREATE INDEX messages_id ON messages (id, created_at)`
  yield* sql`CREATE INDEX messages_msisdn ON messages (msisdn, created_at)`
  yield* sql`CREATE TABLE message_tags (
    tag text COLLATE "C" NOT NULL,
    message_id text COLLATE "C" NOT NULL REFERENCES messages (message_id) ON DELETE CASCADE,
    PRIMARY KEY (tag, message_id)
  )`
  yield* sql`CREATE INDEX message_tags_message ON message_tags (message_id)`
  yield* sql`CREATE TABLE anti_spam_locks (id text PRIMARY KEY)`
  yield* sql`CREATE TABLE deliveries (
    message_id text COLLATE "C" NOT NULL,
    msisdn text COLLATE "C" NOT NULL,
    PRIMARY KEY (message_id, msisdn)
  )`
  yield* sql`CREATE TABLE outbox (
    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    message_id text NOT NULL,
    msisdn text NOT NULL,
    part integer NOT NULL,
    parts integer NOT NULL,
    short_code text NOT NULL,
    text text NOT NULL
  )`
  yield* sql`CREATE INDEX outbox_part ON outbox (message_id, msisdn, part)`
})

/**
 * 2: the suppression list. An opt-out binds the number, not the record, so the list outlives
 * deleted contacts; books from before it start with the numbers of their CANCELLED contacts.
 */
const suppressions = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE suppressions (msisdn text COLLATE "C" PRIMARY KEY)`
  yield* sql`INSERT INTO suppressions (msisdn) SELECT msisdn FROM contacts WHERE status = 'CANCELLED' ORDER BY msisdn`
})

/**
 * 3: the API keys of the HTTP server: only a SHA-256 hash of each secret is kept; `seq` orders
 * keys created in the same millisecond.
 */
const apiKeys = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE api_keys (
    id text PRIMARY KEY,
    seq bigint GENERATED ALWAYS AS IDENTITY,
    name text NOT NULL,
    hash text NOT NULL UNIQUE,
    created_at bigint NOT NULL,
    revoked_at bigint
  )`
})

/**
 * 4: each outbox part carries its way to the network (the dispatcher's queue): state, the SMSC's
 * id, and the owner and lease of the dispatcher that claimed it. Parts handed over before are
 * "kept": the outbox was their carrier, and no dispatcher sends them now.
 */
const partStates = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE outbox
    ADD COLUMN state text NOT NULL DEFAULT 'queued',
    ADD COLUMN smsc_id text,
    ADD COLUMN owner text,
    ADD COLUMN lease_until bigint`
  yield* sql`UPDATE outbox SET state = 'kept'`
  yield* sql`CREATE INDEX outbox_pending ON outbox (seq) WHERE state = 'queued'`
  yield* sql`CREATE INDEX outbox_submitting ON outbox (lease_until) WHERE state = 'submitting'`
  yield* sql`CREATE INDEX outbox_by_smsc_id ON outbox (smsc_id) WHERE smsc_id IS NOT NULL`
  yield* sql`CREATE INDEX outbox_unknown ON outbox (msisdn, seq) WHERE state = 'unknown'`
})

/**
 * 5: a claimed part is `claimed` until just before its PDU is written (`submitting`), so a dead dispatcher's unwritten
 * parts are sent again; `written` orders the writes. Parts an older dispatcher left on the wire (`unknown` without an
 * SMSC id) are `in_doubt` for good: they were never to be sent twice.
 */
const inDoubtParts = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE outbox ADD COLUMN written bigint`
  yield* sql`UPDATE outbox SET state = 'in_doubt', lease_until = NULL WHERE state = 'unknown' AND smsc_id IS NULL`
  yield* sql`CREATE INDEX outbox_claimed ON outbox (lease_until) WHERE state = 'claimed'`
  yield* sql`DROP INDEX outbox_unknown`
  yield* sql`CREATE INDEX outbox_in_doubt ON outbox (msisdn, written) WHERE state = 'in_doubt'`
  yield* sql`CREATE INDEX outbox_awaiting_receipt ON outbox (seq) WHERE state = 'submitted'`
})

/**
 * 6: a message's failed parts, so that its `error_count` is counted over them alone (over all of its parts, each
 * failed receipt of a 1M-part broadcast counted a million rows). The states are `PartQueue.failedStates`.
 */
const failedParts = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE INDEX outbox_failed ON outbox (message_id)
    WHERE state IN ('refused', 'undeliverable', 'expired', 'rejected', 'deleted')`
})

/** The table where the Migrator records applied migrations. */
const migrationsTable = "smsbook_migrations"

/**
 * Applies the pending migrations with the current `SqlClient`. The generic Migrator is used
 * rather than `PgMigrator`, which needs Node's process services only to run `pg_dump`.
 */
export const run = Migrator.make({})({
  loader: Migrator.fromRecord({ "1_initial": initial, "2_suppressions": suppressions, "3_api_keys": apiKeys, "4_part_states": partStates, "5_in_doubt_parts": inDoubtParts, "6_failed_parts": failedParts }),
  table: migrationsTable
})
