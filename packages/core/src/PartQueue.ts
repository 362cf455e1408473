/**
 * The port through which a dispatcher drains the carrier's outbox to the network: claims parts under
 * a lease, records what the SMSC answered and what its receipts said, and derives `error_count`.
 */
import { Context, type Effect } from "effect"
import type { Part } from "./Carrier.ts"
import type { StoreFailure } from "./Errors.ts"

/**
 * Where a handed-over part stands. `queued` (not claimed), `claimed` (leased by a dispatcher, not yet
 * written to the SMSC), `submitting` (stored just before its submit_sm is written: maybe at the
 * SMSC), `submitted` (the SMSC accepted it), `refused` (the SMSC refused it for good), `in_doubt`
 * (written without an answer when its dispatcher died: settled by a receipt, else sent again once
 * its doubt ends), `cancelled` (its number opted out before any part of that message reached the
 * SMSC), then the receipts' states (`unknown` is a receipt's UNKNOWN). `kept` parts were handed to
 * the outbox before the store knew dispatchers: the outbox was their carrier.
 */
export type State =
  | "kept"
  | "queued"
  | "claimed"
  | "submitting"
  | "submitted"
  | "refused"
  | "in_doubt"
  | "cancelled"
  | "unknown"
  | "enroute"
  | "accepted"
  | "delivered"
  | "undeliverable"
  | "expired"
  | "rejected"
  | "deleted"

/** Every state, for the adapters that read them back. */
export const states: ReadonlyArray<State> = [
  "kept", "queued", "claimed", "submitting", "submitted", "refused", "in_doubt", "cancelled",
  "unknown", "enroute", "accepted", "delivered", "undeliverable", "expired", "rejected", "deleted"
]

/** The states counted in `error_count`: registered as failed after the hand-over. */
export const failedStates: ReadonlyArray<State> = ["refused", "undeliverable", "expired", "rejected", "deleted"]

/** The states no receipt changes any more. */
export const finalStates: ReadonlyArray<State> = ["refused", "cancelled", "delivered", "undeliverable", "expired", "rejected", "deleted"]

/** The states of a part that never reached the SMSC: a message to a number whose parts are all here was not started. */
export const unsentStates: ReadonlyArray<State> = ["queued", "claimed", "cancelled"]

/** A claimed part and its place in the outbox. */
export interface Claimed extends Part {
  readonly seq: number
}

/** What a claim took: the parts now `claimed`, and how many it cancelled on the way (their number opted out). */
export interface Claim {
  readonly parts: ReadonlyArray<Claimed>
  readonly cancelled: number
}

/** What the SMSC answered to one part's submit_sm. */
export type Answer =
  | { readonly seq: number; readonly smscId: string }
  | { readonly seq: number; readonly refused: number }

/** A receipt as the dispatcher read it: the ids its id may stand for, the state, the handset. */
export interface ReceiptInput {
  readonly smscIds: ReadonlyArray<string>
  readonly state: State
  /** The receipt's source address: the number the part went to. */
  readonly msisdn: string
}

/** What a receipt did to the stored parts. */
export type ReceiptOutcome =
  | { readonly _tag: "Updated"; readonly message_id: string; readonly part: number; readonly msisdn: string; readonly state: State }
  | { readonly _tag: "Duplicate"; readonly message_id: string; readonly state: State }
  | { readonly _tag: "Unknown" }

/** One part's state, for reports. */
export interface PartState {
  readonly message_id: string
  readonly msisdn: string
  readonly part: number
  readonly state: State
  readonly smsc_id?: string
}

/** What `recover` did. */
export interface Recovered {
  /** Claimed but never written: queued again. */
  readonly requeued: number
  /** Written without an answer: in doubt. */
  readonly inDoubt: number
}

/** Who runs a dispatcher: a unique owner name, its host and process id (to tell a dead one). */
export interface Dispatcher {
  readonly owner: string
  readonly host: string
  readonly pid: number
}

export class PartQueue extends Context.Service<PartQueue, {
  /**
   * Registers a dispatcher until `now + leaseMs` (call again to renew, which also renews the
   * leases of its claimed parts). Where only one may run (SQLite), another live one is refused
   * with a `StoreFailure` that names it. A dispatcher of this host whose process is gone has its leases
   * ended at once (see `recover`), on either store.
   */
  readonly enter: (dispatcher: Dispatcher, now: number, leaseMs: number) => Effect.Effect<void, StoreFailure>
  /** Ends a dispatcher's registration (a clean stop). */
  readonly leave: (dispatcher: Dispatcher) => Effect.Effect<void, StoreFailure>
  /**
   * Marks up to `limit` queued parts (outbox order) `claimed` by `owner` until `now + leaseMs` and
   * answers them. Two dispatchers never claim the same part. A number with a part in doubt (that a
   * receipt or the end of its doubt will settle) is skipped until then. Parts met on the way whose number opted
   * out (suppressed) and whose message to that number is not started are `cancelled` instead, and
   * leave the message's `sent_count`.
   */
  readonly claim: (owner: string, limit: number, now: number, leaseMs: number) => Effect.Effect<Claim, StoreFailure>
  /**
   * Stored just before the PDUs are written: claimed parts become `submitting`, except those whose
   * number opted out meanwhile and whose message to it is not started, which become `cancelled`
   * (and leave `sent_count`). Answers the seqs that may be written.
   */
  readonly sending: (seqs: ReadonlyArray<number>) => Effect.Effect<ReadonlyArray<number>, StoreFailure>
  /** `submitting` parts the SMSC did not take (throttled, unanswered on a dropped link) are `claimed` again until written again. */
  readonly notTaken: (seqs: ReadonlyArray<number>) => Effect.Effect<void, StoreFailure>
  /**
   * Parts whose dispatcher's lease ran out (it died): `claimed` ones go back to `queued` (they never
   * left it), `submitting` ones become `in_doubt` until `now + doubtMs` (when receipts can settle
   * them) or for good (`doubtMs` undefined: never sent again). Answers both numbers.
   */
  readonly recover: (now: number, doubtMs: number | undefined) => Effect.Effect<Recovered, StoreFailure>
  /** `in_doubt` parts whose doubt ended before `now` with no receipt naming them go back to `queued`; their number. */
  readonly resend: (now: number) => Effect.Effect<number, StoreFailure>
  /** Records the answers: `submitted` with the SMSC id, or `refused` (and the message's `error_count`). */
  readonly answer: (answers: ReadonlyArray<Answer>) => Effect.Effect<void, StoreFailure>
  /** Claimed parts that never reached the wire (`claimed` or `submitting`) go back to `queued`. */
  readonly release: (seqs: ReadonlyArray<number>) => Effect.Effect<void, StoreFailure>
  /**
   * Applies a receipt to the part whose SMSC id it names; else to the oldest `in_doubt` part to its
   * number (a receipt proves the SMSC had it; an SMSC handles a bind's PDUs in order, so what it
   * took is the oldest). A final state is never changed. Keeps `error_count`.
   */
  readonly receipt: (receipt: ReceiptInput) => Effect.Effect<ReceiptOutcome, StoreFailure>
  /**
   * `receipt` for each of several receipts, in order, in one transaction: a dispatcher applies what arrived since its
   * last turn with one commit, not one per receipt. Answers their outcomes in the same order. Where several dispatchers
   * lock parts (PostgreSQL), a receipt whose part another holds at that moment is `Unknown`, to be tried again.
   */
  readonly receipts: (receipts: ReadonlyArray<ReceiptInput>) => Effect.Effect<ReadonlyArray<ReceiptOutcome>, StoreFailure>
  /** Every part of a message with its state, in part order then number. */
  readonly states: (messageId: string) => Effect.Effect<ReadonlyArray<PartState>, StoreFailure>
  /** Parts the SMSC accepted whose receipt has not come (`submitted`), by any dispatcher. */
  readonly awaitingReceipts: Effect.Effect<number, StoreFailure>
  /** Parts not settled yet: queued, claimed, submitting, or in doubt with a doubt that ends. */
  readonly pending: Effect.Effect<number, StoreFailure>
}>()("@smsbook/core/PartQueue") {}
