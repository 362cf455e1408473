/**
 * Every failure smsbook can report, as a tagged error with a stable code.
 * `Errors.info(error)` gives its text code, its number and the HTTP status a server would answer.
 */
import * as Data from "effect/Data"

// Data, not Schema, and marked pure: a rule that can fail stays light in a bundle (docs/decisions.md, "Packaging").

/** Why a text is not an MSISDN; stable, used as reject reasons by imports. */
export const msisdnProblems = [
  "empty",
  "not-a-number",
  "letter-in-number",
  "scientific-notation",
  "lost-leading-zero",
  "too-short",
  "too-long",
  "unknown-country",
  "bad-country",
  "invalid"
] as const
export type MsisdnProblem = (typeof msisdnProblems)[number]

export class InvalidField extends /* @__PURE__ */ Data.TaggedError("InvalidField")<{
  readonly field: string
  readonly value: string
  readonly reason: string
}> {
  override get message(): string {
    return `${this.field}: ${this.reason} (got ${JSON.stringify(this.value)})`
  }
}

export class InvalidMsisdn extends /* @__PURE__ */ Data.TaggedError("InvalidMsisdn")<{
  readonly value: string
  readonly problem: MsisdnProblem
  /** The query parameter the number was given as, where there is one (`misdn`). */
  readonly parameter?: string
}> {
  override get message(): string {
    return `${this.parameter ?? "msisdn"} ${JSON.stringify(this.value)} is not a valid phone number (${this.problem})`
  }
}

export class MessageTooLong extends /* @__PURE__ */ Data.TaggedError("MessageTooLong")<{
  readonly length: number
  readonly max: number
}> {
  override get message(): string {
    return `message is ${this.length} characters, at most ${this.max} fit after the short-name prefix`
  }
}

export class ExternalIdTooLong extends /* @__PURE__ */ Data.TaggedError("ExternalIdTooLong")<{
  readonly value: string
  readonly length: number
  readonly max: number
}> {
  override get message(): string {
    return `id ${JSON.stringify(this.value)} is ${this.length} characters, at most ${this.max} are allowed`
  }
}

export class InvalidHttpDate extends /* @__PURE__ */ Data.TaggedError("InvalidHttpDate")<{
  readonly value: string
  readonly reason: string
  /** The query parameter the date was given as, where there is one (`start_date`). */
  readonly parameter?: string
}> {
  override get message(): string {
    const named = this.parameter === undefined ? "" : `${this.parameter}: `
    return `${named}${JSON.stringify(this.value)} is not an HTTP-date: ${this.reason}`
  }
}

export class InvalidCreatedOn extends /* @__PURE__ */ Data.TaggedError("InvalidCreatedOn")<{
  readonly value: string
  readonly reason: string
}> {
  override get message(): string {
    return `${JSON.stringify(this.value)} is not a created_on time (YYYY-MM-DD HH:MM:SS): ${this.reason}`
  }
}

export class InvalidParameter extends /* @__PURE__ */ Data.TaggedError("InvalidParameter")<{
  readonly parameter: string
  readonly value: string
  readonly reason: string
  /** The line of the file named by `parameter` the problem is on, where there is one (a CSV that cannot be read). */
  readonly line?: number
}> {
  override get message(): string {
    return `parameter ${this.parameter}: ${this.reason} (got ${JSON.stringify(this.value)})`
  }
}

export class MissingTags extends /* @__PURE__ */ Data.TaggedError("MissingTags") {
  override get message(): string {
    return "a group send needs at least one tag; smsbook never sends to everybody by default"
  }
}

export class IllegalTransition extends /* @__PURE__ */ Data.TaggedError("IllegalTransition")<{
  readonly entity: "message" | "contact"
  readonly from: string
  readonly to: string
}> {
  override get message(): string {
    return `a ${this.entity} cannot move from ${this.from} to ${this.to}`
  }
}

export class DuplicateSend extends /* @__PURE__ */ Data.TaggedError("DuplicateSend")<{
  readonly id: string
  readonly message_id: string
  /** When the earlier message was created, ISO 8601 UTC. */
  readonly created_at: string
}> {
  override get message(): string {
    return `id ${JSON.stringify(this.id)} was already used by message ${this.message_id} at ${this.created_at}, within the anti-spam period`
  }
}

export class ContactExists extends /* @__PURE__ */ Data.TaggedError("ContactExists")<{
  readonly msisdn: string
}> {
  override get message(): string {
    return `a contact with msisdn ${this.msisdn} already exists`
  }
}

export class ContactNotFound extends /* @__PURE__ */ Data.TaggedError("ContactNotFound")<{
  readonly msisdn: string
}> {
  override get message(): string {
    return `no contact with msisdn ${this.msisdn}`
  }
}

export class MessageNotFound extends /* @__PURE__ */ Data.TaggedError("MessageNotFound")<{
  readonly message_id: string
}> {
  override get message(): string {
    return `no message with message_id ${this.message_id}`
  }
}

export class RecipientOptedOut extends /* @__PURE__ */ Data.TaggedError("RecipientOptedOut")<{
  readonly msisdn: string
}> {
  override get message(): string {
    return `${this.msisdn} has opted out (CANCELLED); it receives nothing until it resubscribes`
  }
}

export class NoRecipients extends /* @__PURE__ */ Data.TaggedError("NoRecipients")<{
  readonly tags: ReadonlyArray<string>
}> {
  override get message(): string {
    return `no subscribed contact carries any of the tags ${this.tags.join(", ")}`
  }
}

export class InvalidStoreUrl extends /* @__PURE__ */ Data.TaggedError("InvalidStoreUrl")<{
  readonly url: string
  readonly reason: string
}> {
  override get message(): string {
    return `store ${this.url}: ${this.reason}`
  }
}

/**
 * What a store's failure comes from, where its adapter can tell by the driver's own codes (never by its words): each
 * asks something else of whoever runs smsbook (the command line's hint says what).
 * - `connection`: the database server cannot be reached, or it closed the connection;
 * - `disk-full`: the disk (or the server's) has no room for the write;
 * - `read-only`: the book cannot be written (file permissions, a read-only replica);
 * - `disk-io`: the disk failed a read or a write;
 * - `damaged`: the book's file or the server's data is corrupt (a file that is no database at all is not named:
 *   it is most often the wrong path);
 * - `access-denied`: the server refused the credentials or the role's privileges;
 * - `no-database`: the server has no database of the name the store's URL gives.
 */
export const storeProblems = ["connection", "disk-full", "read-only", "disk-io", "damaged", "access-denied", "no-database"] as const
export type StoreProblem = (typeof storeProblems)[number]

export class StoreUnavailable extends /* @__PURE__ */ Data.TaggedError("StoreUnavailable")<{
  readonly url: string
  readonly reason: string
  readonly problem?: StoreProblem
}> {
  override get message(): string {
    return `cannot open store ${this.url}: ${this.reason}`
  }
}

export class StoreFailure extends /* @__PURE__ */ Data.TaggedError("StoreFailure")<{
  readonly operation: string
  readonly reason: string
  readonly problem?: StoreProblem
}> {
  override get message(): string {
    return `store failed during ${this.operation}: ${this.reason}`
  }
}

/**
 * The link to the carrier (an SMPP bind, smsbox's sendsms) failed: it could not be made (nothing listens, no bind, no
 * answer) or it broke under a hand-over. Not a refusal of a message: the carrier refusing a part is a part state.
 */
export class CarrierFailure extends /* @__PURE__ */ Data.TaggedError("CarrierFailure")<{
  readonly reason: string
}> {
  override get message(): string {
    return `the link to the carrier failed: ${this.reason}`
  }
}

export type SmsbookError =
  | InvalidField
  | InvalidMsisdn
  | MessageTooLong
  | ExternalIdTooLong
  | InvalidHttpDate
  | InvalidCreatedOn
  | InvalidParameter
  | MissingTags
  | IllegalTransition
  | DuplicateSend
  | ContactExists
  | ContactNotFound
  | RecipientOptedOut
  | NoRecipients
  | InvalidStoreUrl
  | StoreUnavailable
  | StoreFailure
  | CarrierFailure
  | MessageNotFound

/**
 * The stable identity of an error: never renumber, only append. The command line's own errors (batch's
 * `CliErrors`) draw on the same series, so read its catalog before taking a number (`Output.catalog` joins the two
 * and a test holds every number unique).
 */
export interface Info {
  readonly code: string
  readonly number: number
  readonly status: number
}

export const catalog: { readonly [Tag in SmsbookError["_tag"]]: Info } = {
  InvalidField: { code: "INVALID_FIELD", number: 1000, status: 400 },
  InvalidMsisdn: { code: "INVALID_MSISDN", number: 1001, status: 400 },
  MessageTooLong: { code: "MESSAGE_TOO_LONG", number: 1002, status: 400 },
  ExternalIdTooLong: { code: "EXTERNAL_ID_TOO_LONG", number: 1003, status: 400 },
  InvalidHttpDate: { code: "INVALID_HTTP_DATE", number: 1004, status: 400 },
  InvalidCreatedOn: { code: "INVALID_CREATED_ON", number: 1005, status: 400 },
  InvalidParameter: { code: "INVALID_PARAMETER", number: 1006, status: 400 },
  MissingTags: { code: "MISSING_TAGS", number: 1007, status: 400 },
  IllegalTransition: { code: "ILLEGAL_TRANSITION", number: 1008, status: 409 },
  DuplicateSend: { code: "DUPLICATE_SEND", number: 1009, status: 409 },
  ContactExists: { code: "CONTACT_EXISTS", number: 1010, status: 409 },
  ContactNotFound: { code: "CONTACT_NOT_FOUND", number: 1011, status: 404 },
  RecipientOptedOut: { code: "RECIPIENT_OPTED_OUT", number: 1012, status: 403 },
  NoRecipients: { code: "NO_RECIPIENTS", number: 1013, status: 422 },
  InvalidStoreUrl: { code: "INVALID_STORE_URL", number: 1015, status: 400 },
  MessageNotFound: { code: "MESSAGE_NOT_FOUND", number: 1017, status: 404 },
  StoreUnavailable: { code: "STORE_UNAVAILABLE", number: 2001, status: 503 },
  StoreFailure: { code: "STORE_FAILURE", number: 2002, status: 500 },
  CarrierFailure: { code: "CARRIER_FAILURE", number: 2003, status: 502 }
}

/** The code, number and HTTP status of an error. */
export const info = (error: SmsbookError): Info => catalog[error._tag]
