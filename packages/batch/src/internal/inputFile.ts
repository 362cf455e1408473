/**
 * The input of a job: FILE's bytes, or standard input for `-`, closed with the scope (a file that cannot be opened is
 * bad input, exit 2, named by the reason the system gave), and the rows of a contact file read from them, as `import`
 * and `suppressions import` read them.
 */
import { InvalidField, InvalidParameter } from "@smsbook/core"
import { Data, Effect } from "effect"
import * as fs from "node:fs"
import { FileFailure } from "../CliErrors.ts"
import * as CsvRecords from "./csv/records.ts"
import * as Files from "./files.ts"
import * as ReadRows from "./readRows.ts"

/** FILE that cannot be opened, with the system's reason in words (`Files.reasonOf`, as every file error says it). */
const fileError = (file: string, error: unknown) =>
  new InvalidParameter({ parameter: "FILE", value: file, reason: Files.reasonOf(error, "no such file") })

/**
 * A file that changed while it was read: another program was still writing it (a nightly export not finished, a copy
 * under way), so its last rows may be cut or missing. Told from the file's size and modification time when opened
 * and once read to its end; pipes and devices are read as they come.
 */
export class Changed extends Data.TaggedError("Changed")<{
  readonly before: { readonly size: number; readonly mtimeMs: number }
  readonly after: { readonly size: number; readonly mtimeMs: number }
  readonly read: number
}> {
  override get message(): string {
    const grew = this.after.size > this.before.size ? "grew" : this.after.size < this.before.size ? "shrank" : "was written to"
    return `changed while it was read (it ${grew}: ${this.before.size.toLocaleString("en-US")} bytes when opened, ` +
      `${this.after.size.toLocaleString("en-US")} at the end, ${this.read.toLocaleString("en-US")} read): another program ` +
      "is still writing it; run again once it is complete (write it under another name and rename it when done)"
  }
}

/** The bytes of an open file, then a check that it is still the file that was opened ({@link Changed}). */
async function* unchanged(handle: fs.promises.FileHandle, before: fs.Stats): AsyncGenerator<Uint8Array> {
  let read = 0
  // No `start`: a pipe or FIFO named as FILE (`/dev/stdin`, `<(zcat …)`) cannot be read at a position.
  for await (const chunk of handle.createReadStream({ highWaterMark: 1 << 16, autoClose: false })) {
    const bytes: Uint8Array = chunk
    read += bytes.length
    yield bytes
  }
  if (!before.isFile()) return
  const after = await handle.stat()
  // The sizes tell a file appended to where modification times are coarse (1 s on some file systems).
  if (read !== before.size || after.size !== before.size || after.mtimeMs !== before.mtimeMs) {
    throw new Changed({ before: { size: before.size, mtimeMs: before.mtimeMs }, after: { size: after.size, mtimeMs: after.mtimeMs }, read })
  }
}

/**
 * The bytes of FILE (`-`: standard input), in 64 KiB chunks. A regular file that changed while it was read ends in a
 * {@link Changed} failure instead of its end, so a job never keeps a file another program was still writing.
 */
export const open = (file: string) =>
  file === "-" ? Effect.succeed<AsyncIterable<Uint8Array>>(process.stdin) : Effect.map(
    Effect.acquireRelease(
      Effect.tryPromise({
        try: async () => {
          const handle = await fs.promises.open(file, "r")
          const stat = await handle.stat()
          if (stat.isDirectory()) {
            await handle.close()
            throw Object.assign(new Error("is a directory"), { code: "EISDIR" })
          }
          return { handle, stat }
        },
        catch: (error) => fileError(file, error)
      }),
      ({ handle }) => Effect.promise(() => handle.close().catch(() => undefined))
    ),
    ({ handle, stat }): AsyncIterable<Uint8Array> => unchanged(handle, stat)
  )

/**
 * What stops a job reading the records of `source`: a line that cannot be parsed is bad input naming that line (and
 * `nothing`, what the job then kept: "nothing was imported"), as is a file that changed while it was read; anything
 * else is the source's failure.
 */
const readError = (source: string, nothing: string) => (cause: unknown): InvalidParameter | FileFailure =>
  cause instanceof Changed
    ? new InvalidParameter({ parameter: "FILE", value: source, reason: `${cause.message}; ${nothing}` })
    : cause instanceof CsvRecords.Malformed
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
