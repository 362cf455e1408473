/**
 * V8's heap sized for a process that only serves (`smsbook serve`), so its memory stays flat under load.
 * Imports nothing but `node:v8`: it must run before the server's modules load and grow the heap.
 */
import * as V8 from "node:v8"

/** The old generation's cap, in MiB: about five times the live heap of a server under load (~50 MB). */
export const defaultOldSpaceMiB = 256

/**
 * The V8 flags: the young generation kept at its first size (under a request load V8 grows it to
 * 16 MiB per semi-space, and the objects of 50 requests in flight then promote into an old generation
 * that only grows between rare full collections), and the old generation capped, which makes V8
 * collect it before it grows far. As node command-line flags they apply from the start.
 */
export const flags = (oldSpaceMiB: number = defaultOldSpaceMiB): ReadonlyArray<string> => [
  "--semi-space-growth-factor=1",
  `--max-old-space-size=${Math.max(64, Math.floor(oldSpaceMiB))}`
]

/**
 * Applies `flags` to this process. Call it first thing: the young generation grows while modules
 * load, and a grown one is not shrunk. Not part of `Server.serve` or `Server.layer`: it changes the
 * whole process, which a service embedding the server may not want.
 */
export const limit = (oldSpaceMiB: number = defaultOldSpaceMiB): void => {
  for (const flag of flags(oldSpaceMiB)) V8.setFlagsFromString(flag)
}
