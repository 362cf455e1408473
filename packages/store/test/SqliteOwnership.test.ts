/**
 * Whose file it is: a SQLite file of another program, or one being written by another program, is refused and left
 * exactly as it was, while a book another smsbook process is creating at the same moment is never refused.
 */
import { once } from "node:events"
import { existsSync, readFileSync } from "node:fs"
import { DatabaseSync } from "node:sqlite"
import { Worker } from "node:worker_threads"
import { describe, expect, it } from "vitest"
import * as SqliteConnection from "../src/internal/sqlite/connection.ts"
import * as SqliteMigrations from "../src/internal/sqlite/migrations.ts"
import * as Ownership from "../src/internal/sqlite/ownership.ts"
import * as SqliteFiles from "./sqliteFiles.ts"

const freshPath = SqliteFiles.folder()
const { openFailure, pragma } = SqliteFiles

describe("whose file it is", () => {
  it("refuses a file whose schema is newer than this code, and a SQLite file of another program", async () => {
    const newer = freshPath()
    const db = new DatabaseSync(newer)
    SqliteMigrations.migrate(db, [...SqliteMigrations.migrations, { version: 99, name: "future", sql: "CREATE TABLE future (x)" }])
    db.close()
    const refused = await openFailure(newer)
    expect(refused._tag).toBe("StoreUnavailable")
    expect(refused.reason).toContain(`schema version 99, newer than this smsbook knows (${SqliteMigrations.latestVersion})`)

    const foreign = freshPath()
    const other = new DatabaseSync(foreign)
    other.exec("CREATE TABLE contacts (x); PRAGMA user_version = 3")
    other.close()
    expect((await openFailure(foreign)).reason).toMatch(/not an smsbook database/)

    // Another program's file that sets neither pragma: its tables say it is not new, and it is left as it was.
    const plain = freshPath()
    const program = new DatabaseSync(plain)
    program.exec("CREATE TABLE t (x); INSERT INTO t VALUES (1)")
    program.close()
    expect((await openFailure(plain)).reason).toBe("not an smsbook database (a SQLite file of another program: tables t)")
    const after = new DatabaseSync(plain, { readOnly: true })
    expect(after.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").all().map((row) => row["name"])).toEqual(["t"])
    after.close()
  })

  it("leaves a SQLite file of another program exactly as it was: no WAL mode, no -wal or -shm, not a byte changed", async () => {
    // Each way a file says it is another program's: tables of its own, a user_version, an application_id.
    for (const setup of ["", "PRAGMA user_version = 7", "PRAGMA application_id = 1234"]) {
      const path = freshPath()
      const program = new DatabaseSync(path)
      program.exec(`CREATE TABLE accounts (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO accounts (name) VALUES ('a'), ('b'); ${setup}`)
      program.close()
      const before = readFileSync(path)
      expect(pragma(path, "journal_mode")).toBe("delete")
      expect((await openFailure(path)).reason).toMatch(/^not an smsbook database/)
      expect(readFileSync(path).equals(before)).toBe(true)
      expect(pragma(path, "journal_mode")).toBe("delete")
      for (const beside of ["-wal", "-shm", "-journal"]) expect(existsSync(path + beside)).toBe(false)
    }
  })

  it("leaves alone a new file another program is writing its tables into while the book opens, once they are there", async () => {
    const path = freshPath()
    // Another program (a thread of its own here) holds the new file's write lock while it creates its tables, 300 ms.
    const program = new Worker(
      `const { DatabaseSync } = require("node:sqlite")
      const { parentPort, workerData } = require("node:worker_threads")
      const db = new DatabaseSync(workerData)
      db.exec("BEGIN IMMEDIATE; CREATE TABLE scratch (x)")
      parentPort.postMessage("locked")
      setTimeout(() => { db.exec("COMMIT"); db.close() }, 300)`,
      { eval: true, workerData: path }
    )
    await once(program, "message")
    expect(() => SqliteConnection.open(path, 600_000)).toThrow("not an smsbook database (a SQLite file of another program: tables scratch)")
    await once(program, "exit")
    expect(pragma(path, "journal_mode")).toBe("delete")
  })

  it("never refuses a book another process is creating: the ownership check reads one snapshot", async () => {
    const path = freshPath()
    const setup = new DatabaseSync(path)
    setup.exec("PRAGMA journal_mode = WAL")
    setup.close()
    // Another connection creates the whole book in one transaction, then removes it in another, for a second.
    const creator = new Worker(
      `const { DatabaseSync } = require("node:sqlite")
      const { parentPort, workerData: [path, sql, id, version] } = require("node:worker_threads")
      const db = new DatabaseSync(path, { timeout: 5000 })
      const end = Date.now() + 1000
      parentPort.postMessage("started")
      while (Date.now() < end) {
        db.exec("BEGIN IMMEDIATE; " + sql + "; PRAGMA application_id = " + id + "; PRAGMA user_version = " + version + "; COMMIT")
        db.exec("BEGIN IMMEDIATE")
        for (const row of db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").all()) db.exec('DROP TABLE "' + row.name + '"')
        db.exec("PRAGMA application_id = 0; PRAGMA user_version = 0; COMMIT")
      }
      db.close()`,
      { eval: true, workerData: [path, SqliteMigrations.migrations.map((migration) => migration.sql).join(";\n"), Ownership.applicationId, SqliteMigrations.latestVersion] }
    )
    await once(creator, "message")
    const reader = new DatabaseSync(path, { timeout: 5000 })
    const refusals = new Set<string>()
    let exited = false
    creator.once("exit", () => void (exited = true))
    // Every state it commits is a new file or a whole book: neither may be refused, however the reads fall.
    while (!exited) {
      for (let i = 0; i < 200; i++) {
        const refusal = Ownership.refusal(reader)
        if (refusal !== undefined) refusals.add(refusal)
      }
      await new Promise((resolve) => setImmediate(resolve))
    }
    reader.close()
    expect([...refusals]).toEqual([])
  })

})
