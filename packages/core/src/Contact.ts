/**
 * A contact of the book (interface section 2.2): its wire shape, request bodies and status machine.
 * Read tolerantly (the samples' `SUSCRIBED`, numeric msisdn, `0/1` booleans), written strictly.
 */
// By module, not from the package index: the import's worker thread loads this module (for the tag bounds,
// `maxTagLength` and `isTooLong`).
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as SchemaTransformation from "effect/SchemaTransformation"
import { IllegalTransition, InvalidField } from "./Errors.ts"
import * as Wire from "./Wire.ts"

export const statuses = ["SUBSCRIBED", "INVITED", "CONFIRMED", "CANCELLED"] as const
export const Status = Schema.Literals(statuses)
export type Status = typeof Status.Type

/** A status as the wire spells it: the samples' `SUSCRIBED` reads as `SUBSCRIBED`. */
export const StatusFromWire = Schema.Union([Status, Schema.Literal("SUSCRIBED")]).pipe(
  Schema.decodeTo(
    Status,
    SchemaTransformation.transform({
      decode: (status) => status === "SUSCRIBED" ? "SUBSCRIBED" : status,
      encode: (status) => status
    })
  )
)

export const AddedFrom = Schema.Literals(["WEB_FORM", "API", "FILE_UPLOAD", "SMS", "SUBSCRIPTION_REQUEST"])
export type AddedFrom = typeof AddedFrom.Type

/** The contact of the interface, field for field. */
export const Contact = Schema.toStandardSchemaV1(Schema.Struct({
  msisdn: Wire.Text,
  phone_number: Wire.Text,
  first_name: Schema.String,
  last_name: Schema.String,
  full_name: Schema.String,
  country_code: Wire.Text,
  added_from: AddedFrom,
  status: StatusFromWire,
  tags: Schema.Array(Schema.String),
  profile_uid: Schema.String,
  monitoring: Wire.Flag
}))
export type Contact = typeof Contact.Type

/** The reduced contact of `GET /contacts?shortResults=1`. */
export const ShortContact = Schema.toStandardSchemaV1(Schema.Struct({
  msisdn: Wire.Text,
  first_name: Schema.String,
  last_name: Schema.String,
  status: StatusFromWire
}))
export type ShortContact = typeof ShortContact.Type

export const toShort = ({ first_name, last_name, msisdn, status }: Contact): ShortContact => ({
  msisdn,
  first_name,
  last_name,
  status
})

/** First and last name joined by one space, skipping blanks: never leading or trailing spaces. */
export const fullName = (firstName: string, lastName: string): string => {
  const first = firstName.trim()
  const last = lastName.trim()
  return first === "" ? last : last === "" ? first : `${first} ${last}`
}

/**
 * The longest tag, in UTF-16 units once trimmed: a group's name, not a document. Bounded so every store can index it
 * (PostgreSQL's B-tree keeps at most 2,704 bytes a key: 255 units are at most 765 bytes of UTF-8).
 */
export const maxTagLength = 255

/** Whether `tag` is longer than a tag may be ({@link maxTagLength}, trimmed as tags are stored). */
export const isTooLong = (tag: string): boolean => tag.length > maxTagLength && tag.trim().length > maxTagLength

/**
 * The most tags one write gives a contact or a group send: groups, not a document. With {@link maxTagLength} and
 * {@link maxNameLength} it bounds a contact to ~14 KB of text, so a page of 1000 stays small enough to answer
 * (unbounded, 120 contacts of 1 MB names or 250 sends of 4000 tags ran a server out of its heap on one list request).
 */
export const maxTags = 50

/** The longest first or last name, in UTF-16 units once trimmed. */
export const maxNameLength = 255

/**
 * What separates tags in a file's cell and a flag (`,` `;` `|`), and control characters (C0, DEL and C1: a tab, a line
 * break, U+0085), which an import replaces by spaces: a tag or name holding one would not come back the same from `contacts export` and `import`.
 */
const unmovable = /[,;|\u0000-\u001f\u007f-\u009f]/

/** The control characters of {@link unmovable}, which a name may not hold either. */
const control = /[\u0000-\u001f\u007f-\u009f]/

/**
 * Refuses a tag longer than {@link maxTagLength} among `tags`, or one holding a separator of tags or a control character,
 * naming it (`tags.N`), unless `kept` already holds it (in any case): a book from before the limit keeps its tags, and
 * an edit that leaves them is no new tag. Refuses more than {@link maxTags} distinct tags, unless `kept` holds as many
 * already.
 */
export const checkTags = (tags: ReadonlyArray<string>, kept: ReadonlyArray<string> = []): Result.Result<void, InvalidField> => {
  const keys = new Set(kept.map((tag) => tag.trim().toLowerCase()))
  const at = tags.findIndex((tag) => (isTooLong(tag) || unmovable.test(tag.trim())) && !keys.has(tag.trim().toLowerCase()))
  const tag = tags[at]
  if (tag !== undefined) {
    const reason = isTooLong(tag)
      ? `is ${tag.trim().length} UTF-16 units long (an emoji counts 2): a tag holds at most ${maxTagLength}`
      : "holds a separator of tags (, ; |) or a control character: a file or a flag would read it as other tags"
    return Result.fail(new InvalidField({ field: `tags.${at}`, value: tag, reason }))
  }
  const count = tags.length > maxTags ? normalizeTags(tags).length : 0
  return count > Math.max(maxTags, keys.size)
    ? Result.fail(new InvalidField({ field: "tags", value: `${count} tags`, reason: `are too many: at most ${maxTags}` }))
    : Result.void
}

/**
 * Refuses a first or last name longer than {@link maxNameLength} once trimmed, or holding a control character (an
 * import replaces them by spaces, so the name would not come back the same from an export), naming it, unless it is
 * the one `kept` already holds (a book from before the limit: an edit may send its name back as it is).
 */
export const checkNames = (
  names: { readonly first_name?: string | undefined; readonly last_name?: string | undefined },
  kept?: { readonly first_name: string; readonly last_name: string }
): Result.Result<void, InvalidField> => {
  for (const field of ["first_name", "last_name"] as const) {
    const name = names[field]
    if (name === undefined || name === kept?.[field]) continue
    if (control.test(name)) {
      return Result.fail(new InvalidField({ field, value: name, reason: "holds a control character (a tab, a line break): write the name on one line" }))
    }
    if (name.length <= maxNameLength) continue
    const length = name.trim().length
    if (length > maxNameLength) {
      return Result.fail(new InvalidField({ field, value: name, reason: `is ${length} UTF-16 units long (an emoji counts 2): a name holds at most ${maxNameLength}` }))
    }
  }
  return Result.void
}

/** Body of `POST /contacts/:msisdn`. The contact's other fields are refused ({@link decodeCreateBody}). */
export const CreateBody = Schema.toStandardSchemaV1(Schema.Struct({
  msisdn: Schema.optionalKey(Wire.PhoneText),
  // The interface's own spelling of the key (DESIGN.md: `misdn` is read as `msisdn`).
  misdn: Schema.optionalKey(Wire.PhoneText),
  country_code: Schema.optionalKey(Wire.Text),
  first_name: Schema.optionalKey(Schema.String),
  last_name: Schema.optionalKey(Schema.String)
}))
export type CreateBody = typeof CreateBody.Type

/** The fields `PUT /contacts/:msisdn` may change; `full_name` follows the names. */
export const editableFields = ["first_name", "last_name", "tags", "monitoring"] as const

export const EditBody = Schema.toStandardSchemaV1(Schema.Struct({
  first_name: Schema.optionalKey(Schema.String),
  last_name: Schema.optionalKey(Schema.String),
  tags: Schema.optionalKey(Schema.Array(Schema.String)),
  monitoring: Schema.optionalKey(Wire.Flag)
}))
export type EditBody = typeof EditBody.Type

const editable: ReadonlySet<string> = new Set(editableFields)
const platformFields = Object.keys(Contact.fields).filter((field) => !editable.has(field))

const decodeCreate = Wire.decoder(CreateBody)
const decodeEdit = Wire.decoder(EditBody)

/** The fields of a create body (interface 4.6); every other field of a contact is the platform's to set. */
const creatable: ReadonlySet<string> = new Set(["msisdn", "misdn", "country_code", "first_name", "last_name"])

/** Why a contact field outside a create body is refused there. */
const notCreatable = (field: string): string =>
  field === "tags" || field === "monitoring"
    ? "is not set by a create (a new contact has no tags and monitoring false): set it with an edit (PUT /contacts/:msisdn) once created"
    : "is managed by the platform and must be omitted"

/**
 * Decodes a create body; a contact field it does not take (`status`, `tags`, `monitoring`, `added_from`…) is refused
 * by name rather than silently dropped (a create with tags answered 201 and the contact never joined the group).
 */
export const decodeCreateBody = (input: unknown): Result.Result<CreateBody, InvalidField> => {
  for (const field of Object.keys(Contact.fields)) {
    if (creatable.has(field)) continue
    const value = Wire.field(input, field)
    if (value !== undefined) return Result.fail(new InvalidField({ field, value, reason: notCreatable(field) }))
  }
  return decodeCreate(input)
}

/** Decodes an edit body; a key or platform field (the key's `misdn` spelling too) is refused by name rather than ignored. */
export const decodeEditBody = (input: unknown): Result.Result<EditBody, InvalidField> => {
  for (const field of [...platformFields, "misdn"]) {
    const value = Wire.field(input, field)
    if (value !== undefined) {
      return Result.fail(new InvalidField({ field, value, reason: `is not editable (editable: ${editableFields.join(", ")})` }))
    }
  }
  return decodeEdit(input)
}

/**
 * Applies an edit: only editable fields change, names are trimmed (as a create and an import store them: `" Anne "` is
 * `Anne` however it came in), `full_name` is recomputed, tags are normalised.
 */
export const applyEdit = (contact: Contact, edit: EditBody): Contact => {
  const first_name = edit.first_name?.trim() ?? contact.first_name
  const last_name = edit.last_name?.trim() ?? contact.last_name
  return {
    ...contact,
    first_name,
    last_name,
    full_name: fullName(first_name, last_name),
    tags: edit.tags === undefined ? contact.tags : normalizeTags(edit.tags),
    monitoring: edit.monitoring ?? contact.monitoring
  }
}

/**
 * Tags as stored: trimmed, blanks dropped, each tag once (first spelling kept; tags compare
 * case-insensitively, as group sends match them).
 */
export const normalizeTags = (tags: Iterable<string>): ReadonlyArray<string> => {
  const seen = new Set<string>()
  const out: Array<string> = []
  for (const raw of tags) {
    // A lone surrogate (text cut in the middle of a pair) is U+FFFD, as every store would keep it.
    const tag = raw.toWellFormed().trim()
    const key = tag.toLowerCase()
    if (tag !== "" && !seen.has(key)) {
      seen.add(key)
      out.push(tag)
    }
  }
  return out
}

/** Whether the two contacts are equal in every field of the interface. */
export const equals = (a: Contact, b: Contact): boolean =>
  a.msisdn === b.msisdn && a.phone_number === b.phone_number && a.first_name === b.first_name &&
  a.last_name === b.last_name && a.full_name === b.full_name && a.country_code === b.country_code &&
  a.added_from === b.added_from && a.status === b.status && a.profile_uid === b.profile_uid &&
  a.monitoring === b.monitoring && a.tags.length === b.tags.length && a.tags.every((tag, i) => tag === b.tags[i])

/**
 * How a status may move: INVITED → CONFIRMED → SUBSCRIBED; any → CANCELLED (opt-out);
 * CANCELLED → SUBSCRIBED only by an explicit resubscribe (never by an import or an edit).
 */
export type Move = "confirm" | "subscribe" | "opt-out" | "resubscribe"

const moves: { readonly [M in Move]: { readonly from: ReadonlyArray<Status>; readonly to: Status } } = {
  "confirm": { from: ["INVITED"], to: "CONFIRMED" },
  "subscribe": { from: ["CONFIRMED"], to: "SUBSCRIBED" },
  "opt-out": { from: ["SUBSCRIBED", "INVITED", "CONFIRMED", "CANCELLED"], to: "CANCELLED" },
  "resubscribe": { from: ["CANCELLED", "SUBSCRIBED"], to: "SUBSCRIBED" }
}

/** The status after `move`, or `IllegalTransition`. Opting out twice, or resubscribing a subscriber, is a no-op. */
export const transition = (from: Status, move: Move): Result.Result<Status, IllegalTransition> => {
  const rule = moves[move]
  return rule.from.includes(from)
    ? Result.succeed(rule.to)
    : Result.fail(new IllegalTransition({ entity: "contact", from, to: rule.to }))
}

/** Whether a contact of this status receives group messages. */
export const receivesGroupMessages = (status: Status): boolean => status === "SUBSCRIBED" || status === "CONFIRMED"
