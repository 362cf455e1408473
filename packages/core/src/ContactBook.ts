/**
 * The contact use cases: one per endpoint of the interface (list, get, create, edit, delete),
 * plus opt-out, resubscribe, forget (data erasure), and the batch upsert that imports are made of.
 */
import { Effect, Option, Random, Result } from "effect"
import * as Contact from "./Contact.ts"
import { type BulkImport, ContactStore } from "./ContactStore.ts"
import { ContactNotFound, InvalidField } from "./Errors.ts"
import * as ids from "./internal/ids.ts"
import { useCaseSpan } from "./internal/useCaseSpan.ts"
import * as Msisdn from "./Msisdn.ts"
import * as Query from "./Query.ts"

/** A path or body msisdn: international digits (a JSON number reads as its digits). */
const keyOf = (raw: string | number) => Effect.fromResult(Msisdn.parse(String(raw)))

/** The stored contact (else `ContactNotFound`) for a read-modify-write: it stays held until the transaction ends. */
const findForUpdate = Effect.fnUntraced(function*(msisdn: string) {
  const store = yield* ContactStore
  const found = yield* store.getForUpdate(msisdn)
  return Option.isSome(found) ? found.value : yield* new ContactNotFound({ msisdn })
})

/** `GET /contacts`: a page, in full or reduced (`shortResults`) form. */
export const listContacts = Effect.fnUntraced(function*(params: Query.Params) {
  const query = yield* Effect.fromResult(Query.contacts(params))
  const store = yield* ContactStore
  const contacts = yield* store.list(query)
  return query.short ? contacts.map(Contact.toShort) : contacts
}, useCaseSpan("ContactBook.listContacts"))

/** `GET /contacts/:msisdn`. Combinators rather than generators: a server runs it for every contact read. */
export const getContact = (msisdn: string | number) =>
  Effect.flatMap(keyOf(msisdn), (key) =>
    Effect.flatMap(Effect.service(ContactStore), (store) =>
      Effect.flatMap(store.get(key), (found) =>
        Option.isSome(found) ? Effect.succeed(found.value) : Effect.fail(new ContactNotFound({ msisdn: key }))))).pipe(
      useCaseSpan("ContactBook.getContact")
    )

/** A new contact as the platform makes it: SUBSCRIBED, no tags, not monitoring, a fresh profile_uid. */
const newContact = Effect.fnUntraced(function*(
  msisdn: Msisdn.Msisdn,
  names: { readonly first_name: string; readonly last_name: string },
  added_from: Contact.AddedFrom
) {
  const { country_code, phone_number } = Msisdn.split(msisdn)
  // In the interface's order, as every store reads a contact back: an answer printed as it is looks the same whatever
  // the store.
  const contact: Contact.Contact = {
    msisdn,
    phone_number,
    first_name: names.first_name.trim(),
    last_name: names.last_name.trim(),
    full_name: Contact.fullName(names.first_name, names.last_name),
    country_code,
    added_from,
    status: "SUBSCRIBED",
    tags: [],
    profile_uid: yield* ids.profileUid,
    monitoring: false
  }
  return contact
})

/**
 * `POST /contacts/:msisdn`: the path names the contact; a body `msisdn` or `country_code` must agree
 * with it, a body `status` is refused. Created with `added_from` API, CANCELLED when the number is
 * on the suppression list (an opt-out outlives its contact).
 */
export const createContact = Effect.fnUntraced(function*(path: string | number, body: unknown) {
  const msisdn = yield* keyOf(path)
  const request = yield* Effect.fromResult(Contact.decodeCreateBody(body))
  // The body's msisdn (or `misdn`, each when both) is read as tolerantly as the path's: `+44 7400 123456` names
  // 447400123456.
  for (const field of ["msisdn", "misdn"] as const) {
    const given = request[field]
    if (given !== undefined && Result.getOrUndefined(Msisdn.parse(given)) !== msisdn) {
      return yield* new InvalidField({ field, value: given, reason: `does not match the path ${msisdn}` })
    }
  }
  const { country_code } = Msisdn.split(msisdn)
  if (request.country_code !== undefined && request.country_code.replace(/^\+/, "") !== country_code) {
    return yield* new InvalidField({
      field: "country_code",
      value: request.country_code,
      reason: `does not match the msisdn's country code ${country_code}`
    })
  }
  yield* Effect.fromResult(Contact.checkNames(request))
  const fresh = yield* newContact(msisdn, { first_name: request.first_name ?? "", last_name: request.last_name ?? "" }, "API")
  const store = yield* ContactStore
  // The store keeps the opt-out law (a suppressed number is stored CANCELLED): what it stored is the answer, as of
  // its insert (on PostgreSQL an insert may wait for a set of opt-outs another process is committing).
  return yield* store.insert(fresh)
}, useCaseSpan("ContactBook.createContact"))

/** `PUT /contacts/:msisdn`: changes first_name, last_name, tags, monitoring; returns the full contact. */
export const editContact = Effect.fnUntraced(function*(path: string | number, body: unknown) {
  const msisdn = yield* keyOf(path)
  const edit = yield* Effect.fromResult(Contact.decodeEditBody(body))
  const store = yield* ContactStore
  return yield* store.transaction(Effect.gen(function*() {
    const stored = yield* findForUpdate(msisdn)
    // New tags and names only: what a book kept from before the limits may be sent back as it is.
    if (edit.tags !== undefined) yield* Effect.fromResult(Contact.checkTags(edit.tags, stored.tags))
    yield* Effect.fromResult(Contact.checkNames(edit, stored))
    const edited = Contact.applyEdit(stored, edit)
    yield* store.update(edited)
    return edited
  }))
}, useCaseSpan("ContactBook.editContact"))

/** A change of a contact's tags: `set` replaces them when given; then `added` are added and `removed` taken away. */
export interface TagChange {
  readonly set?: ReadonlyArray<string> | undefined
  readonly added: ReadonlyArray<string>
  readonly removed: ReadonlyArray<string>
}

/**
 * The tags a contact ends with after `change`: `added` once each and `removed` taken away, compared as tags are stored
 * (trimmed, in any case: removing `" vip "` takes `VIP` away); trimmed, blanks dropped.
 */
export const nextTags = (current: ReadonlyArray<string>, change: TagChange): ReadonlyArray<string> => {
  const removed = new Set(change.removed.map((tag) => tag.trim().toLowerCase()))
  const out: Array<string> = []
  const seen = new Set<string>()
  for (const raw of [...(change.set ?? current), ...change.added]) {
    const tag = raw.trim()
    const key = tag.toLowerCase()
    if (tag === "" || seen.has(key) || removed.has(key)) continue
    seen.add(key)
    out.push(tag)
  }
  return out
}

/**
 * {@link editContact} with the tags given as a change of the stored ones, decided on the contact as it stands under its
 * lock: two edits adding tags at once both keep theirs, and an import's tags written meanwhile stay. Decided on a read
 * made before the lock, PostgreSQL wrote back the tags it had read (12 concurrent `--add-tags` kept 3 to 6 of theirs).
 */
export const changeContact = Effect.fnUntraced(function*(path: string | number, fields: Readonly<Record<string, unknown>>, change: TagChange) {
  const msisdn = yield* keyOf(path)
  const store = yield* ContactStore
  const touchesTags = change.set !== undefined || change.added.length > 0 || change.removed.length > 0
  return yield* store.transaction(Effect.gen(function*() {
    const current = touchesTags ? (yield* findForUpdate(msisdn)).tags : []
    return yield* editContact(msisdn, touchesTags ? { ...fields, tags: nextTags(current, change) } : fields)
  }))
}, useCaseSpan("ContactBook.changeContact"))

/** `DELETE /contacts/:msisdn`. An opt-out stays on the suppression list: deleting is not resubscribing. */
export const deleteContact = Effect.fnUntraced(function*(path: string | number) {
  const msisdn = yield* keyOf(path)
  const store = yield* ContactStore
  yield* store.remove(msisdn)
  return { msisdn, deleted: true } as const
}, useCaseSpan("ContactBook.deleteContact"))

/**
 * Erases every trace of a number from the book, its contact and its suppression entry, for a
 * data-erasure request: after it, an import of the number creates it SUBSCRIBED again.
 */
export const forget = Effect.fnUntraced(function*(path: string | number) {
  const msisdn = yield* keyOf(path)
  const store = yield* ContactStore
  if (!(yield* store.forget(msisdn))) return yield* new ContactNotFound({ msisdn })
  return { msisdn, forgotten: true } as const
}, useCaseSpan("ContactBook.forget"))

/**
 * A status move, decided on the contact as it stands (held until the transaction ends), with the
 * suppression entry written in the same transaction: an opt-out adds it, a resubscribe lifts it.
 */
const applyMove = Effect.fnUntraced(function*(contact: Contact.Contact, move: Contact.Move) {
  const store = yield* ContactStore
  const status = yield* Effect.fromResult(Contact.transition(contact.status, move))
  const moved = { ...contact, status }
  // The contact first, then its entry: every writer takes the two in this order (no deadlock).
  if (status !== contact.status) yield* store.update(moved)
  if (move === "opt-out") yield* store.suppress(contact.msisdn)
  if (move === "resubscribe") yield* store.unsuppress(contact.msisdn)
  return moved
})

const move = (move: Contact.Move) =>
  Effect.fnUntraced(function*(path: string | number) {
    const msisdn = yield* keyOf(path)
    const store = yield* ContactStore
    return yield* store.transaction(Effect.flatMap(findForUpdate(msisdn), (contact) => applyMove(contact, move)))
  }, useCaseSpan(`ContactBook.${move}`))

/** Opt-out: the contact becomes CANCELLED and receives nothing more. */
export const optOut = move("opt-out")

/** Explicit resubscribe (a START keyword, an operator's command): CANCELLED → SUBSCRIBED. */
export const resubscribe = move("resubscribe")

/** Invitation answered: INVITED → CONFIRMED. */
export const confirm = move("confirm")

/** A confirmed contact subscribed: CONFIRMED → SUBSCRIBED, the last step of an invitation (a CANCELLED one only resubscribes). */
export const subscribe = move("subscribe")

/** The statuses a new contact can start in (an opt-out is never a starting state: it goes on the suppression list). */
export type StartingStatus = Exclude<Contact.Status, "CANCELLED">

/** One row of an import, already normalised: a valid msisdn with its parts, trimmed names, tags. */
export interface Candidate {
  readonly msisdn: Msisdn.Msisdn
  readonly country_code: string
  readonly phone_number: string
  readonly first_name: string
  readonly last_name: string
  readonly tags: ReadonlyArray<string>
  /**
   * The state of a contact this row creates (an export of another book carries it): SUBSCRIBED and not monitoring
   * where absent. An existing contact keeps its own: an import never subscribes, invites or monitors anyone it holds.
   */
  readonly status?: StartingStatus | undefined
  readonly monitoring?: boolean | undefined
}

export interface UpsertOptions {
  /** A blank name in the file erases the stored one (default: blanks keep what is stored). */
  readonly blankErases: boolean
}

export type OutcomeKind = "created" | "updated" | "unchanged"

export interface Outcome {
  readonly kind: OutcomeKind
  readonly msisdn: string
  /** The contact is CANCELLED: the row may change names and tags but never resubscribes it. */
  readonly optedOut: boolean
  /** The same msisdn came earlier in this batch; this row was merged into it. */
  readonly duplicate: boolean
  /**
   * Present when the number was on the suppression list, so the contact was created CANCELLED
   * (an opt-out outlives its contact): imports count these as `suppressed`.
   */
  readonly suppressed?: true
}

/**
 * The import rule: names from the row replace stored ones (a blank keeps the stored name unless
 * `blankErases`), the row's tags are added to the stored ones, and nothing else changes —
 * in particular the status, so a CANCELLED contact stays CANCELLED.
 */
export const merge = (stored: Contact.Contact, row: Candidate, options: UpsertOptions): Contact.Contact => {
  const pick = (fromRow: string, kept: string) => fromRow !== "" || options.blankErases ? fromRow : kept
  const first_name = pick(row.first_name, stored.first_name)
  const last_name = pick(row.last_name, stored.last_name)
  return {
    ...stored,
    first_name,
    last_name,
    full_name: Contact.fullName(first_name, last_name),
    tags: Contact.normalizeTags([...stored.tags, ...row.tags])
  }
}

/**
 * Upserts a batch of import rows by msisdn, in order: each row is `created`, `updated` or
 * `unchanged` against the store as it stands after the rows before it (so a number twice in a
 * batch is merged). New contacts start in the row's state (SUBSCRIBED, not monitoring, by default) with `added_from`
 * FILE_UPLOAD, or CANCELLED when the number is suppressed. Two reads and one write for the whole batch; the store's write keeps
 * any opt-out that lands meanwhile.
 */
export const upsertContacts = Effect.fn("ContactBook.upsertContacts")(function*(
  rows: ReadonlyArray<Candidate>,
  options: UpsertOptions
) {
  const store = yield* ContactStore
  const msisdns = [...new Set(rows.map((row) => row.msisdn))]
  const current = new Map(yield* store.getMany(msisdns))
  const suppressed = yield* store.suppressed(msisdns.filter((msisdn) => !current.has(msisdn)))
  const created = new Map<string, Contact.Contact>()
  const updated = new Map<string, Contact.Contact>()
  const seen = new Set<string>()
  const outcomes: Array<Outcome> = []
  for (const row of rows) {
    const stored = current.get(row.msisdn)
    const duplicate = seen.has(row.msisdn)
    seen.add(row.msisdn)
    if (stored === undefined) {
      const contact = yield* newContact(row.msisdn, row, "FILE_UPLOAD")
      const isSuppressed = suppressed.has(row.msisdn)
      const withTags: Contact.Contact = {
        ...contact,
        status: isSuppressed ? "CANCELLED" : row.status ?? contact.status,
        tags: Contact.normalizeTags(row.tags),
        monitoring: row.monitoring ?? contact.monitoring
      }
      current.set(row.msisdn, withTags)
      created.set(row.msisdn, withTags)
      outcomes.push({
        kind: "created",
        msisdn: row.msisdn,
        optedOut: isSuppressed,
        duplicate,
        ...(isSuppressed ? { suppressed: true } : {})
      })
      continue
    }
    const next = merge(stored, row, options)
    const optedOut = stored.status === "CANCELLED"
    if (Contact.equals(stored, next)) {
      outcomes.push({ kind: "unchanged", msisdn: row.msisdn, optedOut, duplicate })
      continue
    }
    current.set(row.msisdn, next)
    ;(created.has(row.msisdn) ? created : updated).set(row.msisdn, next)
    outcomes.push({ kind: "updated", msisdn: row.msisdn, optedOut, duplicate })
  }
  if (created.size + updated.size > 0) {
    yield* store.write({ insert: [...created.values()], update: [...updated.values()] })
  }
  return outcomes
})

/**
 * Stages the first rows of numbers into a set-based import (see `ContactStore.BulkImport`), as contacts an import
 * creates: FILE_UPLOAD, the row's starting state (the store makes a suppressed number CANCELLED), trimmed names,
 * normalised tags.
 * Each number at most once between two merges: later rows of a number go through {@link upsertContacts} after the
 * merge, as do the staged rows of numbers an earlier merge took (the merge hands them back).
 */
export const stageContacts = Effect.fnUntraced(function*(bulk: BulkImport, rows: ReadonlyArray<Candidate>) {
  const random = yield* Effect.service(Random.Random)
  const contacts = rows.map((row): Contact.Contact => {
    const first_name = row.first_name.trim()
    const last_name = row.last_name.trim()
    // The row's parts are `Msisdn.split` of its number already (a law of `Msisdn.normalize`).
    return {
      msisdn: row.msisdn,
      phone_number: row.phone_number,
      country_code: row.country_code,
      first_name,
      last_name,
      full_name: Contact.fullName(first_name, last_name),
      added_from: "FILE_UPLOAD",
      status: row.status ?? "SUBSCRIBED",
      tags: Contact.normalizeTags(row.tags),
      profile_uid: ids.profileUidFrom(random),
      monitoring: row.monitoring ?? false
    }
  })
  yield* bulk.stage(contacts)
})

/**
 * Applies an inbound keyword's move to the sender, inside the caller's transaction: the contact is
 * created or got (never `ContactExists`, whoever adds the number meanwhile), with `added_from` SMS,
 * CANCELLED for an opt-out, otherwise SUBSCRIBED unless the number is suppressed; then moved as
 * `optOut`/`resubscribe` would. A move the status does not allow (START from INVITED) leaves the
 * contact as it is.
 */
export const applyKeyword = Effect.fnUntraced(function*(msisdn: Msisdn.Msisdn, move: "opt-out" | "resubscribe") {
  const store = yield* ContactStore
  const fresh = yield* newContact(msisdn, { first_name: "", last_name: "" }, "SMS")
  const { contact } = yield* store.getOrInsert({ ...fresh, status: move === "opt-out" ? "CANCELLED" : "SUBSCRIBED" })
  return yield* applyMove(contact, move).pipe(Effect.catchTag("IllegalTransition", () => Effect.succeed(contact)))
})
