/**
 * The dispatch bench: N contacts imported, one broadcast to all, then `smsbook dispatch --once` (the real CLI, its own
 * process) to the bench SMSC (its own process) at no tps limit, its resident memory and the SMSC's count read every second.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import { once } from "node:events"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as readline from "node:readline"
import { fileURLToPath } from "node:url"
import * as Child from "./Child.ts"
import * as Series from "./Series.ts"

const repo = fileURLToPath(new URL("../..", import.meta.url))
const bin = path.join(repo, "packages/batch/bin/smsbook.js")
const smscScript = fileURLToPath(new URL("./Smsc.ts", import.meta.url))

/** The broadcast: one GSM-7 part, so parts = recipients. */
export const text = "Shop opens at 9 tomorrow: 20% off everything, this weekend only"
const shortName = "BENCH"

/** GB mobiles 07400 000000 onwards: the 7400–7403 blocks (4M numbers) are all valid mobiles in libphonenumber's metadata. */
export const maxRecipients = 4_000_000
export const msisdn = (i: number): string => `4474${String(i).padStart(8, "0")}`

export interface Options {
  readonly recipients: number
  readonly dir: string
  /** A PostgreSQL server URL: the book is a fresh database on it; else a SQLite file in `dir`. */
  readonly postgres: string | undefined
  readonly window: number
  /** Write the dispatcher's CPU profile (`--cpu-prof`) into this directory. */
  readonly profileDir: string | undefined
  readonly log: (text: string) => void
}

export interface Step {
  readonly seconds: number
  readonly peakRssMB: number
}

export interface Result {
  readonly store: string
  readonly recipients: number
  readonly window: number
  readonly import: Step
  readonly broadcast: Step & { readonly sentCount: number; readonly status: string }
  readonly dispatch: Step & {
    readonly summary: { readonly [key: string]: unknown }
    readonly cpuSeconds: number
  }
  readonly smsc: { readonly accepted: number; readonly distinct: number; readonly unanswered: number; readonly binds: number; readonly maxOutstanding: number }
  readonly memory: Series.Memory
  readonly partsPerSecond: number | undefined
  readonly tenths: ReadonlyArray<number>
  readonly samples: ReadonlyArray<Series.Sample>
  readonly loadAverage: ReadonlyArray<number>
}

const writeContacts = async (file: string, n: number): Promise<void> => {
  const out = fs.createWriteStream(file)
  out.write("Mobile,First Name,Tags\n")
  for (let i = 0; i < n; i++) {
    if (!out.write(`+${msisdn(i)},Contact ${i},all\n`)) await once(out, "drain")
  }
  out.end()
  await once(out, "finish")
}

const jsonOf = (run: Child.Run, what: string): { readonly [key: string]: unknown } => {
  if (run.code !== 0) throw new Error(`${what} exited ${run.code}: ${run.stderr.trim().split("\n").slice(-3).join(" ")}`)
  const parsed: unknown = JSON.parse(run.stdout.slice(run.stdout.indexOf("{")))
  if (typeof parsed !== "object" || parsed === null) throw new Error(`${what} printed no JSON summary`)
  return Object.fromEntries(Object.entries(parsed))
}

const num = (json: { readonly [key: string]: unknown }, key: string): number => {
  const value = json[key]
  return typeof value === "number" ? value : Number.NaN
}

const mb = (run: Child.Run): number => run.peakRssMiB * 1024 * 1024 / 1e6

/** A fresh database on the server, with smsbook's schema. */
const freshDatabase = (server: string, dir: string): string => {
  const name = "smsbook_bench_dispatch"
  const psql = spawnSync("psql", ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", server, "-c", `DROP DATABASE IF EXISTS ${name}`, "-c", `CREATE DATABASE ${name}`], { encoding: "utf8" })
  if (psql.status !== 0) throw new Error(`psql: ${psql.stderr}`)
  const url = new URL(server)
  url.pathname = `/${name}`
  const init = spawnSync(process.execPath, [bin, "init", "--no-input", "--force", "--store", url.href], { cwd: dir, encoding: "utf8" })
  if (init.status !== 0) throw new Error(`smsbook init: ${init.stderr}`)
  return url.href
}

/** Lines of JSON a child prints, each handed to `onLine` as read. */
const readJsonLines = (child: ChildProcess, onLine: (value: { readonly [key: string]: unknown }) => void): void => {
  if (child.stdout === null) return
  readline.createInterface({ input: child.stdout }).on("line", (line) => {
    try {
      const parsed: unknown = JSON.parse(line)
      if (typeof parsed === "object" && parsed !== null) onLine(Object.fromEntries(Object.entries(parsed)))
    } catch {
      // not a line of ours
    }
  })
}

/** Resident memory of a live process, MB, from /proc (Linux); undefined once it is gone. */
const rssOf = (pid: number): number | undefined => {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8")
    const kib = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1]
    return kib === undefined ? undefined : Number(kib) * 1024 / 1e6
  } catch {
    return undefined
  }
}

const startSmsc = async (progress: Array<Series.Progress>, since: () => number) => {
  const child = spawn(process.execPath, ["--conditions=@smsbook/source", smscScript], { stdio: ["ignore", "pipe", "inherit"] })
  let summary: Result["smsc"] | undefined
  let resolvePort: (port: number) => void = () => undefined
  const port = new Promise<number>((resolve) => (resolvePort = resolve))
  readJsonLines(child, (line) => {
    if (typeof line["port"] === "number") resolvePort(line["port"])
    else if (typeof line["accepted"] === "number") progress.push({ seconds: since(), parts: line["accepted"] })
    else if (typeof line["summary"] === "object" && line["summary"] !== null) {
      const s = Object.fromEntries(Object.entries(line["summary"]))
      summary = { accepted: num(s, "accepted"), distinct: num(s, "distinct"), unanswered: num(s, "unanswered"), binds: num(s, "binds"), maxOutstanding: num(s, "maxOutstanding") }
    }
  })
  const stop = async (): Promise<Result["smsc"]> => {
    const closed = once(child, "close")
    child.kill("SIGTERM")
    await closed
    if (summary === undefined) throw new Error("the SMSC printed no summary")
    return summary
  }
  return { port: await port, stop }
}

/** The heap samples the dispatcher wrote (HeapSamples.ts), read once it exited. */
interface HeapSample {
  readonly at: number
  readonly heapMB: number
  readonly heapTotalMB: number
}

const readHeap = (file: string): ReadonlyArray<HeapSample> => {
  if (!fs.existsSync(file)) return []
  const lines = fs.readFileSync(file, "utf8").split("\n").filter((line) => line !== "")
  fs.rmSync(file, { force: true })
  return lines.map((line) => {
    const parsed: unknown = JSON.parse(line)
    const json = typeof parsed === "object" && parsed !== null ? Object.fromEntries(Object.entries(parsed)) : {}
    return { at: num(json, "at"), heapMB: num(json, "heapMB"), heapTotalMB: num(json, "heapTotalMB") }
  })
}

/** The heap sample nearest in time to `at`, if one is within a second of it. */
const nearest = (heap: ReadonlyArray<HeapSample>, at: number): HeapSample | undefined => {
  let best: HeapSample | undefined
  for (const sample of heap) if (best === undefined || Math.abs(sample.at - at) < Math.abs(best.at - at)) best = sample
  return best !== undefined && Math.abs(best.at - at) <= 1000 ? best : undefined
}

/** Environment of the measured children: none of the caller's `SMSBOOK_*` settings. */
const cleanEnv = (): NodeJS.ProcessEnv =>
  Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("SMSBOOK_")))

export const run = async (options: Options): Promise<Result> => {
  const { dir, recipients, log } = options
  const file = path.join(dir, "dispatch-contacts.csv")
  const sqlite = path.join(dir, "dispatch.db")
  for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(sqlite + suffix, { force: true })
  log(`writing ${recipients.toLocaleString("en-US")} contacts…`)
  await writeContacts(file, recipients)
  const store = options.postgres === undefined ? `sqlite:${sqlite}` : freshDatabase(options.postgres, dir)

  log("import…")
  const imported = await Child.run(bin, ["import", file, "--default-country", "GB", "--store", store, "--json"], { cwd: dir })
  const importJson = jsonOf(imported, "import")
  if (num(importJson, "created") !== recipients) throw new Error(`import created ${String(importJson["created"])} contacts, not ${recipients}`)

  log("broadcast…")
  const broadcast = await Child.run(bin, ["broadcast", "--tags", "all", "--message", text, "--store", store, "--short-name", shortName, "--json"], { cwd: dir })
  const broadcastJson = jsonOf(broadcast, "broadcast")
  const sentCount = num(broadcastJson, "sent_count")

  const progress: Array<Series.Progress> = []
  let started = performance.now()
  const since = () => (performance.now() - started) / 1000
  const smsc = await startSmsc(progress, since)
  const carrier = `smpp://bench:bench@127.0.0.1:${smsc.port}?window=${options.window}`
  const args = ["dispatch", "--once", "--tps", "0", "--carrier", carrier, "--store", store, "--short-name", shortName, "--json"]
  log(`dispatch --once of ${sentCount.toLocaleString("en-US")} parts at window ${options.window}…`)
  const rssFile = path.join(dir, `.rss-dispatch-${process.pid}.json`)
  const heapFile = path.join(dir, `.heap-dispatch-${process.pid}.jsonl`)
  fs.rmSync(heapFile, { force: true })
  const preloads = ["Rss.ts", "HeapSamples.ts"].flatMap((name) => ["--import", fileURLToPath(new URL(`./${name}`, import.meta.url))])
  const profiling = options.profileDir === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${options.profileDir}`]
  started = performance.now()
  const child = spawn(process.execPath, [...Child.shebangFlags(bin), ...profiling, ...preloads, bin, ...args], {
    cwd: dir,
    env: { ...cleanEnv(), SMSBOOK_BENCH_RSS: rssFile, SMSBOOK_BENCH_HEAP: heapFile },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let stdout = ""
  let stderr = ""
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr = (stderr + chunk).slice(-20_000)))
  const samples: Array<Series.Sample & { readonly at: number }> = []
  const pid = child.pid ?? 0
  let lastLog = 0
  const sampler = setInterval(() => {
    const rssMB = rssOf(pid)
    if (rssMB === undefined) return
    const parts = progress[progress.length - 1]?.parts ?? 0
    samples.push({ seconds: since(), rssMB, parts, heapMB: undefined, at: Date.now() })
    if (since() - lastLog >= 30) {
      lastLog = since()
      log(`  ${Math.round(since())} s: ${parts.toLocaleString("en-US")} parts at the SMSC, dispatcher RSS ${rssMB.toFixed(0)} MB`)
    }
  }, 1000)
  const [code] = await once(child, "close")
  clearInterval(sampler)
  const seconds = since()
  const smscSummary = await smsc.stop()
  // The SMSC prints its count every 250 ms: a dispatcher that ends sooner after its last part leaves that count
  // unprinted (stopped first), and the rate unknown. By the dispatcher's exit the SMSC had every part it took.
  if ((progress[progress.length - 1]?.parts ?? 0) < smscSummary.accepted) progress.push({ seconds, parts: smscSummary.accepted })
  const usage: unknown = JSON.parse(fs.existsSync(rssFile) ? fs.readFileSync(rssFile, "utf8") : "{}")
  fs.rmSync(rssFile, { force: true })
  const usageOf = (key: string) => typeof usage === "object" && usage !== null ? num(Object.fromEntries(Object.entries(usage)), key) : 0
  if (code !== 0) throw new Error(`dispatch exited ${String(code)}: ${stderr.trim().split("\n").slice(-3).join(" ")}`)
  const summary: unknown = JSON.parse(stdout.slice(stdout.indexOf("{")))
  const heap = readHeap(heapFile)
  const withHeap = samples.map(({ at, ...sample }) => {
    const near = nearest(heap, at)
    return { ...sample, heapMB: near?.heapMB, heapTotalMB: near?.heapTotalMB }
  })
  return {
    store: options.postgres === undefined ? "SQLite" : "PostgreSQL",
    recipients,
    window: options.window,
    import: { seconds: imported.seconds, peakRssMB: mb(imported) },
    broadcast: { seconds: broadcast.seconds, peakRssMB: mb(broadcast), sentCount, status: String(broadcastJson["status"]) },
    dispatch: {
      seconds,
      peakRssMB: usageOf("maxRssKiB") * 1024 / 1e6,
      cpuSeconds: usageOf("cpuMicros") / 1e6,
      summary: typeof summary === "object" && summary !== null ? Object.fromEntries(Object.entries(summary)) : {}
    },
    smsc: smscSummary,
    memory: Series.memory(withHeap, sentCount),
    partsPerSecond: Series.rate(progress, sentCount),
    tenths: Series.tenths(progress, sentCount),
    samples: withHeap,
    loadAverage: os.loadavg()
  }
}
