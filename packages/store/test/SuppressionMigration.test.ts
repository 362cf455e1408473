/**
 * Books from before the suppression list upgrade: the new migration adds it and fills it with the
 * numbers of the CANCELLED contacts, so an opt-out recorded before the upgrade still holds after it.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import { ContactBook } from "@smsbook/core"
import { Laws } from "@smsbook/testing"
import { Effect, Result } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import * as Migrations from "../src/internal/sqlite/migrations.ts"
import * as SqliteStore from "../src/SqliteStore.ts"

const on = Laws.on

const dir = mkdtempSync(join(tmpdir(), "smsbook-upgrade-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const contactRow = (msisdn: string, status: string) =>
  [msisdn, msisdn.slice(2), "A", "B", "A B", "44", "API", status, "[]", "0".repeat(32), 0] as const

describe("SQLite upgrade to the suppression list", () => {
  it("a version-1 book gets its CANCELLED numbers suppressed, and a deleted opt-out stays out", async () => {
    const path = join(dir, "v1.db")
    const db = new DatabaseSync(path)
    const initial = Migrations.migrations.filter((migration) => migration.version === 1)
    expect(Result.isSuccess(Migrations.migrate(db, initial))).toBe(true)
    const insert = db.prepare("INSERT INTO contacts VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
    insert.run(...contactRow("447400000001", "CANCELLED"))
    insert.run(...contactRow("447400000002", "SUBSCRIBED"))
    db.close()

    await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
      const book = yield* SqliteStore.make(path)
      const suppressed = yield* book.contacts.suppressed(["447400000001", "447400000002"])
      expect([...suppressed]).toEqual(["447400000001"])
      yield* on(book)(ContactBook.deleteContact("447400000001"))
      expect(yield* on(book)(ContactBook.createContact("447400000001", {}))).toMatchObject({ status: "CANCELLED" })
    })))
    const after = new DatabaseSync(path)
    expect(after.prepare("PRAGMA user_version").get()).toEqual({ user_version: Migrations.latestVersion })
    after.close()
  })
})
