/**
 * The submissions a link holds before they go out, and the journal gate they pass: both links (SMPP,
 * Kannel HTTP) queue, clear with the journal in batches of one per number, pace and drain alike.
 */
import type * as Link from "./link.ts"

/** A queued submission as the gate sees it; each link adds what it sends. */
export interface Entry {
  readonly key: number | undefined
  readonly settle: (outcome: Link.Outcome) => void
  /** The journal allowed it (or there is none): it may go out now. */
  cleared: boolean
  /** The journal is being told it was not taken: it is cleared again only after. */
  forgetting: Promise<void> | undefined
  /** Its place in the order of the link's writes when it last went out; undefined until then. */
  written: number | undefined
}

export interface Options<S extends Entry> {
  readonly journal: Link.Journal | undefined
  /** Most submissions out at once now, and per second (0 for no limit): they size a clearing batch. */
  readonly window: () => number
  readonly tps: number
  readonly destinationOf: (submission: S) => string
  /** How many are out (sent, unanswered) now. */
  readonly inflight: () => number
  /** Sends what may go now; called after a clearing and when a scheduled wait ends. */
  readonly pump: () => void
}

export interface Pending<S extends Entry> {
  /** In order; the link takes from it and puts back at its head. */
  readonly queue: Array<S>
  /** A journal ask is under way: nothing goes out until it is answered. */
  readonly isClearing: () => boolean
  /**
   * Asks the journal about the uncleared submissions at the head of the queue (as many as may go
   * out now: the free window, or about 50 ms of the tps; one per number, none for a number in `busy`
   * or with a submission cleared already),
   * then pumps again. One ask at a time.
   */
  readonly clear: (journal: Link.Journal, busy: ReadonlySet<string>) => void
  /** Submissions out that were not taken: the journal hears it, and they are cleared again before going out. */
  readonly notTaken: (submissions: ReadonlyArray<S>) => void
  /**
   * Submissions that went out and were not taken (throttled, refused for now, unanswered when the link dropped), back
   * in the queue in the order they were written: after those written before them, ahead of what never went out. Then
   * {@link notTaken}.
   */
  readonly putBack: (submissions: ReadonlyArray<S>) => void
  /** Pumps after `delay` ms, unless a pump is already scheduled. */
  readonly schedule: (delay: number) => void
  /** Resolves once nothing is queued or out. */
  readonly idle: () => Promise<void>
  readonly notifyIdle: () => void
  /** Cancels the scheduled pump and fails every queued submission (never sent). */
  readonly drain: (reason: string) => void
}

export const make = <S extends Entry>(options: Options<S>): Pending<S> => {
  const queue: Array<S> = []
  const idleWaiters: Array<() => void> = []
  let clearing = false
  let pumpTimer: NodeJS.Timeout | undefined
  const interval = options.tps > 0 ? 1000 / options.tps : 0

  const notifyIdle = () => {
    if (queue.length > 0 || options.inflight() > 0) return
    for (const waiter of idleWaiters.splice(0)) waiter()
  }

  const clear = (journal: Link.Journal, busy: ReadonlySet<string>) => {
    const room = options.window() - options.inflight()
    const most = interval > 0 ? Math.max(1, Math.min(room, Math.floor(options.tps / 20))) : room
    const batch: Array<S> = []
    // A number with a submission cleared (stored as written) or out gets no other until that one is
    // answered: a crash then leaves at most one part of a number in doubt.
    const taken = new Set(busy)
    for (const submission of queue) if (submission.cleared) taken.add(options.destinationOf(submission))
    for (const submission of queue) {
      if (batch.length >= most) break
      const destination = options.destinationOf(submission)
      if (submission.cleared || taken.has(destination)) continue
      taken.add(destination)
      batch.push(submission)
    }
    clearing = true
    const settleBatch = (allowed: ReadonlySet<number | undefined>, failure: string | undefined) => {
      clearing = false
      for (const submission of batch) {
        if (failure === undefined && allowed.has(submission.key)) {
          submission.cleared = true
          continue
        }
        const index = queue.indexOf(submission)
        if (index >= 0) queue.splice(index, 1)
        // Already settled when the link closed meanwhile.
        if (index >= 0) submission.settle(failure === undefined ? { _tag: "Withheld" } : { _tag: "LinkFailed", reason: failure, sent: false })
      }
      options.pump()
      notifyIdle()
    }
    // A submission drained meanwhile (the link closed) never goes out: the journal must not hear of it.
    Promise.all(batch.map((submission) => submission.forgetting))
      .then(() => {
        const queued = batch.filter((submission) => queue.includes(submission))
        return queued.length === 0 ? [] : journal.beforeWrite(queued.map((submission) => submission.key ?? -1))
      }).then(
        (keys) => settleBatch(new Set(keys), undefined),
        (error: unknown) => settleBatch(new Set(), `the part states could not be stored: ${String(error)}`)
      )
  }

  const notTaken = (submissions: ReadonlyArray<S>) => {
    const journal = options.journal
    if (journal === undefined || submissions.length === 0) return
    const told = journal.notTaken(submissions.map((submission) => submission.key ?? -1)).catch(() => undefined)
    for (const submission of submissions) {
      submission.cleared = false
      submission.forgetting = told
    }
  }

  return {
    queue,
    isClearing: () => clearing,
    clear,
    notTaken,
    putBack: (submissions) => {
      for (const submission of submissions) {
        const written = submission.written ?? 0
        const at = queue.findIndex((queued) => queued.written === undefined || queued.written > written)
        queue.splice(at < 0 ? queue.length : at, 0, submission)
      }
      notTaken(submissions)
    },
    schedule: (delay) => {
      if (pumpTimer !== undefined) return
      pumpTimer = setTimeout(() => {
        pumpTimer = undefined
        options.pump()
      }, Math.max(1, Math.ceil(delay)))
    },
    idle: () =>
      new Promise<void>((resolve) => {
        idleWaiters.push(resolve)
        notifyIdle()
      }),
    notifyIdle,
    drain: (reason) => {
      if (pumpTimer !== undefined) clearTimeout(pumpTimer)
      for (const submission of queue.splice(0)) submission.settle({ _tag: "LinkFailed", reason, sent: false })
    }
  }
}
