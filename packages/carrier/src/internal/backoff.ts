/**
 * The pause a link takes while its carrier cannot take more (SMPP throttling, smsbox's 503 or absence): doubled
 * burst after burst up to a maximum, halved by each answer taken. Shared by the SMPP and Kannel links.
 */

export interface Backoff {
  /** Nothing goes out before this time (ms since the epoch). */
  readonly pausedUntil: () => number
  /** Starts a wait now, `writes` being the link's writes so far; answers it. Each wait doubles the next. */
  readonly begin: (writes: number) => number
  /**
   * The carrier refused for now the write numbered `written`; answers the wait. A refusal of a write made before the
   * latest wait began belongs to the burst that began it and does not lengthen it: one step per burst, not per part
   * of a window refused together.
   */
  readonly refused: (written: number, writes: number) => number
  /** The carrier took an answer: the next wait is halved, down to the first. */
  readonly ease: () => void
}

export const make = (bounds: { readonly initial: number; readonly max: number }): Backoff => {
  let wait = bounds.initial
  let pausedUntil = 0
  // The last write made before the latest wait began.
  let burstEnd = 0
  const begin = (writes: number) => {
    burstEnd = writes
    const current = wait
    wait = Math.min(wait * 2, bounds.max)
    pausedUntil = Math.max(pausedUntil, Date.now() + current)
    return current
  }
  return {
    pausedUntil: () => pausedUntil,
    begin,
    refused: (written, writes) => written <= burstEnd ? Math.max(0, pausedUntil - Date.now()) : begin(writes),
    ease: () => {
      wait = Math.max(bounds.initial, wait / 2)
    }
  }
}
