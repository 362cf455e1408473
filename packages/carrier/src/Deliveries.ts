/**
 * Where every handed-over part stands: the SMSC id its submit_sm_resp gave it and the state its
 * receipts moved it to. Receipts that come first, twice, or for ids nobody knows are told apart.
 */
import * as Receipt from "./Receipt.ts"

/** One SMS part of one message to one number. */
export interface PartKey {
  readonly message_id: string
  readonly msisdn: string
  readonly part: number
}

export interface PartState extends PartKey {
  readonly smscId?: string
  /** `submitted` until a receipt says more; `refused` when the SMSC refused the submit_sm. */
  readonly state: Receipt.State | "submitted" | "refused"
}

/** What a receipt did. */
export type Applied =
  | { readonly _tag: "Updated"; readonly part: PartState; readonly failed: boolean }
  | { readonly _tag: "Duplicate"; readonly part: PartState; readonly receipt: Receipt.Receipt }
  | { readonly _tag: "Unknown"; readonly receipt: Receipt.Receipt }

export interface Deliveries {
  /**
   * The SMSC accepted the part under `smscId`; receipts parked for that id (they overtook the
   * submit_sm_resp) are applied now, and what they did is returned.
   */
  readonly submitted: (key: PartKey, smscId: string) => ReadonlyArray<Applied>
  /** Keeps a receipt no part matches yet (its submit_sm_resp may still be on the way). */
  readonly park: (receipt: Receipt.Receipt, now: number) => void
  /** Parked receipts older than `maxAgeMs`: no part will match them; the caller reports them. */
  readonly expireParked: (now: number, maxAgeMs: number) => ReadonlyArray<Receipt.Receipt>
  /** The SMSC refused the part for good: it counts as failed at once. */
  readonly refused: (key: PartKey) => PartState
  /** Applies a receipt: a final state is never overwritten (a later receipt is a duplicate). */
  readonly receipt: (receipt: Receipt.Receipt) => Applied
  readonly parts: () => ReadonlyArray<PartState>
  /** Failed parts of a message (refused, or failed receipts): its `error_count`. */
  readonly errorCount: (messageId: string) => number
}

const keyOf = (key: PartKey): string => `${key.message_id}\u0000${key.msisdn}\u0000${key.part}`

const isFailed = (state: PartState["state"]): boolean => state === "refused" || (state !== "submitted" && Receipt.failed.has(state))

const isFinal = (state: PartState["state"]): boolean => state === "refused" || (state !== "submitted" && Receipt.final.has(state))

/** An empty record of deliveries, held in memory. */
export const make = (): Deliveries => {
  const byKey = new Map<string, PartState>()
  const bySmscId = new Map<string, string>()
  const failedPerMessage = new Map<string, number>()
  const parked: Array<{ readonly receipt: Receipt.Receipt; readonly at: number }> = []
  const countFailure = (messageId: string) => failedPerMessage.set(messageId, (failedPerMessage.get(messageId) ?? 0) + 1)
  const receipt = (receipt: Receipt.Receipt): Applied => {
    const found = Receipt.idCandidates(receipt.messageId).map((id) => bySmscId.get(id)).find((key) => key !== undefined)
    const current = found === undefined ? undefined : byKey.get(found)
    if (found === undefined || current === undefined) return { _tag: "Unknown", receipt }
    if (isFinal(current.state) || current.state === receipt.state) return { _tag: "Duplicate", part: current, receipt }
    const part: PartState = { ...current, state: receipt.state }
    byKey.set(found, part)
    const failed = isFailed(receipt.state)
    if (failed) countFailure(part.message_id)
    return { _tag: "Updated", part, failed }
  }
  return {
    submitted: (key, smscId) => {
      byKey.set(keyOf(key), { ...key, smscId, state: "submitted" })
      bySmscId.set(smscId, keyOf(key))
      const candidates = new Set(Receipt.idCandidates(smscId))
      const matching = parked.filter((entry) => Receipt.idCandidates(entry.receipt.messageId).some((id) => candidates.has(id)))
      if (matching.length === 0) return []
      for (const entry of matching) parked.splice(parked.indexOf(entry), 1)
      return matching.map((entry) => receipt(entry.receipt))
    },
    park: (receipt, now) => {
      parked.push({ receipt, at: now })
    },
    expireParked: (now, maxAgeMs) => {
      const expired = parked.filter((entry) => now - entry.at >= maxAgeMs)
      for (const entry of expired) parked.splice(parked.indexOf(entry), 1)
      return expired.map((entry) => entry.receipt)
    },
    refused: (key) => {
      const part: PartState = { ...key, state: "refused" }
      byKey.set(keyOf(key), part)
      countFailure(key.message_id)
      return part
    },
    receipt,
    parts: () => [...byKey.values()],
    errorCount: (messageId) => failedPerMessage.get(messageId) ?? 0
  }
}
