/**
 * The message filter flags `messages list` and `report` share (`--since/--until`, `--direction`,
 * `--msisdn`, `--group`), read into the store filter of `GET /messages`. None may be blank.
 */
import { Account, HttpDate, InvalidParameter, Query } from "@smsbook/core"
import { DateTime, Effect, Option, Result } from "effect"
import { Flag } from "effect/cli"
import * as GlobalFlags from "./GlobalFlags.ts"

const dateOnly = /^\s*\d{4}-\d{2}-\d{2}\s*$/
/** An ISO 8601 date-time that names no zone or offset: a wall-clock time of the account's zone. */
const isoWithoutZone = /^\s*\d{4}-\d{2}-\d{2}(?:[Tt ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d{1,9})?)?)?\s*$/

/** The forms `--since`/`--until` take, a date-time without an offset read in the account's `timeZone`. */
const expectedIn = (timeZone: string) =>
  `expected a date (2026-11-21), a date-time read in the account's time zone ${timeZone} (2026-11-21T10:15, ` +
  `2026-11-21 10:15:00), one with an offset (2026-11-21T10:15:00+01:00, 2026-11-21T10:15:00Z) or an HTTP-date ` +
  `(Sat, 21 Nov 2026 10:15:00 GMT)`

/**
 * `--since`/`--until` as the instant it names: a date, a date-time or an HTTP-date. Without an offset
 * it is read in `timeZone` (the account's); a date alone is a whole day — `--since` its first second,
 * `--until` its last. Refusals name the flag.
 */
export const readDate = (
  flag: "--since" | "--until",
  text: string,
  timeZone: string
): Result.Result<DateTime.Utc, InvalidParameter> => {
  const refuse = (reason: string) => Result.fail(new InvalidParameter({ parameter: flag, value: text, reason }))
  const parsed = HttpDate.parseFlexible(text)
  if (Result.isFailure(parsed)) {
    // The parser's own shape error reads a date-time without an offset as UTC, as `GET /messages` does.
    return refuse(parsed.failure.reason === HttpDate.expectedForms ? expectedIn(timeZone) : parsed.failure.reason)
  }
  if (!isoWithoutZone.test(text)) return Result.succeed(parsed.success)
  // The parser read the wall clock as UTC; the same wall clock in the account's zone. A whole day
  // ends a second before the next one starts (days are 23 or 25 hours long at a DST change).
  const wallClock = flag === "--until" && dateOnly.test(text) ? DateTime.add(parsed.success, { days: 1 }) : parsed.success
  const zoned = DateTime.makeZoned(DateTime.toEpochMillis(wallClock), { timeZone, adjustForTimeZone: true })
  if (Option.isNone(zoned)) return refuse(`cannot be read in the time zone ${timeZone}`)
  const instant = DateTime.toUtc(zoned.value)
  return Result.succeed(wallClock === parsed.success ? instant : DateTime.subtract(instant, { seconds: 1 }))
}

// `--from` and `--to` are DESIGN.md's names in `report`'s synopsis, where it also says `--since/--until` everywhere:
// both are read.
export const flags = {
  since: Flag.String("since").pipe(
    Flag.withAlias("from"),
    GlobalFlags.notBlank("leave --since out for messages of any age"),
    Flag.withDescription(
      "Messages created at or after: 2026-11-01, 2026-11-01T09:00 (account time zone unless an offset is given) or an HTTP-date"
    ),
    Flag.optional
  ),
  until: Flag.String("until").pipe(
    Flag.withAlias("to"),
    GlobalFlags.notBlank("leave --until out for messages up to now"),
    Flag.withDescription("Messages created at or before (a date alone: up to its last second)"),
    Flag.optional
  ),
  // Text, read as the interface's `direction` parameter is (any case).
  direction: Flag.String("direction").pipe(
    GlobalFlags.notBlank("leave --direction out for both directions"),
    Flag.withDescription("Direction: ALL, MT or MO (any case)"),
    Flag.withDefault("ALL")
  ),
  msisdn: GlobalFlags.filterText(
    "msisdn",
    "Only messages to or from this number (national with --default-country)",
    "leave --msisdn out for every number"
  ),
  defaultCountry: GlobalFlags.defaultCountry,
  group: GlobalFlags.filterText("group", "Only group messages sent to this tag", "leave --group out for every message")
}

export interface Input {
  readonly since: Option.Option<string>
  readonly until: Option.Option<string>
  readonly direction: string
  readonly msisdn: Option.Option<string>
  readonly defaultCountry: Option.Option<string>
  readonly group: Option.Option<string>
}

/** The interface's names of the filter parameters, as the flags that set them. */
export const flagNames = { start_date: "--since", end_date: "--until", misdn: "--msisdn", msisdn: "--msisdn", direction: "--direction" }

/**
 * A refusal of `--since` or `--until` quoting the text as typed (`2026-11-28`), not the HTTP-date it was read as
 * (`Sat, 28 Nov 2026 05:00:00 GMT`, an instant of the account's zone the user never wrote).
 */
export const quotingTyped = (input: Input) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | InvalidParameter, R> =>
  Effect.mapError(effect, (error) => {
    if (!(error instanceof InvalidParameter)) return error
    const typed = error.parameter === "--since" ? input.since : error.parameter === "--until" ? input.until : Option.none()
    return Option.isSome(typed) ? new InvalidParameter({ parameter: error.parameter, value: typed.value, reason: error.reason }) : error
  })

/** The query parameters of `GET /messages` the filter flags say, dates read in `timeZone`. */
export const parameters = Effect.fnUntraced(function*(input: Input, timeZone: string) {
  const date = (flag: "--since" | "--until", name: string, value: Option.Option<string>) =>
    Option.isNone(value)
      ? Effect.succeed({})
      : Effect.map(Effect.fromResult(readDate(flag, value.value, timeZone)), (instant) => ({ [name]: HttpDate.format(instant) }))
  return {
    ...(yield* date("--since", "start_date", input.since)),
    ...(yield* date("--until", "end_date", input.until)),
    direction: input.direction,
    ...(Option.isSome(input.msisdn) ? { misdn: yield* GlobalFlags.readNumber("--msisdn", input.msisdn.value, input.defaultCountry) } : {}),
    ...(Option.isSome(input.group) ? { group_short_name: input.group.value } : {})
  }
})

/** The store filter the flags say, checked exactly as `GET /messages` checks it; paging does not apply. */
export const filter = Effect.fnUntraced(function*(input: Input) {
  const account = yield* Account.Account
  const params = yield* parameters(input, account.time_zone)
  const { limit: _, start: __, ...filter } = yield* quotingTyped(input)(GlobalFlags.namingFlags(flagNames)(Effect.fromResult(Query.messages(params))))
  return filter
})
