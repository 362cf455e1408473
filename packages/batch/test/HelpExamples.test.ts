/**
 * Every example shown by `--help` runs as written: each command's examples, in order, in a fresh
 * directory holding a new book (two contacts, one opted out) and the sample files they name.
 */
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { Effect } from "effect"
import { Command } from "effect/cli"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Main from "../src/Main.ts"
import { bin, env as childEnv, samples } from "./cliProcess.ts"

let template = ""
const env = childEnv()

/** Runs a shell command line in `cwd`, with `smsbook` meaning this package's command line. */
const shell = (cwd: string, line: string) => {
  const script = `smsbook() { "${process.execPath}" "${bin}" "$@"; }\n${line}`
  const result = spawnSync("/bin/sh", ["-c", script], { cwd, encoding: "utf8", env, timeout: 120_000 })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

/** Every command with its full path, depth first. */
const walk = (command: Command.Command.Any, prefix: ReadonlyArray<string>): ReadonlyArray<{ readonly path: string; readonly examples: ReadonlyArray<string> }> => [
  { path: [...prefix, command.name].join(" "), examples: command.examples.map((example) => example.command) },
  ...command.subcommands.flatMap((group) => group.commands.flatMap((sub) => walk(sub, [...prefix, command.name])))
]

const withExamples = walk(await Effect.runPromise(Main.root()), []).filter((entry) => entry.examples.length > 0)

beforeAll(() => {
  template = fs.mkdtempSync(path.join(os.tmpdir(), "smsbook-examples-"))
  fs.cpSync(samples, path.join(template, "samples"), { recursive: true })
  fs.copyFileSync(path.join(samples, "contacts.csv"), path.join(template, "contacts.csv"))
  fs.copyFileSync(path.join(samples, "contacts.csv"), path.join(template, "export.csv"))
  const seed = shell(
    template,
    [
      "smsbook init --no-input",
      "smsbook contacts add 447400123456 --tags news,trial",
      "smsbook contacts add 447400123457 --tags news",
      "smsbook receive --msisdn 447400123457 --message STOP"
    ].join(" && ")
  )
  expect(seed.code, seed.stderr).toBe(0)
}, 300_000)

afterAll(() => fs.rmSync(template, { recursive: true, force: true }))

describe("--help examples", () => {
  it("there are examples to run, on the commands people start with", () => {
    const paths = withExamples.map((entry) => entry.path)
    for (const expected of ["smsbook init", "smsbook import", "smsbook contacts export", "smsbook broadcast", "smsbook report", "smsbook send"]) {
      expect(paths).toContain(expected)
    }
  })

  it.each(withExamples.map((entry) => [entry.path, entry.examples] as const))("%s: every example exits 0", (name, examples) => {
    const cwd = fs.mkdtempSync(path.join(os.tmpdir(), "smsbook-example-"))
    try {
      fs.cpSync(template, cwd, { recursive: true })
      // init's own example makes the book: it starts from a directory without one.
      if (name === "smsbook init") for (const file of ["smsbook.db", "smsbook.json"]) fs.rmSync(path.join(cwd, file), { force: true })
      for (const example of examples) {
        const ran = shell(cwd, example)
        expect(ran.code, `${example}\n${ran.stderr}`).toBe(0)
      }
    } finally {
      fs.rmSync(cwd, { recursive: true, force: true })
    }
  }, 600_000)
})

describe("--help says what the command writes", () => {
  it("suppressions export names the columns of its CSV", () => {
    const header = shell(template, "smsbook suppressions export").stdout.split("\n")[0] ?? ""
    const help = shell(template, "smsbook suppressions export --help").stdout
    expect(header.split(",").length).toBeGreaterThan(1)
    for (const column of header.split(",")) expect(help).toContain(column)
  }, 120_000)
})
