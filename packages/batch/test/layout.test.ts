/**
 * The shape of the package a newcomer relies on: the `exports` map names files that exist, and
 * commands are thin leaves that never import one another.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import * as Batch from "../src/index.ts"

const root = path.resolve(import.meta.dirname, "..")
const commands = path.join(root, "src/commands")

describe("package layout", () => {
  it("every target of package.json's exports and bin exists", () => {
    const manifest: { exports: Record<string, string | null>; bin: Record<string, string> } = JSON.parse(
      fs.readFileSync(path.join(root, "package.json"), "utf8")
    )
    const targets = [...Object.values(manifest.exports), ...Object.values(manifest.bin)].filter((target) => target !== null)
    expect(targets.length).toBeGreaterThan(1)
    for (const target of targets) expect([target, fs.existsSync(path.join(root, target))]).toEqual([target, true])
  })

  it("the package root exports the jobs and the command line's errors", () => {
    expect(Object.keys(Batch).sort()).toEqual(
      ["Broadcast", "BroadcastPlan", "CliErrors", "FileFailure", "Import", "Inspection", "InvalidSettings", "PlanMismatch", "Report", "TooManyRejects"]
    )
    expect(typeof Batch.Import.run).toBe("function")
  })

  it("a command imports no other command, and exports its command", async () => {
    const files = fs.readdirSync(commands).filter((file) => file.endsWith(".ts"))
    expect(files.length).toBeGreaterThanOrEqual(8)
    for (const file of files) {
      const text = fs.readFileSync(path.join(commands, file), "utf8")
      const siblings = [...text.matchAll(/from "\.\/([^"]+)"/g)].map((match) => match[1])
      expect([file, siblings]).toEqual([file, []])
      const module: { readonly command?: unknown } = await import(path.join(commands, file))
      expect([file, module.command === undefined]).toEqual([file, false])
    }
  })
})
