/**
 * Outputs that cannot destroy data: before a command writes a file, it is compared with every file the command
 * reads, with the store's files (SQLite's book and its `-wal`, `-shm` and `-journal`) and with the settings file, by
 * real path and by device and inode, so no spelling, symbolic link or hard link makes an output replace an input.
 */
import { InvalidParameter, InvalidStoreUrl } from "@smsbook/core"
import * as Store from "@smsbook/store/Store"
import { Effect, type Scope } from "effect"
import * as fs from "node:fs"
import * as tty from "node:tty"
import type { FileFailure } from "../CliErrors.ts"
import * as Settings from "../Settings.ts"
import * as Files from "./files.ts"
import * as Interruption from "./interruption.ts"

/** A file a command must not write over, and what it is to the command (`the input FILE`, `the store`…). */
export type Kept = Files.Kept

/**
 * The files of the store at `url`: for SQLite the book and the files SQLite keeps beside it, beside the book as named
 * and beside the file it is (SQLite follows a link to the book and keeps its `-wal` by the real file); none otherwise.
 */
export const storeFiles = (url: string): ReadonlyArray<Kept> => {
  const location = Store.locate(url)
  if (location instanceof InvalidStoreUrl || location.kind !== "sqlite") return []
  const books = [...new Set([location.path, Files.resolvedFile(location.path)])]
  return books.flatMap((book) => ["", "-wal", "-shm", "-journal"].map((suffix) => ({ role: "the store", path: `${book}${suffix}` })))
}

const identity = (path: string): fs.Stats | undefined => {
  try {
    return fs.statSync(path)
  } catch {
    return undefined
  }
}

/** The settings every command reads (`Settings.configFile`): an output written there breaks every later command. */
const settingsFile: Kept = { role: "the settings file", path: Settings.configFile }

/** Whether writing `output` would write over `kept` (`Files.sameFile`). */
export const clashes = Files.sameFile

/**
 * Refuses (exit 2, before anything is written) an output given by `flag` that is one of the `kept` files; the
 * error names both paths. Standard output (`-`) and the kept `-` (standard input) never clash.
 */
export const ensureDistinct = (
  flag: string,
  output: string,
  kept: ReadonlyArray<Kept>
): Effect.Effect<void, InvalidParameter> =>
  Effect.suspend(() => {
    if (output === "-") return Effect.void
    const unnamed = Files.notAFileName(output)
    if (unnamed !== undefined) return Effect.fail(new InvalidParameter({ parameter: flag, value: output, reason: unnamed }))
    const stream = standardStreamFile(output)
    if (stream !== undefined) {
      return Effect.fail(
        new InvalidParameter({
          parameter: flag,
          value: output,
          reason: `is the file this command's ${stream} goes to: writing it would replace what it holds; choose another path`
        })
      )
    }
    if (!isStandardOutput(output) && Files.throughDescriptor(output)) {
      return Effect.fail(
        new InvalidParameter({
          parameter: flag,
          value: output,
          reason: "names an open descriptor of this process (/dev/fd/N, /proc/self/fd/N), which changes as it runs: name a file, or - for standard output"
        })
      )
    }
    // The writer checks them again as it puts the file in place, where the output may lead elsewhere by then.
    const all = [...kept, settingsFile]
    Files.keep(all)
    const clash = all.find((file) => file.path !== "-" && file.path !== "" && clashes(output, file.path))
    return clash === undefined ? Effect.void : Effect.fail(
      new InvalidParameter({
        parameter: flag,
        value: output,
        reason: `is the same file as ${clash.role} (${clash.path}): writing it would destroy that file; choose another path`
      })
    )
  })

/**
 * The standard stream (input or error) whose file `path` is: a regular file that descriptor 0 or 2 holds open
 * (`/dev/stderr` under `2>>cron.log`, or that log by name). Written as an output, it would be replaced (or emptied)
 * under the stream; a terminal or a pipe is written in place, and standard output is the caller's `-`.
 */
const standardStreamFile = (path: string): "standard error" | "standard input" | undefined => {
  const file = identity(path)
  if (file === undefined || !file.isFile()) return undefined
  for (const [descriptor, name] of [[2, "standard error"], [0, "standard input"]] as const) {
    try {
      const stream = fs.fstatSync(descriptor)
      if (stream.dev === file.dev && stream.ino === file.ino) return name
    } catch {
      // The descriptor is closed: nothing to clash with.
    }
  }
  return undefined
}

/**
 * Whether writing `path` writes to this process's standard output: `-`, or the same pipe, terminal or file as
 * descriptor 1 (`/dev/stdout`, `/proc/self/fd/1`, the file stdout is redirected to). A device that is no terminal
 * (`/dev/null` under a job that discards its output) mixes nothing, so it never counts.
 */
export const isStandardOutput = (path: string): boolean => {
  if (path === "-") return true
  let stdout: fs.Stats
  try {
    stdout = fs.fstatSync(1)
  } catch {
    return false
  }
  const target = identity(path)
  if (target === undefined || target.dev !== stdout.dev || target.ino !== stdout.ino) return false
  return !target.isCharacterDevice() || tty.isatty(1)
}

/** The check of a data export's `--out` (`report`, `contacts export`, `suppressions export`): it must not be one of the store's files. */
export const exportCheck = (out: string) => (store: string): Effect.Effect<void, InvalidParameter> =>
  ensureDistinct("--out", out, storeFiles(store))

/**
 * `Files.open` for the output a command's `flag` names: a place that cannot be written is bad input naming the flag
 * (exit 2), found before any work, as every output's is; a write that fails later stays a `FileFailure` (exit 1).
 */
export const openFlag = (path: string, flag: string): Effect.Effect<Files.Sink, InvalidParameter, Scope.Scope> =>
  Effect.mapError(Files.open(path), asFlag(flag))

/**
 * {@link openFlag} for a data export's `--out` (`report`, `contacts export`, `suppressions export`). Standard output,
 * a device or a FIFO is written in place, so what a stopped or failed export wrote there stays: once it has written,
 * the run says so (`Interruption.keep`) instead of "nothing half-written was kept", which holds for a file only (put
 * in place whole, or not at all).
 */
export const openExport = (out: string): Effect.Effect<Files.Sink, InvalidParameter, Scope.Scope> =>
  Effect.map(openFlag(out, "--out"), (sink): Files.Sink => {
    if (!writtenInPlace(out)) return sink
    const where = out === "-" || isStandardOutput(out) ? "standard output" : out
    const unfinished = `${where} holds an unfinished export: discard what it received, and run the export again`
    return {
      write: (text) => Effect.andThen(Effect.sync(() => Interruption.keep(unfinished)), sink.write(text)),
      close: Effect.andThen(sink.close, Effect.sync(() => Interruption.keep(undefined)))
    }
  })

/** Whether `out` is written in place rather than through a temporary file: standard output, a device, a FIFO. */
const writtenInPlace = (out: string): boolean => out === "-" || identity(out)?.isFile() === false

/** A failure to create the output a command's `flag` names, as bad input naming the flag. */
export const asFlag = (flag: string) => (failure: FileFailure): InvalidParameter =>
  new InvalidParameter({ parameter: flag, value: failure.path, reason: failure.reason })
