/**
 * Who holds a SQLite book's write lock, for the message a waiting writer prints. SQLite itself does
 * not know; the kernel does. In WAL mode the writer holds a POSIX lock on byte 120 of the `-shm`
 * file (WAL_WRITE_LOCK), and Linux lists every such lock, with its process, in `/proc/locks`.
 * Elsewhere, or when the lock is already gone, the answer is `undefined`.
 */
import * as fs from "node:fs"

/** What a writer that has waited for the write lock a while reports (see `SqliteStore.Options.onLockWait`). */
export interface LockWait {
  readonly path: string
  readonly waitedMs: number
  /** How long it will wait in all before failing. */
  readonly lockWaitMs: number
  readonly holder: LockHolder | undefined
}

export interface LockHolder {
  readonly pid: number
  /** The holder's command line as the kernel has it (arguments joined by spaces), or "" when unreadable. */
  readonly command: string
}

/** The byte of the WAL index whose exclusive lock is the write lock (`WALINDEX_LOCK_OFFSET + WAL_WRITE_LOCK`). */
const walWriteLockByte = 120

const readText = (path: string): string | undefined => {
  try {
    return fs.readFileSync(path, "utf8")
  } catch {
    return undefined
  }
}

/**
 * The pid holding the write lock on the WAL index with inode `inode`, from the text of `/proc/locks`
 * (`1: POSIX  ADVISORY  WRITE 4242 fe:00:4243562 120 120`); `self` is never the answer.
 */
export const holderPid = (procLocks: string, inode: number, self: number): number | undefined => {
  for (const line of procLocks.split("\n")) {
    const fields = line.trim().split(/\s+/)
    // "->" marks a waiter blocked on the lock, not its holder.
    if (fields[1] === "->") continue
    const [, kind, , mode, pid, device, start] = fields
    if (kind !== "POSIX" || mode !== "WRITE" || Number(start) !== walWriteLockByte) continue
    if (device?.split(":")[2] !== String(inode) || Number(pid) === self) continue
    return Number(pid)
  }
  return undefined
}

/** The process holding the write lock of the book at `path`, when the system can say. */
export const holderOf = (path: string): LockHolder | undefined => {
  let inode: number
  try {
    inode = fs.statSync(`${path}-shm`).ino
  } catch {
    return undefined
  }
  const locks = readText("/proc/locks")
  const pid = locks === undefined ? undefined : holderPid(locks, inode, process.pid)
  if (pid === undefined) return undefined
  const command = (readText(`/proc/${pid}/cmdline`) ?? "").split("\0").filter((arg) => arg !== "").join(" ")
  return { pid, command }
}
