/**
 * The port through which the domain keeps contacts and the suppression list (the numbers that opted
 * out). Adapters store and retrieve; the rules stay in the use cases, except the opt-out law, which
 * the store enforces so that no race between processes can undo it.
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
  /**
   * Only contacts whose msisdn sorts after this one (keyset paging, for walks of the whole book): each page is found
   * from the index, not by skipping `start` rows, and a contact written or deleted meanwhile shifts no later page.
   */
  readonly after?: string
}

/** The contacts a group send may reach: any of `tags` (case-insensitive) or `monitoring`. */
export interface AudienceFilter {
  readonly tags: ReadonlyArray<string>
}

/** A page of the suppression list: at most `limit` numbers, those after `after` when it is given. */
export interface SuppressedPage {
  readonly after?: string
  readonly limit: number
}

/** A batch of writes applied together: new contacts and full replacements of existing ones (see `write`). */
export interface Writes {
  readonly insert: ReadonlyArray<Contact.Contact>
  readonly update: ReadonlyArray<Contact.Contact>
}

/** What a {@link BulkImport} merge did: its rows' outcomes, counted as `ContactBook.upsertContacts` counts them. */
export interface MergeCounts {
  readonly created: number
  readonly updated: number
  readonly unchanged: number
  /** Rows of CANCELLED contacts, created ones (the number was suppressed) included. */
  readonly optedOut: number
  /** Of the created contacts, those created CANCELLED because their number was on the suppression list. */
  readonly suppressed: number
  /** The first of those numbers, in the order staged (at most the limit `merge` was given). */
  readonly optedOutMsisdns: ReadonlyArray<string>
  /**
   * Staged rows whose number an earlier merge of this import took: not merged, not counted above, handed back in
   * the order staged for the rule of a file's later rows (they only add tags).
   */
  readonly repeats: ReadonlyArray<Repeat>
}

/** A staged row a merge handed back: its number, the number's parts, and the row's tags. */
export type Repeat = Pick<Contact.Contact, "msisdn" | "country_code" | "phone_number" | "tags">

/**
 * A set-based import inside the caller's transaction: new-contact rows are staged, then merged with what is stored
 * in one statement, which writes only what changes. A number is staged at most once between two merges (its first
 * row there); the store remembers which numbers its merges took, not the caller, so the caller's memory stays flat
 * however long the file. The merge applies the import rule of `ContactBook.merge` (names replace stored ones, a
 * blank keeps the stored name unless `blankErases`, tags are added, the status never changes) and keeps the opt-out
 * law: a suppressed number is created CANCELLED.
 */
export interface BulkImport {
  /**
   * Stages contacts as an import would create them (FILE_UPLOAD, their starting status and monitoring, normalised tags,
   * the number's parts its `Msisdn.split`: a store may derive `phone_number` from `msisdn` and `country_code`). Only a
   * contact the merge creates takes the staged status (CANCELLED where its number is suppressed) and monitoring.
   */
  readonly stage: (contacts: ReadonlyArray<Contact.Contact>) => Effect.Effect<void, StoreFailure>
  /**
   * Merges everything staged since the last merge, and empties the staging. `last`: no merge follows, so the
   * numbers it takes need not be remembered.
   */
  readonly merge: (optedOutLimit: number, last: boolean) => Effect.Effect<MergeCounts, StoreFailure>
}

/** What `getOrInsert` found: the stored contact, and whether this call created it. */
export interface Got {
  readonly contact: Contact.Contact
  readonly created: boolean
}

/**
 * The opt-out law, held by every adapter under any interleaving of processes:
 * - a write that stores a contact CANCELLED puts its msisdn on the suppression list, in the same
 *   transaction; `remove` keeps the entry; only `unsuppress` (an explicit resubscribe) and `forget`
 *   take it off;
 * - `insert` and `write` store a suppressed msisdn CANCELLED, and `write` never changes a stored
 *   CANCELLED status (a batch decides names and tags, never who opted out);
 * - `update` stores the status it is given: callers read with `getForUpdate` in the same
 *   transaction, so the status they write back is one they decided on the current row.
 */
export class ContactStore extends Context.Service<ContactStore, {
  readonly get: (msisdn: string) => Effect.Effect<Option.Option<Contact.Contact>, StoreFailure>
  /**
   * `get`, holding the contact until the surrounding transaction ends (PostgreSQL `FOR UPDATE`;
   * SQLite and memory transactions hold the whole book): a read-modify-write of one contact.
   */
  readonly getForUpdate: (msisdn: string) => Effect.Effect<Option.Option<Contact.Contact>, StoreFailure>
  /**
   * The stored contact of `contact.msisdn`, held as by `getForUpdate`, or `contact` inserted when
   * there is none (CANCELLED when suppressed): never `ContactExists`, whoever creates it meanwhile.
   */
  readonly getOrInsert: (contact: Contact.Contact) => Effect.Effect<Got, StoreFailure>
  /**
   * The existing contacts among `msisdns`, by msisdn: one round trip for a whole import batch. It is
   * the read of a batch write: inside a transaction, other batch writers of the book wait until it
   * ends (an import reads and writes with no other import in between), and so does any other write of
   * the contacts read (a resubscribe, an edit): the batch writes back only what it read.
   */
  readonly getMany: (msisdns: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, Contact.Contact>, StoreFailure>
  /** Stores a new contact and answers it as stored: CANCELLED where its number is suppressed (the opt-out law). */
  readonly insert: (contact: Contact.Contact) => Effect.Effect<Contact.Contact, ContactExists | StoreFailure>
  /** Replaces the stored contact of the same msisdn. */
  readonly update: (contact: Contact.Contact) => Effect.Effect<void, ContactNotFound | StoreFailure>
  readonly remove: (msisdn: string) => Effect.Effect<void, ContactNotFound | StoreFailure>
  /**
   * Applies a batch of writes at once. Both lists are upserts, as the model check holds every adapter to: an insert of
   * a stored number replaces it, an update of a missing one creates it, and a number given twice ends as its last
   * version (an earlier CANCELLED one holds: the opt-out law).
   */
  readonly write: (writes: Writes) => Effect.Effect<void, StoreFailure>
  readonly list: (filter: ListFilter) => Effect.Effect<ReadonlyArray<Contact.Contact>, StoreFailure>
  /** Every contact that carries one of the tags or is monitoring, each once, ordered by msisdn. */
  readonly audience: (filter: AudienceFilter) => Stream.Stream<Contact.Contact, StoreFailure>
  readonly count: Effect.Effect<number, StoreFailure>
  /** The suppressed numbers among `msisdns`. */
  readonly suppressed: (msisdns: ReadonlyArray<string>) => Effect.Effect<ReadonlySet<string>, StoreFailure>
  /**
   * A page of the suppression list, in msisdn order: the numbers after `after` (keyset paging, all of them from the
   * first page on when it is absent), whether or not a contact still has them.
   */
  readonly listSuppressed: (page: SuppressedPage) => Effect.Effect<ReadonlyArray<string>, StoreFailure>
  /** Puts `msisdn` on the suppression list (kept when it is there). */
  readonly suppress: (msisdn: string) => Effect.Effect<void, StoreFailure>
  /**
   * Opts out `msisdns` as one set (the numbers an import's rows mark as opted out): each goes on the suppression list,
   * and its contact, where one is stored, becomes CANCELLED (one deleted meanwhile by another process keeps its
   * opt-out all the same). Answers how many stored contacts were not CANCELLED before.
   */
  readonly cancel: (msisdns: ReadonlyArray<string>) => Effect.Effect<number, StoreFailure>
  /** Takes `msisdn` off the suppression list: only an explicit resubscribe may. */
  readonly unsuppress: (msisdn: string) => Effect.Effect<void, StoreFailure>
  /** Erases the contact of `msisdn` and its suppression entry; whether there was either. */
  readonly forget: (msisdn: string) => Effect.Effect<boolean, StoreFailure>
  /**
   * Runs `effect` in one transaction: all of its writes land or none do. Imports run a whole file
   * in one, so an interrupted import leaves nothing behind.
   */
  readonly transaction: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E | StoreFailure, R>
  /**
   * `transaction`, run again with backoff while the database aborts it for contention (SQLite busy,
   * PostgreSQL deadlock or serialization failure). Only for effects whose sole side effects are
   * this store's writes, such as recording an inbound SMS.
   */
  readonly retrying: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E | StoreFailure, R>
  /**
   * A set-based import, where the adapter has one (imports fall back to `write` batches otherwise). Only inside a
   * `transaction`, whose end also drops the staging.
   */
  readonly bulkImport?: ((options: { readonly blankErases: boolean }) => Effect.Effect<BulkImport, StoreFailure>) | undefined
}>()("@smsbook/core/ContactStore") {}
