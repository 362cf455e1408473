/**
 * The reliability suite's tools: the real `smsbook` bin as a child process (started, awaited, killed by pid),
 * throwaway books on SQLite and PostgreSQL, and a digest of a book's content read straight from its tables.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { DatabaseSync } from "node:sqlite"
import { fileURLToPath } from "node:url"

export const repo = fileURLToPath(new URL("../..", import.meta.url))
const bin = path.join(repo, "packages/batch/src/bin.ts")

export interface Outcome {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly stdout: string
  readonly stderr: string
}

export interface Running {
  readonly child: ChildProcess
  readonly done: Promise<Outcome>
}

/** Every child still running, so a failed scenario never leaves one behind (each is ended by its own pid). */
const running = new Set<ChildProcess>()

/** Starts `smsbook ARGS` in `cwd` through this Node (the repository's), with only the given environment added. */
export const start = (args: ReadonlyArray<string>, options: { readonly cwd: string; readonly input?: string }): Running => {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: options.cwd,
    env: { PATH: process.env["PATH"] ?? "", HOME: options.cwd, SMSBOOK_SHORT_NAME: "ACME" },
    stdio: ["pipe", "pipe", "pipe"]
  })
  running.add(child)
  let stdout = ""
  let stderr = ""
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")))
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")))
  child.stdin.on("error", () => undefined)
  child.stdin.end(options.input ?? "")
  const done = new Promise<Outcome>((resolve) =>
    child.on("close", (code, signal) => {
      running.delete(child)
      resolve({ code, signal, stdout, stderr })
    })
  )
  return { child, done }
}

/** Runs `smsbook ARGS` to its end. */
export const run = (args: ReadonlyArray<string>, options: { readonly cwd: string; readonly input?: string }): Promise<Outcome> =>
  start(args, options).done

/** Kills (SIGKILL) the process of `running` by its pid, and waits for it to be gone. */
export const kill = async (process_: Running): Promise<Outcome> => {
  const pid = process_.child.pid
  if (pid !== undefined && process_.child.exitCode === null) {
    try {
      process.kill(pid, "SIGKILL")
    } catch {
      // Already gone.
    }
  }
  return process_.done
}

/** Ends every child still running (by pid): called when the suite stops. */
export const killAll = (): void => {
  for (const child of running) if (child.pid !== undefined) {
    try {
      process.kill(child.pid, "SIGKILL")
    } catch {
      // Already gone.
    }
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** A book to run scenarios against: its store URL, its files (SQLite), how to read its tables, how to drop it. */
export interface Book {
  readonly kind: "sqlite" | "postgres"
  readonly url: string
  readonly dir: string
  readonly query: (sql: string) => ReadonlyArray<ReadonlyArray<string>>
  readonly drop: () => void
}

let books = 0

/** A fresh SQLite book in a fresh temporary directory (created by the first `import`). */
export const sqliteBook = (): Book => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "smsbook-reliability-"))
  const file = path.join(dir, "book.db")
  return {
    kind: "sqlite",
    url: file,
    dir,
    query: (sql) => {
      if (!fs.existsSync(file)) return []
      const db = new DatabaseSync(file, { readOnly: true })
      try {
        return db.prepare(sql).all().map((row) => Object.values(row).map((value) => String(value)))
      } finally {
        db.close()
      }
    },
    drop: () => fs.rmSync(dir, { recursive: true, force: true })
  }
}

const psql = (url: string, sql: string): string => {
  const result = spawnSync("psql", ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-At", "-F", "\u001f", "-R", "\u001e", "-d", url, "-c", sql], {
    encoding: "utf8",
    maxBuffer: 1 << 30
  })
  if (result.status !== 0) throw new Error(`psql failed: ${result.error?.message ?? ""} ${result.stderr}`)
  // psql ends its output with a line end after the last record separator.
  return result.stdout.replace(/\n$/, "")
}

/** A fresh PostgreSQL database on the server of `serverUrl` (its own name), dropped by `drop`. */
export const postgresBook = (serverUrl: string): Book => {
  const name = `smsbook_reliability_${process.pid}_${++books}`
  psql(serverUrl, `CREATE DATABASE ${name}`)
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "smsbook-reliability-pg-"))
  const bookUrl = url.toString()
  return {
    kind: "postgres",
    url: bookUrl,
    dir,
    query: (sql) => {
      const exists = psql(bookUrl, "SELECT to_regclass('contacts') IS NOT NULL").trim()
      if (exists !== "t") return []
      return psql(bookUrl, sql).split("\u001e").filter((line) => line !== "").map((line) => line.split("\u001f"))
    },
    drop: () => {
      psql(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }
}

/** The rows of `sql`, each as one JSON line, sorted: the same content gives the same lines on both stores. */
const lines = (book: Book, sql: string): ReadonlyArray<string> => book.query(sql).map((row) => JSON.stringify(row)).sort()

/**
 * What a book holds that a command could change: contacts (names, status, tags), messages (id, status, text,
 * counts), deliveries and the outbox. Random keys (profile uids, message ids) are left out, so the digest of a
 * clean run and of a killed-then-rerun one can be compared.
 */
export const content = (book: Book) => ({
  contacts: lines(book, "SELECT msisdn, first_name, last_name, status FROM contacts"),
  tags: lines(book, "SELECT msisdn, tag FROM contact_tags"),
  messages: lines(
    book,
    "SELECT coalesce(id, ''), direction, status, message, coalesce(msisdn, ''), total_recipients, total_monitors, sent_count FROM messages"
  ),
  deliveries: lines(book, "SELECT m.message, d.msisdn FROM deliveries d JOIN messages m ON m.message_id = d.message_id"),
  outbox: lines(book, "SELECT m.message, o.msisdn, o.part, o.parts FROM outbox o JOIN messages m ON m.message_id = o.message_id")
})

export const digest = (book: Book): string => createHash("sha256").update(JSON.stringify(content(book))).digest("hex")

/** The bytes of a file as a hash, or `absent`. */
export const fileDigest = (file: string): string =>
  fs.existsSync(file) && fs.statSync(file).isFile() ? createHash("sha256").update(fs.readFileSync(file)).digest("hex") : "absent"

/** A contact file of `count` valid UK mobile numbers from `first`, tagged `tags`. */
export const contactsCsv = (first: number, count: number, tags: string): string => {
  const rows = ["msisdn,first_name,last_name,tags"]
  for (let i = 0; i < count; i++) rows.push(`+4474${String(first + i).padStart(8, "0")},First${first + i},Last,${tags}`)
  return rows.join("\n") + "\n"
}

/** A stack trace or Node's own error text on stderr: what a crash looks like. */
export const looksLikeCrash = (stderr: string): boolean => /\n\s+at .+[:(]\d+|node:internal|Uncaught|TypeError|ReferenceError/.test(stderr)
