/**
 * The benchmark's results as text: the table printed on stdout and the section of `docs/benchmarks.md`
 * for one row count, merged into the document so runs at 1M and 5M rows keep their own sections.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as Jobs from "./Jobs.ts"

export interface Machine {
  readonly cpu: string
  readonly cores: number
  readonly memoryGiB: number
  readonly os: string
  readonly node: string
  readonly loadAtStart: ReadonlyArray<number>
}

/** The machine the figures were measured on. */
export const machine = (): Machine => ({
  cpu: os.cpus()[0]?.model.trim() ?? "unknown",
  cores: os.availableParallelism(),
  memoryGiB: os.totalmem() / 2 ** 30,
  os: `${os.type()} ${os.release()} ${os.arch()}`,
  node: process.version,
  loadAtStart: os.loadavg()
})

export const count = (n: number): string => Math.round(n).toLocaleString("en-US")
const fixed = (n: number, digits: number): string => n.toFixed(digits)

/** A target in words: `≥ 0.35× csv-parse (goal 0.5×)`, `≤ 400 MB (goal 300)`; the goal alone where it is the bar. */
const targetText = (before: string, target: Jobs.Target, after: string, goalAfter: string): string =>
  `${before}${target.bar}${after}${target.goal === target.bar ? "" : ` (goal ${target.goal}${goalAfter})`}`

const metText = (what: string, reached: Jobs.Reached): string =>
  reached === "goal" ? `${what} yes` : reached === "bar" ? `${what}: bar yes, **goal NO**` : `**${what} NO**`

/** The cells of one table row: job, rows, s, rows/s, × raw, CPU s, × raw by CPU, peak RSS, target, met?. */
const cells = (m: Jobs.Measured): ReadonlyArray<string> => {
  const ratio = Jobs.ratio(m)
  const cpuRatio = Jobs.cpuRatio(m)
  const { memory, speed } = Jobs.verdict(m)
  const targets = [
    ...(m.speedTarget === undefined ? [] : [targetText("≥ ", m.speedTarget.ratio, `× ${m.speedTarget.reference}`, "×")]),
    ...(m.memoryCeiling === undefined ? [] : [targetText("≤ ", m.memoryCeiling, " MB", "")])
  ]
  const met = [
    ...(speed === undefined ? [] : [metText("speed", speed)]),
    ...(memory === undefined ? [] : [metText("memory", memory)])
  ]
  if (m.failed !== undefined) {
    return [m.job, count(m.rows), "—", "—", "—", "—", "—", "—", targets.join(", ") || "reference", `**failed**: ${m.failed}`]
  }
  return [
    m.job,
    count(m.rows),
    fixed(m.seconds, 1),
    count(Jobs.rowsPerSecond(m)),
    ratio === undefined ? "—" : `${fixed(ratio, 2)}×`,
    fixed(m.cpuSeconds, 1),
    cpuRatio === undefined ? "—" : `${fixed(cpuRatio, 2)}×`,
    fixed(m.peakRssMB, 0),
    targets.join(", ") || "reference",
    met.join(", ") || "—"
  ]
}

const header = [
  "job", "rows", "seconds", "rows/s", "× raw library", "CPU s", "× raw (CPU)", "peak RSS (MB)", "target", "met?"
] as const

/** The results as a markdown table (also readable as plain text on stdout). */
export const table = (measured: ReadonlyArray<Jobs.Measured>): ReadonlyArray<string> => [
  `| ${header.join(" | ")} |`,
  "|---|---:|---:|---:|---:|---:|---:|---:|---|---|",
  ...measured.map((m) => `| ${cells(m).join(" | ")} |`)
]

/** For each target a job fell short of (the bar, else the goal): by how much, in words a reader can act on. */
export const misses = (measured: ReadonlyArray<Jobs.Measured>): ReadonlyArray<string> =>
  measured.flatMap((m) => {
    const { memory, speed } = Jobs.verdict(m)
    const ratio = Jobs.ratio(m)
    const level = (reached: Jobs.Reached | undefined) => reached === "missed" ? "bar" : "goal"
    const lines: Array<string> = []
    if (m.failed !== undefined) lines.push(`- **${m.job}** failed: ${m.failed}`)
    else {
      if (speed !== undefined && speed !== "goal" && ratio !== undefined && m.speedTarget !== undefined) {
        const target = m.speedTarget.ratio[level(speed)]
        const cpuRatio = Jobs.cpuRatio(m)
        lines.push(
          `- **${m.job}**: ${fixed(ratio, 2)}× ${m.speedTarget.reference}` +
            `${cpuRatio === undefined ? "" : ` (${fixed(cpuRatio, 2)}× by CPU time)`}, ${level(speed)} ${target}× — ` +
            `${fixed(100 * (1 - ratio / target), 0)} % short: it must get ${fixed(target / ratio, 2)}× faster ` +
            `(${count(Jobs.rowsPerSecond(m))} → ${count(target * m.speedTarget.referenceRowsPerSecond)} rows/s).`
        )
      }
      if (memory !== undefined && memory !== "goal" && m.memoryCeiling !== undefined) {
        const ceiling = m.memoryCeiling[level(memory)]
        lines.push(
          `- **${m.job}**: peak RSS ${fixed(m.peakRssMB, 0)} MB, ${level(memory)} ${ceiling} MB — ` +
            `${fixed(m.peakRssMB - ceiling, 0)} MB (${fixed(100 * (m.peakRssMB / ceiling - 1), 0)} %) over.`
        )
      }
    }
    return lines
  })

export interface Section {
  readonly rows: number
  readonly date: string
  readonly machine: Machine
  readonly loadAtEnd: ReadonlyArray<number>
  readonly command: string
  readonly data: ReadonlyArray<string>
  readonly measured: ReadonlyArray<Jobs.Measured>
  readonly checks: ReadonlyArray<string>
  /** Markdown of the profiles of missed targets, with their heading. */
  readonly profiles: ReadonlyArray<string>
  readonly totalSeconds: number
}

const load = (values: ReadonlyArray<number>) => values.map((v) => v.toFixed(2)).join(" / ")

/** The markdown of one run, between its markers. */
export const section = (s: Section): ReadonlyArray<string> => {
  const missed = misses(s.measured)
  return [
    startMarker(s.rows),
    `## ${count(s.rows)} rows — ${s.date}`,
    "",
    `Machine: ${s.machine.cpu}, ${s.machine.cores} cores, ${s.machine.memoryGiB.toFixed(1)} GiB RAM, ${s.machine.os}, ` +
      `Node ${s.machine.node}. The cores are shared with other engineers' test runs: load average (1/5/15 min) ` +
      `${load(s.machine.loadAtStart)} at the start, ${load(s.loadAtEnd)} at the end, so figures can be off by tens of percent ` +
      "from one run to the next; ratios come from jobs run minutes apart under similar load.",
    "",
    `Command: \`${s.command}\` (${(s.totalSeconds / 60).toFixed(1)} min in all).`,
    "",
    ...s.data.map((line) => `- ${line}`),
    "",
    ...table(s.measured),
    "",
    "Each job is its own Node process; seconds are wall time from spawn to exit (Node's start-up included, as a user " +
      "sees it) and the targets are judged on them; CPU s is the process's user + system time (all threads), shown " +
      "because the machine is shared: a ratio of CPU times is less disturbed by other work than one of wall times. " +
      "Peak RSS is the process's `maxRSS` (MB = 10^6 bytes). The stringify references exclude the time the harness " +
      "spends building their rows in memory; the faster of the two is the report's reference.",
    "",
    ...s.measured.flatMap((m) => [`- ${m.job}: \`${m.command}\``, ...m.notes.map((note) => `  - ${note}`)]),
    "",
    "Checks:",
    ...s.checks.map((check) => `- ${check}`),
    "",
    "### Targets missed",
    "",
    ...(missed.length === 0 ? ["None."] : missed),
    "",
    ...s.profiles,
    endMarker(s.rows)
  ]
}

const startMarker = (rows: number) => `<!-- bench:rows=${rows} -->`
const endMarker = (rows: number) => `<!-- /bench:rows=${rows} -->`
const insertMarker = "<!-- bench:insert -->"

const skeleton = (): ReadonlyArray<string> => [
  "# Benchmarks",
  "",
  "Measured by `npm run bench` (`scripts/bench.ts`; `npm run bench -- --help` for its flags). Each run writes its own",
  "section below, by row count, and leaves the rest of this file as it is. The data are seeded, so every run at the",
  "same row count measures the same work. It is never part of `npm test`.",
  "",
  insertMarker,
  ""
]

/**
 * The document with this run's section in place: replacing the section of the same row count, or else
 * inserted at the insert marker (created with the document's opening when the file is new). Text outside
 * the markers — the analysis written by hand — is kept.
 */
export const merge = (document: string | undefined, lines: ReadonlyArray<string>, rows: number): string => {
  const text = lines.join("\n")
  const base = document ?? skeleton().join("\n")
  const start = base.indexOf(startMarker(rows))
  const end = base.indexOf(endMarker(rows))
  if (start >= 0 && end > start) return base.slice(0, start) + text + base.slice(end + endMarker(rows).length)
  const at = base.indexOf(insertMarker)
  if (at >= 0) return `${base.slice(0, at)}${text}\n\n${base.slice(at)}`
  return `${base.trimEnd()}\n\n${text}\n`
}

/** Writes the merged document to `path`. */
export const writeDocument = (path: string, lines: ReadonlyArray<string>, rows: number): void => {
  const existing = fs.existsSync(path) ? fs.readFileSync(path, "utf8") : undefined
  fs.writeFileSync(path, merge(existing, lines, rows))
}
