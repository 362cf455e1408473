/**
 * The query parameters of `GET /messages` and `GET /contacts`, decoded from a record of strings:
 * names match case-insensitively, defaults apply, bounds are refused rather than clamped.
 */
import { DateTime, Result } from "effect"
import type * as Contact from "./Contact.ts"
import { InvalidHttpDate, InvalidMsisdn, InvalidParameter } from "./Errors.ts"
import * as HttpDate from "./HttpDate.ts"
import * as Message from "./Message.ts"
import type * as MessageStore from "./MessageStore.ts"
import * as Msisdn from "./Msisdn.ts"

export type Params = Readonly<Record<string, string | undefined>>

export const maxLimit = 1000
export const defaultMessagesLimit = 200
export const defaultContactsLimit = 50

export interface ContactsQuery {
  readonly query?: string
  readonly status?: Contact.Status
  readonly limit: number
  readonly start: number
  /** `shortResults`: the reduced `{ msisdn, first_name, last_name, status }` form. */
  readonly short: boolean
}

/** The two query strings `Query` reads: `GET /contacts` and `GET /messages`. */
export type Endpoint = "contacts" | "messages"

/** Whether two values read as the same value of `read` (each read alone; an unreadable value agrees with none). */
const sameReading = (read: (value: string) => Result.Result<unknown, unknown>) => (a: string, b: string): boolean => {
  const [x, y] = [read(a), read(b)]
  return Result.isSuccess(x) && Result.isSuccess(y) && x.success === y.success
}

/** Texts compared as the stores match them: trimmed, in any case (`Query`, `group_short_name`). */
const sameText = sameReading((value) => Result.succeed(value.trim().toLowerCase()))

const count = sameReading((value) => wholeNumber("Limit", value, 0, 0, Number.MAX_SAFE_INTEGER))

/** How each endpoint's parameters (lower-cased names) compare two values given for one of them. */
const comparisons: { readonly [E in Endpoint]: ReadonlyMap<string, (a: string, b: string) => boolean> } = {
  contacts: new Map([
    ["limit", count],
    ["start", count],
    ["query", sameText],
    ["status", sameReading((value) => contactStatus(value))],
    ["shortresults", sameReading((value) => flag("shortResults", value))]
  ]),
  messages: new Map([
    ["limit", count],
    ["start", count],
    ["start_date", sameReading((value) => date("start_date", value))],
    ["end_date", sameReading((value) => date("end_date", value))],
    ["misdn", Message.sameNumber],
    ["msisdn", Message.sameNumber],
    ["group_short_name", sameText],
    ["direction", sameReading((value) => directionOf(value))]
  ])
}

/** Whether `value` reads as no value: a blank parameter is one not given. */
export const isBlank = (value: string): boolean => value.trim() === ""

/**
 * Whether two values given for one parameter of `endpoint` (repeated, or under two spellings of its name) agree: equal
 * as text, or read as the same value: `5` and `05` for `Limit`, `CANCELLED` and `cancelled`, `SUSCRIBED` and
 * `SUBSCRIBED`, `1` and `true`, one instant in two HTTP-date forms, one number however written (`misdn`), one tag in
 * any case. A parameter the endpoint does not know is ignored, so any two of its values agree. Blank values are no
 * values: drop them before asking.
 */
export const agree = (endpoint: Endpoint, name: string, a: string, b: string): boolean => {
  if (a === b) return true
  const compare = comparisons[endpoint].get(name.toLowerCase())
  return compare === undefined || compare(a, b)
}

/**
 * Lower-cased names, blank values left out; two spellings of one name with values that do not {@link agree} are
 * refused as ambiguous.
 */
const byLowerName = (endpoint: Endpoint, params: Params): Result.Result<ReadonlyMap<string, string>, InvalidParameter> => {
  const out = new Map<string, string>()
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || isBlank(value)) continue
    if (value.includes("\u0000")) {
      return Result.fail(new InvalidParameter({ parameter: name, value: value.replaceAll("\u0000", "\\u0000"), reason: "holds U+0000 (NUL), which no parameter may" }))
    }
    const key = name.toLowerCase()
    const seen = out.get(key)
    if (seen !== undefined) {
      if (agree(endpoint, key, seen, value)) continue
      return Result.fail(new InvalidParameter({ parameter: name, value, reason: `given twice with different values (${seen})` }))
    }
    out.set(key, value)
  }
  return Result.succeed(out)
}

const wholeNumber = (
  parameter: string,
  value: string | undefined,
  fallback: number,
  min: number,
  max: number
): Result.Result<number, InvalidParameter> => {
  if (value === undefined || value.trim() === "") return Result.succeed(fallback)
  const text = value.trim()
  // Sixteen digits reach past the largest safe integer, which `max` may be: what is past it is refused below.
  const number = /^\d{1,16}$/.test(text) ? Number(text) : Number.NaN
  return Number.isInteger(number) && number >= min && number <= max
    ? Result.succeed(number)
    : Result.fail(new InvalidParameter({ parameter, value, reason: `must be a whole number from ${min} to ${max}` }))
}

const flag = (parameter: string, value: string | undefined): Result.Result<boolean, InvalidParameter> => {
  const text = value?.trim().toLowerCase()
  if (text === undefined || text === "" || text === "0" || text === "false") return Result.succeed(false)
  if (text === "1" || text === "true") return Result.succeed(true)
  return Result.fail(new InvalidParameter({ parameter, value: value ?? "", reason: "must be true, false, 1 or 0" }))
}

const contactStatuses: ReadonlyMap<string, Contact.Status> = new Map([
  ["subscribed", "SUBSCRIBED"],
  ["suscribed", "SUBSCRIBED"],
  ["invited", "INVITED"],
  ["confirmed", "CONFIRMED"],
  ["cancelled", "CANCELLED"]
])

const text = (value: string | undefined): string | undefined => {
  const trimmed = value?.trim()
  return trimmed === undefined || trimmed === "" ? undefined : trimmed
}

/** A `Status` filter as sent: any case, `SUSCRIBED` for SUBSCRIBED; blank is no filter. */
export const contactStatus = (value: string | undefined): Result.Result<Contact.Status | undefined, InvalidParameter> => {
  const statusText = text(value)
  const status = statusText === undefined ? undefined : contactStatuses.get(statusText.toLowerCase())
  return statusText !== undefined && status === undefined
    ? Result.fail(new InvalidParameter({ parameter: "Status", value: statusText, reason: "must be SUBSCRIBED, INVITED, CONFIRMED or CANCELLED" }))
    : Result.succeed(status)
}

/** `GET /contacts`: Limit (default 50, ≤ 1000), Start (≥ 0, default 0), Query, Status, shortResults. */
export const contacts = (params: Params): Result.Result<ContactsQuery, InvalidParameter> =>
  Result.gen(function*() {
    const named = yield* byLowerName("contacts", params)
    const limit = yield* wholeNumber("Limit", named.get("limit"), defaultContactsLimit, 1, maxLimit)
    const start = yield* wholeNumber("Start", named.get("start"), 0, 0, Number.MAX_SAFE_INTEGER)
    const short = yield* flag("shortResults", named.get("shortresults"))
    const status = yield* contactStatus(named.get("status"))
    const query = text(named.get("query"))
    return {
      limit,
      start,
      short,
      ...(query === undefined ? {} : { query }),
      ...(status === undefined ? {} : { status })
    }
  })

const date = (parameter: string, value: string | undefined): Result.Result<number | undefined, InvalidHttpDate> => {
  const given = text(value)
  if (given === undefined) return Result.succeed(undefined)
  return Result.mapBoth(HttpDate.parse(given), {
    onSuccess: DateTime.toEpochMillis,
    onFailure: (error) => new InvalidHttpDate({ parameter, value: given, reason: error.reason })
  })
}

const directions: ReadonlyMap<string, Message.Direction | "ALL"> = new Map([
  ["all", "ALL"],
  ["mt", "MT"],
  ["mo", "MO"]
])

/** A `direction` as sent: ALL (the default, also when blank), MT or MO, in any case. */
const directionOf = (value: string | undefined): Result.Result<Message.Direction | "ALL", InvalidParameter> => {
  const given = text(value) ?? "ALL"
  const direction = directions.get(given.toLowerCase())
  return direction === undefined
    ? Result.fail(new InvalidParameter({ parameter: "direction", value: given, reason: "must be ALL, MT or MO" }))
    : Result.succeed(direction)
}

/**
 * `GET /messages`: start_date/end_date (HTTP-dates, each optional: an absent bound is open), Limit
 * (default 200, ≤ 1000), start, misdn (or msisdn), group_short_name, direction (ALL, MT, MO). A date that is no
 * HTTP-date is `InvalidHttpDate`, a number that is no MSISDN `InvalidMsisdn`, each naming its parameter.
 */
export const messages = (params: Params): Result.Result<MessageStore.Page, InvalidParameter | InvalidHttpDate | InvalidMsisdn> =>
  Result.gen(function*() {
    const named = yield* byLowerName("messages", params)
    const limit = yield* wholeNumber("Limit", named.get("limit"), defaultMessagesLimit, 1, maxLimit)
    const start = yield* wholeNumber("start", named.get("start"), 0, 0, Number.MAX_SAFE_INTEGER)
    const from = yield* date("start_date", named.get("start_date"))
    // An HTTP-date names a whole second, as `created_on` shows it: end_date includes all of it.
    const endSecond = yield* date("end_date", named.get("end_date"))
    const to = endSecond === undefined ? undefined : endSecond + 999
    if (from !== undefined && to !== undefined && from > to) {
      return yield* Result.fail(
        new InvalidParameter({ parameter: "start_date", value: named.get("start_date") ?? "", reason: "is after end_date" })
      )
    }
    const direction = yield* directionOf(named.get("direction"))
    const misdn = text(named.get("misdn"))
    const msisdnParameter = text(named.get("msisdn"))
    if (misdn !== undefined && msisdnParameter !== undefined && !Message.sameNumber(misdn, msisdnParameter)) {
      return yield* Result.fail(new InvalidParameter({ parameter: "misdn", value: misdn, reason: `contradicts msisdn ${msisdnParameter}` }))
    }
    const msisdnText = misdn ?? msisdnParameter
    // The number's own refusal, as in a body: naming the parameter it came in.
    const msisdn = msisdnText === undefined ? undefined : yield* Result.mapError(
      Msisdn.parse(msisdnText),
      (error) => new InvalidMsisdn({ value: error.value, problem: error.problem, parameter: misdn === undefined ? "msisdn" : "misdn" })
    )
    const group = text(named.get("group_short_name"))
    return {
      limit,
      start,
      ...(from === undefined ? {} : { from }),
      ...(to === undefined ? {} : { to }),
      ...(direction === "ALL" ? {} : { direction }),
      ...(msisdn === undefined ? {} : { msisdn }),
      ...(group === undefined ? {} : { group })
    }
  })
