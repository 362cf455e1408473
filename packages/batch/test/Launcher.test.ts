/**
 * The `smsbook` launcher on a Node too old for it (a supervisor's PATH with the system's `node` first): one sentence
 * saying which node ran it and what it needs, exit 1, instead of a SyntaxError from a module it could not load.
 */
import { spawnSync } from "node:child_process"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { env } from "./cliProcess.ts"

const launcher = path.resolve(import.meta.dirname, "../bin/smsbook.js")

/** Runs the launcher with `process.versions.node` reading `version`, as an older Node's would. */
const runAs = (version: string) => {
  const pretend = `Object.defineProperty(process, "versions", { value: { ...process.versions, node: ${JSON.stringify(version)} } })`
  const ran = spawnSync(process.execPath, ["--import", `data:text/javascript,${encodeURIComponent(pretend)}`, launcher, "--version"], {
    encoding: "utf8",
    env: env(),
    timeout: 60_000
  })
  return { code: ran.status, stdout: ran.stdout, stderr: ran.stderr }
}

describe("the launcher's Node", () => {
  it("an older Node than a clone runs on is refused in one sentence naming it (exit 1), before anything loads", () => {
    for (const version of ["20.20.2", "22.19.0", "23.11.0"]) {
      const ran = runAs(version)
      expect(ran.code, version).toBe(1)
      expect(ran.stdout).toBe("")
      expect(ran.stderr).toBe(`smsbook needs Node.js 24 or later, and ${process.execPath} is v${version}: put a newer node first on PATH (the clone's own: node_modules/.bin), or run it through npx\n`)
    }
  })

  it("Node 24 runs it", () => {
    const ran = runAs("24.0.0")
    expect([ran.code, ran.stdout]).toEqual([0, expect.stringMatching(/^smsbook v\d+\.\d+\.\d+/)])
  })
})
