/**
 * The contact port on SQLite: contacts with their lower-cased tags in `contact_tags`, keyset-paged
 * audiences, and the memory store's case-insensitive search as an SQL function.
 */
import type { SQLInputValue } from "node:sqlite"
import { Option, Result, Stream } from "effect"
import { type Contact, ContactExists, ContactNotFound, ContactStore, type StoreFailure } from "@smsbook/core"
import type { Database } from "./connection.ts"
import * as Rows from "./rows.ts"

const contactSelect = `SELECT ${Rows.contactColumns.join(", ")} FROM contacts`

const sql = {
  get: `${contactSelect} WHERE msisdn = ?`,
  getMany: `${contactSelect} WHERE msisdn IN (SELECT value FROM json_each(?))`,
  tags: "SELECT tags FROM contacts WHERE msisdn = ?",
  insert: `INSERT INTO contacts (${Rows.contactColumns.join(", ")}) VALUES (${Rows.placeholders(Rows.contactColumns.length)})
    ON CONFLICT (msisdn) DO NOTHING`,
  update: `UPDATE contacts SET ${Rows.assignments(Rows.contactColumns.slice(1))} WHERE msisdn = ?`,
  remove: "DELETE FROM contacts WHERE msisdn = ?",
  insertTag: "INSERT INTO contact_tags (tag, msisdn) VALUES (?, ?) ON CONFLICT DO NOTHING",
  removeTag: "DELETE FROM contact_tags WHERE tag = ? AND msisdn = ?",
  count: "SELECT count(*) AS count FROM contacts",
  // A contact is in the audience when it is monitoring or carries one of the (lower-cased) tags;
  // scanning contacts in key order and probing contact_tags keeps every page O(page), each once.
  audienceFirst: `${contactSelect} c WHERE (c.monitoring = 1 OR EXISTS (SELECT 1 FROM contact_tags t
    WHERE t.msisdn = c.msisdn AND t.tag IN (SELECT value FROM json_each(?)))) ORDER BY c.msisdn LIMIT ?`,
  audienceNext: `${contactSelect} c WHERE c.msisdn > ? AND (c.monitoring = 1 OR EXISTS (SELECT 1 FROM contact_tags t
    WHERE t.msisdn = c.msisdn AND t.tag IN (SELECT value FROM json_each(?)))) ORDER BY c.msisdn LIMIT ?`
} as const

/** Memory-store semantics of `list`'s query, registered as an SQL function (SQLite's `lower` folds ASCII only). */
const contactMatches = (query: unknown, ...fields: ReadonlyArray<unknown>): number =>
  typeof query === "string" && fields.some((field) => typeof field === "string" && field.toLowerCase().includes(query))
    ? 1
    : 0

/** Builds the contact port over `db`; `pageSize` rows per audience page. */
export const make = (db: Database, pageSize: number): ContactStore.ContactStore["Service"] => {
  const { read, statement, write, writeOrFail } = db
  db.connection.db.function(
    "smsbook_contact_matches",
    { deterministic: true, directOnly: true, varargs: true },
    (query, ...fields) => contactMatches(query, ...fields)
  )

  const storedTags = (msisdn: string): ReadonlySet<string> | undefined => {
    const row = statement(sql.tags).get(msisdn)
    return row === undefined ? undefined : Rows.tagKeys(Rows.tags(row))
  }

  const insertContact = (contact: Contact.Contact): boolean => {
    if (Number(statement(sql.insert).run(...Rows.contactParams(contact)).changes) === 0) return false
    const insertTag = statement(sql.insertTag)
    for (const tag of Rows.tagKeys(contact.tags)) insertTag.run(tag, contact.msisdn)
    return true
  }

  const replaceContact = (contact: Contact.Contact): boolean => {
    const before = storedTags(contact.msisdn)
    if (before === undefined) return false
    const [msisdn, ...fields] = Rows.contactParams(contact)
    statement(sql.update).run(...fields, msisdn ?? null)
    const after = Rows.tagKeys(contact.tags)
    const removeTag = statement(sql.removeTag)
    const insertTag = statement(sql.insertTag)
    for (const tag of before) if (!after.has(tag)) removeTag.run(tag, contact.msisdn)
    for (const tag of after) if (!before.has(tag)) insertTag.run(tag, contact.msisdn)
    return true
  }

  const page = (query: string, params: ReadonlyArray<SQLInputValue>): ReadonlyArray<Contact.Contact> =>
    statement(query).all(...params).map(Rows.contactFromRow)

  return ContactStore.ContactStore.of({
    get: (msisdn) =>
      read("contacts.get", () => {
        const row = statement(sql.get).get(msisdn)
        return row === undefined ? Option.none() : Option.some(Rows.contactFromRow(row))
      }),
    getMany: (msisdns) =>
      read("contacts.getMany", () => {
        const rows = new Map<string, Contact.Contact>()
        for (const row of statement(sql.getMany).all(JSON.stringify(msisdns))) {
          const contact = Rows.contactFromRow(row)
          rows.set(contact.msisdn, contact)
        }
        // In the order asked, as the memory store answers.
        const found = new Map<string, Contact.Contact>()
        for (const msisdn of msisdns) {
          const contact = rows.get(msisdn)
          if (contact !== undefined) found.set(msisdn, contact)
        }
        return found
      }),
    insert: (contact) =>
      writeOrFail("contacts.insert", () =>
        insertContact(contact) ? Result.succeed(undefined) : Result.fail(new ContactExists({ msisdn: contact.msisdn }))),
    update: (contact) =>
      writeOrFail("contacts.update", () =>
        replaceContact(contact) ? Result.succeed(undefined) : Result.fail(new ContactNotFound({ msisdn: contact.msisdn }))),
    remove: (msisdn) =>
      writeOrFail("contacts.remove", () => {
        const before = storedTags(msisdn)
        if (before === undefined) return Result.fail(new ContactNotFound({ msisdn }))
        statement(sql.remove).run(msisdn)
        const removeTag = statement(sql.removeTag)
        for (const tag of before) removeTag.run(tag, msisdn)
        return Result.succeed(undefined)
      }),
    // Like the memory store, a write stores every contact whatever was there: an insert that
    // exists replaces it, an update that does not exist creates it.
    write: ({ insert, update }) =>
      write("contacts.write", () => {
        for (const contact of insert) if (!insertContact(contact)) replaceContact(contact)
        for (const contact of update) if (!replaceContact(contact)) insertContact(contact)
      }),
    list: (filter) =>
      read("contacts.list", () => {
        const where: Array<string> = []
        const params: Array<SQLInputValue> = []
        if (filter.status !== undefined) {
          where.push("status = ?")
          params.push(filter.status)
        }
        if (filter.query !== undefined) {
          where.push("smsbook_contact_matches(?, msisdn, first_name, last_name, full_name)")
          params.push(filter.query.toLowerCase())
        }
        const query = `${contactSelect} ${where.length === 0 ? "" : `WHERE ${where.join(" AND ")}`}
          ORDER BY msisdn LIMIT ? OFFSET ?`
        return page(query, [...params, filter.limit, filter.start])
      }),
    audience: ({ tags }) => {
      const keys = JSON.stringify([...Rows.tagKeys(tags)])
      return Stream.paginate<string | undefined, Contact.Contact, StoreFailure>(undefined, (after) =>
        read("contacts.audience", () => {
          const rows = after === undefined
            ? page(sql.audienceFirst, [keys, pageSize])
            : page(sql.audienceNext, [after, keys, pageSize])
          const last = rows.at(-1)
          return [rows, rows.length < pageSize || last === undefined ? Option.none() : Option.some(last.msisdn)] as const
        }))
    },
    count: read("contacts.count", () => Rows.number(statement(sql.count).get() ?? {}, "count")),
    transaction: db.transaction
  })
}
