/**
 * The set-based import on SQLite: rows staged 100 per statement into a TEMP table keyed by msisdn, then merged into
 * `contacts` by one `INSERT … SELECT … ORDER BY msisdn ON CONFLICT … DO UPDATE … WHERE <changed>` (nothing is written
 * for a row that changes nothing), counted first by one pass over the same join.
 */
import type { SQLInputValue } from "node:sqlite"
import type { Contact, ContactStore } from "@smsbook/core"
import type { Database } from "./connection.ts"
import * as Rows from "./rows.ts"

/** Rows per staging statement: SQLite's statement cost is paid once per 100 rows. */
export const rowsPerStatement = 100

const stagingColumns = ["msisdn", "phone_number", "first_name", "last_name", "full_name", "country_code", "tags", "tag_keys", "profile_uid", "seq"] as const

const createStaging = `CREATE TEMP TABLE IF NOT EXISTS smsbook_import_rows (
  msisdn TEXT NOT NULL PRIMARY KEY,
  phone_number TEXT NOT NULL,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  full_name TEXT NOT NULL,
  country_code TEXT NOT NULL,
  tags TEXT NOT NULL,
  tag_keys TEXT NOT NULL,
  profile_uid TEXT NOT NULL,
  seq INTEGER NOT NULL
) WITHOUT ROWID`

const insertStaging = (rows: number): string => {
  const one = `(${Rows.placeholders(stagingColumns.length)})`
  return `INSERT INTO temp.smsbook_import_rows (${stagingColumns.join(", ")}) VALUES ${Array.from({ length: rows }, () => one).join(", ")}`
}

/** The import rule in SQL over `s` (staged) and `c` (stored): the names a row leaves, and whether it changes anything. */
const rule = (blankErases: boolean) => {
  const first = blankErases ? "s.first_name" : "CASE WHEN s.first_name <> '' THEN s.first_name ELSE c.first_name END"
  const last = blankErases ? "s.last_name" : "CASE WHEN s.last_name <> '' THEN s.last_name ELSE c.last_name END"
  const full = `CASE WHEN (${first}) = '' THEN (${last}) WHEN (${last}) = '' THEN (${first}) ELSE (${first}) || ' ' || (${last}) END`
  const newTag = `EXISTS (SELECT 1 FROM json_each(s.tag_keys) k
    WHERE NOT EXISTS (SELECT 1 FROM contact_tags t WHERE t.tag = k.value AND t.msisdn = s.msisdn))`
  const changed = `(c.first_name IS NOT (${first}) OR c.last_name IS NOT (${last}) OR c.full_name IS NOT (${full}) OR ${newTag})`
  return { first, last, full, changed }
}

const counts = (blankErases: boolean) => `SELECT
    count(*) FILTER (WHERE c.msisdn IS NULL) AS created,
    count(*) FILTER (WHERE c.msisdn IS NOT NULL AND ${rule(blankErases).changed}) AS updated,
    count(*) FILTER (WHERE c.msisdn IS NOT NULL) AS existing,
    count(*) FILTER (WHERE c.status = 'CANCELLED' OR (c.msisdn IS NULL AND sp.msisdn IS NOT NULL)) AS opted_out
  FROM temp.smsbook_import_rows s
  LEFT JOIN contacts c ON c.msisdn = s.msisdn
  LEFT JOIN suppressions sp ON sp.msisdn = s.msisdn`

const optedOut = `SELECT s.msisdn AS msisdn FROM temp.smsbook_import_rows s
  LEFT JOIN contacts c ON c.msisdn = s.msisdn
  WHERE c.status = 'CANCELLED' OR (c.msisdn IS NULL AND EXISTS (SELECT 1 FROM suppressions sp WHERE sp.msisdn = s.msisdn))
  ORDER BY s.seq LIMIT ?`

/**
 * The merge. In `DO UPDATE`, `contacts` is the stored row and `s` the staged one (found again by its key, as
 * `excluded` holds only contacts' columns). Tags: the stored ones, then the row's whose keys are not stored yet, in
 * order (contact_tags still holds the stored keys: the row's are added after).
 */
const merge = (blankErases: boolean) => {
  const { changed, first, full, last } = rule(blankErases)
  const staged = (expression: string) =>
    `(SELECT ${expression} FROM temp.smsbook_import_rows s, contacts c WHERE s.msisdn = excluded.msisdn AND c.msisdn = excluded.msisdn)`
  const tags = `(SELECT json_group_array(value) FROM (
      SELECT j.value AS value, 0 AS part, j.key AS position FROM contacts c, json_each(c.tags) j WHERE c.msisdn = excluded.msisdn
      UNION ALL
      SELECT t.value, 1, t.key FROM temp.smsbook_import_rows s, json_each(s.tags) t, json_each(s.tag_keys) k
      WHERE s.msisdn = excluded.msisdn AND k.key = t.key
        AND NOT EXISTS (SELECT 1 FROM contact_tags ct WHERE ct.tag = k.value AND ct.msisdn = s.msisdn)
      ORDER BY part, position))`
  return `INSERT INTO contacts (${Rows.contactColumns.join(", ")})
    SELECT s.msisdn, s.phone_number, s.first_name, s.last_name, s.full_name, s.country_code, 'FILE_UPLOAD',
      CASE WHEN EXISTS (SELECT 1 FROM suppressions sp WHERE sp.msisdn = s.msisdn) THEN 'CANCELLED' ELSE 'SUBSCRIBED' END,
      s.tags, s.profile_uid, 0
    FROM temp.smsbook_import_rows s WHERE true ORDER BY s.msisdn
    ON CONFLICT (msisdn) DO UPDATE SET
      first_name = ${staged(first)},
      last_name = ${staged(last)},
      full_name = ${staged(full)},
      tags = ${tags}
    WHERE ${staged(changed)}`
}

const insertTags = `INSERT INTO contact_tags (tag, msisdn)
  SELECT k.value, s.msisdn FROM temp.smsbook_import_rows s, json_each(s.tag_keys) k WHERE true
  ON CONFLICT DO NOTHING`

const stagedParams = (contact: Contact.Contact, seq: number): ReadonlyArray<SQLInputValue> => [
  contact.msisdn,
  contact.phone_number,
  contact.first_name,
  contact.last_name,
  contact.full_name,
  contact.country_code,
  JSON.stringify(contact.tags),
  JSON.stringify([...Rows.tagKeys(contact.tags)]),
  contact.profile_uid,
  seq
]

/** Builds `ContactStore.bulkImport` over `db`: only inside a transaction, which the staging lives and dies with. */
export const make = (db: Database): NonNullable<ContactStore.ContactStore["Service"]["bulkImport"]> => ({ blankErases }) =>
  db.write("contacts.bulkImport", () => {
    const { statement } = db
    statement(createStaging).run()
    statement("DELETE FROM temp.smsbook_import_rows").run()
    let seq = 0
    const bulk: ContactStore.BulkImport = {
      stage: (contacts) =>
        db.write("contacts.bulkImport.stage", () => {
          let at = 0
          const full = statement(insertStaging(rowsPerStatement))
          const params: Array<SQLInputValue> = []
          for (; at + rowsPerStatement <= contacts.length; at += rowsPerStatement) {
            params.length = 0
            for (let i = at; i < at + rowsPerStatement; i++) {
              const contact = contacts[i]
              if (contact !== undefined) params.push(...stagedParams(contact, seq++))
            }
            full.run(...params)
          }
          if (at < contacts.length) {
            params.length = 0
            for (let i = at; i < contacts.length; i++) {
              const contact = contacts[i]
              if (contact !== undefined) params.push(...stagedParams(contact, seq++))
            }
            statement(insertStaging(contacts.length - at)).run(...params)
          }
        }),
      merge: (limit) =>
        db.write("contacts.bulkImport.merge", () => {
          const row = statement(counts(blankErases)).get() ?? {}
          const created = Rows.number(row, "created")
          const updated = Rows.number(row, "updated")
          const existing = Rows.number(row, "existing")
          const optedOutCount = Rows.number(row, "opted_out")
          const optedOutMsisdns = optedOutCount === 0 || limit <= 0
            ? []
            : statement(optedOut).all(limit).map((r) => Rows.text(r, "msisdn"))
          if (created + updated > 0) {
            statement(merge(blankErases)).run()
            statement(insertTags).run()
          }
          statement("DELETE FROM temp.smsbook_import_rows").run()
          return { created, updated, unchanged: existing - updated, optedOut: optedOutCount, optedOutMsisdns }
        })
    }
    return bulk
  })
