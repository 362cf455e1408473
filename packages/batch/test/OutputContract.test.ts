/**
 * The output contract of the real `smsbook` process: with `--json`, stdout is exactly one JSON
 * document in every outcome of every command, and the exit code is the documented one. Over 400 lines
 * (463): every case runs against the one book and smsbook.json the first case creates, in order, so
 * split files would each have to build that state again.
 */
import { spawn, spawnSync } from "node:child_process"
import { once } from "node:events"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { bin, env, samples } from "./cliProcess.ts"

// Every step is a process: on a loaded machine a test of several steps needs minutes, not seconds.
vi.setConfig({ testTimeout: 300_000 })

let dir = ""

const run = (args: ReadonlyArray<string>, input?: string) => {
  const result = spawnSync(process.execPath, [bin, ...args], { cwd: dir, encoding: "utf8", env: env(), timeout: 60_000, input })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

/** Runs with `--json` and parses stdout as one document (JSON.parse refuses two, or none). */
const document = (args: ReadonlyArray<string>, input?: string) => {
  const ran = run([...args, "--json"], input)
  let parsed: unknown
  expect(() => (parsed = JSON.parse(ran.stdout)), `stdout of ${args.join(" ")}:\n${ran.stdout}\nstderr:\n${ran.stderr}`).not.toThrow()
  return { code: ran.code, doc: parsed as Record<string, unknown> & { error?: Record<string, unknown> }, stderr: ran.stderr }
}

const book = () => path.join(dir, "book.db")

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "smsbook-contract-"))
})

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

describe("--json: one document on stdout, every outcome", () => {
  it("init creates the book and smsbook.json; a second init without --force is refused (2)", () => {
    const created = document(["init", "--no-input", "--store", book(), "--short-name", "ACME", "--time-zone", "Europe/London"])
    expect(created.code).toBe(0)
    expect(created.doc).toMatchObject({ store_created: true, settings: { short_name: "ACME" } })
    expect(JSON.parse(fs.readFileSync(path.join(dir, "smsbook.json"), "utf8"))).toMatchObject({ short_name: "ACME", store: book() })
    const again = document(["init", "--no-input"])
    expect(again.code).toBe(2)
    expect(again.doc.error).toMatchObject({ code: "INVALID_PARAMETER", field: "--force" })
  })

  it("init --force never writes smsbook.json over the book (a book named so, or linked to by it): refused (2)", () => {
    const other = fs.mkdtempSync(path.join(os.tmpdir(), "smsbook-init-"))
    try {
      const init = (args: ReadonlyArray<string>) => {
        const ran = spawnSync(process.execPath, [bin, "init", "--no-input", "--json", "--short-name", "ACME", ...args], { cwd: other, encoding: "utf8", env: env(), timeout: 60_000 })
        return { code: ran.status, error: (JSON.parse(ran.stdout) as { error?: Record<string, unknown> }).error }
      }
      expect(init(["--store", "book.db"]).code).toBe(0)
      const bookBytes = fs.readFileSync(path.join(other, "book.db"))
      fs.rmSync(path.join(other, "smsbook.json"))
      fs.symlinkSync("book.db", path.join(other, "smsbook.json"))
      expect(init(["--store", "book.db", "--force"])).toMatchObject({ code: 2, error: { code: "INVALID_PARAMETER", field: "--store" } })
      fs.rmSync(path.join(other, "smsbook.json"))
      fs.copyFileSync(path.join(other, "book.db"), path.join(other, "smsbook.json"))
      expect(init(["--store", "smsbook.json", "--force"])).toMatchObject({ code: 2, error: { code: "INVALID_PARAMETER", field: "--store" } })
      expect(fs.readFileSync(path.join(other, "book.db")).equals(bookBytes)).toBe(true)
      expect(fs.readFileSync(path.join(other, "smsbook.json")).equals(bookBytes)).toBe(true)
      fs.rmSync(path.join(other, "smsbook.json"))
      expect(init(["--store", "smsbook.json"])).toMatchObject({ code: 2, error: { field: "--store" } })
      expect(fs.existsSync(path.join(other, "smsbook.json"))).toBe(false)
    } finally {
      fs.rmSync(other, { recursive: true, force: true })
    }
  })

  it("an smsbook.json that is there but cannot be read is refused (2), not skipped for a new ./smsbook.db", () => {
    const other = fs.mkdtempSync(path.join(os.tmpdir(), "smsbook-settings-"))
    try {
      // A directory named so (a permission error reads the same, but root reads any file).
      fs.mkdirSync(path.join(other, "smsbook.json"))
      fs.writeFileSync(path.join(other, "c.csv"), "msisdn\n447400123456\n")
      const ran = spawnSync(process.execPath, [bin, "import", "c.csv", "--json"], { cwd: other, encoding: "utf8", env: env(), timeout: 60_000 })
      expect(ran.status).toBe(2)
      expect(JSON.parse(ran.stdout).error).toMatchObject({ code: "INVALID_SETTINGS", field: "smsbook.json" })
      expect(String(JSON.parse(ran.stdout).error.message)).toContain("cannot be read: is a directory")
      expect(fs.existsSync(path.join(other, "smsbook.db"))).toBe(false)
      // A link to nothing is a file meant to be read, too.
      fs.rmdirSync(path.join(other, "smsbook.json"))
      fs.symlinkSync("moved/smsbook.json", path.join(other, "smsbook.json"))
      const dangling = spawnSync(process.execPath, [bin, "import", "c.csv", "--json"], { cwd: other, encoding: "utf8", env: env(), timeout: 60_000 })
      expect(dangling.status).toBe(2)
      expect(JSON.parse(dangling.stdout).error).toMatchObject({ code: "INVALID_SETTINGS", field: "smsbook.json" })
      expect(fs.existsSync(path.join(other, "smsbook.db"))).toBe(false)
    } finally {
      fs.rmSync(other, { recursive: true, force: true })
    }
  })

  it("standard output that fails is said in words (a full disk: exit 1), or ends the run quietly (its reader gone)", async () => {
    const importArgs = ["import", path.join(samples, "contacts.csv"), "--default-country", "GB", "--store", `sqlite:${path.join(dir, "stdout.db")}`, "--json"]
    const full = spawnSync(process.execPath, [bin, ...importArgs], { cwd: dir, encoding: "utf8", env: env(), timeout: 60_000, stdio: ["ignore", fs.openSync("/dev/full", "w"), "pipe"] })
    expect(full.status).toBe(1)
    expect(full.stderr).toContain("standard output could not be written (no space left on the device): what the command did stands")
    expect(full.stderr).not.toMatch(/\n\s+at /)
    // The reader of a pipe that closes at once: the export stops without a word, and without a stack trace.
    const child = spawn(process.execPath, [bin, "contacts", "export", "--store", `sqlite:${path.join(dir, "stdout.db")}`, "--json"], { cwd: dir, env: env(), stdio: ["ignore", "pipe", "pipe"] })
    child.stdout.destroy()
    let stderr = ""
    child.stderr.on("data", (chunk: Buffer) => void (stderr += chunk.toString()))
    const [code] = await once(child, "exit")
    expect(code).toBe(0)
    expect(stderr).not.toMatch(/\n\s+at /)
  })

  it("a typo'd store is refused (2) naming the path and how to create a book, and nothing is created", () => {
    for (const args of [["contacts", "list"], ["messages", "list"], ["report"], ["keys", "list"], ["send", "--to", "447400123456", "--message", "hi"]]) {
      const refused = document([...args, "--store", "contcts.db"])
      expect(refused.code, args.join(" ")).toBe(2)
      expect(refused.doc.error).toMatchObject({ code: "STORE_NOT_FOUND", number: 1019, field: "--store" })
      expect(String(refused.doc.error?.message)).toContain("smsbook init")
    }
    expect(fs.existsSync(path.join(dir, "contcts.db"))).toBe(false)
    // An empty file is no book either: SQLite would have made one of it.
    fs.writeFileSync(path.join(dir, "empty.db"), "")
    const empty = document(["messages", "list", "--store", "empty.db"]).doc.error
    expect(empty).toMatchObject({ code: "STORE_NOT_FOUND" })
    expect(fs.statSync(path.join(dir, "empty.db")).size).toBe(0)
  })

  it("a malformed store URL exits 2", () => {
    for (const url of ["postgres://user@host:99999/db", "postgres://", "ftp://x/y", "postgres://u:p%ZZ@127.0.0.1/db", "postgres://u@127.0.0.1/d%Zb"]) {
      const refused = document(["contacts", "list", "--store", url])
      expect(refused.code, url).toBe(2)
      expect(refused.doc.error).toMatchObject({ code: "INVALID_STORE_URL" })
      // The password is never shown, broken or not.
      expect(JSON.stringify(refused.doc), url).not.toContain("p%ZZ")
    }
  })

  it("usage errors: missing, unknown and bad flags, unknown subcommands — exit 2, help on stderr only", () => {
    const cases: ReadonlyArray<readonly [ReadonlyArray<string>, string | undefined]> = [
      [["send", "--message", "hi"], "--to"],
      [["contacts", "list", "--bogus"], "--bogus"],
      [["contacts", "export", "--status", ""], "--status"],
      [["messages", "list", "--direction", " "], "--direction"],
      [["contacts", "frobnicate"], undefined],
      [["contacts", "get"], undefined],
      [["report", "--format", "xml"], "--format"]
    ]
    for (const [args, field] of cases) {
      const refused = document(args)
      expect(refused.code, args.join(" ")).toBe(2)
      expect(refused.doc.error).toMatchObject({ code: "USAGE", number: 1020 })
      if (field !== undefined) expect(refused.doc.error?.field, args.join(" ")).toBe(field)
      expect(refused.stderr).toContain("USAGE")
    }
  })

  it("help and version are documents too; without --json, help is on stdout", () => {
    const help = document(["contacts", "export", "--help"])
    expect(help.code).toBe(0)
    expect(help.doc).toMatchObject({ help: { command: "smsbook contacts export" } })
    expect(help.stderr).toContain("--format")
    expect(document(["--version"]).doc).toEqual({ version: expect.stringMatching(/^\d+\.\d+\.\d+/) })
    expect(run(["contacts", "--help"]).stdout).toContain("export")
  })

  it("contacts: add, get, edit (tags set/add/remove), list, rm, and their failures", () => {
    expect(document(["contacts", "add", "07400 123456", "--default-country", "GB", "--tags", "news,trial"]).doc)
      .toMatchObject({ msisdn: "447400123456", tags: ["news", "trial"] })
    expect(document(["contacts", "edit", "447400123456", "--add-tags", "vip", "--remove-tags", "TRIAL"]).doc)
      .toMatchObject({ tags: ["news", "vip"] })
    expect(document(["contacts", "edit", "447400123456", "--tags", "only"]).doc).toMatchObject({ tags: ["only"] })
    expect(document(["contacts", "get", "07400123456", "--default-country", "GB"]).doc).toMatchObject({ msisdn: "447400123456" })
    expect(document(["contacts", "list"]).doc).toHaveLength(1)
    // Filter values read as the interface's parameters are: any case, the samples' SUSCRIBED.
    for (const status of ["subscribed", "Suscribed"]) expect(document(["contacts", "list", "--status", status]).doc).toHaveLength(1)
    expect(document(["contacts", "export", "--status", "cancelled"]).doc).toEqual([])
    expect(document(["messages", "list", "--direction", "mo"]).code).toBe(0)
    for (const args of [["contacts", "export", "--status", "gone"], ["contacts", "list", "--status", "HAPPY"], ["messages", "list", "--direction", "up"]]) {
      const refused = document(args)
      expect([args, refused.code, refused.doc.error?.code, refused.doc.error?.field]).toEqual([args, 2, "INVALID_PARAMETER", args[2]])
    }
    const missing = document(["contacts", "get", "447400999999"])
    expect([missing.code, missing.doc.error?.code]).toEqual([1, "CONTACT_NOT_FOUND"])
    const national = document(["contacts", "get", "07400123456"])
    expect(national.code).toBe(2)
    expect(national.doc.error).toMatchObject({ field: "MSISDN" })
    expect(String(national.doc.error?.message)).toContain("--default-country")
    const limit = document(["contacts", "list", "--limit", "0"])
    expect(limit.code).toBe(2)
    expect(limit.doc.error).toMatchObject({ field: "--limit" })
    expect(String(limit.doc.error?.message)).not.toMatch(/\bLimit\b/)
  })

  it("opt-outs outlive the contact: rm then add comes back CANCELLED; resubscribe and forget need --confirm", () => {
    document(["contacts", "add", "447400200001"])
    expect(document(["receive", "--msisdn", "447400200001", "--message", "STOP"]).code).toBe(0)
    expect(document(["contacts", "rm", "447400200001"]).doc).toEqual({ msisdn: "447400200001", deleted: true })
    expect(document(["contacts", "add", "447400200001"]).doc).toMatchObject({ status: "CANCELLED" })
    const imported = document(["import", "-", "--rejects", path.join(dir, "r.csv")], "msisdn\n447400200001\n")
    expect(imported.code).toBe(0)
    const unconfirmed = document(["contacts", "resubscribe", "447400200001"])
    expect([unconfirmed.code, unconfirmed.doc.error?.field]).toEqual([2, "--confirm"])
    expect(document(["contacts", "resubscribe", "447400200001", "--confirm"]).doc).toMatchObject({ status: "SUBSCRIBED" })
    expect(document(["contacts", "forget", "447400200001"]).code).toBe(2)
    expect(document(["contacts", "forget", "447400200001", "--confirm"]).doc).toEqual({ msisdn: "447400200001", forgotten: true })
  })

  it("suppressions: add, export and import are documents; a bad number, or rejects over the input, is refused (2)", () => {
    expect(document(["suppressions", "add", "07400200002", "--default-country", "GB"]).doc)
      .toEqual({ msisdn: "447400200002", already_suppressed: false, contact_opted_out: false })
    expect(document(["suppressions", "add", "0740"]).doc.error).toMatchObject({ code: "INVALID_PARAMETER", field: "MSISDN" })
    expect(document(["suppressions", "export"]).doc).toEqual(expect.arrayContaining([{ msisdn: "447400200002", country_code: "44" }]))
    const list = path.join(dir, "suppressed.csv")
    expect(document(["suppressions", "export", "--out", list]).doc).toMatchObject({ format: "csv", out: list })
    expect(document(["suppressions", "import", list, "--rejects", path.join(dir, "s.rejects.csv")]).doc)
      .toMatchObject({ added: 0, rejected: 0, committed: true })
    const overInput = document(["suppressions", "import", list, "--rejects", list])
    expect([overInput.code, overInput.doc.error?.field]).toEqual([2, "--rejects"])
    expect(fs.readFileSync(list, "utf8")).toMatch(/^suppressed_msisdn,country_code\n/)
    // Not a contact file: imported, every number that opted out would become a contact.
    const asContacts = document(["import", list, "--rejects", path.join(dir, "s2.rejects.csv")])
    expect([asContacts.code, asContacts.doc.error?.field]).toEqual([2, "header"])
  })

  it("import: a summary, and over --max-rejects exit 3 with one document carrying the summary", () => {
    const ok = document(["import", path.join(samples, "contacts.csv"), "--default-country", "GB", "--rejects", path.join(dir, "ok.rejects.csv")])
    expect(ok.code).toBe(0)
    expect(ok.doc).toMatchObject({ committed: true })
    const over = document([
      "import", path.join(samples, "bad-rows.csv"), "--default-country", "GB", "--max-rejects", "1", "--rejects", path.join(dir, "bad.rejects.csv")
    ])
    expect(over.code).toBe(3)
    expect(over.doc.error).toMatchObject({ code: "TOO_MANY_REJECTS", summary: { committed: false } })
    expect(String(over.doc.error?.message)).toMatch(/^nothing imported: \d+ of \d+ rows rejected \(\d+\.\d %\), more than --max-rejects 1$/)
    // A file that cannot be read past a line: the error names the file and that line as members, not only in words.
    fs.writeFileSync(path.join(dir, "broken.csv"), "msisdn,first_name\n447400123456,Ann\n\"447400123457,Bob\n")
    const broken = document(["import", path.join(dir, "broken.csv"), "--default-country", "GB", "--rejects", path.join(dir, "broken.rejects.csv")])
    expect([broken.code, broken.doc.error]).toEqual([2, expect.objectContaining({ code: "INVALID_PARAMETER", field: "FILE", line: 3 })])
  })

  it("send, messages, report and contacts export: documents, and exports to stdout are JSON", () => {
    expect(document(["send", "--to", "447400123456", "--message", "Hello", "--id", "s1"]).code).toBe(0)
    const duplicate = document(["send", "--to", "447400123456", "--message", "Hello", "--id", "s1"])
    expect([duplicate.code, duplicate.doc.error?.code]).toEqual([1, "DUPLICATE_SEND"])
    expect(document(["messages", "list", "--since", "2000-01-01"]).doc).toEqual(expect.any(Array))
    const report = document(["report"])
    expect(report.code).toBe(0)
    expect(Array.isArray(report.doc)).toBe(true)
    expect(report.stderr).toContain("messages written")
    const csvOnStdout = document(["report", "--format", "csv"])
    expect([csvOnStdout.code, csvOnStdout.doc.error?.field]).toEqual([2, "--format"])
    const toFile = document(["report", "--out", path.join(dir, "r.csv"), "--summary"])
    expect(toFile.doc).toMatchObject({ format: "csv", summary: expect.any(Array) })
    const exported = document(["contacts", "export", "--tags", "only"])
    expect(exported.doc).toEqual([expect.objectContaining({ msisdn: "447400123456" })])
    const exportFile = document(["contacts", "export", "--out", path.join(dir, "all.csv"), "--excel"])
    expect(exportFile.doc).toMatchObject({ format: "csv" })
    const bytes = fs.readFileSync(path.join(dir, "all.csv"))
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    expect(bytes.toString("utf8")).toContain("msisdn,first_name,last_name,tags,status,monitoring,country_code\r\n")
  })

  it("report and contacts export to a path that is standard output (/dev/stdout, the file stdout goes to) behave as --out -", () => {
    for (const command of [["report"], ["contacts", "export"]]) {
      const name = command.join(" ")
      const toDash = document([...command, "--out", "-"])
      expect([name, toDash.code, Array.isArray(toDash.doc)]).toEqual([name, 0, true])
      if (fs.existsSync("/dev/stdout")) {
        // stdout a socket (how Node connects a child) or a pipe (`| cat`), /dev/stdout is that: the data is the one
        // JSON document, nothing before or after it (CSV came first, then the summary's document).
        const toDevice = document([...command, "--out", "/dev/stdout"])
        expect([name, toDevice.code, toDevice.doc]).toEqual([name, 0, toDash.doc])
        const piped = spawnSync("sh", ["-c", `"$0" "$@" | cat`, process.execPath, bin, ...command, "--out", "/dev/stdout", "--json"], {
          cwd: dir,
          encoding: "utf8",
          env: env(),
          timeout: 60_000
        })
        expect([name, piped.status, piped.stdout.trimStart().startsWith("[")], piped.stdout).toEqual([name, 0, true])
        expect(JSON.parse(piped.stdout)).toEqual(toDash.doc)
        const csv = document([...command, "--out", "/dev/stdout", "--format", "csv"])
        expect([name, csv.code, csv.doc.error?.field]).toEqual([name, 2, "--format"])
        // Without --json the CSV owns stdout and the summary goes to stderr, as with --out -.
        const human = run([...command, "--out", "/dev/stdout"])
        expect([name, human.code, human.stdout]).toEqual([name, 0, run([...command, "--out", "-"]).stdout])
        expect(human.stderr).toMatch(/(messages written|contacts exported as csv)\n/)
      }
      // stdout redirected to a file that --out names: the file holds the one document (CSV was renamed over it).
      const file = path.join(dir, "stdout.json")
      const descriptor = fs.openSync(file, "w")
      const ran = spawnSync(process.execPath, [bin, ...command, "--out", file, "--json"], {
        cwd: dir,
        encoding: "utf8",
        env: env(),
        timeout: 60_000,
        stdio: ["ignore", descriptor, "pipe"]
      })
      fs.closeSync(descriptor)
      expect([name, ran.status], ran.stderr).toEqual([name, 0])
      expect(JSON.parse(fs.readFileSync(file, "utf8"))).toEqual(toDash.doc)
    }
  })

  it("contacts export, suppressions export and report refuse an --out that is the book, by any spelling (2), and leave it as it was", () => {
    const before = fs.readFileSync(book())
    fs.symlinkSync(book(), path.join(dir, "link.db"))
    // `sub/..` reaches the book only where sub exists (the system climbs from it; without it, nothing is written: exit 1).
    fs.mkdirSync(path.join(dir, "sub"), { recursive: true })
    for (const out of [book(), "book.db", "./sub/../book.db", "link.db", "book.db-wal"]) {
      for (const command of [["contacts", "export"], ["suppressions", "export"], ["report"]]) {
        const refused = document([...command, "--out", out])
        expect([command.join(" "), out, refused.code, refused.doc.error?.code, refused.doc.error?.field]).toEqual([
          command.join(" "), out, 2, "INVALID_PARAMETER", "--out"
        ])
      }
    }
    expect(fs.readFileSync(book()).equals(before)).toBe(true)
    expect(fs.lstatSync(path.join(dir, "link.db")).isSymbolicLink()).toBe(true)
  })

  it("broadcast: a dry run and its failures are documents", () => {
    expect(document(["broadcast", "--tags", "news", "--message", "Hi", "--dry-run", "--allow-empty"]).code).toBe(0)
    const noTags = document(["broadcast", "--message", "Hi"])
    expect([noTags.code, noTags.doc.error?.code]).toEqual([2, "MISSING_TAGS"])
    const inspect = document(["inspect", "x".repeat(200)])
    expect([inspect.code, inspect.doc.error?.code]).toEqual([2, "MESSAGE_TOO_LONG"])
  })

  it("import --rejects - over --max-rejects whose reader goes away (| head): still exit 3, the summary on stderr, the book it created gone", async () => {
    const file = path.join(dir, "mostly-bad.csv")
    fs.writeFileSync(file, ["msisdn", "+447400123456", ...Array.from({ length: 100_000 }, (_, i) => `nope${i}`)].join("\n") + "\n")
    const book = path.join(dir, "head-new.db")
    const child = spawn(process.execPath, [bin, "import", file, "--store", book, "--rejects", "-", "--max-rejects", "1%"], { cwd: dir, env: env(), stdio: ["ignore", "pipe", "pipe"] })
    let stderr = ""
    child.stderr.on("data", (chunk) => (stderr += chunk))
    // The reader takes the first lines of the rejects and goes, as `| head` does.
    child.stdout.once("data", () => child.stdout.destroy())
    const [code] = await once(child, "exit")
    expect(code, stderr).toBe(3)
    // The summary came first, on stderr: what the run did is said even though its output was cut.
    expect(stderr).toContain("nothing imported")
    expect(fs.readdirSync(dir).filter((name) => name.startsWith("head-new.db"))).toEqual([])
  })

  it("an output that is the file standard error goes to (/dev/stderr under 2>>log, or the log by name) is refused (2), the log kept", () => {
    const log = path.join(dir, "cron.log")
    fs.writeFileSync(log, "the night's earlier lines\n")
    for (const out of [log, ...(fs.existsSync("/dev/stderr") ? ["/dev/stderr"] : [])]) {
      const descriptor = fs.openSync(log, "a")
      const ran = spawnSync(process.execPath, [bin, "report", "--out", out], { cwd: dir, encoding: "utf8", env: env(), timeout: 60_000, stdio: ["ignore", "pipe", descriptor] })
      fs.closeSync(descriptor)
      expect([out, ran.status]).toEqual([out, 2])
      expect(fs.lstatSync(log).isFile()).toBe(true)
      expect(fs.readFileSync(log, "utf8")).toMatch(/^the night's earlier lines\n(.|\n)*is the file this command's standard error goes to/)
    }
  })

  it("broadcast --dry-run --plan on standard output (-, /dev/stdout, the file stdout goes to): the plan is the one document, its summary on stderr", () => {
    const dryRun = ["broadcast", "--tags", "newsletter", "--message", "Hi", "--dry-run", "--allow-empty", "--plan"]
    const toDash = document([...dryRun, "-"])
    expect([toDash.code, toDash.doc["smsbook_plan"], Array.isArray(toDash.doc["audience"])], toDash.stderr).toEqual([0, 1, true])
    expect(toDash.stderr).toContain("plan written to standard output")
    if (fs.existsSync("/dev/stdout")) expect(document([...dryRun, "/dev/stdout"]).doc).toEqual(toDash.doc)
    // Without --json the plan owns stdout as well: the same plan, and the summary on stderr.
    const human = run([...dryRun, "-"])
    expect([human.code, JSON.parse(human.stdout)]).toEqual([0, toDash.doc])
    // stdout redirected to the file --plan names: that file holds the plan alone (the summary's document came after
    // it, or the plan was renamed over the file stdout held open).
    const file = path.join(dir, "plan-stdout.json")
    const descriptor = fs.openSync(file, "w")
    const ran = spawnSync(process.execPath, [bin, ...dryRun, file, "--json"], { cwd: dir, encoding: "utf8", env: env(), timeout: 60_000, stdio: ["ignore", descriptor, "pipe"] })
    fs.closeSync(descriptor)
    expect(ran.status, ran.stderr).toBe(0)
    expect(JSON.parse(fs.readFileSync(file, "utf8"))).toEqual(toDash.doc)
  })
})

describe("interruption", () => {
  // SIGHUP is a closed terminal: Node's default would kill the run without a word.
  it.each([["SIGTERM", 143], ["SIGHUP", 129]] as const)("%s during an import rolls back, says so on stderr, exits %i with one document", async (signal, exitCode) => {
    const rejects = `int-${signal}.rejects.csv`
    const child = spawn(process.execPath, [bin, "import", "-", "--json", "--rejects", path.join(dir, rejects)], { cwd: dir, env: env() })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk) => (stdout += chunk))
    child.stderr.on("data", (chunk) => (stderr += chunk))
    // Standard input is never ended: the import is under way when the signal comes.
    child.stdin.write("msisdn\n" + Array.from({ length: 2000 }, (_, i) => `4474009${String(i).padStart(5, "0")}`).join("\n") + "\n")
    // Once the rejects file is open the import is under way (it is opened before the first row is read).
    for (let waited = 0; waited < 120_000 && !fs.readdirSync(dir).some((file) => file.includes(rejects)); waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    await new Promise((resolve) => setTimeout(resolve, 1000))
    child.kill(signal)
    const code = await new Promise((resolve) => child.once("exit", resolve))
    expect(code).toBe(exitCode)
    expect(JSON.parse(stdout)).toMatchObject({ error: { code: "INTERRUPTED", exit_code: exitCode } })
    expect(stderr).toContain(`interrupted by ${signal}`)
    expect(stderr).toContain("nothing was imported")
    const listed = document(["contacts", "list", "--query", "4474009"])
    expect(listed.doc).toEqual([])
  }, 300_000)

  it("a closed terminal: the progress line's writes fail, then SIGHUP: the import still rolls back and exits 129", async () => {
    // The terminal as Node sees it (progress is drawn only on one); its reader goes away, as a closed terminal's does.
    const terminal = path.join(dir, "terminal.mjs")
    fs.writeFileSync(terminal, "Object.defineProperty(process.stderr, 'isTTY', { value: true })\n")
    const file = path.join(dir, "hangup.csv")
    fs.writeFileSync(file, "msisdn\n" + Array.from({ length: 1_500_000 }, (_, i) => `+4474${String(10_000_000 + i)}`).join("\n") + "\n")
    const store = path.join(dir, "hangup.db")
    const child = spawn(process.execPath, ["--import", pathToFileURL(terminal).href, bin, "import", file, "--store", store], { cwd: dir, env: env() })
    const exited = once(child, "exit")
    await once(child.stderr, "data")
    child.stderr.destroy()
    // Progress is redrawn every 100 ms: its next writes fail (EPIPE) before the hang-up's signal comes.
    await new Promise((resolve) => setTimeout(resolve, 400))
    child.kill("SIGHUP")
    const [code] = await exited
    expect(code).toBe(129)
    // A book the import created is removed with what it imported.
    expect(fs.existsSync(store)).toBe(false)
  })

  it("SIGTERM during a broadcast says how many were handed the message and that the next dispatch sends it to the rest, as it does", async () => {
    const numbers = Array.from({ length: 30_000 }, (_, i) => `4474008${String(i).padStart(5, "0")}`)
    const crowd = path.join(dir, "crowd.db")
    expect(document(["import", "-", "--tags", "crowd", "--store", crowd], "msisdn\n" + numbers.join("\n") + "\n").code).toBe(0)
    const args = ["broadcast", "--tags", "crowd", "--message", "Doors open at 9", "--short-name", "ACME", "--store", crowd]
    const child = spawn(process.execPath, [bin, ...args], { cwd: dir, env: env() })
    let stderr = ""
    child.stderr.on("data", (chunk) => (stderr += chunk))
    // The test takes the book's write lock the moment the first batch is committed: the broadcast then waits for it
    // (a writer queues), and the signal finds it stopped half-way, deterministically.
    const { DatabaseSync } = await import("node:sqlite")
    const db = new DatabaseSync(crowd, { timeout: 0 })
    const outbox = () => Number(db.prepare("SELECT count(*) AS n FROM outbox").get()?.["n"] ?? 0)
    const before = outbox()
    let held = false
    for (const started = Date.now(); !held && Date.now() - started < 120_000;) {
      try {
        db.exec("BEGIN IMMEDIATE")
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 1))
        continue
      }
      if (outbox() > before) held = true
      else {
        db.exec("ROLLBACK")
        await new Promise((resolve) => setTimeout(resolve, 5))
      }
    }
    expect(held).toBe(true)
    const handed = outbox() - before
    expect(handed).toBeLessThan(numbers.length)
    child.kill("SIGTERM")
    const code = await new Promise((resolve) => child.once("exit", resolve))
    db.exec("ROLLBACK")
    expect(code).toBe(143)
    expect(stderr).toContain(`: ${handed} member(s) had been handed the message in this run, and keep it; the others had not yet`)
    // The note says what the book now holds: an unfinished message, which the next dispatch completes (not a pause).
    expect(stderr).toContain("the next `smsbook dispatch` hands it to the rest")
    const status = () => String(db.prepare("SELECT status FROM messages ORDER BY seq DESC LIMIT 1").get()?.["status"])
    expect(status()).toBe("PROCESSING")
    expect(run(["dispatch", "--once", "--short-name", "ACME", "--store", crowd]).code).toBe(0)
    expect(status()).toBe("SENT")
    expect(outbox() - before).toBe(numbers.length)
    // The same command run again finds it finished: a duplicate, nobody gets it twice.
    expect(run(args).code).toBe(1)
    db.close()
  }, 300_000)
})
