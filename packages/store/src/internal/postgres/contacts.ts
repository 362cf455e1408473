/**
 * The contact port on PostgreSQL: set-based upserts per batch (`unnest` arrays, one statement per
 * table, keys in sorted order), the suppression list, row locks for read-modify-writes, keyset-paged
 * audiences, and case-insensitive search on JavaScript-lowered columns.
 */
import { Effect, Option } from "effect"
import type { SqlClient } from "effect/sql"
import { type Contact, ContactExists, ContactNotFound, ContactStore, StoreFailure } from "@smsbook/core"
import {
  contactArrays,
  contactColumns,
  countOf,
  decodeContacts,
  decodeMsisdns,
  decodeStatuses,
  lastByKey,
  lower,
  tagPairs
} from "./rows.ts"
import * as BulkImport from "./bulkImport.ts"
import { attempt, keyset, transaction } from "./connection.ts"
import * as WritersLock from "./writersLock.ts"

/** Rows a store writes in batches before it first runs ANALYZE; each later ANALYZE waits for 4 times more. */
const firstAnalyzeAfter = 20_000

/**
 * Builds the contact port over `sql`; `pageSize` rows per audience page; `options`, how a new contact waits for a batch
 * writer of the book (`WritersLock.make`).
 */
export const make = (
  sql: SqlClient.SqlClient,
  pageSize: number,
  options: WritersLock.Options
): ContactStore.ContactStore["Service"] => {
  const columns = sql.literal(contactColumns)

  // The batch as a relation `v`, one array parameter per column: the statement text never changes
  // with the batch size, so PostgreSQL plans it once per connection.
  const values = (contacts: ReadonlyArray<Contact.Contact>) => {
    const a = contactArrays(contacts)
    return sql`unnest(
      ${a.msisdn}::text[], ${a.phone_number}::text[], ${a.first_name}::text[], ${a.last_name}::text[],
      ${a.full_name}::text[], ${a.country_code}::text[], ${a.added_from}::text[], ${a.status}::text[],
      ${a.tags}::jsonb[], ${a.profile_uid}::text[], ${a.monitoring}::boolean[],
      ${a.first_name_lower}::text[], ${a.last_name_lower}::text[], ${a.full_name_lower}::text[]
    ) AS v (msisdn, phone_number, first_name, last_name, full_name, country_code, added_from, status,
      tags, profile_uid, monitoring, first_name_lower, last_name_lower, full_name_lower)`
  }

  // A suppressed number is stored CANCELLED whatever the writer read before (the opt-out law).
  const lawfulValues = (contacts: ReadonlyArray<Contact.Contact>) =>
    sql`SELECT v.msisdn, v.phone_number, v.first_name, v.last_name, v.full_name, v.country_code, v.added_from,
        CASE WHEN EXISTS (SELECT 1 FROM suppressions AS s WHERE s.msisdn = v.msisdn) THEN 'CANCELLED' ELSE v.status END,
        v.tags, v.profile_uid, v.monitoring, v.first_name_lower, v.last_name_lower, v.full_name_lower
      FROM ${values(contacts)} ORDER BY v.msisdn`

  const insertColumns = sql.literal(
    "(msisdn, phone_number, first_name, last_name, full_name, country_code, added_from, status, tags, " +
      "profile_uid, monitoring, first_name_lower, last_name_lower, full_name_lower)"
  )

  // contact_tags follows the contacts' tags (lower-cased, each once). Only pairs that changed are
  // touched: re-writing contacts with the same tags deletes and inserts nothing, so a re-run import
  // leaves no dead index entries behind.
  const replaceTags = (contacts: ReadonlyArray<Contact.Contact>) => {
    const pairs = tagPairs(contacts)
    return Effect.gen(function*() {
      yield* sql`DELETE FROM contact_tags AS t
        WHERE t.msisdn = ANY(${contacts.map((c) => c.msisdn)}::text[])
          AND NOT EXISTS (SELECT 1 FROM unnest(${pairs.tags}::text[], ${pairs.msisdns}::text[]) AS n (tag, msisdn)
            WHERE n.tag = t.tag AND n.msisdn = t.msisdn)`
      if (pairs.tags.length > 0) {
        yield* sql`INSERT INTO contact_tags (tag, msisdn)
          SELECT * FROM unnest(${pairs.tags}::text[], ${pairs.msisdns}::text[]) ON CONFLICT DO NOTHING`
      }
    })
  }

  const get = (msisdn: string) =>
    sql`SELECT ${columns} FROM contacts WHERE msisdn = ${msisdn}`.pipe(
      Effect.flatMap(decodeContacts("ContactStore.get")),
      Effect.map((rows) => Option.fromNullishOr(rows[0])),
      attempt("ContactStore.get")
    )

  const getForUpdate = (msisdn: string) =>
    sql`SELECT ${columns} FROM contacts WHERE msisdn = ${msisdn} FOR UPDATE`.pipe(
      Effect.flatMap(decodeContacts("ContactStore.getForUpdate")),
      Effect.map((rows) => Option.fromNullishOr(rows[0])),
      attempt("ContactStore.getForUpdate")
    )

  // Puts the numbers of the given rows that are CANCELLED on the suppression list, in key order.
  const suppressCancelled = (rows: ReadonlyArray<{ readonly msisdn: string; readonly status: string }>) => {
    const cancelled = rows.filter((row) => row.status === "CANCELLED").map((row) => row.msisdn).sort()
    return cancelled.length === 0 ? Effect.void : sql`INSERT INTO suppressions (msisdn)
      SELECT * FROM unnest(${cancelled}::text[]) ON CONFLICT DO NOTHING`.pipe(Effect.asVoid)
  }

  const lock = WritersLock.make(sql, options)
  const { creation, queueWriters, retrying } = lock

  const insertLawful = (contact: Contact.Contact, queue: boolean) =>
    lock.behindWriters(queue).pipe(
      Effect.andThen(sql`INSERT INTO contacts ${insertColumns} ${lawfulValues([contact])}
        ON CONFLICT (msisdn) DO NOTHING RETURNING ${columns}`),
      Effect.flatMap(decodeContacts("ContactStore.insert"))
    )

  // The stored row first (locked), else an INSERT … ON CONFLICT DO NOTHING, which waits for a concurrent inserter
  // of the number: its row is then found in the next round, and a row deleted in between is tried again.
  const getOrInsert = (contact: Contact.Contact) =>
    creation("ContactStore.getOrInsert", (queue) => sql.withTransaction(Effect.gen(function*() {
      for (let round = 0; round < 3; round++) {
        // The stored contact first: a known sender never waits for a batch writer.
        const found = yield* getForUpdate(contact.msisdn)
        if (Option.isSome(found)) return { contact: found.value, created: false }
        const inserted = yield* insertLawful(contact, queue)
        const created = inserted[0]
        if (created !== undefined) {
          yield* suppressCancelled([created])
          yield* replaceTags([created])
          return { contact: created, created: true }
        }
      }
      return yield* new StoreFailure({
        operation: "ContactStore.getOrInsert",
        reason: `contact ${contact.msisdn} was deleted three times while it was being created`
      })
    }))).pipe(attempt("ContactStore.getOrInsert"))

  const getMany = (msisdns: ReadonlyArray<string>) =>
    msisdns.length === 0
      ? Effect.succeed(new Map<string, Contact.Contact>())
      : queueWriters.pipe(
        // Locked as read, in key order as `write` locks them: a resubscribe or an edit committed between this read
        // and the batch's write would otherwise be written over with what was read (CANCELLED again, the old flags).
        Effect.andThen(sql`SELECT ${columns} FROM contacts WHERE msisdn = ANY(${msisdns}::text[]) ORDER BY msisdn FOR UPDATE`),
        Effect.flatMap(decodeContacts("ContactStore.getMany")),
        Effect.map((rows) => {
          const byMsisdn = new Map(rows.map((contact) => [contact.msisdn, contact]))
          // In the order asked for, as the reference store answers.
          const found = new Map<string, Contact.Contact>()
          for (const msisdn of msisdns) {
            const contact = byMsisdn.get(msisdn)
            if (contact !== undefined) found.set(msisdn, contact)
          }
          return found
        }),
        attempt("ContactStore.getMany")
      )

  const insert = (contact: Contact.Contact) =>
    creation("ContactStore.insert", (queue) => sql.withTransaction(Effect.gen(function*() {
      // A number already stored is refused at once, without waiting for a batch writer.
      const exists = yield* sql`SELECT 1 AS found FROM contacts WHERE msisdn = ${contact.msisdn}`
      const inserted = exists.length > 0 ? [] : yield* insertLawful(contact, queue)
      const stored = inserted[0]
      if (stored === undefined) return yield* new ContactExists({ msisdn: contact.msisdn })
      yield* suppressCancelled(inserted)
      yield* replaceTags([contact])
      return stored
    }))).pipe(attempt("ContactStore.insert"))

  const update = (contact: Contact.Contact) =>
    sql.withTransaction(Effect.gen(function*() {
      const updated = yield* sql`UPDATE contacts AS c SET
          phone_number = v.phone_number, first_name = v.first_name, last_name = v.last_name,
          full_name = v.full_name, country_code = v.country_code, added_from = v.added_from,
          status = v.status, tags = v.tags, profile_uid = v.profile_uid, monitoring = v.monitoring,
          first_name_lower = v.first_name_lower, last_name_lower = v.last_name_lower,
          full_name_lower = v.full_name_lower
        FROM ${values([contact])} WHERE c.msisdn = v.msisdn RETURNING c.msisdn`.pipe(
        Effect.flatMap(decodeMsisdns("ContactStore.update"))
      )
      if (updated.length === 0) return yield* new ContactNotFound({ msisdn: contact.msisdn })
      yield* suppressCancelled([contact])
      yield* replaceTags([contact])
    })).pipe(attempt("ContactStore.update"))

  // One statement removes the contact and its tag pairs, so no transaction is needed to keep them
  // together. The suppression entry stays: deleting a contact is not resubscribing it.
  const remove = (msisdn: string) =>
    sql`WITH gone AS (DELETE FROM contacts WHERE msisdn = ${msisdn} RETURNING msisdn),
        untagged AS (DELETE FROM contact_tags WHERE msisdn IN (SELECT msisdn FROM gone))
      SELECT msisdn FROM gone`.pipe(
      Effect.flatMap(decodeMsisdns("ContactStore.remove")),
      Effect.flatMap((rows) => rows.length === 0 ? Effect.fail(new ContactNotFound({ msisdn })) : Effect.void),
      attempt("ContactStore.remove")
    )

  let written = 0
  let analyzeAt = firstAnalyzeAfter

  /** Counts rows written and runs ANALYZE after every 4× more (from `firstAnalyzeAfter` on). */
  const noteWritten = (rows: number) =>
    Effect.gen(function*() {
      written += rows
      if (written >= analyzeAt) {
        analyzeAt = written * 4
        yield* sql`ANALYZE contacts, contact_tags`
      }
    })

  // Inserts and updates alike are upserts (the reference store replaces in both cases); a batch that
  // names an msisdn twice keeps its last version, since one statement cannot touch a row twice. A row
  // equal to the stored one is not rewritten (no new row version, no index churn).
  // - Rows are written in msisdn order, so two writers of overlapping batches lock in one order.
  // - Writers of one book queue on the writers' lock (see `getMany`, the read of a batch).
  // - A stored CANCELLED and a suppressed number stay CANCELLED: a batch never decides an opt-out.
  // - Rows written are counted for `noteWritten`'s ANALYZE: the first import into a fresh database is otherwise
  //   planned for empty tables all along.
  const write = ({ insert, update }: ContactStore.Writes) => {
    const all = [...insert, ...update]
    // An opt-out in an earlier version of a number holds, as it would written one by one.
    const optedOut = new Set(all.filter((contact) => contact.status === "CANCELLED").map((contact) => contact.msisdn))
    const contacts = lastByKey(all, (contact) => contact.msisdn)
      .map((contact): Contact.Contact =>
        optedOut.has(contact.msisdn) && contact.status !== "CANCELLED" ? { ...contact, status: "CANCELLED" } : contact
      )
      .sort((a, b) => a.msisdn < b.msisdn ? -1 : a.msisdn > b.msisdn ? 1 : 0)
    return contacts.length === 0 ? Effect.void : sql.withTransaction(Effect.gen(function*() {
      yield* queueWriters
      const changed = yield* sql`INSERT INTO contacts ${insertColumns} ${lawfulValues(contacts)}
        ON CONFLICT (msisdn) DO UPDATE SET
          phone_number = EXCLUDED.phone_number, first_name = EXCLUDED.first_name,
          last_name = EXCLUDED.last_name, full_name = EXCLUDED.full_name,
          country_code = EXCLUDED.country_code, added_from = EXCLUDED.added_from,
          status = CASE WHEN contacts.status = 'CANCELLED' THEN 'CANCELLED' ELSE EXCLUDED.status END,
          tags = EXCLUDED.tags, profile_uid = EXCLUDED.profile_uid,
          monitoring = EXCLUDED.monitoring, first_name_lower = EXCLUDED.first_name_lower,
          last_name_lower = EXCLUDED.last_name_lower, full_name_lower = EXCLUDED.full_name_lower
        WHERE (contacts.phone_number, contacts.first_name, contacts.last_name, contacts.full_name,
            contacts.country_code, contacts.added_from, contacts.status, contacts.tags, contacts.profile_uid,
            contacts.monitoring)
          IS DISTINCT FROM (EXCLUDED.phone_number, EXCLUDED.first_name, EXCLUDED.last_name, EXCLUDED.full_name,
            EXCLUDED.country_code, EXCLUDED.added_from,
            CASE WHEN contacts.status = 'CANCELLED' THEN 'CANCELLED' ELSE EXCLUDED.status END,
            EXCLUDED.tags, EXCLUDED.profile_uid, EXCLUDED.monitoring)
        RETURNING msisdn, status`.pipe(Effect.flatMap(decodeStatuses("ContactStore.write")))
      yield* suppressCancelled(changed)
      yield* replaceTags(contacts)
      yield* noteWritten(contacts.length)
    })).pipe(attempt("ContactStore.write"))
  }

  const suppressed = (msisdns: ReadonlyArray<string>) =>
    msisdns.length === 0
      ? Effect.succeed(new Set<string>())
      : sql`SELECT msisdn FROM suppressions WHERE msisdn = ANY(${msisdns}::text[])`.pipe(
        Effect.flatMap(decodeMsisdns("ContactStore.suppressed")),
        Effect.map((rows) => new Set(rows.map((row) => row.msisdn))),
        attempt("ContactStore.suppressed")
      )

  // Every msisdn sorts after '' (the column's collation is "C"): the first page needs no statement of its own.
  const listSuppressed = ({ after, limit }: ContactStore.SuppressedPage) =>
    sql`SELECT msisdn FROM suppressions WHERE msisdn > ${after ?? ""} ORDER BY msisdn LIMIT ${limit}`.pipe(
      Effect.flatMap(decodeMsisdns("ContactStore.listSuppressed")),
      Effect.map((rows) => rows.map((row) => row.msisdn)),
      attempt("ContactStore.listSuppressed")
    )

  const suppress = (msisdn: string) =>
    sql`INSERT INTO suppressions (msisdn) VALUES (${msisdn}) ON CONFLICT DO NOTHING`.pipe(
      Effect.asVoid,
      attempt("ContactStore.suppress")
    )

  // The contacts first, locked in key order, then their entries: the order every writer takes the two in.
  const cancel = (msisdns: ReadonlyArray<string>) =>
    msisdns.length === 0 ? Effect.succeed(0) : sql.withTransaction(Effect.gen(function*() {
      // A batch writer: its entries for numbers without a contact must not race a contact's creation (above).
      yield* queueWriters
      const stored = yield* sql`SELECT msisdn FROM contacts WHERE msisdn = ANY(${msisdns}::text[]) ORDER BY msisdn FOR UPDATE`.pipe(
        Effect.flatMap(decodeMsisdns("ContactStore.cancel")),
        Effect.map((rows) => rows.map((row) => row.msisdn))
      )
      const moved = yield* sql`UPDATE contacts SET status = 'CANCELLED'
        WHERE msisdn = ANY(${stored}::text[]) AND status <> 'CANCELLED' RETURNING msisdn`.pipe(
        Effect.flatMap(decodeMsisdns("ContactStore.cancel"))
      )
      yield* sql`INSERT INTO suppressions (msisdn) SELECT unnest(${msisdns}::text[]) ORDER BY 1 ON CONFLICT DO NOTHING`
      return moved.length
    })).pipe(attempt("ContactStore.cancel"))

  const unsuppress = (msisdn: string) =>
    sql`DELETE FROM suppressions WHERE msisdn = ${msisdn}`.pipe(Effect.asVoid, attempt("ContactStore.unsuppress"))

  const forget = (msisdn: string) =>
    sql`WITH gone AS (DELETE FROM contacts WHERE msisdn = ${msisdn} RETURNING msisdn),
        untagged AS (DELETE FROM contact_tags WHERE msisdn IN (SELECT msisdn FROM gone)),
        unlisted AS (DELETE FROM suppressions WHERE msisdn = ${msisdn} RETURNING msisdn)
      SELECT msisdn FROM gone UNION ALL SELECT msisdn FROM unlisted`.pipe(
      Effect.flatMap(decodeMsisdns("ContactStore.forget")),
      Effect.map((rows) => rows.length > 0),
      attempt("ContactStore.forget")
    )

  const list = (filter: ContactStore.ListFilter) => {
    const query = filter.query === undefined ? undefined : lower(filter.query)
    // PostgreSQL text cannot hold U+0000, so no stored field contains a query that does.
    if (query?.includes("\u0000") === true) return Effect.succeed([])
    const clauses = [
      ...(filter.after === undefined ? [] : [sql`msisdn > ${filter.after}`]),
      ...(filter.status === undefined ? [] : [sql`status = ${filter.status}`]),
      // strpos, not LIKE: `%` and `_` in the user's text match themselves, with nothing to escape.
      ...(query === undefined ? [] : [
        sql`(strpos(msisdn, ${query}) > 0 OR strpos(first_name_lower, ${query}) > 0
          OR strpos(last_name_lower, ${query}) > 0 OR strpos(full_name_lower, ${query}) > 0)`
      ])
    ]
    return sql`SELECT ${columns} FROM contacts WHERE ${sql.and(clauses)}
      ORDER BY msisdn LIMIT ${filter.limit} OFFSET ${filter.start}`.pipe(
      Effect.flatMap(decodeContacts("ContactStore.list")),
      attempt("ContactStore.list")
    )
  }

  const audience = ({ tags }: ContactStore.AudienceFilter) => {
    // A tag holding U+0000 cannot be stored, so it matches nobody; PostgreSQL would refuse the parameter.
    const wanted = [...new Set(tags.map(lower))].filter((tag) => !tag.includes("\u0000"))
    return keyset(
      pageSize,
      (after: Option.Option<string>) =>
        sql`SELECT ${columns} FROM contacts AS c
          WHERE ${Option.match(after, { onNone: () => sql`TRUE`, onSome: (msisdn) => sql`c.msisdn > ${msisdn}` })}
            AND (c.monitoring OR EXISTS (
              SELECT 1 FROM contact_tags AS t WHERE t.msisdn = c.msisdn AND t.tag = ANY(${wanted}::text[])))
          ORDER BY c.msisdn LIMIT ${pageSize}`.pipe(
          Effect.flatMap(decodeContacts("ContactStore.audience")),
          attempt("ContactStore.audience")
        ),
      (contact) => contact.msisdn
    )
  }

  const count = sql`SELECT count(*) AS n FROM contacts`.pipe(countOf("ContactStore.count"))

  return ContactStore.ContactStore.of({
    get,
    getForUpdate,
    getOrInsert,
    getMany,
    insert,
    update,
    remove,
    write,
    list,
    audience,
    count,
    suppressed,
    listSuppressed,
    suppress,
    cancel,
    unsuppress,
    forget,
    transaction: transaction(sql),
    retrying,
    bulkImport: BulkImport.make(sql, { queueWriters, written: noteWritten })
  })
}
