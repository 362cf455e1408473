/**
 * The settings file (`smsbook.json`) every command reads is never lost: an `init` that fails leaves it as it was, no
 * output of any command is written over it, and `init` refuses a book that would be gone when it ends.
 */
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { bin, env } from "./cliProcess.ts"

// Every step is a process: on a loaded machine a test of several steps needs minutes, not seconds.
vi.setConfig({ testTimeout: 300_000 })

let dir = ""
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "smsbook-settings-file-"))
})
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }))

/** Runs `smsbook … --json` in `dir`: its exit code and its one document's error. */
const run = (args: ReadonlyArray<string>) => {
  const ran = spawnSync(process.execPath, [bin, ...args, "--json"], { cwd: dir, encoding: "utf8", env: env(), timeout: 60_000 })
  return { code: ran.status, error: (JSON.parse(ran.stdout) as { error?: Record<string, unknown> }).error }
}

const settings = () => fs.readFileSync(path.join(dir, "smsbook.json"), "utf8")

describe("the settings file", () => {
  it("an init that fails (a book that cannot be opened, a book in memory) leaves smsbook.json as it was", () => {
    expect(run(["init", "--no-input", "--short-name", "ACME", "--time-zone", "Europe/London", "--store", "book.db"]).code).toBe(0)
    const before = settings()
    fs.mkdirSync(path.join(dir, "folder"))
    fs.writeFileSync(path.join(dir, "contacts.csv"), "msisdn,name\n447400123456,Ann\n")
    for (const store of ["missing/book.db", "folder"]) {
      expect(run(["init", "--no-input", "--force", "--short-name", "ACME", "--store", store])).toMatchObject({
        code: 2,
        error: { code: "INVALID_STORE_URL", field: "--store" }
      })
      expect(settings()).toBe(before)
    }
    expect(run(["init", "--no-input", "--force", "--short-name", "ACME", "--store", "contacts.csv"])).toMatchObject({ code: 1, error: { code: "STORE_UNAVAILABLE" } })
    expect(settings()).toBe(before)
    for (const store of ["memory:", "sqlite::memory:"]) {
      expect(run(["init", "--no-input", "--force", "--short-name", "ACME", "--store", store])).toMatchObject({ code: 2, error: { code: "INVALID_PARAMETER", field: "--store" } })
      expect(settings()).toBe(before)
    }
    expect(fs.readdirSync(dir).filter((name) => name.endsWith(".partial"))).toEqual([])
  })

  it("init writes through a linked smsbook.json, which stays a link; a link to nothing counts as there (--force)", () => {
    fs.mkdirSync(path.join(dir, "shared"))
    fs.writeFileSync(path.join(dir, "shared", "settings.json"), "{\"short_name\":\"OLD\"}\n")
    fs.symlinkSync("shared/settings.json", path.join(dir, "smsbook.json"))
    expect(run(["init", "--no-input", "--force", "--short-name", "NEW", "--store", "book.db"]).code).toBe(0)
    expect(fs.lstatSync(path.join(dir, "smsbook.json")).isSymbolicLink()).toBe(true)
    expect(JSON.parse(fs.readFileSync(path.join(dir, "shared", "settings.json"), "utf8"))).toMatchObject({ short_name: "NEW" })
    fs.rmSync(path.join(dir, "smsbook.json"))
    fs.symlinkSync("shared/moved.json", path.join(dir, "smsbook.json"))
    expect(run(["init", "--no-input", "--short-name", "NEW", "--store", "book.db"])).toMatchObject({ code: 2, error: { field: "--force" } })
    expect(run(["init", "--no-input", "--force", "--short-name", "NEW", "--store", "book.db"]).code).toBe(0)
    expect(fs.lstatSync(path.join(dir, "smsbook.json")).isSymbolicLink()).toBe(true)
    expect(JSON.parse(fs.readFileSync(path.join(dir, "shared", "moved.json"), "utf8"))).toMatchObject({ short_name: "NEW" })
  })

  it("no output is written over smsbook.json, however it is spelled: refused (2), the file unchanged", () => {
    expect(run(["init", "--no-input", "--short-name", "ACME", "--store", "book.db"]).code).toBe(0)
    expect(run(["contacts", "add", "447400123456"]).code).toBe(0)
    fs.mkdirSync(path.join(dir, "sub"))
    fs.symlinkSync("smsbook.json", path.join(dir, "settings-link.json"))
    fs.writeFileSync(path.join(dir, "bad.csv"), "msisdn\nnot a number\n")
    const before = settings()
    for (const target of ["smsbook.json", "./sub/../smsbook.json", path.join(dir, "smsbook.json"), "settings-link.json"]) {
      for (const [flag, args] of [
        ["--out", ["contacts", "export", "--out", target]],
        ["--out", ["report", "--out", target]],
        ["--out", ["suppressions", "export", "--out", target]],
        ["--rejects", ["import", "bad.csv", "--default-country", "GB", "--rejects", target]]
      ] as const) {
        expect(run(args), `${args.join(" ")}`).toMatchObject({ code: 2, error: { code: "INVALID_PARAMETER", field: flag } })
        expect(settings()).toBe(before)
      }
    }
  })
})
