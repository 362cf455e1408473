/**
 * The message port on PostgreSQL: messages with their lower-cased tags, the anti-spam check made
 * atomic across connections by a row lock, keyset-paged streams, and the deliveries ledger.
 */
import { Effect, Option } from "effect"
import type { SqlClient, Statement } from "effect/sql"
import { DuplicateSend, type Message, MessageStore } from "@smsbook/core"
import { attempt, keyset, transaction } from "./connection.ts"
import { countOf, decodeMessages, decodeMsisdns, decodeSpam, lower, messageColumns, toStored } from "./rows.ts"

interface Cursor {
  readonly created_at: number
  readonly message_id: string
}

/** Builds the message port over `sql`; `pageSize` rows per stream page. */
export const make = (sql: SqlClient.SqlClient, pageSize: number): MessageStore.MessageStore["Service"] => {
  const columns = sql.literal(messageColumns)

  // The reference store sets the message whether or not its message_id exists: insert and update are both upserts.
  const upsert = (message: Message.Stored) =>
    Effect.gen(function*() {
      yield* sql`INSERT INTO messages (message_id, id, short_code, country, msisdn, direction, status, message,
          total_recipients, sent_count, error_count, total_monitors, is_scheduled, is_billable, created_at,
          created_by, type, tags, segments)
        VALUES (${message.message_id}, ${message.id ?? null}, ${message.short_code}, ${message.country ?? null},
          ${message.msisdn ?? null}, ${message.direction}, ${message.status}, ${message.message},
          ${message.total_recipients}, ${message.sent_count}, ${message.error_count}, ${message.total_monitors},
          ${message.is_scheduled}, ${message.is_billable}, ${message.created_at}, ${message.created_by ?? null},
          ${message.type}, ${JSON.stringify(message.tags)}::jsonb, ${message.segments})
        ON CONFLICT (message_id) DO UPDATE SET
          id = EXCLUDED.id, short_code = EXCLUDED.short_code, country = EXCLUDED.country,
          msisdn = EXCLUDED.msisdn, direction = EXCLUDED.direction, status = EXCLUDED.status,
          message = EXCLUDED.message, total_recipients = EXCLUDED.total_recipients,
          sent_count = EXCLUDED.sent_count, error_count = EXCLUDED.error_count,
          total_monitors = EXCLUDED.total_monitors, is_scheduled = EXCLUDED.is_scheduled,
          is_billable = EXCLUDED.is_billable, created_at = EXCLUDED.created_at,
          created_by = EXCLUDED.created_by, type = EXCLUDED.type, tags = EXCLUDED.tags,
          segments = EXCLUDED.segments`
      yield* sql`DELETE FROM message_tags WHERE message_id = ${message.message_id}`
      const tags = [...new Set(message.tags.map(lower))]
      if (tags.length > 0) {
        yield* sql`INSERT INTO message_tags (tag, message_id)
          SELECT tag, ${message.message_id} FROM unnest(${tags}::text[]) AS tag`
      }
    })

  /**
   * The anti-spam check and the insert as one atomic step across connections and processes:
   * upserting the id's row in `anti_spam_locks` locks it until the transaction ends, so senders of
   * one id queue there; each then reads `messages` in a fresh statement snapshot (READ COMMITTED,
   * PostgreSQL's default) and sees what the one before it committed. The lock is taken with a plain
   * `INSERT … ON CONFLICT … DO UPDATE`, not `pg_advisory_xact_lock` (which CockroachDB and other
   * Postgres-wire engines lack), so any engine with PostgreSQL's upsert accepts the SQL. An engine
   * that runs every transaction SERIALIZABLE (CockroachDB) may abort the later sender with a
   * retryable serialization error (a StoreFailure) instead of DuplicateSend: never do both succeed.
   * Only PostgreSQL itself is tested.
   */
  const insert = (message: Message.Stored, antiSpam?: MessageStore.AntiSpam) =>
    sql.withTransaction(Effect.gen(function*() {
      if (antiSpam !== undefined) {
        yield* sql`INSERT INTO anti_spam_locks (id) VALUES (${antiSpam.id}) ON CONFLICT (id) DO UPDATE SET id = EXCLUDED.id`
        const earlier = yield* sql`SELECT message_id, created_at FROM messages
          WHERE id = ${antiSpam.id} AND created_at >= ${Math.ceil(antiSpam.since)} ORDER BY seq LIMIT 1`.pipe(
          Effect.flatMap(decodeSpam("MessageStore.insert"))
        )
        const previous = earlier[0]
        if (previous !== undefined) {
          return yield* new DuplicateSend({
            id: antiSpam.id,
            message_id: previous.message_id,
            created_at: new Date(previous.created_at).toISOString()
          })
        }
      }
      yield* upsert(message)
    })).pipe(attempt("MessageStore.insert"))

  const get = (messageId: string, options?: { readonly forUpdate?: boolean }) =>
    sql`SELECT ${columns} FROM messages WHERE message_id = ${messageId}${sql.literal(options?.forUpdate === true ? " FOR UPDATE" : "")}`.pipe(
      Effect.flatMap(decodeMessages("MessageStore.get")),
      Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toStored)),
      attempt("MessageStore.get")
    )

  const findById = (id: string) =>
    sql`SELECT ${columns} FROM messages WHERE id = ${id} ORDER BY created_at DESC, message_id DESC LIMIT 1`.pipe(
      Effect.flatMap(decodeMessages("MessageStore.findById")),
      Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toStored)),
      attempt("MessageStore.findById")
    )

  const update = (message: Message.Stored) => sql.withTransaction(upsert(message)).pipe(attempt("MessageStore.update"))

  // Bounds are inclusive; created_at is whole milliseconds, so a fractional bound rounds inwards.
  const where = (filter: MessageStore.Filter): ReadonlyArray<Statement.Fragment> => [
    ...(filter.from === undefined ? [] : [sql`m.created_at >= ${Math.ceil(filter.from)}`]),
    ...(filter.to === undefined ? [] : [sql`m.created_at <= ${Math.floor(filter.to)}`]),
    ...(filter.direction === undefined ? [] : [sql`m.direction = ${filter.direction}`]),
    ...(filter.msisdn === undefined ? [] : [sql`m.msisdn = ${filter.msisdn}`]),
    ...(filter.group === undefined ? [] : [
      sql`EXISTS (SELECT 1 FROM message_tags AS t WHERE t.message_id = m.message_id AND t.tag = ${lower(filter.group)})`
    ])
  ]

  const list = (page: MessageStore.Page) =>
    sql`SELECT ${columns} FROM messages AS m WHERE ${sql.and(where(page))}
      ORDER BY m.created_at, m.message_id LIMIT ${page.limit} OFFSET ${page.start}`.pipe(
      Effect.flatMap(decodeMessages("MessageStore.list")),
      Effect.map((rows) => rows.map(toStored)),
      attempt("MessageStore.list")
    )

  const stream = (filter: MessageStore.Filter) => {
    const clauses = where(filter)
    return keyset(
      pageSize,
      (after: Option.Option<Cursor>) =>
        sql`SELECT ${columns} FROM messages AS m
          WHERE ${
          sql.and([
            ...clauses,
            ...Option.match(after, {
              onNone: () => [],
              onSome: (cursor) => [sql`(m.created_at, m.message_id) > (${cursor.created_at}, ${cursor.message_id})`]
            })
          ])
        }
          ORDER BY m.created_at, m.message_id LIMIT ${pageSize}`.pipe(
          Effect.flatMap(decodeMessages("MessageStore.stream")),
          Effect.map((rows) => rows.map(toStored)),
          attempt("MessageStore.stream")
        ),
      (message): Cursor => ({ created_at: message.created_at, message_id: message.message_id })
    )
  }

  // Recorded in one statement; the ones PostgreSQL did not already hold come back, returned in the caller's order.
  const recordDeliveries = (messageId: string, msisdns: ReadonlyArray<string>) => {
    const unique = [...new Set(msisdns)]
    return unique.length === 0 ? Effect.succeed([]) : sql`INSERT INTO deliveries (message_id, msisdn)
        SELECT ${messageId}, msisdn FROM unnest(${unique}::text[]) AS msisdn
        ON CONFLICT DO NOTHING RETURNING msisdn`.pipe(
      Effect.flatMap(decodeMsisdns("MessageStore.recordDeliveries")),
      Effect.map((rows) => {
        const fresh = new Set(rows.map((row) => row.msisdn))
        return unique.filter((msisdn) => fresh.has(msisdn))
      }),
      attempt("MessageStore.recordDeliveries")
    )
  }

  const countDeliveries = (messageId: string) =>
    sql`SELECT count(*) AS n FROM deliveries WHERE message_id = ${messageId}`.pipe(countOf("MessageStore.countDeliveries"))

  return MessageStore.MessageStore.of({
    insert,
    get,
    findById,
    update,
    list,
    stream,
    recordDeliveries,
    countDeliveries,
    transaction: transaction(sql)
  })
}
