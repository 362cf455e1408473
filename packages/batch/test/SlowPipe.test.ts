/**
 * Every outcome's output arrives whole through a pipe its reader empties late: a failure's document (a text over
 * the budget, quoted in full) was cut at the pipe's 64 KiB, as the process exited before the pipe drained.
 */
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, expect, it } from "vitest"
import { bin, env } from "./cliProcess.ts"

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "smsbook-slow-pipe-"))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

/** A text far over the budget: its analysis quotes it, so the output is hundreds of KiB. */
const long = "Hello there ".repeat(9000)

/**
 * Runs `smsbook ARGS` with stdout (or stderr, `from: 2`) into a pipe whose reader starts a second later; answers
 * what the reader got, and the exit code.
 */
const throughSlowPipe = (args: ReadonlyArray<string>, from: 1 | 2 = 1) => {
  const quoted = [process.execPath, bin, ...args].map((arg) => `'${arg.replaceAll("'", "'\\''")}'`).join(" ")
  const redirect = from === 1 ? "2>/dev/null" : "2>&1 >/dev/null"
  const script = `{ ${quoted} ${redirect}; echo $? > rc; } | { sleep 1; cat > got; }`
  const ran = spawnSync("/bin/sh", ["-c", script], { cwd: dir, env: env(), encoding: "utf8", timeout: 60_000 })
  expect(ran.status, ran.stderr).toBe(0)
  return { code: Number(fs.readFileSync(path.join(dir, "rc"), "utf8")), got: fs.readFileSync(path.join(dir, "got"), "utf8") }
}

/** The same run with its output to a file, which never cut it. */
const toFile = (args: ReadonlyArray<string>) =>
  spawnSync(process.execPath, [bin, ...args], { cwd: dir, env: env(), encoding: "utf8", timeout: 60_000 })

it("a failure's JSON document larger than the pipe arrives whole (exit 2)", () => {
  const { code, got } = throughSlowPipe(["inspect", long, "--short-name", "ACME", "--json"])
  expect(code).toBe(2)
  expect(got.length).toBeGreaterThan(65_536)
  expect(JSON.parse(got)).toMatchObject({ error: { code: "MESSAGE_TOO_LONG", field: "TEXT", inspection: { fits: false } } })
})

it("a failure's human output larger than the pipe arrives whole (exit 2)", () => {
  const { code, got } = throughSlowPipe(["inspect", long, "--short-name", "ACME"])
  expect(code).toBe(2)
  const whole = toFile(["inspect", long, "--short-name", "ACME"]).stdout
  expect(whole.length).toBeGreaterThan(65_536)
  expect(got).toBe(whole)
})
