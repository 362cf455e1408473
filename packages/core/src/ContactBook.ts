/**
 * The contact use cases: one per endpoint of the interface (list, get, create, edit, delete),
 * plus opt-out, resubscribe, and the batch upsert that imports are made of.
 */
import { Effect, Option, Result } from "effect"
import * as Contact from "./Contact.ts"
import { ContactStore } from "./ContactStore.ts"
import { ContactNotFound, InvalidField } from "./Errors.ts"
import * as ids from "./internal/ids.ts"
import * as Msisdn from "./Msisdn.ts"
import * as Query from "./Query.ts"

/** A path or body msisdn: international digits (a JSON number reads as its digits). */
const keyOf = (raw: string | number) => Effect.fromResult(Msisdn.parse(String(raw)))

const find = Effect.fnUntraced(function*(msisdn: string) {
  const store = yield* ContactStore
  const found = yield* store.get(msisdn)
  return Option.isSome(found) ? found.value : yield* new ContactNotFound({ msisdn })
})

/** `GET /contacts`: a page, in full or reduced (`shortResults`) form. */
export const listContacts = Effect.fn("ContactBook.listContacts")(function*(params: Query.Params) {
  const query = yield* Effect.fromResult(Query.contacts(params))
  const store = yield* ContactStore
  const contacts = yield* store.list(query)
  return query.short ? contacts.map(Contact.toShort) : contacts
})

/** `GET /contacts/:msisdn`. */
export const getContact = Effect.fn("ContactBook.getContact")(function*(msisdn: string | number) {
  return yield* find(yield* keyOf(msisdn))
})

/** A new contact as the platform makes it: SUBSCRIBED, no tags, not monitoring, a fresh profile_uid. */
const newContact = Effect.fnUntraced(function*(
  msisdn: Msisdn.Msisdn,
  names: { readonly first_name: string; readonly last_name: string },
  added_from: Contact.AddedFrom
) {
  const { country_code, phone_number } = Msisdn.split(msisdn)
  const contact: Contact.Contact = {
    msisdn,
    phone_number,
    country_code,
    first_name: names.first_name.trim(),
    last_name: names.last_name.trim(),
    full_name: Contact.fullName(names.first_name, names.last_name),
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
 * with it, a body `status` is refused. Created with `added_from` API.
 */
export const createContact = Effect.fn("ContactBook.createContact")(function*(path: string | number, body: unknown) {
  const msisdn = yield* keyOf(path)
  const request = yield* Effect.fromResult(Contact.decodeCreateBody(body))
  // The body's msisdn is read as tolerantly as the path's: `+44 7400 123456` names 447400123456.
  const bodyMsisdn = request.msisdn === undefined ? undefined : Result.getOrUndefined(Msisdn.parse(request.msisdn))
  if (request.msisdn !== undefined && bodyMsisdn !== msisdn) {
    return yield* new InvalidField({ field: "msisdn", value: request.msisdn, reason: `does not match the path ${msisdn}` })
  }
  const { country_code } = Msisdn.split(msisdn)
  if (request.country_code !== undefined && request.country_code.replace(/^\+/, "") !== country_code) {
    return yield* new InvalidField({
      field: "country_code",
      value: request.country_code,
      reason: `does not match the msisdn's country code ${country_code}`
    })
  }
  const contact = yield* newContact(msisdn, { first_name: request.first_name ?? "", last_name: request.last_name ?? "" }, "API")
  const store = yield* ContactStore
  yield* store.insert(contact)
  return contact
})

/** `PUT /contacts/:msisdn`: changes first_name, last_name, tags, monitoring; returns the full contact. */
export const editContact = Effect.fn("ContactBook.editContact")(function*(path: string | number, body: unknown) {
  const msisdn = yield* keyOf(path)
  const edit = yield* Effect.fromResult(Contact.decodeEditBody(body))
  const store = yield* ContactStore
  return yield* store.transaction(Effect.gen(function*() {
    const edited = Contact.applyEdit(yield* find(msisdn), edit)
    yield* store.update(edited)
    return edited
  }))
})

/** `DELETE /contacts/:msisdn`. */
export const deleteContact = Effect.fn("ContactBook.deleteContact")(function*(path: string | number) {
  const msisdn = yield* keyOf(path)
  const store = yield* ContactStore
  yield* store.remove(msisdn)
  return { msisdn, deleted: true } as const
})

const move = (move: Contact.Move) =>
  Effect.fn(`ContactBook.${move}`)(function*(path: string | number) {
    const msisdn = yield* keyOf(path)
    const store = yield* ContactStore
    return yield* store.transaction(Effect.gen(function*() {
      const contact = yield* find(msisdn)
      const status = yield* Effect.fromResult(Contact.transition(contact.status, move))
      const moved = { ...contact, status }
      if (status !== contact.status) yield* store.update(moved)
      return moved
    }))
  })

/** Opt-out: the contact becomes CANCELLED and receives nothing more. */
export const optOut = move("opt-out")

/** Explicit resubscribe (a START keyword, an operator's command): CANCELLED → SUBSCRIBED. */
export const resubscribe = move("resubscribe")

/** Invitation answered: INVITED → CONFIRMED. */
export const confirm = move("confirm")

/** One row of an import, already normalised: a valid msisdn with its parts, trimmed names, tags. */
export interface Candidate {
  readonly msisdn: Msisdn.Msisdn
  readonly country_code: string
  readonly phone_number: string
  readonly first_name: string
  readonly last_name: string
  readonly tags: ReadonlyArray<string>
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
 * batch is merged). New contacts are SUBSCRIBED with `added_from` FILE_UPLOAD. One read and one
 * write for the whole batch.
 */
export const upsertContacts = Effect.fn("ContactBook.upsertContacts")(function*(
  rows: ReadonlyArray<Candidate>,
  options: UpsertOptions
) {
  const store = yield* ContactStore
  const current = new Map(yield* store.getMany([...new Set(rows.map((row) => row.msisdn))]))
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
      const withTags = { ...contact, tags: Contact.normalizeTags(row.tags) }
      current.set(row.msisdn, withTags)
      created.set(row.msisdn, withTags)
      outcomes.push({ kind: "created", msisdn: row.msisdn, optedOut: false, duplicate })
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

/** Creates a contact from an inbound SMS (a keyword from an unknown number), with the given status. */
export const fromInbound = Effect.fnUntraced(function*(msisdn: Msisdn.Msisdn, status: Contact.Status) {
  const contact = yield* newContact(msisdn, { first_name: "", last_name: "" }, "SMS")
  return { ...contact, status }
})
