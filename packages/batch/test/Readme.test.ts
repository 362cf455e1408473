/**
 * The README's tour of the command line runs as written: every command of its block, in order, on a fresh
 * directory holding the samples, exits 0 (the README is what a new user follows first).
 */
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, expect, it } from "vitest"
import { bin, env, samples } from "./cliProcess.ts"

const readme = fs.readFileSync(path.resolve(import.meta.dirname, "../../../README.md"), "utf8")
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "smsbook-readme-"))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

/** The block that starts with `npx smsbook init`: its lines, comments dropped. */
const tour = (): ReadonlyArray<string> => {
  const block = /```sh\n(npx smsbook init [^]*?)```/.exec(readme)?.[1] ?? ""
  return block.split("\n").map((line) => line.replace(/\s+#.*$/, "").trim()).filter((line) => line.startsWith("npx smsbook "))
}

/** A command line's words, double-quoted ones kept whole (all the README's lines need). */
const words = (line: string): ReadonlyArray<string> =>
  (line.match(/"[^"]*"|\S+/g) ?? []).map((word) => word.replace(/^"(.*)"$/, "$1"))

it("runs the README's command-line tour as written, every command exiting 0", () => {
  fs.cpSync(samples, path.join(dir, "samples"), { recursive: true })
  const lines = tour()
  expect(lines.length).toBeGreaterThan(10)
  for (const line of lines) {
    const ran = spawnSync(process.execPath, [bin, ...words(line).slice(2)], { cwd: dir, encoding: "utf8", env: env(), timeout: 120_000 })
    expect([line, ran.status, ran.status === 0 ? "" : ran.stderr]).toEqual([line, 0, ""])
  }
}, 600_000)
