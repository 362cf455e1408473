/**
 * Every failure smsbook can report, as a tagged error with a stable code.
 * `Errors.info(error)` gives its text code, its number and the HTTP status a server would answer.
 */
import { Schema } from "effect"

/** Why a text is not an MSISDN; stable, used as reject reasons by imports. */
export const MsisdnProblem = Schema.Literals([
  "empty",
  "not-a-number",
  "scientific-notation",
  "lost-leading-zero",
  "too-short",
  "too-long",
  "unknown-country",
  "invalid"
])
export type MsisdnProblem = typeof MsisdnProblem.Type

export class InvalidField extends Schema.TaggedError<InvalidField>()("InvalidField", {
  field: Schema.String,
  value: Schema.String,
  reason: Schema.String
}) {
  override get message(): string {
    return `${this.field}: ${this.reason} (got ${JSON.stringify(this.value)})`
  }
}

export class InvalidMsisdn extends Schema.TaggedError<InvalidMsisdn>()("InvalidMsisdn", {
  value: Schema.String,
  problem: MsisdnProblem
}) {
  override get message(): string {
    return `msisdn ${JSON.stringify(this.value)} is not a valid phone number (${this.problem})`
  }
}

export class MessageTooLong extends Schema.TaggedError<MessageTooLong>()("MessageTooLong", {
  length: Schema.Number,
  max: Schema.Number
}) {
  override get message(): string {
    return `message is ${this.length} characters, at most ${this.max} fit after the short-name prefix`
  }
}

export class ExternalIdTooLong extends Schema.TaggedError<ExternalIdTooLong>()("ExternalIdTooLong", {
  value: Schema.String,
  length: Schema.Number,
  max: Schema.Number
}) {
  override get message(): string {
    return `id ${JSON.stringify(this.value)} is ${this.length} characters, at most ${this.max} are allowed`
  }
}

export class InvalidHttpDate extends Schema.TaggedError<InvalidHttpDate>()("InvalidHttpDate", {
  value: Schema.String,
  reason: Schema.String
}) {
  override get message(): string {
    return `${JSON.stringify(this.value)} is not an HTTP-date: ${this.reason}`
  }
}

export class InvalidCreatedOn extends Schema.TaggedError<InvalidCreatedOn>()("InvalidCreatedOn", {
  value: Schema.String,
  reason: Schema.String
}) {
  override get message(): string {
    return `${JSON.stringify(this.value)} is not a created_on time (YYYY-MM-DD HH:MM:SS): ${this.reason}`
  }
}

export class InvalidParameter extends Schema.TaggedError<InvalidParameter>()("InvalidParameter", {
  parameter: Schema.String,
  value: Schema.String,
  reason: Schema.String
}) {
  override get message(): string {
    return `parameter ${this.parameter}: ${this.reason} (got ${JSON.stringify(this.value)})`
  }
}

export class MissingTags extends Schema.TaggedError<MissingTags>()("MissingTags", {}) {
  override get message(): string {
    return "a group send needs at least one tag; smsbook never sends to everybody by default"
  }
}

export class IllegalTransition extends Schema.TaggedError<IllegalTransition>()("IllegalTransition", {
  entity: Schema.Literals(["message", "contact"]),
  from: Schema.String,
  to: Schema.String
}) {
  override get message(): string {
    return `a ${this.entity} cannot move from ${this.from} to ${this.to}`
  }
}

export class DuplicateSend extends Schema.TaggedError<DuplicateSend>()("DuplicateSend", {
  id: Schema.String,
  message_id: Schema.String,
  /** When the earlier message was created, ISO 8601 UTC. */
  created_at: Schema.String
}) {
  override get message(): string {
    return `id ${JSON.stringify(this.id)} was already used by message ${this.message_id} at ${this.created_at}, within the anti-spam period`
  }
}

export class ContactExists extends Schema.TaggedError<ContactExists>()("ContactExists", {
  msisdn: Schema.String
}) {
  override get message(): string {
    return `a contact with msisdn ${this.msisdn} already exists`
  }
}

export class ContactNotFound extends Schema.TaggedError<ContactNotFound>()("ContactNotFound", {
  msisdn: Schema.String
}) {
  override get message(): string {
    return `no contact with msisdn ${this.msisdn}`
  }
}

export class MessageNotFound extends Schema.TaggedError<MessageNotFound>()("MessageNotFound", {
  message_id: Schema.String
}) {
  override get message(): string {
    return `no message with message_id ${this.message_id}`
  }
}

export class RecipientOptedOut extends Schema.TaggedError<RecipientOptedOut>()("RecipientOptedOut", {
  msisdn: Schema.String
}) {
  override get message(): string {
    return `${this.msisdn} has opted out (CANCELLED); it receives nothing until it resubscribes`
  }
}

export class NoRecipients extends Schema.TaggedError<NoRecipients>()("NoRecipients", {
  tags: Schema.Array(Schema.String)
}) {
  override get message(): string {
    return `no subscribed contact carries any of the tags ${this.tags.join(", ")}`
  }
}

export class InvalidStoreUrl extends Schema.TaggedError<InvalidStoreUrl>()("InvalidStoreUrl", {
  url: Schema.String,
  reason: Schema.String
}) {
  override get message(): string {
    return `store ${this.url}: ${this.reason}`
  }
}

export class StoreUnavailable extends Schema.TaggedError<StoreUnavailable>()("StoreUnavailable", {
  url: Schema.String,
  reason: Schema.String
}) {
  override get message(): string {
    return `cannot open store ${this.url}: ${this.reason}`
  }
}

export class StoreFailure extends Schema.TaggedError<StoreFailure>()("StoreFailure", {
  operation: Schema.String,
  reason: Schema.String
}) {
  override get message(): string {
    return `store failed during ${this.operation}: ${this.reason}`
  }
}

export class CarrierFailure extends Schema.TaggedError<CarrierFailure>()("CarrierFailure", {
  reason: Schema.String
}) {
  override get message(): string {
    return `the carrier refused the hand-over: ${this.reason}`
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
 * The stable identity of an error: never renumber, only append. The command line's own errors
 * (batch's `CliErrors`) hold 1014, 1016, 1018 and 2004: those numbers are taken.
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

/** Whether the caller's input (not the system, not the state of the book) is at fault: usage errors in the CLI. */
export const isInputError = (error: SmsbookError): boolean => {
  const { status } = info(error)
  return status === 400 || status === 422
}
