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

/** Peak resident memory allowed to any smsbook job, in MB (10^6 bytes), at 1M and at 5M rows alike. */
export const memoryCeilingMB = 300

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
    readonly ratio: number
  }
  /** Whether the memory ceiling applies (smsbook's own jobs; the raw libraries are references). */
  readonly memoryTarget: boolean
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

export interface Verdict {
  readonly speedMet: boolean | undefined
  readonly memoryMet: boolean | undefined
}

/** Which targets a job met; `undefined` where none applies (or the job failed: then `false`). */
export const verdict = (m: Measured): Verdict => {
  if (m.failed !== undefined) return { speedMet: m.speedTarget === undefined ? undefined : false, memoryMet: m.memoryTarget ? false : undefined }
  const r = ratio(m)
  return {
    speedMet: m.speedTarget === undefined || r === undefined ? undefined : r >= m.speedTarget.ratio,
    memoryMet: m.memoryTarget ? m.peakRssMB <= memoryCeilingMB : undefined
  }
}
