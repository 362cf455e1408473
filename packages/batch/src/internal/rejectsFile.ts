/**
 * The rejects file of an import: each refused row with its line, reason and message, then its own cells, as a
 * spreadsheet-safe CSV that can be fixed and imported again. Written under a temporary name, put in place at the end.
 */
import { FileFailure } from "@smsbook/core"
import { stringify } from "csv-stringify/sync"
import { Effect } from "effect"
import { once } from "node:events"
import * as fs from "node:fs"
import * as nodePath from "node:path"
import * as spreadsheet from "./spreadsheet.ts"

export interface Rejected {
  /** The physical line of the row in the input (the header is line 1, or 2 after a `sep=` line). */
  readonly line: number
  readonly reason: string
  readonly message: string
  readonly fields: ReadonlyArray<string>
}

export interface Writer {
  readonly write: (rows: ReadonlyArray<Rejected>) => Effect.Effect<void, FileFailure>
  /** Puts the file in place and gives its path; with no rejected row, gives `undefined` (see {@link make}). */
  readonly finish: Effect.Effect<string | undefined, FileFailure>
  /** Removes what was written (the run failed: its rejects would describe nothing). */
  readonly abort: Effect.Effect<void>
}

const leading = ["line", "reason", "message"] as const

const failure = (path: string) => (cause: unknown) =>
  new FileFailure({ path, reason: cause instanceof Error ? cause.message : String(cause) })

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

/** Whether a process of this id is running (a partial file of a dead one was left by a kill). */
const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return typeof error === "object" && error !== null && "code" in error && error.code === "EPERM"
  }
}

/** Removes the partial rejects files that killed runs left beside `path` (`path.<pid>.partial`). */
const removeLeftovers = (path: string): void => {
  const directory = nodePath.dirname(path)
  const prefix = `${nodePath.basename(path)}.`
  let names: ReadonlyArray<string> = []
  try {
    names = fs.readdirSync(directory)
  } catch {
    return
  }
  for (const name of names) {
    const pid = name.startsWith(prefix) && name.endsWith(".partial") ? name.slice(prefix.length, -".partial".length) : ""
    if (/^[0-9]+$/.test(pid) && Number(pid) !== process.pid && !isRunning(Number(pid))) {
      fs.rmSync(nodePath.join(directory, name), { force: true })
    }
  }
}

/**
 * A rejects file at `path`, opened at the first rejected row: UTF-8 with a BOM (so Excel reads accents right),
 * the input's delimiter, cells starting `= + - @`, tab or CR prefixed with `'` (the import takes that quote off
 * again). A run without rejected rows writes nothing and removes a rejects file of an earlier run at `path`
 * (recognised by its header), so the file on disk always describes the latest run; partial files that killed runs
 * left beside it are removed too.
 */
export const make = (path: string, header: ReadonlyArray<string>, delimiter: string): Writer => {
  const temporary = `${path}.${process.pid}.partial`
  let stream: fs.WriteStream | undefined
  const options = { delimiter, record_delimiter: "unix" as const, cast: spreadsheet.casts }
  const open = (): fs.WriteStream => {
    const opened = fs.createWriteStream(temporary)
    opened.write("\uFEFF" + stringify([[...leading, ...header]], options))
    return opened
  }
  const close = (target: fs.WriteStream) =>
    new Promise<void>((resolve, reject) => {
      target.once("error", reject)
      target.end(() => resolve())
    })
  return {
    write: (rows) =>
      rows.length === 0 ? Effect.void : Effect.tryPromise({
        try: async () => {
          stream ??= open()
          const text = stringify(rows.map((row) => [row.line, row.reason, row.message, ...row.fields]), options)
          if (!stream.write(text)) await once(stream, "drain")
        },
        catch: failure(path)
      }),
    finish: Effect.tryPromise({
      try: async () => {
        removeLeftovers(path)
        if (stream === undefined) {
          if (isOurs(path)) fs.rmSync(path, { force: true })
          return undefined
        }
        await close(stream)
        stream = undefined
        fs.renameSync(temporary, path)
        return path
      },
      catch: failure(path)
    }),
    abort: Effect.promise(async () => {
      if (stream === undefined) return
      await close(stream).catch(() => undefined)
      stream = undefined
      fs.rmSync(temporary, { force: true })
    })
  }
}
