/**
 * The rows of the PostgreSQL adapter's tables as Schemas, decoded once where they leave the database,
 * and the column arrays that set-based statements (`unnest`) take.
 */
import { Effect, Schema } from "effect"
import { Contact, Message } from "@smsbook/core"
import { attempt, NumberFromInt8, rowsDecoder } from "./connection.ts"

/** The columns a contact is read from, in `ContactRow` order. */
export const contactColumns =
  "msisdn, phone_number, first_name, last_name, full_name, country_code, added_from, status, tags, profile_uid, monitoring"

/** A row of `contacts`: exactly the domain contact (the search columns are never selected). */
const ContactRow = Schema.Struct({
  msisdn: Schema.String,
  phone_number: Schema.String,
  first_name: Schema.String,
  last_name: Schema.String,
  full_name: Schema.String,
  country_code: Schema.String,
  added_from: Contact.AddedFrom,
  status: Contact.Status,
  tags: Schema.Array(Schema.String),
  profile_uid: Schema.String,
  monitoring: Schema.Boolean
})

export const decodeContacts = rowsDecoder(ContactRow)

/**
 * Lower case as JavaScript computes it (`toLowerCase`), the case folding the reference store uses;
 * PostgreSQL's `lower()` depends on the database's ctype (ASCII only under `C`), so the adapter never uses it.
 */
export const lower = (text: string): string => text.toLowerCase()

/** A batch of contacts as one array per column, for `unnest($1::text[], …)`: a fixed, re-usable statement. */
export const contactArrays = (contacts: ReadonlyArray<Contact.Contact>) => ({
  msisdn: contacts.map((c) => c.msisdn),
  phone_number: contacts.map((c) => c.phone_number),
  first_name: contacts.map((c) => c.first_name),
  last_name: contacts.map((c) => c.last_name),
  full_name: contacts.map((c) => c.full_name),
  country_code: contacts.map((c) => c.country_code),
  added_from: contacts.map((c) => c.added_from),
  status: contacts.map((c) => c.status),
  tags: contacts.map((c) => JSON.stringify(c.tags)),
  profile_uid: contacts.map((c) => c.profile_uid),
  monitoring: contacts.map((c) => c.monitoring),
  first_name_lower: contacts.map((c) => lower(c.first_name)),
  last_name_lower: contacts.map((c) => lower(c.last_name)),
  full_name_lower: contacts.map((c) => lower(c.full_name))
})

/** The (lower-cased tag, msisdn) pairs of `contact_tags`, each once, as two parallel columns. */
export const tagPairs = (contacts: ReadonlyArray<Contact.Contact>) => {
  const tags: Array<string> = []
  const msisdns: Array<string> = []
  for (const contact of contacts) {
    for (const tag of new Set(contact.tags.map(lower))) {
      tags.push(tag)
      msisdns.push(contact.msisdn)
    }
  }
  return { tags, msisdns }
}

/** The last occurrence of every key, in first-seen order: a batch must not touch a row twice. */
export const lastByKey = <A>(items: ReadonlyArray<A>, key: (item: A) => string): ReadonlyArray<A> => {
  const byKey = new Map<string, A>()
  for (const item of items) byKey.set(key(item), item)
  return [...byKey.values()]
}

/** The columns a message is read from, in `MessageRow` order. */
export const messageColumns =
  "message_id, id, short_code, country, msisdn, direction, status, message, total_recipients, sent_count, " +
  "error_count, total_monitors, is_scheduled, is_billable, created_at, created_by, type, tags, segments"

/** A row of `messages`; absent optional fields are NULL. */
export const MessageRow = Schema.Struct({
  message_id: Schema.String,
  id: Schema.NullOr(Schema.String),
  short_code: Schema.String,
  country: Schema.NullOr(Schema.String),
  msisdn: Schema.NullOr(Schema.String),
  direction: Message.Direction,
  status: Message.Status,
  message: Schema.String,
  total_recipients: Schema.Number,
  sent_count: Schema.Number,
  error_count: Schema.Number,
  total_monitors: Schema.Number,
  is_scheduled: Schema.Boolean,
  is_billable: Schema.Boolean,
  created_at: NumberFromInt8,
  created_by: Schema.NullOr(Schema.String),
  type: Schema.Literals([1, 2]),
  tags: Schema.Array(Schema.String),
  segments: Schema.Number
})
export type MessageRow = typeof MessageRow.Type

export const decodeMessages = rowsDecoder(MessageRow)

/** A stored message from its row: NULL columns become absent keys, never `undefined` values. */
export const toStored = ({ id, country, msisdn, created_by, ...always }: MessageRow): Message.Stored => ({
  ...always,
  ...(id === null ? {} : { id }),
  ...(country === null ? {} : { country }),
  ...(msisdn === null ? {} : { msisdn }),
  ...(created_by === null ? {} : { created_by })
})

/** The earlier message an anti-spam check found. */
const SpamRow = Schema.Struct({ message_id: Schema.String, created_at: NumberFromInt8 })
export const decodeSpam = rowsDecoder(SpamRow)

/** One part of the outbox, exactly the carrier's `Part`. */
const PartRow = Schema.Struct({
  message_id: Schema.String,
  msisdn: Schema.String,
  short_code: Schema.String,
  part: Schema.Number,
  parts: Schema.Number,
  text: Schema.String
})
export const decodeParts = rowsDecoder(PartRow)

/** One column of `rows` as an array, for `unnest($1::text[], …)`. */
export const column = <A, K extends keyof A>(rows: ReadonlyArray<A>, key: K): Array<A[K]> => rows.map((row) => row[key])

/** `SELECT count(*) AS n`. */
const CountRow = Schema.Struct({ n: NumberFromInt8 })
export const decodeCount = rowsDecoder(CountRow)

/** The number a `SELECT count(*) AS n …` statement answers; its failures are `operation`'s. */
export const countOf = (operation: string) => <E, R>(statement: Effect.Effect<ReadonlyArray<unknown>, E, R>) =>
  statement.pipe(Effect.flatMap(decodeCount(operation)), Effect.map((rows) => rows[0]?.n ?? 0), attempt(operation))

/**
 * The rows a statement wrote, from the server's command tag (`UPDATE 5`): what `RETURNING` would list, without the
 * server sending each row and the client decoding it (200k rows of a merge, ~1 s of the client's time).
 */
export const rowCount = (operation: string) => <E, R>(statement: { readonly raw: Effect.Effect<unknown, E, R> }) =>
  statement.raw.pipe(
    Effect.flatMap((result) => {
      const count = typeof result === "object" && result !== null ? Reflect.get(result, "rowCount") : undefined
      return typeof count === "number"
        ? Effect.succeed(count)
        : Effect.die(new Error(`${operation}: the driver answered no row count`))
    })
  )

/** A staged row an import's merge hands back (`ContactStore.Repeat`), with its place in the staging. */
const RepeatRow = Schema.Struct({
  seq: NumberFromInt8,
  msisdn: Schema.String,
  phone_number: Schema.String,
  country_code: Schema.String,
  tags: Schema.Array(Schema.String)
})
export const decodeRepeats = rowsDecoder(RepeatRow)

/** A column of text keys (`RETURNING msisdn`). */
const MsisdnRow = Schema.Struct({ msisdn: Schema.String })
export const decodeMsisdns = rowsDecoder(MsisdnRow)

/** Keys with their status (`RETURNING msisdn, status`). */
const StatusRow = Schema.Struct({ msisdn: Schema.String, status: Schema.String })
export const decodeStatuses = rowsDecoder(StatusRow)
