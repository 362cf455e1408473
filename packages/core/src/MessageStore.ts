/**
 * The port through which the domain keeps messages, the anti-spam ledger and the per-recipient
 * deliveries of group messages (so a resumed send never reaches anybody twice).
 */
import { Context, type Effect, type Option, type Stream } from "effect"
import type { DuplicateSend, StoreFailure } from "./Errors.ts"
import type * as Message from "./Message.ts"

/** `GET /messages` filters. Bounds are inclusive epoch milliseconds; order is creation, then message_id. */
export interface Filter {
  readonly from?: number
  readonly to?: number
  readonly direction?: Message.Direction
  /** Messages whose `msisdn` is this number (individual MT and inbound MO). */
  readonly msisdn?: string
  /** Group messages sent to this tag (case-insensitive). */
  readonly group?: string
}

export interface Page extends Filter {
  readonly limit: number
  readonly start: number
}

/** The anti-spam rule for one insert: refuse when a message with `id` was created at or after `since`. */
export interface AntiSpam {
  readonly id: string
  readonly since: number
}

export class MessageStore extends Context.Service<MessageStore, {
  /**
   * Records a new message. With `antiSpam`, the check and the insert are one atomic step in the
   * store, so two processes sending the same id at the same moment cannot both succeed.
   */
  readonly insert: (message: Message.Stored, antiSpam?: AntiSpam) => Effect.Effect<void, DuplicateSend | StoreFailure>
  /**
   * The message of `messageId`. With `forUpdate`, inside a `transaction`, no other writer changes it until that ends
   * (PostgreSQL locks its row; SQLite's and the memory store's transactions already exclude other writers): what the
   * transaction then writes from it loses nobody's change, such as a dispatcher's counts of failed and cancelled parts.
   */
  readonly get: (messageId: string, options?: { readonly forUpdate?: boolean }) => Effect.Effect<Option.Option<Message.Stored>, StoreFailure>
  /** The latest message carrying the external `id`, if any. */
  readonly findById: (id: string) => Effect.Effect<Option.Option<Message.Stored>, StoreFailure>
  /** Replaces the stored message of the same message_id (status and counters move). */
  readonly update: (message: Message.Stored) => Effect.Effect<void, StoreFailure>
  readonly list: (page: Page) => Effect.Effect<ReadonlyArray<Message.Stored>, StoreFailure>
  /** Every message matching `filter`, streamed in order without holding them all. */
  readonly stream: (filter: Filter) => Stream.Stream<Message.Stored, StoreFailure>
  /**
   * Records that `msisdns` were handed `messageId`; returns the ones not recorded before, in order.
   * A resumed group send hands over only those.
   */
  readonly recordDeliveries: (messageId: string, msisdns: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<string>, StoreFailure>
  /** How many recipients of `messageId` were recorded. */
  readonly countDeliveries: (messageId: string) => Effect.Effect<number, StoreFailure>
  readonly transaction: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E | StoreFailure, R>
}>()("@smsbook/core/MessageStore") {}
