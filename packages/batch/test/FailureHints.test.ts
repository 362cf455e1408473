/**
 * A run that fails in its store says what is wrong beneath the book, what to do, and what its work left: the hint
 * lines after the error (stderr) and `hints` in the JSON document. Laws over every problem, then real failures: a
 * damaged SQLite book, and a PostgreSQL connection cut in the middle of an import.
 */
import { spawn, spawnSync } from "node:child_process"
import { once } from "node:events"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { Errors, StoreFailure, StoreUnavailable } from "@smsbook/core"
import * as fc from "fast-check"
import pg from "pg"
import { afterAll, afterEach, describe, expect, it } from "vitest"
import { FileFailure } from "../src/CliErrors.ts"
import * as FailureHint from "../src/internal/failureHint.ts"
import * as Interruption from "../src/internal/interruption.ts"
import * as Import from "../src/jobs/Import.ts"
import { bin, env, samples } from "./cliProcess.ts"

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "smsbook-failure-hints-"))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))
afterEach(() => Interruption.keep(undefined))

const problem = fc.constantFrom(...Errors.storeProblems)
const maybeProblem = fc.option(problem, { nil: undefined })
const text = fc.string({ minLength: 1 })

describe("the hint lines of a failure", () => {
  it("a failure under way: the problem's advice where one is named, then what the job said stays (nothing where it said nothing)", () => {
    fc.assert(fc.property(maybeProblem, fc.option(text, { nil: undefined }), text, (named, kept, reason) => {
      Interruption.keep(kept)
      const failure = new StoreFailure({ operation: "contacts.bulkImport.merge", reason, ...(named === undefined ? {} : { problem: named }) })
      expect(FailureHint.of(failure)).toEqual([...(named === undefined ? [] : [FailureHint.advice[named]]), ...(kept === undefined ? [] : [kept])])
    }))
  })

  it("a store that cannot be opened: only the problem's advice (nothing had run)", () => {
    fc.assert(fc.property(maybeProblem, text, (named, reason) => {
      Interruption.keep("a broadcast's committed batches")
      const failure = new StoreUnavailable({ url: "book.db", reason, ...(named === undefined ? {} : { problem: named }) })
      expect(FailureHint.of(failure)).toEqual(named === undefined ? [] : [FailureHint.advice[named]])
    }))
  })

  it("any other failure gets no hint", () => {
    fc.assert(fc.property(fc.oneof(text.map((reason) => new Error(reason)), text, fc.constant(undefined)), (error) => {
      expect(FailureHint.of(error)).toEqual([])
    }))
  })

  it("a file that could not be written: the problem's advice for that file where one is named, then what the job said stays", () => {
    const fileProblem = fc.option(fc.constantFrom("disk-full" as const, "read-only" as const, "disk-io" as const), { nil: undefined })
    fc.assert(fc.property(fileProblem, fc.option(text, { nil: undefined }), text, (named, kept, reason) => {
      Interruption.keep(kept)
      const failure = new FileFailure({ path: "rejects.csv", reason, ...(named === undefined ? {} : { problem: named }) })
      expect(FailureHint.problemOf(failure)).toBe(named)
      expect(FailureHint.of(failure)).toEqual([
        ...(named === undefined ? [] : [FailureHint.fileAdvice("rejects.csv", named)]),
        ...(kept === undefined ? [] : [kept])
      ])
    }))
  })

  it("every problem's advice is its own", () => {
    expect(new Set(Errors.storeProblems.map((named) => FailureHint.advice[named])).size).toBe(Errors.storeProblems.length)
  })
})

interface ErrorDocument {
  readonly error: { readonly code: string; readonly problem?: string; readonly hints?: ReadonlyArray<string>; readonly exit_code: number }
}

describe("real store failures", () => {
  it("a damaged SQLite book: exit 1, the error, then what to do and that nothing changed", () => {
    const book = path.join(dir, "damaged.db")
    const imported = spawnSync(process.execPath, [bin, "import", path.join(samples, "contacts.csv"), "--default-country", "GB", "--store", book], { cwd: dir, env: env(), encoding: "utf8" })
    expect(imported.status, imported.stderr).toBe(0)
    // Every page but the first (the header and the schema) zeroed: opening works, reading a table does not.
    const pageSize = fs.readFileSync(book).readUInt16BE(16)
    const size = fs.statSync(book).size
    const fd = fs.openSync(book, "r+")
    fs.writeSync(fd, Buffer.alloc(size - pageSize), 0, size - pageSize, pageSize)
    fs.closeSync(fd)
    const listed = spawnSync(process.execPath, [bin, "contacts", "list", "--store", book, "--json"], { cwd: dir, env: env(), encoding: "utf8" })
    expect(listed.status).toBe(1)
    const document = JSON.parse(listed.stdout) as ErrorDocument
    // A list says nothing of what stays (it changes nothing): the advice alone.
    expect(document.error).toMatchObject({ code: "STORE_FAILURE", problem: "damaged", hints: [FailureHint.advice.damaged], exit_code: 1 })
    expect(listed.stderr.trimEnd().endsWith(`\nhint: ${FailureHint.advice.damaged}`)).toBe(true)
  })

  it.skipIf(!fs.existsSync("/dev/full"))("rejects onto a full disk: exit 1, the disk's problem, what to do, and that nothing was imported", () => {
    const book = path.join(dir, "full.db")
    const ran = spawnSync(process.execPath, [
      bin, "import", path.join(samples, "bad-rows.csv"), "--default-country", "GB", "--rejects", "/dev/full", "--store", book, "--json"
    ], { cwd: dir, env: env(), encoding: "utf8" })
    expect(ran.status, ran.stderr).toBe(1)
    const document = JSON.parse(ran.stdout) as ErrorDocument
    expect(document.error).toMatchObject({
      code: "FILE_FAILURE",
      problem: "disk-full",
      hints: [FailureHint.fileAdvice("/dev/full", "disk-full"), Import.rolledBack],
      exit_code: 1
    })
    expect(ran.stderr).toContain(`hint: ${Import.rolledBack}`)
  })

  const postgresUrl = process.env["SMSBOOK_TEST_POSTGRES_URL"] ?? ""

  it.skipIf(postgresUrl === "")("PostgreSQL: the import's connection cut while it stages: exit 1, the connection's hint, and nothing imported", async () => {
    const database = `smsbook_hints_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
    const admin = new pg.Client({ connectionString: postgresUrl })
    await admin.connect()
    try {
      await admin.query(`CREATE DATABASE ${database}`)
      const url = new URL(postgresUrl)
      url.pathname = `/${database}`
      const store = url.href
      const init = spawnSync(process.execPath, [bin, "init", "--no-input", "--store", store], { cwd: dir, env: env(), encoding: "utf8" })
      expect(init.status, init.stderr).toBe(0)
      // Large enough to be staging for seconds on any machine this runs on.
      const file = path.join(dir, "many.csv")
      fs.writeFileSync(file, ["msisdn,first_name,tags", ...Array.from({ length: 300_000 }, (_, i) => `+4474${String(i).padStart(8, "0")},Name ${i},vip`)].join("\n"))
      const child = spawn(process.execPath, [bin, "import", file, "--store", store, "--json"], { cwd: dir, env: env(), stdio: ["ignore", "pipe", "pipe"] })
      let stdout = ""
      let stderr = ""
      child.stdout.on("data", (chunk: Buffer) => void (stdout += chunk.toString()))
      child.stderr.on("data", (chunk: Buffer) => void (stderr += chunk.toString()))
      const exited = once(child, "exit")
      // Cut the import's connections once it stages rows (its staging table is on the wire), as a server restart would.
      const deadline = Date.now() + 60_000
      for (;;) {
        const staging = await admin.query("SELECT pid FROM pg_stat_activity WHERE datname = $1 AND query LIKE '%smsbook_import_rows%'", [database])
        if (staging.rows.length > 0) break
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the import never staged: ${stderr}`)
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [database])
      const [code] = await exited
      expect(code, stderr).toBe(1)
      const document = JSON.parse(stdout) as ErrorDocument
      expect(document.error).toMatchObject({ code: "STORE_FAILURE", problem: "connection", hints: [FailureHint.advice.connection, Import.rolledBack] })
      expect(stderr).toContain(`hint: ${FailureHint.advice.connection}`)
      const checker = new pg.Client({ connectionString: store })
      await checker.connect()
      const count = await checker.query("SELECT count(*)::int AS n FROM contacts")
      await checker.end()
      expect(count.rows[0]).toEqual({ n: 0 })
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)
      await admin.end()
    }
  }, 120_000)

  it.skipIf(postgresUrl === "")("PostgreSQL: a store URL naming a database the server lacks: exit 1, STORE_UNAVAILABLE, and the hint to create it", () => {
    const url = new URL(postgresUrl)
    url.pathname = `/smsbook_missing_${Date.now().toString(36)}`
    const ran = spawnSync(process.execPath, [bin, "contacts", "list", "--store", url.href, "--json"], { cwd: dir, env: env(), encoding: "utf8" })
    expect(ran.status, ran.stderr).toBe(1)
    const document = JSON.parse(ran.stdout) as ErrorDocument
    expect(document.error).toMatchObject({ code: "STORE_UNAVAILABLE", problem: "no-database", hints: [FailureHint.advice["no-database"]] })
  }, 60_000)
})
