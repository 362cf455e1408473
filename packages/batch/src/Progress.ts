/**
 * Progress of a long job on stderr, only when stderr is a terminal: one line, redrawn at most
 * every 250 ms, cleared at the end so the summary starts on a clean line.
 */
import { Clock, Effect } from "effect"

export interface Line<A> {
  /** Redraws the line for `progress`; absent when stderr is not a terminal (nothing is drawn). */
  readonly report: ((progress: A) => Effect.Effect<void>) | undefined
  readonly clear: Effect.Effect<void>
}

/** A progress line showing `text(progress)`. */
export const line = <A>(text: (progress: A) => string): Line<A> => {
  if (process.stderr.isTTY !== true) return { report: undefined, clear: Effect.void }
  let last = 0
  let drawn = false
  const report = (progress: A) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) =>
      Effect.sync(() => {
        if (now - last < 250) return
        last = now
        drawn = true
        process.stderr.write(`\r\x1b[K${text(progress)}`)
      }))
  return { report, clear: Effect.sync(() => void (drawn && process.stderr.write("\r\x1b[K"))) }
}
