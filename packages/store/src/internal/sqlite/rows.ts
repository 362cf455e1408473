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

const optionalText = (row: Row, column: string): string | undefined => {
  const value = row[column]
  return value === null || value === undefined ? undefined : typeof value === "string" ? value : fail(column, value)
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
const direction = oneOf(Message.Direction.literals)
const messageStatus = oneOf(Message.statuses)
const messageType = oneOf<Message.Type>([Message.INDIVIDUAL, Message.GROUP])

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

/** A stored message; optional fields stored as NULL come back absent, never `undefined`. */
export const messageFromRow = (row: Row): Message.Stored => {
  const message: Mutable<Message.Stored> = {
    message_id: text(row, "message_id"),
    short_code: text(row, "short_code"),
    direction: direction(row, "direction"),
    status: messageStatus(row, "status"),
    message: text(row, "message"),
    total_recipients: number(row, "total_recipients"),
    sent_count: number(row, "sent_count"),
    error_count: number(row, "error_count"),
    total_monitors: number(row, "total_monitors"),
    is_scheduled: flag(row, "is_scheduled"),
    is_billable: flag(row, "is_billable"),
    created_at: number(row, "created_at"),
    type: messageType(row, "type"),
    tags: tags(row),
    segments: number(row, "segments")
  }
  const id = optionalText(row, "id")
  if (id !== undefined) message.id = id
  const country = optionalText(row, "country")
  if (country !== undefined) message.country = country
  const msisdn = optionalText(row, "msisdn")
  if (msisdn !== undefined) message.msisdn = msisdn
  const createdBy = optionalText(row, "created_by")
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
