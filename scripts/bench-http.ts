/**
 * `npm run bench:http`: the smsbook HTTP server against a bare `node:http` + `node:sqlite` server doing
 * the same SQLite work, under autocannon (50 connections, bounded in time, on 127.0.0.1); then a
 * soak of the smsbook server with its RSS sampled. Prints the table and updates docs/benchmarks.md.
 */
import { type ChildProcess, spawn } from "node:child_process"
import * as fs from "node:fs"
import { createServer } from "node:http"
import * as os from "node:os"
import * as path from "node:path"
import { DatabaseSync } from "node:sqlite"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { NodeRuntime } from "@effect/platform-node"
import { Account, ContactBook, Msisdn } from "@smsbook/core"
import * as Server from "@smsbook/http/Server"
import * as ApiKeyStore from "@smsbook/store/ApiKeyStore"
import * as Store from "@smsbook/store/Store"
import autocannon from "autocannon"
import { Effect, ManagedRuntime, Redacted, Result } from "effect"

const repo = fileURLToPath(new URL("..", import.meta.url))
const self = fileURLToPath(import.meta.url)
const msisdnOf = (i: number) => `4474001${String(i).padStart(5, "0")}`

// ---- the two servers, each in a process of its own ------------------------------------------------

/** The bare server: the same reads and writes on the same file, no framework, no key check. */
const bare = (file: string) => {
  const db = new DatabaseSync(file)
  db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000")
  const get = db.prepare("SELECT * FROM contacts WHERE msisdn = ?")
  const insert = db.prepare(`INSERT INTO messages (message_id, short_code, country, msisdn, direction, status, message,
    total_recipients, sent_count, error_count, total_monitors, is_scheduled, is_billable, created_at, created_by, type, tags, segments)
    VALUES (?, 'smsbook', ?, ?, 'MT', 'READY', ?, 1, 0, 0, 0, 0, 1, ?, 'bench', 1, '[]', 1)`)
  let seq = 0
  const server = createServer((request, response) => {
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { "content-type": "application/json" })
      response.end(JSON.stringify(body))
    }
    if (request.method === "GET" && request.url?.startsWith("/contacts/")) {
      const row = get.get(request.url.slice("/contacts/".length))
      return row === undefined ? send(404, { error: "not found" }) : send(200, { ...row, tags: JSON.parse(String(row["tags"])), monitoring: row["monitoring"] === 1 })
    }
    let body = ""
    request.on("data", (chunk: Buffer) => void (body += chunk.toString()))
    request.on("end", () => {
      const { msisdn, message } = JSON.parse(body) as { msisdn: string; message: string }
      const contact = get.get(msisdn)
      if (contact?.["status"] === "CANCELLED") return send(403, { error: "opted out" })
      const now = Date.now()
      const id = now.toString(16).padStart(12, "0") + (seq++).toString(16).padStart(16, "0")
      db.exec("BEGIN IMMEDIATE")
      insert.run(id, String(msisdn).slice(0, 2), msisdn, message, now)
      db.exec("COMMIT")
      send(201, { message_id: id, msisdn, message, status: "READY", type: 1 })
    })
  })
  server.listen(0, "127.0.0.1", () => {
    const address = server.address()
    process.stdout.write(`http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}\n`)
  })
}

const smsbook = (file: string) =>
  NodeRuntime.runMain(Server.serve(
    { store: file, port: 0, account: { ...Account.defaults, short_name: "ACME", user: "bench" }, log: () => {} },
    (url) => Effect.sync(() => void process.stdout.write(url + "\n"))
  ))

// ---- the run -----------------------------------------------------------------------------------------

interface Running {
  readonly child: ChildProcess
  readonly url: string
}

const launch = (kind: string, file: string): Promise<Running> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [self, "--serve", kind, file], { stdio: ["ignore", "pipe", "inherit"] })
    child.stdout?.once("data", (chunk: Buffer) => resolve({ child, url: chunk.toString().trim() }))
    child.once("exit", (code) => reject(new Error(`${kind} server exited ${code}`)))
  })

const stop = (running: Running) =>
  new Promise<void>((resolve) => {
    running.child.removeAllListeners("exit")
    running.child.once("exit", () => resolve())
    running.child.kill("SIGTERM")
  })

const rssMiB = (pid: number): number => {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8")
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? "0") / 1024
}

interface Figures {
  readonly requests: number
  readonly p99: number
  readonly non2xx: number
  readonly errors: number
}

const load = async (url: string, key: string, endpoint: "get" | "send", seconds: number, contacts: number): Promise<Figures> => {
  let n = 0
  const result = await autocannon({
    url,
    connections: 50,
    duration: seconds,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    requests: [
      endpoint === "get"
        ? { method: "GET", setupRequest: (request) => ({ ...request, path: `/contacts/${msisdnOf(n++ % contacts)}` }) }
        : {
          method: "POST",
          path: "/messages/send_to_contact",
          setupRequest: (request) => ({ ...request, body: JSON.stringify({ msisdn: msisdnOf(n++ % contacts), message: "Your order has shipped" }) })
        }
    ]
  })
  return { requests: result.requests.average, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors }
}

const main = async () => {
  const { values } = parseArgs({
    options: {
      seconds: { type: "string", default: "10" },
      soak: { type: "string", default: "60" },
      contacts: { type: "string", default: "10000" },
      doc: { type: "string", default: path.join(repo, "docs/benchmarks.md") },
      "no-doc": { type: "boolean", default: false }
    }
  })
  const seconds = Number(values.seconds)
  const soak = Number(values.soak)
  const contacts = Number(values.contacts)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "smsbook-bench-http-"))
  const file = path.join(dir, "book.db")
  try {
    process.stderr.write(`[bench:http] seeding ${contacts} contacts\n`)
    const book = ManagedRuntime.make(Store.layer(file))
    await book.runPromise(ContactBook.upsertContacts(
      Array.from({ length: contacts }, (_, i) => Result.getOrThrow(Msisdn.parse(msisdnOf(i)))).map((msisdn) => ({
        msisdn,
        country_code: "44",
        phone_number: msisdn.slice(2),
        first_name: `First${msisdn.slice(-5)}`,
        last_name: `Last${msisdn.slice(-5)}`,
        tags: ["bench"]
      })),
      { blankErases: false }
    ))
    await book.dispose()
    const keys = ManagedRuntime.make(ApiKeyStore.layer(file))
    const key = Redacted.value((await keys.runPromise(Effect.flatMap(Effect.service(ApiKeyStore.ApiKeyStore), (s) => s.create("bench")))).secret)
    await keys.dispose()

    const rows: Array<{ readonly endpoint: string; readonly bare: Figures; readonly smsbook: Figures }> = []
    for (const endpoint of ["get", "send"] as const) {
      const figures: Record<string, Figures> = {}
      for (const kind of ["bare", "smsbook"]) {
        const server = await launch(kind, file)
        await load(server.url, key, endpoint, 1, contacts) // warm-up
        figures[kind] = await load(server.url, key, endpoint, seconds, contacts)
        process.stderr.write(`[bench:http] ${endpoint} ${kind}: ${JSON.stringify(figures[kind])}\n`)
        await stop(server)
      }
      rows.push({ endpoint, bare: figures["bare"] ?? { requests: 0, p99: 0, non2xx: 0, errors: 0 }, smsbook: figures["smsbook"] ?? { requests: 0, p99: 0, non2xx: 0, errors: 0 } })
    }

    process.stderr.write(`[bench:http] soak ${soak} s\n`)
    const server = await launch("smsbook", file)
    const pid = server.child.pid ?? 0
    const samples: Array<number> = [rssMiB(pid)]
    const timer = setInterval(() => samples.push(rssMiB(pid)), 5000)
    const half = Math.max(1, Math.floor(soak / 2))
    const soaked = [await load(server.url, key, "get", half, contacts), await load(server.url, key, "send", soak - half, contacts)]
    clearInterval(timer)
    samples.push(rssMiB(pid))
    await stop(server)

    const names: Record<string, string> = { get: "`GET /contacts/:msisdn`", send: "`POST /messages/send_to_contact`" }
    const fmt = (n: number) => Math.round(n).toLocaleString("en-US")
    const table = [
      `| endpoint | bare node:http + node:sqlite req/s | smsbook req/s | ratio | bare p99 ms | smsbook p99 ms | smsbook non-2xx |`,
      `|---|---|---|---|---|---|---|`,
      ...rows.map(({ bare, endpoint, smsbook }) =>
        `| ${names[endpoint]} | ${fmt(bare.requests)} | ${fmt(smsbook.requests)} | ${(smsbook.requests / bare.requests).toFixed(2)}× | ${bare.p99} | ${smsbook.p99} | ${smsbook.non2xx + smsbook.errors} |`)
    ]
    const rss = `RSS of the smsbook server over a ${soak} s soak (${fmt(soaked[0]?.requests ?? 0)} reads/s for ${half} s, then ${fmt(soaked[1]?.requests ?? 0)} sends/s), sampled every 5 s: ` +
      `start ${samples[0]?.toFixed(0)} MiB, end ${samples.at(-1)?.toFixed(0)} MiB, max ${Math.max(...samples).toFixed(0)} MiB (${samples.map((s) => s.toFixed(0)).join(", ")}).`
    const section = [
      "<!-- http-bench:start -->",
      "## HTTP server (`npm run bench:http`)",
      "",
      `autocannon, 50 connections, ${seconds} s per case after a 1 s warm-up, 127.0.0.1, a SQLite book of ${fmt(contacts)} contacts; ` +
      `both servers in their own process on the same file; smsbook checks a bearer key on every request, the bare server does not. ` +
      `${os.cpus().length} CPUs, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}.`,
      "",
      ...table,
      "",
      rss,
      "<!-- http-bench:end -->"
    ].join("\n")
    process.stdout.write(section + "\n")
    if (!values["no-doc"]) {
      const doc = fs.existsSync(values.doc) ? fs.readFileSync(values.doc, "utf8") : ""
      const marked = /<!-- http-bench:start -->[\s\S]*<!-- http-bench:end -->/
      fs.writeFileSync(values.doc, marked.test(doc) ? doc.replace(marked, section) : `${doc.trimEnd()}\n\n${section}\n`)
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

const serveIndex = process.argv.indexOf("--serve")
if (serveIndex >= 0) {
  const [kind, file] = process.argv.slice(serveIndex + 1)
  if (kind === "bare") bare(file ?? "")
  else smsbook(file ?? "")
} else {
  await main()
}
