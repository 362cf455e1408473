/**
 * The message port on SQLite: messages with their lower-cased tags in `message_tags`, the anti-spam
 * check inside the insert's write transaction, keyset-paged streams and the deliveries ledger.
 */
import type { SQLInputValue } from "node:sqlite"
import { Option, Result, Stream } from "effect"
import { DuplicateSend, type Message, MessageStore, type StoreFailure } from "@smsbook/core"
import type { Database } from "./connection.ts"
import * as Rows from "./rows.ts"

const messageSelect = (alias: string) => `SELECT ${Rows.messageColumns.map((column) => `${alias}.${column}`).join(", ")}`

const sql = {
  get: `${messageSelect("m")} FROM messages m WHERE m.message_id = ?`,
  // The first recorded message still in the anti-spam period, as the memory store finds it.
  earlier: "SELECT message_id, created_at FROM messages WHERE id = ? AND created_at >= ? ORDER BY seq LIMIT 1",
  latestById: `${messageSelect("m")} FROM messages m WHERE m.id = ? ORDER BY m.created_at DESC, m.message_id DESC LIMIT 1`,
  keys: "SELECT tags, created_at FROM messages WHERE message_id = ?",
  insert: `INSERT INTO messages (${Rows.messageColumns.join(", ")}) VALUES (${Rows.placeholders(Rows.messageColumns.length)})`,
  update: `UPDATE messages SET ${Rows.assignments(Rows.messageColumns.slice(1))} WHERE message_id = ?`,
  insertTag: "INSERT INTO message_tags (tag, created_at, message_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
  removeTag: "DELETE FROM message_tags WHERE tag = ? AND created_at = ? AND message_id = ?",
  recordDelivery: "INSERT INTO deliveries (message_id, msisdn) VALUES (?, ?) ON CONFLICT DO NOTHING",
  countDeliveries: "SELECT count(*) AS count FROM deliveries WHERE message_id = ?"
} as const

/** Where a keyset page of messages resumes: after this (created_at, message_id). */
interface Cursor {
  readonly created_at: number
  readonly message_id: string
}

interface Query {
  readonly sql: string
  readonly params: ReadonlyArray<SQLInputValue>
}

/**
 * The SQL of a message filter, ordered by (created_at, message_id). With `group`, the scan runs
 * over `message_tags` (tag, created_at, message_id), so a report of one group reads only its rows.
 */
const messageQuery = (
  filter: MessageStore.Filter,
  after: Cursor | undefined,
  page: { readonly limit: number; readonly start?: number }
): Query => {
  const order = filter.group === undefined ? "m" : "g"
  const where: Array<string> = []
  const params: Array<SQLInputValue> = []
  const add = (clause: string, ...values: ReadonlyArray<SQLInputValue>) => {
    where.push(clause)
    params.push(...values)
  }
  if (filter.group !== undefined) add("g.tag = ?", filter.group.toLowerCase())
  // Past the first page the cursor already implies `from` (every row returned was at or after it),
  // and leaving it out lets the index range start at the cursor instead of at `from` on every page.
  if (filter.from !== undefined && after === undefined) add(`${order}.created_at >= ?`, filter.from)
  if (filter.to !== undefined) add(`${order}.created_at <= ?`, filter.to)
  if (filter.direction !== undefined) add("m.direction = ?", filter.direction)
  if (filter.msisdn !== undefined) add("m.msisdn = ?", filter.msisdn)
  if (after !== undefined) add(`(${order}.created_at, ${order}.message_id) > (?, ?)`, after.created_at, after.message_id)
  const from = filter.group === undefined
    ? "messages m"
    : "message_tags g JOIN messages m ON m.message_id = g.message_id"
  const tail = page.start === undefined ? "LIMIT ?" : "LIMIT ? OFFSET ?"
  params.push(page.limit)
  if (page.start !== undefined) params.push(page.start)
  return {
    sql: `${messageSelect("m")} FROM ${from} ${where.length === 0 ? "" : `WHERE ${where.join(" AND ")}`}
      ORDER BY ${order}.created_at, ${order}.message_id ${tail}`,
    params
  }
}

/** Builds the message port over `db`; `pageSize` rows per stream page. */
export const make = (db: Database, pageSize: number): MessageStore.MessageStore["Service"] => {
  const { read, statement, write, writeOrFail } = db

  /** Stores `message` whatever was there under its message_id (the memory store's `set`), tags kept in step. */
  const putMessage = (message: Message.Stored): void => {
    const before = statement(sql.keys).get(message.message_id)
    const after = Rows.tagKeys(message.tags)
    const insertTag = statement(sql.insertTag)
    if (before === undefined) {
      statement(sql.insert).run(...Rows.messageParams(message))
      for (const tag of after) insertTag.run(tag, message.created_at, message.message_id)
      return
    }
    const [messageId, ...fields] = Rows.messageParams(message)
    statement(sql.update).run(...fields, messageId ?? null)
    const beforeTags = Rows.tagKeys(Rows.tags(before))
    const beforeAt = Rows.number(before, "created_at")
    const removeTag = statement(sql.removeTag)
    for (const tag of beforeTags) {
      if (beforeAt !== message.created_at || !after.has(tag)) removeTag.run(tag, beforeAt, message.message_id)
    }
    for (const tag of after) {
      if (beforeAt !== message.created_at || !beforeTags.has(tag)) insertTag.run(tag, message.created_at, message.message_id)
    }
  }

  /** A `messageColumns` SELECT with its rows as arrays: SQLite builds no object per row (the report reads millions). */
  const selecting = (text: string) => {
    const prepared = statement(text)
    prepared.setReturnArrays(true)
    return prepared
  }

  const fromValues = (row: unknown): Message.Stored => {
    if (!Rows.isValues(row)) throw new Error("corrupt row: expected the values of a message row")
    return Rows.messageFromValues(row)
  }

  const page = (query: Query): ReadonlyArray<Message.Stored> => selecting(query.sql).all(...query.params).map(fromValues)

  return MessageStore.MessageStore.of({
    insert: (message, antiSpam) =>
      writeOrFail("messages.insert", () => {
        if (antiSpam !== undefined) {
          const earlier = statement(sql.earlier).get(antiSpam.id, antiSpam.since)
          if (earlier !== undefined) {
            return Result.fail(
              new DuplicateSend({
                id: antiSpam.id,
                message_id: Rows.text(earlier, "message_id"),
                created_at: new Date(Rows.number(earlier, "created_at")).toISOString()
              })
            )
          }
        }
        putMessage(message)
        return Result.succeed(undefined)
      }),
    get: (messageId) =>
      read("messages.get", () => {
        const row = selecting(sql.get).get(messageId)
        return row === undefined ? Option.none() : Option.some(fromValues(row))
      }),
    findById: (id) =>
      read("messages.findById", () => {
        const row = selecting(sql.latestById).get(id)
        return row === undefined ? Option.none() : Option.some(fromValues(row))
      }),
    update: (message) => write("messages.update", () => putMessage(message)),
    list: (filter) => read("messages.list", () => page(messageQuery(filter, undefined, filter))),
    stream: (filter) =>
      Stream.paginate<Cursor | undefined, Message.Stored, StoreFailure>(undefined, (after) =>
        read("messages.stream", () => {
          const rows = page(messageQuery(filter, after, { limit: pageSize }))
          const last = rows.at(-1)
          return [
            rows,
            rows.length < pageSize || last === undefined
              ? Option.none()
              : Option.some({ created_at: last.created_at, message_id: last.message_id })
          ] as const
        })),
    recordDeliveries: (messageId, msisdns) =>
      write("messages.recordDeliveries", () => {
        const record = statement(sql.recordDelivery)
        return msisdns.filter((msisdn) => Number(record.run(messageId, msisdn).changes) > 0)
      }),
    countDeliveries: (messageId) =>
      read("messages.countDeliveries", () => Rows.number(statement(sql.countDeliveries).get(messageId) ?? {}, "count")),
    transaction: db.transaction
  })
}
