/**
 * The SQLite adapter of every port, on Node's built-in `node:sqlite`: one WAL file that several
 * processes can share, with the memory store's semantics and keyset-paged streams for bulk work.
 */
import type { SQLInputValue } from "node:sqlite"
import { Context, Effect, Exit, Layer, Option, Result, type Scope, Semaphore, Stream } from "effect"
import {
  Carrier,
  type Contact,
  ContactExists,
  ContactNotFound,
  ContactStore,
  DuplicateSend,
  type Message,
  MessageStore,
  StoreFailure,
  StoreUnavailable
} from "@smsbook/core"
import * as Connection from "./internal/sqliteConnection.ts"
import * as Rows from "./internal/sqliteRows.ts"
import * as SqliteMigrations from "./SqliteMigrations.ts"

export interface Options {
  /** Rows per page of `audience` and `stream`: memory stays flat whatever the table size (default 4096). */
  readonly pageSize?: number
  /** How long a write waits for another connection's transaction before failing, in ms (default 5000). */
  readonly busyTimeout?: number
}

/** The ports over one SQLite file, plus a view of the carrier's outbox table. */
export interface Services {
  readonly contacts: ContactStore.ContactStore["Service"]
  readonly messages: MessageStore.MessageStore["Service"]
  readonly carrier: Carrier.Carrier["Service"]
  readonly outbox: Carrier.Outbox["Service"]
}

/**
 * The connections (by object identity) whose transaction the current fiber runs in: a nested
 * `transaction` joins the outer one, and statements run inside it without waiting for the lock.
 */
const ActiveTransactions = Context.Reference<ReadonlySet<object>>("@smsbook/store/SqliteStore/ActiveTransactions", {
  defaultValue: () => new Set()
})

const contactSelect = `SELECT ${Rows.contactColumns.join(", ")} FROM contacts`
const messageSelect = (alias: string) =>
  `SELECT ${Rows.messageColumns.map((column) => `${alias}.${column}`).join(", ")}`
const placeholders = (count: number) => Array.from({ length: count }, () => "?").join(", ")
const assignments = (columns: ReadonlyArray<string>) => columns.map((column) => `${column} = ?`).join(", ")

const contactSql = {
  get: `${contactSelect} WHERE msisdn = ?`,
  getMany: `${contactSelect} WHERE msisdn IN (SELECT value FROM json_each(?))`,
  tags: "SELECT tags FROM contacts WHERE msisdn = ?",
  insert: `INSERT INTO contacts (${Rows.contactColumns.join(", ")}) VALUES (${placeholders(Rows.contactColumns.length)})
    ON CONFLICT (msisdn) DO NOTHING`,
  update: `UPDATE contacts SET ${assignments(Rows.contactColumns.slice(1))} WHERE msisdn = ?`,
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

const messageSql = {
  get: `${messageSelect("m")} FROM messages m WHERE m.message_id = ?`,
  // The first recorded message still in the anti-spam period, as the memory store finds it.
  earlier: "SELECT message_id, created_at FROM messages WHERE id = ? AND created_at >= ? ORDER BY seq LIMIT 1",
  latestById: `${messageSelect("m")} FROM messages m WHERE m.id = ? ORDER BY m.created_at DESC, m.message_id DESC LIMIT 1`,
  keys: "SELECT tags, created_at FROM messages WHERE message_id = ?",
  insert: `INSERT INTO messages (${Rows.messageColumns.join(", ")}) VALUES (${placeholders(Rows.messageColumns.length)})`,
  update: `UPDATE messages SET ${assignments(Rows.messageColumns.slice(1))} WHERE message_id = ?`,
  insertTag: "INSERT INTO message_tags (tag, created_at, message_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
  removeTag: "DELETE FROM message_tags WHERE tag = ? AND created_at = ? AND message_id = ?",
  recordDelivery: "INSERT INTO deliveries (message_id, msisdn) VALUES (?, ?) ON CONFLICT DO NOTHING",
  countDeliveries: "SELECT count(*) AS count FROM deliveries WHERE message_id = ?",
  insertPart: `INSERT INTO outbox (${Rows.partColumns.join(", ")}) VALUES (${placeholders(Rows.partColumns.length)})`,
  parts: `SELECT ${Rows.partColumns.join(", ")} FROM outbox ORDER BY seq`
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

/** Memory-store semantics of `list`'s query, registered as an SQL function (SQLite's `lower` folds ASCII only). */
const contactMatches = (query: unknown, ...fields: ReadonlyArray<unknown>): number =>
  typeof query === "string" && fields.some((field) => typeof field === "string" && field.toLowerCase().includes(query))
    ? 1
    : 0

const openConnection = (path: string, busyTimeout: number) =>
  Effect.try({
    try: () => Connection.open(path, busyTimeout),
    catch: (error) => new StoreUnavailable({ url: path, reason: Connection.reasonOf(error) })
  }).pipe(
    Effect.flatMap((connection) => {
      const migrated = SqliteMigrations.migrate(connection.db)
      if (Result.isSuccess(migrated)) return Effect.succeed(connection)
      connection.close()
      return Effect.fail(new StoreUnavailable({ url: path, reason: migrated.failure.reason }))
    })
  )

/**
 * Opens (creating and migrating if needed) the SQLite file at `path` and builds the ports over it;
 * the connection closes with the scope. A path that cannot be opened, a file that is not a
 * database, or a schema newer than this code fails with `StoreUnavailable`. Behaviour is the memory
 * store's, port for port: same orders, filters and errors.
 */
export const make = Effect.fnUntraced(function*(
  path: string,
  options: Options = {}
): Effect.fn.Return<Services, StoreUnavailable, Scope.Scope> {
  const pageSize = Math.max(1, Math.floor(options.pageSize ?? 4096))
  const busyTimeout = Math.max(0, Math.floor(options.busyTimeout ?? 5000))
  const connection = yield* Effect.acquireRelease(
    openConnection(path, busyTimeout),
    (opened) => Effect.sync(() => opened.close())
  )
  connection.db.function("smsbook_contact_matches", { deterministic: true, directOnly: true, varargs: true }, (
    query,
    ...fields
  ) => contactMatches(query, ...fields))
  const statement = connection.statement
  // node:sqlite is one synchronous connection: a transaction of one fiber must never see the
  // statements of another interleaved into it, so every use of the connection takes this lock.
  const lock = yield* Semaphore.make(1)

  const attempt = <A>(operation: string, run: () => A): Effect.Effect<A, StoreFailure> =>
    Effect.try({ try: run, catch: (error) => new StoreFailure({ operation, reason: Connection.reasonOf(error) }) })

  const exclusive = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.flatMap(Effect.service(ActiveTransactions), (active) => active.has(connection) ? effect : lock.withPermits(1)(effect))

  /**
   * `BEGIN IMMEDIATE`, waiting asynchronously (backing off up to 50 ms) while another connection
   * writes, so other fibers keep running. Real time, not `Clock`: it waits for another process,
   * which a test clock does not move.
   */
  const begin = (restore: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>) =>
    Effect.gen(function*() {
      const started = performance.now()
      let pause = 1
      while (!(yield* attempt("transaction", connection.tryBegin))) {
        if (performance.now() - started >= busyTimeout) {
          return yield* new StoreFailure({
            operation: "transaction",
            reason: `database is locked: another connection kept it for more than ${busyTimeout} ms`
          })
        }
        const wait = pause
        yield* restore(Effect.promise(() => new Promise<void>((resume) => setTimeout(resume, wait))))
        pause = Math.min(pause * 2, 50)
      }
    })

  /**
   * All of `effect`'s writes or none: BEGIN IMMEDIATE (the write lock is taken up front, so a
   * check-then-write inside cannot race another process), COMMIT on success, ROLLBACK on failure
   * or interruption. Within a transaction of the same connection it simply runs.
   */
  const transaction = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | StoreFailure, R> =>
    Effect.flatMap(Effect.service(ActiveTransactions), (active) =>
      active.has(connection) ? effect : lock.withPermits(1)(
        Effect.uninterruptibleMask((restore) =>
          Effect.gen(function*() {
            yield* begin(restore)
            const exit = yield* Effect.exit(
              restore(Effect.provideService(effect, ActiveTransactions, new Set([...active, connection])))
            )
            if (Exit.isFailure(exit)) {
              connection.rollback()
              return yield* exit
            }
            yield* attempt("transaction", connection.commit).pipe(
              Effect.tapError(() => Effect.sync(connection.rollback))
            )
            return exit.value
          })
        )
      ))

  const read = <A>(operation: string, run: () => A) => exclusive(attempt(operation, run))
  const write = <A>(operation: string, run: () => A) => transaction(attempt(operation, run))
  const writeOrFail = <A, E>(operation: string, run: () => Result.Result<A, E>) =>
    transaction(Effect.flatMap(attempt(operation, run), Effect.fromResult))

  // ---- contacts -------------------------------------------------------------------------------

  const storedContactTags = (msisdn: string): ReadonlySet<string> | undefined => {
    const row = statement(contactSql.tags).get(msisdn)
    return row === undefined ? undefined : Rows.tagKeys(Rows.tags(row))
  }

  const insertContact = (contact: Contact.Contact): boolean => {
    if (Number(statement(contactSql.insert).run(...Rows.contactParams(contact)).changes) === 0) return false
    const insertTag = statement(contactSql.insertTag)
    for (const tag of Rows.tagKeys(contact.tags)) insertTag.run(tag, contact.msisdn)
    return true
  }

  const replaceContact = (contact: Contact.Contact): boolean => {
    const before = storedContactTags(contact.msisdn)
    if (before === undefined) return false
    const [msisdn, ...fields] = Rows.contactParams(contact)
    statement(contactSql.update).run(...fields, msisdn ?? null)
    const after = Rows.tagKeys(contact.tags)
    const removeTag = statement(contactSql.removeTag)
    const insertTag = statement(contactSql.insertTag)
    for (const tag of before) if (!after.has(tag)) removeTag.run(tag, contact.msisdn)
    for (const tag of after) if (!before.has(tag)) insertTag.run(tag, contact.msisdn)
    return true
  }

  const contactPage = (sql: string, params: ReadonlyArray<SQLInputValue>): ReadonlyArray<Contact.Contact> =>
    statement(sql).all(...params).map(Rows.contactFromRow)

  const contacts = ContactStore.ContactStore.of({
    get: (msisdn) =>
      read("contacts.get", () => {
        const row = statement(contactSql.get).get(msisdn)
        return row === undefined ? Option.none() : Option.some(Rows.contactFromRow(row))
      }),
    getMany: (msisdns) =>
      read("contacts.getMany", () => {
        const rows = new Map<string, Contact.Contact>()
        for (const row of statement(contactSql.getMany).all(JSON.stringify(msisdns))) {
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
        const before = storedContactTags(msisdn)
        if (before === undefined) return Result.fail(new ContactNotFound({ msisdn }))
        statement(contactSql.remove).run(msisdn)
        const removeTag = statement(contactSql.removeTag)
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
        const sql = `${contactSelect} ${where.length === 0 ? "" : `WHERE ${where.join(" AND ")}`}
          ORDER BY msisdn LIMIT ? OFFSET ?`
        return contactPage(sql, [...params, filter.limit, filter.start])
      }),
    audience: ({ tags }) => {
      const keys = JSON.stringify([...Rows.tagKeys(tags)])
      return Stream.paginate<string | undefined, Contact.Contact, StoreFailure>(undefined, (after) =>
        read("contacts.audience", () => {
          const page = after === undefined
            ? contactPage(contactSql.audienceFirst, [keys, pageSize])
            : contactPage(contactSql.audienceNext, [after, keys, pageSize])
          const last = page.at(-1)
          return [page, page.length < pageSize || last === undefined ? Option.none() : Option.some(last.msisdn)] as const
        }))
    },
    count: read("contacts.count", () => Rows.number(statement(contactSql.count).get() ?? {}, "count")),
    transaction
  })

  // ---- messages -------------------------------------------------------------------------------

  /** Stores `message` whatever was there under its message_id (the memory store's `set`), tags kept in step. */
  const putMessage = (message: Message.Stored): void => {
    const before = statement(messageSql.keys).get(message.message_id)
    const after = Rows.tagKeys(message.tags)
    const insertTag = statement(messageSql.insertTag)
    if (before === undefined) {
      statement(messageSql.insert).run(...Rows.messageParams(message))
      for (const tag of after) insertTag.run(tag, message.created_at, message.message_id)
      return
    }
    const [messageId, ...fields] = Rows.messageParams(message)
    statement(messageSql.update).run(...fields, messageId ?? null)
    const beforeTags = Rows.tagKeys(Rows.tags(before))
    const beforeAt = Rows.number(before, "created_at")
    const removeTag = statement(messageSql.removeTag)
    for (const tag of beforeTags) {
      if (beforeAt !== message.created_at || !after.has(tag)) removeTag.run(tag, beforeAt, message.message_id)
    }
    for (const tag of after) {
      if (beforeAt !== message.created_at || !beforeTags.has(tag)) insertTag.run(tag, message.created_at, message.message_id)
    }
  }

  const messagePage = (query: Query): ReadonlyArray<Message.Stored> =>
    statement(query.sql).all(...query.params).map(Rows.messageFromRow)

  const messages = MessageStore.MessageStore.of({
    insert: (message, antiSpam) =>
      writeOrFail("messages.insert", () => {
        if (antiSpam !== undefined) {
          const earlier = statement(messageSql.earlier).get(antiSpam.id, antiSpam.since)
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
        const row = statement(messageSql.get).get(messageId)
        return row === undefined ? Option.none() : Option.some(Rows.messageFromRow(row))
      }),
    findById: (id) =>
      read("messages.findById", () => {
        const row = statement(messageSql.latestById).get(id)
        return row === undefined ? Option.none() : Option.some(Rows.messageFromRow(row))
      }),
    update: (message) => write("messages.update", () => putMessage(message)),
    list: (page) => read("messages.list", () => messagePage(messageQuery(page, undefined, page))),
    stream: (filter) =>
      Stream.paginate<Cursor | undefined, Message.Stored, StoreFailure>(undefined, (after) =>
        read("messages.stream", () => {
          const page = messagePage(messageQuery(filter, after, { limit: pageSize }))
          const last = page.at(-1)
          return [
            page,
            page.length < pageSize || last === undefined
              ? Option.none()
              : Option.some({ created_at: last.created_at, message_id: last.message_id })
          ] as const
        })),
    recordDeliveries: (messageId, msisdns) =>
      write("messages.recordDeliveries", () => {
        const record = statement(messageSql.recordDelivery)
        return msisdns.filter((msisdn) => Number(record.run(messageId, msisdn).changes) > 0)
      }),
    countDeliveries: (messageId) =>
      read("messages.countDeliveries", () => Rows.number(statement(messageSql.countDeliveries).get(messageId) ?? {}, "count")),
    transaction
  })

  // ---- carrier --------------------------------------------------------------------------------

  const carrier = Carrier.Carrier.of({
    handOver: (parts) =>
      write("carrier.handOver", () => {
        const insertPart = statement(messageSql.insertPart)
        for (const part of parts) insertPart.run(...Rows.partParams(part))
        return 0
      })
  })

  const outbox = Carrier.Outbox.of({
    parts: Effect.orDie(read("outbox.parts", () => statement(messageSql.parts).all().map(Rows.partFromRow)))
  })

  return { contacts, messages, carrier, outbox }
})

/**
 * Every port over the SQLite file at `path` (and the `Outbox` view the contract tests read),
 * closing the file when the layer is released.
 */
export const layer = (
  path: string,
  options: Options = {}
): Layer.Layer<ContactStore.ContactStore | MessageStore.MessageStore | Carrier.Carrier | Carrier.Outbox, StoreUnavailable> =>
  Layer.effectContext(
    Effect.map(make(path, options), ({ carrier, contacts, messages, outbox }) =>
      Context.make(ContactStore.ContactStore, contacts).pipe(
        Context.add(MessageStore.MessageStore, messages),
        Context.add(Carrier.Carrier, carrier),
        Context.add(Carrier.Outbox, outbox)
      ))
  )
