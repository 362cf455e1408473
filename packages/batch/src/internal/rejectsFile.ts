/**
 * The rejects file of an import: each refused row with its line, reason and message, then its own cells, as a
 * spreadsheet-safe CSV that can be fixed and imported again. Written under a temporary name, put in place at the end;
 * for standard output, copied there once the import has ended.
 */
import { stringify } from "csv-stringify/sync"
import { Effect, Option, type Scope } from "effect"
import * as fs from "node:fs"
import * as nodePath from "node:path"
import { InvalidParameter } from "@smsbook/core"
import { FileFailure } from "../CliErrors.ts"
import * as Files from "./files.ts"
import * as OutputPath from "./outputPath.ts"
import * as spreadsheet from "./csv/spreadsheet.ts"

export interface Rejected {
  /** The physical line of the row in the input (the header is line 1, or 2 after a `sep=` line). */
  readonly line: number
  readonly reason: string
  readonly message: string
  readonly fields: ReadonlyArray<string>
}

export interface Writer {
  readonly write: (rows: ReadonlyArray<Rejected>) => Effect.Effect<void, FileFailure>
  /** Puts the file in place and gives its path; with no rejected row, gives `undefined` (see {@link open}). */
  readonly finish: Effect.Effect<string | undefined, FileFailure>
}

/** A rejects file opened before its input is read: the writer comes once the input's header is known. */
export interface File {
  /** The writer of the rejected rows of an input with this header and delimiter. */
  readonly writer: (header: ReadonlyArray<string>, delimiter: string) => Writer
}

export interface Options {
  /** The run is a dry run: it never removes a rejects file (see {@link open}). */
  readonly dryRun: boolean
}

const leading = ["line", "reason", "message"] as const

/** Where the rejected rows of FILE go when `--rejects` is not given (`-`, standard input: the working directory). */
export const defaultPath = (file: string): string => file === "-" ? "smsbook-rejects.csv" : `${file}.rejects.csv`

/**
 * An error about `--rejects` when the flag was not given (`given` is none): the default path beside the input could not
 * be used (an input in a folder the job may only read), which the error says, with the flag that gets out of it.
 */
export const explainDefault = (given: Option.Option<string>, file: string) => <E>(error: E): E | InvalidParameter =>
  Option.isNone(given) && error instanceof InvalidParameter && error.parameter === "--rejects"
    ? new InvalidParameter({
      parameter: error.parameter,
      value: error.value,
      reason: `${error.reason} (the default rejects file, ${file === "-" ? "in the working directory" : "beside FILE"}, ` +
        "as --rejects was not given: give --rejects a path that can be written)"
    })
    : error

/** Whether the file at `path` is a rejects file this command wrote (its header starts `line,reason,message`). */
const isOurs = (path: string): boolean => {
  let fd: number | undefined
  try {
    fd = fs.openSync(path, "r")
    const head = Buffer.alloc(64)
    const size = fs.readSync(fd, head, 0, head.length, 0)
    const text = head.subarray(0, size).toString("utf8").replace(/^\uFEFF/, "")
    return [",", ";", "\t", "|"].some((delimiter) => text.startsWith(leading.join(delimiter)))
  } catch {
    return false
  } finally {
    if (fd !== undefined) fs.closeSync(fd)
  }
}

const notAFile = () =>
  new FileFailure({
    path: "-",
    reason: "is standard output, not a file: an import writes its rejects to a path (RejectsFile.standardOutput gives one sent there)"
  })

/**
 * A rejects file at `path`, its temporary file created now, so an unwritable path fails before the import does
 * anything. UTF-8 with a BOM (so Excel reads accents right), the input's delimiter, cells starting `= + - @`, tab
 * or CR prefixed with `'` (the import takes that quote off again). `finish` puts it in place, replacing an earlier
 * one; the import calls it inside its transaction, so a rejects file that cannot be put in place rolls the import
 * back. A run without rejected rows writes no file, and a real run then removes a rejects file of an earlier run
 * at `path` (recognised by its header), so the file on disk describes the latest import; a dry run never removes
 * one (it writes nothing but its own preview, when it has rejected rows). Either way, partial files that killed
 * runs left beside `path` are removed. Not finished by the end of the scope, nothing is put in place. `-` is refused,
 * never taken for a file of that name: rejects for standard output go through {@link standardOutput}.
 */
export const open = (path: string, options: Options): Effect.Effect<File, FileFailure, Scope.Scope> =>
  Effect.map(path === "-" ? Effect.fail(notAFile()) : Files.temporary(path), (file): File => ({
    writer: (header, delimiter) => {
      const csv = { ...spreadsheet.rawCsvOptions, delimiter }
      let written = 0
      return {
        write: (rows) =>
          Effect.suspend(() => {
            if (rows.length === 0) return Effect.void
            const head = written === 0 ? "\uFEFF" + stringify([[...leading, ...header]], csv) : ""
            written += rows.length
            return file.write(head + stringify(rows.map((row) => [row.line, row.reason, row.message, ...row.fields]), csv))
          }),
        finish: Effect.suspend(() =>
          written > 0 ? Effect.as(file.commit, path) : Effect.try({
            try: () => {
              // Where the rejects would have been written: through a link, its file goes, not the link.
              const target = Files.writtenFile(path)
              Files.removeLeftovers(target)
              if (!options.dryRun && isOurs(target)) fs.rmSync(target, { force: true })
              return undefined
            },
            catch: (cause) => new FileFailure({ path, reason: `cannot remove the earlier rejects file: ${Files.reasonOf(cause)}` })
          })
        )
      }
    }
  }))

/** {@link open} for a command's `--rejects`: a path that cannot be written is bad input naming the flag. */
export const openFlag = (path: string, options: Options): Effect.Effect<File, InvalidParameter, Scope.Scope> =>
  Effect.mapError(open(path, options), OutputPath.asFlag("--rejects"))

/** The rejects of an import whose `--rejects` is standard output: {@link standardOutput}. */
export interface ToStandardOutput {
  /** Where the import writes its rejects file (in a directory of this run's own). */
  readonly path: string
  /** Copies the rejects file to standard output; nothing when no row was rejected (no file was written). */
  readonly send: Effect.Effect<void, FileFailure>
}

const chunkBytes = 1 << 16

/**
 * Rejects for standard output: the import writes them as a rejects file in a temporary directory of this run
 * (removed with the scope; one a killed run left is removed by the next), and `send` copies it to standard output
 * once the import has ended. So standard output carries the rows in one piece, after the work and never within it,
 * and it fails as any command's output does: a reader gone (`| head`) or a full disk loses the output, not the import,
 * which has committed by then (written during the import, a reader gone would have ended the run mid-transaction).
 */
export const standardOutput: Effect.Effect<ToStandardOutput, FileFailure, Scope.Scope> = Effect.map(
  Effect.acquireRelease(
    Effect.try({
      try: () => Files.scratchDirectory("smsbook-rejects-"),
      catch: (cause) => new FileFailure({ path: "-", reason: `cannot create a temporary file for the rejects: ${Files.reasonOf(cause)}` })
    }),
    (directory) => Effect.sync(() => fs.rmSync(directory, { recursive: true, force: true }))
  ),
  (directory): ToStandardOutput => {
    const path = nodePath.join(directory, "rejects.csv")
    return {
      path,
      send: Effect.scoped(Effect.gen(function*() {
        if (!fs.existsSync(path)) return
        const out = yield* Files.open("-")
        const handle = yield* Effect.acquireRelease(
          Effect.tryPromise({
            try: () => fs.promises.open(path, "r"),
            catch: (cause) => new FileFailure({ path, reason: `cannot read the rejects: ${Files.reasonOf(cause)}` })
          }),
          (opened) => Effect.promise(() => opened.close())
        )
        const decoder = new TextDecoder("utf-8", { ignoreBOM: true })
        const buffer = Buffer.alloc(chunkBytes)
        while (true) {
          const { bytesRead } = yield* Effect.tryPromise({
            try: () => handle.read(buffer, 0, buffer.length, null),
            catch: (cause) => new FileFailure({ path, reason: `cannot read the rejects: ${Files.reasonOf(cause)}` })
          })
          if (bytesRead === 0) break
          yield* out.write(decoder.decode(buffer.subarray(0, bytesRead), { stream: true }))
        }
        const rest = decoder.decode()
        if (rest !== "") yield* out.write(rest)
        yield* out.close
      }))
    }
  }
)
