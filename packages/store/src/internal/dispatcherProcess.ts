/**
 * Dispatchers as processes: an owner name that carries host and pid, and whether such a process
 * still runs here, so a restarted dispatcher takes over a dead one's leases without waiting.
 */
import { hostname } from "node:os"
import type { PartQueue } from "@smsbook/core"

/** Whether process `pid` runs on this host (signal 0 only checks; EPERM means it exists). */
export const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return error instanceof Error && "code" in error && error.code === "EPERM"
  }
}

/** This process as a dispatcher: owner `host:pid:random`, the host and the pid. */
export const thisProcess = (): PartQueue.Dispatcher => ({
  owner: `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 10)}`,
  host: hostname(),
  pid: process.pid
})

/** The host and pid an owner name of `thisProcess` carries; undefined for other names. */
const parseOwner = (owner: string): { readonly host: string; readonly pid: number } | undefined => {
  const match = /^(.+):(\d+):[a-z0-9]+$/.exec(owner)
  if (match === null) return undefined
  const [, host, pid] = match
  return host === undefined || pid === undefined ? undefined : { host, pid: Number(pid) }
}

/** Whether `owner` names a dispatcher of `host` whose process is gone (a live or foreign one waits for its lease). */
export const deadHere = (owner: string, host: string): boolean => {
  const parsed = parseOwner(owner)
  return parsed !== undefined && parsed.host === host && parsed.pid !== process.pid && !alive(parsed.pid)
}

let lastWrite = 0

/**
 * The order of a write to the SMSC: increasing within the process, and past the writes of an
 * earlier process (microseconds of the clock), so the parts in doubt of a number sort as written.
 */
export const nextWrite = (): number => {
  lastWrite = Math.max(lastWrite + 1, Date.now() * 1000)
  return lastWrite
}
