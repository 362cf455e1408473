/**
 * How contacts, messages and outbox parts map to SQLite rows and back: parameters in column order,
 * rows checked field by field (a corrupt row throws, and the store reports a `StoreFailure`).
 */
import type { SQLInputValue, SQLOutputValue } from "node:sqlite"
import { type Carrier, Contact, Message } from "@smsbook/core"

export type Row = Record<string, SQLOutputValue>

/** Columns of `contacts`, in the order of `contactParams`. */
export const contactColumns = [
  "msisdn",
  "phone_number",
  "first_name",
  "last_name",
  "full_name",
  "country_code",
  "added_from",
  "status",
  "tags",
  "profile_uid",
  "monitoring"
] as const

/** Columns of `messages` (without `seq`), in the order of `messageParams`. */
export const messageColumns = [
  "message_id",
  "id",
  "short_code",
  "country",
  "msisdn",
  "direction",
  "status",
  "message",
  "total_recipients",
  "sent_count",
  "error_count",
  "total_monitors",
  "is_scheduled",
  "is_billable",
  "created_at",
  "created_by",
  "type",
  "tags",
  "segments"
] as const

/** Columns of `outbox` (without `seq`), in the order of `partParams`. */
export const partColumns = ["message_id", "msisdn", "short_code", "part", "parts", "text"] as const

/** `?, ?, …` for `count` values. */
export const placeholders = (count: number): string => Array.from({ length: count }, () => "?").join(", ")

/** `a = ?, b = ?, …` for an UPDATE of `columns`. */
export const assignments = (columns: ReadonlyArray<string>): string => columns.map((column) => `${column} = ?`).join(", ")

/**
 * The keys under which tags are matched: lower-cased by JavaScript (as the memory store does),
 * each once. SQLite's `lower` only folds ASCII, so folding happens here, never in SQL.
 */
export const tagKeys = (tags: ReadonlyArray<string>): ReadonlySet<string> => new Set(tags.map((tag) => tag.toLowerCase()))

const fail = (column: string, value: SQLOutputValue): never => {
  throw new Error(`corrupt row: column ${column} holds ${String(value)}`)
}

/** A TEXT column; anything else in it is a corrupt row. */
export const text = (row: Row, column: string): string => {
  const value = row[column]
  return typeof value === "string" ? value : fail(column, value ?? null)
}

/** A numeric column (INTEGER or REAL as written); anything else is a corrupt row. */
export const number = (row: Row, column: string): number => {
  const value = row[column]
  return typeof value === "number" ? value : fail(column, value ?? null)
}

const flag = (row: Row, column: string): boolean => number(row, column) !== 0

const oneOf = <L extends string | number>(values: ReadonlyArray<L>) => (row: Row, column: string): L => {
  const value = row[column]
  const found = values.find((candidate) => candidate === value)
  return found === undefined ? fail(column, value ?? null) : found
}

const status = oneOf(Contact.statuses)
const addedFrom = oneOf(Contact.AddedFrom.literals)

/** The tags of a row, stored as a JSON array of strings in the order given. */
export const tags = (row: Row): ReadonlyArray<string> => {
  const parsed: unknown = JSON.parse(text(row, "tags"))
  return Array.isArray(parsed) && parsed.every((tag): tag is string => typeof tag === "string")
    ? parsed
    : fail("tags", text(row, "tags"))
}

/** The parameters of a contact in `contactColumns` order; tags as JSON, `monitoring` as 0/1. */
export const contactParams = (contact: Contact.Contact): Array<SQLInputValue> =>
  contactColumns.map((column) => {
    switch (column) {
      case "tags":
        return JSON.stringify(contact.tags)
      case "monitoring":
        return contact.monitoring ? 1 : 0
      default:
        return contact[column]
    }
  })

/** A contact from its row: every field checked, so a bad value fails loudly rather than leaking out. */
export const contactFromRow = (row: Row): Contact.Contact => ({
  msisdn: text(row, "msisdn"),
  phone_number: text(row, "phone_number"),
  first_name: text(row, "first_name"),
  last_name: text(row, "last_name"),
  full_name: text(row, "full_name"),
  country_code: text(row, "country_code"),
  added_from: addedFrom(row, "added_from"),
  status: status(row, "status"),
  tags: tags(row),
  profile_uid: text(row, "profile_uid"),
  monitoring: flag(row, "monitoring")
})

/** The parameters of a message in `messageColumns` order; absent optional fields as NULL. */
export const messageParams = (message: Message.Stored): Array<SQLInputValue> => [
  message.message_id,
  message.id ?? null,
  message.short_code,
  message.country ?? null,
  message.msisdn ?? null,
  message.direction,
  message.status,
  message.message,
  message.total_recipients,
  message.sent_count,
  message.error_count,
  message.total_monitors,
  message.is_scheduled ? 1 : 0,
  message.is_billable ? 1 : 0,
  message.created_at,
  message.created_by ?? null,
  message.type,
  JSON.stringify(message.tags),
  message.segments
]

type Mutable<T> = { -readonly [K in keyof T]: T[K] }

/** A row as node:sqlite returns it with `setReturnArrays(true)`: the values in the order of the SELECT. */
export type Values = ReadonlyArray<SQLOutputValue>

/** Whether a row came back as an array of values. */
export const isValues = (row: unknown): row is Values => Array.isArray(row)

/** The index of every message column in a `messageColumns` SELECT. */
const column: { readonly [K in (typeof messageColumns)[number]]: number } = {
  message_id: messageColumns.indexOf("message_id"),
  id: messageColumns.indexOf("id"),
  short_code: messageColumns.indexOf("short_code"),
  country: messageColumns.indexOf("country"),
  msisdn: messageColumns.indexOf("msisdn"),
  direction: messageColumns.indexOf("direction"),
  status: messageColumns.indexOf("status"),
  message: messageColumns.indexOf("message"),
  total_recipients: messageColumns.indexOf("total_recipients"),
  sent_count: messageColumns.indexOf("sent_count"),
  error_count: messageColumns.indexOf("error_count"),
  total_monitors: messageColumns.indexOf("total_monitors"),
  is_scheduled: messageColumns.indexOf("is_scheduled"),
  is_billable: messageColumns.indexOf("is_billable"),
  created_at: messageColumns.indexOf("created_at"),
  created_by: messageColumns.indexOf("created_by"),
  type: messageColumns.indexOf("type"),
  tags: messageColumns.indexOf("tags"),
  segments: messageColumns.indexOf("segments")
}

const at = (values: Values, index: number): SQLOutputValue => values[index] ?? null

const textAt = (values: Values, index: number): string => {
  const value = at(values, index)
  return typeof value === "string" ? value : fail(messageColumns[index] ?? String(index), value)
}

const optionalTextAt = (values: Values, index: number): string | undefined => {
  const value = at(values, index)
  return value === null ? undefined : typeof value === "string" ? value : fail(messageColumns[index] ?? String(index), value)
}

const numberAt = (values: Values, index: number): number => {
  const value = at(values, index)
  return typeof value === "number" ? value : fail(messageColumns[index] ?? String(index), value)
}

const oneOfAt = <L extends string | number>(literals: ReadonlyArray<L>) => (values: Values, index: number): L => {
  const value = at(values, index)
  const found = literals.find((candidate) => candidate === value)
  return found === undefined ? fail(messageColumns[index] ?? String(index), value) : found
}

const directionAt = oneOfAt(Message.Direction.literals)
const messageStatusAt = oneOfAt(Message.statuses)
const messageTypeAt = oneOfAt<Message.Type>([Message.INDIVIDUAL, Message.GROUP])

/** The last tags column decoded, with its array: most messages of a report share a handful of tag lists. */
let lastTagsText = ""
let lastTags: ReadonlyArray<string> = []

const tagsAt = (values: Values, index: number): ReadonlyArray<string> => {
  const json = textAt(values, index)
  if (json === lastTagsText) return lastTags
  const parsed: unknown = JSON.parse(json)
  if (!Array.isArray(parsed) || !parsed.every((tag): tag is string => typeof tag === "string")) return fail("tags", json)
  // Frozen: the array is shared by every message whose tags read the same.
  lastTags = Object.freeze(parsed)
  lastTagsText = json
  return lastTags
}

/**
 * A stored message from the values of a `messageColumns` SELECT (rows as arrays: no object per row from SQLite,
 * the fast path of reports): every field checked, optional fields stored as NULL absent, never `undefined`.
 */
export const messageFromValues = (values: Values): Message.Stored => {
  const message: Mutable<Message.Stored> = {
    message_id: textAt(values, column.message_id),
    short_code: textAt(values, column.short_code),
    direction: directionAt(values, column.direction),
    status: messageStatusAt(values, column.status),
    message: textAt(values, column.message),
    total_recipients: numberAt(values, column.total_recipients),
    sent_count: numberAt(values, column.sent_count),
    error_count: numberAt(values, column.error_count),
    total_monitors: numberAt(values, column.total_monitors),
    is_scheduled: numberAt(values, column.is_scheduled) !== 0,
    is_billable: numberAt(values, column.is_billable) !== 0,
    created_at: numberAt(values, column.created_at),
    type: messageTypeAt(values, column.type),
    tags: tagsAt(values, column.tags),
    segments: numberAt(values, column.segments)
  }
  const id = optionalTextAt(values, column.id)
  if (id !== undefined) message.id = id
  const country = optionalTextAt(values, column.country)
  if (country !== undefined) message.country = country
  const msisdn = optionalTextAt(values, column.msisdn)
  if (msisdn !== undefined) message.msisdn = msisdn
  const createdBy = optionalTextAt(values, column.created_by)
  if (createdBy !== undefined) message.created_by = createdBy
  return message
}

/** The parameters of a carrier part in `partColumns` order. */
export const partParams = (part: Carrier.Part): Array<SQLInputValue> => [
  part.message_id,
  part.msisdn,
  part.short_code,
  part.part,
  part.parts,
  part.text
]

/** A carrier part from its outbox row. */
export const partFromRow = (row: Row): Carrier.Part => ({
  message_id: text(row, "message_id"),
  msisdn: text(row, "msisdn"),
  short_code: text(row, "short_code"),
  part: number(row, "part"),
  parts: number(row, "parts"),
  text: text(row, "text")
})
