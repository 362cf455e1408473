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
  it("every source target of package.json's exports, and the bin, exists", () => {
    type Target = string | null | { readonly "@smsbook/source"?: string }
    const manifest: { exports: Record<string, Target>; bin: Record<string, string> } = JSON.parse(
      fs.readFileSync(path.join(root, "package.json"), "utf8")
    )
    // Published targets (dist/) exist only after a build; development runs the sources named by the condition.
    const sources = Object.values(manifest.exports).map((target) => typeof target === "object" && target !== null ? target["@smsbook/source"] : target)
    const targets = [...sources, ...Object.values(manifest.bin)].filter((target) => typeof target === "string")
    expect(targets.length).toBeGreaterThan(1)
    for (const target of targets) expect([target, fs.existsSync(path.join(root, target))]).toEqual([target, true])
  })

  it("the package root exports the jobs, the command line and its errors", () => {
    expect(Object.keys(Batch).sort()).toEqual(
      ["Broadcast", "BroadcastPlan", "CliErrors", "FileFailure", "Import", "Inspection", "InvalidSettings", "Main", "PlanMismatch", "Report", "TooManyRejects"]
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
