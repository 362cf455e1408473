/**
 * The port through which a dispatcher drains the carrier's outbox to the network: claims parts under
 * a lease, records what the SMSC answered and what its receipts said, and derives `error_count`.
 */
import { Context, type Effect } from "effect"
import type { Part } from "./Carrier.ts"
import type { StoreFailure } from "./Errors.ts"

/**
 * Where a handed-over part stands. `queued` (not claimed), `submitting` (claimed, maybe on the
 * wire), `submitted` (the SMSC accepted it), `refused` (the SMSC refused it for good), `unknown`
 * (its dispatcher died while it was on the wire: never sent again), then the receipts' states.
 * `kept` parts were handed to the outbox before the store knew dispatchers: the outbox was their carrier.
 */
export type State =
  | "kept"
  | "queued"
  | "submitting"
  | "submitted"
  | "refused"
  | "unknown"
  | "enroute"
  | "accepted"
  | "delivered"
  | "undeliverable"
  | "expired"
  | "rejected"
  | "deleted"

/** The states counted in `error_count`: registered as failed after the hand-over. */
export const failedStates: ReadonlyArray<State> = ["refused", "undeliverable", "expired", "rejected", "deleted"]

/** The states no receipt changes any more. */
export const finalStates: ReadonlyArray<State> = ["refused", "delivered", "undeliverable", "expired", "rejected", "deleted"]

/** A claimed part and its place in the outbox. */
export interface Claimed extends Part {
  readonly seq: number
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
   * with a `StoreFailure` that names it; a dead one's parts on the wire become `unknown` at once.
   */
  readonly enter: (dispatcher: Dispatcher, now: number, leaseMs: number) => Effect.Effect<void, StoreFailure>
  /** Ends a dispatcher's registration (a clean stop). */
  readonly leave: (dispatcher: Dispatcher) => Effect.Effect<void, StoreFailure>
  /**
   * Marks up to `limit` queued parts (outbox order) `submitting` for `owner` until `now + leaseMs`
   * and returns them. Two dispatchers never claim the same part.
   */
  readonly claim: (owner: string, limit: number, now: number, leaseMs: number) => Effect.Effect<ReadonlyArray<Claimed>, StoreFailure>
  /**
   * Parts left `submitting` by a dispatcher whose lease ran out (it died with them on the wire)
   * become `unknown`, never sent again (a part is never submitted twice); their number.
   */
  readonly recover: (now: number) => Effect.Effect<number, StoreFailure>
  /** Records the answers: `submitted` with the SMSC id, or `refused` (and the message's `error_count`). */
  readonly answer: (answers: ReadonlyArray<Answer>) => Effect.Effect<void, StoreFailure>
  /** Claimed parts that never reached the wire go back to `queued`. */
  readonly release: (seqs: ReadonlyArray<number>) => Effect.Effect<void, StoreFailure>
  /**
   * Applies a receipt to the part whose SMSC id it names; else to the oldest `unknown` part to its
   * number (a receipt proves the SMSC had it). A final state is never changed. Keeps `error_count`.
   */
  readonly receipt: (receipt: ReceiptInput) => Effect.Effect<ReceiptOutcome, StoreFailure>
  /** Every part of a message with its state, in part order then number. */
  readonly states: (messageId: string) => Effect.Effect<ReadonlyArray<PartState>, StoreFailure>
  /** Parts still to send (queued or submitting). */
  readonly pending: Effect.Effect<number, StoreFailure>
}>()("@smsbook/core/PartQueue") {}
