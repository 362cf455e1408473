/**
 * Output files written whole or not at all: text goes to a temporary file beside the target, put in place by a
 * rename only once all of it was written; devices, FIFOs and standard output (`-`) are written in place.
 *
 * Temporary files are named `FILE.<pid>.partial`, beside FILE (a rename is atomic only within one file system).
 * A failure, SIGINT or SIGTERM removes it (the runtime interrupts the command, the scope closes); only a kill
 * that runs no code (`kill -9`, a power cut) leaves one, and the next run writing FILE removes those of
 * processes that are no longer running, so they never pile up.
 * Over 400 lines: the writers and the checks of what a path is (links, descriptors, kept files) are one module,
 * as a writer checks the kept files again, through the same resolution of links, when it starts a file.
 */
import { Effect, Exit, type Scope } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as nodePath from "node:path"
import { FileFailure } from "../CliErrors.ts"

/** Text out, in order. Memory stays flat: every write waits until its text is handed to the system. */
export interface Sink {
  readonly write: (text: string) => Effect.Effect<void, FileFailure>
  /**
   * Ends the output: a file is put in place (standard output is left open). The end of the scope does it anyway
   * when the scope succeeds, but a failure there can only be a defect: call `close` last to get it as a
   * `FileFailure`.
   */
  readonly close: Effect.Effect<void, FileFailure>
}

/** A file being written under a temporary name: {@link temporary}. */
export interface Pending {
  readonly write: (text: string) => Effect.Effect<void, FileFailure>
  /** Closes the temporary file and renames it to the target; refused after a failed write. Idempotent. */
  readonly commit: Effect.Effect<void, FileFailure>
}

const reasons: { readonly [code: string]: string } = {
  ENOENT: "no such directory",
  ENOTDIR: "a part of the path is not a directory",
  EACCES: "permission denied",
  EPERM: "permission denied",
  EISDIR: "is a directory",
  EROFS: "read-only file system",
  ENOSPC: "no space left on the device",
  EDQUOT: "disk quota exceeded",
  ENAMETOOLONG: "the name is too long",
  ELOOP: "too many symbolic links",
  EIO: "input/output error on the device",
  EFBIG: "the file is too large",
  EBADF: "not open for writing",
  EPIPE: "the reader closed the pipe",
  ENXIO: "no such device (a FIFO with no reader?)"
}

/**
 * The reason of a file system error in words: its code's meaning when known, else its message. A missing path
 * is "no such directory" for a file about to be created; a file being read says `missing` ("no such file").
 */
export const reasonOf = (cause: unknown, missing?: string): string => {
  const code = typeof cause === "object" && cause !== null && "code" in cause ? String(cause.code) : ""
  if (code === "ENOENT" && missing !== undefined) return missing
  return reasons[code] ?? (cause instanceof Error ? cause.message : String(cause))
}

/** What is wrong beneath a file, by the system's error code (see `FileFailure.problem`). */
const problems: { readonly [code: string]: NonNullable<FileFailure["problem"]> } = {
  ENOSPC: "disk-full",
  EDQUOT: "disk-full",
  EROFS: "read-only",
  EIO: "disk-io"
}

/** The problem beneath the file system error `cause`, where its code tells one. */
const problemOf = (cause: unknown): FileFailure["problem"] =>
  typeof cause === "object" && cause !== null && "code" in cause ? problems[String(cause.code)] : undefined

const failure = (path: string, doing: string) => (cause: unknown) => {
  const problem = problemOf(cause)
  return new FileFailure({ path, reason: `${doing}: ${reasonOf(cause)}`, ...(problem === undefined ? {} : { problem }) })
}

/** The temporary name of `path` while this process writes it. */
export const partialPath = (path: string): string => `${path}.${process.pid}.partial`

/** Whether a process of this id is running (a partial file of a dead one was left by a kill). */
const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return typeof error === "object" && error !== null && "code" in error && error.code === "EPERM"
  }
}

/**
 * Removes what killed runs left in `directory`: each entry `pidOf` reads a process id from, of a process that is not
 * running (a file or a directory). Never fails, as it is only litter; what a running process holds is its work.
 */
const removeOrphans = (directory: string, pidOf: (name: string) => string): void => {
  let names: ReadonlyArray<string> = []
  try {
    names = fs.readdirSync(directory)
  } catch {
    return
  }
  for (const name of names) {
    const pid = pidOf(name)
    if (/^[0-9]+$/.test(pid) && Number(pid) !== process.pid && !isRunning(Number(pid))) {
      try {
        fs.rmSync(nodePath.join(directory, name), { recursive: true, force: true })
      } catch {
        // Litter that cannot be removed stays: it never stands for the file itself.
      }
    }
  }
}

/** Removes the partial files that killed runs left beside `path` (`path.<pid>.partial` of a process not running). */
export const removeLeftovers = (path: string): void => {
  const prefix = `${nodePath.basename(path)}.`
  removeOrphans(nodePath.dirname(path), (name) =>
    name.startsWith(prefix) && name.endsWith(".partial") ? name.slice(prefix.length, -".partial".length) : "")
}

/**
 * A new directory of this process in the system's temporary directory, named `<prefix><pid>-…`; the directories of
 * that prefix that killed runs (whose process is gone) left are removed first, as nothing else would ever remove them.
 */
export const scratchDirectory = (prefix: string): string => {
  removeOrphans(os.tmpdir(), (name) => name.startsWith(prefix) ? name.slice(prefix.length).split("-")[0] ?? "" : "")
  return fs.mkdtempSync(nodePath.join(os.tmpdir(), `${prefix}${process.pid}-`))
}

/** A new directory for a dry run's temporary book: {@link scratchDirectory}. */
export const previewDirectory = (): string => scratchDirectory("smsbook-preview-")

const writeAll = async (handle: fs.promises.FileHandle, text: string): Promise<void> => {
  const bytes = Buffer.from(text, "utf8")
  let offset = 0
  while (offset < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset)
    offset += bytesWritten
  }
}

/** Links followed in one path before giving up, as Linux does (ELOOP). */
const maxLinks = 40

/** `path` made absolute but not normalised: `..` is climbed from where the links before it lead, as the system does. */
const absolute = (path: string, from: string): string => nodePath.isAbsolute(path) ? path : `${from}/${path}`

/** `folder` as the system resolves it (libc's realpath: each link, then `..` from where it led); as given if absent. */
const realFolder = (folder: string): string => {
  try {
    return fs.realpathSync.native(folder)
  } catch {
    return folder
  }
}

/**
 * The steps of following `path` as the system does: the folder as named and as the system resolves it, and the file
 * in it; then, while that file is a symbolic link, the same for what the link says, read against the real folder it
 * sits in. A loop of links throws, as opening it would.
 */
function* steps(path: string): Generator<{ readonly named: string; readonly folder: string; readonly file: string }> {
  let at = absolute(path, process.cwd())
  for (let hops = 0; hops < maxLinks; hops++) {
    const named = nodePath.dirname(at)
    const folder = realFolder(named)
    const file = `${folder === "/" ? "" : folder}/${nodePath.basename(at)}`
    yield { named, folder, file }
    let link: string
    try {
      link = fs.readlinkSync(file)
    } catch {
      // Not a link (or nothing there): the file itself.
      return
    }
    at = absolute(link, folder)
  }
  throw Object.assign(new Error("too many levels of symbolic links"), { code: "ELOOP" })
}

/**
 * The file that writing `path` writes, as the system resolves it: the last of its {@link steps}. A link to a file not
 * there yet leads to where that file will be. The output checks and the writer both use it, so that they agree on the
 * file.
 */
export const writtenFile = (path: string): string => {
  let file = ""
  for (const step of steps(path)) file = step.file
  return file
}

/** {@link writtenFile}, or for a loop of links (which no writer opens) the path made absolute. */
export const resolvedFile = (path: string): string => {
  try {
    return writtenFile(path)
  } catch {
    return nodePath.resolve(path)
  }
}

/** A folder of a process's open descriptors: `/proc/self/fd`, `/proc/<pid>/fd`, `/dev/fd` as the system resolves it. */
const descriptorFolder = /^\/proc\/(self|thread-self|\d+)(\/task\/\d+)?\/fd$|^\/dev\/fd$/

/**
 * Whether writing `path` goes through a descriptor of this process (`/dev/fd/N`, `/proc/self/fd/N`, a link to one):
 * what it names changes as the run opens files (the book, SQLite's -wal, Node's own event descriptors, whose writing
 * crashed the process), so no output may go there. Standard output is the caller's `-`, never a path.
 */
export const throughDescriptor = (path: string): boolean => {
  try {
    for (const { folder, named } of steps(path)) if (descriptorFolder.test(named) || descriptorFolder.test(folder)) return true
  } catch {
    // A loop of links: refused by the writer, whatever it passes through.
  }
  return false
}

/** `path`'s status, or nothing where it cannot be read (absent, a loop of links, a name too long…). */
const statOf = (path: string): fs.Stats | undefined => {
  try {
    return fs.statSync(path)
  } catch {
    return undefined
  }
}

/**
 * Why `path` cannot name a file to write, if it cannot: empty, or spelled as a folder (a trailing `/`, `.` or `..`),
 * which the system would refuse to write as a file, but which taken apart as a folder and a name (`ff/` as `ff`) led
 * to the file, FIFO or device of that name being replaced.
 */
export const notAFileName = (path: string): string | undefined =>
  path === ""
    ? "is empty: name a file"
    : /(^|\/)(\.\.?)?$/.test(path)
    ? "is spelled as a folder (it ends in /, . or ..): name a file"
    : undefined

/**
 * Whether writing `output` would write over `kept`: the same file as the system resolves both, or (both there) the
 * same device and inode, a hard link included. Devices, FIFOs and sockets are written in place, never replaced.
 */
export const sameFile = (output: string, kept: string): boolean => {
  const out = statOf(output)
  if (out !== undefined && !out.isFile() && !out.isDirectory()) return false
  if (resolvedFile(output) === resolvedFile(kept)) return true
  const other = statOf(kept)
  return out !== undefined && other !== undefined && out.dev === other.dev && out.ino === other.ino
}

/** A file this run must not write over, and what it is to the run (`the input FILE`, `the store`). */
export interface Kept {
  readonly role: string
  readonly path: string
}

/** What the run's output checks kept: the writer checks them again when it starts a file. */
const keptFiles: Array<Kept> = []

/**
 * Remembers `files` as never to be written over by this run. The output checks say so before anything is written;
 * the writer checks again when it starts a file, where the path may lead elsewhere than when it was checked (a link
 * changed in between); the file is then put in place where the path led when the writing started.
 */
export const keep = (files: ReadonlyArray<Kept>): void => {
  for (const file of files) if (file.path !== "" && file.path !== "-") keptFiles.push(file)
}

/** The kept file that writing `target` would write over, if any. */
export const keptAt = (target: string): Kept | undefined => keptFiles.find((file) => sameFile(target, file.path))

/**
 * A device or FIFO opened to be written in place. A FIFO waits for its reader, as a shell's `>` does, but never in a
 * blocking `open`: that one holds a thread of Node's pool until a reader comes, so a Ctrl-C could not end the run (its
 * exit waits for the pool). The opening is tried without waiting (ENXIO: no reader yet) every tenth of a second, in an
 * interruptible wait; once it succeeds, the file is opened as usual while that first descriptor keeps the reader.
 */
const openDevice = (path: string): Effect.Effect<fs.promises.FileHandle, FileFailure> => {
  const attempt = Effect.tryPromise({
    try: () => fs.promises.open(path, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK),
    catch: (cause) => cause
  })
  const untilRead: Effect.Effect<fs.promises.FileHandle, FileFailure> = attempt.pipe(
    Effect.catch((cause) =>
      typeof cause === "object" && cause !== null && "code" in cause && cause.code === "ENXIO"
        ? Effect.andThen(Effect.interruptible(Effect.sleep("100 millis")), Effect.suspend(() => untilRead))
        : Effect.fail(failure(path, "cannot write there")(cause))
    )
  )
  return Effect.flatMap(untilRead, (probe) =>
    Effect.tryPromise({ try: () => fs.promises.open(path, "w"), catch: failure(path, "cannot write there") }).pipe(
      Effect.ensuring(Effect.promise(() => probe.close()))
    ))
}

/** Fails when `target` (where writing `path` lands) is a kept file. */
const refuseKept = (path: string, target: string): Effect.Effect<void, FileFailure> =>
  Effect.suspend(() => {
    const kept = keptAt(target)
    return kept === undefined
      ? Effect.void
      : Effect.fail(new FileFailure({ path, reason: `leads to ${kept.role} (${kept.path}): writing it would destroy that file; choose another path` }))
  })

/**
 * A file at `path` written under {@link partialPath} and renamed into place by `commit`, so the file at `path` is
 * always a whole one: the earlier one, or the new one complete. The temporary file is created now, so an
 * unwritable place (no such directory, no permission, a directory at `path`) fails before any work. A write that
 * failed makes `commit` fail: a file missing part of its text is never put in place. Uncommitted at the end of the
 * scope, the temporary file is removed.
 */
export const temporary = (path: string): Effect.Effect<Pending, FileFailure, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.gen(function*() {
      const kind = yield* Effect.promise(() =>
        fs.promises.stat(path).then((stat) => stat.isDirectory() ? "directory" : stat.isFile() ? "file" : "device", () => "none")
      )
      if (kind === "directory") return yield* new FileFailure({ path, reason: "cannot write a file there: is a directory" })
      const unnamed = notAFileName(path)
      if (unnamed !== undefined) return yield* new FileFailure({ path, reason: unnamed })
      if (throughDescriptor(path)) {
        return yield* new FileFailure({ path, reason: "names an open descriptor of this process (/dev/fd/N, /proc/self/fd/N): name a file, or - for standard output" })
      }
      // A device or FIFO is written in place: renaming a file over it would replace the node itself. A file is put in
      // place where its symbolic links lead: renamed over the link, the file would replace the link.
      const target = kind === "device" ? path : yield* Effect.try({ try: () => writtenFile(path), catch: failure(path, "cannot create a file there") })
      yield* refuseKept(path, target)
      const partial = kind === "device" ? undefined : partialPath(target)
      if (partial !== undefined) removeLeftovers(target)
      const handle = yield* kind === "device" ? openDevice(path) : Effect.tryPromise({
        try: () => fs.promises.open(partial ?? path, "w"),
        catch: failure(path, "cannot create a file there")
      })
      return { handle, target, partial, state: { intact: true, open: true, committed: false } }
    }),
    ({ handle, partial, state }) =>
      state.committed ? Effect.void : Effect.promise(async () => {
        if (state.open) await handle.close().catch(() => undefined)
        state.open = false
        if (partial !== undefined) await fs.promises.rm(partial, { force: true }).catch(() => undefined)
      })
  ).pipe(Effect.map(({ handle, partial, state, target }): Pending => ({
    write: (text) =>
      !state.intact || !state.open
        ? Effect.fail(new FileFailure({ path, reason: state.intact ? "written after its end" : "an earlier write failed" }))
        : Effect.tryPromise({ try: () => writeAll(handle, text), catch: failure(path, "cannot write") }).pipe(
          Effect.tapError(() => Effect.sync(() => void (state.intact = false)))
        ),
    commit: Effect.suspend(() => {
      if (state.committed) return Effect.void
      if (!state.intact) return Effect.fail(new FileFailure({ path, reason: "not put in place: an earlier write failed" }))
      return Effect.tryPromise({
        try: async () => {
          state.open = false
          try {
            if (partial !== undefined) await handle.datasync()
          } finally {
            await handle.close()
          }
        },
        catch: failure(path, "cannot write")
      }).pipe(
        Effect.andThen(partial === undefined ? Effect.void : Effect.tryPromise({
          try: () => fs.promises.rename(partial, target),
          catch: failure(path, "cannot put the file in place")
        })),
        Effect.tap(() =>
          Effect.sync(() => {
            state.committed = true
            removeLeftovers(target)
          })
        ),
        Effect.tapError(() => Effect.sync(() => void (state.intact = false)))
      )
    })
  })))

/**
 * Writes to standard output, each text handed over (a broken pipe a failure) and then a turn of the event loop: a file
 * or terminal is written synchronously, so an export never yielded and SIGINT/SIGTERM were seen only after it ended.
 */
const standardOutput: Sink = {
  write: (text) =>
    Effect.tryPromise({
      try: () =>
        new Promise<void>((resolve, reject) => {
          const onError = (error: unknown) => reject(error)
          process.stdout.once("error", onError)
          process.stdout.write(text, (error) => {
            process.stdout.removeListener("error", onError)
            if (error === null || error === undefined) setImmediate(resolve)
            else reject(error)
          })
        }),
      catch: failure("-", "cannot write to standard output")
    }),
  close: Effect.void
}

/**
 * A sink writing to `path` (`-` for standard output). A file is a {@link temporary} one: it fails now when it
 * cannot be created, and it is put in place when the scope succeeds (or by `close`), never after a failed
 * write, so a failed run never leaves half a file nor replaces a good one.
 */
export const open = (path: string): Effect.Effect<Sink, FileFailure, Scope.Scope> =>
  path === "-" ? Effect.succeed(standardOutput) : Effect.gen(function*() {
    const file = yield* temporary(path)
    let failed = false
    const noted = <A>(effect: Effect.Effect<A, FileFailure>) =>
      effect.pipe(Effect.tapError(() => Effect.sync(() => void (failed = true))))
    // After a failed write or close the caller had its FileFailure: the file is dropped, not turned into a defect.
    yield* Effect.addFinalizer((exit) => Exit.isSuccess(exit) && !failed ? Effect.orDie(file.commit) : Effect.void)
    return { write: (text) => noted(file.write(text)), close: noted(file.commit) }
  })
