/**
 * HTTP-date (RFC 9110 §5.6.7): the `start_date`/`end_date` filters of GET /messages, written
 * `D, d M Y H:i:s T`. Parsed by hand against the grammar (never `Date.parse`), formatted as IMF-fixdate.
 */
import { DateTime, Effect, Result, Schema, SchemaIssue, SchemaTransformation } from "effect"
import { InvalidHttpDate } from "./Errors.ts"
import { civilFromDays, daysFromCivil, daysInMonth, pad2, year4 } from "./internal/calendar.ts"

const SECONDS_PER_DAY = 86_400
const WEEKDAYS = "SunMonTueWedThuFriSat"
const MONTHS = "JanFebMarAprMayJunJulAugSepOctNovDec"
const FULL_WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
const FULL_MONTHS = [
  "january", "february", "march", "april", "may", "june",
  "july", "august", "september", "october", "november", "december"
]

/** What a parser expects, quoted in every shape error. */
const EXPECTED =
  "expected e.g. \"Sat, 21 Nov 2026 10:15:00 GMT\" (IMF-fixdate), \"Saturday, 21-Nov-26 10:15:00 GMT\" (RFC 850) or \"Sat Nov 21 10:15:00 2026\" (asctime)"

/** What {@link parseFlexible} says of a text of no form it reads (a date-time without an offset: UTC). */
export const expectedForms =
  "expected an HTTP-date (e.g. \"Sat, 21 Nov 2026 10:15:00 GMT\") or ISO 8601 (e.g. \"2026-11-21\", \"2026-11-21T10:15:00Z\", \"2026-11-21 10:15:00\" read as UTC, \"2026-11-21T10:15:00+01:00\")"

/** Zone names of RFC 2822 §4.3 and RFC 9110, as minutes east of UTC. */
const NAMED_ZONES: ReadonlyMap<string, number> = new Map([
  ["GMT", 0], ["UTC", 0], ["UT", 0], ["Z", 0],
  ["EST", -300], ["EDT", -240], ["CST", -360], ["CDT", -300],
  ["MST", -420], ["MDT", -360], ["PST", -480], ["PDT", -420]
])

/** 0 = Sunday … 6 = Saturday; 1970-01-01 was a Thursday. */
const weekdayOfDays = (days: number): number => (((days + 4) % 7) + 7) % 7

const weekdayName = (weekday: number): string => WEEKDAYS.slice(weekday * 3, weekday * 3 + 3)
const monthName = (month: number): string => MONTHS.slice(month * 3 - 3, month * 3)

const weekdayIndex = (name: string): number => {
  const lower = name.toLowerCase()
  const full = FULL_WEEKDAYS.indexOf(lower)
  if (full >= 0) return full
  return lower.length === 3 ? FULL_WEEKDAYS.findIndex((day) => day.startsWith(lower)) : -1
}

const monthIndex = (name: string): number => {
  const lower = name.toLowerCase()
  const full = FULL_MONTHS.indexOf(lower)
  if (full >= 0) return full + 1
  return lower.length === 3 ? FULL_MONTHS.findIndex((month) => month.startsWith(lower)) + 1 : 0
}

const OFFSET = /^(?:GMT|UTC|UT)?([+-])(\d{2})(?::?(\d{2}))?$/i

/** Minutes east of UTC of a zone token, or why it is not one. */
const zoneOffset = (token: string): Result.Result<number, string> => {
  const named = NAMED_ZONES.get(token.toUpperCase())
  if (named !== undefined) return Result.succeed(named)
  const match = OFFSET.exec(token)
  if (match === null) {
    return Result.fail(
      `unknown zone ${token} (expected GMT, UTC, UT, Z, an offset like +0100 or -05:30, or one of EST EDT CST CDT MST MDT PST PDT)`
    )
  }
  const hours = Number(match[2])
  const minutes = Number(match[3] ?? "0")
  if (hours > 23 || minutes > 59) return Result.fail(`zone offset ${token} is out of range (at most ±23:59)`)
  return Result.succeed((match[1] === "-" ? -1 : 1) * (hours * 60 + minutes))
}

// ---------------------------------------------------------------------------------------------
// building an instant from fields, with the checks every form shares
// ---------------------------------------------------------------------------------------------

interface Fields {
  readonly year: number
  readonly month: number
  readonly day: number
  readonly hour: number
  readonly minute: number
  readonly second: number
  readonly millisecond: number
  /** Minutes east of UTC. */
  readonly offset: number
  /** 0 = Sunday; undefined when the form carries none. */
  readonly weekday: number | undefined
}

/** Why a time of day is impossible, or undefined. Leap seconds are refused (`DateTime` cannot hold them). */
const timeProblem = (hour: number, minute: number, second: number): string | undefined => {
  const time = `${pad2(hour)}:${pad2(minute)}:${pad2(second)}`
  if (hour > 23) return `no such time: ${time} (hours run 00–23)`
  if (minute > 59) return `no such time: ${time} (minutes run 00–59)`
  if (second === 60) return `leap second ${time} is not accepted (seconds run 00–59)`
  if (second > 59) return `no such time: ${time} (seconds run 00–59)`
  return undefined
}

const toInstant = (value: string, fields: Fields): Result.Result<DateTime.Utc, InvalidHttpDate> => {
  const { year, month, day, hour, minute, second } = fields
  if (day < 1 || day > daysInMonth(year, month)) {
    return Result.fail(new InvalidHttpDate({ value, reason: `no such day: ${day} ${monthName(month)} ${year4(year)}` }))
  }
  const problem = timeProblem(hour, minute, second)
  if (problem !== undefined) return Result.fail(new InvalidHttpDate({ value, reason: problem }))
  const days = daysFromCivil(year, month, day)
  const actual = weekdayOfDays(days)
  if (fields.weekday !== undefined && fields.weekday !== actual) {
    return Result.fail(
      new InvalidHttpDate({
        value,
        reason: `weekday ${weekdayName(fields.weekday)} does not match ${year4(year)}-${pad2(month)}-${pad2(day)} (${weekdayName(actual)})`
      })
    )
  }
  const seconds = days * SECONDS_PER_DAY + hour * 3600 + minute * 60 + second - fields.offset * 60
  return Result.succeed(DateTime.makeUnsafe(seconds * 1000 + fields.millisecond))
}

// ---------------------------------------------------------------------------------------------
// RFC 850 two-digit years
// ---------------------------------------------------------------------------------------------

/**
 * The instant against which RFC 850 two-digit years are resolved when the caller passes no `now`:
 * 2025-12-31T23:59:59Z, so `00`–`75` read as 2000–2075 and `76`–`99` as 1976–1999.
 */
export const rfc850Pivot: DateTime.Utc = DateTime.makeUnsafe(Date.UTC(2025, 11, 31, 23, 59, 59))

/**
 * RFC 9110 §5.6.7: a two-digit year that would put the timestamp more than 50 years after `now`
 * means the most recent past year with those digits. So: the latest year ending in `yy` whose
 * timestamp is at most `now` + 50 years.
 */
const resolveTwoDigitYear = (yy: number, fields: Omit<Fields, "year">, now: DateTime.Utc): number => {
  const nowSeconds = Math.floor(DateTime.toEpochMillis(now) / 1000)
  const nowDays = Math.floor(nowSeconds / SECONDS_PER_DAY)
  const nowCivil = civilFromDays(nowDays)
  const limit = daysFromCivil(nowCivil.year + 50, nowCivil.month, nowCivil.day) * SECONDS_PER_DAY +
    (nowSeconds - nowDays * SECONDS_PER_DAY)
  const latest = nowCivil.year + 50
  const candidate = latest - ((((latest - yy) % 100) + 100) % 100)
  const seconds = daysFromCivil(candidate, fields.month, fields.day) * SECONDS_PER_DAY +
    fields.hour * 3600 + fields.minute * 60 + fields.second - fields.offset * 60
  return seconds > limit ? candidate - 100 : candidate
}

// ---------------------------------------------------------------------------------------------
// parsing
// ---------------------------------------------------------------------------------------------

/**
 * IMF-fixdate, RFC 850 and RFC 2822 (`D, d M Y H:i:s T`): weekday, comma, date with spaces or with dashes on both
 * sides of the month. One kind of separator for both, so a sign before the year (`21 Nov -2026`) is no separator.
 */
const COMMA_FORM =
  /^([A-Za-z]+)\s*,\s*(\d{1,2})(?:\s*-\s*([A-Za-z]+)\s*-\s*|\s+([A-Za-z]+)\s+)(\d+)\s+(\d{2}):(\d{2}):(\d{2})(?:\s*(\S+))?$/

/** asctime: `Sun Nov  6 08:49:37 1994` (a zone after the year is tolerated). */
const ASCTIME_FORM = /^([A-Za-z]+)\s+([A-Za-z]+)\s+(\d{1,2})\s+(\d{2}):(\d{2}):(\d{2})\s+(\d+)(?:\s+(\S+))?$/

export interface ParseOptions {
  /** The instant two-digit RFC 850 years are resolved against (RFC 9110 §5.6.7); default {@link rfc850Pivot}. */
  readonly now?: DateTime.Utc | undefined
}

interface Raw {
  readonly weekday: string
  readonly day: string
  readonly month: string
  readonly year: string
  readonly hour: string
  readonly minute: string
  readonly second: string
  readonly zone: string | undefined
  /** The comma forms (IMF-fixdate, RFC 850) need a zone and may have a two-digit year; asctime neither. */
  readonly form: "comma" | "asctime"
}

const matchShape = (text: string): Raw | undefined => {
  const comma = COMMA_FORM.exec(text)
  if (comma !== null) {
    const [, weekday = "", day = "", dashed, spaced, year = "", hour = "", minute = "", second = "", zone] = comma
    return { weekday, day, month: dashed ?? spaced ?? "", year, hour, minute, second, zone, form: "comma" }
  }
  const asctime = ASCTIME_FORM.exec(text)
  if (asctime !== null) {
    const [, weekday = "", month = "", day = "", hour = "", minute = "", second = "", year = "", zone] = asctime
    return { weekday, day, month, year, hour, minute, second, zone, form: "asctime" }
  }
  return undefined
}

/**
 * Parses an HTTP-date in any of RFC 9110's three forms — IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`),
 * RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime (`Sun Nov  6 08:49:37 1994`) — plus what PHP's
 * `D, d M Y H:i:s T` writes: zones GMT/UTC/UT/Z, numeric offsets (`+0100`, `-05:30`, `+01`) and the RFC 2822
 * US zones. Names are case-insensitive, whitespace runs are free, a day may lack its leading zero.
 *
 * Invariant: success means the text names exactly one real instant — the day exists in that month and year,
 * the time is 00:00:00–23:59:59 (a leap second 60 is refused), and the weekday is the weekday of the date as
 * written (before the zone offset is applied). Two-digit years follow RFC 9110's 50-year rule against
 * `options.now` (default {@link rfc850Pivot}, so the result never depends on the clock).
 */
export const parse = (text: string, options?: ParseOptions): Result.Result<DateTime.Utc, InvalidHttpDate> => {
  const raw = matchShape(text.trim())
  if (raw === undefined) return Result.fail(new InvalidHttpDate({ value: text, reason: EXPECTED }))
  const fail = (reason: string) => Result.fail(new InvalidHttpDate({ value: text, reason }))
  const weekday = weekdayIndex(raw.weekday)
  if (weekday < 0) return fail(`unknown weekday ${raw.weekday} (expected Mon … Sun or Monday … Sunday)`)
  const month = monthIndex(raw.month)
  if (month === 0) return fail(`unknown month ${raw.month} (expected Jan … Dec)`)
  let offset = 0
  if (raw.zone !== undefined) {
    const zone = zoneOffset(raw.zone)
    if (Result.isFailure(zone)) return fail(zone.failure)
    offset = zone.success
  } else if (raw.form === "comma") {
    return fail("missing zone (e.g. GMT)")
  }
  const rest = {
    month,
    day: Number(raw.day),
    hour: Number(raw.hour),
    minute: Number(raw.minute),
    second: Number(raw.second),
    millisecond: 0,
    offset,
    weekday
  }
  let year: number
  if (raw.year.length === 4) {
    year = Number(raw.year)
  } else if (raw.year.length === 2 && raw.form === "comma") {
    year = resolveTwoDigitYear(Number(raw.year), rest, options?.now ?? rfc850Pivot)
  } else {
    return fail(`year ${raw.year} must have 4 digits (2 in the RFC 850 form)`)
  }
  return toInstant(text, { ...rest, year })
}

/**
 * Formats an instant as IMF-fixdate, always in GMT (`Sat, 21 Nov 2026 10:15:00 GMT`).
 *
 * Invariant: `parse(format(d))` is `d` truncated to the whole second (towards the past), for every year
 * 0000–9999; milliseconds are dropped because the grammar has none. Years outside 0000–9999 are written with
 * more digits or a sign and are not HTTP-dates.
 */
export const format = (d: DateTime.Utc): string => {
  const seconds = Math.floor(DateTime.toEpochMillis(d) / 1000)
  const days = Math.floor(seconds / SECONDS_PER_DAY)
  const secondOfDay = seconds - days * SECONDS_PER_DAY
  const { year, month, day } = civilFromDays(days)
  const hour = Math.floor(secondOfDay / 3600)
  const minute = Math.floor((secondOfDay % 3600) / 60)
  return `${weekdayName(weekdayOfDays(days))}, ${pad2(day)} ${monthName(month)} ${year4(year)} ${pad2(hour)}:${pad2(minute)}:${pad2(secondOfDay % 60)} GMT`
}

const ISO_FORM =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:\s*(\S+))?)?$/

/**
 * Parses what a person types for `--from`/`--to`: an HTTP-date (as {@link parse}) or ISO 8601 —
 * `2026-11-21` (the start of that day, UTC), `2026-11-21T10:15`, `2026-11-21T10:15:00.250Z`,
 * `2026-11-21 10:15:00` (no zone: UTC), `2026-11-21T10:15:00+01:00` (any zone {@link parse} accepts).
 *
 * Invariant: the same strictness as {@link parse} — no 31 April, no hour 24, no leap second; a text
 * starting with four digits and a dash is judged as ISO 8601, anything else as an HTTP-date.
 */
export const parseFlexible = (text: string, options?: ParseOptions): Result.Result<DateTime.Utc, InvalidHttpDate> => {
  const trimmed = text.trim()
  if (!/^\d{4}-/.test(trimmed)) {
    const httpDate = parse(text, options)
    return Result.isFailure(httpDate) && httpDate.failure.reason === EXPECTED
      ? Result.fail(new InvalidHttpDate({ value: text, reason: expectedForms }))
      : httpDate
  }
  const match = ISO_FORM.exec(trimmed)
  if (match === null) return Result.fail(new InvalidHttpDate({ value: text, reason: expectedForms }))
  const [, year = "", month = "", day = "", hour, minute, second, fraction, zone] = match
  const monthNumber = Number(month)
  if (monthNumber < 1 || monthNumber > 12) {
    return Result.fail(new InvalidHttpDate({ value: text, reason: `no such month: ${month} (months run 01–12)` }))
  }
  let offset = 0
  if (zone !== undefined) {
    const parsed = zoneOffset(zone)
    if (Result.isFailure(parsed)) return Result.fail(new InvalidHttpDate({ value: text, reason: parsed.failure }))
    offset = parsed.success
  }
  return toInstant(text, {
    year: Number(year),
    month: monthNumber,
    day: Number(day),
    hour: Number(hour ?? "0"),
    minute: Number(minute ?? "0"),
    second: Number(second ?? "0"),
    millisecond: fraction === undefined ? 0 : Number(fraction.slice(0, 3).padEnd(3, "0")),
    offset,
    weekday: undefined
  })
}

/**
 * Schema from an HTTP-date text to `DateTime.Utc`: decodes with {@link parse} (two-digit years against
 * {@link rfc850Pivot}), encodes with {@link format}. A refusal carries the parser's reason as its message.
 */
export const HttpDateFromString = Schema.String.annotate({ expected: "an HTTP-date such as Sat, 21 Nov 2026 10:15:00 GMT" }).pipe(
  Schema.decodeTo(
    Schema.DateTimeUtc,
    SchemaTransformation.transformEffect({
      decode: (text: string, options) =>
        Result.match(parse(text), {
          onSuccess: (date) => Effect.succeed(date),
          onFailure: (error) => Effect.fail(new SchemaIssue.InvalidValue({ message: error.message }, text, options))
        }),
      encode: (date: DateTime.Utc) => Effect.succeed(format(date))
    })
  )
)
