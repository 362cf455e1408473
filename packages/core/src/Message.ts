/**
 * An SMS message (interface section 2.1): wire shape, send bodies, status machine and the stored record.
 * Individual messages go READY → SENT; group messages PENDING → PROCESSING → READY → SENT.
 */
import { Result, Schema, SchemaTransformation } from "effect"
import { IllegalTransition, InvalidField } from "./Errors.ts"
import { isBlank } from "./internal/blank.ts"
import * as Msisdn from "./Msisdn.ts"
import * as Wire from "./Wire.ts"

export const statuses = ["PENDING", "PROCESSING", "READY", "SENT"] as const
export const Status = Schema.Literals(statuses)
export type Status = typeof Status.Type

export const Direction = Schema.Literals(["MT", "MO"])
export type Direction = typeof Direction.Type

/** 1 = individual, 2 = group. Read from a number or its text, written as a number. */
export const Type = Schema.Union([Schema.Literals([1, 2]), Schema.Literals(["1", "2"])]).pipe(
  Schema.decodeTo(
    Schema.Literals([1, 2]),
    SchemaTransformation.transform({
      decode: (type) => type === "1" || type === 1 ? 1 : 2,
      encode: (type) => type
    })
  )
)
export type Type = typeof Type.Type
export const INDIVIDUAL = 1
export const GROUP = 2

/** `sent_from`: documented as a list of recipients, sampled as a text (the channel). Both read, kept as given. */
export const SentFrom = Schema.Union([Schema.String, Schema.Array(Schema.String)])

/** `created_on`: `YYYY-MM-DD HH:MM:SS`. */
export const CreatedOnText = Schema.String.check(Schema.isPattern(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/))

/** A count on the wire (recipients, messages, errors, monitors): a whole number, never NaN or Infinity. */
export const Count = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))

/** The message of the interface, field for field; optional fields are absent, never null. */
export const Message = Schema.toStandardSchemaV1(Schema.Struct({
  message_id: Schema.optionalKey(Wire.Text),
  id: Schema.optionalKey(Wire.Text),
  short_code: Wire.Text,
  country: Schema.optionalKey(Wire.Text),
  msisdn: Schema.optionalKey(Wire.Text),
  direction: Direction,
  status: Status,
  message: Schema.String,
  total_recipients: Count,
  sent_from: Schema.optionalKey(SentFrom),
  sent_count: Count,
  error_count: Count,
  total_monitors: Count,
  is_scheduled: Wire.Flag,
  is_billable: Wire.Flag,
  created_on: CreatedOnText,
  created_by: Schema.optionalKey(Schema.String),
  type: Type
}))
export type Message = typeof Message.Type

/** Body of `POST /messages/send_to_contact`. The table's `misdn` and the sample's `msisdn` both read. */
export const SendToContactBody = Schema.toStandardSchemaV1(Schema.Struct({
  msisdn: Wire.PhoneText,
  message: Schema.String,
  id: Schema.optionalKey(Wire.Text)
}))
export type SendToContactBody = typeof SendToContactBody.Type

/**
 * The body of `POST /messages/send_to_contact` as `/openapi.json` declares it: the number under either spelling, the
 * sample's `msisdn` or the parameter table's `misdn`, each optional as `Contact.CreateBody` declares them (one is
 * required: {@link decodeSendToContactBody} names it). A request in the interface's own words passes the document.
 */
export const SendToContactRequest = Schema.toStandardSchemaV1(Schema.Struct({
  msisdn: Schema.optionalKey(Wire.PhoneText),
  misdn: Schema.optionalKey(Wire.PhoneText),
  message: Schema.String,
  id: Schema.optionalKey(Wire.Text)
}))

/** Body of `POST /messages/send`. */
export const SendToGroupsBody = Schema.toStandardSchemaV1(Schema.Struct({
  tags: Schema.optionalKey(Schema.Array(Schema.String)),
  message: Schema.String,
  id: Schema.optionalKey(Wire.Text)
}))
export type SendToGroupsBody = typeof SendToGroupsBody.Type

/**
 * The text of an outgoing message, as every entry point checks it: valid Unicode (no lone surrogate), no U+FFFD
 * (the mark of bytes that were not valid UTF-8 where it was decoded), not empty or only blanks — a send with an
 * unset variable for its text must never reach a handset — and no control character but tab, line ends and form feed.
 */
export const checkText = (text: string, field: string = "message"): Result.Result<string, InvalidField> => {
  if (!text.isWellFormed()) {
    return Result.fail(new InvalidField({ field, value: text.toWellFormed(), reason: "holds a lone surrogate: it is not valid Unicode" }))
  }
  if (text.includes("\uFFFD")) {
    return Result.fail(
      new InvalidField({ field, value: text, reason: "holds U+FFFD, the mark of bytes that were not valid UTF-8: fix the text or its encoding" })
    )
  }
  if (isBlank(text)) {
    return Result.fail(new InvalidField({ field, value: text, reason: "is empty or only blanks: nothing would be said" }))
  }
  // NUL and the other C0 controls but tab, line ends and form feed (GSM-7 has LF, CR and, in its extension table, FF):
  // no handset shows them, and NULs mean text read in the wrong encoding (UTF-16 read as UTF-8).
  const control = /[\u0000-\u0008\u000B\u000E-\u001F\u007F]/.exec(text)
  if (control !== null) {
    const code = `U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`
    return Result.fail(new InvalidField({ field, value: text, reason: `holds the control character ${code}, which no handset shows` }))
  }
  return Result.succeed(text)
}

const decodeToContact = Wire.decoder(SendToContactBody)

/**
 * Whether two spellings of a number name the same one: equal as written, or read as one MSISDN (`+447400123456`
 * and `447400123456`).
 */
export const sameNumber = (a: string, b: string): boolean => {
  if (a === b) return true
  const first = Msisdn.parse(a)
  const second = Msisdn.parse(b)
  return Result.isSuccess(first) && Result.isSuccess(second) && first.success === second.success
}

/** Decodes a send-to-contact body, reading `misdn` as `msisdn`; both present naming different numbers is refused. */
export const decodeSendToContactBody = (input: unknown): Result.Result<SendToContactBody, InvalidField> => {
  const misdn = Wire.field(input, "misdn")
  if (misdn === undefined) return decodeToContact(input)
  const msisdn = Wire.field(input, "msisdn")
  if (msisdn !== undefined && !sameNumber(msisdn, misdn)) {
    return Result.fail(new InvalidField({ field: "misdn", value: misdn, reason: `contradicts msisdn ${msisdn}` }))
  }
  return decodeToContact(Wire.renameKey(input, "misdn", "msisdn"))
}

export const decodeSendToGroupsBody = Wire.decoder(SendToGroupsBody)

const flows: { readonly [T in Type]: ReadonlyArray<Status> } = {
  1: ["READY", "SENT"],
  2: ["PENDING", "PROCESSING", "READY", "SENT"]
}

/** The first status of a message of this type: READY for individual, PENDING for group. */
export const initialStatus = (type: Type): Status => flows[type][0] ?? "READY"

/** The status after `from` for this type, only ever one step forward; anything else is `IllegalTransition`. */
export const transition = (type: Type, from: Status, to: Status): Result.Result<Status, IllegalTransition> => {
  const flow = flows[type]
  return flow.indexOf(to) === flow.indexOf(from) + 1 && flow.includes(from)
    ? Result.succeed(to)
    : Result.fail(new IllegalTransition({ entity: "message", from, to }))
}

/**
 * A message as stored: the wire fields plus what the platform needs to filter and render it —
 * the instant of creation (`created_on` is rendered in the account's zone) and the tags of a group send.
 */
export interface Stored {
  readonly message_id: string
  readonly id?: string
  readonly short_code: string
  readonly country?: string
  readonly msisdn?: string
  readonly direction: Direction
  readonly status: Status
  readonly message: string
  readonly total_recipients: number
  readonly sent_count: number
  readonly error_count: number
  readonly total_monitors: number
  readonly is_scheduled: boolean
  readonly is_billable: boolean
  readonly created_at: number
  readonly created_by?: string
  readonly type: Type
  readonly tags: ReadonlyArray<string>
  /** SMS parts per recipient, from the segmentation of the prefixed text. */
  readonly segments: number
}
