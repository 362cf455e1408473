/**
 * The contact port on PostgreSQL: set-based upserts per batch (`unnest` arrays, one statement per
 * table), keyset-paged audiences, and case-insensitive search on JavaScript-lowered columns.
 */
import { Effect, Option } from "effect"
import type { SqlClient } from "effect/sql"
import { type Contact, ContactExists, ContactNotFound, ContactStore } from "@smsbook/core"
import {
  contactArrays,
  contactColumns,
  decodeContacts,
  decodeCount,
  decodeMsisdns,
  lastByKey,
  lower,
  tagPairs
} from "./rows.ts"
import { attempt, keyset, transaction } from "./connection.ts"

/** Builds the contact port over `sql`; `pageSize` rows per audience page. */
export const make = (sql: SqlClient.SqlClient, pageSize: number): ContactStore.ContactStore["Service"] => {
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

  const getMany = (msisdns: ReadonlyArray<string>) =>
    msisdns.length === 0
      ? Effect.succeed(new Map<string, Contact.Contact>())
      : sql`SELECT ${columns} FROM contacts WHERE msisdn = ANY(${msisdns}::text[])`.pipe(
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
    sql.withTransaction(Effect.gen(function*() {
      const inserted = yield* sql`INSERT INTO contacts ${insertColumns} SELECT * FROM ${values([contact])}
        ON CONFLICT (msisdn) DO NOTHING RETURNING msisdn`.pipe(Effect.flatMap(decodeMsisdns("ContactStore.insert")))
      if (inserted.length === 0) return yield* new ContactExists({ msisdn: contact.msisdn })
      yield* replaceTags([contact])
    })).pipe(attempt("ContactStore.insert"))

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
      yield* replaceTags([contact])
    })).pipe(attempt("ContactStore.update"))

  // One statement removes the contact and its tag pairs, so no transaction is needed to keep them together.
  const remove = (msisdn: string) =>
    sql`WITH gone AS (DELETE FROM contacts WHERE msisdn = ${msisdn} RETURNING msisdn),
        untagged AS (DELETE FROM contact_tags WHERE msisdn IN (SELECT msisdn FROM gone))
      SELECT msisdn FROM gone`.pipe(
      Effect.flatMap(decodeMsisdns("ContactStore.remove")),
      Effect.flatMap((rows) => rows.length === 0 ? Effect.fail(new ContactNotFound({ msisdn })) : Effect.void),
      attempt("ContactStore.remove")
    )

  // Inserts and updates alike are upserts (the reference store replaces in both cases); a batch that
  // names an msisdn twice keeps its last version, since one statement cannot touch a row twice. A row
  // equal to the stored one is not rewritten (no new row version, no index churn).
  const write = ({ insert, update }: ContactStore.Writes) => {
    const contacts = lastByKey([...insert, ...update], (contact) => contact.msisdn)
    return contacts.length === 0 ? Effect.void : sql.withTransaction(Effect.gen(function*() {
      yield* sql`INSERT INTO contacts ${insertColumns} SELECT * FROM ${values(contacts)}
        ON CONFLICT (msisdn) DO UPDATE SET
          phone_number = EXCLUDED.phone_number, first_name = EXCLUDED.first_name,
          last_name = EXCLUDED.last_name, full_name = EXCLUDED.full_name,
          country_code = EXCLUDED.country_code, added_from = EXCLUDED.added_from,
          status = EXCLUDED.status, tags = EXCLUDED.tags, profile_uid = EXCLUDED.profile_uid,
          monitoring = EXCLUDED.monitoring, first_name_lower = EXCLUDED.first_name_lower,
          last_name_lower = EXCLUDED.last_name_lower, full_name_lower = EXCLUDED.full_name_lower
        WHERE (contacts.phone_number, contacts.first_name, contacts.last_name, contacts.full_name,
            contacts.country_code, contacts.added_from, contacts.status, contacts.tags, contacts.profile_uid,
            contacts.monitoring)
          IS DISTINCT FROM (EXCLUDED.phone_number, EXCLUDED.first_name, EXCLUDED.last_name, EXCLUDED.full_name,
            EXCLUDED.country_code, EXCLUDED.added_from, EXCLUDED.status, EXCLUDED.tags, EXCLUDED.profile_uid,
            EXCLUDED.monitoring)`
      yield* replaceTags(contacts)
    })).pipe(attempt("ContactStore.write"))
  }

  const list = (filter: ContactStore.ListFilter) => {
    const query = filter.query === undefined ? undefined : lower(filter.query)
    // PostgreSQL text cannot hold U+0000, so no stored field contains a query that does.
    if (query?.includes("\u0000") === true) return Effect.succeed([])
    const clauses = [
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

  const count = sql`SELECT count(*) AS n FROM contacts`.pipe(
    Effect.flatMap(decodeCount("ContactStore.count")),
    Effect.map((rows) => rows[0]?.n ?? 0),
    attempt("ContactStore.count")
  )

  return ContactStore.ContactStore.of({
    get,
    getMany,
    insert,
    update,
    remove,
    write,
    list,
    audience,
    count,
    transaction: transaction(sql)
  })
}
