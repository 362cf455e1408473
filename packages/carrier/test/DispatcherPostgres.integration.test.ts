/**
 * Dispatchers sharing one PostgreSQL book (SMSBOOK_TEST_POSTGRES_URL, see scripts/postgres.sh): three
 * drain it together with FOR UPDATE SKIP LOCKED, and a dead one's parts are sent once: those it never
 * wrote at once, those it wrote unanswered when no receipt names them.
 */
import { PgClient } from "@effect/sql-pg"
import { Account, ContactBook, Messaging, PartQueue, Sms } from "@smsbook/core"
import { PartStore, Store } from "@smsbook/store"
import { Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { describe, expect, it } from "vitest"
import * as Dispatcher from "../src/Dispatcher.ts"
import * as SmppConfig from "../src/SmppConfig.ts"
import * as TestSmsc from "./TestSmsc.ts"

const postgresUrl = process.env["SMSBOOK_TEST_POSTGRES_URL"] ?? ""
if (postgresUrl === "") console.warn("PostgreSQL dispatcher tests skipped: set SMSBOOK_TEST_POSTGRES_URL (scripts/postgres.sh start)")

const shortName = "Shop"
const text = "Привет! Большая распродажа в эти выходные, скидки до 50% на всё — ждём вас"

describe.skipIf(postgresUrl === "")("Dispatchers on PostgreSQL", () => {
  it("three share the work, none sends a part twice, and the parts a dead one held are sent once after its lease", async () => {
    const admin = ManagedRuntime.make(PgClient.layer({ url: Redacted.make(postgresUrl) }))
    const schema = `smsbook_dispatch_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
    await admin.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`CREATE SCHEMA ${sql(schema)}`))
    const url = new URL(postgresUrl)
    url.searchParams.set("options", `-c search_path=${schema}`)
    const smsc = await TestSmsc.start({ respondDelayMs: 1, receipt: (_part, index) => ({ stat: index % 25 === 3 ? "EXPIRED" : "DELIVRD", delayMs: 5 }) })
    const account = Account.layer({ ...Account.defaults, short_name: shortName })
    const runtimes = Array.from({ length: 3 }, () => ManagedRuntime.make(Layer.mergeAll(Store.layer(url.href), PartStore.layer(url.href), account)))
    try {
      const [first] = runtimes
      if (first === undefined) throw new Error("no runtime")
      const recipients = 300
      await first.runPromise(Effect.forEach(Array.from({ length: recipients }, (_, i) => `4474009${String(i).padStart(5, "0")}`), (msisdn) =>
        ContactBook.createContact(msisdn, { first_name: "A" }).pipe(Effect.andThen(ContactBook.editContact(msisdn, { tags: ["news"] })))))
      const broadcast = await first.runPromise(Messaging.broadcast({ tags: ["news"], message: text }, { allowEmpty: false }))
      const parts = Sms.analyzePrefixed(shortName, text).segments * recipients
      // A dispatcher that claims 6 parts, stores 3 as written (the SMSC never got them) and dies (lease 200 ms).
      const queue = await first.runPromise(Effect.service(PartQueue.PartQueue))
      const dead = await first.runPromise(queue.claim("dead", 6, Date.now(), 200))
      expect(dead.parts.length).toBe(6)
      expect(await first.runPromise(queue.sending(dead.parts.slice(0, 3).map((part) => part.seq)))).toHaveLength(3)
      const config: SmppConfig.SmppConfig = { ...SmppConfig.defaults, host: "127.0.0.1", port: smsc.port, systemId: "smsbook", password: "secret", window: 5 }
      const summaries = await Promise.all(runtimes.map((runtime, index) =>
        runtime.runPromise(Dispatcher.run(config, {
          ...Dispatcher.defaults,
          dispatcher: { owner: `d${index}`, host: "test", pid: process.pid },
          once: true,
          leaseMs: 3000,
          receiptWaitMs: 3000,
          doubtMs: 500
        }))))
      // Under load one may find the queue drained by the others; at least two share it.
      expect(summaries.filter((summary) => summary.submitted > 0).length).toBeGreaterThanOrEqual(2)
      const total = (key: "submitted" | "requeued" | "inDoubt" | "resent") => summaries.reduce((sum, summary) => sum + summary[key], 0)
      expect([total("submitted"), total("requeued"), total("inDoubt"), total("resent")]).toEqual([parts, 3, 3, 3])
      const keys = smsc.accepted.map((part) => `${part.destination}/${part.concatenation?.sequence}`)
      expect(new Set(keys).size).toBe(parts)
      expect(keys.length).toBe(parts)
      const states = await first.runPromise(queue.states(broadcast.message.message_id))
      const count = (state: PartQueue.State) => states.filter((part) => part.state === state).length
      const failed = [...smsc.receipts.values()].filter((stat) => stat === "EXPIRED").length
      expect([count("in_doubt"), count("expired"), count("delivered")]).toEqual([0, failed, parts - failed])
      const [stored] = await first.runPromise(Messaging.listMessages({ direction: "MT" }))
      expect([stored?.sent_count, stored?.error_count]).toEqual([parts, failed])
    } finally {
      for (const runtime of runtimes) await runtime.dispose()
      await smsc.close()
      await admin.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`DROP SCHEMA ${sql(schema)} CASCADE`))
      await admin.dispose()
    }
  }, 120_000)
})
