/**
 * Progress of a long job on stderr when it is a terminal: rows, % of the input's bytes, rows/s and
 * time left, redrawn at most 10 times a second, and a final line when the job ends.
 */
import { Clock, Effect } from "effect"

/** Where a job stands: rows done, and bytes read of the input (with its size, when known). */
export interface Meter {
  readonly rows: number
  readonly rejected: number
  readonly bytes: number
  readonly totalBytes: number | undefined
  readonly elapsedMs: number
}

const number = (value: number): string => Math.round(value).toLocaleString("en-US")

/** `m:ss` or `h:mm:ss`. */
export const clock = (seconds: number): string => {
  const whole = Math.max(0, Math.round(seconds))
  const h = Math.floor(whole / 3600)
  const m = Math.floor((whole % 3600) / 60)
  const s = String(whole % 60).padStart(2, "0")
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`
}

/**
 * The progress line: rows, the share of bytes read, rows/s and the time left (extrapolated from the
 * bytes read so far; absent while nothing can be extrapolated, or when the input's size is unknown).
 */
export const describe = (meter: Meter): string => {
  const seconds = meter.elapsedMs / 1000
  const rate = seconds > 0 ? meter.rows / seconds : 0
  const parts = [`${number(meter.rows)} rows`]
  if (meter.totalBytes !== undefined && meter.totalBytes > 0) {
    const share = Math.min(1, meter.bytes / meter.totalBytes)
    parts.push(`${(share * 100).toFixed(1)} %`)
    parts.push(`${number(rate)} rows/s`)
    if (share > 0 && seconds > 0) parts.push(`${clock((seconds / share) * (1 - share))} left`)
  } else {
    parts.push(`${number(rate)} rows/s`)
  }
  if (meter.rejected > 0) parts.push(`${number(meter.rejected)} rejected`)
  return parts.join("  ")
}

/** The bytes of `source` as they pass, counted. */
export const counting = (source: AsyncIterable<Uint8Array>): { readonly source: AsyncIterable<Uint8Array>; readonly bytes: () => number } => {
  let bytes = 0
  return {
    source: {
      async *[Symbol.asyncIterator]() {
        for await (const chunk of source) {
          bytes += chunk.byteLength
          yield chunk
        }
      }
    },
    bytes: () => bytes
  }
}

export interface Line<A> {
  /** Notes `progress` (always: `latest` tells it) and redraws the line on a terminal, at most every 100 ms. */
  readonly report: (progress: A) => Effect.Effect<void>
  /** The last progress noted, for a summary of what was done when a job is stopped. */
  readonly latest: () => A | undefined
  /** Ends the line: the final state on a terminal, on its own line, so the summary starts clean (once: later calls do nothing). */
  readonly finish: Effect.Effect<void>
}

/** The least time between two redraws: at most 10 a second. */
export const interval = 100

/** A progress line showing `text(progress)`; drawn only when `terminal` (stderr is one, by default). */
export const line = <A>(text: (progress: A) => string, terminal: boolean = process.stderr.isTTY === true): Line<A> => {
  let last = -Infinity
  let latest: A | undefined
  let drawn = false
  const report = (progress: A) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) =>
      Effect.sync(() => {
        latest = progress
        if (!terminal || now - last < interval) return
        last = now
        drawn = true
        process.stderr.write(`\r\x1b[K${text(progress)}`)
      }))
  let finished = false
  const finish = Effect.sync(() => {
    if (!terminal || latest === undefined || finished) return
    finished = true
    process.stderr.write(`${drawn ? "\r\x1b[K" : ""}${text(latest)}\n`)
  })
  return { report, latest: () => latest, finish }
}
