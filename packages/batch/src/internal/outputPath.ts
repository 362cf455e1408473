/**
 * Outputs that cannot destroy data: before a command writes a file, it is compared with every file the command
 * reads and with the store's files (SQLite's book and its `-wal`, `-shm` and `-journal`), by real path and by
 * device and inode, so no spelling, symbolic link or hard link makes an output replace an input.
 */
import { InvalidParameter, InvalidStoreUrl } from "@smsbook/core"
import * as Store from "@smsbook/store/Store"
import { Effect } from "effect"
import * as fs from "node:fs"
import * as nodePath from "node:path"
import * as tty from "node:tty"

/** A file a command must not write over, and what it is to the command (`the input FILE`, `the store`…). */
export interface Kept {
  readonly role: string
  readonly path: string
}

/** The files of the store at `url`: for SQLite the book and the files SQLite keeps beside it; none otherwise. */
export const storeFiles = (url: string): ReadonlyArray<Kept> => {
  const location = Store.locate(url)
  if (location instanceof InvalidStoreUrl || location.kind !== "sqlite") return []
  const book = location.path
  return [book, `${book}-wal`, `${book}-shm`, `${book}-journal`].map((path) => ({ role: "the store", path }))
}

/** `path` with its directories' symbolic links resolved (the file itself too when it exists). */
const realPath = (path: string): string => {
  const absolute = nodePath.resolve(path)
  try {
    return fs.realpathSync(absolute)
  } catch {
    try {
      return nodePath.join(fs.realpathSync(nodePath.dirname(absolute)), nodePath.basename(absolute))
    } catch {
      return absolute
    }
  }
}

const identity = (path: string): fs.Stats | undefined => {
  try {
    return fs.statSync(path)
  } catch {
    return undefined
  }
}

/**
 * Whether writing `output` would write over `kept`: the same real path, or (both existing) the same device and
 * inode. Devices, FIFOs and sockets are written in place, never replaced, so they clash with nothing.
 */
export const clashes = (output: string, kept: string): boolean => {
  const out = identity(output)
  if (out !== undefined && !out.isFile() && !out.isDirectory()) return false
  if (realPath(output) === realPath(kept)) return true
  const other = identity(kept)
  return out !== undefined && other !== undefined && out.dev === other.dev && out.ino === other.ino
}

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
    const clash = kept.find((file) => file.path !== "-" && file.path !== "" && clashes(output, file.path))
    return clash === undefined ? Effect.void : Effect.fail(
      new InvalidParameter({
        parameter: flag,
        value: output,
        reason: `is the same file as ${clash.role} (${clash.path}): writing it would destroy that file; choose another path`
      })
    )
  })

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

/** The check of a data export's `--out` (`contacts export`, `report`): it must not be one of the store's files. */
export const exportCheck = (out: string) => (store: string): Effect.Effect<void, InvalidParameter> =>
  ensureDistinct("--out", out, storeFiles(store))
