/**
 * `npm run bench -- smpp`: parts per second through smsbook's SMPP carrier to the test SMSC (in a process of its own) at a
 * window of 10 and 100 against the `smpp` package alone in the same run, and a broadcast to N contacts dispatched by
 * `smsbook dispatch --once` with its memory sampled. Prints the figures and updates docs/benchmarks.md.
 */
import { type ChildProcess, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import { fileURLToPath } from "node:url"
import * as path from "node:path"
import { parseArgs } from "node:util"
import { SmppCarrier, SmppConfig, ShortMessage } from "@smsbook/carrier"
import { Account, Carrier, MemoryStore, Sms } from "@smsbook/core"
import { Effect, Layer, ManagedRuntime } from "effect"
import smpp from "smpp"
import * as DispatchJob from "./bench/DispatchJob.ts"
import * as DispatchReport from "./bench/DispatchReport.ts"
import * as Flags from "./bench/Flags.ts"

const usage = `npm run bench -- smpp [flags]

  --jobs LIST         window (carrier against the smpp package), dispatch (a broadcast dispatched); default both
  --parts N           parts per window run (default 20,000)
  --rounds N          alternating runs per window (default 3)
  --recipients N      contacts of the dispatched broadcast (default 1,000,000; at most ${DispatchJob.maxRecipients.toLocaleString("en-US")})
  --dispatch-window N the dispatcher's window (default 100)
  --postgres URL      dispatch from a fresh database on this PostgreSQL server (default a SQLite file)
  --profile DIR       write the dispatcher's CPU profile (--cpu-prof) into DIR
  --out DIR           where the dispatch's files go (default a temporary directory, removed at the end)
  --no-doc            do not update docs/benchmarks.md
`

const repo = fileURLToPath(new URL("..", import.meta.url))
const values = Flags.read(usage, () => parseArgs({
  options: {
    jobs: { type: "string", default: "window,dispatch" },
    parts: { type: "string", default: "20000" },
    rounds: { type: "string", default: "3" },
    recipients: { type: "string", default: "1000000" },
    "dispatch-window": { type: "string", default: "100" },
    postgres: { type: "string" },
    profile: { type: "string" },
    out: { type: "string" },
    "no-doc": { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false }
  }
}))
const count = (text: string, flag: string, max: number): number => {
  const n = Number(text.replaceAll(/[,_]/g, ""))
  if (!Number.isSafeInteger(n) || n < 1 || n > max) {
    process.stderr.write(`${flag} must be a whole number from 1 to ${max.toLocaleString("en-US")}, not ${text}\n\n${usage}`)
    process.exit(2)
  }
  return n
}
const jobs = values.jobs.split(",").map((job) => job.trim())
const unknownJobs = jobs.filter((job) => job !== "window" && job !== "dispatch")
if (unknownJobs.length > 0) {
  process.stderr.write(`unknown job ${unknownJobs.join(", ")}: use window, dispatch\n\n${usage}`)
  process.exit(2)
}
const total = count(values.parts, "--parts", 10_000_000)
const rounds = count(values.rounds, "--rounds", 100)
const recipients = count(values.recipients, "--recipients", DispatchJob.maxRecipients)
const dispatchWindow = count(values["dispatch-window"], "--dispatch-window", 10_000)
const log = (text: string): void => void process.stderr.write(`[bench:smpp ${new Date().toISOString().slice(11, 19)}] ${text}\n`)
const load = () => os.loadavg().map((v) => v.toFixed(2)).join(" / ")

const startSmsc = (): Promise<{ readonly child: ChildProcess; readonly port: number }> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--conditions=@smsbook/source", `${repo}packages/carrier/test/smsc.ts`, "--no-receipts"], { stdio: ["ignore", "pipe", "inherit"] })
    child.stdout?.once("data", (chunk: Buffer) => {
      const line = chunk.toString().split("\n")[0] ?? ""
      resolve({ child, port: Number(JSON.parse(line).port) })
    })
    child.once("error", reject)
  })

/** The parts: a 2-part UCS-2 text to `total / 2` numbers, as core cuts it. */
const shortName = "Shop"
const text = "Привет! Большая распродажа в эти выходные, скидки до 50% на всё — ждём вас"
const texts = Sms.analyzePrefixed(shortName, text).parts
const parts: ReadonlyArray<Carrier.Part> = Array.from({ length: total }, (_, i) => ({
  message_id: "bench",
  msisdn: `4474${String(Math.floor(i / texts.length)).padStart(8, "0")}`,
  short_code: "SHOP",
  part: (i % texts.length) + 1,
  parts: texts.length,
  text: texts[i % texts.length] ?? ""
}))

/** smsbook: the whole carrier (encoding, window, tps check, deliveries) through core's port. */
const throughCarrier = async (port: number, window: number): Promise<number> => {
  const config: SmppConfig.SmppConfig = { ...SmppConfig.defaults, host: "127.0.0.1", port, systemId: "bench", password: "bench", window, receipts: false }
  const runtime = ManagedRuntime.make(SmppCarrier.layer(config, () => undefined).pipe(
    Layer.provideMerge(Layer.merge(MemoryStore.layer, Account.layer({ ...Account.defaults, short_name: shortName })))
  ))
  const carrier = await runtime.runPromise(Effect.service(Carrier.Carrier))
  await runtime.runPromise(Effect.flatMap(Effect.service(SmppCarrier.SmppCarrier), (smsc) => Effect.repeat(smsc.isBound, { until: (bound) => bound })))
  const started = performance.now()
  const refused = await runtime.runPromise(carrier.handOver(parts))
  const seconds = (performance.now() - started) / 1000
  await runtime.dispose()
  if (refused !== 0) throw new Error(`${refused} parts refused`)
  return total / seconds
}

/** The package alone: the same PDUs (encoded beforehand), a plain counter for the window. */
const bare = (port: number, window: number): Promise<number> =>
  new Promise((resolve, reject) => {
    const pdus = parts.map((part) => {
      const encoded = ShortMessage.encodePart(part.text, { encoding: "UCS-2", packing: "unpacked", reference: 7, sequence: part.part, total: part.parts })
      return {
        source_addr_ton: 5, source_addr_npi: 0, source_addr: part.short_code, dest_addr_ton: 1, dest_addr_npi: 1,
        destination_addr: part.msisdn, registered_delivery: 0, data_coding: encoded.data_coding, esm_class: encoded.esm_class,
        short_message: Buffer.from(encoded.short_message)
      }
    })
    const session = smpp.connect({ host: "127.0.0.1", port })
    session.on("error", reject)
    session.socket.setNoDelay(true)
    let sent = 0
    let answered = 0
    let outstanding = 0
    let started = 0
    const pump = () => {
      while (outstanding < window && sent < pdus.length) {
        outstanding++
        session.submit_sm(pdus[sent++] ?? {}, (response) => {
          if (response.command_status !== 0) return reject(new Error(`status ${response.command_status}`))
          outstanding--
          answered++
          if (answered === pdus.length) {
            const seconds = (performance.now() - started) / 1000
            session.close()
            resolve(pdus.length / seconds)
          } else pump()
        })
      }
    }
    session.on("connect", () =>
      session.bind_transceiver({ system_id: "bench", password: "bench", system_type: "bench", interface_version: 0x34 }, () => {
        started = performance.now()
        pump()
      }))
  })

const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0

/** The window comparison: the carrier against the package alone, alternating, in one process sequence. */
const windowJob = async (): Promise<string> => {
  const loadBefore = load()
  const { child, port } = await startSmsc()
  const rows: Array<{ window: number; bare: number; smsbook: number }> = []
  try {
    for (const window of [10, 100]) {
      const bareRuns: Array<number> = []
      const carrierRuns: Array<number> = []
      // Alternating, after one warm-up each, so neither side gets the warmer process.
      await bare(port, window)
      await throughCarrier(port, window)
      for (let round = 0; round < rounds; round++) {
        bareRuns.push(await bare(port, window))
        carrierRuns.push(await throughCarrier(port, window))
      }
      rows.push({ window, bare: median(bareRuns), smsbook: median(carrierRuns) })
      log(`window ${window}: bare ${bareRuns.map(Math.round).join(", ")}; smsbook ${carrierRuns.map(Math.round).join(", ")}`)
    }
  } finally {
    child.kill("SIGTERM")
  }
  const fmt = (n: number) => Math.round(n).toLocaleString("en-US")
  const table = [
    "| window | `smpp` package alone parts/s | smsbook carrier parts/s | ratio |",
    "|---|---|---|---|",
    ...rows.map((row) => `| ${row.window} | ${fmt(row.bare)} | ${fmt(row.smsbook)} | ${(row.smsbook / row.bare).toFixed(2)}× |`)
  ].join("\n")
  console.log(table)
  return `### Window 10 and 100 against the \`smpp\` package alone (\`npm run bench -- smpp --jobs window\`)

${fmt(total)} parts (a 2-part UCS-2 text to ${fmt(total / 2)} numbers) per run, submit_sm to the test SMSC (its own process, answering at once, no receipts) on 127.0.0.1; median of ${rounds} alternating runs after a warm-up each. smsbook: core's \`Carrier.handOver\` through \`SmppCarrier\` (encoding, UDH, window, tps check, delivery tracking); the \`smpp\` package alone: the same PDUs encoded beforehand, a counter for the window. ${os.availableParallelism()} CPUs, Node ${process.version}, ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC; load average (1/5/15 min) ${loadBefore} before, ${load()} after.

${table}`
}

/** The broadcast dispatched, in a directory of its own (removed unless `--out` named it). */
const dispatchJob = async (): Promise<string> => {
  const dir = values.out === undefined ? fs.mkdtempSync(path.join(os.tmpdir(), "smsbook-dispatch-")) : path.resolve(values.out)
  fs.mkdirSync(dir, { recursive: true })
  const loadBefore = os.loadavg()
  try {
    const result = await DispatchJob.run({ recipients, dir, postgres: values.postgres, window: dispatchWindow, profileDir: values.profile === undefined ? undefined : path.resolve(values.profile), log })
    const lines = DispatchReport.lines(result, loadBefore)
    console.log(lines.join("\n"))
    return lines.join("\n")
  } finally {
    if (values.out === undefined) fs.rmSync(dir, { recursive: true, force: true })
  }
}

/** Replaces one block of the smpp section (adding the section, or the block at its end, when missing). */
const replaceBlock = (doc: string, name: string, body: string): string => {
  const block = `<!-- smpp-bench:${name}:start -->\n${body}\n<!-- smpp-bench:${name}:end -->`
  const marked = new RegExp(`<!-- smpp-bench:${name}:start -->[\\s\\S]*?<!-- smpp-bench:${name}:end -->`)
  if (marked.test(doc)) return doc.replace(marked, () => block)
  const end = "<!-- smpp-bench:end -->"
  if (doc.includes(end)) return doc.replace(end, () => `${block}\n${end}`)
  return `${doc.trimEnd()}\n\n<!-- smpp-bench:start -->\n## SMPP carrier (\`npm run bench -- smpp\`)\n\n${block}\n${end}\n`
}

const blocks: Array<readonly [string, string]> = []
if (jobs.includes("window")) blocks.push(["window", await windowJob()])
if (jobs.includes("dispatch")) blocks.push([values.postgres === undefined ? "dispatch-sqlite" : "dispatch-postgres", await dispatchJob()])
if (!values["no-doc"]) {
  const file = `${repo}docs/benchmarks.md`
  fs.writeFileSync(file, blocks.reduce((doc, [name, body]) => replaceBlock(doc, name, body), fs.readFileSync(file, "utf8")))
}
