/**
 * The PostgreSQL adapter against a real server (SMSBOOK_TEST_POSTGRES_URL, see scripts/postgres.sh):
 * the same answers as MemoryStore on any sequence of operations, atomic anti-spam, keyset streams.
 */
import { PgClient } from "@effect/sql-pg"
import { Carrier, ContactStore, type Message, MessageStore, PartQueue } from "@smsbook/core"
import { Fixtures, ModelCheck } from "@smsbook/testing"
import { Effect, Exit, Layer, ManagedRuntime, Option, Redacted, Stream } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as PostgresStore from "../src/PostgresStore.ts"

const baseUrl = process.env["SMSBOOK_TEST_POSTGRES_URL"]
const skipMessage = "PostgreSQL tests skipped: set SMSBOOK_TEST_POSTGRES_URL (scripts/postgres.sh start)"
if (baseUrl === undefined || baseUrl === "") console.warn(skipMessage)

// ---------------------------------------------------------------------------------------------
// Fixture: every test file gets its own schemas (search_path in the URL), dropped at the end.

const withParam = (url: string, name: string, value: string): string => {
  const parsed = new URL(url)
  parsed.searchParams.set(name, value)
  return parsed.href
}

const adminRuntime = (url: string) => ManagedRuntime.make(PgClient.layer({ url: Redacted.make(url) }))

const schemas: Array<string> = []
let admin: ReturnType<typeof adminRuntime> | undefined

const adminSql = <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>): Promise<A> => {
  if (admin === undefined) throw new Error("no admin connection")
  return admin.runPromise(Effect.flatMap(SqlClient.SqlClient, f))
}

/** A new empty schema, and a URL that puts it on the search_path of every connection. */
const freshSchema = async (): Promise<{ readonly schema: string; readonly url: string }> => {
  const schema = `smsbook_test_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
  await adminSql((sql) => sql`CREATE SCHEMA ${sql(schema)}`)
  schemas.push(schema)
  return { schema, url: withParam(baseUrl ?? "", "options", `-c search_path=${schema}`) }
}

const tables = "contacts, contact_tags, messages, message_tags, anti_spam_locks, deliveries, outbox, suppressions"

const store = (url: string, options?: PostgresStore.Options) => ManagedRuntime.make(PostgresStore.layer(url, options))

/** Runs `f` over a store on `url`, disposing of it afterwards. */
const withStore = async <A>(url: string, f: (runtime: ReturnType<typeof store>) => Promise<A>): Promise<A> => {
  const runtime = store(url)
  try {
    return await f(runtime)
  } finally {
    await runtime.dispose()
  }
}

// ---------------------------------------------------------------------------------------------

describe.skipIf(baseUrl === undefined || baseUrl === "")("PostgresStore (PostgreSQL)", () => {
  beforeAll(() => {
    admin = adminRuntime(baseUrl ?? "")
  })
  afterAll(async () => {
    for (const name of schemas) await adminSql((sql) => sql`DROP SCHEMA ${sql(name)} CASCADE`)
    await admin?.dispose()
  })

  describe("against MemoryStore", () => {
    let url = ""
    let pg: ManagedRuntime.ManagedRuntime<ModelCheck.Ports, unknown> | undefined
    let schemaSql: ReturnType<typeof adminRuntime> | undefined
    beforeAll(async () => {
      url = (await freshSchema()).url
      // Pages of 2 rows: every audience and stream crosses page boundaries, ties of created_at included.
      pg = store(url, { pageSize: 2 })
      await pg.runPromise(Effect.void)
      schemaSql = adminRuntime(url)
    })
    afterAll(async () => {
      await pg?.dispose()
      await schemaSql?.dispose()
    })

    it("a message's failed parts have their own index, over exactly PartQueue.failedStates (error_count counts them alone)", async () => {
      if (schemaSql === undefined) throw new Error("no store")
      const rows = await schemaSql.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) =>
        sql<{ readonly indexdef: string }>`SELECT indexdef FROM pg_indexes WHERE indexname = 'outbox_failed' AND schemaname = current_schema()`))
      const definition = rows[0]?.indexdef ?? ""
      expect(definition).toContain("(message_id)")
      expect([...definition.matchAll(/'([a-z_]+)'/g)].map((match) => match[1]).sort()).toEqual([...PartQueue.failedStates].sort())
    })

    it("answers every operation as MemoryStore does, on any sequence of operations", async () => {
      // One pool for every generated case (fast); the tables are emptied before each.
      await ModelCheck.check(async (effect) => {
        if (pg === undefined || schemaSql === undefined) throw new Error("no store")
        await schemaSql.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(`TRUNCATE ${tables}`)))
        return pg.runPromise(effect)
      }, { numRuns: 100 })
    })

    it("keeps the opt-out law as MemoryStore does, on sequences of contact and suppression-list calls", async () => {
      // 200 runs: at 100, a batch write that moves a stored CANCELLED back went unseen one run in five (~2 s more).
      await ModelCheck.check(async (effect) => {
        if (pg === undefined || schemaSql === undefined) throw new Error("no store")
        await schemaSql.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(`TRUNCATE ${tables}`)))
        return pg.runPromise(effect)
      }, { ops: ModelCheck.arbitraries().optOuts, numRuns: 200 })
    })
  })

  describe("transactions, errors, migrations and examples", () => {
    const someone = Fixtures.contact(123456, { first_name: "Ada", last_name: "Lovelace", tags: ["Friends"] })
    const sent = Fixtures.groupMessage("m-1", ["Friends"], { id: "ext-1", created_at: 1_700_000_000_000 })

    const everything = Effect.gen(function*() {
      const contacts = yield* ContactStore.ContactStore
      const messages = yield* MessageStore.MessageStore
      return {
        contacts: yield* contacts.count,
        message: Option.isSome(yield* messages.get("m-1")),
        deliveries: yield* messages.countDeliveries("m-1"),
        outbox: (yield* (yield* Carrier.Outbox).parts).length,
        audience: (yield* Stream.runCollect(contacts.audience({ tags: ["friends"] }))).length
      }
    })

    const writeAll = Effect.gen(function*() {
      const contacts = yield* ContactStore.ContactStore
      const messages = yield* MessageStore.MessageStore
      const carrier = yield* Carrier.Carrier
      yield* contacts.insert(someone)
      yield* contacts.write({ insert: [{ ...someone, msisdn: "447400123457" }], update: [] })
      yield* messages.insert(sent, { id: "ext-1", since: 0 })
      yield* messages.recordDeliveries("m-1", [someone.msisdn])
      yield* carrier.handOver([{ message_id: "m-1", msisdn: someone.msisdn, short_code: "12345", part: 1, parts: 1, text: "x" }])
    })

    it("a failed transaction leaves nothing, across all three ports; a committed one keeps everything", async () => {
      await withStore((await freshSchema()).url, async (runtime) => {
        const error = await runtime.runPromise(Effect.gen(function*() {
          const contacts = yield* ContactStore.ContactStore
          return yield* Effect.flip(contacts.transaction(Effect.andThen(writeAll, Effect.fail("stop" as const))))
        }))
        expect(error).toBe("stop")
        expect(await runtime.runPromise(everything)).toEqual({ contacts: 0, message: false, deliveries: 0, outbox: 0, audience: 0 })

        await runtime.runPromise(Effect.flatMap(ContactStore.ContactStore, (c) => c.transaction(writeAll)))
        expect(await runtime.runPromise(everything)).toEqual({ contacts: 2, message: true, deliveries: 1, outbox: 1, audience: 2 })
      })
    })

    it("a nested transaction joins the outer one: the outer failure undoes the inner's committed work", async () => {
      await withStore((await freshSchema()).url, async (runtime) => {
        await runtime.runPromise(Effect.gen(function*() {
          const contacts = yield* ContactStore.ContactStore
          const messages = yield* MessageStore.MessageStore
          return yield* Effect.flip(contacts.transaction(Effect.gen(function*() {
            yield* messages.transaction(writeAll)
            return yield* Effect.fail("outer")
          })))
        }))
        expect(await runtime.runPromise(everything)).toEqual({ contacts: 0, message: false, deliveries: 0, outbox: 0, audience: 0 })
      })
    })

    it("a failed nested transaction rolls back to its savepoint while the outer one goes on", async () => {
      await withStore((await freshSchema()).url, async (runtime) => {
        await runtime.runPromise(Effect.gen(function*() {
          const contacts = yield* ContactStore.ContactStore
          yield* contacts.transaction(Effect.gen(function*() {
            yield* contacts.insert(someone)
            const inner = yield* Effect.flip(contacts.transaction(
              Effect.andThen(contacts.insert({ ...someone, msisdn: "1" }), contacts.insert(someone))
            ))
            expect(inner._tag).toBe("ContactExists")
          }))
        }))
        const found = await runtime.runPromise(Effect.flatMap(ContactStore.ContactStore, (c) => c.getMany([someone.msisdn, "1"])))
        expect([...found.keys()]).toEqual([someone.msisdn])
      })
    })

    it("findById breaks a tie of created_at by message_id; anti-spam names the first message stored", async () => {
      await withStore((await freshSchema()).url, async (runtime) => {
        const result = await runtime.runPromise(Effect.gen(function*() {
          const messages = yield* MessageStore.MessageStore
          for (const messageId of ["m-1", "m-3", "m-2"]) yield* messages.insert({ ...sent, message_id: messageId })
          const latest = yield* messages.findById("ext-1")
          const duplicate = yield* Effect.flip(messages.insert({ ...sent, message_id: "m-4" }, { id: "ext-1", since: 0 }))
          return { latest: Option.map(latest, (m) => m.message_id), duplicate }
        }))
        expect(result.latest).toEqual(Option.some("m-3"))
        expect(result.duplicate).toMatchObject({
          _tag: "DuplicateSend",
          message_id: "m-1",
          created_at: "2023-11-14T22:13:20.000Z"
        })
      })
    })

    it("contact_tags holds exactly the lower-cased pairs of the stored contacts, after writes and removes", async () => {
      const { schema, url } = await freshSchema()
      await withStore(url, async (runtime) => {
        await runtime.runPromise(Effect.gen(function*() {
          const contacts = yield* ContactStore.ContactStore
          yield* contacts.write({ insert: [{ ...someone, tags: ["A", "a", "B"] }, { ...someone, msisdn: "2", tags: ["C"] }], update: [] })
          yield* contacts.update({ ...someone, tags: ["b", "D"] })
          yield* contacts.remove("2")
        }))
        const pairs = await adminSql((sql) => sql`SELECT tag, msisdn FROM ${sql(schema)}.contact_tags ORDER BY tag`)
        expect(pairs).toEqual([{ tag: "b", msisdn: someone.msisdn }, { tag: "d", msisdn: someone.msisdn }])
      })
    })

    it("a SQL failure is a StoreFailure naming the operation (text with U+0000 cannot be stored)", async () => {
      await withStore((await freshSchema()).url, async (runtime) => {
        const error = await runtime.runPromise(
          Effect.flatMap(ContactStore.ContactStore, (c) => Effect.flip(c.insert({ ...someone, first_name: "a\u0000b" })))
        )
        expect(error._tag).toBe("StoreFailure")
        expect(error).toMatchObject({ operation: "ContactStore.insert" })
      })
    })

    it("migrations run once: a second layer on the same schema finds the data of the first", async () => {
      const { schema, url } = await freshSchema()
      const first = store(url)
      await first.runPromise(Effect.flatMap(ContactStore.ContactStore, (c) => c.insert(someone)))
      await first.dispose()
      const second = store(url)
      try {
        expect(await second.runPromise(Effect.flatMap(ContactStore.ContactStore, (c) => c.get(someone.msisdn))))
          .toEqual(Option.some(someone))
        const applied = await adminSql((sql) => sql`SELECT count(*)::int AS n FROM ${sql(schema)}.smsbook_migrations`)
        // One row per migration: 1_initial, 2_suppressions, 3_api_keys, 4_part_states, 5_in_doubt_parts, 6_failed_parts.
        expect(applied).toEqual([{ n: 6 }])
      } finally {
        await second.dispose()
      }
    })

    it("a missing database gives StoreUnavailable without the password", async () => {
      const parsed = new URL(baseUrl ?? "")
      parsed.password = "n0t-Shown"
      parsed.pathname = "/smsbook_no_such_database"
      const error = await Effect.runPromise(Effect.flip(Layer.build(PostgresStore.layer(parsed.href)).pipe(Effect.scoped)))
      expect(error._tag).toBe("StoreUnavailable")
      expect(error.url).toContain(":***@")
      expect(error.reason).toContain("smsbook_no_such_database")
      expect(JSON.stringify(error) + error.message).not.toContain("n0t-Shown")
    })
  })

  describe("anti-spam across connections", () => {
    const make = (messageId: string, id: string, createdAt: number) => Fixtures.message(messageId, { id, created_at: createdAt })

    const insert = (m: Message.Stored, antiSpam: MessageStore.AntiSpam) =>
      Effect.flatMap(MessageStore.MessageStore, (messages) => messages.insert(m, antiSpam))

    let url = ""
    let waiterName = ""
    let a: ReturnType<typeof store> | undefined
    let b: ReturnType<typeof store> | undefined
    beforeAll(async () => {
      url = (await freshSchema()).url
      waiterName = `smsbook-race-${Math.random().toString(36).slice(2, 10)}`
      a = store(url)
      await a.runPromise(Effect.void)
      // B is a separate pool, and tells itself apart in pg_stat_activity by its application_name.
      b = store(withParam(url, "application_name", waiterName))
      await b.runPromise(Effect.void)
    })
    afterAll(async () => {
      await a?.dispose()
      await b?.dispose()
    })

    const waitingForLock = () =>
      adminSql((sql) => sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE application_name = ${waiterName} AND wait_event_type = 'Lock'`).then((rows) => (rows[0]?.n ?? 0) > 0)

    const until = async (condition: () => Promise<boolean>) => {
      while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 10))
    }

    it.each([
      ["an id never used", "fresh-id", false],
      ["an id used before the period", "old-id", true]
    ])("with %s, a second sender waits for the first to commit, then gets DuplicateSend", async (_, id, usedBefore) => {
      if (a === undefined || b === undefined) throw new Error("no stores")
      const since = 10_000
      if (usedBefore) await a.runPromise(insert(make(`${id}-old`, id, since - 1), { id, since: 0 }))
      let holding: () => void = () => {}
      const held = new Promise<void>((resolve) => holding = resolve)
      let release: () => void = () => {}
      const released = new Promise<void>((resolve) => release = resolve)
      const first = a.runPromise(Effect.flatMap(MessageStore.MessageStore, (messages) =>
        messages.transaction(Effect.gen(function*() {
          yield* messages.insert(make(`${id}-a`, id, since + 5), { id, since })
          holding()
          yield* Effect.promise(() => released)
        }))))
      await held
      let secondDone = false
      const second = b.runPromiseExit(insert(make(`${id}-b`, id, since + 6), { id, since })).finally(() => {
        secondDone = true
      })
      // B is blocked on A's lock (observed, not timed); only then does A commit. Were B not to
      // wait at all, it would finish first and the expectations below would fail.
      await until(async () => secondDone || await waitingForLock())
      release()
      await first
      const exit = await second
      expect(Exit.isFailure(exit)).toBe(true)
      const error = Exit.isFailure(exit) ? exit.cause.reasons[0] : undefined
      expect(error).toMatchObject({
        error: { _tag: "DuplicateSend", id, message_id: `${id}-a`, created_at: new Date(since + 5).toISOString() }
      })
      const stored = await b.runPromise(Effect.flatMap(MessageStore.MessageStore, (m) => m.get(`${id}-b`)))
      expect(Option.isNone(stored)).toBe(true)
    })

    it("two connections racing with the same id: exactly one wins, the other names the winner", async () => {
      if (a === undefined || b === undefined) throw new Error("no stores")
      for (let round = 0; round < 25; round++) {
        const id = `race-${round}`
        const [exitA, exitB] = await Promise.all([
          a.runPromiseExit(insert(make(`${id}-a`, id, 50_000), { id, since: 0 })),
          b.runPromiseExit(insert(make(`${id}-b`, id, 50_000), { id, since: 0 }))
        ])
        const winners = [exitA, exitB].filter(Exit.isSuccess)
        expect(winners).toHaveLength(1)
        const winner = Exit.isSuccess(exitA) ? `${id}-a` : `${id}-b`
        const loser = Exit.isSuccess(exitA) ? exitB : exitA
        expect(Exit.isFailure(loser) ? loser.cause.reasons[0] : undefined).toMatchObject({
          error: { _tag: "DuplicateSend", message_id: winner }
        })
      }
    })
  })

  describe("keyset streams", () => {
    it("audience and stream read more than one default-size page, each row once, in order", async () => {
      const { schema, url } = await freshSchema()
      await withStore(url, async (runtime) => {
        const total = PostgresStore.defaultPageSize * 2 + 345
        // Numbers scattered over the range, so rows go in out of msisdn order.
        const contacts = Array.from({ length: total }, (_, i) =>
          Fixtures.contact((i * 7_919) % 999_983, {
            first_name: `F${i}`,
            added_from: "FILE_UPLOAD",
            tags: i % 3 === 0 ? ["Night"] : i % 3 === 1 ? ["NIGHT", "day"] : [],
            monitoring: i % 5 === 0
          }))
        await runtime.runPromise(Effect.flatMap(ContactStore.ContactStore, (c) => c.write({ insert: contacts, update: [] })))
        const audience = await runtime.runPromise(
          Effect.flatMap(ContactStore.ContactStore, (c) => Stream.runCollect(c.audience({ tags: ["night"] })))
        )
        const expectedAudience = contacts
          .filter((c) => c.monitoring || c.tags.some((t) => t.toLowerCase() === "night"))
          .map((c) => c.msisdn)
          .sort()
        expect(audience.map((c) => c.msisdn)).toEqual(expectedAudience)
        expect(expectedAudience.length).toBeGreaterThan(PostgresStore.defaultPageSize)

        // Messages set up in bulk in SQL, with many ties of created_at for the keyset's tie-breaker.
        await adminSql((sql) => sql`INSERT INTO ${sql(schema)}.messages (message_id, short_code, direction, status, message,
            total_recipients, sent_count, error_count, total_monitors, is_scheduled, is_billable, created_at, type, tags, segments)
          SELECT 'm' || g, '1', 'MT', 'SENT', 'x', 0, 0, 0, 0, false, false, 1000 + g / 7, 1, '[]'::jsonb, 1
          FROM generate_series(1, ${total}) AS g`)
        const streamed = await runtime.runPromise(
          Effect.flatMap(MessageStore.MessageStore, (m) => Stream.runCollect(m.stream({ from: 1_001 })))
        )
        const expected = Array.from({ length: total }, (_, i) => ({ id: `m${i + 1}`, at: 1_000 + Math.floor((i + 1) / 7) }))
          .filter((m) => m.at >= 1_001)
          .sort((x, y) => x.at - y.at || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0))
          .map((m) => m.id)
        expect(streamed.map((m) => m.message_id)).toEqual(expected)
      })
    })
  })
})

if (baseUrl === undefined || baseUrl === "") {
  describe("PostgresStore (PostgreSQL)", () => {
    it.skip(skipMessage, () => {})
  })
}
