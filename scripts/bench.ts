/**
 * `npm run bench`: measures smsbook's batch jobs on seeded data — import, re-import, broadcast, report — as
 * rows/s and peak memory against the raw csv-parse and csv-stringify, prints the table and writes docs/benchmarks.md.
 * Over 400 lines: the driver owns the run order, the same-run baselines and the document it writes; the jobs live in scripts/bench/.
 */
import { spawnSync } from "node:child_process"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import * as Agreement from "./bench/Agreement.ts"
import * as Child from "./bench/Child.ts"
import * as ContactsFile from "./bench/ContactsFile.ts"
import * as Flags from "./bench/Flags.ts"
import * as Jobs from "./bench/Jobs.ts"
import * as Profile from "./bench/Profile.ts"
import * as Results from "./bench/Results.ts"

const usage = `npm run bench -- [flags]          (npm run bench -- http | smpp | postgres [flags]: the server, carrier and PostgreSQL benches)

  --rows N           contacts in the file and messages in the report (default 1,000,000; 1e6, 1_000_000 read too)
  --jobs LIST        comma-separated, of ${Jobs.names.join(", ")} (default all; what a job needs is added)
  --out DIR          where the files go (default a temporary directory, removed at the end)
  --keep             keep the temporary directory
  --profile-rows N   rows of the CPU-profiled re-runs of jobs that miss a speed target (default 200,000)
  --no-profile       do not profile missed targets
  --doc PATH         the document to update (default docs/benchmarks.md); --no-doc: none
`

const repo = fileURLToPath(new URL("..", import.meta.url))
// The launcher users run (its shebang's V8 flags included, see bench/Child.ts), not bin.ts alone.
const bin = path.join(repo, "packages/batch/bin/smsbook.js")
const script = (name: string) => path.join(repo, "scripts/bench", name)

const log = (text: string): void => void process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${text}\n`)

const readCount = (text: string, flag: string): number => {
  const n = Number(text.replaceAll(/[,_]/g, ""))
  if (!Number.isSafeInteger(n) || n < 1 || n > 10_000_000) throw new Error(`${flag} must be a whole number from 1 to 10,000,000, not ${text}`)
  return n
}

// ---- JSON read from the jobs' stdout -----------------------------------------------------------------

type Json = { readonly [key: string]: unknown }

const isJson = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value)

/** The last JSON object a job printed (smsbook prints one, pretty-printed). */
const jsonOf = (stdout: string): Json | undefined => {
  const at = stdout.indexOf("{")
  if (at < 0) return undefined
  try {
    const parsed: unknown = JSON.parse(stdout.slice(at))
    return isJson(parsed) ? parsed : undefined
  } catch {
    return undefined
  }
}

const num = (json: Json | undefined, key: string): number | undefined => {
  const value = json?.[key]
  return typeof value === "number" ? value : undefined
}

const failure = (run: Child.Run, json: Json | undefined): string | undefined => {
  if (run.code === 0 && json !== undefined) return undefined
  const lastLine = run.stderr.trim().split("\n").filter((line) => line.trim() !== "").slice(-3).join(" ").slice(0, 300)
  return `exit ${run.code ?? "signal"}: ${lastLine || "no JSON summary on stdout"}`
}

const mb = (run: Child.Run) => run.peakRssMiB * 1024 * 1024 / 1e6

const sha256 = async (file: string): Promise<string> => {
  const hash = createHash("sha256")
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk)
  return hash.digest("hex")
}

// ---- the run ---------------------------------------------------------------------------------------

interface Config {
  readonly rows: number
  readonly jobs: ReadonlyArray<Jobs.Name>
  readonly dir: string
  readonly temporary: boolean
  readonly keep: boolean
  readonly profileRows: number
  readonly profile: boolean
  readonly doc: string | undefined
  readonly command: string
}

const configure = (): Config => {
  const values = Flags.read(usage, () => parseArgs({
    options: {
      rows: { type: "string" },
      jobs: { type: "string" },
      out: { type: "string" },
      keep: { type: "boolean" },
      "profile-rows": { type: "string" },
      "no-profile": { type: "boolean" },
      doc: { type: "string" },
      "no-doc": { type: "boolean" },
      help: { type: "boolean", short: "h" }
    }
  }))
  const rows = values.rows === undefined ? 1_000_000 : readCount(values.rows, "--rows")
  const asked = (values.jobs ?? Jobs.names.join(",")).split(",").map((job) => job.trim()).filter((job) => job !== "")
  const unknown = asked.filter((job) => !Jobs.isName(job))
  if (unknown.length > 0) throw new Error(`unknown job ${unknown.join(", ")}: use ${Jobs.names.join(", ")}`)
  const dir = values.out === undefined ? fs.mkdtempSync(path.join(os.tmpdir(), "smsbook-bench-")) : path.resolve(values.out)
  fs.mkdirSync(dir, { recursive: true })
  return {
    rows,
    jobs: Jobs.closure(asked.filter(Jobs.isName)),
    dir,
    temporary: values.out === undefined,
    keep: values.keep === true,
    profileRows: Math.min(rows, values["profile-rows"] === undefined ? 200_000 : readCount(values["profile-rows"], "--profile-rows")),
    profile: values["no-profile"] !== true,
    doc: values["no-doc"] === true ? undefined : path.resolve(values.doc ?? path.join(repo, "docs/benchmarks.md")),
    command: ["npm run bench --", ...process.argv.slice(2)].join(" ").replace(/ --$/, "")
  }
}

const message = "Shop opens at 9 tomorrow: 20% off everything, this weekend only"

/** Removes what a previous run left in the directory, so every store starts empty. */
const clean = (dir: string, names: ReadonlyArray<string>): void => {
  for (const name of names) for (const suffix of ["", "-wal", "-shm", "-journal"]) fs.rmSync(path.join(dir, name + suffix), { force: true })
}

/** A smsbook command line as the document shows it: paths relative to the output directory, spaces quoted. */
const shown = (dir: string, args: ReadonlyArray<string>): string =>
  `smsbook ${args.map((arg) => arg.replaceAll(`${dir}${path.sep}`, "")).map((arg) => arg.includes(" ") ? JSON.stringify(arg) : arg).join(" ")}`

interface Runs {
  readonly measured: Array<Jobs.Measured>
  readonly checks: Array<string>
  readonly data: Array<string>
}

/** Where CPU profiles go and of which jobs: the profiled re-runs of missed targets. */
interface Profiling {
  readonly dir: string
  readonly jobs: ReadonlyArray<Jobs.Name>
}

const contactsJobs = async (config: Config, runs: Runs, dir: string, rows: number, profiling?: Profiling) => {
  const profileDir = profiling?.dir
  const file = path.join(dir, "contacts.csv")
  const db = path.join(dir, "bench.db")
  const rejects = path.join(dir, "contacts.rejects.csv")
  clean(dir, ["bench.db"])
  const started = performance.now()
  const stats = await ContactsFile.write(file, rows)
  const badRows = Object.values(stats.bad).reduce((a, b) => a + b, 0)
  if (profileDir === undefined) {
    runs.data.push(
      `Contacts file: ${Results.count(stats.rows)} rows, ${(stats.bytes / 1e6).toFixed(1)} MB, generated in ` +
        `${((performance.now() - started) / 1000).toFixed(1)} s (seed 20261121): ${ContactsFile.describe(stats)}; names with quotes, ` +
        "commas, accents and Cyrillic; tags `all` on every row, `news` on ~30 %, `VIP` on ~5 %."
    )
  }
  const store = `sqlite:${db}`
  const importArgs = ["import", file, "--default-country", ContactsFile.defaultCountry, "--store", store, "--rejects", rejects, "--json"]
  const profiles: Array<{ readonly job: string; readonly file: string }> = []
  const profileOf = (job: Jobs.Name) => profiling !== undefined && profiling.jobs.includes(job) ? profiling.dir : undefined

  let parseRowsPerSecond = 0
  let parseRowsPerCpuSecond = 0
  if (config.jobs.includes("parse") && profileDir === undefined) {
    log(`csv-parse alone over ${Results.count(rows)} rows…`)
    const run = await Child.run(script("ParseBaseline.ts"), [file], { cwd: dir })
    const json = jsonOf(run.stdout)
    const failed = failure(run, json)
    const parsed = num(json, "rows") ?? 0
    const measured: Jobs.Measured = {
      job: "csv-parse alone",
      command: "node scripts/bench/ParseBaseline.ts contacts.csv (the import's csv-parse options, streamed)",
      rows: parsed,
      seconds: run.seconds,
      cpuSeconds: run.cpuSeconds,
      peakRssMB: mb(run),
      ...(failed === undefined ? {} : { failed }),
      notes: [`records counted ${Results.count(parsed)}; in-process ${(num(json, "seconds") ?? 0).toFixed(1)} s`]
    }
    parseRowsPerSecond = Jobs.rowsPerSecond(measured)
    parseRowsPerCpuSecond = Jobs.rowsPerCpuSecond(measured)
    runs.measured.push(measured)
  }
  if (config.jobs.includes("numbers") && profileDir === undefined) {
    const limit = Math.min(rows, 200_000)
    log(`number checks, libphonenumber-js against the compiled plans, over ${Results.count(limit)} numbers…`)
    const run = await Child.run(script("NumberCheck.ts"), [file, String(limit)], { cwd: dir })
    const json = jsonOf(run.stdout)
    const failed = failure(run, json)
    const library = num(json, "libraryMicros") ?? 0
    const compiled = num(json, "compiledMicros") ?? 0
    runs.data.push(
      failed !== undefined
        ? `Number checks: failed (${failed})`
        : `Number checks (\`node scripts/bench/NumberCheck.ts contacts.csv ${limit}\`: the file's first ${Results.count(num(json, "numbers") ?? 0)} ` +
          "numbers read with the row's country cell, else the default; both alternated in one process, best of 3 rounds): " +
          `libphonenumber-js \`parsePhoneNumber\` + \`isValid\` (max) ${library.toFixed(2)} µs per number, core's compiled numbering ` +
          `plans (internal/numberingPlans.ts, library fallback for ${Results.count(num(json, "fallbacks") ?? 0)} numbers it does not ` +
          `answer) ${compiled.toFixed(2)} µs: **${(library / compiled).toFixed(1)}× faster**; answers differ on ` +
          `${Results.count(num(json, "disagreements") ?? 0)} numbers; ${num(json, "regionsCompiled") ?? 0} regions compiled.`
    )
    if (failed === undefined) runs.checks.push(`number checks: the compiled plans agree with libphonenumber-js on every number: ${num(json, "disagreements") === 0 ? "yes" : "**NO**"}`)
  }

  const speed = parseRowsPerSecond > 0
    ? {
      speedTarget: {
        reference: "csv-parse",
        referenceRowsPerSecond: parseRowsPerSecond,
        referenceRowsPerCpuSecond: parseRowsPerCpuSecond,
        ratio: Jobs.importSpeed
      }
    }
    : {}

  const importJob = async (job: "import" | "reimport", title: string) => {
    log(`${title} of ${Results.count(rows)} rows…`)
    const run = await Child.run(bin, importArgs, { cwd: dir, profileDir: profileOf(job) })
    // The import parses and checks rows on a worker thread: its profile follows the main thread's.
    run.profiles.forEach((file, at) =>
      profiles.push({ job: run.profiles.length === 1 ? title : `${title}, ${at === 0 ? "main thread" : "worker thread"}`, file })
    )
    const json = jsonOf(run.stdout)
    const failed = failure(run, json)
    const read = num(json, "read") ?? 0
    const parts = ["created", "updated", "unchanged", "rejected"].map((key) => num(json, key) ?? 0)
    const elapsed = (num(json, "elapsed_ms") ?? 0) / 1000
    const measured: Jobs.Measured = {
      job: `smsbook ${title}`,
      command: shown(dir, importArgs),
      rows: read,
      seconds: run.seconds,
      cpuSeconds: run.cpuSeconds,
      peakRssMB: mb(run),
      ...speed,
      memoryCeiling: Jobs.importMemoryMB,
      ...(failed === undefined ? {} : { failed }),
      notes: failed !== undefined ? [] : [
        `summary: read ${Results.count(read)}, created ${Results.count(parts[0] ?? 0)}, updated ${Results.count(parts[1] ?? 0)}, ` +
        `unchanged ${Results.count(parts[2] ?? 0)}, rejected ${Results.count(parts[3] ?? 0)}, duplicates ${Results.count(num(json, "duplicates") ?? 0)}; ` +
        `rejects by reason ${JSON.stringify(json?.["reasons"] ?? {})}`,
        `its own elapsed_ms: ${elapsed.toFixed(1)} s (${Results.count(num(json, "rows_per_second") ?? 0)} rows/s); ` +
        `wall − elapsed = ${(run.seconds - elapsed).toFixed(1)} s of start-up and exit`
      ]
    }
    if (profileDir === undefined) {
      runs.measured.push(measured)
      if (failed === undefined) {
        const sum = parts.reduce((a, b) => a + b, 0)
        runs.checks.push(`${title}: read (${Results.count(read)}) = rows in the file (${Results.count(rows)}): ${read === rows ? "yes" : "**NO**"}; ` +
          `= created + updated + unchanged + rejected (${Results.count(sum)}): ${sum === read ? "yes" : "**NO**"}; ` +
          `rejected = bad rows written (${Results.count(badRows)}): ${parts[3] === badRows ? "yes" : `**NO** (${Results.count(parts[3] ?? 0)})`}`)
        if (job === "import") {
          // The valid rows are those the number-reading policy (libphonenumber's one valid reading) must keep.
          runs.checks.push(`import: created = distinct valid numbers (${Results.count(stats.valid)}): ${parts[0] === stats.valid ? "yes" : "**NO**"} ` +
            `(created ${Results.count(parts[0] ?? 0)}, ${(100 * (parts[0] ?? 0) / stats.valid).toFixed(2)} % of them)`)
          const agreed = Agreement.check(db, stats.intended)
          runs.checks.push(
            `import: every valid row stored as the number written: kept ${Results.count(agreed.kept)} of ${Results.count(agreed.intended)} ` +
              `(${(100 * agreed.kept / agreed.intended).toFixed(3)} %), stored numbers nobody wrote ${Results.count(agreed.unwritten)}` +
              `${agreed.examples.length > 0 ? ` (${agreed.examples.join(", ")}…)` : ""}: ` +
              `${agreed.kept === agreed.intended && agreed.unwritten === 0 ? "yes" : "**NO**"}`
          )
        } else {
          runs.checks.push(`re-import: nothing created or updated: ${parts[0] === 0 && parts[1] === 0 ? "yes" : "**NO**"}`)
        }
      }
    }
    return failed === undefined
  }

  if (!config.jobs.includes("import")) return { profiles }
  const imported = await importJob("import", "import")
  if (config.jobs.includes("reimport") && imported) await importJob("reimport", "re-import (all unchanged)")

  if (config.jobs.includes("broadcast") && imported && profileDir === undefined) {
    const args = ["broadcast", "--tags", "all", "--message", message, "--store", store, "--short-name", "BENCH", "--json"]
    log(`broadcast to tag all…`)
    const run = await Child.run(bin, args, { cwd: dir })
    const json = jsonOf(run.stdout)
    const failed = failure(run, json)
    const handed = num(json, "handed_over") ?? 0
    runs.measured.push({
      job: "smsbook broadcast",
      command: shown(dir, args),
      rows: handed,
      seconds: run.seconds,
      cpuSeconds: run.cpuSeconds,
      peakRssMB: mb(run),
      memoryCeiling: Jobs.memoryMB,
      ...(failed === undefined ? {} : { failed }),
      notes: failed !== undefined ? [] : [
        `summary: recipients ${Results.count(num(json, "recipients") ?? 0)}, monitors ${num(json, "monitors") ?? 0}, ` +
        `segments ${num(json, "segments") ?? 0}, sent_count ${Results.count(num(json, "sent_count") ?? 0)}, status ${String(json?.["status"])}; ` +
        "rows = recipients handed over to the carrier (the outbox table), each recorded as a delivery"
      ]
    })
    if (failed === undefined) {
      runs.checks.push(`broadcast: recipients = contacts imported (${Results.count(stats.valid)}): ${num(json, "recipients") === stats.valid ? "yes" : "**NO**"}`)
    }
  }
  return { profiles }
}

const reportJobs = async (config: Config, runs: Runs, dir: string, rows: number, profileDir?: string) => {
  const db = path.join(dir, "report.db")
  clean(dir, ["report.db"])
  const profiles: Array<{ readonly job: string; readonly file: string }> = []
  log(`seeding ${Results.count(rows)} messages through MessageStore.insert…`)
  const seeded = await Child.run(script("SeedMessages.ts"), [db, String(rows)], { cwd: dir })
  const seedJson = jsonOf(seeded.stdout)
  const seedFailed = failure(seeded, seedJson)
  if (seedFailed !== undefined) throw new Error(`seeding messages failed: ${seedFailed}`)
  if (profileDir === undefined) {
    runs.data.push(
      `Messages: ${Results.count(rows)} seeded (seed 20261122) into a fresh SQLite file through the store's port ` +
        `(\`MessageStore.insert\`, 10,000 per \`transaction\`) in ${seeded.seconds.toFixed(1)} s ` +
        `(${Results.count(rows / seeded.seconds)} rows/s, peak RSS ${mb(seeded).toFixed(0)} MB): 95 % individual MT, 5 % inbound MO, ` +
        "texts with commas, quotes, line breaks, formulas (`=…`, `-…`, `@…`) and emoji, spread over 30 days."
    )
  }
  const out = path.join(dir, "report.csv")
  let best = 0
  let bestCpu = 0
  let bestFile = ""
  if (profileDir === undefined) {
    for (const mode of ["stream", "sync"] as const) {
      const file = path.join(dir, `stringify-${mode}.csv`)
      log(`csv-stringify alone (${mode}) over ${Results.count(rows)} rows…`)
      const run = await Child.run(script("StringifyBaseline.ts"), [file, String(rows), mode], { cwd: dir })
      const json = jsonOf(run.stdout)
      const failed = failure(run, json)
      const building = num(json, "buildingSeconds") ?? 0
      const measured: Jobs.Measured = {
        job: `csv-stringify alone (${mode === "stream" ? "stream API" : "sync, 2,000-row chunks"})`,
        command: `node scripts/bench/StringifyBaseline.ts stringify-${mode}.csv ${rows} ${mode}`,
        rows,
        seconds: run.seconds - building,
        cpuSeconds: run.cpuSeconds - (num(json, "buildingCpuSeconds") ?? 0),
        peakRssMB: mb(run),
        ...(failed === undefined ? {} : { failed }),
        notes: [`wall ${run.seconds.toFixed(1)} s, of which ${building.toFixed(1)} s building the rows in memory (not counted)`]
      }
      runs.measured.push(measured)
      if (failed === undefined && Jobs.rowsPerSecond(measured) > best) {
        best = Jobs.rowsPerSecond(measured)
        bestCpu = Jobs.rowsPerCpuSecond(measured)
        bestFile = file
      }
    }
  }
  const args = ["report", "--format", "csv", "--out", out, "--store", `sqlite:${db}`, "--json"]
  log(`report of ${Results.count(rows)} messages…`)
  const run = await Child.run(bin, args, { cwd: dir, profileDir })
  if (run.profile !== undefined) profiles.push({ job: "report", file: run.profile })
  if (profileDir !== undefined) return { profiles }
  const json = jsonOf(run.stdout)
  const failed = failure(run, json)
  runs.measured.push({
    job: "smsbook report",
    command: shown(dir, args),
    rows: num(json, "rows") ?? 0,
    seconds: run.seconds,
    cpuSeconds: run.cpuSeconds,
    peakRssMB: mb(run),
    ...(best > 0
      ? { speedTarget: { reference: "csv-stringify", referenceRowsPerSecond: best, referenceRowsPerCpuSecond: bestCpu, ratio: Jobs.reportSpeed } }
      : {}),
    memoryCeiling: Jobs.memoryMB,
    ...(failed === undefined ? {} : { failed }),
    notes: []
  })
  if (failed === undefined && bestFile !== "") {
    const same = (await sha256(out)) === (await sha256(bestFile))
    runs.checks.push(`report: the CSV is byte for byte the one csv-stringify alone wrote (same rows, same bytes): ${same ? "yes" : "**NO**"}`)
  }
  return { profiles }
}

/** `npm run bench -- http|smpp|postgres [flags]`: the server, carrier and PostgreSQL benches live in scripts of their own. */
const elsewhere = (name: string | undefined): string | undefined =>
  name === "http" ? "bench-http.ts" : name === "smpp" ? "bench-smpp.ts" : name === "postgres" ? "bench-postgres.ts" : undefined

const main = async (): Promise<number> => {
  const [first, ...rest] = process.argv.slice(2)
  const other = elsewhere(first)
  if (other !== undefined) {
    return spawnSync(process.execPath, [path.join(repo, "scripts", other), ...rest], { stdio: "inherit" }).status ?? 1
  }
  let config: Config
  try {
    config = configure()
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${usage}`)
    return 2
  }
  const started = performance.now()
  const machine = Results.machine()
  log(`${Results.count(config.rows)} rows, jobs ${config.jobs.join(", ")}, files in ${config.dir}`)
  const runs: Runs = { measured: [], checks: [], data: [] }
  try {
    if (config.jobs.some((job) => job !== "report")) await contactsJobs(config, runs, config.dir, config.rows)
    if (config.jobs.includes("report")) await reportJobs(config, runs, config.dir, config.rows)

    const profileLines: Array<string> = []
    // Short of the goal: a job past its bar still shows where its time goes.
    const missedSpeed = runs.measured.filter((m) => {
      const { speed } = Jobs.verdict(m)
      return m.failed === undefined && (speed === "bar" || speed === "missed")
    })
    if (config.profile && missedSpeed.length > 0) {
      const dir = path.join(config.dir, "profile")
      fs.mkdirSync(dir, { recursive: true })
      const profileDir = path.join(dir, "cpuprofiles")
      fs.mkdirSync(profileDir, { recursive: true })
      const rows = config.profileRows
      const missed = (prefix: string) => missedSpeed.some((m) => m.job.startsWith(prefix))
      const asked: Array<Jobs.Name> = [
        ...(missed("smsbook import") ? ["import" as const] : []),
        ...(missed("smsbook re-import") ? ["reimport" as const] : [])
      ]
      const profiled: Array<{ readonly job: string; readonly file: string }> = []
      if (asked.length > 0) {
        // The re-import needs an import before it; each is profiled only when its own target was missed.
        const jobs = Jobs.closure(asked).filter((job) => job !== "parse")
        profiled.push(...(await contactsJobs({ ...config, jobs }, runs, dir, rows, { dir: profileDir, jobs: asked })).profiles)
      }
      if (missed("smsbook report")) profiled.push(...(await reportJobs(config, runs, dir, rows, profileDir)).profiles)
      for (const { file, job } of profiled) {
        log(`summarising the profile of ${job}…`)
        profileLines.push(`### Profile: ${job}, ${Results.count(rows)} rows (\`node --cpu-prof\`)`, "", ...Profile.markdown(Profile.summarize(file)), "")
      }
    }

    const section = Results.section({
      rows: config.rows,
      date: new Date().toISOString().slice(0, 16).replace("T", " ") + " UTC",
      machine,
      loadAtEnd: os.loadavg(),
      command: config.command,
      data: runs.data,
      measured: runs.measured,
      checks: runs.checks,
      profiles: profileLines,
      totalSeconds: (performance.now() - started) / 1000
    })
    process.stdout.write(`\n${Results.table(runs.measured).join("\n")}\n\n${[...Results.misses(runs.measured), ...runs.checks.map((c) => `- ${c}`)].join("\n")}\n`)
    if (profileLines.length > 0) process.stdout.write(`\n${profileLines.join("\n")}\n`)
    if (config.doc !== undefined) {
      Results.writeDocument(config.doc, section, config.rows)
      log(`wrote ${path.relative(process.cwd(), config.doc)}`)
    }
    return runs.measured.some((m) => m.failed !== undefined) ? 1 : 0
  } finally {
    if (config.temporary && !config.keep) fs.rmSync(config.dir, { recursive: true, force: true })
    else log(`files kept in ${config.dir}`)
  }
}

process.exitCode = await main()
