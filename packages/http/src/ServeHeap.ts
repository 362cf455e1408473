/**
 * V8's heap sized for a process that only serves (`smsbook serve`), so its memory stays flat under load.
 * Imports nothing but `node:v8` and `node:perf_hooks`: it runs before the server's modules load.
 */
import { PerformanceObserver } from "node:perf_hooks"
import * as V8 from "node:v8"

/** The old generation's cap, in MiB: about five times the live heap of a server under load (~50 MB). */
export const defaultOldSpaceMiB = 256

/**
 * Where the young generation stops growing, in MiB (both semi-spaces): V8 would grow it to 64 MiB under
 * a request load; pinned at its first 2 MiB it costs a third more CPU per request in collections.
 */
export const defaultYoungMiB = 16

/** The flags set at once: the old generation capped, so V8 collects it before it grows far. */
export const flags = (oldSpaceMiB: number = defaultOldSpaceMiB): ReadonlyArray<string> => [
  `--max-old-space-size=${Math.max(64, Math.floor(oldSpaceMiB))}`
]

const youngBytes = (): number => V8.getHeapSpaceStatistics().find((space) => space.space_name === "new_space")?.space_size ?? 0

/**
 * Applies `flags`, and stops the young generation growing once it reaches `youngMiB` (V8 takes the
 * growth factor only from `setFlagsFromString`, and has no runtime cap on the semi-space size). Call it
 * first thing. Not part of `Server.serve` or `Server.layer`: it changes the whole process, which a
 * service embedding the server may not want.
 */
export const limit = (oldSpaceMiB: number = defaultOldSpaceMiB, youngMiB: number = defaultYoungMiB): void => {
  for (const flag of flags(oldSpaceMiB)) V8.setFlagsFromString(flag)
  const pin = (): boolean => {
    if (youngBytes() < youngMiB * 1024 * 1024) return false
    V8.setFlagsFromString("--semi-space-growth-factor=1")
    return true
  }
  if (pin()) return
  // Each collection may grow it: look after each one until it has reached the size.
  const observer = new PerformanceObserver(() => {
    if (pin()) observer.disconnect()
  })
  observer.observe({ entryTypes: ["gc"] })
}
