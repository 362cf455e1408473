/** Who holds a SQLite book's write lock, read from the kernel's table of POSIX locks. */
import { DatabaseSync } from "node:sqlite"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import * as LockHolder from "../src/internal/sqlite/lockHolder.ts"

const table = [
  "1: POSIX  ADVISORY  READ 300 fe:00:77 124 124",
  "2: POSIX  ADVISORY  WRITE 200 fe:00:78 120 120",
  "3: POSIX  ADVISORY  WRITE 100 fe:00:77 120 120",
  "3: -> POSIX  ADVISORY  WRITE 400 fe:00:77 120 120",
  "4: FLOCK  ADVISORY  WRITE 500 fe:00:77 0 EOF"
].join("\n")

describe("holderPid", () => {
  it("is the process with the write lock on byte 120 of that WAL index, never a waiter or this process", () => {
    expect(LockHolder.holderPid(table, 77, 1)).toBe(100)
    expect(LockHolder.holderPid(table, 78, 1)).toBe(200)
    expect(LockHolder.holderPid(table, 77, 100)).toBeUndefined()
    expect(LockHolder.holderPid(table, 79, 1)).toBeUndefined()
    expect(LockHolder.holderPid("", 77, 1)).toBeUndefined()
  })
})

describe.runIf(process.platform === "linux")("holderOf", () => {
  it("finds nobody while nobody writes, and never names this process", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "smsbook-holder-"))
    const file = path.join(dir, "book.db")
    const db = new DatabaseSync(file)
    try {
      db.exec("PRAGMA journal_mode = WAL; CREATE TABLE t (x)")
      expect(LockHolder.holderOf(file)).toBeUndefined()
      db.exec("BEGIN IMMEDIATE; INSERT INTO t VALUES (1)")
      // The lock is this process's own: a writer is never told it waits for itself.
      expect(fs.readFileSync("/proc/locks", "utf8")).toMatch(new RegExp(`WRITE ${process.pid} \\S+:${fs.statSync(`${file}-shm`).ino} 120 120`))
      expect(LockHolder.holderOf(file)).toBeUndefined()
      db.exec("COMMIT")
    } finally {
      db.close()
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
