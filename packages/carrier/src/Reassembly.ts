/**
 * Reassembly of concatenated inbound (MO) SMS: parts arrive in any order, a repeated part is kept
 * once, and a message whose parts stop arriving is handed on with what came after a timeout.
 */

/** One part of a concatenated message, keyed by its sender, reference and total. */
export interface Fragment<T> {
  readonly from: string
  readonly reference: number
  readonly total: number
  readonly sequence: number
  readonly text: string
  /** What the caller must settle once the message is handled (the deliver_sm to acknowledge). */
  readonly token: T
}

/** A message put together from its parts: complete, or what arrived before the timeout. */
export interface Assembled<T> {
  readonly from: string
  readonly text: string
  readonly complete: boolean
  /** Missing sequence numbers of a partial message. */
  readonly missing: ReadonlyArray<number>
  readonly tokens: ReadonlyArray<T>
}

interface Pending<T> {
  readonly from: string
  readonly total: number
  readonly texts: Map<number, string>
  readonly tokens: Array<T>
  readonly firstAt: number
}

export interface Reassembler<T> {
  /** Adds a part; the whole message once its last missing part arrives. */
  readonly add: (fragment: Fragment<T>, now: number) => Assembled<T> | undefined
  /** Removes and returns the messages whose first part arrived `timeoutMs` or longer before `now`. */
  readonly expire: (now: number) => ReadonlyArray<Assembled<T>>
  readonly pending: () => number
}

const assemble = <T>(pending: Pending<T>, complete: boolean): Assembled<T> => {
  let text = ""
  const missing: Array<number> = []
  for (let sequence = 1; sequence <= pending.total; sequence++) {
    const part = pending.texts.get(sequence)
    if (part === undefined) missing.push(sequence)
    else text += part
  }
  return { from: pending.from, text, complete, missing, tokens: pending.tokens }
}

/** A reassembler whose partial messages time out after `timeoutMs`. */
export const make = <T>(timeoutMs: number): Reassembler<T> => {
  const pending = new Map<string, Pending<T>>()
  return {
    add: (fragment, now) => {
      const key = `${fragment.from}\u0000${fragment.reference}\u0000${fragment.total}`
      let entry = pending.get(key)
      if (entry === undefined) {
        entry = { from: fragment.from, total: fragment.total, texts: new Map(), tokens: [], firstAt: now }
        pending.set(key, entry)
      }
      // A repeated part (the SMSC resent it) keeps its first text; its token is settled with the rest. A part numbered
      // outside 1…total (an SMSC's SAR seqnum 0) is no part of the message: counted, it completed it short of one.
      const inside = fragment.sequence >= 1 && fragment.sequence <= fragment.total
      if (inside && !entry.texts.has(fragment.sequence)) entry.texts.set(fragment.sequence, fragment.text)
      entry.tokens.push(fragment.token)
      if (entry.texts.size < entry.total) return undefined
      pending.delete(key)
      return assemble(entry, true)
    },
    expire: (now) => {
      const out: Array<Assembled<T>> = []
      for (const [key, entry] of pending) {
        if (now - entry.firstAt >= timeoutMs) {
          pending.delete(key)
          out.push(assemble(entry, false))
        }
      }
      return out
    },
    pending: () => pending.size
  }
}
