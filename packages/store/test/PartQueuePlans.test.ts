/**
 * The SQLite part queue's statements as SQLite plans them: none reads the whole outbox. A claim that scanned it cost
 * time in proportion to the parts already sent, so a 1M-part broadcast slowed down the longer it ran.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import { Layer, ManagedRuntime } from "effect"
import { Account, Messaging, PartQueue } from "@smsbook/core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Migrations from "../src/internal/sqlite/migrations.ts"
import * as Parts from "../src/internal/sqlite/parts.ts"
import * as PartStore from "../src/PartStore.ts"
import * as Store from "../src/Store.ts"

const folder = mkdtempSync(join(tmpdir(), "smsbook-plans-"))
const file = join(folder, "book.db")
let db: DatabaseSync

/** The steps of a statement's plan (`EXPLAIN QUERY PLAN`), every parameter bound to NULL. */
const plan = (text: string): ReadonlyArray<string> => {
  const numbered = [...text.matchAll(/\?(\d+)/g)].map((match) => Number(match[1]))
  const count = numbered.length > 0 ? Math.max(...numbered) : (text.match(/\?/g) ?? []).length
  return db.prepare(`EXPLAIN QUERY PLAN ${text}`).all(...Array.from({ length: count }, () => null)).map((row) => String(row["detail"]))
}

beforeAll(async () => {
  const url = `sqlite:${file}`
  const runtime = ManagedRuntime.make(Layer.mergeAll(Store.layer(url), PartStore.layer(url), Account.layer({ ...Account.defaults, short_name: "Shop" })))
  // A few parts; no ANALYZE, as the store runs none: the planner sees the outbox as a dispatcher's connection does.
  for (let i = 0; i < 20; i++) await runtime.runPromise(Messaging.sendNow({ msisdn: `4474009000${String(i).padStart(2, "0")}`, message: `message ${i}` }))
  await runtime.dispose()
  db = new DatabaseSync(file)
})

afterAll(() => {
  db.close()
  rmSync(folder, { recursive: true, force: true })
})

describe("the SQLite part queue's plans", () => {
  it("no statement scans the outbox table (a scan of a partial index is fine: it holds only its parts)", () => {
    const scans = Object.entries(Parts.sql).flatMap(([name, text]) =>
      plan(text).filter((step) => /^SCAN (outbox|d)\b/.test(step) && !step.includes("USING")).map((step) => `${name}: ${step}`)
    )
    expect(scans).toEqual([])
  })

  it("a claim walks the queued parts in outbox order through outbox_pending, with no sort", () => {
    const steps = plan(Parts.sql.next)
    expect(steps[0]).toBe("SEARCH outbox USING INDEX outbox_pending (state=?)")
    expect(steps.some((step) => step.includes("TEMP B-TREE"))).toBe(false)
  })

  it("error_count is counted through outbox_failed, over the failed states of PartQueue only", () => {
    expect(Migrations.failedPartsPredicate).toBe(`state IN (${PartQueue.failedStates.map((state) => `'${state}'`).join(", ")})`)
    expect(plan(Parts.sql.errorCount).join(" | ")).toContain("SEARCH outbox USING INDEX outbox_failed (message_id=?)")
  })

  it("whether an opted-out number's message has started is searched by message and number, not over all the message's parts", () => {
    // A broadcast's message has a part per recipient: searched by message_id alone, each withdrawn part of a
    // 300k-recipient broadcast read its 600k parts (39 ms, under the write lock).
    expect(plan(Parts.sql.started).join(" | ")).toContain("(message_id=? AND msisdn=?)")
  })

  it("the recovery and lease statements, run every few seconds, search outbox_pending too", () => {
    for (const name of ["endOthers", "renewParts", "requeue", "doubt", "resend", "pending"] as const) {
      expect(plan(Parts.sql[name]).join(" | "), name).toContain("USING INDEX outbox_pending")
    }
  })
})
