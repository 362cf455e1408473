/**
 * `smsbook import` as users run it: flags, the JSON summary, exit codes, standard input, the default rejects file,
 * and a real process killed mid-import leaving the SQLite store as it was. One file over 400 lines: each case runs the
 * command the same way (`runCommand`, the temporary books), and split by theme the cases would share that set-up.
 */
import { type Contact, ContactStore, InvalidParameter } from "@smsbook/core"
import { NodeServices } from "@effect/platform-node"
import { Store } from "@smsbook/store"
import { Console, Effect } from "effect"
import { Command } from "effect/cli"
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { afterAll, describe, expect, it } from "vitest"
import * as CliErrors from "../../src/CliErrors.ts"
import * as ImportCommand from "../../src/commands/ImportCommand.ts"
import * as RejectsFile from "../../src/internal/rejectsFile.ts"
import * as Output from "../../src/Output.ts"

const here = path.dirname(fileURLToPath(import.meta.url))
const repo = path.resolve(here, "../../../..")
const samples = path.join(repo, "samples")
const temporary = fs.mkdtempSync(path.join(os.tmpdir(), "smsbook-import-command-"))
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }))
let files = 0
const tempPath = (name: string) => path.join(temporary, `${++files}-${name}`)

// ---------------------------------------------------------------------------------------------
// In process: the command itself, with stdout captured

interface Ran {
  readonly code: Output.ExitCode
  readonly stdout: string
  readonly error: unknown
}

const runCommand = async (args: ReadonlyArray<string>): Promise<Ran> => {
  const lines: Array<string> = []
  const console: Console.Console = Object.assign(Object.create(globalThis.console), {
    log: (...parts: ReadonlyArray<unknown>) => lines.push(parts.join(" ")),
    error: () => undefined
  })
  const exit = await Command.runWith(ImportCommand.command, { version: "test" })(args).pipe(
    Effect.provide(NodeServices.layer),
    Effect.provideService(Console.Console, console),
    Effect.flip,
    Effect.map((error) => ({ code: Output.exitCodeOf(error), error })),
    Effect.catch(() => Effect.succeed({ code: Output.ExitCode.done, error: undefined })),
    Effect.runPromise
  )
  return { ...exit, stdout: lines.join("\n") }
}

const store = () => `sqlite:${tempPath("book.db")}`

const contactsOf = (url: string) =>
  Effect.runPromise(
    Effect.provide(
      Effect.gen(function*() {
        const contacts = yield* ContactStore.ContactStore
        const all: Array<Contact.Contact> = []
        for (let start = 0;; start += 1000) {
          const page = yield* contacts.list({ limit: 1000, start })
          all.push(...page)
          if (page.length < 1000) return all
        }
      }),
      Store.layer(url)
    )
  )

describe("smsbook import", () => {
  it("imports the clean sample into SQLite with a JSON summary, then finds it all unchanged", async () => {
    const url = store()
    const args = [path.join(samples, "contacts.csv"), "--default-country", "GB", "--store", url, "--json"]
    const first = await runCommand(args)
    expect(first.code).toBe(0)
    // The counts' rules are the job's (Import.test.ts); here, that the command's document carries them and its own fields.
    expect(JSON.parse(first.stdout)).toMatchObject({ read: 20, created: 20, rejected: 0, rejects_file: null, unknown_columns: [], dry_run: false })
    const second = await runCommand(args)
    expect(JSON.parse(second.stdout)).toMatchObject({ read: 20, unchanged: 20 })
    expect((await contactsOf(url)).length).toBe(20)
  })

  it("writes rejects beside the input by default, and prints a human summary", async () => {
    const input = tempPath("bad-rows.csv")
    fs.copyFileSync(path.join(samples, "bad-rows.csv"), input)
    const ran = await runCommand([input, "--default-country", "GB", "--store", store()])
    expect(ran.code).toBe(0)
    expect(ran.stdout).toContain("created 2, updated 1, unchanged 0, rejected 10")
    expect(ran.stdout).toContain(`${input}.rejects.csv`)
    expect(fs.readFileSync(`${input}.rejects.csv`, "utf8")).toContain("scientific-notation")
  })

  it("--dry-run reports and writes nothing to the store", async () => {
    const url = store()
    const ran = await runCommand([path.join(samples, "contacts.csv"), "--default-country", "GB", "--store", url, "--dry-run", "--json"])
    expect(JSON.parse(ran.stdout)).toMatchObject({ created: 20, dry_run: true, committed: false })
    expect(await contactsOf(url)).toEqual([])
  })

  it("--dry-run into a book that does not exist previews the first import and creates no book", async () => {
    const book = tempPath("book.db")
    const ran = await runCommand([path.join(samples, "contacts.csv"), "--default-country", "GB", "--store", book, "--dry-run", "--json"])
    expect(JSON.parse(ran.stdout)).toMatchObject({ read: 20, created: 20, dry_run: true, committed: false })
    expect(fs.readdirSync(path.dirname(book)).filter((name) => name.startsWith(path.basename(book)))).toEqual([])
    // Where the real run could not create the book, neither can the preview pretend to.
    const nowhere = tempPath("no-such-dir/book.db")
    const args = [path.join(samples, "contacts.csv"), "--default-country", "GB", "--store", nowhere, "--json"]
    const [real, preview] = [await runCommand(args), await runCommand([...args, "--dry-run"])]
    expect(real.error).toMatchObject({ _tag: "InvalidStoreUrl" })
    expect([preview.code, preview.error]).toEqual([real.code, real.error])
  })

  it("a --store that cannot name a new book is bad input naming --store, and no file is made (a typo of a nightly job)", async () => {
    const contacts = path.join(samples, "contacts.csv")
    const cwd = process.cwd()
    process.chdir(fs.mkdtempSync(path.join(temporary, "cwd-")))
    try {
      for (
        const [store, said] of [
          ["sqlte:book.db", /unknown scheme sqlte:/],
          ["memroy:", /unknown scheme memroy:/],
          ["postgres:/smsbook", /unknown scheme postgres:/],
          [path.join(temporary, "no-such-dir", "book.db"), /no-such-dir, which does not exist: create that folder/],
          [temporary, /is a directory/]
        ] as const
      ) {
        const ran = await runCommand([contacts, "--default-country", "GB", "--store", store, "--json"])
        expect(ran.code, store).toBe(Output.ExitCode.badInput)
        expect(ran.error, store).toMatchObject({ _tag: "InvalidStoreUrl" })
        expect(String(ran.error), store).toMatch(said)
        expect(Output.errorJson(ran.error).error, store).toMatchObject({ code: "INVALID_STORE_URL", field: "--store", exit_code: 2 })
        expect(fs.readdirSync("."), store).toEqual([])
      }
      // A new book whose file name has a colon in it is still made, when the path says it is one.
      const ran = await runCommand([contacts, "--default-country", "GB", "--store", "./sqlte:book.db", "--json"])
      expect(JSON.parse(ran.stdout)).toMatchObject({ created: 20 })
    } finally {
      process.chdir(cwd)
    }
  })

  it("a --store the file system will not look at (a loop of links, a name too long) fails opening, naming the store", async () => {
    const loop = tempPath("loop.db")
    fs.symlinkSync(loop, loop)
    for (const store of [loop, tempPath("b".repeat(300))]) {
      const ran = await runCommand([path.join(samples, "contacts.csv"), "--default-country", "GB", "--store", store, "--json"])
      expect(ran.error, store).toMatchObject({ _tag: "StoreUnavailable" })
      expect(Output.errorJson(ran.error).error, store).toMatchObject({ code: "STORE_UNAVAILABLE", exit_code: 1 })
    }
  })

  it("a first import that fails leaves no book behind (a mistyped path must not become a book others accept)", async () => {
    const broken = tempPath("broken.csv")
    fs.writeFileSync(broken, "msisdn,first_name\n07400123201,\"Ann\"x\n")
    for (
      const args of [
        [path.join(samples, "contacts.csv"), "--default-country", "XX"],
        [path.join(samples, "contacts.csv"), "--default-country", "GB", "--map", "Nope=msisdn"],
        [broken, "--default-country", "GB"],
        [path.join(samples, "bad-rows.csv"), "--default-country", "GB", "--max-rejects", "0"]
      ]
    ) {
      const book = tempPath("typo.db")
      const ran = await runCommand([...args, "--store", `sqlite:${book}`, "--rejects", tempPath("rejects.csv")])
      expect(ran.code, args.join(" ")).not.toBe(Output.ExitCode.done)
      expect(fs.readdirSync(path.dirname(book)).filter((name) => name.startsWith(path.basename(book))), args.join(" ")).toEqual([])
    }
  })

  it("a dry run removes the temporary books of dry runs killed before it, and only those", async () => {
    const exited = spawn(process.execPath, ["-e", ""])
    const dead = await new Promise<number>((resolve) => exited.once("exit", () => resolve(exited.pid ?? 0)))
    const orphan = fs.mkdtempSync(path.join(os.tmpdir(), `smsbook-preview-${dead}-`))
    const alive = fs.mkdtempSync(path.join(os.tmpdir(), `smsbook-preview-${process.ppid}-`))
    try {
      await runCommand([path.join(samples, "contacts.csv"), "--default-country", "GB", "--store", tempPath("none.db"), "--dry-run", "--json"])
      expect(fs.existsSync(orphan)).toBe(false)
      expect(fs.existsSync(alive)).toBe(true)
    } finally {
      fs.rmSync(orphan, { recursive: true, force: true })
      fs.rmSync(alive, { recursive: true, force: true })
    }
  })

  it("over --max-rejects: exit code 3 with the summary in the error, and the store unchanged", async () => {
    const url = store()
    const rejects = tempPath("rejects.csv")
    const ran = await runCommand([
      path.join(samples, "bad-rows.csv"), "--default-country", "GB", "--store", url, "--max-rejects", "50%", "--rejects", rejects, "--json"
    ])
    expect(ran.code).toBe(Output.ExitCode.tooManyRejects)
    expect(ran.error).toBeInstanceOf(CliErrors.TooManyRejects)
    // With --json the one document is the error's (printed by the entry point), which carries the summary.
    expect(ran.stdout).toBe("")
    expect(Output.errorJson(ran.error).error).toMatchObject({
      code: "TOO_MANY_REJECTS",
      summary: { rejected: 10, max_rejects_exceeded: true, committed: false, rejects_file: rejects }
    })
    expect(await contactsOf(url)).toEqual([])
  })

  it("--tags and --map apply to every row", async () => {
    const input = tempPath("mapped.csv")
    fs.writeFileSync(input, "Who,Cell Phone,Home\nAnn,07400 100001,07400 999999\n")
    const url = store()
    const ran = await runCommand([input, "--default-country", "gb", "--store", url, "--map", "Cell Phone=msisdn", "--map", "Who=first_name", "--tags", "a, b", "--json"])
    expect(JSON.parse(ran.stdout)).toMatchObject({ created: 1, unknown_columns: ["Home"] })
    expect(await contactsOf(url)).toMatchObject([{ msisdn: "447400100001", first_name: "Ann", tags: ["a", "b"] }])
  })

  it("bad usage is exit code 2: no such file, an unknown encoding, a bad --max-rejects or country", async () => {
    const contacts = path.join(samples, "contacts.csv")
    for (
      const args of [
        [tempPath("missing.csv"), "--store", "memory:"],
        [temporary, "--store", "memory:"],
        [contacts, "--encoding", "klingon", "--store", "memory:"],
        [contacts, "--max-rejects", "lots", "--store", "memory:"],
        [contacts, "--default-country", "Atlantis", "--store", "memory:"],
        [contacts, "--map", "Nope=msisdn", "--store", "memory:"]
      ]
    ) {
      expect((await runCommand(args)).code, args.join(" ")).toBe(Output.ExitCode.badInput)
    }
  })

  it("a --rejects path that cannot be written is exit code 2, naming it, before anything is imported", async () => {
    const url = store()
    const rejects = path.join(temporary, "no-such-directory", "r.csv")
    const ran = await runCommand([path.join(samples, "bad-rows.csv"), "--default-country", "GB", "--rejects", rejects, "--tags", "newtag", "--store", url])
    expect(ran.code).toBe(Output.ExitCode.badInput)
    expect(ran.error).toBeInstanceOf(InvalidParameter)
    expect(ran.error).toMatchObject({ parameter: "--rejects", value: rejects })
    expect(String(ran.error)).toContain("no such directory")
    expect(await contactsOf(url)).toEqual([])
  })

  it("the default rejects file beside the input that cannot be written: the error says it was the default, and the flag to give", async () => {
    const input = tempPath("contacts.csv")
    fs.copyFileSync(path.join(samples, "contacts.csv"), input)
    // Beside an input in a folder the job may only read, or (here) where something else already has the name.
    fs.mkdirSync(`${input}.rejects.csv`)
    const url = store()
    const ran = await runCommand([input, "--default-country", "GB", "--store", url])
    expect(ran.code).toBe(Output.ExitCode.badInput)
    expect(ran.error).toMatchObject({ parameter: "--rejects", value: `${input}.rejects.csv` })
    expect(String(ran.error)).toContain("is a directory")
    expect(String(ran.error)).toContain("the default rejects file, beside FILE, as --rejects was not given: give --rejects a path that can be written")
    // Given, the flag is the user's own, and its error says no more than what is wrong with it.
    const given = await runCommand([input, "--default-country", "GB", "--store", url, "--rejects", `${input}.rejects.csv`])
    expect(String(given.error)).not.toContain("default")
  })

  it("standard input's default rejects file that cannot be written: the error says it was the default, in the working directory", async () => {
    const cwd = process.cwd()
    const folder = fs.mkdtempSync(path.join(temporary, "cwd-"))
    fs.mkdirSync(path.join(folder, RejectsFile.defaultPath("-")))
    process.chdir(folder)
    try {
      const ran = await runCommand(["-", "--default-country", "GB", "--store", store()])
      expect(ran.code).toBe(Output.ExitCode.badInput)
      expect(String(ran.error)).toContain("the default rejects file, in the working directory, as --rejects was not given")
    } finally {
      process.chdir(cwd)
    }
  })
})

// ---------------------------------------------------------------------------------------------
// As a process: standard input, exit codes, and SIGKILL in the middle of an import

/** The Node 24 that runs .ts files: vitest's own when it is 24, else the workspace's pinned one. */
const node = Number(process.versions.node.split(".")[0]) >= 24 ? process.execPath : path.join(repo, "node_modules/.bin/node")

/** The CLI entry: `bin.ts` once `import` is registered in Main.ts, else a runner of this command alone. */
const entry = (() => {
  const main = fs.readFileSync(path.join(repo, "packages/batch/src/Main.ts"), "utf8")
  if (main.includes("ImportCommand")) return [path.join(repo, "packages/batch/src/bin.ts")]
  const runner = path.join(temporary, "runner.ts")
  const url = (file: string) => pathToFileURL(path.join(repo, file)).href
  fs.writeFileSync(
    runner,
    [
      `import { NodeServices } from ${JSON.stringify(url("node_modules/@effect/platform-node/dist/index.js"))}`,
      `import { Cause, Effect, Exit } from ${JSON.stringify(url("node_modules/effect/dist/index.js"))}`,
      `import { CliError, Command } from ${JSON.stringify(url("node_modules/effect/dist/cli/index.js"))}`,
      `import * as CliErrors from "../../src/CliErrors.ts"
import * as ImportCommand from ${JSON.stringify(url("packages/batch/src/commands/ImportCommand.ts"))}`,
      `import * as Output from ${JSON.stringify(url("packages/batch/src/Output.ts"))}`,
      `const root = Command.make("smsbook").pipe(Command.withSubcommands([ImportCommand.command]))`,
      `const exit = await Effect.runPromise(Effect.exit(Effect.provide(Command.runWith(root, { version: "0" })(process.argv.slice(2)), NodeServices.layer)))`,
      `if (Exit.isFailure(exit)) {`,
      `  const found = Cause.findErrorOption(exit.cause)`,
      `  const error = found._tag === "Some" ? found.value : undefined`,
      `  if (error !== undefined && !CliError.isCliError(error)) console.error(Output.describeError(error))`,
      `  process.exitCode = error === undefined ? 1 : CliError.isCliError(error) ? 2 : Output.exitCodeOf(error)`,
      `}`
    ].join("\n")
  )
  return [runner]
})()

interface Process {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly stdout: string
  readonly stderr: string
}

/** Runs `smsbook import`; its standard input gets `stdin`, then ends unless `keepOpen` (the test feeds the rest). */
const start = (args: ReadonlyArray<string>, stdin = "", keepOpen = false) => {
  const child = spawn(node, [...entry, "import", ...args], { cwd: temporary, stdio: ["pipe", "pipe", "pipe"] })
  let stdout = ""
  let stderr = ""
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
  // A killed child closes its end of the pipe: what was still buffered for it is dropped, not an error here.
  child.stdin.on("error", () => undefined)
  if (keepOpen) child.stdin.write(stdin)
  else child.stdin.end(stdin)
  const done = new Promise<Process>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }))
  )
  return { child, done, stderr: () => stderr }
}

const cli = (args: ReadonlyArray<string>, stdin?: string) => start(args, stdin).done

/** A contact file of `rows` valid GB mobiles (2 in 1000 rejected), deterministic. */
const bigFile = (rows: number): string => {
  const file = tempPath("big.csv")
  const lines = ["mobile,first name,last name,tags"]
  for (let i = 0; i < rows; i++) {
    const number = i % 500 === 7 ? "4.47E+11" : `07400 ${String(100000 + ((i * 7919) % 899999)).padStart(6, "0")}`
    lines.push(`${number},First${i % 97},Last${i % 89},"t${i % 5},all"`)
  }
  fs.writeFileSync(file, lines.join("\n") + "\n")
  return file
}

/** What a contact is, less the random profile id. */
const comparable = (contacts: ReadonlyArray<Contact.Contact>) => contacts.map(({ profile_uid: _, ...rest }) => rest)

describe("smsbook import (process)", () => {
  it("reads standard input with -, and rejects go to ./smsbook-rejects.csv", async () => {
    const ran = await cli(["-", "--default-country", "GB", "--store", "memory:", "--json"], "phone\n07400 100001\nnope\n")
    expect(ran.code).toBe(0)
    expect(JSON.parse(ran.stdout)).toMatchObject({ read: 2, created: 1, rejected: 1, rejects_file: "smsbook-rejects.csv" })
    expect(fs.readFileSync(path.join(temporary, "smsbook-rejects.csv"), "utf8")).toContain("not-a-number")
  })

  it("--rejects - sends the rejects to standard output after the import, the summary to stderr; no file named -", async () => {
    const input = "phone\n07400 100001\nnope\n"
    const ran = await cli(["-", "--default-country", "GB", "--store", "memory:", "--rejects", "-"], input)
    expect(ran.code, ran.stderr).toBe(0)
    // Standard output is the rejects file and nothing else: its header, then line 3 of the input.
    expect(ran.stdout).toMatch(/^\uFEFFline,reason,message,phone\n3,not-a-number,[^\n]+,nope\n$/)
    expect(ran.stderr).toContain("created 1")
    expect(ran.stderr).toContain("rejected: 1 not-a-number → -")
    expect(fs.existsSync(path.join(temporary, "-"))).toBe(false)
    // Over --max-rejects the rejects still come (they are what to fix), and the exit code says nothing was imported.
    const over = await cli(["-", "--default-country", "GB", "--store", "memory:", "--rejects", "-", "--max-rejects", "0"], input)
    expect(over.code).toBe(3)
    expect(over.stdout).toBe(ran.stdout)
    expect(fs.existsSync(path.join(temporary, "-"))).toBe(false)
  })

  it("with --json, a --rejects that is standard output (-, /dev/stdout) is refused, exit 2, and nothing is imported", async () => {
    const book = tempPath("json-rejects.db")
    const seeded = await cli([path.join(samples, "contacts.csv"), "--default-country", "GB", "--store", `sqlite:${book}`, "--json"])
    expect(seeded.code).toBe(0)
    const before = await contactsOf(`sqlite:${book}`)
    const stdouts = fs.existsSync("/dev/stdout") ? ["-", "/dev/stdout"] : ["-"]
    for (const rejects of stdouts) {
      const ran = await cli(["-", "--default-country", "GB", "--store", `sqlite:${book}`, "--rejects", rejects, "--json"], "phone\n07400 100001\nnope\n")
      expect(ran.code, rejects).toBe(2)
      // Standard output is the one JSON document: the refusal, naming the flag, and no CSV before or after it.
      expect(JSON.parse(ran.stdout), rejects).toMatchObject({ error: { code: "INVALID_PARAMETER", field: "--rejects", exit_code: 2 } })
      expect(ran.stdout).not.toContain("line,reason,message")
    }
    expect(fs.existsSync(path.join(temporary, "-"))).toBe(false)
    expect(await contactsOf(`sqlite:${book}`)).toEqual(before)
  })

  it("exits 3 over --max-rejects and 2 for a file without a phone column", async () => {
    const bad = await cli([path.join(samples, "bad-rows.csv"), "--default-country", "GB", "--store", "memory:", "--max-rejects", "3", "--rejects", tempPath("r.csv")])
    expect(bad.code).toBe(3)
    expect(bad.stderr).toContain("TOO_MANY_REJECTS")
    expect(bad.stdout).toContain("nothing imported from")
    const asJson = await cli([path.join(samples, "bad-rows.csv"), "--default-country", "GB", "--store", "memory:", "--max-rejects", "3", "--rejects", tempPath("r.csv"), "--json"])
    expect(asJson.code).toBe(3)
    expect(JSON.parse(asJson.stdout)).toMatchObject({ error: { code: "TOO_MANY_REJECTS", number: 1018, summary: { committed: false } } })
    const noPhone = await cli(["-", "--store", "memory:"], "name,email\nAnn,a@b.c\n")
    expect(noPhone.code).toBe(2)
    expect(noPhone.stderr).toContain("no column of the header is a phone number")
  })

  it("the launcher reads a file over the worker threshold on a worker started from the sources under its compile cache", async () => {
    const rows = 120_000
    const input = bigFile(rows)
    expect(fs.statSync(input).size).toBeGreaterThan(4 << 20)
    const launcher = path.join(repo, "packages/batch/bin/smsbook.js")
    const child = spawn(node, [launcher, "import", input, "--default-country", "GB", "--store", `sqlite:${tempPath("launched.db")}`, "--json"], {
      cwd: temporary,
      env: { ...process.env, NODE_COMPILE_CACHE: tempPath("compile-cache") },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve))
    expect(code, stderr).toBe(0)
    expect(JSON.parse(stdout)).toMatchObject({ read: rows, rejected: rows / 500 })
  }, 120_000)

  it("killed with SIGKILL mid-import, the store is as before; a re-run ends as one clean run", async () => {
    const rows = 20_000
    const input = bigFile(rows)
    const killedUrl = `sqlite:${tempPath("killed.db")}`
    const cleanUrl = `sqlite:${tempPath("clean.db")}`
    const seed = [path.join(samples, "contacts.csv"), "--default-country", "GB", "--json"]
    expect((await cli([...seed, "--store", killedUrl])).code).toBe(0)
    expect((await cli([...seed, "--store", cleanUrl])).code).toBe(0)
    const before = await contactsOf(killedUrl)

    // The import reads standard input, fed only half the file and never ended: it cannot finish, so the kill
    // lands mid-import however fast the machine. It comes once the rejects of a third batch reached the partial
    // rejects file (rejects 7 and 507, one per 500 rows): by then two batches were written in the transaction.
    const rejects = tempPath("big.rejects.csv")
    const options = ["--default-country", "GB", "--rejects", rejects, "--json"]
    const lines = fs.readFileSync(input, "utf8").split("\n")
    const half = lines.slice(0, 1 + rows / 2).join("\n") + "\n"
    const running = start(["-", ...options, "--store", killedUrl], half, true)
    const partial = `${rejects}.${running.child.pid}.partial`
    let exited = false
    void running.done.then(() => (exited = true))
    const rejectedSoFar = () => fs.existsSync(partial) ? fs.readFileSync(partial, "utf8").split("\n").length - 2 : 0
    while (rejectedSoFar() < 2) {
      if (exited) throw new Error(`the import ended with half its input and no end of it: ${running.stderr()}`)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    running.child.kill("SIGKILL")
    const killed = await running.done
    expect(killed.signal).toBe("SIGKILL")
    expect(fs.existsSync(partial)).toBe(true)
    expect(comparable(await contactsOf(killedUrl))).toEqual(comparable(before))

    const args = [input, ...options]
    const rerun = await cli([...args, "--store", killedUrl])
    const clean = await cli([...args, "--store", cleanUrl])
    expect(rerun.code).toBe(0)
    expect(clean.code).toBe(0)
    expect(JSON.parse(rerun.stdout)).toMatchObject({ read: rows, rejected: rows / 500 })
    expect(fs.existsSync(partial)).toBe(false)
    expect(comparable(await contactsOf(killedUrl))).toEqual(comparable(await contactsOf(cleanUrl)))
  }, 180_000)
})
