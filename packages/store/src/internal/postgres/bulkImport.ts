/**
 * The set-based import on PostgreSQL: rows staged by `unnest` of one array per column into a TEMP table that lives as
 * long as the import's transaction, then merged by one `UPDATE … FROM staging WHERE <changed>` and one
 * `INSERT … SELECT … ORDER BY msisdn`; the statements' own change counts are the summary's. The numbers the merges
 * took are remembered in a second TEMP table, so that a number staged again after its merge is handed back rather than
 * merged twice.
 */
import { Effect, Fiber } from "effect"
import type { SqlClient, SqlError } from "effect/sql"
import type { Contact, ContactStore, StoreFailure } from "@smsbook/core"
import { attempt } from "./connection.ts"
import { decodeCount, decodeMsisdns, decodeRepeats, lower, rowCount } from "./rows.ts"

export interface Hooks {
  /** Queues this import behind other batch writers of the book (their advisory lock), before its first read. */
  readonly queueWriters: Effect.Effect<unknown, SqlError.SqlError>
  /** Rows written, for the store's ANALYZE after a bulk load. */
  readonly written: (rows: number) => Effect.Effect<void, SqlError.SqlError>
}

/**
 * Rows per staging statement. The import's batch (250 rows) is 800 round trips at 200k rows; the bench's own stagings
 * of 1000 and 10000 rows a statement cost alike (docs/benchmarks.md). Gathering alone was within the runs' noise
 * (11.3 s against 11.4–11.8 s at 200k rows).
 */
const rowsPerStatement = 2000

/** Builds `ContactStore.bulkImport` over `sql`. */
export const make = (sql: SqlClient.SqlClient, hooks: Hooks): NonNullable<ContactStore.ContactStore["Service"]["bulkImport"]> =>
({ blankErases }) =>
  Effect.gen(function*() {
    yield* hooks.queueWriters
    yield* sql`CREATE TEMP TABLE IF NOT EXISTS smsbook_import_rows (
      seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      msisdn text COLLATE "C" NOT NULL,
      phone_number text NOT NULL,
      first_name text NOT NULL,
      last_name text NOT NULL,
      full_name text NOT NULL,
      country_code text NOT NULL,
      tags jsonb NOT NULL,
      tag_keys jsonb NOT NULL,
      profile_uid text NOT NULL,
      first_name_lower text NOT NULL,
      last_name_lower text NOT NULL,
      status text NOT NULL,
      monitoring boolean NOT NULL
    ) ON COMMIT DROP`
    yield* sql`TRUNCATE smsbook_import_rows`
    yield* sql`CREATE TEMP TABLE IF NOT EXISTS smsbook_import_seen (msisdn text COLLATE "C" PRIMARY KEY) ON COMMIT DROP`
    yield* sql`TRUNCATE smsbook_import_seen`
    // Whether a merge ran: before the first, no staged number can be one a merge took.
    let merged = false

    // The import rule over `s` (staged) and `c` (stored), as SQLite's adapter states it.
    const first = blankErases ? sql`s.first_name` : sql`CASE WHEN s.first_name <> '' THEN s.first_name ELSE c.first_name END`
    const last = blankErases ? sql`s.last_name` : sql`CASE WHEN s.last_name <> '' THEN s.last_name ELSE c.last_name END`
    const firstLower = blankErases
      ? sql`s.first_name_lower`
      : sql`CASE WHEN s.first_name <> '' THEN s.first_name_lower ELSE c.first_name_lower END`
    const lastLower = blankErases
      ? sql`s.last_name_lower`
      : sql`CASE WHEN s.last_name <> '' THEN s.last_name_lower ELSE c.last_name_lower END`
    const join = (a: typeof first, b: typeof first) => sql`CASE WHEN (${a}) = '' THEN (${b}) WHEN (${b}) = '' THEN (${a}) ELSE (${a}) || ' ' || (${b}) END`
    const newKeys = sql`SELECT k.key, k.position FROM jsonb_array_elements_text(s.tag_keys) WITH ORDINALITY AS k (key, position)
      WHERE NOT EXISTS (SELECT 1 FROM contact_tags AS t WHERE t.tag = k.key AND t.msisdn = s.msisdn)`
    const changed = sql`(c.first_name IS DISTINCT FROM (${first}) OR c.last_name IS DISTINCT FROM (${last})
      OR c.full_name IS DISTINCT FROM (${join(first, last)}) OR (c.tags <> s.tags AND EXISTS (${newKeys})))`
    const addedTags = sql`COALESCE((SELECT jsonb_agg(t.value ORDER BY t.position)
      FROM jsonb_array_elements(s.tags) WITH ORDINALITY AS t (value, position)
      JOIN (${newKeys}) AS n ON n.position = t.position), '[]'::jsonb)`

    // One staging statement in flight while the import reads its next rows: the server stages a batch while the
    // client checks the next one, instead of each waiting on the other. A failure surfaces at the next stage or merge.
    // The import's batches (250 rows) are gathered to `rowsPerStatement` first: fewer round trips.
    let staging: Fiber.Fiber<void, StoreFailure> | undefined
    let gathered: Array<Contact.Contact> = []
    const settle = Effect.suspend(() => {
      const fiber = staging
      staging = undefined
      return fiber === undefined ? Effect.void : Fiber.join(fiber)
    })
    const send = Effect.gen(function*() {
      yield* settle
      const contacts = gathered
      gathered = []
      if (contacts.length > 0) staging = yield* Effect.forkChild(insertStaged(contacts))
    })
    const insertStaged = (contacts: ReadonlyArray<Contact.Contact>) =>
      sql`INSERT INTO smsbook_import_rows (msisdn, phone_number, first_name, last_name,
            full_name, country_code, tags, tag_keys, profile_uid, first_name_lower, last_name_lower, status, monitoring)
          SELECT * FROM unnest(${contacts.map((c) => c.msisdn)}::text[], ${contacts.map((c) => c.phone_number)}::text[],
            ${contacts.map((c) => c.first_name)}::text[], ${contacts.map((c) => c.last_name)}::text[],
            ${contacts.map((c) => c.full_name)}::text[], ${contacts.map((c) => c.country_code)}::text[],
            ${contacts.map((c) => JSON.stringify(c.tags))}::jsonb[],
            ${contacts.map((c) => JSON.stringify([...new Set(c.tags.map(lower))]))}::jsonb[],
            ${contacts.map((c) => c.profile_uid)}::text[], ${contacts.map((c) => lower(c.first_name))}::text[],
            ${contacts.map((c) => lower(c.last_name))}::text[], ${contacts.map((c) => c.status)}::text[],
            ${contacts.map((c) => c.monitoring)}::boolean[])`.pipe(Effect.asVoid, attempt("ContactStore.bulkImport.stage"))

    const bulk: ContactStore.BulkImport = {
      stage: (contacts) =>
        Effect.suspend(() => {
          for (const contact of contacts) gathered.push(contact)
          return gathered.length >= rowsPerStatement ? send : Effect.void
        }),
      merge: (limit, lastMerge) =>
        Effect.gen(function*() {
          yield* send
          yield* settle
          // Rows whose number an earlier merge took: out of the staging, handed back in the order staged.
          const repeats = merged
            ? (yield* sql`DELETE FROM smsbook_import_rows AS s USING smsbook_import_seen AS n
                WHERE n.msisdn = s.msisdn RETURNING s.seq, s.msisdn, s.phone_number, s.country_code, s.tags`.pipe(
                Effect.flatMap(decodeRepeats("bulkImport"))
              )).toSorted((a, b) => a.seq - b.seq).map(({ seq: _, ...repeat }) => repeat)
            : []
          merged = true
          const staged = (yield* sql`SELECT count(*) AS n FROM smsbook_import_rows`.pipe(Effect.flatMap(decodeCount("bulkImport"))))[0]?.n ?? 0
          const optedOut = (yield* sql`SELECT count(*) AS n FROM smsbook_import_rows AS s
            WHERE EXISTS (SELECT 1 FROM suppressions AS sp WHERE sp.msisdn = s.msisdn)`.pipe(
            Effect.flatMap(decodeCount("bulkImport"))
          ))[0]?.n ?? 0
          const optedOutMsisdns = optedOut === 0 || limit <= 0 ? [] : (yield* sql`SELECT s.msisdn FROM smsbook_import_rows AS s
            WHERE EXISTS (SELECT 1 FROM suppressions AS sp WHERE sp.msisdn = s.msisdn) ORDER BY s.seq LIMIT ${limit}`.pipe(
            Effect.flatMap(decodeMsisdns("bulkImport"))
          )).map((row) => row.msisdn)
          const suppressed = optedOut === 0 ? 0 : (yield* sql`SELECT count(*) AS n FROM smsbook_import_rows AS s
            WHERE EXISTS (SELECT 1 FROM suppressions AS sp WHERE sp.msisdn = s.msisdn)
              AND NOT EXISTS (SELECT 1 FROM contacts AS c WHERE c.msisdn = s.msisdn)`.pipe(
            Effect.flatMap(decodeCount("bulkImport"))
          ))[0]?.n ?? 0
          // Rows in key order, so that writers of overlapping numbers lock them in one order.
          const updated = yield* sql`UPDATE contacts AS c SET
              first_name = ${first}, last_name = ${last}, full_name = ${join(first, last)},
              first_name_lower = ${firstLower}, last_name_lower = ${lastLower},
              full_name_lower = ${join(firstLower, lastLower)},
              tags = c.tags || ${addedTags}
            FROM (SELECT * FROM smsbook_import_rows ORDER BY msisdn) AS s
            WHERE c.msisdn = s.msisdn AND ${changed}`.pipe(rowCount("bulkImport"))
          const created = yield* sql`INSERT INTO contacts (msisdn, phone_number, first_name, last_name, full_name,
              country_code, added_from, status, tags, profile_uid, monitoring, first_name_lower, last_name_lower, full_name_lower)
            SELECT s.msisdn, s.phone_number, s.first_name, s.last_name, s.full_name, s.country_code, 'FILE_UPLOAD',
              CASE WHEN EXISTS (SELECT 1 FROM suppressions AS sp WHERE sp.msisdn = s.msisdn) THEN 'CANCELLED' ELSE s.status END,
              s.tags, s.profile_uid, s.monitoring, s.first_name_lower, s.last_name_lower,
              CASE WHEN s.first_name_lower = '' THEN s.last_name_lower WHEN s.last_name_lower = '' THEN s.first_name_lower
                ELSE s.first_name_lower || ' ' || s.last_name_lower END
            FROM smsbook_import_rows AS s
            WHERE NOT EXISTS (SELECT 1 FROM contacts AS c WHERE c.msisdn = s.msisdn)
            ORDER BY s.msisdn
            ON CONFLICT (msisdn) DO NOTHING`.pipe(rowCount("bulkImport"))
          if (created + updated > 0) {
            yield* sql`INSERT INTO contact_tags (tag, msisdn)
              SELECT k.key, s.msisdn FROM smsbook_import_rows AS s, jsonb_array_elements_text(s.tag_keys) AS k (key)
              ORDER BY 1, 2 ON CONFLICT DO NOTHING`
            yield* hooks.written(created + updated)
          }
          if (!lastMerge) yield* sql`INSERT INTO smsbook_import_seen (msisdn) SELECT msisdn FROM smsbook_import_rows ORDER BY msisdn`
          yield* sql`TRUNCATE smsbook_import_rows`
          return { created, updated, unchanged: staged - created - updated, optedOut, suppressed, optedOutMsisdns, repeats }
        }).pipe(attempt("ContactStore.bulkImport.merge"))
    }
    return bulk
  }).pipe(attempt("ContactStore.bulkImport"))
