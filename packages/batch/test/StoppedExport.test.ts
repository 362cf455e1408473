/**
 * SIGTERM and SIGINT stop an export whose standard output is a regular file: exit 143 or 130 and the INTERRUPTED
 * line, where the export used to run to its end and exit 0 (a file is written synchronously, and with the book's
 * synchronous reads the signal was never seen). Each write to stdout is slowed by a hook, as a slow disk would, so the
 * signal always lands while the export is under way.
 */
import { spawn, spawnSync } from "node:child_process"
import { once } from "node:events"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bin, env } from "./cliProcess.ts"

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "smsbook-stopped-export-"))
const book = path.join(dir, "book.db")
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

/** A module that makes every write to standard output take a tenth of a second, blocking the thread as `writeSync` does. */
const slowStdout = path.join(dir, "slow-stdout.mjs")

beforeAll(() => {
  fs.writeFileSync(slowStdout, `const write = process.stdout._write
process.stdout._write = function(chunk, encoding, callback) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100)
  return write.call(this, chunk, encoding, callback)
}
`)
  // Pages of 4,096 messages and of 2,000 contacts: several pages each, so a stop lands before the end.
  const seeded = spawnSync(process.execPath, [path.resolve(import.meta.dirname, "../../../scripts/bench/SeedMessages.ts"), book, "30000"], { encoding: "utf8" })
  expect(seeded.status, seeded.stderr).toBe(0)
  const rows = Array.from({ length: 10_000 }, (_, i) => `4474${String(i).padStart(8, "0")},Ann${i}`)
  fs.writeFileSync(path.join(dir, "contacts.csv"), `msisdn,first_name\n${rows.join("\n")}\n`)
  const imported = spawnSync(process.execPath, [bin, "import", "contacts.csv", "--store", book], { cwd: dir, env: env(), encoding: "utf8" })
  expect(imported.status, imported.stderr).toBe(0)
}, 120_000)

/** Runs `smsbook ARGS` with stdout to a new file, and sends it `signal` once that file holds its first bytes. */
const stopped = async (args: ReadonlyArray<string>, signal: "SIGINT" | "SIGTERM") => {
  const out = path.join(dir, `out-${args.join("-").replaceAll(/[^a-z]/g, "")}-${signal}`)
  const fd = fs.openSync(out, "w")
  const child = spawn(process.execPath, ["--import", pathToFileURL(slowStdout).href, bin, ...args, "--store", book], {
    cwd: dir,
    env: env(),
    stdio: ["ignore", fd, "pipe"]
  })
  fs.closeSync(fd)
  let stderr = ""
  child.stderr?.on("data", (chunk: Buffer) => void (stderr += chunk.toString()))
  const watch = setInterval(() => {
    if (fs.statSync(out).size > 0) {
      clearInterval(watch)
      child.kill(signal)
    }
  }, 10)
  // A run that never sees the signal ends on its own (exit 0) and fails the test; one that hangs is killed here.
  const guard = setTimeout(() => child.kill("SIGKILL"), 50_000)
  const [code] = await once(child, "exit")
  clearInterval(watch)
  clearTimeout(guard)
  return { code, stderr, text: fs.readFileSync(out, "utf8") }
}

describe("an export to standard output that is a file stops on a signal", () => {
  it("report --json (one JSON array): SIGTERM exits 143, the array unfinished", async () => {
    const { code, stderr, text } = await stopped(["report", "--json"], "SIGTERM")
    expect(code, stderr).toBe(143)
    expect(stderr).toContain("error INTERRUPTED (2005): interrupted by SIGTERM")
    expect(stderr).not.toContain("messages written")
    expect(text.startsWith("[")).toBe(true)
    expect(text.endsWith("]\n")).toBe(false)
  })

  it("report --out - --format jsonl: SIGINT exits 130", async () => {
    const { code, stderr, text } = await stopped(["report", "--out", "-", "--format", "jsonl"], "SIGINT")
    expect(code, stderr).toBe(130)
    expect(stderr).toContain("error INTERRUPTED (2005): interrupted by SIGINT")
    expect(text.split("\n").length).toBeLessThan(30_000)
  })

  it("contacts export (CSV): SIGTERM exits 143", async () => {
    const { code, stderr, text } = await stopped(["contacts", "export"], "SIGTERM")
    expect(code, stderr).toBe(143)
    expect(stderr).toContain("error INTERRUPTED (2005): interrupted by SIGTERM")
    expect(text.split("\n").length).toBeLessThan(10_001)
  })

  it("the stop says that standard output holds an unfinished export, never that nothing half-written was kept", async () => {
    for (const [args, signal] of [[["contacts", "export"], "SIGTERM"], [["report", "--out", "-", "--format", "jsonl"], "SIGINT"]] as const) {
      const { code, stderr, text } = await stopped(args, signal)
      expect(code, stderr).toBe(signal === "SIGINT" ? 130 : 143)
      expect(stderr).not.toContain("nothing half-written was kept")
      expect(stderr).toContain("standard output holds an unfinished export: discard what it received")
      expect(text.length).toBeGreaterThan(0)
    }
  })
})
