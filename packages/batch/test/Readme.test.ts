/**
 * The README runs as written (it is what a new user follows first): every command of its command-line tour, in
 * order, on a fresh directory holding the samples, exits 0; its HTTP section's commands start a server that a key
 * opens.
 */
import { spawn, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, expect, it } from "vitest"
import { bin, env, samples, servingAt } from "./cliProcess.ts"

const readme = fs.readFileSync(path.resolve(import.meta.dirname, "../../../README.md"), "utf8")
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "smsbook-readme-"))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

/** The commands of the README's `sh` block that starts with `start`, comments dropped. */
const commands = (start: string): ReadonlyArray<string> => {
  const at = readme.indexOf("```sh\n" + start)
  const block = at < 0 ? "" : readme.slice(at + 6, readme.indexOf("```", at + 6))
  return block.split("\n").map((line) => line.replace(/\s+#.*$/, "").trim()).filter((line) => line.startsWith("npx smsbook "))
}

/** A command line's words, double-quoted ones kept whole (all the README's lines need). */
const words = (line: string): ReadonlyArray<string> =>
  (line.match(/"[^"]*"|\S+/g) ?? []).map((word) => word.replace(/^"(.*)"$/, "$1"))

it("runs the README's command-line tour as written, every command exiting 0", () => {
  fs.cpSync(samples, path.join(dir, "samples"), { recursive: true })
  const lines = commands("npx smsbook init --short-name ACME --time-zone")
  expect(lines.length).toBeGreaterThan(10)
  for (const line of lines) {
    const ran = spawnSync(process.execPath, [bin, ...words(line).slice(2)], { cwd: dir, encoding: "utf8", env: env(), timeout: 120_000 })
    expect([line, ran.status, ran.status === 0 ? "" : ran.stderr]).toEqual([line, 0, ""])
  }
}, 600_000)

it("serves as the README's HTTP section says: init, a key, serve, then the key opens the interface", async () => {
  const fresh = fs.mkdtempSync(path.join(os.tmpdir(), "smsbook-readme-http-"))
  try {
    const lines = commands("npx smsbook init --short-name ACME  ")
    expect(lines.map((line) => words(line)[2])).toEqual(["init", "keys", "serve"])
    const run = (line: string) => spawnSync(process.execPath, [bin, ...words(line).slice(2)], { cwd: fresh, encoding: "utf8", env: env(), timeout: 120_000 })
    expect(run(lines[0] ?? "").status).toBe(0)
    const key = /smsbook_[A-Za-z0-9_-]+/.exec(run(lines[1] ?? "").stdout)?.[0] ?? ""
    expect(key).not.toBe("")
    // The README's server, on a free port rather than 8080.
    const server = spawn(process.execPath, [bin, ...words(lines[2] ?? "").slice(2), "--port", "0", "--json"], { cwd: fresh, env: env(), stdio: ["ignore", "pipe", "ignore"] })
    try {
      const url = await servingAt(server)
      expect((await fetch(`${url}/contacts/447400123456`)).status).toBe(401)
      const answer = await fetch(`${url}/contacts/447400123456`, { headers: { authorization: `Bearer ${key}` } })
      expect([answer.status, ((await answer.json()) as { error: { code: string } }).error.code]).toEqual([404, "CONTACT_NOT_FOUND"])
    } finally {
      server.kill("SIGTERM")
    }
  } finally {
    fs.rmSync(fresh, { recursive: true, force: true })
  }
}, 120_000)
