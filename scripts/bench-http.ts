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
import * as ServeHeap from "@smsbook/http/ServeHeap"
import * as Server from "@smsbook/http/Server"
import * as ApiKeyStore from "@smsbook/store/ApiKeyStore"
import * as Store from "@smsbook/store/Store"
import autocannon from "autocannon"
import { Effect, ManagedRuntime, Redacted, Result } from "effect"
import * as Flags from "./bench/Flags.ts"

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
  // Exiting (rather than dying of the signal) lets `--cpu-prof` write its profile.
  process.once("SIGTERM", () => process.exit(0))
  server.listen(0, "127.0.0.1", () => {
    const address = server.address()
    process.stdout.write(`http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}\n`)
  })
}

/**
 * The smsbook server as `smsbook serve` runs it: its heap sized by `ServeHeap` (flags and preload given
 * by `launch`), its access log on stderr (which `launch` sends to a file).
 */
const smsbook = (file: string) => {
  NodeRuntime.runMain(Server.serve(
    { store: file, port: 0, account: { ...Account.defaults, short_name: "ACME", user: "bench" } },
    (url) => Effect.sync(() => void process.stdout.write(url + "\n"))
  ))
}

// ---- the run -----------------------------------------------------------------------------------------

interface Running {
  readonly child: ChildProcess
  readonly url: string
  /** Lines the server printed after its URL (`--trace-gc` output). */
  readonly lines: Array<string>
}

/** What the executable runs first for `smsbook serve`, as a module node loads before the server's. */
const serveHeapPreload = `import { limit } from ${JSON.stringify(import.meta.resolve("@smsbook/http/ServeHeap"))}; limit()`

/**
 * Starts one server: `bare`, `smsbook`, or `before` (the smsbook server of another checkout, given by
 * `--before` as its directory or the path of its scripts/bench-http.ts, so a change is measured beside what it replaces).
 */
const launch = (kind: string, file: string, nodeArgs: ReadonlyArray<string> = [], before = ""): Promise<Running> =>
  new Promise((resolve, reject) => {
    // The smsbook servers write an access-log line per request to stderr, as `smsbook serve` does: to a
    // file beside the book, as a service manager would keep it.
    const log = kind === "bare" ? "inherit" : fs.openSync(path.join(path.dirname(file), `${kind}.log`), "a")
    const [script, served] = kind === "before" ? [before, "smsbook"] : [self, kind]
    // The heap sized as for `smsbook serve`: the old generation's cap on node's command line (V8 takes it
    // only at start), the young generation pinned by `ServeHeap.limit` before anything loads (V8 takes
    // its growth factor only from `setFlagsFromString`). Both smsbook servers alike.
    const heap = kind === "bare" ? [] : [...ServeHeap.flags(), "--import", `data:text/javascript,${encodeURIComponent(serveHeapPreload)}`]
    const child = spawn(process.execPath, [...heap, ...nodeArgs, script, "--serve", served, file], { stdio: ["ignore", "pipe", log] })
    if (typeof log === "number") fs.closeSync(log)
    const lines: Array<string> = []
    let url: string | undefined
    let pending = ""
    child.stdout?.on("data", (chunk: Buffer) => {
      const parts = (pending + chunk.toString()).split("\n")
      pending = parts.pop() ?? ""
      for (const line of parts) {
        if (url === undefined && line.startsWith("http://")) {
          url = line.trim()
          resolve({ child, url, lines })
        } else if (url !== undefined) lines.push(line)
      }
    })
    child.once("exit", (code) => {
      const logged = kind === "bare" ? "" : fs.readFileSync(path.join(path.dirname(file), `${kind}.log`), "utf8").slice(-2000)
      reject(new Error(`${kind} server exited ${code}${logged === "" ? "" : `; its stderr ends:\n${logged}`}`))
    })
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

/** CPU time (user + system) the process has used, in ms: what a request costs whatever else runs on the machine. */
const cpuMs = (pid: number): number => {
  // Fields after the command name (which may hold spaces): state is field 3, utime 14 and stime 15.
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /, "").split(" ")
  return (Number(fields[11]) + Number(fields[12])) * 1000 / 100
}

interface Figures {
  readonly requests: number
  readonly p99: number
  readonly non2xx: number
  readonly errors: number
  /** Server CPU time per request, in µs. */
  readonly cpu: number
}

const load = async (server: Running, key: string, endpoint: "get" | "send", seconds: number, contacts: number): Promise<Figures> => {
  let n = 0
  const pid = server.child.pid ?? 0
  const cpuBefore = cpuMs(pid)
  const result = await autocannon({
    url: server.url,
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
  const cpu = (cpuMs(pid) - cpuBefore) * 1000 / Math.max(1, result.requests.total)
  return { requests: result.requests.average, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors, cpu }
}

const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle] ?? 0 : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}

/** The median of each figure over the rounds. */
const medianOf = (rounds: ReadonlyArray<Figures>): Figures => ({
  requests: median(rounds.map((f) => f.requests)),
  p99: median(rounds.map((f) => f.p99)),
  non2xx: rounds.reduce((sum, f) => sum + f.non2xx, 0),
  errors: rounds.reduce((sum, f) => sum + f.errors, 0),
  cpu: median(rounds.map((f) => f.cpu))
})

/** The heap left after each full (mark-compact) collection, in MB, from `--trace-gc` lines: the live heap. */
const liveHeaps = (lines: ReadonlyArray<string>): ReadonlyArray<number> =>
  lines.flatMap((line) => {
    const match = /Mark-Compact[^\n]*?->\s*([\d.]+)/.exec(line)
    return match === null ? [] : [Number(match[1])]
  })

const usage = `npm run bench -- http [flags]     (also npm run bench:http -- [flags])

  --seconds N             autocannon's time per case and round (default 10)
  --rounds N              rounds, the servers taking turns (default 2)
  --soak N                seconds of the smsbook server's memory soak (default 60; 0: none)
  --contacts N            contacts in the book (default 10,000)
  --cases LIST            get, send (default both)
  --profile DIR           write a server's CPU profile (--cpu-prof) into DIR
  --profile-kind KIND     which server --profile profiles: smsbook (default) or bare
  --before PATH           another checkout (its directory or its scripts/bench-http.ts): its smsbook server is measured in the same rounds
  --soak-node-args ARGS   extra Node flags for the soaked smsbook server, space-separated
  --doc PATH              the document to update (default docs/benchmarks.md); --no-doc: none
`

const main = async () => {
  const values = Flags.read(usage, () => parseArgs({
    options: {
      seconds: { type: "string", default: "10" },
      rounds: { type: "string", default: "2" },
      soak: { type: "string", default: "60" },
      contacts: { type: "string", default: "10000" },
      cases: { type: "string", default: "get,send" },
      profile: { type: "string" },
      /** Which server `--profile` profiles: smsbook (default) or bare. */
      "profile-kind": { type: "string", default: "smsbook" },
      before: { type: "string" },
      /** Extra Node flags for the soaked smsbook server (to try heap limits), space-separated. */
      "soak-node-args": { type: "string", default: "" },
      doc: { type: "string", default: path.join(repo, "docs/benchmarks.md") },
      "no-doc": { type: "boolean", default: false },
      help: { type: "boolean", short: "h" }
    }
  }))
  const seconds = Number(values.seconds)
  const rounds = Math.max(1, Number(values.rounds))
  const soak = Number(values.soak)
  const contacts = Number(values.contacts)
  const profile = values.profile === undefined ? [] : ["--cpu-prof", "--cpu-prof-dir", path.resolve(values.profile)]
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
    const keys = ManagedRuntime.make(Store.layer(file))
    const key = Redacted.value((await keys.runPromise(Effect.flatMap(Effect.service(ApiKeyStore.ApiKeyStore), (s) => s.create("bench")))).secret)
    await keys.dispose()

    // The two servers take turns, round after round, so a machine busy with other work slows both alike.
    // A checkout's directory stands for its bench script.
    const before = values.before === undefined ? undefined : ((given: string) =>
      fs.statSync(given, { throwIfNoEntry: false })?.isDirectory() === true ? path.join(given, "scripts", "bench-http.ts") : given)(path.resolve(values.before))
    const kinds = before === undefined ? ["bare", "smsbook"] : ["bare", "before", "smsbook"]
    const rows: Array<{ readonly endpoint: string; readonly bare: Figures; readonly smsbook: Figures; readonly before?: Figures }> = []
    for (const endpoint of (["get", "send"] as const).filter((name) => values.cases.split(",").includes(name))) {
      const figures: Record<string, Array<Figures>> = { bare: [], smsbook: [], before: [] }
      for (let round = 0; round < rounds; round++) {
        for (const kind of kinds) {
          const server = await launch(kind, file, kind === values["profile-kind"] ? profile : [], before)
          await load(server, key, endpoint, 1, contacts) // warm-up
          const measured = await load(server, key, endpoint, seconds, contacts)
          figures[kind]?.push(measured)
          process.stderr.write(`[bench:http] ${endpoint} ${kind} round ${round + 1}: ${JSON.stringify(measured)}\n`)
          await stop(server)
        }
      }
      rows.push({
        endpoint,
        bare: medianOf(figures["bare"] ?? []),
        smsbook: medianOf(figures["smsbook"] ?? []),
        ...(before === undefined ? {} : { before: medianOf(figures["before"] ?? []) })
      })
    }

    const soaked: Array<Figures> = []
    const samples: Array<number> = []
    let heaps: ReadonlyArray<number> = []
    const half = Math.max(1, Math.floor(soak / 2))
    if (soak > 0) {
      process.stderr.write(`[bench:http] soak ${soak} s\n`)
      const server = await launch("smsbook", file, ["--trace-gc", ...values["soak-node-args"].split(" ").filter((arg) => arg !== "")])
      const pid = server.child.pid ?? 0
      samples.push(rssMiB(pid))
      const timer = setInterval(() => samples.push(rssMiB(pid)), 5000)
      soaked.push(await load(server, key, "get", half, contacts), await load(server, key, "send", soak - half, contacts))
      clearInterval(timer)
      samples.push(rssMiB(pid))
      await stop(server)
      heaps = liveHeaps(server.lines)
      process.stderr.write(`[bench:http] last GC lines:\n${server.lines.filter((line) => line.includes("MB")).slice(-3).join("\n")}\n`)
    }

    const names: Record<string, string> = { get: "`GET /contacts/:msisdn`", send: "`POST /messages/send_to_contact`" }
    const fmt = (n: number) => Math.round(n).toLocaleString("en-US")
    const table = [
      `| endpoint | bare req/s | smsbook req/s | ratio | bare p99 ms | smsbook p99 ms | bare CPU µs/req | smsbook CPU µs/req | CPU ratio | smsbook non-2xx |`,
      `|---|---|---|---|---|---|---|---|---|---|`,
      ...rows.map(({ bare, endpoint, smsbook }) =>
        `| ${names[endpoint]} | ${fmt(bare.requests)} | ${fmt(smsbook.requests)} | ${(smsbook.requests / bare.requests).toFixed(2)}× | ${bare.p99} | ${smsbook.p99} | ` +
        `${fmt(bare.cpu)} | ${fmt(smsbook.cpu)} | ${(bare.cpu / smsbook.cpu).toFixed(2)}× | ${smsbook.non2xx + smsbook.errors} |`)
    ]
    const beforeTable = before === undefined ? [] : [
      "",
      `The smsbook server before this change (\`--before\`: another checkout's server, measured in the same rounds):`,
      "",
      `| endpoint | before req/s | before ratio | before p99 ms | before CPU µs/req | before CPU ratio | after CPU µs/req | CPU saved |`,
      `|---|---|---|---|---|---|---|---|`,
      ...rows.flatMap(({ bare, before: old, endpoint, smsbook }) =>
        old === undefined ? [] : [
          `| ${names[endpoint]} | ${fmt(old.requests)} | ${(old.requests / bare.requests).toFixed(2)}× | ${old.p99} | ${fmt(old.cpu)} | ` +
          `${(bare.cpu / old.cpu).toFixed(2)}× | ${fmt(smsbook.cpu)} | ${Math.round(100 * (1 - smsbook.cpu / old.cpu))} % |`
        ])
    ]
    const soakText = soak <= 0 ? [] : [
      `RSS of the smsbook server over a ${soak} s soak (${fmt(soaked[0]?.requests ?? 0)} reads/s for ${half} s, then ${fmt(soaked[1]?.requests ?? 0)} sends/s), sampled every 5 s: ` +
      `start ${samples[0]?.toFixed(0)} MiB, end ${samples.at(-1)?.toFixed(0)} MiB, max ${Math.max(...samples).toFixed(0)} MiB (${samples.map((s) => s.toFixed(0)).join(", ")}). ` +
      `Live V8 heap after each full GC (\`--trace-gc\`, MB): ${heaps.length === 0 ? "no full GC ran" : heaps.map((h) => h.toFixed(0)).join(", ")}.`
    ]
    const section = [
      "<!-- http-bench:start -->",
      "## HTTP server (`npm run bench:http`)",
      "",
      `autocannon, 50 connections, ${seconds} s per case after a 1 s warm-up, ${rounds} rounds with the two servers taking turns (medians shown), ` +
      `127.0.0.1, a SQLite book of ${fmt(contacts)} contacts; ` +
      `both servers in their own process on the same file; smsbook checks a bearer key on every request, the bare server does not. ` +
      `CPU µs/req is the server process's user + system time per answered request (from /proc): it holds still when other work loads the machine, ` +
      `and its ratio (bare ÷ smsbook) estimates the throughput ratio on an otherwise idle machine. ` +
      `${os.cpus().length} CPUs, load average ${os.loadavg()[0]?.toFixed(1)} at the end, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}.`,
      "",
      ...table,
      ...beforeTable,
      "",
      ...soakText,
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
