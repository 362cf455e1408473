/**
 * The benchmark's jobs and their targets: each job is a child process measured for wall time and peak
 * memory; a job's figures are judged against the raw library it builds on and the memory ceiling.
 */

/** The jobs `--jobs` can name, in the order they run. */
export const names = ["parse", "numbers", "import", "reimport", "broadcast", "report"] as const
export type Name = (typeof names)[number]

/** What a job needs run before it (the import is judged against the parse, the re-import needs the import…). */
export const needs: { readonly [N in Name]: ReadonlyArray<Name> } = {
  parse: [],
  numbers: [],
  import: ["parse"],
  reimport: ["import"],
  broadcast: ["import"],
  report: []
}

/** The jobs to run for a `--jobs` list: the named ones and what they need, in run order. */
export const closure = (asked: ReadonlyArray<Name>): ReadonlyArray<Name> => {
  const wanted = new Set<Name>()
  const add = (name: Name): void => {
    if (wanted.has(name)) return
    wanted.add(name)
    for (const need of needs[name]) add(need)
  }
  for (const name of asked) add(name)
  return names.filter((name) => wanted.has(name))
}

export const isName = (text: string): text is Name => names.some((name) => name === text)

/** A target as the issue sets it: the bar this turn must reach, and the goal beyond it (the same where one is set). */
export interface Target {
  readonly bar: number
  readonly goal: number
}

/** The import's and re-import's rows/s over csv-parse alone's. */
export const importSpeed: Target = { bar: 0.35, goal: 0.5 }
/** The report's rows/s over csv-stringify alone's. */
export const reportSpeed: Target = { bar: 0.7, goal: 0.7 }
/** Peak resident memory of the import and re-import, in MB (10^6 bytes), at 1M and at 5M rows alike. */
export const importMemoryMB: Target = { bar: 400, goal: 300 }
/** Peak resident memory of the other smsbook jobs, in MB. */
export const memoryMB: Target = { bar: 300, goal: 300 }

/** One measured row of the results table. */
export interface Measured {
  readonly job: string
  /** The command, as a user would type it (paths relative to the output directory). */
  readonly command: string
  readonly rows: number
  /** Wall time: what a user waits, and what the targets are judged on. */
  readonly seconds: number
  /** CPU time (user + system): for comparisons when the shared machine is busy. */
  readonly cpuSeconds: number
  readonly peakRssMB: number
  /** For a smsbook job: the raw library's rows/s it is compared with, and the ratio it must reach. */
  readonly speedTarget?: {
    readonly reference: string
    readonly referenceRowsPerSecond: number
    readonly referenceRowsPerCpuSecond: number
    readonly ratio: Target
  }
  /** Its peak RSS ceiling in MB: smsbook's own jobs (the raw libraries are references). */
  readonly memoryCeiling?: Target
  readonly failed?: string
  readonly notes: ReadonlyArray<string>
}

export const rowsPerSecond = (m: Pick<Measured, "rows" | "seconds">): number => m.seconds > 0 ? m.rows / m.seconds : 0

/** The job's rows/s over its reference's (wall time). */
export const ratio = (m: Measured): number | undefined =>
  m.speedTarget === undefined || m.speedTarget.referenceRowsPerSecond === 0
    ? undefined
    : rowsPerSecond(m) / m.speedTarget.referenceRowsPerSecond

/** Rows per CPU second. */
export const rowsPerCpuSecond = (m: Pick<Measured, "rows" | "cpuSeconds">): number => m.cpuSeconds > 0 ? m.rows / m.cpuSeconds : 0

/** The job's rows per CPU second over its reference's. */
export const cpuRatio = (m: Measured): number | undefined =>
  m.speedTarget === undefined || m.speedTarget.referenceRowsPerCpuSecond === 0 || m.cpuSeconds === 0
    ? undefined
    : rowsPerCpuSecond(m) / m.speedTarget.referenceRowsPerCpuSecond

/** How far a figure got: past the goal, past the bar only, or short of the bar. */
export type Reached = "goal" | "bar" | "missed"

const reached = (target: Target, meets: (limit: number) => boolean): Reached =>
  meets(target.goal) ? "goal" : meets(target.bar) ? "bar" : "missed"

export interface Verdict {
  readonly speed: Reached | undefined
  readonly memory: Reached | undefined
}

/** How far a job got on each target; `undefined` where none applies (a failed job missed every one it has). */
export const verdict = (m: Measured): Verdict => {
  const r = ratio(m)
  const failed = m.failed !== undefined
  return {
    speed: m.speedTarget === undefined ? undefined : failed || r === undefined ? "missed" : reached(m.speedTarget.ratio, (x) => r >= x),
    memory: m.memoryCeiling === undefined ? undefined : failed ? "missed" : reached(m.memoryCeiling, (mb) => m.peakRssMB <= mb)
  }
}
