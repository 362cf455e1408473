/**
 * Lines gathered and written in one chunk per turn of the event loop: under load, one write to
 * stderr for the many access-log lines of that turn instead of one system call per request.
 */

export interface LineBatch {
  /** Adds one line (its newline is added); written at the end of this turn of the event loop at the latest. */
  readonly line: (text: string) => void
  /**
   * Writes what is gathered and every later line at once: the server stops with it, and requests
   * still draining then must not leave a line waiting for a turn the process may not take.
   */
  readonly close: () => void
}

/** At most this many characters wait: past it the batch is written at once (a burst of long lines). */
export const maxPending = 64 * 1024

/** A batch over `write`, which receives whole lines, each ending in a newline. */
export const make = (write: (chunk: string) => void, limit: number = maxPending): LineBatch => {
  let pending: Array<string> = []
  let size = 0
  let scheduled: NodeJS.Immediate | undefined
  let closed = false
  const flush = () => {
    if (scheduled !== undefined) clearImmediate(scheduled)
    scheduled = undefined
    if (pending.length === 0) return
    const chunk = pending.join("")
    pending = []
    size = 0
    write(chunk)
  }
  return {
    line: (text) => {
      if (closed) return write(text + "\n")
      pending.push(text + "\n")
      size += text.length + 1
      if (size >= limit) flush()
      else if (scheduled === undefined) scheduled = setImmediate(flush)
    },
    close: () => {
      closed = true
      flush()
    }
  }
}
