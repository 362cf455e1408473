/**
 * V8's heap sized and tuned for a process that only serves (`smsbook serve`), so its memory stays bounded and its
 * collections cheap under load. Imports nothing but `node:v8` and `node:perf_hooks`: it runs before the server's
 * modules load.
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

/**
 * Node's command-line flags that cap the old generation. Only at start-up: V8 sizes the heap when the
 * process starts, and the same flag set later (`v8.setFlagsFromString`) leaves `heap_size_limit` as it
 * was, so a launcher must pass them (`smsbook serve` starts itself again with them when it was not).
 */
export const flags = (oldSpaceMiB: number = defaultOldSpaceMiB): ReadonlyArray<string> => [
  `--max-old-space-size=${Math.max(64, Math.floor(oldSpaceMiB))}`,
  // Also set by `limit` at run time, which V8 honours (measured) but Node does not promise: from the start too.
  "--no-allocation-site-pretenuring"
]

/**
 * Whether this process runs with its old generation capped at `oldSpaceMiB` or less (`flags` given at
 * start). V8's limit adds the young generation: three semi-spaces, at most 64 MiB each.
 */
export const capped = (oldSpaceMiB: number = defaultOldSpaceMiB): boolean =>
  V8.getHeapStatistics().heap_size_limit <= (Math.max(64, Math.floor(oldSpaceMiB)) + 3 * 64) * 1024 * 1024

const youngBytes = (): number => V8.getHeapSpaceStatistics().find((space) => space.space_name === "new_space")?.space_size ?? 0

/**
 * Stops the young generation growing once it reaches `youngMiB`: the part of the sizing V8 takes while
 * running (it reads the semi-space growth factor at each collection, and has no runtime cap on the
 * semi-space size). And turns off V8's allocation-site pretenuring: a request's objects all die with it,
 * but while 50 requests are in flight some survive a collection, and V8 then allocated objects of those
 * sites straight into the old generation, where they died as garbage that only full collections free. It
 * decided so in about half the launches (measured at 50 connections: 69–82 µs of CPU a contact read
 * against 44–52 in the others, 23–27 full collections in 6 s against 6); without it, 39–42 µs in every
 * launch and 0–1 full collections. Call it first thing. Not part of `Server.serve` or `Server.layer`: it
 * changes the whole process, which a service embedding the server may not want. The old generation's cap is `flags`.
 */
export const limit = (youngMiB: number = defaultYoungMiB): void => {
  V8.setFlagsFromString("--no-allocation-site-pretenuring")
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
