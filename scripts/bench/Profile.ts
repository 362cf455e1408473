/**
 * Summary of a V8 CPU profile (`node --cpu-prof`): where the time went by library, the functions with
 * the most self time, and smsbook's own functions by inclusive time — what bounds a missed target.
 */
import { Schema } from "effect"
import * as fs from "node:fs"

const CpuProfile = Schema.Struct({
  nodes: Schema.Array(Schema.Struct({
    id: Schema.Number,
    callFrame: Schema.Struct({ functionName: Schema.String, url: Schema.String, lineNumber: Schema.Number }),
    children: Schema.optionalKey(Schema.Array(Schema.Number))
  })),
  samples: Schema.Array(Schema.Number),
  timeDeltas: Schema.Array(Schema.Number)
})

export interface Entry {
  readonly name: string
  readonly ms: number
  readonly percent: number
}

export interface Summary {
  readonly totalMs: number
  /** Self time by where the code lives (effect, libphonenumber-js, csv-parse, smsbook's packages, native…). */
  readonly byArea: ReadonlyArray<Entry>
  readonly topSelf: ReadonlyArray<Entry>
  /** smsbook's own functions (packages/*) by inclusive time: each sample counts once per function on its stack. */
  readonly topProduct: ReadonlyArray<Entry>
}

/** The package of a file under node_modules (`effect`, `@effect/platform-node`), if it is one. */
const packageOf = (url: string): string | undefined => {
  const at = url.lastIndexOf("/node_modules/")
  if (at < 0) return undefined
  const parts = url.slice(at + "/node_modules/".length).split("/")
  const [first, second] = parts
  return first === undefined ? undefined : first.startsWith("@") && second !== undefined ? `${first}/${second}` : first
}

/** Where a frame's code lives, for the by-area table. */
export const areaOf = (functionName: string, url: string): string => {
  if (functionName === "(garbage collector)") return "garbage collector"
  if (functionName === "(idle)") return "idle (waiting for I/O)"
  if (functionName === "(program)" || functionName === "(root)") return "V8/Node outside JS (program)"
  const packageMatch = /\/packages\/(core|store|batch)\/src\//.exec(url)
  if (packageMatch !== null) return `smsbook ${packageMatch[1] ?? ""}`
  if (url.includes("/scripts/bench/")) return "bench harness"
  const library = packageOf(url)
  if (library !== undefined) return library
  if (url.startsWith("node:")) return "node internals (module loading, streams, fs, buffers)"
  if (url.startsWith("wasm://")) return "TypeScript type stripping (wasm)"
  if (url === "") return "native: V8 builtins, RegExp, node:sqlite calls"
  return "other"
}

const shortUrl = (url: string): string => {
  const packageAt = url.indexOf("/packages/")
  if (packageAt >= 0) return url.slice(packageAt + 1)
  const modulesAt = url.lastIndexOf("/node_modules/")
  if (modulesAt >= 0) return url.slice(modulesAt + "/node_modules/".length)
  const scriptsAt = url.indexOf("/scripts/")
  if (scriptsAt >= 0) return url.slice(scriptsAt + 1)
  return url
}

const label = (functionName: string, url: string, line: number): string =>
  `${functionName === "" ? "(anonymous)" : functionName}${url === "" ? "" : ` ${shortUrl(url)}:${line + 1}`}`

const ranked = (times: ReadonlyMap<string, number>, totalMs: number, limit: number): ReadonlyArray<Entry> =>
  [...times].sort((a, b) => b[1] - a[1]).slice(0, limit).map(([name, ms]) => ({ name, ms, percent: 100 * ms / totalMs }))

/** Reads and summarises the profile at `file`; `limit` entries per list. */
export const summarize = (file: string, limit = 15): Summary => {
  const profile = Schema.decodeUnknownSync(CpuProfile)(JSON.parse(fs.readFileSync(file, "utf8")))
  const parent = new Map<number, number>()
  const frames = new Map<number, { readonly name: string; readonly area: string; readonly product: boolean }>()
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) parent.set(child, node.id)
    const { functionName, lineNumber, url } = node.callFrame
    const area = areaOf(functionName, url)
    frames.set(node.id, { name: label(functionName, url, lineNumber), area, product: area.startsWith("smsbook ") })
  }
  const self = new Map<string, number>()
  const byArea = new Map<string, number>()
  const inclusive = new Map<string, number>()
  let totalMs = 0
  profile.samples.forEach((id, index) => {
    const ms = (profile.timeDeltas[index] ?? 0) / 1000
    totalMs += ms
    const frame = frames.get(id)
    if (frame === undefined) return
    self.set(frame.name, (self.get(frame.name) ?? 0) + ms)
    byArea.set(frame.area, (byArea.get(frame.area) ?? 0) + ms)
    const seen = new Set<string>()
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const up = frames.get(at)
      if (up !== undefined && up.product && !seen.has(up.name)) {
        seen.add(up.name)
        inclusive.set(up.name, (inclusive.get(up.name) ?? 0) + ms)
      }
    }
  })
  return {
    totalMs,
    byArea: ranked(byArea, totalMs, 20),
    topSelf: ranked(self, totalMs, limit),
    topProduct: ranked(inclusive, totalMs, limit)
  }
}

const table = (title: string, entries: ReadonlyArray<Entry>): ReadonlyArray<string> => [
  `| ${title} | ms | % |`,
  "|---|---:|---:|",
  ...entries.map((entry) => `| \`${entry.name.replaceAll("|", "\\|")}\` | ${entry.ms.toFixed(0)} | ${entry.percent.toFixed(1)} |`)
]

/** The summary as markdown: three tables. */
export const markdown = (summary: Summary): ReadonlyArray<string> => [
  `Profiled ${(summary.totalMs / 1000).toFixed(1)} s.`,
  "",
  ...table("self time by area", summary.byArea),
  "",
  ...table("top functions, self time", summary.topSelf),
  "",
  ...table("smsbook functions, inclusive time", summary.topProduct)
]
