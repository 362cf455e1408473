/**
 * The port through which the domain keeps contacts. Adapters (memory, SQLite, PostgreSQL) store and
 * retrieve; every rule (what may change, who receives) stays in the use cases.
 */
import { Context, type Effect, type Option, type Stream } from "effect"
import type * as Contact from "./Contact.ts"
import type { ContactExists, ContactNotFound, StoreFailure } from "./Errors.ts"

/** A page of `GET /contacts`: `query` matches msisdn or names (case-insensitive substring). Ordered by msisdn. */
export interface ListFilter {
  readonly query?: string
  readonly status?: Contact.Status
  readonly limit: number
  readonly start: number
}

/** The contacts a group send may reach: any of `tags` (case-insensitive) or `monitoring`. */
export interface AudienceFilter {
  readonly tags: ReadonlyArray<string>
}

/** A batch of writes applied together: new contacts and full replacements of existing ones. */
export interface Writes {
  readonly insert: ReadonlyArray<Contact.Contact>
  readonly update: ReadonlyArray<Contact.Contact>
}

export class ContactStore extends Context.Service<ContactStore, {
  readonly get: (msisdn: string) => Effect.Effect<Option.Option<Contact.Contact>, StoreFailure>
  /** The existing contacts among `msisdns`, by msisdn: one round trip for a whole import batch. */
  readonly getMany: (msisdns: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, Contact.Contact>, StoreFailure>
  readonly insert: (contact: Contact.Contact) => Effect.Effect<void, ContactExists | StoreFailure>
  /** Replaces the stored contact of the same msisdn. */
  readonly update: (contact: Contact.Contact) => Effect.Effect<void, ContactNotFound | StoreFailure>
  readonly remove: (msisdn: string) => Effect.Effect<void, ContactNotFound | StoreFailure>
  /** Applies a batch of writes at once (inserts must be new, updates must exist). */
  readonly write: (writes: Writes) => Effect.Effect<void, StoreFailure>
  readonly list: (filter: ListFilter) => Effect.Effect<ReadonlyArray<Contact.Contact>, StoreFailure>
  /** Every contact that carries one of the tags or is monitoring, each once, ordered by msisdn. */
  readonly audience: (filter: AudienceFilter) => Stream.Stream<Contact.Contact, StoreFailure>
  readonly count: Effect.Effect<number, StoreFailure>
  /**
   * Runs `effect` in one transaction: all of its writes land or none do. Imports run a whole file
   * in one, so an interrupted import leaves nothing behind.
   */
  readonly transaction: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E | StoreFailure, R>
}>()("@smsbook/core/ContactStore") {}
