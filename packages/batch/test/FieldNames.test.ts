/**
 * An error's `field` names the flag or argument at fault as the user typed it (`--id`, `--spam-period`, `TEXT`), or
 * the variable or `smsbook.json` key a setting came from, and quotes the value as typed: an independent review found
 * `id`, `carrier`, `spam_period_seconds`, `text` beside `TEXT`, and a `--since` date quoted as the HTTP-date it was
 * read as.
 */
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, expect, it } from "vitest"
import { bin, env, samples } from "./cliProcess.ts"

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "smsbook-field-names-"))
const book = path.join(dir, "book.db")
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

/** The error document of `smsbook ARGS --json` (exit 2), run in `cwd` with `extra` in the environment. */
const refusal = (args: ReadonlyArray<string>, extra: Record<string, string> = {}, cwd = dir) => {
  const ran = spawnSync(process.execPath, [bin, ...args, "--json"], { cwd, env: env(extra), encoding: "utf8", timeout: 60_000 })
  expect(ran.status, ran.stderr).toBe(2)
  return (JSON.parse(ran.stdout) as { error: { field?: string; message: string } }).error
}

beforeAll(() => {
  const init = spawnSync(process.execPath, [bin, "init", "--no-input", "--store", book, "--short-name", "ACME"], { cwd: dir, env: env(), encoding: "utf8" })
  expect(init.status, init.stderr).toBe(0)
})

const store = ["--store", book]
const long = "x".repeat(300)

it.each([
  ["send --id blank", ["send", ...store, "--to", "447400123456", "--message", "hi", "--id", ""], "--id"],
  ["send --id too long", ["send", ...store, "--to", "447400123456", "--message", "hi", "--id", "x".repeat(41)], "--id"],
  ["send --message too long", ["send", ...store, "--to", "447400123456", "--message", long], "--message"],
  ["inspect without its argument", ["inspect", "--short-name", "ACME"], "TEXT"],
  ["inspect over the budget", ["inspect", long, "--short-name", "ACME"], "TEXT"],
  ["contacts get without its argument", ["contacts", "get", ...store], "MSISDN"],
  ["contacts add --first-name too long", ["contacts", "add", "447400123456", ...store, "--first-name", long], "--first-name"],
  ["contacts add --tags too long", ["contacts", "add", "447400123456", ...store, "--tags", `ok,${long}`], "--tags"],
  ["dispatch --carrier not a carrier URL", ["dispatch", ...store, "--once", "--carrier", "bogus://x"], "--carrier"],
  ["--spam-period -1", ["contacts", "list", ...store, "--spam-period", "-1"], "--spam-period"],
  ["--time-zone unknown", ["contacts", "list", ...store, "--time-zone", "Mars/Olympus"], "--time-zone"],
  ["--wait not seconds", ["contacts", "list", ...store, "--wait", "soon"], "--wait"]
] as const)("%s", (_, args, field) => {
  expect(refusal(args).field).toBe(field)
})

it("a setting from the environment or smsbook.json is named there", () => {
  expect(refusal(["contacts", "list", ...store], { SMSBOOK_SPAM_PERIOD: "-1" }).field).toBe("SMSBOOK_SPAM_PERIOD")
  expect(refusal(["dispatch", ...store, "--once"], { SMSBOOK_CARRIER: "bogus://x" }).field).toBe("SMSBOOK_CARRIER")
  const settingsFile = (settings: object) => {
    const folder = fs.mkdtempSync(path.join(dir, "settings-"))
    fs.writeFileSync(path.join(folder, "smsbook.json"), JSON.stringify(settings))
    return folder
  }
  const spam = settingsFile({ spam_period_seconds: "-1" })
  expect(refusal(["contacts", "list", ...store], {}, spam).field).toBe("smsbook.json: spam_period_seconds")
  expect(refusal(["dispatch", ...store, "--once", "--short-name", "ACME"], {}, settingsFile({ carrier: "bogus://x" })).field)
    .toBe("smsbook.json: carrier")
  // The flag, said over the environment and the file, is the one named.
  expect(refusal(["contacts", "list", ...store, "--spam-period", "x"], { SMSBOOK_SPAM_PERIOD: "-1" }, spam).field).toBe("--spam-period")
})

it("a store refused where it was said in the environment or smsbook.json is named there too (a nightly job's SMSBOOK_STORE)", () => {
  const missing = path.join(dir, "no-such-book.db")
  for (const [store, code] of [[missing, "STORE_NOT_FOUND"], ["postgress://u@127.0.0.1/db", "INVALID_STORE_URL"]] as const) {
    expect(refusal(["contacts", "list"], { SMSBOOK_STORE: store })).toMatchObject({ code, field: "SMSBOOK_STORE" })
    const folder = fs.mkdtempSync(path.join(dir, "store-"))
    fs.writeFileSync(path.join(folder, "smsbook.json"), JSON.stringify({ store }))
    expect(refusal(["contacts", "list"], {}, folder)).toMatchObject({ code, field: "smsbook.json: store" })
    expect(refusal(["keys", "list"], {}, folder)).toMatchObject({ code, field: "smsbook.json: store" })
    expect(refusal(["contacts", "list", "--store", store], { SMSBOOK_STORE: book })).toMatchObject({ code, field: "--store" })
  }
  expect(refusal(["import", path.join(samples, "contacts.csv")], { SMSBOOK_STORE: "sqlte:book.db" })).toMatchObject({ code: "INVALID_STORE_URL", field: "SMSBOOK_STORE" })
})

it("--store '' is refused naming --store by every command, init and dispatch too: read as unsaid, it took SMSBOOK_STORE's book", () => {
  const other = { SMSBOOK_STORE: book, SMSBOOK_SHORT_NAME: "ACME" }
  for (const args of [["contacts", "list"], ["dispatch", "--once"], ["init", "--no-input"]]) {
    expect(refusal([...args, "--store", ""], other, fs.mkdtempSync(path.join(dir, "blank-store-"))), args.join(" "))
      .toMatchObject({ code: "INVALID_STORE_URL", field: "--store" })
  }
})

it("keys revoke names its argument as the synopsis writes arguments: ID", () => {
  expect(refusal(["keys", "revoke", "no-such-key", ...store])).toMatchObject({ code: "INVALID_PARAMETER", field: "ID" })
})

it("--since after --until quotes the dates as typed, not as the HTTP-date they were read as", () => {
  for (const command of [["messages", "list"], ["report", "--out", "r.csv"]]) {
    const error = refusal([...command, ...store, "--since", "2026-11-28", "--until", "2026-11-27", "--time-zone", "America/New_York"])
    expect(error.field).toBe("--since")
    expect(error.message).toContain('(got "2026-11-28")')
    expect(error.message).not.toContain("GMT")
  }
  expect(fs.existsSync(path.join(dir, "r.csv"))).toBe(false)
})

it("init names a refused setting where it was said too, not by its smsbook.json key", () => {
  const fresh = () => fs.mkdtempSync(path.join(dir, "init-"))
  const init = ["init", "--no-input", "--store", "book.db"]
  expect(refusal([...init, "--spam-period", "abc"], {}, fresh()).field).toBe("--spam-period")
  expect(refusal([...init, "--time-zone", "Mars/Olympus"], {}, fresh()).field).toBe("--time-zone")
  expect(refusal([...init, "--wait", "soon"], {}, fresh()).field).toBe("--wait")
  expect(refusal(init, { SMSBOOK_SPAM_PERIOD: "abc" }, fresh()).field).toBe("SMSBOOK_SPAM_PERIOD")
})

it("a usage error found before the parser runs names its flag too: a value starting with -h, --wizard with --json", () => {
  expect(refusal(["send", ...store, "--to", "447400123456", "--message", "-hello"]).field).toBe("--message")
  expect(refusal(["--wizard"]).field).toBe("--wizard")
  expect(refusal(["--completions=bash"]).field).toBe("--completions")
})

it("an argument starting with - (the parser reads it as flags) is refused with the way to write it, on stderr and in hints", () => {
  const error = refusal(["inspect", "-5 off", "--short-name", "ACME"]) as { hints?: ReadonlyArray<string> }
  expect(error.hints).toEqual([`an argument starting with "-" goes after "--", which ends the flags (write the flags before it): -- "-5 off"`])
  const fixed = spawnSync(process.execPath, [bin, "inspect", "--short-name", "ACME", "--json", "--", "-5 off"], { cwd: dir, env: env(), encoding: "utf8" })
  expect(fixed.status, fixed.stderr).toBe(0)
  expect(JSON.parse(fixed.stdout)).toMatchObject({ prefixed: "ACME: -5 off" })
})
