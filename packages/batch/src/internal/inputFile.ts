/**
 * The input of a job: FILE's bytes, or standard input for `-`, closed with the scope (a file that cannot be opened is
 * bad input, exit 2, named by the reason the system gave), and the rows of a contact file read from them, as `import`
 * and `suppressions import` read them.
 */
import { InvalidField, InvalidParameter } from "@smsbook/core"
import { Effect } from "effect"
import * as fs from "node:fs"
import { FileFailure } from "../CliErrors.ts"
import * as CsvRecords from "./csv/records.ts"
import * as ReadRows from "./readRows.ts"

const fileError = (file: string, error: unknown) => {
  const code = typeof error === "object" && error !== null && "code" in error ? String(error.code) : ""
  const reason = code === "ENOENT"
    ? "no such file"
    : code === "EISDIR"
    ? "is a directory"
    : code === "EACCES"
    ? "permission denied"
    : error instanceof Error
    ? error.message
    : String(error)
  return new InvalidParameter({ parameter: "FILE", value: file, reason })
}

/** The bytes of FILE (`-`: standard input), in 64 KiB chunks. */
export const open = (file: string) =>
  file === "-" ? Effect.succeed<AsyncIterable<Uint8Array>>(process.stdin) : Effect.acquireRelease(
    Effect.tryPromise({
      try: async () => {
        const handle = await fs.promises.open(file, "r")
        const stat = await handle.stat()
        if (stat.isDirectory()) {
          await handle.close()
          throw Object.assign(new Error("is a directory"), { code: "EISDIR" })
        }
        return handle.createReadStream({ highWaterMark: 1 << 16 })
      },
      catch: (error) => fileError(file, error)
    }),
    (stream) => Effect.sync(() => stream.destroy())
  )

/**
 * What stops a job reading the records of `source`: a line that cannot be parsed is bad input naming that line (and
 * `nothing`, what the job then kept: "nothing was imported"); anything else is the source's failure.
 */
const readError = (source: string, nothing: string) => (cause: unknown): InvalidParameter | FileFailure =>
  cause instanceof CsvRecords.Malformed
    ? new InvalidParameter({
      parameter: "FILE",
      value: source,
      reason: `line ${cause.line}: ${cause.reason}; nothing after it can be read, so ${nothing}`,
      line: cause.line
    })
    : new FileFailure({ path: source, reason: cause instanceof Error ? cause.message : String(cause) })

export interface RowsOptions extends ReadRows.Options {
  /** Name of the input in messages (a path, or `-` for stdin). */
  readonly source: string
  /** What the job keeps when the file cannot be read to its end: "nothing was imported". */
  readonly nothing: string
  /** The columns a file's header should name, for the message of an empty file: "msisdn, first_name…". */
  readonly columns: string
}

/**
 * The rows of a contact file: its reader (closed with the scope; its `start` still to be called with the header's
 * columns), the header, and the next batch of rows. An empty file is an `InvalidField` naming the header it lacks.
 */
export const rows = (input: AsyncIterable<Uint8Array>, options: RowsOptions) =>
  Effect.gen(function*() {
    const toError = readError(options.source, options.nothing)
    const reader = yield* Effect.acquireRelease(
      Effect.tryPromise({ try: () => ReadRows.open(input, options), catch: toError }),
      (opened) => Effect.sync(opened.close)
    )
    if (reader.header === undefined) {
      return yield* new InvalidField({
        field: "header",
        value: options.source,
        reason: `the file is empty: its first line must name the columns (${options.columns})`
      })
    }
    return { reader, header: reader.header, next: Effect.tryPromise({ try: reader.next, catch: toError }) }
  })
