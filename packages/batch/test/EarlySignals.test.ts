/**
 * A signal that comes while the command line is still loading: the run ends with the INTERRUPTED message and, with
 * `--json`, its document, exit 143 — where Node used to die of it silently. The loading is held open by a module hook
 * that pauses when `Main.ts` is resolved and says so, so the signal lands inside it every time.
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

/** Pauses 1 s when the command line resolves its `Main.ts`, after a line on stderr that says it loads it. */
const holdMain = `import { registerHooks } from "node:module"
import { writeSync } from "node:fs"
registerHooks({
  resolve: (specifier, context, next) => {
    const resolved = next(specifier, context)
    if (resolved.url.endsWith("/src/Main.ts")) {
      writeSync(2, "loading Main\\n")
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000)
    }
    return resolved
  }
})
`

it("SIGTERM while the command line loads: the interrupted message, one JSON document, exit 143", async () => {
  const hook = path.join(dir, "holdMain.mjs")
  fs.writeFileSync(hook, holdMain)
  const child = spawn(process.execPath, ["--import", pathToFileURL(hook).href, bin, "contacts", "list", "--store", path.join(dir, "none.db"), "--json"], {
    cwd: dir,
    env: env(),
    stdio: ["ignore", "pipe", "pipe"]
  })
  let stdout = ""
  let stderr = ""
  child.stdout.on("data", (chunk: Buffer) => void (stdout += chunk.toString()))
  let signalled = false
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString()
    if (!signalled && stderr.includes("loading Main")) signalled = child.kill("SIGTERM")
  })
  const [code, signal] = await once(child, "exit")
  expect({ code, signal }, stderr).toEqual({ code: 143, signal: null })
  expect(stderr).toContain("error INTERRUPTED (2005): interrupted by SIGTERM")
  expect(JSON.parse(stdout)).toMatchObject({ error: { code: "INTERRUPTED", exit_code: 143 } })
  // Stopped before it ran: the command did nothing (it would have refused the missing book).
  expect(fs.existsSync(path.join(dir, "none.db"))).toBe(false)
}, 30_000)
