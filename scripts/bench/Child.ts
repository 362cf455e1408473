/**
 * One measured job: a child Node process (the pinned Node 24, `process.execPath`) with the RSS preload,
 * so its peak memory is its own; wall time from spawn to exit; optionally a CPU profile.
 */
import { spawn } from "node:child_process"
import { once } from "node:events"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

const preload = fileURLToPath(new URL("./Rss.ts", import.meta.url))

export interface Run {
  readonly code: number | null
  readonly seconds: number
  /** Peak resident set size of the child, MiB (0 when the child died before its exit hook ran). */
  readonly peakRssMiB: number
  /** User + system CPU time of the child, seconds (all its threads): less sensitive than wall time to a busy machine. */
  readonly cpuSeconds: number
  readonly stdout: string
  readonly stderr: string
  /** The main thread's `.cpuprofile`, when profiling was asked for. */
  readonly profile: string | undefined
  /** Every thread's, main thread first (Node names them `CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile`). */
  readonly profiles: ReadonlyArray<string>
}

export interface Options {
  readonly cwd: string
  /** Write a V8 CPU profile into this directory (`--cpu-prof`). */
  readonly profileDir?: string | undefined
}

/** Environment of a child: no `SMSBOOK_*` settings leak in from the caller's shell. */
const childEnv = (rssFile: string): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith("SMSBOOK_")) env[key] = value
  env["SMSBOOK_BENCH_RSS"] = rssFile
  return env
}

const readUsage = (file: string): { readonly peakRssMiB: number; readonly cpuSeconds: number } => {
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(file, "utf8"))
    if (
      typeof parsed === "object" && parsed !== null && "maxRssKiB" in parsed && typeof parsed.maxRssKiB === "number" &&
      "cpuMicros" in parsed && typeof parsed.cpuMicros === "number"
    ) {
      return { peakRssMiB: parsed.maxRssKiB / 1024, cpuSeconds: parsed.cpuMicros / 1e6 }
    }
    return { peakRssMiB: 0, cpuSeconds: 0 }
  } catch {
    return { peakRssMiB: 0, cpuSeconds: 0 }
  } finally {
    fs.rmSync(file, { force: true })
  }
}

let runs = 0

/**
 * The Node flags a script's first line gives (`#!/usr/bin/env -S node FLAGS`), so a script run here starts as its
 * shebang would start it: the smsbook launcher's V8 flags are part of what users run.
 */
export const shebangFlags = (script: string): ReadonlyArray<string> => {
  const first = fs.readFileSync(script, "utf8").split("\n", 1)[0] ?? ""
  const flags = /^#!\/usr\/bin\/env -S node (.+)$/.exec(first)?.[1]
  return flags === undefined ? [] : flags.split(/\s+/).filter((flag) => flag !== "")
}

/**
 * Runs `node [shebang flags] [--cpu-prof] --import Rss.ts SCRIPT ARGS…` and waits for it. Output is collected (the
 * jobs print small JSON summaries; bulk output goes to files). Wall time includes Node's start-up,
 * as a user's would.
 */
export const run = async (script: string, args: ReadonlyArray<string>, options: Options): Promise<Run> => {
  runs++
  const rssFile = path.join(options.cwd, `.rss-${process.pid}-${runs}.json`)
  const before = options.profileDir === undefined ? new Set<string>() : new Set(fs.readdirSync(options.profileDir))
  const profiling = options.profileDir === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${options.profileDir}`]
  const started = performance.now()
  const child = spawn(process.execPath, [...shebangFlags(script), ...profiling, "--import", preload, script, ...args], {
    cwd: options.cwd,
    env: childEnv(rssFile),
    stdio: ["ignore", "pipe", "pipe"]
  })
  let stdout = ""
  let stderr = ""
  child.stdout.setEncoding("utf8").on("data", (text: string) => (stdout += text))
  child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr = (stderr + text).slice(-20_000)))
  const [code] = await once(child, "close")
  const seconds = (performance.now() - started) / 1000
  const threadOf = (name: string) => Number(name.split(".")[4] ?? 0)
  const profiles = options.profileDir === undefined
    ? []
    : fs.readdirSync(options.profileDir).filter((name) => name.endsWith(".cpuprofile") && !before.has(name))
      .sort((a, b) => threadOf(a) - threadOf(b)).map((name) => path.join(options.profileDir ?? "", name))
  return { code: typeof code === "number" ? code : null, seconds, ...readUsage(rssFile), stdout, stderr, profile: profiles[0], profiles }
}
