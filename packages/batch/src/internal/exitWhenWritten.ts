/**
 * The process's exit, once standard output and standard error have handed the system all that was written to them:
 * `process.exit` drops what a pipe has not taken yet, which cut a large error document at the pipe's 64 KiB.
 */
import { constants } from "node:os"
import * as EarlySignals from "./earlySignals.ts"

/** Resolves once `stream` holds nothing unwritten (at once when it never did, or cannot be written any more). */
const written = (stream: NodeJS.WriteStream): Promise<void> =>
  new Promise((resolve) => {
    if (stream.destroyed || !stream.writable || stream.writableLength === 0) return resolve()
    // Writes complete in order: the callback of an empty one comes once every earlier one is with the system.
    stream.write("", () => resolve())
  })

/**
 * Exits with `code` once stdout and stderr are written. A reader that never reads would hold the exit forever, as it
 * holds any writer: a stop signal then exits at once, with that signal's code.
 */
export const exitWhenWritten = (code: number): void => {
  for (const signal of EarlySignals.stopping) process.once(signal, () => process.exit(128 + constants.signals[signal]))
  void Promise.all([written(process.stdout), written(process.stderr)]).then(() => process.exit(code))
}
