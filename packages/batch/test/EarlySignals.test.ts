/**
 * A signal that comes while the command line is still loading: the run ends with the INTERRUPTED message and, with
 * `--json`, its document, exit 143 — where Node used to die of it silently. The loading is held open by a module hook
 * that pauses when a chosen module is resolved and says so, so the signal lands inside it every time.
 */
import { spawn } from "node:child_process"
import { once } from "node:events"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import { afterAll, expect, it } from "vitest"
import { bin, env } from "./cliProcess.ts"

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "smsbook-early-signals-"))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

/** A module hook that pauses 1 s the first time a URL ending in `ending` is resolved, after saying so on stderr. */
const holding = (ending: string): string => {
  const hook = path.join(dir, `hold-${ending.replaceAll(/[^a-z]/gi, "")}.mjs`)
  fs.writeFileSync(hook, `import { registerHooks } from "node:module"
import { writeSync } from "node:fs"
let held = false
registerHooks({
  resolve: (specifier, context, next) => {
    const resolved = next(specifier, context)
    if (!held && resolved.url.endsWith(${JSON.stringify(ending)})) {
      held = true
      writeSync(2, ${JSON.stringify(`loading ${ending}\n`)})
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000)
    }
    return resolved
  }
})
`)
  return pathToFileURL(hook).href
}

/** Runs `smsbook ARGS` held at `ending`, and sends it SIGTERM once, when it says it loads that module. */
const stoppedWhileLoading = async (ending: string, args: ReadonlyArray<string>) => {
  const child = spawn(process.execPath, ["--import", holding(ending), bin, ...args], { cwd: dir, env: env(), stdio: ["ignore", "pipe", "pipe"] })
  let stdout = ""
  let stderr = ""
  let signalled = false
  child.stdout.on("data", (chunk: Buffer) => void (stdout += chunk.toString()))
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString()
    if (!signalled && stderr.includes(`loading ${ending}`)) signalled = child.kill("SIGTERM")
  })
  // A run that lost the signal (a server serving on) is stopped here, and fails the test.
  const guard = setTimeout(() => child.kill("SIGKILL"), 20_000)
  const [code, signal] = await once(child, "exit")
  clearTimeout(guard)
  return { code, signal, stdout, stderr }
}

it("SIGTERM while the command line loads: the interrupted message, one JSON document, exit 143", async () => {
  const { code, signal, stderr, stdout } = await stoppedWhileLoading("/src/Main.ts", ["contacts", "list", "--store", path.join(dir, "none.db"), "--json"])
  expect({ code, signal }, stderr).toEqual({ code: 143, signal: null })
  expect(stderr).toContain("error INTERRUPTED (2005): interrupted by SIGTERM")
  expect(JSON.parse(stdout)).toMatchObject({ error: { code: "INTERRUPTED", exit_code: 143 } })
  // Stopped before it ran: the command did nothing (it would have refused the missing book).
  expect(fs.existsSync(path.join(dir, "none.db"))).toBe(false)
}, 30_000)

it("SIGTERM while serve's launcher loads (before it starts the capped server): no server, the same message and document, exit 143", async () => {
  const book = path.join(dir, "serve.db")
  const { code, signal, stderr, stdout } = await stoppedWhileLoading("node:os", ["serve", "--store", book, "--port", "0", "--no-auth", "--short-name", "ACME", "--json"])
  expect({ code, signal }, stderr).toEqual({ code: 143, signal: null })
  expect(JSON.parse(stdout)).toMatchObject({ error: { code: "INTERRUPTED", exit_code: 143 } })
}, 30_000)

/** The pids of `pid`'s children (Linux), or none when they cannot be read. */
const childrenOf = (pid: number): ReadonlyArray<number> => {
  try {
    return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter((text) => text !== "").map(Number)
  } catch {
    return []
  }
}

it.skipIf(!fs.existsSync("/proc/self/task"))("SIGTERM to serve's launcher the moment it has started the server: the server still ends with the message and one document, exit 143", async () => {
  for (let round = 0; round < 3; round++) {
    const child = spawn(process.execPath, [bin, "serve", "--store", path.join(dir, "race.db"), "--port", "0", "--no-auth", "--short-name", "ACME", "--json"], {
      cwd: dir,
      env: env(),
      stdio: ["ignore", "pipe", "pipe"]
    })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk: Buffer) => void (stdout += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => void (stderr += chunk.toString()))
    const guard = setTimeout(() => child.kill("SIGKILL"), 20_000)
    // The moment the server process exists (before it can listen for signals itself), the launcher is told to stop.
    while (child.pid !== undefined && childrenOf(child.pid).length === 0 && child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 1))
    child.kill("SIGTERM")
    const [code] = await once(child, "exit")
    clearTimeout(guard)
    expect({ round, code }, stderr).toEqual({ round, code: 143 })
    expect(JSON.parse(stdout), stderr).toMatchObject({ error: { code: "INTERRUPTED", exit_code: 143 } })
  }
}, 60_000)
