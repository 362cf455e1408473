/**
 * What a job has done that an interruption does not undo, for the line a stopped run prints (Ctrl-C, SIGTERM). Most
 * jobs are one transaction and leave nothing; a broadcast keeps every batch it committed, and says so, and an import
 * stopped while it commits may have landed.
 */

let kept: string | undefined

/** Records what the run has kept so far (replacing the earlier note); `undefined`: nothing (a job starting). */
export const keep = (note: string | undefined): void => {
  kept = note
}

/** What the run had kept when it was stopped, if it kept anything. */
export const keptSoFar = (): string | undefined => kept
