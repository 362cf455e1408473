/**
 * The contact port on SQLite: contacts with their lower-cased tags in `contact_tags`, the suppression
 * list, keyset-paged audiences, and the memory store's case-insensitive search as an SQL function.
 * Every write runs under `BEGIN IMMEDIATE`, so a read-then-write inside one cannot race another process.
 */
import type { SQLInputValue } from "node:sqlite"
import { Option, Result, Stream } from "effect"
import { type Contact, ContactExists, ContactNotFound, ContactStore, type StoreFailure } from "@smsbook/core"
import * as BulkImport from "./bulkImport.ts"
import type { Database } from "./connection.ts"
import * as Rows from "./rows.ts"

const contactSelect = `SELECT ${Rows.contactColumns.join(", ")} FROM contacts`

const sql = {
  get: `${contactSelect} WHERE msisdn = ?`,
  getMany: `${contactSelect} WHERE msisdn IN (SELECT value FROM json_each(?))`,
  tags: "SELECT tags, status FROM contacts WHERE msisdn = ?",
  insert: `INSERT INTO contacts (${Rows.contactColumns.join(", ")}) VALUES (${Rows.placeholders(Rows.contactColumns.length)})
    ON CONFLICT (msisdn) DO NOTHING`,
  update: `UPDATE contacts SET ${Rows.assignments(Rows.contactColumns.slice(1))} WHERE msisdn = ?`,
  remove: "DELETE FROM contacts WHERE msisdn = ?",
  insertTag: "INSERT INTO contact_tags (tag, msisdn) VALUES (?, ?) ON CONFLICT DO NOTHING",
  removeTag: "DELETE FROM contact_tags WHERE tag = ? AND msisdn = ?",
  count: "SELECT count(*) AS count FROM contacts",
  isSuppressed: "SELECT 1 AS found FROM suppressions WHERE msisdn = ?",
  suppressedAmong: "SELECT msisdn FROM suppressions WHERE msisdn IN (SELECT value FROM json_each(?))",
  // Every msisdn sorts after '': the first page needs no statement of its own.
  suppressedPage: "SELECT msisdn FROM suppressions WHERE msisdn > ? ORDER BY msisdn LIMIT ?",
  suppress: "INSERT INTO suppressions (msisdn) VALUES (?) ON CONFLICT DO NOTHING",
  unsuppress: "DELETE FROM suppressions WHERE msisdn = ?",
  cancel: "UPDATE contacts SET status = 'CANCELLED' WHERE msisdn IN (SELECT value FROM json_each(?)) AND status <> 'CANCELLED'",
  suppressAll: "INSERT INTO suppressions (msisdn) SELECT value FROM json_each(?) WHERE true ON CONFLICT DO NOTHING",
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

  interface Stored {
    readonly tags: ReadonlySet<string>
    readonly cancelled: boolean
  }

  const stored = (msisdn: string): Stored | undefined => {
    const row = statement(sql.tags).get(msisdn)
    return row === undefined
      ? undefined
      : { tags: Rows.tagKeys(Rows.tags(row)), cancelled: Rows.text(row, "status") === "CANCELLED" }
  }

  const isSuppressed = (msisdn: string): boolean => statement(sql.isSuppressed).get(msisdn) !== undefined

  /** The opt-out law (see `ContactStore`): a stored CANCELLED is also a suppression entry. */
  const noteOptOut = (contact: Contact.Contact): void => {
    if (contact.status === "CANCELLED") statement(sql.suppress).run(contact.msisdn)
  }

  /** `contact` as `insert` and `write` store it: CANCELLED when the number is suppressed. */
  const lawful = (contact: Contact.Contact, cancelled: boolean): Contact.Contact =>
    contact.status !== "CANCELLED" && (cancelled || isSuppressed(contact.msisdn)) ? { ...contact, status: "CANCELLED" } : contact

  const insertContact = (given: Contact.Contact): Contact.Contact | undefined => {
    const contact = lawful(given, false)
    if (Number(statement(sql.insert).run(...Rows.contactParams(contact)).changes) === 0) return undefined
    const insertTag = statement(sql.insertTag)
    for (const tag of Rows.tagKeys(contact.tags)) insertTag.run(tag, contact.msisdn)
    noteOptOut(contact)
    return contact
  }

  /** Replaces the stored contact; `keepOptOut` keeps a stored CANCELLED or a suppression (batch writes). */
  const replaceContact = (given: Contact.Contact, keepOptOut: boolean): boolean => {
    const before = stored(given.msisdn)
    if (before === undefined) return false
    const contact = keepOptOut ? lawful(given, before.cancelled) : given
    const [msisdn, ...fields] = Rows.contactParams(contact)
    statement(sql.update).run(...fields, msisdn ?? null)
    const after = Rows.tagKeys(contact.tags)
    const removeTag = statement(sql.removeTag)
    const insertTag = statement(sql.insertTag)
    for (const tag of before.tags) if (!after.has(tag)) removeTag.run(tag, contact.msisdn)
    for (const tag of after) if (!before.tags.has(tag)) insertTag.run(tag, contact.msisdn)
    noteOptOut(contact)
    return true
  }

  /** Removes the contact and its tag pairs (by key: contact_tags has no index on msisdn); whether it was there. */
  const removeContact = (msisdn: string): boolean => {
    const before = stored(msisdn)
    if (before === undefined) return false
    statement(sql.remove).run(msisdn)
    const removeTag = statement(sql.removeTag)
    for (const tag of before.tags) removeTag.run(tag, msisdn)
    return true
  }

  const get = (msisdn: string) =>
    read("contacts.get", () => {
      const row = statement(sql.get).get(msisdn)
      return row === undefined ? Option.none() : Option.some(Rows.contactFromRow(row))
    })

  const page = (query: string, params: ReadonlyArray<SQLInputValue>): ReadonlyArray<Contact.Contact> =>
    statement(query).all(...params).map(Rows.contactFromRow)

  return ContactStore.ContactStore.of({
    get,
    // A write transaction holds the whole file, so a plain read inside one is already held.
    getForUpdate: get,
    getOrInsert: (contact) =>
      write("contacts.getOrInsert", () => {
        const row = statement(sql.get).get(contact.msisdn)
        if (row !== undefined) return { contact: Rows.contactFromRow(row), created: false }
        return { contact: insertContact(contact) ?? contact, created: true }
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
      writeOrFail("contacts.insert", () => {
        const stored = insertContact(contact)
        return stored === undefined ? Result.fail(new ContactExists({ msisdn: contact.msisdn })) : Result.succeed(stored)
      }),
    update: (contact) =>
      writeOrFail("contacts.update", () =>
        replaceContact(contact, false) ? Result.succeed(undefined) : Result.fail(new ContactNotFound({ msisdn: contact.msisdn }))),
    // The suppression entry stays: deleting a contact is not resubscribing it.
    remove: (msisdn) =>
      writeOrFail("contacts.remove", () => {
        return removeContact(msisdn) ? Result.succeed(undefined) : Result.fail(new ContactNotFound({ msisdn }))
      }),
    // Like the memory store, a write stores every contact whatever was there: an insert that
    // exists replaces it, an update that does not exist creates it.
    write: ({ insert, update }) =>
      write("contacts.write", () => {
        for (const contact of insert) if (insertContact(contact) === undefined) replaceContact(contact, true)
        for (const contact of update) if (!replaceContact(contact, true)) insertContact(contact)
      }),
    suppressed: (msisdns) =>
      read("contacts.suppressed", () =>
        new Set(statement(sql.suppressedAmong).all(JSON.stringify(msisdns)).map((row) => Rows.text(row, "msisdn")))),
    listSuppressed: ({ after, limit }) =>
      read("contacts.listSuppressed", () => statement(sql.suppressedPage).all(after ?? "", limit).map((row) => Rows.text(row, "msisdn"))),
    suppress: (msisdn) => write("contacts.suppress", () => void statement(sql.suppress).run(msisdn)),
    cancel: (msisdns) =>
      write("contacts.cancel", () => {
        const numbers = JSON.stringify(msisdns)
        const moved = Number(statement(sql.cancel).run(numbers).changes)
        statement(sql.suppressAll).run(numbers)
        return moved
      }),
    unsuppress: (msisdn) => write("contacts.unsuppress", () => void statement(sql.unsuppress).run(msisdn)),
    forget: (msisdn) =>
      write("contacts.forget", () => {
        const contact = removeContact(msisdn)
        const entry = Number(statement(sql.unsuppress).run(msisdn).changes) > 0
        return contact || entry
      }),
    list: (filter) =>
      read("contacts.list", () => {
        const where: Array<string> = []
        const params: Array<SQLInputValue> = []
        if (filter.after !== undefined) {
          where.push("msisdn > ?")
          params.push(filter.after)
        }
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
    transaction: db.transaction,
    retrying: db.retrying,
    bulkImport: BulkImport.make(db)
  })
}
