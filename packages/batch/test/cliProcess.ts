/**
 * What a test needs to run the real `smsbook` process: its entry point, the repository's sample files, an
 * environment in which none of the machine's own SMSBOOK_ settings leak in, and the address a server prints.
 */
import type { ChildProcessByStdio } from "node:child_process"
import * as path from "node:path"
import type { Readable } from "node:stream"

/** The command line's entry point, run by Node from source. */
export const bin = path.resolve(import.meta.dirname, "../src/bin.ts")

/** The repository's `samples/` folder. */
export const samples = path.resolve(import.meta.dirname, "../../../samples")

/** This process's environment with every setting blanked (a blank setting is not said), plus `extra`. */
export const env = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  ...process.env,
  SMSBOOK_STORE: "",
  SMSBOOK_SHORT_NAME: "",
  SMSBOOK_TIME_ZONE: "",
  SMSBOOK_SHORT_CODE: "",
  SMSBOOK_USER: "",
  SMSBOOK_SPAM_PERIOD: "",
  ...extra
})

/** The URL a `serve --json` process prints once it listens; rejects if it exits first. */
export const servingAt = (child: ChildProcessByStdio<null, Readable, Readable | null>): Promise<string> =>
  new Promise((resolve, reject) => {
    child.stdout.once("data", (chunk: Buffer) => resolve((JSON.parse(chunk.toString()) as { url: string }).url))
    child.once("exit", (code) => reject(new Error(`serve exited ${code}`)))
  })
