/**
 * The port to the SMS network: hands over every part of a message and reports the ones that failed.
 * The default carrier of the stores is an outbox table, so every hand-over can be checked.
 */
import { Context, type Effect } from "effect"
import type { CarrierFailure, StoreFailure } from "./Errors.ts"

/** One SMS part as handed to the network. */
export interface Part {
  readonly message_id: string
  readonly msisdn: string
  readonly short_code: string
  /** 1-based index of this part among `parts`. */
  readonly part: number
  readonly parts: number
  readonly text: string
}

export class Carrier extends Context.Service<Carrier, {
  /** Hands the parts over; the result is how many of them the network refused (counted in `error_count`). */
  readonly handOver: (parts: ReadonlyArray<Part>) => Effect.Effect<number, CarrierFailure | StoreFailure>
}>()("@smsbook/core/Carrier") {}

/**
 * What a carrier was handed, in order: every adapter's default carrier keeps an outbox, and this
 * view of it lets tests and checks read it back.
 */
export class Outbox extends Context.Service<Outbox, {
  readonly parts: Effect.Effect<ReadonlyArray<Part>, StoreFailure>
}>()("@smsbook/core/Carrier/Outbox") {}
