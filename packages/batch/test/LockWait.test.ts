/**
 * `--wait` / `SMSBOOK_LOCK_WAIT`: a command queues behind another process writing to the SQLite book,
 * says on stderr who that process is, and fails only once its wait is over.
 */
import { spawn, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { DatabaseSync } from "node:sqlite"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"

vi.setConfig({ testTimeout: 300_000 })

const bin = path.resolve(import.meta.dirname, "../src/bin.ts")
let dir = ""
let book = ""

const env = (extra: Record<string, string> = {}) => ({ ...process.env, SMSBOOK_STORE: book, SMSBOOK_LOCK_WAIT: "", ...extra })

const smsbook = (args: ReadonlyArray<string>, extra: Record<string, string> = {}) => {
  const result = spawnSync(process.execPath, [bin, ...args], { cwd: dir, encoding: "utf8", env: env(extra), timeout: 120_000 })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

/** Runs `use` while this process holds the book's write lock. */
const holding = <A>(use: () => A): A => {
  const db = new DatabaseSync(book, { timeout: 10_000 })
  db.exec("BEGIN IMMEDIATE")
  try {
    return use()
  } finally {
    db.exec("ROLLBACK")
    db.close()
  }
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "smsbook-wait-"))
  book = path.join(dir, "book.db")
  expect(smsbook(["init", "--no-input"]).code).toBe(0)
})

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

describe("a writer behind another process's write", () => {
  it("fails after --wait seconds, having said which process holds the book", () => {
    const started = performance.now()
    const run = holding(() => smsbook(["contacts", "add", "447400123456", "--wait", "2"]))
    const seconds = (performance.now() - started) / 1000
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/database is locked/)
    expect(run.stderr).toContain(`waiting for the book ${book}: pid ${process.pid} (`)
    expect(seconds).toBeGreaterThanOrEqual(2)
    expect(smsbook(["contacts", "list", "--json"]).stdout).not.toContain("447400123456")
  })

  it("the error itself (the one JSON document a nightly job keeps) names the wait to raise and says nothing was written", () => {
    const run = holding(() => smsbook(["contacts", "add", "447400123458", "--wait", "1", "--json"]))
    expect(run.code).toBe(1)
    const { error } = JSON.parse(run.stdout) as { error: { code: string; message: string } }
    expect(error.code).toBe("STORE_FAILURE")
    expect(error.message).toMatch(/database is locked/)
    expect(error.message).toContain("--wait")
    expect(error.message).toContain("nothing was written")
  })

  it("takes its wait from SMSBOOK_LOCK_WAIT too, and refuses one that is not a number of seconds", () => {
    const run = holding(() => smsbook(["contacts", "add", "447400123457"], { SMSBOOK_LOCK_WAIT: "1" }))
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/locked/)
    const refused = smsbook(["contacts", "add", "447400123457", "--wait", "soon"])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(/setting --wait: must be a number of seconds.*"soon"/)
  })

  it("goes on once the other process commits", async () => {
    // The holder is a process of its own (this one watches the waiting command); it commits when told on stdin.
    const holder = spawn(process.execPath, [
      "-e",
      `const { DatabaseSync } = require("node:sqlite"); const db = new DatabaseSync(process.argv[1]);
       db.exec("BEGIN IMMEDIATE"); process.stdout.write("held\\n");
       process.stdin.once("data", () => { db.exec("COMMIT"); db.close(); process.exit(0) })`,
      book
    ], { stdio: ["pipe", "pipe", "inherit"] })
    await new Promise<void>((resolve) => holder.stdout.once("data", () => resolve()))
    const waiter = spawn(process.execPath, [bin, "contacts", "add", "447400123458", "--wait", "120"], { cwd: dir, env: env() })
    let stderr = ""
    waiter.stderr.on("data", (chunk) => {
      stderr += String(chunk)
      if (stderr.includes("waiting for the book")) holder.stdin.end("commit\n")
    })
    const code = await new Promise<number | null>((resolve) => waiter.on("close", resolve))
    holder.kill()
    expect(stderr).toContain(`pid ${holder.pid} (`)
    expect(code).toBe(0)
    expect(smsbook(["contacts", "get", "447400123458", "--json"]).code).toBe(0)
  })
})
